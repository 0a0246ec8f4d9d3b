// Fuzzes World::load_minecraft_blocks (minecraft-data JSON). The input is blocks.pc-*.json, then
// optionally the separator line "\n#shapes#\n" and blockCollisionShapes.pc-*.json; without it an
// empty shapes file is used.
#include <string_view>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSep = "\n#shapes#\n";
  static const std::string kEmptyShapes = R"({"blocks":{},"shapes":{}})";
  std::span<const std::uint8_t> blocks(data, size), shapes(
      reinterpret_cast<const std::uint8_t*>(kEmptyShapes.data()), kEmptyShapes.size());
  if (const std::size_t at = text.find(kSep); at != std::string_view::npos) {
    blocks = {data, at};
    shapes = {data + at + kSep.size(), size - at - kSep.size()};
  }
  World w;
  std::string err;
  const std::uint64_t before = fuzz::hash_of(w);
  const Status st = w.load_minecraft_blocks(blocks, shapes, &err);
  if (st != Status::Ok) {
    if (fuzz::hash_of(w) != before) fuzz::fail("a refused registry changed the World");
    if (err.empty()) fuzz::fail("a refused registry gave no message");
    return 0;
  }
  const std::size_t n = w.block_count();
  if (n < 2 || n > kMaxBlockValues) fuzz::fail("block_count out of its limits");
  for (std::size_t v = 0; v < n; v += 1 + n / 64) {
    BlockDef b;
    if (w.block_def(static_cast<std::uint16_t>(v), &b) != Status::Ok) fuzz::fail("block_def failed");
  }
  std::uint16_t value = 0;
  (void)w.block_value("stone", &value);
  (void)w.block_value("oak_door[facing=north,half=lower,hinge=left,open=false,powered=false]",
                      &value);
  std::vector<std::uint16_t> cells(16 * 16 * 16);
  for (std::size_t i = 0; i < cells.size(); ++i)
    cells[i] = static_cast<std::uint16_t>((i * 2654435761u >> 7) % n);
  if (w.load_chunk(ChunkPos{-1, 0, 2}, cells) != Status::Ok) fuzz::fail("load_chunk failed");
  w.update();
  (void)fuzz::hash_of(w);
  return 0;
}
