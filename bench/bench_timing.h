// voxnav benchmarks: the timing helpers every bench shares.
#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

namespace voxnav::bench {

/// Microseconds since `t0` (steady clock).
inline double us_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}
/// The upper median of `v` (0 for an empty list).
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace voxnav::bench
