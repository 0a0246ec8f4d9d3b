// Jumps onto ledges (issue 18, cause 9): the highest ledge a jump lands on is the height the
// movement step's own jump reaches at the simulation's tick (1.2430 for the standard walker at
// 20 Hz), not the analytic apex 1.25. An oracle drives the movement step (step_body) at each rise
// and compares with layer 2 (find_path_now): a jump is planned exactly when the body makes it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/integrate/integrate.h"
#include "engine/nav/class_envelopes.h"
#include "test_support.h"
#include "voxnav/integrate.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

TEST(JumpRise, SampledApexIsWhatTheMovementStepReaches) {
  // Free space: one air chunk column high enough for the jump.
  World w;
  std::uint16_t stone = 0;
  ASSERT_TRUE(test::load_real_blocks(w));
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_TRUE(test::load_flat_floor(w, stone));
  BodyParams body;  // the standard walker: apex 1.25
  BodyState s;
  s.feet = {0.5, 1.0, 0.5};
  s.on_ground = true;
  BodyInput in;
  in.jump = true;
  double top = 0;
  for (int t = 0; t < 40; ++t) {
    ASSERT_EQ(step_body(w, s, in, body, detail::kSimulationTick), Status::Ok);
    in.jump = false;
    top = std::max(top, s.feet.y - 1.0);
  }
  EXPECT_NEAR(top, detail::sampled_jump_apex(body, detail::kSimulationTick), 1e-12);
  EXPECT_NEAR(top, 1.2430, 5e-4);  // 8.944 * 0.3 - 16 * 0.09 = 1.24328
  EXPECT_LT(top, 1.25);
  // Layer 0 units: 79.57 -> 79, one unit below the analytic apex's 80.
  EXPECT_EQ(detail::jump_rise_q(1.25), 79);
  EXPECT_EQ(detail::class_envelope(MovementClass::Walker).jump_q, 79);
  EXPECT_EQ(detail::jump_rise_q(0.0), 0);
}

// A ledge along the whole floor from x = 5: stone at y = 1 topped by `top` (a block state at
// y = 2, or air), so the rise from the floor (feet y = 1) is 1 + the top's collision height; with
// `low` the top sits at y = 1 on the floor itself (a rise of its collision height). The walker is
// `profile` (the default one unless given).
struct Ledge {
  World world;
  ProfileId walker;
  Profile profile;
  explicit Ledge(const std::string& top, const Profile& p = Profile{}, bool low = false) : profile(p) {
    std::uint16_t stone = 0, cap = 0;
    EXPECT_TRUE(test::load_real_blocks(world));
    EXPECT_EQ(world.block_value("stone", &stone), Status::Ok);
    EXPECT_TRUE(test::load_flat_floor(world, stone));
    const int y = low ? 1 : 2;
    if (!low) {
      EXPECT_EQ(world.set_box({5, 1, -16}, {31, 1, 31}, stone), Status::Ok);
    }
    if (!top.empty()) {
      EXPECT_EQ(world.block_value(top, &cap), Status::Ok) << top;
      EXPECT_EQ(world.set_box({5, y, -16}, {31, y, 31}, cap), Status::Ok);
    }
    world.update();
    EXPECT_EQ(world.add_profile(profile, &walker), Status::Ok);
  }
  // The movement step driven as a follower drives a jump: run at the ledge at the profile's
  // walking speed and jump from the take-off cell; true when the body ends standing on the ledge
  // (its feet on the ledge's row, y 1 or 2, above its floor).
  bool executable(bool low = false) {
    BodyParams body;
    EXPECT_EQ(profile_body(world, walker, &body), Status::Ok);
    BodyState s;
    s.feet = {3.5, 1.0, 0.5};
    s.on_ground = true;
    for (int t = 0; t < 80; ++t) {
      BodyInput in;
      in.move_x = profile.walk_speed;
      in.jump = s.feet.x > 4.2 && s.on_ground;
      if (step_body(world, s, in, body, detail::kSimulationTick) != Status::Ok) return false;
      if (s.on_ground && s.feet.x > 5.4 && s.feet.y > (low ? 1.5 : 1.9)) return true;
    }
    return false;
  }
  bool planned(bool low = false) {
    NavRequest q;
    q.profile = walker;
    q.start = {4, 1, 0};
    q.goal = {6, low ? 1 : 2, 0};
    PathResult res;
    EXPECT_EQ(world.find_path_now(q, &res), Status::Ok);
    return res.status.state == PathState::Ready;
  }
  // An agent of the profile sent from the floor onto the ledge: true when it arrives within 10 s
  // (a jump planned but not made would replan it for ever).
  bool agent_arrives(bool low = false) {
    AgentId a;
    EXPECT_EQ(world.add_agent({walker, {2.5, 1.0, 0.5}}, &a), Status::Ok);
    EXPECT_EQ(world.set_agent_goal(a, {7, low ? 1 : 2, 0}), Status::Ok);
    AgentState st;
    for (int t = 0; t < 200; ++t) {
      EXPECT_EQ(world.tick(detail::kSimulationTick), Status::Ok);
      EXPECT_EQ(world.agent_state(a, &st), Status::Ok);
      if (st.mode == AgentMode::Arrived) return true;
    }
    return false;
  }
};

TEST(JumpRise, PlannedExactlyWhenTheBodyMakesIt) {
  // Rises 1, 1.0625 (carpet), 1.125 (two snow layers), 1.1875 (bottom trapdoor), 1.25 (three
  // layers: above the sampled 1.2430), 1.5 (bottom slab).
  const struct {
    const char* top;
    bool makes_it;
  } cases[] = {
      {"", true},
      {"white_carpet", true},
      {"snow[layers=2]", true},
      {"oak_trapdoor[facing=north,half=bottom,open=false,powered=false,waterlogged=false]", true},
      {"snow[layers=3]", false},
      {"stone_slab[type=bottom,waterlogged=false]", false},
  };
  for (const auto& c : cases) {
    Ledge l(c.top);
    const bool exec = l.executable();
    EXPECT_EQ(exec, c.makes_it) << c.top;
    EXPECT_EQ(l.planned(), exec) << "ledge topped by '" << c.top << "': planned " << l.planned()
                                 << ", executable " << exec;
  }
}

// One rule for every profile: a profile's rise limit is the sampled jump of its own apex
// (jump_rise_q), so for two profiles of other apex and speed the planner's answer equals the
// movement step's at the ledges either side of the limit, and the agent arrives wherever a jump
// is planned. Apex 1.1 reaches 1.0976 at 20 Hz (70/64 = 1.09375): 1.0625 yes, 1.125 no; apex 0.9
// reaches 0.8974 (57/64): 0.875 (soul sand) yes, 0.9375 (farmland) no.
TEST(JumpRise, EveryProfileJumpsWhatItsOwnSampledJumpReaches) {
  Profile high;
  high.id = "high";
  high.jump_apex = 1.1;
  high.walk_speed = 5.0;
  high.sprint_speed = 5.0;
  Profile low;
  low.id = "low";
  low.jump_apex = 0.9;
  low.walk_speed = 3.0;
  low.sprint_speed = 3.0;
  EXPECT_EQ(detail::jump_rise_q(1.1), 70);
  EXPECT_EQ(detail::jump_rise_q(0.9), 57);
  const struct {
    const Profile* p;
    const char* top;
    bool low_ledge;
    bool makes_it;
  } cases[] = {
      {&high, "", false, true},
      {&high, "white_carpet", false, true},
      {&high, "snow[layers=2]", false, false},
      {&low, "soul_sand", true, true},
      {&low, "farmland[moisture=0]", true, false},
      {&low, "", false, false},
  };
  for (const auto& c : cases) {
    Ledge l(c.top, *c.p, c.low_ledge);
    const bool exec = l.executable(c.low_ledge);
    EXPECT_EQ(exec, c.makes_it) << c.p->id << " " << c.top;
    const bool plan = l.planned(c.low_ledge);
    EXPECT_EQ(plan, exec) << c.p->id << ", ledge '" << c.top << "': planned " << plan
                          << ", executable " << exec;
    if (plan) {
      EXPECT_TRUE(l.agent_arrives(c.low_ledge)) << c.p->id << " " << c.top;
    }
  }
}

}  // namespace
}  // namespace voxnav
