// The hand-off of navigation changes to the agents (ChangeFeed): a host that calls only update()
// keeps no changes (10,000 edits leave the feed empty and within its bound), agents added
// afterwards still find their way around what was built, and an agent that exists while more
// edits than the feed keeps happen between two ticks still notices the one on its corridor (the
// feed coalesces, and the agent system checks every corridor against the bounding box).
#include <gtest/gtest.h>

#include <cmath>

#include "engine/follow/agents.h"
#include "engine/nav/change_feed.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using detail::ChangeFeed;

struct Flat {
  World w;
  ProfileId walker;
  std::uint16_t stone = 0, air = 0;
  Flat() {
    EXPECT_TRUE(test::load_real_blocks(w));
    EXPECT_EQ(w.block_value("stone", &stone), Status::Ok);
    EXPECT_EQ(w.block_value("air", &air), Status::Ok);
    EXPECT_TRUE(test::load_flat_floor(w, stone));
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    w.update();
  }
  const ChangeFeed& feed() { return detail::WorldAccess::state(w).walker()->change_feed(); }
  /// One block in the open air high above the floor (y 20 .. 24), the n-th of a sweep over
  /// the 48 x 48 columns: far above any corridor at y = 1.
  CellPos sky_cell(int n) const {
    return CellPos{-16 + n % 48, 20 + n / (48 * 48), -16 + (n / 48) % 48};
  }
  /// Ticks until the agent arrives (or `limit`); the final state in `s`. Fails the test if the
  /// agent's feet ever enter a cell that holds a block.
  int run(AgentId id, AgentState& s, int limit = 600) {
    for (int t = 1; t <= limit; ++t) {
      EXPECT_EQ(w.tick(0.05), Status::Ok);
      EXPECT_EQ(w.agent_state(id, &s), Status::Ok);
      std::uint16_t v = 0;
      const CellPos feet{static_cast<std::int32_t>(std::floor(s.feet.x)),
                         static_cast<std::int32_t>(std::floor(s.feet.y + 1e-3)),
                         static_cast<std::int32_t>(std::floor(s.feet.z))};
      EXPECT_EQ(w.get_block(feet, &v), Status::Ok);
      EXPECT_EQ(v, air) << "feet inside a block at " << test::str(feet) << " tick " << t;
      if (s.mode == AgentMode::Arrived) return t;
    }
    return -1;
  }
};

TEST(ChangeFeed, UpdateOnlyHostKeepsNoChangesAndLaterAgentsRouteAroundTheEdits) {
  Flat f;
  std::size_t most = 0;
  for (int n = 0; n < 10000; ++n) {
    ASSERT_EQ(f.w.set_block(f.sky_cell(n), f.stone), Status::Ok);
    f.w.update();
    most = std::max(most, f.feed().changes().size());
  }
  EXPECT_EQ(most, 0u) << "no agent follows the walker navigation: nothing to keep";
  EXPECT_FALSE(f.feed().has_consumer());
  // A wall at x = 12 from z = -16 to z = 27, two blocks high, built by update() alone.
  for (int z = -16; z <= 27; ++z)
    for (int y = 1; y <= 2; ++y) {
      ASSERT_EQ(f.w.set_block(CellPos{12, y, z}, f.stone), Status::Ok);
      f.w.update();
    }
  EXPECT_TRUE(f.feed().changes().empty());
  // Agents added now plan on the current layers: around the wall's end at z = 28..31.
  AgentId id;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{2.5, 1.0, 2.5}}, &id), Status::Ok);
  ASSERT_EQ(f.w.set_agent_goal(id, {25, 1, 2}), Status::Ok);
  AgentState s;
  const int ticks = f.run(id, s);
  ASSERT_GT(ticks, 0) << "mode " << static_cast<int>(s.mode);
  EXPECT_NEAR(s.feet.x, 25.5, 0.5);
  EXPECT_NEAR(s.feet.z, 2.5, 0.5);
  // Straight it would be 23 cells (about 110 ticks); around the wall's end it is about 2 x 28.
  EXPECT_GT(ticks, 200);
  EXPECT_TRUE(f.feed().has_consumer());
}

TEST(ChangeFeed, AgentNoticesItsCorridorEditAmongMoreEditsThanTheFeedKeeps) {
  Flat f;
  AgentId id;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{2.5, 1.0, 2.5}}, &id), Status::Ok);
  ASSERT_EQ(f.w.set_agent_goal(id, {27, 1, 27}), Status::Ok);
  AgentState s;
  for (int t = 0; t < 10; ++t) ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  ASSERT_EQ(f.w.agent_state(id, &s), Status::Ok);
  ASSERT_EQ(s.mode, AgentMode::Moving);
  const std::uint32_t repairs = s.repairs, replans = s.replans;
  const detail::AgentRecord* a = detail::WorldAccess::state(f.w).agents.get(id);
  ASSERT_NE(a, nullptr);
  ASSERT_GT(a->corridor.cells.size(), a->cell_index + 8);
  const CellPos ahead = a->corridor.cells[a->cell_index + 6];
  // Between two ticks: half the sky edits, a pillar on the corridor cell 6 ahead, the rest; every
  // one followed by update() alone.
  const int edits = static_cast<int>(ChangeFeed::kMaxBoxes) + 1000;
  for (int n = 0; n < edits; ++n) {
    if (n == edits / 2)
      for (int y = ahead.y; y <= ahead.y + 2; ++y) {
        ASSERT_EQ(f.w.set_block(CellPos{ahead.x, y, ahead.z}, f.stone), Status::Ok);
        f.w.update();
      }
    ASSERT_EQ(f.w.set_block(f.sky_cell(n), f.stone), Status::Ok);
    f.w.update();
    ASSERT_LE(f.feed().changes().size(), ChangeFeed::kMaxBoxes);
  }
  EXPECT_TRUE(f.feed().coalesced());
  ASSERT_EQ(f.feed().changes().size(), 1u);
  const detail::Change& all = f.feed().changes().front();
  EXPECT_LE(all.min.y, ahead.y);
  EXPECT_GE(all.max.y, 20);
  // The next tick checks the corridor against the bounding box and goes around the pillar.
  ASSERT_EQ(f.w.tick(0.05), Status::Ok);
  EXPECT_TRUE(f.feed().changes().empty()) << "the agent system consumed the feed";
  EXPECT_FALSE(f.feed().coalesced());
  ASSERT_EQ(f.w.agent_state(id, &s), Status::Ok);
  EXPECT_GT(s.repairs + s.replans, repairs + replans) << "the corridor edit went unnoticed";
  a = detail::WorldAccess::state(f.w).agents.get(id);
  ASSERT_NE(a, nullptr);
  for (std::size_t k = a->cell_index; k < a->corridor.cells.size(); ++k)
    EXPECT_FALSE(a->corridor.cells[k] == ahead) << "the corridor still runs through the pillar";
  const int ticks = f.run(id, s);
  ASSERT_GT(ticks, 0) << "mode " << static_cast<int>(s.mode);
  EXPECT_NEAR(s.feet.x, 27.5, 0.5);
  EXPECT_NEAR(s.feet.z, 27.5, 0.5);
}

}  // namespace
}  // namespace voxnav
