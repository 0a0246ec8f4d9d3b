// Agents on the real 1.16 region (data/worlds/r.0.-1.mca): 20 walkers with goals in their own
// island (Islands::component) over 600 ticks of World::tick(0.05): at least 90% arrive, positions
// stay inside loaded chunks, the threaded executor (ThreadPool(2)) and no executor give identical
// positions bit for bit; a pillar on the corridor ahead makes an agent replan and still arrive; an
// agent whose goal becomes unreachable ends Failed with a reason, never silently idle.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "splitmix.h"
#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {


const std::string& kRegion = test::repo_region();
const std::string kBlocks = std::string(VOXNAV_FIXTURES) + "/../../data/blocks";

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

using Rng = voxnav::tools::SplitMix64;

std::string str(const CellPos& c) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "(%d,%d,%d)", c.x, c.y, c.z);
  return buf;
}

struct RegionWorld {
  std::unique_ptr<World> world;
  ProfileId pid;
  std::uint16_t stone = 0;
};

RegionWorld load(const WorldDef& def = {}) {
  RegionWorld r;
  r.world = std::make_unique<World>(def);
  std::string msg;
  EXPECT_EQ(native::load_minecraft_blocks_dir(*r.world, kBlocks, &msg), Status::Ok) << msg;
  LoadReport rep;
  EXPECT_EQ(native::load_world_file(*r.world, kRegion, LoadOptions{}, &rep), Status::Ok)
      << rep.message;
  EXPECT_EQ(r.world->add_profile(Profile{}, &r.pid), Status::Ok);
  EXPECT_EQ(r.world->block_value("stone", &r.stone), Status::Ok);
  r.world->update();
  return r;
}

struct Trip {
  CellPos start, goal;
};

/// `n` deterministic trips: a start in an island of at least 300 cells and a goal in the same
/// island (so each can reach the other), 10..40 cells apart horizontally.
std::vector<Trip> pick_trips(World& w, int n, std::uint64_t seed) {
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  const detail::NavGrid& g = nav.grid();
  auto [all, by_island] = test::standable_by_island(w);
  Rng rng(seed);
  std::vector<Trip> trips;
  for (int tries = 0; tries < 200000 && static_cast<int>(trips.size()) < n; ++tries) {
    const CellPos s = all[rng.below(static_cast<std::uint32_t>(all.size()))];
    const std::vector<CellPos>& island = by_island[nav.islands().component(g, s)];
    if (island.size() < 300) continue;
    const CellPos t = island[rng.below(static_cast<std::uint32_t>(island.size()))];
    const int d = std::max(std::abs(t.x - s.x), std::abs(t.z - s.z));
    if (d < 10 || d > 40) continue;
    bool clash = false;  // keep starts apart so bodies do not begin inside each other
    for (const Trip& o : trips)
      clash = clash || (std::abs(o.start.x - s.x) < 2 && std::abs(o.start.z - s.z) < 2 && std::abs(o.start.y - s.y) < 3);
    if (clash) continue;
    trips.push_back(Trip{CellPos{s.x, s.y, s.z}, CellPos{t.x, t.y, t.z}});
  }
  return trips;
}

Vec3 feet_of(World& w, ProfileId pid, CellPos c) {
  double y = 0;
  EXPECT_EQ(w.standing_height(pid, c, &y), Status::Ok) << str(c);
  return Vec3{c.x + 0.5, y, c.z + 0.5};
}

struct RunResult {
  std::vector<double> trace;  ///< feet x, y, z of every agent after every tick
  std::vector<AgentState> final;
  std::vector<std::string> reasons;
  std::size_t outside_loaded = 0;
  double seconds = 0;
};

RunResult run(RegionWorld& rw, const std::vector<Trip>& trips, int ticks) {
  RunResult r;
  World& w = *rw.world;
  const detail::Space& space = detail::WorldAccess::state(w).space;
  std::vector<AgentId> ids;
  for (const Trip& t : trips) {
    AgentId id;
    EXPECT_EQ(w.add_agent(AgentDef{rw.pid, feet_of(w, rw.pid, t.start)}, &id), Status::Ok);
    EXPECT_EQ(w.set_agent_goal(id, t.goal), Status::Ok);
    ids.push_back(id);
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < ticks; ++k) {
    EXPECT_EQ(w.tick(0.05), Status::Ok);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      AgentState s;
      EXPECT_EQ(w.agent_state(ids[i], &s), Status::Ok);
      r.trace.push_back(s.feet.x);
      r.trace.push_back(s.feet.y);
      r.trace.push_back(s.feet.z);
      const CellPos c{static_cast<std::int32_t>(std::floor(s.feet.x)), static_cast<std::int32_t>(std::floor(s.feet.y)),
                   static_cast<std::int32_t>(std::floor(s.feet.z))};
      if (!std::isfinite(s.feet.x) || !std::isfinite(s.feet.y) || !std::isfinite(s.feet.z) ||
          !space.is_cell_loaded(c)) {
        if (r.outside_loaded++ < 5)
          ADD_FAILURE() << "agent " << i << " at tick " << k << " is outside the loaded chunks: (" << s.feet.x << ", "
                        << s.feet.y << ", " << s.feet.z << ")";
      }
      EXPECT_NE(s.mode, AgentMode::Idle) << "agent " << i << " idle at tick " << k << " with a goal";
    }
  }
  r.seconds = seconds_since(t0);
  for (const AgentId& id : ids) {
    AgentState s;
    EXPECT_EQ(w.agent_state(id, &s), Status::Ok);
    r.final.push_back(s);
    std::string why;
    EXPECT_EQ(w.agent_reason(id, &why), Status::Ok);
    r.reasons.push_back(why);
  }
  return r;
}

TEST(NavAgents, TwentyAgentsArriveDeterministicallyWithAndWithoutThreads) {
  auto t0 = std::chrono::steady_clock::now();
  RegionWorld plain = load();
  const double load_s = seconds_since(t0);
  const std::vector<Trip> trips = pick_trips(*plain.world, 20, 0xA6E27u);
  ASSERT_EQ(trips.size(), 20u);
  for (const Trip& t : trips)
    ASSERT_EQ(plain.world->reachable(plain.pid, t.start, t.goal).answer, ReachAnswer::Yes) << str(t.start);
  const RunResult a = run(plain, trips, 600);

  native::ThreadPool pool(2);  // outlives the world below
  RegionWorld threaded = load(WorldDef{&pool, 0});
  const RunResult b = run(threaded, trips, 600);

  int arrived = 0;
  std::uint32_t replans = 0, requests = 0;
  for (std::size_t i = 0; i < a.final.size(); ++i) {
    const AgentState& s = a.final[i];
    arrived += s.arrivals > 0;
    replans += s.replans;
    requests += s.requests;
    if (s.arrivals == 0)
      std::printf("  agent %zu %s -> %s: %s after %u requests, %u replans, at (%.2f, %.2f, %.2f): %s\n", i,
                  str(trips[i].start).c_str(), str(trips[i].goal).c_str(), agent_mode_name(s.mode), s.requests,
                  s.replans, s.feet.x, s.feet.y, s.feet.z, a.reasons[i].c_str());
    if (s.mode == AgentMode::Failed || s.mode == AgentMode::Blocked) {
      EXPECT_FALSE(a.reasons[i].empty()) << "agent " << i << " is " << agent_mode_name(s.mode) << " without a reason";
    }
  }
  EXPECT_GE(arrived, 18) << "at least 90% of the agents arrive";
  EXPECT_EQ(a.outside_loaded, 0u);
  EXPECT_EQ(b.outside_loaded, 0u);
  ASSERT_EQ(a.trace.size(), b.trace.size());
  std::size_t first_diff = a.trace.size();
  for (std::size_t i = 0; i < a.trace.size() && first_diff == a.trace.size(); ++i)
    if (std::memcmp(&a.trace[i], &b.trace[i], sizeof(double)) != 0) first_diff = i;
  EXPECT_EQ(first_diff, a.trace.size()) << "positions differ first at tick " << first_diff / 60 << ", agent "
                                        << (first_diff % 60) / 3;
  for (std::size_t i = 0; i < a.final.size(); ++i) {
    EXPECT_EQ(a.final[i].mode, b.final[i].mode) << i;
    EXPECT_EQ(a.final[i].arrivals, b.final[i].arrivals) << i;
    EXPECT_EQ(a.final[i].replans, b.final[i].replans) << i;
  }
  std::printf("20 agents x 600 ticks: %d arrived, %u requests, %u replans; load %.2f s, run %.2f s (no executor) / "
              "%.2f s (ThreadPool(2)); traces %s\n",
              arrived, requests, replans, load_s, a.seconds, b.seconds,
              first_diff == a.trace.size() ? "identical" : "DIFFER");
}

/// Ticks until the agent is Moving with at least `ahead` corridor cells left, or `max` ticks.
bool wait_moving(World& w, AgentId id, std::size_t ahead, int max) {
  for (int k = 0; k < max; ++k) {
    EXPECT_EQ(w.tick(0.05), Status::Ok);
    const detail::AgentRecord* a = detail::WorldAccess::state(w).agents.get(AgentId{id.index, id.generation});
    if (a && a->mode == AgentMode::Moving && a->corridor.cells.size() > a->cell_index + ahead) return true;
  }
  return false;
}

/// A 1x3x1 stone pillar on a corridor cell 5 cells ahead of a moving agent: the next tick replans
/// (AgentState::replans grows) and the agent still arrives. With `host_update`, the host calls
/// World::update() between the edit and the tick (as it may, e.g. to ask reachable() about the
/// edited world): the agent must not miss the edit because that update consumed it.
void pillar_case(bool host_update) {
  RegionWorld rw = load();
  World& w = *rw.world;
  const std::vector<Trip> trips = pick_trips(w, 20, 0xB10CCu);
  ASSERT_FALSE(trips.empty());
  int tested = 0;
  for (const Trip& t : trips) {
    if (tested >= 3) break;
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{rw.pid, feet_of(w, rw.pid, t.start)}, &id), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, t.goal), Status::Ok);
    if (!wait_moving(w, id, 10, 40)) {
      (void)w.remove_agent(id);
      continue;
    }
    const detail::AgentRecord* a = detail::WorldAccess::state(w).agents.get(AgentId{id.index, id.generation});
    const CellPos c = a->corridor.cells[a->cell_index + 5];
    const CellPos p{c.x, c.y, c.z};
    // Only plain air cells: the pillar must block the corridor, not replace terrain.
    bool clear = true;
    for (int dy = 0; dy <= 2; ++dy) {
      std::uint16_t v = 1;
      clear = clear && w.get_block(CellPos{p.x, p.y + dy, p.z}, &v) == Status::Ok && v == 0;
    }
    AgentState before;
    ASSERT_EQ(w.agent_state(id, &before), Status::Ok);
    if (!clear || p == t.goal) {
      (void)w.remove_agent(id);
      continue;
    }
    ASSERT_EQ(w.set_box(p, CellPos{p.x, p.y + 2, p.z}, rw.stone), Status::Ok);
    if (host_update) w.update();
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    AgentState s;
    ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
    EXPECT_FALSE(w.is_standable(rw.pid, p));
    const CellPos here{static_cast<int>(std::floor(s.feet.x)), static_cast<int>(std::floor(s.feet.y + 1e-3)),
                       static_cast<int>(std::floor(s.feet.z))};
    if (w.reachable(rw.pid, here, t.goal).answer != ReachAnswer::Yes) {  // the pillar cut the only way
      (void)w.remove_agent(id);
      ASSERT_EQ(w.set_box(p, CellPos{p.x, p.y + 2, p.z}, 0), Status::Ok);
      continue;
    }
    EXPECT_GT(s.replans + s.repairs, before.replans + before.repairs)
        << "a pillar on the corridor at " << str(p) << " must cause a local repair or a replan";
    if (s.repairs > before.repairs) {  // spliced at once: the corridor ahead avoids the pillar
      EXPECT_NE(s.corridor_epoch, before.corridor_epoch);
      for (const CellPos& cc : a->corridor.cells) EXPECT_FALSE(cc.x == p.x && cc.z == p.z && cc.y >= p.y && cc.y <= p.y + 2);
    }
    int k = 0;
    for (; k < 600 && s.arrivals == 0; ++k) {
      ASSERT_EQ(w.tick(0.05), Status::Ok);
      ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
      ASSERT_NE(s.mode, AgentMode::Idle);
    }
    std::string why;
    ASSERT_EQ(w.agent_reason(id, &why), Status::Ok);
    EXPECT_EQ(s.mode, AgentMode::Arrived) << str(t.start) << " -> " << str(t.goal) << " after a pillar at " << str(p)
                                          << ": " << agent_mode_name(s.mode) << " " << why;
    std::printf("pillar at %s on the corridor %s -> %s%s: %u repairs, %u replans, %s after %d more ticks\n",
                str(p).c_str(), str(t.start).c_str(), str(t.goal).c_str(), host_update ? " (host update first)" : "",
                s.repairs, s.replans, agent_mode_name(s.mode), k);
    ++tested;
    (void)w.remove_agent(id);
  }
  EXPECT_GE(tested, 2) << "too few usable corridors for the pillar test";
}

TEST(NavAgents, PillarOnTheCorridorAheadCausesReplanAndArrival) { pillar_case(false); }

TEST(NavAgents, PillarSeenEvenWhenTheHostUpdatesBeforeTheTick) { pillar_case(true); }

// Blocked is a state, not an end: an agent held in place (here the test puts its body back every
// tick, as another creature or the game pushing it would) goes through the recovery (jump, back
// off, sidestep, replan) and is reported Blocked with a reason, never standing still in silence;
// once released it plans again by itself within kBlockedRetryTicks and arrives.
TEST(NavAgents, HeldAgentIsBlockedWithAReasonThenRecoversWhenReleased) {
  RegionWorld rw = load();
  World& w = *rw.world;
  const std::vector<Trip> trips = pick_trips(w, 20, 0xB10C3Du);
  int tested = 0;
  for (const Trip& t : trips) {
    if (tested >= 2) break;
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{rw.pid, feet_of(w, rw.pid, t.start)}, &id), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, t.goal), Status::Ok);
    if (!wait_moving(w, id, 10, 20)) {
      (void)w.remove_agent(id);
      continue;
    }
    detail::AgentRecord* a = detail::WorldAccess::state(w).agents.get(AgentId{id.index, id.generation});
    ASSERT_NE(a, nullptr);
    const Vec3 held = a->body.feet;
    AgentState s;
    int k = 0;
    for (; k < 600; ++k) {
      a->body.feet = held;  // held in place
      a->body.velocity = Vec3{};
      ASSERT_EQ(w.tick(0.05), Status::Ok);
      ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
      ASSERT_NE(s.mode, AgentMode::Idle) << "silently idle while held, tick " << k;
      if (s.mode == AgentMode::Blocked) break;
    }
    std::string why;
    ASSERT_EQ(w.agent_reason(id, &why), Status::Ok);
    ASSERT_EQ(s.mode, AgentMode::Blocked) << "held for " << k << " ticks: " << agent_mode_name(s.mode);
    EXPECT_NE(why.find("no progress"), std::string::npos) << why;
    EXPECT_GE(s.replans, static_cast<std::uint32_t>(detail::AgentSystem::kMaxReplansInRow)) << "no recovery replans";
    // Released: within kBlockedRetryTicks it plans again, then it arrives.
    int j = 0;
    for (; j < 1200 && s.arrivals == 0; ++j) {
      ASSERT_EQ(w.tick(0.05), Status::Ok);
      ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
      if (j == detail::AgentSystem::kBlockedRetryTicks + 1) {
        EXPECT_NE(s.mode, AgentMode::Blocked) << "still Blocked after the retry period";
      }
    }
    EXPECT_EQ(s.mode, AgentMode::Arrived) << agent_mode_name(s.mode);
    std::printf("held at %s: Blocked after %d ticks (%s); released, arrived after %d more ticks\n",
                str(t.start).c_str(), k, why.c_str(), j);
    ++tested;
    (void)w.remove_agent(id);
  }
  EXPECT_GE(tested, 2);
}

TEST(NavAgents, GoalMadeUnreachableEndsFailedWithReason) {
  RegionWorld rw = load();
  World& w = *rw.world;
  const std::vector<Trip> trips = pick_trips(w, 20, 0xCA6Eu);
  int tested = 0;
  for (const Trip& t : trips) {
    if (tested >= 2) break;
    const int d = std::max(std::abs(t.goal.x - t.start.x), std::abs(t.goal.z - t.start.z));
    if (d < 15) continue;
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{rw.pid, feet_of(w, rw.pid, t.start)}, &id), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, t.goal), Status::Ok);
    if (!wait_moving(w, id, 10, 20)) {
      (void)w.remove_agent(id);
      continue;
    }
    // Cage the goal: stone all around and above it, its own two cells left open.
    const CellPos g = t.goal;
    ASSERT_EQ(w.set_box(CellPos{g.x - 1, g.y, g.z - 1}, CellPos{g.x + 1, g.y + 2, g.z + 1}, rw.stone), Status::Ok);
    ASSERT_EQ(w.set_box(g, CellPos{g.x, g.y + 1, g.z}, 0), Status::Ok);
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    AgentState s;
    ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
    const CellPos here{static_cast<int>(std::floor(s.feet.x)), static_cast<int>(std::floor(s.feet.y + 1e-3)),
                       static_cast<int>(std::floor(s.feet.z))};
    const Reach r = w.reachable(rw.pid, here, g);
    EXPECT_NE(r.answer, ReachAnswer::Yes) << "the caged goal " << str(g) << " is still reachable";
    int k = 0;
    for (; k < 400 && s.mode != AgentMode::Failed; ++k) {
      ASSERT_EQ(w.tick(0.05), Status::Ok);
      ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
      ASSERT_NE(s.mode, AgentMode::Idle) << "silently idle at tick " << k;
      ASSERT_NE(s.mode, AgentMode::Arrived) << "arrived at a caged goal";
    }
    std::string why;
    ASSERT_EQ(w.agent_reason(id, &why), Status::Ok);
    EXPECT_EQ(s.mode, AgentMode::Failed) << "after " << k << " ticks: " << agent_mode_name(s.mode) << " " << why;
    EXPECT_NE(s.failure, PathFailure::None);
    EXPECT_FALSE(why.empty()) << "a Failed agent needs a reason";
    EXPECT_LE(k, 5) << "the edit touched the corridor: the agent should find out at once, not by getting stuck";
    std::printf("caged goal %s (reachable: %s): agent %s after %d ticks, failure %s, reason \"%s\"\n", str(g).c_str(),
                reach_answer_name(r.answer), agent_mode_name(s.mode), k, path_failure_name(s.failure), why.c_str());
    // It stays Failed (with its reason) while nothing changes.
    for (int j = 0; j < 40; ++j) ASSERT_EQ(w.tick(0.05), Status::Ok);
    ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
    EXPECT_EQ(s.mode, AgentMode::Failed);
    ++tested;
    (void)w.remove_agent(id);
  }
  EXPECT_GE(tested, 1);

  // A goal in another island from the start: Failed(Unreachable) at once, with a reason.
  const detail::NavGrid& grid = detail::WorldAccess::state(w).walker()->grid();
  const Trip& t = trips.front();
  CellPos other{};
  bool found = false;
  for (const detail::NavChunk* ch : grid.ordered_chunks()) {
    if (ch->uniform || found) continue;
    for (int i = 0; i < detail::kChunkCells && !found; ++i) {
      if (!detail::kind_standable(ch->kind_at(i))) continue;
      const CellPos c = detail::cell_of(ch, i);
      if (w.reachable(rw.pid, t.start, CellPos{c.x, c.y, c.z}).answer == ReachAnswer::No) {
        other = CellPos{c.x, c.y, c.z};
        found = true;
      }
    }
  }
  ASSERT_TRUE(found);
  AgentId id;
  ASSERT_EQ(w.add_agent(AgentDef{rw.pid, feet_of(w, rw.pid, t.start)}, &id), Status::Ok);
  ASSERT_EQ(w.set_agent_goal(id, other), Status::Ok);
  AgentState s;
  for (int k = 0; k < 3; ++k) ASSERT_EQ(w.tick(0.05), Status::Ok);
  ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
  std::string why;
  ASSERT_EQ(w.agent_reason(id, &why), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Failed);
  EXPECT_EQ(s.failure, PathFailure::Unreachable);
  EXPECT_NE(why.find("unreachable"), std::string::npos) << why;
}

}  // namespace
}  // namespace voxnav
