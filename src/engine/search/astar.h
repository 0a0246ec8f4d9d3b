// Layer 2 search: A* over the move words with integer costs and a deterministic tie-break.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/classify/nav_grid.h"

namespace voxnav::detail {

/// Integer move costs. One cell of horizontal travel costs kCostStraight; a diagonal
/// kCostDiagonal = round(kCostStraight * sqrt 2).
inline constexpr std::uint32_t kCostStraight = 10000;
inline constexpr std::uint32_t kCostDiagonal = 14142;

struct CostTable {
  std::uint32_t jump_extra = 5000;      ///< added to a Jump edge
  std::uint32_t drop_extra = 2500;      ///< added per cell dropped by a Drop edge
  std::uint32_t slow_extra = 80000;     ///< added when entering a Slow cell (malus 8)
  std::uint32_t danger_extra = 80000;   ///< added when entering a Danger cell (malus 8)
  std::uint8_t max_drop = 3;            ///< drops deeper than this are refused by the profile
};

struct SearchParams {
  Cell start;
  Cell goal;
  int goal_range = 0;                 ///< goal reached within this many cells (Chebyshev per axis)
  std::uint32_t max_nodes = 200000;   ///< expansion budget
  int max_distance = 0;               ///< cells from the start (Chebyshev, x/z); 0 = unbounded
  bool partial = false;               ///< on failure, return the route to the closest node
};

enum class SearchOutcome : std::uint8_t { Found, Partial, NoPath, BudgetExhausted, BadStart };

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::NoPath;
  std::vector<Cell> cells;       ///< start .. end, one per move
  std::vector<EdgeKind> kinds;   ///< kinds[i] is the edge entering cells[i] (Start for 0)
  std::uint32_t cost = 0;        ///< integer cost of the returned cells
  std::uint32_t expanded = 0;    ///< nodes expanded
};

/// Cost of one move (the edge entering `to_kind` cell by `code` in direction `dir`).
inline std::uint32_t move_cost(const CostTable& t, int dir, int code, CellKind to_kind) {
  std::uint32_t c = dir < 4 ? kCostStraight : kCostDiagonal;
  const MoveCode m = kMoveCodes[code];
  if (m.kind == EdgeKind::Jump) c += t.jump_extra;
  else if (m.kind == EdgeKind::Drop) c += t.drop_extra * static_cast<std::uint32_t>(-m.dy);
  if (to_kind == CellKind::Slow) c += t.slow_extra;
  else if (to_kind == CellKind::DangerFire || to_kind == CellKind::DangerOther) c += t.danger_extra;
  return c;
}

/// Octile distance in cost units (admissible: every move covers one horizontal cell).
inline std::uint32_t octile(int dx, int dz) {
  dx = dx < 0 ? -dx : dx;
  dz = dz < 0 ? -dz : dz;
  const int lo = dx < dz ? dx : dz, hi = dx < dz ? dz : dx;
  return static_cast<std::uint32_t>(lo) * kCostDiagonal + static_cast<std::uint32_t>(hi - lo) * kCostStraight;
}

/// One searcher: owns its arena (nodes, heap, per-chunk index blocks) and a NavChunk scratch slot.
/// Searchers with different slots may run concurrently on the same (unchanging) grid.
///
/// Open list order: lowest f = g + h, then lowest h (prefers nodes nearer the goal on equal f),
/// then the most recently discovered node. Discovery order depends only on the grid and the
/// request (moves are generated in a fixed direction order), so the order is fully deterministic
/// on every platform, and comparing two entries never touches node memory.
class AStar {
 public:
  explicit AStar(int slot);
  SearchResult run(const NavGrid& grid, const SearchParams& p, const CostTable& costs);

 private:
  struct Node {  // 24 bytes: the cell is (ch->pos, idx)
    NavChunk* ch;
    std::uint32_t g;
    std::uint32_t parent;
    std::uint16_t idx;
    std::uint8_t closed;
    std::uint8_t kind;  // EdgeKind entering
  };
  struct Open {
    std::uint64_t fh;    // f << 32 | h
    std::uint32_t node;  // ties on fh: the newer node (higher index) first
  };
  std::uint32_t* block_for(NavChunk* ch) {
    const NavChunk::SearchSlot& s = ch->slot[slot_];
    return s.stamp == stamp_ ? blocks_[s.block].get() : new_block(ch);
  }
  std::uint32_t* new_block(NavChunk* ch);
  Cell node_cell(std::uint32_t n) const {
    const Node& d = nodes_[n];
    const int i = d.idx;
    return Cell{d.ch->pos.x * 16 + (i & 15), d.ch->pos.y * 16 + (i >> 8), d.ch->pos.z * 16 + ((i >> 4) & 15)};
  }
  bool before(const Open& a, const Open& b) const {
    return a.fh != b.fh ? a.fh < b.fh : a.node > b.node;
  }
  void heap_push(Open e);
  Open heap_pop();

  int slot_;
  std::uint32_t stamp_ = 0;
  std::vector<Node> nodes_;
  std::vector<Open> heap_;
  std::vector<Open> fast_;  // successors with the f being expanded (LIFO, bypass the heap)
  std::vector<std::unique_ptr<std::uint32_t[]>> blocks_;
  std::size_t blocks_used_ = 0;
};

}  // namespace voxnav::detail
