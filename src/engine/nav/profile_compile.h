// A profile compiled to what navigation uses: integer costs, the jump velocity and the gap reach.
// Everything here is derived deterministically (IEEE +,-,*,/,sqrt, floor), so native and wasm
// builds compile a profile to the same integers.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/profile.h"

namespace voxnav::detail {

/// path_cost of an impassable path type: the profile never enters such a cell.
inline constexpr std::uint32_t kPathCostImpassable = 0xFFFFFFFFu;

/// The longest gap jump a profile plans, cells (the upper bound of Profile::gap_jump).
inline constexpr int kMaxGapJump = 8;
/// Where the follower takes off for a gap jump: this far (cells) past the take-off cell's centre,
/// before its edge. The body then lands with its centre within half a cell plus its half width
/// (0.3) of the landing cell's near edge when its flight covers reach - kGapTakeOff - 0.8 cells;
/// a gap of n cells (reach n + 1) is planned when the flight covers n + kGapMargin - 0.05 cells.
inline constexpr double kGapTakeOff = 0.25;
inline constexpr double kGapMargin = 0.2;
/// A jump's flight time back to its take-off height, s: 2v/g.
inline double gap_flight_time(double jump_velocity, double gravity) {
  return 2.0 * jump_velocity / gravity;
}
/// The speed the follower runs a gap jump landing `reach` cells along at (m/s): the speed whose
/// flight from kGapTakeOff past the take-off centre ends on the landing centre, within the
/// body's walking and sprinting speeds (a short gap at walking speed lands past the centre, within
/// the landing cell; a long one is run up).
inline double gap_run_speed(int reach, double walk, double sprint, double jump_velocity,
                            double gravity) {
  const double want = (reach - kGapTakeOff) / gap_flight_time(jump_velocity, gravity);
  return std::min(std::max(want, walk), std::max(walk, sprint));
}

struct CompiledProfile {
  /// sqrt(2 g jump_apex), m/s, g = the integrator's gravity (BodyParams::gravity, 32 m/s^2).
  double jump_velocity = 0.0;
  /// Cells of air a gap jump clears. Auto (gap_jump -1): floor(speed * 2v/g - kGapMargin + 0.05)
  /// at the faster of the walking and sprinting speeds, from the distance covered during the
  /// jump's flight time 2v/g, the take-off spot and the landing tolerance (kGapTakeOff), clamped
  /// to 0 .. kMaxGapJump: 2 for the default walker (2.41 cells of flight walking); the follower
  /// runs each gap at gap_run_speed. A gap_jump given in the profile is
  /// used when it is smaller, but never more than the auto value: the follower runs the route
  /// with the integrator, whose jump cannot carry the body further than that, so a longer planned
  /// gap would be a move the body fails. 0 for walker_large, swimmer and flyer (no gap jumps).
  int gap_reach = 0;
  /// Extra cost of entering a cell of each path type (indexed by PathType), in search cost units:
  /// malus * kCostStraight (10000 = one cell of level walking); kPathCostImpassable when the
  /// malus is kImpassable.
  std::array<std::uint32_t, kPathTypeCount> path_cost{};
  /// Extra cost per dropped cell: drop_malus quarter cells, drop_malus * kCostStraight / 4.
  std::uint32_t drop_extra = 0;
  /// A surface cost: added (it may be negative) when a move enters a cell whose surface block is
  /// one of `blocks` (names without "minecraft:"). cost = round(SurfaceMalus::cost * 10000),
  /// -6000 .. 10^7. With cost >= -6000 and every move covering at least one cell (10000), a move
  /// never costs less than 0.4 of its distance: an A* heuristic must be scaled by 0.4 when any
  /// surface cost is negative to stay admissible.
  struct Surface {
    std::vector<std::string> blocks;
    std::int32_t cost = 0;
  };
  std::vector<Surface> surfaces;
  /// The profile restricts what its class can do (the warning condition of validate_profile):
  /// step, jump or drop below the class's, or slow / danger / open-door cells impassable. Damage
  /// cells, closed doors, climbable and water are not counted: reachability gates those itself.
  bool restricts_class = false;
};

/// Compiles a profile (which should have passed validate_profile).
CompiledProfile compile_profile_costs(const Profile& p);

/// Why a profile restricts its class, naming the fields, e.g. `field "max_drop": 1 is below the
/// class's 3; field "malus.slow": impassable`; "" when it does not.
std::string class_restrictions(const Profile& p);

/// A block name as the registry spells it: without a "minecraft:" prefix.
std::string_view canonical_block_name(std::string_view name);

}  // namespace voxnav::detail
