// Path requests of flyer profiles (World::request, status, corridor, path_cells, find_path_now,
// reachable), on small built scenes over a flat floor (tests/support load_flat_floor: cells -16 ..
// 31 across, floor at y = 0, air up to y = 31), against a breadth-first search written here over
// the World's flyer cells (six neighbours, is_standable of the flyer profile): a request finds a
// route exactly when the BFS reaches the goal (every endpoint lies in x, z 0 .. 15, so the search's
// window, 32 cells beyond start and goal, covers the whole loaded world); the route's cells are
// free and face neighbours, its corridor's segments are all clear (line_flyable), its length lies
// between the straight line and the cell path; the straight line needs no search; reachability is
// Yes exactly when the straight line is clear, No exactly when the BFS does not reach the goal
// (the flyer components), and a goal answering No fails Unreachable without a search.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "engine/flight/flyer_nav.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr std::uint16_t kStone = 1;  // the default registry's full block

struct Scene {
  World w;
  ProfileId walker, flyer;
  Scene() {
    EXPECT_TRUE(test::load_flat_floor(w, kStone));
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    std::string err;
    EXPECT_EQ(w.add_profile(test::bat_profile(), &flyer, &err), Status::Ok) << err;
    w.update();
  }
  bool free(CellPos c) const { return w.is_standable(flyer, c); }
  // BFS distance in face steps from a to b over free cells (-1: not reached).
  int bfs(CellPos a, CellPos b) const {
    if (!free(a) || !free(b)) return -1;
    std::map<std::tuple<int, int, int>, int> dist;
    std::deque<CellPos> q{a};
    dist[{a.x, a.y, a.z}] = 0;
    const int d6[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    while (!q.empty()) {
      const CellPos c = q.front();
      q.pop_front();
      const int d = dist[{c.x, c.y, c.z}];
      if (c == b) return d;
      for (const auto& s : d6) {
        const CellPos n{c.x + s[0], c.y + s[1], c.z + s[2]};
        if (n.x < -16 || n.x > 31 || n.z < -16 || n.z > 31 || n.y < 0 || n.y > 31) continue;
        if (dist.count({n.x, n.y, n.z}) || !free(n)) continue;
        dist[{n.x, n.y, n.z}] = d + 1;
        q.push_back(n);
      }
    }
    return -1;
  }
  struct Route {
    PathStatus st;
    std::vector<Waypoint> points;
    std::vector<PathCell> cells;
  };
  Route route(CellPos a, CellPos b) {
    NavRequest req;
    req.profile = flyer;
    req.start = a;
    req.goal = b;
    PathHandle h;
    Route r;
    EXPECT_EQ(w.request(req, &h), Status::Ok);
    EXPECT_EQ(w.status(h, &r.st), Status::Ok);
    EXPECT_EQ(r.st.state, PathState::Searching) << "served at the next update";
    w.update();
    EXPECT_EQ(w.status(h, &r.st), Status::Ok);
    if (r.st.state == PathState::Ready) {
      std::size_t n = 0;
      EXPECT_EQ(w.corridor(h, nullptr, 0, &n), Status::Ok);
      r.points.resize(n);
      EXPECT_EQ(w.corridor(h, r.points.data(), n, &n), Status::Ok);
      EXPECT_EQ(w.path_cells(h, nullptr, 0, &n), Status::Ok);
      r.cells.resize(n);
      EXPECT_EQ(w.path_cells(h, r.cells.data(), n, &n), Status::Ok);
    }
    // find_path_now answers the same.
    PathResult now;
    EXPECT_EQ(w.find_path_now(req, &now), Status::Ok);
    EXPECT_EQ(now.status.state, r.st.state);
    EXPECT_EQ(now.status.failure, r.st.failure);
    EXPECT_EQ(now.status.cost, r.st.cost);
    EXPECT_EQ(now.waypoints.size(), r.points.size());
    EXPECT_EQ(w.release(h), Status::Ok);
    EXPECT_EQ(w.status(h, &r.st), Status::StaleHandle);
    r.st = now.status;
    return r;
  }
  // The checks every Ready route passes.
  void check_route(const Route& r, CellPos a, CellPos b, int bfs_steps) {
    ASSERT_GE(r.points.size(), 2u);
    EXPECT_EQ(r.points.front().cell, a);
    EXPECT_EQ(r.points.back().cell, b);
    EXPECT_EQ(r.points.front().kind, EdgeKind::Start);
    double length = 0;
    for (std::size_t i = 1; i < r.points.size(); ++i) {
      const Vec3 p = r.points[i - 1].position, q = r.points[i].position;
      EXPECT_EQ(r.points[i].kind, EdgeKind::Fly);
      EXPECT_EQ(q.x, r.points[i].cell.x + 0.5);
      EXPECT_EQ(q.y, double(r.points[i].cell.y)) << "feet on the cell's bottom";
      bool clear = false;
      EXPECT_EQ(line_flyable(w, flyer, p, q, &clear), Status::Ok);
      EXPECT_TRUE(clear) << "segment " << i << " of a corridor is not flyable";
      length += std::sqrt((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) + (q.z - p.z) * (q.z - p.z));
    }
    const double straight = std::sqrt(double((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y) + (b.z - a.z) * (b.z - a.z)));
    EXPECT_GE(length, straight - 1e-9);
    EXPECT_EQ(r.st.cost, std::uint32_t(std::llround(length * 10000))) << "cost: the corridor's length";
    if (r.cells.size() > 2 || r.st.nodes_expanded > 0) {  // a searched route: cells are face steps
      for (std::size_t i = 1; i < r.cells.size(); ++i) {
        const CellPos p = r.cells[i - 1].cell, q = r.cells[i].cell;
        EXPECT_EQ(std::abs(p.x - q.x) + std::abs(p.y - q.y) + std::abs(p.z - q.z), 1);
        EXPECT_TRUE(free(q)) << test::str(q);
      }
      EXPECT_GE(int(r.cells.size()) - 1, bfs_steps) << "no 6-connected path is shorter than the BFS's";
      EXPECT_LE(length, double(r.cells.size() - 1) + 1e-9);
    }
  }
};

TEST(FlyerRequests, StraightLineNeedsNoSearch) {
  Scene s;
  const CellPos a{0, 1, 0}, b{20, 10, 20};
  EXPECT_TRUE(s.free(a));
  const Reach reach = s.w.reachable(s.flyer, a, b);
  EXPECT_EQ(reach.answer, ReachAnswer::Yes);
  const Scene::Route r = s.route(a, b);
  ASSERT_EQ(r.st.state, PathState::Ready);
  EXPECT_EQ(r.st.nodes_expanded, 0u);
  EXPECT_EQ(r.points.size(), 2u) << "one segment";
  s.check_route(r, a, b, s.bfs(a, b));
}

TEST(FlyerRequests, OverAWallThroughAHoleAndNotIntoABox) {
  Scene s;
  // A wall at x = 8 from the floor to y = 20 across the whole world: the route goes over it.
  ASSERT_EQ(s.w.set_box(CellPos{8, 1, -16}, CellPos{8, 20, 31}, kStone), Status::Ok);
  s.w.update();
  const CellPos a{2, 1, 3}, b{14, 1, 3};
  Reach reach = s.w.reachable(s.flyer, a, b);
  EXPECT_EQ(reach.answer, ReachAnswer::Unknown);
  EXPECT_EQ(reach.reason, ReachReason::FlightSearch);
  Scene::Route r = s.route(a, b);
  ASSERT_EQ(r.st.state, PathState::Ready) << path_failure_name(r.st.failure);
  EXPECT_GT(r.st.nodes_expanded, 0u);
  s.check_route(r, a, b, s.bfs(a, b));
  bool over = false;
  for (const Waypoint& p : r.points) over = over || p.cell.y >= 21;
  EXPECT_TRUE(over) << "the corridor goes over the wall";
  // Up to y = 30: no way over (the top cell's head would be in the unloaded chunk above); a hole
  // one cell wide and two high lets the body through, one cell high does not.
  ASSERT_EQ(s.w.set_box(CellPos{8, 21, -16}, CellPos{8, 31, 31}, kStone), Status::Ok);
  ASSERT_EQ(s.w.set_block(CellPos{8, 5, 3}, 0), Status::Ok);
  s.w.update();
  EXPECT_EQ(s.bfs(a, b), -1);
  r = s.route(a, b);
  EXPECT_EQ(r.st.state, PathState::Failed);
  EXPECT_EQ(r.st.failure, PathFailure::Unreachable) << "different components: no search";
  EXPECT_EQ(r.st.nodes_expanded, 0u);
  EXPECT_EQ(s.w.reachable(s.flyer, a, b).answer, ReachAnswer::No);
  ASSERT_EQ(s.w.set_block(CellPos{8, 6, 3}, 0), Status::Ok);
  s.w.update();
  ASSERT_GT(s.bfs(a, b), 0);
  r = s.route(a, b);
  ASSERT_EQ(r.st.state, PathState::Ready) << path_failure_name(r.st.failure);
  s.check_route(r, a, b, s.bfs(a, b));
  bool through = false;
  for (const PathCell& c : r.cells) through = through || c.cell == CellPos{8, 5, 3};
  EXPECT_TRUE(through) << "the corridor goes through the hole";
  // A goal inside a closed box: no route, and reachability does not claim one.
  ASSERT_EQ(s.w.set_box(CellPos{1, 3, 10}, CellPos{5, 9, 14}, kStone), Status::Ok);
  ASSERT_EQ(s.w.set_box(CellPos{2, 4, 11}, CellPos{4, 8, 13}, 0), Status::Ok);
  s.w.update();
  const CellPos boxed{3, 4, 12};
  EXPECT_TRUE(s.free(boxed));
  EXPECT_EQ(s.bfs(a, boxed), -1);
  r = s.route(a, boxed);
  EXPECT_EQ(r.st.state, PathState::Failed);
  EXPECT_EQ(r.st.failure, PathFailure::Unreachable);
  EXPECT_EQ(s.w.reachable(s.flyer, a, boxed).answer, ReachAnswer::No);
  // Opening the box joins the components again.
  ASSERT_EQ(s.w.set_block(CellPos{3, 9, 12}, 0), Status::Ok);
  ASSERT_EQ(s.w.set_block(CellPos{3, 10, 12}, 0), Status::Ok);
  s.w.update();
  EXPECT_NE(s.w.reachable(s.flyer, a, boxed).answer, ReachAnswer::No);
  ASSERT_GT(s.bfs(a, boxed), 0);
  r = s.route(a, boxed);
  ASSERT_EQ(r.st.state, PathState::Ready) << path_failure_name(r.st.failure);
  s.check_route(r, a, boxed, s.bfs(a, boxed));
  // Bad ends.
  r = s.route(CellPos{8, 10, 3}, b);
  EXPECT_EQ(r.st.failure, PathFailure::BadStart) << "start in the wall";
  r = s.route(a, CellPos{0, 0, 0});
  EXPECT_EQ(r.st.failure, PathFailure::BadGoal) << "goal in the floor";
  r = s.route(a, CellPos{100, 5, 0});
  EXPECT_EQ(r.st.failure, PathFailure::NotLoaded);
}

// Random obstacle fields: a route exactly when the BFS reaches the goal.
TEST(FlyerRequests, RandomFieldsMatchTheBfs) {
  tools::SplitMix64 rng{2100};
  int found = 0, none = 0, searched = 0;
  double ratio_sum = 0;
  for (int field = 0; field < 6; ++field) {
    Scene s;
    for (int k = 0; k < 40; ++k) {
      const CellPos lo{int(rng.next() % 16), 1 + int(rng.next() % 12), int(rng.next() % 16)};
      const CellPos hi{lo.x + int(rng.next() % 6), lo.y + int(rng.next() % 6), lo.z + int(rng.next() % 6)};
      ASSERT_EQ(s.w.set_box(lo, hi, k % 5 == 4 ? 0 : kStone), Status::Ok);
    }
    // A sealed room (a stone shell round a 3 x 3 x 3 hollow): some goals lie in it.
    const CellPos room{int(rng.next() % 12), 1 + int(rng.next() % 10), int(rng.next() % 12)};
    ASSERT_EQ(s.w.set_box(room, CellPos{room.x + 4, room.y + 4, room.z + 4}, kStone), Status::Ok);
    ASSERT_EQ(s.w.set_box(CellPos{room.x + 1, room.y + 1, room.z + 1}, CellPos{room.x + 3, room.y + 3, room.z + 3}, 0),
              Status::Ok);
    s.w.update();
    int pairs = 0;
    while (pairs < 12) {
      const CellPos a{int(rng.next() % 16), 1 + int(rng.next() % 18), int(rng.next() % 16)};
      const CellPos b = pairs % 4 == 3 ? CellPos{room.x + 2, room.y + 1, room.z + 2}
                                       : CellPos{int(rng.next() % 16), 1 + int(rng.next() % 18), int(rng.next() % 16)};
      if (!s.free(a) || !s.free(b) || a == b) continue;
      ++pairs;
      const int steps = s.bfs(a, b);
      const Scene::Route r = s.route(a, b);
      const Reach reach = s.w.reachable(s.flyer, a, b);
      // The components are exact here (the BFS covers the whole loaded world): No exactly when
      // the BFS does not reach the goal.
      EXPECT_EQ(reach.answer == ReachAnswer::No, steps < 0) << test::str(a) << " -> " << test::str(b);
      if (steps < 0) {
        ++none;
        EXPECT_EQ(r.st.state, PathState::Failed) << test::str(a) << " -> " << test::str(b);
        EXPECT_EQ(r.st.failure, PathFailure::Unreachable);
        continue;
      }
      ++found;
      ASSERT_EQ(r.st.state, PathState::Ready) << test::str(a) << " -> " << test::str(b) << ": "
                                              << path_failure_name(r.st.failure);
      s.check_route(r, a, b, steps);
      if (r.st.nodes_expanded > 0) ++searched, ratio_sum += double(r.cells.size() - 1) / steps;
    }
  }
  std::printf("random fields: %d routes (%d searched: cells / BFS steps mean %.3f), %d without\n", found, searched,
              ratio_sum / std::max(1, searched), none);
  EXPECT_GT(found, 30);
  EXPECT_GT(searched, 10);
  EXPECT_GT(none, 5);
}

// The window a search reads keeps the hover cells (the floor's top row): their bricks are mixed,
// not open, and brick_hover names exactly the cells above the floor.
TEST(FlyerRequests, WindowKeepsHoverCells) {
  Scene s;
  const detail::flight::FlyerStore& store = detail::WorldAccess::state(s.w).flyer->store();
  detail::flight::FlightGrid grid;
  const CellPos origin{-16, 0, -16};
  store.window(origin, 48, 32, 48, grid);
  int hover = 0, free = 0;
  for (int z = 0; z < 48; ++z)
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 48; ++x) {
        const std::uint32_t b = grid.brick_index_of_cell(x, y, z);
        const bool h = (grid.brick_hover(b) >> detail::flight::FlightGrid::bit_of_cell(x, y, z)) & 1u;
        const CellPos w{x + origin.x, y + origin.y, z + origin.z};
        ASSERT_EQ(grid.free(x, y, z), store.free(w)) << test::str(w);
        ASSERT_EQ(h, y == 1) << test::str(w) << ": hover cells are those just above the floor";
        if (h) {
          EXPECT_NE(grid.brick_ref(b), detail::flight::FlightGrid::kOpenRef) << "a brick with hover cells is mixed";
        }
        hover += h;
        free += grid.free(x, y, z);
      }
  EXPECT_EQ(hover, 48 * 48);
  EXPECT_EQ(free, 48 * 48 * 30) << "y = 1 .. 30 (y = 31: the head would be in an unloaded chunk)";
}

TEST(FlyerRequests, EditsReachTheNextRequest) {
  Scene s;
  const CellPos a{0, 5, 0}, b{12, 5, 0};
  Scene::Route r = s.route(a, b);
  ASSERT_EQ(r.st.state, PathState::Ready);
  EXPECT_EQ(r.points.size(), 2u);
  const std::uint64_t epoch = s.w.nav_epoch();
  ASSERT_EQ(s.w.set_box(CellPos{6, 1, -3}, CellPos{6, 12, 3}, kStone), Status::Ok);
  s.w.update();
  EXPECT_NE(s.w.nav_epoch(), epoch) << "the flyer layer changed";
  EXPECT_EQ(s.w.reachable(s.flyer, a, b).answer, ReachAnswer::Unknown);
  r = s.route(a, b);
  ASSERT_EQ(r.st.state, PathState::Ready);
  EXPECT_GT(r.points.size(), 2u) << "round the new wall";
  s.check_route(r, a, b, s.bfs(a, b));
}

TEST(FlyerRequests, FlyerProfilesAreCheckedAndWalkerQueriesRefused) {
  Scene s;
  Profile p = test::bat_profile();
  p.id = "bat2";
  p.can_fly = false;
  ProfileId id;
  std::string err;
  EXPECT_EQ(s.w.add_profile(p, &id, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("can_fly"), std::string::npos) << err;
  p.can_fly = true;
  p.width = 1.2;  // wider than the class envelope (0.98)
  EXPECT_EQ(s.w.add_profile(p, &id, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("width"), std::string::npos) << err;
  std::uint32_t island = 0;
  EXPECT_EQ(s.w.island_of(s.flyer, CellPos{0, 1, 0}, &island, nullptr), Status::Unsupported);
  AgentId agent;
  AgentDef def;
  def.profile = s.flyer;
  def.feet = Vec3{0.5, 1, 0.5};
  EXPECT_EQ(s.w.add_agent(def, &agent), Status::Ok);  // flyer agents (flyer_agents_native_test)
  EXPECT_EQ(flee_from(s.w, agent, CellPos{0, 1, 0}, 4), Status::Unsupported);
  bool walkable = false;
  EXPECT_EQ(line_walkable(s.w, s.flyer, CellPos{0, 1, 0}, CellPos{3, 1, 0}, &walkable), Status::Unsupported);
  double feet_y = -1;
  EXPECT_EQ(s.w.standing_height(s.flyer, CellPos{0, 1, 0}, &feet_y), Status::Ok);
  EXPECT_EQ(feet_y, 1.0);
  CellPos near;
  EXPECT_EQ(s.w.nearest_standable(s.flyer, CellPos{0, 0, 0}, 2, &near), Status::Ok);
  EXPECT_TRUE(s.free(near));
  NavRequest req;
  req.profile = s.flyer;
  req.start = CellPos{0, 1, 0};
  req.goal = CellPos{5, 1, 0};
  req.toward = true;
  PathHandle h;
  EXPECT_EQ(s.w.request(req, &h), Status::Unsupported);
}

}  // namespace
}  // namespace voxnav
