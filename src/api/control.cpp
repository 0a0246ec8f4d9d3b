// voxnav/control.h: the game's control of agents over the engine's AgentSystem (engine/follow:
// facing.cpp, control.cpp).
#include "voxnav/control.h"

#include <cmath>
#include <string>
#include <vector>

#include "api_text.h"
#include "engine/follow/facing.h"
#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {

namespace {
using detail::num;
using detail::vec_text;

Status fail(CallError* error, const char* fn, std::string argument, std::string msg, Status st) {
  if (error != nullptr) *error = CallError{st, fn, std::move(argument), std::move(msg)};
  return st;
}

std::string agent_text(AgentId a) {
  return "agent {index " + std::to_string(a.index) + ", generation " +
         std::to_string(a.generation) + "}";
}

Status stale(CallError* error, const char* fn, AgentId a, const std::string& what = "agent") {
  return fail(error, fn, what,
              what + " " + agent_text(a) +
                  " is not a live agent (removed, or never added to this world)",
              Status::StaleHandle);
}

bool finite3(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

/// "" for a usable impulse, else why not (named `what`).
std::string impulse_error(const std::string& what, const Vec3& v) {
  if (!finite3(v)) return what + " " + vec_text(v) + " is not finite";
  if (std::fabs(v.x) > kMaxKnock || std::fabs(v.y) > kMaxKnock || std::fabs(v.z) > kMaxKnock)
    return what + " " + vec_text(v) + " has a component beyond " + num(kMaxKnock) + " m/s";
  return {};
}

const detail::AgentRecord* record(const detail::WorldState& ws, AgentId a) {
  return ws.agents.get(AgentId{a.index, a.generation});
}
}  // namespace

Status yaw_of_direction(Vec3 direction, std::uint16_t* out, CallError* error) {
  const char* fn = "yaw_of_direction";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  if (!std::isfinite(direction.x) || !std::isfinite(direction.z))
    return fail(error, fn, "direction", "direction " + vec_text(direction) + " is not finite",
                Status::InvalidArgument);
  if (direction.x == 0.0 && direction.z == 0.0)
    return fail(error, fn, "direction",
                "direction " + vec_text(direction) + " has no horizontal part",
                Status::InvalidArgument);
  *out = detail::yaw_of_direction(direction.x, direction.z);
  return Status::Ok;
}

Status agent_locomotion(const World& world, AgentId agent, AgentLocomotion* out,
                        CallError* error) {
  const char* fn = "agent_locomotion";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentRecord* a = record(ws, agent);
  if (!a) return stale(error, fn, agent);
  const detail::AgentMotion& m = ws.agents.motion(a->motion);
  AgentLocomotion l;
  l.yaw = a->control.yaw;
  l.sprinting = a->control.sprint;
  l.knocked = a->control.locked || a->control.knock_pending;
  l.knocks = a->control.knocks;
  l.lock_resumes = a->control.lock_resumes;
  l.lock_replans = a->control.lock_replans;
  const bool following = a->mode == AgentMode::Moving && a->next < a->corridor.points.size();
  if (following) {
    l.edge = a->corridor.points[a->next].kind;
    l.cruise_speed = m.swims ? m.swim_speed : a->control.sprint ? m.control.sprint_speed
                                                                : m.walk_speed;
    l.distance_to_stop = ws.agents.distance_to_stop(*a);
  }
  *out = l;
  return Status::Ok;
}

Status agent_lookahead(const World& world, AgentId agent, double length, Waypoint* out,
                       std::size_t capacity, std::size_t* count, CallError* error) {
  const char* fn = "agent_lookahead";
  if (!count) return fail(error, fn, "count", "count is null", Status::InvalidArgument);
  if (!out && capacity > 0)
    return fail(error, fn, "out", "out is null with capacity " + std::to_string(capacity),
                Status::InvalidArgument);
  if (!std::isfinite(length) || length < 0.0 || length > kMaxLookahead)
    return fail(error, fn, "length",
                "length " + num(length) + " is not in 0 .. " + num(kMaxLookahead) + " metres",
                Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentRecord* a = record(ws, agent);
  if (!a) return stale(error, fn, agent);
  *count = ws.agents.lookahead(*a, length, out, capacity);
  return Status::Ok;
}

Status set_agent_sprint(World& world, AgentId agent, bool sprint, CallError* error) {
  detail::WorldState& ws = detail::WorldAccess::state(world);
  return ws.agents.set_sprint(AgentId{agent.index, agent.generation}, sprint)
             ? Status::Ok
             : stale(error, "set_agent_sprint", agent);
}

Status stop_agent(World& world, AgentId agent, CallError* error) {
  detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentRecord* a = record(ws, agent);
  if (!a) return stale(error, "stop_agent", agent);
  detail::NavWorld* nav = ws.nav_of_slot(ws.agents.motion(a->motion).nav_slot);
  if (!nav) nav = ws.walker();
  return ws.agents.stop(*nav, AgentId{agent.index, agent.generation})
             ? Status::Ok
             : stale(error, "stop_agent", agent);
}

Status teleport_agent_facing(World& world, AgentId agent, Vec3 feet, std::uint16_t yaw,
                             CallError* error) {
  const Status st = world.teleport_agent(agent, feet);
  if (st != Status::Ok) {
    const CallError& e = world.last_error();
    return fail(error, "teleport_agent_facing", e.argument, e.message, st);
  }
  (void)detail::WorldAccess::state(world).agents.set_yaw(AgentId{agent.index, agent.generation},
                                                         yaw);
  return Status::Ok;
}

Status knock_agent(World& world, AgentId agent, Vec3 impulse, CallError* error) {
  const char* fn = "knock_agent";
  if (const std::string e = impulse_error("impulse", impulse); !e.empty())
    return fail(error, fn, "impulse", e, Status::InvalidArgument);
  detail::WorldState& ws = detail::WorldAccess::state(world);
  return ws.agents.knock(AgentId{agent.index, agent.generation}, impulse)
             ? Status::Ok
             : stale(error, fn, agent);
}

Status knock_agents(World& world, std::span<const AgentKnock> knocks, CallError* error) {
  const char* fn = "knock_agents";
  if (knocks.size() > World::kMaxAgentBatch)
    return fail(error, fn, "knocks",
                "knocks has " + std::to_string(knocks.size()) + " entries; at most " +
                    std::to_string(World::kMaxAgentBatch),
                Status::InvalidArgument);
  detail::WorldState& ws = detail::WorldAccess::state(world);
  for (std::size_t i = 0; i < knocks.size(); ++i) {
    const std::string at = "knocks[" + std::to_string(i) + "]";
    if (!record(ws, knocks[i].agent)) return stale(error, fn, knocks[i].agent, at + ".agent");
    if (const std::string e = impulse_error(at + ".impulse", knocks[i].impulse); !e.empty())
      return fail(error, fn, at + ".impulse", e, Status::InvalidArgument);
  }
  for (const AgentKnock& k : knocks)
    (void)ws.agents.knock(AgentId{k.agent.index, k.agent.generation}, k.impulse);
  return Status::Ok;
}

}  // namespace voxnav
