// Gap jumps (layer 2): a walker jumps a one-cell gap it cannot walk or climb through; the class's
// islands join the two sides, a profile that cannot make the jump is restricted, edits that fill
// or open the gap update moves and islands, and an agent makes the jump with the integrator.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/nav/class_envelopes.h"
#include "engine/nav/profile_compile.h"
#include "engine/nav/world_access.h"
#include "engine/search/astar.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {


// A flat stone floor (y = 0, the feet at y = 1) over 3 x 3 chunk columns, cut by a trench along
// z at x = 12 .. 12 + width - 1: nothing below it is loaded, so nothing can be dropped into or
// climbed out of; only a gap jump crosses it.
struct Trench {
  World world;
  ProfileId walker;
  std::uint16_t stone = 0;
  explicit Trench(int width = 1) {
    EXPECT_TRUE(test::load_real_blocks(world));
    EXPECT_EQ(world.block_value("stone", &stone), Status::Ok);
    EXPECT_TRUE(load(world, stone, width));
    world.update();
    EXPECT_EQ(world.add_profile(Profile{}, &walker), Status::Ok);
  }
  const detail::NavGrid& grid() { return detail::WorldAccess::state(world).walker()->grid(); }
  // The floor chunks with the trench, and air above.
  static bool load(World& w, std::uint16_t stone, int width) {
    std::vector<std::uint16_t> air(detail::kChunkCells, 0);
    bool ok = true;
    for (int cz = -1; cz <= 1; ++cz)
      for (int cx = -1; cx <= 1; ++cx) {
        std::vector<std::uint16_t> floor(detail::kChunkCells, 0);
        for (int i = 0; i < 256; ++i) {
          const int x = cx * 16 + (i & 15);
          if (x < 12 || x >= 12 + width) floor[static_cast<std::size_t>(i)] = stone;
        }
        ok = ok && w.load_chunk({cx, 0, cz}, floor) == Status::Ok &&
             w.load_chunk({cx, 1, cz}, air) == Status::Ok;
      }
    return ok;
  }
};

TEST(GapJumps, DefaultWalkerReachIsTheClassReach) {
  // Flight 2 sqrt(2 * 32 * 1.25) / 32 = 0.559 s; at the faster of walk 4.3 and sprint 5.6:
  // floor(5.6 * 0.559 - 0.15) = floor(2.98) = 2 (walking alone, floor(2.25) = 2 too).
  Profile p;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 2);
  EXPECT_EQ(detail::class_envelope(MovementClass::Walker).gap_reach, 2);
  EXPECT_EQ(detail::class_envelope(MovementClass::WalkerLarge).gap_reach, 0);
  EXPECT_EQ(detail::class_envelope(MovementClass::Swimmer).gap_reach, 0);
  // A profile that cannot jump the class's gap restricts the class.
  p.gap_jump = 0;
  EXPECT_NE(detail::class_restrictions(p).find("gap reach 0"), std::string::npos)
      << detail::class_restrictions(p);
  Profile slow;
  slow.walk_speed = 2.0;  // floor(2 * 0.559 - 0.15) = 0
  slow.sprint_speed = 2.0;
  EXPECT_EQ(detail::compile_profile_costs(slow).gap_reach, 0);
  EXPECT_TRUE(detail::compile_profile_costs(slow).restricts_class);
  slow.walk_speed = 2.0;  // sprinting at 5: floor(5 * 0.559 - 0.15) = 2, the run-up makes it
  slow.sprint_speed = 5.0;
  EXPECT_EQ(detail::compile_profile_costs(slow).gap_reach, 2);
  Profile trot;
  trot.walk_speed = trot.sprint_speed = 2.5;  // floor(1.40 - 0.15) = 1: one cell, not two
  EXPECT_EQ(detail::compile_profile_costs(trot).gap_reach, 1);
  EXPECT_NE(detail::class_restrictions(trot).find("gap reach 1"), std::string::npos);
}

TEST(GapJumps, WalkerJumpsAOneCellTrench) {
  Trench t;
  // Every cell beside the trench jumps it, both ways; nothing is walked into it.
  for (int z = -16; z <= 31; ++z) {
    EXPECT_EQ(t.grid().gaps({11, 1, z}), detail::kGapLevel << 0) << z;  // +x
    EXPECT_EQ(t.grid().gaps({13, 1, z}), detail::kGapLevel << 2) << z;  // -x
    EXPECT_EQ(detail::move_code(t.grid().moves({11, 1, z}), 0), 0) << z;
    EXPECT_EQ(t.grid().gaps({10, 1, z}), 0) << z;
  }
  const CellPos a{4, 1, 8}, b{20, 1, 8};
  const Reach r = t.world.reachable(t.walker, a, b);
  EXPECT_EQ(r.answer, ReachAnswer::Yes);
  NavRequest q;
  q.profile = t.walker;
  q.start = a;
  q.goal = b;
  PathResult res;
  ASSERT_EQ(t.world.find_path_now(q, &res), Status::Ok);
  ASSERT_EQ(res.status.state, PathState::Ready);
  int gaps = 0;
  for (const PathCell& c : res.cells) gaps += c.kind == EdgeKind::GapJump;
  EXPECT_EQ(gaps, 1);
  // 14 cells walked, 2 jumped, and the jump's extra.
  EXPECT_EQ(res.status.cost, 16u * 10000u + detail::CostTable{}.jump_extra);

  // A profile that cannot make the jump: restricted (never No), and its search finds no way.
  Profile nojump;
  nojump.id = "no_gap";
  nojump.gap_jump = 0;
  ProfileId nj;
  ASSERT_EQ(t.world.add_profile(nojump, &nj), Status::Ok);
  const Reach rn = t.world.reachable(nj, a, b);
  EXPECT_EQ(rn.answer, ReachAnswer::Unknown);
  EXPECT_EQ(rn.reason, ReachReason::ProfileRestricted);
  q.profile = nj;
  ASSERT_EQ(t.world.find_path_now(q, &res), Status::Ok);
  EXPECT_EQ(res.status.state, PathState::Failed);
}

// A break-test regression: a profile whose jump is lower than a gap jump's landing (bottom slabs on
// the far side, half a cell up) must not plan the jump; the same profile with a level landing does.
TEST(GapJumps, LandingHigherThanTheProfilesJumpIsRefused) {
  Trench t;
  Profile low;
  low.id = "low_jumper";
  low.jump_apex = 0.3;
  low.walk_speed = low.sprint_speed = 10;  // reach floor(10 * 0.274 - 0.5) = 2: makes the class's
  ProfileId pid;
  ASSERT_EQ(t.world.add_profile(low, &pid), Status::Ok);
  NavRequest q;
  q.profile = pid;
  q.start = {4, 1, 8};
  q.goal = {20, 1, 8};
  PathResult res;
  ASSERT_EQ(t.world.find_path_now(q, &res), Status::Ok);
  ASSERT_EQ(res.status.state, PathState::Ready);  // level landing: the jump is made
  std::uint16_t slab = 0;
  ASSERT_EQ(t.world.block_value("stone_slab[type=bottom]", &slab), Status::Ok);
  for (int z = -16; z <= 31; ++z)
    for (int x = 13; x <= 31; ++x) ASSERT_EQ(t.world.set_block({x, 1, z}, slab), Status::Ok);
  t.world.update();
  EXPECT_EQ(t.grid().gaps({11, 1, 8}), detail::kGapLevel << 0);  // the class makes it
  ASSERT_EQ(t.world.find_path_now(q, &res), Status::Ok);
  EXPECT_EQ(res.status.state, PathState::Failed);  // this profile does not
  q.profile = t.walker;
  ASSERT_EQ(t.world.find_path_now(q, &res), Status::Ok);
  EXPECT_EQ(res.status.state, PathState::Ready);
}

// A two-cell trench: the walking jump's 2.4 cells of flight carry the body over (issue 18, cause
// 10), both ways, and an agent crosses it without falling; a profile reaching one cell plans no
// route; a three-cell trench is beyond the class.
TEST(GapJumps, TwoCellTrenchIsJumpedThreeIsNot) {
  Trench t(2);
  for (int z = -16; z <= 31; ++z) {
    EXPECT_EQ(t.grid().gaps({11, 1, z}), detail::kGapLevel2 << 0) << z;  // +x
    EXPECT_EQ(t.grid().gaps({14, 1, z}), detail::kGapLevel2 << 2) << z;  // -x
  }
  EXPECT_EQ(t.world.reachable(t.walker, {4, 1, 8}, {20, 1, 8}).answer, ReachAnswer::Yes);
  for (const double x0 : {4.5, 20.5}) {
    AgentId a;
    ASSERT_EQ(t.world.add_agent({t.walker, {x0, 1.0, 8.5}}, &a), Status::Ok);
    ASSERT_EQ(t.world.set_agent_goal(a, {x0 < 10 ? 20 : 4, 1, 8}), Status::Ok);
    AgentState st;
    double low = 1.0;
    for (int i = 0; i < 200 && st.mode != AgentMode::Arrived; ++i) {
      ASSERT_EQ(t.world.tick(detail::kSimulationTick), Status::Ok);
      ASSERT_EQ(t.world.agent_state(a, &st), Status::Ok);
      low = std::min(low, st.feet.y);
    }
    EXPECT_EQ(st.mode, AgentMode::Arrived) << "from x " << x0;
    EXPECT_GE(low, 1.0 - 1e-9) << "the body fell into the trench from x " << x0;
    ASSERT_EQ(t.world.remove_agent(a), Status::Ok);
  }
  Profile trot;
  trot.id = "trot";
  trot.walk_speed = trot.sprint_speed = 2.5;  // one cell of reach
  ProfileId tp;
  ASSERT_EQ(t.world.add_profile(trot, &tp), Status::Ok);
  NavRequest q;
  q.profile = tp;
  q.start = {4, 1, 8};
  q.goal = {20, 1, 8};
  PathResult res;
  ASSERT_EQ(t.world.find_path_now(q, &res), Status::Ok);
  EXPECT_EQ(res.status.state, PathState::Failed);
  Trench wide(3);
  EXPECT_EQ(wide.grid().gaps({11, 1, 8}), 0);
  EXPECT_EQ(wide.world.reachable(wide.walker, {4, 1, 8}, {20, 1, 8}).answer, ReachAnswer::No);
}

TEST(GapJumps, EditsFillAndOpenTheGap) {
  Trench t;
  const CellPos a{4, 1, 8}, b{20, 1, 8};
  // Fill the trench along its whole length: the two sides stay one island, by walking.
  for (int z = -16; z <= 31; ++z) ASSERT_EQ(t.world.set_block({12, 0, z}, t.stone), Status::Ok);
  t.world.update();
  EXPECT_EQ(t.grid().gaps({11, 1, 8}), 0);
  EXPECT_EQ(detail::move_code(t.grid().moves({11, 1, 8}), 0), 1);
  EXPECT_EQ(t.world.reachable(t.walker, a, b).answer, ReachAnswer::Yes);
  // A wall on the far side of the jump (two high: no step, no jump): the jumps along it go.
  for (int z = -16; z <= 31; ++z) ASSERT_EQ(t.world.set_block({12, 0, z}, 0), Status::Ok);
  for (int z = -16; z <= 31; ++z)
    for (int y = 1; y <= 2; ++y) ASSERT_EQ(t.world.set_block({13, y, z}, t.stone), Status::Ok);
  t.world.update();
  EXPECT_EQ(t.grid().gaps({11, 1, 8}), 0);
  EXPECT_EQ(t.world.reachable(t.walker, a, b).answer, ReachAnswer::No);
  // Open one cell of the wall: the jump there joins the sides again.
  for (int y = 1; y <= 2; ++y) ASSERT_EQ(t.world.set_block({13, y, 8}, 0), Status::Ok);
  t.world.update();
  EXPECT_EQ(t.grid().gaps({11, 1, 8}), detail::kGapLevel << 0);
  EXPECT_EQ(t.world.reachable(t.walker, a, b).answer, ReachAnswer::Yes);
  // Layers equal a fresh build of the same blocks.
  World fresh;
  ASSERT_TRUE(test::load_real_blocks(fresh));
  ASSERT_TRUE(Trench::load(fresh, t.stone, 1));
  for (int z = -16; z <= 31; ++z)
    for (int y = 1; y <= 2; ++y)
      if (z != 8) {
        ASSERT_EQ(fresh.set_block({13, y, z}, t.stone), Status::Ok);
      }
  fresh.update();
  for (int z = -16; z <= 31; ++z)
    for (int x = 8; x <= 16; ++x) {
      const CellPos c{x, 1, z};
      EXPECT_EQ(t.grid().gaps(c), detail::WorldAccess::state(fresh).walker()->grid().gaps(c)) << test::str(c);
      EXPECT_EQ(t.grid().moves(c), detail::WorldAccess::state(fresh).walker()->grid().moves(c)) << test::str(c);
    }
}

TEST(GapJumps, AgentJumpsTheTrenchWithTheIntegrator) {
  Trench t;
  AgentId id;
  ASSERT_EQ(t.world.add_agent(AgentDef{t.walker, Vec3{6.5, 1.0, 8.5}}, &id), Status::Ok);
  ASSERT_EQ(t.world.set_agent_goal(id, {20, 1, 8}), Status::Ok);
  AgentState s;
  double lowest = 1.0;
  int ticks = 0;
  for (; ticks < 200; ++ticks) {
    ASSERT_EQ(t.world.tick(0.05), Status::Ok);
    ASSERT_EQ(t.world.agent_state(id, &s), Status::Ok);
    lowest = std::min(lowest, s.feet.y);
    if (s.mode == AgentMode::Arrived) break;
  }
  EXPECT_EQ(s.mode, AgentMode::Arrived) << "feet (" << s.feet.x << "," << s.feet.y << ","
                                        << s.feet.z << ") after " << ticks << " ticks";
  EXPECT_GE(lowest, 1.0 - 1e-9);  // never fell into the trench
  EXPECT_NEAR(s.feet.x, 20.5, 0.5);
  // 14 cells at 4.3 m/s is 3.3 s (65 ticks of 0.05 s); allow the jump and the slow-down.
  EXPECT_LT(ticks, 100);
  std::printf("agent crossed the trench in %d ticks\n", ticks);
}

}  // namespace
}  // namespace voxnav

namespace voxnav {
namespace {

// On a real region: agents set down at the take-off cells of real gap jumps with the landing cell
// as their goal make the jump (level and a cell lower) and arrive.
TEST(GapJumps, AgentsMakeTheRealRegionsJumps) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(
      std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/1.16/r.0.-1.mca", &pid);
  ASSERT_TRUE(w);
  const detail::NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
  struct Jump {
    CellPos from, to;
  };
  std::vector<Jump> level, down;
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    if (!ch->gaps) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const std::uint8_t gm = ch->gaps[i];
      if (!gm) continue;
      const CellPos c{ch->pos.x * 16 + (i & 15), ch->pos.y * 16 + (i >> 8),
                   ch->pos.z * 16 + ((i >> 4) & 15)};
      for (int d = 0; d < 4; ++d)
        for (int b = 0; b < 2; ++b)
          if (gm & ((b ? detail::kGapDown : detail::kGapLevel) << d)) {
            const CellPos t{c.x + 2 * detail::kDirDx[d], c.y - b, c.z + 2 * detail::kDirDz[d]};
            (b ? down : level).push_back({c, t});
          }
    }
  }
  ASSERT_GT(level.size(), 100u);
  ASSERT_GT(down.size(), 100u);
  // Every 97th jump of each kind, one agent per jump, all in the world at once (far apart).
  std::vector<std::pair<AgentId, Jump>> agents;
  for (const std::vector<Jump>* v : {&level, &down})
    for (std::size_t k = 0; k < v->size() && agents.size() < 60; k += v->size() / 30) {
      const Jump& j = (*v)[k];
      double fy = 0;
      ASSERT_EQ(w->standing_height(pid, {j.from.x, j.from.y, j.from.z}, &fy), Status::Ok);
      AgentId id;
      ASSERT_EQ(w->add_agent(AgentDef{pid, Vec3{j.from.x + 0.5, fy, j.from.z + 0.5}}, &id),
                Status::Ok);
      ASSERT_EQ(w->set_agent_goal(id, {j.to.x, j.to.y, j.to.z}), Status::Ok);
      agents.push_back({id, j});
    }
  std::vector<int> arrived_at(agents.size(), -1);
  for (int t = 0; t < 200; ++t) {
    ASSERT_EQ(w->tick(0.05), Status::Ok);
    for (std::size_t k = 0; k < agents.size(); ++k) {
      AgentState s;
      ASSERT_EQ(w->agent_state(agents[k].first, &s), Status::Ok);
      if (arrived_at[k] < 0 && s.mode == AgentMode::Arrived && s.arrivals > 0) arrived_at[k] = t;
    }
  }
  std::size_t arrived = 0, by_jump = 0;
  for (std::size_t k = 0; k < agents.size(); ++k) {
    AgentState s;
    ASSERT_EQ(w->agent_state(agents[k].first, &s), Status::Ok);
    const Jump& j = agents[k].second;
    if (arrived_at[k] >= 0) {
      ++arrived;
      by_jump += arrived_at[k] < 40;  // straight over the gap, not a detour
    } else {
      ADD_FAILURE() << "jump " << test::str(j.from) << " -> " << test::str(j.to) << ": mode "
                    << static_cast<int>(s.mode) << ", feet (" << s.feet.x << "," << s.feet.y << ","
                    << s.feet.z << ")";
    }
  }
  std::printf(
      "%zu level and %zu lower gap jumps in the region; %zu agents, %zu arrived (%zu within "
      "40 ticks)\n",
      level.size(), down.size(), agents.size(), arrived, by_jump);
  EXPECT_EQ(arrived, agents.size());
}

}  // namespace
}  // namespace voxnav
