// The swimmer class on a real region (1.16 r.0.-1.mca, with its sea and rivers): its nodes are
// exactly the cells whose whole envelope lies in swimmable fluid, every route stays in water with
// Swim edges, its islands agree with a BFS over the move words, and it follows edits (a block
// dropped into the water, the water drained) exactly like a fresh build.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

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

bool swimmable(const World& w, const CellPos& c) {
  std::uint16_t v = 0;
  if (w.get_block({c.x, c.y, c.z}, &v) != Status::Ok) return false;
  const detail::BlockRegistry& reg = detail::WorldAccess::state(w).registry;
  return (reg.traits(v) & detail::kTraitFluidSwim) && reg.top_in_footprint(v, 32) < 0;
}

TEST(Swimmer, RoutesStayInWaterAndIslandsAreExact) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(kRegion, &pid);
  ASSERT_TRUE(w);
  detail::WorldState& st = detail::WorldAccess::state(*w);
  st.walker()->set_trims_log(false);
  detail::NavWorld swim(st.space, swimmer_envelope(), nullptr);
  swim.build_from_space();
  const detail::NavGrid& g = swim.grid();
  std::vector<CellPos> water;
  std::size_t wrong = 0;
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const CellPos c = detail::cell_of(ch, i);
      const bool node = detail::kind_node(ch->kind_at(i));
      if (node) water.push_back(c);
      if (node != swimmable(*w, c) && ++wrong <= 5)
        ADD_FAILURE() << test::str(c) << ": node " << node << ", swimmable " << swimmable(*w, c);
    }
  }
  EXPECT_EQ(wrong, 0u);
  ASSERT_GT(water.size(), 1000u) << "the region should have a sea or rivers";
  tools::SplitMix64 rng{0x5F15};
  test::PairOracle oracle(g);
  std::size_t found = 0, pairs = 0, mismatches = 0;
  for (int k = 0; k < 400; ++k) {
    const std::uint32_t ia = rng.below(static_cast<std::uint32_t>(water.size()));
    const std::uint32_t ib =
        std::min<std::uint32_t>(static_cast<std::uint32_t>(water.size()) - 1, ia + rng.below(200));
    const CellPos a = water[ia], b = water[ib];
    const Reach r = swim.reachable(a, b);
    const bool truth = oracle.reaches(a, b);
    ++pairs;
    if ((r.answer == ReachAnswer::Yes) != truth || r.answer == ReachAnswer::Unknown)
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
        EXPECT_EQ(res.kinds[i], EdgeKind::Swim);
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
    const CellPos c = water[rng.below(static_cast<std::uint32_t>(water.size()))];
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

// The same through the public API: a swimmer profile gets its class's navigation when added, and
// its routes stay in water with Swim edges; a walker asked the same gets another answer.
TEST(Swimmer, SwimmerProfileThroughTheWorld) {
  ProfileId walker;
  std::unique_ptr<World> w = test::load_region(kRegion, &walker);
  ASSERT_TRUE(w);
  Profile fish;
  fish.id = "fish";
  fish.movement_class = MovementClass::Swimmer;
  fish.width = 0.5;
  fish.height = 0.4;
  fish.can_swim = true;
  fish.swim_speed = 2.0;
  fish.step_height = 0;
  fish.jump_apex = 0;
  fish.max_drop = 0;
  ProfileId fid;
  std::string err;
  ASSERT_EQ(w->add_profile(fish, &fid, &err), Status::Ok) << err;
  const detail::NavGrid& g = detail::WorldAccess::state(*w).nav_of(MovementClass::Swimmer)->grid();
  std::vector<CellPos> water;
  for (const detail::NavChunk* ch : g.ordered_chunks())
    if (!ch->uniform)
      for (int i = 0; i < detail::kChunkCells; ++i)
        if (detail::kind_node(ch->kind_at(i))) water.push_back(detail::cell_of(ch, i));
  ASSERT_GT(water.size(), 1000u);
  tools::SplitMix64 rng{0xF15};
  int routes = 0;
  for (int k = 0; k < 200 && routes < 40; ++k) {
    const std::uint32_t ia = rng.below(static_cast<std::uint32_t>(water.size()));
    const std::uint32_t ib =
        std::min<std::uint32_t>(static_cast<std::uint32_t>(water.size()) - 1, ia + rng.below(200));
    const CellPos a{water[ia].x, water[ia].y, water[ia].z},
        b{water[ib].x, water[ib].y, water[ib].z};
    if (w->reachable(fid, a, b).answer != ReachAnswer::Yes) continue;
    NavRequest q;
    q.profile = fid;
    q.start = a;
    q.goal = b;
    PathResult r;
    ASSERT_EQ(w->find_path_now(q, &r), Status::Ok);
    ASSERT_EQ(r.status.state, PathState::Ready);
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      EXPECT_TRUE(swimmable(*w, CellPos{r.cells[i].cell.x, r.cells[i].cell.y, r.cells[i].cell.z}));
      if (i > 0) {
        EXPECT_EQ(r.cells[i].kind, EdgeKind::Swim);
      }
    }
    // The walker class does not stand in open water.
    EXPECT_EQ(w->reachable(walker, a, b).reason, ReachReason::StartNotStandable);
    ++routes;
  }
  EXPECT_GE(routes, 40);
  // Edits reach both classes through one change log: a stone block dropped into the water.
  const CellPos c = water[water.size() / 2];
  std::uint16_t stone = 0;
  ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w->set_block({c.x, c.y, c.z}, stone), Status::Ok);
  w->update();
  EXPECT_FALSE(w->is_standable(fid, {c.x, c.y, c.z}));
  EXPECT_EQ(detail::WorldAccess::state(*w).space.serial(), detail::WorldAccess::state(*w).walker()->processed_serial());
  EXPECT_EQ(detail::WorldAccess::state(*w).space.serial(), detail::WorldAccess::state(*w).nav_of(MovementClass::Swimmer)->processed_serial());
}

}  // namespace
}  // namespace voxnav
