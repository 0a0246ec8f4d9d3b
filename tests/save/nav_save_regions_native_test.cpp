// Saved navigation on the real regions (../shared/data, and the region the repository ships):
// exported after a build and imported into a World holding the same blocks, the navigation is
// the build's plane for plane and label for label, every sampled route is the same, and the
// scripted scenario (examples/web/scenario.json: 48 walkers, 8 swimmers, 23 edits, 400 ticks)
// replays to the same state hash on imported navigation as on built navigation.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "save_checks.h"
#include "voxnav/native/files.h"
#include "voxnav/native/scenario.h"
#include "voxnav/save.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

const std::string kShared = VOXNAV_SHARED_DATA;

/// A World with the real registry and the blocks of `path`, navigation not built.
std::unique_ptr<World> blocks_only(const std::string& path) {
  auto w = std::make_unique<World>();
  if (!test::load_real_blocks(*w)) return nullptr;
  LoadReport rep;
  EXPECT_EQ(native::load_world_file(*w, path, LoadOptions{}, &rep), Status::Ok) << rep.message;
  return w;
}

struct RegionCase {
  const char* name;
  std::string path;
};

class SavedRegion : public ::testing::TestWithParam<RegionCase> {};

TEST_P(SavedRegion, ImportIsTheBuild) {
  ProfileId built_pid;
  std::unique_ptr<World> built = test::load_region(GetParam().path, &built_pid);
  ASSERT_TRUE(built);
  std::vector<std::uint8_t> bytes;
  CallError e;
  ASSERT_EQ(export_navigation(*built, ExportDef{}, &bytes, &e), Status::Ok) << e.message;
  std::unique_ptr<World> imported = blocks_only(GetParam().path);
  ASSERT_TRUE(imported);
  ImportReport rep;
  ASSERT_EQ(import_navigation(*imported, bytes, &rep, &e), Status::Ok) << e.message;
  EXPECT_EQ(rep.chunks, detail::WorldAccess::state(*built).space.chunk_count());
  ProfileId pid;
  ASSERT_EQ(imported->add_profile(Profile{}, &pid), Status::Ok);
  EXPECT_GT(built->stats().islands, 100u);
  test::expect_same_navigation(*built, *imported);
  EXPECT_GT(test::expect_same_routes(*built, built_pid, *imported, pid, 200, 5), 20u);

  // The same bytes with the blocks restore a World that has only the registry.
  ExportDef with_blocks;
  with_blocks.include_blocks = true;
  ASSERT_EQ(export_navigation(*built, with_blocks, &bytes, &e), Status::Ok) << e.message;
  auto empty = std::make_unique<World>();
  ASSERT_TRUE(test::load_real_blocks(*empty));
  ASSERT_EQ(import_navigation(*empty, bytes, &rep, &e), Status::Ok) << e.message;
  EXPECT_TRUE(rep.blocks);
  test::expect_same_navigation(*built, *empty);
}

INSTANTIATE_TEST_SUITE_P(
    Regions, SavedRegion,
    ::testing::Values(RegionCase{"v1_12_2", kShared + "/minecraft/regions/1.12.2/r.0.-1.mca"},
                      RegionCase{"v1_16", kShared + "/minecraft/regions/1.16/r.0.-1.mca"},
                      RegionCase{"v1_18_2", kShared + "/minecraft/regions/1.18.2/r.0.0.mca"}),
    [](const ::testing::TestParamInfo<RegionCase>& i) { return std::string(i.param.name); });

/// Replays the scripted scenario as `voxnav run --script` does (native/cmd_run.cpp), on
/// navigation built by update() or imported from `nav`; returns the state hash at the end and
/// at every checkpoint.
std::vector<std::uint64_t> replay(const native::Scenario& sc, const std::vector<std::uint8_t>* nav,
                                  std::vector<std::uint8_t>* exported) {
  std::vector<std::uint64_t> hashes;
  World w;
  std::string msg;
  EXPECT_EQ(native::load_minecraft_blocks_dir(
                w, std::string(VOXNAV_FIXTURES) + "/../../data/blocks", &msg),
            Status::Ok)
      << msg;
  LoadReport rep;
  EXPECT_EQ(native::load_world_file(w, test::repo_region(), LoadOptions{}, &rep), Status::Ok);
  CallError e;
  if (nav) {
    EXPECT_EQ(import_navigation(w, *nav, nullptr, &e), Status::Ok) << e.message;
  } else {
    w.update();
  }
  Profile p;
  ProfileId prof, swim;
  EXPECT_EQ(parse_profile_json(sc.profile_json, p, &msg, nullptr, ""), Status::Ok) << msg;
  EXPECT_EQ(w.add_profile(p, &prof, &msg), Status::Ok) << msg;
  EXPECT_FALSE(sc.swimmer_json.empty());
  EXPECT_EQ(parse_profile_json(sc.swimmer_json, p, &msg, nullptr, ""), Status::Ok) << msg;
  EXPECT_EQ(w.add_profile(p, &swim, &msg), Status::Ok) << msg;
  if (exported) {  // the walker's and the swimmer's navigation, as the scenario starts
    EXPECT_EQ(export_navigation(w, ExportDef{}, exported, &e), Status::Ok) << e.message;
  }
  const std::size_t walkers = sc.feet.size() - sc.swimmers;
  std::vector<AgentId> agents(sc.feet.size());
  for (std::size_t i = 0; i < sc.feet.size(); ++i)
    EXPECT_EQ(w.add_agent(AgentDef{i < walkers ? prof : swim, sc.feet[i]}, &agents[i]), Status::Ok);
  for (std::size_t i = 0; i < agents.size(); ++i) (void)w.set_agent_goal(agents[i], sc.goals[i]);
  std::size_t next = 0;
  for (int t = 0; t < sc.ticks; ++t) {
    for (; next < sc.edits.size() && sc.edits[next].tick == t; ++next) {
      std::uint16_t v = 0;
      EXPECT_EQ(w.block_value(sc.edits[next].block, &v), Status::Ok);
      (void)w.set_block(sc.edits[next].cell, v);
    }
    (void)w.tick(sc.dt);
    if (std::find(sc.checkpoints.begin(), sc.checkpoints.end(), t + 1) != sc.checkpoints.end()) {
      std::uint64_t h = 0;
      EXPECT_EQ(state_hash(w, agents, &h), Status::Ok);
      hashes.push_back(h);
    }
  }
  std::uint64_t h = 0;
  EXPECT_EQ(state_hash(w, agents, &h), Status::Ok);
  hashes.push_back(h);
  std::uint64_t arrivals = 0;
  for (const AgentId& a : agents) {
    AgentState s;
    if (w.agent_state(a, &s) == Status::Ok) arrivals += s.arrivals;
  }
  EXPECT_GT(arrivals, 10u) << "the scenario's agents walk";
  return hashes;
}

TEST(SavedScenario, TheScriptedScenarioHashesTheSameOnImportedNavigation) {
  const std::vector<std::uint8_t> text =
      test::read_bytes(std::string(VOXNAV_FIXTURES) + "/../../examples/web/scenario.json");
  ASSERT_FALSE(text.empty());
  native::Scenario sc;
  std::string err;
  ASSERT_EQ(native::parse_scenario_json(text, &sc, &err), Status::Ok) << err;
  ASSERT_GT(sc.swimmers, 0u);
  ASSERT_FALSE(sc.edits.empty());
  std::vector<std::uint8_t> nav;
  const std::vector<std::uint64_t> built = replay(sc, nullptr, &nav);
  ASSERT_FALSE(nav.empty());
  NavigationInfo info;
  ASSERT_EQ(navigation_info(nav, &info), Status::Ok);
  EXPECT_EQ(info.classes, 2u);  // walker and swimmer
  const std::vector<std::uint64_t> imported = replay(sc, &nav, nullptr);
  ASSERT_EQ(built.size(), sc.checkpoints.size() + 1);
  EXPECT_EQ(built, imported);
}

}  // namespace
}  // namespace voxnav
