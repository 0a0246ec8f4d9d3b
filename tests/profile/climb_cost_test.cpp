// The cost of one cell of climbing, compiled from a profile's walk and climb speeds
// (kCostStraight * walk / climb): computed in double, capped at a thousand cells of walking, then
// converted, and never below 1. Before, a very slow climb (a ratio past the range of long)
// converted to 0 before the cap, and a fast climb with a slow walk rounded to 0: climbing was
// free. Checked on the compiled costs and on a World that accepts such profiles.
#include <gtest/gtest.h>

#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

std::uint32_t climb_cost(double walk, double climb) {
  Profile p;
  p.can_climb = true;
  p.walk_speed = walk;
  p.sprint_speed = walk;
  p.climb_speed = climb;
  World w;
  ProfileId id;
  std::string err;
  EXPECT_EQ(w.add_profile(p, &id, &err), Status::Ok) << err;
  return detail::compile_profile(p).costs.climb_cost;
}

constexpr std::uint32_t kCap = 1000 * detail::kCostStraight;

TEST(ClimbCost, FollowsTheSpeedRatio) {
  EXPECT_EQ(climb_cost(4.3, 2.15), 2 * detail::kCostStraight);
  EXPECT_EQ(climb_cost(4.0, 4.0), detail::kCostStraight);
  EXPECT_EQ(climb_cost(3.0, 7.0), 4286u);  // 10000 * 3 / 7 = 4285.71
}

TEST(ClimbCost, AVerySlowClimbIsCappedNotFree) {
  EXPECT_EQ(climb_cost(4.3, 1e-300), kCap);
  EXPECT_EQ(climb_cost(100, 1e-12), kCap);
  EXPECT_EQ(climb_cost(4.3, 4.3e-3), kCap);     // exactly the cap
  EXPECT_EQ(climb_cost(4.3, 4.3e-3 * 2), kCap / 2);
}

TEST(ClimbCost, AFastClimbWithASlowWalkCostsAtLeastOne) {
  EXPECT_EQ(climb_cost(1e-3, 100), 1u);  // 0.1 rounds to 0: one is the least a move costs
  EXPECT_EQ(climb_cost(1e-3, 5), 2u);
}

}  // namespace
}  // namespace voxnav
