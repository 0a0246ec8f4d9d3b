// stop_agent and knockback on a flat floor (docs/agents.md#stop-and-knockback): a stopped agent
// idles with its request released and its corridor dropped and stays put; a knock lifts the body
// by the movement step's own arithmetic scaled by the profile's resistance, the lock holds the
// follower (no Blocked, no stuck replans) while the body flies and for kKnockLockTicks after it
// lands, then the agent resumes its corridor (knocked along it) or replans (knocked off it) and
// arrives; impulses given before a step add up; bad input changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "control_scene.h"
#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using test::kSolid;

using test::Flat;
using test::flat;
using test::loco;
using test::state;

AgentId walker(Flat& f, Vec3 feet, CellPos goal) {
  AgentId a;
  EXPECT_EQ(f.world->add_agent(AgentDef{f.pid, feet}, &a), Status::Ok);
  EXPECT_EQ(f.world->set_agent_goal(a, goal), Status::Ok);
  return a;
}

TEST(Stop, TheAgentIdlesReleasesItsRouteAndStaysPut) {
  Flat f = flat();
  const AgentId a = walker(f, Vec3{-12.5, 1, 2.5}, CellPos{28, 1, 2});
  for (int t = 0; t < 20; ++t) ASSERT_EQ(f.world->tick(0.05), Status::Ok);
  const AgentState before = state(*f.world, a);
  ASSERT_EQ(before.mode, AgentMode::Moving);
  ASSERT_GT(std::hypot(before.velocity.x, before.velocity.z), 1.0);
  ASSERT_EQ(stop_agent(*f.world, a), Status::Ok);
  const AgentState s = state(*f.world, a);
  EXPECT_EQ(s.mode, AgentMode::Idle);
  EXPECT_NE(s.corridor_epoch, before.corridor_epoch);
  std::size_t n = 9;
  ASSERT_EQ(f.world->agent_corridor(a, nullptr, 0, &n), Status::Ok);
  EXPECT_EQ(n, 0u);
  ASSERT_EQ(f.world->tick(0.05), Status::Ok);
  const Vec3 at = state(*f.world, a).feet;
  EXPECT_EQ(state(*f.world, a).velocity.x, 0.0);  // no acceleration in the step: it stands
  for (int t = 0; t < 60; ++t) ASSERT_EQ(f.world->tick(0.05), Status::Ok);
  EXPECT_EQ(state(*f.world, a).feet, at);
  EXPECT_EQ(state(*f.world, a).mode, AgentMode::Idle);
  EXPECT_EQ(state(*f.world, a).requests, before.requests);
  // A new goal sends it on.
  ASSERT_EQ(f.world->set_agent_goal(a, CellPos{28, 1, 2}), Status::Ok);
  for (int t = 0; t < 300 && state(*f.world, a).mode != AgentMode::Arrived; ++t)
    ASSERT_EQ(f.world->tick(0.05), Status::Ok);
  EXPECT_EQ(state(*f.world, a).mode, AgentMode::Arrived);
}

TEST(Stop, WhilePlanningReleasesTheSearch) {
  Flat f = flat();
  const AgentId a = walker(f, Vec3{-12.5, 1, 2.5}, CellPos{28, 1, 2});
  ASSERT_EQ(state(*f.world, a).mode, AgentMode::Planning);
  ASSERT_EQ(stop_agent(*f.world, a), Status::Ok);
  for (int t = 0; t < 20; ++t) ASSERT_EQ(f.world->tick(0.05), Status::Ok);
  EXPECT_EQ(state(*f.world, a).mode, AgentMode::Idle);
  EXPECT_EQ(state(*f.world, a).feet, (Vec3{-12.5, 1, 2.5}));
}

// The first step after a vertical knock of v: velocity.y = v (1 - resistance) - g dt, exactly
// the movement step's arithmetic; resistance 1 never moves the body.
TEST(Knock, TheStepTakesTheImpulseScaledByTheResistance) {
  for (const double resistance : {0.0, 0.5, 1.0}) {
    Profile p;
    p.knockback.resistance = resistance;
    Flat f = flat(p);
    AgentId a;
    ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{0.5, 1, 0.5}}, &a), Status::Ok);
    ASSERT_EQ(f.world->tick(0.05), Status::Ok);
    ASSERT_TRUE(state(*f.world, a).on_ground);
    ASSERT_EQ(knock_agent(*f.world, a, Vec3{0, 8, 0}), Status::Ok);
    EXPECT_EQ(loco(*f.world, a).knocked, resistance < 1.0);
    ASSERT_EQ(f.world->tick(0.05), Status::Ok);
    const AgentState s = state(*f.world, a);
    const double v = 8.0 * (1.0 - resistance);
    if (resistance < 1.0) {
      EXPECT_EQ(s.velocity.y, v - 32.0 * 0.05) << resistance;
      EXPECT_EQ(s.feet.y, 1.0 + (v + (v - 32.0 * 0.05)) * 0.5 * 0.05) << resistance;
      EXPECT_FALSE(s.on_ground);
      EXPECT_EQ(loco(*f.world, a).knocks, 1u);
    } else {
      EXPECT_EQ(s.feet, (Vec3{0.5, 1, 0.5}));
      EXPECT_EQ(loco(*f.world, a).knocks, 0u);
    }
  }
}

// Two impulses before a step act as their sum: the same bits as one impulse of the sum, through
// knock_agent twice or knock_agents with the agent given twice.
TEST(Knock, ImpulsesBeforeAStepAddUp) {
  Flat f = flat();
  AgentId a, b, c;
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{0.5, 1, 0.5}}, &a), Status::Ok);
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{0.5, 1, 10.5}}, &b), Status::Ok);
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{0.5, 1, -10.5}}, &c), Status::Ok);
  ASSERT_EQ(f.world->tick(0.05), Status::Ok);
  ASSERT_EQ(knock_agent(*f.world, a, Vec3{2, 4, 1}), Status::Ok);
  ASSERT_EQ(knock_agent(*f.world, a, Vec3{2, 4, 1}), Status::Ok);
  ASSERT_EQ(knock_agent(*f.world, b, Vec3{4, 8, 2}), Status::Ok);
  const AgentKnock twice[] = {{c, Vec3{2, 4, 1}}, {c, Vec3{2, 4, 1}}};
  ASSERT_EQ(knock_agents(*f.world, twice), Status::Ok);
  for (int t = 0; t < 40; ++t) {
    ASSERT_EQ(f.world->tick(0.05), Status::Ok);
    const AgentState sa = state(*f.world, a), sb = state(*f.world, b), sc = state(*f.world, c);
    ASSERT_EQ(sa.feet.x, sb.feet.x);
    ASSERT_EQ(sa.feet.y, sb.feet.y);
    ASSERT_NEAR(sa.feet.z - 0.5, sb.feet.z - 10.5, 1e-12);
    ASSERT_EQ(sa.feet.x, sc.feet.x);
    ASSERT_EQ(sa.feet.y, sc.feet.y);
  }
  EXPECT_GT(state(*f.world, a).feet.x, 1.5);  // it flew
}

struct LockWatch {
  int locked_ticks = 0, airborne_ticks = 0, blocked_ticks = 0;
  double top = -1e9;
  int arrived_at = -1;
};

// Knocks a walker `after` ticks into its walk and runs to arrival, watching the lock.
LockWatch knock_and_run(Flat& f, AgentId a, int after, Vec3 impulse, int limit) {
  LockWatch w;
  for (int t = 0; t < after; ++t) EXPECT_EQ(f.world->tick(0.05), Status::Ok);
  const std::uint32_t replans = state(*f.world, a).replans;
  EXPECT_EQ(knock_agent(*f.world, a, impulse), Status::Ok);
  for (int t = 0; t < limit; ++t) {
    EXPECT_EQ(f.world->tick(0.05), Status::Ok);
    const AgentState s = state(*f.world, a);
    const AgentLocomotion l = loco(*f.world, a);
    if (l.knocked) {
      ++w.locked_ticks;
      if (!s.on_ground) ++w.airborne_ticks;
      if (s.mode == AgentMode::Blocked) ++w.blocked_ticks;
      // The stuck watch is suspended: no replan while locked.
      EXPECT_EQ(s.replans, replans) << t;
    }
    w.top = std::max(w.top, s.feet.y);
    if (s.mode == AgentMode::Arrived) {
      w.arrived_at = t;
      break;
    }
  }
  return w;
}

TEST(Knock, KnockedAlongTheRouteItFliesLandsResumesAndArrives) {
  Flat f = flat();
  const AgentId a = walker(f, Vec3{-12.5, 1, 2.5}, CellPos{28, 1, 2});
  // Back along its route and up: it lands on the corridor's own cells.
  const LockWatch w = knock_and_run(f, a, 20, Vec3{-6, 8, 0}, 600);
  EXPECT_GT(w.top, 1.9);  // 8 m/s up: an apex near 1 m
  EXPECT_GT(w.airborne_ticks, 8);
  // The lock ends at its kKnockLockTicks-th step down (the landing step is the first), so after
  // that step the agent no longer reads as knocked.
  EXPECT_EQ(w.locked_ticks, w.airborne_ticks + kKnockLockTicks - 1);
  EXPECT_EQ(w.blocked_ticks, 0);
  EXPECT_GE(w.arrived_at, 0);
  const AgentLocomotion l = loco(*f.world, a);
  EXPECT_EQ(l.knocks, 1u);
  EXPECT_EQ(l.lock_resumes, 1u);
  EXPECT_EQ(l.lock_replans, 0u);
}

TEST(Knock, KnockedOffTheRouteItReplansAndArrives) {
  Flat f = flat();
  // The agent walks the row z = 8 beside a wall (z = 5, three high) and is knocked toward it.
  for (int x = -14; x <= 26; ++x)
    for (int y = 1; y <= 3; ++y) ASSERT_EQ(f.world->set_block(CellPos{x, y, 5}, kSolid), Status::Ok);
  f.world->update();
  const AgentId a = walker(f, Vec3{-12.5, 1, 8.5}, CellPos{28, 1, 8});
  const LockWatch w = knock_and_run(f, a, 15, Vec3{0, 10, -14}, 800);
  const AgentLocomotion l = loco(*f.world, a);
  const AgentState s = state(*f.world, a);
  EXPECT_EQ(l.knocks, 1u);
  EXPECT_EQ(s.mode, AgentMode::Arrived);
  EXPECT_EQ(w.blocked_ticks, 0);
  // Thrown against the wall (its top is 4, the body's feet rise to 2.56), it lands beside the
  // wall off its row of path cells and plans again from there.
  EXPECT_EQ(l.lock_resumes, 0u);
  EXPECT_EQ(l.lock_replans, 1u);
  EXPECT_GT(w.top, 2.0);
}

TEST(Knock, BadInputChangesNothing) {
  Flat f = flat();
  const AgentId a = walker(f, Vec3{0.5, 1, 0.5}, CellPos{10, 1, 0});
  const AgentId b = walker(f, Vec3{0.5, 1, 5.5}, CellPos{10, 1, 5});
  CallError e;
  EXPECT_EQ(knock_agent(*f.world, a, Vec3{NAN, 1, 0}, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "impulse");
  EXPECT_EQ(knock_agent(*f.world, a, Vec3{0, INFINITY, 0}, &e), Status::InvalidArgument);
  EXPECT_EQ(knock_agent(*f.world, a, Vec3{0, 0, -2000}, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "impulse");
  EXPECT_FALSE(loco(*f.world, a).knocked);
  // A batch with a bad second entry applies none of it.
  const AgentKnock bad[] = {{a, Vec3{0, 5, 0}}, {b, Vec3{0, NAN, 0}}};
  EXPECT_EQ(knock_agents(*f.world, bad, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "knocks[1].impulse");
  EXPECT_FALSE(loco(*f.world, a).knocked);
  AgentId gone;
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{5.5, 1, 5.5}}, &gone), Status::Ok);
  ASSERT_EQ(f.world->remove_agent(gone), Status::Ok);
  const AgentKnock stale[] = {{a, Vec3{0, 5, 0}}, {gone, Vec3{0, 5, 0}}};
  EXPECT_EQ(knock_agents(*f.world, stale, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "knocks[1].agent");
  EXPECT_FALSE(loco(*f.world, a).knocked);
  EXPECT_EQ(knock_agent(*f.world, gone, Vec3{0, 5, 0}, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "agent");
  EXPECT_EQ(stop_agent(*f.world, gone, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "agent");
  // Nothing pending: both walk as an unknocked pair would.
  for (int t = 0; t < 100; ++t) ASSERT_EQ(f.world->tick(0.05), Status::Ok);
  EXPECT_EQ(loco(*f.world, a).knocks, 0u);
  EXPECT_EQ(state(*f.world, a).mode, AgentMode::Arrived);
  EXPECT_EQ(state(*f.world, b).mode, AgentMode::Arrived);
}

}  // namespace
}  // namespace voxnav
