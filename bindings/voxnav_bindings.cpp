// voxnav bindings - the Embind module over the public API (src/api): WorldCore's calls
// (convert.h), the names of enums and statuses, and the limits of the C++ API (voxnav/tables.h).
// Conversion only: the World and the API functions check every rule and write the messages.
#include <emscripten/heap.h>

#include <algorithm>
#include <functional>
#include <string>

#include "convert.h"
#include "voxnav/columns.h"
#include "voxnav/integrate.h"
#include "voxnav/io.h"
#include "voxnav/layouts.h"
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
      .def("stepBody", &bindings::step_body);
}
