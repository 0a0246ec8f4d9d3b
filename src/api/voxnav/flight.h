// voxnav - flight over a voxel map: the Moving AI voxel benchmark (.3dmap / .3dscen) and the
// flight search that World flyers will share (docs/flight.md).
//
// A VoxelMap holds a flight grid: 4x4x4 bricks, each all blocked, all open, or mixed with a
// 64-bit free mask. Here the grid comes from a .3dmap, where a voxel is one cell and the agent is
// one voxel. find_flight_path searches it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav {

namespace detail {
struct VoxelMapData;
}

/// Largest edge of a voxel map, in voxels. [Limit: 1..kMaxVoxelMapEdge per axis]
inline constexpr int kMaxVoxelMapEdge = 4096;
/// Largest voxel count of a map (x * y * z). [Limit: 1..kMaxVoxelMapCells]
inline constexpr std::uint64_t kMaxVoxelMapCells = std::uint64_t{1} << 31;
/// Largest blocked-voxel line count of a .3dmap. [Limit: 0..kMaxVoxelMapLines]
inline constexpr std::size_t kMaxVoxelMapLines = std::size_t{1} << 26;
/// Largest row count of a .3dscen. [Limit: 0..kMaxVoxelScenRows]
inline constexpr std::size_t kMaxVoxelScenRows = std::size_t{1} << 22;
/// Default and largest expansion budget of one search. [Limit: 1..kMaxFlightExpansions]
inline constexpr std::uint64_t kDefaultFlightExpansions = std::uint64_t{1} << 27;
inline constexpr std::uint64_t kMaxFlightExpansions = kMaxVoxelMapCells;

/// A voxel map and the scratch of its searches. Opaque; move-only. Empty until a parse
/// succeeds. One thread at a time (a search reuses the map's scratch). The scratch is kept
/// between searches (Stats::search_bytes) and grows with the searches, not with the map: per
/// 4x4x4 brick the largest search touched, 328 bytes (Optimal) or 520 bytes (Default) of node
/// state; per run of 512 consecutive bricks (along x, then y, then z) any search touched, 4 KiB
/// of tags; per 512 bricks of the whole map, 8 bytes per mode (a 4096 x 4096 x 128 map: 560 KB);
/// and queues of up to 4 MiB each (larger ones, 16 bytes per entry and several entries per
/// expansion, are freed after the search). A1's longest optimal rows keep about 100 MB. Destroy
/// or replace the map to release it all.
class VoxelMap {
 public:
  VoxelMap();
  ~VoxelMap();
  VoxelMap(VoxelMap&&) noexcept;
  VoxelMap& operator=(VoxelMap&&) noexcept;
  VoxelMap(const VoxelMap&) = delete;
  VoxelMap& operator=(const VoxelMap&) = delete;

  bool empty() const;
  /// Size in voxels (0 when empty).
  int size_x() const;
  int size_y() const;
  int size_z() const;
  /// True for a voxel inside the map and not blocked (false anywhere else).
  bool free(CellPos v) const;

  /// What the grid holds and what it costs.
  struct Stats {
    std::uint64_t voxels = 0;          ///< size_x * size_y * size_z
    std::uint64_t blocked_voxels = 0;  ///< distinct blocked voxels
    std::size_t open_bricks = 0, blocked_bricks = 0, mixed_bricks = 0;
    std::size_t grid_bytes = 0;    ///< the brick references and the mixed masks
    std::size_t search_bytes = 0;  ///< the search scratch held now (grows with the largest search)
  };
  Stats stats() const;

 private:
  friend struct detail::VoxelMapData;
  std::unique_ptr<detail::VoxelMapData> d_;
};

/// Parses a Moving AI .3dmap text: a `voxel X Y Z` line (sizes 1..kMaxVoxelMapEdge, product
/// <= kMaxVoxelMapCells), then one `x y z` line per blocked voxel (0 <= x < X ...). Voxel
/// (x, y, z) is cell (x, y, z); every voxel not listed is free; the outside is blocked. Blank
/// lines are ignored, CRLF accepted, a leading UTF-8 byte order mark skipped, a voxel listed
/// twice is blocked once. Numbers are decimal integers (no '+', no hex).
/// Returns: Ok (`*out` replaced); InvalidArgument (null `out`); BadFormat (no header, a malformed
/// line, a voxel out of bounds, more than kMaxVoxelMapLines lines: `error` names the line and
/// quotes it with bytes other than printable ASCII escaped, e.g. \r, \x00);
/// OutOfRange (a size out of its limit); OutOfMemory. `*out` is unchanged on error; `error` may be
/// null.
[[nodiscard]] Status parse_voxel_map(std::string_view text, VoxelMap* out, std::string* error);

/// One row of a .3dscen: a search from start to goal whose optimal 26-connected length is
/// `optimal` (and `ratio`, the file's last column, as written).
struct VoxelScenRow {
  std::size_t line = 0;  ///< 1-based line in the file
  CellPos start, goal;
  double optimal = 0;
  double ratio = 0;
};

/// Parses a Moving AI .3dscen text: `version 1`, the map's file name, then rows
/// `sx sy sz gx gy gz optimal ratio` (decimal numbers only: no '+', hex, inf or nan). A leading
/// UTF-8 byte order mark is skipped. With a `map`, a start or goal outside it is refused; a null
/// `map` checks no bounds.
/// Returns: Ok (`*out` replaced); InvalidArgument (null `out`, a non-null but empty `map`: never
/// parsed or moved from); BadFormat (no version line, a malformed row, an optimal length that is
/// not finite and >= 0, a start or goal outside `map`, more than kMaxVoxelScenRows rows: `error`
/// names the line and the field; bytes of the file it quotes are escaped when not printable
/// ASCII); Unsupported (a version other than 1); OutOfMemory. `*out` is unchanged on error.
[[nodiscard]] Status parse_voxel_scen(std::string_view text, const VoxelMap* map,
                                      std::vector<VoxelScenRow>* out, std::string* error);

enum class FlightMode : std::uint8_t {
  /// 26 neighbours, a diagonal needs every voxel of the box it spans free; costs 1, sqrt 2,
  /// sqrt 3; the shortest such path (the Moving AI voxel benchmark's answers).
  Optimal = 0,
  /// The default mode of flyers (docs/flight.md): open 4x4x4 bricks as single nodes and free
  /// voxels elsewhere, six neighbours, one unit per node, f = g + 4 h (Manhattan). Far fewer
  /// expansions; the path is 6-connected (face steps only) and not the shortest.
  Default = 1,
};

/// Longest segment of a string-pulled flight corridor, in cells (FlightPath::waypoints).
inline constexpr double kFlightPullSegment = 16.0;

struct FlightSearchDef {
  FlightMode mode = FlightMode::Optimal;
  /// Also string-pull the path into FlightPath::waypoints (false leaves them empty; the
  /// benchmark's timings of the optimal mode turn it off).
  bool pull = true;
  /// Cells expanded before the search gives up (FlightPath::limited).
  /// [Limit: 1..kMaxFlightExpansions]
  std::uint64_t max_expansions = kDefaultFlightExpansions;
};

struct FlightPath {
  bool found = false;    ///< a path was found (false: none exists, or `limited`)
  bool limited = false;  ///< the search stopped at max_expansions
  double length = 0;     ///< in voxels: face steps + sqrt 2 per edge diagonal + sqrt 3 per corner one
  /// The integer cost the search minimised. Optimal: 65,536 per face step, 92,682 per edge
  /// diagonal, 113,512 per corner diagonal (sqrt 2 and sqrt 3 rounded on that scale). Default:
  /// the nodes entered (an open brick counts once).
  std::uint64_t cost = 0;
  std::uint64_t expanded = 0;  ///< nodes expanded (voxels; in Default mode an open brick is one)
  std::vector<CellPos> cells;  ///< start .. goal, one voxel per step (empty when not found)
  /// The corridor: `cells` string-pulled (def.pull), start .. goal. Between consecutive
  /// waypoints the voxel body flies straight (line_flyable is true between their centres) over
  /// at most kFlightPullSegment cells. Any-angle, so it can be shorter than the 26-connected
  /// optimum. Empty when not found or not pulled.
  std::vector<CellPos> waypoints;
  double pulled_length = 0;  ///< in voxels: the waypoints' segments, centre to centre
};

/// Finds a path from `start` to `goal` (voxels) on `map`. Deterministic: the same map and cells
/// give the same path. An unreachable goal answers Ok with found = false after expanding every
/// voxel reachable from the start (or max_expansions of them).
/// Returns: Ok (`*out` replaced); InvalidArgument (null `out`, an empty map, a blocked start or
/// goal, max_expansions out of its limit, an unknown mode); OutOfRange (start or goal outside
/// the map); OutOfMemory. `*out` is unchanged on error; `error` (may be null) names the argument.
[[nodiscard]] Status find_flight_path(VoxelMap& map, CellPos start, CellPos goal,
                                      const FlightSearchDef& def, FlightPath* out,
                                      std::string* error);

/// The straight line for the map's one-voxel body: whether a cube of edge 1 - 2/1024 voxels (a
/// voxel shrunk by 1/1024 on every side) moved in a straight line from centre `from` to centre
/// `to` overlaps no blocked voxel (nor the outside of the map) at any point on the way. Positions
/// are in voxels: voxel v spans [v, v + 1) on each axis, so its centre is v + 0.5. Sliding along
/// a blocked voxel's face passes; a diagonal past its edge or corner does not (the benchmark's box
/// rule, extended to any angle). Conservative: a line that passes within about 1e-9 of its length
/// of a blocked voxel may be refused; one that touches it never passes. Cost: about 4 voxel reads
/// per voxel of length, fewer through all-open 4x4x4 bricks.
/// Returns: Ok (`*clear` set); InvalidArgument (null `clear`, an empty map, a non-finite
/// coordinate: `error` names it); OutOfRange (an end outside [0, size] on an axis).
/// `error` may be null.
[[nodiscard]] Status line_flyable(const VoxelMap& map, Vec3 from, Vec3 to, bool* clear, std::string* error);

}  // namespace voxnav
