// Ladders out of reach (issue 18, cause 4): a ladder holds a body whose feet are in its cell (the
// movement step's rule, as the game's players), not one whose head only reaches a rung. From the
// ground a body climbs a ladder whose lowest rung is in its own cell, or one cell up by jumping
// into it (the sampled jump reaches 1.243); a ladder starting two cells up is out of reach. The
// planner answers the same, and an agent climbs wherever a route is planned.
#include <gtest/gtest.h>

#include "engine/integrate/integrate.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// A stone wall at x = 9 (y 1..5) on a flat floor, a ladder against it at (8, y, 8) for y from
// `lowest` to 5; the goal is on the wall's top, (9, 6, 8).
struct LadderWall {
  World world;
  ProfileId climber;
  bool ok = false;
  explicit LadderWall(int lowest) {
    std::uint16_t stone = 0, ladder = 0;
    if (!test::load_real_blocks(world) || world.block_value("stone", &stone) != Status::Ok ||
        !test::load_flat_floor(world, stone) ||
        world.block_value("ladder[facing=west,waterlogged=false]", &ladder) != Status::Ok ||
        world.set_box({9, 1, 0}, {9, 5, 15}, stone) != Status::Ok)
      return;
    for (int y = lowest; y <= 5; ++y)
      if (world.set_block({8, y, 8}, ladder) != Status::Ok) return;
    world.update();
    Profile p;
    p.id = "climber";
    p.can_climb = true;
    p.climb_speed = 2.35;
    ok = world.add_profile(p, &climber) == Status::Ok;
  }
  bool planned() {
    NavRequest q;
    q.profile = climber;
    q.start = {5, 1, 8};
    q.goal = {9, 6, 8};
    PathResult res;
    return world.find_path_now(q, &res) == Status::Ok && res.status.state == PathState::Ready;
  }
  bool arrives() {
    AgentId a;
    if (world.add_agent({climber, {5.5, 1.0, 8.5}}, &a) != Status::Ok ||
        world.set_agent_goal(a, {9, 6, 8}) != Status::Ok)
      return false;
    AgentState st;
    for (int t = 0; t < 400; ++t) {
      if (world.tick(detail::kSimulationTick) != Status::Ok || world.agent_state(a, &st) != Status::Ok)
        return false;
      if (st.mode == AgentMode::Arrived) return true;
    }
    return false;
  }
};

TEST(LadderReach, PlannedExactlyWhenTheFeetCanReachTheLowestRung) {
  for (int lowest = 1; lowest <= 3; ++lowest) {
    LadderWall w(lowest);
    ASSERT_TRUE(w.ok);
    const bool reachable = lowest - 1 <= 1;  // a rung one cell up is caught by jumping
    EXPECT_EQ(w.planned(), reachable) << "lowest rung at y " << lowest;
    EXPECT_EQ(w.world.reachable(w.climber, {5, 1, 8}, {9, 6, 8}).answer,
              reachable ? ReachAnswer::Yes : ReachAnswer::No)
        << "lowest rung at y " << lowest;
    if (reachable) {
      EXPECT_TRUE(w.arrives()) << "lowest rung at y " << lowest;
    }
  }
}

}  // namespace
}  // namespace voxnav
