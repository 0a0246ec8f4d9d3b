#include "engine/islands/islands.h"

#include <algorithm>
#include <numeric>

namespace voxnav::detail {

std::uint32_t Islands::label_of(const NavGrid& grid, Cell c) const {
  const NavChunk* ch = grid.chunk(chunk_of(c));
  if (!ch || ch->uniform || !ch->scc) return 0;
  return ch->scc[index_in_chunk(c)];
}

std::uint32_t Islands::component(const NavGrid& grid, Cell c) {
  const std::uint32_t raw = label_of(grid, c);
  return raw ? find(raw - 1) + 1 : 0u;
}

void Islands::rebuild(NavGrid& grid) {
  // 1. Dense ids for standable cells (chunk_key order, then cell index): stored as id + 1 in scc.
  struct NodeRef {
    NavChunk* ch;
    std::uint16_t i;
  };
  std::vector<NodeRef> nodes;
  for (NavChunk* ch : grid.ordered_chunks()) {
    if (ch->uniform || ch->standable == 0) {
      ch->scc.reset();
      continue;
    }
    if (!ch->scc) ch->scc = std::make_unique<std::uint32_t[]>(kChunkCells);
    for (int i = 0; i < kChunkCells; ++i) {
      if (kind_standable(static_cast<CellKind>(ch->kind[i]))) {
        nodes.push_back({ch, static_cast<std::uint16_t>(i)});
        ch->scc[i] = static_cast<std::uint32_t>(nodes.size());
      } else {
        ch->scc[i] = 0;
      }
    }
  }
  const std::uint32_t n = static_cast<std::uint32_t>(nodes.size());
  cells_ = n;
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  // Successors of a dense node, computed once into CSR (move words are the truth).
  std::vector<std::uint32_t> start(n + 1, 0), edges;
  edges.reserve(std::size_t(n) * 4);
  for (std::uint32_t v = 0; v < n; ++v) {
    start[v] = static_cast<std::uint32_t>(edges.size());
    const NodeRef r = nodes[v];
    for_each_move(r.ch, r.i, cell_of(r.ch, r.i), [&](NavChunk* tc, int ti, const Cell&, int, int) {
      if (tc->scc && tc->scc[ti]) edges.push_back(tc->scc[ti] - 1);
    });
  }
  start[n] = static_cast<std::uint32_t>(edges.size());

  // 2. Tarjan, iterative.
  std::vector<std::uint32_t> index(n, kNone), low(n, 0), comp(n, kNone), stack, call;
  std::vector<std::uint32_t> next_edge(n, 0);
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

  // 3. Labels, sizes and the condensation with a move count per island pair.
  parent_.resize(ncomp);
  std::iota(parent_.begin(), parent_.end(), 0u);
  size_.assign(ncomp, 0);
  for (std::uint32_t v = 0; v < n; ++v) ++size_[comp[v]];
  std::vector<std::uint64_t> pairs;
  for (std::uint32_t v = 0; v < n; ++v)
    for (std::uint32_t e = start[v]; e < start[v + 1]; ++e)
      if (comp[v] != comp[edges[e]])
        pairs.push_back((std::uint64_t(comp[v]) << 32) | comp[edges[e]]);
  std::sort(pairs.begin(), pairs.end());
  out_.assign(ncomp, {});
  for (std::size_t k = 0; k < pairs.size();) {
    std::size_t e = k;
    while (e < pairs.size() && pairs[e] == pairs[k]) ++e;
    out_[pairs[k] >> 32].push_back({static_cast<std::uint32_t>(pairs[k]), static_cast<std::uint32_t>(e - k)});
    k = e;
  }
  live_ = ncomp;
  for (std::uint32_t v = 0; v < n; ++v) nodes[v].ch->scc[nodes[v].i] = comp[v] + 1;
  reach_cache_.assign(ncomp, {});
  reach_cache_bits_ = 0;
  invalidate_reach();
  ++stats_.rebuilds;
}

std::uint32_t Islands::new_label() {
  invalidate_reach();
  const auto l = static_cast<std::uint32_t>(parent_.size());
  parent_.push_back(l);
  size_.push_back(0);
  out_.emplace_back();
  reach_cache_.emplace_back();
  return l;
}

bool Islands::dag_inc(std::uint32_t ra, std::uint32_t rb) {
  bool present = false;
  DagEdge* slot = nullptr;
  for (DagEdge& e : out_[ra]) {
    if (find(e.to) != rb) continue;
    if (e.count) present = true;
    if (!slot) slot = &e;
  }
  if (slot) {
    ++slot->count;
  } else {
    out_[ra].push_back({rb, 1});
  }
  return !present;
}

bool Islands::dag_dec(std::uint32_t ra, std::uint32_t rb) {
  std::uint32_t left = 0;
  bool done = false;
  for (DagEdge& e : out_[ra]) {
    if (find(e.to) != rb) continue;
    if (!done && e.count) {
      --e.count;
      done = true;
    }
    left += e.count;
  }
  // A missing edge would mean the DAG counts drifted from the move words (an internal bug);
  // report a change so callers stay conservative.
  return !done || left == 0;
}

bool Islands::merge_cycle(std::uint32_t from, std::uint32_t to) {
  // Iterative DFS over the DAG from `from`; on = the island reaches `to` (decided in post-order).
  // Scratch arrays persist across calls; only the entries touched are reset.
  if (dfs_state_.size() < parent_.size()) {
    dfs_state_.resize(parent_.size(), 0);
    dfs_next_.resize(parent_.size(), 0);
  }
  enum : std::uint8_t { kOpen = 1, kDone = 2, kOn = 4 };
  std::vector<std::uint32_t>& order = dfs_order_;
  std::vector<std::uint32_t>& stack = dfs_stack_;
  order.clear();
  stack.assign(1, from);
  dfs_state_[from] = kOpen;
  dfs_next_[from] = 0;
  while (!stack.empty()) {
    const std::uint32_t x = stack.back();
    if (x == to) {
      dfs_state_[x] = kDone | kOn;
      order.push_back(x);
      stack.pop_back();
      continue;
    }
    bool pushed = false;
    while (dfs_next_[x] < out_[x].size()) {
      const DagEdge& e = out_[x][dfs_next_[x]++];
      if (!e.count) continue;
      const std::uint32_t y = find(e.to);
      if (y == x || dfs_state_[y]) continue;
      dfs_state_[y] = kOpen;
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
    dfs_state_[x] = st;
    order.push_back(x);
    stack.pop_back();
  }
  const bool cycle = dfs_state_[from] & kOn;
  std::vector<std::uint32_t> members;
  if (cycle)
    for (std::uint32_t x : order)
      if (dfs_state_[x] & kOn) members.push_back(x);
  for (std::uint32_t x : order) dfs_state_[x] = 0;
  if (!cycle) return false;
  // Unite every island on a from -> to path (both included) under the largest one.
  std::uint32_t root = members[0];
  for (std::uint32_t x : members)
    if (size_[x] > size_[root] || (size_[x] == size_[root] && x < root)) root = x;
  std::vector<DagEdge> edges = std::move(out_[root]);
  for (std::uint32_t x : members) {
    if (x == root) continue;
    parent_[x] = root;
    size_[root] += size_[x];
    size_[x] = 0;
    edges.insert(edges.end(), out_[x].begin(), out_[x].end());
    std::vector<DagEdge>().swap(out_[x]);
    --live_;
  }
  // Normalise: resolve targets, drop edges inside the merged island, add up duplicates.
  for (DagEdge& e : edges) e.to = find(e.to);
  std::sort(edges.begin(), edges.end(), [](const DagEdge& a, const DagEdge& b) { return a.to < b.to; });
  std::vector<DagEdge> merged;
  for (const DagEdge& e : edges) {
    if (e.to == root || !e.count) continue;
    if (!merged.empty() && merged.back().to == e.to) {
      merged.back().count += e.count;
    } else {
      merged.push_back(e);
    }
  }
  out_[root] = std::move(merged);
  ++stats_.merges;
  return true;
}

bool Islands::still_connected(const NavGrid& grid, const std::vector<Cell>& targets) {
  if (targets.size() < 2) return true;
  constexpr std::size_t kBudget = 4096;
  constexpr std::size_t kTable = 16384;  // open addressing, load <= 1/4
  if (seen_key_.size() != kTable) {
    seen_key_.assign(kTable, 0);
    seen_stamp_.assign(kTable, 0);
  }
  ++stats_.split_checks;
  for (int backward = 0; backward < 2; ++backward) {
    if (++stamp_ == 0) {
      std::fill(seen_stamp_.begin(), seen_stamp_.end(), 0u);
      stamp_ = 1;
    }
    // Returns true when the cell was not seen before (and marks it).
    auto mark = [&](const Cell& c) {
      const std::uint64_t key = cell_key(c);
      std::size_t h = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 50) & (kTable - 1);
      while (seen_stamp_[h] == stamp_) {
        if (seen_key_[h] == key) return false;
        h = (h + 1) & (kTable - 1);
      }
      seen_stamp_[h] = stamp_;
      seen_key_[h] = key;
      return true;
    };
    std::size_t remaining = 0;
    // Targets are found when the search marks them; count the distinct ones first.
    for (std::size_t k = 1; k < targets.size(); ++k) {
      bool dup = targets[k] == targets[0];
      for (std::size_t j = 1; j < k && !dup; ++j) dup = targets[j] == targets[k];
      if (!dup) ++remaining;
    }
    queue_.clear();
    queue_.push_back(targets[0]);
    mark(targets[0]);
    std::size_t head = 0;
    auto visit = [&](const Cell& n) {
      if (!mark(n)) return;
      queue_.push_back(n);
      for (std::size_t k = 1; k < targets.size(); ++k)
        if (targets[k] == n) {
          --remaining;
          break;
        }
    };
    while (remaining && head < queue_.size() && queue_.size() < kBudget) {
      const Cell c = queue_[head++];
      if (backward) {
        for_each_move_into(grid, c, [&](const Cell& s) { visit(s); });
      } else {
        NavChunk* ch = grid.chunk(chunk_of(c));
        for_each_move(ch, index_in_chunk(c), c, [&](NavChunk*, int, const Cell& t, int, int) { visit(t); });
      }
    }
    if (remaining) return false;
  }
  return true;
}

bool Islands::apply(NavGrid& grid, const IslandDelta& d) {
  ++stats_.deltas;
  if (d.empty()) return false;
  bool changed = !d.removed_nodes.empty() || !d.added_nodes.empty();

  // 1. Removed moves: between islands they lower a DAG count; inside an island their endpoints
  //    must stay mutually reachable.
  std::vector<std::pair<std::uint32_t, Cell>> endpoints;  // (island root, cell still standable)
  auto standable_now = [&](const Cell& c) { return grid.standable(c); };
  for (const CellEdge& e : d.removed_edges) {
    const std::uint32_t la = label_of(grid, e.from), lb = label_of(grid, e.to);
    if (!la || !lb) {  // the labels drifted from the move words: recompute everything
      rebuild(grid);
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
  for (const Cell& c : d.removed_nodes) {
    NavChunk* ch = grid.chunk(chunk_of(c));
    const int i = index_in_chunk(c);
    const std::uint32_t l = (ch && ch->scc) ? ch->scc[i] : 0u;
    if (!l) continue;
    const std::uint32_t r = find(l - 1);
    ch->scc[i] = 0;
    --cells_;
    if (--size_[r] == 0) --live_;
  }
  // 3. Islands that lost an inner move: prove they hold, island by island (in a fixed order).
  std::stable_sort(endpoints.begin(), endpoints.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Cell> group;
  for (std::size_t k = 0; k < endpoints.size();) {
    group.clear();
    std::size_t e = k;
    while (e < endpoints.size() && endpoints[e].first == endpoints[k].first) group.push_back(endpoints[e++].second);
    k = e;
    if (!still_connected(grid, group)) {
      rebuild(grid);
      ++stats_.fallbacks;
      return true;
    }
  }
  // 4. Added nodes: one new single-cell island each.
  for (const Cell& c : d.added_nodes) {
    NavChunk* ch = grid.chunk(chunk_of(c));
    if (!ch || ch->uniform) continue;
    if (!ch->scc) ch->scc = std::make_unique<std::uint32_t[]>(kChunkCells);
    const std::uint32_t l = new_label();
    size_[l] = 1;
    ++cells_;
    ++live_;
    ch->scc[index_in_chunk(c)] = l + 1;
  }
  // 5. Added moves: a DAG edge, or a merge when it closes a cycle.
  for (const CellEdge& e : d.added_edges) {
    const std::uint32_t la = label_of(grid, e.from), lb = label_of(grid, e.to);
    if (!la || !lb) {
      rebuild(grid);
      ++stats_.fallbacks;
      return true;
    }
    const std::uint32_t ra = find(la - 1), rb = find(lb - 1);
    if (ra == rb) continue;
    if (dag_inc(ra, rb)) {
      changed = true;
      invalidate_reach();
      merge_cycle(rb, ra);  // rb reaches ra: the new move closes a cycle
    }
  }
  if (changed) invalidate_reach();
  return changed;
}

bool Islands::reaches(std::uint32_t a, std::uint32_t b) {
  if (a == 0 || b == 0) return false;
  const std::uint32_t ra = find(a - 1), rb = find(b - 1);
  if (ra == rb) return true;
  if (out_[ra].empty()) return false;
  ReachEntry& entry = reach_cache_[ra];
  if (entry.gen != dag_gen_) {
    const std::size_t words = (parent_.size() + 63) / 64;
    if (reach_cache_bits_ + words * 64 > kReachCacheBits) {
      for (ReachEntry& r : reach_cache_) {
        std::vector<std::uint64_t>().swap(r.bits);
        r.gen = 0;
      }
      reach_cache_bits_ = 0;
    }
    if (entry.bits.size() != words) {
      reach_cache_bits_ += words * 64;
      reach_cache_bits_ -= entry.bits.size() * 64;
      entry.bits.assign(words, 0);
    } else {
      std::fill(entry.bits.begin(), entry.bits.end(), 0);
    }
    std::vector<std::uint64_t>& bits = entry.bits;
    std::vector<std::uint32_t> todo{ra};
    bits[ra >> 6] |= 1ull << (ra & 63);
    while (!todo.empty()) {
      const std::uint32_t c = todo.back();
      todo.pop_back();
      for (const DagEdge& e : out_[c]) {
        if (!e.count) continue;
        const std::uint32_t x = find(e.to);
        if (!(bits[x >> 6] & (1ull << (x & 63)))) {
          bits[x >> 6] |= 1ull << (x & 63);
          todo.push_back(x);
        }
      }
    }
    entry.gen = dag_gen_;
  }
  return (entry.bits[rb >> 6] >> (rb & 63)) & 1u;
}

}  // namespace voxnav::detail
