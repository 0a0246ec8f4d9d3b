// voxnav bindings - the Embind module over the public API (src/api): WorldCore's calls
// (convert.h), the names of enums and statuses, and the limits of the C++ API (voxnav/tables.h).
// Conversion only: the World and the API functions check every rule and write the messages.
#include <emscripten/heap.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "convert.h"
#include "voxnav/columns.h"
#include "voxnav/integrate.h"
#include "voxnav/io.h"
#include "voxnav/state_hash.h"
#include "voxnav/tables.h"
#include "voxnav/version.h"

/// A World member (any overload) and its name, for WorldCore::run and get.
#define M(m) #m, [](auto& w, auto&&... a) { return w.m(a...); }

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

/// `undefined`, after `failed` (a failure recorded).
template <class T>
val none(const T&) {
  return val::undefined();
}
/// An array of `items`, each pushed as it is.
template <class... T>
val array(const T&... items) {
  val list = val::array();
  (list.call<void>("push", items), ...);
  return list;
}
/// Calls a C++ "count, then copy" API (f(out, capacity, &count)) twice: `out` gets every item.
template <class T, class F>
Status fetch_all(std::vector<T>& out, F&& f) {
  std::size_t n = 0;
  Status st = f(static_cast<T*>(nullptr), std::size_t{0}, &n);
  if (st != Status::Ok) return st;
  out.resize(n);
  st = f(out.data(), out.size(), &n);
  out.resize(std::min(n, out.size()));
  return st;
}
/// [positions 3n, cells 3n, kinds n] of `points`, after what c.f64 holds.
val waypoints(C c, const std::vector<Waypoint>& points) {
  put_fields(c.f64, points, &Waypoint::position, &Waypoint::cell, &Waypoint::kind);
  return view(c.f64);
}
double number_of(AgentId id) {  // every live agent has one (add_agents keeps no other)
  double n = -1;
  return (void)id_number(id, &n), n;
}

// ---- the calls that need more than converting their arguments one by one ----
/// `fn`: the JS function that called (defineBlocks writes the JSON).
int load_blocks(C c, val json, std::string fn) {
  if (c.done(c.world->load_blocks_json(typed(json, c.u8))) != 0) c.calls.error.function = fn;
  return c.calls.last_status();
}
int set_block_traits(C c, double value, std::string traits_json) {
  BlockTraitsChange t;
  std::string msg;
  if (const Status st = parse_block_traits_json(traits_json, &t.traits, &msg); st != Status::Ok)
    return c.calls.fail(st, "set_block_traits", "traits", msg);
  In in(c.calls, "set_block_traits");
  t.value = in.value16(value, c.world->block_count());
  return in ? c.done(c.world->set_block_traits(std::span(&t, 1))) : c.calls.last_status();
}
/// positions: Int32Array of 3 per chunk, then World member `m` with them and `a`.
template <class M, class... A>
int chunks(C c, const char* fn, M m, const val& positions, const A&... a) {
  const bool typed_ok = copy_typed(positions, c.i32);
  if (!typed_ok || c.i32.size() % 3 != 0)
    return c.calls.fail(Status::InvalidArgument, fn, "positions",
                        !typed_ok ? "positions must be an Int32Array"
                                  : "positions has " + std::to_string(c.i32.size()) +
                                        " entries, not a multiple of 3 (x, y, z per chunk)");
  c.chunks.clear();
  for (std::size_t i = 0; i < c.i32.size(); i += 3)
    c.chunks.push_back(ChunkPos{c.i32[i], c.i32[i + 1], c.i32[i + 2]});
  const int st = c.done(m(*c.world, std::span<const ChunkPos>(c.chunks), a...));
  // The copy of a large load is not kept: the heap is shared by every World of the module.
  if (c.u16.capacity() > std::size_t{64} * kChunkValues) std::vector<std::uint16_t>().swap(c.u16);
  if (c.chunks.capacity() > 64) std::vector<ChunkPos>().swap(c.chunks);
  return st;
}
/// World::set_blocks (also setBlock, setBox); layout: docs/bindings.md.
int set_blocks(C c, val cells, val values, val single, std::string list) {
  In in(c.calls, "set_blocks");
  if (!copy_typed(cells, c.f64) || !copy_typed(values, c.in) || !copy_typed(single, c.u8) ||
      c.f64.size() != 6 * c.in.size() || c.u8.size() != c.in.size())
    in.fail(Status::InvalidArgument, list, "edits must be 6 cell numbers, a value and a flag each");
  std::vector<BlockEdit> edits(in ? c.in.size() : 0);
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const bool one = edits[i].cell = c.u8[i] != 0;
    edits[i].min = in.cell(entry(list, i, one ? "cell" : "min"), &c.f64[6 * i]);
    edits[i].max = in.cell(entry(list, i, one ? "cell" : "max"), &c.f64[6 * i + 3]);
    edits[i].value = in(Arg<std::int64_t>{entry(list, i, "value"), c.in[i]});
  }
  return in ? c.done(c.world->set_blocks(edits, list)) : c.calls.last_status();
}
val add_profile(C c, std::string json, std::string source) {
  Profile p;
  ProfileId id;
  std::string err, warn;
  if (const Status st = parse_profile_json(json, p, &err, &warn, source); st != Status::Ok)
    return none(c.calls.fail(st, "add_profile", "profile", err));
  const Status st = c.world->add_profile(p, &id);
  if (st == Status::Ok) c.last_warning = warn;
  return c.result(st, c.js(id));
}
val define_area(C c, val name, val blocks, double cost) {
  In in(c.calls, "define_area");
  std::vector<std::string> names;
  if (!name.isString())
    return none(in.fail(Status::InvalidArgument, "name", "name must be a string"));
  const std::string at = "area \"" + name.as<std::string>() + "\": ";
  if (!blocks.isArray())
    in.fail(Status::InvalidArgument, "blocks", at + "blocks must be an array of block names");
  for (std::size_t i = 0, n = in ? blocks["length"].as<std::size_t>() : 0; in && i < n; ++i) {
    if (blocks[i].isString())
      names.push_back(blocks[i].as<std::string>());
    else
      in.fail(Status::InvalidArgument, "blocks",
              at + "blocks[" + std::to_string(i) + "] is not a block name (a non-empty string)");
  }
  return in ? c.get<AreaId>(M(define_area), name.as<std::string>(),
                            std::span<const std::string>(names), cost)
            : val::undefined();
}
val find_area(C c, val name) {
  if (name.isString()) return c.get<AreaId>(M(find_area), name.as<std::string>());
  return none(c.calls.fail(Status::InvalidArgument, "find_area", "name", "name must be a string"));
}

/// request() (a handle number) and find_path_now() (status, then waypoints when ready).
template <bool kNow>
val search(C c, double profile, val start, val goal, double range, bool toward, double excluded,
           val multipliers) {
  const char* fn = kNow ? "find_path_now" : toward ? "request_toward" : "request";
  In in(c.calls, fn);
  const auto cell = [&](const char* name, const val& v) {
    if (in && (!copy_typed(v, c.in) || c.in.size() != 3))
      in.fail(Status::InvalidArgument, name,
              std::string(name) + " must be a Float64Array [x, y, z]");
    return in.cell(name, c.in.data());
  };
  NavRequest req;
  req.profile = in(bindings::profile(profile));
  req.start = cell("start", start), req.goal = cell("goal", goal);
  req.goal_range = in(integer("range", range)), req.toward = toward;
  if (in && !copy_typed(multipliers, c.in))
    in.fail(Status::InvalidArgument, "filter",
            "filter: multipliers must be a Float64Array (one entry per area)");
  req.filter = in.take<AreaFilter>(
      [&](auto* o, auto* e) { return area_filter_of_numbers(excluded, c.in, o, e); });
  if (!in) return val::undefined();
  PathHandle h;
  PathResult r;
  double id = 0;
  if (const Status st = kNow ? c.world->find_path_now(req, &r) : c.world->request(req, &h);
      st != Status::Ok)
    return c.result(st, val::undefined());
  if (kNow && r.status.state != PathState::Ready) r.waypoints.clear();
  if (kNow) return c.js(r.status), c.calls.ok(), waypoints(c, r.waypoints);
  if (id_number(h, &id)) return c.calls.ok(), val(id);
  (void)c.world->release(h);
  return c.calls.fail(Status::Unsupported, fn, "",
                      "more than 524288 requests of one class are held; release some"),
         val::undefined();
}
/// waypoints() of corridor or agent_corridor (`m`) of id `a`; an agent's corridor epoch last.
template <class M, class A>
val corridor_of(C c, const char* fn, M m, const A& a) {
  In in(c.calls, fn);
  const auto id = in(a);
  AgentState s;
  constexpr bool kAgent = std::is_same_v<decltype(id), const AgentId>;
  if (!in) return val::undefined();
  if constexpr (kAgent)
    if (c.done(c.world->agent_state(id, &s)) != 0) return val::undefined();
  const Status st = fetch_all(c.points, [&](Waypoint* o, std::size_t cap, std::size_t* n) {
    return m(*c.world, id, o, cap, n);
  });
  c.f64.clear();
  if (c.done(st) != 0) return val::undefined();
  waypoints(c, c.points);
  if (kAgent) c.f64.push_back(s.corridor_epoch);
  return view(c.f64);
}
val path_cells(C c, double path) {
  In in(c.calls, "path_cells");
  const PathHandle h = in(bindings::path(path));
  std::vector<PathCell> cells;
  if (!in) return val::undefined();
  const Status st = fetch_all(cells, [&](PathCell* o, std::size_t cap, std::size_t* n) {
    return c.world->path_cells(h, o, cap, n);
  });
  c.f64.clear();
  put_fields(c.f64, cells, &PathCell::cell, &PathCell::kind);
  return c.result(st, view(c.f64));
}

// ---- agents (one agent: a batch of one, `list` "") ----
/// A batch: `one` (n numbers, to c.in), `three` (3n, c.f64), `more` (3n, c.f64b, unless
/// undefined); entry i is make(in, i, field namer), then m(world, entries).
template <class T, class Make, class M>
int batch(C c, const char* fn, const std::string& list, const val& one, const val& three,
          const val& more, Make make, M m) {
  In in(c.calls, fn);
  if (!copy_typed(one, c.in) || !copy_typed(three, c.f64) || c.f64.size() != 3 * c.in.size() ||
      (!more.isUndefined() && (!copy_typed(more, c.f64b) || c.f64b.size() != c.f64.size())))
    in.fail(Status::InvalidArgument, list, list + " must be Float64Arrays");
  std::vector<T> entries(in ? c.in.size() : 0);
  for (std::size_t i = 0; i < entries.size(); ++i)
    entries[i] = make(in, i, [&](const char* field) { return entry(list, i, field); });
  return in ? c.done(m(*c.world, entries)) : c.calls.last_status();
}
Vec3 vec3(const double* v) { return Vec3{v[0], v[1], v[2]}; }
/// World::add_agents (goal x NaN: none); returns the ids.
val add_agents(C c, val profiles, val feet, val goals, std::string list) {
  std::vector<AgentId> ids;
  const auto make = [&](In& in, std::size_t i, auto at) {
    AgentDef d{in(profile(c.in[i], at("profile"))), vec3(&c.f64[3 * i])};
    if (!std::isnan(c.f64b[3 * i])) d.goal = in.cell(at("goal"), &c.f64b[3 * i]);
    return d;
  };
  const auto add = [&](World& w, std::span<const AgentDef> defs) {
    ids.resize(defs.size());
    return w.add_agents(defs, ids.data(), list);
  };
  if (batch<AgentDef>(c, "add_agents", list, profiles, feet, goals, make, add) != 0)
    return val::undefined();
  c.in.clear();
  for (const AgentId& id : ids)
    if (double n = 0; id_number(id, &n)) c.in.push_back(n);
  if (c.in.size() < ids.size()) {  // every agent just added needs an id number, or none stays
    for (const AgentId& a : ids) (void)c.world->remove_agent(a);
    return none(c.calls.fail(Status::Unsupported, "add_agents", "", "more than 2097152 agents"));
  }
  c.agents.insert(c.agents.end(), ids.begin(), ids.end());
  return view(c.in);
}
int set_agent_goals(C c, val agents, val goals, std::string list) {
  const auto make = [&](In& in, std::size_t i, auto at) {
    return AgentGoal{in(agent(c.in[i], at("agent"))), in.cell(at("goal"), &c.f64[3 * i])};
  };
  return batch<AgentGoal>(c, "set_agent_goals", list, agents, goals, val::undefined(), make,
                          [&](World& w, auto& e) { return w.set_agent_goals(e, list); });
}
int teleport_agents(C c, val agents, val feet, std::string list) {
  const auto make = [&](In& in, std::size_t i, auto at) {
    return AgentMove{in(agent(c.in[i], at("agent"))), vec3(&c.f64[3 * i])};
  };
  return batch<AgentMove>(c, "teleport_agents", list, agents, feet, val::undefined(), make,
                          [&](World& w, auto& e) { return w.teleport_agents(e, list); });
}
int remove_agent(C c, double number) {
  In in(c.calls, "remove_agent");
  const AgentId id = in(agent(number));
  if (!in || c.done(c.world->remove_agent(id)) != 0) return c.calls.last_status();
  std::erase_if(c.agents,
                [&](AgentId a) { return a.index == id.index && a.generation == id.generation; });
  return 0;
}
/// Every live agent in the order added (layout: docs/bindings.md).
val agents_snapshot(C c) {
  std::vector<AgentState> s(c.agents.size());
  for (std::size_t i = 0; i < s.size(); ++i) (void)c.world->agent_state(c.agents[i], &s[i]);
  c.f64.clear();
  for (const AgentId& id : c.agents) put(c.f64, number_of(id));
  put_fields(c.f64, s, &AgentState::feet, &AgentState::velocity, &AgentState::mode,
             &AgentState::on_ground, &AgentState::corridor_epoch);
  return view(c.f64);
}
val take_door_events(C c) {
  std::vector<DoorEvent> ev(c.world->pending_door_events());
  std::size_t n = 0;
  (void)c.world->take_door_events(ev.data(), ev.size(), &n);
  ev.resize(n), c.f64.clear();
  for (const DoorEvent& e : ev) put(c.f64, number_of(e.agent));
  put_fields(c.f64, ev, &DoorEvent::door, &DoorEvent::tick);
  return c.calls.ok(), view(c.f64);
}
val stats(C c) {
  const WorldStats s = c.world->stats();
  double jobs = 0;
#ifdef VOXNAV_WASM_THREADS
  if (c.threaded) jobs = double(WorldCore::pool().jobs_run());
#endif
  return c.numbers(s.searches, s.nodes_expanded, s.maintenance_runs, s.last_maintenance_ms,
                   s.standable_cells, s.islands, c.agents.size(), jobs);
}

// ---- free functions of the C++ API (io.h, columns.h, integrate.h, state_hash.h) ----
val load_anvil_columns(C c, val data, val offsets, bool skip_empty_proto, bool full_only) {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint32_t> offs;
  LoadReport r;
  r.message = "columns must be a Uint8Array and offsets into it from 0 to its length";
  const LoadOptions options{.skip_empty_proto_chunks = skip_empty_proto,
                            .full_chunks_only = full_only};
  if (const Status st = copy_typed(data, bytes) && copy_typed(offsets, offs)
                            ? voxnav::load_anvil_columns(*c.world, bytes, offs, options, &r)
                            : Status::InvalidArgument;
      st != Status::Ok)
    return none(c.calls.fail(st, "load_anvil_columns", "columns", r.message));
  val report =
      array(c.numbers(r.columns_loaded, r.chunks_loaded, r.uniform_chunks, r.empty_proto_chunks,
                      r.proto_chunks_left_out, r.data_version_min, r.data_version, r.unknown_blocks,
                      r.unknown_properties, r.min, r.max),
            r.format);
  for (const UnknownBlock& n : r.unknown_names) report.call<void>("push", n.name);
  c.calls.ok();
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
    std::string err = "file must be a Uint8Array";
    const bool copied = copy_typed(region, bytes);
    if (!copied && g_refused_copy_bytes > 0) return out_of_memory();
    const Status st = copied ? voxnav::list_region_chunks(bytes, &chunks, &err) : Status::InvalidArgument;
    std::vector<double> numbers;
    for (const RegionChunk& c : chunks)
      put(numbers, c.index, c.compression, c.offset, c.size, c.skipped);
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
  if (!in) return val::undefined();
  // Buffers for the columns asked for, when column_tops will accept them (it checks the limits).
  const double columns = (double(b.x) - a.x + 1) * (double(b.z) - a.z + 1);
  const bool fits = a.x <= b.x && a.z <= b.z && columns <= double(kMaxColumnTopsColumns);
  static std::vector<std::int32_t> heights;  // one pair for the module, not one per World
  static std::vector<std::uint16_t> values;
  heights.resize(fits ? std::size_t(columns) : 0);
  values.resize(heights.size());
  return c.calls.api("top_blocks",
                     [&](CallError* e) {
                       return column_tops(*c.world, a, b, heights.data(), values.data(),
                                          heights.size(), e);
                     })
             ? array(view(heights), view(values))
             : val::undefined();
}

val profile_body(C c, double profile) {
  In in(c.calls, "profile_body");
  const ProfileId pid = in(bindings::profile(profile));
  BodyParams p;
  if (!in || !c.calls.api("profile_body",
                          [&](CallError* e) { return voxnav::profile_body(*c.world, pid, &p, e); }))
    return val::undefined();
  return c.numbers(p.width, p.height, p.step_height, p.gravity, p.jump_velocity, p.terminal_speed,
                   p.climb_speed);
}

val step_body(C c, val packed, double dt) {
  std::vector<double>& in = c.in;
  if (!copy_typed(packed, in) || in.size() != 26)
    return none(c.calls.fail(Status::InvalidArgument, "step_body", "state",
                             "packed must be a Float64Array of 26 numbers"));
  // A mode or intent that is no enum value becomes 255, which step_body refuses (naming it).
  const auto small = [](double v) { return std::uint8_t(v >= 0 && v <= 255 ? v : 255); };
  const auto vec = [&](int at) { return vec3(&in[at]); };
  BodyState s{.feet = vec(0),
              .velocity = vec(3),
              .on_ground = in[9] != 0,
              .mode = static_cast<BodyMode>(small(in[10])),
              .carry = vec(6)};
  const BodyInput input{in[11], in[12], in[13] != 0, static_cast<ClimbIntent>(small(in[14])),
                        in[15], vec(16)};
  const BodyParams p{in[19], in[20], in[21], in[22], in[23], in[24], in[25]};
  StepReport r;
  if (!c.calls.api("step_body", [&](CallError* e) {
        return voxnav::step_body(*c.world, s, input, p, dt, &r, e);
      }))
    return val::undefined();
  return c.numbers(s.feet, s.velocity, s.carry, s.on_ground, s.mode, r.displacement, r.hit_wall_x,
                   r.hit_wall_z, r.wall_speed, r.hit_ceiling, r.landed, r.landing_speed,
                   r.stepped_up, r.step_rise, r.climbing, r.in_fluid);
}

val block_def(C c, double value) {
  In in(c.calls, "block_def");
  const std::uint16_t v = in.value16(value, c.world->block_count());
  BlockDef d;
  if (!in || c.done(c.world->block_def(v, &d)) != 0) return val::undefined();
  const BlockTraits& t = d.traits;
  c.numbers(t.door, t.door_toggle == kNoBlockValue ? -1.0 : t.door_toggle, t.climbable, t.hazard,
            t.slow, t.fluid);
  for (const BlockBox& b : d.boxes)
    put(c.f64, b.min_x, b.min_y, b.min_z, b.max_x, b.max_y, b.max_z);
  return array(d.name, t.door_toggle_name, view(c.f64));
}

std::string state_hash(C c) {
  std::uint64_t h = 0;
  if (voxnav::state_hash(*c.world, c.agents, &h) != Status::Ok)
    return c.calls.fail(Status::StaleHandle, "state_hash", "",
                        "an agent of this world is no longer live"),
           std::string();
  c.calls.ok();
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
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
      .def("nearestStandable",
           [](C c, double p, val x, double r) {
             return c.get<CellPos, true>(M(nearest_standable), profile(p), cell(x, "near"),
                                         integer("radius", r));
           })
      // requests
      .def("request", &search<false>)
      .def("status", [](C c, double h) { return c.get<PathStatus>(M(status), path(h)); })
      .def("findPathNow", &search<true>)
      .def("corridor", [](C c, double h) { return corridor_of(c, M(corridor), path(h)); })
      .def("pathCells", &path_cells)
      .def("release", [](C c, double h) { return c.run(M(release), path(h)); })
      // agents
      .def("addAgents", &add_agents)
      .def("removeAgent", &remove_agent)
      .def("setAgentGoals", &set_agent_goals)
      .def("agentState", [](C c, double a) { return c.get<AgentState>(M(agent_state), agent(a)); })
      .def("agentReason",
           [](C c, double a) { return c.get<std::string>(M(agent_reason), agent(a)); })
      .def("agentCorridor",
           [](C c, double a) { return corridor_of(c, M(agent_corridor), agent(a)); })
      .def("teleportAgents", &teleport_agents)
      .def("agentsSnapshot", &agents_snapshot)
      // doors
      .def("setDoorOpen",
           [](C c, val x, bool open) { return c.run(M(set_door_open), cell(x), open); })
      .def("takeDoorEvents", &take_door_events)
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
      .def("searchTimesUs",
           [](C c) {
             const std::span<const double> t = c.world->search_times_us();
             return val(typed_memory_view(t.size(), t.data()));
           })
      .def("stateHash", &bindings::state_hash)
      .def("topBlocks", &bindings::top_blocks)
      .def("profileBody", &bindings::profile_body)
      .def("stepBody", &bindings::step_body);
}
