#include "engine/world/registry.h"

#include <algorithm>
#include <cmath>

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
