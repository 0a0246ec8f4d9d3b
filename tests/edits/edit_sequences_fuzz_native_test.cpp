// Randomised edit sequences checked against fresh builds and a BFS, on the default real region
// (data/worlds/r.0.-1.mca) and synthetic worlds:
//   EditLayer0     single-block and small-box edits of every hazard, door, climbable,
//                  partial-height and slow block around a chunk corner (x, z and y chunk
//                  borders), door toggles,
//                  undo and sky sections made uniform and non-uniform, with a profile of every
//                  movement class: after every update every class's layers (kind, floor, clearance,
//                  flags, moves, vertical moves, gap jumps) and island partition must equal a fresh
//                  build of the same blocks (NavWorld::maintain_edit's moves box from the cells
//                  whose layer 0 changed);
//   EditIslands    concentrated edits that make and break cycles (walls with an opening then
//                  closed, pits, one-way drops on terraces, doors on cycles): reachable() against a
//                  BFS over the move words near every edit and far away (neighbourhood_proof,
//                  merge_cycle over the in-lists, component_reach's pending octants);
//   EditBuildRadius  bad build radii, a radius before the first update, streaming toggled, goals
//                  in unloaded, deferred-and-unreachable and walled-off places, teleports into
//                  deferred chunks and into the air, agents removed and the chunk an agent walks
//                  toward unloaded: no No wrong against a full build, no agent corridor entering an
//                  unbuilt chunk, no request spinning.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/follow/agents.h"
#include "engine/islands/islands.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
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

/// Exploration knobs (unset in normal runs): VOXNAV_B2_SEED offsets the seeds, VOXNAV_B2_SCALE
/// multiplies the number of edits.
std::uint64_t env_seed() { return test::env_seed("VOXNAV_B2_SEED"); }
constexpr const char* kScaleEnv = "VOXNAV_B2_SCALE";  // the suite's run-length multiplier

const bool kRelease = !test::sanitized_build();  // the shorter runs under the sanitizers

// The region, loaded once.
struct Source {
  std::unique_ptr<World> w;
  ProfileId pid;
  int cx0 = 0, cz0 = 0;
  /// Columns between chunk p and the source's middle column.
  int ring(const DPos& p) const { return std::max(std::abs(p.x - cx0), std::abs(p.z - cz0)); }
};
Source& source() {
  static Source* s = [] {
    auto* src = new Source;
    src->w = test::load_region(kRegion, &src->pid);
    if (src->w) std::tie(src->cx0, src->cz0) = test::biggest_island_column(*src->w);
    return src;
  }();
  return *s;
}

/// Loads chunk p of the source's world into w (its blocks copied).
Status load_from_source(World& w, const DPos& p) {
  std::vector<std::uint16_t> values(detail::kChunkCells);
  const detail::Chunk* ch = detail::WorldAccess::state(*source().w).space.chunk(p);
  for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
  return w.load_chunk(ChunkPos{p.x, p.y, p.z}, values);
}

/// The source's chunks up to `outer` columns from its middle, loaded into w (the source's
/// registry): the middle ring (1) before the first update, the rest after it with streaming on
/// and a build radius of 2, then one update; a default walker profile in *pid.
void streamed_rings(World& w, int outer, ProfileId* pid) {
  Source& src = source();
  detail::WorldAccess::state(w).registry = detail::WorldAccess::state(*src.w).registry;
  for (const DPos& p : detail::WorldAccess::state(*src.w).space.loaded_chunks())
    if (src.ring(p) <= 1) {
      ASSERT_EQ(load_from_source(w, p), Status::Ok);
    }
  ASSERT_EQ(w.add_profile(Profile{}, pid), Status::Ok);
  w.update();
  w.set_chunk_streaming(true);
  ASSERT_EQ(w.set_chunk_build_radius(2), Status::Ok);
  for (const DPos& p : detail::WorldAccess::state(*src.w).space.loaded_chunks())
    if (src.ring(p) > 1 && src.ring(p) <= outer) {
      ASSERT_EQ(load_from_source(w, p), Status::Ok);
    }
  w.update();
}

std::unique_ptr<World> window_world(int radius, int ylo, int yhi, const WorldDef& def,
                                    ProfileId* pid) {
  Source& s = source();
  auto w = std::make_unique<World>(def);
  detail::WorldAccess::state(*w).registry = detail::WorldAccess::state(*s.w).registry;
  detail::WorldAccess::state(*w).blocks = detail::WorldAccess::state(*s.w).blocks;
  std::vector<std::uint16_t> values(detail::kChunkCells);
  for (const DPos& p : detail::WorldAccess::state(*s.w).space.loaded_chunks()) {
    if (std::abs(p.x - s.cx0) > radius || std::abs(p.z - s.cz0) > radius) continue;
    if (p.y < ylo || p.y > yhi) continue;
    const detail::Chunk* ch = detail::WorldAccess::state(*s.w).space.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    EXPECT_EQ(w->load_chunk(ChunkPos{p.x, p.y, p.z}, values), Status::Ok);
  }
  EXPECT_EQ(w->add_profile(Profile{}, pid), Status::Ok);
  w->update();
  return w;
}

std::vector<ProfileId> add_other_classes(World& w, bool flyer) {
  std::vector<ProfileId> ids;
  for (MovementClass c : {MovementClass::WalkerSmall, MovementClass::WalkerLarge,
                          MovementClass::Swimmer, MovementClass::Flyer}) {
    if (c == MovementClass::Flyer && !flyer) continue;
    Profile p;
    p.id = movement_class_name(c);
    p.movement_class = c;
    if (c == MovementClass::WalkerSmall) p.width = 0.5, p.height = 0.9;
    if (c == MovementClass::WalkerLarge)
      p.width = 1.4, p.height = 2.0, p.step_height = 1.0, p.max_drop = 4;
    if (c == MovementClass::Flyer) p.jump_apex = 0, p.can_fly = true;
    if (c == MovementClass::Swimmer) {
      p.width = 0.5, p.height = 0.4, p.can_swim = true, p.swim_speed = 2.0, p.step_height = 0;
      p.jump_apex = 0, p.max_drop = 0;
    }
    ProfileId id;
    std::string err;
    if (c == MovementClass::Flyer) {  // the flyer layer is no NavWorld: navs() stays
      const std::size_t navs = detail::WorldAccess::state(w).navs().size();
      EXPECT_EQ(w.add_profile(p, &id, &err), Status::Ok) << err;
      EXPECT_EQ(detail::WorldAccess::state(w).navs().size(), navs);
      EXPECT_TRUE(detail::WorldAccess::state(w).flyer);
      continue;
    }
    EXPECT_EQ(w.add_profile(p, &id, &err), Status::Ok) << movement_class_name(c) << ": " << err;
    ids.push_back(id);
  }
  w.update();
  return ids;
}

std::unique_ptr<World> fresh_all(World& w, ProfileId* pid) {
  std::unique_ptr<World> f = test::fresh_copy(w, pid);
  if (detail::WorldAccess::state(w).navs().size() > 1) add_other_classes(*f, false);
  return f;
}

/// Every class's layers against a fresh build: compare_layers (kind, floor of standable cells,
/// moves, vertical moves, gap jumps, partition) plus floor, clearance and flags of every cell.
std::size_t compare_all(World& w, const std::string& what, std::size_t* compared = nullptr) {
  ProfileId fp;
  std::unique_ptr<World> f = fresh_all(w, &fp);
  const auto a = detail::WorldAccess::state(w).navs(), b = detail::WorldAccess::state(*f).navs();
  EXPECT_EQ(a.size(), b.size());
  std::size_t bad = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
    const test::LayerDiff d = test::compare_layers(*a[k], *b[k]);
    std::size_t l0 = 0;
    std::string first;
    for (const NavChunk* fb : b[k]->grid().ordered_chunks()) {
      const NavChunk* ia = a[k]->grid().chunk(fb->pos);
      if (!ia) continue;
      for (int i = 0; i < detail::kChunkCells; ++i) {
        const int fa = ia->uniform ? 0 : ia->floor[i], ff = fb->uniform ? 0 : fb->floor[i];
        const int ca = ia->uniform ? 255 : ia->clear[i], cf = fb->uniform ? 255 : fb->clear[i];
        if (fa != ff || ca != cf || ia->flags_at(i) != fb->flags_at(i)) {
          if (++l0 == 1) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s: floor %d/%d clear %d/%d flags %d/%d",
                          str(detail::cell_of(fb, i)).c_str(), fa, ff, ca, cf, ia->flags_at(i),
                          fb->flags_at(i));
            first = buf;
          }
        }
      }
    }
    if (compared) ++*compared;
    if (d.total() || l0) {
      ++bad;
      ADD_FAILURE() << what << " class slot " << k << ": " << d.kind << " kind, " << d.floor
                    << " floor, " << d.moves << " move, " << d.missing << " missing, " << d.extra
                    << " extra, " << d.partition << " partition, " << l0
                    << " floor/clear/flags; first: " << (d.total() ? d.first : first);
    }
  }
  return bad;
}

struct Names {
  std::vector<std::pair<std::string, std::uint16_t>> v;
  std::uint16_t get(const std::string& n) const {
    for (const auto& [k, x] : v)
      if (k == n) return x;
    ADD_FAILURE() << "no block " << n;
    return 0;
  }
};
Names names_of(World& w, const std::vector<std::string>& list) {
  Names n;
  for (const std::string& s : list) {
    std::uint16_t v = 0;
    if (w.block_value(s, &v) == Status::Ok)
      n.v.push_back({s, v});
    else
      std::printf("(block %s not in the registry)\n", s.c_str());
  }
  return n;
}

const std::vector<std::string> kEditBlocks = {"air",
                                              "stone",
                                              "lava",
                                              "fire",
                                              "magma_block",
                                              "campfire",
                                              "cactus",
                                              "sweet_berry_bush",
                                              "powder_snow",
                                              "cobweb",
                                              "water",
                                              "soul_sand",
                                              "honey_block",
                                              "ladder",
                                              "vine",
                                              "oak_slab[type=bottom]",
                                              "oak_slab[type=top]",
                                              "oak_stairs",
                                              "oak_fence",
                                              "glass",
                                              "snow[layers=4]",
                                              "white_carpet",
                                              "scaffolding",
                                              "oak_trapdoor",
                                              "soul_fire",
                                              "wither_rose"};

// =============================================================================================

TEST(EditLayer0, EveryKindOfEditAtChunkBordersEveryClass) {
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(source().w);
  ProfileId pid;
  // The surface sections of a 4x4-column window whose middle is a chunk corner.
  std::unique_ptr<World> w = window_world(1, 3, 6, WorldDef{}, &pid);
  add_other_classes(*w, true);
  ASSERT_EQ(detail::WorldAccess::state(*w).navs().size(), 4u);
  const Names B = names_of(*w, kEditBlocks);
  std::uint16_t door_lo = 0, door_hi = 0;
  ASSERT_EQ(w->block_value("oak_door[half=lower]", &door_lo), Status::Ok);
  ASSERT_EQ(w->block_value("oak_door[half=upper]", &door_hi), Status::Ok);
  const detail::NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
  const int X = source().cx0 * 16, Z = source().cz0 * 16;
  // Standable cells within 5 columns of the chunk corner (X, Z), or a cell from a y border.
  std::vector<CellPos> sites;
  for (const CellPos& c : test::standable_cells(g))
    if ((std::abs(c.x - X) <= 5 && std::abs(c.z - Z) <= 5) || ((c.y & 15) <= 1 || (c.y & 15) >= 13))
      if (std::abs(c.x - X) <= 12 && std::abs(c.z - Z) <= 12) sites.push_back(c);
  ASSERT_GT(sites.size(), 20u);
  std::printf("%zu sites around the corner (%d, %d)\n", sites.size(), X, Z);
  Rng rng{0xB2EA0001u + env_seed()};
  auto below = [&](std::size_t n) {
    return static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  };
  std::vector<std::pair<CellPos, std::uint16_t>> undo;
  std::vector<CellPos> doors;
  const int kEdits = test::rounds(130, 30, kScaleEnv);
  std::size_t edits = 0, compared = 0, bad = 0;
  std::map<std::string, int> used;
  for (int k = 0; k < kEdits && bad == 0; ++k) {
    const CellPos s = sites[static_cast<std::size_t>(below(sites.size()))];
    const CellPos c{s.x + below(3) - 1, s.y + below(4) - 1, s.z + below(3) - 1};
    std::string what;
    const int op = below(10);
    if (op <= 4) {
      const auto& [name, v] = B.v[static_cast<std::size_t>(below(B.v.size()))];
      std::uint16_t was = 0;
      if (w->get_block(pos(c), &was) != Status::Ok) continue;
      undo.push_back({c, was});
      ASSERT_EQ(w->set_block(pos(c), v), Status::Ok);
      what = name + " at " + str(c);
      ++used[name];
    } else if (op == 5) {  // a door, lower and upper, closed
      std::uint16_t a = 0, b = 0;
      if (w->get_block(pos(c), &a) != Status::Ok ||
          w->get_block(pos(CellPos{c.x, c.y + 1, c.z}), &b) != Status::Ok)
        continue;
      undo.push_back({c, a});
      undo.push_back({CellPos{c.x, c.y + 1, c.z}, b});
      ASSERT_EQ(w->set_block(pos(c), door_lo), Status::Ok);
      ASSERT_EQ(w->set_block(pos(CellPos{c.x, c.y + 1, c.z}), door_hi), Status::Ok);
      doors.push_back(c);
      what = "door at " + str(c);
    } else if (op == 6 && !doors.empty()) {  // toggle a door
      const CellPos d = doors[static_cast<std::size_t>(below(doors.size()))];
      const Status st = w->set_door_open(pos(d), below(2) == 0);
      what = "door toggled at " + str(d) + " (" + status_name(st) + ")";
    } else if (op == 7 && below(2) == 0) {  // a batch: several blocks near c in one update
      for (int n = 2 + below(4); n > 0; --n) {
        const auto& [name, v] = B.v[static_cast<std::size_t>(below(B.v.size()))];
        const CellPos d{c.x + below(5) - 2, c.y + below(7) - 3, c.z + below(5) - 2};
        std::uint16_t was = 0;
        if (w->get_block(pos(d), &was) != Status::Ok) continue;
        undo.push_back({d, was});
        ASSERT_EQ(w->set_block(pos(d), v), Status::Ok);
        if (std::getenv("VOXNAV_B2_VERBOSE"))
          std::printf("  batch %s at %s\n", name.c_str(), str(d).c_str());
      }
      what = "batch near " + str(c);
    } else if (op == 7 && !undo.empty()) {  // undo a few edits
      for (int n = 1 + below(4); n > 0 && !undo.empty(); --n) {
        if (std::getenv("VOXNAV_B2_VERBOSE"))
          std::printf("  undo %s -> %u\n", str(undo.back().first).c_str(), undo.back().second);
        ASSERT_EQ(w->set_block(pos(undo.back().first), undo.back().second), Status::Ok);
        undo.pop_back();
      }
      what = "undo";
    } else if (op == 8) {  // a small box: a pit or a wall of a hazard / stone / air
      const auto& [name, v] = B.v[static_cast<std::size_t>(below(B.v.size()))];
      // mostly small; now and then up to 8 x 8 x 8 (512 cells, the largest edit maintained
      // cell by cell) or 8 x 8 x 9 (the chunk path)
      const int big = below(4) == 0 ? 1 : 0;
      const CellPos b = big ? CellPos{c.x + 7, c.y + 3 + below(6), c.z + 7}
                         : CellPos{c.x + below(3), c.y + below(2), c.z + below(3)};
      ASSERT_EQ(w->set_box(pos(c), pos(b), v), Status::Ok);
      what = "box of " + name + " " + str(c) + ".." + str(b);
    } else {  // a block in a sky section (uniform air) and gone again, or a sky section's floor
      const int sy = (c.y | 15) + 1;  // the section above
      const CellPos sky{c.x, sy + below(3), c.z};
      const auto& [name, v] = B.v[static_cast<std::size_t>(below(B.v.size()))];
      std::uint16_t was = 0;
      if (w->get_block(pos(sky), &was) != Status::Ok) continue;
      ASSERT_EQ(w->set_block(pos(sky), v), Status::Ok);
      w->update();
      ++edits;
      bad += compare_all(*w, "[" + std::to_string(k) + "] " + name + " in the sky at " + str(sky),
                         &compared);
      ASSERT_EQ(w->set_block(pos(sky), was), Status::Ok);
      what = "sky block removed at " + str(sky);
    }
    if (what.empty()) continue;
    if (std::getenv("VOXNAV_B2_VERBOSE")) std::printf("[%d] %s\n", k, what.c_str());
    w->update();
    ++edits;
    bad += compare_all(*w, "[" + std::to_string(k) + "] " + what, &compared);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "layer 0 edits: %zu updates, %zu class comparisons with a fresh build, %zu bad "
      "(%.1f s); blocks used:",
      edits, compared, bad, secs);
  for (const auto& [n, c] : used) std::printf(" %s %d", n.c_str(), c);
  std::printf("\n");
  EXPECT_EQ(bad, 0u);
}

// =============================================================================================

struct IslandTally {
  std::size_t pairs = 0, yes = 0, no = 0, gated = 0, bad = 0;
};

void check_pairs(World& w, ProfileId pid, const std::vector<CellPos>& a_cells,
                 const std::vector<CellPos>& b_cells, Rng& rng, int count, IslandTally& t,
                 const std::string& what) {
  if (a_cells.empty() || b_cells.empty()) return;
  const NavGrid& g = detail::WorldAccess::state(w).walker()->grid();
  test::PairOracle oracle(g);
  for (int k = 0; k < count; ++k) {
    const CellPos a = a_cells[rng.below(static_cast<std::uint32_t>(a_cells.size()))];
    const CellPos b = b_cells[rng.below(static_cast<std::uint32_t>(b_cells.size()))];
    if (!g.standable(a) || !g.standable(b)) continue;
    const Reach r = w.reachable(pid, pos(a), pos(b));
    const bool truth = oracle.reaches(a, b, detail::CostTable{}.gates());
    const bool gated = !truth && oracle.reaches(a, b);
    ++t.pairs;
    (truth ? t.yes : t.no) += 1;
    t.gated += gated;
    const bool gated_ok =
        gated && r.answer == ReachAnswer::Unknown &&
        (r.reason == ReachReason::DoorGated || r.reason == ReachReason::ProfileRestricted);
    if (!gated_ok &&
        (r.answer == ReachAnswer::Unknown || (r.answer == ReachAnswer::Yes) != truth)) {
      if (++t.bad <= 5)
        ADD_FAILURE() << what << ": reachable " << str(a) << " -> " << str(b) << " = "
                      << reach_answer_name(r.answer) << "/" << reach_reason_name(r.reason)
                      << ", BFS over the move words says " << (truth ? "yes" : "no")
                      << (gated ? " (yes through a gate)" : "");
    }
  }
}

struct IslandCase {
  const char* name;
  std::uint64_t seed;
  int edits;
  bool terraces;  // a synthetic terraced world (one-way drops everywhere) instead of the region
};
void PrintTo(const IslandCase& c, std::ostream* os) { *os << c.name; }
class EditIslands : public ::testing::TestWithParam<IslandCase> {};

TEST_P(EditIslands, ReachableMatchesBfsUnderConcentratedEdits) {
  const IslandCase m = GetParam();
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(source().w);
  ProfileId pid;
  std::unique_ptr<World> w;
  Rng rng{m.seed + env_seed()};
  auto below = [&](std::size_t n) {
    return static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  };
  int X = 0, Z = 0;
  if (m.terraces) {
    w = std::make_unique<World>();
    detail::WorldAccess::state(*w).registry = detail::WorldAccess::state(*source().w).registry;
    detail::WorldAccess::state(*w).blocks = detail::WorldAccess::state(*source().w).blocks;
    std::uint16_t stone = 0;
    ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);
    std::vector<std::uint16_t> v(detail::kChunkCells, 0), air(detail::kChunkCells, 0);
    for (int cz = -1; cz <= 1; ++cz)
      for (int cx = -1; cx <= 1; ++cx) {
        // Terraces: ground height 1 + a pattern of plateaus 0..4 high (drops of 2..4 are one way).
        for (int z = 0; z < 16; ++z)
          for (int x = 0; x < 16; ++x) {
            const int gx = cx * 16 + x, gz = cz * 16 + z;
            const int h = 1 + ((gx / 4 + 2 * (gz / 5)) % 5 + 5) % 5;
            for (int y = 0; y < 16; ++y)
              v[static_cast<std::size_t>(x | (z << 4) | (y << 8))] = y < h ? stone : 0;
          }
        ASSERT_EQ(w->load_chunk({cx, 0, cz}, v), Status::Ok);
        ASSERT_EQ(w->load_chunk({cx, 1, cz}, air), Status::Ok);
      }
    ASSERT_EQ(w->add_profile(Profile{}, &pid), Status::Ok);
    w->update();
    X = 0, Z = 0;
  } else {
    w = window_world(2, 2, 7, WorldDef{}, &pid);
    X = source().cx0 * 16;
    Z = source().cz0 * 16;
  }
  const Names B = names_of(*w, {"air", "stone", "lava", "ladder", "oak_fence",
                                "oak_slab[type=bottom]", "cobweb", "water", "glass"});
  std::uint16_t door_lo = 0, door_hi = 0, stone = B.get("stone"), air = B.get("air");
  ASSERT_EQ(w->block_value("oak_door[half=lower]", &door_lo), Status::Ok);
  ASSERT_EQ(w->block_value("oak_door[half=upper]", &door_hi), Status::Ok);
  const NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
  std::vector<CellPos> all = test::standable_cells(g), hot;
  for (const CellPos& c : all)
    if (std::abs(c.x - X) <= 10 && std::abs(c.z - Z) <= 10 && (m.terraces || true))
      hot.push_back(c);
  ASSERT_GT(hot.size(), 30u);
  IslandTally t;
  std::vector<CellPos> doors;
  std::size_t compares = 0, diffs = 0, edits = 0;
  const int kEdits = test::rounds(m.edits * 2 / 5, m.edits / 10, kScaleEnv);
  for (int k = 0; k < kEdits && t.bad == 0 && diffs == 0; ++k) {
    const CellPos s = hot[static_cast<std::size_t>(below(hot.size()))];
    std::string what;
    switch (below(9)) {
      case 0:
      case 1: {  // a block at the feet or head, or dig the ground
        const int dy = below(3) - 1;
        const CellPos c{s.x + below(3) - 1, s.y + dy, s.z + below(3) - 1};
        const std::uint16_t v =
            dy < 0 ? air : B.v[static_cast<std::size_t>(below(B.v.size()))].second;
        (void)(w->set_block(pos(c), v));
        what = "block at " + str(c);
        break;
      }
      case 2: {  // a wall 1 x 3 x L with an opening, closed later
        const int L = 3 + below(10);
        const bool along_x = below(2);
        const CellPos a = s;
        const CellPos b = along_x ? CellPos{s.x + L, s.y + 2, s.z} : CellPos{s.x, s.y + 2, s.z + L};
        (void)(w->set_box(pos(a), pos(b), stone));
        const int o = below(static_cast<std::size_t>(L));
        const CellPos op = along_x ? CellPos{s.x + o, s.y, s.z} : CellPos{s.x, s.y, s.z + o};
        (void)(w->set_box(pos(op), pos(CellPos{op.x, op.y + 1, op.z}), air));
        w->update();
        ++edits;
        check_pairs(*w, pid, hot, hot, rng, 20, t, "wall with opening " + str(op));
        if (below(2)) {
          (void)(w->set_box(pos(op), pos(CellPos{op.x, op.y + 1, op.z}), stone));
          what = "wall " + str(a) + ".." + str(b) + " closed";
        } else {
          (void)(w->set_box(pos(op), pos(CellPos{op.x, op.y + 1, op.z}), door_lo));
          (void)(w->set_block(pos(CellPos{op.x, op.y + 1, op.z}), door_hi));
          doors.push_back(op);
          what = "wall " + str(a) + ".." + str(b) + " with a door";
        }
        break;
      }
      case 3: {  // a pit 2x2 or 3x3, 1..4 deep (one-way drops in, maybe out by steps)
        const int r = below(2) + 1, d = 1 + below(4);
        (void)(w->set_box(pos(CellPos{s.x, s.y - d, s.z}), pos(CellPos{s.x + r, s.y - 1, s.z + r}), air));
        what = "pit at " + str(s);
        break;
      }
      case 4: {  // a pillar / step making a one-way ledge (2..3 high)
        const int h = 1 + below(3);
        (void)(w->set_box(pos(s), pos(CellPos{s.x, s.y + h - 1, s.z + below(2)}), stone));
        what = "pillar at " + str(s);
        break;
      }
      case 5: {  // toggle a door
        if (doors.empty()) continue;
        const CellPos d = doors[static_cast<std::size_t>(below(doors.size()))];
        (void)w->set_door_open(pos(d), below(2) == 0);
        what = "door toggle " + str(d);
        break;
      }
      case 6: {  // a ladder column on a wall (a climb up a ledge)
        const int h = 2 + below(3);
        (void)(w->set_box(pos(CellPos{s.x + 1, s.y, s.z}), pos(CellPos{s.x + 1, s.y + h - 1, s.z}),
                          stone));
        (void)(w->set_box(pos(s), pos(CellPos{s.x, s.y + h - 1, s.z}), B.get("ladder")));
        what = "ladder at " + str(s);
        break;
      }
      case 7: {  // fill: restore ground under a cell (close pits)
        (void)(w->set_box(pos(CellPos{s.x - 1, s.y - 1, s.z - 1}),
                          pos(CellPos{s.x + 1, s.y - 1, s.z + 1}), stone));
        (void)(w->set_box(pos(CellPos{s.x - 1, s.y, s.z - 1}), pos(CellPos{s.x + 1, s.y + 2, s.z + 1}),
                          air));
        what = "flatten at " + str(s);
        break;
      }
      default: {  // a tunnel through: dig 1x2xL
        const int L = 2 + below(8);
        const bool along_x = below(2);
        const CellPos b = along_x ? CellPos{s.x + L, s.y + 1, s.z} : CellPos{s.x, s.y + 1, s.z + L};
        (void)(w->set_box(pos(s), pos(b), air));
        what = "tunnel at " + str(s);
        break;
      }
    }
    w->update();
    ++edits;
    // Pairs near the edit, and pairs across the hot area, and far pairs every tenth edit.
    std::vector<CellPos> near;
    for (int dz = -3; dz <= 3; ++dz)
      for (int dx = -3; dx <= 3; ++dx)
        for (int dy = -5; dy <= 5; ++dy) {
          const CellPos c{s.x + dx, s.y + dy, s.z + dz};
          if (g.standable(c)) near.push_back(c);
        }
    check_pairs(*w, pid, near, near, rng, 12, t, "[" + std::to_string(k) + "] " + what);
    check_pairs(*w, pid, near, hot, rng, 8, t, "[" + std::to_string(k) + "] " + what + " (far)");
    check_pairs(*w, pid, hot, near, rng, 8, t, "[" + std::to_string(k) + "] " + what + " (to)");
    if (k % 10 == 0) check_pairs(*w, pid, all, all, rng, 10, t, "[" + std::to_string(k) + "] any");
    if (k % (kRelease ? 250 : 50) == 0 || k + 1 == kEdits) {
      ++compares;
      const std::size_t b = compare_all(*w, "[" + std::to_string(k) + "] " + what);
      diffs += b;
    }
  }
  const detail::IslandStats& is = detail::WorldAccess::state(*w).walker()->islands().stats();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "%s: %zu updates, %zu pairs (%zu yes, %zu no, %zu gated), %zu bad, %zu compares, "
      "%zu diffs; %llu merges, %llu split checks, %llu local splits, %llu component "
      "searches, %llu fallbacks (%.1f s)\n",
      m.name, edits, t.pairs, t.yes, t.no, t.gated, t.bad, compares, diffs,
      static_cast<unsigned long long>(is.merges), static_cast<unsigned long long>(is.split_checks),
      static_cast<unsigned long long>(is.local_splits),
      static_cast<unsigned long long>(is.component_searches),
      static_cast<unsigned long long>(is.fallbacks), secs);
  EXPECT_EQ(t.bad, 0u);
  EXPECT_EQ(diffs, 0u);
}

const IslandCase kIslandCases[] = {
    {"region_a", 0xB2150001u, 1000, false},
    {"region_b", 0xB2150102u, 1000, false},
    {"terraces", 0xB2150203u, 1300, true},
};
INSTANTIATE_TEST_SUITE_P(Cases, EditIslands, ::testing::ValuesIn(kIslandCases),
                         [](const ::testing::TestParamInfo<IslandCase>& i) {
                           return std::string(i.param.name);
                         });

// =============================================================================================
// The build radius: bad input, and agents with goals that cannot be reached, teleports and
// unloads.

CellPos feet_cell(const AgentState& s) {
  return CellPos{static_cast<int>(std::floor(s.feet.x)), static_cast<int>(std::floor(s.feet.y + 1e-3)),
              static_cast<int>(std::floor(s.feet.z))};
}

TEST(EditBuildRadius, BadRadiiAreRefusedAndARadiusBeforeTheFirstUpdateBuildsEverything) {
  ASSERT_TRUE(source().w);
  World w;
  detail::WorldAccess::state(w).registry = detail::WorldAccess::state(*source().w).registry;
  for (int bad : {-1, 33, 1000000, -2147483647 - 1, 2147483647}) {
    EXPECT_EQ(w.set_chunk_build_radius(bad), Status::InvalidArgument) << bad;
    EXPECT_EQ(w.chunk_build_radius(), 0);
  }
  EXPECT_EQ(w.set_chunk_build_radius(32), Status::Ok);
  EXPECT_EQ(w.set_chunk_build_radius(2), Status::Ok);
  w.set_chunk_streaming(true);
  std::vector<std::uint16_t> values(detail::kChunkCells);
  const Source& s = source();
  std::size_t n = 0;
  for (const DPos& p : detail::WorldAccess::state(*s.w).space.loaded_chunks()) {
    if (std::abs(p.x - s.cx0) > 3 || std::abs(p.z - s.cz0) > 3) continue;
    const detail::Chunk* ch = detail::WorldAccess::state(*s.w).space.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    ASSERT_EQ(w.load_chunk(ChunkPos{p.x, p.y, p.z}, values), Status::Ok);
    ++n;
  }
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  w.update();  // chunks loaded before the first update: built by it, no agents needed
  EXPECT_EQ(w.deferred_chunk_builds(), 0u);
  for (int k = 0; k < 4; ++k) w.update();
  EXPECT_EQ(w.pending_chunk_builds(), 0u);
  ProfileId fp;
  std::unique_ptr<World> f = test::fresh_copy(w, &fp);
  const test::LayerDiff d = test::compare_layers(*detail::WorldAccess::state(w).walker(), *detail::WorldAccess::state(*f).walker());
  EXPECT_EQ(d.total(), 0u) << d.first;
  // Chunks loaded now with no agent are deferred; streaming off builds them (the radius has no
  // effect without streaming), and the layers equal a fresh build.
  std::vector<DPos> late;
  for (const DPos& p : detail::WorldAccess::state(*s.w).space.loaded_chunks()) {
    const int r = std::max(std::abs(p.x - s.cx0), std::abs(p.z - s.cz0));
    if (r != 4) continue;
    const detail::Chunk* ch = detail::WorldAccess::state(*s.w).space.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    ASSERT_EQ(w.load_chunk(ChunkPos{p.x, p.y, p.z}, values), Status::Ok);
    late.push_back(p);
  }
  w.update();
  EXPECT_EQ(w.deferred_chunk_builds(), late.size());
  w.set_chunk_streaming(false);
  for (int k = 0; k < 4; ++k) w.update();
  EXPECT_EQ(w.deferred_chunk_builds(), 0u);
  EXPECT_EQ(w.pending_chunk_builds(), 0u);
  {
    ProfileId fp2;
    std::unique_ptr<World> f2 = test::fresh_copy(w, &fp2);
    const test::LayerDiff d2 = test::compare_layers(*detail::WorldAccess::state(w).walker(), *detail::WorldAccess::state(*f2).walker());
    EXPECT_EQ(d2.total(), 0u) << "after streaming off: " << d2.missing << " missing; " << d2.first;
  }
  // Toggling streaming and the radius with no agents: nothing breaks, nothing is lost.
  w.set_chunk_streaming(false);
  EXPECT_EQ(w.set_chunk_build_radius(0), Status::Ok);
  w.set_chunk_streaming(true);
  EXPECT_EQ(w.set_chunk_build_radius(1), Status::Ok);
  w.update();
  EXPECT_EQ(w.deferred_chunk_builds(), 0u);
  std::printf("%zu chunks loaded before the first update with radius 2: all built\n", n);
}

TEST(EditBuildRadius, AgentsWithUnreachableGoalsTeleportsAndUnloadsNeitherSpinNorLeaveBuiltChunks) {
  Source& src = source();
  ASSERT_TRUE(src.w);
  const auto t0 = std::chrono::steady_clock::now();
  World w;
  ProfileId pid;
  const int kOuter = kRelease ? 9 : 5;
  ASSERT_NO_FATAL_FAILURE(streamed_rings(w, kOuter, &pid));
  auto load = [&](const DPos& p) { return load_from_source(w, p); };
  auto ring = [&](const DPos& p) { return src.ring(p); };
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  const NavGrid& g = nav.grid();
  const detail::Space& space = detail::WorldAccess::state(w).space;
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w.block_value("air", &air), Status::Ok);
  // Standable cells of the source's walker navigation, by ring.
  const NavGrid& sg = detail::WorldAccess::state(*src.w).walker()->grid();
  std::vector<CellPos> sstand = test::standable_cells(sg);
  auto pick = [&](int r, std::uint64_t salt, bool built) -> CellPos {
    Rng rr{salt};
    for (int k = 0; k < 20000; ++k) {
      const CellPos c = sstand[rr.below(static_cast<std::uint32_t>(sstand.size()))];
      const DPos p = detail::chunk_of(c);
      if (ring(p) != r) continue;
      if (built != (g.chunk(p) != nullptr)) continue;
      if (built && !g.standable(c)) continue;
      return c;
    }
    ADD_FAILURE() << "no cell in ring " << r;
    return CellPos{};
  };
  // A pocket: the cell and its head cell kept, everything around them stone.
  auto seal = [&](const CellPos& c) {
    ASSERT_EQ(w.set_box(pos(CellPos{c.x - 1, c.y - 1, c.z - 1}), pos(CellPos{c.x + 1, c.y + 3, c.z + 1}),
                        stone),
              Status::Ok);
    ASSERT_EQ(w.set_box(pos(c), pos(CellPos{c.x, c.y + 1, c.z}), air), Status::Ok);
  };
  const CellPos home = src.w ? pick(0, 1, true) : CellPos{};
  enum Role {
    kUnloaded,
    kSealedDeferred,
    kWalled,
    kFar,
    kTeleportDeferred,
    kTeleportAir,
    kUnloadAhead,
    kRemoved,
    kRoles
  };
  const char* role_name[kRoles] = {"goal unloaded",
                                   "goal sealed in a deferred chunk",
                                   "goal walled off",
                                   "goal far",
                                   "teleported into a deferred chunk",
                                   "teleported into the air",
                                   "chunk ahead unloaded",
                                   "removed"};
  std::vector<AgentId> ids(kRoles);
  std::vector<CellPos> goals(kRoles);
  goals[kUnloaded] = CellPos{src.cx0 * 16 + 16 * (kOuter + 3), home.y, src.cz0 * 16};
  goals[kSealedDeferred] = pick(4, 2, false);
  seal(goals[kSealedDeferred]);
  goals[kWalled] = pick(1, 3, true);
  seal(goals[kWalled]);
  goals[kFar] = pick(kOuter - 1, 4, false);
  goals[kTeleportDeferred] = pick(3, 5, false);
  goals[kTeleportAir] = pick(3, 6, false);
  goals[kUnloadAhead] = pick(kOuter - 2, 7, false);
  goals[kRemoved] = pick(3, 8, false);
  w.update();
  for (int r = 0; r < kRoles; ++r) {
    double feet = 0;
    const CellPos st = pick(0, 100 + static_cast<std::uint64_t>(r), true);
    ASSERT_EQ(w.standing_height(pid, pos(st), &feet), Status::Ok);
    ASSERT_EQ(w.add_agent({pid, {st.x + 0.5, feet, st.z + 0.5}}, &ids[static_cast<std::size_t>(r)]),
              Status::Ok);
    ASSERT_EQ(
        w.set_agent_goal(ids[static_cast<std::size_t>(r)], pos(goals[static_cast<std::size_t>(r)])),
        Status::Ok)
        << role_name[r];
  }
  // A goal out of range is refused and changes nothing.
  EXPECT_NE(w.set_agent_goal(ids[kFar], CellPos{0, 1 << 20, 0}), Status::Ok);
  // No answers against a World with every loaded chunk built.
  std::size_t nos = 0, nos_checked = 0, nos_wrong = 0, yes_wrong = 0, pairs = 0;
  auto check_nos = [&](const char* when) {
    ProfileId fp;
    std::unique_ptr<World> full = test::fresh_copy(w, &fp);
    test::PairOracle oracle(detail::WorldAccess::state(*full).walker()->grid());
    std::vector<CellPos> built = test::standable_cells(g);
    Rng rr{pairs + 17};
    for (int k = 0; k < (kRelease ? 3000 : 300); ++k) {
      const CellPos a = built[rr.below(static_cast<std::uint32_t>(built.size()))];
      const CellPos b = built[rr.below(static_cast<std::uint32_t>(built.size()))];
      const Reach r = w.reachable(pid, pos(a), pos(b));
      ++pairs;
      if (r.answer == ReachAnswer::Unknown) continue;
      const Reach f = full->reachable(fp, pos(a), pos(b));
      if (r.answer == ReachAnswer::No) {
        ++nos;
        ++nos_checked;
        if (f.answer != ReachAnswer::No && ++nos_wrong <= 5)
          ADD_FAILURE() << when << ": No from " << str(a) << " to " << str(b)
                        << " but the full build says " << reach_answer_name(f.answer)
                        << (oracle.reaches(a, b) ? " (BFS: yes)" : "");
      } else if (f.answer != ReachAnswer::Yes && ++yes_wrong <= 5) {
        ADD_FAILURE() << when << ": Yes from " << str(a) << " to " << str(b)
                      << " but the full build says " << reach_answer_name(f.answer);
      }
    }
  };
  check_nos("start");
  const int kTicks = kRelease ? 1200 : 300;
  std::vector<int> teleported_at(kRoles, -1000);
  std::size_t bad_feet = 0, bad_corridor = 0, far_start = 0, after_teleport_unbuilt = 0;
  std::vector<std::uint32_t> max_req_gap(kRoles, 0);
  std::vector<bool> removed(kRoles, false);
  DPos unloaded_col{0, 0, 0};
  bool did_unload = false;
  for (int t = 0; t < kTicks; ++t) {
    if (t == 60) {  // into a deferred chunk, standing on its ground
      const CellPos c = pick(3, 9, false);
      const detail::NavGrid& sgg = detail::WorldAccess::state(*src.w).walker()->grid();
      const double fy = c.y + sgg.floor_q(c) / 64.0;
      ASSERT_EQ(w.teleport_agent(ids[kTeleportDeferred], {c.x + 0.5, fy, c.z + 0.5}), Status::Ok);
      teleported_at[kTeleportDeferred] = t;
    }
    if (t == 80) {  // into the air above a deferred chunk
      const CellPos c = pick(3, 10, false);
      ASSERT_EQ(w.teleport_agent(ids[kTeleportAir], {c.x + 0.5, c.y + 6.0, c.z + 0.5}), Status::Ok);
      teleported_at[kTeleportAir] = t;
    }
    if (t == 150) {
      ASSERT_EQ(w.remove_agent(ids[kRemoved]), Status::Ok);
      removed[kRemoved] = true;
      EXPECT_NE(w.set_agent_goal(ids[kRemoved], pos(home)), Status::Ok);
    }
    if (t == 200 ||
        t == 400) {  // unload the column of the goal of kUnloadAhead (and reload at 400)
      const DPos gp = detail::chunk_of(goals[kUnloadAhead]);
      unloaded_col = gp;
      for (const DPos& p : detail::WorldAccess::state(*src.w).space.loaded_chunks())
        if (p.x == gp.x && p.z == gp.z) {
          if (t == 200)
            ASSERT_EQ(w.unload_chunk(ChunkPos{p.x, p.y, p.z}), Status::Ok);
          else
            ASSERT_EQ(load(p), Status::Ok);
        }
      did_unload = true;
    }
    if (t == 300) {  // toggle streaming and the radius while agents walk
      w.set_chunk_streaming(false);
      w.set_chunk_streaming(true);
      ASSERT_EQ(w.set_chunk_build_radius(1), Status::Ok);
    }
    if (t == 330) {
      ASSERT_EQ(w.set_chunk_build_radius(2), Status::Ok);
    }
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    for (int r = 0; r < kRoles; ++r) {
      if (removed[static_cast<std::size_t>(r)]) continue;
      AgentState s;
      ASSERT_EQ(w.agent_state(ids[static_cast<std::size_t>(r)], &s), Status::Ok);
      const CellPos f = feet_cell(s);
      const DPos fp = detail::chunk_of(f);
      const bool loaded = space.chunk(fp) != nullptr, built = g.chunk(fp) != nullptr;
      if (!loaded || !built) {
        if (t - teleported_at[static_cast<std::size_t>(r)] <= 4)
          ++after_teleport_unbuilt;
        else if (++bad_feet <= 5)
          ADD_FAILURE() << "tick " << t << ": agent (" << role_name[r] << ") feet in " << str(f)
                        << (loaded ? " (loaded, not built)" : " (unloaded)");
      }
      const detail::AgentRecord& a = detail::WorldAccess::state(w).agents.at(ids[static_cast<std::size_t>(r)].index);
      if (a.mode == AgentMode::Moving) {
        for (std::size_t k = a.cell_index; k < a.corridor.cells.size(); ++k) {
          const DPos cp = detail::chunk_of(a.corridor.cells[k]);
          if (!g.chunk(cp) || !space.chunk(cp)) {
            if (++bad_corridor <= 5)
              ADD_FAILURE() << "tick " << t << ": agent (" << role_name[r] << ")'s corridor enters "
                            << str(a.corridor.cells[k]) << " in "
                            << (space.chunk(cp) ? "an unbuilt" : "an unloaded") << " chunk";
            break;
          }
        }
        // The body is on its corridor (near a cell of it ahead), not where it stood before a
        // teleport: the cell path runs within a few columns of a pulled line.
        int dmin = 1 << 30;
        for (std::size_t k = a.cell_index; k < a.corridor.cells.size(); ++k) {
          const CellPos c = a.corridor.cells[k];
          dmin = std::min(dmin, std::max({std::abs(c.x - f.x), std::abs(c.z - f.z)}));
        }
        if (!a.corridor.cells.empty() && dmin > 3 && ++far_start <= 5)
          ADD_FAILURE() << "tick " << t << ": agent (" << role_name[r] << ") at " << str(f)
                        << " follows a corridor " << dmin << " columns away (first cell "
                        << str(a.corridor.cells.front()) << ")";
      }
    }
  }
  check_nos("end");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "radius agents (%d ticks, %.1f s): %zu pairs, %zu No checked against the full build "
      "(%zu wrong), %zu wrong Yes; %zu ticks standing unbuilt right after a teleport\n",
      kTicks, secs, pairs, nos_checked, nos_wrong, yes_wrong, after_teleport_unbuilt);
  (void)nos;
  (void)did_unload;
  (void)unloaded_col;
  for (int r = 0; r < kRoles; ++r) {
    if (removed[static_cast<std::size_t>(r)]) continue;
    AgentState s;
    ASSERT_EQ(w.agent_state(ids[static_cast<std::size_t>(r)], &s), Status::Ok);
    std::string why;
    (void)w.agent_reason(ids[static_cast<std::size_t>(r)], &why);
    std::printf("  %-34s %-8s requests %3u replans %3u arrivals %u  %s\n", role_name[r],
                agent_mode_name(s.mode), s.requests, s.replans, s.arrivals, why.c_str());
    // No spinning: at most one request per 10 ticks on average.
    EXPECT_LE(s.requests, static_cast<std::uint32_t>(kTicks / 10 + 5)) << role_name[r];
    if (r == kSealedDeferred || r == kWalled || r == kUnloaded) {
      EXPECT_NE(s.mode, AgentMode::Arrived) << role_name[r];
    }
  }
  EXPECT_EQ(bad_feet, 0u);
  EXPECT_EQ(bad_corridor, 0u);
  EXPECT_EQ(far_start, 0u);
  EXPECT_EQ(nos_wrong, 0u);
  EXPECT_EQ(yes_wrong, 0u);
}

// Defect: an agent whose goal lies past unbuilt chunks and that already stands on the built cell
// nearest the goal must wait Blocked and retry (docs/editing.md, "Agents walk toward goals past
// unbuilt chunks"); the toward search found no cell closer than the start, its outcome was NoPath
// (AStar gives a partial route only when a cell other than the start is nearer), so the agent
// failed for good (Failed, no_path) and AgentSystem::install's Blocked branch never ran.
TEST(EditBuildRadius, AnAgentAlreadyNearestAnUnbuiltGoalWaitsBlockedInsteadOfFailing) {
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  std::uint16_t stone = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_TRUE(test::load_flat_floor(w, stone));
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  w.update();
  w.set_chunk_streaming(true);
  ASSERT_EQ(w.set_chunk_build_radius(1), Status::Ok);
  AgentId id;
  ASSERT_EQ(w.add_agent({pid, {4.5, 1.0, 4.5}}, &id), Status::Ok);
  // Straight above, in a chunk not loaded (yet): no floor cell is closer to it than (4, 1, 4).
  ASSERT_EQ(w.set_agent_goal(id, CellPos{4, 40, 4}), Status::Ok);
  EXPECT_EQ(w.reachable(pid, CellPos{4, 1, 4}, CellPos{4, 40, 4}).answer, ReachAnswer::Unknown);
  for (int t = 0; t < 30; ++t) ASSERT_EQ(w.tick(0.05), Status::Ok);
  AgentState s;
  ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
  std::string why;
  ASSERT_EQ(w.agent_reason(id, &why), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Blocked) << agent_mode_name(s.mode) << ": " << why;
  EXPECT_NE(s.failure, PathFailure::NoPath) << why;
}

/// A flat stone floor (test::load_flat_floor) and, loaded after the first update with streaming
/// on and a build radius of 1, a strip of floor chunks with air above them at chunk columns x 2 to
/// 6, z -1 to 1: those more than a chunk from every agent stay deferred.
void streamed_strip(World& w, ProfileId* pid) {
  ASSERT_TRUE(test::load_real_blocks(w));
  std::uint16_t stone = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_TRUE(test::load_flat_floor(w, stone));
  ASSERT_EQ(w.add_profile(Profile{}, pid), Status::Ok);
  w.update();
  w.set_chunk_streaming(true);
  ASSERT_EQ(w.set_chunk_build_radius(1), Status::Ok);
  std::vector<std::uint16_t> floor(detail::kChunkCells, 0), air(detail::kChunkCells, 0);
  for (int i = 0; i < 256; ++i) floor[static_cast<std::size_t>(i)] = stone;
  for (int cx = 2; cx <= 6; ++cx)
    for (int cz = -1; cz <= 1; ++cz) {
      ASSERT_EQ(w.load_chunk({cx, 0, cz}, floor), Status::Ok);
      ASSERT_EQ(w.load_chunk({cx, 1, cz}, air), Status::Ok);
    }
}

// An agent teleported onto the ground of a deferred chunk plans from where it stands, not from
// the last cell it stood on before the teleport (AgentSystem::current_cell falls back to
// last_cell while the feet cell has no navigation).
class EditTeleport : public ::testing::TestWithParam<int> {};
TEST_P(EditTeleport, AnAgentTeleportedIntoADeferredChunkPlansFromItsNewPlace) {
  WorldDef def;
  def.lockstep_delay = GetParam();
  World w(def);
  ProfileId pid;
  ASSERT_NO_FATAL_FAILURE(streamed_strip(w, &pid));
  AgentId id;
  ASSERT_EQ(w.add_agent({pid, {4.5, 1.0, 4.5}}, &id), Status::Ok);
  for (int t = 0; t < 5; ++t) ASSERT_EQ(w.tick(0.05), Status::Ok);
  EXPECT_GT(w.deferred_chunk_builds(), 0u);
  ASSERT_EQ(w.set_agent_goal(id, CellPos{20, 1, 4}), Status::Ok);
  for (int t = 0; t < 3; ++t) ASSERT_EQ(w.tick(0.05), Status::Ok);
  // Onto the floor of column 5 (deferred: more than one chunk from the agent).
  ASSERT_TRUE(detail::WorldAccess::state(w).walker()->is_deferred({5, 0, 0}));
  ASSERT_EQ(w.teleport_agent(id, {86.5, 1.0, 4.5}), Status::Ok);
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  std::size_t far_starts = 0, requests = 0;
  for (int t = 0; t < 600; ++t) {
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    const detail::AgentRecord& a = detail::WorldAccess::state(w).agents.at(id.index);
    const int x = static_cast<int>(std::floor(a.body.feet.x));
    // (a request made before the teleport is dropped at the replan: look at the live one)
    if (const detail::RequestSlot* sl =
            a.request.generation && !a.replan ? nav.slot(a.request) : nullptr) {
      ++requests;
      if (std::abs(sl->spec.start.x - x) > 2 && ++far_starts <= 3)
        ADD_FAILURE() << "tick " << t << ": the agent at x " << x << " plans from "
                      << str(sl->spec.start);
    }
    if (a.mode == AgentMode::Moving && !a.corridor.cells.empty() &&
        std::abs(a.corridor.cells.front().x - x) > 2 && a.cell_index == 0 && ++far_starts <= 3)
      ADD_FAILURE() << "tick " << t << ": the agent at x " << x << " follows a corridor from "
                    << str(a.corridor.cells.front());
    if (a.mode == AgentMode::Arrived) break;
  }
  AgentState s;
  ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
  std::string why;
  (void)w.agent_reason(id, &why);
  std::printf("teleported agent: %s at (%.1f, %.1f, %.1f), %u requests, %u arrivals %s\n",
              agent_mode_name(s.mode), s.feet.x, s.feet.y, s.feet.z, s.requests, s.arrivals,
              why.c_str());
  EXPECT_EQ(far_starts, 0u);
  EXPECT_EQ(s.mode, AgentMode::Arrived);
}

// An agent added in a deferred chunk and given a goal at once waits for its chunk's build (which
// its presence pulls) instead of failing NotLoaded for good.
TEST_P(EditTeleport, AnAgentAddedInADeferredChunkWaitsForItsBuild) {
  WorldDef def;
  def.lockstep_delay = GetParam();
  World w(def);
  ProfileId pid;
  ASSERT_NO_FATAL_FAILURE(streamed_strip(w, &pid));
  AgentId keeper;  // keeps the radius busy near the origin
  ASSERT_EQ(w.add_agent({pid, {4.5, 1.0, 4.5}}, &keeper), Status::Ok);
  for (int t = 0; t < 3; ++t) ASSERT_EQ(w.tick(0.05), Status::Ok);
  ASSERT_TRUE(detail::WorldAccess::state(w).walker()->is_deferred({5, 0, 0}));
  AgentId id;
  ASSERT_EQ(w.add_agent({pid, {86.5, 1.0, 4.5}}, &id), Status::Ok);
  ASSERT_EQ(w.set_agent_goal(id, CellPos{90, 1, 10}), Status::Ok);
  AgentState s;
  for (int t = 0; t < 200; ++t) {
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
    if (s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed) break;
  }
  std::string why;
  (void)w.agent_reason(id, &why);
  EXPECT_EQ(s.mode, AgentMode::Arrived) << agent_mode_name(s.mode) << ": " << why;
  EXPECT_LE(s.requests, 10u);
}
INSTANTIATE_TEST_SUITE_P(Lockstep, EditTeleport, ::testing::Values(0, 1, 2, 4));

// The frontier rule for No with deferred chunks, for every movement class: a patchy built set
// (agents in a few places, radius 1), pairs of node cells of each class's built chunks, every No
// checked against a World with every loaded chunk built (the same classes); once with builds in
// flight, once after they landed.
TEST(EditBuildRadius, NoIsSoundForEveryClassWithDeferredChunks) {
  Source& src = source();
  ASSERT_TRUE(src.w);
  World w;
  detail::WorldAccess::state(w).registry = detail::WorldAccess::state(*src.w).registry;
  auto load = [&](const DPos& p) { return load_from_source(w, p); };
  auto ring = [&](const DPos& p) { return src.ring(p); };
  const int kOuter = kRelease ? 4 : 2;
  for (const DPos& p : detail::WorldAccess::state(*src.w).space.loaded_chunks())
    if (ring(p) <= 0) {
      ASSERT_EQ(load(p), Status::Ok);
    }
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  std::vector<ProfileId> others = add_other_classes(w, false);
  w.set_chunk_streaming(true);
  ASSERT_EQ(w.set_chunk_build_radius(1), Status::Ok);
  for (const DPos& p : detail::WorldAccess::state(*src.w).space.loaded_chunks())
    if (ring(p) > 0 && ring(p) <= kOuter) {
      ASSERT_EQ(load(p), Status::Ok);
    }
  // Agents at a few places (pulling builds around them).
  const NavGrid& sg = detail::WorldAccess::state(*src.w).walker()->grid();
  std::vector<CellPos> sstand = test::standable_cells(sg);
  Rng rng{0xB2F00001u + env_seed()};
  std::vector<AgentId> agents;
  for (int k = 0; k < 4; ++k) {
    for (int tries = 0; tries < 5000; ++tries) {
      const CellPos c = sstand[rng.below(static_cast<std::uint32_t>(sstand.size()))];
      if (ring(detail::chunk_of(c)) > kOuter - 1) continue;
      AgentId id;
      ASSERT_EQ(w.add_agent({pid, {c.x + 0.5, c.y + sg.floor_q(c) / 64.0, c.z + 0.5}}, &id),
                Status::Ok);
      agents.push_back(id);
      break;
    }
  }
  std::vector<ProfileId> profiles{pid};
  profiles.insert(profiles.end(), others.begin(), others.end());
  std::size_t pairs = 0, nos = 0, wrong = 0, unknown = 0;
  auto check = [&](const char* when) {
    ProfileId fp;
    std::unique_ptr<World> full = test::fresh_copy(w, &fp);
    std::vector<ProfileId> fothers = add_other_classes(*full, false);
    std::vector<ProfileId> fprofiles{fp};
    fprofiles.insert(fprofiles.end(), fothers.begin(), fothers.end());
    for (std::size_t k = 0; k < profiles.size(); ++k) {
      const detail::NavWorld* nav =
          detail::WorldAccess::state(w).nav_of(detail::WorldAccess::state(w).profiles[profiles[k].index].movement_class);
      if (!nav) continue;
      std::vector<CellPos> nodes;
      for (const NavChunk* ch : nav->grid().ordered_chunks()) {
        if (ch->uniform) continue;
        for (int i = 0; i < detail::kChunkCells; ++i)
          if (detail::kind_node(ch->kind_at(i))) nodes.push_back(detail::cell_of(ch, i));
      }
      if (nodes.size() < 2) continue;
      for (int n = 0; n < (kRelease ? 1500 : 150); ++n) {
        const CellPos a = nodes[rng.below(static_cast<std::uint32_t>(nodes.size()))];
        const CellPos b = nodes[rng.below(static_cast<std::uint32_t>(nodes.size()))];
        const Reach r = w.reachable(profiles[k], pos(a), pos(b));
        ++pairs;
        if (r.answer == ReachAnswer::Unknown) {
          unknown += r.reason == ReachReason::NotLoaded;
          continue;
        }
        const Reach f = full->reachable(fprofiles[k], pos(a), pos(b));
        nos += r.answer == ReachAnswer::No;
        if (r.answer != f.answer && ++wrong <= 5)
          ADD_FAILURE() << when << " class slot " << k << ": " << str(a) << " -> " << str(b)
                        << " = " << reach_answer_name(r.answer) << ", the full build says "
                        << reach_answer_name(f.answer) << "/" << reach_reason_name(f.reason);
      }
    }
  };
  ASSERT_EQ(w.tick(0.05), Status::Ok);
  check("builds in flight");
  for (int t = 0; t < 8; ++t) ASSERT_EQ(w.tick(0.05), Status::Ok);
  check("builds landed");
  // Teleport the agents elsewhere: new builds in flight, the old ones kept.
  for (AgentId id : agents) {
    const CellPos c = sstand[rng.below(static_cast<std::uint32_t>(sstand.size()))];
    if (ring(detail::chunk_of(c)) > kOuter) continue;
    ASSERT_EQ(w.teleport_agent(id, {c.x + 0.5, c.y + sg.floor_q(c) / 64.0, c.z + 0.5}), Status::Ok);
  }
  ASSERT_EQ(w.tick(0.05), Status::Ok);
  check("after teleports");
  std::printf(
      "No with deferred chunks, every class: %zu pairs, %zu No/Yes checked (%zu No), %zu "
      "wrong, %zu Unknown(NotLoaded); %zu chunks deferred\n",
      pairs, pairs - unknown, nos, wrong, unknown, w.deferred_chunk_builds());
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(nos, 0u);
}

// Many agents with a radius, goals anywhere in the loaded rings (some in deferred chunks, some
// unreachable, some in the air), now and then a new goal, blocks edited on corridors: no agent
// plans on average more than once per 10 ticks, none stands in or plans through an unbuilt
// chunk.
TEST(EditBuildRadius, ManyAgentsDoNotSpinRequests) {
  Source& src = source();
  ASSERT_TRUE(src.w);
  World w;
  ProfileId pid;
  const int kOuter = kRelease ? 6 : 3;
  ASSERT_NO_FATAL_FAILURE(streamed_rings(w, kOuter, &pid));
  auto ring = [&](const DPos& p) { return src.ring(p); };
  const NavGrid& g = detail::WorldAccess::state(w).walker()->grid();
  const detail::Space& space = detail::WorldAccess::state(w).space;
  const NavGrid& sg = detail::WorldAccess::state(*src.w).walker()->grid();
  std::vector<CellPos> sstand = test::standable_cells(sg), home;
  for (const CellPos& c : sstand)
    if (ring(detail::chunk_of(c)) <= kOuter && g.standable(c)) home.push_back(c);
  ASSERT_GT(home.size(), 100u);
  std::uint16_t stone = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  Rng rng{0xB2A00001u + env_seed()};
  auto any_goal = [&]() -> CellPos {
    const CellPos c = sstand[rng.below(static_cast<std::uint32_t>(sstand.size()))];
    switch (rng.below(6)) {
      case 0:
        return CellPos{c.x, c.y + 5, c.z};  // in the air
      case 1:
        return CellPos{c.x + 16 * (kOuter + 2), c.y, c.z};  // unloaded
      default:
        return c;
    }
  };
  const int kAgents = kRelease ? 30 : 8, kTicks = kRelease ? 600 : 200;
  std::vector<AgentId> ids;
  for (int k = 0; k < kAgents; ++k) {
    const CellPos c = home[rng.below(static_cast<std::uint32_t>(home.size()))];
    AgentId id;
    ASSERT_EQ(w.add_agent({pid, {c.x + 0.5, c.y + g.floor_q(c) / 64.0, c.z + 0.5}}, &id),
              Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, pos(any_goal())), Status::Ok);
    ids.push_back(id);
  }
  std::vector<std::uint32_t> base(ids.size(), 0);
  std::size_t bad_feet = 0, bad_corridor = 0, edits = 0, goals = 0;
  std::array<std::size_t, 6> modes{};
  for (int t = 0; t < kTicks; ++t) {
    if (t % 4 == 1) {  // a block on a corridor ahead
      const detail::AgentRecord& a =
          detail::WorldAccess::state(w).agents.at(ids[rng.below(static_cast<std::uint32_t>(ids.size()))].index);
      if (a.mode == AgentMode::Moving && a.cell_index + 5 < a.corridor.cells.size()) {
        const CellPos c = a.corridor.cells[a.cell_index + 4];
        edits += w.set_block(pos(c), stone) == Status::Ok;
      }
    }
    if (t % 50 == 25) {  // a new goal for one agent
      const AgentId id = ids[rng.below(static_cast<std::uint32_t>(ids.size()))];
      goals += w.set_agent_goal(id, pos(any_goal())) == Status::Ok;
    }
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      AgentState s;
      ASSERT_EQ(w.agent_state(ids[k], &s), Status::Ok);
      const DPos fp = detail::chunk_of(feet_cell(s));
      if ((!space.chunk(fp) || !g.chunk(fp)) && ++bad_feet <= 5)
        ADD_FAILURE() << "tick " << t << ": agent " << k << " feet in " << str(feet_cell(s))
                      << (space.chunk(fp) ? " (unbuilt)" : " (unloaded)");
      const detail::AgentRecord& a = detail::WorldAccess::state(w).agents.at(ids[k].index);
      if (a.mode == AgentMode::Moving)
        for (std::size_t i = a.cell_index; i < a.corridor.cells.size(); ++i) {
          const DPos cp = detail::chunk_of(a.corridor.cells[i]);
          if (!g.chunk(cp) || !space.chunk(cp)) {
            if (++bad_corridor <= 5)
              ADD_FAILURE() << "tick " << t << ": agent " << k << "'s corridor enters "
                            << str(a.corridor.cells[i]);
            break;
          }
        }
      if (t + 1 == kTicks) ++modes[static_cast<std::size_t>(s.mode)];
    }
  }
  std::uint32_t max_req = 0, total = 0;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    AgentState s;
    ASSERT_EQ(w.agent_state(ids[k], &s), Status::Ok);
    max_req = std::max(max_req, s.requests);
    total += s.requests;
    std::string why;
    (void)w.agent_reason(ids[k], &why);
    if (s.requests > static_cast<std::uint32_t>(kTicks / 10 + 10))
      ADD_FAILURE() << "agent " << k << " made " << s.requests << " requests in " << kTicks
                    << " ticks (" << agent_mode_name(s.mode) << ": " << why << ")";
  }
  std::printf(
      "%d agents, %d ticks: %u requests (at most %u for one agent), %zu corridor edits, "
      "%zu new goals; at the end %zu idle, %zu planning, %zu moving, %zu arrived, %zu "
      "failed, %zu blocked\n",
      kAgents, kTicks, total, max_req, edits, goals, modes[0], modes[1], modes[2], modes[3],
      modes[4], modes[5]);
  EXPECT_EQ(bad_feet, 0u);
  EXPECT_EQ(bad_corridor, 0u);
}

// Defect: several edits in one update. maintain_edit classifies the dependency box of each edit
// from the blocks as they are after *every* edit of the update, so an earlier edit whose box holds
// a cell a later edit changed takes that change in (the later edit then sees no layer 0 change
// and recomputes nothing). For a hazard flag, the earlier edit recomputed the moves (and the
// danger band) only around its own dependency box, which covers the cells reading its own cell's
// flags but not those reading a flag two cells below its box (the walker's band reads two cells
// up) or two columns toward -x / -z (the 2x2 footprint's band): they kept a danger kind the
// hazard no longer gave them. (Before the moves box came from the changed cells, every edit
// recomputed its own box whatever it saw, which covered them.)
TEST(EditLayer0, AHazardRemovedInTheSameUpdateAsAnEditAboveIt) {
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  std::uint16_t stone = 0, lava = 0, air = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w.block_value("lava", &lava), Status::Ok);
  ASSERT_EQ(w.block_value("air", &air), Status::Ok);
  ASSERT_TRUE(test::load_flat_floor(w, stone));
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  add_other_classes(w, false);
  // Lava on a pillar two cells above the floor cells around it (the walker's band reads it from
  // (3, 1, 4)), and a lava block the 2x2 footprint reads from two columns toward -x and -z.
  ASSERT_EQ(w.set_block(CellPos{4, 2, 4}, stone), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{4, 3, 4}, lava), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{10, 1, 10}, lava), Status::Ok);
  w.update();
  EXPECT_EQ(compare_all(w, "lava placed"), 0u);
  const NavGrid& g = detail::WorldAccess::state(w).walker()->grid();
  ASSERT_EQ(g.kind(CellPos{3, 1, 4}), detail::CellKind::DangerFire);
  // One update: an edit three cells above the lava, then the lava goes; an edit one column +x
  // and +z of the other lava block, then that lava goes.
  ASSERT_EQ(w.set_block(CellPos{4, 6, 4}, stone), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{4, 3, 4}, air), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{11, 1, 11}, stone), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{10, 1, 10}, air), Status::Ok);
  w.update();
  EXPECT_EQ(g.kind(CellPos{3, 1, 4}), detail::CellKind::Walkable);
  EXPECT_EQ(compare_all(w, "lava removed in the same update as an edit near it"), 0u);
  // And the other way: lava placed in the same update as an edit above it leaves the cells
  // around it Walkable (a profile pricing or refusing the danger band walks next to lava).
  ASSERT_EQ(w.set_block(CellPos{4, 6, 4}, air), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{4, 3, 4}, lava), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{11, 1, 11}, air), Status::Ok);
  ASSERT_EQ(w.set_block(CellPos{10, 1, 10}, lava), Status::Ok);
  w.update();
  EXPECT_EQ(g.kind(CellPos{3, 1, 4}), detail::CellKind::DangerFire);
  EXPECT_EQ(compare_all(w, "lava placed in the same update as an edit near it"), 0u);
}

// Defect (older than the recent changes): a box edit of more than 512 cells takes the chunk path
// (NavWorld::maintain_chunks), which classifies again only the chunks of the edit's dependency
// box. Whether a chunk is stored uniform reads the chunks above and below it, so a box in the
// lower part of a chunk makes the open-sky chunk above it need arrays, and that chunk stayed
// uniform: its top cells under an unloaded chunk kept the full 255 clearance a fresh build does
// not give them (an unloaded chunk counts as a ceiling), against "equal blocks give equal
// navigation data". maintain_edit checks the chunks above and below for this; the chunk path did
// not.
TEST(EditLayer0, ABigBoxMakesTheSkyChunkAboveNeedArrays) {
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  std::uint16_t stone = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_TRUE(test::load_flat_floor(w, stone));
  std::vector<std::uint16_t> air(detail::kChunkCells, 0);
  for (int cz = -1; cz <= 1; ++cz)
    for (int cx = -1; cx <= 1; ++cx) ASSERT_EQ(w.load_chunk({cx, 2, cz}, air), Status::Ok);
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  add_other_classes(w, false);
  EXPECT_EQ(compare_all(w, "start"), 0u);
  const NavChunk* sky = detail::WorldAccess::state(w).walker()->grid().chunk({0, 2, 0});
  ASSERT_TRUE(sky && sky->uniform);
  // 9 x 8 x 8 = 576 cells of stone in the middle of chunk (0, 1, 0), far from its top.
  ASSERT_EQ(w.set_box(CellPos{2, 17, 2}, CellPos{10, 24, 9}, stone), Status::Ok);
  w.update();
  EXPECT_EQ(compare_all(w, "a 576-cell box under a sky chunk"), 0u);
  // And back (the sky chunk may be uniform again).
  ASSERT_EQ(w.set_box(CellPos{2, 17, 2}, CellPos{10, 24, 9}, 0), Status::Ok);
  w.update();
  EXPECT_EQ(compare_all(w, "the box removed"), 0u);
}

}  // namespace
}  // namespace voxnav
