// Goals and intents (voxnav/control.h: chase_agent, chase_entity, flee_from, follow_path) on the
// real region shipped in the repository (data/worlds/r.0.-1.mca):
// - a chaser (sprinting) catches a target agent that walks away from it to a goal 20-40 cells
//   off, on 20 seeded pairs: caught means Arrived with its feet within the range of the target's
//   (measured here from the two agents' states), most of them while the target still walks;
// - a removed target stops its chaser: Failed with a reason naming the lost target; it stays put;
// - a fleeing agent ends at least the distance away, and the cell it chose is the cheapest to
//   reach of all cells at least that far: an oracle asks find_path_now (the A* of requests, not
//   the flee's Dijkstra) for the optimal cost from the agent's cell to every standable cell of
//   its island in the shell where the first far-enough cell of any path must lie, and the
//   chosen cell's optimal cost must equal their minimum;
// - an agent told to follow a path handle the host requested walks it and arrives at the
//   request's goal;
// - bad input (non-finite, out of range, a removed target, a path not Ready) is refused with a
//   status naming the argument, and the world's agents hash the same before and after.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct Region {
  std::unique_ptr<World> world;
  ProfileId pid;
  std::vector<CellPos> all;
  std::map<std::uint32_t, std::vector<CellPos>> by_island;
  std::uint32_t island(const CellPos& c) {
    detail::NavWorld& nav = *detail::WorldAccess::state(*world).walker();
    return nav.islands().component(nav.grid(), c);
  }
};

Region load() {
  Region r;
  r.world = test::load_region(test::repo_region(), &r.pid);
  if (!r.world) return r;
  auto [all, by] = test::standable_by_island(*r.world);
  r.all = std::move(all);
  r.by_island = std::move(by);
  return r;
}

Vec3 feet_of(World& w, ProfileId pid, CellPos c) {
  double y = 0;
  EXPECT_EQ(w.standing_height(pid, c, &y), Status::Ok);
  return Vec3{c.x + 0.5, y, c.z + 0.5};
}

AgentState state_of(const World& w, AgentId a) {
  AgentState s;
  EXPECT_EQ(w.agent_state(a, &s), Status::Ok);
  return s;
}

double dist3(const Vec3& a, const Vec3& b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                   (a.z - b.z) * (a.z - b.z));
}

int cheb(const CellPos& a, const CellPos& b) {
  return std::max(std::abs(a.x - b.x), std::abs(a.z - b.z));
}

/// Chase pairs: the target's start and goal (30-50 cells apart), and the chaser's start 4-8
/// cells from the target's start, all on one island of at least 500 cells, pairs far apart.
struct ChasePair {
  CellPos target, goal, chaser;
};

std::vector<ChasePair> pick_pairs(Region& r, int n, std::uint64_t seed) {
  tools::SplitMix64 rng(seed);
  std::vector<ChasePair> out;
  for (int tries = 0; tries < 400000 && static_cast<int>(out.size()) < n; ++tries) {
    const CellPos s = r.all[rng.below(r.all.size())];
    const std::vector<CellPos>& isl = r.by_island[r.island(s)];
    if (isl.size() < 500) continue;
    const CellPos g = isl[rng.below(isl.size())];
    const CellPos c = isl[rng.below(isl.size())];
    const int dg = cheb(s, g), dc = cheb(s, c);
    if (dg < 30 || dg > 50 || dc < 4 || dc > 8) continue;
    // walking away: the goal lies on the far side of the target from the chaser
    if ((g.x - s.x) * (s.x - c.x) + (g.z - s.z) * (s.z - c.z) <= 0) continue;
    bool clash = false;
    for (const ChasePair& o : out) clash = clash || cheb(o.target, s) < 30;
    if (!clash) out.push_back(ChasePair{s, g, c});
  }
  return out;
}

TEST(IntentsRegion, ChaserCatchesATargetWalkingAway) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  const std::vector<ChasePair> pairs = pick_pairs(r, 20, 7);
  ASSERT_EQ(pairs.size(), 20u);
  const double kRange = 1.5;
  std::vector<AgentId> targets, chasers;
  for (const ChasePair& p : pairs) {
    AgentId t, c;
    ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, p.target), p.goal}, &t), Status::Ok);
    ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, p.chaser)}, &c), Status::Ok);
    ASSERT_EQ(set_agent_sprint(w, c, true), Status::Ok);
    ASSERT_EQ(chase_agent(w, c, t, kRange), Status::Ok);
    targets.push_back(t);
    chasers.push_back(c);
  }
  std::vector<int> caught_at(pairs.size(), -1);
  std::vector<bool> target_walking(pairs.size(), false);
  std::vector<double> caught_dist(pairs.size(), 0);
  int direct_ticks = 0, chase_ticks = 0;
  for (int k = 0; k < 600; ++k) {
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const AgentState c = state_of(w, chasers[i]);
      const AgentState t = state_of(w, targets[i]);
      if (c.mode == AgentMode::Moving) {
        ++chase_ticks;
        std::size_t n = 0;
        ASSERT_EQ(w.agent_corridor(chasers[i], nullptr, 0, &n), Status::Ok);
        if (n == 2) ++direct_ticks;
      }
      if (caught_at[i] < 0 && c.mode == AgentMode::Arrived) {
        caught_at[i] = k;
        target_walking[i] = t.mode == AgentMode::Moving;
        caught_dist[i] = dist3(c.feet, t.feet);
        EXPECT_GE(c.arrivals, 1u);
      }
    }
  }
  int caught = 0, while_walking = 0;
  double worst = 0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (caught_at[i] < 0) {
      std::string why;
      (void)w.agent_reason(chasers[i], &why);
      ADD_FAILURE() << "chaser " << i << " from " << test::str(pairs[i].chaser)
                    << " never caught its target from " << test::str(pairs[i].target) << " to "
                    << test::str(pairs[i].goal) << ": mode "
                    << agent_mode_name(state_of(w, chasers[i]).mode) << " " << why;
      continue;
    }
    ++caught;
    while_walking += target_walking[i];
    worst = std::max(worst, caught_dist[i]);
    // Caught is judged at the chaser's step on the positions then; the target may have taken
    // its own step of the tick after it (4.3 m/s * 0.05 s).
    EXPECT_LE(caught_dist[i], kRange + 0.25) << "pair " << i;
  }
  std::printf("chase: %d of %zu caught (%d while the target still walked), worst distance at "
              "the catch %.3f m; %d of %d moving chaser ticks walked straight at the target\n",
              caught, pairs.size(), while_walking, worst, direct_ticks, chase_ticks);
  EXPECT_EQ(caught, 20);
  EXPECT_GE(while_walking, 12);  // 14 when written
  EXPECT_GT(direct_ticks, 0);
  EXPECT_LT(direct_ticks, chase_ticks);  // and followed corridors too
}

// Entity targets standing one block up a step from a neighbouring cell (found by
// tests/web/control.test.mjs: the search counted the chaser's own cell within the goal range of
// the target's cell, so each corridor was that cell alone and it replanned every few steps,
// Planning for ever). A standable target cell is the search's goal itself: every chaser catches.
TEST(IntentsRegion, ChaserCatchesAnEntityOneBlockUp) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  std::vector<std::pair<CellPos, CellPos>> steps{{{150, 67, -146}, {136, 65, -143}}};
  tools::SplitMix64 rng(0x57E9);
  for (int tries = 0; tries < 200000 && steps.size() < 12; ++tries) {
    const CellPos a = r.all[rng.below(r.all.size())];
    const CellPos b{a.x + static_cast<int>(rng.below(3)) - 1, a.y + 1, a.z + static_cast<int>(rng.below(3)) - 1};
    if ((b.x == a.x && b.z == a.z) || !w.is_standable(r.pid, b) || r.island(a) != r.island(b)) continue;
    bool clash = false;
    for (const auto& o : steps) clash = clash || cheb(o.first, a) < 20;
    if (clash) continue;
    for (const CellPos& c : r.by_island[r.island(a)])  // the chaser 4-6 cells away
      if (cheb(c, b) >= 4 && cheb(c, b) <= 6 && std::abs(c.y - b.y) <= 2) {
        steps.push_back({c, b});
        break;
      }
  }
  ASSERT_GE(steps.size(), 6u);
  int caught = 0, tried = 0;
  for (const auto& [from, to] : steps) {
    if (!w.is_standable(r.pid, from) || r.island(from) != r.island(to)) continue;
    ++tried;
    AgentId c;
    EntityId e;
    ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, from)}, &c), Status::Ok);
    ASSERT_EQ(add_entity(w, feet_of(w, r.pid, to), &e), Status::Ok);
    ASSERT_EQ(chase_entity(w, c, e, 1.5), Status::Ok);
    AgentState s;
    for (int k = 0; k < 400 && (s = state_of(w, c)).mode != AgentMode::Arrived; ++k)
      ASSERT_EQ(w.tick(0.05), Status::Ok);
    const double d = dist3(s.feet, feet_of(w, r.pid, to));
    EXPECT_EQ(s.mode, AgentMode::Arrived) << test::str(from) << " -> entity at " << test::str(to) << ": "
                                          << d << " m away, " << s.replans << " replans";
    if (s.mode == AgentMode::Arrived) {
      EXPECT_LE(d, 1.5 + 1e-9);
      ++caught;
    }
    ASSERT_EQ(w.remove_agent(c), Status::Ok);
    ASSERT_EQ(remove_entity(w, e), Status::Ok);
  }
  std::printf("%d of %d chasers caught an entity one block up a step\n", caught, tried);
  EXPECT_GE(tried, 6);
}

// An entity floating out of reach (a metre above a standable cell, range 0.9 m): the search's
// goal is any node next to the entity's cell, the chaser gets there and is held Blocked with a
// reason, replanning only at the blocked retry, not every step; once the entity comes down to
// the ground, it is caught.
TEST(IntentsRegion, ChaserHeldBlockedBelowAnEntityOutOfReach) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  const std::vector<ChasePair> pairs = pick_pairs(r, 1, 11);
  ASSERT_EQ(pairs.size(), 1u);
  const CellPos under = pairs[0].target;
  AgentId c;
  EntityId e;
  ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, pairs[0].chaser)}, &c), Status::Ok);
  const Vec3 ground = feet_of(w, r.pid, under);
  ASSERT_EQ(add_entity(w, Vec3{ground.x, ground.y + 1.0, ground.z}, &e), Status::Ok);
  ASSERT_EQ(chase_entity(w, c, e, 0.9), Status::Ok);
  for (int k = 0; k < 1500 && state_of(w, c).mode != AgentMode::Blocked; ++k)
    ASSERT_EQ(w.tick(0.05), Status::Ok);  // (the route climbs around: about 40 s)
  const AgentState held = state_of(w, c);
  EXPECT_EQ(held.mode, AgentMode::Blocked);
  std::string why;
  ASSERT_EQ(w.agent_reason(c, &why), Status::Ok);
  EXPECT_NE(why.find("can get no closer to its chase target"), std::string::npos) << why;
  for (int k = 0; k < 100; ++k) ASSERT_EQ(w.tick(0.05), Status::Ok);
  const AgentState later = state_of(w, c);
  // The blocked retry (every 100 ticks, kBlockedRetryTicks), not a replan every few steps.
  EXPECT_LE(later.replans - held.replans, 2u) << later.replans << " vs " << held.replans;
  // Down to the ground: caught.
  ASSERT_EQ(set_entity_position(w, e, ground), Status::Ok);
  AgentState s;
  for (int k = 0; k < 200 && (s = state_of(w, c)).mode != AgentMode::Arrived; ++k)
    ASSERT_EQ(w.tick(0.05), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Arrived);
  EXPECT_LE(dist3(s.feet, ground), 0.9 + 1e-9);
}

TEST(IntentsRegion, RemovedTargetStopsTheChaserWithAReason) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  const std::vector<ChasePair> pairs = pick_pairs(r, 1, 3);
  ASSERT_EQ(pairs.size(), 1u);
  AgentId t, c;
  ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, pairs[0].target), pairs[0].goal}, &t),
            Status::Ok);
  ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, pairs[0].chaser)}, &c), Status::Ok);
  ASSERT_EQ(chase_agent(w, c, t, 1.5), Status::Ok);
  for (int k = 0; k < 10; ++k) ASSERT_EQ(w.tick(0.05), Status::Ok);
  EXPECT_EQ(state_of(w, c).mode, AgentMode::Moving);
  ASSERT_EQ(w.remove_agent(t), Status::Ok);
  ASSERT_EQ(w.tick(0.05), Status::Ok);
  const AgentState s = state_of(w, c);
  EXPECT_EQ(s.mode, AgentMode::Failed);
  std::string why;
  ASSERT_EQ(w.agent_reason(c, &why), Status::Ok);
  EXPECT_NE(why.find("chase target agent in slot " + std::to_string(t.index) + " is gone"),
            std::string::npos)
      << why;
  for (int k = 0; k < 20; ++k) ASSERT_EQ(w.tick(0.05), Status::Ok);
  const AgentState after = state_of(w, c);
  EXPECT_EQ(after.mode, AgentMode::Failed);
  EXPECT_LT(dist3(after.feet, s.feet), 0.3);  // it stood (only the last step's motion ends)
  std::size_t n = 9;
  ASSERT_EQ(w.agent_corridor(c, nullptr, 0, &n), Status::Ok);
  EXPECT_EQ(n, 0u);
}

TEST(IntentsRegion, FleeingAgentsEndAtTheCheapestCellAtLeastTheDistanceAway) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  tools::SplitMix64 rng(17);
  const int kD = 12;
  struct Flee {
    AgentId id;
    CellPos start, from;
  };
  std::vector<Flee> fl;
  for (int tries = 0; tries < 100000 && fl.size() < 8; ++tries) {
    const CellPos s = r.all[rng.below(r.all.size())];
    if (r.by_island[r.island(s)].size() < 1500) continue;
    bool clash = false;
    for (const Flee& o : fl) clash = clash || cheb(o.start, s) < 50;
    if (clash) continue;
    const CellPos from{s.x + rng.range(-3, 3), s.y, s.z + rng.range(-3, 3)};
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, s)}, &id), Status::Ok);
    ASSERT_EQ(flee_from(w, id, from, kD), Status::Ok);
    fl.push_back(Flee{id, s, from});
  }
  ASSERT_EQ(fl.size(), 8u);
  ASSERT_EQ(w.tick(0.05), Status::Ok);
  ASSERT_EQ(w.tick(0.05), Status::Ok);
  // The cell each search chose: the end of its path (read before the agents walk it).
  std::vector<CellPos> chosen;
  for (const Flee& f : fl) {
    const AgentState s = state_of(w, f.id);
    ASSERT_EQ(s.mode, AgentMode::Moving);
    std::size_t n = 0;
    ASSERT_EQ(w.agent_path_cells(f.id, nullptr, 0, &n), Status::Ok);
    ASSERT_GT(n, 0u);
    std::vector<PathCell> cells(n);
    ASSERT_EQ(w.agent_path_cells(f.id, cells.data(), n, &n), Status::Ok);
    EXPECT_EQ(cells.front().cell, f.start);
    chosen.push_back(cells.back().cell);
  }
  auto d2 = [](CellPos a, CellPos b) {
    const long long dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return dx * dx + dy * dy + dz * dz;
  };
  auto optimal = [&](CellPos a, CellPos b) -> long long {
    NavRequest q;
    q.profile = r.pid;
    q.start = a;
    q.goal = b;
    PathResult res;
    EXPECT_EQ(w.find_path_now(q, &res), Status::Ok);
    return res.status.state == PathState::Ready ? static_cast<long long>(res.status.cost) : -1;
  };
  int checked = 0;
  for (std::size_t i = 0; i < fl.size(); ++i) {
    const Flee& f = fl[i];
    EXPECT_GE(d2(chosen[i], f.from), static_cast<long long>(kD) * kD) << test::str(chosen[i]);
    const long long mine = optimal(f.start, chosen[i]);
    ASSERT_GE(mine, 0);
    // Every path's first cell at >= kD lies within kD + 8 (a move spans at most 2 cells in x
    // and z and a few levels): the cheapest far cell is one of those.
    long long best = -1;
    CellPos best_cell;
    int candidates = 0;
    for (const CellPos& c : r.by_island[r.island(f.start)]) {
      const long long e = d2(c, f.from);
      if (e < static_cast<long long>(kD) * kD || e >= static_cast<long long>(kD + 8) * (kD + 8))
        continue;
      ++candidates;
      const long long cost = optimal(f.start, c);
      if (cost >= 0 && (best < 0 || cost < best)) {
        best = cost;
        best_cell = c;
      }
    }
    EXPECT_EQ(mine, best) << "flee " << i << " chose " << test::str(chosen[i]) << " at cost "
                          << mine << "; the oracle's cheapest is " << test::str(best_cell)
                          << " at " << best;
    std::printf("flee %zu: from %s, chose %s at cost %lld (oracle: %d candidates, cheapest "
                "%lld)\n",
                i, test::str(f.from).c_str(), test::str(chosen[i]).c_str(), mine, candidates,
                best);
    ++checked;
  }
  EXPECT_EQ(checked, 8);
  for (int k = 0; k < 400; ++k) ASSERT_EQ(w.tick(0.05), Status::Ok);
  for (std::size_t i = 0; i < fl.size(); ++i) {
    const AgentState s = state_of(w, fl[i].id);
    EXPECT_EQ(s.mode, AgentMode::Arrived) << "flee " << i;
    EXPECT_EQ(s.arrivals, 1u);
    // Where it stands, measured from its feet: at least the distance from the point fled.
    const CellPos at{static_cast<int>(std::floor(s.feet.x)),
                     static_cast<int>(std::floor(s.feet.y + 1e-3)),
                     static_cast<int>(std::floor(s.feet.z))};
    EXPECT_EQ(at, chosen[i]);
    EXPECT_GE(d2(at, fl[i].from), static_cast<long long>(kD) * kD);
  }
}

TEST(IntentsRegion, AgentFollowsAPathHandleTheHostRequested) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  const std::vector<ChasePair> pairs = pick_pairs(r, 10, 29);
  ASSERT_EQ(pairs.size(), 10u);
  std::vector<AgentId> ids;
  std::vector<PathHandle> paths;
  for (const ChasePair& p : pairs) {
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, p.target)}, &id), Status::Ok);
    NavRequest q;
    q.profile = r.pid;
    q.start = p.target;
    q.goal = p.goal;
    PathHandle h;
    ASSERT_EQ(w.request(q, &h), Status::Ok);
    ids.push_back(id);
    paths.push_back(h);
  }
  // Not ready before an update: Busy, naming the path, and nothing changes.
  CallError e;
  EXPECT_EQ(follow_path(w, ids[0], paths[0], &e), Status::Busy);
  EXPECT_EQ(e.argument, "path");
  w.update();  // dispatched
  w.update();  // delivered
  for (std::size_t i = 0; i < ids.size(); ++i) {
    PathStatus ps;
    ASSERT_EQ(w.status(paths[i], &ps), Status::Ok);
    ASSERT_EQ(ps.state, PathState::Ready);
    ASSERT_EQ(follow_path(w, ids[i], paths[i]), Status::Ok);
    // The agent's corridor is the request's (it stands on its first cell).
    std::size_t n = 0, m = 0;
    ASSERT_EQ(w.corridor(paths[i], nullptr, 0, &n), Status::Ok);
    ASSERT_EQ(w.agent_corridor(ids[i], nullptr, 0, &m), Status::Ok);
    EXPECT_EQ(n, m);
    ASSERT_EQ(w.release(paths[i]), Status::Ok);  // the agent keeps its copy
    EXPECT_EQ(state_of(w, ids[i]).requests, 0u);  // no search of its own
  }
  for (int k = 0; k < 1200; ++k) ASSERT_EQ(w.tick(0.05), Status::Ok);
  int arrived = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const AgentState s = state_of(w, ids[i]);
    const Vec3 g = feet_of(w, r.pid, pairs[i].goal);
    if (s.mode == AgentMode::Arrived) ++arrived;
    EXPECT_EQ(s.mode, AgentMode::Arrived) << "path " << i;
    EXPECT_LE(std::hypot(s.feet.x - g.x, s.feet.z - g.z), Profile{}.arrive_radius + 1e-9);
  }
  std::printf("follow_path: %d of %zu arrived at their request's goal\n", arrived, ids.size());
}

TEST(IntentsRegion, BadInputNamesTheArgumentAndChangesNothing) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  const std::vector<ChasePair> pairs = pick_pairs(r, 1, 41);
  ASSERT_EQ(pairs.size(), 1u);
  AgentId t, c, gone;
  ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, pairs[0].target), pairs[0].goal}, &t),
            Status::Ok);
  ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, pairs[0].chaser)}, &c), Status::Ok);
  ASSERT_EQ(w.add_agent(AgentDef{r.pid, feet_of(w, r.pid, pairs[0].goal)}, &gone), Status::Ok);
  ASSERT_EQ(chase_agent(w, c, t, 2.0), Status::Ok);
  EntityId ent;
  ASSERT_EQ(add_entity(w, feet_of(w, r.pid, pairs[0].goal), &ent), Status::Ok);
  ASSERT_EQ(w.remove_agent(gone), Status::Ok);
  for (int k = 0; k < 5; ++k) ASSERT_EQ(w.tick(0.05), Status::Ok);
  const std::vector<AgentId> ids{t, c};
  auto hash = [&] {
    std::uint64_t h = 0;
    EXPECT_EQ(state_hash(w, ids, &h), Status::Ok);
    return h;
  };
  const std::uint64_t before = hash();
  const double nan = std::nan(""), inf = HUGE_VAL;
  CallError e;
  auto refused = [&](Status got, Status want, const char* argument) {
    EXPECT_EQ(got, want) << argument;
    EXPECT_EQ(e.argument, argument) << e.message;
    EXPECT_FALSE(e.message.empty());
    EXPECT_EQ(hash(), before) << argument << ": " << e.message;
    e = CallError{};
  };
  refused(chase_agent(w, c, t, nan, &e), Status::InvalidArgument, "range");
  refused(chase_agent(w, c, t, inf, &e), Status::InvalidArgument, "range");
  refused(chase_agent(w, c, t, kMaxChaseRange * 2, &e), Status::InvalidArgument, "range");
  refused(chase_agent(w, c, t, kMinChaseRange / 2, &e), Status::InvalidArgument, "range");
  refused(chase_agent(w, c, gone, 2.0, &e), Status::StaleHandle, "target");
  refused(chase_agent(w, gone, t, 2.0, &e), Status::StaleHandle, "agent");
  refused(chase_agent(w, c, c, 2.0, &e), Status::InvalidArgument, "target");
  refused(chase_entity(w, c, ent, nan, &e), Status::InvalidArgument, "range");
  refused(chase_entity(w, c, EntityId{ent.index, ent.generation + 1}, 2.0, &e),
          Status::StaleHandle, "target");
  refused(flee_from(w, c, pairs[0].target, 0, &e), Status::InvalidArgument, "distance");
  refused(flee_from(w, c, pairs[0].target, kMaxFleeDistance + 1, &e), Status::InvalidArgument,
          "distance");
  refused(flee_from(w, c, CellPos{0, 1 << 20, 0}, 10, &e), Status::OutOfRange, "from");
  refused(flee_from(w, gone, pairs[0].target, 10, &e), Status::StaleHandle, "agent");
  refused(set_entity_position(w, ent, Vec3{nan, 0, 0}, &e), Status::InvalidArgument, "position");
  refused(set_entity_position(w, ent, Vec3{0, 1e12, 0}, &e), Status::OutOfRange, "position");
  EntityId none;
  refused(add_entity(w, Vec3{0, inf, 0}, &none, &e), Status::InvalidArgument, "position");
  refused(follow_path(w, c, PathHandle{3, 5}, &e), Status::StaleHandle, "path");
  // A path that does not pass the agent's cell.
  NavRequest q;
  q.profile = r.pid;
  q.start = pairs[0].goal;
  q.goal = pairs[0].target;
  PathHandle far;
  ASSERT_EQ(w.request(q, &far), Status::Ok);
  refused(follow_path(w, c, far, &e), Status::Busy, "path");  // not ready yet
  w.update();
  w.update();
  refused(follow_path(w, c, far, &e), Status::InvalidArgument, "path");
  // The entity was not moved by the refused calls.
  Vec3 p;
  ASSERT_EQ(entity_position(w, ent, &p), Status::Ok);
  EXPECT_EQ(p.y, feet_of(w, r.pid, pairs[0].goal).y);
  ASSERT_EQ(remove_entity(w, ent), Status::Ok);
  refused(remove_entity(w, ent, &e), Status::StaleHandle, "entity");
  refused(set_entity_position(w, ent, Vec3{0, 0, 0}, &e), Status::StaleHandle, "entity");
}

}  // namespace
}  // namespace voxnav
