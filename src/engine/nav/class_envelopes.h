// The body envelope and move limits of each movement class (navigation data is per class).
#pragma once
#include <cmath>

#include "engine/classify/nav_grid.h"
#include "engine/integrate/integrate.h"
#include "voxnav/profile.h"

namespace voxnav::detail {

struct ClassLimits {
  double width, height;  ///< envelope, cells
  double step_height;    ///< cells
  double jump_apex;      ///< cells
  int max_drop;          ///< cells
  bool can_climb;
};

/// walker_small 0.6 x 0.95, walker 0.6 x 1.8, walker_large 1.98 x 2.95 (a 2x2 footprint),
/// swimmer 0.98 x 0.98, flyer 0.98 x 1.95. The walker's envelope is the default body (0.6 x 1.8),
/// not a 1.95 zombie: a 1.95 envelope refused every cell with 1.8 to 1.95 of headroom (a carpet
/// or snow layer in a 2-high tunnel, a top trapdoor), which natural terrain hardly has but built
/// places do (docs/terrain.md#classes-and-body-heights, issue 18 cause 10). A profile's step and
/// drop are honoured up to the class's step_height and max_drop (what its move words hold) and
/// refused by name above them (validate_profile).
inline const ClassLimits& class_limits(MovementClass c) {
  static const ClassLimits k[5] = {
      {0.6, 0.95, 0.6, 1.25, 3, true},    // walker_small
      {0.6, 1.8, 0.6, 1.25, 3, true},     // walker
      {1.98, 2.95, 1.0, 1.25, 4, false},  // walker_large
      {0.98, 0.98, 0.0, 0.0, 0, false},   // swimmer
      {0.98, 1.95, 0.0, 0.0, 0, false},   // flyer
  };
  return k[static_cast<int>(c)];
}

/// Cells of open air the gap jumps of the walker classes' navigation cross (ClassEnvelope::
/// gap_reach): the reach a profile with the default walk speed and jump apex compiles to (a walking
/// jump's flight 4.317 * 2 sqrt(2 g 1.25) / g = 2.41 cells with g = 32: a gap of 2, see
/// CompiledProfile::gap_reach; the gap words hold up to kMaxGapCells). A longer compiled reach is
/// capped at it; a shorter one restricts the class (its searches take the gaps it reaches).
inline constexpr int kClassGapReach = 2;
static_assert(kClassGapReach <= kMaxGapCells, "the gap words hold jumps over kMaxGapCells cells");

/// The highest rise a jump of apex `apex` cells lands on, in layer 0 units (1/64 cell), rounded
/// down: the height the movement step's own jump reaches at the simulation's tick
/// (sampled_jump_apex at kSimulationTick, gravity of BodyParams), not the analytic apex (the
/// standard walker's 1.25 apex reaches 1.2430 at 20 Hz: 79 units, not 80).
inline int jump_rise_q(double apex) {
  BodyParams body;
  body.jump_velocity = jump_velocity_for_apex(body.gravity, apex);
  return static_cast<int>(std::floor(sampled_jump_apex(body, kSimulationTick) * kHeightUnits + 1e-9));
}

/// The body envelope of a class in layer 0 units (1/64 cell): half width and height rounded up,
/// step and jump (the sampled jump's rise, jump_rise_q) rounded down, so classification never lets a body through a gap it does not fit.
/// Swimmers classify water cells (ClassEnvelope::swimmer); walker_large stands on a 2x2 footprint
/// of foot cells (ClassEnvelope::footprint2).
inline ClassEnvelope class_envelope(MovementClass c) {
  const ClassLimits& l = class_limits(c);
  ClassEnvelope e;
  e.half_width_q = static_cast<int>(std::ceil(l.width * 0.5 * kHeightUnits - 1e-9));
  e.height_q = static_cast<int>(std::ceil(l.height * kHeightUnits - 1e-9));
  e.step_q = static_cast<int>(std::floor(l.step_height * kHeightUnits + 1e-9));
  e.jump_q = jump_rise_q(l.jump_apex);
  e.max_drop = l.max_drop;
  e.swimmer = c == MovementClass::Swimmer;
  e.gap_reach = c == MovementClass::Walker || c == MovementClass::WalkerSmall ? kClassGapReach : 0;
  e.climbs = l.can_climb;
  if (c == MovementClass::WalkerLarge) {
    // Four columns, each read over its whole cell (see ClassEnvelope::footprint2).
    e.footprint2 = true;
    e.half_width_q = kHeightUnits / 2;
  }
  return e;
}

}  // namespace voxnav::detail
