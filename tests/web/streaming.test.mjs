// Chunk streaming with a build radius and the search budget through the npm package, on the arena
// Moving AI map as a voxel world with the real block registry (as the other suites load it):
//   - every setting round-trips (defaults, limits) and every count reads 0 on a fresh world;
//   - bad arguments (strings, NaN, fractions, values out of range, non-booleans) throw VoxnavError
//     naming the argument and the allowed range, and change nothing; the binding under the JS
//     wrapper checks them too;
//   - with streaming on and a radius of 1 chunk, the chunks loaded after the first update far from
//     the agent are deferred (not standable, reachable 'unknown' / 'not_loaded') and those near it
//     built; an agent added in a deferred chunk gets the chunks around it built two updates later;
//   - with one search per update, queuedRequests() drops by one per update, each request is ready
//     one update after its dispatch, in request order, and every cost equals the unbudgeted one.
// Runs against the sync build, and the threaded one when the build has it.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const builds = ['sync', ...(h.hasThreadedBuild ? ['threaded'] : [])];

/** Checks that fn throws a VoxnavError of that status whose message matches re. */
function throwsVoxnav(pkg, fn, status, re) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof pkg.VoxnavError, `not a VoxnavError: ${e}`);
    assert.equal(e.status, status, e.message);
    assert.match(e.message, re);
    return true;
  });
}

/** Every setting and count of chunk streaming and the search budget, and the navigation state. */
function settings(world) {
  const s = world.stats();
  return JSON.stringify({
    streaming: world.chunkStreaming(), radius: world.chunkBuildRadius(), budget: world.searchesPerUpdate(),
    pending: world.pendingChunkBuilds(), deferred: world.deferredChunkBuilds(), queued: world.queuedRequests(),
    epoch: world.navEpoch, tick: world.navTick, searches: s.searches, standable: s.standableCells, islands: s.islands,
  });
}

/** A passable map tile in chunk column (cx, cz): its cell [x, 1, z] (walkers stand at y = 1). */
function tileIn(map, cx, cz) {
  for (let z = cz * 16 + 4; z < cz * 16 + 16; ++z) {
    for (let x = cx * 16 + 4; x < cx * 16 + 16; ++x) {
      if (map.passable(x, z)) return [x, h.STAND_Y, z];
    }
  }
  throw new Error(`no passable tile in chunk column (${cx}, ${cz})`);
}

/** The loadChunks() arguments of the chunks among `all` that `keep(cx, cy, cz)` selects. */
function selectChunks(all, keep) {
  const pos = [], idx = [];
  for (let i = 0; i < all.positions.length / 3; ++i) {
    const [cx, cy, cz] = all.positions.subarray(3 * i, 3 * i + 3);
    if (keep(cx, cy, cz)) {
      pos.push(cx, cy, cz);
      idx.push(i);
    }
  }
  const values = new Uint16Array(4096 * idx.length);
  idx.forEach((i, k) => values.set(all.values.subarray(4096 * i, 4096 * (i + 1)), 4096 * k));
  return { positions: Int32Array.from(pos), values, count: idx.length };
}

for (const build of builds) {
  describe(`chunk streaming and the search budget (${build} build)`, { skip }, () => {
    let pkg, lib;
    before(async () => {
      pkg = await h.importPackage();
      lib = await pkg.load({ build });
    });

    test('every setting round-trips, from the defaults to its limits', () => {
      const world = lib.createWorld();
      assert.equal(world.chunkStreaming(), false);
      assert.equal(world.chunkBuildRadius(), 0);
      assert.equal(world.searchesPerUpdate(), 256);  // kDefaultSearchesPerUpdate (voxnav/requests.h)
      assert.equal(world.pendingChunkBuilds(), 0);
      assert.equal(world.deferredChunkBuilds(), 0);
      assert.equal(world.queuedRequests(), 0);
      for (const on of [true, false, true]) {
        assert.equal(world.setChunkStreaming(on), undefined);
        assert.equal(world.chunkStreaming(), on);
      }
      for (const r of [1, 32, 7, 0]) {
        assert.equal(world.setChunkBuildRadius(r), undefined);
        assert.equal(world.chunkBuildRadius(), r);
      }
      for (const n of [1, 4096, 3, 0]) {
        assert.equal(world.setSearchesPerUpdate(n), undefined);
        assert.equal(world.searchesPerUpdate(), n);
      }
      // The settings are independent of each other.
      world.setChunkBuildRadius(5);
      world.setSearchesPerUpdate(9);
      world.setChunkStreaming(false);
      assert.deepEqual([world.chunkStreaming(), world.chunkBuildRadius(), world.searchesPerUpdate()], [false, 5, 9]);
      world.dispose();
      for (const [name, args] of [['setChunkStreaming', [true]], ['chunkStreaming', []], ['pendingChunkBuilds', []],
        ['setChunkBuildRadius', [1]], ['chunkBuildRadius', []], ['deferredChunkBuilds', []],
        ['setSearchesPerUpdate', [1]], ['searchesPerUpdate', []], ['queuedRequests', []]]) {
        throwsVoxnav(pkg, () => world[name](...args), 'StaleHandle', new RegExp(`^${name}: this world was disposed`));
      }
      // The error names the function called, as every other error does.
      assert.throws(() => world.cellMoves(0, [0, 0, 0]), (e) => e.status === 'StaleHandle' && e.function === 'cellMoves');
    });

    test('bad arguments throw VoxnavError naming the argument and the range, and change nothing', () => {
      const { world, walker } = h.worldWithMap(lib, 'arena.map');
      world.setChunkStreaming(true);
      world.setChunkBuildRadius(3);
      world.setSearchesPerUpdate(5);
      const row = h.readScenario('arena.map').at(-1);
      world.request(walker, [row.sx, h.STAND_Y, row.sy], [row.gx, h.STAND_Y, row.gy]);  // one queued request
      const before = settings(world);
      assert.match(before, /"queued":1/);
      const rejected = (fn, re) => {
        throwsVoxnav(pkg, fn, 'InvalidArgument', re);
        assert.equal(settings(world), before, 'the world changed');
      };
      const range = (arg, unit, max) => `${arg} .*an integer number of ${unit} in 0 \\.\\. ${max}`;
      for (const v of [-1, 33, 1000, 2 ** 31, 1.5, 0.1, NaN, Infinity, -Infinity]) {
        rejected(() => world.setChunkBuildRadius(v), new RegExp(`^setChunkBuildRadius: ${range('chunks', 'chunks', 32)}`));
      }
      for (const v of [-1, 4097, 2 ** 32, 2.5, NaN, Infinity, -Infinity]) {
        rejected(() => world.setSearchesPerUpdate(v), new RegExp(`^setSearchesPerUpdate: ${range('searches', 'searches', 4096)}`));
      }
      for (const [v, got] of [['3', 'string'], [null, 'null'], [undefined, 'undefined'], [true, 'boolean'], [[3], 'Array'],
        [3n, 'bigint']]) {
        rejected(() => world.setChunkBuildRadius(v),
          new RegExp(`^setChunkBuildRadius: chunks must be an integer number of chunks in 0 \\.\\. 32 \\(got ${got}\\)`));
        rejected(() => world.setSearchesPerUpdate(v),
          new RegExp(`^setSearchesPerUpdate: searches must be an integer number of searches in 0 \\.\\. 4096 \\(got ${got}\\)`));
      }
      assert.throws(() => world.setChunkBuildRadius(33), (e) => /33 is not/.test(e.message));  // the value is named too
      for (const [v, got] of [[1, 'number'], [0, 'number'], ['true', 'string'], [null, 'null'], [undefined, 'undefined']]) {
        rejected(() => world.setChunkStreaming(v), new RegExp(`^setChunkStreaming: on must be a boolean \\(got ${got}\\)`));
      }
      world.update();
      assert.equal(world.queuedRequests(), 0);
      world.dispose();
    });

    test('the binding checks the radius and the budget too (integers in range; nothing changes)', () => {
      const core = new lib.module.WorldCore(0, false);
      try {
        assert.equal(core.setChunkBuildRadius(4), 0);
        assert.equal(core.setSearchesPerUpdate(8), 0);
        for (const v of [-1, 33, 1.5, NaN, Infinity]) {
          assert.equal(pkg.STATUS_NAMES[core.setChunkBuildRadius(v)], 'InvalidArgument');
          const e = core.lastError();
          assert.equal(e.argument, 'chunks');
          assert.match(e.message, /^chunks .* is not an integer number of chunks in 0 \.\. 32$/);
        }
        for (const v of [-1, 4097, 0.5, NaN, -Infinity]) {
          assert.equal(pkg.STATUS_NAMES[core.setSearchesPerUpdate(v)], 'InvalidArgument');
          const e = core.lastError();
          assert.equal(e.argument, 'searches');
          assert.match(e.message, /^searches .* is not an integer number of searches in 0 \.\. 4096$/);
        }
        assert.equal(core.chunkBuildRadius(), 4);
        assert.equal(core.searchesPerUpdate(), 8);
      } finally {
        core.delete();
      }
    });

    test('with a build radius, chunks far from every agent are deferred; an agent added there gets them built', () => {
      const world = lib.createWorld();
      const { blocks, shapes } = h.registryFiles();
      world.loadMinecraftBlocks(blocks, shapes);
      const map = h.readMovingAiMap('arena.map');  // 49 x 49 tiles: 4 x 4 chunk columns, 2 chunks high
      const all = h.movingAiChunks(map, world.blockValue('stone'));
      const walker = world.addProfile({ id: 'walker', class: 'walker' });
      // The first update builds the chunk column (0, 0), where the first agent stands.
      const first = selectChunks(all, (cx, cy, cz) => cx === 0 && cz === 0);
      world.loadChunks(first.positions, first.values);
      world.update();
      world.setChunkStreaming(true);
      world.setChunkBuildRadius(1);
      const home = tileIn(map, 0, 0);
      world.addAgent(walker, [home[0] + 0.5, home[1], home[2] + 0.5]);
      const rest = selectChunks(all, (cx, cy, cz) => cx !== 0 || cz !== 0);
      assert.equal(rest.count, 30);
      world.loadChunks(rest.positions, rest.values);
      // (Columns x = 3 and z = 3 hold only the map's last row of wall: cells 48 .. 63.)
      const near = tileIn(map, 1, 1), far = tileIn(map, 2, 2), farNeighbour = tileIn(map, 2, 1), stillFar = tileIn(map, 0, 2);
      // Loaded after the first update: nothing is navigable before streaming installs it.
      assert.equal(world.isStandable(walker, near), false);
      for (let u = 0; u < 3; ++u) world.update();
      // Columns within 1 chunk of the agent's (0, 0): (1, 0), (0, 1), (1, 1), both layers, built;
      // the other 12 columns (24 chunks) deferred.
      assert.equal(world.deferredChunkBuilds(), 24);
      assert.equal(world.pendingChunkBuilds(), 0);
      assert.equal(world.isStandable(walker, near), true);
      assert.equal(world.reachable(walker, home, near).answer, 'yes');
      assert.equal(world.isStandable(walker, far), false);
      const r = world.reachable(walker, home, far);
      assert.deepEqual([r.answer, r.reason], ['unknown', 'not_loaded']);
      // More updates build nothing more while no agent comes near.
      for (let u = 0; u < 3; ++u) world.update();
      assert.equal(world.deferredChunkBuilds(), 24);
      assert.equal(world.isStandable(walker, far), false);

      // An agent added in the deferred column (2, 2): the next update dispatches the chunks within
      // 1 chunk of it not built yet (columns (1..3, 1..3) but (1, 1): 16 chunks), the one after
      // installs them.
      world.addAgent(walker, [far[0] + 0.5, far[1], far[2] + 0.5]);
      assert.equal(world.deferredChunkBuilds(), 24);
      world.update();
      assert.equal(world.deferredChunkBuilds(), 8);
      assert.equal(world.pendingChunkBuilds(), 16);
      assert.equal(world.isStandable(walker, far), false, 'built before the streaming delay');
      world.update();
      assert.equal(world.pendingChunkBuilds(), 0);
      assert.equal(world.deferredChunkBuilds(), 8);
      assert.equal(world.isStandable(walker, far), true);
      assert.equal(world.isStandable(walker, farNeighbour), true);
      assert.equal(world.reachable(walker, far, farNeighbour).answer, 'yes');
      assert.equal(world.isStandable(walker, near), true, 'a built chunk stays built');
      assert.equal(world.isStandable(walker, stillFar), false, 'a chunk 2 columns from both agents was built');

      // Radius 0: every loaded chunk is built.
      world.setChunkBuildRadius(0);
      for (let u = 0; u < 3; ++u) world.update();
      assert.equal(world.deferredChunkBuilds(), 0);
      assert.equal(world.pendingChunkBuilds(), 0);
      assert.equal(world.reachable(walker, home, far).answer, 'yes');
      world.dispose();
    });

    test('with one search per update, queuedRequests() drops by one per update and every cost is the unbudgeted one', () => {
      const { world, walker } = h.worldWithMap(lib, 'arena.map');
      const rows = h.readScenario('arena.map').filter((r) => r.bucket >= 3);
      const picked = [0, 7, 14, 21, 28, 35].map((i) => rows[i % rows.length]);
      const route = (r) => [[r.sx, h.STAND_Y, r.sy], [r.gx, h.STAND_Y, r.gy]];
      // Without a budget: every request is dispatched by the first update and ready at the second.
      const ref = picked.map((r) => world.request(walker, ...route(r)));
      assert.equal(world.queuedRequests(), picked.length);
      world.update();
      assert.equal(world.queuedRequests(), 0);
      world.update();
      const costs = ref.map((hd) => {
        const st = world.status(hd);
        assert.equal(st.state, 'ready');
        world.release(hd);
        return st.cost;
      });

      world.setSearchesPerUpdate(1);
      const hs = picked.map((r) => world.request(walker, ...route(r)));
      assert.equal(world.queuedRequests(), picked.length);
      let updates = 0;
      for (let ready = 0; ready < picked.length;) {
        const queued = world.queuedRequests();
        world.update();
        ++updates;
        assert.ok(updates <= picked.length + 1, 'the requests did not finish');
        assert.equal(world.queuedRequests(), Math.max(0, queued - 1), `update ${updates}`);
        ready = 0;
        hs.forEach((hd, k) => {
          const st = world.status(hd);
          // Request k is dispatched by update k + 1 and applied at the next one.
          assert.equal(st.state, k < updates - 1 ? 'ready' : 'searching', `request ${k} after update ${updates}`);
          if (st.state === 'ready') {
            assert.equal(st.cost, costs[k], `request ${k}`);
            ++ready;
          }
        });
      }
      assert.equal(updates, picked.length + 1);
      hs.forEach((hd) => world.release(hd));

      // Back to no limit: one update dispatches every queued request.
      world.setSearchesPerUpdate(0);
      const again = picked.map((r) => world.request(walker, ...route(r)));
      world.update();
      assert.equal(world.queuedRequests(), 0);
      world.update();
      assert.deepEqual(again.map((hd) => world.status(hd).cost), costs);
      world.dispose();
    });
  });
}
