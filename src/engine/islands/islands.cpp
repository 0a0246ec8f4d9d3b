#include "engine/islands/islands.h"

#include <algorithm>
#include <numeric>

namespace voxnav::detail {

std::uint32_t Islands::component(const NavGrid& grid, Cell c) {
  const NavChunk* ch = grid.chunk(chunk_of(c));
  if (!ch || ch->uniform || !ch->scc) return 0;
  return ch->scc[index_in_chunk(c)];
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

  // 3. Condensation DAG, weak components (union-find), sizes.
  size_.assign(ncomp, 0);
  for (std::uint32_t v = 0; v < n; ++v) ++size_[comp[v]];
  std::vector<std::uint64_t> pairs;
  for (std::uint32_t v = 0; v < n; ++v)
    for (std::uint32_t e = start[v]; e < start[v + 1]; ++e)
      if (comp[v] != comp[edges[e]])
        pairs.push_back((std::uint64_t(comp[v]) << 32) | comp[edges[e]]);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  dag_start_.assign(ncomp + 1, 0);
  dag_edges_.clear();
  dag_edges_.reserve(pairs.size());
  for (std::uint64_t p : pairs) {
    ++dag_start_[(p >> 32) + 1];
    dag_edges_.push_back(static_cast<std::uint32_t>(p));
  }
  for (std::uint32_t c = 0; c < ncomp; ++c) dag_start_[c + 1] += dag_start_[c];

  std::vector<std::uint32_t> parent(ncomp);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::uint64_t p : pairs) {
    const std::uint32_t a = find(static_cast<std::uint32_t>(p >> 32)),
                        b = find(static_cast<std::uint32_t>(p));
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  weak_.resize(ncomp);
  for (std::uint32_t c = 0; c < ncomp; ++c) weak_[c] = find(c);

  for (std::uint32_t v = 0; v < n; ++v) nodes[v].ch->scc[nodes[v].i] = comp[v] + 1;
  reach_cache_.assign(ncomp, {});
  reach_cache_bits_ = 0;
}

bool Islands::reaches(std::uint32_t a, std::uint32_t b) {
  if (a == 0 || b == 0) return false;
  if (a == b) return true;
  const std::uint32_t ca = a - 1, cb = b - 1;
  if (cb > ca) return false;                 // reverse topological numbering
  if (weak_[ca] != weak_[cb]) return false;  // no move connects them at all
  if (dag_start_[ca] == dag_start_[ca + 1]) return false;
  if (reach_cache_[ca].empty()) {
    const std::size_t words = (ca + 64) / 64;
    if (reach_cache_bits_ + words * 64 > kReachCacheBits) {
      for (auto& v : reach_cache_) std::vector<std::uint64_t>().swap(v);
      reach_cache_bits_ = 0;
    }
    reach_cache_bits_ += words * 64;
    std::vector<std::uint64_t> bits(words, 0);
    std::vector<std::uint32_t> todo{ca};
    bits[ca >> 6] |= 1ull << (ca & 63);
    while (!todo.empty()) {
      const std::uint32_t c = todo.back();
      todo.pop_back();
      for (std::uint32_t e = dag_start_[c]; e < dag_start_[c + 1]; ++e) {
        const std::uint32_t d = dag_edges_[e];
        if (!(bits[d >> 6] & (1ull << (d & 63)))) {
          bits[d >> 6] |= 1ull << (d & 63);
          todo.push_back(d);
        }
      }
    }
    reach_cache_[ca] = std::move(bits);
  }
  return (reach_cache_[ca][cb >> 6] >> (cb & 63)) & 1u;
}

}  // namespace voxnav::detail
