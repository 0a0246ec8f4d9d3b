// crowd_bench: voxnav under load on the shipped region (data/worlds/r.0.-1.mca), native only, a
// plain harness (std::chrono; Linux for the memory samples). Two modes:
//
//   --burst   N walkers (default 10,000) are given goals in one tick; ticks run until no agent
//             is Planning. Prints every tick's time while the burst lasts, the largest tick, and
//             how many ticks the burst took: what the search budget (World::set_searches_per_update,
//             default kDefaultSearchesPerUpdate; --budget B, 0 = no limit) bounds.
//   --soak    T ticks (default 100,000) of N walkers (default 200) at 20 Hz, each sent to a new goal
//             on its island when it arrives, fails or blocks, with E edits per second (default 10)
//             on corridor cells ahead of agents (alternately a block set and the block under one
//             dug), each edit undone --undo-after ticks later (default 200: 10 s), so the region
//             changes all the time without wearing away; an agent with no goal left on its island
//             (dropped into a pit) is respawned on a spawn cell. Samples the resident memory (VmRSS of /proc/self/status) every --every ticks
//             (default 10,000) with the tick times of the window and the sizes the World reports,
//             printed as a Markdown table: a structure that grows without bound shows as a
//             growing VmRSS after warm-up.
//
// usage: crowd_bench --burst [--agents N] [--budget B] [--threads K] [--seed S] [--max-ticks T]
//        crowd_bench --soak [--agents N] [--ticks T] [--every K] [--edits-per-second E]
//                    [--undo-after U] [--budget B] [--seed S]
//        both: [--region FILE] [--blocks DIR]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "splitmix.h"  // native/tools
#include "voxnav/native/files.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/world.h"

namespace {

using namespace voxnav;
using Clock = std::chrono::steady_clock;
using Rng = tools::SplitMix64;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Resident memory of this process in KiB (VmRSS), 0 when /proc is not there.
long vm_rss_kib() {
  std::ifstream f("/proc/self/status");
  std::string key;
  while (f >> key) {
    if (key == "VmRSS:") {
      long v = 0;
      f >> v;
      return v;
    }
    std::getline(f, key);
  }
  return 0;
}

/// Bytes the allocator has handed out and not taken back (glibc: mallinfo2's in-use chunks plus
/// mmapped blocks), in KiB; -1 where the allocator cannot tell. Set beside VmRSS it separates a
/// structure that grows (both grow) from fragmentation (VmRSS grows, this stays flat).
long heap_in_use_kib() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  const struct mallinfo2 m = mallinfo2();
  return static_cast<long>((m.uordblks + m.hblkhd) / 1024);
#else
  return -1;
#endif
}

double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * double(v.size() - 1) + 0.5))];
}

struct Options {
  bool burst = false, soak = false;
  int agents = -1;
  int budget = -1;  // -1: the World's default
  int threads = 0;
  long ticks = 100000, every = 10000, max_ticks = 1000;
  double edits_per_second = 10;
  long undo_after = 200;
  std::uint64_t seed = 1;
  std::string region = std::string(VOXNAV_REPO_DATA) + "/worlds/r.0.-1.mca";
  std::string blocks = std::string(VOXNAV_REPO_DATA) + "/blocks";
};

struct Crowd {
  std::unique_ptr<native::ThreadPool> pool;
  std::unique_ptr<World> world;
  ProfileId prof;
  std::vector<AgentId> agents;
  std::vector<IslandCell> cells;  // spawn and goal cells: standable, on islands of 500+ cells
  std::uint16_t stone = 0, air = 0;
};

bool setup(Crowd& c, const Options& o, int n_agents, Rng& rng) {
  if (o.threads > 0) c.pool = std::make_unique<native::ThreadPool>(o.threads);
  c.world = std::make_unique<World>(WorldDef{c.pool.get(), 0});
  World& w = *c.world;
  std::string msg;
  if (native::load_minecraft_blocks_dir(w, o.blocks, &msg) != Status::Ok) {
    std::fprintf(stderr, "crowd_bench: block registry %s: %s\n", o.blocks.c_str(), msg.c_str());
    return false;
  }
  LoadReport rep;
  if (native::load_world_file(w, o.region, LoadOptions{}, &rep) != Status::Ok) {
    std::fprintf(stderr, "crowd_bench: %s: %s\n", o.region.c_str(), rep.message.c_str());
    return false;
  }
  if (w.add_profile(Profile{}, &c.prof) != Status::Ok) return false;
  if (o.budget >= 0 && w.set_searches_per_update(o.budget) != Status::Ok) return false;
  (void)w.block_value("stone", &c.stone);
  (void)w.block_value("air", &c.air);
  w.update();
  std::size_t n = 0;
  if (w.island_cells(c.prof, nullptr, 0, &n) != Status::Ok) return false;
  std::vector<IslandCell> all(n);
  if (w.island_cells(c.prof, all.data(), all.size(), &n) != Status::Ok) return false;
  for (const IslandCell& ic : all)
    if (ic.island_size >= 500 && w.is_standable(c.prof, ic.cell)) c.cells.push_back(ic);
  if (c.cells.empty()) return false;
  for (int i = 0; i < n_agents; ++i) {
    const CellPos p = c.cells[rng.below(c.cells.size())].cell;
    double feet = 0;
    (void)w.standing_height(c.prof, p, &feet);
    AgentId id;
    if (w.add_agent(AgentDef{c.prof, Vec3{p.x + 0.5, feet, p.z + 0.5}}, &id) == Status::Ok)
      c.agents.push_back(id);
  }
  return true;
}

/// A goal on the agent's island within 48 cells (x and z): up to 64 draws from the spawn cells,
/// each checked with World::island_of (island ids are per navigation epoch, so none is kept).
bool new_goal(Crowd& c, Rng& rng, AgentId id) {
  AgentState s;
  std::uint32_t isl = 0, g_isl = 0;
  if (c.world->agent_state(id, &s) != Status::Ok ||
      c.world->island_of(c.prof, s.cell, &isl) != Status::Ok || isl == 0)
    return false;
  for (int k = 0; k < 64; ++k) {
    const CellPos g = c.cells[rng.below(c.cells.size())].cell;
    if (std::abs(g.x - s.cell.x) > 48 || std::abs(g.z - s.cell.z) > 48 || g == s.cell) continue;
    if (c.world->island_of(c.prof, g, &g_isl) != Status::Ok || g_isl != isl) continue;
    return c.world->set_agent_goal(id, g) == Status::Ok;
  }
  return false;
}

int run_burst(const Options& o) {
  Rng rng{o.seed};
  Crowd c;
  const int n = o.agents < 0 ? 10000 : o.agents;
  if (!setup(c, o, n, rng)) return 1;
  std::size_t goals = 0;
  for (AgentId id : c.agents) goals += new_goal(c, rng, id);
  std::printf("## Burst: %zu walkers given goals in one tick (budget %d searches per update%s, %d worker threads)\n\n",
              goals, c.world->searches_per_update(), c.world->searches_per_update() ? "" : ": no limit",
              o.threads);
  std::printf("| tick | ms | searches so far | queued after | planning after |\n|---:|---:|---:|---:|---:|\n");
  std::vector<double> ms;
  long t = 0;
  std::size_t planning = goals;
  const auto all0 = Clock::now();
  for (; t < o.max_ticks && planning > 0; ++t) {
    const auto t0 = Clock::now();
    (void)c.world->tick(0.05);
    ms.push_back(ms_since(t0));
    planning = 0;
    for (AgentId id : c.agents) {
      AgentState s;
      if (c.world->agent_state(id, &s) == Status::Ok && s.mode == AgentMode::Planning) ++planning;
    }
    std::printf("| %ld | %.1f | %llu | %zu | %zu |\n", t + 1, ms.back(),
                static_cast<unsigned long long>(c.world->stats().searches), c.world->queued_requests(),
                planning);
    std::fflush(stdout);
  }
  const double total = ms_since(all0);
  const auto worst = std::max_element(ms.begin(), ms.end());
  std::printf("\nsummary: agents=%zu budget=%d threads=%d ticks_to_plan=%ld largest_tick_ms=%.1f at_tick=%ld "
              "tick_sum_ms=%.1f wall_ms=%.1f searches=%llu planning_left=%zu\n",
              goals, c.world->searches_per_update(), o.threads, t, worst == ms.end() ? 0.0 : *worst,
              static_cast<long>(worst - ms.begin()) + 1, [&] { double s = 0; for (double v : ms) s += v; return s; }(),
              total, static_cast<unsigned long long>(c.world->stats().searches), planning);
  return 0;
}

int run_soak(const Options& o) {
  Rng rng{o.seed};
  Crowd c;
  const int n = o.agents < 0 ? 200 : o.agents;
  const long rss_before = vm_rss_kib();
  if (!setup(c, o, n, rng)) return 1;
  for (AgentId id : c.agents) (void)new_goal(c, rng, id);
  std::printf("## Soak: %d walkers, %ld ticks at 20 Hz, %.0f edits/s on corridor cells, each undone %ld ticks "
              "later (budget %d)\n\n",
              n, o.ticks, o.edits_per_second, o.undo_after, c.world->searches_per_update());
  std::printf("VmRSS before loading: %ld KiB\n\n", rss_before);
  std::printf("| tick | VmRSS (KiB) | change (KiB) | heap in use (KiB) | heap change (KiB) | mean tick (ms) | p99 tick (ms) | edits | arrivals | "
              "searches | search times kept | queued | door events | moving now | respawns |\n"
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  const long rss0 = vm_rss_kib();
  const long heap0 = heap_in_use_kib();
  std::printf("| 0 | %ld | 0 | %ld | 0 | - | - | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |\n", rss0, heap0);
  std::fflush(stdout);
  std::vector<double> window;
  std::vector<PathCell> path;
  double owed = 0;
  std::uint64_t edits = 0, arrivals = 0, respawns = 0;
  std::vector<std::uint32_t> last_arrivals(c.agents.size(), 0);
  struct Undo {
    long tick;
    CellPos cell;
    std::uint16_t value;
  };
  std::deque<Undo> undo;  // edits to take back, oldest first
  for (long t = 1; t <= o.ticks; ++t) {
    while (!undo.empty() && undo.front().tick <= t) {
      (void)c.world->set_block(undo.front().cell, undo.front().value);
      undo.pop_front();
    }
    owed += o.edits_per_second * 0.05;
    while (owed >= 1) {
      owed -= 1;
      for (int tries = 0; tries < 16; ++tries) {
        const AgentId id = c.agents[rng.below(c.agents.size())];
        AgentState s;
        std::size_t np = 0;
        if (c.world->agent_state(id, &s) != Status::Ok || s.mode != AgentMode::Moving ||
            c.world->agent_path_cells(id, nullptr, 0, &np) != Status::Ok || np < 4)
          continue;
        path.resize(np);
        (void)c.world->agent_path_cells(id, path.data(), path.size(), &np);
        const CellPos p = path[np / 2 + rng.below(np - np / 2)].cell;
        const bool block = edits % 2 == 0;
        const CellPos e = block ? p : CellPos{p.x, p.y - 1, p.z};
        std::uint16_t was = 0;
        if (c.world->get_block(e, &was) != Status::Ok || c.world->set_block(e, block ? c.stone : c.air) != Status::Ok)
          continue;
        undo.push_back({t + o.undo_after, e, was});
        ++edits;
        break;
      }
    }
    const auto t0 = Clock::now();
    (void)c.world->tick(0.05);
    window.push_back(ms_since(t0));
    for (std::size_t i = 0; i < c.agents.size(); ++i) {
      AgentState s;
      if (c.world->agent_state(c.agents[i], &s) != Status::Ok) continue;
      arrivals += s.arrivals - last_arrivals[i];
      last_arrivals[i] = s.arrivals;
      if ((s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed || s.mode == AgentMode::Blocked ||
           s.mode == AgentMode::Idle) &&
          !new_goal(c, rng, c.agents[i])) {
        // No goal from here (a walker that dropped into a pit it cannot climb out of ends on a
        // small island): respawn it on a spawn cell, as a game would, and send it on next tick.
        const CellPos p = c.cells[rng.below(c.cells.size())].cell;
        double feet = 0;
        (void)c.world->standing_height(c.prof, p, &feet);
        (void)c.world->teleport_agent(c.agents[i], Vec3{p.x + 0.5, feet, p.z + 0.5});
        ++respawns;
      }
    }
    // Door events are not expected on this region's walker routes; drain any, as a host would.
    DoorEvent ev[64];
    std::size_t got = 0;
    while (c.world->pending_door_events() > 0 && c.world->take_door_events(ev, 64, &got) == Status::Ok && got > 0) {
    }
    if (t % o.every == 0 || t == o.ticks) {
      double mean = 0;
      for (double v : window) mean += v;
      mean /= window.empty() ? 1.0 : double(window.size());
      const long rss = vm_rss_kib();
      const long heap = heap_in_use_kib();
      std::size_t moving = 0;
      for (AgentId id : c.agents) {
        AgentState s;
        moving += c.world->agent_state(id, &s) == Status::Ok && s.mode == AgentMode::Moving;
      }
      std::printf("| %ld | %ld | %+ld | %ld | %+ld | %.2f | %.2f | %llu | %llu | %llu | %zu | %zu | %zu | %zu | %llu |\n", t, rss, rss - rss0,
                  heap, heap - heap0, mean, pct(window, 0.99), static_cast<unsigned long long>(edits),
                  static_cast<unsigned long long>(arrivals),
                  static_cast<unsigned long long>(c.world->stats().searches), c.world->search_times_us().size(),
                  c.world->queued_requests(), c.world->pending_door_events(), moving,
                  static_cast<unsigned long long>(respawns));
      std::fflush(stdout);
      window.clear();
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "crowd_bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--burst") o.burst = true;
    else if (a == "--soak") o.soak = true;
    else if (a == "--agents") o.agents = std::stoi(next());
    else if (a == "--budget") o.budget = std::stoi(next());
    else if (a == "--threads") o.threads = std::stoi(next());
    else if (a == "--ticks") o.ticks = std::stol(next());
    else if (a == "--every") o.every = std::max(1L, std::stol(next()));
    else if (a == "--max-ticks") o.max_ticks = std::stol(next());
    else if (a == "--edits-per-second") o.edits_per_second = std::stod(next());
    else if (a == "--seed") o.seed = std::stoull(next());
    else if (a == "--undo-after") o.undo_after = std::max(1L, std::stol(next()));
    else if (a == "--region") o.region = next();
    else if (a == "--blocks") o.blocks = next();
    else {
      std::fprintf(stderr,
                   "usage: crowd_bench --burst [--agents N] [--budget B] [--threads K] [--seed S] [--max-ticks T]\n"
                   "       crowd_bench --soak [--agents N] [--ticks T] [--every K] [--edits-per-second E]\n"
                   "                   [--undo-after U] [--budget B] [--seed S]\n"
                   "       both: [--region FILE] [--blocks DIR]\n");
      return 2;
    }
  }
  if (o.burst == o.soak) {
    std::fprintf(stderr, "crowd_bench: give --burst or --soak\n");
    return 2;
  }
  return o.burst ? run_burst(o) : run_soak(o);
}
