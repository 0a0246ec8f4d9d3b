// The answers of the brain's queries on the real region shipped in the repository
// (data/worlds/r.0.-1.mca, the default walker profile), pinned: tests/web/control.test.mjs pins
// the same numbers for the wasm build, so native and wasm must agree on them bit for bit (seeded
// spawn cells in order, travel estimates as doubles, straight-walk verdicts, the filtered nearest
// cell, facings).
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/queries.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

TEST(PinnedQueries, TheSameAnswersAsTheWasmBuild) {
  ProfileId pid;
  std::unique_ptr<World> world = test::load_region(test::repo_region(), &pid);
  ASSERT_TRUE(world);
  const World& w = *world;

  const std::vector<Vec3> avoid = {Vec3{130.5, 70, -160.5}};
  CellFilter f;
  f.min_headroom = 1, f.hazard_distance = 1, f.exclude_fluids = true, f.avoid = avoid;
  f.min_distance = 6;
  std::vector<CellPos> out(8);
  std::size_t count = 0;
  ASSERT_EQ(find_spawn_cells(w, pid, CellPos{96, 40, -176}, CellPos{159, 103, -113}, f, 12345,
                             out.data(), out.size(), &count),
            Status::Ok);
  const std::vector<std::vector<int>> cells = {{97, 64, -147},  {151, 66, -153}, {141, 74, -114},
                                               {128, 67, -170}, {127, 71, -123}, {101, 68, -165},
                                               {101, 69, -145}, {145, 85, -173}};
  ASSERT_EQ(count, 8u);
  for (std::size_t i = 0; i < 8; ++i)
    EXPECT_EQ((std::vector<int>{out[i].x, out[i].y, out[i].z}), cells[i]) << i;

  const double inf = std::numeric_limits<double>::infinity();
  const double estimates[] = {13.136093023255814, 10.033023255813955, 14.275488372093024,
                              11.026558139534885, 12.271906976744186, 4.6511627906976747, inf};
  for (std::size_t i = 0; i + 1 < 8; ++i) {
    double t = -1;
    ASSERT_EQ(estimate_travel(w, pid, out[i], out[i + 1], &t), Status::Ok);
    EXPECT_EQ(t, estimates[i]) << i;
  }

  struct Line {
    CellPos a, b;
    bool walkable;
    double estimate;
  };
  const Line lines[] = {
      {{140, 64, -146}, {132, 64, -145}, true, 1.9567906976744185},
      {{140, 64, -146}, {135, 64, -145}, true, 1.2591162790697674},
      {{123, 66, -158}, {123, 65, -155}, true, 0.69767441860465118},
      {{133, 65, -169}, {133, 64, -166}, true, 0.69767441860465118},
      {{138, 69, -149}, {132, 68, -158}, false, -1},
      {{138, 69, -149}, {129, 70, -154}, false, -1},
      {{138, 69, -149}, {132, 69, -151}, false, -1},
  };
  for (const Line& l : lines) {
    bool q = !l.walkable;
    ASSERT_EQ(line_walkable(w, pid, l.a, l.b, &q), Status::Ok);
    EXPECT_EQ(q, l.walkable) << l.a.x << " " << l.a.z;
    if (l.estimate < 0) continue;
    double t = -1;
    ASSERT_EQ(estimate_travel(w, pid, l.a, l.b, &t), Status::Ok);
    EXPECT_EQ(t, l.estimate);
  }

  const std::vector<Vec3> near_avoid = {Vec3{135.5, 70, -159.5}};
  CellFilter g;
  g.min_headroom = 2, g.avoid = near_avoid, g.min_distance = 3;
  CellPos near;
  ASSERT_EQ(nearest_standable(w, pid, CellPos{135, 70, -160}, 8, g, &near), Status::Ok);
  EXPECT_EQ((std::vector<int>{near.x, near.y, near.z}), (std::vector<int>{133, 68, -159}));

  std::uint16_t yaw = 0;
  ASSERT_EQ(yaw_of_direction(Vec3{1, 0, 1}, &yaw), Status::Ok);
  EXPECT_EQ(yaw, 40960);
  ASSERT_EQ(yaw_of_direction(Vec3{-3, 0, 2}, &yaw), Status::Ok);
  EXPECT_EQ(yaw, 22517);
}

}  // namespace
}  // namespace voxnav
