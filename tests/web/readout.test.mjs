// Read-outs added for the demo and the native/wasm comparison, on the real 1.16 region:
// World.topBlocks (the map), World.stateHash, and their server-worker messages.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const region = fs.existsSync(path.join(h.repoRoot, 'data/worlds/r.0.-1.mca'))
  ? fs.readFileSync(path.join(h.repoRoot, 'data/worlds/r.0.-1.mca')) : null;

describe('topBlocks and stateHash on the real region', { skip }, () => {
  let pkg, lib, world, walker, report;
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
    world = lib.createWorld();
    const { blocks, shapes } = h.registryFiles();
    world.loadMinecraftBlocks(blocks, shapes);
    report = await world.loadRegion(region);
    world.update();
    walker = world.addProfile({ id: 'walker' });
  });
  after(() => world && world.dispose());

  test('topBlocks gives the highest non-air block of every column, as getBlock sees it', () => {
    const t = world.topBlocks(report.min, report.max);
    assert.equal(t.width, 368);
    assert.equal(t.heights.length, 368 * 176);
    assert.equal(t.values.length, t.heights.length);
    let loaded = 0;
    for (let i = 0; i < t.heights.length; i += 101) {
      const x = report.min[0] + (i % t.width), z = report.min[2] + Math.floor(i / t.width);
      if (t.heights[i] === -2147483648) continue;
      loaded += 1;
      const y = t.heights[i];
      assert.equal(world.getBlock([x, y, z]), t.values[i], `column ${x}, ${z}`);
      assert.notEqual(t.values[i], 0);
      for (let above = y + 1; above <= report.max[1]; above += 7) assert.equal(world.getBlock([x, above, z]), 0);
    }
    assert.ok(loaded > 500, `${loaded} loaded columns sampled`);
    // A sub-box is the same data; an edit shows at once.
    const [x, z] = [200, -100];
    const one = world.topBlocks([x, 0, z], [x, 255, z]);
    const k = (x - report.min[0]) + t.width * (z - report.min[2]);
    assert.equal(one.heights[0], t.heights[k]);
    world.setBlock([x, one.heights[0] + 5, z], world.blockValue('stone'));
    assert.equal(world.topBlocks([x, 0, z], [x, 255, z]).heights[0], one.heights[0] + 5);
    world.setBlock([x, one.heights[0] + 5, z], 0);
    // Outside the loaded chunks: none.
    assert.equal(world.topBlocks([2000, 0, 2000], [2000, 10, 2000]).heights[0], -2147483648);
  });

  test('topBlocks refuses bad boxes with VoxnavError', () => {
    const cases = [
      [() => world.topBlocks([10, 0, 10], [5, 10, 20]), 'InvalidArgument', /topBlocks: min \(10, 0, 10\) is above max/],
      [() => world.topBlocks([0, 0, 0], [4096, 1, 4096]), 'InvalidArgument', /more than 4194304/],
      [() => world.topBlocks([0, 0, 0], [1, 5000, 1]), 'OutOfRange', /max .* is out of range/],
      [() => world.topBlocks([0.5, 0, 0], [1, 1, 1]), 'InvalidArgument', /min \(0\.5, 0, 0\) is not a cell/],
      [() => world.topBlocks([0, 0, 0], [1, 2 ** 21, 1]), 'OutOfRange', /max .* is out of range/],
      [() => world.topBlocks('all', [1, 1, 1]), 'InvalidArgument', /topBlocks: min must be/],
    ];
    for (const [fn, status, re] of cases) {
      assert.throws(fn, (e) => e instanceof pkg.VoxnavError && e.status === status && re.test(e.message));
    }
  });

  test('stateHash: the basis with no agents, deterministic, and it moves with the agents', async () => {
    assert.equal(world.stateHash(), 'cbf29ce484222325');
    const other = lib.createWorld();
    try {
      const { blocks, shapes } = h.registryFiles();
      other.loadMinecraftBlocks(blocks, shapes);
      await other.loadRegion(region);
      other.update();
      const p2 = other.addProfile({ id: 'walker' });
      const spawn = [[97.5, 67, -162.5, 85, 64, -175], [160.5, 72, -93.5, 150, 70, -110]];
      const ids = [[], []];
      [[world, walker], [other, p2]].forEach(([w, p], k) => {
        for (const [x, y, z, gx, gy, gz] of spawn) {
          const feet = w.standingHeight(p, [Math.floor(x), y, Math.floor(z)]) ?? y;
          const id = w.addAgent(p, [x, feet, z]);
          w.setAgentGoal(id, w.nearestStandable(p, [gx, gy, gz], 8));
          ids[k].push(id);
        }
      });
      const h0 = world.stateHash();
      assert.match(h0, /^[0-9a-f]{16}$/);
      assert.equal(other.stateHash(), h0);
      const seen = new Set([h0]);
      for (let i = 0; i < 30; ++i) {
        world.tick(0.05);
        other.tick(0.05);
        assert.equal(other.stateHash(), world.stateHash(), `tick ${i}`);
        seen.add(world.stateHash());
      }
      assert.ok(seen.size > 20, `${seen.size} different hashes over 30 ticks`);
      ids[0].forEach((id) => world.removeAgent(id));
      assert.equal(world.stateHash(), 'cbf29ce484222325');
    } finally {
      other.dispose();
    }
  });

  test('the worker answers topBlocks and stateHash messages', async () => {
    const handlers = await h.importPackage('worker/handlers.mjs');
    const state = handlers.createState();
    const { blocks, shapes } = h.registryFiles();
    let id = 0;
    const send = async (msg) => (await handlers.handle(state, { id: ++id, ...msg })).reply;
    assert.equal((await send({ type: 'stateHash' })).error.status, 'Busy');
    assert.ok((await send({ type: 'init', build: 'sync', blocksJson: blocks, shapesJson: shapes })).ok);
    assert.ok((await send({ type: 'loadRegion', bytes: region })).ok);
    const tops = (await send({ type: 'topBlocks', min: report.min, max: report.max })).ok;
    assert.deepEqual(Array.from(tops.heights.subarray(0, 50)), Array.from(world.topBlocks(report.min, report.max).heights.subarray(0, 50)));
    const bad = (await send({ type: 'topBlocks', min: [5, 0, 5], max: [0, 0, 0] })).error;
    assert.equal(bad.status, 'InvalidArgument');
    assert.match(bad.message, /topBlocks: min/);
    const hs = (await send({ type: 'stateHash' })).ok;
    assert.deepEqual(hs, { hash: 'cbf29ce484222325', agents: 0, tick: 0 });
    await send({ type: 'dispose' });
  });
});
