// Space: the mirror of one world (dimension) that the host feeds, plus its change log.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "engine/util/key_hash.h"
#include "engine/world/registry.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav::detail {

inline constexpr int kChunkBits = 4;
inline constexpr int kChunkSize = 16;
inline constexpr int kChunkCells = kChunkSize * kChunkSize * kChunkSize;
/// Cells are limited to |x|,|z| < 2^25 and |y| < 2^11 (2048: Minecraft's whole build range) so that
/// the packed cell key below stays exact (26 + 26 + 12 bits) and positions stay exact as doubles.
inline constexpr std::int32_t kMaxHorizontal = kMaxCellXZ + 1;  // voxnav/types.h
inline constexpr std::int32_t kMaxVertical = kMaxCellY + 1;

inline bool cell_in_range(const CellPos& c) {
  return c.x > -kMaxHorizontal && c.x < kMaxHorizontal && c.z > -kMaxHorizontal &&
         c.z < kMaxHorizontal && c.y > -kMaxVertical && c.y < kMaxVertical;
}

inline ChunkPos chunk_of(const CellPos& c) {
  return {c.x >> kChunkBits, c.y >> kChunkBits, c.z >> kChunkBits};
}
/// Index of a cell inside its chunk: x + 16 * (z + 16 * y) (Minecraft's section order).
inline int index_in_chunk(const CellPos& c) {
  return (c.x & 15) | ((c.z & 15) << 4) | ((c.y & 15) << 8);
}
/// Whether every cell of chunk `p` is in the cell range (voxnav/types.h kMaxChunkXZ, kMaxChunkY),
/// compared without arithmetic on the coordinates. chunk_key is exact only for such chunks
/// (22 bits for x and z, 20 for y): every entry point taking a ChunkPos checks this first.
inline bool chunk_in_range(const ChunkPos& p) {
  return p.x >= -kMaxChunkXZ && p.x <= kMaxChunkXZ && p.z >= -kMaxChunkXZ && p.z <= kMaxChunkXZ &&
         p.y >= -kMaxChunkY && p.y <= kMaxChunkY;
}
/// Cells of the inclusive box mn..mx (mn <= mx on every axis, both in the cell range), or
/// kMaxBoxCells + 1 when it has more than kMaxBoxCells: counted without overflow (the extents
/// reach 2^26 x 2^12 x 2^26 cells, whose product does not fit 64 bits).
inline std::uint64_t box_cell_count(const CellPos& mn, const CellPos& mx) {
  const auto ext = [](std::int32_t a, std::int32_t b) {
    return static_cast<std::uint64_t>(std::int64_t{b} - a + 1);  // <= 2^26
  };
  constexpr auto kOver = static_cast<std::uint64_t>(kMaxBoxCells) + 1;
  const std::uint64_t xy = ext(mn.x, mx.x) * ext(mn.y, mx.y);  // <= 2^38
  if (xy > kOver) return kOver;
  const std::uint64_t xyz = xy * ext(mn.z, mx.z);  // <= 2^25 * 2^26
  return xyz > kOver ? kOver : xyz;
}
/// Chunks the inclusive box mn..mx touches (mn <= mx, both in the cell range): at most
/// 2^22 * 2^8 * 2^22, which 64 bits hold.
inline std::uint64_t box_chunk_count(const CellPos& mn, const CellPos& mx) {
  const auto ext = [](std::int32_t a, std::int32_t b) {
    return static_cast<std::uint64_t>(std::int64_t{b >> kChunkBits} - (a >> kChunkBits) + 1);
  };
  return ext(mn.x, mx.x) * ext(mn.y, mx.y) * ext(mn.z, mx.z);
}
/// A 64-bit key for a chunk position, ordered (used for deterministic sorting and lookups).
inline std::uint64_t chunk_key(const ChunkPos& p) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.y) & 0xFFFFFu) << 44) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.z) & 0x3FFFFFu) << 22) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.x) & 0x3FFFFFu));
}
/// A 64-bit key for a cell: the tie-break "cell index" of searches. Orders by y, then z, then x.
inline std::uint64_t cell_key(const CellPos& c) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.y + kMaxVertical)) << 52) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.z + kMaxHorizontal)) << 26) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.x + kMaxHorizontal));
}

struct ChunkStamp {
  std::uint64_t load_serial = 0;  ///< serial of the change that loaded the chunk
  std::uint32_t generation = 0;   ///< bumped by every edit inside the chunk
};

/// Block storage of one loaded chunk; `uniform` chunks (all one value) store no array.
struct Chunk {
  ChunkPos pos;
  ChunkStamp stamp;
  bool uniform = true;
  std::uint16_t uniform_value = 0;
  std::unique_ptr<std::uint16_t[]> values;  // kChunkCells when !uniform
  std::uint16_t get(int i) const { return uniform ? uniform_value : values[i]; }
};

/// One entry of the change log. Cells are inclusive boxes; a load/unload covers its chunk.
struct Change {
  enum class Kind : std::uint8_t { Load, Unload, SetBlock, SetBox };
  std::uint64_t serial = 0;
  Kind kind = Kind::SetBlock;
  CellPos min, max;
};

/// One chunk of a batch load (Space::load_chunks): uniform, or kChunkCells values.
struct ChunkLoad {
  ChunkPos pos;
  bool uniform = true;
  std::uint16_t uniform_value = 0;
  std::span<const std::uint16_t> values;  // when !uniform
};

class Space {
 public:
  explicit Space(const BlockRegistry* registry) : registry_(registry) {}

  const BlockRegistry& registry() const { return *registry_; }

  /// Loads (or replaces) a chunk from kChunkCells values in index_in_chunk order.
  /// Errors: InvalidArgument (wrong length), OutOfRange (a value not in the registry, position
  /// out of range). Nothing changes on error.
  Status load_chunk(ChunkPos pos, std::span<const std::uint16_t> values);
  /// Loads a chunk holding one value everywhere (air above the terrain, stone below ...).
  Status load_uniform_chunk(ChunkPos pos, std::uint16_t value);
  /// Loads (or replaces) every chunk of `batch`, in order, all or nothing: every chunk is checked
  /// first (the errors of load_chunk), then all the memory the load needs is reserved, then the
  /// chunks are installed by steps that cannot fail. On an error, or when an allocation throws
  /// (the exception propagates), the Space is unchanged: same chunks, log and serial.
  Status load_chunks(std::span<const ChunkLoad> batch);
  /// Unloads a chunk. Errors: OutOfRange (position), NotLoaded.
  Status unload_chunk(ChunkPos pos);
  /// Sets one block. Errors: OutOfRange (value or cell), NotLoaded (chunk not loaded).
  Status set_block(CellPos c, std::uint16_t value);
  /// Sets every block of the inclusive box [min, max]; all its chunks must be loaded. At most
  /// 2^24 cells per call.
  Status set_box(CellPos min, CellPos max, std::uint16_t value);

  bool is_loaded(ChunkPos p) const { return chunk_in_range(p) && chunks_.count(chunk_key(p)) != 0; }
  bool is_cell_loaded(CellPos c) const { return is_loaded(chunk_of(c)); }
  /// Block value at a cell; air (0) when the chunk is not loaded.
  std::uint16_t block(CellPos c) const;
  /// The loaded chunk at `p`; null when not loaded or out of range (is_loaded likewise).
  const Chunk* chunk(ChunkPos p) const;

  /// Serial of the latest change (0 before any change).
  std::uint64_t serial() const { return serial_; }
  /// Appends every change with serial > `after` to `out`, oldest first.
  void changes_since(std::uint64_t after, std::vector<Change>& out) const;
  /// Forgets changes with serial <= `upto` (the navigation side calls it once processed).
  void trim_changes(std::uint64_t upto);

  /// Positions of every loaded chunk, sorted by chunk_key (deterministic).
  std::vector<ChunkPos> loaded_chunks() const;
  std::size_t chunk_count() const { return chunks_.size(); }

 private:
  Chunk& ensure_array(Chunk& ch);
  /// Reserves room for `new_chunks` more chunks and `new_changes` more log entries (may throw).
  void make_room(std::size_t new_chunks, std::size_t new_changes);
  void log(Change::Kind kind, CellPos min, CellPos max);
  static void compact(Chunk& ch);

  const BlockRegistry* registry_;
  std::unordered_map<std::uint64_t, Chunk, KeyHash>
      chunks_;  // lookup only; never iterated for results
  std::vector<Change> log_;
  std::uint64_t serial_ = 0;
};

}  // namespace voxnav::detail
