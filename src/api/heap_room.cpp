// voxnav/memory.h: the platform part of the heap check. The engine never asks the heap; the API
// calls these before building (memory_need.h).
#include <cstdint>
#include <cstdlib>

#include "voxnav/memory.h"
#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#endif

namespace voxnav {

#ifdef __EMSCRIPTEN__
namespace {
// Where the trial block's address goes: a compiler may drop a malloc whose block is only freed
// (and then take it for non-null), so the block escapes through this volatile.
void* volatile g_trial_block = nullptr;
}  // namespace

// -sALLOW_MEMORY_GROWTH: malloc returns null when the heap cannot grow that far (no abort), and
// the block it gave back stays in the heap (wasm memory never shrinks) for the next allocations.
bool heap_has_room(std::size_t bytes) noexcept {
  if (bytes > emscripten_get_heap_max()) return false;
  const std::size_t total = bytes + kHeapHeadroomBytes;
  if (total < bytes) return false;
  g_trial_block = std::malloc(total);
  void* p = g_trial_block;
  g_trial_block = nullptr;
  if (p == nullptr) return false;
  std::free(p);
  return true;
}
std::size_t heap_ceiling_bytes() noexcept { return emscripten_get_heap_max(); }
#else
bool heap_has_room(std::size_t bytes) noexcept {
  return bytes < static_cast<std::size_t>(PTRDIFF_MAX) - kHeapHeadroomBytes;
}
std::size_t heap_ceiling_bytes() noexcept { return 0; }
#endif

}  // namespace voxnav
