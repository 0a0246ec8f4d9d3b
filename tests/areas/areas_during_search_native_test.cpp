// Regression test (break testing of areas with an executor): World::define_area (and add_profile
// with a surface malus) regroups the surfaces and rewrites every surface plane at once
// (rebuild_surfaces -> NavWorld::set_surface_groups -> NavGrid::set_surface_groups, which resets
// each chunk's plane), without waiting for the searches dispatched by the last update(). The
// executor contract (voxnav/executor.h) says jobs "only read navigation data that stays unchanged
// until the next World::update()", and "every executor gives bit-identical simulations": a search
// already dispatched must not see a plane regrouped after its dispatch. With worker threads this is
// a data race on the planes (a search reads a plane while it is freed); with a real region and
// native::ThreadPool(2), 220 of 900 path costs differed from the synchronous run.
//
// To make it deterministic this test uses a valid lazy executor that runs its jobs when the World
// waits for them (wait_idle, at the next update()): the searches then always run after the
// regrouping. The world: a flat stone floor (y = 0) over 3 x 3 chunks with a gravel band under
// x = -4 .. 4 (every z); the area "road" on gravel (cost 0.7 cells). Defining an area on "stone"
// between the update that dispatches a search and the one that applies it renumbers the groups
// (stone now group 1, gravel group 2) under the search's cost table: the search then charges every
// stone cell the road's cost and the gravel nothing.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

/// Runs jobs when waited for (a valid executor: jobs run on one worker, before wait_idle returns).
class LazyExecutor final : public detail::Executor {
 public:
  int worker_count() const override { return 1; }
  void submit(detail::Job job) override { jobs_.push_back(std::move(job)); }
  void wait_idle() override {
    while (!jobs_.empty()) {
      detail::Job j = std::move(jobs_.front());
      jobs_.pop_front();
      j(0);
    }
  }

 private:
  std::deque<detail::Job> jobs_;
};

std::uint32_t route_cost(Executor* ex) {
  WorldDef def;
  def.executor = ex;
  World world(def);
  EXPECT_TRUE(test::load_real_blocks(world));
  std::uint16_t stone = 0, gravel = 0;
  EXPECT_EQ(world.block_value("stone", &stone), Status::Ok);
  EXPECT_EQ(world.block_value("gravel", &gravel), Status::Ok);
  EXPECT_TRUE(test::load_flat_floor(world, stone));
  for (int x = -4; x <= 4; ++x)
    for (int z = -16; z <= 31; ++z) EXPECT_EQ(world.set_block({x, 0, z}, gravel), Status::Ok);
  ProfileId walker;
  EXPECT_EQ(world.add_profile(Profile{}, &walker), Status::Ok);
  std::string err;
  AreaId road, rock;
  EXPECT_EQ(world.define_area("road", std::vector<std::string>{"gravel"}, 0.7, &road, &err),
            Status::Ok)
      << err;
  world.update();
  NavRequest q;
  q.profile = walker;
  q.start = {-10, 1, 0};
  q.goal = {10, 1, 0};
  PathHandle h;
  EXPECT_EQ(world.request(q, &h), Status::Ok);
  world.update();  // dispatches the search
  EXPECT_EQ(world.define_area("rock", std::vector<std::string>{"stone"}, 0.0, &rock, &err),
            Status::Ok)
      << err;
  world.update();  // applies it
  PathStatus ps;
  EXPECT_EQ(world.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Ready);
  return ps.cost;
}

TEST(AreasDuringSearch, DispatchedSearchDoesNotSeeARegroupingMadeAfterIt) {
  const std::uint32_t sync = route_cost(nullptr);
  // 20 straight cells; the 9 gravel cells entered cost 0.7 more each
  EXPECT_EQ(sync, 20u * 10000u + 9u * 7000u);
  LazyExecutor lazy;
  const std::uint32_t deferred = route_cost(&lazy);
  EXPECT_EQ(deferred, sync) << "the search dispatched before define_area read the regrouped planes";
}

}  // namespace
}  // namespace voxnav
