// voxnav/memory.h: the platform part of the heap check. The engine never asks the heap; the API
// calls these before building (memory_need.h).
#include <cstdint>
#include <cstdlib>

#include "voxnav/memory.h"
#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#include <malloc.h>
#include <unistd.h>
#endif

namespace voxnav {

#ifdef __EMSCRIPTEN__
// Computed, never tried: nothing is allocated, so the check itself never grows the heap (a wasm
// heap never shrinks). The heap can still give what lies between the allocator's break (sbrk(0),
// the end of the memory it has taken so far) and the ceiling, plus the free blocks it holds
// below the break. The first part costs nothing; the second (dlmalloc's mallinfo) walks the
// heap's blocks, so it is asked only when the first part is not enough.
std::size_t heap_free_bytes() noexcept {
  const std::size_t ceiling = emscripten_get_heap_max();
  const auto brk = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::size_t above = brk < ceiling ? ceiling - brk : 0;
  return above + static_cast<std::size_t>(mallinfo().fordblks);
}
bool heap_has_room(std::size_t bytes) noexcept {
  const std::size_t total = bytes + kHeapHeadroomBytes;
  if (total < bytes) return false;
  const std::size_t ceiling = emscripten_get_heap_max();
  if (total > ceiling) return false;
  const auto brk = reinterpret_cast<std::uintptr_t>(sbrk(0));
  if (brk < ceiling && ceiling - brk >= total) return true;  // the fast answer
  return heap_free_bytes() >= total;
}
std::size_t heap_ceiling_bytes() noexcept { return emscripten_get_heap_max(); }
#else
std::size_t heap_free_bytes() noexcept { return static_cast<std::size_t>(PTRDIFF_MAX); }
bool heap_has_room(std::size_t bytes) noexcept {
  return bytes < static_cast<std::size_t>(PTRDIFF_MAX) - kHeapHeadroomBytes;
}
std::size_t heap_ceiling_bytes() noexcept { return 0; }
#endif

}  // namespace voxnav
