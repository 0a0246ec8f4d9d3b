// SplitMix64: a tiny deterministic random number generator (Steele, Lea and Flood, 2014). The
// same seed gives the same numbers on every platform, natively and in wasm, unlike the standard
// library's distributions. Used by tools, tests and benchmarks to pick cells and edits.
#pragma once
#include <cstdint>

namespace voxnav::detail {

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

}  // namespace voxnav::detail
