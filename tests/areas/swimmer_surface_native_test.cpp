// Regression tests (break testing of areas with the swimmer class): a swimmer's surface is the
// fluid it swims in (docs/terrain.md "a water cell's fluid"; World::define_area "a fluid a body
// swims in"), in every water cell, the bottom layer included. NavGrid::surface_cell takes the
// cell's own block only for CellKind::Water, but the swimmer's grid marks its water cells
// Walkable, so a swimmer cell takes the block *below* it: the bottom layer of a sea reads the sea
// floor (an area on "water" is free there, and an area on "gravel", a walkers' road, charges fish
// swimming over a gravel bed), and the layers above read water.
//
// The world: a flat stone floor (y = 0) over 3 x 3 chunks and a one-high water tunnel
// (x 0..10, y 1, z 0) under a stone roof at y = 2, floor gravel under x 0..10: the fish's only
// route from (0,1,0) to (10,1,0) is the straight one along the bottom.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

struct Tunnel {
  World world;
  ProfileId fish;
  Tunnel() {
    EXPECT_TRUE(test::load_real_blocks(world));
    std::uint16_t stone = 0, water = 0, gravel = 0;
    EXPECT_EQ(world.block_value("stone", &stone), Status::Ok);
    EXPECT_EQ(world.block_value("water", &water), Status::Ok);
    EXPECT_EQ(world.block_value("gravel", &gravel), Status::Ok);
    EXPECT_TRUE(test::load_flat_floor(world, stone));
    for (int x = 0; x <= 10; ++x) {
      EXPECT_EQ(world.set_block({x, 0, 0}, gravel), Status::Ok);
      EXPECT_EQ(world.set_block({x, 1, 0}, water), Status::Ok);
      EXPECT_EQ(world.set_block({x, 2, 0}, stone), Status::Ok);
    }
    Profile p;
    std::string err;
    EXPECT_EQ(parse_profile_json(
                  R"({"id": "fish", "class": "swimmer", "can_swim": true, "speed": {"swim": 2}})",
                  p, &err),
              Status::Ok)
        << err;
    EXPECT_EQ(world.add_profile(p, &fish, &err), Status::Ok) << err;
  }
  PathResult swim(const AreaFilter& f = AreaFilter{}) {
    world.update();
    NavRequest q;
    q.profile = fish;
    q.start = {0, 1, 0};
    q.goal = {10, 1, 0};
    q.filter = f;
    PathResult r;
    EXPECT_EQ(world.find_path_now(q, &r), Status::Ok);
    return r;
  }
};

TEST(SwimmerSurface, BottomLayerIsInAnAreaOnItsFluid) {
  Tunnel t;
  const PathResult plain = t.swim();
  ASSERT_EQ(plain.status.state, PathState::Ready);
  EXPECT_EQ(plain.status.cost, 10u * 10000u);
  AreaId sea;
  std::string err;
  ASSERT_EQ(t.world.define_area("sea", std::vector<std::string>{"water"}, 2.0, &sea, &err),
            Status::Ok)
      << err;
  const PathResult r = t.swim();
  ASSERT_EQ(r.status.state, PathState::Ready);
  // ten water cells entered, each 1 cell of travel + 2 for the area
  EXPECT_EQ(r.status.cost, 10u * 30000u)
      << "the bottom-layer water cells are not in the area on water";
  AreaFilter no_sea;
  no_sea.excluded = 1u << sea.index;
  EXPECT_EQ(t.swim(no_sea).status.state, PathState::Failed)
      << "the sea is excluded: the fish cannot swim at all";
}

TEST(SwimmerSurface, AnAreaOnTheSeaFloorDoesNotChargeTheFish) {
  Tunnel t;
  AreaId road;
  std::string err;
  ASSERT_EQ(t.world.define_area("road", std::vector<std::string>{"gravel"}, 5.0, &road, &err),
            Status::Ok)
      << err;
  const PathResult r = t.swim();
  ASSERT_EQ(r.status.state, PathState::Ready);
  EXPECT_EQ(r.status.cost, 10u * 10000u) << "the fish pays the gravel road under the water";
}

}  // namespace
}  // namespace voxnav
