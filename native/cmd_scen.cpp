// voxnav scen MAP SCEN: Moving AI benchmark rows solved by a walker on the voxel version of the map.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <map>
#include <string>

#include "cli_common.h"
#include "voxnav/native/files.h"

namespace voxnav::cli {
namespace {

// The "height H" and "width W" lines of a Moving AI map header (before its "map" line); false
// (and -1) when the text has none (another world format).
bool map_tiles(std::string_view text, int* w, int* h) {
  *w = *h = -1;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line == "map") break;
    for (auto [key, out] : {std::pair<std::string_view, int*>{"height ", h}, {"width ", w}})
      if (line.substr(0, key.size()) == key) {
        const std::string v(line.substr(key.size()));
        char* e = nullptr;
        const long n = std::strtol(v.c_str(), &e, 10);
        if (e != v.c_str() && n >= 0 && n <= (1L << 25)) *out = static_cast<int>(n);
      }
  }
  if (*w < 0 || *h < 0) *w = *h = -1;
  return *w >= 0;
}

}  // namespace

int cmd_scen(int argc, char** argv) {
  std::string map_path, scen_path;
  bool json = false;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") json = true;
    else if (map_path.empty()) map_path = a;
    else if (scen_path.empty()) scen_path = a;
    else {
      std::fprintf(stderr, "voxnav scen: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (scen_path.empty()) {
    std::fprintf(stderr, "usage: voxnav scen MAP SCEN [--json]\n");
    return 2;
  }
  World world;
  // The default walker with a budget that never stops a Moving AI search (10^8 nodes) and a
  // distance limit no map reaches: default costs, so the paths and expansion counts are those of
  // an unlimited search.
  Profile profile;
  profile.search_max_nodes = 100000000;
  profile.search_max_distance = 1 << 20;
  ProfileId walker;
  std::string profile_error;
  if (world.add_profile(profile, &walker, &profile_error) != Status::Ok) {
    std::fprintf(stderr, "voxnav scen: %s\n", profile_error.c_str());
    return 1;
  }
  LoadReport report;
  double build_ms = 0;
  if (!load_world(world, map_path, report, &build_ms)) return 1;
  std::vector<std::uint8_t> bytes;
  std::string msg;
  if (native::read_file(scen_path, bytes, &msg) != Status::Ok) {
    std::fprintf(stderr, "voxnav scen: cannot read %s: %s\n", scen_path.c_str(), msg.c_str());
    return 1;
  }
  // The map's tiles (its header), so that a row whose start or goal lies off the map is reported
  // as a bad row instead of searched (the chunks around the map hold walled cells).
  int map_w = -1, map_h = -1;
  {
    std::vector<std::uint8_t> map_bytes;
    if (native::read_file(map_path, map_bytes, &msg) == Status::Ok)
      map_tiles(std::string_view(reinterpret_cast<const char*>(map_bytes.data()), map_bytes.size()),
                &map_w, &map_h);
  }
  std::vector<MovingAiScenario> rows;
  if (parse_movingai_scen(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                          &rows, &msg) != Status::Ok) {
    std::fprintf(stderr, "voxnav scen: %s: %s\n", scen_path.c_str(), msg.c_str());
    return 1;
  }
  struct Bucket {
    int rows = 0, passed = 0;
    double ms = 0;
    std::uint64_t expanded = 0;
  };
  std::map<int, Bucket> buckets;
  int passed = 0, failed = 0;
  std::uint64_t expanded = 0;
  double total_ms = 0;
  int bad_rows = 0;
  for (std::size_t row = 0; row < rows.size(); ++row) {
    const MovingAiScenario& r = rows[row];
    // Bad rows are reported and not searched: an optimal length that is no finite length (an
    // "inf" row passed any comparison), a row written for a map of another size, a start or goal
    // off the map (the chunks around it hold walled cells).
    std::string bad;
    if (!std::isfinite(r.optimal) || r.optimal < 0) {
      bad = "optimal length " + std::string(std::isnan(r.optimal) ? "nan" : r.optimal < 0 ? std::to_string(r.optimal) : "inf") +
            " is not a finite length";
    } else if (map_w >= 0 && (r.map_width != map_w || r.map_height != map_h)) {
      bad = "the row is for a " + std::to_string(r.map_width) + " x " + std::to_string(r.map_height) +
            " map, the map is " + std::to_string(map_w) + " x " + std::to_string(map_h) + " tiles";
    } else if (map_w >= 0) {
      const auto on_map = [&](int x, int y) { return x >= 0 && y >= 0 && x < map_w && y < map_h; };
      const char* which = !on_map(r.start_x, r.start_y) ? "start" : !on_map(r.goal_x, r.goal_y) ? "goal" : nullptr;
      if (which)
        bad = std::string(which) + " (" + std::to_string(which[0] == 's' ? r.start_x : r.goal_x) + "," +
              std::to_string(which[0] == 's' ? r.start_y : r.goal_y) + ") is outside the map's " +
              std::to_string(map_w) + " x " + std::to_string(map_h) + " tiles";
    }
    if (!bad.empty()) {
      ++failed;
      if (++bad_rows <= 10) std::fprintf(stderr, "BAD row %zu: %s; not searched\n", row + 1, bad.c_str());
      continue;
    }
    NavRequest req;
    req.profile = walker;
    req.start = CellPos{r.start_x, kMovingAiStandY, r.start_y};
    req.goal = CellPos{r.goal_x, kMovingAiStandY, r.goal_y};
    const auto t0 = std::chrono::steady_clock::now();
    const Reach reach = world.reachable(walker, req.start, req.goal);
    PathResult res;
    const Status fs = world.find_path_now(req, &res);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // Length in the xz plane: 1 per straight step, sqrt(2) per diagonal (Moving AI's octile).
    double len = 0.0;
    for (std::size_t i = 1; i < res.cells.size(); ++i) {
      const bool dx = res.cells[i].cell.x != res.cells[i - 1].cell.x;
      const bool dz = res.cells[i].cell.z != res.cells[i - 1].cell.z;
      len += (dx && dz) ? std::sqrt(2.0) : 1.0;
    }
    const bool found = fs == Status::Ok && res.status.state == PathState::Ready && !res.status.partial;
    const bool ok = found && reach.answer == ReachAnswer::Yes &&
                    std::fabs(len - r.optimal) <= 1e-4 * std::max(1.0, r.optimal);
    Bucket& b = buckets[r.bucket];
    ++b.rows;
    b.ms += ms;
    b.expanded += res.status.nodes_expanded;
    total_ms += ms;
    expanded += res.status.nodes_expanded;
    if (ok) {
      ++passed;
      ++b.passed;
    } else {
      ++failed;
      if (failed <= 10)
        std::fprintf(stderr, "FAIL bucket %d: (%d,%d) -> (%d,%d): optimal %.8f, got %.8f (%s, reach %d)\n",
                     r.bucket, r.start_x, r.start_y, r.goal_x, r.goal_y, r.optimal, len,
                     found ? "found" : "not found",
                     static_cast<int>(reach.answer));
    }
  }
  const double mexp = total_ms > 0 ? static_cast<double>(expanded) / total_ms / 1000.0 : 0.0;
  if (json) {
    std::printf("{\"map\":\"%s\",\"rows\":%zu,\"passed\":%d,\"failed\":%d,\"bad_rows\":%d,\"nav_build_ms\":%.3f,"
                "\"mean_ms\":%.5f,\"nodes_expanded\":%llu,\"mexp_per_s\":%.3f,\"buckets\":[",
                json_escape(map_path).c_str(), rows.size(), passed, failed, bad_rows, build_ms,
                rows.empty() ? 0.0 : total_ms / rows.size(), static_cast<unsigned long long>(expanded), mexp);
    bool first = true;
    for (const auto& [k, b] : buckets) {
      std::printf("%s{\"bucket\":%d,\"rows\":%d,\"passed\":%d,\"mean_ms\":%.5f}", first ? "" : ",", k,
                  b.rows, b.passed, b.ms / b.rows);
      first = false;
    }
    std::printf("]}\n");
  } else {
    std::printf("map %s: %zu rows, navigation built in %.1f ms\n", map_path.c_str(), rows.size(), build_ms);
    std::printf("bucket  rows  passed  mean ms  mean nodes\n");
    for (const auto& [k, b] : buckets)
      std::printf("%6d %5d %7d %8.3f %11.0f\n", k, b.rows, b.passed, b.ms / b.rows,
                  static_cast<double>(b.expanded) / b.rows);
    std::printf("search: %.3f ms per row, %.2f M node expansions/s\n",
                rows.empty() ? 0.0 : total_ms / rows.size(), mexp);
    if (bad_rows)
      std::printf("%d passed, %d failed (%d bad rows: not searched)\n", passed, failed, bad_rows);
    else
      std::printf("%d passed, %d failed\n", passed, failed);
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace voxnav::cli
