// voxnav quickstart: load a real Minecraft region, ask whether a walker can get somewhere, plan a
// route, then let an agent walk it with the shared movement integrator.
//
//   build/release/examples/native/quickstart [REGION.mca]
#include <cstdio>
#include <string>
#include <vector>

#include "voxnav/io.h"
#include "voxnav/native/files.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"

int main(int argc, char** argv) {
  const std::string data = VOXNAV_EXAMPLE_DATA_DIR;
  const std::string region = argc > 1 ? argv[1] : data + "/worlds/r.0.-1.mca";

  // Searches run on two worker threads; results land at the next tick either way.
  voxnav::native::ThreadPool pool(2);
  voxnav::World world(voxnav::WorldDef{&pool, 0});

  // 1. The block registry (minecraft-data JSON) and the world file.
  std::string msg;
  if (voxnav::native::load_minecraft_blocks_dir(world, data + "/blocks", &msg) !=
      voxnav::Status::Ok) {
    std::fprintf(stderr, "registry: %s\n", msg.c_str());
    return 1;
  }
  voxnav::LoadReport report;
  if (voxnav::native::load_world_file(world, region, voxnav::LoadOptions{}, &report) !=
      voxnav::Status::Ok) {
    std::fprintf(stderr, "world: %s\n", report.message.c_str());
    return 1;
  }
  std::printf("%s: %zu chunks, cells %d,%d,%d .. %d,%d,%d\n", report.format.c_str(),
              report.chunks_loaded, report.min.x, report.min.y, report.min.z, report.max.x,
              report.max.y, report.max.z);
  world.update();  // builds navigation for every loaded chunk

  // 2. A profile: the default walker (0.6 x 1.8 body, step 0.6, jump 1.25, drop 3).
  voxnav::ProfileId walker;
  if (world.add_profile(voxnav::Profile{}, &walker, &msg) != voxnav::Status::Ok) {
    std::fprintf(stderr, "profile: %s\n", msg.c_str());
    return 1;
  }

  // 3. A start on the surface and a goal 12 to 20 cells away that reachability says Yes to (what
  // a creature's brain does before it asks for a path: the answer is constant time). Tree tops
  // and small ledges are islands of their own, so scan the region until a pair is found.
  voxnav::CellPos start, goal;
  bool found = false;
  for (int sz = -160; sz <= -16 && !found; sz += 16)
    for (int sx = 64; sx <= 400 && !found; sx += 16) {
      if (world.nearest_standable(walker, {sx, 70, sz}, 8, &start) != voxnav::Status::Ok) continue;
      for (int r = 12; r <= 20 && !found; ++r)  // square rings of growing radius
        for (int dz = -r; dz <= r && !found; ++dz)
          for (int dx = -r; dx <= r && !found; dx += (dz == -r || dz == r) ? 1 : 2 * r)
            for (int dy = -4; dy <= 4 && !found; ++dy) {
              const voxnav::CellPos c{start.x + dx, start.y + dy, start.z + dz};
              if (world.is_standable(walker, c) &&
                  world.reachable(walker, start, c).answer == voxnav::ReachAnswer::Yes) {
                goal = c;
                found = true;
              }
            }
    }
  if (!found) {
    std::fprintf(stderr, "no reachable pair found\n");
    return 1;
  }
  const voxnav::Reach reach = world.reachable(walker, start, goal);
  std::printf("from %d,%d,%d to %d,%d,%d: reachable %s (%s)\n", start.x, start.y, start.z, goal.x,
              goal.y, goal.z, voxnav::reach_answer_name(reach.answer),
              voxnav::reach_reason_name(reach.reason));

  // 4. A path request: a handle at once, the result one tick later.
  voxnav::PathHandle h;
  voxnav::NavRequest req;
  req.profile = walker;
  req.start = start;
  req.goal = goal;
  if (world.request(req, &h) != voxnav::Status::Ok) return 1;
  voxnav::PathStatus ps;
  do {
    world.update();
    if (world.status(h, &ps) != voxnav::Status::Ok) return 1;
  } while (ps.state == voxnav::PathState::Searching);
  std::printf("request: %s, cost %.2f cells, %u nodes expanded\n",
              voxnav::path_state_name(ps.state), ps.cost / 10000.0, ps.nodes_expanded);
  if (ps.state == voxnav::PathState::Ready) {
    std::vector<voxnav::Waypoint> corridor(ps.waypoint_count);
    std::size_t n = 0;
    if (world.corridor(h, corridor.data(), corridor.size(), &n) != voxnav::Status::Ok) return 1;
    for (const voxnav::Waypoint& w : corridor)
      std::printf("  waypoint %.2f %.2f %.2f (%s)\n", w.position.x, w.position.y, w.position.z,
                  voxnav::edge_kind_name(w.kind));
  }
  if (world.release(h) != voxnav::Status::Ok) return 1;

  // 5. An agent walks there at 20 Hz.
  double feet_y = 0;
  if (world.standing_height(walker, start, &feet_y) != voxnav::Status::Ok) return 1;
  voxnav::AgentId agent;
  if (world.add_agent({walker, {start.x + 0.5, feet_y, start.z + 0.5}}, &agent) !=
          voxnav::Status::Ok ||
      world.set_agent_goal(agent, goal) != voxnav::Status::Ok)
    return 1;
  voxnav::AgentState s;
  for (int tick = 0; tick < 20 * 60; ++tick) {
    if (world.tick(1.0 / 20.0) != voxnav::Status::Ok) return 1;
    if (world.agent_state(agent, &s) != voxnav::Status::Ok) return 1;
    if (s.mode == voxnav::AgentMode::Arrived || s.mode == voxnav::AgentMode::Failed ||
        s.mode == voxnav::AgentMode::Blocked) {
      std::printf("agent %s after %d ticks at %.2f %.2f %.2f\n", voxnav::agent_mode_name(s.mode),
                  tick + 1, s.feet.x, s.feet.y, s.feet.z);
      break;
    }
  }
  return s.mode == voxnav::AgentMode::Arrived ? 0 : 1;
}
