// line_flyable (voxnav/control.h) on the shipped region (data/worlds, Minecraft 1.16), against an
// exact swept-box oracle written here: the 0.98 x 1.95 body, feet moving from A to B, meets an
// obstacle when for some t in [0, 1] its box has an interior overlap with one of the obstacle's
// collision boxes (a harmful fluid or an unloaded cell counts as a whole cell). Every length is an
// integer after scaling by 12,800 (ends on a 1/64 lattice, boxes on a 1/512 one, the body 6,272
// half wide and 24,960 high), and the per-axis time intervals are compared as fractions, so the
// oracle decides exactly. line_flyable must never pass a segment the oracle blocks; it may refuse
// a clear one (conservative), and the test reports how often.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/control.h"

namespace voxnav {
namespace {

constexpr std::int64_t kS = 12800;          // units per cell
constexpr std::int64_t kHalfW = 6272;       // 0.49
constexpr std::int64_t kHeight = 24960;     // 1.95

struct Q {  // n / d, d > 0
  std::int64_t n, d;
};
bool lt(Q a, Q b) { return a.n * b.d < b.n * a.d; }  // |n| < 2^25, d < 2^22: no overflow

// Whether the body (feet F + D t, offsets lo..hi per axis) overlaps the box [m, M] (scaled) at
// some t in [0, 1].
bool sweep_hits(const std::int64_t F[3], const std::int64_t D[3], const std::int64_t lo[3],
                const std::int64_t hi[3], const std::int64_t m[3], const std::int64_t M[3]) {
  Q tlo{-1, 1}, thi{2, 1};
  for (int k = 0; k < 3; ++k) {
    // F + D t + lo < M  and  F + D t + hi > m:  D t < M - lo - F  and  D t > m - hi - F.
    const std::int64_t up = M[k] - lo[k] - F[k], down = m[k] - hi[k] - F[k];
    if (D[k] == 0) {
      if (!(0 < up && 0 > down)) return false;
      continue;
    }
    Q a{down, D[k]}, b{up, D[k]};  // t > a, t < b when D > 0
    if (D[k] < 0) a = {-up, -D[k]}, b = {-down, -D[k]};
    if (lt(tlo, a)) tlo = a;
    if (lt(b, thi)) thi = b;
  }
  const Q zero{0, 1}, one{1, 1};
  return lt(tlo, thi) && lt(tlo, one) && lt(zero, thi);
}

std::int64_t scaled(float v) {
  const double s = double(v) * double(kS);
  EXPECT_EQ(s, std::floor(s)) << "a box bound off the 1/512 lattice: " << v;
  return std::int64_t(s);
}

bool oracle_clear(const detail::Space& space, const std::int64_t A[3], const std::int64_t B[3]) {
  std::int64_t D[3];
  for (int k = 0; k < 3; ++k) D[k] = B[k] - A[k];
  const std::int64_t lo[3] = {-kHalfW, 0, -kHalfW}, hi[3] = {kHalfW, kHeight, kHalfW};
  int c0[3], c1[3];
  for (int k = 0; k < 3; ++k) {
    c0[k] = int(std::floor(double(std::min(A[k], B[k]) + lo[k]) / kS)) - 2;
    c1[k] = int(std::floor(double(std::max(A[k], B[k]) + hi[k]) / kS)) + 1;
  }
  const detail::BlockRegistry& reg = space.registry();
  for (int x = c0[0]; x <= c1[0]; ++x)
    for (int y = c0[1]; y <= c1[1]; ++y)
      for (int z = c0[2]; z <= c1[2]; ++z) {
        const CellPos c{x, y, z};
        const std::int64_t base[3] = {x * kS, y * kS, z * kS};
        const std::int64_t whole_m[3] = {base[0], base[1], base[2]};
        const std::int64_t whole_M[3] = {base[0] + kS, base[1] + kS, base[2] + kS};
        if (!space.is_cell_loaded(c) || (reg.traits(space.block(c)) & detail::kTraitFluidHarm)) {
          if (sweep_hits(A, D, lo, hi, whole_m, whole_M)) return false;
          continue;
        }
        for (const detail::Box& b : reg.type(space.block(c)).boxes) {
          const std::int64_t m[3] = {base[0] + scaled(b.min[0]), base[1] + scaled(b.min[1]), base[2] + scaled(b.min[2])};
          const std::int64_t M[3] = {base[0] + scaled(b.max[0]), base[1] + scaled(b.max[1]), base[2] + scaled(b.max[2])};
          if (sweep_hits(A, D, lo, hi, m, M)) return false;
        }
      }
  return true;
}

class FlyerLine : public ::testing::Test {
 protected:
  void SetUp() override {
    world_ = test::load_region(test::repo_region(), &walker_);
    ASSERT_TRUE(world_);
    std::string err;
    ASSERT_EQ(world_->add_profile(test::bat_profile(), &bat_, &err), Status::Ok) << err;
    world_->update();
  }
  const detail::WorldState& ws() { return detail::WorldAccess::state(*world_); }
  std::unique_ptr<World> world_;
  ProfileId walker_, bat_;
};

// Random segments near the ground (starts in hover cells, so geometry is close), ends up to 12
// cells away on the 1/64 lattice, half of them between cell centres.
TEST_F(FlyerLine, NeverPassesWhatTheOracleBlocks) {
  const detail::Space& space = ws().space;
  const detail::flight::FlyerStore& store = ws().flyer->store();
  const std::vector<ChunkPos> chunks = space.loaded_chunks();
  tools::SplitMix64 rng{2121};
  int clear_both = 0, refused_clear = 0, blocked = 0, segments = 0;
  int centred_clear = 0, centred_refused = 0;
  while (segments < 6000) {
    const ChunkPos p = chunks[rng.next() % chunks.size()];
    const CellPos c{p.x * 16 + int(rng.next() % 16), p.y * 16 + int(rng.next() % 16), p.z * 16 + int(rng.next() % 16)};
    if (!store.hover(c)) continue;
    ++segments;
    const bool centred = segments % 2 == 0;
    CellPos e{c.x + int(rng.next() % 25) - 12, c.y + int(rng.next() % 9) - 1, c.z + int(rng.next() % 25) - 12};
    std::int64_t A[3], B[3];
    const CellPos ends[2] = {c, e};
    std::int64_t* out[2] = {A, B};
    for (int k = 0; k < 2; ++k) {
      const CellPos q = ends[k];
      if (centred) {
        out[k][0] = q.x * kS + kS / 2, out[k][1] = q.y * kS, out[k][2] = q.z * kS + kS / 2;
      } else {  // anywhere on the 1/64 lattice of the cell
        out[k][0] = q.x * kS + std::int64_t(rng.next() % 64) * (kS / 64);
        out[k][1] = q.y * kS + std::int64_t(rng.next() % 64) * (kS / 64);
        out[k][2] = q.z * kS + std::int64_t(rng.next() % 64) * (kS / 64);
      }
    }
    const Vec3 a{double(A[0]) / kS, double(A[1]) / kS, double(A[2]) / kS};
    const Vec3 b{double(B[0]) / kS, double(B[1]) / kS, double(B[2]) / kS};
    bool flyable = false;
    CallError err;
    ASSERT_EQ(line_flyable(*world_, bat_, a, b, &flyable, &err), Status::Ok) << err.message;
    const bool oracle = oracle_clear(space, A, B);
    if (flyable) {
      ASSERT_TRUE(oracle) << "line_flyable passed a segment touching geometry: feet (" << a.x << "," << a.y << ","
                          << a.z << ") -> (" << b.x << "," << b.y << "," << b.z << ")";
    }
    if (oracle) {
      ++clear_both;
      refused_clear += !flyable;
      if (centred) ++centred_clear, centred_refused += !flyable;
    } else {
      ++blocked;
    }
  }
  std::printf("segments %d: oracle clear %d (refused %d), blocked %d; between cell centres: clear %d (refused %d)\n",
              segments, clear_both, refused_clear, blocked, centred_clear, centred_refused);
  // Both outcomes are well represented, and between cell centres the test rarely refuses a clear line.
  EXPECT_GT(clear_both, segments / 10);
  EXPECT_GT(blocked, segments / 10);
  EXPECT_LT(centred_refused * 10, centred_clear) << "more than 10 % of clear centred segments refused";
}

// A flyer at rest on the ground takes off straight up and sideways; the line into the ground and
// through a wall is refused.
TEST_F(FlyerLine, TakeOffAndLanding) {
  const detail::flight::FlyerStore& store = ws().flyer->store();
  const std::vector<ChunkPos> chunks = ws().space.loaded_chunks();
  tools::SplitMix64 rng{7};
  int checked = 0;
  while (checked < 200) {
    const ChunkPos p = chunks[rng.next() % chunks.size()];
    const CellPos c{p.x * 16 + int(rng.next() % 16), p.y * 16 + int(rng.next() % 16), p.z * 16 + int(rng.next() % 16)};
    if (!store.hover(c) || !store.free(CellPos{c.x, c.y + 1, c.z}) || !store.free(CellPos{c.x, c.y + 2, c.z})) continue;
    ++checked;
    const Vec3 feet{c.x + 0.5, double(c.y), c.z + 0.5};
    bool up = false, down = true;
    ASSERT_EQ(line_flyable(*world_, bat_, feet, Vec3{feet.x, feet.y + 2, feet.z}, &up), Status::Ok);
    EXPECT_TRUE(up) << test::str(c);
    ASSERT_EQ(line_flyable(*world_, bat_, feet, Vec3{feet.x, feet.y - 0.25, feet.z}, &down), Status::Ok);
    EXPECT_FALSE(down) << "into the block below " << test::str(c);
  }
}

TEST_F(FlyerLine, BadArgumentsAreRefusedByName) {
  bool clear = true;
  CallError err;
  const double nan = std::nan("");
  EXPECT_EQ(line_flyable(*world_, bat_, Vec3{nan, 70, -100}, Vec3{1, 70, -100}, &clear, &err), Status::InvalidArgument);
  EXPECT_EQ(err.argument, "from");
  EXPECT_EQ(line_flyable(*world_, bat_, Vec3{1, 70, -100}, Vec3{1, INFINITY, -100}, &clear, &err),
            Status::InvalidArgument);
  EXPECT_EQ(err.argument, "to");
  EXPECT_NE(err.message.find("not finite"), std::string::npos) << err.message;
  EXPECT_EQ(line_flyable(*world_, bat_, Vec3{1, 70, -100}, Vec3{1, 70, 5e7}, &clear, &err), Status::OutOfRange);
  EXPECT_EQ(err.argument, "to");
  EXPECT_EQ(line_flyable(*world_, bat_, Vec3{1, 70, -100}, Vec3{2000, 70, -100}, &clear, &err), Status::InvalidArgument);
  EXPECT_EQ(err.argument, "to");
  EXPECT_EQ(line_flyable(*world_, walker_, Vec3{1, 70, -100}, Vec3{2, 70, -100}, &clear, &err), Status::Unsupported);
  EXPECT_EQ(err.argument, "profile");
  EXPECT_EQ(line_flyable(*world_, bat_, Vec3{1, 70, -100}, Vec3{2, 70, -100}, nullptr, &err), Status::InvalidArgument);
  EXPECT_EQ(err.argument, "clear");
  EXPECT_EQ(line_flyable(*world_, ProfileId{77, 0}, Vec3{1, 70, -100}, Vec3{2, 70, -100}, &clear, &err),
            Status::InvalidArgument);
  EXPECT_EQ(err.argument, "profile");
  EXPECT_TRUE(clear) << "refused calls leave the answer alone";
}

}  // namespace
}  // namespace voxnav
