// voxnav bindings - the Embind module over the public World API (src/api): WorldCore
// (world_core.h; its free-function calls in io_bindings.cpp), the names of enums and statuses,
// and the limits of the C++ API. Conversion only: the World checks and writes the messages.
#include <functional>
#include <string>
#include <utility>

#include <emscripten/heap.h>

#include "voxnav/columns.h"
#include "voxnav/io.h"
#include "voxnav/version.h"
#include "world_core.h"

namespace voxnav::bindings {

/// The C++ library's version (voxnav/version.h); tests/web checks the npm package carries it too.
std::string version_string_of() { return std::string(voxnav::version_string()); }

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
  set("maxCellXZ", kMaxCellXZ);
  set("maxCellY", kMaxCellY);
  set("chunkEdge", kChunkEdge);
  set("chunkValues", kChunkValues);
  set("maxChunkXZ", kMaxChunkXZ), set("maxChunkY", kMaxChunkY);  // the chunk range (types.h)
  set("maxBoxCells", static_cast<double>(kMaxBoxCells));
  set("maxBoxChunks", static_cast<double>(kMaxBoxChunks));
  set("maxAreas", static_cast<double>(kMaxAreas));
  set("maxAreaNameBytes", static_cast<double>(kMaxAreaNameBytes));
  set("minAreaCost", kMinAreaCost);
  set("maxAreaCost", kMaxAreaCost);
  set("maxAreaMultiplier", kMaxAreaMultiplier);
  set("maxGoalRange", kMaxGoalRange);
  set("maxNearestRadius", kMaxNearestRadius);
  set("maxChunkBuildRadius", World::kMaxChunkBuildRadius);
  set("maxSearchesPerUpdate", World::kMaxSearchesPerUpdate);
  set("maxTickSeconds", World::kMaxTickSeconds);
  set("searchTimesKept", static_cast<double>(kSearchTimesKept));
  set("maxColumnTopsColumns", static_cast<double>(kMaxColumnTopsColumns));
  set("maxColumnTopsHeight", static_cast<double>(kMaxColumnTopsHeight));
  set("maxColumnTopsCells", static_cast<double>(kMaxColumnTopsCells));
  set("noColumnTop", kNoColumnTop);
  set("maxInflatedBytes", static_cast<double>(kMaxInflatedBytes));  // io.h: one load's budget
  // The wasm heap's ceiling (-sMAXIMUM_MEMORY, bindings/CMakeLists.txt): everything a module's
  // Worlds hold shares it; past it a call fails with OutOfMemory.
  set("maxHeapBytes", static_cast<double>(emscripten_get_heap_max()));
  return o;
}

/// Whether this module was built with -fwasm-exceptions (CMake VOXNAV_WASM_EXCEPTIONS): then an
/// allocation failure is an OutOfMemory status and the World stays usable; otherwise it stops the
/// module (the JS World reports it as OutOfMemory and its Worlds only dispose).
bool exceptions_built() {
#ifdef VOXNAV_WASM_EXCEPTIONS
  return true;
#else
  return false;
#endif
}

bool threads_built() {
#ifdef VOXNAV_WASM_THREADS
  return true;
#else
  return false;
#endif
}

// ---- the module boundary: no C++ exception reaches JS ----
// The wasm modules are built with native wasm exceptions (-fwasm-exceptions), so the World's own
// boundary (voxnav/status.h: the loaders and edits return OutOfMemory with the World unchanged)
// works as it does natively. An exception that still reaches a WorldCore method (an allocation of
// the bindings' argument copies, or of a World call that does not catch) is caught here, inside
// wasm, and becomes a thrown JS object { voxnavOutOfMemory: true, function, worldUnchanged }
// that web/lib/world.mjs turns into VoxnavError('OutOfMemory') naming the call; when the World may
// be half-changed (worldUnchanged false) the JS World refuses every later call but dispose().

/// Thrown by copy_typed (convert.h) when the wasm heap cannot hold an argument's copy: nothing
/// was handed to the World yet.
[[noreturn]] void throw_out_of_memory(const char* fn, bool world_unchanged) {
  val e = val::object();
  e.set("voxnavOutOfMemory", true);
  e.set("function", std::string(fn));
  e.set("worldUnchanged", world_unchanged);
  e.throw_();
}

/// f(core, args...) with every exception caught: see above. The JS exception is thrown after the
/// C++ one is finished with (outside the catch block).
template <class R, class... A, class F>
std::function<R(WorldCore&, A...)> guarded_method(const char* fn, F f) {
  return [fn, f](WorldCore& core, A... a) -> R {
    bool unchanged = false;
    try {
      return f(core, std::forward<A>(a)...);
    } catch (const ArgumentOutOfMemory&) {
      unchanged = true;
    } catch (...) {
    }
    throw_out_of_memory(fn, unchanged);
  };
}
template <class R, class... A>
auto guard(const char* fn, R (WorldCore::*m)(A...)) {
  return guarded_method<R, A...>(fn, [m](WorldCore& c, A... a) -> R { return (c.*m)(std::forward<A>(a)...); });
}
template <class R, class... A>
auto guard(const char* fn, R (WorldCore::*m)(A...) const) {
  return guarded_method<R, A...>(fn, [m](WorldCore& c, A... a) -> R { return (c.*m)(std::forward<A>(a)...); });
}
template <class R, class... A>
auto guard(const char* fn, R (*f)(WorldCore&, A...)) {
  return guarded_method<R, A...>(fn, [f](WorldCore& c, A... a) -> R { return f(c, std::forward<A>(a)...); });
}

/// emscripten::class_<WorldCore> whose constructor and methods are registered guarded.
class GuardedWorldCoreClass : public emscripten::class_<WorldCore> {
  template <class... A>
  static WorldCore* make(A... a) {
    try {
      return new WorldCore(a...);
    } catch (...) {
    }
    throw_out_of_memory("World", true);
  }

 public:
  explicit GuardedWorldCoreClass(const char* name) : class_(name) {}
  // Without wasm exceptions nothing can be caught here (an allocation failure stops the module):
  // the methods are registered as they are, which keeps the default build's size.
  template <class... A>
  const GuardedWorldCoreClass& constructor() const {
#ifdef VOXNAV_WASM_EXCEPTIONS
    class_::constructor(&make<A...>);
#else
    class_::template constructor<A...>();
#endif
    return *this;
  }
  template <class F>
  const GuardedWorldCoreClass& function(const char* name, F f) const {
#ifdef VOXNAV_WASM_EXCEPTIONS
    class_::function(name, guard(name, f));
#else
    class_::function(name, f);
#endif
    return *this;
  }
};

}  // namespace voxnav::bindings

EMSCRIPTEN_BINDINGS(voxnav) {
  using namespace voxnav::bindings;
  emscripten::function("names", &names);
  emscripten::function("threadsBuilt", &threads_built);
  emscripten::function("exceptionsBuilt", &exceptions_built);
  emscripten::function("limits", &limits);
  emscripten::function("versionString", &version_string_of);
  emscripten::function("listRegionChunks", &list_region_chunks);
  // WorldCore's methods (world_core.h) and the calls over it (io_bindings.cpp), by JS name.
  GuardedWorldCoreClass("WorldCore")
      .constructor<int, bool>()
      .function("lastStatus", &WorldCore::last_status)
      .function("lastError", &WorldCore::last_error)
      .function("lastWarning", &WorldCore::last_warning)
      .function("threaded", &WorldCore::threaded)
      .function("loadMinecraftBlocks", &WorldCore::load_minecraft_blocks)
      .function("blockValue", &WorldCore::block_value)
      .function("blockCount", &WorldCore::block_count)
      .function("loadBlocks", &WorldCore::load_blocks)
      .function("setBlockTraits", &WorldCore::set_block_traits)
      .function("blockDef", &block_def)
      .function("loadChunks", &WorldCore::load_chunks)
      .function("loadChunk", &WorldCore::load_chunk)
      .function("unloadChunks", &WorldCore::unload_chunks)
      .function("unloadChunk", &WorldCore::unload_chunk)
      .function("loadAnvilColumns", &load_anvil_columns)
      .function("setBlocks", &WorldCore::set_blocks)
      .function("getBlock", &WorldCore::get_block)
      .function("addProfile", &WorldCore::add_profile)
      .function("findProfile", &WorldCore::find_profile)
      .function("defineArea", &WorldCore::define_area)
      .function("findArea", &WorldCore::find_area)
      .function("update", &WorldCore::update)
      .function("navEpoch", &WorldCore::nav_epoch)
      .function("reachable", &WorldCore::reachable)
      .function("isStandable", &WorldCore::is_standable)
      .function("standingHeight", &WorldCore::standing_height)
      .function("nearestStandable", &WorldCore::nearest_standable)
      .function("request", &WorldCore::request)
      .function("status", &WorldCore::status)
      .function("findPathNow", &WorldCore::find_path_now)
      .function("corridor", &WorldCore::corridor)
      .function("pathCells", &WorldCore::path_cells)
      .function("release", &WorldCore::release)
      .function("addAgents", &WorldCore::add_agents)
      .function("removeAgent", &WorldCore::remove_agent)
      .function("setAgentGoals", &WorldCore::set_agent_goals)
      .function("agentState", &WorldCore::agent_state)
      .function("agentReason", &WorldCore::agent_reason)
      .function("agentCorridor", &WorldCore::agent_corridor)
      .function("teleportAgents", &WorldCore::teleport_agents)
      .function("agentsSnapshot", &WorldCore::agents_snapshot)
      .function("setDoorOpen", &WorldCore::set_door_open)
      .function("takeDoorEvents", &WorldCore::take_door_events)
      .function("pendingDoorEvents", &WorldCore::pending_door_events)
      .function("navTick", &WorldCore::nav_tick)
      .function("setChunkStreaming", &WorldCore::set_chunk_streaming)
      .function("chunkStreaming", &WorldCore::chunk_streaming)
      .function("pendingChunkBuilds", &WorldCore::pending_chunk_builds)
      .function("setChunkBuildRadius", &WorldCore::set_chunk_build_radius)
      .function("chunkBuildRadius", &WorldCore::chunk_build_radius)
      .function("deferredChunkBuilds", &WorldCore::deferred_chunk_builds)
      .function("setSearchesPerUpdate", &WorldCore::set_searches_per_update)
      .function("searchesPerUpdate", &WorldCore::searches_per_update)
      .function("queuedRequests", &WorldCore::queued_requests)
      .function("tick", &WorldCore::tick)
      .function("stats", &WorldCore::stats)
      .function("searchTimesUs", &WorldCore::search_times_us)
      .function("stateHash", &state_hash)
      .function("topBlocks", &top_blocks)
      .function("profileBody", &profile_body)
      .function("stepBody", &step_body);
}
