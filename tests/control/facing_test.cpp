// Facing (docs/agents.md#facing): the library's own atan2 on binary angles against libm's (a test
// oracle only, with a tolerance of one unit); agents turn toward their travel at the profile's
// turn_rate and never faster; a profile without strafe turns on the spot (until less than a
// quarter turn is left) before walking off backwards while one with strafe walks at once; sprint cruises at sprint_speed; the presentation
// state (edge, cruise speed, distance to stop, lookahead) against the corridor it describes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/follow/facing.h"
#include "splitmix.h"
#include "control_scene.h"
#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using test::kSolid;
constexpr double kPi = 3.14159265358979323846;

int unit_error(std::uint16_t got, double radians) {
  // radians -> units, compared modulo one turn
  double want = radians * 32768.0 / kPi;
  double d = static_cast<double>(got) - want;
  d = std::fmod(d, 65536.0);
  if (d > 32768.0) d -= 65536.0;
  if (d < -32768.0) d += 65536.0;
  return static_cast<int>(std::ceil(std::fabs(d) - 1e-9));
}

TEST(Facing, CardinalDirectionsAreExact) {
  EXPECT_EQ(detail::yaw_of_direction(0, -1), 0);
  EXPECT_EQ(detail::yaw_of_direction(-1, 0), 16384);
  EXPECT_EQ(detail::yaw_of_direction(0, 1), 32768);
  EXPECT_EQ(detail::yaw_of_direction(1, 0), 49152);
  EXPECT_EQ(detail::yaw_of_direction(-3, -3), 8192);
  EXPECT_EQ(detail::yaw_of_direction(0, 0), 0);
  EXPECT_EQ(detail::yaw_of_direction(NAN, 1), 0);
}

TEST(Facing, MatchesLibmAtan2WithinHalfAUnitAndRoundTrips) {
  tools::SplitMix64 rng(7);
  int worst = 0;
  double worst_dir = 0;
  for (int i = 0; i < 100000; ++i) {
    const double dx = (static_cast<double>(rng.next() >> 11) / 9007199254740992.0 - 0.5) *
                      std::pow(10.0, static_cast<int>(rng.next() % 7) - 3);
    const double dz = (static_cast<double>(rng.next() >> 11) / 9007199254740992.0 - 0.5) *
                      std::pow(10.0, static_cast<int>(rng.next() % 7) - 3);
    if (dx == 0 && dz == 0) continue;
    const std::uint16_t y = detail::yaw_of_direction(dx, dz);
    // Rounded to the nearest unit: within half a unit (plus libm's own error) of atan2.
    const double want = std::atan2(-dx, -dz) * 32768.0 / kPi;
    double d = std::fmod(static_cast<double>(y) - want, 65536.0);
    if (d > 32768.0) d -= 65536.0;
    if (d < -32768.0) d += 65536.0;
    ASSERT_LE(std::fabs(d), 0.5 + 1e-6) << dx << ", " << dz;
    worst = std::max(worst, unit_error(y, std::atan2(-dx, -dz)));
    // The direction a yaw faces points back along (dx, dz).
    double fx = 0, fz = 0;
    detail::direction_of_yaw(y, fx, fz);
    const double r = std::sqrt(dx * dx + dz * dz);
    const double dot = (fx * dx + fz * dz) / r;
    worst_dir = std::max(worst_dir, 1.0 - dot);
  }
  EXPECT_LE(worst, 1);
  EXPECT_LT(worst_dir, 1e-8);  // half a unit is 4.8e-5 rad: 1 - cos < 1.2e-9
}

TEST(Facing, TurnTowardTakesTheShortWayAndStopsOnTarget) {
  EXPECT_EQ(detail::turn_toward(0, 1000, 300), 300);
  EXPECT_EQ(detail::turn_toward(0, 65000, 300), 65536 - 300);  // -536 the short way
  EXPECT_EQ(detail::turn_toward(100, 200, 300), 200);
  EXPECT_EQ(detail::turn_toward(65500, 100, 1000), 100);  // across zero
  EXPECT_EQ(detail::turn_step_units(720.0, 0.05), 6553u);  // 36 degrees
  EXPECT_EQ(detail::turn_step_units(1.0, 0.001), 1u);      // at least one unit
}

using test::Flat;
using test::flat;
using test::loco;
using test::state;

// An agent heading +X (yaw 49152) from facing 0 (-Z) turns by at most one tick's turn each tick,
// reaches the heading and keeps it; the body walks the same way.
TEST(Facing, TurnsTowardTravelAtTheTurnRate) {
  for (const double rate : {720.0, 180.0, 45.0}) {
    Profile p;
    p.id = "turner";
    p.turn_rate = rate;
    Flat f = flat(p);
    AgentId a;
    ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{-10.5, 1, 2.5}}, &a), Status::Ok);
    ASSERT_EQ(f.world->set_agent_goal(a, CellPos{25, 1, 2}), Status::Ok);
    const std::uint32_t step = detail::turn_step_units(rate, 0.05);
    std::uint16_t prev = state(*f.world, a).yaw;
    EXPECT_EQ(prev, 0);
    int reached_at = -1;
    for (int t = 0; t < 400; ++t) {
      ASSERT_EQ(f.world->tick(0.05), Status::Ok);
      const AgentState s = state(*f.world, a);
      const int turned = std::abs(detail::yaw_difference(prev, s.yaw));
      ASSERT_LE(turned, static_cast<int>(step)) << "rate " << rate << " tick " << t;
      prev = s.yaw;
      if (s.mode == AgentMode::Moving && reached_at < 0 && s.yaw == 49152) reached_at = t;
      if (s.mode == AgentMode::Arrived) break;
    }
    // A quarter turn takes ceil(16384 / step) ticks, after the tick that installs the corridor.
    const int need = static_cast<int>((16384 + step - 1) / step);
    EXPECT_GE(reached_at, need - 1) << rate;
    EXPECT_LE(reached_at, need + 2) << rate;
    EXPECT_EQ(state(*f.world, a).mode, AgentMode::Arrived) << rate;
  }
}

// Facing away from the goal: without strafe the body stands while the facing is a quarter turn
// or more off, then walks at full speed; with strafe it walks at once.
TEST(Facing, StrafeDecidesWhetherTheBodyTurnsBeforeMoving) {
  for (const bool strafe : {false, true}) {
    Profile p;
    p.id = "strafer";
    p.strafe = strafe;
    p.turn_rate = 180.0;  // 9 degrees a tick: a half turn takes 20 ticks
    Flat f = flat(p);
    AgentId a;
    ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{-10.5, 1, 2.5}}, &a), Status::Ok);
    // Facing -X (16384); the goal lies +X (49152): a half turn away.
    ASSERT_EQ(teleport_agent_facing(*f.world, a, Vec3{-10.5, 1, 2.5}, 16384), Status::Ok);
    ASSERT_EQ(f.world->set_agent_goal(a, CellPos{25, 1, 2}), Status::Ok);
    int still = 0, first_move = -1;
    double full = 0;
    for (int t = 0; t < 60; ++t) {
      ASSERT_EQ(f.world->tick(0.05), Status::Ok);
      const AgentState s = state(*f.world, a);
      if (s.mode != AgentMode::Moving) continue;
      const double v = std::hypot(s.velocity.x, s.velocity.z);
      if (v < 1e-9 && first_move < 0) ++still;
      if (v > 1e-9 && first_move < 0) first_move = t;
      full = std::max(full, v);
      // Never moving backwards relative to the facing: velocity . facing >= 0 without strafe.
      double fx = 0, fz = 0;
      detail::direction_of_yaw(s.yaw, fx, fz);
      if (!strafe) {
        EXPECT_GE(fx * s.velocity.x + fz * s.velocity.z, -1e-9) << t;
      }
    }
    if (strafe) {
      EXPECT_EQ(still, 0);
    } else {
      // Half a turn off, 1638 units a tick: it stands while a quarter turn (16384 units) or
      // more is left after the tick's turn, the ticks t with 32768 - 1638 t >= 16384: 1 .. 10.
      const int step = static_cast<int>(detail::turn_step_units(180.0, 0.05));
      int want = 0;
      while (32768 - step * (want + 1) >= detail::kStrafeTurnUnits) ++want;
      EXPECT_EQ(want, 10);
      EXPECT_EQ(still, want);
    }
    EXPECT_NEAR(full, p.walk_speed, 1e-9);
  }
}

TEST(Facing, SprintCruisesAtSprintSpeed) {
  Profile p;
  p.walk_speed = 4.0;
  p.sprint_speed = 7.0;
  Flat f = flat(p);
  AgentId a;
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{-12.5, 1, 2.5}}, &a), Status::Ok);
  ASSERT_EQ(set_agent_sprint(*f.world, a, true), Status::Ok);
  ASSERT_EQ(f.world->set_agent_goal(a, CellPos{28, 1, 2}), Status::Ok);
  double fastest = 0;
  for (int t = 0; t < 200 && state(*f.world, a).mode != AgentMode::Arrived; ++t) {
    ASSERT_EQ(f.world->tick(0.05), Status::Ok);
    const AgentState s = state(*f.world, a);
    fastest = std::max(fastest, std::hypot(s.velocity.x, s.velocity.z));
    if (s.mode == AgentMode::Moving) {
      const AgentLocomotion l = loco(*f.world, a);
      EXPECT_TRUE(l.sprinting);
      EXPECT_DOUBLE_EQ(l.cruise_speed, 7.0);
    }
  }
  EXPECT_NEAR(fastest, 7.0, 1e-9);
  EXPECT_EQ(state(*f.world, a).mode, AgentMode::Arrived);
  ASSERT_EQ(set_agent_sprint(*f.world, a, false), Status::Ok);
  EXPECT_FALSE(loco(*f.world, a).sprinting);
}

// Around a wall: the corridor has several waypoints; distance_to_stop equals the feet-to-next
// plus waypoint-to-waypoint lengths of agent_corridor, shrinks as the agent walks, and lookahead
// returns exactly the waypoints within the length asked.
TEST(Facing, PresentationStateDescribesTheCorridor) {
  Flat f = flat(Profile{});
  // A wall two high from z = -5 to 10 at x = 4, so the route bends around its end.
  for (int z = -5; z <= 10; ++z)
    for (int y = 1; y <= 2; ++y) ASSERT_EQ(f.world->set_block(CellPos{4, y, z}, kSolid), Status::Ok);
  f.world->update();
  AgentId a;
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{0.5, 1, 2.5}}, &a), Status::Ok);
  ASSERT_EQ(f.world->set_agent_goal(a, CellPos{9, 1, 2}), Status::Ok);
  double last = 1e9;
  int checked = 0;
  for (int t = 0; t < 300 && state(*f.world, a).mode != AgentMode::Arrived; ++t) {
    ASSERT_EQ(f.world->tick(0.05), Status::Ok);
    const AgentState s = state(*f.world, a);
    const AgentLocomotion l = loco(*f.world, a);
    if (s.mode != AgentMode::Moving) {
      EXPECT_EQ(l.edge, EdgeKind::Start);
      EXPECT_EQ(l.distance_to_stop, 0.0);
      continue;
    }
    std::size_t n = 0;
    ASSERT_EQ(f.world->agent_corridor(a, nullptr, 0, &n), Status::Ok);
    std::vector<Waypoint> w(n);
    ASSERT_EQ(f.world->agent_corridor(a, w.data(), n, &n), Status::Ok);
    ASSERT_LT(s.next_waypoint, n);
    EXPECT_EQ(l.edge, w[s.next_waypoint].kind);
    EXPECT_DOUBLE_EQ(l.cruise_speed, Profile{}.walk_speed);
    double d = std::sqrt(std::pow(w[s.next_waypoint].position.x - s.feet.x, 2) +
                         std::pow(w[s.next_waypoint].position.y - s.feet.y, 2) +
                         std::pow(w[s.next_waypoint].position.z - s.feet.z, 2));
    std::vector<double> along{d};
    for (std::size_t k = s.next_waypoint + 1; k < n; ++k) {
      d += std::sqrt(std::pow(w[k].position.x - w[k - 1].position.x, 2) +
                     std::pow(w[k].position.y - w[k - 1].position.y, 2) +
                     std::pow(w[k].position.z - w[k - 1].position.z, 2));
      along.push_back(d);
    }
    EXPECT_NEAR(l.distance_to_stop, d, 1e-9);
    EXPECT_LE(l.distance_to_stop, last + 1e-9);  // never grows while following
    last = l.distance_to_stop;
    // Lookahead of half the remaining path: the waypoints whose path distance is within it.
    const double len = d * 0.5;
    std::size_t want = 0;
    while (want < along.size() && along[want] <= len) ++want;
    std::vector<Waypoint> ahead(8);
    std::size_t count = 99;
    ASSERT_EQ(agent_lookahead(*f.world, a, len, ahead.data(), ahead.size(), &count), Status::Ok);
    EXPECT_EQ(count, want);
    for (std::size_t k = 0; k < std::min(count, ahead.size()); ++k)
      EXPECT_EQ(ahead[k].cell, w[s.next_waypoint + k].cell);
    ++checked;
  }
  EXPECT_EQ(state(*f.world, a).mode, AgentMode::Arrived);
  EXPECT_GT(checked, 20);
  EXPECT_EQ(loco(*f.world, a).distance_to_stop, 0.0);
}

TEST(Facing, BadInputNamesTheArgument) {
  Flat f = flat(Profile{});
  AgentId a;
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{0.5, 1, 0.5}}, &a), Status::Ok);
  CallError e;
  std::uint16_t y = 7;
  EXPECT_EQ(yaw_of_direction(Vec3{NAN, 0, 1}, &y, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "direction");
  EXPECT_EQ(yaw_of_direction(Vec3{0, 5, 0}, &y, &e), Status::InvalidArgument);
  EXPECT_EQ(y, 7);
  EXPECT_EQ(yaw_of_direction(Vec3{1, 0, 0}, &y, &e), Status::Ok);
  EXPECT_EQ(y, 49152);
  std::size_t count = 0;
  EXPECT_EQ(agent_lookahead(*f.world, a, -1.0, nullptr, 0, &count, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "length");
  EXPECT_EQ(agent_lookahead(*f.world, a, INFINITY, nullptr, 0, &count, &e),
            Status::InvalidArgument);
  EXPECT_EQ(agent_lookahead(*f.world, a, 1.0, nullptr, 0, nullptr, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "count");
  EXPECT_EQ(agent_lookahead(*f.world, a, 1.0, nullptr, 3, &count, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "out");
  EXPECT_EQ(agent_locomotion(*f.world, a, nullptr, &e), Status::InvalidArgument);
  // A removed agent: StaleHandle naming "agent", and the teleport changes nothing.
  ASSERT_EQ(f.world->remove_agent(a), Status::Ok);
  AgentLocomotion l;
  EXPECT_EQ(agent_locomotion(*f.world, a, &l, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "agent");
  EXPECT_EQ(set_agent_sprint(*f.world, a, true, &e), Status::StaleHandle);
  EXPECT_EQ(teleport_agent_facing(*f.world, a, Vec3{1.5, 1, 1.5}, 5, &e), Status::StaleHandle);
  EXPECT_EQ(e.argument, "agent");
  AgentId b;
  ASSERT_EQ(f.world->add_agent(AgentDef{f.pid, Vec3{0.5, 1, 0.5}}, &b), Status::Ok);
  EXPECT_EQ(teleport_agent_facing(*f.world, b, Vec3{NAN, 1, 1.5}, 5, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "feet");
  EXPECT_EQ(state(*f.world, b).yaw, 0);
  EXPECT_EQ(state(*f.world, b).feet.x, 0.5);
}

}  // namespace
}  // namespace voxnav
