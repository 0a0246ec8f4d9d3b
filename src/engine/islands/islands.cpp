#include "engine/islands/islands.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>

namespace voxnav::detail {

namespace {
/// A hint that `p` will be read soon (no effect where the compiler has no prefetch, e.g. wasm).
inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

/// Tarjan's strongly connected components, iterative, over a graph in CSR form (the successors
/// of v are edges[start[v] .. start[v + 1])). Writes comp[v] and returns the component count;
/// components come out in reverse topological order.
std::uint32_t strongly_connected(const std::vector<std::uint32_t>& start,
                                 const std::vector<std::uint32_t>& edges,
                                 std::vector<std::uint32_t>& comp, TarjanScratch& t) {
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  const auto n = static_cast<std::uint32_t>(start.size() - 1);
  std::vector<std::uint32_t>&index = t.index, &low = t.low, &stack = t.stack, &call = t.call,
  &next_edge = t.next_edge;
  index.assign(n, kNone);
  low.assign(n, 0);
  next_edge.assign(n, 0);
  stack.clear();
  call.clear();
  comp.assign(n, kNone);
  std::uint32_t counter = 0, ncomp = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    call.push_back(root);
    index[root] = low[root] = counter++;
    next_edge[root] = start[root];
    stack.push_back(root);
    while (!call.empty()) {
      const std::uint32_t v = call.back();
      if (next_edge[v] < start[v + 1]) {
        const std::uint32_t w = edges[next_edge[v]++];
        if (index[w] == kNone) {
          index[w] = low[w] = counter++;
          next_edge[w] = start[w];
          stack.push_back(w);
          call.push_back(w);
        } else if (comp[w] == kNone) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      call.pop_back();
      if (!call.empty()) low[call.back()] = std::min(low[call.back()], low[v]);
      if (low[v] == index[v]) {
        std::uint32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          comp[w] = ncomp;
        } while (w != v);
        ++ncomp;
      }
    }
  }
  return ncomp;
}

std::uint32_t strongly_connected(const std::vector<std::uint32_t>& start,
                                 const std::vector<std::uint32_t>& edges,
                                 std::vector<std::uint32_t>& comp) {
  TarjanScratch t;
  return strongly_connected(start, edges, comp, t);
}

/// The member cells (node cells that are not gate cells) among 8 consecutive kind bytes, as the
/// high bit of each member's byte (SWAR). Members are Walkable (2) and the kinds from DangerFire
/// (9) up; the kinds are below 128, so adding 0x77 to a byte sets its high bit exactly when it is 9
/// or more, and ((b ^ 2) & 0x7F) + 0x7F sets it exactly when b is not 2.
inline std::uint64_t member_bytes8(const std::uint8_t* kinds) {
  static_assert(int(CellKind::Walkable) == 2 && int(CellKind::DangerFire) == 9 &&
                int(CellKind::DangerOther) == 10 && int(CellKind::Slow) == 11);
  std::uint64_t w;
  std::memcpy(&w, kinds, 8);
  constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full, kHigh = 0x8080808080808080ull;
  const std::uint64_t ge9 = (w + 0x7777777777777777ull) & kHigh;
  const std::uint64_t x = w ^ 0x0202020202020202ull;
  const std::uint64_t not2 = (((x & kLow7) + kLow7) | x) & kHigh;
  return ge9 | (~not2 & kHigh);
}

/// The moves of member cell `i` of octant `o` of a chunk (for_each_move in the octant's terms, for
/// the local components): calls inner(index_in_octant of the target) for a move that stays in the
/// octant, and cross(nb_index << 12 | target index in that chunk) for one that leaves it into a
/// loaded chunk (a move into an unloaded chunk is no move, as in step_chunk). The moves come in
/// for_each_move's order: the eight directions, up, down, then the gap jumps.
template <class Inner, class Cross>
inline void for_each_octant_move(const NavChunk* ch, int o, int i, Inner&& inner, Cross&& cross) {
  const int ox = (o & 1) * 8, oz = ((o >> 1) & 1) * 8, oy = (o >> 2) * 8;
  const int lx = i & 15, ly = i >> 8, lz = (i >> 4) & 15;
  auto target = [&](int tx, int ty, int tz) {
    if (static_cast<unsigned>(tx - ox) < 8u && static_cast<unsigned>(ty - oy) < 8u &&
        static_cast<unsigned>(tz - oz) < 8u) {
      inner((tx - ox) | (tz - oz) << 3 | (ty - oy) << 6);
      return;
    }
    const int nb = nb_index(tx < 0 ? -1 : (tx > 15 ? 1 : 0), ty < 0 ? -1 : (ty > 15 ? 1 : 0),
                            tz < 0 ? -1 : (tz > 15 ? 1 : 0));
    if (nb != 13 && !ch->nb[static_cast<std::size_t>(nb)]) return;
    cross(static_cast<std::uint32_t>(nb) << 12 |
          static_cast<std::uint32_t>((tx & 15) | (tz & 15) << 4 | (ty & 15) << 8));
  };
  for (std::uint32_t word = ch->moves[i]; word;) {
    const int dir = std::countr_zero(word) >> 2;
    const int code = move_code(word, dir);
    word &= ~(std::uint32_t{15} << (4 * dir));
    target(lx + kDirDx[dir], ly + kMoveCodes[code].dy, lz + kDirDz[dir]);
  }
  if (const std::uint8_t vm = ch->vmoves_at(i)) {
    if (vm & kMoveUp) target(lx, ly + 1, lz);
    if (vm & kMoveDown) target(lx, ly - 1, lz);
  }
  if (const GapWord gm = ch->gaps_at(i)) {
    for (int d = 0; d < 4; ++d)
      for (int v = 0; v < kGapVariants; ++v)
        if (gm & (kGapBit[v] << d))
          target(lx + (kGapCells[v] + 1) * kDirDx[d], ly + kGapDy[v], lz + (kGapCells[v] + 1) * kDirDz[d]);
  }
}

/// Whether node cell `i` of a chunk has a move to the cell (dx, dy, dz) away from it: a move of
/// its move word, a vertical move or a gap jump (for_each_move's moves, looked up directly).
inline bool has_move(const NavChunk* ch, int i, int dx, int dy, int dz) {
  if (dx == 0 && dz == 0) {
    const std::uint8_t vm = ch->vmoves_at(i);
    return (dy == 1 && (vm & kMoveUp)) || (dy == -1 && (vm & kMoveDown));
  }
  if (std::abs(dx) <= 1 && std::abs(dz) <= 1) {
    for (int dir = 0; dir < 8; ++dir)
      if (kDirDx[dir] == dx && kDirDz[dir] == dz) {
        const int code = move_code(ch->moves[i], dir);
        return code != 0 && kMoveCodes[code].dy == dy;
      }
    return false;
  }
  if (dx != 0 && dz != 0) return false;
  for (int d = 0; d < 4; ++d)
    for (int v = 0; v < kGapVariants; ++v) {
      const int r = kGapCells[v] + 1;
      if (r * kDirDx[d] == dx && r * kDirDz[d] == dz && kGapDy[v] == dy)
        return (ch->gaps_at(i) & (kGapBit[v] << d)) != 0;
    }
  return false;
}

}  // namespace

std::uint32_t Islands::label_of(const NavGrid& grid, CellPos c) const {
  const NavChunk* ch = grid.chunk(chunk_of(c));
  if (!ch || ch->uniform || !ch->scc) return 0;
  return ch->scc[index_in_chunk(c)];
}

std::uint32_t Islands::component(const NavGrid& grid, CellPos c) {
  const std::uint32_t raw = label_of(grid, c);
  return raw ? find(raw - 1) + 1 : 0u;
}

void Islands::rebuild(NavGrid& grid) {
  ++comps_gen_;
  recompute(grid);
  // The local components of every octant, so that the first proofs after a load do not pay for
  // them (edits make a few stale at a time; proofs recompute those they meet).
  for (NavChunk* ch : grid.ordered_chunks())
    if (!ch->uniform && ch->nodes)
      for (int o = 0; o < 8; ++o) components(ch, o);
  new_stamp(0);  // the bounded searches' tables (1.5 MiB): allocated here, not in a first edit
}

void Islands::recompute(NavGrid& grid) {
  // 1. Dense ids for node cells (chunk_key order, then cell index): stored as id + 1 in scc.
  struct NodeRef {
    NavChunk* ch;
    std::uint16_t i;
  };
  std::vector<NodeRef> nodes;
  std::vector<std::uint8_t> node_gate;
  bool any_gate = false;
  for (NavChunk* ch : grid.ordered_chunks()) {
    if (ch->uniform || ch->nodes == 0) {
      ch->scc.reset();
      continue;
    }
    ch->scc.create();  // every label 0, rows without a node store none
    for (int i = 0; i < kChunkCells; ++i) {
      const std::uint8_t* kinds = ch->kind.row(i >> 8);
      if (!kinds) {  // a row of one kind
        if (!kind_node(static_cast<CellKind>(ch->kind.fill(i >> 8)))) {
          i |= 255;
          continue;
        }
      } else if ((i & 7) == 0 && !any_node8(kinds + (i & 255))) {  // 8 cells of air or rock
        i += 7;
        continue;
      }
      if (kind_node(static_cast<CellKind>(ch->kind[i]))) {
        nodes.push_back({ch, static_cast<std::uint16_t>(i)});
        const std::uint8_t g = kind_gate(static_cast<CellKind>(ch->kind[i]));
        node_gate.push_back(g);
        any_gate |= g != 0;
        ch->scc.set(i, static_cast<std::uint32_t>(nodes.size()));
      }
    }
  }
  const std::uint32_t n = static_cast<std::uint32_t>(nodes.size());
  cells_ = n;

  // Successors of a dense node, computed once into CSR (move words are the truth).
  std::vector<std::uint32_t> start(n + 1, 0), edges;
  edges.reserve(std::size_t(n) * 4);
  for (std::uint32_t v = 0; v < n; ++v) {
    start[v] = static_cast<std::uint32_t>(edges.size());
    const NodeRef r = nodes[v];
    for_each_move(r.ch, r.i, cell_of(r.ch, r.i), [&](NavChunk* tc, int ti, const CellPos&, int, int) {
      if (tc->scc && tc->scc[ti]) edges.push_back(tc->scc[ti] - 1);
    });
  }
  start[n] = static_cast<std::uint32_t>(edges.size());

  // 2. Tarjan, iterative, without the moves into and out of gate cells (they stay single-cell
  //    islands).
  std::vector<std::uint32_t> comp;
  std::uint32_t ncomp;
  if (any_gate) {
    std::vector<std::uint32_t> tstart(n + 1, 0), tedges;
    tedges.reserve(edges.size());
    for (std::uint32_t v = 0; v < n; ++v) {
      tstart[v] = static_cast<std::uint32_t>(tedges.size());
      if (node_gate[v]) continue;
      for (std::uint32_t e = start[v]; e < start[v + 1]; ++e)
        if (!node_gate[edges[e]]) tedges.push_back(edges[e]);
    }
    tstart[n] = static_cast<std::uint32_t>(tedges.size());
    ncomp = strongly_connected(tstart, tedges, comp);
  } else {
    ncomp = strongly_connected(start, edges, comp);
  }

  // 3. Labels, sizes and the condensation with a move count per island pair.
  parent_.resize(ncomp);
  std::iota(parent_.begin(), parent_.end(), 0u);
  size_.assign(ncomp, 0);
  gate_.assign(ncomp, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    ++size_[comp[v]];
    gate_[comp[v]] = node_gate[v];
  }
  std::vector<std::uint64_t> pairs;
  for (std::uint32_t v = 0; v < n; ++v)
    for (std::uint32_t e = start[v]; e < start[v + 1]; ++e)
      if (comp[v] != comp[edges[e]])
        pairs.push_back((std::uint64_t(comp[v]) << 32) | comp[edges[e]]);
  std::sort(pairs.begin(), pairs.end());
  out_.assign(ncomp, {});
  in_.assign(ncomp, {});
  for (std::size_t k = 0; k < pairs.size();) {
    std::size_t e = k;
    while (e < pairs.size() && pairs[e] == pairs[k]) ++e;
    const auto a = static_cast<std::uint32_t>(pairs[k] >> 32),
               b = static_cast<std::uint32_t>(pairs[k]);
    out_[a].push_back({b, static_cast<std::uint32_t>(e - k)});  // sorted: pairs are
    in_[b].push_back(a);                                        // sorted by (a, b)
    k = e;
  }
  live_ = ncomp;
  for (std::uint32_t v = 0; v < n; ++v) nodes[v].ch->scc.set(nodes[v].i, comp[v] + 1);
  // The reach cache grows with the first query of each root (reaches()): most roots are never
  // asked about, and its 80 bytes a label would be a third of the per-label room below.
  std::vector<std::array<ReachEntry, 2>>().swap(reach_cache_);
  // Room for the labels edits add (new nodes, split-off sides) without moving every per-label
  // vector at a growth step in the middle of an edit.
  const std::size_t room = std::size_t(ncomp) + std::max<std::size_t>(ncomp / 2, 16384);
  label_limit_ = room - kApplyLabelMargin;
  for (auto* v : {&parent_, &size_}) v->reserve(room);
  out_.reserve(room);
  in_.reserve(room);
  gate_.reserve(room);
  reach_cache_bits_ = 0;
  invalidate_reach();
  ++stats_.rebuilds;
}

void Islands::save_tables(IslandTables& t) const {
  const std::size_t n = parent_.size();
  t.parent = parent_;
  t.size = size_;
  t.gate = gate_;
  t.out_start.assign(n + 1, 0);
  t.out_to.clear();
  t.out_count.clear();
  for (std::size_t l = 0; l < n; ++l) {
    t.out_start[l] = static_cast<std::uint32_t>(t.out_to.size());
    for (const DagEdge& e : out_[l]) {
      t.out_to.push_back(e.to);
      t.out_count.push_back(e.count);
    }
  }
  t.out_start[n] = static_cast<std::uint32_t>(t.out_to.size());
  t.cells = cells_;
  t.live = live_;
  t.label_limit = label_limit_;
}

void Islands::restore_tables(IslandTables t) {
  const std::size_t n = t.parent.size();
  const std::size_t room = std::max<std::size_t>(n, t.label_limit + kApplyLabelMargin);
  parent_ = std::move(t.parent);
  size_ = std::move(t.size);
  gate_ = std::move(t.gate);
  out_.assign(n, {});
  in_.assign(n, {});
  for (std::size_t l = 0; l < n; ++l) {  // ascending sources: every in_ list comes out sorted
    const std::uint32_t b = t.out_start[l], e = t.out_start[l + 1];
    out_[l].reserve(e - b);
    for (std::uint32_t k = b; k < e; ++k) {
      out_[l].push_back({t.out_to[k], t.out_count[k]});
      in_[t.out_to[k]].push_back(static_cast<std::uint32_t>(l));
    }
  }
  cells_ = static_cast<std::size_t>(t.cells);
  live_ = static_cast<std::size_t>(t.live);
  label_limit_ = static_cast<std::size_t>(t.label_limit);
  std::vector<std::array<ReachEntry, 2>>().swap(reach_cache_);  // grown by reaches()
  for (auto* v : {&parent_, &size_}) v->reserve(room);
  out_.reserve(room);
  in_.reserve(room);
  gate_.reserve(room);
  reach_cache_bits_ = 0;
  invalidate_reach();
  ++comps_gen_;  // every octant's local components are stale (computed when needed)
  new_stamp(0);  // the bounded searches' tables, as rebuild() allocates them
}

std::uint32_t Islands::new_label() {
  invalidate_reach();
  const auto l = static_cast<std::uint32_t>(parent_.size());
  parent_.push_back(l);
  size_.push_back(0);
  out_.emplace_back();
  in_.emplace_back();
  gate_.push_back(0);
  return l;
}

namespace {
auto edge_at(std::vector<Islands::DagEdge>& v, std::uint32_t to) {
  return std::lower_bound(v.begin(), v.end(), to,
                          [](const Islands::DagEdge& e, std::uint32_t t) { return e.to < t; });
}
void set_insert(std::vector<std::uint32_t>& v, std::uint32_t x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it == v.end() || *it != x) v.insert(it, x);
}
void set_erase(std::vector<std::uint32_t>& v, std::uint32_t x) {
  auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it != v.end() && *it == x) v.erase(it);
}
}  // namespace

bool Islands::dag_add(std::uint32_t ra, std::uint32_t rb, std::uint32_t count) {
  std::vector<DagEdge>& out = out_[ra];
  auto it = edge_at(out, rb);
  if (it != out.end() && it->to == rb) {
    it->count += count;
    return false;
  }
  out.insert(it, DagEdge{rb, count});
  set_insert(in_[rb], ra);
  return true;
}

bool Islands::dag_inc(std::uint32_t ra, std::uint32_t rb) { return dag_add(ra, rb, 1); }

bool Islands::dag_dec(std::uint32_t ra, std::uint32_t rb) {
  std::vector<DagEdge>& out = out_[ra];
  auto it = edge_at(out, rb);
  // A missing edge would mean the DAG counts drifted from the move words (an internal bug);
  // report a change so callers stay conservative.
  if (it == out.end() || it->to != rb) return true;
  if (--it->count) return false;
  out.erase(it);
  set_erase(in_[rb], ra);
  return true;
}

bool Islands::merge_cycle(std::uint32_t from, std::uint32_t to) {
  // Iterative DFS over the DAG from `from`; on = the island reaches `to` (decided in post-order).
  // Scratch arrays persist across calls; only the entries touched are reset.
  if (dfs_state_.size() < parent_.size()) {
    dfs_state_.resize(parent_.size(), 0);
    dfs_next_.resize(parent_.size(), 0);
  }
  enum : std::uint8_t { kOpen = 1, kDone = 2, kOn = 4, kBack = 8 };
  // Only islands that reach `to` can lie on a path to it. `from` is often the big island with a
  // large DAG below it, and `to` a new or small one reached from few islands: those are found
  // first over the in-lists, and the DFS keeps to them (without them when there are too many).
  std::vector<std::uint32_t>& back = dfs_back_;
  back.assign(1, to);
  dfs_state_[to] = kBack;
  bool bounded = true;
  // `from` itself is not expanded: an island reaching `from` and reached from it would have
  // been on a cycle with it before this move, so every other member reaches `to` avoiding it.
  for (std::size_t k = 0; k < back.size() && bounded; ++k) {
    if (back[k] == from) continue;
    for (const std::uint32_t src : in_[back[k]]) {
      const std::uint32_t y = find(src);
      if ((dfs_state_[y] & kBack) || gate_[y]) continue;  // never a cycle through a gate cell
      if (back.size() == kBackBudget) {
        bounded = false;
        break;
      }
      dfs_state_[y] = kBack;
      back.push_back(y);
    }
  }
  if (bounded && !(dfs_state_[from] & kBack)) {
    for (const std::uint32_t x : back) dfs_state_[x] = 0;
    return false;
  }
  if (!bounded)
    for (const std::uint32_t x : back) dfs_state_[x] = 0;
  // May the DFS enter y: not visited, not a gate cell, and (bounded) reaching `to`.
  const std::uint8_t need = bounded ? kBack : 0;
  auto enter = [&](std::uint32_t y) {
    return (dfs_state_[y] & (kOpen | kDone)) == 0 && !gate_[y] && (dfs_state_[y] & need) == need;
  };
  std::vector<std::uint32_t>& order = dfs_order_;
  std::vector<std::uint32_t>& stack = dfs_stack_;
  order.clear();
  stack.assign(1, from);
  dfs_state_[from] |= kOpen;
  dfs_next_[from] = 0;
  while (!stack.empty()) {
    const std::uint32_t x = stack.back();
    if (x == to) {
      dfs_state_[x] |= kDone | kOn;
      order.push_back(x);
      stack.pop_back();
      continue;
    }
    bool pushed = false;
    while (dfs_next_[x] < out_[x].size()) {
      const DagEdge& e = out_[x][dfs_next_[x]++];
      if (!e.count) continue;
      const std::uint32_t y = find(e.to);
      if (y == x || !enter(y)) continue;
      dfs_state_[y] |= kOpen;
      dfs_next_[y] = 0;
      stack.push_back(y);
      pushed = true;
      break;
    }
    if (pushed) continue;
    // All successors are done: x is on a path when one of them is.
    std::uint8_t st = kDone;
    for (const DagEdge& e : out_[x])
      if (e.count && (dfs_state_[find(e.to)] & kOn)) st |= kOn;
    dfs_state_[x] = static_cast<std::uint8_t>(st | (dfs_state_[x] & kBack));
    order.push_back(x);
    stack.pop_back();
  }
  const bool cycle = dfs_state_[from] & kOn;
  std::vector<std::uint32_t> members;
  if (cycle)
    for (std::uint32_t x : order)
      if (dfs_state_[x] & kOn) members.push_back(x);
  for (std::uint32_t x : order) dfs_state_[x] = 0;
  if (bounded)
    for (const std::uint32_t x : back) dfs_state_[x] = 0;
  if (!cycle) return false;
  // Unite every island on a from -> to path (both included) under the largest one.
  std::uint32_t root = members[0];
  for (std::uint32_t x : members)
    if (size_[x] > size_[root] || (size_[x] == size_[root] && x < root)) root = x;
  std::sort(members.begin(), members.end());
  auto member = [&](std::uint32_t x) {
    return std::binary_search(members.begin(), members.end(), x);
  };
  // Edges between members vanish; edges of members to and from other islands move to `root`.
  // (The root's lists are the long ones: its edges to members are looked up one by one.)
  for (const std::uint32_t x : members) {
    if (x == root) continue;
    std::vector<DagEdge>& ro = out_[root];
    const auto it = edge_at(ro, x);
    if (it != ro.end() && it->to == x) ro.erase(it);  // (the members' in_ lists are dropped below)
  }
  for (std::uint32_t x : members) {
    if (x == root) continue;
    std::vector<DagEdge> out = std::move(out_[x]);
    out_[x].clear();
    for (const DagEdge& e : out) {
      set_erase(in_[e.to], x);
      if (!member(e.to)) dag_add(root, e.to, e.count);
    }
  }
  for (const std::uint32_t x : members)
    if (x != root) set_erase(in_[root], x);
  for (std::uint32_t x : members) {
    if (x == root) continue;
    const std::vector<std::uint32_t> in = std::move(in_[x]);
    in_[x].clear();
    for (std::uint32_t src : in) {
      if (member(src)) continue;  // already dropped above
      std::vector<DagEdge>& so = out_[src];
      auto it = edge_at(so, x);
      if (it == so.end() || it->to != x) continue;
      const std::uint32_t c = it->count;
      so.erase(it);
      dag_add(src, root, c);
    }
  }
  for (std::uint32_t x : members) {
    if (x == root) continue;
    parent_[x] = root;
    size_[root] += size_[x];
    size_[x] = 0;
    --live_;
  }
  ++stats_.merges;
  return true;
}

// ---- bounded searches inside one island (the graph H of apply(): moves that existed before
// the edit and still exist, between cells still labelled with the island) ----

std::int32_t Islands::seen_find(const CellPos& c) const {
  const std::uint64_t key = cell_key(c);
  std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 40) & seen_mask_;
  while (seen_stamp_[h] == stamp_) {
    if (seen_key_[h] == key) return static_cast<std::int32_t>(seen_val_[h]);
    h = (h + 1) & seen_mask_;
  }
  return -1;
}

bool Islands::seen_insert(const CellPos& c, std::uint32_t val) {
  const std::uint64_t key = cell_key(c);
  std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 40) & seen_mask_;
  while (seen_stamp_[h] == stamp_) {
    if (seen_key_[h] == key) return false;
    h = (h + 1) & seen_mask_;
  }
  seen_stamp_[h] = stamp_;
  seen_key_[h] = key;
  seen_val_[h] = val;
  return true;
}

void Islands::new_stamp(std::size_t budget) {
  // A table of at least 4 slots per cell the search may visit (14 moves per expansion past the
  // budget at most), small searches touching only a small, cache-resident part.
  std::size_t size = 256;
  while (size < 4 * (budget + 16) && size < kSeenTable) size <<= 1;
  seen_mask_ = size - 1;
  if (seen_key_.size() != kSeenTable) {
    seen_key_.assign(kSeenTable, 0);
    seen_stamp_.assign(kSeenTable, 0);
    seen_val_.assign(kSeenTable, 0);
  }
  if (++stamp_ == 0) {
    std::fill(seen_stamp_.begin(), seen_stamp_.end(), 0u);
    stamp_ = 1;
  }
}

bool Islands::is_added(const CellPos& from, const CellPos& to) const {
  // (the big searches ask for every move: most sources lie outside the edit's few cells)
  if (from.x < added_min_.x || from.x > added_max_.x || from.z < added_min_.z ||
      from.z > added_max_.z || from.y < added_min_.y || from.y > added_max_.y)
    return false;
  const std::uint64_t k = cell_key(from);
  auto it = std::lower_bound(
      added_from_.begin(), added_from_.end(), k,
      [](const std::pair<std::uint64_t, CellPos>& e, std::uint64_t v) { return e.first < v; });
  for (; it != added_from_.end() && it->first == k; ++it)
    if (it->second == to) return true;
  return false;
}

template <class F>
void Islands::for_each_h_move(const NavGrid& grid, const CellPos& c, std::uint32_t root, bool backward,
                              F&& f) {
  auto in_island = [&](const NavChunk* ch, int i) {
    const std::uint32_t l = ch->scc ? ch->scc[i] : 0u;
    return l && find(l - 1) == root;
  };
  const bool any_added = !added_from_.empty();
  if (backward) {
    for_each_move_into(grid, c, [&](NavChunk* sc, int si, const CellPos& src) {
      if (in_island(sc, si) && !(any_added && is_added(src, c))) f(src);
    });
  } else {
    NavChunk* ch = grid.chunk(chunk_of(c));
    for_each_move(ch, index_in_chunk(c), c, [&](NavChunk* tc, int ti, const CellPos& t, int, int) {
      if (in_island(tc, ti) && !(any_added && is_added(c, t))) f(t);
    });
  }
}

Islands::Search Islands::search(const NavGrid& grid, const CellPos& from, std::uint32_t root,
                                bool backward, const std::vector<CellPos>& targets,
                                std::size_t budget) {
  new_stamp(budget + 8);
  queue_.clear();
  queue_.push_back(from);
  seen_insert(from, 0);
  std::vector<std::uint64_t>& want = target_keys_;
  want.clear();
  for (const CellPos& t : targets)
    if (!(t == from)) want.push_back(cell_key(t));
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  std::size_t remaining = want.size();
  std::size_t head = 0;
  Search r;
  while (head < queue_.size()) {
    if (queue_.size() >= budget) return r;  // budget: neither proof nor closure
    const CellPos c = queue_[head++];
    for_each_h_move(grid, c, root, backward, [&](const CellPos& n) {
      if (!seen_insert(n, static_cast<std::uint32_t>(queue_.size()))) return;
      queue_.push_back(n);
      if (remaining && std::binary_search(want.begin(), want.end(), cell_key(n))) --remaining;
    });
    if (remaining == 0) {
      r.found_all = true;
      return r;
    }
  }
  r.closed = true;  // queue_ holds the whole closure; the seen table maps its cells to indices
  r.found_all = remaining == 0;
  return r;
}

bool Islands::directed(const NavGrid& grid, const std::vector<CellPos>& from,
                       const std::vector<CellPos>& to, std::uint32_t root, std::size_t budget) {
  // Greedy best-first over H from every cell of `from` toward the nearest cell of `to` (a detour
  // around an edit is usually short, and a goal directed search finds it long before a
  // breadth-first one would; starting from every cell already proven joined to the hub makes
  // most searches one or two expansions long).
  std::vector<std::uint64_t>& want = directed_targets_;
  want.clear();
  for (const CellPos& t : to) want.push_back(cell_key(t));
  std::sort(want.begin(), want.end());
  auto target = [&](const CellPos& c) {
    return std::binary_search(want.begin(), want.end(), cell_key(c));
  };
  auto h = [&](const CellPos& c) {
    int best = 1 << 30;
    for (const CellPos& t : to)
      best = std::min(best, std::abs(c.x - t.x) + std::abs(c.y - t.y) + std::abs(c.z - t.z));
    return static_cast<std::uint64_t>(best);
  };
  new_stamp(8 * budget);
  heap_.clear();
  queue_.clear();
  qchunk_.clear();
  for (const CellPos& f : from) {
    if (target(f)) return true;
    NavChunk* fc = grid.chunk(chunk_of(f));
    if (!fc || !seen_insert(f, 0)) continue;
    heap_.push_back((h(f) << 32) | static_cast<std::uint32_t>(queue_.size()));
    queue_.push_back(f);
    qchunk_.push_back({fc, index_in_chunk(f)});
  }
  std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  const bool any_added = !added_from_.empty();
  std::size_t expanded = 0;
  // (the seen table holds at most half its slots: up to 14 moves per expansion)
  const std::size_t max_seen = (seen_mask_ + 1) / 2 - 16;
  while (!heap_.empty() && expanded < budget && queue_.size() < max_seen) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const auto qi = static_cast<std::uint32_t>(heap_.back());
    heap_.pop_back();
    const CellPos c = queue_[qi];
    const auto [ch, ci] = qchunk_[qi];
    ++expanded;
    bool found = false;
    for_each_move(ch, ci, c, [&](NavChunk* tc, int ti, const CellPos& n, int, int) {
      if (found) return;
      const std::uint32_t l = tc->scc ? tc->scc[ti] : 0u;
      if (!l || find(l - 1) != root || (any_added && is_added(c, n)) || !seen_insert(n, 0)) return;
      if (target(n)) {
        found = true;
        return;
      }
      heap_.push_back((h(n) << 32) | static_cast<std::uint32_t>(queue_.size()));
      queue_.push_back(n);
      qchunk_.push_back({tc, ti});
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    });
    if (found) return true;
  }
  return false;
}

LocalComponents& Islands::compute_components(NavChunk* ch, int o) {
  if (!ch->comps) ch->comps = std::make_unique<std::array<LocalComponents, 8>>();
  LocalComponents& cc = (*ch->comps)[static_cast<std::size_t>(o)];
  if (cc.gen == comps_gen_) return cc;
  cc.gen = comps_gen_;
  ++stats_.components_built;
  constexpr std::uint16_t kNone = LocalComponents::kNone;
  cc.rep.clear();
  cc.out.clear();
  cc.out_start.assign(1, 0);
  cc.seen.clear();
  if (ch->uniform || ch->nodes == 0) {
    std::vector<std::uint16_t>().swap(cc.of);
    return cc;
  }
  // Dense ids of the member cells (node cells that are not gate cells), in cell index order; rows
  // of 8 cells along x are contiguous kind bytes, skipped whole when they hold no node.
  std::vector<std::uint16_t>& cells = comp_cells_;
  cells.clear();
  const int base = (o & 1) * 8 | ((o >> 1) & 1) * 128 | (o >> 2) * 2048;
  // An octant's rows are spread over its chunk's arrays (16-cell rows): a proof over a long detour
  // meets octants whose data is not in cache. Ask for all its kind rows first, and for the move
  // rows of each row that holds a node as soon as it is known, so that the loads overlap instead
  // of waiting one by one.
  for (int yz = 0; yz < 64; ++yz) {
    const int row = base + (yz & 7) * 16 + (yz >> 3) * 256;
    if (const std::uint8_t* r = ch->kind.row(row >> 8)) prefetch(r + (row & 255));
  }
  for (int yz = 0; yz < 64; ++yz) {
    const int row = base + (yz & 7) * 16 + (yz >> 3) * 256;
    const std::uint8_t* kr = ch->kind.row(row >> 8);
    std::array<std::uint8_t, 8> same;  // a cell row stored as one kind
    if (kr) {
      kr += row & 255;
    } else {
      same.fill(ch->kind.fill(row >> 8));
      kr = same.data();
    }
    std::uint64_t members = member_bytes8(kr);
    if (!members) continue;
    if (const std::uint32_t* r = ch->moves.row(row >> 8)) prefetch(r + (row & 255));
    if (ch->vmoves) prefetch(&ch->vmoves[row]);
    if (ch->gaps)
      if (const GapWord* r = ch->gaps.row(row >> 8)) prefetch(r + (row & 255));
    for (; members; members &= members - 1)
      cells.push_back(static_cast<std::uint16_t>(row + (std::countr_zero(members) >> 3)));
  }
  const auto n = static_cast<std::uint32_t>(cells.size());
  if (n == 0) {  // no array for an octant of air and rock
    std::vector<std::uint16_t>().swap(cc.of);
    return cc;
  }
  cc.of.assign(512, kNone);
  for (std::uint32_t v = 0; v < n; ++v)
    cc.of[static_cast<std::size_t>(index_in_octant(cells[v]))] = static_cast<std::uint16_t>(v);
  // One pass over the moves: those between member cells (dense ids, for Tarjan) and those
  // leaving the octant (nb_index << 12 | target index), both per cell in CSR form. The buffers
  // keep room for 18 moves per cell (8 directions, 2 vertical, 8 gap jumps: at most two landings
  // per direction) of a full octant.
  constexpr std::size_t kMaxMoves = 512 * 18;
  if (comp_edges_.size() < kMaxMoves) comp_edges_.resize(kMaxMoves);
  if (comp_cross_.size() < kMaxMoves) comp_cross_.resize(kMaxMoves);
  comp_start_.resize(n + 1);
  comp_cross_start_.resize(n + 1);
  std::uint32_t* edges = comp_edges_.data();
  std::uint32_t* cross = comp_cross_.data();
  std::uint32_t ne = 0, nx = 0;
  const std::uint16_t* of = cc.of.data();
  for (std::uint32_t v = 0; v < n; ++v) {
    comp_start_[v] = ne;
    comp_cross_start_[v] = nx;
    for_each_octant_move(
        ch, o, cells[v],
        [&](int io) {
          const std::uint16_t w = of[io];
          if (w != kNone) edges[ne++] = w;
        },
        [&](std::uint32_t x) { cross[nx++] = x; });
  }
  comp_start_[n] = ne;
  comp_cross_start_[n] = nx;
  const std::uint32_t ncomp = strongly_connected(comp_start_, comp_edges_, comp_ids_, tarjan_);
  cc.rep.assign(ncomp, kNone);
  // The member cells grouped by component (a counting sort), then each component's moves out:
  // to other components once each, and every move leaving the octant.
  comp_order_.assign(ncomp + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint32_t c = comp_ids_[v];
    cc.of[static_cast<std::size_t>(index_in_octant(cells[v]))] = static_cast<std::uint16_t>(c);
    if (cc.rep[c] == kNone) cc.rep[c] = cells[v];
    ++comp_order_[c + 1];
  }
  for (std::uint32_t c = 0; c < ncomp; ++c) comp_order_[c + 1] += comp_order_[c];
  comp_by_comp_.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) comp_by_comp_[comp_order_[comp_ids_[v]]++] = v;
  comp_mark_.assign(ncomp, 0xFFFFFFFFu);
  cc.out_start.assign(ncomp + 1, 0);
  std::size_t at = 0;
  for (std::uint32_t c = 0; c < ncomp; ++c) {
    cc.out_start[c] = static_cast<std::uint32_t>(cc.out.size());
    for (; at < n && comp_ids_[comp_by_comp_[at]] == c; ++at) {
      const std::uint32_t v = comp_by_comp_[at];
      for (std::uint32_t e = comp_start_[v]; e < comp_start_[v + 1]; ++e) {
        const std::uint32_t w = comp_ids_[comp_edges_[e]];
        if (w == c || comp_mark_[w] == c) continue;
        comp_mark_[w] = c;
        cc.out.push_back(LocalComponents::kLocal | w);
      }
      for (std::uint32_t e = comp_cross_start_[v]; e < comp_cross_start_[v + 1]; ++e)
        cc.out.push_back(comp_cross_[e]);
    }
    // Several cells of a component often move into the same cell: keep each target once.
    const auto first = cc.out.begin() + cc.out_start[c];
    std::sort(first, cc.out.end());
    cc.out.erase(std::unique(first, cc.out.end()), cc.out.end());
  }
  cc.out_start[ncomp] = static_cast<std::uint32_t>(cc.out.size());
  // Kept for the World's life: without the growth slack of the push_backs above (a quarter left
  // for the entries patch_out adds).
  if (cc.out.capacity() > cc.out.size() + cc.out.size() / 4 + 4) cc.out.shrink_to_fit();
  cc.seen.assign(ncomp, 0);
  return cc;
}

std::size_t Islands::refresh_components(NavGrid& grid) {
  std::size_t n = 0;
  for (NavChunk* ch : grid.ordered_chunks())
    for (int o = 0; o < 8; ++o)
      if (!ch->comps || (*ch->comps)[static_cast<std::size_t>(o)].gen != comps_gen_) {
        compute_components(ch, o);
        ++n;
      }
  return n;
}

void Islands::mark_stale(const NavGrid& grid, const IslandDelta& d) {
  // An octant's components depend on its members and the moves between them alone. An octant that
  // gained or lost a member or an inner move is marked stale (recomputed when a proof next meets
  // it). An octant whose cells only gained or lost moves leaving it stays current: the entry of
  // each such move is added to or dropped from its component's moves out (LocalComponents::out),
  // a fraction of a microsecond against a recomputation's several.
  std::vector<OutPatch>& patches = out_patches_;
  patches.clear();
  // The cells of a delta come in runs of one chunk: look each chunk up once per run.
  ChunkPos last{};
  NavChunk* ch = nullptr;
  bool have = false;
  auto at = [&](const CellPos& c) -> LocalComponents* {
    const ChunkPos p = chunk_of(c);
    if (!have || !(p == last)) {
      have = true;
      last = p;
      ch = grid.chunk(p);
    }
    if (!ch || !ch->comps) return nullptr;
    LocalComponents& cc = (*ch->comps)[static_cast<std::size_t>(octant_of(index_in_chunk(c)))];
    return cc.gen == comps_gen_ ? &cc : nullptr;  // (else stale already, or never computed)
  };
  auto inner = [&](const CellPos& c) {
    if (LocalComponents* cc = at(c)) cc->gen = 0;
  };
  auto edge = [&](const CellEdge& e, bool added) {
    LocalComponents* cc = at(e.from);
    if (!cc) return;
    const int i = index_in_chunk(e.from);
    if (chunk_of(e.to) == chunk_of(e.from) && octant_of(index_in_chunk(e.to)) == octant_of(i)) {
      cc->gen = 0;  // an inner move
      return;
    }
    patches.push_back({ch, static_cast<std::uint16_t>(octant_of(i)), e.from, e.to, added});
  };
  for (const CellPos& c : d.removed_nodes) inner(c);
  for (const CellPos& c : d.added_nodes) inner(c);
  for (const CellPos& c : d.gate_changes) inner(c);
  for (const CellEdge& e : d.removed_edges) edge(e, false);
  for (const CellEdge& e : d.added_edges) edge(e, true);
  for (const OutPatch& x : patches) {
    LocalComponents& cc = (*x.ch->comps)[x.octant];
    if (cc.gen != comps_gen_) continue;  // an inner change listed after the move made it stale
    patch_out(x.ch, x.octant, x.from, x.to, x.added);
  }
}

void Islands::patch_out(NavChunk* ch, int o, const CellPos& from, const CellPos& to, bool added) {
  LocalComponents& cc = (*ch->comps)[static_cast<std::size_t>(o)];
  const std::uint16_t c = cc.at(index_in_octant(index_in_chunk(from)));
  if (c == LocalComponents::kNone) return;  // a gate cell: no member
  // The entry compute_components() gives the move (none into a chunk not loaded: a move dropped
  // because its target chunk was unloaded still drops the entry).
  auto side = [](int local) { return local < 0 ? -1 : (local > 15 ? 1 : 0); };
  const int nb = nb_index(side(to.x - ch->pos.x * 16), side(to.y - ch->pos.y * 16),
                          side(to.z - ch->pos.z * 16));
  if (added && nb != 13 && !ch->nb[static_cast<std::size_t>(nb)]) return;
  const std::uint32_t x =
      static_cast<std::uint32_t>(nb) << 12 | static_cast<std::uint32_t>(index_in_chunk(to));
  if (!added) {
    // Another member of the component may still move into the same cell: one within a move's
    // reach of it (up to kMaxGapCells + 1 columns for a gap jump; from one cell below to seven
    // above, the deepest drop) and inside the octant.
    const int bx = ch->pos.x * 16 + (o & 1) * 8, by = ch->pos.y * 16 + (o >> 2) * 8,
              bz = ch->pos.z * 16 + ((o >> 1) & 1) * 8;
    constexpr int kReach = kMaxGapCells + 1;
    const int x0 = std::max(to.x - kReach, bx), x1 = std::min(to.x + kReach, bx + 7);
    const int y0 = std::max(to.y - 1, by), y1 = std::min(to.y + 7, by + 7);
    const int z0 = std::max(to.z - kReach, bz), z1 = std::min(to.z + kReach, bz + 7);
    for (int y = y0; y <= y1; ++y)
      for (int z = z0; z <= z1; ++z)
        for (int sx = x0; sx <= x1; ++sx) {
          const int io = (sx - bx) | (z - bz) << 3 | (y - by) << 6;
          if (cc.of[static_cast<std::size_t>(io)] != c) continue;
          if (has_move(ch, index_in_chunk(CellPos{sx, y, z}), to.x - sx, to.y - y, to.z - z)) return;
        }
  }
  const auto first = cc.out.begin() + cc.out_start[c], end = cc.out.begin() + cc.out_start[c + 1u];
  const auto it = std::lower_bound(first, end, x);
  const bool present = it != end && *it == x;
  if (added == present) return;
  if (added) {
    cc.out.insert(it, x);
  } else {
    cc.out.erase(it);
  }
  const std::uint32_t step = added ? 1u : ~0u;  // +1 or -1 (wrapping)
  for (std::size_t k = c + 1u; k < cc.out_start.size(); ++k) cc.out_start[k] += step;
  ++stats_.out_patches;
}

Islands::ComponentNode Islands::component_node(const NavGrid& grid, const CellPos& c) {
  ComponentNode n;
  n.ch = grid.chunk(chunk_of(c));
  if (!n.ch) return n;
  const int i = index_in_chunk(c);
  n.octant = static_cast<std::uint16_t>(octant_of(i));
  n.component = components(n.ch, n.octant).at(index_in_octant(i));
  return n;
}

namespace {
std::uint64_t node_key(const NavChunk* ch, int octant, std::uint16_t component) {
  return ((static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(ch)) << 3 |
           static_cast<std::uint64_t>(octant))
          << 12) |
         component;
}
}  // namespace

bool Islands::component_reach(const std::vector<ComponentNode>& from,
                              const std::vector<ComponentNode>& to, const CellPos& toward,
                              std::uint32_t root, std::size_t budget,
                              std::vector<ComponentNode>& path) {
  // Greedy best-first over the local components of island `root` (those whose cells carry its
  // label) from every component of `from`, toward `toward`, until a component of `to`.
  if (++comp_stamp_ == 0) {  // the stamps wrapped: every cache is computed again (seen = 0)
    ++comps_gen_;
    comp_stamp_ = 1;
  }
  ++stats_.component_searches;
  constexpr std::uint16_t kNone = LocalComponents::kNone;
  constexpr std::uint16_t kPending = 0x8000;  // node.component: kPending | cell index, not known
  std::vector<std::uint64_t>& want = comp_targets_;
  want.clear();
  for (const ComponentNode& t : to)
    if (t.ch && t.component != kNone) want.push_back(node_key(t.ch, t.octant, t.component));
  std::sort(want.begin(), want.end());
  auto target = [&](const NavChunk* ch, int o, std::uint16_t l) {
    return std::binary_search(want.begin(), want.end(), node_key(ch, o, l));
  };
  auto h = [&](const NavChunk* ch, int o, std::uint16_t l) {
    const CellPos c = cell_of(ch, (*ch->comps)[static_cast<std::size_t>(o)].rep[l]);
    return static_cast<std::uint64_t>(std::abs(c.x - toward.x) + std::abs(c.y - toward.y) +
                                      std::abs(c.z - toward.z));
  };
  // The path to node `at` (by parents back to a source), then `last` when it is not in it.
  auto found = [&](std::uint32_t at, const ComponentNode* last) {
    const std::size_t first = path.size();
    if (last) path.push_back(*last);
    for (std::uint32_t k = at;; k = comp_nodes_[k].parent) {
      path.push_back(comp_nodes_[k]);
      if (comp_nodes_[k].parent == k) break;
    }
    std::reverse(path.begin() + static_cast<std::ptrdiff_t>(first), path.end());
    return true;
  };
  comp_nodes_.clear();
  heap_.clear();
  for (const ComponentNode& f : from) {
    if (!f.ch || f.component == kNone) continue;
    LocalComponents& fc = components(f.ch, f.octant);
    if (fc.seen[f.component] == comp_stamp_) continue;
    fc.seen[f.component] = comp_stamp_;
    const auto at = static_cast<std::uint32_t>(comp_nodes_.size());
    comp_nodes_.push_back({f.ch, f.octant, f.component, at});
    if (target(f.ch, f.octant, f.component)) return found(at, nullptr);
    heap_.push_back(h(f.ch, f.octant, f.component) << 32 | at);
  }
  std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  std::size_t expanded = 0;
  while (!heap_.empty() && expanded < budget) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const auto at = static_cast<std::uint32_t>(heap_.back());
    heap_.pop_back();
    ComponentNode node = comp_nodes_[at];
    NavChunk* ch = node.ch;
    if (node.component & kPending) {
      // A cell of an octant that was stale when the cell was met: computed only now that the
      // search gets there (most of a search's frontier never does).
      LocalComponents& pc = components(ch, node.octant);
      const std::uint16_t l = pc.at(index_in_octant(node.component & ~kPending));
      if (l == kNone || pc.seen[l] == comp_stamp_) continue;
      pc.seen[l] = comp_stamp_;
      node.component = comp_nodes_[at].component = l;
      if (target(ch, node.octant, l)) return found(at, nullptr);
      const std::uint32_t lab = ch->scc ? ch->scc[pc.rep[l]] : 0u;
      if (!lab || find(lab - 1) != root) continue;
    }
    ++expanded;
    // The moves out of the component, resolved in stages over all of them, each stage first asking
    // for the memory the next one reads (a component's cell map, then its stamp, representative
    // and label): the neighbour octants' data is mostly out of cache, and the loads of one stage
    // overlap instead of waiting one by one. Then each move in order, as if resolved one at a time.
    const LocalComponents& cc = (*ch->comps)[node.octant];
    std::vector<CompMove>& moves = comp_moves_;
    moves.clear();
    for (std::uint32_t e = cc.out_start[node.component]; e < cc.out_start[node.component + 1];
         ++e) {
      const std::uint32_t x = cc.out[e];
      if (x & LocalComponents::kLocal) {
        const auto nl = static_cast<std::uint16_t>(x & 0xFFFFu);
        moves.push_back({ch, node.octant, nl, CompMove::kComponent});
        continue;
      }
      const std::uint32_t nb = x >> 12;
      NavChunk* nch = nb != 13 ? ch->nb[nb] : ch;
      if (!nch) continue;
      const int ni = static_cast<int>(x & 4095u);
      const auto no = static_cast<std::uint16_t>(octant_of(ni));
      if (!nch->comps || (*nch->comps)[no].gen != comps_gen_) {
        moves.push_back({nch, no, static_cast<std::uint16_t>(ni), CompMove::kPendingCell});
        continue;
      }
      const LocalComponents& lc = (*nch->comps)[no];
      if (lc.of.empty()) continue;
      const auto io = static_cast<std::uint16_t>(index_in_octant(ni));
      prefetch(&lc.of[io]);
      moves.push_back({nch, no, io, CompMove::kCellOfOctant});
    }
    for (CompMove& m : moves) {
      if (m.what == CompMove::kPendingCell) continue;
      const LocalComponents& lc = (*m.ch->comps)[m.octant];
      if (m.what == CompMove::kCellOfOctant) {
        m.id = lc.of[m.id];
        if (m.id == kNone) {
          m.what = CompMove::kNothing;
          continue;
        }
        m.what = CompMove::kComponent;
      }
      prefetch(&lc.seen[m.id]);
      prefetch(&lc.rep[m.id]);
    }
    for (const CompMove& m : moves)
      if (m.what == CompMove::kComponent && m.ch->scc)
        if (const int rep = (*m.ch->comps)[m.octant].rep[m.id];
            const std::uint32_t* r = m.ch->scc.row(rep >> 8))
          prefetch(r + (rep & 255));
    for (const CompMove& m : moves) {
      NavChunk* nch = m.ch;
      const int no = m.octant;
      if (m.what == CompMove::kNothing) continue;
      if (m.what == CompMove::kPendingCell) {
        const CellPos c = cell_of(nch, m.id);
        const std::uint64_t d = static_cast<std::uint64_t>(
            std::abs(c.x - toward.x) + std::abs(c.y - toward.y) + std::abs(c.z - toward.z));
        heap_.push_back(d << 32 | static_cast<std::uint32_t>(comp_nodes_.size()));
        comp_nodes_.push_back({nch, m.octant, static_cast<std::uint16_t>(kPending | m.id), at});
        std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
        continue;
      }
      const std::uint16_t nl = m.id;
      LocalComponents& nc = (*nch->comps)[static_cast<std::size_t>(no)];
      if (nc.seen[nl] == comp_stamp_) continue;
      nc.seen[nl] = comp_stamp_;
      const ComponentNode next{nch, m.octant, nl, at};
      if (target(nch, no, nl)) return found(at, &next);
      const std::uint32_t lab = nch->scc ? nch->scc[nc.rep[nl]] : 0u;
      if (!lab || find(lab - 1) != root) continue;
      heap_.push_back(h(nch, no, nl) << 32 | static_cast<std::uint32_t>(comp_nodes_.size()));
      comp_nodes_.push_back(next);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    }
  }
  return false;
}

bool Islands::split_off(NavGrid& grid, std::uint32_t root, std::vector<CellPos>& endpoints) {
  // queue_ is a set K closed under forward (or backward) moves of H, and the seen table maps its
  // cells to their index in K. Tarjan over K gives K's components exactly (a component of a cell
  // of a closed set lies inside the set).
  const std::vector<CellPos> k_cells = queue_;
  const auto n = static_cast<std::uint32_t>(k_cells.size());
  std::vector<std::uint32_t> start(n + 1, 0), edges;
  for (std::uint32_t v = 0; v < n; ++v) {
    start[v] = static_cast<std::uint32_t>(edges.size());
    for_each_h_move(grid, k_cells[v], root, false, [&](const CellPos& t) {
      const std::int32_t w = seen_find(t);
      if (w >= 0) edges.push_back(static_cast<std::uint32_t>(w));
    });
  }
  start[n] = static_cast<std::uint32_t>(edges.size());
  std::vector<std::uint32_t> comp;
  const std::uint32_t ncomp = strongly_connected(start, edges, comp);
  // New labels for K's components. Record, before relabelling, the moves of H crossing K's border
  // (they move from the old island's DAG entries to the new ones) and K's inner moves.
  struct Cross {
    std::uint32_t k;  // index in K
    CellPos other;       // the cell outside K
    bool out;         // K -> other (else other -> K)
  };
  std::vector<Cross> cross;
  for (std::uint32_t v = 0; v < n; ++v) {
    // Moves out of K's cells to cells of other islands (H is restricted to the island, so walk
    // the raw moves here) and, inside the island, to the rest of it.
    NavChunk* ch = grid.chunk(chunk_of(k_cells[v]));
    for_each_move(ch, index_in_chunk(k_cells[v]), k_cells[v],
                  [&](NavChunk*, int, const CellPos& t, int, int) {
                    if (seen_find(t) >= 0 || is_added(k_cells[v], t) || !label_of(grid, t)) return;
                    cross.push_back({v, t, true});
                  });
    for_each_move_into(grid, k_cells[v], [&](NavChunk*, int, const CellPos& s) {
      if (seen_find(s) >= 0 || is_added(s, k_cells[v]) || !label_of(grid, s)) return;
      cross.push_back({v, s, false});
    });
  }
  std::vector<std::uint32_t> label(ncomp);
  for (std::uint32_t c = 0; c < ncomp; ++c) label[c] = new_label();
  for (std::uint32_t v = 0; v < n; ++v) {
    NavChunk* ch = grid.chunk(chunk_of(k_cells[v]));
    ch->scc.set(index_in_chunk(k_cells[v]), label[comp[v]] + 1);
    ++size_[label[comp[v]]];
  }
  live_ += ncomp;
  size_[root] -= n;
  if (size_[root] == 0) --live_;
  for (std::uint32_t v = 0; v < n; ++v)
    for (std::uint32_t e = start[v]; e < start[v + 1]; ++e)
      if (comp[v] != comp[edges[e]]) dag_inc(label[comp[v]], label[comp[edges[e]]]);
  for (const Cross& x : cross) {
    const std::uint32_t kl = label[comp[x.k]];
    const std::uint32_t other = find(label_of(grid, x.other) - 1);
    if (other == root) {  // the rest of the old island: a new DAG edge, and a new endpoint
      if (x.out) {
        dag_inc(kl, root);
      } else {
        dag_inc(root, kl);
      }
      endpoints.push_back(x.other);
    } else if (x.out) {
      dag_dec(root, other);
      dag_inc(kl, other);
    } else {
      dag_dec(other, root);
      dag_inc(other, kl);
    }
  }
  // Endpoints now in K are settled.
  endpoints.erase(std::remove_if(endpoints.begin(), endpoints.end(),
                                 [&](const CellPos& c) { return seen_find(c) >= 0; }),
                  endpoints.end());
  ++stats_.local_splits;
  return true;
}

bool Islands::neighbourhood_proof(const NavGrid& grid, std::uint32_t root,
                                  const std::vector<CellPos>& endpoints,
                                  std::vector<std::uint8_t>& done) {
  // A graph of at most 64 cells: the endpoints, then the cells of the island their moves on H
  // reach (one hop). Moves between known cells are bits of adj; the hub's forward and backward
  // closures over them are paths of H, so every endpoint in both is proven.
  constexpr std::size_t kMax = 64;
  const std::size_t n = endpoints.size();
  if (n > 32) return false;
  std::array<CellPos, kMax>& cell = hood_cell_;
  std::array<std::uint64_t, kMax>& adj = hood_adj_;
  std::array<std::pair<NavChunk*, int>, kMax>& at = hood_at_;
  std::size_t count = 0;
  // A 256-slot open-addressing table of the known cells (at most 64: a quarter full).
  if (++hood_stamp_ == 0) {
    hood_slot_stamp_.fill(0);
    hood_stamp_ = 1;
  }
  auto slot_of = [&](std::uint64_t key) {
    std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 56);
    while (hood_slot_stamp_[h] == hood_stamp_ && hood_key_[h] != key) h = (h + 1) & 255;
    return h;
  };
  auto index_of = [&](const CellPos& c) -> std::size_t {
    const std::size_t h = slot_of(cell_key(c));
    return hood_slot_stamp_[h] == hood_stamp_ ? hood_val_[h] : kMax;
  };
  auto remember = [&](const CellPos& c, std::size_t j) {
    const std::uint64_t key = cell_key(c);
    const std::size_t h = slot_of(key);
    hood_slot_stamp_[h] = hood_stamp_;
    hood_key_[h] = key;
    hood_val_[h] = static_cast<std::uint8_t>(j);
  };
  for (const CellPos& e : endpoints) {
    NavChunk* ch = grid.chunk(chunk_of(e));
    if (!ch) return false;
    remember(e, count);
    cell[count] = e;
    at[count] = {ch, index_in_chunk(e)};
    adj[count++] = 0;
  }

  const bool any_added = !added_from_.empty();
  // Stage 0: the moves among the endpoints (the ring around a placed or dug block). Stage 1,
  // when that was not enough: the endpoints' moves also add the cells they reach, and the cells
  // added link to the known cells.
  std::uint64_t fwd = 1, bwd = 1;  // closures from the hub (cell 0) and to it
  for (int stage = 0; stage < 2; ++stage) {
    for (std::size_t i = 0; i < count; ++i) {
      const bool grow = stage == 1 && i < n;
      const CellPos c = cell[i];
      adj[i] = 0;
      for_each_move(at[i].first, at[i].second, c,
                    [&](NavChunk* tc, int ti, const CellPos& t, int, int) {
                      std::size_t j = index_of(t);
                      if (j == kMax && (!grow || count == kMax)) return;
                      const std::uint32_t l = tc->scc ? tc->scc[ti] : 0u;
                      if (!l || find(l - 1) != root || (any_added && is_added(c, t))) return;
                      if (j == kMax) {
                        j = count++;
                        remember(t, j);
                        cell[j] = t;
                        at[j] = {tc, ti};
                      }
                      adj[i] |= std::uint64_t{1} << j;
                    });
    }
    // Forward over adj, backward over its transpose.
    for (bool more = true; more;) {
      more = false;
      for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t bit = std::uint64_t{1} << i;
        if ((fwd & bit) && (adj[i] & ~fwd)) {
          fwd |= adj[i];
          more = true;
        }
        if (!(bwd & bit) && (adj[i] & bwd)) {
          bwd |= bit;
          more = true;
        }
      }
    }
    const std::uint64_t all_n = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    if ((fwd & bwd & all_n) == all_n) break;
  }
  bool all = true;
  for (std::size_t k = 1; k < n; ++k) {
    const std::uint64_t bit = std::uint64_t{1} << k;
    done[k] |= static_cast<std::uint8_t>(((fwd & bit) ? 1 : 0) | ((bwd & bit) ? 2 : 0));
    all = all && done[k] == 3;
  }
  return all;
}

bool Islands::settle_island(NavGrid& grid, std::uint32_t root, std::vector<CellPos>& endpoints) {
  for (int round = 0; round < 256; ++round) {  // one split-off side per round
    // Deduplicate (first occurrence order).
    std::vector<CellPos>& uniq = settle_.uniq;
    uniq.clear();
    for (const CellPos& c : endpoints)
      if (std::find(uniq.begin(), uniq.end(), c) == uniq.end()) uniq.push_back(c);
    endpoints.swap(uniq);
    if (endpoints.size() < 2 || size_[root] == 0) return true;
    ++stats_.split_checks;
    // Usually the island holds and every endpoint finds the hub and back by a short detour over
    // cells. A long detour is found over local components. When a pair has no path either way,
    // one side of it is closed: the cells reaching the endpoint (hub -/-> endpoint) or the cells
    // it reaches (endpoint -/-> hub), or the hub's side the other way; it is enumerated with a
    // growing budget, small sides first.
    const CellPos hub = endpoints[0];
    std::vector<std::uint8_t>& done = settle_.done;  // bit 0: hub -> k, bit 1: k -> hub
    done.assign(endpoints.size(), 0);
    std::size_t failed = 0;
    bool failed_to = false;  // the hub does not reach endpoints[failed] (else the reverse)
    // reach(k, true): the hub reaches endpoints[k]; reach(k, false): endpoints[k] reaches it.
    auto prove_all = [&](auto&& reach) {
      for (std::size_t k = 1; k < endpoints.size(); ++k) {
        for (const bool to : {true, false}) {
          const std::uint8_t bit = to ? 1 : 2;
          if (done[k] & bit) continue;
          if (!reach(k, to)) {
            failed = k;
            failed_to = to;
            return false;
          }
          done[k] |= bit;
        }
      }
      return true;
    };
    // Over cells, the endpoints already proven reached from the hub are sources too, and those
    // proven to reach it are targets too.
    std::vector<CellPos>&reached = settle_.reached, &reaching = settle_.reaching, &one = settle_.one;
    reached.assign(1, hub);
    reaching.assign(1, hub);
    one.resize(1);
    // Most edits are settled by the moves among the endpoints and their direct neighbours (the
    // ring of cells around a placed or dug block): no search at all.
    if (neighbourhood_proof(grid, root, endpoints, done)) return true;
    for (std::size_t k = 1; k < endpoints.size(); ++k) {
      if (done[k] & 1) reached.push_back(endpoints[k]);
      if (done[k] & 2) reaching.push_back(endpoints[k]);
    }
    auto short_detour = [&](std::size_t k, bool to) {
      one[0] = endpoints[k];
      if (!directed(grid, to ? reached : one, to ? one : reaching, root, kShortBudget))
        return false;
      (to ? reached : reaching).push_back(endpoints[k]);
      return true;
    };
    // Over local components likewise, with every component of a path found: what the hub
    // reaches, and what reaches it.
    std::vector<ComponentNode>&comp_reached = settle_.comp_reached,
    &comp_reaching = settle_.comp_reaching, &comp_one = settle_.comp_one;
    comp_reached.clear();
    comp_reaching.clear();
    comp_one.resize(1);
    std::size_t component_budget = kComponentBudget;
    auto long_detour = [&](std::size_t k, bool to) {
      if (comp_reached.empty()) {
        comp_reached.push_back(component_node(grid, hub));
        comp_reaching.push_back(comp_reached.back());
      }
      comp_one[0] = component_node(grid, endpoints[k]);
      return to ? component_reach(comp_reached, comp_one, endpoints[k], root, component_budget,
                                  comp_reached)
                : component_reach(comp_one, comp_reaching, hub, root, component_budget,
                                  comp_reaching);
    };
    auto split_closed_side = [&](std::size_t budget) {
      const CellPos e = endpoints[failed];
      const std::pair<CellPos, bool> tries[2] = {{e, failed_to}, {hub, !failed_to}};
      for (const auto& [from, backward] : tries) {
        const Search sr = search(grid, from, root, backward, endpoints, budget);
        if (sr.closed && !sr.found_all) {
          split_off(grid, root, endpoints);
          return true;
        }
      }
      return false;
    };
    if (prove_all(short_detour)) return true;
    if (split_closed_side(kShortClosedSide)) continue;
    // A detour over at most kDetourBudget components, then a closed side of up to 768 cells,
    // before a search over every component of the island (which a split pays for in full).
    component_budget = kDetourBudget;
    if (prove_all(long_detour)) return true;
    if (split_closed_side(768)) continue;
    component_budget = kComponentBudget;
    if (prove_all(long_detour)) return true;
    bool split = false;
    for (const std::size_t budget : {kSearchBudget, kWideBudget})
      if ((split = split_closed_side(budget))) break;
    if (!split) return false;
  }
  return false;
}

bool Islands::apply(NavGrid& grid, const IslandDelta& d) {
  ++stats_.deltas;
  if (d.empty()) return false;
  if (stats_.components_built) mark_stale(grid, d);
  bool changed = !d.removed_nodes.empty() || !d.added_nodes.empty();

  // 1. Removed moves: between islands they lower a DAG count; inside an island their endpoints
  //    must stay mutually reachable.
  std::vector<std::pair<std::uint32_t, CellPos>> endpoints;  // (island root, cell still standable)
  auto standable_now = [&](const CellPos& c) { return grid.node(c); };
  for (const CellEdge& e : d.removed_edges) {
    const std::uint32_t la = e.from_label ? e.from_label : label_of(grid, e.from);
    const std::uint32_t lb = e.to_label ? e.to_label : label_of(grid, e.to);
    if (!la || !lb) {  // the labels drifted from the move words: recompute everything
      recompute(grid);
      ++stats_.fallbacks;
      return true;
    }
    const std::uint32_t ra = find(la - 1), rb = find(lb - 1);
    if (ra != rb) {
      if (dag_dec(ra, rb)) changed = true;
      continue;
    }
    if (standable_now(e.from)) endpoints.push_back({ra, e.from});
    if (standable_now(e.to)) endpoints.push_back({ra, e.to});
  }
  // 2. Removed nodes leave their island (its DAG moves were all removed above).
  for (std::size_t k = 0; k < d.removed_nodes.size(); ++k) {
    const CellPos& c = d.removed_nodes[k];
    NavChunk* ch = grid.chunk(chunk_of(c));
    const int i = index_in_chunk(c);
    const std::uint32_t known = k < d.removed_labels.size() ? d.removed_labels[k] : 0u;
    const std::uint32_t l = known ? known : (ch && !ch->uniform && ch->scc) ? ch->scc[i] : 0u;
    if (!l) continue;
    const std::uint32_t r = find(l - 1);
    if (ch && !ch->uniform && ch->scc) ch->scc.set(i, 0);
    --cells_;
    if (--size_[r] == 0) --live_;
  }
  // Endpoints that left their island in step 2 (a cell that became a gate cell, for instance)
  // are not witnesses.
  endpoints.erase(std::remove_if(endpoints.begin(), endpoints.end(),
                                 [&](const std::pair<std::uint32_t, CellPos>& e) {
                                   return label_of(grid, e.second) == 0;
                                 }),
                  endpoints.end());
  // 3. Islands that lost an inner move: prove they hold, or split off the small closed sides
  //    they fell into, island by island (in a fixed order). The searches run on H: the moves that
  //    existed before this edit and still do (added moves are applied in step 5).
  added_from_.clear();
  added_min_ = CellPos{INT_MAX, INT_MAX, INT_MAX};
  added_max_ = CellPos{INT_MIN, INT_MIN, INT_MIN};
  for (const CellEdge& e : d.added_edges) {
    added_from_.push_back({cell_key(e.from), e.to});
    added_min_ = CellPos{std::min(added_min_.x, e.from.x), std::min(added_min_.y, e.from.y),
                      std::min(added_min_.z, e.from.z)};
    added_max_ = CellPos{std::max(added_max_.x, e.from.x), std::max(added_max_.y, e.from.y),
                      std::max(added_max_.z, e.from.z)};
  }
  std::stable_sort(added_from_.begin(), added_from_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::stable_sort(endpoints.begin(), endpoints.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<CellPos> group;
  for (std::size_t k = 0; k < endpoints.size();) {
    group.clear();
    std::size_t e = k;
    while (e < endpoints.size() && endpoints[e].first == endpoints[k].first)
      group.push_back(endpoints[e++].second);
    const std::uint32_t root = endpoints[k].first;
    k = e;
    const std::uint64_t splits = stats_.local_splits;
    if (!settle_island(grid, root, group)) {
      recompute(grid);
      ++stats_.fallbacks;
      return true;
    }
    if (stats_.local_splits != splits) changed = true;
  }
  // 4. Added nodes: one new single-cell island each.
  for (const CellPos& c : d.added_nodes) {
    NavChunk* ch = grid.chunk(chunk_of(c));
    if (!ch || ch->uniform) continue;
    if (!ch->scc) ch->scc.create();
    const std::uint32_t l = new_label();
    size_[l] = 1;
    gate_[l] = kind_gate(ch->kind_at(index_in_chunk(c)));
    ++cells_;
    ++live_;
    ch->scc.set(index_in_chunk(c), l + 1);
  }
  // 5. Added moves: a DAG edge, or a merge when it closes a cycle.
  for (const CellEdge& e : d.added_edges) {
    const std::uint32_t la = label_of(grid, e.from), lb = label_of(grid, e.to);
    if (!la || !lb) {
      recompute(grid);
      ++stats_.fallbacks;
      return true;
    }
    const std::uint32_t ra = find(la - 1), rb = find(lb - 1);
    if (ra == rb) continue;
    if (dag_inc(ra, rb)) {
      changed = true;
      invalidate_reach();
      if (!gate_[ra] && !gate_[rb]) merge_cycle(rb, ra);  // rb reaches ra: the move closes a cycle
    }
  }
  // 6. Gate cells that changed their gate kind (a door opened or closed).
  for (const CellPos& c : d.gate_changes) {
    const std::uint32_t l = label_of(grid, c);
    if (!l) continue;
    const std::uint32_t r = find(l - 1);
    const std::uint8_t g = kind_gate(grid.kind(c));
    if (g && gate_[r] != g) {
      gate_[r] = g;
      changed = true;
    }
  }
  if (parent_.size() > label_limit_) {  // dead labels filled the room: renumber (label_limit_)
    recompute(grid);
    ++stats_.compactions;
    return true;
  }
  if (changed) invalidate_reach();
  return changed;
}

std::uint8_t Islands::gates_present() const {
  std::uint8_t g = 0;
  for (std::size_t r = 0; r < gate_.size(); ++r)
    if (gate_[r] && parent_[r] == r && size_[r]) g |= gate_[r];
  return g;
}

bool Islands::reaches(std::uint32_t a, std::uint32_t b, std::uint8_t gates) {
  if (a == 0 || b == 0) return false;
  const std::uint32_t ra = find(a - 1), rb = find(b - 1);
  if (ra == rb) return true;
  if (out_[ra].empty()) return false;
  if (gate_[rb] && !(gate_[rb] & gates)) return false;
  if (ra >= reach_cache_.size()) reach_cache_.resize(parent_.size());
  std::array<ReachEntry, 2>& slots = reach_cache_[ra];
  ReachEntry* entry = nullptr;
  for (ReachEntry& e : slots)
    if (e.gen == dag_gen_ && e.gates == gates) entry = &e;
  if (!entry) {
    // Replace a stale slot, else the second one (the first holds the mask asked first).
    entry = slots[0].gen != dag_gen_ ? &slots[0] : &slots[1];
    const std::size_t words = (parent_.size() + 63) / 64;
    if (reach_cache_bits_ + words * 64 > kReachCacheBits) {
      for (auto& rs : reach_cache_)
        for (ReachEntry& r : rs) {
          std::vector<std::uint64_t>().swap(r.bits);
          r.gen = 0;
        }
      reach_cache_bits_ = 0;
    }
    if (entry->bits.size() != words) {
      reach_cache_bits_ += words * 64;
      reach_cache_bits_ -= entry->bits.size() * 64;
      entry->bits.assign(words, 0);
    } else {
      std::fill(entry->bits.begin(), entry->bits.end(), 0);
    }
    std::vector<std::uint64_t>& bits = entry->bits;
    std::vector<std::uint32_t> todo{ra};
    bits[ra >> 6] |= 1ull << (ra & 63);
    while (!todo.empty()) {
      const std::uint32_t c = todo.back();
      todo.pop_back();
      for (const DagEdge& e : out_[c]) {
        if (!e.count) continue;
        const std::uint32_t x = find(e.to);
        if (gate_[x] && !(gate_[x] & gates)) continue;
        if (!(bits[x >> 6] & (1ull << (x & 63)))) {
          bits[x >> 6] |= 1ull << (x & 63);
          todo.push_back(x);
        }
      }
    }
    entry->gen = dag_gen_;
    entry->gates = gates;
  }
  return (entry->bits[rb >> 6] >> (rb & 63)) & 1u;
}

}  // namespace voxnav::detail
