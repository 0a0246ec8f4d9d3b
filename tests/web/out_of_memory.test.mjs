// wasm out-of-memory (issues 16 and 17): the heap ends at 2 GiB (LIMITS.maxHeapBytes). The large
// calls (loads, registries, edits, the bindings' copies of their arguments) ask the heap for
// what they will need before allocating (docs/memory.md), so in the shipped build, without wasm
// exceptions, a call that would run out of heap is a VoxnavError('OutOfMemory') naming the call
// with the World unchanged, and the module and every other World stay usable: disposing Worlds
// lets the same load succeed. Worlds dropped without dispose() end in such an error once the
// heap is full (finalizers do not run inside a synchronous loop, and never free wasm memory on
// time), never in Aborted(); with dispose() the heap stays flat. Each test exhausts its own
// library instance (load()).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const TWO_GIB = 2 ** 31;

// Two values: 0 (air) and 1 (stone). A chunk of alternating values is never stored as uniform.
function smallWorld(lib) {
  const w = lib.createWorld();
  w.defineBlocks([{ name: 'air' }, { name: 'stone', boxes: [[0, 0, 0, 1, 1, 1]] }]);
  return w;
}
function chunkBatch(count, at = 0) {
  const positions = new Int32Array(3 * count);
  for (let i = 0; i < count; ++i) positions.set([(at + i) % 1024, 0, 100 + Math.floor((at + i) / 1024)], 3 * i);
  const values = new Uint16Array(4096 * count);
  for (let i = 1; i < values.length; i += 2) values[i] = 1;
  return { positions, values };
}
const heapBytes = (lib) => lib.module.HEAPU8.length;

function assertOutOfMemory(e, fn) {
  assert.ok(e instanceof Error, `not an Error: ${e}`);
  assert.equal(e.name, 'VoxnavError', `${e.name}: ${e.message}`);
  assert.equal(e.status, 'OutOfMemory', e.message);
  assert.equal(e.function, fn, e.message);
  assert.ok(e.message.startsWith(`${fn}: `), e.message);
  assert.doesNotMatch(e.message, /Aborted/);
}

describe('wasm out of memory is a VoxnavError', { skip }, () => {
  let pkg;
  before(async () => {
    pkg = await h.importPackage();
  });

  test('the heap ceiling is stated: LIMITS.maxHeapBytes is 2 GiB', async () => {
    const lib = await pkg.load({ build: 'sync' });
    assert.equal(lib.LIMITS.maxHeapBytes, TWO_GIB);
  });

  test('a load larger than the heap: OutOfMemory naming the call, the world unchanged and usable', { timeout: 60000 }, async () => {
    const lib = await pkg.load({ build: 'sync' });
    const w = smallWorld(lib);
    w.loadChunk([0, 0, 0], new Uint16Array(4096).fill(1));
    w.loadChunk([1, 0, 0], new Uint16Array(4096));
    w.setBox([0, 5, 0], [3, 5, 3], 0);
    const profile = w.addProfile({ id: 'walker', class: 'walker' });
    const agent = w.addAgent(profile, [20.5, 16, 0.5]);
    w.setAgentGoal(agent, [2, 16, 2]);
    for (let i = 0; i < 3; ++i) w.tick();
    const reads = () => [w.getBlock([0, 5, 0]), w.getBlock([4, 5, 4]), w.getBlock([17, 3, 3]), w.getBlock([3, 15, 3])];
    const before = { hash: w.stateHash(), reads: reads(), agent: w.agentState(agent).feet };
    assert.deepEqual(before.reads, [0, 1, 0, 1]);

    // 1. The copy of the arguments does not fit (300,000 chunks: 2.4 GB of values).
    const n = 300000;
    const positions = new Int32Array(3 * n);
    for (let i = 0; i < n; ++i) positions.set([i % 1024, 10 + Math.floor(i / 1024) % 64, Math.floor(i / 65536)], 3 * i);
    let err = null;
    try {
      w.loadChunks(positions, new Uint16Array(4096 * n));
    } catch (e) {
      err = e;
    }
    assertOutOfMemory(err, 'loadChunks');
    assert.match(err.message, /nothing changed/);

    // 2. Anvil columns larger than the heap are refused before anything is copied.
    err = null;
    try {
      w.loadAnvilColumns([new Uint8Array(2 ** 30), new Uint8Array(2 ** 30 + 16)]);
    } catch (e) {
      err = e;
    }
    assertOutOfMemory(err, 'loadAnvilColumns');

    // The world is as it was, and works.
    assert.equal(w.stateHash(), before.hash);
    assert.deepEqual(reads(), before.reads);
    assert.deepEqual(w.agentState(agent).feet, before.agent);
    assert.throws(() => w.getBlock([0, 160, 0]), (e) => e.status === 'NotLoaded');
    w.loadChunk([2, 0, 0], new Uint16Array(4096).fill(1));
    assert.equal(w.getBlock([33, 0, 0]), 1);
    w.tick();
    w.dispose();
    assert.equal(w.disposed, true);
  });

  test('200 worlds dropped without dispose() end in VoxnavError OutOfMemory, never Aborted(); the others stay usable', { timeout: 60000 }, async () => {
    const lib = await pkg.load({ build: 'sync' });
    // A world made first, with an agent walking: it must come through unchanged.
    const witness = smallWorld(lib);
    witness.loadChunk([0, 0, 0], new Uint16Array(4096).fill(1));
    const profile = witness.addProfile({ id: 'walker', class: 'walker' });
    const agent = witness.addAgent(profile, [2.5, 16, 2.5]);
    witness.setAgentGoal(agent, [12, 16, 12]);
    witness.tick();
    const before = { hash: witness.stateHash(), block: witness.getBlock([3, 3, 3]) };

    const batch = chunkBatch(2048);  // 16 MiB of blocks a world (the World's storage and its copy)
    let err = null, made = 0, failed = null;
    for (let i = 0; i < 200 && !err; ++i) {
      let w = null;
      try {
        w = smallWorld(lib);
        w.loadChunks(batch.positions, batch.values);
        w.setBox([0, 0, 1600], [15, 15, 1615], 0);  // one more edit on the loaded blocks
        ++made;
      } catch (e) {
        err = e;
        failed = w;
      }
    }
    assert.ok(err, `${made} worlds of 16 MiB fit in a 2 GiB heap`);
    assert.equal(err.name, 'VoxnavError', `${err.name}: ${err.message}`);
    assert.equal(err.status, 'OutOfMemory', err.message);
    assert.ok(['World', 'defineBlocks', 'loadChunks', 'setBox'].includes(err.function), err.message);
    assert.doesNotMatch(err.message, /Aborted/);
    assert.ok(made > 60, `${made} worlds before the heap was full`);
    if (failed && err.function === 'loadChunks') {
      // The world whose load failed holds none of the batch, and can be disposed.
      assert.throws(() => failed.getBlock([0, 0, 1600]), (e) => e.status === 'NotLoaded');
    }
    failed?.dispose();
    // The witness is as it was and still works; so does a new small world.
    assert.equal(witness.stateHash(), before.hash);
    assert.equal(witness.getBlock([3, 3, 3]), before.block);
    witness.tick();
    witness.dispose();
    const w = smallWorld(lib);
    w.loadChunk([0, 0, 0], new Uint16Array(4096).fill(1));
    assert.equal(w.getBlock([1, 1, 1]), 1);
    w.dispose();
  });

  test('worlds holding a region each fill the heap: the load that does not fit is refused with the World unchanged; after dispose() the same module loads it', { timeout: 900000 }, async () => {
    const lib = await pkg.load({ build: 'sync' });
    const { blocks, shapes } = h.registryFiles();
    const file = fs.readFileSync(path.join(h.sharedData, 'minecraft/regions/1.18.2/r.0.0.mca'));
    // A World's loads, in order: the registry (and the walker's profile), then the region.
    const loadRegistry = (w) => {
      w.loadMinecraftBlocks(blocks, shapes);
      w.addProfile({ id: 'walker', class: 'walker' });
    };
    // A world of 4,096 chunks of air (stored uniform: no arrays yet), made while there is room.
    const edits = smallWorld(lib);
    for (let at = 0; at < 4096; at += 1024) {
      const pos = new Int32Array(3 * 1024);
      for (let i = 0; i < 1024; ++i) pos.set([(at + i) % 64, 0, Math.floor((at + i) / 64)], 3 * i);
      edits.loadChunks(pos, new Uint16Array(4096 * 1024));
    }
    // stateHash hashes agents only; these Worlds have none, so the fingerprint adds what the
    // World holds: its registry size, standable cells and islands.
    const print = (w) => {
      const s = w.stats();
      return JSON.stringify([w.stateHash(), w.blockCount, s.standableCells, s.islands, s.agents]);
    };
    const editsHash = print(edits);

    const worlds = [];
    let err = null, failed = null, failedHash = null, reference = null, cell = null;
    for (let i = 0; i < 400 && !err; ++i) {
      let w = null;
      try {
        w = lib.createWorld();
        failedHash = print(w);
        loadRegistry(w);
        failedHash = print(w);
        const report = await w.loadRegion(file);
        w.tick(0.05);  // the navigation of the region: what its load's estimate counted
        worlds.push(w);
        if (!reference) {
          cell = [report.min[0] + 8, 64, report.min[2] + 8];
          reference = { hash: print(w), block: w.getBlock(cell), chunks: report.chunks };
        }
      } catch (e) {
        err = e;
        failed = w;
      }
    }
    assert.ok(err, `${worlds.length} worlds holding a region fit in a 2 GiB heap`);
    assert.equal(err.name, 'VoxnavError', `${err.name}: ${err.message}`);
    assert.equal(err.status, 'OutOfMemory', err.message);
    assert.doesNotMatch(err.message, /Aborted|stopped/);
    assert.ok(worlds.length >= 10, `${worlds.length} worlds before the heap was full`);
    // A load was refused up front: that World is as it was (its hash before the load) and usable.
    assert.ok(failed, err.message);
    assert.ok(['loadMinecraftBlocks', 'loadRegion'].includes(err.function), err.message);
    assert.match(err.message, new RegExp(`^${err.function}: out of memory: .* needs up to \\d+ MiB.*nothing changed`));
    assert.equal(print(failed), failedHash);
    assert.throws(() => failed.getBlock(cell), (e) => e.status === 'NotLoaded');
    // The other worlds still work, unchanged.
    assert.equal(print(worlds[0]), reference.hash);
    assert.equal(worlds.at(-1).getBlock(cell), reference.block);
    worlds[0].tick(0.05);
    // An edit giving 4,096 uniform chunks their arrays and navigation does not fit either.
    assert.throws(() => edits.setBox([0, 0, 0], [1023, 15, 1023], 1), (e) => {
      assertOutOfMemory(e, 'setBox');
      return /the edits of 4096 chunks need|the edits of 4096 chunks/.test(e.message) && /nothing changed/.test(e.message);
    });
    assert.equal(print(edits), editsHash);
    assert.equal(edits.getBlock([1023, 15, 1023]), 0);

    // Dispose the others: the same module loads the region into the World that was refused, to
    // the same state as the first World had.
    for (const w of worlds) w.dispose();
    if (err.function === 'loadMinecraftBlocks') loadRegistry(failed);
    const report = await failed.loadRegion(file);
    assert.equal(report.chunks, reference.chunks);
    failed.tick(0.05);
    assert.equal(print(failed), reference.hash);
    assert.equal(failed.getBlock(cell), reference.block);
    failed.dispose();
    edits.setBox([0, 0, 0], [1023, 15, 1023], 1);
    assert.equal(edits.getBlock([1023, 15, 1023]), 1);
    edits.dispose();
  });

  test('with dispose() the heap stays flat over 120 worlds', { timeout: 60000 }, async () => {
    const lib = await pkg.load({ build: 'sync' });
    const batch = chunkBatch(64);
    const profile = { id: 'walker', class: 'walker' };
    let after20 = 0;
    for (let i = 0; i < 120; ++i) {
      const w = smallWorld(lib);
      w.loadChunks(batch.positions, batch.values);
      const p = w.addProfile(profile);
      w.addAgent(p, [0.5, 101 * 16 + 1, 0.5]);
      w.tick();
      w.dispose();
      if (i === 19) after20 = heapBytes(lib);
    }
    assert.equal(heapBytes(lib), after20);
    assert.ok(after20 < 256 * 2 ** 20, `heap ${after20}`);
  });
});

describe('whatever escapes a module call becomes a VoxnavError naming the World method', () => {
  // A stand-in module whose calls throw what a wasm module can throw: the JS side alone decides.
  function fakeLibrary(throwWhat) {
    class WorldCore {
      constructor() { this.deleted = false; }
      tick() { throw throwWhat(); }
      getBlock() { return 7; }
      lastError() { return { status: 0, function: '', argument: '', message: '' }; }
      delete() { this.deleted = true; }
    }
    return { build: 'sync', module: { WorldCore }, LIMITS: {} };
  }

  test('a module abort (RuntimeError) marks the module dead; every World of it only disposes', async () => {
    const { World } = await h.importPackage();
    const lib = fakeLibrary(() => new WebAssembly.RuntimeError('Aborted(OOM). Build with -s ASSERTIONS=1 for more info.'));
    const a = new World({ voxnav: lib }), b = new World({ voxnav: lib });
    assert.equal(a.getBlock([0, 0, 0]), 7);
    assert.throws(() => a.tick(), (e) => e.name === 'VoxnavError' && e.status === 'OutOfMemory' &&
      e.function === 'tick' && /^tick: the wasm module stopped \(abort: OOM\)/.test(e.message) && !/Aborted/.test(e.message));
    assert.throws(() => b.getBlock([0, 0, 0]), (e) => e.status === 'OutOfMemory' && e.function === 'getBlock');
    assert.throws(() => new World({ voxnav: lib }), (e) => e.status === 'OutOfMemory' && e.function === 'World');
    a.dispose();
    b.dispose();
    assert.equal(a.disposed && b.disposed, true);
  });

  test('a bare number (a C++ exception without a catch) and an out-of-memory report', async () => {
    const { World } = await h.importPackage();
    const n = new World({ voxnav: fakeLibrary(() => 1234567) });
    assert.throws(() => n.tick(), (e) => e.name === 'VoxnavError' && e.status === 'OutOfMemory' && /1234567/.test(e.message));
    n.dispose();
    const report = { voxnavOutOfMemory: true, function: 'tick', worldUnchanged: false };
    const w = new World({ voxnav: fakeLibrary(() => report) });
    assert.throws(() => w.tick(), (e) => e.status === 'OutOfMemory' && e.function === 'tick' && /half-changed/.test(e.message));
    assert.throws(() => w.getBlock([0, 0, 0]), (e) => e.status === 'OutOfMemory' && e.function === 'getBlock');
    w.dispose();
    const u = new World({ voxnav: fakeLibrary(() => ({ ...report, worldUnchanged: true })) });
    assert.throws(() => u.tick(), (e) => e.status === 'OutOfMemory' && /nothing changed/.test(e.message));
    assert.equal(u.getBlock([0, 0, 0]), 7);  // still usable
    u.dispose();
  });
});
