// The default search budget (kDefaultSearchesPerUpdate): a burst of M goals larger than the
// budget N is dispatched over ceil(M / N) updates, oldest first (each result applied at the next
// update: every agent has its corridor after 1 + ceil(M / N) ticks), and every agent gets the corridor it gets
// without a budget. A flat floor of the built-in full block (no shared data needed); counts only,
// no timing.
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr std::uint16_t kFullBlock = 1;  // "voxnav:unknown": a new World's solid fallback block

struct Crowd {
  std::unique_ptr<World> w = std::make_unique<World>();
  ProfileId walker;
  std::vector<AgentId> agents;
  /// `n` agents on the floor (y = 1), row by row over the 48 x 48 columns; each is sent to the
  /// mirrored cell, all in one tick.
  explicit Crowd(int n) {
    EXPECT_TRUE(test::load_flat_floor(*w, kFullBlock));
    EXPECT_EQ(w->add_profile(Profile{}, &walker), Status::Ok);
    w->update();
    for (int i = 0; i < n; ++i) {
      const int x = -16 + i % 48, z = -16 + (i / 48) % 48;
      AgentId id;
      EXPECT_EQ(w->add_agent(AgentDef{walker, Vec3{x + 0.5, 1.0, z + 0.5}}, &id), Status::Ok);
      agents.push_back(id);
    }
    for (int i = 0; i < n; ++i) {
      const int x = -16 + i % 48, z = -16 + (i / 48) % 48;
      EXPECT_EQ(w->set_agent_goal(agents[static_cast<std::size_t>(i)], CellPos{15 - x, 1, 15 - z}),
                Status::Ok);
    }
  }
  /// Ticks until no agent is Planning; each agent's first corridor cells are kept in `first`.
  int run_until_planned(std::vector<std::vector<PathCell>>& first, int limit = 64) {
    first.assign(agents.size(), {});
    std::vector<bool> got(agents.size(), false);
    for (int t = 1; t <= limit; ++t) {
      EXPECT_EQ(w->tick(0.05), Status::Ok);
      std::size_t planning = 0;
      for (std::size_t i = 0; i < agents.size(); ++i) {
        AgentState s;
        EXPECT_EQ(w->agent_state(agents[i], &s), Status::Ok);
        if (s.mode == AgentMode::Planning) {
          ++planning;
          continue;
        }
        if (got[i]) continue;
        got[i] = true;
        EXPECT_EQ(s.mode, AgentMode::Moving) << "agent " << i;
        std::size_t n = 0;
        EXPECT_EQ(w->agent_path_cells(agents[i], nullptr, 0, &n), Status::Ok);
        first[i].resize(n);
        EXPECT_EQ(w->agent_path_cells(agents[i], first[i].data(), n, &n), Status::Ok);
      }
      if (planning == 0) return t;
    }
    return -1;
  }
};

TEST(SearchBudget, DefaultIsStatedAndOverridable) {
  World w;
  EXPECT_EQ(kDefaultSearchesPerUpdate, 256);
  EXPECT_EQ(w.searches_per_update(), kDefaultSearchesPerUpdate);
  EXPECT_EQ(w.set_searches_per_update(0), Status::Ok);  // no limit
  EXPECT_EQ(w.searches_per_update(), 0);
  EXPECT_EQ(w.set_searches_per_update(World::kMaxSearchesPerUpdate + 1), Status::InvalidArgument);
  EXPECT_EQ(w.searches_per_update(), 0);
}

TEST(SearchBudget, BurstOfGoalsSpreadsOverTicksWithTheUnbudgetedCorridors) {
  constexpr int kAgents = 600;  // over two default budgets: ceil(600 / 256) = 3 updates
  Crowd unlimited(kAgents);
  ASSERT_EQ(unlimited.w->set_searches_per_update(0), Status::Ok);
  std::vector<std::vector<PathCell>> ref;
  // Tick 1: the agents ask (their requests queue); tick 2 dispatches and applies every search.
  EXPECT_EQ(unlimited.run_until_planned(ref), 2);

  Crowd budgeted(kAgents);  // the default budget
  ASSERT_EQ(budgeted.w->searches_per_update(), kDefaultSearchesPerUpdate);
  // Tick 1: the agents ask and the update dispatches the oldest 256, the rest stay queued
  // (World::queued_requests); tick 2 applies those results and dispatches the next 256.
  ASSERT_EQ(budgeted.w->tick(0.05), Status::Ok);
  EXPECT_EQ(budgeted.w->queued_requests(),
            static_cast<std::size_t>(kAgents - kDefaultSearchesPerUpdate));
  ASSERT_EQ(budgeted.w->tick(0.05), Status::Ok);
  EXPECT_EQ(budgeted.w->queued_requests(),
            static_cast<std::size_t>(kAgents - 2 * kDefaultSearchesPerUpdate));
  std::size_t planning = 0;
  for (std::size_t i = 0; i < budgeted.agents.size(); ++i) {
    AgentState s;
    ASSERT_EQ(budgeted.w->agent_state(budgeted.agents[i], &s), Status::Ok);
    planning += s.mode == AgentMode::Planning;
    // Oldest first: the agents given goals first are the ones planned.
    EXPECT_EQ(s.mode == AgentMode::Planning, i >= static_cast<std::size_t>(kDefaultSearchesPerUpdate))
        << "agent " << i;
  }
  EXPECT_EQ(planning, static_cast<std::size_t>(kAgents - kDefaultSearchesPerUpdate));
  std::vector<std::vector<PathCell>> got;
  const int more = budgeted.run_until_planned(got);
  EXPECT_EQ(2 + more, 1 + (kAgents + kDefaultSearchesPerUpdate - 1) / kDefaultSearchesPerUpdate);
  EXPECT_EQ(budgeted.w->queued_requests(), 0u);
  // The corridors equal the unbudgeted run's, agent by agent (planned from the same cells; the
  // corridor's cells stay whole as the agent walks it).
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].size(), ref[i].size()) << "agent " << i;
    for (std::size_t k = 0; k < got[i].size(); ++k) {
      EXPECT_EQ(got[i][k].cell, ref[i][k].cell) << "agent " << i << " cell " << k;
      EXPECT_EQ(got[i][k].kind, ref[i][k].kind) << "agent " << i << " cell " << k;
    }
  }
}

TEST(SearchBudget, SmallBudgetTakesCeilOfBurstOverBudgetTicks) {
  constexpr int kAgents = 100, kBudget = 7;  // 1 + ceil(100 / 7) = 16 ticks
  Crowd unlimited(kAgents);
  ASSERT_EQ(unlimited.w->set_searches_per_update(0), Status::Ok);
  std::vector<std::vector<PathCell>> ref, got;
  EXPECT_EQ(unlimited.run_until_planned(ref), 2);
  Crowd budgeted(kAgents);
  ASSERT_EQ(budgeted.w->set_searches_per_update(kBudget), Status::Ok);
  EXPECT_EQ(budgeted.run_until_planned(got), 1 + (kAgents + kBudget - 1) / kBudget);
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].size(), ref[i].size()) << "agent " << i;
    for (std::size_t k = 0; k < got[i].size(); ++k)
      EXPECT_EQ(got[i][k].cell, ref[i][k].cell) << "agent " << i << " cell " << k;
  }
}

}  // namespace
}  // namespace voxnav
