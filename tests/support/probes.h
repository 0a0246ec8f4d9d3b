// Probes into a World's engine state for the benchmarks (part of voxnav_scenes, no GoogleTest):
// what a game has no use for and the public API therefore leaves out - A* alone (no reachability
// screening, no string pulling), the island maintenance counters, navigation rebuilt from scratch
// for comparison, an agent's progress index along its corridor cells. Signatures use public types
// only, so a benchmark that includes this header includes no engine header; the implementation
// (probes.cpp) reaches the engine through detail::WorldAccess, the tests' door.
//
// Every probe works on the walker class's navigation (World::stats() describes the same one).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "voxnav/world.h"

namespace voxnav::test {

/// The outcome of a raw search, numbered as the engine's SearchOutcome (fingerprints hash it).
enum class RawOutcome : std::uint8_t { Found, Partial, NoPath, BudgetExhausted, BadStart };
/// "found", "partial", "no_path", "budget_exhausted", "bad_start".
const char* raw_outcome_name(RawOutcome o) noexcept;

/// A search's node budget and distance limit (cells; 0: no distance limit).
struct SearchLimits {
  std::uint32_t max_nodes = 200000;
  int max_distance = 0;
};
/// The limits `profile` compiles to (what its requests search with).
SearchLimits compiled_limits(const Profile& profile);

/// A* alone on the walker class's navigation of a World, on the calling thread, as of the last
/// update(): what NavWorld::search_now does, without the request's reachability screening and
/// without string pulling (pull() does that separately, so it can be timed on its own).
class RawSearcher {
 public:
  /// `costs_of`: the profile whose move costs the searches use; null: the engine's default cost
  /// table. The World must outlive the searcher.
  explicit RawSearcher(World& world, const Profile* costs_of = nullptr);
  ~RawSearcher();
  RawSearcher(const RawSearcher&) = delete;
  RawSearcher& operator=(const RawSearcher&) = delete;

  /// Runs one search from `start` to `goal` (feet cells); the result stays until the next run.
  void run(CellPos start, CellPos goal, SearchLimits limits);
  RawOutcome outcome() const noexcept;
  std::uint32_t cost() const noexcept;
  std::uint32_t expanded() const noexcept;
  /// The path's cells, start .. end (empty without a path).
  const std::vector<CellPos>& cells() const noexcept;
  /// String-pulls the last result into corridor waypoints (the corridor step of a request);
  /// returns their count.
  std::size_t pull();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Counters of the islands' incremental maintenance since the World was made.
struct IslandCounters {
  std::uint64_t deltas = 0;              ///< deltas applied
  std::uint64_t merges = 0;              ///< island unions caused by added moves
  std::uint64_t split_checks = 0;        ///< bounded searches proving an island still holds
  std::uint64_t fallbacks = 0;           ///< deltas that needed a full recomputation
  std::uint64_t local_splits = 0;        ///< sides split off an island without recomputation
  std::uint64_t component_searches = 0;  ///< searches over local components
  std::uint64_t components_built = 0;    ///< octants whose local components were computed
  std::uint64_t out_patches = 0;         ///< moves out of current octants patched in place
};
IslandCounters island_counters(const World& world);

/// The work an edit would cost without incremental maintenance: classifies chunk `p` from the
/// World's blocks and recomputes the move words of it and its 26 neighbours.
void rebuild_chunk_from_scratch(World& world, ChunkPos p);
/// Recomputes every island of the region from scratch.
void recompute_islands(World& world);

/// Progress of an agent along its corridor cells (World::agent_path_cells): the index of the cell
/// it has reached. Returns: Ok; StaleHandle; InvalidArgument (null `index`).
Status agent_cell_index(const World& world, AgentId id, std::size_t* index);

}  // namespace voxnav::test
