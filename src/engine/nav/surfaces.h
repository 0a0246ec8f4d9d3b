// Surface groups: block values sorted by the set of surface masks (named areas, profiles' surface
// malus entries) they belong to, so a chunk stores one byte per cell and a search one cost per
// group.
#pragma once
#include <array>
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/world/registry.h"
#include "voxnav/status.h"

namespace voxnav::detail {

/// The most surface groups a world holds (group 0 is "no mask").
inline constexpr std::size_t kMaxSurfaceGroups = 255;

/// Groups of block values: group_of_value[v] (0: the value is in no mask) and, per group, the
/// masks its values are in (sorted).
struct SurfaceGroups {
  std::shared_ptr<const std::vector<std::uint8_t>> group_of_value;
  std::vector<std::vector<std::uint32_t>> masks_of_group;
};

/// Every value of the registry whose block name (any state) is one of `names` (names without a
/// "minecraft:" prefix; unknown names are skipped), sorted.
std::vector<std::uint16_t> values_named(const BlockRegistry& reg,
                                        const std::vector<std::string>& names);

/// Sorts the registry's values into groups by the masks (sorted value lists) that hold them.
/// Groups are numbered in order of their lowest value, so the result depends only on the masks.
/// OutOfRange when more than kMaxSurfaceGroups groups would be needed.
Status build_surface_groups(std::size_t value_count,
                            const std::vector<std::vector<std::uint16_t>>& masks,
                            SurfaceGroups& out);

/// A cost per group: the sum of `mask_cost[m]` over the group's masks, clamped to -6000 ..
/// kMaxSurfaceCost (kSurfaceExcluded if one of them is excluded, see CostTable), with the lowest
/// entry in `min`. Null when every entry is 0.
std::shared_ptr<const std::array<std::int32_t, 256>> group_costs(
    const SurfaceGroups& g, const std::vector<std::int64_t>& mask_cost, std::int32_t* min);

/// The highest surface cost of a group (10,000 cells of walking): sums above it are clamped, so a
/// move never costs more than AStar::kMaxMoveCost.
inline constexpr std::int64_t kMaxSurfaceCost = 100000000;
/// A mask cost (group_costs) for an area the request excludes.
inline constexpr std::int64_t kMaskExcluded = INT64_MIN;

}  // namespace voxnav::detail
