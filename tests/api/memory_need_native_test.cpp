// The estimates of src/api/memory_need.h against the allocations they bound (issue 16: in the
// default wasm build a call that would run out of heap is refused up front, so its estimate must
// be an upper bound). This suite replaces the global operator new with one that counts the bytes
// held (malloc_usable_size: what the allocator really gave) and their peak, then loads the real
// block registry and each shared region the way the npm package does (the region's chunks
// inflated outside, the columns decoded by load_anvil_columns), builds the navigation with
// update(), and compares: the registry's peak with registry_bytes, the load's peak with its
// decode estimate and the blocks it charges, and the first update's peak with the navigation
// builds the load charged to the World's budget (per chunk kind: MemoryBudget below).
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
#include "shared_regions.h"
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
  std::size_t decode = 0, now = 0;
  /// The budget the load charged for the next update, that update's peak and what it kept.
  std::size_t pending = 0, build_peak = 0, nav_kept = 0;
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
  const std::size_t loaded = start_peak();
  m.pending = detail::WorldAccess::state(w).budget_pending_bytes;
  w.update();
  m.update_peak = counted_peak() - before;
  m.build_peak = counted_peak() - loaded;
  m.kept = counted_live() - before;
  m.nav_kept = counted_live() - loaded;
  EXPECT_EQ(detail::WorldAccess::state(w).budget_pending_bytes, 0u);
  const std::size_t uniform = report.uniform_chunks, arrays = report.chunks_loaded - uniform;
  m.decode = detail::anvil_decode_bytes(bytes, columns.size(), largest);
  m.now = arrays * detail::kChunkArrayBytes + report.chunks_loaded * detail::kChunkRecordBytes;
  std::printf("%s: %zu columns (%zu bytes of NBT), %zu chunks (%zu with arrays, %zu uniform); "
              "load peak %zu, charged decode %zu + blocks %zu; first build peak %zu, charged "
              "%zu (%.2f); kept %zu\n",
              path.c_str(), columns.size(), bytes, report.chunks_loaded, arrays, uniform,
              m.load_peak, m.decode, m.now, m.build_peak, m.pending,
              double(m.pending) / double(m.build_peak), m.kept);
  return m;
}

class MemoryNeed : public ::testing::TestWithParam<const char*> {};

TEST_P(MemoryNeed, EstimatesBoundTheMeasuredAllocationsOfARealRegion) {
  World w;
  load_registry(w);
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  const Measured m =
      load_region_measured(w, std::string(VOXNAV_SHARED_DATA) + GetParam());
  ASSERT_GT(m.kept, 0u);
  // The load's peak: its decoded columns and one column's NBT tree, then the chunks installed
  // while the decoded columns are still held.
  EXPECT_GE(m.decode + m.now, m.load_peak);
  // The first update's peak within what the load charged for it, and not a charge that refuses
  // what fits many times over. A mixed chunk is charged its worst case (nodes in every cell row,
  // every plane row stored whole); since the planes are kept by row (LayerPlane) a real region's
  // chunks hold nodes in about 6 of their 16 rows and build in a third of that, so the regions
  // are charged 6 to 8.5 times their peak (a per-row charge read from the blocks is open).
  EXPECT_GE(m.pending, m.build_peak);
  EXPECT_LE(m.pending, 10 * m.build_peak);
  EXPECT_GE(m.now, m.kept - m.nav_kept);
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
  // What the edits charged: their 16 arrays now, and the rebuilds pending.
  const std::size_t estimate = 16 * detail::kChunkArrayBytes +
                               detail::WorldAccess::state(w).budget_pending_bytes;
  w.update();
  const std::size_t peak = counted_peak() - before;
  std::printf("edits of 16 uniform chunks: peak %zu bytes, estimate %zu\n", peak, estimate);
  EXPECT_GE(estimate, peak);
}

INSTANTIATE_TEST_SUITE_P(SharedRegions, MemoryNeed,
                         ::testing::Values(test::kSharedRegions[0].file, test::kSharedRegions[1].file,
                                           test::kSharedRegions[2].file),
                         [](const auto& param_info) {
                           for (const test::SharedRegion& r : test::kSharedRegions)
                             if (r.file == std::string(param_info.param)) return std::string(r.name);
                           return std::string("region");
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

// ---- the World's budget per chunk kind (issue 16: the five gaps of docs/memory.md) ----
namespace voxnav {
namespace {

/// air (0), stone (1, a full block), slab (2, half a block).
void small_world(World& w) {
  BlockRegistryDef def;
  def.add("air");
  def.add("stone", {BlockBox{}});
  def.add("slab", {BlockBox{0, 0, 0, 1, 0.5f, 1}});
  EXPECT_EQ(w.define_blocks(def), Status::Ok);
}

/// A box of nx x ny x nz chunks whose cell (x, y, z) in world cells holds value(x, y, z).
template <class F>
void load_box(World& w, int nx, int ny, int nz, F value, int y0 = 0) {
  std::vector<ChunkPos> pos;
  std::vector<std::uint16_t> values;
  for (int cy = 0; cy < ny; ++cy)
    for (int cz = 0; cz < nz; ++cz)
      for (int cx = 0; cx < nx; ++cx) {
        pos.push_back({cx, y0 + cy, cz});
        for (int y = 0; y < 16; ++y)
          for (int z = 0; z < 16; ++z)
            for (int x = 0; x < 16; ++x)
              values.push_back(value(cx * 16 + x, (y0 + cy) * 16 + y, cz * 16 + z));
      }
  ASSERT_EQ(w.load_chunks(pos, values), Status::Ok);
}

struct Build {
  std::size_t pending = 0, peak = 0, kept = 0;
};
/// The budget the calls so far charged, then the next update's peak and what it kept.
Build measure_update(World& w) {
  Build b;
  b.pending = detail::WorldAccess::state(w).budget_pending_bytes;
  const std::size_t before = start_peak();
  w.update();
  b.peak = counted_peak() - before;
  b.kept = counted_live() - before;
  return b;
}

// Each kind of chunk: what its first build takes at its peak against what the load charged.
TEST(MemoryBudget, EachChunkKindIsChargedAtLeastItsBuildPeak) {
  struct Case {
    const char* name;
    int nx, ny, nz;
    std::uint16_t (*value)(int, int, int);
    double most;  // the charge is at most this many times the measured peak
  };
  const Case cases[] = {
      // Gap 1's chunks: a floor every 4 cells (every chunk mixed, four floors of bodies).
      {"floor every 4 cells", 12, 3, 12, [](int, int y, int) -> std::uint16_t { return y % 4 == 0; }, 3},
      // Mostly uniform: stone with one air cell (an array, its navigation almost all blocked).
      {"mostly uniform", 12, 3, 12, [](int x, int y, int z) -> std::uint16_t { return !(x % 16 == 5 && y % 16 == 5 && z % 16 == 5); }, 0},
      // Mostly uniform: air with 64 stone cells, over a layer of stone chunks (charged mixed).
      {"mostly air over stone", 12, 2, 12, [](int x, int y, int z) -> std::uint16_t { return y < 16 || (x % 2 == 0 && z % 2 == 0 && y % 16 == 4 && x % 16 < 16 && z % 16 < 16 && (x % 16) + (z % 16) * 16 < 256 && ((x % 16) / 2 + (z % 16) / 2 * 8) < 64); }, 0},
      // Uniform open chunks alone (air): quiet.
      {"uniform air", 24, 4, 24, [](int, int, int) -> std::uint16_t { return 0; }, 3},
      // Uniform full blocks (stone): quiet.
      {"uniform stone", 24, 4, 24, [](int, int, int) -> std::uint16_t { return 1; }, 3},
      // Stone chunks under air chunks: the air above the ground is where bodies stand.
      {"air over stone", 12, 2, 12, [](int, int y, int) -> std::uint16_t { return y < 16; }, 0},
      // Uniform slabs: every cell holds a floor.
      {"uniform slabs", 12, 2, 12, [](int, int, int) -> std::uint16_t { return 2; }, 0},
  };
  for (const Case& c : cases) {
    World w;
    small_world(w);
    ProfileId walker;
    ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    load_box(w, c.nx, c.ny, c.nz, c.value);
    const Build b = measure_update(w);
    const std::size_t chunks = std::size_t(c.nx) * c.ny * c.nz;
    std::printf("%s: %zu chunks, charged %zu bytes a chunk, build peak %zu, kept %zu\n", c.name,
                chunks, b.pending / chunks, b.peak / chunks, b.kept / chunks);
    EXPECT_GE(b.pending, b.peak) << c.name;
    if (c.most > 0) {
      EXPECT_LE(b.pending, std::size_t(c.most * double(b.peak))) << c.name;
    }
  }
}

// Gap 5: an air load is charged what it needs (no navigation planes), not a worst case.
TEST(MemoryBudget, UniformAirIsChargedItsQuietNavigationOnly) {
  World w;
    small_world(w);
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  load_box(w, 40, 1, 40, [](int, int, int) -> std::uint16_t { return 0; });
  EXPECT_EQ(detail::WorldAccess::state(w).budget_pending_bytes, 1600 * detail::kNavQuietChunkBytes);
  // A mixed chunk loaded beside them wakes its 8 loaded open neighbours (and itself): 9 builds.
  std::vector<std::uint16_t> floor(kChunkValues, 0);
  std::fill(floor.begin(), floor.begin() + 256, std::uint16_t{1});
  ASSERT_EQ(w.load_chunk({20, 0, 20}, floor), Status::Ok);
  EXPECT_EQ(detail::WorldAccess::state(w).budget_pending_bytes,
            1600 * detail::kNavQuietChunkBytes + 9 * detail::kNavBuildPeakBytes);
}

// Gap 3: edits between two ticks add up; a chunk edited twice is charged once.
TEST(MemoryBudget, EditsBetweenTicksAddUpAndEachChunkIsChargedOnce) {
  World w;
    small_world(w);
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  load_box(w, 16, 2, 16, [](int, int y, int) -> std::uint16_t { return y < 16; });
  w.update();
  ASSERT_EQ(detail::WorldAccess::state(w).budget_pending_bytes, 0u);
  // 64 pillars in 64 chunks (each one stone chunk and the air chunk above), set one by one.
  std::size_t last = 0;
  for (int i = 0; i < 64; ++i) {
    const int x = (i % 8) * 32 + 7, z = (i / 8) * 32 + 7;
    ASSERT_EQ(w.set_box({x, 14, z}, {x, 18, z}, 1), Status::Ok);
    const std::size_t now = detail::WorldAccess::state(w).budget_pending_bytes;
    EXPECT_GT(now, last) << i;
    last = now;
  }
  // The same cells again: nothing more to charge.
  for (int i = 0; i < 64; ++i) {
    const int x = (i % 8) * 32 + 7, z = (i / 8) * 32 + 7;
    ASSERT_EQ(w.set_box({x, 14, z}, {x, 18, z}, 0), Status::Ok);
  }
  EXPECT_EQ(detail::WorldAccess::state(w).budget_pending_bytes, last);
  const Build b = measure_update(w);
  std::printf("128 edits in 128 chunks: charged %zu bytes, update peak %zu\n", b.pending, b.peak);
  EXPECT_GE(b.pending, b.peak);
}

// Gap 2: a profile of a new class builds that class's navigation of every chunk at once.
TEST(MemoryBudget, ANewClassIsChargedItsNavigationOfEveryChunk) {
  World w;
    small_world(w);
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  load_box(w, 12, 3, 12, [](int, int y, int) -> std::uint16_t { return y % 4 == 0; });
  w.update();
  const std::size_t charge = detail::class_charge(detail::WorldAccess::state(w)).now;
  Profile large;
  large.id = "large";
  large.movement_class = MovementClass::WalkerLarge;
  large.width = 1.98;
  large.height = 2.95;
  ProfileId id;
  const std::size_t before = start_peak();
  ASSERT_EQ(w.add_profile(large, &id), Status::Ok);
  const std::size_t peak = counted_peak() - before;
  std::printf("walker_large navigation of 432 chunks: charged %zu bytes, peak %zu\n", charge, peak);
  EXPECT_GE(charge, peak);
  EXPECT_LE(charge, 3 * peak);
}

// Gap 4: the agents' table doubling is charged with the pending builds.
TEST(MemoryBudget, AgentsAreChargedTheirTableDoubling) {
  World w;
    small_world(w);
  ProfileId walker;
  ASSERT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  load_box(w, 4, 1, 4, [](int, int y, int) -> std::uint16_t { return y == 0; });
  w.update();
  std::vector<AgentDef> defs(1000);
  for (std::size_t i = 0; i < defs.size(); ++i)
    defs[i] = AgentDef{walker, Vec3{0.5 + double(i % 60), 1.0, 0.5 + double(i / 60)}, std::nullopt};
  std::vector<AgentId> ids(defs.size());
  const std::size_t before = start_peak();
  ASSERT_EQ(w.add_agents(defs, ids.data(), "defs"), Status::Ok);
  const std::size_t peak = counted_peak() - before;
  const std::size_t charge = detail::agent_growth_bytes(0, 0, 0, defs.size());
  // A table with room left is charged nothing; one that must grow, its doublings.
  EXPECT_EQ(detail::agent_growth_bytes(1000, 0, 1024, 24), 0u);
  EXPECT_EQ(detail::agent_growth_bytes(1024, 10, 1024, 10), 0u);
  EXPECT_EQ(detail::agent_growth_bytes(1024, 0, 1024, 1), 2 * 2048 * detail::agent_slot_bytes());
  std::printf("1000 agents: charged %zu bytes, peak %zu\n", charge, peak);
  EXPECT_GE(charge, peak);
}

}  // namespace
}  // namespace voxnav
