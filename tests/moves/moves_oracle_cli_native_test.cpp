// The movement-step oracle of layer 2 (issue 18, item 2): `voxnav moves WORLD --json` drives every
// move the navigation plans out of every standable cell with the movement step, as the follower
// drives it, and the unplanned candidate moves between neighbouring cells. Planned but not
// executable must be 0 on smallhouse1.schem, on every bug world of ../shared/bugcases and on
// samples of the shipped region, for the default walker, walker_small and two profiles of other
// speed and jump apex (walker_large: below 2 %, an open item); the executable-but-not-planned
// counts are reported by family (docs/terrain.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "test_support.h"

namespace voxnav {
namespace {

using nlohmann::json;

struct Oracle {
  json doc;
  int code = -1;
};

Oracle run_moves(const std::string& world, const std::string& extra = "") {
  const test::CliRun r = test::run_cli("moves " + world + " --json " + extra, false);
  Oracle o;
  o.code = r.code;
  o.doc = json::parse(r.out, nullptr, false);
  return o;
}

// A profile file in the test's temporary directory.
std::string profile_file(const std::string& name, const std::string& text) {
  return test::temp_file(name + ".json", text);
}

void expect_all_executable(const Oracle& o, const std::string& what, bool gaps) {
  ASSERT_TRUE(o.doc.is_object()) << what << ": no JSON report";
  EXPECT_EQ(o.doc.value("planned_not_executable", -1), 0) << what << ": " << o.doc.dump();
  EXPECT_EQ(o.code, 0) << what;
  EXPECT_GT(o.doc.value("driven", 0), 0) << what;
  const json& k = o.doc["kinds"];
  EXPECT_TRUE(k.contains("walk")) << what;
  for (auto it = k.begin(); it != k.end(); ++it) {
    if (it.key() != "door" && it.key() != "climb" && it.key() != "swim") {
      EXPECT_EQ(it.value()["executed"], it.value()["driven"]) << what << " " << it.key();
    }
  }
  if (gaps) {
    EXPECT_TRUE(k.contains("gap_jump")) << what;
  }
}

TEST(MovesOracle, BugWorldsAndAHousePlanOnlyExecutableMoves) {
  const std::string dir = (std::filesystem::path(VOXNAV_SHARED_DATA) / ".." / "bugcases").lexically_normal().string();
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "needs ../shared/bugcases";
  int worlds = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".schem") continue;
    ++worlds;
    expect_all_executable(run_moves(e.path().string()), e.path().filename().string(), false);
  }
  EXPECT_GE(worlds, 10);
  const Oracle house = run_moves(std::string(VOXNAV_SHARED_DATA) + "/minecraft/schematics/smallhouse1.schem");
  expect_all_executable(house, "smallhouse1", true);
  // Two-cell gaps over the house's void are planned there and executed.
  EXPECT_GT(house.doc["kinds"]["gap_jump"].value("executed", 0), 0);
}

TEST(MovesOracle, ShippedRegionForEveryClassAndTwoOtherBodies) {
  const std::string region = test::repo_region();
  expect_all_executable(run_moves(region, "--limit 2500"), "walker", true);
  const std::string small = profile_file(
      "small", R"({"id": "small", "class": "walker_small", "body": {"width": 0.6, "height": 0.9}})");
  expect_all_executable(run_moves(region, "--limit 1500 --profile " + small), "walker_small", true);
  // walker_large (the 2x2 footprint, 1.98 wide): not yet all executable. On this sample 130 of
  // 8570 planned moves (steps up and walks along ledges where the 1.98 box meets a block edge the
  // foot cells' columns leave out) do not carry the body: an open item of issue 18, held here
  // below 2 % so it cannot grow unseen.
  const std::string large = profile_file("large", R"({"id": "large", "class": "walker_large"})");
  const Oracle lg = run_moves(region, "--limit 1500 --profile " + large);
  ASSERT_TRUE(lg.doc.is_object());
  EXPECT_GT(lg.doc.value("driven", 0), 5000);
  EXPECT_LT(lg.doc.value("planned_not_executable", 0) * 50, lg.doc.value("driven", 0)) << lg.doc.dump();
  // A slow, low-jumping body (apex 0.9: one-cell gaps only, no full-block jump) and a fast one.
  const std::string low = profile_file(
      "low", R"({"id": "low", "class": "walker", "jump_apex": 0.9, "speed": {"walk": 3.0, "sprint": 3.0}})");
  const Oracle lo = run_moves(region, "--limit 1500 --profile " + low);
  expect_all_executable(lo, "low", false);
  EXPECT_FALSE(lo.doc["kinds"].contains("jump")) << "a 0.9 apex jumps no full block";
  const std::string fast = profile_file(
      "fast", R"({"id": "fast", "class": "walker", "jump_apex": 1.1, "speed": {"walk": 5.0, "sprint": 6.5}})");
  expect_all_executable(run_moves(region, "--limit 1500 --profile " + fast), "fast", true);
}

TEST(MovesOracle, BadArgumentsAreNamed) {
  const test::CliRun none = test::run_cli("moves");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.out.find("usage: voxnav moves"), std::string::npos) << none.out;
  const test::CliRun bad = test::run_cli("moves " + test::repo_region() + " --limit 0");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("--limit needs a positive cell count"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace voxnav
