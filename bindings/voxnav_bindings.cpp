// voxnav bindings - the Embind module over the public API (src/api): WorldCore's calls
// (convert.h), the names of enums and statuses, and the limits of the C++ API (voxnav/tables.h).
// Conversion only: the World and the API functions check every rule and write the messages.
#include <emscripten/heap.h>

#include <algorithm>
#include <functional>
#include <string>

#include "convert.h"
#include "voxnav/columns.h"
#include "voxnav/control.h"
#include "voxnav/integrate.h"
#include "voxnav/io.h"
#include "voxnav/layouts.h"
#include "voxnav/queries.h"
#include "voxnav/state_hash.h"
#include "voxnav/tables.h"
#include "voxnav/version.h"

/// A World member (any overload) and its name, for WorldCore::run and get.
#define M(m) #m, [](auto& w, auto&&... a) { return w.m(a...); }
/// An API function f(World&, ...) (any overload), for the same.
#define API(f) [](auto& w, auto&&... a) { return f(w, a...); }

namespace voxnav::bindings {

/// The names of the enums whose numbers results carry, by enum (index = the enum's number).
val names() {
  val o = val::object();
  for (const EnumNames& e : enum_names()) {
    val list = val::array();
    for (int i = 0; i < e.count; ++i) list.call<void>("push", std::string(e.name(i)));
    o.set(e.key, list);
  }
  return o;
}
/// voxnav/tables.h limits(), and the wasm heap's ceiling (-sMAXIMUM_MEMORY, CMakeLists.txt):
/// everything a module's Worlds hold shares it; past it a call fails with OutOfMemory.
val limits() {
  val o = val::object();
  for (const NamedLimit& l : voxnav::limits()) o.set(l.name, l.value);
  o.set("maxHeapBytes", double(emscripten_get_heap_max()));
  return o;
}

// ---- the module boundary: no C++ exception reaches JS (docs/bindings.md) ----
#ifdef VOXNAV_WASM_EXCEPTIONS
constexpr bool kExceptions = true;
[[noreturn]] void throw_out_of_memory(const char* fn, bool world_unchanged) {
  val e = val::object();
  e.set("voxnavOutOfMemory", true), e.set("function", std::string(fn));
  e.set("worldUnchanged", world_unchanged);
  e.throw_();
}
/// f(args...), any exception thrown on as { voxnavOutOfMemory, function, worldUnchanged }.
template <class R, class... A>
std::function<R(A...)> guarded(const char* fn, R (*f)(A...)) {
  return [fn, f](A... a) -> R {
    bool unchanged = false;
    try {
      return f(std::forward<A>(a)...);
    } catch (const ArgumentOutOfMemory&) {  // copy_typed (convert.h): the World was not called
      unchanged = true;
    } catch (...) {
    }
    throw_out_of_memory(fn, unchanged);
  };
}
WorldCore* make_core(int delay, bool threaded) {
  try {
    return new WorldCore(delay, threaded);
  } catch (...) {
  }
  throw_out_of_memory("World", true);
}
#else
constexpr bool kExceptions = false;
#endif
#ifdef VOXNAV_WASM_THREADS
constexpr bool kThreads = true;
#else
constexpr bool kThreads = false;
#endif

/// The WorldCore class, its calls registered by JS name (guarded when exceptions are built).
struct Core : emscripten::class_<WorldCore> {
  Core() : class_("WorldCore") {
#ifdef VOXNAV_WASM_EXCEPTIONS
    class_::constructor(&make_core);
#else
    class_::constructor<int, bool>();
#endif
  }
  template <class F>  // a function (or a lambda without captures) of a WorldCore&
  const Core& def(const char* name, F f) const {
#ifdef VOXNAV_WASM_EXCEPTIONS
    class_::function(name, guarded(name, +f));
#else
    class_::function(name, +f);
#endif
    return *this;
  }
};

using C = WorldCore&;

/// An array of `items`, each pushed as it is.
template <class... T>
val array(const T&... items) {
  val list = val::array();
  (list.call<void>("push", items), ...);
  return list;
}
// ---- the calls that need more than converting their arguments one by one ----
/// `fn`: the JS function that called (defineBlocks writes the JSON).
int load_blocks(C c, val json, std::string fn) {
  if (c.done(c.world->load_blocks_json(typed(json, c.u8))) != 0) c.calls.error.function = fn;
  return c.calls.last_status();
}
int set_block_traits(C c, double value, std::string traits) {
  In in(c.calls, "set_block_traits");
  const std::uint16_t v = in.value(value, c.world->block_count());
  const auto set = [&](CallError* e) { return set_block_traits_json(*c.world, v, traits, e); };
  return in && c.calls.api("set_block_traits", set) ? 0 : c.calls.last_status();
}
/// positions: Int32Array of 3 per chunk, then World member `m` with them and `a`.
template <class M, class... A>
int chunks(C c, const char* fn, M m, const val& positions, const A&... a) {
  if (!c.calls.api(fn, [&](CallError* e) {
        return chunk_positions_of_numbers(typed(positions, c.i32), &c.chunks, e);
      }))
    return c.calls.last_status();
  const int st = c.done(m(*c.world, std::span<const ChunkPos>(c.chunks), a...));
  // The copy of a large load is not kept: the heap is shared by every World of the module.
  if (c.u16.capacity() > std::size_t{64} * kChunkValues) std::vector<std::uint16_t>().swap(c.u16);
  if (c.chunks.capacity() > 64) std::vector<ChunkPos>().swap(c.chunks);
  return st;
}
/// A batch (addAgents, setAgentGoals, teleportAgents, setBlocks; layouts: docs/bindings.md)
/// converted by `convert(&entries, error)` (voxnav/numbers.h), then World member `m`.
template <class T, class M, class F>
int batch(C c, const char* fn, M m, const std::string& list, F convert) {
  std::vector<T> entries;
  return c.calls.api(fn, [&](CallError* e) { return convert(&entries, e); })
             ? c.done(m(*c.world, std::span<const T>(entries), list))
             : c.calls.last_status();
}
int set_blocks(C c, val cells, val values, val single, std::string list) {
  return batch<BlockEdit>(c, M(set_blocks), list, [&](auto* out, auto* e) {
    return block_edits_of_numbers(typed(cells, c.f64), typed(values, c.in), typed(single, c.u8),
                                  list, out, e);
  });
}
val add_profile(C c, std::string json, std::string source) {
  ProfileId id;
  std::string warn;
  const auto add = [&](CallError* e) {
    return add_profile_json(*c.world, json, source, &id, &warn, e);
  };
  return c.calls.api("add_profile", add) ? (c.last_warning = warn, c.js(id)) : val::undefined();
}
/// A block name that is no string crosses as "", which the World refuses naming it.
val define_area(C c, val name, val blocks, double cost) {
  In in(c.calls, "define_area");
  const std::string n = in.text(name, "name");
  if (!blocks.isArray())
    in.refuse("blocks", "an array of block names", "area \"" + n + "\": blocks");
  std::vector<std::string> names(in ? blocks["length"].as<std::size_t>() : 0);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (blocks[i].isString()) names[i] = blocks[i].as<std::string>();
  return in ? c.get<AreaId>(M(define_area), n, std::span<const std::string>(names), cost)
            : val::undefined();
}
val find_area(C c, val name) {
  In in(c.calls, "find_area");
  const std::string n = in.text(name, "name");
  return in ? c.get<AreaId>(M(find_area), n) : val::undefined();
}

/// request() (a handle number) and find_path_now() (status, then waypoints when ready).
template <bool kNow>
val search(C c, double profile, val start, val goal, double range, bool toward, double excluded,
           val multipliers) {
  const char* fn = kNow ? "find_path_now" : toward ? "request_toward" : "request";
  NavRequest req;
  PathHandle h;
  PathResult r;
  double id = 0;
  if (!c.calls.api(fn, [&](CallError* e) {
        if (!copy_typed(multipliers, c.f64))
          return wrong_type("filter", "a Float64Array (one entry per area)", e,
                            "filter: multipliers");
        return request_of_numbers(profile, typed(start, c.in), typed(goal, c.f64b), range, toward,
                                  excluded, c.f64, c.calls.tag, &req, e);
      }))
    return val::undefined();
  if (const Status st = kNow ? c.world->find_path_now(req, &r) : c.world->request(req, &h);
      st != Status::Ok)
    return c.result(st, val::undefined());
  if (kNow && r.status.state != PathState::Ready) r.waypoints.clear();
  if (kNow) return c.js(r.status), append_numbers(r.waypoints, &c.f64), c.calls.ok(fn), view(c.f64);
  if (c.calls.api(fn, [&](CallError* e) { return id_number(h, &id, e); })) return val(id);
  return (void)c.world->release(h), val::undefined();
}
// ---- agents (one agent: a batch of one, `list` "") ----
/// World::add_agents (goals: flag, cell) through add_agents_numbered; returns the id numbers.
val add_agents(C c, val profiles, val feet, val goals, std::string list) {
  std::vector<AgentDef> defs;
  std::vector<AgentId> ids;
  const auto add = [&](CallError* e) {
    const Status st = agent_defs_of_numbers(typed(profiles, c.in), typed(feet, c.f64),
                                            typed(goals, c.f64b), list, c.calls.tag, &defs, e);
    return st != Status::Ok ? st : add_agents_numbered(*c.world, defs, list, &ids, &c.f64, e);
  };
  if (!c.calls.api("add_agents", add)) return val::undefined();
  c.agents.insert(c.agents.end(), ids.begin(), ids.end());
  return view(c.f64);
}
int set_agent_goals(C c, val agents, val goals, std::string list) {
  return batch<AgentGoal>(c, M(set_agent_goals), list, [&](auto* out, auto* e) {
    return agent_goals_of_numbers(typed(agents, c.in), typed(goals, c.f64), list, c.calls.tag, out,
                                  e);
  });
}
int teleport_agents(C c, val agents, val feet, std::string list) {
  return batch<AgentMove>(c, M(teleport_agents), list, [&](auto* out, auto* e) {
    return agent_moves_of_numbers(typed(agents, c.in), typed(feet, c.f64), list, c.calls.tag, out,
                                  e);
  });
}
int remove_agent(C c, double number) {
  In in(c.calls, "remove_agent");
  const AgentId id = in(agent(number));
  if (!in || c.done(c.world->remove_agent(id)) != 0) return c.calls.last_status();
  std::erase_if(c.agents,
                [&](AgentId a) { return a.index == id.index && a.generation == id.generation; });
  return 0;
}
/// The "worldStats" layout, then the live agents and the pthread's jobs run.
val stats(C c) {
  double jobs = 0;
#ifdef VOXNAV_WASM_THREADS
  if (c.threaded) jobs = double(WorldCore::pool().jobs_run());
#endif
  c.js(c.world->stats());
  return c.f64.push_back(double(c.agents.size())), c.f64.push_back(jobs), view(c.f64);
}

// ---- free functions of the C++ API (io.h, columns.h, integrate.h, state_hash.h) ----
val load_anvil_columns(C c, val data, val offsets, bool skip_empty_proto, bool full_only) {
  std::vector<std::uint8_t> bytes;  // not kept: the heap is shared by every World of the module
  std::vector<std::uint32_t> offs;
  LoadReport r;
  const LoadOptions options{.skip_empty_proto_chunks = skip_empty_proto,
                            .full_chunks_only = full_only};
  if (!c.calls.api("load_anvil_columns", [&](CallError* e) {
        const Status st =
            load_anvil_columns(*c.world, typed(data, bytes), typed(offsets, offs), options, &r);
        return *e = CallError{st, "", "columns", r.message}, st;
      }))
    return val::undefined();
  val report = array(c.js(r), r.format);
  for (const UnknownBlock& n : r.unknown_names) report.call<void>("push", n.name);
  return report;
}

/// A module function (not a WorldCore call): it checks the copy of the file against the heap
/// (copy_typed) and catches at its own boundary.
val list_region_chunks(val region) {
  const auto out_of_memory = [] {
    g_refused_copy_bytes = 0;
    return array(int(Status::OutOfMemory),
                 std::string("out of memory: the wasm heap cannot hold the region file"),
                 val::global("Float64Array").new_(0));
  };
  try {
    std::vector<std::uint8_t> bytes;
    std::vector<RegionChunk> chunks;
    std::string err;
    const std::span<const std::uint8_t> file = typed(region, bytes);
    if (g_refused_copy_bytes > 0) return out_of_memory();
    const Status st = voxnav::list_region_chunks(file, &chunks, &err);
    std::vector<double> numbers;
    append_numbers(chunks, &numbers);
    val list = array(int(st), err, val::global("Float64Array").new_(view(numbers)));
    for (const RegionChunk& c : chunks) list.call<void>("push", c.reason);
    return list;
  } catch (...) {
  }
  return out_of_memory();
}

val top_blocks(C c, val min, val max) {
  In in(c.calls, "top_blocks");
  const CellPos a = in(cell(min, "min")), b = in(cell(max, "max"));
  static std::vector<std::int32_t> heights;  // one pair for the module, not one per World
  static std::vector<std::uint16_t> values;
  const auto tops = [&](CallError* e) { return column_tops(*c.world, a, b, &heights, &values, e); };
  return in && c.calls.api("top_blocks", tops) ? array(view(heights), view(values))
                                               : val::undefined();
}

val profile_body(C c, double profile) {
  In in(c.calls, "profile_body");
  const ProfileId pid = in(bindings::profile(profile));
  BodyParams p;
  const auto body = [&](CallError* e) { return voxnav::profile_body(*c.world, pid, &p, e); };
  return in && c.calls.api("profile_body", body) ? c.js(p) : val::undefined();
}

/// packed: the 26 numbers of body_step_of_numbers (voxnav/numbers.h).
val step_body(C c, val packed, double dt) {
  StepResult r;
  BodyInput input;
  BodyParams p;
  const auto step = [&](CallError* e) {
    const Status st = body_step_of_numbers(typed(packed, c.in), &r.state, &input, &p, e);
    return st != Status::Ok ? st : voxnav::step_body(*c.world, r.state, input, p, dt, &r.report, e);
  };
  return c.calls.api("step_body", step) ? c.js(r) : val::undefined();
}

/// gap_jump_run for a body of this gravity and jump velocity: [speed, take_off].
val gap_jump_run(C c, double gravity, double jump_velocity, double cells, double walk,
                 double sprint) {
  In in(c.calls, "gap_jump_run");
  const int n = in(integer("cells", cells));
  BodyParams p;
  p.gravity = gravity;
  p.jump_velocity = jump_velocity;
  double speed = 0, take_off = 0;
  const auto run = [&](CallError* e) {
    return voxnav::gap_jump_run(p, n, walk, sprint, &speed, &take_off, e);
  };
  if (!in || !c.calls.api("gap_jump_run", run)) return val::undefined();
  c.f64.assign({speed, take_off});
  return view(c.f64);
}

val block_def(C c, double value) {
  In in(c.calls, "block_def");
  const std::uint16_t v = in.value(value, c.world->block_count());
  BlockDef d;
  if (!in || c.done(c.world->block_def(v, &d)) != 0) return val::undefined();
  return array(d.name, d.traits.door_toggle_name, c.js(d));
}

std::string state_hash(C c) {
  std::uint64_t h = 0;
  const auto hash = [&](CallError* e) { return voxnav::state_hash(*c.world, c.agents, &h, e); };
  return c.calls.api("state_hash", hash) ? state_hash_text(h) : std::string();
}


// ---- agents the game controls and the queries a brain asks (control.h, queries.h) ----
/// API function f(World&, args..., CallError*) of C++ name `fn`, its arguments converted (In):
/// its Status as an int.
template <class F, class... A>
int api_run(C c, const char* fn, F f, const A&... a) {
  In in(c.calls, fn);
  std::tuple args{in(a)...};
  const auto run = [&](CallError* e) {
    return std::apply([&](auto&... x) { return f(*c.world, x..., e); }, args);
  };
  return in && c.calls.api(fn, run) ? 0 : c.calls.last_status();
}
/// The same for f(World&, args..., Out*, CallError*): the value as JS, or undefined.
template <class Out, class F, class... A>
val api_get(C c, const char* fn, F f, const A&... a) {
  In in(c.calls, fn);
  std::tuple args{in(a)...};
  Out out{};
  const auto get = [&](CallError* e) {
    return std::apply([&](auto&... x) { return f(*c.world, x..., &out, e); }, args);
  };
  if (!in || !c.calls.api(fn, get)) return val::undefined();
  if constexpr (std::is_same_v<Out, AgentLocomotion>) {
    c.f64.assign({double(out.yaw), double(out.edge), out.cruise_speed, out.distance_to_stop,
                  double(out.sprinting), double(out.knocked), double(out.knocks),
                  double(out.lock_resumes), double(out.lock_replans)});
    return view(c.f64);
  } else {
    return c.js(out);
  }
}
/// A whole number of 0 .. max as T, else `name` refused as "<name> must be <type>".
template <class T>
T whole(In& in, double v, double max, const char* name, const char* type) {
  if (!(v >= 0 && v <= max && v == std::floor(v))) in.refuse(name, type);
  return in ? static_cast<T>(v) : T{};
}
/// The calls of control.h on one agent that return only a Status, by `op` (one Embind function
/// for all: each costs wasm size), with their other arguments: `other` (an id number), `v` ([x,
/// y, z]) and `x` (a number), as each needs them.
enum AgentOp { kStop, kSprint, kKnock, kChaseAgent, kChaseEntity, kFlee, kFollow, kTeleport };
int agent_call(C c, int op, double a, double other, val v, double x) {
  static constexpr const char* kNames[] = {"stop_agent",   "set_agent_sprint", "knock_agent",
                                           "chase_agent",  "chase_entity",     "flee_from",
                                           "follow_path",  "teleport_agent_facing"};
  const bool known = op >= kStop && op <= kTeleport;
  const char* fn = known ? kNames[op] : "agent_call";
  In in(c.calls, fn);
  if (!known) in.refuse("op", "an agent call number (0 .. 7)");
  const AgentId id = in(agent(a));
  AgentId target;
  EntityId thing;
  PathHandle handle;
  Vec3 p;
  CellPos from;
  int n = 0;
  std::uint16_t yaw = 0;
  if (op == kChaseAgent) target = in(agent(other, "target"));
  if (op == kChaseEntity) thing = in(entity(other, "target"));
  if (op == kFollow) handle = in(path(other));
  if (op == kKnock) p = in(vec(v, "impulse"));
  if (op == kTeleport) p = in(vec(v, "feet"));
  if (op == kFlee) from = in(cell(v, "from")), n = in(integer("distance", x));
  if (op == kTeleport)
    yaw = whole<std::uint16_t>(in, x, 65535, "yaw", "an integer binary angle in 0 .. 65535");
  World& w = *c.world;
  const auto run = [&](CallError* e) {
    switch (op) {
      case kSprint: return set_agent_sprint(w, id, x != 0, e);
      case kKnock: return knock_agent(w, id, p, e);
      case kChaseAgent: return chase_agent(w, id, target, x, e);
      case kChaseEntity: return chase_entity(w, id, thing, x, e);
      case kFlee: return flee_from(w, id, from, n, e);
      case kFollow: return follow_path(w, id, handle, e);
      case kTeleport: return teleport_agent_facing(w, id, p, yaw, e);
      default: return stop_agent(w, id, e);
    }
  };
  return in && c.calls.api(fn, run) ? 0 : c.calls.last_status();
}
/// agents: id numbers; impulses: 3 per agent. Entries named "knocks[i].agent" as knock_agents.
int knock_agents(C c, val agents, val impulses) {
  std::vector<AgentKnock> knocks;
  const auto knock = [&](CallError* e) {
    const std::span<const double> a = typed(agents, c.in), v = typed(impulses, c.f64);
    if (v.size() != 3 * a.size())
      return wrong_type("impulses", "a Float64Array of 3 numbers per agent", e);
    knocks.resize(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      knocks[i].impulse = Vec3{v[3 * i], v[3 * i + 1], v[3 * i + 2]};
      const std::string at = "knocks[" + std::to_string(i) + "].agent";
      if (const Status st = from_number(a[i], at, &knocks[i].agent, e, c.calls.tag);
          st != Status::Ok)
        return st;
    }
    return voxnav::knock_agents(*c.world, knocks, e);
  };
  return c.calls.api("knock_agents", knock) ? 0 : c.calls.last_status();
}
val lookahead(C c, double a, double length) {
  In in(c.calls, "agent_lookahead");
  const AgentId id = in(agent(a));
  std::vector<Waypoint> w;
  const auto look = [&](CallError* e) {
    std::size_t n = 0;
    Status st = agent_lookahead(*c.world, id, length, nullptr, 0, &n, e);
    if (st == Status::Ok && n > 0) {
      w.resize(n);
      st = agent_lookahead(*c.world, id, length, w.data(), w.size(), &n, e);
      w.resize(std::min(n, w.size()));
    }
    return st;
  };
  if (!in || !c.calls.api("agent_lookahead", look)) return val::undefined();
  c.f64.clear();
  append_numbers(std::span<const Waypoint>(w), &c.f64);
  return view(c.f64);
}
val add_entity(C c, val position) {
  In in(c.calls, "add_entity");
  const Vec3 p = in(vec(position, "position"));
  EntityId id;
  double n = 0;
  const auto add = [&](CallError* e) { return voxnav::add_entity(*c.world, p, &id, e); };
  if (!in || !c.calls.api("add_entity", add)) return val::undefined();
  return (void)id_number(id, &n), val(n);  // every entity has one (kMaxEntities < 2^21)
}
/// A CellFilter from fields [min_headroom, hazard_distance, exclude_fluids, min_distance, reach,
/// reach_cell x, y, z], avoid (3 numbers a point, into `points`) and reject (a function or not).
CellFilter cell_filter(C c, In& in, val fields, val avoid, val reject, std::vector<Vec3>& points) {
  CellFilter f;
  const std::span<const double> v = typed(fields, c.f64b), a = typed(avoid, c.f64);
  if (v.size() != 8) in.refuse("filter", "a Float64Array of 8 numbers");
  if (a.size() % 3 != 0) in.refuse("filter.avoid", "a Float64Array of 3 numbers a point");
  if (!in) return f;
  f.min_headroom = int_or_refused(v[0]), f.hazard_distance = int_or_refused(v[1]);
  f.exclude_fluids = v[2] != 0, f.min_distance = v[3];
  f.reach = static_cast<CellReach>(v[4] >= 0 && v[4] <= 3 && v[4] == std::floor(v[4]) ? v[4] : 255);
  const double rc[] = {v[5], v[6], v[7]};
  f.reach_cell = in.take<CellPos>(
      [&](auto* o, auto* e) { return from_numbers(rc, "filter.reach_cell", o, e); });
  for (std::size_t i = 0; i + 2 < a.size(); i += 3) points.push_back(Vec3{a[i], a[i + 1], a[i + 2]});
  f.avoid = points;
  if (reject.typeOf().as<std::string>() == "function")
    f.reject = [reject](CellPos p) { return reject(p.x, p.y, p.z).as<bool>(); };
  return f;
}
/// find_spawn_cells: [count, then 3 numbers a cell].
val spawn_cells(C c, double profile_number, val min, val max, val fields, val avoid, val reject,
                double seed, double max_cells) {
  In in(c.calls, "find_spawn_cells");
  const ProfileId p = in(profile(profile_number));
  const CellPos a = in(cell(min, "min")), b = in(cell(max, "max"));
  std::vector<Vec3> points;
  const CellFilter f = cell_filter(c, in, fields, avoid, reject, points);
  const auto s = whole<std::uint64_t>(in, seed, 9007199254740991.0, "seed", "an integer in 0 .. 2^53 - 1");
  const auto n = whole<std::size_t>(in, max_cells, 4294967295.0, "max_cells", "an integer count");
  std::vector<CellPos> out(std::clamp<std::size_t>(n, 1, kMaxSpawnCells));
  std::size_t count = 0;
  const auto find = [&](CallError* e) {
    return find_spawn_cells(*c.world, p, a, b, f, s, out.data(), n, &count, e);
  };
  if (!in || !c.calls.api("find_spawn_cells", find)) return val::undefined();
  c.f64.assign({double(count)});
  for (std::size_t i = 0; i < std::min(count, out.size()); ++i)
    c.f64.insert(c.f64.end(), {double(out[i].x), double(out[i].y), double(out[i].z)});
  return view(c.f64);
}
/// cell_moves: [count, then 5 numbers a move: x, y, z, kind, cost].
val cell_moves(C c, double profile_number, val from) {
  In in(c.calls, "cell_moves");
  const ProfileId p = in(profile(profile_number));
  const CellPos at = in(cell(from, "from"));
  std::array<CellMove, kMaxCellMoves> out;
  std::size_t count = 0;
  const auto moves = [&](CallError* e) {
    return voxnav::cell_moves(*c.world, p, at, out.data(), out.size(), &count, e);
  };
  if (!in || !c.calls.api("cell_moves", moves)) return val::undefined();
  c.f64.assign({double(count)});
  for (std::size_t i = 0; i < count; ++i)
    c.f64.insert(c.f64.end(), {double(out[i].to.x), double(out[i].to.y), double(out[i].to.z),
                               double(out[i].kind), double(out[i].cost)});
  return view(c.f64);
}
/// nearest_standable with a filter: the cell, or null when there is none.
val nearest_filtered(C c, double profile_number, val near, double radius, val fields, val avoid,
                     val reject) {
  const char* fn = "nearest_standable";
  In in(c.calls, fn);
  const ProfileId p = in(profile(profile_number));
  const CellPos at = in(cell(near, "near"));
  const int r = in(integer("radius", radius));
  std::vector<Vec3> points;
  const CellFilter f = cell_filter(c, in, fields, avoid, reject, points);
  CellPos out;
  Status st = Status::Ok;
  const auto find = [&](CallError* e) {
    st = nearest_standable(*c.world, p, at, r, f, &out, e);
    return st == Status::NotFound ? Status::Ok : st;
  };
  if (!in || !c.calls.api(fn, find)) return val::undefined();
  return st == Status::NotFound ? val::null() : c.js(out);
}
}  // namespace voxnav::bindings

EMSCRIPTEN_BINDINGS(voxnav) {
  using namespace voxnav;
  using namespace voxnav::bindings;
  emscripten::function("names", &names);
  emscripten::function("limits", &bindings::limits);
  emscripten::function(
      "threadsBuilt", +[] { return kThreads; });
  emscripten::function(
      "exceptionsBuilt", +[] { return kExceptions; });
  emscripten::function(
      "versionString", +[] { return std::string(version_string()); });
  emscripten::function("listRegionChunks", &bindings::list_region_chunks);
  // Whether a new World fits the heap (kNewWorldBytes and the headroom): asked by the World
  // constructor before it makes one (docs/memory.md).
  emscripten::function(
      "worldFits", +[] { return heap_has_room(kNewWorldBytes); });
  // By JS name; lastError() names the C++ call. Cells cross as [x, y, z].
  Core()
      .def("lastStatus", [](C c) { return c.calls.last_status(); })
      .def("lastError", [](C c) { return c.calls.last_error(); })
      .def("lastWarning", [](C c) { return c.last_warning; })
      .def("threaded", [](C c) { return c.threaded; })
      // registry
      .def("loadMinecraftBlocks",
           [](C c, val blocks, val shapes) {
             std::vector<std::uint8_t> b, s;
             return c.done(c.world->load_minecraft_blocks(typed(blocks, b), typed(shapes, s)));
           })
      .def("blockValue", [](C c, std::string s) { return c.get<std::uint16_t>(M(block_value), s); })
      .def("blockCount", [](C c) { return double(c.world->block_count()); })
      .def("loadBlocks", &load_blocks)
      .def("setBlockTraits", &set_block_traits)
      .def("blockDef", &bindings::block_def)
      // chunks and edits
      .def("loadChunks",
           [](C c, val p, val v) { return chunks(c, M(load_chunks), p, typed(v, c.u16)); })
      .def("loadChunk",
           [](C c, val p, val v) { return c.run(M(load_chunk), chunk(p), typed(v, c.u16)); })
      .def("unloadChunks", [](C c, val p) { return chunks(c, M(unload_chunks), p); })
      .def("unloadChunk", [](C c, val p) { return c.run(M(unload_chunk), chunk(p)); })
      .def("loadAnvilColumns", &bindings::load_anvil_columns)
      .def("setBlocks", &set_blocks)
      .def("getBlock", [](C c, val x) { return c.get<std::uint16_t>(M(get_block), cell(x)); })
      // profiles and areas
      .def("addProfile", &add_profile)
      .def("findProfile", [](C c, std::string s) { return c.get<ProfileId>(M(find_profile), s); })
      .def("defineArea", &define_area)
      .def("findArea", &find_area)
      // navigation queries (standingHeight, nearestStandable: null where there is none)
      .def("update", [](C c) { c.world->update(); })
      .def("navEpoch", [](C c) { return double(c.world->nav_epoch()); })
      .def("reachable",
           [](C c, double p, val a, val b) {
             return c.get<Reach>(M(reachable), profile(p), cell(a, "from"), cell(b, "goal"));
           })
      .def("isStandable",
           [](C c, double p, val x) { return c.get<bool>(M(is_standable), profile(p), cell(x)); })
      .def("standingHeight",
           [](C c, double p, val x) {
             return c.get<double, true>(M(standing_height), profile(p), cell(x));
           })
      .def("cellMoves", &bindings::cell_moves)
      .def("nearestStandable",
           [](C c, double p, val x, double r) {
             return c.get<CellPos, true>(M(nearest_standable), profile(p), cell(x, "near"),
                                         integer("radius", r));
           })
      // requests
      .def("request", &search<false>)
      .def("status", [](C c, double h) { return c.get<PathStatus>(M(status), path(h)); })
      .def("findPathNow", &search<true>)
      .def("corridor",
           [](C c, double h) { return c.get<Numbers>("corridor", API(corridor_numbers), path(h)); })
      .def("pathCells",
           [](C c, double h) {
             return c.get<Numbers>("path_cells", API(path_cell_numbers), path(h));
           })
      .def("release", [](C c, double h) { return c.run(M(release), path(h)); })
      // agents
      .def("addAgents", &add_agents)
      .def("removeAgent", &remove_agent)
      .def("setAgentGoals", &set_agent_goals)
      .def("agentState", [](C c, double a) { return c.get<AgentState>(M(agent_state), agent(a)); })
      .def("agentReason",
           [](C c, double a) { return c.get<std::string>(M(agent_reason), agent(a)); })
      .def("agentCorridor",
           [](C c, double a) {
             return c.get<Numbers>("agent_corridor", API(corridor_numbers), agent(a));
           })
      .def("teleportAgents", &teleport_agents)
      .def("agentsSnapshot",
           [](C c) {
             return c.get<Numbers>("agents_snapshot", API(agent_snapshot_numbers),
                                   std::span<const AgentId>(c.agents));
           })
      // doors
      .def("setDoorOpen",
           [](C c, val x, bool open) { return c.run(M(set_door_open), cell(x), open); })
      .def("takeDoorEvents",
           [](C c) { return c.get<Numbers>("take_door_events", API(take_door_event_numbers)); })
      .def("pendingDoorEvents", [](C c) { return double(c.world->pending_door_events()); })
      .def("navTick", [](C c) { return double(c.world->nav_tick()); })
      // chunk streaming, the search budget, the tick (ints the World checks)
      .def("setChunkStreaming", [](C c, bool on) { c.world->set_chunk_streaming(on); })
      .def("chunkStreaming", [](C c) { return c.world->chunk_streaming(); })
      .def("pendingChunkBuilds", [](C c) { return double(c.world->pending_chunk_builds()); })
      .def("setChunkBuildRadius",
           [](C c, double n) { return c.done(c.world->set_chunk_build_radius(int_or_refused(n))); })
      .def("chunkBuildRadius", [](C c) { return c.world->chunk_build_radius(); })
      .def("deferredChunkBuilds", [](C c) { return double(c.world->deferred_chunk_builds()); })
      .def(
          "setSearchesPerUpdate",
          [](C c, double n) { return c.done(c.world->set_searches_per_update(int_or_refused(n))); })
      .def("searchesPerUpdate", [](C c) { return c.world->searches_per_update(); })
      .def("queuedRequests", [](C c) { return double(c.world->queued_requests()); })
      .def("tick", [](C c, double dt) { return c.done(c.world->tick(dt)); })
      .def("stats", &stats)
      .def("searchTimesUs", [](C c) { return view(c.world->search_times_us()); })
      .def("stateHash", &bindings::state_hash)
      .def("topBlocks", &bindings::top_blocks)
      .def("profileBody", &bindings::profile_body)
      .def("stepBody", &bindings::step_body)
      .def("gapJumpRun", &bindings::gap_jump_run)
      // agents the game controls (control.h)
      .def("agentCall", &bindings::agent_call)
      .def("knockAgents", &bindings::knock_agents)
      .def("agentLocomotion",
           [](C c, double a) {
             return api_get<AgentLocomotion>(c, "agent_locomotion", API(agent_locomotion), agent(a));
           })
      .def("agentLookahead", &bindings::lookahead)
      .def("addEntity", &bindings::add_entity)
      .def("setEntityPosition",
           [](C c, double e, val p) {
             return api_run(c, "set_entity_position", API(set_entity_position), entity(e),
                            vec(p, "position"));
           })
      .def("entityPosition",
           [](C c, double e) {
             return api_get<Vec3>(c, "entity_position", API(entity_position), entity(e));
           })
      .def("removeEntity",
           [](C c, double e) { return api_run(c, "remove_entity", API(remove_entity), entity(e)); })
      .def("yawOfDirection",
           [](C c, val d) {
             return api_get<std::uint16_t>(
                 c, "yaw_of_direction", [](auto&, auto&&... a) { return yaw_of_direction(a...); },
                 vec(d, "direction"));
           })
      // queries a brain asks without a search (control.h, queries.h)
      .def("lineWalkable",
           [](C c, double p, val a, val b) {
             return api_get<bool>(c, "line_walkable", API(line_walkable), profile(p),
                                  cell(a, "from"), cell(b, "to"));
           })
      .def("lineFlyable",
           [](C c, double p, val a, val b) {
             return api_get<bool>(c, "line_flyable", API(line_flyable), profile(p),
                                  vec(a, "from"), vec(b, "to"));
           })
      .def("estimateTravel",
           [](C c, double p, val a, val b) {
             return api_get<double>(c, "estimate_travel", API(estimate_travel), profile(p),
                                    cell(a, "from"), cell(b, "to"));
           })
      .def("findSpawnCells", &bindings::spawn_cells)
      .def("nearestStandableFiltered", &bindings::nearest_filtered);
}
