#include "engine/flight/flight_search.h"

#include <algorithm>
#include <cmath>

namespace voxnav::detail::flight {

namespace {

constexpr std::uint8_t kNoDir = 0xFF;

// The 26 moves, ordered by (dz, dy, dx). nb: the target's index in the 3x3x3 neighbourhood
// ((dx + 1) + 3 (dy + 1) + 9 (dz + 1)); need: the neighbourhood bits that must be free (every
// cell of the box the move spans but the centre); cost: the integer cost.
struct MoveTable {
  int dx[26], dy[26], dz[26];
  int nb[26];
  std::uint32_t need[26];
  std::uint64_t cost[26];
  int kind[26];  // 1 face, 2 edge diagonal, 3 corner diagonal
};

constexpr MoveTable make_moves() {
  MoveTable t{};
  int d = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        t.dx[d] = dx;
        t.dy[d] = dy;
        t.dz[d] = dz;
        t.nb[d] = (dx + 1) + 3 * (dy + 1) + 9 * (dz + 1);
        std::uint32_t need = 0;
        for (int az = 0; az <= 1; ++az)
          for (int ay = 0; ay <= 1; ++ay)
            for (int ax = 0; ax <= 1; ++ax) {
              const int cx = ax * dx, cy = ay * dy, cz = az * dz;
              if (cx == 0 && cy == 0 && cz == 0) continue;
              need |= std::uint32_t{1} << ((cx + 1) + 3 * (cy + 1) + 9 * (cz + 1));
            }
        t.need[d] = need;
        const int k = (dx != 0) + (dy != 0) + (dz != 0);
        t.kind[d] = k;
        t.cost[d] = k == 1 ? kCostStraight : k == 2 ? kCostDiag2 : kCostDiag3;
        ++d;
      }
  return t;
}
constexpr MoveTable kMoves = make_moves();

// Moves an expansion can skip, by the move that reached the cell: move d from cell n, reached
// from its parent p by move pd, cannot improve its target m when p -> m is itself a legal move
// (its box free: need[pd][d], in n's neighbourhood) costing no more than pd then d. p was
// expanded before n and relaxed m then, so g(m) <= g(p) + cost(p, m) <= g(n) + cost(d): the
// relaxation would be refused anyway. Skipping it saves a page lookup and changes nothing.
// m == p (d undoes pd) is skipped unconditionally (need 0): p is closed.
struct Dominance {
  std::uint32_t skippable[26];  // bit d: the pair (pd, d) qualifies
  std::uint32_t need[26][26];
};

constexpr Dominance make_dominance() {
  Dominance t{};
  for (int pd = 0; pd < 26; ++pd)
    for (int d = 0; d < 26; ++d) {
      const int px = -kMoves.dx[pd], py = -kMoves.dy[pd], pz = -kMoves.dz[pd];  // p, from n
      const int mx = kMoves.dx[d], my = kMoves.dy[d], mz = kMoves.dz[d];       // m, from n
      const int ex = mx - px, ey = my - py, ez = mz - pz;                       // p -> m
      if (ex < -1 || ex > 1 || ey < -1 || ey > 1 || ez < -1 || ez > 1) continue;
      const int k = (ex != 0) + (ey != 0) + (ez != 0);
      if (k == 0) {
        t.skippable[pd] |= std::uint32_t{1} << d;
        t.need[pd][d] = 0;
        continue;
      }
      const std::uint64_t c = k == 1 ? kCostStraight : k == 2 ? kCostDiag2 : kCostDiag3;
      if (c > kMoves.cost[pd] + kMoves.cost[d]) continue;
      std::uint32_t need = 0;
      for (int az = 0; az <= 1; ++az)
        for (int ay = 0; ay <= 1; ++ay)
          for (int ax = 0; ax <= 1; ++ax) {
            const int cx = px + ax * ex, cy = py + ay * ey, cz = pz + az * ez;
            need |= std::uint32_t{1} << ((cx + 1) + 3 * (cy + 1) + 9 * (cz + 1));
          }
      t.skippable[pd] |= std::uint32_t{1} << d;
      t.need[pd][d] = need;
    }
  return t;
}
constexpr Dominance kDominance = make_dominance();

}  // namespace

OptimalSearch::Page& OptimalSearch::new_page(std::uint32_t brick) {
  if (pages_used_ == pages_.size()) pages_.resize(pages_.size() + std::max<std::size_t>(64, pages_.size() / 2));
  const std::size_t p = pages_used_++;
  tags_.set(brick, (std::uint64_t(gen_) << 32) | std::uint64_t(p));
  Page& page = pages_[p];
  std::fill(std::begin(page.g), std::end(page.g), ~std::uint32_t{0});
  page.closed = 0;
  return page;
}

void OptimalSearch::queue_clear() {
  for (auto& b : buckets_) b.clear();
  stack_.clear();
  level_.clear();
  last_f_ = 0;
  queued_ = 0;
}

void OptimalSearch::queue_push(Entry e) {
  ++queued_;
  // f never drops below the last popped f (consistent heuristic); at the current f the entry
  // goes on top of the stack (run() sorts one expansion's entries there).
  if (e.f <= last_f_) {
    stack_.push_back(e);
    return;
  }
  buckets_[64 - __builtin_clzll(e.f ^ last_f_)].push_back(e);
}

OptimalSearch::Entry OptimalSearch::queue_pop() {
  --queued_;
  if (!stack_.empty()) {
    const Entry top = stack_.back();
    stack_.pop_back();
    return top;
  }
  if (level_.empty()) {
    // The lowest non-empty bucket holds the next f; its entries move to lower buckets (those at
    // that f to level_, sorted so that the lowest key is last).
    int b = 1;
    while (buckets_[b].empty()) ++b;
    std::vector<Entry>& src = buckets_[b];
    std::uint64_t m = src[0].f;
    for (const Entry& e : src) m = e.f < m ? e.f : m;
    last_f_ = m;
    for (const Entry& e : src) {
      if (e.f == m)
        level_.push_back(e);
      else
        buckets_[64 - __builtin_clzll(e.f ^ m)].push_back(e);
    }
    src.clear();
    sort_level();
  }
  const Entry top = level_.back();
  level_.pop_back();
  return top;
}

// Sorts level_ by key, highest first (the lowest is popped from the back). Large levels (A1's
// reach 10^5 entries and more) by an LSD radix sort on the bytes of ~key, skipping the bytes that
// are the same in every key; small ones by std::sort.
void OptimalSearch::sort_level() {
  const std::size_t n = level_.size();
  if (n < 512) {
    std::sort(level_.begin(), level_.end(), [](const Entry& l, const Entry& r) { return l.key > r.key; });
    return;
  }
  std::uint64_t all_and = ~std::uint64_t{0}, all_or = 0;
  for (const Entry& e : level_) {
    all_and &= ~e.key;
    all_or |= ~e.key;
  }
  radix_tmp_.resize(n);
  Entry* src = level_.data();
  Entry* dst = radix_tmp_.data();
  for (int shift = 0; shift < 64; shift += 8) {
    if (((all_and ^ all_or) >> shift & 0xFF) == 0) continue;  // this byte is the same everywhere
    std::size_t count[257] = {};
    for (std::size_t i = 0; i < n; ++i) ++count[((~src[i].key) >> shift & 0xFF) + 1];
    for (int b = 0; b < 256; ++b) count[b + 1] += count[b];
    for (std::size_t i = 0; i < n; ++i) dst[count[(~src[i].key) >> shift & 0xFF]++] = src[i];
    std::swap(src, dst);
  }
  if (src != level_.data()) std::copy(src, src + n, level_.data());
}

// Each radix bucket keeps its own largest size, so across many long searches the kept queue
// memory added up to 5 GB on A1's 10,000 rows. Vectors above kKeepQueueEntries are freed after
// a search (a long search then pays its page faults again: a few percent of its time).
void OptimalSearch::release_large_queues() {
  constexpr std::size_t kKeepQueueEntries = std::size_t{1} << 18;  // 4 MiB
  const auto trim = [](std::vector<Entry>& v) {
    if (v.capacity() > kKeepQueueEntries) std::vector<Entry>().swap(v);
  };
  for (auto& b : buckets_) trim(b);
  trim(stack_);
  trim(level_);
  trim(radix_tmp_);
}

std::size_t OptimalSearch::memory_bytes() const {
  return tags_.memory_bytes() + pages_.capacity() * sizeof(Page) +
         (stack_.capacity() + level_.capacity() + radix_tmp_.capacity()) * sizeof(Entry) + [this] {
           std::size_t n = 0;
           for (const auto& b : buckets_) n += b.capacity() * sizeof(Entry);
           return n;
         }();
}

void OptimalSearch::run(const FlightGrid& grid, CellPos start, CellPos goal,
                        std::uint64_t max_expansions, FlightSearchResult& out) {
  out = FlightSearchResult{};
  const std::size_t bricks = std::size_t(grid.padded_x()) * grid.padded_y() * grid.padded_z();
  gen_ = tags_.begin(bricks);
  pages_used_ = 0;
  queue_clear();

  const std::uint32_t pbx = std::uint32_t(grid.padded_x()), pby = std::uint32_t(grid.padded_y());
  const std::uint32_t pbxy = pbx * pby;
  const auto node_of = [&](int x, int y, int z) {
    return grid.brick_index_of_cell(x, y, z) * 64u + std::uint32_t(FlightGrid::bit_of_cell(x, y, z));
  };
  const std::uint32_t start_id = node_of(start.x, start.y, start.z);
  const std::uint32_t goal_id = node_of(goal.x, goal.y, goal.z);
  {
    Page& p = touch(start_id >> 6);
    p.g[start_id & 63] = 0;
    p.dir[start_id & 63] = kNoDir;
    const std::uint64_t h = octile3(goal.x - start.x, goal.y - start.y, goal.z - start.z);
    queue_push(Entry{h, (h << 32) | start_id});
  }
  bool found = false;
  std::uint64_t expanded = 0;
  while (queued_ != 0) {
    const Entry e = queue_pop();
    const std::uint32_t id = std::uint32_t(e.key);
    const std::uint64_t g = e.f - (e.key >> 32);
    std::uint8_t came_by;
    {
      Page& p = pages_[std::uint32_t(tags_.get(id >> 6))];
      const std::uint64_t bit = std::uint64_t{1} << (id & 63);
      if ((p.closed & bit) || p.g[id & 63] != g) continue;  // closed already, or a stale entry
      p.closed |= bit;
      came_by = p.dir[id & 63];
    }
    if (id == goal_id) {
      found = true;
      break;
    }
    if (max_expansions != 0 && expanded == max_expansions) {
      out.limited = true;
      break;
    }
    ++expanded;
    // The cell's coordinates from its padded brick and bit.
    const std::uint32_t brick = id >> 6, bit = id & 63;
    const std::uint32_t rest = brick / pbx;
    const int x = int(brick - rest * pbx) * 4 - 4 + int(bit & 3);
    const int y = int(rest % pby) * 4 - 4 + int((bit >> 2) & 3);
    const int z = int(rest / pby) * 4 - 4 + int(bit >> 4);
    // The 3x3x3 neighbourhood: node ids and free bits (the padding makes every read valid).
    std::uint32_t xb[3], yb[3], zb[3], xl[3], yl[3], zl[3];
    for (int a = 0; a < 3; ++a) {
      const int cx = x + a - 1, cy = y + a - 1, cz = z + a - 1;
      xb[a] = std::uint32_t((cx >> 2) + 1);
      yb[a] = std::uint32_t((cy >> 2) + 1) * pbx;
      zb[a] = std::uint32_t((cz >> 2) + 1) * pbxy;
      xl[a] = std::uint32_t(cx & 3);
      yl[a] = std::uint32_t(cy & 3) * 4;
      zl[a] = std::uint32_t(cz & 3) * 16;
    }
    std::uint32_t ids[27];
    std::uint32_t freebits = 0;
    int n = 0;
    for (int k = 0; k < 3; ++k)
      for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i, ++n) {
          const std::uint32_t b = xb[i] + yb[j] + zb[k];
          const std::uint32_t bt = xl[i] + yl[j] + zl[k];
          ids[n] = b * 64 + bt;
          freebits |= std::uint32_t((grid.brick_mask(b) >> bt) & 1u) << n;
        }
    const std::size_t children = stack_.size();
    // The neighbourhood spans at most 8 bricks: with room for 8 new pages, no touch() below moves
    // the pages, and the last brick's page is kept (moves are ordered, so runs share a brick).
    if (pages_.size() - pages_used_ < 8) pages_.resize(pages_.size() + std::max<std::size_t>(64, pages_.size() / 2));
    std::uint32_t last_brick = ~std::uint32_t{0};
    Page* last_page = nullptr;
    const std::uint32_t skippable = came_by == kNoDir ? 0u : kDominance.skippable[came_by];
    const std::uint32_t* dom_need = came_by == kNoDir ? kDominance.need[0] : kDominance.need[came_by];
    for (int d = 0; d < 26; ++d) {
      if ((freebits & kMoves.need[d]) != kMoves.need[d]) continue;
      if (((skippable >> d) & 1u) && (freebits & dom_need[d]) == dom_need[d]) continue;
      const std::uint32_t nid = ids[kMoves.nb[d]];
      if ((nid >> 6) != last_brick) {
        last_brick = nid >> 6;
        last_page = &touch(last_brick);
      }
      Page& q = *last_page;
      const std::uint32_t nbit = nid & 63;
      if ((q.closed >> nbit) & 1u) continue;
      const std::uint64_t ng = g + kMoves.cost[d];
      if (ng >= q.g[nbit]) continue;  // also refuses a cost of 2^32 - 1 or more (q.g starts there)
      q.g[nbit] = std::uint32_t(ng);
      q.dir[nbit] = std::uint8_t(d);
      const std::uint64_t nh = octile3(goal.x - x - kMoves.dx[d], goal.y - y - kMoves.dy[d], goal.z - z - kMoves.dz[d]);
      queue_push(Entry{ng + nh, (nh << 32) | nid});
    }
    // The children at the current f have a lower h than every entry already on the stack (their
    // g is higher at the same f): sorted among themselves, they go on top as they are.
    // (Insertion sort: at most 26 entries.)
    Entry* st = stack_.data();
    for (std::size_t i = children + 1; i < stack_.size(); ++i) {
      const Entry v = st[i];
      std::size_t j = i;
      while (j > children && st[j - 1].key < v.key) {
        st[j] = st[j - 1];
        --j;
      }
      st[j] = v;
    }
  }
  out.expanded = expanded;
  release_large_queues();
  if (!found) return;
  out.found = true;
  // Walk the parent moves back from the goal.
  CellPos c = goal;
  for (;;) {
    out.cells.push_back(c);
    const std::uint32_t id = node_of(c.x, c.y, c.z);
    const Page& p = pages_[std::uint32_t(tags_.get(id >> 6))];
    const std::uint8_t d = p.dir[id & 63];
    if (d == kNoDir) break;
    out.cost += kMoves.cost[d];
    (kMoves.kind[d] == 1 ? out.straight : kMoves.kind[d] == 2 ? out.diag2 : out.diag3) += 1;
    c = CellPos{c.x - kMoves.dx[d], c.y - kMoves.dy[d], c.z - kMoves.dz[d]};
  }
  std::reverse(out.cells.begin(), out.cells.end());
  out.length = double(out.straight) + double(out.diag2) * std::sqrt(2.0) + double(out.diag3) * std::sqrt(3.0);
}

}  // namespace voxnav::detail::flight
