// Stairs (issue 18, cause 1): a rise onto a block is a StepUp when the collision boxes the body
// meets on the way climb in steps (a stair from its low side: its lower half, then its upper
// half, 0.5 each), a Jump when the first box met is already above a step (a stair from its back
// or side, an upside-down stair). The oracle is the movement step: for every state of a stair
// block and each of the four directions of approach, the body is walked (never jumping) from the
// cell before the stair to the centre of the stair's top, and the planner's move must be a StepUp
// exactly when that walk gets there.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/integrate/integrate.h"
#include "test_support.h"
#include "voxnav/integrate.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// The stair stands at (8, 1, 8) on a flat floor (feet y 1); its top cell is (8, 2, 8).
constexpr int kX = 8, kZ = 8;
constexpr int kDx[4] = {1, 0, -1, 0}, kDz[4] = {0, 1, 0, -1};

struct StairWorld {
  World world;
  ProfileId walker;
  Profile profile;
  bool ok = false;
  StairWorld(const std::string& stair, const Profile& p) : profile(p) {
    std::uint16_t stone = 0, v = 0;
    if (!test::load_real_blocks(world) || world.block_value("stone", &stone) != Status::Ok ||
        !test::load_flat_floor(world, stone) || world.block_value(stair, &v) != Status::Ok ||
        world.set_block({kX, 1, kZ}, v) != Status::Ok)
      return;
    world.update();
    ok = world.add_profile(profile, &walker) == Status::Ok;
  }
  // The body walked along direction `d` (0 +x, 1 +z, 2 -x, 3 -z) from the centre of the cell
  // before the stair toward the centre of its top, at walking speed, slowing onto the point, never
  // jumping: true when it stands there on the stair's top (feet y 2) within 0.1.
  bool walks_up(int d) {
    BodyParams body;
    if (profile_body(world, walker, &body) != Status::Ok) return false;
    BodyState s;
    s.feet = {kX - kDx[d] + 0.5, 1.0, kZ - kDz[d] + 0.5};
    s.on_ground = true;
    const double tx = kX + 0.5, tz = kZ + 0.5;
    if (!test::walk_body_to(world, s, body, tx, tz, profile.walk_speed, 60)) return false;
    return s.on_ground && std::abs(s.feet.y - 2.0) < 1e-6 && std::hypot(tx - s.feet.x, tz - s.feet.z) < 0.1;
  }
  // The planner's move from the cell before the stair onto its top: the edge kind of a one-move
  // route, EdgeKind::Start when there is none (no route, or a longer one).
  EdgeKind planned(int d) {
    NavRequest q;
    q.profile = walker;
    q.start = {kX - kDx[d], 1, kZ - kDz[d]};
    q.goal = {kX, 2, kZ};
    PathResult res;
    if (world.find_path_now(q, &res) != Status::Ok || res.status.state != PathState::Ready ||
        res.cells.size() != 2)
      return EdgeKind::Start;
    return res.cells[1].kind;
  }
};

std::vector<std::string> stair_states(const std::string& block) {
  std::vector<std::string> out;
  for (const char* facing : {"north", "south", "east", "west"})
    for (const char* half : {"bottom", "top"})
      for (const char* shape : {"straight", "inner_left", "inner_right", "outer_left", "outer_right"})
        out.push_back(block + "[facing=" + facing + ",half=" + half + ",shape=" + shape +
                      ",waterlogged=false]");
  return out;
}

TEST(Stairs, StepUpExactlyWhereTheWalkingBodyClimbsIt) {
  int step_ups = 0, jumps = 0, walks = 0;
  for (const std::string& state : stair_states("oak_stairs")) {
    StairWorld sw(state, Profile{});
    ASSERT_TRUE(sw.ok) << state;
    for (int d = 0; d < 4; ++d) {
      const bool walks_up = sw.walks_up(d);
      const EdgeKind k = sw.planned(d);
      walks += walks_up;
      step_ups += k == EdgeKind::StepUp;
      jumps += k == EdgeKind::Jump;
      // Every rise onto the top is planned: by steps where the walk climbs it, else by a jump.
      EXPECT_EQ(k, walks_up ? EdgeKind::StepUp : EdgeKind::Jump)
          << state << " approached along direction " << d << ": planned " << edge_kind_name(k)
          << ", the walking body " << (walks_up ? "climbs it" : "does not climb it");
    }
  }
  // By walking: a straight bottom stair from its low side (1 of 4 sides), an outer corner from
  // the two sides whose near half is low across the body's width, an inner corner never (its
  // upper part reaches the near edge of every side under the 0.6 body), a top stair never.
  EXPECT_EQ(walks, 4 * (1 + 0 + 0 + 2 + 2));
  EXPECT_EQ(step_ups, walks);
  EXPECT_EQ(jumps, 160 - walks);
}

// An agent crosses a straight stair from its low side by stepping (no jump edge on its route) and
// arrives; a profile whose jump is below the stair's full rise (apex 0.9: 57/64 < 1) still crosses
// it from that side, and cannot from its back.
TEST(Stairs, LowJumpBodyCrossesFromTheLowSideOnly) {
  Profile low;
  low.id = "low_jump";
  low.jump_apex = 0.9;
  StairWorld sw("oak_stairs[facing=east,half=bottom,shape=straight,waterlogged=false]", low);
  ASSERT_TRUE(sw.ok);
  EXPECT_EQ(sw.planned(0), EdgeKind::StepUp);  // moving east: the low half first
  EXPECT_EQ(sw.planned(2), EdgeKind::Start);   // moving west: the back, a full block's rise
  AgentId a;
  ASSERT_EQ(sw.world.add_agent({sw.walker, {kX - 3 + 0.5, 1.0, kZ + 0.5}}, &a), Status::Ok);
  ASSERT_EQ(sw.world.set_agent_goal(a, {kX, 2, kZ}), Status::Ok);
  AgentState st;
  bool arrived = false;
  for (int t = 0; t < 200 && !arrived; ++t) {
    ASSERT_EQ(sw.world.tick(detail::kSimulationTick), Status::Ok);
    ASSERT_EQ(sw.world.agent_state(a, &st), Status::Ok);
    arrived = st.mode == AgentMode::Arrived;
  }
  EXPECT_TRUE(arrived) << "at (" << st.feet.x << "," << st.feet.y << "," << st.feet.z << ") mode "
                       << agent_mode_name(st.mode);
}

}  // namespace
}  // namespace voxnav
