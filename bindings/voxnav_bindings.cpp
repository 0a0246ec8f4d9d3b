// voxnav bindings - the Embind module over the public World API (src/api): the WorldCore calls
// (world_core.h; the free-function ones in io_bindings.cpp), the names of enums and statuses,
// and the limits of the C++ API. Conversion only: the World checks and writes the messages.
#include <emscripten/heap.h>

#include <functional>
#include <string>

#include "voxnav/columns.h"
#include "voxnav/io.h"
#include "voxnav/version.h"
#include "world_core.h"

namespace voxnav::bindings {

/// The names of the enums whose numbers results carry, by enum (index = the enum's number).
template <class E, class F>
val names_of(F name, E last) {
  val list = val::array();
  for (int i = 0; i <= static_cast<int>(last); ++i)
    list.call<void>("push", std::string(name(static_cast<E>(i))));
  return list;
}
val names() {
  val o = val::object();
  o.set("status", names_of(status_name, kLastStatus));
  o.set("edgeKind", names_of(edge_kind_name, EdgeKind::Fly));
  o.set("agentMode", names_of(agent_mode_name, AgentMode::Blocked));
  o.set("reachAnswer", names_of(reach_answer_name, ReachAnswer::Unknown));
  o.set("reachReason", names_of(reach_reason_name, ReachReason::BadProfile));
  o.set("pathState", names_of(path_state_name, PathState::Failed));
  o.set("pathFailure", names_of(path_failure_name, kLastPathFailure));
  o.set("blockHazard", names_of(block_hazard_name, BlockHazard::Other));
  o.set("blockFluid", names_of(block_fluid_name, BlockFluid::Harmful));
  return o;
}

/// The limits of the C++ API (named once in its headers), for JS: web/index.mjs's LIMITS.
val limits() {
  val o = val::object();
  const auto set = [&](const char* name, double v) { o.set(name, val(v)); };
  set("maxCellXZ", kMaxCellXZ), set("maxCellY", kMaxCellY);
  set("chunkEdge", kChunkEdge), set("chunkValues", kChunkValues);
  set("maxChunkXZ", kMaxChunkXZ), set("maxChunkY", kMaxChunkY);  // the chunk range (types.h)
  set("maxBoxCells", double(kMaxBoxCells)), set("maxBoxChunks", double(kMaxBoxChunks));
  set("maxAreas", double(kMaxAreas)), set("maxAreaNameBytes", double(kMaxAreaNameBytes));
  set("minAreaCost", kMinAreaCost), set("maxAreaCost", kMaxAreaCost);
  set("maxAreaMultiplier", kMaxAreaMultiplier);
  set("maxGoalRange", kMaxGoalRange), set("maxNearestRadius", kMaxNearestRadius);
  set("maxChunkBuildRadius", World::kMaxChunkBuildRadius);
  set("maxSearchesPerUpdate", World::kMaxSearchesPerUpdate);
  set("maxTickSeconds", World::kMaxTickSeconds);
  set("searchTimesKept", double(kSearchTimesKept));
  set("maxColumnTopsColumns", double(kMaxColumnTopsColumns));
  set("maxColumnTopsHeight", double(kMaxColumnTopsHeight));
  set("maxColumnTopsCells", double(kMaxColumnTopsCells));
  set("noColumnTop", kNoColumnTop);
  set("maxInflatedBytes", double(kMaxInflatedBytes));  // io.h: one load's budget
  // The wasm heap's ceiling (-sMAXIMUM_MEMORY, bindings/CMakeLists.txt): everything a module's
  // Worlds hold shares it; past it a call fails with OutOfMemory.
  set("maxHeapBytes", double(emscripten_get_heap_max()));
  return o;
}

// ---- the module boundary: no C++ exception reaches JS ----
// With native wasm exceptions (-fwasm-exceptions, CMake VOXNAV_WASM_EXCEPTIONS) the World's own
// boundary (voxnav/status.h: the loaders and edits return OutOfMemory with the World unchanged)
// works as it does natively. An exception that still reaches a WorldCore call (an allocation of
// the bindings' argument copies, or of a World call that does not catch) is caught here, inside
// wasm, and becomes a thrown JS object { voxnavOutOfMemory: true, function, worldUnchanged }
// that web/lib/world.mjs turns into VoxnavError('OutOfMemory') naming the call; when the World may
// be half-changed (worldUnchanged false) the JS World refuses every later call but dispose().
// Without them an allocation failure stops the module (the JS World reports it as OutOfMemory
// and its Worlds only dispose): the calls are registered as they are, which keeps the size.
#ifdef VOXNAV_WASM_EXCEPTIONS
constexpr bool kExceptions = true;
[[noreturn]] void throw_out_of_memory(const char* fn, bool world_unchanged) {
  val e = val::object();
  e.set("voxnavOutOfMemory", true);
  e.set("function", std::string(fn));
  e.set("worldUnchanged", world_unchanged);
  e.throw_();
}
/// f(core, args...) with every exception caught: see above. The JS exception is thrown after the
/// C++ one is finished with (outside the catch block).
template <class R, class... A>
std::function<R(WorldCore&, A...)> guarded(const char* fn, R (*f)(WorldCore&, A...)) {
  return [fn, f](WorldCore& core, A... a) -> R {
    bool unchanged = false;
    try {
      return f(core, std::forward<A>(a)...);
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

// ---- the calls that need more than converting their arguments one by one ----
/// voxnav's registry JSON; `fn`: the JS function that called (defineBlocks writes the JSON).
int load_blocks(C c, val json, std::string fn) {
  if (c.done(c.world->load_blocks_json(typed(json, c.u8))) != 0) c.calls.set_function(fn);
  return c.calls.last_status();
}
int set_block_traits(C c, double value, std::string traits_json) {
  const char* fn = "set_block_traits";
  BlockTraitsChange t;
  std::string msg;
  if (const Status st = parse_block_traits_json(traits_json, &t.traits, &msg); st != Status::Ok)
    return c.calls.fail(st, fn, "traits", msg);
  In in(c.calls, fn);
  t.value = in.value16(value, c.world->block_count());
  return in ? c.done(c.world->set_block_traits(std::span(&t, 1))) : c.calls.last_status();
}
/// positions: Int32Array of 3 per chunk into c.chunks (false: the error is set).
bool chunk_positions(C c, const char* fn, const val& positions) {
  In in(c.calls, fn);
  if (!copy_typed(positions, c.i32))
    in.fail(Status::InvalidArgument, "positions", "positions must be an Int32Array");
  else if (c.i32.size() % 3 != 0)
    in.fail(Status::InvalidArgument, "positions",
            "positions has " + std::to_string(c.i32.size()) +
                " entries, not a multiple of 3 (x, y, z per chunk)");
  c.chunks.clear();
  for (std::size_t i = 0; in && i < c.i32.size(); i += 3)
    c.chunks.push_back(ChunkPos{c.i32[i], c.i32[i + 1], c.i32[i + 2]});
  return bool(in);
}
/// World::set_blocks (also setBlock and setBox): `cells` Float64Array of 6 per edit (min, then
/// max), `values` Float64Array of 1 per edit, `single` Uint8Array of 1 per edit (1: a cell,
/// named "cell" in messages); `list` names the entries in messages ("" for one edit).
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
    edits[i].value = in.value(entry(list, i, "value"), c.in[i]);
  }
  return in ? c.done(c.world->set_blocks(edits, list)) : c.calls.last_status();
}
val add_profile(C c, std::string json, std::string source) {
  Profile p;
  ProfileId id;
  std::string err, warn;
  if (const Status st = parse_profile_json(json, p, &err, &warn, source); st != Status::Ok)
    return c.calls.fail(st, "add_profile", "profile", err), val::undefined();
  const Status st = c.world->add_profile(p, &id);
  if (st == Status::Ok) c.last_warning = warn;
  return c.result(st, val(id.index));
}
/// World::define_area: name, blocks (an Array of block names), cost in cells.
val define_area(C c, val name, val blocks, double cost) {
  In in(c.calls, "define_area");
  AreaId id;
  std::vector<std::string> names;
  if (!name.isString())
    return in.fail(Status::InvalidArgument, "name", "name must be a string"), val::undefined();
  const std::string at = "area \"" + name.as<std::string>() + "\": ";
  if (!blocks.isArray())
    in.fail(Status::InvalidArgument, "blocks", at + "blocks must be an array of block names");
  for (std::size_t i = 0, n = in ? blocks["length"].as<std::size_t>() : 0; in && i < n; ++i) {
    if (!blocks[i].isString())
      in.fail(Status::InvalidArgument, "blocks",
              at + "blocks[" + std::to_string(i) + "] is not a block name (a non-empty string)");
    else
      names.push_back(blocks[i].as<std::string>());
  }
  if (!in) return val::undefined();
  return c.result(c.world->define_area(name.as<std::string>(), names, cost, &id), val(id.index));
}
val find_area(C c, val name) {
  if (!name.isString())
    return c.calls.fail(Status::InvalidArgument, "find_area", "name", "name must be a string"),
           val::undefined();
  return c.get<AreaId>("find_area", &World::find_area, name.as<std::string>());
}

/// request() and find_path_now()'s arguments: `start`, `goal` Float64Array [x, y, z]; the area
/// filter as `excluded` (a bit per area) and `multipliers` (Float64Array, one per area), areas
/// resolved by the wrapper (false: the error is set).
bool request_args(C c, const char* fn, double profile, const val& start, const val& goal,
                  double range, bool toward, double excluded, const val& multipliers,
                  NavRequest& req) {
  In in(c.calls, fn);
  req.profile = in(ProfileArg{profile});
  const auto cell = [&](const char* name, const val& v) {
    if (in && (!copy_typed(v, c.in) || c.in.size() != 3))
      in.fail(Status::InvalidArgument, name,
              std::string(name) + " must be a Float64Array [x, y, z]");
    return in.cell(name, c.in.data());
  };
  req.start = cell("start", start);
  req.goal = cell("goal", goal);
  req.goal_range = in(Integer{"range", range});
  req.toward = toward;
  if (in && (!integral(excluded) || excluded < 0 || excluded > UINT32_MAX))
    in.fail(Status::InvalidArgument, "filter",
            "filter: excluded " + number_text(excluded) + " is not a 32-bit mask");
  if (in && !copy_typed(multipliers, c.in))
    in.fail(Status::InvalidArgument, "filter",
            "filter: multipliers must be a Float64Array (one entry per area)");
  if (in && c.in.size() > kMaxAreas)
    in.fail(Status::InvalidArgument, "filter",
            "filter: multipliers has " + std::to_string(c.in.size()) + " entries, more than " +
                std::to_string(kMaxAreas));
  if (!in) return false;
  req.filter.excluded = static_cast<std::uint32_t>(excluded);
  std::copy(c.in.begin(), c.in.end(), req.filter.multiplier.begin());
  return true;
}
val request(C c, double profile, val start, val goal, double range, bool toward, double excluded,
            val multipliers) {
  const char* fn = toward ? "request_toward" : "request";
  NavRequest req;
  PathHandle h;
  double id = 0;
  if (!request_args(c, fn, profile, start, goal, range, toward, excluded, multipliers, req))
    return val::undefined();
  if (const Status st = c.world->request(req, &h); st != Status::Ok)
    return c.result(st, val::undefined());
  if (id_number(h, &id)) return c.calls.ok(), val(id);
  (void)c.world->release(h);
  return c.calls.fail(Status::Unsupported, fn, "",
                      "more than 524288 requests of one class are held; release some"),
         val::undefined();
}
/// status()'s numbers, then waypoints() of the route (none unless ready).
val find_path_now(C c, double profile, val start, val goal, double range, bool toward,
                  double excluded, val multipliers) {
  NavRequest req;
  PathResult r;
  if (!request_args(c, "find_path_now", profile, start, goal, range, toward, excluded, multipliers,
                    req))
    return val::undefined();
  if (const Status st = c.world->find_path_now(req, &r); st != Status::Ok)
    return c.result(st, val::undefined());
  if (r.status.state != PathState::Ready) r.waypoints.clear();
  c.js(r.status);
  return c.calls.ok(), c.waypoints(r.waypoints);
}
/// waypoints() of a "count, then copy" call `f` (corridor, agent_corridor) about `id`.
template <class Id, class F>
val corridor_of(C c, Id id, F f) {
  const Status st = fetch_all(c.points, [&](Waypoint* o, std::size_t cap, std::size_t* n) {
    return ((*c.world).*f)(id, o, cap, n);
  });
  c.f64.clear();
  return c.result(st, c.waypoints(c.points));
}

// ---- agents (one agent: a batch of one, `list` "") ----
/// A batch's Float64Arrays: `one` (c.in, 1 per entry), `three` (c.f64, 3 per entry) and, unless
/// undefined, `more` (c.f64b, 3 per entry).
bool batch(C c, In& in, const std::string& list, const val& one, const val& three,
           const val& more = val::undefined()) {
  if (!copy_typed(one, c.in) || !copy_typed(three, c.f64) || c.f64.size() != 3 * c.in.size() ||
      (!more.isUndefined() && (!copy_typed(more, c.f64b) || c.f64b.size() != c.f64.size())))
    in.fail(Status::InvalidArgument, list, list + " must be Float64Arrays");
  return bool(in);
}
Vec3 vec3(const double* v) { return Vec3{v[0], v[1], v[2]}; }
/// World::add_agents: `profiles` Float64Array n, `feet` 3n, `goals` 3n (x NaN: none). Returns
/// the ids (n).
val add_agents(C c, val profiles, val feet, val goals, std::string list) {
  const char* fn = "add_agents";
  In in(c.calls, fn);
  std::vector<AgentDef> defs(batch(c, in, list, profiles, feet, goals) ? c.in.size() : 0);
  for (std::size_t i = 0; i < defs.size(); ++i) {
    defs[i] = AgentDef{in(ProfileArg{c.in[i], entry(list, i, "profile")}), vec3(&c.f64[3 * i])};
    if (!std::isnan(c.f64b[3 * i])) defs[i].goal = in.cell(entry(list, i, "goal"), &c.f64b[3 * i]);
  }
  std::vector<AgentId> ids(defs.size());
  if (!in || c.done(c.world->add_agents(defs, ids.data(), list)) != 0) return val::undefined();
  c.in.clear();
  for (const AgentId& id : ids)
    if (double n = 0; id_number(id, &n)) c.in.push_back(n);
  if (c.in.size() < ids.size()) {  // every agent just added needs an id number, or none stays
    for (const AgentId& a : ids) (void)c.world->remove_agent(a);
    return c.calls.fail(Status::Unsupported, fn, "", "more than 2097152 agents"), val::undefined();
  }
  c.agents.insert(c.agents.end(), ids.begin(), ids.end());
  return view(c.in);
}
/// World::set_agent_goals: `agents` Float64Array n, `goals` 3n.
int set_agent_goals(C c, val agents, val goals, std::string list) {
  In in(c.calls, "set_agent_goals");
  std::vector<AgentGoal> entries(batch(c, in, list, agents, goals) ? c.in.size() : 0);
  for (std::size_t i = 0; i < entries.size(); ++i)
    entries[i] = AgentGoal{in(AgentArg{c.in[i], entry(list, i, "agent")}),
                           in.cell(entry(list, i, "goal"), &c.f64[3 * i])};
  return in ? c.done(c.world->set_agent_goals(entries, list)) : c.calls.last_status();
}
/// World::teleport_agents: `agents` Float64Array n, `feet` 3n.
int teleport_agents(C c, val agents, val feet, std::string list) {
  In in(c.calls, "teleport_agents");
  std::vector<AgentMove> moves(batch(c, in, list, agents, feet) ? c.in.size() : 0);
  for (std::size_t i = 0; i < moves.size(); ++i)
    moves[i] = AgentMove{in(AgentArg{c.in[i], entry(list, i, "agent")}), vec3(&c.f64[3 * i])};
  return in ? c.done(c.world->teleport_agents(moves, list)) : c.calls.last_status();
}
int remove_agent(C c, double agent) {
  In in(c.calls, "remove_agent");
  const AgentId id = in(AgentArg{agent});
  if (!in || c.done(c.world->remove_agent(id)) != 0) return c.calls.last_status();
  std::erase_if(c.agents,
                [&](AgentId a) { return a.index == id.index && a.generation == id.generation; });
  return 0;
}
/// Every live agent in the order added, n of them: [ids n, positions 3n, velocities 3n,
/// modes n, on_ground n, corridor epochs n].
val agents_snapshot(C c) {
  std::vector<AgentState> s(c.agents.size());
  for (std::size_t i = 0; i < s.size(); ++i) (void)c.world->agent_state(c.agents[i], &s[i]);
  c.f64.clear();
  for (const AgentId& id : c.agents) put(c.f64, c.number_of(id));
  for (const AgentState& a : s) put(c.f64, a.feet);
  for (const AgentState& a : s) put(c.f64, a.velocity);
  for (const AgentState& a : s) put(c.f64, a.mode);
  for (const AgentState& a : s) put(c.f64, a.on_ground);
  for (const AgentState& a : s) put(c.f64, a.corridor_epoch);
  return view(c.f64);
}
/// Every pending DoorAhead event, n of them: [agents n, doors 3n, ticks n].
val take_door_events(C c) {
  std::vector<DoorEvent> ev(c.world->pending_door_events());
  std::size_t n = 0;
  (void)c.world->take_door_events(ev.data(), ev.size(), &n);
  ev.resize(n);
  c.f64.clear();
  for (const DoorEvent& e : ev) put(c.f64, c.number_of(e.agent));
  for (const DoorEvent& e : ev) put(c.f64, e.door);
  for (const DoorEvent& e : ev) put(c.f64, e.tick);
  return c.calls.ok(), view(c.f64);
}

}  // namespace voxnav::bindings

EMSCRIPTEN_BINDINGS(voxnav) {
  using namespace voxnav;
  using namespace voxnav::bindings;
  emscripten::function("names", &names);
  emscripten::function("limits", &limits);
  emscripten::function(
      "threadsBuilt", +[] { return kThreads; });
  emscripten::function(
      "exceptionsBuilt", +[] { return kExceptions; });
  emscripten::function(
      "versionString", +[] { return std::string(version_string()); });
  emscripten::function("listRegionChunks", &bindings::list_region_chunks);
  // By JS name; the C++ names (lastError's `function`) are the World's.
  Core()
      .def("lastStatus", [](C c) { return c.calls.last_status(); })
      .def("lastError", [](C c) { return c.calls.last_error(); })
      .def("lastWarning", [](C c) { return c.last_warning; })
      .def("threaded", [](C c) { return c.threaded; })
      // ---- registry ----
      .def("loadMinecraftBlocks",
           [](C c, val blocks, val shapes) {
             std::vector<std::uint8_t> b, s;
             return c.done(c.world->load_minecraft_blocks(typed(blocks, b), typed(shapes, s)));
           })
      .def("blockValue",
           [](C c, std::string state) {
             std::uint16_t v = 0;
             return c.result(c.world->block_value(state, &v), val(v));
           })
      .def("blockCount", [](C c) { return double(c.world->block_count()); })
      .def("loadBlocks", &load_blocks)
      .def("setBlockTraits", &set_block_traits)
      .def("blockDef", &bindings::block_def)
      // ---- chunks and edits ----
      .def("loadChunks",
           [](C c, val positions, val values) {
             if (!chunk_positions(c, "load_chunks", positions)) return c.calls.last_status();
             const int st = c.done(c.world->load_chunks(c.chunks, typed(values, c.u16)));
             return c.release_large_scratch(), st;
           })
      .def("loadChunk",
           [](C c, double x, double y, double z, val values) {
             return c.run("load_chunk", &World::load_chunk, Chunk{x, y, z}, typed(values, c.u16));
           })
      .def("unloadChunks",
           [](C c, val positions) {
             return chunk_positions(c, "unload_chunks", positions)
                        ? c.done(c.world->unload_chunks(c.chunks))
                        : c.calls.last_status();
           })
      .def("unloadChunk",
           [](C c, double x, double y, double z) {
             return c.run("unload_chunk", &World::unload_chunk, Chunk{x, y, z});
           })
      .def("loadAnvilColumns", &bindings::load_anvil_columns)
      .def("setBlocks", &set_blocks)
      .def("getBlock",
           [](C c, double x, double y, double z) {
             return c.get<std::uint16_t>("get_block", &World::get_block, Cell{"cell", x, y, z});
           })
      // ---- profiles and areas ----
      .def("addProfile", &add_profile)
      .def("findProfile",
           [](C c, std::string name) {
             return c.get<ProfileId>("find_profile", &World::find_profile, name);
           })
      .def("defineArea", &define_area)
      .def("findArea", &find_area)
      // ---- navigation queries ----
      .def("update", [](C c) { c.world->update(); })
      .def("navEpoch", [](C c) { return double(c.world->nav_epoch()); })
      .def("reachable",
           [](C c, double p, double fx, double fy, double fz, double gx, double gy, double gz) {
             const auto reachable = [](const World& w, auto... a) { return w.reachable(a...); };
             return c.get<Reach>("reachable", reachable, ProfileArg{p}, Cell{"from", fx, fy, fz},
                                 Cell{"goal", gx, gy, gz});
           })
      .def("isStandable",
           [](C c, double p, double x, double y, double z) {
             const auto standable = [](const World& w, auto... a) { return w.is_standable(a...); };
             return c.get<bool>("is_standable", standable, ProfileArg{p}, Cell{"cell", x, y, z});
           })
      // Feet height in metres, or null when the cell is loaded but not standable.
      .def("standingHeight",
           [](C c, double p, double x, double y, double z) {
             return c.get<double, true>("standing_height", &World::standing_height, ProfileArg{p},
                                        Cell{"cell", x, y, z});
           })
      // [x, y, z], or null when no standable cell is within the radius.
      .def("nearestStandable",
           [](C c, double p, double x, double y, double z, double radius) {
             return c.get<CellPos, true>("nearest_standable", &World::nearest_standable,
                                         ProfileArg{p}, Cell{"near", x, y, z},
                                         Integer{"radius", radius});
           })
      // ---- requests ----
      .def("request", &request)
      .def("status",
           [](C c, double path) {
             return c.get<PathStatus>("status", &World::status, PathArg{path});
           })
      .def("findPathNow", &find_path_now)
      .def("corridor",
           [](C c, double path) {
             In in(c.calls, "corridor");
             const PathHandle h = in(PathArg{path});
             return in ? corridor_of(c, h, &World::corridor) : val::undefined();
           })
      // [cells 3n, kinds n].
      .def("pathCells",
           [](C c, double path) {
             In in(c.calls, "path_cells");
             const PathHandle h = in(PathArg{path});
             std::vector<PathCell> cells;
             if (!in) return val::undefined();
             const Status st = fetch_all(cells, [&](PathCell* o, std::size_t cap, std::size_t* n) {
               return c.world->path_cells(h, o, cap, n);
             });
             c.f64.clear();
             for (const PathCell& p : cells) put(c.f64, p.cell);
             for (const PathCell& p : cells) put(c.f64, p.kind);
             return c.result(st, view(c.f64));
           })
      .def("release",
           [](C c, double path) { return c.run("release", &World::release, PathArg{path}); })
      // ---- agents ----
      .def("addAgents", &add_agents)
      .def("removeAgent", &remove_agent)
      .def("setAgentGoals", &set_agent_goals)
      .def("agentState",
           [](C c, double agent) {
             return c.get<AgentState>("agent_state", &World::agent_state, AgentArg{agent});
           })
      .def("agentReason",
           [](C c, double agent) {
             return c.get<std::string>("agent_reason", &World::agent_reason, AgentArg{agent});
           })
      // waypoints() of the agent's corridor, then its epoch.
      .def("agentCorridor",
           [](C c, double agent) {
             In in(c.calls, "agent_corridor");
             const AgentId id = in(AgentArg{agent});
             AgentState s;
             if (!in || c.done(c.world->agent_state(id, &s)) != 0) return val::undefined();
             if (corridor_of(c, id, &World::agent_corridor).isUndefined()) return val::undefined();
             c.f64.push_back(s.corridor_epoch);
             return view(c.f64);
           })
      .def("teleportAgents", &teleport_agents)
      .def("agentsSnapshot", &agents_snapshot)
      // ---- doors ----
      .def("setDoorOpen",
           [](C c, double x, double y, double z, bool open) {
             return c.run("set_door_open", &World::set_door_open, Cell{"cell", x, y, z}, open);
           })
      .def("takeDoorEvents", &take_door_events)
      .def("pendingDoorEvents", [](C c) { return double(c.world->pending_door_events()); })
      .def("navTick", [](C c) { return double(c.world->nav_tick()); })
      // ---- chunk streaming, the search budget, the tick ----
      .def("setChunkStreaming", [](C c, bool on) { c.world->set_chunk_streaming(on); })
      .def("chunkStreaming", [](C c) { return c.world->chunk_streaming(); })
      .def("pendingChunkBuilds", [](C c) { return double(c.world->pending_chunk_builds()); })
      .def("setChunkBuildRadius",
           [](C c, double chunks) {
             return c.done(c.world->set_chunk_build_radius(int_or_refused(chunks)));
           })
      .def("chunkBuildRadius", [](C c) { return c.world->chunk_build_radius(); })
      .def("deferredChunkBuilds", [](C c) { return double(c.world->deferred_chunk_builds()); })
      .def("setSearchesPerUpdate",
           [](C c, double searches) {
             return c.done(c.world->set_searches_per_update(int_or_refused(searches)));
           })
      .def("searchesPerUpdate", [](C c) { return c.world->searches_per_update(); })
      .def("queuedRequests", [](C c) { return double(c.world->queued_requests()); })
      .def("tick", [](C c, double dt) { return c.done(c.world->tick(dt)); })
      // [searches, nodes expanded, maintenance runs, last maintenance ms, standable cells,
      // islands, agents, thread jobs].
      .def("stats",
           [](C c) {
             const WorldStats s = c.world->stats();
             double jobs = 0;
#ifdef VOXNAV_WASM_THREADS
             if (c.threaded) jobs = double(WorldCore::pool().jobs_run());
#endif
             return c.numbers(s.searches, s.nodes_expanded, s.maintenance_runs,
                              s.last_maintenance_ms, s.standable_cells, s.islands, c.agents.size(),
                              jobs);
           })
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
