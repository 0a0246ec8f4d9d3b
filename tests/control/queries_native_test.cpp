// line_walkable and estimate_travel on the real region shipped in the repository
// (data/worlds/r.0.-1.mca), against independent oracles:
// - line_walkable against the movement step itself: 5,000 random segments (ends standable, up to
//   12 cells apart and 4 levels) walked by step_body with the drive aimed at the far end at walk
//   speed, no jump; the step "walks the line" when the body ends in the far cell, on the ground,
//   within 0.01 of its centre, without a wall contact on the way. The query must never say yes
//   where the step does not; the agreement rate is printed.
// - the same for walker_large (2,000 segments over its foot cells, its centre a cell off).
// - estimate_travel against A* (find_path_now's optimal cost in cells of level walking over the
//   walk speed) on 10,000 random pairs of the same island up to 64 cells apart: never above it;
//   the ratio distribution is printed (the share of pairs within 2/3 of it is pinned at what
//   the bound reaches, 74%: the target of 90% is not met yet).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/integrate.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct Region {
  std::unique_ptr<World> world;
  ProfileId pid;
  std::vector<CellPos> cells;
  std::map<std::pair<int, int>, std::vector<CellPos>> columns;  // (x, z) -> standable cells
  std::map<std::uint32_t, std::vector<CellPos>> islands;
  std::vector<std::uint32_t> island_of;
};

Region load() {
  Region r;
  r.world = test::load_region(test::repo_region(), &r.pid);
  if (!r.world) return r;
  detail::NavWorld& nav = *detail::WorldAccess::state(*r.world).walker();
  const detail::NavGrid& g = nav.grid();
  r.cells = test::standable_cells(g);
  for (const CellPos& c : r.cells) {
    r.columns[{c.x, c.z}].push_back(c);
    const std::uint32_t id = nav.islands().component(g, c);
    r.islands[id].push_back(c);
    r.island_of.push_back(id);
  }
  return r;
}

double feet_y(World& w, ProfileId pid, CellPos c) {
  double y = 0;
  EXPECT_EQ(w.standing_height(pid, c, &y), Status::Ok);
  return y;
}

/// The movement step walking straight from a's centre to b's: true when it gets there as above.
/// `centre`: the body centre's offset from the foot cell's low corner (0.5; 1.0 for the 2x2
/// footprint of walker_large).
bool step_walks(World& w, ProfileId pid, const BodyParams& body, double speed, CellPos a,
                CellPos b, double centre = 0.5) {
  BodyState st;
  st.feet = Vec3{a.x + centre, feet_y(w, pid, a), a.z + centre};
  st.on_ground = true;
  const Vec3 t{b.x + centre, feet_y(w, pid, b), b.z + centre};
  const double dt = 0.05;
  const double len = std::hypot(t.x - st.feet.x, t.z - st.feet.z);
  const int ticks = static_cast<int>(std::ceil(len / (speed * dt))) + 80;
  for (int k = 0; k < ticks; ++k) {
    const double dx = t.x - st.feet.x, dz = t.z - st.feet.z;
    const double d = std::hypot(dx, dz);
    BodyInput in;
    if (d > 1e-9) {
      const double v = std::min(speed, d / dt);
      in.move_x = dx / d * v;
      in.move_z = dz / d * v;
    }
    StepReport rep;
    if (step_body(w, st, in, body, dt, &rep) != Status::Ok) return false;
    if (rep.hit_wall_x || rep.hit_wall_z) return false;
    if (d <= 1e-9 && st.on_ground) break;
  }
  const CellPos end{static_cast<int>(std::floor(st.feet.x - (centre - 0.5))),
                    static_cast<int>(std::floor(st.feet.y + 1e-3)),
                    static_cast<int>(std::floor(st.feet.z - (centre - 0.5)))};
  return st.on_ground && end == b && std::hypot(t.x - st.feet.x, t.z - st.feet.z) < 0.01;
}

TEST(Queries, LineWalkableNeverPassesALineTheStepCannotWalk) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  BodyParams body;
  ASSERT_EQ(profile_body(w, r.pid, &body), Status::Ok);
  const double speed = Profile{}.walk_speed;
  tools::SplitMix64 rng(11 + test::env_seed("VOXNAV_LINE_SEED"));
  const int kSegments = 5000 * test::env_scale("VOXNAV_LINE_SCALE");
  int yes_yes = 0, no_no = 0, yes_no = 0, no_yes = 0, level = 0, level_yes = 0, changes_yes = 0;
  std::vector<std::pair<CellPos, CellPos>> wrong;
  for (int i = 0; i < kSegments;) {
    const CellPos a = r.cells[rng.below(r.cells.size())];
    const int dx = rng.range(-12, 12), dz = rng.range(-12, 12);
    auto it = r.columns.find({a.x + dx, a.z + dz});
    if (it == r.columns.end()) continue;
    std::vector<CellPos> near;
    for (const CellPos& c : it->second)
      if (std::abs(c.y - a.y) <= 4) near.push_back(c);
    if (near.empty()) continue;
    const CellPos b = near[rng.below(near.size())];
    ++i;
    bool q = false;
    ASSERT_EQ(line_walkable(w, r.pid, a, b, &q), Status::Ok);
    const bool s = step_walks(w, r.pid, body, speed, a, b);
    if (q && s) ++yes_yes;
    if (!q && !s) ++no_no;
    if (!q && s) ++no_yes;
    if (q && !s) {
      ++yes_no;
      if (wrong.size() < 10) wrong.push_back({a, b});
    }
    if (a.y == b.y) ++level;
    if (q && a.y == b.y) ++level_yes;
    if (q && a.y != b.y) ++changes_yes;
  }
  std::printf(
      "line_walkable vs the movement step, %d segments: both yes %d, both no %d, query no / "
      "step yes %d (conservative), query yes / step no %d; agreement %.1f%%; of the step's yes, "
      "the query says yes to %.1f%%; query yes on one level %d of %d, across levels %d\n",
      kSegments, yes_yes, no_no, no_yes, yes_no, 100.0 * (yes_yes + no_no) / kSegments,
      100.0 * yes_yes / std::max(1, yes_yes + no_yes), level_yes, level, changes_yes);
  for (const auto& [a, b] : wrong)
    ADD_FAILURE() << "line_walkable says yes, the step does not walk it: " << test::str(a)
                  << " -> " << test::str(b);
  EXPECT_EQ(yes_no, 0);
  EXPECT_GT(yes_yes, kSegments / 20);  // it does say yes, often
  EXPECT_GT(changes_yes, kSegments / 100);  // including lines that change level
}

// The same check for a walker_large body (1.98 x 2.95, a 2x2 footprint, step 1, drops of 4)
// over its own navigation's foot cells.
TEST(Queries, LineWalkableIsConservativeForTheLargeFootprint) {
  ProfileId walker;
  auto w = test::load_region(test::repo_region(), &walker);
  ASSERT_TRUE(w);
  Profile p;
  p.id = "golem";
  p.movement_class = MovementClass::WalkerLarge;
  p.width = 1.98;
  p.height = 2.95;
  p.step_height = 1.0;
  p.max_drop = 4;
  ProfileId golem;
  ASSERT_EQ(w->add_profile(p, &golem), Status::Ok);
  w->update();
  const detail::NavGrid& g =
      detail::WorldAccess::state(*w).nav_of(MovementClass::WalkerLarge)->grid();
  const std::vector<CellPos> cells = test::standable_cells(g);
  ASSERT_GT(cells.size(), 1000u);
  std::map<std::pair<int, int>, std::vector<CellPos>> columns;
  for (const CellPos& c : cells) columns[{c.x, c.z}].push_back(c);
  BodyParams body;
  ASSERT_EQ(profile_body(*w, golem, &body), Status::Ok);
  tools::SplitMix64 rng(31);
  int yes_yes = 0, no_yes = 0, yes_no = 0, segments = 0;
  while (segments < 2000) {
    const CellPos a = cells[rng.below(cells.size())];
    auto it = columns.find({a.x + rng.range(-12, 12), a.z + rng.range(-12, 12)});
    if (it == columns.end()) continue;
    const CellPos b = it->second[rng.below(it->second.size())];
    if (std::abs(b.y - a.y) > 4) continue;
    ++segments;
    bool q = false;
    ASSERT_EQ(line_walkable(*w, golem, a, b, &q), Status::Ok);
    const bool st = step_walks(*w, golem, body, p.walk_speed, a, b, 1.0);
    yes_yes += q && st;
    no_yes += !q && st;
    if (q && !st && ++yes_no <= 5)
      ADD_FAILURE() << "walker_large: line_walkable says yes, the step does not walk it: "
                    << test::str(a) << " -> " << test::str(b);
  }
  std::printf("walker_large, %d segments: both yes %d, query no / step yes %d, query yes / step "
              "no %d\n",
              segments, yes_yes, no_yes, yes_no);
  EXPECT_EQ(yes_no, 0);
  EXPECT_GT(yes_yes, 20);
}

TEST(Queries, EstimateTravelIsALowerBoundOfTheOptimalTravelTime) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  const double speed = Profile{}.walk_speed;
  tools::SplitMix64 rng(23);
  std::vector<double> ratios;
  int above = 0;
  while (ratios.size() < 10000) {
    const std::size_t ia = rng.below(r.cells.size());
    const CellPos a = r.cells[ia];
    const std::vector<CellPos>& island = r.islands[r.island_of[ia]];
    if (island.size() < 2) continue;
    const CellPos b = island[rng.below(island.size())];
    if (b == a || std::max(std::abs(b.x - a.x), std::abs(b.z - a.z)) > 64) continue;
    PathResult res;
    NavRequest req;
    req.profile = r.pid;
    req.start = a;
    req.goal = b;
    ASSERT_EQ(w.find_path_now(req, &res), Status::Ok);
    if (res.status.state != PathState::Ready) continue;  // a search limit: no true time
    const double truth = res.status.cost / 10000.0 / speed;
    double est = -1;
    ASSERT_EQ(estimate_travel(w, r.pid, a, b, &est), Status::Ok);
    if (est > truth * (1 + 1e-12)) {
      if (++above < 10)
        ADD_FAILURE() << "estimate " << est << " s above the optimal " << truth << " s: "
                      << test::str(a) << " -> " << test::str(b);
    }
    ratios.push_back(est / truth);
  }
  std::sort(ratios.begin(), ratios.end());
  auto pct = [&](double p) { return ratios[static_cast<std::size_t>(p * (ratios.size() - 1))]; };
  const double within = static_cast<double>(std::count_if(ratios.begin(), ratios.end(),
                                                          [](double x) { return x >= 2.0 / 3; })) /
                        ratios.size();
  std::printf(
      "estimate_travel / optimal travel time over %zu pairs: min %.3f p5 %.3f p10 %.3f p25 %.3f "
      "median %.3f p90 %.3f max %.3f; %.1f%% at least 2/3\n",
      ratios.size(), ratios.front(), pct(0.05), pct(0.10), pct(0.25), pct(0.5), pct(0.9),
      ratios.back(), 100.0 * within);
  EXPECT_EQ(above, 0);
  // The target is 90% of pairs at 2/3 or more; the octile-and-rise bound reaches 74%
  // here (routes around water and hills are far longer than the straight distance). This pins
  // what it does so a change that loosens it fails; docs/agents.md#queries says what would
  // reach the target.
  EXPECT_GE(within, 0.72);
}

TEST(Queries, BadInputNamesTheArgument) {
  Region r = load();
  ASSERT_TRUE(r.world);
  World& w = *r.world;
  const CellPos a = r.cells.front();
  bool q = true;
  double t = 7;
  CallError e;
  EXPECT_EQ(line_walkable(w, ProfileId{9}, a, a, &q, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "profile");
  EXPECT_EQ(line_walkable(w, r.pid, a, a, nullptr, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "out");
  EXPECT_EQ(line_walkable(w, r.pid, a, CellPos{a.x + 300, a.y, a.z}, &q, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.argument, "to");
  EXPECT_EQ(line_walkable(w, r.pid, CellPos{0, 5000, 0}, a, &q, &e), Status::OutOfRange);
  EXPECT_EQ(e.argument, "from");
  EXPECT_TRUE(q);
  EXPECT_EQ(estimate_travel(w, r.pid, a, CellPos{0, 0, 1 << 26}, &t, &e), Status::OutOfRange);
  EXPECT_EQ(e.argument, "to");
  EXPECT_EQ(estimate_travel(w, r.pid, a, a, nullptr, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "seconds");
  EXPECT_EQ(t, 7);
  EXPECT_EQ(estimate_travel(w, r.pid, a, a, &t, &e), Status::Ok);
  EXPECT_EQ(t, 0.0);
  EXPECT_EQ(line_walkable(w, r.pid, a, a, &q, &e), Status::Ok);
  EXPECT_TRUE(q);
}

}  // namespace
}  // namespace voxnav
