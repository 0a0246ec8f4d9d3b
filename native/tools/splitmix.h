// SplitMix64 (Steele, Lea and Flood, 2014): a tiny deterministic random number generator for the
// tools built on the public API - the voxnav command-line tool (native/cmd_run.cpp) and the
// benchmarks (bench/, which add this folder, native/tools, to their include path). The same seed
// gives the same numbers on every platform, natively and in wasm, unlike the standard library's
// distributions. Not part of the library or its installed headers: a seeded RNG is the host's
// business. voxnav's tests use it too (tests/CMakeLists.txt adds this folder).
#pragma once
#include <cstdint>

namespace voxnav::tools {

struct SplitMix64 {
  std::uint64_t s;
  explicit SplitMix64(std::uint64_t seed) : s(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// A number in [0, n) (n > 0), by modulo: the slight bias does not matter for picking cells.
  template <class T>
  T below(T n) {
    return static_cast<T>(next() % static_cast<std::uint64_t>(n));
  }
  /// An integer in [lo, hi].
  int range(int lo, int hi) { return lo + static_cast<int>(below<std::uint64_t>(std::uint64_t(hi - lo) + 1)); }
};

}  // namespace voxnav::tools
