// The one movement step shared by players and agents: gravity, swept box collision against the
// block collision boxes of a Space, step-up, landing, walk / fly / swim / climb, knock and carry,
// motion overrides. Units: metres = cells (cell_size 1), seconds. Everything is computed in double
// precision in a fixed order with IEEE +,-,*,/,sqrt only (no libm transcendental decides a result),
// so the same inputs give bit-identical results natively and in wasm. See docs/integrator.md.
#pragma once
#include <cstdint>

#include "engine/world/space.h"
#include "voxnav/integrate.h"

namespace voxnav::detail {

/// The drive of one step (keys of a player, or the follower's output for an agent).
struct DriveInput {
  double move_x = 0.0;  ///< desired horizontal velocity, m/s (world frame)
  double move_z = 0.0;
  bool jump = false;                      ///< jumps when on the ground (Walk)
  ClimbIntent climb = ClimbIntent::None;  ///< used while climbing
  double vertical = 0.0;                  ///< vertical velocity for Fly and Swim (in fluid), m/s
};

/// A scripted displacement (root motion, ability) replacing the drive for `ticks` steps starting at
/// `start_tick`. Carry is not added to it; jump and climb intents are ignored while it applies.
struct MotionOverride {
  /// m/s; world frame, or character frame (-Z forward) rotated by frame_yaw.
  Vec3 velocity;
  bool character_frame = false;  ///< true: velocity x/z are rotated by the step's frame_yaw
  /// true: velocity.y replaces vertical motion and gravity is suspended.
  bool has_vertical = false;
  std::uint32_t start_tick = 0;
  std::uint32_t ticks = 1;  ///< applies while start_tick <= tick < start_tick + ticks
};

/// Axes a step was blocked on (bit flags of IntegrateReport::hit_wall).
enum HitAxis : std::uint8_t { kHitX = 1u << 0, kHitZ = 1u << 1 };

/// Requested vs achieved displacement of a step that applied an override.
struct OverrideReport {
  bool applied = false;
  /// What the override asked for this step (gravity's share on y when !has_vertical).
  Vec3 requested;
  Vec3 achieved;
  bool stopped = false;  ///< a collision cut a requested component (x, z, or y when has_vertical)
};

/// What one step did.
struct IntegrateReport {
  bool valid = true;           ///< false: non-finite or out-of-range input; nothing moved
  Vec3 displacement;     ///< achieved (position after - position before)
  std::uint8_t hit_wall = 0;   ///< HitAxis bits: a horizontal axis stopped by a box (after step-up)
  double wall_speed = 0.0;     ///< impact sample: largest speed into a blocking wall, m/s
  bool hit_ceiling = false;    ///< an upward move stopped by a box
  bool landed = false;         ///< came down onto a box this step after not being on the ground
  double landing_speed = 0.0;  ///< impact sample: downward speed at the landing, m/s
  bool stepped_up = false;     ///< a blocked horizontal move was taken by step-up
  double step_rise = 0.0;      ///< how much higher the feet ended when stepped_up
  bool climbing = false;       ///< the climb branch moved the body this step
  bool in_fluid = false;       ///< Swim mode with the body in a swimmable fluid
  OverrideReport override_report;
};

/// One movement step. `motion` may be null (no override); `knock` is a one-shot world-frame
/// velocity change (zero for none); `frame_yaw` is the facing as a 16-bit binary angle (65536 = one
/// turn, counter-clockwise seen from above, 0 faces -Z) used by character-frame overrides; `tick`
/// selects whether the override applies. Cells of unloaded chunks collide as full blocks.
/// Allocation-free; `state` is left unchanged when the report is not valid.
IntegrateReport integrate_character_tick(BodyState& state, const DriveInput& input,
                                         const MotionOverride* motion, const Vec3& knock,
                                         std::uint16_t frame_yaw, std::uint32_t tick,
                                         const Space& world, const BodyParams& params, double dt);

/// The same step without override, facing or tick.
inline IntegrateReport integrate_character_tick(BodyState& state, const DriveInput& input,
                                                const Vec3& knock, const BodyParams& params,
                                                const Space& world, double dt) {
  return integrate_character_tick(state, input, nullptr, knock, 0, 0, world, params, dt);
}

/// Whether a body of `params` with its feet at `feet` overlaps a collision box of a loaded cell
/// by more than `tolerance` (cells) on every axis: blocks were put inside it (the step itself
/// lets such a body leave, since it ignores boxes it already overlaps). Touching is not
/// overlapping; cells of unloaded chunks do not count here (the step collides with them as full
/// cubes, but nobody put blocks there). Used by agents after edits (docs/agents.md#embedded).
bool body_inside_blocks(const Space& world, const Vec3& feet, const BodyParams& params,
                        double tolerance);

/// The simulation's tick (20 Hz): the step navigation judges sampled motion at (World::tick's
/// usual dt; docs/integrator.md).
inline constexpr double kSimulationTick = 0.05;

/// The vertical part of one gravity step, exactly as integrate_character_tick applies it: the
/// velocity `vy` after `dt` (capped at -terminal_speed) and the step's displacement `dy`
/// (trapezoid rule: exact ballistic positions at step boundaries).
inline void gravity_step(double& vy, double& dy, const BodyParams& params, double dt) {
  double v_new = vy - params.gravity * dt;
  if (v_new < -params.terminal_speed) v_new = -params.terminal_speed;
  dy = (vy + v_new) * 0.5 * dt;
  vy = v_new;
}

/// The highest rise of the feet, metres, that a jump of `params` (take-off at jump_velocity, in
/// free space) reaches at the step boundaries of `dt`: the movement step moves the body only at
/// those, so this, not the analytic apex v^2 / 2g, is the highest ledge top a jump lands on
/// (1.2430 for the standard walker at 20 Hz against an apex of 1.25). 0 for no jump.
double sampled_jump_apex(const BodyParams& params, double dt);

/// Carry decay rates (1/s) and cap (m/s), and the speed under which carry is dropped to zero.
inline constexpr double kCarryDecayGrounded = 12.0;  ///< also flying and swimming
inline constexpr double kCarryDecayAir = 0.5;
inline constexpr double kCarryCap = 80.0;
inline constexpr double kCarryRest = 1e-4;
/// Climbing with ClimbIntent::None slides down at this fraction of climb_speed.
inline constexpr double kClimbSlideFraction = 0.15;
/// Largest displacement per axis of one step, in cells (guards huge dt or drive).
inline constexpr double kMaxStepDisplacement = 64.0;

}  // namespace voxnav::detail
