// The straight line for a World's flyer: may the flyer class's body fly from feet position a to
// feet position b without touching a collision box or a harmful fluid?
//
// The test runs in configuration space, on the flyer cells of the FlyerStore (free = the
// envelope fits with its feet on the cell's bottom, flyer_classify.h): it sweeps the *feet box*
// [fx - w, fx + w] x [fy, fy + 1 - 1/1024] x [fz - w, fz + w] (w = 0.5 - 1/1024, f the feet) along
// the segment and requires every cell it touches to be free. Why this box: with the feet anywhere
// in cell row k, it touches row k, and also row k + 1 once the feet are more than 1/1024 above the
// row's bottom; across x and z it touches every column the 0.98-wide body overlaps. The union of
// those cells' envelopes (whole columns, 1.95 + 1/1024 high) holds the body, so when they are all
// free the body touches nothing: the test is conservative. At a cell's centre the feet box lies in
// that one cell (its faces 1/1024 inside the column), so a flyer at rest on a cell may fly off in
// any direction its neighbours allow.
//
// The sweep is flight_line.h's (bricks first: an all-open brick needs no cell read), bounded to
// the swept box's exact hull (its lowest row is the lowest feet row exactly, not a slack below it:
// a flyer resting on the ground may take off).
#pragma once
#include "engine/flight/flight_grid.h"
#include "engine/flight/flight_line.h"
#include "engine/flight/flyer_store.h"
#include "voxnav/types.h"

namespace voxnav::detail::flight {

/// Half extent of the feet box across x and z, and its height (cells).
inline constexpr double kFlyerSweepHalfWidth = 0.5 - 1.0 / 1024.0;
inline constexpr double kFlyerSweepHeight = 1.0 - 1.0 / 1024.0;

/// Whether the flyer body flies clear from feet a to feet b over the store's cells (a chunk not
/// loaded is blocked). Ends finite and in the cell range (the caller checks).
bool flyer_line_clear(const FlyerStore& store, Vec3 a, Vec3 b);

/// The same test on a window grid (FlyerStore::window; grid cell = world cell - origin), for the
/// string pulling of a search's path: ends are feet positions in world cells.
bool flyer_line_clear(const FlightGrid& grid, CellPos origin, Vec3 a, Vec3 b);

/// The feet position of a flyer cell: its centre across, its bottom up.
inline Vec3 flyer_feet(CellPos c) { return Vec3{c.x + 0.5, double(c.y), c.z + 0.5}; }

}  // namespace voxnav::detail::flight
