// Flyer layer 0 of a World (engine/flight/flyer_classify.h, flyer_store.h):
// - a hand-built scene with one of each shape that matters (a floor, a fence post reaching 1.5,
//   a bottom slab, a carpet, a ceiling block, lava in mid air, the top of the loaded world), each
//   cell's answer written out by hand;
// - the shipped region (data/worlds, Minecraft 1.16) against an oracle written here from the
//   definition: the 0.98 x 1.95 body, feet on the cell's bottom and centred, has an interior overlap
//   with no collision box of the real registry and no harmful fluid cell; a hover cell is free with
//   a box of the cell below reaching its floor under the body;
// - random edits, loads and unloads on that region: the store refreshed by apply() equals one built
//   from scratch, and an edit reclassifies only bricks of the cells it can reach.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/flight/flyer_store.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"

namespace voxnav {
namespace {

using detail::BlockRegistry;
using detail::BlockType;
using detail::Box;
using detail::Change;
using detail::Space;
using detail::flight::FlyerStore;

// ---- the oracle ----
bool box_hits_body(const Box& b, double cx, double cy, double cz, double ox, double oz, double feet) {
  // Body: x in [ox + 0.01, ox + 0.99], z likewise, y in [feet, feet + 1.95]; box b of cell (cx, cy, cz).
  const double bx0 = cx + b.min[0], bx1 = cx + b.max[0], by0 = cy + b.min[1], by1 = cy + b.max[1],
               bz0 = cz + b.min[2], bz1 = cz + b.max[2];
  return bx0 < ox + 0.99 && bx1 > ox + 0.01 && bz0 < oz + 0.99 && bz1 > oz + 0.01 && by0 < feet + 1.95 &&
         by1 > feet;
}
struct OracleCell {
  bool free = false, hover = false;
};
OracleCell oracle(const Space& s, CellPos c) {
  const BlockRegistry& reg = s.registry();
  OracleCell o;
  for (int dy = -1; dy <= 2; ++dy) {
    const CellPos n{c.x, c.y + dy, c.z};
    if (!s.is_cell_loaded(n)) {
      if (dy <= 1) return o;  // the body or a box reaching into it may be there
      continue;
    }
    const std::uint16_t v = s.block(n);
    if (dy >= 0 && dy <= 1 && (reg.traits(v) & detail::kTraitFluidHarm)) return o;
    for (const Box& b : reg.type(v).boxes)
      if (box_hits_body(b, n.x, n.y, n.z, c.x, c.z, c.y)) return o;
  }
  o.free = true;
  const CellPos below{c.x, c.y - 1, c.z};
  for (const Box& b : reg.type(s.block(below)).boxes)
    if (b.max[1] >= 1.0f && b.min[0] < 0.99f && b.max[0] > 0.01f && b.min[2] < 0.99f && b.max[2] > 0.01f)
      o.hover = true;
  return o;
}

// ---- the hand-built scene ----
TEST(FlyerClassify, HandBuiltShapes) {
  BlockRegistry reg;
  auto add = [&](const char* name, std::vector<Box> boxes, std::uint32_t traits = 0) {
    BlockType t;
    t.name = name;
    t.boxes = std::move(boxes);
    t.traits = traits;
    return reg.add(t);
  };
  const std::uint16_t stone = add("stone", {{{0, 0, 0}, {1, 1, 1}}});
  const std::uint16_t fence = add("fence", {{{0.375f, 0, 0.375f}, {0.625f, 1.5f, 0.625f}}});
  const std::uint16_t slab = add("slab", {{{0, 0, 0}, {1, 0.5f, 1}}});
  const std::uint16_t carpet = add("carpet", {{{0, 0, 0}, {1, 0.0625f, 1}}});
  const std::uint16_t lava = add("lava", {}, detail::kTraitFluidHarm | detail::kTraitHazardFire);
  const std::uint16_t water = add("water", {}, detail::kTraitFluidSwim);
  Space space(&reg);
  // Two chunks stacked: y 0 .. 31; a stone floor at y = 0.
  ASSERT_EQ(space.load_uniform_chunk(ChunkPos{0, 0, 0}, 0), Status::Ok);
  ASSERT_EQ(space.load_uniform_chunk(ChunkPos{0, 1, 0}, 0), Status::Ok);
  ASSERT_EQ(space.set_box(CellPos{0, 0, 0}, CellPos{15, 0, 15}, stone), Status::Ok);
  ASSERT_EQ(space.set_block(CellPos{2, 1, 2}, fence), Status::Ok);
  ASSERT_EQ(space.set_block(CellPos{8, 1, 8}, slab), Status::Ok);
  ASSERT_EQ(space.set_block(CellPos{12, 1, 12}, carpet), Status::Ok);
  ASSERT_EQ(space.set_block(CellPos{10, 3, 10}, stone), Status::Ok);
  ASSERT_EQ(space.set_block(CellPos{5, 3, 5}, lava), Status::Ok);
  ASSERT_EQ(space.set_block(CellPos{6, 1, 6}, water), Status::Ok);
  FlyerStore store;
  store.build_all(space);
  struct Expect {
    CellPos c;
    bool free, hover;
  };
  const Expect expect[] = {
      {{1, 1, 1}, true, true},     // on the floor
      {{1, 2, 1}, true, false},    // a cell up: free, nothing to rest on
      {{1, 0, 1}, false, false},   // the floor itself (and nothing loaded below it)
      {{2, 1, 2}, false, false},   // the fence post
      {{2, 2, 2}, false, false},   // the post reaches 1.5: into this cell's envelope
      {{2, 3, 2}, true, false},    // above that, open air
      {{8, 1, 8}, false, false},   // the slab
      {{8, 2, 8}, true, false},    // over the slab: its top is 0.5 below the floor of this cell
      {{12, 1, 12}, false, false}, // a carpet is a box the body's feet would be in
      {{12, 2, 12}, true, false},
      {{10, 1, 10}, true, true},   // the envelope reaches 2.951: the block at y = 3 is not touched
      {{10, 2, 10}, false, false}, // its head would be in the block
      {{10, 4, 10}, true, true},   // on top of the ceiling block
      {{5, 3, 5}, false, false},   // lava
      {{5, 2, 5}, false, false},   // the head in lava
      {{5, 4, 5}, true, false},    // over the lava: free, not a rest
      {{6, 1, 6}, true, true},     // water does not stop a flyer
      {{3, 31, 3}, false, false},  // the head would be in the unloaded chunk above
      {{3, 30, 3}, true, false},   // envelope 30 .. 31.951: inside the loaded world
      {{20, 5, 3}, false, false},  // not loaded
  };
  for (const Expect& e : expect) {
    EXPECT_EQ(store.free(e.c), e.free) << test::str(e.c);
    EXPECT_EQ(store.hover(e.c), e.hover) << test::str(e.c);
    const OracleCell o = oracle(space, e.c);
    EXPECT_EQ(o.free, e.free) << "oracle " << test::str(e.c);
  }
}

// ---- the shipped region ----
class FlyerRegion : public ::testing::Test {
 protected:
  void SetUp() override {
    world_ = test::load_region(test::repo_region(), &pid_);
    ASSERT_TRUE(world_);
  }
  Space& space() { return detail::WorldAccess::state(*world_).space; }
  std::unique_ptr<World> world_;
  ProfileId pid_;
};

// Every cell of a block of 4 x 4 chunk columns (the whole build height) against the oracle.
TEST_F(FlyerRegion, EveryCellMatchesTheOracle) {
  FlyerStore store;
  store.build_all(space());
  const std::vector<ChunkPos> chunks = space().loaded_chunks();
  ASSERT_FALSE(chunks.empty());
  const ChunkPos c0 = chunks[chunks.size() / 2];
  std::size_t cells = 0, free = 0, hover = 0, mismatches = 0;
  for (const ChunkPos& p : chunks) {
    if (p.x < c0.x || p.x >= c0.x + 4 || p.z < c0.z || p.z >= c0.z + 4) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const CellPos c{p.x * 16 + (i & 15), p.y * 16 + (i >> 8), p.z * 16 + ((i >> 4) & 15)};
      const OracleCell o = oracle(space(), c);
      ++cells;
      free += o.free;
      hover += o.hover;
      if (o.free != store.free(c) || o.hover != store.hover(c)) {
        if (++mismatches <= 10)
          ADD_FAILURE() << test::str(c) << ": oracle free " << o.free << " hover " << o.hover << ", store free "
                        << store.free(c) << " hover " << store.hover(c);
      }
    }
  }
  EXPECT_EQ(mismatches, 0u);
  // The block has real terrain: ground to rest on, open air and solid rock.
  EXPECT_GT(cells, 16u * 4096u);
  EXPECT_GT(hover, 100u);
  EXPECT_GT(free, cells / 10);
  EXPECT_LT(free, cells);
}

// Random edits, a reload and an unload: apply() keeps the store equal to a fresh build, and an
// edit of one block reclassifies at most the bricks of the three cells that read it.
TEST_F(FlyerRegion, EditsMatchAFreshBuild) {
  FlyerStore store;
  store.build_all(space());
  const std::vector<ChunkPos> chunks = space().loaded_chunks();
  const ChunkPos c0 = chunks[chunks.size() / 2];
  tools::SplitMix64 rng{21};
  std::uint64_t serial = space().serial();
  const std::uint16_t stone = space().registry().find("stone"), air = 0;
  const std::uint16_t lava = space().registry().find("lava"), fence = space().registry().find("oak_fence");
  const std::uint16_t values[] = {stone, air, lava, fence};
  auto check = [&](const char* what) {
    FlyerStore fresh;
    fresh.build_all(space());
    ASSERT_EQ(fresh.chunk_count(), store.chunk_count()) << what;
    for (const ChunkPos& p : space().loaded_chunks()) {
      const FlyerStore::ChunkBricks* a = store.chunk(p);
      const FlyerStore::ChunkBricks* b = fresh.chunk(p);
      ASSERT_TRUE(a && b) << what << " " << test::str(p);
      for (int i = 0; i < 64; ++i) {
        ASSERT_EQ(a->bricks[i].free, b->bricks[i].free) << what << " " << test::str(p) << " brick " << i;
        ASSERT_EQ(a->bricks[i].hover, b->bricks[i].hover) << what << " " << test::str(p) << " brick " << i;
      }
    }
  };
  auto pull = [&]() {
    std::vector<Change> ch;
    space().changes_since(serial, ch);
    serial = space().serial();
    return store.apply(space(), ch);
  };
  for (int round = 0; round < 200; ++round) {
    const CellPos c{c0.x * 16 + int(rng.next() % 64), c0.y * 16 + int(rng.next() % 16), c0.z * 16 + int(rng.next() % 64)};
    if (!space().is_cell_loaded(c)) continue;
    const std::uint64_t before = store.bricks_refreshed();
    ASSERT_EQ(space().set_block(c, values[rng.next() % 4]), Status::Ok);
    pull();
    // Cells y - 1 .. y + 1 of one column: at most two bricks.
    EXPECT_LE(store.bricks_refreshed() - before, 2u) << test::str(c);
  }
  check("single edits");
  for (int round = 0; round < 20; ++round) {
    const CellPos a{c0.x * 16 + int(rng.next() % 48), c0.y * 16 + int(rng.next() % 12), c0.z * 16 + int(rng.next() % 48)};
    const CellPos b{a.x + int(rng.next() % 12), a.y + int(rng.next() % 4), a.z + int(rng.next() % 12)};
    bool loaded = true;
    for (int x = a.x; x <= b.x; x += 1)
      for (int z = a.z; z <= b.z; z += 1)
        for (int y = a.y; y <= b.y; ++y) loaded = loaded && space().is_cell_loaded(CellPos{x, y, z});
    if (!loaded) continue;
    ASSERT_EQ(space().set_box(a, b, values[rng.next() % 4]), Status::Ok);
  }
  pull();
  check("boxes");
  // Unload a chunk and load another over a third's place: the neighbours' facing rows follow.
  ASSERT_EQ(space().unload_chunk(c0), Status::Ok);
  pull();
  check("unload");
  std::vector<std::uint16_t> vals(detail::kChunkCells, 0);
  for (int i = 0; i < detail::kChunkCells; ++i) vals[i] = (i >> 8) < 3 ? stone : air;
  ASSERT_EQ(space().load_chunk(c0, vals), Status::Ok);
  pull();
  check("load");
}

}  // namespace
}  // namespace voxnav
