// voxnav - Minecraft Anvil region files (.mca) in JS: the host's part of loading one. The C++
// library parses the region container (voxnav/io.h list_region_chunks: the sector table and each
// chunk's header) and decodes the NBT (World.loadAnvilColumns); here the chunks are inflated with
// the JS environment's DecompressionStream (the core links no zlib) and the bytes passed on.
import { VoxnavError, STATUS_NAMES } from './errors.mjs';
import { instantiate } from './loader.mjs';

let ownModule = null;  // a library instance for readRegion called without one (loaded once)

async function inflate(bytes, kind) {
  if (typeof DecompressionStream !== 'function') {
    throw new VoxnavError('Unsupported', 'readRegion: this JS environment has no DecompressionStream');
  }
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(kind));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Splits a region file into the uncompressed NBT of its chunk columns, in slot order (the order the
 * native loader uses). Resolves to { columns: Uint8Array[], slots: number[], skippedChunks, skipReason }.
 * `module` is the wasm module that parses the container (a library's `module`; default: one of
 * its own, loaded on first use).
 */
export async function readRegion(file, module = null) {
  if (file instanceof ArrayBuffer) file = new Uint8Array(file);
  if (!(file instanceof Uint8Array)) throw new VoxnavError('InvalidArgument', 'readRegion: file must be a Uint8Array or ArrayBuffer');
  if (!module) module = await (ownModule ??= instantiate({ build: 'sync' }).then((r) => r.module));
  const listed = module.listRegionChunks(file);
  if (listed.status !== 0) {
    throw new VoxnavError(STATUS_NAMES[listed.status] ?? 'Unknown', `readRegion: ${listed.message}`, 'readRegion', 'file');
  }
  const columns = [];
  const slots = [];
  let skipped = 0;
  let skipReason = '';
  for (const c of listed.chunks) {
    if (c.skipped) {
      if (skipped++ === 0) skipReason = c.reason;
      continue;
    }
    const body = file.subarray(c.offset, c.offset + c.size);
    let nbt = body.slice();  // compression 3: stored as is
    if (c.compression === 1 || c.compression === 2) {
      const kind = c.compression === 1 ? 'gzip' : 'deflate';
      try {
        nbt = await inflate(body, kind);
      } catch (err) {
        if (err instanceof VoxnavError) throw err;
        throw new VoxnavError('BadFormat', `readRegion: chunk slot ${c.index}: ${c.compression === 1 ? 'gzip' : 'zlib'} data does not inflate (${err.message})`,
          'readRegion', 'file');
      }
    }
    columns.push(nbt);
    slots.push(c.index);
  }
  return { columns, slots, skippedChunks: skipped, skipReason };
}
