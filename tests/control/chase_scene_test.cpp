// A scripted scene of the intents (voxnav/control.h) on a small stone world (tests/support
// crowd_scene.h, the real Minecraft registry): a target agent walks round a wall to the far side,
// a sprinting chaser goes after it, a second chaser runs down a host entity the script moves
// along a row each tick (and is stopped, Failed with a reason, when the script removes it), and
// a third agent flees from a point. The same scene twice gives the same state hash, with threads
// too (natively), and its hash is pinned: the wasm build (ctest under node) must give the same
// bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "crowd_scene.h"
#include "voxnav/control.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav {
namespace {

using namespace test::crowd;

// 40 x 24: a wall across the middle with a gap at its east end, so the target's walk bends.
std::vector<std::string> rows() {
  std::vector<std::string> r = open_floor(40, 24);
  for (int x = 0; x < 33; ++x) r[11][static_cast<std::size_t>(x)] = '#';
  return r;
}

struct SceneRun {
  std::uint64_t hash = 0;
  int target_caught = -1;  ///< tick the agent chaser first Arrived
  int entity_caught = -1;  ///< tick the entity chaser first Arrived
  double target_gap = 0, entity_gap = 0;  ///< feet distances then
  bool target_walking = false;            ///< the target still walked then
  AgentState flee, entity_chaser;
  std::string entity_reason;
};

double dist3(const Vec3& a, const Vec3& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                   (a.z - b.z) * (a.z - b.z));
}

SceneRun scene(const WorldDef& def = WorldDef{}) {
  Scene s(rows(), Profile{}, def);
  World& w = *s.w;
  s.add(4, 8, 30, 16);               // 0: the target, round the wall's gap to the south side
  s.add(2, 2, 0, 0, true);           // 1: chases agent 0
  s.add(2, 21, 0, 0, true);          // 2: chases the entity
  s.add(20, 5, 0, 0, true);          // 3: flees from (22, 1, 5)
  SceneRun r;
  EntityId ent;
  EXPECT_EQ(add_entity(w, Vec3{6.5, 1.0, 19.5}, &ent), Status::Ok);
  EXPECT_EQ(set_agent_sprint(w, s.ids[1], true), Status::Ok);
  EXPECT_EQ(chase_agent(w, s.ids[1], s.ids[0], 1.5), Status::Ok);
  EXPECT_EQ(chase_entity(w, s.ids[2], ent, 1.0), Status::Ok);
  EXPECT_EQ(flee_from(w, s.ids[3], CellPos{22, 1, 5}, 8), Status::Ok);
  for (int t = 0; t < 240; ++t) {
    // The host moves its entity 3 m/s east along row z = 19.5 until x = 33.5, then removes it.
    if (t < 180) {
      const double x = std::min(33.5, 6.5 + 3.0 * 0.05 * t);
      EXPECT_EQ(set_entity_position(w, ent, Vec3{x, 1.0, 19.5}), Status::Ok);
    } else if (t == 180) {
      EXPECT_EQ(remove_entity(w, ent), Status::Ok);
    }
    EXPECT_EQ(w.tick(0.05), Status::Ok);
    AgentState st[4];
    for (int i = 0; i < 4; ++i) EXPECT_EQ(w.agent_state(s.ids[i], &st[i]), Status::Ok);
    if (r.target_caught < 0 && st[1].mode == AgentMode::Arrived) {
      r.target_caught = t;
      r.target_gap = dist3(st[1].feet, st[0].feet);
      r.target_walking = st[0].mode == AgentMode::Moving;
    }
    if (r.entity_caught < 0 && st[2].mode == AgentMode::Arrived) {
      r.entity_caught = t;
      Vec3 p;
      EXPECT_EQ(entity_position(w, ent, &p), Status::Ok);
      r.entity_gap = dist3(st[2].feet, p);
    }
  }
  EXPECT_EQ(w.agent_state(s.ids[3], &r.flee), Status::Ok);
  EXPECT_EQ(w.agent_state(s.ids[2], &r.entity_chaser), Status::Ok);
  EXPECT_EQ(w.agent_reason(s.ids[2], &r.entity_reason), Status::Ok);
  EXPECT_EQ(state_hash(w, s.ids, &r.hash), Status::Ok);
  return r;
}

TEST(ChaseScene, ChaseFleeAndALostTargetSameBitsEverywhere) {
  const SceneRun a = scene();
  std::printf("[ chase    ] agent caught at tick %d (gap %.3f m, target %s), entity caught at "
              "tick %d (gap %.3f m); flee ended at (%.2f, %.2f, %.2f)\n",
              a.target_caught, a.target_gap, a.target_walking ? "walking" : "standing",
              a.entity_caught, a.entity_gap, a.flee.feet.x, a.flee.feet.y, a.flee.feet.z);
  EXPECT_GE(a.target_caught, 0);
  EXPECT_TRUE(a.target_walking);
  EXPECT_LE(a.target_gap, 1.5 + 0.25);
  EXPECT_GE(a.entity_caught, 0);
  EXPECT_LE(a.entity_gap, 1.0 + 1e-9);
  // The entity was removed at tick 180: its chaser stopped with the reason.
  EXPECT_EQ(a.entity_chaser.mode, AgentMode::Failed);
  EXPECT_NE(a.entity_reason.find("chase target entity"), std::string::npos) << a.entity_reason;
  // The fleer stands at least 8 cells from (22, 1, 5).
  EXPECT_EQ(a.flee.mode, AgentMode::Arrived);
  const double fx = std::floor(a.flee.feet.x) - 22, fz = std::floor(a.flee.feet.z) - 5;
  EXPECT_GE(fx * fx + fz * fz, 64.0);
  const SceneRun b = scene();
  EXPECT_EQ(a.hash, b.hash);
  std::printf("[ hash     ] chase scene: %016llx\n", static_cast<unsigned long long>(a.hash));
  // Pinned: the wasm build must give the same bits.
  EXPECT_EQ(a.hash, 0x5d738bf081ed4ad8ull);
}

#ifndef __EMSCRIPTEN__
TEST(ChaseScene, WithThreadsTheSameHash) {
  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  EXPECT_EQ(scene(def).hash, scene().hash);
}
#endif

}  // namespace
}  // namespace voxnav
