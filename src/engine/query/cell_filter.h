// Cells a host asks for by what they are, not by a search: a seeded choice of standable cells in
// a box that pass a filter (spawn points), and the nearest such cell to a point. Reads layer 0,
// the blocks and the reachability answers; integer order everywhere, so the same inputs give the
// same cells on every platform.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>

#include "engine/nav/nav_world.h"
#include "voxnav/types.h"

namespace voxnav::detail {

/// A checked filter (the API validated every field; see voxnav::CellFilter for the meaning).
struct CellFilterSpec {
  int min_headroom = 0;     ///< 0: off
  int hazard_distance = 0;  ///< 0: off
  bool exclude_fluids = false;
  const Vec3* avoid = nullptr;
  std::size_t avoid_count = 0;
  double min_distance = 0.0;
  bool reach_from = false;  ///< reachable(reach_cell -> cell) must be Yes
  bool reach_to = false;    ///< reachable(cell -> reach_cell) must be Yes
  CellPos reach_cell;
  std::uint8_t gates = 0;   ///< the profile's gate kinds (CostTable::gates())
  bool restricted = false;  ///< CostTable::restricts_class
  const std::function<bool(CellPos)>* reject = nullptr;  ///< null or empty: none
};

/// Tests a cell against a filter on one class's navigation (the profile's).
class CellFilterTest {
 public:
  CellFilterTest(NavWorld& nav, const CellFilterSpec& spec) : nav_(nav), spec_(spec) {}
  /// Standable and every test but the host's callback.
  bool passes_blocks(CellPos c) const;
  /// The host's callback: true when it accepts the cell (or there is none).
  bool accepted(CellPos c) const {
    return spec_.reject == nullptr || !*spec_.reject || !(*spec_.reject)(c);
  }

 private:
  NavWorld& nav_;
  const CellFilterSpec& spec_;
};

/// Up to `capacity` (>= 1) cells of the box mn..mx (inclusive, volume >= 1) that pass the
/// filter, in the order of a seeded permutation of the box; returns how many were written.
std::size_t find_spawn_cells(NavWorld& nav, const CellFilterSpec& spec, CellPos mn, CellPos mx,
                             std::uint64_t seed, CellPos* out, std::size_t capacity);

/// The nearest cell to `near` within `radius` (Chebyshev cube) that passes the filter: least
/// dx^2 + dy^2 + dz^2, then least dy, dz, dx. False when none.
bool nearest_filtered(NavWorld& nav, const CellFilterSpec& spec, CellPos near, int radius,
                      CellPos* out);

}  // namespace voxnav::detail
