// voxnav - the results' layouts (voxnav/layouts.h): one table per result names its fields and
// writes its numbers.
#include "voxnav/layouts.h"

#include <algorithm>
#include <type_traits>

namespace voxnav {
namespace {

template <class V>
constexpr int width_of() {
  return requires(const V& v) { v.z; }
  ? 3 : 1;
}
template <class V>
void write(const V& v, double* out) {
  if constexpr (width_of<V>() == 3)
    out[0] = double(v.x), out[1] = double(v.y), out[2] = double(v.z);
  else
    out[0] = double(v);
}
double number_of(AgentId id) {
  double n = -1;
  return (void)id_number(id, &n), n;
}
double toggle_value(const BlockTraits& t) {
  return t.door_toggle == kNoBlockValue ? -1.0 : t.door_toggle;
}

// Field `name` of a T: the value of `item.EXPR` (an x, y, z value is 3 numbers).
#define FIELD(T, name, EXPR)                                                                 \
  LayoutField {                                                                              \
    name, width_of<std::remove_cvref_t<decltype(std::declval<const T&>().EXPR)>>(),          \
        [](const void* item, double* out) { write(static_cast<const T*>(item)->EXPR, out); } \
  }
// Field `name` of a T whose one number is f(item).
#define FIELD_OF(T, name, f)                                                               \
  LayoutField {                                                                            \
    name, 1, [](const void* item, double* out) { *out = f(*static_cast<const T*>(item)); } \
  }

using AS = AgentState;
using LR = LoadReport;
using SR = StepResult;
constexpr LayoutField kReach[] = {FIELD(Reach, "answer", answer), FIELD(Reach, "reason", reason),
                                  FIELD(Reach, "epoch", epoch)};
constexpr LayoutField kPathStatus[] = {FIELD(PathStatus, "state", state),
                                       FIELD(PathStatus, "failure", failure),
                                       FIELD(PathStatus, "partial", partial),
                                       FIELD(PathStatus, "cost", cost),
                                       FIELD(PathStatus, "nodesExpanded", nodes_expanded),
                                       FIELD(PathStatus, "cellCount", cell_count),
                                       FIELD(PathStatus, "waypointCount", waypoint_count)};
constexpr LayoutField kAgentState[] = {FIELD(AS, "mode", mode),
                                       FIELD(AS, "feet", feet),
                                       FIELD(AS, "velocity", velocity),
                                       FIELD(AS, "onGround", on_ground),
                                       FIELD(AS, "corridorEpoch", corridor_epoch),
                                       FIELD(AS, "nextWaypoint", next_waypoint),
                                       FIELD(AS, "arrivals", arrivals),
                                       FIELD(AS, "replans", replans),
                                       FIELD(AS, "repairs", repairs),
                                       FIELD(AS, "requests", requests),
                                       FIELD(AS, "failure", failure),
                                       FIELD(AS, "waitingAtDoor", waiting_at_door),
                                       FIELD(AS, "door", door),
                                       FIELD(AS, "doorHoldTicks", door_hold_ticks),
                                       FIELD(AS, "doorEvents", door_events),
                                       FIELD(AS, "doorTimeouts", door_timeouts)};
constexpr LayoutField kBodyParams[] = {FIELD(BodyParams, "width", width),
                                       FIELD(BodyParams, "height", height),
                                       FIELD(BodyParams, "stepHeight", step_height),
                                       FIELD(BodyParams, "gravity", gravity),
                                       FIELD(BodyParams, "jumpVelocity", jump_velocity),
                                       FIELD(BodyParams, "terminalSpeed", terminal_speed),
                                       FIELD(BodyParams, "climbSpeed", climb_speed)};
constexpr LayoutField kStepResult[] = {FIELD(SR, "feet", state.feet),
                                       FIELD(SR, "velocity", state.velocity),
                                       FIELD(SR, "carry", state.carry),
                                       FIELD(SR, "onGround", state.on_ground),
                                       FIELD(SR, "mode", state.mode),
                                       FIELD(SR, "displacement", report.displacement),
                                       FIELD(SR, "hitWallX", report.hit_wall_x),
                                       FIELD(SR, "hitWallZ", report.hit_wall_z),
                                       FIELD(SR, "wallSpeed", report.wall_speed),
                                       FIELD(SR, "hitCeiling", report.hit_ceiling),
                                       FIELD(SR, "landed", report.landed),
                                       FIELD(SR, "landingSpeed", report.landing_speed),
                                       FIELD(SR, "steppedUp", report.stepped_up),
                                       FIELD(SR, "stepRise", report.step_rise),
                                       FIELD(SR, "climbing", report.climbing),
                                       FIELD(SR, "inFluid", report.in_fluid)};
constexpr LayoutField kWorldStats[] = {FIELD(WorldStats, "searches", searches),
                                       FIELD(WorldStats, "nodesExpanded", nodes_expanded),
                                       FIELD(WorldStats, "maintenanceRuns", maintenance_runs),
                                       FIELD(WorldStats, "lastMaintenanceMs", last_maintenance_ms),
                                       FIELD(WorldStats, "standableCells", standable_cells),
                                       FIELD(WorldStats, "islands", islands)};
constexpr LayoutField kLoadReport[] = {FIELD(LR, "columns", columns_loaded),
                                       FIELD(LR, "chunks", chunks_loaded),
                                       FIELD(LR, "uniformChunks", uniform_chunks),
                                       FIELD(LR, "emptyProtoChunks", empty_proto_chunks),
                                       FIELD(LR, "skippedProtoChunks", proto_chunks_left_out),
                                       FIELD(LR, "dataVersionMin", data_version_min),
                                       FIELD(LR, "dataVersionMax", data_version),
                                       FIELD(LR, "unknownBlocks", unknown_blocks),
                                       FIELD(LR, "unknownProperties", unknown_properties),
                                       FIELD(LR, "min", min),
                                       FIELD(LR, "max", max)};
constexpr LayoutField kBlockTraits[] = {
    FIELD(BlockTraits, "door", door),           FIELD_OF(BlockTraits, "toggleValue", toggle_value),
    FIELD(BlockTraits, "climbable", climbable), FIELD(BlockTraits, "hazard", hazard),
    FIELD(BlockTraits, "slow", slow),           FIELD(BlockTraits, "fluid", fluid)};
constexpr LayoutField kBlockBox[] = {
    FIELD(BlockBox, "minX", min_x), FIELD(BlockBox, "minY", min_y), FIELD(BlockBox, "minZ", min_z),
    FIELD(BlockBox, "maxX", max_x), FIELD(BlockBox, "maxY", max_y), FIELD(BlockBox, "maxZ", max_z)};
constexpr LayoutField kWaypoints[] = {FIELD(Waypoint, "positions", position),
                                      FIELD(Waypoint, "cells", cell),
                                      FIELD(Waypoint, "kinds", kind)};
constexpr LayoutField kPathCells[] = {FIELD(PathCell, "cells", cell),
                                      FIELD(PathCell, "kinds", kind)};
constexpr LayoutField kDoorEvents[] = {
    LayoutField{"agents", 1,
                [](const void* e, double* out) {
                  *out = number_of(static_cast<const DoorEvent*>(e)->agent);
                }},
    FIELD(DoorEvent, "doors", door), FIELD(DoorEvent, "ticks", tick)};
constexpr LayoutField kAgentSnapshot[] = {
    FIELD(AS, "positions", feet), FIELD(AS, "velocities", velocity), FIELD(AS, "modes", mode),
    FIELD(AS, "onGround", on_ground), FIELD(AS, "corridorEpochs", corridor_epoch)};
constexpr LayoutField kAgentIds[] = {FIELD_OF(AgentId, "ids", number_of)};
constexpr LayoutField kRegionChunks[] = {
    FIELD(RegionChunk, "index", index), FIELD(RegionChunk, "compression", compression),
    FIELD(RegionChunk, "offset", offset), FIELD(RegionChunk, "size", size),
    FIELD(RegionChunk, "skipped", skipped)};
#undef FIELD
#undef FIELD_OF

constexpr ResultLayout kLayouts[] = {
    {"reach", false, kReach},
    {"pathStatus", false, kPathStatus},
    {"agentState", false, kAgentState},
    {"bodyParams", false, kBodyParams},
    {"stepResult", false, kStepResult},
    {"worldStats", false, kWorldStats},
    {"loadReport", false, kLoadReport},
    {"blockTraits", false, kBlockTraits},
    {"blockBox", false, kBlockBox},
    {"waypoints", true, kWaypoints},
    {"pathCells", true, kPathCells},
    {"doorEvents", true, kDoorEvents},
    {"agentSnapshot", true, kAgentSnapshot},
    {"agentIds", true, kAgentIds},
    {"regionChunks", false, kRegionChunks},
};

// One item's numbers, field after field.
void item(std::span<const LayoutField> fields, const void* v, std::vector<double>* out) {
  for (const LayoutField& f : fields) {
    double n[3];
    f.write(v, n);
    out->insert(out->end(), n, n + f.width);
  }
}
// `count` items of `size` bytes from `items`, as kLayouts says (field after field, or item after
// item).
void list(std::span<const LayoutField> fields, const void* items, std::size_t count,
          std::size_t size, std::vector<double>* out) {
  bool by_field = false;
  for (const ResultLayout& l : kLayouts) by_field |= l.fields.data() == fields.data() && l.by_field;
  const auto at = [&](std::size_t i) { return static_cast<const char*>(items) + i * size; };
  if (!by_field)
    for (std::size_t i = 0; i < count; ++i) item(fields, at(i), out);
  else
    for (const LayoutField& f : fields)
      for (std::size_t i = 0; i < count; ++i) item(std::span(&f, 1), at(i), out);
}
template <class T>
void list(std::span<const LayoutField> fields, std::span<const T> v, std::vector<double>* out) {
  list(fields, v.data(), v.size(), sizeof(T), out);
}

}  // namespace

std::span<const ResultLayout> result_layouts() noexcept { return kLayouts; }

void append_numbers(const Reach& v, std::vector<double>* out) { item(kReach, &v, out); }
void append_numbers(const PathStatus& v, std::vector<double>* out) { item(kPathStatus, &v, out); }
void append_numbers(const AgentState& v, std::vector<double>* out) { item(kAgentState, &v, out); }
void append_numbers(const BodyParams& v, std::vector<double>* out) { item(kBodyParams, &v, out); }
void append_numbers(const StepResult& v, std::vector<double>* out) { item(kStepResult, &v, out); }
void append_numbers(const WorldStats& v, std::vector<double>* out) { item(kWorldStats, &v, out); }
void append_numbers(const LoadReport& v, std::vector<double>* out) { item(kLoadReport, &v, out); }
void append_numbers(const BlockDef& v, std::vector<double>* out) {
  item(kBlockTraits, &v.traits, out);
  list<BlockBox>(kBlockBox, v.boxes, out);
}
void append_numbers(std::span<const Waypoint> v, std::vector<double>* out) {
  list(kWaypoints, v, out);
}
void append_numbers(std::span<const PathCell> v, std::vector<double>* out) {
  list(kPathCells, v, out);
}
void append_numbers(std::span<const DoorEvent> v, std::vector<double>* out) {
  list(kDoorEvents, v, out);
}
void append_numbers(std::span<const AgentState> v, std::vector<double>* out) {
  list(kAgentSnapshot, v, out);
}
void append_numbers(std::span<const AgentId> v, std::vector<double>* out) {
  list(kAgentIds, v, out);
}
void append_numbers(std::span<const RegionChunk> v, std::vector<double>* out) {
  list(kRegionChunks, v, out);
}

namespace {
// Every item of a "count, then copy" World call f(out, capacity, &count), to `items`.
template <class T, class F>
Status copy_all(std::vector<T>& items, F&& f) {
  std::size_t n = 0;
  Status st = f(static_cast<T*>(nullptr), std::size_t{0}, &n);
  items.resize(st == Status::Ok ? n : 0);
  if (st == Status::Ok) st = f(items.data(), items.size(), &n);
  items.resize(std::min(n, items.size()));
  return st;
}
template <class T>
Status numbers_of(Status st, const std::vector<T>& items, std::vector<double>* out) {
  out->clear();
  if (st == Status::Ok) append_numbers(std::span<const T>(items), out);
  return st;
}
}  // namespace

Status corridor_numbers(const World& world, PathHandle path, std::vector<double>* out) {
  std::vector<Waypoint> w;
  return numbers_of(copy_all(w, [&](auto... a) { return world.corridor(path, a...); }), w, out);
}
Status corridor_numbers(const World& world, AgentId agent, std::vector<double>* out) {
  std::vector<Waypoint> w;
  AgentState s;
  Status st = world.agent_state(agent, &s);
  if (st == Status::Ok)
    st = copy_all(w, [&](auto... a) { return world.agent_corridor(agent, a...); });
  if (numbers_of(st, w, out) == Status::Ok) out->push_back(s.corridor_epoch);
  return st;
}
Status path_cell_numbers(const World& world, PathHandle path, std::vector<double>* out) {
  std::vector<PathCell> c;
  return numbers_of(copy_all(c, [&](auto... a) { return world.path_cells(path, a...); }), c, out);
}
Status agent_snapshot_numbers(const World& world, std::span<const AgentId> agents,
                              std::vector<double>* out) {
  std::vector<AgentState> s(agents.size());
  Status st = Status::Ok;
  for (std::size_t i = 0; i < s.size() && st == Status::Ok; ++i)
    st = world.agent_state(agents[i], &s[i]);
  out->clear();
  if (st == Status::Ok) append_numbers(agents, out), append_numbers(s, out);
  return st;
}
Status take_door_event_numbers(World& world, std::vector<double>* out) {
  std::vector<DoorEvent> ev(world.pending_door_events());
  std::size_t n = 0;
  const Status st = world.take_door_events(ev.data(), ev.size(), &n);
  ev.resize(std::min(n, ev.size()));
  return numbers_of(st, ev, out);
}

}  // namespace voxnav
