// voxnav nav-export / nav-import: saved navigation (voxnav/save.h) from the command line. The
// engine only makes and reads bytes; this file reads and writes the files.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli_common.h"
#include "voxnav/native/files.h"
#include "voxnav/save.h"

namespace voxnav::cli {

namespace {
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int cmd_nav_export(int argc, char** argv) {
  std::string world_path, out_path;
  std::vector<std::string> profiles;
  bool blocks = false, json = false;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--profile") {
      if (i + 1 >= argc)
        return std::fprintf(stderr, "voxnav nav-export: --profile expects a file\n"), 2;
      profiles.push_back(argv[++i]);
    } else if (a == "--blocks") {
      blocks = true;
    } else if (a == "--json") {
      json = true;
    } else if (!a.empty() && a[0] != '-' && world_path.empty()) {
      world_path = a;
    } else if (!a.empty() && a[0] != '-' && out_path.empty()) {
      out_path = a;
    } else {
      std::fprintf(stderr, "voxnav nav-export: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (world_path.empty() || out_path.empty()) {
    std::fprintf(stderr, "voxnav nav-export: expects WORLD OUT (see voxnav --help)\n");
    return 2;
  }
  World world;
  LoadReport report;
  double build_ms = 0;
  if (!load_world(world, world_path, report, &build_ms)) return 1;
  for (const std::string& f : profiles) {
    ProfileId id;
    const auto t0 = std::chrono::steady_clock::now();
    if (!add_profile(world, f, id)) return 1;
    build_ms += ms_since(t0);  // a new class's navigation is built here
  }
  std::vector<std::uint8_t> bytes;
  ExportDef def;
  def.include_blocks = blocks;
  CallError e;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = export_navigation(world, def, &bytes, &e);
  const double export_ms = ms_since(t0);
  if (st != Status::Ok) {
    std::fprintf(stderr, "voxnav nav-export: %s: %s\n", status_name(st), e.message.c_str());
    return 1;
  }
  std::ofstream f(out_path, std::ios::binary);
  if (!f.write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()))) {
    std::fprintf(stderr, "voxnav nav-export: cannot write %s\n", out_path.c_str());
    return 1;
  }
  f.close();
  const WorldStats ws = world.stats();
  if (json) {
    std::printf(
        "{\"world\":\"%s\",\"out\":\"%s\",\"chunks\":%zu,\"islands\":%llu,\"standable\":%llu,"
        "\"bytes\":%zu,\"blocks\":%s,\"build_ms\":%.3f,\"export_ms\":%.3f}\n",
        json_escape(world_path).c_str(), json_escape(out_path).c_str(), report.chunks_loaded,
        static_cast<unsigned long long>(ws.islands),
        static_cast<unsigned long long>(ws.standable_cells), bytes.size(),
        blocks ? "true" : "false", build_ms, export_ms);
  } else {
    std::printf("world        %s (%zu chunks)\n", world_path.c_str(), report.chunks_loaded);
    std::printf("navigation   %llu islands, %llu standable cells, built in %.1f ms\n",
                static_cast<unsigned long long>(ws.islands),
                static_cast<unsigned long long>(ws.standable_cells), build_ms);
    std::printf("saved        %s: %zu bytes%s in %.1f ms\n", out_path.c_str(), bytes.size(),
                blocks ? " with the blocks" : "", export_ms);
  }
  return 0;
}

int cmd_nav_import(int argc, char** argv) {
  std::string world_path, nav_path;
  bool compare = false, json = false;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--compare") {
      compare = true;
    } else if (a == "--json") {
      json = true;
    } else if (!a.empty() && a[0] != '-' && world_path.empty()) {
      world_path = a;
    } else if (!a.empty() && a[0] != '-' && nav_path.empty()) {
      nav_path = a;
    } else {
      std::fprintf(stderr, "voxnav nav-import: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (world_path.empty() || nav_path.empty()) {
    std::fprintf(stderr, "voxnav nav-import: expects WORLD FILE (see voxnav --help)\n");
    return 2;
  }
  std::vector<std::uint8_t> bytes;
  std::string err;
  if (native::read_file(nav_path, bytes, &err) != Status::Ok) {
    std::fprintf(stderr, "voxnav nav-import: cannot read %s: %s\n", nav_path.c_str(), err.c_str());
    return 1;
  }
  // The registry, then the blocks unless the file brings them (its header says).
  World world;
  std::string msg;
  if (native::load_minecraft_blocks_dir(world, data_dir() + "/blocks", &msg) != Status::Ok) {
    std::fprintf(stderr, "voxnav nav-import: cannot load the block registry: %s\n", msg.c_str());
    return 1;
  }
  NavigationInfo info;
  CallError ie;
  if (const Status s = navigation_info(bytes, &info, &ie); s != Status::Ok) {
    std::fprintf(stderr, "voxnav nav-import: %s refused (%s): %s\n", nav_path.c_str(),
                 status_name(s), ie.message.c_str());
    return 1;
  }
  LoadReport report;
  if (!info.blocks) {
    const Status s = native::load_world_file(world, world_path, LoadOptions{}, &report);
    if (s != Status::Ok) {
      std::fprintf(stderr, "voxnav nav-import: cannot load world %s: %s\n", world_path.c_str(),
                   report.message.c_str());
      return 1;
    }
  }
  ImportReport rep;
  CallError e;
  const auto t0 = std::chrono::steady_clock::now();
  const Status st = import_navigation(world, bytes, &rep, &e);
  const double import_ms = ms_since(t0);
  if (st != Status::Ok) {
    std::fprintf(stderr, "voxnav nav-import: %s refused (%s): %s\n", nav_path.c_str(),
                 status_name(st), e.message.c_str());
    return 1;
  }
  const WorldStats ws = world.stats();
  double build_ms = 0;
  bool agree = true;
  if (compare) {
    World built;
    LoadReport r2;
    if (!load_world(built, world_path, r2, &build_ms)) return 1;
    const WorldStats bs = built.stats();
    agree = bs.islands == ws.islands && bs.standable_cells == ws.standable_cells;
  }
  if (json) {
    std::printf(
        "{\"world\":\"%s\",\"file\":\"%s\",\"chunks\":%zu,\"classes\":%zu,\"blocks\":%s,"
        "\"islands\":%llu,\"standable\":%llu,\"import_ms\":%.3f",
        json_escape(world_path).c_str(), json_escape(nav_path).c_str(), rep.chunks, rep.classes,
        rep.blocks ? "true" : "false", static_cast<unsigned long long>(ws.islands),
        static_cast<unsigned long long>(ws.standable_cells), import_ms);
    if (compare)
      std::printf(",\"build_ms\":%.3f,\"ratio\":%.2f,\"agree\":%s", build_ms,
                  import_ms > 0 ? build_ms / import_ms : 0.0, agree ? "true" : "false");
    std::printf("}\n");
  } else {
    std::printf("imported     %s: %zu chunks, %zu classes%s in %.1f ms\n", nav_path.c_str(),
                rep.chunks, rep.classes, rep.blocks ? " and their blocks" : "", import_ms);
    std::printf("navigation   %llu islands, %llu standable cells\n",
                static_cast<unsigned long long>(ws.islands),
                static_cast<unsigned long long>(ws.standable_cells));
    if (compare)
      std::printf("built        in %.1f ms: %.1fx the import; %s\n", build_ms,
                  import_ms > 0 ? build_ms / import_ms : 0.0,
                  agree ? "same islands and standable cells" : "DIFFERENT islands or cells");
  }
  return agree ? 0 : 1;
}

}  // namespace voxnav::cli
