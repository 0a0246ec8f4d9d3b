// save_bench: importing saved navigation (voxnav/save.h) against building it, per world.
// For each world: the navigation is built by World::update() on freshly loaded blocks (timed),
// exported (timed, bytes counted), then imported into fresh Worlds holding the same blocks (timed);
// the imported World must have the built one's island and standable counts. Block loading is timed
// in neither. Each timing is the median of --repeats runs. docs/benchmarks.md keeps the table.
//
//   native: save_bench [--repeats N] [--json] [--write-dump DIR] WORLD...   (.mca, .schem, dumps)
//   wasm:   node save_bench.js [--repeats N] [--json] DUMP...   (chunk dumps, bench/chunk_dump.h)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "chunk_dump.h"
#include "voxnav/io.h"
#include "voxnav/save.h"
#include "voxnav/world.h"

#if defined(__EMSCRIPTEN__)
#define VOXNAV_BENCH_TARGET "wasm"
#else
#define VOXNAV_BENCH_TARGET "native"
#include "voxnav/native/files.h"
#endif

namespace {

using voxnav::Status;
using voxnav::World;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}
bool ends_with(const std::string& s, const char* suf) {
  const std::size_t n = std::strlen(suf);
  return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}

struct Registry {
  std::vector<std::uint8_t> blocks, shapes;
};

/// A World with the registry and the blocks of `path` loaded, navigation not built.
std::unique_ptr<World> load(const Registry& reg, const std::string& path, std::string& err,
                            voxnav::CellPos* mn = nullptr, voxnav::CellPos* mx = nullptr) {
  auto w = std::make_unique<World>();
#if defined(__EMSCRIPTEN__)
  if (w->load_minecraft_blocks(reg.blocks, reg.shapes, &err) != Status::Ok) return nullptr;
#else
  (void)reg;  // natively with the 1.12 id table too (1.12 regions)
  if (voxnav::native::load_minecraft_blocks_dir(*w, VOXNAV_BENCH_BLOCKS_DIR, &err) != Status::Ok)
    return nullptr;
#endif
  if (ends_with(path, ".dump")) {
    std::string source;
    std::size_t chunks = 0, uniform = 0;
    if (!voxnav::bench::read_chunk_dump(path, *w, source, chunks, uniform, err)) return nullptr;
    return w;
  }
#if defined(__EMSCRIPTEN__)
  (void)mn;
  (void)mx;
  err = "the wasm build reads chunk dumps (.dump) only";
  return nullptr;
#else
  voxnav::LoadReport rep;
  if (voxnav::native::load_world_file(*w, path, voxnav::LoadOptions{}, &rep) != Status::Ok) {
    err = rep.message;
    return nullptr;
  }
  if (mn) *mn = rep.min;
  if (mx) *mx = rep.max;
  return w;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  int repeats = 3;
  bool as_json = false;
  std::string write_dump;
  std::vector<std::string> worlds;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--repeats" && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--json") {
      as_json = true;
    } else if (a == "--write-dump" && i + 1 < argc) {
      write_dump = argv[++i];
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "save_bench: unknown option %s\n", a.c_str());
      return 2;
    } else {
      worlds.push_back(a);
    }
  }
  if (worlds.empty()) {
    std::fprintf(stderr, "usage: save_bench [--repeats N] [--json] [--write-dump DIR] WORLD...\n");
    return 2;
  }
  Registry reg;
  const std::string bdir = VOXNAV_BENCH_BLOCKS_DIR;
  if (!voxnav::bench::read_file(bdir + "/blocks.pc-1.21.1.json", reg.blocks) ||
      !voxnav::bench::read_file(bdir + "/blockCollisionShapes.pc-1.20.5.json", reg.shapes)) {
    std::fprintf(stderr, "save_bench: cannot read the block registry in %s\n", bdir.c_str());
    return 1;
  }
  if (as_json)
    std::printf("[\n");
  else
    std::printf("%-28s %7s %7s %10s %10s %10s %9s %7s\n", "world (" VOXNAV_BENCH_TARGET ")",
                "chunks", "islands", "build ms", "export ms", "import ms", "file KB", "ratio");
  bool first = true;
  for (const std::string& path : worlds) {
    std::string err;
    std::vector<double> build_ms, export_ms, import_ms;
    std::vector<std::uint8_t> bytes;
    voxnav::WorldStats built{};
    std::size_t chunks = 0;
    for (int r = 0; r < repeats; ++r) {
      voxnav::CellPos mn, mx;
      std::unique_ptr<World> w = load(reg, path, err, &mn, &mx);
      if (!w) {
        std::fprintf(stderr, "save_bench: %s: %s\n", path.c_str(), err.c_str());
        return 1;
      }
      if (r == 0 && !write_dump.empty()) {
        std::string name = path.substr(path.find_last_of('/') + 1);
        const std::string out = write_dump + "/" + name + ".dump";
        if (!voxnav::bench::write_chunk_dump(*w, mn, mx, name, out))
          std::fprintf(stderr, "save_bench: cannot write %s\n", out.c_str());
      }
      auto t0 = Clock::now();
      w->update();
      build_ms.push_back(ms_since(t0));
      built = w->stats();
      t0 = Clock::now();
      voxnav::CallError e;
      if (voxnav::export_navigation(*w, voxnav::ExportDef{}, &bytes, &e) != Status::Ok) {
        std::fprintf(stderr, "save_bench: %s: export: %s\n", path.c_str(), e.message.c_str());
        return 1;
      }
      export_ms.push_back(ms_since(t0));
    }
    for (int r = 0; r < repeats; ++r) {
      std::unique_ptr<World> w = load(reg, path, err);
      if (!w) return 1;
      voxnav::CallError e;
      voxnav::ImportReport rep;
      const auto t0 = Clock::now();
      if (voxnav::import_navigation(*w, bytes, &rep, &e) != Status::Ok) {
        std::fprintf(stderr, "save_bench: %s: import: %s\n", path.c_str(), e.message.c_str());
        return 1;
      }
      import_ms.push_back(ms_since(t0));
      chunks = rep.chunks;
      const voxnav::WorldStats s = w->stats();
      if (s.islands != built.islands || s.standable_cells != built.standable_cells) {
        std::fprintf(
            stderr, "save_bench: %s: imported %llu islands / %llu cells, built %llu / %llu\n",
            path.c_str(), (unsigned long long)s.islands, (unsigned long long)s.standable_cells,
            (unsigned long long)built.islands, (unsigned long long)built.standable_cells);
        return 1;
      }
    }
    const double b = median(build_ms), x = median(export_ms), im = median(import_ms);
    // The file's own CRC-32 (its last 4 bytes): native and wasm builds write the same bytes.
    std::uint32_t crc = 0;
    std::memcpy(&crc, bytes.data() + bytes.size() - 4, 4);
    std::string name = path;
    const std::size_t slash = path.find_last_of('/');
    if (slash != std::string::npos && slash > 0) {
      const std::size_t s2 = path.find_last_of('/', slash - 1);
      name = path.substr(s2 == std::string::npos ? 0 : s2 + 1);
    }
    if (as_json) {
      std::printf(
          "%s  {\"world\":\"%s\",\"target\":\"%s\",\"chunks\":%zu,\"islands\":%llu,"
          "\"build_ms\":%.1f,\"export_ms\":%.1f,\"import_ms\":%.1f,\"bytes\":%zu,"
          "\"ratio\":%.1f,\"crc\":\"%08x\"}",
          first ? "" : ",\n", name.c_str(), VOXNAV_BENCH_TARGET, chunks,
          (unsigned long long)built.islands, b, x, im, bytes.size(), b / im, crc);
    } else {
      std::printf("%-28s %7zu %7llu %10.1f %10.1f %10.1f %9.0f %6.1fx\n", name.c_str(), chunks,
                  (unsigned long long)built.islands, b, x, im, bytes.size() / 1024.0, b / im);
    }
    std::fflush(stdout);
    first = false;
  }
  if (as_json) std::printf("\n]\n");
  return 0;
}
