#include "cli_common.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "voxnav/native/files.h"
#include "voxnav/save.h"

namespace voxnav::cli {

std::string data_dir() {
  if (const char* env = std::getenv("VOXNAV_DATA_DIR")) return env;
  return VOXNAV_SOURCE_DATA_DIR;
}

namespace {
/// The block registry and the world file's blocks, without building navigation; errors printed.
bool load_blocks(World& world, const std::string& path, LoadReport& report) {
  std::string msg;
  if (native::load_minecraft_blocks_dir(world, data_dir() + "/blocks", &msg) != Status::Ok) {
    std::fprintf(stderr, "voxnav: cannot load the block registry from %s/blocks: %s\n",
                 data_dir().c_str(), msg.c_str());
    return false;
  }
  const Status s = native::load_world_file(world, path, LoadOptions{}, &report);
  if (s != Status::Ok) {
    std::fprintf(stderr, "voxnav: cannot load world %s: %s (%s)\n", path.c_str(),
                 report.message.c_str(), status_name(s));
    return false;
  }
  return true;
}
}  // namespace

bool load_world(World& world, const std::string& path, LoadReport& report,
                double* nav_build_ms) {
  if (!load_blocks(world, path, report)) return false;
  if (report.unknown_blocks) {
    std::string names;
    for (const UnknownBlock& n : report.unknown_names)
      names += (names.empty() ? "" : ", ") + n.name + " x" + std::to_string(n.count);
    std::fprintf(stderr,
                 "voxnav: warning: %llu cells had unknown block names and load as solid full "
                 "blocks (%s)\n",
                 static_cast<unsigned long long>(report.unknown_blocks), names.c_str());
  }
  const auto t0 = std::chrono::steady_clock::now();
  world.update();
  if (nav_build_ms)
    *nav_build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

bool load_world_nav(World& world, const std::string& path, const std::string& nav_file,
                    LoadReport& report, double* nav_ms, bool* imported) {
  if (imported) *imported = false;
  if (nav_file.empty()) return load_world(world, path, report, nav_ms);
  std::vector<std::uint8_t> bytes;
  std::string err;
  if (native::read_file(nav_file, bytes, &err) != Status::Ok) {
    std::fprintf(stderr, "voxnav: cannot read navigation file %s: %s\n", nav_file.c_str(),
                 err.c_str());
    return false;
  }
  if (!load_blocks(world, path, report)) return false;  // no build: the file's navigation instead
  const auto t0 = std::chrono::steady_clock::now();
  CallError e;
  const Status st = import_navigation(world, bytes, nullptr, &e);
  if (st != Status::Ok) {
    std::fprintf(stderr, "voxnav: navigation file %s refused (%s): %s; building instead\n",
                 nav_file.c_str(), status_name(st), e.message.c_str());
    world.update();
  } else if (imported) {
    *imported = true;
  }
  if (nav_ms)
    *nav_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return true;
}

std::string parse_cell(const std::string& s, CellPos& out) {
  long long v[3];
  const char* p = s.c_str();
  std::string range;  // the first coordinate out of the cell range
  static constexpr const char* kAxis[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    const char* start = p;
    char* end = nullptr;
    errno = 0;
    v[i] = std::strtoll(start, &end, 10);
    const bool overflow = errno == ERANGE;
    if (end == start || *start == ' ' || *start == '\t') return "expects X,Y,Z integers";
    if (i < 2 ? *end != ',' : *end != '\0') return "expects X,Y,Z integers";
    p = end + 1;
    const long long lim = i == 1 ? kMaxCellY : kMaxCellXZ;
    if (range.empty() && (overflow || v[i] < -lim || v[i] > lim))
      range = std::string(kAxis[i]) + " " + std::string(start, static_cast<const char*>(end)) + " is out of range: outside -" +
              std::to_string(lim) + " .. " + std::to_string(lim);
  }
  if (!range.empty()) return range;
  out = CellPos{static_cast<std::int32_t>(v[0]), static_cast<std::int32_t>(v[1]),
                static_cast<std::int32_t>(v[2])};
  return {};
}

bool add_profile(World& world, const std::string& file, ProfileId& id, Profile* out) {
  Profile p;
  std::string err, warn;
  if (!file.empty()) {
    std::vector<std::uint8_t> bytes;
    if (native::read_file(file, bytes, &err) != Status::Ok) {
      std::fprintf(stderr, "voxnav: cannot read profile %s: %s\n", file.c_str(), err.c_str());
      return false;
    }
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (parse_profile_json(text, p, &err, &warn, file) != Status::Ok) {
      std::fprintf(stderr, "voxnav: %s\n", err.c_str());
      return false;
    }
    if (!warn.empty()) std::fprintf(stderr, "voxnav: warning: %s\n", warn.c_str());
  }
  if (world.add_profile(p, &id, &err) != Status::Ok) {
    std::fprintf(stderr, "voxnav: %s\n", err.c_str());
    return false;
  }
  if (out) *out = p;
  return true;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(rank);
  const double f = rank - static_cast<double>(i);
  return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else o += c;
  }
  return o;
}

}  // namespace voxnav::cli
