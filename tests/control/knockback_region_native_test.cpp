// Knockback on the real region shipped in the repository (data/worlds/r.0.-1.mca): 40 walkers on
// trips of 10 to 30 cells inside their own island, each knocked up and sideways (a random
// horizontal direction, 7 m/s up and 6 across) 20 ticks into its walk. Every one leaves the ground, none is Blocked or
// replans for being stuck while locked, and they arrive as often as the same trips unknocked (at
// least 90%); the knocks end both ways (resumed on the corridor, replanned off it).
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
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct Trip {
  CellPos start, goal;
};

std::vector<Trip> pick_trips(World& w, int n, std::uint64_t seed) {
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  const detail::NavGrid& g = nav.grid();
  auto [all, by_island] = test::standable_by_island(w);
  tools::SplitMix64 rng(seed);
  std::vector<Trip> trips;
  for (int tries = 0; tries < 200000 && static_cast<int>(trips.size()) < n; ++tries) {
    const CellPos s = all[rng.below(all.size())];
    const std::vector<CellPos>& island = by_island[nav.islands().component(g, s)];
    if (island.size() < 300) continue;
    const CellPos t = island[rng.below(island.size())];
    const int d = std::max(std::abs(t.x - s.x), std::abs(t.z - s.z));
    if (d < 10 || d > 30) continue;
    bool clash = false;
    for (const Trip& o : trips)
      clash = clash || (std::abs(o.start.x - s.x) < 3 && std::abs(o.start.z - s.z) < 3);
    if (!clash) trips.push_back(Trip{s, t});
  }
  return trips;
}

struct Outcome {
  int arrived = 0, left_ground = 0, blocked_locked = 0, stuck_replans_locked = 0;
  std::uint32_t resumes = 0, replans = 0;
};

Outcome run(World& w, ProfileId pid, const std::vector<Trip>& trips, bool knock, int ticks) {
  Outcome o;
  std::vector<AgentId> ids;
  tools::SplitMix64 rng(99);
  for (const Trip& t : trips) {
    double y = 0;
    EXPECT_EQ(w.standing_height(pid, t.start, &y), Status::Ok);
    AgentId id;
    EXPECT_EQ(w.add_agent(AgentDef{pid, Vec3{t.start.x + 0.5, y, t.start.z + 0.5}, t.goal}, &id),
              Status::Ok);
    ids.push_back(id);
  }
  std::vector<bool> left(ids.size(), false);
  std::vector<std::uint32_t> replans_at(ids.size(), 0);
  for (int k = 0; k < ticks; ++k) {
    if (knock && k == 20) {
      std::vector<AgentKnock> batch;
      for (std::size_t i = 0; i < ids.size(); ++i) {
        const double ang = static_cast<double>(rng.below(3600)) * (3.14159265358979 / 1800.0);
        batch.push_back(AgentKnock{ids[i], Vec3{6.0 * std::cos(ang), 7.0, 6.0 * std::sin(ang)}});
        AgentState s;
        EXPECT_EQ(w.agent_state(ids[i], &s), Status::Ok);
        replans_at[i] = s.replans;
      }
      EXPECT_EQ(knock_agents(w, batch), Status::Ok);
    }
    EXPECT_EQ(w.tick(0.05), Status::Ok);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      AgentState s;
      AgentLocomotion l;
      EXPECT_EQ(w.agent_state(ids[i], &s), Status::Ok);
      EXPECT_EQ(agent_locomotion(w, ids[i], &l), Status::Ok);
      if (!l.knocked) continue;
      if (!s.on_ground) left[i] = true;
      if (s.mode == AgentMode::Blocked) ++o.blocked_locked;
      if (s.replans != replans_at[i]) ++o.stuck_replans_locked;
    }
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    AgentState s;
    AgentLocomotion l;
    EXPECT_EQ(w.agent_state(ids[i], &s), Status::Ok);
    EXPECT_EQ(agent_locomotion(w, ids[i], &l), Status::Ok);
    if (s.arrivals > 0) ++o.arrived;
    if (left[i]) ++o.left_ground;
    o.resumes += l.lock_resumes;
    o.replans += l.lock_replans;
  }
  return o;
}

TEST(KnockbackRegion, KnockedAgentsFlyLandResumeAndArrive) {
  ProfileId pid;
  auto plain = test::load_region(test::repo_region(), &pid);
  ASSERT_TRUE(plain);
  const std::vector<Trip> trips = pick_trips(*plain, 40, 5);
  ASSERT_EQ(trips.size(), 40u);
  const Outcome base = run(*plain, pid, trips, false, 900);
  auto knocked_world = test::load_region(test::repo_region(), &pid);
  ASSERT_TRUE(knocked_world);
  const Outcome k = run(*knocked_world, pid, trips, true, 900);
  std::printf("unknocked: %d of 40 arrive; knocked: %d arrive, %d left the ground, %u resumed, "
              "%u replanned\n",
              base.arrived, k.arrived, k.left_ground, k.resumes, k.replans);
  EXPECT_EQ(k.left_ground, 40);
  EXPECT_EQ(k.blocked_locked, 0);
  EXPECT_EQ(k.stuck_replans_locked, 0);
  EXPECT_EQ(k.resumes + k.replans, 40u);  // every lock ended, one way or the other
  EXPECT_GE(k.arrived, 36);
  EXPECT_GE(k.arrived, base.arrived - 2);
}

}  // namespace
}  // namespace voxnav
