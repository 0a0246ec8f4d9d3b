// voxnav/io.h and voxnav/columns.h through the public API only (plus native/files.h for zlib):
// real files from ../shared/data and data/, the two-step Anvil path, .scen without its version
// line, a truncated file leaving the World unchanged, column_tops against a get_block scan.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "scenes.h"
#include "voxnav/columns.h"
#include "voxnav/io.h"
#include "voxnav/native/files.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

const std::string kShared = VOXNAV_SHARED_DATA;

std::vector<std::uint8_t> bytes_of(const std::string& path) {
  std::vector<std::uint8_t> b;
  std::string err;
  EXPECT_EQ(native::read_file(path, b, &err), Status::Ok) << err;
  return b;
}

std::unique_ptr<World> mc_world() {
  auto w = std::make_unique<World>();
  std::string msg;
  EXPECT_EQ(native::load_minecraft_blocks_dir(*w, kShared + "/minecraft/blocks", &msg), Status::Ok)
      << msg;
  return w;
}

LoadOptions zlib_options() {
  LoadOptions o;
  o.inflate = &native::zlib_inflate;
  return o;
}

TEST(IoApi, SchematicFromBytes) {
  auto w = mc_world();
  const auto file = bytes_of(kShared + "/minecraft/schematics/smallhouse1.schem");
  LoadReport r;
  LoadOptions o = zlib_options();
  o.schematic_origin = CellPos{100, 64, -40};
  ASSERT_EQ(load_world_bytes(*w, file, "smallhouse1.schem", o, &r), Status::Ok) << r.message;
  EXPECT_EQ(r.format.rfind("sponge-v", 0), 0u) << r.format;
  ASSERT_TRUE(r.has_bounds);
  EXPECT_EQ(r.min.x, 100);
  EXPECT_EQ(r.min.y, 64);
  EXPECT_EQ(r.min.z, -40);
  EXPECT_GT(r.chunks_loaded, 0u);
  // Without an inflate function the core refuses and loads nothing.
  auto w2 = mc_world();
  EXPECT_EQ(load_schematic(*w2, file, LoadOptions{}, &r), Status::Unsupported);
  std::uint16_t v = 0;
  EXPECT_EQ(w2->get_block(CellPos{100, 64, -40}, &v), Status::NotLoaded);
}

TEST(IoApi, RegionOneCallEqualsTwoSteps) {
  const std::string path = kShared + "/minecraft/regions/1.18.2/r.0.0.mca";
  const auto file = bytes_of(path);
  auto a = mc_world();
  LoadReport ra;
  ASSERT_EQ(load_anvil_region(*a, file, zlib_options(), &ra), Status::Ok) << ra.message;
  EXPECT_EQ(ra.format, "anvil-1.18");
  EXPECT_GT(ra.columns_loaded, 0u);
  EXPECT_GT(ra.data_version, 2800);

  std::vector<RegionChunk> chunks;
  std::string err;
  ASSERT_EQ(list_region_chunks(file, &chunks, &err), Status::Ok) << err;
  std::vector<std::vector<std::uint8_t>> inflated;
  for (const RegionChunk& c : chunks) {
    ASSERT_FALSE(c.skipped) << c.reason;
    std::vector<std::uint8_t> out;
    ASSERT_EQ(native::zlib_inflate(std::span(file).subspan(c.offset, c.size), out,
                                   kMaxInflatedBytes, &err),
              Status::Ok)
        << err;
    inflated.push_back(std::move(out));
  }
  std::vector<std::span<const std::uint8_t>> spans(inflated.begin(), inflated.end());
  auto b = mc_world();
  LoadReport rb;
  ASSERT_EQ(load_anvil_columns(*b, spans, LoadOptions{}, &rb), Status::Ok) << rb.message;
  EXPECT_EQ(rb.format, ra.format);
  EXPECT_EQ(rb.columns_loaded, ra.columns_loaded);
  EXPECT_EQ(rb.chunks_loaded, ra.chunks_loaded);
  EXPECT_EQ(rb.min.y, ra.min.y);
  EXPECT_EQ(rb.max.x, ra.max.x);
  // Same blocks on a vertical line through the region.
  std::size_t loaded = 0;
  for (int x = ra.min.x; x <= ra.max.x; x += 13)
    for (int y = ra.min.y; y <= ra.max.y; y += 7) {
      std::uint16_t va = 0, vb = 0;
      const Status sa = a->get_block(CellPos{x, y, x / 2}, &va);
      ASSERT_EQ(sa, b->get_block(CellPos{x, y, x / 2}, &vb));
      EXPECT_EQ(va, vb) << x << "," << y;
      loaded += sa == Status::Ok;
    }
  EXPECT_GT(loaded, 100u);
}

TEST(IoApi, TruncatedRegionIsBadFormatAndChangesNothing) {
  auto file = bytes_of(kShared + "/minecraft/regions/1.16/r.0.-1.mca");
  file.resize(file.size() / 2);
  auto w = mc_world();
  LoadReport r;
  EXPECT_EQ(load_world_bytes(*w, file, "r.0.-1.mca", zlib_options(), &r), Status::BadFormat);
  EXPECT_NE(r.message.find("truncated"), std::string::npos) << r.message;
  std::vector<RegionChunk> chunks;
  EXPECT_EQ(list_region_chunks(file, &chunks, nullptr), Status::BadFormat);
  EXPECT_TRUE(chunks.empty());
  // Nothing was loaded: the registry can still be replaced (Busy once a chunk is loaded).
  std::uint16_t v = 0;
  EXPECT_EQ(w->get_block(CellPos{0, 64, -10}, &v), Status::NotLoaded);
  std::string msg;
  EXPECT_EQ(native::load_minecraft_blocks_dir(*w, kShared + "/minecraft/blocks", &msg), Status::Ok)
      << msg;
}

TEST(IoApi, TruncatedSchematicIsBadFormat) {
  auto file = bytes_of(kShared + "/minecraft/schematics/smallhouse1.schem");
  file.resize(file.size() - 40);
  auto w = mc_world();
  LoadReport r;
  EXPECT_EQ(load_world_bytes(*w, file, "house.schem", zlib_options(), &r), Status::BadFormat);
  std::uint16_t v = 0;
  EXPECT_EQ(w->get_block(CellPos{0, 0, 0}, &v), Status::NotLoaded);
}

TEST(IoApi, MovingAiMapAndScenWithoutVersionLine) {
  auto w = mc_world();
  LoadReport r;
  ASSERT_EQ(native::load_world_file(*w, kShared + "/movingai-2d/maps/arena.map", LoadOptions{}, &r),
            Status::Ok)
      << r.message;
  EXPECT_EQ(r.format, "movingai-map");
  EXPECT_EQ(r.min.x, 0);
  EXPECT_EQ(r.max.x, 48);  // arena is 49 x 49
  EXPECT_EQ(r.max.y, kMovingAiWallTop);
  const auto scen = bytes_of(kShared + "/movingai-2d/scens/arena.map.scen");
  const std::string text(scen.begin(), scen.end());
  std::vector<MovingAiScenario> with, without;
  std::string err;
  ASSERT_EQ(parse_movingai_scen(text, &with, &err), Status::Ok) << err;
  ASSERT_EQ(text.rfind("version 1\n", 0), 0u);
  ASSERT_EQ(parse_movingai_scen(text.substr(10), &without, &err), Status::Ok) << err;
  ASSERT_EQ(with.size(), without.size());
  ASSERT_FALSE(with.empty());
  EXPECT_EQ(without.front().map, with.front().map);
  EXPECT_EQ(without.back().goal_x, with.back().goal_x);
  EXPECT_DOUBLE_EQ(without.back().optimal, with.back().optimal);
  EXPECT_EQ(parse_movingai_scen("", &without, &err), Status::BadFormat);
  EXPECT_EQ(parse_movingai_scen("version 2\n", &without, &err), Status::Unsupported);
}

TEST(IoApi, ColumnTopsMatchesGetBlockScan) {
  auto w = mc_world();
  LoadReport r;
  ASSERT_EQ(native::load_world_file(*w, kShared + "/minecraft/regions/1.16/r.0.-1.mca",
                                    LoadOptions{}, &r),
            Status::Ok)
      << r.message;
  std::uint16_t air = 0, cave = 0, vd = 0;
  ASSERT_EQ(w->block_value("air", &air), Status::Ok);
  ASSERT_EQ(w->block_value("cave_air", &cave), Status::Ok);
  ASSERT_EQ(w->block_value("void_air", &vd), Status::Ok);
  const CellPos lo{r.min.x + 40, 0, r.max.z - 60}, hi{r.min.x + 71, 255, r.max.z - 29};
  const std::size_t n = 32 * 32;
  std::vector<std::int32_t> h(n);
  std::vector<std::uint16_t> v(n);
  CallError err;
  ASSERT_EQ(column_tops(*w, lo, hi, h.data(), v.data(), n, &err), Status::Ok) << err.message;
  std::size_t found = 0;
  for (int z = lo.z; z <= hi.z; ++z)
    for (int x = lo.x; x <= hi.x; ++x) {
      std::int32_t top = kNoColumnTop;
      std::uint16_t tv = 0;
      for (int y = hi.y; y >= lo.y; --y) {
        std::uint16_t b = 0;
        if (w->get_block(CellPos{x, y, z}, &b) != Status::Ok) continue;
        if (b != 0 && b != air && b != cave && b != vd) {
          top = y;
          tv = b;
          break;
        }
      }
      const std::size_t k = static_cast<std::size_t>(x - lo.x) + 32 * static_cast<std::size_t>(z - lo.z);
      ASSERT_EQ(h[k], top) << x << "," << z;
      ASSERT_EQ(v[k], tv) << x << "," << z;
      found += top != kNoColumnTop;
    }
  EXPECT_EQ(found, n);  // terrain everywhere in this region
  // Limits and bad boxes: InvalidArgument, nothing written.
  EXPECT_EQ(column_tops(*w, hi, lo, h.data(), v.data(), n, &err), Status::InvalidArgument);
  EXPECT_NE(err.message.find("above max"), std::string::npos) << err.message;
  EXPECT_EQ(err.argument, "max");
  EXPECT_EQ(column_tops(*w, lo, hi, h.data(), v.data(), n - 1, &err), Status::InvalidArgument);
  EXPECT_EQ(err.argument, "capacity");
  // A y range over kMaxColumnTopsHeight cells leaves the cell range (|y| <= kMaxCellY): OutOfRange.
  EXPECT_EQ(column_tops(*w, CellPos{0, 0, 0}, CellPos{0, kMaxColumnTopsHeight, 0}, h.data(),
                        v.data(), n, &err),
            Status::OutOfRange);
  EXPECT_EQ(err.message, "max (0, 4096, 0) is out of range: y is outside -2047 .. 2047");
  EXPECT_EQ(err.argument, "max");
  EXPECT_EQ(err.function, "column_tops");
}

}  // namespace
}  // namespace voxnav
