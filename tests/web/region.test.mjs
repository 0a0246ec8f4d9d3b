// The real Minecraft regions in data/worlds, decoded in JS (region table + DecompressionStream) and
// by the engine's Anvil decoder in wasm; routes compared with the native `voxnav route` when a
// native build is present (VOXNAV_NATIVE_BUILD_DIR, default build/release).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const region116 = path.join(h.repoRoot, 'data/worlds/r.0.-1.mca');
const region118 = path.join(h.repoRoot, 'data/worlds/r.0.0.mca');
const nativeDir = path.resolve(process.env.VOXNAV_NATIVE_BUILD_DIR || path.join(h.repoRoot, 'build/release'));
const nativeCli = path.join(nativeDir, 'voxnav');
const nativeMissing = fs.existsSync(nativeCli) ? false : `no native voxnav at ${nativeCli} (build the release preset)`;

// The README's route, and more found below from standable cells spread over the region.
const README_ROUTE = { from: [97, 67, -163], to: [85, 64, -175] };

async function regionWorld(lib, file) {
  const world = lib.createWorld();
  const { blocks, shapes } = h.registryFiles();
  world.loadMinecraftBlocks(blocks, shapes);
  const report = await world.loadRegion(fs.readFileSync(file));
  world.update();
  const walker = world.addProfile({ id: 'walker' });
  return { world, report, walker };
}

// What `voxnav route --json` prints, from the wasm World.
function wasmRoute(world, walker, edgeKinds, from, to) {
  const reach = world.reachable(walker, from, to);
  const hd = world.request(walker, from, to);
  const st = h.settle(world, hd);
  const out = {
    reachable: { answer: reach.answer, reason: reach.reason, epoch: reach.epoch },
    status: st.state, failure: st.failure, cost: st.cost, nodes_expanded: st.nodesExpanded, cells: [], corridor: [],
  };
  if (st.state === 'ready') {
    const pc = world.pathCells(hd);
    for (let i = 0; i < pc.kinds.length; ++i) out.cells.push([...pc.cells.subarray(3 * i, 3 * i + 3), edgeKinds[pc.kinds[i]]]);
    const c = world.corridor(hd);
    for (let i = 0; i < c.kinds.length; ++i) out.corridor.push([...c.positions.subarray(3 * i, 3 * i + 3), edgeKinds[c.kinds[i]]]);
  }
  world.release(hd);
  return out;
}

function nativeRoute(file, from, to) {
  let out;
  try {
    out = execFileSync(nativeCli, ['route', file, '--from', from.join(','), '--to', to.join(','), '--json'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    out = e.stdout;  // exit status 1 when the request fails; the JSON is still printed
  }
  const j = JSON.parse(out.trim().split('\n').pop());
  return {
    reachable: j.reachable, status: j.status, failure: j.failure, cost: j.cost, nodes_expanded: j.nodes_expanded,
    cells: j.cells, corridor: j.corridor,
  };
}

describe('real regions (data/worlds)', { skip }, () => {
  let pkg, lib;
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
  });

  test('the 1.16 region loads like the native loader reports it', async () => {
    const { world, report } = await regionWorld(lib, region116);
    try {
      assert.equal(report.columns, 253);
      assert.equal(report.chunks, 4048);
      assert.equal(report.format, 'anvil-1.13');
      assert.equal(report.dataVersionMax, 2566);
      assert.equal(report.unknownBlocks, 0, report.unknownNames.join(', '));
      assert.deepEqual(report.min, [48, 0, -176]);
      assert.deepEqual(report.max, [415, 255, -1]);
      assert.equal(report.skippedChunks, 0);
      const s = world.stats();
      assert.ok(s.standableCells > 50000 && s.islands > 1, JSON.stringify(s));
      assert.ok(world.getBlock([100, 0, -100]) === world.blockValue('bedrock'));
    } finally {
      world.dispose();
    }
  });

  test('the 1.18 region (tall world, proto-chunks) loads; empty proto-chunks are left out', async () => {
    const { world, report } = await regionWorld(lib, region118);
    try {
      assert.equal(report.format, 'anvil-1.18');
      assert.ok(report.emptyProtoChunks > 0, JSON.stringify(report));
      assert.ok(report.min[1] === -64 && report.max[1] === 319, JSON.stringify(report));
      assert.equal(report.unknownBlocks, 0, report.unknownNames.join(', '));
    } finally {
      world.dispose();
    }
    const only = lib.createWorld();
    try {
      const { blocks, shapes } = h.registryFiles();
      only.loadMinecraftBlocks(blocks, shapes);
      const full = await only.loadRegion(fs.readFileSync(region118), { fullChunksOnly: true });
      assert.equal(full.columns, 27);
      assert.ok(full.skippedProtoChunks > 0);
    } finally {
      only.dispose();
    }
  });

  test('routes on the region: valid, and identical to the native build when it is present', { skip: false }, async (t) => {
    const { world, walker } = await regionWorld(lib, region116);
    try {
      const routes = [README_ROUTE];
      // Standable cells near the surface at spots spread over the region, each paired with the
      // first cell 20 - 40 cells away that it reaches; plus one pair that is not reachable.
      const surface = (x, z) => {
        for (let y = 120; y > 40; y -= 8) {
          const c = world.nearestStandable(walker, [x, y, z], 8);
          if (c) return c;
        }
        return null;
      };
      const spots = [[60, -170], [120, -60], [200, -150], [300, -30], [380, -120], [250, -90], [150, -120], [340, -160]];
      const offsets = [[25, 20], [-20, 25], [30, -15], [-25, -20], [15, 30], [35, 5], [-35, 0], [0, -30]];
      let unreachable = null;
      for (const [x, z] of spots) {
        const a = surface(x, z);
        if (!a) continue;
        for (const [dx, dz] of offsets) {
          const b = surface(x + dx, z + dz);
          if (!b) continue;
          const answer = world.reachable(walker, a, b).answer;
          if (answer === 'no' && !unreachable) unreachable = { from: a, to: b };
          if (answer === 'yes') {
            routes.push({ from: a, to: b });
            break;
          }
        }
      }
      if (unreachable) routes.push(unreachable);
      assert.ok(routes.length >= 6, `found ${routes.length - 1} pairs of standable spots`);
      let ready = 0;
      const results = routes.map((r) => {
        const w = wasmRoute(world, walker, pkg.EDGE_KINDS, r.from, r.to);
        if (w.status === 'ready') {
          ++ready;
          assert.deepEqual(w.cells[0].slice(0, 3), r.from);
          assert.deepEqual(w.cells.at(-1).slice(0, 3), r.to);
        } else {
          assert.ok(w.reachable.answer !== 'yes' || w.failure === 'budget_exhausted' || w.failure === 'no_path', JSON.stringify(w));
        }
        return w;
      });
      assert.ok(ready >= 3, `${ready} of ${routes.length} routes ready`);
      t.diagnostic(`${ready} of ${routes.length} routes ready; cells per route: ${results.map((r) => r.cells.length).join(", ")}`);
      assert.equal(results[0].status, 'ready');
      if (nativeMissing) {
        t.diagnostic(`native comparison skipped: ${nativeMissing}`);
        return;
      }
      routes.forEach((r, i) => {
        const n = nativeRoute(region116, r.from, r.to);
        const w = results[i];
        const label = `${r.from} -> ${r.to}`;
        assert.deepEqual({ ...w, corridor: null }, { ...n, corridor: null }, label);
        assert.equal(w.corridor.length, n.corridor.length, label);
        w.corridor.forEach((p, k) => {
          for (let a = 0; a < 3; ++a) assert.ok(Math.abs(p[a] - n.corridor[k][a]) <= 6e-5, `${label} waypoint ${k}`);
          assert.equal(p[3], n.corridor[k][3], `${label} waypoint ${k} kind`);
        });
      });
    } finally {
      world.dispose();
    }
  });

  test('bad region data is BadFormat and loads nothing', async () => {
    const world = lib.createWorld();
    try {
      assert.throws(() => world.loadAnvilColumns([new Uint8Array(10)]),
        (e) => e instanceof pkg.VoxnavError && e.status === 'InvalidArgument' && /registry first/.test(e.message));
      const { blocks, shapes } = h.registryFiles();
      world.loadMinecraftBlocks(blocks, shapes);
      const file = fs.readFileSync(region116);
      await assert.rejects(world.loadRegion(file.subarray(0, 5000)),
        (e) => e instanceof pkg.VoxnavError && e.status === 'BadFormat' && /8192-byte header/.test(e.message));
      // A region whose chunks are fine except the last one: nothing at all is loaded.
      const good = await pkg.readRegion(file);
      assert.equal(good.columns.length, 253);
      const broken = [...good.columns.slice(0, 5), good.columns[5].subarray(0, 100)];
      assert.throws(() => world.loadAnvilColumns(broken),
        (e) => e.status === 'BadFormat' && /^loadAnvilColumns: column 5: /.test(e.message));
      assert.throws(() => world.loadAnvilColumns([new Uint8Array(0)]), (e) => e.status === 'BadFormat');
      assert.throws(() => world.loadAnvilColumns('x'), (e) => e.status === 'InvalidArgument');
      assert.throws(() => world.loadAnvilColumns([[1, 2]]), (e) => e.status === 'InvalidArgument' && /columns\[0\]/.test(e.message));
      // A corrupted zlib stream in the file.
      const corrupt = new Uint8Array(file);
      const loc = new DataView(corrupt.buffer).getUint32(4 * good.slots[0]) >>> 8;
      corrupt.fill(0xff, loc * 4096 + 7, loc * 4096 + 40);
      await assert.rejects(world.loadRegion(corrupt), (e) => e.status === 'BadFormat' && /does not inflate/.test(e.message));
      world.update();
      assert.equal(world.stats().standableCells, 0);
      assert.throws(() => world.getBlock([100, 0, -100]), (e) => e.status === 'NotLoaded');
      const report = world.loadAnvilColumns(good.columns.slice(0, 6));
      assert.equal(report.columns, 6);
    } finally {
      world.dispose();
    }
  });

  test('the worker loads a region with one message', async () => {
    const handlers = await h.importPackage('worker/handlers.mjs');
    const state = handlers.createState();
    const { blocks, shapes } = h.registryFiles();
    let r = await handlers.handle(state, { id: 1, type: 'init', blocksJson: blocks, shapesJson: shapes });
    assert.ok(r.reply.ok, JSON.stringify(r.reply.error));
    r = await handlers.handle(state, { id: 2, type: 'loadRegion', bytes: fs.readFileSync(region116) });
    assert.equal(r.reply.ok.chunks, 4048);
    assert.ok(r.reply.ok.navEpoch > 0);
    await handlers.handle(state, { id: 3, type: 'addProfile', profile: { id: 'walker' } });
    r = await handlers.handle(state, { id: 4, type: 'request', profile: 'walker', start: README_ROUTE.from, goal: README_ROUTE.to, wait: true });
    assert.equal(r.reply.ok.state, 'ready');
    assert.deepEqual(Array.from(r.reply.ok.waypoints.slice(-3)), [85.5, 64, -174.5]);
    r = await handlers.handle(state, { id: 5, type: 'loadRegion', bytes: new Uint8Array(100) });
    assert.equal(r.reply.error.status, 'BadFormat');
    await handlers.handle(state, { id: 6, type: 'dispose' });
  });
});

describe('zlib bombs in a region', { skip }, () => {
  let pkg, lib;
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
  });

  // A region of two zlib chunks of zeros that together inflate past LIMITS.maxInflatedBytes
  // (each alone fits): readRegion stops reading at the limit, as the native loader does, instead
  // of inflating without bound (a 1 MB file inflated to 900 MiB before this check).
  test('the chunks of one region share the inflate budget; past it readRegion is OutOfRange', async () => {
    const zlib = await import('node:zlib');
    const limit = lib.LIMITS.maxInflatedBytes;
    assert.equal(limit, 256 * 1024 * 1024);
    const packed = zlib.deflateSync(Buffer.alloc(limit / 2 + 1), { level: 9 });
    const sectors = Math.ceil((5 + packed.length) / 4096);
    const file = new Uint8Array(8192 + 2 * sectors * 4096);
    const view = new DataView(file.buffer);
    for (let slot = 0; slot < 2; ++slot) {
      const sector = 2 + slot * sectors;
      view.setUint32(4 * slot, (sector << 8) | sectors);
      view.setUint32(sector * 4096, packed.length + 1);
      file[sector * 4096 + 4] = 2;  // zlib
      file.set(packed, sector * 4096 + 5);
    }
    await assert.rejects(pkg.readRegion(file, lib.module), (e) =>
      e instanceof pkg.VoxnavError && e.status === 'OutOfRange' && /maxInflatedBytes/.test(e.message));
    // One of the two alone is within the budget.
    view.setUint32(4, 0);
    const one = await pkg.readRegion(file, lib.module);
    assert.equal(one.columns.length, 1);
    assert.equal(one.columns[0].length, limit / 2 + 1);
  });
});
