// The three real Minecraft regions of ../shared/data, for the suites that run a check on each:
// the parameter's test name and the file's path under VOXNAV_SHARED_DATA.
#pragma once

namespace voxnav::test {

struct SharedRegion {
  const char* name;  ///< test name suffix, e.g. "v1_16"
  const char* file;  ///< path under VOXNAV_SHARED_DATA
};
inline constexpr SharedRegion kSharedRegions[] = {
    {"v1_12_2", "/minecraft/regions/1.12.2/r.0.-1.mca"},
    {"v1_16", "/minecraft/regions/1.16/r.0.-1.mca"},
    {"v1_18_2", "/minecraft/regions/1.18.2/r.0.0.mca"},
};

}  // namespace voxnav::test
