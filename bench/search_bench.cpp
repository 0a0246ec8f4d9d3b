// search_bench: voxnav's side of the search benchmark (bench/README.md, docs/benchmarks.md).
//
// One plain C++ program (std::chrono, no Google Benchmark) that builds natively and to wasm
// (Emscripten, run under node), so voxnav-under-node is measured with the same code:
//
//   movingai   for each Moving AI map: the rows floor(i*R/N), i = 0..N-1, of its .scen (the rule of
//              bench/peers/pathfinding_movingai.mjs), solved as a walker on the voxel version of
//              the map. Per query (median of --repeats runs of every row): A* alone
//              (voxnav::test::RawSearcher, NavWorld::search_now) and the public request round trip (World::request, update,
//              status, path_cells, release: what a user pays, string pulling included).
//              Expansions/s, path lengths against the scen's optimal lengths.
//   region     the start/goal pairs of a PAIRS.json (feet cells) on a real Minecraft region: how
//              many cells are standable for voxnav's walker, reachable() answers, per query time,
//              success rate, expansions/s. The walker uses the default profile (its budget).
//   reachable  World::reachable() on random standable pairs of the region: the first call of
//              each pair (cold cache) and the steady state over --reach-calls calls.
//
// Natively the region is read from the .mca (zlib) and can be written as a raw chunk dump
// (--write-dump); the wasm build has no zlib and reads that dump (--region-dump). Every result is
// one JSON line on stdout; progress goes to stderr.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "chunk_dump.h"
#include "probes.h"  // A* alone and its string pull (tests/support: public types only)
#include "scenes.h"
#include "splitmix.h"  // native/tools
#include "voxnav/io.h"
#include "voxnav/world.h"

#if defined(__EMSCRIPTEN__)
#define VOXNAV_BENCH_TARGET "wasm"
#else
#define VOXNAV_BENCH_TARGET "native"
#include "voxnav/native/files.h"  // region files (zlib)
#endif

namespace {

using voxnav::CellPos;
using voxnav::ProfileId;
using voxnav::World;
namespace vt = voxnav::test;
using json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

const char* const kUsage = R"(usage: search_bench [options]
  --data DIR          shared data folder holding movingai-2d/ (default: VOXNAV_SHARED_DATA_DIR, else
                      ../shared/data of the source tree)
  --blocks DIR        voxnav's block registry JSON (default: data/blocks of the source tree)
  --maps "a b"        only these Moving AI maps (names without .map); "none" skips the maps
  --sample N          rows per map, floor(i*R/N) (default 500; 0 = every row)
  --sample-for "m=N"  per-map sample sizes overriding --sample, e.g. "maze512-1-0=200 brc202d=200"
  --warmup N          untimed rows (the first N selected) before timing each map (default 20)
  --repeats R         timed runs of every row; per-row time = median of R (default 3)
  --pairs FILE        region pairs JSON (PAIRS.json, feet cells); without it no region results
  --region FILE       the region .mca (native only)
  --region-dump FILE  read the region from a raw chunk dump instead (native and wasm)
  --write-dump FILE   write the loaded region as a raw chunk dump (run.sh: native writes, wasm reads)
  --region-repeats R  timed runs of every pair (default 3)
  --walk TICKS        walk every Ready region route with an agent (one at a time, ticks of 0.05 s,
                      at most TICKS): per pair "walk" (arrived, failed, blocked, timeout), "walk_s"
  --unbounded         A* alone on the pairs without the distance window, budget 50M nodes (the
                      optimal reference of far routes, bench/far_routes.mjs)
  --reach-pairs P     distinct random standable pairs for reachable() (default 4096)
  --reach-calls N     steady-state reachable() calls (default 1000000)
  --seed S            seed of the random pairs (default 1)
)";

// ------------------------------------------------------------------------------------------------
// small helpers

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Nearest-rank percentile (p in 0..100), the rule of bench/peers/common.mjs.
double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const double rank = std::ceil(p / 100.0 * static_cast<double>(v.size()));
  const std::size_t i =
      static_cast<std::size_t>(std::clamp(rank - 1.0, 0.0, static_cast<double>(v.size() - 1)));
  return v[i];
}

double mean(const std::vector<double>& v) {
  if (v.empty()) return 0.0;
  double t = 0;
  for (double x : v) t += x;
  return t / static_cast<double>(v.size());
}

double sum(const std::vector<double>& v) {
  double t = 0;
  for (double x : v) t += x;
  return t;
}

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double round_to(double v, int decimals) {
  const double f = std::pow(10.0, decimals);
  return std::round(v * f) / f;
}

/// mean / p50 / p99 / max / total of per-query times in ms, as "<prefix>mean_ms" ...
void time_stats(json& out, const std::vector<double>& ms, const std::string& prefix = "") {
  out[prefix + "mean_ms"] = round_to(mean(ms), 6);
  out[prefix + "p50_ms"] = round_to(percentile(ms, 50), 6);
  out[prefix + "p99_ms"] = round_to(percentile(ms, 99), 6);
  out[prefix + "max_ms"] = round_to(ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()), 6);
  out[prefix + "ms_total"] = round_to(sum(ms), 4);
}

using voxnav::bench::read_file;

std::string base_name(const std::string& p) {
  const std::size_t s = p.find_last_of('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// FNV-1a over 64-bit words: a fingerprint of the results, compared between native and wasm.
struct Fnv {
  std::uint64_t h = 1469598103934665603ull;
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xFF;
      h *= 1099511628211ull;
    }
  }
  std::string hex() const {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

using Rng = voxnav::tools::SplitMix64;

json environment() {
  json e;
  e["target"] = VOXNAV_BENCH_TARGET;
#if defined(__clang__)
  e["compiler"] = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  e["compiler"] = std::string("gcc ") + __VERSION__;
#endif
#if defined(__EMSCRIPTEN__)
  e["emscripten"] = std::to_string(__EMSCRIPTEN_major__) + "." +
                    std::to_string(__EMSCRIPTEN_minor__) + "." +
                    std::to_string(__EMSCRIPTEN_tiny__);
#endif
  // The machine's load when the line was written (NODERAWFS reads /proc in wasm too).
  std::ifstream la("/proc/loadavg");
  double l1 = 0, l5 = 0, l15 = 0;
  if (la >> l1 >> l5 >> l15) e["loadavg"] = json::array({l1, l5, l15});
  return e;
}

void emit(const json& j) {
  std::fputs((j.dump() + "\n").c_str(), stdout);
  std::fflush(stdout);
}

// ------------------------------------------------------------------------------------------------
// options and the block registry

struct Options {
  std::string data = voxnav::test::shared_data_dir();
  std::string blocks = VOXNAV_BENCH_BLOCKS_DIR;
  std::vector<std::string> maps;  // empty = all
  bool no_maps = false;
  int sample = 500;
  std::map<std::string, int> sample_for;  // map name (no .map) -> sample size
  int warmup = 20;
  int repeats = 3;
  std::string pairs, region, region_dump, write_dump;
  int region_repeats = 3;
  /// Region pairs: A* alone runs without the distance window and with a 50M-node budget (the
  /// optimal reference of far routes; the request keeps the profile's own rules).
  bool unbounded = false;
  /// Region pairs: walk every Ready route with an agent of the profile, one pair at a time, for
  /// at most this many ticks of 0.05 s (0: no walks).
  int walk_ticks = 0;
  int reach_pairs = 4096;
  long long reach_calls = 1000000;
  std::uint64_t seed = 1;
};

struct RegistryBytes {
  std::vector<std::uint8_t> blocks, shapes;
};

bool load_registry(World& world, const RegistryBytes& rb) {
  std::string err;
  if (world.load_minecraft_blocks(rb.blocks, rb.shapes, &err) != voxnav::Status::Ok) {
    std::fprintf(stderr, "search_bench: cannot load the block registry: %s\n", err.c_str());
    return false;
  }
  return true;
}

/// A walker profile; `unbounded` lifts the budget for whole-map Moving AI searches.
bool add_walker(World& world, bool unbounded, ProfileId& id) {
  voxnav::Profile p;
  if (unbounded) {
    p.id = "walker_unbounded";
    p.search_max_nodes = 100000000;
    p.search_max_distance = 1 << 20;
  }
  std::string err;
  if (world.add_profile(p, &id, &err) != voxnav::Status::Ok) {
    std::fprintf(stderr, "search_bench: add_profile: %s\n", err.c_str());
    return false;
  }
  return true;
}

/// One query through the public API, synchronously (no executor): request, update (dispatch and
/// run), update (apply), status, path cells, release. Returns the status.
voxnav::PathStatus request_round_trip(World& world, ProfileId prof, CellPos from, CellPos to,
                                      std::vector<voxnav::PathCell>& cells) {
  voxnav::PathHandle h;
  voxnav::PathStatus st;
  voxnav::NavRequest req;
  req.profile = prof;
  req.start = from;
  req.goal = to;
  if (world.request(req, &h) != voxnav::Status::Ok) return st;
  voxnav::Status s = world.status(h, &st);
  if (s == voxnav::Status::Ok && st.state == voxnav::PathState::Searching) {
    world.update();  // dispatches: the synchronous executor runs the search here
    world.update();  // applies the result
    s = world.status(h, &st);
  }
  if (s == voxnav::Status::Ok && st.state == voxnav::PathState::Ready) {
    std::size_t n = 0;
    cells.resize(st.cell_count);
    if (world.path_cells(h, cells.data(), cells.size(), &n) != voxnav::Status::Ok)
      st.state = voxnav::PathState::Failed;
  }
  if (world.release(h) != voxnav::Status::Ok) st.state = voxnav::PathState::Failed;
  return st;
}

const char* outcome_name(vt::RawOutcome o) { return vt::raw_outcome_name(o); }

/// Length in cells of an 8-connected cell path measured in x/z (1 per straight, sqrt 2 per
/// diagonal step), as Moving AI scores it.
double path_length_xz(const std::vector<CellPos>& cells) {
  double len = 0.0;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const int dx = std::abs(cells[i].x - cells[i - 1].x), dz = std::abs(cells[i].z - cells[i - 1].z);
    len += (dx && dz) ? std::sqrt(2.0) : 1.0;
  }
  return len;
}

/// Width and height of a Moving AI map from its header lines ("height H", "width W").
bool movingai_size(const std::string& text, int& width, int& height) {
  std::istringstream in(text);
  std::string key;
  width = height = 0;
  while (in >> key && key != "map") {
    if (key == "width") in >> width;
    else if (key == "height") in >> height;
    else in >> key;  // "type octile"
  }
  return width > 0 && height > 0;
}

// ------------------------------------------------------------------------------------------------
// Moving AI maps

bool bench_movingai_map(const Options& o, int sample, const RegistryBytes& rb,
                        const std::string& map_path, const std::string& scen_path) {
  std::vector<std::uint8_t> map_bytes, scen_bytes;
  if (!read_file(map_path, map_bytes) || !read_file(scen_path, scen_bytes)) {
    std::fprintf(stderr, "search_bench: cannot read %s / %s\n", map_path.c_str(),
                 scen_path.c_str());
    return false;
  }
  std::string msg;
  const std::string map_text(map_bytes.begin(), map_bytes.end());
  int map_width = 0, map_height = 0;
  if (!movingai_size(map_text, map_width, map_height)) {
    std::fprintf(stderr, "search_bench: %s: no width / height\n", map_path.c_str());
    return false;
  }
  std::vector<voxnav::MovingAiScenario> rows;
  if (voxnav::parse_movingai_scen({reinterpret_cast<const char*>(scen_bytes.data()), scen_bytes.size()},
                                  &rows, &msg) != voxnav::Status::Ok) {
    std::fprintf(stderr, "search_bench: %s: %s\n", scen_path.c_str(), msg.c_str());
    return false;
  }

  // The same rows as pathfinding_movingai.mjs --sample N.
  const std::size_t total = rows.size();
  std::vector<std::size_t> idx;
  std::string rule;
  if (sample > 0 && static_cast<std::size_t>(sample) < total) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(sample); ++i)
      idx.push_back(i * total / static_cast<std::size_t>(sample));
    rule = "sample floor(i*" + std::to_string(total) + "/" + std::to_string(sample) + "), i=0.." +
           std::to_string(sample - 1);
  } else {
    for (std::size_t i = 0; i < total; ++i) idx.push_back(i);
    rule = "all rows";
  }

  World world;
  if (!load_registry(world, rb)) return false;
  ProfileId prof;
  if (!add_walker(world, true, prof)) return false;
  voxnav::LoadReport info;
  if (voxnav::load_movingai_map(world, map_text, &info) != voxnav::Status::Ok) {
    std::fprintf(stderr, "search_bench: %s: %s\n", map_path.c_str(), info.message.c_str());
    return false;
  }
  const auto tb = Clock::now();
  world.update();
  const double nav_build_ms = ms_since(tb);
  vt::RawSearcher nav(world);  // the engine's default cost table
  const vt::SearchLimits limits{100000000, 0};
  struct Spec {
    CellPos start, goal;
  };
  auto spec_of = [&](const voxnav::MovingAiScenario& r) {
    return Spec{CellPos{r.start_x, voxnav::kMovingAiStandY, r.start_y},
                CellPos{r.goal_x, voxnav::kMovingAiStandY, r.goal_y}};
  };

  std::vector<voxnav::PathCell> cells;
  const int warm = std::min<int>(o.warmup, static_cast<int>(idx.size()));
  for (int k = 0; k < warm; ++k) {
    const voxnav::MovingAiScenario& r = rows[idx[static_cast<std::size_t>(k)]];
    const Spec spec = spec_of(r);
    nav.run(spec.start, spec.goal, limits);
    request_round_trip(world, prof, {spec.start.x, spec.start.y, spec.start.z},
                       {spec.goal.x, spec.goal.y, spec.goal.z}, cells);
  }

  const std::size_t n = idx.size();
  const int reps = std::max(1, o.repeats);
  std::vector<std::vector<double>> search_t(n), request_t(n), pull_t(n);
  std::uint64_t waypoints_total = 0;
  std::vector<std::uint32_t> expanded(n, 0);
  int matches = 0, not_found = 0, request_disagree = 0, nondeterministic = 0;
  double max_rel_err = 0;
  std::uint64_t path_cells_total = 0;
  Fnv fp;
  for (int rep = 0; rep < reps; ++rep) {
    for (std::size_t k = 0; k < n; ++k) {
      const voxnav::MovingAiScenario& r = rows[idx[k]];
      const Spec spec = spec_of(r);
      const auto t0 = Clock::now();
      nav.run(spec.start, spec.goal, limits);
      search_t[k].push_back(ms_since(t0));
      const auto tp = Clock::now();
      const std::size_t points = nav.pull();
      pull_t[k].push_back(ms_since(tp));

      const auto t1 = Clock::now();
      const voxnav::PathStatus ps =
          request_round_trip(world, prof, {spec.start.x, spec.start.y, spec.start.z},
                             {spec.goal.x, spec.goal.y, spec.goal.z}, cells);
      request_t[k].push_back(ms_since(t1));

      if (rep == 0) {
        waypoints_total += points;
        expanded[k] = nav.expanded();
        const bool found = nav.outcome() == vt::RawOutcome::Found;
        if (!found) ++not_found;
        const double len = path_length_xz(nav.cells());
        const double rel = found ? std::fabs(len - r.optimal) / std::max(1.0, r.optimal) : INFINITY;
        if (found) max_rel_err = std::max(max_rel_err, rel);
        if (rel <= 1e-4) ++matches;
        path_cells_total += nav.cells().size();
        if (ps.state != voxnav::PathState::Ready || ps.cost != nav.cost() ||
            ps.cell_count != nav.cells().size())
          ++request_disagree;
        fp.add(idx[k]);
        fp.add(static_cast<std::uint64_t>(nav.outcome()));
        fp.add(nav.cost());
        fp.add(nav.expanded());
        fp.add(nav.cells().size());
      } else if (nav.expanded() != expanded[k]) {
        ++nondeterministic;
      }
    }
  }

  std::vector<double> search_ms(n), request_ms(n), pull_ms(n);
  for (std::size_t k = 0; k < n; ++k) {
    search_ms[k] = median_of(search_t[k]);
    request_ms[k] = median_of(request_t[k]);
    pull_ms[k] = median_of(pull_t[k]);
  }
  std::uint64_t exp_total = 0;
  for (std::uint32_t e : expanded) exp_total += e;
  const double search_total_ms = sum(search_ms);

  json out;
  out["bench"] = "movingai";
  out["library"] = "voxnav";
  out["target"] = VOXNAV_BENCH_TARGET;
  out["map"] = base_name(map_path);
  out["scen"] = base_name(scen_path);
  out["width"] = map_width;
  out["height"] = map_height;
  out["rows"] = n;
  out["rows_in_scen"] = total;
  out["selection"] = rule;
  out["buckets"] =
      n ? json::array({rows[idx.front()].bucket, rows[idx.back()].bucket}) : json::array();
  out["warmup"] = warm;
  out["repeats"] = reps;
  out["timing"] = "per row: median of the repeats; stats over rows";
  // The public request round trip (request + update x2 + status + path_cells + release).
  time_stats(out, request_ms);
  // A* alone (RawSearcher: NavWorld::search_now, search + cell path).
  time_stats(out, search_ms, "search_");
  // String pulling of the search's cells alone (RawSearcher::pull, part of the request).
  time_stats(out, pull_ms, "pull_");
  out["waypoints_mean"] =
      round_to(n ? static_cast<double>(waypoints_total) / static_cast<double>(n) : 0.0, 1);
  out["expanded_total"] = exp_total;
  out["expanded_mean"] =
      round_to(n ? static_cast<double>(exp_total) / static_cast<double>(n) : 0.0, 1);
  out["mexp_per_s"] = round_to(
      search_total_ms > 0 ? static_cast<double>(exp_total) / search_total_ms / 1000.0 : 0.0, 3);
  out["path_cells_mean"] =
      round_to(n ? static_cast<double>(path_cells_total) / static_cast<double>(n) : 0.0, 1);
  out["matches"] = matches;
  out["mismatches"] = static_cast<int>(n) - matches;
  out["not_found"] = not_found;
  out["max_rel_err"] = round_to(max_rel_err, 9);
  out["request_disagree"] = request_disagree;
  out["nondeterministic"] = nondeterministic;
  out["fingerprint"] = fp.hex();
  out["nav_build_ms"] = round_to(nav_build_ms, 3);
  out["chunks"] = info.chunks_loaded;
  out["env"] = environment();
  emit(out);
  std::fprintf(
      stderr,
      "voxnav %s %s: %zu rows x %d, request mean %.4f ms (A* %.4f, p50 %.4f, p99 %.4f; pull %.4f), "
      "%.2f M exp/s, matches %d/%zu\n",
      VOXNAV_BENCH_TARGET, base_name(map_path).c_str(), n, reps, mean(request_ms), mean(search_ms),
      percentile(search_ms, 50), percentile(search_ms, 99), mean(pull_ms),
      search_total_ms > 0 ? static_cast<double>(exp_total) / search_total_ms / 1000.0 : 0.0,
      matches, n);
  return matches == static_cast<int>(n);
}

// ------------------------------------------------------------------------------------------------
// Region: pairs and reachable()

bool bench_region(const Options& o, const RegistryBytes& rb) {
  World world;
  if (!load_registry(world, rb)) return false;
  ProfileId prof;
  if (!add_walker(world, false, prof)) return false;

  std::string source;
  std::size_t chunks = 0, uniform = 0;
  CellPos bounds_min, bounds_max;  // of the loaded region (--write-dump)
  const auto tl = Clock::now();
  if (!o.region_dump.empty()) {
    std::string err;
    if (!voxnav::bench::read_chunk_dump(o.region_dump, world, source, chunks, uniform, err)) {
      std::fprintf(stderr, "search_bench: %s\n", err.c_str());
      return false;
    }
  } else {
#if defined(__EMSCRIPTEN__)
    std::fprintf(stderr,
                 "search_bench: the wasm build reads regions from --region-dump only (no zlib)\n");
    return false;
#else
    voxnav::LoadReport report;
    if (voxnav::native::load_world_file(world, o.region, voxnav::LoadOptions{}, &report) !=
        voxnav::Status::Ok) {
      std::fprintf(stderr, "search_bench: cannot load %s: %s\n", o.region.c_str(),
                   report.message.c_str());
      return false;
    }
    source = base_name(o.region);
    const std::size_t slash = o.region.find_last_of('/');
    if (slash != std::string::npos && slash > 0) {
      const std::size_t s2 = o.region.find_last_of('/', slash - 1);
      source = o.region.substr(s2 == std::string::npos ? 0 : s2 + 1);  // e.g. "1.16/r.0.-1.mca"
    }
    chunks = report.chunks_loaded;
    uniform = report.uniform_chunks;
    bounds_min = report.min;
    bounds_max = report.max;
    if (report.unknown_blocks)
      std::fprintf(stderr, "search_bench: warning: %llu cells with unknown block names\n",
                   static_cast<unsigned long long>(report.unknown_blocks));
#endif
  }
  const double load_ms = ms_since(tl);
  if (!o.write_dump.empty()) {
    if (o.region.empty() || !voxnav::bench::write_chunk_dump(world, bounds_min, bounds_max, source, o.write_dump)) {
      std::fprintf(stderr, "search_bench: cannot write %s\n", o.write_dump.c_str());
      return false;
    }
    std::fprintf(stderr, "search_bench: wrote the region's %zu chunks to %s\n", chunks,
                 o.write_dump.c_str());
  }
  const auto tb = Clock::now();
  world.update();
  const double nav_build_ms = ms_since(tb);
  const voxnav::Profile walker_profile;
  vt::RawSearcher nav(world, &walker_profile);  // the default walker's costs
  vt::SearchLimits motion = vt::compiled_limits(walker_profile);
  if (o.unbounded) motion = vt::SearchLimits{50000000u, 0};

  // ---- pairs ----
  std::vector<std::uint8_t> pb;
  if (!read_file(o.pairs, pb)) {
    std::fprintf(stderr, "search_bench: cannot read %s\n", o.pairs.c_str());
    return false;
  }
  json pj = json::parse(pb.begin(), pb.end(), nullptr, false);
  if (pj.is_discarded() || !pj.contains("pairs") || !pj["pairs"].is_array()) {
    std::fprintf(stderr, "search_bench: %s: not a pairs file\n", o.pairs.c_str());
    return false;
  }
  struct Pair {
    voxnav::CellPos from, to;
  };
  std::vector<Pair> pairs;
  for (const auto& p : pj["pairs"]) {
    const auto& f = p["from"];
    const auto& t = p["to"];
    pairs.push_back({voxnav::CellPos{f[0].get<int>(), f[1].get<int>(), f[2].get<int>()},
                     voxnav::CellPos{t[0].get<int>(), t[1].get<int>(), t[2].get<int>()}});
  }
  const std::size_t n = pairs.size();
  auto pos = [](voxnav::CellPos c) { return CellPos{c.x, c.y, c.z}; };

  std::vector<voxnav::PathCell> cells;
  for (std::size_t k = 0; k < std::min<std::size_t>(5, n); ++k) {  // warm-up, untimed
    nav.run(pairs[k].from, pairs[k].to, motion);
    request_round_trip(world, prof, pos(pairs[k].from), pos(pairs[k].to), cells);
  }

  const int reps = std::max(1, o.region_repeats);
  std::vector<std::vector<double>> search_t(n), request_t(n), pull_t(n);
  json per_pair = json::array();
  int from_standable = 0, to_standable = 0, both_standable = 0, success = 0, request_success = 0;
  std::map<std::string, int> reach_counts, outcomes, request_failures;
  std::uint64_t exp_total = 0;
  Fnv fp;
  for (int rep = 0; rep < reps; ++rep) {
    for (std::size_t k = 0; k < n; ++k) {
      const Pair& p = pairs[k];
      const auto t0 = Clock::now();
      nav.run(p.from, p.to, motion);
      search_t[k].push_back(ms_since(t0));
      const auto tp = Clock::now();
      (void)nav.pull();
      pull_t[k].push_back(ms_since(tp));
      const auto t1 = Clock::now();
      const voxnav::PathStatus ps = request_round_trip(world, prof, pos(p.from), pos(p.to), cells);
      request_t[k].push_back(ms_since(t1));
      if (rep != 0) continue;
      const bool fs = world.is_standable(prof, p.from), ts = world.is_standable(prof, p.to);
      from_standable += fs;
      to_standable += ts;
      both_standable += fs && ts;
      const voxnav::Reach r = world.reachable(prof, p.from, p.to);
      const std::string rname = r.answer == voxnav::ReachAnswer::Yes ? "yes"
                                : r.answer == voxnav::ReachAnswer::No
                                    ? "no"
                                    : std::string("unknown:") + voxnav::reach_reason_name(r.reason);
      ++reach_counts[rname];
      ++outcomes[outcome_name(nav.outcome())];
      if (nav.outcome() == vt::RawOutcome::Found) ++success;
      if (ps.state == voxnav::PathState::Ready)
        ++request_success;
      else
        ++request_failures[voxnav::path_failure_name(ps.failure)];
      exp_total += nav.expanded();
      fp.add(k);
      fp.add(static_cast<std::uint64_t>(nav.outcome()));
      fp.add(nav.cost());
      fp.add(nav.expanded());
      fp.add(nav.cells().size());
      json pr;
      pr["from"] = json::array({p.from.x, p.from.y, p.from.z});
      pr["to"] = json::array({p.to.x, p.to.y, p.to.z});
      pr["standable"] = json::array({fs, ts});
      pr["reach"] = rname;
      pr["outcome"] = outcome_name(nav.outcome());
      pr["request"] =
          ps.state == voxnav::PathState::Ready ? "ready" : voxnav::path_failure_name(ps.failure);
      pr["cost"] = nav.cost();
      pr["request_cost"] = ps.state == voxnav::PathState::Ready ? ps.cost : 0u;
      pr["cells"] = nav.cells().size();
      pr["length"] = round_to(path_length_xz(nav.cells()), 4);
      pr["expanded"] = nav.expanded();
      per_pair.push_back(pr);
    }
  }
  std::vector<double> search_ms(n), request_ms(n), pull_ms(n);
  for (std::size_t k = 0; k < n; ++k) {
    search_ms[k] = median_of(search_t[k]);
    request_ms[k] = median_of(request_t[k]);
    pull_ms[k] = median_of(pull_t[k]);
    per_pair[k]["ms"] = round_to(request_ms[k], 6);
    per_pair[k]["search_ms"] = round_to(search_ms[k], 6);
  }
  const double search_total_ms = sum(search_ms);

  // ---- walks: every Ready route walked by an agent of the profile, one pair at a time ----
  std::map<std::string, int> walks;
  if (o.walk_ticks > 0) {
    for (std::size_t k = 0; k < n; ++k) {
      if (per_pair[k]["request"] != "ready") continue;
      const Pair& p = pairs[k];
      double y = 0;
      voxnav::AgentId id;
      std::string result = "failed";
      int t = 0;
      if (world.standing_height(prof, p.from, &y) == voxnav::Status::Ok &&
          world.add_agent(voxnav::AgentDef{prof, {p.from.x + 0.5, y, p.from.z + 0.5}}, &id) ==
              voxnav::Status::Ok) {
        (void)world.set_agent_goal(id, p.to);
        voxnav::AgentState st;
        result = "timeout";
        for (; t < o.walk_ticks; ++t) {
          (void)world.tick(0.05);
          if (world.agent_state(id, &st) != voxnav::Status::Ok) break;
          if (st.mode == voxnav::AgentMode::Arrived) {
            result = "arrived";
            break;
          }
          if (st.mode == voxnav::AgentMode::Failed) {
            result = "failed";
            break;
          }
        }
        if (result == "timeout" && st.mode == voxnav::AgentMode::Blocked) result = "blocked";
        (void)world.remove_agent(id);
      }
      ++walks[result];
      per_pair[k]["walk"] = result;
      per_pair[k]["walk_s"] = round_to(0.05 * (t + 1), 2);
    }
  }

  json out;
  out["bench"] = "region";
  out["library"] = "voxnav";
  out["target"] = VOXNAV_BENCH_TARGET;
  out["region"] = source;
  out["pairs_file"] = base_name(o.pairs);
  out["chunks"] = chunks;
  out["uniform_chunks"] = uniform;
  out["load_ms"] = round_to(load_ms, 3);
  out["nav_build_ms"] = round_to(nav_build_ms, 3);
  const voxnav::WorldStats ws = world.stats();
  out["standable_cells"] = ws.standable_cells;
  out["islands"] = ws.islands;
  out["profile"] = {{"max_nodes", motion.max_nodes}, {"max_distance", motion.max_distance}};
  out["rows"] = n;
  out["repeats"] = reps;
  out["from_standable"] = from_standable;
  out["to_standable"] = to_standable;
  out["both_standable"] = both_standable;
  out["reachable"] = reach_counts;
  out["outcomes"] = outcomes;
  out["success"] = request_success;
  out["success_rate"] =
      round_to(n ? static_cast<double>(request_success) / static_cast<double>(n) : 0.0, 4);
  out["search_found"] = success;
  out["request_failures"] = request_failures;
  time_stats(out, request_ms);
  time_stats(out, search_ms, "search_");
  time_stats(out, pull_ms, "pull_");
  out["expanded_total"] = exp_total;
  out["mexp_per_s"] = round_to(
      search_total_ms > 0 ? static_cast<double>(exp_total) / search_total_ms / 1000.0 : 0.0, 3);
  out["fingerprint"] = fp.hex();
  if (o.walk_ticks > 0) out["walks"] = walks;
  out["env"] = environment();
  out["pairs"] = per_pair;
  emit(out);
  std::fprintf(
      stderr,
      "voxnav %s region %s: %zu pairs x %d, standable %d/%d, success %d (search found %d), request "
      "mean "
      "%.4f ms (A* %.4f), %.2f M exp/s\n",
      VOXNAV_BENCH_TARGET, source.c_str(), n, reps, both_standable, static_cast<int>(n),
      request_success, success, mean(request_ms), mean(search_ms),
      search_total_ms > 0 ? static_cast<double>(exp_total) / search_total_ms / 1000.0 : 0.0);

  // ---- reachable() ----
  // Every standable cell, in the navigation's fixed order, with its island: the island cells
  // (node cells: also ladder and water cells a walker passes through) that are standable.
  std::size_t n_cells = 0;
  if (world.island_cells(prof, nullptr, 0, &n_cells) != voxnav::Status::Ok) return false;
  std::vector<voxnav::IslandCell> standable(n_cells);
  if (world.island_cells(prof, standable.data(), standable.size(), &n_cells) != voxnav::Status::Ok)
    return false;
  std::erase_if(standable, [&](const voxnav::IslandCell& c) { return !world.is_standable(prof, c.cell); });
  if (standable.empty()) return true;
  Rng rng{o.seed};
  const std::size_t np = static_cast<std::size_t>(std::max(1, o.reach_pairs));
  std::vector<std::pair<CellPos, CellPos>> rp(np);
  std::set<std::uint32_t> source_components;
  for (auto& q : rp) {
    const voxnav::IslandCell& a = standable[rng.below(standable.size())];
    const voxnav::IslandCell& b = standable[rng.below(standable.size())];
    q = {pos(a.cell), pos(b.cell)};
    source_components.insert(a.island);
  }
  // Clock overhead (one now() pair), to read the per-call first-call numbers.
  std::vector<double> overhead(1000);
  for (double& v : overhead) {
    const auto a = Clock::now();
    v = std::chrono::duration<double, std::nano>(Clock::now() - a).count();
  }
  const double clock_ns = median_of(overhead);
  // First call of each pair, one by one (the cache is as the navigation build left it).
  std::vector<double> first_ns(np);
  int yes = 0, no = 0, unknown = 0;
  for (std::size_t k = 0; k < np; ++k) {
    const auto a = Clock::now();
    const voxnav::Reach r = world.reachable(prof, rp[k].first, rp[k].second);
    first_ns[k] = std::chrono::duration<double, std::nano>(Clock::now() - a).count();
    yes += r.answer == voxnav::ReachAnswer::Yes;
    no += r.answer == voxnav::ReachAnswer::No;
    unknown += r.answer == voxnav::ReachAnswer::Unknown;
  }
  // Steady state: every pair again, cycled, timed as one batch; median of 5 batches.
  const long long calls = std::max<long long>(1, o.reach_calls);
  std::vector<double> batch_ns;
  unsigned sink = 0;
  for (int b = 0; b < 5; ++b) {
    const auto a = Clock::now();
    for (long long c = 0; c < calls; ++c) {
      const auto& q = rp[static_cast<std::size_t>(c) % np];
      sink += static_cast<unsigned>(world.reachable(prof, q.first, q.second).answer);
    }
    batch_ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - a).count() /
                       static_cast<double>(calls));
  }
  // The same over a handful of pairs (one cache entry per source component at most).
  std::vector<double> small_ns;
  for (int b = 0; b < 5; ++b) {
    const auto a = Clock::now();
    for (long long c = 0; c < calls; ++c) {
      const auto& q = rp[static_cast<std::size_t>(c) & 15];
      sink += static_cast<unsigned>(world.reachable(prof, q.first, q.second).answer);
    }
    small_ns.push_back(std::chrono::duration<double, std::nano>(Clock::now() - a).count() /
                       static_cast<double>(calls));
  }
  json ro;
  ro["bench"] = "reachable";
  ro["library"] = "voxnav";
  ro["target"] = VOXNAV_BENCH_TARGET;
  ro["region"] = source;
  ro["api"] = "World::reachable(profile, from, goal)";
  ro["pairs"] = np;
  ro["source_components"] = source_components.size();
  ro["standable_cells"] = standable.size();
  ro["answers"] = {{"yes", yes}, {"no", no}, {"unknown", unknown}};
  ro["clock_overhead_ns"] = round_to(clock_ns, 1);
  ro["first_call_mean_ns"] = round_to(mean(first_ns) - clock_ns, 1);
  ro["first_call_p50_ns"] = round_to(percentile(first_ns, 50) - clock_ns, 1);
  ro["first_call_p99_ns"] = round_to(percentile(first_ns, 99) - clock_ns, 1);
  ro["first_call_max_ns"] =
      round_to(*std::max_element(first_ns.begin(), first_ns.end()) - clock_ns, 1);
  ro["steady_calls"] = calls;
  ro["steady_ns"] = round_to(median_of(batch_ns), 2);
  ro["steady_batches_ns"] = batch_ns;
  ro["steady_16_pairs_ns"] = round_to(median_of(small_ns), 2);
  ro["sink"] = sink & 1;
  ro["env"] = environment();
  for (auto& v : ro["steady_batches_ns"]) v = round_to(v.get<double>(), 2);
  emit(ro);
  std::fprintf(
      stderr,
      "voxnav %s reachable: %zu pairs (%zu source components), first call mean %.0f ns (p99 %.0f), "
      "steady %.1f ns/call, 16 pairs %.1f ns/call\n",
      VOXNAV_BENCH_TARGET, np, source_components.size(), mean(first_ns) - clock_ns,
      percentile(first_ns, 99) - clock_ns, median_of(batch_ns), median_of(small_ns));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "search_bench: %s needs a value\n%s", a.c_str(), kUsage);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--data")
      o.data = value();
    else if (a == "--blocks")
      o.blocks = value();
    else if (a == "--maps") {
      const std::string v = value();
      if (v == "none")
        o.no_maps = true;
      else
        o.maps = split_words(v);
    } else if (a == "--sample")
      o.sample = std::atoi(value().c_str());
    else if (a == "--sample-for") {
      for (const std::string& w : split_words(value())) {
        const std::size_t eq = w.find('=');
        if (eq == std::string::npos || eq == 0) {
          std::fprintf(stderr, "search_bench: --sample-for wants name=N, got '%s'\n", w.c_str());
          return 2;
        }
        o.sample_for[w.substr(0, eq)] = std::atoi(w.c_str() + eq + 1);
      }
    } else if (a == "--warmup")
      o.warmup = std::atoi(value().c_str());
    else if (a == "--repeats")
      o.repeats = std::atoi(value().c_str());
    else if (a == "--pairs")
      o.pairs = value();
    else if (a == "--region")
      o.region = value();
    else if (a == "--region-dump")
      o.region_dump = value();
    else if (a == "--write-dump")
      o.write_dump = value();
    else if (a == "--region-repeats")
      o.region_repeats = std::atoi(value().c_str());
    else if (a == "--unbounded")
      o.unbounded = true;
    else if (a == "--walk")
      o.walk_ticks = std::atoi(value().c_str());
    else if (a == "--reach-pairs")
      o.reach_pairs = std::atoi(value().c_str());
    else if (a == "--reach-calls")
      o.reach_calls = std::atoll(value().c_str());
    else if (a == "--seed")
      o.seed = std::strtoull(value().c_str(), nullptr, 10);
    else {
      std::fprintf(stderr, "search_bench: unknown argument '%s'\n%s", a.c_str(), kUsage);
      return 2;
    }
  }

  RegistryBytes rb;
  if (!read_file(o.blocks + "/blocks.pc-1.21.1.json", rb.blocks) ||
      !read_file(o.blocks + "/blockCollisionShapes.pc-1.20.5.json", rb.shapes)) {
    std::fprintf(stderr, "search_bench: cannot read the registry JSON in %s\n", o.blocks.c_str());
    return 1;
  }

  bool ok = true;
  if (!o.no_maps) {
    std::vector<std::string> names = o.maps;
    if (names.empty()) {
      // Every .map of movingai-2d/maps, in name order (NODERAWFS lists real directories in wasm).
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(o.data + "/movingai-2d/maps", ec)) {
        const std::string f = e.path().filename().string();
        if (f.size() > 4 && f.compare(f.size() - 4, 4, ".map") == 0)
          names.push_back(f.substr(0, f.size() - 4));
      }
      if (ec || names.empty()) {
        std::fprintf(stderr, "search_bench: no maps in %s/movingai-2d/maps\n", o.data.c_str());
        return 1;
      }
      std::sort(names.begin(), names.end());
    }
    for (const std::string& name : names) {
      const std::string map = o.data + "/movingai-2d/maps/" + name + ".map";
      const std::string scen = o.data + "/movingai-2d/scens/" + name + ".map.scen";
      if (!std::filesystem::exists(scen)) {
        std::fprintf(stderr, "search_bench: no scenario file for %s, skipped\n", name.c_str());
        continue;
      }
      const auto sf = o.sample_for.find(name);
      ok = bench_movingai_map(o, sf == o.sample_for.end() ? o.sample : sf->second, rb, map, scen) &&
           ok;
    }
  }
  if (!o.pairs.empty()) {
    if (o.region.empty() && o.region_dump.empty()) {
      std::fprintf(stderr, "search_bench: --pairs needs --region or --region-dump\n");
      return 2;
    }
    ok = bench_region(o, rb) && ok;
  }
  return ok ? 0 : 1;
}
