// The steering grid's k-nearest query against a brute-force oracle written here (every body,
// sorted by squared distance then slot), for random crowds, ranges, k and every bucket size; and
// the ORCA program's answers: a feasible set gives a velocity inside every half-plane and the
// speed disc, nearest to the wanted one among a fine sample of them. Runs natively and in wasm.
#include "engine/steer/agent_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/steer/steer.h"
#include "splitmix.h"

namespace voxnav::detail {
namespace {

double uniform(tools::SplitMix64& r, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(r.below(1u << 30)) / static_cast<double>(1u << 30);
}

TEST(AgentGrid, NearestEqualsBruteForceForEveryBucketSize) {
  tools::SplitMix64 rng{42};
  for (int round = 0; round < 40; ++round) {
    const int n = 1 + static_cast<int>(rng.below(300));
    const double spread = round % 4 == 0 ? 400.0 : 30.0;  // sparse and dense crowds
    std::vector<GridBody> bodies;
    for (int i = 0; i < n; ++i) {
      GridBody b;
      // Some bodies on the same spot or at equal distances: ties by slot must be right.
      if (i > 0 && rng.below(8) == 0) {
        b = bodies[rng.below(static_cast<std::uint32_t>(i))];
      } else {
        b.x = std::floor(uniform(rng, -spread, spread) * 4) / 4;
        b.z = std::floor(uniform(rng, -spread, spread) * 4) / 4;
        b.y = static_cast<double>(rng.below(3)) * 3.0;  // three levels, 1.8 high bodies
      }
      b.height = 1.8;
      b.slot = static_cast<std::uint32_t>(2 * i + static_cast<int>(rng.below(2)));
      bodies.push_back(b);
    }
    for (int shift = 0; shift <= 3; ++shift) {
      AgentGrid g;
      g.clear(0);
      for (const GridBody& b : bodies) g.add(b);
      g.build(shift);
      for (int q = 0; q < 20; ++q) {
        const auto self = static_cast<std::uint32_t>(rng.below(static_cast<std::uint32_t>(n)));
        const double range = uniform(rng, 0.1, 12.0);
        const int k = 1 + static_cast<int>(rng.below(16));
        std::vector<GridHit> got(static_cast<std::size_t>(k));
        const int m = g.nearest(self, range, k, got.data());
        // The oracle.
        const GridBody& me = bodies[self];
        std::vector<GridHit> all;
        for (std::uint32_t j = 0; j < bodies.size(); ++j) {
          if (j == self) continue;
          const GridBody& o = bodies[j];
          const double dx = o.x - me.x, dz = o.z - me.z, d2 = dx * dx + dz * dz;
          if (d2 < range * range && o.y < me.y + me.height && me.y < o.y + o.height)
            all.push_back(GridHit{d2, j, o.slot});
        }
        std::sort(all.begin(), all.end(), [](const GridHit& a, const GridHit& b) {
          return a.d2 < b.d2 || (a.d2 == b.d2 && a.slot < b.slot);
        });
        ASSERT_EQ(m, std::min<int>(k, static_cast<int>(all.size())))
            << "round " << round << " shift " << shift;
        for (int h = 0; h < m; ++h) {
          EXPECT_EQ(got[static_cast<std::size_t>(h)].body, all[static_cast<std::size_t>(h)].body);
          EXPECT_EQ(got[static_cast<std::size_t>(h)].d2, all[static_cast<std::size_t>(h)].d2);
        }
      }
    }
  }
}

bool inside(const OrcaLine& L, double vx, double vz, double tol) {
  // det(direction, v - point) >= 0 (left of the directed line)
  return L.dx * (vz - L.pz) - L.dz * (vx - L.px) >= -tol;
}

TEST(Orca, AnswerKeepsToEveryHalfPlaneAndIsNearestToTheWantedVelocity) {
  tools::SplitMix64 rng{7};
  int feasible = 0;
  for (int round = 0; round < 300; ++round) {
    const double max_speed = 4.3;
    const double vx = uniform(rng, -4, 4), vz = uniform(rng, -4, 4);  // own velocity
    const int n = 1 + static_cast<int>(rng.below(6));
    std::vector<OrcaLine> lines;
    for (int i = 0; i < n; ++i) {
      const double rx = uniform(rng, -6, 6), rz = uniform(rng, -6, 6);
      if (rx * rx + rz * rz < 0.5) continue;  // (overlapping: the one-tick case, tested below)
      const double ox = uniform(rng, -4, 4), oz = uniform(rng, -4, 4);
      lines.push_back(orca_line(rx, rz, vx - ox, vz - oz, vx, vz, 0.6, 1.0, 0.05, 0.5));
    }
    const double px = uniform(rng, -4.3, 4.3) * 0.7, pz = uniform(rng, -4.3, 4.3) * 0.7;
    std::vector<OrcaLine> scratch(lines.size() + 1);
    double ax = 0, az = 0;
    orca_solve(lines.data(), lines.size(), max_speed, px, pz, scratch.data(), ax, az);
    EXPECT_LE(ax * ax + az * az, max_speed * max_speed * (1 + 1e-9));
    // Feasible by a sample of the speed disc: the answer keeps to every half-plane and no sample
    // that does is nearer the wanted velocity.
    double best = 1e30;
    for (int i = -60; i <= 60; ++i)
      for (int j = -60; j <= 60; ++j) {
        const double sx = max_speed * i / 60.0, sz = max_speed * j / 60.0;
        if (sx * sx + sz * sz > max_speed * max_speed) continue;
        bool ok = true;
        for (const OrcaLine& L : lines) ok = ok && inside(L, sx, sz, 0);
        if (ok) best = std::min(best, (sx - px) * (sx - px) + (sz - pz) * (sz - pz));
      }
    if (best == 1e30) continue;  // no sample keeps to all: the least-violation answer
    ++feasible;
    for (const OrcaLine& L : lines) EXPECT_TRUE(inside(L, ax, az, 1e-6)) << "round " << round;
    const double d = (ax - px) * (ax - px) + (az - pz) * (az - pz);
    EXPECT_LE(d, best + 1e-9) << "round " << round;
  }
  EXPECT_GT(feasible, 100);
}

TEST(Orca, NoNeighbourInTheWayKeepsTheWantedVelocityExactly) {
  // B far to the side, both walking parallel: the wanted velocity is allowed and comes back
  // bit for bit.
  const OrcaLine L = orca_line(0.0, 5.0, 0.0, 0.0, 3.0, 0.0, 0.6, 1.0, 0.05, 0.5);
  OrcaLine scratch[1];
  double ax = 0, az = 0;
  orca_solve(&L, 1, 4.3, 3.0, 0.0, scratch, ax, az);
  EXPECT_EQ(ax, 3.0);
  EXPECT_EQ(az, 0.0);
}

TEST(Orca, OverlappingBodiesAreToldToPartWithinOneTick) {
  // B overlaps A (0.2 apart, radii summing to 0.6), both at rest: the half-plane asks A to move
  // away from B fast enough to undo its half of the overlap within the 0.05 s tick.
  const OrcaLine L = orca_line(0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.6, 1.0, 0.05, 0.5);
  OrcaLine scratch[1];
  double ax = 0, az = 0;
  orca_solve(&L, 1, 10.0, 0.0, 0.0, scratch, ax, az);
  EXPECT_LT(ax, 0.0) << "away from B";
  EXPECT_NEAR(-ax * 0.05, 0.5 * (0.6 - 0.2), 1e-9) << "half the overlap in one tick";
}

}  // namespace
}  // namespace voxnav::detail
