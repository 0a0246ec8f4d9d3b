#include "engine/corridor/corridor.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "engine/islands/islands.h"

namespace voxnav::detail {

Waypoint waypoint_of(const NavGrid& grid, Cell c, EdgeKind kind) {
  const double fl = static_cast<double>(grid.floor_q(c)) / static_cast<double>(kHeightUnits);
  return Waypoint{static_cast<double>(c.x) + 0.5, static_cast<double>(c.y) + fl,
                  static_cast<double>(c.z) + 0.5, kind, c};
}

bool line_walkable_level(const NavGrid& grid, Cell a, Cell b) {
  if (a.y != b.y) return false;
  // Cells are looked up through the last chunk touched: one hash lookup per chunk crossed.
  const NavChunk* cached = nullptr;
  ChunkPos cached_pos{0, 0, 0};
  auto chunk_at = [&](const Cell& c) -> const NavChunk* {
    const ChunkPos p = chunk_of(c);
    if (!cached || !(p == cached_pos)) {
      cached = grid.chunk(p);
      cached_pos = p;
    }
    return cached;
  };
  const NavChunk* ca = chunk_at(a);
  if (!ca || ca->uniform) return false;
  const int fa = ca->floor[index_in_chunk(a)];
  const int step = grid.envelope().step_q;
  const int hw = grid.envelope().half_width_q;  // footprint half width, 1/64 cells
  // Sample the segment from centre to centre in 1/8-cell steps (fixed-point, integer exact).
  const int dx = (b.x - a.x) * 64, dz = (b.z - a.z) * 64;
  const int len = std::max(std::abs(dx), std::abs(dz));
  const int n = len / 8 + 1;
  // Each footprint corner usually stays in the same cell for several samples: check a cell only
  // when a corner enters it.
  int last_x[4] = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
  int last_z[4] = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
  for (int s = 0; s <= n; ++s) {
    const int px = a.x * 64 + 32 + dx * s / n;
    const int pz = a.z * 64 + 32 + dz * s / n;
    for (int corner = 0; corner < 4; ++corner) {
      const int qx = px + ((corner & 1) ? hw : -hw);
      const int qz = pz + ((corner & 2) ? hw : -hw);
      if ((qx >> 6) == last_x[corner] && (qz >> 6) == last_z[corner]) continue;
      last_x[corner] = qx >> 6;
      last_z[corner] = qz >> 6;
      const Cell c{qx >> 6, a.y, qz >> 6};
      const NavChunk* ch = chunk_at(c);
      if (!ch || ch->uniform) return false;
      const int i = index_in_chunk(c);
      if (!kind_standable(static_cast<CellKind>(ch->kind[i]))) return false;
      if (std::abs(static_cast<int>(ch->floor[i]) - fa) > step) return false;
    }
  }
  return true;
}

void string_pull(const NavGrid& grid, const std::vector<Cell>& cells,
                 const std::vector<EdgeKind>& kinds, std::vector<Waypoint>& out) {
  out.clear();
  if (cells.empty()) return;
  out.push_back(waypoint_of(grid, cells[0], EdgeKind::Start));
  std::size_t anchor = 0;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const bool level = kinds[i] == EdgeKind::Walk;
    const bool last = i + 1 == cells.size();
    if (!level) {
      if (anchor != i - 1) out.push_back(waypoint_of(grid, cells[i - 1], EdgeKind::Walk));
      out.push_back(waypoint_of(grid, cells[i], kinds[i]));
      anchor = i;
      continue;
    }
    if (last) {
      out.push_back(waypoint_of(grid, cells[i], EdgeKind::Walk));
      break;
    }
    // Can the anchor see the next cell directly? If not, cells[i] becomes a waypoint. Segments
    // are at most kMaxSegment cells long, which keeps string pulling linear in the path length.
    constexpr std::size_t kMaxSegment = 24;
    const bool next_level = kinds[i + 1] == EdgeKind::Walk;
    if (next_level && i + 1 - anchor <= kMaxSegment &&
        line_walkable_level(grid, cells[anchor], cells[i + 1]))
      continue;
    out.push_back(waypoint_of(grid, cells[i], EdgeKind::Walk));
    anchor = i;
  }
}

double path_length_xz(const std::vector<Cell>& cells) {
  double len = 0.0;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const int dx = std::abs(cells[i].x - cells[i - 1].x), dz = std::abs(cells[i].z - cells[i - 1].z);
    len += (dx && dz) ? std::sqrt(2.0) : 1.0;
  }
  return len;
}

bool path_still_valid(const NavGrid& grid, const std::vector<Cell>& cells,
                      const std::vector<EdgeKind>& kinds, std::size_t from) {
  for (std::size_t i = from; i + 1 < cells.size(); ++i) {
    const Cell a = cells[i], b = cells[i + 1];
    NavChunk* ch = grid.chunk(chunk_of(a));
    if (!ch) return false;
    bool ok = false;
    for_each_move(ch, index_in_chunk(a), a, [&](NavChunk*, int, const Cell& t, int, int code) {
      if (t == b && kMoveCodes[code].kind == kinds[i + 1]) ok = true;
    });
    if (!ok) return false;
  }
  return true;
}

}  // namespace voxnav::detail
