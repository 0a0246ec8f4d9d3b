// Queries a brain asks without a search: whether a body walks straight from one cell to another
// (level changes included), and a lower bound of the travel time between two cells. Both read
// the layers only (no search), in time proportional to the line's length or constant.
#pragma once
#include <cstdint>

#include "engine/classify/nav_grid.h"
#include "engine/search/astar.h"

namespace voxnav::detail {

/// Whether a body of the grid's class, driven straight from the centre of standable cell `a`
/// toward the centre of standable cell `b` (foot cells; walker_large steers its centre half a
/// cell off), walks there without a jump: its centre crosses from column to column only by the
/// grid's own moves (level walk, step up, step down, drop within `costs.max_drop`; a diagonal
/// crossing only a level diagonal walk), and every other column its footprint reaches on the way
/// is standable within a step of the floor it walks on. After a drop the columns ahead must be
/// clear over the whole fall (the body is still coming down). Cells the profile cannot enter
/// (impassable kinds, excluded surfaces) refuse the line. Conservative: it may refuse a line the
/// movement step walks, never the reverse (tested against the step on real regions).
/// `speed` (m/s) and `gravity` (m/s^2) size the stretch a fall covers.
bool line_walkable_cells(const NavGrid& grid, const CostTable& costs, CellPos a, CellPos b,
                         double speed, double gravity);

/// A lower bound, in cost units (kCostStraight per straight cell), of the cheapest path from `a`
/// to `b` under `costs`: the octile distance in x/z, and the cost of the rise or fall between
/// their floors at the cheapest rate any move rises or falls, whichever is larger; scaled by the
/// cheapest share of a move's cost a preferred surface leaves (CostTable::surface_min).
std::uint64_t travel_cost_bound(const NavGrid& grid, const CostTable& costs, CellPos a,
                                CellPos b);

}  // namespace voxnav::detail
