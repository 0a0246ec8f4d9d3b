#include "engine/follow/corridor_index.h"

#include <algorithm>

namespace voxnav::detail {

void CorridorIndex::assign(std::uint32_t agent, std::vector<std::uint64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (of_agent_.size() <= agent) of_agent_.resize(agent + 1);
  std::vector<std::uint64_t>& old = of_agent_[agent];
  // Leave bricks no longer passed, join new ones (both lists sorted).
  std::size_t i = 0, j = 0;
  while (i < old.size() || j < keys.size()) {
    if (j == keys.size() || (i < old.size() && old[i] < keys[j])) {
      auto it = bricks_.find(old[i]);
      if (it != bricks_.end()) {
        std::vector<std::uint32_t>& v = it->second;
        v.erase(std::remove(v.begin(), v.end(), agent), v.end());
        if (v.empty()) bricks_.erase(it);
      }
      ++i;
    } else if (i == old.size() || keys[j] < old[i]) {
      bricks_[keys[j]].push_back(agent);
      ++j;
    } else {
      ++i;
      ++j;
    }
  }
  old.assign(keys.begin(), keys.end());
}

void CorridorIndex::set(std::uint32_t agent, const Corridor& c, std::size_t from) {
  std::vector<std::uint64_t>& keys = scratch_;
  keys.clear();
  // Consecutive path cells mostly share a brick: keep a key only when it differs from the last,
  // so the sort in assign() sees a few keys per brick crossed instead of one per cell.
  auto add = [&](std::uint64_t key) {
    if (keys.empty() || keys.back() != key) keys.push_back(key);
  };
  for (std::size_t i = from; i < c.cells.size(); ++i)
    add(brick_key(c.cells[i].x >> 2, c.cells[i].y >> 2, c.cells[i].z >> 2));
  for (std::size_t k = 1; k < c.points.size(); ++k) {
    const CellPos& a = c.points[k - 1].cell;
    const CellPos& b = c.points[k].cell;
    if (c.points[k].kind == EdgeKind::Fly) {
      // A flyer's straight segment: the box its feet cells span, the body's height above.
      for (int by = std::min(a.y, b.y) >> 2; by <= (std::max(a.y, b.y) + 1) >> 2; ++by)
        for (int bz = std::min(a.z, b.z) >> 2; bz <= std::max(a.z, b.z) >> 2; ++bz)
          for (int bx = std::min(a.x, b.x) >> 2; bx <= std::max(a.x, b.x) >> 2; ++bx)
            add(brick_key(bx, by, bz));
      continue;
    }
    if (c.points[k].kind != EdgeKind::Walk || a.y != b.y) continue;
    for (int bz = std::min(a.z, b.z) >> 2; bz <= std::max(a.z, b.z) >> 2; ++bz)
      for (int bx = std::min(a.x, b.x) >> 2; bx <= std::max(a.x, b.x) >> 2; ++bx)
        add(brick_key(bx, a.y >> 2, bz));
  }
  assign(agent, keys);
}

void CorridorIndex::set_cell(std::uint32_t agent, const CellPos& cell) {
  scratch_.assign(1, brick_key(cell.x >> 2, cell.y >> 2, cell.z >> 2));
  assign(agent, scratch_);
}

void CorridorIndex::clear(std::uint32_t agent) {
  scratch_.clear();
  assign(agent, scratch_);
}

void CorridorIndex::query(const CellPos& mn, const CellPos& mx, std::vector<std::uint32_t>& out) const {
  if (bricks_.empty()) return;
  for (int by = mn.y >> 2; by <= mx.y >> 2; ++by)
    for (int bz = mn.z >> 2; bz <= mx.z >> 2; ++bz)
      for (int bx = mn.x >> 2; bx <= mx.x >> 2; ++bx) {
        auto it = bricks_.find(brick_key(bx, by, bz));
        if (it != bricks_.end()) out.insert(out.end(), it->second.begin(), it->second.end());
      }
}

}  // namespace voxnav::detail
