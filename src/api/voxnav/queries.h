// voxnav - cells a host asks for by what they are, without a search: a seeded choice of spawn
// cells in a box that pass a filter (headroom, hazards, fluids, distance from points,
// reachability, a host callback), and the nearest such cell to a point. Free functions on a
// World, for walker-side profiles (walkers, swimmers; not flyers). See docs/agents.md#spawn-cells.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "voxnav/error.h"
#include "voxnav/ids.h"
#include "voxnav/requests.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav {

class World;

/// Most cells find_spawn_cells' box holds (64 x 64 x 64): the most cells one call reads.
/// [Limit: box volume 1..kMaxSpawnBoxCells]
inline constexpr std::int64_t kMaxSpawnBoxCells = 262144;
/// Most cells one find_spawn_cells call returns. [Limit: max_cells 1..kMaxSpawnCells]
inline constexpr std::size_t kMaxSpawnCells = 4096;
/// Most points CellFilter::avoid lists. [Limit: avoid 0..kMaxFilterPoints points]
inline constexpr std::size_t kMaxFilterPoints = 64;
/// Largest CellFilter::min_distance, metres (= cells). [Limit: 0..kMaxFilterDistance]
inline constexpr double kMaxFilterDistance = 4096.0;
/// Largest CellFilter::min_headroom, cells. [Limit: 0..kMaxFilterHeadroom]
inline constexpr int kMaxFilterHeadroom = 16;
/// Largest CellFilter::hazard_distance, cells. [Limit: 0..kMaxFilterHazardDistance]
inline constexpr int kMaxFilterHazardDistance = 4;

/// What CellFilter::reach asks of the way between a cell and CellFilter::reach_cell, answered
/// by World::reachable for the query's profile: only a Yes passes (Unknown and No do not).
enum class CellReach : std::uint8_t {
  Any,   ///< no reachability test
  From,  ///< reachable(profile, reach_cell, cell) is Yes: an agent at reach_cell gets there
  To,    ///< reachable(profile, cell, reach_cell) is Yes: an agent put there gets to reach_cell
  Both,  ///< both
};

/// The tests a cell must pass besides being standable for the profile (World::is_standable),
/// cheapest first, the host's `reject` callback last. Every test reads the blocks as the World
/// holds them (a block of a chunk not loaded reads as air) and the navigation as of the last
/// update(). (x, y, z) is the cell.
struct CellFilter {
  /// 0: off. h >= 1: the h cells above it, (x, y+1, z) .. (x, y+h, z), hold no block with a
  /// collision box (fluids and plants count as free): room for a body taller than the
  /// profile's (standable already means the profile's body fits). [Limit: 0..kMaxFilterHeadroom]
  int min_headroom = 0;
  /// 0: off. d >= 1: no block with a hazard (fire, lava, magma, cactus ...: BlockTraits::hazard)
  /// in the box x-d..x+d, y-1..y+2, z-d..z+d (the block stood on, the body, the cell over its
  /// head, d columns around). [Limit: 0..kMaxFilterHazardDistance]
  int hazard_distance = 0;
  /// No block with a fluid (BlockTraits::fluid: water, lava) in the box x-1..x+1, y-1..y+1,
  /// z-1..z+1: not in a fluid nor at its edge.
  bool exclude_fluids = false;
  /// Points the cell must keep away from (players, the camera ...), metres, world frame: the
  /// distance from each to the cell's bottom centre (x + 0.5, y, z + 0.5), 3D Euclidean, is at
  /// least `min_distance` (computed as dx*dx + dy*dy + dz*dz >= min_distance * min_distance in
  /// doubles). Not owned: must stay valid during the call. [Limit: 0..kMaxFilterPoints points,
  /// each component finite]
  std::span<const Vec3> avoid;
  double min_distance = 0.0;  ///< metres [Limit: 0..kMaxFilterDistance, finite]
  CellReach reach = CellReach::Any;
  CellPos reach_cell;  ///< the other end of `reach` (any cell in range; unused when Any)
  /// The host's last word, asked only of cells that passed every other test, at most once per
  /// cell per call: true rejects the cell (e.g. it is in a player's line of sight). Called on the
  /// calling thread during the call; it must not change the World. Empty: none.
  std::function<bool(CellPos cell)> reject;
};

/// Up to `max_cells` distinct cells of the inclusive box min..max that are standable for
/// `profile` and pass `filter`, chosen by `seed`: the box's cells are visited in a seeded order
/// (a permutation of the box computed with integer arithmetic only) and the first `max_cells`
/// that pass are copied to `out` in that order. `*count` = min(max_cells, the number of cells of
/// the box that pass), counting the callback's verdicts. The same seed, world (blocks and
/// navigation) and arguments give the same cells in the same order on every platform; another
/// seed gives another choice when many cells pass. Cost: at most the box's volume in cell
/// tests (each: a standability read; then, for a standable cell, up to min_headroom +
/// (2 hazard_distance + 1)^2 * 4 + 27 block reads, one distance per avoid point, one or two
/// reachability answers, the callback), and twice the volume in integer steps of the
/// permutation; it stops at the max_cells-th cell that passes. No allocation.
/// Returns: Ok (also with *count = 0); InvalidArgument (null `out`, null `count`; a profile not
/// of this world: "profile"; a box with min above max on an axis or of more than
/// kMaxSpawnBoxCells cells: "max"; max_cells out of its limit: "max_cells"; a filter field out of
/// its limit or not finite: "filter.min_headroom", "filter.hazard_distance",
/// "filter.min_distance", "filter.avoid" (too many points), "filter.avoid[i]", "filter.reach");
/// OutOfRange ("min", "max", "filter.reach_cell": outside the cell range); Unsupported (a flyer
/// profile). On an error nothing is written and the callback is not called.
[[nodiscard]] Status find_spawn_cells(const World& world, ProfileId profile, CellPos min,
                                      CellPos max, const CellFilter& filter, std::uint64_t seed,
                                      CellPos* out, std::size_t max_cells, std::size_t* count,
                                      CallError* error = nullptr);

/// World::nearest_standable with a filter: the standable cell of `profile` that passes `filter`
/// nearest `near` within `radius` cells on every axis (a cube), nearest by the squared Euclidean
/// distance between integer cell coordinates (dx*dx + dy*dy + dz*dz); ties: the lower y, then
/// the lower z, then the lower x. The callback is asked in that order, only of cells that passed
/// every other test, until it accepts one. Cost: at most (2 radius + 1)^3 cell tests, in shells
/// of growing Chebyshev distance; it stops once no farther shell can hold a nearer cell.
/// [Limit: radius 0..kMaxNearestRadius] Returns: Ok; NotFound (no such cell within radius;
/// `out` unchanged); InvalidArgument (null `out`; "profile"; "radius"; the filter as
/// find_spawn_cells); OutOfRange ("near", "filter.reach_cell"); Unsupported (a flyer profile).
[[nodiscard]] Status nearest_standable(const World& world, ProfileId profile, CellPos near,
                                       int radius, const CellFilter& filter, CellPos* out,
                                       CallError* error = nullptr);

/// One move of a profile's navigation (layer 2) out of a cell: the cell it lands in, its kind and
/// the integer cost the profile's searches give it (10000 per cell of level walking).
struct CellMove {
  CellPos to;
  EdgeKind kind = EdgeKind::Walk;
  std::uint32_t cost = 0;
};
/// Room for every move of one cell: at most 18 (8 directions, 2 along a ladder, 8 gap jumps).
inline constexpr std::size_t kMaxCellMoves = 32;

/// The moves a search of `profile` takes out of cell `from` (walks, steps, jumps, drops, door
/// and ladder moves, gap jumps; those the profile refuses left out: a drop deeper than its
/// max_drop, a rise above its step or jump, an impassable target, a gap it cannot clear), in the
/// search's order: a host draws them, or drives its own body along them (the movement step
/// carries the class's body along each; `voxnav moves` checks it on a whole world). A cell that
/// is no node of the navigation has none. Cost: one read of the cell's move words and of each
/// target. [Limit: capacity >= kMaxCellMoves] Returns: Ok (also with *count = 0);
/// InvalidArgument (null `out` or `count`; "capacity" below kMaxCellMoves; "profile" not of this
/// world); OutOfRange ("from"); Unsupported (a flyer profile). On an error nothing is written.
[[nodiscard]] Status cell_moves(const World& world, ProfileId profile, CellPos from, CellMove* out,
                                std::size_t capacity, std::size_t* count,
                                CallError* error = nullptr);

}  // namespace voxnav
