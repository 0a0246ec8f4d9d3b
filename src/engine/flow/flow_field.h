// Flow fields: for one profile's costs and one goal cell, every node cell of a bounded region
// with its cheapest layer-2 cost to the goal, its successor on such a path and the edge kind
// toward it. Built by an integer Dijkstra from the goal over the reversed moves, the moves and
// their costs read exactly as the A* search reads them (flow_moves.h), so a field cost is what
// the search would price for the same profile inside the region.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/search/astar.h"
#include "engine/util/key_hash.h"
#include "voxnav/requests.h"

namespace voxnav::detail {

/// The cells a slice of a build covers: one chunk (16^3).
inline constexpr std::uint32_t kFlowSliceCells = 4096;
/// A cell's cost when the goal cannot be reached from it inside the region.
inline constexpr std::uint32_t kFlowUnreached = 0xFFFFFFFFu;
inline constexpr std::uint32_t kFlowNone = 0xFFFFFFFFu;
/// Line-of-sight cells lie on the goal's level within this many cells (x and z) of it.
inline constexpr int kFlowLosCells = 16;

/// An inclusive box of cells.
struct FlowBox {
  CellPos min, max;
  bool contains(const CellPos& c) const {
    return c.x >= min.x && c.x <= max.x && c.y >= min.y && c.y <= max.y && c.z >= min.z &&
           c.z <= max.z;
  }
};

/// A built field (immutable once built; shared by the agents following it).
struct FlowField {
  CellPos goal;
  FlowBox region;
  PathFailure failure = PathFailure::None;  ///< BadGoal / NotLoaded: nothing below is filled
  /// Chunks of the region holding node cells, in chunk_key order; their cells are numbered
  /// consecutively ([begin, end) of the arrays below), in index order inside the chunk.
  struct ChunkRange {
    ChunkPos pos;
    std::uint32_t begin = 0, end = 0;
  };
  std::vector<ChunkRange> chunks;
  std::unordered_map<std::uint64_t, std::uint32_t, KeyHash>
      chunk_at;                      ///< key -> chunks[] (lookup only)
  std::vector<std::uint16_t> index;  ///< per cell: its index in its chunk
  std::vector<std::uint32_t> cost;   ///< per cell: cost to the goal, kFlowUnreached
  std::vector<std::uint32_t> succ;   ///< per cell: the next cell toward the goal, kFlowNone
  std::vector<EdgeKind> kind;        ///< per cell: the edge kind of the move to succ
  std::vector<std::uint8_t> los;     ///< per cell: 1 when a straight walkable line reaches the goal
  std::uint32_t goal_index = kFlowNone;
  std::uint32_t reached = 0;  ///< cells with a cost

  std::uint32_t size() const { return static_cast<std::uint32_t>(index.size()); }
  /// The number of a cell of the field, kFlowNone when it is not one.
  std::uint32_t find(const CellPos& c) const;
  CellPos cell(std::uint32_t i) const;
};

/// One build in flight: the region's chunks, the moves gathered per slice (one chunk each, on the
/// executor's jobs), then the Dijkstra (run by the job that finishes the last slice).
class FlowBuild {
 public:
  /// Reads `grid` (unchanged until the build is finished: jobs run between updates).
  FlowBuild(const NavGrid& grid, const CostTable& costs, CellPos goal, FlowBox region);
  /// The number of slices to gather.
  std::size_t slices() const { return chunks_.size(); }
  /// Runs slices taken from a shared counter until none is left; the caller that completes the
  /// last one runs finish(). Safe to call from several jobs at once.
  void run_slices();
  /// Everything on the calling thread (tests).
  void run_all() { run_slices(); }
  bool done() const { return done_.load(std::memory_order_acquire); }
  std::shared_ptr<FlowField> result() const { return out_; }

 private:
  struct Edge {
    std::uint32_t from;   // cell number inside its slice
    std::uint32_t chunk;  // target's chunk ordinal in chunks_
    std::uint16_t index;  // target's index in that chunk
    EdgeKind kind;
    std::uint32_t cost;
  };
  struct Slice {
    std::vector<std::uint16_t> cells;
    std::vector<std::uint16_t>
        rank;  // per cell index of the chunk: its place in `cells`, or 0xFFFF
    std::vector<Edge> edges;
  };
  void gather(std::size_t k);
  void finish();

  const NavGrid& grid_;
  CostTable costs_;
  std::vector<NavChunk*> chunks_;  // region chunks that hold node cells, key order
  std::unordered_map<std::uint64_t, std::uint32_t, KeyHash> ordinal_;  // chunk key -> chunks_
  std::vector<Slice> slices_;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> remaining_{0};
  std::atomic<bool> done_{false};
  std::shared_ptr<FlowField> out_;
};

/// The region of a field: the box around the goal and `points` (cover points, followers) grown
/// by `margin` cells, no further than `half` cells from the goal on any axis.
FlowBox flow_region(CellPos goal, const std::vector<CellPos>& points, int margin, int half);

}  // namespace voxnav::detail
