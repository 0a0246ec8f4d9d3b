// Flyer requests on the shipped region (data/worlds, Minecraft 1.16) against a BFS written here
// over the World's flyer cells (six neighbours), run in the same window the request's search sees
// (the box of start and goal grown by kFlyerWindowMargin cells): between random hover cells (on the
// ground, so the terrain is in the way) a request finds a route exactly when that BFS reaches the
// goal (or stops on its expansion budget, counted), fails Unreachable only when no BFS over the
// whole region could reach it (different components: checked in the window), every corridor
// segment is flyable, and the searched cell path is never shorter than the BFS's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engine/flight/flyer_nav.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/control.h"

namespace voxnav {
namespace {

int window_bfs(const detail::flight::FlyerStore& store, CellPos a, CellPos b, CellPos lo, CellPos hi) {
  const int sx = hi.x - lo.x + 1, sy = hi.y - lo.y + 1, sz = hi.z - lo.z + 1;
  std::vector<int> dist(std::size_t(sx) * sy * sz, -1);
  const auto at = [&](CellPos c) -> int& {
    return dist[std::size_t(c.x - lo.x) + sx * (std::size_t(c.y - lo.y) + sy * std::size_t(c.z - lo.z))];
  };
  std::deque<CellPos> q{a};
  at(a) = 0;
  while (!q.empty()) {
    const CellPos c = q.front();
    q.pop_front();
    if (c == b) return at(c);
    const CellPos n[6] = {{c.x - 1, c.y, c.z}, {c.x + 1, c.y, c.z}, {c.x, c.y - 1, c.z},
                          {c.x, c.y + 1, c.z}, {c.x, c.y, c.z - 1}, {c.x, c.y, c.z + 1}};
    for (const CellPos& m : n) {
      if (m.x < lo.x || m.y < lo.y || m.z < lo.z || m.x > hi.x || m.y > hi.y || m.z > hi.z) continue;
      if (at(m) >= 0 || !store.free(m)) continue;
      at(m) = at(c) + 1;
      q.push_back(m);
    }
  }
  return -1;
}

TEST(FlyerRequestsRegion, RoutesMatchAWindowBfs) {
  ProfileId walker, bat;
  std::unique_ptr<World> w = test::load_region(test::repo_region(), &walker);
  ASSERT_TRUE(w);
  Profile p = test::bat_profile();
  std::string err;
  ASSERT_EQ(w->add_profile(p, &bat, &err), Status::Ok) << err;
  w->update();
  const detail::WorldState& ws = detail::WorldAccess::state(*w);
  const detail::flight::FlyerStore& store = ws.flyer->store();
  const std::vector<ChunkPos> chunks = ws.space.loaded_chunks();
  tools::SplitMix64 rng{9090};
  int straight = 0, searched = 0, nopath = 0, unreachable = 0, budget = 0;
  double ratio = 0;
  int pairs = 0;
  while (pairs < 150) {
    const ChunkPos cp = chunks[rng.next() % chunks.size()];
    const CellPos a{cp.x * 16 + int(rng.next() % 16), cp.y * 16 + int(rng.next() % 16), cp.z * 16 + int(rng.next() % 16)};
    if (!store.hover(a)) continue;
    const CellPos b{a.x + int(rng.next() % 41) - 20, a.y + int(rng.next() % 9) - 4, a.z + int(rng.next() % 41) - 20};
    if (!store.free(b)) continue;
    ++pairs;
    NavRequest req;
    req.profile = bat;
    req.start = a;
    req.goal = b;
    PathResult r;
    ASSERT_EQ(w->find_path_now(req, &r), Status::Ok);
    const int m = detail::flight::kFlyerWindowMargin;
    const CellPos lo{std::min(a.x, b.x) - m, std::min(a.y, b.y) - m, std::min(a.z, b.z) - m};
    const CellPos hi{std::max(a.x, b.x) + m, std::max(a.y, b.y) + m, std::max(a.z, b.z) + m};
    const int steps = window_bfs(store, a, b, lo, hi);
    const std::string what = test::str(a) + " -> " + test::str(b);
    if (r.status.state == PathState::Failed) {
      if (r.status.failure == PathFailure::Unreachable) {
        ++unreachable;
        EXPECT_EQ(steps, -1) << what << ": Unreachable, but the BFS joins them";
        EXPECT_EQ(w->reachable(bat, a, b).answer, ReachAnswer::No);
      } else if (r.status.failure == PathFailure::BudgetExhausted) {
        ++budget;
      } else {
        ++nopath;
        EXPECT_EQ(r.status.failure, PathFailure::NoPath) << what;
        EXPECT_EQ(steps, -1) << what << ": NoPath, but the BFS in the window reaches the goal";
      }
      continue;
    }
    ASSERT_GE(steps, 0) << what << ": a route the BFS does not find";
    ASSERT_GE(r.waypoints.size(), 2u);
    for (std::size_t i = 1; i < r.waypoints.size(); ++i) {
      bool clear = false;
      ASSERT_EQ(line_flyable(*w, bat, r.waypoints[i - 1].position, r.waypoints[i].position, &clear), Status::Ok);
      EXPECT_TRUE(clear) << what << ": segment " << i;
    }
    if (r.status.nodes_expanded == 0) {
      ++straight;
      EXPECT_EQ(r.waypoints.size(), 2u);
      EXPECT_EQ(w->reachable(bat, a, b).answer, ReachAnswer::Yes);
    } else {
      ++searched;
      EXPECT_GE(int(r.cells.size()) - 1, steps) << what;
      ratio += double(r.cells.size() - 1) / std::max(1, steps);
    }
  }
  std::printf("region: %d straight, %d searched (cells / BFS steps mean %.3f), %d NoPath, %d Unreachable, %d budget\n",
              straight, searched, ratio / std::max(1, searched), nopath, unreachable, budget);
  EXPECT_GT(straight, 10);
  EXPECT_GT(searched, 10);
}

}  // namespace
}  // namespace voxnav
