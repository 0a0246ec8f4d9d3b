// Fuzzes voxnav/flight.h: the input is a .3dmap text, optionally followed by "\n#scen#\n" and a
// .3dscen text. A refused input must give a message and leave the map as it was; on a small map
// (at most 2^15 voxels) the first rows are searched in both modes with a small budget, and every
// path found is checked step by step.
#include <cstdlib>
#include <string_view>
#include <vector>

#include "fuzz_common.h"
#include "voxnav/flight.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = all.find("\n#scen#\n");
  const std::string_view map_text = all.substr(0, cut);
  const std::string_view scen_text = cut == std::string_view::npos ? std::string_view() : all.substr(cut + 8);
  VoxelMap map;
  std::string err;
  if (parse_voxel_map("voxel 1 2 3\n0 1 2\n", &map, &err) != Status::Ok) fuzz::fail("the base map was refused");
  const Status st = parse_voxel_map(map_text, &map, &err);
  if (st != Status::Ok) {
    if (err.empty()) fuzz::fail("a refused .3dmap gave no message");
    if (map.size_x() != 1 || map.size_y() != 2 || map.size_z() != 3 || map.free({0, 1, 2}) || !map.free({0, 0, 0}))
      fuzz::fail("a refused .3dmap changed the map");
    return 0;
  }
  if (cut == std::string_view::npos) return 0;
  std::vector<VoxelScenRow> rows;
  if (parse_voxel_scen(scen_text, &map, &rows, &err) != Status::Ok) {
    if (err.empty()) fuzz::fail("a refused .3dscen gave no message");
    return 0;
  }
  if (map.stats().voxels > (1u << 15)) return 0;
  FlightSearchDef def;
  def.max_expansions = 4096;
  for (std::size_t i = 0; i < rows.size() && i < 4; ++i) {
    for (FlightMode mode : {FlightMode::Optimal, FlightMode::Default}) {
      def.mode = mode;
      FlightPath p;
      const Status s = find_flight_path(map, rows[i].start, rows[i].goal, def, &p, &err);
      if (s != Status::Ok) {
        if (err.empty()) fuzz::fail("a refused search gave no message");
        continue;
      }
      if (!p.found) continue;
      if (p.cells.empty() || !(p.cells.front() == rows[i].start) || !(p.cells.back() == rows[i].goal))
        fuzz::fail("a path does not join start and goal");
      for (std::size_t k = 1; k < p.cells.size(); ++k) {
        const CellPos a = p.cells[k - 1], b = p.cells[k];
        const int dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
        if (std::abs(dx) > 1 || std::abs(dy) > 1 || std::abs(dz) > 1) fuzz::fail("a step longer than one voxel");
        for (int ax = 0; ax <= (dx != 0); ++ax)
          for (int ay = 0; ay <= (dy != 0); ++ay)
            for (int az = 0; az <= (dz != 0); ++az)
              if (!map.free({a.x + ax * dx, a.y + ay * dy, a.z + az * dz})) fuzz::fail("a step cuts a blocked voxel");
      }
    }
  }
  return 0;
}
