// edit_bench: what one block edit costs navigation on a real region while agents walk.
//
// The default world (data/worlds/r.0.-1.mca, Minecraft 1.16) with N walker agents going to random
// goals on their own island at 20 Hz. Every tick, E edits land on cells of the agents' corridors
// ahead of them (alternately blocking a cell and digging the block under one), one World::tick
// per batch. Measured per edit (one edit per tick, so per-tick numbers are per-edit numbers):
//   layers   - NavWorld maintenance: layer 0 in the dependency box, move words, islands
//   agents   - the agents' corridor checks and repairs against the change
// and, for comparison on the same edits (every 25th), the cost of the alternative this replaces:
//   chunk    - classifying the edited chunk from scratch and recomputing the move words of it
//              and its 26 neighbours
//   islands  - recomputing every island (strongly connected components) of the region
// Then the tick time at several edit rates (edits per second near corridors), without a search
// budget and with one (World::set_searches_per_update: --search-budgets, 0 = no limit).
//
// Built natively and to wasm (run under node: node --no-experimental-fetch edit_bench.js ...). The
// wasm build has no zlib: it reads the region from a raw chunk dump (bench/chunk_dump.h) that the
// native build writes with --write-dump. bench/edit_run.sh runs both and prints the ratio.
//
// usage: edit_bench [--agents N] [--ticks T] [--seed S] [--warmup-edits W] [--slowest N]
//                   [--no-baseline] [--rates a,b,c] [--search-budgets a,b] [--blocks DIR]
//                   [--region FILE.mca | --region-dump FILE] [--write-dump FILE]
// --warmup-edits W makes W untimed edits (one per tick) before the timed ones (default 0).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "chunk_dump.h"
#include "probes.h"     // island counters, rebuilds from scratch (tests/support: public types only)
#include "splitmix.h"  // native/tools
#include "voxnav/world.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/files.h"
#endif

namespace {

using namespace voxnav;
namespace vt = voxnav::test;
using Rng = voxnav::tools::SplitMix64;
using Clock = std::chrono::steady_clock;

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i =
      std::min(v.size() - 1, static_cast<std::size_t>(p * double(v.size() - 1) + 0.5));
  return v[i];
}

struct Setup {
  std::unique_ptr<World> world;
  ProfileId prof;
  std::vector<AgentId> agents;
  std::vector<voxnav::CellPos> pool;  // standable cells of big islands
};

struct Source {
  std::string blocks_dir = VOXNAV_BENCH_BLOCKS_DIR;
  std::string region = std::string(VOXNAV_REPO_DATA) + "/worlds/r.0.-1.mca";
  std::string region_dump, write_dump;
};

bool setup(Setup& s, const Source& src, int n_agents, std::uint64_t seed) {
  s.world = std::make_unique<World>();
  std::vector<std::uint8_t> blocks, shapes;
  std::string msg;
  if (!bench::read_file(src.blocks_dir + "/blocks.pc-1.21.1.json", blocks) ||
      !bench::read_file(src.blocks_dir + "/blockCollisionShapes.pc-1.20.5.json", shapes) ||
      s.world->load_minecraft_blocks(blocks, shapes, &msg) != Status::Ok) {
    std::fprintf(stderr, "edit_bench: block registry from %s: %s\n", src.blocks_dir.c_str(),
                 msg.c_str());
    return false;
  }
  if (!src.region_dump.empty()) {
    std::string source;
    std::size_t chunks = 0, uniform = 0;
    if (!bench::read_chunk_dump(src.region_dump, *s.world, source, chunks, uniform, msg)) {
      std::fprintf(stderr, "edit_bench: %s\n", msg.c_str());
      return false;
    }
  } else {
#ifdef __EMSCRIPTEN__
    std::fprintf(stderr,
                 "edit_bench: the wasm build reads the region from --region-dump only (no zlib)\n");
    return false;
#else
    LoadReport rep;
    if (native::load_world_file(*s.world, src.region, LoadOptions{}, &rep) != Status::Ok) {
      std::fprintf(stderr, "edit_bench: %s: %s\n", src.region.c_str(), rep.message.c_str());
      return false;
    }
    if (!src.write_dump.empty() && !bench::write_chunk_dump(*s.world, rep.min, rep.max, src.region, src.write_dump)) {
      std::fprintf(stderr, "edit_bench: cannot write %s\n", src.write_dump.c_str());
      return false;
    }
#endif
  }
  if (s.world->add_profile(Profile{}, &s.prof) != Status::Ok) return false;
  s.world->update();
  std::size_t n_cells = 0;
  if (s.world->island_cells(s.prof, nullptr, 0, &n_cells) != Status::Ok) return false;
  std::vector<IslandCell> cells(n_cells);
  if (s.world->island_cells(s.prof, cells.data(), cells.size(), &n_cells) != Status::Ok) return false;
  for (const IslandCell& c : cells)
    if (c.island_size >= 500) s.pool.push_back(c.cell);
  if (s.pool.empty()) return false;
  Rng rng{seed};
  for (int i = 0; i < n_agents; ++i) {
    const voxnav::CellPos c = s.pool[rng.below(static_cast<std::uint32_t>(s.pool.size()))];
    double feet = 0;
    (void)s.world->standing_height(s.prof, CellPos{c.x, c.y, c.z}, &feet);
    AgentId id;
    if (s.world->add_agent(AgentDef{s.prof, Vec3{c.x + 0.5, feet, c.z + 0.5}}, &id) == Status::Ok)
      s.agents.push_back(id);
  }
  return true;
}

/// A goal on the agent's own island within 48 cells when there is one.
void new_goal(Setup& s, Rng& rng, AgentId id) {
  AgentState a;
  if (s.world->agent_state(id, &a) != Status::Ok) return;
  std::uint32_t isl = 0, g_isl = 0;
  (void)s.world->island_of(s.prof, a.cell, &isl);
  for (int k = 0; k < 64; ++k) {
    const voxnav::CellPos g = s.pool[rng.below(static_cast<std::uint32_t>(s.pool.size()))];
    if (std::abs(g.x - a.cell.x) > 48 || std::abs(g.z - a.cell.z) > 48) continue;
    if (s.world->island_of(s.prof, g, &g_isl) != Status::Ok || g_isl != isl) continue;
    (void)s.world->set_agent_goal(id, CellPos{g.x, g.y, g.z});
    return;
  }
}

/// One edit on a corridor cell ahead of a random moving agent; returns false when none fits.
bool corridor_edit(Setup& s, Rng& rng, bool block, std::uint16_t stone,
                   std::uint16_t air, voxnav::CellPos* where) {
  std::vector<PathCell> cells;
  for (int tries = 0; tries < 16; ++tries) {
    const AgentId id = s.agents[rng.below(static_cast<std::uint32_t>(s.agents.size()))];
    AgentState a;
    std::size_t at = 0, n = 0;
    if (s.world->agent_state(id, &a) != Status::Ok || a.mode != voxnav::AgentMode::Moving ||
        vt::agent_cell_index(*s.world, id, &at) != Status::Ok ||
        s.world->agent_path_cells(id, nullptr, 0, &n) != Status::Ok || n < at + 4)
      continue;
    cells.resize(n);
    (void)s.world->agent_path_cells(id, cells.data(), cells.size(), &n);
    const std::size_t ahead = at + 2 + rng.below(static_cast<std::uint32_t>(n - at - 2));
    const voxnav::CellPos c = cells[ahead].cell;
    const voxnav::CellPos e = block ? c : voxnav::CellPos{c.x, c.y - 1, c.z};
    if (s.world->set_block(CellPos{e.x, e.y, e.z}, block ? stone : air) != Status::Ok) continue;
    *where = e;
    return true;
  }
  return false;
}

void keep_busy(Setup& s, Rng& rng) {
  for (const AgentId id : s.agents) {
    AgentState as;
    if (s.world->agent_state(id, &as) != Status::Ok) continue;
    if (as.mode != AgentMode::Moving && as.mode != AgentMode::Planning) new_goal(s, rng, id);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int n_agents = 200, ticks = 1200;
  int warmup_edits = 0;  // edits made (one per tick) before the timed ones
  std::size_t slowest = 12;
  bool baseline = true;  // every 25th edit, also time the chunk rebuild and island recomputation
  std::uint64_t seed = 1;
  std::vector<double> rates = {0, 10, 50, 200};
  std::vector<int> budgets = {0, 2};  // World::set_searches_per_update for the tick table
  Source src;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--agents")
      n_agents = std::stoi(next());
    else if (a == "--ticks")
      ticks = std::stoi(next());
    else if (a == "--seed")
      seed = std::stoull(next());
    else if (a == "--warmup-edits")
      warmup_edits = std::stoi(next());
    else if (a == "--slowest")
      slowest = static_cast<std::size_t>(std::stoul(next()));
    else if (a == "--no-baseline")
      baseline = false;
    else if (a == "--blocks")
      src.blocks_dir = next();
    else if (a == "--region")
      src.region = next();
    else if (a == "--region-dump")
      src.region_dump = next();
    else if (a == "--write-dump")
      src.write_dump = next();
    else if (a == "--search-budgets") {
      budgets.clear();
      const std::string l = next();
      for (std::size_t p = 0; p < l.size();) {
        const std::size_t q = l.find(',', p);
        budgets.push_back(
            std::stoi(l.substr(p, q == std::string::npos ? std::string::npos : q - p)));
        p = q == std::string::npos ? l.size() : q + 1;
      }
    } else if (a == "--rates") {
      rates.clear();
      const std::string l = next();
      for (std::size_t p = 0; p < l.size();) {
        const std::size_t q = l.find(',', p);
        rates.push_back(std::stod(l.substr(p, q == std::string::npos ? std::string::npos : q - p)));
        p = q == std::string::npos ? l.size() : q + 1;
      }
    } else {
      std::fprintf(
          stderr,
          "usage: edit_bench [--agents N] [--ticks T] [--seed S] [--warmup-edits W] [--slowest N]\n"
          "                  [--no-baseline] [--rates a,b]\n"
          "                  [--search-budgets a,b] [--blocks DIR]\n"
          "                  [--region FILE.mca | --region-dump FILE] [--write-dump FILE]\n");
      return 2;
    }
  }

  // Part 1: per-edit costs, one edit per tick.
  Setup s;
  if (!setup(s, src, n_agents, seed)) return 1;
  src.write_dump.clear();
  std::uint16_t stone = 0, air = 0;
  (void)s.world->block_value("stone", &stone);
  (void)s.world->block_value("air", &air);
  Rng rng{seed * 7919 + 3};
  keep_busy(s, rng);
  for (int t = 0; t < 60; ++t) (void)s.world->tick(0.05);  // agents under way
  // Untimed edits first, when asked: a long-running host's code is warm (under wasm, V8 first runs
  // a function as baseline code and optimises it only once it has run a while, so the first rare
  // long proofs of a cold run are slower than they will be later).
  for (int t = 0; t < warmup_edits; ++t) {
    keep_busy(s, rng);
    voxnav::CellPos e;
    (void)corridor_edit(s, rng, t % 2 == 0, stone, air, &e);
    (void)s.world->tick(0.05);
  }
  std::vector<double> layers, agents, total, chunk, islands;
  const vt::IslandCounters is0 = vt::island_counters(*s.world);
  int edits = 0;
  struct Slow {
    double us;
    voxnav::CellPos at;
    bool block;
    vt::IslandCounters d;
  };
  std::vector<Slow> slow;
  for (int t = 0; t < ticks; ++t) {
    keep_busy(s, rng);
    voxnav::CellPos e;
    const vt::IslandCounters before = vt::island_counters(*s.world);
    const bool edited = corridor_edit(s, rng, t % 2 == 0, stone, air, &e);
    (void)s.world->tick(0.05);
    if (!edited) continue;
    ++edits;
    const WorldStats ws = s.world->stats();
    const double l = ws.last_maintenance_ms * 1000.0, g = ws.last_edit_check_us;
    {
      const vt::IslandCounters now = vt::island_counters(*s.world);
      vt::IslandCounters d;
      d.merges = now.merges - before.merges;
      d.split_checks = now.split_checks - before.split_checks;
      d.local_splits = now.local_splits - before.local_splits;
      d.fallbacks = now.fallbacks - before.fallbacks;
      d.component_searches = now.component_searches - before.component_searches;
      d.components_built = now.components_built - before.components_built;
      slow.push_back({l, e, t % 2 == 0, d});
    }
    layers.push_back(l);
    agents.push_back(g);
    total.push_back(l + g);
    if (edits % 25 == 0 && baseline) {
      auto chunk_of = [](int c) { return c >= 0 ? c / 16 : -((-c + 15) / 16); };
      const voxnav::ChunkPos p{chunk_of(e.x), chunk_of(e.y), chunk_of(e.z)};
      auto t0 = Clock::now();
      vt::rebuild_chunk_from_scratch(*s.world, p);
      chunk.push_back(us_since(t0));
      t0 = Clock::now();
      vt::recompute_islands(*s.world);
      islands.push_back(us_since(t0));
    }
  }
  const vt::IslandCounters is1 = vt::island_counters(*s.world);
  std::printf(
      "## Per-edit maintenance (%d agents walking, %d edits on corridor cells, one per tick)\n\n",
      n_agents, edits);
  std::printf(
      "| cost per edit | median (us) | p90 (us) | p99 (us) | max (us) "
      "|\n|---|---:|---:|---:|---:|\n");
  auto row = [](const char* name, const std::vector<double>& v) {
    std::printf("| %s | %.1f | %.1f | %.1f | %.1f |\n", name, pct(v, 0.5), pct(v, 0.9),
                pct(v, 0.99), v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()));
  };
  row("layers 0-2 + islands (incremental)", layers);
  row("agents: corridor checks and repair", agents);
  row("**total**", total);
  row("rebuild the edited chunk (layer 0 + moves of 27 chunks)", chunk);
  row("recompute every island of the region", islands);
  std::printf(
      "\nsummary: layers_p50_us=%.2f layers_p99_us=%.2f agents_p50_us=%.2f total_p50_us=%.2f "
      "total_p99_us=%.2f\n",
      pct(layers, 0.5), pct(layers, 0.99), pct(agents, 0.5), pct(total, 0.5), pct(total, 0.99));
  std::printf(
      "\nislands: %llu deltas, %llu merges, %llu split proofs, %llu fallbacks to a full "
      "recomputation; local components: %llu octants computed, %llu moves out patched in place\n\n",
      static_cast<unsigned long long>(is1.deltas - is0.deltas),
      static_cast<unsigned long long>(is1.merges - is0.merges),
      static_cast<unsigned long long>(is1.split_checks - is0.split_checks),
      static_cast<unsigned long long>(is1.fallbacks - is0.fallbacks),
      static_cast<unsigned long long>(is1.components_built - is0.components_built),
      static_cast<unsigned long long>(is1.out_patches - is0.out_patches));

  std::sort(slow.begin(), slow.end(), [](const Slow& a, const Slow& b) { return a.us > b.us; });
  std::printf("slowest edits (layers + islands):\n");
  for (std::size_t k = 0; k < slow.size() && k < slowest; ++k)
    std::printf(
        "  %8.1f us  %s at (%d,%d,%d): %llu merges, %llu split proofs, %llu local splits, %llu "
        "fallbacks, %llu component searches, %llu octants recomputed\n",
        slow[k].us, slow[k].block ? "block" : "dig", slow[k].at.x, slow[k].at.y, slow[k].at.z,
        static_cast<unsigned long long>(slow[k].d.merges),
        static_cast<unsigned long long>(slow[k].d.split_checks),
        static_cast<unsigned long long>(slow[k].d.local_splits),
        static_cast<unsigned long long>(slow[k].d.fallbacks),
        static_cast<unsigned long long>(slow[k].d.component_searches),
        static_cast<unsigned long long>(slow[k].d.components_built));
  std::printf("\n");

  // Part 2: tick time against the edit rate (fresh world per rate, same seed).
  std::printf("## Tick time against the edit rate (%d agents, %d ticks at 20 Hz)\n\n", n_agents,
              ticks);
  std::printf(
      "| searches per update | edits/s | edits | mean tick (ms) | p99 tick (ms) | arrivals | local "
      "repairs | replans |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const int budget : budgets)
    for (const double rate : rates) {
      Setup r;
      if (!setup(r, src, n_agents, seed)) return 1;
      if (r.world->set_searches_per_update(budget) != Status::Ok) return 1;
      Rng rr{seed * 7919 + 3};
      keep_busy(r, rr);
      std::vector<double> tick_ms;
      double owed = 0;
      int done = 0;
      for (int t = 0; t < ticks; ++t) {
        keep_busy(r, rr);
        owed += rate * 0.05;
        while (owed >= 1) {
          owed -= 1;
          voxnav::CellPos e;
          done += corridor_edit(r, rr, done % 2 == 0, stone, air, &e);
        }
        const auto t0 = Clock::now();
        (void)r.world->tick(0.05);
        tick_ms.push_back(us_since(t0) / 1000.0);
      }
      std::uint64_t arrivals = 0, replans = 0, repairs = 0;
      for (const AgentId id : r.agents) {
        AgentState as;
        if (r.world->agent_state(id, &as) != Status::Ok) continue;
        arrivals += as.arrivals;
        replans += as.replans;
        repairs += as.repairs;
      }
      double mean = 0;
      for (double v : tick_ms) mean += v;
      mean /= double(tick_ms.size());
      std::printf("| %s | %.0f | %d | %.2f | %.2f | %llu | %llu | %llu |\n",
                  budget ? std::to_string(budget).c_str() : "no limit", rate, done, mean,
                  pct(tick_ms, 0.99), static_cast<unsigned long long>(arrivals),
                  static_cast<unsigned long long>(repairs),
                  static_cast<unsigned long long>(replans));
    }
  return 0;
}
