// The npm package's API on real data: Moving AI maps (shared/data/movingai-2d) as voxel worlds with
// the real Minecraft block registry (data/blocks). Runs against the sync build, and the threaded one
// when the build has it.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;

// A snapshot of everything a failing call must leave alone.
function fingerprint(world, cells, agents = []) {
  const s = world.stats();
  return JSON.stringify({
    epoch: world.navEpoch,
    searches: s.searches,
    islands: s.islands,
    standable: s.standableCells,
    blocks: cells.map((c) => { try { return world.getBlock(c); } catch (e) { return e.status; } }),
    agents: Array.from(world.agentsSnapshot().ids),
    states: agents.map((a) => world.agentState(a)),
  });
}

// Runs fn, which must throw a VoxnavError with this status and a message matching re; and checks
// the world is unchanged afterwards (also after an update).
function assertRejected(pkg, world, fn, status, re, probe = { cells: [[1, 1, 1]], agents: [] }) {
  const beforeState = fingerprint(world, probe.cells, probe.agents);
  assert.throws(fn, (e) => {
    assert.ok(e instanceof pkg.VoxnavError, `not a VoxnavError: ${e}`);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'VoxnavError');
    assert.equal(e.status, status, e.message);
    assert.match(e.message, re);
    return true;
  });
  assert.equal(fingerprint(world, probe.cells, probe.agents), beforeState, 'the world changed');
  world.update();
  assert.equal(fingerprint(world, probe.cells, probe.agents), beforeState, 'the world changed after update');
}

describe('package entry', { skip }, () => {
  let pkg;
  before(async () => {
    pkg = await h.importPackage();
  });

  test('require() of the package (and of voxnav/worker) throws an error saying to import it', () => {
    // Installed as node_modules/voxnav of a CommonJS consumer: require resolves through exports.
    const consumer = fs.mkdtempSync(path.join(os.tmpdir(), 'voxnav-cjs-'));
    try {
      fs.mkdirSync(path.join(consumer, 'node_modules'));
      fs.symlinkSync(h.packageDir(), path.join(consumer, 'node_modules/voxnav'), 'dir');
      const req = createRequire(path.join(consumer, 'consumer.cjs'));
      for (const entry of ['voxnav', 'voxnav/worker'])
        assert.throws(() => req(entry), /voxnav is an ES module package: use `import/, entry);
    } finally {
      fs.rmSync(consumer, { recursive: true, force: true });
    }
  });

  test('new World() before init() throws Busy', () => {
    assert.throws(() => new pkg.World(), (e) => e instanceof pkg.VoxnavError && e.status === 'Busy');
  });

  test('init({ wasmBinary }) resolves ready; later init() calls return the same library', async () => {
    const bytes = fs.readFileSync(path.join(h.packageDir(), 'dist/voxnav-sync.wasm'));
    const lib = await pkg.init({ wasmBinary: bytes, build: 'sync' });
    assert.equal(lib.build, 'sync');
    assert.equal(await pkg.ready, lib);
    assert.equal(await pkg.init(), lib);
    const w = new pkg.World();
    assert.ok(w instanceof pkg.World);
    assert.ok(w.blockCount >= 2);
    w.dispose();
    assert.equal(w.disposed, true);
    assert.throws(() => w.blockCount, (e) => e.status === 'StaleHandle' && /disposed/.test(e.message));
    w.dispose();  // idempotent
  });

  test('load({ wasmUrl }) reads the .wasm from a path or file URL; a missing one is NotFound', async () => {
    const file = path.join(h.packageDir(), 'dist/voxnav-sync.wasm');
    const a = await pkg.load({ build: 'sync', wasmUrl: file });
    const b = await pkg.load({ build: 'sync', wasmUrl: new URL(`file://${file}`) });
    assert.notEqual(a.module, b.module);
    await assert.rejects(pkg.load({ build: 'sync', wasmUrl: '/nonexistent/voxnav.wasm' }),
      (e) => e instanceof pkg.VoxnavError && e.status === 'NotFound' && /nonexistent/.test(e.message));
  });

  test('bad init options are VoxnavErrors', async () => {
    await assert.rejects(pkg.load({ build: 'fast' }), (e) => e.status === 'InvalidArgument' && /build 'fast'/.test(e.message));
    await assert.rejects(pkg.load({ build: 'sync', wasmBinary: 'nope' }), (e) => e.status === 'InvalidArgument' && /wasmBinary/.test(e.message));
    await assert.rejects(pkg.load({ build: 'sync', wasmBinary: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }),
      (e) => e instanceof pkg.VoxnavError && e.status === 'BadFormat');
  });

  test('edge kinds and agent modes match the C++ names', async () => {
    const lib = await pkg.init();
    const m = lib.module;
    // names(): the C++ names of every enum the results carry as numbers, in enum order (the
    // whole list: no C++ status, edge kind or mode is missing from the JS lists).
    const names = m.names();
    assert.deepEqual(names.edgeKind, [...pkg.EDGE_KINDS]);
    assert.deepEqual(names.agentMode, [...pkg.AGENT_MODES]);
    assert.deepEqual(names.status, [...pkg.STATUS_NAMES]);
  });
});

const builds = ['sync', ...(h.hasThreadedBuild ? ['threaded'] : [])];
for (const build of builds) {
  describe(`World on real maps (${build} build)`, { skip }, () => {
    let pkg, lib;
    before(async () => {
      pkg = await h.importPackage();
      lib = await pkg.load({ build });
      assert.equal(lib.build, build);
    });

    test('loads the real block registry and a Moving AI map', () => {
      const { world, map, walker, stone } = h.worldWithMap(lib, 'den312d.map');
      try {
        assert.equal(world.threaded, build === 'threaded');
        assert.ok(world.blockCount > 20000, `registry has ${world.blockCount} values`);
        assert.equal(world.blockValue('minecraft:stone'), stone);
        assert.ok(world.blockValue('oak_slab[type=top]') !== world.blockValue('oak_slab[type=bottom]'));
        let open = 0, walls = 0;
        for (let y = 0; y < map.height; y += 3) {
          for (let x = 0; x < map.width; x += 3) {
            const standable = world.isStandable(walker, [x, h.STAND_Y, y]);
            assert.equal(standable, map.passable(x, y), `tile (${x}, ${y})`);
            if (standable) {
              ++open;
              assert.equal(world.standingHeight(walker, [x, 1, y]), 1);
              assert.equal(world.getBlock([x, 1, y]), 0);
            } else {
              ++walls;
              assert.equal(world.standingHeight(walker, { x, y: 1, z: y }), null);
              assert.equal(world.getBlock({ x, y: 1, z: y }), stone);
            }
          }
        }
        assert.ok(open > 100 && walls > 100);
        const near = world.nearestStandable(walker, [0, 1, 0], 64);
        assert.ok(near && map.passable(near[0], near[2]) && near[1] === 1);
      } finally {
        world.dispose();
      }
    });

    test('reachable() agrees with the map\'s connected components (room-400-40)', () => {
      const { world, map, walker } = h.worldWithMap(lib, 'room-400-40.map');
      try {
        const comp = h.components(map);
        assert.equal(comp.count, 3);
        // A few cells of every component, spread over the map.
        const picks = [];
        for (let k = 0; k < comp.count; ++k) {
          let found = 0;
          for (let y = 0; y < map.height && found < 4; y += 7) {
            for (let x = (y * 13 + k * 31) % 11; x < map.width && found < 4; x += 53) {
              if (comp.at(x, y) === k) {
                picks.push({ x, y, k });
                ++found;
              }
            }
          }
          assert.ok(found > 0, `no cell picked in component ${k}`);
        }
        let yes = 0, no = 0;
        for (const a of picks) {
          for (const b of picks) {
            const r = world.reachable(walker, [a.x, 1, a.y], [b.x, 1, b.y]);
            assert.equal(r.answer, a.k === b.k ? 'yes' : 'no', `(${a.x}, ${a.y}) -> (${b.x}, ${b.y})`);
            assert.equal(r.epoch, world.navEpoch);
            if (r.answer === 'yes') ++yes; else ++no;
          }
        }
        assert.ok(yes > 0 && no > 0);
        // A wall cell is no start: the answer is not Yes, and says why.
        let wall = null;
        for (let x = 0; !wall && x < map.width; ++x) if (!map.passable(x, 0)) wall = [x, 1, 0];
        const r = world.reachable(walker, wall, [picks[0].x, 1, picks[0].y]);
        assert.equal(r.answer, 'unknown');
        assert.equal(r.reason, 'start_not_standable');
        // Across components: request fails at once (no search); requestToward gives a partial route.
        const a = picks.find((p) => p.k === 0), b = picks.find((p) => p.k === 1);
        const hNo = world.request(walker, [a.x, 1, a.y], [b.x, 1, b.y]);
        const st = world.status(hNo);
        assert.equal(st.state, 'failed');
        assert.equal(st.failure, 'unreachable');
        assert.equal(st.nodesExpanded, 0);
        assert.throws(() => world.corridor(hNo), (e) => e.status === 'Busy' && /not ready/.test(e.message));
        world.release(hNo);
        const hTo = world.requestToward(walker, [a.x, 1, a.y], [b.x, 1, b.y]);
        const st2 = h.settle(world, hTo);
        assert.equal(st2.state, 'ready');
        assert.equal(st2.partial, true);
        world.release(hTo);
      } finally {
        world.dispose();
      }
    });

    test('requests find optimal routes on the scenario rows of den312d', () => {
      const { world, walker } = h.worldWithMap(lib, 'den312d.map');
      try {
        const rows = h.readScenario('den312d.map').filter((_, i) => i % 5 === 0);
        assert.ok(rows.length >= 40);
        const handles = rows.map((r) => world.request(walker, [r.sx, 1, r.sy], [r.gx, 1, r.gy]));
        for (let i = 0; i < 5; ++i) world.update();
        rows.forEach((r, i) => {
          const st = world.status(handles[i]);
          assert.equal(st.state, 'ready', `row ${i}: ${JSON.stringify(st)}`);
          const cells = world.pathCells(handles[i]);
          assert.ok(cells.cells instanceof Int32Array && cells.kinds instanceof Uint8Array);
          assert.equal(cells.cells.length, 3 * st.cellCount);
          assert.ok(Math.abs(h.octileLength(cells.cells) - r.optimal) < 1e-6 * Math.max(1, r.optimal),
            `row ${i}: length ${h.octileLength(cells.cells)} vs optimal ${r.optimal}`);
          const c = world.corridor(handles[i]);
          assert.ok(c.positions instanceof Float64Array && c.kinds instanceof Uint8Array && c.cells instanceof Int32Array);
          const n = st.waypointCount;
          assert.equal(c.positions.length, 3 * n);
          assert.equal(c.kinds.length, n);
          assert.equal(pkg.EDGE_KINDS[c.kinds[0]], 'start');
          assert.deepEqual(Array.from(c.cells.subarray(0, 3)), [r.sx, 1, r.sy]);
          assert.deepEqual(Array.from(c.cells.subarray(3 * n - 3)), [r.gx, 1, r.gy]);
          assert.deepEqual(Array.from(c.positions.subarray(3 * n - 3)), [r.gx + 0.5, 1, r.gy + 0.5]);
          world.release(handles[i]);
        });
        const s = world.stats();
        assert.equal(s.searches, rows.length);
        assert.equal(world.searchTimesUs().length, rows.length);
        // A search job takes one or more of an update's searches.
        if (build === 'threaded') assert.ok(s.threadJobs > 0 && s.threadJobs <= rows.length, `pthread ran ${s.threadJobs} jobs`);
      } finally {
        world.dispose();
      }
    });

    test('an edit across an agent\'s corridor changes it, and the agent still arrives (arena)', () => {
      const { world, map, walker, stone } = h.worldWithMap(lib, 'arena.map');
      try {
        const row = h.readScenario('arena.map').reduce((a, b) => (b.optimal > a.optimal ? b : a));
        const agent = world.addAgent(walker, [row.sx + 0.5, 1, row.sy + 0.5]);
        world.setAgentGoal(agent, [row.gx, 1, row.gy]);
        let s = world.agentState(agent);
        for (let i = 0; i < 10 && s.mode !== 'moving'; ++i) {
          world.tick(0.05);
          s = world.agentState(agent);
        }
        assert.equal(s.mode, 'moving');
        const first = world.agentCorridor(agent);
        assert.equal(first.epoch, s.corridorEpoch);
        // Block a corridor waypoint cell ahead of the agent (not its goal), keeping the map connected.
        // (Waypoint cells lie on the search path, which the engine watches for edits.)
        const here = [Math.floor(s.feet[0]), Math.floor(s.feet[2])];
        let blocked = null;
        for (let i = Math.max(1, s.nextWaypoint); i < first.cells.length / 3 - 1 && !blocked; ++i) {
          const x = first.cells[3 * i], z = first.cells[3 * i + 2];
          if (Math.abs(x - here[0]) + Math.abs(z - here[1]) <= 1) continue;
          const edited = { ...map, passable: (px, py) => !(px === x && py === z) && map.passable(px, py) };
          if (h.components(edited).count === 1) blocked = [x, z];
        }
        assert.ok(blocked, 'no corridor cell could be blocked');
        const epochBefore = world.navEpoch;
        world.setBox([blocked[0], 1, blocked[1]], [blocked[0], h.WALL_TOP, blocked[1]], stone);
        world.tick(0.05);
        assert.ok(world.navEpoch > epochBefore, 'navigation epoch did not move after the edit');
        assert.equal(world.isStandable(walker, [blocked[0], 1, blocked[1]]), false);
        // The corridor is repaired at once: re-planned at the edit's tick, the search dispatched at
        // the next update and its result installed at the one after.
        let second = world.agentCorridor(agent);
        for (let i = 0; i < 3 && second.epoch === first.epoch; ++i) {
          world.tick(0.05);
          second = world.agentCorridor(agent);
        }
        assert.notEqual(second.epoch, first.epoch, 'the corridor did not change after the edit');
        assert.ok(!corridorCells(second.positions, 0).includes(`${blocked[0]},${blocked[1]}`),
          'the new corridor still crosses the blocked cell');
        let arrived = false;
        for (let i = 0; i < 2000 && !arrived; ++i) {
          world.tick(0.05);
          arrived = world.agentState(agent).mode === 'arrived';
        }
        assert.ok(arrived, `agent did not arrive: ${JSON.stringify(world.agentState(agent))} ${world.agentReason(agent)}`);
        const end = world.agentState(agent);
        assert.ok(Math.hypot(end.feet[0] - (row.gx + 0.5), end.feet[2] - (row.gy + 0.5)) < 1);
        assert.ok(end.repairs >= 1 || end.replans >= 1 || end.requests >= 2, JSON.stringify(end));
        const snap = world.agentsSnapshot();
        assert.equal(snap.count, 1);
        assert.deepEqual(Array.from(snap.ids), [agent]);
        assert.deepEqual(Array.from(snap.positions), end.feet);
        assert.equal(pkg.AGENT_MODES[snap.modes[0]], 'arrived');
      } finally {
        world.dispose();
      }
    });

    test('bad arguments throw VoxnavError naming them and leave the world unchanged', () => {
      const { world, walker, stone } = h.worldWithMap(lib, 'arena.map');
      try {
        const agent = world.addAgent(walker, [3.5, 1, 3.5]);
        const probe = { cells: [[3, 1, 3], [10, 0, 10], [200, 0, 200], [5, 1, 5]], agents: [agent] };
        const rej = (fn, status, re) => assertRejected(pkg, world, fn, status, re, probe);

        // Bad chunk length (one chunk, and a batch whose second chunk is short).
        rej(() => world.loadChunk([12, 0, 12], new Uint16Array(4095)), 'InvalidArgument',
          /^loadChunk: values has 4095 entries, expected 4096$/);
        rej(() => world.loadChunks(Int32Array.of(12, 0, 12, 13, 0, 13), new Uint16Array(8191)), 'InvalidArgument',
          /^loadChunks: values has 8191 entries, expected 8192/);
        rej(() => world.loadChunk([12, 0, 12], [1, 2, 3]), 'InvalidArgument', /values must be a Uint16Array \(got Array\)/);
        rej(() => world.loadChunks(new Int32Array(4), new Uint16Array(4096)), 'InvalidArgument', /positions has 4 entries/);
        // A value outside the registry in the second chunk: neither chunk is loaded.
        const two = new Uint16Array(8192);
        two[4096 + 77] = 65535;
        rej(() => world.loadChunks(Int32Array.of(12, 0, 12, 13, 0, 13), two), 'OutOfRange',
          /^loadChunks: values\[4173\] = 65535 \(chunk 1 \(13, 0, 13\)\) is not in the block registry/);
        assert.throws(() => world.getBlock([12 * 16, 0, 12 * 16]), (e) => e.status === 'NotLoaded');
        rej(() => world.loadChunk([2 ** 22, 0, 0], new Uint16Array(4096)), 'OutOfRange', /loadChunk: chunk .* out of range/);
        rej(() => world.unloadChunk([40, 0, 40]), 'NotLoaded', /\(40, 0, 40\) is not loaded/);

        // Unknown profile field, bad profile values, bad JSON.
        rej(() => world.addProfile({ id: 'boar', class: 'walker', wings: 2 }), 'BadFormat', /^addProfile: profile "boar": field "wings": unknown field/);
        assert.throws(() => world.findProfile('boar'), (e) => e.status === 'NotFound' && /boar/.test(e.message));
        rej(() => world.addProfile({ id: 'big', body: { width: 1.2 } }), 'InvalidArgument', /field "body.width"/);
        rej(() => world.addProfile('{"id": "x",'), 'BadFormat', /addProfile/);
        rej(() => world.addProfile({ id: 'walker' }), 'InvalidArgument', /field "id": already added/);
        rej(() => world.addProfile(42), 'InvalidArgument', /profile must be a JSON string or an object/);

        // Released (and never made) handles.
        const hd = world.request(walker, [3, 1, 3], [5, 1, 5]);
        h.settle(world, hd);
        world.release(hd);
        rej(() => world.status(hd), 'StaleHandle', new RegExp(`^status: path ${hd} is not a live request`));
        rej(() => world.corridor(hd), 'StaleHandle', /^corridor: path/);
        rej(() => world.pathCells(hd), 'StaleHandle', /^pathCells: path/);
        rej(() => world.release(hd), 'StaleHandle', /^release: path/);
        const never = hd + 4 * 2 ** 21 * 1000;  // the same slot 1000 generations on: never made
        rej(() => world.status(never), 'StaleHandle', new RegExp(`path ${never} is not a live request`));
        rej(() => world.status(123456789), 'InvalidArgument', /path 123456789 is an agent id, not a path handle/);
        rej(() => world.status(1.5), 'InvalidArgument', /^status: path 1.5 is not a path handle/);
        rej(() => world.status('7'), 'InvalidArgument', /handle must be a number/);

        // Out-of-range cells, non-integer cells, unloaded chunks, values outside the registry.
        rej(() => world.setBlock([2 ** 25, 1, 0], stone), 'OutOfRange', /^setBlock: cell \(33554432, 1, 0\) is out of range/);
        rej(() => world.getBlock([0, -(2 ** 20), 0]), 'OutOfRange', /^getBlock: cell/);
        rej(() => world.setBlock([1e300, 1, 0], stone), 'OutOfRange', /out of range/);
        rej(() => world.setBlock([1.5, 1, 0], stone), 'InvalidArgument', /cell \(1.5, 1, 0\) is not a cell/);
        rej(() => world.setBlock([NaN, 1, 0], stone), 'InvalidArgument', /NaN/);
        rej(() => world.setBlock([3, 1], stone), 'InvalidArgument', /cell has 2 entries/);
        rej(() => world.setBlock('3,1,3', stone), 'InvalidArgument', /cell must be \[x, y, z\] or \{x, y, z\}/);
        rej(() => world.setBlock([200, 1, 200], stone), 'NotLoaded', /^setBlock: cell \(200, 1, 200\) is in chunk \(12, 0, 12\), which is not loaded/);
        rej(() => world.setBlock([3, 1, 3], world.blockCount), 'OutOfRange', /^setBlock: value \d+ is not in the block registry/);
        rej(() => world.setBlock([3, 1, 3], -1), 'OutOfRange', /value -1/);
        rej(() => world.setBox([5, 1, 5], [3, 1, 3], stone), 'InvalidArgument', /min \(5, 1, 5\) is above max/);
        rej(() => world.setBox([0, 0, 0], [70, 4, 70], stone), 'NotLoaded', /^setBox: the box min .. max covers chunk \(\d+, 0, \d+\), which is not loaded/);
        rej(() => world.request(walker, [3, 1, 3], [2 ** 25, 1, 3]), 'OutOfRange', /^request: goal/);
        rej(() => world.request(walker, [3, 1, 3], [5, 1, 5], { range: 65 }), 'InvalidArgument', /range 65/);
        rej(() => world.request(walker + 256, [3, 1, 3], [5, 1, 5]), 'InvalidArgument', /^request: profile \d+ is not a profile of this world \(1 added\)/);
        rej(() => world.reachable(walker, [3, 1, 3], [0, 2 ** 21, 0]), 'OutOfRange', /^reachable: goal/);
        rej(() => world.nearestStandable(walker, [3, 1, 3], 65), 'InvalidArgument', /radius 65/);

        // Agents: bad positions, stale ids, bad goals, bad dt.
        rej(() => world.addAgent(walker, [NaN, 1, 3]), 'InvalidArgument', /^addAgent: feet \(NaN, 1, 3\) is not finite/);
        rej(() => world.addAgent(walker, [2 ** 26, 1, 3]), 'OutOfRange', /^addAgent: feet/);
        rej(() => world.setAgentGoal(agent, [3, 1, 2 ** 25]), 'OutOfRange', /^setAgentGoal: goal/);
        rej(() => world.teleportAgent(agent, [3, Infinity, 3]), 'InvalidArgument', /Infinity/);
        rej(() => world.removeAgent(agent + 4), 'StaleHandle', /^removeAgent: agent \d+ is not a live agent/);
        rej(() => world.tick(0), 'InvalidArgument', /^tick: dt 0 is not in \(0, 1\] seconds/);
        rej(() => world.tick(2), 'InvalidArgument', /dt 2/);
        rej(() => world.blockValue('no_such_block'), 'NotFound', /"no_such_block"/);
        rej(() => world.loadMinecraftBlocks('{}', '{}'), 'Busy', /chunks are already loaded/);

        const other = lib.createWorld();
        try {
          assert.throws(() => other.loadMinecraftBlocks('{not json', '{}'), (e) => e instanceof pkg.VoxnavError && e.status === 'BadFormat');
          assert.throws(() => other.loadMinecraftBlocks(7, '{}'), (e) => e.status === 'InvalidArgument' && /blocksJson must be/.test(e.message));
        } finally {
          other.dispose();
        }

        // A removed agent is stale everywhere, and the world still works after all of the above.
        world.removeAgent(agent);
        assert.throws(() => world.agentState(agent), (e) => e.status === 'StaleHandle');
        assert.throws(() => world.removeAgent(agent), (e) => e.status === 'StaleHandle');
        const ok = world.request(walker, [3, 1, 3], [5, 1, 5]);
        assert.equal(h.settle(world, ok).state, 'ready');
      } finally {
        world.dispose();
      }
    });
  });
}

if (h.hasThreadedBuild) {
  test('the threaded and sync builds give bit-identical corridors and agent positions', { skip }, async () => {
    const pkg = await h.importPackage();
    const libs = [await pkg.load({ build: 'sync' }), await pkg.load({ build: 'threaded' })];
    const runs = libs.map((lib) => {
      const { world, walker } = h.worldWithMap(lib, 'den312d.map');
      const rows = h.readScenario('den312d.map').filter((_, i) => i % 97 === 0);
      const agents = rows.map((r) => {
        const a = world.addAgent(walker, [r.sx + 0.5, 1, r.sy + 0.5]);
        world.setAgentGoal(a, [r.gx, 1, r.gy]);
        return a;
      });
      for (let i = 0; i < 200; ++i) world.tick(0.05);
      const snap = world.agentsSnapshot();
      const corridors = agents.map((a) => Array.from(world.agentCorridor(a).positions));
      const out = { positions: Array.from(snap.positions), modes: Array.from(snap.modes), corridors, threadJobs: world.stats().threadJobs };
      world.dispose();
      return out;
    });
    assert.equal(runs[0].threadJobs, 0);
    assert.ok(runs[1].threadJobs > 0);
    assert.deepEqual(runs[1].positions, runs[0].positions);
    assert.deepEqual(runs[1].modes, runs[0].modes);
    assert.deepEqual(runs[1].corridors, runs[0].corridors);
  });
}

// Cells ("x,z") a corridor's segments pass over, from waypoint `from` on (sampled every 0.05).
function corridorCells(positions, from) {
  const out = [];
  for (let i = Math.max(1, from); i < positions.length / 3; ++i) {
    const ax = positions[3 * i - 3], az = positions[3 * i - 1], bx = positions[3 * i], bz = positions[3 * i + 2];
    const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, bz - az) / 0.05));
    for (let s = 0; s <= steps; ++s) {
      const key = `${Math.floor(ax + ((bx - ax) * s) / steps)},${Math.floor(az + ((bz - az) * s) / steps)}`;
      if (out[out.length - 1] !== key) out.push(key);
    }
  }
  return out;
}
