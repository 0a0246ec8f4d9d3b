// The scripted-scenario JSON of `voxnav run --script` (voxnav/native/scenario.h): a good script
// parses, and hostile ones are refused with BadFormat naming what is wrong, never a crash.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/native/scenario.h"

namespace voxnav {
namespace {

Status parse(const std::string& text, native::Scenario* out, std::string* err) {
  const std::vector<std::uint8_t> bytes(text.begin(), text.end());
  return native::parse_scenario_json(bytes, out, err);
}

TEST(ScenarioJson, AScriptWithAProfileParses) {
  native::Scenario s;
  std::string err;
  ASSERT_EQ(parse(R"({"world":"r.0.-1.mca","ticks":20,"agents":[],"profile":{"id":"boar","tags":[["a"]]}})",
                  &s, &err),
            Status::Ok)
      << err;
  EXPECT_EQ(s.world, "r.0.-1.mca");
  EXPECT_EQ(s.profile_json, R"({"id":"boar","tags":[["a"]]})");
}

TEST(ScenarioJson, DeepNestingIsBadFormatNotAStackOverflow) {
  // 100,000 levels inside the profile: dumping it back to text recursed once per level and
  // overflowed the stack (a crash of `voxnav run --script`).
  const int depth = 100000;
  const std::string text = R"({"world":"w","ticks":1,"profile":{"x":)" + std::string(depth, '[') +
                           std::string(depth, ']') + "}}";
  native::Scenario s;
  s.world = "unchanged";
  std::string err;
  EXPECT_EQ(parse(text, &s, &err), Status::BadFormat);
  EXPECT_NE(err.find("deeper than 64 levels"), std::string::npos) << err;
  EXPECT_EQ(s.world, "unchanged");
  // Brackets inside strings do not count, and 64 levels are allowed.
  const std::string in_string = R"({"world":"[[[[","ticks":1,"agents":[],"profile":{"name":")" +
                                std::string(1000, '[') + R"("}})";
  EXPECT_EQ(parse(in_string, &s, &err), Status::Ok) << err;
  const std::string deep63 = R"({"world":"w","ticks":1,"agents":[],"profile":{"x":)" + std::string(62, '[') +
                             std::string(62, ']') + "}}";
  EXPECT_EQ(parse(deep63, &s, &err), Status::Ok) << err;
}

TEST(ScenarioJson, RangesHoldForEveryNumberKind) {
  native::Scenario s;
  std::string err;
  // A checkpoint 0 is below 1 .. ticks (a non-negative number skipped the lower bound).
  EXPECT_EQ(parse(R"({"world":"w","ticks":10,"agents":[],"checkpoints":[0]})", &s, &err),
            Status::BadFormat);
  EXPECT_NE(err.find("checkpoints"), std::string::npos) << err;
  // With 0 ticks no edit tick is valid (the upper bound ticks - 1 wrapped to 2^64 - 1).
  EXPECT_EQ(parse(R"({"world":"w","ticks":0,"agents":[],"edits":[{"tick":18446744073709551615,)"
                  R"("cell":[0,0,0],"block":"stone"}]})",
                  &s, &err),
            Status::BadFormat);
  EXPECT_NE(err.find("edits[0].tick"), std::string::npos) << err;
  EXPECT_EQ(parse(R"({"world":"w","ticks":10,"agents":[],"checkpoints":[1,10],)"
                  R"("edits":[{"tick":9,"cell":[0,0,0],"block":"stone"}]})",
                  &s, &err),
            Status::Ok)
      << err;
  EXPECT_EQ(s.checkpoints, (std::vector<int>{1, 10}));
}

}  // namespace
}  // namespace voxnav
