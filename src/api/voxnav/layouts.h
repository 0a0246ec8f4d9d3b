// voxnav - the API's results as flat numbers, for hosts that take results as one array of
// doubles (the npm package's bindings). Each result's layout is one table (src/api/layouts.cpp):
// the same table writes the numbers (append_numbers) and names them (result_layouts), so a
// layout is written once. Enums cross as their numbers (voxnav/tables.h names them), booleans as
// 0 / 1, an x, y, z value as three numbers, ids as id numbers (voxnav/ids.h).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "voxnav/agents.h"
#include "voxnav/integrate.h"
#include "voxnav/io.h"
#include "voxnav/registry.h"
#include "voxnav/requests.h"
#include "voxnav/world.h"

namespace voxnav {

/// One field of a layout: its host name ("nodesExpanded"), its width in numbers (3 or 1), and
/// the function that writes those numbers for one item of the layout's type.
struct LayoutField {
  const char* name;
  int width;
  void (*write)(const void* item, double* out);
};
/// A result's fields in the order its numbers come. A list of items is written field after
/// field: every item's first field, then every item's second field, and so on (`by_field`);
/// otherwise item after item.
struct ResultLayout {
  const char* key;  ///< "reach", "pathStatus", "agentState", ...
  bool by_field;
  std::span<const LayoutField> fields;
};
/// Every layout append_numbers writes, in a fixed order.
std::span<const ResultLayout> result_layouts() noexcept;

/// A movement step's result: the state after the step and what the step did.
struct StepResult {
  BodyState state;
  StepReport report;
};

/// Appends the numbers of one result to `out` (`out` must not be null), in the order of its
/// layout: "reach" [answer, reason, epoch]; "pathStatus" [state, failure, partial, cost,
/// nodesExpanded, cellCount, waypointCount]; "agentState" (22 numbers: mode, feet, velocity,
/// onGround, corridorEpoch, nextWaypoint, arrivals, replans, repairs, requests, failure,
/// waitingAtDoor, door, doorHoldTicks, doorEvents, doorTimeouts); "bodyParams" (7); "stepResult"
/// (24: feet, velocity, carry, onGround, mode, then the report's fields); "worldStats" (6);
/// "loadReport" (15: counts, data versions, unknowns, min, max; the format and the unknown names
/// are text, left to the host); a BlockDef: "blockTraits" (door, toggleValue (-1: none),
/// climbable, hazard, slow, fluid), then "blockBox" per box (min x, y, z, max x, y, z); the name
/// and the toggle's name are text, left to the host.
void append_numbers(const Reach& v, std::vector<double>* out);
void append_numbers(const PathStatus& v, std::vector<double>* out);
void append_numbers(const AgentState& v, std::vector<double>* out);
void append_numbers(const BodyParams& v, std::vector<double>* out);
void append_numbers(const StepResult& v, std::vector<double>* out);
void append_numbers(const WorldStats& v, std::vector<double>* out);
void append_numbers(const LoadReport& v, std::vector<double>* out);
void append_numbers(const BlockDef& v, std::vector<double>* out);
/// Lists, field after field: "waypoints" [positions 3n, cells 3n, kinds n]; "pathCells" [cells
/// 3n, kinds n]; "doorEvents" [agents n (id numbers), doors 3n, ticks n]; "agentSnapshot" [feet
/// 3n, velocities 3n, modes n, onGround n, corridorEpochs n]; "agentIds" [id numbers n; -1 for an
/// id without one]. "regionChunks" goes item after item: [index, compression, offset, size,
/// skipped] per chunk (the reasons are text, left to the host).
void append_numbers(std::span<const Waypoint> v, std::vector<double>* out);
void append_numbers(std::span<const PathCell> v, std::vector<double>* out);
void append_numbers(std::span<const DoorEvent> v, std::vector<double>* out);
void append_numbers(std::span<const AgentState> v, std::vector<double>* out);
void append_numbers(std::span<const AgentId> v, std::vector<double>* out);
void append_numbers(std::span<const RegionChunk> v, std::vector<double>* out);

// ---- World reads as numbers: `out` (not null) is replaced; empty on error. Each returns what
// the World call it makes returns, with world.last_error() naming the argument.

/// World::corridor's waypoints ("waypoints").
[[nodiscard]] Status corridor_numbers(const World& world, PathHandle path,
                                      std::vector<double>* out);
/// World::agent_corridor's waypoints ("waypoints"), then the agent's corridor epoch (1 number).
[[nodiscard]] Status corridor_numbers(const World& world, AgentId agent, std::vector<double>* out);
/// World::path_cells ("pathCells").
[[nodiscard]] Status path_cell_numbers(const World& world, PathHandle path,
                                       std::vector<double>* out);
/// The agents `agents` (every one live) in that order: their id numbers ("agentIds"), then
/// their states ("agentSnapshot"). StaleHandle when one is not live.
[[nodiscard]] Status agent_snapshot_numbers(const World& world, std::span<const AgentId> agents,
                                            std::vector<double>* out);
/// World::take_door_events: every waiting event ("doorEvents"), oldest first; they are cleared.
[[nodiscard]] Status take_door_event_numbers(World& world, std::vector<double>* out);

}  // namespace voxnav
