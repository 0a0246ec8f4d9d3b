// voxnav/queries.h: argument checks and conversion; the work is engine/query/cell_filter.
#include "voxnav/queries.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "api_text.h"
#include "engine/nav/world_access.h"
#include "engine/flow/flow_moves.h"
#include "engine/query/cell_filter.h"
#include "voxnav/world.h"

namespace voxnav {

namespace {

using detail::fail;

bool cells_finite3(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
}  // namespace

namespace {
/// The navigation of a walker-side profile (not a flyer) for the cell queries.
Status cell_query_profile(const detail::WorldState& ws, ProfileId profile, const char* fn,
                          CallError* error, detail::NavWorld** nav, const detail::AgentMotion** m) {
  if (!ws.has_profile(profile))
    return fail(error, fn, "profile", detail::profile_error(profile, ws.profiles.size()),
                Status::InvalidArgument);
  const MovementClass c = ws.profiles[profile.index].movement_class;
  *nav = ws.nav_of(c);
  if (c == MovementClass::Flyer || !*nav)
    return fail(error, fn, "profile",
                "profile " + std::to_string(profile.index) + " (" + ws.profiles[profile.index].id +
                    ") is a flyer: it has no standable cells",
                Status::Unsupported);
  *m = &ws.agents.motion(ws.profile_motion[profile.index]);
  return Status::Ok;
}

/// Checks a CellFilter and compiles it for the engine.
Status filter_spec(const CellFilter& f, const detail::AgentMotion& m, const char* fn,
                   CallError* error, detail::CellFilterSpec* spec) {
  if (f.min_headroom < 0 || f.min_headroom > kMaxFilterHeadroom)
    return fail(error, fn, "filter.min_headroom",
                "filter.min_headroom " + std::to_string(f.min_headroom) +
                    " is not an integer in 0 .. " + std::to_string(kMaxFilterHeadroom),
                Status::InvalidArgument);
  if (f.hazard_distance < 0 || f.hazard_distance > kMaxFilterHazardDistance)
    return fail(error, fn, "filter.hazard_distance",
                "filter.hazard_distance " + std::to_string(f.hazard_distance) +
                    " is not an integer in 0 .. " + std::to_string(kMaxFilterHazardDistance),
                Status::InvalidArgument);
  if (!std::isfinite(f.min_distance) || f.min_distance < 0.0 || f.min_distance > kMaxFilterDistance)
    return fail(error, fn, "filter.min_distance",
                "filter.min_distance " + detail::num(f.min_distance) + " is not a number in 0 .. " +
                    detail::num(kMaxFilterDistance),
                Status::InvalidArgument);
  if (f.avoid.size() > kMaxFilterPoints)
    return fail(error, fn, "filter.avoid",
                "filter.avoid lists " + std::to_string(f.avoid.size()) + " points, more than " +
                    std::to_string(kMaxFilterPoints),
                Status::InvalidArgument);
  if (!f.avoid.empty() && f.avoid.data() == nullptr)
    return fail(error, fn, "filter.avoid", "filter.avoid has points but a null data pointer",
                Status::InvalidArgument);
  for (std::size_t i = 0; i < f.avoid.size(); ++i)
    if (!cells_finite3(f.avoid[i])) {
      const std::string what = "filter.avoid[" + std::to_string(i) + "]";
      return fail(error, fn, what, what + " " + detail::vec_text(f.avoid[i]) + " is not finite",
                  Status::InvalidArgument);
    }
  const auto reach = static_cast<unsigned>(f.reach);
  if (reach > static_cast<unsigned>(CellReach::Both))
    return fail(error, fn, "filter.reach",
                "filter.reach " + std::to_string(reach) + " is not a CellReach (0 .. 3)",
                Status::InvalidArgument);
  if (f.reach != CellReach::Any)
    if (const std::string e = detail::cell_range_error("filter.reach_cell", f.reach_cell);
        !e.empty())
      return fail(error, fn, "filter.reach_cell", e, Status::OutOfRange);
  spec->min_headroom = f.min_headroom;
  spec->hazard_distance = f.hazard_distance;
  spec->exclude_fluids = f.exclude_fluids;
  spec->avoid = f.avoid.data();
  spec->avoid_count = f.avoid.size();
  spec->min_distance = f.min_distance;
  spec->reach_from = f.reach == CellReach::From || f.reach == CellReach::Both;
  spec->reach_to = f.reach == CellReach::To || f.reach == CellReach::Both;
  spec->reach_cell = f.reach_cell;
  spec->gates = m.costs.gates();
  spec->restricted = m.costs.restricts_class;
  spec->reject = f.reject ? &f.reject : nullptr;
  return Status::Ok;
}
}  // namespace

Status find_spawn_cells(const World& world, ProfileId profile, CellPos min, CellPos max,
                        const CellFilter& filter, std::uint64_t seed, CellPos* out,
                        std::size_t max_cells, std::size_t* count, CallError* error) {
  const char* fn = "find_spawn_cells";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  if (!count) return fail(error, fn, "count", "count is null", Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  detail::NavWorld* nav = nullptr;
  const detail::AgentMotion* m = nullptr;
  if (const Status st = cell_query_profile(ws, profile, fn, error, &nav, &m); st != Status::Ok)
    return st;
  if (const std::string e = detail::cell_range_error("min", min); !e.empty())
    return fail(error, fn, "min", e, Status::OutOfRange);
  if (const std::string e = detail::cell_range_error("max", max); !e.empty())
    return fail(error, fn, "max", e, Status::OutOfRange);
  if (max.x < min.x || max.y < min.y || max.z < min.z)
    return fail(
        error, fn, "max",
        "max " + detail::cell_text(max) + " is below min " + detail::cell_text(min) + " on an axis",
        Status::InvalidArgument);
  const std::int64_t volume = (std::int64_t{max.x} - min.x + 1) *
                              (std::int64_t{max.y} - min.y + 1) * (std::int64_t{max.z} - min.z + 1);
  if (volume > kMaxSpawnBoxCells)
    return fail(error, fn, "max",
                "the box " + detail::cell_text(min) + " .. " + detail::cell_text(max) + " holds " +
                    std::to_string(volume) + " cells, more than kMaxSpawnBoxCells (" +
                    std::to_string(kMaxSpawnBoxCells) + ")",
                Status::InvalidArgument);
  if (max_cells < 1 || max_cells > kMaxSpawnCells)
    return fail(error, fn, "max_cells",
                "max_cells " + std::to_string(max_cells) + " is not in 1 .. " +
                    std::to_string(kMaxSpawnCells),
                Status::InvalidArgument);
  detail::CellFilterSpec spec;
  if (const Status st = filter_spec(filter, *m, fn, error, &spec); st != Status::Ok) return st;
  *count = detail::find_spawn_cells(*nav, spec, min, max, seed, out, max_cells);
  return Status::Ok;
}

Status nearest_standable(const World& world, ProfileId profile, CellPos near, int radius,
                         const CellFilter& filter, CellPos* out, CallError* error) {
  const char* fn = "nearest_standable";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  detail::NavWorld* nav = nullptr;
  const detail::AgentMotion* m = nullptr;
  if (const Status st = cell_query_profile(ws, profile, fn, error, &nav, &m); st != Status::Ok)
    return st;
  if (const std::string e = detail::cell_range_error("near", near); !e.empty())
    return fail(error, fn, "near", e, Status::OutOfRange);
  if (radius < 0 || radius > kMaxNearestRadius)
    return fail(error, fn, "radius",
                "radius " + std::to_string(radius) + " is not an integer in 0 .. " +
                    std::to_string(kMaxNearestRadius),
                Status::InvalidArgument);
  detail::CellFilterSpec spec;
  if (const Status st = filter_spec(filter, *m, fn, error, &spec); st != Status::Ok) return st;
  CellPos found;
  if (!detail::nearest_filtered(*nav, spec, near, radius, &found)) {
    if (error != nullptr)
      *error = CallError{Status::NotFound, fn, "near",
                         "no standable cell passing the filter within " + std::to_string(radius) +
                             " cells of " + detail::cell_text(near)};
    return Status::NotFound;
  }
  *out = found;
  return Status::Ok;
}

Status cell_moves(const World& world, ProfileId profile, CellPos from, CellMove* out,
                  std::size_t capacity, std::size_t* count, CallError* error) {
  const char* fn = "cell_moves";
  if (!out) return fail(error, fn, "out", "out is null", Status::InvalidArgument);
  if (!count) return fail(error, fn, "count", "count is null", Status::InvalidArgument);
  if (capacity < kMaxCellMoves)
    return fail(error, fn, "capacity",
                "capacity " + std::to_string(capacity) + " is below kMaxCellMoves (" +
                    std::to_string(kMaxCellMoves) + ")",
                Status::InvalidArgument);
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  detail::NavWorld* nav = nullptr;
  const detail::AgentMotion* m = nullptr;
  if (const Status st = cell_query_profile(ws, profile, fn, error, &nav, &m); st != Status::Ok)
    return st;
  if (const std::string e = detail::cell_range_error("from", from); !e.empty())
    return fail(error, fn, "from", e, Status::OutOfRange);
  std::size_t n = 0;
  detail::NavChunk* ch = nav->grid().chunk(detail::chunk_of(from));
  const int i = detail::index_in_chunk(from);
  if (ch && !ch->uniform && detail::kind_node(ch->kind_at(i))) {
    const detail::MoveCosts moves(nav->grid(), m->costs);
    moves.for_each(ch, i, [&](detail::NavChunk*, int, int dx, int dy, int dz, std::uint32_t cost,
                              EdgeKind kind) {
      if (n < kMaxCellMoves) out[n++] = {{from.x + dx, from.y + dy, from.z + dz}, kind, cost};
    });
  }
  *count = n;
  return Status::Ok;
}

}  // namespace voxnav
