// Goals past the profile's search distance (issue 18, item 6) on the real 1.16 region shipped in
// the repository: a goal that reachable() proves reachable (Yes) gets a whole route however far it
// lies, and that route costs what an independent Dijkstra's over the same move graph finds; an
// agent whose profile's budget is far too small for its trip walks it in stages (each search's
// route to the explored cell nearest the goal, extended from its end) and arrives, while a plain
// request with that budget still fails BudgetExhausted.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/native/files.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr int kWindow = 256;  // the default profile's search.max_distance
const std::string kBlocks = std::string(VOXNAV_FIXTURES) + "/../../data/blocks";

std::unique_ptr<World> load_region() {
  auto w = std::make_unique<World>(WorldDef{});
  std::string msg;
  EXPECT_EQ(native::load_minecraft_blocks_dir(*w, kBlocks, &msg), Status::Ok) << msg;
  LoadReport rep;
  EXPECT_EQ(native::load_world_file(*w, test::repo_region(), LoadOptions{}, &rep), Status::Ok)
      << rep.message;
  w->update();
  return w;
}

std::uint64_t key(const CellPos& c) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.x) & 0xFFFFFu) << 40) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.y) & 0xFFFFFu) << 20) |
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.z) & 0xFFFFFu));
}

/// Dijkstra's over the grid's move words (for_each_move) with move_cost and the table's max_drop:
/// the cheapest cost from a to b, UINT64_MAX when none.
std::uint64_t dijkstra(const detail::NavGrid& g, const CellPos& a, const CellPos& b,
                       const detail::CostTable& costs) {
  std::unordered_map<std::uint64_t, std::uint64_t> dist;
  using Item = std::pair<std::uint64_t, CellPos>;
  auto later = [](const Item& x, const Item& y) { return x.first > y.first; };
  std::priority_queue<Item, std::vector<Item>, decltype(later)> open(later);
  dist[key(a)] = 0;
  open.push({0, a});
  while (!open.empty()) {
    const auto [d, c] = open.top();
    open.pop();
    if (dist[key(c)] != d) continue;
    if (c == b) return d;
    detail::NavChunk* ch = g.chunk(detail::chunk_of(c));
    detail::for_each_move(ch, detail::index_in_chunk(c), c,
                          [&](detail::NavChunk* tc, int ti, const CellPos& t, int dir, int code) {
                            const detail::MoveCode m = detail::kMoveCodes[code];
                            if (m.kind == EdgeKind::Drop && -m.dy > costs.max_drop) return;
                            const std::uint32_t mc =
                                detail::move_cost(costs, dir, code, tc->kind_at(ti));
                            if (mc == detail::kCostImpassable) return;
                            const std::uint64_t nd = d + mc;
                            auto [it, fresh] = dist.try_emplace(key(t), nd);
                            if (!fresh && it->second <= nd) return;
                            it->second = nd;
                            open.push({nd, t});
                          });
  }
  return UINT64_MAX;
}

std::string trip_name(const CellPos& s, const CellPos& t) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%d,%d,%d) -> (%d,%d,%d)", s.x, s.y, s.z, t.x, t.y, t.z);
  return buf;
}

/// Deterministic pairs of one island (so reachable() answers Yes) whose Chebyshev distance (x, z)
/// lies in [lo, hi].
std::vector<std::pair<CellPos, CellPos>> pairs_apart(World& w, int lo, int hi, std::size_t n,
                                                     std::uint64_t seed) {
  auto [all, by_island] = test::standable_by_island(w);
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  voxnav::tools::SplitMix64 rng(seed);
  std::vector<std::pair<CellPos, CellPos>> out;
  for (int tries = 0; tries < 400000 && out.size() < n; ++tries) {
    const CellPos s = all[rng.below(static_cast<std::uint32_t>(all.size()))];
    const std::vector<CellPos>& island = by_island[nav.islands().component(nav.grid(), s)];
    const CellPos t = island[rng.below(static_cast<std::uint32_t>(island.size()))];
    const int d = std::max(std::abs(t.x - s.x), std::abs(t.z - s.z));
    if (d >= lo && d <= hi) out.emplace_back(s, t);
  }
  return out;
}

TEST(FarRoutes, GoalsPastTheSearchDistanceGetWholeOptimalRoutes) {
  auto w = load_region();
  ProfileId pid;
  ASSERT_EQ(w->add_profile(Profile{}, &pid), Status::Ok);
  w->update();
  const Profile p;
  ASSERT_EQ(p.search_max_distance, kWindow);
  const auto pairs = pairs_apart(*w, kWindow + 1, 480, 6, 18);
  ASSERT_EQ(pairs.size(), 6u) << "the region has islands wider than the search distance";
  detail::NavWorld& nav = *detail::WorldAccess::state(*w).walker();
  for (const auto& [s, t] : pairs) {
    SCOPED_TRACE(trip_name(s, t));
    ASSERT_EQ(w->reachable(pid, s, t).answer, ReachAnswer::Yes);
    // The public request: a whole route, start to goal.
    PathResult r;
    ASSERT_EQ(w->find_path_now(NavRequest{pid, s, t}, &r), Status::Ok);
    ASSERT_EQ(r.status.state, PathState::Ready) << path_failure_name(r.status.failure);
    EXPECT_FALSE(r.status.partial);
    ASSERT_GE(r.cells.size(), static_cast<std::size_t>(kWindow));
    EXPECT_EQ(r.cells.front().cell, s);
    EXPECT_EQ(r.cells.back().cell, t);
    // The same search on the class's own costs, proven (no window) and not (the window), against
    // an independent Dijkstra's.
    detail::RequestSpec spec;
    spec.start = s;
    spec.goal = t;
    spec.max_nodes = p.search_max_nodes;
    spec.max_distance = kWindow;
    const detail::SearchResult proven = nav.search_now(spec, true);
    ASSERT_EQ(proven.outcome, detail::SearchOutcome::Found);
    EXPECT_EQ(proven.cost, dijkstra(nav.grid(), s, t, spec.costs));
    const detail::SearchResult windowed = nav.search_now(spec, false);
    EXPECT_NE(windowed.outcome, detail::SearchOutcome::Found)
        << "a goal past the window is found only without it";
  }
}

struct StagedTrip {
  AgentState state;
  std::string reason;
  int ticks = 0;
};

/// Walks one agent of profile `pid` from s toward t for at most 2400 ticks of 0.05 s (stops at
/// Arrived or Failed) and removes it.
StagedTrip walk_trip(World& w, ProfileId pid, const CellPos& s, const CellPos& t) {
  StagedTrip r;
  double y = 0;
  EXPECT_EQ(w.standing_height(pid, s, &y), Status::Ok);
  AgentId id;
  EXPECT_EQ(w.add_agent(AgentDef{pid, Vec3{s.x + 0.5, y, s.z + 0.5}}, &id), Status::Ok);
  EXPECT_EQ(w.set_agent_goal(id, t), Status::Ok);
  for (; r.ticks < 2400; ++r.ticks) {
    EXPECT_EQ(w.tick(0.05), Status::Ok);
    EXPECT_EQ(w.agent_state(id, &r.state), Status::Ok);
    if (r.state.mode == AgentMode::Arrived || r.state.mode == AgentMode::Failed) break;
  }
  (void)w.agent_reason(id, &r.reason);
  EXPECT_EQ(w.remove_agent(id), Status::Ok);
  return r;
}

/// A world with the region and a walker profile whose search budget is `nodes`.
std::unique_ptr<World> short_sighted(std::uint32_t nodes, ProfileId* pid) {
  auto w = load_region();
  Profile small;
  small.id = "short_sighted";
  small.search_max_nodes = nodes;
  EXPECT_EQ(w->add_profile(small, pid), Status::Ok);
  w->update();
  return w;
}

TEST(FarRoutes, AnAgentPastItsBudgetWalksStagesAndArrives) {
  ProfileId pid;
  auto w = short_sighted(1000, &pid);  // a fraction of what the trips below expand in one search
  const auto pairs = pairs_apart(*w, 60, 120, 5, 7);
  ASSERT_EQ(pairs.size(), 5u);
  int staged = 0;
  for (const auto& [s, t] : pairs) {
    SCOPED_TRACE(trip_name(s, t));
    ASSERT_EQ(w->reachable(pid, s, t).answer, ReachAnswer::Yes);
    PathResult r;
    ASSERT_EQ(w->find_path_now(NavRequest{pid, s, t}, &r), Status::Ok);
    if (r.status.state == PathState::Ready) continue;  // one search was enough after all
    // A request keeps its budget as a hard limit ...
    EXPECT_EQ(r.status.failure, PathFailure::BudgetExhausted);
    // ... an agent walks the stage toward the goal and plans again from its end.
    const StagedTrip trip = walk_trip(*w, pid, s, t);
    EXPECT_EQ(trip.state.mode, AgentMode::Arrived) << trip.reason;
    EXPECT_GE(trip.state.requests, 2u) << "a trip past one search's budget takes more than one stage";
    std::printf("staged trip %s: %u requests, arrived at tick %d\n", trip_name(s, t).c_str(),
                trip.state.requests, trip.ticks);
    ++staged;
  }
  EXPECT_GE(staged, 4) << "the trips are longer than one search's budget";
}

TEST(FarRoutes, StagesThatStopGettingNearerEndInAFailureWithItsReason) {
  // A budget so small that some trip's stages circle: each such trip ends Failed
  // (BudgetExhausted, saying so) after a bounded number of stages, never Moving for ever.
  ProfileId pid;
  auto w = short_sighted(400, &pid);
  const auto pairs = pairs_apart(*w, 60, 120, 5, 7);
  ASSERT_EQ(pairs.size(), 5u);
  int arrived = 0, gave_up = 0;
  for (const auto& [s, t] : pairs) {
    SCOPED_TRACE(trip_name(s, t));
    const StagedTrip trip = walk_trip(*w, pid, s, t);
    if (trip.state.mode == AgentMode::Arrived) {
      ++arrived;
      continue;
    }
    ASSERT_EQ(trip.state.mode, AgentMode::Failed) << "still " << static_cast<int>(trip.state.mode)
                                                   << " after " << trip.ticks << " ticks";
    EXPECT_EQ(trip.state.failure, PathFailure::BudgetExhausted);
    EXPECT_NE(trip.reason.find("stopped getting nearer"), std::string::npos) << trip.reason;
    EXPECT_LE(trip.state.requests, 40u);
    ++gave_up;
  }
  std::printf("budget 400: %d trips arrived, %d gave up\n", arrived, gave_up);
  EXPECT_GE(arrived, 3);
}

}  // namespace
}  // namespace voxnav
