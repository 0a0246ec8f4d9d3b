// Layer 2 search: A* over the move words with integer costs and a deterministic tie-break.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/classify/nav_grid.h"

namespace voxnav::detail {

/// Integer move costs. One cell of horizontal travel costs kCostStraight; a diagonal
/// kCostDiagonal = round(kCostStraight * sqrt 2).
inline constexpr std::uint32_t kCostStraight = 10000;
inline constexpr std::uint32_t kCostDiagonal = 14142;

/// A cost no path pays: the move is refused.
inline constexpr std::uint32_t kCostImpassable = 0xFFFFFFFFu;
/// A surface cost entry for a group no path enters.
inline constexpr std::int32_t kSurfaceExcluded = 0x7FFFFFFF;

/// The cost of a move of cost `cost` (base + kind extra) whose own cost is `move` after the surface
/// cost `s` of the cell it enters: never below 0.4 of the move's own cost; kCostImpassable for an
/// excluded surface.
inline std::uint32_t with_surface(std::uint32_t cost, std::uint32_t move, std::int32_t s) {
  if (s == kSurfaceExcluded) return kCostImpassable;
  if (s >= 0) return cost + static_cast<std::uint32_t>(s);
  const std::int64_t c = static_cast<std::int64_t>(cost) + s;
  const std::int64_t floor = static_cast<std::int64_t>(move) * 2 / 5;
  return static_cast<std::uint32_t>(c > floor ? c : floor);
}

/// The integer costs of one profile (compiled from its malus table, drop malus and speeds).
struct CostTable {
  std::uint32_t jump_extra = 5000;   ///< added to a Jump edge (and a Climb onto a ledge)
  std::uint32_t drop_extra = 2500;   ///< added per cell dropped by a Drop edge
  std::uint32_t climb_cost = 20000;  ///< one cell straight up or down a ladder
  /// Added when a move enters a cell of each CellKind (kCostImpassable: never entered). The
  /// defaults: slow and danger cells malus 8, damage cells, closed doors and climbable cells
  /// impassable (a profile that can climb or open doors prices them).
  std::array<std::uint32_t, 16> kind_extra = default_kind_extra();
  std::uint8_t max_drop = 3;  ///< drops deeper than this are refused by the profile
  /// The profile's own step height and jump apex (1/64 cell; 255: the class's). Below the class's,
  /// a search refuses a move that rises more than the step (a Jump edge: more than the jump).
  std::uint8_t step_q = 255;
  std::uint8_t jump_q = 255;
  /// Cells of open air the profile's gap jumps cross (0: none; 255: the class's reach). The
  /// navigation holds gap jumps over up to ClassEnvelope::gap_reach cells; a search takes those
  /// crossing at most this many.
  std::uint8_t gap_reach = 255;
  /// Surface costs by surface group (NavChunk::surface), added when a move enters a cell of the
  /// group: the profile's surface malus and the request's area filter, compiled. A negative cost
  /// lowers a move to no less than 0.4 of its own cost, and the heuristic is scaled by
  /// max(0.4, 1 + surface_min / kCostStraight) so it stays admissible and consistent;
  /// kSurfaceExcluded: never entered (an area the filter excludes). Null: no surface costs.
  std::shared_ptr<const std::array<std::int32_t, 256>> surface;
  std::int32_t surface_min = 0;  ///< the lowest entry of `surface` (0 when none is negative)
  /// The profile cannot do something its class can besides the gate kinds (a smaller step, a
  /// shorter drop ...): its reachability Yes answers become Unknown(ProfileRestricted).
  bool restricts_class = false;

  static constexpr std::array<std::uint32_t, 16> default_kind_extra() {
    std::array<std::uint32_t, 16> k{};
    k[static_cast<int>(CellKind::Slow)] = 8 * 10000;
    k[static_cast<int>(CellKind::DangerFire)] = 8 * 10000;
    k[static_cast<int>(CellKind::DangerOther)] = 8 * 10000;
    k[static_cast<int>(CellKind::DamageFire)] = kCostImpassable;
    k[static_cast<int>(CellKind::DamageOther)] = kCostImpassable;
    k[static_cast<int>(CellKind::DoorClosed)] = kCostImpassable;
    k[static_cast<int>(CellKind::Climbable)] = kCostImpassable;
    return k;
  }
  /// The gate kinds (GateBits) this table lets a path enter.
  std::uint8_t gates() const {
    std::uint8_t g = 0;
    auto open = [&](CellKind k) { return kind_extra[static_cast<int>(k)] != kCostImpassable; };
    if (open(CellKind::DoorOpen)) g |= kGateDoorOpen;
    if (open(CellKind::DoorClosed)) g |= kGateDoorClosed;
    if (open(CellKind::Climbable)) g |= kGateClimb;
    if (open(CellKind::DamageFire)) g |= kGateFire;
    if (open(CellKind::DamageOther)) g |= kGateOther;
    return g;
  }
  friend bool operator==(const CostTable&, const CostTable&) = default;
};

struct SearchParams {
  CellPos start;
  CellPos goal;
  int goal_range = 0;                ///< goal reached within this many cells (Chebyshev per axis)
  std::uint32_t max_nodes = 200000;  ///< expansion budget
  int max_distance = 0;              ///< cells from the start (Chebyshev, x/z); 0 = unbounded
  bool partial = false;              ///< on failure, return the route to the closest node
  /// Door cells this search avoids: a Door move into one of them costs `avoid_cost` more (a door
  /// that stayed shut on the agent). Not owned; null for none.
  const std::vector<CellPos>* avoid = nullptr;
  std::uint32_t avoid_cost = 0;
  /// Flee (> 0): `goal` and `goal_range` are ignored; the search is a Dijkstra (no heuristic)
  /// that ends at the first cell it settles whose squared distance from `flee_from` (integer
  /// cell coordinates, 3D) is at least flee_distance^2: the cheapest such cell, ties broken by
  /// the search's fixed expansion order.
  int flee_distance = 0;
  CellPos flee_from;
  /// With `partial`, when the budget runs out: the route ends at the node the search would have
  /// expanded next (the open node of lowest f, the end of the most promising route so far: a
  /// stage toward a goal known to be reachable) instead of the explored node nearest the goal.
  bool stage = false;
};

enum class SearchOutcome : std::uint8_t { Found, Partial, NoPath, BudgetExhausted, BadStart };

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::NoPath;
  std::vector<CellPos> cells;      ///< start .. end, one per move
  std::vector<EdgeKind> kinds;  ///< kinds[i] is the edge entering cells[i] (Start for 0)
  std::uint32_t cost = 0;       ///< integer cost of the returned cells
  std::uint32_t expanded = 0;   ///< nodes expanded
};

/// Cost of one move (the edge entering `to_kind` cell by `code` in direction `dir`; dir kDirUp /
/// kDirDown for the vertical moves, the cardinal direction for a gap jump), or kCostImpassable.
inline std::uint32_t move_cost(const CostTable& t, int dir, int code, CellKind to_kind) {
  std::uint32_t c = dir >= 8 ? t.climb_cost : dir < 4 ? kCostStraight : kCostDiagonal;
  const MoveCode m = kMoveCodes[code];
  if (m.kind == EdgeKind::GapJump)
    c = static_cast<std::uint32_t>(gap_code_reach(code)) * kCostStraight +
        t.jump_extra;  // two or three cells along an axis, and the jump
  else if (m.kind == EdgeKind::Jump || (m.kind == EdgeKind::Climb && dir < 8 && m.dy > 0))
    c += t.jump_extra;
  else if (m.kind == EdgeKind::Drop)
    c += t.drop_extra * static_cast<std::uint32_t>(-m.dy);
  const std::uint32_t extra = t.kind_extra[static_cast<int>(to_kind) & 15];
  if (extra == kCostImpassable) return kCostImpassable;
  return c + extra;
}

/// Whether a profile stepping `step_q` and jumping `jump_q` (1/64 cell, at most its class's)
/// refuses a move of `kind` whose feet rise by `rise`: a rise above the step needs a Jump within
/// the jump (a gap jump also lands within it), except a StepUp over treads (a stair from its low
/// side), which rises by at most the class's step `class_step_q` at a time.
inline bool rise_refused(EdgeKind kind, int rise, int step_q, int jump_q, int class_step_q) {
  if (kind == EdgeKind::GapJump && rise > jump_q) return true;
  if (rise <= 0 || rise <= step_q) return false;
  if (kind == EdgeKind::StepUp) return step_q < class_step_q;
  return !(kind == EdgeKind::Jump && rise <= jump_q);
}

/// Octile distance in cost units (admissible: every move covers one horizontal cell).
inline std::uint32_t octile(int dx, int dz) {
  dx = dx < 0 ? -dx : dx;
  dz = dz < 0 ? -dz : dz;
  const int lo = dx < dz ? dx : dz, hi = dx < dz ? dz : dx;
  return static_cast<std::uint32_t>(lo) * kCostDiagonal +
         static_cast<std::uint32_t>(hi - lo) * kCostStraight;
}

/// One searcher: owns its arena (nodes, open list, per-chunk index blocks) and a NavChunk scratch
/// slot. Searchers with different slots may run concurrently on the same (unchanging) grid.
///
/// Expansion order: lowest f = g + h, then lowest h (prefers nodes nearer the goal on equal f),
/// then the most recently discovered node (node ids count discoveries; moves are generated in a
/// fixed direction order), so the order is fully deterministic on every platform. Successors
/// whose f equals the f being expanded go on a LIFO "fast stack" that is drained before the heap
/// (with a consistent heuristic their g is already final). The heap is an indexed 4-ary heap
/// with decrease-key: a node is in it at most once, so an improved node moves instead of leaving
/// a stale duplicate behind; the order is the same as that of a heap of duplicates.
class AStar {
 public:
  explicit AStar(int slot);
  ~AStar();
  AStar(const AStar&) = delete;
  AStar& operator=(const AStar&) = delete;
  SearchResult run(const NavGrid& grid, const SearchParams& p, const CostTable& costs);

 private:
  /// Per-search state of one reached cell: its best g so far (kInf: not reached; for an expanded
  /// cell its final g, which no later path undercuts) and its node id.
  struct Rec {
    std::uint32_t g;
    std::uint32_t id;
  };
  struct Node {            // 16 bytes
    std::uint32_t loc;     // record index: slab << 8 | (x + 16 z) in the chunk
    std::uint32_t parent;  // node id, kNone for the start
    std::uint32_t hpos;    // position in the heap, kNone when not in it
    std::uint32_t kind;    // EdgeKind entering the node
  };
  /// A chunk the search has touched, its slabs (one per layer of 16 x 16 cells) and its
  /// neighbours' blocks (nb_index order; kUnknown until first needed, kNone: no chunk).
  struct Block {
    NavChunk* ch;
    std::uint32_t slab[16];  // kNone: layer not touched yet
    std::uint32_t nb[27];
  };
  /// One layer of a touched chunk: 256 records and a copy of the layer's move words live at
  /// slab << 8 in recs_ / words_, so the cells a search works on sit together in memory.
  struct Slab {
    NavChunk* ch;
    std::uint32_t block;
    std::int32_t ly;         // layer in the chunk
    std::int32_t x0, y, z0;  // cell coordinates of the layer's cell 0
    std::uint32_t nb[9];     // same layer of the chunks around, (dx + 1) + 3 (dz + 1); kUnknown
  };
  /// A move code in one direction, for the current cost table.
  struct MoveInfo {
    std::uint32_t cost;  // kInf: refused by the profile (a drop deeper than max_drop)
    std::int16_t dxz;    // record offset inside a layer: dx + 16 dz
    std::int8_t dx, dy, dz;
    std::uint8_t kind;
  };
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  static constexpr std::uint32_t kInf = 0xFFFFFFFFu;
 public:
  /// The bounds that keep integer costs from wrapping: a path is not extended past kMaxG, no move
  /// costs more than kMaxMoveCost (kind extras and surface costs are clamped when compiled), and
  /// the heuristic is capped at kMaxH: kMaxG + kMaxMoveCost + kMaxH < kInf.
  static constexpr std::uint32_t kMaxG = 0xB0000000u;
  static constexpr std::uint32_t kMaxMoveCost = 1u << 27;
  static constexpr std::uint32_t kMaxH = 0x3FFFFFFFu;

 private:
  static constexpr std::uint32_t kUnknown = 0xFFFFFFFEu;

  std::uint32_t block_of(NavChunk* ch) {
    const NavChunk::SearchSlot& s = ch->slot[slot_];
    return s.stamp == stamp_ ? s.block : new_block(ch);
  }
  std::uint32_t new_block(NavChunk* ch);
  std::uint32_t slab_of(std::uint32_t block, int ly) {
    const std::uint32_t s = blocks_[block].slab[ly];
    return s != kNone ? s : new_slab(block, ly);
  }
  std::uint32_t new_slab(std::uint32_t block, int ly);
  /// The block of the chunk next to block b (k = nb_index), kNone when not loaded.
  std::uint32_t nb_block(std::uint32_t b, int k) {
    const std::uint32_t v = blocks_[b].nb[k];
    return v != kUnknown ? v : link_block(b, k);
  }
  std::uint32_t link_block(std::uint32_t b, int k);
  /// The slab of the same layer in the chunk next to slab s (k = (dx + 1) + 3 (dz + 1)).
  std::uint32_t nb_slab(std::uint32_t s, int k) {
    const std::uint32_t v = slabs_[s].nb[k];
    return v != kUnknown ? v : link_slab(s, k);
  }
  std::uint32_t link_slab(std::uint32_t s, int k);
  CellPos cell_of_loc(std::uint32_t loc) const {
    const Slab& s = slabs_[loc >> 8];
    const int i = static_cast<int>(loc & 255u);
    return CellPos{s.x0 + (i & 15), s.y, s.z0 + (i >> 4)};
  }
  void set_costs(const CostTable& costs);
  /// Grows the node, heap and fast stack arrays to hold n nodes, keeping the first `nodes`,
  /// `heap` and `fast` entries.
  void reserve_nodes(std::size_t n, std::size_t nodes, std::size_t heap, std::size_t fast);
  /// The heap's arrays: the key f << 32 | h (ordered as an unsigned number) and the node id (on
  /// equal keys the newer node, the higher id, comes first); kept in locals during a search.
  struct Heap {
    std::uint64_t* key;
    std::uint32_t* id;
    Node* nodes;
    std::size_t size;
  };
  static void heap_sift_up(Heap& h, std::size_t i, std::uint64_t key, std::uint32_t id);
  static std::uint32_t heap_pop(Heap& h, std::uint64_t& key);
  static void heap_remove(Heap& h, std::size_t i);

  int slot_;
  std::uint32_t stamp_ = 0;
  // Moves by (direction << 4 | code) for the cost table they were built for.
  MoveInfo moves_[128];
  MoveInfo vmoves_[2];  // straight up, straight down (costs without the target's kind extra)
  MoveInfo gmoves_[4 * kGapVariants];  // gap jumps by cardinal direction * kGapVariants + landing
  std::uint32_t kind_extra_[16];
  CostTable costs_;
  bool costs_set_ = false;
  // Nodes, heap and fast stack: raw arrays grown by reserve_nodes (capacity checks once per
  // expansion, not per successor).
  std::unique_ptr<Node[]> nodes_;
  std::unique_ptr<std::uint64_t[]> heap_key_;
  std::unique_ptr<std::uint32_t[]> heap_id_;
  std::unique_ptr<std::uint32_t[]> fast_;
  std::size_t cap_ = 0;
  std::vector<Block> blocks_;         // chunks touched by the current search
  std::vector<Slab> slabs_;           // layers touched by the current search
  std::vector<Rec> recs_;             // 256 per slab; every g = kInf between searches
  std::vector<std::uint32_t> words_;  // 256 per slab
};

}  // namespace voxnav::detail
