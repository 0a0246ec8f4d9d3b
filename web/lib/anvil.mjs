// voxnav - Minecraft Anvil region files (.mca) in JS: the host's part of loading one. The C++
// library parses the region container (voxnav/io.h list_region_chunks: the sector table and each
// chunk's header) and decodes the NBT (World.loadAnvilColumns); here the chunks are inflated with
// the JS environment's DecompressionStream (the core links no zlib) and the bytes passed on.
import { VoxnavError, STATUS_NAMES } from './errors.mjs';
import { instantiate } from './loader.mjs';

let ownModule = null;  // a library instance for readRegion called without one (loaded once)

// Inflates `bytes` with the environment's DecompressionStream, reading at most `budget.left`
// bytes (the region's chunks share one budget, as the native loader's max_inflated_bytes does):
// a zlib bomb is cancelled as soon as it passes the limit instead of filling memory.
async function inflate(bytes, kind, budget) {
  if (typeof DecompressionStream !== 'function') {
    throw new VoxnavError('Unsupported', `${budget.fn}: this JS environment has no DecompressionStream`, budget.fn, 'file');
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(kind)).getReader();
  const parts = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > budget.left) {
      await reader.cancel();
      throw new VoxnavError('OutOfRange', `${budget.fn}: the chunks inflate to more than ${budget.limit} bytes ` +
        '(LIMITS.maxInflatedBytes, the budget of one load)', budget.fn, 'file');
    }
    parts.push(value);
  }
  budget.left -= total;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/**
 * Splits a region file into the uncompressed NBT of its chunk columns, in slot order (the order the
 * native loader uses). Resolves to { columns: Uint8Array[], slots: number[], skippedChunks, skipReason }.
 * `module` is the wasm module that parses the container (a library's `module`; default: one of
 * its own, loaded on first use).
 */
export function readRegion(file, module = null) {
  return readRegionFor('readRegion', file, module);
}

/** readRegion for the JS function `fn` (World.loadRegion): its errors name `fn` and `file`. */
export async function readRegionFor(fn, file, module) {
  if (file instanceof ArrayBuffer) file = new Uint8Array(file);
  if (!(file instanceof Uint8Array)) throw new VoxnavError('InvalidArgument', `${fn}: file must be a Uint8Array or ArrayBuffer`, fn, 'file');
  if (!module) module = await (ownModule ??= instantiate({ build: 'sync' }).then((r) => r.module));
  // [status, message, numbers (index, compression, offset, size, skipped per chunk), reasons...]
  const [status, message, v, ...reasons] = module.listRegionChunks(file);
  if (status !== 0) throw new VoxnavError(STATUS_NAMES[status] ?? 'Unknown', `${fn}: ${message}`, fn, 'file');
  const limit = module.limits().maxInflatedBytes;
  const budget = { limit, left: limit, fn };
  const columns = [];
  const slots = [];
  let skipped = 0;
  let skipReason = '';
  for (let i = 0; i < reasons.length; ++i) {
    const c = { index: v[5 * i], compression: v[5 * i + 1], offset: v[5 * i + 2], size: v[5 * i + 3] };
    if (v[5 * i + 4] === 1) {
      if (skipped++ === 0) skipReason = reasons[i];
      continue;
    }
    const body = file.subarray(c.offset, c.offset + c.size);
    let nbt = body.slice();  // compression 3: stored as is
    if (c.compression === 1 || c.compression === 2) {
      const kind = c.compression === 1 ? 'gzip' : 'deflate';
      try {
        nbt = await inflate(body, kind, budget);
      } catch (err) {
        if (err instanceof VoxnavError) throw err;
        throw new VoxnavError('BadFormat', `${fn}: chunk slot ${c.index}: ${c.compression === 1 ? 'gzip' : 'zlib'} data does not inflate (${err.message})`,
          fn, 'file');
      }
    }
    columns.push(nbt);
    slots.push(c.index);
  }
  return { columns, slots, skippedChunks: skipped, skipReason };
}
