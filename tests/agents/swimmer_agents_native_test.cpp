// Swimming agents on a real region (1.16 r.0.-1.mca, its sea and rivers: the water cells of
// tests/classify/swimmer_native_test.cpp). Swimmers follow the swimmer navigation with the movement
// step's Swim mode: agents sent across the water all arrive within a budget derived from the route
// length and the swim speed, and at every tick every cell a swimmer's body overlaps is open water
// (so the body is in the fluid, never lifted out of it at the surface, never across a shore); a
// stone dropped on a swimmer's corridor is repaired or replanned around and the agent still
// arrives; a goal walled in fails the agent with Unreachable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

const std::string kRegion = std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/1.16/r.0.-1.mca";
constexpr double kDt = 0.05;
constexpr double kSwimSpeed = 2.0;

/// The swimmer class's own test of a cell: a swimmable fluid with no collision in its footprint.
bool open_water(const World& w, int x, int y, int z) {
  std::uint16_t v = 0;
  if (w.get_block({x, y, z}, &v) != Status::Ok) return false;
  const detail::BlockRegistry& reg = detail::WorldAccess::state(w).registry;
  return (reg.traits(v) & detail::kTraitFluidSwim) && reg.top_in_footprint(v, 32) < 0;
}

/// Checks the body of a swimmer at `feet` (width x height): every cell it overlaps (beyond the
/// integrator's contact tolerance) is open water. Adds the cells looked at to `*cells`.
bool body_in_water(const World& w, const Vec3& feet, double width, double height,
                   std::size_t* cells, std::string* where) {
  constexpr double kEps = 1e-7;
  const double hw = width * 0.5;
  const int x0 = static_cast<int>(std::floor(feet.x - hw + kEps));
  const int x1 = static_cast<int>(std::floor(feet.x + hw - kEps));
  const int y0 = static_cast<int>(std::floor(feet.y + kEps));
  const int y1 = static_cast<int>(std::floor(feet.y + height - kEps));
  const int z0 = static_cast<int>(std::floor(feet.z - hw + kEps));
  const int z1 = static_cast<int>(std::floor(feet.z + hw - kEps));
  for (int y = y0; y <= y1; ++y)
    for (int z = z0; z <= z1; ++z)
      for (int x = x0; x <= x1; ++x) {
        ++*cells;
        if (!open_water(w, x, y, z)) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "feet (%.6f, %.6f, %.6f) overlap (%d,%d,%d), not water",
                        feet.x, feet.y, feet.z, x, y, z);
          *where = buf;
          return false;
        }
      }
  return true;
}

struct SwimWorld {
  std::unique_ptr<World> world;
  ProfileId walker, fish;
  std::vector<CellPos> water;  ///< swimmer nodes, in chunk order
  std::uint16_t stone = 0, water_value = 0;
};

SwimWorld load() {
  SwimWorld s;
  s.world = test::load_region(kRegion, &s.walker);
  if (!s.world) return s;
  Profile fish;
  fish.id = "fish";
  fish.movement_class = MovementClass::Swimmer;
  fish.width = 0.98;  // the whole class envelope: the tightest fit in one-cell channels
  fish.height = 0.98;
  fish.can_swim = true;
  fish.swim_speed = kSwimSpeed;
  fish.step_height = 0;
  fish.jump_apex = 0;
  fish.max_drop = 0;
  std::string err;
  EXPECT_EQ(s.world->add_profile(fish, &s.fish, &err), Status::Ok) << err;
  EXPECT_EQ(s.world->block_value("stone", &s.stone), Status::Ok);
  EXPECT_EQ(s.world->block_value("water", &s.water_value), Status::Ok);
  const detail::NavGrid& g = detail::WorldAccess::state(*s.world).nav_of(MovementClass::Swimmer)->grid();
  for (const detail::NavChunk* ch : g.ordered_chunks())
    if (!ch->uniform)
      for (int i = 0; i < detail::kChunkCells; ++i)
        if (detail::kind_node(ch->kind_at(i))) s.water.push_back(detail::cell_of(ch, i));
  return s;
}

CellPos pos(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }
Vec3 centre(const CellPos& c) { return Vec3{c.x + 0.5, static_cast<double>(c.y), c.z + 0.5}; }
std::string str(const CellPos& c) { return test::str(CellPos{c.x, c.y, c.z}); }

struct Trip {
  CellPos start, goal;
  double length = 0;      ///< route length in cells (1 per straight move, sqrt 2 per diagonal)
  std::size_t turns = 0;  ///< cells where the route changes direction
  int budget = 0;         ///< ticks allowed to arrive
};

/// The route of a swimmer from a to b (find_path_now), its length and turns, and the tick budget:
/// the route at swim speed, one tick per turn (the body lands on each turn), and 10 ticks for the
/// request and the last approach.
bool measure(World& w, ProfileId fish, Trip& t) {
  NavRequest q;
  q.profile = fish;
  q.start = t.start;
  q.goal = t.goal;
  PathResult r;
  if (w.find_path_now(q, &r) != Status::Ok || r.status.state != PathState::Ready) return false;
  t.length = 0;
  t.turns = 0;
  for (std::size_t i = 1; i < r.cells.size(); ++i) {
    const CellPos a = r.cells[i - 1].cell, b = r.cells[i].cell;
    const int n = (a.x != b.x) + (a.y != b.y) + (a.z != b.z);
    t.length += n == 2 ? std::sqrt(2.0) : 1.0;
    if (i + 1 < r.cells.size()) {
      const CellPos c = r.cells[i + 1].cell;
      if (c.x - b.x != b.x - a.x || c.y - b.y != b.y - a.y || c.z - b.z != b.z - a.z) ++t.turns;
    }
  }
  t.budget =
      static_cast<int>(std::ceil(t.length / (kSwimSpeed * kDt))) + static_cast<int>(t.turns) + 10;
  return true;
}

/// Pairs of water cells the swimmer reaches (reachability Yes), at least `min_dist` apart, with
/// distinct starts.
std::vector<Trip> pick_trips(SwimWorld& s, std::size_t n, std::uint64_t seed, int min_dist) {
  tools::SplitMix64 rng{seed};
  std::vector<Trip> trips;
  const auto size = static_cast<std::uint32_t>(s.water.size());
  for (int k = 0; k < 4000 && trips.size() < n; ++k) {
    const CellPos a = s.water[rng.below(size)], b = s.water[rng.below(size)];
    const int d = std::max({std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)});
    if (d < min_dist || d > 40) continue;
    bool used = false;
    for (const Trip& t : trips) used = used || t.start == pos(a);
    if (used) continue;
    if (s.world->reachable(s.fish, pos(a), pos(b)).answer != ReachAnswer::Yes) continue;
    Trip t{pos(a), pos(b)};
    if (measure(*s.world, s.fish, t)) trips.push_back(t);
  }
  return trips;
}

// Sixteen swimmers across the water: all arrive within their budgets, in water every tick.
TEST(SwimmerAgents, SwimAcrossTheWaterAndStayInIt) {
  SwimWorld s = load();
  ASSERT_TRUE(s.world);
  World& w = *s.world;
  ASSERT_EQ(s.water.size(), 6963u) << "the region's water cells (swimmer_native_test)";
  const std::vector<Trip> trips = pick_trips(s, 16, 0x5A1A, 10);
  ASSERT_EQ(trips.size(), 16u);
  std::vector<AgentId> ids(trips.size());
  for (std::size_t i = 0; i < trips.size(); ++i) {
    ASSERT_EQ(w.add_agent(AgentDef{s.fish, centre(trips[i].start)}, &ids[i]), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(ids[i], trips[i].goal), Status::Ok);
  }
  const int limit = std::max_element(trips.begin(), trips.end(), [](const Trip& a, const Trip& b) {
                      return a.budget < b.budget;
                    })->budget;
  std::vector<int> arrived_at(trips.size(), -1);
  std::size_t cells = 0, body_checks = 0;
  double max_y_speed = 0;
  std::size_t at_surface = 0;
  for (int tick = 1; tick <= limit; ++tick) {
    ASSERT_EQ(w.tick(kDt), Status::Ok);
    for (std::size_t i = 0; i < trips.size(); ++i) {
      AgentState st;
      ASSERT_EQ(w.agent_state(ids[i], &st), Status::Ok);
      std::string where;
      ++body_checks;
      ASSERT_TRUE(body_in_water(w, st.feet, 0.98, 0.98, &cells, &where))
          << "agent " << i << " " << str(trips[i].start) << " -> " << str(trips[i].goal)
          << " at tick " << tick << ": " << where;
      ASSERT_NE(st.mode, AgentMode::Failed) << "agent " << i;
      ASSERT_NE(st.mode, AgentMode::Blocked) << "agent " << i;
      max_y_speed = std::max(max_y_speed, std::fabs(st.velocity.y));
      // At the surface: the cell above the body is not water (air over the sea).
      const int top = static_cast<int>(std::floor(st.feet.y + 0.98 - 1e-7));
      if (!open_water(w, static_cast<int>(std::floor(st.feet.x)), top + 1,
                      static_cast<int>(std::floor(st.feet.z))))
        ++at_surface;
      if (st.mode == AgentMode::Arrived && arrived_at[i] < 0) arrived_at[i] = tick;
    }
    if (std::count(arrived_at.begin(), arrived_at.end(), -1) == 0) break;
  }
  int total = 0, budgets = 0;
  double length = 0, worst = 0;
  for (std::size_t i = 0; i < trips.size(); ++i) {
    EXPECT_GE(arrived_at[i], 0) << "agent " << i << " " << str(trips[i].start) << " -> "
                                << str(trips[i].goal) << " did not arrive within "
                                << trips[i].budget << " ticks";
    EXPECT_LE(arrived_at[i], trips[i].budget) << "agent " << i;
    AgentState st;
    ASSERT_EQ(w.agent_state(ids[i], &st), Status::Ok);
    // Arrived within the arrive radius of the goal's centre, at its depth.
    const Vec3 g = centre(trips[i].goal);
    const double d =
        std::sqrt((st.feet.x - g.x) * (st.feet.x - g.x) + (st.feet.y - g.y) * (st.feet.y - g.y) +
                  (st.feet.z - g.z) * (st.feet.z - g.z));
    EXPECT_LE(d, 0.5 + 1e-9) << "agent " << i;
    EXPECT_EQ(st.replans, 0u) << "agent " << i;
    total += arrived_at[i];
    budgets += trips[i].budget;
    worst = std::max(worst, static_cast<double>(arrived_at[i]) / trips[i].budget);
    length += trips[i].length;
  }
  EXPECT_LE(max_y_speed, kSwimSpeed + 1e-9) << "never faster than the swim speed, never falling";
  std::printf(
      "%zu swimmers, %.1f cells of routes: arrived after %d ticks in all, budgets %d (the route at "
      "%.1f m/s + a tick per turn + 10; the slowest used %.0f %% of its budget); %zu body "
      "checks (%zu at the surface), %zu cells checked, all open water\n",
      trips.size(), length, total, budgets, kSwimSpeed, 100 * worst, body_checks, at_surface,
      cells);
  EXPECT_GT(at_surface, 0u) << "some routes should run in the top layer of the water";
  // Arrived swimmers hold still in the water (no input: no sinking, no rising).
  std::vector<Vec3> at(trips.size());
  for (std::size_t i = 0; i < trips.size(); ++i) {
    AgentState st;
    ASSERT_EQ(w.agent_state(ids[i], &st), Status::Ok);
    at[i] = st.feet;
  }
  for (int k = 0; k < 40; ++k) ASSERT_EQ(w.tick(kDt), Status::Ok);
  for (std::size_t i = 0; i < trips.size(); ++i) {
    AgentState st;
    ASSERT_EQ(w.agent_state(ids[i], &st), Status::Ok);
    EXPECT_EQ(st.feet.x, at[i].x);
    EXPECT_EQ(st.feet.y, at[i].y);
    EXPECT_EQ(st.feet.z, at[i].z);
  }
}

// A stone dropped into the water on a swimmer's corridor a few cells ahead: the corridor is
// repaired or replanned at once, never passes the stone, and the swimmer still arrives, in water
// all the way.
TEST(SwimmerAgents, StoneOnTheCorridorIsSwumAround) {
  SwimWorld s = load();
  ASSERT_TRUE(s.world);
  World& w = *s.world;
  const std::vector<Trip> trips = pick_trips(s, 30, 0xB0A7, 12);
  int tested = 0;
  std::uint32_t repairs = 0, replans = 0;
  for (const Trip& t : trips) {
    if (tested >= 4) break;
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{s.fish, centre(t.start)}, &id), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, t.goal), Status::Ok);
    AgentState st;
    for (int k = 0; k < 20; ++k) ASSERT_EQ(w.tick(kDt), Status::Ok);
    ASSERT_EQ(w.agent_state(id, &st), Status::Ok);
    const detail::AgentRecord* a =
        detail::WorldAccess::state(w).agents.get(AgentId{id.index, id.generation});
    ASSERT_NE(a, nullptr);
    if (st.mode != AgentMode::Moving || a->cell_index + 6 >= a->corridor.cells.size()) {
      (void)w.remove_agent(id);
      continue;
    }
    const CellPos c = a->corridor.cells[a->cell_index + 4];
    const CellPos p = pos(c);
    ASSERT_EQ(w.set_block(p, s.stone), Status::Ok);
    AgentState before = st;
    ASSERT_EQ(w.tick(kDt), Status::Ok);
    ASSERT_EQ(w.agent_state(id, &st), Status::Ok);
    const CellPos here{static_cast<int>(std::floor(st.feet.x)),
                       static_cast<int>(std::floor(st.feet.y + 1e-3)),
                       static_cast<int>(std::floor(st.feet.z))};
    if (w.reachable(s.fish, here, t.goal).answer != ReachAnswer::Yes) {  // the only way
      (void)w.remove_agent(id);
      ASSERT_EQ(w.set_block(p, s.water_value), Status::Ok);
      w.update();
      continue;
    }
    EXPECT_GT(st.replans + st.repairs, before.replans + before.repairs)
        << "a stone on the corridor at " << str(p) << " must cause a local repair or a replan";
    EXPECT_NE(st.corridor_epoch, before.corridor_epoch);
    if (st.mode == AgentMode::Moving) {
      for (const CellPos& cc : a->corridor.cells) {
        EXPECT_FALSE(cc == c) << "corridor through the stone";
      }
    }
    std::size_t cells = 0;
    int k = 0;
    for (; k < 2 * t.budget && st.mode != AgentMode::Arrived; ++k) {
      ASSERT_EQ(w.tick(kDt), Status::Ok);
      ASSERT_EQ(w.agent_state(id, &st), Status::Ok);
      std::string where;
      ASSERT_TRUE(body_in_water(w, st.feet, 0.98, 0.98, &cells, &where))
          << str(t.start) << " -> " << str(t.goal) << " after a stone at " << str(p) << ": "
          << where;
      ASSERT_NE(st.mode, AgentMode::Failed);
    }
    EXPECT_EQ(st.mode, AgentMode::Arrived)
        << str(t.start) << " -> " << str(t.goal) << " after a stone at " << str(p);
    std::printf(
        "stone at %s on the corridor %s -> %s: %u repairs, %u replans, arrived %d ticks later "
        "(budget of the whole trip %d); %zu cells checked\n",
        str(p).c_str(), str(t.start).c_str(), str(t.goal).c_str(), st.repairs, st.replans, k,
        t.budget, cells);
    repairs += st.repairs;
    replans += st.replans;
    ++tested;
    (void)w.remove_agent(id);
  }
  std::printf("%d corridors: %u repairs, %u replans in all\n", tested, repairs, replans);
  EXPECT_GE(tested, 3) << "too few usable corridors";
  EXPECT_GT(repairs, 0u) << "at least one stone is swum around by a local repair";
}

// A goal walled in with stone while the swimmer is on its way: Failed with Unreachable at once.
TEST(SwimmerAgents, GoalWalledInFailsUnreachable) {
  SwimWorld s = load();
  ASSERT_TRUE(s.world);
  World& w = *s.world;
  const std::vector<Trip> trips = pick_trips(s, 30, 0xCA6E, 16);
  int tested = 0;
  for (const Trip& t : trips) {
    if (tested >= 2) break;
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{s.fish, centre(t.start)}, &id), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, t.goal), Status::Ok);
    for (int k = 0; k < 10; ++k) ASSERT_EQ(w.tick(kDt), Status::Ok);
    AgentState st;
    ASSERT_EQ(w.agent_state(id, &st), Status::Ok);
    if (st.mode != AgentMode::Moving) {
      (void)w.remove_agent(id);
      continue;
    }
    // Stone on the six faces of the goal cell, the goal itself left as water.
    const CellPos g = t.goal;
    ASSERT_EQ(w.set_box({g.x - 1, g.y - 1, g.z - 1}, {g.x + 1, g.y + 1, g.z + 1}, s.stone),
              Status::Ok);
    ASSERT_EQ(w.set_block(g, s.water_value), Status::Ok);
    ASSERT_EQ(w.tick(kDt), Status::Ok);
    ASSERT_EQ(w.agent_state(id, &st), Status::Ok);
    const CellPos here{static_cast<int>(std::floor(st.feet.x)),
                       static_cast<int>(std::floor(st.feet.y + 1e-3)),
                       static_cast<int>(std::floor(st.feet.z))};
    EXPECT_EQ(w.reachable(s.fish, here, g).answer, ReachAnswer::No);
    int k = 0;
    for (; k < 40 && st.mode != AgentMode::Failed; ++k) {
      ASSERT_EQ(w.tick(kDt), Status::Ok);
      ASSERT_EQ(w.agent_state(id, &st), Status::Ok);
      ASSERT_NE(st.mode, AgentMode::Arrived);
    }
    std::string why;
    ASSERT_EQ(w.agent_reason(id, &why), Status::Ok);
    EXPECT_EQ(st.mode, AgentMode::Failed) << why;
    EXPECT_EQ(st.failure, PathFailure::Unreachable) << why;
    EXPECT_LE(k, 2) << "the edit touched the corridor: the swimmer should know at once";
    std::printf("walled-in goal %s: %s after %d more ticks (%s)\n", str(g).c_str(),
                agent_mode_name(st.mode), k, why.c_str());
    ++tested;
    (void)w.remove_agent(id);
  }
  EXPECT_GE(tested, 1);
}

// The same inputs give the same state hash (positions, velocities, counters, corridors) twice.
TEST(SwimmerAgents, DeterministicStateHash) {
  std::uint64_t hashes[2] = {0, 0};
  for (std::uint64_t& h : hashes) {
    SwimWorld s = load();
    ASSERT_TRUE(s.world);
    World& w = *s.world;
    const std::vector<Trip> trips = pick_trips(s, 6, 0xD0E5, 8);
    ASSERT_EQ(trips.size(), 6u);
    std::vector<AgentId> ids(trips.size());
    for (std::size_t i = 0; i < trips.size(); ++i) {
      ASSERT_EQ(w.add_agent(AgentDef{s.fish, centre(trips[i].start)}, &ids[i]), Status::Ok);
      ASSERT_EQ(w.set_agent_goal(ids[i], trips[i].goal), Status::Ok);
    }
    for (int k = 0; k < 100; ++k) ASSERT_EQ(w.tick(kDt), Status::Ok);
    ASSERT_EQ(state_hash(w, ids, &h), Status::Ok);
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

}  // namespace
}  // namespace voxnav
