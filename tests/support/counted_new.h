// A global operator new that counts the bytes held: shared by the suites and benchmarks that
// measure memory (tests/api/memory_need_native_test.cpp, bench/chunk_bytes_bench.cpp). It adds up
// malloc_usable_size of every live block (what the allocator really handed out, its rounding
// included; its own headers are not counted) and keeps the peak. Include it in exactly one source
// file of a program: it replaces the program's operator new and delete.
#pragma once
#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace voxnav::test {
/// Bytes held now by operator new, and the most held since the last start_peak().
inline std::size_t g_counted_live = 0, g_counted_peak = 0;
inline std::size_t counted_live() { return g_counted_live; }
inline std::size_t counted_peak() { return g_counted_peak; }
/// Bytes held now; the peak starts again from here.
inline std::size_t start_peak() { return g_counted_peak = g_counted_live; }
inline void* counted_allocate(std::size_t n, bool nothrow) {
  void* p = std::malloc(n ? n : 1);
  if (!p) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  g_counted_live += malloc_usable_size(p);
  g_counted_peak = std::max(g_counted_peak, g_counted_live);
  return p;
}
inline void counted_release(void* p) noexcept {
  if (!p) return;
  g_counted_live -= malloc_usable_size(p);
  std::free(p);
}
}  // namespace voxnav::test

void* operator new(std::size_t n) { return voxnav::test::counted_allocate(n, false); }
void* operator new[](std::size_t n) { return voxnav::test::counted_allocate(n, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  return voxnav::test::counted_allocate(n, true);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return voxnav::test::counted_allocate(n, true);
}
void operator delete(void* p) noexcept { voxnav::test::counted_release(p); }
void operator delete[](void* p) noexcept { voxnav::test::counted_release(p); }
void operator delete(void* p, std::size_t) noexcept { voxnav::test::counted_release(p); }
void operator delete[](void* p, std::size_t) noexcept { voxnav::test::counted_release(p); }
