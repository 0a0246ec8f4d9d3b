#include "engine/follow/agents.h"
#include "engine/flight/flyer_nav.h"
#include "engine/nav/profile_compile.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <span>

namespace voxnav {

const char* agent_mode_name(AgentMode m) noexcept {
  switch (m) {
    case AgentMode::Idle:
      return "idle";
    case AgentMode::Planning:
      return "planning";
    case AgentMode::Moving:
      return "moving";
    case AgentMode::Arrived:
      return "arrived";
    case AgentMode::Failed:
      return "failed";
    case AgentMode::Blocked:
      return "blocked";
  }
  return "?";
}

}  // namespace voxnav

namespace voxnav::detail {

AgentId AgentSystem::add(std::uint32_t motion, const Vec3& feet) {
  std::uint32_t idx;
  if (!free_.empty()) {
    idx = free_.back();
    free_.pop_back();
  } else {
    idx = static_cast<std::uint32_t>(agents_.size());
    agents_.emplace_back();
    agents_.back().generation = next_generation(0, id_tag_);
  }
  AgentRecord& a = agents_[idx];
  const std::uint32_t gen = a.generation;
  a = AgentRecord{};
  a.generation = gen;
  a.alive = true;
  a.motion = motion;
  a.body.feet = feet;
  a.placed = true;
  if (motions_[motion].swims) a.body.mode = BodyMode::Swim;
  if (motions_[motion].flies) a.body.mode = BodyMode::Fly;  // hovers from the start
  a.last_cell = foot_cell(feet, motions_[motion].foot_offset);
  a.last_step = ticks_;
  return AgentId{idx, gen};
}

AgentRecord* AgentSystem::get(AgentId id) {
  if (id.index >= agents_.size()) return nullptr;
  AgentRecord& a = agents_[id.index];
  return a.alive && a.generation == id.generation ? &a : nullptr;
}
const AgentRecord* AgentSystem::get(AgentId id) const {
  return const_cast<AgentSystem*>(this)->get(id);
}

bool AgentSystem::remove(NavWorld& nav, AgentId id) {
  AgentRecord* a = get(id);
  if (!a) return false;
  if (a->request.generation) {
    if (motions_[a->motion].flies) {
      if (flyer_) (void)flyer_->release(a->request);
    } else {
      (void)nav.release(a->request);
    }
  }
  index_.clear(id.index);
  a->alive = false;
  a->generation = next_generation(a->generation, id_tag_);
  free_.push_back(id.index);
  return true;
}

/// Staged trips: the most doublings of the profile's search budget (8 times it) a stage that
/// ends no nearer the goal than an earlier one may bring; one more and the trip fails.
constexpr int kMaxStageBoost = 3;

std::uint32_t boosted_budget(std::uint32_t nodes, int boost) {
  return static_cast<std::uint32_t>(
      std::min<std::uint64_t>(static_cast<std::uint64_t>(nodes) << boost, 0xFFFFFFFFu));
}

/// A staged route was installed: a stage ending nearer the goal than every earlier one resets the
/// budget, one that does not doubles it. False when it would pass kMaxStageBoost (the stages
/// circle: the trip fails BudgetExhausted). Every reset needs a strictly nearer stage end, so the
/// stages of one trip end.
bool note_stage(AgentRecord& a) {
  const CellPos& e = a.corridor.cells.back();
  const std::uint32_t d = octile(e.x - a.goal.x, e.z - a.goal.z) +
                          static_cast<std::uint32_t>(std::abs(e.y - a.goal.y)) * kCostStraight;
  if (d < a.stage_best) {
    a.stage_best = d;
    a.stage_boost = 0;
    return true;
  }
  return ++a.stage_boost <= kMaxStageBoost;
}

/// What a new order resets, whether a goal of its own or a flow field's (the caller plans next).
void start_order(AgentRecord& a, CellPos goal, int range) {
  // Held Blocked with blocks inside its body: look again before following the new goal.
  if (a.mode == AgentMode::Blocked && a.fail == PathFailure::Embedded) a.check_embedded = true;
  a.goal = goal;
  a.goal_range = range;
  a.has_goal = true;
  a.intent = AgentIntent::Goal;  // (a chase, flee or path order sets its own after this)
  a.chase_direct = false;
  a.fall_ticks = 0;
  a.replans_in_row = 0;
  a.crowd_rests = 0;
  a.stalled = false;
  a.stage_best = 0xFFFFFFFFu;
  a.stage_boost = 0;
  a.reason.clear();
  a.fail = PathFailure::None;
}

bool AgentSystem::set_goal(NavWorld& nav, AgentId id, CellPos goal, int range) {
  AgentRecord* a = get(id);
  if (!a) return false;
  start_order(*a, goal, range);
  a->flow_generation = 0;  // a goal of its own: no longer a field's follower
  clear_door_hold(*a, true);
  plan(nav, *a);
  return true;
}

bool AgentSystem::set_flow(NavWorld& nav, AgentId id, std::uint32_t index,
                           std::uint32_t generation, CellPos goal) {
  AgentRecord* a = get(id);
  if (!a) return false;
  start_order(*a, goal, 0);
  clear_door_hold(*a, true);
  a->flow_index = index;
  a->flow_generation = generation;
  a->flow_version = 0;
  plan(nav, *a);
  return true;
}

void AgentSystem::detach_flow(std::uint32_t index, std::uint32_t generation) {
  for (AgentRecord& a : agents_) {
    if (!a.alive || a.flow_generation != generation || a.flow_index != index) continue;
    a.flow_generation = 0;
    a.has_goal = false;
    a.replan = false;
    clear_door_hold(a, true);
    a.mode = AgentMode::Idle;
    a.reason = "its flow field was released";
    reindex(a);
  }
}

bool AgentSystem::set_lod(AgentId id, int k) {
  AgentRecord* a = get(id);
  if (!a) return false;
  a->lod = k;
  return true;
}

bool AgentSystem::plain_walk(const AgentRecord& a) const {
  const AgentMotion& m = motions_[a.motion];
  return a.mode == AgentMode::Moving && !m.swims && a.next < a.corridor.points.size() &&
         a.corridor.points[a.next].kind == EdgeKind::Walk && a.body.on_ground &&
         a.body.mode == BodyMode::Walk && !a.control.locked && !a.control.knock_pending &&
         !a.door_waiting && !a.door_announced && !a.check_embedded && !a.replan &&
         a.ticks_without_progress <= kStuckTicks;
}

bool AgentSystem::teleport(AgentId id, const Vec3& feet) {
  AgentRecord* a = get(id);
  if (!a) return false;
  place(*a, feet);
  return true;
}

void AgentSystem::place(AgentRecord& a, const Vec3& feet) {
  a.body = BodyState{};
  a.body.feet = feet;
  a.placed = true;
  a.control.knock_pending = false;  // a teleport drops a knock and its lock (not the facing)
  a.control.pending_knock = Vec3{};
  a.control.locked = false;
  if (motions_[a.motion].swims) a.body.mode = BodyMode::Swim;
  if (motions_[a.motion].flies) a.body.mode = BodyMode::Fly;
  // (the cell stood on before is no start for a plan from here: while the new feet cell has no
  // navigation yet, current_cell falls back to this one)
  a.last_cell = foot_cell(feet, motions_[a.motion].foot_offset);
  a.corridor.epoch = ++corridor_epoch_;
  clear_door_hold(a, true);
  // A corridor (or a search) from the old position is no use: plan from the new one at the next
  // step, where the navigation is at hand.
  if (a.mode == AgentMode::Moving || a.mode == AgentMode::Planning) {
    a.mode = AgentMode::Planning;
    a.next = 0;
    a.replan = true;
  }
  reindex(a);
}

bool AgentSystem::push_out_position(const NavGrid& grid, const Space& space, const AgentRecord& a,
                                    Vec3& out) const {
  const AgentMotion& m = motions_[a.motion];
  const Vec3& p = a.body.feet;
  const CellPos c0 = foot_cell(p, m.foot_offset);
  const int r = kEmbeddedPushRadius;
  double best = 0;
  bool found = false;
  for (int dy = -r; dy <= r; ++dy)
    for (int dz = -r; dz <= r; ++dz)
      for (int dx = -r; dx <= r; ++dx) {
        const CellPos c{c0.x + dx, c0.y + dy, c0.z + dz};
        if (!cell_in_range(c) || !(m.swims ? grid.node(c) : grid.standable(c))) continue;
        const Vec3 f{c.x + 0.5 + m.foot_offset,
                     c.y + static_cast<double>(grid.floor_q(c)) / kHeightUnits,
                     c.z + 0.5 + m.foot_offset};
        const double ddx = f.x - p.x, ddy = f.y - p.y, ddz = f.z - p.z;
        const double d = ddx * ddx + ddy * ddy + ddz * ddz;
        if (found && !(d < best)) continue;
        if (body_inside_blocks(space, f, m.body, kEmbeddedTolerance)) continue;
        best = d;
        out = f;
        found = true;
      }
  return found;
}

void AgentSystem::resolve_embedded(NavWorld& nav, const Space& space, AgentRecord& a) {
  const AgentMotion& m = motions_[a.motion];
  const bool held = a.mode == AgentMode::Blocked && a.fail == PathFailure::Embedded;
  if (body_inside_blocks(space, a.body.feet, m.body, kEmbeddedTolerance)) {
    Vec3 to;
    if (!push_out_position(nav.grid(), space, a, to)) {
      // Walled in: nowhere to go. Blocked (not Failed: an edit may free it), looked at again
      // at every edit near it and every kBlockedRetryTicks.
      if (a.request.generation) (void)nav.release(a.request);
      a.request = PathHandle{};
      a.replan = false;
      clear_door_hold(a, true);
      a.mode = AgentMode::Blocked;
    a.crowded = false;
      a.fail = PathFailure::Embedded;
      a.blocked_ticks = 0;
      const Vec3& f = a.body.feet;
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "embedded: blocks were put inside the body at (%.2f,%.2f,%.2f), and no "
                    "standable cell lies within %d cells to push it out to",
                    f.x, f.y, f.z, kEmbeddedPushRadius);
      a.reason = buf;
      reindex(a);
      return;
    }
    place(a, to);
    ++a.push_outs;
  } else if (!held) {
    return;  // nothing inside it
  }
  if (held) {
    // Free again (dug out, or pushed out now that a cell nearby opened): plan from here.
    a.fail = PathFailure::None;
    a.reason.clear();
    a.blocked_ticks = 0;
    a.mode = a.has_goal ? AgentMode::Planning : AgentMode::Idle;
    a.replan = a.has_goal;
    a.next = 0;
    reindex(a);
  }
}

CellPos AgentSystem::current_cell(const NavGrid& grid, AgentRecord& a) const {
  const CellPos c = foot_cell(a.body.feet, motions_[a.motion].foot_offset);
  if (grid.node(c)) {
    a.last_cell = c;
    return c;
  }
  const CellPos below{c.x, c.y - 1, c.z};
  if (a.body.on_ground && grid.standable(below)) {
    a.last_cell = below;
    return below;
  }
  return a.last_cell;
}

void AgentSystem::plan(NavWorld& nav, AgentRecord& a) {
  if (motions_[a.motion].flies) {  // the flyer navigation's request (flyer_follow.cpp)
    fly_plan(a);
    return;
  }
  if (a.flow_generation) {  // field followers never search
    trace(nav, a);
    return;
  }
  a.replan = false;
  a.chase_direct = false;
  a.chase_no_closer = false;
  issue_request(nav, a);
  a.mode = AgentMode::Planning;
  reindex(a);
}

void AgentSystem::issue_request(NavWorld& nav, AgentRecord& a) {
  if (a.request.generation) (void)nav.release(a.request);
  RequestSpec spec = motion_spec(a);
  spec.start = current_cell(nav.grid(), a);
  if (a.intent == AgentIntent::Chase) {  // toward where the target is now
    Vec3 p;
    CellPos c;
    if (chase_target(a, p, c)) a.goal = c;
    // An agent's cell is one its class stands in: the search goes there. A host entity's may
    // be in the air or in a block: then any cell within kChaseGoalRange of it will do.
    a.goal_range = a.chase_entity && !nav.grid().node(a.goal) ? kChaseGoalRange : 0;
  }
  spec.goal = a.goal;
  spec.goal_range = a.goal_range;
  if (a.intent == AgentIntent::Flee) {
    spec.flee_distance = a.flee_distance;
    spec.flee_from = a.flee_from;
    spec.goal = spec.start;
    spec.goal_range = 0;
  }
  spec.avoid = avoided_cells(a, nav.tick());  // doors that stayed shut in front of it
  // With a build radius the goal may lie past chunks not built yet: walk as close as the built
  // chunks go (the chunks ahead are built as the agent comes near) and plan again there.
  spec.toward_unbuilt = nav.build_radius() > 0 && a.intent != AgentIntent::Flee;
  // A goal proven reachable but past what one search's budget explores: walk the stage toward it
  // and plan again from its end (end_of_partial).
  spec.staged = a.intent != AgentIntent::Flee;
  spec.max_nodes = boosted_budget(spec.max_nodes, a.stage_boost);
  a.request = nav.request(spec);
  ++a.requests;
}

RequestSpec AgentSystem::motion_spec(const AgentRecord& a) const {
  const AgentMotion& m = motions_[a.motion];
  RequestSpec spec;
  spec.max_nodes = m.max_nodes;
  spec.max_distance = m.max_distance;
  spec.costs = m.costs;
  spec.motion = a.motion;
  return spec;
}

void AgentSystem::install_direct_chase(AgentRecord& a, const Waypoint& from, const Waypoint& to) {
  a.corridor.cells = {from.cell, to.cell};
  a.corridor.kinds = {from.kind, to.kind};
  a.corridor.points = {from, to};
  a.corridor.epoch = ++corridor_epoch_;
  a.next = 1;
  a.cell_index = 0;
  a.partial = false;
  a.mode = AgentMode::Moving;
  a.crowded = false;
  a.blocked_ticks = 0;
  a.fail = PathFailure::None;
  a.reason.clear();
  a.chase_direct = true;
  reindex(a);
}

void AgentSystem::reindex(AgentRecord& a) {
  const std::uint32_t idx = index_of(a);
  if (a.mode == AgentMode::Moving) {
    index_.set(idx, a.corridor, a.cell_index);
  } else if (a.mode == AgentMode::Blocked) {
    index_.set_cell(idx, a.last_cell);
  } else {
    index_.clear(idx);
  }
}

void AgentSystem::install(NavWorld& nav, AgentRecord& a) {
  PathFailure why = PathFailure::None;
  const RequestState st = nav.state(a.request, &why);
  if (st == RequestState::Queued || st == RequestState::Searching) return;
  a.chase_direct = false;  // a chaser's search came back: its corridor (or failure) replaces it
  if (st == RequestState::Failed && why == PathFailure::BadStart && !a.body.on_ground &&
      !motions_[a.motion].swims && a.placed && a.fall_ticks <= kFallWaitTicks) {
    // Still falling after being added or teleported in the air: plan again once it lands.
    (void)nav.release(a.request);
    a.request = PathHandle{};
    a.replan = true;
    return;
  }
  if (st == RequestState::Failed && why == PathFailure::NotLoaded && a.placed &&
      nav.is_unbuilt(chunk_of(a.last_cell)) && ++a.fall_ticks <= kFallWaitTicks) {
    // Added or teleported into a loaded chunk whose navigation is being built (a build radius
    // builds it now that the agent is there): plan again once it is.
    (void)nav.release(a.request);
    a.request = PathHandle{};
    a.replan = true;
    return;
  }
  if (st == RequestState::Failed || st == RequestState::Free) {
    a.mode = AgentMode::Failed;
    a.fail = why;
    clear_door_hold(a, true);
    a.reason = std::string("request failed: ") + path_failure_name(why);
    if (a.intent == AgentIntent::Chase) {
      // The target stands where no route reaches for now: not terminal, it may come back.
      // Blocked (the search is tried again after kBlockedRetryTicks; the chase watch walks
      // straight at it, or catches it, meanwhile).
      a.mode = AgentMode::Blocked;
      a.crowded = false;
      a.blocked_ticks = 0;
      const CellPos& c = a.goal;
      a.reason = "chase: no route to the target's cell (" + std::to_string(c.x) + "," +
                 std::to_string(c.y) + "," + std::to_string(c.z) +
                 "): " + path_failure_name(why) + "; tried again";
    } else if (a.intent == AgentIntent::Flee) {
      const CellPos& c = a.flee_from;
      a.reason = "flee: no cell at least " + std::to_string(a.flee_distance) +
                 " cells from (" + std::to_string(c.x) + "," + std::to_string(c.y) + "," +
                 std::to_string(c.z) + ") is reachable: request failed: " +
                 path_failure_name(why);
    }
    (void)nav.release(a.request);
    a.request = PathHandle{};
    reindex(a);
    return;
  }
  const RequestSlot* s = nav.slot(a.request);
  a.corridor = s->corridor;
  a.partial = s->partial;
  if (a.partial && s->proven && a.corridor.cells.size() >= 2 && !note_stage(a)) {
    a.mode = AgentMode::Failed;
    a.fail = PathFailure::BudgetExhausted;
    clear_door_hold(a, true);
    a.reason = "request failed: budget_exhausted: the goal is reachable, but the stages toward it "
               "(searches of up to " + std::to_string(boosted_budget(motions_[a.motion].max_nodes,
                                                                      kMaxStageBoost)) +
               " nodes) stopped getting nearer";
    (void)nav.release(a.request);
    a.request = PathHandle{};
    reindex(a);
    return;
  }
  const bool stale = s->layers_version != nav.layers_version();
  if (a.partial && a.corridor.cells.size() < 2) {
    // The built chunks end where it stands, or the cell nearest the goal that the budget
    // explored is this one: wait (Blocked, retried) for the chunks around it to be built or the
    // world to change.
    a.reason = s->proven ? "the goal is reachable but farther than one search's budget explores, "
                           "and no explored cell is closer to it"
                         : "the goal lies past chunks whose navigation is not built, and no built "
                           "cell is closer to it";
    (void)nav.release(a.request);
    a.request = PathHandle{};
    a.mode = AgentMode::Blocked;
    a.crowded = false;
    a.blocked_ticks = 0;
    reindex(a);
    return;
  }
  (void)nav.release(a.request);
  a.request = PathHandle{};
  if (stale && !path_still_valid(nav.grid(), a.corridor.cells, a.corridor.kinds, 0)) {
    ++a.replans;
    plan(nav, a);
    return;
  }
  // A stale result's moves still hold, but its straight stretches were pulled on older layers:
  // pull them again (a later repair keeps the stretches it finds untouched).
  if (stale)
    string_pull(nav.grid(), a.corridor.cells, a.corridor.kinds, a.corridor.points,
                motions_[a.motion].costs.surface.get());
  a.corridor_repeats = false;
  a.corridor.epoch = ++corridor_epoch_;
  a.fall_ticks = 0;
  a.placed = false;
  a.next = first_waypoint(a);
  a.cell_index = 0;
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  a.mode = AgentMode::Moving;
  a.reason.clear();
  // A flee's goal is the cell its search chose (later replans flee again from where it is).
  if (a.intent == AgentIntent::Flee && !a.corridor.cells.empty()) {
    a.goal = a.corridor.cells.back();
    a.goal_range = 0;
  }
  reindex(a);
}

namespace {

// Cells of open air a gap jump waypoint `w` crosses from the one before it (1 without one).
int gap_cells_to(const Waypoint* prev, const Waypoint& w) {
  if (!prev) return 1;
  return std::max(std::abs(w.cell.x - prev->cell.x), std::abs(w.cell.z - prev->cell.z)) - 1;
}
/// Whether cell c lies where a change can alter its moves: one column around the change (up to
/// kMaxGapCells + 1 for gap jumps), from five below it (the ceiling scan of the cell one up) to max_drop + 5 above it
/// (a drop onto a cell whose layer 0 the change reads). The agents looked at after a change are
/// those whose corridors pass bricks of this box.
bool near_change(const std::vector<Change>& changes, const CellPos& c, int max_drop) {
  constexpr int r = kMaxGapCells + 1;
  for (const Change& ch : changes)
    if (c.x >= ch.min.x - r && c.x <= ch.max.x + r && c.z >= ch.min.z - r && c.z <= ch.max.z + r &&
        c.y >= ch.min.y - 5 && c.y <= ch.max.y + max_drop + 5)
      return true;
  return false;
}

/// path_still_valid() after `changes` on a path that was valid before them: only the steps with
/// an end near a change can have broken.
bool steps_valid_near(const NavGrid& grid, const std::vector<CellPos>& cells,
                      const std::vector<EdgeKind>& kinds, std::size_t from,
                      const std::vector<Change>& changes) {
  const int max_drop = grid.envelope().max_drop;
  for (std::size_t i = from; i + 1 < cells.size(); ++i)
    if ((near_change(changes, cells[i], max_drop) ||
         near_change(changes, cells[i + 1], max_drop)) &&
        !step_valid(grid, cells[i], cells[i + 1], kinds[i + 1]))
      return false;
  return true;
}

bool boxes_touch_path(const std::vector<Change>& changes, const std::vector<CellPos>& cells,
                      std::size_t from) {
  for (const Change& ch : changes) {
    // A cell's moves depend on cells one column around it, one up and a few down.
    const int x0 = ch.min.x - 1, x1 = ch.max.x + 1, z0 = ch.min.z - 1, z1 = ch.max.z + 1;
    const int y0 = ch.min.y - 5, y1 = ch.max.y + 8;
    for (std::size_t i = from; i < cells.size(); ++i) {
      const CellPos& c = cells[i];
      if (c.x >= x0 && c.x <= x1 && c.z >= z0 && c.z <= z1 && c.y >= y0 && c.y <= y1) return true;
    }
  }
  return false;
}

bool box_touches(const std::vector<Change>& changes, int x0, int z0, int x1, int z1, int y) {
  for (const Change& ch : changes)
    if (ch.max.x >= x0 - 1 && ch.min.x <= x1 + 1 && ch.max.z >= z0 - 1 && ch.min.z <= z1 + 1 &&
        ch.max.y >= y - 5 && ch.min.y <= y + 8)
      return true;
  return false;
}

/// Whether a corridor pulled again from where the agent stands (`now`, whose first point is that
/// place) has the waypoints it had ahead (`ahead`: the old points from the one it walked toward).
bool same_ahead(std::span<const Waypoint> ahead, const std::vector<Waypoint>& now) {
  if (now.empty() || ahead.empty() || now.size() - 1 != ahead.size()) return false;
  for (std::size_t k = 1; k < now.size(); ++k)
    if (!(now[k].cell == ahead[k - 1].cell) || now[k].kind != ahead[k - 1].kind) return false;
  return true;
}

/// Whether a level segment of the corridor ahead crosses a changed cell and can no longer be
/// walked in a straight line (the cells of the search path may all still be fine).
bool segment_broken(const NavGrid& grid, const std::vector<Change>& changes, const Corridor& c,
                    std::size_t next) {
  for (std::size_t k = next > 0 ? next : 1; k < c.points.size(); ++k) {
    const Waypoint& a = c.points[k - 1];
    const Waypoint& b = c.points[k];
    if (b.kind != EdgeKind::Walk || a.cell.y != b.cell.y) continue;
    if (!box_touches(changes, std::min(a.cell.x, b.cell.x), std::min(a.cell.z, b.cell.z),
                     std::max(a.cell.x, b.cell.x), std::max(a.cell.z, b.cell.z), a.cell.y))
      continue;
    if (!line_walkable_level(grid, a.cell, b.cell)) return true;
  }
  return false;
}
}  // namespace

void AgentSystem::trace(NavWorld& nav, AgentRecord& a) {
  a.replan = false;
  if (a.request.generation) (void)nav.release(a.request);
  a.request = PathHandle{};
  const FlowSlot* fs = flows_ ? flows_->get(a.flow_index, a.flow_generation) : nullptr;
  const FlowField* f = fs && fs->field && fs->field->failure == PathFailure::None
                           ? fs->field.get()
                           : nullptr;
  const NavGrid& grid = nav.grid();
  const CellPos start = current_cell(grid, a);
  // Nothing to trace from here yet (the field is building, or this cell is outside it or cut
  // off): hold, and trace again at the next step.
  auto hold = [&](const char* why) {
    if (a.mode == AgentMode::Moving) a.corridor.epoch = ++corridor_epoch_;
    a.mode = AgentMode::Planning;
    a.fail = PathFailure::None;
    a.replan = true;
    a.reason = why;
    reindex(a);
  };
  // No route the field can give from here for now: Blocked, tried again after
  // kBlockedRetryTicks, at once when an edit lands near it, and when the field is rebuilt (step).
  auto block = [&](std::string why, PathFailure fail) {
    if (a.mode == AgentMode::Moving) a.corridor.epoch = ++corridor_epoch_;
    a.mode = AgentMode::Blocked;
    a.crowded = false;
    a.fail = fail;
    a.blocked_ticks = 0;
    a.last_cell = start;
    a.reason = std::move(why);
    reindex(a);
  };
  if (fs && fs->field && fs->field->failure != PathFailure::None) {
    // The field's last build found no goal (solid, or its chunk unloaded): Blocked with the
    // field's reason until a build finds the goal again.
    a.flow_version = fs->version;
    return block(std::string("flow field failed: ") + path_failure_name(fs->field->failure),
                 fs->field->failure);
  }
  if (!f) return hold("waiting for the flow field");
  a.flow_version = fs->version;
  std::uint32_t i = f->find(start);
  if (i == kFlowNone) {
    // Outside the field (the next build grows it to hold the agent, up to kFlowHalfWidth from
    // the goal): straight for the goal when a walkable line on its level reaches it, else hold.
    std::vector<CellPos> line;
    if (straight_cells(grid, start, f->goal, motions_[a.motion].costs.surface.get(), line)) {
      std::vector<EdgeKind> kinds(line.size(), EdgeKind::Walk);
      kinds[0] = EdgeKind::Start;
      install_trace(grid, a, std::move(line), std::move(kinds), false);
      return;
    }
    // Past the region's limit no build will hold it: Blocked until the line clears or it is
    // brought within the limit.
    if (std::abs(start.x - f->goal.x) > kFlowHalfWidth ||
        std::abs(start.y - f->goal.y) > kFlowHalfWidth ||
        std::abs(start.z - f->goal.z) > kFlowHalfWidth)
      return block("beyond the flow field's limit (" + std::to_string(kFlowHalfWidth) +
                       " cells from its goal on each axis) with no straight walkable line to "
                       "the goal: holds",
                   PathFailure::None);
    return hold("outside the flow field (it grows to cover its followers)");
  }
  if (f->cost[i] == kFlowUnreached) {
    // Cut off from the goal inside the field (the field is rebuilt after an edit near it).
    return block("the flow field does not reach its goal from here", PathFailure::None);
  }
  std::vector<CellPos> cells{start};
  std::vector<EdgeKind> kinds{EdgeKind::Start};
  // kTraceCells along the successors; from a line-of-sight cell on to the goal.
  bool los = false;
  for (int n = 0; i != f->goal_index && (los || n < kTraceCells); ++n) {
    los = los || f->los[i] != 0;
    const std::uint32_t next = f->succ[i];
    const CellPos to = f->cell(next);
    if (!step_valid(grid, cells.back(), to, f->kind[i])) break;  // cut by a change not built yet
    cells.push_back(to);
    kinds.push_back(f->kind[i]);
    i = next;
  }
  if (cells.size() < 2) {
    if (start == f->goal) {
      a.mode = AgentMode::Arrived;
      a.fail = PathFailure::None;
      ++a.arrivals;
      a.reason.clear();
      reindex(a);
      return;
    }
    return hold("the flow field's move from here is cut");
  }
  const bool partial = !(cells.back() == f->goal);  // its end re-traces
  install_trace(grid, a, std::move(cells), std::move(kinds), partial);
}

bool AgentSystem::straight_cells(const NavGrid& grid, CellPos from, CellPos to,
                                 const SurfaceCosts* surface, std::vector<CellPos>& out) {
  out.clear();
  if (from.y != to.y || std::abs(to.x - from.x) > 2 * kFlowHalfWidth ||
      std::abs(to.z - from.z) > 2 * kFlowHalfWidth || !line_walkable_level(grid, from, to, surface))
    return false;
  // The cells of an 8-connected line (Bresenham), each step a move the layers hold.
  const int dx = std::abs(to.x - from.x), dz = std::abs(to.z - from.z);
  const int sx = to.x > from.x ? 1 : -1, sz = to.z > from.z ? 1 : -1;
  int err = dx - dz;
  CellPos c = from;
  out.push_back(c);
  while (!(c == to)) {
    const int e2 = 2 * err;
    CellPos n = c;
    if (e2 > -dz) {
      err -= dz;
      n.x += sx;
    }
    if (e2 < dx) {
      err += dx;
      n.z += sz;
    }
    if (!step_valid(grid, c, n, EdgeKind::Walk)) return false;
    out.push_back(n);
    c = n;
  }
  return out.size() >= 2;
}

void AgentSystem::install_trace(const NavGrid& grid, AgentRecord& a, std::vector<CellPos> cells,
                                std::vector<EdgeKind> kinds, bool partial) {
  std::vector<Waypoint> points;
  string_pull(grid, cells, kinds, points, motions_[a.motion].costs.surface.get());
  // The corridor epoch moves only when the waypoints ahead changed.
  const bool same = a.mode == AgentMode::Moving && a.next < a.corridor.points.size() &&
                    same_ahead(std::span<const Waypoint>(a.corridor.points).subspan(a.next), points);
  a.corridor.cells = std::move(cells);
  a.corridor.kinds = std::move(kinds);
  a.corridor.points = std::move(points);
  if (!same) {
    a.corridor.epoch = ++corridor_epoch_;
    a.best_dist = 1e30;
    a.ticks_without_progress = 0;
  }
  a.partial = partial;
  a.corridor_repeats = false;
  a.fall_ticks = 0;
  a.placed = false;
  a.next = first_waypoint(a);
  a.cell_index = 0;
  a.mode = AgentMode::Moving;
  a.fail = PathFailure::None;
  a.reason.clear();
  reindex(a);
}

void AgentSystem::step(std::span<NavWorld* const> navs, const Space& space, double dt) {
  auto nav_of = [&](const AgentRecord& a) -> NavWorld* {
    const std::uint8_t slot = motions_[a.motion].nav_slot;
    return slot < navs.size() ? navs[slot] : nullptr;
  };
  // 1. Edits: only the agents whose corridors (or, when Blocked, whose cells) lie in a brick near a
  //    change are looked at, in index order, against the changes of their own class's navigation.
  //    The wall time is statistics only.
  const auto t0 = std::chrono::steady_clock::now();
  bool any_changes = false;
  detours_.clear();
  for (std::size_t slot = 0; slot < navs.size(); ++slot) {
    NavWorld* nav = navs[slot];
    if (!nav) continue;
    const ChangeFeed& feed = nav->change_feed();
    const std::vector<Change>& changes = feed.changes();
    if (changes.empty()) continue;
    any_changes = true;
    const int max_drop = nav->grid().envelope().max_drop;
    touched_.clear();
    // (a coalesced feed: more changes than it keeps came since the last step; every corridor
    // of the class is checked against their bounding box)
    bool everyone = feed.coalesced();
    for (const Change& ch : changes) {
      if (everyone) break;
      // A cell's moves read layer 0 one column around it, from one up (whose ceiling scan reads
      // three more) to max_drop + 4 down (the dependency box of the edit below it), and a gap
      // jump reads two columns along; a straight segment is checked one cell wide. The same box
      // as near_change().
      const CellPos mn{ch.min.x - 2, ch.min.y - 5, ch.min.z - 2};
      const CellPos mx{ch.max.x + 2, ch.max.y + max_drop + 5, ch.max.z + 2};
      const std::int64_t bricks = std::int64_t((mx.x >> 2) - (mn.x >> 2) + 1) *
                                  ((mx.y >> 2) - (mn.y >> 2) + 1) * ((mx.z >> 2) - (mn.z >> 2) + 1);
      if (bricks > 4096) {
        everyone = true;
        break;
      }
      index_.query(mn, mx, touched_);
    }
    if (everyone) {
      touched_.clear();
      for (std::uint32_t i = 0; i < agents_.size(); ++i) touched_.push_back(i);
    }
    std::sort(touched_.begin(), touched_.end());
    touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
    for (std::uint32_t i : touched_) {
      AgentRecord& a = agents_[i];
      if (!a.alive || motions_[a.motion].nav_slot != slot) continue;
      if (a.mode == AgentMode::Moving) {
        on_change(*nav, a, changes);
      } else if (a.mode == AgentMode::Blocked) {
        a.blocked_ticks = kBlockedRetryTicks;  // the world changed around it: try again now
      }
    }
    // Bodies a change reaches into (whatever their mode: the corridor index holds only moving
    // and blocked agents): look at step 2 whether blocks are inside them now.
    for (AgentRecord& a : agents_) {
      if (!a.alive || motions_[a.motion].nav_slot != slot) continue;
      const AgentMotion& m = motions_[a.motion];
      const Vec3& p = a.body.feet;
      const double hw = 0.5 * m.body.width;
      const double lo[3] = {std::floor(p.x - hw), std::floor(p.y) - 1, std::floor(p.z - hw)};
      const double hi[3] = {std::floor(p.x + hw), std::floor(p.y + m.body.height),
                            std::floor(p.z + hw)};
      for (const Change& ch : changes)
        if (everyone || (ch.max.x >= lo[0] && ch.min.x <= hi[0] && ch.max.y >= lo[1] &&
                         ch.min.y <= hi[1] && ch.max.z >= lo[2] && ch.min.z <= hi[2])) {
          a.check_embedded = true;
          break;
        }
    }
  }
  // The flyers' corridors against the flyer layer's changes (flyer_follow.cpp).
  if (flyer_ && (!flyer_->feed().empty() || flyer_->feed_coalesced())) {
    any_changes = true;
    fly_edits();
  }
  last_edit_check_us_ =
      any_changes
          ? std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count()
          : 0;
  // 2. Requests, following, the stuck watch and retries of blocked agents (ORCA reads the bodies
  //    as they stood before anyone moved: engine/steer).
  //    A reduced agent rests this tick while its step would be plain walking and it is not its
  //    turn ((tick + slot) % k); resting, it is neither pushed nor avoids back (steer).
  ++ticks_;
  for (AgentRecord& a : agents_)
    a.lod_skip = a.alive && a.lod > 1 &&
                 (ticks_ + index_of(a)) % static_cast<std::uint64_t>(a.lod) != 0 && plain_walk(a);
  steer_.begin(agents_.data(), agents_.size(), motions_.data());
  for (AgentRecord& a : agents_) {
    if (!a.alive || a.lod_skip) continue;
    if (motions_[a.motion].flies) {  // flyer_follow.cpp
      const int fticks = static_cast<int>(std::max<std::uint64_t>(1, ticks_ - a.last_step));
      a.last_step = ticks_;
      fly_step(space, a, dt * fticks);
      continue;
    }
    NavWorld* nav = nav_of(a);
    if (!nav) continue;
    // The ticks since its last step (1 at full detail; a reduced agent catches up).
    const int ticks = static_cast<int>(std::max<std::uint64_t>(1, ticks_ - a.last_step));
    a.last_step = ticks_;
    // Blocks put inside the body: push it out, or hold it Blocked (it looks again at its retry).
    if (a.check_embedded || (a.mode == AgentMode::Blocked && a.fail == PathFailure::Embedded &&
                             a.blocked_ticks + 1 >= kBlockedRetryTicks)) {
      a.check_embedded = false;
      resolve_embedded(*nav, space, a);
    }
    if (a.mode == AgentMode::Blocked && a.has_goal && a.crowded &&
        a.blocked_ticks < kBlockedRetryTicks) {
      // Resting, pinned by its crowd: after kCrowdRestTicks it walks its corridor on (an edit
      // near it while it rests makes it plan again instead, below).
      if (++a.blocked_ticks >= kCrowdRestTicks) resume_after_rest(a);
    } else if (a.mode == AgentMode::Blocked && a.has_goal &&
               ++a.blocked_ticks >= kBlockedRetryTicks) {
      a.blocked_ticks = 0;
      a.replans_in_row = 0;
      ++a.replans;
      plan(*nav, a);
    }
    if (a.replan && a.mode == AgentMode::Planning && a.has_goal &&
        (a.body.on_ground || motions_[a.motion].swims || ++a.fall_ticks > kFallWaitTicks)) {
      a.replan = false;
      plan(*nav, a);
    }
    if (a.flow_generation) {
      // A field follower re-traces when its field was rebuilt (moving, or Blocked by the field:
      // failed, cut off, past its limit), and before its trace runs out (half of it walked), so
      // it never stops at the end of a trace.
      const FlowSlot* fs = flows_ ? flows_->get(a.flow_index, a.flow_generation) : nullptr;
      const bool rebuilt = fs && fs->version != a.flow_version;
      if ((a.mode == AgentMode::Moving &&
           (rebuilt || (fs && a.partial &&
                        a.corridor.cells.size() < a.cell_index + kTraceCells / 2))) ||
          (a.mode == AgentMode::Blocked && a.fail != PathFailure::Embedded && rebuilt &&
           a.has_goal))
        plan(*nav, a);
    } else if (a.mode == AgentMode::Planning && !a.replan) {
      install(*nav, a);
    }
    if (a.intent == AgentIntent::Chase && a.has_goal) {
      // A chaser's search toward where its target went, run while it walks its old corridor.
      if (a.mode == AgentMode::Moving && a.request.generation) install(*nav, a);
      chase_step(*nav, a);
    }
    follow(*nav, space, a, dt * ticks, ticks);
  }
  // 3. Steering: separation of overlapping bodies, then arrival contagion (touching an agent
  //    Arrived on the same order).
  for (std::uint32_t i : steer_.finish(agents_.data(), agents_.size(), motions_.data(), navs.data(),
                                       navs.size(), space)) {
    AgentRecord& a = agents_[i];
    a.mode = AgentMode::Arrived;
    ++a.arrivals;
    a.replans_in_row = 0;
    clear_door_hold(a, true);
    reindex(a);
  }
  for (NavWorld* nav : navs)
    if (nav) nav->change_feed().consume();
}

void AgentSystem::on_change(NavWorld& nav, AgentRecord& a, const std::vector<Change>& changes) {
  // A chaser walking straight at its target judges the line again at every step (chase_step).
  if (a.chase_direct) return;
  if (boxes_touch_path(changes, a.corridor.cells, a.cell_index) &&
      !steps_valid_near(nav.grid(), a.corridor.cells, a.corridor.kinds, a.cell_index, changes)) {
    if (a.flow_generation) {  // no repair search: trace the field again (cut at the break)
      ++a.replans;
      plan(nav, a);
      return;
    }
    if (repair(nav, a, changes)) {
      ++a.repairs;
      ++repair_stats_.repairs;
      return;
    }
    // No short detour: plan from scratch (a reachability No fails the request at once).
    ++a.replans;
    plan(nav, a);
  } else if (segment_broken(nav.grid(), changes, a.corridor, a.next)) {
    // The path's cells still connect, but a straight stretch now clips the edit.
    repull(nav, a);
  }
}

bool AgentSystem::repair(NavWorld& nav, AgentRecord& a, const std::vector<Change>& changes) {
  const NavGrid& grid = nav.grid();
  const int max_drop = grid.envelope().max_drop;
  std::vector<CellPos>& cells = a.corridor.cells;
  std::vector<EdgeKind>& kinds = a.corridor.kinds;
  const std::size_t n = cells.size();
  // The broken stretch [first, last]: steps from cells[first] ... into cells[last + 1] fail.
  std::size_t first = n, last = n;
  for (std::size_t i = a.cell_index; i + 1 < n; ++i)
    if ((near_change(changes, cells[i], max_drop) ||
         near_change(changes, cells[i + 1], max_drop)) &&
        !step_valid(grid, cells[i], cells[i + 1], kinds[i + 1])) {
      if (first == n) first = i;
      last = i;
    }
  if (first == n) return true;  // nothing broken after all
  // Start: the last standable path cell at or before the break, at or after the agent's.
  std::size_t s = first;
  while (s > a.cell_index && !grid.node(cells[s])) --s;
  const CellPos start = grid.node(cells[s]) ? cells[s] : current_cell(grid, a);
  // Resume: the first cell past the break that lies clear of every change (the rest of the path
  // from there is valid: `last` is the last broken step).
  std::size_t j = last + 1;
  while (j + 1 < n && near_change(changes, cells[j], max_drop)) ++j;
  if (!grid.node(cells[j])) return false;
  RequestSpec spec;
  spec.start = start;
  spec.goal = cells[j];
  spec.max_nodes = kRepairNodes;
  spec.costs = motions_[a.motion].costs;
  spec.motion = a.motion;
  spec.avoid = avoided_cells(a, nav.tick());
  // Agents on one route share its broken stretch: the detour between the same cells, for the same
  // motion and nothing avoided, is searched once per update (the grid does not change meanwhile).
  const SearchResult* found = nullptr;
  SearchResult own;
  if (spec.avoid.empty()) {
    for (const Detour& d : detours_)
      if (d.start == spec.start && d.goal == spec.goal && d.motion == a.motion) found = &d.result;
    if (found) {
      ++repair_stats_.shared_detours;
    } else {
      detours_.push_back(Detour{spec.start, spec.goal, a.motion, nav.search_now(spec)});
      found = &detours_.back().result;
    }
  } else {
    own = nav.search_now(spec);
    found = &own;
  }
  const SearchResult& r = *found;
  if (r.outcome != SearchOutcome::Found || r.cells.empty()) return false;
  // Splice: the path ahead up to the start, the detour, the path after the resume cell.
  std::vector<CellPos> nc(cells.begin() + static_cast<std::ptrdiff_t>(a.cell_index),
                       cells.begin() + static_cast<std::ptrdiff_t>(s));
  std::vector<EdgeKind> nk(kinds.begin() + static_cast<std::ptrdiff_t>(a.cell_index),
                           kinds.begin() + static_cast<std::ptrdiff_t>(s));
  const bool from_path = start == cells[s];
  nc.insert(nc.end(), r.cells.begin(), r.cells.end());
  nk.push_back(from_path ? kinds[s] : EdgeKind::Start);
  nk.insert(nk.end(), r.kinds.begin() + 1, r.kinds.end());
  nc.insert(nc.end(), cells.begin() + static_cast<std::ptrdiff_t>(j + 1), cells.end());
  nk.insert(nk.end(), kinds.begin() + static_cast<std::ptrdiff_t>(j + 1), kinds.end());
  if (!nk.empty()) nk[0] = EdgeKind::Start;
  const std::size_t detour = r.cells.size();
  // A detour that crosses the kept path makes a cell repeat: old waypoints can no longer be
  // mapped to path cells by their cells, so this and later repairs pull the corridor whole. (Its
  // last cell is cells[j], and its first is cells[s] or, off the path, where the agent stands.)
  if (!a.corridor_repeats) {
    const std::size_t d0 = from_path ? 1 : 0, d1 = detour - 1;  // the detour's inner cells
    CellPos lo{INT_MAX, INT_MAX, INT_MAX}, hi{INT_MIN, INT_MIN, INT_MIN};
    for (std::size_t d = d0; d < d1; ++d) {
      const CellPos& c = r.cells[d];
      lo = CellPos{std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = CellPos{std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
    }
    const std::size_t det_begin = s - a.cell_index, det_end = det_begin + detour;
    for (std::size_t i = 0; i < nc.size() && !a.corridor_repeats; ++i) {
      if (i == det_begin) i = det_end;  // the detour itself
      if (i >= nc.size()) break;
      const CellPos& c = nc[i];
      if (c.x < lo.x || c.x > hi.x || c.y < lo.y || c.y > hi.y || c.z < lo.z || c.z > hi.z)
        continue;
      a.corridor_repeats = std::find(r.cells.begin() + static_cast<std::ptrdiff_t>(d0),
                                     r.cells.begin() + static_cast<std::ptrdiff_t>(d1),
                                     c) != r.cells.begin() + static_cast<std::ptrdiff_t>(d1);
    }
  }
  // Where the old corridor's cells land in the new one: index i < s maps to i - cell_index, and
  // i > j to i + shift.
  const std::ptrdiff_t shift =
      static_cast<std::ptrdiff_t>(s - a.cell_index + detour) - static_cast<std::ptrdiff_t>(j + 1);
  // The waypoints ahead before the repair: the epoch moves only if they changed (a detour can
  // leave them as they were when the pulled lines did not use the cells it goes around).
  std::vector<Waypoint>& before = pull_before_;
  before.assign(a.corridor.points.begin() +
                    static_cast<std::ptrdiff_t>(std::min(a.next, a.corridor.points.size())),
                a.corridor.points.end());
  repull_spliced(grid, a, changes, nc, nk, s, j, shift);
  cells.swap(nc);
  kinds.swap(nk);
  a.cell_index = 0;
  // (A swimmer follows from points[0], the new start: its points ahead always changed.)
  if (!motions_[a.motion].swims && same_ahead(before, a.corridor.points))
    ++repair_stats_.same_waypoints;
  else
    a.corridor.epoch = ++corridor_epoch_;
  a.next = first_waypoint(a);
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  reindex(a);
  return true;
}

void AgentSystem::repull_spliced(const NavGrid& grid, AgentRecord& a,
                                 const std::vector<Change>& changes, const std::vector<CellPos>& nc,
                                 const std::vector<EdgeKind>& nk, std::size_t s, std::size_t j,
                                 std::ptrdiff_t shift) {
  const SurfaceCosts* surface = motions_[a.motion].costs.surface.get();
  const std::vector<CellPos>& cells = a.corridor.cells;
  std::vector<Waypoint>& pts = a.corridor.points;
  const int max_drop = grid.envelope().max_drop;
  // The old waypoints are a subsequence of the old path cells: find each one's cell index.
  std::vector<std::size_t>& at = pull_at_;
  at.clear();
  for (std::size_t i = 0, k = 0; k < pts.size(); ++i) {
    if (i == cells.size()) {  // not a subsequence (cannot happen): pull everything
      string_pull(grid, nc, nk, pts, surface);
      return;
    }
    if (cells[i] == pts[k].cell) {
      at.push_back(i);
      ++k;
    }
  }
  // A stretch between two old waypoints is kept when the edit cannot have changed it: neither end
  // lies near a change and, for a level walk, the box it sweeps does not touch one (the test of
  // segment_broken()).
  auto untouched = [&](std::size_t k) {
    const Waypoint& p = pts[k - 1];
    const Waypoint& q = pts[k];
    if (near_change(changes, p.cell, max_drop) || near_change(changes, q.cell, max_drop))
      return false;
    return q.kind != EdgeKind::Walk || p.cell.y != q.cell.y ||
           !box_touches(changes, std::min(p.cell.x, q.cell.x), std::min(p.cell.z, q.cell.z),
                        std::max(p.cell.x, q.cell.x), std::max(p.cell.z, q.cell.z), p.cell.y);
  };
  // Head: the waypoints the agent walks toward, up to the last one before the splice whose
  // stretches are all untouched (walkers only: a swimmer first swims onto points[0]).
  std::size_t head_from = 0, head_to = 0;  // old waypoints [head_from, head_to) are kept
  if (!motions_[a.motion].swims && a.next >= 1 && a.next < pts.size()) {
    std::size_t k = a.next;
    while (k < pts.size() && at[k] <= a.cell_index) ++k;  // the waypoint the agent stands on
    head_from = head_to = k;
    // The new corridor starts where the agent stands: its first stretch, to the first kept
    // waypoint, must be walkable from there (a step onto a jump or climb is one cell).
    const bool reaches =
        k < pts.size() &&
        (pts[k].kind == EdgeKind::Walk
             ? pts[k].cell.y == nc[0].y && line_walkable_level(grid, nc[0], pts[k].cell, surface)
             : at[k] == a.cell_index + 1);
    while (reaches && head_to < pts.size() && at[head_to] < s && untouched(head_to)) ++head_to;
  }
  // Tail: from the first waypoint past the splice after which no stretch is touched.
  std::size_t tail = pts.size();  // old waypoints [tail, end) are kept (tail itself re-pulled)
  for (std::size_t k = pts.size(); k-- > 1;) {
    if (at[k] <= j) break;
    if (near_change(changes, pts[k].cell, max_drop)) break;
    tail = k;
    if (!untouched(k)) break;
  }
  // Pull the new path from the last kept head waypoint (or the agent's cell) to the first kept
  // tail waypoint (or the goal): a valid corridor that differs from a full pull only in keeping
  // the old waypoints far from the edit.
  const std::size_t from = head_to > head_from ? at[head_to - 1] - a.cell_index : 0;
  const std::size_t to =
      tail < pts.size() ? static_cast<std::size_t>(static_cast<std::ptrdiff_t>(at[tail]) + shift)
                        : nc.size() - 1;
  if ((from == 0 && to == nc.size() - 1) || a.corridor_repeats) {
    string_pull(grid, nc, nk, pts, surface);
    return;
  }
  std::vector<CellPos>& sub_cells = pull_cells_;
  std::vector<EdgeKind>& sub_kinds = pull_kinds_;
  sub_cells.assign(nc.begin() + static_cast<std::ptrdiff_t>(from),
                   nc.begin() + static_cast<std::ptrdiff_t>(to) + 1);
  sub_kinds.assign(nk.begin() + static_cast<std::ptrdiff_t>(from),
                   nk.begin() + static_cast<std::ptrdiff_t>(to) + 1);
  sub_kinds[0] = EdgeKind::Start;
  ++repair_stats_.kept_waypoints;
  std::vector<Waypoint>& mid = pull_points_;
  string_pull(grid, sub_cells, sub_kinds, mid, surface);
  std::vector<Waypoint>& out = pull_out_;
  out.clear();
  if (from > 0) {
    out.push_back(waypoint_of(grid, nc[0], EdgeKind::Start));
    out.insert(out.end(), pts.begin() + static_cast<std::ptrdiff_t>(head_from),
               pts.begin() + static_cast<std::ptrdiff_t>(head_to));
    out.insert(out.end(), mid.begin() + 1, mid.end());
  } else {
    out.insert(out.end(), mid.begin(), mid.end());
  }
  if (tail < pts.size()) {
    out.back().kind = pts[tail].kind;
    out.insert(out.end(), pts.begin() + static_cast<std::ptrdiff_t>(tail) + 1, pts.end());
  }
  pts.swap(out);
}

void AgentSystem::repull(NavWorld& nav, AgentRecord& a) {
  const std::vector<CellPos> cells(
      a.corridor.cells.begin() + static_cast<std::ptrdiff_t>(a.cell_index), a.corridor.cells.end());
  std::vector<EdgeKind> kinds(a.corridor.kinds.begin() + static_cast<std::ptrdiff_t>(a.cell_index),
                              a.corridor.kinds.end());
  if (!kinds.empty()) kinds[0] = EdgeKind::Start;
  std::vector<Waypoint> points;
  string_pull(nav.grid(), cells, kinds, points, motions_[a.motion].costs.surface.get());
  // Waypoints ahead of the agent before and after (the first new point is where it stands).
  const bool same =
      !motions_[a.motion].swims && a.next < a.corridor.points.size() &&
      same_ahead(std::span<const Waypoint>(a.corridor.points).subspan(a.next), points);
  a.corridor.cells = cells;
  a.corridor.kinds = kinds;
  a.corridor.points.swap(points);
  a.cell_index = 0;
  a.next = first_waypoint(a);
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  if (!same) a.corridor.epoch = ++corridor_epoch_;
  reindex(a);
}

std::vector<CellPos> AgentSystem::avoided_cells(AgentRecord& a, std::uint64_t now) const {
  a.avoid.erase(std::remove_if(a.avoid.begin(), a.avoid.end(),
                               [now](const AvoidedDoor& v) { return v.until <= now; }),
                a.avoid.end());
  std::vector<CellPos> cells;
  cells.reserve(a.avoid.size());
  for (const AvoidedDoor& v : a.avoid) cells.push_back(v.cell);
  return cells;
}

void AgentSystem::raise_door_event(const NavWorld& nav, AgentRecord& a) {
  if (door_events_.size() >= kMaxDoorEvents) {
    door_events_.pop_front();
    ++dropped_door_events_;
  }
  door_events_.push_back(DoorEventRecord{index_of(a), a.generation, a.door_cell, nav.tick()});
  ++a.door_events;
  a.door_announced = true;
}

std::size_t AgentSystem::take_door_events(DoorEventRecord* out, std::size_t capacity) {
  const std::size_t n = std::min(capacity, door_events_.size());
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = door_events_.front();
    door_events_.pop_front();
  }
  return n;
}

void AgentSystem::clear_door_hold(AgentRecord& a, bool end_approach) {
  a.door_waiting = false;
  a.door_hold_ticks = 0;
  if (end_approach) a.door_announced = false;
}

bool AgentSystem::hold_at_door(NavWorld& nav, AgentRecord& a, const Waypoint& door,
                               const Waypoint& front, double dt, DriveInput& in) {
  const AgentMotion& m = motions_[a.motion];
  const Vec3& p = a.body.feet;
  // Walk to the front point (the centre of the corridor cell before the door, one cell from the
  // door's centre) and stand there.
  const double off = m.foot_offset;  // waypoints are foot-cell feet; the body centre is offset
  const double fx = front.position.x + off - p.x, fz = front.position.z + off - p.z;
  const double fd = std::sqrt(fx * fx + fz * fz);
  if (fd > 1e-9) {
    const double speed = std::min(m.walk_speed, fd / dt);
    in.move_x = fx / fd * speed;
    in.move_z = fz / fd * speed;
  }
  const double gx = door.position.x + off - p.x, gz = door.position.z + off - p.z;
  if (std::sqrt(gx * gx + gz * gz) > 1.0 + 0.5 * m.body.width) return true;  // still approaching
  if (!a.door_waiting || !(a.door_cell == door.cell)) {
    const bool announced = a.door_announced && a.door_cell == door.cell;
    a.door_waiting = true;
    a.door_hold_ticks = 0;
    a.door_cell = door.cell;
    if (!announced) raise_door_event(nav, a);
  }
  // Holding: the stuck watch is rebased every tick, so a long hold never reads as no progress.
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  if (++a.door_hold_ticks < kDoorHoldTicks) return true;
  // The door stayed shut: avoid it for a while and plan again. A door that was avoided already
  // when this corridor was planned has no way around it: the agent is Blocked (it retries later,
  // or at once when an edit lands near it, e.g. the door opening).
  const std::uint64_t now = nav.tick();
  bool already = false;
  bool listed = false;
  for (AvoidedDoor& v : a.avoid)
    if (v.cell == door.cell) {
      already = v.until > now;
      v.until = now + kDoorAvoidTicks;
      listed = true;
    }
  if (!listed) a.avoid.push_back(AvoidedDoor{door.cell, now + kDoorAvoidTicks});
  ++a.door_timeouts;
  const int held = a.door_hold_ticks;
  clear_door_hold(a, false);
  in = DriveInput{};
  if (already) {
    clear_door_hold(a, true);
    a.mode = AgentMode::Blocked;
    a.crowded = false;
    a.blocked_ticks = 0;
    const CellPos& c = door.cell;
    a.reason = "closed door at (" + std::to_string(c.x) + "," + std::to_string(c.y) + "," +
               std::to_string(c.z) + ") stayed shut for " + std::to_string(held) +
               " ticks, and no route around it avoids it";
    reindex(a);
  } else {
    ++a.replans;
    plan(nav, a);
  }
  return false;
}

void AgentSystem::end_of_partial(AgentRecord& a) {
  // The end of a route that stopped short of the goal: plan again from here at the next step
  // (the chunks around the agent have been built meanwhile).
  a.partial = false;
  a.mode = AgentMode::Planning;
  a.replan = true;
  ++a.replans;
  clear_door_hold(a, true);
  reindex(a);
}

void AgentSystem::waypoint_reached(AgentRecord& a, const CellPos& cell) {
  // Progress, unless it is the cell the last stuck replan started from (the new corridor's first
  // waypoint): an agent replanning the same failing move ends Blocked, not Moving for ever.
  if (a.stalled && cell == a.stall_cell) return;
  a.stalled = false;
  a.replans_in_row = 0;
  a.crowd_rests = 0;
}

bool AgentSystem::pinned_by_crowd(AgentRecord& a, const Waypoint& w, double tx, double tz) {
  const std::uint32_t other = steer_.in_the_way(index_of(a), tx, tz, kCrowdPinMargin);
  if (other == AgentGrid::kNone) return false;
  a.mode = AgentMode::Blocked;
  a.crowded = true;
  a.blocked_ticks = 0;
  ++a.crowd_rests;
  ++a.crowd_rests_total;
  clear_door_hold(a, true);
  const CellPos& c = w.cell;
  a.reason = "pinned by its crowd: agent " + std::to_string(other) +
             " stands in its way to waypoint " + std::to_string(a.next) + " at cell (" +
             std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) +
             "); rests " + std::to_string(kCrowdRestTicks) + " ticks and walks on";
  reindex(a);
  return true;
}

void AgentSystem::resume_after_rest(AgentRecord& a) {
  a.crowded = false;
  a.blocked_ticks = 0;
  a.reason.clear();
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  a.mode = a.next < a.corridor.points.size() ? AgentMode::Moving : AgentMode::Planning;
  a.replan = a.mode == AgentMode::Planning;
  reindex(a);
}

void AgentSystem::replan_or_block(NavWorld& nav, AgentRecord& a) {
  a.crowd_rests = 0;  // a new round: pinned again, it rests again
  a.stall_cell = current_cell(nav.grid(), a);
  a.stalled = true;
  if (++a.replans_in_row > kMaxReplansInRow) {
    a.mode = AgentMode::Blocked;
    a.crowded = false;
    a.blocked_ticks = 0;
    clear_door_hold(a, true);
    const CellPos c = current_cell(nav.grid(), a);
    a.reason = "no progress toward waypoint " + std::to_string(a.next) + " at cell (" +
               std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) +
               ") after " + std::to_string(kMaxReplansInRow) + " replans";
    reindex(a);
  } else {
    ++a.replans;
    plan(nav, a);
  }
}

void AgentSystem::swim_drive(NavWorld& nav, AgentRecord& a, double dt, DriveInput& in) {
  const AgentMotion& m = motions_[a.motion];
  const Vec3& p = a.body.feet;
  // A swimmer's corridor has a waypoint on every cell of its path (Swim edges are not pulled):
  // one cell level or diagonal (both cardinal cells water), or one straight up or down. Driving
  // from point to point therefore keeps the body inside the water cells of the moves. It steers
  // toward the next waypoint and rises or dives toward its depth (the feet's height: a waypoint's
  // cell is water up to its top, so the body never rises out of the water), slowing down to land
  // on points where the path turns.
  for (;;) {
    const Waypoint& w = a.corridor.points[a.next];
    const bool last = a.next + 1 == a.corridor.points.size();
    const double dx = w.position.x - p.x, dy = w.position.y - p.y, dz = w.position.z - p.z;
    const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    double pass = kSwimOnPoint;
    if (last) {
      pass = std::max(0.25, m.arrive_radius);
    } else if (a.next > 0) {
      const CellPos& c0 = a.corridor.points[a.next - 1].cell;
      const CellPos& c2 = a.corridor.points[a.next + 1].cell;
      const CellPos& c1 = w.cell;
      if (c1.x - c0.x == c2.x - c1.x && c1.y - c0.y == c2.y - c1.y && c1.z - c0.z == c2.z - c1.z)
        pass = kSwimStraightPass;
    }
    if (d <= pass) {
      if (last) {
        if (a.partial || a.intent == AgentIntent::Chase) {
          end_of_partial(a);
          return;
        }
        a.mode = AgentMode::Arrived;
        ++a.arrivals;
        a.replans_in_row = 0;
        reindex(a);
        return;
      }
      ++a.next;
      a.best_dist = 1e30;
      a.ticks_without_progress = 0;
      waypoint_reached(a, w.cell);
      continue;
    }
    const double speed = std::min(m.swim_speed, d / dt);
    in.move_x = dx / d * speed;
    in.move_z = dz / d * speed;
    in.vertical = dy / d * speed;
    // Stuck watch: the distance to the waypoint must shrink. A swimmer's only recovery is to plan
    // again, when a walker's recovery would (backing off or sidestepping could take it out of
    // the water).
    if (d + 0.05 < a.best_dist) {
      a.best_dist = d;
      a.ticks_without_progress = 0;
    } else if (++a.ticks_without_progress > kStuckTicks + 30) {
      replan_or_block(nav, a);
    }
    return;
  }
}

void AgentSystem::follow(NavWorld& nav, const Space& space, AgentRecord& a, double dt,
                         int ticks) {
  if (a.control.locked || a.control.knock_pending) {  // knockback (control.cpp)
    knocked_step(nav, space, a, dt);
    return;
  }
  const AgentMotion& m = motions_[a.motion];
  DriveInput in;
  const bool following = a.mode == AgentMode::Moving && a.next < a.corridor.points.size();
  if (following) {
    // Progress along the cell path (for validation after edits): the nearest cell ahead.
    const CellPos here = current_cell(nav.grid(), a);
    for (std::size_t i = a.cell_index; i < a.corridor.cells.size(); ++i)
      if (a.corridor.cells[i] == here) {
        a.cell_index = i;
        break;
      }
  }
  if (following && a.chase_direct) {
    chase_drive(a, dt, in);  // straight at the target (intents.cpp)
  } else if (m.swims) {
    if (following) swim_drive(nav, a, dt, in);
  } else if (following) {
    const Vec3& p = a.body.feet;
    const bool climbing = a.body.mode == BodyMode::Climb;
    for (;;) {
      const Waypoint& w = a.corridor.points[a.next];
      const Waypoint* prev = a.next > 0 ? &a.corridor.points[a.next - 1] : nullptr;
      // Waypoints are foot-cell feet: the body centre steers to waypoint + foot_offset.
      const double dx = w.position.x + m.foot_offset - p.x, dz = w.position.z + m.foot_offset - p.z,
                   dy = w.position.y - p.y;
      const double d = std::sqrt(dx * dx + dz * dz);
      const bool last = a.next + 1 == a.corridor.points.size();
      const double radius = last ? std::max(0.25, m.arrive_radius) : 0.35;
      // A Climb edge: up or down a ladder (vdir), onto or off a ledge (ledge), or level into or
      // out of a climbable cell (vdir 0).
      const bool climb = w.kind == EdgeKind::Climb && m.body.climb_speed > 0.0;
      const int vdir = !climb || !prev ? 0 : (w.cell.y > prev->cell.y) - (w.cell.y < prev->cell.y);
      const bool ledge =
          climb && prev && vdir != 0 && (w.cell.x != prev->cell.x || w.cell.z != prev->cell.z);
      bool reached;
      if (climb) {
        // Up: the feet reached the waypoint's height; down: came down to it (within 0.05 cell).
        const bool height = vdir > 0 ? dy <= 0.05 : vdir < 0 ? dy >= -0.05 : std::fabs(dy) < 0.5;
        reached = d <= radius && height && (!last || a.body.on_ground || climbing);
      } else {
        reached = d <= radius && dy < 0.7 && dy > -1.0 && (a.body.on_ground || last);
      }
      if (reached) {
        if (last && a.intent == AgentIntent::Chase) {  // (the target not in range)
          chase_corridor_end(a);
          break;
        }
        if (last && a.partial) {
          end_of_partial(a);
          break;
        }
        if (last) {
          a.mode = AgentMode::Arrived;
          ++a.arrivals;
          a.replans_in_row = 0;
          clear_door_hold(a, true);
          reindex(a);
          break;
        }
        ++a.next;
        a.best_dist = 1e30;
        a.ticks_without_progress = 0;
        waypoint_reached(a, w.cell);
        continue;
      }
      // Where the stuck watch measures progress to: the waypoint, or the point before a door.
      double tx = dx, tz = dz, td = d, progress = d;
      if (w.kind == EdgeKind::Door && prev && nav.grid().kind(w.cell) == CellKind::DoorClosed) {
        // A closed door next: stop in front of it, raise DoorAhead once and hold until layer 0
        // shows it open; after kDoorHoldTicks avoid it and plan again.
        if (!hold_at_door(nav, a, w, *prev, dt, in)) break;
        if (a.door_waiting) break;
        tx = prev->position.x + m.foot_offset - p.x;
        tz = prev->position.z + m.foot_offset - p.z;
        td = std::sqrt(tx * tx + tz * tz);
        progress = td;
      } else {
        if (a.door_waiting || a.door_announced) clear_door_hold(a, true);  // opened, or passed
        // Drive toward the waypoint; slow down to land on it rather than overshoot.
        bool horizontal = true;
        if (climb) {
          if (vdir > 0) {
            // Up the ladder; onto a ledge: straight up until the feet clear its lip, then over it
            // (holding on while the body still overlaps the ladder).
            in.climb = ClimbIntent::Up;
            // From the ground below the lowest rung: jump to get the feet onto it.
            if (!ledge && !climbing && a.body.on_ground && d < 0.3) in.jump = true;
            if (ledge) {
              // Cleared: above the lip by the clearance, or level with it and off the ladder (a
              // ladder ending at the lip leaves the body standing on the ledge's edge).
              const bool cleared = p.y >= w.position.y + kLedgeClearance ||
                                   (p.y >= w.position.y - 1e-3 && (a.body.on_ground || !climbing));
              in.climb = cleared ? ClimbIntent::Hold : ClimbIntent::Up;
              horizontal = cleared;
            }
          } else if (vdir < 0) {
            // Down the ladder; off a ledge onto it: over the column first, holding on.
            in.climb = ledge && d > 0.15 ? ClimbIntent::Hold : ClimbIntent::Down;
          } else {
            in.climb = ClimbIntent::Hold;  // level into or out of a climbable cell
          }
          progress = d + std::fabs(dy);
        } else if (climbing) {
          // Still on a ladder heading for a walk, step or drop: climb toward its height rather
          // than slide (or climb by pressing into a wall).
          in.climb = dy > 0.05    ? ClimbIntent::Up
                     : dy < -0.05 ? ClimbIntent::Down
                                  : ClimbIntent::Hold;
        }
        if (horizontal && d > 1e-9) {
          double cruise = a.control.sprint ? m.control.sprint_speed : m.walk_speed;
          if (w.kind == EdgeKind::GapJump)  // run the gap at the speed that lands on the centre
            cruise = gap_run_speed(gap_cells_to(prev, w) + 1, m.walk_speed, m.control.sprint_speed,
                                   m.body.jump_velocity, m.body.gravity);
          const double speed = std::min(cruise, d / dt);
          in.move_x = dx / d * speed;
          in.move_z = dz / d * speed;
        }
        // (a StepUp rising more than a step climbs treads, a stair from its low side: the movement
        // step lifts the body tread by tread, and a jump is only the stuck body's way out)
        if (a.body.on_ground && dy > m.body.step_height + 1e-3 &&
            ((w.kind == EdgeKind::Jump && (d < 1.3 || a.last_hit_wall)) ||
             (w.kind == EdgeKind::StepUp && a.last_hit_wall)))
          in.jump = true;
        // A gap jump: take off a quarter cell past the take-off cell's centre, before its edge
        // (the flight covers the gap at walking speed, CompiledProfile::gap_reach; the approach
        // above slows the body onto the landing point).
        if (w.kind == EdgeKind::GapJump && a.body.on_ground) {
          const double reach = gap_cells_to(prev, w) + 1;
          if (d < reach - kGapTakeOff && d > reach - 1.4) in.jump = true;
        }
      }
      // Stuck watch: the distance to the target must shrink.
      if (progress + 0.05 < a.best_dist) {
        a.best_dist = progress;
        a.ticks_without_progress = 0;
      } else if ((a.ticks_without_progress += ticks) > kStuckTicks &&
                 a.ticks_without_progress - ticks <= kStuckTicks &&
                 a.crowd_rests < kMaxCrowdRestsInRow &&
                 pinned_by_crowd(a, w, tx, tz)) {
        in = DriveInput{};  // rests from this tick (Blocked, crowded)
      } else if (a.ticks_without_progress > kStuckTicks) {
        // Recovery, in phases of 10 ticks: jump at a wall, back off, sidestep (left or right by
        // the replan count), then plan again from where the body is; after kMaxReplansInRow
        // rounds without reaching a waypoint the agent is Blocked (it retries later, see step()).
        const int phase = (a.ticks_without_progress - kStuckTicks - 1) / 10;
        if (phase == 0 && a.body.on_ground && a.last_hit_wall) in.jump = true;
        if (td > 1e-9 && phase == 1) {
          in.move_x = -tx / td * m.walk_speed * 0.5;
          in.move_z = -tz / td * m.walk_speed * 0.5;
        } else if (td > 1e-9 && phase == 2) {
          const double side = (a.replans_in_row % 2) ? 1.0 : -1.0;
          in.move_x = -tz / td * m.walk_speed * 0.5 * side;
          in.move_z = tx / td * m.walk_speed * 0.5 * side;
        }
        if (phase >= 3) replan_or_block(nav, a);
      }
      break;
    }
  }
  // The facing turns toward the corridor's drive (a body without strafe stands and turns when it
  // is far off), then ORCA changes the velocity the body takes: an avoiding sidestep needs no
  // turn, and ORCA's reciprocity holds only when each body takes the velocity it chose.
  shape_drive(a.control, m.control, a.body, m.swims, a.ticks_without_progress > kStuckTicks, dt,
              in);  // facing, strafe (facing.h)
  steer_.avoid(index_of(a), a, m, nav, space, dt, in);  // ORCA among agents (engine/steer)
  const IntegrateReport r = integrate_character_tick(a.body, in, Vec3{}, m.body, space, dt);
  a.last_hit_wall = r.hit_wall != 0;
}

}  // namespace voxnav::detail
