// The straight line for flyers: does a box swept along a segment stay in free cells of a
// FlightGrid (flight_grid.h)? And string pulling of a cell path with that test.
//
// Space is the grid's: cell (x, y, z) is the unit cube [x, x+1) x [y, y+1) x [z, z+1). A box of
// half extents h centred on p(t) = a + t (b - a), t in [0, 1], touches a cell when their
// interiors overlap at some t (touching faces do not count). The test visits exactly those
// cells: x slabs the box crosses, in each the y rows it crosses while in the slab, in each the z
// cells it crosses while in both (the three per-axis time intervals intersect), so it reads only
// the cells the swept box touches and costs about (segment length) x (box cross-section) cell
// reads. Inside a z run it skips the rest of an all-open brick at once.
//
// Rounding: every time interval is widened by kTimeSlack before the tests, so a box that passes
// within a hair of a blocked cell may be refused, and one that touches it never passes: the test
// is conservative (tests/flight/flight_line_test.cpp checks it against an exact rational oracle).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "engine/flight/flight_grid.h"
#include "voxnav/types.h"

namespace voxnav::detail::flight {

/// Widening of each time interval (t in [0, 1]) against rounding.
inline constexpr double kTimeSlack = 1e-9;

/// The one-voxel body of the Moving AI benchmark: a unit cube shrunk by 1/1024 on every side,
/// so that sliding along a blocked voxel's face is allowed while any diagonal past its edge or
/// corner touches it (the benchmark's box rule for 26-connected moves).
inline constexpr double kVoxelHalfExtent = 0.5 - 1.0 / 1024.0;

struct Point3 {
  double x = 0, y = 0, z = 0;
};

/// The sweep itself, shared by the grid's test below and the World's (flyer_line.h).
namespace sweep {

/// The times t (an open interval, widened by kTimeSlack) at which a box of half extent h centred
/// on a + t d along one axis overlaps the interior of cell i's slab [i, i+1) on that axis (inv_d
/// = 1 / d, any value when d is 0; its rounding is far inside the slack).
struct Span {
  double lo, hi;
};
inline Span axis_span(double a, double d, double inv_d, double h, int i) {
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
inline void cell_range(double c0, double c1, double h, int& first, int& last) {
  first = int(std::floor(c0 - h)) - 1;
  last = int(std::floor(c1 + h)) + 1;
}

/// Clips `s` to [lo, hi]; false when nothing is left.
inline bool clip(Span s, double lo, double hi, double& out_lo, double& out_hi) {
  out_lo = std::max(s.lo, lo);
  out_hi = std::min(s.hi, hi);
  return out_lo < out_hi;
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

/// Whether the box of half extents h swept from centre a to centre b touches only free cells,
/// reading cells through `mask_of(bx, by, bz)`: the free mask of brick (bx, by, bz) (0 all
/// blocked, ~0 all open; bit x + 4y + 16z). Only cells within [clo, chi] on each axis are read
/// (INT_MIN / INT_MAX: no bound): the caller may pass the exact hull of the swept box, which the
/// time spans' slack would otherwise overstep.
template <class MaskOf>
bool bricks_clear(MaskOf&& mask_of, Point3 a, Point3 b, Point3 h, const int clo[3], const int chi[3]) {
  const Point3 d{b.x - a.x, b.y - a.y, b.z - a.z};
  const Point3 qa{a.x * 0.25, a.y * 0.25, a.z * 0.25}, qd{d.x * 0.25, d.y * 0.25, d.z * 0.25},
      qh{h.x * 0.25, h.y * 0.25, h.z * 0.25};
  int blo[3], bhi[3];
  for (int k = 0; k < 3; ++k) {
    blo[k] = clo[k] == std::numeric_limits<int>::min() ? clo[k] : clo[k] >> 2;
    bhi[k] = chi[k] == std::numeric_limits<int>::max() ? chi[k] : chi[k] >> 2;
  }
  return sweep_units(qa, qd, qh, blo, bhi, 0.0, 1.0, [&](int bx, int by, int bz, double t0, double t1) {
    const std::uint64_t mask = mask_of(bx, by, bz);
    if (mask == ~std::uint64_t{0}) return true;
    if (mask == 0) return false;
    const int x0 = bx * 4, y0 = by * 4, z0 = bz * 4;
    const int lo[3] = {std::max(x0, clo[0]), std::max(y0, clo[1]), std::max(z0, clo[2])};
    const int hi[3] = {std::min(x0 + 3, chi[0]), std::min(y0 + 3, chi[1]), std::min(z0 + 3, chi[2])};
    return sweep_units(a, d, h, lo, hi, t0, t1, [&](int x, int y, int z, double, double) {
      return ((mask >> ((x & 3) + 4 * (y & 3) + 16 * (z & 3))) & 1u) != 0;
    });
  });
}

/// String pulling with any straight-line test `clear(CellPos a, CellPos b)` (see pull_path).
template <class Clear>
double pull_cells(const std::vector<CellPos>& cells, double max_segment, std::size_t max_index_gap,
                  std::vector<CellPos>& out, Clear&& clear) {
  const auto dist = [](CellPos p, CellPos q) {
    const double dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
  };
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
      if (clear(cells[i], cells[j])) {
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

}  // namespace sweep

/// True when the box of half extents `h` (each > 0 and below 2^20) swept from centre `a` to
/// centre `b` touches no cell that is not free in `grid` (cells outside the grid are not free).
/// `a` and `b` finite and within 2^24 of the origin (the caller checks).
bool box_sweep_clear(const FlightGrid& grid, Point3 a, Point3 b, Point3 h);

/// The centre of cell c (c + 0.5 on each axis).
inline Point3 cell_centre(CellPos c) { return {c.x + 0.5, c.y + 0.5, c.z + 0.5}; }

/// String pulling: from a path of cells (consecutive cells neighbours, every cell free), keeps
/// the start, then repeatedly the furthest later cell along the path (at most `max_index_gap`
/// path steps ahead) whose centre lies within `max_segment` cells (Euclidean) of the last kept
/// one and which the box sweeps to clear of blocked cells, and the goal. Every consecutive pair of `out` is a clear
/// sweep no longer than max_segment (or one path step). `out` is replaced; returns the pulled
/// length (sum of the segments' Euclidean lengths between cell centres).
double pull_path(const FlightGrid& grid, const std::vector<CellPos>& cells, Point3 h, double max_segment,
                 std::size_t max_index_gap, std::vector<CellPos>& out);

}  // namespace voxnav::detail::flight
