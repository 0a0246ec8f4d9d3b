// Space (chunk mirror + change log) and BlockRegistry shape data. Runs natively and under node.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "scenes.h"

namespace voxnav::detail {
namespace {

class SpaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stone = registry.add(BlockType{"stone", {Box{{0, 0, 0}, {1, 1, 1}}}, 0, 0});
    dirt = registry.add(BlockType{"dirt", {Box{{0, 0, 0}, {1, 1, 1}}}, 0, 0});
  }
  std::vector<Change> changes_since(std::uint64_t after) const {
    std::vector<Change> out;
    space.changes_since(after, out);
    return out;
  }

  BlockRegistry registry;
  Space space{&registry};
  std::uint16_t stone = 0, dirt = 0;
};

TEST_F(SpaceTest, LoadChunkWrongLengthIsInvalidAndChangesNothing) {
  std::vector<std::uint16_t> short_values(kChunkCells - 1, stone);
  EXPECT_EQ(space.load_chunk({0, 0, 0}, short_values), Status::InvalidArgument);
  std::vector<std::uint16_t> long_values(kChunkCells + 1, stone);
  EXPECT_EQ(space.load_chunk({0, 0, 0}, long_values), Status::InvalidArgument);
  EXPECT_FALSE(space.is_loaded({0, 0, 0}));
  EXPECT_EQ(space.chunk_count(), 0u);
  EXPECT_EQ(space.serial(), 0u);
  EXPECT_TRUE(changes_since(0).empty());

  // A failed reload leaves the loaded chunk, its stamp and the log as they were.
  ASSERT_EQ(space.load_uniform_chunk({0, 0, 0}, dirt), Status::Ok);
  const std::uint64_t serial = space.serial();
  EXPECT_EQ(space.load_chunk({0, 0, 0}, short_values), Status::InvalidArgument);
  EXPECT_EQ(space.serial(), serial);
  EXPECT_EQ(space.block({3, 4, 5}), dirt);
  EXPECT_EQ(space.chunk({0, 0, 0})->stamp.load_serial, serial);
  EXPECT_EQ(changes_since(0).size(), 1u);
}

TEST_F(SpaceTest, SetBlockOnUnloadedChunkIsNotLoaded) {
  ASSERT_EQ(space.load_uniform_chunk({0, 0, 0}, 0), Status::Ok);
  const std::uint64_t serial = space.serial();
  EXPECT_EQ(space.set_block({16, 0, 0}, stone), Status::NotLoaded);  // chunk (1,0,0)
  EXPECT_EQ(space.set_block({-1, 0, 0}, stone), Status::NotLoaded);  // chunk (-1,0,0)
  EXPECT_EQ(space.serial(), serial);
  EXPECT_EQ(space.block({16, 0, 0}), 0);
  EXPECT_FALSE(space.is_cell_loaded({16, 0, 0}));
}

TEST_F(SpaceTest, ChangeLogSerialsIncreaseAndChangesSinceReturnsTheTail) {
  ASSERT_EQ(space.load_uniform_chunk({0, 0, 0}, 0), Status::Ok);     // 1
  ASSERT_EQ(space.load_uniform_chunk({1, 0, 0}, 0), Status::Ok);     // 2
  ASSERT_EQ(space.set_block({1, 2, 3}, stone), Status::Ok);          // 3
  ASSERT_EQ(space.set_block({1, 2, 3}, stone), Status::Ok);          // same value: not logged
  ASSERT_EQ(space.set_box({0, 0, 0}, {2, 0, 2}, dirt), Status::Ok);  // 4
  ASSERT_EQ(space.unload_chunk({1, 0, 0}), Status::Ok);              // 5
  EXPECT_EQ(space.serial(), 5u);

  const std::vector<Change> all = changes_since(0);
  ASSERT_EQ(all.size(), 5u);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].serial, i + 1);
  EXPECT_EQ(all[0].kind, Change::Kind::Load);
  EXPECT_EQ(all[0].min, (CellPos{0, 0, 0}));
  EXPECT_EQ(all[0].max, (CellPos{15, 15, 15}));
  EXPECT_EQ(all[1].kind, Change::Kind::Load);
  EXPECT_EQ(all[1].min, (CellPos{16, 0, 0}));
  EXPECT_EQ(all[2].kind, Change::Kind::SetBlock);
  EXPECT_EQ(all[2].min, (CellPos{1, 2, 3}));
  EXPECT_EQ(all[2].max, (CellPos{1, 2, 3}));
  EXPECT_EQ(all[3].kind, Change::Kind::SetBox);
  EXPECT_EQ(all[3].max, (CellPos{2, 0, 2}));
  EXPECT_EQ(all[4].kind, Change::Kind::Unload);
  EXPECT_EQ(all[4].min, (CellPos{16, 0, 0}));
  EXPECT_EQ(all[4].max, (CellPos{31, 15, 15}));

  const std::vector<Change> tail = changes_since(3);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0].serial, 4u);
  EXPECT_EQ(tail[1].serial, 5u);
  EXPECT_TRUE(changes_since(5).empty());

  // changes_since appends; trim_changes forgets the processed prefix only.
  std::vector<Change> out = tail;
  space.changes_since(4, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].serial, 5u);
  space.trim_changes(3);
  EXPECT_EQ(changes_since(0).size(), 2u);
  EXPECT_EQ(changes_since(0).front().serial, 4u);
}

TEST_F(SpaceTest, SetBoxOverTwoChunks) {
  ASSERT_EQ(space.load_uniform_chunk({0, 0, 0}, 0), Status::Ok);
  ASSERT_EQ(space.load_uniform_chunk({1, 0, 0}, 0), Status::Ok);
  // Box straddling x = 15 | 16.
  ASSERT_EQ(space.set_box({14, 1, 2}, {17, 2, 3}, stone), Status::Ok);
  for (int x = 12; x <= 19; ++x)
    for (int y = 0; y <= 3; ++y)
      for (int z = 1; z <= 4; ++z) {
        const bool inside = x >= 14 && x <= 17 && y >= 1 && y <= 2 && z >= 2 && z <= 3;
        EXPECT_EQ(space.block({x, y, z}), inside ? stone : 0) << x << "," << y << "," << z;
      }
  const Chunk* a = space.chunk({0, 0, 0});
  const Chunk* b = space.chunk({1, 0, 0});
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(a->uniform);
  EXPECT_FALSE(b->uniform);
  EXPECT_EQ(a->stamp.generation, 1u);
  EXPECT_EQ(b->stamp.generation, 1u);
  const std::vector<Change> log = changes_since(2);
  ASSERT_EQ(log.size(), 1u);  // one entry for the whole box
  EXPECT_EQ(log[0].kind, Change::Kind::SetBox);
  EXPECT_EQ(log[0].min, (CellPos{14, 1, 2}));
  EXPECT_EQ(log[0].max, (CellPos{17, 2, 3}));

  // A box reaching an unloaded chunk changes nothing.
  const std::uint64_t serial = space.serial();
  EXPECT_EQ(space.set_box({30, 0, 0}, {33, 0, 0}, dirt), Status::NotLoaded);
  EXPECT_EQ(space.serial(), serial);
  EXPECT_EQ(space.block({30, 0, 0}), 0);
  EXPECT_EQ(space.set_box({2, 0, 0}, {1, 0, 0}, dirt), Status::InvalidArgument);
}

TEST_F(SpaceTest, UniformChunkGetValues) {
  ASSERT_EQ(space.load_uniform_chunk({0, -1, 0}, stone), Status::Ok);
  const Chunk* ch = space.chunk({0, -1, 0});
  ASSERT_NE(ch, nullptr);
  EXPECT_TRUE(ch->uniform);
  EXPECT_EQ(ch->values, nullptr);
  for (int i = 0; i < kChunkCells; i += 97) EXPECT_EQ(ch->get(i), stone);
  EXPECT_EQ(space.block({0, -1, 0}), stone);
  EXPECT_EQ(space.block({15, -16, 15}), stone);
  EXPECT_EQ(space.block({0, 0, 0}), 0);  // not loaded: air

  // A full array holding one value is stored uniform too; one edit turns it into an array.
  std::vector<std::uint16_t> values(kChunkCells, dirt);
  ASSERT_EQ(space.load_chunk({2, 0, 0}, values), Status::Ok);
  EXPECT_TRUE(space.chunk({2, 0, 0})->uniform);
  ASSERT_EQ(space.set_block({33, 4, 5}, stone), Status::Ok);
  const Chunk* edited = space.chunk({2, 0, 0});
  EXPECT_FALSE(edited->uniform);
  EXPECT_EQ(edited->get(index_in_chunk({33, 4, 5})), stone);
  EXPECT_EQ(edited->get(index_in_chunk({34, 4, 5})), dirt);
  EXPECT_EQ(edited->stamp.generation, 1u);

  EXPECT_EQ(space.load_uniform_chunk({0, 0, 0}, 999), Status::OutOfRange);
  EXPECT_FALSE(space.is_loaded({0, 0, 0}));
}

TEST(BlockRegistryTest, TopInFootprint) {
  BlockRegistry registry;
  const std::uint16_t slab =
      registry.add(BlockType{"oak_slab", {Box{{0, 0, 0}, {1, 0.5f, 1}}}, 0, 0});
  const std::uint16_t fence = registry.add(
      BlockType{"oak_fence", {Box{{0.375f, 0, 0.375f}, {0.625f, 1.5f, 0.625f}}}, 0, 0});
  EXPECT_EQ(registry.top_in_footprint(slab, 19), 32);
  EXPECT_EQ(registry.top_in_footprint(fence, 19), 96);
  EXPECT_EQ(registry.top_in_footprint(0, 19), -1);  // air has no box
  EXPECT_EQ(registry.top_in_footprint(registry.find("oak_fence"), 19), 96);
}

// The same shapes read from the real minecraft-data collision file (also proves the wasm build
// reads ../shared/data from disk under node).
TEST(BlockRegistryTest, TopInFootprintFromRealCollisionShapes) {
  std::ifstream in(std::string(VOXNAV_SHARED_DATA) +
                   "/minecraft/blocks/blockCollisionShapes.pc-1.20.5.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json doc = nlohmann::json::parse(in);
  const auto& shapes = doc.at("shapes");
  auto boxes_of = [&](int shape_id) {
    std::vector<Box> boxes;
    for (const auto& b : shapes.at(std::to_string(shape_id))) {
      boxes.push_back(Box{{b[0].get<float>(), b[1].get<float>(), b[2].get<float>()},
                          {b[3].get<float>(), b[4].get<float>(), b[5].get<float>()}});
    }
    return boxes;
  };
  auto shape_ids = [&](const char* name) {
    const auto& v = doc.at("blocks").at(name);
    return v.is_array() ? v.get<std::vector<int>>() : std::vector<int>{v.get<int>()};
  };

  BlockRegistry registry;
  // Every state of the slab: the bottom one is 32 high, top and double slabs reach the top (64).
  std::vector<int> slab_tops;
  for (int id : shape_ids("oak_slab"))
    slab_tops.push_back(registry.top_in_footprint(registry.add({"oak_slab", boxes_of(id)}), 19));
  EXPECT_NE(std::find(slab_tops.begin(), slab_tops.end(), 32), slab_tops.end());
  for (int t : slab_tops) EXPECT_TRUE(t == 32 || t == 64) << t;
  // Every fence state (post alone or with arms) is 96 high under a 19/64 half width.
  for (int id : shape_ids("oak_fence"))
    EXPECT_EQ(registry.top_in_footprint(registry.add({"oak_fence", boxes_of(id)}), 19), 96);
  EXPECT_EQ(registry.top_in_footprint(
                registry.add({"soul_sand", boxes_of(shape_ids("soul_sand")[0])}), 19),
            56);
}

}  // namespace
}  // namespace voxnav::detail
