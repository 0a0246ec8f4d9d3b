// The flyer components (engine/flight/flyer_components.h):
// - brick_components against a flood fill written here, on random 64-bit masks;
// - on the shipped region, the labels against a BFS written here over the flyer cells of a block
//   of chunks sealed off by edits (every cell of the block: two cells share a label exactly when
//   the BFS joins them), and after random edits inside it the maintained components against ones
//   built from scratch (the same partition of a sample of cells).
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "engine/flight/flyer_components.h"
#include "engine/flight/flyer_store.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"

namespace voxnav {
namespace {

using detail::flight::FlyerComponents;
using detail::flight::FlyerStore;

std::vector<std::uint64_t> flood(std::uint64_t free) {
  std::vector<std::uint64_t> out;
  while (free) {
    int seed = 0;
    while (!((free >> seed) & 1)) ++seed;
    std::uint64_t comp = 0;
    std::vector<int> stack{seed};
    comp |= std::uint64_t{1} << seed;
    while (!stack.empty()) {
      const int b = stack.back();
      stack.pop_back();
      const int x = b & 3, y = (b >> 2) & 3, z = b >> 4;
      const int n[6][3] = {{x - 1, y, z}, {x + 1, y, z}, {x, y - 1, z}, {x, y + 1, z}, {x, y, z - 1}, {x, y, z + 1}};
      for (const auto& c : n) {
        if (c[0] < 0 || c[0] > 3 || c[1] < 0 || c[1] > 3 || c[2] < 0 || c[2] > 3) continue;
        const int i = c[0] + 4 * c[1] + 16 * c[2];
        if (((free >> i) & 1) && !((comp >> i) & 1)) comp |= std::uint64_t{1} << i, stack.push_back(i);
      }
    }
    out.push_back(comp);
    free &= ~comp;
  }
  return out;
}

TEST(FlyerComponents, BrickComponentsMatchAFloodFill) {
  tools::SplitMix64 rng{64};
  std::vector<std::uint64_t> got;
  for (int k = 0; k < 20000; ++k) {
    // Sparse to dense masks.
    std::uint64_t m = rng.next();
    for (int j = 0; j < int(k % 4); ++j) m &= rng.next();
    if (k % 7 == 0) m = ~m;
    detail::flight::brick_components(m, got);
    ASSERT_EQ(got, flood(m)) << std::hex << m;
  }
}

class FlyerComponentsRegion : public ::testing::Test {
 protected:
  void SetUp() override {
    world_ = test::load_region(test::repo_region(), &pid_);
    ASSERT_TRUE(world_);
  }
  detail::Space& space() { return detail::WorldAccess::state(*world_).space; }
  std::unique_ptr<World> world_;
  ProfileId pid_;
};

TEST_F(FlyerComponentsRegion, LabelsMatchABfsAndSurviveEdits) {
  const std::vector<ChunkPos> chunks = space().loaded_chunks();
  const ChunkPos c0 = chunks[chunks.size() / 2];
  // A block of 3 x 3 chunk columns, y 0 .. 127, sealed by stone walls on its four sides, floor
  // and roof, so a BFS inside it sees every cell a component of its cells can hold.
  const CellPos lo{c0.x * 16, 0, c0.z * 16}, hi{c0.x * 16 + 47, 127, c0.z * 16 + 47};
  for (int x = lo.x; x <= hi.x; x += 16)
    for (int z = lo.z; z <= hi.z; z += 16)
      for (int y = 0; y <= hi.y + 16; y += 16) ASSERT_TRUE(space().is_cell_loaded(CellPos{x, y, z}));
  const std::uint16_t stone = space().registry().find("stone");
  ASSERT_EQ(space().set_box(CellPos{lo.x, lo.y, lo.z}, CellPos{hi.x, lo.y, hi.z}, stone), Status::Ok);
  ASSERT_EQ(space().set_box(CellPos{lo.x, hi.y, lo.z}, CellPos{hi.x, hi.y, hi.z}, stone), Status::Ok);
  ASSERT_EQ(space().set_box(CellPos{lo.x, lo.y, lo.z}, CellPos{lo.x, hi.y, hi.z}, stone), Status::Ok);
  ASSERT_EQ(space().set_box(CellPos{hi.x, lo.y, lo.z}, CellPos{hi.x, hi.y, hi.z}, stone), Status::Ok);
  ASSERT_EQ(space().set_box(CellPos{lo.x, lo.y, lo.z}, CellPos{hi.x, hi.y, lo.z}, stone), Status::Ok);
  ASSERT_EQ(space().set_box(CellPos{lo.x, lo.y, hi.z}, CellPos{hi.x, hi.y, hi.z}, stone), Status::Ok);
  FlyerStore store;
  store.build_all(space());
  FlyerComponents comps;
  comps.build_all(store, space());
  // BFS labels inside the block.
  const int sx = hi.x - lo.x + 1, sy = hi.y - lo.y + 1, sz = hi.z - lo.z + 1;
  std::vector<int> bfs(std::size_t(sx) * sy * sz, 0);
  const auto at = [&](CellPos c) -> int& { return bfs[std::size_t(c.x - lo.x) + sx * (std::size_t(c.y - lo.y) + sy * std::size_t(c.z - lo.z))]; };
  int next = 0;
  std::map<std::uint32_t, int> to_bfs;  // component label -> BFS label
  std::size_t free_cells = 0;
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        const CellPos c{x, y, z};
        if (!store.free(c) || at(c)) continue;
        ++next;
        std::deque<CellPos> q{c};
        at(c) = next;
        while (!q.empty()) {
          const CellPos p = q.front();
          q.pop_front();
          ++free_cells;
          const CellPos n[6] = {{p.x - 1, p.y, p.z}, {p.x + 1, p.y, p.z}, {p.x, p.y - 1, p.z},
                                {p.x, p.y + 1, p.z}, {p.x, p.y, p.z - 1}, {p.x, p.y, p.z + 1}};
          for (const CellPos& m : n) {
            ASSERT_TRUE(m.x >= lo.x && m.x <= hi.x && m.y >= lo.y && m.y <= hi.y && m.z >= lo.z && m.z <= hi.z)
                << "the walls leak at " << test::str(m);
            if (store.free(m) && !at(m)) at(m) = next, q.push_back(m);
          }
        }
      }
  // Same label exactly when the same BFS component: a bijection between the labels.
  std::map<int, std::uint32_t> from_bfs;
  for (int z = lo.z; z <= hi.z; ++z)
    for (int y = lo.y; y <= hi.y; ++y)
      for (int x = lo.x; x <= hi.x; ++x) {
        const CellPos c{x, y, z};
        const std::uint32_t l = comps.label(store, c);
        if (!store.free(c)) {
          ASSERT_EQ(l, 0u) << test::str(c);
          continue;
        }
        ASSERT_NE(l, 0u) << test::str(c);
        const auto [i, fresh] = to_bfs.emplace(l, at(c));
        ASSERT_EQ(i->second, at(c)) << "one label over two BFS components at " << test::str(c);
        const auto [j, fresh2] = from_bfs.emplace(at(c), l);
        ASSERT_EQ(j->second, l) << "one BFS component with two labels at " << test::str(c);
      }
  std::printf("block: %zu free cells in %d components\n", free_cells, next);
  EXPECT_GT(next, 2);
  // Random edits inside the block: the maintained components partition cells as fresh ones do.
  tools::SplitMix64 rng{5};
  std::uint64_t serial = space().serial();
  for (int round = 0; round < 6; ++round) {
    for (int k = 0; k < 8; ++k) {
      const CellPos a{lo.x + 1 + int(rng.next() % 40), 40 + int(rng.next() % 60), lo.z + 1 + int(rng.next() % 40)};
      const CellPos b{a.x + int(rng.next() % 6), a.y + int(rng.next() % 6), a.z + int(rng.next() % 6)};
      ASSERT_EQ(space().set_box(a, b, rng.next() % 2 ? stone : std::uint16_t{0}), Status::Ok);
    }
    std::vector<detail::Change> ch;
    space().changes_since(serial, ch);
    serial = space().serial();
    store.apply(space(), ch);
    comps.update(store, space(), store.changed_chunks());
    FlyerStore fresh_store;
    fresh_store.build_all(space());
    FlyerComponents fresh;
    fresh.build_all(fresh_store, space());
    std::vector<CellPos> sample;
    while (sample.size() < 400) {
      const CellPos c{lo.x + int(rng.next() % 48), int(rng.next() % 128), lo.z + int(rng.next() % 48)};
      if (store.free(c)) sample.push_back(c);
    }
    for (std::size_t i = 0; i + 1 < sample.size(); ++i) {
      const CellPos a = sample[i], b = sample[i + 1 + rng.next() % (sample.size() - i - 1)];
      ASSERT_EQ(comps.label(store, a) == comps.label(store, b), fresh.label(fresh_store, a) == fresh.label(fresh_store, b))
          << "round " << round << ": " << test::str(a) << " " << test::str(b);
    }
    ASSERT_EQ(comps.component_count(), fresh.component_count()) << "round " << round;
  }
}

}  // namespace
}  // namespace voxnav
