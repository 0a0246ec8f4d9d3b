// Gap jumps from high floors (issue 18, cause 7): a take-off whose floor lies at 0.8 of its cell or
// higher (soul sand, mud, farmland, a dirt path, a full snow layer) jumps a one-cell gap like any
// other. The body's top during the jump then reaches past the four cells a cell's ceiling scan
// reads, so the clearance the jump needs is checked one cell further up (column_open_to), exactly:
// a ceiling that the class envelope's top meets refuses the jump, one a cell higher does not.
// The oracle is the movement step: an agent (the follower driving the integrator) crosses the
// gap, never lower than its take-off floor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/nav/class_envelopes.h"
#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// A floor of `block` (y = 0, the feet in that same cell on its top) over 3 x 3 chunk columns, cut
// by a one-cell trench along z at x = 12 with nothing loaded below: only a gap jump crosses it.
// `ceiling_y` > 0 puts a stone ceiling over the trench at that height (the trench column only).
bool load_floor(World& w, std::uint16_t block, int ceiling_y, std::uint16_t stone,
                std::uint16_t far_block = 0) {
  std::vector<std::uint16_t> air(detail::kChunkCells, 0);
  bool ok = true;
  for (int cz = -1; cz <= 1; ++cz)
    for (int cx = -1; cx <= 1; ++cx) {
      std::vector<std::uint16_t> floor(detail::kChunkCells, 0);
      for (int i = 0; i < 256; ++i) {
        const int x = cx * 16 + (i & 15);
        if (x != 12) floor[static_cast<std::size_t>(i)] = x > 12 && far_block ? far_block : block;
        if (x == 12 && ceiling_y > 0)
          floor[static_cast<std::size_t>(i + ceiling_y * 256)] = stone;
      }
      ok = ok && w.load_chunk({cx, 0, cz}, floor) == Status::Ok &&
           w.load_chunk({cx, 1, cz}, air) == Status::Ok;
    }
  return ok;
}

const detail::NavGrid& walker_grid(World& w) {
  return detail::WorldAccess::state(w).walker()->grid();
}

struct Floor {
  const char* block;
  double top;  // the floor's collision top in its cell
};
const Floor kHighFloors[] = {
    {"soul_sand", 0.875}, {"mud", 0.875},       {"farmland", 0.9375},
    {"dirt_path", 0.9375}, {"snow[layers=8]", 0.875},
};

TEST(HighFloorGaps, EveryHighFloorJumpsAOneCellGap) {
  for (const Floor& f : kHighFloors) {
    SCOPED_TRACE(f.block);
    World w;
    ASSERT_TRUE(test::load_real_blocks(w));
    std::uint16_t v = 0, stone = 0;
    ASSERT_EQ(w.block_value(f.block, &v), Status::Ok);
    ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
    ASSERT_TRUE(load_floor(w, v, 0, stone));
    w.update();
    ProfileId pid;
    ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
    const detail::NavGrid& g = walker_grid(w);
    ASSERT_EQ(g.floor_q({11, 0, 8}), int(std::lround(f.top * detail::kHeightUnits)));
    // The jump both ways, on the whole length of the trench.
    for (int z = -16; z <= 31; ++z) {
      EXPECT_EQ(g.gaps({11, 0, z}), detail::kGapLevel << 0) << z;
      EXPECT_EQ(g.gaps({13, 0, z}), detail::kGapLevel << 2) << z;
    }
    const CellPos a{4, 0, 8}, b{20, 0, 8};
    EXPECT_EQ(w.reachable(pid, a, b).answer, ReachAnswer::Yes);  // was No: the wrong answer
    // The movement step: an agent driven by the follower jumps it and never sinks below the floor.
    AgentId id;
    ASSERT_EQ(w.add_agent(AgentDef{pid, Vec3{6.5, f.top, 8.5}}, &id), Status::Ok);
    ASSERT_EQ(w.set_agent_goal(id, b), Status::Ok);
    AgentState s;
    double lowest = f.top;
    int ticks = 0;
    for (; ticks < 200; ++ticks) {
      ASSERT_EQ(w.tick(0.05), Status::Ok);
      ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
      lowest = std::min(lowest, s.feet.y);
      if (s.mode == AgentMode::Arrived) break;
    }
    EXPECT_EQ(s.mode, AgentMode::Arrived)
        << "feet (" << s.feet.x << "," << s.feet.y << "," << s.feet.z << ") after " << ticks;
    EXPECT_GE(lowest, f.top - 1e-9);  // never fell into the trench
    EXPECT_NEAR(s.feet.x, 20.5, 0.5);
    std::printf("%s: crossed in %d ticks\n", f.block, ticks);
  }
}

// From a high floor onto a full block at the same height (soul sand's 0.875 beside stone's 1.0):
// the landing's standing height lies in the next cell row, 1/8 above the take-off feet, which a
// step covers. The jump lands a row up (kGapUp); back is a jump a row down (kGapDown).
TEST(HighFloorGaps, HighFloorJumpsOntoAFullBlock) {
  for (const Floor& f : kHighFloors) {
    SCOPED_TRACE(f.block);
    World w;
    ASSERT_TRUE(test::load_real_blocks(w));
    std::uint16_t v = 0, stone = 0;
    ASSERT_EQ(w.block_value(f.block, &v), Status::Ok);
    ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
    ASSERT_TRUE(load_floor(w, v, 0, stone, stone));
    w.update();
    ProfileId pid;
    ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
    const detail::NavGrid& g = walker_grid(w);
    for (int z = -16; z <= 31; ++z) {
      EXPECT_EQ(g.gaps({11, 0, z}), detail::kGapUp << 0) << z;
      EXPECT_EQ(g.gaps({13, 1, z}), detail::kGapDown << 2) << z;
    }
    const CellPos a{4, 0, 8}, b{20, 1, 8};
    EXPECT_EQ(w.reachable(pid, a, b).answer, ReachAnswer::Yes);
    EXPECT_EQ(w.reachable(pid, b, a).answer, ReachAnswer::Yes);
    // The cell above the high floor names it (block-world bots' feet + 1/8 convention).
    EXPECT_EQ(w.reachable(pid, {4, 1, 8}, b).answer, ReachAnswer::Yes);
    for (int dir = 0; dir < 2; ++dir) {
      const Vec3 from = dir == 0 ? Vec3{6.5, f.top, 8.5} : Vec3{18.5, 1.0, 8.5};
      const CellPos goal = dir == 0 ? b : a;
      AgentId id;
      ASSERT_EQ(w.add_agent(AgentDef{pid, from}, &id), Status::Ok);
      ASSERT_EQ(w.set_agent_goal(id, goal), Status::Ok);
      AgentState s;
      double lowest = from.y;
      int ticks = 0;
      for (; ticks < 200; ++ticks) {
        ASSERT_EQ(w.tick(0.05), Status::Ok);
        ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
        lowest = std::min(lowest, s.feet.y);
        if (s.mode == AgentMode::Arrived) break;
      }
      EXPECT_EQ(s.mode, AgentMode::Arrived)
          << dir << ": feet (" << s.feet.x << "," << s.feet.y << "," << s.feet.z << ")";
      EXPECT_GE(lowest, f.top - 1e-9) << dir;  // never in the trench
      EXPECT_NEAR(s.feet.x, goal.x + 0.5, 0.5) << dir;
      ASSERT_EQ(w.remove_agent(id), Status::Ok);
    }
  }
}

// The clearance of the jump is exact: from soul sand (feet 56/64) the envelope's top reaches
// 56 + height + jump rise = 251/64 = 3.92 cells above the take-off cell's bottom (the 1.8 walker
// envelope; the 1.95 one reached 4.06, past the ceiling scan), so a ceiling over the gap at y = 3
// refuses the jump and one at y = 4 allows it.
TEST(HighFloorGaps, CeilingOverTheGapIsCheckedExactly) {
  const detail::ClassEnvelope env = detail::class_envelope(MovementClass::Walker);
  ASSERT_GT(56 + env.height_q + env.jump_q, 3 * detail::kHeightUnits);
  ASSERT_LE(56 + env.height_q + env.jump_q, 4 * detail::kHeightUnits);
  World w;
  ASSERT_TRUE(test::load_real_blocks(w));
  std::uint16_t sand = 0, stone = 0;
  ASSERT_EQ(w.block_value("soul_sand", &sand), Status::Ok);
  ASSERT_EQ(w.block_value("stone", &stone), Status::Ok);
  ASSERT_TRUE(load_floor(w, sand, 3, stone));
  w.update();
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  const CellPos a{4, 0, 8}, b{20, 0, 8};
  EXPECT_EQ(walker_grid(w).gaps({11, 0, 8}), 0);
  EXPECT_EQ(w.reachable(pid, a, b).answer, ReachAnswer::No);
  // Edits: lift the ceiling to y = 4 (the jump appears), put it back over half the trench, and
  // compare the layers with fresh builds of the same blocks.
  auto compare_with_fresh = [&](int low_ceiling_from_z) {
    World fresh;
    ASSERT_TRUE(test::load_real_blocks(fresh));
    ASSERT_TRUE(load_floor(fresh, sand, 4, stone));
    for (int z = low_ceiling_from_z; z <= 31; ++z) {
      ASSERT_EQ(fresh.set_block({12, 4, z}, 0), Status::Ok);
      ASSERT_EQ(fresh.set_block({12, 3, z}, stone), Status::Ok);
    }
    fresh.update();
    ProfileId fp;
    ASSERT_EQ(fresh.add_profile(Profile{}, &fp), Status::Ok);
    for (int z = -16; z <= 31; ++z)
      for (int y = -0; y <= 6; ++y)
        for (int x = 8; x <= 16; ++x) {
          const CellPos c{x, y, z};
          ASSERT_EQ(walker_grid(w).gaps(c), walker_grid(fresh).gaps(c)) << test::str(c);
          ASSERT_EQ(walker_grid(w).moves(c), walker_grid(fresh).moves(c)) << test::str(c);
          ASSERT_EQ(walker_grid(w).kind(c), walker_grid(fresh).kind(c)) << test::str(c);
        }
  };
  for (int z = -16; z <= 31; ++z) {
    ASSERT_EQ(w.set_block({12, 3, z}, 0), Status::Ok);
    ASSERT_EQ(w.set_block({12, 4, z}, stone), Status::Ok);
    w.update();  // one edit at a time: the incremental path
  }
  EXPECT_EQ(walker_grid(w).gaps({11, 0, 8}), detail::kGapLevel << 0);
  EXPECT_EQ(w.reachable(pid, a, b).answer, ReachAnswer::Yes);
  compare_with_fresh(32);
  for (int z = 8; z <= 31; ++z) {
    ASSERT_EQ(w.set_block({12, 4, z}, 0), Status::Ok);
    ASSERT_EQ(w.set_block({12, 3, z}, stone), Status::Ok);
    w.update();
  }
  EXPECT_EQ(walker_grid(w).gaps({11, 0, 8}), 0);
  EXPECT_EQ(walker_grid(w).gaps({11, 0, 7}), detail::kGapLevel << 0);
  EXPECT_EQ(w.reachable(pid, a, b).answer, ReachAnswer::Yes);  // round by z = 7
  compare_with_fresh(8);
}

}  // namespace
}  // namespace voxnav
