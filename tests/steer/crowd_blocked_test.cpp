// Blocked is a state for crowds too (issue 19 item 3): an agent pinned by its own crowd rests and
// retries (Blocked, AgentState::crowded, a reason starting "pinned by its crowd"); one whose goal
// is cut off stays Blocked until the level or the order changes; nothing stays Moving for ever
// without progress. Scenes: tests/support/crowd_scene.h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "crowd_scene.h"
#include "voxnav/crowds.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using namespace test::crowd;

/// A room of 7 x 7 cells (x 40..46, z 28..34) closed by walls, its only way in a 1-wide door at
/// (43, 27), on a 64 x 48 floor.
std::vector<std::string> room_floor() {
  std::vector<std::string> rows = open_floor(64, 48);
  for (int z = 27; z <= 35; ++z)
    for (int x = 39; x <= 47; ++x)
      if (z == 27 || z == 35 || x == 39 || x == 47)
        rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = '#';
  rows[27][43] = '.';
  return rows;
}

/// Per agent, over a run: the longest stretch of ticks it stayed Moving while its feet stayed
/// within 0.5 cells of where the stretch began (moving without getting anywhere), its rests, and
/// whether it was seen resting with the crowd's reason and walking on after a rest.
struct Watch {
  std::vector<Vec3> from;
  std::vector<int> stretch, longest;
  std::vector<bool> rested, walked_on, reason_ok;
  std::vector<AgentMode> last;
  std::vector<int> moving;  ///< ticks spent Moving
  int ticks = 0;
  explicit Watch(std::size_t n)
      : from(n), stretch(n, 0), longest(n, 0), rested(n, false), walked_on(n, false),
        reason_ok(n, true), last(n, AgentMode::Idle), moving(n, 0) {}
  void see(const World& w, const std::vector<AgentId>& ids, const std::vector<AgentState>& st) {
    ++ticks;
    for (std::size_t i = 0; i < st.size(); ++i) {
      const AgentState& a = st[i];
      if (a.mode == AgentMode::Moving) ++moving[i];
      if (a.mode != AgentMode::Moving ||
          std::hypot(a.feet.x - from[i].x, a.feet.z - from[i].z) > 0.5) {
        from[i] = a.feet;
        stretch[i] = 0;
      } else {
        longest[i] = std::max(longest[i], ++stretch[i]);
      }
      if (a.crowded) {
        EXPECT_EQ(a.mode, AgentMode::Blocked);
        rested[i] = true;
        std::string why;
        EXPECT_EQ(w.agent_reason(ids[i], &why), Status::Ok);
        if (why.rfind("pinned by its crowd", 0) != 0) reason_ok[i] = false;
      }
      if (last[i] == AgentMode::Blocked && rested[i] && a.mode == AgentMode::Moving)
        walked_on[i] = true;
      last[i] = a.mode;
    }
  }
};

TEST(CrowdBlocked, PinnedInADeadEndRestsAndNeverMovesForEver) {
  // A corridor three cells wide closed at both ends; eight idle agents stand packed against its
  // far end, and a walker is sent to the end cell behind them. It pushes into them and is pinned
  // by their bodies: it rests (Blocked, crowded, the reason says so) and walks on after
  // kCrowdRestTicks; it is never Moving for long without moving.
  std::vector<std::string> rows(5, std::string(18, '#'));
  for (int z = 1; z <= 3; ++z)
    for (int x = 1; x <= 16; ++x) rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = '.';
  Scene s(rows);
  s.add(2, 2, 16, 2);
  for (int k = 0; k < 9; ++k) s.add(14 + k % 3, 1 + k / 3, 0, 0, true);
  std::vector<bool> idle(s.ids.size(), true);
  idle[0] = false;
  Watch watch(s.ids.size());
  (void)run(s, 3000, idle,
            [&](int, const std::vector<AgentState>& st) { watch.see(*s.w, s.ids, st); });
  for (std::size_t i = 0; i < 1; ++i) {
    AgentState st;
    ASSERT_EQ(s.w->agent_state(s.ids[i], &st), Status::Ok);
    EXPECT_TRUE(watch.rested[i]) << "agent " << i << " never rested";
    EXPECT_TRUE(watch.reason_ok[i]) << "agent " << i;
    EXPECT_TRUE(watch.walked_on[i]) << "agent " << i << " never walked on after a rest";
    EXPECT_GT(st.crowd_rests, 0u);
    EXPECT_GE(st.crowd_rests, 3u);
    // The stuck watch's bound: kStuckTicks before a rest, its recovery (three 10-tick phases per
    // replan, three replans) once kMaxCrowdRestsInRow rests did not clear the way.
    EXPECT_LE(watch.longest[i], 41 + 4 * 70) << "agent " << i;
    std::printf("[ pinned   ] agent %zu: %u rests, Moving %d of %d ticks, longest Moving without "
                "moving %d ticks\n",
                i, st.crowd_rests, watch.moving[i], watch.ticks, watch.longest[i]);
  }
}

TEST(CrowdBlocked, CrowdCrossingADoorwayNeverMovesForEver) {
  // Forty agents each side of a wall with a one-wide gap, each sent to the mirror cell: the
  // doorway jams both ways. Everyone arrives; nobody stays Moving without moving for longer than
  // the stuck watch allows; those pinned rest with the crowd's reason.
  for (bool separate : {true, false}) {
    std::vector<std::string> rows = open_floor(48, 33);
    for (int z = 0; z < 33; ++z)
      if (z != 16) rows[static_cast<std::size_t>(z)][24] = '#';
    Scene s(rows);
    set_separation(*s.w, separate);
    for (int k = 0; k < 40; ++k) {
      const int x = 4 + 2 * (k % 8), z = 2 + 3 * (k / 8) + (k % 2);
      s.add(x, z, 47 - x, z);
      s.add(47 - x, z + 1, x, z + 1);
    }
    Watch watch(s.ids.size());
    const Outcome r =
        run(s, 6000, {}, [&](int, const std::vector<AgentState>& st) { watch.see(*s.w, s.ids, st); });
    EXPECT_TRUE(r.arrived) << "separation " << separate << ": not everyone arrived in " << r.ticks;
    EXPECT_EQ(r.inside_stone, 0) << r.first_problem;
    int rested = 0, longest = 0;
    for (std::size_t i = 0; i < s.ids.size(); ++i) {
      rested += watch.rested[i];
      longest = std::max(longest, watch.longest[i]);
      EXPECT_TRUE(watch.reason_ok[i]);
      EXPECT_LE(watch.longest[i], 41 + 4 * 70) << "agent " << i;
    }
    EXPECT_GT(rested, 0);
    std::printf("[ doorway  ] separation %d: %d ticks, %d of 80 rested, longest Moving without "
                "moving %d ticks\n",
                separate, r.ticks, rested, longest);
  }
}

TEST(CrowdBlocked, CutOffGoalStaysBlockedUntilTheLevelOrTheOrderChanges) {
  // Twelve followers of a field toward a room's centre; the room's door is walled up after 20
  // ticks: the field is rebuilt, it no longer reaches the goal from outside, and the followers
  // are Blocked (not resting: the world, not the crowd, stops them) and stay Blocked, without a
  // search, until the door opens; then they all arrive. One of them gets a new order meanwhile
  // (a goal outside) and walks to it.
  Scene s(room_floor());
  const CellPos goal{43, 1, 31};
  for (int k = 0; k < 12; ++k) s.add(20 + 2 * (k % 6), 6 + 2 * (k / 6), goal.x, goal.z);
  FlowId f;
  ASSERT_EQ(request_flow(*s.w, s.walker, goal, {}, &f), Status::Ok);
  for (AgentId id : s.ids) ASSERT_EQ(set_agent_flow(*s.w, id, f), Status::Ok);
  for (int t = 0; t < 20; ++t) ASSERT_EQ(s.w->tick(0.05), Status::Ok);
  ASSERT_EQ(s.w->set_block(CellPos{43, 1, 27}, s.stone), Status::Ok);
  ASSERT_EQ(s.w->set_block(CellPos{43, 2, 27}, s.stone), Status::Ok);
  for (int t = 0; t < 100; ++t) ASSERT_EQ(s.w->tick(0.05), Status::Ok);
  std::vector<std::uint32_t> requests(s.ids.size());
  for (int t = 0; t < 600; ++t) {
    ASSERT_EQ(s.w->tick(0.05), Status::Ok);
    for (std::size_t i = 0; i < s.ids.size(); ++i) {
      AgentState st;
      ASSERT_EQ(s.w->agent_state(s.ids[i], &st), Status::Ok);
      ASSERT_EQ(st.mode, AgentMode::Blocked) << "agent " << i << " at tick " << t;
      EXPECT_FALSE(st.crowded);
      if (t == 0) requests[i] = st.requests;
      EXPECT_EQ(st.requests, requests[i]) << "followers never search";
    }
  }
  std::string why;
  ASSERT_EQ(s.w->agent_reason(s.ids[0], &why), Status::Ok);
  EXPECT_NE(why.find("does not reach its goal"), std::string::npos) << why;
  // A new order: agent 11 goes to a cell outside.
  ASSERT_EQ(s.w->set_agent_goal(s.ids[11], CellPos{10, 1, 10}), Status::Ok);
  // The level changes: the door opens again.
  ASSERT_EQ(s.w->set_block(CellPos{43, 1, 27}, 0), Status::Ok);
  ASSERT_EQ(s.w->set_block(CellPos{43, 2, 27}, 0), Status::Ok);
  const Outcome r = run(s, 800);
  EXPECT_TRUE(r.arrived) << "not everyone arrived within " << r.ticks << " ticks of the door opening";
  AgentState st;
  ASSERT_EQ(s.w->agent_state(s.ids[11], &st), Status::Ok);
  EXPECT_LT(std::hypot(st.feet.x - 10.5, st.feet.z - 10.5), 0.6);
}

}  // namespace
}  // namespace voxnav
