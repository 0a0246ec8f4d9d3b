// The estimates of src/api/memory_need.h against the allocations they bound (issue 16: in the
// default wasm build a call that would run out of heap is refused up front, so its estimate must
// be an upper bound). This suite replaces the global operator new with one that counts the bytes
// held (malloc_usable_size: what the allocator really gave) and their peak, then loads the real
// block registry and each shared region the way the npm package does (the region's chunks
// inflated outside, the columns decoded by load_anvil_columns), builds the navigation with
// update(), and compares: the registry's peak with registry_bytes, the load's peak with its
// decode and install estimates, and what the load and the update keep with chunk_load_bytes.
// Native only (the _native_test suffix): glibc's malloc_usable_size (tests/support/counted_new.h).
#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "api/memory_need.h"
#include "counted_new.h"
#include "engine/nav/world_access.h"
#include "scenes.h"
#include "voxnav/io.h"
#include "voxnav/memory.h"
#include "voxnav/native/files.h"
#include "voxnav/world.h"

namespace {
using voxnav::test::counted_live;
using voxnav::test::counted_peak;
using voxnav::test::start_peak;
}  // namespace

namespace voxnav {
namespace {

std::vector<std::uint8_t> read(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  std::string err;
  EXPECT_EQ(native::read_file(path, bytes, &err), Status::Ok) << path << ": " << err;
  return bytes;
}

/// The real registry loaded into `w`, its peak checked against registry_bytes.
void load_registry(World& w) {
  const std::string dir = std::string(VOXNAV_SHARED_DATA) + "/minecraft/blocks/";
  const std::vector<std::uint8_t> blocks = read(dir + "blocks.pc-1.21.1.json");
  const std::vector<std::uint8_t> shapes = read(dir + "blockCollisionShapes.pc-1.20.5.json");
  const std::size_t before = start_peak();
  std::string err;
  ASSERT_EQ(w.load_minecraft_blocks(blocks, shapes, &err), Status::Ok) << err;
  const std::size_t peak = counted_peak() - before;
  const std::size_t estimate = detail::registry_bytes(blocks.size() + shapes.size());
  std::printf("registry: %zu + %zu bytes of JSON, peak %zu bytes, estimate %zu\n", blocks.size(),
              shapes.size(), peak, estimate);
  EXPECT_GE(estimate, peak);
  ASSERT_EQ(load_minecraft_legacy_ids(w, read(dir + "blocks.pc-1.12.json"), &err), Status::Ok) << err;
}

struct Measured {
  std::size_t load_peak = 0, kept = 0, update_peak = 0;
  std::size_t decode = 0, install = 0;
};

/// One shared region loaded as the npm package does, and measured.
Measured load_region_measured(World& w, const std::string& path) {
  Measured m;
  const std::vector<std::uint8_t> file = read(path);
  std::vector<RegionChunk> slots;
  std::string err;
  EXPECT_EQ(list_region_chunks(file, &slots, &err), Status::Ok) << err;
  std::vector<std::vector<std::uint8_t>> inflated(slots.size());
  std::vector<std::span<const std::uint8_t>> columns;
  std::size_t bytes = 0, largest = 0;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (slots[i].skipped) continue;
    EXPECT_EQ(native::zlib_inflate(std::span(file).subspan(slots[i].offset, slots[i].size),
                                   inflated[i], kMaxInflatedBytes, &err),
              Status::Ok)
        << err;
    columns.push_back(inflated[i]);
    bytes += inflated[i].size(), largest = std::max(largest, inflated[i].size());
  }
  LoadReport report;
  const std::size_t before = start_peak();
  EXPECT_EQ(load_anvil_columns(w, columns, LoadOptions{}, &report), Status::Ok) << report.message;
  m.load_peak = counted_peak() - before;
  start_peak();
  w.update();
  m.update_peak = counted_peak() - before;
  m.kept = counted_live() - before;
  const std::size_t uniform = report.uniform_chunks, arrays = report.chunks_loaded - uniform;
  const std::size_t classes = detail::nav_classes(detail::WorldAccess::state(w));
  m.decode = detail::anvil_decode_bytes(bytes, columns.size(), largest);
  m.install = detail::chunk_load_bytes(arrays, uniform, classes);
  std::printf(
      "%s: %zu columns (%zu bytes of NBT), %zu chunks (%zu with arrays); load peak %zu, "
      "update peak %zu, kept %zu bytes; estimates: decode %zu, install %zu\n",
      path.c_str(), columns.size(), bytes, report.chunks_loaded, arrays, m.load_peak,
      m.update_peak, m.kept, m.decode, m.install);
  return m;
}

class MemoryNeed : public ::testing::TestWithParam<const char*> {};

TEST_P(MemoryNeed, EstimatesBoundTheMeasuredAllocationsOfARealRegion) {
  World w;
  load_registry(w);
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  const Measured m =
      load_region_measured(w, std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/" + GetParam());
  ASSERT_GT(m.kept, 0u);
  // The load's peak: its decoded columns and one column's NBT tree, then the chunks installed
  // while the decoded columns are still held.
  EXPECT_GE(m.decode + m.install, m.load_peak);
  // What the load and the navigation update keep, and the update's peak, within the install
  // estimate (the update's peak holds the classification's scratch too: the decode estimate
  // is freed by then).
  EXPECT_GE(m.install, m.kept);
  EXPECT_GE(m.install + m.decode, m.update_peak);
  // Not a bound that refuses what fits many times over: within 10 times what the load keeps
  // (the estimate counts every cell row of a chunk's planes stored whole, as edits may leave
  // them; a fresh build stores most rows as one value, docs/benchmarks.md "Bytes per loaded
  // chunk").
  EXPECT_LE(m.install, 10 * m.kept);
}

TEST(MemoryNeed, EditsOfUniformChunksStayWithinTheirEstimate) {
  World w;
  load_registry(w);
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w.block_value("air", &air), Status::Ok);
  // 4 x 4 columns of 4 chunks: a stone floor chunk, air above. Uniform, so edits give arrays.
  std::vector<ChunkPos> pos;
  std::vector<std::uint16_t> values;
  for (int cz = 0; cz < 4; ++cz)
    for (int cx = 0; cx < 4; ++cx)
      for (int cy = 0; cy < 4; ++cy) {
        pos.push_back({cx, cy, cz});
        values.insert(values.end(), std::size_t(detail::kChunkCells), cy == 0 ? stone : air);
      }
  ASSERT_EQ(w.load_chunks(pos, values), Status::Ok);
  w.update();
  // Pillars in every chunk of the second row: 16 uniform chunks get arrays and new navigation.
  std::vector<BlockEdit> edits;
  for (int cz = 0; cz < 4; ++cz)
    for (int cx = 0; cx < 4; ++cx)
      edits.push_back(BlockEdit{{cx * 16 + 3, 16, cz * 16 + 3}, {cx * 16 + 5, 19, cz * 16 + 5}, stone, false});
  const std::size_t before = start_peak();
  ASSERT_EQ(w.set_blocks(edits, "edits"), Status::Ok);
  w.update();
  const std::size_t peak = counted_peak() - before;
  const std::size_t estimate = detail::edit_bytes(16, 16, 1);
  std::printf("edits of 16 uniform chunks: peak %zu bytes, estimate %zu\n", peak, estimate);
  EXPECT_GE(estimate, peak);
}

INSTANTIATE_TEST_SUITE_P(SharedRegions, MemoryNeed,
                         ::testing::Values("1.12.2/r.0.-1.mca", "1.16/r.0.-1.mca",
                                           "1.18.2/r.0.0.mca"),
                         [](const auto& param_info) {
                           std::string s = param_info.param;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace voxnav

namespace voxnav {
namespace {
// Creating a World is not checked (docs/memory.md): it must stay small enough for the headroom
// to hold many of them after the last load that fitted.
TEST(MemoryNeed, AnEmptyWorldIsSmallBesideTheHeadroom) {
  const std::size_t before = start_peak();
  auto w = std::make_unique<World>();
  const std::size_t held = counted_live() - before;
  std::printf("an empty World holds %zu bytes (peak %zu)\n", held, counted_peak() - before);
  EXPECT_LE(200 * (counted_peak() - before), kHeapHeadroomBytes);
}
}  // namespace
}  // namespace voxnav
