// Bad input to voxnav/flight.h: every error names the line or the argument, has the documented
// status, and leaves the output unchanged; nothing crashes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "voxnav/flight.h"

namespace voxnav {
namespace {

struct MapCase {
  const char* text;
  Status status;
  const char* says;  // part of the message
};

TEST(FlightBadInput, MapErrorsNameTheLine) {
  const MapCase cases[] = {
      {"", Status::BadFormat, "no \"voxel X Y Z\" header"},
      {"\n\n", Status::BadFormat, "no \"voxel X Y Z\" header"},
      {"voxels 4 4 4\n", Status::BadFormat, "line 1: expected the header"},
      {"voxel 4 4\n", Status::BadFormat, "line 1: expected the header"},
      {"voxel 4 4 4 4\n", Status::BadFormat, "line 1: expected the header"},
      {"voxel 4 x 4\n", Status::BadFormat, "line 1: expected the header"},
      {"voxel 0 4 4\n", Status::OutOfRange, "line 1: size X = 0 is out of range"},
      {"voxel 4 -2 4\n", Status::OutOfRange, "line 1: size Y = -2"},
      {"voxel 4 4 5000\n", Status::OutOfRange, "size Z = 5000 is out of range: 1 .. 4096"},
      {"voxel 4096 4096 4096\n", Status::OutOfRange, "more than 2147483648 voxels"},
      {"voxel 99999999999999999999 4 4\n", Status::BadFormat, "line 1"},
      {"voxel 4 4 4\n1 1 1\n1 1\n", Status::BadFormat, "line 3: expected a blocked voxel \"x y z\""},
      {"voxel 4 4 4\n1 1 1 1\n", Status::BadFormat, "line 2: expected a blocked voxel"},
      {"voxel 4 4 4\n1 a 1\n", Status::BadFormat, "line 2"},
      {"voxel 4 4 4\n1 1.5 1\n", Status::BadFormat, "line 2"},
      {"voxel 4 4 4\r\n\r\n0 0 0\r\n4 0 0\r\n", Status::BadFormat,
       "line 4: voxel (4, 0, 0) is outside the map: x must be in 0 .. 3"},
      {"voxel 5 6 7\n0 0 -1\n", Status::BadFormat, "line 2: voxel (0, 0, -1) is outside the map: z must be in 0 .. 6"},
      {"voxel 5 6 7\n0 6 0\n", Status::BadFormat, "y must be in 0 .. 5 (the map is 5 x 6 x 7)"},
      // Bytes that are not printable ASCII are escaped in the quoted line, and a carriage return
      // inside a line is named (a lone CR does not end a line).
      {"voxel 4 4 4\r1 1 1\r", Status::BadFormat,
       "line 1: expected the header \"voxel X Y Z\" (three integer sizes), found \"voxel 4 4 4\\r1 1 1\" (a carriage "
       "return inside the line: lines end in LF or CRLF)"},
      {"voxel 4 4 4\n1 1 1\r\r\n", Status::BadFormat, "line 2: expected a blocked voxel \"x y z\" (three integers), found \"1 1 1\\r\""},
      {"voxel 4 4 4\n1 \x1b[2J 1\n", Status::BadFormat, "found \"1 \\x1b[2J 1\""},
      {"voxel 4 4 4\n1 \"1\\ 1\n", Status::BadFormat, "found \"1 \\\"1\\\\ 1\""},
      {"\xEF\xBB\xBF\xEF\xBB\xBFvoxel 4 4 4\n", Status::BadFormat, "found \"\\xef\\xbb\\xbfvoxel 4 4 4\""},
      {"voxel 4 4 4\n1 1 1\t\xC3\xA9\n", Status::BadFormat, "found \"1 1 1\\t\\xc3\\xa9\""},
  };
  for (const MapCase& c : cases) {
    SCOPED_TRACE(c.text);
    VoxelMap map;
    ASSERT_EQ(parse_voxel_map("voxel 2 2 2\n0 0 0\n", &map, nullptr), Status::Ok);
    std::string err;
    EXPECT_EQ(parse_voxel_map(c.text, &map, &err), c.status);
    EXPECT_NE(err.find(c.says), std::string::npos) << err;
    // The map is unchanged.
    EXPECT_EQ(map.size_x(), 2);
    EXPECT_FALSE(map.free({0, 0, 0}));
    EXPECT_TRUE(map.free({1, 0, 0}));
    EXPECT_EQ(parse_voxel_map(c.text, &map, nullptr), c.status);  // a null error is fine
  }
  std::string err;
  EXPECT_EQ(parse_voxel_map("voxel 1 1 1\n", nullptr, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("out"), std::string::npos);
}

TEST(FlightBadInput, ControlBytesAreEscapedAndALeadingBomIsSkipped) {
  VoxelMap map;
  std::string err;
  // A NUL inside a line: the whole line is quoted, the NUL escaped (it used to end the message
  // when printed as a C string).
  const std::string nul("voxel 4 4 4\n1 1 1\0junk\n", 24);
  EXPECT_EQ(parse_voxel_map(nul, &map, &err), Status::BadFormat);
  EXPECT_NE(err.find("line 2: expected a blocked voxel \"x y z\" (three integers), found \"1 1 1\\x00junk\""),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find('\0'), std::string::npos);
  std::vector<VoxelScenRow> rows;
  EXPECT_EQ(parse_voxel_scen(std::string("version 1\nm\n1 2 3 4 5 6 7 1\0\n", 29), nullptr, &rows, &err),
            Status::BadFormat);
  EXPECT_NE(err.find("line 3: field ratio is not a finite number: \"1\\x00\""), std::string::npos) << err;
  // A UTF-8 byte order mark before the header or the version line is skipped (once).
  ASSERT_EQ(parse_voxel_map("\xEF\xBB\xBFvoxel 4 4 4\n1 1 1\n", &map, &err), Status::Ok) << err;
  EXPECT_EQ(map.size_x(), 4);
  EXPECT_FALSE(map.free({1, 1, 1}));
  ASSERT_EQ(parse_voxel_scen("\xEF\xBB\xBFversion 1\r\nm\r\n1 2 3 0 0 0 4.5 1\r\n", &map, &rows, &err), Status::Ok)
      << err;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].line, 3u);
  EXPECT_EQ(rows[0].optimal, 4.5);
}

TEST(FlightBadInput, MapEdgeCasesThatAreFine) {
  VoxelMap map;
  std::string err;
  // Blank lines, CRLF, tabs, a repeated voxel, no final newline.
  ASSERT_EQ(parse_voxel_map("\nvoxel\t3 2 1\r\n\r\n2 1 0\n2 1 0\n0 0 0", &map, &err), Status::Ok) << err;
  EXPECT_EQ(map.size_x(), 3);
  EXPECT_EQ(map.size_y(), 2);
  EXPECT_EQ(map.size_z(), 1);
  EXPECT_FALSE(map.free({2, 1, 0}));
  EXPECT_FALSE(map.free({0, 0, 0}));
  EXPECT_TRUE(map.free({1, 1, 0}));
  EXPECT_FALSE(map.free({3, 0, 0}));
  EXPECT_FALSE(map.free({-1, 0, 0}));
  EXPECT_EQ(map.stats().blocked_voxels, 2u);
}

TEST(FlightBadInput, ScenErrorsNameTheLineAndField) {
  VoxelMap map;
  ASSERT_EQ(parse_voxel_map("voxel 10 20 30\n", &map, nullptr), Status::Ok);
  const MapCase cases[] = {
      {"", Status::BadFormat, "no \"version 1\" line"},
      {"versio 1\nm\n", Status::BadFormat, "line 1: expected \"version 1\""},
      {"version 2\nm\n", Status::Unsupported, "line 1: version 2 is not supported"},
      {"version 1\n", Status::BadFormat, "no map name line"},
      {"version 1\n1 2 3 4 5 6 7 8\n", Status::BadFormat, "line 2: expected the map's file name"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7\n", Status::BadFormat, "line 3: expected 8 fields"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7 8 9\n", Status::BadFormat, "found more"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7 1\n1 x 3 4 5 6 7 1\n", Status::BadFormat,
       "line 4: field sy is not an integer: \"x\""},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 -7 1\n", Status::BadFormat, "line 3: field optimal is not a finite length"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 nan 1\n", Status::BadFormat, "field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 inf 1\n", Status::BadFormat, "field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7 1e999\n", Status::BadFormat, "field ratio"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7 abc\n", Status::BadFormat, "field ratio"},
      {"version 1\nm.3dmap\n10 2 3 4 5 6 7 1\n", Status::BadFormat,
       "line 3: start (10, 2, 3) is outside the map: x must be in 0 .. 9 (the map is 10 x 20 x 30)"},
      {"version 1\nm.3dmap\n\n1 2 3 4 5 30 7 1\n", Status::BadFormat, "line 4: goal (4, 5, 30) is outside the map: z"},
      {"version 1\nm.3dmap\n1 2 3 4 -5 6 7 1\n", Status::BadFormat, "goal (4, -5, 6) is outside the map: y"},
      // Decimal only, in lengths as in integers: no hex, no leading '+', no bare dot or exponent.
      {"version 1\nm.3dmap\n1 2 3 4 5 6 0x10 1\n", Status::BadFormat, "line 3: field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7 0x1p3\n", Status::BadFormat, "line 3: field ratio"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 +7 1\n", Status::BadFormat, "line 3: field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7 +1\n", Status::BadFormat, "line 3: field ratio"},
      {"version 1\nm.3dmap\n+1 2 3 4 5 6 7 1\n", Status::BadFormat, "line 3: field sx is not an integer"},
      {"version 1\nm.3dmap\n0x1 2 3 4 5 6 7 1\n", Status::BadFormat, "line 3: field sx is not an integer"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 . 1\n", Status::BadFormat, "field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7e 1\n", Status::BadFormat, "field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 e5 1\n", Status::BadFormat, "field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 infinity 1\n", Status::BadFormat, "field optimal"},
      {"version 1\nm.3dmap\n1 2 3 4 5 6 7 -nan\n", Status::BadFormat, "field ratio"},
  };
  for (const MapCase& c : cases) {
    SCOPED_TRACE(c.text);
    std::vector<VoxelScenRow> rows(3);
    std::string err;
    EXPECT_EQ(parse_voxel_scen(c.text, &map, &rows, &err), c.status);
    EXPECT_NE(err.find(c.says), std::string::npos) << err;
    EXPECT_EQ(rows.size(), 3u);  // unchanged
  }
  // Without a map, rows are not bounds-checked.
  std::vector<VoxelScenRow> rows;
  std::string err;
  ASSERT_EQ(parse_voxel_scen("version 1\r\nm.3dmap\r\n100 2 3 4 5 6 7.5 1.25\r\n", nullptr, &rows, &err), Status::Ok)
      << err;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].line, 3u);
  EXPECT_EQ(rows[0].start, (CellPos{100, 2, 3}));
  EXPECT_EQ(rows[0].goal, (CellPos{4, 5, 6}));
  EXPECT_EQ(rows[0].optimal, 7.5);
  EXPECT_EQ(rows[0].ratio, 1.25);
  EXPECT_EQ(parse_voxel_scen("version 1\nm\n", &map, nullptr, &err), Status::InvalidArgument);
  // A non-null map that is empty (never parsed, or moved from) cannot bound the rows: refused,
  // and the rows are left as they were.
  for (int moved = 0; moved < 2; ++moved) {
    VoxelMap empty;
    if (moved) {
      VoxelMap taker(std::move(map));
      empty = std::move(map);  // map is moved from; taker holds the grid
      ASSERT_FALSE(taker.empty());
    }
    std::vector<VoxelScenRow> kept(2);
    std::string why;
    EXPECT_EQ(parse_voxel_scen("version 1\nm.3dmap\n100 2 3 4 5 6 7.5 1.25\n", &empty, &kept, &why),
              Status::InvalidArgument);
    EXPECT_NE(why.find("map: the voxel map is empty"), std::string::npos) << why;
    EXPECT_EQ(kept.size(), 2u);
  }
}

TEST(FlightBadInput, ScenDecimalFormsThatAreFine) {
  std::vector<VoxelScenRow> rows;
  std::string err;
  ASSERT_EQ(parse_voxel_scen("version 1\nm\n0 0 0 1 1 1 16 1\n0 0 0 1 1 1 1.5e1 -0.25\n"
                             "0 0 0 1 1 1 .5 2.\n0 0 0 1 1 1 2E+1 1e-2\n",
                             nullptr, &rows, &err),
            Status::Ok)
      << err;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].optimal, 16.0);
  EXPECT_EQ(rows[1].optimal, 15.0);
  EXPECT_EQ(rows[1].ratio, -0.25);
  EXPECT_EQ(rows[2].optimal, 0.5);
  EXPECT_EQ(rows[2].ratio, 2.0);
  EXPECT_EQ(rows[3].optimal, 20.0);
  EXPECT_EQ(rows[3].ratio, 0.01);
}

TEST(FlightBadInput, SearchArguments) {
  VoxelMap map;
  std::string err;
  FlightPath p;
  p.length = 42;
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {0, 0, 0}, FlightSearchDef{}, &p, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("map: the voxel map is empty"), std::string::npos) << err;
  ASSERT_EQ(parse_voxel_map("voxel 4 5 6\n1 1 1\n", &map, &err), Status::Ok);
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {4, 0, 0}, FlightSearchDef{}, &p, &err), Status::OutOfRange);
  EXPECT_NE(err.find("goal (4, 0, 0) is outside the map (4 x 5 x 6 voxels)"), std::string::npos) << err;
  EXPECT_EQ(find_flight_path(map, {0, -1, 0}, {0, 0, 0}, FlightSearchDef{}, &p, &err), Status::OutOfRange);
  EXPECT_NE(err.find("start (0, -1, 0)"), std::string::npos) << err;
  EXPECT_EQ(find_flight_path(map, {1, 1, 1}, {0, 0, 0}, FlightSearchDef{}, &p, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("start (1, 1, 1) is a blocked voxel"), std::string::npos) << err;
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {1, 1, 1}, FlightSearchDef{}, &p, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("goal (1, 1, 1) is a blocked voxel"), std::string::npos) << err;
  FlightSearchDef def;
  def.max_expansions = 0;
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {3, 4, 5}, def, &p, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("def.max_expansions 0 is out of range"), std::string::npos) << err;
  def.max_expansions = kMaxFlightExpansions + 1;
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {3, 4, 5}, def, &p, &err), Status::InvalidArgument);
  def = FlightSearchDef{};
  def.mode = static_cast<FlightMode>(9);
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {3, 4, 5}, def, &p, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("def.mode 9"), std::string::npos) << err;
  EXPECT_EQ(p.length, 42);  // unchanged through every error
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {3, 4, 5}, FlightSearchDef{}, nullptr, &err), Status::InvalidArgument);
  ASSERT_EQ(find_flight_path(map, {0, 0, 0}, {3, 4, 5}, FlightSearchDef{}, &p, nullptr), Status::Ok);
  EXPECT_TRUE(p.found);
  // A moved-from map is empty and refuses searches.
  VoxelMap other = std::move(map);
  EXPECT_EQ(other.size_x(), 4);
  EXPECT_EQ(find_flight_path(map, {0, 0, 0}, {0, 0, 0}, FlightSearchDef{}, &p, &err), Status::InvalidArgument);
}

}  // namespace
}  // namespace voxnav
