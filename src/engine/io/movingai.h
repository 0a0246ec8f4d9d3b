// Moving AI grid benchmark files (.map, .scen) and the voxel world a .map stands for.
//
// Voxel world: map x -> cell x, map y -> cell z. A solid full block at y = 0 under every cell;
// each blocked cell ('@', 'O', 'T', and 'W' water, which walkers cannot use) also gets solid
// blocks at y = 1..4, so no walker can step or jump onto it. Walkers stand at y = 1. Cells of the
// edge chunks that lie outside the map are built like blocked cells.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/world/space.h"
#include "voxnav/io.h"
#include "voxnav/status.h"

namespace voxnav::detail {

struct MovingAiMap {
  int width = 0, height = 0;
  std::vector<char> tiles;  ///< height rows of width characters, row-major (y * width + x)

  char tile(int x, int y) const { return tiles[static_cast<std::size_t>(y) * width + x]; }
  bool in_bounds(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  /// '.', 'G' and 'S' are passable; '@', 'O', 'T' and 'W' are not.
  bool passable(int x, int y) const { return in_bounds(x, y) && movingai_passable(tile(x, y)); }
  std::size_t passable_count() const;

  static bool movingai_passable(char c) { return c == '.' || c == 'G' || c == 'S'; }
};

/// Parses a .map text ("type octile", "height H", "width W", "map", H rows of W characters;
/// CRLF accepted). Errors: BadFormat (missing header, wrong row length / count, unknown tile
/// character - the message names line and column), Unsupported (a type other than octile).
Status parse_movingai_map(std::string_view text, MovingAiMap& out, std::string& message);

using voxnav::MovingAiScenario;  // one row of a .scen file (voxnav/io.h)

/// Parses a .scen text (an optional "version 1" line, then tab/space separated rows). Errors:
/// BadFormat with the line (also for a text with no row and no version line), Unsupported.
Status parse_movingai_scen(std::string_view text, std::vector<MovingAiScenario>& out,
                           std::string& message);

using voxnav::kMovingAiStandY;   ///< walkers stand with their feet at y = 1
using voxnav::kMovingAiWallTop;  ///< blocked columns fill y = 1..4

struct MovingAiWorldInfo {
  std::size_t chunks_loaded = 0;
  std::size_t uniform_chunks = 0;
  CellPos min, max;  ///< the map's cells: (0,0,0) .. (width-1, kMovingAiWallTop, height-1)
};

/// Loads the voxel world of `map` into `space` with `solid` as the block value (e.g. the
/// registry's "stone"): chunk layer y = 0 holds the floor and walls, chunk layer y = 1 is loaded
/// as uniform air (load_uniform_chunk) so the space above the walls is known to be empty.
/// Errors: InvalidArgument (empty map, `solid` without collision), OutOfRange (map too large).
Status build_movingai_world(const MovingAiMap& map, std::uint16_t solid, Space& space,
                            MovingAiWorldInfo* info = nullptr);

}  // namespace voxnav::detail
