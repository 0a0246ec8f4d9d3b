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
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "voxnav/world.h"

namespace voxnav::bench {

inline bool read_file(const std::string& path, std::vector<std::uint8_t>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

/// Cells along a chunk edge (kChunkValues = 16^3).
inline constexpr int kDumpSide = 16;

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

/// Writes every loaded chunk of `world` within the cells min..max (a load's LoadReport bounds),
/// in x, then z, then y order of their positions; false when the file cannot be written. Read
/// through World::get_block, so it takes a moment on a whole region (cells are not counted).
inline bool write_chunk_dump(const World& world, CellPos min, CellPos max, const std::string& source,
                             const std::string& path) {
  auto chunk_of = [](int c) { return c >= 0 ? c / kDumpSide : -((-c + kDumpSide - 1) / kDumpSide); };
  std::vector<std::uint8_t> b(kDumpMagic, kDumpMagic + 8);
  std::vector<std::uint8_t> body;
  std::uint32_t count = 0;
  std::vector<std::uint16_t> values(kChunkValues);
  for (int cx = chunk_of(min.x); cx <= chunk_of(max.x); ++cx)
    for (int cz = chunk_of(min.z); cz <= chunk_of(max.z); ++cz)
      for (int cy = chunk_of(min.y); cy <= chunk_of(max.y); ++cy) {
        const CellPos o{cx * kDumpSide, cy * kDumpSide, cz * kDumpSide};
        std::uint16_t v = 0;
        if (world.get_block(o, &v) != Status::Ok) continue;  // not loaded
        bool uniform = true;
        for (int y = 0; y < kDumpSide; ++y)
          for (int z = 0; z < kDumpSide; ++z)
            for (int x = 0; x < kDumpSide; ++x) {
              std::uint16_t& w = values[static_cast<std::size_t>(x + kDumpSide * (z + kDumpSide * y))];
              (void)world.get_block(CellPos{o.x + x, o.y + y, o.z + z}, &w);
              uniform = uniform && w == values[0];
            }
        dump_put<std::int32_t>(body, cx);
        dump_put<std::int32_t>(body, cy);
        dump_put<std::int32_t>(body, cz);
        dump_put<std::uint8_t>(body, uniform ? 1 : 0);
        if (uniform) {
          dump_put<std::uint16_t>(body, values[0]);
        } else {
          const std::size_t at = body.size();
          body.resize(at + values.size() * sizeof(std::uint16_t));
          std::memcpy(body.data() + at, values.data(), values.size() * sizeof(std::uint16_t));
        }
        ++count;
      }
  dump_put<std::uint32_t>(b, 1);
  dump_put<std::uint32_t>(b, static_cast<std::uint32_t>(world.block_count()));
  dump_put<std::uint32_t>(b, count);
  dump_put<std::uint32_t>(b, static_cast<std::uint32_t>(source.size()));
  b.insert(b.end(), source.begin(), source.end());
  b.insert(b.end(), body.begin(), body.end());
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return static_cast<bool>(f);
}

/// Loads a dump into `world` (whose registry must have the size the dump was written with).
/// Returns false with `error` set on a missing, malformed or mismatched file.
inline bool read_chunk_dump(const std::string& path, World& world, std::string& source,
                            std::size_t& chunks_loaded, std::size_t& uniform_chunks, std::string& error) {
  std::vector<std::uint8_t> b;
  if (!read_file(path, b)) return error = "cannot read the chunk dump " + path, false;
  std::size_t at = 8;
  std::uint32_t version = 0, reg = 0, count = 0, name_len = 0;
  if (b.size() < 8 || std::memcmp(b.data(), kDumpMagic, 8) != 0 || !dump_get(b, at, version) || version != 1 ||
      !dump_get(b, at, reg) || !dump_get(b, at, count) || !dump_get(b, at, name_len) || at + name_len > b.size())
    return error = path + " is not a chunk dump (version 1)", false;
  if (reg != world.block_count())
    return error = path + " was written with a registry of " + std::to_string(reg) + " values, this one has " +
                   std::to_string(world.block_count()),
           false;
  source.assign(reinterpret_cast<const char*>(b.data() + at), name_len);
  at += name_len;
  std::vector<std::uint16_t> values(kChunkValues);
  chunks_loaded = uniform_chunks = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    ChunkPos p;
    std::uint8_t uniform = 0;
    if (!dump_get(b, at, p.x) || !dump_get(b, at, p.y) || !dump_get(b, at, p.z) || !dump_get(b, at, uniform))
      return error = path + ": truncated", false;
    if (uniform) {
      std::uint16_t v = 0;
      if (!dump_get(b, at, v)) return error = path + ": truncated", false;
      std::fill(values.begin(), values.end(), v);  // load_chunk stores it as one value
      ++uniform_chunks;
    } else {
      if (at + values.size() * 2 > b.size()) return error = path + ": truncated", false;
      std::memcpy(values.data(), b.data() + at, values.size() * 2);
      at += values.size() * 2;
    }
    if (world.load_chunk(p, values) != Status::Ok)
      return error = path + ": chunk " + std::to_string(i) + " does not load", false;
    ++chunks_loaded;
  }
  return true;
}

}  // namespace voxnav::bench
