// line_walkable and estimate_travel on small built scenes (portable: also run under wasm):
// open floor, a wall across the line, a step up onto a slab row, a ledge two cells down (a drop
// the default profile takes, one a max_drop 1 profile refuses), a pillar beside a diagonal; and
// on the open floor estimate_travel equals A*'s optimal cost over the walk speed (a straight
// route is the bound), while around a wall it stays below it.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr std::uint16_t kSolid = 1;

struct Scene {
  std::unique_ptr<World> world = std::make_unique<World>();
  ProfileId pid, shy;  // the default walker; one that drops at most 1 cell
};

Scene scene() {
  Scene s;
  EXPECT_TRUE(test::load_flat_floor(*s.world, kSolid));
  Profile shy;
  shy.id = "shy";
  shy.max_drop = 1;
  EXPECT_EQ(s.world->add_profile(Profile{}, &s.pid), Status::Ok);
  EXPECT_EQ(s.world->add_profile(shy, &s.shy), Status::Ok);
  return s;
}

bool walkable(World& w, ProfileId p, CellPos a, CellPos b) {
  bool out = false;
  EXPECT_EQ(line_walkable(w, p, a, b, &out), Status::Ok);
  return out;
}

double cost_seconds(World& w, ProfileId p, CellPos a, CellPos b) {
  NavRequest r;
  r.profile = p;
  r.start = a;
  r.goal = b;
  PathResult res;
  EXPECT_EQ(w.find_path_now(r, &res), Status::Ok);
  EXPECT_EQ(res.status.state, PathState::Ready);
  return res.status.cost / 10000.0 / Profile{}.walk_speed;
}

TEST(QueriesScene, LinesOnOpenFloorWallsAndLedges) {
  Scene s = scene();
  World& w = *s.world;
  // A wall at x = 5 from z = 0 to z = 4, two high.
  for (int z = 0; z <= 4; ++z)
    for (int y = 1; y <= 2; ++y) ASSERT_EQ(w.set_block(CellPos{5, y, z}, kSolid), Status::Ok);
  // A raised platform (one block) at x 10..14, z 10..14, and a tower two high at x 20..24.
  for (int x = 10; x <= 14; ++x)
    for (int z = 10; z <= 14; ++z) ASSERT_EQ(w.set_block(CellPos{x, 1, z}, kSolid), Status::Ok);
  for (int x = 20; x <= 24; ++x)
    for (int z = 10; z <= 14; ++z)
      for (int y = 1; y <= 2; ++y) ASSERT_EQ(w.set_block(CellPos{x, y, z}, kSolid), Status::Ok);
  w.update();
  EXPECT_TRUE(walkable(w, s.pid, CellPos{-10, 1, -10}, CellPos{12, 1, -3}));  // open floor
  EXPECT_TRUE(walkable(w, s.pid, CellPos{0, 1, 2}, CellPos{0, 1, 2}));        // itself
  EXPECT_FALSE(walkable(w, s.pid, CellPos{0, 1, 2}, CellPos{9, 1, 2}));       // through the wall
  EXPECT_TRUE(walkable(w, s.pid, CellPos{0, 1, 6}, CellPos{9, 1, 6}));        // past its end
  // Brushing the wall's end diagonally: the footprint (and the step's per-axis sweep) reaches
  // the wall's column.
  EXPECT_FALSE(walkable(w, s.pid, CellPos{4, 1, 6}, CellPos{6, 1, 3}));
  // Onto the platform: a full block is a jump, not a walk; off it: a drop of one cell.
  EXPECT_FALSE(walkable(w, s.pid, CellPos{8, 1, 12}, CellPos{12, 2, 12}));
  EXPECT_TRUE(walkable(w, s.pid, CellPos{12, 2, 12}, CellPos{17, 1, 12}));
  // Off the tower: two cells down, within the default max_drop of 3, beyond the shy one's 1.
  EXPECT_TRUE(walkable(w, s.pid, CellPos{22, 3, 12}, CellPos{28, 1, 12}));
  EXPECT_FALSE(walkable(w, s.shy, CellPos{22, 3, 12}, CellPos{28, 1, 12}));
  // Ends that are not standable (inside the wall, in the air).
  EXPECT_FALSE(walkable(w, s.pid, CellPos{0, 1, 2}, CellPos{5, 1, 2}));
  EXPECT_FALSE(walkable(w, s.pid, CellPos{0, 1, 2}, CellPos{0, 5, 2}));
}

TEST(QueriesScene, EstimateTravelIsExactOnOpenFloorAndBelowAroundWalls) {
  Scene s = scene();
  World& w = *s.world;
  for (int z = -5; z <= 8; ++z)
    for (int y = 1; y <= 2; ++y) ASSERT_EQ(w.set_block(CellPos{5, y, z}, kSolid), Status::Ok);
  w.update();
  const CellPos a{-10, 1, 2}, open{-2, 1, 14}, behind{12, 1, 2};
  double est = 0;
  ASSERT_EQ(estimate_travel(w, s.pid, a, open, &est), Status::Ok);
  EXPECT_DOUBLE_EQ(est, cost_seconds(w, s.pid, a, open));  // the octile route is A*'s
  EXPECT_DOUBLE_EQ(est, (8 * 14142 + 4 * 10000) / 10000.0 / Profile{}.walk_speed);
  ASSERT_EQ(estimate_travel(w, s.pid, a, behind, &est), Status::Ok);
  const double truth = cost_seconds(w, s.pid, a, behind);
  EXPECT_DOUBLE_EQ(est, 22 * 10000 / 10000.0 / Profile{}.walk_speed);
  EXPECT_LT(est, truth);
  // Walled in: reachability No gives +infinity.
  const CellPos cell{-14, 1, -14};
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dz = -1; dz <= 1; ++dz) {
      if (dx == 0 && dz == 0) continue;
      for (int y = 1; y <= 3; ++y)
        ASSERT_EQ(w.set_block(CellPos{cell.x + dx, y, cell.z + dz}, kSolid), Status::Ok);
    }
  }
  w.update();
  ASSERT_EQ(estimate_travel(w, s.pid, a, cell, &est), Status::Ok);
  EXPECT_TRUE(std::isinf(est));
}

}  // namespace
}  // namespace voxnav
