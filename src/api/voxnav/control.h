// voxnav - agents the game controls: facing and sprint, stop, teleport with a facing, knockback,
// and what a renderer or an animation system reads (the edge crossed, cruise speed, distance to
// stop, the waypoints ahead). Free functions on a World; see docs/agents.md#facing.
//
// Angles are 16-bit binary angles (65536 = one turn, counter-clockwise seen from above, 0 faces
// -Z, 16384 faces -X), the integrator's convention (docs/integrator.md), computed with the
// library's own trigonometry so native and wasm agree bit for bit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "voxnav/agents.h"
#include "voxnav/error.h"
#include "voxnav/ids.h"
#include "voxnav/requests.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav {

class World;

/// The binary angle a horizontal direction (dx, dz) faces, rounded to the nearest unit (within
/// one unit of atan2(-dx, -dz)). Returns: Ok; InvalidArgument (a non-finite component, or both
/// zero: "direction"; null `out`).
[[nodiscard]] Status yaw_of_direction(Vec3 direction, std::uint16_t* out,
                                      CallError* error = nullptr);

/// What a renderer or an animation system reads of an agent each tick.
struct AgentLocomotion {
  std::uint16_t yaw = 0;  ///< the facing (AgentState::yaw)
  /// The kind of the edge being crossed: the kind of the corridor waypoint the agent walks
  /// toward (Walk, StepUp, Jump, Drop, Climb, Door ...); Start when it follows no corridor.
  EdgeKind edge = EdgeKind::Start;
  /// The speed the follower drives at on open ground, m/s: the profile's sprint speed while
  /// sprinting, its walk speed (swim speed for a swimmer) otherwise; 0 when not following.
  double cruise_speed = 0.0;
  /// Path left to the end of the corridor: from the feet to the next waypoint, then waypoint to
  /// waypoint (metres, 3D); 0 when not following.
  double distance_to_stop = 0.0;
  bool sprinting = false;  ///< set_agent_sprint
  /// Under a knockback lock: no steering, no stuck watch (knock_agent).
  bool knocked = false;
  std::uint32_t knocks = 0;        ///< knocks taken so far
  std::uint32_t lock_resumes = 0;  ///< locks that ended with the route resumed
  std::uint32_t lock_replans = 0;  ///< locks that ended off the corridor, with a replan
};

/// The agent's locomotion state. Returns: Ok; InvalidArgument (null `out`); StaleHandle (agent).
[[nodiscard]] Status agent_locomotion(const World& world, AgentId agent, AgentLocomotion* out,
                                      CallError* error = nullptr);

/// Most metres of path one agent_lookahead call measures. [Limit: length 0..kMaxLookahead]
inline constexpr double kMaxLookahead = 4096.0;

/// The corridor waypoints ahead of the agent whose path distance from its feet (from waypoint to
/// waypoint, 3D) is at most `length` metres, nearest first: up to `capacity` copied to `out`,
/// `*count` gets how many lie within `length` (0 when the agent follows no corridor).
/// Returns: Ok; InvalidArgument (length not finite or outside 0..kMaxLookahead, null `count`,
/// null `out` with capacity > 0); StaleHandle (agent).
[[nodiscard]] Status agent_lookahead(const World& world, AgentId agent, double length,
                                     Waypoint* out, std::size_t capacity, std::size_t* count,
                                     CallError* error = nullptr);

/// Cruise at the profile's sprint_speed (true) or walk_speed (false, the default) from the next
/// tick (walkers; a swimmer keeps its swim speed). Returns: Ok; StaleHandle (agent).
[[nodiscard]] Status set_agent_sprint(World& world, AgentId agent, bool sprint,
                                      CallError* error = nullptr);

/// Stops the agent: its request is released and its corridor dropped (corridor_epoch moves), it
/// has no goal and idles (Idle), and its drive is zero from its next step (the movement step has
/// no acceleration: it stands at once, a knock's carry still decays). A stopped agent stays put
/// until it gets a goal. Returns: Ok; StaleHandle (agent).
[[nodiscard]] Status stop_agent(World& world, AgentId agent, CallError* error = nullptr);

/// World::teleport_agent, and the facing set to `yaw`. Returns: as World::teleport_agent (Ok;
/// StaleHandle; InvalidArgument: feet not finite; OutOfRange: feet).
[[nodiscard]] Status teleport_agent_facing(World& world, AgentId agent, Vec3 feet,
                                           std::uint16_t yaw, CallError* error = nullptr);

/// Largest component of one knock impulse, m/s (the movement step caps carry at 80 m/s).
/// [Limit: |impulse.x|, |impulse.y|, |impulse.z| <= kMaxKnock]
inline constexpr double kMaxKnock = 1000.0;

/// Knocks an agent: `impulse` (a velocity change, m/s, world frame) scaled by 1 - the profile's
/// knockback.resistance is taken at the agent's next step (impulses given before it add up).
/// The movement step puts its vertical part into the velocity (an upward knock lifts the body
/// off the ground) and its horizontal part into the carry (swimmers: all of it). Then a
/// knockback lock: the follower does not steer and the stuck watch is suspended while the body
/// is in the air and for kKnockLockTicks steps after it is down (at most kKnockLockMaxTicks);
/// then the agent resumes its corridor from where it came down, or plans again when that is off
/// it. Agents without a goal are knocked too (they only fly). Returns: Ok; InvalidArgument (a
/// non-finite component or one beyond kMaxKnock: "impulse"); StaleHandle (agent). Nothing
/// changes on an error.
[[nodiscard]] Status knock_agent(World& world, AgentId agent, Vec3 impulse,
                                 CallError* error = nullptr);
inline constexpr int kKnockLockTicks = 10;
inline constexpr int kKnockLockMaxTicks = 200;

/// One entry of knock_agents.
struct AgentKnock {
  AgentId agent;
  Vec3 impulse;  ///< m/s, world frame
};
/// Knocks knocks.size() agents, all or nothing: every entry is checked first (a live agent, an
/// impulse as knock_agent's), then applied in order (an agent may appear more than once: its
/// impulses add up). Messages name the first bad entry ("knocks[3].impulse").
/// [Limit: knocks 0..World::kMaxAgentBatch entries] Returns: Ok; InvalidArgument; StaleHandle.
[[nodiscard]] Status knock_agents(World& world, std::span<const AgentKnock> knocks,
                                  CallError* error = nullptr);

// ---- goals and intents beyond a goal cell (docs/agents.md#goals-and-intents) ----
// Each replaces the agent's order (as World::set_agent_goal does); stop_agent ends any of them.

/// Most host entities a World holds at once. [Limit: 0..kMaxEntities live entities]
inline constexpr std::size_t kMaxEntities = 65536;

/// Adds a host entity at `position` (metres, world frame: the feet of a body, or any point the
/// host tracks), for agents to chase (chase_entity). The host moves it with set_entity_position,
/// typically once a tick. Returns: Ok; InvalidArgument (a non-finite component: "position"; null
/// `out`); OutOfRange (the position's cell is outside the cell range: "position"); Busy
/// (kMaxEntities live entities).
[[nodiscard]] Status add_entity(World& world, Vec3 position, EntityId* out,
                                CallError* error = nullptr);
/// Moves a host entity to `position` (metres); chasers read it at their next step. Returns: Ok;
/// InvalidArgument ("position" not finite); OutOfRange ("position"'s cell); StaleHandle
/// ("entity"). Nothing changes on an error.
[[nodiscard]] Status set_entity_position(World& world, EntityId entity, Vec3 position,
                                         CallError* error = nullptr);
/// The entity's position (metres). Returns: Ok; InvalidArgument (null `out`); StaleHandle.
[[nodiscard]] Status entity_position(const World& world, EntityId entity, Vec3* out,
                                     CallError* error = nullptr);
/// Removes a host entity; its id becomes stale. Agents chasing it stop at their next step
/// (Failed, with a reason naming the lost target). Returns: Ok; StaleHandle ("entity").
[[nodiscard]] Status remove_entity(World& world, EntityId entity, CallError* error = nullptr);

/// A chase's range: the distance, metres (3D, feet to the target's position), within which the
/// chaser counts as having caught its target. Bodies collide: a range below the two bodies' half
/// widths summed is met only when a push brings them that close.
/// [Limit: range kMinChaseRange..kMaxChaseRange]
inline constexpr double kMinChaseRange = 0.5;
inline constexpr double kMaxChaseRange = 64.0;
/// Within this many cells of its target's cell (x and z, and as many levels) a chaser walks
/// straight at the target when line_walkable says the body can; farther, it follows a corridor,
/// searched again when the target's cell is more than kChaseReplanCells from the corridor's end.
inline constexpr int kChaseDirectCells = 4;
inline constexpr int kChaseReplanCells = 2;

/// Makes `agent` chase another agent `target` until it is within `range` metres of it. The
/// search goes to the target's cell at the next tick; as the target moves, the chaser walks
/// straight at it within kChaseDirectCells (no search), and plans again toward where it went
/// when it leaves the corridor's end by more than kChaseReplanCells (walking the old corridor
/// while the search runs). Within range the chaser is Arrived and stands; when the target gets
/// out of range it chases again (AgentState::arrivals counts the catches). A target that is
/// removed makes the chaser stop, Failed with a reason naming it ("chase target agent in slot 3
/// is gone"); a target no route reaches leaves it Blocked with a reason, retried. The chase is
/// not an order to a place: no arrival contagion (voxnav/crowds.h).
/// A flyer chaser flies: straight at the target within kChaseDirectCells when the flyer's
/// straight line to it is clear, else along flyer requests (docs/flight.md#flyer-agents).
/// Returns: Ok; StaleHandle ("agent", "target": not a live agent); InvalidArgument ("target" is
/// the agent itself; "range" not finite or out of its limit). Nothing changes on an error.
[[nodiscard]] Status chase_agent(World& world, AgentId agent, AgentId target, double range,
                                 CallError* error = nullptr);
/// chase_agent for a host entity `target` (its position as set_entity_position last set it).
/// Returns: Ok; StaleHandle ("agent"; "target": not a live entity); InvalidArgument ("range").
[[nodiscard]] Status chase_entity(World& world, AgentId agent, EntityId target, double range,
                                  CallError* error = nullptr);

/// Largest distance a flee asks for, cells. [Limit: distance 1..kMaxFleeDistance]
inline constexpr int kMaxFleeDistance = 64;

/// Makes `agent` flee from cell `from`: its search (at the next tick) is a Dijkstra over the
/// navigation's integer move costs from the agent's cell that ends at the first cell it settles
/// at least `distance` cells from `from` (Euclidean, between integer cell coordinates, 3D:
/// dx^2 + dy^2 + dz^2 >= distance^2), so the cheapest such cell to walk to (ties: the search's
/// fixed expansion order, the same on every platform), within the profile's search budget. The
/// agent walks there and is Arrived. With no such cell in reach it is Failed with a reason.
/// A replan (stuck, an edit) flees again from where it stands.
/// Returns: Ok; Unsupported ("agent" is a flyer: flyer agents take goals and chases only);
/// StaleHandle ("agent"); OutOfRange ("from" outside the cell range);
/// InvalidArgument ("distance" out of its limit). Nothing changes on an error.
[[nodiscard]] Status flee_from(World& world, AgentId agent, CellPos from, int distance,
                               CallError* error = nullptr);

/// Makes `agent` follow the corridor of the host's request `path` (World::request, Ready): from
/// the agent's cell, which must be a cell of the request's search path (World::path_cells; the
/// corridor is pulled again from there), to its end. The handle stays the host's (release it when
/// done; the agent keeps its copy). A later replan (stuck, an edit no short detour mends) searches
/// to the request's goal as set_agent_goal would. Returns: Ok; Unsupported ("agent" is a
/// flyer: flyer agents take goals and chases only); StaleHandle ("agent"; "path":
/// released or never made); Busy ("path" not Ready: Searching or Failed); InvalidArgument
/// ("path" of another movement class than the agent's, or not through the agent's cell).
/// Nothing changes on an error.
[[nodiscard]] Status follow_path(World& world, AgentId agent, PathHandle path,
                                 CallError* error = nullptr);

// ---- queries a brain asks without a search (docs/agents.md#queries) ----

/// Longest line line_walkable judges: cells between its ends along x or z (Chebyshev).
/// [Limit: 0..kMaxLineWalkCells]
inline constexpr int kMaxLineWalkCells = 256;

/// Whether a body of `profile`, driven straight from the centre of cell `from` toward the centre
/// of cell `to` (both standable; foot cells), walks there without a jump: its centre crosses from
/// column to column by moves of the navigation (a level walk, a step up or down, a drop within the
/// profile's max_drop; diagonally only a level walk), every other column its footprint reaches is
/// standable within a step of the floor it walks on, the columns ahead of a drop are open over
/// the whole fall, and it never enters a cell the profile may not (an impassable path type, an
/// excluded surface). Conservative: it may say false where the movement step could walk the line,
/// never true where it cannot (tests/control/line_walkable_native_test.cpp checks it against the
/// step on random segments of real regions). Cost: proportional to the line's length (8 samples
/// per cell). `*out` is false when an end is not standable or not built.
/// Returns: Ok; InvalidArgument (a profile not of this world, null `out`, ends more than
/// kMaxLineWalkCells apart: "to"); OutOfRange (`from` or `to` outside the cell range);
/// Unsupported (a swimmer or flyer profile: they do not walk).
[[nodiscard]] Status line_walkable(const World& world, ProfileId profile, CellPos from, CellPos to,
                                   bool* out, CallError* error = nullptr);

/// Longest segment line_flyable judges, cells (Euclidean distance between the ends).
/// [Limit: 0..kMaxLineFlyCells]
inline constexpr double kMaxLineFlyCells = 1024;

/// Whether a body of flyer profile `profile` flies straight from feet position `from` to feet
/// position `to` (metres = cells; feet at the bottom centre of the body) without touching a
/// collision box or a harmful fluid (lava), on the navigation as of the last update(). The test
/// sweeps a box over the flyer cells (free = the class envelope, 0.98 x 1.95, fits with its feet
/// on the cell's bottom; docs/flight.md#a-worlds-flyers): conservative, it may say false where the
/// body would just pass (within 1/1024 of a block), never true where it touches geometry
/// (tests/flight/flyer_line_native_test.cpp checks it against an exact swept-box oracle on random
/// segments of a real region). A chunk not loaded counts as blocked. Cost: about one brick read per
/// 4 cells of open air, cell reads near geometry.
/// Returns: Ok; InvalidArgument (a profile not of this world, null `clear`, a non-finite end:
/// "from" or "to", ends more than kMaxLineFlyCells apart: "to"); OutOfRange (an end whose cell is
/// outside the cell range); Unsupported (a profile that is not a flyer: walkers use
/// line_walkable).
[[nodiscard]] Status line_flyable(const World& world, ProfileId profile, Vec3 from, Vec3 to,
                                  bool* clear, CallError* error = nullptr);

/// A lower bound of the time an agent of `profile` takes from cell `from` to cell `to`, seconds,
/// without a search and in constant time: the cheapest path's cost (the search's integer costs,
/// kCostStraight = 10,000 per straight cell) is at least the octile distance in x/z and at least
/// the rise or fall between the two floors at the cheapest rate any move (step, jump, drop,
/// ladder) climbs or descends; the larger of the two, in cells of level walking, over the
/// profile's walking cruise (walk_speed; swim_speed for a swimmer). Never above the optimal
/// path's cost so converted, nor above the time of an agent walking the route; an agent set to
/// sprint (set_agent_sprint) can be faster: multiply by walk_speed / sprint_speed for its bound.
/// +infinity when reachability says No. Measured against A* over 10,000
/// random pairs of a real region in docs/benchmarks.md.
/// Returns: Ok; InvalidArgument (a profile not of this world, null `seconds`); OutOfRange (a cell
/// outside the cell range); Unsupported (a flyer profile).
[[nodiscard]] Status estimate_travel(const World& world, ProfileId profile, CellPos from,
                                     CellPos to, double* seconds, CallError* error = nullptr);

}  // namespace voxnav
