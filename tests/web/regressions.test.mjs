// Regressions found by testing the packed package from the outside: far-from-origin corridors,
// all-or-nothing worker batches, error messages that name the message type and field, chunk
// unloads, init / ready, `wait` requests that do not advance navigation time, and stricter
// argument checks (stepBody, blockValue, addProfile, World options). Real data: the Moving AI
// arena map as a voxel world and the real block registry.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const builds = ['sync', ...(h.hasThreadedBuild ? ['threaded'] : [])];

// Runs fn, which must throw a VoxnavError with this status and a message matching re.
function throwsVoxnav(pkg, fn, status, re) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof pkg.VoxnavError, `not a VoxnavError: ${e && e.stack}`);
    assert.equal(e.status, status, e.message);
    assert.match(e.message, re);
    return true;
  });
}

// Sends messages through handle(); ok() returns the result, err() checks the error.
function session(handlers) {
  const state = handlers.createState();
  let next = 1;
  const send = (msg) => handlers.handle(state, { id: next++, ...msg });
  const ok = async (msg) => {
    const r = await send(msg);
    assert.ok(!r.reply.error, `${msg.type}: ${JSON.stringify(r.reply.error)}`);
    return { ...r.reply.ok, posts: r.posts };
  };
  const err = async (msg, status, re) => {
    const r = await send(msg);
    assert.ok(r.reply.error, `${msg.type} did not fail: ${JSON.stringify(r.reply.ok)}`);
    assert.equal(r.reply.error.status, status, r.reply.error.message);
    assert.match(r.reply.error.message, re);
    assert.equal(r.posts.length, 0);
    return r.reply.error;
  };
  return { state, send, ok, err };
}

// The first describe runs first in this process: init() has not been called before it.
describe('init and ready', { skip }, () => {
  test('ready resolves after a failed init() followed by a successful one; another build is refused', async () => {
    const pkg = await h.importPackage();
    let settled = 'pending';
    pkg.ready.then((l) => { settled = `resolved ${l.build}`; }, (e) => { settled = `rejected ${e.message}`; });
    await assert.rejects(pkg.init({ build: 'bogus' }), (e) => e instanceof pkg.VoxnavError && e.status === 'InvalidArgument');
    await assert.rejects(pkg.init({ build: 'sync', wasmBinary: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 9]) }),
      (e) => e instanceof pkg.VoxnavError && e.status === 'BadFormat');
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(settled, 'pending', 'a failed init must not settle ready');
    const lib = await pkg.init({ build: 'sync' });
    assert.equal(await pkg.ready, lib);
    assert.equal(settled, 'resolved sync');
    // The same library again, with or without options naming its build.
    assert.equal(await pkg.init(), lib);
    assert.equal(await pkg.init({ build: 'sync' }), lib);
    assert.equal(await pkg.init({ build: 'auto' }), lib);
    await assert.rejects(pkg.init({ build: 'threaded' }), (e) => e instanceof pkg.VoxnavError && e.status === 'Busy' &&
      /already initialised with build 'sync'/.test(e.message) && /load\(/.test(e.message));
  });

  test('new World({ voxnav }) refuses what is not a library, naming the option', async () => {
    const pkg = await h.importPackage();
    for (const bad of [{}, 5, 'sync', { build: 'sync' }, { module: {}, build: 'sync' }]) {
      throwsVoxnav(pkg, () => new pkg.World({ voxnav: bad }), 'InvalidArgument', /^World: options\.voxnav must be a library from init\(\) or load\(\)/);
    }
    const lib = await pkg.load({ build: 'sync' });
    const w = new pkg.World({ voxnav: lib });
    assert.equal(w.voxnav, lib);
    w.dispose();
  });
});

for (const build of builds) {
  describe(`far from the origin (${build} build)`, { skip }, () => {
    let lib, handlers;
    before(async () => {
      lib = await (await h.importPackage()).load({ build });
      handlers = await h.importPackage('worker/handlers.mjs');
    });

    test('a corridor at x = 20,000,000 has its waypoints at cell centres; the agent arrives in the goal cell', async () => {
      const s = session(handlers);
      const { blocks, shapes } = h.registryFiles();
      await s.ok({ type: 'init', build, blocksJson: blocks, shapesJson: shapes });
      const { values: [stone] } = await s.ok({ type: 'blockValues', names: ['stone'] });
      const CX = 1250000;  // chunk x: cells 20,000,000 .. 20,000,031
      const x0 = CX * 16;
      assert.equal(x0, 20000000);
      const values = new Uint16Array(2 * 4096);
      for (const base of [0, 4096]) for (let z = 0; z < 16; ++z) for (let x = 0; x < 16; ++x) values[base + x + 16 * z] = stone;
      await s.ok({ type: 'loadChunks', positions: Int32Array.of(CX, 0, 0, CX + 1, 0, 0), values });
      await s.ok({ type: 'addProfile', profile: { id: 'walker' } });
      const goal = [x0 + 25, 1, 13];
      const { ids: [agent] } = await s.ok({ type: 'addAgents', agents: [{ profile: 'walker', feet: [x0 + 1.5, 1, 1.5], goal }] });

      // The posted corridor: Float64Array, every waypoint at its cell's centre, transferred.
      let corridor = null;
      for (let t = 0; t < 10 && !corridor; ++t) {
        const r = await s.ok({ type: 'tick' });
        corridor = r.posts[0].corridors.find((c) => c.agent === agent && c.waypoints.length) ?? null;
        if (corridor) assert.ok(handlers.transferList(r.posts[0]).includes(corridor.waypoints.buffer));
      }
      assert.ok(corridor, 'no corridor posted');
      assert.ok(corridor.waypoints instanceof Float64Array);
      const w = corridor.waypoints;
      assert.deepEqual(Array.from(w.slice(0, 3)), [x0 + 1.5, 1, 1.5]);
      assert.deepEqual(Array.from(w.slice(-3)), [goal[0] + 0.5, 1, goal[2] + 0.5]);
      for (let i = 0; i < w.length; i += 3) {
        assert.equal(w[i] - Math.floor(w[i]), 0.5, `waypoint ${i / 3} x ${w[i]} is not a cell centre`);
        assert.equal(w[i + 2] - Math.floor(w[i + 2]), 0.5, `waypoint ${i / 3} z ${w[i + 2]} is not a cell centre`);
      }
      // The World read-outs agree (agent corridor and a request's corridor).
      const world = s.state.world;
      const ac = world.agentCorridor(agent);
      assert.deepEqual(Array.from(ac.positions), Array.from(w));
      const now = world.findPathNow(world.findProfile('walker'), [x0 + 1, 1, 1], [x0 + 3, 1, 1]);
      assert.equal(now.state, 'ready');
      assert.deepEqual(Array.from(now.corridor.positions), [x0 + 1.5, 1, 1.5, x0 + 3.5, 1, 1.5]);

      // The agent walks all the way: it arrives with its feet in the goal cell.
      for (let t = 0; t < 40; ++t) await s.ok({ type: 'tick', count: 10 });
      const st = await s.ok({ type: 'agentState', agent });
      assert.equal(st.mode, 'arrived', st.reason);
      assert.deepEqual([Math.floor(st.feet[0]), Math.floor(st.feet[1]), Math.floor(st.feet[2])], goal);
      await s.ok({ type: 'dispose' });
    });
  });

  describe(`worker batches are all or nothing, errors name the message and field (${build} build)`, { skip }, () => {
    let handlers;
    before(async () => {
      handlers = await h.importPackage('worker/handlers.mjs');
    });

    // A session on the arena map with two agents walking.
    async function arena() {
      const s = session(handlers);
      const { blocks, shapes } = h.registryFiles();
      await s.ok({ type: 'init', build, blocksJson: blocks, shapesJson: shapes });
      const { values: [stone, air] } = await s.ok({ type: 'blockValues', names: ['stone', 'air'] });
      const loaded = await s.ok({ type: 'loadChunks', ...h.movingAiChunks(h.readMovingAiMap('arena.map'), stone) });
      assert.equal(loaded.updated, true, 'setting up: navigation is updated before the reply');
      await s.ok({ type: 'addProfile', profile: { id: 'walker' } });
      const { ids } = await s.ok({
        type: 'addAgents',
        agents: [{ profile: 'walker', feet: [20.5, 1, 20.5], goal: [30, 1, 30] }, { profile: 'walker', feet: [25.5, 1, 20.5], goal: [20, 1, 30] }],
      });
      await s.ok({ type: 'tick', count: 3 });
      return { s, stone, air, ids };
    }

    // Everything a failed batch must leave alone.
    async function fingerprint(s, ids, cells) {
      const w = s.state.world;
      const st = w.stats();
      return JSON.stringify({
        hash: w.stateHash(), agents: Array.from(w.agentsSnapshot().ids), epoch: w.navEpoch, searches: st.searches,
        states: ids.map((a) => { try { return w.agentState(a); } catch (e) { return e.status; } }),
        blocks: cells.map((c) => { try { return w.getBlock(c); } catch (e) { return e.status; } }),
        pending: s.state.pending.length, ticks: s.state.ticks,
      });
    }

    test('a bad entry anywhere in a batch changes nothing', async () => {
      const { s, stone, ids } = await arena();
      const cells = [[40, 1, 40], [41, 1, 41], [22, 1, 22]];
      const unchanged = async (msg, status, re) => {
        const before = await fingerprint(s, ids, cells);
        await s.err(msg, status, re);
        assert.equal(await fingerprint(s, ids, cells), before, `${msg.type} changed the world`);
        // ...and the next tick behaves as if the message had never been sent.
        await s.ok({ type: 'tick' });
      };
      await unchanged({ type: 'removeAgents', ids: [ids[1], ids[1]] }, 'InvalidArgument',
        /^removeAgents: ids\[1\] \(\d+\) repeats ids\[0\]/);
      await unchanged({ type: 'removeAgents', ids: [ids[0], ids[1] + 4 * 7] }, 'StaleHandle',
        /^removeAgents: ids\[1\]: agent \d+ is not a live agent/);
      await unchanged({ type: 'removeAgents', ids: [ids[0], null] }, 'InvalidArgument', /^removeAgents: ids\[1\] must be a number \(got null\)/);
      await unchanged({ type: 'teleportAgents', agents: [{ agent: ids[0], feet: [30.5, 1, 30.5] }, { agent: ids[1], feet: [NaN, 0, 0] }] },
        'InvalidArgument', /^teleportAgents: agents\[1\]\.feet \(NaN, 0, 0\) is not finite/);
      await unchanged({ type: 'teleportAgents', agents: [{ agent: ids[0], feet: [30.5, 1, 30.5] }, { agent: ids[1], feet: [1e9, 1, 0] }] },
        'OutOfRange', /^teleportAgents: agents\[1\]\.feet \(1000000000, 1, 0\) is out of range/);
      await unchanged({ type: 'teleportAgents', agents: [{ agent: ids[0], feet: [30.5, 1, 30.5] }, { agent: ids[0], feet: [31.5, 1, 30.5] }] },
        'InvalidArgument', /^teleportAgents: agents\[1\]\.agent \(\d+\) repeats agents\[0\]\.agent/);
      await unchanged({ type: 'edit', edits: [{ cell: [40, 1, 40], value: stone }, { cell: [0, 64, 0], value: stone }] },
        'NotLoaded', /^edit: edits\[1\]\.cell \(0, 64, 0\) is in chunk \(0, 4, 0\), which is not loaded/);
      await unchanged({ type: 'edit', edits: [{ min: [40, 1, 40], max: [41, 1, 41], value: stone }, { min: [40, 1, 40], max: [300, 1, 41], value: stone }] },
        'NotLoaded', /^edit: the box edits\[1\]\.min \.\. edits\[1\]\.max covers chunk \(\d+, 0, 2\), which is not loaded/);
      await unchanged({ type: 'edit', edits: [{ cell: [40, 1, 40], value: stone }, { cell: [41, 1, 41], value: 1e6 }] },
        'OutOfRange', /^edit: edits\[1\]\.value 1000000 is not in the block registry/);
      await unchanged({ type: 'edit', edits: [{ cell: [40, 1, 40], value: stone }, { cell: [41.5, 1, 41], value: stone }] },
        'InvalidArgument', /^edit: edits\[1\]\.cell must be an integer cell/);
      await unchanged({ type: 'setGoals', goals: [{ agent: ids[0], goal: [40, 1, 40] }, { agent: ids[0], goal: [41, 1, 41] }] },
        'InvalidArgument', /^setGoals: goals\[1\]\.agent \(\d+\) repeats goals\[0\]\.agent/);
      await unchanged({ type: 'addAgents', agents: [{ profile: 'walker', feet: [5.5, 1, 5.5] }, { profile: 'walker', feet: [NaN, 0, 0] }] },
        'InvalidArgument', /^addAgents: agents\[1\]\.feet \(NaN, 0, 0\) is not finite/);
      await unchanged({ type: 'addAgents', agents: [{ profile: 'walker', feet: [5.5, 1, 5.5] }, { profile: 'ghost', feet: [6.5, 1, 6.5] }] },
        'NotFound', /^addAgents: agents\[1\]\.profile: unknown profile "ghost"/);
      await unchanged({ type: 'addAgents', agents: [{ profile: 'walker', feet: [5.5, 1, 5.5] }, { profile: 3, feet: [6.5, 1, 6.5] }] },
        'InvalidArgument', /^addAgents: agents\[1\]\.profile 3 is a profile id of another World/);
      await unchanged({ type: 'reachable', profile: 'ghost', from: [20, 1, 20], goal: [30, 1, 30] }, 'NotFound', /^reachable: profile: unknown profile "ghost"/);
      await unchanged({ type: 'blockValues', names: ['stone', 'oak_slab[type=diagonal]'] }, 'NotFound',
        /^blockValues: names\[1\]: state "oak_slab\[type=diagonal\]" is not in the block registry: property "type"/);
      await unchanged({ type: 'request', profile: 'walker', start: [20, 1, 20], goal: [20, 1, 2 ** 25], toward: true }, 'OutOfRange', /^request: goal/);
      await unchanged({ type: 'unloadChunks', positions: Int32Array.of(0, 0, 0, 0, 0, 0) }, 'InvalidArgument',
        /^unloadChunks: positions: chunk 1 \(0, 0, 0\) repeats chunk 0/);
      await unchanged({ type: 'loadBlocks', blocksJson: '[]', shapesJson: '{}' }, 'Busy', /^loadBlocks: chunks are already loaded/);
      await s.ok({ type: 'dispose' });
    });

    test('addAgents after a failed addAgents gives the same ids and hash as without it', async () => {
      const run = async (failFirst) => {
        const { s } = await arena();
        if (failFirst) await s.err({ type: 'addAgents', agents: [{ profile: 'walker', feet: [5.5, 1, 5.5] }, { profile: 'walker', feet: [Infinity, 1, 1] }] },
          'InvalidArgument', /agents\[1\]\.feet/);
        const { ids } = await s.ok({ type: 'addAgents', agents: [{ profile: 'walker', feet: [5.5, 1, 5.5], goal: [9, 1, 9] }] });
        await s.ok({ type: 'tick', count: 20 });
        const { hash } = await s.ok({ type: 'stateHash' });
        await s.ok({ type: 'dispose' });
        return { ids, hash };
      };
      assert.deepEqual(await run(true), await run(false));
    });

    test('messages that are not objects, and loads once agents exist (no update before the tick)', async () => {
      const { s, stone } = await arena();
      for (const bad of [[1, 2], 'hello', null, 42]) {
        const r = await handlers.handle(s.state, bad);
        assert.equal(r.reply.id, null);
        assert.equal(r.reply.error.status, 'InvalidArgument');
        assert.match(r.reply.error.message, /^message must be an object/);
      }
      // Agents exist: a load does not update navigation in the handler (the next tick does).
      const epoch = s.state.world.navEpoch;
      const chunk = new Uint16Array(4096).fill(stone, 0, 256);
      const r = await s.ok({ type: 'loadChunks', positions: Int32Array.of(20, 0, 20), values: chunk });
      assert.equal(r.updated, false);
      assert.equal(r.navEpoch, epoch);
      assert.equal((await s.ok({ type: 'reachable', profile: 'walker', from: [321, 1, 321], goal: [322, 1, 322] })).reason, 'not_loaded');
      await s.ok({ type: 'tick' });
      assert.equal((await s.ok({ type: 'reachable', profile: 'walker', from: [321, 1, 321], goal: [322, 1, 322] })).answer, 'yes');
      const u = await s.ok({ type: 'unloadChunks', positions: Int32Array.of(20, 0, 20) });
      assert.equal(u.updated, false);
      await s.ok({ type: 'dispose' });
    });

    test('the example client does not repeat the message type in its errors', async () => {
      const { connectHandlers } = await import(pathToFileURL(path.join(h.repoRoot, 'examples/web/client.mjs')).href);
      const send = connectHandlers(handlers);
      await send({ type: 'init', build });
      await assert.rejects(send({ type: 'edit', cell: [0, 0, 0], value: 0 }), (e) => {
        assert.equal(e.status, 'NotLoaded');
        assert.match(e.message, /^edit: cell \(0, 0, 0\) is in chunk/);
        return true;
      });
      await assert.rejects(send({ type: 'fly' }), (e) => /^fly: unknown message type 'fly'/.test(e.message));
    });
  });

  describe(`World argument checks (${build} build)`, { skip }, () => {
    let pkg, lib;
    before(async () => {
      pkg = await h.importPackage();
      lib = await pkg.load({ build });
    });

    // Runs fn, which must throw; the world must be unchanged (blocks, navigation, agents).
    function rejects(world, fn, status, re, agents = []) {
      const probe = () => JSON.stringify({
        e: world.navEpoch, s: world.stats(), h: world.stateHash(), a: agents.map((a) => world.agentState(a)),
        b: [[3, 0, 3], [20, 0, 20], [40, 0, 40]].map((c) => world.getBlock(c)),
      });
      const before = probe();
      throwsVoxnav(pkg, fn, status, re);
      assert.equal(probe(), before, 'the world changed');
    }

    test('unloadChunk / unloadChunks check coordinates and repeats before unloading anything', () => {
      const { world, stone } = h.worldWithMap(lib, 'arena.map');
      try {
        rejects(world, () => world.unloadChunk([NaN, 0, 0]), 'InvalidArgument', /^unloadChunk: chunk \(NaN, 0, 0\) is not a chunk position \(integers expected\)/);
        rejects(world, () => world.unloadChunk([0.5, 0, 0]), 'InvalidArgument', /^unloadChunk: chunk \(0\.5, 0, 0\) is not a chunk position/);
        rejects(world, () => world.unloadChunk([2 ** 32, 0, 0]), 'OutOfRange', /^unloadChunk: chunk \(4294967296, 0, 0\) is out of range/);
        rejects(world, () => world.unloadChunk([2 ** 32 + 1, 0, 1]), 'OutOfRange', /^unloadChunk: chunk/);
        rejects(world, () => world.unloadChunk([1e300, 0, 0]), 'OutOfRange', /^unloadChunk: chunk/);
        rejects(world, () => world.unloadChunk([2 ** 21, 0, 0]), 'OutOfRange', /^unloadChunk: chunk \(2097152, 0, 0\) is out of range/);
        rejects(world, () => world.unloadChunk(['1', 0, 0]), 'InvalidArgument', /^unloadChunk: chunk must hold three numbers/);
        rejects(world, () => world.unloadChunk([1, 0]), 'InvalidArgument', /^unloadChunk: chunk has 2 entries/);
        rejects(world, () => world.unloadChunk([40, 0, 40]), 'NotLoaded', /^unloadChunk: chunk \(40, 0, 40\) is not loaded/);
        rejects(world, () => world.unloadChunks(Int32Array.of(1, 0, 1, 2, 0, 2, 1, 0, 1)), 'InvalidArgument',
          /^unloadChunks: positions: chunk 2 \(1, 0, 1\) repeats chunk 0/);
        rejects(world, () => world.unloadChunks(Int32Array.of(1, 0, 1, 40, 0, 40)), 'NotLoaded', /^unloadChunks: chunk 1 \(40, 0, 40\) is not loaded/);
        world.unloadChunk([1, 0, 1]);
        throwsVoxnav(pkg, () => world.getBlock([20, 0, 20]), 'NotLoaded', /not loaded/);
        assert.equal(world.getBlock([40, 0, 40]), stone);
      } finally {
        world.dispose();
      }
    });

    test('blockValue: unknown property names and values are NotFound, naming the property', () => {
      const world = lib.createWorld();
      try {
        const { blocks, shapes } = h.registryFiles();
        world.loadMinecraftBlocks(blocks, shapes);
        assert.equal(world.blockValue('oak_slab[type=top]'), world.blockValue('minecraft:oak_slab[type=top,waterlogged=false]'));
        assert.notEqual(world.blockValue('oak_slab[type=top]'), world.blockValue('oak_slab'));
        throwsVoxnav(pkg, () => world.blockValue('oak_slab[type=diagonal]'), 'NotFound',
          /^blockValue: state "oak_slab\[type=diagonal\]" is not in the block registry: property "type" of block "oak_slab" has no value "diagonal" \(values: top, bottom, double\)/);
        throwsVoxnav(pkg, () => world.blockValue('stone[foo=bar]'), 'NotFound', /block "stone" has no property "foo" \(it has none\)/);
        throwsVoxnav(pkg, () => world.blockValue('oak_slab[bogus=1]'), 'NotFound', /block "oak_slab" has no property "bogus" \(properties: type, waterlogged\)/);
        throwsVoxnav(pkg, () => world.blockValue('oak_slab[type=top,type=bottom]'), 'NotFound', /property "type" is given twice/);
        throwsVoxnav(pkg, () => world.blockValue('oak_slab['), 'NotFound', /lacks a closing/);
        throwsVoxnav(pkg, () => world.blockValue('unobtainium'), 'NotFound', /no block is named "unobtainium"/);
      } finally {
        world.dispose();
      }
    });

    test('addProfile: a key given twice is InvalidArgument naming it; a failed call clears lastProfileWarning', () => {
      const { world } = h.worldWithMap(lib, 'arena.map');
      try {
        world.addProfile({ id: 'timid', class: 'walker', max_drop: 1 });
        assert.match(world.lastProfileWarning, /restricts its class/);
        rejects(world, () => world.addProfile('{"id":"z11","id":"z12","class":"walker"}'), 'InvalidArgument',
          /^addProfile: profile JSON: key "id" appears more than once/);
        assert.equal(world.lastProfileWarning, '');
        throwsVoxnav(pkg, () => world.findProfile('z11'), 'NotFound', /z11/);
        throwsVoxnav(pkg, () => world.findProfile('z12'), 'NotFound', /z12/);
        rejects(world, () => world.addProfile('{"id":"b","body":{"width":0.5,"width":0.4}}'), 'InvalidArgument', /key "body\.width" appears more than once/);
        world.addProfile({ id: 'timid2', class: 'walker', max_drop: 1 });
        rejects(world, () => world.addProfile({ id: 'bad', bogus: 1 }), 'BadFormat', /field "bogus": unknown field/);
        assert.equal(world.lastProfileWarning, '');
        // Deep nesting is refused, not a crash.
        rejects(world, () => world.addProfile(`{"id":"deep","body":${'['.repeat(100000)}${']'.repeat(100000)}}`), 'BadFormat', /field "body": must be an object/);
        assert.equal(world.addProfile('{"id":"fine","body":{"width":0.5}}'), world.findProfile('fine'));
        assert.equal(world.lastProfileWarning, '');
      } finally {
        world.dispose();
      }
    });

    test('stepBody: unknown state / input fields and bad profile ids are refused under stepBody; NaN is spelled NaN', () => {
      const { world, walker } = h.worldWithMap(lib, 'arena.map');
      try {
        const feet = [20.5, 1, 20.5];
        throwsVoxnav(pkg, () => world.stepBody({ feet, veloctiy: [1, 0, 0] }, {}, walker), 'InvalidArgument', /^stepBody: state\.veloctiy is not a body state field/);
        throwsVoxnav(pkg, () => world.stepBody({ feet }, { mvoe: [4, 0] }, walker), 'InvalidArgument', /^stepBody: input\.mvoe is not an input field/);
        throwsVoxnav(pkg, () => world.stepBody({ feet }, {}, 42), 'InvalidArgument', /^stepBody: params: profile 42 is a path handle, not a profile id/);
        throwsVoxnav(pkg, () => world.stepBody({ feet }, {}, walker, NaN), 'InvalidArgument', /^stepBody: dt NaN is not in \(0, 1\] seconds/);
        throwsVoxnav(pkg, () => world.stepBody({ feet }, {}, { width: NaN }), 'InvalidArgument', /^stepBody: params\.width NaN is not in \(0, 16\]/);
        throwsVoxnav(pkg, () => world.stepBody({ feet }, {}, { height: Infinity }), 'InvalidArgument', /params\.height Infinity/);
        // A state stepBody returned (with its report) can be passed back.
        const a = world.stepBody({ feet: [20.5, 3, 20.5] }, {}, walker);
        const b = world.stepBody(a, { move: [1, 0] }, walker);
        assert.ok(b.feet[1] < a.feet[1]);
      } finally {
        world.dispose();
      }
    });

    test('topBlocks refuses boxes past 2^26 cells; an unloaded area at the limits is quick', () => {
      const { world } = h.worldWithMap(lib, 'arena.map');
      try {
        throwsVoxnav(pkg, () => world.topBlocks([0, -2047, 0], [511, 2047, 511]), 'InvalidArgument',
          /^topBlocks: the box has 1073479680 cells \(262144 columns x 4095 high\), more than 67108864/);
        const t0 = performance.now();
        const r = world.topBlocks([-1000000, 0, 0], [-1000000 + 2047, 15, 2047]);  // 2^22 columns, 16 high, unloaded
        assert.ok(performance.now() - t0 < 1000, `topBlocks took ${performance.now() - t0} ms`);
        assert.equal(r.heights.length, 4194304);
        assert.ok(r.heights.every((v) => v === -2147483648));
        const t1 = performance.now();
        world.topBlocks([0, -2047, 0], [127, 2047, 127]);  // 2^14 columns, 4095 high, mostly unloaded
        assert.ok(performance.now() - t1 < 1000, `topBlocks took ${performance.now() - t1} ms`);
      } finally {
        world.dispose();
      }
    });
  });
}

test('node examples/web/serve.mjs --help prints the usage on stdout and exits 0', () => {
  const out = execFileSync(process.execPath, [path.join(h.repoRoot, 'examples/web/serve.mjs'), '--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.match(out, /^usage: node examples\/web\/serve\.mjs/);
  assert.match(out, /--no-isolation/);
  assert.throws(() => execFileSync(process.execPath, [path.join(h.repoRoot, 'examples/web/serve.mjs'), '--nope'], { stdio: 'pipe' }),
    (e) => e.status === 2 && /unknown argument '--nope'/.test(String(e.stderr)));
});

test('the shipped docs say Float64Array for posted waypoints', () => {
  const readme = fs.readFileSync(path.join(h.repoRoot, 'web/README.md'), 'utf8');
  assert.match(readme, /waypoints `Float64Array`/);
  assert.doesNotMatch(fs.readFileSync(path.join(h.repoRoot, 'web/worker/handlers.d.ts'), 'utf8'), /Float32Array/);
});
