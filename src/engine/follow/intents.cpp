// AgentSystem's intents beyond a goal cell (docs/agents.md#goals-and-intents): host entities, a
// chase of a moving target (another agent or an entity), a flee from a point, and a path the host
// requested. Kept apart from agents.cpp (the follower), which calls chase_step and chase_drive.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/corridor/corridor.h"
#include "engine/follow/agents.h"
#include "engine/query/line_walk.h"

namespace voxnav::detail {

std::uint32_t AgentSystem::add_entity(const Vec3& position, std::uint32_t* generation) {
  std::uint32_t idx;
  if (!entity_free_.empty()) {
    idx = entity_free_.back();
    entity_free_.pop_back();
  } else {
    idx = static_cast<std::uint32_t>(entities_.size());
    entities_.emplace_back();
    entities_.back().generation = next_generation(0, id_tag_);
  }
  EntityRecord& e = entities_[idx];
  e.alive = true;
  e.position = position;
  *generation = e.generation;
  return idx;
}

EntityRecord* AgentSystem::entity(std::uint32_t index, std::uint32_t generation) {
  if (index >= entities_.size()) return nullptr;
  EntityRecord& e = entities_[index];
  return e.alive && e.generation == generation ? &e : nullptr;
}

bool AgentSystem::remove_entity(std::uint32_t index, std::uint32_t generation) {
  EntityRecord* e = entity(index, generation);
  if (!e) return false;
  e->alive = false;
  e->generation = next_generation(e->generation, id_tag_);
  entity_free_.push_back(index);
  return true;
}

bool AgentSystem::chase_target(const AgentRecord& a, Vec3& position, CellPos& cell) const {
  if (a.chase_entity) {
    const EntityRecord* e = entity(a.target_index, a.target_generation);
    if (!e) return false;
    position = e->position;
  } else {
    if (a.target_index >= agents_.size()) return false;
    const AgentRecord& t = agents_[a.target_index];
    if (!t.alive || t.generation != a.target_generation) return false;
    position = t.body.feet;
    if (motions_[t.motion].nav_slot == motions_[a.motion].nav_slot) {
      // The cell it stands in, or last stood in while in the air (a search's goal must be one).
      cell = t.last_cell;
      return true;
    }
  }
  // The cell the chaser's own class would stand in there (a foot cell for walker_large).
  cell = foot_cell(position, motions_[a.motion].foot_offset);
  return true;
}

bool AgentSystem::set_chase(NavWorld& nav, AgentId id, bool entity, std::uint32_t index,
                            std::uint32_t generation, double range) {
  AgentRecord* a = get(id);
  if (!a) return false;
  start_order(*a, a->goal, kChaseGoalRange);
  a->flow_generation = 0;
  clear_door_hold(*a, true);
  a->intent = AgentIntent::Chase;
  a->chase_entity = entity;
  a->target_index = index;
  a->target_generation = generation;
  a->chase_range = range;
  plan(nav, *a);  // toward the target's cell now (issue_request)
  return true;
}

bool AgentSystem::set_flee(NavWorld& nav, AgentId id, CellPos from, int distance) {
  AgentRecord* a = get(id);
  if (!a) return false;
  start_order(*a, a->goal, 0);
  a->flow_generation = 0;
  clear_door_hold(*a, true);
  a->intent = AgentIntent::Flee;
  a->flee_from = from;
  a->flee_distance = distance;
  plan(nav, *a);
  return true;
}

bool AgentSystem::set_path(NavWorld& nav, AgentId id, const Corridor& c, std::size_t at,
                           CellPos goal, int goal_range, bool partial) {
  AgentRecord* a = get(id);
  if (!a || at >= c.cells.size()) return false;
  start_order(*a, goal, goal_range);
  a->flow_generation = 0;
  clear_door_hold(*a, true);
  a->intent = AgentIntent::Path;
  if (a->request.generation) (void)nav.release(a->request);
  a->request = PathHandle{};
  a->replan = false;
  // The path from the agent's cell on, pulled again from there (the host's waypoints were pulled
  // from the path's start, which the agent may have left).
  a->corridor.cells.assign(c.cells.begin() + static_cast<std::ptrdiff_t>(at), c.cells.end());
  a->corridor.kinds.assign(c.kinds.begin() + static_cast<std::ptrdiff_t>(at), c.kinds.end());
  a->corridor.kinds[0] = EdgeKind::Start;
  string_pull(nav.grid(), a->corridor.cells, a->corridor.kinds, a->corridor.points,
              motions_[a->motion].costs.surface.get());
  a->corridor.epoch = ++corridor_epoch_;
  a->partial = partial;
  a->corridor_repeats = false;
  a->fall_ticks = 0;
  a->placed = false;
  a->next = first_waypoint(*a);
  a->cell_index = 0;
  a->best_dist = 1e30;
  a->ticks_without_progress = 0;
  a->mode = AgentMode::Moving;
  reindex(*a);
  return true;
}

void AgentSystem::lose_target(NavWorld& nav, AgentRecord& a) {
  if (a.request.generation) (void)nav.release(a.request);
  a.request = PathHandle{};
  a.replan = false;
  a.chase_direct = false;
  a.partial = false;
  clear_door_hold(a, true);
  a.corridor.points.clear();
  a.corridor.cells.clear();
  a.corridor.kinds.clear();
  a.corridor.epoch = ++corridor_epoch_;
  a.next = 0;
  a.cell_index = 0;
  a.mode = AgentMode::Failed;
  a.crowded = false;
  a.fail = PathFailure::None;
  a.reason = std::string("chase target ") + (a.chase_entity ? "entity" : "agent") + " in slot " +
             std::to_string(a.target_index) + " is gone (removed): the chase stopped";
  reindex(a);
}

void AgentSystem::chase_step(NavWorld& nav, AgentRecord& a) {
  if (a.mode == AgentMode::Failed || a.mode == AgentMode::Idle) return;
  if (a.control.locked || a.control.knock_pending) return;  // it flies first (knocked_step)
  if (a.mode == AgentMode::Blocked && a.fail == PathFailure::Embedded) return;
  Vec3 p;
  CellPos tc;
  if (!chase_target(a, p, tc)) {
    lose_target(nav, a);
    return;
  }
  const Vec3& f = a.body.feet;
  const double dx = p.x - f.x, dy = p.y - f.y, dz = p.z - f.z;
  if (dx * dx + dy * dy + dz * dz <= a.chase_range * a.chase_range) {
    // Caught: it stands (and chases again once the target is out of range).
    if (a.mode != AgentMode::Arrived) {
      a.chase_no_closer = false;
      if (a.request.generation) (void)nav.release(a.request);
      a.request = PathHandle{};
      a.replan = false;
      a.chase_direct = false;
      clear_door_hold(a, true);
      a.mode = AgentMode::Arrived;
      ++a.arrivals;
      a.replans_in_row = 0;
      a.crowded = false;
      a.fail = PathFailure::None;
      a.reason.clear();
      reindex(a);
    }
    return;
  }
  if (a.mode == AgentMode::Blocked && a.chase_no_closer) {
    if (tc != a.goal) plan(nav, a);  // it moved: perhaps somewhere nearer to reach
    return;
  }
  const AgentMotion& m = motions_[a.motion];
  const NavGrid& grid = nav.grid();
  const CellPos here = current_cell(grid, a);
  const bool near = !m.swims && a.body.on_ground && a.body.mode == BodyMode::Walk &&
                    std::abs(tc.x - here.x) <= kChaseDirectCells &&
                    std::abs(tc.z - here.z) <= kChaseDirectCells &&
                    std::abs(tc.y - here.y) <= kChaseDirectCells;
  // (Straight only to a cell it can stand in: an entity in the air or in a block is searched
  // for, the search taking any node next to it.)
  if (near && grid.node(tc) &&
      line_walkable_cells(grid, m.costs, here, tc, m.walk_speed, m.body.gravity)) {
    // Straight at it: no search. The corridor shows the line (from where the agent stood when
    // the target's cell last changed to that cell); the drive aims at the target itself.
    if (a.request.generation) (void)nav.release(a.request);
    a.request = PathHandle{};
    a.replan = false;
    const bool same = a.chase_direct && a.mode == AgentMode::Moving &&
                      a.corridor.cells.size() == 2 && a.corridor.cells.back() == tc;
    if (!same)
      install_direct_chase(a, waypoint_of(grid, here, EdgeKind::Start),
                           waypoint_of(grid, tc, EdgeKind::Walk));
    a.best_dist = 1e30;  // no stuck watch on a target that walks away
    a.ticks_without_progress = 0;
    return;
  }
  if (a.chase_direct) {
    // The straight line ended (too far, or not walkable): search toward the target, walking
    // straight at it until the corridor comes (install ends the direct walk).
    if (!a.request.generation) {
      ++a.replans;
      issue_request(nav, a);
    }
    return;
  }
  if (a.mode == AgentMode::Arrived) {  // it got away
    plan(nav, a);
    return;
  }
  if (a.mode == AgentMode::Moving && !a.request.generation && !a.corridor.cells.empty()) {
    const CellPos& e = a.corridor.cells.back();
    if (std::abs(tc.x - e.x) > kChaseReplanCells || std::abs(tc.y - e.y) > kChaseReplanCells ||
        std::abs(tc.z - e.z) > kChaseReplanCells) {
      // The target left the corridor's end: search toward where it is while walking on.
      ++a.replans;
      issue_request(nav, a);
    }
  }
}

void AgentSystem::chase_corridor_end(AgentRecord& a) {
  Vec3 p;
  CellPos tc;
  if (a.partial || !chase_target(a, p, tc) || tc != a.goal) {
    end_of_partial(a);  // it moved (or the route stopped short): search again from here
    return;
  }
  // The search's goal is where the target still is, and its corridor ends here: searching again
  // gives the same corridor. Held Blocked (retried every kBlockedRetryTicks, and at once when the
  // target's cell changes) instead of replanning every step.
  const Vec3& f = a.body.feet;
  const double d = std::sqrt((p.x - f.x) * (p.x - f.x) + (p.y - f.y) * (p.y - f.y) +
                             (p.z - f.z) * (p.z - f.z));
  a.partial = false;
  a.mode = AgentMode::Blocked;
  a.chase_no_closer = true;
  a.blocked_ticks = 0;
  a.crowded = false;
  a.fail = PathFailure::None;
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "can get no closer to its chase target: %.2f m away at the end of a corridor to "
                "the target's cell (%d,%d,%d), range %.2f m",
                d, tc.x, tc.y, tc.z, a.chase_range);
  a.reason = buf;
  clear_door_hold(a, true);
  reindex(a);
}

void AgentSystem::chase_drive(AgentRecord& a, double dt, DriveInput& in) {
  Vec3 p;
  CellPos c;
  if (!chase_target(a, p, c)) return;
  const AgentMotion& m = motions_[a.motion];
  const double dx = p.x - a.body.feet.x, dz = p.z - a.body.feet.z;
  const double d = std::sqrt(dx * dx + dz * dz);
  if (!(d > 1e-9)) return;
  const double cruise = a.control.sprint ? m.control.sprint_speed : m.walk_speed;
  const double speed = std::min(cruise, d / dt);
  in.move_x = dx / d * speed;
  in.move_z = dz / d * speed;
}

}  // namespace voxnav::detail
