// voxnav engine - small text helpers for messages (one place for how coordinates read).
#pragma once
#include <cstdint>
#include <string>

namespace voxnav::detail {

/// "(x, y, z)", as every message names a cell, chunk or voxel.
inline std::string xyz_text(std::int64_t x, std::int64_t y, std::int64_t z) {
  std::string s = "(";  // appended piecewise: GCC 12 warns falsely on "(" + std::to_string(...)
  s += std::to_string(x);
  s += ", ";
  s += std::to_string(y);
  s += ", ";
  s += std::to_string(z);
  s += ")";
  return s;
}

}  // namespace voxnav::detail
