// voxnav - Minecraft Anvil region files (.mca) in JS: the sector table and decompression. The NBT of
// each chunk column is decoded by the engine (World.loadAnvilColumns), like the native loaders do.
//
// A region is a 4 KiB table of 1024 chunk locations (3-byte sector offset, 1-byte sector count), a
// 4 KiB timestamp table, then 4 KiB sectors. A chunk starts with its length (4 bytes, big endian,
// counting the compression byte) and a compression type: 1 gzip, 2 zlib, 3 none (4 = LZ4 and the
// +128 "external .mcc" flag are skipped and counted).
import { VoxnavError } from './errors.mjs';

const SECTOR = 4096;

function bad(message) {
  return new VoxnavError('BadFormat', `readRegion: ${message}`);
}

function slotName(i) {
  return `chunk slot ${i} (local ${i % 32}, ${Math.floor(i / 32)})`;
}

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
 */
export async function readRegion(file) {
  if (file instanceof ArrayBuffer) file = new Uint8Array(file);
  if (!(file instanceof Uint8Array)) throw new VoxnavError('InvalidArgument', 'readRegion: file must be a Uint8Array or ArrayBuffer');
  if (file.length < 2 * SECTOR) throw bad(`the file has ${file.length} bytes, less than the 8192-byte header`);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const sectorsInFile = Math.ceil(file.length / SECTOR);
  const entries = [];
  for (let i = 0; i < 1024; ++i) {
    const loc = view.getUint32(4 * i);
    const sector = loc >>> 8, count = loc & 0xff;
    if (sector === 0 && count === 0) continue;
    if (sector < 2 || sector + count > sectorsInFile) {
      throw bad(`${slotName(i)}: sectors ${sector} + ${count} lie outside the file (${sectorsInFile} sectors)`);
    }
    entries.push({ index: i, sector, count });
  }
  const columns = [];
  const slots = [];
  let skipped = 0;
  let skipReason = '';
  for (const e of entries) {
    const start = e.sector * SECTOR;
    if (start + 5 > file.length) throw bad(`${slotName(e.index)}: the chunk header lies past the end of the file`);
    const length = view.getUint32(start);
    const type = file[start + 4];
    if (length < 1 || start + 4 + length > file.length || length > e.count * SECTOR) {
      throw bad(`${slotName(e.index)}: length ${length} runs past its ${e.count} sectors or the file`);
    }
    const body = file.subarray(start + 5, start + 4 + length);
    let nbt;
    if (type === 1 || type === 2) {
      try {
        nbt = await inflate(body, type === 1 ? 'gzip' : 'deflate');
      } catch (err) {
        throw bad(`${slotName(e.index)}: ${type === 1 ? 'gzip' : 'zlib'} data does not inflate (${err.message})`);
      }
    } else if (type === 3) {
      nbt = body.slice();
    } else if (type === 4 || type >= 128) {
      if (skipped++ === 0) skipReason = `${slotName(e.index)}: ${type >= 128 ? 'external .mcc chunk' : 'LZ4 compression'} is not supported`;
      continue;
    } else {
      throw bad(`${slotName(e.index)}: unknown compression type ${type}`);
    }
    columns.push(nbt);
    slots.push(e.index);
  }
  return { columns, slots, skippedChunks: skipped, skipReason };
}
