// Corridors: string-pulled waypoints over a search's cell path.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "voxnav/requests.h"

namespace voxnav::detail {

struct Corridor {
  std::vector<Waypoint> points;  ///< points[0] is the start
  std::vector<CellPos> cells;       ///< the search's cell path (for validation and repair)
  std::vector<EdgeKind> kinds;   ///< edge entering each cell
  std::uint32_t epoch = 0;       ///< changes whenever the corridor is installed or replaced
};

/// Feet position of a standable cell (centre of the cell, standing height from layer 0).
Waypoint waypoint_of(const NavGrid& grid, CellPos c, EdgeKind kind);

/// Surface costs by group (CostTable::surface); a group whose entry is kSurfaceExcluded is never
/// crossed by a pulled line. Null: no exclusions.
using SurfaceCosts = std::array<std::int32_t, 256>;

/// Whether a body can walk straight from cell a to cell b on one level (same y): every cell the
/// body's footprint sweeps is standable at that y, within step height of a's floor, and not on a
/// surface `surface` excludes.
bool line_walkable_level(const NavGrid& grid, CellPos a, CellPos b,
                         const SurfaceCosts* surface = nullptr);

/// String pulling: keeps the first and last cells and every cell where the edge kind is not a
/// level walk, and drops intermediate level cells whose neighbours see each other in a straight
/// walkable line. Output waypoints carry the kind of the edge that reaches them.
void string_pull(const NavGrid& grid, const std::vector<CellPos>& cells,
                 const std::vector<EdgeKind>& kinds, std::vector<Waypoint>& out,
                 const SurfaceCosts* surface = nullptr);

/// Length in cells of an 8-connected cell path measured in x/z (1 per straight, sqrt 2 per
/// diagonal step), as Moving AI scores it.
double path_length_xz(const std::vector<CellPos>& cells);

/// Whether the move from cell a to cell b still exists in the grid with edge kind `kind`.
bool step_valid(const NavGrid& grid, const CellPos& a, const CellPos& b, EdgeKind kind);

/// Whether every move of `cells` from index `from` on still exists in the grid with the same
/// edge kind (a cheap corridor validity check after edits).
bool path_still_valid(const NavGrid& grid, const std::vector<CellPos>& cells,
                      const std::vector<EdgeKind>& kinds, std::size_t from);

}  // namespace voxnav::detail
