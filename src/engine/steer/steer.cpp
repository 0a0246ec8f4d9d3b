#include "engine/steer/steer.h"

#include <algorithm>
#include <cmath>

#include "engine/follow/agents.h"
#include "engine/nav/nav_world.h"

namespace voxnav::detail {

SteerParams compile_steer(const Avoidance& a, double body_width) {
  SteerParams s;
  s.max_neighbours = std::clamp(a.max_neighbours, 0, Steering::kMaxOrcaNeighbours);
  s.orca = a.enabled && s.max_neighbours > 0;
  s.radius = a.radius > 0.0 ? a.radius : 0.5 * body_width;
  s.time_horizon = a.time_horizon > 0.0 ? a.time_horizon : 1.0;
  return s;
}

// ---- ORCA (van den Berg, Guy, Lin, Manocha: "Reciprocal n-body collision avoidance", 2011) ----
// Velocities are 2D (x, z). det(a, b) = a.x * b.z - a.z * b.x; a half-plane line allows the
// velocities v with det(direction, point - v) <= 0.

namespace {

constexpr double kEpsilon = 1e-5;
/// cos and sin of 0.15 rad (literals: the same bits in every build).
constexpr double kPassCos = 0.9887710779360422;
constexpr double kPassSin = 0.14943813247359922;

inline double det(double ax, double az, double bx, double bz) { return ax * bz - az * bx; }

/// The best velocity on line `no` that keeps to lines [0, no) and the speed disc (a 1D program
/// along the line); false when that stretch is empty.
bool program1(const OrcaLine* lines, std::size_t no, double radius, double opt_x, double opt_z,
              bool direction_opt, double& rx, double& rz) {
  const OrcaLine& L = lines[no];
  const double dot = L.px * L.dx + L.pz * L.dz;
  const double disc = dot * dot + radius * radius - (L.px * L.px + L.pz * L.pz);
  if (disc < 0.0) return false;  // the line misses the speed disc
  const double root = std::sqrt(disc);
  double t_left = -dot - root, t_right = -dot + root;
  for (std::size_t i = 0; i < no; ++i) {
    const OrcaLine& M = lines[i];
    const double denominator = det(L.dx, L.dz, M.dx, M.dz);
    const double numerator = det(M.dx, M.dz, L.px - M.px, L.pz - M.pz);
    if (std::fabs(denominator) <= kEpsilon) {
      if (numerator < 0.0) return false;  // parallel, and L lies outside M
      continue;
    }
    const double t = numerator / denominator;
    if (denominator >= 0.0)
      t_right = std::min(t_right, t);
    else
      t_left = std::max(t_left, t);
    if (t_left > t_right) return false;
  }
  double t;
  if (direction_opt) {
    t = opt_x * L.dx + opt_z * L.dz > 0.0 ? t_right : t_left;
  } else {
    t = L.dx * (opt_x - L.px) + L.dz * (opt_z - L.pz);
    if (t < t_left) t = t_left;
    if (t > t_right) t = t_right;
  }
  rx = L.px + t * L.dx;
  rz = L.pz + t * L.dz;
  return true;
}

/// The velocity nearest `opt` (or, with direction_opt, farthest along the unit vector `opt`) in
/// the speed disc and every half-plane, adding the lines in order; returns the index of the line
/// that left no room (count when all held), `r` then holding the last feasible result.
std::size_t program2(const OrcaLine* lines, std::size_t count, double radius, double opt_x,
                     double opt_z, bool direction_opt, double& rx, double& rz) {
  if (direction_opt) {
    rx = opt_x * radius;
    rz = opt_z * radius;
  } else if (opt_x * opt_x + opt_z * opt_z > radius * radius) {
    const double len = std::sqrt(opt_x * opt_x + opt_z * opt_z);
    rx = opt_x / len * radius;
    rz = opt_z / len * radius;
  } else {
    rx = opt_x;
    rz = opt_z;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const OrcaLine& L = lines[i];
    if (det(L.dx, L.dz, L.px - rx, L.pz - rz) > 0.0) {
      const double keep_x = rx, keep_z = rz;
      if (!program1(lines, i, radius, opt_x, opt_z, direction_opt, rx, rz)) {
        rx = keep_x;
        rz = keep_z;
        return i;
      }
    }
  }
  return count;
}

/// No velocity keeps to every line: the one that minimises the largest violation (lines from
/// `begin` on; a 2D program over the bisectors of each pair).
void program3(const OrcaLine* lines, std::size_t count, std::size_t begin, double radius,
              OrcaLine* proj, double& rx, double& rz) {
  double distance = 0.0;
  for (std::size_t i = begin; i < count; ++i) {
    const OrcaLine& L = lines[i];
    if (det(L.dx, L.dz, L.px - rx, L.pz - rz) <= distance) continue;
    std::size_t n = 0;
    for (std::size_t j = 0; j < i; ++j) {
      const OrcaLine& M = lines[j];
      OrcaLine P;
      const double determinant = det(L.dx, L.dz, M.dx, M.dz);
      if (std::fabs(determinant) <= kEpsilon) {
        if (L.dx * M.dx + L.dz * M.dz > 0.0) continue;  // same direction
        P.px = 0.5 * (L.px + M.px);
        P.pz = 0.5 * (L.pz + M.pz);
      } else {
        const double s = det(M.dx, M.dz, L.px - M.px, L.pz - M.pz) / determinant;
        P.px = L.px + s * L.dx;
        P.pz = L.pz + s * L.dz;
      }
      const double ex = M.dx - L.dx, ez = M.dz - L.dz;
      const double len = std::sqrt(ex * ex + ez * ez);
      if (!(len > 0.0)) continue;
      P.dx = ex / len;
      P.dz = ez / len;
      proj[n++] = P;
    }
    const double keep_x = rx, keep_z = rz;
    if (program2(proj, n, radius, -L.dz, L.dx, true, rx, rz) < n) {
      rx = keep_x;  // (in principle impossible: the result lies in the program's feasible set)
      rz = keep_z;
    }
    distance = det(L.dx, L.dz, L.px - rx, L.pz - rz);
  }
}

}  // namespace

void orca_solve(const OrcaLine* lines, std::size_t count, double max_speed, double pref_x,
                double pref_z, OrcaLine* scratch, double& out_x, double& out_z) {
  const std::size_t fail = program2(lines, count, max_speed, pref_x, pref_z, false, out_x, out_z);
  if (fail < count) program3(lines, count, fail, max_speed, scratch, out_x, out_z);
}

OrcaLine orca_line(double rx, double rz, double ux, double uz, double vx, double vz, double r,
                   double time_horizon, double dt, double share) {
  OrcaLine L;
  const double dist2 = rx * rx + rz * rz;
  const double r2 = r * r;
  double cx, cz;  // the smallest change of relative velocity that leaves the obstacle
  if (dist2 > r2) {
    const double inv_t = 1.0 / time_horizon;
    // w: from the centre of the truncation disc (relative position / horizon) to the velocity.
    const double wx = ux - inv_t * rx, wz = uz - inv_t * rz;
    const double w2 = wx * wx + wz * wz;
    const double dot1 = wx * rx + wz * rz;
    if (dot1 < 0.0 && dot1 * dot1 > r2 * w2) {
      // Nearest to the truncation disc: push out along w.
      const double wl = std::sqrt(w2);
      const double nx = wx / wl, nz = wz / wl;
      L.dx = nz;
      L.dz = -nx;
      cx = (r * inv_t - wl) * nx;
      cz = (r * inv_t - wl) * nz;
    } else {
      // Nearest to a leg of the cone: project onto it.
      const double leg = std::sqrt(dist2 - r2);
      if (det(rx, rz, wx, wz) > 0.0) {
        L.dx = (rx * leg - rz * r) / dist2;
        L.dz = (rx * r + rz * leg) / dist2;
      } else {
        L.dx = -(rx * leg + rz * r) / dist2;
        L.dz = -(-rx * r + rz * leg) / dist2;
      }
      const double dot2 = ux * L.dx + uz * L.dz;
      cx = dot2 * L.dx - ux;
      cz = dot2 * L.dz - uz;
    }
  } else {
    // Already overlapping: leave the overlap within one tick.
    const double inv_dt = 1.0 / dt;
    const double wx = ux - inv_dt * rx, wz = uz - inv_dt * rz;
    const double wl = std::sqrt(wx * wx + wz * wz);
    double nx = 1.0, nz = 0.0;  // (w == 0 only for equal positions and velocities)
    if (wl > 0.0) {
      nx = wx / wl;
      nz = wz / wl;
    }
    L.dx = nz;
    L.dz = -nx;
    cx = (r * inv_dt - wl) * nx;
    cz = (r * inv_dt - wl) * nz;
  }
  L.px = vx + share * cx;
  L.pz = vz + share * cz;
  return L;
}

// ---- the steering of a World's agents ----

void Steering::record(const AgentRecord* agents, std::size_t count, const AgentMotion* motions,
                      int min_shift) {
  grid_.clear(count);
  for (std::size_t i = 0; i < count; ++i) {
    const AgentRecord& a = agents[i];
    if (!a.alive) continue;
    const AgentMotion& m = motions[a.motion];
    GridBody b;
    b.x = a.body.feet.x;
    b.y = a.body.feet.y;
    b.z = a.body.feet.z;
    b.vx = a.body.velocity.x;
    b.vz = a.body.velocity.z;
    b.height = m.body.height;
    b.radius = 0.5 * m.body.width;
    b.orca_radius = m.steer.radius;
    b.slot = static_cast<std::uint32_t>(i);
    b.motion = a.motion;
    b.goal_x = a.goal.x;
    b.goal_y = a.goal.y;
    b.goal_z = a.goal.z;
    b.goal_range = a.goal_range;
    if (a.flow_generation) {
      b.flow_index = a.flow_index;
      b.flow_generation = a.flow_generation;
    }
    // A reduced agent resting this tick (lod_skip) steps neither now nor in separation: the
    // others take all of the avoidance and of the push, and it is no contagion target.
    const bool walking =
        !m.swims && a.body.on_ground && a.body.mode == BodyMode::Walk && !a.lod_skip;
    if (walking) b.flags |= GridBody::kPushable;
    if (walking && m.steer.orca && a.mode == AgentMode::Moving) b.flags |= GridBody::kAvoids;
    // Arrival contagion is for orders to a place: a chaser's or a fleer's goal cell is no
    // shared destination (chasers arrive by their own range, fleers each at their own cell).
    const bool place = a.intent == AgentIntent::Goal || a.intent == AgentIntent::Path;
    if (place && a.has_goal && a.mode == AgentMode::Arrived) b.flags |= GridBody::kArrived;
    // (a resting agent, pinned by its crowd, arrives too when it touches one that Arrived)
    const bool walking_on = a.mode == AgentMode::Moving || (a.mode == AgentMode::Blocked && a.crowded);
    if (place && a.has_goal && walking_on && !a.lod_skip) b.flags |= GridBody::kMoving;
    grid_.add(b);
  }
  grid_.build(min_shift);
}

void Steering::begin(const AgentRecord* agents, std::size_t count, const AgentMotion* motions) {
  stats_ = SteeringStats{};
  record(agents, count, motions, kOrcaShift);
}

void Steering::avoid(std::uint32_t slot, const AgentRecord& a, const AgentMotion& m,
                     const NavWorld& nav, const Space& space, double dt, DriveInput& in) {
  if (!m.steer.orca || m.swims || a.mode != AgentMode::Moving || !a.body.on_ground ||
      a.body.mode != BodyMode::Walk || in.jump || in.climb != ClimbIntent::None)
    return;
  const std::uint32_t self = grid_.of_slot(slot);
  if (self == AgentGrid::kNone) return;
  const GridBody& me = grid_.body(self);
  // The speed disc: the walking speed, or the drive's own speed when it asks for more (a drive
  // no neighbour constrains comes out unchanged, bit for bit).
  const double pref2 = in.move_x * in.move_x + in.move_z * in.move_z;
  const double max_speed = std::max(m.walk_speed, std::sqrt(pref2));
  const double tau = m.steer.time_horizon;
  // Anyone who can meet the agent within the horizon, both walking at full speed.
  const double range = tau * 2.0 * max_speed + me.orca_radius + grid_.max_orca_radius();
  std::array<GridHit, kMaxOrcaNeighbours> hits;
  const int n = grid_.nearest(self, range, m.steer.max_neighbours, hits.data());
  ++stats_.orca_agents;
  stats_.orca_neighbours += static_cast<std::uint64_t>(n);
  if (n == 0) return;
  std::array<OrcaLine, kMaxOrcaNeighbours> lines, scratch;
  std::size_t count = 0;
  for (int k = 0; k < n; ++k) {
    const GridBody& o = grid_.body(hits[static_cast<std::size_t>(k)].body);
    // An agent that arrived on the same order is where this one is going: touching it is
    // arriving (contagion), so it is no obstacle (ORCA would slow the approach to a crawl).
    if ((o.flags & GridBody::kArrived) && me.same_order(o)) continue;
    // A neighbour that avoids back takes half of the change; one that does not (standing, idle,
    // arrived, in the air, without avoidance) leaves all of it to this agent.
    const double share = (o.flags & GridBody::kAvoids) ? 0.5 : 1.0;
    lines[count++] = orca_line(o.x - me.x, o.z - me.z, me.vx - o.vx, me.vz - o.vz, me.vx, me.vz,
                               me.orca_radius + o.orca_radius, tau, dt, share);
  }
  if (count == 0) return;
  // The drive lies in the speed disc: it stands when no half-plane excludes it.
  bool in_way = false;
  for (std::size_t l = 0; l < count && !in_way; ++l) {
    const OrcaLine& L = lines[l];
    in_way = det(L.dx, L.dz, L.px - in.move_x, L.pz - in.move_z) > 0.0;
  }
  if (!in_way) return;  // no neighbour in the way
  // Someone is in the way: solve for the drive turned by 0.15 rad, the same way for everyone,
  // so two agents meeting head-on both bear off to the same hand and pass (for the drive itself,
  // a perfectly symmetric pair only slows down along the line and never passes).
  double vx = in.move_x, vz = in.move_z;
  const double tx = kPassCos * in.move_x - kPassSin * in.move_z;
  const double tz = kPassSin * in.move_x + kPassCos * in.move_z;
  orca_solve(lines.data(), count, max_speed, tx, tz, scratch.data(), vx, vz);
  // ORCA knows nothing of blocks: keep the corridor's drive when its answer would take the body
  // where the navigation does not let it stand this tick.
  if (!push_allowed(a, m, nav, space, a.body.feet.x + vx * dt, a.body.feet.z + vz * dt, false)) {
    ++stats_.orca_refused;
    return;
  }
  in.move_x = vx;
  in.move_z = vz;
}

std::uint32_t Steering::in_the_way(std::uint32_t slot, double dx, double dz,
                                   double margin) const {
  const std::uint32_t self = grid_.of_slot(slot);
  if (self == AgentGrid::kNone) return AgentGrid::kNone;
  const GridBody& me = grid_.body(self);
  std::array<GridHit, kMaxSeparationNeighbours> hits;
  const int n = grid_.nearest(self, me.radius + grid_.max_radius() + margin,
                              kMaxSeparationNeighbours, hits.data());
  for (int k = 0; k < n; ++k) {
    const GridHit& h = hits[static_cast<std::size_t>(k)];
    const GridBody& o = grid_.body(h.body);
    const double touch = me.radius + o.radius + margin;
    if (!(h.d2 < touch * touch)) continue;
    if ((o.x - me.x) * dx + (o.z - me.z) * dz > 0.0) return o.slot;
  }
  return AgentGrid::kNone;
}

bool Steering::push_allowed(const AgentRecord& a, const AgentMotion& m, const NavWorld& nav,
                            const Space& space, double x, double z, bool blocks) {
  const Vec3 to{x, a.body.feet.y, z};
  // The movement step's own collision: no block may overlap the body at all after a push (touching
  // is fine). The movement step ignores a box the body already overlaps, so that an embedded body
  // can walk out; a push that left even an ulp of overlap let the next step walk through the block.
  if (blocks && body_inside_blocks(space, to, m.body, 0.0)) return false;
  const CellPos from = foot_cell(a.body.feet, m.foot_offset);
  const CellPos c = foot_cell(to, m.foot_offset);
  if (c == from) return true;
  // Into another cell only when the class stands there and the profile enters it (no damage cell,
  // door, ladder or water), and never from a safe cell into one beside a hazard.
  const NavGrid& g = nav.grid();
  const CellKind k = g.kind(c);
  if (!kind_standable(k) || m.costs.kind_extra[static_cast<std::size_t>(k)] == kCostImpassable)
    return false;
  const bool danger = k == CellKind::DangerFire || k == CellKind::DangerOther;
  if (danger) {
    const CellKind here = g.kind(from);
    if (here != CellKind::DangerFire && here != CellKind::DangerOther) return false;
  }
  return true;
}

const std::vector<std::uint32_t>& Steering::finish(AgentRecord* agents, std::size_t count,
                                                   const AgentMotion* motions,
                                                   const NavWorld* const* navs,
                                                   std::size_t nav_count, const Space& space) {
  contagion_.clear();
  record(agents, count, motions, kContactShift);
  const std::size_t n = grid_.size();
  std::array<GridHit, kMaxSeparationNeighbours> hits;
  // One query per body serves both, from the positions the movement step gave: arrival contagion
  // (a Moving body touching one Arrived on the same order) and separation (every pushable body
  // moves away from the bodies it overlaps, by half the overlap, all of it against a body that
  // cannot move). All pushes are computed before any is applied.
  push_x_.assign(n, 0.0);
  push_z_.assign(n, 0.0);
  for (std::uint32_t i = 0; i < n; ++i) {
    const GridBody& b = grid_.body(i);
    const bool moving = (b.flags & GridBody::kMoving) != 0;
    const bool pushable = separation_ && (b.flags & GridBody::kPushable) != 0;
    if (!moving && !pushable) continue;
    const double range = b.radius + grid_.max_radius() + kContactMargin;
    const int k = grid_.nearest(i, range, kMaxSeparationNeighbours, hits.data());
    if (moving) {
      for (int h = 0; h < k; ++h) {
        const GridHit& hit = hits[static_cast<std::size_t>(h)];
        const GridBody& o = grid_.body(hit.body);
        if (!(o.flags & GridBody::kArrived) || !b.same_order(o)) continue;
        const double touch = b.radius + o.radius + kContactMargin;
        if (!(hit.d2 < touch * touch)) continue;
        contagion_.push_back(b.slot);
        break;
      }
    }
    if (!pushable) continue;
    double px = 0.0, pz = 0.0;
    for (int h = 0; h < k; ++h) {
      const GridHit& hit = hits[static_cast<std::size_t>(h)];
      const GridBody& o = grid_.body(hit.body);
      const double rr = b.radius + o.radius;
      if (!(hit.d2 < rr * rr)) continue;
      double nx, nz;
      const double d = std::sqrt(hit.d2);
      if (d > 0.0) {
        nx = (b.x - o.x) / d;
        nz = (b.z - o.z) / d;
      } else {  // on the same spot: the lower slot goes to -x, the other to +x
        nx = b.slot < o.slot ? -1.0 : 1.0;
        nz = 0.0;
      }
      const double amount = (rr - d) * ((o.flags & GridBody::kPushable) ? 0.5 : 1.0);
      px += nx * amount;
      pz += nz * amount;
    }
    const double len2 = px * px + pz * pz;
    const double cap = kMaxPushFraction * b.radius;
    if (len2 > cap * cap) {
      const double f = cap / std::sqrt(len2);
      px *= f;
      pz *= f;
    }
    push_x_[i] = px;
    push_z_[i] = pz;
  }
  if (!separation_) return contagion_;
  for (std::uint32_t i = 0; i < n; ++i) {
    const double px = push_x_[i], pz = push_z_[i];
    if (px == 0.0 && pz == 0.0) continue;
    const GridBody& b = grid_.body(i);
    AgentRecord& a = agents[b.slot];
    const AgentMotion& m = motions[a.motion];
    const NavWorld* nav = m.nav_slot < nav_count ? navs[m.nav_slot] : nullptr;
    if (!nav) continue;
    // The navigation has the last word: the whole push, else along one axis (sliding along a
    // wall), else half of it, else none.
    const double tries[4][2] = {{px, pz}, {px, 0.0}, {0.0, pz}, {0.5 * px, 0.5 * pz}};
    bool done = false;
    for (int t = 0; t < 4 && !done; ++t) {
      if (tries[t][0] == 0.0 && tries[t][1] == 0.0) continue;
      const double x = a.body.feet.x + tries[t][0], z = a.body.feet.z + tries[t][1];
      if (!push_allowed(a, m, *nav, space, x, z, true)) continue;
      a.body.feet.x = x;
      a.body.feet.z = z;
      done = true;
      ++stats_.pushes;
      if (t > 0) ++stats_.pushes_shortened;
    }
    if (!done) ++stats_.pushes_refused;
  }
  return contagion_;
}

}  // namespace voxnav::detail
