// steer_bench: what a crowd tick costs with steering (public API only, native, a plain harness).
//
// The default world (data/worlds/r.0.-1.mca, Minecraft 1.16), one walker profile (avoidance on:
// ORCA with 8 neighbours, a 1 s horizon, radius = half the body width). `--fields` goals spread
// over the region's biggest island each get a flow field; N walkers stand on distinct cells of
// that island within 64 cells of their goal (round robin over the goals, cells taken in a fixed
// pseudo-random order) and follow the field. After the fields are built and 10 warm-up ticks,
// `--ticks` ticks of World::tick(0.05) are timed one by one: the whole tick (follow, ORCA, the
// movement step, separation, contagion). The same run with separation only, ORCA only and
// steering off (separation off, a profile with avoidance disabled) tells the parts apart. Median
// and 95th percentile, milliseconds, plus what steering did (ORCA neighbours per agent, pushes) and
// how many agents arrived by the end.
//
// With --lod K, agents more than 32 cells (on x or z) from the first goal (a player standing there)
// are Reduced(K) (set_agent_lod); --full-only runs separation + ORCA only. The last column is the
// state hash (voxnav/state_hash.h) of every agent after the run: equal hashes mean bit-identical
// crowds, between two builds (a speed-up must not change it) and between native and wasm.
//
// Built natively and to wasm from this source. Natively the region is read from the .mca (zlib),
// and --write-dump FILE writes it as a raw chunk dump (bench/chunk_dump.h); the wasm build has no
// zlib and reads that dump (--region-dump FILE), run under node:
//   node --no-experimental-fetch build/wasm/bench/steer_bench.js --region-dump FILE ...
//
//   steer_bench [--agents 1000,10000] [--ticks 100] [--fields 4] [--region FILE.mca]
//               [--region-dump FILE] [--write-dump FILE] [--full-only] [--lod K]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "chunk_dump.h"
#include "splitmix.h"  // native/tools
#include "voxnav/crowds.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"
#if !defined(__EMSCRIPTEN__)
#include "voxnav/native/files.h"  // region files (zlib)
#endif

using namespace voxnav;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

struct Result {
  double median = 0, p95 = 0;
  double cpu = 0;  // processor time of the tick (std::clock), median: steadier on a shared machine
  double neighbours = 0;  // ORCA neighbours per agent ORCA looked at, mean over the timed ticks
  double pushes = 0;      // separation pushes per tick, mean
  double refused = 0;     // pushes refused per tick, mean
  std::size_t arrived = 0;
  std::size_t reduced = 0;  // agents set Reduced(lod)
  std::uint64_t hash = 0;   // state_hash of every agent after the run
  bool ok = false;
};

struct Source {
  std::string region;  // .mca (native only)
  std::string dump;    // raw chunk dump (native and wasm); read instead of the region when set
  std::string write_dump;
};

bool load_region(World& w, const Source& src) {
  if (!src.dump.empty()) {
    std::string name, err;
    std::size_t chunks = 0, uniform = 0;
    if (!bench::read_chunk_dump(src.dump, w, name, chunks, uniform, err)) {
      std::fprintf(stderr, "steer_bench: %s\n", err.c_str());
      return false;
    }
    return true;
  }
#if defined(__EMSCRIPTEN__)
  std::fprintf(stderr, "steer_bench: the wasm build reads regions from --region-dump only\n");
  return false;
#else
  LoadReport rep;
  if (native::load_world_file(w, src.region, LoadOptions{}, &rep) != Status::Ok) {
    std::fprintf(stderr, "steer_bench: %s: %s\n", src.region.c_str(), rep.message.c_str());
    return false;
  }
  if (!src.write_dump.empty()) {
    if (!bench::write_chunk_dump(w, rep.min, rep.max, src.region, src.write_dump)) {
      std::fprintf(stderr, "steer_bench: cannot write %s\n", src.write_dump.c_str());
      return false;
    }
    std::fprintf(stderr, "steer_bench: wrote the region to %s\n", src.write_dump.c_str());
  }
  return true;
#endif
}

bool load_blocks(World& w) {
  std::vector<std::uint8_t> blocks, shapes;
  const std::string dir = VOXNAV_BENCH_BLOCKS_DIR;
  std::string msg;
  if (!bench::read_file(dir + "/blocks.pc-1.21.1.json", blocks) ||
      !bench::read_file(dir + "/blockCollisionShapes.pc-1.20.5.json", shapes) ||
      w.load_minecraft_blocks(blocks, shapes, &msg) != Status::Ok) {
    std::fprintf(stderr, "steer_bench: blocks in %s: %s\n", dir.c_str(), msg.c_str());
    return false;
  }
  return true;
}

Result run(const Source& src, std::size_t agents, int ticks, int fields, bool orca,
           bool separate, int lod) {
  Result res;
  World w;
  if (!load_blocks(w) || !load_region(w, src)) return res;
  Profile p;
  p.avoidance.enabled = orca;
  ProfileId prof;
  if (w.add_profile(p, &prof) != Status::Ok) return res;
  set_separation(w, separate);
  w.update();
  std::size_t n = 0;
  if (w.island_cells(prof, nullptr, 0, &n) != Status::Ok) return res;
  std::vector<IslandCell> cells(n);
  if (w.island_cells(prof, cells.data(), cells.size(), &n) != Status::Ok) return res;
  std::uint32_t biggest = 0;
  for (const IslandCell& c : cells) biggest = std::max(biggest, c.island_size);
  std::vector<CellPos> big;
  for (const IslandCell& c : cells)
    if (c.island_size == biggest) big.push_back(c.cell);
  // Goals spread along the island's cell list; the cells in a fixed shuffled order.
  std::vector<CellPos> goals;
  for (int i = 1; i <= fields; ++i)
    goals.push_back(
        big[big.size() * static_cast<std::size_t>(i) / static_cast<std::size_t>(fields + 1)]);
  tools::SplitMix64 rng{20261202};
  for (std::size_t i = big.size(); i > 1; --i)
    std::swap(big[i - 1], big[rng.below(static_cast<std::uint32_t>(i))]);
  std::vector<FlowId> flows(goals.size());
  for (std::size_t g = 0; g < goals.size(); ++g)
    if (request_flow(w, prof, goals[g], {}, &flows[g]) != Status::Ok) return res;
  // Agents: round robin over the goals, each on the next unused cell within 64 of its goal.
  std::vector<std::size_t> cursor(goals.size(), 0);
  std::vector<AgentDef> defs;
  std::vector<std::size_t> goal_of;
  std::vector<bool> used(big.size(), false);
  for (std::size_t k = 0; k < agents; ++k) {
    const std::size_t g = k % goals.size();
    std::size_t& i = cursor[g];
    while (i < big.size() && (used[i] || std::abs(big[i].x - goals[g].x) > 64 ||
                              std::abs(big[i].z - goals[g].z) > 64))
      ++i;
    if (i == big.size()) {
      std::fprintf(stderr, "steer_bench: no room for %zu agents around goal %zu\n", agents, g);
      return res;
    }
    used[i] = true;
    double feet = 0;
    if (w.standing_height(prof, big[i], &feet) != Status::Ok) return res;
    defs.push_back(AgentDef{prof, Vec3{big[i].x + 0.5, feet, big[i].z + 0.5}});
    goal_of.push_back(g);
  }
  std::vector<AgentId> ids(defs.size());
  if (w.add_agents(defs, ids.data()) != Status::Ok) return res;
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (set_agent_flow(w, ids[k], flows[goal_of[k]]) != Status::Ok) return res;
  // Level of detail: a player stands on the first goal; agents more than kNearCells from it (on x
  // or z) are Reduced(lod).
  constexpr int kNearCells = 32;
  if (lod > 1)
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const Vec3& f = defs[k].feet;
      if (std::abs(f.x - goals[0].x) <= kNearCells && std::abs(f.z - goals[0].z) <= kNearCells)
        continue;
      if (set_agent_lod(w, ids[k], lod) != Status::Ok) return res;
      ++res.reduced;
    }
  for (int t = 0; t < 10; ++t)
    if (w.tick(0.05) != Status::Ok) return res;
  std::vector<double> times, cpu;
  double neighbours = 0, looked = 0, pushes = 0, refused = 0;
  for (int t = 0; t < ticks; ++t) {
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    if (w.tick(0.05) != Status::Ok) return res;
    cpu.push_back(1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
    times.push_back(ms_since(t0));
    const SteeringStats s = steering_stats(w);
    neighbours += static_cast<double>(s.orca_neighbours);
    looked += static_cast<double>(s.orca_agents);
    pushes += static_cast<double>(s.pushes);
    refused += static_cast<double>(s.pushes_refused);
  }
  for (AgentId id : ids) {
    AgentState st;
    if (w.agent_state(id, &st) == Status::Ok && st.mode == AgentMode::Arrived) ++res.arrived;
  }
  if (state_hash(w, ids, &res.hash) != Status::Ok) return res;
  res.median = pct(times, 0.5);
  res.p95 = pct(times, 0.95);
  res.cpu = pct(cpu, 0.5);
  res.neighbours = looked > 0 ? neighbours / looked : 0;
  res.pushes = pushes / ticks;
  res.refused = refused / ticks;
  res.ok = true;
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  Source src;
  src.region = std::string(VOXNAV_REPO_DATA) + "/worlds/r.0.-1.mca";
  std::vector<std::size_t> counts = {1000, 10000};
  int ticks = 100, fields = 4, lod = 1;
  bool full_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--region" && i + 1 < argc) {
      src.region = argv[++i];
    } else if (a == "--region-dump" && i + 1 < argc) {
      src.dump = argv[++i];
    } else if (a == "--write-dump" && i + 1 < argc) {
      src.write_dump = argv[++i];
    } else if (a == "--ticks" && i + 1 < argc) {
      ticks = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--fields" && i + 1 < argc) {
      fields = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--lod" && i + 1 < argc) {
      lod = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--full-only") {
      full_only = true;
    } else if (a == "--agents" && i + 1 < argc) {
      counts.clear();
      std::stringstream ss(argv[++i]);
      std::string part;
      while (std::getline(ss, part, ','))
        counts.push_back(static_cast<std::size_t>(std::max(1, std::atoi(part.c_str()))));
    } else {
      std::fprintf(stderr,
                   "usage: steer_bench [--agents 1000,10000] [--ticks 100] [--fields 4] "
                   "[--region FILE.mca] [--region-dump FILE] [--write-dump FILE] [--full-only] "
                   "[--lod K]\n");
      return 2;
    }
  }
  std::printf(
      "| agents | steering | tick ms (median) | tick ms (p95) | tick CPU ms (median) | ORCA "
      "neighbours per agent | "
      "pushes per tick | pushes refused per tick | arrived after %d ticks | Reduced(%d) agents | state hash |\n",
      ticks + 10, lod);
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  struct Mode {
    const char* name;
    bool orca, separate;
  };
  const Mode modes[] = {{"separation + ORCA", true, true},
                        {"separation only", false, true},
                        {"ORCA only", true, false},
                        {"off", false, false}};
  for (std::size_t n : counts)
    for (const Mode& mode : modes) {
      if (full_only && !(mode.orca && mode.separate)) continue;
      const Result r = run(src, n, ticks, fields, mode.orca, mode.separate, lod);
      if (!r.ok) return 1;
      std::printf("| %zu | %s | %.2f | %.2f | %.2f | %.2f | %.0f | %.0f | %zu | %zu | `%s` |\n", n,
                  mode.name, r.median, r.p95, r.cpu, r.neighbours, r.pushes, r.refused, r.arrived,
                  r.reduced, state_hash_text(r.hash).c_str());
      std::fflush(stdout);
    }
  return 0;
}
