// voxnav - crowds: shared flow fields and steering among agents. A flow field holds, for one
// profile and one goal cell, the cheapest route cost from every cell of a region around the goal
// and the next cell on it, so any number of agents heading for the goal share one build instead of
// searching each. See docs/crowds.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "voxnav/error.h"
#include "voxnav/ids.h"
#include "voxnav/requests.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav {

class World;

/// Opaque, generation-checked handle of a flow field. Its own type: it cannot be passed where a
/// PathHandle or an AgentId is expected. `owner` tags the World that made it, so a handle of
/// another World is refused (StaleHandle) even when its slot numbers match.
struct FlowId {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  ///< 0 is never valid
  std::uint32_t owner = 0;
};

/// Cover points one request_flow takes. [Limit: 0..kMaxFlowCoverPoints]
inline constexpr std::size_t kMaxFlowCoverPoints = 64;
/// A field's region: the box around the goal, the cover points and the agents following it,
/// grown by kFlowRegionMargin cells on every side and cut at kFlowRegionHalfWidth cells from the
/// goal on every axis (at most 161 cells across).
inline constexpr int kFlowRegionMargin = 16;
inline constexpr int kFlowRegionHalfWidth = 80;
/// Builds of one field start at most once every kFlowRebuildUpdates updates (4 a second at 20
/// updates a second); the field built last serves until the next one is installed.
inline constexpr int kFlowRebuildUpdates = 5;
/// A follower traces this many cells along the field ahead of it into its corridor.
inline constexpr int kFlowTraceCells = 24;
/// The build budget of a new World (set_flow_builds_per_update): field builds (first builds and
/// rebuilds alike) started per update. The rest wait, the field wanted longest ago first, and a
/// waiting field's last build keeps serving. A widest field (161 cells across) on real terrain
/// takes 10 to 20 ms to build (docs/benchmarks.md), so 8 bounds an update's builds near 100 ms
/// on one thread, and a burst of 3,000 fields spreads over 375 updates instead of one 8.8 s
/// update. [Limit: 0..kMaxFlowBuildsPerUpdate; 0: no limit]
inline constexpr int kDefaultFlowBuildsPerUpdate = 8;
inline constexpr int kMaxFlowBuildsPerUpdate = 4096;

enum class FlowState : std::uint8_t {
  Building,  ///< the first build has not landed yet
  Ready,     ///< a field serves (`version` counts the builds installed; it moves on rebuilds)
  Failed,    ///< the last build found no goal to build from (`failure`: bad_goal, not_loaded)
  Released,  ///< release_flow was called on this handle
};
const char* flow_state_name(FlowState s) noexcept;

struct FlowStatus {
  FlowState state = FlowState::Building;
  std::uint32_t version = 0;                ///< builds installed
  PathFailure failure = PathFailure::None;  ///< for Failed: BadGoal or NotLoaded
  CellPos goal;
  CellPos region_min, region_max;  ///< the region of the field serving (inclusive)
  std::uint32_t cells = 0;         ///< node cells of the region
  std::uint32_t reached = 0;       ///< of those, cells from which the goal is reached
  bool rebuilding = false;         ///< a newer build is in flight
};

/// One cell of a field (for tests and debug drawing).
struct FlowCell {
  bool in_field = false;            ///< a node cell of the field's region
  bool reached = false;             ///< the goal is reached from it inside the region
  std::uint32_t cost = 0;           ///< cost units (10000 per cell, as PathStatus::cost)
  CellPos successor;                ///< the next cell toward the goal (the goal: itself)
  EdgeKind edge = EdgeKind::Start;  ///< the kind of the move to the successor
  bool line_of_sight = false;       ///< on the goal's level with a straight walkable line to it
};

/// Requests a flow field toward `goal` for `profile`: built on the executor at the next update()
/// and installed at the update after (or lockstep_delay updates later), then rebuilt when blocks
/// change in its region or a follower stands outside it (see kFlowRebuildUpdates).
/// `cover` widens the region to hold those cells (where agents will come from).
/// Returns: Ok; InvalidArgument (profile unknown, out or cover null with entries, cover longer
/// than kMaxFlowCoverPoints); OutOfRange (goal or a cover point outside the cell range);
/// NotLoaded (the goal's chunk is not loaded); Unsupported (a flyer profile). The error names
/// the argument; nothing changes on failure.
[[nodiscard]] Status request_flow(World& world, ProfileId profile, CellPos goal,
                                  std::span<const CellPos> cover, FlowId* out,
                                  CallError* error = nullptr);
/// Sets how many field builds start per update (see kDefaultFlowBuildsPerUpdate; 0: no limit).
/// From the next update; the builds in flight are not touched. A burst of N fields is Ready
/// within ceil(N / builds) + 1 updates (lockstep_delay 0 or 1), built exactly as without a
/// budget. Returns: Ok; InvalidArgument (builds outside 0..kMaxFlowBuildsPerUpdate; nothing
/// changes).
[[nodiscard]] Status set_flow_builds_per_update(World& world, int builds,
                                                CallError* error = nullptr);
/// The build budget set (kDefaultFlowBuildsPerUpdate for a new World).
int flow_builds_per_update(const World& world) noexcept;
/// Fields wanting a build that has not started yet (after the last update).
std::size_t queued_flow_builds(const World& world) noexcept;

/// The state of a field. Returns: Ok (also for a released handle: state Released);
/// InvalidArgument (out null); StaleHandle (never made by this world).
[[nodiscard]] Status flow_status(const World& world, FlowId flow, FlowStatus* out,
                                 CallError* error = nullptr);
/// Releases a field: its agents stop (Idle, no goal). Returns: Ok; StaleHandle (released, or not
/// made by this world).
[[nodiscard]] Status release_flow(World& world, FlowId flow, CallError* error = nullptr);
/// One cell of the field serving. Returns: Ok (in_field false for a cell outside it, or before
/// the first build); InvalidArgument (out null); OutOfRange (cell); StaleHandle (flow).
[[nodiscard]] Status flow_cell(const World& world, FlowId flow, CellPos cell, FlowCell* out,
                               CallError* error = nullptr);
/// Makes an agent follow a field: its goal becomes the field's goal, and instead of searching it
/// traces kFlowTraceCells cells of the field into its corridor (a line-of-sight cell straight to
/// the goal) and walks that like a path's corridor, tracing again when half of it is walked, when
/// the field is rebuilt or when an edit cuts it. Until the first build lands it is Planning
/// ("waiting for the flow field"). On a field cell that does not reach the goal it is Blocked.
/// Outside the field's region it walks straight for the goal when a walkable line on the goal's
/// level reaches it; otherwise it is Planning until the next build grows the region to hold it,
/// or, more than kFlowRegionHalfWidth cells from the goal on an axis (no build can hold it),
/// Blocked with a reason starting "beyond the flow field's limit". On a Failed field (also when
/// set_agent_flow is called on one: it still returns Ok and the agent follows the field) it is
/// Blocked with AgentState::failure the field's failure and the reason "flow field failed:
/// bad_goal" (or not_loaded). Blocked followers trace again when the field is rebuilt (so they
/// move on once it is Ready again), after 100 ticks, and when an edit lands near them.
/// set_agent_goal ends following. Returns: Ok; StaleHandle (agent or flow); InvalidArgument (the
/// agent's profile is not the field's).
[[nodiscard]] Status set_agent_flow(World& world, AgentId agent, FlowId flow,
                                    CallError* error = nullptr);

// ---- steering among agents (docs/crowds.md#steering) ----
// Every tick, after the agents move, bodies that overlap are pushed apart (separation) and an
// agent touching one that Arrived on the same order (the same goal cell and range, or the same
// flow field) arrives too (arrival contagion). Profiles with Avoidance::enabled also steer their
// drive around the others before moving (ORCA: Avoidance::radius, time_horizon, max_neighbours).
// A push, or an ORCA velocity, never takes a body into a block, onto a cell its class cannot
// stand on, into a hazard, door, ladder or water cell, or from a safe cell into one beside a
// hazard: the navigation has the last word. Deterministic: the same inputs give the same bits
// natively and in wasm, with threads or without.

/// Turns separation on or off for every agent of the World (on for a new World). From the next
/// tick. ORCA (per profile) and arrival contagion are not affected.
void set_separation(World& world, bool on) noexcept;
/// Whether separation is on.
bool separation(const World& world) noexcept;

/// What steering did in the last tick (statistics).
struct SteeringStats {
  std::uint64_t orca_agents = 0;       ///< agents whose drive ORCA looked at
  std::uint64_t orca_neighbours = 0;   ///< neighbours those agents considered, summed
  std::uint64_t orca_refused = 0;      ///< ORCA answers dropped (the body could not stand there)
  std::uint64_t pushes = 0;            ///< separation pushes applied (whole or shortened)
  std::uint64_t pushes_shortened = 0;  ///< ... of them cut to one axis or to half
  std::uint64_t pushes_refused = 0;    ///< pushes dropped (the navigation refused every try)
};
SteeringStats steering_stats(const World& world) noexcept;

// ---- reduced level of detail (docs/crowds.md#reduced-level-of-detail) ----

/// The coarsest level of detail set_agent_lod takes: a step every kMaxAgentLod ticks (0.4 s at
/// 20 ticks a second, under a cell and three quarters at walking speed). [Limit: 1..kMaxAgentLod]
inline constexpr int kMaxAgentLod = 8;
/// Sets an agent's level of detail (AgentState::lod; 1 for a new agent). With `k` > 1 (Reduced(k),
/// for agents far from the player) the agent steps only every k-th tick, on the ticks where
/// (tick + agent.index) % k is 0 (so a crowd's steps spread over the ticks), with dt the ticks
/// since its last step times the tick's dt, while its step is plain walking: Moving on the ground
/// toward a Walk waypoint (no jump, climb, swim or door ahead), not knocked, not holding at a door,
/// not in the stuck watch's recovery. Any other step it takes every tick (catching up the ticks
/// it rested). Resting, it keeps its place and velocity: the others avoid it as a body that does
/// not avoid back and separation pushes them, not it. Deterministic: the same calls give the same
/// bits natively and in wasm, with threads or without. From the next tick. `k` 1: every tick.
/// Returns: Ok; InvalidArgument (k outside 1..kMaxAgentLod: "k"); StaleHandle (agent). Nothing
/// changes on an error.
[[nodiscard]] Status set_agent_lod(World& world, AgentId agent, int k, CallError* error = nullptr);

}  // namespace voxnav
