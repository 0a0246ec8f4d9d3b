#include "engine/integrate/integrate.h"

#include <cmath>
#include <cstddef>

#include "engine/integrate/integrate_math.h"

namespace voxnav {

double jump_velocity_for_apex(double gravity, double apex) noexcept {
  const double v2 = 2.0 * gravity * apex;
  return v2 > 0.0 ? std::sqrt(v2) : 0.0;
}

}  // namespace voxnav

namespace voxnav::detail {

double sampled_jump_apex(const BodyParams& params, double dt) {
  if (!(params.jump_velocity > 0.0) || !(params.gravity > 0.0) || !(dt > 0.0)) return 0.0;
  // The steps of a jump from the ground, as integrate_character_tick takes them in the open: the
  // take-off velocity, then gravity steps, the feet moved by each step's dy, until they descend.
  double vy = params.jump_velocity, dy = 0.0, y = 0.0, top = 0.0;
  for (int i = 0; i < 1 << 20; ++i) {
    gravity_step(vy, dy, params, dt);
    if (dy <= 0.0) break;
    y += dy;
    if (y > top) top = y;
  }
  return top;
}

namespace {

/// Contact tolerance (cells): a box within this distance of the body counts as touching, never as
/// overlapping, so snapped positions that are an ulp off never let a body slip into a wall.
constexpr double kEps = 1e-7;
/// A step with no vertical motion probes this far down to decide on_ground.
constexpr double kGroundProbe = 1e-4;
/// Positions must stay this far inside the cell range (|x|,|z| < 2^25, |y| < 2^20).
constexpr double kRangeMargin = 2.0 * kMaxStepDisplacement + 8.0;

const Box kSolidCube{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}};

struct Aabb {
  double min[3];
  double max[3];
};

double axis(const Vec3& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }
void set_axis(Vec3& v, int a, double value) {
  if (a == 0) {
    v.x = value;
  } else if (a == 1) {
    v.y = value;
  } else {
    v.z = value;
  }
}

bool finite3(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

double clamp_disp(double d) {
  if (d > kMaxStepDisplacement) return kMaxStepDisplacement;
  if (d < -kMaxStepDisplacement) return -kMaxStepDisplacement;
  return d;
}

int floor_cell(double v) { return static_cast<int>(std::floor(v)); }

/// Collision boxes of cells, with a one-chunk cache (no allocation, no hashing per cell when a
/// sweep stays inside one chunk). Unloaded and out-of-range cells are full solid cubes.
class Collider {
 public:
  explicit Collider(const Space& world) : world_(world), registry_(world.registry()) {}

  /// Block value and whether the cell is loaded (and in range).
  std::uint16_t value(const CellPos& c, bool& loaded) const {
    if (!cell_in_range(c)) {
      loaded = false;
      return 0;
    }
    const ChunkPos cp = chunk_of(c);
    if (!has_last_ || !(cp == last_pos_)) {
      last_pos_ = cp;
      last_ = world_.chunk(cp);
      has_last_ = true;
    }
    loaded = last_ != nullptr;
    return last_ ? last_->get(index_in_chunk(c)) : 0;
  }

  /// Calls f(cell, box) for every collision box of the cells in [lo, hi] (inclusive), in y, z, x
  /// order.
  template <class F>
  void for_each_box(const int lo[3], const int hi[3], F&& f) const {
    for (int y = lo[1]; y <= hi[1]; ++y)
      for (int z = lo[2]; z <= hi[2]; ++z)
        for (int x = lo[0]; x <= hi[0]; ++x) {
          const CellPos c{x, y, z};
          bool loaded = false;
          const std::uint16_t v = value(c, loaded);
          if (!loaded) {
            f(c, kSolidCube);
            continue;
          }
          const std::vector<Box>& boxes = registry_.type(v).boxes;
          for (const Box& b : boxes) f(c, b);
        }
  }

  /// True when the cell holding point `p` has a value with any of `traits` (unloaded: none).
  bool point_has_trait(const Vec3& p, std::uint32_t traits) const {
    bool loaded = false;
    const std::uint16_t v =
        value(CellPos{floor_cell(p.x), floor_cell(p.y + kEps), floor_cell(p.z)}, loaded);
    return loaded && (registry_.traits(v) & traits) != 0;
  }

  /// True when a cell overlapping the body (strictly, beyond the contact tolerance) has a value
  /// with any of `traits`. Unloaded cells have no traits.
  bool body_overlaps_trait(const Aabb& body, std::uint32_t traits) const {
    int lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      lo[a] = floor_cell(body.min[a] + kEps);
      hi[a] = floor_cell(body.max[a] - kEps);
    }
    for (int y = lo[1]; y <= hi[1]; ++y)
      for (int z = lo[2]; z <= hi[2]; ++z)
        for (int x = lo[0]; x <= hi[0]; ++x) {
          bool loaded = false;
          const std::uint16_t v = value(CellPos{x, y, z}, loaded);
          if (loaded && (registry_.traits(v) & traits) != 0) return true;
        }
    return false;
  }

 private:
  const Space& world_;
  const BlockRegistry& registry_;
  mutable ChunkPos last_pos_{};
  mutable const Chunk* last_ = nullptr;
  mutable bool has_last_ = false;
};

struct Body {
  double half_width;
  double height;
  Aabb at(const Vec3& p) const {
    return Aabb{{p.x - half_width, p.y, p.z - half_width},
                {p.x + half_width, p.y + height, p.z + half_width}};
  }
};

struct AxisClip {
  double d = 0.0;        ///< allowed displacement
  bool clipped = false;  ///< a box stopped the move
  double contact = 0.0;  ///< the box face the body stopped against (world coordinate)
};

/// A cell coordinate along axis A (0 x, 1 y, 2 z) as a double.
template <int A>
double cell_axis(const CellPos& c) {
  if constexpr (A == 0) {
    return static_cast<double>(c.x);
  } else if constexpr (A == 1) {
    return static_cast<double>(c.y);
  } else {
    return static_cast<double>(c.z);
  }
}

/// Sweeps `body` along axis `a` by `d` against every box it could touch; the classic per-axis clip.
/// Boxes already overlapping the body are ignored (a body inside a block can leave it). One
/// instance per axis (the hot loop of the movement step: the axis indices are constants there).
template <int a>
AxisClip clip_axis_on(const Collider& col, const Aabb& body, double d) {
  AxisClip r;
  r.d = d;
  if (d == 0.0) return r;
  Aabb sweep = body;
  if (d > 0.0) {
    sweep.max[a] += d;
  } else {
    sweep.min[a] += d;
  }
  int lo[3], hi[3];
  for (int i = 0; i < 3; ++i) {
    lo[i] = floor_cell(sweep.min[i]);
    hi[i] = floor_cell(sweep.max[i]);
  }
  lo[1] -= 1;  // boxes reach up to 1.5 cells (fences): the cell below can touch the body
  constexpr int o1 = (a + 1) % 3, o2 = (a + 2) % 3;
  const bool up = d > 0.0;
  col.for_each_box(lo, hi, [&](const CellPos& c, const Box& b) {
    const double bmin_o1 = cell_axis<o1>(c) + static_cast<double>(b.min[o1]);
    const double bmax_o1 = cell_axis<o1>(c) + static_cast<double>(b.max[o1]);
    if (!(bmax_o1 > body.min[o1] + kEps && bmin_o1 < body.max[o1] - kEps)) return;
    const double bmin_o2 = cell_axis<o2>(c) + static_cast<double>(b.min[o2]);
    const double bmax_o2 = cell_axis<o2>(c) + static_cast<double>(b.max[o2]);
    if (!(bmax_o2 > body.min[o2] + kEps && bmin_o2 < body.max[o2] - kEps)) return;
    if (up) {
      const double face = cell_axis<a>(c) + static_cast<double>(b.min[a]);
      if (face < body.max[a] - kEps) return;  // overlapping or behind
      const double gap = face - body.max[a];
      if (gap <= r.d) {
        r.d = gap;
        r.clipped = true;
        r.contact = face;
      }
    } else {
      const double face = cell_axis<a>(c) + static_cast<double>(b.max[a]);
      if (face > body.min[a] + kEps) return;
      const double gap = face - body.min[a];
      if (gap >= r.d) {
        r.d = gap;
        r.clipped = true;
        r.contact = face;
      }
    }
  });
  return r;
}

AxisClip clip_axis(const Collider& col, const Aabb& body, int a, double d) {
  if (a == 0) return clip_axis_on<0>(col, body, d);
  if (a == 1) return clip_axis_on<1>(col, body, d);
  return clip_axis_on<2>(col, body, d);
}

/// Moves `p` along axis `a` by the clip result: the free displacement, or snapped to the contact
/// face (so a landing puts the feet exactly on the top of the box).
void apply_clip(Vec3& p, const Body& body, int a, double requested, const AxisClip& c) {
  if (!c.clipped) {
    set_axis(p, a, axis(p, a) + c.d);
    return;
  }
  const bool up = requested > 0.0;
  if (a == 1) {
    p.y = up ? c.contact - body.height : c.contact;
  } else {
    set_axis(p, a, up ? c.contact - body.half_width : c.contact + body.half_width);
  }
}

struct MoveResult {
  bool clip[3] = {false, false, false};
  bool ground = false;   ///< the last vertical move was stopped going down
  bool ceiling = false;  ///< stopped going up
};

void move_y(const Collider& col, const Body& body, Vec3& p, double dy, MoveResult& m) {
  const AxisClip c = clip_axis(col, body.at(p), 1, dy);
  apply_clip(p, body, 1, dy, c);
  m.clip[1] = c.clipped;
  m.ground = c.clipped && dy < 0.0;
  m.ceiling = c.clipped && dy > 0.0;
}

void move_xz(const Collider& col, const Body& body, Vec3& p, double dx, double dz,
             MoveResult& m) {
  const AxisClip cx = clip_axis(col, body.at(p), 0, dx);
  apply_clip(p, body, 0, dx, cx);
  m.clip[0] = cx.clipped;
  const AxisClip cz = clip_axis(col, body.at(p), 2, dz);
  apply_clip(p, body, 2, dz, cz);
  m.clip[2] = cz.clipped;
}

double horizontal_dist2(const Vec3& a, const Vec3& b) {
  const double dx = a.x - b.x, dz = a.z - b.z;
  return dx * dx + dz * dz;
}

bool params_valid(const BodyParams& p) {
  return std::isfinite(p.width) && p.width > 0.0 && p.width <= 16.0 && std::isfinite(p.height) &&
         p.height > 0.0 && p.height <= 16.0 && std::isfinite(p.step_height) &&
         p.step_height >= 0.0 && std::isfinite(p.gravity) && std::isfinite(p.jump_velocity) &&
         std::isfinite(p.terminal_speed) && p.terminal_speed >= 0.0 && std::isfinite(p.climb_speed);
}

bool position_in_range(const Vec3& p) {
  const double h = static_cast<double>(kMaxHorizontal) - kRangeMargin;
  const double v = static_cast<double>(kMaxVertical) - kRangeMargin;
  return p.x > -h && p.x < h && p.z > -h && p.z < h && p.y > -v && p.y < v;
}

}  // namespace

bool body_inside_blocks(const Space& world, const Vec3& feet, const BodyParams& params,
                        double tolerance) {
  if (!finite3(feet) || !params_valid(params) || !position_in_range(feet)) return false;
  const Collider col(world);
  const Body body{params.width * 0.5, params.height};
  const Aabb b = body.at(feet);
  int lo[3], hi[3];
  for (int a = 0; a < 3; ++a) {
    lo[a] = floor_cell(b.min[a] + tolerance);
    hi[a] = floor_cell(b.max[a] - tolerance);
  }
  lo[1] -= 1;  // boxes reach up to 1.5 cells (fences): the cell below can reach into the body
  for (int y = lo[1]; y <= hi[1]; ++y)
    for (int z = lo[2]; z <= hi[2]; ++z)
      for (int x = lo[0]; x <= hi[0]; ++x) {
        bool loaded = false;
        const std::uint16_t v = col.value(CellPos{x, y, z}, loaded);
        if (!loaded) continue;
        const double base[3] = {static_cast<double>(x), static_cast<double>(y),
                                static_cast<double>(z)};
        for (const Box& box : world.registry().type(v).boxes) {
          bool inside = true;
          for (int a = 0; a < 3 && inside; ++a)
            inside = base[a] + static_cast<double>(box.max[a]) > b.min[a] + tolerance &&
                     base[a] + static_cast<double>(box.min[a]) < b.max[a] - tolerance;
          if (inside) return true;
        }
      }
  return false;
}

IntegrateReport integrate_character_tick(BodyState& state, const DriveInput& input,
                                         const MotionOverride* motion, const Vec3& knock,
                                         std::uint16_t frame_yaw, std::uint32_t tick,
                                         const Space& world, const BodyParams& params, double dt) {
  IntegrateReport report;
  const bool override_ok = motion == nullptr || finite3(motion->velocity);
  if (!std::isfinite(dt) || !(dt > 0.0) || !params_valid(params) || !finite3(state.feet) ||
      !finite3(state.velocity) || !finite3(state.carry) || !finite3(knock) ||
      !std::isfinite(input.move_x) || !std::isfinite(input.move_z) ||
      !std::isfinite(input.vertical) || !override_ok || !position_in_range(state.feet)) {
    report.valid = false;
    return report;
  }

  const Collider col(world);
  const Body body{params.width * 0.5, params.height};
  const Vec3 start = state.feet;

  const bool in_fluid =
      state.mode == BodyMode::Swim && col.body_overlaps_trait(body.at(start), kTraitFluidSwim);
  report.in_fluid = in_fluid;
  // Fly and Swim-in-fluid move freely in 3D; everything else is under gravity.
  const bool free_3d = state.mode == BodyMode::Fly || in_fluid;

  // ---- 1. knock: one-shot world velocity change ----
  if (free_3d) {
    state.carry.x += knock.x;
    state.carry.y += knock.y;
    state.carry.z += knock.z;
  } else {
    state.velocity.y += knock.y;
    if (knock.y > 0.0) state.on_ground = false;
    state.carry.x += knock.x;
    state.carry.z += knock.z;
  }
  {
    const double c2 = state.carry.x * state.carry.x + state.carry.y * state.carry.y +
                      state.carry.z * state.carry.z;
    if (c2 > kCarryCap * kCarryCap) {
      const double s = kCarryCap / std::sqrt(c2);
      state.carry.x *= s;
      state.carry.y *= s;
      state.carry.z *= s;
    }
  }

  // ---- 2. velocity of this step ----
  const bool override_active =
      motion != nullptr && tick >= motion->start_tick && tick - motion->start_tick < motion->ticks;
  double hx = 0.0, hz = 0.0;  // horizontal velocity
  double vy = state.velocity.y;
  double dy = 0.0;
  bool gravity_mode = !free_3d;
  bool climbing = false;

  auto apply_gravity = [&]() { gravity_step(vy, dy, params, dt); };

  if (override_active) {
    double ox = motion->velocity.x, oz = motion->velocity.z;
    if (motion->character_frame) {
      const SinCos sc = det_sin_cos(frame_yaw);
      const double cx = ox, cz = oz;
      ox = cx * sc.cos + cz * sc.sin;
      oz = cz * sc.cos - cx * sc.sin;
    }
    hx = ox;
    hz = oz;
    if (motion->has_vertical) {
      gravity_mode = false;
      vy = motion->velocity.y;
      dy = vy * dt;
    } else if (free_3d) {
      vy = 0.0;
      dy = 0.0;
    } else {
      apply_gravity();
    }
  } else {
    hx = input.move_x + state.carry.x;
    hz = input.move_z + state.carry.z;
    if (free_3d) {
      vy = input.vertical + state.carry.y;
      dy = vy * dt;
    } else {
      const bool can_climb_mode = state.mode == BodyMode::Walk || state.mode == BodyMode::Climb;
      const bool jumping = input.jump && state.on_ground;
      // On a ladder while the feet are in its cell (as the game's players: the block at the
      // body's position), not when only the head reaches a rung.
      climbing = can_climb_mode && params.climb_speed > 0.0 && !jumping && knock.y == 0.0 &&
                 col.point_has_trait(start, kTraitClimbable);
      if (climbing) {
        switch (input.climb) {
          case ClimbIntent::Up:
            vy = params.climb_speed;
            break;
          case ClimbIntent::Down:
            vy = -params.climb_speed;
            break;
          case ClimbIntent::Hold:
            vy = 0.0;
            break;
          case ClimbIntent::None: {
            // Slides down, or climbs while the drive presses the body into a wall.
            bool pressing = false;
            if (hx != 0.0 || hz != 0.0) {
              const Aabb b0 = body.at(start);
              pressing = (hx != 0.0 && clip_axis(col, b0, 0, clamp_disp(hx * dt)).clipped) ||
                         (hz != 0.0 && clip_axis(col, b0, 2, clamp_disp(hz * dt)).clipped);
            }
            vy = pressing ? params.climb_speed : -kClimbSlideFraction * params.climb_speed;
            break;
          }
        }
        dy = vy * dt;
      } else {
        if (jumping) {
          vy = params.jump_velocity;
          state.on_ground = false;
        }
        apply_gravity();
      }
    }
  }
  if (state.mode == BodyMode::Walk || state.mode == BodyMode::Climb)
    state.mode = climbing ? BodyMode::Climb : BodyMode::Walk;
  report.climbing = climbing;

  const double req_dx = hx * dt, req_dz = hz * dt, req_dy = dy;
  const double dx = clamp_disp(req_dx), dz = clamp_disp(req_dz);
  dy = clamp_disp(dy);

  // ---- 3. collision: Y, then X, then Z ----
  const bool was_ground = state.on_ground;  // after knock and jump
  Vec3 p = start;
  MoveResult m;
  move_y(col, body, p, dy, m);
  move_xz(col, body, p, dx, dz, m);

  // ---- 4. step-up: a blocked horizontal move on the ground retries lifted by step_height ----
  const bool may_step = gravity_mode && params.step_height > 0.0 && (was_ground || m.ground);
  if (may_step && ((m.clip[0] && dx != 0.0) || (m.clip[2] && dz != 0.0))) {
    // The lift is clipped against the boxes over the whole horizontal sweep (the body's box
    // stretched by dx and dz), so under a ceiling that begins at the step's edge (a carpet at the
    // mouth of a two-high tunnel) the body rises only as far as the ceiling ahead allows and
    // slides in; lifted by the full step it would drive its head into that ceiling.
    Aabb reach = body.at(start);
    (dx > 0.0 ? reach.max[0] : reach.min[0]) += dx;
    (dz > 0.0 ? reach.max[2] : reach.min[2]) += dz;
    const double lift = clip_axis(col, reach, 1, params.step_height).d;
    Vec3 q = start;
    q.y += lift;
    MoveResult s;
    move_xz(col, body, q, dx, dz, s);
    const bool sx = s.clip[0], sz = s.clip[2];
    move_y(col, body, q, -lift + dy, s);  // settle back down, including this step's own fall
    s.clip[0] = sx;
    s.clip[2] = sz;
    if (horizontal_dist2(q, start) > horizontal_dist2(p, start)) {
      p = q;
      m = s;
      if (p.y > start.y) {
        report.stepped_up = true;
        report.step_rise = p.y - start.y;
      }
    }
  }

  // ---- 5. contacts ----
  if (m.ground) {
    if (!was_ground) {
      report.landed = true;
      report.landing_speed = vy < 0.0 ? -vy : 0.0;
    }
    state.on_ground = true;
    if (vy < 0.0) vy = 0.0;
  } else if (m.ceiling) {
    report.hit_ceiling = true;
    state.on_ground = false;
    if (vy > 0.0) vy = 0.0;
  } else if (dy != 0.0) {
    state.on_ground = false;
  } else {
    state.on_ground = clip_axis(col, body.at(p), 1, -kGroundProbe).clipped;
  }
  if (m.clip[0] && dx != 0.0) {
    report.hit_wall |= kHitX;
    report.wall_speed = std::fabs(hx);
    hx = 0.0;
    state.carry.x = 0.0;
  }
  if (m.clip[2] && dz != 0.0) {
    report.hit_wall |= kHitZ;
    const double s = std::fabs(hz);
    if (s > report.wall_speed) report.wall_speed = s;
    hz = 0.0;
    state.carry.z = 0.0;
  }
  if (free_3d && m.clip[1]) state.carry.y = 0.0;

  state.feet = p;
  state.velocity = Vec3{hx, vy, hz};

  // ---- 6. carry decay: exp(-rate dt), 12/s grounded / flying / swimming, 0.5/s in the air ----
  const double rate = (state.on_ground || free_3d) ? kCarryDecayGrounded : kCarryDecayAir;
  const double keep = det_exp_neg(rate * dt);
  state.carry.x *= keep;
  state.carry.y *= keep;
  state.carry.z *= keep;
  if (std::fabs(state.carry.x) < kCarryRest) state.carry.x = 0.0;
  if (std::fabs(state.carry.y) < kCarryRest) state.carry.y = 0.0;
  if (std::fabs(state.carry.z) < kCarryRest) state.carry.z = 0.0;

  report.displacement = Vec3{p.x - start.x, p.y - start.y, p.z - start.z};
  if (override_active) {
    OverrideReport& o = report.override_report;
    o.applied = true;
    o.requested = Vec3{req_dx, req_dy, req_dz};
    o.achieved = report.displacement;
    o.stopped = (m.clip[0] && dx != 0.0) || (m.clip[2] && dz != 0.0) ||
                (motion->has_vertical && m.clip[1]) || dx != req_dx || dz != req_dz || dy != req_dy;
  }
  return report;
}

}  // namespace voxnav::detail
