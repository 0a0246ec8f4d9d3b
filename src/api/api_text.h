// voxnav internal: the text of the C++ API's error messages (numbers, cells, the cell range), one
// place for world.cpp, columns.cpp and the other src/api files. Not installed.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "voxnav/error.h"
#include "voxnav/ids.h"
#include "engine/util/text.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav::detail {

// A call's failure: *error (when given) names the function, the argument and what was wrong; the
// status is returned.
inline Status fail(CallError* error, const char* fn, std::string argument, std::string msg, Status st) {
  if (error != nullptr) *error = CallError{st, fn, std::move(argument), std::move(msg)};
  return st;
}

inline std::string num(double v) { return number_text(v); }
inline std::string cell_text(CellPos c) { return xyz_text(c.x, c.y, c.z); }
inline std::string chunk_text(ChunkPos c) { return xyz_text(c.x, c.y, c.z); }
inline std::string vec_text(Vec3 v) {
  std::string s = "(";  // piecewise, as xyz_text
  s += num(v.x);
  s += ", ";
  s += num(v.y);
  s += ", ";
  s += num(v.z);
  s += ")";
  return s;
}
// "<what> <id number>" (voxnav/ids.h), or "<what> (index i, generation g)" for an id without one.
inline std::string id_text(const char* what, double number, bool ok, std::uint32_t index, std::uint32_t gen) {
  return std::string(what) + " " +
         (ok ? num(number) : "(index " + std::to_string(index) + ", generation " + std::to_string(gen) + ")");
}
// An agent id as messages show it (id_text).
inline std::string agent_text(const char* what, AgentId a) {
  double n = 0;
  const bool ok = id_number(a, &n);
  return id_text(what, n, ok, a.index, a.generation);
}
// A profile index that is not one of the world's `count` profiles.
inline std::string profile_error(ProfileId p, std::size_t count,
                                 const std::string& what = "profile") {
  double n = 0;  // its number when it has one (voxnav/ids.h), else its index
  return what + " " + (id_number(p, &n) ? num(n) : std::to_string(p.index)) +
         " is not a profile of this world (" +
         std::to_string(count) + " added)";
}
// "" for a cell in range, else "<what> (x, y, z) is out of range: y is outside -2047 .. 2047".
inline std::string cell_range_error(const std::string& what, CellPos c) {
  const char* axis = std::abs(std::int64_t{c.x}) > kMaxCellXZ   ? "x"
                     : std::abs(std::int64_t{c.z}) > kMaxCellXZ ? "z"
                     : std::abs(std::int64_t{c.y}) > kMaxCellY  ? "y"
                                                                : nullptr;
  if (!axis) return std::string();
  const std::int32_t lim = axis[0] == 'y' ? kMaxCellY : kMaxCellXZ;
  return what + " " + cell_text(c) + " is out of range: " + axis + " is outside -" +
         std::to_string(lim) + " .. " + std::to_string(lim);
}
// The same for a chunk (voxnav/types.h kMaxChunkXZ, kMaxChunkY: every cell of it in range):
// "<what> (x, y, z) is out of range: x is outside -2097151 .. 2097151 (chunks; ...)".
inline std::string chunk_range_error(const std::string& what, ChunkPos p) {
  const auto out = [](std::int32_t v, std::int32_t lim) { return v < -lim || v > lim; };
  const char* axis = out(p.x, kMaxChunkXZ)  ? "x"
                     : out(p.z, kMaxChunkXZ) ? "z"
                     : out(p.y, kMaxChunkY)  ? "y"
                                             : nullptr;
  if (!axis) return std::string();
  const std::int32_t lim = axis[0] == 'y' ? kMaxChunkY : kMaxChunkXZ;
  return what + " " + chunk_text(p) + " is out of range: " + axis + " is outside -" +
         std::to_string(lim) + " .. " + std::to_string(lim) +
         " (chunk coordinates; their cells must have |x|, |z| <= " + std::to_string(kMaxCellXZ) +
         " and |y| <= " + std::to_string(kMaxCellY) + ")";
}

// Runs `f`, turning an exception (an allocation that failed) into OutOfMemory with `message`:
// the API boundary of voxnav/status.h (the calls it lists use it).
template <typename F>
Status guarded(std::string& message, F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    try { message = "out of memory"; } catch (...) {}
    return Status::OutOfMemory;
  } catch (const std::exception& e) {
    try { message = std::string("out of memory or an internal error: ") + e.what(); } catch (...) {}
    return Status::OutOfMemory;
  } catch (...) {
    return Status::OutOfMemory;
  }
}

}  // namespace voxnav::detail
