#include "engine/search/astar.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace voxnav::detail {

namespace {
/// a < b as 0 or 1. The empty asm keeps GCC from turning the heap's child selection back into
/// branches (the outcome is random, so a branch mispredicts half the time).
template <class K>
inline std::size_t less01(const K& a, const K& b) {
  std::size_t r = a < b;
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+r"(r));
#endif
  return r;
}

/// A flag computed without branches, tested once (GCC would otherwise branch on each part).
inline bool any01(std::size_t r) {
#if defined(__GNUC__) && !defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
  asm("" : "+r"(r));
#endif
  return r != 0;
}
}  // namespace

AStar::AStar(int slot) : slot_(slot) {}
AStar::~AStar() = default;

std::uint32_t AStar::new_block(NavChunk* ch) {
  NavChunk::SearchSlot& s = ch->slot[slot_];
  Block b;
  b.ch = ch;
  std::fill(std::begin(b.slab), std::end(b.slab), kNone);
  std::fill(std::begin(b.nb), std::end(b.nb), kUnknown);
  b.nb[13] = static_cast<std::uint32_t>(blocks_.size());  // nb_index(0, 0, 0): itself
  blocks_.push_back(b);
  s.stamp = stamp_;
  s.block = static_cast<std::uint32_t>(blocks_.size() - 1);
  return s.block;
}

std::uint32_t AStar::new_slab(std::uint32_t block, int ly) {
  Block& b = blocks_[block];
  NavChunk* ch = b.ch;
  const auto s = static_cast<std::uint32_t>(slabs_.size());
  Slab sl{ch, block, ly, ch->pos.x * 16, ch->pos.y * 16 + ly, ch->pos.z * 16, {}};
  std::fill(std::begin(sl.nb), std::end(sl.nb), kUnknown);
  sl.nb[4] = s;
  slabs_.push_back(sl);
  b.slab[ly] = s;
  const std::size_t end = (static_cast<std::size_t>(s) + 1) << 8;
  // Records past the used ones are all-empty: new ones are filled with kInf, used ones are reset
  // at the end of each search.
  if (recs_.size() < end) {
    recs_.resize(std::max(end, recs_.size() * 2), Rec{kInf, kNone});
    words_.resize(recs_.size());
  }
  if (ch->uniform)
    std::fill(words_.begin() + (end - 256), words_.begin() + end, 0u);
  else if (const std::uint32_t* row = ch->moves.row(ly))
    // in copies of 256 bytes: emscripten's memcpy calls out to JavaScript from 512 bytes up
    for (int k = 0; k < 256; k += 64)
      std::memcpy(words_.data() + (end - 256) + k, row + k, 64 * sizeof(std::uint32_t));
  else  // a row without a node cell stores one word for all
    std::fill(words_.begin() + (end - 256), words_.begin() + end, ch->moves.fill(ly));
  return s;
}

std::uint32_t AStar::link_block(std::uint32_t b, int k) {
  NavChunk* n = blocks_[b].ch->nb[static_cast<std::size_t>(k)];
  const std::uint32_t v = n ? block_of(n) : kNone;  // may grow blocks_
  blocks_[b].nb[k] = v;
  return v;
}

std::uint32_t AStar::link_slab(std::uint32_t s, int k) {
  const int ly = slabs_[s].ly;
  const std::uint32_t b = nb_block(slabs_[s].block, k + 9);     // nb_index(dx, 0, dz) = k + 9
  const std::uint32_t v = b == kNone ? kNone : slab_of(b, ly);  // may grow slabs_
  slabs_[s].nb[k] = v;
  return v;
}

void AStar::reserve_nodes(std::size_t n, std::size_t nodes_used, std::size_t heap_used,
                          std::size_t fast_used) {
  if (n <= cap_) return;
  std::size_t cap = cap_ ? cap_ : 1024;
  while (cap < n) cap *= 2;
  auto nodes = std::make_unique<Node[]>(cap);
  auto heap_key = std::make_unique<std::uint64_t[]>(cap);
  auto heap_id = std::make_unique<std::uint32_t[]>(cap);
  auto fast = std::make_unique<std::uint32_t[]>(cap);
  if (nodes_used)
    std::memcpy(static_cast<void*>(nodes.get()), nodes_.get(), nodes_used * sizeof(Node));
  if (heap_used) {
    std::memcpy(heap_key.get(), heap_key_.get(), heap_used * sizeof(std::uint64_t));
    std::memcpy(heap_id.get(), heap_id_.get(), heap_used * sizeof(std::uint32_t));
  }
  if (fast_used) std::memcpy(fast.get(), fast_.get(), fast_used * sizeof(std::uint32_t));
  nodes_ = std::move(nodes);
  heap_key_ = std::move(heap_key);
  heap_id_ = std::move(heap_id);
  fast_ = std::move(fast);
  cap_ = cap;
}

void AStar::set_costs(const CostTable& c) {
  if (costs_set_ && c == costs_) return;
  costs_ = c;
  costs_set_ = true;
  for (int dir = 0; dir < 8; ++dir)
    for (int code = 0; code < 16; ++code) {
      MoveInfo& m = moves_[dir * 16 + code];
      m = MoveInfo{kInf, 0, 0, 0, 0, 0};
      if (code == 0 || code >= kMoveCodeCount) continue;
      const MoveCode mc = kMoveCodes[code];
      m.dx = static_cast<std::int8_t>(kDirDx[dir]);
      m.dz = static_cast<std::int8_t>(kDirDz[dir]);
      m.dy = mc.dy;
      m.dxz = static_cast<std::int16_t>(kDirDx[dir] + 16 * kDirDz[dir]);
      m.kind = static_cast<std::uint8_t>(mc.kind);
      if (mc.kind == EdgeKind::Drop && -mc.dy > c.max_drop) continue;  // refused: cost stays kInf
      CostTable base = c;  // the move alone: the target's kind is added per cell
      base.kind_extra.fill(0);
      m.cost = move_cost(base, dir, code, CellKind::Walkable);
    }
  for (int k = 0; k < 16; ++k) kind_extra_[k] = c.kind_extra[static_cast<std::size_t>(k)];
  // A target of kind Walkable is the common case: its extra is folded into nothing (0) unless a
  // profile prices walkable ground, which the fast path below then must not skip.
  for (int b = 0; b < 2; ++b) {
    MoveInfo& m = vmoves_[b];
    m.cost = c.climb_cost;
    m.dxz = 0;
    m.dx = 0;
    m.dz = 0;
    m.dy = static_cast<std::int8_t>(b == 0 ? 1 : -1);
    m.kind = static_cast<std::uint8_t>(EdgeKind::Climb);
  }
  // A gap jump covers two or three cells along its direction: as many straight moves and a jump.
  for (int d = 0; d < 4; ++d)
    for (int v = 0; v < kGapVariants; ++v) {
      MoveInfo& m = gmoves_[d * kGapVariants + v];
      CostTable base = c;
      base.kind_extra.fill(0);
      m.cost = move_cost(base, d, kGapCode[v], CellKind::Walkable);
      m.dx = static_cast<std::int8_t>((kGapCells[v] + 1) * kDirDx[d]);
      m.dz = static_cast<std::int8_t>((kGapCells[v] + 1) * kDirDz[d]);
      m.dy = static_cast<std::int8_t>(kGapDy[v]);
      m.dxz = static_cast<std::int16_t>(m.dx + 16 * m.dz);
      m.kind = static_cast<std::uint8_t>(EdgeKind::GapJump);
    }
}

// An indexed 4-ary min-heap (half the depth of a binary heap, four children's keys in half a cache
// line); each node's position is kept in Node::hpos for decrease-key and removal. Entries order
// by key, then by the higher id; equal keys are rare, so children are compared by key alone and
// a tie among them is settled separately.
namespace {
inline bool entry_before(std::uint64_t ka, std::uint32_t ia, std::uint64_t kb, std::uint32_t ib) {
  return ka < kb || (ka == kb && ia > ib);
}
}  // namespace

inline void AStar::heap_sift_up(Heap& h, std::size_t i, std::uint64_t key, std::uint32_t id) {
  std::uint64_t* const hk = h.key;
  std::uint32_t* const hi = h.id;
  while (i > 0) {
    const std::size_t parent = (i - 1) >> 2;
    const std::uint64_t pk = hk[parent];
    const std::uint32_t pi = hi[parent];
    if (!entry_before(key, id, pk, pi)) break;
    hk[i] = pk;
    hi[i] = pi;
    h.nodes[pi].hpos = static_cast<std::uint32_t>(i);
    i = parent;
  }
  hk[i] = key;
  hi[i] = id;
  h.nodes[id].hpos = static_cast<std::uint32_t>(i);
}

// Pops the minimum: the hole left at the root goes down along the smallest children to a leaf
// (no comparison with the moving entry on the way), then the last entry is sifted up from there
// (it usually belongs near the bottom).
inline std::uint32_t AStar::heap_pop(Heap& h, std::uint64_t& top_key) {
  std::uint64_t* const hk = h.key;
  std::uint32_t* const hi = h.id;
  top_key = hk[0];
  const std::uint32_t top = hi[0];
  h.nodes[top].hpos = kNone;
  const std::size_t n = --h.size;
  if (n == 0) return top;
  const std::uint64_t last_key = hk[n];
  const std::uint32_t last_id = hi[n];
  std::size_t i = 0;
  for (;;) {
    const std::size_t c = (i << 2) + 1;
    std::size_t best;
    if (c + 3 < n) {
      const std::uint64_t* const q = hk + c;
      const std::size_t b01 = less01(q[1], q[0]);
      const std::size_t b23 = 2 + less01(q[3], q[2]);
      const std::size_t sel = less01(q[b23], q[b01]);
      std::size_t b = b01 ^ ((b01 ^ b23) & (0 - sel));  // no branch: the order is random
      // The tournament only met equal keys if one of its three comparisons did (rare): then the
      // higher id among the children with the smallest key wins.
      if (any01((q[0] == q[1]) | (q[2] == q[3]) | (q[b01] == q[b23]))) {
        const std::uint64_t mk = q[b];
        for (std::size_t k = 0; k < 4; ++k)
          if (q[k] == mk && hi[c + k] > hi[c + b]) b = k;
      }
      best = c + b;
    } else if (c < n) {
      best = c;
      for (std::size_t k = c + 1; k < n; ++k)
        if (entry_before(hk[k], hi[k], hk[best], hi[best])) best = k;
    } else {
      break;
    }
    hk[i] = hk[best];
    const std::uint32_t bi = hi[best];
    hi[i] = bi;
    h.nodes[bi].hpos = static_cast<std::uint32_t>(i);
    i = best;
  }
  heap_sift_up(h, i, last_key, last_id);
  return top;
}

void AStar::heap_remove(Heap& h, std::size_t i) {
  std::uint64_t* const hk = h.key;
  std::uint32_t* const hi = h.id;
  h.nodes[hi[i]].hpos = kNone;
  const std::size_t n = --h.size;
  if (i == n) return;
  const std::uint64_t lk = hk[n];
  const std::uint32_t li = hi[n];
  if (i > 0 && entry_before(lk, li, hk[(i - 1) >> 2], hi[(i - 1) >> 2])) {
    heap_sift_up(h, i, lk, li);
    return;
  }
  for (;;) {  // sift the last entry down from i
    const std::size_t c = (i << 2) + 1;
    if (c >= n) break;
    std::size_t best = c;
    for (std::size_t k = c + 1; k < c + 4 && k < n; ++k)
      if (entry_before(hk[k], hi[k], hk[best], hi[best])) best = k;
    if (!entry_before(hk[best], hi[best], lk, li)) break;
    hk[i] = hk[best];
    hi[i] = hi[best];
    h.nodes[hi[i]].hpos = static_cast<std::uint32_t>(i);
    i = best;
  }
  hk[i] = lk;
  hi[i] = li;
  h.nodes[li].hpos = static_cast<std::uint32_t>(i);
}

SearchResult AStar::run(const NavGrid& grid, const SearchParams& p, const CostTable& costs) {
  SearchResult res;
  NavChunk* sc = grid.chunk(chunk_of(p.start));
  const int si = index_in_chunk(p.start);
  if (!sc || !kind_node(sc->kind_at(si))) {
    res.outcome = SearchOutcome::BadStart;
    return res;
  }
  if (++stamp_ == 0) {  // stamps wrapped: forget every slot
    for (NavChunk* ch : grid.ordered_chunks()) ch->slot[slot_] = {};
    stamp_ = 1;
  }
  blocks_.clear();
  slabs_.clear();
  reserve_nodes(1024, 0, 0, 0);
  set_costs(costs);

  // Flee: no heuristic (a goal range no distance exceeds makes it 0), and its own goal test.
  const bool flee = p.flee_distance > 0;
  const int r = flee ? (1 << 30) : p.goal_range;
  const int gx = p.goal.x, gy = p.goal.y, gz = p.goal.z;
  const std::int64_t flee_d2 = std::int64_t(p.flee_distance) * p.flee_distance;
  auto far_enough = [&p, flee_d2](int x, int y, int z) {
    const std::int64_t dx = x - p.flee_from.x, dy = y - p.flee_from.y, dz = z - p.flee_from.z;
    return dx * dx + dy * dy + dz * dz >= flee_d2;
  };
  const int ry = std::max(r, 0);
  // Negative surface costs make some moves cheaper than their distance: the octile estimate is
  // scaled down by the cheapest ratio a move can reach (see CostTable::surface).
  const std::uint64_t hscale = costs.surface && costs.surface_min < 0
                                   ? static_cast<std::uint64_t>(std::max<std::int64_t>(
                                         4000, std::int64_t(kCostStraight) + costs.surface_min))
                                   : kCostStraight;
  auto heuristic = [r, gx, gz, hscale](int x, int z) {
    int dx = x - gx, dz = z - gz;
    dx = dx < 0 ? -dx : dx;
    dz = dz < 0 ? -dz : dz;
    // Capped (an admissible, consistent estimate still) so that f = g + h never wraps.
    const std::uint32_t o =
        std::min<std::uint32_t>(octile(dx > r ? dx - r : 0, dz > r ? dz - r : 0), kMaxH);
    return hscale == kCostStraight
               ? o
               : static_cast<std::uint32_t>(std::uint64_t(o) * hscale / kCostStraight);
  };
  const std::array<std::int32_t, 256>* const surf = costs.surface.get();
  auto key = [](std::uint32_t f, std::uint32_t h) { return (std::uint64_t(f) << 32) | h; };
  const int md = p.max_distance;
  const int sx = p.start.x, sz = p.start.z;

  // The search state lives in locals (members are written back where a call may grow them), so
  // the compiler keeps it in registers across the stores of the inner loops.
  Node* nodes = nodes_.get();
  Heap heap{heap_key_.get(), heap_id_.get(), nodes, 0};
  std::uint32_t* fast = fast_.get();
  std::size_t cap = cap_, node_count = 0, fast_size = 0;
  const std::uint32_t s0 = slab_of(block_of(sc), si >> 8);
  Rec* recs = recs_.data();
  const std::uint32_t* words = words_.data();
  const Slab* slabs = slabs_.data();
  auto refresh = [&] {  // after a call that may have added blocks or slabs
    recs = recs_.data();
    words = words_.data();
    slabs = slabs_.data();
  };
  {
    const std::uint32_t loc = (s0 << 8) | static_cast<std::uint32_t>(si & 255);
    recs[loc] = Rec{0, 0};
    nodes[0] = Node{loc, kNone, kNone, static_cast<std::uint32_t>(EdgeKind::Start)};
    node_count = 1;
  }
  const std::uint32_t h0 = heuristic(p.start.x, p.start.z);
  heap_sift_up(heap, heap.size++, key(h0, h0), 0);
  std::uint32_t best = 0, best_h = h0, best_g = 0;
  std::uint32_t found = kNone;
  bool budget_hit = false;
  std::uint32_t expanded = 0;
  std::uint32_t top_f = 0;
  const MoveInfo* const mtab = moves_;
  const bool swimmer = grid.envelope().swimmer;
  const std::uint32_t* const kind_extra = kind_extra_;
  // Walkable cells cost nothing extra (no profile prices plain ground so far, but the table allows
  // it).
  // A profile stepping or jumping lower than its class: each rising move is checked against
  // the floors (and the plain-walk fast path, which does not look at floors, is off).
  const int step_q = std::min<int>(costs.step_q, grid.envelope().step_q);
  const int jump_q = std::min<int>(costs.jump_q, grid.envelope().jump_q);
  const bool limits = step_q < grid.envelope().step_q || jump_q < grid.envelope().jump_q;
  auto rises_too_high = [&](const MoveInfo& m, const NavChunk* from, int fi, const NavChunk* to,
                            int ti) {
    const int rise = m.dy * kHeightUnits + to->floor[ti] - from->floor[fi];
    return rise_refused(static_cast<EdgeKind>(m.kind), rise, step_q, jump_q,
                        grid.envelope().step_q);
  };
  const bool walk_free = kind_extra[static_cast<int>(CellKind::Walkable)] == 0 && !limits;
  // Gap jumps: the class's navigation holds them over gap_reach cells; a profile reaching less
  // refuses them.
  const int gap_cells = std::min<int>(costs.gap_reach, grid.envelope().gap_reach);
  const bool gaps_on = gap_cells > 0;
  const std::vector<CellPos>* const avoid = p.avoid && !p.avoid->empty() ? p.avoid : nullptr;

  for (;;) {
    // Successors whose f equals the f being expanded skip the heap (the fast stack): with a
    // consistent heuristic every node of the minimum f may be expanded in any order and its g is
    // already optimal, so the result stays optimal and deterministic. A node on the fast stack is
    // never improved again (its f is the minimum), so the stack holds no stale entries.
    std::uint32_t cur, top_h;
    if (fast_size) {
      cur = fast[--fast_size];
      top_h = kNone;  // from g below
    } else if (heap.size) {
      std::uint64_t top_key;
      cur = heap_pop(heap, top_key);
      top_f = static_cast<std::uint32_t>(top_key >> 32);
      top_h = static_cast<std::uint32_t>(top_key);
    } else {
      break;
    }
    const std::uint32_t loc = nodes[cur].loc;
    const std::uint32_t cs = loc >> 8;
    const int cxz = static_cast<int>(loc & 255u);
    const Slab& slab = slabs[cs];
    NavChunk* const ch = slab.ch;
    const std::uint32_t cb = slab.block;
    const int ly = slab.ly;
    const int lx = cxz & 15, lz = cxz >> 4;
    const int cx = slab.x0 + lx, cy = slab.y, cz = slab.z0 + lz;
    const std::uint32_t g = recs[loc].g;
    if (top_h == kNone) top_h = top_f - g;
    if (flee ? far_enough(cx, cy, cz)
             : std::abs(cx - gx) <= r && std::abs(cy - gy) <= ry && std::abs(cz - gz) <= r) {
      found = cur;
      break;
    }
    if (expanded >= p.max_nodes) {
      budget_hit = true;
      if (p.stage) {  // the open node of lowest f: the end of the most promising route so far
        best = cur;
        best_h = top_h;
        best_g = g;
      }
      break;
    }
    ++expanded;
    if (top_h < best_h || (top_h == best_h && g < best_g)) {
      best = cur;
      best_h = top_h;
      best_g = g;
    }
    // A route this costly (about 295,000 cells of walking) goes no further: with every move below
    // kMaxMoveCost and h below kMaxH, f = g + h never wraps.
    if (g > kMaxG) continue;
    // (at most 8 level moves, 2 vertical moves and 4 gap jumps per cell)
    if (node_count + 16 > cap) {
      reserve_nodes(node_count + 16, node_count, heap.size, fast_size);
      nodes = nodes_.get();
      heap.key = heap_key_.get();
      heap.id = heap_id_.get();
      heap.nodes = nodes;
      fast = fast_.get();
      cap = cap_;
    }
    std::uint32_t word = words[loc];
    // A successor that improves on its cell's g: a new node, or an open node that moves up the
    // heap (or onto the fast stack).
    auto relax = [&](const MoveInfo& m, std::uint32_t tloc, Rec& rec, std::uint32_t ng)
        __attribute__((always_inline)) {
      const std::uint32_t h = heuristic(cx + m.dx, cz + m.dz);
      const std::uint32_t f = ng + h;
      if (rec.g == kInf) {
        const auto id = static_cast<std::uint32_t>(node_count++);
        rec = Rec{ng, id};
        nodes[id] = Node{tloc, cur, kNone, m.kind};
        if (f == top_f)
          fast[fast_size++] = id;
        else
          heap_sift_up(heap, heap.size++, key(f, h), id);
      } else {
        const std::uint32_t id = rec.id;
        rec.g = ng;
        Node& n = nodes[id];
        n.parent = cur;
        n.kind = m.kind;
        // The node is on the heap (never on the fast stack: its f would be the minimum).
        if (f == top_f) {
          heap_remove(heap, n.hpos);
          fast[fast_size++] = id;
        } else {
          heap_sift_up(heap, n.hpos, key(f, h), id);
        }
      }
    };
    const bool inner = static_cast<unsigned>(lx - 1) < 14u && static_cast<unsigned>(lz - 1) < 14u;
    // Only a cell at max_distance from the start can have successors beyond it.
    const bool at_bound = md > 0 && (std::abs(cx - sx) >= md || std::abs(cz - sz) >= md);
    // Codes 1 and 2 keep y; any nibble >= 3 moves up or down.
    const std::uint32_t vertical = (word & 0xCCCCCCCCu) | (word & (word >> 1) & 0x11111111u);
    // (a cell with gap jumps takes the general path; chunks with gap jumps are not `costly`: a gap
    // jump costs what its kind table says, and most cells of such a chunk have none)
    if (inner && !at_bound && (word & 0xEEEEEEEEu) == 0 && !ch->costly && walk_free &&
        !(ch->gaps &&
          ch->gaps[(static_cast<std::uint32_t>(ly) << 8) | static_cast<std::uint32_t>(cxz)])) {
      // Only level walks (code 1), all inside this layer of this chunk, no cell costs extra (the
      // open ground of most maps): the eight directions unrolled with constant offsets and costs.
      auto walk = [&](auto dir_constant) __attribute__((always_inline)) {
        constexpr int d = decltype(dir_constant)::value;
        if (!(word & (1u << (4 * d)))) return;
        const std::uint32_t tloc = loc + static_cast<std::uint32_t>(kDirDx[d] + 16 * kDirDz[d]);
        const std::uint32_t ng = g + (d < 4 ? kCostStraight : kCostDiagonal);
        Rec& rec = recs[tloc];
        if (ng < rec.g) relax(mtab[d * 16 + 1], tloc, rec, ng);
      };
      walk(std::integral_constant<int, 0>{});
      walk(std::integral_constant<int, 1>{});
      walk(std::integral_constant<int, 2>{});
      walk(std::integral_constant<int, 3>{});
      walk(std::integral_constant<int, 4>{});
      walk(std::integral_constant<int, 5>{});
      walk(std::integral_constant<int, 6>{});
      walk(std::integral_constant<int, 7>{});
      continue;
    }
    if (ch->vmoves) {
      // Straight up or down a ladder: into the same column of the layer above or below.
      if (const std::uint8_t vm =
              ch->vmoves[(static_cast<std::uint32_t>(ly) << 8) | static_cast<std::uint32_t>(cxz)]) {
        for (int b = 0; b < 2; ++b) {
          if (!(vm & (b == 0 ? kMoveUp : kMoveDown))) continue;
          const int ny = ly + (b == 0 ? 1 : -1);
          const std::uint32_t tb =
              (ny & ~15) == 0 ? cb : nb_block(cb, nb_index(0, ny < 0 ? -1 : 1, 0));
          if (tb == kNone) continue;
          const std::uint32_t ts = slab_of(tb, ny & 15);
          refresh();
          const std::uint32_t tloc = (ts << 8) | static_cast<std::uint32_t>(cxz);
          const NavChunk* tc = slabs[ts].ch;
          const std::uint32_t extra =
              tc->uniform ? 0u
                          : kind_extra[tc->kind[(static_cast<std::uint32_t>(ny & 15) << 8) |
                                                static_cast<std::uint32_t>(cxz)]];
          if (extra == kInf) continue;
          std::uint32_t vcost = vmoves_[b].cost + extra;
          if (surf && tc->surface) {
            vcost = with_surface(vcost, vmoves_[b].cost,
                                 (*surf)[tc->surface[(static_cast<std::uint32_t>(ny & 15) << 8) |
                                                     static_cast<std::uint32_t>(cxz)]]);
            if (vcost == kInf) continue;
          }
          const std::uint32_t ng = g + vcost;
          Rec& rec = recs[tloc];
          if (ng >= rec.g) continue;
          relax(vmoves_[b], tloc, rec, ng);
        }
      }
    }
    if (gaps_on && ch->gaps) {
      // Gap jumps: two cells along a cardinal direction, level or a cell lower.
      if (const GapWord gm =
              ch->gaps[(static_cast<std::uint32_t>(ly) << 8) | static_cast<std::uint32_t>(cxz)]) {
        for (int d = 0; d < 4; ++d)
          for (int v = 0; v < kGapVariants; ++v) {
            if (!(gm & (kGapBit[v] << d)) || kGapCells[v] > gap_cells) continue;
            const MoveInfo& m = gmoves_[d * kGapVariants + v];
            if (at_bound && (std::abs(cx + m.dx - sx) > md || std::abs(cz + m.dz - sz) > md))
              continue;
            const int nx = lx + m.dx, ny = ly + m.dy, nz = lz + m.dz;
            const int k = ((nx >> 4) + 1) + 3 * (((nz >> 4) + 1) + 3 * ((ny >> 4) + 1));
            const std::uint32_t tb = k == 13 ? cb : nb_block(cb, k);
            if (tb == kNone) continue;
            const std::uint32_t ts = slab_of(tb, ny & 15);
            refresh();
            const auto txz = static_cast<std::uint32_t>((nx & 15) | ((nz & 15) << 4));
            const std::uint32_t tloc = (ts << 8) | txz;
            const NavChunk* tc = slabs[ts].ch;
            const std::uint32_t ti = (static_cast<std::uint32_t>(ny & 15) << 8) | txz;
            const std::uint32_t extra = kind_extra[tc->kind[ti]];
            if (extra == kInf) continue;
            std::uint32_t cost = m.cost + extra;
            if (surf && tc->surface) {
              cost = with_surface(cost, m.cost, (*surf)[tc->surface[ti]]);
              if (cost == kInf) continue;
            }
            if (limits && rises_too_high(m, ch, (ly << 8) | cxz, tc, static_cast<int>(ti)))
              continue;
            const std::uint32_t ng = g + cost;
            Rec& rec = recs[tloc];
            if (ng >= rec.g) continue;
            relax(m, tloc, rec, ng);
          }
      }
    }
    if (!at_bound && vertical == 0) {
      // Level moves only: every successor is in this layer of this chunk or of the chunks around
      // (their slabs are cached per slab).
      while (word) {
        const int shift = __builtin_ctz(word) & ~3;  // 4 * direction
        const MoveInfo& m = mtab[(shift << 2) | static_cast<int>((word >> shift) & 15u)];
        word &= ~(15u << shift);
        std::uint32_t cost = m.cost;
        if (cost == kInf) continue;
        const int nx = lx + m.dx, nz = lz + m.dz;
        const int k = ((nx >> 4) + 1) + 3 * ((nz >> 4) + 1);
        std::uint32_t ts = cs;
        if (k != 4) {
          ts = nb_slab(cs, k);
          refresh();
          if (ts == kNone) continue;
        }
        const auto txz = static_cast<std::uint32_t>((nx & 15) | ((nz & 15) << 4));
        const std::uint32_t tloc = (ts << 8) | txz;
        const NavChunk* tc = slabs[ts].ch;
        if (tc->costly || !walk_free) {
          const std::uint32_t extra =
              kind_extra[tc->kind[(static_cast<std::uint32_t>(ly) << 8) | txz]];
          if (extra == kInf) continue;
          cost += extra;
        }
        if (surf && tc->surface) {
          cost = with_surface(cost, m.cost,
                              (*surf)[tc->surface[(static_cast<std::uint32_t>(ly) << 8) | txz]]);
          if (cost == kInf) continue;
        }
        if (limits && rises_too_high(m, ch, (ly << 8) | cxz, tc, (ly << 8) | static_cast<int>(txz)))
          continue;
        const std::uint32_t ng = g + cost;
        Rec& rec = recs[tloc];
        // Closed cells have their final g, which no path undercuts (consistent heuristic), so
        // one comparison skips closed cells and open cells that this move does not improve.
        if (ng >= rec.g) continue;
        relax(m, tloc, rec, ng);
      }
      continue;
    }
    while (word) {
      const int shift = __builtin_ctz(word) & ~3;
      const MoveInfo& m = mtab[(shift << 2) | static_cast<int>((word >> shift) & 15u)];
      word &= ~(15u << shift);
      std::uint32_t cost = m.cost;
      if (cost == kInf) continue;
      if (at_bound && (std::abs(cx + m.dx - sx) > md || std::abs(cz + m.dz - sz) > md)) continue;
      const int nx = lx + m.dx, ny = ly + m.dy, nz = lz + m.dz;
      const int k = ((nx >> 4) + 1) + 3 * (((nz >> 4) + 1) + 3 * ((ny >> 4) + 1));
      const std::uint32_t tb = k == 13 ? cb : nb_block(cb, k);
      if (tb == kNone) continue;
      const std::uint32_t ts = slab_of(tb, ny & 15);
      refresh();
      const auto txz = static_cast<std::uint32_t>((nx & 15) | ((nz & 15) << 4));
      const std::uint32_t tloc = (ts << 8) | txz;
      const NavChunk* tc = slabs[ts].ch;
      if (tc->costly || !walk_free) {
        const std::uint32_t extra =
            kind_extra[tc->kind[(static_cast<std::uint32_t>(ny & 15) << 8) | txz]];
        if (extra == kInf) continue;
        cost += extra;
      }
      if (surf && tc->surface) {
        cost = with_surface(cost, m.cost,
                            (*surf)[tc->surface[(static_cast<std::uint32_t>(ny & 15) << 8) | txz]]);
        if (cost == kInf) continue;
      }
      if (limits &&
          rises_too_high(m, ch, (ly << 8) | cxz, tc, ((ny & 15) << 8) | static_cast<int>(txz)))
        continue;
      if (avoid && m.kind == static_cast<std::uint8_t>(EdgeKind::Door)) {
        const CellPos t{cx + m.dx, cy + m.dy, cz + m.dz};
        for (const CellPos& a : *avoid)
          if (a == t) {
            cost += p.avoid_cost;
            break;
          }
      }
      const std::uint32_t ng = g + cost;
      Rec& rec = recs[tloc];
      if (ng >= rec.g) continue;
      relax(m, tloc, rec, ng);
    }
  }
  res.expanded = expanded;

  std::uint32_t end = found;
  if (found != kNone) {
    res.outcome = SearchOutcome::Found;
  } else {
    res.outcome = budget_hit ? SearchOutcome::BudgetExhausted : SearchOutcome::NoPath;
    if (p.partial && best != 0) {
      end = best;
      res.outcome = SearchOutcome::Partial;
    }
  }
  if (end != kNone) {
    std::size_t len = 0;
    for (std::uint32_t k = end; k != kNone; k = nodes[k].parent) ++len;
    res.cells.resize(len);
    res.kinds.resize(len);
    std::size_t at = len;
    for (std::uint32_t k = end; k != kNone; k = nodes[k].parent) {
      --at;
      res.cells[at] = cell_of_loc(nodes[k].loc);
      res.kinds[at] = static_cast<EdgeKind>(nodes[k].kind);
      if (swimmer && at > 0) res.kinds[at] = EdgeKind::Swim;  // a swimmer's moves are all Swim
    }
    res.cost = recs[nodes[end].loc].g;
  }
  // Leave every record empty for the next search: the used slabs whole, or node by node when the
  // search reached few cells of them.
  if (node_count >= slabs_.size() * 32) {
    std::fill(recs_.begin(), recs_.begin() + static_cast<std::ptrdiff_t>(slabs_.size() << 8),
              Rec{kInf, kNone});
  } else {
    for (std::size_t k = 0; k < node_count; ++k) recs[nodes[k].loc].g = kInf;
  }
  return res;
}

}  // namespace voxnav::detail
