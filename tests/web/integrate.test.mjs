// The movement step (World.stepBody, over voxnav/integrate.h) on the real 1.16 region: bodies
// dropped onto the surface land exactly on the standing height navigation computes, slabs and
// soul sand placed by edits are landed on and stepped onto, walls stop a body at their face, a
// jump peaks under 1.25, and bad input throws VoxnavError without touching the world.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const region = path.join(h.repoRoot, 'data/worlds/r.0.-1.mca');

for (const build of ['sync', ...(h.hasThreadedBuild ? ['threaded'] : [])]) {
  describe(`stepBody on the real region (${build} build)`, { skip }, () => {
    let pkg, world, walker, report, tops, flat;
    before(async () => {
      pkg = await h.importPackage();
      const lib = await pkg.load({ build });
      world = lib.createWorld();
      const { blocks, shapes } = h.registryFiles();
      world.loadMinecraftBlocks(blocks, shapes);
      report = await world.loadRegion(fs.readFileSync(region));
      world.update();
      walker = world.addProfile({ id: 'walker' });
      tops = world.topBlocks(report.min, report.max);
      // A flat spot: a standable surface cell whose cells 3 east and 1 north/south stand at the
      // same height, with 3 cells of air above.
      const top = (x, z) => tops.heights[(x - report.min[0]) + tops.width * (z - report.min[2])];
      for (let z = report.min[2] + 2; z < report.max[2] - 2 && !flat; ++z) {
        for (let x = report.min[0] + 2; x < report.max[0] - 6 && !flat; ++x) {
          const y = top(x, z);
          let ok = world.standingHeight(walker, [x, y + 1, z]) === y + 1;
          for (let dx = -1; dx <= 4 && ok; ++dx) {
            for (let dz = -1; dz <= 1 && ok; ++dz) ok = top(x + dx, z + dz) === y && world.getBlock([x + dx, y + 3, z + dz]) === 0;
          }
          if (ok) flat = [x, y + 1, z];
        }
      }
      assert.ok(flat, 'the region has a flat spot');
    });
    after(() => world && world.dispose());

    const fall = (feet, steps = 60) => {
      let s = { feet };
      let landed = 0;
      for (let i = 0; i < steps && !(s.onGround && i > 0); ++i) {
        s = world.stepBody(s, {}, walker, 0.05);
        landed += s.report.landed ? 1 : 0;
      }
      return { ...s, landings: landed };
    };

    test('bodies dropped onto 300 surface columns land exactly on the standing height', () => {
      let checked = 0;
      for (let i = 0; i < tops.heights.length && checked < 300; i += 97) {
        const x = report.min[0] + (i % tops.width), z = report.min[2] + Math.floor(i / tops.width);
        const cell = [x, tops.heights[i] + 1, z];
        const feet = world.standingHeight(walker, cell);
        if (feet === null) continue;
        const s = fall([x + 0.5, feet + 3, z + 0.5]);
        assert.equal(s.onGround, true, `column ${x}, ${z}`);
        assert.equal(s.feet[1], feet, `column ${x}, ${z}: landed at ${s.feet[1]}, standing height ${feet}`);
        assert.equal(s.feet[0], x + 0.5);
        assert.equal(s.feet[2], z + 0.5);
        assert.equal(s.landings, 1);
        assert.equal(s.velocity[1], 0);
        checked += 1;
      }
      assert.ok(checked >= 250, `only ${checked} standable columns`);
    });

    test('a slab and soul sand placed by edits: landed on at 0.5 and 0.875, as navigation says', () => {
      const [x, y, z] = flat;
      // A slab (0.5) is a step for the walker (step height 0.6); soul sand from the floor (0.875) is not.
      const cases = [['oak_slab[type=bottom,waterlogged=false]', 0.5, true], ['soul_sand', 0.875, false]];
      for (const [block, rise, step] of cases) {
        const before = world.getBlock([x + 1, y, z]);
        world.setBlock([x + 1, y, z], world.blockValue(block));
        world.update();
        try {
          assert.equal(world.standingHeight(walker, [x + 1, y, z]), y + rise);
          const s = fall([x + 1.5, y + 2, z + 0.5]);
          assert.equal(s.feet[1], y + rise, block);
          // Walking from the flat cell onto it: a step up by exactly `rise`.
          let b = { feet: [x + 0.5, y, z + 0.5], onGround: true };
          let rose = 0, blocked = 0;
          for (let i = 0; i < 10; ++i) {
            b = world.stepBody(b, { move: [2, 0] }, walker);
            if (b.report.steppedUp) rose += b.report.stepRise;
            if (b.report.hitWallX) blocked += 1;
          }
          if (step) {
            assert.ok(b.feet[0] > x + 1.2, `walked onto the ${block}: x ${b.feet[0]}`);
            assert.equal(b.feet[1], y + rise, block);
            assert.ok(Math.abs(rose - rise) < 1e-9, `stepped up ${rose} onto ${block}`);
          } else {
            assert.ok(Math.abs(b.feet[0] - (x + 0.7)) < 1e-6, `stopped at the ${block}: x ${b.feet[0]}`);
            assert.equal(b.feet[1], y);
            assert.ok(blocked > 0 && rose === 0);
            // A jump takes it.
            for (let i = 0; i < 20; ++i) {
              b = world.stepBody(b, { move: [b.feet[0] < x + 1.5 ? 2 : 0, 0], jump: i === 0 }, walker);
            }
            assert.equal(b.feet[1], y + rise, `jumped onto the ${block}`);
          }
        } finally {
          world.setBlock([x + 1, y, z], before);
          world.update();
        }
      }
    });

    test('a wall two blocks high stops a walking body at its face; the step reports the hit', () => {
      const [x, y, z] = flat;
      const stone = world.blockValue('stone');
      world.setBox([x + 2, y, z - 1], [x + 2, y + 1, z + 1], stone);
      try {
        let b = { feet: [x + 0.5, y, z + 0.5], onGround: true };
        let hits = 0;
        for (let i = 0; i < 20; ++i) {
          b = world.stepBody(b, { move: [4.3, 0] }, walker);
          if (b.report.hitWallX) hits += 1;
        }
        assert.ok(hits > 0);
        assert.ok(Math.abs(b.feet[0] - (x + 2 - 0.3)) < 1e-6, `stopped at x ${b.feet[0]}`);
        assert.equal(b.feet[1], y);
        assert.equal(b.velocity[0], 0);
      } finally {
        world.setBox([x + 2, y, z - 1], [x + 2, y + 1, z + 1], 0);
        world.update();
      }
    });

    test('a jump on flat ground peaks under the 1.25 apex and lands on the same height', () => {
      const [x, y, z] = flat;
      let b = world.stepBody({ feet: [x + 0.5, y, z + 0.5], onGround: true }, { jump: true }, walker);
      let apex = b.feet[1], steps = 1;
      while (!b.onGround && steps < 40) {
        b = world.stepBody(b, {}, walker);
        apex = Math.max(apex, b.feet[1]);
        steps += 1;
      }
      assert.ok(apex - y > 1.2 && apex - y <= 1.25, `apex ${apex - y}`);
      assert.equal(steps, 12, 'a jump lasts 12 steps at 20 Hz');
      assert.equal(b.feet[1], y);
      assert.equal(b.report.landed, true);
    });

    test('profileBody follows the profile; custom params change the body', () => {
      const small = world.addProfile({ id: 'small', body: { width: 0.5, height: 1.5 }, jump_apex: 1.0 });
      const body = world.profileBody(small);
      assert.equal(body.width, 0.5);
      assert.equal(body.height, 1.5);
      assert.equal(body.jumpVelocity, Math.sqrt(2 * 32 * 1.0));
      assert.deepEqual(world.profileBody(walker), { ...pkg.DEFAULT_BODY });
      const [x, y, z] = flat;
      const low = world.stepBody({ feet: [x + 0.5, y, z + 0.5], onGround: true }, { jump: true }, { jumpVelocity: 4 });
      assert.ok(low.velocity[1] < 4 && low.velocity[1] > 2, `${low.velocity[1]}`);
    });

    test('bad input throws VoxnavError naming the field and leaves the world unchanged', () => {
      const [x, y, z] = flat;
      const feet = [x + 0.5, y, z + 0.5];
      const fingerprint = () => JSON.stringify([world.navEpoch, world.getBlock(flat), world.stats().searches]);
      const before = fingerprint();
      const cases = [
        [() => world.stepBody({ feet: [NaN, 1, 2] }), 'InvalidArgument', /stepBody: state\.feet is not finite/],
        [() => world.stepBody({ feet }, { move: [Infinity, 0] }), 'InvalidArgument', /input\.move is not finite/],
        [() => world.stepBody({ feet }, { move: [1] }), 'InvalidArgument', /input\.move must be \[x, z\]/],
        [() => world.stepBody({ feet }, {}, { width: 0 }), 'InvalidArgument', /params\.width 0 is not in \(0, 16\]/],
        [() => world.stepBody({ feet }, {}, { stepHeight: -1 }), 'InvalidArgument', /params\.stepHeight -1/],
        [() => world.stepBody({ feet }, {}, { wings: 2 }), 'InvalidArgument', /params\.wings is not a body field/],
        [() => world.stepBody({ feet }, {}, 97), 'InvalidArgument', /profile 97 is an agent id, not a profile id/],
        [() => world.stepBody({ feet }, {}, {}, 0), 'InvalidArgument', /dt 0 is not in \(0, 1\]/],
        [() => world.stepBody({ feet }, {}, {}, 1.5), 'InvalidArgument', /dt 1\.5 is not in \(0, 1\]/],
        [() => world.stepBody({ feet, mode: 'run' }), 'InvalidArgument', /state\.mode 'run' is not one of walk, fly, swim, climb/],
        [() => world.stepBody({ feet }, { climb: 'sideways' }), 'InvalidArgument', /input\.climb 'sideways'/],
        [() => world.stepBody({ feet: [4e7, 0, 0] }), 'OutOfRange', /state\.feet \(40000000, 0, 0\) is out of range/],
        [() => world.stepBody(null), 'InvalidArgument', /state must be an object/],
      ];
      for (const [fn, status, re] of cases) {
        assert.throws(fn, (e) => {
          assert.ok(e instanceof pkg.VoxnavError, String(e));
          assert.equal(e.status, status, e.message);
          assert.match(e.message, re);
          return true;
        });
      }
      assert.equal(fingerprint(), before);
      // Unloaded space collides as full blocks: a body dropped outside the region stays put.
      const out = world.stepBody({ feet: [1000.5, 80, 1000.5] });
      assert.deepEqual(out.feet, [1000.5, 80, 1000.5]);
      assert.equal(out.onGround, true);
    });
  });

  describe(`gapJumpRun against the movement step (${build} build)`, { skip }, () => {
    let pkg, lib, world, map, walker;
    before(async () => {
      pkg = await h.importPackage();
      lib = await pkg.load({ build });
      ({ world, map, walker } = h.worldWithMap(lib, 'arena.map'));
    });
    after(() => world && world.dispose());

    test('a body run and launched as gapJumpRun says lands on the landing cell over 1- and 2-cell gaps', () => {
      const WALKS = 4.317, SPRINTS = 5.612;
      // A row with 12 passable cells in a row (and its neighbours): the run-up, the gap, the landing.
      let row = null;
      for (let z = 2; z < map.height - 2 && !row; ++z) {
        for (let x = 2; x + 12 < map.width && !row; ++x) {
          let ok = true;
          for (let dx = 0; dx < 12 && ok; ++dx) for (let dz = -1; dz <= 1 && ok; ++dz) ok = map.passable(x + dx, z + dz);
          if (ok) row = [x, z];
        }
      }
      assert.ok(row, 'arena has an open row');
      const [x0, z] = row;
      for (const cells of [1, 2]) {
        const take = x0 + 5;                // take-off cell
        const land = take + cells + 1;      // landing cell
        for (let x = take + 1; x < land; ++x) world.setBlock([x, 0, z], 0);  // the gap (a pit one deep)
        const run = world.gapJumpRun(walker, cells, WALKS, SPRINTS);
        assert.ok(run.speed >= WALKS - 1e-12 && run.speed <= SPRINTS + 1e-12, `cells ${cells}: speed ${run.speed}`);
        assert.ok(run.takeOff > cells && run.takeOff < cells + 1, `cells ${cells}: takeOff ${run.takeOff}`);
        let s = { feet: [x0 + 0.5, 1, z + 0.5], onGround: true };
        let jumped = false, landedAt = null;
        for (let i = 0; i < 200 && !landedAt; ++i) {
          const jump = !jumped && s.onGround && land + 0.5 - s.feet[0] <= run.takeOff;
          s = world.stepBody(s, { move: [run.speed, 0], jump }, walker);
          jumped ||= jump;
          if (jumped && !jump && s.onGround) landedAt = s.feet;
        }
        assert.ok(landedAt, `cells ${cells}: the body landed`);
        assert.equal(landedAt[1], 1, `cells ${cells}: landed at feet y ${landedAt[1]} (1 = across the gap)`);
        assert.ok(Math.floor(landedAt[0]) >= land, `cells ${cells}: landed at x ${landedAt[0]}, the landing cell is ${land}`);
        for (let x = take + 1; x < land; ++x) world.setBlock([x, 0, z], world.blockValue('stone'));
      }
      const bad = [
        [() => world.gapJumpRun(walker, 0, WALKS, SPRINTS), 'InvalidArgument', 'cells'],
        [() => world.gapJumpRun(walker, 1, WALKS, 1), 'InvalidArgument', 'sprintSpeed'],
        [() => world.gapJumpRun({ gravity: -1 }, 1, WALKS, SPRINTS), 'InvalidArgument', 'params.gravity'],
        [() => world.gapJumpRun(walker, 1.5, WALKS, SPRINTS), 'InvalidArgument', 'cells'],
        [() => world.gapJumpRun({ width: '0.6' }, 1, WALKS, SPRINTS), 'InvalidArgument', 'params.width'],
      ];
      for (const [call, status, argument] of bad) {
        assert.throws(call, (e) => {
          assert.ok(e instanceof pkg.VoxnavError, String(e));
          assert.equal(e.status, status, e.message);
          assert.equal(e.argument, argument, e.message);
          return true;
        });
      }
    });
  });
}
