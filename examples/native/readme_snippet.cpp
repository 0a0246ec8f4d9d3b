// Load Minecraft's blocks and a real region, ask whether a walker can get somewhere, and walk it.
#include <cstdio>
#include <string>

#include "voxnav/io.h"
#include "voxnav/native/files.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"

int main(int argc, char** argv) {
  const std::string data = argc > 1 ? argv[1] : "data";  // the repository's data/ folder
  voxnav::native::ThreadPool pool(2);                     // searches run on two worker threads
  voxnav::WorldDef def;
  def.executor = &pool;
  voxnav::World world(def);

  std::string error;
  voxnav::LoadReport report;
  if (voxnav::native::load_minecraft_blocks_dir(world, data + "/blocks", &error) !=
      voxnav::Status::Ok) {
    std::fprintf(stderr, "blocks: %s\n", error.c_str());
    return 1;
  }
  if (voxnav::native::load_world_file(world, data + "/worlds/r.0.-1.mca", voxnav::LoadOptions{},
                                      &report) != voxnav::Status::Ok) {
    std::fprintf(stderr, "world: %s\n", report.message.c_str());
    return 1;
  }
  world.update();  // builds navigation for the loaded chunks

  voxnav::ProfileId walker;  // the default profile: a 0.6 x 1.8 walker
  if (world.add_profile(voxnav::Profile{}, &walker, &error) != voxnav::Status::Ok) {
    std::fprintf(stderr, "profile: %s\n", error.c_str());
    return 1;
  }
  const voxnav::CellPos from{97, 67, -163}, to{85, 64, -175};  // feet cells (x, y up, z)
  const voxnav::Reach reach = world.reachable(walker, from, to);  // constant time
  std::printf("reachable: %s\n", voxnav::reach_answer_name(reach.answer));
  if (reach.answer == voxnav::ReachAnswer::No) return 1;

  double feet_y = 0;  // metres: the standing height inside the cell (slabs, stairs ...)
  voxnav::AgentDef agent_def;
  voxnav::AgentId agent;
  if (world.standing_height(walker, from, &feet_y) != voxnav::Status::Ok) return 1;
  agent_def.profile = walker;
  agent_def.feet = voxnav::Vec3{from.x + 0.5, feet_y, from.z + 0.5};  // bottom centre of the body
  if (world.add_agent(agent_def, &agent) != voxnav::Status::Ok ||
      world.set_agent_goal(agent, to) != voxnav::Status::Ok)
    return 1;

  voxnav::AgentState state;
  for (int tick = 0; tick < 20 * 60; ++tick) {  // 20 Hz; edit blocks between ticks as the game does
    if (world.tick(1.0 / 20) != voxnav::Status::Ok ||
        world.agent_state(agent, &state) != voxnav::Status::Ok)
      return 1;
    if (state.mode == voxnav::AgentMode::Arrived || state.mode == voxnav::AgentMode::Failed) break;
  }
  std::printf("agent %s at %.2f %.2f %.2f\n", voxnav::agent_mode_name(state.mode), state.feet.x,
              state.feet.y, state.feet.z);
  return state.mode == voxnav::AgentMode::Arrived ? 0 : 1;
}
