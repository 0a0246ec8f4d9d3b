// Regressions from a break test: an agent teleported while it follows a corridor plans again from
// where it lands (it used to fail for good with no reason), an agent added or teleported in the air
// plans once it stands, and a teleport out of the cell range is refused and changes nothing.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct Flat {
  World w;
  ProfileId walker;
  Flat() {
    EXPECT_TRUE(test::load_real_blocks(w));
    std::uint16_t stone = 0;
    EXPECT_EQ(w.block_value("stone", &stone), Status::Ok);
    EXPECT_TRUE(test::load_flat_floor(w, stone));
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    w.update();
  }
  // Ticks until the agent arrives (or `limit`); the final state in `s`.
  int run(AgentId id, AgentState& s, int limit = 300) {
    for (int t = 1; t <= limit; ++t) {
      EXPECT_EQ(w.tick(0.05), Status::Ok);
      EXPECT_EQ(w.agent_state(id, &s), Status::Ok);
      if (s.mode == AgentMode::Arrived) return t;
    }
    return -1;
  }
};

TEST(AgentTeleport, MovingAgentPlansAgainFromItsNewPlace) {
  Flat f;
  AgentId id;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{2.5, 1.0, 2.5}}, &id), Status::Ok);
  ASSERT_EQ(f.w.set_agent_goal(id, {25, 1, 25}), Status::Ok);
  AgentState s;
  for (int t = 0; t < 10; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  ASSERT_EQ(f.w.agent_state(id, &s), Status::Ok);
  ASSERT_EQ(s.mode, AgentMode::Moving);
  const std::uint32_t epoch = s.corridor_epoch;
  ASSERT_EQ(f.w.teleport_agent(id, Vec3{5.5, 1.0, 20.5}), Status::Ok);
  ASSERT_EQ(f.w.agent_state(id, &s), Status::Ok);
  EXPECT_NE(s.corridor_epoch, epoch);
  const int ticks = f.run(id, s);
  EXPECT_GT(ticks, 0) << "mode " << static_cast<int>(s.mode);
  EXPECT_NEAR(s.feet.x, 25.5, 0.5);
  EXPECT_NEAR(s.feet.z, 25.5, 0.5);
  // From (5.5, 20.5): 20 cells at 4.3 m/s is about 93 ticks; from the old place it would be more.
  EXPECT_LT(ticks, 140);
}

TEST(AgentTeleport, AgentInTheAirPlansOnceItLands) {
  Flat f;
  AgentId id;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{2.5, 4.0, 2.5}}, &id), Status::Ok);
  ASSERT_EQ(f.w.set_agent_goal(id, {12, 1, 12}), Status::Ok);
  AgentState s;
  EXPECT_GT(f.run(id, s), 0) << "mode " << static_cast<int>(s.mode);
  EXPECT_NEAR(s.feet.y, 1.0, 1e-9);
  // Teleported into the air while walking: falls, plans, arrives.
  ASSERT_EQ(f.w.set_agent_goal(id, {2, 1, 2}), Status::Ok);
  for (int t = 0; t < 5; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  ASSERT_EQ(f.w.teleport_agent(id, Vec3{8.5, 6.0, 8.5}), Status::Ok);
  EXPECT_GT(f.run(id, s), 0) << "mode " << static_cast<int>(s.mode);
}

TEST(AgentTeleport, OutOfRangeIsRefusedAndChangesNothing) {
  Flat f;
  AgentId id;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{2.5, 1.0, 2.5}}, &id), Status::Ok);
  for (const Vec3 p : {Vec3{1e10, 1, 8.5}, Vec3{8.5, 5000, 8.5}, Vec3{8.5, 1, -1e300},
                       Vec3{67108864.0 + 8.5, 1, 8.5}}) {
    EXPECT_EQ(f.w.teleport_agent(id, p), Status::OutOfRange) << p.x << "," << p.y << "," << p.z;
    AgentState s;
    ASSERT_EQ(f.w.agent_state(id, &s), Status::Ok);
    EXPECT_EQ(s.feet.x, 2.5);
    EXPECT_EQ(s.feet.y, 1.0);
  }
  EXPECT_EQ(f.w.teleport_agent(id, Vec3{std::nan(""), 1, 1}), Status::InvalidArgument);
  ASSERT_EQ(f.w.remove_agent(id), Status::Ok);
  EXPECT_EQ(f.w.teleport_agent(id, Vec3{2.5, 1, 2.5}), Status::StaleHandle);
}

TEST(AgentTeleport, ReachableWithABadProfileSaysSo) {
  Flat f;
  const Reach r = f.w.reachable(ProfileId{99}, {2, 1, 2}, {8, 1, 8});
  EXPECT_EQ(r.answer, ReachAnswer::Unknown);
  EXPECT_EQ(r.reason, ReachReason::BadProfile);
  EXPECT_STREQ(reach_reason_name(r.reason), "bad_profile");
}

}  // namespace
}  // namespace voxnav
