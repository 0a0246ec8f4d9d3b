// Layer 1: islands (strongly connected components of the layer 2 move graph) and reachability,
// kept up to date incrementally as edits change the move graph.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "engine/classify/nav_grid.h"

namespace voxnav::detail {

/// Scratch of Tarjan's algorithm (islands.cpp), kept between runs by its frequent callers.
struct TarjanScratch {
  std::vector<std::uint32_t> index, low, next_edge, stack, call;
};

/// One directed move between two cells (an edge of the layer 2 move graph).
struct CellEdge {
  CellPos from;
  CellPos to;
  /// Island labels (raw label + 1) of the endpoints before the edit when the caller knows them
  /// (cells of chunks classified again or dropped); 0 = read NavChunk::scc.
  std::uint32_t from_label = 0;
  std::uint32_t to_label = 0;
};

/// What one edit did to the move graph, cell by cell. Built by NavWorld from the cells whose
/// layer 0 / layer 2 data it recomputed (old state snapshotted before, new state read from the
/// grid). Removed nodes still carry their old island label in NavChunk::scc when this is applied.
struct IslandDelta {
  std::vector<CellPos> removed_nodes;            ///< cells that were standable and no longer are
  std::vector<std::uint32_t> removed_labels;  ///< their labels when known (else 0: read scc)
  std::vector<CellPos> added_nodes;              ///< cells that are standable now and were not
  std::vector<CellEdge> removed_edges;
  std::vector<CellEdge> added_edges;
  /// Gate cells that stay gate cells of another gate kind (a door opened or closed): their
  /// single-cell island only changes its kind.
  std::vector<CellPos> gate_changes;
  bool empty() const {
    return removed_nodes.empty() && added_nodes.empty() && removed_edges.empty() &&
           added_edges.empty() && gate_changes.empty();
  }
  void clear() {
    gate_changes.clear();
    removed_nodes.clear();
    removed_labels.clear();
    added_nodes.clear();
    removed_edges.clear();
    added_edges.clear();
  }
};

/// Counters of the incremental maintenance (for benchmarks and tests).
struct IslandStats {
  std::uint64_t deltas = 0;              ///< deltas applied
  std::uint64_t merges = 0;              ///< island unions caused by added moves
  std::uint64_t split_checks = 0;        ///< bounded searches run to prove an island still holds
  std::uint64_t rebuilds = 0;            ///< full recomputations (initial build, fallbacks, loads)
  std::uint64_t fallbacks = 0;           ///< deltas that needed a full recomputation
  /// Full recomputations made to renumber labels: dead labels (merged or emptied islands) had
  /// filled the room reserved at the last rebuild (Islands::label_limit_).
  std::uint64_t compactions = 0;
  std::uint64_t local_splits = 0;        ///< closed sides split off an island without recomputation
  std::uint64_t component_searches = 0;  ///< searches over local components (long detours)
  std::uint64_t components_built = 0;    ///< octants whose local components were computed
  /// Entries added to or dropped from the moves out of current octants' components (moves leaving
  /// an octant that an edit changed: the octant stays current instead of being recomputed).
  std::uint64_t out_patches = 0;
};

/// The islands' tables without their caches (engine/save writes and reads it): per raw label its
/// union-find parent, cell count, gate kind and DAG edges out (a CSR: label l's edges are
/// out[out_start[l] .. out_start[l + 1]), sorted by target); the cell labels live in
/// NavChunk::scc.
struct IslandTables {
  std::vector<std::uint32_t> parent, size;
  std::vector<std::uint8_t> gate;
  std::vector<std::uint32_t> out_start;
  std::vector<std::uint32_t> out_to, out_count;
  std::uint64_t cells = 0, live = 0, label_limit = 0;
};

/// Strongly connected components over every node cell and its moves, and the condensation
/// (a DAG of one-way moves such as drops) between them. Gate cells (doors, ladders, damage cells:
/// kind_gate) are islands of one cell each that never merge with anything, so the condensation
/// holds cycles only through gate islands, and reachability can leave out the gate kinds a
/// profile cannot use (Islands::reaches with a mask): a door never merges the rooms it joins.
/// Answers "can a body of the class get from a to b" exactly: same island -> yes; otherwise a
/// reachability set over the DAG, cached per source island until the DAG changes.
///
/// Incremental maintenance (apply): island ids are union-find sets over raw labels stored per
/// cell, so a merge relabels no cell. An added move between two islands adds a DAG edge (moves
/// are counted per island pair), and when the target already reaches the source the islands on
/// that cycle are united. Removed moves inside an island may split it. Their endpoints are the
/// witnesses: when every endpoint still reaches one hub endpoint and is reached from it, every
/// pair of cells of the island still is (substitute a detour for each broken move of an old
/// path). A short goal-directed search over cells settles most pairs; a long detour is found over
/// local components (LocalComponents: the strongly connected components of each 8x8x8 octant,
/// cached per octant and marked stale by the edits that change its members or the moves inside
/// it; an edit that changes only moves leaving an octant patches its components' moves out
/// instead), whose paths are
/// paths of cells. When a pair has no path, one side of it is closed under moves (what the
/// endpoint reaches, or what reaches it) and is usually small: a bounded search enumerates it,
/// Tarjan's algorithm labels its components, the DAG counts of its border moves move to the new
/// labels, and the border cells join the witnesses of the rest. Only when both sides exceed the
/// search budget are the components recomputed from scratch. Proofs may use moves the edit added
/// (they are moves of the graph now): every island they keep whole is strongly connected, and the
/// added moves then unite islands on cycles exactly as above.
class Islands {
 public:
  /// Recomputes every component from the grid's move words (writes NavChunk::scc labels). Marks
  /// every chunk's local components stale (the grid may have changed anywhere).
  void rebuild(NavGrid& grid);
  /// rebuild() for a grid whose moves did not change since the last rebuild() or apply(): keeps
  /// the local components (benchmarks compare the incremental maintenance with it).
  void recompute(NavGrid& grid);
  /// The tables (see IslandTables), for saving.
  void save_tables(IslandTables& t) const;
  /// Installs saved tables over a grid whose NavChunk::scc planes hold the saved cell labels (the
  /// caller validated both: parents form a forest, every index is below the label count). The
  /// local components are left stale: computed when a proof first needs them.
  void restore_tables(IslandTables t);
  /// Applies one edit's delta to the components; falls back to rebuild() when a split cannot be
  /// excluded. Returns true when some reachability answer may have changed (nodes appeared or
  /// vanished, islands merged or split, a DAG edge appeared or vanished).
  bool apply(NavGrid& grid, const IslandDelta& d);

  /// Island id of a cell (>= 1), or 0 when the cell is not standable / not built.
  std::uint32_t component(const NavGrid& grid, CellPos c);
  std::uint32_t component_at(const NavChunk* ch, int i) {
    const std::uint32_t raw = (ch->uniform || !ch->scc) ? 0u : ch->scc[i];
    return raw ? find(raw - 1) + 1 : 0u;
  }
  /// Whether island a reaches island b (ids from component()) through islands that are not gate
  /// cells or whose gate kind is in `gates` (GateBits). Not thread-safe (caches the last two masks
  /// per source island).
  bool reaches(std::uint32_t a, std::uint32_t b, std::uint8_t gates = kGateAll);
  /// Gate kind of island a (0 for an ordinary island).
  std::uint8_t gate_of(std::uint32_t a) const { return a ? gate_[a - 1] : 0; }
  /// Gate kinds of every live gate island (a profile missing none of them answers as the class).
  std::uint8_t gates_present() const;
  /// Live islands (components with at least one cell).
  std::size_t component_count() const { return live_; }
  /// Island ids are below id_bound() + 1; size_of() is 0 for ids that are not live islands.
  std::uint32_t id_bound() const { return static_cast<std::uint32_t>(parent_.size()); }
  std::size_t cell_count() const { return cells_; }
  /// The label count past which apply() compacts by recomputing (see label_limit_).
  std::size_t label_limit() const { return label_limit_; }
  /// Labels one apply() may add past label_limit() without moving the per-label vectors.
  static constexpr std::size_t kApplyLabelMargin = 4096;
  /// Cells of island a (an id from component()); 0 when a is not a live island.
  std::uint32_t size_of(std::uint32_t a) const {
    return (a == 0 || a > parent_.size() || parent_[a - 1] != a - 1) ? 0u : size_[a - 1];
  }
  const IslandStats& stats() const { return stats_; }
  /// The generation a current LocalComponents carries in `gen` (tests check caches against it).
  std::uint64_t components_generation() const { return comps_gen_; }
  /// Computes now the local components of every stale octant of the grid (tests use it so that
  /// the next edits meet current octants, whose moves out they patch). Returns how many.
  std::size_t refresh_components(NavGrid& grid);

 public:
  struct DagEdge {
    std::uint32_t to;     // a root
    std::uint32_t count;  // cell moves behind this edge (> 0)
  };

 private:
  std::uint32_t find(std::uint32_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  std::uint32_t label_of(const NavGrid& grid, CellPos c) const;  // raw label + 1, 0 = none
  std::uint32_t new_label();
  /// Adds / removes one cell move from island ra to island rb (roots, ra != rb). Returns true
  /// when the DAG edge ra -> rb appeared / vanished.
  bool dag_inc(std::uint32_t ra, std::uint32_t rb);
  bool dag_add(std::uint32_t ra, std::uint32_t rb, std::uint32_t count);
  bool dag_dec(std::uint32_t ra, std::uint32_t rb);
  /// Unites every island on a DAG path from `from` to `to` (roots; `to` -> `from` was just added).
  /// Returns false when `from` does not reach `to`.
  bool merge_cycle(std::uint32_t from, std::uint32_t to);
  // Bounded searches in one island after an edit (see apply()).
  struct Search {
    bool found_all = false;  ///< every target was reached
    bool closed = false;     ///< the search ran out of cells: queue_ is a closed set
  };
  Search search(const NavGrid& grid, const CellPos& from, std::uint32_t root, bool backward,
                const std::vector<CellPos>& targets, std::size_t budget);
  template <class F>
  void for_each_h_move(const NavGrid& grid, const CellPos& c, std::uint32_t root, bool backward,
                       F&& f);
  /// Gives the closed set in queue_ its own components; updates sizes, DAG counts, endpoints.
  bool split_off(NavGrid& grid, std::uint32_t root, std::vector<CellPos>& endpoints);
  /// Proves island `root` still strongly connected, splitting off small closed sides; false
  /// when the budget ran out (the caller recomputes everything).
  bool settle_island(NavGrid& grid, std::uint32_t root, std::vector<CellPos>& endpoints);
  /// A bounded goal-directed search over H: does some cell of `from` reach some cell of `to`?
  bool directed(const NavGrid& grid, const std::vector<CellPos>& from, const std::vector<CellPos>& to,
                std::uint32_t root, std::size_t budget);
  /// A local component: octant `octant` of chunk `ch`, its component `component` (kNone: none).
  struct ComponentNode {
    NavChunk* ch = nullptr;
    std::uint16_t octant = 0;
    std::uint16_t component = LocalComponents::kNone;
    std::uint32_t parent = 0;  // in a search: the index of the node it was reached from
  };
  /// The local component of a cell (component kNone when it has none).
  ComponentNode component_node(const NavGrid& grid, const CellPos& c);
  /// A bounded greedy best-first search over the local components (LocalComponents) of island
  /// `root`, on the moves of the grid now, toward cell `toward`: does a component of `from` reach
  /// one of `to`? A path over components is a path over cells. On success the components of the
  /// path found (its first and last included) are appended to `path`. False when none was found
  /// within `budget` components.
  bool component_reach(const std::vector<ComponentNode>& from, const std::vector<ComponentNode>& to,
                       const CellPos& toward, std::uint32_t root, std::size_t budget,
                       std::vector<ComponentNode>& path);
  /// The local components of octant `o` of a chunk, computed first when stale.
  LocalComponents& components(NavChunk* ch, int o) {
    if (ch->comps && (*ch->comps)[static_cast<std::size_t>(o)].gen == comps_gen_)
      return (*ch->comps)[static_cast<std::size_t>(o)];
    return compute_components(ch, o);
  }
  LocalComponents& compute_components(NavChunk* ch, int o);
  /// Marks stale the local components of the octants whose members or inner moves the delta
  /// changes; patches the moves out of the components whose moves leaving their octant it
  /// changes (their octants stay current).
  void mark_stale(const NavGrid& grid, const IslandDelta& d);
  /// Adds (added) or drops the entry of the move from -> to, which leaves octant `o` of `ch`, in
  /// the moves out of the component of `from`: dropped only when no other member of it still
  /// moves into `to`. The octant must be current.
  void patch_out(NavChunk* ch, int o, const CellPos& from, const CellPos& to, bool added);
  struct OutPatch {  // mark_stale(): a move leaving a current octant that the delta changes
    NavChunk* ch;
    std::uint16_t octant;
    CellPos from, to;
    bool added;
  };
  std::vector<OutPatch> out_patches_;

  bool is_added(const CellPos& from, const CellPos& to) const;
  std::int32_t seen_find(const CellPos& c) const;
  bool seen_insert(const CellPos& c, std::uint32_t val);
  void new_stamp(std::size_t budget);
  static constexpr std::size_t kShortBudget = 96;      // a detour over cells
  static constexpr std::size_t kShortClosedSide = 48;  // the first closed side tried
  static constexpr std::size_t kSearchBudget = 4096;
  static constexpr std::size_t kComponentBudget = 65536;  // local components per search
  static constexpr std::size_t kDetourBudget = 1024;      // ... before a 768-cell closed side
  static constexpr std::size_t kWideBudget = 16384;       // the biggest closed side enumerated
  static constexpr std::size_t kSeenTable = 65536;        // open addressing, load <= 1/4
  void invalidate_reach() { ++dag_gen_; }

  std::vector<std::uint32_t> parent_;  // union-find over raw labels
  std::vector<std::uint32_t> size_;    // per root: cells
  // The condensation between roots: out_ sorted by target with move counts, in_ the sorted set
  // of sources; both kept exact through merges and splits.
  std::vector<std::vector<DagEdge>> out_;
  std::vector<std::vector<std::uint32_t>> in_;
  struct ReachEntry {
    std::uint64_t gen = 0;
    std::uint8_t gates = 0;
    std::vector<std::uint64_t> bits;  // over raw labels, set for roots reached
  };
  std::vector<std::array<ReachEntry, 2>> reach_cache_;  // per root, the last two gate masks
  std::vector<std::uint8_t> gate_;                      // per raw label: GateBits of a gate cell
  std::size_t reach_cache_bits_ = 0;
  static constexpr std::size_t kReachCacheBits = std::size_t(1) << 28;  // 32 MiB
  std::uint64_t dag_gen_ = 1;
  std::size_t cells_ = 0;
  std::size_t live_ = 0;
  /// Labels are never reused between rebuilds (a merge or an emptied island leaves a dead one), so
  /// a long run of edits would grow every per-label vector without bound. Once parent_ holds more
  /// labels than this (the room reserved at the last rebuild, less kApplyLabelMargin), apply()
  /// recomputes, which renumbers the live labels from 0: memory stays bounded by that room.
  std::size_t label_limit_ = 0;
  IslandStats stats_;
  // Scratch of the bounded searches (open addressing over cell keys, stamped).
  std::vector<std::uint64_t> seen_key_;
  std::vector<std::uint32_t> seen_stamp_;
  std::vector<std::uint32_t> seen_val_;
  std::vector<std::pair<std::uint64_t, CellPos>>
      added_from_;                  // added moves of the delta, by source key
  CellPos added_min_{}, added_max_{};  // the box of their sources
  std::uint32_t stamp_ = 0;
  std::vector<CellPos> queue_;
  std::vector<std::uint64_t> heap_;
  std::vector<std::pair<NavChunk*, int>> qchunk_;  // chunk and index of queue_'s cells (directed)
  std::size_t seen_mask_ = 255;
  std::vector<std::uint64_t> directed_targets_;  // cell keys of directed()'s targets, sorted
  std::vector<std::uint64_t> target_keys_;       // cell keys of search()'s targets, sorted
  // Local components: their generation (rebuild() makes every chunk's stale), the search stamp,
  // the search's nodes and the scratch of their computation.
  std::uint64_t comps_gen_ = 1;
  std::uint32_t comp_stamp_ = 0;
  std::vector<ComponentNode> comp_nodes_;
  /// component_reach()'s moves out of the component it expands, resolved in stages.
  struct CompMove {
    enum What : std::uint8_t { kNothing, kComponent, kCellOfOctant, kPendingCell };
    NavChunk* ch;
    std::uint16_t octant;
    std::uint16_t
        id;  ///< kComponent: the component; kCellOfOctant: index_in_octant; kPending: cell
    What what;
  };
  std::vector<CompMove> comp_moves_;
  /// Proves endpoints joined to the hub (endpoints[0]) over the moves of H among the endpoints
  /// and the cells one move away from them: sets bit 0 of done[k] when the hub reaches
  /// endpoints[k], bit 1 when it reaches the hub. True when every endpoint got both.
  bool neighbourhood_proof(const NavGrid& grid, std::uint32_t root,
                           const std::vector<CellPos>& endpoints, std::vector<std::uint8_t>& done);
  std::array<CellPos, 64> hood_cell_{};
  std::array<std::uint64_t, 64> hood_adj_{};
  std::array<std::pair<NavChunk*, int>, 64> hood_at_{};
  std::array<std::uint64_t, 256> hood_key_{};
  std::array<std::uint32_t, 256> hood_slot_stamp_{};
  std::array<std::uint8_t, 256> hood_val_{};
  std::uint32_t hood_stamp_ = 0;
  struct SettleScratch {  // settle_island()'s vectors, kept between calls
    std::vector<CellPos> uniq, reached, reaching, one;
    std::vector<std::uint8_t> done;
    std::vector<ComponentNode> comp_reached, comp_reaching, comp_one;
  } settle_;
  std::vector<std::uint64_t> comp_targets_;
  std::vector<std::uint32_t> comp_start_, comp_edges_, comp_ids_, comp_cross_start_, comp_cross_;
  std::vector<std::uint32_t> comp_order_, comp_by_comp_, comp_mark_;
  std::vector<std::uint16_t> comp_cells_;
  TarjanScratch tarjan_;
  // Scratch of merge_cycle's DFS over the DAG (indexed by root, reset after each use).
  std::vector<std::uint8_t> dfs_state_;
  std::vector<std::size_t> dfs_next_;
  std::vector<std::uint32_t> dfs_order_, dfs_stack_, dfs_back_;
  static constexpr std::size_t kBackBudget =
      256;  // islands reaching `to` that merge_cycle keeps to
};

/// Iterates the moves of a node cell: calls f(target_chunk, target_index, target_cell, dir, code)
/// for every move in its move word, then for its vertical moves (dir kDirUp / kDirDown, code
/// kCodeVertUp / kCodeVertDown), then for its gap jumps (dir the cardinal direction, code
/// kGapCode[v] for landing v; the target is kGapCells[v] + 1 cells along dir, kGapDy[v] rows up).
template <class F>
inline void for_each_move(NavChunk* ch, int i, const CellPos& c, F&& f) {
  const std::uint32_t word = ch->moves_at(i);
  if (!word && !ch->vmoves && !ch->gaps) return;
  const int lx = c.x & 15, ly = c.y & 15, lz = c.z & 15;
  // Fast path: the target stays inside this chunk (most moves), so its index is an offset.
  const bool inner_xz = static_cast<unsigned>(lx - 1) < 14u && static_cast<unsigned>(lz - 1) < 14u;
  for (int dir = 0; dir < 8; ++dir) {
    const int code = move_code(word, dir);
    if (!code) continue;
    const int dy = kMoveCodes[code].dy;
    int ti;
    NavChunk* tc;
    if (inner_xz && static_cast<unsigned>(ly + dy) < 16u) {
      tc = ch;
      ti = i + kDirDx[dir] + 16 * kDirDz[dir] + 256 * dy;
    } else {
      tc = step_chunk(ch, lx + kDirDx[dir], ly + dy, lz + kDirDz[dir], ti);
      if (!tc) continue;
    }
    f(tc, ti, CellPos{c.x + kDirDx[dir], c.y + dy, c.z + kDirDz[dir]}, dir, code);
  }
  if (const std::uint8_t vm = ch->vmoves_at(i)) {
    int ti;
    if (vm & kMoveUp)
      if (NavChunk* tc = step_chunk(ch, lx, ly + 1, lz, ti))
        f(tc, ti, CellPos{c.x, c.y + 1, c.z}, kDirUp, kCodeVertUp);
    if (vm & kMoveDown)
      if (NavChunk* tc = step_chunk(ch, lx, ly - 1, lz, ti))
        f(tc, ti, CellPos{c.x, c.y - 1, c.z}, kDirDown, kCodeVertDown);
  }
  if (const GapWord gm = ch->gaps_at(i)) {
    for (int d = 0; d < 4; ++d)
      for (int v = 0; v < kGapVariants; ++v) {
        if (!(gm & (kGapBit[v] << d))) continue;
        const int r = kGapCells[v] + 1, dx = r * kDirDx[d], dz = r * kDirDz[d], dy = kGapDy[v];
        int ti;
        if (NavChunk* tc = step_chunk(ch, lx + dx, ly + dy, lz + dz, ti))
          f(tc, ti, CellPos{c.x + dx, c.y + dy, c.z + dz}, d, kGapCode[v]);
      }
  }
}

/// Iterates the moves into a cell: calls f(source_chunk, source_index, source_cell) for every node
/// cell with a move landing on `c` (the reverse of for_each_move, by probing every direction and
/// every rise of the move codes, then the cells straight below and above for vertical moves).
template <class F>
inline void for_each_move_into(const NavGrid& grid, const CellPos& c, F&& f) {
  NavChunk* ch = grid.chunk(chunk_of(c));
  if (!ch) return;
  const int lx = c.x & 15, ly = c.y & 15, lz = c.z & 15;
  for (int dir = 0; dir < 8; ++dir) {
    for (int dy = 1; dy >= -7; --dy) {
      int si;
      NavChunk* sc = step_chunk(ch, lx - kDirDx[dir], ly - dy, lz - kDirDz[dir], si);
      if (!sc) continue;
      const int code = move_code(sc->moves_at(si), dir);
      if (code && kMoveCodes[code].dy == dy)
        f(sc, si, CellPos{c.x - kDirDx[dir], c.y - dy, c.z - kDirDz[dir]});
    }
  }
  int si;
  if (NavChunk* sc = step_chunk(ch, lx, ly - 1, lz, si); sc && (sc->vmoves_at(si) & kMoveUp))
    f(sc, si, CellPos{c.x, c.y - 1, c.z});
  if (NavChunk* sc = step_chunk(ch, lx, ly + 1, lz, si); sc && (sc->vmoves_at(si) & kMoveDown))
    f(sc, si, CellPos{c.x, c.y + 1, c.z});
  for (int d = 0; d < 4; ++d)
    for (int v = 0; v < kGapVariants; ++v) {
      const int r = kGapCells[v] + 1, dx = r * kDirDx[d], dz = r * kDirDz[d], dy = kGapDy[v];
      NavChunk* sc = step_chunk(ch, lx - dx, ly - dy, lz - dz, si);
      if (sc && (sc->gaps_at(si) & (kGapBit[v] << d)))
        f(sc, si, CellPos{c.x - dx, c.y - dy, c.z - dz});
    }
}

inline CellPos cell_of(const NavChunk* ch, int i) {
  return CellPos{ch->pos.x * 16 + (i & 15), ch->pos.y * 16 + (i >> 8),
              ch->pos.z * 16 + ((i >> 4) & 15)};
}

}  // namespace voxnav::detail
