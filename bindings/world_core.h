// voxnav bindings - WorldCore, the Embind class over one voxnav::World, and what its calls share
// (voxnav_bindings.cpp registers them). It converts values only (JS numbers to cells and ids,
// typed arrays to spans); the World checks every rule and writes the messages. Conventions
// (web/lib/world.mjs relies on them and reshapes the results):
// - Calls with no result return the voxnav::Status as an int (0 = Ok); calls with a result
//   return it, or `undefined` when they fail. lastError() then gives {status, function, argument,
//   message} with the C++ names (web/lib/errors.mjs makes them the JS names).
// - Inputs cross as typed arrays (copied with one TypedArray.set); results as flat Float64Array
//   views of scratch buffers, valid until the next call, laid out as each call says. Enums cross
//   as numbers (their names: the module's names()); ids as numbers (voxnav/ids.h).
#pragma once
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "convert.h"
#include "voxnav/world.h"

#ifdef VOXNAV_WASM_THREADS
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav::bindings {

struct WorldCore {
  WorldCore(int lockstep_delay, bool threaded_asked) {
    WorldDef def;
    def.lockstep_delay = lockstep_delay;
#ifdef VOXNAV_WASM_THREADS
    if (threaded_asked) def.executor = &pool();
#endif
    threaded = threaded_asked && def.executor != nullptr;
    world = std::make_unique<World>(def);
  }
#ifdef VOXNAV_WASM_THREADS
  /// One pthread for the whole module (-sPTHREAD_POOL_SIZE=1), shared by every World; never freed.
  static native::ThreadPool& pool() {
    static auto* pool = new native::ThreadPool(1);
    return *pool;
  }
#endif

  int done(Status st) { return calls.done(*world, st); }
  /// `v` after an Ok call, undefined (the World's error kept) otherwise.
  val result(Status st, val v) { return done(st) == 0 ? v : val::undefined(); }
  /// World member `m` called with the converted arguments (In): its Status as an int.
  template <class M, class... A>
  int run(const char* fn, M m, const A&... a) {
    In in(calls, fn);
    std::tuple args{in(a)...};  // in order: the first argument that does not convert is named
    if (!in) return calls.last_status();
    return done(std::apply([&](auto&... x) { return std::invoke(m, *world, x...); }, args));
  }
  /// The same for a member with one out parameter (Out*): its value as JS, or undefined (null
  /// for NotFound when `null_if_not_found`: no such cell is a result, not an error).
  template <class Out, bool null_if_not_found = false, class M, class... A>
  val get(const char* fn, M m, const A&... a) {
    In in(calls, fn);
    std::tuple args{in(a)...};
    Out out{};
    if (!in) return val::undefined();
    const Status st =
        std::apply([&](auto&... x) { return std::invoke(m, *world, x..., &out); }, args);
    if (null_if_not_found && st == Status::NotFound) return calls.ok(), val::null();
    return result(st, st == Status::Ok ? js(out) : val::undefined());
  }
  template <class... T>
  val numbers(const T&... v) {
    f64.clear();
    return view(put(f64, v...));
  }

  // Results as JS: the layouts web/lib/world.mjs reads.
  static val js(bool v) { return val(v); }
  static val js(std::uint16_t v) { return val(v); }
  static val js(double v) { return val(v); }
  static val js(const std::string& v) { return val(v); }
  static val js(ProfileId id) { return val(id.index); }
  static val js(AreaId id) { return val(id.index); }
  val js(CellPos c) { return numbers(c); }
  /// [answer, reason, epoch].
  val js(const Reach& r) { return numbers(r.answer, r.reason, r.epoch); }
  /// [state, failure, partial, cost, nodes expanded, cell count, waypoint count].
  val js(const PathStatus& s) {
    return numbers(s.state, s.failure, s.partial, s.cost, s.nodes_expanded, s.cell_count,
                   s.waypoint_count);
  }
  /// [mode, feet 3, velocity 3, on_ground, corridor_epoch, next_waypoint, arrivals, replans,
  /// repairs, requests, failure, waiting_at_door, door 3, door_hold_ticks, door_events,
  /// door_timeouts] (22 numbers).
  val js(const AgentState& s) {
    return numbers(s.mode, s.feet, s.velocity, s.on_ground, s.corridor_epoch, s.next_waypoint,
                   s.arrivals, s.replans, s.repairs, s.requests, s.failure, s.waiting_at_door,
                   s.door, s.door_hold_ticks, s.door_events, s.door_timeouts);
  }
  /// [positions 3n, cells 3n, kinds n] of `points`, after what f64 holds.
  val waypoints(const std::vector<Waypoint>& points) {
    for (const Waypoint& p : points) put(f64, p.position);
    for (const Waypoint& p : points) put(f64, p.cell);
    for (const Waypoint& p : points) put(f64, p.kind);
    return view(f64);
  }
  template <class Id>
  static double number_of(Id id) {
    double n = -1;  // not reached: add_agents and request keep only ids that have a number
    (void)id_number(id, &n);
    return n;
  }
  /// The copy of a large load is not kept: the heap is shared by every World of the module.
  void release_large_scratch() {
    if (u16.capacity() > std::size_t{64} * kChunkValues) std::vector<std::uint16_t>().swap(u16);
    if (chunks.capacity() > 64) std::vector<ChunkPos>().swap(chunks);
  }

  std::unique_ptr<World> world;
  CallState calls;
  bool threaded = false;
  std::string last_warning;
  std::vector<AgentId> agents;  // every live agent, in the order added
  std::vector<ChunkPos> chunks;
  std::vector<Waypoint> points;
  // Scratch buffers behind the views handed to JS.
  std::vector<std::int32_t> i32;
  std::vector<std::uint16_t> u16;
  std::vector<std::uint8_t> u8;
  std::vector<double> f64, f64b, in;
};

/// The calls over a WorldCore that are free functions of the C++ API (io_bindings.cpp): world
/// files, the height map, the movement step, block definitions, the state hash.
val load_anvil_columns(WorldCore& core, val data, val offsets, bool skip_empty_proto,
                       bool full_only);
val top_blocks(WorldCore& core, double x0, double z0, double x1, double z1, double y0, double y1);
val profile_body(WorldCore& core, double profile);
val step_body(WorldCore& core, val packed, double dt);
val block_def(WorldCore& core, double value);
std::string state_hash(WorldCore& core);
val list_region_chunks(val region);

}  // namespace voxnav::bindings
