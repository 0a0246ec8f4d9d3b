// Walker paths on the Moving AI grid benchmark (../shared/data/movingai-2d), through the public
// World API: a deterministic sample of scenario rows per map must come back Ready with a cell path
// whose 8-connected length equals the benchmark's optimal length (1e-4 relative), after a
// reachability Yes. The path is also checked against the map itself (every cell passable, steps
// 8-adjacent, no corner cutting) and its cost against its steps. Reachability is compared with the
// map's own connected components, and a start inside an enclosed pocket gives No and a request
// that fails Unreachable at once, without a search.
// Runs natively and in wasm (maps are plain text; NODERAWFS reads them from disk).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/io/movingai.h"
#include "engine/nav/world_access.h"
#include "engine/world/registry.h"
#include "scenes.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

const std::string kDir = std::string(VOXNAV_SHARED_DATA) + "/movingai-2d/";

using test::read_text;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// A World holding the voxel version of a Moving AI map, built with a hand-made registry whose
/// only solid block is a full-cube "stone".
struct MapWorld {
  detail::MovingAiMap map;
  std::unique_ptr<World> world;
  ProfileId pid;
  std::uint16_t stone = 0;
  std::vector<int> comp;  ///< 4-connected component of each passable tile (-1 blocked)
  std::vector<int> comp_size;

  int component(int x, int y) const { return comp[static_cast<std::size_t>(y) * map.width + x]; }
};

std::unique_ptr<MapWorld> load_map(const std::string& name) {
  auto mw = std::make_unique<MapWorld>();
  std::string msg;
  const std::string text = read_text(kDir + "maps/" + name);
  if (text.empty()) {
    ADD_FAILURE() << "cannot read " << kDir << "maps/" << name;
    return nullptr;
  }
  if (detail::parse_movingai_map(text, mw->map, msg) != Status::Ok) {
    ADD_FAILURE() << name << ": " << msg;
    return nullptr;
  }
  mw->world = std::make_unique<World>();
  detail::WorldState& st = detail::WorldAccess::state(*mw->world);
  mw->stone = st.registry.add(detail::BlockType{"stone", {detail::Box{{0, 0, 0}, {1, 1, 1}}}, 0, 0});
  if (detail::build_movingai_world(mw->map, mw->stone, st.space) != Status::Ok) {
    ADD_FAILURE() << name << ": build_movingai_world failed";
    return nullptr;
  }
  Profile p;
  p.id = "benchmark-walker";
  p.search_max_nodes = 100000000;
  p.search_max_distance = 1 << 20;
  std::string err;
  if (mw->world->add_profile(p, &mw->pid, &err) != Status::Ok) {
    ADD_FAILURE() << err;
    return nullptr;
  }
  mw->world->update();
  // Components of the map: with no corner cutting, a diagonal step needs both cardinal cells
  // open, so 8-connected components are the 4-connected ones.
  const detail::MovingAiMap& m = mw->map;
  mw->comp.assign(static_cast<std::size_t>(m.width) * m.height, -1);
  std::vector<int> stack;
  for (int y = 0; y < m.height; ++y)
    for (int x = 0; x < m.width; ++x) {
      if (!m.passable(x, y) || mw->comp[static_cast<std::size_t>(y) * m.width + x] >= 0) continue;
      const int id = static_cast<int>(mw->comp_size.size());
      mw->comp_size.push_back(0);
      stack.push_back(y * m.width + x);
      mw->comp[static_cast<std::size_t>(y) * m.width + x] = id;
      while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        ++mw->comp_size[static_cast<std::size_t>(id)];
        const int vx = v % m.width, vy = v / m.width;
        const int nx[4] = {vx + 1, vx - 1, vx, vx}, ny[4] = {vy, vy, vy + 1, vy - 1};
        for (int k = 0; k < 4; ++k) {
          if (!m.passable(nx[k], ny[k])) continue;
          int& c = mw->comp[static_cast<std::size_t>(ny[k]) * m.width + nx[k]];
          if (c < 0) {
            c = id;
            stack.push_back(ny[k] * m.width + nx[k]);
          }
        }
      }
    }
  return mw;
}

CellPos stand(int x, int y) { return CellPos{x, detail::kMovingAiStandY, y}; }

/// Checks a path against the map itself; returns its length (or -1 with `why`).
double check_cells(const detail::MovingAiMap& m, const std::vector<PathCell>& cells, std::uint32_t cost,
                   std::string& why) {
  std::uint64_t straight = 0, diagonal = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const CellPos c = cells[i].cell;
    if (c.y != detail::kMovingAiStandY) return why = "cell " + std::to_string(i) + " leaves the floor", -1;
    if (!m.passable(c.x, c.z)) return why = "cell " + std::to_string(i) + " is not passable on the map", -1;
    if (i == 0) {
      if (cells[i].kind != EdgeKind::Start) return why = "first cell kind is not Start", -1;
      continue;
    }
    if (cells[i].kind != EdgeKind::Walk) return why = "step " + std::to_string(i) + " is not a walk", -1;
    const CellPos p = cells[i - 1].cell;
    const int dx = c.x - p.x, dz = c.z - p.z;
    if (std::abs(dx) > 1 || std::abs(dz) > 1 || (dx == 0 && dz == 0))
      return why = "step " + std::to_string(i) + " is not 8-adjacent", -1;
    if (dx && dz) {
      if (!m.passable(p.x + dx, p.z) || !m.passable(p.x, p.z + dz))
        return why = "step " + std::to_string(i) + " cuts a corner", -1;
      ++diagonal;
    } else {
      ++straight;
    }
  }
  const std::uint64_t expect = straight * detail::kCostStraight + diagonal * detail::kCostDiagonal;
  if (expect != cost) return why = "cost " + std::to_string(cost) + " but the steps cost " + std::to_string(expect), -1;
  return static_cast<double>(straight) + static_cast<double>(diagonal) * std::sqrt(2.0);
}

struct MapCase {
  const char* map;
  int every;  ///< solve every n-th scenario row
};

#if defined(__EMSCRIPTEN__)
#define VOXNAV_SLOW_BUILD 1
constexpr int kScale = 4;  // keep the wasm run to a few seconds
#else
const int kScale = test::sanitized_build() ? 8 : 1;  // sanitizer builds: every 8th row as often
#endif

const MapCase kMaps[] = {
    {"arena.map", 10},
    {"den312d.map", 10},
    {"ht_chantry.map", 10},
    {"lak303d.map", 10 * kScale},
    {"room-400-40.map", 10 * kScale},
#ifndef VOXNAV_SLOW_BUILD
    {"AcrosstheCape.map", 40},  // 768 x 768: its world alone takes seconds in wasm
#endif
    {"brc202d.map", 40 * kScale},
    {"maze512-1-0.map", 80 * kScale},  // long maze rows: ~60k expansions each
    {"random512-10-0.map", 40 * kScale},
};

class MovingAi : public ::testing::TestWithParam<MapCase> {};

TEST_P(MovingAi, SampledRowsAreOptimal) {
  const auto t_start = std::chrono::steady_clock::now();
  const std::string name = GetParam().map;
  if (name == "AcrosstheCape.map" && test::sanitized_build())
    GTEST_SKIP() << "768 x 768: its world alone is slow under the sanitizers";
  auto mw = load_map(name);
  ASSERT_TRUE(mw);
  const double build_s = seconds_since(t_start);
  World& w = *mw->world;
  std::vector<detail::MovingAiScenario> rows;
  std::string msg;
  ASSERT_EQ(detail::parse_movingai_scen(read_text(kDir + "scens/" + name + ".scen"), rows, msg), Status::Ok) << msg;
  ASSERT_FALSE(rows.empty());

  struct Job {
    const detail::MovingAiScenario* row;
    PathHandle h;
  };
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < rows.size(); i += static_cast<std::size_t>(GetParam().every)) {
    const detail::MovingAiScenario& r = rows[i];
    ASSERT_EQ(r.map_width, mw->map.width);
    ASSERT_EQ(r.map_height, mw->map.height);
    const Reach reach = w.reachable(mw->pid, stand(r.start_x, r.start_y), stand(r.goal_x, r.goal_y));
    EXPECT_EQ(reach.answer, ReachAnswer::Yes) << name << " row " << i << " reason " << reach_reason_name(reach.reason);
    NavRequest req;
    req.profile = mw->pid;
    req.start = stand(r.start_x, r.start_y);
    req.goal = stand(r.goal_x, r.goal_y);
    Job j{&r, {}};
    ASSERT_EQ(w.request(req, &j.h), Status::Ok);
    jobs.push_back(j);
  }
  // All requests dispatch at the first update and apply (in request order) at the second.
  w.update();
  w.update();
  std::size_t passed = 0;
  std::uint64_t expanded = 0;
  std::vector<PathCell> cells;
  for (const Job& j : jobs) {
    const detail::MovingAiScenario& r = *j.row;
    PathStatus ps;
    ASSERT_EQ(w.status(j.h, &ps), Status::Ok);
    expanded += ps.nodes_expanded;
    if (ps.state != PathState::Ready) {
      ADD_FAILURE() << name << " (" << r.start_x << "," << r.start_y << ") -> (" << r.goal_x << "," << r.goal_y
                    << "): " << path_state_name(ps.state) << " " << path_failure_name(ps.failure);
      continue;
    }
    EXPECT_FALSE(ps.partial);
    std::size_t n = 0;
    ASSERT_EQ(w.path_cells(j.h, nullptr, 0, &n), Status::Ok);
    ASSERT_EQ(n, ps.cell_count);
    cells.assign(n, PathCell{});
    ASSERT_EQ(w.path_cells(j.h, cells.data(), cells.size(), &n), Status::Ok);
    ASSERT_FALSE(cells.empty());
    EXPECT_EQ(cells.front().cell, stand(r.start_x, r.start_y));
    EXPECT_EQ(cells.back().cell, stand(r.goal_x, r.goal_y));
    std::string why;
    const double len = check_cells(mw->map, cells, ps.cost, why);
    if (len < 0) {
      ADD_FAILURE() << name << " (" << r.start_x << "," << r.start_y << ") -> (" << r.goal_x << "," << r.goal_y
                    << "): " << why;
      continue;
    }
    if (std::fabs(len - r.optimal) <= 1e-4 * std::max(1.0, r.optimal)) {
      ++passed;
    } else {
      ADD_FAILURE() << name << " bucket " << r.bucket << " (" << r.start_x << "," << r.start_y << ") -> (" << r.goal_x
                    << "," << r.goal_y << "): length " << len << ", optimal " << r.optimal;
    }
    EXPECT_EQ(w.release(j.h), Status::Ok);
  }
  EXPECT_EQ(passed, jobs.size());

  // Reachability against the map's components, on random passable pairs (splitmix-style LCG).
  std::vector<int> open;
  for (int y = 0; y < mw->map.height; ++y)
    for (int x = 0; x < mw->map.width; ++x)
      if (mw->map.passable(x, y)) open.push_back(y * mw->map.width + x);
  std::uint64_t s = 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(open.size());
  auto next = [&]() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>(s >> 33);
  };
  std::size_t pairs = 0, yes = 0, wrong = 0;
  for (int k = 0; k < 400; ++k) {
    const int a = open[next() % open.size()], b = open[next() % open.size()];
    const int ax = a % mw->map.width, ay = a / mw->map.width, bx = b % mw->map.width, by = b / mw->map.width;
    const bool truth = mw->component(ax, ay) == mw->component(bx, by);
    const Reach r = w.reachable(mw->pid, stand(ax, ay), stand(bx, by));
    ++pairs;
    yes += r.answer == ReachAnswer::Yes;
    if (r.answer != (truth ? ReachAnswer::Yes : ReachAnswer::No)) {
      if (wrong++ < 5)
        ADD_FAILURE() << name << " reachable (" << ax << "," << ay << ") -> (" << bx << "," << by
                      << ") = " << reach_answer_name(r.answer) << ", map components say " << (truth ? "yes" : "no");
    }
  }
  EXPECT_EQ(wrong, 0u);
  std::printf("[%s] %zu of %zu sampled rows optimal (every %d of %zu), %llu nodes expanded; %zu reachability pairs "
              "(%zu yes) vs %zu map components: %zu wrong; world %.2f s, total %.2f s\n",
              name.c_str(), passed, jobs.size(), GetParam().every, rows.size(),
              static_cast<unsigned long long>(expanded), pairs, yes, mw->comp_size.size(), wrong, build_s,
              seconds_since(t_start));
}

INSTANTIATE_TEST_SUITE_P(Maps, MovingAi, ::testing::ValuesIn(kMaps), [](const ::testing::TestParamInfo<MapCase>& i) {
  std::string n = i.param.map;
  n = n.substr(0, n.find('.'));
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

// A start inside an enclosed pocket of a real map: reachability No both ways, and a request fails
// Unreachable at once (no search: no node expanded, no search counted after the update).
TEST(MovingAiPockets, EnclosedPocketIsUnreachableWithoutSearch) {
  std::size_t maps_with_pockets = 0;
#ifdef VOXNAV_SLOW_BUILD
  const std::vector<const char*> maps = {"room-400-40.map"};
#else
  std::vector<const char*> maps = {"room-400-40.map", "AcrosstheCape.map"};
  if (test::sanitized_build()) maps.pop_back();  // the 768 x 768 world: slow under the sanitizers
#endif
  for (const char* name : maps) {
    auto mw = load_map(name);
    ASSERT_TRUE(mw);
    World& w = *mw->world;
    const detail::MovingAiMap& m = mw->map;
    if (mw->comp_size.size() < 2) continue;
    // The largest component, and the first (row-major) cell of the smallest other one.
    int main_comp = 0;
    for (std::size_t c = 1; c < mw->comp_size.size(); ++c)
      if (mw->comp_size[c] > mw->comp_size[static_cast<std::size_t>(main_comp)]) main_comp = static_cast<int>(c);
    int pocket = -1;
    for (std::size_t c = 0; c < mw->comp_size.size(); ++c)
      if (static_cast<int>(c) != main_comp && (pocket < 0 || mw->comp_size[c] < mw->comp_size[static_cast<std::size_t>(pocket)]))
        pocket = static_cast<int>(c);
    CellPos in_pocket{}, in_main{};
    bool have_pocket = false, have_main = false;
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x) {
        if (!have_pocket && mw->component(x, y) == pocket) in_pocket = stand(x, y), have_pocket = true;
        if (!have_main && mw->component(x, y) == main_comp) in_main = stand(x, y), have_main = true;
      }
    ASSERT_TRUE(have_pocket && have_main);
    ++maps_with_pockets;
    std::printf("[%s] pocket of %d cells at (%d,%d); main area %d cells at (%d,%d); %zu components\n", name,
                mw->comp_size[static_cast<std::size_t>(pocket)], in_pocket.x, in_pocket.z,
                mw->comp_size[static_cast<std::size_t>(main_comp)], in_main.x, in_main.z, mw->comp_size.size());
    ASSERT_TRUE(w.is_standable(mw->pid, in_pocket));
    for (const auto& [from, to] : {std::pair{in_pocket, in_main}, std::pair{in_main, in_pocket}}) {
      const Reach r = w.reachable(mw->pid, from, to);
      EXPECT_EQ(r.answer, ReachAnswer::No) << name;
      EXPECT_EQ(r.reason, ReachReason::None);
      EXPECT_EQ(r.epoch, w.nav_epoch());
      const std::uint64_t searches = w.stats().searches;
      NavRequest req;
      req.profile = mw->pid;
      req.start = from;
      req.goal = to;
      PathHandle h;
      ASSERT_EQ(w.request(req, &h), Status::Ok);
      PathStatus ps;
      ASSERT_EQ(w.status(h, &ps), Status::Ok);
      EXPECT_EQ(ps.state, PathState::Failed) << name << ": fails at once, before any update";
      EXPECT_EQ(ps.failure, PathFailure::Unreachable);
      EXPECT_EQ(ps.nodes_expanded, 0u);
      w.update();
      w.update();
      ASSERT_EQ(w.status(h, &ps), Status::Ok);
      EXPECT_EQ(ps.state, PathState::Failed);
      EXPECT_EQ(ps.failure, PathFailure::Unreachable);
      EXPECT_EQ(ps.nodes_expanded, 0u);
      EXPECT_EQ(w.stats().searches, searches) << "an unreachable request must not run a search";
      std::size_t n = 99;
      EXPECT_EQ(w.path_cells(h, nullptr, 0, &n), Status::Busy);
      EXPECT_EQ(w.release(h), Status::Ok);
    }
    // A pocket cell reaches the rest of its own pocket.
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x)
        if (mw->component(x, y) == pocket) {
          EXPECT_EQ(w.reachable(mw->pid, in_pocket, stand(x, y)).answer, ReachAnswer::Yes);
        }
  }
  EXPECT_EQ(maps_with_pockets, maps.size());
}

}  // namespace
}  // namespace voxnav
