// A world written with a game's own block ids navigates exactly like the same world written with
// Minecraft's (issue 15, "Any game's blocks"): the repository's real region is loaded with the
// Minecraft registry, then re-encoded into a second World whose registry holds the same boxes and
// traits under new names and permuted values (value 0 stays air: unloaded cells read as 0). Both
// must give the same reachability answers on sampled cell pairs, the same routes, and the same
// state hash of a scripted agent run with edits and door toggles (ids mapped).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/registry.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct Twin {
  std::unique_ptr<World> mc, custom;
  ProfileId mc_pid, custom_pid;
  std::vector<std::uint16_t> to_custom;  // Minecraft value -> custom value
};

// Values 1..n-1 shuffled (Fisher-Yates on mt19937 draws: the same everywhere); 0 stays 0.
std::vector<std::uint16_t> permutation(std::size_t n, std::uint32_t seed) {
  std::vector<std::uint16_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint16_t>(i);
  std::mt19937 rng(seed);
  for (std::size_t i = n - 1; i > 1; --i) {
    const std::size_t j = 1 + rng() % i;  // 1..i
    std::swap(p[i], p[j]);
  }
  return p;
}

// The custom twin of a Minecraft registry: value to_custom[v] holds v's boxes and traits under the
// name "game:block_<new value>"; door toggles follow the permutation.
BlockRegistryDef custom_registry(const World& mc, const std::vector<std::uint16_t>& to_custom) {
  BlockRegistryDef def;
  def.blocks.resize(mc.block_count());
  for (std::size_t v = 0; v < mc.block_count(); ++v) {
    BlockDef d;
    EXPECT_EQ(mc.block_def(static_cast<std::uint16_t>(v), &d), Status::Ok);
    const std::uint16_t nv = to_custom[v];
    d.name = "game:block_" + std::to_string(nv);
    d.traits.door_toggle_name.clear();
    if (d.traits.door_toggle != kNoBlockValue) d.traits.door_toggle = to_custom[d.traits.door_toggle];
    def.blocks[nv] = std::move(d);
  }
  BlockDef fb;
  EXPECT_EQ(mc.block_def(1, &fb), Status::Ok);
  EXPECT_EQ(fb.name, "voxnav:unknown");
  def.fallback = to_custom[1];
  return def;
}

Twin make_twin() {
  Twin t;
  t.mc = test::load_region(test::repo_region(), &t.mc_pid);
  if (!t.mc) return t;
  t.to_custom = permutation(t.mc->block_count(), 15);
  t.custom = std::make_unique<World>();
  std::string err;
  EXPECT_EQ(t.custom->define_blocks(custom_registry(*t.mc, t.to_custom), &err), Status::Ok) << err;
  EXPECT_EQ(t.custom->block_count(), t.mc->block_count());
  // Every chunk, re-encoded, in the same order.
  const detail::Space& space = detail::WorldAccess::state(*t.mc).space;
  std::vector<std::uint16_t> values(kChunkValues);
  for (const ChunkPos& p : space.loaded_chunks()) {
    const detail::Chunk* ch = space.chunk(p);
    for (int i = 0; i < kChunkValues; ++i) values[static_cast<std::size_t>(i)] = t.to_custom[ch->get(i)];
    EXPECT_EQ(t.custom->load_chunk({p.x, p.y, p.z}, values), Status::Ok);
  }
  EXPECT_EQ(t.custom->add_profile(Profile{}, &t.custom_pid), Status::Ok);
  t.custom->update();
  return t;
}

Twin& twin() {
  static Twin t = make_twin();
  return t;
}

TEST(RegistryTwin, RegistriesHoldTheSameShapesAndTraits) {
  Twin& t = twin();
  ASSERT_TRUE(t.mc && t.custom);
  const detail::BlockRegistry& a = detail::WorldAccess::state(*t.mc).registry;
  const detail::BlockRegistry& b = detail::WorldAccess::state(*t.custom).registry;
  ASSERT_EQ(a.size(), b.size());
  EXPECT_GT(a.size(), 20000u);  // every block state of 1.21.1
  std::size_t doors = 0;
  for (std::size_t v = 0; v < a.size(); ++v) {
    const auto av = static_cast<std::uint16_t>(v);
    const std::uint16_t bv = t.to_custom[v];
    ASSERT_EQ(a.traits(av), b.traits(bv)) << "value " << v;
    for (int hw : {19, 32})
      ASSERT_EQ(a.top_in_footprint(av, hw), b.top_in_footprint(bv, hw)) << "value " << v;
    if (a.traits(av) & detail::kTraitDoor) {
      ++doors;
      ASSERT_EQ(t.to_custom[a.type(av).open_value], b.type(bv).open_value) << "value " << v;
    }
  }
  EXPECT_GT(doors, 500u);
  EXPECT_EQ(b.fallback(), t.to_custom[a.fallback()]);
  // Custom names are looked up as names.
  std::uint16_t v = 0;
  std::string err;
  EXPECT_EQ(t.custom->block_value("game:block_7", &v, &err), Status::Ok) << err;
  EXPECT_EQ(v, 7);
  EXPECT_EQ(t.custom->block_value("stone", &v, &err), Status::NotFound);
  EXPECT_EQ(v, t.to_custom[1]);  // the fallback
}

TEST(RegistryTwin, SameReachabilityOnSampledPairs) {
  Twin& t = twin();
  ASSERT_TRUE(t.mc && t.custom);
  const std::vector<CellPos> cells = test::standable_cells(detail::WorldAccess::state(*t.mc).walker()->grid());
  ASSERT_GT(cells.size(), 10000u);
  EXPECT_EQ(test::standable_cells(detail::WorldAccess::state(*t.custom).walker()->grid()).size(), cells.size());
  EXPECT_EQ(t.mc->stats().islands, t.custom->stats().islands);
  std::mt19937 rng(7);
  std::size_t yes = 0, no = 0;
  for (int k = 0; k < 4000; ++k) {
    const CellPos a = cells[rng() % cells.size()], b = cells[rng() % cells.size()];
    const CellPos pa{a.x, a.y, a.z}, pb{b.x, b.y, b.z};
    const Reach ra = t.mc->reachable(t.mc_pid, pa, pb);
    const Reach rb = t.custom->reachable(t.custom_pid, pa, pb);
    ASSERT_EQ(ra.answer, rb.answer) << test::str(a) << " -> " << test::str(b);
    ASSERT_EQ(ra.reason, rb.reason) << test::str(a) << " -> " << test::str(b);
    yes += ra.answer == ReachAnswer::Yes;
    no += ra.answer == ReachAnswer::No;
    ASSERT_TRUE(t.custom->is_standable(t.custom_pid, pa));
  }
  EXPECT_GT(yes, 100u);  // both answers are exercised
  EXPECT_GT(no, 100u);
}

TEST(RegistryTwin, SameRoutes) {
  Twin& t = twin();
  ASSERT_TRUE(t.mc && t.custom);
  const std::vector<CellPos> cells = test::standable_cells(detail::WorldAccess::state(*t.mc).walker()->grid());
  std::mt19937 rng(11);
  int ready = 0, tried = 0;
  while (ready < 40 && tried < 400) {
    ++tried;
    const CellPos a = cells[rng() % cells.size()], b = cells[rng() % cells.size()];
    const CellPos pa{a.x, a.y, a.z}, pb{b.x, b.y, b.z};
    if (t.mc->reachable(t.mc_pid, pa, pb).answer != ReachAnswer::Yes) continue;
    NavRequest ra{t.mc_pid, pa, pb}, rb{t.custom_pid, pa, pb};
    PathResult xa, xb;
    ASSERT_EQ(t.mc->find_path_now(ra, &xa), Status::Ok);
    ASSERT_EQ(t.custom->find_path_now(rb, &xb), Status::Ok);
    ASSERT_EQ(xa.status.state, xb.status.state);
    ASSERT_EQ(xa.status.cost, xb.status.cost);
    ASSERT_EQ(xa.status.nodes_expanded, xb.status.nodes_expanded);
    ASSERT_EQ(xa.cells.size(), xb.cells.size());
    for (std::size_t i = 0; i < xa.cells.size(); ++i) {
      ASSERT_EQ(xa.cells[i].cell, xb.cells[i].cell) << "cell " << i;
      ASSERT_EQ(xa.cells[i].kind, xb.cells[i].kind) << "cell " << i;
    }
    ASSERT_EQ(xa.waypoints.size(), xb.waypoints.size());
    ready += xa.status.state == PathState::Ready;
  }
  EXPECT_EQ(ready, 40);
}

// Agents walking between sampled cells while blocks change (the same edits, values mapped) and
// the traits of a block change (set_block_traits) half way: the same state hash every tick.
TEST(RegistryTwin, SameStateHashOfAScriptedRun) {
  Twin& t = twin();
  ASSERT_TRUE(t.mc && t.custom);
  const std::vector<CellPos> cells = test::standable_cells(detail::WorldAccess::state(*t.mc).walker()->grid());
  std::mt19937 rng(3);
  std::vector<AgentId> a_ids, b_ids;
  std::vector<CellPos> starts;
  while (a_ids.size() < 24) {
    const CellPos s = cells[rng() % cells.size()], g = cells[rng() % cells.size()];
    const CellPos ps{s.x, s.y, s.z}, pg{g.x, g.y, g.z};
    // Goals within 30 cells, so that most are reached within the run.
    if (std::abs(g.x - s.x) + std::abs(g.z - s.z) > 30) continue;
    if (t.mc->reachable(t.mc_pid, ps, pg).answer != ReachAnswer::Yes) continue;
    double feet_y = 0;
    ASSERT_EQ(t.mc->standing_height(t.mc_pid, ps, &feet_y), Status::Ok);
    const Vec3 feet{s.x + 0.5, feet_y, s.z + 0.5};
    AgentId ia, ib;
    ASSERT_EQ(t.mc->add_agent({t.mc_pid, feet}, &ia), Status::Ok);
    ASSERT_EQ(t.custom->add_agent({t.custom_pid, feet}, &ib), Status::Ok);
    ASSERT_EQ(t.mc->set_agent_goal(ia, pg), Status::Ok);
    ASSERT_EQ(t.custom->set_agent_goal(ib, pg), Status::Ok);
    a_ids.push_back(ia);
    b_ids.push_back(ib);
    starts.push_back(ps);
  }
  std::uint16_t stone = 0;
  ASSERT_EQ(t.mc->block_value("stone", &stone), Status::Ok);
  std::uint64_t ha = 0, hb = 0;
  std::uint32_t arrivals = 0;
  for (int tick = 0; tick < 400; ++tick) {
    if (tick % 20 == 10) {  // a stone dropped two cells ahead of the start of some agent
      const CellPos c = starts[static_cast<std::size_t>(tick / 20) % starts.size()];
      const CellPos at{c.x + 1, c.y, c.z};
      ASSERT_EQ(t.mc->set_block(at, stone), Status::Ok);
      ASSERT_EQ(t.custom->set_block(at, t.to_custom[stone]), Status::Ok);
    }
    if (tick == 200) {  // stone becomes slow in both (set_block_traits rebuilds every chunk)
      BlockTraits slow;
      slow.slow = true;
      std::string err;
      ASSERT_EQ(t.mc->set_block_traits(stone, slow, &err), Status::Ok) << err;
      ASSERT_EQ(t.custom->set_block_traits(t.to_custom[stone], slow, &err), Status::Ok) << err;
    }
    ASSERT_EQ(t.mc->tick(0.05), Status::Ok);
    ASSERT_EQ(t.custom->tick(0.05), Status::Ok);
    ASSERT_EQ(state_hash(*t.mc, a_ids, &ha), Status::Ok);
    ASSERT_EQ(state_hash(*t.custom, b_ids, &hb), Status::Ok);
    ASSERT_EQ(ha, hb) << "tick " << tick;
  }
  for (AgentId id : a_ids) {
    AgentState s;
    ASSERT_EQ(t.mc->agent_state(id, &s), Status::Ok);
    arrivals += s.arrivals;
  }
  EXPECT_GT(arrivals, 5u);  // the run did walk agents to their goals
  EXPECT_EQ(t.mc->nav_epoch(), t.custom->nav_epoch());
}

}  // namespace
}  // namespace voxnav
