// flight_bench: the flight search (voxnav/flight.h, public API only) on the Moving AI voxel
// benchmark, optimal mode and default mode in the same run: per-row search time and expansions per
// second on Simple (every row) and A1 (every --a1-stride'th row; 1 = all 10,000), and the default
// mode's length / the optimum. Prints a markdown table for docs/benchmarks.md.
//
//   flight_bench [--a1-stride S] [--simple-stride S]
//
// Times are wall clock per row (std::chrono::steady_clock) and, for the whole run, the process's
// CPU time (std::clock): on a shared machine the CPU rate is the steadier one.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "scenes.h"
#include "voxnav/flight.h"

namespace {

struct Run {
  std::string name, mode;
  std::size_t rows = 0, passed = 0;
  double load_ms = 0, bytes_per_voxel = 0;
  double mean_ms = 0, median_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0;
  double mean_expanded = 0, mexp_wall = 0, mexp_cpu = 0;
  double ratio_median = 0, ratio_max = 0;  // length / the row's optimum
};

double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, static_cast<std::size_t>(p / 100.0 * double(v.size() - 1) + 0.5));
  return v[i];
}

bool run_map(const char* name, std::size_t stride, voxnav::FlightMode mode, Run& out) {
  const std::string dir = std::string(VOXNAV_SHARED_DATA) + "/movingai-3d/";
  const std::string map_text = voxnav::test::read_text(dir + name + ".3dmap");
  const std::string scen_text = voxnav::test::read_text(dir + name + ".3dmap.3dscen");
  if (map_text.empty() || scen_text.empty()) {
    std::fprintf(stderr, "flight_bench: %s not found in %s\n", name, dir.c_str());
    return false;
  }
  voxnav::VoxelMap map;
  std::string err;
  const auto t0 = std::chrono::steady_clock::now();
  if (voxnav::parse_voxel_map(map_text, &map, &err) != voxnav::Status::Ok) {
    std::fprintf(stderr, "flight_bench: %s: %s\n", name, err.c_str());
    return false;
  }
  out.load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::vector<voxnav::VoxelScenRow> rows;
  if (voxnav::parse_voxel_scen(scen_text, &map, &rows, &err) != voxnav::Status::Ok) {
    std::fprintf(stderr, "flight_bench: %s scen: %s\n", name, err.c_str());
    return false;
  }
  voxnav::FlightSearchDef def;
  def.max_expansions = voxnav::kMaxFlightExpansions;
  def.mode = mode;
  const bool optimal = mode == voxnav::FlightMode::Optimal;
  std::vector<double> ratios;
  voxnav::FlightPath path;
  std::vector<double> ms;
  std::uint64_t expanded = 0;
  double total_ms = 0;
  const std::clock_t c0 = std::clock();
  for (std::size_t i = 0; i < rows.size(); i += stride) {
    const voxnav::VoxelScenRow& r = rows[i];
    const auto s0 = std::chrono::steady_clock::now();
    const voxnav::Status st = voxnav::find_flight_path(map, r.start, r.goal, def, &path, &err);
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count();
    ms.push_back(t);
    total_ms += t;
    expanded += path.expanded;
    ++out.rows;
    // Optimal mode passes a row with its exact length, default mode with any path.
    if (st == voxnav::Status::Ok && path.found &&
        (!optimal || std::abs(path.length - r.optimal) <= 1e-4 * std::max(1.0, r.optimal)))
      ++out.passed;
    if (path.found && r.optimal > 0) ratios.push_back(path.length / r.optimal);
  }
  const double cpu_s = double(std::clock() - c0) / CLOCKS_PER_SEC;
  out.name = name;
  out.mode = optimal ? "optimal" : "default";
  out.ratio_median = pct(ratios, 50);
  out.ratio_max = ratios.empty() ? 0 : *std::max_element(ratios.begin(), ratios.end());
  out.bytes_per_voxel = double(map.stats().grid_bytes) / double(map.stats().voxels);
  out.mean_ms = total_ms / double(out.rows);
  out.median_ms = pct(ms, 50);
  out.p90_ms = pct(ms, 90);
  out.p99_ms = pct(ms, 99);
  out.max_ms = *std::max_element(ms.begin(), ms.end());
  out.mean_expanded = double(expanded) / double(out.rows);
  out.mexp_wall = double(expanded) / total_ms / 1000.0;
  out.mexp_cpu = cpu_s > 0 ? double(expanded) / cpu_s / 1e6 : 0;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t a1_stride = 20, simple_stride = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--a1-stride" || a == "--simple-stride") && i + 1 < argc) {
      const long v = std::strtol(argv[++i], nullptr, 10);
      if (v < 1) {
        std::fprintf(stderr, "flight_bench: %s expects a stride >= 1\n", a.c_str());
        return 2;
      }
      (a == "--a1-stride" ? a1_stride : simple_stride) = std::size_t(v);
    } else {
      std::fprintf(stderr, "usage: flight_bench [--a1-stride S] [--simple-stride S]\n");
      return 2;
    }
  }
  std::vector<Run> runs;
  for (const auto& [name, stride] : {std::pair<const char*, std::size_t>{"Simple", simple_stride}, {"A1", a1_stride}}) {
    for (voxnav::FlightMode mode : {voxnav::FlightMode::Optimal, voxnav::FlightMode::Default}) {
      Run r;
      if (!run_map(name, stride, mode, r)) return 1;
      runs.push_back(r);
    }
  }
  std::printf("| map | mode | rows | passed | load ms | grid bytes/voxel | mean ms | median ms | p90 ms | p99 ms | "
              "max ms | mean expanded | M exp/s (wall) | M exp/s (CPU) | length / optimum: median, max |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Run& r : runs)
    std::printf("| %s | %s | %zu | %zu | %.1f | %.4f | %.3f | %.3f | %.3f | %.2f | %.1f | %.0f | %.2f | %.2f | %.3f, %.3f |\n",
                r.name.c_str(), r.mode.c_str(), r.rows, r.passed, r.load_ms, r.bytes_per_voxel, r.mean_ms,
                r.median_ms, r.p90_ms, r.p99_ms, r.max_ms, r.mean_expanded, r.mexp_wall, r.mexp_cpu, r.ratio_median,
                r.ratio_max);
  for (const Run& r : runs)
    if (r.passed != r.rows) return 1;
  return 0;
}
