// voxnav/control.h: the game's control of agents over the engine's AgentSystem (engine/follow:
// facing.cpp, control.cpp).
#include "voxnav/control.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "api_text.h"
#include "engine/follow/facing.h"
#include "engine/query/line_walk.h"
#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {

namespace {
using detail::num;
using detail::vec_text;

using detail::fail;

Status stale(CallError* error, const char* fn, AgentId a, const std::string& what = "agent") {
  return fail(error, fn, what,
              detail::agent_text(what.c_str(), a) +
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

// ---- entities and intents (docs/agents.md#goals-and-intents) ----

namespace {
std::string entity_text(const char* what, EntityId e) {
  return std::string(what) + " (index " + std::to_string(e.index) + ", generation " +
         std::to_string(e.generation) + ")";
}

Status stale_entity(CallError* error, const char* fn, EntityId e, const char* what = "entity") {
  return fail(error, fn, what,
              entity_text(what, e) + " is not a live entity (removed, or never added to this world)",
              Status::StaleHandle);
}

/// Ok for a finite position whose cell is in range, else a failure naming "position".
Status check_position(CallError* error, const char* fn, const Vec3& p) {
  if (!finite3(p))
    return fail(error, fn, "position", "position " + vec_text(p) + " is not finite",
                Status::InvalidArgument);
  const double lim = 4.0e9;  // (beyond it the floor below cannot be an int32)
  if (std::fabs(p.x) > lim || std::fabs(p.y) > lim || std::fabs(p.z) > lim)
    return fail(error, fn, "position", "position " + vec_text(p) + " is outside the cell range",
                Status::OutOfRange);
  const CellPos c{static_cast<std::int32_t>(std::floor(p.x)),
                  static_cast<std::int32_t>(std::floor(p.y + 1e-3)),
                  static_cast<std::int32_t>(std::floor(p.z))};
  if (const std::string e = detail::cell_range_error("position", c); !e.empty())
    return fail(error, fn, "position", e, Status::OutOfRange);
  return Status::Ok;
}

detail::NavWorld* nav_of_agent(detail::WorldState& ws, const detail::AgentRecord& a) {
  detail::NavWorld* nav = ws.nav_of_slot(ws.agents.motion(a.motion).nav_slot);
  return nav ? nav : ws.walker();
}

// Flyer agents take goals and chases (docs/flight.md#flyer-agents): a flee or path order is
// refused for them.
Status flyer_order(CallError* error, const char* fn, const detail::WorldState& ws,
                   const detail::AgentRecord& a) {
  if (!ws.agents.motion(a.motion).flies) return Status::Ok;
  return fail(error, fn, "agent",
              std::string("the agent is a flyer: flyer agents take goals and chases only; ") +
                  fn + " is not supported for them yet",
              Status::Unsupported);
}

Status check_range(CallError* error, const char* fn, double range) {
  if (!std::isfinite(range) || range < kMinChaseRange || range > kMaxChaseRange)
    return fail(error, fn, "range",
                "range " + num(range) + " is not in " + num(kMinChaseRange) + " .. " +
                    num(kMaxChaseRange) + " metres",
                Status::InvalidArgument);
  return Status::Ok;
}
}  // namespace

Status add_entity(World& world, Vec3 position, EntityId* out, CallError* error) {
  const char* fn = "add_entity";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  if (const Status st = check_position(error, fn, position); st != Status::Ok) return st;
  detail::WorldState& ws = detail::WorldAccess::state(world);
  if (ws.agents.entity_count() >= kMaxEntities)
    return fail(error, fn, "",
                std::to_string(kMaxEntities) + " entities are live; remove some",
                Status::Busy);
  std::uint32_t gen = 0;
  const std::uint32_t idx = ws.agents.add_entity(position, &gen);
  *out = EntityId{idx, gen};
  return Status::Ok;
}

Status set_entity_position(World& world, EntityId entity, Vec3 position, CallError* error) {
  const char* fn = "set_entity_position";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  detail::EntityRecord* e = ws.agents.entity(entity.index, entity.generation);
  if (!e) return stale_entity(error, fn, entity);
  if (const Status st = check_position(error, fn, position); st != Status::Ok) return st;
  e->position = position;
  return Status::Ok;
}

Status entity_position(const World& world, EntityId entity, Vec3* out, CallError* error) {
  const char* fn = "entity_position";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::EntityRecord* e = ws.agents.entity(entity.index, entity.generation);
  if (!e) return stale_entity(error, fn, entity);
  *out = e->position;
  return Status::Ok;
}

Status remove_entity(World& world, EntityId entity, CallError* error) {
  detail::WorldState& ws = detail::WorldAccess::state(world);
  return ws.agents.remove_entity(entity.index, entity.generation)
             ? Status::Ok
             : stale_entity(error, "remove_entity", entity);
}

Status chase_agent(World& world, AgentId agent, AgentId target, double range, CallError* error) {
  const char* fn = "chase_agent";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentRecord* a = record(ws, agent);
  if (!a) return stale(error, fn, agent);
  if (!record(ws, target)) return stale(error, fn, target, "target");
  if (target.index == agent.index)
    return fail(error, fn, "target", detail::agent_text("target", target) + " is the agent itself",
                Status::InvalidArgument);
  if (const Status st = check_range(error, fn, range); st != Status::Ok) return st;
  (void)ws.agents.set_chase(*nav_of_agent(ws, *a), AgentId{agent.index, agent.generation}, false,
                            target.index, target.generation, range);
  return Status::Ok;
}

Status chase_entity(World& world, AgentId agent, EntityId target, double range,
                    CallError* error) {
  const char* fn = "chase_entity";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentRecord* a = record(ws, agent);
  if (!a) return stale(error, fn, agent);
  if (!ws.agents.entity(target.index, target.generation))
    return stale_entity(error, fn, target, "target");
  if (const Status st = check_range(error, fn, range); st != Status::Ok) return st;
  (void)ws.agents.set_chase(*nav_of_agent(ws, *a), AgentId{agent.index, agent.generation}, true,
                            target.index, target.generation, range);
  return Status::Ok;
}

Status flee_from(World& world, AgentId agent, CellPos from, int distance, CallError* error) {
  const char* fn = "flee_from";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentRecord* a = record(ws, agent);
  if (!a) return stale(error, fn, agent);
  if (const Status st = flyer_order(error, fn, ws, *a); st != Status::Ok) return st;
  if (const std::string e = detail::cell_range_error("from", from); !e.empty())
    return fail(error, fn, "from", e, Status::OutOfRange);
  if (distance < 1 || distance > kMaxFleeDistance)
    return fail(error, fn, "distance",
                "distance " + std::to_string(distance) + " is not in 1 .. " +
                    std::to_string(kMaxFleeDistance) + " cells",
                Status::InvalidArgument);
  (void)ws.agents.set_flee(*nav_of_agent(ws, *a), AgentId{agent.index, agent.generation}, from,
                           distance);
  return Status::Ok;
}

Status follow_path(World& world, AgentId agent, PathHandle path, CallError* error) {
  const char* fn = "follow_path";
  detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentRecord* a = record(ws, agent);
  if (!a) return stale(error, fn, agent);
  if (const Status st = flyer_order(error, fn, ws, *a); st != Status::Ok) return st;
  // The handle's class slot (top bits of its index) and the navigation's own handle (world.cpp).
  constexpr std::uint32_t kSlotShift = 28;
  const std::uint32_t slot = path.index >> kSlotShift;
  const std::uint32_t tag_mask = (1u << kIdTagShift) - 1;
  const PathHandle own{path.index & ((1u << kSlotShift) - 1),
                       path.generation >> kIdTagShift == ws.id_tag ? path.generation & tag_mask
                                                                   : 0};
  detail::NavWorld* pnav = ws.nav_of_slot(slot);
  const detail::RequestSlot* s = pnav ? pnav->slot(own) : nullptr;
  double n = 0;
  const bool numbered = id_number(path, &n);
  const std::string id = detail::id_text("path", n, numbered, path.index, path.generation);
  if (!s)
    return fail(error, fn, "path",
                id + " is not a live request (released, or never made by this world)",
                Status::StaleHandle);
  if (s->state != detail::RequestState::Ready)
    return fail(error, fn, "path", id + " is not ready (status is not 'ready')", Status::Busy);
  const std::uint32_t agent_slot = ws.agents.motion(a->motion).nav_slot;
  if (slot != agent_slot)
    return fail(error, fn, "path",
                id + " was requested for another movement class than the agent's",
                Status::InvalidArgument);
  // The agent's cell (as its searches start from) on the request's search path.
  const detail::Corridor& c = s->corridor;
  const double off = ws.agents.motion(a->motion).foot_offset;
  const CellPos here = detail::foot_cell(a->body.feet, off);
  const CellPos below{here.x, here.y - 1, here.z};
  std::size_t at = c.cells.size();
  for (const CellPos& want : {here, below, a->last_cell}) {
    for (std::size_t i = 0; i < c.cells.size() && at == c.cells.size(); ++i)
      if (c.cells[i] == want) at = i;
    if (at != c.cells.size()) break;
  }
  if (at == c.cells.size())
    return fail(error, fn, "path",
                id + " does not pass the agent's cell " + detail::cell_text(here) +
                    " (request it from there: start = the agent's cell)",
                Status::InvalidArgument);
  (void)ws.agents.set_path(*pnav, AgentId{agent.index, agent.generation}, c, at, s->spec.goal,
                           s->spec.goal_range, s->partial);
  return Status::Ok;
}

namespace {
/// The profile's motion and navigation for a query, or a failure naming the argument.
Status query_profile(const detail::WorldState& ws, ProfileId profile, CellPos from, CellPos to,
                     const char* fn, CallError* error, const detail::AgentMotion** m,
                     const detail::NavWorld** nav) {
  if (!ws.has_profile(profile))
    return fail(error, fn, "profile", detail::profile_error(profile, ws.profiles.size()),
                Status::InvalidArgument);
  if (const std::string e = detail::cell_range_error("from", from); !e.empty())
    return fail(error, fn, "from", e, Status::OutOfRange);
  if (const std::string e = detail::cell_range_error("to", to); !e.empty())
    return fail(error, fn, "to", e, Status::OutOfRange);
  const MovementClass c = ws.profiles[profile.index].movement_class;
  *nav = ws.nav_of(c);
  if (c == MovementClass::Flyer || !*nav)
    return fail(error, fn, "profile",
                "profile " + std::to_string(profile.index) + " (" + ws.profiles[profile.index].id +
                    ") is a flyer: walkers' queries do not apply (line_flyable is the flyer's straight line)",
                Status::Unsupported);
  *m = &ws.agents.motion(ws.profile_motion[profile.index]);
  return Status::Ok;
}
}  // namespace

Status line_flyable(const World& world, ProfileId profile, Vec3 from, Vec3 to, bool* clear,
                    CallError* error) {
  const char* fn = "line_flyable";
  if (!clear) return fail(error, fn, "clear", "clear is null", Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  if (!ws.has_profile(profile))
    return fail(error, fn, "profile", detail::profile_error(profile, ws.profiles.size()),
                Status::InvalidArgument);
  if (!ws.is_flyer(profile))
    return fail(error, fn, "profile",
                "profile " + std::to_string(profile.index) + " (" + ws.profiles[profile.index].id +
                    ") is not a flyer: walkers use line_walkable",
                Status::Unsupported);
  const auto check_end = [&](const char* what, Vec3 p) -> Status {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return fail(error, fn, what, std::string(what) + " " + detail::vec_text(p) + " is not finite",
                  Status::InvalidArgument);
    const bool near = std::fabs(p.x) < 1e9 && std::fabs(p.y) < 1e9 && std::fabs(p.z) < 1e9;
    const CellPos c = near ? CellPos{static_cast<std::int32_t>(std::floor(p.x)), static_cast<std::int32_t>(std::floor(p.y)),
                                     static_cast<std::int32_t>(std::floor(p.z))}
                           : CellPos{};
    if (!near || !detail::cell_in_range(c))
      return fail(error, fn, what,
                  std::string(what) + " " + detail::vec_text(p) + " is out of range: its cell must have |x|, |z| <= " +
                      std::to_string(kMaxCellXZ) + " and |y| <= " + std::to_string(kMaxCellY),
                  Status::OutOfRange);
    return Status::Ok;
  };
  if (const Status st = check_end("from", from); st != Status::Ok) return st;
  if (const Status st = check_end("to", to); st != Status::Ok) return st;
  const double dx = to.x - from.x, dy = to.y - from.y, dz = to.z - from.z;
  const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (len > kMaxLineFlyCells)
    return fail(error, fn, "to",
                "the ends are " + detail::num(len) + " cells apart, more than kMaxLineFlyCells (" +
                    detail::num(kMaxLineFlyCells) + ")",
                Status::InvalidArgument);
  *clear = ws.flyer->line_clear(from, to);
  return Status::Ok;
}

Status line_walkable(const World& world, ProfileId profile, CellPos from, CellPos to, bool* out,
                     CallError* error) {
  const char* fn = "line_walkable";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentMotion* m = nullptr;
  const detail::NavWorld* nav = nullptr;
  if (const Status st = query_profile(ws, profile, from, to, fn, error, &m, &nav);
      st != Status::Ok)
    return st;
  if (m->swims)
    return fail(error, fn, "profile",
                "profile " + std::to_string(profile.index) + " (" + ws.profiles[profile.index].id +
                    ") is a swimmer: it does not walk",
                Status::Unsupported);
  const long long span = std::max(std::llabs(static_cast<long long>(to.x) - from.x),
                                  std::llabs(static_cast<long long>(to.z) - from.z));
  if (span > kMaxLineWalkCells)
    return fail(error, fn, "to",
                "to " + detail::cell_text(to) + " is " + std::to_string(span) +
                    " cells from from " + detail::cell_text(from) + "; at most " +
                    std::to_string(kMaxLineWalkCells),
                Status::InvalidArgument);
  *out = detail::line_walkable_cells(nav->grid(), m->costs, from, to, m->walk_speed,
                                     m->body.gravity);
  return Status::Ok;
}

Status estimate_travel(const World& world, ProfileId profile, CellPos from, CellPos to,
                       double* seconds, CallError* error) {
  const char* fn = "estimate_travel";
  if (!seconds) return fail(error, fn, "seconds", "seconds is null", Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  const detail::AgentMotion* m = nullptr;
  const detail::NavWorld* nav = nullptr;
  if (const Status st = query_profile(ws, profile, from, to, fn, error, &m, &nav);
      st != Status::Ok)
    return st;
  if (world.reachable(profile, from, to).answer == ReachAnswer::No) {
    *seconds = std::numeric_limits<double>::infinity();
    return Status::Ok;
  }
  const std::uint64_t cost = detail::travel_cost_bound(nav->grid(), m->costs, from, to);
  const double speed = m->swims ? m->swim_speed : m->walk_speed;
  *seconds = static_cast<double>(cost) / static_cast<double>(detail::kCostStraight) / speed;
  return Status::Ok;
}

}  // namespace voxnav
