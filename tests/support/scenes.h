// Scenes and data locations shared by the GoogleTest suites and the benchmarks (the voxnav_scenes
// library: no GoogleTest, so bench/ links it too). Gtest-aware helpers are in test_support.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/profile.h"

namespace voxnav::test {

/// The real data beside the project root (../shared/data: minecraft-data blocks, regions,
/// schematics, Moving AI maps). The environment variable VOXNAV_SHARED_DATA_DIR, when set and not
/// empty, replaces the location configured at build time (VOXNAV_SHARED_DATA_DIR, a CMake cache
/// variable). Under node (wasm) the environment is not seen: the configured location is used.
const char* shared_data_dir();

/// True when shared_data_dir() is an existing directory.
bool shared_data_present();

/// A whole file as bytes / as text (empty when it cannot be read).
std::vector<std::uint8_t> read_bytes(const std::string& path);
std::string read_text(const std::string& path);

/// The flyer the flight suites, scenes and benchmarks share: id "bat", the Flyer class, can_fly,
/// no jump; the default body otherwise.
Profile bat_profile();

}  // namespace voxnav::test

/// Where the suites and benchmarks find ../shared/data (see shared_data_dir()).
#define VOXNAV_SHARED_DATA (::voxnav::test::shared_data_dir())
