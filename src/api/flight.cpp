// voxnav/flight.h: the voxel map, its parsers and the flight search.
#include "voxnav/flight.h"

#include <cmath>
#include <utility>

#include "api_text.h"
#include "engine/flight/flight_line.h"
#include "engine/flight/voxel_map_data.h"
#include "engine/io/movingai3d.h"

namespace voxnav {

VoxelMap::VoxelMap() = default;
VoxelMap::~VoxelMap() = default;
VoxelMap::VoxelMap(VoxelMap&&) noexcept = default;
VoxelMap& VoxelMap::operator=(VoxelMap&&) noexcept = default;

bool VoxelMap::empty() const { return !d_ || d_->grid.empty(); }
int VoxelMap::size_x() const { return d_ ? d_->grid.size_x() : 0; }
int VoxelMap::size_y() const { return d_ ? d_->grid.size_y() : 0; }
int VoxelMap::size_z() const { return d_ ? d_->grid.size_z() : 0; }
bool VoxelMap::free(CellPos v) const { return d_ && d_->grid.free(v.x, v.y, v.z); }

VoxelMap::Stats VoxelMap::stats() const {
  Stats s;
  if (!d_) return s;
  s.voxels = d_->grid.cell_count();
  s.blocked_voxels = d_->blocked_voxels;
  s.open_bricks = d_->grid.open_bricks();
  s.blocked_bricks = d_->grid.blocked_bricks();
  s.mixed_bricks = d_->grid.mixed_bricks();
  s.grid_bytes = d_->grid.memory_bytes();
  s.search_bytes = d_->optimal.memory_bytes() + d_->fast.memory_bytes();
  return s;
}

namespace {
Status fail(std::string* error, std::string msg, Status st) {
  if (error != nullptr) *error = std::move(msg);
  return st;
}
/// The voxel body's half extents (flight_line.h).
constexpr detail::flight::Point3 kVoxelBody{detail::flight::kVoxelHalfExtent, detail::flight::kVoxelHalfExtent,
                                            detail::flight::kVoxelHalfExtent};

/// String-pulls a found path into its waypoints (FlightPath::waypoints).
void pull(const detail::VoxelMapData& d, const FlightSearchDef& def, FlightPath& path) {
  if (!def.pull || !path.found) return;
  // Path steps scanned ahead of the last waypoint: a segment of 16 cells spans at most 48 steps
  // of a 6-connected path (16 along each axis).
  constexpr std::size_t kMaxGap = 3 * static_cast<std::size_t>(kFlightPullSegment);
  path.pulled_length = detail::flight::pull_path(d.grid, path.cells, kVoxelBody, kFlightPullSegment, kMaxGap,
                                                 path.waypoints);
}
}  // namespace

Status line_flyable(const VoxelMap& map, Vec3 from, Vec3 to, bool* clear, std::string* error) {
  if (clear == nullptr) return fail(error, "clear is null", Status::InvalidArgument);
  if (map.empty()) return fail(error, "map: the voxel map is empty (no parse succeeded)", Status::InvalidArgument);
  const int size[3] = {map.size_x(), map.size_y(), map.size_z()};
  for (const auto& [what, p] : {std::pair<const char*, Vec3>{"from", from}, {"to", to}}) {
    const double c[3] = {p.x, p.y, p.z};
    for (int k = 0; k < 3; ++k) {
      const std::string name = std::string(what) + "." + "xyz"[k];
      if (!std::isfinite(c[k])) return fail(error, name + " is not finite", Status::InvalidArgument);
      if (c[k] < 0 || c[k] > size[k])
        return fail(error, name + " " + detail::num(c[k]) + " is outside the map: 0 .. " + std::to_string(size[k]),
                    Status::OutOfRange);
    }
  }
  const detail::VoxelMapData& d = *detail::VoxelMapData::of(map);
  *clear = detail::flight::box_sweep_clear(d.grid, {from.x, from.y, from.z}, {to.x, to.y, to.z}, kVoxelBody);
  return Status::Ok;
}

Status parse_voxel_map(std::string_view text, VoxelMap* out, std::string* error) {
  if (out == nullptr) return fail(error, "out is null", Status::InvalidArgument);
  std::string msg;
  const Status st = detail::guarded(msg, [&] {
    detail::VoxelMapText parsed;
    const Status ps = detail::parse_3dmap(text, parsed, msg);
    if (ps != Status::Ok) return ps;
    auto data = std::make_unique<detail::VoxelMapData>();
    data->grid.build_from_blocked(parsed.sx, parsed.sy, parsed.sz, parsed.blocked);
    data->blocked_voxels = data->grid.cell_count();
    // Distinct blocked voxels: the cells that are not free (the list may repeat a voxel).
    std::uint64_t free_cells = 0;
    const auto& g = data->grid;
    free_cells += std::uint64_t(g.open_bricks()) * 64;
    for (int bz = 0; bz < g.padded_z(); ++bz)
      for (int by = 0; by < g.padded_y(); ++by)
        for (int bx = 0; bx < g.padded_x(); ++bx) {
          const std::uint32_t b = std::uint32_t(bx) + std::uint32_t(g.padded_x()) * (std::uint32_t(by) + std::uint32_t(g.padded_y()) * std::uint32_t(bz));
          if (g.brick_ref(b) >= 2) free_cells += std::uint64_t(__builtin_popcountll(g.brick_mask(b)));
        }
    data->blocked_voxels -= free_cells;
    VoxelMap fresh;
    detail::VoxelMapData::install(fresh, std::move(data));
    *out = std::move(fresh);
    return Status::Ok;
  });
  if (st != Status::Ok) return fail(error, msg, st);
  return Status::Ok;
}

Status parse_voxel_scen(std::string_view text, const VoxelMap* map, std::vector<VoxelScenRow>* out,
                        std::string* error) {
  if (out == nullptr) return fail(error, "out is null", Status::InvalidArgument);
  // A non-null map asks for bounds checks: an empty one (never parsed, or moved from) has no
  // bounds to check against, so it is refused rather than read as "no map".
  if (map != nullptr && map->empty())
    return fail(error, "map: the voxel map is empty (no parse succeeded); pass null for no bounds checks",
                Status::InvalidArgument);
  std::string msg;
  const Status st = detail::guarded(msg, [&] {
    std::vector<VoxelScenRow> rows;
    const bool bounded = map != nullptr;
    const Status ps = detail::parse_3dscen(text, bounded ? map->size_x() : -1, bounded ? map->size_y() : -1,
                                           bounded ? map->size_z() : -1, rows, msg);
    if (ps != Status::Ok) return ps;
    *out = std::move(rows);
    return Status::Ok;
  });
  if (st != Status::Ok) return fail(error, msg, st);
  return Status::Ok;
}

Status find_flight_path(VoxelMap& map, CellPos start, CellPos goal, const FlightSearchDef& def,
                        FlightPath* out, std::string* error) {
  if (out == nullptr) return fail(error, "out is null", Status::InvalidArgument);
  if (map.empty()) return fail(error, "map: the voxel map is empty (no parse succeeded)", Status::InvalidArgument);
  if (def.mode != FlightMode::Optimal && def.mode != FlightMode::Default)
    return fail(error, "def.mode " + std::to_string(int(def.mode)) + " is not a flight mode", Status::InvalidArgument);
  if (def.max_expansions < 1 || def.max_expansions > kMaxFlightExpansions)
    return fail(error, "def.max_expansions " + std::to_string(def.max_expansions) + " is out of range: 1 .. " +
                           std::to_string(kMaxFlightExpansions),
                Status::InvalidArgument);
  for (const auto& [what, c] : {std::pair<const char*, CellPos>{"start", start}, {"goal", goal}}) {
    if (c.x < 0 || c.y < 0 || c.z < 0 || c.x >= map.size_x() || c.y >= map.size_y() || c.z >= map.size_z())
      return fail(error, std::string(what) + " " + detail::cell_text(c) + " is outside the map (" +
                             std::to_string(map.size_x()) + " x " + std::to_string(map.size_y()) + " x " +
                             std::to_string(map.size_z()) + " voxels)",
                  Status::OutOfRange);
    if (!map.free(c))
      return fail(error, std::string(what) + " " + detail::cell_text(c) + " is a blocked voxel", Status::InvalidArgument);
  }
  std::string msg;
  const Status st = detail::guarded(msg, [&] {
    detail::VoxelMapData& d = *detail::VoxelMapData::of(map);
    if (def.mode == FlightMode::Default) {
      d.fast.run(d.grid, start, goal, def.max_expansions, d.fast_result);
      FlightPath path;
      path.found = d.fast_result.found;
      path.limited = d.fast_result.limited;
      path.length = d.fast_result.found ? double(d.fast_result.cells.size() - 1) : 0.0;
      path.cost = d.fast_result.nodes;
      path.expanded = d.fast_result.expanded;
      path.cells = d.fast_result.cells;
      pull(d, def, path);
      *out = std::move(path);
      return Status::Ok;
    }
    d.optimal.run(d.grid, start, goal, def.max_expansions, d.result);
    FlightPath path;
    path.found = d.result.found;
    path.limited = d.result.limited;
    path.length = d.result.length;
    path.cost = d.result.cost;
    path.expanded = d.result.expanded;
    path.cells = d.result.cells;
    pull(d, def, path);
    *out = std::move(path);
    return Status::Ok;
  });
  if (st != Status::Ok) return fail(error, msg, st);
  return Status::Ok;
}

}  // namespace voxnav
