// control_bench: what the brain's queries cost on a real region (public API only, native).
//
// The default world (data/worlds/r.0.-1.mca, Minecraft 1.16), the default walker profile. 10,000
// random pairs of cells of the same island up to 64 cells apart (seeded), for which A* finds a
// route:
//   estimate_travel - microseconds per call (all pairs, `--reps` passes, the median pass), and its
//                     ratio to the optimal travel time (find_path_now's cost over walk speed);
//   find_path_now   - microseconds per call over the same pairs (one pass), for scale;
//   line_walkable   - microseconds per call on 10,000 random segments up to 12 cells long;
//   find_spawn_cells - microseconds per call (and calls per second) for 1,000 boxes of 64 x 32 x 64
//                     cells, N = 16, unfiltered and filtered; nearest_standable with the filter;
//   chase           - tick times of 1,000 agents: 500 targets walking to goals 20-60 cells off
//                     and 500 sprinting chasers after them (chase_agent, range 1.5 m), 400 ticks.
// Prints a markdown table (docs/benchmarks.md, "Queries a brain asks").
//
//   control_bench [--region FILE.mca] [--reps N] [--seed S] [--chase-pairs N]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "splitmix.h"
#include "bench_timing.h"
#include "voxnav/control.h"
#include "voxnav/queries.h"
#include "voxnav/native/files.h"
#include "voxnav/world.h"

using namespace voxnav;
using voxnav::bench::median;
using voxnav::bench::us_since;

namespace {

struct Pair {
  CellPos a, b;
  double truth = 0;  // seconds
};

}  // namespace

int main(int argc, char** argv) {
  std::string region = std::string(VOXNAV_REPO_DATA) + "/worlds/r.0.-1.mca";
  int reps = 5;
  std::uint64_t seed = 1;
  int chase_pairs = 500;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    if (k == "--region") region = argv[i + 1];
    if (k == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
    if (k == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    if (k == "--chase-pairs") chase_pairs = std::max(1, std::atoi(argv[i + 1]));
  }
  World w;
  std::string msg;
  if (native::load_minecraft_blocks_dir(w, std::string(VOXNAV_REPO_DATA) + "/blocks", &msg) !=
      Status::Ok) {
    std::fprintf(stderr, "control_bench: blocks: %s\n", msg.c_str());
    return 1;
  }
  LoadReport rep;
  if (native::load_world_file(w, region, LoadOptions{}, &rep) != Status::Ok) {
    std::fprintf(stderr, "control_bench: %s: %s\n", region.c_str(), rep.message.c_str());
    return 1;
  }
  ProfileId prof;
  if (w.add_profile(Profile{}, &prof) != Status::Ok) return 1;
  w.update();
  std::size_t n = 0;
  if (w.island_cells(prof, nullptr, 0, &n) != Status::Ok) return 1;
  std::vector<IslandCell> cells(n);
  if (w.island_cells(prof, cells.data(), cells.size(), &n) != Status::Ok) return 1;
  std::map<std::uint32_t, std::vector<CellPos>> islands;
  std::map<std::pair<int, int>, std::vector<CellPos>> columns;
  for (const IslandCell& c : cells) {
    islands[c.island].push_back(c.cell);
    columns[{c.cell.x, c.cell.z}].push_back(c.cell);
  }
  const double speed = Profile{}.walk_speed;
  voxnav::tools::SplitMix64 rng(seed);
  std::vector<Pair> pairs;
  double astar_us = 0;
  while (pairs.size() < 10000) {
    const IslandCell& c = cells[rng.below(cells.size())];
    const std::vector<CellPos>& isl = islands[c.island];
    const CellPos b = isl[rng.below(isl.size())];
    if (b == c.cell || std::max(std::abs(b.x - c.cell.x), std::abs(b.z - c.cell.z)) > 64) continue;
    NavRequest r;
    r.profile = prof;
    r.start = c.cell;
    r.goal = b;
    PathResult res;
    const auto t0 = std::chrono::steady_clock::now();
    if (w.find_path_now(r, &res) != Status::Ok) return 1;
    astar_us += us_since(t0);
    if (res.status.state != PathState::Ready) continue;
    pairs.push_back(Pair{c.cell, b, res.status.cost / 10000.0 / speed});
  }
  std::vector<double> passes;
  std::vector<double> ratios(pairs.size());
  double sink = 0;
  for (int k = 0; k < reps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      double s = 0;
      if (estimate_travel(w, prof, pairs[i].a, pairs[i].b, &s) != Status::Ok) return 1;
      ratios[i] = s / pairs[i].truth;
      sink += s;
    }
    passes.push_back(us_since(t0) / static_cast<double>(pairs.size()));
  }
  // line_walkable on segments up to 12 cells, ends standable within 4 levels.
  std::vector<std::pair<CellPos, CellPos>> segs;
  while (segs.size() < 10000) {
    const CellPos a = cells[rng.below(cells.size())].cell;
    auto it = columns.find({a.x + rng.range(-12, 12), a.z + rng.range(-12, 12)});
    if (it == columns.end()) continue;
    const CellPos b = it->second[rng.below(it->second.size())];
    if (std::abs(b.y - a.y) <= 4) segs.push_back({a, b});
  }
  std::vector<double> line_passes;
  int yes = 0;
  for (int k = 0; k < reps; ++k) {
    yes = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& [a, b] : segs) {
      bool q = false;
      if (line_walkable(w, prof, a, b, &q) != Status::Ok) return 1;
      yes += q ? 1 : 0;
    }
    line_passes.push_back(us_since(t0) / static_cast<double>(segs.size()));
  }
  // find_spawn_cells: 1,000 boxes of 64 x 32 x 64 cells centred on random standable cells, N =
  // 16, with no filter and with a typical one (2 cells of headroom, no hazard within 2 cells, no
  // fluid around, 16 m from 4 players, reachable from the box's centre, a callback refusing a
  // quarter of the cells); then the filtered nearest_standable (radius 16) from the same centres.
  std::vector<CellPos> centres;
  while (centres.size() < 1000) centres.push_back(cells[rng.below(cells.size())].cell);
  std::vector<double> spawn_plain, spawn_filtered, nearest_filtered;
  std::size_t spawned_plain = 0, spawned_filtered = 0, nearest_found = 0;
  for (int k = 0; k < reps; ++k) {
    for (int variant = 0; variant < 3; ++variant) {
      spawned_plain = variant == 0 ? 0 : spawned_plain;
      const auto t0 = std::chrono::steady_clock::now();
      std::size_t total = 0;
      for (const CellPos& c : centres) {
        CellFilter f;
        const Vec3 players[4] = {{c.x + 3.5, c.y + 0.0, c.z - 2.5}, {c.x - 20.5, c.y + 2.0, c.z + 8.5},
                                 {c.x + 17.5, c.y - 1.0, c.z + 19.5}, {c.x - 5.5, c.y + 0.0, c.z - 25.5}};
        if (variant > 0) {
          f.min_headroom = 2;
          f.hazard_distance = 2;
          f.exclude_fluids = true;
          f.avoid = players;
          f.min_distance = 16.0;
          f.reach = CellReach::From;
          f.reach_cell = c;
          f.reject = [](CellPos p) { return ((p.x * 7 + p.z * 3 + p.y) & 3) == 0; };
        }
        if (variant < 2) {
          CellPos out[16];
          std::size_t count = 0;
          if (find_spawn_cells(w, prof, CellPos{c.x - 32, c.y - 16, c.z - 32},
                               CellPos{c.x + 31, c.y + 15, c.z + 31}, f, 7, out, 16,
                               &count) != Status::Ok)
            return 1;
          total += count;
        } else {
          CellPos out;
          const Status st = nearest_standable(w, prof, c, 16, f, &out);
          if (st != Status::Ok && st != Status::NotFound) return 1;
          total += st == Status::Ok ? 1 : 0;
        }
      }
      const double us = us_since(t0) / static_cast<double>(centres.size());
      (variant == 0 ? spawn_plain : variant == 1 ? spawn_filtered : nearest_filtered).push_back(us);
      (variant == 0 ? spawned_plain : variant == 1 ? spawned_filtered : nearest_found) = total;
    }
  }
  std::sort(ratios.begin(), ratios.end());
  auto pct = [&](double p) { return ratios[static_cast<std::size_t>(p * (ratios.size() - 1))]; };
  const double within =
      static_cast<double>(std::count_if(ratios.begin(), ratios.end(),
                                        [](double x) { return x >= 2.0 / 3.0; })) /
      static_cast<double>(ratios.size());
  std::printf("| query | calls | us per call (median of %d passes) |\n|---|---|---|\n", reps);
  std::printf("| estimate_travel | %zu pairs | %.3f |\n", pairs.size(), median(passes));
  std::printf("| find_path_now (A*, the same pairs, one pass) | %zu pairs | %.1f |\n",
              pairs.size(), astar_us / static_cast<double>(pairs.size()));
  std::printf("| line_walkable (segments up to 12 cells; %d say yes) | %zu segments | %.3f |\n",
              yes, segs.size(), median(line_passes));
  std::printf("| find_spawn_cells (64x32x64 box, N = 16, no filter; %zu cells found; %.0f calls/s) "
              "| %zu boxes | %.3f |\n",
              spawned_plain, 1e6 / median(spawn_plain), centres.size(), median(spawn_plain));
  std::printf("| find_spawn_cells (the same, filtered: headroom 2, no hazard within 2, no fluid, "
              "16 m from 4 points, reachable, a callback; %zu cells found; %.0f calls/s) | %zu boxes "
              "| %.3f |\n",
              spawned_filtered, 1e6 / median(spawn_filtered), centres.size(),
              median(spawn_filtered));
  std::printf("| nearest_standable (radius 16, the same filter; %zu found) | %zu centres | %.3f "
              "|\n\n",
              nearest_found, centres.size(), median(nearest_filtered));
  std::printf("| estimate / optimal | min | p5 | p10 | p25 | median | p90 | max | at least 2/3 |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  std::printf("| %zu pairs | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f%% |\n",
              ratios.size(), ratios.front(), pct(0.05), pct(0.10), pct(0.25), pct(0.5), pct(0.9),
              ratios.back(), 100.0 * within);
  // Chases: `chase_pairs` targets walking to goals 20-60 cells away on their island and as many
  // chasers (sprinting, range 1.5 m) started 4-10 cells from them; tick times over 400 ticks.
  std::vector<AgentId> agents;
  int placed = 0;
  while (placed < chase_pairs) {
    const IslandCell& c = cells[rng.below(cells.size())];
    const std::vector<CellPos>& isl = islands[c.island];
    if (isl.size() < 500) continue;
    const CellPos g = isl[rng.below(isl.size())], h = isl[rng.below(isl.size())];
    const int dg = std::max(std::abs(g.x - c.cell.x), std::abs(g.z - c.cell.z));
    const int dh = std::max(std::abs(h.x - c.cell.x), std::abs(h.z - c.cell.z));
    if (dg < 20 || dg > 60 || dh < 4 || dh > 10) continue;
    double ty = 0, hy = 0;
    if (w.standing_height(prof, c.cell, &ty) != Status::Ok ||
        w.standing_height(prof, h, &hy) != Status::Ok)
      return 1;
    AgentId t, ch;
    if (w.add_agent(AgentDef{prof, Vec3{c.cell.x + 0.5, ty, c.cell.z + 0.5}, g}, &t) != Status::Ok ||
        w.add_agent(AgentDef{prof, Vec3{h.x + 0.5, hy, h.z + 0.5}}, &ch) != Status::Ok ||
        set_agent_sprint(w, ch, true) != Status::Ok || chase_agent(w, ch, t, 1.5) != Status::Ok)
      return 1;
    agents.push_back(ch);
    ++placed;
  }
  std::vector<double> ticks;
  int caught = 0;
  std::vector<bool> got(agents.size(), false);
  for (int k = 0; k < 400; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    if (w.tick(0.05) != Status::Ok) return 1;
    ticks.push_back(us_since(t0) / 1000.0);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      AgentState st;
      if (w.agent_state(agents[i], &st) != Status::Ok) return 1;
      if (!got[i] && st.arrivals > 0) {
        got[i] = true;
        ++caught;
      }
    }
  }
  // The chasers that never caught theirs, by mode at the end (printed under the table).
  std::map<std::string, int> missed;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    AgentState st;
    if (w.agent_state(agents[i], &st) != Status::Ok) return 1;
    if (!got[i]) ++missed[agent_mode_name(st.mode)];
  }
  std::vector<double> sorted = ticks;
  std::sort(sorted.begin(), sorted.end());
  double total = 0;
  for (double t : ticks) total += t;
  std::printf("\n| chase scene | agents | ticks | ms per tick: mean | median | p99 | max | "
              "chasers that caught |\n|---|---|---|---|---|---|---|---|\n");
  std::printf("| %d targets walking, %d sprinting chasers | %d | %zu | %.3f | %.3f | %.3f | %.3f | "
              "%d of %d |\n",
              chase_pairs, chase_pairs, 2 * chase_pairs, ticks.size(), total / ticks.size(),
              sorted[sorted.size() / 2], sorted[sorted.size() * 99 / 100], sorted.back(), caught,
              chase_pairs);
  std::printf("\nchasers that never caught, by mode at the end:");
  for (const auto& [mode, count] : missed) std::printf(" %s %d", mode.c_str(), count);
  std::printf("\n");
  if (sink < 0) std::printf("%f\n", sink);
  return 0;
}
