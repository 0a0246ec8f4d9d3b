// Moving AI voxel benchmark files (.3dmap, .3dscen) from text (the public side: voxnav/flight.h).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "voxnav/flight.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav::detail {

struct VoxelMapText {
  int sx = 0, sy = 0, sz = 0;
  std::vector<CellPos> blocked;  ///< as listed (duplicates kept)
};

/// A .3dmap: "voxel X Y Z", then "x y z" lines of blocked voxels. BadFormat / OutOfRange with a
/// message naming the line (voxnav/flight.h parse_voxel_map).
Status parse_3dmap(std::string_view text, VoxelMapText& out, std::string& message);

/// A .3dscen: "version 1", the map name, rows of 8 fields. sx < 0: no bounds check.
Status parse_3dscen(std::string_view text, int sx, int sy, int sz, std::vector<VoxelScenRow>& out,
                    std::string& message);

}  // namespace voxnav::detail
