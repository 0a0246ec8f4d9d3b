// The search scratch grows with the bricks a search touches, not with the map: a short search on
// a large map keeps little memory, and reusing the scratch gives the same answers as a fresh one.
#include <gtest/gtest.h>

#include <string>

#include "voxnav/flight.h"

namespace voxnav {
namespace {

TEST(FlightScratch, ShortSearchOnALargeMapKeepsLittleScratch) {
  // 1024 x 1024 x 64 voxels: 258 x 258 x 18 padded bricks (1.2 million). A tag per brick of the
  // map would hold 9.6 MB per mode before the first expansion.
  VoxelMap map;
  std::string err;
  ASSERT_EQ(parse_voxel_map("voxel 1024 1024 64\n500 500 30\n", &map, &err), Status::Ok) << err;
  for (FlightMode mode : {FlightMode::Optimal, FlightMode::Default}) {
    FlightSearchDef def;
    def.mode = mode;
    FlightPath path;
    ASSERT_EQ(find_flight_path(map, CellPos{10, 10, 10}, CellPos{15, 12, 11}, def, &path, &err), Status::Ok) << err;
    ASSERT_TRUE(path.found);
    EXPECT_EQ(path.cells.front(), (CellPos{10, 10, 10}));
    EXPECT_EQ(path.cells.back(), (CellPos{15, 12, 11}));
  }
  const VoxelMap::Stats s = map.stats();
  EXPECT_LT(s.search_bytes, std::size_t{1} << 20) << "scratch sized by the map, not by the search";
}

TEST(FlightScratch, ReusedScratchGivesTheFreshAnswer) {
  // Searches far apart on one map (touching different tag groups), then each again on a new map:
  // the paths and expansion counts agree.
  std::string text = "voxel 300 40 40\n";
  for (int x = 20; x < 280; x += 7)
    for (int y = 0; y < 38; ++y) text += std::to_string(x) + " " + std::to_string(y) + " " + std::to_string((x * 3 + y) % 40) + "\n";
  const CellPos pairs[][2] = {{{1, 1, 1}, {290, 30, 30}}, {{250, 5, 5}, {260, 35, 2}}, {{2, 39, 39}, {150, 0, 20}}};
  VoxelMap reused;
  std::string err;
  ASSERT_EQ(parse_voxel_map(text, &reused, &err), Status::Ok) << err;
  for (FlightMode mode : {FlightMode::Optimal, FlightMode::Default})
    for (int rep = 0; rep < 2; ++rep)
      for (const auto& p : pairs) {
        FlightSearchDef def;
        def.mode = mode;
        FlightPath a, b;
        VoxelMap fresh;
        ASSERT_EQ(parse_voxel_map(text, &fresh, &err), Status::Ok) << err;
        ASSERT_EQ(find_flight_path(reused, p[0], p[1], def, &a, &err), Status::Ok) << err;
        ASSERT_EQ(find_flight_path(fresh, p[0], p[1], def, &b, &err), Status::Ok) << err;
        EXPECT_EQ(a.found, b.found);
        EXPECT_EQ(a.expanded, b.expanded);
        EXPECT_EQ(a.cost, b.cost);
        EXPECT_EQ(a.cells, b.cells);
      }
}

}  // namespace
}  // namespace voxnav
