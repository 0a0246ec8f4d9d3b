// AgentSystem's control calls: stop, knock (and the step under a knock), facing, sprint, and the
// presentation queries (distance to stop, lookahead). Kept apart from agents.cpp (the follower).
#include <algorithm>
#include <cmath>
#include <cstddef>

#include "engine/corridor/corridor.h"
#include "engine/follow/agents.h"
#include "engine/flight/flyer_nav.h"

namespace voxnav::detail {

bool AgentSystem::stop(NavWorld& nav, AgentId id) {
  AgentRecord* a = get(id);
  if (!a) return false;
  if (a->request.generation) {
    if (!motions_[a->motion].flies) (void)nav.release(a->request);
    else if (flyer_) (void)flyer_->release(a->request);
  }
  a->request = PathHandle{};
  a->has_goal = false;
  a->replan = false;
  a->intent = AgentIntent::Goal;  // a chase, flee or path order ends too
  a->chase_direct = false;
  a->partial = false;
  a->flow_generation = 0;
  a->stalled = false;
  a->replans_in_row = 0;
  clear_door_hold(*a, true);
  a->corridor.points.clear();
  a->corridor.cells.clear();
  a->corridor.kinds.clear();
  a->corridor.epoch = ++corridor_epoch_;  // the route drawn so far is gone
  a->next = 0;
  a->cell_index = 0;
  a->mode = AgentMode::Idle;
  a->reason.clear();
  a->fail = PathFailure::None;
  reindex(*a);
  return true;
}

bool AgentSystem::knock(AgentId id, const Vec3& impulse) {
  AgentRecord* a = get(id);
  if (!a) return false;
  const double keep = 1.0 - motions_[a->motion].control.knock_resistance;
  if (!(keep > 0.0)) return true;  // immovable
  AgentControl& c = a->control;
  c.pending_knock = Vec3{c.pending_knock.x + impulse.x * keep, c.pending_knock.y + impulse.y * keep,
                         c.pending_knock.z + impulse.z * keep};
  c.knock_pending = true;
  return true;
}

bool AgentSystem::set_yaw(AgentId id, std::uint16_t yaw) {
  AgentRecord* a = get(id);
  if (!a) return false;
  a->control.yaw = yaw;
  return true;
}

bool AgentSystem::set_sprint(AgentId id, bool sprint) {
  AgentRecord* a = get(id);
  if (!a) return false;
  a->control.sprint = sprint;
  return true;
}

namespace {
double dist3(const Vec3& a, const Vec3& b) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}
}  // namespace

double AgentSystem::distance_to_stop(const AgentRecord& a) const {
  const std::vector<Waypoint>& pts = a.corridor.points;
  if (a.mode != AgentMode::Moving || a.next >= pts.size()) return 0.0;
  const double off = motions_[a.motion].foot_offset;  // waypoints are foot-cell feet
  const Vec3 p{a.body.feet.x - off, a.body.feet.y, a.body.feet.z - off};
  double d = dist3(p, pts[a.next].position);
  for (std::size_t k = a.next + 1; k < pts.size(); ++k) d += dist3(pts[k - 1].position, pts[k].position);
  return d;
}

std::size_t AgentSystem::lookahead(const AgentRecord& a, double length, Waypoint* out,
                                   std::size_t capacity) const {
  const std::vector<Waypoint>& pts = a.corridor.points;
  if (a.mode != AgentMode::Moving || a.next >= pts.size()) return 0;
  const double off = motions_[a.motion].foot_offset;
  Vec3 p{a.body.feet.x - off, a.body.feet.y, a.body.feet.z - off};
  double d = 0.0;
  std::size_t n = 0;
  for (std::size_t k = a.next; k < pts.size(); ++k) {
    d += dist3(p, pts[k].position);
    if (d > length) break;
    if (n < capacity) out[n] = pts[k];
    ++n;
    p = pts[k].position;
  }
  return n;
}

void AgentSystem::knocked_step(NavWorld& nav, const Space& space, AgentRecord& a, double dt) {
  const AgentMotion& m = motions_[a.motion];
  const Vec3 knock = take_knock(a.control);
  // No drive while locked: the body flies, slides and lands with what the knock gave it (the
  // step's carry decays it), and the stuck watch does not run.
  const DriveInput in;
  const IntegrateReport r = integrate_character_tick(a.body, in, knock, m.body, space, dt);
  a.last_hit_wall = r.hit_wall != 0;
  if (advance_lock(a.control, a.body)) resume_after_knock(nav, a);
}

void AgentSystem::resume_after_knock(NavWorld& nav, AgentRecord& a) {
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  if (a.mode != AgentMode::Moving || a.corridor.points.empty()) return;
  const NavGrid& grid = nav.grid();
  const std::vector<CellPos>& cells = a.corridor.cells;
  const std::vector<Waypoint>& pts = a.corridor.points;
  const CellPos here = current_cell(grid, a);
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  // Where on the path the body came down: the first such cell ahead of its progress, else the
  // last one behind it (knocked back along its route).
  std::size_t i = kNone;
  for (std::size_t k = a.cell_index; k < cells.size() && i == kNone; ++k)
    if (cells[k] == here) i = k;
  for (std::size_t k = std::min(a.cell_index, cells.size()); k-- > 0 && i == kNone;)
    if (cells[k] == here) i = k;
  // The waypoint after it (waypoints are a subsequence of the path cells) and the path cell it
  // is entered from.
  std::size_t next = kNone, at = kNone;
  if (i != kNone) {
    for (std::size_t c = 0, k = 0; c < cells.size() && k < pts.size(); ++c) {
      if (!(cells[c] == pts[k].cell)) continue;
      if (c > i) {
        next = k;
        at = c;
        break;
      }
      ++k;
    }
    if (next == kNone) {  // on the last cell: the goal waypoint
      next = pts.size() - 1;
      at = cells.size() - 1;
    }
    if (next < first_waypoint(a)) next = first_waypoint(a);
  }
  bool resume = next != kNone && next < pts.size();
  if (resume) {
    const Waypoint& w = pts[next];
    if (w.kind == EdgeKind::Walk)
      // A level stretch: the body must walk straight from where it stands to the waypoint.
      resume = w.cell == here ||
               (w.cell.y == here.y &&
                line_walkable_level(grid, here, w.cell, motions_[a.motion].costs.surface.get()));
    else
      // A step, jump, drop, climb or door: taken only from the cell the path takes it from.
      resume = at > 0 && at != kNone && (cells[at - 1] == here || w.cell == here);
  }
  if (!resume) {
    // Off the corridor: plan again from where it came down (at the next step).
    ++a.control.lock_replans;
    ++a.replans;
    a.mode = AgentMode::Planning;
    a.replan = true;
    a.next = 0;
    reindex(a);
    return;
  }
  ++a.control.lock_resumes;
  a.cell_index = i;
  a.next = next;
  reindex(a);
}

}  // namespace voxnav::detail
