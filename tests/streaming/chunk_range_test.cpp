// Chunk coordinates are range-checked before any chunk key is built (keys keep 22 bits of x and
// z, 20 of y): load_chunk / load_chunks / unload_chunk / unload_chunks with a position outside
// kMaxChunkXZ / kMaxChunkY answer OutOfRange naming the argument and change nothing, even when
// the position differs from a loaded chunk by a multiple of 2^22 (or 2^28, where x * 16 wraps
// 32 bits): before the check, load_chunk at x + 2^28 answered Ok and replaced the chunk at x,
// and unload_chunk there unloaded it. The edges of the range load and unload. set_box over the
// whole cell range is refused as too big (its cell count overflowed 64 bits).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct Snapshot {
  std::size_t chunks = 0;
  std::uint64_t serial = 0;
  std::vector<ChunkPos> loaded;
};
Snapshot snapshot(const World& w) {
  const detail::Space& s = detail::WorldAccess::state(w).space;
  return {s.chunk_count(), s.serial(), s.loaded_chunks()};
}
void expect_unchanged(const Snapshot& a, const World& w) {
  const Snapshot b = snapshot(w);
  EXPECT_EQ(a.chunks, b.chunks);
  EXPECT_EQ(a.serial, b.serial);
  EXPECT_EQ(a.loaded, b.loaded);
}

/// A world with one chunk at `at`: solid (value 1) in its bottom layer, air above.
std::vector<std::uint16_t> floor_chunk() {
  std::vector<std::uint16_t> v(kChunkValues, 0);
  for (int i = 0; i < 256; ++i) v[static_cast<std::size_t>(i)] = 1;
  return v;
}

TEST(ChunkRange, TheLimitsCoverTheCellRangeExactly) {
  EXPECT_EQ(kMaxChunkXZ, (1 << 21) - 1);
  EXPECT_EQ(kMaxChunkY, (1 << 7) - 1);
  EXPECT_EQ(std::int64_t{kMaxChunkXZ} * 16 + 15, kMaxCellXZ);
  EXPECT_EQ(std::int64_t{-kMaxChunkXZ} * 16, -std::int64_t{kMaxCellXZ} + 15);  // -(2^25 - 16)
  EXPECT_EQ(std::int64_t{kMaxChunkY} * 16 + 15, kMaxCellY);
}

TEST(ChunkRange, AliasesOfALoadedChunkAreRefusedAndChangeNothing) {
  World w;
  const std::vector<std::uint16_t> solid = floor_chunk();
  const std::vector<std::uint16_t> air(kChunkValues, 0);
  const ChunkPos at{3, 0, -2};
  ASSERT_EQ(w.load_chunk(at, solid), Status::Ok);
  const Snapshot before = snapshot(w);
  // Each of these keeps the low 22 bits of x / z (or 20 of y), or wraps x * 16 to x's cells.
  const ChunkPos aliases[] = {
      {at.x + (1 << 28), 0, at.z}, {at.x + (1 << 22), 0, at.z}, {at.x - (1 << 22), 0, at.z},
      {at.x, 0, at.z + (1 << 28)}, {at.x, 0, at.z - (1 << 22)}, {at.x, 1 << 20, at.z},
      {at.x, -(1 << 28), at.z},    {at.x + (1 << 28), 1 << 28, at.z + (1 << 28)},
      {INT32_MIN, 0, at.z},        {at.x, INT32_MAX, at.z},
  };
  for (const ChunkPos& p : aliases) {
    SCOPED_TRACE("chunk (" + std::to_string(p.x) + ", " + std::to_string(p.y) + ", " +
                 std::to_string(p.z) + ")");
    EXPECT_EQ(w.load_chunk(p, air), Status::OutOfRange);
    EXPECT_EQ(w.last_error().argument, "chunk");
    EXPECT_NE(w.last_error().message.find("out of range"), std::string::npos) << w.last_error().message;
    expect_unchanged(before, w);
    EXPECT_EQ(w.unload_chunk(p), Status::OutOfRange);
    EXPECT_EQ(w.last_error().argument, "chunk");
    expect_unchanged(before, w);
    const ChunkPos two[] = {at, p};
    std::vector<std::uint16_t> both(2 * kChunkValues, 0);
    EXPECT_EQ(w.load_chunks(two, both), Status::OutOfRange);
    EXPECT_EQ(w.last_error().argument, "positions");
    expect_unchanged(before, w);
    EXPECT_EQ(w.unload_chunks(two), Status::OutOfRange);
    EXPECT_EQ(w.last_error().argument, "positions");
    expect_unchanged(before, w);
    // The engine's own mirror refuses it too (the io loaders load through it).
    detail::Space& space = detail::WorldAccess::state(w).space;
    EXPECT_EQ(space.load_chunk(p, air), Status::OutOfRange);
    EXPECT_EQ(space.load_uniform_chunk(p, 0), Status::OutOfRange);
    EXPECT_EQ(space.unload_chunk(p), Status::OutOfRange);
    EXPECT_FALSE(space.is_loaded(p));
    EXPECT_EQ(space.chunk(p), nullptr);
    expect_unchanged(before, w);
  }
  // The chunk at `at` still holds its floor.
  std::uint16_t v = 0;
  ASSERT_EQ(w.get_block({at.x * 16 + 5, 0, at.z * 16 + 7}, &v), Status::Ok);
  EXPECT_EQ(v, 1);
  EXPECT_EQ(w.unload_chunk(at), Status::Ok);
}

TEST(ChunkRange, TheEdgesOfTheRangeLoadAndOneBeyondIsRefused) {
  World w;
  const std::vector<std::uint16_t> solid = floor_chunk();
  const ChunkPos edges[] = {{kMaxChunkXZ, kMaxChunkY, kMaxChunkXZ},
                            {-kMaxChunkXZ, -kMaxChunkY, -kMaxChunkXZ},
                            {kMaxChunkXZ, 0, -kMaxChunkXZ}};
  for (const ChunkPos& p : edges) {
    ASSERT_EQ(w.load_chunk(p, solid), Status::Ok) << w.last_error().message;
    std::uint16_t v = 9;
    ASSERT_EQ(w.get_block({p.x * 16 + 15, p.y * 16, p.z * 16}, &v), Status::Ok);
    EXPECT_EQ(v, 1);
  }
  const Snapshot before = snapshot(w);
  const ChunkPos beyond[] = {{kMaxChunkXZ + 1, 0, 0}, {-kMaxChunkXZ - 1, 0, 0}, {0, kMaxChunkY + 1, 0},
                             {0, -kMaxChunkY - 1, 0}, {0, 0, kMaxChunkXZ + 1}, {0, 0, -kMaxChunkXZ - 1}};
  const char* axis[] = {"x", "x", "y", "y", "z", "z"};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(w.load_chunk(beyond[i], solid), Status::OutOfRange) << i;
    EXPECT_NE(w.last_error().message.find(std::string(axis[i]) + " is outside"), std::string::npos)
        << w.last_error().message;
    EXPECT_EQ(w.unload_chunk(beyond[i]), Status::OutOfRange) << i;
    expect_unchanged(before, w);
  }
  for (const ChunkPos& p : edges) EXPECT_EQ(w.unload_chunk(p), Status::Ok);
  EXPECT_EQ(snapshot(w).chunks, 0u);
}

TEST(ChunkRange, SetBoxOverTheWholeCellRangeIsTooBigNotNotLoaded) {
  World w;
  ASSERT_EQ(w.load_chunk({0, 0, 0}, floor_chunk()), Status::Ok);
  const Snapshot before = snapshot(w);
  const CellPos lo{-kMaxCellXZ, -kMaxCellY, -kMaxCellXZ}, hi{kMaxCellXZ, kMaxCellY, kMaxCellXZ};
  EXPECT_EQ(w.set_box(lo, hi, 1), Status::InvalidArgument);
  EXPECT_EQ(w.last_error().argument, "max");
  EXPECT_NE(w.last_error().message.find("more than 16777216"), std::string::npos) << w.last_error().message;
  expect_unchanged(before, w);
  // Boxes whose exact count is just above the limit, and wide flat ones, are refused the same.
  EXPECT_EQ(w.set_box({0, 0, 0}, {4095, 0, 4096}, 1), Status::InvalidArgument);
  EXPECT_EQ(w.set_box({-kMaxCellXZ, 0, 0}, {kMaxCellXZ, 0, 0}, 1), Status::InvalidArgument);
  EXPECT_EQ(w.set_box({0, -kMaxCellY, -kMaxCellXZ}, {0, kMaxCellY, kMaxCellXZ}, 1),
            Status::InvalidArgument);
  expect_unchanged(before, w);
  detail::Space& space = detail::WorldAccess::state(w).space;
  EXPECT_EQ(space.set_box(lo, hi, 1), Status::InvalidArgument);
  expect_unchanged(before, w);
  // Exactly the limit is a size the call accepts (here NotLoaded: it leaves the loaded chunk).
  EXPECT_EQ(w.set_box({0, 0, 0}, {4095, 0, 4095}, 1), Status::NotLoaded);
  EXPECT_EQ(w.set_box({0, 1, 0}, {15, 1, 15}, 1), Status::Ok);
}

}  // namespace
}  // namespace voxnav
