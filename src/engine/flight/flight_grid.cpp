#include "engine/flight/flight_grid.h"

#include <algorithm>

namespace voxnav::detail::flight {

void FlightGrid::reset(int sx, int sy, int sz) {
  sx_ = sx;
  sy_ = sy;
  sz_ = sz;
  nbx_ = (sx + 3) / 4;
  nby_ = (sy + 3) / 4;
  nbz_ = (sz + 3) / 4;
  pbx_ = nbx_ + 2;
  pby_ = nby_ + 2;
  pbz_ = nbz_ + 2;
  refs_.assign(std::size_t(pbx_) * pby_ * pbz_, kBlockedRef);
  refs_.shrink_to_fit();
  masks_.assign({std::uint64_t{0}, ~std::uint64_t{0}});
  hover_.clear();
  open_ = 0;
  blocked_ = 0;
}

std::uint64_t FlightGrid::in_bounds_mask(int bx, int by, int bz) const {
  const int nx = std::min(4, sx_ - 4 * bx), ny = std::min(4, sy_ - 4 * by), nz = std::min(4, sz_ - 4 * bz);
  if (nx == 4 && ny == 4 && nz == 4) return ~std::uint64_t{0};
  std::uint64_t m = 0;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) m |= std::uint64_t{1} << brick_bit(x, y, z);
  return m;
}

void FlightGrid::set_brick(int bx, int by, int bz, std::uint64_t mask, std::uint64_t hover) {
  const std::size_t i = std::size_t(bx + 1) + std::size_t(pbx_) * (std::size_t(by + 1) + std::size_t(pby_) * std::size_t(bz + 1));
  if (mask == 0) {
    refs_[i] = kBlockedRef;
    ++blocked_;
  } else if (mask == ~std::uint64_t{0} && hover == 0) {
    refs_[i] = kOpenRef;
    ++open_;
  } else {
    refs_[i] = static_cast<std::uint32_t>(masks_.size());
    masks_.push_back(mask);
    // Hover masks are kept only once some brick has a hover cell (the Moving AI maps have none).
    if (hover != 0 && hover_.empty()) hover_.assign(masks_.size() - 1, 0);
    if (!hover_.empty()) hover_.push_back(hover);
  }
}

void FlightGrid::build_from_blocked(int sx, int sy, int sz, const std::vector<CellPos>& blocked) {
  const std::uint64_t nbx = std::uint64_t(sx + 3) / 4, nby = std::uint64_t(sy + 3) / 4;
  // Blocked cells as (brick in build order) * 64 + bit, sorted: build() visits bricks in that
  // order, so one cursor clears each brick's bits.
  std::vector<std::uint64_t> keys;
  keys.reserve(blocked.size());
  for (const CellPos& c : blocked) {
    if (c.x < 0 || c.y < 0 || c.z < 0 || c.x >= sx || c.y >= sy || c.z >= sz) continue;
    const std::uint64_t brick = std::uint64_t(c.x >> 2) + nbx * (std::uint64_t(c.y >> 2) + nby * std::uint64_t(c.z >> 2));
    keys.push_back(brick * 64 + std::uint64_t(bit_of_cell(c.x, c.y, c.z)));
  }
  std::sort(keys.begin(), keys.end());
  std::size_t cursor = 0;
  build(sx, sy, sz, [&](int bx, int by, int bz) {
    const std::uint64_t brick = std::uint64_t(bx) + nbx * (std::uint64_t(by) + nby * std::uint64_t(bz));
    std::uint64_t mask = ~std::uint64_t{0};
    while (cursor < keys.size() && keys[cursor] / 64 == brick) mask &= ~(std::uint64_t{1} << (keys[cursor++] % 64));
    return mask;
  });
  masks_.shrink_to_fit();
}

}  // namespace voxnav::detail::flight
