// Regression test (break testing of the classes): Reach::epoch and World::nav_epoch() for a profile
// of a class other than walker. world.h: "Store `epoch` with a give-up and ask again once
// World::nav_epoch() has moved on". World::reachable returns the epoch of the profile's class
// navigation, but World::nav_epoch() returns the walker navigation's epoch: the two counters are
// unrelated, and an edit that changes only the swimmer's answers (a dam in a sealed water channel)
// does not move nav_epoch() at all. A host that gave up on a fish's goal waits for ever (or, with
// the counters apart, asks again every tick).
//
// The world: a flat stone floor (y = 0) over 3 x 3 chunks; a water channel x 1..14, z 1..3, y 1..2
// sealed in stone (walls and a roof at y = 3), with a stone dam at x = 8. Walkers stand on the
// roof, whatever happens inside.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

TEST(ClassEpoch, SwimmerAnswersMoveNavEpoch) {
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  std::uint16_t stone = 0, water = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w.block_value("water", &water), Status::Ok);
  ASSERT_TRUE(test::load_flat_floor(w, stone));
  for (int x = 0; x <= 15; ++x)
    for (int z = 0; z <= 4; ++z)
      for (int y = 1; y <= 3; ++y) {
        const bool wall = x == 0 || x == 15 || z == 0 || z == 4 || y == 3 || x == 8;
        ASSERT_EQ(w.set_block({x, y, z}, wall ? stone : water), Status::Ok);
      }
  ProfileId walker, fish;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  Profile p;
  std::string err;
  ASSERT_EQ(
      parse_profile_json(
          R"({"id": "fish", "class": "swimmer", "can_swim": true, "speed": {"swim": 2}})", p, &err),
      Status::Ok)
      << err;
  ASSERT_EQ(w.add_profile(p, &fish, &err), Status::Ok) << err;
  w.update();
  const CellPos a{2, 1, 2}, b{13, 1, 2};
  auto set_dam = [&](bool closed) {
    for (int z = 1; z <= 3; ++z)
      for (int y = 1; y <= 2; ++y)
        ASSERT_EQ(w.set_block({8, y, z}, closed ? stone : water), Status::Ok);
    w.update();
  };
  for (int round = 0; round < 3; ++round) {
    const Reach closed = w.reachable(fish, a, b);
    ASSERT_EQ(closed.answer, ReachAnswer::No) << round;
    EXPECT_EQ(closed.epoch, w.nav_epoch())
        << round << ": Reach::epoch is not on nav_epoch()'s scale";
    const std::uint64_t gave_up = w.nav_epoch();
    set_dam(false);
    const Reach open = w.reachable(fish, a, b);
    ASSERT_EQ(open.answer, ReachAnswer::Yes) << round;
    EXPECT_NE(w.nav_epoch(), gave_up)
        << round << ": the fish's answer changed, nav_epoch() did not move";
    EXPECT_EQ(open.epoch, w.nav_epoch()) << round;
    set_dam(true);
  }
}

}  // namespace
}  // namespace voxnav
