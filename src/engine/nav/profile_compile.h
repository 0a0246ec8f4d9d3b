// A profile compiled to what navigation uses: integer costs, the jump velocity and the gap reach.
// Everything here is derived deterministically (IEEE +,-,*,/,sqrt, floor), so native and wasm
// builds compile a profile to the same integers.
#pragma once
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

struct CompiledProfile {
  /// sqrt(2 g jump_apex), m/s, g = the integrator's gravity (BodyParams::gravity, 32 m/s^2).
  double jump_velocity = 0.0;
  /// Cells of air a gap jump clears. Auto (gap_jump -1): floor(walk_speed * 2v/g - 0.5), the
  /// distance covered at walking speed during the jump's flight time 2v/g, less half a cell for
  /// the take-off and landing, clamped to 0 .. kMaxGapJump. A gap_jump given in the profile is
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
