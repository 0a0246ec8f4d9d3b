// The raw chunk dump shared by the benchmarks: how a region reaches the wasm builds, which have no
// zlib to read .mca files. Natively a benchmark loads the region and writes the dump; under node
// the wasm build of the same benchmark reads it.
//
//   "VXCHUNK1"  8 bytes magic
//   u32 version (1), u32 registry size (block values), u32 chunk count, u32 source name length,
//   source name bytes,
//   per chunk: i32 x, i32 y, i32 z, u8 uniform; uniform: u16 value; else 4096 u16 values
//   (index x + 16 * (z + 16 * y)).
// Little-endian (x86-64 and wasm both are).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/world/space.h"

namespace voxnav::bench {

inline bool read_file(const std::string& path, std::vector<std::uint8_t>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

inline constexpr char kDumpMagic[8] = {'V', 'X', 'C', 'H', 'U', 'N', 'K', '1'};

template <class T>
void dump_put(std::vector<std::uint8_t>& b, T v) {
  const std::size_t at = b.size();
  b.resize(at + sizeof(T));
  std::memcpy(b.data() + at, &v, sizeof(T));
}

template <class T>
bool dump_get(const std::vector<std::uint8_t>& b, std::size_t& at, T& v) {
  if (at + sizeof(T) > b.size()) return false;
  std::memcpy(&v, b.data() + at, sizeof(T));
  at += sizeof(T);
  return true;
}

/// Writes every loaded chunk of `space`; false when the file cannot be written.
inline bool write_chunk_dump(const detail::Space& space, const std::string& source, const std::string& path) {
  std::vector<std::uint8_t> b(kDumpMagic, kDumpMagic + 8);
  const std::vector<ChunkPos> chunks = space.loaded_chunks();
  dump_put<std::uint32_t>(b, 1);
  dump_put<std::uint32_t>(b, static_cast<std::uint32_t>(space.registry().size()));
  dump_put<std::uint32_t>(b, static_cast<std::uint32_t>(chunks.size()));
  dump_put<std::uint32_t>(b, static_cast<std::uint32_t>(source.size()));
  b.insert(b.end(), source.begin(), source.end());
  for (const ChunkPos& p : chunks) {
    const detail::Chunk* c = space.chunk(p);
    dump_put<std::int32_t>(b, p.x);
    dump_put<std::int32_t>(b, p.y);
    dump_put<std::int32_t>(b, p.z);
    dump_put<std::uint8_t>(b, c->uniform ? 1 : 0);
    if (c->uniform) {
      dump_put<std::uint16_t>(b, c->uniform_value);
    } else {
      const std::size_t at = b.size();
      b.resize(at + detail::kChunkCells * sizeof(std::uint16_t));
      std::memcpy(b.data() + at, c->values.get(), detail::kChunkCells * sizeof(std::uint16_t));
    }
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return static_cast<bool>(f);
}

/// Loads a dump into `space` (whose registry must have the size the dump was written with).
/// Returns false with `error` set on a missing, malformed or mismatched file.
inline bool read_chunk_dump(const std::string& path, detail::Space& space, std::string& source,
                            std::size_t& chunks_loaded, std::size_t& uniform_chunks, std::string& error) {
  std::vector<std::uint8_t> b;
  if (!read_file(path, b)) return error = "cannot read the chunk dump " + path, false;
  std::size_t at = 8;
  std::uint32_t version = 0, reg = 0, count = 0, name_len = 0;
  if (b.size() < 8 || std::memcmp(b.data(), kDumpMagic, 8) != 0 || !dump_get(b, at, version) || version != 1 ||
      !dump_get(b, at, reg) || !dump_get(b, at, count) || !dump_get(b, at, name_len) || at + name_len > b.size())
    return error = path + " is not a chunk dump (version 1)", false;
  if (reg != space.registry().size())
    return error = path + " was written with a registry of " + std::to_string(reg) + " values, this one has " +
                   std::to_string(space.registry().size()),
           false;
  source.assign(reinterpret_cast<const char*>(b.data() + at), name_len);
  at += name_len;
  std::vector<std::uint16_t> values(detail::kChunkCells);
  chunks_loaded = uniform_chunks = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    ChunkPos p;
    std::uint8_t uniform = 0;
    if (!dump_get(b, at, p.x) || !dump_get(b, at, p.y) || !dump_get(b, at, p.z) || !dump_get(b, at, uniform))
      return error = path + ": truncated", false;
    Status s;
    if (uniform) {
      std::uint16_t v = 0;
      if (!dump_get(b, at, v)) return error = path + ": truncated", false;
      s = space.load_uniform_chunk(p, v);
      ++uniform_chunks;
    } else {
      if (at + values.size() * 2 > b.size()) return error = path + ": truncated", false;
      std::memcpy(values.data(), b.data() + at, values.size() * 2);
      at += values.size() * 2;
      s = space.load_chunk(p, values);
    }
    if (s != Status::Ok) return error = path + ": chunk " + std::to_string(i) + " does not load", false;
    ++chunks_loaded;
  }
  return true;
}

}  // namespace voxnav::bench
