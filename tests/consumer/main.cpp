// Out-of-tree consumer of an installed voxnav (tests/consumer/run.sh builds and runs it): only the
// installed public headers, every Status checked. It loads the Minecraft block registry from the
// repository's data, builds a small walled yard by hand, asks for a route around the wall, lets an
// agent walk it on the native thread pool, then closes the gap in the wall and sees the goal
// become unreachable. Last it loads a real region file into a second World with the native file
// helpers and checks the load report.
//
//   consumer BLOCKS_DIR REGION   (BLOCKS_DIR holds minecraft-data's blocks.pc-1.21.1.json and
//                                 blockCollisionShapes.pc-1.20.5.json; REGION is the shipped
//                                 Minecraft 1.16 region data/worlds/r.0.-1.mca)
#include <voxnav/io.h>
#include <voxnav/native/files.h>
#include <voxnav/native/thread_pool.h>
#include <voxnav/version.h>
#include <voxnav/world.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

int fail(const char* what, voxnav::Status s, const std::string& detail = {}) {
  std::fprintf(stderr, "consumer: %s: %s%s%s\n", what, voxnav::status_name(s),
               detail.empty() ? "" : ": ", detail.c_str());
  return 1;
}

int fail(const std::string& what) {
  std::fprintf(stderr, "consumer: %s\n", what.c_str());
  return 1;
}

bool read_file(const std::string& path, std::vector<std::uint8_t>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !out->empty();
}

// The yard, one chunk at chunk (0, 0, 0): a stone floor at y = 0; a wall at x = 8 three blocks
// high (y 1..3) from z = 0 to z = 12, so the way from the west half to the east half goes
// through the gap at z = 13..15; and a closed stone room (outer x 11..15, y 1..3, z 6..10) whose
// air inside (x 12..14, y 1..2, z 7..9) no walker can reach.
constexpr int kWallX = 8, kWallEndZ = 12;
constexpr voxnav::CellPos kStart{2, 1, 2}, kGoal{13, 1, 2}, kInsideRoom{13, 1, 8};

std::size_t index(int x, int y, int z) { return static_cast<std::size_t>(x + 16 * (z + 16 * y)); }

std::vector<std::uint16_t> yard(std::uint16_t air, std::uint16_t stone) {
  std::vector<std::uint16_t> v(voxnav::kChunkValues, air);
  for (int z = 0; z < 16; ++z)
    for (int x = 0; x < 16; ++x) v[index(x, 0, z)] = stone;
  for (int y = 1; y <= 3; ++y)
    for (int z = 0; z <= kWallEndZ; ++z) v[index(kWallX, y, z)] = stone;
  for (int y = 1; y <= 3; ++y)
    for (int z = 6; z <= 10; ++z)
      for (int x = 11; x <= 15; ++x) {
        const bool inside = x >= 12 && x <= 14 && z >= 7 && z <= 9 && y <= 2;
        if (!inside) v[index(x, y, z)] = stone;
      }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  static_assert(VOXNAV_VERSION_MAJOR >= 0 && VOXNAV_VERSION_MINOR >= 0 &&
                VOXNAV_VERSION_PATCH >= 0);
  if (voxnav::version_string() != std::string_view(CONSUMER_PACKAGE_VERSION))
    return fail("voxnav/version.h says " + std::string(voxnav::version_string()) +
                ", the CMake package " + CONSUMER_PACKAGE_VERSION);
  if (argc != 3) return fail("usage: consumer BLOCKS_DIR REGION");
  const std::string blocks_dir = argv[1];
  const std::string region_path = argv[2];

  voxnav::native::ThreadPool pool(2);
  voxnav::World world(voxnav::WorldDef{&pool, 0});

  // 1. The block registry: minecraft-data's JSON, read by the host, handed over as bytes.
  std::vector<std::uint8_t> blocks, shapes;
  if (!read_file(blocks_dir + "/blocks.pc-1.21.1.json", &blocks) ||
      !read_file(blocks_dir + "/blockCollisionShapes.pc-1.20.5.json", &shapes))
    return fail("cannot read the minecraft-data JSON files in " + blocks_dir);
  std::string error;
  voxnav::Status s = world.load_minecraft_blocks(blocks, shapes, &error);
  if (s != voxnav::Status::Ok) return fail("load_minecraft_blocks", s, error);
  std::uint16_t air = 0, stone = 0, unknown = 0;
  if ((s = world.block_value("minecraft:air", &air, &error)) != voxnav::Status::Ok)
    return fail("block_value(air)", s, error);
  if ((s = world.block_value("stone", &stone, &error)) != voxnav::Status::Ok)
    return fail("block_value(stone)", s, error);
  if (world.block_value("no_such_block", &unknown) != voxnav::Status::NotFound)
    return fail("block_value(no_such_block) is not NotFound");

  // 2. The hand-made chunk; a chunk of the wrong size is refused and changes nothing.
  const std::vector<std::uint16_t> chunk = yard(air, stone);
  if (world.load_chunk({1, 0, 0}, std::span(chunk).first(100)) != voxnav::Status::InvalidArgument)
    return fail("a 100-value chunk was not refused with InvalidArgument");
  if ((s = world.load_chunk({0, 0, 0}, chunk)) != voxnav::Status::Ok) return fail("load_chunk", s);

  // 3. A profile: the default walker (0.6 x 1.8 body).
  voxnav::ProfileId walker;
  if ((s = world.add_profile(voxnav::Profile{}, &walker, &error)) != voxnav::Status::Ok)
    return fail("add_profile", s, error);
  world.update();

  const voxnav::Reach yes = world.reachable(walker, kStart, kGoal);
  const voxnav::Reach room = world.reachable(walker, kStart, kInsideRoom);
  if (yes.answer != voxnav::ReachAnswer::Yes || room.answer != voxnav::ReachAnswer::No)
    return fail(std::string("reachable: goal ") + voxnav::reach_answer_name(yes.answer) +
                ", closed room " + voxnav::reach_answer_name(room.answer) + " (want Yes, No)");

  // 4. A request, answered on the pool and applied at the next update.
  // Set field by field: -Wextra flags aggregate initializers that leave members out.
  voxnav::NavRequest req;
  req.profile = walker;
  req.start = kStart;
  req.goal = kGoal;
  voxnav::PathHandle h;
  if ((s = world.request(req, &h)) != voxnav::Status::Ok) return fail("request", s);
  voxnav::PathStatus ps;
  for (int i = 0; i < 10; ++i) {
    world.update();
    if ((s = world.status(h, &ps)) != voxnav::Status::Ok) return fail("status", s);
    if (ps.state != voxnav::PathState::Searching) break;
  }
  if (ps.state != voxnav::PathState::Ready) return fail("the request did not become Ready");
  std::vector<voxnav::PathCell> cells(256);
  std::size_t count = 0;
  if ((s = world.path_cells(h, cells.data(), cells.size(), &count)) != voxnav::Status::Ok)
    return fail("path_cells", s);
  if (count == 0 || count > cells.size()) return fail("path_cells count " + std::to_string(count));
  cells.resize(count);
  bool through_gap = false;
  for (const voxnav::PathCell& c : cells) {
    if (c.cell.x == kWallX && c.cell.z <= kWallEndZ) return fail("the path crosses the wall");
    if (c.cell.x == kWallX) through_gap = true;
  }
  const voxnav::PathCell& last = cells.back();
  if (!through_gap || last.cell.x != kGoal.x || last.cell.y != kGoal.y || last.cell.z != kGoal.z)
    return fail("the path does not go through the gap to the goal");
  // Around the wall: at least 2 * (13 - 2) cells north and south plus 11 east, 10000 per cell.
  if (ps.cost < 10000u * 22u) return fail("the path is too cheap to go around the wall");
  if ((s = world.release(h)) != voxnav::Status::Ok) return fail("release", s);

  // 5. An agent walks the same way with the shared movement step (20 Hz).
  voxnav::AgentId agent;
  if ((s = world.add_agent(voxnav::AgentDef{walker, {kStart.x + 0.5, 1.0, kStart.z + 0.5}},
                           &agent)) != voxnav::Status::Ok)
    return fail("add_agent", s);
  if ((s = world.set_agent_goal(agent, kGoal)) != voxnav::Status::Ok)
    return fail("set_agent_goal", s);
  voxnav::AgentState st;
  int ticks = 0;
  for (; ticks < 400; ++ticks) {
    if ((s = world.tick(0.05)) != voxnav::Status::Ok) return fail("tick", s);
    if ((s = world.agent_state(agent, &st)) != voxnav::Status::Ok) return fail("agent_state", s);
    if (st.mode == voxnav::AgentMode::Arrived || st.mode == voxnav::AgentMode::Failed ||
        st.mode == voxnav::AgentMode::Blocked)
      break;
  }
  if (st.mode != voxnav::AgentMode::Arrived)
    return fail(std::string("the agent ended ") + voxnav::agent_mode_name(st.mode) + " after " +
                std::to_string(ticks) + " ticks");

  // 6. An edit: closing the gap makes the east half unreachable from the west half.
  if ((s = world.set_box({kWallX, 1, kWallEndZ + 1}, {kWallX, 3, 15}, stone)) != voxnav::Status::Ok)
    return fail("set_box", s);
  world.update();
  const voxnav::Reach closed = world.reachable(walker, kStart, kGoal);
  if (closed.answer != voxnav::ReachAnswer::No || closed.epoch <= yes.epoch)
    return fail(std::string("after closing the gap: ") + voxnav::reach_answer_name(closed.answer));

  // 7. A real region file through the native helpers (file + zlib), into a World of its own.
  // r.0.-1.mca (Minecraft 1.16) holds 253 full chunk columns of 16 sections each, x 48..415,
  // y 0..255, z -176..-1.
  voxnav::World region_world;
  if ((s = voxnav::native::load_minecraft_blocks_dir(region_world, blocks_dir, &error)) !=
      voxnav::Status::Ok)
    return fail("load_minecraft_blocks_dir", s, error);
  voxnav::LoadReport report;
  if ((s = voxnav::native::load_world_file(region_world, region_path, voxnav::LoadOptions{},
                                           &report)) != voxnav::Status::Ok)
    return fail("load_world_file", s, report.message);
  if (report.format != "anvil-1.13" || report.columns_loaded != 253 ||
      report.chunks_loaded != 253u * 16 || !report.has_bounds)
    return fail("region report: format " + report.format + ", " +
                std::to_string(report.columns_loaded) + " columns, " +
                std::to_string(report.chunks_loaded) + " chunks (want anvil-1.13, 253, 4048)");
  const voxnav::CellPos lo{48, 0, -176}, hi{415, 255, -1};
  if (report.min.x != lo.x || report.min.y != lo.y || report.min.z != lo.z ||
      report.max.x != hi.x || report.max.y != hi.y || report.max.z != hi.z)
    return fail("region bounds (" + std::to_string(report.min.x) + ", " +
                std::to_string(report.min.y) + ", " + std::to_string(report.min.z) + ") .. (" +
                std::to_string(report.max.x) + ", " + std::to_string(report.max.y) + ", " +
                std::to_string(report.max.z) + "), want (48, 0, -176) .. (415, 255, -1)");

  std::printf(
      "voxnav %s consumer: %zu registry values, route of %zu cells (cost %u) around the "
      "wall, agent arrived in %d ticks, gap closed -> No; region %s: %zu chunks\n",
      std::string(voxnav::version_string()).c_str(), world.block_count(), count, ps.cost,
      ticks + 1, report.format.c_str(), report.chunks_loaded);
  return 0;
}
