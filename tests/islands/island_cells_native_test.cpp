// island_cells, stats().standable_cells and is_standable agree (a tester's finding): a host
// picking spawn cells from island_cells must never get a lava or fire cell, a door or a ladder.
// On the shared regions, which hold lava (damage) cells, every listed cell is standable, every
// standable cell of the walker grid is listed with its island, and the stats count the same cells
// (before, both counted every node of an island: the lava cells too).
#include <gtest/gtest.h>

#include <cstdio>

#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "shared_regions.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

class IslandCells : public ::testing::TestWithParam<test::SharedRegion> {};

TEST_P(IslandCells, ListExactlyTheStandableCells) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(std::string(VOXNAV_SHARED_DATA) + GetParam().file, &pid);
  ASSERT_TRUE(w);
  const detail::NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
  // The gate cells of the region by kind: the cells the list must leave out.
  std::uint64_t damage = 0, gates = 0;
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const detail::CellKind k = ch->kind_at(i);
      damage += k == detail::CellKind::DamageFire || k == detail::CellKind::DamageOther;
      gates += detail::kind_gate(k) != 0;
    }
  }
  // Each region holds lava the walker grid makes nodes of (3,499, 8,322 and 711 cells), so a
  // list of every island cell would include them.
  EXPECT_GT(damage, 0u);
  std::size_t n = 0;
  ASSERT_EQ(w->island_cells(pid, nullptr, 0, &n), Status::Ok);
  std::vector<IslandCell> cells(n);
  ASSERT_EQ(w->island_cells(pid, cells.data(), cells.size(), &n), Status::Ok);
  ASSERT_EQ(n, cells.size());
  std::size_t bad = 0;
  std::string first;
  for (const IslandCell& c : cells) {
    if (w->is_standable(pid, c.cell)) continue;
    if (!bad++) first = test::str(c.cell);
  }
  EXPECT_EQ(bad, 0u) << bad << " listed cells are not standable, first " << first;
  const std::vector<CellPos> standable = test::standable_cells(g);
  EXPECT_EQ(cells.size(), standable.size());
  EXPECT_EQ(w->stats().standable_cells, standable.size());
  // Each listed cell carries its island, as island_of answers.
  for (std::size_t i = 0; i < cells.size(); i += 97) {
    std::uint32_t isl = 0, size = 0;
    ASSERT_EQ(w->island_of(pid, cells[i].cell, &isl, &size), Status::Ok);
    EXPECT_EQ(isl, cells[i].island);
    EXPECT_EQ(size, cells[i].island_size);
  }
  std::printf("[island-cells] %s: %zu standable cells listed; %llu gate cells left out, %llu of "
              "them damage cells\n",
              GetParam().name, cells.size(), (unsigned long long)gates, (unsigned long long)damage);
  RecordProperty("damage_cells", std::to_string(damage));
}

INSTANTIATE_TEST_SUITE_P(SharedRegions, IslandCells, ::testing::ValuesIn(test::kSharedRegions),
                         [](const ::testing::TestParamInfo<test::SharedRegion>& i) {
                           return std::string(i.param.name);
                         });

}  // namespace
}  // namespace voxnav
