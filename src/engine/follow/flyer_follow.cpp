// AgentSystem's flyer agents (docs/flight.md#flyer-agents): requests through the World's flyer
// navigation (the straight line first, else the flight search), the follower (checks ahead,
// steering along clear straight lines, the vertical slide past a wall, hovering at rest) and the
// edit check through the corridor index. Kept apart from agents.cpp (the walkers' follower).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/flight/flyer_line.h"
#include "engine/flight/flyer_nav.h"
#include "engine/follow/agents.h"
#include "engine/follow/facing.h"
#include "engine/integrate/integrate.h"

namespace voxnav::detail {

namespace {

double flyer_follow_dist3(const Vec3& a, const Vec3& b) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

std::string flyer_follow_cell_text(const CellPos& c) {
  std::string t = "(";
  t += std::to_string(c.x);
  t += ',';
  t += std::to_string(c.y);
  t += ',';
  t += std::to_string(c.z);
  t += ')';
  return t;
}

}  // namespace

CellPos AgentSystem::fly_cell(AgentRecord& a) const {
  const CellPos c = foot_cell(a.body.feet, 0.0);
  if (flyer_) {
    const flight::FlyerStore& store = flyer_->store();
    const CellPos tries[3] = {c, CellPos{c.x, c.y + 1, c.z}, CellPos{c.x, c.y - 1, c.z}};
    for (const CellPos& t : tries)
      if (cell_in_range(t) && store.free(t)) return t;
  }
  return a.last_cell;
}

void AgentSystem::fly_plan(AgentRecord& a) {
  a.replan = false;
  a.chase_direct = false;
  a.mode = AgentMode::Planning;
  if (!flyer_) {  // no flyer navigation yet: plan at the next step that has one
    a.replan = true;
    reindex(a);
    return;
  }
  if (a.request.generation) (void)flyer_->release(a.request);
  if (a.intent == AgentIntent::Chase) {  // toward the target's cell now (any free cell by it)
    Vec3 tp;
    CellPos tc;
    if (chase_target(a, tp, tc)) a.goal = foot_cell(tp, 0.0);
    a.goal_range = kChaseGoalRange;
  }
  RequestSpec spec = motion_spec(a);
  spec.start = fly_cell(a);
  spec.goal = a.goal;
  spec.goal_range = a.goal_range;
  a.request = flyer_->request(spec);
  ++a.requests;
  reindex(a);
}

void AgentSystem::fly_install(AgentRecord& a) {
  if (!flyer_ || !a.request.generation) return;
  const RequestSlot* s = flyer_->slot(a.request);
  if (s && (s->state == RequestState::Queued || s->state == RequestState::Searching)) return;
  if (!s || s->state != RequestState::Ready) {
    const PathFailure why = s ? s->fail : PathFailure::None;
    a.mode = AgentMode::Failed;
    a.fail = why;
    a.reason = std::string("request failed: ") + path_failure_name(why);
    if (a.intent == AgentIntent::Chase) {
      // The target is where no route reaches for now: not terminal (as for walkers), Blocked and
      // tried again after kBlockedRetryTicks; fly_chase flies straight at it, or catches it,
      // meanwhile.
      a.mode = AgentMode::Blocked;
      a.blocked_ticks = 0;
      a.reason = std::string("chase: no route to the target's cell: ") + path_failure_name(why) +
                 "; tried again";
    }
    if (s) (void)flyer_->release(a.request);
    a.request = PathHandle{};
    reindex(a);
    return;
  }
  a.corridor = s->corridor;
  const bool stale = s->epoch != flyer_->epoch();
  (void)flyer_->release(a.request);
  a.request = PathHandle{};
  a.partial = false;
  if (stale) {
    // The layer changed since the search: its segments must still be clear.
    const std::vector<Waypoint>& pts = a.corridor.points;
    for (std::size_t k = 1; k < pts.size(); ++k)
      if (!flyer_->line_clear(pts[k - 1].position, pts[k].position)) {
        ++a.replans;
        fly_plan(a);
        return;
      }
  }
  a.corridor.epoch = ++corridor_epoch_;
  a.placed = false;
  a.fall_ticks = 0;
  // Points[0] is the start cell's feet: followed from points[1] when the body flies straight
  // there from where it is (it stands somewhere in the start cell), else from points[0].
  const std::vector<Waypoint>& pts = a.corridor.points;
  a.next = pts.size() > 1 && flyer_->line_clear(a.body.feet, pts[1].position) ? 1 : 0;
  a.cell_index = 0;
  a.best_dist = 1e30;
  a.ticks_without_progress = 0;
  a.mode = AgentMode::Moving;
  a.reason.clear();
  reindex(a);
}

void AgentSystem::fly_replan_or_block(AgentRecord& a) {
  if (++a.replans_in_row > kMaxReplansInRow) {
    a.mode = AgentMode::Blocked;
    a.crowded = false;
    a.blocked_ticks = 0;
    std::string r = "no progress toward waypoint ";
    r += std::to_string(a.next);
    r += " at cell ";
    r += flyer_follow_cell_text(fly_cell(a));
    r += " after ";
    r += std::to_string(kMaxReplansInRow);
    r += " replans";
    a.reason = std::move(r);
    reindex(a);
  } else {
    ++a.replans;
    fly_plan(a);
  }
}

void AgentSystem::fly_drive(AgentRecord& a, double dt, DriveInput& in) {
  const AgentMotion& m = motions_[a.motion];
  const flight::FlyerStore& store = flyer_->store();
  const std::vector<Waypoint>& pts = a.corridor.points;
  const Vec3& p = a.body.feet;
  if (a.chase_direct) {
    // Straight at the chased target (fly_chase judged the line clear this step).
    Vec3 tp;
    CellPos tc;
    if (!chase_target(a, tp, tc)) return;
    const double dx = tp.x - p.x, dy = tp.y - p.y, dz = tp.z - p.z;
    const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    if (!(d > 1e-9)) return;
    const double cruise = a.control.sprint ? m.control.sprint_speed : m.walk_speed;
    const double speed = std::min(cruise, d / dt);
    in.move_x = dx / d * speed;
    in.move_z = dz / d * speed;
    in.vertical = dy / d * speed;
    return;
  }
  // 1. The cells of the next kFlyCheckWaypoints waypoints must still be free flyer cells.
  for (std::size_t k = a.next; k < pts.size() && k < a.next + kFlyCheckWaypoints; ++k)
    if (!store.free(pts[k].cell)) {
      ++a.replans;
      fly_plan(a);
      return;
    }
  // 2. Pass the waypoints the feet reached.
  while (a.next + 1 < pts.size() && flyer_follow_dist3(p, pts[a.next].position) <= kFlyPass) {
    ++a.next;
    a.best_dist = 1e30;
    a.ticks_without_progress = 0;
    a.replans_in_row = 0;
  }
  // 3. Steer at the furthest waypoint within kFlySteerCells that a clear straight line reaches
  //    (the ones before it are passed).
  for (std::size_t k = pts.size(); k-- > a.next + 1;) {
    if (flyer_follow_dist3(p, pts[k].position) > kFlySteerCells) continue;
    if (flyer_->line_clear(p, pts[k].position)) {
      a.next = k;
      a.best_dist = 1e30;
      a.ticks_without_progress = 0;
      a.replans_in_row = 0;
      break;
    }
  }
  const Waypoint& w = pts[a.next];
  const bool last = a.next + 1 == pts.size();
  const double dx = w.position.x - p.x, dy = w.position.y - p.y, dz = w.position.z - p.z;
  const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (last && a.intent == AgentIntent::Chase && d <= kFlyPass) {
    // The end of a chaser's corridor without the target in range: it moved; plan again.
    ++a.replans;
    fly_plan(a);
    return;
  }
  if (last && a.intent != AgentIntent::Chase && d <= std::max(0.25, m.arrive_radius)) {
    // Arrived: it hovers where it is (no drive, no gravity in Fly mode).
    a.mode = AgentMode::Arrived;
    ++a.arrivals;
    a.replans_in_row = 0;
    reindex(a);
    return;
  }
  if (d > 1e-9) {
    // 3D velocity toward the waypoint at the profile's speed, slowing to land on it.
    const double cruise = a.control.sprint ? m.control.sprint_speed : m.walk_speed;
    const double speed = std::min(cruise, d / dt);
    in.move_x = dx / d * speed;
    in.move_z = dz / d * speed;
    in.vertical = dy / d * speed;
    if (a.last_hit_wall) {
      // Blocked horizontally: slide vertically toward the waypoint's side (up when level, down
      // when the last upward slide met a ceiling), at the full speed, still pressing on.
      const bool up = !a.fly_slide_down && dy >= 0.0;
      in.vertical = up ? cruise : -cruise;
    }
  }
  // 4. Stuck watch: the distance to the waypoint must shrink; else plan again, then Blocked.
  if (d + 0.05 < a.best_dist) {
    a.best_dist = d;
    a.ticks_without_progress = 0;
  } else if (++a.ticks_without_progress > kStuckTicks + 30) {
    a.ticks_without_progress = 0;
    fly_replan_or_block(a);
    in = DriveInput{};
  }
}

void AgentSystem::fly_chase(AgentRecord& a) {
  if (a.mode == AgentMode::Failed || a.mode == AgentMode::Idle) return;
  Vec3 tp;
  CellPos tc;
  if (!chase_target(a, tp, tc)) {  // the target is gone: the chase stops, Failed
    if (a.request.generation) (void)flyer_->release(a.request);
    a.request = PathHandle{};
    a.replan = false;
    a.chase_direct = false;
    a.corridor.points.clear();
    a.corridor.cells.clear();
    a.corridor.kinds.clear();
    a.corridor.epoch = ++corridor_epoch_;
    a.next = 0;
    a.mode = AgentMode::Failed;
    a.fail = PathFailure::None;
    a.reason = std::string("chase target ") + (a.chase_entity ? "entity" : "agent") + " in slot " +
               std::to_string(a.target_index) + " is gone (removed): the chase stopped";
    reindex(a);
    return;
  }
  const Vec3& f = a.body.feet;
  const double dx = tp.x - f.x, dy = tp.y - f.y, dz = tp.z - f.z;
  if (dx * dx + dy * dy + dz * dz <= a.chase_range * a.chase_range) {
    if (a.mode != AgentMode::Arrived) {  // caught: it hovers (and chases again when it gets away)
      if (a.request.generation) (void)flyer_->release(a.request);
      a.request = PathHandle{};
      a.replan = false;
      a.chase_direct = false;
      a.mode = AgentMode::Arrived;
      ++a.arrivals;
      a.replans_in_row = 0;
      a.fail = PathFailure::None;
      a.reason.clear();
      reindex(a);
    }
    return;
  }
  const CellPos here = fly_cell(a);
  const CellPos at = foot_cell(tp, 0.0);
  const bool near = std::abs(at.x - here.x) <= kChaseDirectCells &&
                    std::abs(at.y - here.y) <= kChaseDirectCells &&
                    std::abs(at.z - here.z) <= kChaseDirectCells;
  if (near && cell_in_range(at) && flyer_->line_clear(f, tp)) {
    // Straight at it, no search: the corridor shows the line; the drive aims at the target.
    if (a.request.generation) (void)flyer_->release(a.request);
    a.request = PathHandle{};
    a.replan = false;
    if (!(a.chase_direct && a.mode == AgentMode::Moving && a.corridor.cells.size() == 2 &&
          a.corridor.cells.back() == at))
      install_direct_chase(a, Waypoint{flight::flyer_feet(here), EdgeKind::Start, here},
                           Waypoint{flight::flyer_feet(at), EdgeKind::Fly, at});
    a.best_dist = 1e30;  // no stuck watch on a target that flies away
    a.ticks_without_progress = 0;
    return;
  }
  if (a.chase_direct || a.mode == AgentMode::Arrived) {  // the line ended, or it got away
    a.chase_direct = false;
    ++a.replans;
    fly_plan(a);
    return;
  }
  if (a.mode == AgentMode::Moving && !a.corridor.cells.empty()) {
    const CellPos& e = a.corridor.cells.back();
    if (std::abs(at.x - e.x) > kChaseReplanCells || std::abs(at.y - e.y) > kChaseReplanCells ||
        std::abs(at.z - e.z) > kChaseReplanCells) {
      ++a.replans;  // the target left the corridor's end: search toward where it is now
      fly_plan(a);
    }
  }
}

void AgentSystem::fly_step(const Space& space, AgentRecord& a, double dt) {
  const AgentMotion& m = motions_[a.motion];
  if (flyer_) {
    if (a.mode == AgentMode::Blocked && a.has_goal && ++a.blocked_ticks >= kBlockedRetryTicks) {
      a.blocked_ticks = 0;
      a.replans_in_row = 0;
      ++a.replans;
      fly_plan(a);
    }
    if (a.replan && a.mode == AgentMode::Planning && a.has_goal) fly_plan(a);
    else if (a.mode == AgentMode::Planning) fly_install(a);
    if (a.intent == AgentIntent::Chase && a.has_goal) fly_chase(a);
    const CellPos here = fly_cell(a);
    a.last_cell = here;
  }
  DriveInput in;
  if (flyer_ && a.mode == AgentMode::Moving && a.next < a.corridor.points.size() &&
      !a.control.locked)
    fly_drive(a, dt, in);
  // A knock goes wholly into carry (Fly mode), which decays while the drive goes on.
  const Vec3 knock = a.control.knock_pending ? take_knock(a.control) : Vec3{};
  a.control.locked = false;
  a.body.mode = BodyMode::Fly;
  const IntegrateReport r = integrate_character_tick(a.body, in, knock, m.body, space, dt);
  a.last_hit_wall = r.hit_wall != 0;
  // A vertical slide that met a ceiling turns down until the wall is passed.
  if (!a.last_hit_wall) a.fly_slide_down = false;
  else if (r.hit_ceiling) a.fly_slide_down = true;
}

void AgentSystem::fly_edits() {
  if (!flyer_) return;
  const std::vector<Change>& changes = flyer_->feed();
  if (changes.empty() && !flyer_->feed_coalesced()) return;
  touched_.clear();
  if (flyer_->feed_coalesced()) {
    for (std::uint32_t i = 0; i < agents_.size(); ++i) touched_.push_back(i);
  } else {
    for (const Change& ch : changes) {
      // A flyer cell reads its column from one below to one above (the envelope is 1.95 high);
      // one more cell of margin on every side.
      const CellPos mn{ch.min.x - 1, ch.min.y - 3, ch.min.z - 1};
      const CellPos mx{ch.max.x + 1, ch.max.y + 2, ch.max.z + 1};
      const std::int64_t bricks = std::int64_t((mx.x >> 2) - (mn.x >> 2) + 1) *
                                  ((mx.y >> 2) - (mn.y >> 2) + 1) * ((mx.z >> 2) - (mn.z >> 2) + 1);
      if (bricks > 4096) {
        touched_.clear();
        for (std::uint32_t i = 0; i < agents_.size(); ++i) touched_.push_back(i);
        break;
      }
      index_.query(mn, mx, touched_);
    }
  }
  std::sort(touched_.begin(), touched_.end());
  touched_.erase(std::unique(touched_.begin(), touched_.end()), touched_.end());
  for (const std::uint32_t i : touched_) {
    AgentRecord& a = agents_[i];
    if (!a.alive || !motions_[a.motion].flies) continue;
    if (a.mode == AgentMode::Blocked) {
      a.blocked_ticks = kBlockedRetryTicks;  // the world changed around it: try again now
      continue;
    }
    if (a.mode != AgentMode::Moving) continue;
    // Every remaining segment, from the feet on.
    const std::vector<Waypoint>& pts = a.corridor.points;
    bool clear = a.next >= pts.size() || flyer_->line_clear(a.body.feet, pts[a.next].position);
    for (std::size_t k = a.next + 1; clear && k < pts.size(); ++k)
      clear = flyer_->line_clear(pts[k - 1].position, pts[k].position);
    if (!clear) {
      ++a.replans;
      fly_plan(a);
    }
  }
  flyer_->consume_feed();
}

}  // namespace voxnav::detail
