#include "engine/nav/profile_compile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/integrate/integrate.h"
#include "engine/nav/class_envelopes.h"
#include "engine/search/astar.h"

namespace voxnav::detail {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The integrator's gravity: a compiled jump is the jump the follower's body makes.
double gravity() { return BodyParams{}.gravity; }

// Cells of air a gap jump of profile p clears (CompiledProfile::gap_reach).
int gap_reach_of(const Profile& p) {
  if (p.movement_class != MovementClass::WalkerSmall && p.movement_class != MovementClass::Walker)
    return 0;
  const double g = gravity();
  // A gap of n cells lands n + 1 cells from the take-off centre. Taking off kGapTakeOff past it,
  // the body flies (2v/g at up to its sprinting speed, gap_run_speed) to within 0.8 of the landing
  // centre (half a cell and its half width 0.3), with kGapMargin to spare:
  // n + 1 - kGapTakeOff - 0.8 + kGapMargin <= flight.
  const double flight = std::max(p.walk_speed, p.sprint_speed) *
                        gap_flight_time(jump_velocity_for_apex(g, p.jump_apex), g);
  const double reach = std::floor(flight - (1.0 - kGapTakeOff - 0.8) - kGapMargin);
  int auto_reach = 0;
  if (reach > 0) auto_reach = reach >= kMaxGapJump ? kMaxGapJump : static_cast<int>(reach);
  // A given gap_jump only narrows the reach: the body cannot jump further than its physics.
  return p.gap_jump < 0 ? auto_reach : std::min(p.gap_jump, auto_reach);
}

}  // namespace

std::string_view canonical_block_name(std::string_view name) {
  constexpr std::string_view kNamespace = "minecraft:";
  if (name.substr(0, kNamespace.size()) == kNamespace) name.remove_prefix(kNamespace.size());
  return name;
}

std::string class_restrictions(const Profile& p) {
  const ClassLimits& lim = class_limits(p.movement_class);
  std::string why;
  auto add = [&](const std::string& s) {
    if (!why.empty()) why += "; ";
    why += s;
  };
  if (p.step_height + 1e-9 < lim.step_height)
    add("field \"step_height\": " + num(p.step_height) + " is below the class's " +
        num(lim.step_height));
  if (p.jump_apex + 1e-9 < lim.jump_apex)
    add("field \"jump_apex\": " + num(p.jump_apex) + " is below the class's " + num(lim.jump_apex));
  // The class's navigation holds gap jumps of kClassGapReach cells: a profile that cannot make
  // them may not cross what the class's islands join through one.
  if (const int reach = gap_reach_of(p);
      (p.movement_class == MovementClass::WalkerSmall || p.movement_class == MovementClass::Walker) &&
      reach < kClassGapReach)
    add("gap reach " + std::to_string(reach) + " (fields \"gap_jump\", \"speed.walk\", \"speed.sprint\", \"jump_apex\") is below the class's " +
        std::to_string(kClassGapReach));
  if (p.max_drop < lim.max_drop)
    add("field \"max_drop\": " + std::to_string(p.max_drop) + " is below the class's " +
        std::to_string(lim.max_drop));
  // Cells the class walks through freely: making one impassable can split what the class's
  // islands join. Damage cells, closed doors, climbable cells and water are gated by
  // reachability itself (a profile's abilities), so they are not counted.
  for (PathType t :
       {PathType::Slow, PathType::DangerFire, PathType::DangerOther, PathType::DoorOpen})
    if (p.malus[static_cast<int>(t)] == kImpassable)
      add(std::string("field \"malus.") + path_type_name(t) + "\": impassable");
  return why;
}

CompiledProfile compile_profile_costs(const Profile& p) {
  CompiledProfile c;
  const double g = gravity();
  c.jump_velocity = jump_velocity_for_apex(g, p.jump_apex);
  c.gap_reach = gap_reach_of(p);
  for (int i = 0; i < kPathTypeCount; ++i)
    c.path_cost[i] = p.malus[i] == kImpassable
                         ? kPathCostImpassable
                         : static_cast<std::uint32_t>(p.malus[i]) * kCostStraight;
  c.drop_extra = static_cast<std::uint32_t>(p.drop_malus) * (kCostStraight / 4);
  c.surfaces.reserve(p.surface_malus.size());
  for (const SurfaceMalus& s : p.surface_malus) {
    CompiledProfile::Surface out;
    for (const std::string& b : s.blocks) out.blocks.emplace_back(canonical_block_name(b));
    out.cost = static_cast<std::int32_t>(std::lround(s.cost * static_cast<double>(kCostStraight)));
    c.surfaces.push_back(std::move(out));
  }
  c.restricts_class = !class_restrictions(p).empty();
  return c;
}

}  // namespace voxnav::detail
