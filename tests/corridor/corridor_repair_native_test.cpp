// Local corridor repair on the default real region (data/worlds/r.0.-1.mca): 160 walkers with
// goals within 48 cells, and a block placed on (or dug under) a corridor cell ahead of a moving
// agent every tick. After every tick each moving agent's corridor must still be one an agent can
// follow: its waypoints are standable cells of its path in order (a Start point first, each
// other one with the kind of the path's edge into it), ending at its goal, the path's steps ahead
// are valid moves, and every level stretch it still has to walk passes line_walkable_level.
// Repairs keep the old waypoints far from the edit and pull only around the detour
// (AgentSystem::repull_spliced); the test also checks that this happened, that agents on one
// route shared a detour search, and that a corridor epoch that stayed means waypoints ahead that
// stayed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/corridor/corridor.h"
#include "engine/follow/agents.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/crowds.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using test::str;

const std::string& kRegion = test::repo_region();

/// Empty when agent `a`'s corridor can be followed from where it stands, else what is wrong.
std::string check_corridor(const detail::NavGrid& grid, const detail::AgentRecord& a) {
  const detail::Corridor& c = a.corridor;
  if (c.points.empty() || c.cells.empty()) return "empty corridor";
  if (!(c.points.back().cell == c.cells.back())) return "last waypoint is not the goal cell";
  if (!(c.points.front().cell == c.cells.front()) ||
      c.points.front().kind != EdgeKind::Start)
    return "first waypoint is not a Start point at the first path cell";
  if (!detail::path_still_valid(grid, c.cells, c.kinds, a.cell_index))
    return "a step of the path ahead is not a move";
  std::size_t i = 0;  // waypoints are a subsequence of the path cells
  for (std::size_t k = 0; k < c.points.size(); ++k, ++i) {
    while (i < c.cells.size() && !(c.cells[i] == c.points[k].cell)) ++i;
    if (i == c.cells.size())
      return "waypoint " + std::to_string(k) + " " + str(c.points[k].cell) +
             " is not on the path (in order)";
    if (k > 0 && c.points[k].kind != c.kinds[i])
      return "waypoint " + std::to_string(k) + " " + str(c.points[k].cell) + " has kind " +
             edge_kind_name(c.points[k].kind) + ", the path's edge into it is " +
             edge_kind_name(c.kinds[i]);
    if (i >= a.cell_index && !grid.standable(c.points[k].cell))
      return "waypoint " + std::to_string(k) + " " + str(c.points[k].cell) + " is not standable";
  }
  for (std::size_t k = std::max<std::size_t>(a.next, 1); k < c.points.size(); ++k) {
    const Waypoint& p = c.points[k - 1];
    const Waypoint& q = c.points[k];
    if (q.kind == EdgeKind::Walk && p.cell.y == q.cell.y &&
        !detail::line_walkable_level(grid, p.cell, q.cell))
      return "level stretch " + str(p.cell) + " -> " + str(q.cell) + " (waypoints " +
             std::to_string(k - 1) + ", " + std::to_string(k) + ") is not walkable";
  }
  return {};
}

TEST(CorridorRepair, SplicedCorridorsStayFollowableUnderEditsAhead) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(kRegion, &pid);
  ASSERT_TRUE(w);
  detail::WorldState& st = detail::WorldAccess::state(*w);
  detail::NavWorld& nav = *st.walker();
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w->block_value("air", &air), Status::Ok);
  // Agents and goals on islands of at least 500 cells.
  std::vector<CellPos> pool;
  for (const CellPos& c : test::standable_cells(nav.grid()))
    if (nav.islands().size_of(nav.islands().component(nav.grid(), c)) >= 500) pool.push_back(c);
  ASSERT_GT(pool.size(), 1000u);
  // Without steering (tests/steer checks it): the counts below are of one fixed random run, and
  // the rarest of them (a repair that leaves the waypoints ahead as they were: 1 in ~500) depends
  // on exactly where the bodies walk, which separation and ORCA change.
  set_separation(*w, false);
  for (std::size_t m = 0; m < st.agents.motion_count(); ++m)
    st.agents.motion_mut(m).steer.orca = false;
  tools::SplitMix64 rng{20261130};
  std::vector<AgentId> ids;
  for (int i = 0; i < 160; ++i) {
    const CellPos c = pool[rng.below(static_cast<std::uint32_t>(pool.size()))];
    double feet = 0;
    ASSERT_EQ(w->standing_height(pid, CellPos{c.x, c.y, c.z}, &feet), Status::Ok);
    AgentId id;
    ASSERT_EQ(w->add_agent(AgentDef{pid, Vec3{c.x + 0.5, feet, c.z + 0.5}}, &id), Status::Ok);
    ids.push_back(id);
  }
  auto record = [&](AgentId id) {
    return st.agents.get(AgentId{id.index, id.generation});
  };
  auto keep_busy = [&] {
    for (const AgentId id : ids) {
      const detail::AgentRecord* a = record(id);
      if (!a || a->mode == AgentMode::Moving || a->mode == AgentMode::Planning)
        continue;
      const std::uint32_t isl = nav.islands().component(nav.grid(), a->last_cell);
      for (int k = 0; k < 64; ++k) {
        const CellPos g = pool[rng.below(static_cast<std::uint32_t>(pool.size()))];
        if (std::abs(g.x - a->last_cell.x) > 48 || std::abs(g.z - a->last_cell.z) > 48) continue;
        if (nav.islands().component(nav.grid(), g) != isl) continue;
        (void)w->set_agent_goal(id, CellPos{g.x, g.y, g.z});
        break;
      }
    }
  };
  for (int t = 0; t < 40; ++t) {
    keep_busy();
    (void)w->tick(0.05);
  }
  const detail::AgentSystem::RepairStats before = st.agents.repair_stats();
  const int ticks = 400;
  int checked = 0;
  for (int t = 0; t < ticks; ++t) {
    keep_busy();
    // A block on a corridor cell ahead of a random moving agent, or a dig under one.
    for (int tries = 0; tries < 16; ++tries) {
      const detail::AgentRecord* a = record(ids[rng.below(static_cast<std::uint32_t>(ids.size()))]);
      if (!a || a->mode != AgentMode::Moving ||
          a->corridor.cells.size() < a->cell_index + 4)
        continue;
      const std::size_t ahead =
          a->cell_index + 2 +
          rng.below(static_cast<std::uint32_t>(a->corridor.cells.size() - a->cell_index - 2));
      const CellPos c = a->corridor.cells[ahead];
      const bool block = t % 2 == 0;
      const CellPos e = block ? c : CellPos{c.x, c.y - 1, c.z};
      if (w->set_block(CellPos{e.x, e.y, e.z}, block ? stone : air) == Status::Ok) break;
    }
    // The waypoints each moving agent has ahead, and its corridor epoch, before the tick.
    std::vector<std::pair<std::uint32_t, std::vector<Waypoint>>> ahead(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k)
      if (const detail::AgentRecord* a = record(ids[k]);
          a && a->mode == AgentMode::Moving && a->next < a->corridor.points.size())
        ahead[k] = {a->corridor.epoch,
                    {a->corridor.points.begin() + static_cast<std::ptrdiff_t>(a->next),
                     a->corridor.points.end()}};
    (void)w->tick(0.05);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const AgentId id = ids[k];
      const detail::AgentRecord* a = record(id);
      if (!a || a->mode != AgentMode::Moving) continue;
      ++checked;
      // An unchanged epoch promises the page that the waypoints ahead are the ones it has (the
      // agent may have passed some of them during the tick).
      if (!ahead[k].second.empty() && a->corridor.epoch == ahead[k].first) {
        const std::vector<Waypoint>& was = ahead[k].second;
        const std::size_t left =
            a->corridor.points.size() - std::min(a->next, a->corridor.points.size());
        bool same = left <= was.size();
        for (std::size_t q = 0; same && q < left; ++q) {
          const Waypoint& p = a->corridor.points[a->next + q];
          const Waypoint& o = was[was.size() - left + q];
          same = p.cell == o.cell && p.kind == o.kind;
        }
        ASSERT_TRUE(same) << "tick " << t << ", agent " << id.index
                          << ": the corridor epoch stayed but the waypoints ahead changed";
      }
      const std::string bad = check_corridor(nav.grid(), *a);
      ASSERT_TRUE(bad.empty()) << "tick " << t << ", agent " << id.index << ": " << bad;
    }
  }
  const detail::AgentSystem::RepairStats after = st.agents.repair_stats();
  EXPECT_GT(checked, 20000);
  // The edits were on corridors: many repairs, most of them keeping old waypoints, and agents on
  // one route sharing a detour.
  EXPECT_GT(after.repairs - before.repairs, 200u);
  EXPECT_GT(after.kept_waypoints - before.kept_waypoints, (after.repairs - before.repairs) / 2);
  EXPECT_GT(after.shared_detours - before.shared_detours, 20u);
  // Some detours leave the pulled waypoints as they were (the lines did not use the cells they go
  // around): those repairs keep the corridor epoch, checked above against the waypoints.
  EXPECT_GT(after.same_waypoints - before.same_waypoints, 0u);
  std::printf(
      "%llu repairs (%llu keeping old waypoints, %llu leaving the waypoints ahead as they "
      "were), %llu shared detours, %d corridors checked\n",
      static_cast<unsigned long long>(after.repairs - before.repairs),
      static_cast<unsigned long long>(after.kept_waypoints - before.kept_waypoints),
      static_cast<unsigned long long>(after.same_waypoints - before.same_waypoints),
      static_cast<unsigned long long>(after.shared_detours - before.shared_detours), checked);
}

}  // namespace
}  // namespace voxnav
