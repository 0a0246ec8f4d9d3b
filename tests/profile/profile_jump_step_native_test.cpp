// Regression tests (break testing of profiles): a profile's own `jump_apex` and `step_height`
// (documented: "jump height", "highest rise taken without a jump"; below the class's value the
// profile "restricts its class" and its reachability Yes answers "become searches") must bound the
// routes its searches return. Only `max_drop` is applied in the search today (astar.cpp refuses
// deeper drops); a route for a profile that cannot jump still climbs onto a full block with a Jump
// edge, and an agent of that profile then walks into the block for ever (37 replans in 3,000 ticks,
// never Blocked, no reason).
//
// The world: a flat stone floor (y = 0, feet y = 1) over 3 x 3 chunks, a platform of stone one
// block high (x 6..10, z 0..6: feet y = 2 on it) and a platform of bottom slabs (x -10..-6, z 0..6:
// feet y = 1 at 0.5). While the defect exists the three restricted cases below find a route.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

struct Platforms {
  World world;
  std::uint16_t stone = 0, slab = 0;
  Platforms() {
    EXPECT_TRUE(test::load_real_blocks(world));
    EXPECT_EQ(world.block_value("stone", &stone), Status::Ok);
    EXPECT_EQ(world.block_value("oak_slab[type=bottom]", &slab), Status::Ok);
    EXPECT_TRUE(test::load_flat_floor(world, stone));
    for (int z = 0; z <= 6; ++z)
      for (int k = 0; k <= 4; ++k) {
        EXPECT_EQ(world.set_block({6 + k, 1, z}, stone), Status::Ok);
        EXPECT_EQ(world.set_block({-10 + k, 1, z}, slab), Status::Ok);
      }
  }
  ProfileId add(const char* json) {
    Profile p;
    std::string err;
    EXPECT_EQ(parse_profile_json(json, p, &err), Status::Ok) << err;
    ProfileId id;
    EXPECT_EQ(world.add_profile(p, &id, &err), Status::Ok) << err;
    return id;
  }
  PathResult path(ProfileId p, CellPos a, CellPos b) {
    NavRequest q;
    q.profile = p;
    q.start = a;
    q.goal = b;
    PathResult r;
    EXPECT_EQ(world.find_path_now(q, &r), Status::Ok);
    return r;
  }
};

std::string describe(const PathResult& r) {
  std::string s = std::string(path_state_name(r.status.state)) + "/" +
                  path_failure_name(r.status.failure) + ":";
  for (const PathCell& c : r.cells)
    s += " (" + std::to_string(c.cell.x) + "," + std::to_string(c.cell.y) + "," +
         std::to_string(c.cell.z) + ")" + edge_kind_name(c.kind);
  return s;
}

constexpr CellPos kFloor{3, 1, 3}, kOnBlock{8, 2, 3};    // a one-block rise between them
constexpr CellPos kFloorW{-3, 1, 3}, kOnSlab{-8, 1, 3};  // a half-block rise between them

TEST(ProfileJumpStep, ClassProfileClimbsBothPlatforms) {
  Platforms w;
  const ProfileId plain = w.add(R"({"id": "plain"})");
  w.world.update();
  EXPECT_EQ(w.path(plain, kFloor, kOnBlock).status.state, PathState::Ready);
  EXPECT_EQ(w.path(plain, kFloorW, kOnSlab).status.state, PathState::Ready);
}

TEST(ProfileJumpStep, NoRouteNeedsAJumpHigherThanTheProfilesJumpApex) {
  Platforms w;
  const ProfileId low = w.add(R"({"id": "low_jump", "jump_apex": 0.5})");
  const ProfileId none = w.add(R"({"id": "no_jump", "jump_apex": 0})");
  w.world.update();
  for (ProfileId p : {low, none}) {
    const PathResult r = w.path(p, kFloor, kOnBlock);
    EXPECT_EQ(r.status.state, PathState::Failed)
        << detail::WorldAccess::state(w.world).profiles[p.index].id << " cannot rise one block: " << describe(r);
  }
}

TEST(ProfileJumpStep, NoRouteNeedsAStepHigherThanTheProfilesStepHeightWithoutAJump) {
  Platforms w;
  const ProfileId low = w.add(R"({"id": "low_step", "step_height": 0.25, "jump_apex": 0})");
  w.world.update();
  const PathResult r = w.path(low, kFloorW, kOnSlab);
  EXPECT_EQ(r.status.state, PathState::Failed)
      << "a 0.5 rise with step 0.25 and no jump: " << describe(r);
}

TEST(ProfileJumpStep, AgentThatCannotJumpDoesNotWalkIntoTheBlockForEver) {
  Platforms w;
  const ProfileId none = w.add(R"({"id": "no_jump", "jump_apex": 0})");
  w.world.update();
  AgentId a;
  ASSERT_EQ(w.world.add_agent({none, {kFloor.x + 0.5, 1.0, kFloor.z + 0.5}}, &a), Status::Ok);
  ASSERT_EQ(w.world.set_agent_goal(a, kOnBlock), Status::Ok);
  AgentState s;
  for (int t = 0; t < 1200; ++t) {
    ASSERT_EQ(w.world.tick(0.05), Status::Ok);
    ASSERT_EQ(w.world.agent_state(a, &s), Status::Ok);
    if (s.mode == AgentMode::Failed || s.mode == AgentMode::Blocked) break;
  }
  EXPECT_TRUE(s.mode == AgentMode::Failed || s.mode == AgentMode::Blocked)
      << "after 1,200 ticks: " << agent_mode_name(s.mode) << " with " << s.replans << " replans";
}

}  // namespace
}  // namespace voxnav
