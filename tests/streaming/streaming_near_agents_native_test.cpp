// Chunk streaming with a build radius (World::set_chunk_build_radius) on the default real region
// (data/worlds/r.0.-1.mca, Minecraft 1.16):
//   - a chunk loaded after the first update is built only within the radius of an agent (the
//     others are deferred: loaded, not built, Unknown(NotLoaded)); a teleported agent pulls the
//     builds around its new place; a radius of 0 builds everything, and the layers then equal a
//     fresh build;
//   - soundness of No with unbuilt chunks around: over sampled pairs of standable cells of the
//     built chunks, reachable() never answers No where a World with every chunk built reaches the
//     goal (nor Yes where it does not), and still answers No for some pairs (the frontier rule is
//     not "never No");
//   - agents walk across the region with a radius while columns load and unload around them and
//     blocks are edited (some in deferred chunks, some in chunks whose build is in flight): no
//     agent stands in, and no corridor enters, a chunk that is unbuilt or unloaded, and agents
//     arrive.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/islands/islands.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using DPos = ChunkPos;
using detail::NavChunk;
using detail::NavGrid;
using Rng = tools::SplitMix64;
using test::str;

const std::string& kRegion = test::repo_region();

CellPos pos(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }

int cheb(const DPos& a, const DPos& b) {
  return std::max({std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)});
}

CellPos feet_cell(const AgentState& s) {
  return CellPos{static_cast<int>(std::floor(s.feet.x)), static_cast<int>(std::floor(s.feet.y + 1e-3)),
              static_cast<int>(std::floor(s.feet.z))};
}

// The default region, loaded and built once for every test of this file: the block source, and
// the standable cells of its biggest island (where agents stand and walk).
struct Source {
  std::unique_ptr<World> w;
  ProfileId pid;
  std::vector<CellPos> big;  // cells of the biggest island, in chunk order
  CellPos mid;               // the middle one
  int cx0 = 0, cz0 = 0;   // its column
  int ring(int cx, int cz) const { return std::max(std::abs(cx - cx0), std::abs(cz - cz0)); }
};

Source& source() {
  static Source* s = [] {
    auto* src = new Source;
    src->w = test::load_region(kRegion, &src->pid);
    if (!src->w) return src;
    detail::NavWorld& nav = *detail::WorldAccess::state(*src->w).walker();
    std::uint32_t best = 0, best_size = 0;
    for (const NavChunk* ch : nav.grid().ordered_chunks()) {
      if (ch->uniform || !ch->scc) continue;
      for (int i = 0; i < detail::kChunkCells; ++i) {
        const std::uint32_t isl = nav.islands().component_at(ch, i);
        if (isl && nav.islands().size_of(isl) > best_size)
          best = isl, best_size = nav.islands().size_of(isl);
      }
    }
    for (const NavChunk* ch : nav.grid().ordered_chunks()) {
      if (ch->uniform || !ch->scc) continue;
      for (int i = 0; i < detail::kChunkCells; ++i)
        if (nav.islands().component_at(ch, i) == best) src->big.push_back(detail::cell_of(ch, i));
    }
    if (!src->big.empty()) {
      src->mid = src->big[src->big.size() / 2];
      src->cx0 = src->mid.x >> 4;
      src->cz0 = src->mid.z >> 4;
    }
    return src;
  }();
  return *s;
}

// A World with the source's registry and its sections of the columns within `core` of the
// source's middle column, built by a first update (streaming on and the radius set after it).
struct Streamed {
  std::unique_ptr<World> w;
  ProfileId pid;
  std::vector<std::uint16_t> values = std::vector<std::uint16_t>(detail::kChunkCells);
  Status load(const DPos& p) {
    const detail::Chunk* ch = detail::WorldAccess::state(*source().w).space.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    return w->load_chunk(ChunkPos{p.x, p.y, p.z}, values);
  }
  // Loads every source section of the columns at ring distance [lo, hi]; returns them.
  std::vector<DPos> load_rings(int lo, int hi) {
    std::vector<DPos> out;
    const Source& s = source();
    for (const DPos& p : detail::WorldAccess::state(*s.w).space.loaded_chunks()) {
      const int r = s.ring(p.x, p.z);
      if (r < lo || r > hi) continue;
      EXPECT_EQ(load(p), Status::Ok);
      out.push_back(p);
    }
    return out;
  }
  detail::NavWorld& nav() { return *detail::WorldAccess::state(*w).walker(); }
  const NavGrid& grid() { return nav().grid(); }
};

Streamed make_streamed(int core, int radius, detail::Executor* exec = nullptr) {
  Streamed st;
  WorldDef def;
  def.executor = exec;
  st.w = std::make_unique<World>(def);
  detail::WorldAccess::state(*st.w).registry = detail::WorldAccess::state(*source().w).registry;
  st.load_rings(0, core);
  EXPECT_EQ(st.w->add_profile(Profile{}, &st.pid), Status::Ok);
  st.w->update();
  st.w->set_chunk_streaming(true);
  EXPECT_EQ(st.w->set_chunk_build_radius(radius), Status::Ok);
  return st;
}

// The streamed World's layers and islands equal those of a World built from scratch on its blocks.
void expect_equal_to_fresh_build(Streamed& st) {
  ProfileId fpid;
  std::unique_ptr<World> fresh = test::fresh_copy(*st.w, &fpid);
  const test::LayerDiff d = test::compare_layers(st.nav(), *detail::WorldAccess::state(*fresh).walker());
  EXPECT_EQ(d.total(), 0u) << d.kind << " kind, " << d.floor << " floor, " << d.moves << " move, "
                           << d.missing << " missing, " << d.extra << " extra, " << d.partition
                           << " partition diffs, e.g. " << d.first;
}

AgentId add_agent_at(Streamed& st, const CellPos& c) {
  double feet = 0;
  EXPECT_EQ(st.w->standing_height(st.pid, pos(c), &feet), Status::Ok) << str(c);
  AgentId id{};
  EXPECT_EQ(st.w->add_agent(AgentDef{st.pid, Vec3{c.x + 0.5, feet, c.z + 0.5}}, &id), Status::Ok);
  return id;
}

TEST(StreamingNearAgents, RadiusIsValidated) {
  World w;
  EXPECT_EQ(w.chunk_build_radius(), 0);
  EXPECT_EQ(w.set_chunk_build_radius(-1), Status::InvalidArgument);
  EXPECT_EQ(w.set_chunk_build_radius(World::kMaxChunkBuildRadius + 1), Status::InvalidArgument);
  EXPECT_EQ(w.chunk_build_radius(), 0);
  EXPECT_EQ(w.set_chunk_build_radius(World::kMaxChunkBuildRadius), Status::Ok);
  EXPECT_EQ(w.chunk_build_radius(), World::kMaxChunkBuildRadius);
  EXPECT_EQ(w.set_chunk_build_radius(0), Status::Ok);
  EXPECT_EQ(w.deferred_chunk_builds(), 0u);
}

// Chunks beyond the radius of every agent stay deferred; those within it are built after the
// streaming delay; a teleported agent pulls the builds around its new place (and what was built
// stays built); radius 0 builds the rest, and the layers then equal a fresh build.
TEST(StreamingNearAgents, BuildsOnlyNearAgents) {
  VOXNAV_SKIP_SINGLE_THREADED_UNDER_TSAN();
  const Source& src = source();
  ASSERT_TRUE(src.w);
  ASSERT_FALSE(src.big.empty());
  constexpr int kRadius = 3;
  Streamed st = make_streamed(1, kRadius);
  detail::NavWorld& nav = st.nav();
  const NavGrid& g = st.grid();
  const AgentId agent = add_agent_at(st, src.mid);
  const std::vector<DPos> ring = st.load_rings(2, 6);
  ASSERT_GT(ring.size(), 100u);
  // The load is seen by the first tick and dispatched at its end; the second installs it.
  for (int t = 0; t < 3; ++t) ASSERT_EQ(st.w->tick(0.05), Status::Ok);
  AgentState s;
  ASSERT_EQ(st.w->agent_state(agent, &s), Status::Ok);
  const DPos home = detail::chunk_of(feet_cell(s));
  std::size_t near = 0, far = 0, wrong = 0;
  for (const DPos& p : ring) {
    const bool built = g.chunk(p) != nullptr;
    const bool should = cheb(p, home) <= kRadius;
    near += should;
    far += !should;
    if (built != should || nav.is_deferred(p) == should) {
      if (++wrong <= 5)
        ADD_FAILURE() << str(p) << " at " << cheb(p, home) << " chunks from the agent's "
                      << str(home) << ": built " << built << ", deferred " << nav.is_deferred(p);
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(near, 20u);
  EXPECT_GT(far, 100u);
  EXPECT_EQ(st.w->deferred_chunk_builds(), far);
  EXPECT_EQ(st.w->pending_chunk_builds(), 0u);
  // A standable cell of a deferred chunk: not standable yet, Unknown(NotLoaded) from the agent.
  const CellPos* target = nullptr;
  for (const CellPos& c : src.big)
    if (src.ring(c.x >> 4, c.z >> 4) == 6 && nav.is_deferred(detail::chunk_of(c))) {
      target = &c;
      break;
    }
  ASSERT_NE(target, nullptr);
  EXPECT_FALSE(st.w->is_standable(st.pid, pos(*target)));
  const Reach r = st.w->reachable(st.pid, pos(feet_cell(s)), pos(*target));
  EXPECT_EQ(r.answer, ReachAnswer::Unknown);
  EXPECT_EQ(r.reason, ReachReason::NotLoaded);
  std::printf("near agents: %zu of %zu chunks loaded after the first update built, %zu deferred\n",
              near, ring.size(), far);

  // Teleport the agent into the deferred chunk: the chunks around it are built two ticks later.
  double feet = 0;
  ASSERT_EQ(src.w->standing_height(src.pid, pos(*target), &feet), Status::Ok);
  ASSERT_EQ(st.w->teleport_agent(agent, Vec3{target->x + 0.5, feet, target->z + 0.5}), Status::Ok);
  for (int t = 0; t < 3; ++t) ASSERT_EQ(st.w->tick(0.05), Status::Ok);
  const DPos there = detail::chunk_of(*target);
  std::size_t built_there = 0, still_home = 0;
  wrong = 0;
  for (const DPos& p : ring) {
    const bool built = g.chunk(p) != nullptr;
    if (cheb(p, there) <= kRadius) {
      built_there += built;
      if (!built && ++wrong <= 5)
        ADD_FAILURE() << str(p) << " within " << kRadius << " of the teleported agent's "
                      << str(there) << " is not built";
    }
    if (cheb(p, home) <= kRadius) {
      still_home += built;
      if (!built && ++wrong <= 5) ADD_FAILURE() << str(p) << " near the old place lost its build";
    }
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(still_home, near);
  EXPECT_GT(built_there, 20u);
  EXPECT_TRUE(st.w->is_standable(st.pid, pos(*target)));
  EXPECT_LT(st.w->deferred_chunk_builds(), far);
  EXPECT_GT(st.w->deferred_chunk_builds(), 0u);
  std::printf("teleported: %zu chunks built around the new place, %zu still deferred\n",
              built_there, st.w->deferred_chunk_builds());

  // Unloading deferred chunks forgets them.
  std::size_t unloaded = 0;
  for (const DPos& p : ring)
    if (nav.is_deferred(p) && src.ring(p.x, p.z) == 6 && unloaded < 10) {
      ASSERT_EQ(st.w->unload_chunk(ChunkPos{p.x, p.y, p.z}), Status::Ok);
      ++unloaded;
    }
  const std::size_t before = st.w->deferred_chunk_builds();
  ASSERT_EQ(st.w->tick(0.05), Status::Ok);
  EXPECT_EQ(st.w->deferred_chunk_builds(), before - unloaded);

  // Radius 0: every loaded chunk is built, and the layers equal a fresh build.
  ASSERT_EQ(st.w->set_chunk_build_radius(0), Status::Ok);
  for (int t = 0; t < 3; ++t) ASSERT_EQ(st.w->tick(0.05), Status::Ok);
  EXPECT_EQ(st.w->deferred_chunk_builds(), 0u);
  EXPECT_EQ(st.w->pending_chunk_builds(), 0u);
  expect_equal_to_fresh_build(st);
}

// No is never wrong with unbuilt chunks around, and is still given.
TEST(StreamingNearAgents, NoIsSoundAndNotVacuous) {
  VOXNAV_SKIP_SINGLE_THREADED_UNDER_TSAN();
  const Source& src = source();
  ASSERT_TRUE(src.w);
  constexpr int kRadius = 2;
  Streamed st = make_streamed(1, kRadius);
  detail::NavWorld& nav = st.nav();
  (void)add_agent_at(st, src.mid);
  st.load_rings(2, 5);
  Rng rng{0x50D0C0FFEEull};
  std::size_t total_no = 0, total_unknown = 0;
  // Phase 0: right after the first tick (builds in flight and deferred chunks); phase 1: after
  // the builds near the agent are installed.
  for (int phase = 0; phase < 2; ++phase) {
    ASSERT_EQ(st.w->tick(0.05), Status::Ok);
    if (phase == 1) {
      for (int t = 0; t < 2; ++t) ASSERT_EQ(st.w->tick(0.05), Status::Ok);
    }
    ASSERT_GT(st.w->deferred_chunk_builds(), 0u);
    if (phase == 0) {
      EXPECT_GT(st.w->pending_chunk_builds(), 0u);
    }
    // The full graph: every loaded chunk built.
    ProfileId fpid;
    std::unique_ptr<World> full = test::fresh_copy(*st.w, &fpid);
    detail::NavWorld& fnav = *detail::WorldAccess::state(*full).walker();
    test::PairOracle oracle(fnav.grid());
    const std::vector<CellPos> cells = test::standable_cells(nav.grid());
    ASSERT_GT(cells.size(), 1000u);
    // Pairs: uniform over the built standable cells, and half of them with the start in the
    // middle columns (far from the frontier).
    std::vector<CellPos> inner;
    for (const CellPos& c : cells)
      if (src.ring(c.x >> 4, c.z >> 4) == 0) inner.push_back(c);
    ASSERT_GT(inner.size(), 100u);
    const int kPairs = 20000;
    std::size_t yes = 0, no = 0, unknown = 0, other = 0, wrong_no = 0, wrong_yes = 0,
                oracle_checked = 0, oracle_wrong = 0;
    for (int k = 0; k < kPairs; ++k) {
      const std::vector<CellPos>& from = (k & 1) ? inner : cells;
      const CellPos a = from[rng.below(static_cast<std::uint32_t>(from.size()))];
      const CellPos b = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
      const Reach r = nav.reachable(a, b);
      const Reach f = fnav.reachable(a, b);
      ASSERT_NE(f.answer, ReachAnswer::Unknown) << str(a) << " -> " << str(b);
      if (r.answer == ReachAnswer::No) {
        ++no;
        if (f.answer == ReachAnswer::Yes && ++wrong_no <= 5)
          ADD_FAILURE() << "phase " << phase << ": No from " << str(a) << " to " << str(b)
                        << ", but the full graph reaches it";
        if (oracle_checked < 200) {  // the full graph's islands against a BFS
          ++oracle_checked;
          oracle_wrong += oracle.reaches(a, b);
        }
      } else if (r.answer == ReachAnswer::Yes) {
        ++yes;
        if (f.answer != ReachAnswer::Yes && ++wrong_yes <= 5)
          ADD_FAILURE() << "phase " << phase << ": Yes from " << str(a) << " to " << str(b)
                        << ", but the full graph does not reach it";
      } else if (r.reason == ReachReason::NotLoaded) {
        ++unknown;
      } else {
        ++other;
      }
    }
    std::printf(
        "phase %d: %zu deferred, %zu pending builds; %d pairs: %zu yes, %zu no, %zu unknown "
        "(not loaded), %zu other; %zu wrong no, %zu wrong yes; %zu No checked by BFS\n",
        phase, st.w->deferred_chunk_builds(), st.w->pending_chunk_builds(), kPairs, yes, no,
        unknown, other, wrong_no, wrong_yes, oracle_checked);
    EXPECT_EQ(wrong_no, 0u);
    EXPECT_EQ(wrong_yes, 0u);
    EXPECT_EQ(oracle_wrong, 0u);
    EXPECT_EQ(other, 0u);
    EXPECT_GT(no, 0u) << "no No at all: the frontier rule is vacuous here";
    EXPECT_GT(unknown, 0u) << "the agent's island should border the unbuilt chunks";
    total_no += no;
    total_unknown += unknown;
  }
  EXPECT_GT(nav.stats().nos_with_unbuilt, 0u);
  EXPECT_GT(nav.stats().frontier_unknowns, 0u);
  (void)total_no;
  (void)total_unknown;
}

// An agent whose goal lies in deferred chunks, 5 or more columns away: its request is
// Unknown(NotLoaded), so it walks over the built chunks as close to the goal as they go, the
// chunks ahead are built as it comes near, it plans again at the end of each partial corridor,
// and it arrives, never standing in a chunk without navigation.
TEST(StreamingNearAgents, AgentWalksTowardAGoalPastUnbuiltChunks) {
  VOXNAV_SKIP_SINGLE_THREADED_UNDER_TSAN();
  const Source& src = source();
  ASSERT_TRUE(src.w);
  constexpr int kRadius = 2;
  Streamed st = make_streamed(1, kRadius);
  const NavGrid& g = st.grid();
  const AgentId agent = add_agent_at(st, src.mid);
  st.load_rings(2, 7);
  for (int t = 0; t < 3; ++t) ASSERT_EQ(st.w->tick(0.05), Status::Ok);
  // The goal: a cell of the same island in a deferred chunk of ring 5, reachable in the full
  // build, at least 60 cells away.
  const CellPos* goal = nullptr;
  for (const CellPos& c : src.big)
    if (src.ring(c.x >> 4, c.z >> 4) == 5 && st.nav().is_deferred(detail::chunk_of(c)) &&
        std::abs(c.x - src.mid.x) + std::abs(c.z - src.mid.z) >= 60) {
      goal = &c;
      break;
    }
  ASSERT_NE(goal, nullptr);
  ASSERT_EQ(src.w->reachable(src.pid, pos(src.mid), pos(*goal)).answer, ReachAnswer::Yes);
  EXPECT_EQ(st.w->reachable(st.pid, pos(src.mid), pos(*goal)).reason, ReachReason::NotLoaded);
  ASSERT_EQ(st.w->set_agent_goal(agent, pos(*goal)), Status::Ok);
  AgentState s;
  int unbuilt_ticks = 0, ticks = 0;
  for (; ticks < 4000; ++ticks) {
    ASSERT_EQ(st.w->tick(0.05), Status::Ok);
    ASSERT_EQ(st.w->agent_state(agent, &s), Status::Ok);
    if (!g.chunk(detail::chunk_of(feet_cell(s)))) ++unbuilt_ticks;
    if (s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed) break;
  }
  const CellPos at = feet_cell(s);
  std::printf(
      "goal %s, %d cells away: %s after %d ticks at %s, %u requests, %u replans, "
      "%zu chunks still deferred\n",
      str(*goal).c_str(), std::abs(goal->x - src.mid.x) + std::abs(goal->z - src.mid.z),
      s.mode == AgentMode::Arrived ? "arrived" : "not arrived", ticks, str(at).c_str(), s.requests,
      s.replans, st.w->deferred_chunk_builds());
  EXPECT_EQ(s.mode, AgentMode::Arrived);
  EXPECT_EQ(s.arrivals, 1u);
  EXPECT_LE(std::abs(at.x - goal->x) + std::abs(at.z - goal->z), 2);
  EXPECT_GE(s.requests, 2u);  // at least one partial corridor, then the rest
  EXPECT_EQ(unbuilt_ticks, 0);
  EXPECT_GT(st.w->deferred_chunk_builds(), 0u);  // and not everything was built on the way
}

// Agents walk across the region with a build radius while columns load and unload around them,
// with edits in deferred chunks, in chunks whose build is in flight, and on corridors.
TEST(StreamingNearAgents, AgentsWalkAcrossWhileChunksStream) {
  const Source& src = source();
  ASSERT_TRUE(src.w);
  constexpr int kRadius = 2;
  native::ThreadPool pool(2);
  Streamed st = make_streamed(2, kRadius, &pool);
  detail::NavWorld& nav = st.nav();
  const NavGrid& g = nav.grid();
  const detail::Space& space = detail::WorldAccess::state(*st.w).space;
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(st.w->block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(st.w->block_value("air", &air), Status::Ok);
  Rng rng{0xACE5ull};
  std::vector<CellPos> inner;
  for (const CellPos& c : src.big)
    if (src.ring(c.x >> 4, c.z >> 4) <= 1) inner.push_back(c);
  ASSERT_GT(inner.size(), 100u);
  std::vector<AgentId> agents;
  for (int i = 0; i < 8; ++i)
    agents.push_back(add_agent_at(st, inner[rng.below(static_cast<std::uint32_t>(inner.size()))]));
  // Columns of rings 3 to 7: streamed in now (most deferred), some loaded and unloaded later.
  st.load_rings(3, 7);
  std::vector<std::pair<int, int>> outer_cols;
  for (const DPos& p : detail::WorldAccess::state(*src.w).space.loaded_chunks())
    if (src.ring(p.x, p.z) >= 5 && src.ring(p.x, p.z) <= 7 && p.y == (src.mid.y >> 4))
      outer_cols.push_back({p.x, p.z});
  std::sort(outer_cols.begin(), outer_cols.end());
  ASSERT_GT(outer_cols.size(), 20u);
  std::vector<std::pair<int, int>> unloaded_cols;

  auto agent_chunk = [&](AgentId id) {
    AgentState s;
    EXPECT_EQ(st.w->agent_state(id, &s), Status::Ok);
    return detail::chunk_of(feet_cell(s));
  };
  // A goal: a cell of the big island in a built chunk, preferably 3+ chunks away (across).
  auto new_goal = [&](AgentId id) {
    const DPos here = agent_chunk(id);
    CellPos goal = inner[rng.below(static_cast<std::uint32_t>(inner.size()))];
    for (int k = 0; k < 32; ++k) {
      const CellPos c = src.big[rng.below(static_cast<std::uint32_t>(src.big.size()))];
      const DPos p = detail::chunk_of(c);
      if (src.ring(p.x, p.z) <= 7 && g.chunk(p) && g.standable(c) && cheb(p, here) >= 2) {
        goal = c;
        break;
      }
    }
    (void)st.w->set_agent_goal(id, pos(goal));
  };
  for (AgentId id : agents) new_goal(id);

  const int kTicks = 800;  // (about 1 s in release)
  std::size_t reloads = 0, max_ring = 0, loads = 0, unloads = 0, deferred_edits = 0,
              inflight_edits = 0, corridor_edits = 0, bad_feet = 0, bad_corridors = 0,
              max_deferred = 0;
  DPos just_loaded{0, 0, 0};
  auto clear_of_agents = [&](const CellPos& e) {  // never on (or right next to) an agent's body
    for (AgentId id : agents) {
      AgentState sa;
      EXPECT_EQ(st.w->agent_state(id, &sa), Status::Ok);
      const CellPos fa = feet_cell(sa);
      if (std::max({std::abs(fa.x - e.x), std::abs(fa.y - e.y), std::abs(fa.z - e.z)}) <= 2)
        return false;
    }
    return true;
  };
  bool edit_next = false;
  std::array<std::size_t, 8> ended{}, failures{};
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < kTicks; ++t) {
    // An edit in the column loaded by the last tick: in a deferred chunk, or one whose build is
    // in flight.
    if (edit_next) {
      edit_next = false;
      const CellPos e{just_loaded.x * 16 + static_cast<int>(rng.below(16)),
                   just_loaded.y * 16 + static_cast<int>(rng.below(16)),
                   just_loaded.z * 16 + static_cast<int>(rng.below(16))};
      const DPos ep = detail::chunk_of(e);
      const bool deferred = nav.is_deferred(ep), unbuilt = nav.is_unbuilt(ep);
      if (unbuilt && clear_of_agents(e) &&
          st.w->set_block(pos(e), rng.below(2) ? stone : air) == Status::Ok) {
        deferred_edits += deferred;
        inflight_edits += !deferred;
      }
    }
    // Every third tick, an edit on an agent's corridor a few cells ahead.
    if (t % 3 == 1) {
      const detail::AgentRecord& a = detail::WorldAccess::state(*st.w).agents.at(
          agents[rng.below(static_cast<std::uint32_t>(agents.size()))].index);
      if (a.alive && a.mode == AgentMode::Moving &&
          a.cell_index + 4 < a.corridor.cells.size()) {
        const CellPos c = a.corridor.cells[a.cell_index + 3];
        const bool pillar = rng.below(2) != 0;
        const CellPos e = pillar ? c : CellPos{c.x, c.y - 1, c.z};
        if (clear_of_agents(e) && st.w->set_block(pos(e), pillar ? stone : air) == Status::Ok)
          ++corridor_edits;
      }
    }
    // Every 7 ticks, a section 1 or 2 chunks from an agent is reloaded (its build is in flight
    // at the next tick's edit), never one an agent stands in or on.
    if (t % 7 == 3) {
      DPos p = agent_chunk(agents[rng.below(static_cast<std::uint32_t>(agents.size()))]);
      p.x += static_cast<int>(rng.below(5)) - 2;
      p.z += static_cast<int>(rng.below(5)) - 2;
      p.y += static_cast<int>(rng.below(3)) - 1;
      bool free = space.chunk(p) != nullptr && g.chunk(p) != nullptr;
      for (AgentId id : agents) {
        const DPos ac = agent_chunk(id);
        free &= !(ac == p) && !(ac.x == p.x && ac.z == p.z && ac.y == p.y + 1);
      }
      if (free) {
        ASSERT_EQ(st.load(p), Status::Ok);
        ++reloads;
        just_loaded = p;
        edit_next = true;
      }
    }
    // Every 5 ticks, a column of ring 5 to 7 far from every agent (4+ chunks) loads or unloads.
    if (t % 5 == 0) {
      const auto col = outer_cols[rng.below(static_cast<std::uint32_t>(outer_cols.size()))];
      bool far = true;
      for (AgentId id : agents) {
        const DPos ac = agent_chunk(id);
        far &= std::max(std::abs(ac.x - col.first), std::abs(ac.z - col.second)) >= kRadius + 2;
      }
      if (far) {
        auto it = std::find(unloaded_cols.begin(), unloaded_cols.end(), col);
        for (const DPos& p : detail::WorldAccess::state(*src.w).space.loaded_chunks()) {
          if (p.x != col.first || p.z != col.second) continue;
          if (it == unloaded_cols.end()) {
            ASSERT_EQ(st.w->unload_chunk(ChunkPos{p.x, p.y, p.z}), Status::Ok);
          } else {
            ASSERT_EQ(st.load(p), Status::Ok);
          }
        }
        if (it == unloaded_cols.end()) {
          unloaded_cols.push_back(col);
          ++unloads;
        } else {
          unloaded_cols.erase(it);
          ++loads;
          just_loaded = DPos{col.first, src.mid.y >> 4, col.second};
          edit_next = true;
        }
      }
    }
    ASSERT_EQ(st.w->tick(0.05), Status::Ok);
    max_deferred = std::max(max_deferred, st.w->deferred_chunk_builds());
    for (AgentId id : agents) {
      const DPos ac = agent_chunk(id);
      max_ring = std::max(max_ring, static_cast<std::size_t>(src.ring(ac.x, ac.z)));
    }
    for (std::size_t i = 0; i < agents.size(); ++i) {
      AgentState s;
      ASSERT_EQ(st.w->agent_state(agents[i], &s), Status::Ok);
      const CellPos f = feet_cell(s);
      const DPos fc = detail::chunk_of(f);
      const bool loaded = space.chunk(fc) != nullptr, built = g.chunk(fc) != nullptr;
      if ((!loaded || !built) && ++bad_feet <= 5)
        ADD_FAILURE() << "tick " << t << ": agent " << i << " feet in " << str(f) << " ("
                      << (loaded ? "loaded, not built" : "unloaded") << ")";
      const detail::AgentRecord& a = detail::WorldAccess::state(*st.w).agents.at(agents[i].index);
      if (a.mode == AgentMode::Moving) {
        for (std::size_t k = a.cell_index; k < a.corridor.cells.size(); ++k) {
          const DPos cp = detail::chunk_of(a.corridor.cells[k]);
          if (!g.chunk(cp) || !space.chunk(cp)) {
            if (++bad_corridors <= 5)
              ADD_FAILURE() << "tick " << t << ": agent " << i << "'s corridor enters "
                            << str(a.corridor.cells[k]) << " in "
                            << (space.chunk(cp) ? "an unbuilt" : "an unloaded") << " chunk";
            break;
          }
        }
      }
      if (s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed ||
          s.mode == AgentMode::Blocked || s.mode == AgentMode::Idle) {
        ++ended[static_cast<std::size_t>(s.mode)];
        if (s.mode == AgentMode::Failed) ++failures[static_cast<std::size_t>(a.fail)];
        new_goal(agents[i]);
      }
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t arrivals = 0;
  for (AgentId id : agents) {
    AgentState s;
    ASSERT_EQ(st.w->agent_state(id, &s), Status::Ok);
    arrivals += s.arrivals;
  }
  std::printf(
      "walk across (radius %d, %d ticks, %.1f s): %llu arrivals, agents up to ring %zu; %zu "
      "section reloads near agents, %zu column loads, %zu unloads, "
      "%zu edits in deferred chunks, %zu in builds in flight, %zu on corridors; %llu builds "
      "installed (%llu classified again, %llu only the facing band), up to %zu chunks deferred; "
      "%llu No with unbuilt "
      "chunks, %llu Unknown at the frontier\n",
      kRadius, kTicks, secs, static_cast<unsigned long long>(arrivals), max_ring, reloads, loads,
      unloads, deferred_edits, inflight_edits, corridor_edits,
      static_cast<unsigned long long>(nav.stats().builds_installed),
      static_cast<unsigned long long>(nav.stats().builds_reclassified),
      static_cast<unsigned long long>(nav.stats().builds_band_reclassified), max_deferred,
      static_cast<unsigned long long>(nav.stats().nos_with_unbuilt),
      static_cast<unsigned long long>(nav.stats().frontier_unknowns));
  std::printf("goals ended: %zu idle, %zu arrived, %zu failed, %zu blocked; failures:", ended[0],
              ended[3], ended[4], ended[5]);
  for (std::size_t k = 0; k < failures.size(); ++k)
    if (failures[k])
      std::printf(" %s %zu", path_failure_name(static_cast<PathFailure>(k)),
                  failures[k]);
  std::printf("\n");
  EXPECT_EQ(bad_feet, 0u);
  EXPECT_EQ(bad_corridors, 0u);
  EXPECT_GE(arrivals, 3u);
  EXPECT_GE(max_ring, 4u) << "no agent walked into the chunks deferred at the start";
  EXPECT_GT(max_deferred, 0u);
  EXPECT_GT(inflight_edits, 0u);
  EXPECT_GT(deferred_edits, 0u);
  EXPECT_GT(unloads, 0u);
  // Every chunk built, the layers equal a fresh build of the same blocks.
  ASSERT_EQ(st.w->set_chunk_build_radius(0), Status::Ok);
  for (int k = 0; k < 6; ++k) st.w->update();
  EXPECT_EQ(st.w->deferred_chunk_builds(), 0u);
  EXPECT_EQ(st.w->pending_chunk_builds(), 0u);
  expect_equal_to_fresh_build(st);
}

}  // namespace
}  // namespace voxnav
