// chunk_bytes_bench: the memory a loaded chunk costs (issue 17 item 5), natively and in wasm: per
// world file, the bytes the World holds for the blocks after the load, and the bytes the walker's
// navigation adds when update() builds it, each divided by the chunks loaded. Bytes are counted
// by tests/support/counted_new.h (malloc_usable_size of every live block: the allocator's
// rounding included, its own headers not). The registry is loaded before counting starts.
// docs/benchmarks.md keeps the table.
//
//   native: chunk_bytes_bench [--write-dump DIR] WORLD...   (.mca regions; dumps too)
//   wasm:   node --no-experimental-fetch chunk_bytes_bench.js DUMP...   (bench/chunk_dump.h)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "chunk_dump.h"
#include "voxnav/io.h"
#include "voxnav/world.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/files.h"  // regions (zlib) and the registry folder
#endif
#include "counted_new.h"  // the bytes held (tests/support)


namespace {
using voxnav::Status;
using voxnav::World;

bool ends_with(const std::string& s, const char* suf) {
  const std::size_t n = std::strlen(suf);
  return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}

/// "1.16-r.0.-1.mca" for a region in folder 1.16, and for the dump written from it.
std::string world_name(const std::string& path) {
  const std::string file = path.substr(path.find_last_of('/') + 1);
  if (ends_with(file, ".dump")) return file.substr(0, file.size() - 5);
  const std::string dir = path.substr(0, path.find_last_of('/'));
  return dir.substr(dir.find_last_of('/') + 1) + "-" + file;
}

/// The real registry into `w` (natively with the 1.12 id table, for 1.12 regions).
bool load_registry(World& w, std::string& err) {
#if defined(__EMSCRIPTEN__)
  std::vector<std::uint8_t> blocks, shapes;
  const std::string dir = VOXNAV_BENCH_BLOCKS_DIR;
  if (!voxnav::bench::read_file(dir + "/blocks.pc-1.21.1.json", blocks) ||
      !voxnav::bench::read_file(dir + "/blockCollisionShapes.pc-1.20.5.json", shapes))
    return err = "cannot read the block registry in " + dir, false;
  return w.load_minecraft_blocks(blocks, shapes, &err) == Status::Ok;
#else
  return voxnav::native::load_minecraft_blocks_dir(w, VOXNAV_BENCH_BLOCKS_DIR, &err) == Status::Ok;
#endif
}

struct Row {
  std::size_t chunks = 0, uniform = 0, blocks = 0, nav = 0;
};

/// Loads `path` into `w` (registry loaded) and measures; false with `err` on a failed load.
bool measure(World& w, const std::string& path, const std::string& write_dump, Row& row,
             std::string& err) {
  const std::size_t before = voxnav::test::counted_live();
  if (ends_with(path, ".dump")) {
    std::string source;
    if (!voxnav::bench::read_chunk_dump(path, w, source, row.chunks, row.uniform, err)) return false;
  } else {
#if defined(__EMSCRIPTEN__)
    (void)write_dump;
    return err = "the wasm build reads chunk dumps (.dump) only", false;
#else
    voxnav::LoadReport rep;
    if (voxnav::native::load_world_file(w, path, voxnav::LoadOptions{}, &rep) != Status::Ok)
      return err = rep.message, false;
    row.chunks = rep.chunks_loaded, row.uniform = rep.uniform_chunks;
    row.blocks = voxnav::test::counted_live() - before;
    if (!write_dump.empty() &&
        !voxnav::bench::write_chunk_dump(w, rep.min, rep.max, path,
                                         write_dump + "/" + world_name(path) + ".dump"))
      return err = "cannot write a dump in " + write_dump, false;
#endif
  }
  if (ends_with(path, ".dump")) row.blocks = voxnav::test::counted_live() - before;
  voxnav::ProfileId walker;
  if (w.add_profile(voxnav::Profile{}, &walker) != Status::Ok) return err = "add_profile", false;
  const std::size_t built = voxnav::test::counted_live();
  w.update();
  row.nav = voxnav::test::counted_live() - built;
  return true;
}
}  // namespace

int main(int argc, char** argv) {
  std::string write_dump;
  std::vector<std::string> worlds;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--write-dump" && i + 1 < argc)
      write_dump = argv[++i];
    else
      worlds.push_back(a);
  }
  if (worlds.empty()) {
    std::fprintf(stderr, "usage: chunk_bytes_bench [--write-dump DIR] WORLD...\n");
    return 2;
  }
#ifdef __EMSCRIPTEN__
  const char* target = "wasm";
#else
  const char* target = "native";
#endif
  std::printf("| world (%s) | chunks | with arrays | blocks B/chunk | walker nav B/chunk | total B/chunk | total MB |\n",
              target);
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const std::string& path : worlds) {
    std::string err;
    Row row;
    {
      auto w = std::make_unique<World>();
      if (!load_registry(*w, err) || !measure(*w, path, write_dump, row, err)) {
        std::fprintf(stderr, "chunk_bytes_bench: %s: %s\n", path.c_str(), err.c_str());
        return 1;
      }
    }
    const std::string name = world_name(path);
    const double n = row.chunks ? double(row.chunks) : 1.0;
    std::printf("| %s | %zu | %zu | %.0f | %.0f | %.0f | %.1f |\n", name.c_str(), row.chunks,
                row.chunks - row.uniform, row.blocks / n, row.nav / n, (row.blocks + row.nav) / n,
                (row.blocks + row.nav) / 1048576.0);
  }
  return 0;
}
