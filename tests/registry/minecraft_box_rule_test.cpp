// The Minecraft loader holds its collision boxes to the one box rule of every registry (the rule
// define_blocks and the registry JSON apply): a box top of 100 or an inverted box is refused
// naming the block, its state and the shape, with the rule's own words, and nothing is installed
// (it used to clamp the first to 1.5 and the second to a flat box). Only Minecraft's own overhang
// into the neighbouring cell (a piston head's arm, a pitcher crop), at most kMaxShapeOverhang, is
// cut at the cell's bounds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/world/registry.h"
#include "voxnav/registry.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// air (state 0) and stone (state 1); stone uses shape 1, which is `box`.
Status load(World& w, const std::string& box, std::string* msg) {
  const auto blocks = bytes(
      R"([{"name":"air","minStateId":0,"maxStateId":0,"defaultState":0,"boundingBox":"empty"},)"
      R"({"name":"stone","minStateId":1,"maxStateId":1,"defaultState":1,"boundingBox":"block"}])");
  const auto shapes =
      bytes(R"({"blocks":{"air":0,"stone":1},"shapes":{"0":[],"1":[)" + box + "]}}");
  return w.load_minecraft_blocks(blocks, shapes, msg);
}

// What the registry JSON says of the same box (defineBlocks' rule).
std::string json_rule(const std::string& box) {
  const auto json = bytes(R"({"format":"voxnav-blocks","version":1,"blocks":[{"name":"air"},)"
                          R"({"name":"s","boxes":[)" + box + "]}]}");
  std::string err;
  BlockRegistryDef def;
  EXPECT_EQ(parse_block_registry_json(json, &def, &err), Status::InvalidArgument) << box;
  const std::string at = "boxes[0]: ";
  const std::size_t k = err.find(at);
  return k == std::string::npos ? err : err.substr(k + at.size());
}

TEST(MinecraftBoxRule, OutOfRuleBoxesAreRefusedByNameWithTheRegistryRule) {
  for (const std::string box : {"[0,0,0,1,100,1]", "[0,0.8,0,1,0.2,1]", "[0.5,0,0,0.25,1,1]",
                                "[0,0,0,1,1,2]", "[-0.75,0,0,1,1,1]"}) {
    World w;
    std::string msg;
    EXPECT_EQ(load(w, box, &msg), Status::BadFormat) << box;
    const std::string rule = json_rule(box);
    EXPECT_EQ(msg, "collision shapes JSON: 'stone' (state 1) uses shape 1, whose boxes[0]: " + rule)
        << box;
    EXPECT_EQ(w.block_count(), 2u) << "the default registry stays: " << box;
  }
}

TEST(MinecraftBoxRule, MinecraftsOverhangIsCutAtTheCell) {
  struct Case {
    const char* box;
    BlockBox want;
  };
  // The piston head's arm (facing up: 0.25 below the cell) and the pitcher crop (0.0625 below).
  const Case cases[] = {{"[0.375,-0.25,0.375,0.625,1.0,0.625]", {0.375f, 0, 0.375f, 0.625f, 1, 0.625f}},
                        {"[0.3125,-0.0625,0.3125,0.6875,0.1875,0.6875]",
                         {0.3125f, 0, 0.3125f, 0.6875f, 0.1875f, 0.6875f}},
                        {"[0.25,0.375,0.375,1.25,0.625,0.625]", {0.25f, 0.375f, 0.375f, 1, 0.625f, 0.625f}}};
  for (const Case& c : cases) {
    World w;
    std::string msg;
    ASSERT_EQ(load(w, c.box, &msg), Status::Ok) << c.box << ": " << msg;
    std::uint16_t v = 0;
    ASSERT_EQ(w.block_value("stone", &v), Status::Ok);
    BlockDef d;
    ASSERT_EQ(w.block_def(v, &d), Status::Ok);
    ASSERT_EQ(d.boxes.size(), 1u) << c.box;
    EXPECT_EQ(d.boxes[0], c.want) << c.box;
    EXPECT_EQ(detail::block_box_error(d.boxes[0]), "");
  }
  // A box wholly inside the neighbour's margin belongs to the neighbour only: dropped.
  World w;
  std::string msg;
  ASSERT_EQ(load(w, "[0,-0.25,0,1,-0.05,1],[0,0,0,1,0.5,1]", &msg), Status::Ok) << msg;
  std::uint16_t v = 0;
  ASSERT_EQ(w.block_value("stone", &v), Status::Ok);
  BlockDef d;
  ASSERT_EQ(w.block_def(v, &d), Status::Ok);
  ASSERT_EQ(d.boxes.size(), 1u);
  EXPECT_EQ(d.boxes[0], (BlockBox{0, 0, 0, 1, 0.5f, 1}));
}

TEST(MinecraftBoxRule, ABadShapeNoBlockUsesIsRefusedByItsId) {
  const auto blocks = bytes(
      R"([{"name":"air","minStateId":0,"maxStateId":0,"defaultState":0,"boundingBox":"empty"}])");
  const auto shapes = bytes(R"({"blocks":{"air":0},"shapes":{"0":[],"7":[[0,0,0,1,100,1]]}})");
  World w;
  std::string msg;
  EXPECT_EQ(w.load_minecraft_blocks(blocks, shapes, &msg), Status::BadFormat);
  EXPECT_EQ(msg, "collision shapes JSON: shape 7: boxes[0]: " + json_rule("[0,0,0,1,100,1]"));
}

}  // namespace
}  // namespace voxnav
