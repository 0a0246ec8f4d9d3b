// voxnav bindings - JS values to the C++ API's types and back (voxnav/numbers.h writes the
// messages of what does not convert), and WorldCore. The World checks every rule.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "voxnav/layouts.h"
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

/// Argument copies up to this size are taken from the headroom without asking heap_has_room.
inline constexpr std::size_t kSmallCopyBytes = 64 * 1024;
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
  const auto refuse = [&] {
    out.clear();
    g_refused_copy_bytes = bytes;
    return false;
  };
  if (!(bytes < 4294967296.0)) return refuse();  // more than wasm32 holds
  if (length > double(out.capacity())) {
    // The copy is one block: the heap's room (heap_has_room) counts free blocks whole, and a
    // fragmented heap may hold none that large although their sum is. So the block itself is
    // tried (malloc answers null, never aborts, in a build that grows its heap) after the old
    // scratch is freed, and the scratch takes exactly that size (resize could ask twice the old
    // capacity). A small copy (an agent's goal) comes out of the headroom (docs/memory.md): only
    // a large one must also leave kHeapHeadroomBytes free.
    std::vector<T>().swap(out);
    if (bytes > double(kSmallCopyBytes) && !heap_has_room(static_cast<std::size_t>(bytes)))
      return refuse();
    // volatile: the compiler may drop a malloc whose block is unused, null test included.
    void* volatile block = std::malloc(static_cast<std::size_t>(bytes));
    if (block == nullptr) return refuse();
    std::free(block);
  }
  try {
    out.reserve(static_cast<std::size_t>(length));
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
template <class R>  // a vector or a span
val view(const R& v) {
  return val(typed_memory_view(v.size(), v.data()));
}
using Numbers = std::vector<double>;
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
inline Arg<EntityId> entity(double e, std::string name = "entity") { return {std::move(name), e}; }
/// A point or a vector, metres ([x, y, z] numbers; the API checks they are finite).
inline Arg<Vec3, val> vec(val v, std::string name) { return {std::move(name), v}; }

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
  /// Ok (0), unless an argument's copy was refused in this call `fn` (refused_copy).
  int ok(std::string fn) {
    return g_refused_copy_bytes > 0 ? refused_copy(std::move(fn)) : (error = CallError{}, 0);
  }
  /// The error `e` (a conversion's, or an API function's) of binding call `fn`.
  [[gnu::noinline]] int fail(const char* fn, CallError e) {
    if (g_refused_copy_bytes > 0) return refused_copy(fn);
    e.function = fn;
    return error = std::move(e), last_status();
  }
  /// The result of a World call: Ok, or the error the World wrote.
  /// OutOfMemory for call `fn` whose argument copy the heap could not give (the World was called
  /// with no data, or not at all: it refused that, so nothing changed).
  [[gnu::noinline]] int refused_copy(std::string fn) {
    error = CallError{Status::OutOfMemory, std::move(fn), "",
                      "out of memory: the wasm heap cannot hold a copy of an argument (" +
                          number_text(g_refused_copy_bytes) + " bytes); nothing changed"};
    g_refused_copy_bytes = 0;
    return last_status();
  }
  [[gnu::noinline]] int done(const World& w, Status st) {
    if (g_refused_copy_bytes > 0) return refused_copy(w.last_error().function);
    return st == Status::Ok ? (error = CallError{}, 0) : (error = w.last_error(), last_status());
  }
  /// An API function f(CallError*) of call `fn`: true when Ok (its error kept otherwise).
  template <class F>
  bool api(const char* fn, F&& f) {
    CallError e;
    if (f(&e) != Status::Ok) return fail(fn, std::move(e)), false;
    if (g_refused_copy_bytes > 0) return refused_copy(fn), false;  // an argument's copy
    return ok(fn), true;
  }
};

/// Converts one call's arguments in order; after the first that does not convert (the error
/// names it) the others are not looked at. Other values pass as they are.
class In {
 public:
  In(CallState& calls, const char* fn) : calls_(calls), fn_(fn) {}
  explicit operator bool() const { return ok_; }
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
  CellPos cell(const std::string& name, const val& v, const char* what = "a cell") {
    const double xyz[] = {v[0].as<double>(), v[1].as<double>(), v[2].as<double>()};
    return take<CellPos>([&](auto* o, auto* e) { return from_numbers(xyz, name, o, e, what); });
  }
  CellPos operator()(const Cell& a) { return cell(a.name, a.v); }
  ChunkPos operator()(const Arg<ChunkPos, val>& a) {
    const CellPos c = cell(a.name, a.v, "a chunk position");
    return ChunkPos{c.x, c.y, c.z};
  }
  Vec3 operator()(const Arg<Vec3, val>& a) {
    return Vec3{a.v[0].as<double>(), a.v[1].as<double>(), a.v[2].as<double>()};
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
  /// A string (its content is the World's to check); another value is refused (wrong_type).
  std::string text(const val& v, const std::string& name) {
    if (!v.isString()) refuse(name, "a string");
    return ok_ ? v.as<std::string>() : std::string();
  }
  [[gnu::noinline]] void refuse(const std::string& name, const char* type,
                                const std::string& what = "") {
    if (ok_ && wrong_type(name, type, &scratch_, what) != Status::Ok) failed();
  }
  /// A block value for a call taking a uint16 (block_value_of_number).
  std::uint16_t value(double v, std::size_t block_count) {
    return take<std::uint16_t>(
        [&](auto* o, auto* e) { return block_value_of_number(v, "value", block_count, o, e); });
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
    if (null_if_not_found && st == Status::NotFound) return calls.ok(fn), val::null();
    return result(st, st == Status::Ok ? js(out) : val::undefined());
  }
  /// A result as JS: its numbers (voxnav/layouts.h) in a view of f64, an id number, or a value.
  template <class T>
  val js(const T& v) {
    if constexpr (std::is_same_v<T, Numbers>)
      return f64 = v, view(f64);  // an API function's numbers (voxnav/layouts.h)
    else if constexpr (requires { append_numbers(v, &f64); })
      return f64.clear(), append_numbers(v, &f64), view(f64);
    else if constexpr (requires { v.index; })
      return val(v.index);  // AreaId
    else
      return val(v);
  }
  val js(ProfileId p) {
    double n = 0;
    return (void)id_number(p, &n), val(n);
  }
  val js(Vec3 v) {
    f64.assign({v.x, v.y, v.z});
    return view(f64);
  }
  val js(CellPos c) {
    f64.assign({double(c.x), double(c.y), double(c.z)});
    return view(f64);
  }

  std::unique_ptr<World> world;
  CallState calls;
  bool threaded = false;
  std::string last_warning;
  std::vector<AgentId> agents;  // every live agent, in the order added
  std::vector<ChunkPos> chunks;
  std::vector<std::int32_t> i32;  // scratch, and the buffers behind the views handed to JS
  std::vector<std::uint16_t> u16;
  std::vector<std::uint8_t> u8;
  std::vector<double> f64, f64b, in;
};

}  // namespace voxnav::bindings
