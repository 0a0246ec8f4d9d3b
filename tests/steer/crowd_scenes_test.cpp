// Steering among agents (engine/steer, voxnav/crowds.h) in the crowd scenes crowd libraries are
// judged by: a head-on symmetric pair, rings of 2 to 8 agents swapping sides, a 1-wide doorway
// crossed from both sides, an idle agent in a corridor, a pillar exactly on the straight line and
// a 3-wide bridge over lava crossed both ways. Worlds use the real Minecraft registry (data/blocks:
// stone, lava). Every tick, for every agent, the test checks with its own box test that no stone
// or lava block is inside the body and that the foot cell is not over lava; it measures the
// smallest gap between two bodies (centre distance minus both half widths) over the run. Every
// scene must end with everyone Arrived within its tick budget. Runs natively and in wasm: the
// pinned hash of the ring of eight is the same bits in both builds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "crowd_scene.h"
#include "test_support.h"
#include "voxnav/crowds.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav {
namespace {

using namespace test::crowd;

TEST(CrowdScenes, HeadOnSymmetricPair) {
  Scene s(open_floor(32, 16));
  s.add(4, 8, 27, 8);
  s.add(27, 8, 4, 8);
  const Outcome r = run(s, 400);
  expect_good(r, "head-on pair");
  // Straight line: 23 cells at 4.3 m/s is 107 ticks; passing each other costs a few more.
  EXPECT_LT(r.ticks, 107 + 60);
}

TEST(CrowdScenes, RingsOfTwoToEightSwapSides) {
  for (int n = 2; n <= 8; ++n) {
    Scene s(open_floor(33, 33));
    ring(s, n);
    const Outcome r = run(s, 600);
    const std::string name = "ring of " + std::to_string(n);
    expect_good(r, name.c_str());
  }
}

TEST(CrowdScenes, DoorwayFromBothSides) {
  // A wall across the floor at x = 12 with a 1-wide gap at z = 8; three agents each side, each
  // sent to the mirror cell on the other side.
  std::vector<std::string> rows = open_floor(25, 17);
  for (int z = 0; z < 17; ++z)
    if (z != 8) rows[static_cast<std::size_t>(z)][12] = '#';
  Scene s(rows);
  for (int k = 0; k < 3; ++k) {
    s.add(4, 6 + 2 * k, 20, 6 + 2 * k);
    s.add(20, 7 + 2 * k, 4, 7 + 2 * k);
  }
  const Outcome r = run(s, 1600);
  expect_good(r, "doorway both sides");
}

TEST(CrowdScenes, IdleAgentInACorridor) {
  // A corridor 3 cells wide and 24 long; an idle agent stands in its middle; walkers pass it
  // from both ends.
  std::vector<std::string> rows(5, std::string(26, '#'));
  for (int z = 1; z <= 3; ++z)
    for (int x = 1; x <= 24; ++x)
      rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = '.';
  Scene s(rows);
  s.add(12, 2, 0, 0, true);
  s.add(2, 2, 23, 2);
  s.add(23, 2, 2, 2);
  const Outcome r = run(s, 800, {true, false, false});
  expect_good(r, "idle agent in a corridor");
  AgentState idle;
  ASSERT_EQ(s.w->agent_state(s.ids[0], &idle), Status::Ok);
  EXPECT_EQ(idle.mode, AgentMode::Idle);
  EXPECT_TRUE(idle.feet.z >= 1.3 && idle.feet.z <= 3.7) << "still inside the corridor";
}

TEST(CrowdScenes, PillarExactlyOnTheStraightLine) {
  std::vector<std::string> rows = open_floor(32, 17);
  rows[8][16] = '#';
  Scene s(rows);
  s.add(4, 8, 28, 8);
  s.add(28, 8, 4, 8);
  s.add(4, 7, 28, 9);
  const Outcome r = run(s, 600);
  expect_good(r, "pillar on the line");
}

TEST(CrowdScenes, ThreeWideBridgeOverLavaBothWays) {
  // Floor x 0..5 and 30..35, a lava lake between, a bridge 3 wide (z = 7..9) across it.
  std::vector<std::string> rows = open_floor(36, 17);
  for (int z = 0; z < 17; ++z)
    for (int x = 6; x < 30; ++x)
      if (z < 7 || z > 9) rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = 'L';
  Scene s(rows);
  for (int k = 0; k < 3; ++k) {
    s.add(2, 6 + 2 * k, 33, 6 + 2 * k);
    s.add(33, 7 + 2 * k, 2, 7 + 2 * k);
  }
  const Outcome r = run(s, 1600);
  expect_good(r, "bridge over lava");
}

TEST(CrowdScenes, ArrivalContagionAtOneGoal) {
  // Six agents sent to one cell: the first stands on it, the others arrive touching it or each
  // other instead of pushing forever.
  Scene s(open_floor(32, 32));
  for (int k = 0; k < 6; ++k) s.add(4 + 4 * k, 4, 16, 24);
  const Outcome r = run(s, 600);
  expect_good(r, "six to one goal");
  int on_goal = 0;
  for (AgentId id : s.ids) {
    AgentState a;
    ASSERT_EQ(s.w->agent_state(id, &a), Status::Ok);
    if (std::hypot(a.feet.x - 16.5, a.feet.z - 24.5) < 0.5) ++on_goal;
  }
  EXPECT_GE(on_goal, 1);
  EXPECT_LE(on_goal, 2) << "bodies do not share the goal cell";
}

TEST(CrowdScenes, SameSceneTwiceSameHashAndPinnedAcrossBuilds) {
  std::uint64_t h[2];
  for (int k = 0; k < 2; ++k) {
    Scene s(open_floor(33, 33));
    ring(s, 8);
    const Outcome r = run(s, 600);
    EXPECT_TRUE(r.arrived);
    h[k] = r.hash;
  }
  EXPECT_EQ(h[0], h[1]);
  // Pinned: the wasm build must give the same bits. Re-pin (the printed value) only when the
  // agents' behaviour changes on purpose.
  EXPECT_EQ(h[0], 0x67acf2e9f048ce6dull);
  std::printf("[ hash     ] ring of 8: %016llx\n", static_cast<unsigned long long>(h[0]));
}

#ifndef __EMSCRIPTEN__
TEST(CrowdScenes, WithThreadsTheSameHash) {
  // Searches on a 2-thread pool (natively): the same bits as without threads.
  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  Scene s(open_floor(33, 33), Profile{}, def);
  ring(s, 8);
  const Outcome r = run(s, 600);
  EXPECT_TRUE(r.arrived);
  EXPECT_EQ(r.hash, 0x67acf2e9f048ce6dull);
}
#endif

TEST(CrowdScenes, WithoutSteeringThePairWalksThroughEachOther) {
  // Avoidance off in the profile and separation off in the World: the head-on pair walks
  // through each other (the behaviour before steering), which the scene above does not.
  Profile p;
  p.avoidance.enabled = false;
  Scene s(open_floor(32, 16), p);
  set_separation(*s.w, false);
  EXPECT_FALSE(separation(*s.w));
  s.add(4, 8, 27, 8);
  s.add(27, 8, 4, 8);
  const Outcome r = run(s, 400);
  EXPECT_TRUE(r.arrived);
  EXPECT_LT(r.min_gap, -0.3) << "the bodies pass through each other";
  set_separation(*s.w, true);
  EXPECT_TRUE(separation(*s.w));
}

}  // namespace
}  // namespace voxnav
