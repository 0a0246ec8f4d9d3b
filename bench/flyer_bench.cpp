// flyer_bench: what a World's flyers cost on a real region (public API only, native).
//
// The default world (data/worlds/r.0.-1.mca, Minecraft 1.16) and one flyer profile:
//   add_profile    - milliseconds to build the flyer layer and its components for every loaded
//                    chunk (the first flyer profile);
//   line_flyable   - microseconds per call on 2,000 segments 100 to 150 cells long between random
//                    free cells (a ground cell raised 0 to 24 cells), and how many are clear;
//   reachable      - microseconds per call over the request pairs below;
//   find_path_now  - microseconds per call on 2,000 pairs of ground cells 16 to 64 cells apart:
//                    how many are straight lines, searched, unreachable (components) or failed,
//                    the median expansions of a search.
// Prints a markdown table (docs/benchmarks.md, "Flyers in a World").
//
//   flyer_bench [--region FILE.mca] [--seed S]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "splitmix.h"
#include "bench_timing.h"
#include "voxnav/control.h"
#include "voxnav/native/files.h"
#include "voxnav/world.h"

using namespace voxnav;
using voxnav::bench::median;
using voxnav::bench::us_since;

namespace {

}  // namespace

int main(int argc, char** argv) {
  std::string region = std::string(VOXNAV_REPO_DATA) + "/worlds/r.0.-1.mca";
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--region") region = argv[i + 1];
    if (k == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  World w;
  std::string msg;
  if (native::load_minecraft_blocks_dir(w, std::string(VOXNAV_REPO_DATA) + "/blocks", &msg) != Status::Ok) {
    std::fprintf(stderr, "flyer_bench: blocks: %s\n", msg.c_str());
    return 1;
  }
  LoadReport rep;
  if (native::load_world_file(w, region, LoadOptions{}, &rep) != Status::Ok) {
    std::fprintf(stderr, "flyer_bench: %s: %s\n", region.c_str(), rep.message.c_str());
    return 1;
  }
  ProfileId walker, bat;
  if (w.add_profile(Profile{}, &walker) != Status::Ok) return 1;
  w.update();
  Profile p;
  p.id = "bat";
  p.movement_class = MovementClass::Flyer;
  p.can_fly = true;
  p.jump_apex = 0;
  const auto t_build = std::chrono::steady_clock::now();
  if (w.add_profile(p, &bat, &msg) != Status::Ok) {
    std::fprintf(stderr, "flyer_bench: add_profile: %s\n", msg.c_str());
    return 1;
  }
  const double build_ms = us_since(t_build) / 1000;
  w.update();
  // Ground cells: the walker's standable cells the flyer can be in too.
  std::size_t n = 0;
  if (w.island_cells(walker, nullptr, 0, &n) != Status::Ok) return 1;
  std::vector<IslandCell> cells(n);
  if (w.island_cells(walker, cells.data(), cells.size(), &n) != Status::Ok) return 1;
  std::vector<CellPos> ground;
  for (const IslandCell& c : cells)
    if (w.is_standable(bat, c.cell)) ground.push_back(c.cell);
  tools::SplitMix64 rng{seed};
  const auto pick = [&]() { return ground[rng.next() % ground.size()]; };
  // line_flyable on long segments.
  std::vector<double> line_us;
  int clear_count = 0;
  while (line_us.size() < 2000) {
    CellPos a = pick(), b = pick();
    const double d = std::hypot(double(b.x - a.x), double(b.z - a.z));
    if (d < 100 || d > 150) continue;
    a.y += int(rng.next() % 25);
    b.y += int(rng.next() % 25);
    if (!w.is_standable(bat, a) || !w.is_standable(bat, b)) continue;
    const Vec3 fa{a.x + 0.5, double(a.y), a.z + 0.5}, fb{b.x + 0.5, double(b.y), b.z + 0.5};
    bool clear = false;
    const auto t0 = std::chrono::steady_clock::now();
    if (line_flyable(w, bat, fa, fb, &clear) != Status::Ok) return 1;
    line_us.push_back(us_since(t0));
    clear_count += clear;
  }
  // Requests and reachability.
  std::vector<double> path_us, reach_us, expansions;
  int straight = 0, searched = 0, unreachable = 0, nopath = 0, budget = 0, other = 0;
  while (path_us.size() < 2000) {
    const CellPos a = pick(), b = pick();
    const int d = std::max({std::abs(b.x - a.x), std::abs(b.y - a.y), std::abs(b.z - a.z)});
    if (d < 16 || d > 64) continue;
    NavRequest req;
    req.profile = bat;
    req.start = a;
    req.goal = b;
    PathResult r;
    auto t0 = std::chrono::steady_clock::now();
    if (w.find_path_now(req, &r) != Status::Ok) return 1;
    path_us.push_back(us_since(t0));
    t0 = std::chrono::steady_clock::now();
    const Reach reach = w.reachable(bat, a, b);
    reach_us.push_back(us_since(t0));
    (void)reach;
    if (r.status.state == PathState::Ready) {
      if (r.status.nodes_expanded == 0) ++straight;
      else ++searched, expansions.push_back(r.status.nodes_expanded);
    } else if (r.status.failure == PathFailure::Unreachable) {
      ++unreachable;
    } else if (r.status.failure == PathFailure::NoPath) {
      ++nopath;  // no route inside the search's window
    } else if (r.status.failure == PathFailure::BudgetExhausted) {
      ++budget;
    } else {
      ++other;
    }
  }
  std::printf("| what | value |\n|---|---|\n");
  std::printf("| add_profile (flyer layer + components of %zu ground cells' region) | %.1f ms |\n", ground.size(), build_ms);
  std::printf("| line_flyable, 100-150 cells, median | %.2f us (%d of %zu clear) |\n", median(line_us), clear_count,
              line_us.size());
  std::printf("| reachable, median | %.2f us |\n", median(reach_us));
  std::printf("| find_path_now 16-64 cells, median | %.1f us |\n", median(path_us));
  std::printf("| find_path_now outcomes | %d straight, %d searched (median %.0f expansions), %d unreachable, %d NoPath "
              "(window), %d budget, %d other |\n",
              straight, searched, median(expansions), unreachable, nopath, budget, other);
  return 0;
}
