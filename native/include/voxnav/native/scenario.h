// voxnav native: the scripted-scenario JSON of `voxnav run --script` (fixed agents, goals and
// edits at fixed ticks; examples/web/scenario.json). Parsing only: the CLI replays it. Link
// voxnav::native.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav::native {

/// An edit of a scenario: at tick `tick`, `cell` becomes the block state named `block`.
struct ScenarioEdit {
  int tick = 0;
  CellPos cell;
  std::string block;
};

/// A parsed scenario. The JSON:
///   { "world": "r.0.-1.mca",             a file in data/worlds
///     "profile": { "id": "walker" },     one profile, as in profile files (default: walker)
///     "dt": 0.05, "ticks": 400,          seconds per tick [Limit: (0, 1]], ticks [Limit: 0..10^6]
///     "agents": [ { "feet": [x, y, z], "goal": [x, y, z] }, ... ],
///     "swimmers": { "profile": {...}, "agents": [...] },   optional second profile and agents
///     "edits": [ { "tick": t, "cell": [x, y, z], "block": "stone" }, ... ],  in tick order
///     "checkpoints": [100, 200, ...] }   ticks (1..ticks) after which the state hash is recorded
/// Cells are integers in the 32-bit range (a cell past it is refused, not wrapped).
struct Scenario {
  std::string world;
  std::string profile_json;  ///< the profile object, re-serialized (parse_profile_json)
  std::string swimmer_json;  ///< the swimmers' profile ("" without swimmers)
  double dt = 0.05;
  int ticks = 0;
  std::vector<Vec3> feet;
  std::vector<CellPos> goals;
  std::size_t swimmers = 0;  ///< the last `swimmers` of feet / goals are the swimmers' agents
  std::vector<ScenarioEdit> edits;
  std::vector<int> checkpoints;
};

/// Parses a scenario (the format above; profiles are not checked here: parse_profile_json).
/// `out` is replaced on success and unchanged on error. Returns: Ok; BadFormat with `error` (may
/// be null) naming the field ("agents[3].goal must be [x, y, z] integers"), or arrays and objects
/// nested deeper than 64 levels [Limit: nesting 0..64]; InvalidArgument (a null `out`);
/// OutOfMemory.
[[nodiscard]] Status parse_scenario_json(std::span<const std::uint8_t> json, Scenario* out,
                                         std::string* error);

}  // namespace voxnav::native
