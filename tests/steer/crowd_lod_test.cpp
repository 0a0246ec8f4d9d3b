// Reduced level of detail (voxnav/crowds.h set_agent_lod): a Reduced(k) agent steps only on the
// ticks where (tick + index) % k is 0 while its step is plain walking, every tick otherwise, and
// still reaches its goal; the crowd's bits are the same twice, with threads (natively) and in wasm
// (the pinned hash). Scenes: tests/support/crowd_scene.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "crowd_scene.h"
#include "voxnav/control.h"
#include "voxnav/crowds.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav {
namespace {

using namespace test::crowd;

/// What a reduced agent's run showed, tick by tick.
struct LodTrace {
  int plain_ticks = 0;        ///< ticks that began with a plain walking step ahead
  int plain_moves = 0;        ///< ... on which the feet moved
  int off_turn_moves = 0;     ///< ... moved on a tick that was not the agent's turn
  int other_ticks = 0;        ///< Moving ticks that began with another step ahead (or in the air)
  int other_still = 0;        ///< ... on which the feet did not move
  int first_other_still = -1;
};

/// Runs scene `s` (one agent, ids[0]) and traces, for every tick, the step the agent had ahead
/// when it began (its state after the previous tick) against whether its feet moved.
Outcome run_traced(Scene& s, int budget, int k, LodTrace& tr) {
  AgentState before;
  EXPECT_EQ(s.w->agent_state(s.ids[0], &before), Status::Ok);
  AgentLocomotion loco;
  EXPECT_EQ(agent_locomotion(*s.w, s.ids[0], &loco), Status::Ok);
  const std::uint32_t index = s.ids[0].index;
  return run(s, budget, {}, [&](int t, const std::vector<AgentState>& st) {
    const AgentState& now = st[0];
    const bool moved = !(now.feet.x == before.feet.x && now.feet.y == before.feet.y &&
                         now.feet.z == before.feet.z);
    if (before.mode == AgentMode::Moving) {
      const bool plain = before.on_ground && loco.edge == EdgeKind::Walk && !before.waiting_at_door;
      // The World's tick count after this tick is t + 1 (the scene ticked nothing before).
      const bool turn = (static_cast<std::uint64_t>(t) + 1 + index) % static_cast<unsigned>(k) == 0;
      if (plain) {
        ++tr.plain_ticks;
        if (moved) ++tr.plain_moves;
        if (moved && !turn) ++tr.off_turn_moves;
      } else {
        ++tr.other_ticks;
        if (!moved && tr.other_still++ == 0) tr.first_other_still = t;
      }
    }
    before = now;
    EXPECT_EQ(agent_locomotion(*s.w, s.ids[0], &loco), Status::Ok);
  });
}

TEST(CrowdLod, ReducedAgentReachesTheSameGoal) {
  int ticks[2] = {0, 0};
  Vec3 end[2];
  for (int k : {1, 4}) {
    Scene s(open_floor(40, 16));
    s.add(3, 5, 36, 10);
    ASSERT_EQ(set_agent_lod(*s.w, s.ids[0], k), Status::Ok);
    AgentState st;
    ASSERT_EQ(s.w->agent_state(s.ids[0], &st), Status::Ok);
    EXPECT_EQ(st.lod, k);
    LodTrace tr;
    const Outcome r = run_traced(s, 400, k, tr);
    expect_good(r, k == 1 ? "lod 1 walk" : "lod 4 walk");
    ASSERT_EQ(s.w->agent_state(s.ids[0], &st), Status::Ok);
    EXPECT_EQ(st.mode, AgentMode::Arrived);
    EXPECT_LT(std::hypot(st.feet.x - 36.5, st.feet.z - 10.5), 0.5) << "lod " << k;
    const int i = k == 1 ? 0 : 1;
    ticks[i] = r.ticks;
    end[i] = st.feet;
    EXPECT_GT(tr.plain_ticks, 100);
    EXPECT_EQ(tr.off_turn_moves, 0) << "lod " << k << ": moved on a tick not its turn";
    if (k == 1) {
      EXPECT_GE(tr.plain_moves, tr.plain_ticks - 2);  // (the tick it arrives may stand)
    } else {
      // One step in four, each covering the ticks it rested.
      EXPECT_GE(tr.plain_moves * 4, tr.plain_ticks - 4);
      EXPECT_LE(tr.plain_moves * 4, tr.plain_ticks + 4);
    }
  }
  // The same route, the reduced agent at most a few of its steps later.
  EXPECT_LE(std::abs(ticks[1] - ticks[0]), 8) << ticks[0] << " vs " << ticks[1];
  std::printf("[ lod      ] 33x5 cells walk: %d ticks at lod 1, %d at lod 4; ends %.3f,%.3f vs "
              "%.3f,%.3f\n",
              ticks[0], ticks[1], end[0].x, end[0].z, end[1].x, end[1].z);
}

TEST(CrowdLod, NeverSkipsAJumpOrAFall) {
  // A raised floor one block high from x = 16 to 27: the walk jumps up onto it and drops off its
  // far edge. A reduced agent steps every tick while the step ahead is a jump, a drop or a step
  // (not a Walk waypoint) or the body is in the air.
  std::vector<std::string> rows = open_floor(34, 12);
  for (auto& r : rows)
    for (int x = 16; x <= 27; ++x) r[static_cast<std::size_t>(x)] = 'S';
  for (int k : {1, 4, kMaxAgentLod}) {
    Scene s(rows);
    s.add(3, 6, 31, 6);
    ASSERT_EQ(set_agent_lod(*s.w, s.ids[0], k), Status::Ok);
    LodTrace tr;
    const Outcome out = run_traced(s, 600, k, tr);
    expect_good(out, "jump up and drop off");
    AgentState st;
    ASSERT_EQ(s.w->agent_state(s.ids[0], &st), Status::Ok);
    EXPECT_EQ(st.mode, AgentMode::Arrived) << "lod " << k;
    EXPECT_EQ(st.arrivals, 1u);
    EXPECT_GT(tr.other_ticks, 4) << "lod " << k << ": the route has a jump and a drop";
    EXPECT_EQ(tr.other_still, 0) << "lod " << k << ": rested on tick " << tr.first_other_still
                                 << " with a jump, a drop or a flight ahead";
    EXPECT_EQ(tr.off_turn_moves, 0) << "lod " << k;
  }
}

/// The ring of eight of crowd_scenes_test with every agent Reduced(3).
std::uint64_t reduced_ring(const WorldDef& def = WorldDef{}) {
  Scene s(open_floor(33, 33), Profile{}, def);
  ring(s, 8);
  for (AgentId id : s.ids) EXPECT_EQ(set_agent_lod(*s.w, id, 3), Status::Ok);
  const Outcome r = run(s, 900);
  expect_good(r, "reduced ring of 8", 0.3);
  return r.hash;
}

TEST(CrowdLod, ReducedRingSameHashTwiceAndPinnedAcrossBuilds) {
  const std::uint64_t a = reduced_ring(), b = reduced_ring();
  EXPECT_EQ(a, b);
  // Pinned: the wasm build (ctest under node) must give the same bits.
  EXPECT_EQ(a, 0x4a93e2aea131db3eull);
  std::printf("[ hash     ] reduced ring of 8: %016llx\n", static_cast<unsigned long long>(a));
}

#ifndef __EMSCRIPTEN__
TEST(CrowdLod, ReducedRingWithThreadsTheSameHash) {
  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  EXPECT_EQ(reduced_ring(def), reduced_ring());
}
#endif

TEST(CrowdLod, BadLevelRefusedByNameNothingChanges) {
  Scene s(open_floor(16, 16));
  s.add(3, 3, 12, 12);
  ASSERT_EQ(set_agent_lod(*s.w, s.ids[0], 2), Status::Ok);
  for (int k : {0, -1, kMaxAgentLod + 1, 1000}) {
    CallError e;
    EXPECT_EQ(set_agent_lod(*s.w, s.ids[0], k, &e), Status::InvalidArgument);
    EXPECT_EQ(e.argument, "k");
    EXPECT_EQ(e.function, "set_agent_lod");
    EXPECT_NE(e.message.find(std::to_string(k)), std::string::npos) << e.message;
    AgentState st;
    ASSERT_EQ(s.w->agent_state(s.ids[0], &st), Status::Ok);
    EXPECT_EQ(st.lod, 2) << "unchanged";
  }
  ASSERT_EQ(s.w->remove_agent(s.ids[0]), Status::Ok);
  CallError e;
  EXPECT_EQ(set_agent_lod(*s.w, s.ids[0], 2, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "agent");
}

}  // namespace
}  // namespace voxnav
