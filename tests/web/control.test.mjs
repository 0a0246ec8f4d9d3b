// The JS side of agents the game controls and the queries a brain asks (issue 20; lineFlyable:
// issue 21), on the real 1.16 region (data/worlds/r.0.-1.mca), against oracles that do not use
// the code under test:
// - findSpawnCells against a brute-force isStandable scan of the same box, and the filter's
//   rules checked cell by cell (distance to the avoided points, the reject callback);
// - lineWalkable against the movement step (stepBody driven straight at the far cell's centre at
//   walk speed, no jump, as tests/control/queries_native_test.cpp does natively): never yes where
//   the step does not walk the line;
// - estimateTravel against findPathNow's optimal cost (never above it, as a travel time);
// - lineFlyable against a sampled swept box over the blocks' collision boxes (blockDef): never yes
//   where a sample of the body overlaps a box;
// - chase, flee, stop, knock, followPath and teleport with a facing by their effect on the agent;
// - bad input: VoxnavError naming the argument as the C++ CallError does, state hash unchanged.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const regionFile = path.join(h.repoRoot, 'data/worlds/r.0.-1.mca');
const skip = h.skipReason || (fs.existsSync(regionFile) ? false : 'no data/worlds/r.0.-1.mca');

const WALK = 4.3;       // the walker profile's walk speed (docs/profiles.md), m/s
const COST_CELL = 10000;  // kCostStraight: the search's cost of one straight cell

/** SplitMix-like deterministic generator (doubles in [0, 1)). */
function rng(seed) {
  let s = BigInt(seed);
  return () => {
    s = (s + 0x9E3779B97F4A7C15n) & 0xFFFFFFFFFFFFFFFFn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & 0xFFFFFFFFFFFFFFFFn;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & 0xFFFFFFFFFFFFFFFFn;
    return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
  };
}
const cellsOf = (v) => Array.from({ length: v.length / 3 }, (_, i) => [v[3 * i], v[3 * i + 1], v[3 * i + 2]]);
const key = (c) => c.join(',');

describe('agents the game controls and brain queries (JS) on the real region', { skip }, () => {
  let pkg, lib, world, walker, bird, cells;
  const BOX = [[96, 40, -176], [159, 103, -113]];  // 64 x 64 x 64: LIMITS.maxSpawnBoxCells
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
    world = lib.createWorld();
    const { blocks, shapes } = h.registryFiles();
    world.loadMinecraftBlocks(blocks, shapes);
    await world.loadRegion(fs.readFileSync(regionFile));
    walker = world.addProfile({ id: 'walker', speed: { walk: WALK, sprint: 5.6 } });
    bird = world.addProfile({ id: 'bird', class: 'flyer', can_fly: true });
    world.update();
    const s = world.findSpawnCells(walker, ...BOX, {}, 1, lib.LIMITS.maxSpawnCells);
    cells = cellsOf(s.cells);
  });
  after(() => world && world.dispose());

  test('LIMITS carry the C++ limits of control.h and queries.h', () => {
    const L = lib.LIMITS;
    assert.deepEqual(
      [L.maxLookahead, L.maxKnock, L.maxEntities, L.minChaseRange, L.maxChaseRange, L.maxFleeDistance,
        L.maxLineWalkCells, L.maxLineFlyCells, L.maxSpawnBoxCells, L.maxSpawnCells, L.maxFilterPoints,
        L.maxFilterDistance, L.maxFilterHeadroom, L.maxFilterHazardDistance, L.maxCellMoves],
      [4096, 1000, 65536, 0.5, 64, 64, 256, 1024, 262144, 4096, 64, 4096, 16, 4, 32]);
    assert.deepEqual(pkg.CELL_REACH, ['any', 'from', 'to', 'both']);
  });

  test('findSpawnCells gives the standable cells of the box a brute-force scan finds', () => {
    const min = [120, 55, -176], max = [151, 94, -145];
    const all = new Set();
    for (let y = min[1]; y <= max[1]; ++y)
      for (let z = min[2]; z <= max[2]; ++z)
        for (let x = min[0]; x <= max[0]; ++x) if (world.isStandable(walker, [x, y, z])) all.add(key([x, y, z]));
    assert.ok(all.size > 200 && all.size < 4096, `${all.size} standable cells`);
    const r = world.findSpawnCells(walker, min, max, {}, 42, 4096);
    assert.equal(r.count, all.size);
    const got = cellsOf(r.cells).map(key);
    assert.equal(new Set(got).size, got.length, 'distinct');
    assert.deepEqual(new Set(got), all);
    // Seeded: the same seed, the same cells in the same order; another seed another order.
    const a = world.findSpawnCells(walker, min, max, {}, 7, 10), b = world.findSpawnCells(walker, min, max, {}, 7, 10);
    assert.equal(a.count, 10);
    assert.deepEqual(a.cells, b.cells);
    assert.notDeepEqual(world.findSpawnCells(walker, min, max, {}, 8, 10).cells, a.cells);
    for (const c of cellsOf(a.cells)) assert.ok(all.has(key(c)));
    // Avoided points: every cell's bottom centre at least minDistance from each.
    const p = [135.5, 70, -160.5], d = 9;
    const far = world.findSpawnCells(walker, min, max, { avoid: [p], minDistance: d }, 3, 4096);
    const expect = [...all].map((k) => k.split(',').map(Number))
      .filter(([x, y, z]) => (x + 0.5 - p[0]) ** 2 + (y - p[1]) ** 2 + (z + 0.5 - p[2]) ** 2 >= d * d);
    assert.equal(far.count, expect.length);
    assert.ok(far.count < all.size && far.count > 0);
    // The host's callback: asked once per cell that passed, its true rejects the cell.
    const asked = [];
    const odd = world.findSpawnCells(walker, min, max, { reject: (c) => (asked.push(key(c)), c[0] % 2 !== 0) }, 5, 4096);
    assert.equal(asked.length, all.size);
    assert.equal(new Set(asked).size, asked.length);
    assert.equal(odd.count, [...all].filter((k) => Number(k.split(',')[0]) % 2 === 0).length);
    for (const c of cellsOf(odd.cells)) assert.equal(c[0] % 2, 0);
    // A callback that throws: its error, after the call.
    const boom = new Error('host says no');
    assert.throws(() => world.findSpawnCells(walker, min, max, { reject: () => { throw boom; } }, 5, 10), (e) => e === boom);
    // The filtered nearestStandable: the nearest passing cell by the oracle's order.
    const near = [135, 70, -160];
    const want = [...all].map((k) => k.split(',').map(Number))
      .filter((c) => c[0] % 2 === 0 && Math.max(...c.map((v, i) => Math.abs(v - near[i]))) <= 6)
      .sort((u, v) => {
        const du = u.reduce((s, x, i) => s + (x - near[i]) ** 2, 0), dv = v.reduce((s, x, i) => s + (x - near[i]) ** 2, 0);
        return du - dv || u[1] - v[1] || u[2] - v[2] || u[0] - v[0];
      });
    assert.deepEqual(world.nearestStandable(walker, near, 6, { reject: (c) => c[0] % 2 !== 0 }), want[0] ?? null);
  });

  /** The movement step walking straight from a's centre to b's (queries_native_test.cpp's oracle). */
  function stepWalks(a, b) {
    const body = world.profileBody(walker);
    let st = { feet: [a[0] + 0.5, world.standingHeight(walker, a), a[2] + 0.5], onGround: true };
    const t = [b[0] + 0.5, world.standingHeight(walker, b), b[2] + 0.5];
    const dt = 0.05;
    const ticks = Math.ceil(Math.hypot(t[0] - st.feet[0], t[2] - st.feet[2]) / (WALK * dt)) + 80;
    for (let k = 0; k < ticks; ++k) {
      const dx = t[0] - st.feet[0], dz = t[2] - st.feet[2], d = Math.hypot(dx, dz);
      const move = d > 1e-9 ? [dx / d * Math.min(WALK, d / dt), dz / d * Math.min(WALK, d / dt)] : [0, 0];
      const r = world.stepBody({ feet: st.feet, velocity: st.velocity, carry: st.carry, onGround: st.onGround, mode: st.mode }, { move }, body, dt);
      if (r.report.hitWallX || r.report.hitWallZ) return false;
      st = r;
      if (d <= 1e-9 && st.onGround) break;
    }
    const end = [Math.floor(st.feet[0]), Math.floor(st.feet[1] + 1e-3), Math.floor(st.feet[2])];
    return st.onGround && key(end) === key(b) && Math.hypot(t[0] - st.feet[0], t[2] - st.feet[2]) < 0.01;
  }

  test('lineWalkable never says yes where the movement step cannot walk the line', () => {
    const byColumn = new Map();
    for (const c of cells) {
      const k = `${c[0]},${c[2]}`;
      if (!byColumn.has(k)) byColumn.set(k, []);
      byColumn.get(k).push(c);
    }
    const rand = rng(11);
    let yes = 0, no = 0, wrong = [], levelChange = 0;
    for (let i = 0; i < 400;) {
      const a = cells[Math.floor(rand() * cells.length)];
      const col = byColumn.get(`${a[0] + Math.floor(rand() * 25) - 12},${a[2] + Math.floor(rand() * 25) - 12}`);
      const nearby = (col ?? []).filter((c) => Math.abs(c[1] - a[1]) <= 4);
      if (nearby.length === 0) continue;
      const b = nearby[Math.floor(rand() * nearby.length)];
      ++i;
      const q = world.lineWalkable(walker, a, b);
      if (!q) { ++no; continue; }
      ++yes;
      if (a[1] !== b[1]) ++levelChange;
      if (!stepWalks(a, b)) wrong.push([a, b]);
    }
    assert.deepEqual(wrong, [], 'lines lineWalkable passes that the step does not walk');
    assert.ok(yes > 40 && no > 40, `yes ${yes}, no ${no}`);
    assert.ok(levelChange > 0, 'some lines that change level');
    assert.equal(world.lineWalkable(walker, cells[0], cells[0]), true);
  });

  test('estimateTravel is never above the optimal travel time findPathNow finds', () => {
    const rand = rng(5);
    let pairs = 0, sum = 0;
    for (let i = 0; i < 400 && pairs < 150; ++i) {
      const a = cells[Math.floor(rand() * cells.length)], b = cells[Math.floor(rand() * cells.length)];
      const est = world.estimateTravel(walker, a, b);
      const r = world.findPathNow(walker, a, b);
      if (r.state !== 'ready' || r.partial) {
        if (world.reachable(walker, a, b).answer === 'no') assert.equal(est, Infinity);
        continue;
      }
      const optimal = r.cost / COST_CELL / WALK;
      assert.ok(est <= optimal + 1e-9, `${a} -> ${b}: estimate ${est} > optimal ${optimal}`);
      if (optimal > 0) sum += est / optimal, ++pairs;
    }
    assert.ok(pairs >= 100, `${pairs} reachable pairs`);
    assert.ok(sum / pairs > 0.5, `mean ratio ${sum / pairs}`);
    assert.equal(world.estimateTravel(walker, cells[0], cells[0]), 0);
  });

  test('cellMoves: every move lands on a standable cell and costs no less than the optimal route to it', () => {
    // Oracle: findPathNow searches the same graph; the cheapest route from a cell to a neighbour
    // it moves to is never dearer than that one move, and a level walk costs one cell (straight or
    // diagonal) when findPathNow finds it in one move.
    const rand = rng(11);
    let moves = 0, direct = 0;
    const kinds = new Set();
    for (let i = 0; i < 120; ++i) {
      const c = cells[Math.floor(rand() * cells.length)];
      const out = world.cellMoves(walker, c);
      assert.ok(out.length <= lib.LIMITS.maxCellMoves, `${c}: ${out.length} moves`);
      for (const m of out) {
        ++moves;
        kinds.add(m.kind);
        assert.ok(pkg.EDGE_KINDS.includes(m.kind), m.kind);
        assert.equal(world.isStandable(walker, m.to), true, `${c} -> ${m.to} (${m.kind})`);
        assert.ok(Math.max(Math.abs(m.to[0] - c[0]), Math.abs(m.to[2] - c[2])) <= 4, `${c} -> ${m.to}`);
        const r = world.findPathNow(walker, c, m.to);
        assert.equal(r.state, 'ready', `${c} -> ${m.to}`);
        assert.ok(r.cost <= m.cost, `${c} -> ${m.to} (${m.kind}): route ${r.cost} > move ${m.cost}`);
        if (m.kind === 'walk' && m.to[1] === c[1] && r.cost === m.cost && r.cellCount === 2) {
          ++direct;
          const diagonal = m.to[0] !== c[0] && m.to[2] !== c[2];
          assert.ok(m.cost >= (diagonal ? 14142 : COST_CELL), `${c} -> ${m.to}: ${m.cost}`);
        }
      }
    }
    assert.ok(moves >= 500, `${moves} moves`);
    assert.ok(direct >= 100, `${direct} direct level walks`);
    assert.ok(kinds.has('walk') && kinds.size >= 3, [...kinds].join(' '));
    // A cell that is no node of the navigation has no moves.
    assert.deepEqual(world.cellMoves(walker, [cells[0][0], cells[0][1] - 1, cells[0][2]]), []);
  });

  test('lineFlyable never passes a segment whose swept body overlaps a collision box', () => {
    const boxesOf = new Map();
    const boxes = (v) => {
      if (!boxesOf.has(v)) boxesOf.set(v, world.blockDef(v).boxes);
      return boxesOf.get(v);
    };
    const hw = 0.49, height = 1.95;
    const touches = (f) => {
      for (let y = Math.floor(f[1]); y <= Math.floor(f[1] + height); ++y)
        for (let z = Math.floor(f[2] - hw); z <= Math.floor(f[2] + hw); ++z)
          for (let x = Math.floor(f[0] - hw); x <= Math.floor(f[0] + hw); ++x) {
            const v = world.getBlock([x, y, z]);
            if (v === 0) continue;
            for (const [x0, y0, z0, x1, y1, z1] of boxes(v))
              if (x + x0 < f[0] + hw && x + x1 > f[0] - hw && y + y0 < f[1] + height && y + y1 > f[1] &&
                  z + z0 < f[2] + hw && z + z1 > f[2] - hw) return true;
          }
      return false;
    };
    const rand = rng(21);
    let yes = 0, no = 0;
    for (let i = 0; i < 300; ++i) {
      const a = [100 + rand() * 56, 60 + rand() * 40, -172 + rand() * 56];
      const b = [a[0] + (rand() - 0.5) * 24, a[1] + (rand() - 0.5) * 12, a[2] + (rand() - 0.5) * 24];
      const q = world.lineFlyable(bird, a, b);
      if (!q) { ++no; continue; }
      ++yes;
      const n = Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / 0.05);
      for (let k = 0; k <= n; ++k) {
        const f = a.map((v, j) => v + (b[j] - v) * (k / n));
        assert.ok(!touches(f), `lineFlyable ${a} -> ${b} passes, the body at ${f} overlaps a block`);
      }
    }
    assert.ok(yes > 30 && no > 30, `yes ${yes}, no ${no}`);
    assert.throws(() => world.lineFlyable(walker, [0, 80, 0], [1, 80, 1]), { name: 'VoxnavError', status: 'Unsupported' });
  });

  test('a flyer request from JS: a corridor of fly waypoints whose every segment lineFlyable passes', () => {
    const rand = rng(31);
    let checked = 0;
    for (let i = 0; i < 40 && checked < 8; ++i) {
      const a = [100 + Math.floor(rand() * 56), 75 + Math.floor(rand() * 20), -172 + Math.floor(rand() * 56)];
      const b = [100 + Math.floor(rand() * 56), 75 + Math.floor(rand() * 20), -172 + Math.floor(rand() * 56)];
      if (!world.isStandable(bird, a) || !world.isStandable(bird, b)) continue;
      const r = world.findPathNow(bird, a, b);
      if (r.state !== 'ready') continue;
      ++checked;
      const c = r.corridor, n = c.kinds.length;
      assert.ok(n >= 1);
      for (let k = 1; k < n; ++k) assert.equal(pkg.EDGE_KINDS[c.kinds[k]], 'fly');
      const last = [c.positions[3 * n - 3], c.positions[3 * n - 2], c.positions[3 * n - 1]];
      assert.deepEqual(last.map(Math.floor), b);
      let from = [a[0] + 0.5, a[1], a[2] + 0.5];
      for (let k = 0; k < n; ++k) {
        const to = [c.positions[3 * k], c.positions[3 * k + 1], c.positions[3 * k + 2]];
        assert.equal(world.lineFlyable(bird, from, to), true, `segment ${from} -> ${to} of ${a} -> ${b}`);
        from = to;
      }
    }
    assert.ok(checked >= 4, `${checked} flyer corridors`);
  });

  test('flyer agents from JS: fly corridors lineFlyable passes, every flyer arrives and hovers there', () => {
    const rand = rng(47);
    const flyers = [];
    for (let i = 0; i < 200 && flyers.length < 6; ++i) {
      const a = [100 + Math.floor(rand() * 56), 75 + Math.floor(rand() * 20), -172 + Math.floor(rand() * 56)];
      const b = [100 + Math.floor(rand() * 56), 75 + Math.floor(rand() * 20), -172 + Math.floor(rand() * 56)];
      if (!world.isStandable(bird, a) || !world.isStandable(bird, b)) continue;
      if (world.findPathNow(bird, a, b).state !== 'ready') continue;
      const id = world.addAgent(bird, [a[0] + 0.5, a[1], a[2] + 0.5]);
      world.setAgentGoal(id, b);
      flyers.push({ id, a, b, checked: false });
    }
    assert.ok(flyers.length >= 4, `${flyers.length} flyers`);
    try {
      for (let t = 0; t < 1200 && flyers.some((f) => world.agentState(f.id).mode !== 'arrived'); ++t) {
        world.tick(0.05);
        for (const f of flyers) {
          if (f.checked || world.agentState(f.id).mode !== 'moving') continue;
          // The corridor as installed: fly waypoints, each segment a clear flyer line.
          const c = world.agentCorridor(f.id), n = c.kinds.length;
          for (let k = 1; k < n; ++k) {
            assert.equal(pkg.EDGE_KINDS[c.kinds[k]], 'fly');
            const p = (j) => [c.positions[3 * j], c.positions[3 * j + 1], c.positions[3 * j + 2]];
            assert.equal(world.lineFlyable(bird, p(k - 1), p(k)), true, `segment ${k} of ${f.a} -> ${f.b}`);
          }
          f.checked = true;
        }
      }
      for (const f of flyers) {
        const s = world.agentState(f.id);
        assert.equal(s.mode, 'arrived', `${f.a} -> ${f.b}: ${s.mode} ${world.agentReason(f.id)}`);
        assert.ok(Math.hypot(s.feet[0] - (f.b[0] + 0.5), s.feet[2] - (f.b[2] + 0.5)) <= 0.5, `${s.feet} vs ${f.b}`);
        assert.ok(Math.abs(s.feet[1] - f.b[1]) <= 0.5, `${s.feet} vs ${f.b}`);
      }
      // Hovering: arrived flyers hold their height (no gravity).
      const before = flyers.map((f) => world.agentState(f.id).feet[1]);
      for (let t = 0; t < 40; ++t) world.tick(0.05);
      flyers.forEach((f, i) => assert.equal(world.agentState(f.id).feet[1], before[i]));
    } finally {
      for (const f of flyers) world.removeAgent(f.id);
    }
  });

  /** Two standable cells about `d` cells apart on one island, the way between them ready. */
  function pairApart(d, seed, level = false) {
    const rand = rng(seed);
    for (let i = 0; i < 4000; ++i) {
      const a = cells[Math.floor(rand() * cells.length)], b = cells[Math.floor(rand() * cells.length)];
      const dist = Math.hypot(a[0] - b[0], a[2] - b[2]);
      if (dist < d || dist > d + 4 || (level && a[1] !== b[1])) continue;
      const r = world.findPathNow(walker, a, b);
      if (r.state === 'ready' && !r.partial) return [a, b];
    }
    throw new Error('no pair');
  }
  const feetOf = (c) => [c[0] + 0.5, world.standingHeight(walker, c), c[2] + 0.5];
  const ticks = (n) => { for (let i = 0; i < n; ++i) world.tick(0.05); };

  test('chaseEntity and chaseAgent bring the chaser within range of its moving target', () => {
    // Targets on the chaser's level (a target one block up: the test below).
    const [a, b] = pairApart(14, 1, true);
    const [, c] = pairApart(14, 2, true);
    const chaser = world.addAgent(walker, feetOf(a));
    const entity = world.addEntity(feetOf(b));
    assert.deepEqual(world.entityPosition(entity), feetOf(b));
    world.chaseEntity(chaser, entity, 1.5);
    ticks(400);
    let s = world.agentState(chaser);
    assert.equal(s.mode, 'arrived');
    assert.ok(Math.hypot(...s.feet.map((v, i) => v - feetOf(b)[i])) <= 1.5 + 1e-9);
    // The entity moves: the chaser goes after it and catches it again.
    world.setEntityPosition(entity, feetOf(c));
    if (world.findPathNow(walker, b, c).state === 'ready') {
      ticks(400);
      s = world.agentState(chaser);
      assert.ok(Math.hypot(...s.feet.map((v, i) => v - feetOf(c)[i])) <= 1.5 + 1e-9, `${s.feet} vs ${feetOf(c)}`);
      assert.ok(s.arrivals >= 2);
    }
    // A removed target: the chaser stops, failed, with a reason.
    world.removeEntity(entity);
    ticks(2);
    assert.equal(world.agentState(chaser).mode, 'failed');
    assert.match(world.agentReason(chaser), /target/);
    // Another agent as the target, walking away to b: caught once it stops there.
    const target = world.addAgent(walker, world.agentState(chaser).feet);
    world.setAgentGoal(target, a);
    world.chaseAgent(chaser, target, 2);
    ticks(400);
    const t = world.agentState(target), u = world.agentState(chaser);
    assert.equal(t.mode, 'arrived');
    assert.ok(Math.hypot(...t.feet.map((v, i) => v - u.feet[i])) <= 2 + 1e-9);
    world.removeAgent(target);
    world.removeAgent(chaser);
  });

  // Found by this suite: a chaser near an entity standing one block up (a grass step) replanned
  // every few ticks, Planning for ever (the search counted the chaser's own cell within the goal
  // range of the target's cell, the catch test's 3D distance did not). An entity's standable cell
  // is now the search's goal itself (tests/control/intents_region_native_test.cpp).
  test('a chaser reaches a target one block up (once a replan loop)', () => {
    const a = [150, 67, -146], b = [136, 65, -143];
    const chaser = world.addAgent(walker, feetOf(a));
    const entity = world.addEntity(feetOf(b));
    try {
      world.chaseEntity(chaser, entity, 1.5);
      ticks(300);
      assert.equal(world.agentState(chaser).mode, 'arrived');
    } finally {
      world.removeAgent(chaser);
      world.removeEntity(entity);
    }
  });

  test('fleeFrom ends at least the distance away; stopAgent stays put; followPath arrives', () => {
    const [a, b] = pairApart(12, 3);
    const agent = world.addAgent(walker, feetOf(a));
    world.fleeFrom(agent, a, 8);
    ticks(300);
    let s = world.agentState(agent);
    assert.equal(s.mode, 'arrived');
    const end = [Math.floor(s.feet[0]), Math.floor(s.feet[1] + 1e-3), Math.floor(s.feet[2])];
    assert.ok(end.reduce((t, v, i) => t + (v - a[i]) ** 2, 0) >= 64, `fled to ${end}`);
    // Stop: mid-way to a goal, then it stays where it stopped.
    world.setAgentGoal(agent, b);
    ticks(10);
    world.stopAgent(agent);
    ticks(2);
    const at = world.agentState(agent).feet;
    ticks(40);
    s = world.agentState(agent);
    assert.equal(s.mode, 'idle');
    assert.ok(Math.hypot(...s.feet.map((v, i) => v - at[i])) < 1e-9);
    // Follow the host's request from the agent's cell.
    world.teleportAgent(agent, feetOf(a), 16384);
    assert.equal(world.agentLocomotion(agent).yaw, 16384);
    const handle = world.request(walker, a, b);
    for (let i = 0; i < 20 && world.status(handle).state === 'searching'; ++i) world.update();
    world.followPath(agent, handle);
    world.release(handle);
    ticks(400);
    s = world.agentState(agent);
    assert.equal(s.mode, 'arrived');
    assert.ok(Math.hypot(s.feet[0] - b[0] - 0.5, s.feet[2] - b[2] - 0.5) < 1.5);
    world.removeAgent(agent);
  });

  test('knockAgent lifts the agent under a lock; it lands and resumes; sprint and lookahead read back', () => {
    const [a, b] = pairApart(16, 4);
    const agent = world.addAgent(walker, feetOf(a));
    world.setAgentGoal(agent, b);
    world.setAgentSprint(agent, true);
    ticks(6);
    let loco = world.agentLocomotion(agent);
    assert.equal(loco.sprinting, true);
    assert.equal(loco.cruiseSpeed, 5.6);
    assert.ok(loco.distanceToStop > 0);
    const ahead = world.agentLookahead(agent, 6);
    const all = world.agentCorridor(agent);
    assert.ok(ahead.kinds.length >= 1 && ahead.kinds.length <= all.kinds.length);
    world.knockAgent(agent, [0, 8, 3]);
    ticks(1);
    loco = world.agentLocomotion(agent);
    assert.equal(loco.knocks, 1);
    assert.equal(loco.knocked, true);
    assert.equal(world.agentState(agent).onGround, false);
    ticks(500);
    loco = world.agentLocomotion(agent);
    assert.equal(loco.knocked, false);
    assert.equal(loco.lockResumes + loco.lockReplans, 1);
    assert.equal(world.agentState(agent).mode, 'arrived');
    world.removeAgent(agent);
  });

  test('bad input: VoxnavError naming the argument, nothing changes', () => {
    const [a, b] = pairApart(10, 6);
    const agent = world.addAgent(walker, feetOf(a));
    const other = world.addAgent(walker, feetOf(b));
    const entity = world.addEntity(feetOf(b));
    world.setAgentGoal(agent, b);
    ticks(3);
    const hash = world.stateHash();
    const handle = world.request(walker, a, b);
    const cases = [
      [() => world.knockAgent(agent, [NaN, 0, 0]), 'InvalidArgument', 'knockAgent', 'impulse'],
      [() => world.knockAgent(agent, [2000, 0, 0]), 'InvalidArgument', 'knockAgent', 'impulse'],
      [() => world.knockAgents([{ agent, impulse: [0, 1, 0] }, { agent: other, impulse: [0, Infinity, 0] }]), 'InvalidArgument', 'knockAgents', 'knocks[1].impulse'],
      [() => world.knockAgents([{ agent, impulse: [0, 1, 0] }, { agent: entity, impulse: [0, 1, 0] }]), 'InvalidArgument', 'knockAgents', 'knocks[1].agent'],
      [() => world.chaseAgent(agent, agent), 'InvalidArgument', 'chaseAgent', 'target'],
      [() => world.chaseAgent(agent, other, 100), 'InvalidArgument', 'chaseAgent', 'range'],
      [() => world.chaseAgent(agent, entity), 'InvalidArgument', 'chaseAgent', 'target'],
      [() => world.chaseEntity(agent, other), 'InvalidArgument', 'chaseEntity', 'target'],
      [() => world.chaseEntity(agent, entity, 0.1), 'InvalidArgument', 'chaseEntity', 'range'],
      [() => world.fleeFrom(agent, a, 0), 'InvalidArgument', 'fleeFrom', 'distance'],
      [() => world.fleeFrom(agent, a, 2.5), 'InvalidArgument', 'fleeFrom', 'distance'],
      [() => world.fleeFrom(agent, [0, 1e6, 0], 5), 'OutOfRange', 'fleeFrom', 'from'],
      [() => world.followPath(agent, other), 'InvalidArgument', 'followPath', 'path'],
      [() => world.followPath(agent, handle), 'Busy', 'followPath', 'path'],
      [() => world.teleportAgent(agent, feetOf(b), 70000), 'InvalidArgument', 'teleportAgent', 'yaw'],
      [() => world.teleportAgent(agent, [NaN, 0, 0], 5), 'InvalidArgument', 'teleportAgent', 'feet'],
      [() => world.setAgentSprint(entity, true), 'InvalidArgument', 'setAgentSprint', 'agent'],
      [() => world.stopAgent(entity), 'InvalidArgument', 'stopAgent', 'agent'],
      [() => world.agentLookahead(agent, 1e9), 'InvalidArgument', 'agentLookahead', 'length'],
      [() => world.setEntityPosition(entity, [0, Infinity, 0]), 'InvalidArgument', 'setEntityPosition', 'position'],
      [() => world.setEntityPosition(agent, [0, 70, 0]), 'InvalidArgument', 'setEntityPosition', 'entity'],
      [() => world.removeEntity(handle), 'InvalidArgument', 'removeEntity', 'entity'],
      [() => world.addEntity([0, 1e12, 0]), 'OutOfRange', 'addEntity', 'position'],
      [() => world.lineWalkable(walker, a, [a[0] + 300, a[1], a[2]]), 'InvalidArgument', 'lineWalkable', 'to'],
      [() => world.lineWalkable(bird, a, b), 'Unsupported', 'lineWalkable', 'profile'],
      [() => world.estimateTravel(walker, a, [0, 0, 2 ** 26]), 'OutOfRange', 'estimateTravel', 'to'],
      [() => world.lineFlyable(bird, [0, 80, 0], [2000, 80, 0]), 'InvalidArgument', 'lineFlyable', 'to'],
      [() => world.findSpawnCells(walker, ...BOX, {}, 1, 0), 'InvalidArgument', 'findSpawnCells', 'maxCells'],
      [() => world.findSpawnCells(walker, ...BOX, {}, 1.5, 4), 'InvalidArgument', 'findSpawnCells', 'seed'],
      [() => world.findSpawnCells(walker, [0, 0, 0], [64, 64, 64], {}, 1, 4), 'InvalidArgument', 'findSpawnCells', 'max'],
      [() => world.findSpawnCells(walker, ...BOX, { minHeadroom: 99 }, 1, 4), 'InvalidArgument', 'findSpawnCells', 'filter.minHeadroom'],
      [() => world.findSpawnCells(walker, ...BOX, { hazardDistance: -1 }, 1, 4), 'InvalidArgument', 'findSpawnCells', 'filter.hazardDistance'],
      [() => world.findSpawnCells(walker, ...BOX, { avoid: [[0, NaN, 0]] }, 1, 4), 'InvalidArgument', 'findSpawnCells', 'filter.avoid[0]'],
      [() => world.findSpawnCells(walker, ...BOX, { reach: 'sideways' }, 1, 4), 'InvalidArgument', 'findSpawnCells', 'filter.reach'],
      [() => world.findSpawnCells(walker, ...BOX, { reach: 'from', reachCell: [0, 1e6, 0] }, 1, 4), 'OutOfRange', 'findSpawnCells', 'filter.reachCell'],
      [() => world.findSpawnCells(walker, ...BOX, { minDistance: 5000 }, 1, 4), 'InvalidArgument', 'findSpawnCells', 'filter.minDistance'],
      [() => world.findSpawnCells(walker, ...BOX, { colour: 'red' }, 1, 4), 'InvalidArgument', 'findSpawnCells', 'filter'],
      [() => world.nearestStandable(walker, a, 99, {}), 'InvalidArgument', 'nearestStandable', 'radius'],
      [() => world.cellMoves(walker, [0, 1e6, 0]), 'OutOfRange', 'cellMoves', 'from'],
      [() => world.cellMoves(walker, [0, NaN, 0]), 'InvalidArgument', 'cellMoves', 'from'],
      [() => world.cellMoves(bird, a), 'Unsupported', 'cellMoves', 'profile'],
      [() => world.cellMoves(12345, a), 'InvalidArgument', 'cellMoves', 'profile'],
      [() => world.yawOfDirection([0, 5, 0]), 'InvalidArgument', 'yawOfDirection', 'direction'],
    ];
    for (const [call, status, fn, argument] of cases) {
      assert.throws(call, (e) => {
        assert.equal(e.name, 'VoxnavError', String(call));
        assert.equal(e.status, status, `${call}: ${e.message}`);
        assert.equal(e.function, fn, `${call}: ${e.message}`);
        assert.equal(e.argument, argument, `${call}: ${e.message}`);
        assert.ok(e.message.startsWith(`${fn}: `), e.message);
        return true;
      });
      assert.equal(world.stateHash(), hash, `${call} changed the world`);
    }
    assert.deepEqual(world.entityPosition(entity), feetOf(b));
    assert.equal(world.agentLocomotion(agent).knocks, 0);
    // A removed entity's id is stale.
    world.removeEntity(entity);
    assert.throws(() => world.entityPosition(entity), { status: 'StaleHandle', argument: 'entity' });
    world.release(handle);
    world.removeAgent(agent);
    world.removeAgent(other);
  });
});

// The same numbers as tests/control/pinned_queries_native_test.cpp pins for the native build: native
// and wasm agree on them bit for bit.
describe('pinned query answers, the same as the native build\'s', { skip }, () => {
  for (const build of h.hasThreadedBuild ? ['sync', 'threaded'] : ['sync']) test(`spawn cells, travel estimates, straight walks, the filtered nearest cell, facings (${build} build)`, async () => {
    const pkg = await h.importPackage();
    const lib = await pkg.load({ build });
    const world = lib.createWorld();
    try {
      const { blocks, shapes } = h.registryFiles();
      world.loadMinecraftBlocks(blocks, shapes);
      await world.loadRegion(fs.readFileSync(regionFile));
      const pid = world.addProfile({ id: 'walker' });
      world.update();
      const s = world.findSpawnCells(pid, [96, 40, -176], [159, 103, -113], {
        minHeadroom: 1, hazardDistance: 1, excludeFluids: true, avoid: [[130.5, 70, -160.5]], minDistance: 6,
      }, 12345, 8);
      assert.equal(s.count, 8);
      assert.deepEqual(Array.from(s.cells), [97, 64, -147, 151, 66, -153, 141, 74, -114, 128, 67, -170, 127, 71, -123,
        101, 68, -165, 101, 69, -145, 145, 85, -173]);
      const estimates = [13.136093023255814, 10.033023255813955, 14.275488372093024, 11.026558139534885,
        12.271906976744186, 4.6511627906976747, Infinity];
      const c = cellsOf(s.cells);
      estimates.forEach((t, i) => assert.equal(world.estimateTravel(pid, c[i], c[i + 1]), t, `pair ${i}`));
      const lines = [
        [[140, 64, -146], [132, 64, -145], true, 1.9567906976744185],
        [[140, 64, -146], [135, 64, -145], true, 1.2591162790697674],
        [[123, 66, -158], [123, 65, -155], true, 0.69767441860465118],
        [[133, 65, -169], [133, 64, -166], true, 0.69767441860465118],
        [[138, 69, -149], [132, 68, -158], false],
        [[138, 69, -149], [129, 70, -154], false],
        [[138, 69, -149], [132, 69, -151], false],
      ];
      for (const [a, b, walkable, t] of lines) {
        assert.equal(world.lineWalkable(pid, a, b), walkable, `${a} -> ${b}`);
        if (t !== undefined) assert.equal(world.estimateTravel(pid, a, b), t);
      }
      assert.deepEqual(world.nearestStandable(pid, [135, 70, -160], 8, { minHeadroom: 2, avoid: [[135.5, 70, -159.5]], minDistance: 3 }),
        [133, 68, -159]);
      assert.equal(world.yawOfDirection([1, 0, 1]), 40960);
      assert.equal(world.yawOfDirection([-3, 0, 2]), 22517);
    } finally {
      world.dispose();
    }
  });
});

describe('the server worker\'s control and query messages on the real region', { skip }, () => {
  test('queries answer as the World does; knocks, stop, chase and flee act; errors name the field', async () => {
    const handlers = await h.importPackage('worker/handlers.mjs');
    const state = handlers.createState();
    const s = h.workerSession(handlers, state);
    const { blocks, shapes } = h.registryFiles();
    await s.ok({ type: 'init', build: 'sync', blocksJson: blocks, shapesJson: shapes });
    await s.ok({ type: 'loadRegion', bytes: fs.readFileSync(regionFile) });
    const { profile } = await s.ok({ type: 'addProfile', profile: { id: 'walker' } });
    const { profile: bird } = await s.ok({ type: 'addProfile', profile: { id: 'bird', class: 'flyer', can_fly: true } });
    await s.ok({ type: 'tick' });
    const w = state.world;  // the oracle: the World calls the tests above check
    const min = [120, 55, -176], max = [151, 94, -145];
    const spawn = await s.ok({ type: 'findSpawnCells', profile: 'walker', min, max, filter: { minHeadroom: 1 }, seed: 9, maxCells: 20 });
    assert.equal(spawn.count, 20);
    assert.deepEqual(spawn, w.findSpawnCells(profile, min, max, { minHeadroom: 1 }, 9, 20));
    const cells = cellsOf(spawn.cells);
    for (let i = 0; i + 1 < cells.length; ++i) {
      const [a, b] = [cells[i], cells[i + 1]];
      assert.deepEqual(await s.ok({ type: 'estimateTravel', profile: 'walker', from: a, to: b }), { seconds: w.estimateTravel(profile, a, b) });
      if (Math.max(Math.abs(a[0] - b[0]), Math.abs(a[2] - b[2])) <= 256)
        assert.deepEqual(await s.ok({ type: 'lineWalkable', profile, from: a, to: b }), { walkable: w.lineWalkable(profile, a, b) });
    }
    const up = [130.5, 100, -160.5], upFar = [140.5, 102, -150.5];
    assert.deepEqual(await s.ok({ type: 'lineFlyable', profile: 'bird', from: up, to: upFar }), { flyable: w.lineFlyable(bird, up, upFar) });

    const feet = (c) => [c[0] + 0.5, w.standingHeight(profile, c), c[2] + 0.5];
    const { ids: [a, b] } = await s.ok({ type: 'addAgents', agents: [{ profile: 'walker', feet: feet(cells[0]) }, { profile: 'walker', feet: feet(cells[1]) }] });
    assert.deepEqual(await s.ok({ type: 'knockAgents', knocks: [{ agent: a, impulse: [0, 6, 0] }] }), { knocked: 1 });
    await s.ok({ type: 'tick' });
    assert.equal(w.agentLocomotion(a).knocks, 1);
    await s.ok({ type: 'fleeFrom', agent: b, from: cells[1], distance: 5 });
    await s.ok({ type: 'tick', count: 200 });
    const fled = (await s.ok({ type: 'agentState', agent: b })).feet.map(Math.floor);
    assert.ok(fled.reduce((t, v, i) => t + (v - cells[1][i]) ** 2, 0) >= 25, `fled to ${fled}`);
    await s.ok({ type: 'chaseAgent', agent: a, target: b, range: 3 });
    await s.ok({ type: 'stopAgent', agent: a });
    assert.equal((await s.ok({ type: 'agentState', agent: a })).mode, 'idle');

    const hash = (await s.ok({ type: 'stateHash' })).hash;
    let e = await s.err({ type: 'knockAgents', knocks: [{ agent: a, impulse: [0, 1, 0] }, { agent: b, impulse: [NaN, 0, 0] }] }, 'InvalidArgument', /^knockAgents: knocks\[1\]\.impulse/);
    assert.equal(e.argument, 'knocks[1].impulse');
    e = await s.err({ type: 'fleeFrom', agent: b, from: cells[1], distance: 500 }, 'InvalidArgument', /^fleeFrom: distance 500/);
    assert.equal(e.argument, 'distance');
    e = await s.err({ type: 'chaseAgent', agent: a, target: a }, 'InvalidArgument', /^chaseAgent: target/);
    assert.equal(e.argument, 'target');
    e = await s.err({ type: 'findSpawnCells', profile: 'walker', min, max, filter: { reject: () => true } }, 'InvalidArgument', /filter\.reject cannot be sent/);
    assert.equal(e.argument, 'filter.reject');
    e = await s.err({ type: 'findSpawnCells', profile: 'walker', min, max, maxCells: 5000 }, 'InvalidArgument', /^findSpawnCells: maxCells/);
    assert.equal(e.argument, 'maxCells');
    e = await s.err({ type: 'lineWalkable', profile: 'bird', from: cells[0], to: cells[1] }, 'Unsupported', /^lineWalkable: .*flyer/);
    e = await s.err({ type: 'estimateTravel', profile: 'nobody', from: cells[0], to: cells[1] }, 'NotFound', /unknown profile/);
    assert.equal((await s.ok({ type: 'stateHash' })).hash, hash);
    await s.ok({ type: 'dispose' });
  });
});
