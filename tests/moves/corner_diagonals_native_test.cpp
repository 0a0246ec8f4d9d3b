// Diagonal moves past a corner (issue 18, causes 8 and 5):
//  - over the void between two blocks that touch only at a corner the diagonal is a move: the
//    0.6-wide body on the exact diagonal always overlaps one of the two tops, so an agent driven
//    by the follower through the integrator walks it without falling; it is refused when either
//    standing surface does not reach the corners (fence posts), and when the open side holds a
//    hazard or is too low for the body;
//  - past a damage cell (fire, lava, wither rose, berry bush) the diagonal is refused, since the
//    body cutting the corner overlaps it; the route goes round and the body never touches it;
//  - edits that make and unmake these situations keep the moves equal to a fresh build.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr int kDiagPP = 4;  // direction (+1, +1)
constexpr int kDiagMM = 6;  // direction (-1, -1)

struct Fixture {
  World w;
  ProfileId walker;
  std::uint16_t stone = 0;
  Fixture() {
    EXPECT_TRUE(test::load_real_blocks(w));
    EXPECT_EQ(w.block_value("stone", &stone), Status::Ok);
    std::vector<std::uint16_t> air(detail::kChunkCells, 0);
    for (int cz = -1; cz <= 1; ++cz)
      for (int cx = -1; cx <= 1; ++cx)
        for (int cy = 0; cy <= 1; ++cy) EXPECT_EQ(w.load_chunk({cx, cy, cz}, air), Status::Ok);
    w.update();
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
  }
  std::uint16_t value(const char* name) {
    std::uint16_t v = 0;
    EXPECT_EQ(w.block_value(name, &v), Status::Ok) << name;
    return v;
  }
  void pillar(int x, int z, int top, std::uint16_t v) {
    for (int y = 0; y <= top; ++y) EXPECT_EQ(w.set_block({x, y, z}, v), Status::Ok);
  }
  const detail::NavGrid& grid() { return detail::WorldAccess::state(w).walker()->grid(); }
  int code(CellPos c, int dir) { return detail::move_code(grid().moves(c), dir); }
  // Moves, gaps and kinds of every cell of the area equal a fresh build of the same blocks.
  void expect_fresh(const char* when) {
    ProfileId fp;
    std::unique_ptr<World> fresh = test::fresh_copy(w, &fp);
    const detail::NavGrid& fg = detail::WorldAccess::state(*fresh).walker()->grid();
    int diffs = 0;
    for (int y = 0; y <= 8; ++y)
      for (int z = -2; z <= 18; ++z)
        for (int x = -2; x <= 24; ++x) {
          const CellPos c{x, y, z};
          if (grid().moves(c) != fg.moves(c) || grid().gaps(c) != fg.gaps(c) ||
              grid().kind(c) != fg.kind(c))
            if (++diffs <= 5) ADD_FAILURE() << when << ": " << test::str(c) << " differs from a fresh build";
        }
    EXPECT_EQ(diffs, 0) << when;
  }
  // An agent walks from `from` to `goal`; returns whether it arrived, its lowest feet and whether
  // its box ever overlapped cell `avoid` (strictly, on every axis).
  struct Walk {
    bool arrived = false;
    double lowest = 1e9;
    bool touched = false;
  };
  Walk walk(Vec3 from, CellPos goal, CellPos avoid = {-100, -100, -100}) {
    Walk r;
    AgentId id;
    EXPECT_EQ(w.add_agent(AgentDef{walker, from}, &id), Status::Ok);
    EXPECT_EQ(w.set_agent_goal(id, goal), Status::Ok);
    AgentState s;
    for (int t = 0; t < 200; ++t) {
      EXPECT_EQ(w.tick(0.05), Status::Ok);
      EXPECT_EQ(w.agent_state(id, &s), Status::Ok);
      r.lowest = std::min(r.lowest, s.feet.y);
      const double e = 1e-6, hw = 0.3;
      if (s.feet.x + hw > avoid.x + e && s.feet.x - hw < avoid.x + 1 - e &&
          s.feet.z + hw > avoid.z + e && s.feet.z - hw < avoid.z + 1 - e &&
          s.feet.y + 1.8 > avoid.y + e && s.feet.y < avoid.y + 1 - e)
        r.touched = true;
      if (s.mode == AgentMode::Arrived) {
        r.arrived = true;
        break;
      }
    }
    EXPECT_EQ(w.remove_agent(id), Status::Ok);
    return r;
  }
};

TEST(CornerDiagonals, OverTheVoidBetweenCornerTouchingBlocks) {
  Fixture f;
  // Two stone pillars touching at a corner, 4 high over nothing (a drop off the side is too deep).
  f.pillar(4, 4, 3, f.stone);
  f.pillar(5, 5, 3, f.stone);
  f.w.update();
  EXPECT_EQ(f.code({4, 4, 4}, kDiagPP), 1);
  EXPECT_EQ(f.code({5, 4, 5}, kDiagMM), 1);
  EXPECT_EQ(f.w.reachable(f.walker, {4, 4, 4}, {5, 4, 5}).answer, ReachAnswer::Yes);
  f.expect_fresh("pillars");
  // The movement step: both ways, on the exact diagonal, never lower than the tops.
  Fixture::Walk a = f.walk(Vec3{4.5, 4.0, 4.5}, {5, 4, 5});
  EXPECT_TRUE(a.arrived);
  EXPECT_GE(a.lowest, 4.0 - 1e-9);
  Fixture::Walk b = f.walk(Vec3{5.5, 4.0, 5.5}, {4, 4, 4});
  EXPECT_TRUE(b.arrived);
  EXPECT_GE(b.lowest, 4.0 - 1e-9);

  // Fence posts touching at a corner: the body on the diagonal overlaps neither post's top.
  const std::uint16_t fence = f.value("oak_fence");
  f.pillar(10, 4, 3, fence);
  f.pillar(11, 5, 3, fence);
  f.w.update();
  EXPECT_EQ(f.code({10, 4, 4}, kDiagPP), 0);
  EXPECT_EQ(f.code({11, 4, 5}, kDiagMM), 0);
  f.expect_fresh("fence posts");
  // One pillar a fence post, the other stone: still refused (both surfaces must reach the corner).
  f.pillar(11, 5, 3, f.stone);
  f.w.update();
  EXPECT_EQ(f.code({10, 4, 4}, kDiagPP), 0);
  f.expect_fresh("post and stone");
  f.pillar(10, 4, 3, f.stone);
  f.w.update();
  EXPECT_EQ(f.code({10, 4, 4}, kDiagPP), 1);
  f.expect_fresh("stone and stone");

  // Lava hanging in the open side at head height: refused; gone again: allowed.
  const std::uint16_t lava = f.value("lava");
  ASSERT_EQ(f.w.set_block({5, 5, 4}, lava), Status::Ok);
  f.w.update();
  EXPECT_EQ(f.code({4, 4, 4}, kDiagPP), 0);
  f.expect_fresh("lava in the side");
  ASSERT_EQ(f.w.set_block({5, 5, 4}, 0), Status::Ok);
  f.w.update();
  EXPECT_EQ(f.code({4, 4, 4}, kDiagPP), 1);
  // A ceiling low over the open side (a slab's underside 1.5 above the feet): refused.
  ASSERT_EQ(f.w.set_block({4, 5, 5}, f.value("stone_slab[type=top]")), Status::Ok);
  f.w.update();
  EXPECT_EQ(f.code({4, 4, 4}, kDiagPP), 0);
  f.expect_fresh("low ceiling over the side");
  ASSERT_EQ(f.w.set_block({4, 5, 5}, 0), Status::Ok);
  // Taking a pillar's top away, and putting it back.
  ASSERT_EQ(f.w.set_block({5, 3, 5}, 0), Status::Ok);
  f.w.update();
  EXPECT_EQ(f.code({4, 4, 4}, kDiagPP), 0);
  f.expect_fresh("pillar lowered");
  ASSERT_EQ(f.w.set_block({5, 3, 5}, f.stone), Status::Ok);
  f.w.update();
  EXPECT_EQ(f.code({4, 4, 4}, kDiagPP), 1);
  f.expect_fresh("pillar back");
}

TEST(CornerDiagonals, NeverPastADamageCell) {
  Fixture f;
  // A stone floor (x 0..22, z 8..12); a hazard at feet level beside each diagonal, in a row of
  // its own: fire, lava, a wither rose, a berry bush; a control with stone (a wall) and one with
  // nothing (plain floor).
  for (int x = 0; x <= 22; ++x)
    for (int z = 8; z <= 12; ++z) ASSERT_EQ(f.w.set_block({x, 0, z}, f.stone), Status::Ok);
  struct Side {
    const char* block;
    int want;  // the diagonal's move code
  };
  const Side sides[] = {{"fire", 0},       {"lava", 0}, {"wither_rose", 0}, {"sweet_berry_bush", 0},
                        {"stone", 0},      {"air", 1}};
  int x = 1;
  for (const Side& s : sides) {
    ASSERT_EQ(f.w.set_block({x + 1, 1, 9}, f.value(s.block)), Status::Ok);
    x += 3;
  }
  f.w.update();
  x = 1;
  for (const Side& s : sides) {
    SCOPED_TRACE(s.block);
    // From (x, 1, 9) toward (x + 1, 1, 10): the side (x + 1, 1, 9) holds the block.
    EXPECT_EQ(detail::move_code(f.grid().moves({x, 1, 9}), 1), 1);  // +z is plain floor
    EXPECT_EQ(f.code({x, 1, 9}, kDiagPP), s.want);
    EXPECT_EQ(f.code({x + 1, 1, 10}, kDiagMM), s.want);
    x += 3;
  }
  f.expect_fresh("hazards");
  // The route from beside the fire goes round it and the body never overlaps the fire's cell.
  NavRequest q;
  q.profile = f.walker;
  q.start = {1, 1, 9};
  q.goal = {2, 1, 10};
  PathResult res;
  ASSERT_EQ(f.w.find_path_now(q, &res), Status::Ok);
  ASSERT_EQ(res.status.state, PathState::Ready);
  // (the danger band prices the cells beside the fire: the route may go wider, never past it)
  for (std::size_t i = 0; i < res.cells.size(); ++i) {
    const CellPos c = res.cells[i].cell;
    EXPECT_FALSE(c == (CellPos{2, 1, 9})) << "route enters the fire";
    if (i > 0) {
      const CellPos p = res.cells[i - 1].cell;
      const bool diagonal = std::abs(c.x - p.x) == 1 && std::abs(c.z - p.z) == 1;
      const CellPos side_a{c.x, c.y, p.z}, side_b{p.x, c.y, c.z};
      EXPECT_FALSE(diagonal && (side_a == (CellPos{2, 1, 9}) || side_b == (CellPos{2, 1, 9})))
          << "route cuts the fire's corner: " << test::str(p) << " -> " << test::str(c);
    }
  }
  Fixture::Walk wk = f.walk(Vec3{1.5, 1.0, 9.5}, {2, 1, 10}, {2, 1, 9});
  EXPECT_TRUE(wk.arrived);
  EXPECT_FALSE(wk.touched);
  // Edits: the fire goes out (the diagonal appears), and comes back.
  ASSERT_EQ(f.w.set_block({2, 1, 9}, 0), Status::Ok);
  f.w.update();
  EXPECT_EQ(f.code({1, 1, 9}, kDiagPP), 1);
  f.expect_fresh("fire out");
  ASSERT_EQ(f.w.set_block({2, 1, 9}, f.value("fire")), Status::Ok);
  f.w.update();
  EXPECT_EQ(f.code({1, 1, 9}, kDiagPP), 0);
  f.expect_fresh("fire back");
}

}  // namespace
}  // namespace voxnav
