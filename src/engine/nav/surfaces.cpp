#include "engine/nav/surfaces.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "engine/search/astar.h"

namespace voxnav::detail {

std::vector<std::uint16_t> values_named(const BlockRegistry& reg,
                                        const std::vector<std::string>& names) {
  std::unordered_set<std::string> want(names.begin(), names.end());  // lookup only
  std::vector<std::uint16_t> out;
  for (std::size_t v = 0; v < reg.size(); ++v)
    if (want.count(reg.type(static_cast<std::uint16_t>(v)).name))
      out.push_back(static_cast<std::uint16_t>(v));
  return out;  // ascending by construction
}

Status build_surface_groups(std::size_t value_count,
                            const std::vector<std::vector<std::uint16_t>>& masks,
                            SurfaceGroups& out) {
  // The masks of every value, then one group per distinct mask list (first seen = lowest value).
  std::vector<std::vector<std::uint32_t>> of_value(value_count);
  for (std::size_t m = 0; m < masks.size(); ++m)
    for (std::uint16_t v : masks[m])
      if (v < value_count) of_value[v].push_back(static_cast<std::uint32_t>(m));
  auto table = std::make_shared<std::vector<std::uint8_t>>(value_count, std::uint8_t(0));
  std::map<std::vector<std::uint32_t>, std::uint8_t> ids;  // ordered: deterministic
  std::vector<std::vector<std::uint32_t>> groups{{}};
  for (std::size_t v = 0; v < value_count; ++v) {
    if (of_value[v].empty()) continue;
    auto it = ids.find(of_value[v]);
    if (it == ids.end()) {
      if (groups.size() > kMaxSurfaceGroups) return Status::OutOfRange;
      it = ids.emplace(of_value[v], static_cast<std::uint8_t>(groups.size())).first;
      groups.push_back(of_value[v]);
    }
    (*table)[v] = it->second;
  }
  if (groups.size() == 1) table->clear();  // no value in any mask: no surface planes at all
  out.group_of_value = std::move(table);
  out.masks_of_group = std::move(groups);
  return Status::Ok;
}

std::shared_ptr<const std::array<std::int32_t, 256>> group_costs(
    const SurfaceGroups& g, const std::vector<std::int64_t>& mask_cost, std::int32_t* min) {
  auto costs = std::make_shared<std::array<std::int32_t, 256>>();
  costs->fill(0);
  bool any = false;
  std::int32_t lo = 0;
  for (std::size_t k = 1; k < g.masks_of_group.size(); ++k) {
    std::int64_t sum = 0;
    bool excluded = false;
    for (std::uint32_t m : g.masks_of_group[k]) {
      if (m >= mask_cost.size()) continue;
      if (mask_cost[m] == kMaskExcluded)
        excluded = true;
      else
        sum += mask_cost[m];
    }
    const std::int32_t c =
        excluded
            ? kSurfaceExcluded
            : static_cast<std::int32_t>(std::clamp<std::int64_t>(sum, -6000, kMaxSurfaceCost));
    (*costs)[k] = c;
    any |= c != 0;
    if (c < lo) lo = c;
  }
  if (min) *min = lo;
  if (!any) return nullptr;
  return costs;
}

}  // namespace voxnav::detail
