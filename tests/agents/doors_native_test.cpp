// The follower on doors and ladders (issue 5, item 4 "Doors" and the climbing of item 3), with
// agents that really move (World::tick and the shared movement integrator):
// - a climber walks from the upper storey of smallhouse1.schem to the ladder, climbs it and steps
//   out onto the attic's ledge; and climbs down again;
// - an agent whose corridor enters a closed door stops in front of it (within 1 + width / 2 cells
//   of the door cell's centre, never inside the door cell while it is closed), raises one DoorAhead
//   event and holds; the host opens the door (World::set_door_open, both halves) and it passes;
// - a door that never opens: after 40 ticks of holding the door is avoided for 600 ticks and the
//   agent plans again: it takes another way when there is one (a wall with a door and a gap), and
//   without one (the attic's balcony door) it ends Blocked with a reason naming the door;
// - set_door_open flips both halves of a two-high door and refuses a cell that is not a door.
// Coordinates of smallhouse1.schem: see the survey in search/buildings_native_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

const std::string kSmallHouse =
    std::string(VOXNAV_SHARED_DATA) + "/minecraft/schematics/smallhouse1.schem";
const std::string kData = std::string(VOXNAV_FIXTURES) + "/../../data";

constexpr CellPos kGroundInside{10, 1, 7};   // ground floor, inside the house
constexpr CellPos kUpperStorey{10, 12, 12};  // upper storey, reached by the spiral stair
constexpr int kLadderX = 10, kLadderZ = 14;  // ladder blocks (10, 13..17, 14)
constexpr CellPos kAttic{10, 16, 10};        // attic floor: only the ladder reaches it
constexpr CellPos kWestDoor{6, 16, 10};      // lower half, closed; upper half (6,17,10)
constexpr CellPos kWestDoorUpper{6, 17, 10};
constexpr CellPos kWestBalcony{5, 16, 9};  // only through kWestDoor
constexpr CellPos kEastDoor{14, 16, 8};    // lower half, closed
constexpr double kDt = 0.05;
constexpr double kWidth = 0.6;  // the profiles' body width (Profile default)

std::string str(CellPos c) {
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) + ")";
}

double hdist(const Vec3& p, CellPos c) {
  const double dx = p.x - (c.x + 0.5), dz = p.z - (c.z + 0.5);
  return std::sqrt(dx * dx + dz * dz);
}
bool inside(const Vec3& p, CellPos c) {
  return std::floor(p.x) == c.x && std::floor(p.z) == c.z && std::floor(p.y + 1e-3) == c.y;
}
double speed(const AgentState& s) {
  return std::sqrt(s.velocity.x * s.velocity.x + s.velocity.z * s.velocity.z);
}

Profile profile(const char* id, bool climb, bool doors) {
  Profile p;
  p.id = id;
  p.can_climb = climb;
  p.climb_speed = climb ? 2.0 : p.climb_speed;
  p.can_open_doors = doors;
  return p;
}

/// A World with the blocks of `w` and four walker profiles: `walker` (neither), `climber`
/// (can_climb, climb speed 2 cells/s), `opener` (can_open_doors) and `both`.
struct Sim {
  std::unique_ptr<World> w;
  ProfileId walker, climber, opener, both;

  void add_profiles() {
    std::string err;
    EXPECT_EQ(w->add_profile(profile("climber", true, false), &climber, &err), Status::Ok) << err;
    EXPECT_EQ(w->add_profile(profile("opener", false, true), &opener, &err), Status::Ok) << err;
    EXPECT_EQ(w->add_profile(profile("both", true, true), &both, &err), Status::Ok) << err;
    w->update();
  }
  AgentId agent(ProfileId p, CellPos cell) {
    double fy = 0;
    EXPECT_EQ(w->standing_height(p, cell, &fy), Status::Ok) << str(cell);
    AgentId id;
    EXPECT_EQ(w->add_agent(AgentDef{p, Vec3{cell.x + 0.5, fy, cell.z + 0.5}}, &id), Status::Ok);
    return id;
  }
  AgentState state(AgentId id) const {
    AgentState s;
    EXPECT_EQ(w->agent_state(id, &s), Status::Ok);
    return s;
  }
  std::string reason(AgentId id) const {
    std::string r;
    EXPECT_EQ(w->agent_reason(id, &r), Status::Ok);
    return r;
  }
  void tick() { ASSERT_EQ(w->tick(kDt), Status::Ok); }
  std::vector<DoorEvent> take_events() {
    std::vector<DoorEvent> ev(w->pending_door_events());
    std::size_t n = 99;
    EXPECT_EQ(w->take_door_events(ev.data(), ev.size(), &n), Status::Ok);
    ev.resize(n);
    return ev;
  }
  std::uint16_t block(CellPos c) const {
    std::uint16_t v = 0;
    EXPECT_EQ(w->get_block(c, &v), Status::Ok) << str(c);
    return v;
  }
  std::string state_of(CellPos c) const { return detail::WorldAccess::state(*w).blocks.state_string(block(c)); }
  detail::CellKind kind(CellPos c) const {
    return detail::WorldAccess::state(*w).walker()->grid().kind(CellPos{c.x, c.y, c.z});
  }
  const detail::AgentRecord& record(AgentId id) const {
    return *detail::WorldAccess::state(*w).agents.get(AgentId{id.index, id.generation});
  }
  std::vector<Waypoint> corridor(AgentId id) const {
    std::size_t n = 0;
    EXPECT_EQ(w->agent_corridor(id, nullptr, 0, &n), Status::Ok);
    std::vector<Waypoint> wps(n);
    EXPECT_EQ(w->agent_corridor(id, wps.data(), wps.size(), &n), Status::Ok);
    return wps;
  }
};

struct House : Sim {
  House() {
    w = test::load_region(kSmallHouse, &walker);
    if (w) add_profiles();
  }
};

bool corridor_has(const std::vector<Waypoint>& wps, CellPos c, EdgeKind k) {
  return std::any_of(wps.begin(), wps.end(),
                     [&](const Waypoint& p) { return p.cell == c && p.kind == k; });
}

// ---- climbing
// ------------------------------------------------------------------------------------

/// Ticks a climber from `from` to `goal` and records what the body did in the ladder column.
struct ClimbRun {
  int ticks = -1;                    ///< ticks to arrive (-1: did not arrive)
  double min_y = 1e9, max_y = -1e9;  ///< feet heights seen in the ladder column
  int climbing_ticks = 0;            ///< ticks the integrator spent in climb mode
  AgentState last;
  std::string reason;
  AgentId id;
};

ClimbRun climb_run(House& h, CellPos from, CellPos goal, int budget) {
  ClimbRun r;
  const AgentId a = h.agent(h.climber, from);
  r.id = a;
  EXPECT_EQ(h.w->set_agent_goal(a, goal), Status::Ok);
  for (int t = 1; t <= budget; ++t) {
    h.tick();
    const AgentState s = h.state(a);
    if (std::fabs(s.feet.x - (kLadderX + 0.5)) < 0.3 &&
        std::fabs(s.feet.z - (kLadderZ + 0.5)) < 0.3) {
      r.min_y = std::min(r.min_y, s.feet.y);
      r.max_y = std::max(r.max_y, s.feet.y);
    }
    if (h.record(a).body.mode == BodyMode::Climb) ++r.climbing_ticks;
    r.last = s;
    if (s.mode == AgentMode::Arrived) {
      r.ticks = t;
      break;
    }
    if (s.mode == AgentMode::Failed || s.mode == AgentMode::Blocked) break;
  }
  r.reason = h.reason(a);
  return r;
}

TEST(NavDoors, ClimberClimbsTheLadderToTheAttic) {
  House h;
  ASSERT_TRUE(h.w);
  const ClimbRun r = climb_run(h, kUpperStorey, kAttic, 300);
  std::printf(
      "[ climb    ] upper storey -> attic: arrived after %d ticks, %d of them climbing, "
      "ladder column feet y %.3f .. %.3f\n",
      r.ticks, r.climbing_ticks, r.min_y, r.max_y);
  ASSERT_EQ(r.last.mode, AgentMode::Arrived) << agent_mode_name(r.last.mode) << ": " << r.reason;
  EXPECT_GT(r.ticks, 0);
  EXPECT_LE(r.ticks, 120);  // 62 ticks measured: 3 cells at 2 cells/s is 30 of them
  // It climbed: in the ladder column its feet went from the ladder's foot (y 13) to the attic's
  // height (y 16), and the integrator was in climb mode for at least the 3 cells at 2 cells/s.
  EXPECT_LE(r.min_y, 13.0 + 1e-6);
  EXPECT_GE(r.max_y, 16.0);
  EXPECT_GE(r.climbing_ticks, 30);
  // Standing in the attic, on its top slabs.
  EXPECT_NEAR(r.last.feet.y, 16.0, 1e-6);
  EXPECT_LE(hdist(r.last.feet, kAttic), 0.5 + 1e-9);
  EXPECT_TRUE(r.last.on_ground);
  EXPECT_EQ(r.last.replans, 0u);
}

TEST(NavDoors, ClimberClimbsDownFromTheAttic) {
  House h;
  ASSERT_TRUE(h.w);
  const ClimbRun r = climb_run(h, kAttic, kUpperStorey, 300);
  std::printf(
      "[ climb    ] attic -> upper storey: arrived after %d ticks, %d of them climbing, "
      "ladder column feet y %.3f .. %.3f\n",
      r.ticks, r.climbing_ticks, r.min_y, r.max_y);
  ASSERT_EQ(r.last.mode, AgentMode::Arrived) << agent_mode_name(r.last.mode) << ": " << r.reason;
  EXPECT_LE(r.ticks, 120);
  EXPECT_LE(r.min_y, 13.0 + 1e-6);
  EXPECT_GE(r.max_y, 16.0 - 1e-6);
  EXPECT_GE(r.climbing_ticks, 30);
  EXPECT_EQ(r.last.replans, 0u);
  // The last step is a drop from the stair (feet y 13) to the floor (12): arrival is counted on
  // the way down (within the arrive radius, 0.5); a few ticks later it stands on the upper
  // storey: on its planks (12) or, with its body still overlapping the stair's cell, on the
  // stair's lower step (12.5).
  EXPECT_LE(hdist(r.last.feet, kUpperStorey), 0.5 + 1e-9);
  for (int t = 0; t < 10; ++t) h.tick();
  const AgentState rest = h.state(r.id);
  EXPECT_TRUE(rest.on_ground);
  EXPECT_TRUE(rest.feet.y == 12.0 || rest.feet.y == 12.5) << rest.feet.y;
  EXPECT_LE(hdist(rest.feet, kUpperStorey), 0.5 + 1e-9);
}

TEST(NavDoors, ClimberGoesFromTheGroundFloorToTheAttic) {
  House h;
  ASSERT_TRUE(h.w);
  const ClimbRun r = climb_run(h, kGroundInside, kAttic, 1200);
  std::printf(
      "[ climb    ] ground floor -> attic: arrived after %d ticks (%d replans), %d ticks "
      "climbing, ladder column feet y %.3f .. %.3f\n",
      r.ticks, r.last.replans, r.climbing_ticks, r.min_y, r.max_y);
  ASSERT_EQ(r.last.mode, AgentMode::Arrived) << agent_mode_name(r.last.mode) << ": " << r.reason;
  EXPECT_LE(r.min_y, 13.0 + 1e-6);
  EXPECT_GE(r.max_y, 16.0);
  EXPECT_GE(r.climbing_ticks, 30);
  EXPECT_NEAR(r.last.feet.y, 16.0, 1e-6);
}

/// A 3-high stone pillar on a flat floor with a ladder up its south face: a climber climbs it and
/// steps out onto the pillar's top; a walker that cannot climb gets no route.
TEST(NavDoors, ClimberClimbsALadderUpAPillarOntoItsTop) {
  Sim h;
  h.w = std::make_unique<World>();
  std::string msg;
  ASSERT_EQ(native::load_minecraft_blocks_dir(*h.w, kData + "/blocks", &msg), Status::Ok)
      << msg;
  std::uint16_t stone = 0, ladder = 0;
  ASSERT_EQ(h.w->block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(h.w->block_value("ladder[facing=south]", &ladder), Status::Ok);
  std::vector<std::uint16_t> floor(4096, 0), air(4096, 0);
  for (int i = 0; i < 256; ++i) floor[static_cast<std::size_t>(i)] = stone;
  ASSERT_EQ(h.w->load_chunk({0, 0, 0}, floor), Status::Ok);
  ASSERT_EQ(h.w->load_chunk({0, 1, 0}, air), Status::Ok);
  ASSERT_EQ(h.w->set_box({8, 1, 8}, {8, 3, 8}, stone), Status::Ok);
  ASSERT_EQ(h.w->set_box({8, 1, 9}, {8, 3, 9}, ladder), Status::Ok);
  ASSERT_EQ(h.w->add_profile(Profile{}, &h.walker), Status::Ok);
  h.add_profiles();
  const CellPos top{8, 4, 8};
  ASSERT_TRUE(h.w->is_standable(h.climber, top));
  const AgentId a = h.agent(h.climber, {8, 1, 12});
  ASSERT_EQ(h.w->set_agent_goal(a, top), Status::Ok);
  int ticks = -1, climbing = 0;
  double max_y_on_ladder = 0;
  for (int t = 1; t <= 200; ++t) {
    h.tick();
    const AgentState s = h.state(a);
    if (h.record(a).body.mode == BodyMode::Climb) ++climbing;
    if (std::floor(s.feet.x) == 8 && std::floor(s.feet.z) == 9)
      max_y_on_ladder = std::max(max_y_on_ladder, s.feet.y);
    if (s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed ||
        s.mode == AgentMode::Blocked) {
      ticks = t;
      break;
    }
  }
  const AgentState s = h.state(a);
  std::printf("[ climb    ] pillar: arrived on top after %d ticks, %d climbing\n", ticks, climbing);
  ASSERT_EQ(s.mode, AgentMode::Arrived) << h.reason(a);
  EXPECT_GE(max_y_on_ladder, 4.0);
  EXPECT_GE(climbing, 30);  // 3 cells at 2 cells/s
  h.tick();
  EXPECT_NEAR(h.state(a).feet.y, 4.0, 1e-6);
  EXPECT_LE(hdist(h.state(a).feet, top), 0.5 + 1e-9);
  // Not a climber: no way up.
  const AgentId b = h.agent(h.walker, {8, 1, 12});
  ASSERT_EQ(h.w->set_agent_goal(b, top), Status::Ok);
  for (int t = 0; t < 5; ++t) h.tick();
  EXPECT_EQ(h.state(b).mode, AgentMode::Failed) << agent_mode_name(h.state(b).mode);
  EXPECT_LT(h.state(b).feet.y, 1.0 + 1e-6);
}

// ---- doors
// ---------------------------------------------------------------------------------------

/// Ticks until `until` holds or `budget` ticks pass; on every tick the agent must not stand in the
/// door cell while it is closed. Returns the ticks taken (-1: budget exhausted).
template <class F>
int run_until(Sim& h, AgentId a, CellPos door, int budget, F&& until) {
  for (int t = 1; t <= budget; ++t) {
    h.tick();
    const AgentState s = h.state(a);
    if (h.kind(door) == detail::CellKind::DoorClosed) {
      EXPECT_FALSE(inside(s.feet, door))
          << "tick " << t << ": feet (" << s.feet.x << "," << s.feet.y << "," << s.feet.z
          << ") inside the closed door " << str(door);
    }
    if (until(s)) return t;
  }
  return -1;
}

TEST(NavDoors, OpenerStopsBeforeTheClosedDoorHoldsAndPassesOnceOpened) {
  House h;
  ASSERT_TRUE(h.w);
  ASSERT_EQ(h.kind(kWestDoor), detail::CellKind::DoorClosed);
  const AgentId a = h.agent(h.opener, kAttic);
  ASSERT_EQ(h.w->set_agent_goal(a, kWestBalcony), Status::Ok);
  // Up to the door: it stops and holds.
  const int reach =
      run_until(h, a, kWestDoor, 200, [](const AgentState& s) { return s.waiting_at_door; });
  ASSERT_GT(reach, 0) << "never held before the door";
  EXPECT_TRUE(corridor_has(h.corridor(a), kWestDoor, EdgeKind::Door));
  const std::uint64_t raised_at = h.w->nav_tick();
  // Hold 20 more ticks (half the timeout): it stays put, in front of the door, and is not stuck.
  AgentState s = h.state(a);
  for (int t = 0; t < 20; ++t) {
    h.tick();
    s = h.state(a);
    ASSERT_EQ(s.mode, AgentMode::Moving) << h.reason(a);
    ASSERT_TRUE(s.waiting_at_door);
    EXPECT_FALSE(inside(s.feet, kWestDoor));
  }
  const double dist = hdist(s.feet, kWestDoor);
  std::printf(
      "[ door     ] reached the hold after %d ticks; after %u ticks holding: %.3f cells from "
      "the door's centre, speed %.3f\n",
      reach, s.door_hold_ticks, dist, speed(s));
  EXPECT_LE(dist, 1.0 + kWidth / 2 + 0.02);
  EXPECT_GE(dist, 0.5 + kWidth / 2);  // its body is clear of the door cell
  EXPECT_NEAR(s.feet.y, 16.0, 1e-6);
  EXPECT_LT(speed(s), 1e-9);
  EXPECT_EQ(s.door, kWestDoor);
  EXPECT_EQ(s.door_hold_ticks, 21u);
  EXPECT_EQ(s.replans, 0u);
  EXPECT_EQ(s.door_timeouts, 0u);
  EXPECT_EQ(s.door_events, 1u);
  // Exactly one DoorAhead event, for this agent and this door.
  std::vector<DoorEvent> ev = h.take_events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].agent.index, a.index);
  EXPECT_EQ(ev[0].agent.generation, a.generation);
  EXPECT_EQ(ev[0].door, kWestDoor);
  EXPECT_EQ(ev[0].tick, raised_at);
  EXPECT_EQ(h.w->pending_door_events(), 0u);

  // The host opens the door: both halves, and navigation sees it open at the next tick.
  ASSERT_EQ(h.w->set_door_open(kWestDoor, true), Status::Ok);
  EXPECT_EQ(h.state_of(kWestDoor),
            "oak_door[facing=west,half=lower,hinge=left,open=true,powered=false]");
  EXPECT_EQ(h.state_of(kWestDoorUpper),
            "oak_door[facing=west,half=upper,hinge=left,open=true,powered=false]");
  bool passed = false;
  const int after = run_until(h, a, kWestDoor, 200, [&](const AgentState& st) {
    passed = passed || inside(st.feet, kWestDoor);
    return st.mode == AgentMode::Arrived || st.mode == AgentMode::Failed ||
           st.mode == AgentMode::Blocked;
  });
  s = h.state(a);
  std::printf("[ door     ] opened: arrived on the balcony %d ticks later\n", after);
  ASSERT_EQ(s.mode, AgentMode::Arrived) << h.reason(a);
  EXPECT_LE(after, 60);
  EXPECT_TRUE(passed) << "never walked through the door cell";
  EXPECT_EQ(h.kind(kWestDoor), detail::CellKind::DoorOpen);
  EXPECT_LE(hdist(s.feet, kWestBalcony), 0.5 + 1e-9);
  EXPECT_NEAR(s.feet.y, 16.0, 1e-6);
  EXPECT_FALSE(s.waiting_at_door);
  EXPECT_EQ(s.replans, 0u);
  EXPECT_EQ(s.door_events, 1u);
  EXPECT_TRUE(h.take_events().empty());
  EXPECT_TRUE(h.record(a).avoid.empty());
}

TEST(NavDoors, DoorThatNeverOpensWithNoWayAroundEndsBlockedWithAReason) {
  House h;
  ASSERT_TRUE(h.w);
  const AgentId a = h.agent(h.opener, kAttic);
  ASSERT_EQ(h.w->set_agent_goal(a, kWestBalcony), Status::Ok);
  ASSERT_GT(run_until(h, a, kWestDoor, 200, [](const AgentState& s) { return s.waiting_at_door; }),
            0);
  const std::uint64_t hold_start = h.w->nav_tick();
  AgentState s = h.state(a);
  EXPECT_EQ(s.requests, 1u);
  // The first hold: 40 ticks (counting the one on which it gives up), then the door joins the
  // avoided cells and the agent plans again.
  int held = 1;
  while (s.requests == 1 && held < 100) {
    h.tick();
    s = h.state(a);
    ++held;
    if (s.requests == 1) {
      ASSERT_TRUE(s.waiting_at_door) << "tick " << held;
    }
  }
  std::printf("[ door     ] held %d ticks, then replanned avoiding the door\n", held);
  EXPECT_EQ(held, 40);
  EXPECT_EQ(s.door_timeouts, 1u);
  EXPECT_EQ(s.replans, 1u);
  const detail::AgentRecord& rec = h.record(a);
  ASSERT_EQ(rec.avoid.size(), 1u);
  EXPECT_EQ(rec.avoid[0].cell, (CellPos{kWestDoor.x, kWestDoor.y, kWestDoor.z}));
  EXPECT_EQ(rec.avoid[0].until, hold_start + 39 + 600);
  // The request carried the avoided door ...
  EXPECT_EQ(s.mode, AgentMode::Planning);
  const detail::RequestSlot* slot = detail::WorldAccess::state(*h.w).walker()->slot(rec.request);
  ASSERT_NE(slot, nullptr);
  ASSERT_EQ(slot->spec.avoid.size(), 1u);
  EXPECT_EQ(slot->spec.avoid[0], rec.avoid[0].cell);
  // ... but there is no other way to the balcony: the route still enters the door, the agent holds
  // again (no second event in this approach) and then is Blocked, naming the door.
  int ticks = 0;
  while (s.mode != AgentMode::Blocked && ticks < 200) {
    h.tick();
    ++ticks;
    s = h.state(a);
    if (s.mode == AgentMode::Moving) {
      EXPECT_TRUE(s.waiting_at_door) << "standing silently at tick " << ticks;
      EXPECT_FALSE(inside(s.feet, kWestDoor));
    }
  }
  const std::string why = h.reason(a);
  std::printf("[ door     ] Blocked %d ticks after the replan: %s\n", ticks, why.c_str());
  ASSERT_EQ(s.mode, AgentMode::Blocked);
  EXPECT_NE(why.find("closed door at (6,16,10)"), std::string::npos) << why;
  EXPECT_EQ(s.door_timeouts, 2u);
  EXPECT_EQ(s.door_events, 1u);
  EXPECT_LE(ticks, 45);
  std::vector<DoorEvent> ev = h.take_events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].door, kWestDoor);
  EXPECT_EQ(ev[0].tick, hold_start);
  EXPECT_LE(hdist(s.feet, kWestDoor), 1.0 + kWidth / 2 + 0.02);

  // Blocked is not terminal: 100 ticks later it tries again, stops at the door again (a new
  // approach: a new event) and is Blocked again; opening the door then lets it through.
  int more = 0;
  while (h.w->pending_door_events() == 0 && more < 150) {
    h.tick();
    ++more;
  }
  ev = h.take_events();
  ASSERT_EQ(ev.size(), 1u) << "no new DoorAhead after the Blocked retry";
  EXPECT_EQ(ev[0].door, kWestDoor);
  EXPECT_GE(more, 100);
  ASSERT_EQ(h.w->set_door_open(kWestDoor, true), Status::Ok);
  const int after = run_until(h, a, kWestDoor, 300, [](const AgentState& st) {
    return st.mode == AgentMode::Arrived || st.mode == AgentMode::Failed;
  });
  ASSERT_GT(after, 0) << agent_mode_name(h.state(a).mode) << ": " << h.reason(a);
  EXPECT_EQ(h.state(a).mode, AgentMode::Arrived) << h.reason(a);
}

/// A flat stone floor over 3 x 3 chunk columns with a stone wall (3 high) along x = 8: a closed
/// oak door at z = 4 and a gap at z = 14. Through the door is the short way.
struct WallWithDoorAndGap : Sim {
  static constexpr CellPos kDoor{8, 1, 4};
  static constexpr CellPos kGap{8, 1, 14};
  WallWithDoorAndGap() {
    w = std::make_unique<World>();
    std::string msg;
    EXPECT_EQ(native::load_minecraft_blocks_dir(*w, kData + "/blocks", &msg), Status::Ok)
        << msg;
    std::uint16_t stone = 0;
    EXPECT_EQ(w->block_value("stone", &stone), Status::Ok);
    std::vector<std::uint16_t> floor(4096, 0), air(4096, 0);
    for (int i = 0; i < 256; ++i) floor[static_cast<std::size_t>(i)] = stone;
    for (int cz = -1; cz <= 1; ++cz)
      for (int cx = -1; cx <= 1; ++cx) {
        EXPECT_EQ(w->load_chunk({cx, 0, cz}, floor), Status::Ok);
        EXPECT_EQ(w->load_chunk({cx, 1, cz}, air), Status::Ok);
      }
    EXPECT_EQ(w->set_box({8, 1, -16}, {8, 3, 31}, stone), Status::Ok);
    put(kDoor, "oak_door[facing=east,half=lower,hinge=left,open=false,powered=false]");
    put({8, 2, 4}, "oak_door[facing=east,half=upper,hinge=left,open=false,powered=false]");
    put(kGap, "air");
    put({8, 2, 14}, "air");
    EXPECT_EQ(w->add_profile(Profile{}, &walker), Status::Ok);
    add_profiles();
  }
  void put(CellPos c, const char* state) {
    std::uint16_t v = 0;
    ASSERT_EQ(w->block_value(state, &v), Status::Ok) << state;
    ASSERT_EQ(w->set_block(c, v), Status::Ok);
  }
};

TEST(NavDoors, DoorThatStaysShutIsAvoidedWhenAnotherWayExists) {
  WallWithDoorAndGap h;
  ASSERT_EQ(h.kind(WallWithDoorAndGap::kDoor), detail::CellKind::DoorClosed);
  const CellPos start{4, 1, 4}, goal{12, 1, 4};
  const AgentId a = h.agent(h.opener, start);
  ASSERT_EQ(h.w->set_agent_goal(a, goal), Status::Ok);
  const CellPos door = WallWithDoorAndGap::kDoor;
  const int reach =
      run_until(h, a, door, 200, [](const AgentState& s) { return s.waiting_at_door; });
  ASSERT_GT(reach, 0);
  EXPECT_TRUE(corridor_has(h.corridor(a), door, EdgeKind::Door));
  EXPECT_LE(hdist(h.state(a).feet, door), 1.0 + kWidth / 2 + 1e-9);
  // 40 ticks later it gives up on the door and goes around through the gap.
  int held = 1;
  while (h.state(a).waiting_at_door && held < 100) {
    h.tick();
    ++held;  // counting the tick on which it gives up
  }
  EXPECT_EQ(held, 40);
  bool through_gap = false;
  const int around = run_until(h, a, door, 400, [&](const AgentState& s) {
    through_gap = through_gap || (std::floor(s.feet.x) == 8 && std::floor(s.feet.z) == 14);
    return s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed ||
           s.mode == AgentMode::Blocked;
  });
  const AgentState s = h.state(a);
  std::printf("[ door     ] wall: held %d ticks, then around through the gap in %d ticks\n", held,
              around);
  ASSERT_EQ(s.mode, AgentMode::Arrived) << h.reason(a);
  EXPECT_TRUE(through_gap);
  EXPECT_FALSE(corridor_has(h.corridor(a), door, EdgeKind::Door));
  EXPECT_EQ(s.door_events, 1u);
  EXPECT_EQ(s.door_timeouts, 1u);
  EXPECT_EQ(s.replans, 1u);
  EXPECT_EQ(h.take_events().size(), 1u);
  EXPECT_EQ(h.kind(door), detail::CellKind::DoorClosed);  // nobody opened it
  // A new goal back across the wall, with the door still avoided: the agent goes around again
  // without stopping at the door.
  ASSERT_EQ(h.w->set_agent_goal(a, start), Status::Ok);
  const int back = run_until(h, a, door, 400, [](const AgentState& st) {
    return st.mode == AgentMode::Arrived || st.mode == AgentMode::Failed ||
           st.mode == AgentMode::Blocked;
  });
  ASSERT_GT(back, 0);
  EXPECT_EQ(h.state(a).mode, AgentMode::Arrived) << h.reason(a);
  EXPECT_EQ(h.state(a).door_events, 1u);
  EXPECT_FALSE(corridor_has(h.corridor(a), door, EdgeKind::Door));
}

TEST(NavDoors, AgentThatCannotOpenDoorsHoldsAtADoorClosedInFrontOfIt) {
  // A walker planned through the open door; the host closes it before the walker gets there.
  WallWithDoorAndGap h;
  const CellPos door = WallWithDoorAndGap::kDoor;
  ASSERT_EQ(h.w->set_door_open(door, true), Status::Ok);
  h.w->update();
  ASSERT_EQ(h.kind(door), detail::CellKind::DoorOpen);
  const AgentId a = h.agent(h.walker, {1, 1, 4});
  ASSERT_EQ(h.w->set_agent_goal(a, {12, 1, 4}), Status::Ok);
  h.tick();
  h.tick();
  ASSERT_TRUE(corridor_has(h.corridor(a), door, EdgeKind::Door));
  ASSERT_EQ(h.w->set_door_open(door, false), Status::Ok);
  const int reach =
      run_until(h, a, door, 200, [](const AgentState& s) { return s.waiting_at_door; });
  ASSERT_GT(reach, 0);
  EXPECT_LE(hdist(h.state(a).feet, door), 1.0 + kWidth / 2 + 1e-9);
  std::vector<DoorEvent> ev = h.take_events();
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].door, door);
  // The host opens it again: the walker passes.
  ASSERT_EQ(h.w->set_door_open(door, true), Status::Ok);
  const int after = run_until(h, a, door, 200, [](const AgentState& st) {
    return st.mode == AgentMode::Arrived || st.mode == AgentMode::Failed ||
           st.mode == AgentMode::Blocked;
  });
  ASSERT_GT(after, 0);
  EXPECT_EQ(h.state(a).mode, AgentMode::Arrived) << h.reason(a);
  EXPECT_EQ(h.state(a).replans, 0u);
}

// ---- set_door_open and the events API --------------------------------------------------------

TEST(NavDoors, SetDoorOpenFlipsBothHalvesAndRefusesWhatIsNotADoor) {
  House h;
  ASSERT_TRUE(h.w);
  const std::string lower_closed =
      "oak_door[facing=west,half=lower,hinge=left,open=false,powered=false]";
  const std::string upper_closed =
      "oak_door[facing=west,half=upper,hinge=left,open=false,powered=false]";
  const std::string lower_open =
      "oak_door[facing=west,half=lower,hinge=left,open=true,powered=false]";
  const std::string upper_open =
      "oak_door[facing=west,half=upper,hinge=left,open=true,powered=false]";
  ASSERT_EQ(h.state_of(kWestDoor), lower_closed);
  ASSERT_EQ(h.state_of(kWestDoorUpper), upper_closed);
  EXPECT_EQ(h.w->reachable(h.walker, kAttic, kWestBalcony).reason, ReachReason::DoorGated);
  // Open through the lower half: both halves flip.
  const std::uint16_t east = h.block(kEastDoor), above = h.block({6, 18, 10}),
                      below = h.block({6, 15, 10});
  ASSERT_EQ(h.w->set_door_open(kWestDoor, true), Status::Ok);
  EXPECT_EQ(h.state_of(kWestDoor), lower_open);
  EXPECT_EQ(h.state_of(kWestDoorUpper), upper_open);
  EXPECT_EQ(h.block({6, 18, 10}), above);  // the run stops at the door's ends
  EXPECT_EQ(h.block({6, 15, 10}), below);
  EXPECT_EQ(h.block(kEastDoor), east);  // other doors are left alone
  h.w->update();
  EXPECT_EQ(h.kind(kWestDoor), detail::CellKind::DoorOpen);
  EXPECT_EQ(h.w->reachable(h.walker, kAttic, kWestBalcony).answer, ReachAnswer::Yes);
  // Already open: Ok, nothing changes (no edit: the navigation epoch stays).
  const std::uint64_t epoch = h.w->nav_epoch();
  const std::uint64_t runs = h.w->stats().maintenance_runs;
  ASSERT_EQ(h.w->set_door_open(kWestDoor, true), Status::Ok);
  ASSERT_EQ(h.w->set_door_open(kWestDoorUpper, true), Status::Ok);
  h.w->update();
  EXPECT_EQ(h.w->nav_epoch(), epoch);
  EXPECT_EQ(h.w->stats().maintenance_runs, runs);
  EXPECT_EQ(h.state_of(kWestDoor), lower_open);
  // Close through the upper half: both halves flip back.
  ASSERT_EQ(h.w->set_door_open(kWestDoorUpper, false), Status::Ok);
  EXPECT_EQ(h.state_of(kWestDoor), lower_closed);
  EXPECT_EQ(h.state_of(kWestDoorUpper), upper_closed);
  h.w->update();
  EXPECT_EQ(h.kind(kWestDoor), detail::CellKind::DoorClosed);
  EXPECT_EQ(h.w->reachable(h.walker, kAttic, kWestBalcony).reason, ReachReason::DoorGated);
  // Not a door: NotFound, and nothing changes.
  for (CellPos c : {CellPos{10, 15, 10}, kAttic, CellPos{kLadderX, 14, kLadderZ}}) {
    const std::uint16_t v = h.block(c);
    EXPECT_EQ(h.w->set_door_open(c, true), Status::NotFound) << str(c);
    EXPECT_EQ(h.w->set_door_open(c, false), Status::NotFound) << str(c);
    EXPECT_EQ(h.block(c), v) << str(c);
  }
  // Out of range, not loaded.
  EXPECT_EQ(h.w->set_door_open({0, 1 << 12, 0}, true), Status::OutOfRange);
  EXPECT_EQ(h.w->set_door_open({1 << 26, 1, 0}, true), Status::OutOfRange);
  EXPECT_EQ(h.w->set_door_open({100000, 1, 100000}, true), Status::NotLoaded);
  EXPECT_EQ(h.state_of(kWestDoor), lower_closed);
  EXPECT_EQ(h.state_of(kWestDoorUpper), upper_closed);
}

TEST(NavDoors, TakeDoorEventsChecksArgumentsAndKeepsWhatDoesNotFit) {
  House h;
  ASSERT_TRUE(h.w);
  std::size_t n = 7;
  EXPECT_EQ(h.w->take_door_events(nullptr, 0, &n), Status::Ok);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(h.w->take_door_events(nullptr, 0, nullptr), Status::InvalidArgument);
  EXPECT_EQ(h.w->take_door_events(nullptr, 4, &n), Status::InvalidArgument);
  // Two openers, one for each attic door: two events.
  const AgentId a = h.agent(h.opener, kAttic);
  const AgentId b = h.agent(h.opener, {10, 16, 9});
  ASSERT_EQ(h.w->set_agent_goal(a, kWestBalcony), Status::Ok);
  ASSERT_EQ(h.w->set_agent_goal(b, {15, 16, 9}), Status::Ok);
  for (int t = 0; t < 200 && h.w->pending_door_events() < 2; ++t) h.tick();
  ASSERT_EQ(h.w->pending_door_events(), 2u);
  DoorEvent one[1];
  ASSERT_EQ(h.w->take_door_events(one, 1, &n), Status::Ok);
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(h.w->pending_door_events(), 1u);
  DoorEvent rest[4];
  ASSERT_EQ(h.w->take_door_events(rest, 4, &n), Status::Ok);
  ASSERT_EQ(n, 1u);
  EXPECT_EQ(h.w->pending_door_events(), 0u);
  std::vector<CellPos> doors{one[0].door, rest[0].door};
  std::sort(doors.begin(), doors.end(), [](CellPos p, CellPos q) { return p.x < q.x; });
  EXPECT_EQ(doors[0], kWestDoor);
  EXPECT_EQ(doors[1], kEastDoor);
  EXPECT_LE(one[0].tick, rest[0].tick);
}

}  // namespace
}  // namespace voxnav
