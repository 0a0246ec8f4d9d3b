// find_spawn_cells and the filtered nearest_standable on the real region shipped in the
// repository (data/worlds/r.0.-1.mca), against an oracle written from the public API alone:
// standability from World::is_standable, the blocks from World::get_block and
// World::block_def (collision boxes, hazard and fluid traits), distances with std::hypot,
// reachability from World::reachable. Every cell of the box is judged by the oracle; the query
// must return only cells that pass, as many as min(N, the cells that pass), the same cells for a
// seed, other cells for another seed, honour the host callback's rejections, and change nothing
// on bad input. The filtered nearest_standable is checked against a brute-force nearest over
// the whole cube.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "splitmix.h"
#include "test_support.h"
#include "voxnav/queries.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using CellKey = std::tuple<int, int, int>;
CellKey key(CellPos c) { return {c.x, c.y, c.z}; }

/// The public view of every block value: collision, hazard, fluid.
struct BlockView {
  std::vector<bool> solid, hazard, fluid;
};

BlockView block_view(const World& w) {
  BlockView v;
  const std::size_t n = w.block_count();
  v.solid.resize(n);
  v.hazard.resize(n);
  v.fluid.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    BlockDef d;
    EXPECT_EQ(w.block_def(static_cast<std::uint16_t>(i), &d), Status::Ok);
    v.solid[i] = !d.boxes.empty();
    v.hazard[i] = d.traits.hazard != BlockHazard::None;
    v.fluid[i] = d.traits.fluid != BlockFluid::None;
  }
  return v;
}

/// The oracle: does `c` pass `f` (the callback aside)? Written from the public API and the
/// header's words only.
struct Oracle {
  const World& w;
  ProfileId pid;
  const BlockView& blocks;

  std::uint16_t block(int x, int y, int z) const {
    std::uint16_t v = 0;
    if (w.get_block(CellPos{x, y, z}, &v) != Status::Ok) return 0;  // not loaded: air
    return v;
  }
  bool passes(const CellFilter& f, CellPos c) const {
    if (!w.is_standable(pid, c)) return false;
    for (int h = 1; h <= f.min_headroom; ++h)
      if (blocks.solid[block(c.x, c.y + h, c.z)]) return false;
    if (f.hazard_distance > 0) {
      const int d = f.hazard_distance;
      for (int y = c.y - 1; y <= c.y + 2; ++y)
        for (int z = c.z - d; z <= c.z + d; ++z)
          for (int x = c.x - d; x <= c.x + d; ++x)
            if (blocks.hazard[block(x, y, z)]) return false;
    }
    if (f.exclude_fluids)
      for (int y = c.y - 1; y <= c.y + 1; ++y)
        for (int z = c.z - 1; z <= c.z + 1; ++z)
          for (int x = c.x - 1; x <= c.x + 1; ++x)
            if (blocks.fluid[block(x, y, z)]) return false;
    for (const Vec3& p : f.avoid) {
      const double d = std::hypot(std::hypot(p.x - (c.x + 0.5), p.y - c.y), p.z - (c.z + 0.5));
      if (d < f.min_distance) return false;
    }
    const bool from = f.reach == CellReach::From || f.reach == CellReach::Both;
    const bool to = f.reach == CellReach::To || f.reach == CellReach::Both;
    if (from && w.reachable(pid, f.reach_cell, c).answer != ReachAnswer::Yes) return false;
    if (to && w.reachable(pid, c, f.reach_cell).answer != ReachAnswer::Yes) return false;
    return true;
  }
};

/// A host's line-of-sight stand-in: a fixed pattern of cells it refuses.
bool host_refuses(CellPos c) { return ((c.x * 7 + c.z * 3 + c.y) & 3) == 0; }

struct Scene {
  std::unique_ptr<World> world;
  ProfileId pid;
  CellPos centre;  // a cell of the biggest island
  BlockView blocks;
};

Scene& scene() {
  static Scene s = [] {
    Scene r;
    r.world = test::load_region(test::repo_region(), &r.pid);
    if (!r.world) return r;
    const test::StandableByIsland by = test::standable_by_island(*r.world);
    const std::vector<CellPos>* big = nullptr;
    for (const auto& [id, cells] : by.by_island)
      if (!big || cells.size() > big->size()) big = &cells;
    r.centre = (*big)[big->size() / 2];
    r.blocks = block_view(*r.world);
    return r;
  }();
  return s;
}

/// Set while find_spawn_cells runs in check_spawn: the test's callbacks count only those calls
/// (the oracle asks them too).
bool in_query = false;

CellPos offset(CellPos c, int dx, int dy, int dz) { return CellPos{c.x + dx, c.y + dy, c.z + dz}; }

/// Runs find_spawn_cells and checks it against the oracle over the whole box; returns the cells.
std::vector<CellPos> check_spawn(const CellFilter& f, CellPos mn, CellPos mx, std::size_t n,
                                 std::uint64_t seed, std::size_t* passing_out = nullptr,
                                 std::set<CellKey>* known = nullptr) {
  Scene& s = scene();
  const Oracle o{*s.world, s.pid, s.blocks};
  std::set<CellKey> judged;
  std::set<CellKey>& passing = known ? *known : judged;
  if (passing.empty())
    for (int y = mn.y; y <= mx.y; ++y)
      for (int z = mn.z; z <= mx.z; ++z)
        for (int x = mn.x; x <= mx.x; ++x) {
          const CellPos c{x, y, z};
          if (o.passes(f, c) && !(f.reject && f.reject(c))) passing.insert(key(c));
        }
  std::vector<CellPos> out(n + 4, CellPos{-7, -7, -7});
  std::size_t count = 99999;
  CallError err;
  in_query = true;
  const Status st = find_spawn_cells(*s.world, s.pid, mn, mx, f, seed, out.data(), n, &count, &err);
  in_query = false;
  EXPECT_EQ(st, Status::Ok) << err.message;
  EXPECT_EQ(count, std::min(n, passing.size()));
  std::set<CellKey> seen;
  for (std::size_t i = 0; i < count && i < n; ++i) {
    const CellPos c = out[i];
    EXPECT_TRUE(passing.count(key(c))) << "cell " << test::str(c) << " does not pass the filter";
    EXPECT_TRUE(seen.insert(key(c)).second) << "cell " << test::str(c) << " returned twice";
  }
  for (std::size_t i = count; i < out.size(); ++i)
    EXPECT_EQ(key(out[i]), key(CellPos{-7, -7, -7})) << "written past count at " << i;
  out.resize(std::min(count, n));
  if (passing_out) *passing_out = passing.size();
  return out;
}

bool same(const std::vector<CellPos>& a, const std::vector<CellPos>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

TEST(SpawnCells, NoFilterOracleAndSeeds) {
  Scene& s = scene();
  ASSERT_TRUE(s.world);
  const CellPos mn = offset(s.centre, -32, -16, -32), mx = offset(s.centre, 31, 15, 31);
  std::size_t passing = 0;
  const std::vector<CellPos> a = check_spawn(CellFilter{}, mn, mx, 16, 1, &passing);
  std::printf("standable cells in the 64x32x64 box: %zu\n", passing);
  ASSERT_GT(passing, 1000u);
  EXPECT_TRUE(same(a, check_spawn(CellFilter{}, mn, mx, 16, 1)));  // same seed, same cells
  std::set<std::vector<CellKey>> choices;
  std::set<CellKey> known;  // the oracle's verdicts on the box, judged once
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    std::vector<CellKey> k;
    for (const CellPos& c : check_spawn(CellFilter{}, mn, mx, 16, seed, nullptr, &known))
      k.push_back(key(c));
    choices.insert(k);
  }
  EXPECT_EQ(choices.size(), 8u) << "8 seeds over thousands of cells must choose differently";
  // The largest N takes every standable cell of a box holding fewer.
  const CellPos smn = offset(s.centre, -8, -4, -8), smx = offset(s.centre, 7, 3, 7);
  std::size_t small = 0;
  const std::vector<CellPos> all = check_spawn(CellFilter{}, smn, smx, kMaxSpawnCells, 5, &small);
  EXPECT_EQ(all.size(), small);
  EXPECT_GT(small, 50u);
}

TEST(SpawnCells, FullFilterAndCallback) {
  Scene& s = scene();
  ASSERT_TRUE(s.world);
  const CellPos mn = offset(s.centre, -32, -16, -32), mx = offset(s.centre, 31, 15, 31);
  const std::vector<Vec3> players{{s.centre.x + 0.37, s.centre.y + 0.11, s.centre.z + 0.73},
                                  {s.centre.x - 20.2, s.centre.y + 1.0, s.centre.z + 9.9},
                                  {s.centre.x + 14.6, s.centre.y - 3.0, s.centre.z - 17.3}};
  CellFilter f;
  f.min_headroom = 3;
  f.hazard_distance = 2;
  f.exclude_fluids = true;
  f.avoid = players;
  f.min_distance = 12.3;
  f.reach = CellReach::From;
  f.reach_cell = s.centre;
  int calls = 0;
  std::set<CellKey> asked;
  const Oracle o{*s.world, s.pid, s.blocks};
  CellFilter probe = f;  // the oracle's copy, without the callback
  f.reject = [&](CellPos c) {
    if (!in_query) return host_refuses(c);
    ++calls;
    EXPECT_TRUE(o.passes(probe, c)) << "the callback was asked about a failing cell";
    EXPECT_TRUE(asked.insert(key(c)).second) << "the callback was asked twice about a cell";
    return host_refuses(c);
  };
  std::size_t passing = 0;
  const std::vector<CellPos> a = check_spawn(f, mn, mx, 16, 42, &passing);
  calls = 0;
  asked.clear();
  const std::vector<CellPos> b = check_spawn(f, mn, mx, 16, 42);
  std::printf("cells passing the full filter and the callback: %zu; callback calls: %d\n",
              passing, calls);
  EXPECT_GE(passing, 64u);
  EXPECT_TRUE(same(a, b));
  for (const CellPos& c : a) EXPECT_FALSE(host_refuses(c));
  // The callback is asked of the cells returned and of the rejected ones met before the 16th.
  EXPECT_GE(calls, 16);
  // Without the callback the same seed returns cells the callback would have refused.
  CellFilter no_cb = probe;
  const std::vector<CellPos> c = check_spawn(no_cb, mn, mx, 64, 42);
  EXPECT_TRUE(std::any_of(c.begin(), c.end(), host_refuses));
  // Reach To and Both on a smaller box, and a reach cell on another island.
  CellFilter g;
  g.reach_cell = s.centre;
  for (const CellReach r : {CellReach::To, CellReach::Both}) {
    g.reach = r;
    check_spawn(g, offset(s.centre, -16, -8, -16), offset(s.centre, 15, 7, 15), 200, 3);
  }
}

TEST(SpawnCells, BadInputChangesNothing) {
  Scene& s = scene();
  ASSERT_TRUE(s.world);
  World& w = *s.world;
  double fy = 0;
  ASSERT_EQ(w.standing_height(s.pid, s.centre, &fy), Status::Ok);
  AgentId agent;
  ASSERT_EQ(w.add_agent(AgentDef{s.pid, Vec3{s.centre.x + 0.5, fy, s.centre.z + 0.5}}, &agent),
            Status::Ok);
  w.update();
  std::uint64_t h0 = 0;
  ASSERT_EQ(state_hash(w, std::span<const AgentId>(&agent, 1), &h0), Status::Ok);
  const std::uint64_t epoch0 = w.nav_epoch();
  const CellPos mn = offset(s.centre, -4, -4, -4), mx = offset(s.centre, 4, 4, 4);
  const Vec3 nan{std::nan(""), 0, 0};
  const std::vector<Vec3> many(kMaxFilterPoints + 1, Vec3{0, 0, 0});
  struct Case {
    const char* argument;
    Status status;
    ProfileId pid;
    CellPos mn, mx;
    std::size_t n;
    CellFilter f;
    bool null_out = false, null_count = false;
  };
  int cb_calls = 0;
  auto with = [&](auto edit) {
    CellFilter f;
    f.reject = [&](CellPos) { ++cb_calls; return false; };
    edit(f);
    return f;
  };
  const auto none = [](CellFilter&) {};
  const CellPos far{0, kMaxCellY + 1, 0};
  std::vector<Case> cases{
      {"out", Status::InvalidArgument, s.pid, mn, mx, 4, with(none), true},
      {"count", Status::InvalidArgument, s.pid, mn, mx, 4, with(none), false, true},
      {"profile", Status::InvalidArgument, ProfileId{77, 0}, mn, mx, 4, with(none)},
      {"min", Status::OutOfRange, s.pid, far, mx, 4, with(none)},
      {"max", Status::OutOfRange, s.pid, mn, far, 4, with(none)},
      {"max", Status::InvalidArgument, s.pid, mx, mn, 4, with(none)},
      {"max", Status::InvalidArgument, s.pid, mn, offset(mn, 64, 63, 63), 4, with(none)},
      {"max_cells", Status::InvalidArgument, s.pid, mn, mx, 0, with(none)},
      {"max_cells", Status::InvalidArgument, s.pid, mn, mx, kMaxSpawnCells + 1, with(none)},
      {"filter.min_headroom", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([](CellFilter& f) { f.min_headroom = kMaxFilterHeadroom + 1; })},
      {"filter.min_headroom", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([](CellFilter& f) { f.min_headroom = -1; })},
      {"filter.hazard_distance", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([](CellFilter& f) { f.hazard_distance = kMaxFilterHazardDistance + 1; })},
      {"filter.min_distance", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([](CellFilter& f) { f.min_distance = std::nan(""); })},
      {"filter.min_distance", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([](CellFilter& f) { f.min_distance = kMaxFilterDistance * 2; })},
      {"filter.avoid", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([&](CellFilter& f) { f.avoid = many; })},
      {"filter.avoid[0]", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([&](CellFilter& f) { f.avoid = std::span<const Vec3>(&nan, 1); })},
      {"filter.reach", Status::InvalidArgument, s.pid, mn, mx, 4,
       with([](CellFilter& f) { f.reach = static_cast<CellReach>(9); })},
      {"filter.reach_cell", Status::OutOfRange, s.pid, mn, mx, 4,
       with([&](CellFilter& f) {
         f.reach = CellReach::To;
         f.reach_cell = far;
       })},
  };
  for (const Case& c : cases) {
    std::vector<CellPos> out(8, CellPos{-7, -7, -7});
    std::size_t count = 12345;
    CallError err;
    const Status st = find_spawn_cells(w, c.pid, c.mn, c.mx, c.f, 1, c.null_out ? nullptr : out.data(),
                                       c.n, c.null_count ? nullptr : &count, &err);
    EXPECT_EQ(st, c.status) << c.argument << ": " << err.message;
    EXPECT_EQ(err.argument, c.argument) << err.message;
    EXPECT_EQ(err.function, "find_spawn_cells");
    EXPECT_EQ(count, 12345u) << c.argument;
    for (const CellPos& p : out) EXPECT_EQ(key(p), key(CellPos{-7, -7, -7})) << c.argument;
    // The same through nearest_standable (the filter's and the profile's cases).
    if (std::string(c.argument).rfind("filter.", 0) == 0 || c.pid.index == 77) {
      CellPos near_out{-7, -7, -7};
      CallError e2;
      EXPECT_EQ(nearest_standable(w, c.pid, s.centre, 4, c.f, &near_out, &e2), c.status);
      EXPECT_EQ(e2.argument, c.argument);
      EXPECT_EQ(key(near_out), key(CellPos{-7, -7, -7}));
    }
  }
  CellPos near_out{-7, -7, -7};
  CallError e3;
  EXPECT_EQ(nearest_standable(w, s.pid, s.centre, kMaxNearestRadius + 1, CellFilter{}, &near_out, &e3),
            Status::InvalidArgument);
  EXPECT_EQ(e3.argument, "radius");
  EXPECT_EQ(nearest_standable(w, s.pid, far, 3, CellFilter{}, &near_out, &e3), Status::OutOfRange);
  EXPECT_EQ(e3.argument, "near");
  EXPECT_EQ(nearest_standable(w, s.pid, s.centre, 3, CellFilter{}, nullptr, &e3),
            Status::InvalidArgument);
  EXPECT_EQ(e3.argument, "out");
  EXPECT_EQ(key(near_out), key(CellPos{-7, -7, -7}));
  EXPECT_EQ(cb_calls, 0) << "the callback was called on bad input";
  std::uint64_t h1 = 0;
  ASSERT_EQ(state_hash(w, std::span<const AgentId>(&agent, 1), &h1), Status::Ok);
  EXPECT_EQ(h0, h1);
  EXPECT_EQ(w.nav_epoch(), epoch0);
  EXPECT_EQ(w.remove_agent(agent), Status::Ok);
}

/// Brute-force nearest: every cell of the cube, least (d2, dy, dz, dx) that passes.
bool brute_nearest(const Oracle& o, const CellFilter& f, CellPos near, int radius, CellPos* out) {
  bool found = false;
  std::tuple<long long, int, int, int> best{};
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dz = -radius; dz <= radius; ++dz)
      for (int dx = -radius; dx <= radius; ++dx) {
        const CellPos c{near.x + dx, near.y + dy, near.z + dz};
        if (!o.passes(f, c) || (f.reject && f.reject(c))) continue;
        const std::tuple<long long, int, int, int> k{1LL * dx * dx + dy * dy + dz * dz, dy, dz, dx};
        if (!found || k < best) {
          best = k;
          *out = c;
          found = true;
        }
      }
  return found;
}

TEST(SpawnCells, NearestStandableWithFilterMatchesBruteForce) {
  Scene& s = scene();
  ASSERT_TRUE(s.world);
  const Oracle o{*s.world, s.pid, s.blocks};
  tools::SplitMix64 rng(20);
  const std::vector<Vec3> player{{s.centre.x + 0.5, s.centre.y + 0.0, s.centre.z + 0.5}};
  int found = 0, none = 0;
  const int trials = test::rounds(300, 60);
  for (int t = 0; t < trials; ++t) {
    const CellPos near = offset(s.centre, rng.range(-40, 40), rng.range(-10, 10), rng.range(-40, 40));
    const int radius = rng.range(0, 8);
    CellFilter f;
    switch (t % 4) {
      case 0: break;
      case 1: f.min_headroom = 2; f.exclude_fluids = true; break;
      case 2:
        f.hazard_distance = 1;
        f.avoid = player;
        f.min_distance = 9.5;
        f.reach = CellReach::Both;
        f.reach_cell = s.centre;
        break;
      case 3: f.reject = host_refuses; f.min_headroom = 1; break;
    }
    CellPos want{}, got{-7, -7, -7};
    const bool exists = brute_nearest(o, f, near, radius, &want);
    const Status st = nearest_standable(*s.world, s.pid, near, radius, f, &got);
    if (exists) {
      ASSERT_EQ(st, Status::Ok) << "near " << test::str(near) << " radius " << radius;
      EXPECT_EQ(key(got), key(want)) << "near " << test::str(near) << " radius " << radius
                                     << " filter case " << t % 4;
      ++found;
    } else {
      EXPECT_EQ(st, Status::NotFound);
      EXPECT_EQ(key(got), key(CellPos{-7, -7, -7}));
      ++none;
    }
  }
  std::printf("nearest_standable with a filter: %d found, %d none, of %d\n", found, none, trials);
  EXPECT_GT(found, trials / 3);
  EXPECT_GT(none, 0);
}

}  // namespace
}  // namespace voxnav
