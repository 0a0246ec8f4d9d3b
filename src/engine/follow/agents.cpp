#include "engine/follow/agents.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace voxnav::detail {

const char* agent_mode_name(AgentMode m) {
  switch (m) {
    case AgentMode::Idle: return "idle";
    case AgentMode::Planning: return "planning";
    case AgentMode::Moving: return "moving";
    case AgentMode::Arrived: return "arrived";
    case AgentMode::Failed: return "failed";
    case AgentMode::Stuck: return "stuck";
  }
  return "?";
}

AgentSlot AgentSystem::add(std::uint32_t motion, const MotionVec3& feet) {
  std::uint32_t idx;
  if (!free_.empty()) {
    idx = free_.back();
    free_.pop_back();
  } else {
    idx = static_cast<std::uint32_t>(agents_.size());
    agents_.emplace_back();
  }
  AgentRecord& a = agents_[idx];
  const std::uint32_t gen = a.generation;
  a = AgentRecord{};
  a.generation = gen;
  a.alive = true;
  a.motion = motion;
  a.body.position = feet;
  a.last_cell = Cell{static_cast<std::int32_t>(std::floor(feet.x)),
                     static_cast<std::int32_t>(std::floor(feet.y + 1e-3)),
                     static_cast<std::int32_t>(std::floor(feet.z))};
  return AgentSlot{idx, gen};
}

AgentRecord* AgentSystem::get(AgentSlot id) {
  if (id.index >= agents_.size()) return nullptr;
  AgentRecord& a = agents_[id.index];
  return a.alive && a.generation == id.generation ? &a : nullptr;
}
const AgentRecord* AgentSystem::get(AgentSlot id) const {
  return const_cast<AgentSystem*>(this)->get(id);
}

bool AgentSystem::remove(NavWorld& nav, AgentSlot id) {
  AgentRecord* a = get(id);
  if (!a) return false;
  if (a->request.generation) (void)nav.release(a->request);
  a->alive = false;
  if (++a->generation == 0) a->generation = 1;
  free_.push_back(id.index);
  return true;
}

bool AgentSystem::set_goal(NavWorld& nav, AgentSlot id, Cell goal, int range) {
  AgentRecord* a = get(id);
  if (!a) return false;
  a->goal = goal;
  a->goal_range = range;
  a->has_goal = true;
  a->replans_in_row = 0;
  a->reason.clear();
  a->fail = FailReason::None;
  plan(nav, *a);
  return true;
}

bool AgentSystem::teleport(AgentSlot id, const MotionVec3& feet) {
  AgentRecord* a = get(id);
  if (!a) return false;
  a->body = CharacterState{};
  a->body.position = feet;
  a->corridor.epoch = ++corridor_epoch_;
  if (a->mode == AgentMode::Moving) a->mode = AgentMode::Planning, a->next = 0;
  return true;
}

Cell AgentSystem::current_cell(const NavGrid& grid, AgentRecord& a) const {
  const MotionVec3& p = a.body.position;
  Cell c{static_cast<std::int32_t>(std::floor(p.x)), static_cast<std::int32_t>(std::floor(p.y + 1e-3)),
         static_cast<std::int32_t>(std::floor(p.z))};
  if (grid.standable(c)) {
    a.last_cell = c;
    return c;
  }
  const Cell below{c.x, c.y - 1, c.z};
  if (a.body.on_ground && grid.standable(below)) {
    a.last_cell = below;
    return below;
  }
  return a.last_cell;
}

void AgentSystem::plan(NavWorld& nav, AgentRecord& a) {
  if (a.request.generation) (void)nav.release(a.request);
  const AgentMotion& m = motions_[a.motion];
  RequestSpec spec;
  spec.start = current_cell(nav.grid(), a);
  spec.goal = a.goal;
  spec.goal_range = a.goal_range;
  spec.max_nodes = m.max_nodes;
  spec.max_distance = m.max_distance;
  spec.costs = m.costs;
  a.request = nav.request(spec);
  ++a.requests;
  a.mode = AgentMode::Planning;
}

void AgentSystem::install(NavWorld& nav, AgentRecord& a) {
  FailReason why = FailReason::None;
  const RequestState st = nav.state(a.request, &why);
  if (st == RequestState::Queued || st == RequestState::Searching) return;
  if (st == RequestState::Failed || st == RequestState::Free) {
    a.mode = AgentMode::Failed;
    a.fail = why;
    a.reason = std::string("request failed: ") + fail_reason_name(why);
    (void)nav.release(a.request);
    a.request = Handle{};
    return;
  }
  const RequestSlot* s = nav.slot(a.request);
  a.corridor = s->corridor;
  const bool stale = s->layers_version != nav.layers_version();
  (void)nav.release(a.request);
  a.request = Handle{};
  if (stale && !path_still_valid(nav.grid(), a.corridor.cells, a.corridor.kinds, 0)) {
    ++a.replans;
    plan(nav, a);
    return;
  }
  a.corridor.epoch = ++corridor_epoch_;
  a.next = a.corridor.points.size() > 1 ? 1 : 0;
  a.cell_index = 0;
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  a.mode = AgentMode::Moving;
}

namespace {
bool boxes_touch_path(const std::vector<Change>& changes, const std::vector<Cell>& cells, std::size_t from) {
  for (const Change& ch : changes) {
    // A cell's moves depend on cells one column around it, one up and a few down.
    const int x0 = ch.min.x - 1, x1 = ch.max.x + 1, z0 = ch.min.z - 1, z1 = ch.max.z + 1;
    const int y0 = ch.min.y - 5, y1 = ch.max.y + 8;
    for (std::size_t i = from; i < cells.size(); ++i) {
      const Cell& c = cells[i];
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

void AgentSystem::step(NavWorld& nav, const Space& space, double dt) {
  const std::vector<Change>& changes = nav.unconsumed_changes();
  // Wall time of the edit handling below (statistics only: never part of a decision).
  const auto t_edits = std::chrono::steady_clock::now();
  double follow_us = 0;
  for (AgentRecord& a : agents_) {
    if (!a.alive) continue;
    if (a.mode == AgentMode::Planning) install(nav, a);
    if (a.mode == AgentMode::Moving && !changes.empty()) {
      if (boxes_touch_path(changes, a.corridor.cells, a.cell_index) &&
          !path_still_valid(nav.grid(), a.corridor.cells, a.corridor.kinds, a.cell_index)) {
        ++a.replans;
        plan(nav, a);
      } else if (segment_broken(nav.grid(), changes, a.corridor, a.next)) {
        // The path's cells still connect, but a straight stretch now clips the edit: pull the
        // corridor again from the path cells ahead.
        const std::vector<Cell> cells(a.corridor.cells.begin() + static_cast<std::ptrdiff_t>(a.cell_index),
                                      a.corridor.cells.end());
        std::vector<EdgeKind> kinds(a.corridor.kinds.begin() + static_cast<std::ptrdiff_t>(a.cell_index),
                                    a.corridor.kinds.end());
        if (!kinds.empty()) kinds[0] = EdgeKind::Start;
        a.corridor.cells = cells;
        a.corridor.kinds = kinds;
        string_pull(nav.grid(), a.corridor.cells, a.corridor.kinds, a.corridor.points);
        a.cell_index = 0;
        a.next = a.corridor.points.size() > 1 ? 1 : 0;
        a.best_dist = 1e30;
        a.ticks_without_progress = 0;
        a.corridor.epoch = ++corridor_epoch_;
      }
    }
    if (changes.empty()) {
      follow(nav, space, a, dt);
    } else {
      const auto t0 = std::chrono::steady_clock::now();
      follow(nav, space, a, dt);
      follow_us += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    }
  }
  last_edit_check_us_ =
      changes.empty() ? 0.0
                      : std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t_edits).count() -
                            follow_us;
  nav.consume_changes();
}

void AgentSystem::follow(NavWorld& nav, const Space& space, AgentRecord& a, double dt) {
  const AgentMotion& m = motions_[a.motion];
  DriveInput in;
  if (a.mode == AgentMode::Moving && a.next < a.corridor.points.size()) {
    const MotionVec3& p = a.body.position;
    // Progress along the cell path (for validation after edits): the nearest cell ahead.
    const Cell here = current_cell(nav.grid(), a);
    for (std::size_t i = a.cell_index; i < a.corridor.cells.size(); ++i)
      if (a.corridor.cells[i] == here) {
        a.cell_index = i;
        break;
      }
    for (;;) {
      const Waypoint& w = a.corridor.points[a.next];
      const double dx = w.x - p.x, dz = w.z - p.z, dy = w.y - p.y;
      const double d = std::sqrt(dx * dx + dz * dz);
      const bool last = a.next + 1 == a.corridor.points.size();
      const double radius = last ? std::max(0.25, m.arrive_radius) : 0.35;
      if (d <= radius && dy < 0.7 && dy > -1.0 && (a.body.on_ground || last)) {
        if (last) {
          a.mode = AgentMode::Arrived;
          ++a.arrivals;
          a.replans_in_row = 0;
          break;
        }
        ++a.next;
        a.best_dist = 1e30;
        a.ticks_without_progress = 0;
        a.replans_in_row = 0;
        continue;
      }
      // Drive toward the waypoint; slow down to land on it rather than overshoot.
      const double speed = std::min(m.walk_speed, d / dt);
      if (d > 1e-9) {
        in.move_x = dx / d * speed;
        in.move_z = dz / d * speed;
      }
      const double rise = dy;
      if (a.body.on_ground && rise > m.body.step_height + 1e-3 &&
          (w.kind == EdgeKind::Jump || w.kind == EdgeKind::StepUp) && (d < 1.3 || a.last_hit_wall))
        in.jump = true;
      // Stuck watch: distance to the waypoint must shrink.
      if (d + 0.05 < a.best_dist) {
        a.best_dist = d;
        a.ticks_without_progress = 0;
      } else if (++a.ticks_without_progress > kStuckTicks) {
        if (a.body.on_ground && a.last_hit_wall) in.jump = true;
        if (a.ticks_without_progress > kStuckTicks + 10) {
          if (++a.replans_in_row > kMaxReplansInRow) {
            a.mode = AgentMode::Stuck;
            const Cell c = current_cell(nav.grid(), a);
            a.reason = "no progress toward waypoint " + std::to_string(a.next) + " at cell (" +
                       std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) +
                       ") after " + std::to_string(kMaxReplansInRow) + " replans";
          } else {
            ++a.replans;
            plan(nav, a);
          }
        }
      }
      break;
    }
  }
  const IntegrateReport r = integrate_character_tick(a.body, in, MotionVec3{}, m.body, space, dt);
  a.last_hit_wall = r.hit_wall != 0;
}

}  // namespace voxnav::detail
