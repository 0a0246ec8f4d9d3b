// The straight line for flyers (line_flyable, engine/flight/flight_line.h) and the string-pulled
// corridor (FlightPath::waypoints):
// - against an exact oracle written here in integer arithmetic: every cell the swept voxel body
//   touches, found by intersecting the three per-axis time intervals as fractions, on random
//   segments of the Moving AI Simple map (ends on a 1/64 voxel lattice, so every quantity is an
//   integer after scaling by 1024). The test must never pass a line the oracle blocks, and may
//   refuse only a rare grazing one;
// - against the benchmark's box rule: a move between neighbouring voxel centres passes exactly
//   when every voxel of the box it spans is free (random grids, every 26-neighbour move);
// - the corridors of Simple's rows: start and goal kept, every segment clear and at most
//   kFlightPullSegment long, never longer than the cell path, never shorter than the straight line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "scenes.h"
#include "splitmix.h"
#include "voxnav/flight.h"

namespace voxnav {
namespace {

std::string movingai3d(const char* file) { return std::string(VOXNAV_SHARED_DATA) + "/movingai-3d/" + file; }

// ---- the exact oracle ----
// Lengths are scaled by 1024: the body's half extent is 511, a voxel edge 1024.
constexpr std::int64_t kScale = 1024;
constexpr std::int64_t kHalf = 511;

// A fraction n / d with d > 0.
struct Frac {
  std::int64_t n, d;
};
bool less(Frac a, Frac b) { return a.n * b.d < b.n * a.d; }

// Whether the body centred on A + t D (scaled) for t in [0, 1] has an interior overlap with voxel
// v at some t: the conjunction over the axes of (A + D t - H < (v + 1) S) and (A + D t + H > v S).
bool oracle_touches(const std::int64_t A[3], const std::int64_t D[3], const int v[3]) {
  Frac lo{-1, 1}, hi{2, 1};  // below 0 and above 1: the [0, 1] clip is applied below
  bool have_lo = false, have_hi = false;
  for (int k = 0; k < 3; ++k) {
    const std::int64_t low = std::int64_t(v[k]) * kScale - kHalf - A[k];         // D t > low
    const std::int64_t high = (std::int64_t(v[k]) + 1) * kScale + kHalf - A[k];  // D t < high
    if (D[k] == 0) {
      if (!(0 > low && 0 < high)) return false;
      continue;
    }
    Frac l{low, D[k]}, h{high, D[k]};
    if (D[k] < 0) {
      l = {-high, -D[k]};
      h = {-low, -D[k]};
    }
    if (!have_lo || less(lo, l)) lo = l, have_lo = true;
    if (!have_hi || less(h, hi)) hi = h, have_hi = true;
  }
  // Some t in [0, 1] with lo < t < hi.
  const Frac zero{0, 1}, one{1, 1};
  if (!have_lo) lo = {-1, 1};
  if (!have_hi) hi = {2, 1};
  return less(lo, hi) && less(lo, one) && less(zero, hi);
}

bool oracle_clear(const VoxelMap& map, const std::int64_t A[3], const std::int64_t B[3]) {
  std::int64_t D[3];
  int lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    D[k] = B[k] - A[k];
    lo[k] = int((std::min(A[k], B[k]) - kHalf) / kScale) - 1;
    hi[k] = int((std::max(A[k], B[k]) + kHalf) / kScale) + 1;
  }
  for (int x = lo[0]; x <= hi[0]; ++x)
    for (int y = lo[1]; y <= hi[1]; ++y)
      for (int z = lo[2]; z <= hi[2]; ++z) {
        const int v[3] = {x, y, z};
        if (oracle_touches(A, D, v) && !map.free({x, y, z})) return false;
      }
  return true;
}

VoxelMap load(const char* file) {
  VoxelMap map;
  std::string err;
  const std::string text = test::read_text(movingai3d(file));
  EXPECT_FALSE(text.empty()) << file;
  EXPECT_EQ(parse_voxel_map(text, &map, &err), Status::Ok) << err;
  return map;
}

TEST(FlightLine, AgreesWithTheExactSweptBoxOracleOnSimple) {
  const VoxelMap map = load("Simple.3dmap");
  ASSERT_FALSE(map.empty());
  tools::SplitMix64 rng(0x5eed11e);
  int passed = 0, blocked = 0, grazing = 0, tried = 0;
  while (tried < 3000) {
    // A start anywhere in a free voxel (on the 1/64 lattice, inside by the body's margin: the
    // body at the start fits), an end within 20 voxels on each axis.
    const CellPos s{int(rng.below(std::uint64_t(map.size_x()))), int(rng.below(std::uint64_t(map.size_y()))),
                    int(rng.below(std::uint64_t(map.size_z())))};
    if (!map.free(s)) continue;
    std::int64_t A[3], B[3];
    const int sv[3] = {s.x, s.y, s.z};
    const int size[3] = {map.size_x(), map.size_y(), map.size_z()};
    bool inside = true;
    for (int k = 0; k < 3; ++k) {
      A[k] = std::int64_t(sv[k]) * kScale + kScale / 2 + (std::int64_t(rng.below(9)) - 4) * 16;
      B[k] = A[k] + (std::int64_t(rng.below(41 * 64)) - 20 * 64) * 16;  // multiples of 1/64 voxel
    }
    // Half the segments end beside geometry (a free voxel with a blocked face neighbour), so
    // lines graze surfaces, corners and edges as often as they cross open air.
    if (rng.below(2) == 0) {
      for (int attempt = 0; attempt < 64; ++attempt) {
        const CellPos e{s.x + int(rng.below(41)) - 20, s.y + int(rng.below(41)) - 20, s.z + int(rng.below(41)) - 20};
        if (!map.free(e)) continue;
        const bool beside = !map.free({e.x + 1, e.y, e.z}) || !map.free({e.x - 1, e.y, e.z}) ||
                            !map.free({e.x, e.y + 1, e.z}) || !map.free({e.x, e.y - 1, e.z}) ||
                            !map.free({e.x, e.y, e.z + 1}) || !map.free({e.x, e.y, e.z - 1});
        if (!beside) continue;
        const int ev[3] = {e.x, e.y, e.z};
        for (int k = 0; k < 3; ++k)
          B[k] = std::int64_t(ev[k]) * kScale + kScale / 2 + (std::int64_t(rng.below(9)) - 4) * 16;
        break;
      }
    }
    for (int k = 0; k < 3; ++k) inside = inside && B[k] >= 0 && B[k] <= std::int64_t(size[k]) * kScale;
    if (!inside) continue;
    ++tried;
    bool fast = false;
    std::string err;
    const Vec3 from{double(A[0]) / kScale, double(A[1]) / kScale, double(A[2]) / kScale};
    const Vec3 to{double(B[0]) / kScale, double(B[1]) / kScale, double(B[2]) / kScale};
    ASSERT_EQ(line_flyable(map, from, to, &fast, &err), Status::Ok) << err;
    const bool exact = oracle_clear(map, A, B);
    if (exact && fast) ++passed;
    if (!exact) {
      ASSERT_FALSE(fast) << "a line the swept body touches geometry on passed: (" << from.x << "," << from.y << ","
                         << from.z << ") -> (" << to.x << "," << to.y << "," << to.z << ")";
      ++blocked;
    }
    if (exact && !fast) ++grazing;
  }
  std::printf("line_flyable on Simple: %d clear, %d blocked, %d clear lines refused (grazing)\n", passed, blocked,
              grazing);
  // Both answers are common on this map, and refusals of clear lines are rare grazes.
  EXPECT_GT(passed, 300);
  EXPECT_GT(blocked, 300);
  EXPECT_LE(grazing, tried / 200);
}

TEST(FlightLine, NeighbourMovesFollowTheBoxRule) {
  tools::SplitMix64 rng(77);
  for (int round = 0; round < 4; ++round) {
    const int n = 9;
    std::string text = "voxel 9 9 9\n";
    std::vector<char> blocked(std::size_t(n * n * n), 0);
    for (int i = 0; i < n * n * n; ++i)
      if (rng.below(100) < 30) {
        blocked[std::size_t(i)] = 1;
        text += std::to_string(i % n) + " " + std::to_string((i / n) % n) + " " + std::to_string(i / (n * n)) + "\n";
      }
    VoxelMap map;
    std::string err;
    ASSERT_EQ(parse_voxel_map(text, &map, &err), Status::Ok) << err;
    int moves = 0, clear_moves = 0;
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          if (!map.free({x, y, z})) continue;
          for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
              for (int dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dy == 0 && dz == 0) continue;
                const CellPos b{x + dx, y + dy, z + dz};
                if (b.x < 0 || b.y < 0 || b.z < 0 || b.x >= n || b.y >= n || b.z >= n) continue;
                bool rule = true;  // every voxel of the box the move spans is free
                for (int ax = 0; ax <= (dx != 0); ++ax)
                  for (int ay = 0; ay <= (dy != 0); ++ay)
                    for (int az = 0; az <= (dz != 0); ++az) rule = rule && map.free({x + ax * dx, y + ay * dy, z + az * dz});
                bool clear = false;
                ASSERT_EQ(line_flyable(map, {x + 0.5, y + 0.5, z + 0.5}, {b.x + 0.5, b.y + 0.5, b.z + 0.5}, &clear, &err),
                          Status::Ok);
                ASSERT_EQ(clear, rule) << "(" << x << "," << y << "," << z << ") + (" << dx << "," << dy << "," << dz
                                       << ")";
                ++moves;
                clear_moves += clear ? 1 : 0;
              }
        }
    EXPECT_GT(moves, 1000);
    EXPECT_GT(clear_moves, 100);
    EXPECT_LT(clear_moves, moves);
  }
}

double distance(CellPos a, CellPos b) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

TEST(FlightLine, PulledCorridorsOfSimpleAreClearAndShort) {
  VoxelMap map = load("Simple.3dmap");
  std::vector<VoxelScenRow> rows;
  std::string err;
  ASSERT_EQ(parse_voxel_scen(test::read_text(movingai3d("Simple.3dmap.3dscen")), &map, &rows, &err), Status::Ok) << err;
  int shorter_than_optimal = 0, checked = 0;
  for (const FlightMode mode : {FlightMode::Default, FlightMode::Optimal})
    for (std::size_t i = 7; i < rows.size(); i += 50) {  // 200 rows per mode
      const VoxelScenRow& r = rows[i];
      SCOPED_TRACE("line " + std::to_string(r.line));
      FlightSearchDef def;
      def.mode = mode;
      FlightPath p;
      ASSERT_EQ(find_flight_path(map, r.start, r.goal, def, &p, &err), Status::Ok) << err;
      ASSERT_TRUE(p.found);
      ASSERT_GE(p.waypoints.size(), 2u);
      ASSERT_EQ(p.waypoints.front(), r.start);
      ASSERT_EQ(p.waypoints.back(), r.goal);
      double sum = 0;
      for (std::size_t k = 1; k < p.waypoints.size(); ++k) {
        const CellPos a = p.waypoints[k - 1], b = p.waypoints[k];
        bool clear = false;
        ASSERT_EQ(line_flyable(map, {a.x + 0.5, a.y + 0.5, a.z + 0.5}, {b.x + 0.5, b.y + 0.5, b.z + 0.5}, &clear, &err),
                  Status::Ok);
        ASSERT_TRUE(clear) << "segment " << k;
        ASSERT_LE(distance(a, b), kFlightPullSegment + 1e-12);
        sum += distance(a, b);
      }
      EXPECT_NEAR(p.pulled_length, sum, 1e-9);
      EXPECT_LE(p.pulled_length, p.length + 1e-9);
      EXPECT_GE(p.pulled_length, distance(r.start, r.goal) - 1e-9);
      if (p.pulled_length < r.optimal - 1e-4 * std::max(1.0, r.optimal)) ++shorter_than_optimal;
      ++checked;
    }
  std::printf("pulled corridors: %d of %d shorter than the 26-connected optimum\n", shorter_than_optimal, checked);
  EXPECT_EQ(checked, 400);
  EXPECT_GT(shorter_than_optimal, 0);  // any-angle segments beat grid paths on open maps
}

TEST(FlightLine, BadInputIsRefusedByName) {
  const VoxelMap map = load("Simple.3dmap");
  bool clear = true;
  std::string err;
  EXPECT_EQ(line_flyable(map, {1, 1, 1}, {2, 2, 2}, nullptr, &err), Status::InvalidArgument);
  EXPECT_EQ(line_flyable(map, {1, std::nan(""), 1}, {2, 2, 2}, &clear, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("from.y"), std::string::npos) << err;
  EXPECT_EQ(line_flyable(map, {1, 1, 1}, {2, 2, HUGE_VAL}, &clear, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("to.z"), std::string::npos) << err;
  EXPECT_EQ(line_flyable(map, {-0.5, 1, 1}, {2, 2, 2}, &clear, &err), Status::OutOfRange);
  EXPECT_NE(err.find("from.x -0.5 is outside"), std::string::npos) << err;  // shortest form, not %f
  EXPECT_EQ(line_flyable(map, {1, 1, 1}, {2, 200, 2}, &clear, &err), Status::OutOfRange);
  EXPECT_NE(err.find("to.y"), std::string::npos) << err;
  EXPECT_TRUE(clear);  // untouched by the refused calls
  const VoxelMap empty;
  EXPECT_EQ(line_flyable(empty, {1, 1, 1}, {2, 2, 2}, &clear, &err), Status::InvalidArgument);
}

}  // namespace
}  // namespace voxnav
