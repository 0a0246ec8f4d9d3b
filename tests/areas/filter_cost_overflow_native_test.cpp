// Regression tests (break testing of areas, filters and the malus table): path costs built from
// values inside their documented ranges (area cost -0.6 .. 1000 cells, filter multiplier 0 .. 1000,
// malus 0 .. 1000, surface malus up to 1000) must neither wrap around 32 bits nor crash the search:
// - an area's cost times a request's multiplier must never turn an expensive area into a cheap one;
// - a higher multiplier must never make a route cheaper (the path cost must not wrap around 2^32);
// - a long route over costly cells (no filter at all) must not crash A*.
// While the defects exist the first test fails and the other two crash (SIGSEGV in AStar::run).
//
// The world of the first two: a flat stone floor (y = 0) over 3 x 3 chunks; a band of gravel (the
// area "mud") under x = -2 .. 2 across the route from (-10, 1, 0) to (10, 1, 0); in the first test
// the band has a stone gap at z = 14, so a detour round the mud exists.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "engine/search/astar.h"
#include "test_support.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

struct MudWorld {
  World world;
  ProfileId walker;
  AreaId mud;
  std::uint16_t stone = 0, gravel = 0;
  explicit MudWorld(bool gap) {
    EXPECT_TRUE(test::load_real_blocks(world));
    EXPECT_EQ(world.block_value("stone", &stone), Status::Ok);
    EXPECT_EQ(world.block_value("gravel", &gravel), Status::Ok);
    EXPECT_TRUE(test::load_flat_floor(world, stone));
    for (int x = -2; x <= 2; ++x)
      for (int z = -16; z <= 31; ++z)
        if (!(gap && z == 14)) {
          EXPECT_EQ(world.set_block({x, 0, z}, gravel), Status::Ok);
        }
    EXPECT_EQ(world.add_profile(Profile{}, &walker), Status::Ok);
    std::string err;
    const std::vector<std::string> blocks{"gravel"};
    EXPECT_EQ(world.define_area("mud", blocks, 1000.0, &mud, &err), Status::Ok) << err;
    world.update();
  }
  PathResult route(double multiplier) {
    NavRequest q;
    q.profile = walker;
    q.start = {-10, 1, 0};
    q.goal = {10, 1, 0};
    q.filter.multiplier[mud.index] = multiplier;
    PathResult r;
    EXPECT_EQ(world.find_path_now(q, &r), Status::Ok);
    return r;
  }
  std::size_t on_mud(const PathResult& r) {
    std::size_t n = 0;
    for (const PathCell& c : r.cells) {
      std::uint16_t v = 0;
      EXPECT_EQ(world.get_block({c.cell.x, c.cell.y - 1, c.cell.z}, &v), Status::Ok);
      n += v == gravel;
    }
    return n;
  }
};

// Area cost 1000 cells times multiplier 300 is 3e9 cost units: it must stay an expensive area.
// (While the defect exists the product wraps to a negative 32-bit value, is clamped to -0.6 cells,
// and the route walks straight across the mud as if it were a road.)
TEST(FilterCostOverflow, LargeMultiplierKeepsAnExpensiveAreaExpensive) {
  MudWorld m(/*gap=*/true);
  const PathResult one = m.route(1.0);
  ASSERT_EQ(one.status.state, PathState::Ready);
  EXPECT_EQ(m.on_mud(one), 0u) << "with multiplier 1 the route goes round the mud through the gap";
  for (double k : {10.0, 100.0, 214.0, 215.0, 300.0, 429.0, 500.0, 1000.0}) {
    const PathResult r = m.route(k);
    ASSERT_EQ(r.status.state, PathState::Ready) << k;
    EXPECT_EQ(m.on_mud(r), 0u) << "multiplier " << k << ": the route crosses " << m.on_mud(r)
                               << " mud cells at cost " << r.status.cost
                               << " (multiplier 1: " << one.status.cost << ", no mud)";
    EXPECT_EQ(r.status.cost, one.status.cost) << "multiplier " << k;
  }
}

// Without a way round, a higher multiplier must never make the route cheaper: the cost of crossing
// five mud cells at 1e9 units each (area 1000 cells x multiplier 100) must not wrap around 2^32.
TEST(FilterCostOverflow, PathCostDoesNotWrapAround) {
  MudWorld m(/*gap=*/false);
  std::uint32_t last = 0;
  for (double k : {1.0, 10.0, 50.0, 100.0, 400.0, 1000.0}) {
    const PathResult r = m.route(k);
    ASSERT_EQ(r.status.state, PathState::Ready) << k;
    EXPECT_GE(r.status.cost, last)
        << "multiplier " << k << " gives a cheaper route than a smaller one";
    EXPECT_GE(m.on_mud(r), 5u) << k;
    last = r.status.cost;
  }
}

// No filter at all: a profile with the documented maximum malus for slow cells ("slow": 1000, 1e7
// cost units a cell) asked across a 500-cell field of soul sand (a soul sand valley) with a longer
// search distance. 430 such cells exceed 2^32 cost units: the search must neither crash nor return
// a wrapped cost. (While the defect exists, AStar::run crashes with SIGSEGV here.)
TEST(FilterCostOverflow, LongRouteOverCostlyCellsNeitherCrashesNorWraps) {
  World world;
  ASSERT_TRUE(test::load_real_blocks(world));
  std::uint16_t soul = 0;
  ASSERT_EQ(world.block_value("soul_sand", &soul), Status::Ok);
  std::vector<std::uint16_t> floor(4096, 0), air(4096, 0);
  for (int i = 0; i < 256; ++i) floor[i] = soul;
  for (int cx = 0; cx < 33; ++cx) {
    ASSERT_EQ(world.load_chunk({cx, 0, 0}, floor), Status::Ok);
    ASSERT_EQ(world.load_chunk({cx, 1, 0}, air), Status::Ok);
  }
  Profile p;
  std::string err;
  ASSERT_EQ(parse_profile_json(
                R"({"id": "careful", "malus": {"slow": 1000}, "search": {"max_distance": 2000}})",
                p, &err),
            Status::Ok)
      << err;
  ProfileId id;
  ASSERT_EQ(world.add_profile(p, &id, &err), Status::Ok) << err;
  world.update();
  NavRequest q;
  q.profile = id;
  q.start = {1, 0, 8};  // the feet stand in the soul sand block (0.875 high)
  // Costs are 32-bit: a route is not extended past AStar::kMaxG (2.95e9 cost units, about 295 of
  // these cells), so the longer ones fail NoPath instead of wrapping.
  std::uint32_t last = 0;
  for (int len : {100, 250, 300, 420, 500}) {
    q.goal = {1 + len, 0, 8};
    PathResult r;
    ASSERT_EQ(world.find_path_now(q, &r), Status::Ok) << len;
    const std::uint64_t cost = std::uint64_t(len) * (1000u * 10000u + 10000u);
    if (cost <= detail::AStar::kMaxG) {
      ASSERT_EQ(r.status.state, PathState::Ready)
          << len << ": " << path_failure_name(r.status.failure);
      EXPECT_EQ(r.status.cost, cost) << len;
      EXPECT_GE(r.status.cost, last) << "a longer route over the same cells costs less: " << len;
      last = r.status.cost;
    } else {
      EXPECT_EQ(r.status.state, PathState::Failed) << len;
      EXPECT_EQ(r.status.failure, PathFailure::NoPath) << len;
    }
  }
}

}  // namespace
}  // namespace voxnav
