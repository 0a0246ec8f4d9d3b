// Engine-side formats (runs natively and under node): the Minecraft block registry built from the
// real minecraft-data files, the legacy (1.12) id table, NBT parsing of malformed input, Moving AI
// maps and scenarios.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/io/minecraft_registry.h"
#include "engine/io/movingai.h"
#include "engine/io/nbt.h"
#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "scenes.h"

namespace voxnav::detail {
namespace {

using test::read_bytes;
using test::read_text;

const std::string kBlocksDir = std::string(VOXNAV_SHARED_DATA) + "/minecraft/blocks/";
const std::string kMovingAi = std::string(VOXNAV_SHARED_DATA) + "/movingai-2d/";

// One registry for the whole suite: building it parses 2.5 MB of JSON.
struct Loaded {
  BlockRegistry registry;
  MinecraftBlocks blocks;
  Status status = Status::Ok, legacy_status = Status::Ok;
  std::string message, legacy_message;
  Loaded() {
    status = blocks.load(read_bytes(kBlocksDir + "blocks.pc-1.21.1.json"),
                         read_bytes(kBlocksDir + "blockCollisionShapes.pc-1.20.5.json"), registry,
                         message);
    if (status == Status::Ok) {
      legacy_status =
          blocks.load_legacy(read_bytes(kBlocksDir + "blocks.pc-1.12.json"), legacy_message);
    }
  }
};

const Loaded& loaded() {
  static const Loaded* l = new Loaded();
  return *l;
}

class McRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(loaded().status, Status::Ok) << loaded().message;
    ASSERT_EQ(loaded().legacy_status, Status::Ok) << loaded().legacy_message;
  }
  const BlockRegistry& reg() const { return loaded().registry; }
  const MinecraftBlocks& mc() const { return loaded().blocks; }
  std::uint16_t v(const char* s) const { return mc().value_from_string(s); }
  int top(std::uint16_t value) const { return reg().top_in_footprint(value, 32); }
};

TEST_F(McRegistryTest, SizesAndNumbering) {
  EXPECT_EQ(mc().blocks().size(), 1060u);
  EXPECT_EQ(reg().size(), 26684u + MinecraftBlocks::kStateValueOffset);  // states 0..26683
  EXPECT_EQ(mc().blocks_without_shapes(), 0u);
  EXPECT_NE(loaded().message.find("1060 blocks, 26684 states"), std::string::npos)
      << loaded().message;
  // stone is state 1 -> value 3; registry.find agrees.
  EXPECT_EQ(v("stone"), 3);
  EXPECT_EQ(reg().find("stone"), 3);
  EXPECT_EQ(mc().state_of_value(3), 1);
  EXPECT_EQ(mc().state_of_value(0), -1);
  // air, cave_air and void_air resolve to the registry's air value 0.
  EXPECT_EQ(v("minecraft:air"), 0);
  EXPECT_EQ(v("cave_air"), 0);
  EXPECT_EQ(v("void_air"), 0);
  EXPECT_EQ(mc().state_value(0), 0);
  EXPECT_EQ(mc().state_value(1), 3);
}

TEST_F(McRegistryTest, StateIdsLastPropertyFastest) {
  // oak_stairs: minStateId 2874, defaultState 2885 = facing=north, half=bottom, shape=straight,
  // waterlogged=false.
  const std::uint16_t def = mc().default_value("minecraft:oak_stairs");
  EXPECT_EQ(def, 2885 + 2);
  EXPECT_EQ(v("minecraft:oak_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]"),
            def);
  EXPECT_EQ(v("oak_stairs[waterlogged=false,shape=straight,half=bottom,facing=north]"), def);
  EXPECT_EQ(v("oak_stairs[waterlogged=true]"), 2884 + 2);  // last property flips fastest
  EXPECT_EQ(v("oak_stairs[facing=north,half=top,shape=straight,waterlogged=true]"), 2874 + 2);
  EXPECT_EQ(v("oak_stairs[facing=east,half=bottom,shape=outer_right,waterlogged=false]"),
            2874 + 2 + 3 * 20 + 10 + 4 * 2 + 1);
  EXPECT_EQ(mc().state_string(def),
            "oak_stairs[facing=north,half=bottom,shape=straight,waterlogged=false]");
  EXPECT_EQ(mc().property(def, "half"), "bottom");
  // oak_door defaultState 4601 = facing=north, half=lower, hinge=left, open=false, powered=false.
  EXPECT_EQ(mc().default_value("oak_door"), 4601 + 2);
}

TEST_F(McRegistryTest, EveryStateStringRoundTrips) {
  std::size_t checked = 0;
  for (std::uint32_t s = 0; s < 26684; ++s) {
    const std::uint16_t value = MinecraftBlocks::value_of_state(s);
    const std::string str = mc().state_string(value);
    const std::uint16_t back = mc().value_from_string(str);
    if (back == 0) {
      EXPECT_TRUE(str == "air" || str == "cave_air" || str == "void_air") << str;
    } else {
      ASSERT_EQ(back, value) << str;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 26684u);
}

TEST_F(McRegistryTest, CollisionShapesOfKnownStates) {
  const std::uint16_t stone = v("stone");
  ASSERT_EQ(reg().type(stone).boxes.size(), 1u);
  const Box& b = reg().type(stone).boxes[0];
  EXPECT_EQ(b.min[0], 0.f);
  EXPECT_EQ(b.min[1], 0.f);
  EXPECT_EQ(b.max[1], 1.f);
  EXPECT_EQ(top(stone), 64);
  EXPECT_EQ(reg().traits(stone), 0u);

  EXPECT_EQ(top(v("oak_slab[type=bottom]")), 32);  // [0,0,0,1,0.5,1]
  EXPECT_EQ(reg().type(v("oak_slab[type=top]")).boxes.at(0).min[1], 0.5f);
  EXPECT_EQ(top(v("oak_slab[type=double]")), 64);
  EXPECT_EQ(top(v("soul_sand")), 56);  // 0.875
  EXPECT_EQ(top(v("farmland")), 60);   // 0.9375
  EXPECT_EQ(top(v("oak_fence")), 96);  // 1.5
  EXPECT_EQ(top(v("oak_fence[north=true,east=true]")), 96);
  EXPECT_EQ(top(v("cobblestone_wall")), 96);
  EXPECT_EQ(top(v("snow[layers=1]")), -1);  // one snow layer has no collision
  EXPECT_EQ(top(v("snow[layers=5]")), 32);
  EXPECT_FALSE(reg().has_collision(v("water")));
  EXPECT_FALSE(reg().has_collision(v("short_grass")));
  EXPECT_FALSE(reg().has_collision(v("air")));
  // ladder facing north: a thin box against the south side of the cell.
  const auto& ladder = reg().type(v("ladder[facing=north]")).boxes;
  ASSERT_EQ(ladder.size(), 1u);
  EXPECT_FLOAT_EQ(ladder[0].min[2], 0.8125f);
  EXPECT_FLOAT_EQ(ladder[0].max[2], 1.f);
}

TEST_F(McRegistryTest, Traits) {
  EXPECT_TRUE(reg().traits(v("ladder")) & kTraitClimbable);
  EXPECT_TRUE(reg().traits(v("vine")) & kTraitClimbable);
  EXPECT_TRUE(reg().traits(v("scaffolding")) & kTraitClimbable);
  EXPECT_TRUE(reg().traits(v("twisting_vines_plant")) & kTraitClimbable);
  EXPECT_TRUE(reg().traits(v("cave_vines")) & kTraitClimbable);

  EXPECT_EQ(reg().traits(v("lava")), kTraitHazardFire | kTraitFluidHarm);
  EXPECT_EQ(reg().traits(v("fire")), kTraitHazardFire);
  EXPECT_EQ(reg().traits(v("magma_block")), kTraitHazardFire);
  EXPECT_EQ(reg().traits(v("campfire[lit=true]")), kTraitHazardFire);
  EXPECT_EQ(reg().traits(v("campfire[lit=false]")), 0u);
  EXPECT_EQ(reg().traits(v("soul_campfire[lit=true,waterlogged=false]")), kTraitHazardFire);

  EXPECT_EQ(reg().traits(v("cactus")), kTraitHazardOther);
  EXPECT_EQ(reg().traits(v("sweet_berry_bush")), kTraitHazardOther);
  EXPECT_EQ(reg().traits(v("wither_rose")), kTraitHazardOther);
  EXPECT_EQ(reg().traits(v("powder_snow")), kTraitHazardOther);
  EXPECT_EQ(reg().traits(v("pointed_dripstone[waterlogged=false]")), kTraitHazardOther);

  EXPECT_EQ(reg().traits(v("cobweb")), kTraitSlow);
  EXPECT_EQ(reg().traits(v("honey_block")), kTraitSlow);
  EXPECT_EQ(reg().traits(v("soul_sand")), kTraitSlow);

  EXPECT_EQ(reg().traits(v("water")), kTraitFluidSwim);
  EXPECT_EQ(reg().traits(v("water[level=7]")), kTraitFluidSwim);
  EXPECT_EQ(reg().traits(v("bubble_column")), kTraitFluidSwim);
  EXPECT_EQ(reg().traits(v("kelp_plant")), kTraitFluidSwim);
  EXPECT_EQ(reg().traits(v("oak_stairs[waterlogged=true]")), kTraitFluidSwim);
  EXPECT_EQ(reg().traits(v("oak_stairs[waterlogged=false]")), 0u);
  EXPECT_EQ(reg().traits(v("stone")), 0u);
  EXPECT_EQ(reg().traits(v("oak_trapdoor[open=true]")), 0u);  // trapdoors are not doors
}

TEST_F(McRegistryTest, DoorsPairOpenAndClosed) {
  const std::uint16_t closed =
      v("oak_door[facing=west,half=lower,hinge=left,open=false,powered=false]");
  const std::uint16_t open =
      v("oak_door[facing=west,half=lower,hinge=left,open=true,powered=false]");
  ASSERT_NE(closed, open);
  EXPECT_EQ(reg().traits(closed), kTraitDoor);
  EXPECT_EQ(reg().traits(open), kTraitDoor | kTraitDoorOpen);
  EXPECT_EQ(reg().type(closed).open_value, open);
  EXPECT_EQ(reg().type(open).open_value, closed);
  // Closed west-facing door: a 3/16 slab on the east side; open: turned to the south side.
  ASSERT_EQ(reg().type(closed).boxes.size(), 1u);
  EXPECT_FLOAT_EQ(reg().type(closed).boxes[0].min[0], 0.8125f);
  ASSERT_EQ(reg().type(open).boxes.size(), 1u);
  EXPECT_FLOAT_EQ(reg().type(open).boxes[0].min[2], 0.8125f);
  // Every door and fence gate state toggles to a state of the same block and back.
  std::size_t doors = 0;
  for (std::size_t value = 2; value < reg().size(); ++value) {
    const auto& t = reg().type(static_cast<std::uint16_t>(value));
    if ((t.traits & kTraitDoor) == 0) continue;
    ++doors;
    const auto& o = reg().type(t.open_value);
    EXPECT_EQ(o.name, t.name);
    EXPECT_EQ(o.open_value, value);
    EXPECT_NE((o.traits & kTraitDoorOpen) != 0, (t.traits & kTraitDoorOpen) != 0);
  }
  // 20 door kinds x 64 states + 11 fence gate kinds x 32 states in 1.21.1.
  EXPECT_EQ(doors, 20u * 64 + 11u * 32);
  const auto gate = v("oak_fence_gate[open=true]");
  EXPECT_EQ(reg().traits(gate), kTraitDoor | kTraitDoorOpen);
  EXPECT_FALSE(reg().has_collision(gate));
  EXPECT_EQ(top(reg().type(gate).open_value), 96);
}

TEST_F(McRegistryTest, UnknownNamesFallBackAndAreCounted) {
  LookupTally tally;
  EXPECT_EQ(mc().value_from_string("minecraft:not_a_block", &tally), reg().fallback());
  EXPECT_EQ(mc().value_from_string("not_a_block[facing=up]", &tally), reg().fallback());
  EXPECT_EQ(mc().value_from_string("another_mod:thing", &tally), reg().fallback());
  EXPECT_EQ(mc().value_from_string("oak_slab[type=sideways]", &tally), v("oak_slab[type=bottom]"));
  EXPECT_EQ(tally.unknown_blocks, 3u);
  EXPECT_EQ(tally.unknown_properties, 1u);
  ASSERT_EQ(tally.first_unknown.size(), 2u);
  EXPECT_EQ(tally.first_unknown[0], "not_a_block");
  EXPECT_EQ(tally.first_unknown[1], "another_mod:thing");
  EXPECT_TRUE(reg().traits(reg().fallback()) & kTraitFallback);
  // Renamed since the flattening: still found.
  EXPECT_EQ(v("minecraft:grass"), v("short_grass"));
  EXPECT_EQ(v("grass_path"), v("dirt_path"));
  // Walls before 1.16 stored true/false.
  EXPECT_EQ(v("cobblestone_wall[east=true,west=false]"), v("cobblestone_wall[east=low,west=none]"));
}

TEST_F(McRegistryTest, BlockStateStringParser) {
  BlockStateString s;
  std::string msg;
  ASSERT_EQ(parse_block_state_string("minecraft:oak_door[half=upper,open=true]", s, msg),
            Status::Ok);
  EXPECT_EQ(s.name, "oak_door");
  ASSERT_EQ(s.properties.size(), 2u);
  EXPECT_EQ(s.properties[1].first, "open");
  EXPECT_EQ(s.properties[1].second, "true");
  EXPECT_EQ(parse_block_state_string("oak_door[half=upper", s, msg), Status::BadFormat);
  EXPECT_EQ(parse_block_state_string("oak_door[half]", s, msg), Status::BadFormat);
  EXPECT_EQ(parse_block_state_string("[half=upper]", s, msg), Status::BadFormat);
  EXPECT_EQ(parse_block_state_string("stone[]", s, msg), Status::Ok);
}

TEST_F(McRegistryTest, LegacyIdsAndMetadata) {
  auto lv = [&](int id, int meta) { return mc().state_string(mc().legacy_value(id, meta)); };
  EXPECT_EQ(lv(1, 0), "stone");
  EXPECT_EQ(lv(1, 3), "diorite");
  EXPECT_EQ(lv(2, 0), "grass_block[snowy=false]");
  EXPECT_EQ(lv(5, 5), "dark_oak_planks");
  EXPECT_EQ(lv(8, 3), "water[level=3]");
  EXPECT_EQ(lv(10, 0), "lava[level=0]");
  EXPECT_EQ(lv(17, 4), "oak_log[axis=x]");
  EXPECT_EQ(lv(17, 14), "birch_wood[axis=y]");
  EXPECT_EQ(lv(18, 9), "spruce_leaves[distance=7,persistent=false,waterlogged=false]");
  EXPECT_EQ(lv(31, 1), "short_grass");
  EXPECT_EQ(lv(35, 14), "red_wool");
  EXPECT_EQ(lv(37, 0), "dandelion");
  EXPECT_EQ(lv(38, 0), "poppy");
  EXPECT_EQ(lv(43, 0), "smooth_stone_slab[type=double,waterlogged=false]");
  EXPECT_EQ(lv(44, 8), "smooth_stone_slab[type=top,waterlogged=false]");
  EXPECT_EQ(lv(126, 1), "spruce_slab[type=bottom,waterlogged=false]");
  EXPECT_EQ(lv(65, 5), "ladder[facing=east,waterlogged=false]");
  EXPECT_EQ(lv(67, 6),
            "cobblestone_stairs[facing=south,half=top,shape=straight,waterlogged=false]");
  EXPECT_EQ(lv(78, 2), "snow[layers=3]");
  EXPECT_EQ(lv(80, 0), "snow_block");
  EXPECT_EQ(lv(30, 0), "cobweb");
  EXPECT_EQ(lv(88, 0), "soul_sand");
  EXPECT_EQ(lv(213, 0), "magma_block");
  EXPECT_EQ(lv(159, 11), "blue_terracotta");
  EXPECT_EQ(lv(96, 12),
            "oak_trapdoor[facing=north,half=top,open=true,powered=false,waterlogged=false]");
  EXPECT_EQ(lv(107, 6), "oak_fence_gate[facing=north,in_wall=false,open=true,powered=false]");
  // Doors keep facing/open in the lower block and hinge in the upper one.
  EXPECT_EQ(mc().state_string(mc().legacy_two_half_value(64, 4 | 1, 8 | 1, false)),
            "oak_door[facing=south,half=lower,hinge=right,open=true,powered=false]");
  EXPECT_EQ(mc().state_string(mc().legacy_two_half_value(64, 4 | 1, 8 | 1, true)),
            "oak_door[facing=south,half=upper,hinge=right,open=true,powered=false]");
  EXPECT_EQ(mc().state_string(mc().legacy_two_half_value(175, 4, 8, true)),
            "rose_bush[half=upper]");
  EXPECT_TRUE(mc().legacy_two_half(71));  // iron_door
  EXPECT_FALSE(mc().legacy_two_half(1));
  EXPECT_EQ(mc().legacy_connect_kind(85), 1);
  EXPECT_EQ(mc().legacy_connect_kind(102), 2);
  EXPECT_EQ(mc().legacy_connect_kind(139), 3);
  // Every id of blocks.pc-1.12.json maps (meta 0); unknown ids fall back.
  int ids = 0;
  for (int id = 0; id < 256; ++id) {
    if (mc().legacy_name(id).empty()) continue;
    ++ids;
    EXPECT_TRUE(mc().legacy_known(id, 0)) << id << " " << mc().legacy_name(id);
  }
  EXPECT_EQ(ids, 254);
  EXPECT_EQ(mc().legacy_value(253, 0), reg().fallback());
  EXPECT_FALSE(mc().legacy_known(253, 0));
  EXPECT_NE(loaded().legacy_message.find("254 pre-1.13 ids mapped, 0 unmapped"), std::string::npos)
      << loaded().legacy_message;
}

TEST_F(McRegistryTest, RebindAfterCopyingTheRegistry) {
  BlockRegistry copy = reg();
  MinecraftBlocks blocks = mc();
  blocks.rebind(copy);
  EXPECT_EQ(&blocks.registry(), &copy);
  LookupTally tally;
  EXPECT_EQ(blocks.value_from_string("oak_stairs[half=top]", &tally), v("oak_stairs[half=top]"));
  EXPECT_EQ(blocks.value_from_string("nope", &tally), copy.fallback());
  EXPECT_EQ(tally.unknown_blocks, 1u);
  EXPECT_EQ(blocks.legacy_value(65, 3), mc().legacy_value(65, 3));
}

TEST(McRegistryErrors, MalformedJsonIsBadFormat) {
  BlockRegistry registry;
  MinecraftBlocks blocks;
  std::string msg;
  const std::string bad = "[{\"name\": \"stone\"";
  const std::string shapes = "{\"blocks\": {}, \"shapes\": {}}";
  const std::span<const std::uint8_t> b(reinterpret_cast<const std::uint8_t*>(bad.data()),
                                        bad.size());
  const std::span<const std::uint8_t> s(reinterpret_cast<const std::uint8_t*>(shapes.data()),
                                        shapes.size());
  EXPECT_EQ(blocks.load(b, s, registry, msg), Status::BadFormat);
  EXPECT_FALSE(msg.empty());
  const std::string gap =
      "[{\"name\":\"stone\",\"minStateId\":5,\"maxStateId\":5,\"defaultState\":5}]";
  const std::span<const std::uint8_t> g(reinterpret_cast<const std::uint8_t*>(gap.data()),
                                        gap.size());
  EXPECT_EQ(blocks.load(g, s, registry, msg), Status::BadFormat);
  EXPECT_NE(msg.find("not dense"), std::string::npos) << msg;
  EXPECT_FALSE(blocks.loaded());
  EXPECT_EQ(blocks.load_legacy(s, msg), Status::InvalidArgument);
}

// ---- NBT ----

// A small writer used only to build malformed documents around real structure.
struct NbtBytes {
  std::vector<std::uint8_t> b;
  NbtBytes& u8(int v) {
    b.push_back(static_cast<std::uint8_t>(v));
    return *this;
  }
  NbtBytes& u16(int v) { return u8(v >> 8).u8(v); }
  NbtBytes& i32(std::int32_t v) {
    return u8(static_cast<int>((v >> 24) & 0xFF))
        .u8((v >> 16) & 0xFF)
        .u8((v >> 8) & 0xFF)
        .u8(v & 0xFF);
  }
  NbtBytes& i64(std::int64_t v) {
    return i32(static_cast<std::int32_t>(v >> 32)).i32(static_cast<std::int32_t>(v));
  }
  NbtBytes& name(const std::string& s) {
    u16(static_cast<int>(s.size()));
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
};

// A 1.18-style section: {Y: -4b, block_states: {palette: [{Name: "minecraft:stone"}], data: [L; 2
// longs]}}.
NbtBytes section_doc() {
  NbtBytes n;
  n.u8(10).name("");
  n.u8(1).name("Y").u8(0xFC);
  n.u8(10).name("block_states");
  n.u8(9).name("palette").u8(10).i32(1);
  n.u8(8).name("Name").name("minecraft:stone").u8(0);
  n.u8(12).name("data").i32(2).i64(0x0123456789ABCDEFll).i64(-2);
  n.u8(11).name("ints").i32(2).i32(7).i32(-7);
  n.u8(7).name("bytes").i32(3).u8(1).u8(2).u8(3);
  n.u8(6).name("d").i64(0x3FF0000000000000ll);
  n.u8(5).name("f").i32(0x40490FDB);
  n.u8(0);  // end block_states
  n.u8(0);  // end root
  return n;
}

TEST(Nbt, ParsesEveryTagType) {
  const NbtBytes n = section_doc();
  nbt::Document doc;
  std::string msg;
  ASSERT_EQ(nbt::parse(n.b, doc, msg), Status::Ok) << msg;
  EXPECT_EQ(doc.consumed, n.b.size());
  EXPECT_EQ(doc.root.get_int("Y", 0), -4);
  const nbt::Tag* bs = doc.root.get("block_states", nbt::TagType::Compound);
  ASSERT_NE(bs, nullptr);
  const nbt::Tag* pal = bs->get("palette", nbt::TagType::List);
  ASSERT_NE(pal, nullptr);
  ASSERT_EQ(pal->list.size(), 1u);
  EXPECT_EQ(pal->list[0].get_string("Name"), "minecraft:stone");
  const nbt::Tag* data = bs->get("data", nbt::TagType::LongArray);
  ASSERT_NE(data, nullptr);
  ASSERT_EQ(data->longs.size(), 2u);
  EXPECT_EQ(data->longs[0], 0x0123456789ABCDEFll);
  EXPECT_EQ(data->longs[1], -2);
  EXPECT_EQ(bs->get("ints", nbt::TagType::IntArray)->ints[1], -7);
  EXPECT_EQ(bs->get("bytes", nbt::TagType::ByteArray)->bytes[2], 3);
  EXPECT_EQ(bs->get("d")->real, 1.0);
  EXPECT_FLOAT_EQ(static_cast<float>(bs->get("f")->real), 3.14159274f);
}

TEST(Nbt, EveryTruncationIsBadFormat) {
  const NbtBytes n = section_doc();
  for (std::size_t len = 0; len < n.b.size(); ++len) {
    nbt::Document doc;
    std::string msg;
    const std::span<const std::uint8_t> prefix(n.b.data(), len);
    EXPECT_EQ(nbt::parse(prefix, doc, msg), Status::BadFormat) << "prefix " << len;
    EXPECT_FALSE(msg.empty());
  }
}

TEST(Nbt, MalformedInputIsBadFormat) {
  nbt::Document doc;
  std::string msg;
  // Unknown tag type inside a compound.
  NbtBytes a;
  a.u8(10).name("").u8(13).name("x").u8(0);
  EXPECT_EQ(nbt::parse(a.b, doc, msg), Status::BadFormat);
  EXPECT_NE(msg.find("unknown tag type 13"), std::string::npos) << msg;
  // Negative array length.
  NbtBytes b;
  b.u8(10).name("").u8(12).name("data").i32(-1).u8(0);
  EXPECT_EQ(nbt::parse(b.b, doc, msg), Status::BadFormat);
  EXPECT_NE(msg.find("negative length"), std::string::npos) << msg;
  // A long array claiming 2^28 elements must fail before allocating.
  NbtBytes c;
  c.u8(10).name("").u8(12).name("data").i32(1 << 28).i64(1).u8(0);
  EXPECT_EQ(nbt::parse(c.b, doc, msg), Status::BadFormat);
  EXPECT_NE(msg.find("truncated LongArray"), std::string::npos) << msg;
  // A list of End tags with elements.
  NbtBytes d;
  d.u8(10).name("").u8(9).name("l").u8(0).i32(5).u8(0);
  EXPECT_EQ(nbt::parse(d.b, doc, msg), Status::BadFormat);
  // Root End tag.
  NbtBytes e;
  e.u8(0);
  EXPECT_EQ(nbt::parse(e.b, doc, msg), Status::BadFormat);
  // Nesting deeper than the limit (lists of lists).
  NbtBytes f;
  f.u8(9).name("");
  for (int i = 0; i < nbt::kMaxDepth + 10; ++i) f.u8(9).i32(1);
  f.u8(1).i32(0);
  EXPECT_EQ(nbt::parse(f.b, doc, msg), Status::BadFormat);
  EXPECT_NE(msg.find("nesting"), std::string::npos) << msg;
  // Empty input.
  EXPECT_EQ(nbt::parse({}, doc, msg), Status::BadFormat);
}

// ---- Moving AI ----

TEST(MovingAi, ParsesRealMaps) {
  struct Expect {
    const char* name;
    int w, h;
    std::size_t passable;
  };
  // Passable counts ('.', 'G', 'S') counted independently from the map files.
  const Expect maps[] = {{"arena", 49, 49, 2054},
                         {"den312d", 65, 81, 2445},
                         {"maze512-1-0", 512, 512, 131071},
                         {"random512-10-0", 512, 512, 235900},
                         {"AcrosstheCape", 768, 768, 392287}};
  for (const Expect& e : maps) {
    MovingAiMap m;
    std::string msg;
    ASSERT_EQ(parse_movingai_map(read_text(kMovingAi + "maps/" + e.name + ".map"), m, msg),
              Status::Ok)
        << e.name << ": " << msg;
    EXPECT_EQ(m.width, e.w) << e.name;
    EXPECT_EQ(m.height, e.h) << e.name;
    EXPECT_EQ(m.passable_count(), e.passable) << e.name;
  }
  MovingAiMap arena;
  std::string msg;
  ASSERT_EQ(parse_movingai_map(read_text(kMovingAi + "maps/arena.map"), arena, msg), Status::Ok);
  EXPECT_EQ(arena.tile(0, 0), 'T');
  EXPECT_TRUE(arena.passable(19, 26));
  EXPECT_FALSE(arena.passable(0, 0));
  EXPECT_FALSE(arena.passable(49, 0));
}

TEST(MovingAi, ParsesRealScenarios) {
  std::vector<MovingAiScenario> rows;
  std::string msg;
  ASSERT_EQ(parse_movingai_scen(read_text(kMovingAi + "scens/arena.map.scen"), rows, msg),
            Status::Ok)
      << msg;
  ASSERT_EQ(rows.size(), 130u);
  EXPECT_EQ(rows[0].map, "arena.map");
  EXPECT_EQ(rows[0].start_x, 19);
  EXPECT_EQ(rows[0].start_y, 26);
  EXPECT_EQ(rows[0].goal_x, 19);
  EXPECT_EQ(rows[0].goal_y, 29);
  EXPECT_DOUBLE_EQ(rows[0].optimal, 3.0);
  EXPECT_EQ(rows.back().bucket, 12);
  EXPECT_DOUBLE_EQ(rows.back().optimal, 48.38477631);
  ASSERT_EQ(parse_movingai_scen(read_text(kMovingAi + "scens/maze512-1-0.map.scen"), rows, msg),
            Status::Ok);
  EXPECT_EQ(rows.size(), 12120u);
  EXPECT_EQ(rows[0].map_width, 512);
}

TEST(MovingAi, MalformedFilesAreRejected) {
  MovingAiMap m;
  std::string msg;
  EXPECT_EQ(parse_movingai_map("type octile\nheight 2\nwidth 3\nmap\n...\n..\n", m, msg),
            Status::BadFormat);
  EXPECT_NE(msg.find("line 6"), std::string::npos) << msg;
  EXPECT_EQ(parse_movingai_map("type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", m, msg),
            Status::BadFormat);
  EXPECT_NE(msg.find("unknown tile 'x'"), std::string::npos) << msg;
  EXPECT_EQ(parse_movingai_map("type octile\nheight 3\nwidth 3\nmap\n...\n...\n", m, msg),
            Status::BadFormat);
  EXPECT_EQ(parse_movingai_map("type hex\nheight 1\nwidth 1\nmap\n.\n", m, msg),
            Status::Unsupported);
  EXPECT_EQ(parse_movingai_map("type octile\r\nheight 1\r\nwidth 2\r\nmap\r\n.@\r\n", m, msg),
            Status::Ok)
      << msg;
  EXPECT_EQ(m.passable_count(), 1u);
  std::vector<MovingAiScenario> rows;
  EXPECT_EQ(parse_movingai_scen("version 1\n0\tarena.map\t49\t49\t19\t26\t19\n", rows, msg),
            Status::BadFormat);
  EXPECT_NE(msg.find("line 2"), std::string::npos) << msg;
  EXPECT_EQ(parse_movingai_scen("", rows, msg), Status::BadFormat);
}

TEST_F(McRegistryTest, MovingAiVoxelWorld) {
  MovingAiMap m;
  std::string msg;
  ASSERT_EQ(parse_movingai_map(read_text(kMovingAi + "maps/arena.map"), m, msg), Status::Ok);
  Space space(&reg());
  const std::uint16_t stone = reg().find("stone");
  MovingAiWorldInfo info;
  ASSERT_EQ(build_movingai_world(m, stone, space, &info), Status::Ok);
  // 49 x 49 -> 4 x 4 chunk columns, layer 0 (terrain) + layer 1 (uniform air).
  EXPECT_EQ(info.chunks_loaded, 32u);
  EXPECT_EQ(info.uniform_chunks, 16u);
  EXPECT_EQ(space.chunk_count(), 32u);
  EXPECT_EQ(info.max.x, 48);
  EXPECT_EQ(info.max.z, 48);
  std::size_t open = 0, walls = 0;
  for (int z = 0; z < m.height; ++z) {
    for (int x = 0; x < m.width; ++x) {
      EXPECT_EQ(space.block({x, 0, z}), stone);  // floor everywhere
      const bool pass = m.passable(x, z);
      for (int y = 1; y <= kMovingAiWallTop; ++y) {
        ASSERT_EQ(space.block({x, y, z}), pass ? 0 : stone) << x << "," << y << "," << z;
      }
      EXPECT_EQ(space.block({x, kMovingAiWallTop + 1, z}), 0);
      (pass ? open : walls) += 1;
    }
  }
  EXPECT_EQ(open, 2054u);
  EXPECT_EQ(walls, 347u);
  // Cells of the edge chunks beyond the map are walls; above the walls is loaded air.
  EXPECT_EQ(space.block({60, 2, 10}), stone);
  EXPECT_TRUE(space.is_cell_loaded({10, 20, 10}));
  EXPECT_EQ(space.chunk({0, 1, 0})->uniform, true);
  EXPECT_EQ(build_movingai_world(m, 0, space, nullptr),
            Status::InvalidArgument);  // air is not solid
}

}  // namespace
}  // namespace voxnav::detail
