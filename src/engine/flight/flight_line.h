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
#include <cstddef>
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
