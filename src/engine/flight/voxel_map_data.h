// What a voxnav::VoxelMap (voxnav/flight.h) holds: the flight grid and the searchers' scratch.
// src/api/flight.cpp and the tests reach it through VoxelMapData::of.
#pragma once
#include <cstdint>
#include <memory>

#include "engine/flight/flight_default.h"
#include "engine/flight/flight_grid.h"
#include "engine/flight/flight_search.h"
#include "voxnav/flight.h"

namespace voxnav::detail {

struct VoxelMapData {
  flight::FlightGrid grid;
  flight::OptimalSearch optimal;
  flight::FlightSearchResult result;  // reused between searches
  flight::DefaultSearch fast;
  flight::DefaultSearchResult fast_result;
  std::uint64_t blocked_voxels = 0;

  /// The map's data (null for an empty map).
  static VoxelMapData* of(VoxelMap& m) { return m.d_.get(); }
  static const VoxelMapData* of(const VoxelMap& m) { return m.d_.get(); }
  static void install(VoxelMap& m, std::unique_ptr<VoxelMapData> d) { m.d_ = std::move(d); }
};

}  // namespace voxnav::detail
