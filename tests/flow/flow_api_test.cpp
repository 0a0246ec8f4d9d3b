// voxnav/crowds.h on a flat floor: the handle lifecycle (Building, Ready(version), Released),
// bad input (each refused with its Status and a message naming the argument, nothing changed),
// the rebuild rate limit under edits every update, and agents following a field across the floor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/crowds.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct Flat {
  World w;
  ProfileId walker;
  Flat() {
    EXPECT_TRUE(test::load_flat_floor(w, 1));
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    w.update();
  }
  std::size_t slots() const { return detail::WorldAccess::state(w).flows.capacity(); }
};

TEST(FlowApi, LifecycleAndCells) {
  Flat f;
  const CellPos goal{5, 1, 5};
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, goal, {}, &id), Status::Ok);
  FlowStatus st;
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  EXPECT_EQ(st.state, FlowState::Building);
  f.w.update();  // dispatched
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  EXPECT_EQ(st.state, FlowState::Building);
  f.w.update();  // installed
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  EXPECT_EQ(st.state, FlowState::Ready);
  EXPECT_EQ(st.version, 1u);
  // The floor is open: 33 x 33 cells of region, clipped by the floor's extent (-16 .. 31).
  EXPECT_EQ(st.region_min.x, -11);
  EXPECT_EQ(st.region_max.x, 21);
  EXPECT_EQ(st.cells, 33u * 33u);
  EXPECT_EQ(st.reached, 33u * 33u);
  FlowCell c;
  ASSERT_EQ(flow_cell(f.w, id, goal, &c), Status::Ok);
  EXPECT_TRUE(c.reached);
  EXPECT_EQ(c.cost, 0u);
  EXPECT_TRUE(c.line_of_sight);
  // On open ground the cost is the octile distance, and the successor one diagonal closer.
  ASSERT_EQ(flow_cell(f.w, id, CellPos{15, 1, 9}, &c), Status::Ok);
  EXPECT_EQ(c.cost, 4u * 14142u + 6u * 10000u);
  EXPECT_TRUE(c.line_of_sight);
  EXPECT_EQ(c.edge, EdgeKind::Walk);
  ASSERT_EQ(flow_cell(f.w, id, CellPos{5, 5, 5}, &c), Status::Ok);
  EXPECT_FALSE(c.in_field) << "air is no node";
  ASSERT_EQ(release_flow(f.w, id), Status::Ok);
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  EXPECT_EQ(st.state, FlowState::Released);
}

TEST(FlowApi, LockstepDelayDeliversTheBuildThatManyUpdatesLater) {
  WorldDef def;
  def.lockstep_delay = 3;
  World w(def);
  ASSERT_TRUE(test::load_flat_floor(w, 1));
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  w.update();
  FlowId id;
  ASSERT_EQ(request_flow(w, walker, CellPos{0, 1, 0}, {}, &id), Status::Ok);
  FlowStatus st;
  for (int k = 1; k <= 3; ++k) {
    w.update();  // the first dispatches the build, the next two wait
    ASSERT_EQ(flow_status(w, id, &st), Status::Ok);
    EXPECT_EQ(st.state, FlowState::Building) << "update " << k;
  }
  w.update();
  ASSERT_EQ(flow_status(w, id, &st), Status::Ok);
  EXPECT_EQ(st.state, FlowState::Ready);
  EXPECT_EQ(st.version, 1u);
}

TEST(FlowApi, GoalInTheAirFailsWithBadGoal) {
  Flat f;
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, CellPos{0, 9, 0}, {}, &id), Status::Ok);
  f.w.update();
  f.w.update();
  FlowStatus st;
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  EXPECT_EQ(st.state, FlowState::Failed);
  EXPECT_EQ(st.failure, PathFailure::BadGoal);
}

TEST(FlowApi, BadInputChangesNothing) {
  Flat f;
  FlowId ok;
  ASSERT_EQ(request_flow(f.w, f.walker, CellPos{0, 1, 0}, {}, &ok), Status::Ok);
  const std::size_t slots = f.slots();
  CallError e;
  FlowId out{};
  EXPECT_EQ(request_flow(f.w, ProfileId{7}, CellPos{0, 1, 0}, {}, &out, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.argument, "profile");
  EXPECT_NE(e.message.find("profile 7"), std::string::npos) << e.message;
  EXPECT_EQ(request_flow(f.w, f.walker, CellPos{0, 5000, 0}, {}, &out, &e), Status::OutOfRange);
  EXPECT_EQ(e.argument, "goal");
  EXPECT_EQ(request_flow(f.w, f.walker, CellPos{4000, 1, 0}, {}, &out, &e), Status::NotLoaded);
  EXPECT_EQ(e.argument, "goal");
  EXPECT_NE(e.message.find("not loaded"), std::string::npos) << e.message;
  std::vector<CellPos> many(kMaxFlowCoverPoints + 1, CellPos{0, 1, 0});
  EXPECT_EQ(request_flow(f.w, f.walker, CellPos{0, 1, 0}, many, &out, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "cover");
  EXPECT_NE(e.message.find("kMaxFlowCoverPoints"), std::string::npos) << e.message;
  std::vector<CellPos> far{CellPos{0, 1, 0}, CellPos{0, -9000, 0}};
  EXPECT_EQ(request_flow(f.w, f.walker, CellPos{0, 1, 0}, far, &out, &e), Status::OutOfRange);
  EXPECT_NE(e.message.find("cover[1]"), std::string::npos) << e.message;
  EXPECT_EQ(request_flow(f.w, f.walker, CellPos{0, 1, 0}, {}, nullptr, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.argument, "out");
  EXPECT_EQ(f.slots(), slots) << "no slot taken by a refused request";
  EXPECT_EQ(out.generation, 0u) << "out untouched";

  // Released and foreign handles.
  FlowId gone;
  ASSERT_EQ(request_flow(f.w, f.walker, CellPos{1, 1, 1}, {}, &gone), Status::Ok);
  ASSERT_EQ(release_flow(f.w, gone), Status::Ok);
  EXPECT_EQ(release_flow(f.w, gone, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "flow");
  EXPECT_NE(e.message.find("released"), std::string::npos) << e.message;
  FlowCell cell;
  EXPECT_EQ(flow_cell(f.w, gone, CellPos{0, 1, 0}, &cell, &e), Status::StaleHandle);
  AgentId agent;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{3.5, 1, 3.5}}, &agent), Status::Ok);
  EXPECT_EQ(set_agent_flow(f.w, agent, gone, &e), Status::StaleHandle);
  AgentState as;
  ASSERT_EQ(f.w.agent_state(agent, &as), Status::Ok);
  EXPECT_EQ(as.mode, AgentMode::Idle) << "the agent is unchanged";

  Flat other;
  FlowId theirs;
  ASSERT_EQ(request_flow(other.w, other.walker, CellPos{0, 1, 0}, {}, &theirs), Status::Ok);
  ASSERT_EQ(theirs.index, ok.index);
  ASSERT_EQ(theirs.generation, ok.generation);
  FlowStatus st;
  EXPECT_EQ(flow_status(f.w, theirs, &st, &e), Status::StaleHandle);
  EXPECT_NE(e.message.find("another world"), std::string::npos) << e.message;
  EXPECT_EQ(release_flow(f.w, theirs, &e), Status::StaleHandle);
  EXPECT_EQ(flow_status(f.w, FlowId{}, &st, &e), Status::StaleHandle);
  EXPECT_EQ(flow_status(f.w, ok, nullptr, &e), Status::InvalidArgument);
  ASSERT_EQ(flow_status(f.w, ok, &st), Status::Ok) << "ours still serves";
  EXPECT_EQ(set_agent_flow(f.w, AgentId{99, 1}, ok, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "agent");
}

TEST(FlowApi, RebuildsAtMostOnceEveryFiveUpdates) {
  Flat f;
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, CellPos{5, 1, 5}, {}, &id), Status::Ok);
  f.w.update();
  f.w.update();
  const detail::FlowSlot* s = detail::WorldAccess::state(f.w).flows.get(id.index, id.generation);
  ASSERT_NE(s, nullptr);
  const std::uint64_t builds = s->builds;
  // A block toggled in the region at every update, for 40 updates.
  for (int k = 0; k < 40; ++k) {
    ASSERT_EQ(f.w.set_block(CellPos{8, 1, 8}, k % 2 ? 0 : 1), Status::Ok);
    f.w.update();
    FlowStatus st;
    ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
    EXPECT_EQ(st.state, FlowState::Ready) << "the old field serves while the new one builds";
  }
  const std::uint64_t more = s->builds - builds;
  EXPECT_GE(more, 7u);
  EXPECT_LE(more, 8u) << "40 updates, at most one start every kFlowRebuildUpdates = 5";
}

TEST(FlowApi, FollowersCrossTheFloorAndStopWhenReleased) {
  Flat f;
  // The goal on a block: no other cell is on its level, so no line of sight shortens the traces.
  ASSERT_EQ(f.w.set_block(CellPos{20, 1, 20}, 1), Status::Ok);
  const CellPos goal{20, 2, 20};
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, goal, {}, &id), Status::Ok);
  std::vector<AgentId> ids;
  for (int k = 0; k < 4; ++k) {
    AgentId a;
    ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{-10.5 + 4 * k, 1, -12.5}}, &a), Status::Ok);
    ASSERT_EQ(set_agent_flow(f.w, a, id), Status::Ok);
    ids.push_back(a);
  }
  int arrived = 0;
  std::vector<int> arrival(ids.size(), -1);
  std::vector<std::uint32_t> epochs(ids.size(), 0), epoch_changes(ids.size(), 0);
  std::vector<Vec3> last(ids.size());
  std::size_t slow_ticks = 0;
  const double speed = Profile{}.walk_speed;
  for (int t = 0; t < 600 && arrived < 4; ++t) {
    ASSERT_EQ(f.w.tick(0.05), Status::Ok);
    arrived = 0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      AgentState s;
      ASSERT_EQ(f.w.agent_state(ids[k], &s), Status::Ok);
      arrived += s.mode == AgentMode::Arrived;
      if (s.mode == AgentMode::Arrived && arrival[k] < 0) arrival[k] = t + 1;
      if (s.corridor_epoch != epochs[k]) ++epoch_changes[k];
      epochs[k] = s.corridor_epoch;
      // Under way (past the start, more than 3 cells from the goal): at walking speed every tick.
      const double step = std::hypot(s.feet.x - last[k].x, s.feet.z - last[k].z);
      if (t > 20 && s.mode != AgentMode::Arrived &&
          std::hypot(s.feet.x - 20.5, s.feet.z - 20.5) > 3 && step < 0.9 * speed * 0.05)
        ++slow_ticks;
      last[k] = s.feet;
    }
  }
  EXPECT_EQ(arrived, 4);
  // Straight across open ground at walking speed: re-traces (every 12 cells walked) never stop
  // the body. The straight line's time, plus the first build's two updates and slowing down.
  EXPECT_EQ(slow_ticks, 0u);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const double d = std::hypot(20.5 - (-10.5 + 4.0 * static_cast<double>(k)), 20.5 - (-12.5));
    EXPECT_LE(arrival[k], static_cast<int>(d / speed / 0.05) + 12)
        << "agent " << k << ", " << d << " cells";
    EXPECT_LE(epoch_changes[k], 6u) << "the corridor changes only when the waypoints ahead do";
  }
  // The first to arrive stands on the goal; the others cannot stand in its body (separation):
  // they arrive touching it or one another (arrival contagion), a few body widths around it.
  const int first =
      static_cast<int>(std::min_element(arrival.begin(), arrival.end()) - arrival.begin());
  for (std::size_t k = 0; k < ids.size(); ++k) {
    AgentState s;
    ASSERT_EQ(f.w.agent_state(ids[k], &s), Status::Ok);
    EXPECT_LT(std::hypot(s.feet.x - 20.5, s.feet.z - 20.5),
              static_cast<int>(k) == first ? 0.6 : 0.6 + 3 * (0.6 + 0.1))
        << "agent " << k;
  }
  ASSERT_EQ(release_flow(f.w, id), Status::Ok);
  AgentState s;
  ASSERT_EQ(f.w.agent_state(ids[0], &s), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Idle);
}

TEST(FlowApi, AFollowerCutOffIsBlockedUntilTheWallOpens) {
  Flat f;
  const CellPos goal{5, 1, 5};
  auto ring = [&](std::uint16_t v) {
    for (int dx = -3; dx <= 3; ++dx)
      for (int dz = -3; dz <= 3; ++dz)
        if (std::max(std::abs(dx), std::abs(dz)) == 3) {
          for (int y = 1; y <= 2; ++y) {
            ASSERT_EQ(f.w.set_block(CellPos{goal.x + dx, y, goal.z + dz}, v), Status::Ok);
          }
        }
  };
  ring(1);
  f.w.update();
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, goal, {}, &id), Status::Ok);
  AgentId a;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{-5.5, 1, -5.5}}, &a), Status::Ok);
  ASSERT_EQ(set_agent_flow(f.w, a, id), Status::Ok);
  for (int t = 0; t < 20; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  AgentState s;
  ASSERT_EQ(f.w.agent_state(a, &s), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Blocked);
  std::string why;
  ASSERT_EQ(f.w.agent_reason(a, &why), Status::Ok);
  EXPECT_NE(why.find("does not reach"), std::string::npos) << why;
  FlowCell c;
  ASSERT_EQ(flow_cell(f.w, id, CellPos{-6, 1, -6}, &c), Status::Ok);
  EXPECT_TRUE(c.in_field);
  EXPECT_FALSE(c.reached);
  // A door-wide gap in the ring: the field is rebuilt and the agent walks in.
  for (int y = 1; y <= 2; ++y)
    ASSERT_EQ(f.w.set_block(CellPos{goal.x - 3, y, goal.z}, 0), Status::Ok);
  for (int t = 0; t < 400 && s.mode != AgentMode::Arrived; ++t) {
    ASSERT_EQ(f.w.tick(0.05), Status::Ok);
    ASSERT_EQ(f.w.agent_state(a, &s), Status::Ok);
  }
  EXPECT_EQ(s.mode, AgentMode::Arrived);
  ASSERT_EQ(flow_cell(f.w, id, CellPos{-6, 1, -6}, &c), Status::Ok);
  EXPECT_TRUE(c.reached);
}

TEST(FlowApi, OutsideTheFieldStraightForTheGoalWhenTheLineIsClear) {
  Flat f;
  const CellPos goal{-8, 1, 5};
  // A wall at z = 20 with a gap: an agent behind it has no straight line to the goal.
  for (int x = -16; x <= 31; ++x) {
    if (x >= 26) continue;
    for (int y = 1; y <= 2; ++y) {
      ASSERT_EQ(f.w.set_block(CellPos{x, y, 20}, 1), Status::Ok);
    }
  }
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, goal, {}, &id), Status::Ok);
  f.w.update();
  f.w.update();
  FlowStatus st;
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  ASSERT_EQ(st.state, FlowState::Ready);
  ASSERT_EQ(st.region_max.x, 8);
  // Both outside the field's region (x > 8): one with a clear line, one behind the wall.
  AgentId clear, behind;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{28.5, 1, 5.5}}, &clear), Status::Ok);
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{12.5, 1, 26.5}}, &behind), Status::Ok);
  ASSERT_EQ(set_agent_flow(f.w, clear, id), Status::Ok);
  ASSERT_EQ(set_agent_flow(f.w, behind, id), Status::Ok);
  AgentState a, b;
  ASSERT_EQ(f.w.agent_state(clear, &a), Status::Ok);
  ASSERT_EQ(f.w.agent_state(behind, &b), Status::Ok);
  EXPECT_EQ(a.mode, AgentMode::Moving) << "straight for the goal at once";
  EXPECT_EQ(b.mode, AgentMode::Planning) << "holds until the field covers it";
  std::size_t corridor = 0;
  std::vector<Waypoint> points(64);
  ASSERT_EQ(f.w.agent_corridor(clear, points.data(), points.size(), &corridor), Status::Ok);
  ASSERT_GE(corridor, 2u);
  for (std::size_t k = 0; k < corridor; ++k)
    EXPECT_EQ(points[k].cell.z, 5) << "on the straight line to the goal";
  EXPECT_TRUE(points[corridor - 1].cell == goal);
  for (int t = 0; t < 600 && (a.mode != AgentMode::Arrived || b.mode != AgentMode::Arrived); ++t) {
    ASSERT_EQ(f.w.tick(0.05), Status::Ok);
    ASSERT_EQ(f.w.agent_state(clear, &a), Status::Ok);
    ASSERT_EQ(f.w.agent_state(behind, &b), Status::Ok);
  }
  EXPECT_EQ(a.mode, AgentMode::Arrived);
  EXPECT_EQ(b.mode, AgentMode::Arrived) << "the rebuilt field covers it and leads it round";
}


TEST(FlowApi, FollowersOfAFailedFieldAreBlockedWithItsReasonAndWalkOnWhenItIsReady) {
  Flat f;
  const CellPos goal{5, 1, 5};
  ASSERT_EQ(f.w.set_block(goal, 1), Status::Ok);  // the goal cell solid: bad_goal
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, goal, {}, &id), Status::Ok);
  f.w.update();
  f.w.update();
  FlowStatus st;
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  ASSERT_EQ(st.state, FlowState::Failed);
  ASSERT_EQ(st.failure, PathFailure::BadGoal);
  // One follower set before the build landed would have waited; both are set on the Failed field.
  AgentId a, b;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{-5.5, 1, -5.5}}, &a), Status::Ok);
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{15.5, 1, -3.5}}, &b), Status::Ok);
  ASSERT_EQ(set_agent_flow(f.w, a, id), Status::Ok) << "the handle is live: Ok, as documented";
  for (int t = 0; t < 5; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  ASSERT_EQ(set_agent_flow(f.w, b, id), Status::Ok);
  for (int t = 0; t < 300; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  for (AgentId x : {a, b}) {
    AgentState s;
    ASSERT_EQ(f.w.agent_state(x, &s), Status::Ok);
    EXPECT_EQ(s.mode, AgentMode::Blocked);
    EXPECT_EQ(s.failure, PathFailure::BadGoal);
    std::string why;
    ASSERT_EQ(f.w.agent_reason(x, &why), Status::Ok);
    EXPECT_EQ(why, "flow field failed: bad_goal");
  }
  // The goal cleared: the field is rebuilt (Ready) and its followers walk to the goal.
  ASSERT_EQ(f.w.set_block(goal, 0), Status::Ok);
  AgentState sa, sb;
  int ready_at = -1, moving_at = -1;
  for (int t = 0; t < 400 && (sa.mode != AgentMode::Arrived || sb.mode != AgentMode::Arrived);
       ++t) {
    ASSERT_EQ(f.w.tick(0.05), Status::Ok);
    ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
    if (st.state == FlowState::Ready && ready_at < 0) ready_at = t;
    ASSERT_EQ(f.w.agent_state(a, &sa), Status::Ok);
    ASSERT_EQ(f.w.agent_state(b, &sb), Status::Ok);
    if (sa.mode == AgentMode::Moving && moving_at < 0) moving_at = t;
  }
  ASSERT_GE(ready_at, 0);
  EXPECT_EQ(moving_at, ready_at) << "followers move on at the rebuild, not at their next retry";
  EXPECT_EQ(sa.mode, AgentMode::Arrived);
  EXPECT_EQ(sb.mode, AgentMode::Arrived);
  EXPECT_EQ(sa.failure, PathFailure::None);
  for (AgentId x : {a, b}) {
    AgentState s;
    ASSERT_EQ(f.w.agent_state(x, &s), Status::Ok);
    EXPECT_LT(std::hypot(s.feet.x - 5.5, s.feet.z - 5.5), 0.6);
  }
}

TEST(FlowApi, AFollowerPastTheRegionLimitBehindAWallIsBlockedAndSaysSo) {
  // A 15 x 15 chunk floor (-112 .. 127): room beyond kFlowRegionHalfWidth of the goal.
  World w;
  std::vector<std::uint16_t> floor(4096, 0), air(4096, 0);
  for (int i = 0; i < 256; ++i) floor[static_cast<std::size_t>(i)] = 1;
  for (int cz = -7; cz <= 7; ++cz)
    for (int cx = -7; cx <= 7; ++cx) {
      ASSERT_EQ(w.load_chunk({cx, 0, cz}, floor), Status::Ok);
      ASSERT_EQ(w.load_chunk({cx, 1, cz}, air), Status::Ok);
    }
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  w.update();
  const CellPos goal{0, 1, 0};
  // A wall across x = 95 (z -10 .. 10, three high) between the goal and the agents.
  ASSERT_EQ(w.set_box(CellPos{95, 1, -10}, CellPos{95, 3, 10}, 1), Status::Ok);
  FlowId id;
  ASSERT_EQ(request_flow(w, walker, goal, {}, &id), Status::Ok);
  AgentId far, near;  // 105 cells from the goal (past the limit), and 60 (within it)
  ASSERT_EQ(w.add_agent(AgentDef{walker, Vec3{105.5, 1, 0.5}}, &far), Status::Ok);
  ASSERT_EQ(w.add_agent(AgentDef{walker, Vec3{60.5, 1, 40.5}}, &near), Status::Ok);
  ASSERT_EQ(set_agent_flow(w, far, id), Status::Ok);
  ASSERT_EQ(set_agent_flow(w, near, id), Status::Ok);
  AgentState n;
  for (int t = 0; t < 200 || (t < 800 && n.mode != AgentMode::Arrived); ++t) {
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    ASSERT_EQ(w.agent_state(near, &n), Status::Ok);
  }
  AgentState s;
  ASSERT_EQ(w.agent_state(far, &s), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Blocked);
  EXPECT_LT(std::abs(s.feet.x - 105.5), 0.01) << "it holds";
  std::string why;
  ASSERT_EQ(w.agent_reason(far, &why), Status::Ok);
  EXPECT_EQ(why.rfind("beyond the flow field's limit", 0), 0u) << why;
  EXPECT_EQ(why.find("grows"), std::string::npos) << why;
  FlowStatus st;
  ASSERT_EQ(flow_status(w, id, &st), Status::Ok);
  EXPECT_LE(st.region_max.x, goal.x + kFlowRegionHalfWidth);
  // The other (within the limit, its line to the goal clear) is led in.
  EXPECT_EQ(n.mode, AgentMode::Arrived);
  // The wall opened in front of it: the line is clear, it heads straight in and arrives.
  ASSERT_EQ(w.set_box(CellPos{95, 1, -2}, CellPos{95, 3, 2}, 0), Status::Ok);
  for (int t = 0; t < 800 && s.mode != AgentMode::Arrived; ++t) {
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    ASSERT_EQ(w.agent_state(far, &s), Status::Ok);
  }
  EXPECT_EQ(s.mode, AgentMode::Arrived);
}


TEST(FlowApi, FollowersOfAFieldWhoseGoalChunkIsUnloadedAreBlockedWithNotLoaded) {
  Flat f;
  const CellPos goal{20, 1, 20};  // chunk (1, 0, 1)
  FlowId id;
  ASSERT_EQ(request_flow(f.w, f.walker, goal, {}, &id), Status::Ok);
  AgentId a;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{-10.5, 1, -10.5}}, &a), Status::Ok);
  ASSERT_EQ(set_agent_flow(f.w, a, id), Status::Ok);
  ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  AgentState s;
  ASSERT_EQ(f.w.agent_state(a, &s), Status::Ok);
  ASSERT_EQ(s.mode, AgentMode::Moving);
  std::vector<std::uint16_t> floor(4096, 0), air(4096, 0);
  for (int i = 0; i < 256; ++i) floor[static_cast<std::size_t>(i)] = 1;
  ASSERT_EQ(f.w.unload_chunk(ChunkPos{1, 0, 1}), Status::Ok);
  ASSERT_EQ(f.w.unload_chunk(ChunkPos{1, 1, 1}), Status::Ok);
  FlowStatus st;
  for (int t = 0; t < 20; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  ASSERT_EQ(flow_status(f.w, id, &st), Status::Ok);
  ASSERT_EQ(st.state, FlowState::Failed);
  ASSERT_EQ(st.failure, PathFailure::NotLoaded);
  for (int t = 0; t < 20; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  ASSERT_EQ(f.w.agent_state(a, &s), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Blocked);
  EXPECT_EQ(s.failure, PathFailure::NotLoaded);
  std::string why;
  ASSERT_EQ(f.w.agent_reason(a, &why), Status::Ok);
  EXPECT_EQ(why, "flow field failed: not_loaded");
  // Loaded again: the field is Ready and the follower walks on to the goal.
  ASSERT_EQ(f.w.load_chunk(ChunkPos{1, 0, 1}, floor), Status::Ok);
  ASSERT_EQ(f.w.load_chunk(ChunkPos{1, 1, 1}, air), Status::Ok);
  for (int t = 0; t < 600 && s.mode != AgentMode::Arrived; ++t) {
    ASSERT_EQ(f.w.tick(0.05), Status::Ok);
    ASSERT_EQ(f.w.agent_state(a, &s), Status::Ok);
  }
  EXPECT_EQ(s.mode, AgentMode::Arrived);
  EXPECT_LT(std::hypot(s.feet.x - 20.5, s.feet.z - 20.5), 0.6);
}

// Two fields equal: the same region, counts and, for every cell of the region, the same cell.
void expect_same_field(const World& wa, FlowId a, const World& wb, FlowId b) {
  FlowStatus sa, sb;
  ASSERT_EQ(flow_status(wa, a, &sa), Status::Ok);
  ASSERT_EQ(flow_status(wb, b, &sb), Status::Ok);
  ASSERT_EQ(sa.state, sb.state);
  ASSERT_TRUE(sa.region_min == sb.region_min && sa.region_max == sb.region_max);
  EXPECT_EQ(sa.cells, sb.cells);
  EXPECT_EQ(sa.reached, sb.reached);
  std::size_t in = 0;
  for (int y = sa.region_min.y; y <= sa.region_max.y; ++y)
    for (int z = sa.region_min.z; z <= sa.region_max.z; ++z)
      for (int x = sa.region_min.x; x <= sa.region_max.x; ++x) {
        FlowCell ca, cb;
        ASSERT_EQ(flow_cell(wa, a, CellPos{x, y, z}, &ca), Status::Ok);
        ASSERT_EQ(flow_cell(wb, b, CellPos{x, y, z}, &cb), Status::Ok);
        in += ca.in_field;
        ASSERT_EQ(ca.in_field, cb.in_field);
        ASSERT_EQ(ca.reached, cb.reached);
        ASSERT_EQ(ca.cost, cb.cost) << x << "," << y << "," << z;
        ASSERT_TRUE(ca.successor == cb.successor);
        ASSERT_EQ(ca.edge, cb.edge);
        ASSERT_EQ(ca.line_of_sight, cb.line_of_sight);
      }
  EXPECT_EQ(in, sa.cells);
}

TEST(FlowApi, ABurstOfFieldsBuildsWithinTheBudgetOldestFirstAndEqualsTheUnbudgetedFields) {
  Flat budgeted, free;
  EXPECT_EQ(flow_builds_per_update(budgeted.w), kDefaultFlowBuildsPerUpdate);
  CallError e;
  EXPECT_EQ(set_flow_builds_per_update(budgeted.w, -1, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "builds");
  EXPECT_EQ(set_flow_builds_per_update(budgeted.w, kMaxFlowBuildsPerUpdate + 1, &e),
            Status::InvalidArgument);
  EXPECT_EQ(flow_builds_per_update(budgeted.w), kDefaultFlowBuildsPerUpdate) << "unchanged";
  constexpr int kBudget = 3;
  constexpr int kN = 11;
  ASSERT_EQ(set_flow_builds_per_update(budgeted.w, kBudget), Status::Ok);
  ASSERT_EQ(set_flow_builds_per_update(free.w, 0), Status::Ok);
  // Eleven goals within 8 cells of (0, 1, 0): one block there lands in every region.
  std::vector<FlowId> a(kN), b(kN);
  for (int k = 0; k < kN; ++k) {
    const CellPos goal{-8 + (k * 5) % 17, 1, -8 + (k * 7) % 17};
    ASSERT_FALSE(goal.x == 0 && goal.z == 0);
    ASSERT_EQ(request_flow(budgeted.w, budgeted.walker, goal, {}, &a[k]), Status::Ok);
    ASSERT_EQ(request_flow(free.w, free.walker, goal, {}, &b[k]), Status::Ok);
  }
  const int bound = (kN + kBudget - 1) / kBudget + 1;  // ceil(N / budget) + 1 = 5
  auto states = [](const World& w, const std::vector<FlowId>& ids, FlowState want,
                   std::uint32_t version) {
    std::vector<bool> out;
    for (FlowId id : ids) {
      FlowStatus st;
      EXPECT_EQ(flow_status(w, id, &st), Status::Ok);
      out.push_back(st.state == want && st.version == version);
    }
    return out;
  };
  for (int u = 1; u <= bound; ++u) {
    budgeted.w.update();
    // After update u, the first kBudget * (u - 1) requested are Ready (oldest first), no others.
    const std::vector<bool> ready = states(budgeted.w, a, FlowState::Ready, 1);
    const int expect = std::min(kN, kBudget * (u - 1));
    for (int k = 0; k < kN; ++k) EXPECT_EQ(ready[k], k < expect) << "update " << u << " field " << k;
    EXPECT_EQ(queued_flow_builds(budgeted.w), static_cast<std::size_t>(kN - std::min(kN, kBudget * u)))
        << "update " << u;
  }
  free.w.update();
  free.w.update();
  for (int k = 0; k < kN; ++k) expect_same_field(budgeted.w, a[k], free.w, b[k]);
  // Past the rebuild rate limit, one block in every region: the rebuilds queue the same way,
  // every field serving its first build meanwhile.
  for (int u = 0; u < 6; ++u) {
    budgeted.w.update();
    free.w.update();
  }
  ASSERT_EQ(budgeted.w.set_block(CellPos{0, 1, 0}, 1), Status::Ok);
  ASSERT_EQ(free.w.set_block(CellPos{0, 1, 0}, 1), Status::Ok);
  for (int u = 1; u <= bound; ++u) {
    budgeted.w.update();
    const std::vector<bool> old = states(budgeted.w, a, FlowState::Ready, 1);
    const std::vector<bool> rebuilt = states(budgeted.w, a, FlowState::Ready, 2);
    const int expect = std::min(kN, kBudget * (u - 1));
    for (int k = 0; k < kN; ++k) {
      EXPECT_EQ(rebuilt[k], k < expect) << "update " << u << " field " << k;
      EXPECT_EQ(old[k], k >= expect) << "the old field serves until its rebuild lands";
    }
  }
  free.w.update();
  free.w.update();
  for (int k = 0; k < kN; ++k) {
    FlowCell c;
    ASSERT_EQ(flow_cell(budgeted.w, a[k], CellPos{0, 1, 0}, &c), Status::Ok);
    EXPECT_FALSE(c.in_field) << "the block is in every rebuilt field";
    expect_same_field(budgeted.w, a[k], free.w, b[k]);
  }
}

}  // namespace
}  // namespace voxnav
