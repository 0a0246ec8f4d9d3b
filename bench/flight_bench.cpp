// flight_bench: the flight search (voxnav/flight.h, public API only) on the Moving AI voxel
// benchmark, optimal mode and default mode in the same run: per-row search time and expansions per
// second on Simple (every row) and A1 (every --a1-stride'th row; 1 = all 10,000), and the default
// mode's length / the optimum before and after string pulling; and line_flyable per call on 20,000
// seeded segments of 100 to 200 voxels per map. Prints markdown tables for docs/benchmarks.md.
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
  double pulled_median = 0, pulled_max = 0;  // default mode: the string-pulled corridor / the optimum
  // line_flyable on random segments of 100 to 200 voxels (default-mode runs only).
  std::size_t line_calls = 0, line_clear = 0;
  double line_us = 0, line_voxels = 0;
};

// Seeded segments between free voxel centres, 100 to 200 voxels long: per call time.
void time_lines(const voxnav::VoxelMap& map, Run& out) {
  std::uint64_t s = 0x9e3779b97f4a7c15ull;
  auto next = [&s](std::uint64_t n) {  // splitmix64, modulo n
    s += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (z ^ (z >> 31)) % n;
  };
  std::vector<std::pair<voxnav::Vec3, voxnav::Vec3>> segs;
  double total_len = 0;
  while (segs.size() < 20000) {
    const voxnav::CellPos a{int(next(std::uint64_t(map.size_x()))), int(next(std::uint64_t(map.size_y()))),
                            int(next(std::uint64_t(map.size_z())))};
    const voxnav::CellPos b{int(next(std::uint64_t(map.size_x()))), int(next(std::uint64_t(map.size_y()))),
                            int(next(std::uint64_t(map.size_z())))};
    const double len = std::sqrt(double(b.x - a.x) * (b.x - a.x) + double(b.y - a.y) * (b.y - a.y) +
                                 double(b.z - a.z) * (b.z - a.z));
    if (len < 100 || len > 200 || !map.free(a) || !map.free(b)) continue;
    segs.push_back({{a.x + 0.5, a.y + 0.5, a.z + 0.5}, {b.x + 0.5, b.y + 0.5, b.z + 0.5}});
    total_len += len;
  }
  std::string err;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& [a, b] : segs) {
    bool clear = false;
    if (voxnav::line_flyable(map, a, b, &clear, &err) == voxnav::Status::Ok && clear) ++out.line_clear;
  }
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  out.line_calls = segs.size();
  out.line_us = us / double(segs.size());
  out.line_voxels = total_len / double(segs.size());
}

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
  def.pull = !optimal;  // the optimal mode is timed as a search alone
  std::vector<double> ratios, pulled;
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
    if (path.found && r.optimal > 0 && !optimal) pulled.push_back(path.pulled_length / r.optimal);
  }
  const double cpu_s = double(std::clock() - c0) / CLOCKS_PER_SEC;
  out.name = name;
  out.mode = optimal ? "optimal" : "default";
  out.ratio_median = pct(ratios, 50);
  out.ratio_max = ratios.empty() ? 0 : *std::max_element(ratios.begin(), ratios.end());
  out.pulled_median = pct(pulled, 50);
  out.pulled_max = pulled.empty() ? 0 : *std::max_element(pulled.begin(), pulled.end());
  if (!optimal) time_lines(map, out);
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
  std::printf("\n| map | default mode, string-pulled / optimum: median, max | line_flyable calls | mean length, voxels | "
              "clear | us per call |\n|---|---|---|---|---|---|\n");
  for (const Run& r : runs)
    if (r.line_calls > 0)
      std::printf("| %s | %.3f, %.3f | %zu | %.1f | %.1f %% | %.3f |\n", r.name.c_str(), r.pulled_median, r.pulled_max,
                  r.line_calls, r.line_voxels, 100.0 * double(r.line_clear) / double(r.line_calls), r.line_us);
  for (const Run& r : runs)
    if (r.passed != r.rows) return 1;
  return 0;
}
