// Differential test of incremental navigation maintenance on the default real region
// (data/worlds/r.0.-1.mca, Minecraft 1.16): 10,000 random block edits (adds and removes, single
// cells and small boxes, near standable cells and in the open), World::update() after each.
// After every edit:
//   - sampled pairs of standable cells near the edit (and now and then a far pair) get the same
//     reachable() answer as a bidirectional BFS over the move words decoded by hand (No is never
//     wrong, Yes always has a path, no Unknown for loaded standable cells);
//   - when the navigation epoch did not advance, answers sampled before the edit are unchanged.
// Every 1,000 edits and at the end the incremental layers equal a World built from scratch on the
// same blocks: layer 0 and the move words cell by cell, and the islands as a partition (a one to
// one map between the two labellings over every standable cell).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/islands/islands.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

using detail::NavChunk;
using detail::NavGrid;
using Rng = tools::SplitMix64;

const std::string& kRegion = test::repo_region();

using test::str;
CellPos pos(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }

std::unique_ptr<World> load_default_region(ProfileId* pid) {
  return test::load_region(kRegion, pid);
}

using test::fresh_copy;

using test::compare_layers;
using test::LayerDiff;
using test::PairOracle;

TEST(IncrementalEdits, RandomEditsAgreeWithBfsAndFreshBuild) {
  ProfileId pid;
  std::unique_ptr<World> world = load_default_region(&pid);
  ASSERT_TRUE(world);
  detail::NavWorld& nav = *detail::WorldAccess::state(*world).walker();
  const NavGrid& g = nav.grid();
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(world->block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(world->block_value("air", &air), Status::Ok);

  // Standable cells of the initial world (edit centres near where creatures walk) and the xz / y
  // extent of the loaded terrain (edits in the open).
  std::vector<CellPos> pool;
  int x0 = 1 << 30, x1 = -(1 << 30), z0 = 1 << 30, z1 = -(1 << 30), y0 = 1 << 30, y1 = -(1 << 30);
  for (const NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i)
      if (detail::kind_standable(ch->kind_at(i))) {
        const CellPos c = detail::cell_of(ch, i);
        pool.push_back(c);
        x0 = std::min(x0, c.x), x1 = std::max(x1, c.x), z0 = std::min(z0, c.z),
        z1 = std::max(z1, c.z);
        y0 = std::min(y0, c.y), y1 = std::max(y1, c.y);
      }
  }
  ASSERT_GT(pool.size(), 50000u);

  const int kEdits = test::rounds(3000, 800);
  const int kCompareEvery = 1000;
  Rng rng{0x5EED0042};
  PairOracle oracle(g);
  std::size_t pairs = 0, yes = 0, no = 0, mismatches = 0, unknown = 0, gated = 0,
              epoch_steady_edits = 0, steady_changed = 0, rejected = 0, compares = 0;
  auto standable_near = [&](const CellPos& c, int r, std::vector<CellPos>& out) {
    out.clear();
    for (int y = c.y - r / 2; y <= c.y + r / 2; ++y)
      for (int z = c.z - r; z <= c.z + r; ++z)
        for (int x = c.x - r; x <= c.x + r; ++x)
          if (g.standable(CellPos{x, y, z})) out.push_back(CellPos{x, y, z});
  };
  auto check = [&](const CellPos& a, const CellPos& b) -> ReachAnswer {
    const Reach r = world->reachable(pid, pos(a), pos(b));
    // The test profile neither climbs nor opens doors nor enters damage cells: where only such a
    // gate cell decides, the answer is Unknown(DoorGated / ProfileRestricted), never No.
    const bool truth = oracle.reaches(a, b, detail::CostTable{}.gates());
    const bool gated_truth = !truth && oracle.reaches(a, b);
    ++pairs;
    if (r.answer == ReachAnswer::Unknown &&
        (r.reason == ReachReason::DoorGated || r.reason == ReachReason::ProfileRestricted) &&
        gated_truth) {
      ++gated;
    } else if (r.answer == ReachAnswer::Unknown) {
      if (++unknown <= 5)
        ADD_FAILURE() << "Unknown for standable loaded cells " << str(a) << " -> " << str(b);
    } else if (r.answer == ReachAnswer::No && gated_truth) {
      if (++mismatches <= 5)
        ADD_FAILURE() << "No for " << str(a) << " -> " << str(b) << ": the class gets there";
    } else if ((r.answer == ReachAnswer::Yes) != truth) {
      if (++mismatches <= 5)
        ADD_FAILURE() << "reachable " << str(a) << " -> " << str(b) << " = "
                      << (r.answer == ReachAnswer::Yes ? "Yes" : "No") << ", BFS says "
                      << (truth ? "yes" : "no");
    }
    (truth ? yes : no) += 1;
    return r.answer;
  };

  std::vector<CellPos> near, before_pairs;
  std::vector<ReachAnswer> before_answers;
  const auto t0 = std::chrono::steady_clock::now();
  for (int e = 0; e < kEdits; ++e) {
    // Where: near a standable cell (70 %) or anywhere in the terrain's extent.
    CellPos c;
    if (rng.below(10) < 7) {
      c = pool[rng.below(static_cast<std::uint32_t>(pool.size()))];
    } else {
      c = CellPos{x0 + static_cast<int>(rng.below(static_cast<std::uint32_t>(x1 - x0 + 1))),
               y0 + static_cast<int>(rng.below(static_cast<std::uint32_t>(y1 - y0 + 1))),
               z0 + static_cast<int>(rng.below(static_cast<std::uint32_t>(z1 - z0 + 1)))};
    }
    // Answers before the edit, for the epoch check.
    standable_near(c, 6, near);
    before_pairs.clear();
    before_answers.clear();
    for (int k = 0; k < 3 && near.size() >= 2; ++k) {
      const CellPos a = near[rng.below(static_cast<std::uint32_t>(near.size()))];
      const CellPos b = near[rng.below(static_cast<std::uint32_t>(near.size()))];
      before_pairs.push_back(a);
      before_pairs.push_back(b);
      before_answers.push_back(world->reachable(pid, pos(a), pos(b)).answer);
    }
    const std::uint64_t epoch0 = world->nav_epoch();
    // What: adds and removes of single cells around the feet and head, and small boxes.
    Status s = Status::Ok;
    const int dx = static_cast<int>(rng.below(5)) - 2, dz = static_cast<int>(rng.below(5)) - 2;
    switch (rng.below(8)) {
      case 0:
        s = world->set_block(pos(c), stone);
        break;  // block the feet
      case 1:
        s = world->set_block(pos(CellPos{c.x, c.y - 1, c.z}), air);
        break;  // hole under them
      case 2:
        s = world->set_block(pos(CellPos{c.x, c.y + 1, c.z}), stone);
        break;  // low ceiling
      case 3:
        s = world->set_block(pos(CellPos{c.x + dx, c.y + dx, c.z + dz}), air);
        break;  // dig nearby
      case 4:
        s = world->set_block(pos(CellPos{c.x + dx, c.y + dz, c.z + dz}), stone);
        break;
      case 5:
        s = world->set_box(pos(CellPos{c.x - 1, c.y - 2, c.z - 1}),
                           pos(CellPos{c.x + 1, c.y - 1, c.z + 1}), air);
        break;
      case 6:
        s = world->set_box(pos(CellPos{c.x - 1, c.y, c.z}), pos(CellPos{c.x + 1, c.y + 1, c.z}), stone);
        break;  // a wall
      default:
        s = world->set_block(pos(CellPos{c.x, c.y - 1, c.z}), stone);
        break;  // fill under
    }
    if (s != Status::Ok) {
      ++rejected;
      continue;
    }
    world->update();
    const bool epoch_moved = world->nav_epoch() != epoch0;
    if (!epoch_moved) {
      ++epoch_steady_edits;
      for (std::size_t k = 0; k < before_answers.size(); ++k) {
        const CellPos a = before_pairs[2 * k], b = before_pairs[2 * k + 1];
        if (world->reachable(pid, pos(a), pos(b)).answer != before_answers[k] &&
            ++steady_changed <= 5)
          ADD_FAILURE() << "edit " << e << " at " << str(c) << ": the epoch stayed but reachable "
                        << str(a) << " -> " << str(b) << " changed";
      }
    }
    // After: pairs near the edit, and a far pair every tenth edit.
    standable_near(c, 12, near);
    for (int k = 0; k < 3 && near.size() >= 2; ++k)
      check(near[rng.below(static_cast<std::uint32_t>(near.size()))],
            near[rng.below(static_cast<std::uint32_t>(near.size()))]);
    if (!near.empty() && e % 10 == 0) {
      const CellPos far = pool[rng.below(static_cast<std::uint32_t>(pool.size()))];
      if (g.standable(far)) check(near[rng.below(static_cast<std::uint32_t>(near.size()))], far);
    }
    if ((e + 1) % kCompareEvery == 0 || e + 1 == kEdits) {
      ProfileId fpid;
      std::unique_ptr<World> fresh = fresh_copy(*world, &fpid);
      const LayerDiff d = compare_layers(nav, *detail::WorldAccess::state(*fresh).walker());
      ++compares;
      EXPECT_EQ(d.kind + d.floor + d.moves + d.missing + d.partition, 0u)
          << "after " << e + 1 << " edits: incremental layers differ from a fresh build: " << d.kind
          << " kind, " << d.floor << " floor, " << d.moves << " move, " << d.partition
          << " island partition diffs, e.g. " << d.first;
      EXPECT_EQ(world->stats().islands, fresh->stats().islands);
      EXPECT_EQ(world->stats().standable_cells, fresh->stats().standable_cells);
      if (::testing::Test::HasFailure()) break;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const detail::IslandStats& is = nav.islands().stats();
  std::printf(
      "%d edits (%zu rejected) in %.1f s; %zu pairs checked (%zu yes, %zu no, %zu gated), %zu "
      "mismatches, %zu unknown; "
      "epoch steady on %zu edits; islands: %llu deltas, %llu merges, %llu split checks, %llu local "
      "splits, "
      "%llu fallbacks, %llu searches over local components; "
      "%zu full comparisons\n",
      kEdits, rejected, secs, pairs, yes, no, gated, mismatches, unknown, epoch_steady_edits,
      static_cast<unsigned long long>(is.deltas), static_cast<unsigned long long>(is.merges),
      static_cast<unsigned long long>(is.split_checks),
      static_cast<unsigned long long>(is.local_splits),
      static_cast<unsigned long long>(is.fallbacks),
      static_cast<unsigned long long>(is.component_searches), compares);
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(unknown, 0u);
  EXPECT_EQ(steady_changed, 0u);
  EXPECT_GT(no, 0u)
      << "the edits never produced an unreachable pair: the test would not see a wrong No";
  EXPECT_GT(epoch_steady_edits, 0u);
  EXPECT_GT(is.merges, 0u);
  EXPECT_GT(is.split_checks, 0u);
  EXPECT_GT(is.local_splits, 0u) << "no edit split an island locally: the split path went untested";
  EXPECT_LT(is.fallbacks * 1000, is.deltas)
      << "more than 0.1 % of the edits recomputed every island";
  EXPECT_GT(is.component_searches, 0u)
      << "no split proof needed the local components: the long-detour path went untested";
}

// A long wall with a one-cell opening across real terrain, then the opening closed: the two
// sides stay joined only around the wall's ends, a detour far beyond the short search over cells.
// The island must be proven whole over local components (no recomputation of every island), and
// the answers and layers must stay exact.
TEST(IncrementalEdits, ClosingAnOpeningInALongWallIsProvenOverLocalComponents) {
  ProfileId pid;
  std::unique_ptr<World> world = load_default_region(&pid);
  ASSERT_TRUE(world);
  detail::NavWorld& nav = *detail::WorldAccess::state(*world).walker();
  const NavGrid& g = nav.grid();
  std::uint16_t stone = 0;
  ASSERT_EQ(world->block_value("stone", &stone), Status::Ok);
  std::vector<CellPos> pool;
  for (const NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; i += 7)
      if (detail::kind_standable(ch->kind_at(i))) pool.push_back(detail::cell_of(ch, i));
  }
  ASSERT_FALSE(pool.empty());
  // The standable cell of column (x, z) nearest to height y (within 3), or y - 100 when none.
  auto ground = [&](int x, int y, int z) {
    for (int d = 0; d <= 3; ++d) {
      if (g.standable(CellPos{x, y - d, z})) return y - d;
      if (g.standable(CellPos{x, y + d, z})) return y + d;
    }
    return y - 100;
  };
  constexpr int kHalf = 24;  // the wall runs 49 cells along x; the opening is its middle column
  Rng rng{0xA11};
  PairOracle oracle(g);
  int tried = 0;
  bool proven = false;
  while (!proven && tried < 60) {
    ++tried;
    const CellPos c = pool[rng.below(static_cast<std::uint32_t>(pool.size()))];
    // Every column of the wall stands on ground within 3 cells of the previous one.
    std::vector<int> ys(2 * kHalf + 1);
    bool ok = true;
    int y = c.y;
    for (int dx = -kHalf; dx <= kHalf && ok; ++dx) {
      y = ground(c.x + dx, dx == -kHalf ? c.y : y, c.z);
      ok = y > c.y - 50;
      ys[dx + kHalf] = y;
    }
    const CellPos a{c.x, ys[kHalf], c.z - 2}, b{c.x, ys[kHalf], c.z + 2};
    if (!ok || !g.standable(a) || !g.standable(b) || !g.standable(c)) continue;
    // The wall, four blocks high, on every column but the opening.
    for (int dx = -kHalf; dx <= kHalf; ++dx) {
      if (dx == 0) continue;
      ASSERT_EQ(world->set_box(pos(CellPos{c.x + dx, ys[dx + kHalf], c.z}),
                               pos(CellPos{c.x + dx, ys[dx + kHalf] + 3, c.z}), stone),
                Status::Ok);
    }
    world->update();
    if (!oracle.reaches(a, b) || !oracle.reaches(b, a)) continue;  // not joined through it
    const detail::IslandStats before = nav.islands().stats();
    ASSERT_EQ(world->set_box(pos(c), pos(CellPos{c.x, c.y + 3, c.z}), stone), Status::Ok);
    world->update();
    const detail::IslandStats after = nav.islands().stats();
    const bool joined = oracle.reaches(a, b) && oracle.reaches(b, a);
    const Reach r = world->reachable(pid, pos(a), pos(b));
    EXPECT_EQ(r.answer == ReachAnswer::Yes, oracle.reaches(a, b)) << "wall at " << str(c);
    EXPECT_EQ(world->reachable(pid, pos(b), pos(a)).answer == ReachAnswer::Yes,
              oracle.reaches(b, a))
        << "wall at " << str(c);
    EXPECT_EQ(after.fallbacks, before.fallbacks) << "wall at " << str(c);
    if (!joined) continue;  // the opening was the only way: a split, not a long detour
    EXPECT_GT(after.component_searches, before.component_searches)
        << "wall at " << str(c) << ": proven without the local components";
    ProfileId fpid;
    std::unique_ptr<World> fresh = fresh_copy(*world, &fpid);
    const LayerDiff d = compare_layers(nav, *detail::WorldAccess::state(*fresh).walker());
    EXPECT_EQ(d.kind + d.floor + d.moves + d.missing + d.partition, 0u) << d.first;
    std::printf(
        "wall of %d cells at %s (candidate %d): closing its opening took %llu component "
        "searches recomputing %llu octants' local components, %llu fallbacks\n",
        2 * kHalf + 1, str(c).c_str(), tried,
        static_cast<unsigned long long>(after.component_searches - before.component_searches),
        static_cast<unsigned long long>(after.components_built - before.components_built),
        static_cast<unsigned long long>(after.fallbacks - before.fallbacks));
    proven = true;
  }
  EXPECT_TRUE(proven) << "no wall site among " << tried << " candidates kept its sides joined";
}

}  // namespace
}  // namespace voxnav

namespace voxnav {
namespace {

// Chunk streaming: a window of the default region stays loaded around walking agents while
// columns of chunks in a ring around it load and unload every few ticks (built on the executor,
// a two-thread pool), with blocks edited in freshly loaded chunks while their builds are in
// flight. No agent ever stands in a loaded chunk whose navigation is not built, a goal in such a
// chunk never answers No, and once the builds settle the layers equal a fresh build.
TEST(ChunkStreaming, AgentsWalkWhileChunksLoadAndUnloadAround) {
  ProfileId spid;
  std::unique_ptr<World> src = load_default_region(&spid);
  ASSERT_TRUE(src);
  const detail::Space& sspace = detail::WorldAccess::state(*src).space;
  detail::NavWorld& snav = *detail::WorldAccess::state(*src).walker();
  // The window's centre: the column of the middle standable cell of the biggest island.
  std::vector<CellPos> big;
  for (const NavChunk* ch : snav.grid().ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const std::uint32_t isl = snav.islands().component_at(ch, i);
      if (isl && snav.islands().size_of(isl) > 20000) big.push_back(detail::cell_of(ch, i));
    }
  }
  ASSERT_FALSE(big.empty());
  const CellPos mid = big[big.size() / 2];
  const int cx0 = mid.x >> 4, cz0 = mid.z >> 4;
  auto ring = [&](int cx, int cz) { return std::max(std::abs(cx - cx0), std::abs(cz - cz0)); };
  std::vector<std::pair<int, int>> ring_columns;
  std::vector<ChunkPos> sections;  // every loaded section of the source, by column
  for (const ChunkPos& p : sspace.loaded_chunks()) {
    if (ring(p.x, p.z) <= 7) sections.push_back(p);
    if (p.y == 0 && ring(p.x, p.z) >= 6 && ring(p.x, p.z) <= 7) ring_columns.push_back({p.x, p.z});
  }
  std::sort(ring_columns.begin(), ring_columns.end());
  ring_columns.erase(std::unique(ring_columns.begin(), ring_columns.end()), ring_columns.end());
  ASSERT_GT(ring_columns.size(), 20u);

  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  auto w = std::make_unique<World>(def);
  detail::WorldAccess::state(*w).registry = detail::WorldAccess::state(*src).registry;
  std::vector<std::uint16_t> values(detail::kChunkCells);
  auto load_section = [&](const ChunkPos& p) {
    const detail::Chunk* ch = sspace.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    return w->load_chunk(ChunkPos{p.x, p.y, p.z}, values);
  };
  for (const ChunkPos& p : sections)
    if (ring(p.x, p.z) <= 5) {
      ASSERT_EQ(load_section(p), Status::Ok);
    }
  ProfileId pid;
  ASSERT_EQ(w->add_profile(Profile{}, &pid), Status::Ok);
  w->update();
  w->set_chunk_streaming(true);
  detail::NavWorld& nav = *detail::WorldAccess::state(*w).walker();
  const NavGrid& g = nav.grid();
  std::uint16_t stone = 0;
  ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);

  // Agents in the inner window, goals up to the ring.
  Rng rng{0x57AEA11};
  std::vector<CellPos> inner, outer;
  for (const CellPos& c : big) (ring(c.x >> 4, c.z >> 4) <= 3 ? inner : outer).push_back(c);
  ASSERT_GT(inner.size(), 100u);
  std::vector<AgentId> agents;
  for (int i = 0; i < 16; ++i) {
    const CellPos c = inner[rng.below(static_cast<std::uint32_t>(inner.size()))];
    double feet = 0;
    ASSERT_EQ(w->standing_height(pid, pos(c), &feet), Status::Ok);
    AgentId id;
    ASSERT_EQ(w->add_agent(AgentDef{pid, Vec3{c.x + 0.5, feet, c.z + 0.5}}, &id), Status::Ok);
    agents.push_back(id);
  }
  auto new_goal = [&](AgentId id) {  // in the inner window, or a built chunk of the ring
    CellPos gcell = inner[rng.below(static_cast<std::uint32_t>(inner.size()))];
    for (int k = 0; k < 8 && rng.below(10) < 4; ++k) {
      const CellPos o = outer[rng.below(static_cast<std::uint32_t>(outer.size()))];
      if (g.chunk(detail::chunk_of(o))) {
        gcell = o;
        break;
      }
    }
    (void)w->set_agent_goal(id, pos(gcell));
  };
  for (AgentId id : agents) new_goal(id);

  std::vector<int> unloaded_at(agents.size(), -1);
  std::size_t loads = 0, unloads = 0, inflight_edits = 0, unbuilt_goal_checks = 0, wrong_no = 0,
              bad_steps = 0;
  std::vector<std::pair<int, int>> loaded_ring;
  std::pair<int, int> just_loaded{0, 0};
  bool edit_next = false;
  const int kTicks = 1200;
  for (int t = 0; t < kTicks; ++t) {
    if (edit_next) {
      // An edit while the column's builds are in flight (dispatched by the last update,
      // installed by the next).
      edit_next = false;
      const CellPos e{just_loaded.first * 16 + static_cast<int>(rng.below(16)),
                   mid.y + static_cast<int>(rng.below(5)) - 2,
                   just_loaded.second * 16 + static_cast<int>(rng.below(16))};
      if (nav.pending_builds() > 0 && w->set_block(pos(e), stone) == Status::Ok) ++inflight_edits;
    }
    if (t % 4 == 0) {
      const auto col = ring_columns[rng.below(static_cast<std::uint32_t>(ring_columns.size()))];
      auto it = std::find(loaded_ring.begin(), loaded_ring.end(), col);
      if (it == loaded_ring.end()) {
        for (const ChunkPos& p : sections) {
          if (p.x == col.first && p.z == col.second) {
            ASSERT_EQ(load_section(p), Status::Ok);
          }
        }
        loaded_ring.push_back(col);
        ++loads;
        just_loaded = col;
        edit_next = true;
      } else {
        for (const ChunkPos& p : sections) {
          if (p.x == col.first && p.z == col.second) {
            ASSERT_EQ(w->unload_chunk(ChunkPos{p.x, p.y, p.z}), Status::Ok);
          }
        }
        loaded_ring.erase(it);
        ++unloads;
        for (std::size_t i = 0; i < agents.size(); ++i) {  // agents standing there lose the ground
          AgentState s;
          if (w->agent_state(agents[i], &s) == Status::Ok &&
              (static_cast<int>(std::floor(s.feet.x)) >> 4) == col.first &&
              (static_cast<int>(std::floor(s.feet.z)) >> 4) == col.second)
            unloaded_at[i] = t;
        }
      }
    }
    ASSERT_EQ(w->tick(0.05), Status::Ok);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      AgentState s;
      ASSERT_EQ(w->agent_state(agents[i], &s), Status::Ok);
      const CellPos c{static_cast<int>(std::floor(s.feet.x)),
                   static_cast<int>(std::floor(s.feet.y + 1e-3)),
                   static_cast<int>(std::floor(s.feet.z))};
      const bool loaded = detail::WorldAccess::state(*w).space.chunk(detail::chunk_of(c)) != nullptr;
      const bool built = g.chunk(detail::chunk_of(c)) != nullptr;
      if (loaded && !built && unloaded_at[i] < 0 && ++bad_steps <= 5)
        ADD_FAILURE() << "tick " << t << ": agent " << i << " stands in " << str(c)
                      << ", loaded but not built";
      if (!loaded && unloaded_at[i] < 0 && ++bad_steps <= 5)
        ADD_FAILURE() << "tick " << t << ": agent " << i << " walked into unloaded space at "
                      << str(c);
      if (s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed ||
          s.mode == AgentMode::Blocked || s.mode == AgentMode::Idle) {
        unloaded_at[i] = -1;
        new_goal(agents[i]);
      }
    }
    // A goal in a loaded chunk whose build is pending is never No.
    if (nav.pending_builds() > 0 && !loaded_ring.empty()) {
      const auto col = loaded_ring.back();
      const CellPos goal{col.first * 16 + 8, mid.y, col.second * 16 + 8};
      if (!g.chunk(detail::chunk_of(goal)) && detail::WorldAccess::state(*w).space.chunk(detail::chunk_of(goal))) {
        AgentState s;
        ASSERT_EQ(w->agent_state(agents[0], &s), Status::Ok);
        const Reach r = w->reachable(pid,
                                     CellPos{static_cast<int>(std::floor(s.feet.x)),
                                             static_cast<int>(std::floor(s.feet.y + 1e-3)),
                                             static_cast<int>(std::floor(s.feet.z))},
                                     pos(goal));
        ++unbuilt_goal_checks;
        wrong_no += r.answer == ReachAnswer::No;
      }
    }
  }
  // Settle, then compare with a fresh build of the same blocks.
  for (int k = 0; k < 4 && nav.pending_builds() > 0; ++k) w->update();
  EXPECT_EQ(nav.pending_builds(), 0u);
  ProfileId fpid;
  std::unique_ptr<World> fresh = fresh_copy(*w, &fpid);
  const LayerDiff d = compare_layers(nav, *detail::WorldAccess::state(*fresh).walker());
  EXPECT_EQ(d.kind + d.floor + d.moves + d.missing + d.partition, 0u)
      << "streamed layers differ from a fresh build: " << d.kind << " kind, " << d.floor
      << " floor, " << d.moves << " move, " << d.missing << " missing, " << d.partition
      << " island partition diffs, e.g. " << d.first;
  std::uint64_t arrivals = 0;
  for (AgentId id : agents) {
    AgentState s;
    ASSERT_EQ(w->agent_state(id, &s), Status::Ok);
    arrivals += s.arrivals;
  }
  std::printf(
      "streaming: %zu column loads, %zu unloads, %zu in-flight edits, %llu builds installed (%llu "
      "classified again, %llu only the band facing a changed neighbour), %zu checks of goals in "
      "unbuilt chunks, %llu arrivals, islands: %llu fallbacks\n",
      loads, unloads, inflight_edits, static_cast<unsigned long long>(nav.stats().builds_installed),
      static_cast<unsigned long long>(nav.stats().builds_reclassified),
      static_cast<unsigned long long>(nav.stats().builds_band_reclassified), unbuilt_goal_checks,
      static_cast<unsigned long long>(arrivals),
      static_cast<unsigned long long>(nav.islands().stats().fallbacks));
  EXPECT_EQ(bad_steps, 0u);
  EXPECT_EQ(wrong_no, 0u);
  EXPECT_GT(unbuilt_goal_checks, 0u);
  EXPECT_GT(nav.stats().builds_installed, 100u);
  EXPECT_GT(nav.stats().builds_reclassified, 0u) << "no build was edited in flight";
  EXPECT_GT(arrivals, 16u);
}

}  // namespace
}  // namespace voxnav
