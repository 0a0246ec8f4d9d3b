// KeyHash: the hash of the engine's 64-bit lookup keys (chunk keys, brick keys) in its hash maps.
#pragma once
#include <cstddef>
#include <cstdint>

namespace voxnav::detail {

/// Hashes a packed 64-bit key for std::unordered_map. Where size_t has 64 bits this is the
/// identity, as std::hash is in libstdc++ (the map reduces it modulo a prime). Where it has 32 bits
/// (wasm32), libc++'s std::hash<std::uint64_t> runs MurmurHash2 over the 8 bytes, which profiles
/// put at 6 % of a wasm run against 2 % natively; one 64-bit multiply by the golden ratio
/// (Fibonacci hashing) and its high half mixes every bit of the packed fields as well. Lookups
/// only: no result depends on the maps' iteration order.
struct KeyHash {
  std::size_t operator()(std::uint64_t k) const noexcept {
    if constexpr (sizeof(std::size_t) >= 8) {
      return static_cast<std::size_t>(k);
    } else {
      return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> 32);
    }
  }
};

}  // namespace voxnav::detail
