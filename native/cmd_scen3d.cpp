// voxnav scen3d MAP SCEN: the Moving AI voxel benchmark (.3dmap / .3dscen) solved by the flight
// search (voxnav/flight.h) and compared with the rows' optimal lengths.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.h"
#include "voxnav/flight.h"
#include "voxnav/native/files.h"

namespace voxnav::cli {

namespace {

// The shortest 26-connected length between two voxels with nothing in the way: corner
// diagonals, then edge diagonals, then face steps. No row's optimum can be below it.
double octile_length(CellPos a, CellPos b) {
  long long d[3] = {std::llabs(static_cast<long long>(a.x) - b.x), std::llabs(static_cast<long long>(a.y) - b.y),
                    std::llabs(static_cast<long long>(a.z) - b.z)};
  std::sort(d, d + 3);
  return double(d[0]) * std::sqrt(3.0) + double(d[1] - d[0]) * std::sqrt(2.0) + double(d[2] - d[1]);
}

}  // namespace

int cmd_scen3d(int argc, char** argv) {
  std::string map_path, scen_path, mode = "optimal";
  bool json = false;
  long long max_rows = -1;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--mode" || a == "--rows") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "voxnav scen3d: %s needs a value%s\n", a.c_str(),
                     a == "--mode" ? " (optimal, default or both)" : " (a row count)");
        return 2;
      }
      const std::string v = argv[++i];
      if (a == "--mode") {
        mode = v;
        continue;
      }
      // Decimal digits only (no sign, no spaces), at most kMaxVoxelScenRows: strtoll took "",
      // " 5" and "+5", and clamped a huge count to LLONG_MAX without a word.
      bool ok = !v.empty() && v.size() <= 8;
      for (char c : v) ok = ok && c >= '0' && c <= '9';
      if (ok) max_rows = std::stoll(v);
      if (!ok || max_rows > static_cast<long long>(kMaxVoxelScenRows)) {
        std::fprintf(stderr, "voxnav scen3d: --rows expects a count 0 .. %zu (decimal digits), got '%s'\n",
                     kMaxVoxelScenRows, v.c_str());
        return 2;
      }
    } else if (map_path.empty()) {
      map_path = a;
    } else if (scen_path.empty()) {
      scen_path = a;
    } else {
      std::fprintf(stderr, "voxnav scen3d: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (scen_path.empty()) {
    std::fprintf(stderr, "usage: voxnav scen3d MAP SCEN [--mode optimal|default|both] [--rows N] [--json]\n");
    return 2;
  }
  FlightSearchDef def;
  const bool run_optimal = mode == "optimal" || mode == "both";
  const bool run_default = mode == "default" || mode == "both";
  if (!run_optimal && !run_default) {
    std::fprintf(stderr, "voxnav scen3d: unknown --mode '%s' (optimal, default or both)\n", mode.c_str());
    return 2;
  }
  def.mode = run_optimal ? FlightMode::Optimal : FlightMode::Default;
  def.max_expansions = kMaxFlightExpansions;  // never stop a benchmark row early
  FlightSearchDef fast_def = def;
  fast_def.mode = FlightMode::Default;
  def.pull = false;  // the optimal mode is timed as a search alone; the default mode's corridor is pulled

  std::vector<std::uint8_t> bytes;
  std::string msg;
  if (native::read_file(map_path, bytes, &msg) != Status::Ok) {
    std::fprintf(stderr, "voxnav scen3d: cannot read %s: %s\n", map_path.c_str(), msg.c_str());
    return 1;
  }
  VoxelMap map;
  const auto t0 = std::chrono::steady_clock::now();
  if (const Status st = parse_voxel_map(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                                        &map, &msg);
      st != Status::Ok) {
    std::fprintf(stderr, "voxnav scen3d: %s: %s (%s)\n", map_path.c_str(), msg.c_str(), status_name(st));
    return 1;
  }
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (native::read_file(scen_path, bytes, &msg) != Status::Ok) {
    std::fprintf(stderr, "voxnav scen3d: cannot read %s: %s\n", scen_path.c_str(), msg.c_str());
    return 1;
  }
  std::vector<VoxelScenRow> rows;
  if (const Status st = parse_voxel_scen(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                                         &map, &rows, &msg);
      st != Status::Ok) {
    std::fprintf(stderr, "voxnav scen3d: %s: %s (%s)\n", scen_path.c_str(), msg.c_str(), status_name(st));
    return 1;
  }
  if (max_rows >= 0 && static_cast<std::size_t>(max_rows) < rows.size()) rows.resize(static_cast<std::size_t>(max_rows));

  // Rows grouped by optimal length, 64 voxels per band.
  struct Band {
    int rows = 0, passed = 0;
    double ms = 0;
    std::uint64_t expanded = 0;
  };
  std::map<int, Band> bands;
  int passed = 0, failed = 0;
  std::uint64_t expanded = 0;
  double total_ms = 0;
  std::vector<double> row_ms;
  row_ms.reserve(rows.size());
  FlightPath path, fast;
  // Default mode: its time per row, expansions, and length / the row's optimum.
  std::vector<double> fast_ms, ratios, pulled_ratios;
  int pulled_shorter = 0;  // rows whose pulled corridor beats the 26-connected optimum
  std::uint64_t fast_expanded = 0;
  int fast_found = 0;
  for (const VoxelScenRow& r : rows) {
    Status st = Status::Ok;
    double ms = 0;
    bool ok = true;
    if (run_optimal) {
      const auto s0 = std::chrono::steady_clock::now();
      st = find_flight_path(map, r.start, r.goal, def, &path, &msg);
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count();
      ok = st == Status::Ok && path.found && std::fabs(path.length - r.optimal) <= 1e-4 * std::max(1.0, r.optimal);
    }
    if (run_default) {
      std::string fmsg;
      const auto s0 = std::chrono::steady_clock::now();
      const Status fs = find_flight_path(map, r.start, r.goal, fast_def, &fast, &fmsg);
      const double fms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s0).count();
      fast_ms.push_back(fms);
      fast_expanded += fast.expanded;
      // Default mode passes a row when it finds a path (every row of the benchmark has one) and
      // the row's optimum is possible: no shorter than the straight-line bound (the octile
      // distance, the optimum of an empty map) and no longer than the path found. A row with
      // optimal 0 between two different voxels used to pass with a ratio of 0.
      const bool found = fs == Status::Ok && fast.found;
      const double tol = 1e-4 * std::max(1.0, r.optimal);
      const double bound = octile_length(r.start, r.goal);
      const bool possible = r.optimal >= bound - tol && (!found || r.optimal <= fast.length + tol);
      const bool fok = found && possible;
      if (found) ++fast_found;
      if (fok && r.optimal > 0) {
        ratios.push_back(fast.length / r.optimal);
        pulled_ratios.push_back(fast.pulled_length / r.optimal);
        if (fast.pulled_length < r.optimal - tol) ++pulled_shorter;
      }
      if (!run_optimal && found && !possible && failed < 10)
        std::fprintf(stderr, "FAIL line %zu: (%d,%d,%d) -> (%d,%d,%d): optimal %.8f is impossible: %s %.8f\n", r.line,
                     r.start.x, r.start.y, r.start.z, r.goal.x, r.goal.y, r.goal.z, r.optimal,
                     r.optimal < bound - tol ? "below the straight-line bound" : "above the default path's length",
                     r.optimal < bound - tol ? bound : fast.length);
      if (!run_optimal) {
        st = fs;
        msg = fmsg;
        ms = fms;
        path = fast;
      }
      ok = ok && fok;
    }
    Band& b = bands[static_cast<int>(r.optimal / 64) * 64];
    ++b.rows;
    b.ms += ms;
    b.expanded += path.expanded;
    total_ms += ms;
    expanded += path.expanded;
    row_ms.push_back(ms);
    if (ok) {
      ++passed;
      ++b.passed;
    } else {
      ++failed;
      const bool reported = !run_optimal && st == Status::Ok && path.found;  // printed above
      if (failed <= 10 && !reported) {
        if (st != Status::Ok)
          std::fprintf(stderr, "FAIL line %zu: %s (%s)\n", r.line, msg.c_str(), status_name(st));
        else
          std::fprintf(stderr, "FAIL line %zu: (%d,%d,%d) -> (%d,%d,%d): optimal %.8f, got %.8f (%s)%s\n", r.line,
                       r.start.x, r.start.y, r.start.z, r.goal.x, r.goal.y, r.goal.z, r.optimal, path.length,
                       path.found ? "found" : path.limited ? "expansion limit" : "not found",
                       run_default && !fast.found ? "; default mode found no path" : "");
      }
    }
  }
  const VoxelMap::Stats s = map.stats();
  const double bytes_per_voxel = s.voxels ? double(s.grid_bytes) / double(s.voxels) : 0.0;
  const double mexp = total_ms > 0 ? double(expanded) / total_ms / 1000.0 : 0.0;
  const double median = percentile(row_ms, 50), p99 = percentile(row_ms, 99);
  if (json) {
    std::printf("{\"map\":\"%s\",\"mode\":\"%s\",\"rows\":%zu,\"passed\":%d,\"failed\":%d,\"load_ms\":%.3f,"
                "\"default_median_ms\":%.5f,\"default_ratio_median\":%.5f,\"default_ratio_max\":%.5f,"
                "\"pulled_ratio_median\":%.5f,\"pulled_ratio_max\":%.5f,\"pulled_shorter\":%d,"
                "\"voxels\":%llu,\"grid_bytes\":%zu,\"bytes_per_voxel\":%.5f,\"search_bytes\":%zu,"
                "\"mean_ms\":%.5f,\"median_ms\":%.5f,\"p99_ms\":%.5f,\"nodes_expanded\":%llu,\"mexp_per_s\":%.3f}\n",
                json_escape(map_path).c_str(), mode.c_str(), rows.size(), passed, failed, load_ms,
                percentile(fast_ms, 50), percentile(ratios, 50),
                ratios.empty() ? 0.0 : *std::max_element(ratios.begin(), ratios.end()),
                percentile(pulled_ratios, 50),
                pulled_ratios.empty() ? 0.0 : *std::max_element(pulled_ratios.begin(), pulled_ratios.end()),
                pulled_shorter,
                static_cast<unsigned long long>(s.voxels), s.grid_bytes, bytes_per_voxel, s.search_bytes,
                rows.empty() ? 0.0 : total_ms / double(rows.size()), median, p99,
                static_cast<unsigned long long>(expanded), mexp);
  } else {
    std::printf("map %s: %d x %d x %d voxels, %llu blocked, loaded in %.1f ms\n", map_path.c_str(), map.size_x(),
                map.size_y(), map.size_z(), static_cast<unsigned long long>(s.blocked_voxels), load_ms);
    std::printf("grid: %zu open, %zu mixed, %zu blocked bricks; %zu bytes, %.4f bytes per voxel\n", s.open_bricks,
                s.mixed_bricks, s.blocked_bricks, s.grid_bytes, bytes_per_voxel);
    std::printf("mode %s, %zu rows\n", mode.c_str(), rows.size());
    std::printf("length    rows  passed  mean ms  mean expanded\n");
    for (const auto& [k, b] : bands)
      std::printf("%4d+ %7d %7d %8.3f %14.0f\n", k, b.rows, b.passed, b.ms / b.rows,
                  static_cast<double>(b.expanded) / b.rows);
    std::printf("search: %.3f ms per row (median %.3f, p99 %.3f), %.2f M expansions/s; scratch %zu bytes\n",
                rows.empty() ? 0.0 : total_ms / double(rows.size()), median, p99, mexp, s.search_bytes);
    if (run_default && run_optimal) {
      std::printf("(optimal-mode columns above)\n");
    }
    if (run_default) {
      const double fmean = fast_ms.empty() ? 0.0 : [&] {
        double t = 0;
        for (double v : fast_ms) t += v;
        return t / double(fast_ms.size());
      }();
      double tsum = 0;
      for (double v : fast_ms) tsum += v;
      double rmax = 0, rsum = 0;
      for (double v : ratios) {
        rmax = std::max(rmax, v);
        rsum += v;
      }
      std::printf("default mode: %d of %zu rows found, %.3f ms per row (median %.3f, p99 %.3f), %.0f nodes expanded per "
                  "row, %.2f M expansions/s\n",
                  fast_found, rows.size(), fmean, percentile(fast_ms, 50), percentile(fast_ms, 99),
                  rows.empty() ? 0.0 : double(fast_expanded) / double(rows.size()),
                  tsum > 0 ? double(fast_expanded) / tsum / 1000.0 : 0.0);
      if (ratios.empty())
        std::printf("default mode length / optimal: no passed row with an optimum above 0\n");
      else
        std::printf("default mode length / optimal (6-connected, before string pulling): mean %.3f, median %.3f, p99 "
                    "%.3f, max %.3f\n",
                    rsum / double(ratios.size()), percentile(ratios, 50), percentile(ratios, 99), rmax);
      if (!pulled_ratios.empty())
        std::printf("default mode length / optimal (string-pulled, segments <= %g cells): median %.3f, p99 %.3f, max "
                    "%.3f; %d of %zu rows shorter than the 26-connected optimum\n",
                    kFlightPullSegment, percentile(pulled_ratios, 50), percentile(pulled_ratios, 99),
                    *std::max_element(pulled_ratios.begin(), pulled_ratios.end()), pulled_shorter,
                    pulled_ratios.size());
      if (run_optimal && percentile(fast_ms, 50) > 0)
        std::printf("median time per row: optimal %.3f ms, default %.3f ms (%.1fx)\n", median, percentile(fast_ms, 50),
                    median / percentile(fast_ms, 50));
    }
    std::printf("%d passed, %d failed\n", passed, failed);
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace voxnav::cli
