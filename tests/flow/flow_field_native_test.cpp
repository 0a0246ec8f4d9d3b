// Flow fields on whole real regions (shared data): every cell's cost equals an independent
// Dijkstra written here over the move words (decoded by hand through the NavGrid's cell
// accessors), restricted to the field's region; successors are consistent (cost = successor's
// cost + the move's cost); the field is rebuilt after random edits and still holds; a cost agrees
// with the A* search when the search's path stays in the region; agents following a field
// arrive, standing only in node cells on the way; bad input is refused with nothing changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/corridor/corridor.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/crowds.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

const std::string kRegion116 =
    std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/1.16/r.0.-1.mca";
const std::string kRegion118 =
    std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/1.18.2/r.0.0.mca";

constexpr std::uint32_t kInf = 0xFFFFFFFFu;

/// The move graph of the node cells inside a box, read cell by cell through NavGrid::kind /
/// moves / vmoves / gaps (hash lookups, not the chunks' neighbour pointers), with the search's
/// per-move cost (detail::move_cost), surface cost (detail::with_surface) and the profile's step
/// and jump limits (the rise between the two cells' floors).
struct Oracle {
  std::unordered_map<std::uint64_t, std::uint32_t> id;
  std::vector<CellPos> cells;
  struct Move {
    std::uint32_t to;
    std::uint32_t cost;
  };
  std::vector<std::vector<Move>> out;
  std::vector<std::uint32_t> cost;  // to the goal

  std::uint32_t find(const CellPos& c) const {
    const auto it = id.find(detail::cell_key(c));
    return it == id.end() ? kInf : it->second;
  }

  Oracle(const detail::NavGrid& g, const detail::CostTable& costs, CellPos mn, CellPos mx,
         CellPos goal) {
    auto inside = [&](const CellPos& c) {
      return c.x >= mn.x && c.x <= mx.x && c.y >= mn.y && c.y <= mx.y && c.z >= mn.z && c.z <= mx.z;
    };
    for (const detail::NavChunk* ch : g.ordered_chunks()) {
      if (ch->uniform) continue;
      for (int i = 0; i < 4096; ++i) {
        const CellPos c{ch->pos.x * 16 + (i & 15), ch->pos.y * 16 + (i >> 8),
                        ch->pos.z * 16 + ((i >> 4) & 15)};
        if (!inside(c) || !detail::kind_node(g.kind(c))) continue;
        id.emplace(detail::cell_key(c), static_cast<std::uint32_t>(cells.size()));
        cells.push_back(c);
      }
    }
    out.resize(cells.size());
    const int step_q = std::min<int>(costs.step_q, g.envelope().step_q);
    const int jump_q = std::min<int>(costs.jump_q, g.envelope().jump_q);
    const bool limits = step_q < g.envelope().step_q || jump_q < g.envelope().jump_q;
    // Gap jumps over at most this many cells of air (the profile's reach within the class's).
    const int gap_cells = std::min<int>(costs.gap_reach, g.envelope().gap_reach);
    const bool gaps_on = gap_cells > 0;
    for (std::uint32_t u = 0; u < cells.size(); ++u) {
      const CellPos c = cells[u];
      auto add = [&](CellPos t, int dir, int code) {
        if (!inside(t)) return;
        const std::uint32_t v = find(t);
        if (v == kInf) return;
        if (limits && code != detail::kCodeVertUp && code != detail::kCodeVertDown) {
          // A rise above the profile's step needs a Jump within its jump (a gap jump's landing
          // may not rise above its jump either).
          const EdgeKind k = detail::kMoveCodes[code].kind;
          const int rise = (t.y - c.y) * detail::kHeightUnits + g.floor_q(t) - g.floor_q(c);
          if (k == EdgeKind::GapJump && rise > jump_q) return;
          if (rise > 0 && rise > step_q && !(k == EdgeKind::Jump && rise <= jump_q)) return;
        }
        std::uint32_t w = detail::move_cost(costs, dir, code, g.kind(t));
        if (w == detail::kCostImpassable) return;
        if (costs.surface) {  // the surface cost of the cell entered, never below 0.4 of the move
          detail::CostTable base = costs;
          base.kind_extra.fill(0);
          const std::uint32_t own = detail::move_cost(base, dir, code, detail::CellKind::Walkable);
          w = detail::with_surface(w, own, (*costs.surface)[g.surface(t)]);
          if (w == detail::kCostImpassable) return;
        }
        out[u].push_back(Move{v, w});
      };
      const std::uint32_t word = g.moves(c);
      for (int d = 0; d < 8; ++d) {
        const int code = detail::move_code(word, d);
        if (code == 0) continue;
        const detail::MoveCode mc = detail::kMoveCodes[code];
        if (mc.kind == EdgeKind::Drop && -mc.dy > costs.max_drop) continue;
        add(CellPos{c.x + detail::kDirDx[d], c.y + mc.dy, c.z + detail::kDirDz[d]}, d, code);
      }
      const std::uint8_t vm = g.vmoves(c);
      if (vm & detail::kMoveUp)
        add(CellPos{c.x, c.y + 1, c.z}, detail::kDirUp, detail::kCodeVertUp);
      if (vm & detail::kMoveDown)
        add(CellPos{c.x, c.y - 1, c.z}, detail::kDirDown, detail::kCodeVertDown);
      const detail::GapWord gm = gaps_on ? g.gaps(c) : 0;
      for (int d = 0; d < 4; ++d) {
        if (gm & (detail::kGapLevel << d))
          add(CellPos{c.x + 2 * detail::kDirDx[d], c.y, c.z + 2 * detail::kDirDz[d]}, d,
              detail::kCodeGapLevel);
        if (gm & (detail::kGapDown << d))
          add(CellPos{c.x + 2 * detail::kDirDx[d], c.y - 1, c.z + 2 * detail::kDirDz[d]}, d,
              detail::kCodeGapDown);
        if (gm & (detail::kGapUp << d))  // from a high floor onto the next cell row
          add(CellPos{c.x + 2 * detail::kDirDx[d], c.y + 1, c.z + 2 * detail::kDirDz[d]}, d,
              detail::kCodeGapUp);
        if (gap_cells >= 2 && (gm & (detail::kGapLevel2 << d)))  // over two cells of air
          add(CellPos{c.x + 3 * detail::kDirDx[d], c.y, c.z + 3 * detail::kDirDz[d]}, d,
              detail::kCodeGapLevel2);
      }
    }
    // Dijkstra from the goal over the reversed moves (ordered by cost, then cell order).
    std::vector<std::vector<Move>> in(cells.size());
    for (std::uint32_t u = 0; u < cells.size(); ++u)
      for (const Move& m : out[u]) in[m.to].push_back(Move{u, m.cost});
    cost.assign(cells.size(), kInf);
    const std::uint32_t gi = find(goal);
    if (gi == kInf) return;
    using E = std::pair<std::uint64_t, std::uint32_t>;
    std::priority_queue<E, std::vector<E>, std::greater<E>> open;
    cost[gi] = 0;
    open.push({0, gi});
    while (!open.empty()) {
      const auto [c, v] = open.top();
      open.pop();
      if (c != cost[v]) continue;
      for (const Move& m : in[v]) {
        const std::uint64_t nc = c + m.cost;
        if (nc < cost[m.to]) {
          cost[m.to] = static_cast<std::uint32_t>(nc);
          open.push({nc, m.to});
        }
      }
    }
  }
  /// The cheapest move u -> v (kInf: none).
  std::uint32_t move(std::uint32_t u, std::uint32_t v) const {
    std::uint32_t best = kInf;
    for (const Move& m : out[u])
      if (m.to == v) best = std::min(best, m.cost);
    return best;
  }
};

struct Loaded {
  std::unique_ptr<World> w;
  ProfileId pid;
};

/// Waits for a field's build (or rebuild) to be installed with no other wanted.
void settle(World& w, int updates = 14) {
  for (int k = 0; k < updates; ++k) w.update();
}

/// Goals: standable cells of the walker's biggest island, spread over it (deterministic).
std::vector<CellPos> pick_goals(World& w, int n) {
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  const detail::NavGrid& g = nav.grid();
  std::map<std::uint32_t, std::vector<CellPos>> by_island;
  for (const CellPos& c : test::standable_cells(g))
    by_island[nav.islands().component(g, c)].push_back(c);
  const std::vector<CellPos>* big = nullptr;
  for (const auto& [k, v] : by_island)
    if (!big || v.size() > big->size()) big = &v;
  std::vector<CellPos> goals;
  if (!big) return goals;
  for (int i = 1; i <= n; ++i)
    goals.push_back((*big)[big->size() * static_cast<std::size_t>(i) / (n + 1)]);
  return goals;
}

/// Compares every cell of the field with the oracle; returns the number of reached cells.
std::size_t check_field(World& w, ProfileId pid, FlowId f) {
  FlowStatus st;
  EXPECT_EQ(flow_status(w, f, &st), Status::Ok);
  EXPECT_EQ(st.state, FlowState::Ready) << flow_state_name(st.state);
  if (st.state != FlowState::Ready) return 0;
  const detail::WorldState& ws = detail::WorldAccess::state(w);
  const detail::NavGrid& g = ws.nav_of(ws.profiles[pid.index].movement_class)->grid();
  const detail::CostTable& costs = ws.agents.motion(ws.profile_motion[pid.index]).costs;
  const Oracle o(g, costs, st.region_min, st.region_max, st.goal);
  EXPECT_EQ(o.cells.size(), st.cells) << "node cells of the region";
  std::size_t reached = 0, bad_cost = 0, bad_succ = 0;
  for (std::uint32_t u = 0; u < o.cells.size(); ++u) {
    FlowCell fc;
    EXPECT_EQ(flow_cell(w, f, o.cells[u], &fc), Status::Ok);
    if (!fc.in_field) {
      ADD_FAILURE() << test::str(o.cells[u])
                    << " is a node cell of the region but not in the field";
      continue;
    }
    const bool reach = o.cost[u] != kInf;
    if (fc.reached != reach || (reach && fc.cost != o.cost[u])) {
      if (bad_cost++ < 5)
        ADD_FAILURE() << test::str(o.cells[u]) << ": field "
                      << (fc.reached ? std::to_string(fc.cost) : "unreached") << ", oracle "
                      << (reach ? std::to_string(o.cost[u]) : "unreached");
      continue;
    }
    if (!reach) continue;
    ++reached;
    if (o.cells[u] == st.goal) {
      EXPECT_EQ(fc.cost, 0u);
      continue;
    }
    const std::uint32_t v = o.find(fc.successor);
    const std::uint32_t m = v == kInf ? kInf : o.move(u, v);
    if (m == kInf || o.cost[v] == kInf || std::uint64_t{o.cost[v]} + m != fc.cost) {
      if (bad_succ++ < 5)
        ADD_FAILURE() << test::str(o.cells[u]) << " -> successor " << test::str(fc.successor)
                      << ": cost " << fc.cost << " is not the successor's cost plus the move's";
    }
  }
  EXPECT_EQ(bad_cost, 0u);
  EXPECT_EQ(bad_succ, 0u);
  EXPECT_EQ(reached, st.reached);
  return reached;
}

/// Cover points `d` cells from the goal on every axis (the corners of a box).
std::vector<CellPos> corners(CellPos goal, int d) {
  std::vector<CellPos> v;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1})
      for (int sz : {-1, 1})
        v.push_back(CellPos{goal.x + sx * d, goal.y + sy * d, goal.z + sz * d});
  return v;
}

class FlowRegion : public ::testing::TestWithParam<const std::string*> {};

TEST_P(FlowRegion, CostsEqualAnIndependentDijkstraAndTheSearch) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(*GetParam(), &pid);
  ASSERT_TRUE(w);
  const std::vector<CellPos> goals = pick_goals(*w, 3);
  ASSERT_EQ(goals.size(), 3u);
  for (const CellPos& goal : goals) {
    SCOPED_TRACE("goal " + test::str(goal));
    // Cover points at the corners: the region grows to its widest, 161 cells across.
    const std::vector<CellPos> cover = corners(goal, 64);
    FlowId f;
    ASSERT_EQ(request_flow(*w, pid, goal, cover, &f), Status::Ok);
    FlowStatus st;
    ASSERT_EQ(flow_status(*w, f, &st), Status::Ok);
    EXPECT_EQ(st.state, FlowState::Building);
    settle(*w, 2);
    ASSERT_EQ(flow_status(*w, f, &st), Status::Ok);
    EXPECT_EQ(st.region_max.x - st.region_min.x, 2 * kFlowRegionHalfWidth);
    EXPECT_EQ(st.region_max.z - st.region_min.z, 2 * kFlowRegionHalfWidth);
    const std::size_t reached = check_field(*w, pid, f);
    EXPECT_GT(reached, 500u) << "a goal in the biggest island reaches many cells";
    // The search agrees where its path stays inside the region.
    ASSERT_EQ(flow_status(*w, f, &st), Status::Ok);
    const detail::NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
    std::size_t compared = 0;
    for (const CellPos& s : test::standable_cells(g)) {
      if (compared >= 40) break;
      if ((s.x * 7 + s.z * 13) % 97 != 0) continue;
      FlowCell fc;
      ASSERT_EQ(flow_cell(*w, f, s, &fc), Status::Ok);
      if (!fc.reached) continue;
      NavRequest req;
      req.profile = pid;
      req.start = s;
      req.goal = goal;
      PathResult r;
      ASSERT_EQ(w->find_path_now(req, &r), Status::Ok);
      if (r.status.state != PathState::Ready) continue;
      const bool inside = std::all_of(r.cells.begin(), r.cells.end(), [&](const PathCell& pc) {
        const CellPos& c = pc.cell;
        return c.x >= st.region_min.x && c.x <= st.region_max.x && c.y >= st.region_min.y &&
               c.y <= st.region_max.y && c.z >= st.region_min.z && c.z <= st.region_max.z;
      });
      EXPECT_LE(r.status.cost, fc.cost) << test::str(s);
      if (inside) {
        EXPECT_EQ(r.status.cost, fc.cost) << test::str(s);
      }
      ++compared;
    }
    EXPECT_GT(compared, 5u);
    ASSERT_EQ(release_flow(*w, f), Status::Ok);
  }
}

TEST_P(FlowRegion, SurfaceCostsStepJumpAndDropLimitsAreTheProfiles) {
  ProfileId walker;
  std::unique_ptr<World> w = test::load_region(*GetParam(), &walker);
  ASSERT_TRUE(w);
  Profile p;
  p.id = "picky";
  p.max_drop = 1;
  p.step_height = 0.3;  // below the class's 0.6: slabs and stairs only, steps need a jump
  p.jump_apex = 0.5;    // below the class's 1.25: no jump onto a full block
  p.surface_malus = {SurfaceMalus{{"stone"}, -0.3}, SurfaceMalus{{"grass_block"}, 2.0},
                     SurfaceMalus{{"dirt", "sand", "gravel"}, 0.5}};
  ProfileId pid;
  std::string err;
  ASSERT_EQ(w->add_profile(p, &pid, &err), Status::Ok) << err;
  w->update();
  const detail::WorldState& ws = detail::WorldAccess::state(*w);
  ASSERT_NE(ws.agents.motion(ws.profile_motion[pid.index]).costs.surface, nullptr);
  ASSERT_LT(ws.agents.motion(ws.profile_motion[pid.index]).costs.step_q,
            ws.walker()->grid().envelope().step_q);
  const CellPos goal = pick_goals(*w, 2).at(0);
  FlowId f, plain;
  ASSERT_EQ(request_flow(*w, pid, goal, corners(goal, 64), &f), Status::Ok);
  ASSERT_EQ(request_flow(*w, walker, goal, corners(goal, 64), &plain), Status::Ok);
  settle(*w, 2);
  EXPECT_GT(check_field(*w, pid, f), 500u);
  // The profile's costs change the field: some cell costs differ from the plain walker's.
  FlowStatus st;
  ASSERT_EQ(flow_status(*w, f, &st), Status::Ok);
  std::size_t differ = 0;
  for (const CellPos& c : test::standable_cells(ws.walker()->grid())) {
    FlowCell a, b;
    ASSERT_EQ(flow_cell(*w, f, c, &a), Status::Ok);
    ASSERT_EQ(flow_cell(*w, plain, c, &b), Status::Ok);
    differ += a.reached && b.reached && a.cost != b.cost;
  }
  EXPECT_GT(differ, 100u);
  // An area defined later regroups the surfaces: the fields are built again with the new costs.
  const std::uint32_t before = st.version;
  const std::vector<std::string> dear{"oak_leaves", "birch_leaves", "water"};
  AreaId area;
  ASSERT_EQ(w->define_area("dear", dear, 1.5, &area, &err), Status::Ok) << err;
  settle(*w);
  ASSERT_EQ(flow_status(*w, f, &st), Status::Ok);
  EXPECT_GT(st.version, before);
  EXPECT_GT(check_field(*w, pid, f), 500u);
  EXPECT_GT(check_field(*w, walker, plain), 500u);
}

TEST_P(FlowRegion, SwimmerAndLargeWalkerFieldsEqualTheOracle) {
  ProfileId walker;
  std::unique_ptr<World> w = test::load_region(*GetParam(), &walker);
  ASSERT_TRUE(w);
  Profile fish;
  fish.id = "fish";
  fish.movement_class = MovementClass::Swimmer;
  fish.width = 0.98;
  fish.height = 0.98;
  fish.can_swim = true;
  fish.swim_speed = 3;
  fish.step_height = 0;
  fish.jump_apex = 0;
  fish.max_drop = 0;
  Profile golem;
  golem.id = "golem";
  golem.movement_class = MovementClass::WalkerLarge;
  golem.width = 1.9;
  golem.height = 2.9;
  golem.step_height = 1.0;
  golem.jump_apex = 1.25;
  golem.max_drop = 4;
  for (const Profile& p : {fish, golem}) {
    SCOPED_TRACE(p.id);
    ProfileId pid;
    std::string err;
    ASSERT_EQ(w->add_profile(p, &pid, &err), Status::Ok) << err;
    w->update();
    const detail::WorldState& ws = detail::WorldAccess::state(*w);
    const detail::NavGrid& g = ws.nav_of(p.movement_class)->grid();
    // The goal: the node cell with the most node cells within 16 columns (a sea, a plain).
    std::vector<CellPos> nodes;
    for (const detail::NavChunk* ch : g.ordered_chunks()) {
      if (ch->uniform) continue;
      for (int i = 0; i < 4096; ++i)
        if (detail::kind_node(ch->kind_at(i)))
          nodes.push_back(CellPos{ch->pos.x * 16 + (i & 15), ch->pos.y * 16 + (i >> 8),
                                  ch->pos.z * 16 + ((i >> 4) & 15)});
    }
    ASSERT_GT(nodes.size(), 1000u);
    CellPos goal = nodes[0];
    std::size_t best = 0;
    for (std::size_t k = 0; k < nodes.size(); k += nodes.size() / 64) {
      std::size_t near = 0;
      for (const CellPos& c : nodes)
        near += std::abs(c.x - nodes[k].x) <= 16 && std::abs(c.z - nodes[k].z) <= 16 &&
                std::abs(c.y - nodes[k].y) <= 4;
      if (near > best) {
        best = near;
        goal = nodes[k];
      }
    }
    FlowId f;
    ASSERT_EQ(request_flow(*w, pid, goal, corners(goal, 40), &f), Status::Ok);
    settle(*w, 2);
    EXPECT_GT(check_field(*w, pid, f), 100u) << "goal " << test::str(goal);
  }
}

TEST_P(FlowRegion, RebuildsAfterRandomEditsStillEqualTheOracle) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(*GetParam(), &pid);
  ASSERT_TRUE(w);
  const CellPos goal = pick_goals(*w, 1).at(0);
  FlowId f;
  const std::vector<CellPos> cover = corners(goal, 40);
  ASSERT_EQ(request_flow(*w, pid, goal, cover, &f), Status::Ok);
  settle(*w, 2);
  FlowStatus st;
  ASSERT_EQ(flow_status(*w, f, &st), Status::Ok);
  ASSERT_EQ(st.state, FlowState::Ready);
  std::uint16_t stone = 0;
  ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);
  voxnav::tools::SplitMix64 rng(19);
  const detail::NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
  std::vector<CellPos> inside;
  for (const CellPos& c : test::standable_cells(g))
    if (std::abs(c.x - goal.x) <= 40 && std::abs(c.z - goal.z) <= 40 && !(c == goal))
      inside.push_back(c);
  ASSERT_GT(inside.size(), 100u);
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const std::uint32_t before = st.version;
    // A few walls on walkable cells and a few cells dug out under them.
    for (int k = 0; k < 6; ++k) {
      const CellPos c = inside[rng.below(static_cast<std::uint32_t>(inside.size()))];
      if (k % 2 == 0) {
        ASSERT_EQ(w->set_block(c, stone), Status::Ok);
        ASSERT_EQ(w->set_block(CellPos{c.x, c.y + 1, c.z}, stone), Status::Ok);
      } else {
        ASSERT_EQ(w->set_block(CellPos{c.x, c.y - 1, c.z}, 0), Status::Ok);
      }
    }
    settle(*w);
    ASSERT_EQ(flow_status(*w, f, &st), Status::Ok);
    EXPECT_GT(st.version, before) << "the field was rebuilt";
    EXPECT_FALSE(st.rebuilding);
    check_field(*w, pid, f);
  }
}

TEST_P(FlowRegion, AgentsFollowingAFieldArrive) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(*GetParam(), &pid);
  ASSERT_TRUE(w);
  const CellPos goal = pick_goals(*w, 2).at(1);
  // A wide field to choose the starts from, and the one they follow: no cover points, so its
  // first region (33 cells across) leaves most of them outside until it grows to cover them.
  FlowId wide, f;
  const std::vector<CellPos> cover = corners(goal, 64);
  ASSERT_EQ(request_flow(*w, pid, goal, cover, &wide), Status::Ok);
  ASSERT_EQ(request_flow(*w, pid, goal, {}, &f), Status::Ok);
  settle(*w, 2);
  FlowStatus first;
  ASSERT_EQ(flow_status(*w, f, &first), Status::Ok);
  // Starts: reached cells 10 to 60 cells of cost from the goal, kept apart.
  const detail::NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
  std::vector<CellPos> starts;
  for (const CellPos& c : test::standable_cells(g)) {
    if (starts.size() >= 12) break;
    if ((c.x * 5 + c.z * 11) % 7 != 0) continue;
    FlowCell fc;
    ASSERT_EQ(flow_cell(*w, wide, c, &fc), Status::Ok);
    if (!fc.reached || fc.cost < 100000 || fc.cost > 600000) continue;
    bool clash = false;
    for (const CellPos& o : starts)
      clash = clash || (std::abs(o.x - c.x) < 3 && std::abs(o.z - c.z) < 3);
    if (!clash) starts.push_back(c);
  }
  ASSERT_GE(starts.size(), 6u);
  std::vector<AgentId> ids;
  for (const CellPos& s : starts) {
    double y = 0;
    ASSERT_EQ(w->standing_height(pid, s, &y), Status::Ok);
    AgentId id;
    ASSERT_EQ(w->add_agent(AgentDef{pid, Vec3{s.x + 0.5, y, s.z + 0.5}}, &id), Status::Ok);
    ASSERT_EQ(set_agent_flow(*w, id, f), Status::Ok);
    ids.push_back(id);
  }
  const std::uint64_t searches = w->stats().searches;
  std::size_t arrived = 0;
  for (int t = 0; t < 1200 && arrived < ids.size(); ++t) {
    ASSERT_EQ(w->tick(0.05), Status::Ok);
    arrived = 0;
    for (AgentId id : ids) {
      AgentState s;
      ASSERT_EQ(w->agent_state(id, &s), Status::Ok);
      ASSERT_TRUE(detail::kind_node(g.kind(s.cell))) << "agent stood in " << test::str(s.cell);
      const CellPos feet{static_cast<int>(std::floor(s.feet.x)),
                         static_cast<int>(std::floor(s.feet.y + 1e-3)),
                         static_cast<int>(std::floor(s.feet.z))};
      ASSERT_NE(g.kind(feet), detail::CellKind::Blocked)
          << "feet inside a block at " << test::str(feet);
      arrived += s.mode == AgentMode::Arrived;
    }
  }
  for (AgentId id : ids) {
    AgentState s;
    ASSERT_EQ(w->agent_state(id, &s), Status::Ok);
    std::string why;
    (void)w->agent_reason(id, &why);
    EXPECT_EQ(s.mode, AgentMode::Arrived)
        << agent_mode_name(s.mode) << " at " << test::str(s.cell) << ": " << why;
    EXPECT_EQ(s.requests, 0u) << "field followers make no path requests";
  }
  EXPECT_EQ(w->stats().searches, searches) << "field followers never search";
  FlowStatus last;
  ASSERT_EQ(flow_status(*w, f, &last), Status::Ok);
  EXPECT_GT(last.version, first.version) << "rebuilt to cover its followers";
  std::size_t outside_first = 0;
  for (const CellPos& s : starts)
    outside_first += s.x < first.region_min.x || s.x > first.region_max.x ||
                     s.z < first.region_min.z || s.z > first.region_max.z;
  EXPECT_GT(outside_first, 0u);
}

TEST_P(FlowRegion, FollowersCorridorsStayValidUnderEdits) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(*GetParam(), &pid);
  ASSERT_TRUE(w);
  const CellPos goal = pick_goals(*w, 3).at(1);
  FlowId wide, f;
  ASSERT_EQ(request_flow(*w, pid, goal, corners(goal, 64), &wide), Status::Ok);
  ASSERT_EQ(request_flow(*w, pid, goal, corners(goal, 30), &f), Status::Ok);
  settle(*w, 2);
  const detail::WorldState& ws = detail::WorldAccess::state(*w);
  const detail::NavGrid& g = ws.walker()->grid();
  std::vector<AgentId> ids;
  for (const CellPos& c : test::standable_cells(g)) {
    if (ids.size() >= 10) break;
    if ((c.x * 3 + c.z * 17) % 11 != 0) continue;
    FlowCell fc;
    ASSERT_EQ(flow_cell(*w, wide, c, &fc), Status::Ok);
    if (!fc.reached || fc.cost < 150000 || fc.cost > 450000) continue;
    double y = 0;
    ASSERT_EQ(w->standing_height(pid, c, &y), Status::Ok);
    AgentId id;
    ASSERT_EQ(w->add_agent(AgentDef{pid, Vec3{c.x + 0.5, y, c.z + 0.5}}, &id), Status::Ok);
    ASSERT_EQ(set_agent_flow(*w, id, f), Status::Ok);
    ids.push_back(id);
  }
  ASSERT_GE(ids.size(), 6u);
  std::uint16_t stone = 0;
  ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);
  voxnav::tools::SplitMix64 rng(7);
  std::size_t pillars = 0, checked = 0;
  for (int t = 0; t < 1500; ++t) {
    // Every 5 ticks a pillar two blocks high on a cell of some follower's corridor ahead (not
    // within 6 cells of the goal: pillars there would soon wall it in).
    if (t % 5 == 3) {
      const AgentId id = ids[rng.below(static_cast<std::uint32_t>(ids.size()))];
      const detail::AgentRecord* a = ws.agents.get(id);
      if (a && a->mode == AgentMode::Moving && a->cell_index + 3 < a->corridor.cells.size()) {
        const std::size_t k =
            a->cell_index + 2 +
            rng.below(static_cast<std::uint32_t>(a->corridor.cells.size() - a->cell_index - 2));
        const CellPos c = a->corridor.cells[k];
        if (std::max(std::abs(c.x - goal.x), std::abs(c.z - goal.z)) > 6) {
          ASSERT_EQ(w->set_block(c, stone), Status::Ok);
          ASSERT_EQ(w->set_block(CellPos{c.x, c.y + 1, c.z}, stone), Status::Ok);
          ++pillars;
        }
      }
    }
    ASSERT_EQ(w->tick(0.05), Status::Ok);
    for (AgentId id : ids) {
      const detail::AgentRecord* a = ws.agents.get(id);
      ASSERT_NE(a, nullptr);
      if (a->mode != AgentMode::Moving) continue;
      ++checked;
      ASSERT_TRUE(detail::path_still_valid(g, a->corridor.cells, a->corridor.kinds, a->cell_index))
          << "tick " << t << ": a follower's corridor holds a move the layers no longer have";
    }
  }
  EXPECT_GE(pillars, 8u);
  EXPECT_GT(checked, 500u);
  std::size_t arrived = 0;
  for (AgentId id : ids) {
    AgentState s;
    ASSERT_EQ(w->agent_state(id, &s), Status::Ok);
    std::string why;
    ASSERT_EQ(w->agent_reason(id, &why), Status::Ok);
    if (s.mode == AgentMode::Arrived) {
      ++arrived;
    } else {
      EXPECT_EQ(s.mode, AgentMode::Blocked) << agent_mode_name(s.mode) << ": " << why;
      EXPECT_FALSE(why.empty());
    }
  }
  EXPECT_GE(arrived * 2, ids.size()) << "most followers still arrive";
  EXPECT_EQ(w->stats().searches, 0u) << "field followers never search";
}

TEST_P(FlowRegion, AnyExecutorBuildsTheSameField) {
  ProfileId pid;
  std::unique_ptr<World> w = test::load_region(*GetParam(), &pid);
  ASSERT_TRUE(w);
  const detail::WorldState& ws = detail::WorldAccess::state(*w);
  const detail::NavGrid& g = ws.walker()->grid();
  const detail::CostTable& costs = ws.agents.motion(ws.profile_motion[pid.index]).costs;
  const CellPos goal = pick_goals(*w, 1).at(0);
  const detail::FlowBox box =
      detail::flow_region(goal, corners(goal, 64), kFlowRegionMargin, kFlowRegionHalfWidth);
  detail::FlowBuild one(g, costs, goal, box);
  one.run_all();
  ASSERT_TRUE(one.done());
  for (int threads : {2, 3}) {
    native::ThreadPool pool(threads);
    detail::FlowBuild many(g, costs, goal, box);
    EXPECT_GT(many.slices(), 20u);
    for (int k = 0; k < threads + 1; ++k) pool.submit([&many](int) { many.run_slices(); });
    pool.wait_idle();
    ASSERT_TRUE(many.done());
    const detail::FlowField& a = *one.result();
    const detail::FlowField& b = *many.result();
    EXPECT_EQ(a.index, b.index);
    EXPECT_EQ(a.cost, b.cost);
    EXPECT_EQ(a.succ, b.succ);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.los, b.los);
    EXPECT_GT(a.reached, 1000u);
  }
}

std::string region_name(const ::testing::TestParamInfo<const std::string*>& p) {
  return p.index == 0 ? "mc116" : "mc118";
}
INSTANTIATE_TEST_SUITE_P(Regions, FlowRegion, ::testing::Values(&kRegion116, &kRegion118),
                         region_name);

}  // namespace
}  // namespace voxnav
