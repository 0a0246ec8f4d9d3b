// Hostile world files (issue 16): small files that claim huge boxes, sections or lists, fields
// near INT_MAX, a registry whose state counter wraps. Each reproducer is built here as bytes; each
// must end in a clean status naming the field and the limit, with the World unchanged (chunks,
// change serial, state hash), and the limits of voxnav/io.h checked before memory is reserved.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/nav/world_access.h"
#include "engine/world/space.h"
#include "voxnav/io.h"
#include "voxnav/registry.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// ---- a tiny NBT writer ----
struct Nbt {
  std::vector<std::uint8_t> b;
  void u8(int v) { b.push_back(static_cast<std::uint8_t>(v)); }
  void be(std::uint64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) u8(static_cast<int>((v >> (8 * i)) & 0xFF));
  }
  void str(const std::string& s) {
    be(s.size(), 2);
    b.insert(b.end(), s.begin(), s.end());
  }
  void head(int type, const std::string& name) {
    u8(type);
    str(name);
  }
  void int_tag(const std::string& n, std::int32_t v) { head(3, n), be(static_cast<std::uint32_t>(v), 4); }
  void long_tag(const std::string& n, std::int64_t v) { head(4, n), be(static_cast<std::uint64_t>(v), 8); }
  void short_tag(const std::string& n, int v) { head(2, n), be(static_cast<std::uint16_t>(v), 2); }
  void string_tag(const std::string& n, const std::string& v) { head(8, n), str(v); }
  void compound(const std::string& n) { head(10, n); }
  void end() { u8(0); }
  void list(const std::string& n, int elem_type, std::int32_t len) {
    head(9, n);
    u8(elem_type);
    be(static_cast<std::uint32_t>(len), 4);
  }
};

// A 1.18 chunk column at (x, z) with one stone section at `section_y`; `ypos` written as Int.
std::vector<std::uint8_t> chunk_118(std::int64_t x, std::int64_t z, std::int32_t section_y,
                                    std::int32_t ypos = -4, bool long_pos = false) {
  Nbt n;
  n.compound("");
  n.int_tag("DataVersion", 3955);
  if (long_pos) {
    n.long_tag("xPos", x);
    n.long_tag("zPos", z);
  } else {
    n.int_tag("xPos", static_cast<std::int32_t>(x));
    n.int_tag("zPos", static_cast<std::int32_t>(z));
  }
  n.int_tag("yPos", ypos);
  n.string_tag("Status", "minecraft:full");
  n.list("sections", 10, 1);
  n.int_tag("Y", section_y);
  n.compound("block_states");
  n.list("palette", 10, 1);
  n.string_tag("Name", "minecraft:stone");
  n.end();  // palette entry
  n.end();  // block_states
  n.end();  // section
  n.end();  // root
  return n.b;
}

// A Sponge v2 schematic (uncompressed NBT) of w x h x l with `data` as its block data.
std::vector<std::uint8_t> schematic(int w, int h, int l, const std::vector<std::uint8_t>& data) {
  Nbt n;
  n.compound("Schematic");
  n.int_tag("Version", 2);
  n.short_tag("Width", w);
  n.short_tag("Height", h);
  n.short_tag("Length", l);
  n.compound("Palette");
  n.int_tag("minecraft:stone", 0);
  n.end();
  n.head(7, "BlockData");
  n.be(data.size(), 4);
  n.b.insert(n.b.end(), data.begin(), data.end());
  n.end();
  return n.b;
}

// The test's "inflate": the bytes are stored uncompressed (it copies, up to max_out).
Status copy_inflate(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out,
                    std::size_t max_out, std::string* error) {
  if (in.size() > max_out) {
    if (error) *error = "more than max_out";
    return Status::OutOfRange;
  }
  out.assign(in.begin(), in.end());
  return Status::Ok;
}

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// A Minecraft-data style registry: air (state 0) and stone (state 1).
std::unique_ptr<World> tiny_mc_world() {
  auto w = std::make_unique<World>();
  const auto blocks = bytes(
      R"([{"name":"air","minStateId":0,"maxStateId":0,"defaultState":0,"boundingBox":"empty"},)"
      R"({"name":"stone","minStateId":1,"maxStateId":1,"defaultState":1,"boundingBox":"block"}])");
  const auto shapes = bytes(R"({"blocks":{},"shapes":{}})");
  std::string msg;
  EXPECT_EQ(w->load_minecraft_blocks(blocks, shapes, &msg), Status::Ok) << msg;
  return w;
}

struct Snapshot {
  std::uint64_t serial = 0, hash = 0;
  std::size_t chunks = 0;
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};
Snapshot snap(const World& w) {
  Snapshot s;
  const detail::WorldState& st = detail::WorldAccess::state(const_cast<World&>(w));
  s.serial = st.space.serial();
  s.chunks = st.space.chunk_count();
  EXPECT_EQ(state_hash(w, {}, &s.hash), Status::Ok);
  return s;
}

// A world with one chunk column already loaded, so "unchanged" is checked against real state.
std::unique_ptr<World> world_with_a_column() {
  auto w = tiny_mc_world();
  const auto c = chunk_118(3, 4, 0);
  const std::span<const std::uint8_t> one[] = {c};
  LoadReport r;
  EXPECT_EQ(load_anvil_columns(*w, one, LoadOptions{}, &r), Status::Ok) << r.message;
  return w;
}

Status load_columns(World& w, const std::vector<std::vector<std::uint8_t>>& cols, LoadReport& r) {
  std::vector<std::span<const std::uint8_t>> spans(cols.begin(), cols.end());
  return load_anvil_columns(w, spans, LoadOptions{}, &r);
}

TEST(HostileInput, RegistryStateCounterThatWrapsIsOutOfRange) {
  // maxStateId 2^32 - 1 with 32 boolean properties: 2^32 combinations, and maxStateId + 1 wraps
  // the state counter to 0 (it crashed writing through an empty vector).
  std::string props;
  for (int i = 0; i < 32; ++i)
    props += std::string(i ? "," : "") + R"({"name":"p)" + std::to_string(i) +
             R"(","type":"bool","num_values":2})";
  const auto blocks = bytes(R"([{"name":"evil","minStateId":0,"maxStateId":4294967295,)"
                            R"("defaultState":0,"states":[)" + props + "]}]");
  const auto shapes = bytes(R"({"blocks":{},"shapes":{}})");
  World w;
  const std::size_t before = w.block_count();
  std::string msg;
  EXPECT_EQ(w.load_minecraft_blocks(blocks, shapes, &msg), Status::OutOfRange);
  EXPECT_NE(msg.find("kMaxMinecraftStates"), std::string::npos) << msg;
  EXPECT_NE(msg.find("maxStateId"), std::string::npos) << msg;
  EXPECT_EQ(w.block_count(), before);
  // Property combinations beyond the limit are refused while they are counted (no overflow).
  std::string many;
  for (int i = 0; i < 3; ++i)
    many += std::string(i ? "," : "") + R"({"name":"q)" + std::to_string(i) +
            R"(","type":"int","num_values":4000000000,"values":[]})";
  const auto wide = bytes(R"([{"name":"wide","minStateId":0,"maxStateId":5,)"
                          R"("defaultState":0,"states":[)" + many + "]}]");
  EXPECT_EQ(w.load_minecraft_blocks(wide, shapes, &msg), Status::OutOfRange) << msg;
  // A name longer than kMaxBlockNameLength.
  const auto long_name = bytes(R"([{"name":")" + std::string(kMaxBlockNameLength + 1, 'a') +
                               R"(","minStateId":0,"maxStateId":0,"defaultState":0}])");
  EXPECT_EQ(w.load_minecraft_blocks(long_name, shapes, &msg), Status::BadFormat);
  EXPECT_NE(msg.find("kMaxBlockNameLength"), std::string::npos) << msg;
  EXPECT_EQ(w.block_count(), before);
}

TEST(HostileInput, VoxnavRegistryJsonWithHugeBoxNumbersIsRefused) {
  // 1e300 has no float: it is refused by the box rules, not converted (undefined behaviour).
  const auto json = bytes(R"({"format":"voxnav-blocks","version":1,"blocks":[{"name":"air"},)"
                          R"({"name":"x","boxes":[[0,0,0,1e300,1,1]]}]})");
  BlockRegistryDef def;
  std::string msg;
  EXPECT_EQ(parse_block_registry_json(json, &def, &msg), Status::InvalidArgument) << msg;
  EXPECT_TRUE(def.blocks.empty());
}

TEST(HostileInput, SchematicClaimingAHugeBoxIsRefusedBeforeAllocating) {
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  LoadOptions o;
  o.inflate = &copy_inflate;
  LoadReport r;
  // 65535 x 1 x 65535 with no block data (the 115-byte reproducer): 16.7 M chunks.
  EXPECT_EQ(load_schematic(*w, schematic(65535, 1, 65535, {}), o, &r), Status::OutOfRange);
  EXPECT_NE(r.message.find("kMaxLoadChunks"), std::string::npos) << r.message;
  // Within the chunk limit but with too little data: refused before the chunks are made.
  EXPECT_EQ(load_schematic(*w, schematic(1000, 16, 1000, {0, 0, 0}), o, &r), Status::BadFormat);
  EXPECT_NE(r.message.find("3 bytes for 16000000 blocks"), std::string::npos) << r.message;
  // An origin near INT_MAX: the far corner is computed without wrapping.
  o.schematic_origin = CellPos{INT_MAX - 2, 0, 0};
  EXPECT_EQ(load_schematic(*w, schematic(16, 1, 1, std::vector<std::uint8_t>(16, 0)), o, &r),
            Status::OutOfRange);
  o.schematic_origin = CellPos{kMaxCellXZ - 3, 0, 0};
  EXPECT_EQ(load_schematic(*w, schematic(16, 1, 1, std::vector<std::uint8_t>(16, 0)), o, &r),
            Status::OutOfRange);
  EXPECT_EQ(snap(*w), before);
  // The same schematic where it fits loads.
  o.schematic_origin = CellPos{kMaxCellXZ - 15, 0, 0};
  EXPECT_EQ(load_schematic(*w, schematic(16, 1, 1, std::vector<std::uint8_t>(16, 0)), o, &r),
            Status::Ok)
      << r.message;
  std::uint16_t v = 0;
  ASSERT_EQ(w->get_block(CellPos{kMaxCellXZ, 0, 0}, &v), Status::Ok);
  EXPECT_NE(v, 0);
}

TEST(HostileInput, AnvilSectionYAndYPosOutsideTheRangeAreOutOfRange) {
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  LoadReport r;
  // A section at Y = 2^30 made one section per y from yPos up to it.
  EXPECT_EQ(load_columns(*w, {chunk_118(0, 0, 1 << 30)}, r), Status::OutOfRange);
  EXPECT_NE(r.message.find("section Y 1073741824"), std::string::npos) << r.message;
  EXPECT_EQ(load_columns(*w, {chunk_118(0, 0, kMinChunkY - 1)}, r), Status::OutOfRange);
  // yPos near INT_MAX overflowed yPos + 23.
  EXPECT_EQ(load_columns(*w, {chunk_118(0, 0, 0, INT_MAX - 5)}, r), Status::OutOfRange);
  EXPECT_NE(r.message.find("yPos"), std::string::npos) << r.message;
  EXPECT_EQ(snap(*w), before);
  // The top of the range is fine; its 24-section window is clipped to kMaxChunkY.
  ASSERT_EQ(load_columns(*w, {chunk_118(1, 1, kMaxChunkY, kMaxChunkY - 2)}, r), Status::Ok)
      << r.message;
  EXPECT_EQ(r.chunks_loaded, 3u);
  EXPECT_EQ(r.max.y, kMaxCellY);
}

TEST(HostileInput, AnvilColumnOutsideTheChunkRangeIsOutOfRange) {
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  LoadReport r;
  EXPECT_EQ(load_columns(*w, {chunk_118(std::int64_t{1} << 27, 0, 0)}, r), Status::OutOfRange);
  EXPECT_EQ(load_columns(*w, {chunk_118(0, kMaxChunkXZ + 1, 0)}, r), Status::OutOfRange);
  EXPECT_NE(r.message.find("zPos"), std::string::npos) << r.message;
  // A Long xPos of 2^32 + 5 was cut to 5 and loaded at the wrong place.
  EXPECT_EQ(load_columns(*w, {chunk_118((std::int64_t{1} << 32) + 5, 0, 0, -4, true)}, r),
            Status::OutOfRange);
  EXPECT_NE(r.message.find("4294967301"), std::string::npos) << r.message;
  EXPECT_EQ(snap(*w), before);
  ASSERT_EQ(load_columns(*w, {chunk_118(-kMaxChunkXZ, kMaxChunkXZ, 0)}, r), Status::Ok)
      << r.message;
}

TEST(HostileInput, TwoColumnsAtOneChunkColumnAreBadFormat) {
  // A region whose slots repeat a position (found by fuzz/anvil_region): the second column used
  // to replace the first while the report counted both.
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  LoadReport r;
  EXPECT_EQ(load_columns(*w, {chunk_118(5, 5, 0), chunk_118(6, 5, 0), chunk_118(5, 5, 1)}, r),
            Status::BadFormat);
  EXPECT_NE(r.message.find("columns 0 and 2 both hold chunk column (5, 5)"), std::string::npos)
      << r.message;
  EXPECT_EQ(snap(*w), before);
}

TEST(HostileInput, FailedLoadLeavesEarlierColumnsUnloaded) {
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  LoadReport r;
  // Two good columns, then a bad one: nothing of the load stays.
  EXPECT_EQ(load_columns(*w, {chunk_118(5, 5, 0), chunk_118(6, 5, 0), chunk_118(7, 5, 1 << 20)}, r),
            Status::OutOfRange);
  EXPECT_EQ(snap(*w), before);
  std::uint16_t v = 0;
  EXPECT_EQ(w->get_block(CellPos{5 * 16, 0, 5 * 16}, &v), Status::NotLoaded);
  // The batch underneath every loader: a chunk that fails leaves the Space as it was.
  detail::Space& space = detail::WorldAccess::state(*w).space;
  const detail::ChunkLoad batch[] = {{ChunkPos{9, 0, 9}, true, 1, {}},
                                     {ChunkPos{10, 0, 9}, true, 60000, {}}};
  EXPECT_EQ(space.load_chunks(batch), Status::OutOfRange);
  EXPECT_EQ(snap(*w), before);
}

TEST(HostileInput, RegionChunksShareOneInflateBudget) {
  // Two stored-uncompressed... no: two "zlib" chunks whose inflated sizes together pass the
  // budget (the copy inflater stands for zlib). Each alone fits.
  const auto c0 = chunk_118(0, 0, 0), c1 = chunk_118(1, 0, 0);
  std::vector<std::uint8_t> region(8192, 0);
  auto put = [&](int slot, const std::vector<std::uint8_t>& c) {
    const std::size_t sector = region.size() / 4096;
    const std::size_t len = c.size() + 1;
    const std::size_t sectors = (len + 4 + 4095) / 4096;
    region[static_cast<std::size_t>(slot) * 4 + 0] = static_cast<std::uint8_t>(sector >> 16);
    region[static_cast<std::size_t>(slot) * 4 + 1] = static_cast<std::uint8_t>(sector >> 8);
    region[static_cast<std::size_t>(slot) * 4 + 2] = static_cast<std::uint8_t>(sector);
    region[static_cast<std::size_t>(slot) * 4 + 3] = static_cast<std::uint8_t>(sectors);
    std::vector<std::uint8_t> body(sectors * 4096, 0);
    body[0] = static_cast<std::uint8_t>(len >> 24);
    body[1] = static_cast<std::uint8_t>(len >> 16);
    body[2] = static_cast<std::uint8_t>(len >> 8);
    body[3] = static_cast<std::uint8_t>(len);
    body[4] = 2;  // zlib
    std::copy(c.begin(), c.end(), body.begin() + 5);
    region.insert(region.end(), body.begin(), body.end());
  };
  put(0, c0);
  put(1, c1);
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  LoadOptions o;
  o.inflate = &copy_inflate;
  o.max_inflated_bytes = c0.size() + c1.size() - 1;
  LoadReport r;
  EXPECT_EQ(load_anvil_region(*w, region, o, &r), Status::OutOfRange);
  EXPECT_NE(r.message.find("together"), std::string::npos) << r.message;
  EXPECT_EQ(snap(*w), before);
  o.max_inflated_bytes = c0.size() + c1.size();
  EXPECT_EQ(load_anvil_region(*w, region, o, &r), Status::Ok) << r.message;
  EXPECT_EQ(r.columns_loaded, 2u);
}

TEST(HostileInput, NbtListLongerThanTheLimitIsRefusedBeforeItIsSized) {
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  // A root whose list claims kMaxNbtListLength + 1 empty compounds (one byte each, all present).
  Nbt n;
  n.compound("");
  n.list("Entities", 10, static_cast<std::int32_t>(kMaxNbtListLength + 1));
  n.b.insert(n.b.end(), kMaxNbtListLength + 1, 0);
  n.end();
  LoadReport r;
  EXPECT_EQ(load_columns(*w, {n.b}, r), Status::OutOfRange);
  EXPECT_NE(r.message.find("kMaxNbtListLength"), std::string::npos) << r.message;
  // Many lists each within the limit: the tag count limit stops them.
  Nbt m;
  m.compound("");
  const int lists = static_cast<int>(kMaxNbtTags / kMaxNbtListLength) + 1;
  for (int i = 0; i < lists; ++i) {
    m.list("L" + std::to_string(i), 10, static_cast<std::int32_t>(kMaxNbtListLength));
    m.b.insert(m.b.end(), kMaxNbtListLength, 0);
  }
  m.end();
  EXPECT_EQ(load_columns(*w, {m.b}, r), Status::OutOfRange);
  EXPECT_NE(r.message.find("kMaxNbtTags"), std::string::npos) << r.message;
  EXPECT_EQ(snap(*w), before);
}

TEST(HostileInput, MovingAiMapClaimingMoreThanItHoldsIsRefused) {
  auto w = world_with_a_column();
  const Snapshot before = snap(*w);
  LoadReport r;
  // 16384 x 16384 tiles claimed (a 256 MiB reserve) by a file of a few bytes.
  EXPECT_EQ(load_movingai_map(*w, "type octile\nheight 16384\nwidth 16384\nmap\n..\n", &r),
            Status::OutOfRange);
  EXPECT_NE(r.message.find("kMaxLoadChunks"), std::string::npos) << r.message;
  EXPECT_EQ(load_movingai_map(*w, "type octile\nheight 100\nwidth 100\nmap\n..\n", &r),
            Status::BadFormat);
  EXPECT_EQ(snap(*w), before);
}


// A thin strip of at most kMaxBoxCells cells can span a million chunks: set_box and set_blocks
// refuse a box touching more than kMaxBoxChunks chunks (OutOfRange naming the box) before looking
// at a chunk, and accept one at the limit.
TEST(HostileInput, BoxTouchingTooManyChunksIsOutOfRange) {
  World w;
  BlockRegistryDef def;
  def.add("air");
  def.add("stone", {BlockBox{}});
  std::string msg;
  ASSERT_EQ(w.define_blocks(def, &msg), Status::Ok) << msg;
  // A 16 x 1 x 256 slab of chunks (4096 chunks, loaded), for the accepted box at the edge below.
  std::vector<ChunkPos> chunks;
  for (std::int32_t z = 0; z < 256; ++z)
    for (std::int32_t x = 0; x < 16; ++x) chunks.push_back(ChunkPos{x, 0, z});
  ASSERT_EQ(w.load_chunks(chunks, std::vector<std::uint16_t>(chunks.size() * kChunkValues, 0)), Status::Ok);
  const Snapshot before = snap(w);

  // 2^24 cells in a line along x: 1,048,576 chunks (plus one when not aligned).
  const CellPos a{-(1 << 23), 0, 0}, b{(1 << 23) - 1, 0, 0};
  ASSERT_EQ(detail::box_cell_count(a, b), std::uint64_t{1} << 24);
  EXPECT_EQ(w.set_box(a, b, 1), Status::OutOfRange);
  EXPECT_EQ(w.last_error().argument, "max");
  EXPECT_NE(w.last_error().message.find("the box min .. max touches 1048576 x 1 x 1 chunks, more than 65536"),
            std::string::npos)
      << w.last_error().message;
  // The same strip inside a batch: named by its entry.
  const BlockEdit edits[] = {BlockEdit{CellPos{1, 0, 1}, CellPos{1, 0, 1}, 1, true},
                             BlockEdit{CellPos{0, 0, 0}, CellPos{0, 7, (1 << 21) - 1}, 1, false}};
  EXPECT_EQ(w.set_blocks(edits), Status::OutOfRange);
  EXPECT_EQ(w.last_error().argument, "edits[1].max");
  EXPECT_NE(w.last_error().message.find("touches 1 x 1 x 131072 chunks, more than 65536"), std::string::npos)
      << w.last_error().message;
  EXPECT_EQ(snap(w), before);
  std::uint16_t v = 9;
  ASSERT_EQ(w.get_block(CellPos{1, 0, 1}, &v), Status::Ok);
  EXPECT_EQ(v, 0) << "a refused batch applied its first edit";

  // At the limit: 65,536 chunks are checked (and found not loaded), not refused for their number.
  EXPECT_EQ(w.set_box(CellPos{0, 0, 0}, CellPos{4095, 0, 4095}, 1), Status::NotLoaded);
  EXPECT_EQ(snap(w), before);
  // Within it, on loaded chunks: applied.
  EXPECT_EQ(w.set_box(CellPos{0, 0, 0}, CellPos{255, 0, 4095}, 1), Status::Ok);
  ASSERT_EQ(w.get_block(CellPos{255, 0, 4095}, &v), Status::Ok);
  EXPECT_EQ(v, 1);
}

}  // namespace
}  // namespace voxnav
