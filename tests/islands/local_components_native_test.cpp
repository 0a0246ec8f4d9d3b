// Randomised tests of layer 1's local components (LocalComponents, Islands::compute_components,
// Islands::mark_stale, Islands::component_reach) and of the agents' near-change corridor checks,
// on real regions and synthetic worlds.
//
// The core check (check_local_components) recomputes, independently of the engine, every octant
// cache that Islands considers current (gen == its generation) from the move words as they are
// now: its member cells (node cells that are not gate cells), their strongly connected components
// under the moves inside the octant, and each component's moves out. Any difference is a staleness
// hole (a cache a component search would trust although the moves changed);
// LocalComponentsChecker plants one to show the check sees it. Besides, every scenario samples
// reachable() against a BFS over the move words and compares the layers (every class's, with
// pairs per class) with a fresh build:
//   LocalComponentsHotSpot  many edits on the octants around one chunk corner of the biggest
//               island (blocks of mixed kinds, tunnels, walls up to 31 cells with an opening then
//               closed, doors placed and toggled, ladders, pits, undo), one region per case, one
//               case with all classes;
//   LocalComponentsChunks  section reloads (same blocks, a layer added or dug out, a wall),
//               unload + load in one update, unloads of outer sections, boxes of 578 cells, edits
//               next to sections in flight; streaming off / on / lockstep 2 / a two-thread pool /
//               toggled now and then;
//   LocalComponentsExtremes  a maze at the top and the bottom of the cell range around the
//               origin (negative x, z);
//   LocalComponentsAgents  16 agents over gap jumps with edits within two columns and five cells
//               up or down of their corridors ahead; every Moving agent's corridor must stay valid;
//   LocalComponentsBorders  synthetic terrain (steps of up to 7, one-wide trenches for gap jumps,
//               ladders, fire, lava, cactus, a pool across chunk borders, pits) at mid height, the
//               top and the bottom of the cell range and negative y; 1 to 7 edits an update within
//               two cells of an octant border (blocks, raised or dug columns, trenches, ladder
//               columns, doors placed and toggled, undo, a block set and set back), chunk
//               unloads, loads and reloads, every class; every octant made current between
//               updates so that the edits patch moves out instead of recomputing octants.
// VOXNAV_LC_SEED (offset of every seed) and VOXNAV_LC_SCALE (run length factor) widen a run by
// hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/corridor/corridor.h"
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

using detail::LocalComponents;
using detail::NavChunk;
using detail::NavGrid;
using Rng = tools::SplitMix64;
using test::biggest_island_column;
using test::compare_layers;
using test::fresh_copy;
using test::LayerDiff;
using test::PairOracle;
using test::standable_cells;
using test::str;

const std::string kShared = VOXNAV_SHARED_DATA;
CellPos pos(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }

/// Exploration knobs (unset in normal runs): VOXNAV_LC_SEED offsets seeds, VOXNAV_LC_SCALE
/// multiplies run lengths.
std::uint64_t env_seed() { return test::env_seed("VOXNAV_LC_SEED"); }
// The suite's own run-length multiplier (test::rounds; the tables' update counts are the long
// runs' unit, CI runs two fifths of them).
constexpr const char* kScaleEnv = "VOXNAV_LC_SCALE";
int env_scale() { return test::env_scale(kScaleEnv); }

std::uint64_t comps_gen(detail::NavWorld& nav) { return nav.islands().components_generation(); }

// ---------------------------------------------------------------------------------------------
// The independent recomputation of one octant's local components.

struct LcCheck {
  std::size_t octants = 0, bad = 0;
  std::string first;
};

/// Targets of the moves of node cell c, decoded from the move words by hand (like PairOracle).
void moves_of(const NavGrid& g, const CellPos& c, std::vector<CellPos>& out) {
  out.clear();
  const std::uint32_t word = g.moves(c);
  for (int dir = 0; dir < 8; ++dir) {
    const int code = detail::move_code(word, dir);
    if (code)
      out.push_back(CellPos{c.x + detail::kDirDx[dir], c.y + detail::kMoveCodes[code].dy,
                         c.z + detail::kDirDz[dir]});
  }
  const std::uint8_t vm = g.vmoves(c);
  if (vm & detail::kMoveUp) out.push_back(CellPos{c.x, c.y + 1, c.z});
  if (vm & detail::kMoveDown) out.push_back(CellPos{c.x, c.y - 1, c.z});
  const detail::GapWord gm = g.gaps(c);
  for (int d = 0; d < 4; ++d) {
    const int dx = 2 * detail::kDirDx[d], dz = 2 * detail::kDirDz[d];
    if (gm & (detail::kGapLevel << d)) out.push_back(CellPos{c.x + dx, c.y, c.z + dz});
    if (gm & (detail::kGapDown << d)) out.push_back(CellPos{c.x + dx, c.y - 1, c.z + dz});
    if (gm & (detail::kGapUp << d)) out.push_back(CellPos{c.x + dx, c.y + 1, c.z + dz});
    if (gm & (detail::kGapLevel2 << d))
      out.push_back(CellPos{c.x + 3 * detail::kDirDx[d], c.y, c.z + 3 * detail::kDirDz[d]});
  }
}

void check_octant(const NavGrid& g, const NavChunk* ch, int o, const LocalComponents& cc,
                  LcCheck& r) {
  ++r.octants;
  auto fail = [&](const std::string& m) {
    if (++r.bad == 1) r.first = str(ch->pos) + " octant " + std::to_string(o) + ": " + m;
  };
  // Members, in octant index order.
  std::vector<int> cells;  // chunk indices
  std::vector<int> dense(512, -1);
  const bool arrays = !ch->uniform;
  if (arrays) {
    const int base = (o & 1) * 8 | ((o >> 1) & 1) * 128 | (o >> 2) * 2048;
    for (int y = 0; y < 8; ++y)
      for (int z = 0; z < 8; ++z)
        for (int x = 0; x < 8; ++x) {
          const int i = base + x + 16 * z + 256 * y;
          const auto k = ch->kind_at(i);
          if (detail::kind_node(k) && !detail::kind_gate(k)) {
            dense[static_cast<std::size_t>(detail::index_in_octant(i))] =
                static_cast<int>(cells.size());
            cells.push_back(i);
          }
        }
  }
  // An octant without members keeps no per-cell array (cc.at() answers kNone for every cell).
  if (cc.of.size() != (cells.empty() ? 0u : 512u)) {
    fail("of.size() = " + std::to_string(cc.of.size()) + " with " + std::to_string(cells.size()) +
         " members");
    return;
  }
  for (int k = 0; k < 512; ++k) {
    const bool member = dense[static_cast<std::size_t>(k)] >= 0;
    const bool cached = cc.at(k) != LocalComponents::kNone;
    if (member != cached) {
      int i = -1;
      for (int c = 0; c < 4096; ++c)
        if (detail::octant_of(c) == o && detail::index_in_octant(c) == k) i = c;
      fail("cell " + str(detail::cell_of(ch, i)) + " is " + (member ? "" : "not ") +
           "a member now (kind " + std::to_string(int(ch->kind_at(i))) + ") but the cache says " +
           (cached ? "component " + std::to_string(cc.at(k)) : "none"));
      return;
    }
  }
  const int n = static_cast<int>(cells.size());
  // Edges inside the octant and moves out, from the move words.
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(n));
  std::vector<std::vector<std::uint32_t>> cross(static_cast<std::size_t>(n));
  std::vector<CellPos> ts;
  for (int v = 0; v < n; ++v) {
    const CellPos c = detail::cell_of(ch, cells[static_cast<std::size_t>(v)]);
    moves_of(g, c, ts);
    for (const CellPos& t : ts) {
      const ChunkPos tp = detail::chunk_of(t);
      const int ti = detail::index_in_chunk(t);
      if (tp == ch->pos && detail::octant_of(ti) == o) {
        const int w = dense[static_cast<std::size_t>(detail::index_in_octant(ti))];
        if (w >= 0) adj[static_cast<std::size_t>(v)].push_back(w);
        continue;
      }
      if (!g.chunk(tp)) continue;  // a move into an unloaded chunk (none should exist)
      const auto nb = static_cast<std::uint32_t>(
          detail::nb_index(tp.x - ch->pos.x, tp.y - ch->pos.y, tp.z - ch->pos.z));
      if (nb != 13 && ch->nb[nb] != g.chunk(tp)) {
        fail("neighbour pointer " + std::to_string(nb) + " is not the chunk " + str(tp));
        return;
      }
      cross[static_cast<std::size_t>(v)].push_back(nb << 12 | static_cast<std::uint32_t>(ti));
    }
  }
  // Tarjan (recursive; at most 512 cells).
  std::vector<int> idx(static_cast<std::size_t>(n), -1), low(static_cast<std::size_t>(n), 0),
      comp(static_cast<std::size_t>(n), -1);
  std::vector<int> stack;
  int counter = 0, ncomp = 0;
  std::function<void(int)> dfs = [&](int v) {
    idx[static_cast<std::size_t>(v)] = low[static_cast<std::size_t>(v)] = counter++;
    stack.push_back(v);
    for (int w : adj[static_cast<std::size_t>(v)]) {
      if (idx[static_cast<std::size_t>(w)] < 0) {
        dfs(w);
        low[static_cast<std::size_t>(v)] =
            std::min(low[static_cast<std::size_t>(v)], low[static_cast<std::size_t>(w)]);
      } else if (comp[static_cast<std::size_t>(w)] < 0) {
        low[static_cast<std::size_t>(v)] =
            std::min(low[static_cast<std::size_t>(v)], idx[static_cast<std::size_t>(w)]);
      }
    }
    if (low[static_cast<std::size_t>(v)] == idx[static_cast<std::size_t>(v)]) {
      int w;
      do {
        w = stack.back();
        stack.pop_back();
        comp[static_cast<std::size_t>(w)] = ncomp;
      } while (w != v);
      ++ncomp;
    }
  };
  for (int v = 0; v < n; ++v)
    if (idx[static_cast<std::size_t>(v)] < 0) dfs(v);
  if (static_cast<int>(cc.rep.size()) != ncomp ||
      static_cast<int>(cc.out_start.size()) != ncomp + 1) {
    fail(std::to_string(ncomp) + " components now, the cache has " + std::to_string(cc.rep.size()));
    return;
  }
  // The partitions must agree: mine -> cached one to one.
  std::vector<int> to_cached(static_cast<std::size_t>(ncomp), -1),
      to_mine(static_cast<std::size_t>(ncomp), -1);
  for (int v = 0; v < n; ++v) {
    const int i = cells[static_cast<std::size_t>(v)];
    const int cid = cc.of[static_cast<std::size_t>(detail::index_in_octant(i))];
    const int mid = comp[static_cast<std::size_t>(v)];
    if (cid >= ncomp) {
      fail("component id out of range");
      return;
    }
    if (to_cached[static_cast<std::size_t>(mid)] < 0)
      to_cached[static_cast<std::size_t>(mid)] = cid;
    if (to_mine[static_cast<std::size_t>(cid)] < 0) to_mine[static_cast<std::size_t>(cid)] = mid;
    if (to_cached[static_cast<std::size_t>(mid)] != cid ||
        to_mine[static_cast<std::size_t>(cid)] != mid) {
      fail("the component of " + str(detail::cell_of(ch, i)) + " differs from a recomputation");
      return;
    }
  }
  // Representatives are members of their component; the moves out are the same sets.
  std::vector<std::set<std::uint32_t>> want(static_cast<std::size_t>(ncomp));
  for (int v = 0; v < n; ++v) {
    const int cid = to_cached[static_cast<std::size_t>(comp[static_cast<std::size_t>(v)])];
    for (int w : adj[static_cast<std::size_t>(v)]) {
      const int wc = to_cached[static_cast<std::size_t>(comp[static_cast<std::size_t>(w)])];
      if (wc != cid) want[static_cast<std::size_t>(cid)].insert(LocalComponents::kLocal | wc);
    }
    for (std::uint32_t x : cross[static_cast<std::size_t>(v)])
      want[static_cast<std::size_t>(cid)].insert(x);
  }
  for (int c = 0; c < ncomp; ++c) {
    const int rep = cc.rep[static_cast<std::size_t>(c)];
    if (rep < 0 || rep >= 4096 || detail::octant_of(rep) != o ||
        cc.of[static_cast<std::size_t>(detail::index_in_octant(rep))] != c) {
      fail("representative of component " + std::to_string(c) + " is not a member");
      return;
    }
    const std::set<std::uint32_t> have(
        cc.out.begin() + cc.out_start[static_cast<std::size_t>(c)],
        cc.out.begin() + cc.out_start[static_cast<std::size_t>(c) + 1]);
    if (have != want[static_cast<std::size_t>(c)]) {
      std::string m =
          "moves out of the component of " + str(detail::cell_of(ch, rep)) + " differ: cached";
      for (std::uint32_t x : have)
        if (!want[static_cast<std::size_t>(c)].count(x)) m += " +" + std::to_string(x);
      m += ", missing";
      for (std::uint32_t x : want[static_cast<std::size_t>(c)])
        if (!have.count(x)) m += " " + std::to_string(x);
      fail(m);
      return;
    }
  }
}

/// Checks every current octant cache of the chunks in `only` (every chunk when empty).
LcCheck check_local_components(detail::NavWorld& nav, const std::vector<ChunkPos>& only = {}) {
  LcCheck r;
  const std::uint64_t gen = comps_gen(nav);
  const NavGrid& g = nav.grid();
  auto one = [&](const NavChunk* ch) {
    if (!ch || !ch->comps) return;
    for (int o = 0; o < 8; ++o) {
      const LocalComponents& cc = (*ch->comps)[static_cast<std::size_t>(o)];
      if (cc.gen == gen) check_octant(g, ch, o, cc, r);
    }
  };
  if (only.empty()) {
    for (const NavChunk* ch : g.ordered_chunks()) one(ch);
  } else {
    for (const ChunkPos& p : only) one(g.chunk(p));
  }
  return r;
}

/// The chunks around the boxes (one chunk of margin).
std::vector<ChunkPos> chunks_around(const std::vector<std::pair<CellPos, CellPos>>& boxes) {
  std::vector<ChunkPos> out;
  for (const auto& [mn, mx] : boxes) {
    const ChunkPos a = detail::chunk_of(mn), b = detail::chunk_of(mx);
    for (int y = a.y - 1; y <= b.y + 1; ++y)
      for (int z = a.z - 1; z <= b.z + 1; ++z)
        for (int x = a.x - 1; x <= b.x + 1; ++x) out.push_back({x, y, z});
  }
  std::sort(out.begin(), out.end(), [](const ChunkPos& a, const ChunkPos& b) {
    return detail::chunk_key(a) < detail::chunk_key(b);
  });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ---------------------------------------------------------------------------------------------
// Worlds.

std::unique_ptr<World> window_world(World& src, int cx0, int cz0, int radius, const WorldDef& def,
                                    ProfileId* pid) {
  auto w = std::make_unique<World>(def);
  detail::WorldAccess::state(*w).registry = detail::WorldAccess::state(src).registry;
  detail::WorldAccess::state(*w).blocks = detail::WorldAccess::state(src).blocks;
  const detail::Space& ss = detail::WorldAccess::state(src).space;
  std::vector<std::uint16_t> values(detail::kChunkCells);
  for (const ChunkPos& p : ss.loaded_chunks()) {
    if (std::abs(p.x - cx0) > radius || std::abs(p.z - cz0) > radius) continue;
    const detail::Chunk* ch = ss.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    EXPECT_EQ(w->load_chunk(voxnav::ChunkPos{p.x, p.y, p.z}, values), Status::Ok);
  }
  EXPECT_EQ(w->add_profile(Profile{}, pid), Status::Ok);
  w->update();
  return w;
}

struct Tally {
  std::size_t pairs = 0, yes = 0, no = 0, bad = 0, lc_octants = 0, lc_bad = 0, compares = 0,
              diffs = 0;
};

/// reachable() vs the BFS over the move words for `count` pairs of `cells` (near pairs first).
void check_pairs(World& w, ProfileId pid, const std::vector<CellPos>& cells, Rng& rng, int count,
                 Tally& t, const std::string& what) {
  if (cells.size() < 2) return;
  const NavGrid& g = detail::WorldAccess::state(w).walker()->grid();
  PairOracle oracle(g);
  for (int k = 0; k < count; ++k) {
    const CellPos a = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    const CellPos b = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    if (!g.standable(a) || !g.standable(b)) continue;
    const Reach r = w.reachable(pid, pos(a), pos(b));
    const bool truth = oracle.reaches(a, b, detail::CostTable{}.gates());
    const bool gated = !truth && oracle.reaches(a, b);
    ++t.pairs;
    (truth ? t.yes : t.no) += 1;
    const bool gated_ok =
        gated && r.answer == ReachAnswer::Unknown &&
        (r.reason == ReachReason::DoorGated || r.reason == ReachReason::ProfileRestricted);
    // While builds are pending a No is an Unknown(NotLoaded) (a chunk being built may hold the
    // way); a Yes must still be right.
    const bool pending_ok = !truth && r.answer == ReachAnswer::Unknown &&
                            r.reason == ReachReason::NotLoaded &&
                            detail::WorldAccess::state(w).walker()->pending_builds() > 0;
    if (!gated_ok && !pending_ok &&
        (r.answer == ReachAnswer::Unknown || (r.answer == ReachAnswer::Yes) != truth)) {
      if (++t.bad <= 5)
        ADD_FAILURE() << what << ": reachable " << str(a) << " -> " << str(b) << " = "
                      << reach_answer_name(r.answer) << ", BFS over the move words says "
                      << (truth ? "yes" : "no");
    }
  }
}

void lc_check(detail::NavWorld& nav, const std::vector<ChunkPos>& only, Tally& t,
              const std::string& what) {
  const LcCheck r = check_local_components(nav, only);
  t.lc_octants += r.octants;
  if (r.bad) {
    if (++t.lc_bad <= 5)
      ADD_FAILURE() << what << ": " << r.bad << " current local component caches differ from a "
                    << "recomputation; first: " << r.first;
  }
}

/// Profiles of the other movement classes (walker_small, walker_large, swimmer), so that every
/// class's navigation is maintained. Returns their ids.
std::vector<ProfileId> add_other_classes(World& w) {
  std::vector<ProfileId> ids;
  for (MovementClass c :
       {MovementClass::WalkerSmall, MovementClass::WalkerLarge, MovementClass::Swimmer}) {
    Profile p;
    p.id = movement_class_name(c);
    p.movement_class = c;
    if (c == MovementClass::WalkerSmall) p.width = 0.5, p.height = 0.9;
    if (c == MovementClass::WalkerLarge) {
      p.width = 1.4, p.height = 2.0, p.step_height = 1.0, p.max_drop = 4;
    }
    if (c == MovementClass::Swimmer) {
      p.width = 0.5, p.height = 0.4, p.can_swim = true, p.swim_speed = 2.0, p.step_height = 0;
      p.jump_apex = 0, p.max_drop = 0;
    }
    ProfileId id;
    std::string err;
    EXPECT_EQ(w.add_profile(p, &id, &err), Status::Ok) << movement_class_name(c) << ": " << err;
    ids.push_back(id);
  }
  w.update();
  return ids;
}

/// The caches of every class's navigation.
void lc_check_all(World& w, const std::vector<ChunkPos>& only, Tally& t, const std::string& what) {
  for (detail::NavWorld* nav : detail::WorldAccess::state(w).navs())
    lc_check(*nav, only, t,
             what + " [class " + std::to_string(nav->grid().envelope().footprint2) +
                 std::to_string(nav->grid().envelope().swimmer) + " h" +
                 std::to_string(nav->grid().envelope().height_q) + "]");
}

/// Every class's layers against a fresh build (a copy of the blocks with the same classes), and
/// reachable() of sampled node pairs of every class's grid against the fresh build's answer.
void full_compare_all(World& w, ProfileId pid, Tally& t, const std::string& what,
                      const std::vector<ProfileId>& others = {}) {
  ProfileId fpid;
  std::unique_ptr<World> fresh = fresh_copy(w, &fpid);
  std::vector<ProfileId> fothers;
  if (detail::WorldAccess::state(w).navs().size() > 1) fothers = add_other_classes(*fresh);
  const std::vector<detail::NavWorld*> a = detail::WorldAccess::state(w).navs(), b = detail::WorldAccess::state(*fresh).navs();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    const LayerDiff d = compare_layers(*a[k], *b[k]);
    ++t.compares;
    t.diffs += d.total();
    EXPECT_EQ(d.total(), 0u) << what << " class slot " << k
                             << ": layers differ from a fresh build: " << d.kind << " kind, "
                             << d.floor << " floor, " << d.moves << " move, " << d.missing
                             << " missing, " << d.extra << " extra, " << d.partition
                             << " partition; first: " << d.first;
  }
  // Pairs per class: the incremental answer equals the fresh build's.
  std::vector<std::pair<ProfileId, ProfileId>> profiles{{pid, fpid}};
  for (std::size_t k = 0; k < others.size() && k < fothers.size(); ++k)
    profiles.push_back({others[k], fothers[k]});
  Rng rng{t.compares * 7919};
  for (const auto& [ip, fp] : profiles) {
    // The grid of the profile's class: its node cells are the pairs' ends.
    const detail::NavWorld* pn =
        detail::WorldAccess::state(w).nav_of(detail::WorldAccess::state(w).profiles[ip.index].movement_class);
    if (!pn) continue;
    std::vector<CellPos> nodes;
    for (const NavChunk* ch : pn->grid().ordered_chunks()) {
      if (ch->uniform) continue;
      for (int i = 0; i < detail::kChunkCells; i += 3)
        if (detail::kind_node(ch->kind_at(i))) nodes.push_back(detail::cell_of(ch, i));
    }
    if (nodes.size() < 2) continue;
    for (int k = 0; k < 60; ++k) {
      const CellPos x = nodes[rng.below(static_cast<std::uint32_t>(nodes.size()))];
      const CellPos y = nodes[rng.below(static_cast<std::uint32_t>(nodes.size()))];
      const Reach ri = w.reachable(ip, pos(x), pos(y));
      const Reach rf = fresh->reachable(fp, pos(x), pos(y));
      ++t.pairs;
      if (ri.answer != rf.answer || ri.reason != rf.reason) {
        if (++t.bad <= 5)
          ADD_FAILURE() << what << ": profile " << ip.index << " reachable " << str(x) << " -> "
                        << str(y) << " = " << reach_answer_name(ri.answer) << "/"
                        << reach_reason_name(ri.reason) << ", a fresh build says "
                        << reach_answer_name(rf.answer) << "/" << reach_reason_name(rf.reason);
      }
    }
  }
}

struct Blocks {
  std::uint16_t air = 0, stone = 0, water = 0, ladder = 0, door_lo = 0, door_hi = 0, fence = 0,
                slab = 0, lava = 0, soul = 0, glass = 0;
};
Blocks blocks_of(World& w) {
  Blocks b;
  EXPECT_EQ(w.block_value("air", &b.air), Status::Ok);
  EXPECT_EQ(w.block_value("stone", &b.stone), Status::Ok);
  EXPECT_EQ(w.block_value("water", &b.water), Status::Ok);
  EXPECT_EQ(w.block_value("ladder", &b.ladder), Status::Ok);
  EXPECT_EQ(w.block_value("oak_door[half=lower]", &b.door_lo), Status::Ok);
  EXPECT_EQ(w.block_value("oak_door[half=upper]", &b.door_hi), Status::Ok);
  EXPECT_EQ(w.block_value("oak_fence", &b.fence), Status::Ok);
  EXPECT_EQ(w.block_value("oak_slab[type=bottom]", &b.slab), Status::Ok);
  EXPECT_EQ(w.block_value("lava", &b.lava), Status::Ok);
  EXPECT_EQ(w.block_value("soul_sand", &b.soul), Status::Ok);
  EXPECT_EQ(w.block_value("glass", &b.glass), Status::Ok);
  return b;
}

// =============================================================================================
// Many edits concentrated on a few octants (a 24 x 12 x 24 box straddling chunk and octant
// borders): single blocks of mixed kinds, tunnels dug and filled, walls with an opening that is
// then closed, doors placed and toggled, ladders, and undo of earlier edits. After every update
// every current cache of the chunks around is recomputed and compared, pairs near the edits are
// checked against the BFS, and every 50 updates the layers equal a fresh build.

struct HotCase {
  const char* name;
  const char* file;
  int updates;
  std::uint64_t seed;
  bool classes = false;  // also walker_small, walker_large and swimmer navigation
};
void PrintTo(const HotCase& c, std::ostream* os) { *os << c.name; }
class LocalComponentsHotSpot : public ::testing::TestWithParam<HotCase> {};

TEST_P(LocalComponentsHotSpot, ConcentratedEditsKeepCachesExact) {
  const auto t0 = std::chrono::steady_clock::now();
  ProfileId spid;
  std::unique_ptr<World> src = test::load_region(kShared + GetParam().file, &spid);
  ASSERT_TRUE(src);
  const auto [cx0, cz0] = biggest_island_column(*src);
  ProfileId pid;
  std::unique_ptr<World> w = window_world(*src, cx0, cz0, 2, WorldDef{}, &pid);
  src.reset();
  std::vector<ProfileId> others;
  if (GetParam().classes) others = add_other_classes(*w);
  detail::NavWorld& nav = *detail::WorldAccess::state(*w).walker();
  const NavGrid& g = nav.grid();
  const Blocks B = blocks_of(*w);
  // The hot spot: a cell of the biggest island on a chunk corner (x, z multiples of 16: four
  // chunks and eight octants meet around it), the one with the most island cells around.
  std::vector<CellPos> pool = standable_cells(g);
  ASSERT_GT(pool.size(), 1000u);
  std::uint32_t big = 0;
  for (const CellPos& c : pool) {
    const std::uint32_t isl = nav.islands().component(g, c);
    if (isl && nav.islands().size_of(isl) > nav.islands().size_of(big)) big = isl;
  }
  CellPos hot = pool[0];
  {
    std::unordered_map<std::uint64_t, int> around;  // chunk corner -> island cells within 12
    for (const CellPos& c : pool) {
      if (nav.islands().component(g, c) != big) continue;
      const int kx = (c.x + 8) & ~15, kz = (c.z + 8) & ~15;
      if (std::abs(c.x - kx) <= 12 && std::abs(c.z - kz) <= 12)
        ++around[(std::uint64_t(std::uint32_t(kx)) << 32) | std::uint32_t(kz)];
    }
    std::uint64_t best_key = 0;
    int best_n = -1;
    for (const auto& [k, n] : around)
      if (n > best_n || (n == best_n && k < best_key)) best_n = n, best_key = k;
    const int kx = static_cast<int>(std::uint32_t(best_key >> 32)),
              kz = static_cast<int>(std::uint32_t(best_key));
    int best = 1 << 30;
    for (const CellPos& c : pool)
      if (nav.islands().component(g, c) == big) {
        const int d = std::abs(c.x - kx) + std::abs(c.z - kz);
        if (d < best) best = d, hot = c;
      }
  }
  Rng rng{GetParam().seed + env_seed()};
  auto rnd = [&](int lo, int hi) {
    return lo + static_cast<int>(rng.below(static_cast<std::uint32_t>(hi - lo + 1)));
  };
  Tally t;
  struct Undo {
    CellPos c;
    std::uint16_t v;
  };
  std::vector<Undo> undo;
  auto put = [&](const CellPos& c, std::uint16_t v) {
    std::uint16_t old = 0;
    if (w->get_block(pos(c), &old) != Status::Ok) return false;
    if (w->set_block(pos(c), v) != Status::Ok) return false;
    undo.push_back({c, old});
    return true;
  };
  auto box = [&](CellPos mn, CellPos mx, std::uint16_t v) {
    for (int y = mn.y; y <= mx.y; ++y)
      for (int z = mn.z; z <= mx.z; ++z)
        for (int x = mn.x; x <= mx.x; ++x) put(CellPos{x, y, z}, v);
  };
  std::vector<std::pair<CellPos, CellPos>> boxes;
  const int kUpdates = test::rounds(GetParam().updates * 2 / 5, GetParam().updates / 8, kScaleEnv);
  std::vector<CellPos> doors;
  for (int u = 0; u < kUpdates && t.bad == 0 && t.lc_bad == 0 && t.diffs == 0; ++u) {
    boxes.clear();
    const int n = u % 7 == 6 ? 12 : 1;
    std::string tags;
    for (int k = 0; k < n; ++k) {
      const CellPos c{hot.x + rnd(-12, 11), hot.y + rnd(-5, 6), hot.z + rnd(-12, 11)};
      const std::uint32_t what = rng.below(100);
      CellPos mn = c, mx = c;
      if (what < 25) {
        tags += "blk ";
        const std::uint16_t vs[] = {B.air,  B.stone, B.stone, B.air,    B.water, B.fence,
                                    B.slab, B.soul,  B.glass, B.ladder, B.lava};
        put(c, vs[rng.below(11)]);
      } else if (what < 40) {  // a tunnel along x or z, two high
        tags += "tunnel ";
        const bool alongx = rng.below(2);
        const int len = rnd(4, 14);
        mx = alongx ? CellPos{c.x + len, c.y + 1, c.z} : CellPos{c.x, c.y + 1, c.z + len};
        box(mn, mx, B.air);
      } else if (what < 55) {  // a wall with an opening, or its opening closed
        tags += "wall ";
        const bool alongx = rng.below(2);
        const int len = rnd(6, 30), gap = rnd(1, len - 1);
        mx = alongx ? CellPos{c.x + len, c.y + 2, c.z} : CellPos{c.x, c.y + 2, c.z + len};
        for (int s = 0; s <= len; ++s) {
          if (s == gap) continue;
          const CellPos b0 = alongx ? CellPos{c.x + s, c.y, c.z} : CellPos{c.x, c.y, c.z + s};
          box(b0, CellPos{b0.x, b0.y + 2, b0.z}, B.stone);
        }
        boxes.push_back({mn, mx});
        w->update();  // the wall first, then its opening closed
        const CellPos o = alongx ? CellPos{c.x + gap, c.y, c.z} : CellPos{c.x, c.y, c.z + gap};
        box(o, CellPos{o.x, o.y + 2, o.z}, B.stone);
      } else if (what < 65) {  // a door (two halves) in a wall, toggled later
        tags += "door ";
        put(c, B.door_lo);
        put(CellPos{c.x, c.y + 1, c.z}, B.door_hi);
        put(CellPos{c.x + 1, c.y, c.z}, B.stone);
        put(CellPos{c.x - 1, c.y, c.z}, B.stone);
        put(CellPos{c.x + 1, c.y + 1, c.z}, B.stone);
        put(CellPos{c.x - 1, c.y + 1, c.z}, B.stone);
        doors.push_back(c);
        mx.y += 1;
      } else if (what < 72 && !doors.empty()) {
        tags += "toggle ";
        const CellPos d = doors[rng.below(static_cast<std::uint32_t>(doors.size()))];
        (void)w->set_door_open(pos(d), rng.below(2) != 0);
        mn = mx = d;
      } else if (what < 80) {  // a ladder column
        tags += "ladder ";
        const int h = rnd(2, 6);
        for (int y = 0; y < h; ++y) put(CellPos{c.x, c.y + y, c.z}, B.ladder);
        mx.y += h;
      } else if (what < 90 && !undo.empty()) {  // undo the last few edits
        tags += "undo ";
        const int m = rnd(1, 8);
        for (int j = 0; j < m && !undo.empty(); ++j) {
          const Undo x = undo.back();
          undo.pop_back();
          (void)w->set_block(pos(x.c), x.v);
          boxes.push_back({x.c, x.c});
        }
      } else {  // a pit (drops) or a pillar
        tags += "pit ";
        mn = CellPos{c.x - 1, c.y - 3, c.z - 1};
        mx = CellPos{c.x + 1, c.y, c.z + 1};
        box(mn, mx, rng.below(2) ? B.air : B.stone);
      }
      boxes.push_back({mn, mx});
    }
    w->update();
    char what[200];
    std::snprintf(what, sizeof what, "[%s] update %d (%s)", GetParam().name, u, tags.c_str());
    lc_check_all(*w, chunks_around(boxes), t, what);
    std::vector<CellPos> near;
    for (int y = hot.y - 8; y <= hot.y + 9; ++y)
      for (int z = hot.z - 16; z <= hot.z + 16; ++z)
        for (int x = hot.x - 16; x <= hot.x + 16; ++x)
          if (g.standable(CellPos{x, y, z})) near.push_back(CellPos{x, y, z});
    check_pairs(*w, pid, near, rng, 8, t, what);
    if (u % 50 == 49 || u + 1 == kUpdates) {
      lc_check_all(*w, {}, t, what);
      full_compare_all(*w, pid, t, what, others);
    }
  }
  const detail::IslandStats& is = nav.islands().stats();
  std::printf(
      "[%s] %d updates around %s: %zu pairs (%zu yes, %zu no), %zu bad, %zu octant caches "
      "checked, %zu stale, %zu compares; islands: %llu deltas, %llu split checks, %llu local "
      "splits, %llu component searches, %llu fallbacks (%.1f s)\n",
      GetParam().name, kUpdates, str(hot).c_str(), t.pairs, t.yes, t.no, t.bad, t.lc_octants,
      t.lc_bad, t.compares, static_cast<unsigned long long>(is.deltas),
      static_cast<unsigned long long>(is.split_checks),
      static_cast<unsigned long long>(is.local_splits),
      static_cast<unsigned long long>(is.component_searches),
      static_cast<unsigned long long>(is.fallbacks),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  EXPECT_EQ(t.bad, 0u);
  EXPECT_EQ(t.lc_bad, 0u);
  EXPECT_EQ(t.diffs, 0u);
  EXPECT_GT(is.component_searches, 0u);
}

const HotCase kHot[] = {
    {"v1_16", "/minecraft/regions/1.16/r.0.-1.mca", 600, 0x1C0001},
    {"v1_18_2", "/minecraft/regions/1.18.2/r.0.0.mca", 600, 0x1C0002},
    {"v1_12_2", "/minecraft/regions/1.12.2/r.0.-1.mca", 600, 0x1C0003},
    {"v1_16_all_classes", "/minecraft/regions/1.16/r.0.-1.mca", 300, 0x1C0004, true},
};
INSTANTIATE_TEST_SUITE_P(Regions, LocalComponentsHotSpot, ::testing::ValuesIn(kHot),
                         [](const ::testing::TestParamInfo<HotCase>& i) {
                           return std::string(i.param.name);
                         });

// =============================================================================================
// Chunk-level changes: a 5x5-column window with chunk streaming off or on (inline builds, lockstep
// delay 0 or 2, or a two-thread pool): sections reloaded with the same blocks or a layer changed,
// unloaded and loaded again in one update, outer sections unloaded (neighbours whose caches hold
// moves into them), boxes of more than 512 cells, and edits next to chunks whose builds are in
// flight. Every update: every current cache of the world is recomputed and compared; pairs near
// the changes are checked against the BFS. When no build is pending, the layers equal a fresh
// build.

struct ChunkCase {
  const char* name;
  const char* file;
  bool streaming;
  int lockstep;
  int threads;
  int updates;
  bool classes = false;
  bool toggle = false;  // switch streaming on and off now and then (builds may be in flight)
};
void PrintTo(const ChunkCase& c, std::ostream* os) { *os << c.name; }
class LocalComponentsChunks : public ::testing::TestWithParam<ChunkCase> {};

TEST_P(LocalComponentsChunks, LoadsUnloadsReloadsAndBigBoxesKeepCachesExact) {
  const ChunkCase mode = GetParam();
  const auto t0 = std::chrono::steady_clock::now();
  ProfileId spid;
  std::unique_ptr<World> src = test::load_region(kShared + mode.file, &spid);
  ASSERT_TRUE(src);
  const auto [cx0, cz0] = biggest_island_column(*src);
  const detail::Space& ss = detail::WorldAccess::state(*src).space;
  std::unique_ptr<native::ThreadPool> pool;
  WorldDef def;
  def.lockstep_delay = mode.lockstep;
  if (mode.threads > 0) {
    pool = std::make_unique<native::ThreadPool>(mode.threads);
    def.executor = pool.get();
  }
  ProfileId pid;
  std::unique_ptr<World> w = window_world(*src, cx0, cz0, 2, def, &pid);
  std::vector<ProfileId> others;
  if (mode.classes) others = add_other_classes(*w);
  w->set_chunk_streaming(mode.streaming);
  detail::NavWorld& nav = *detail::WorldAccess::state(*w).walker();
  const NavGrid& g = nav.grid();
  const detail::Space& space = detail::WorldAccess::state(*w).space;
  const Blocks B = blocks_of(*w);
  std::vector<ChunkPos> sections;
  for (const ChunkPos& p : ss.loaded_chunks())
    if (std::abs(p.x - cx0) <= 2 && std::abs(p.z - cz0) <= 2) sections.push_back(p);
  std::sort(sections.begin(), sections.end(), [](const ChunkPos& a, const ChunkPos& b) {
    return detail::chunk_key(a) < detail::chunk_key(b);
  });
  std::vector<CellPos> pool_cells = standable_cells(g);
  ASSERT_GT(pool_cells.size(), 500u);
  Rng rng{
      0x1CC0000u +
      static_cast<std::uint64_t>(mode.lockstep * 7 + mode.threads * 3 + (mode.streaming ? 1 : 0)) +
      env_seed()};
  auto below = [&](std::size_t n) { return rng.below(static_cast<std::uint32_t>(n)); };
  std::vector<std::uint16_t> values(detail::kChunkCells);
  auto load = [&](const ChunkPos& p, int variant) {
    const detail::Chunk* ch = ss.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i)
      values[static_cast<std::size_t>(i)] = ch ? ch->get(i) : B.air;
    if (variant == 1) {  // a layer of stone with holes
      const int ly = static_cast<int>(below(16));
      for (int z = 0; z < 16; ++z)
        for (int x = 0; x < 16; ++x)
          if ((x + z + ly) % 5 != 0)
            values[static_cast<std::size_t>(x | (z << 4) | (ly << 8))] = B.stone;
    } else if (variant == 2) {  // a layer dug out
      const int ly = static_cast<int>(below(16));
      for (int z = 0; z < 16; ++z)
        for (int x = 0; x < 16; ++x)
          values[static_cast<std::size_t>(x | (z << 4) | (ly << 8))] = B.air;
    } else if (variant == 3) {  // a wall across the section along x, with one opening
      const int lz = static_cast<int>(below(16)), gap = static_cast<int>(below(16));
      for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x)
          if (x != gap) values[static_cast<std::size_t>(x | (lz << 4) | (y << 8))] = B.stone;
    }
    return w->load_chunk(voxnav::ChunkPos{p.x, p.y, p.z}, values) == Status::Ok;
  };
  Tally t;
  std::size_t ops[8] = {};
  const int kUpdates = test::rounds(mode.updates * 2 / 5, mode.updates / 16, kScaleEnv);
  std::vector<std::pair<CellPos, CellPos>> boxes;
  for (int u = 0; u < kUpdates && t.bad == 0 && t.lc_bad == 0 && t.diffs == 0; ++u) {
    std::string log;
    boxes.clear();
    if (mode.toggle && below(8) == 0) {
      const bool on = !nav.streaming();
      w->set_chunk_streaming(on);
      log += on ? "streaming on; " : "streaming off; ";
    }
    const int nops = 1 + static_cast<int>(below(3));
    for (int k = 0; k < nops; ++k) {
      const ChunkPos p = sections[below(sections.size())];
      const bool inner = std::abs(p.x - cx0) <= 1 && std::abs(p.z - cz0) <= 1;
      const CellPos c0{p.x * 16, p.y * 16, p.z * 16};
      char buf[120] = "";
      switch (below(9)) {
        case 0:
        case 1: {  // reload a section
          if (!space.chunk(p)) {
            (void)load(p, 0);
            std::snprintf(buf, sizeof buf, "load %s; ", str(p).c_str());
          } else {
            const int v = static_cast<int>(below(4));
            (void)load(p, v);
            std::snprintf(buf, sizeof buf, "reload/%d %s; ", v, str(p).c_str());
          }
          ++ops[0];
          break;
        }
        case 2: {  // unload and load again in one update
          if (!space.chunk(p)) break;
          (void)w->unload_chunk(voxnav::ChunkPos{p.x, p.y, p.z});
          const int v = static_cast<int>(below(4));
          (void)load(p, v);
          std::snprintf(buf, sizeof buf, "unload+load/%d %s; ", v, str(p).c_str());
          ++ops[1];
          break;
        }
        case 3: {  // unload an outer section (or load it back)
          if (inner) break;
          if (space.chunk(p)) {
            (void)w->unload_chunk(voxnav::ChunkPos{p.x, p.y, p.z});
            std::snprintf(buf, sizeof buf, "unload %s; ", str(p).c_str());
          } else {
            (void)load(p, 0);
            std::snprintf(buf, sizeof buf, "load %s; ", str(p).c_str());
          }
          ++ops[2];
          break;
        }
        case 4: {  // a box of more than 512 cells (chunk level)
          const CellPos c = pool_cells[below(pool_cells.size())];
          const CellPos mn{c.x - 8, c.y, c.z - 8}, mx{c.x + 8, c.y + 1, c.z + 8};
          if (w->set_box(pos(mn), pos(mx), below(2) ? B.air : B.stone) == Status::Ok) {
            boxes.push_back({mn, mx});
            std::snprintf(buf, sizeof buf, "box578 %s; ", str(c).c_str());
          }
          ++ops[3];
          break;
        }
        default: {  // edits next to the section (often one being built): walls, pits, blocks
          const CellPos c{c0.x + static_cast<int>(below(18)) - 1,
                       c0.y + static_cast<int>(below(18)) - 1,
                       c0.z + static_cast<int>(below(18)) - 1};
          const std::uint32_t s = below(4);
          CellPos mn = c, mx = c;
          std::uint16_t v = below(2) ? B.air : B.stone;
          if (s == 1) mx = CellPos{c.x + 10, c.y + 2, c.z};
          if (s == 2) mn = CellPos{c.x - 1, c.y - 3, c.z - 1}, mx = CellPos{c.x + 1, c.y, c.z + 1};
          if (s == 3) v = below(2) ? B.ladder : B.water;
          if (w->set_box(pos(mn), pos(mx), v) == Status::Ok) {
            boxes.push_back({mn, mx});
            std::snprintf(buf, sizeof buf, "edit %s..%s=%u; ", str(mn).c_str(), str(mx).c_str(), v);
          }
          ++ops[4];
          break;
        }
      }
      log += buf;
    }
    w->update();
    const std::string what =
        std::string("[") + mode.name + "] update " + std::to_string(u) + ": " + log;
    lc_check_all(*w, {}, t, what);
    std::vector<CellPos> near;
    for (const auto& [mn, mx] : boxes)
      for (int y = mn.y - 4; y <= mx.y + 4; ++y)
        for (int z = mn.z - 8; z <= mx.z + 8; ++z)
          for (int x = mn.x - 8; x <= mx.x + 8; ++x)
            if (g.standable(CellPos{x, y, z})) near.push_back(CellPos{x, y, z});
    check_pairs(*w, pid, near, rng, 4, t, what);
    check_pairs(*w, pid, pool_cells, rng, 4, t, what);
    if (u % 25 == 24 && nav.pending_builds() == 0) full_compare_all(*w, pid, t, what, others);
  }
  for (int k = 0; k < 4 && nav.pending_builds() > 0; ++k) w->update();
  lc_check_all(*w, {}, t, std::string("[") + mode.name + "] settled");
  if (nav.pending_builds() == 0)
    full_compare_all(*w, pid, t, std::string("[") + mode.name + "] settled", others);
  const detail::IslandStats& is = nav.islands().stats();
  std::printf(
      "[%s] %d updates (%zu reloads, %zu unload+load, %zu unloads/loads, %zu big boxes, %zu "
      "edits): %zu pairs (%zu yes, %zu no), %zu bad, %zu octant caches checked, %zu stale, %zu "
      "compares; islands: %llu deltas, %llu rebuilds, %llu component searches, %llu caches built, "
      "%llu fallbacks (%.1f s)\n",
      mode.name, kUpdates, ops[0], ops[1], ops[2], ops[3], ops[4], t.pairs, t.yes, t.no, t.bad,
      t.lc_octants, t.lc_bad, t.compares, static_cast<unsigned long long>(is.deltas),
      static_cast<unsigned long long>(is.rebuilds),
      static_cast<unsigned long long>(is.component_searches),
      static_cast<unsigned long long>(is.components_built),
      static_cast<unsigned long long>(is.fallbacks),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  EXPECT_EQ(t.bad, 0u);
  EXPECT_EQ(t.lc_bad, 0u);
  EXPECT_EQ(t.diffs, 0u);
}

const ChunkCase kChunkCases[] = {
    {"v1_18_2_no_streaming", "/minecraft/regions/1.18.2/r.0.0.mca", false, 0, 0, 200},
    {"v1_16_no_streaming", "/minecraft/regions/1.16/r.0.-1.mca", false, 0, 0, 200},
    {"v1_18_2_streaming", "/minecraft/regions/1.18.2/r.0.0.mca", true, 0, 0, 200},
    {"v1_16_streaming_lockstep2", "/minecraft/regions/1.16/r.0.-1.mca", true, 2, 0, 200},
    {"v1_12_2_streaming_pool2", "/minecraft/regions/1.12.2/r.0.-1.mca", true, 0, 2, 200},
    {"v1_16_all_classes", "/minecraft/regions/1.16/r.0.-1.mca", false, 0, 0, 120, true},
    {"v1_18_2_all_classes_streaming", "/minecraft/regions/1.18.2/r.0.0.mca", true, 0, 0, 120, true},
    {"v1_16_streaming_toggled_lockstep1", "/minecraft/regions/1.16/r.0.-1.mca", true, 1, 0, 200,
     false, true},
    {"v1_12_2_streaming_toggled_pool2", "/minecraft/regions/1.12.2/r.0.-1.mca", true, 0, 2, 200,
     false, true},
};
INSTANTIATE_TEST_SUITE_P(Modes, LocalComponentsChunks, ::testing::ValuesIn(kChunkCases),
                         [](const ::testing::TestParamInfo<ChunkCase>& i) {
                           return std::string(i.param.name);
                         });

// =============================================================================================
// The checker itself: a cache put back to what it was before an edit changed its moves (and
// marked current) must be reported. Without this the checks above could pass vacuously.

TEST(LocalComponentsChecker, SeesACacheThatMissedAnEdit) {
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w.block_value("air", &air), Status::Ok);
  ASSERT_TRUE(test::load_flat_floor(w, stone));
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  w.update();
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  // Every octant of the floor's chunks was computed at load.
  const CellPos c{4, 1, 4};
  NavChunk* ch = nav.grid().chunk(detail::chunk_of(c));
  ASSERT_TRUE(ch && ch->comps);
  const int o = detail::octant_of(detail::index_in_chunk(c));
  ASSERT_EQ((*ch->comps)[static_cast<std::size_t>(o)].gen, comps_gen(nav));
  EXPECT_EQ(check_local_components(nav).bad, 0u);
  const LocalComponents before = (*ch->comps)[static_cast<std::size_t>(o)];
  ASSERT_EQ(w.set_box(pos(CellPos{4, 1, 0}), pos(CellPos{4, 2, 7}), stone), Status::Ok);  // a wall
  w.update();
  EXPECT_EQ(check_local_components(nav).bad, 0u);
  (*ch->comps)[static_cast<std::size_t>(o)] = before;
  (*ch->comps)[static_cast<std::size_t>(o)].gen = comps_gen(nav);
  const LcCheck r = check_local_components(nav);
  EXPECT_GT(r.bad, 0u) << "the checker did not see a cache from before the edit";
  std::printf("checker on a planted stale cache: %s\n", r.first.c_str());
}

// =============================================================================================
// Extremes: a synthetic 4x4-column world around the origin (negative x and z, the origin on a
// chunk and octant corner) at the top (y 2016 .. 2047) or the bottom (y -2047 ..) of the cell
// range: a floor with a maze of walls; walls grow and get openings, openings close, tunnels are
// dug through a raised block, boxes of more than 512 cells. Caches, pairs and a fresh build.

struct ExtremeCase {
  const char* name;
  int cy;       // the lower section's chunk y
  int floor_y;  // floor cell y (stone), bodies stand one above
};
void PrintTo(const ExtremeCase& c, std::ostream* os) { *os << c.name; }
class LocalComponentsExtremes : public ::testing::TestWithParam<ExtremeCase> {};

TEST_P(LocalComponentsExtremes, MazeEditsAtTheRangeLimitsKeepCachesExact) {
  const ExtremeCase m = GetParam();
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  const Blocks B = blocks_of(w);
  std::vector<std::uint16_t> values(detail::kChunkCells);
  for (int cy = m.cy; cy <= m.cy + 1; ++cy)
    for (int cz = -2; cz <= 1; ++cz)
      for (int cx = -2; cx <= 1; ++cx) {
        for (int i = 0; i < detail::kChunkCells; ++i) {
          const int y = cy * 16 + (i >> 8);
          const int x = cx * 16 + (i & 15), z = cz * 16 + ((i >> 4) & 15);
          std::uint16_t v = B.air;
          if (y <= m.floor_y) v = B.stone;
          // A maze: walls two high on every 6th line with openings every 7 cells.
          if (y > m.floor_y && y <= m.floor_y + 2 &&
              ((((x % 6) + 6) % 6 == 0 && ((z % 7) + 7) % 7 != 3) ||
               (((z % 6) + 6) % 6 == 0 && ((x % 7) + 7) % 7 != 3)))
            v = B.stone;
          values[static_cast<std::size_t>(i)] = v;
        }
        ASSERT_EQ(w.load_chunk(voxnav::ChunkPos{cx, cy, cz}, values), Status::Ok)
            << cx << "," << cy << "," << cz;
      }
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  w.update();
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  const NavGrid& g = nav.grid();
  const int fy = m.floor_y + 1;
  Rng rng{0xE87E0000u + static_cast<std::uint64_t>(m.cy + 1000) + env_seed()};
  auto rnd = [&](int lo, int hi) {
    return lo + static_cast<int>(rng.below(static_cast<std::uint32_t>(hi - lo + 1)));
  };
  Tally t;
  std::vector<CellPos> near;
  const int kUpdates = test::rounds(160, 50, kScaleEnv);
  std::vector<std::pair<CellPos, CellPos>> boxes;
  for (int u = 0; u < kUpdates && t.bad == 0 && t.lc_bad == 0 && t.diffs == 0; ++u) {
    boxes.clear();
    std::string log;
    const CellPos c{rnd(-14, 13), fy, rnd(-14, 13)};
    CellPos mn = c, mx = c;
    switch (rng.below(7)) {
      case 0: {  // a long wall along x or z through the origin's lines, with or without opening
        const bool alongx = rng.below(2);
        const int len = rnd(10, 28);
        mn = alongx ? CellPos{-len / 2, fy, c.z} : CellPos{c.x, fy, -len / 2};
        mx = alongx ? CellPos{len / 2, fy + 1, c.z} : CellPos{c.x, fy + 1, len / 2};
        (void)w.set_box(pos(mn), pos(mx), B.stone);
        if (rng.below(2)) {
          const CellPos o = alongx ? CellPos{rnd(mn.x, mx.x), fy, c.z} : CellPos{c.x, fy, rnd(mn.z, mx.z)};
          (void)w.set_box(pos(o), pos(CellPos{o.x, fy + 1, o.z}), B.air);
        }
        log = "wall " + str(mn) + ".." + str(mx);
        break;
      }
      case 1: {  // an opening in a wall, closed again later by case 0
        mx = CellPos{c.x, fy + 1, c.z};
        (void)w.set_box(pos(mn), pos(mx), B.air);
        log = "opening " + str(c);
        break;
      }
      case 2: {  // a raised block with a tunnel through it
        mn = CellPos{c.x - 3, fy, c.z - 3}, mx = CellPos{c.x + 3, fy + 3, c.z + 3};
        (void)w.set_box(pos(mn), pos(mx), B.stone);
        if (rng.below(2))
          (void)w.set_box(pos(CellPos{c.x - 3, fy, c.z}), pos(CellPos{c.x + 3, fy + 1, c.z}), B.air);
        else
          (void)w.set_box(pos(CellPos{c.x, fy, c.z - 3}), pos(CellPos{c.x, fy + 1, c.z + 3}), B.air);
        log = "block+tunnel " + str(c);
        break;
      }
      case 3: {  // clear a region (more than 512 cells: chunk level)
        mn = CellPos{c.x - 9, fy, c.z - 9}, mx = CellPos{c.x + 9, fy + 3, c.z + 9};
        (void)w.set_box(pos(mn), pos(mx), B.air);
        log = "clear " + str(c);
        break;
      }
      case 4: {  // a pit (one-way drops) or a pillar
        mn = CellPos{c.x - 1, fy - 3, c.z - 1}, mx = CellPos{c.x + 1, fy - 1, c.z + 1};
        (void)w.set_box(pos(mn), pos(mx), rng.below(2) ? B.air : B.stone);
        log = "pit " + str(c);
        break;
      }
      case 5: {  // ladders, doors, water
        const std::uint16_t vs[] = {B.ladder, B.water, B.door_lo, B.fence, B.slab};
        const std::uint16_t v = vs[rng.below(5)];
        (void)w.set_block(pos(c), v);
        if (v == B.door_lo) (void)w.set_block(pos(CellPos{c.x, fy + 1, c.z}), B.door_hi);
        mx.y += 1;
        log = "special " + str(c);
        break;
      }
      default: {  // a block on top of the walls (a roof) or at the top of the range
        mn = CellPos{c.x - 2, fy + 2, c.z - 2}, mx = CellPos{c.x + 2, fy + 2, c.z + 2};
        (void)w.set_box(pos(mn), pos(mx), rng.below(2) ? B.stone : B.air);
        log = "roof " + str(c);
        break;
      }
    }
    boxes.push_back({mn, mx});
    w.update();
    const std::string what =
        std::string("[") + m.name + "] update " + std::to_string(u) + " " + log;
    lc_check(nav, {}, t, what);
    near.clear();
    for (int y = fy - 4; y <= fy + 4; ++y)
      for (int z = -32; z < 32; ++z)
        for (int x = -32; x < 32; ++x)
          if (g.standable(CellPos{x, y, z})) near.push_back(CellPos{x, y, z});
    check_pairs(w, pid, near, rng, 10, t, what);
    if (u % 40 == 39 || u + 1 == kUpdates) full_compare_all(w, pid, t, what);
  }
  const detail::IslandStats& is = nav.islands().stats();
  std::printf(
      "[%s] %d updates: %zu pairs (%zu yes, %zu no), %zu bad, %zu octant caches checked, %zu "
      "stale, %zu compares; islands: %llu deltas, %llu split checks, %llu component searches, "
      "%llu fallbacks\n",
      m.name, kUpdates, t.pairs, t.yes, t.no, t.bad, t.lc_octants, t.lc_bad, t.compares,
      static_cast<unsigned long long>(is.deltas), static_cast<unsigned long long>(is.split_checks),
      static_cast<unsigned long long>(is.component_searches),
      static_cast<unsigned long long>(is.fallbacks));
  EXPECT_EQ(t.bad, 0u);
  EXPECT_EQ(t.lc_bad, 0u);
  EXPECT_EQ(t.diffs, 0u);
  EXPECT_GT(t.no, 0u);
  EXPECT_GT(is.component_searches, 0u);
}

const ExtremeCase kExtremes[] = {
    {"top", 126, 2036},            // cells 2016 .. 2047; bodies stand at 2037, heads near the limit
    {"bottom", -127, -2030},       // cells -2032 .. -2001
    {"bottom_edge", -127, -2032},  // the floor on the lowest cell of the lowest loadable section
};
INSTANTIATE_TEST_SUITE_P(Range, LocalComponentsExtremes, ::testing::ValuesIn(kExtremes),
                         [](const ::testing::TestParamInfo<ExtremeCase>& i) {
                           return std::string(i.param.name);
                         });

// =============================================================================================
// Agents over gap jumps: a synthetic 4x4-column world whose floor (y 8, over a void to y 4) has
// one-cell trenches every 5 cells (too deep to drop into: gap jumps), 16 agents walking between
// random cells, and every tick an edit near the corridor ahead of an agent: within two columns
// and from five below to five above a corridor cell (ceilings over take-offs and landings,
// blocks in the trenches, holes next to the path). After every tick the corridor ahead of every
// Moving agent must be a valid move sequence on the current layers, and the caches exact.

struct AgentMode2 {
  const char* name;
  int lockstep;
  int threads;
};
void PrintTo(const AgentMode2& c, std::ostream* os) { *os << c.name; }
class LocalComponentsAgents : public ::testing::TestWithParam<AgentMode2> {};

TEST_P(LocalComponentsAgents, GapJumpCorridorsStayValidUnderNearbyEdits) {
  std::unique_ptr<native::ThreadPool> pool;
  WorldDef def;
  def.lockstep_delay = GetParam().lockstep;
  if (GetParam().threads > 0) {
    pool = std::make_unique<native::ThreadPool>(GetParam().threads);
    def.executor = pool.get();
  }
  World w(def);
  ASSERT_TRUE(test::load_real_blocks(w));
  const Blocks B = blocks_of(w);
  std::vector<std::uint16_t> values(detail::kChunkCells);
  auto floor_at = [](int x, int z) {
    return ((x % 5) + 5) % 5 != 2 && ((z % 5) + 5) % 5 != 2;  // trenches on x, z = 2 mod 5
  };
  for (int cy = 0; cy <= 1; ++cy)
    for (int cz = -2; cz <= 1; ++cz)
      for (int cx = -2; cx <= 1; ++cx) {
        for (int i = 0; i < detail::kChunkCells; ++i) {
          const int y = cy * 16 + (i >> 8);
          const int x = cx * 16 + (i & 15), z = cz * 16 + ((i >> 4) & 15);
          std::uint16_t v = B.air;
          if (y <= 3 || (y == 8 && floor_at(x, z))) v = B.stone;
          values[static_cast<std::size_t>(i)] = v;
        }
        ASSERT_EQ(w.load_chunk(voxnav::ChunkPos{cx, cy, cz}, values), Status::Ok);
      }
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  w.update();
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  const NavGrid& g = nav.grid();
  const detail::AgentSystem& sys = detail::WorldAccess::state(w).agents;
  std::vector<CellPos> top;
  for (int z = -30; z < 30; ++z)
    for (int x = -30; x < 30; ++x)
      if (g.standable(CellPos{x, 9, z})) top.push_back(CellPos{x, 9, z});
  ASSERT_GT(top.size(), 1000u);
  {  // the world has gap jumps
    std::size_t gaps = 0;
    for (const CellPos& c : top) gaps += g.gaps(c) != 0;
    ASSERT_GT(gaps, 100u);
  }
  Rng rng{0x6A9A6E + env_seed()};
  auto below = [&](std::size_t n) { return rng.below(static_cast<std::uint32_t>(n)); };
  std::vector<AgentId> agents;
  for (int i = 0; i < 16 * env_scale(); ++i) {
    const CellPos c = top[below(top.size())];
    double feet = 0;
    ASSERT_EQ(w.standing_height(pid, pos(c), &feet), Status::Ok);
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{pid, Vec3{c.x + 0.5, feet, c.z + 0.5}}, &id), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, pos(top[below(top.size())])), Status::Ok);
    agents.push_back(id);
  }
  std::size_t bad_corridors = 0, edits = 0, gap_edits = 0;
  std::uint64_t repairs = 0, replans = 0, arrivals = 0;
  Tally t;
  const int kTicks = test::rounds(3000, 300, kScaleEnv);
  std::string ops;
  const std::uint16_t palette[] = {B.stone, B.stone, B.air, B.air, B.slab, B.fence, B.glass};
  for (int tk = 0; tk < kTicks && bad_corridors == 0 && t.lc_bad == 0; ++tk) {
    ops.clear();
    const detail::AgentRecord& a = sys.at(below(agents.size()));
    if (a.alive && a.mode == AgentMode::Moving &&
        a.cell_index + 2 < a.corridor.cells.size()) {
      // Prefer the take-off or landing of a gap jump ahead.
      std::size_t k = a.cell_index + 1 +
                      below(std::min<std::size_t>(10, a.corridor.cells.size() - a.cell_index - 1));
      for (std::size_t j = a.cell_index + 1;
           j < std::min(a.corridor.cells.size(), a.cell_index + 12); ++j)
        if (a.corridor.kinds[j] == EdgeKind::GapJump && below(2)) {
          k = below(2) ? j - 1 : j;
          ++gap_edits;
          break;
        }
      const CellPos c = a.corridor.cells[k];
      const CellPos e{c.x + static_cast<int>(below(5)) - 2, c.y + static_cast<int>(below(11)) - 5,
                   c.z + static_cast<int>(below(5)) - 2};
      const std::uint16_t v = palette[below(7)];
      if (e.y >= 4 && e.y < 30 && w.set_block(pos(e), v) == Status::Ok) {
        ++edits;
        ops += "edit " + str(e) + "=" + std::to_string(v) + " near " + str(c) + "; ";
      }
    }
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      const detail::AgentRecord& r = sys.at(agents[i].index);
      if (r.mode == AgentMode::Moving &&
          !detail::path_still_valid(g, r.corridor.cells, r.corridor.kinds, r.cell_index)) {
        std::size_t k = r.cell_index;
        while (k + 1 < r.corridor.cells.size() &&
               detail::path_still_valid(
                   g, std::vector<CellPos>{r.corridor.cells[k], r.corridor.cells[k + 1]},
                   std::vector<EdgeKind>{r.corridor.kinds[k], r.corridor.kinds[k + 1]}, 0))
          ++k;
        if (++bad_corridors <= 5)
          ADD_FAILURE() << "tick " << tk << ": agent " << i << " is Moving along a corridor whose "
                        << "step " << str(r.corridor.cells[k]) << " -> "
                        << str(r.corridor.cells[std::min(k + 1, r.corridor.cells.size() - 1)])
                        << " ("
                        << edge_kind_name(
                               r.corridor.kinds[std::min(k + 1, r.corridor.kinds.size() - 1)])
                        << ") no longer exists; ops: " << ops;
      }
      AgentState st;
      ASSERT_EQ(w.agent_state(agents[i], &st), Status::Ok);
      if (st.mode == AgentMode::Arrived || st.mode == AgentMode::Failed ||
          st.mode == AgentMode::Blocked || st.mode == AgentMode::Idle)
        (void)w.set_agent_goal(agents[i], pos(top[below(top.size())]));
    }
    if (tk % 10 == 0) lc_check(nav, {}, t, "tick " + std::to_string(tk) + ": " + ops);
  }
  full_compare_all(w, pid, t, "agents at the end");
  for (AgentId id : agents) {
    AgentState st;
    ASSERT_EQ(w.agent_state(id, &st), Status::Ok);
    repairs += st.repairs, replans += st.replans, arrivals += st.arrivals;
  }
  std::printf(
      "[%s] agents over gap jumps: %d ticks, %zu edits (%zu at gap jumps), %llu arrivals, %llu "
      "repairs, %llu replans, %zu bad corridors, %zu octant caches checked, %zu stale\n",
      GetParam().name, kTicks, edits, gap_edits, static_cast<unsigned long long>(arrivals),
      static_cast<unsigned long long>(repairs), static_cast<unsigned long long>(replans),
      bad_corridors, t.lc_octants, t.lc_bad);
  EXPECT_EQ(bad_corridors, 0u);
  EXPECT_EQ(t.lc_bad, 0u);
  EXPECT_EQ(t.diffs, 0u);
  EXPECT_GT(arrivals, 10u);
}

const AgentMode2 kAgentModes[] = {{"sync", 0, 0}, {"lockstep2_pool2", 2, 2}};
INSTANTIATE_TEST_SUITE_P(Modes, LocalComponentsAgents, ::testing::ValuesIn(kAgentModes),
                         [](const ::testing::TestParamInfo<AgentMode2>& i) {
                           return std::string(i.param.name);
                         });

// =============================================================================================
// Edits on octant borders next to current octants: an edit that changes only moves leaving an
// octant keeps it current and patches its components' moves out (Islands::patch_out). Synthetic
// terrain whose steps, trenches, ladders, pool and pits cross octant and chunk borders in x, y and
// z; every octant is made current between updates (Islands::refresh_components) so that the edits
// go through the patch rather than a recomputation.

struct XBlocks {
  Blocks b;
  std::uint16_t fire = 0, magma = 0, cactus = 0, door_lo_open = 0, vine = 0;
};
XBlocks xblocks_of(World& w) {
  XBlocks x;
  x.b = blocks_of(w);
  EXPECT_EQ(w.block_value("fire", &x.fire), Status::Ok);
  EXPECT_EQ(w.block_value("magma_block", &x.magma), Status::Ok);
  EXPECT_EQ(w.block_value("cactus", &x.cactus), Status::Ok);
  EXPECT_EQ(w.block_value("oak_door[half=lower,open=true]", &x.door_lo_open), Status::Ok);
  EXPECT_EQ(w.block_value("vine", &x.vine), Status::Ok);
  return x;
}

/// Makes every octant of every class current (so that edits hit current octants and patch them).
std::size_t refresh_all(World& w) {
  std::size_t n = 0;
  for (detail::NavWorld* nav : detail::WorldAccess::state(w).navs())
    n += nav->islands().refresh_components(nav->grid());
  return n;
}

/// reachable() of a profile of any class vs the BFS over that class's move words (lenient on
/// gates: Yes and Unknown(gated) need a path through any gate, No needs none).
void check_pairs_class(World& w, ProfileId pid, detail::NavWorld& nav,
                       const std::vector<CellPos>& cells, Rng& rng, int count, Tally& t,
                       const std::string& what) {
  if (cells.size() < 2) return;
  const NavGrid& g = nav.grid();
  PairOracle oracle(g);
  for (int k = 0; k < count; ++k) {
    const CellPos a = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    const CellPos b = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    if (!g.standable(a) || !g.standable(b)) continue;
    const Reach r = w.reachable(pid, pos(a), pos(b));
    const bool all = oracle.reaches(a, b);
    ++t.pairs;
    (all ? t.yes : t.no) += 1;
    bool ok = false;
    if (r.answer == ReachAnswer::Yes)
      ok = all;
    else if (r.answer == ReachAnswer::No)
      ok = !all;
    else if (r.reason == ReachReason::DoorGated || r.reason == ReachReason::ProfileRestricted)
      ok = all;
    else if (r.reason == ReachReason::NotLoaded)
      ok = nav.pending_builds() > 0;
    if (!ok && ++t.bad <= 5)
      ADD_FAILURE() << what << ": class reachable " << str(a) << " -> " << str(b) << " = "
                    << reach_answer_name(r.answer) << "/" << reach_reason_name(r.reason)
                    << ", BFS (any gate) says " << (all ? "yes" : "no");
  }
}

struct Terrain {
  int y0;  // the chunk border between the two chunk layers
  std::uint64_t seed;
  std::vector<int> h;  // surface height per column, x,z in [-32, 31]
  int hx(int x, int z) const { return h[static_cast<std::size_t>((x + 32) + 64 * (z + 32))]; }
};

std::uint16_t terrain_block(const Terrain& T, const XBlocks& X, int x, int y, int z) {
  const Blocks& B = X.b;
  const int hh = T.hx(x, z);
  // A pool across chunk borders x = -16, z = 16 and the chunk border y0.
  const bool pool = x >= -24 && x <= -9 && z >= 8 && z <= 24;
  if (pool) {
    if (y <= T.y0 - 7) return B.stone;
    if (y <= T.y0 + 2) return B.water;
    return B.air;
  }
  if (y <= hh) {
    // Trenches along x = 7 mod 16 and z = 8 mod 16 lines every other cell (gap jumps).
    if (y >= hh - 2 &&
        ((((x % 16) + 16) % 16 == 7 && (z & 1)) || (((z % 16) + 16) % 16 == 8 && (x % 3 == 0))))
      return B.air;
    return B.stone;
  }
  // Ladders on cliff faces: a column next to a higher column.
  std::uint64_t hsh = (std::uint64_t(std::uint32_t(x)) * 0x9E3779B1u) ^
                      (std::uint64_t(std::uint32_t(z)) * 0x85EBCA77u) ^ T.seed;
  hsh ^= hsh >> 13;
  hsh *= 0xC2B2AE3D27D4EB4Full;
  hsh ^= hsh >> 29;
  if (x > -32 && x < 31 && T.hx(x + 1, z) > hh + 1 && y <= T.hx(x + 1, z) && (hsh & 3) == 0)
    return B.ladder;
  if (y == hh + 1) {
    switch (hsh % 41) {
      case 0:
        return X.fire;
      case 1:
        return B.lava;
      case 2:
        return B.slab;
      case 3:
        return B.fence;
      case 4:
        return B.soul;
      case 5:
        return X.cactus;
      default:
        break;
    }
  }
  return B.air;
}

Terrain make_terrain(int y0, std::uint64_t seed, bool pillars = false) {
  Terrain T;
  T.y0 = y0;
  T.seed = seed;
  Rng r{seed};
  T.h.resize(64 * 64);
  // Tiles of 3 x 3 columns, heights a random walk around y0 (steps of up to 5: drops up to 7 across
  // tiles), crossing the octant borders y0 - 8, y0, y0 + 8.
  std::vector<int> tile(22 * 22);
  for (int tz = 0; tz < 22; ++tz)
    for (int tx = 0; tx < 22; ++tx) {
      int base = y0;
      if (tx > 0) base = tile[static_cast<std::size_t>(tx - 1 + 22 * tz)];
      if (tz > 0 && (r.below(2) || tx == 0))
        base = tile[static_cast<std::size_t>(tx + 22 * (tz - 1))];
      int v = base + static_cast<int>(r.below(11)) - 5;
      v = std::max(y0 - 13, std::min(y0 + 10, v));
      tile[static_cast<std::size_t>(tx + 22 * tz)] = v;
    }
  for (int z = -32; z < 32; ++z)
    for (int x = -32; x < 32; ++x)
      T.h[static_cast<std::size_t>((x + 32) + 64 * (z + 32))] =
          tile[static_cast<std::size_t>((x + 32) / 3 + 22 * ((z + 32) / 3))];
  if (pillars) {
    // One column at a time: heights around the border y0 - 1 / y0 (drops of 1..7 between
    // neighbours), pits (gap jumps over them), on the octant and chunk borders x, z = 8k - 2 .. 8k
    // + 1.
    for (int z = -32; z < 32; ++z)
      for (int x = -32; x < 32; ++x) {
        const int mx = ((x % 8) + 8) % 8, mz = ((z % 8) + 8) % 8;
        if (!((mx >= 5) || (mz >= 5) || mx <= 2 || mz <= 2)) continue;
        int v = y0 - 1 + static_cast<int>(r.below(9)) - 4;
        if (r.below(6) == 0) v = y0 - 12;  // a pit
        if (r.below(3) == 0) v = T.h[static_cast<std::size_t>((x + 32) + 64 * (z + 32))];
        T.h[static_cast<std::size_t>((x + 32) + 64 * (z + 32))] = v;
      }
  }
  return T;
}

struct SynthCase {
  const char* name;
  int cy;  // lower chunk layer
  std::uint64_t seed;
  int updates;
  bool classes;
  bool chunks;  // also unload / load / reload chunks
  bool streaming;
  bool pillars = false;
  std::uint64_t offset = 0;  // added to the seeds, as VOXNAV_LC_SEED is
};
void PrintTo(const SynthCase& c, std::ostream* os) { *os << c.name; }
class LocalComponentsBorders : public ::testing::TestWithParam<SynthCase> {};

TEST_P(LocalComponentsBorders, BorderEditsKeepCachesExact) {
  const SynthCase m = GetParam();
  const auto t0 = std::chrono::steady_clock::now();
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  const XBlocks X = xblocks_of(w);
  const Blocks& B = X.b;
  const int y0 = (m.cy + 1) * 16;
  const Terrain T = make_terrain(y0, m.seed + m.offset + env_seed(), m.pillars);
  std::vector<std::uint16_t> values(detail::kChunkCells);
  auto chunk_values = [&](int cx, int cy, int cz) {
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const int y = cy * 16 + (i >> 8);
      const int x = cx * 16 + (i & 15), z = cz * 16 + ((i >> 4) & 15);
      values[static_cast<std::size_t>(i)] = terrain_block(T, X, x, y, z);
    }
  };
  std::vector<ChunkPos> all_chunks;
  for (int cy = m.cy; cy <= m.cy + 1; ++cy)
    for (int cz = -2; cz <= 1; ++cz)
      for (int cx = -2; cx <= 1; ++cx) {
        chunk_values(cx, cy, cz);
        ASSERT_EQ(w.load_chunk(voxnav::ChunkPos{cx, cy, cz}, values), Status::Ok);
        all_chunks.push_back({cx, cy, cz});
      }
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  w.update();
  std::vector<ProfileId> others;
  if (m.classes) others = add_other_classes(w);
  if (m.streaming) w.set_chunk_streaming(true);
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  Rng rng{m.seed * 31 + 7 + m.offset + env_seed()};
  auto rnd = [&](int lo, int hi) {
    return lo + static_cast<int>(rng.below(static_cast<std::uint32_t>(hi - lo + 1)));
  };
  // A coordinate near an octant border (8k - 2 .. 8k + 1).
  auto border = [&](int lo, int hi) {
    for (;;) {
      const int v = 8 * rnd(lo / 8, hi / 8) + rnd(-2, 1);
      if (v >= lo && v <= hi) return v;
    }
  };
  Tally t;
  std::size_t edits = 0, refreshed = 0, ops[12] = {};
  struct Undo {
    CellPos c;
    std::uint16_t v;
  };
  std::vector<Undo> undo;
  auto put = [&](const CellPos& c, std::uint16_t v) {
    std::uint16_t old = 0;
    if (w.get_block(pos(c), &old) != Status::Ok) return;
    if (w.set_block(pos(c), v) != Status::Ok) return;
    undo.push_back({c, old});
    ++edits;
  };
  std::vector<CellPos> doors;
  refreshed += refresh_all(w);
  const int kUpdates = test::rounds(m.updates * 2 / 5, m.updates / 12, kScaleEnv);
  const std::uint64_t patches0 = nav.islands().stats().out_patches;
  std::vector<std::pair<CellPos, CellPos>> boxes;
  for (int u = 0; u < kUpdates && t.bad == 0 && t.lc_bad == 0 && t.diffs == 0; ++u) {
    boxes.clear();
    std::string log;
    const int n = rng.below(3) == 0 ? rnd(2, 7) : 1;
    for (int k = 0; k < n; ++k) {
      const int x = border(-30, 29), z = border(-30, 29);
      const int hh = T.hx(x, z);
      // y: near the surface or near an octant border in y
      const int y = rng.below(2) ? hh + rnd(-2, 3) : border(y0 - 14, y0 + 12);
      const CellPos c{x, y, z};
      CellPos mn = c, mx = c;
      char buf[160];
      const std::uint32_t what = rng.below(100);
      if (what < 30) {
        const std::uint16_t vs[] = {B.air,  B.stone, B.stone,  B.air,    B.water,  B.fence,
                                    B.slab, B.soul,  B.glass,  B.ladder, B.ladder, B.lava,
                                    X.fire, X.magma, X.cactus, X.vine};
        const std::uint16_t v = vs[rng.below(16)];
        put(c, v);
        std::snprintf(buf, sizeof buf, "blk%s=%u ", str(c).c_str(), v);
        ++ops[0];
      } else if (what < 45) {  // a column raised or dug: drops of 1..7 across y borders
        const int h = rnd(1, 7);
        const bool up = rng.below(2);
        if (up) {
          mn = CellPos{x, hh + 1, z}, mx = CellPos{x, hh + h, z};
        } else {
          mn = CellPos{x, hh - h + 1, z}, mx = CellPos{x, hh, z};
        }
        for (int yy = mn.y; yy <= mx.y; ++yy) put(CellPos{x, yy, z}, up ? B.stone : B.air);
        std::snprintf(buf, sizeof buf, "col%s%s%d ", str(c).c_str(), up ? "+" : "-", h);
        ++ops[1];
      } else if (what < 55) {  // a trench one wide across an octant border (gap jumps)
        const bool alongx = rng.below(2);
        const int len = rnd(2, 9);
        for (int s = 0; s < len; ++s) {
          const int xx = alongx ? x + s : x, zz = alongx ? z : z + s;
          if (xx > 31 || zz > 31) break;
          const int top = T.hx(std::min(xx, 31), std::min(zz, 31));
          for (int yy = top - 2; yy <= top; ++yy) put(CellPos{xx, yy, zz}, B.air);
          mx = CellPos{xx, top, zz};
        }
        mn.y -= 3;
        std::snprintf(buf, sizeof buf, "trench%s ", str(c).c_str());
        ++ops[2];
      } else if (what < 65) {  // a ladder column across a y border
        const int h = rnd(2, 9);
        const int by = rng.below(2) ? hh + 1 : border(y0 - 12, y0 + 8);
        for (int yy = 0; yy < h; ++yy) put(CellPos{x, by + yy, z}, B.ladder);
        if (rng.below(2)) put(CellPos{x + 1, by + h - 1, z}, B.stone);
        mn = CellPos{x, by, z}, mx = CellPos{x + 1, by + h, z};
        std::snprintf(buf, sizeof buf, "ladder%s h%d ", str(CellPos{x, by, z}).c_str(), h);
        ++ops[3];
      } else if (what < 73) {  // a door
        const CellPos d{x, hh + 1, z};
        put(d, rng.below(2) ? B.door_lo : X.door_lo_open);
        put(CellPos{x, hh + 2, z}, B.door_hi);
        if (rng.below(2)) {
          put(CellPos{x + 1, hh + 1, z}, B.stone);
          put(CellPos{x - 1, hh + 1, z}, B.stone);
        }
        doors.push_back(d);
        mn = d, mx = CellPos{x, hh + 2, z};
        std::snprintf(buf, sizeof buf, "door%s ", str(d).c_str());
        ++ops[4];
      } else if (what < 80 && !doors.empty()) {
        const CellPos d = doors[rng.below(static_cast<std::uint32_t>(doors.size()))];
        (void)w.set_door_open(pos(d), rng.below(2) != 0);
        mn = mx = d;
        std::snprintf(buf, sizeof buf, "toggle%s ", str(d).c_str());
        ++ops[5];
      } else if (what < 88 && !undo.empty()) {
        const int mm = rnd(1, 10);
        for (int j = 0; j < mm && !undo.empty(); ++j) {
          const Undo q = undo.back();
          undo.pop_back();
          (void)w.set_block(pos(q.c), q.v);
          boxes.push_back({q.c, q.c});
        }
        std::snprintf(buf, sizeof buf, "undo%d ", mm);
        ++ops[6];
      } else if (what < 94) {  // a block set and set back in the same update, plus a neighbour
        std::uint16_t old = 0;
        if (w.get_block(pos(c), &old) == Status::Ok) {
          (void)w.set_block(pos(c), old == B.air ? B.stone : B.air);
          const CellPos c2{x + rnd(-1, 1), y + rnd(-1, 1), z + rnd(-1, 1)};
          std::uint16_t old2 = 0;
          if (w.get_block(pos(c2), &old2) == Status::Ok)
            (void)w.set_block(pos(c2), old2 == B.air ? B.slab : B.air);
          (void)w.set_block(pos(c), old);
          mn = CellPos{x - 1, y - 1, z - 1}, mx = CellPos{x + 1, y + 1, z + 1};
        }
        std::snprintf(buf, sizeof buf, "flip%s ", str(c).c_str());
        ++ops[7];
      } else {  // water / air in the pool
        const CellPos p{rnd(-25, -8), rnd(y0 - 7, y0 + 3), rnd(7, 25)};
        put(p, rng.below(3) == 0 ? B.stone : (rng.below(2) ? B.air : B.water));
        mn = mx = p;
        std::snprintf(buf, sizeof buf, "pool%s ", str(p).c_str());
        ++ops[8];
      }
      boxes.push_back({mn, mx});
      log += buf;
    }
    if (m.chunks && rng.below(5) == 0) {
      const ChunkPos p = all_chunks[rng.below(static_cast<std::uint32_t>(all_chunks.size()))];
      const detail::Space& space = detail::WorldAccess::state(w).space;
      char buf[120];
      switch (rng.below(4)) {
        case 0:
          if (space.chunk(p)) {
            (void)w.unload_chunk(voxnav::ChunkPos{p.x, p.y, p.z});
            std::snprintf(buf, sizeof buf, "unload %s ", str(p).c_str());
            break;
          }
          [[fallthrough]];
        case 1: {  // (re)load from the terrain (edits there are lost)
          chunk_values(p.x, p.y, p.z);
          (void)w.load_chunk(voxnav::ChunkPos{p.x, p.y, p.z}, values);
          std::snprintf(buf, sizeof buf, "load %s ", str(p).c_str());
          break;
        }
        case 2: {  // unload + load in one update
          (void)w.unload_chunk(voxnav::ChunkPos{p.x, p.y, p.z});
          chunk_values(p.x, p.y, p.z);
          if (rng.below(2))
            for (int i = 0; i < 256; ++i)
              values[static_cast<std::size_t>(i + 256 * rnd(0, 15))] = B.air;
          (void)w.load_chunk(voxnav::ChunkPos{p.x, p.y, p.z}, values);
          std::snprintf(buf, sizeof buf, "unload+load %s ", str(p).c_str());
          break;
        }
        default: {  // reload with a layer of stone at a random y
          chunk_values(p.x, p.y, p.z);
          const int ly = rnd(0, 15);
          for (int i = 0; i < 256; ++i)
            if (i % 7) values[static_cast<std::size_t>(i + 256 * ly)] = B.stone;
          (void)w.load_chunk(voxnav::ChunkPos{p.x, p.y, p.z}, values);
          std::snprintf(buf, sizeof buf, "reload-layer %s y%d ", str(p).c_str(), ly);
          break;
        }
      }
      ++ops[9];
      log += buf;
      boxes.push_back(
          {CellPos{p.x * 16, p.y * 16, p.z * 16}, CellPos{p.x * 16 + 15, p.y * 16 + 15, p.z * 16 + 15}});
    }
    w.update();
    char what[64];
    std::snprintf(what, sizeof what, "[%s] update %d: ", m.name, u);
    const std::string wh = what + log;
    lc_check_all(w, {}, t, wh);
    // Pairs near the edits, every class.
    const std::vector<detail::NavWorld*> navs = detail::WorldAccess::state(w).navs();
    for (std::size_t s = 0; s < navs.size(); ++s) {
      const NavGrid& g = navs[s]->grid();
      std::vector<CellPos> near;
      for (const auto& [mn, mx] : boxes)
        for (int yy = mn.y - 4; yy <= mx.y + 4; ++yy)
          for (int zz = mn.z - 6; zz <= mx.z + 6; ++zz)
            for (int xx = mn.x - 6; xx <= mx.x + 6; ++xx)
              if (g.standable(CellPos{xx, yy, zz})) near.push_back(CellPos{xx, yy, zz});
      std::vector<CellPos> sample = near;
      // and some cells anywhere
      for (const NavChunk* ch : g.ordered_chunks()) {
        if (ch->uniform) continue;
        for (int i = static_cast<int>(rng.below(97)); i < detail::kChunkCells; i += 97)
          if (detail::kind_standable(ch->kind_at(i))) sample.push_back(detail::cell_of(ch, i));
      }
      if (s == 0) {
        check_pairs(w, pid, near, rng, 6, t, wh);
        check_pairs(w, pid, sample, rng, 6, t, wh);
      } else if (s - 1 < others.size()) {
        // navs() order: walker, walker_small, swimmer, walker_large; others: small, large, swimmer
        const MovementClass mc = s == 1   ? MovementClass::WalkerSmall
                                 : s == 2 ? MovementClass::Swimmer
                                          : MovementClass::WalkerLarge;
        const ProfileId op = mc == MovementClass::WalkerSmall   ? others[0]
                             : mc == MovementClass::WalkerLarge ? others[1]
                                                                : others[2];
        check_pairs_class(w, op, *navs[s], near, rng, 4, t, wh + " class " + std::to_string(s));
        check_pairs_class(w, op, *navs[s], sample, rng, 4, t, wh + " class " + std::to_string(s));
      }
    }
    if ((u % 30 == 29 || u + 1 == kUpdates) && nav.pending_builds() == 0)
      full_compare_all(w, pid, t, wh, others);
    if (rng.below(4) != 0) refreshed += refresh_all(w);
  }
  const detail::IslandStats& is = nav.islands().stats();
  std::printf("[%s] %d updates, %zu edits, ops", m.name, kUpdates, edits);
  for (std::size_t o : ops) std::printf(" %zu", o);
  std::printf(
      ": %zu pairs (%zu yes, %zu no), %zu bad, %zu octants checked, %zu stale, %zu compares, %zu "
      "diffs; walker out_patches %llu, component searches %llu, refreshed %zu (%.1f s)\n",
      t.pairs, t.yes, t.no, t.bad, t.lc_octants, t.lc_bad, t.compares, t.diffs,
      static_cast<unsigned long long>(is.out_patches - patches0),
      static_cast<unsigned long long>(is.component_searches), refreshed,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  for (detail::NavWorld* nv : detail::WorldAccess::state(w).navs())
    std::printf("  class h%d f%d s%d: out_patches %llu, components_built %llu\n",
                nv->grid().envelope().height_q, int(nv->grid().envelope().footprint2),
                int(nv->grid().envelope().swimmer),
                static_cast<unsigned long long>(nv->islands().stats().out_patches),
                static_cast<unsigned long long>(nv->islands().stats().components_built));
  EXPECT_EQ(t.bad, 0u);
  EXPECT_EQ(t.lc_bad, 0u);
  EXPECT_EQ(t.diffs, 0u);
}

const SynthCase kSynth[] = {
    {"mid_walker", -1, 0x5C0001, 400, false, false, false},
    {"mid_all", -1, 0x5C0002, 300, true, false, false},
    {"mid_all_chunks", -1, 0x5C0003, 300, true, true, false},
    {"mid_all_chunks_streaming", -1, 0x5C0004, 300, true, true, true},
    {"top_all", 126, 0x5C0005, 250, true, false, false},
    {"bottom_all_chunks", -127, 0x5C0006, 250, true, true, false},
    {"neg_all_chunks", -3, 0x5C0007, 250, true, true, false},
    {"pillars_all", -1, 0x5C0008, 400, true, false, false, true},
    {"pillars_walker", -1, 0x5C0009, 600, false, false, false, true},
    {"pillars_all_chunks", -3, 0x5C000A, 300, true, true, false, true},
    // A run (seed offset 33) whose update 91 drops a gap jump that another member of the
    // component still makes into the same cell: a patch that looks for other sources only one
    // column away drops the entry.
    {"bottom_all_chunks_gap", -127, 0x5C0006, 100, true, true, false, false, 33},
};
INSTANTIATE_TEST_SUITE_P(Synth, LocalComponentsBorders, ::testing::ValuesIn(kSynth),
                         [](const ::testing::TestParamInfo<SynthCase>& i) {
                           return std::string(i.param.name);
                         });

}  // namespace
}  // namespace voxnav
