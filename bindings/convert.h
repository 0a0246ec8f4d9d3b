// voxnav bindings - converting JS values to the C++ API's types and back. Errors here are only
// for what does not convert ("must be a Uint16Array", "is not a cell (integers expected)"); the
// World checks every rule and writes those messages (World::last_error()).
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "voxnav/status.h"
#include "voxnav/world.h"

namespace voxnav::bindings {

using emscripten::typed_memory_view;
using emscripten::val;

inline std::string num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
inline bool integral(double v) { return std::isfinite(v) && v == std::floor(v); }
/// A JS number that is an integer a C++ int32 holds (the C++ API checks the range it allows).
inline bool int32_number(double v) {
  return v == std::floor(v) && v >= INT32_MIN && v <= INT32_MAX;
}

template <class T>
constexpr const char* typed_name() {
  if constexpr (std::is_same_v<T, double>) return "Float64Array";
  if constexpr (std::is_same_v<T, std::uint8_t>) return "Uint8Array";
  if constexpr (std::is_same_v<T, std::uint16_t>) return "Uint16Array";
  if constexpr (std::is_same_v<T, std::uint32_t>) return "Uint32Array";
  if constexpr (std::is_same_v<T, std::int32_t>) return "Int32Array";
}
/// Thrown when the wasm heap cannot hold the copy of an argument (before the World is called:
/// the module boundary, voxnav_bindings.cpp, reports OutOfMemory with the World unchanged).
struct ArgumentOutOfMemory {};

/// A typed array of T copied into `out` with one TypedArray.set (false: not such an array).
/// Throws ArgumentOutOfMemory when the heap cannot hold it.
template <class T>
bool copy_typed(const val& arr, std::vector<T>& out) {
  if (!arr.instanceof (val::global(typed_name<T>()))) return false;
  const double length = arr["length"].as<double>();
  if (!(length * sizeof(T) < 4294967296.0)) throw ArgumentOutOfMemory{};  // more than wasm32 addresses
  const auto n = static_cast<std::size_t>(length);
  try {
    out.resize(n);
  } catch (const std::bad_alloc&) {
    throw ArgumentOutOfMemory{};
  }
  if (n) val(typed_memory_view(n, out.data())).call<void>("set", arr);
  return true;
}
/// A typed_memory_view of scratch storage: valid until the next call (the wrapper copies it).
template <class T>
val view(const std::vector<T>& v) {
  return val(typed_memory_view(v.size(), v.data()));
}
/// A JS object of the fields given.
inline val object(std::initializer_list<std::pair<const char*, val>> fields) {
  val o = val::object();
  for (const auto& [k, v] : fields) o.set(k, v);
  return o;
}
inline val number(double v) { return val(v); }
/// Three coordinates per element appended to `out` (a point's x, y, z).
template <class T, class P>
void push_xyz(std::vector<T>& out, const P& p) {
  out.push_back(static_cast<T>(p.x));
  out.push_back(static_cast<T>(p.y));
  out.push_back(static_cast<T>(p.z));
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

/// The last failure of a WorldCore: {status, function, argument, message}, C++ names (the JS
/// wrapper, web/lib/errors.mjs, derives the JS names).
class CallState {
 public:
  int last_status() const {
    return error_.status == Status::Ok ? 0 : static_cast<int>(error_.status);
  }
  val last_error() const {
    return object({{"status", val(last_status())},
                   {"function", val(error_.function)},
                   {"argument", val(error_.argument)},
                   {"message", val(error_.message)}});
  }
  int ok() {
    error_ = CallError{};
    return 0;
  }
  /// A conversion error of the bindings (the argument: the word the message starts with).
  int fail(Status st, const std::string& fn, const std::string& msg,
           const char* argument = nullptr) {
    error_ = CallError{st, fn, argument ? argument : msg.substr(0, msg.find_first_of(" :[")), msg};
    return last_status();
  }
  val fail_val(Status st, const std::string& fn, const std::string& msg,
               const char* argument = nullptr) {
    fail(st, fn, msg, argument);
    return val::undefined();
  }
  /// The error the World wrote for its last failed call.
  int world_fail(const World& w) {
    error_ = w.last_error();
    return last_status();
  }
  int done(const World& w, Status st) { return st == Status::Ok ? ok() : world_fail(w); }
  /// `v` after an Ok call, undefined (the World's error kept) otherwise.
  val result(const World& w, Status st, val v) {
    if (st != Status::Ok) return world_fail(w), val::undefined();
    ok();
    return v;
  }
  void set_function(std::string fn) { error_.function = std::move(fn); }

  /// Three JS numbers -> a cell: integers a C++ int32 holds (the World checks its range).
  bool cell(const char* fn, const std::string& name, double x, double y, double z, CellPos& out,
            const char* what = "a cell") {
    const std::string at = name + " (" + num(x) + ", " + num(y) + ", " + num(z) + ")";
    if (!integral(x) || !integral(y) || !integral(z))
      return fail(Status::InvalidArgument, fn, at + " is not " + what + " (integers expected)",
                  name.c_str()),
             false;
    if (!int32_number(x) || !int32_number(y) || !int32_number(z))
      return fail(Status::OutOfRange, fn, at + " is out of range", name.c_str()), false;
    out = CellPos{static_cast<std::int32_t>(x), static_cast<std::int32_t>(y),
                  static_cast<std::int32_t>(z)};
    return true;
  }
  bool chunk(const char* fn, double x, double y, double z, ChunkPos& out) {
    CellPos c;
    if (!cell(fn, "chunk", x, y, z, c, "a chunk position")) return false;
    out = ChunkPos{c.x, c.y, c.z};
    return true;
  }
  /// A block value: an integer; one no uint16 holds is never in a registry (the World names it).
  bool value(const char* fn, double v, std::uint16_t& out, std::size_t block_count) {
    if (!integral(v))
      return fail(Status::InvalidArgument, fn,
                  "value " + num(v) + " is not an integer block value"),
             false;
    if (v < 0 || v >= 65536)
      return fail(Status::OutOfRange, fn,
                  "value " + num(v) + " is not in the block registry (values 0 .. " +
                      num(double(block_count) - 1) + ")"),
             false;
    out = static_cast<std::uint16_t>(v);
    return true;
  }
  /// A profile index (the World checks it is one of its profiles).
  bool profile(const char* fn, double p, ProfileId& out) {
    if (!integral(p) || p < 0 || p >= 4294967295.0)
      return fail(Status::InvalidArgument, fn,
                  "profile " + num(p) + " is not a profile id (an integer)"),
             false;
    out.index = static_cast<std::uint32_t>(p);
    return true;
  }
  /// A profile and a cell, the first arguments of the World's queries.
  bool profile_cell(const char* fn, double profile, const char* name, double x, double y, double z,
                    ProfileId& pid, CellPos& c) {
    return this->profile(fn, profile, pid) && cell(fn, name, x, y, z, c);
  }
  /// An id number (voxnav/ids.h): agents and path handles.
  template <class Id>
  bool id(const char* fn, double number, Id& out) {
    if (id_of_number(number, &out)) return true;
    constexpr bool agent = std::is_same_v<Id, AgentId>;
    return fail(Status::InvalidArgument, fn,
                std::string(agent ? "agent " : "path ") + num(number) +
                    (agent ? " is not an agent id" : " is not a path handle")),
           false;
  }

 private:
  CallError error_;
};

}  // namespace voxnav::bindings
