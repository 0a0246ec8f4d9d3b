// voxnav run [WORLD]: the main job. Walker agents go to random reachable goals (again on arrival)
// on a real world at 20 Hz while blocks change near their corridors; prints a summary.
//
// voxnav run --script FILE: a scripted scenario instead (fixed agents, goals and edits at fixed
// ticks, see run_script below) that the wasm package replays message for message; prints the
// state hash (voxnav/state_hash.h) at its checkpoints and at the end.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli_common.h"
#include "cli_stuck.h"
#include "tools/splitmix.h"
#include "voxnav/native/files.h"
#include "voxnav/native/scenario.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/state_hash.h"

namespace voxnav::cli {

namespace {

// The tools' seeded generator (tools/splitmix.h): the same seed gives the same numbers everywhere,
// so runs keep their choices.
using Rng = tools::SplitMix64;

/// Every standable cell on an island of the profile's navigation (World::island_cells).
std::vector<IslandCell> all_island_cells(const World& world, ProfileId prof) {
  std::size_t n = 0;
  (void)world.island_cells(prof, nullptr, 0, &n);
  std::vector<IslandCell> cells(n);
  (void)world.island_cells(prof, cells.data(), cells.size(), &n);
  cells.resize(std::min(n, cells.size()));
  return cells;
}

struct Options {
  std::string world;
  int agents = 200;
  int ticks = 1200;
  std::uint64_t seed = 1;
  double edits_per_second = 2.0;
  int threads = 2;
  // World::set_searches_per_update (0: no limit); the World's default unless given.
  int searches_per_update = kDefaultSearchesPerUpdate;
  bool json = false;
  std::string script;
  std::string nav;  ///< --nav FILE: saved navigation imported instead of built
};

std::uint64_t fnv(std::uint64_t h, const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}

std::string hex64(std::uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

// A scripted scenario (JSON, voxnav/native/scenario.h; examples/web/scenario.json is the one the
// tests use).
// Replay order: the profile, then the swimmers' profile; every agent is added (in order, the
// swimmers after the others), then every goal set (in the same order); then for each tick
// t = 0 .. ticks-1: the edits of tick t (in order), then world.tick(dt). The wasm side does the
// same through the server worker's messages (examples/web/scenario.mjs).
bool read_script(const std::string& path, native::Scenario& out, std::string& err) {
  std::vector<std::uint8_t> bytes;
  if (native::read_file(path, bytes, &err) != Status::Ok) return false;
  return native::parse_scenario_json(bytes, &out, &err) == Status::Ok;
}

int run_script(const Options& o) {
  native::Scenario sc;
  std::string err;
  if (!read_script(o.script, sc, err)) {
    std::fprintf(stderr, "voxnav run: script %s: %s\n", o.script.c_str(), err.c_str());
    return 2;
  }
  const std::string world_path = !o.world.empty() ? o.world : data_dir() + "/worlds/" + sc.world;
  std::unique_ptr<native::ThreadPool> pool;
  if (o.threads > 0) pool = std::make_unique<native::ThreadPool>(o.threads);
  World world(WorldDef{pool.get(), 0});
  if (world.set_searches_per_update(o.searches_per_update) != Status::Ok) return 2;
  LoadReport report;
  if (!load_world_nav(world, world_path, o.nav, report, nullptr, nullptr)) return 1;
  Profile p;
  std::string warn;
  ProfileId prof, swim_prof;
  if (parse_profile_json(sc.profile_json, p, &err, &warn, "script profile") != Status::Ok ||
      world.add_profile(p, &prof, &err) != Status::Ok) {
    std::fprintf(stderr, "voxnav run: script %s: %s\n", o.script.c_str(), err.c_str());
    return 2;
  }
  if (!sc.swimmer_json.empty() && (parse_profile_json(sc.swimmer_json, p, &err, &warn,
                                                      "script swimmers.profile") != Status::Ok ||
                                   world.add_profile(p, &swim_prof, &err) != Status::Ok)) {
    std::fprintf(stderr, "voxnav run: script %s: %s\n", o.script.c_str(), err.c_str());
    return 2;
  }
  const std::size_t walkers = sc.feet.size() - sc.swimmers;
  std::vector<AgentId> agents(sc.feet.size());
  for (std::size_t i = 0; i < sc.feet.size(); ++i) {
    if (world.add_agent(AgentDef{i < walkers ? prof : swim_prof, sc.feet[i]}, &agents[i]) !=
        Status::Ok) {
      std::fprintf(stderr, "voxnav run: script %s: %s[%zu] was refused\n", o.script.c_str(),
                   i < walkers ? "agents" : "swimmers.agents", i < walkers ? i : i - walkers);
      return 1;
    }
  }
  StuckWatch watch(agents.size(), sc.dt);
  for (std::size_t i = 0; i < agents.size(); ++i) {
    (void)world.set_agent_goal(agents[i], sc.goals[i]);
    watch.goal(i, sc.goals[i], sc.feet[i], 0);
  }
  std::vector<std::uint16_t> values(sc.edits.size());
  for (std::size_t i = 0; i < sc.edits.size(); ++i) {
    if (world.block_value(sc.edits[i].block, &values[i]) != Status::Ok) {
      std::fprintf(stderr,
                   "voxnav run: script %s: edits[%zu].block \"%s\" is not in the block registry\n",
                   o.script.c_str(), i, sc.edits[i].block.c_str());
      return 2;
    }
  }
  std::vector<std::pair<int, std::uint64_t>> marks;
  std::size_t next_edit = 0, applied = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int t = 0; t < sc.ticks; ++t) {
    for (; next_edit < sc.edits.size() && sc.edits[next_edit].tick == t; ++next_edit)
      if (world.set_block(sc.edits[next_edit].cell, values[next_edit]) == Status::Ok) ++applied;
    (void)world.tick(sc.dt);
    for (std::size_t i = 0; i < agents.size(); ++i) {
      AgentState s;
      if (world.agent_state(agents[i], &s) == Status::Ok) watch.observe(i, s, t + 1);
    }
    if (std::find(sc.checkpoints.begin(), sc.checkpoints.end(), t + 1) != sc.checkpoints.end()) {
      std::uint64_t h = 0;
      (void)state_hash(world, agents, &h);
      marks.emplace_back(t + 1, h);
    }
  }
  const double run_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::uint64_t hash = 0;
  (void)state_hash(world, agents, &hash);
  std::uint64_t arrivals = 0, replans = 0, repairs = 0, swimmer_arrivals = 0, push_outs = 0;
  int moving = 0, blocked = 0;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    AgentState s;
    if (world.agent_state(agents[i], &s) != Status::Ok) continue;
    arrivals += s.arrivals;
    if (i >= walkers) swimmer_arrivals += s.arrivals;
    replans += s.replans;
    repairs += s.repairs;
    push_outs += s.push_outs;
    moving += s.mode == AgentMode::Moving;
    blocked += s.mode == AgentMode::Blocked;
  }
  const std::vector<StuckWatch::Entry> stuck = watch.stuck(world, agents, sc.ticks);
  const WorldStats ws = world.stats();
  if (o.json) {
    std::printf(
        "{\"script\":\"%s\",\"world\":\"%s\",\"agents\":%zu,\"ticks\":%d,\"edits\":%zu,"
        "\"edits_applied\":%zu,\"threads\":%d,\"searches\":%llu,\"arrivals\":%llu,"
        "\"replans\":%llu,\"repairs\":%llu,\"moving\":%d,\"swimmers\":%zu,\"swimmer_arrivals\":%llu,"
        "\"run_ms\":%.1f,\"push_outs\":%llu,\"blocked_now\":%d,\"stuck_after_s\":%g,"
        "\"stuck_now\":%zu,\"stuck_in_place\":%zu,\"stuck\":[",
        json_escape(o.script).c_str(), json_escape(world_path).c_str(), agents.size(), sc.ticks,
        sc.edits.size(), applied, o.threads, static_cast<unsigned long long>(ws.searches),
        static_cast<unsigned long long>(arrivals), static_cast<unsigned long long>(replans),
        static_cast<unsigned long long>(repairs), moving, sc.swimmers, static_cast<unsigned long long>(swimmer_arrivals), run_ms,
        static_cast<unsigned long long>(push_outs), blocked, StuckWatch::kStuckSeconds,
        stuck.size(), in_place_count(stuck));
    for (std::size_t i = 0; i < stuck.size(); ++i)
      std::printf("%s\"%s\"", i ? "," : "", json_escape(stuck_text(stuck[i])).c_str());
    std::printf("],\"stuck_agents\":%s,\"checkpoints\":[", stuck_json(stuck).c_str());
    for (std::size_t i = 0; i < marks.size(); ++i)
      std::printf("%s{\"tick\":%d,\"hash\":\"%s\"}", i ? "," : "", marks[i].first,
                  hex64(marks[i].second).c_str());
    std::printf("],\"state_hash\":\"%s\"}\n", hex64(hash).c_str());
  } else {
    std::printf("script       %s on %s\n", o.script.c_str(), world_path.c_str());
    std::printf(
        "run          %zu agents (%zu swimmers), %d ticks, %zu of %zu edits applied, %d threads, "
        "%.0f ms\n",
        agents.size(), sc.swimmers, sc.ticks, applied, sc.edits.size(), o.threads, run_ms);
    std::printf("agents       searches %llu, arrivals %llu, replans %llu, moving at the end %d\n",
                static_cast<unsigned long long>(ws.searches),
                static_cast<unsigned long long>(arrivals), static_cast<unsigned long long>(replans),
                moving);
    std::printf(
        "stuck        %zu agents without progress toward their goal for %g s or more at the end, "
        "%zu of them in place (%d blocked, %llu bodies pushed out of blocks)\n",
        stuck.size(), StuckWatch::kStuckSeconds, in_place_count(stuck), blocked,
        static_cast<unsigned long long>(push_outs));
    for (const StuckWatch::Entry& e : stuck) std::printf("  %s\n", stuck_text(e).c_str());
    for (const auto& [tick, h] : marks)
      std::printf("checkpoint   tick %d: %s\n", tick, hex64(h).c_str());
    std::printf("state hash   %s (positions and corridors; the wasm build gives the same)\n",
                hex64(hash).c_str());
  }
  return 0;
}

}  // namespace

int cmd_run(int argc, char** argv) {
  Options o;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](double& v, double lo, double hi) {
      if (i + 1 >= argc) return false;
      char* end = nullptr;
      const char* text = argv[++i];
      v = std::strtod(text, &end);
      // (an empty value parses as 0 with nothing read: refused, not taken as 0)
      return end != text && *end == '\0' && v >= lo && v <= hi;
    };
    double v = 0;
    if (a == "--agents") {
      if (!next(v, 0, 100000))
        return std::fprintf(stderr, "voxnav run: --agents expects 0..100000\n"), 2;
      o.agents = static_cast<int>(v);
    } else if (a == "--ticks") {
      if (!next(v, 0, 10000000))
        return std::fprintf(stderr, "voxnav run: --ticks expects 0..10^7\n"), 2;
      o.ticks = static_cast<int>(v);
    } else if (a == "--seed") {
      if (!next(v, 0, 1e15))
        return std::fprintf(stderr, "voxnav run: --seed expects a non-negative integer\n"), 2;
      o.seed = static_cast<std::uint64_t>(v);
    } else if (a == "--edits-per-second") {
      if (!next(v, 0, 10000))
        return std::fprintf(stderr, "voxnav run: --edits-per-second expects 0..10000\n"), 2;
      o.edits_per_second = v;
    } else if (a == "--threads") {
      if (!next(v, 0, native::ThreadPool::kMaxThreads) || v != std::floor(v))
        return std::fprintf(stderr, "voxnav run: --threads expects 0..%d (0 = synchronous)\n",
                            native::ThreadPool::kMaxThreads),
               2;
      o.threads = static_cast<int>(v);
    } else if (a == "--searches-per-update") {
      if (!next(v, 0, World::kMaxSearchesPerUpdate) || v != std::floor(v))
        return std::fprintf(stderr,
                            "voxnav run: --searches-per-update expects 0..%d (0 = no limit)\n",
                            World::kMaxSearchesPerUpdate),
               2;
      o.searches_per_update = static_cast<int>(v);
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--script") {
      if (i + 1 >= argc) return std::fprintf(stderr, "voxnav run: --script expects a file\n"), 2;
      o.script = argv[++i];
    } else if (a == "--nav") {
      if (i + 1 >= argc) return std::fprintf(stderr, "voxnav run: --nav expects a file\n"), 2;
      o.nav = argv[++i];
    } else if (o.world.empty() && a[0] != '-') {
      o.world = a;
    } else {
      std::fprintf(stderr, "voxnav run: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (!o.script.empty()) return run_script(o);
  if (o.world.empty())
    o.world = data_dir() + "/worlds/r.0.-1.mca";  // Minecraft 1.16, 253 full chunks

  std::unique_ptr<native::ThreadPool> pool;
  if (o.threads > 0) pool = std::make_unique<native::ThreadPool>(o.threads);
  World world(WorldDef{pool.get(), 0});
  if (world.set_searches_per_update(o.searches_per_update) != Status::Ok) return 2;
  LoadReport report;
  double build_ms = 0;
  const auto load0 = std::chrono::steady_clock::now();
  if (!load_world_nav(world, o.world, o.nav, report, &build_ms, nullptr)) return 1;
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load0).count() -
      build_ms;
  ProfileId prof;
  if (!add_profile(world, "", prof)) return 1;

  // Spawn cells: standable cells of islands big enough to walk around in (deterministic order):
  // 500+ cells, or half the largest island's size on worlds with little dry land.
  std::vector<IslandCell> listed = all_island_cells(world, prof);
  std::uint32_t largest = 0;
  for (const IslandCell& c : listed) largest = std::max(largest, c.island_size);
  const std::uint32_t min_island =
      std::max<std::uint32_t>(2, std::min<std::uint32_t>(500, largest / 2));
  std::vector<CellPos> spawn;
  for (const IslandCell& c : listed)
    if (c.island_size >= min_island) spawn.push_back(c.cell);
  if (spawn.empty() && o.agents > 0) {
    std::fprintf(stderr,
                 "voxnav run: the world has no island of 2+ standable cells to spawn agents in\n");
    return 1;
  }
  Rng rng{o.seed * 0x2545F4914F6CDD1Dull + 1};
  std::uint16_t stone = 0;
  (void)world.block_value("stone", &stone);

  std::vector<AgentId> agents;
  for (int i = 0; i < o.agents; ++i) {
    const CellPos c = spawn[static_cast<std::size_t>(rng.next() % spawn.size())];
    double feet = 0;
    (void)world.standing_height(prof, CellPos{c.x, c.y, c.z}, &feet);
    AgentId id;
    if (world.add_agent(AgentDef{prof, Vec3{c.x + 0.5, feet, c.z + 0.5}}, &id) == Status::Ok)
      agents.push_back(id);
  }

  std::uint64_t reach_yes = 0, reach_no = 0, reach_unknown = 0, goals = 0, goal_misses = 0;
  // Cells of each island (strongly connected component), rebuilt whenever the epoch moves.
  std::vector<std::vector<CellPos>> island_cells;
  std::uint64_t island_epoch = 0;
  auto refresh_islands = [&] {
    if (island_epoch == world.nav_epoch()) return;
    island_epoch = world.nav_epoch();
    listed = all_island_cells(world, prof);
    std::uint32_t bound = 0;
    for (const IslandCell& c : listed) bound = std::max(bound, c.island);
    island_cells.assign(bound + 1, {});
    for (const IslandCell& c : listed) island_cells[c.island].push_back(c.cell);
  };
  // A goal: a random cell of the agent's own island, preferably within 48 cells (x/z); the
  // reachability answer is asked (and counted) for it as a game's brain would.
  StuckWatch watch(agents.size(), 1.0 / 20.0);
  int tick_now = 0;
  auto pick_goal = [&](std::size_t index) {
    const AgentId id = agents[index];
    AgentState s;
    if (world.agent_state(id, &s) != Status::Ok) return;
    const CellPos from = s.cell;
    refresh_islands();
    std::uint32_t comp = 0;
    (void)world.island_of(prof, from, &comp);
    if (comp == 0 || comp >= island_cells.size() || island_cells[comp].size() < 2) {
      ++goal_misses;
      return;
    }
    const std::vector<CellPos>& cells = island_cells[comp];
    CellPos g = cells[static_cast<std::size_t>(rng.next() % cells.size())];
    for (int attempt = 0; attempt < 16; ++attempt) {
      if (std::abs(g.x - from.x) <= 48 && std::abs(g.z - from.z) <= 48 && !(g == from)) break;
      g = cells[static_cast<std::size_t>(rng.next() % cells.size())];
    }
    const Reach r = world.reachable(prof, CellPos{from.x, from.y, from.z}, CellPos{g.x, g.y, g.z});
    if (r.answer == ReachAnswer::Yes)
      ++reach_yes;
    else if (r.answer == ReachAnswer::No)
      ++reach_no;
    else
      ++reach_unknown;
    if (r.answer == ReachAnswer::No) {
      ++goal_misses;
      return;
    }
    (void)world.set_agent_goal(id, CellPos{g.x, g.y, g.z});
    watch.goal(index, g, s.feet, tick_now);
    ++goals;
  };
  for (std::size_t i = 0; i < agents.size(); ++i) pick_goal(i);

  const double dt = 1.0 / 20.0;
  double edit_budget = 0;
  std::uint64_t edits = 0, stuck_events = 0, failed_events = 0;
  std::vector<double> tick_ms, maintenance_us;
  tick_ms.reserve(static_cast<std::size_t>(o.ticks));
  std::vector<std::string> stuck_reasons;
  std::vector<AgentMode> last_mode(agents.size(), AgentMode::Planning);
  std::vector<PathCell> path;
  for (int t = 0; t < o.ticks; ++t) {
    // Random edits near corridors: block a corridor cell, or dig out the ground under one.
    edit_budget += o.edits_per_second * dt;
    while (edit_budget >= 1.0 && !agents.empty()) {
      edit_budget -= 1.0;
      const AgentId id =
          agents[static_cast<std::size_t>(rng.below(static_cast<int>(agents.size())))];
      std::size_t ncells = 0;
      if (world.agent_path_cells(id, nullptr, 0, &ncells) != Status::Ok || ncells == 0) continue;
      path.resize(ncells);
      (void)world.agent_path_cells(id, path.data(), path.size(), &ncells);
      const CellPos c = path[static_cast<std::size_t>(rng.below(static_cast<int>(path.size())))].cell;
      const CellPos e{c.x + rng.below(3) - 1, c.y + (rng.below(2) ? 0 : -1),
                           c.z + rng.below(3) - 1};
      const std::uint16_t value = e.y == c.y ? stone : 0;
      if (world.set_block(CellPos{e.x, e.y, e.z}, value) == Status::Ok) ++edits;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t runs0 = world.stats().maintenance_runs;
    (void)world.tick(dt);
    tick_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    if (const WorldStats ws = world.stats(); ws.maintenance_runs != runs0)
      // layers, islands and the agents' corridor checks
      maintenance_us.push_back(ws.last_maintenance_ms * 1000.0 + ws.last_edit_check_us);
    tick_now = t + 1;
    for (std::size_t i = 0; i < agents.size(); ++i) {
      AgentState s;
      if (world.agent_state(agents[i], &s) != Status::Ok) continue;
      watch.observe(i, s, tick_now);
      if (s.mode != last_mode[i]) {
        if (s.mode == AgentMode::Blocked) {
          ++stuck_events;
          std::string why;
          (void)world.agent_reason(agents[i], &why);
          if (stuck_reasons.size() < 10)
            stuck_reasons.push_back("agent " + std::to_string(i) + ": " + why);
        }
        if (s.mode == AgentMode::Failed) ++failed_events;
        last_mode[i] = s.mode;
      }
      if (s.mode == AgentMode::Arrived || s.mode == AgentMode::Failed ||
          s.mode == AgentMode::Idle || s.mode == AgentMode::Blocked)
        pick_goal(i);
    }
  }

  // Summary.
  std::uint64_t arrivals = 0, replans = 0, repairs = 0, requests = 0, hash = 0xcbf29ce484222325ull;
  int agents_arrived = 0, blocked_now = 0, arrived_twice = 0;
  std::uint64_t push_outs = 0;
  for (std::size_t i = 0; i < agents.size(); ++i) {
    AgentState s;
    if (world.agent_state(agents[i], &s) != Status::Ok) continue;
    arrivals += s.arrivals;
    replans += s.replans;
    repairs += s.repairs;
    requests += s.requests;
    agents_arrived += s.arrivals > 0;
    arrived_twice += s.arrivals > 1;
    blocked_now += s.mode == AgentMode::Blocked;
    push_outs += s.push_outs;
    hash = fnv(hash, &s.feet, sizeof s.feet);
    hash = fnv(hash, &s.arrivals, sizeof s.arrivals);
  }
  const std::vector<StuckWatch::Entry> stuck = watch.stuck(world, agents, o.ticks);
  const int stuck_now = static_cast<int>(stuck.size());
  const WorldStats ws = world.stats();
  const std::span<const double> times = world.search_times_us();
  const std::vector<double> search_us(times.begin(), times.end());
  double tick_sum = 0;
  for (double x : tick_ms) tick_sum += x;
  const double tick_mean = tick_ms.empty() ? 0 : tick_sum / tick_ms.size();
  if (o.json) {
    std::printf(
        "{\"world\":\"%s\",\"format\":\"%s\",\"chunks\":%zu,\"unknown_blocks\":%llu,"
        "\"load_ms\":%.1f,\"nav_build_ms\":%.1f,\"standable_cells\":%llu,\"islands\":%llu,"
        "\"agents\":%zu,\"ticks\":%d,\"seed\":%llu,\"edits\":%llu,\"requests\":%llu,"
        "\"reach\":{\"yes\":%llu,\"no\":%llu,\"unknown\":%llu},\"goals\":%llu,"
        "\"searches\":%llu,\"nodes_expanded\":%llu,\"search_us_p50\":%.1f,\"search_us_p99\":%.1f,"
        "\"arrivals\":%llu,\"agents_arrived\":%d,\"agents_arrived_twice\":%d,\"replans\":%llu,"
        "\"repairs\":%llu,\"edit_maintenance_us_p50\":%.1f,\"edit_maintenance_us_p99\":%.1f,"
        "\"stuck_events\":%llu,\"blocked_now\":%d,\"push_outs\":%llu,\"stuck_after_s\":%g,"
        "\"stuck_now\":%d,\"stuck_in_place\":%zu,\"failed_events\":%llu,"
        "\"tick_ms_mean\":%.3f,\"tick_ms_p99\":%.3f,\"state_hash\":\"%016llx\",\"stuck\":[",
        json_escape(o.world).c_str(), report.format.c_str(), report.chunks_loaded,
        static_cast<unsigned long long>(report.unknown_blocks), load_ms, build_ms,
        static_cast<unsigned long long>(ws.standable_cells),
        static_cast<unsigned long long>(ws.islands), agents.size(), o.ticks,
        static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(edits),
        static_cast<unsigned long long>(requests), static_cast<unsigned long long>(reach_yes),
        static_cast<unsigned long long>(reach_no), static_cast<unsigned long long>(reach_unknown),
        static_cast<unsigned long long>(goals), static_cast<unsigned long long>(ws.searches),
        static_cast<unsigned long long>(ws.nodes_expanded), percentile(search_us, 50),
        percentile(search_us, 99), static_cast<unsigned long long>(arrivals), agents_arrived,
        arrived_twice, static_cast<unsigned long long>(replans),
        static_cast<unsigned long long>(repairs), percentile(maintenance_us, 50),
        percentile(maintenance_us, 99), static_cast<unsigned long long>(stuck_events), blocked_now,
        static_cast<unsigned long long>(push_outs), StuckWatch::kStuckSeconds, stuck_now,
        in_place_count(stuck),
        static_cast<unsigned long long>(failed_events), tick_mean, percentile(tick_ms, 99),
        static_cast<unsigned long long>(hash));
    for (std::size_t i = 0; i < stuck.size(); ++i)
      std::printf("%s\"%s\"", i ? "," : "", json_escape(stuck_text(stuck[i])).c_str());
    std::printf("],\"stuck_agents\":%s}\n", stuck_json(stuck).c_str());
  } else {
    std::printf(
        "world        %s (%s): %zu chunks, loaded in %.0f ms, navigation built in %.0f ms\n",
        o.world.c_str(), report.format.c_str(), report.chunks_loaded, load_ms, build_ms);
    std::printf("navigation   %llu standable cells, %llu islands\n",
                static_cast<unsigned long long>(ws.standable_cells),
                static_cast<unsigned long long>(ws.islands));
    std::printf(
        "run          %zu agents, %d ticks (%.1f s at 20 Hz), seed %llu, %llu block edits\n",
        agents.size(), o.ticks, o.ticks * dt, static_cast<unsigned long long>(o.seed),
        static_cast<unsigned long long>(edits));
    std::printf(
        "reachable    yes %llu, no %llu, unknown %llu (goal picks: %llu, misses %llu)\n",
        static_cast<unsigned long long>(reach_yes), static_cast<unsigned long long>(reach_no),
        static_cast<unsigned long long>(reach_unknown), static_cast<unsigned long long>(goals),
        static_cast<unsigned long long>(goal_misses));
    std::printf(
        "requests     %llu (searches %llu), nodes expanded %llu, search time p50 %.1f us, p99 %.1f "
        "us\n",
        static_cast<unsigned long long>(requests), static_cast<unsigned long long>(ws.searches),
        static_cast<unsigned long long>(ws.nodes_expanded), percentile(search_us, 50),
        percentile(search_us, 99));
    std::printf(
        "agents       arrivals %llu, arrived at least once %d, twice or more %d, replans %llu, "
        "local repairs %llu\n",
        static_cast<unsigned long long>(arrivals), agents_arrived, arrived_twice,
        static_cast<unsigned long long>(replans), static_cast<unsigned long long>(repairs));
    std::printf(
        "edits        maintenance per tick with edits (layers, islands, corridor checks and "
        "repairs): "
        "p50 %.1f us, p99 %.1f us\n",
        percentile(maintenance_us, 50), percentile(maintenance_us, 99));
    std::printf(
        "stuck        %d agents without progress toward their goal for %g s or more at the end, "
        "%zu of them in place\n",
        stuck_now, StuckWatch::kStuckSeconds, in_place_count(stuck));
    for (const StuckWatch::Entry& e : stuck) std::printf("  %s\n", stuck_text(e).c_str());
    std::printf(
        "blocked      %llu blocked events, %d blocked at the end, %llu failed requests, %llu bodies "
        "pushed out of blocks\n",
        static_cast<unsigned long long>(stuck_events), blocked_now,
        static_cast<unsigned long long>(failed_events), static_cast<unsigned long long>(push_outs));
    for (const std::string& r : stuck_reasons) std::printf("  %s\n", r.c_str());
    std::printf("tick         mean %.3f ms, p99 %.3f ms, max %.3f ms (wall time)\n", tick_mean,
                percentile(tick_ms, 99),
                tick_ms.empty() ? 0.0 : *std::max_element(tick_ms.begin(), tick_ms.end()));
    std::printf("state hash   %016llx (same seed, same hash)\n",
                static_cast<unsigned long long>(hash));
  }
  return 0;
}

}  // namespace voxnav::cli
