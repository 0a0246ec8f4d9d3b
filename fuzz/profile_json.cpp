// Fuzzes parse_profile_json / validate_profile and World::add_profile with what parses, on a
// World holding the Minecraft registry (surface blocks are looked up by name).
#include <string_view>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  Profile p;
  std::string err, warn;
  if (parse_profile_json(json, p, &err, &warn, "fuzz") != Status::Ok) {
    if (err.empty()) fuzz::fail("a refused profile gave no message");
    return 0;
  }
  if (validate_profile(p, &err) != Status::Ok) fuzz::fail("a parsed profile does not validate");
  // A fresh World per input (profiles cannot be removed): a small registry, one chunk.
  World w;
  static constexpr std::string_view kBlocks =
      R"({"format":"voxnav-blocks","version":1,"blocks":[{"name":"air"},)"
      R"({"name":"stone","boxes":[[0,0,0,1,1,1]]},)"
      R"({"name":"water","fluid":"swimmable"},)"
      R"({"name":"ladder","boxes":[[0,0,0.8125,1,1,1]],"climbable":true}]})";
  if (w.load_blocks_json({reinterpret_cast<const std::uint8_t*>(kBlocks.data()), kBlocks.size()},
                         &err) != Status::Ok)
    fuzz::fail(("the harness registry was refused: " + err).c_str());
  ProfileId id;
  if (w.add_profile(p, &id, &err) != Status::Ok) return 0;  // e.g. an unknown surface block
  std::vector<std::uint16_t> cells(16 * 16 * 16, 0);
  for (int x = 0; x < 16; ++x)
    for (int z = 0; z < 16; ++z) {
      cells[x + 16 * (z + 16 * 0)] = 1;                           // a floor
      if (x > 8) cells[x + 16 * (z + 16 * 1)] = (z % 3) ? 1 : 2;  // a step and water
    }
  if (w.load_chunk(ChunkPos{0, 0, 0}, cells) != Status::Ok) fuzz::fail("load_chunk failed");
  w.update();
  std::uint32_t island = 0;
  if (w.island_of(id, CellPos{2, 1, 2}, &island) != Status::Ok) fuzz::fail("island_of failed");
  Reach r;
  (void)w.reachable(id, CellPos{2, 1, 2}, CellPos{12, 2, 12}, &r);
  return 0;
}
