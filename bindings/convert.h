// voxnav bindings - converting JS values to the C++ API's types and back. Errors here are only
// for what does not convert ("is not a cell (integers expected)"), with numbers written as the
// C++ API writes them (voxnav::number_text); the World checks every rule and writes its messages.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "voxnav/world.h"

namespace voxnav::bindings {

using emscripten::typed_memory_view;
using emscripten::val;

inline bool integral(double v) { return std::isfinite(v) && v == std::floor(v); }
/// A JS number that is an integer a C++ int32 holds (the C++ API checks the range it allows).
inline bool int32_number(double v) { return integral(v) && v >= INT32_MIN && v <= INT32_MAX; }

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
/// The same for an argument the World checks: any other value gives no items (the World then
/// names the count it expected, or the JSON it could not read).
template <class T>
std::vector<T>& typed(const val& arr, std::vector<T>& out) {
  if (!copy_typed(arr, out)) out.clear();
  return out;
}
/// A typed_memory_view of scratch storage: valid until the next call (the wrapper copies it).
template <class T>
val view(const std::vector<T>& v) {
  return val(typed_memory_view(v.size(), v.data()));
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

/// How messages name field `field` of entry i of a batch `list` ("agents[2].feet"; `field`
/// alone when `list` is "": a single call).
inline std::string entry(const std::string& list, std::size_t i, const char* field) {
  return list.empty() ? std::string(field) : list + "[" + std::to_string(i) + "]." + field;
}

/// The last failure of a WorldCore: {status, function, argument, message}, C++ names (the JS
/// wrapper, web/lib/errors.mjs, derives the JS names). Every failure names its argument.
class CallState {
 public:
  int last_status() const { return static_cast<int>(error_.status); }
  val last_error() const {
    val o = val::object();
    o.set("status", last_status());
    o.set("function", error_.function);
    o.set("argument", error_.argument);
    o.set("message", error_.message);
    return o;
  }
  int ok() {
    error_ = CallError{};
    return 0;
  }
  /// A conversion error of the bindings, or one a free function of the API wrote (`argument`
  /// '' when no single argument is at fault).
  int fail(Status st, const char* fn, std::string argument, std::string msg) {
    error_ = CallError{st, fn, std::move(argument), std::move(msg)};
    return last_status();
  }
  /// The error `e` of a call made for the binding function `fn`.
  int fail(const char* fn, CallError e) {
    e.function = fn;
    error_ = std::move(e);
    return last_status();
  }
  /// The result of a World call: Ok, or the error the World wrote.
  int done(const World& w, Status st) {
    if (st == Status::Ok) return ok();
    error_ = w.last_error();
    return last_status();
  }
  /// `v` after an Ok call, undefined (the World's error kept) otherwise.
  val result(const World& w, Status st, val v) { return done(w, st) == 0 ? v : val::undefined(); }
  void set_function(std::string fn) { error_.function = std::move(fn); }

  /// Three JS numbers -> a cell: integers a C++ int32 holds (the World checks its range).
  bool cell(const char* fn, const std::string& name, const double* xyz, CellPos& out,
            const char* what = "a cell") {
    std::string at = name + " (";
    for (int i = 0; i < 3; ++i) at += number_text(xyz[i]) + (i < 2 ? ", " : ")");
    if (!integral(xyz[0]) || !integral(xyz[1]) || !integral(xyz[2]))
      return fail(Status::InvalidArgument, fn, name,
                  at + " is not " + what + " (integers expected)"),
             false;
    if (!int32_number(xyz[0]) || !int32_number(xyz[1]) || !int32_number(xyz[2]))
      return fail(Status::OutOfRange, fn, name, at + " is out of range"), false;
    out = CellPos{std::int32_t(xyz[0]), std::int32_t(xyz[1]), std::int32_t(xyz[2])};
    return true;
  }
  bool cell(const char* fn, const std::string& name, double x, double y, double z, CellPos& out,
            const char* what = "a cell") {
    const double xyz[] = {x, y, z};
    return cell(fn, name, xyz, out, what);
  }
  /// A block value: an integer a JS number holds exactly (the World names one out of range).
  bool value(const char* fn, const std::string& name, double v, std::int64_t& out) {
    if (!integral(v) || std::fabs(v) > 9007199254740992.0)
      return fail(Status::InvalidArgument, fn, name,
                  name + " " + number_text(v) + " is not an integer block value"),
             false;
    out = static_cast<std::int64_t>(v);
    return true;
  }
  /// The same for a call taking a uint16: a value no uint16 holds is never in a registry.
  bool value(const char* fn, double v, std::uint16_t& out, std::size_t block_count) {
    std::int64_t n = 0;
    if (!value(fn, "value", v, n)) return false;
    if (n < 0 || n > 65535)
      return fail(Status::OutOfRange, fn, "value",
                  "value " + std::to_string(n) + " is not in the block registry (values 0 .. " +
                      std::to_string(block_count - 1) + ")"),
             false;
    out = static_cast<std::uint16_t>(n);
    return true;
  }
  /// A profile index (the World checks it is one of its profiles).
  bool profile(const char* fn, const std::string& name, double p, ProfileId& out) {
    if (!integral(p) || p < 0 || p >= 4294967295.0)
      return fail(Status::InvalidArgument, fn, name,
                  name + " " + number_text(p) + " is not a profile id (an integer)"),
             false;
    out.index = static_cast<std::uint32_t>(p);
    return true;
  }
  /// An id number (voxnav/ids.h): agents and path handles.
  template <class Id>
  bool id(const char* fn, const std::string& name, double number, Id& out) {
    if (id_of_number(number, &out)) return true;
    constexpr bool agent = std::is_same_v<Id, AgentId>;
    return fail(Status::InvalidArgument, fn, name,
                name + " " + number_text(number) +
                    (agent ? " is not an agent id" : " is not a path handle")),
           false;
  }

 private:
  CallError error_;
};

}  // namespace voxnav::bindings
