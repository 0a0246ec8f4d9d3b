// Fuzzes voxnav's block registry JSON (docs/registry.md): parse_block_registry_json and
// World::load_blocks_json, then a chunk of the registry's values and its navigation.
#include "fuzz_common.h"
#include "voxnav/registry.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  const std::span<const std::uint8_t> json(data, size);
  BlockRegistryDef def;
  std::string err;
  const Status parsed = parse_block_registry_json(json, &def, &err);
  World w;
  const std::uint64_t before = fuzz::hash_of(w);
  const Status st = w.load_blocks_json(json, &err);
  if (st != Status::Ok) {
    if (fuzz::hash_of(w) != before) fuzz::fail("a refused registry changed the World");
    if (err.empty()) fuzz::fail("a refused registry gave no message");
    return 0;
  }
  if (parsed != Status::Ok) fuzz::fail("load_blocks_json took what parse_block_registry_json refused");
  const std::size_t n = w.block_count();
  if (n == 0 || n != def.blocks.size()) fuzz::fail("block_count differs from the parsed registry");
  for (std::size_t v = 0; v < n; ++v) {
    BlockDef b;
    if (w.block_def(static_cast<std::uint16_t>(v), &b) != Status::Ok) fuzz::fail("block_def failed");
    std::uint16_t back = 0;
    if (w.block_value(b.name, &back) != Status::Ok) fuzz::fail("block_value of a registry name failed");
  }
  // A chunk using every value (in a fixed pattern), navigation, a few queries.
  std::vector<std::uint16_t> cells(16 * 16 * 16);
  for (std::size_t i = 0; i < cells.size(); ++i)
    cells[i] = static_cast<std::uint16_t>((i * 2654435761u >> 7) % n);
  if (w.load_chunk(ChunkPos{0, 0, 0}, cells) != Status::Ok) fuzz::fail("load_chunk failed");
  Profile p;
  ProfileId walker;
  if (parse_profile_json(R"({"id":"walker"})", p, &err) == Status::Ok &&
      w.add_profile(p, &walker, &err) == Status::Ok) {
    w.update();
    std::uint32_t island = 0;
    for (int y = 0; y < 16; y += 5)
      if (w.island_of(walker, CellPos{3, y, 7}, &island) != Status::Ok) fuzz::fail("island_of failed");
  }
  (void)fuzz::hash_of(w);
  return 0;
}
