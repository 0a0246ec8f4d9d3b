// The swimmer class on a real region (1.16 r.0.-1.mca, with its sea and rivers): its nodes are
// exactly the cells whose whole envelope lies in swimmable fluid, every route stays in water with
// Swim edges, its islands agree with a BFS over the move words, and it follows edits (a block
// dropped into the water, the water drained) exactly like a fresh build.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_state.h"
#include "engine/util/splitmix.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using detail::Cell;
const std::string kRegion = std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/1.16/r.0.-1.mca";

detail::ClassEnvelope swimmer_envelope() {
  detail::ClassEnvelope e;
  e.half_width_q = 32;  // 0.98 x 0.98: the footprint of the whole cell, less 0.01 each side
  e.height_q = 63;
  e.step_q = 0;
  e.jump_q = 0;
  e.max_drop = 0;
  e.swimmer = true;
  return e;
}

bool swimmable(const World& w, const Cell& c) {
  std::uint16_t v = 0;
  if (w.get_block({c.x, c.y, c.z}, &v) != Status::Ok) return false;
  const detail::BlockRegistry& reg = w.internal().registry;
  return (reg.traits(v) & detail::kTraitFluidSwim) && reg.top_in_footprint(v, 32) < 0;
}

TEST(Swimmer, RoutesStayInWaterAndIslandsAreExact) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(kRegion, &pid);
  ASSERT_TRUE(w);
  detail::WorldState& st = w->internal();
  st.walker->set_trims_log(false);
  detail::NavWorld swim(st.space, swimmer_envelope(), nullptr);
  swim.build_from_space();
  const detail::NavGrid& g = swim.grid();
  std::vector<Cell> water;
  std::size_t wrong = 0;
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const Cell c = detail::cell_of(ch, i);
      const bool node = detail::kind_node(ch->kind_at(i));
      if (node) water.push_back(c);
      if (node != swimmable(*w, c) && ++wrong <= 5)
        ADD_FAILURE() << test::str(c) << ": node " << node << ", swimmable " << swimmable(*w, c);
    }
  }
  EXPECT_EQ(wrong, 0u);
  ASSERT_GT(water.size(), 1000u) << "the region should have a sea or rivers";
  detail::SplitMix64 rng{0x5F15};
  test::PairOracle oracle(g);
  std::size_t found = 0, pairs = 0, mismatches = 0;
  for (int k = 0; k < 400; ++k) {
    const std::uint32_t ia = rng.below(static_cast<std::uint32_t>(water.size()));
    const std::uint32_t ib =
        std::min<std::uint32_t>(static_cast<std::uint32_t>(water.size()) - 1, ia + rng.below(200));
    const Cell a = water[ia], b = water[ib];
    const detail::Reach r = swim.reachable(a, b);
    const bool truth = oracle.reaches(a, b);
    ++pairs;
    if ((r.answer == detail::ReachAnswer::Yes) != truth || r.answer == detail::ReachAnswer::Unknown)
      ++mismatches;
    if (!truth) continue;
    detail::RequestSpec spec;
    spec.start = a;
    spec.goal = b;
    spec.costs.climb_cost = detail::kCostStraight;
    const detail::SearchResult res = swim.search_now(spec);
    ASSERT_EQ(res.outcome, detail::SearchOutcome::Found) << test::str(a) << " -> " << test::str(b);
    ++found;
    for (std::size_t i = 0; i < res.cells.size(); ++i) {
      EXPECT_TRUE(swimmable(*w, res.cells[i])) << test::str(res.cells[i]) << " is not water";
      if (i > 0) {
        EXPECT_EQ(res.kinds[i], detail::EdgeKind::Swim);
      }
    }
  }
  std::printf("%zu water cells, %zu islands; %zu pairs (%zu mismatches), %zu routes in water\n",
              water.size(), swim.islands().component_count(), pairs, mismatches, found);
  EXPECT_EQ(mismatches, 0u);
  EXPECT_GT(found, 100u);

  // Edits: stone dropped into the water, some water drained; then the same as a fresh build.
  std::uint16_t stone = 0, air = 0, water_v = 0;
  ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w->block_value("air", &air), Status::Ok);
  ASSERT_EQ(w->block_value("water", &water_v), Status::Ok);
  for (int e = 0; e < 400; ++e) {
    const Cell c = water[rng.below(static_cast<std::uint32_t>(water.size()))];
    const std::uint16_t v = e % 3 == 0 ? stone : e % 3 == 1 ? air : water_v;
    ASSERT_EQ(w->set_block({c.x, c.y, c.z}, v), Status::Ok);
    if (e % 5 == 0) swim.update();
  }
  swim.update();
  detail::NavWorld fresh(st.space, swimmer_envelope(), nullptr);
  fresh.build_from_space();
  const test::LayerDiff d = test::compare_layers(swim, fresh);
  std::printf("after 400 edits: %zu cells compared, %zu differences\n", d.cells, d.total());
  EXPECT_EQ(d.total(), 0u) << d.first;
}

}  // namespace
}  // namespace voxnav
