// voxnav - small value types shared by the public API.
#pragma once
#include <cstdint>

namespace voxnav {

/// An integer cell (block) position: x east, y up, z south. One cell = one block = cell_size
/// metres (1 for Minecraft-like worlds). |x|, |z| < 2^25 and |y| < 2^11 (2048).
struct CellPos {
  std::int32_t x = 0, y = 0, z = 0;
  friend bool operator==(const CellPos&, const CellPos&) = default;
};

/// A chunk position: cell >> 4 on each axis (chunks are 16 x 16 x 16 cells).
struct ChunkPos {
  std::int32_t x = 0, y = 0, z = 0;
  friend bool operator==(const ChunkPos&, const ChunkPos&) = default;
};

/// A position in metres (cells when cell_size is 1). Agent and waypoint positions are feet
/// positions: the centre of the bottom of the body box.
struct Vec3 {
  double x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

/// Cell range: |x|, |z| <= kMaxCellXZ and |y| <= kMaxCellY. [Limit: -kMaxCellXZ..kMaxCellXZ,
/// -kMaxCellY..kMaxCellY]
inline constexpr std::int32_t kMaxCellXZ = (1 << 25) - 1;
inline constexpr std::int32_t kMaxCellY = (1 << 11) - 1;

/// World::set_box: cells of one box. [Limit: 1..kMaxBoxCells]
inline constexpr std::int64_t kMaxBoxCells = std::int64_t{1} << 24;
/// World::set_box (and each box of World::set_blocks): chunks one box may touch, counted as
/// (chunks along x) * (along y) * (along z). A box within kMaxBoxCells touches at most about
/// 4,900 chunks when it is compact, but a thin strip of kMaxBoxCells cells along x spans a million;
/// this bound keeps one edit's work (a chunk lookup each, an 8 KiB array for a uniform chunk)
/// within 65,536 chunks: a 4096 x 1 x 4096 slab aligned to chunk edges fits.
/// [Limit: 1..kMaxBoxChunks]
inline constexpr std::int64_t kMaxBoxChunks = std::int64_t{1} << 16;

/// Cells per chunk edge, and values per chunk array (index x + 16 * (z + 16 * y)).
inline constexpr int kChunkEdge = 16;
inline constexpr int kChunkValues = 16 * 16 * 16;

/// Chunk range: the chunks whose every cell is in the cell range, |x|, |z| <= kMaxChunkXZ and
/// |y| <= kMaxChunkY (chunk coordinates: cell coordinates / 16, rounded down). Every call taking
/// a ChunkPos checks it first (OutOfRange naming the argument). [Limit: -kMaxChunkXZ..kMaxChunkXZ,
/// -kMaxChunkY..kMaxChunkY]
inline constexpr std::int32_t kMaxChunkXZ = (kMaxCellXZ + 1) / kChunkEdge - 1;
inline constexpr std::int32_t kMaxChunkY = (kMaxCellY + 1) / kChunkEdge - 1;
static_assert(std::int64_t{kMaxChunkXZ} * kChunkEdge + kChunkEdge - 1 == kMaxCellXZ &&
                  std::int64_t{kMaxChunkY} * kChunkEdge + kChunkEdge - 1 == kMaxCellY,
              "the chunk range covers exactly the cell range");

}  // namespace voxnav
