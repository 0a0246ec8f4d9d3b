// Shared pieces of the libFuzzer harnesses (fuzz/README.md): a World holding the Minecraft block
// registry, reused across inputs, and the checks run after every load. Public API only.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "voxnav/columns.h"
#include "voxnav/io.h"
#include "voxnav/native/files.h"
#include "voxnav/profile.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav::fuzz {

/// Stops the run with a message libFuzzer reports as a crash (the input is saved).
[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "voxnav fuzz: %s\n", what);
  std::abort();
}

inline std::string blocks_dir() {
  if (const char* d = std::getenv("VOXNAV_FUZZ_BLOCKS")) return d;
  return VOXNAV_FUZZ_BLOCKS_DIR;  // the repository's data/blocks (set by fuzz/CMakeLists.txt)
}

inline std::uint64_t hash_of(const World& w) {
  std::uint64_t h = 0;
  if (state_hash(w, {}, &h) != Status::Ok) fail("state_hash failed");
  return h;
}

/// A World with the Minecraft registry and a walker profile, made once (loading the registry
/// takes a while); every input unloads what it loaded.
struct McWorld {
  World world;
  ProfileId walker;
  McWorld() {
    std::string msg;
    if (native::load_minecraft_blocks_dir(world, blocks_dir(), &msg) != Status::Ok) {
      std::fprintf(stderr, "voxnav fuzz: cannot load %s: %s\n", blocks_dir().c_str(), msg.c_str());
      std::exit(2);
    }
    Profile p;
    std::string err;
    if (parse_profile_json(R"({"id":"walker"})", p, &err) != Status::Ok ||
        world.add_profile(p, &walker, &err) != Status::Ok)
      fail("cannot add the walker profile");
  }
};
inline McWorld& mc_world() {
  static McWorld* w = new McWorld();  // never destroyed: no teardown work at exit
  return *w;
}

inline std::int32_t floor_div16(std::int32_t v) { return v >= 0 ? v / 16 : -((15 - v) / 16); }

/// After a load: a failed one must have changed nothing; a successful one is queried (blocks at
/// its corners, a height map, navigation of small loads) and then unloaded again.
inline void check_load(McWorld& mw, Status st, const LoadReport& rep, std::uint64_t hash_before) {
  World& w = mw.world;
  if (st != Status::Ok) {
    if (hash_of(w) != hash_before) fail("a failed load changed the World (state hash)");
    if (rep.message.empty()) fail("a failed load gave no message");
    return;
  }
  if (rep.chunks_loaded == 0) return;
  if (!rep.has_bounds) fail("chunks loaded but no bounds reported");
  std::uint16_t v = 0;
  if (w.get_block(rep.min, &v) != Status::Ok) fail("the min corner of a load is not loaded");
  if (w.get_block(rep.max, &v) != Status::Ok) fail("the max corner of a load is not loaded");
  // A height map over (a part of) the box.
  CellPos hi{std::min(rep.max.x, rep.min.x + 63), std::min(rep.max.y, rep.min.y + 383),
             std::min(rep.max.z, rep.min.z + 63)};
  std::vector<std::int32_t> heights(64 * 64);
  std::vector<std::uint16_t> values(64 * 64);
  if (column_tops(w, rep.min, hi, heights.data(), values.data(), heights.size()) != Status::Ok)
    fail("column_tops over a loaded box failed");
  if (rep.chunks_loaded <= 48) {  // navigation of small loads (a big one is slow under ASan)
    w.update();
    std::uint32_t island = 0, size = 0;
    for (const CellPos c : {rep.min, rep.max, CellPos{rep.min.x, rep.min.y + 1, rep.min.z}})
      if (w.island_of(mw.walker, c, &island, &size) != Status::Ok) fail("island_of failed");
  }
  (void)hash_of(w);
  // Bounds are the cells the file covers; its chunks may reach one chunk past them (a Moving AI
  // map loads the chunks above its walls too): look one chunk around.
  std::vector<ChunkPos> loaded;
  for (std::int32_t cy = floor_div16(rep.min.y) - 1; cy <= floor_div16(rep.max.y) + 1; ++cy)
    for (std::int32_t cz = floor_div16(rep.min.z) - 1; cz <= floor_div16(rep.max.z) + 1; ++cz)
      for (std::int32_t cx = floor_div16(rep.min.x) - 1; cx <= floor_div16(rep.max.x) + 1; ++cx) {
        if (std::max({std::abs(cx), std::abs(cz)}) > kMaxChunkXZ || cy < kMinChunkY || cy > kMaxChunkY)
          continue;
        if (w.get_block(CellPos{cx * 16, cy * 16, cz * 16}, &v) == Status::Ok)
          loaded.push_back(ChunkPos{cx, cy, cz});
      }
  if (loaded.size() != rep.chunks_loaded) {
    std::fprintf(stderr, "voxnav fuzz: %zu chunks in the box (%d,%d,%d)..(%d,%d,%d), chunks_loaded %zu\n",
                 loaded.size(), rep.min.x, rep.min.y, rep.min.z, rep.max.x, rep.max.y, rep.max.z,
                 rep.chunks_loaded);
    fail("chunks_loaded differs from the chunks loaded around the reported bounds");
  }
  if (w.unload_chunks(loaded) != Status::Ok) fail("unloading the loaded chunks failed");
  w.update();
}

}  // namespace voxnav::fuzz
