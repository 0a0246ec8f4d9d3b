#include "engine/flight/flight_default.h"

#include <algorithm>

namespace voxnav::detail::flight {

namespace {

struct CellBox {
  int x0, y0, z0, x1, y1, z1;
};

int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
CellPos clamp_to(CellPos c, const CellBox& b) {
  return CellPos{clampi(c.x, b.x0, b.x1), clampi(c.y, b.y0, b.y1), clampi(c.z, b.z0, b.z1)};
}
int iabs(int v) { return v < 0 ? -v : v; }

// The cells a node covers: its brick when the brick is open, else its one cell.
CellBox node_box(const FlightGrid& grid, std::uint32_t id) {
  const std::uint32_t brick = id >> 6, bit = id & 63;
  const std::uint32_t pbx = std::uint32_t(grid.padded_x()), pby = std::uint32_t(grid.padded_y());
  const std::uint32_t rest = brick / pbx;
  const int bx = int(brick - rest * pbx) * 4 - 4, by = int(rest % pby) * 4 - 4, bz = int(rest / pby) * 4 - 4;
  if (grid.brick_ref(brick) == FlightGrid::kOpenRef) return CellBox{bx, by, bz, bx + 3, by + 3, bz + 3};
  const int x = bx + int(bit & 3), y = by + int((bit >> 2) & 3), z = bz + int(bit >> 4);
  return CellBox{x, y, z, x, y, z};
}

std::uint32_t node_of_cell(const FlightGrid& grid, CellPos c) {
  const std::uint32_t brick = grid.brick_index_of_cell(c.x, c.y, c.z);
  if (grid.brick_ref(brick) == FlightGrid::kOpenRef) return brick * 64;
  return brick * 64 + std::uint32_t(FlightGrid::bit_of_cell(c.x, c.y, c.z));
}

std::uint32_t manhattan(const CellBox& b, CellPos goal) {
  const CellPos n = clamp_to(goal, b);
  return std::uint32_t(iabs(n.x - goal.x) + iabs(n.y - goal.y) + iabs(n.z - goal.z));
}

// Face steps from `cur` to `to`, x first, then y, then z (inside an open brick every cell is free).
void walk(std::vector<CellPos>& cells, CellPos& cur, CellPos to) {
  while (cur.x != to.x) {
    cur.x += cur.x < to.x ? 1 : -1;
    cells.push_back(cur);
  }
  while (cur.y != to.y) {
    cur.y += cur.y < to.y ? 1 : -1;
    cells.push_back(cur);
  }
  while (cur.z != to.z) {
    cur.z += cur.z < to.z ? 1 : -1;
    cells.push_back(cur);
  }
}

bool entry_less(const std::uint64_t af, std::uint32_t ai, std::uint64_t bf, std::uint32_t bi) {
  return af < bf || (af == bf && ai < bi);
}

}  // namespace

DefaultSearch::Page& DefaultSearch::touch(std::uint32_t brick) {
  const std::uint64_t tag = tags_.get(brick);
  if (std::uint32_t(tag >> 32) == gen_) return pages_[std::uint32_t(tag)];
  if (pages_used_ == pages_.size()) pages_.resize(pages_.size() + std::max<std::size_t>(64, pages_.size() / 2));
  const std::size_t p = pages_used_++;
  tags_.set(brick, (std::uint64_t(gen_) << 32) | std::uint64_t(p));
  Page& page = pages_[p];
  std::fill(std::begin(page.g), std::end(page.g), ~std::uint32_t{0});
  page.closed = 0;
  return page;
}

DefaultSearch::Page* DefaultSearch::find(std::uint32_t brick) {
  const std::uint64_t tag = tags_.get(brick);
  return std::uint32_t(tag >> 32) == gen_ ? &pages_[std::uint32_t(tag)] : nullptr;
}

void DefaultSearch::push(Entry e) {
  std::size_t i = heap_.size();
  heap_.push_back(e);
  Entry* h = heap_.data();
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (!entry_less(e.fh, e.id, h[parent].fh, h[parent].id)) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

DefaultSearch::Entry DefaultSearch::pop() {
  Entry* h = heap_.data();
  const Entry top = h[0];
  const Entry last = h[heap_.size() - 1];
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return top;
  std::size_t i = 0;
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && entry_less(h[c + 1].fh, h[c + 1].id, h[c].fh, h[c].id)) ++c;
    if (!entry_less(h[c].fh, h[c].id, last.fh, last.id)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = last;
  return top;
}

std::size_t DefaultSearch::memory_bytes() const {
  return tags_.memory_bytes() + pages_.capacity() * sizeof(Page) + heap_.capacity() * sizeof(Entry);
}

void DefaultSearch::run(const FlightGrid& grid, CellPos start, CellPos goal, std::uint64_t max_expansions,
                        DefaultSearchResult& out) {
  out = DefaultSearchResult{};
  const std::size_t bricks = std::size_t(grid.padded_x()) * grid.padded_y() * grid.padded_z();
  gen_ = tags_.begin(bricks);
  pages_used_ = 0;
  heap_.clear();

  const std::uint32_t pbx = std::uint32_t(grid.padded_x()), pbxy = pbx * std::uint32_t(grid.padded_y());
  const std::uint32_t start_id = node_of_cell(grid, start), goal_id = node_of_cell(grid, goal);
  const auto push_node = [&](std::uint32_t id, std::uint32_t g, const CellBox& box) {
    const std::uint32_t h = manhattan(box, goal);
    push(Entry{(std::uint64_t(g) + 4 * std::uint64_t(h)) << 32 | h, id});
  };
  {
    Page& p = touch(start_id >> 6);
    p.g[start_id & 63] = 0;
    p.parent[start_id & 63] = start_id;
    push_node(start_id, 0, node_box(grid, start_id));
  }
  bool found = false;
  std::uint64_t expanded = 0;
  // The six face directions: cell offsets and padded brick offsets.
  const int fdx[6] = {-1, 1, 0, 0, 0, 0}, fdy[6] = {0, 0, -1, 1, 0, 0}, fdz[6] = {0, 0, 0, 0, -1, 1};
  const std::int64_t fbrick[6] = {-1, 1, -std::int64_t(pbx), std::int64_t(pbx), -std::int64_t(pbxy), std::int64_t(pbxy)};
  while (!heap_.empty()) {
    const Entry e = pop();
    const std::uint32_t id = e.id;
    Page& p = *find(id >> 6);
    const std::uint64_t bit = std::uint64_t{1} << (id & 63);
    if (p.closed & bit) continue;
    const std::uint32_t h = std::uint32_t(e.fh);
    const std::uint32_t g = std::uint32_t((e.fh >> 32) - 4 * std::uint64_t(h));
    if (p.g[id & 63] != g) continue;  // stale
    p.closed |= bit;
    if (id == goal_id) {
      found = true;
      break;
    }
    if (max_expansions != 0 && expanded == max_expansions) {
      out.limited = true;
      break;
    }
    ++expanded;
    const auto consider = [&](std::uint32_t m, const CellBox& mbox) {
      // One unit per node, one more for a hover cell (flyers prefer open air).
      const std::uint32_t mb = m & 63;
      const std::uint32_t ng = g + 1 + std::uint32_t((grid.brick_hover(m >> 6) >> mb) & 1u);
      Page& q = touch(m >> 6);
      if ((q.closed >> mb) & 1u) return;
      if (ng >= q.g[mb]) return;
      q.g[mb] = ng;
      q.parent[mb] = id;
      push_node(m, ng, mbox);
    };
    const std::uint32_t brick = id >> 6;
    const CellBox b = node_box(grid, id);
    if (grid.brick_ref(brick) == FlightGrid::kOpenRef) {
      for (int f = 0; f < 6; ++f) {
        const std::uint32_t nb = std::uint32_t(std::int64_t(brick) + fbrick[f]);
        const std::uint32_t ref = grid.brick_ref(nb);
        if (ref == FlightGrid::kBlockedRef) continue;
        const int ox = b.x0 + 4 * fdx[f], oy = b.y0 + 4 * fdy[f], oz = b.z0 + 4 * fdz[f];  // nb's first cell
        if (ref == FlightGrid::kOpenRef) {
          consider(nb * 64, CellBox{ox, oy, oz, ox + 3, oy + 3, oz + 3});
          continue;
        }
        // The face layer of the mixed neighbour that touches this brick.
        const std::uint64_t mask = grid.brick_mask(nb);
        const int axis = f / 2, layer = (f % 2) ? 0 : 3;
        for (int v = 0; v < 4; ++v)
          for (int u = 0; u < 4; ++u) {
            const int c[3] = {axis == 0 ? layer : u, axis == 1 ? layer : (axis == 0 ? u : v),
                              axis == 2 ? layer : v};
            const int cb = brick_bit(c[0], c[1], c[2]);
            if ((mask >> cb) & 1u)
              consider(nb * 64 + std::uint32_t(cb), CellBox{ox + c[0], oy + c[1], oz + c[2], ox + c[0], oy + c[1], oz + c[2]});
          }
      }
    } else {
      for (int f = 0; f < 6; ++f) {
        const int x = b.x0 + fdx[f], y = b.y0 + fdy[f], z = b.z0 + fdz[f];
        const std::uint32_t nb = grid.brick_index_of_cell(x, y, z);
        const std::uint32_t ref = grid.brick_ref(nb);
        if (ref == FlightGrid::kBlockedRef) continue;
        if (ref == FlightGrid::kOpenRef) {
          const int ox = x & ~3, oy = y & ~3, oz = z & ~3;
          consider(nb * 64, CellBox{ox, oy, oz, ox + 3, oy + 3, oz + 3});
          continue;
        }
        const int nbit = FlightGrid::bit_of_cell(x, y, z);
        if ((grid.brick_mask(nb) >> nbit) & 1u) consider(nb * 64 + std::uint32_t(nbit), CellBox{x, y, z, x, y, z});
      }
    }
  }
  out.expanded = expanded;
  if (!found) return;
  out.found = true;
  std::vector<std::uint32_t>& nodes = path_nodes_;
  nodes.clear();
  for (std::uint32_t id = goal_id;;) {
    nodes.push_back(id);
    const std::uint32_t parent = find(id >> 6)->parent[id & 63];
    if (parent == id) break;
    id = parent;
  }
  std::reverse(nodes.begin(), nodes.end());
  out.nodes = nodes.size() - 1;
  // Cells: from the start, through each node to the next one's nearest cell.
  CellPos cur = start;
  out.cells.push_back(cur);
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const CellBox a = node_box(grid, nodes[i - 1]), m = node_box(grid, nodes[i]);
    // The cell of m next to the path so far, and the cell of a beside it.
    const CellPos t = clamp_to(cur, m);
    const CellPos pa = clamp_to(t, a);
    walk(out.cells, cur, pa);
    cur = t;
    out.cells.push_back(cur);
  }
  walk(out.cells, cur, goal);  // inside the goal's node (an open brick, or already there)
}

}  // namespace voxnav::detail::flight
