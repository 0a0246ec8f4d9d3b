#include "engine/flight/flyer_components.h"

#include <algorithm>
#include <numeric>

namespace voxnav::detail::flight {
namespace {

// Cells of a brick by local coordinate: x = 0 / x = 3 layers, and so on.
constexpr std::uint64_t layer_x(int x) {
  std::uint64_t m = 0;
  for (int i = 0; i < 64; ++i)
    if ((i & 3) == x) m |= std::uint64_t{1} << i;
  return m;
}
constexpr std::uint64_t layer_y(int y) {
  std::uint64_t m = 0;
  for (int i = 0; i < 64; ++i)
    if (((i >> 2) & 3) == y) m |= std::uint64_t{1} << i;
  return m;
}
constexpr std::uint64_t kX0 = layer_x(0), kX3 = layer_x(3), kY0 = layer_y(0), kY3 = layer_y(3);
constexpr std::uint64_t kZ3 = 0xFFFFull << 48;

// Whether component a (in the lower brick) touches component b (in the brick above it along
// `axis`: 0 x, 1 y, 2 z) across their shared face.
bool touches(std::uint64_t a, std::uint64_t b, int axis) {
  switch (axis) {
    case 0: return (((a & kX3) >> 3) & b) != 0;
    case 1: return (((a & kY3) >> 12) & b) != 0;
    default: return (((a & kZ3) >> 48) & b) != 0;
  }
}

struct Dsu {
  std::vector<std::uint32_t> p;
  explicit Dsu(std::size_t n) : p(n) { std::iota(p.begin(), p.end(), 0u); }
  std::uint32_t find(std::uint32_t x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
  }
  void unite(std::uint32_t a, std::uint32_t b) {
    a = find(a), b = find(b);
    if (a != b) p[std::max(a, b)] = std::min(a, b);  // the lower root wins: labels are deterministic
  }
};

int brick_index(int bx, int by, int bz) { return bx + 4 * by + 16 * bz; }

}  // namespace

void brick_components(std::uint64_t free, std::vector<std::uint64_t>& out) {
  out.clear();
  while (free) {
    std::uint64_t comp = free & (~free + 1);  // the lowest free cell
    for (;;) {
      const std::uint64_t grown = comp | ((comp << 1) & ~kX0) | ((comp >> 1) & ~kX3) | ((comp << 4) & ~kY0) |
                                  ((comp >> 4) & ~kY3) | (comp << 16) | (comp >> 16);
      const std::uint64_t next = grown & free;
      if (next == comp) break;
      comp = next;
    }
    out.push_back(comp);
    free &= ~comp;
  }
}

void FlyerComponents::compute_chunk(const FlyerStore::ChunkBricks& bricks, ChunkComps& c) {
  c.masks.clear();
  for (int b = 0; b < 64; ++b) {
    c.first[b] = static_cast<std::uint16_t>(c.masks.size());
    brick_components(bricks.bricks[b].free, scratch_);
    c.masks.insert(c.masks.end(), scratch_.begin(), scratch_.end());
  }
  c.first[64] = static_cast<std::uint16_t>(c.masks.size());
  Dsu dsu(c.masks.size());
  for (int bz = 0; bz < 4; ++bz)
    for (int by = 0; by < 4; ++by)
      for (int bx = 0; bx < 4; ++bx) {
        const int b = brick_index(bx, by, bz);
        const int up[3] = {bx < 3 ? b + 1 : -1, by < 3 ? b + 4 : -1, bz < 3 ? b + 16 : -1};
        for (int axis = 0; axis < 3; ++axis) {
          if (up[axis] < 0) continue;
          for (int i = c.first[b]; i < c.first[b + 1]; ++i)
            for (int j = c.first[up[axis]]; j < c.first[up[axis] + 1]; ++j)
              if (touches(c.masks[i], c.masks[j], axis)) dsu.unite(std::uint32_t(i), std::uint32_t(j));
        }
      }
  // Chunk components numbered by their lowest brick component.
  c.chunk_comp.assign(c.masks.size(), 0);
  std::vector<std::uint16_t> id(c.masks.size(), 0xFFFF);
  std::uint16_t n = 0;
  for (std::uint32_t i = 0; i < c.masks.size(); ++i) {
    const std::uint32_t r = dsu.find(i);
    if (id[r] == 0xFFFF) id[r] = n++;
    c.chunk_comp[i] = id[r];
  }
  c.count = n;
}

void FlyerComponents::compute_links(ChunkPos p, ChunkComps& c) {
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<std::pair<std::uint16_t, std::uint16_t>>& links = c.links[axis];
    links.clear();
    const ChunkPos q{p.x + (axis == 0), p.y + (axis == 1), p.z + (axis == 2)};
    const ChunkComps* n = find(q);
    if (!n) continue;
    for (int u = 0; u < 4; ++u)
      for (int v = 0; v < 4; ++v) {
        // The brick on the chunk's high face and the one across it in the neighbour.
        const int b = axis == 0 ? brick_index(3, u, v) : axis == 1 ? brick_index(u, 3, v) : brick_index(u, v, 3);
        const int o = axis == 0 ? brick_index(0, u, v) : axis == 1 ? brick_index(u, 0, v) : brick_index(u, v, 0);
        for (int i = c.first[b]; i < c.first[b + 1]; ++i)
          for (int j = n->first[o]; j < n->first[o + 1]; ++j)
            if (touches(c.masks[i], n->masks[j], axis)) links.emplace_back(c.chunk_comp[i], n->chunk_comp[j]);
      }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
  }
}

void FlyerComponents::relabel(const Space& space) {
  const std::vector<ChunkPos> order = space.loaded_chunks();  // sorted by chunk_key
  std::uint32_t total = 0;
  for (const ChunkPos& p : order)
    if (const auto it = chunks_.find(chunk_key(p)); it != chunks_.end()) {
      it->second->base = total;
      total += it->second->count;
    }
  Dsu dsu(total);
  for (const ChunkPos& p : order) {
    const ChunkComps* c = find(p);
    if (!c) continue;
    for (int axis = 0; axis < 3; ++axis) {
      if (c->links[axis].empty()) continue;
      const ChunkComps* n = find(ChunkPos{p.x + (axis == 0), p.y + (axis == 1), p.z + (axis == 2)});
      if (!n) continue;
      for (const auto& [a, b] : c->links[axis]) dsu.unite(c->base + a, n->base + b);
    }
  }
  root_.assign(total, 0);
  components_ = 0;
  for (std::uint32_t i = 0; i < total; ++i) {
    const std::uint32_t r = dsu.find(i);
    if (r == i) root_[i] = static_cast<std::uint32_t>(++components_);
    else root_[i] = root_[r];  // r < i: its label is set
  }
}

void FlyerComponents::build_all(const FlyerStore& store, const Space& space) {
  chunks_.clear();
  const std::vector<ChunkPos> order = space.loaded_chunks();
  for (const ChunkPos& p : order)
    if (const FlyerStore::ChunkBricks* b = store.chunk(p)) {
      auto c = std::make_unique<ChunkComps>();
      compute_chunk(*b, *c);
      chunks_.emplace(chunk_key(p), std::move(c));
    }
  for (const ChunkPos& p : order)
    if (const auto it = chunks_.find(chunk_key(p)); it != chunks_.end()) compute_links(p, *it->second);
  relabel(space);
}

void FlyerComponents::update(const FlyerStore& store, const Space& space, const std::vector<ChunkPos>& changed) {
  if (changed.empty()) return;
  std::vector<ChunkPos> relink;
  for (const ChunkPos& p : changed) {
    const FlyerStore::ChunkBricks* b = store.chunk(p);
    if (!b) {
      chunks_.erase(chunk_key(p));
    } else {
      std::unique_ptr<ChunkComps>& slot = chunks_[chunk_key(p)];
      if (!slot) slot = std::make_unique<ChunkComps>();
      compute_chunk(*b, *slot);
      relink.push_back(p);
    }
    for (int axis = 0; axis < 3; ++axis) {
      const ChunkPos q{p.x - (axis == 0), p.y - (axis == 1), p.z - (axis == 2)};
      if (chunk_in_range(q)) relink.push_back(q);
    }
  }
  std::sort(relink.begin(), relink.end(), [](const ChunkPos& a, const ChunkPos& b) { return chunk_key(a) < chunk_key(b); });
  relink.erase(std::unique(relink.begin(), relink.end()), relink.end());
  for (const ChunkPos& p : relink)
    if (const auto it = chunks_.find(chunk_key(p)); it != chunks_.end()) compute_links(p, *it->second);
  relabel(space);
}

std::uint32_t FlyerComponents::label(const FlyerStore& store, CellPos c) const {
  (void)store;
  const ChunkComps* ch = find(chunk_of(c));
  if (!ch) return 0;
  const int b = brick_index((c.x >> 2) & 3, (c.y >> 2) & 3, (c.z >> 2) & 3);
  const std::uint64_t bit = std::uint64_t{1} << FlyerStore::bit(c);
  for (int i = ch->first[b]; i < ch->first[b + 1]; ++i)
    if (ch->masks[i] & bit) return root_[ch->base + ch->chunk_comp[i]];
  return 0;
}

std::size_t FlyerComponents::memory_bytes() const {
  std::size_t n = root_.capacity() * sizeof(std::uint32_t);
  for (const auto& [k, c] : chunks_) {  // a sum: the order does not matter
    n += sizeof(ChunkComps) + c->masks.capacity() * 8 + c->chunk_comp.capacity() * 2;
    for (const auto& l : c->links) n += l.capacity() * 4;
  }
  return n;
}

}  // namespace voxnav::detail::flight
