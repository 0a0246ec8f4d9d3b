// Registry loaders under allocation failure (issue 16: no partial state after out-of-memory).
// This suite replaces the global operator new with one that can be told to fail the k-th
// allocation from now on (one failure, then allocations succeed again). Each loader is run with
// the failure placed at every allocation it makes, k = 0, 1, 2, ... until it succeeds: every
// failed run must return OutOfMemory (never throw) and leave the World's registry, its name and
// state lookups and its legacy id table exactly as they were; the run that succeeds must install
// the new registry whole.
// Native only (the _native_test suffix): the wasm build has C++ exceptions off by default, so an
// allocation failure there ends the module and the JS wrapper reports it (tests/web/out_of_memory).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "voxnav/io.h"
#include "voxnav/registry.h"
#include "voxnav/world.h"

// g++ 12 at -O1 inlines these operators into each other and then sees free() called on what
// "operator new" returned; they are one malloc/free pair by construction.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {
// Allocations left before the one that fails; negative: none fails.
long long g_fail_in = -1;
// Whether the armed failure was reached (the call under test made that many allocations).
bool g_failed = false;

void* allocate(std::size_t n, bool nothrow) {
  if (g_fail_in >= 0 && g_fail_in-- == 0) {
    g_failed = true;
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  void* p = std::malloc(n ? n : 1);
  if (!p && !nothrow) throw std::bad_alloc();
  return p;
}
void* allocate_aligned(std::size_t n, std::align_val_t a, bool nothrow) {
  if (g_fail_in >= 0 && g_fail_in-- == 0) {
    g_failed = true;
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  const std::size_t al = static_cast<std::size_t>(a);
  void* p = std::aligned_alloc(al, (n + al - 1) / al * al);
  if (!p && !nothrow) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { return allocate(n, false); }
void* operator new[](std::size_t n) { return allocate(n, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, true); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_aligned(n, a, false); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_aligned(n, a, false); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace voxnav {
namespace {

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// Minecraft-data style registries: A (air, stone, a door with half and open) and B (air, dirt,
// glass, stairs facing four ways), and their shapes files.
const std::string kBlocksA =
    R"([{"name":"air","minStateId":0,"maxStateId":0,"defaultState":0,"boundingBox":"empty"},)"
    R"({"name":"stone","minStateId":1,"maxStateId":1,"defaultState":1,"boundingBox":"block"},)"
    R"({"name":"oak_door","minStateId":2,"maxStateId":5,"defaultState":4,"boundingBox":"block",)"
    R"("states":[{"name":"half","type":"enum","num_values":2,"values":["upper","lower"]},)"
    R"({"name":"open","type":"bool","num_values":2}]}])";
const std::string kShapesA =
    R"({"blocks":{"stone":1,"oak_door":2},"shapes":{"1":[[0,0,0,1,1,1]],"2":[[0,0,0,1,1,0.1875]]}})";
const std::string kBlocksB =
    R"([{"name":"air","minStateId":0,"maxStateId":0,"defaultState":0,"boundingBox":"empty"},)"
    R"({"name":"dirt","minStateId":1,"maxStateId":1,"defaultState":1,"boundingBox":"block"},)"
    R"({"name":"glass","minStateId":2,"maxStateId":2,"defaultState":2,"boundingBox":"block"},)"
    R"({"name":"oak_stairs","minStateId":3,"maxStateId":6,"defaultState":3,"boundingBox":"block",)"
    R"("states":[{"name":"facing","type":"enum","num_values":4,"values":["north","south","west","east"]}]}])";
const std::string kShapesB = R"({"blocks":{"dirt":1,"glass":1,"oak_stairs":1},"shapes":{"1":[[0,0,0,1,1,1]]}})";
// pre-1.13 id tables over registry A.
const std::string kLegacy1 = R"([{"id":1,"name":"stone"},{"id":64,"name":"wooden_door"}])";
const std::string kLegacy2 = R"([{"id":1,"name":"stone"},{"id":2,"name":"stone"},{"id":5,"name":"oak_door"}])";

// Everything a registry load may change, as text: the values with their definitions, name and
// state lookups, and the legacy id table.
std::string describe(const World& w) {
  std::string s = std::to_string(w.block_count()) + " values;";
  for (std::uint16_t v = 0; v < w.block_count(); ++v) {
    BlockDef d;
    if (w.block_def(v, &d) != Status::Ok) return s + " block_def failed";
    s += " " + d.name + "/" + std::to_string(d.boxes.size()) + "/" +
         std::to_string(static_cast<int>(d.traits.door)) + "/" + std::to_string(d.traits.door_toggle);
  }
  for (const char* name : {"stone", "dirt", "glass", "oak_door[half=upper,open=true]",
                           "oak_door", "oak_stairs[facing=east]", "air"}) {
    std::uint16_t v = 0;
    s += std::string(" ") + name + "=" +
         (w.block_value(name, &v) == Status::Ok ? std::to_string(v) : std::string("-"));
  }
  const detail::MinecraftBlocks& mc = detail::WorldAccess::state(w).blocks;
  s += mc.loaded() ? " mc" : " no-mc";
  if (mc.legacy_loaded())
    for (int id : {1, 2, 5, 64})
      for (int meta : {0, 3, 8}) s += " L" + std::to_string(mc.legacy_value(id, meta));
  return s;
}

// Runs `load` with the k-th allocation failing for k = 0, 1, ... until it returns Ok. Every failed
// run must be OutOfMemory with the World described as `before`. Returns the number of failed runs.
template <class F>
int fail_every_allocation(World& w, const std::string& before, F&& load) {
  for (int k = 0; k < 200000; ++k) {
    g_failed = false;
    g_fail_in = k;
    Status st = Status::Ok;
    bool threw = false;
    try {
      st = load();
    } catch (...) {
      threw = true;
    }
    g_fail_in = -1;
    EXPECT_FALSE(threw) << "an exception left the call at allocation " << k;
    if (threw) return k;
    if (!g_failed) {
      EXPECT_EQ(st, Status::Ok) << "no allocation failed at k = " << k;
      return k;
    }
    if (st == Status::Ok) return k;  // the failing allocation was one the call survives
    EXPECT_EQ(st, Status::OutOfMemory) << "at allocation " << k;
    const std::string now = describe(w);
    EXPECT_EQ(now, before) << "the registry changed after a failed load (allocation " << k << ")";
    if (now != before) return k;
  }
  ADD_FAILURE() << "the load never succeeded";
  return 0;
}

TEST(RegistryOutOfMemory, MinecraftBlocksLoadKeepsTheOldRegistry) {
  World w;
  std::string msg;
  ASSERT_EQ(w.load_minecraft_blocks(bytes(kBlocksA), bytes(kShapesA), &msg), Status::Ok) << msg;
  ASSERT_EQ(load_minecraft_legacy_ids(w, bytes(kLegacy1), &msg), Status::Ok) << msg;
  const std::string before = describe(w);
  ASSERT_NE(before.find("oak_door[half=upper,open=true]=4"), std::string::npos) << before;
  const auto blocks = bytes(kBlocksB), shapes = bytes(kShapesB);
  const int failures = fail_every_allocation(w, before, [&] {
    return w.load_minecraft_blocks(blocks, shapes, &msg);
  });
  EXPECT_GT(failures, 20);  // the load allocates: every one of its allocations was made to fail
  const std::string after = describe(w);
  EXPECT_NE(after.find("9 values;"), std::string::npos) << after;  // B: air, unknown, 7 states
  EXPECT_NE(after.find("oak_stairs[facing=east]=8"), std::string::npos) << after;
  EXPECT_NE(after.find("stone=-"), std::string::npos) << after;  // not a block of B
}

TEST(RegistryOutOfMemory, LegacyIdTableLoadKeepsTheOldTable) {
  World w;
  std::string msg;
  ASSERT_EQ(w.load_minecraft_blocks(bytes(kBlocksA), bytes(kShapesA), &msg), Status::Ok) << msg;
  ASSERT_EQ(load_minecraft_legacy_ids(w, bytes(kLegacy1), &msg), Status::Ok) << msg;
  const std::string before = describe(w);
  const auto legacy = bytes(kLegacy2);
  const int failures = fail_every_allocation(w, before, [&] {
    return load_minecraft_legacy_ids(w, legacy, &msg);
  });
  EXPECT_GT(failures, 10);
  const detail::MinecraftBlocks& mc = detail::WorldAccess::state(w).blocks;
  EXPECT_EQ(mc.legacy_value(2, 0), 3);  // id 2 is stone in table 2 (value 3 = state 1 + 2)
  EXPECT_EQ(mc.legacy_value(64, 0), w.block_count() > 0 ? mc.registry().fallback() : 0);
}

TEST(RegistryOutOfMemory, VoxnavJsonLoadKeepsTheOldRegistry) {
  World w;
  std::string msg;
  const std::string a = R"({"format":"voxnav-blocks","version":1,"blocks":[{"name":"air"},)"
                        R"({"name":"stone","boxes":[[0,0,0,1,1,1]]}]})";
  const std::string b = R"({"format":"voxnav-blocks","version":1,"blocks":[{"name":"air"},)"
                        R"({"name":"dirt","boxes":[[0,0,0,1,1,1]]},{"name":"glass","boxes":[[0,0,0,1,1,1]]},)"
                        R"({"name":"door_closed","boxes":[[0,0,0,1,1,0.1875]],"door":{"open":false,"toggle":"door_open"}},)"
                        R"({"name":"door_open","boxes":[[0,0,0,0.1875,1,1]],"door":{"open":true,"toggle":"door_closed"}}]})";
  ASSERT_EQ(w.load_blocks_json(bytes(a), &msg), Status::Ok) << msg;
  const std::string before = describe(w);
  const auto json = bytes(b);
  const int failures = fail_every_allocation(w, before, [&] { return w.load_blocks_json(json, &msg); });
  EXPECT_GT(failures, 10);
  EXPECT_EQ(w.block_count(), 5u) << describe(w);
}

}  // namespace
}  // namespace voxnav
