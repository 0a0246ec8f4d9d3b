// Searches over a FlightGrid (flight_grid.h).
//
// The optimal mode: A* over free cells with 26 neighbours, where a move needs every cell of the
// box it spans free (the Moving AI voxel rule: a face move needs its target, an edge diagonal the
// 2x2 square, a corner diagonal the 2x2x2 cube). Costs are integers on the scale kCostScale:
// 1, sqrt 2 and sqrt 3 rounded. The heuristic is the octile distance in 3D on the same integer
// costs (the exact cost on an empty grid, so admissible and consistent: a closed cell is final).
// Ties on f go to the lower h (the deeper node), then to the lower node id, so the result never
// depends on anything but the grid and the two cells.
//
// An expansion skips the moves its parent already relaxed at no higher cost (flight_search.cpp,
// Dominance): the same entries are pushed, with fewer page lookups.
//
// Node state lives in 64-cell pages, one per brick the search touches, found through a per-brick
// tag stamped with the search's generation (brick_tags.h: allocated in groups of bricks on first
// touch, so a short search on a huge map stays small): nothing is cleared between searches and no
// hash map is used. The open list is a radix heap on f (a consistent heuristic never pushes an f below the
// last one popped). Its entries at the current f that came from a bucket are sorted on (h, node
// id) when that f is reached (a radix sort; most of them get popped, so a heap was slower); children pushed at
// the current f go on a stack instead, sorted by (h, node id)
// with the lowest on top: such a child has a higher g, so a lower h, than every entry at that f,
// and the children of one expansion are sorted among themselves before they go on top. A pop
// takes the stack's top, else the level's lowest, and the order is exactly (f, h, id). Deletion is lazy (a stale entry is
// skipped on pop). A plain binary heap over all entries spent 70 % of the time in pops on A1,
// whose open lists reach millions of entries (most of them at the optimal f in open space).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/flight/brick_tags.h"
#include "engine/flight/flight_grid.h"
#include "voxnav/types.h"

namespace voxnav::detail::flight {

/// Integer move costs: a face step is kCostScale, an edge diagonal sqrt(2) and a corner diagonal
/// sqrt(3) times that, rounded. Each step's rounding error is at most 0.5 / 2^16 = 7.6e-6 of a
/// cell, so the integer optimum's true length is within 2 * 7.6e-6 (relative) of the true
/// optimum: well inside the benchmark's 1e-4. The reported length is recomputed exactly from the
/// step counts.
inline constexpr std::uint64_t kCostScale = std::uint64_t{1} << 16;
inline constexpr std::uint64_t kCostStraight = kCostScale;  // 65536
inline constexpr std::uint64_t kCostDiag2 = 92682;          // round(sqrt(2) * 65536)
inline constexpr std::uint64_t kCostDiag3 = 113512;         // round(sqrt(3) * 65536)

/// Octile distance in 3D on the integer costs.
inline std::uint64_t octile3(int dx, int dy, int dz) {
  std::uint64_t a = std::uint64_t(dx < 0 ? -dx : dx), b = std::uint64_t(dy < 0 ? -dy : dy),
                c = std::uint64_t(dz < 0 ? -dz : dz);
  const std::uint64_t hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
  const std::uint64_t lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
  const std::uint64_t mid = a + b + c - hi - lo;
  return lo * kCostDiag3 + (mid - lo) * kCostDiag2 + (hi - mid) * kCostStraight;
}

struct FlightSearchResult {
  bool found = false;
  bool limited = false;        ///< stopped at max_expansions before the goal
  std::uint64_t cost = 0;      ///< integer cost (kCostScale per cell), below 2^32 - 1
  double length = 0;           ///< straight + diag2 * sqrt 2 + diag3 * sqrt 3
  std::uint64_t expanded = 0;  ///< cells expanded (the goal's pop is not counted)
  std::uint64_t straight = 0, diag2 = 0, diag3 = 0;  ///< steps of each kind on the path
  std::vector<CellPos> cells;  ///< start .. goal, one per step (empty when not found)
};

/// One optimal searcher: reusable scratch (pages, tags, heap). Not thread safe; one per thread.
class OptimalSearch {
 public:
  /// Searches from start to goal. Both must be free cells of `grid` (the caller checks).
  /// max_expansions 0 means no limit. Costs are held in 32 bits: a cell whose cost from the start
  /// would reach 2^32 - 1 (65,535 face steps) is not reached, so a path longer than that is
  /// not found.
  void run(const FlightGrid& grid, CellPos start, CellPos goal, std::uint64_t max_expansions,
           FlightSearchResult& out);

  std::size_t memory_bytes() const;

 private:
  struct Page {
    std::uint32_t g[64];  // cost from the start; ~0: not reached
    std::uint8_t dir[64];
    std::uint64_t closed;
  };
  struct Entry {
    std::uint64_t f;
    std::uint64_t key;  // h << 32 | node id
  };

  /// The page of a brick, new (every g unreached) when this search has not touched it yet.
  Page& touch(std::uint32_t brick) {
    const std::uint64_t tag = tags_.get(brick);
    if (std::uint32_t(tag >> 32) == gen_) return pages_[std::uint32_t(tag)];
    return new_page(brick);
  }
  Page& new_page(std::uint32_t brick);
  void queue_clear();
  void queue_push(Entry e);
  Entry queue_pop();  // the queue must not be empty
  void sort_level();
  void release_large_queues();

  BrickTags tags_;  // per padded brick touched: generation << 32 | page
  std::vector<Page> pages_;
  std::size_t pages_used_ = 0;
  // The radix heap: buckets_[b] holds entries whose f differs from last_f_ first at bit b - 1
  // (from the top); stack_ those whose f is last_f_, sorted by key, lowest last.
  std::vector<Entry> buckets_[65];
  std::vector<Entry> stack_;
  std::vector<Entry> level_;  // entries at last_f_ moved from a bucket, sorted by key, lowest last
  std::vector<Entry> radix_tmp_;
  std::uint64_t last_f_ = 0;
  std::size_t queued_ = 0;
  std::uint32_t gen_ = 0;
};

}  // namespace voxnav::detail::flight
