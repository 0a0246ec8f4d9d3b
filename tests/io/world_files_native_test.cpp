// Native file loaders (voxnav/native/files.h over voxnav/io.h) on the real data: Anvil regions of
// 1.12.2, 1.16 and 1.18.2, the Sponge schematic smallhouse1.schem, Moving AI maps, and clean errors
// for truncated / corrupt / unknown files. Each load goes into a World of its own; the census reads
// its blocks through the test-only WorldAccess. Expected block counts were computed once with an independent Python NBT reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "engine/io/anvil_chunk.h"
#include "engine/io/minecraft_registry.h"
#include "engine/io/nbt.h"
#include "engine/io/schematic.h"
#include "engine/world/registry.h"
#include "engine/nav/world_access.h"
#include "engine/world/space.h"
#include "scenes.h"
#include "voxnav/io.h"
#include "voxnav/native/files.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

using detail::BlockRegistry;
using detail::MinecraftBlocks;
using detail::Space;

const std::string kShared = VOXNAV_SHARED_DATA;
const std::string kRepoData = std::string(VOXNAV_FIXTURES) + "/../../data";
const std::string kRegions = kShared + "/minecraft/regions/";
const std::string kSchem = kShared + "/minecraft/schematics/smallhouse1.schem";

/// The shared Minecraft registry: a World with the blocks loaded and no chunk. Every World a test
/// loads a file into gets the same registry (same values), so reg() and mc() name their values.
struct Loaded {
  World world;
  Status status;
  std::string message;
  Loaded() {
    status = native::load_minecraft_blocks_dir(world, kShared + "/minecraft/blocks", &message);
  }
  const BlockRegistry& registry() const { return detail::WorldAccess::state(world).registry; }
  const MinecraftBlocks& blocks() const { return detail::WorldAccess::state(world).blocks; }
};

const Loaded& loaded() {
  static const Loaded* l = new Loaded();
  return *l;
}

/// Counts of cells per block name over every loaded chunk, plus a few aggregates.
struct Census {
  std::map<std::string, std::uint64_t> by_name;
  std::uint64_t non_air = 0, non_air_below_zero = 0, swim = 0, doors_open = 0;
};

Census census(const Space& space) {
  Census c;
  std::vector<std::uint64_t> per_value(space.registry().size(), 0);
  std::uint64_t below_total = 0;
  for (const ChunkPos& p : space.loaded_chunks()) {
    const detail::Chunk* ch = space.chunk(p);
    if (ch->uniform) {
      per_value[ch->uniform_value] += detail::kChunkCells;
      if (p.y < 0 && ch->uniform_value != 0) below_total += detail::kChunkCells;
      continue;
    }
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const std::uint16_t v = ch->values[static_cast<std::size_t>(i)];
      ++per_value[v];
      if (p.y < 0 && v != 0) ++below_total;
    }
  }
  const BlockRegistry& reg = space.registry();
  for (std::size_t v = 0; v < per_value.size(); ++v) {
    if (per_value[v] == 0) continue;
    const auto& t = reg.type(static_cast<std::uint16_t>(v));
    c.by_name[t.name] += per_value[v];
    if (v != 0) c.non_air += per_value[v];
    if (t.traits & detail::kTraitFluidSwim) c.swim += per_value[v];
    if ((t.traits & detail::kTraitDoor) && (t.traits & detail::kTraitDoorOpen))
      c.doors_open += per_value[v];
  }
  c.non_air_below_zero = below_total;
  return c;
}

std::uint64_t count(const Census& c, const char* name) {
  auto it = c.by_name.find(name);
  return it == c.by_name.end() ? 0 : it->second;
}

class WorldFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(loaded().status, Status::Ok) << loaded().message; }
  const MinecraftBlocks& mc() const { return loaded().blocks(); }
  const BlockRegistry& reg() const { return loaded().registry(); }

  Status load(const std::string& path, World& world, LoadReport& r, const LoadOptions& o = {}) {
    const auto t0 = std::chrono::steady_clock::now();
    const Status s = native::load_world_file(world, path, o, &r);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "[ load     ] %s: %s, %.1f ms, %zu columns, %zu chunks (%zu uniform), %llu unknown, %s\n",
        path.substr(path.rfind('/') + 1).c_str(), r.format.c_str(), ms, r.columns_loaded,
        r.chunks_loaded, r.uniform_chunks, static_cast<unsigned long long>(r.unknown_blocks),
        r.message.c_str());
    return s;
  }
};

/// A World with the Minecraft registry loaded and no chunk; `space` is its block space.
struct Target {
  World world;
  Space& space = detail::WorldAccess::state(world).space;
  Target() {
    std::string msg;
    EXPECT_EQ(native::load_minecraft_blocks_dir(world, kShared + "/minecraft/blocks", &msg),
              Status::Ok)
        << msg;
  }
};

std::vector<std::uint8_t> file_bytes(const std::string& path) {
  std::vector<std::uint8_t> out;
  std::string msg;
  EXPECT_EQ(native::read_file(path, out, &msg), Status::Ok) << msg;
  return out;
}

/// The NBT bytes of one present region chunk (a range list_region_chunks gave, inflated).
std::vector<std::uint8_t> chunk_nbt(std::span<const std::uint8_t> file, const RegionChunk& c) {
  std::vector<std::uint8_t> out;
  std::string msg;
  const auto data = file.subspan(c.offset, c.size);
  if (c.compression == RegionCompression::None)
    out.assign(data.begin(), data.end());
  else
    EXPECT_EQ(native::zlib_inflate(data, out, kMaxInflatedBytes, &msg), Status::Ok) << msg;
  return out;
}

TEST_F(WorldFilesTest, RegistryFromRepositoryCopyMatchesShared) {
  World world;
  std::string msg;
  ASSERT_EQ(native::load_minecraft_blocks_dir(world, kRepoData + "/blocks", &msg), Status::Ok)
      << msg;
  EXPECT_EQ(detail::WorldAccess::state(world).registry.size(), reg().size());
  EXPECT_TRUE(detail::WorldAccess::state(world).blocks.legacy_loaded());
  EXPECT_NE(msg.find("254 pre-1.13 ids mapped"), std::string::npos) << msg;
  World other;
  EXPECT_EQ(native::load_minecraft_blocks_dir(other, "/nonexistent", &msg), Status::NotFound);
}

TEST_F(WorldFilesTest, Region_1_12_2) {
  Target t;
  Space& space = t.space;
  LoadReport r;
  ASSERT_EQ(load(kRegions + "1.12.2/r.0.-1.mca", t.world, r), Status::Ok) << r.message;
  EXPECT_EQ(r.format, "anvil-1.12");
  EXPECT_EQ(r.columns_loaded, 105u);
  EXPECT_EQ(r.chunks_loaded, 105u * 16);  // sections 0..5 stored, 6..15 air
  EXPECT_EQ(space.chunk_count(), 105u * 16);
  EXPECT_EQ(r.data_version, 1343);
  EXPECT_EQ(r.unknown_blocks, 0u);
  EXPECT_TRUE(r.unknown_names.empty());
  ASSERT_TRUE(r.has_bounds);
  EXPECT_EQ(r.min, (CellPos{16, 0, -80}));
  EXPECT_EQ(r.max, (CellPos{26 * 16 + 15, 255, -1}));
  const Census c = census(space);
  // Counted by numeric id + metadata with the Python reader.
  EXPECT_EQ(count(c, "stone"), 1292034u);
  EXPECT_EQ(count(c, "granite"), 58697u);
  EXPECT_EQ(count(c, "diorite"), 57618u);
  EXPECT_EQ(count(c, "andesite"), 65140u);
  EXPECT_EQ(count(c, "water"), 5154u + 38u);  // water + flowing_water
  EXPECT_EQ(count(c, "lava"), 10437u + 37u);
  EXPECT_EQ(count(c, "oak_leaves"), 10379u + 9058u);
  EXPECT_EQ(count(c, "birch_leaves"), 2134u + 2214u);
  EXPECT_EQ(count(c, "short_grass"), 1234u);
  EXPECT_EQ(count(c, "infested_stone"), 729u);
  EXPECT_EQ(count(c, "grass_block"), 19696u);
  EXPECT_EQ(count(c, "rose_bush") + count(c, "peony"), 20u);  // double plants: 10 lower + 10 upper
  EXPECT_EQ(count(c, "bedrock"), 80646u);
  EXPECT_EQ(c.non_air, 534u * 4096 - 435533u);  // 534 stored sections, 435533 air cells in them
  EXPECT_EQ(c.swim, 5192u);
}

TEST_F(WorldFilesTest, Region_1_12_2_PairsDoublePlantHalves) {
  Target t;
  Space& space = t.space;
  LoadReport r;
  ASSERT_EQ(load(kRegions + "1.12.2/r.0.-1.mca", t.world, r), Status::Ok) << r.message;
  // Every upper half of a tall plant takes its kind from the lower half below it.
  std::size_t pairs = 0;
  for (const ChunkPos& p : space.loaded_chunks()) {
    const detail::Chunk* ch = space.chunk(p);
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const std::uint16_t v = ch->values[static_cast<std::size_t>(i)];
      if (mc().property(v, "half") != "upper" ||
          reg().type(v).name.find("door") != std::string::npos)
        continue;
      const CellPos cell{p.x * 16 + (i & 15), p.y * 16 + (i >> 8), p.z * 16 + ((i >> 4) & 15)};
      const std::uint16_t below = space.block({cell.x, cell.y - 1, cell.z});
      EXPECT_EQ(reg().type(below).name, reg().type(v).name);
      EXPECT_EQ(mc().property(below, "half"), "lower");
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 10u);
}

// The 1.12 region has no fences or doors, so a real chunk is edited: a fence line, a gate and a
// door are written into its Blocks/Data arrays the way 1.12 stores them.
TEST_F(WorldFilesTest, Region_1_12_2_FenceConnectionsAndDoorHalves) {
  const std::vector<std::uint8_t> file = file_bytes(kRegions + "1.12.2/r.0.-1.mca");
  std::string msg;
  std::vector<RegionChunk> entries;
  ASSERT_EQ(list_region_chunks(file, &entries, &msg), Status::Ok) << msg;
  const std::vector<std::uint8_t> raw = chunk_nbt(file, entries[0]);
  detail::nbt::Document doc;
  ASSERT_EQ(detail::nbt::parse(raw, doc, msg), Status::Ok);
  auto* level = const_cast<detail::nbt::Tag*>(doc.root.get("Level"));
  ASSERT_NE(level, nullptr);
  auto* sections = const_cast<detail::nbt::Tag*>(level->get("Sections"));
  detail::nbt::Tag* sec4 = nullptr;
  for (auto& s : sections->list) {
    if (s.get_int("Y", -1) == 4) sec4 = &s;
  }
  ASSERT_NE(sec4, nullptr);
  auto& ids = const_cast<detail::nbt::Tag*>(sec4->get("Blocks"))->bytes;
  auto& data = const_cast<detail::nbt::Tag*>(sec4->get("Data"))->bytes;
  auto put = [&](int x, int y, int z, int id, int meta) {  // y inside the section (cell y 64 + y)
    const int i = x | (z << 4) | (y << 8);
    ids[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(id);
    auto& d = data[static_cast<std::size_t>(i >> 1)];
    const int byte = static_cast<std::uint8_t>(d);
    d = static_cast<std::int8_t>((i & 1) != 0 ? (byte & 0x0F) | (meta << 4) : (byte & 0xF0) | meta);
  };
  for (int y = 4; y <= 8; ++y) {
    for (int z = 0; z < 16; ++z) {
      for (int x = 0; x < 16; ++x) put(x, y, z, 0, 0);
    }
  }
  put(1, 5, 3, 1, 0);                                // stone
  for (int x = 2; x <= 5; ++x) put(x, 5, 3, 85, 0);  // oak fence line along x
  put(6, 5, 3, 107, 0);                              // fence gate
  put(3, 5, 4, 85, 0);                               // a branch to the south of x = 3
  put(10, 5, 3, 113, 0);                             // lone nether brick fence next to ...
  put(11, 5, 3, 85, 0);                              // ... an oak fence: they do not connect
  put(8, 5, 8, 64, 4 | 1);                           // door lower half: facing south, open
  put(8, 6, 8, 64, 8 | 1);                           // door upper half: hinge right
  detail::DecodedColumn col;
  detail::LookupTally tally;
  ASSERT_EQ(detail::decode_anvil_chunk(doc.root, mc(), col, tally, msg), Status::Ok) << msg;
  EXPECT_EQ(tally.unknown_blocks, 0u);
  Target t;
  Space& space = t.space;
  ASSERT_EQ(detail::load_decoded_column(col, space), Status::Ok);
  const int bx = col.x * 16, bz = col.z * 16, y = 64 + 5;
  auto at = [&](int x, int yy, int z) {
    return mc().state_string(space.block({bx + x, yy, bz + z}));
  };
  EXPECT_EQ(at(2, y, 3),
            "oak_fence[east=true,north=false,south=false,waterlogged=false,west=true]");
  EXPECT_EQ(at(3, y, 3), "oak_fence[east=true,north=false,south=true,waterlogged=false,west=true]");
  EXPECT_EQ(at(5, y, 3),
            "oak_fence[east=true,north=false,south=false,waterlogged=false,west=true]");
  EXPECT_EQ(at(3, y, 4),
            "oak_fence[east=false,north=true,south=false,waterlogged=false,west=false]");
  EXPECT_EQ(at(10, y, 3),
            "nether_brick_fence[east=false,north=false,south=false,waterlogged=false,west=false]");
  EXPECT_EQ(at(11, y, 3),
            "oak_fence[east=false,north=false,south=false,waterlogged=false,west=false]");
  EXPECT_EQ(at(8, y, 8), "oak_door[facing=south,half=lower,hinge=right,open=true,powered=false]");
  EXPECT_EQ(at(8, y + 1, 8),
            "oak_door[facing=south,half=upper,hinge=right,open=true,powered=false]");
  const std::uint16_t lower = space.block({bx + 8, y, bz + 8});
  EXPECT_EQ(reg().traits(lower), detail::kTraitDoor | detail::kTraitDoorOpen);
}

TEST_F(WorldFilesTest, Region_1_16) {
  Target t;
  Space& space = t.space;
  LoadReport r;
  ASSERT_EQ(load(kRegions + "1.16/r.0.-1.mca", t.world, r), Status::Ok) << r.message;
  EXPECT_EQ(r.format, "anvil-1.13");
  EXPECT_EQ(r.columns_loaded, 253u);
  EXPECT_EQ(r.chunks_loaded, 253u * 16);  // the light-only Y = -1 sections are not chunks
  EXPECT_EQ(r.data_version, 2566);
  EXPECT_EQ(r.unknown_blocks, 0u);  // 1.16 "grass" is read as 1.20's "short_grass"
  EXPECT_EQ(r.unknown_properties, 0u);
  EXPECT_EQ(r.min, (CellPos{3 * 16, 0, -11 * 16}));
  EXPECT_EQ(r.max, (CellPos{25 * 16 + 15, 255, -1}));
  const Census c = census(space);
  EXPECT_EQ(count(c, "stone"), 3710840u);
  EXPECT_EQ(count(c, "water"), 6941u);
  EXPECT_EQ(count(c, "lava"), 23981u);
  EXPECT_EQ(count(c, "snow"), 11260u);
  EXPECT_EQ(count(c, "short_grass"), 2288u);
  EXPECT_EQ(count(c, "grass_block"), 57982u);
  EXPECT_EQ(count(c, "oak_fence"), 12u);
  EXPECT_EQ(count(c, "cobweb"), 3u);
  EXPECT_EQ(count(c, "seagrass"), 14u);
  EXPECT_EQ(count(c, "air"), 11389027u + 109073u);  // air + cave_air, both value 0
}

TEST_F(WorldFilesTest, Region_1_18_2_TallWorld) {
  Target t;
  Space& space = t.space;
  LoadReport r;
  ASSERT_EQ(load(kRegions + "1.18.2/r.0.0.mca", t.world, r), Status::Ok) << r.message;
  EXPECT_EQ(r.format, "anvil-1.18");
  // 280 chunks in the file: 27 full, 28 partly generated with terrain, 225 empty placeholders.
  EXPECT_EQ(r.columns_loaded, 55u);
  EXPECT_EQ(r.empty_proto_chunks, 225u);
  EXPECT_EQ(r.chunks_loaded, 55u * 24);  // y -64..319
  EXPECT_EQ(r.data_version, 2975);
  EXPECT_EQ(r.unknown_blocks, 0u);
  EXPECT_EQ(r.min.y, -64);
  EXPECT_EQ(r.max.y, 319);
  const Census c = census(space);
  EXPECT_EQ(c.non_air_below_zero, 815116u);  // solid ground below y = 0
  EXPECT_EQ(count(c, "water"), 325456u);
  EXPECT_EQ(count(c, "lava"), 1454u);
  EXPECT_EQ(count(c, "stone"), 390689u);
  EXPECT_EQ(count(c, "kelp"), 449u);
  EXPECT_EQ(count(c, "bubble_column"), 24u);
  // water + kelp + seagrass + bubble columns + waterlogged states (34 glow lichen).
  EXPECT_EQ(c.swim, 331297u);
  EXPECT_NE(space.block({r.min.x, -64, r.min.z}), 0);  // bedrock floor
  EXPECT_EQ(reg().type(space.block({r.min.x, -64, r.min.z})).name, "bedrock");

  // Without skipping placeholders every chunk of the file is loaded.
  Target all;
  LoadOptions o;
  o.skip_empty_proto_chunks = false;
  ASSERT_EQ(load(kRegions + "1.18.2/r.0.0.mca", all.world, r, o), Status::Ok);
  EXPECT_EQ(r.columns_loaded, 280u);
  EXPECT_EQ(r.chunks_loaded, 280u * 24);
  o.full_chunks_only = true;
  Target full;
  ASSERT_EQ(load(kRegions + "1.18.2/r.0.0.mca", full.world, r, o), Status::Ok);
  EXPECT_EQ(r.columns_loaded, 27u);
}

TEST_F(WorldFilesTest, RepositoryDefaultWorldIsThe_1_18_2_Region) {
  Target t;
  LoadReport r;
  ASSERT_EQ(load(kRepoData + "/worlds/r.0.0.mca", t.world, r), Status::Ok) << r.message;
  EXPECT_EQ(r.columns_loaded, 55u);
  EXPECT_EQ(r.chunks_loaded, 1320u);
}

TEST_F(WorldFilesTest, SpongeSchematicSmallHouse) {
  Target t;
  Space& space = t.space;
  LoadReport r;
  ASSERT_EQ(load(kSchem, t.world, r), Status::Ok) << r.message;
  EXPECT_EQ(r.format, "sponge-v2");
  EXPECT_EQ(r.data_version, 2584);
  EXPECT_EQ(r.unknown_blocks, 0u);
  EXPECT_EQ(r.unknown_properties, 0u);
  EXPECT_EQ(r.min, (CellPos{0, 0, 0}));
  EXPECT_EQ(r.max, (CellPos{20, 27, 19}));  // 21 x 28 x 20
  EXPECT_EQ(r.chunks_loaded, 8u);
  const Census c = census(space);
  EXPECT_EQ(c.non_air, 3201u);
  EXPECT_EQ(count(c, "oak_door"), 8u);  // 4 doors x 2 halves
  EXPECT_EQ(c.doors_open, 2u);          // one open door (both halves)
  EXPECT_EQ(count(c, "ladder"), 5u);
  EXPECT_EQ(count(c, "spruce_stairs"), 513u);
  EXPECT_EQ(count(c, "spruce_fence"), 95u);
  EXPECT_EQ(count(c, "oak_trapdoor"), 39u);
  EXPECT_EQ(count(c, "cauldron"), 1u);  // 1.16 cauldron[level=0]: level ignored
  for (int y = 13; y <= 17; ++y) {
    const std::uint16_t v = space.block({10, y, 14});
    EXPECT_EQ(reg().type(v).name, "ladder");
    EXPECT_TRUE(reg().traits(v) & detail::kTraitClimbable);
  }
  const std::uint16_t open_lower = space.block({10, 1, 13});
  EXPECT_EQ(mc().state_string(open_lower),
            "oak_door[facing=south,half=lower,hinge=left,open=true,powered=false]");
  EXPECT_EQ(mc().state_string(reg().type(open_lower).open_value),
            "oak_door[facing=south,half=lower,hinge=left,open=false,powered=false]");
  EXPECT_EQ(mc().state_string(space.block({10, 2, 5})),
            "oak_door[facing=north,half=upper,hinge=right,open=false,powered=false]");

  // Placed elsewhere: same blocks, shifted.
  Target moved_world;
  Space& moved = moved_world.space;
  LoadOptions o;
  o.schematic_origin = CellPos{-8, 64, 100};
  ASSERT_EQ(load(kSchem, moved_world.world, r, o), Status::Ok);
  EXPECT_EQ(r.min, (CellPos{-8, 64, 100}));
  EXPECT_EQ(moved.block({10 - 8, 64 + 13, 14 + 100}), space.block({10, 13, 14}));
  EXPECT_EQ(census(moved).non_air, 3201u);
}

TEST_F(WorldFilesTest, UnknownSchematicNamesAreCountedAndReported) {
  const std::vector<std::uint8_t> gz = file_bytes(kSchem);
  std::vector<std::uint8_t> raw;
  std::string msg;
  ASSERT_EQ(native::zlib_inflate(gz, raw, kMaxInflatedBytes, &msg), Status::Ok) << msg;
  detail::nbt::Document doc;
  ASSERT_EQ(detail::nbt::parse(raw, doc, msg), Status::Ok) << msg;
  // Rename the lantern states to names this registry does not know.
  std::size_t renamed = 0;
  for (const char* key : {"Palette"}) {
    auto* pal = const_cast<detail::nbt::Tag*>(doc.root.get(key));
    ASSERT_NE(pal, nullptr);
    for (auto& [name, idx] : pal->compound) {
      if (name.rfind("minecraft:lantern", 0) == 0) {
        name = "somemod:glow_lamp" + name.substr(17);
        ++renamed;
      }
    }
  }
  EXPECT_EQ(renamed, 2u);
  detail::DecodedSchematic sch;
  detail::LookupTally tally;
  ASSERT_EQ(detail::decode_sponge_schematic(doc.root, mc(), CellPos{0, 0, 0}, sch, tally, msg),
            Status::Ok)
      << msg;
  EXPECT_EQ(tally.unknown_blocks, 53u);  // every lantern cell
  ASSERT_EQ(tally.first_unknown.size(), 2u);
  EXPECT_EQ(tally.first_unknown[0].rfind("somemod:glow_lamp[", 0), 0u) << tally.first_unknown[0];
  Target t;
  Space& space = t.space;
  ASSERT_EQ(detail::load_decoded_chunks(sch.chunks, space), Status::Ok);
  EXPECT_EQ(census(space).by_name["voxnav:unknown"], 53u);
}

TEST_F(WorldFilesTest, MovingAiMapFile) {
  Target t;
  Space& space = t.space;
  LoadReport r;
  ASSERT_EQ(load(kShared + "/movingai-2d/maps/den312d.map", t.world, r), Status::Ok) << r.message;
  EXPECT_EQ(r.format, "movingai-map");
  EXPECT_EQ(r.max, (CellPos{64, 4, 80}));
  EXPECT_EQ(r.chunks_loaded, 5u * 6 * 2);
  EXPECT_EQ(census(space).by_name["stone"],
            65u * 81 + (65u * 81 - 2445) * 4 + (80u * 96 - 65 * 81) * 5);
}

// ---- errors ----

std::string temp_file(const std::string& name, const std::vector<std::uint8_t>& bytes) {
  const auto path = std::filesystem::temp_directory_path() / ("voxnav_io_test_" + name);
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

TEST_F(WorldFilesTest, TruncatedRegionIsACleanError) {
  const std::vector<std::uint8_t> file = file_bytes(kRegions + "1.16/r.0.-1.mca");
  std::string msg;
  // The end of the last chunk's data (the rest of its last sector is padding).
  std::vector<RegionChunk> entries;
  ASSERT_EQ(list_region_chunks(file, &entries, &msg), Status::Ok) << msg;
  std::size_t data_end = 0;
  for (const auto& e : entries) data_end = std::max(data_end, e.offset + e.size);
  ASSERT_GT(data_end, file.size() - 4096);
  for (std::size_t len : {std::size_t{0}, std::size_t{100}, std::size_t{5000}, file.size() / 2,
                          file.size() - 4096, data_end - 1}) {
    std::vector<std::uint8_t> cut(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(len));
    const std::string path = temp_file("truncated.mca", cut);
    Target t;
    LoadReport r;
    EXPECT_EQ(load(path, t.world, r), Status::BadFormat) << len;
    EXPECT_EQ(t.space.chunk_count(), 0u) << len;  // all or nothing
    EXPECT_FALSE(r.message.empty());
    std::filesystem::remove(path);
  }
}

TEST_F(WorldFilesTest, CorruptRegionEntriesAreCleanErrors) {
  const std::vector<std::uint8_t> file = file_bytes(kRegions + "1.18.2/r.0.0.mca");
  std::string msg;
  std::vector<RegionChunk> entries;
  ASSERT_EQ(list_region_chunks(file, &entries, &msg), Status::Ok) << msg;
  EXPECT_EQ(entries.size(), 280u);
  {  // a location pointing into the header
    auto bad = file;
    const std::size_t e = static_cast<std::size_t>(entries[3].index) * 4;
    bad[e] = 0;
    bad[e + 1] = 0;
    bad[e + 2] = 1;
    ASSERT_EQ(list_region_chunks(bad, &entries, &msg), Status::BadFormat);
    EXPECT_NE(msg.find("inside the header"), std::string::npos) << msg;
  }
  ASSERT_EQ(list_region_chunks(file, &entries, &msg), Status::Ok);
  {  // a location past the end of the file
    auto bad = file;
    const std::size_t e = static_cast<std::size_t>(entries[5].index) * 4;
    bad[e] = 0x7F;
    ASSERT_EQ(list_region_chunks(bad, &entries, &msg), Status::BadFormat);
    EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
  }
  ASSERT_EQ(list_region_chunks(file, &entries, &msg), Status::Ok);
  {  // corrupt compressed bytes, an unknown compression type, a length past its sectors
    const RegionChunk c7 = entries[7];
    const std::size_t start = c7.offset - 5;  // the chunk's 4-byte length and compression byte
    auto bad = file;
    for (std::size_t i = start + 20; i < start + 60; ++i) bad[i] ^= 0x5A;
    std::vector<std::uint8_t> out;
    std::vector<RegionChunk> listed;
    ASSERT_EQ(list_region_chunks(bad, &listed, &msg), Status::Ok);  // the table is intact
    EXPECT_EQ(native::zlib_inflate(std::span<const std::uint8_t>(bad).subspan(c7.offset, c7.size),
                                   out, kMaxInflatedBytes, &msg),
              Status::BadFormat);
    bad = file;
    bad[start + 4] = 9;
    EXPECT_EQ(list_region_chunks(bad, &listed, &msg), Status::BadFormat);
    EXPECT_NE(msg.find("compression type 9"), std::string::npos) << msg;
    bad = file;
    bad[start] = 0x10;
    EXPECT_EQ(list_region_chunks(bad, &listed, &msg), Status::BadFormat);
    bad = file;
    bad[start + 4] = 4;  // LZ4: skipped, not an error
    ASSERT_EQ(list_region_chunks(bad, &listed, &msg), Status::Ok);
    ASSERT_EQ(listed.size(), entries.size());
    EXPECT_TRUE(listed[7].skipped);
  }
}

TEST_F(WorldFilesTest, TruncatedChunkNbtNeverCrashes) {
  const std::vector<std::uint8_t> file = file_bytes(kRegions + "1.16/r.0.-1.mca");
  std::string msg;
  std::vector<RegionChunk> entries;
  ASSERT_EQ(list_region_chunks(file, &entries, &msg), Status::Ok) << msg;
  const std::vector<std::uint8_t> chunk = chunk_nbt(file, entries[0]);
  ASSERT_GT(chunk.size(), 10000u);
  std::vector<std::size_t> lengths;
  for (std::size_t i = 0; i < 300; ++i) lengths.push_back(i);
  for (std::size_t i = 300; i < chunk.size(); i += chunk.size() / 400) lengths.push_back(i);
  lengths.push_back(chunk.size() - 1);
  for (std::size_t len : lengths) {
    detail::nbt::Document doc;
    EXPECT_EQ(detail::nbt::parse(std::span<const std::uint8_t>(chunk.data(), len), doc, msg),
              Status::BadFormat)
        << len;
  }
  detail::DecodedColumn col;
  detail::LookupTally tally;
  EXPECT_EQ(detail::decode_anvil_chunk_bytes(chunk, mc(), col, tally, msg), Status::Ok) << msg;
  EXPECT_EQ(col.sections.size(), 16u);
}

// Byte flips in real chunk NBT of each version: parsing and decoding either succeed or return
// BadFormat; they never crash or read out of bounds (the suite also runs under ASan/UBSan).
TEST_F(WorldFilesTest, MutatedChunksNeverCrash) {
  std::uint64_t seed = 0x9E3779B97F4A7C15ull;
  auto next = [&]() {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(seed >> 33);
  };
  for (const char* region : {"1.12.2/r.0.-1.mca", "1.16/r.0.-1.mca", "1.18.2/r.0.0.mca"}) {
    const std::vector<std::uint8_t> file = file_bytes(kRegions + region);
    std::string msg;
    std::vector<RegionChunk> entries;
    ASSERT_EQ(list_region_chunks(file, &entries, &msg), Status::Ok) << msg;
    const std::vector<std::uint8_t> chunk = chunk_nbt(file, entries[entries.size() / 2]);
    ASSERT_FALSE(chunk.empty());
    std::size_t ok = 0, bad = 0;
    for (int round = 0; round < 150; ++round) {
      std::vector<std::uint8_t> m = chunk;
      const int flips = 1 + static_cast<int>(next() % 8);
      for (int k = 0; k < flips; ++k)
        m[next() % m.size()] ^= static_cast<std::uint8_t>(1u << (next() % 8));
      detail::DecodedColumn col;
      detail::LookupTally tally;
      const Status s = detail::decode_anvil_chunk_bytes(m, mc(), col, tally, msg);
      ASSERT_TRUE(s == Status::Ok || s == Status::BadFormat) << region << " round " << round;
      (s == Status::Ok ? ok : bad) += 1;
      if (s == Status::Ok) {
        for (const auto& sec : col.sections) {
          ASSERT_TRUE(sec.uniform ||
                      sec.values.size() == static_cast<std::size_t>(detail::kChunkCells));
          for (std::uint16_t v : sec.values) ASSERT_TRUE(reg().valid(v));
        }
      }
    }
    std::printf("[ mutate   ] %s: %zu decoded, %zu BadFormat\n", region, ok, bad);
  }
}

TEST_F(WorldFilesTest, UnknownFormatIsUnsupported) {
  const std::string text = "this is not a world\n";
  const std::string path =
      temp_file("unknown.dat", std::vector<std::uint8_t>(text.begin(), text.end()));
  Target t;
  LoadReport r;
  EXPECT_EQ(load(path, t.world, r), Status::Unsupported);
  EXPECT_NE(r.message.find("unknown world format"), std::string::npos) << r.message;
  std::filesystem::remove(path);
  EXPECT_EQ(load("/nonexistent/world.mca", t.world, r), Status::NotFound);
  // A World without the Minecraft registry is refused.
  World wrong;
  EXPECT_EQ(native::load_world_file(wrong, kSchem, LoadOptions{}, &r), Status::InvalidArgument);
}

}  // namespace
}  // namespace voxnav
