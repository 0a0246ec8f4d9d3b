// World::set_blocks: a batch of cell and box edits, all or nothing. Every entry is checked before
// any applies; the first bad entry is named by index and field; on error no block changes.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/world.h"

namespace voxnav {
namespace {

// Two loaded chunks (0,0,0) and (1,0,0) of air; values 0 air, 1 voxnav:unknown.
World& two_chunks(World& w) {
  const std::vector<std::uint16_t> air(2 * kChunkValues, 0);
  const ChunkPos at[] = {{0, 0, 0}, {1, 0, 0}};
  EXPECT_EQ(w.load_chunks(at, air), Status::Ok);
  return w;
}

std::uint16_t block(const World& w, CellPos c) {
  std::uint16_t v = 9;
  EXPECT_EQ(w.get_block(c, &v), Status::Ok);
  return v;
}

BlockEdit cell(CellPos c, std::uint32_t v) { return BlockEdit{c, c, v, true}; }
BlockEdit box(CellPos a, CellPos b, std::uint32_t v) { return BlockEdit{a, b, v, false}; }

TEST(SetBlocks, AppliesInOrderAcrossChunks) {
  World w;
  two_chunks(w);
  const BlockEdit edits[] = {box({14, 1, 0}, {17, 2, 1}, 1), cell({15, 2, 0}, 0), cell({0, 0, 0}, 1)};
  ASSERT_EQ(w.set_blocks(edits), Status::Ok);
  int solid = 0;
  for (int y = 0; y < 16; ++y)
    for (int z = 0; z < 16; ++z)
      for (int x = 0; x < 32; ++x) solid += block(w, {x, y, z});
  EXPECT_EQ(solid, 4 * 2 * 2 - 1 + 1) << "the box, less the cell cleared after it, plus (0,0,0)";
  EXPECT_EQ(block(w, {15, 2, 0}), 0) << "later entries apply after earlier ones";
  EXPECT_EQ(block(w, {17, 1, 1}), 1);
  EXPECT_EQ(w.set_blocks({}), Status::Ok);
}

TEST(SetBlocks, TheFirstBadEntryIsNamedAndNothingApplies) {
  World w;
  two_chunks(w);
  struct Case {
    std::vector<BlockEdit> edits;
    Status status;
    std::string argument, message;
  };
  const Case cases[] = {
      {{cell({1, 1, 1}, 1), cell({0, 2048, 0}, 1)}, Status::OutOfRange, "edits[1].cell",
       "edits[1].cell (0, 2048, 0) is out of range: y is outside -2047 .. 2047"},
      {{cell({1, 1, 1}, 1), cell({2, 1, 1}, 1000000)}, Status::OutOfRange, "edits[1].value",
       "edits[1].value 1000000 is not in the block registry (values 0 .. 1)"},
      {{cell({1, 1, 1}, 1), cell({0, 64, 0}, 1)}, Status::NotLoaded, "edits[1].cell",
       "edits[1].cell (0, 64, 0) is in chunk (0, 4, 0), which is not loaded"},
      {{box({1, 1, 1}, {2, 2, 2}, 1), box({30, 0, 0}, {40, 0, 0}, 1)}, Status::NotLoaded, "edits[1].min",
       "the box edits[1].min .. edits[1].max covers chunk (2, 0, 0), which is not loaded"},
      {{box({3, 1, 1}, {2, 2, 2}, 1)}, Status::InvalidArgument, "edits[0].max",
       "edits[0].min (3, 1, 1) is above edits[0].max (2, 2, 2) on some axis"},
      {{cell({1, 1, 1}, 1), box({0, -1000, 0}, {4095, 1000, 4095}, 1)}, Status::InvalidArgument,
       "edits[1].max", "the box edits[1].min .. edits[1].max has 33571209216 cells, more than 16777216"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(w.set_blocks(c.edits), c.status) << c.message;
    EXPECT_EQ(w.last_error().function, "set_blocks");
    EXPECT_EQ(w.last_error().argument, c.argument);
    EXPECT_EQ(w.last_error().message, c.message);
    EXPECT_EQ(block(w, {1, 1, 1}), 0) << "nothing applied: " << c.message;
    EXPECT_EQ(block(w, {2, 2, 2}), 0);
  }
  // A host's single edit: the fields named alone.
  const BlockEdit one[] = {cell({0, 64, 0}, 1)};
  EXPECT_EQ(w.set_blocks(one, ""), Status::NotLoaded);
  EXPECT_EQ(w.last_error().argument, "cell");
  EXPECT_EQ(w.last_error().message, "cell (0, 64, 0) is in chunk (0, 4, 0), which is not loaded");
}

}  // namespace
}  // namespace voxnav
