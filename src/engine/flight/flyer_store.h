// The flyer layer of a World: every loaded chunk's 64 bricks (4x4x4 cells each) with their free
// and hover masks (flyer_classify.h), kept up to date from the space's change log.
//
// Keyed by chunk (a lookup table, never iterated for a decision), so it costs the same whatever
// the extent of the loaded world: 1 KiB per loaded chunk (two 64-bit masks per brick). A change
// refreshes only the bricks whose cells may read it: a cell reads the blocks of its own cell, the
// one above and the one below, so an edit of the box [min, max] reclassifies the bricks holding
// cells min.y - 1 .. max.y + 1 of its columns, a load or unload those of the chunk and the cell
// rows just above and below it. Refreshed bricks whose masks did not change are not counted.
// Synchronous (no jobs): a chunk classifies in about as long as one cell lookup per cell.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/flight/flight_grid.h"
#include "engine/flight/flyer_classify.h"
#include "engine/util/key_hash.h"
#include "engine/world/space.h"

namespace voxnav::detail::flight {

/// Bricks along a chunk's edge, and per chunk.
inline constexpr int kChunkBricks = 4;

class FlyerStore {
 public:
  struct ChunkBricks {
    std::array<FlyerBrick, 64> bricks;  ///< brick (bx & 3) + 4 (by & 3) + 16 (bz & 3)
  };

  /// Classifies every chunk `space` holds now (after the block values' flags are read again from
  /// its registry).
  void build_all(const Space& space);
  /// Brings the layer up to date with `changes` (the change log entries since the last call, in
  /// order; the space is as of after the last one). Returns the number of bricks whose masks
  /// changed (0: no answer can have changed).
  std::size_t apply(const Space& space, const std::vector<Change>& changes);

  /// The brick at world brick coordinates (bx, by, bz) (cells 4 bx .. 4 bx + 3 ...); all
  /// blocked (both masks 0) in a chunk not loaded.
  FlyerBrick brick(int bx, int by, int bz) const {
    const ChunkBricks* c = chunk(ChunkPos{bx >> 2, by >> 2, bz >> 2});
    return c ? c->bricks[(bx & 3) + 4 * (by & 3) + 16 * (bz & 3)] : FlyerBrick{};
  }
  /// Whether cell c is free / a hover cell for the flyer class.
  bool free(CellPos c) const { return (brick(c.x >> 2, c.y >> 2, c.z >> 2).free >> bit(c)) & 1u; }
  bool hover(CellPos c) const { return (brick(c.x >> 2, c.y >> 2, c.z >> 2).hover >> bit(c)) & 1u; }
  static int bit(CellPos c) { return (c.x & 3) + 4 * (c.y & 3) + 16 * (c.z & 3); }

  /// The chunk's bricks, or null when the chunk is not loaded (or out of range).
  const ChunkBricks* chunk(ChunkPos p) const {
    if (!chunk_in_range(p)) return nullptr;
    const auto it = chunks_.find(chunk_key(p));
    return it == chunks_.end() ? nullptr : it->second.get();
  }

  /// Fills `grid` with the free and hover masks of the cells origin .. origin + (sx, sy, sz) - 1 (origin a
  /// multiple of 4 on every axis; sizes as FlightGrid::build requires): grid cell (x, y, z) is world
  /// cell origin + (x, y, z).
  void window(CellPos origin, int sx, int sy, int sz, FlightGrid& grid) const;

  std::size_t chunk_count() const { return chunks_.size(); }
  std::size_t memory_bytes() const {
    return chunks_.size() * (sizeof(ChunkBricks) + 32) + flags_.capacity();
  }
  /// Bricks reclassified by apply() since the store was made (refreshed, changed or not).
  std::uint64_t bricks_refreshed() const { return refreshed_; }
  /// The chunks whose bricks the last apply() changed, added or dropped, sorted by chunk_key.
  const std::vector<ChunkPos>& changed_chunks() const { return changed_chunks_; }

 private:
  void refresh_brick(const Space& space, int bx, int by, int bz, std::size_t& changed);

  std::unordered_map<std::uint64_t, std::unique_ptr<ChunkBricks>, KeyHash> chunks_;  // lookup only
  std::vector<std::uint8_t> flags_;  // flyer_value_flags of the registry
  std::vector<std::uint64_t> keys_;  // apply()'s scratch: bricks to refresh
  std::vector<ChunkPos> changed_chunks_;
  std::uint64_t refreshed_ = 0;
};

}  // namespace voxnav::detail::flight
