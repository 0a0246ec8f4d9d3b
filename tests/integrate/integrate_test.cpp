// The movement step (src/engine/integrate) against real Minecraft collision shapes. Runs natively
// and under node (wasm); the scripted-run hash is the bit-identity canary between the two.
#include "engine/integrate/integrate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/integrate/integrate_math.h"
#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "scenes.h"

namespace voxnav::detail {
namespace {

constexpr double kDt = 0.05;  // 20 ticks per second

// Collision shapes restated from shared/data/minecraft/blocks/blockCollisionShapes.pc-1.20.5.json
// (default states per blocks.pc-1.21.1.json; ShapesMatchTheRealData checks them against the file).
const std::vector<Box> kStoneShape = {Box{{0, 0, 0}, {1, 1, 1}}};          // stone
const std::vector<Box> kBottomSlabShape = {Box{{0, 0, 0}, {1, 0.5f, 1}}};  // oak_slab type=bottom
const std::vector<Box> kSoulSandShape = {Box{{0, 0, 0}, {1, 0.875f, 1}}};  // soul_sand
const std::vector<Box> kFencePostShape = {                                 // oak_fence (no arms)
    Box{{0.375f, 0, 0.375f}, {0.625f, 1.5f, 0.625f}}};
const std::vector<Box> kFenceEastWestShape = {  // oak_fence east+west
    Box{{0, 0, 0.375f}, {1, 1.5f, 0.625f}}};
const std::vector<Box> kStairNorthBottomShape = {  // oak_stairs default
    Box{{0, 0, 0}, {1, 0.5f, 1}}, Box{{0, 0.5f, 0}, {1, 1, 0.5f}}};
const std::vector<Box> kLadderNorthShape = {
    Box{{0, 0, 0.8125f}, {1, 1, 1}}};  // ladder facing=north

/// A small test world: chunks x,z in [-1, 2], y in [-1, 1] loaded (air), a stone floor at y = 0
/// over x,z in [-16, 47] (so a standing body's feet are at y = 1).
class IntegrateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stone = registry.add(BlockType{"stone", kStoneShape, 0, 0});
    slab = registry.add(BlockType{"oak_slab", kBottomSlabShape, 0, 0});
    soul_sand = registry.add(BlockType{"soul_sand", kSoulSandShape, kTraitSlow, 0});
    fence_post = registry.add(BlockType{"oak_fence", kFencePostShape, 0, 0});
    fence_x = registry.add(BlockType{"oak_fence", kFenceEastWestShape, 0, 0});
    stair_n = registry.add(BlockType{"oak_stairs", kStairNorthBottomShape, 0, 0});
    ladder_n = registry.add(BlockType{"ladder", kLadderNorthShape, kTraitClimbable, 0});
    water = registry.add(BlockType{"water", {}, kTraitFluidSwim, 0});
    for (int cy = -1; cy <= 1; ++cy)
      for (int cz = -1; cz <= 2; ++cz)
        for (int cx = -1; cx <= 2; ++cx) {
          ASSERT_EQ(space.load_uniform_chunk({cx, cy, cz}, 0), Status::Ok);
        }
    ASSERT_EQ(space.set_box({-16, 0, -16}, {47, 0, 47}, stone), Status::Ok);
  }

  void put(int x, int y, int z, std::uint16_t v) {
    ASSERT_EQ(space.set_block({x, y, z}, v), Status::Ok);
  }

  IntegrateReport step(BodyState& s, const DriveInput& in, const BodyParams& p = {},
                       const Vec3& knock = {}) {
    return integrate_character_tick(s, in, knock, p, space, kDt);
  }

  static BodyState standing_at(double x, double y, double z) {
    BodyState s;
    s.feet = {x, y, z};
    s.on_ground = true;
    return s;
  }

  BlockRegistry registry;
  Space space{&registry};
  std::uint16_t stone = 0, slab = 0, soul_sand = 0, fence_post = 0, fence_x = 0, stair_n = 0,
                ladder_n = 0, water = 0;
};

TEST_F(IntegrateTest, FallsOnExactParabolaAndLandsExactlyOnTheFloor) {
  BodyState s;
  s.feet = {4.5, 5.3, 4.5};
  int landings = 0;
  double landing_speed = 0.0;
  for (int t = 1; t <= 60; ++t) {
    const IntegrateReport r = step(s, {});
    ASSERT_TRUE(r.valid);
    if (t == 5) {
      EXPECT_NEAR(s.feet.y, 5.3 - 0.5 * 32.0 * 0.25 * 0.25, 1e-12);  // y0 - g t^2 / 2
    }
    if (r.landed) {
      ++landings;
      landing_speed = r.landing_speed;
    }
  }
  EXPECT_EQ(landings, 1);
  EXPECT_EQ(s.feet.y, 1.0);  // exactly the top of the stone floor
  EXPECT_TRUE(s.on_ground);
  EXPECT_EQ(s.velocity.y, 0.0);
  EXPECT_EQ(s.feet.x, 4.5);
  EXPECT_EQ(s.feet.z, 4.5);
  // Fell 4.3 m: sqrt(2 g h) = 16.6 m/s, sampled at the end of the step that hit the floor.
  EXPECT_GT(landing_speed, 16.0);
  EXPECT_LT(landing_speed, 18.5);
}

TEST_F(IntegrateTest, RestingBodyWithZeroInputDoesNotDrift) {
  BodyState s = standing_at(7.25, 1.0, 3.75);
  s.velocity = {};
  const BodyState before = s;
  for (int t = 0; t < 500; ++t) {
    const IntegrateReport r = step(s, {});
    ASSERT_FALSE(r.landed);
    ASSERT_EQ(r.hit_wall, 0);
  }
  EXPECT_EQ(std::memcmp(&s.feet, &before.feet, sizeof(Vec3)), 0);
  EXPECT_EQ(s.velocity, Vec3{});
  EXPECT_TRUE(s.on_ground);
  EXPECT_EQ(s.mode, BodyMode::Walk);
}

TEST_F(IntegrateTest, SoulSandIsWalkableButNotAStepFromTheFloor) {
  for (int z = 0; z < 10; ++z) {
    put(6, 1, z, soul_sand);
    for (int x = 7; x <= 9; ++x) put(x, 1, z, stone);
  }
  // Dropped onto soul sand: rests at 1.875.
  BodyState s;
  s.feet = {6.5, 3.0, 4.5};
  for (int t = 0; t < 30; ++t) step(s, {});
  EXPECT_EQ(s.feet.y, 1.875);
  EXPECT_TRUE(s.on_ground);
  // Walk +x from soul sand onto stone: a 0.125 step.
  bool stepped = false;
  for (int t = 0; t < 10; ++t) stepped |= step(s, DriveInput{4.0, 0.0}).stepped_up;
  EXPECT_TRUE(stepped);
  EXPECT_EQ(s.feet.y, 2.0);
  EXPECT_GT(s.feet.x, 7.3);
  // From the floor soul sand is 0.875 high: above a 0.6 step.
  BodyState f = standing_at(4.5, 1.0, 4.5);
  IntegrateReport r;
  for (int t = 0; t < 20; ++t) r = step(f, DriveInput{4.0, 0.0});
  EXPECT_EQ(f.feet.y, 1.0);
  EXPECT_DOUBLE_EQ(f.feet.x, 6.0 - 0.3);
  EXPECT_EQ(r.hit_wall, kHitX);
}

TEST_F(IntegrateTest, WalksUpASlabThenAFullBlockByStepUp) {
  for (int z = 0; z < 10; ++z) {
    put(5, 1, z, slab);
    put(6, 1, z, stone);
    put(7, 1, z, stone);
  }
  BodyState s = standing_at(2.5, 1.0, 4.5);
  std::vector<double> rises;
  for (int t = 0; t < 40; ++t) {
    const IntegrateReport r = step(s, DriveInput{4.0, 0.0});
    if (r.stepped_up) rises.push_back(r.step_rise);
    EXPECT_EQ(r.hit_wall, 0) << "tick " << t;
    if (s.feet.x > 7.5) break;
  }
  ASSERT_EQ(rises.size(), 2u);
  EXPECT_DOUBLE_EQ(rises[0], 0.5);
  EXPECT_DOUBLE_EQ(rises[1], 0.5);
  EXPECT_EQ(s.feet.y, 2.0);
  EXPECT_TRUE(s.on_ground);
}

TEST_F(IntegrateTest, WalksUpAStairByStepUp) {
  // A bottom stair facing north (its high half on the north, -z, side), then stone behind it.
  for (int x = 0; x < 10; ++x) {
    put(x, 1, 4, stair_n);
    for (int z = 1; z <= 3; ++z) put(x, 1, z, stone);
  }
  BodyState s = standing_at(4.5, 1.0, 7.5);
  int steps = 0;
  for (int t = 0; t < 40 && s.feet.z > 3.0; ++t) {
    const IntegrateReport r = step(s, DriveInput{0.0, -4.0});
    if (r.stepped_up) {
      ++steps;
      EXPECT_DOUBLE_EQ(r.step_rise, 0.5);
    }
    EXPECT_EQ(r.hit_wall, 0) << "tick " << t;
  }
  EXPECT_EQ(steps, 2);
  EXPECT_EQ(s.feet.y, 2.0);
  EXPECT_LE(s.feet.z, 3.0);
  EXPECT_TRUE(s.on_ground);
}

TEST_F(IntegrateTest, FullBlockNeedsAJumpAndTheJumpClearsIt) {
  for (int z = 0; z < 10; ++z) {
    for (int x = 5; x <= 8; ++x) put(x, 1, z, stone);
  }
  BodyState s = standing_at(3.5, 1.0, 4.5);
  IntegrateReport r;
  for (int t = 0; t < 20; ++t) r = step(s, DriveInput{4.0, 0.0});
  EXPECT_DOUBLE_EQ(s.feet.x, 4.7);  // 5 - half width
  EXPECT_EQ(s.feet.y, 1.0);
  EXPECT_EQ(r.hit_wall, kHitX);
  EXPECT_DOUBLE_EQ(r.wall_speed, 4.0);
  EXPECT_FALSE(r.stepped_up);
  EXPECT_EQ(s.velocity.x, 0.0);
  // Jump while pressing: up and onto the block.
  step(s, DriveInput{4.0, 0.0, true});
  EXPECT_FALSE(s.on_ground);
  for (int t = 0; t < 12; ++t) step(s, DriveInput{4.0, 0.0});
  EXPECT_EQ(s.feet.y, 2.0);
  EXPECT_GT(s.feet.x, 5.3);
  EXPECT_LT(s.feet.x, 8.7);
  EXPECT_TRUE(s.on_ground);
}

TEST_F(IntegrateTest, JumpApexMatchesTheProfile) {
  const BodyParams p;
  EXPECT_DOUBLE_EQ(p.jump_velocity, jump_velocity_for_apex(32.0, 1.25));
  BodyState s = standing_at(10.5, 1.0, 10.5);
  step(s, DriveInput{0, 0, true});
  double apex = s.feet.y;
  int air_ticks = 1;
  while (!s.on_ground && air_ticks < 100) {
    step(s, {});
    apex = std::max(apex, s.feet.y);
    ++air_ticks;
  }
  // Exact ballistic positions at step boundaries: the apex sample is just under 1.25.
  EXPECT_GT(apex - 1.0, 1.2);
  EXPECT_LE(apex - 1.0, 1.25);
  EXPECT_EQ(air_ticks, 12);  // 2 v / g = 0.559 s
  EXPECT_EQ(s.feet.y, 1.0);
}

TEST_F(IntegrateTest, CannotJumpAFence) {
  for (int x = 0; x < 16; ++x) put(x, 1, 6, fence_x);  // fence line along x at z 6.375..6.625
  BodyState s = standing_at(8.5, 1.0, 3.5);
  double max_y = 0.0;
  for (int t = 0; t < 100; ++t) {
    step(s, DriveInput{0.0, 4.0, true});
    max_y = std::max(max_y, s.feet.y);
  }
  EXPECT_LE(s.feet.z, 6.375 - 0.3 + 1e-9);
  EXPECT_GT(s.feet.z, 6.0);
  EXPECT_LT(max_y, 1.0 + 1.25);
  // A single post blocks the body too (head-on), and 0.6 of step-up does not lift it over 1.5.
  put(3, 1, 12, fence_post);
  BodyState p = standing_at(3.5, 1.0, 10.0);
  IntegrateReport r;
  for (int t = 0; t < 20; ++t) r = step(p, DriveInput{0.0, 4.0});
  EXPECT_DOUBLE_EQ(p.feet.z, 12.375 - 0.3);
  EXPECT_EQ(r.hit_wall, kHitZ);
  EXPECT_EQ(p.feet.y, 1.0);
}

TEST_F(IntegrateTest, StopsAtWallsOnEachAxisAndSlidesAlongThem) {
  for (int z = 0; z < 16; ++z) put(9, 1, z, stone), put(9, 2, z, stone);
  BodyState s = standing_at(7.5, 1.0, 4.5);
  IntegrateReport r;
  for (int t = 0; t < 10; ++t) r = step(s, DriveInput{3.0, 2.0});
  EXPECT_EQ(r.hit_wall, kHitX);
  EXPECT_DOUBLE_EQ(s.feet.x, 8.7);
  EXPECT_NEAR(s.feet.z, 4.5 + 10 * 2.0 * kDt, 1e-12);  // slides along z
  EXPECT_EQ(s.velocity.x, 0.0);
  EXPECT_EQ(s.velocity.z, 2.0);
  for (int z = 0; z < 10; ++z) put(z, 1, 7, stone);
  for (int t = 0; t < 20; ++t) r = step(s, DriveInput{3.0, 2.0});
  EXPECT_EQ(r.hit_wall, kHitX | kHitZ);
  EXPECT_DOUBLE_EQ(s.feet.z, 6.7);
  // The ceiling: a low roof stops a jump.
  BodyState c = standing_at(3.5, 1.0, 12.5);
  put(3, 4, 12, stone);  // roof bottom at 4: head room 3 - 1.8 = 1.2 above the feet
  int first_ceiling = -1;
  for (int t = 0; t < 12 && first_ceiling < 0; ++t) {
    if (step(c, DriveInput{0, 0, t == 0}).hit_ceiling) first_ceiling = t;
  }
  EXPECT_EQ(first_ceiling, 4);  // the 5th step would reach 1.236 > 1.2
  EXPECT_DOUBLE_EQ(c.feet.y, 4.0 - 1.8);
  EXPECT_EQ(c.velocity.y, 0.0);
}

TEST_F(IntegrateTest, KnockGoesIntoCarryAndDecays) {
  // Grounded: decays at 12/s.
  BodyState s = standing_at(4.5, 1.0, 20.5);
  IntegrateReport r = step(s, {}, {}, Vec3{10.0, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(r.displacement.x, 10.0 * kDt);  // the knock moves the body this step
  EXPECT_NEAR(s.carry.x, 10.0 * std::exp(-12.0 * kDt), 1e-12);
  EXPECT_TRUE(s.on_ground);
  for (int t = 2; t <= 5; ++t) step(s, {});
  EXPECT_NEAR(s.carry.x, 10.0 * std::exp(-12.0 * kDt * 5), 1e-11);
  for (int t = 0; t < 40; ++t) step(s, {});
  EXPECT_EQ(s.carry, Vec3{});  // dropped to zero once tiny: the body is at rest again
  const double rest_x = s.feet.x;
  step(s, {});
  EXPECT_EQ(s.feet.x, rest_x);

  // In the air: 0.5/s. A body high up, knocked sideways.
  BodyState a;
  a.feet = {20.5, 25.0, 20.5};  // loaded air up to y = 31
  step(a, {}, {}, Vec3{0.0, 0.0, 6.0});
  EXPECT_NEAR(a.carry.z, 6.0 * std::exp(-0.5 * kDt), 1e-12);
  step(a, {});
  EXPECT_NEAR(a.carry.z, 6.0 * std::exp(-0.5 * kDt * 2), 1e-12);

  // Upward knock clears on_ground and goes into velocity.
  BodyState u = standing_at(10.5, 1.0, 10.5);
  r = step(u, {}, {}, Vec3{3.0, 5.0, 0.0});
  EXPECT_FALSE(u.on_ground);
  EXPECT_DOUBLE_EQ(u.velocity.y, 5.0 - 32.0 * kDt);
  EXPECT_GT(r.displacement.y, 0.0);
  EXPECT_NEAR(u.carry.x, 3.0 * std::exp(-0.5 * kDt), 1e-12);  // airborne after the knock

  // Capped at 80 m/s.
  BodyState c = standing_at(10.5, 1.0, 30.5);
  r = step(c, {}, {}, Vec3{0.0, 0.0, -500.0});
  EXPECT_DOUBLE_EQ(r.displacement.z, -80.0 * kDt);

  // Carry adds to the drive, and a wall zeroes it on the blocked axis only.
  for (int z = 0; z < 16; ++z) put(13, 1, z, stone), put(13, 2, z, stone);
  BodyState w = standing_at(12.5, 1.0, 5.5);
  r = step(w, DriveInput{0.0, 1.0}, {}, Vec3{20.0, 0.0, 2.0});
  EXPECT_EQ(r.hit_wall, kHitX);
  EXPECT_DOUBLE_EQ(w.feet.x, 12.7);
  EXPECT_EQ(w.carry.x, 0.0);
  EXPECT_NEAR(r.displacement.z, (1.0 + 2.0) * kDt, 1e-15);
  EXPECT_NEAR(w.carry.z, 2.0 * std::exp(-12.0 * kDt), 1e-12);
}

TEST_F(IntegrateTest, UnloadedChunksAreWalls) {
  BlockRegistry reg;
  const std::uint16_t st = reg.add(BlockType{"stone", kStoneShape, 0, 0});
  Space one(&reg);
  ASSERT_EQ(one.load_uniform_chunk({0, 0, 0}, 0), Status::Ok);
  ASSERT_EQ(one.set_box({0, 0, 0}, {15, 0, 15}, st), Status::Ok);
  ASSERT_EQ(one.set_block({5, 0, 5}, 0), Status::Ok);  // a hole down to the unloaded chunk below
  const BodyParams p;
  BodyState s = standing_at(13.5, 1.0, 8.5);
  IntegrateReport r;
  for (int t = 0; t < 20; ++t)
    r = integrate_character_tick(s, DriveInput{4.0, 0.0}, {}, p, one, kDt);
  EXPECT_DOUBLE_EQ(s.feet.x, 16.0 - 0.3);
  EXPECT_EQ(r.hit_wall, kHitX);
  for (int t = 0; t < 90; ++t)
    r = integrate_character_tick(s, DriveInput{-4.0, 0.0}, {}, p, one, kDt);
  EXPECT_DOUBLE_EQ(s.feet.x, 0.3);
  // Jumping does not get over it either: the unloaded chunk above is solid too.
  for (int t = 0; t < 40; ++t)
    integrate_character_tick(s, DriveInput{-4.0, 0.0, true}, {}, p, one, kDt);
  EXPECT_DOUBLE_EQ(s.feet.x, 0.3);
  // Through the hole the body lands on the unloaded chunk's top (y = 0) instead of falling.
  BodyState h = standing_at(5.5, 1.0, 5.5);
  h.on_ground = false;
  for (int t = 0; t < 20; ++t) integrate_character_tick(h, {}, {}, p, one, kDt);
  EXPECT_EQ(h.feet.y, 0.0);
  EXPECT_TRUE(h.on_ground);
}

TEST_F(IntegrateTest, ClimbsALadderColumnAtClimbSpeed) {
  // Ladders at (8, 1..4, 8) on a stone column at z = 9 (ledge top at y = 5).
  for (int y = 1; y <= 4; ++y) {
    put(8, y, 8, ladder_n);
    put(8, y, 9, stone);
  }
  BodyParams p;
  p.climb_speed = 2.0;
  BodyState s = standing_at(8.5, 1.0, 8.5);
  IntegrateReport r;
  for (int t = 0; t < 10; ++t) {
    r = step(s, DriveInput{0, 0, false, ClimbIntent::Up}, p);
    ASSERT_TRUE(r.climbing);
    EXPECT_NEAR(r.displacement.y, 2.0 * kDt, 1e-12);
  }
  EXPECT_NEAR(s.feet.y, 2.0, 1e-12);
  EXPECT_EQ(s.mode, BodyMode::Climb);
  EXPECT_FALSE(s.on_ground);
  const double held = s.feet.y;
  for (int t = 0; t < 10; ++t) step(s, DriveInput{0, 0, false, ClimbIntent::Hold}, p);
  EXPECT_EQ(s.feet.y, held);
  r = step(s, DriveInput{0, 0, false, ClimbIntent::None}, p);
  EXPECT_NEAR(r.displacement.y, -0.15 * 2.0 * kDt, 1e-12);  // slides
  r = step(s, DriveInput{0, 1.0, false, ClimbIntent::None}, p);
  EXPECT_NEAR(r.displacement.y, 2.0 * kDt, 1e-12);  // pressing into the ladder's wall climbs
  r = step(s, DriveInput{0, 0, false, ClimbIntent::Down}, p);
  EXPECT_NEAR(r.displacement.y, -2.0 * kDt, 1e-12);
  // Up and forward until the feet clear the lip, then onto the ledge.
  for (int t = 0; t < 60 && !(s.on_ground && s.feet.z > 9.0); ++t)
    step(s, DriveInput{0, 2.0, false, ClimbIntent::Up}, p);
  EXPECT_EQ(s.feet.y, 5.0);
  EXPECT_GT(s.feet.z, 9.0);
  EXPECT_EQ(s.mode, BodyMode::Walk);
  // Without climb_speed (a player) the ladder is only a wall panel.
  BodyState q = standing_at(8.5, 1.0, 8.5);
  for (int t = 0; t < 10; ++t) r = step(q, DriveInput{0, 1.0, false, ClimbIntent::Up});
  EXPECT_FALSE(r.climbing);
  EXPECT_EQ(q.feet.y, 1.0);
  EXPECT_EQ(q.mode, BodyMode::Walk);
}

TEST_F(IntegrateTest, FlyHoversRisesAndStopsAtACeiling) {
  put(3, 7, 3, stone);
  BodyState s;
  s.mode = BodyMode::Fly;
  s.feet = {3.5, 3.0, 3.5};
  const Vec3 start = s.feet;
  for (int t = 0; t < 50; ++t) step(s, {});
  EXPECT_EQ(s.feet, start);  // a hovering flyer rests
  IntegrateReport r;
  bool ceiling = false;
  for (int t = 0; t < 40; ++t) {
    r = step(s, DriveInput{0, 0, false, ClimbIntent::None, 2.0});
    ceiling |= r.hit_ceiling;
  }
  EXPECT_TRUE(ceiling);
  EXPECT_DOUBLE_EQ(s.feet.y, 7.0 - 1.8);
  // A knock on a flyer goes wholly into carry.
  step(s, {}, {}, Vec3{0, -4.0, 0});
  EXPECT_NEAR(s.carry.y, -4.0 * std::exp(-12.0 * kDt), 1e-12);
  EXPECT_EQ(s.velocity.y, -4.0);
}

TEST_F(IntegrateTest, SwimmerFloatsInWaterAndFallsOutOfIt) {
  ASSERT_EQ(space.set_box({10, 1, 10}, {13, 4, 13}, water), Status::Ok);
  BodyState s;
  s.mode = BodyMode::Swim;
  s.feet = {11.5, 2.0, 11.5};
  IntegrateReport r = step(s, {});
  EXPECT_TRUE(r.in_fluid);
  EXPECT_EQ(s.feet.y, 2.0);
  r = step(s, DriveInput{0, 0, false, ClimbIntent::None, 1.0});
  EXPECT_NEAR(r.displacement.y, 1.0 * kDt, 1e-12);
  s.feet.y = 6.0;  // above the water (top 5): gravity
  for (int t = 0; t < 5; ++t) {
    r = step(s, {});
    EXPECT_FALSE(r.in_fluid);
  }
  EXPECT_LT(s.feet.y, 6.0);
}

// At the top of a water column (water in y 1..4, air above) a swimmer's body stays where the
// drive puts it: with no vertical input it neither sinks nor rises, and swimming up to the top
// cell's floor keeps the whole 0.98 body inside the water. The step itself does not hold a body
// in the fluid: a body still overlapping the water moves freely, so an upward drive past the
// surface lifts it out, and gravity then takes it back down. The follower never asks for that
// (its waypoints are water cells; tests/agents/swimmer_agents_native_test.cpp).
TEST_F(IntegrateTest, SwimmerAtTheSurface) {
  ASSERT_EQ(space.set_box({10, 1, 10}, {13, 4, 13}, water), Status::Ok);
  BodyParams fish;
  fish.width = 0.98;
  fish.height = 0.98;
  fish.step_height = 0.0;
  BodyState s;
  s.mode = BodyMode::Swim;
  s.feet = {11.5, 3.5, 11.5};
  // Up to the top cell's floor at 2 m/s, landing on it (the follower's speed cap: distance / dt).
  for (int t = 0; t < 10; ++t) {
    const double dy = 4.0 - s.feet.y;
    const IntegrateReport r =
        step(s, DriveInput{0, 0, false, ClimbIntent::None, std::min(2.0, dy / kDt)}, fish);
    EXPECT_TRUE(r.in_fluid);
  }
  EXPECT_EQ(s.feet.y, 4.0);
  for (int t = 0; t < 20; ++t) {
    const IntegrateReport r = step(s, {}, fish);
    EXPECT_TRUE(r.in_fluid);
    EXPECT_FALSE(r.hit_ceiling);
  }
  EXPECT_EQ(s.feet.y, 4.0);
  EXPECT_EQ(s.velocity.y, 0.0);
  // Along the surface: level, in the fluid.
  for (int t = 0; t < 10; ++t) EXPECT_TRUE(step(s, DriveInput{1.0, 0.0}, fish).in_fluid);
  EXPECT_EQ(s.feet.y, 4.0);
  EXPECT_NEAR(s.feet.x, 12.0, 1e-12);
  // An upward drive past the surface: out of the water (the top is 5.0), then falling.
  int out = 0;
  for (int t = 0; t < 20; ++t)
    if (!step(s, DriveInput{0, 0, false, ClimbIntent::None, 2.0}, fish).in_fluid) ++out;
  EXPECT_GT(out, 0);
}

TEST_F(IntegrateTest, MotionOverrideReportsRequestedAndAchieved) {
  for (int z = 0; z < 16; ++z) put(6, 1, z, stone), put(6, 2, z, stone);
  BodyState s = standing_at(5.0, 1.0, 4.5);
  MotionOverride ov;
  ov.velocity = {5.0, 0.0, 0.0};
  ov.start_tick = 10;
  ov.ticks = 3;
  const DriveInput keys{0.0, 100.0};  // ignored while the override applies
  IntegrateReport r = integrate_character_tick(s, keys, &ov, {}, 0, 9, space, {}, kDt);
  EXPECT_FALSE(r.override_report.applied);
  s = standing_at(5.0, 1.0, 4.5);
  r = integrate_character_tick(s, keys, &ov, {}, 0, 10, space, {}, kDt);
  ASSERT_TRUE(r.override_report.applied);
  EXPECT_DOUBLE_EQ(r.override_report.requested.x, 0.25);
  EXPECT_DOUBLE_EQ(r.override_report.achieved.x, 0.25);
  EXPECT_EQ(r.override_report.achieved.z, 0.0);
  EXPECT_FALSE(r.override_report.stopped);
  r = integrate_character_tick(s, keys, &ov, {}, 0, 11, space, {}, kDt);
  r = integrate_character_tick(s, keys, &ov, {}, 0, 12, space, {}, kDt);
  EXPECT_TRUE(r.override_report.stopped);  // the wall at x = 6 cut it
  EXPECT_DOUBLE_EQ(r.override_report.requested.x, 0.25);
  EXPECT_NEAR(r.override_report.achieved.x, 5.7 - 5.5, 1e-12);
  EXPECT_DOUBLE_EQ(s.feet.x, 5.7);
  r = integrate_character_tick(s, {}, &ov, {}, 0, 13, space, {}, kDt);
  EXPECT_FALSE(r.override_report.applied);

  // Character frame: -Z forward rotated by the facing; a quarter turn faces -X.
  MotionOverride fwd;
  fwd.velocity = {0.0, 0.0, -4.0};
  fwd.character_frame = true;
  BodyState c = standing_at(10.5, 1.0, 10.5);
  r = integrate_character_tick(c, {}, &fwd, {}, 16384, 0, space, {}, kDt);
  EXPECT_NEAR(r.displacement.x, -0.2, 1e-12);
  EXPECT_EQ(r.displacement.z, 0.0);
  r = integrate_character_tick(c, {}, &fwd, {}, 0, 0, space, {}, kDt);
  EXPECT_EQ(r.displacement.x, 0.0);
  EXPECT_NEAR(r.displacement.z, -0.2, 1e-12);

  // A vertical override suspends gravity.
  MotionOverride hover;
  hover.has_vertical = true;
  hover.ticks = 100;
  BodyState h;
  h.feet = {20.5, 10.0, 20.5};
  for (std::uint32_t t = 0; t < 20; ++t)
    integrate_character_tick(h, {}, &hover, {}, 0, t, space, {}, kDt);
  EXPECT_EQ(h.feet.y, 10.0);
}

TEST_F(IntegrateTest, InvalidInputLeavesTheStateUntouched) {
  const BodyState start = standing_at(4.5, 1.0, 4.5);
  BodyState s = start;
  EXPECT_FALSE(integrate_character_tick(s, {}, {}, {}, space, std::nan("")).valid);
  EXPECT_FALSE(integrate_character_tick(s, {}, {}, {}, space, 0.0).valid);
  EXPECT_FALSE(integrate_character_tick(s, DriveInput{INFINITY, 0.0}, {}, {}, space, kDt).valid);
  EXPECT_FALSE(step(s, {}, {}, Vec3{std::nan(""), 0.0, 0.0}).valid);
  BodyParams bad;
  bad.width = -1.0;
  EXPECT_FALSE(step(s, {}, bad).valid);
  EXPECT_EQ(s.feet, start.feet);
  EXPECT_EQ(s.on_ground, start.on_ground);
  BodyState far = standing_at(1e9, 1.0, 0.0);
  EXPECT_FALSE(step(far, {}).valid);
  // A longer step (reduced level of detail: 3 ticks at once) is fine.
  EXPECT_TRUE(integrate_character_tick(s, DriveInput{1.0, 0.0}, {}, {}, space, 3 * kDt).valid);
  EXPECT_NEAR(s.feet.x, 4.5 + 3 * kDt, 1e-12);
  EXPECT_EQ(s.feet.y, 1.0);
}

TEST(IntegrateMath, DeterministicExpAndBinaryAngleTrig) {
  for (double a : {1e-9, 0.025, 0.6, 1.0, 3.7, 12.0, 40.0}) {
    EXPECT_NEAR(det_exp_neg(a) / std::exp(-a), 1.0, 1e-12) << a;
  }
  EXPECT_EQ(det_exp_neg(0.0), 1.0);
  EXPECT_EQ(det_exp_neg(-1.0), 1.0);
  EXPECT_EQ(det_exp_neg(1000.0), 0.0);
  constexpr double kTurn = 6.283185307179586476925;
  for (int a = 0; a < 65536; a += 97) {
    const SinCos sc = det_sin_cos(static_cast<std::uint16_t>(a));
    EXPECT_NEAR(sc.sin, std::sin(a * kTurn / 65536.0), 1e-15);
    EXPECT_NEAR(sc.cos, std::cos(a * kTurn / 65536.0), 1e-15);
  }
  EXPECT_EQ(det_sin_cos(0).sin, 0.0);
  EXPECT_EQ(det_sin_cos(0).cos, 1.0);
  EXPECT_EQ(det_sin_cos(16384).sin, 1.0);
  EXPECT_EQ(det_sin_cos(16384).cos, 0.0);
  EXPECT_EQ(det_sin_cos(32768).cos, -1.0);
  EXPECT_EQ(det_sin_cos(49152).sin, -1.0);
}

TEST(IntegrateData, ShapesMatchTheRealData) {
  std::ifstream in(std::string(VOXNAV_SHARED_DATA) +
                   "/minecraft/blocks/blockCollisionShapes.pc-1.20.5.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  auto shape_of = [&](const char* name, int state) {
    const nlohmann::json& b = doc["blocks"][name];
    const int id = b.is_array() ? b[state].get<int>() : b.get<int>();
    std::vector<Box> out;
    for (const auto& box : doc["shapes"][std::to_string(id)]) {
      out.push_back(Box{{box[0].get<float>(), box[1].get<float>(), box[2].get<float>()},
                        {box[3].get<float>(), box[4].get<float>(), box[5].get<float>()}});
    }
    return out;
  };
  auto same = [](const std::vector<Box>& a, const std::vector<Box>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      for (int k = 0; k < 3; ++k)
        if (a[i].min[k] != b[i].min[k] || a[i].max[k] != b[i].max[k]) return false;
    return true;
  };
  // State indices: default states of blocks.pc-1.21.1.json (defaultState - minStateId), and the
  // east+west fence (east, north, south, waterlogged, west; true before false).
  EXPECT_TRUE(same(shape_of("stone", 0), kStoneShape));
  EXPECT_TRUE(same(shape_of("oak_slab", 3), kBottomSlabShape));
  EXPECT_TRUE(same(shape_of("soul_sand", 0), kSoulSandShape));
  EXPECT_TRUE(same(shape_of("oak_fence", 31), kFencePostShape));
  EXPECT_TRUE(same(shape_of("oak_fence", 14), kFenceEastWestShape));
  EXPECT_TRUE(same(shape_of("oak_stairs", 11), kStairNorthBottomShape));
  EXPECT_TRUE(same(shape_of("ladder", 1), kLadderNorthShape));
}

// ---- the 1000-tick scripted run: a stable hash (and the wasm bit-identity canary) ----

std::uint64_t fnv_bytes(std::uint64_t h, const void* p, std::size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ull;
  }
  return h;
}
std::uint64_t fnv_double(std::uint64_t h, double d) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &d, sizeof bits);
  return fnv_bytes(h, &bits, sizeof bits);
}

TEST_F(IntegrateTest, ScriptedThousandTickRunHasAStableHash) {
  // A course: slabs, stairs, soul sand, a block step, a fence line, a ladder column, a wall.
  for (int z = 0; z < 16; ++z) {
    put(6, 1, z, slab);
    put(7, 1, z, stone);
    put(8, 1, z, soul_sand);
    put(12, 1, z, stone);
  }
  for (int x = 0; x < 6; ++x) put(x, 1, 12, stair_n), put(x, 1, 11, stone);
  for (int x = 14; x < 24; ++x) put(x, 1, 4, fence_x);
  for (int y = 1; y <= 4; ++y) put(3, y, 3, ladder_n), put(3, y, 4, stone);
  BodyParams p;
  p.climb_speed = 2.35;
  BodyState s;
  s.feet = {3.5, 3.0, 3.4};  // the feet in the ladder's cell: it holds them (climbs)
  std::uint32_t rng = 12345u;
  auto next = [&rng]() {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
  };
  std::uint64_t h = 1469598103934665603ull;
  DriveInput in;
  int landings = 0, steps_up = 0, walls = 0, climbs = 0;
  for (std::uint32_t t = 0; t < 1000; ++t) {
    if (t % 25 == 0) {  // a new intent every 1.25 s
      const std::uint32_t r = next();
      const double speeds[4] = {0.0, 2.0, 4.3, 5.6};
      in.move_x = speeds[r & 3] * ((r >> 2) & 1 ? 1.0 : -1.0);
      in.move_z = speeds[(r >> 3) & 3] * ((r >> 5) & 1 ? 1.0 : -1.0);
      in.climb = static_cast<ClimbIntent>((r >> 6) & 3);
    }
    const std::uint32_t r = next();
    in.jump = (r & 15) == 0;
    Vec3 knock;
    if (t % 97 == 50) knock = {static_cast<double>(static_cast<int>(r % 21) - 10), 3.0, 4.0};
    MotionOverride ov{{3.0, 0.0, -1.0}, false, false, 600, 20};
    const IntegrateReport rep = integrate_character_tick(s, in, &ov, knock, 0, t, space, p, kDt);
    ASSERT_TRUE(rep.valid);
    // Keep the body on the course: pull it back toward the middle if it strays.
    if (s.feet.x < -10.0 || s.feet.x > 40.0) in.move_x = s.feet.x < 0 ? 4.0 : -4.0;
    if (s.feet.z < -10.0 || s.feet.z > 40.0) in.move_z = s.feet.z < 0 ? 4.0 : -4.0;
    landings += rep.landed;
    steps_up += rep.stepped_up;
    walls += rep.hit_wall != 0;
    climbs += rep.climbing;
    for (double d :
         {s.feet.x, s.feet.y, s.feet.z, s.velocity.x, s.velocity.y, s.velocity.z, s.carry.x,
          s.carry.y, s.carry.z, rep.displacement.x, rep.displacement.y, rep.displacement.z})
      h = fnv_double(h, d);
    const std::uint8_t flags[3] = {static_cast<std::uint8_t>(s.on_ground),
                                   static_cast<std::uint8_t>(s.mode), rep.hit_wall};
    h = fnv_bytes(h, flags, sizeof flags);
  }
  // The run exercises the interesting parts (so the hash covers them).
  EXPECT_GT(landings, 5);
  EXPECT_GT(steps_up, 0);
  EXPECT_GT(walls, 0);
  EXPECT_GT(climbs, 0);
  std::printf(
      "scripted run: hash %016llx landings %d steps %d walls %d climbs %d end (%.17g %.17g "
      "%.17g)\n",
      static_cast<unsigned long long>(h), landings, steps_up, walls, climbs, s.feet.x, s.feet.y,
      s.feet.z);
  EXPECT_EQ(h, 0x3e94c22f1664c486ull);  // pinned; identical natively and in wasm
}

}  // namespace
}  // namespace voxnav::detail
