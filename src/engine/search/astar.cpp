#include "engine/search/astar.h"

#include <algorithm>
#include <cstring>

#include "engine/islands/islands.h"

namespace voxnav::detail {


AStar::AStar(int slot) : slot_(slot) {}

std::uint32_t* AStar::new_block(NavChunk* ch) {
  NavChunk::SearchSlot& s = ch->slot[slot_];
  if (blocks_used_ == blocks_.size()) {
    blocks_.push_back(std::make_unique<std::uint32_t[]>(kChunkCells));
    std::memset(blocks_.back().get(), 0xFF, sizeof(std::uint32_t) * kChunkCells);
  }
  // Blocks are all-empty here: new ones are cleared once, used ones are reset node by node at
  // the end of each search (cheaper than clearing 4096 entries per touched chunk).
  std::uint32_t* b = blocks_[blocks_used_].get();
  s.stamp = stamp_;
  s.block = static_cast<std::uint32_t>(blocks_used_++);
  return b;
}

namespace {
constexpr std::uint32_t kClosedBit = 0x80000000u;  // in a block entry: that node is closed
}  // namespace

// A 4-ary min-heap: half the depth of a binary heap and four children in one cache line.
void AStar::heap_push(Open e) {
  std::size_t i = heap_.size();
  heap_.push_back(e);
  while (i > 0) {
    const std::size_t parent = (i - 1) >> 2;
    if (!before(e, heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

AStar::Open AStar::heap_pop() {
  const Open top = heap_[0];
  const Open last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    const std::size_t c = (i << 2) + 1;
    if (c >= n) break;
    std::size_t best = c;
    const std::size_t end = c + 4 < n ? c + 4 : n;
    for (std::size_t k = c + 1; k < end; ++k)
      if (before(heap_[k], heap_[best])) best = k;
    if (!before(heap_[best], last)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = last;
  return top;
}

SearchResult AStar::run(const NavGrid& grid, const SearchParams& p, const CostTable& costs) {
  SearchResult res;
  NavChunk* sc = grid.chunk(chunk_of(p.start));
  const int si = index_in_chunk(p.start);
  if (!sc || !kind_standable(sc->kind_at(si))) {
    res.outcome = SearchOutcome::BadStart;
    return res;
  }
  if (++stamp_ == 0) {  // stamps wrapped: forget every slot
    for (NavChunk* ch : grid.ordered_chunks()) ch->slot[slot_] = {};
    stamp_ = 1;
  }
  blocks_used_ = 0;
  nodes_.clear();
  heap_.clear();
  const int r = p.goal_range;
  auto heuristic = [&](const Cell& c) {
    int dx = c.x - p.goal.x, dz = c.z - p.goal.z;
    dx = dx < 0 ? -dx : dx;
    dz = dz < 0 ? -dz : dz;
    return octile(dx > r ? dx - r : 0, dz > r ? dz - r : 0);
  };
  auto at_goal = [&](const Cell& c) {
    return std::abs(c.x - p.goal.x) <= r && std::abs(c.y - p.goal.y) <= std::max(r, 0) &&
           std::abs(c.z - p.goal.z) <= r;
  };
  auto pack = [](std::uint32_t f, std::uint32_t h) { return (std::uint64_t(f) << 32) | h; };

  block_for(sc)[si] = 0;
  nodes_.push_back(Node{sc, 0, 0xFFFFFFFFu, static_cast<std::uint16_t>(si), 0,
                        static_cast<std::uint8_t>(EdgeKind::Start)});
  const std::uint32_t h0 = heuristic(p.start);
  heap_push(Open{pack(h0, h0), 0});
  std::uint32_t best = 0, best_h = h0;
  std::uint32_t found = 0xFFFFFFFFu;
  bool budget_hit = false;

  fast_.clear();
  for (;;) {
    // Successors whose f equals the f being expanded skip the heap (the "fast stack"): with a
    // consistent heuristic every node of the minimum f may be expanded in any order and its g is
    // already optimal, so the result stays optimal and deterministic.
    Open top;
    if (!fast_.empty()) {
      top = fast_.back();
      fast_.pop_back();
    } else if (!heap_.empty()) {
      top = heap_pop();
    } else {
      break;
    }
    Node& n = nodes_[top.node];
    if (n.closed) continue;
    const std::uint32_t top_h = static_cast<std::uint32_t>(top.fh);
    const std::uint32_t top_f = static_cast<std::uint32_t>(top.fh >> 32);
    if (top_f - top_h != n.g) continue;  // stale duplicate
    n.closed = 1;
    blocks_[n.ch->slot[slot_].block][n.idx] = top.node | kClosedBit;  // closed: skip without a node read
    const Cell c = node_cell(top.node);
    if (at_goal(c)) {
      found = top.node;
      break;
    }
    if (res.expanded >= p.max_nodes) {
      budget_hit = true;
      break;
    }
    ++res.expanded;
    if (top_h < best_h || (top_h == best_h && n.g < nodes_[best].g)) {
      best = top.node;
      best_h = top_h;
    }
    const std::uint32_t g = n.g;
    NavChunk* ch = n.ch;
    const int ci = n.idx;
    const std::uint32_t parent = top.node;
    for_each_move(ch, ci, c, [&](NavChunk* tc, int ti, const Cell& t, int dir, int code) {
      const MoveCode mc = kMoveCodes[code];
      if (mc.kind == EdgeKind::Drop && -mc.dy > costs.max_drop) return;
      if (p.max_distance > 0 &&
          (std::abs(t.x - p.start.x) > p.max_distance || std::abs(t.z - p.start.z) > p.max_distance))
        return;
      std::uint32_t* blk = block_for(tc);
      std::uint32_t id = blk[ti];
      if (id != 0xFFFFFFFFu && (id & kClosedBit)) return;
      const std::uint32_t ng =
          g + move_cost(costs, dir, code, tc->costly ? tc->kind_at(ti) : CellKind::Walkable);
      if (id == 0xFFFFFFFFu) {
        id = static_cast<std::uint32_t>(nodes_.size());
        blk[ti] = id;
        nodes_.push_back(Node{tc, ng, parent, static_cast<std::uint16_t>(ti), 0,
                              static_cast<std::uint8_t>(mc.kind)});
      } else {
        Node& m = nodes_[id];
        if (m.g <= ng) return;
        m.g = ng;
        m.parent = parent;
        m.kind = static_cast<std::uint8_t>(mc.kind);
      }
      const std::uint32_t h = heuristic(t);
      if (ng + h == top_f) fast_.push_back(Open{pack(ng + h, h), id});
      else heap_push(Open{pack(ng + h, h), id});
    });
  }

  std::uint32_t end = found;
  if (found != 0xFFFFFFFFu) {
    res.outcome = SearchOutcome::Found;
  } else {
    res.outcome = budget_hit ? SearchOutcome::BudgetExhausted : SearchOutcome::NoPath;
    if (p.partial && best != 0) {
      end = best;
      res.outcome = SearchOutcome::Partial;
    }
  }
  if (end != 0xFFFFFFFFu) {
    for (std::uint32_t k = end; k != 0xFFFFFFFFu; k = nodes_[k].parent) {
      res.cells.push_back(node_cell(k));
      res.kinds.push_back(static_cast<EdgeKind>(nodes_[k].kind));
    }
    std::reverse(res.cells.begin(), res.cells.end());
    std::reverse(res.kinds.begin(), res.kinds.end());
    res.cost = nodes_[end].g;
  }
  for (const Node& n : nodes_) blocks_[n.ch->slot[slot_].block][n.idx] = 0xFFFFFFFFu;
  static_assert(kClosedBit == 0x80000000u, "node ids stay below 2^31");
  return res;
}

}  // namespace voxnav::detail
