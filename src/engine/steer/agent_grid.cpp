#include "engine/steer/agent_grid.h"

#include <algorithm>
#include <cmath>

namespace voxnav::detail {

void AgentGrid::clear(std::size_t slots) {
  bodies_.clear();
  of_slot_.assign(slots, kNone);
  max_radius_ = 0;
  max_orca_radius_ = 0;
}

void AgentGrid::build(int min_shift) {
  const std::size_t n = bodies_.size();
  if (n == 0) {
    width_ = depth_ = 0;
    start_.assign(1, 0);
    packed_.clear();
    return;
  }
  std::int64_t x0 = 0, x1 = 0, z0 = 0, z1 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const GridBody& b = bodies_[i];
    const auto cx = static_cast<std::int64_t>(std::floor(b.x));
    const auto cz = static_cast<std::int64_t>(std::floor(b.z));
    if (i == 0 || cx < x0) x0 = cx;
    if (i == 0 || cx > x1) x1 = cx;
    if (i == 0 || cz < z0) z0 = cz;
    if (i == 0 || cz > z1) z1 = cz;
    max_radius_ = std::max(max_radius_, b.radius);
    max_orca_radius_ = std::max(max_orca_radius_, b.orca_radius);
  }
  // Buckets of 1 << min_shift cells, wider when the bodies are spread so far that the buckets
  // would outnumber max(2^18, 8 n): the table stays proportional to the crowd wherever it stands
  // (a region of 512 x 512 cells keeps one-cell buckets).
  const std::int64_t cap =
      std::max<std::int64_t>(std::int64_t{1} << 18, 8 * static_cast<std::int64_t>(n));
  shift_ = min_shift;
  while ((((x1 - x0) >> shift_) + 1) * (((z1 - z0) >> shift_) + 1) > cap) ++shift_;
  min_x_ = x0;
  min_z_ = z0;
  width_ = ((x1 - x0) >> shift_) + 1;
  depth_ = ((z1 - z0) >> shift_) + 1;
  const auto buckets = static_cast<std::size_t>(width_ * depth_);
  start_.assign(buckets + 1, 0);
  bucket_of_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const GridBody& b = bodies_[i];
    const std::int64_t bx = (static_cast<std::int64_t>(std::floor(b.x)) - x0) >> shift_;
    const std::int64_t bz = (static_cast<std::int64_t>(std::floor(b.z)) - z0) >> shift_;
    const auto k = static_cast<std::uint32_t>(bx + width_ * bz);
    bucket_of_[i] = k;
    ++start_[k + 1];
  }
  for (std::size_t k = 0; k < buckets; ++k) start_[k + 1] += start_[k];
  packed_.resize(n);
  // Bodies were added in slot order, so each bucket lists its bodies by slot. start_[k] is used
  // as the fill cursor of bucket k and ends as the start of bucket k + 1: shifted back after.
  for (std::size_t i = 0; i < n; ++i) {
    const GridBody& b = bodies_[i];
    packed_[start_[bucket_of_[i]]++] =
        Packed{b.x, b.z, b.y, b.y + b.height, static_cast<std::uint32_t>(i), b.slot};
  }
  for (std::size_t k = buckets; k > 0; --k) start_[k] = start_[k - 1];
  start_[0] = 0;
}

int AgentGrid::nearest(std::uint32_t self, double range, int k, GridHit* out) const {
  if (k <= 0 || width_ == 0) return 0;
  const GridBody& me = bodies_[self];
  const double r2 = range * range;
  const std::int64_t side = std::int64_t{1} << shift_;
  const std::int64_t bx = (static_cast<std::int64_t>(std::floor(me.x)) - min_x_) >> shift_;
  const std::int64_t bz = (static_cast<std::int64_t>(std::floor(me.z)) - min_z_) >> shift_;
  const double top = me.y + me.height;
  const std::uint32_t self_slot = me.slot;
  int n = 0;
  auto consider = [&](std::int64_t cx, std::int64_t cz) {
    if (cx < 0 || cz < 0 || cx >= width_ || cz >= depth_) return;
    const auto key = static_cast<std::size_t>(cx + width_ * cz);
    if (start_[key] == start_[key + 1]) return;
    // Skip a bucket whose nearest point is out of range or farther than the k-th hit.
    const double lx = static_cast<double>(min_x_ + cx * side),
                 lz = static_cast<double>(min_z_ + cz * side);
    const double ex = std::max(0.0, std::max(lx - me.x, me.x - (lx + static_cast<double>(side))));
    const double ez = std::max(0.0, std::max(lz - me.z, me.z - (lz + static_cast<double>(side))));
    const double e2 = ex * ex + ez * ez;
    if (!(e2 < r2) || (n == k && e2 > out[k - 1].d2)) return;
    const Packed* p = packed_.data() + start_[key];
    const Packed* end = packed_.data() + start_[key + 1];
    for (; p != end; ++p) {
      const double dx = p->x - me.x, dz = p->z - me.z;
      const double d2 = dx * dx + dz * dz;
      if (!(d2 < r2) || p->slot == self_slot) continue;
      if (!(p->y < top && me.y < p->top)) continue;  // other levels
      // Insert keeping (d2, slot) order; the farthest drops out when k are held.
      if (n == k) {
        const GridHit& last = out[k - 1];
        if (d2 > last.d2 || (d2 == last.d2 && p->slot > last.slot)) continue;
        --n;
      }
      int at = n;
      while (at > 0) {
        const GridHit& prev = out[at - 1];
        if (prev.d2 < d2 || (prev.d2 == d2 && prev.slot < p->slot)) break;
        out[at] = prev;
        --at;
      }
      out[at] = GridHit{d2, p->body, p->slot};
      ++n;
    }
  };
  for (std::int64_t r = 0;; ++r) {
    for (std::int64_t cz = bz - r; cz <= bz + r; ++cz) {
      if (cz < 0 || cz >= depth_) continue;
      if (cz == bz - r || cz == bz + r) {
        for (std::int64_t cx = bx - r; cx <= bx + r; ++cx) consider(cx, cz);
      } else {
        consider(bx - r, cz);
        if (r > 0) consider(bx + r, cz);
      }
    }
    // Every body not seen yet lies outside the square of buckets visited: at least `bound` away.
    const double lo_x = me.x - static_cast<double>(min_x_ + (bx - r) * side);
    const double hi_x = static_cast<double>(min_x_ + (bx + r + 1) * side) - me.x;
    const double lo_z = me.z - static_cast<double>(min_z_ + (bz - r) * side);
    const double hi_z = static_cast<double>(min_z_ + (bz + r + 1) * side) - me.z;
    const double bound = std::min(std::min(lo_x, hi_x), std::min(lo_z, hi_z));
    const bool covered = bx - r <= 0 && bz - r <= 0 && bx + r >= width_ - 1 && bz + r >= depth_ - 1;
    if (covered || bound >= range) break;
    if (n == k && out[k - 1].d2 < bound * bound) break;
  }
  return n;
}

}  // namespace voxnav::detail
