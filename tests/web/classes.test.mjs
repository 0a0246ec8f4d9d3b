// Movement classes through the npm package, on the shipped region (data/worlds/r.0.-1.mca): a
// walker_small and a swimmer profile get their own navigation when added; their request() handles
// work like the walker's (status, pathCells, release; a stale handle is refused), a swimmer's route
// stays in water with swim edges, and the walker class never stands in open water; a swimmer agent
// swims to its goal, in open water at every tick; a walker_large profile (2x2 footprint: its cells
// are foot cells, the low corner of the footprint) gets a path over foot cells and its agent walks
// it to the goal.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const region = path.join(h.repoRoot, 'data/worlds/r.0.-1.mca');

describe('movement classes', { skip }, () => {
  let pkg, lib, world, report;
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
    world = lib.createWorld();
    const { blocks, shapes } = h.registryFiles();
    world.loadMinecraftBlocks(blocks, shapes);
    report = await world.loadRegion(fs.readFileSync(region));
    world.update();
  });
  after(() => world && world.dispose());

  test('a swimmer routes through water only, with request handles of its own class', () => {
    const walker = world.addProfile({ id: 'walker' });
    const fish = world.addProfile({
      id: 'fish', class: 'swimmer', can_swim: true, speed: { swim: 2 },
      body: { width: 0.5, height: 0.4 }, step_height: 0, jump_apex: 0, max_drop: 0,
    });
    const water = world.blockValue('water');
    // Water cells along a few columns of the region: the swimmer can be there, the walker not.
    const [x0, , z0] = report.min, [x1, , z1] = report.max;
    const cells = [];
    for (let x = x0; x <= x1 && cells.length < 4000; x += 3) {
      for (let z = z0; z <= z1 && cells.length < 4000; z += 3) {
        for (let y = 40; y <= 70; ++y) {
          const c = [x, y, z];
          if (world.getBlock(c) === water && world.isStandable(fish, c)) cells.push(c);
        }
      }
    }
    assert.ok(cells.length > 200, `water cells found: ${cells.length}`);
    let routes = 0;
    for (let i = 0; i + 1 < cells.length && routes < 10; i += 7) {
      const a = cells[i], b = cells[i + 1];
      if (world.reachable(fish, a, b).answer !== 'yes') continue;
      assert.equal(world.isStandable(walker, a), false, 'the walker class does not stand in open water');
      const hd = world.request(fish, a, b);
      const st = h.settle(world, hd);
      assert.equal(st.state, 'ready');
      const pc = world.pathCells(hd);
      for (let k = 0; k < pc.cells.length; k += 3) {
        const c = [pc.cells[k], pc.cells[k + 1], pc.cells[k + 2]];
        assert.equal(world.getBlock(c), water, `route cell ${c} is water`);
      }
      const swim = pkg.EDGE_KINDS ? pkg.EDGE_KINDS.indexOf('swim') : 8;
      for (let k = 1; k < pc.kinds.length; ++k) assert.equal(pc.kinds[k], swim);
      world.release(hd);
      assert.throws(() => world.status(hd), (e) => e instanceof pkg.VoxnavError && e.status === 'StaleHandle');
      ++routes;
    }
    assert.ok(routes >= 5, `routes checked: ${routes}`);
  });

  test('a swimmer agent swims to its goal, its body in open water at every tick', (t) => {
    const fish = world.addProfile({
      id: 'pike', class: 'swimmer', can_swim: true, speed: { swim: 2 }, body: { width: 0.98, height: 0.98 },
    });
    // Water cells of a few columns, and a pair 8 to 30 cells apart that the swimmer reaches.
    const [x0, , z0] = report.min, [x1, , z1] = report.max;
    const cells = [];
    for (let x = x0; x <= x1 && cells.length < 3000; x += 2) {
      for (let z = z0; z <= z1 && cells.length < 3000; z += 2) {
        for (let y = 40; y <= 70; ++y) if (world.isStandable(fish, [x, y, z])) cells.push([x, y, z]);
      }
    }
    let trip = null;
    for (let i = 0; i < cells.length && !trip; i += 5) {
      for (let j = i + 1; j < cells.length && j < i + 400; j += 3) {
        const a = cells[i], b = cells[j];
        const d = Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
        if (d >= 8 && d <= 30 && world.reachable(fish, a, b).answer === 'yes') {
          trip = { a, b };
          break;
        }
      }
    }
    assert.ok(trip, `a reachable pair among ${cells.length} water cells`);
    const route = world.findPathNow(fish, trip.a, trip.b);
    assert.equal(route.state, 'ready');
    const steps = route.cellCount - 1;
    const budget = Math.ceil((steps * Math.SQRT2) / (2 * 0.05)) + steps + 10;  // at 2 m/s, 20 Hz
    const agent = world.addAgent(fish, [trip.a[0] + 0.5, trip.a[1], trip.a[2] + 0.5]);
    world.setAgentGoal(agent, trip.b);
    let s = world.agentState(agent);
    let ticks = 0;
    let checked = 0;
    for (; ticks < budget && s.mode !== 'arrived'; ++ticks) {
      world.tick(0.05);
      s = world.agentState(agent);
      assert.notEqual(s.mode, 'failed', world.agentReason(agent));
      // Every cell the 0.98 body overlaps is a swimmer cell (open water).
      const lo = s.feet.map((v, k) => Math.floor(v + (k === 1 ? 1e-7 : -0.49 + 1e-7)));
      const hi = s.feet.map((v, k) => Math.floor(v + (k === 1 ? 0.98 - 1e-7 : 0.49 - 1e-7)));
      for (let y = lo[1]; y <= hi[1]; ++y) {
        for (let z = lo[2]; z <= hi[2]; ++z) {
          for (let x = lo[0]; x <= hi[0]; ++x) {
            assert.ok(world.isStandable(fish, [x, y, z]), `tick ${ticks}: feet ${s.feet} overlap ${[x, y, z]}`);
            ++checked;
          }
        }
      }
    }
    assert.equal(s.mode, 'arrived', `after ${ticks} ticks (budget ${budget}): ${world.agentReason(agent)}`);
    assert.equal(s.arrivals, 1);
    const g = [trip.b[0] + 0.5, trip.b[1], trip.b[2] + 0.5];
    assert.ok(Math.hypot(s.feet[0] - g[0], s.feet[1] - g[1], s.feet[2] - g[2]) <= 0.5 + 1e-9, `feet ${s.feet}`);
    assert.ok(checked > ticks, `cells checked: ${checked}`);
    const corridor = world.agentCorridor(agent);
    const swim = pkg.EDGE_KINDS ? pkg.EDGE_KINDS.indexOf('swim') : 8;
    for (let k = 1; k < corridor.kinds.length; ++k) assert.equal(corridor.kinds[k], swim);
    t.diagnostic(`swimmer ${trip.a} -> ${trip.b}: ${steps} moves, arrived after ${ticks} ticks ` +
      `(budget ${budget}), ${checked} body cells checked, all open water`);
    world.removeAgent(agent);
  });

  test('a walker_small request is answered through its own navigation', () => {
    const chicken = world.addProfile({ id: 'chicken', class: 'walker_small', body: { width: 0.4, height: 0.7 } });
    const walker = world.findProfile('walker');
    // Two standable cells near each other on the surface.
    const [x0, , z0] = report.min;
    const tops = world.topBlocks([x0, 0, z0], [x0 + 40, 255, z0 + 40]);
    const surface = [];
    for (let z = 0; z <= 40; ++z) {
      for (let x = 0; x <= 40; ++x) {
        const y = tops.heights[x + tops.width * z];
        const c = [x0 + x, y + 1, z0 + z];
        if (y >= 0 && world.isStandable(chicken, c) && world.isStandable(walker, c)) surface.push(c);
      }
    }
    let done = 0;
    for (let i = 0; i + 9 < surface.length && done < 5; i += 13) {
      const a = surface[i], b = surface[i + 9];
      if (world.reachable(chicken, a, b).answer !== 'yes') continue;
      const hd = world.request(chicken, a, b);
      const st = h.settle(world, hd);
      assert.equal(st.state, 'ready');
      const now = world.findPathNow(chicken, a, b);
      assert.equal(st.cost, now.cost, 'request and findPathNow agree');
      world.release(hd);
      ++done;
    }
    assert.ok(done >= 3, `routes: ${done}`);
  });

  test('a walker_large profile gets a path over foot cells and its agent walks it', () => {
    const golem = world.addProfile({
      id: 'golem', class: 'walker_large', body: { width: 1.98, height: 2.95 },
      step_height: 1, jump_apex: 1.25, max_drop: 4,
    });
    // Foot cells on the surface near the region's corner.
    const [x0, , z0] = report.min;
    const tops = world.topBlocks([x0, 0, z0], [x0 + 60, 255, z0 + 60]);
    const feet = [];
    for (let z = 0; z <= 60; ++z) {
      for (let x = 0; x <= 60; ++x) {
        const y = tops.heights[x + tops.width * z];
        const c = [x0 + x, y + 1, z0 + z];
        if (y >= 0 && world.isStandable(golem, c)) feet.push(c);
      }
    }
    assert.ok(feet.length > 200, `foot cells: ${feet.length}`);
    // A pair 10 .. 20 cells apart in different chunk columns that the class joins.
    let pair = null;
    for (let i = 0; i < feet.length && !pair; i += 7) {
      for (let j = feet.length - 1; j > i && !pair; j -= 11) {
        const a = feet[i], b = feet[j];
        const d = Math.abs(a[0] - b[0]) + Math.abs(a[2] - b[2]);
        const otherColumn = a[0] >> 4 !== b[0] >> 4 || a[2] >> 4 !== b[2] >> 4;
        if (d >= 10 && d <= 20 && otherColumn && world.reachable(golem, a, b).answer === 'yes') pair = [a, b];
      }
    }
    assert.ok(pair, 'a reachable pair of foot cells');
    const [a, b] = pair;
    const hd = world.request(golem, a, b);
    const st = h.settle(world, hd);
    assert.equal(st.state, 'ready');
    const pc = world.pathCells(hd);
    assert.ok(pc.cells.length >= 3 * 5);
    for (let k = 0; k < pc.cells.length; k += 3) {
      const c = [pc.cells[k], pc.cells[k + 1], pc.cells[k + 2]];
      assert.ok(world.isStandable(golem, c), `route cell ${c} is a foot cell of the class`);
    }
    assert.equal(world.findPathNow(golem, a, b).cost, st.cost, 'request and findPathNow agree');
    world.release(hd);
    assert.throws(() => world.status(hd), (e) => e instanceof pkg.VoxnavError && e.status === 'StaleHandle');
    // The agent: its body centre (0.5, 0, 0.5) from the foot cell's centre.
    const y = world.standingHeight(golem, a);
    assert.equal(typeof y, 'number');
    const agent = world.addAgent(golem, [a[0] + 1, y, a[2] + 1]);
    world.setAgentGoal(agent, b);
    let s = world.agentState(agent);
    for (let t = 0; t < 600 && s.mode !== 'arrived'; ++t) {
      world.tick(0.05);
      s = world.agentState(agent);
      assert.notEqual(s.mode, 'failed', world.agentReason(agent));
      assert.notEqual(s.mode, 'blocked', world.agentReason(agent));
    }
    assert.equal(s.mode, 'arrived', `agent at ${s.feet} (${world.agentReason(agent)})`);
    assert.ok(Math.abs(s.feet[0] - (b[0] + 1)) < 0.6 && Math.abs(s.feet[2] - (b[2] + 1)) < 0.6,
      `arrived over the goal's footprint: ${s.feet}`);
    // Its corridor's waypoints are foot cells' feet (the foot cells' centres).
    const cor = world.agentCorridor(agent);
    assert.ok(cor.kinds.length >= 1);
    for (let k = 0; k < cor.kinds.length; ++k) {
      assert.equal(cor.positions[3 * k], cor.cells[3 * k] + 0.5);
      assert.equal(cor.positions[3 * k + 2], cor.cells[3 * k + 2] + 0.5);
    }
    world.removeAgent(agent);
  });
});
