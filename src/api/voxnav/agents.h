// voxnav - agents: bodies that follow corridors with the shared movement step. The calls are
// World's (world.h); see docs/agents.md for how agents behave.
#pragma once
#include <cstdint>
#include <optional>

#include "voxnav/ids.h"
#include "voxnav/requests.h"
#include "voxnav/types.h"

namespace voxnav {

/// Agent states. Blocked and Failed come with a reason (World::agent_reason). Blocked (no progress
/// after recovery: back off, sidestep, replan, three times; or a closed door that stayed shut when
/// no route around it avoids it, docs/agents.md#doors) is not terminal: the agent plans again after
/// 100 ticks, or at once when an edit lands near it. Failed is terminal until a new goal. Arrived:
/// within the profile's arrive radius of the goal, or touching an agent that Arrived on the same
/// goal (arrival contagion, voxnav/crowds.h).
/// Blocked by its own crowd: a Moving agent whose stuck watch finds another agent's body touching
/// its own in front of it (instead of a wall) rests, Blocked with AgentState::crowded and a reason
/// starting "pinned by its crowd", for kCrowdRestTicks ticks; then it walks its corridor on (no
/// search) with the stuck watch from zero. After kMaxCrowdRestsInRow rests without reaching a
/// waypoint, its next stall is treated as a wall's (back off, sidestep, replan; Blocked after
/// three replans), and the count of rests starts again. An edit near a resting agent makes it
/// plan again at once. A resting agent touching one that Arrived on the same order arrives.
/// (docs/crowds.md#blocked-is-a-state)
inline constexpr int kCrowdRestTicks = 10;
inline constexpr int kMaxCrowdRestsInRow = 3;
enum class AgentMode : std::uint8_t { Idle, Planning, Moving, Arrived, Failed, Blocked };
const char* agent_mode_name(AgentMode m) noexcept;

/// An edit (or a chunk load) that puts blocks inside an agent's body (overlapping it by more
/// than kEmbeddedTolerance on every axis) pushes the body out, at rest, to the nearest standable
/// cell of its class within this many cells (Chebyshev distance from its foot cell; nearest by
/// the distance from its feet, then in y, z, x order), and the agent plans again from there.
/// With none, the agent is Blocked with failure PathFailure::Embedded and a reason starting with
/// "embedded"; it looks again at every edit near it and every 100 ticks. [cells]
/// (docs/agents.md#embedded)
inline constexpr int kEmbeddedPushRadius = 2;
/// How deep, in cells, a collision box must reach into the body on every axis to count as
/// inside it (touching, or an ulp of snapping, is not).
inline constexpr double kEmbeddedTolerance = 1e-3;

struct AgentDef {
  ProfileId profile;
  Vec3 feet;  ///< initial feet position, metres
  /// A goal cell the agent is sent to at once (as World::set_agent_goal); none: it idles.
  std::optional<CellPos> goal = std::nullopt;
};
/// One entry of World::set_agent_goals: send `agent` to the goal cell `goal`.
struct AgentGoal {
  AgentId agent;
  CellPos goal;
};
/// One entry of World::teleport_agents: move `agent`'s body to `feet` (metres), facing `yaw`
/// (a binary angle, AgentState::yaw) when given, else keeping its facing.
struct AgentMove {
  AgentId agent;
  Vec3 feet;
  std::optional<std::uint16_t> yaw = std::nullopt;
};
struct AgentState {
  AgentMode mode = AgentMode::Idle;
  Vec3 feet;
  Vec3 velocity;
  bool on_ground = false;
  /// The last standable cell the body stood in (where its searches start).
  CellPos cell;
  /// Changes when the waypoints ahead change: a corridor installed, spliced around an edit into
  /// other waypoints, pulled again differently, or the agent teleported. A splice whose pulled
  /// waypoints ahead come out the same leaves it.
  std::uint32_t corridor_epoch = 0;
  std::uint32_t next_waypoint = 0;
  /// Goals reached; searches from scratch after the corridor broke or progress stalled; local
  /// repairs (a detour spliced in from a short search around an edit); path requests made.
  std::uint32_t arrivals = 0, replans = 0, repairs = 0, requests = 0;
  PathFailure failure = PathFailure::None;
  // ---- doors (docs/agents.md#doors) ----
  /// Holding before the closed door cell `door` (a DoorAhead event was raised for it).
  bool waiting_at_door = false;
  CellPos door;  ///< the door cell held before (meaningful while waiting_at_door)
  /// Ticks held before that door so far (0 .. 40: at 40 the agent avoids it and replans).
  std::uint32_t door_hold_ticks = 0;
  /// DoorAhead events raised; holds that ended with the door still shut.
  std::uint32_t door_events = 0, door_timeouts = 0;
  /// Times the body was pushed out of blocks an edit put inside it (kEmbeddedPushRadius).
  std::uint32_t push_outs = 0;
  /// The facing: a 16-bit binary angle (65536 = one turn, counter-clockwise seen from above,
  /// 0 faces -Z, 16384 faces -X), turned toward the travel direction at the profile's turn_rate
  /// (voxnav/control.h, docs/agents.md#facing).
  std::uint16_t yaw = 0;
  /// The level of detail (voxnav/crowds.h set_agent_lod): 1 steps every tick, k > 1 every k-th
  /// tick while plain walking.
  std::uint8_t lod = 1;
  /// Blocked because its own crowd pins it (kCrowdRestTicks): it rests and walks on.
  bool crowded = false;
  /// Rests taken because its crowd pinned it, in all.
  std::uint32_t crowd_rests = 0;
};

// ---- doors ----
/// A DoorAhead event: agent `agent` stopped before the closed door cell `door` (the door's lower
/// cell, the feet cell the corridor enters) at navigation tick `tick` (World::nav_tick()), and
/// holds there until the door opens. Raised once per door per approach.
struct DoorEvent {
  AgentId agent;
  CellPos door;
  std::uint64_t tick = 0;
};

}  // namespace voxnav
