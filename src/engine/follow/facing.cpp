#include "engine/follow/facing.h"

#include <cmath>

#include "engine/integrate/integrate_math.h"

namespace voxnav::detail {

namespace {

constexpr double kPi = 3.14159265358979323846;

/// atan(t) for t in [0, 1]: two halvings bring t under tan(pi/16) ~ 0.199, where the series to
/// degree 27 leaves an error below 1e-19.
double atan_unit(double t) {
  for (int i = 0; i < 2; ++i) t = t / (1.0 + std::sqrt(1.0 + t * t));
  const double t2 = t * t;
  double term = t, sum = t;
  for (int k = 1; k <= 13; ++k) {
    term = -term * t2;
    sum = sum + term / static_cast<double>(2 * k + 1);
  }
  return sum * 4.0;
}

}  // namespace

std::uint16_t yaw_of_direction(double dx, double dz) {
  if (!std::isfinite(dx) || !std::isfinite(dz) || (dx == 0.0 && dz == 0.0)) return 0;
  // sin(yaw) = -dx / r and cos(yaw) = -dz / r: yaw = atan2(-dx, -dz).
  const double y = -dx, x = -dz;
  const double ax = std::fabs(x), ay = std::fabs(y);
  const bool steep = ay > ax;
  double a = atan_unit(steep ? ax / ay : ay / ax);
  if (steep) a = kPi * 0.5 - a;
  if (x < 0.0) a = kPi - a;
  if (y < 0.0) a = -a;
  const double units = std::floor(a * (32768.0 / kPi) + 0.5);
  return static_cast<std::uint16_t>(static_cast<std::int64_t>(units) & 0xFFFF);
}

void direction_of_yaw(std::uint16_t yaw, double& dx, double& dz) {
  const SinCos sc = det_sin_cos(yaw);
  dx = -sc.sin + 0.0;
  dz = -sc.cos + 0.0;
}

std::uint16_t turn_toward(std::uint16_t yaw, std::uint16_t target, std::uint32_t max_step) {
  const int diff = yaw_difference(yaw, target);
  const std::uint32_t size = static_cast<std::uint32_t>(diff < 0 ? -diff : diff);
  if (size <= max_step) return target;
  const int step = diff < 0 ? -static_cast<int>(max_step) : static_cast<int>(max_step);
  return static_cast<std::uint16_t>(yaw + step);
}

std::uint32_t turn_step_units(double turn_rate, double dt) {
  const double u = std::floor(turn_rate * dt * (kYawUnitsPerTurn / 360.0));
  if (!(u >= 1.0)) return 1;
  if (u >= 32768.0) return 32768;
  return static_cast<std::uint32_t>(u);
}

void shape_drive(AgentControl& c, const ControlParams& p, const BodyState& body, bool swims,
                 bool recovering, double dt, DriveInput& in) {
  if (recovering) return;  // backing off or sidestepping: a step, facing where it was
  const double speed2 = in.move_x * in.move_x + in.move_z * in.move_z;
  if (!(speed2 > 1e-18)) return;
  const std::uint16_t target = yaw_of_direction(in.move_x, in.move_z);
  c.yaw = turn_toward(c.yaw, target, turn_step_units(p.turn_rate, dt));
  if (p.strafe || swims || !body.on_ground || body.mode != BodyMode::Walk) return;
  // kStrafeTurnUnits (a quarter turn) or more off the drive after this tick's turn: stand and
  // turn. Closer: the whole drive. (All or nothing keeps the follower's geometry: the body walks
  // the same lines, only later; a partial speed would move the points where it passes its
  // waypoints, and with them every route's outcome.)
  const int diff = yaw_difference(c.yaw, target);
  const int err = diff < 0 ? -diff : diff;
  if (err >= kStrafeTurnUnits) {
    in.move_x = 0.0;
    in.move_z = 0.0;
    in.jump = false;  // a jump taken while turning would leave the ground facing the wrong way
  }
}

Vec3 take_knock(AgentControl& c) {
  if (!c.knock_pending) return Vec3{};
  const Vec3 k = c.pending_knock;
  c.pending_knock = Vec3{};
  c.knock_pending = false;
  c.locked = true;
  c.lock_ground_ticks = 0;
  c.lock_ticks = 0;
  ++c.knocks;
  return k;
}

bool advance_lock(AgentControl& c, const BodyState& body) {
  if (!c.locked) return false;
  ++c.lock_ticks;
  // Down: standing, or swimming, flying or climbing (no ballistic arc to wait for: such a
  // lock ends by ticks alone).
  const bool down = body.on_ground || body.mode != BodyMode::Walk;
  c.lock_ground_ticks = down ? c.lock_ground_ticks + 1 : 0;
  if (c.lock_ground_ticks >= kKnockLockTicks || c.lock_ticks >= kKnockLockMaxTicks) {
    c.locked = false;
    c.lock_ground_ticks = 0;
    c.lock_ticks = 0;
    return true;
  }
  return false;
}

}  // namespace voxnav::detail
