// A scripted scene of flyer agents (docs/flight.md#flyer-agents) on a small stone world (tests/
// support crowd_scene.h, the real Minecraft registry): a wall three blocks high runs right across
// the floor, walkers cannot pass it, and four flyers sent from one side to the floor on the other
// fly over it (the straight line is blocked: the flight search's corridor). One of them is knocked
// into the wall on its way (the knock goes into carry; pressed against the wall it slides up) and
// still arrives. No stone block is ever inside a body; arrived flyers hover where they stopped.
// The same scene twice gives the same state hash, with threads too (natively), and its hash is
// pinned: the wasm build (ctest under node) must give the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "crowd_scene.h"
#include "scenes.h"
#include "voxnav/control.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav {
namespace {

using namespace test::crowd;

std::vector<std::string> wall_rows() {
  std::vector<std::string> r = open_floor(40, 24);
  for (std::size_t x = 0; x < 40; ++x) r[11][x] = '#';
  return r;
}

struct FlyerSceneRun {
  std::uint64_t hash = 0;
  int arrived = 0;
  int inside = 0;   ///< agent ticks with stone inside a body
  int last_arrival = -1;
  double worst_gap = 0;
  bool hovered = true;  ///< arrived flyers kept their height to the end
  bool knocked_to_wall = false;  ///< the knocked flyer's body touched the wall
  AgentMode walker = AgentMode::Idle;
};

FlyerSceneRun flyer_scene(const WorldDef& def = WorldDef{}) {
  Scene s(wall_rows(), Profile{}, def);
  World& w = *s.w;
  const Profile bat = test::bat_profile();
  ProfileId bp;
  std::string err;
  EXPECT_EQ(w.add_profile(bat, &bp, &err), Status::Ok) << err;
  w.update();
  std::vector<AgentId> ids;
  std::vector<CellPos> goals;
  for (int k = 0; k < 4; ++k) {
    const int x = 4 + 8 * k;
    AgentId id;
    goals.push_back(CellPos{x + 3, 1, 20});
    EXPECT_EQ(w.add_agent(AgentDef{bp, Vec3{x + 0.5, 1.0, 3.5}, goals.back()}, &id), Status::Ok);
    ids.push_back(id);
  }
  AgentId walker;  // a walker to the same side: walled off
  EXPECT_EQ(w.add_agent(AgentDef{s.walker, Vec3{2.5, 1.0, 3.5}, CellPos{2, 1, 20}}, &walker), Status::Ok);
  FlyerSceneRun r;
  std::vector<double> arrived_y(ids.size(), -1.0);
  for (int t = 0; t < 400; ++t) {
    if (t == 12) {
      EXPECT_EQ(knock_agent(w, ids[1], Vec3{0.0, 0.0, 80.0}), Status::Ok);  // into the wall
    }
    EXPECT_EQ(w.tick(0.05), Status::Ok);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      AgentState st;
      EXPECT_EQ(w.agent_state(ids[k], &st), Status::Ok);
      if (body_meets(w, st.feet, 0.5 * bat.width, bat.height, s.stone, false)) ++r.inside;
      if (st.mode == AgentMode::Arrived && arrived_y[k] < 0) {
        arrived_y[k] = st.feet.y;
        r.last_arrival = t;
      }
      if (arrived_y[k] >= 0 && st.feet.y != arrived_y[k]) r.hovered = false;
      if (k == 1 && st.feet.y < 4.0 && st.feet.z + 0.5 * bat.width >= 11.0 - 1e-6) r.knocked_to_wall = true;
    }
  }
  for (std::size_t k = 0; k < ids.size(); ++k) {
    AgentState st;
    EXPECT_EQ(w.agent_state(ids[k], &st), Status::Ok);
    if (st.mode != AgentMode::Arrived) continue;
    ++r.arrived;
    const double dx = st.feet.x - (goals[k].x + 0.5), dy = st.feet.y - goals[k].y, dz = st.feet.z - (goals[k].z + 0.5);
    r.worst_gap = std::max(r.worst_gap, std::sqrt(dx * dx + dy * dy + dz * dz));
  }
  AgentState ws;
  EXPECT_EQ(w.agent_state(walker, &ws), Status::Ok);
  r.walker = ws.mode;
  ids.push_back(walker);
  EXPECT_EQ(state_hash(w, ids, &r.hash), Status::Ok);
  return r;
}

TEST(FlyerScene, OverTheWallSameBitsEverywhere) {
  const FlyerSceneRun a = flyer_scene();
  std::printf("[ flyers   ] %d of 4 arrived, the last at tick %d (worst gap %.3f); the walker %s\n", a.arrived,
              a.last_arrival, a.worst_gap, agent_mode_name(a.walker));
  EXPECT_EQ(a.arrived, 4);
  EXPECT_EQ(a.inside, 0);
  EXPECT_TRUE(a.hovered);
  EXPECT_TRUE(a.knocked_to_wall);
  EXPECT_LE(a.worst_gap, 0.5 + 1e-9);
  EXPECT_NE(a.walker, AgentMode::Arrived);  // walled off
  const FlyerSceneRun b = flyer_scene();
  EXPECT_EQ(a.hash, b.hash);
  std::printf("[ hash     ] flyer scene: %016llx\n", static_cast<unsigned long long>(a.hash));
  // Pinned: the wasm build must give the same bits.
  EXPECT_EQ(a.hash, 0x34a3eb6a532c452cull);
}

// A flyer chases a host entity the script moves east along a row on the far side of the wall
// (3 m/s; the flyer flies 4.3): it searches over the wall, then flies straight at it once within
// kChaseDirectCells, catches it within the range, and stops, Failed with the reason, when the
// entity is removed.
TEST(FlyerScene, ChasesAnEntityOverTheWall) {
  Scene s(wall_rows(), Profile{});
  World& w = *s.w;
  const Profile bat = test::bat_profile();
  ProfileId bp;
  ASSERT_EQ(w.add_profile(bat, &bp), Status::Ok);
  w.update();
  AgentId chaser;
  ASSERT_EQ(w.add_agent(AgentDef{bp, Vec3{6.5, 1.0, 4.5}}, &chaser), Status::Ok);
  EntityId ent;
  ASSERT_EQ(add_entity(w, Vec3{4.5, 1.0, 18.5}, &ent), Status::Ok);
  ASSERT_EQ(chase_entity(w, chaser, ent, 1.0), Status::Ok);
  int caught = -1, inside = 0;
  double gap = 0;
  for (int t = 0; t < 260; ++t) {
    if (t < 200) {
      ASSERT_EQ(set_entity_position(w, ent, Vec3{std::min(34.5, 4.5 + 3.0 * 0.05 * t), 1.0, 18.5}), Status::Ok);
    } else if (t == 200) {
      ASSERT_EQ(remove_entity(w, ent), Status::Ok);
    }
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    AgentState st;
    ASSERT_EQ(w.agent_state(chaser, &st), Status::Ok);
    if (body_meets(w, st.feet, 0.5 * bat.width, bat.height, s.stone, false)) ++inside;
    if (caught < 0 && st.mode == AgentMode::Arrived && t < 200) {
      caught = t;
      Vec3 p;
      ASSERT_EQ(entity_position(w, ent, &p), Status::Ok);
      gap = std::sqrt((st.feet.x - p.x) * (st.feet.x - p.x) + (st.feet.y - p.y) * (st.feet.y - p.y) +
                      (st.feet.z - p.z) * (st.feet.z - p.z));
    }
  }
  std::printf("[ chase    ] flyer caught the entity at tick %d (gap %.3f m)\n", caught, gap);
  EXPECT_GE(caught, 0);
  EXPECT_LE(gap, 1.0 + 1e-9);
  EXPECT_EQ(inside, 0);
  AgentState st;
  ASSERT_EQ(w.agent_state(chaser, &st), Status::Ok);
  EXPECT_EQ(st.mode, AgentMode::Failed);
  std::string why;
  ASSERT_EQ(w.agent_reason(chaser, &why), Status::Ok);
  EXPECT_NE(why.find("chase target entity"), std::string::npos) << why;
}

#ifndef __EMSCRIPTEN__
TEST(FlyerScene, WithThreadsTheSameHash) {
  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  EXPECT_EQ(flyer_scene(def).hash, flyer_scene().hash);
}
#endif

}  // namespace
}  // namespace voxnav
