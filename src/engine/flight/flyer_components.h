// Connected components of the flyer cells (6-connected: cells sharing a face), so that a flyer
// goal no route can reach answers No at once instead of costing a search (the reference design
// has none: every unreachable flight goal paid a capped search).
//
// Why 6-connectivity is the right relation: the default search walks face steps between free
// cells, and a clear straight line (flyer_line.h) touches a face-connected set of free cells (the
// feet box overlaps a box of cells at every moment and keeps overlapping some of them from one
// moment to the next), so both find a route only within one component. No is never wrong for what
// this library can fly.
//
// Three levels, so that an edit costs a chunk's work and one pass over chunk-sized nodes:
// - a *brick component* is a face-connected set of free cells inside one brick (a 64-bit mask;
//   an all-open brick is one), found by growing a mask with shifts;
// - a *chunk component* unites the brick components of one chunk that touch across brick faces;
// - the chunk components are united across chunk faces (links kept per chunk toward +x, +y, +z)
//   by a union-find over every chunk component of the World, redone after each change (its size
//   is the number of chunk components, a few per loaded chunk).
// An update recomputes the brick and chunk components of the chunks whose free masks changed,
// the links of those chunks and of their -x, -y, -z neighbours, then the union-find.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/flight/flyer_store.h"
#include "engine/util/key_hash.h"
#include "engine/world/space.h"

namespace voxnav::detail::flight {

/// The face-connected components of a 64-bit brick mask (bit x + 4y + 16z), lowest bit first.
void brick_components(std::uint64_t free, std::vector<std::uint64_t>& out);

class FlyerComponents {
 public:
  /// Computes every loaded chunk's components from `store` (space: the chunk list, sorted).
  void build_all(const FlyerStore& store, const Space& space);
  /// Recomputes after `store.apply()` changed the free masks of `changed` chunks.
  void update(const FlyerStore& store, const Space& space, const std::vector<ChunkPos>& changed);
  /// The component of a cell (0: not free or not loaded). Equal labels: connected. Labels are
  /// valid until the next update.
  std::uint32_t label(const FlyerStore& store, CellPos c) const;
  std::size_t component_count() const { return components_; }
  std::size_t memory_bytes() const;

 private:
  struct ChunkComps {
    std::array<std::uint16_t, 65> first{};  ///< brick b's components: masks[first[b] .. first[b + 1])
    std::vector<std::uint64_t> masks;
    std::vector<std::uint16_t> chunk_comp;  ///< per brick component: its chunk component
    std::uint16_t count = 0;                ///< chunk components
    std::array<std::vector<std::pair<std::uint16_t, std::uint16_t>>, 3> links;  ///< toward +x, +y, +z
    std::uint32_t base = 0;  ///< global node of chunk component 0 (relabel())
  };
  void compute_chunk(const FlyerStore::ChunkBricks& bricks, ChunkComps& out);
  void compute_links(ChunkPos p, ChunkComps& c);
  void relabel(const Space& space);
  const ChunkComps* find(ChunkPos p) const {
    if (!chunk_in_range(p)) return nullptr;
    const auto it = chunks_.find(chunk_key(p));
    return it == chunks_.end() ? nullptr : it->second.get();
  }

  std::unordered_map<std::uint64_t, std::unique_ptr<ChunkComps>, KeyHash> chunks_;  // lookup only
  std::vector<std::uint32_t> root_;  ///< per global node: its component label (1-based)
  std::vector<std::uint64_t> scratch_;
  std::size_t components_ = 0;
};

}  // namespace voxnav::detail::flight
