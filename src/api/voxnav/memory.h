// voxnav - the heap check the calls that build large structures make first (voxnav/status.h).
#pragma once
#include <cstddef>

namespace voxnav {

/// Bytes the large calls leave free for the small ones: a load, a registry or a large edit is
/// refused with OutOfMemory unless the heap can still give what it needs (its estimate,
/// docs/memory.md) plus this much, so the calls that are not checked (a tick, a request, adding
/// an agent, the bindings' small copies) find room after the last load that fitted.
inline constexpr std::size_t kHeapHeadroomBytes = std::size_t{16} << 20;

/// What a new World may hold before its first call (measured natively: 14,104 bytes; the npm
/// package's World adds its scratch): creating a World is refused (JS: VoxnavError
/// 'OutOfMemory' naming "World") unless the heap can give this plus kHeapHeadroomBytes.
inline constexpr std::size_t kNewWorldBytes = std::size_t{64} << 10;

/// Whether the heap can still give `bytes` plus kHeapHeadroomBytes now. In WebAssembly it is
/// computed, nothing is allocated (the check never grows the heap, which would never shrink
/// again): the bytes between the allocator's break and the ceiling, plus, only when those are not
/// enough, the free blocks below the break (heap_free_bytes). Free blocks are counted whole, so a
/// fragmented heap may still fail one large allocation: the calls checked make many small ones
/// (chunk arrays and navigation planes of at most 64 KiB) and the headroom covers the rest.
/// Natively it is true for any size below PTRDIFF_MAX (an allocation that still fails there is
/// caught at the API boundary).
/// Used by the loaders, the registry calls and the edits of the World before they allocate, and
/// by the npm package's bindings before they copy an argument. A check, not a reservation: an
/// allocation made meanwhile on another thread can take the room it saw.
[[nodiscard]] bool heap_has_room(std::size_t bytes) noexcept;

/// Bytes the heap can still give, in bytes: in WebAssembly the ceiling minus the allocator's
/// break plus the free blocks below it (this walks the heap's blocks: not for every call);
/// natively PTRDIFF_MAX.
[[nodiscard]] std::size_t heap_free_bytes() noexcept;

/// The most the heap may ever hold, in bytes: the wasm module's ceiling
/// (-sMAXIMUM_MEMORY: 2 GiB), or 0 natively (no ceiling of voxnav's own).
[[nodiscard]] std::size_t heap_ceiling_bytes() noexcept;

}  // namespace voxnav
