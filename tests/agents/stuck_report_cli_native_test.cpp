// `voxnav run --script ... --json` counts the agents that have not moved toward their goal for
// 5 s of simulated time (stuck_now, stuck, stuck_agents), and the count is what a position trace
// shows. A scripted scene on the shipped region: agent 0 walled in by edits at its start (Blocked,
// "embedded"), agent 1 with stone put in its head cell on the way (pushed out, walks on), agent 2
// untouched. The test runs the CLI, replays the same script through the C++ API recording every
// agent's feet after every tick, computes the stuck set from that trace itself, and compares.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "test_support.h"
#include "voxnav/native/files.h"
#include "voxnav/native/scenario.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using nlohmann::json;

const std::string kBlocks = std::string(VOXNAV_FIXTURES) + "/../../data/blocks";
constexpr int kTicks = 300;        // 15 s at 20 Hz
constexpr int kStuckTicks = 100;   // 5 s: the threshold `voxnav run` states (stuck_after_s)
constexpr double kProgress = 0.5;  // metres closer to the goal that count as progress

struct Agent {
  Vec3 feet;
  CellPos goal;
};
// Walkers of examples/web/scenario.json (standable starts on the shipped region).
const Agent kAgents[] = {{{288.5, 68, -174.5}, {290, 63, -140}},
                         {{342.5, 64, -130.5}, {324, 64, -154}},
                         {{218.5, 72, -130.5}, {254, 75, -108}}};

// Agent 0 walled in: every cell within 2 of its foot cell (288, 68, -175) filled with stone before
// the first tick (no standable cell within kEmbeddedPushRadius).
std::vector<native::ScenarioEdit> walls_of_agent0() {
  std::vector<native::ScenarioEdit> edits;
  const CellPos f0{288, 68, -175};
  for (int y = f0.y - 2; y <= f0.y + 2; ++y)
    for (int z = f0.z - 2; z <= f0.z + 2; ++z)
      for (int x = f0.x - 2; x <= f0.x + 2; ++x) edits.push_back({0, CellPos{x, y, z}, "stone"});
  return edits;
}

std::string script_json(const std::vector<native::ScenarioEdit>& edits) {
  json j;
  j["world"] = "r.0.-1.mca";
  j["profile"] = {{"id", "walker"}};
  j["dt"] = 0.05;
  j["ticks"] = kTicks;
  j["agents"] = json::array();
  for (const Agent& a : kAgents)
    j["agents"].push_back({{"feet", {a.feet.x, a.feet.y, a.feet.z}},
                           {"goal", {a.goal.x, a.goal.y, a.goal.z}}});
  j["edits"] = json::array();
  for (const native::ScenarioEdit& e : edits)
    j["edits"].push_back(
        {{"tick", e.tick}, {"cell", {e.cell.x, e.cell.y, e.cell.z}}, {"block", e.block}});
  j["checkpoints"] = {kTicks};
  return j.dump();
}

struct Replay {
  std::unique_ptr<World> world = std::make_unique<World>();
  std::vector<AgentId> ids;
  std::vector<std::vector<AgentState>> trace;  ///< [tick][agent] after each tick
  std::uint64_t hash = 0;
};

// Replays the script the way `voxnav run --script` does: profile, agents, goals, then per tick
// the edits of that tick and one World::tick. Stops after `ticks` ticks.
Replay replay(const std::vector<native::ScenarioEdit>& edits, int ticks) {
  Replay r;
  World& w = *r.world;
  std::string msg;
  EXPECT_EQ(native::load_minecraft_blocks_dir(w, kBlocks, &msg), Status::Ok) << msg;
  LoadReport rep;
  EXPECT_EQ(native::load_world_file(w, test::repo_region(), LoadOptions{}, &rep), Status::Ok)
      << rep.message;
  w.update();
  Profile p;
  EXPECT_EQ(parse_profile_json("{\"id\":\"walker\"}", p, &msg, nullptr, ""), Status::Ok);
  ProfileId pid;
  EXPECT_EQ(w.add_profile(p, &pid), Status::Ok);
  for (const Agent& a : kAgents) {
    AgentId id;
    EXPECT_EQ(w.add_agent(AgentDef{pid, a.feet}, &id), Status::Ok);
    r.ids.push_back(id);
  }
  for (std::size_t i = 0; i < r.ids.size(); ++i)
    EXPECT_EQ(w.set_agent_goal(r.ids[i], kAgents[i].goal), Status::Ok);
  std::uint16_t stone = 0;
  EXPECT_EQ(w.block_value("stone", &stone), Status::Ok);
  std::size_t next = 0;
  for (int t = 0; t < ticks; ++t) {
    for (; next < edits.size() && edits[next].tick == t; ++next)
      (void)w.set_block(edits[next].cell, stone);
    (void)w.tick(0.05);
    std::vector<AgentState> now(r.ids.size());
    for (std::size_t i = 0; i < r.ids.size(); ++i) EXPECT_EQ(w.agent_state(r.ids[i], &now[i]), Status::Ok);
    r.trace.push_back(std::move(now));
  }
  EXPECT_EQ(state_hash(w, r.ids, &r.hash), Status::Ok);
  return r;
}

double dist(const Vec3& f, const CellPos& g) {
  const double dx = f.x - (g.x + 0.5), dy = f.y - g.y, dz = f.z - (g.z + 0.5);
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// The agents that, at the end of the trace, have a goal not reached and have not come 0.5 m
// closer to it than their best for the last 100 ticks (5 s).
std::set<std::size_t> stuck_from_trace(const Replay& r, std::set<std::size_t>* in_place) {
  std::set<std::size_t> out;
  for (std::size_t i = 0; i < r.ids.size(); ++i) {
    double best = dist(kAgents[i].feet, kAgents[i].goal);
    int last_progress = 0;
    std::uint32_t arrivals = 0;
    Vec3 at = kAgents[i].feet;
    double farthest = 0;  // from `at`, since the last progress
    for (std::size_t t = 0; t < r.trace.size(); ++t) {
      const AgentState& s = r.trace[t][i];
      const double d = dist(s.feet, kAgents[i].goal);
      const double ax = s.feet.x - at.x, ay = s.feet.y - at.y, az = s.feet.z - at.z;
      farthest = std::max(farthest, std::sqrt(ax * ax + ay * ay + az * az));
      if (s.mode == AgentMode::Arrived || s.arrivals != arrivals || d <= best - kProgress) {
        best = d;
        last_progress = static_cast<int>(t) + 1;
        arrivals = s.arrivals;
        at = s.feet;
        farthest = 0;
      }
    }
    const AgentState& end = r.trace.back()[i];
    if (end.mode != AgentMode::Arrived &&
        static_cast<int>(r.trace.size()) - last_progress >= kStuckTicks) {
      out.insert(i);
      if (farthest < 2.0) in_place->insert(i);  // `voxnav run`'s "in place": within 2 m
    }
  }
  return out;
}

std::string run_cli(const std::string& args) {
  const test::CliRun r = test::run_cli(args, /*stderr_too=*/false);
  EXPECT_EQ(r.code, 0) << args;
  return r.out;
}

TEST(StuckReportCli, TheStuckSetIsWhatThePositionTraceShows) {
  // Agent 1's head cell after 40 ticks (a replay of those ticks), filled at tick 40.
  std::vector<native::ScenarioEdit> edits = walls_of_agent0();
  const Replay first = replay(edits, 40);
  const AgentState& a1 = first.trace.back()[1];
  ASSERT_EQ(a1.mode, AgentMode::Moving);
  const CellPos head{static_cast<int>(std::floor(a1.feet.x)),
                     static_cast<int>(std::floor(a1.feet.y + 1e-3)) + 1,
                     static_cast<int>(std::floor(a1.feet.z))};
  edits.push_back({40, head, "stone"});
  const std::string path = ::testing::TempDir() + "stuck_report_cli_script.json";
  {
    std::ofstream f(path);
    f << script_json(edits);
  }
  const std::string text =
      run_cli("run " + test::repo_region() + " --script " + path + " --json --threads 0");
  std::remove(path.c_str());
  const json out = json::parse(text, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << text;

  const Replay r = replay(edits, kTicks);
  char hex[20];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(r.hash));
  ASSERT_EQ(out.at("state_hash").get<std::string>(), hex) << "the replay is not the CLI's run";

  // What the trace shows: agent 0 only (agents 1 and 2 walk toward their goals).
  std::set<std::size_t> in_place;
  const std::set<std::size_t> traced = stuck_from_trace(r, &in_place);
  EXPECT_EQ(traced, (std::set<std::size_t>{0}));
  EXPECT_EQ(in_place, (std::set<std::size_t>{0}));
  EXPECT_EQ(out.at("stuck_in_place").get<std::size_t>(), in_place.size());
  // What the CLI reports: the same set, each with its reason.
  EXPECT_EQ(out.at("stuck_after_s").get<double>(), kStuckTicks * 0.05);
  EXPECT_EQ(out.at("stuck_now").get<std::size_t>(), traced.size());
  std::set<std::size_t> reported, reported_in_place;
  for (const json& e : out.at("stuck_agents")) {
    reported.insert(e.at("agent").get<std::size_t>());
    if (e.at("in_place").get<bool>()) reported_in_place.insert(e.at("agent").get<std::size_t>());
    EXPECT_GE(e.at("seconds").get<double>(), 5.0);
    EXPECT_FALSE(e.at("reason").get<std::string>().empty());
  }
  EXPECT_EQ(reported, traced);
  EXPECT_EQ(reported_in_place, in_place);
  ASSERT_EQ(out.at("stuck").size(), traced.size());
  ASSERT_FALSE(out.at("stuck_agents").empty());
  const json& walled = out.at("stuck_agents").at(0);
  EXPECT_EQ(walled.at("mode"), "blocked");
  EXPECT_EQ(walled.at("failure"), "embedded");
  EXPECT_EQ(walled.at("reason").get<std::string>().rfind("embedded: ", 0), 0u);
  EXPECT_EQ(out.at("stuck").at(0).get<std::string>().rfind("agent 0: blocked: embedded: ", 0), 0u);
  EXPECT_EQ(r.trace.back()[0].failure, PathFailure::Embedded);
  // Agent 1 was pushed out of the stone once and walked on; agent 0 never moved.
  EXPECT_EQ(out.at("push_outs").get<int>(), 1);
  EXPECT_EQ(r.trace.back()[1].push_outs, 1u);
  EXPECT_EQ(r.trace.back()[0].feet.x, kAgents[0].feet.x);
  EXPECT_EQ(r.trace.back()[0].feet.z, kAgents[0].feet.z);
}

}  // namespace
}  // namespace voxnav
