// voxnav nav-export / nav-import / run --nav: saved navigation from the command line. The
// scripted scenario replays to the same state hash on imported navigation, and a damaged file is
// refused by name, then built instead (same hash again).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.h"
#include "test_support.h"

namespace voxnav {
namespace {

using json = nlohmann::json;
const std::string kScript = std::string(VOXNAV_FIXTURES) + "/../../examples/web/scenario.json";

json run_json(const std::string& args, int want_code = 0) {
  const test::CliRun r = test::run_cli(args, /*stderr_too=*/false);
  EXPECT_EQ(r.code, want_code) << args << "\n" << r.out;
  const json j = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << args << "\n" << r.out;
  return j;
}

std::vector<char> read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}
void write(const std::string& path, const std::vector<char>& b) {
  std::ofstream(path, std::ios::binary).write(b.data(), static_cast<std::streamsize>(b.size()));
}

TEST(NavSaveCli, ExportImportAndTheScenarioHash) {
  const std::string region = test::repo_region();
  const std::string nav = ::testing::TempDir() + "nav_save_cli.nav";
  const json ex = run_json("nav-export " + region + " " + nav + " --json");
  EXPECT_GT(ex.at("islands").get<long>(), 1000);
  EXPECT_EQ(static_cast<std::size_t>(ex.at("bytes").get<long>()), read(nav).size());

  const json im = run_json("nav-import " + region + " " + nav + " --compare --json");
  EXPECT_EQ(im.at("islands"), ex.at("islands"));
  EXPECT_EQ(im.at("standable"), ex.at("standable"));
  EXPECT_EQ(im.at("agree").get<bool>(), true);
  EXPECT_EQ(im.at("classes").get<int>(), 1);

  // The scripted scenario: built, imported, and imported from a damaged file (built instead).
  const std::string base = "run --script " + kScript + " --json --threads 0";
  const json built = run_json(base);
  const json imported = run_json(base + " --nav " + nav);
  EXPECT_EQ(built.at("state_hash"), imported.at("state_hash"));
  std::vector<char> bytes = read(nav);
  bytes[bytes.size() / 2] ^= 0x10;
  const std::string bad = ::testing::TempDir() + "nav_save_cli_bad.nav";
  write(bad, bytes);
  const test::CliRun r = test::run_cli(base + " --nav " + bad, /*stderr_too=*/true);
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("refused (BadFormat): checksum mismatch"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("building instead"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(built.at("state_hash").get<std::string>()), std::string::npos) << r.out;

  // nav-import names the problem and fails.
  const test::CliRun ri = test::run_cli("nav-import " + region + " " + bad);
  EXPECT_EQ(ri.code, 1);
  EXPECT_NE(ri.out.find("checksum mismatch"), std::string::npos) << ri.out;
  bytes = read(nav);
  bytes.resize(bytes.size() - 10);
  write(bad, bytes);
  const test::CliRun rt = test::run_cli("nav-import " + region + " " + bad);
  EXPECT_EQ(rt.code, 1);
  EXPECT_NE(rt.out.find("truncated at byte " + std::to_string(bytes.size())), std::string::npos)
      << rt.out;
  std::remove(nav.c_str());
  std::remove(bad.c_str());
}

TEST(NavSaveCli, AFileWithItsBlocks) {
  const std::string region = test::repo_region();
  const std::string nav = ::testing::TempDir() + "nav_save_cli_blocks.nav";
  const json ex = run_json("nav-export " + region + " " + nav + " --blocks --json");
  EXPECT_EQ(ex.at("blocks").get<bool>(), true);
  const json im = run_json("nav-import " + region + " " + nav + " --json");
  EXPECT_EQ(im.at("blocks").get<bool>(), true);
  EXPECT_EQ(im.at("islands"), ex.at("islands"));
  std::remove(nav.c_str());
}

}  // namespace
}  // namespace voxnav
