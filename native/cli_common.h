// Shared pieces of the voxnav command-line tool: argument parsing, world loading, output.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/io.h"
#include "voxnav/world.h"

namespace voxnav::cli {

/// Directory holding data/blocks and data/worlds: $VOXNAV_DATA_DIR, else the source tree's data/.
std::string data_dir();

/// Loads the block registry (data/blocks) and a world file into `world`, then builds navigation.
/// Prints errors to stderr; returns false on failure.
bool load_world(World& world, const std::string& path, LoadReport& report,
                double* nav_build_ms);

/// load_world, with the navigation imported from the saved file `nav_file` (voxnav/save.h)
/// instead of built when it is not empty. A refused file is reported on stderr (its status and
/// message) and the navigation is built instead; `*imported` (may be null) tells which happened.
bool load_world_nav(World& world, const std::string& path, const std::string& nav_file,
                    LoadReport& report, double* nav_ms, bool* imported);

/// Parses "X,Y,Z" (integers in the cell range, voxnav/types.h kMaxCellXZ, kMaxCellY). Empty on
/// success, else what is wrong: "expects X,Y,Z integers" or "y 5000 is out of range: outside
/// -2047 .. 2047".
std::string parse_cell(const std::string& s, CellPos& out);

/// Adds the default walker profile, or the profile in a JSON file.
bool add_profile(World& world, const std::string& file, ProfileId& id, Profile* out = nullptr);

/// Percentile (0..100) of a list (sorted copy), 0 for an empty list.
double percentile(std::vector<double> v, double p);

std::string json_escape(const std::string& s);

int cmd_run(int argc, char** argv);
int cmd_route(int argc, char** argv);
int cmd_moves(int argc, char** argv);
int cmd_scen(int argc, char** argv);
int cmd_scen3d(int argc, char** argv);
int cmd_nav_export(int argc, char** argv);  // cmd_nav.cpp
int cmd_nav_import(int argc, char** argv);

}  // namespace voxnav::cli
