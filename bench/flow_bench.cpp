// flow_bench: what a flow field costs on a real region (public API only, native).
//
// The default world (data/worlds/r.0.-1.mca, Minecraft 1.16), one walker profile. For goals
// spread over the region's biggest island, a field 161 cells across (cover points at the corners,
// the widest region a field takes):
//   build    - the update() that dispatches the build, plus the update() that installs it, with
//              no executor (the build runs inside the first) and with a 2-thread pool (the second
//              waits for the jobs), minus two updates of the same world without a field;
//   rebuild  - one block edit in the region: the two update()s that process it and rebuild the
//              field, minus the same edit's two update()s without a field (the layers'
//              maintenance).
// Median of the repetitions, milliseconds.
//
//   flow_bench [--region FILE.mca] [--reps N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "voxnav/crowds.h"
#include "voxnav/native/files.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"

using namespace voxnav;
using voxnav::bench::median;
using voxnav::bench::us_since;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Setup {
  std::unique_ptr<native::ThreadPool> pool;  // (declared first: the World goes before its pool)
  std::unique_ptr<World> world;
  ProfileId prof;
  std::vector<CellPos> goals;
};

bool load(Setup& s, const std::string& region, bool threads) {
  WorldDef def;
  if (threads) {
    s.pool = std::make_unique<native::ThreadPool>(2);
    def.executor = s.pool.get();
  }
  s.world = std::make_unique<World>(def);
  std::string msg;
  if (native::load_minecraft_blocks_dir(*s.world, std::string(VOXNAV_REPO_DATA) + "/blocks",
                                        &msg) != Status::Ok) {
    std::fprintf(stderr, "flow_bench: blocks: %s\n", msg.c_str());
    return false;
  }
  LoadReport rep;
  if (native::load_world_file(*s.world, region, LoadOptions{}, &rep) != Status::Ok) {
    std::fprintf(stderr, "flow_bench: %s: %s\n", region.c_str(), rep.message.c_str());
    return false;
  }
  if (s.world->add_profile(Profile{}, &s.prof) != Status::Ok) return false;
  s.world->update();
  std::size_t n = 0;
  if (s.world->island_cells(s.prof, nullptr, 0, &n) != Status::Ok) return false;
  std::vector<IslandCell> cells(n);
  if (s.world->island_cells(s.prof, cells.data(), cells.size(), &n) != Status::Ok) return false;
  std::uint32_t biggest = 0;
  for (const IslandCell& c : cells) biggest = std::max(biggest, c.island_size);
  std::vector<CellPos> big;
  for (const IslandCell& c : cells)
    if (c.island_size == biggest) big.push_back(c.cell);
  for (int i = 1; i <= 5; ++i) s.goals.push_back(big[big.size() * static_cast<std::size_t>(i) / 6]);
  return true;
}

std::vector<CellPos> corners(CellPos g) {
  std::vector<CellPos> v;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      for (int sz : {-1, 1})
        v.push_back(CellPos{g.x + sx * kFlowRegionHalfWidth, g.y + sy * kFlowRegionHalfWidth,
                            g.z + sz * kFlowRegionHalfWidth});
  return v;
}

double timed_updates(World& w, int n) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int k = 0; k < n; ++k) w.update();
  return ms_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string region = std::string(VOXNAV_REPO_DATA) + "/worlds/r.0.-1.mca";
  int reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--region" && i + 1 < argc)
      region = argv[++i];
    else if (a == "--reps" && i + 1 < argc)
      reps = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: flow_bench [--region FILE.mca] [--reps N]\n");
      return 2;
    }
  }
  std::printf(
      "| executor | goal | region cells | reached | build ms | rebuild after one edit ms |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const bool threads : {false, true}) {
    Setup s;
    if (!load(s, region, threads)) return 1;
    World& w = *s.world;
    std::uint16_t stone = 0;
    if (w.block_value("stone", &stone) != Status::Ok) return 1;
    for (const CellPos& goal : s.goals) {
      std::vector<double> build, rebuild;
      FlowStatus st;
      for (int r = 0; r < reps; ++r) {
        const double idle = timed_updates(w, 2);
        FlowId f;
        if (request_flow(w, s.prof, goal, corners(goal), &f) != Status::Ok) return 1;
        build.push_back(timed_updates(w, 2) - idle);
        if (flow_status(w, f, &st) != Status::Ok || st.state != FlowState::Ready) {
          std::fprintf(stderr, "flow_bench: the field of (%d,%d,%d) is not ready\n", goal.x, goal.y,
                       goal.z);
          return 1;
        }
        timed_updates(w, 6);  // past the rebuild rate limit
        // One edit beside the goal (a block above a cell 3 away, toggled back after): with and
        // without the field, the same edit's update.
        const CellPos c{goal.x + 3, goal.y + 1, goal.z};
        std::uint16_t old = 0;
        if (w.get_block(c, &old) != Status::Ok) return 1;
        if (w.set_block(c, stone) != Status::Ok) return 1;
        const double with = timed_updates(w, 2);  // (the second waits for a pool's jobs)
        timed_updates(w, 6);
        if (release_flow(w, f) != Status::Ok) return 1;
        if (w.set_block(c, old) != Status::Ok) return 1;
        timed_updates(w, 2);
        if (w.set_block(c, stone) != Status::Ok) return 1;
        const double without = timed_updates(w, 2);
        if (w.set_block(c, old) != Status::Ok) return 1;
        timed_updates(w, 2);
        rebuild.push_back(with - without);
      }
      std::printf("| %s | (%d, %d, %d) | %u | %u | %.2f | %.2f |\n",
                  threads ? "ThreadPool(2)" : "none (sync)", goal.x, goal.y, goal.z, st.cells,
                  st.reached, median(build), median(rebuild));
    }
  }
  return 0;
}
