#include "engine/flight/flyer_line.h"

#include <algorithm>
#include <cmath>

namespace voxnav::detail::flight {
namespace {

// Margin of the hull's bounds against rounding, except the lowest row, which is the feet's own.
constexpr double kHullSlack = 1e-9;

struct FeetSweep {
  Point3 a, b, h;
  int lo[3], hi[3];
};

// The feet box's centres and half extents, relative to `origin`, and the cells its hull covers.
FeetSweep feet_sweep(Vec3 fa, Vec3 fb, CellPos origin) {
  constexpr double hy = kFlyerSweepHeight * 0.5;
  FeetSweep s;
  s.a = {fa.x - origin.x, fa.y - origin.y + hy, fa.z - origin.z};
  s.b = {fb.x - origin.x, fb.y - origin.y + hy, fb.z - origin.z};
  s.h = {kFlyerSweepHalfWidth, hy, kFlyerSweepHalfWidth};
  const double w = kFlyerSweepHalfWidth + kHullSlack;
  s.lo[0] = int(std::floor(std::min(s.a.x, s.b.x) - w));
  s.hi[0] = int(std::ceil(std::max(s.a.x, s.b.x) + w)) - 1;
  s.lo[2] = int(std::floor(std::min(s.a.z, s.b.z) - w));
  s.hi[2] = int(std::ceil(std::max(s.a.z, s.b.z) + w)) - 1;
  // The lowest row: the lower feet's row exactly (the box's bottom is the feet).
  s.lo[1] = int(std::floor(std::min(fa.y, fb.y))) - origin.y;
  s.hi[1] = int(std::ceil(std::max(fa.y, fb.y) + kFlyerSweepHeight + kHullSlack)) - 1 - origin.y;
  return s;
}

}  // namespace

bool flyer_line_clear(const FlyerStore& store, Vec3 a, Vec3 b) {
  const FeetSweep s = feet_sweep(a, b, CellPos{0, 0, 0});
  std::uint64_t last_key = ~std::uint64_t{0};
  const FlyerStore::ChunkBricks* last = nullptr;
  return sweep::bricks_clear(
      [&](int bx, int by, int bz) -> std::uint64_t {
        const ChunkPos p{bx >> 2, by >> 2, bz >> 2};
        if (!chunk_in_range(p)) return 0;
        const std::uint64_t k = chunk_key(p);
        if (k != last_key) {
          last_key = k;
          last = store.chunk(p);
        }
        return last ? last->bricks[(bx & 3) + 4 * (by & 3) + 16 * (bz & 3)].free : 0;
      },
      s.a, s.b, s.h, s.lo, s.hi);
}

bool flyer_line_clear(const FlightGrid& grid, CellPos origin, Vec3 a, Vec3 b) {
  const FeetSweep s = feet_sweep(a, b, origin);
  const int nb[3] = {grid.padded_x() - 2, grid.padded_y() - 2, grid.padded_z() - 2};
  return sweep::bricks_clear(
      [&](int bx, int by, int bz) -> std::uint64_t {
        if (bx < 0 || by < 0 || bz < 0 || bx >= nb[0] || by >= nb[1] || bz >= nb[2]) return 0;
        return grid.brick_mask(grid.brick_index_of_cell(bx * kBrickEdge, by * kBrickEdge, bz * kBrickEdge));
      },
      s.a, s.b, s.h, s.lo, s.hi);
}

}  // namespace voxnav::detail::flight
