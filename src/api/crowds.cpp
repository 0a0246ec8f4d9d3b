// voxnav/crowds.h: flow fields over the engine's FlowFields (engine/flow).
#include "voxnav/crowds.h"

#include <atomic>
#include <string>
#include <vector>

#include "api_text.h"
#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {

const char* flow_state_name(FlowState s) noexcept {
  switch (s) {
    case FlowState::Building:
      return "building";
    case FlowState::Ready:
      return "ready";
    case FlowState::Failed:
      return "failed";
    case FlowState::Released:
      return "released";
  }
  return "?";
}

namespace {
using detail::cell_text;

using detail::fail;

std::string flow_text(FlowId f) {
  return "flow {index " + std::to_string(f.index) + ", generation " + std::to_string(f.generation) +
         "}";
}

/// The slot of a live handle of this world, or a StaleHandle failure.
const detail::FlowSlot* live_slot(const detail::WorldState& ws, FlowId f, const char* fn,
                                  CallError* error, Status* st) {
  const detail::FlowSlot* s =
      f.owner != 0 && f.owner == ws.flow_owner ? ws.flows.get(f.index, f.generation) : nullptr;
  if (!s) {
    const bool ours = f.owner != 0 && f.owner == ws.flow_owner;
    *st = fail(error, fn, "flow",
               flow_text(f) + (!ours ? " was made by another world"
                               : ws.flows.released(f.index, f.generation)
                                   ? " was released"
                                   : " was never made by this world"),
               Status::StaleHandle);
  }
  return s;
}

std::atomic<std::uint32_t> g_next_owner{1};
}  // namespace

namespace detail {
void update_flows(WorldState& ws, const std::vector<Change>& changes) {
  // The cells of each field's followers (their region must hold them), and the profile's costs
  // now (an area defined or a profile added regroups the surfaces: the field is built again).
  for (std::size_t i = 0; i < ws.flows.capacity(); ++i) {
    FlowSlot& s = ws.flows.at_mut(i);
    s.holders.clear();
    if (!s.live) continue;
    const CostTable& now = ws.agents.motion(ws.profile_motion[s.profile]).costs;
    if (!(now == s.costs)) {
      s.costs = now;
      s.dirty = true;
    }
  }
  for (std::size_t i = 0; i < ws.agents.capacity(); ++i) {
    const AgentRecord& a = ws.agents.at(i);
    if (!a.alive || a.flow_generation == 0) continue;
    if (FlowSlot* s = ws.flows.get(a.flow_index, a.flow_generation))
      s->holders.push_back(a.last_cell);
  }
  std::array<NavWorld*, 4> navs{};
  for (std::uint32_t k = 0; k < WorldState::kClassSlots && k < navs.size(); ++k)
    navs[k] = ws.nav_of_slot(k);
  if (ws.executor) {
    ws.flows.update(navs, changes, *ws.executor, ws.lockstep_delay);
  } else {
    SyncExecutor sync;
    ws.flows.update(navs, changes, sync, ws.lockstep_delay);
  }
}
}  // namespace detail

Status request_flow(World& world, ProfileId profile, CellPos goal, std::span<const CellPos> cover,
                    FlowId* out, CallError* error) {
  const char* fn = "request_flow";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  if (!ws.has_profile(profile))
    return fail(error, fn, "profile", detail::profile_error(profile, ws.profiles.size()),
                Status::InvalidArgument);
  const MovementClass cls = ws.profiles[profile.index].movement_class;
  const std::uint32_t slot = detail::WorldState::class_slot(cls);
  if (!ws.nav_of_slot(slot))
    return fail(
        error, fn, "profile",
        "profile \"" + ws.profiles[profile.index].id + "\" is a flyer: flyers have no flow fields",
        Status::Unsupported);
  if (std::string e = detail::cell_range_error("goal", goal); !e.empty())
    return fail(error, fn, "goal", e, Status::OutOfRange);
  if (!ws.space.is_cell_loaded(goal))
    return fail(error, fn, "goal",
                "goal " + cell_text(goal) + " lies in a chunk that is not loaded",
                Status::NotLoaded);
  if (cover.size() > kMaxFlowCoverPoints)
    return fail(error, fn, "cover",
                std::to_string(cover.size()) + " cover points, more than kMaxFlowCoverPoints (" +
                    std::to_string(kMaxFlowCoverPoints) + ")",
                Status::InvalidArgument);
  if (!cover.empty() && cover.data() == nullptr)
    return fail(error, fn, "cover", "cover is null with entries", Status::InvalidArgument);
  for (std::size_t i = 0; i < cover.size(); ++i)
    if (std::string e = detail::cell_range_error("cover[" + std::to_string(i) + "]", cover[i]);
        !e.empty())
      return fail(error, fn, "cover", e, Status::OutOfRange);
  if (ws.flow_owner == 0) ws.flow_owner = g_next_owner.fetch_add(1);
  const detail::AgentMotion& m = ws.agents.motion(ws.profile_motion[profile.index]);
  const std::uint32_t idx = ws.flows.add(profile.index, slot, goal,
                                         std::vector<CellPos>(cover.begin(), cover.end()), m.costs);
  *out = FlowId{idx, ws.flows.at(idx).generation, ws.flow_owner};
  return Status::Ok;
}

Status flow_status(const World& world, FlowId flow, FlowStatus* out, CallError* error) {
  const char* fn = "flow_status";
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  if (flow.owner != 0 && flow.owner == ws.flow_owner &&
      ws.flows.released(flow.index, flow.generation)) {
    *out = FlowStatus{};
    out->state = FlowState::Released;
    return Status::Ok;
  }
  Status st = Status::Ok;
  const detail::FlowSlot* s = live_slot(ws, flow, fn, error, &st);
  if (!s) return st;
  FlowStatus r;
  r.goal = s->goal;
  r.version = s->version;
  r.rebuilding = s->build != nullptr && s->field != nullptr;
  if (!s->field) {
    r.state = FlowState::Building;
  } else if (s->field->failure != PathFailure::None) {
    r.state = FlowState::Failed;
    r.failure = s->field->failure;
  } else {
    r.state = FlowState::Ready;
  }
  if (s->field) {
    r.region_min = s->field->region.min;
    r.region_max = s->field->region.max;
    r.cells = s->field->size();
    r.reached = s->field->reached;
  }
  *out = r;
  return Status::Ok;
}

Status release_flow(World& world, FlowId flow, CallError* error) {
  detail::WorldState& ws = detail::WorldAccess::state(world);
  Status st = Status::Ok;
  if (!live_slot(ws, flow, "release_flow", error, &st)) return st;
  ws.agents.detach_flow(flow.index, flow.generation);
  detail::SyncExecutor sync;
  ws.flows.release(flow.index, flow.generation, ws.executor ? *ws.executor : sync);
  return Status::Ok;
}

Status flow_cell(const World& world, FlowId flow, CellPos cell, FlowCell* out, CallError* error) {
  const char* fn = "flow_cell";
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  Status st = Status::Ok;
  const detail::FlowSlot* s = live_slot(ws, flow, fn, error, &st);
  if (!s) return st;
  if (std::string e = detail::cell_range_error("cell", cell); !e.empty())
    return fail(error, fn, "cell", e, Status::OutOfRange);
  FlowCell r;
  const detail::FlowField* f = s->field.get();
  const std::uint32_t i = f ? f->find(cell) : detail::kFlowNone;
  if (i != detail::kFlowNone) {
    r.in_field = true;
    r.reached = f->cost[i] != detail::kFlowUnreached;
    if (r.reached) {
      r.cost = f->cost[i];
      r.successor = f->succ[i] == detail::kFlowNone ? cell : f->cell(f->succ[i]);
      r.edge = f->kind[i];
      r.line_of_sight = f->los[i] != 0;
    }
  }
  *out = r;
  return Status::Ok;
}

static_assert(kDefaultFlowBuildsPerUpdate == detail::kFlowBuildsPerUpdate);

Status set_flow_builds_per_update(World& world, int builds, CallError* error) {
  if (builds < 0 || builds > kMaxFlowBuildsPerUpdate)
    return fail(error, "set_flow_builds_per_update", "builds",
                "builds " + std::to_string(builds) + " is not an integer number of builds in 0 .. " +
                    std::to_string(kMaxFlowBuildsPerUpdate),
                Status::InvalidArgument);
  detail::WorldAccess::state(world).flows.set_budget(builds);
  return Status::Ok;
}

int flow_builds_per_update(const World& world) noexcept {
  return detail::WorldAccess::state(world).flows.budget();
}

std::size_t queued_flow_builds(const World& world) noexcept {
  return detail::WorldAccess::state(world).flows.queued();
}

Status set_agent_lod(World& world, AgentId agent, int k, CallError* error) {
  const char* fn = "set_agent_lod";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  if (k < 1 || k > kMaxAgentLod)
    return fail(error, fn, "k",
                "k " + std::to_string(k) + " is not a level of detail in 1 .. " +
                    std::to_string(kMaxAgentLod),
                Status::InvalidArgument);
  if (!ws.agents.set_lod(agent, k))
    return fail(error, fn, "agent", detail::agent_text("agent", agent) + " is not a live agent",
                Status::StaleHandle);
  return Status::Ok;
}

Status set_agent_flow(World& world, AgentId agent, FlowId flow, CallError* error) {
  const char* fn = "set_agent_flow";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  detail::AgentRecord* a = ws.agents.get(agent);
  if (!a)
    return fail(error, fn, "agent",
                "agent {index " + std::to_string(agent.index) + ", generation " +
                    std::to_string(agent.generation) + "} is not a live agent",
                Status::StaleHandle);
  Status st = Status::Ok;
  const detail::FlowSlot* s = live_slot(ws, flow, fn, error, &st);
  if (!s) return st;
  if (ws.profile_motion[s->profile] != a->motion)
    return fail(error, fn, "flow",
                flow_text(flow) + " was built for profile \"" + ws.profiles[s->profile].id +
                    "\", not the agent's",
                Status::InvalidArgument);
  detail::NavWorld* nav = ws.nav_of_slot(s->nav_slot);
  ws.agents.set_flows(&ws.flows);
  (void)ws.agents.set_flow(*nav, agent, flow.index, flow.generation, s->goal);
  return Status::Ok;
}

}  // namespace voxnav
