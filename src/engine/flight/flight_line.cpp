#include "engine/flight/flight_line.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

namespace voxnav::detail::flight {
namespace {

/// The times t (an open interval, widened by kTimeSlack) at which a box of half extent h centred
/// on a + t d along one axis overlaps the interior of cell i's slab [i, i+1) on that axis (inv_d
/// = 1 / d, any value when d is 0; its rounding is far inside the slack).
struct Span {
  double lo, hi;
};
Span axis_span(double a, double d, double inv_d, double h, int i) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (d == 0) {
    const bool inside = a - h < double(i) + 1.0 && a + h > double(i);
    return inside ? Span{-kInf, kInf} : Span{kInf, -kInf};
  }
  double t0 = (double(i) - h - a) * inv_d;
  double t1 = (double(i) + 1.0 + h - a) * inv_d;
  if (d < 0) std::swap(t0, t1);
  return {t0 - kTimeSlack, t1 + kTimeSlack};
}

/// The cells along one axis that a box of half extent h centred anywhere in [c0, c1] (c0 <= c1)
/// may touch, with one cell of margin for the slack (the spans decide).
void cell_range(double c0, double c1, double h, int& first, int& last) {
  first = int(std::floor(c0 - h)) - 1;
  last = int(std::floor(c1 + h)) + 1;
}

/// Clips `s` to [lo, hi]; false when nothing is left.
bool clip(Span s, double lo, double hi, double& out_lo, double& out_hi) {
  out_lo = std::max(s.lo, lo);
  out_hi = std::min(s.hi, hi);
  return out_lo < out_hi;
}

double dist(CellPos a, CellPos b) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

/// Visits every unit (cell or brick) whose interior a box of half extents h centred on a + t d
/// overlaps at some t in [t0, t1], restricted to units in [lo, hi] on each axis, with the time
/// window of the overlap; stops and returns false when `visit(x, y, z, tw0, tw1)` does.
template <class Visit>
bool sweep_units(Point3 a, Point3 d, Point3 h, const int lo[3], const int hi[3], double t0, double t1,
                 Visit&& visit) {
  const Point3 inv{d.x != 0 ? 1.0 / d.x : 0.0, d.y != 0 ? 1.0 / d.y : 0.0, d.z != 0 ? 1.0 / d.z : 0.0};
  const double pa0 = a.x + d.x * t0, pa1 = a.x + d.x * t1;
  int x0, x1;
  cell_range(std::min(pa0, pa1), std::max(pa0, pa1), h.x, x0, x1);
  x0 = std::max(x0, lo[0]);
  x1 = std::min(x1, hi[0]);
  for (int x = x0; x <= x1; ++x) {
    double tx0, tx1;  // while the box overlaps slab x
    if (!clip(axis_span(a.x, d.x, inv.x, h.x, x), t0, t1, tx0, tx1)) continue;
    const double ya = a.y + d.y * tx0, yb = a.y + d.y * tx1;
    int y0, y1;
    cell_range(std::min(ya, yb), std::max(ya, yb), h.y, y0, y1);
    y0 = std::max(y0, lo[1]);
    y1 = std::min(y1, hi[1]);
    for (int y = y0; y <= y1; ++y) {
      double ty0, ty1;  // while it overlaps slab x and row y
      if (!clip(axis_span(a.y, d.y, inv.y, h.y, y), tx0, tx1, ty0, ty1)) continue;
      const double za = a.z + d.z * ty0, zb = a.z + d.z * ty1;
      int z0, z1;
      cell_range(std::min(za, zb), std::max(za, zb), h.z, z0, z1);
      z0 = std::max(z0, lo[2]);
      z1 = std::min(z1, hi[2]);
      for (int z = z0; z <= z1; ++z) {
        double tz0, tz1;
        if (!clip(axis_span(a.z, d.z, inv.z, h.z, z), ty0, ty1, tz0, tz1)) continue;
        if (!visit(x, y, z, tz0, tz1)) return false;
      }
    }
  }
  return true;
}

}  // namespace

bool box_sweep_clear(const FlightGrid& grid, Point3 a, Point3 b, Point3 h) {
  const Point3 d{b.x - a.x, b.y - a.y, b.z - a.z};
  // Bricks first (the same sweep in brick units: a quarter of every length, exact in binary):
  // an all-open brick needs nothing more, an all-blocked one (or one outside the grid) touched
  // means a blocked cell touched, and a mixed one is swept cell by cell within its own cells and
  // the time window the box spends in it.
  const Point3 qa{a.x * 0.25, a.y * 0.25, a.z * 0.25}, qd{d.x * 0.25, d.y * 0.25, d.z * 0.25},
      qh{h.x * 0.25, h.y * 0.25, h.z * 0.25};
  constexpr int kAny[3] = {INT_MIN, INT_MIN, INT_MIN}, kAll[3] = {INT_MAX, INT_MAX, INT_MAX};
  const int nb[3] = {grid.padded_x() - 2, grid.padded_y() - 2, grid.padded_z() - 2};
  return sweep_units(qa, qd, qh, kAny, kAll, 0.0, 1.0, [&](int bx, int by, int bz, double t0, double t1) {
    if (bx < 0 || by < 0 || bz < 0 || bx >= nb[0] || by >= nb[1] || bz >= nb[2]) return false;
    const std::uint32_t brick = grid.brick_index_of_cell(bx * kBrickEdge, by * kBrickEdge, bz * kBrickEdge);
    const std::uint32_t ref = grid.brick_ref(brick);
    if (ref == FlightGrid::kOpenRef) return true;
    if (ref == FlightGrid::kBlockedRef) return false;
    const std::uint64_t mask = grid.brick_mask(brick);
    const int lo[3] = {bx * kBrickEdge, by * kBrickEdge, bz * kBrickEdge};
    const int hi[3] = {lo[0] + kBrickEdge - 1, lo[1] + kBrickEdge - 1, lo[2] + kBrickEdge - 1};
    return sweep_units(a, d, h, lo, hi, t0, t1, [&](int x, int y, int z, double, double) {
      return ((mask >> FlightGrid::bit_of_cell(x, y, z)) & 1u) != 0;
    });
  });
}

double pull_path(const FlightGrid& grid, const std::vector<CellPos>& cells, Point3 h, double max_segment,
                 std::size_t max_index_gap, std::vector<CellPos>& out) {
  out.clear();
  if (cells.empty()) return 0.0;
  out.push_back(cells.front());
  double length = 0.0;
  std::size_t i = 0;
  while (i + 1 < cells.size()) {
    std::size_t best = i + 1;  // one path step is always kept
    // The furthest first: in open air the first sweep tried is clear, so a segment costs one.
    for (std::size_t j = std::min(cells.size() - 1, i + max_index_gap); j >= i + 2; --j) {
      if (dist(cells[i], cells[j]) > max_segment) continue;
      if (box_sweep_clear(grid, cell_centre(cells[i]), cell_centre(cells[j]), h)) {
        best = j;
        break;
      }
    }
    length += dist(cells[i], cells[best]);
    out.push_back(cells[best]);
    i = best;
  }
  return length;
}

}  // namespace voxnav::detail::flight
