#include "engine/world/registry.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace voxnav::detail {

namespace {
std::int16_t quantise(float f, bool up) {
  const float s = f * static_cast<float>(kHeightUnits);
  return static_cast<std::int16_t>(up ? std::ceil(s - 1e-3f) : std::floor(s + 1e-3f));
}
}  // namespace

BlockRegistry::BlockRegistry() { clear(); }

void BlockRegistry::clear() {
  types_.clear();
  qboxes_.clear();
  by_name_.clear();
  add(BlockType{"air", {}, 0, 0});
  BlockType unknown{"voxnav:unknown", {Box{{0, 0, 0}, {1, 1, 1}}}, kTraitFallback, 0};
  fallback_ = add(std::move(unknown));
}

std::uint16_t BlockRegistry::add(BlockType t) {
  std::vector<QBox> q;
  for (Box& b : t.boxes) {
    for (int a = 0; a < 3; ++a) {
      const float hi = a == 1 ? 1.5f : 1.0f;
      b.min[a] = std::clamp(b.min[a], 0.0f, hi);
      b.max[a] = std::clamp(b.max[a], b.min[a], hi);
    }
    QBox qb;
    for (int a = 0; a < 3; ++a) {
      qb.min[a] = quantise(b.min[a], false);
      qb.max[a] = quantise(b.max[a], true);
    }
    if (qb.max[0] > qb.min[0] && qb.max[1] > qb.min[1] && qb.max[2] > qb.min[2]) q.push_back(qb);
  }
  const auto v = static_cast<std::uint16_t>(types_.size());
  by_name_.emplace(t.name, v);  // first entry of a name wins (the default state is added first)
  types_.push_back(std::move(t));
  qboxes_.push_back(std::move(q));
  return v;
}

std::uint16_t BlockRegistry::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? fallback_ : it->second;
}

bool BlockRegistry::has(std::string_view name) const {
  return by_name_.count(std::string(name)) != 0;
}

int BlockRegistry::top_in_footprint(std::uint16_t v, int half_width_q) const {
  const int lo = kHeightUnits / 2 - half_width_q, hi = kHeightUnits / 2 + half_width_q;
  int top = -1;
  for (const QBox& b : qboxes_[v]) {
    if (b.max[0] <= lo || b.min[0] >= hi || b.max[2] <= lo || b.min[2] >= hi) continue;
    top = std::max<int>(top, b.max[1]);
  }
  return top;
}

bool BlockRegistry::top_spans_cell(std::uint16_t v, int top_q, int margin_q) const {
  const int hi = kHeightUnits - margin_q;
  for (const QBox& b : qboxes_[v])
    if (b.max[1] == top_q && b.min[0] <= margin_q && b.max[0] >= hi && b.min[2] <= margin_q &&
        b.max[2] >= hi)
      return true;
  return false;
}

int BlockRegistry::side_walls(std::uint16_t v, int half_width_q, int lo_q, int hi_q) const {
  const int lo = kHeightUnits / 2 - half_width_q, hi = kHeightUnits / 2 + half_width_q;
  int out = 0;
  for (const QBox& b : qboxes_[v]) {
    if (b.max[1] <= lo_q || b.min[1] >= hi_q) continue;
    const bool x_band = b.max[2] > lo && b.min[2] < hi, z_band = b.max[0] > lo && b.min[0] < hi;
    if (x_band && b.min[0] >= hi) out |= 1;
    if (x_band && b.max[0] <= lo) out |= 4;
    if (z_band && b.min[2] >= hi) out |= 2;
    if (z_band && b.max[2] <= lo) out |= 8;
  }
  return out;
}

int BlockRegistry::tread_in_footprint(std::uint16_t v, int dir, int half_width_q,
                                      int step_q) const {
  const int lo = kHeightUnits / 2 - half_width_q, hi = kHeightUnits / 2 + half_width_q;
  const int along = dir == 0 || dir == 2 ? 0 : 2, side = 2 - along;
  const bool back = dir >= 2;  // moving toward -x or -z: the cell's high side is met first
  // (depth at which the front edge meets a box, its top) for the boxes in the band that the
  // footprint reaches, by depth.
  constexpr int kMaxMet = 16;
  std::pair<int, int> met[kMaxMet];
  int n = 0, top = -1;
  for (const QBox& b : qboxes_[v]) {
    if (b.max[side] <= lo || b.min[side] >= hi) continue;
    const int depth = back ? kHeightUnits - b.max[along] : b.min[along];
    if (depth >= hi) continue;  // beyond the body's front edge at the centre
    top = std::max<int>(top, b.max[1]);
    if (n < kMaxMet) met[n] = {depth, b.max[1]};
    ++n;
  }
  if (n > kMaxMet) return top;  // (no block shape has that many boxes: no tread)
  if (n == 0) return -1;
  std::sort(met, met + n);
  // The heights the body stands at in turn (the running maximum of the tops met), then the lowest
  // of them from which the rest rise by at most a step each.
  int heights[kMaxMet], depths[kMaxMet];
  int k = 0;
  for (int j = 0; j < n; ++j) {
    if (k > 0 && met[j].second <= heights[k - 1]) continue;
    if (k > 0 && met[j].first == depths[k - 1]) {
      heights[k - 1] = met[j].second;  // met at the same depth: one height, the highest
    } else {
      depths[k] = met[j].first;
      heights[k++] = met[j].second;
    }
  }
  int first = k - 1;
  while (first > 0 && heights[first] - heights[first - 1] <= step_q) --first;
  return heights[first];
}

int BlockRegistry::ceiling_in_footprint(std::uint16_t v, int half_width_q, int above_q) const {
  const int lo = kHeightUnits / 2 - half_width_q, hi = kHeightUnits / 2 + half_width_q;
  int ceil = kHeightUnits * 2;
  for (const QBox& b : qboxes_[v]) {
    if (b.max[0] <= lo || b.min[0] >= hi || b.max[2] <= lo || b.min[2] >= hi) continue;
    if (b.max[1] <= above_q) continue;  // entirely below the feet
    ceil = std::min<int>(ceil, std::max<int>(b.min[1], above_q));
  }
  return ceil;
}

}  // namespace voxnav::detail

// ---- registries defined by a game (voxnav/registry.h) ----

namespace voxnav::detail {

std::string block_box_error(const BlockBox& b) {
  const float mins[3] = {b.min_x, b.min_y, b.min_z}, maxs[3] = {b.max_x, b.max_y, b.max_z};
  static constexpr const char* kAxis[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const float hi = a == 1 ? kMaxBlockBoxTop : 1.0f;
    if (!std::isfinite(mins[a]) || !std::isfinite(maxs[a]))
      return std::string("a ") + kAxis[a] + " bound is not a finite number";
    if (mins[a] < 0 || maxs[a] > hi || mins[a] > maxs[a])
      return std::string(kAxis[a]) + " runs " + std::to_string(mins[a]) + ".." +
             std::to_string(maxs[a]) + ", outside 0.." + (a == 1 ? "1.5" : "1") +
             " or min above max";
  }
  return {};
}

std::string cut_shape_overhang(BlockBox& b, bool& empty) {
  empty = false;
  float* mins[3] = {&b.min_x, &b.min_y, &b.min_z};
  float* maxs[3] = {&b.max_x, &b.max_y, &b.max_z};
  BlockBox cut = b;
  float* cmins[3] = {&cut.min_x, &cut.min_y, &cut.min_z};
  float* cmaxs[3] = {&cut.max_x, &cut.max_y, &cut.max_z};
  for (int a = 0; a < 3; ++a) {
    const float lo = *mins[a], hi = *maxs[a], top = a == 1 ? kMaxBlockBoxTop : 1.0f;
    // Only a finite box, min <= max, reaching out by kMaxShapeOverhang at most is cut; anything
    // else is left for block_box_error to refuse.
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) return block_box_error(b);
    if (lo < 0 && lo >= -kMaxShapeOverhang) *cmins[a] = 0;
    if (hi > top && hi <= top + kMaxShapeOverhang) *cmaxs[a] = top;
    if (*cmaxs[a] < *cmins[a]) empty = true;  // wholly in the neighbour's space
  }
  if (empty) return {};
  if (std::string why = block_box_error(cut); !why.empty()) return block_box_error(b);
  b = cut;
  return {};
}

namespace {

std::uint32_t bits_of(const BlockTraits& t) {
  std::uint32_t b = 0;
  if (t.door != BlockDoor::None) b |= kTraitDoor;
  if (t.door == BlockDoor::Open) b |= kTraitDoorOpen;
  if (t.climbable) b |= kTraitClimbable;
  if (t.hazard == BlockHazard::Fire) b |= kTraitHazardFire;
  if (t.hazard == BlockHazard::Other) b |= kTraitHazardOther;
  if (t.slow) b |= kTraitSlow;
  if (t.fluid == BlockFluid::Swimmable) b |= kTraitFluidSwim;
  if (t.fluid == BlockFluid::Harmful) b |= kTraitFluidHarm;
  return b;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// "blocks[3] 'door_open'" (a registry being installed) or "value 3 'door_open'" (an installed
// one): how errors name a block.
std::string label(bool installed, std::size_t v, const std::string& name) {
  std::string out = installed ? "value " : "blocks[";
  out += std::to_string(v);
  out += installed ? " '" : "] '";
  out += name;
  out += '\'';
  return out;
}

std::string check_box(const BlockBox& b) { return block_box_error(b); }

// The traits of one value alone (enums, a toggle only on doors).
std::string check_traits(const BlockTraits& t, std::size_t count) {
  if (static_cast<int>(t.door) > 2) return "door: not none, closed or open";
  if (static_cast<int>(t.hazard) > 2) return "hazard: not none, fire or other";
  if (static_cast<int>(t.fluid) > 2) return "fluid: not none, swimmable or harmful";
  if (t.door == BlockDoor::None && (t.door_toggle != kNoBlockValue || !t.door_toggle_name.empty()))
    return "door.toggle: given for a block that is not a door";
  if (t.door_toggle != kNoBlockValue && t.door_toggle >= count)
    return "door.toggle: value " + std::to_string(t.door_toggle) + " is not in the registry (" +
           std::to_string(count) + " values)";
  return {};
}

// A door's toggle against the registry: another value, a door of the other state.
std::string check_toggle(std::size_t v, std::uint32_t own_bits, std::uint16_t toggle,
                         const std::vector<BlockType>& types) {
  if (!(own_bits & kTraitDoor) || toggle == kNoBlockValue) return {};
  const std::string target = "door.toggle " + quoted(types[toggle].name);
  if (toggle == v) return "door.toggle: a door cannot toggle to itself";
  if (!(types[toggle].traits & kTraitDoor)) return target + " is not a door";
  if ((types[toggle].traits & kTraitDoorOpen) == (own_bits & kTraitDoorOpen))
    return target + " is a door of the same state (a toggle opens or closes)";
  return {};
}

// Resolves a toggle given by name: the first value of that name.
template <class Find>
std::string resolve_toggle(const BlockTraits& t, Find&& find, std::uint16_t* out) {
  *out = t.door_toggle;
  if (t.door_toggle_name.empty()) return {};
  const std::uint16_t v = find(t.door_toggle_name);
  if (v == kNoBlockValue) return "door.toggle " + quoted(t.door_toggle_name) + " is not a block";
  if (t.door_toggle != kNoBlockValue && t.door_toggle != v)
    return "door.toggle: value " + std::to_string(t.door_toggle) + " and name " +
           quoted(t.door_toggle_name) + " name different blocks";
  *out = v;
  return {};
}

}  // namespace

Status check_block_registry(const BlockRegistryDef& def, std::vector<std::uint16_t>* toggles,
                            std::string* error) {
  auto fail = [&](std::string m) {
    if (error) *error = std::move(m);
    return Status::InvalidArgument;
  };
  const std::size_t n = def.blocks.size();
  if (n == 0) return fail("blocks: a registry needs at least one block");
  if (n > kMaxBlockValues)
    return fail("blocks: " + std::to_string(n) + " blocks, more than " +
                std::to_string(kMaxBlockValues));
  if (def.fallback >= n)
    return fail("fallback: value " + std::to_string(def.fallback) + " is not in the registry");
  std::unordered_map<std::string, std::uint16_t> first;  // lookup only
  for (std::size_t v = 0; v < n; ++v) first.emplace(def.blocks[v].name, static_cast<std::uint16_t>(v));
  auto find = [&](const std::string& name) {
    auto it = first.find(name);
    return it == first.end() ? kNoBlockValue : it->second;
  };
  std::vector<BlockType> types(n);
  std::vector<std::uint16_t> tog(n, kNoBlockValue);
  for (std::size_t v = 0; v < n; ++v) {
    const BlockDef& b = def.blocks[v];
    const std::string who = label(false, v, b.name);
    if (b.name.empty() || b.name.size() > kMaxBlockNameLength)
      return fail("blocks[" + std::to_string(v) + "]: name: " + std::to_string(b.name.size()) +
                  " bytes, not 1.." + std::to_string(kMaxBlockNameLength));
    if (b.boxes.size() > kMaxBlockBoxes)
      return fail(who + ": boxes: " + std::to_string(b.boxes.size()) + " boxes, more than " +
                  std::to_string(kMaxBlockBoxes));
    for (std::size_t k = 0; k < b.boxes.size(); ++k)
      if (std::string why = check_box(b.boxes[k]); !why.empty())
        return fail(who + ": boxes[" + std::to_string(k) + "]: " + why);
    if (std::string why = check_traits(b.traits, n); !why.empty()) return fail(who + ": " + why);
    if (std::string why = resolve_toggle(b.traits, find, &tog[v]); !why.empty())
      return fail(who + ": " + why);
    types[v].name = b.name;
    types[v].traits = bits_of(b.traits);
  }
  for (std::size_t v = 0; v < n; ++v)
    if (std::string why = check_toggle(v, types[v].traits, tog[v], types); !why.empty())
      return fail(label(false, v, types[v].name) + ": " + why);
  if (toggles) *toggles = std::move(tog);
  return Status::Ok;
}

Status BlockRegistry::install(const BlockRegistryDef& def, std::string* error) {
  std::vector<std::uint16_t> toggles;
  if (const Status st = check_block_registry(def, &toggles, error); st != Status::Ok) return st;
  types_.clear();
  qboxes_.clear();
  by_name_.clear();
  for (std::size_t v = 0; v < def.blocks.size(); ++v) {
    const BlockDef& b = def.blocks[v];
    BlockType t;
    t.name = b.name;
    t.boxes.reserve(b.boxes.size());
    for (const BlockBox& x : b.boxes)
      t.boxes.push_back(Box{{x.min_x, x.min_y, x.min_z}, {x.max_x, x.max_y, x.max_z}});
    t.traits = bits_of(b.traits);
    // Doors keep their toggle (kNoBlockValue: none, never a valid value); other blocks 0.
    t.open_value = (t.traits & kTraitDoor) ? toggles[v] : 0;
    // The fallback is marked (as the default registry's "voxnav:unknown" is) unless it is value
    // 0, which a game's registry conventionally makes air.
    if (v == def.fallback && v != 0) t.traits |= kTraitFallback;
    add(std::move(t));
  }
  fallback_ = def.fallback;
  if (error) error->clear();
  return Status::Ok;
}

Status BlockRegistry::set_traits(std::span<const BlockTraitsChange> changes, std::string* error) {
  auto fail = [&](Status st, std::string m) {
    if (error) *error = std::move(m);
    return st;
  };
  // Apply to copies of the traits and toggles, check every door, then commit.
  std::vector<BlockType> after(types_.size());
  for (std::size_t v = 0; v < types_.size(); ++v) {
    after[v].name = types_[v].name;
    after[v].traits = types_[v].traits;
    after[v].open_value = types_[v].open_value;
  }
  auto find = [&](const std::string& name) {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? kNoBlockValue : it->second;
  };
  for (std::size_t k = 0; k < changes.size(); ++k) {
    const BlockTraitsChange& c = changes[k];
    if (c.value >= types_.size())
      return fail(Status::OutOfRange, "value " + std::to_string(c.value) +
                                          " is not in the registry (" +
                                          std::to_string(types_.size()) + " values)");
    const std::string who = label(true, c.value, types_[c.value].name);
    if (std::string why = check_traits(c.traits, types_.size()); !why.empty())
      return fail(Status::InvalidArgument, who + ": " + why);
    std::uint16_t toggle = kNoBlockValue;
    if (std::string why = resolve_toggle(c.traits, find, &toggle); !why.empty())
      return fail(Status::InvalidArgument, who + ": " + why);
    BlockType& t = after[c.value];
    t.traits = bits_of(c.traits) | (types_[c.value].traits & kTraitFallback);
    t.open_value = (t.traits & kTraitDoor) ? toggle : 0;
  }
  for (std::size_t v = 0; v < after.size(); ++v)
    if (after[v].traits & kTraitDoor)
      if (std::string why = check_toggle(v, after[v].traits, after[v].open_value, after);
          !why.empty())
        return fail(Status::InvalidArgument, label(true, v, after[v].name) + ": " + why);
  for (std::size_t v = 0; v < after.size(); ++v) {
    types_[v].traits = after[v].traits;
    types_[v].open_value = after[v].open_value;
  }
  if (error) error->clear();
  return Status::Ok;
}

BlockDef BlockRegistry::def(std::uint16_t v) const {
  BlockDef d;
  const BlockType& t = types_[v];
  d.name = t.name;
  for (const Box& b : t.boxes)
    d.boxes.push_back(BlockBox{b.min[0], b.min[1], b.min[2], b.max[0], b.max[1], b.max[2]});
  BlockTraits& r = d.traits;
  if (t.traits & kTraitDoor) {
    r.door = (t.traits & kTraitDoorOpen) ? BlockDoor::Open : BlockDoor::Closed;
    if (valid(t.open_value)) {
      r.door_toggle = t.open_value;
      // The name too when it finds that value (Minecraft's states share their block's name).
      if (find(types_[t.open_value].name) == t.open_value)
        r.door_toggle_name = types_[t.open_value].name;
    }
  }
  r.climbable = (t.traits & kTraitClimbable) != 0;
  r.hazard = (t.traits & kTraitHazardFire)    ? BlockHazard::Fire
             : (t.traits & kTraitHazardOther) ? BlockHazard::Other
                                              : BlockHazard::None;
  r.slow = (t.traits & kTraitSlow) != 0;
  r.fluid = (t.traits & kTraitFluidSwim)   ? BlockFluid::Swimmable
            : (t.traits & kTraitFluidHarm) ? BlockFluid::Harmful
                                           : BlockFluid::None;
  return d;
}

}  // namespace voxnav::detail
