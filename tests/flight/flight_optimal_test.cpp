// The flight search's optimal mode (voxnav/flight.h) against an independent Dijkstra on small
// seeded random voxel grids: lengths (within 1e-4 relative, and the engine's integer costs keep
// it within 2e-5), reachability, and every step of the returned path checked against the Moving
// AI box rule. Also: the grid's bricks against the voxels they were built from, and the
// heuristic's consistency over every move from a range of offsets.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "engine/flight/flight_grid.h"
#include "engine/flight/flight_search.h"
#include "engine/flight/voxel_map_data.h"
#include "splitmix.h"
#include "voxnav/flight.h"

namespace voxnav {
namespace {

// A random grid as a dense array of blocked flags and as .3dmap text.
struct Grid {
  int sx, sy, sz;
  std::vector<char> blocked;
  bool free(int x, int y, int z) const {
    return x >= 0 && y >= 0 && z >= 0 && x < sx && y < sy && z < sz &&
           !blocked[std::size_t(x) + std::size_t(sx) * (std::size_t(y) + std::size_t(sy) * std::size_t(z))];
  }
  std::string text() const {
    std::string t = "voxel ";  // appended piecewise: GCC 12 warns falsely on "..." + std::to_string
    t += std::to_string(sx);
    t += ' ';
    t += std::to_string(sy);
    t += ' ';
    t += std::to_string(sz);
    t += '\n';
    for (int z = 0; z < sz; ++z)
      for (int y = 0; y < sy; ++y)
        for (int x = 0; x < sx; ++x)
          if (!free(x, y, z)) {
            t += std::to_string(x);
            t += ' ';
            t += std::to_string(y);
            t += ' ';
            t += std::to_string(z);
            t += '\n';
          }
    return t;
  }
};

Grid random_grid(tools::SplitMix64& rng, int sx, int sy, int sz, int percent_blocked) {
  Grid g{sx, sy, sz, std::vector<char>(std::size_t(sx) * sy * sz, 0)};
  for (char& c : g.blocked) c = rng.below(100) < percent_blocked ? 1 : 0;
  return g;
}

// The oracle: Dijkstra over doubles, 26 neighbours; a move (dx, dy, dz) is allowed when every
// cell (x + ax, y + ay, z + az) with ax in {0, dx}, ay in {0, dy}, az in {0, dz} is free.
bool box_free(const Grid& g, int x, int y, int z, int dx, int dy, int dz) {
  for (int ax = 0; ax <= (dx != 0); ++ax)
    for (int ay = 0; ay <= (dy != 0); ++ay)
      for (int az = 0; az <= (dz != 0); ++az)
        if (!g.free(x + ax * dx, y + ay * dy, z + az * dz)) return false;
  return true;
}

double oracle_length(const Grid& g, CellPos s, CellPos t) {
  const auto idx = [&](int x, int y, int z) {
    return std::size_t(x) + std::size_t(g.sx) * (std::size_t(y) + std::size_t(g.sy) * std::size_t(z));
  };
  std::vector<double> dist(g.blocked.size(), INFINITY);
  using Item = std::tuple<double, int, int, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  dist[idx(s.x, s.y, s.z)] = 0;
  open.emplace(0.0, s.x, s.y, s.z);
  while (!open.empty()) {
    const auto [d, x, y, z] = open.top();
    open.pop();
    if (d > dist[idx(x, y, z)]) continue;
    if (x == t.x && y == t.y && z == t.z) return d;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!dx && !dy && !dz) continue;
          if (!box_free(g, x, y, z, dx, dy, dz)) continue;
          const int k = (dx != 0) + (dy != 0) + (dz != 0);
          const double nd = d + (k == 1 ? 1.0 : k == 2 ? std::sqrt(2.0) : std::sqrt(3.0));
          double& cur = dist[idx(x + dx, y + dy, z + dz)];
          if (nd < cur) {
            cur = nd;
            open.emplace(nd, x + dx, y + dy, z + dz);
          }
        }
  }
  return INFINITY;
}

CellPos random_free(tools::SplitMix64& rng, const Grid& g) {
  for (;;) {
    const CellPos c{rng.range(0, g.sx - 1), rng.range(0, g.sy - 1), rng.range(0, g.sz - 1)};
    if (g.free(c.x, c.y, c.z)) return c;
  }
}

// Checks a returned path step by step: it joins start and goal, every step is one of the 26
// moves with its box free, and `length` is the sum of the steps.
void check_path(const Grid& g, const FlightPath& p, CellPos s, CellPos t) {
  ASSERT_FALSE(p.cells.empty());
  EXPECT_EQ(p.cells.front(), s);
  EXPECT_EQ(p.cells.back(), t);
  double len = 0;
  for (std::size_t i = 1; i < p.cells.size(); ++i) {
    const CellPos a = p.cells[i - 1], b = p.cells[i];
    const int dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
    ASSERT_TRUE(std::abs(dx) <= 1 && std::abs(dy) <= 1 && std::abs(dz) <= 1 && (dx || dy || dz)) << "step " << i;
    ASSERT_TRUE(box_free(g, a.x, a.y, a.z, dx, dy, dz)) << "step " << i << " cuts a blocked voxel";
    const int k = (dx != 0) + (dy != 0) + (dz != 0);
    len += k == 1 ? 1.0 : k == 2 ? std::sqrt(2.0) : std::sqrt(3.0);
  }
  EXPECT_NEAR(p.length, len, 1e-9 * std::max(1.0, len));
}

TEST(FlightOptimal, MatchesDijkstraOnRandomGrids) {
  tools::SplitMix64 rng(0xF11647);
  int pairs = 0, unreachable = 0, multi_brick = 0;
  // Sizes that are not multiples of 4 (partial edge bricks) and densities from open air to
  // nearly walled; 14 grids x 40 pairs.
  const int sizes[][3] = {{5, 6, 7}, {9, 4, 11}, {13, 13, 3}, {8, 8, 8}, {17, 5, 9}, {1, 12, 12}, {10, 10, 10},
                          {6, 15, 6}, {12, 7, 12}, {4, 4, 4}, {11, 11, 11}, {21, 3, 6}, {7, 9, 14}, {16, 16, 5}};
  const int density[] = {0, 10, 20, 30, 35, 40, 45, 25, 15, 5, 33, 42, 28, 38};
  for (int gi = 0; gi < 14; ++gi) {
    const Grid g = random_grid(rng, sizes[gi][0], sizes[gi][1], sizes[gi][2], density[gi]);
    VoxelMap map;
    std::string err;
    ASSERT_EQ(parse_voxel_map(g.text(), &map, &err), Status::Ok) << err;
    if (map.size_x() > 4 || map.size_y() > 4 || map.size_z() > 4) ++multi_brick;
    bool any_free = false;
    for (char c : g.blocked) any_free |= !c;
    if (!any_free) continue;
    for (int k = 0; k < 40; ++k) {
      const CellPos s = random_free(rng, g), t = random_free(rng, g);
      const double want = oracle_length(g, s, t);
      FlightPath p;
      ASSERT_EQ(find_flight_path(map, s, t, FlightSearchDef{}, &p, &err), Status::Ok) << err;
      ++pairs;
      SCOPED_TRACE("grid " + std::to_string(gi) + " pair " + std::to_string(k));
      if (std::isinf(want)) {
        ++unreachable;
        EXPECT_FALSE(p.found);
        EXPECT_FALSE(p.limited);
        EXPECT_TRUE(p.cells.empty());
        continue;
      }
      ASSERT_TRUE(p.found);
      EXPECT_NEAR(p.length, want, 2e-5 * std::max(1.0, want));
      check_path(g, p, s, t);
      // The same search again gives the same path (the scratch is reused, nothing leaks over).
      FlightPath again;
      ASSERT_EQ(find_flight_path(map, s, t, FlightSearchDef{}, &again, &err), Status::Ok);
      EXPECT_EQ(again.cells, p.cells);
      EXPECT_EQ(again.expanded, p.expanded);
    }
  }
  EXPECT_GE(pairs, 500);
  EXPECT_GE(unreachable, 20) << "the dense grids must give unreachable pairs";
  EXPECT_GE(multi_brick, 10);
}

TEST(FlightOptimal, EnclosedGoalIsUnreachableAndTheBudgetStops) {
  // A 12^3 grid with a sealed 3^3 hollow box: the inside is unreachable from outside; a diagonal
  // past the box's edge or corner never enters it.
  Grid g{12, 12, 12, std::vector<char>(12 * 12 * 12, 0)};
  for (int z = 4; z <= 8; ++z)
    for (int y = 4; y <= 8; ++y)
      for (int x = 4; x <= 8; ++x)
        if (x == 4 || x == 8 || y == 4 || y == 8 || z == 4 || z == 8)
          g.blocked[std::size_t(x) + 12 * (std::size_t(y) + 12 * std::size_t(z))] = 1;
  VoxelMap map;
  std::string err;
  ASSERT_EQ(parse_voxel_map(g.text(), &map, &err), Status::Ok) << err;
  FlightPath p;
  ASSERT_EQ(find_flight_path(map, {0, 0, 0}, {6, 6, 6}, FlightSearchDef{}, &p, &err), Status::Ok);
  EXPECT_FALSE(p.found);
  EXPECT_FALSE(p.limited);
  // Every free voxel outside the box is expanded before the search gives up.
  EXPECT_EQ(p.expanded, std::uint64_t(12 * 12 * 12 - 5 * 5 * 5));
  FlightSearchDef small;
  small.max_expansions = 10;
  ASSERT_EQ(find_flight_path(map, {0, 0, 0}, {11, 11, 11}, small, &p, &err), Status::Ok);
  EXPECT_FALSE(p.found);
  EXPECT_TRUE(p.limited);
  EXPECT_EQ(p.expanded, 10u);
  // Around the box: the oracle's length, and no step touches it.
  ASSERT_EQ(find_flight_path(map, {3, 3, 3}, {9, 9, 9}, FlightSearchDef{}, &p, &err), Status::Ok);
  ASSERT_TRUE(p.found);
  EXPECT_NEAR(p.length, oracle_length(g, {3, 3, 3}, {9, 9, 9}), 2e-5 * p.length);
  check_path(g, p, {3, 3, 3}, {9, 9, 9});
  // Start == goal: a path of one voxel, length 0.
  ASSERT_EQ(find_flight_path(map, {2, 2, 2}, {2, 2, 2}, FlightSearchDef{}, &p, &err), Status::Ok);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.cells.size(), 1u);
  EXPECT_EQ(p.length, 0.0);
}

TEST(FlightGrid, BricksHoldExactlyTheFreeVoxels) {
  tools::SplitMix64 rng(77);
  const Grid g = random_grid(rng, 19, 10, 13, 3);
  std::vector<CellPos> blocked;
  for (int z = 0; z < g.sz; ++z)
    for (int y = 0; y < g.sy; ++y)
      for (int x = 0; x < g.sx; ++x)
        if (!g.free(x, y, z)) blocked.push_back({x, y, z});
  blocked.push_back(blocked.front());  // a repeated voxel is blocked once
  detail::flight::FlightGrid grid;
  grid.build_from_blocked(g.sx, g.sy, g.sz, blocked);
  std::size_t open = 0, mixed = 0, all_blocked = 0;
  for (int bz = -1; bz <= (g.sz + 3) / 4; ++bz)
    for (int by = -1; by <= (g.sy + 3) / 4; ++by)
      for (int bx = -1; bx <= (g.sx + 3) / 4; ++bx) {
        std::uint64_t want = 0;
        for (int i = 0; i < 64; ++i)
          if (g.free(bx * 4 + (i & 3), by * 4 + ((i >> 2) & 3), bz * 4 + (i >> 4))) want |= std::uint64_t{1} << i;
        const std::uint32_t b = grid.brick_index_of_cell(bx * 4, by * 4, bz * 4);
        ASSERT_EQ(grid.brick_mask(b), want) << "brick " << bx << "," << by << "," << bz;
        const bool inside = bx >= 0 && by >= 0 && bz >= 0 && bx < (g.sx + 3) / 4 && by < (g.sy + 3) / 4 && bz < (g.sz + 3) / 4;
        if (!inside) continue;
        if (want == 0) ++all_blocked;
        else if (want == ~std::uint64_t{0}) ++open;
        else ++mixed;
      }
  EXPECT_EQ(grid.open_bricks(), open);
  EXPECT_EQ(grid.mixed_bricks(), mixed);
  EXPECT_EQ(grid.blocked_bricks(), all_blocked);
  EXPECT_GT(open, 0u);
  EXPECT_GT(mixed, 0u);
  for (int z = -2; z < g.sz + 2; ++z)
    for (int y = -2; y < g.sy + 2; ++y)
      for (int x = -2; x < g.sx + 2; ++x) ASSERT_EQ(grid.free(x, y, z), g.free(x, y, z));
}

TEST(FlightGrid, HeuristicIsConsistent) {
  // h(n) <= cost(n, m) + h(m) for every move from every offset within 6 cells of the goal, and
  // h is 0 at the goal: the optimal search may close a cell for good on its first pop.
  using detail::flight::octile3;
  EXPECT_EQ(octile3(0, 0, 0), 0u);
  for (int x = -6; x <= 6; ++x)
    for (int y = -6; y <= 6; ++y)
      for (int z = -6; z <= 6; ++z)
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              if (!dx && !dy && !dz) continue;
              const int k = (dx != 0) + (dy != 0) + (dz != 0);
              const std::uint64_t c = k == 1   ? detail::flight::kCostStraight
                                      : k == 2 ? detail::flight::kCostDiag2
                                               : detail::flight::kCostDiag3;
              ASSERT_LE(octile3(x, y, z), c + octile3(x + dx, y + dy, z + dz)) << x << " " << y << " " << z;
            }
  EXPECT_EQ(detail::flight::kCostDiag2, std::uint64_t(std::llround(std::sqrt(2.0) * 65536)));
  EXPECT_EQ(detail::flight::kCostDiag3, std::uint64_t(std::llround(std::sqrt(3.0) * 65536)));
}

// The default mode (open bricks as single nodes, six neighbours, f = g + 4h): finds a path exactly
// when the oracle does, a 6-connected path through free voxels, never shorter than the optimum,
// the same path on a second search.
TEST(FlightDefault, FindsAFaceConnectedPathExactlyWhenOneExists) {
  tools::SplitMix64 rng(0xDEFA);
  int pairs = 0, unreachable = 0, through_open_bricks = 0;
  const int sizes[][3] = {{9, 10, 11}, {17, 6, 13}, {24, 24, 8}, {5, 21, 7}, {12, 12, 12}, {31, 9, 9}};
  const int density[] = {1, 12, 2, 42, 45, 0};
  for (int gi = 0; gi < 6; ++gi) {
    const Grid g = random_grid(rng, sizes[gi][0], sizes[gi][1], sizes[gi][2], density[gi]);
    VoxelMap map;
    std::string err;
    ASSERT_EQ(parse_voxel_map(g.text(), &map, &err), Status::Ok) << err;
    if (map.stats().open_bricks > 0) ++through_open_bricks;
    FlightSearchDef def;
    def.mode = FlightMode::Default;
    for (int k = 0; k < 40; ++k) {
      const CellPos s = random_free(rng, g), t = random_free(rng, g);
      SCOPED_TRACE("grid " + std::to_string(gi) + " pair " + std::to_string(k));
      const double want = oracle_length(g, s, t);
      FlightPath p;
      ASSERT_EQ(find_flight_path(map, s, t, def, &p, &err), Status::Ok) << err;
      ++pairs;
      if (std::isinf(want)) {
        ++unreachable;
        EXPECT_FALSE(p.found);
        continue;
      }
      ASSERT_TRUE(p.found);
      ASSERT_EQ(p.cells.front(), s);
      ASSERT_EQ(p.cells.back(), t);
      for (std::size_t i = 1; i < p.cells.size(); ++i) {
        const CellPos a = p.cells[i - 1], b = p.cells[i];
        ASSERT_EQ(std::abs(b.x - a.x) + std::abs(b.y - a.y) + std::abs(b.z - a.z), 1) << "step " << i;
        ASSERT_TRUE(g.free(b.x, b.y, b.z)) << "step " << i;
      }
      EXPECT_EQ(p.length, double(p.cells.size() - 1));
      EXPECT_GE(p.length, want - 1e-9);
      EXPECT_LE(p.cost, p.cells.size() - 1);  // an open brick is one node for several cells
      FlightPath again;
      ASSERT_EQ(find_flight_path(map, s, t, def, &again, &err), Status::Ok);
      EXPECT_EQ(again.cells, p.cells);
    }
  }
  EXPECT_EQ(pairs, 240);
  EXPECT_GE(unreachable, 3);  // 4 with this seed
  EXPECT_GE(through_open_bricks, 3);
}

}  // namespace
}  // namespace voxnav
