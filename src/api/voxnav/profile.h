// voxnav - movement classes and profiles (per-creature movement settings).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "voxnav/status.h"

namespace voxnav {

/// Movement classes fix the body envelope and therefore the navigation data. This build
/// navigates `Walker` (a 0.6 x 1.8 envelope); the other classes are accepted by the profile
/// parser for forward compatibility and rejected by World::add_profile with Unsupported.
enum class MovementClass : std::uint8_t { WalkerSmall, Walker, WalkerLarge, Swimmer, Flyer };

/// Name used in profile files: "walker_small", "walker", "walker_large", "swimmer", "flyer".
const char* movement_class_name(MovementClass c) noexcept;

/// Per-creature movement settings. Units: cells (= metres at cell_size 1), seconds, degrees per
/// second for turn_rate. Defaults are a Minecraft-like zombie-sized walker.
struct Profile {
  std::string id = "walker";                  ///< unique name, e.g. "game:boar"
  MovementClass movement_class = MovementClass::Walker;
  double width = 0.6;                         ///< body footprint side, cells; <= class envelope
  double height = 1.8;                        ///< body height, cells; <= class envelope
  double walk_speed = 4.3;                    ///< m/s, > 0
  double sprint_speed = 5.6;                  ///< m/s, >= walk_speed
  double climb_speed = 0.0;                   ///< m/s (climbing classes, with can_climb)
  double swim_speed = 0.0;                    ///< m/s (with can_swim)
  double step_height = 0.6;                   ///< cells, 0 .. 1
  double jump_apex = 1.25;                    ///< cells, 0 .. 1.25 (the class's jump)
  int max_drop = 3;                           ///< cells a creature drops without refusing, 0..7
  int gap_jump = -1;                          ///< -1 = auto (derived), else cells (0 = none)
  double turn_rate = 720.0;                   ///< degrees per second
  double arrive_radius = 0.5;                 ///< cells, > 0
  bool strafe = false;
  bool can_open_doors = false;
  bool can_climb = false;
  bool can_swim = false;
  bool can_fly = false;
  int drop_malus = 1;                         ///< extra cost per dropped cell, in quarter cells
  std::uint32_t search_max_nodes = 100000;    ///< A* expansion budget per request, 1 .. 10^8
  int search_max_distance = 256;              ///< cells from the start a search may go, 1 .. 2^20
};

/// Parses one profile from JSON (an object with the fields above; `class` for movement_class,
/// `body: {width, height}`, `speed: {walk, sprint, climb, swim}`, `search: {max_nodes,
/// max_distance}`; gap_jump is "auto" or an integer). Unknown fields, wrong types and values out
/// of range are errors, and so is a key given twice in one object (InvalidArgument, the message
/// names the key): returns BadFormat / InvalidArgument and writes a message naming the
/// profile (or `source`, e.g. a file name) and the field, e.g.
/// `zombie.json: profile "zombie": field "body.width": 1.2 is larger than the walker envelope 0.6`.
/// `out` is left unchanged on error. Warnings (a profile that restricts its class) go to
/// `warning` when non-null.
Status parse_profile_json(std::string_view json, Profile& out, std::string* error,
                          std::string* warning = nullptr, std::string_view source = {});

/// Checks a profile's values (what parse_profile_json checks after parsing). Same messages.
Status validate_profile(const Profile& p, std::string* error, std::string* warning = nullptr,
                        std::string_view source = {});

}  // namespace voxnav
