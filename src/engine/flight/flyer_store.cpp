#include "engine/flight/flyer_store.h"

#include <algorithm>
#include <utility>

namespace voxnav::detail::flight {
namespace {

// A brick's world coordinates packed in 64 bits (|bx|, |bz| < 2^24, |by| < 2^10: cells in range).
constexpr std::int64_t kXZBias = std::int64_t{1} << 24, kYBias = std::int64_t{1} << 10;
std::uint64_t brick_key(int bx, int by, int bz) {
  return (std::uint64_t(by + kYBias) << 52) | (std::uint64_t(bz + kXZBias) << 26) | std::uint64_t(bx + kXZBias);
}
void brick_of_key(std::uint64_t k, int& bx, int& by, int& bz) {
  const std::uint64_t m26 = (std::uint64_t{1} << 26) - 1;
  bx = int(std::int64_t(k & m26) - kXZBias);
  bz = int(std::int64_t((k >> 26) & m26) - kXZBias);
  by = int(std::int64_t(k >> 52) - kYBias);
}

}  // namespace

void FlyerStore::build_all(const Space& space) {
  flags_ = flyer_value_flags(space.registry());
  chunks_.clear();
  changed_chunks_.clear();
  for (const ChunkPos& p : space.loaded_chunks()) {
    auto c = std::make_unique<ChunkBricks>();
    for (int i = 0; i < 64; ++i)
      c->bricks[i] = classify_flyer_brick(space, flags_, p.x * kChunkBricks + (i & 3),
                                          p.y * kChunkBricks + ((i >> 2) & 3), p.z * kChunkBricks + (i >> 4));
    chunks_.emplace(chunk_key(p), std::move(c));
  }
}

void FlyerStore::refresh_brick(const Space& space, int bx, int by, int bz, std::size_t& changed) {
  const ChunkPos p{bx >> 2, by >> 2, bz >> 2};
  if (!space.is_loaded(p)) return;
  std::unique_ptr<ChunkBricks>& slot = chunks_[chunk_key(p)];
  if (!slot) {
    slot = std::make_unique<ChunkBricks>();  // all blocked until classified
    changed_chunks_.push_back(p);
  }
  FlyerBrick& b = slot->bricks[(bx & 3) + 4 * (by & 3) + 16 * (bz & 3)];
  const FlyerBrick n = classify_flyer_brick(space, flags_, bx, by, bz);
  ++refreshed_;
  if (n.free != b.free || n.hover != b.hover) {
    if (n.free != b.free && (changed_chunks_.empty() || !(changed_chunks_.back() == p))) changed_chunks_.push_back(p);
    b = n;
    ++changed;
  }
}

std::size_t FlyerStore::apply(const Space& space, const std::vector<Change>& changes) {
  changed_chunks_.clear();
  if (changes.empty()) return 0;
  // A load may follow a registry change (World::set_block_traits reloads every chunk): the
  // values' flags are read again whenever a chunk was loaded.
  bool loads = flags_.size() != space.registry().size();
  keys_.clear();
  std::size_t changed = 0;
  for (const Change& c : changes) {
    if (c.kind == Change::Kind::Load) loads = true;
    if (c.kind == Change::Kind::Unload || c.kind == Change::Kind::Load) {
      const ChunkPos p = chunk_of(c.min);
      if (!space.is_loaded(p)) {
        const auto it = chunks_.find(chunk_key(p));
        if (it != chunks_.end()) {
          chunks_.erase(it);
          changed_chunks_.push_back(p);
          ++changed;
        }
      }
    }
    // The cells that read the changed box: one row below it to one above it.
    const int bx0 = c.min.x >> 2, bx1 = c.max.x >> 2, bz0 = c.min.z >> 2, bz1 = c.max.z >> 2;
    const int by0 = (c.min.y - 1) >> 2, by1 = (c.max.y + 1) >> 2;
    for (int by = by0; by <= by1; ++by)
      for (int bz = bz0; bz <= bz1; ++bz)
        for (int bx = bx0; bx <= bx1; ++bx) keys_.push_back(brick_key(bx, by, bz));
  }
  if (loads) flags_ = flyer_value_flags(space.registry());
  std::sort(keys_.begin(), keys_.end());
  keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
  for (const std::uint64_t k : keys_) {
    int bx, by, bz;
    brick_of_key(k, bx, by, bz);
    refresh_brick(space, bx, by, bz, changed);
  }
  keys_.clear();
  if (keys_.capacity() > (std::size_t{1} << 16)) keys_.shrink_to_fit();
  std::sort(changed_chunks_.begin(), changed_chunks_.end(),
            [](const ChunkPos& a, const ChunkPos& b) { return chunk_key(a) < chunk_key(b); });
  changed_chunks_.erase(std::unique(changed_chunks_.begin(), changed_chunks_.end()), changed_chunks_.end());
  return changed;
}

void FlyerStore::window(CellPos origin, int sx, int sy, int sz, FlightGrid& grid) const {
  const int obx = origin.x >> 2, oby = origin.y >> 2, obz = origin.z >> 2;
  std::uint64_t last_key = ~std::uint64_t{0};
  const ChunkBricks* last = nullptr;
  grid.build_with_hover(sx, sy, sz, [&](int bx, int by, int bz) -> std::pair<std::uint64_t, std::uint64_t> {
    const int wx = obx + bx, wy = oby + by, wz = obz + bz;
    const ChunkPos p{wx >> 2, wy >> 2, wz >> 2};
    if (!chunk_in_range(p)) return {0, 0};
    const std::uint64_t k = chunk_key(p);
    if (k != last_key) {
      last_key = k;
      last = chunk(p);
    }
    if (!last) return {0, 0};
    const FlyerBrick& b = last->bricks[(wx & 3) + 4 * (wy & 3) + 16 * (wz & 3)];
    return {b.free, b.hover};
  });
}

}  // namespace voxnav::detail::flight
