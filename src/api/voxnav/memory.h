// voxnav - the heap check the calls that build large structures make first (voxnav/status.h).
#pragma once
#include <cstddef>

namespace voxnav {

/// Bytes the large calls leave free for the small ones: a load, a registry or a large edit is
/// refused with OutOfMemory unless the heap can still give what it needs (its estimate,
/// docs/memory.md) plus this much, so the calls that are not checked (a tick, a request, adding
/// an agent, the bindings' small copies) find room after the last load that fitted.
inline constexpr std::size_t kHeapHeadroomBytes = std::size_t{16} << 20;

/// Whether the heap can still give `bytes` plus kHeapHeadroomBytes, in one piece, now. In
/// WebAssembly it asks the allocator for that block and frees it at once (a wasm heap only grows,
/// so the block stays in the heap for the caller's allocations); natively it is true for any
/// size below PTRDIFF_MAX (an allocation that still fails there is caught at the API boundary).
/// Used by the loaders, the registry calls and the edits of the World before they allocate, and
/// by the npm package's bindings before they copy an argument. A check, not a reservation: an
/// allocation made meanwhile on another thread can take the room it saw.
[[nodiscard]] bool heap_has_room(std::size_t bytes) noexcept;

/// The most the heap may ever hold, in bytes: the wasm module's ceiling
/// (-sMAXIMUM_MEMORY: 2 GiB), or 0 natively (no ceiling of voxnav's own).
[[nodiscard]] std::size_t heap_ceiling_bytes() noexcept;

}  // namespace voxnav
