// Issue 16's review, through the npm package: setBlocks refuses an entry that has both `cell`
// and `min`/`max` (it silently used `cell`), and a hole of a sparse batch like null (it was
// skipped); loadChunks refuses a chunk given twice, naming both entries, and loads nothing;
// loadMinecraftBlocks refuses a box the registry rule refuses (it clamped a top of 100 to 1.5).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;

describe('entry shapes of batches', { skip }, () => {
  let pkg, lib;
  const worlds = [];
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
  });
  after(() => worlds.forEach((w) => w.dispose()));
  const make = () => {
    const w = lib.createWorld();
    worlds.push(w);
    return w;
  };

  function world() {
    const w = make();
    const floor = new Uint16Array(4096);
    floor.fill(1, 0, 256);
    w.loadChunk([0, 0, 0], floor);
    return w;
  }
  function refused(fn, status, message) {
    assert.throws(fn, (e) => {
      assert.ok(e instanceof pkg.VoxnavError, `not a VoxnavError: ${e && e.stack}`);
      assert.equal(e.status, status, e.message);
      assert.equal(e.message, message);
      return true;
    });
  }

  test('setBlocks: cell with min or max is refused, and nothing changes', () => {
    const w = world();
    refused(() => w.setBlocks([{ cell: [1, 5, 1], value: 1 }, { cell: [2, 5, 2], min: [0, 5, 0], max: [3, 5, 3], value: 1 }]),
      'InvalidArgument', 'setBlocks: edits[1] has cell and min: give { cell, value } or { min, max, value }, not both');
    refused(() => w.setBlocks([{ cell: [2, 5, 2], max: [3, 5, 3], value: 1 }]),
      'InvalidArgument', 'setBlocks: edits[0] has cell and max: give { cell, value } or { min, max, value }, not both');
    assert.equal(w.getBlock([1, 5, 1]), 0);
    assert.equal(w.getBlock([2, 5, 2]), 0);
  });

  test('setBlocks: a hole in a sparse batch is refused like null', () => {
    const w = world();
    const sparse = [{ cell: [1, 5, 1], value: 1 }];
    sparse[2] = { cell: [2, 5, 2], value: 1 };  // sparse[1] is a hole
    refused(() => w.setBlocks(sparse), 'InvalidArgument',
      'setBlocks: edits[1] must be { cell, value } or { min, max, value } (got an empty slot)');
    refused(() => w.setBlocks([{ cell: [1, 5, 1], value: 1 }, null]), 'InvalidArgument',
      'setBlocks: edits[1] must be { cell, value } or { min, max, value } (got null)');
    assert.equal(w.getBlock([1, 5, 1]), 0);
    assert.equal(w.getBlock([2, 5, 2]), 0);
  });

  test('loadChunks: a chunk given twice is refused naming both entries; nothing loads', () => {
    const w = make();
    const values = new Uint16Array(3 * 4096);
    refused(() => w.loadChunks(new Int32Array([3, 0, 3, 4, 0, 4, 3, 0, 3]), values), 'InvalidArgument',
      'loadChunks: positions: chunk 2 (3, 0, 3) repeats chunk 0 (each chunk may be given once)');
    assert.throws(() => w.getBlock([48, 0, 48]), (e) => e.status === 'NotLoaded');
    assert.throws(() => w.getBlock([64, 0, 64]), (e) => e.status === 'NotLoaded');
  });

  test('loadMinecraftBlocks: a box top of 100 is refused by the registry rule, naming the block', () => {
    const w = make();
    const blocks = JSON.stringify([
      { name: 'air', minStateId: 0, maxStateId: 0, defaultState: 0, boundingBox: 'empty' },
      { name: 'stone', minStateId: 1, maxStateId: 1, defaultState: 1, boundingBox: 'block' }]);
    const shapes = JSON.stringify({ blocks: { air: 0, stone: 1 }, shapes: { 0: [], 1: [[0, 0, 0, 1, 100, 1]] } });
    assert.throws(() => w.loadMinecraftBlocks(blocks, shapes), (e) => e.status === 'BadFormat' &&
      /'stone' \(state 1\) uses shape 1, whose boxes\[0\]: y runs 0\.000000\.\.100\.000000, outside 0\.\.1\.5 or min above max/.test(e.message));
    assert.equal(w.blockCount, 2);
  });
});
