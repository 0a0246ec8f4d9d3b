// Agents the game controls: the facing (a 16-bit binary angle turned at the profile's turn rate
// with the library's own trigonometry), the drive it shapes (walk or sprint; a body that cannot
// strafe turns before it moves sideways), and knockback (a pending impulse taken at the agent's
// step, then a lock during which the follower neither steers nor watches for being stuck).
// Deterministic: IEEE + - * / sqrt floor only, no libm transcendental (docs/agents.md#facing).
#pragma once
#include <cstdint>

#include "engine/integrate/integrate.h"
#include "voxnav/control.h"
#include "voxnav/types.h"

namespace voxnav::detail {

/// Binary angle units in one turn.
inline constexpr double kYawUnitsPerTurn = 65536.0;

/// The binary angle of the horizontal direction (dx, dz) in the integrator's convention (65536 =
/// one turn, counter-clockwise seen from above, 0 faces -Z, 16384 faces -X), rounded to the
/// nearest unit; 0 for a zero or non-finite direction. Octant reduction, two argument halvings
/// (atan t = 2 atan(t / (1 + sqrt(1 + t^2)))) and a Taylor series: within one unit of the true
/// angle, the same bits everywhere.
std::uint16_t yaw_of_direction(double dx, double dz);

/// The unit direction (x, z) a binary angle faces: (-sin, -cos) with det_sin_cos.
void direction_of_yaw(std::uint16_t yaw, double& dx, double& dz);

/// The signed turn from `from` to `to`, -32768 .. 32767 units (the short way round).
inline int yaw_difference(std::uint16_t from, std::uint16_t to) {
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(to - from));
}

/// `yaw` turned toward `target` by at most `max_step` units (the short way round).
std::uint16_t turn_toward(std::uint16_t yaw, std::uint16_t target, std::uint32_t max_step);

/// The profile settings the controller reads (compiled from the Profile).
struct ControlParams {
  double turn_rate = 720.0;      ///< degrees per second
  double sprint_speed = 5.6;     ///< m/s
  bool strafe = false;           ///< moves sideways without turning first
  double knock_resistance = 0.0; ///< fraction of an impulse ignored, 0 .. 1
};

/// The largest turn of one step of `dt` seconds at `turn_rate` degrees per second, in units
/// (floor; at least 1).
std::uint32_t turn_step_units(double turn_rate, double dt);

// The lock's lengths are public: kKnockLockTicks and kKnockLockMaxTicks (voxnav/control.h).

/// What the controller keeps per agent (AgentRecord::control).
struct AgentControl {
  std::uint16_t yaw = 0;  ///< facing, binary angle
  bool sprint = false;    ///< cruise at the profile's sprint speed instead of its walk speed
  /// Impulses given since the agent's last step (already scaled by the resistance), m/s.
  Vec3 pending_knock;
  bool knock_pending = false;
  /// Knockback lock: set when a knock is taken; ends kKnockLockTicks steps after the body is
  /// back on the ground (or kKnockLockMaxTicks after it began).
  bool locked = false;
  int lock_ground_ticks = 0;  ///< steps on the ground since the lock began
  int lock_ticks = 0;         ///< steps since the lock began
  std::uint32_t knocks = 0;   ///< knocks taken (at a step)
  std::uint32_t lock_resumes = 0;  ///< locks that ended with the route resumed as it was
  std::uint32_t lock_replans = 0;  ///< locks that ended off the corridor (the agent replanned)
};

/// A body that cannot strafe walks only while its facing is less than this many units (a
/// quarter turn) off its drive: it never walks sideways or backwards; farther off it turns on
/// the spot.
inline constexpr int kStrafeTurnUnits = 16384;

/// Turns the facing toward the horizontal drive and, for a walking body on the ground that
/// cannot strafe, drops the drive (and a jump) while the facing is still kStrafeTurnUnits or
/// more off it (the body turns on the spot first). Swimmers, climbers and bodies in the air keep the drive
/// (they only turn). A drive under 1e-9 m/s turns nothing. While `recovering` (the stuck watch's
/// jump, back-off and sidestep) the drive is left whole and the facing where it is: a creature
/// steps back or aside without turning round, and recovery works as it did before facings.
void shape_drive(AgentControl& c, const ControlParams& p, const BodyState& body, bool swims,
                 bool recovering, double dt, DriveInput& in);

/// The knock to hand the movement step this tick (zero for none): the pending impulse, which
/// then starts (or restarts) the lock.
Vec3 take_knock(AgentControl& c);

/// Advances the lock after a step: returns true when it ended at this step.
bool advance_lock(AgentControl& c, const BodyState& body);

}  // namespace voxnav::detail
