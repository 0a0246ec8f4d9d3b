// The Moving AI voxel benchmark's Simple map (../shared/data/movingai-3d): a deterministic sample
// of 500 of its 10,000 rows solved by the optimal mode, each length equal to the file's optimum
// within 1e-4 relative, each path checked step by step against the box rule on the map itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "scenes.h"
#include "voxnav/flight.h"

namespace voxnav {
namespace {

std::string movingai3d(const char* file) { return std::string(VOXNAV_SHARED_DATA) + "/movingai-3d/" + file; }

TEST(FlightMovingAi, SimpleSampleMatchesTheOptimalLengths) {
  const std::string map_text = test::read_text(movingai3d("Simple.3dmap"));
  const std::string scen_text = test::read_text(movingai3d("Simple.3dmap.3dscen"));
  ASSERT_FALSE(map_text.empty());
  ASSERT_FALSE(scen_text.empty());
  VoxelMap map;
  std::string err;
  ASSERT_EQ(parse_voxel_map(map_text, &map, &err), Status::Ok) << err;
  EXPECT_EQ(map.size_x(), 105);
  EXPECT_EQ(map.size_y(), 132);
  EXPECT_EQ(map.size_z(), 105);
  std::vector<VoxelScenRow> rows;
  ASSERT_EQ(parse_voxel_scen(scen_text, &map, &rows, &err), Status::Ok) << err;
  ASSERT_EQ(rows.size(), 10000u);
  EXPECT_EQ(rows.front().line, 3u);
  int checked = 0;
  for (std::size_t i = 0; i < rows.size(); i += 20) {  // rows 1, 21, 41, ...: 500 rows
    const VoxelScenRow& r = rows[i];
    SCOPED_TRACE("line " + std::to_string(r.line));
    FlightPath p;
    ASSERT_EQ(find_flight_path(map, r.start, r.goal, FlightSearchDef{}, &p, &err), Status::Ok) << err;
    ASSERT_TRUE(p.found);
    EXPECT_NEAR(p.length, r.optimal, 1e-4 * std::max(1.0, r.optimal));
    ASSERT_EQ(p.cells.front(), r.start);
    ASSERT_EQ(p.cells.back(), r.goal);
    for (std::size_t k = 1; k < p.cells.size(); ++k) {
      const CellPos a = p.cells[k - 1], b = p.cells[k];
      const int dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
      ASSERT_TRUE(std::abs(dx) <= 1 && std::abs(dy) <= 1 && std::abs(dz) <= 1);
      for (int ax = 0; ax <= (dx != 0); ++ax)
        for (int ay = 0; ay <= (dy != 0); ++ay)
          for (int az = 0; az <= (dz != 0); ++az)
            ASSERT_TRUE(map.free({a.x + ax * dx, a.y + ay * dy, a.z + az * dz})) << "step " << k;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 500);
  // The default mode on the same rows: a 6-connected path through free voxels, never shorter than
  // the optimum, found for every row.
  FlightSearchDef fast;
  fast.mode = FlightMode::Default;
  for (std::size_t i = 0; i < rows.size(); i += 20) {
    const VoxelScenRow& r = rows[i];
    SCOPED_TRACE("default mode, line " + std::to_string(r.line));
    FlightPath p;
    ASSERT_EQ(find_flight_path(map, r.start, r.goal, fast, &p, &err), Status::Ok) << err;
    ASSERT_TRUE(p.found);
    ASSERT_EQ(p.cells.front(), r.start);
    ASSERT_EQ(p.cells.back(), r.goal);
    for (std::size_t k = 1; k < p.cells.size(); ++k) {
      const CellPos a = p.cells[k - 1], b = p.cells[k];
      ASSERT_EQ(std::abs(b.x - a.x) + std::abs(b.y - a.y) + std::abs(b.z - a.z), 1);
      ASSERT_TRUE(map.free(b));
    }
    EXPECT_GE(p.length, r.optimal * (1 - 1e-6));
  }
  const VoxelMap::Stats s = map.stats();
  EXPECT_EQ(s.voxels, 105ull * 132 * 105);
  EXPECT_EQ(s.blocked_voxels, 512u);  // the file's 512 voxel lines, all distinct
}

}  // namespace
}  // namespace voxnav
