#include "engine/flow/flow_field.h"

#include <algorithm>
#include <queue>

#include "engine/corridor/corridor.h"
#include "engine/flow/flow_moves.h"

namespace voxnav::detail {

std::uint32_t FlowField::find(const CellPos& c) const {
  if (!cell_in_range(c)) return kFlowNone;
  const auto it = chunk_at.find(chunk_key(chunk_of(c)));
  if (it == chunk_at.end()) return kFlowNone;
  const ChunkRange& r = chunks[it->second];
  const auto want = static_cast<std::uint16_t>(index_in_chunk(c));
  const auto b = index.begin() + r.begin, e = index.begin() + r.end;
  const auto p = std::lower_bound(b, e, want);
  if (p == e || *p != want) return kFlowNone;
  return static_cast<std::uint32_t>(p - index.begin());
}

CellPos FlowField::cell(std::uint32_t i) const {
  // The chunk whose range holds i: the last one beginning at or before it.
  const auto it =
      std::upper_bound(chunks.begin(), chunks.end(), i,
                       [](std::uint32_t v, const ChunkRange& r) { return v < r.begin; });
  const ChunkRange& r = *(it - 1);
  const int k = index[i];
  return CellPos{r.pos.x * 16 + (k & 15), r.pos.y * 16 + (k >> 8), r.pos.z * 16 + ((k >> 4) & 15)};
}

FlowBox flow_region(CellPos goal, const std::vector<CellPos>& points, int margin, int half) {
  FlowBox b{goal, goal};
  for (const CellPos& p : points) {
    b.min = CellPos{std::min(b.min.x, p.x), std::min(b.min.y, p.y), std::min(b.min.z, p.z)};
    b.max = CellPos{std::max(b.max.x, p.x), std::max(b.max.y, p.y), std::max(b.max.z, p.z)};
  }
  auto grow = [&](int lo, int hi, int g, int lim_lo, int lim_hi, int& out_lo, int& out_hi) {
    out_lo = std::max({lo - margin, g - half, lim_lo});
    out_hi = std::min({hi + margin, g + half, lim_hi});
  };
  FlowBox r;
  grow(b.min.x, b.max.x, goal.x, -kMaxCellXZ, kMaxCellXZ, r.min.x, r.max.x);
  grow(b.min.y, b.max.y, goal.y, -kMaxCellY, kMaxCellY, r.min.y, r.max.y);
  grow(b.min.z, b.max.z, goal.z, -kMaxCellXZ, kMaxCellXZ, r.min.z, r.max.z);
  return r;
}

FlowBuild::FlowBuild(const NavGrid& grid, const CostTable& costs, CellPos goal, FlowBox region)
    : grid_(grid), costs_(costs), out_(std::make_shared<FlowField>()) {
  out_->goal = goal;
  out_->region = region;
  const ChunkPos lo = chunk_of(region.min), hi = chunk_of(region.max);
  for (int cy = lo.y; cy <= hi.y; ++cy)
    for (int cz = lo.z; cz <= hi.z; ++cz)
      for (int cx = lo.x; cx <= hi.x; ++cx) {
        NavChunk* ch = grid.chunk(ChunkPos{cx, cy, cz});
        if (ch && !ch->uniform && ch->nodes > 0) chunks_.push_back(ch);
      }
  // (y, z, x loops above are chunk_key order: y in the high bits, then z, then x)
  std::sort(chunks_.begin(), chunks_.end(), [](const NavChunk* a, const NavChunk* b) {
    return chunk_key(a->pos) < chunk_key(b->pos);
  });
  for (std::size_t k = 0; k < chunks_.size(); ++k)
    ordinal_.emplace(chunk_key(chunks_[k]->pos), static_cast<std::uint32_t>(k));
  slices_.resize(chunks_.size());
  remaining_.store(chunks_.size(), std::memory_order_relaxed);
}

void FlowBuild::run_slices() {
  if (chunks_.empty()) {
    // Nothing to gather: the first caller finishes the (failed) build.
    if (next_.fetch_add(1) == 0) {
      finish();
      done_.store(true, std::memory_order_release);
    }
    return;
  }
  for (;;) {
    const std::size_t k = next_.fetch_add(1, std::memory_order_relaxed);
    if (k >= chunks_.size()) return;
    gather(k);
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      finish();
      done_.store(true, std::memory_order_release);
    }
  }
}

void FlowBuild::gather(std::size_t k) {
  NavChunk* ch = chunks_[k];
  Slice& s = slices_[k];
  const MoveCosts moves(grid_, costs_);
  const FlowBox& box = out_->region;
  const int x0 = ch->pos.x * 16, y0 = ch->pos.y * 16, z0 = ch->pos.z * 16;
  // The ordinals of this chunk and its 26 neighbours (kFlowNone: not a chunk of the build).
  std::uint32_t nb_ord[27];
  for (int q = 0; q < 27; ++q) {
    const NavChunk* n = q == 13 ? ch : ch->nb[static_cast<std::size_t>(q)];
    const auto it = n ? ordinal_.find(chunk_key(n->pos)) : ordinal_.end();
    nb_ord[q] = it == ordinal_.end() ? kFlowNone : it->second;
  }
  s.rank.assign(kFlowSliceCells, 0xFFFF);
  // (chunks_ holds no uniform chunk)
  // Only the layers and rows inside the box, 8 cells at a time past air and rock.
  const int ly0 = std::max(0, box.min.y - y0), ly1 = std::min(15, box.max.y - y0);
  const int lz0 = std::max(0, box.min.z - z0), lz1 = std::min(15, box.max.z - z0);
  for (int i = (ly0 << 8) | (lz0 << 4); i < ((ly1 << 8) | (lz1 << 4)) + 16; ++i) {
    const std::uint8_t* kinds = ch->kind.row(i >> 8);
    if (!kinds) {  // a row of one kind
      if (!kind_node(static_cast<CellKind>(ch->kind.fill(i >> 8)))) {
        i |= 255;
        continue;
      }
    } else if ((i & 7) == 0 && !any_node8(kinds + (i & 255))) {
      i += 7;
      continue;
    }
    if (!kind_node(static_cast<CellKind>(ch->kind[i]))) continue;
    const int lx = i & 15, ly = i >> 8, lz = (i >> 4) & 15;
    if (lz < lz0 || lz > lz1) continue;
    const CellPos c{x0 + lx, y0 + ly, z0 + lz};
    if (!box.contains(c)) continue;
    const auto from = static_cast<std::uint32_t>(s.cells.size());
    s.rank[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(from);
    s.cells.push_back(static_cast<std::uint16_t>(i));
    moves.for_each(
        ch, i, [&](NavChunk*, int ti, int dx, int dy, int dz, std::uint32_t cost, EdgeKind kind) {
          if (!box.contains(CellPos{c.x + dx, c.y + dy, c.z + dz})) return;
          const std::uint32_t ord =
              nb_ord[nb_index((lx + dx) >> 4, (ly + dy) >> 4, (lz + dz) >> 4)];
          if (ord == kFlowNone) return;
          s.edges.push_back(Edge{from, ord, static_cast<std::uint16_t>(ti), kind, cost});
        });
  }
}

void FlowBuild::finish() {
  FlowField& f = *out_;
  const CellPos goal = f.goal;
  // Number the cells: chunk by chunk in key order, by index inside a chunk.
  std::vector<std::uint32_t> base(chunks_.size() + 1, 0);
  for (std::size_t k = 0; k < chunks_.size(); ++k)
    base[k + 1] = base[k] + static_cast<std::uint32_t>(slices_[k].cells.size());
  const std::uint32_t n = base.back();
  f.index.resize(n);
  f.chunks.reserve(chunks_.size());
  for (std::size_t k = 0; k < chunks_.size(); ++k) {
    std::copy(slices_[k].cells.begin(), slices_[k].cells.end(), f.index.begin() + base[k]);
    if (base[k + 1] > base[k]) {
      f.chunk_at.emplace(chunk_key(chunks_[k]->pos), static_cast<std::uint32_t>(f.chunks.size()));
      f.chunks.push_back(FlowField::ChunkRange{chunks_[k]->pos, base[k], base[k + 1]});
    }
  }
  f.goal_index = f.find(goal);
  if (f.goal_index == kFlowNone) {
    const NavChunk* gc = grid_.chunk(chunk_of(goal));
    f.failure = gc ? PathFailure::BadGoal : PathFailure::NotLoaded;
    f.index.clear();
    f.chunks.clear();
    f.chunk_at.clear();
    return;
  }
  // The target of an edge: its number (its chunk's first number plus its rank there).
  auto number = [&](std::uint32_t chunk, std::uint16_t idx) -> std::uint32_t {
    const std::uint16_t r = slices_[chunk].rank[idx];
    return r == 0xFFFF ? kFlowNone : base[chunk] + r;
  };
  // Reversed moves (CSR by target): into[start[v] .. start[v + 1]) are the moves u -> v.
  struct In {
    std::uint32_t from;
    std::uint32_t cost;
    EdgeKind kind;
  };
  std::vector<std::uint32_t> start(n + 1, 0);
  std::vector<std::uint32_t> target;
  std::size_t edges = 0;
  for (const Slice& s : slices_) edges += s.edges.size();
  target.reserve(edges);
  for (std::size_t k = 0; k < chunks_.size(); ++k)
    for (const Edge& e : slices_[k].edges) {
      const std::uint32_t v = number(e.chunk, e.index);
      target.push_back(v);
      if (v != kFlowNone) ++start[v + 1];
    }
  for (std::uint32_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<In> into(start[n]);
  {
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    std::size_t t = 0;
    for (std::size_t k = 0; k < chunks_.size(); ++k)
      for (const Edge& e : slices_[k].edges) {
        const std::uint32_t v = target[t++];
        if (v == kFlowNone) continue;
        into[fill[v]++] = In{base[k] + e.from, e.cost, e.kind};
      }
  }
  std::vector<Slice>().swap(slices_);
  // Dijkstra from the goal, popping by (cost, cell number).
  f.cost.assign(n, kFlowUnreached);
  f.succ.assign(n, kFlowNone);
  f.kind.assign(n, EdgeKind::Start);
  f.los.assign(n, 0);
  using Key = std::uint64_t;  // cost << 32 | number
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> open;
  f.cost[f.goal_index] = 0;
  open.push(f.goal_index);
  while (!open.empty()) {
    const Key top = open.top();
    open.pop();
    const auto v = static_cast<std::uint32_t>(top);
    const auto cv = static_cast<std::uint32_t>(top >> 32);
    if (cv != f.cost[v]) continue;  // a stale entry
    ++f.reached;
    // As the search: a path this costly goes no further (AStar::kMaxG).
    if (cv > AStar::kMaxG) continue;
    for (std::uint32_t e = start[v]; e < start[v + 1]; ++e) {
      const In& m = into[e];
      const std::uint32_t nc = cv + m.cost;
      if (nc < f.cost[m.from]) {
        f.cost[m.from] = nc;
        f.succ[m.from] = v;
        f.kind[m.from] = m.kind;
        open.push((Key{nc} << 32) | m.from);
      }
    }
  }
  // Line of sight: cells on the goal's level near it with a straight walkable line to it.
  const SurfaceCosts* surf = costs_.surface.get();
  const ChunkPos glo = chunk_of(CellPos{goal.x - kFlowLosCells, goal.y, goal.z - kFlowLosCells});
  const ChunkPos ghi = chunk_of(CellPos{goal.x + kFlowLosCells, goal.y, goal.z + kFlowLosCells});
  for (int cz = glo.z; cz <= ghi.z; ++cz)
    for (int cx = glo.x; cx <= ghi.x; ++cx) {
      const auto it = f.chunk_at.find(chunk_key(ChunkPos{cx, glo.y, cz}));
      if (it == f.chunk_at.end()) continue;
      const FlowField::ChunkRange& r = f.chunks[it->second];
      for (std::uint32_t i = r.begin; i < r.end; ++i) {
        const int k = f.index[i];
        if ((k >> 8) != (goal.y & 15) || f.cost[i] == kFlowUnreached) continue;
        const CellPos c{r.pos.x * 16 + (k & 15), goal.y, r.pos.z * 16 + ((k >> 4) & 15)};
        if (std::abs(c.x - goal.x) > kFlowLosCells || std::abs(c.z - goal.z) > kFlowLosCells)
          continue;
        if (!grid_.standable(c)) continue;
        if (c == goal || line_walkable_level(grid_, c, goal, surf)) f.los[i] = 1;
      }
    }
}

}  // namespace voxnav::detail
