// voxnav - the movement step: the one integrator players and agents share, for a body you own.
//
// Agents are moved by World::tick; step_body moves any other body (a player, a projectile-like
// creature the game drives itself) with exactly the same physics against the World's blocks, so
// a client-side prediction and the server agree bit for bit (natively and in wasm).
//
// Units: metres (= cells at cell_size 1), seconds, metres per second. y is up. Positions are feet
// positions: the centre of the bottom face of the body box. See docs/integrator.md.
#pragma once
#include <cstdint>
#include <string>

#include "voxnav/error.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav {

class World;
struct ProfileId;

/// How the body moves. Walk and Climb switch between themselves automatically (a body with
/// climb_speed > 0 overlapping a climbable cell climbs); Fly and Swim are chosen by the caller.
enum class BodyMode : std::uint8_t { Walk = 0, Fly, Swim, Climb };
/// Name used by the JS package: "walk", "fly", "swim", "climb".
const char* body_mode_name(BodyMode m) noexcept;

/// What a climbing body wants to do (ignored unless the body climbs).
enum class ClimbIntent : std::uint8_t { None = 0, Up, Down, Hold };
/// "none", "up", "down", "hold".
const char* climb_intent_name(ClimbIntent c) noexcept;

/// The body's state, owned by the caller and updated by each step.
struct BodyState {
  Vec3 feet;      ///< metres; must be finite and inside the cell range (|x|, |z| < 2^25 - 136)
  Vec3 velocity;  ///< m/s; y persists between steps (gravity, jumps), x/z report the last step
  bool on_ground = false;
  BodyMode mode = BodyMode::Walk;
  Vec3 carry;  ///< knock velocity carried over steps, m/s (decays; capped at 80 m/s)
};

/// The drive of one step: what the keys (or an AI) ask for.
struct BodyInput {
  double move_x = 0.0;  ///< desired horizontal velocity, m/s, world frame (finite)
  double move_z = 0.0;
  bool jump = false;  ///< jumps when on the ground (Walk)
  ClimbIntent climb = ClimbIntent::None;
  double vertical = 0.0;  ///< vertical velocity for Fly, and Swim inside a fluid, m/s (finite)
  Vec3 knock;             ///< one-shot velocity change this step, m/s (zero for none)
};

/// The body and its physics. The defaults are the standard walker (0.6 x 1.8, step 0.6, jump
/// apex 1.25, Minecraft's gravity and terminal speed).
struct BodyParams {
  double width = 0.6;        ///< square footprint side, metres: (0, 16]
  double height = 1.8;       ///< metres: (0, 16]
  double step_height = 0.6;  ///< highest rise taken without a jump, metres: >= 0 (0 = none)
  double gravity = 32.0;     ///< m/s^2, finite
  double jump_velocity = 8.94427190999915878564;  ///< take-off speed, m/s: sqrt(2 * 32 * 1.25)
  double terminal_speed = 78.4;                   ///< fastest fall, m/s: >= 0
  double climb_speed = 0.0;                       ///< > 0 lets the body climb climbable cells, m/s
};

/// sqrt(2 * gravity * apex): the take-off speed whose jump peaks `apex` metres up (IEEE sqrt,
/// deterministic); 0 when the product is not positive.
double jump_velocity_for_apex(double gravity, double apex) noexcept;

/// What one step did.
struct StepReport {
  Vec3 displacement;           ///< achieved: feet after - feet before, metres
  bool hit_wall_x = false;     ///< the x axis was stopped by a box (after step-up)
  bool hit_wall_z = false;     ///< the z axis was stopped by a box (after step-up)
  double wall_speed = 0.0;     ///< largest speed into a blocking wall, m/s
  bool hit_ceiling = false;    ///< an upward move was stopped by a box
  bool landed = false;         ///< came down onto a box this step after being airborne
  double landing_speed = 0.0;  ///< downward speed at the landing, m/s
  bool stepped_up = false;     ///< a blocked horizontal move was taken by step-up
  double step_rise = 0.0;      ///< how much higher the feet ended when stepped_up, metres
  bool climbing = false;       ///< the climb branch moved the body
  bool in_fluid = false;       ///< Swim mode with the body inside a swimmable fluid
};

/// The body of a profile added to `world` (its width, height, step height, jump apex and climb
/// speed); the rest keeps the defaults. Returns: Ok; InvalidArgument (`profile` not one of the
/// world's, a null `out`; `error`, may be null, names the argument and says why).
Status profile_body(const World& world, ProfileId profile, BodyParams* out,
                    CallError* error = nullptr);

/// Moves `state` by one step of `dt` seconds against the blocks of `world`: knock, gravity
/// (trapezoid rule), swept box collision (y, then x, then z) against every block's collision
/// boxes, step-up, landing, climbing, flying and swimming, carry decay. Cells of chunks that are
/// not loaded collide as full blocks. Allocation-free; never changes the world.
///
/// Errors (then `state` is unchanged and `error`, when non-null, gets the bad field as its
/// argument, e.g. "params.width", and a message such as "params.width 0 is not in (0, 16]"):
/// - InvalidArgument: dt not in (0, 1]; a non-finite number in state, input or params; params out
///   of the ranges above; a mode or climb intent that is not one of the enum's values.
/// - OutOfRange: state.feet outside the cell range.
Status step_body(const World& world, BodyState& state, const BodyInput& input,
                 const BodyParams& params, double dt, StepReport* report = nullptr,
                 CallError* error = nullptr);

/// How a body of `params` (its gravity and jump velocity) runs a gap jump over `cells` cells of
/// open air (a GapJump waypoint cells + 1 cells along from the one before it), as the agents'
/// follower does: `*speed` (m/s) the run's speed, the one whose flight lands on the landing
/// cell's centre, kept between `walk_speed` and `sprint_speed`; `*take_off` (cells) the
/// horizontal distance to the landing cell's centre at which it jumps (a quarter cell past the
/// take-off cell's centre). For hosts that drive their own bodies along voxnav's corridors.
/// Returns: Ok; InvalidArgument ("cells" not 1..8; a speed not finite and positive, or
/// sprint_speed below walk_speed; "params.gravity" or "params.jump_velocity" not positive; a null
/// `speed` or `take_off`).
Status gap_jump_run(const BodyParams& params, int cells, double walk_speed, double sprint_speed,
                    double* speed, double* take_off, CallError* error = nullptr);

}  // namespace voxnav
