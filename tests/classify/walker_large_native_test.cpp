// The walker_large class (1.98 x 2.95 on a 2x2 footprint, step 1, jump apex 1.25, drops of 4, no
// climbing) on real data:
// - layer 0 of every foot cell of a real region equals a brute-force oracle that puts the
//   1.98 x 2.95 box over the four columns and tests it against the registry's collision boxes
//   (independent of the classification code), chunk borders included, and reachability agrees
//   with a BFS over the class's move words (No is never wrong);
// - a worker-style build (chunks streamed in and classified on a two-thread pool from snapshots)
//   classifies the foot cells straddling chunk borders like the oracle and equals a fresh build;
// - random edits near chunk borders leave layers equal to a fresh build;
// - smallhouse1.schem's one-wide doors keep the class outside while a walker gets in;
// - its routes avoid a one-wide passage a walker takes, and its agents (moved by the shared
//   integrator) arrive across chunk borders without their body ever overlapping collision;
// - a body larger than the envelope is refused, naming the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/class_envelopes.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/integrate.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using detail::CellKind;
using Rng = tools::SplitMix64;

const std::string kRegion = std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/1.16/r.0.-1.mca";
const std::string kSmallHouse =
    std::string(VOXNAV_SHARED_DATA) + "/minecraft/schematics/smallhouse1.schem";

constexpr double kWidth = 1.98, kHeight = 2.95;

Profile large_profile(const std::string& id = "golem") {
  Profile p;
  p.id = id;
  p.movement_class = MovementClass::WalkerLarge;
  p.width = kWidth;
  p.height = kHeight;
  p.step_height = 1.0;
  p.jump_apex = 1.25;
  p.max_drop = 4;
  return p;
}

CellPos pos(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }

/// Block values of a space with a one-chunk cache; -1 for a cell of an unloaded chunk.
class Blocks {
 public:
  explicit Blocks(const detail::Space& s) : s_(s) {}
  int at(int x, int y, int z) {
    const ChunkPos p{x >> 4, y >> 4, z >> 4};
    if (!has_ || !(p == last_)) {
      last_ = p;
      ch_ = s_.chunk(p);
      has_ = true;
    }
    return ch_ ? ch_->get((x & 15) | ((z & 15) << 4) | ((y & 15) << 8)) : -1;
  }

 private:
  const detail::Space& s_;
  ChunkPos last_{};
  const detail::Chunk* ch_ = nullptr;
  bool has_ = false;
};

/// What the oracle expects of a foot cell.
struct Expect {
  bool node = false;     ///< supported, and the body fits (any kind but Blocked and Air)
  bool blocked = false;  ///< not a node, and not merely unsupported (Air)
  int floor_q = 0;       ///< standing height in the cell, 1/64
  bool door = false;     ///< a door value in the body's cells
  bool water = false;    ///< a swimmable fluid in one of the four cells at the feet' level
  bool harm = false;     ///< a harmful fluid in the four columns at the feet' level or one above
};

/// The brute-force oracle: the 1.98 x 2.95 box whose centre stands (0.5, 0, 0.5) from the foot
/// cell's centre, tested against the registry's collision boxes (floats, in the cells' own
/// coordinates) of every cell around it. Doors count as open (no collision, no support); cells of
/// unloaded chunks are solid. The body stands on the highest box top under its footprint within
/// the foot cell's height (a box reaching the top of the foot cell's own row puts the feet in the
/// cell above: the foot cell is blocked).
Expect oracle(Blocks& b, const detail::BlockRegistry& reg, const CellPos& f) {
  Expect e;
  const double x0 = f.x + 1.0 - kWidth / 2, x1 = f.x + 1.0 + kWidth / 2;
  const double z0 = f.z + 1.0 - kWidth / 2, z1 = f.z + 1.0 + kWidth / 2;
  auto in_footprint = [&](const detail::Box& bx, int cx, int cz) {
    return cx + double(bx.max[0]) > x0 && cx + double(bx.min[0]) < x1 &&
           cz + double(bx.max[2]) > z0 && cz + double(bx.min[2]) < z1;
  };
  auto is_door = [&](int v) {
    return (reg.traits(static_cast<std::uint16_t>(v)) & detail::kTraitDoor) != 0;
  };
  double support = -1;  // above f.y
  for (int cz = f.z; cz <= f.z + 1; ++cz)
    for (int cx = f.x; cx <= f.x + 1; ++cx) {
      const int v = b.at(cx, f.y, cz);
      if (v < 0) {
        e.blocked = true;
        return e;
      }
      const std::uint32_t tr = reg.traits(static_cast<std::uint16_t>(v));
      e.water |= (tr & detail::kTraitFluidSwim) != 0;
      e.harm |= (tr & detail::kTraitFluidHarm) != 0;
      const int u = b.at(cx, f.y + 1, cz);
      if (u >= 0)
        e.harm |= (reg.traits(static_cast<std::uint16_t>(u)) & detail::kTraitFluidHarm) != 0;
      if (!is_door(v))
        for (const detail::Box& bx : reg.type(static_cast<std::uint16_t>(v)).boxes) {
          if (!in_footprint(bx, cx, cz)) continue;
          if (bx.max[1] >= 1.0f) {
            e.blocked = true;
            return e;
          }
          support = std::max(support, double(bx.max[1]));
        }
      const int w = b.at(cx, f.y - 1, cz);
      if (w >= 0 && !is_door(w))
        for (const detail::Box& bx : reg.type(static_cast<std::uint16_t>(w)).boxes)
          if (in_footprint(bx, cx, cz) && bx.max[1] >= 1.0f)
            support = std::max(support, double(bx.max[1]) - 1.0);
    }
  if (support < 0) return e;  // Air: nothing to stand on
  const double feet = f.y + support, top = feet + kHeight;
  for (int y = f.y; y <= f.y + 3; ++y)
    for (int cz = f.z; cz <= f.z + 1; ++cz)
      for (int cx = f.x; cx <= f.x + 1; ++cx) {
        if (y >= top) continue;
        const int v = b.at(cx, y, cz);
        if (v < 0) {  // unloaded: solid
          e.blocked = true;
          return e;
        }
        if (is_door(v)) {
          e.door = true;
          continue;
        }
        for (const detail::Box& bx : reg.type(static_cast<std::uint16_t>(v)).boxes)
          if (in_footprint(bx, cx, cz) && y + double(bx.max[1]) > feet &&
              y + double(bx.min[1]) < top) {
            e.blocked = true;
            return e;
          }
      }
  e.node = true;
  e.floor_q = static_cast<int>(std::lround(support * detail::kHeightUnits));
  return e;
}

/// Compares layer 0 of foot cell `c` with the oracle; returns a description of the difference or
/// "".
std::string check_cell(const detail::NavGrid& g, Blocks& b, const detail::BlockRegistry& reg,
                       const CellPos& c) {
  const Expect e = oracle(b, reg, c);
  const CellKind k = g.kind(c);
  // Supported with the body clear: every kind but Blocked and Air (water cells too, which are no
  // node of the move graph).
  const bool node = k != CellKind::Blocked && k != CellKind::Air;
  char buf[200];
  auto fail = [&](const char* what) {
    std::snprintf(buf, sizeof buf,
                  "%s: %s (kind %d floor %d; oracle node %d blocked %d floor %d door %d)",
                  test::str(c).c_str(), what, int(k), g.floor_q(c), int(e.node), int(e.blocked),
                  e.floor_q, int(e.door));
    return std::string(buf);
  };
  if (k == CellKind::Climbable) return fail("climbable for a class that cannot climb");
  if (node != e.node) return fail("node differs");
  if (!node) {
    if ((k == CellKind::Blocked) != e.blocked) return fail("blocked / air differs");
    return {};
  }
  if (g.floor_q(c) != e.floor_q) return fail("standing height differs");
  if (detail::kind_door(k) != e.door) return fail("door differs");
  if (!e.door && !e.harm && (k == CellKind::Water) != e.water) return fail("water differs");
  return {};
}

struct OracleTally {
  std::size_t cells = 0, nodes = 0, border = 0, border_nodes = 0, wrong = 0;
  std::string first;
};

/// Checks every foot cell of the grid's chunks (or only those with lx == 15 or lz == 15).
OracleTally check_grid(const detail::NavGrid& g, const detail::Space& space, bool border_only) {
  OracleTally t;
  Blocks b(space);
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const int lx = i & 15, lz = (i >> 4) & 15;
      const bool border = lx == 15 || lz == 15;
      if (border_only && !border) continue;
      const CellPos c = detail::cell_of(ch, i);
      ++t.cells;
      const bool node = detail::kind_node(ch->kind_at(i));
      t.nodes += node;
      t.border += border;
      t.border_nodes += border && node;
      const std::string d = check_cell(g, b, space.registry(), c);
      if (!d.empty() && ++t.wrong == 1) t.first = d;
    }
  }
  return t;
}

// ---- whole-map invariant
// -------------------------------------------------------------------------

TEST(WalkerLarge, LayerZeroMatchesTheBoxOracleAndReachabilityIsExact) {
  ProfileId walker;
  std::unique_ptr<World> w = test::load_region(kRegion, &walker);
  ASSERT_TRUE(w);
  ProfileId golem;
  std::string err;
  ASSERT_EQ(w->add_profile(large_profile(), &golem, &err), Status::Ok) << err;
  w->update();
  detail::WorldState& st = detail::WorldAccess::state(*w);
  ASSERT_TRUE(st.nav_of(MovementClass::WalkerLarge));
  detail::NavWorld& nav = *st.nav_of(MovementClass::WalkerLarge);
  const detail::NavGrid& g = nav.grid();
  EXPECT_TRUE(g.envelope().footprint2);

  const OracleTally t = check_grid(g, st.space, false);
  std::printf(
      "walker_large: %zu foot cells checked (%zu nodes), %zu on chunk borders (%zu nodes), "
      "%zu wrong; %zu islands\n",
      t.cells, t.nodes, t.border, t.border_nodes, t.wrong, nav.islands().component_count());
  EXPECT_EQ(t.wrong, 0u) << t.first;
  EXPECT_GT(t.nodes, 20000u);
  EXPECT_GT(t.border_nodes, 2000u);

  // Moves: never a climb, every move lands on a node, every rise within the class's jump and
  // every drop within its max drop.
  std::vector<CellPos> nodes;
  std::size_t bad_moves = 0;
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      if (!detail::kind_node(ch->kind_at(i))) continue;
      const CellPos c = detail::cell_of(ch, i);
      nodes.push_back(c);
      if (ch->vmoves_at(i)) ++bad_moves;
      const std::uint32_t word = ch->moves_at(i);
      for (int dir = 0; dir < 8; ++dir) {
        const int code = detail::move_code(word, dir);
        if (!code) continue;
        const detail::MoveCode mc = detail::kMoveCodes[code];
        const CellPos to{c.x + detail::kDirDx[dir], c.y + mc.dy, c.z + detail::kDirDz[dir]};
        const int rise = mc.dy * detail::kHeightUnits + g.floor_q(to) - g.floor_q(c);
        if (mc.kind == EdgeKind::Climb || !g.node(to) || rise > 80 || mc.dy < -4)
          ++bad_moves;
      }
    }
  }
  EXPECT_EQ(bad_moves, 0u);

  // Reachability against a BFS over the move words: exact with every gate; for the profile (no
  // doors, no climbing) never a wrong No.
  Rng rng{0x1A26E};
  test::PairOracle bfs(g);
  std::size_t yes = 0, no = 0, wrong = 0, wrong_no = 0;
  for (int k = 0; k < 600; ++k) {
    // Half the pairs near each other (nodes are in chunk order), half anywhere.
    const std::uint32_t ia = rng.below(static_cast<std::uint32_t>(nodes.size()));
    const std::uint32_t ib =
        k % 2 ? std::min<std::uint32_t>(static_cast<std::uint32_t>(nodes.size()) - 1,
                                        ia + rng.below(300))
              : rng.below(static_cast<std::uint32_t>(nodes.size()));
    const CellPos a = nodes[ia], b = nodes[ib];
    const bool truth = bfs.reaches(a, b);
    const Reach r = nav.reachable(a, b);
    if ((r.answer == ReachAnswer::Yes) != truth || r.answer == ReachAnswer::Unknown)
      ++wrong;
    const Reach pr = w->reachable(golem, pos(a), pos(b));
    if (pr.answer == ReachAnswer::No && bfs.reaches(a, b, detail::kGateAll)) ++wrong_no;
    (truth ? yes : no) += 1;
  }
  std::printf("reachability: %zu yes, %zu no, %zu wrong, %zu wrong No\n", yes, no, wrong, wrong_no);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(wrong_no, 0u);
  EXPECT_GT(yes, 20u);
}

// ---- chunk borders on a worker-style build
// --------------------------------------------------------

// A window of the region loaded first and built on the main thread; then the columns around it are
// streamed in (layer 0 built on a two-thread pool from snapshots of each chunk and the neighbours
// its foot cells stand over), some of them edited while their builds are in flight. Foot cells
// straddling chunk borders are classified like the oracle, and the layers equal a fresh build.
TEST(WalkerLarge, ChunkBordersOnWorkerBuilds) {
  ProfileId spid;
  std::unique_ptr<World> src = test::load_region(kRegion, &spid);
  ASSERT_TRUE(src);
  const detail::Space& sspace = detail::WorldAccess::state(*src).space;
  // The window: around the column of the middle walker node of the region.
  std::vector<CellPos> stand;
  for (const detail::NavChunk* ch : detail::WorldAccess::state(*src).walker()->grid().ordered_chunks())
    if (!ch->uniform)
      for (int i = 0; i < detail::kChunkCells; i += 97)
        if (detail::kind_standable(ch->kind_at(i))) stand.push_back(detail::cell_of(ch, i));
  ASSERT_FALSE(stand.empty());
  const CellPos mid = stand[stand.size() / 2];
  const int cx0 = mid.x >> 4, cz0 = mid.z >> 4;
  auto ring = [&](int cx, int cz) { return std::max(std::abs(cx - cx0), std::abs(cz - cz0)); };

  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  World w(def);
  detail::WorldAccess::state(w).registry = sspace.registry();
  std::vector<std::uint16_t> values(detail::kChunkCells);
  auto load_section = [&](const ChunkPos& p) {
    const detail::Chunk* ch = sspace.chunk(p);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    return w.load_chunk(ChunkPos{p.x, p.y, p.z}, values);
  };
  std::vector<ChunkPos> later;
  for (const ChunkPos& p : sspace.loaded_chunks()) {
    if (ring(p.x, p.z) <= 1) {
      ASSERT_EQ(load_section(p), Status::Ok);
    } else if (ring(p.x, p.z) <= 3) {
      later.push_back(p);
    }
  }
  ProfileId golem;
  std::string err;
  ASSERT_EQ(w.add_profile(large_profile(), &golem, &err), Status::Ok) << err;
  w.update();
  w.set_chunk_streaming(true);
  detail::NavWorld& nav = *detail::WorldAccess::state(w).nav_of(MovementClass::WalkerLarge);
  // Stream the other columns in, one column per update, editing border cells of a freshly loaded
  // chunk every third column (its build, in flight, is then classified again at install).
  std::sort(later.begin(), later.end(), [](const ChunkPos& a, const ChunkPos& b) {
    return a.x != b.x ? a.x < b.x : a.z != b.z ? a.z < b.z : a.y < b.y;
  });
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w.block_value("air", &air), Status::Ok);
  Rng rng{0xB0BDE7};
  int columns = 0;
  for (std::size_t k = 0; k < later.size();) {
    const ChunkPos first = later[k];
    std::vector<ChunkPos> col;
    while (k < later.size() && later[k].x == first.x && later[k].z == first.z)
      col.push_back(later[k++]);
    for (const ChunkPos& p : col) ASSERT_EQ(load_section(p), Status::Ok);
    w.update();  // dispatches the builds
    if (++columns % 3 == 0)
      for (int e = 0; e < 6; ++e) {
        const ChunkPos& p = col[rng.below(static_cast<std::uint32_t>(col.size()))];
        const int lx = rng.below(2) ? 15 : static_cast<int>(rng.below(16));
        const int lz = lx == 15 ? static_cast<int>(rng.below(16)) : 15;
        const CellPos c{p.x * 16 + lx, p.y * 16 + static_cast<int>(rng.below(16)), p.z * 16 + lz};
        ASSERT_EQ(w.set_block(c, rng.below(2) ? stone : air), Status::Ok);
      }
  }
  for (int t = 0; t < 6 || w.pending_chunk_builds() > 0; ++t) {
    ASSERT_LT(t, 50);
    w.update();
  }
  std::printf(
      "worker builds installed %llu (%llu classified again, %llu only the band facing a "
      "neighbour loaded or edited meanwhile)\n",
      static_cast<unsigned long long>(nav.stats().builds_installed),
      static_cast<unsigned long long>(nav.stats().builds_reclassified),
      static_cast<unsigned long long>(nav.stats().builds_band_reclassified));
  EXPECT_GT(nav.stats().builds_installed, 40u);
  EXPECT_GT(nav.stats().builds_reclassified + nav.stats().builds_band_reclassified, 0u);
  const OracleTally t = check_grid(nav.grid(), detail::WorldAccess::state(w).space, true);
  std::printf("border foot cells: %zu (%zu nodes), %zu wrong\n", t.cells, t.border_nodes, t.wrong);
  EXPECT_EQ(t.wrong, 0u) << t.first;
  EXPECT_GT(t.border_nodes, 500u);
  detail::NavWorld fresh(detail::WorldAccess::state(w).space, detail::class_envelope(MovementClass::WalkerLarge),
                         nullptr);
  fresh.build_from_space();
  const test::LayerDiff d = test::compare_layers(nav, fresh);
  EXPECT_EQ(d.total(), 0u) << d.first;
}

// ---- edits
// ---------------------------------------------------------------------------------------

TEST(WalkerLarge, EditsNearChunkBordersEqualAFreshBuild) {
  ProfileId walker;
  std::unique_ptr<World> w = test::load_region(kRegion, &walker);
  ASSERT_TRUE(w);
  ProfileId golem;
  std::string err;
  ASSERT_EQ(w->add_profile(large_profile(), &golem, &err), Status::Ok) << err;
  w->update();
  detail::WorldState& st = detail::WorldAccess::state(*w);
  detail::NavWorld& nav = *st.nav_of(MovementClass::WalkerLarge);
  // Edit sites: large nodes whose footprint straddles or touches a chunk border.
  std::vector<CellPos> sites;
  for (const detail::NavChunk* ch : nav.grid().ordered_chunks())
    if (!ch->uniform)
      for (int i = 0; i < detail::kChunkCells; ++i) {
        const int lx = i & 15, lz = (i >> 4) & 15;
        const bool near = lx <= 1 || lx >= 14 || lz <= 1 || lz >= 14;
        if (near && detail::kind_node(ch->kind_at(i))) sites.push_back(detail::cell_of(ch, i));
      }
  ASSERT_GT(sites.size(), 1000u);
  const char* const kStates[] = {
      "stone",  "air",         "air",       "oak_slab[type=bottom]", "oak_fence",  "water",
      "cactus", "magma_block", "soul_sand", "oak_door[half=lower]",  "glass_pane", "fire"};
  std::vector<std::uint16_t> vals;
  for (const char* s : kStates) {
    std::uint16_t v = 0;
    ASSERT_EQ(w->block_value(s, &v), Status::Ok) << s;
    vals.push_back(v);
  }
  Rng rng{0xED175};
  const int kEdits = test::rounds(1000, 500);
  for (int e = 0; e < kEdits; ++e) {
    const CellPos s = sites[rng.below(static_cast<std::uint32_t>(sites.size()))];
    const CellPos c{s.x + static_cast<int>(rng.below(3)) - 1, s.y + static_cast<int>(rng.below(5)) - 1,
                 s.z + static_cast<int>(rng.below(3)) - 1};
    if (!st.space.is_cell_loaded(c)) continue;
    ASSERT_EQ(w->set_block(pos(c), vals[rng.below(static_cast<std::uint32_t>(vals.size()))]),
              Status::Ok);
    if (e % 7 == 0) w->update();
    if (e % 500 == 499 || e + 1 == kEdits) {
      w->update();
      detail::NavWorld fresh(st.space, detail::class_envelope(MovementClass::WalkerLarge), nullptr);
      fresh.build_from_space();
      const test::LayerDiff d = test::compare_layers(nav, fresh);
      std::printf("after %d edits: %zu cells compared, %zu differences\n", e + 1, d.cells,
                  d.total());
      ASSERT_EQ(d.total(), 0u) << "after " << e + 1 << " edits: " << d.first;
    }
  }
  // And the edited foot cells still match the oracle.
  Blocks b(st.space);
  std::size_t wrong = 0;
  std::string first;
  for (const CellPos& s : sites)
    for (int dy = -2; dy <= 2; ++dy) {
      const std::string d = check_cell(nav.grid(), b, st.registry, CellPos{s.x, s.y + dy, s.z});
      if (!d.empty() && ++wrong == 1) first = d;
    }
  EXPECT_EQ(wrong, 0u) << first;
}

// ---- smallhouse1: one-wide doors
// -----------------------------------------------------------------

TEST(WalkerLarge, OneWideDoorsKeepTheClassOutsideSmallHouse) {
  ProfileId walker;
  std::unique_ptr<World> w = test::load_region(kSmallHouse, &walker);
  ASSERT_TRUE(w);
  ProfileId golem;
  std::string err;
  ASSERT_EQ(w->add_profile(large_profile(), &golem, &err), Status::Ok) << err;
  // The host takes away the carpets on the inner side of the ground doors (a walker fits under
  // the lintel on them since its envelope is 1.8 tall; the scene is kept as it was checked).
  std::uint16_t air = 0;
  ASSERT_EQ(w->block_value("air", &air), Status::Ok);
  ASSERT_EQ(w->set_block({10, 1, 12}, air), Status::Ok);
  ASSERT_EQ(w->set_block({10, 1, 6}, air), Status::Ok);
  w->update();
  // Doors, fences, stairs, slabs, carpets and a ladder: every foot cell as the oracle says.
  const OracleTally t = check_grid(detail::WorldAccess::state(*w).nav_of(MovementClass::WalkerLarge)->grid(), detail::WorldAccess::state(*w).space, false);
  EXPECT_EQ(t.wrong, 0u) << t.first;
  EXPECT_GT(t.nodes, 100u);
  const CellPos outside{10, 1, 3}, inside{10, 1, 7};
  ASSERT_EQ(w->reachable(walker, outside, inside).answer, ReachAnswer::Yes);
  // Foot cells of the large class on the outside ring and inside the house (x 7..13, z 7..11).
  std::vector<CellPos> out_cells, in_cells;
  for (int z = 0; z <= 19; ++z)
    for (int x = 0; x <= 20; ++x) {
      const CellPos c{x, 1, z};
      if (!w->is_standable(golem, c)) continue;
      const bool in = x >= 7 && x + 1 <= 13 && z >= 7 && z + 1 <= 11;
      const bool out = x + 1 < 6 || x > 14 || z + 1 < 6 || z > 12;
      if (in) in_cells.push_back(c);
      if (out) out_cells.push_back(c);
    }

  ASSERT_GT(out_cells.size(), 20u);
  ASSERT_GT(in_cells.size(), 2u);
  int checked = 0;
  for (const CellPos& a : out_cells)
    for (const CellPos& b : in_cells) {
      // Pairs the walker joins (from the same cells: standable for it too).
      if (!w->is_standable(walker, a) || !w->is_standable(walker, b) ||
          w->reachable(walker, a, b).answer != ReachAnswer::Yes)
        continue;
      const Reach r = w->reachable(golem, a, b);
      EXPECT_TRUE(r.answer == ReachAnswer::No ||
                  (r.answer == ReachAnswer::Unknown && r.reason != ReachReason::None))
          << "(" << a.x << "," << a.z << ") -> (" << b.x << "," << b.z
          << "): " << reach_answer_name(r.answer);
      EXPECT_NE(r.answer, ReachAnswer::Yes);
      ++checked;
    }
  std::printf("smallhouse1: %zu outside and %zu inside foot cells, %d pairs the walker joins\n",
              out_cells.size(), in_cells.size(), checked);
  EXPECT_GT(checked, 20);
  // A request fails, and the doorways are no foot cell of the class.
  NavRequest q;
  q.profile = golem;
  q.start = out_cells.front();
  q.goal = in_cells.front();
  PathResult r;
  ASSERT_EQ(w->find_path_now(q, &r), Status::Ok);
  EXPECT_EQ(r.status.state, PathState::Failed);
  for (int dx = -1; dx <= 0; ++dx)
    for (int dz = -1; dz <= 0; ++dz) {
      EXPECT_FALSE(w->is_standable(golem, {10 + dx, 1, 5 + dz}));
      EXPECT_FALSE(w->is_standable(golem, {10 + dx, 1, 13 + dz}));
    }
}

// ---- routes and agents
// ---------------------------------------------------------------------------

/// Whether a walker standing in cell c has room for the large body at its level: some foot cell of
/// a footprint covering c's column is a large node at the same y.
bool wide_enough(const World& w, ProfileId golem, const CellPos& c) {
  for (int dz = -1; dz <= 0; ++dz)
    for (int dx = -1; dx <= 0; ++dx)
      if (w.is_standable(golem, {c.x + dx, c.y, c.z + dz})) return true;
  return false;
}

/// The body's box at feet p against every collision box of the cells around it (the integrator's
/// shapes: the registry's boxes, unloaded cells solid); true when they overlap by more than 1e-6.
bool body_overlaps(const detail::Space& space, const Vec3& p, double width, double height) {
  const double h = width / 2, e = 1e-6;
  const double mn[3] = {p.x - h, p.y, p.z - h}, mx[3] = {p.x + h, p.y + height, p.z + h};
  const detail::BlockRegistry& reg = space.registry();
  for (int y = static_cast<int>(std::floor(mn[1])) - 1; y <= static_cast<int>(std::floor(mx[1]));
       ++y)
    for (int z = static_cast<int>(std::floor(mn[2])); z <= static_cast<int>(std::floor(mx[2])); ++z)
      for (int x = static_cast<int>(std::floor(mn[0])); x <= static_cast<int>(std::floor(mx[0]));
           ++x) {
        const CellPos c{x, y, z};
        if (!space.is_cell_loaded(c)) return true;
        for (const detail::Box& b : reg.type(space.block(c)).boxes) {
          const double bmn[3] = {x + double(b.min[0]), y + double(b.min[1]), z + double(b.min[2])};
          const double bmx[3] = {x + double(b.max[0]), y + double(b.max[1]), z + double(b.max[2])};
          bool overlap = true;
          for (int a = 0; a < 3; ++a) overlap = overlap && bmx[a] > mn[a] + e && bmn[a] < mx[a] - e;
          if (overlap) return true;
        }
      }
  return false;
}

TEST(WalkerLarge, RoutesAvoidNarrowPassagesAndAgentsArriveAcrossChunkBorders) {
  ProfileId walker;
  std::unique_ptr<World> w = test::load_region(kRegion, &walker);
  ASSERT_TRUE(w);
  ProfileId golem;
  std::string err;
  ASSERT_EQ(w->add_profile(large_profile(), &golem, &err), Status::Ok) << err;
  w->update();
  detail::WorldState& st = detail::WorldAccess::state(*w);
  detail::NavWorld& nav = *st.nav_of(MovementClass::WalkerLarge);
  // Foot cells of the class's biggest island that a walker may stand in too.
  std::uint32_t big = 0;
  for (const detail::NavChunk* ch : nav.grid().ordered_chunks())
    if (!ch->uniform)
      for (int i = 0; i < detail::kChunkCells; ++i) {
        const std::uint32_t isl = nav.islands().component_at(ch, i);
        if (isl && (!big || nav.islands().size_of(isl) > nav.islands().size_of(big))) big = isl;
      }
  ASSERT_NE(big, 0u);
  std::vector<CellPos> cells;
  for (const detail::NavChunk* ch : nav.grid().ordered_chunks())
    if (!ch->uniform)
      for (int i = 0; i < detail::kChunkCells; ++i)
        if (nav.islands().component_at(ch, i) == big && detail::kind_standable(ch->kind_at(i)) &&
            w->is_standable(walker, pos(detail::cell_of(ch, i))))
          cells.push_back(detail::cell_of(ch, i));
  std::printf("biggest walker_large island: %u cells, %zu shared with the walker\n",
              nav.islands().size_of(big), cells.size());
  ASSERT_GT(cells.size(), 2000u);

  // Routes: pairs the walker joins through a one-wide passage (a cell where the large body has no
  // room) while the large class goes around.
  Rng rng{0x90AD5};
  int narrow = 0, routes = 0;
  for (int k = 0; k < 3000 && narrow < 3; ++k) {
    const CellPos a = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    const CellPos b = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    if (std::abs(a.x - b.x) + std::abs(a.z - b.z) > 40 ||
        std::abs(a.x - b.x) + std::abs(a.z - b.z) < 6)
      continue;
    NavRequest q;
    q.start = pos(a);
    q.goal = pos(b);
    q.profile = walker;
    PathResult rw;
    ASSERT_EQ(w->find_path_now(q, &rw), Status::Ok);
    if (rw.status.state != PathState::Ready) continue;
    q.profile = golem;
    PathResult rl;
    ASSERT_EQ(w->find_path_now(q, &rl), Status::Ok);
    ASSERT_EQ(rl.status.state, PathState::Ready) << test::str(a) << " -> " << test::str(b);
    ++routes;
    for (const PathCell& c : rl.cells) EXPECT_TRUE(w->is_standable(golem, c.cell));
    const auto pinch = std::find_if(rw.cells.begin(), rw.cells.end(), [&](const PathCell& c) {
      return c.kind == EdgeKind::Walk && !wide_enough(*w, golem, c.cell);
    });
    if (pinch == rw.cells.end()) continue;
    // The large route never has its body over that cell at that level (its costs are not
    // comparable with the walker's: a one-cell rise is a step for it, a jump for the walker).
    const CellPos p = pinch->cell;
    for (const PathCell& c : rl.cells)
      EXPECT_FALSE(c.cell.y == p.y && c.cell.x <= p.x && p.x <= c.cell.x + 1 && c.cell.z <= p.z &&
                   p.z <= c.cell.z + 1)
          << "the large route crosses the one-wide cell (" << p.x << "," << p.y << "," << p.z
          << ")";
    if (narrow == 0)
      std::printf("one-wide passage at (%d,%d,%d): walker cost %u, walker_large cost %u\n", p.x,
                  p.y, p.z, rw.status.cost, rl.status.cost);
    ++narrow;
  }
  EXPECT_GE(narrow, 1) << "no pair with a one-wide passage found in " << routes << " routes";

  // Agents: goals in another chunk column; bodies checked against collision every tick.
  BodyParams body;
  ASSERT_EQ(profile_body(*w, golem, &body), Status::Ok);
  EXPECT_DOUBLE_EQ(body.width, kWidth);
  struct Run {
    AgentId id;
    CellPos start, goal;
  };
  std::vector<Run> runs;
  for (int k = 0; k < 4000 && runs.size() < 8; ++k) {
    const CellPos a = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    const CellPos b = cells[rng.below(static_cast<std::uint32_t>(cells.size()))];
    const int dist = std::abs(a.x - b.x) + std::abs(a.z - b.z);
    if (dist < 8 || dist > 24 || ((a.x >> 4) == (b.x >> 4) && (a.z >> 4) == (b.z >> 4))) continue;
    bool apart = true;  // bodies start apart
    for (const Run& r : runs)
      apart = apart && std::abs(r.start.x - a.x) + std::abs(r.start.z - a.z) > 4;
    if (!apart || w->reachable(golem, pos(a), pos(b)).answer != ReachAnswer::Yes) continue;
    double feet = 0;
    ASSERT_EQ(w->standing_height(golem, pos(a), &feet), Status::Ok);
    AgentId id;
    ASSERT_EQ(w->add_agent(AgentDef{golem, Vec3{a.x + 1.0, feet, a.z + 1.0}}, &id), Status::Ok);
    ASSERT_EQ(w->set_agent_goal(id, pos(b)), Status::Ok);
    runs.push_back({id, a, b});
  }
  ASSERT_GE(runs.size(), 6u);
  std::size_t overlaps = 0;
  std::uint32_t arrived = 0;
  for (int t = 0; t < 600; ++t) {
    ASSERT_EQ(w->tick(0.05), Status::Ok);
    arrived = 0;
    for (const Run& r : runs) {
      AgentState s;
      ASSERT_EQ(w->agent_state(r.id, &s), Status::Ok);
      if (body_overlaps(st.space, s.feet, body.width, body.height) && ++overlaps <= 3)
        ADD_FAILURE() << "tick " << t << ": body at (" << s.feet.x << "," << s.feet.y << ","
                      << s.feet.z << ") overlaps collision";
      arrived += s.arrivals > 0;
    }
    if (arrived == runs.size()) break;
  }
  for (const Run& r : runs) {
    AgentState s;
    ASSERT_EQ(w->agent_state(r.id, &s), Status::Ok);
    std::string why;
    ASSERT_EQ(w->agent_reason(r.id, &why), Status::Ok);
    EXPECT_GE(s.arrivals, 1u) << test::str(r.start) << " -> " << test::str(r.goal) << ": "
                              << agent_mode_name(s.mode) << " " << why;
    if (s.arrivals) {
      // Arrived: the body's centre is over the goal foot cell's footprint centre.
      EXPECT_NEAR(s.feet.x, r.goal.x + 1.0, 0.6);
      EXPECT_NEAR(s.feet.z, r.goal.z + 1.0, 0.6);
    }
  }
  std::printf("agents: %u of %zu arrived across chunk borders, %zu overlapping ticks\n", arrived,
              runs.size(), overlaps);
  EXPECT_EQ(overlaps, 0u);
}

// ---- bad input
// -----------------------------------------------------------------------------------

TEST(WalkerLarge, BodyLargerThanTheEnvelopeIsRefusedNamingTheField) {
  World w;
  ProfileId id;
  std::string err;
  Profile p = large_profile();
  p.width = 1.99;
  EXPECT_EQ(w.add_profile(p, &id, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("body.width"), std::string::npos) << err;
  EXPECT_NE(err.find("walker_large"), std::string::npos) << err;
  p = large_profile();
  p.height = 2.96;
  EXPECT_EQ(w.add_profile(p, &id, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("body.height"), std::string::npos) << err;
  EXPECT_FALSE(detail::WorldAccess::state(w).nav_of(MovementClass::WalkerLarge)) << "a refused profile builds no navigation";
  // The envelope itself is accepted, and builds the class's navigation.
  EXPECT_EQ(w.add_profile(large_profile(), &id, &err), Status::Ok) << err;
  EXPECT_TRUE(detail::WorldAccess::state(w).nav_of(MovementClass::WalkerLarge));
}

}  // namespace
}  // namespace voxnav
