// voxnav bindings - JS values to the C++ API's types and back (voxnav/numbers.h writes the
// messages of what does not convert), and WorldCore. The World checks every rule.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "voxnav/error.h"
#include "voxnav/memory.h"
#include "voxnav/numbers.h"
#include "voxnav/world.h"

#ifdef VOXNAV_WASM_THREADS
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav::bindings {

using emscripten::typed_memory_view;
using emscripten::val;

inline bool integral(double v) { return std::isfinite(v) && v == std::floor(v); }
inline bool int32_number(double v) { return integral(v) && v >= INT32_MIN && v <= INT32_MAX; }
/// A number no int holds becomes INT_MIN, which every limit refuses (the World names it).
inline int int_or_refused(double v) { return int32_number(v) ? static_cast<int>(v) : INT32_MIN; }

/// Thrown when the heap cannot hold an argument's copy (the World was not called).
struct ArgumentOutOfMemory {};

/// Bytes of an argument's copy that the heap could not give in the current call (0: none), set
/// by copy_typed: the call then ends in OutOfMemory naming it (CallState), nothing changed.
inline double g_refused_copy_bytes = 0;

/// A typed array of T copied into `out` with one TypedArray.set (false: not such an array, or
/// its copy does not fit the heap: g_refused_copy_bytes, checked before allocating).
template <class T>
bool copy_typed(const val& arr, std::vector<T>& out) {
  constexpr const char* name = std::is_same_v<T, double>          ? "Float64Array"
                               : std::is_same_v<T, std::uint8_t>  ? "Uint8Array"
                               : std::is_same_v<T, std::uint16_t> ? "Uint16Array"
                               : std::is_same_v<T, std::uint32_t> ? "Uint32Array"
                                                                  : "Int32Array";
  if (!arr.instanceof (val::global(name))) return false;
  const double length = arr["length"].as<double>();
  const double bytes = length * sizeof(T);
  if (!(bytes < 4294967296.0) ||  // more than wasm32 holds
      (length > double(out.capacity()) && !heap_has_room(static_cast<std::size_t>(bytes)))) {
    out.clear();
    g_refused_copy_bytes = bytes;
    return false;
  }
  try {
    out.resize(static_cast<std::size_t>(length));
  } catch (const std::bad_alloc&) {
    throw ArgumentOutOfMemory{};
  }
  if (!out.empty()) val(typed_memory_view(out.size(), out.data())).call<void>("set", arr);
  return true;
}
/// The same for an argument the World checks: any other value gives no items.
template <class T>
std::span<const T> typed(const val& arr, std::vector<T>& out) {
  if (!copy_typed(arr, out)) out.clear();
  return out;
}
/// A typed_memory_view of scratch storage: valid until the next call (the wrapper copies it).
template <class T>
val view(const std::vector<T>& v) {
  return val(typed_memory_view(v.size(), v.data()));
}
/// Appends numbers to `out`: an x, y, z value as three, anything else (enums, bools) as one.
template <class... T>
std::vector<double>& put(std::vector<double>& out, const T&... v) {
  const auto one = [&](const auto& x) {
    if constexpr (requires { x.z; })
      out.insert(out.end(), {double(x.x), double(x.y), double(x.z)});
    else
      out.push_back(double(x));
  };
  (one(v), ...);
  return out;
}
/// Appends field `f` of every item of `items` (put), field after field: [a.x..., a.y...].
template <class T, class... F>
void put_fields(std::vector<double>& out, const std::vector<T>& items, F... f) {
  const auto field = [&](auto m) {
    for (const T& x : items) put(out, x.*m);
  };
  (field(f), ...);
}
/// Field `field` of entry i of batch `list` ("agents[2].feet"; `field` alone when `list` is "").
inline std::string entry(const std::string& list, std::size_t i, const char* field) {
  return list.empty() ? std::string(field) : list + "[" + std::to_string(i) + "]." + field;
}

/// One argument, converted (In) to T (from_number, voxnav/numbers.h), and the name messages give.
template <class T, class V = double>
struct Arg {
  std::string name;
  V v;
};
using Cell = Arg<CellPos, val>;
inline Cell cell(val v, std::string name = "cell") { return {std::move(name), v}; }
inline Arg<ChunkPos, val> chunk(val v) { return {"chunk", v}; }
inline Arg<ProfileId> profile(double p, std::string name = "profile") {
  return {std::move(name), p};
}
inline Arg<int> integer(std::string name, double v) { return {std::move(name), v}; }
inline Arg<AgentId> agent(double a, std::string name = "agent") { return {std::move(name), a}; }
inline Arg<PathHandle> path(double h) { return {"path", h}; }

/// The last failure of a WorldCore: {status, function, argument, message} (C++ names).
struct CallState {
  CallError error;
  std::uint32_t tag = 0;  // the World's id tag: ids of another World are refused
  int last_status() const { return static_cast<int>(error.status); }
  val last_error() const {
    val o = val::object();
    o.set("status", last_status()), o.set("function", error.function);
    o.set("argument", error.argument), o.set("message", error.message);
    return o;
  }
  /// Ok (0), unless an argument's copy was refused in this call (refused_copy).
  int ok() { return g_refused_copy_bytes > 0 ? refused_copy(error.function) : (error = CallError{}, 0); }
  /// The error `e` (a conversion's, or an API function's) of binding call `fn`.
  [[gnu::noinline]] int fail(const char* fn, CallError e) {
    if (g_refused_copy_bytes > 0) return refused_copy(fn);
    e.function = fn;
    return error = std::move(e), last_status();
  }
  /// OutOfMemory for call `fn` whose argument copy the heap could not give (the World was called
  /// with no data, or not at all: it refused that, so nothing changed).
  [[gnu::noinline]] int refused_copy(std::string fn) {
    error = CallError{Status::OutOfMemory, std::move(fn), "",
                      "out of memory: the wasm heap cannot hold a copy of an argument (" +
                          number_text(g_refused_copy_bytes) + " bytes); nothing changed"};
    g_refused_copy_bytes = 0;
    return last_status();
  }
  [[gnu::noinline]] int fail(Status st, const char* fn, std::string argument, std::string msg) {
    return fail(fn, CallError{st, "", std::move(argument), std::move(msg)});
  }
  /// The result of a World call: Ok, or the error the World wrote.
  [[gnu::noinline]] int done(const World& w, Status st) {
    if (g_refused_copy_bytes > 0) return refused_copy(w.last_error().function);
    return st == Status::Ok ? ok() : (error = w.last_error(), last_status());
  }
  /// An API function f(CallError*) of call `fn`: true when Ok (its error kept otherwise).
  template <class F>
  bool api(const char* fn, F&& f) {
    CallError e;
    return f(&e) == Status::Ok ? (ok(), true) : (fail(fn, std::move(e)), false);
  }
};

/// Converts one call's arguments in order; after the first that does not convert (the error
/// names it) the others are not looked at. Other values pass as they are.
class In {
 public:
  In(CallState& calls, const char* fn) : calls_(calls), fn_(fn) {}
  explicit operator bool() const { return ok_; }
  /// Sets the error (when none is set yet); converts to any "no value".
  struct Failed {
    template <class T>
    operator T() const {
      return T{};
    }
  };
  [[gnu::noinline]] Failed fail(Status st, const std::string& argument, std::string msg) {
    if (ok_) calls_.fail(st, fn_, argument, std::move(msg));
    return ok_ = false, Failed{};
  }
  /// The value an API conversion f(T* out, CallError*) (voxnav/numbers.h) makes, or T{}.
  template <class T, class F>
  T take(F&& f) {
    T out{};
    if (ok_ && f(&out, &scratch_) != Status::Ok) failed();
    return ok_ ? out : T{};
  }
  /// The conversion's error (in scratch_) becomes the call's.
  [[gnu::noinline]] void failed() {
    calls_.fail(fn_, std::move(scratch_));
    ok_ = false;
  }
  CellPos cell(const std::string& name, const double* xyz, const char* what = "a cell") {
    return take<CellPos>([&](auto* o, auto* e) { return from_numbers(xyz, name, o, e, what); });
  }
  CellPos cell(const std::string& name, const val& v, const char* what = "a cell") {
    const double xyz[] = {v[0].as<double>(), v[1].as<double>(), v[2].as<double>()};
    return cell(name, xyz, what);
  }
  CellPos operator()(const Cell& a) { return cell(a.name, a.v); }
  ChunkPos operator()(const Arg<ChunkPos, val>& a) {
    const CellPos c = cell(a.name, a.v, "a chunk position");
    return ChunkPos{c.x, c.y, c.z};
  }
  template <class T>  // ids: of this World (CallState::tag)
  T operator()(const Arg<T>& a) {
    return take<T>([&](T* o, CallError* e) {
      if constexpr (std::is_integral_v<T>)
        return from_number(a.v, a.name, o, e);
      else
        return from_number(a.v, a.name, o, e, calls_.tag);
    });
  }
  /// A block value for a call taking a uint16: one no uint16 holds is never in a registry.
  std::uint16_t value16(double v, std::size_t block_count) {
    const std::int64_t n = (*this)(Arg<std::int64_t>{"value", v});
    if (ok_ && (n < 0 || n > 65535))
      return fail(Status::OutOfRange, "value",
                  "value " + std::to_string(n) + " is not in the block registry (values 0 .. " +
                      std::to_string(block_count - 1) + ")");
    return static_cast<std::uint16_t>(n);
  }
  double operator()(double v) { return v; }
  bool operator()(bool v) { return v; }
  const std::string& operator()(const std::string& v) { return v; }
  template <class T>
  std::span<const T> operator()(std::span<const T> v) {
    return v;
  }

 private:
  CallState& calls_;
  const char* fn_;
  bool ok_ = true;
  CallError scratch_;
};

// ---- WorldCore, the Embind class over one World (conventions: docs/bindings.md) ----
struct WorldCore {
  WorldCore(int lockstep_delay, bool threaded_asked) {
    WorldDef def;
    def.lockstep_delay = lockstep_delay;
#ifdef VOXNAV_WASM_THREADS
    if (threaded_asked) def.executor = &pool();
#endif
    threaded = threaded_asked && def.executor != nullptr;
    world = std::make_unique<World>(def);
    calls.tag = world->id_tag();
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
  /// World member `m` (MEMBER) called with the arguments converted (In): its Status as an int.
  template <class M, class... A>
  int run(const char* fn, M m, const A&... a) {
    In in(calls, fn);
    std::tuple args{in(a)...};  // in order: the first argument that does not convert is named
    return in ? done(std::apply([&](auto&... x) { return m(*world, x...); }, args))
              : calls.last_status();
  }
  /// The same for a member with an out parameter (Out*): its value as JS, or undefined (null for
  /// NotFound when `null_if_not_found`: no such cell is a result, not an error).
  template <class Out, bool null_if_not_found = false, class M, class... A>
  val get(const char* fn, M m, const A&... a) {
    In in(calls, fn);
    std::tuple args{in(a)...};
    Out out{};
    if (!in) return val::undefined();
    const Status st = std::apply([&](auto&... x) { return m(*world, x..., &out); }, args);
    if (null_if_not_found && st == Status::NotFound) return calls.ok(), val::null();
    return result(st, st == Status::Ok ? js(out) : val::undefined());
  }
  template <class... T>
  val numbers(const T&... v) {
    f64.clear();
    return view(put(f64, v...));
  }

  template <class T>
  static val js(const T& v) {
    if constexpr (requires { v.index; })
      return val(v.index);  // AreaId
    else
      return val(v);
  }
  static val js(ProfileId p) {
    double n = 0;
    return (void)id_number(p, &n), val(n);
  }
  val js(CellPos c) { return numbers(c); }
  /// [answer, reason, epoch].
  val js(const Reach& r) { return numbers(r.answer, r.reason, r.epoch); }
  /// [state, failure, partial, cost, nodes expanded, cell count, waypoint count].
  val js(const PathStatus& s) {
    return numbers(s.state, s.failure, s.partial, s.cost, s.nodes_expanded, s.cell_count,
                   s.waypoint_count);
  }
  /// AgentState's fields in order to door_timeouts (22 numbers; cell and push_outs left out).
  val js(const AgentState& s) {
    return numbers(s.mode, s.feet, s.velocity, s.on_ground, s.corridor_epoch, s.next_waypoint,
                   s.arrivals, s.replans, s.repairs, s.requests, s.failure, s.waiting_at_door,
                   s.door, s.door_hold_ticks, s.door_events, s.door_timeouts);
  }

  std::unique_ptr<World> world;
  CallState calls;
  bool threaded = false;
  std::string last_warning;
  std::vector<AgentId> agents;  // every live agent, in the order added
  std::vector<ChunkPos> chunks;
  std::vector<Waypoint> points;
  std::vector<std::int32_t> i32;  // scratch, and the buffers behind the views handed to JS
  std::vector<std::uint16_t> u16;
  std::vector<std::uint8_t> u8;
  std::vector<double> f64, f64b, in;
};

}  // namespace voxnav::bindings
