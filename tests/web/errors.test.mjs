// Each rule in one place: the C++ API's limits reach JS as LIMITS (named once in its headers), and
// its errors reach JS structured: VoxnavError { status, function, argument, message } with the JS
// names derived from the C++ ones, the message written by C++; the worker maps `argument` to its
// message fields and replies { status, message, function, argument }.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;

describe('limits and structured errors', { skip }, () => {
  let pkg, lib, handlers;
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
    handlers = await h.importPackage('worker/handlers.mjs');
  });

  test('LIMITS are the C++ constants, frozen', () => {
    const L = lib.LIMITS;
    assert.ok(Object.isFrozen(L));
    assert.equal(L.maxCellXZ, 2 ** 25 - 1);
    assert.equal(L.maxCellY, 2 ** 11 - 1);
    assert.equal(L.chunkValues, 4096);
    assert.equal(L.maxBoxCells, 2 ** 24);
    assert.equal(L.maxBoxChunks, 2 ** 16);
    assert.equal(L.maxAreas, 32);
    assert.equal(L.maxAreaNameBytes, 64);
    assert.equal(L.minAreaCost, -0.6);
    assert.equal(L.maxAreaCost, 1000);
    assert.equal(L.maxAreaMultiplier, 1000);
    assert.equal(L.maxGoalRange, 64);
    assert.equal(L.maxNearestRadius, 64);
    assert.equal(L.maxChunkBuildRadius, 32);
    assert.equal(L.maxSearchesPerUpdate, 4096);
    assert.equal(L.maxTickSeconds, 1);
    assert.equal(L.searchTimesKept, 4096);
    assert.equal(L.maxColumnTopsColumns, 2 ** 22);
    assert.equal(L.noColumnTop, -2147483648);
  });

  test('World errors carry the status, the JS function and argument, and the C++ message', () => {
    const world = lib.createWorld();
    try {
      const L = lib.LIMITS;
      const error = (fn) => {
        try { fn(); } catch (e) { return e; }
        assert.fail('no error');
      };
      let e = error(() => world.setBlock([1, L.maxCellY + 1, 2], 1));
      assert.ok(e instanceof pkg.VoxnavError);
      assert.deepEqual([e.status, e.function, e.argument], ['OutOfRange', 'setBlock', 'cell']);
      assert.equal(e.message, `setBlock: cell (1, 2048, 2) is out of range: y is outside -${L.maxCellY} .. ${L.maxCellY}`);
      assert.deepEqual(e.toJSON(), { status: 'OutOfRange', message: e.message, function: 'setBlock', argument: 'cell' });
      e = error(() => world.setChunkBuildRadius(L.maxChunkBuildRadius + 1));
      assert.deepEqual([e.status, e.function, e.argument], ['InvalidArgument', 'setChunkBuildRadius', 'chunks']);
      assert.equal(e.message, 'setChunkBuildRadius: chunks 33 is not an integer number of chunks in 0 .. 32');
      e = error(() => world.setBlock([0, 0, 0], 'stone'));  // a JS-level conversion error
      assert.deepEqual([e.status, e.function, e.argument], ['InvalidArgument', 'setBlock', 'value']);
      e = error(() => world.unloadChunks(Int32Array.of(0, 0, 0)));
      assert.deepEqual([e.status, e.function, e.argument], ['NotLoaded', 'unloadChunks', 'positions']);
      assert.equal(e.message, 'unloadChunks: chunk 0 (0, 0, 0) is not loaded');
    } finally {
      world.dispose();
    }
  });

  test('every failure names the JS function called and its real argument', async () => {
    const world = lib.createWorld();
    try {
      const error = (fn) => {
        try { fn(); } catch (e) { return e; }
        assert.fail('no error');
      };
      const is = (e, status, fn, argument, re) => {
        assert.ok(e instanceof pkg.VoxnavError, String(e));
        assert.deepEqual([e.status, e.function, e.argument], [status, fn, argument], e.message);
        assert.match(e.message, re);
      };
      // topBlocks: the box rules of column_tops name their argument (not a word of the message).
      is(error(() => world.topBlocks([10, 0, 10], [5, 10, 20])), 'InvalidArgument', 'topBlocks', 'max',
        /^topBlocks: min \(10, 0, 10\) is above max \(5, 10, 20\) on some axis$/);
      is(error(() => world.topBlocks([0, 0, 0], [0, 5000, 0])), 'OutOfRange', 'topBlocks', 'max',
        /^topBlocks: max \(0, 5000, 0\) is out of range/);
      is(error(() => world.topBlocks([0, 0, 0], [4000, 4000, 4000])), 'OutOfRange', 'topBlocks', 'max', /out of range/);
      is(error(() => world.topBlocks([0, 0, 0], [3000, 100, 3000])), 'InvalidArgument', 'topBlocks', 'max',
        /^topBlocks: the area has 9006001 columns, more than 4194304$/);
      // loadChunk: the chunk argument, whether int32 holds it or not.
      const air = new Uint16Array(4096);
      is(error(() => world.loadChunk([2 ** 31, 0, 0], air)), 'OutOfRange', 'loadChunk', 'chunk',
        /^loadChunk: chunk \(2147483648, 0, 0\) is out of range$/);
      is(error(() => world.loadChunk([2 ** 22, 0, 0], air)), 'OutOfRange', 'loadChunk', 'chunk',
        /^loadChunk: chunk \(4194304, 0, 0\) is out of range: x is outside/);
      is(error(() => world.loadChunk([0, 0, 0], new Uint16Array(5))), 'InvalidArgument', 'loadChunk', 'values',
        /^loadChunk: values has 5 entries, expected 4096$/);
      is(error(() => world.unloadChunk([0, -(2 ** 31) - 1, 0])), 'OutOfRange', 'unloadChunk', 'chunk', /out of range/);
      // Calls that reach another core call still name the JS function the user called.
      is(error(() => world.setBlock([0, 0, 0], 1.5)), 'InvalidArgument', 'setBlock', 'value',
        /^setBlock: value 1\.5 is not an integer block value$/);
      is(error(() => world.setBox([0, 0, 0], [1, 1, 1], -1)), 'OutOfRange', 'setBox', 'value',
        /^setBox: value -1 is not in the block registry \(values 0 \.\. 1\)$/);
      is(error(() => world.addAgent(0, [0.5, 1, 0.5])), 'InvalidArgument', 'addAgent', 'profile',
        /^addAgent: profile 0 is not a profile id$/);
      is(error(() => world.setAgentGoal(7, [0, 0, 0])), 'InvalidArgument', 'setAgentGoal', 'agent',
        /^setAgentGoal: agent 7 is a profile id, not an agent id$/);
      is(error(() => world.teleportAgent(1.5, [0, 0, 0])), 'InvalidArgument', 'teleportAgent', 'agent',
        /^teleportAgent: agent 1\.5 is not an agent id$/);
      is(error(() => world.status(2.5)), 'InvalidArgument', 'status', 'path', /^status: path 2\.5 is not a path handle$/);
      is(error(() => world.stepBody({ feet: [0, 1, 0] }, {}, { stepHeight: -1 })), 'InvalidArgument', 'stepBody',
        'params.stepHeight', /^stepBody: params\.stepHeight -1 is not a finite number >= 0$/);
      is(error(() => world.profileBody(6)), 'InvalidArgument', 'profileBody', 'profile', /^profileBody: profile 6 is a path handle, not a profile id$/);
      // loadRegion: errors of reading the file and of loading its columns are loadRegion's, about `file`.
      const { blocks, shapes } = h.registryFiles();
      world.loadMinecraftBlocks(new Uint8Array(blocks), new Uint8Array(shapes));
      await assert.rejects(world.loadRegion(new Uint8Array(100)), (e) => {
        is(e, 'BadFormat', 'loadRegion', 'file', /^loadRegion: /);
        return true;
      });
      await assert.rejects(world.loadRegion('region'), (e) => {
        is(e, 'InvalidArgument', 'loadRegion', 'file', /^loadRegion: file must be a Uint8Array or ArrayBuffer$/);
        return true;
      });
      // A region whose one chunk holds no NBT: listed fine, refused by the column loader.
      const region = new Uint8Array(3 * 4096);
      region.set([0, 0, 2, 1], 0);                  // slot 0: sector 2, 1 sector
      region.set([0, 0, 0, 5, 3, 1, 2, 3, 4], 8192); // 5 bytes, stored uncompressed: not NBT
      await assert.rejects(world.loadRegion(region), (e) => {
        is(e, 'BadFormat', 'loadRegion', 'file', /^loadRegion: /);
        return true;
      });
    } finally {
      world.dispose();
    }
  });

  test('a box touching more than LIMITS.maxBoxChunks chunks is OutOfRange naming the box', async () => {
    const world = lib.createWorld();
    try {
      world.defineBlocks([{ name: 'air' }, { name: 'stone', boxes: [[0, 0, 0, 1, 1, 1]] }]);
      world.loadChunk([0, 0, 0], new Uint16Array(4096));
      const L = lib.LIMITS;
      // A strip of maxBoxCells cells along x: a million chunks.
      const half = L.maxBoxCells / 2;
      let e = null;
      try { world.setBox([-half, 0, 0], [half - 1, 0, 0], 1); } catch (err) { e = err; }
      assert.deepEqual([e.status, e.function, e.argument], ['OutOfRange', 'setBox', 'max']);
      assert.equal(e.message, `setBox: the box min .. max touches 1048576 x 1 x 1 chunks, more than ${L.maxBoxChunks} (kMaxBoxChunks)`);
      e = null;
      try { world.setBlocks([{ cell: [1, 1, 1], value: 1 }, { min: [0, 0, 0], max: [0, 7, 2 ** 21 - 1], value: 1 }]); } catch (err) { e = err; }
      assert.deepEqual([e.status, e.function], ['OutOfRange', 'setBlocks']);
      assert.match(e.message, /edits\[1\]\.min \.\. edits\[1\]\.max touches 1 x 1 x 131072 chunks, more than 65536/);
      assert.equal(world.getBlock([1, 1, 1]), 0);
      // A hole in the list is an entry like any other (not skipped, not read as cell 0, 0, 0).
      e = null;
      try { world.setBlocks([, { cell: [1, 1, 1], value: 1 }]); } catch (err) { e = err; }  // eslint-disable-line no-sparse-arrays
      assert.deepEqual([e.status, e.function, e.argument], ['InvalidArgument', 'setBlocks', 'edits[0]']);
      assert.equal(world.getBlock([1, 1, 1]), 0);
      // The worker names the edit.
      const state = handlers.createState();
      const s = h.workerSession(handlers, state);
      await s.ok({ type: 'init', build: 'sync' });
      e = await s.err({ type: 'edit', min: [-half, 0, 0], max: [half - 1, 0, 0], value: 1 }, 'OutOfRange', /touches 1048576 x 1 x 1 chunks/);
      assert.equal(e.function, 'edit');
    } finally {
      world.dispose();
    }
  });

  test('worker replies name the message type and the field', async () => {
    const state = handlers.createState();
    const s = h.workerSession(handlers, state);
    await s.ok({ type: 'init', build: 'sync' });
    const L = state.lib.LIMITS;
    let e = await s.err({ type: 'settings', chunkBuildRadius: L.maxChunkBuildRadius + 1 }, 'InvalidArgument', /^settings: /);
    assert.deepEqual([e.function, e.argument], ['settings', '']);
    e = await s.err({ type: 'edits', edits: [] }, 'InvalidArgument', /unknown message type/);
    e = await s.err({ type: 'edit', edits: [{ cell: [0, L.maxCellY + 1, 0], value: 1 }] },
      'OutOfRange', /^edit: edits\[0\]\.cell \(0, 2048, 0\) is out of range/);
    assert.deepEqual([e.function, e.argument], ['edit', 'edits[0].cell']);
    e = await s.err({ type: 'addProfile', profile: { id: 'walker', class: 'flyer' } }, 'InvalidArgument',
      /^addProfile: profile "walker": field "can_fly": the flyer class requires can_fly: true/);
    assert.deepEqual([e.function, e.argument], ['addProfile', 'profile']);
    e = await s.err({ type: 'findArea', name: 'road' }, 'NotFound', /^findArea: /);
    assert.equal(e.function, 'findArea');
    // The agent batches and setDoorOpen: the C++ World checks them and names the entry and field.
    await s.ok({ type: 'addProfile', profile: { id: 'walker' } });
    e = await s.err({ type: 'addAgents', agents: [{ profile: 'walker', feet: [0.5, 1, 0.5] }, { profile: 'walker', feet: [0.5, 1e9, 0.5] }] },
      'OutOfRange', /^addAgents: agents\[1\]\.feet \(0\.5, 1000000000, 0\.5\) is out of range/);
    assert.deepEqual([e.function, e.argument], ['addAgents', 'agents[1].feet']);
    // A NaN in a given goal is refused by name (it was once read as "no goal" and dropped).
    e = await s.err({ type: 'addAgents', agents: [{ profile: 'walker', feet: [0.5, 1, 0.5], goal: [NaN, 1, 1] }] },
      'InvalidArgument', /^addAgents: agents\[0\]\.goal /);
    assert.deepEqual([e.function, e.argument], ['addAgents', 'agents[0].goal']);
    const { ids } = await s.ok({ type: 'addAgents', agents: [{ profile: 'walker', feet: [0.5, 1, 0.5] }, { profile: 'walker', feet: [2.5, 1, 0.5] }] });
    assert.equal(ids.length, 2);
    e = await s.err({ type: 'setGoals', goals: [{ agent: ids[1], goal: [4, 1, 4] }, { agent: ids[1], goal: [5, 1, 5] }] },
      'InvalidArgument', /^setGoals: goals\[1\]\.agent \(\d+\) repeats goals\[0\]\.agent/);
    assert.deepEqual([e.function, e.argument], ['setGoals', 'goals[1].agent']);
    e = await s.err({ type: 'teleportAgents', agents: [{ agent: ids[0], feet: [1, Infinity, 1] }] },
      'InvalidArgument', /^teleportAgents: agents\[0\]\.feet \(1, Infinity, 1\) is not finite$/);
    assert.deepEqual([e.function, e.argument], ['teleportAgents', 'agents[0].feet']);
    e = await s.err({ type: 'setDoorOpen', cell: [100, 1, 4], open: true }, 'NotLoaded',
      /^setDoorOpen: cell \(100, 1, 4\) is in chunk \(6, 0, 0\), which is not loaded$/);
    assert.deepEqual([e.function, e.argument], ['setDoorOpen', 'cell']);
    await s.ok({ type: 'dispose' });
  });
});
