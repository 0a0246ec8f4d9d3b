// voxnav route WORLD --from X,Y,Z --to X,Y,Z: plan one route and explain it.
#include <cstdio>
#include <string>
#include <vector>

#include "cli_common.h"

namespace voxnav::cli {

int cmd_route(int argc, char** argv) {
  std::string world_path, profile_file;
  CellPos from, to;
  bool have_from = false, have_to = false, json = false;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "voxnav route: %s needs a value\n", name);
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "--from" || a == "--to") {
      const char* v = value(a.c_str());
      if (!v) return 2;
      CellPos& c = a == "--from" ? from : to;
      if (const std::string why = parse_cell(v, c); !why.empty()) {
        std::fprintf(stderr, "voxnav route: %s %s, got '%s'\n", a.c_str(), why.c_str(), v);
        return 2;
      }
      (a == "--from" ? have_from : have_to) = true;
    } else if (a == "--profile") {
      const char* v = value("--profile");
      if (!v) return 2;
      profile_file = v;
    } else if (a == "--json") {
      json = true;
    } else if (world_path.empty() && a[0] != '-') {
      world_path = a;
    } else {
      std::fprintf(stderr, "voxnav route: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (world_path.empty() || !have_from || !have_to) {
    std::fprintf(stderr, "usage: voxnav route WORLD --from X,Y,Z --to X,Y,Z [--profile FILE] [--json]\n");
    return 2;
  }
  World world;
  LoadReport report;
  double build_ms = 0;
  if (!load_world(world, world_path, report, &build_ms)) return 1;
  ProfileId prof;
  if (!add_profile(world, profile_file, prof)) return 1;

  const Reach reach = world.reachable(prof, from, to);
  PathHandle h;
  const Status rs = world.request(NavRequest{prof, from, to, 0, false}, &h);
  if (rs != Status::Ok) {
    std::fprintf(stderr, "voxnav route: request rejected: %s (coordinates out of range?)\n", status_name(rs));
    return 1;
  }
  PathStatus ps;
  for (int i = 0; i < 4; ++i) {  // dispatch, then deliver
    (void)world.status(h, &ps);
    if (ps.state != PathState::Searching) break;
    world.update();
  }
  (void)world.status(h, &ps);
  std::vector<PathCell> cells(ps.cell_count);
  std::vector<Waypoint> wps(ps.waypoint_count);
  std::size_t n = 0;
  if (ps.state == PathState::Ready) {
    (void)world.path_cells(h, cells.data(), cells.size(), &n);
    (void)world.corridor(h, wps.data(), wps.size(), &n);
  }
  if (json) {
    std::printf("{\"world\":\"%s\",\"from\":[%d,%d,%d],\"to\":[%d,%d,%d],", json_escape(world_path).c_str(),
                from.x, from.y, from.z, to.x, to.y, to.z);
    std::printf("\"reachable\":{\"answer\":\"%s\",\"reason\":\"%s\",\"epoch\":%llu},",
                reach_answer_name(reach.answer), reach_reason_name(reach.reason),
                static_cast<unsigned long long>(reach.epoch));
    std::printf("\"status\":\"%s\",\"failure\":\"%s\",\"cost\":%u,\"nodes_expanded\":%u,\"cells\":[",
                path_state_name(ps.state), path_failure_name(ps.failure), ps.cost, ps.nodes_expanded);
    for (std::size_t i = 0; i < cells.size(); ++i)
      std::printf("%s[%d,%d,%d,\"%s\"]", i ? "," : "", cells[i].cell.x, cells[i].cell.y, cells[i].cell.z,
                  edge_kind_name(cells[i].kind));
    std::printf("],\"corridor\":[");
    for (std::size_t i = 0; i < wps.size(); ++i)
      std::printf("%s[%.4f,%.4f,%.4f,\"%s\"]", i ? "," : "", wps[i].position.x, wps[i].position.y,
                  wps[i].position.z, edge_kind_name(wps[i].kind));
    std::printf("]}\n");
  } else {
    std::printf("world %s (%s): %zu chunks, navigation built in %.1f ms\n", world_path.c_str(),
                report.format.c_str(), report.chunks_loaded, build_ms);
    if (report.has_bounds)
      std::printf("loaded cells %d,%d,%d .. %d,%d,%d\n", report.min.x, report.min.y, report.min.z,
                  report.max.x, report.max.y, report.max.z);
    std::printf("reachable: %s", reach_answer_name(reach.answer));
    if (reach.reason != ReachReason::None) std::printf(" (%s)", reach_reason_name(reach.reason));
    std::printf(", epoch %llu\n", static_cast<unsigned long long>(reach.epoch));
    std::printf("request: %s", path_state_name(ps.state));
    if (ps.state == PathState::Failed) std::printf(" (%s)", path_failure_name(ps.failure));
    std::printf(", cost %u (%.3f cells), %u nodes expanded\n", ps.cost, ps.cost / 10000.0, ps.nodes_expanded);
    if (!cells.empty()) {
      std::printf("cells (%zu):\n", cells.size());
      for (const PathCell& c : cells)
        std::printf("  %d,%d,%d %s\n", c.cell.x, c.cell.y, c.cell.z, edge_kind_name(c.kind));
      std::printf("corridor (%zu waypoints):\n", wps.size());
      for (const Waypoint& w : wps)
        std::printf("  %.3f %.3f %.3f %s\n", w.position.x, w.position.y, w.position.z, edge_kind_name(w.kind));
    }
  }
  (void)world.release(h);
  return ps.state == PathState::Ready ? 0 : 1;
}

}  // namespace voxnav::cli
