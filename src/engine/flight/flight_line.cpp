#include "engine/flight/flight_line.h"

#include <climits>

namespace voxnav::detail::flight {

bool box_sweep_clear(const FlightGrid& grid, Point3 a, Point3 b, Point3 h) {
  // Bricks first (the same sweep in brick units: a quarter of every length, exact in binary):
  // an all-open brick needs nothing more, an all-blocked one (or one outside the grid) touched
  // means a blocked cell touched, and a mixed one is swept cell by cell within its own cells and
  // the time window the box spends in it.
  constexpr int kAny[3] = {INT_MIN, INT_MIN, INT_MIN}, kAll[3] = {INT_MAX, INT_MAX, INT_MAX};
  const int nb[3] = {grid.padded_x() - 2, grid.padded_y() - 2, grid.padded_z() - 2};
  return sweep::bricks_clear(
      [&](int bx, int by, int bz) -> std::uint64_t {
        if (bx < 0 || by < 0 || bz < 0 || bx >= nb[0] || by >= nb[1] || bz >= nb[2]) return 0;
        return grid.brick_mask(grid.brick_index_of_cell(bx * kBrickEdge, by * kBrickEdge, bz * kBrickEdge));
      },
      a, b, h, kAny, kAll);
}

double pull_path(const FlightGrid& grid, const std::vector<CellPos>& cells, Point3 h, double max_segment,
                 std::size_t max_index_gap, std::vector<CellPos>& out) {
  return sweep::pull_cells(cells, max_segment, max_index_gap, out, [&](CellPos p, CellPos q) {
    return box_sweep_clear(grid, cell_centre(p), cell_centre(q), h);
  });
}

}  // namespace voxnav::detail::flight
