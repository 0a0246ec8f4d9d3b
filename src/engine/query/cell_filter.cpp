#include "engine/query/cell_filter.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <tuple>
#include <vector>

#include "engine/world/registry.h"

namespace voxnav::detail {

namespace {

std::uint64_t mix64(std::uint64_t& s) {  // splitmix64
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A seeded bijection of [0, 2^bits): rounds of an odd multiply and add (mod 2^bits), each
/// followed by an xorshift (a bijection too). Integer arithmetic only.
class SeededPermutation {
 public:
  SeededPermutation(int bits, std::uint64_t seed)
      : mask_(bits >= 64 ? ~0ull : (1ull << bits) - 1), shift_(bits / 2 + 1) {
    std::uint64_t s = seed;
    for (int r = 0; r < kRounds; ++r) {
      mul_[r] = (mix64(s) | 1u) & mask_;
      if (mul_[r] == 0) mul_[r] = 1;  // bits = 0: everything maps to 0 anyway
      add_[r] = mix64(s) & mask_;
    }
  }
  std::uint64_t operator()(std::uint64_t i) const {
    for (int r = 0; r < kRounds; ++r) {
      i = (i * mul_[r] + add_[r]) & mask_;
      i ^= i >> shift_;
    }
    return i;
  }

 private:
  static constexpr int kRounds = 4;
  std::uint64_t mask_;
  int shift_;
  std::uint64_t mul_[kRounds]{}, add_[kRounds]{};
};

bool reach_yes(NavWorld& nav, const CellFilterSpec& f, CellPos from, CellPos goal) {
  const NavGrid& g = nav.grid();
  return nav.reachable(feet_cell(g, from), feet_cell(g, goal), 0, f.gates, f.restricted).answer ==
         ReachAnswer::Yes;
}

}  // namespace

namespace {
/// Block reads with the last chunk remembered: the filter's boxes read runs of cells of one
/// chunk, so most reads skip the space's chunk lookup.
class BlockReader {
 public:
  explicit BlockReader(const Space& space) : space_(space) {}
  std::uint16_t at(CellPos c) {
    const ChunkPos p = chunk_of(c);
    if (!valid_ || !(p == pos_)) {
      pos_ = p;
      chunk_ = space_.chunk(p);
      valid_ = true;
    }
    return chunk_ ? chunk_->get(index_in_chunk(c)) : std::uint16_t(0);  // not loaded: air
  }

 private:
  const Space& space_;
  ChunkPos pos_;
  const Chunk* chunk_ = nullptr;
  bool valid_ = false;
};
}  // namespace

bool CellFilterTest::passes_blocks(CellPos c) const {
  const NavGrid& g = nav_.grid();
  if (!cell_in_range(c) || !g.standable(c)) return false;
  // Cheapest first: arithmetic, then the column above, the reachability answers, the boxes.
  if (spec_.avoid_count > 0) {
    const double px = c.x + 0.5, py = c.y, pz = c.z + 0.5;
    const double min2 = spec_.min_distance * spec_.min_distance;
    for (std::size_t i = 0; i < spec_.avoid_count; ++i) {
      const double dx = spec_.avoid[i].x - px, dy = spec_.avoid[i].y - py,
                   dz = spec_.avoid[i].z - pz;
      const double d2 = dx * dx + dy * dy + dz * dz;
      if (d2 < min2) return false;
    }
  }
  const Space& space = nav_.space();
  const BlockRegistry& reg = space.registry();
  BlockReader blocks(space);
  for (int h = 1; h <= spec_.min_headroom; ++h)
    if (reg.has_collision(blocks.at(CellPos{c.x, c.y + h, c.z}))) return false;
  if (spec_.reach_from && !reach_yes(nav_, spec_, spec_.reach_cell, c)) return false;
  if (spec_.reach_to && !reach_yes(nav_, spec_, c, spec_.reach_cell)) return false;
  if (spec_.exclude_fluids) {
    for (int y = c.y - 1; y <= c.y + 1; ++y)
      for (int z = c.z - 1; z <= c.z + 1; ++z)
        for (int x = c.x - 1; x <= c.x + 1; ++x)
          if (reg.traits(blocks.at(CellPos{x, y, z})) & (kTraitFluidSwim | kTraitFluidHarm))
            return false;
  }
  if (const int d = spec_.hazard_distance; d > 0) {
    for (int y = c.y - 1; y <= c.y + 2; ++y)
      for (int z = c.z - d; z <= c.z + d; ++z)
        for (int x = c.x - d; x <= c.x + d; ++x)
          if (reg.traits(blocks.at(CellPos{x, y, z})) & (kTraitHazardFire | kTraitHazardOther))
            return false;
  }
  return true;
}

std::size_t find_spawn_cells(NavWorld& nav, const CellFilterSpec& spec, CellPos mn, CellPos mx,
                             std::uint64_t seed, CellPos* out, std::size_t capacity) {
  const std::uint64_t sx = static_cast<std::uint64_t>(mx.x - mn.x) + 1;
  const std::uint64_t sz = static_cast<std::uint64_t>(mx.z - mn.z) + 1;
  const std::uint64_t sy = static_cast<std::uint64_t>(mx.y - mn.y) + 1;
  const std::uint64_t volume = sx * sy * sz;
  int bits = 0;
  while ((1ull << bits) < volume) ++bits;
  const SeededPermutation perm(bits, seed);
  const CellFilterTest test(nav, spec);
  // The box's navigation chunks in a fixed table when they are few (a 64^3 box spans at most
  // 5 x 5 x 5): the random visit then reads standability without the grid's chunk lookup.
  const NavGrid& g = nav.grid();
  const ChunkPos c0 = chunk_of(mn), c1 = chunk_of(mx);
  const std::int64_t cx = c1.x - c0.x + 1, cy = c1.y - c0.y + 1, cz = c1.z - c0.z + 1;
  constexpr std::int64_t kTable = 256;
  std::array<const NavChunk*, kTable> table{};
  const bool tabled = cx * cy * cz <= kTable;
  if (tabled)
    for (std::int64_t y = 0; y < cy; ++y)
      for (std::int64_t z = 0; z < cz; ++z)
        for (std::int64_t x = 0; x < cx; ++x)
          table[static_cast<std::size_t>(x + cx * (z + cz * y))] = g.chunk(ChunkPos{
              c0.x + static_cast<std::int32_t>(x), c0.y + static_cast<std::int32_t>(y),
              c0.z + static_cast<std::int32_t>(z)});
  const auto standable = [&](CellPos c) {
    if (!tabled) return g.standable(c);
    const ChunkPos p = chunk_of(c);
    const NavChunk* ch =
        table[static_cast<std::size_t>((p.x - c0.x) + cx * ((p.z - c0.z) + cz * (p.y - c0.y)))];
    return ch != nullptr && kind_standable(ch->kind_at(index_in_chunk(c)));
  };
  std::size_t n = 0;
  const std::uint64_t domain = 1ull << bits;
  for (std::uint64_t i = 0; i < domain && n < capacity; ++i) {
    std::uint64_t p = perm(i);
    if (p >= volume) continue;  // outside the box: the next index
    const auto x = static_cast<std::int32_t>(p % sx);
    p /= sx;
    const auto z = static_cast<std::int32_t>(p % sz);
    const auto y = static_cast<std::int32_t>(p / sz);
    const CellPos c{mn.x + x, mn.y + y, mn.z + z};
    if (standable(c) && test.passes_blocks(c) && test.accepted(c)) out[n++] = c;
  }
  return n;
}

bool nearest_filtered(NavWorld& nav, const CellFilterSpec& spec, CellPos near, int radius,
                      CellPos* out) {
  const CellFilterTest test(nav, spec);
  // Cells that passed every test but the callback, not yet asked: (d2, dy, dz, dx), sorted
  // before asking. A cell of shell r (Chebyshev) has d2 >= r^2, so once shell r is scanned every
  // waiting cell with d2 < (r + 1)^2 comes before any cell of a later shell.
  using Key = std::tuple<long long, int, int, int>;
  std::vector<Key> waiting;
  for (int r = 0; r <= radius; ++r) {
    for (int dy = -r; dy <= r; ++dy)
      for (int dz = -r; dz <= r; ++dz)
        for (int dx = -r; dx <= r; ++dx) {
          if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
          const CellPos c{near.x + dx, near.y + dy, near.z + dz};
          if (!test.passes_blocks(c)) continue;
          waiting.emplace_back(static_cast<long long>(dx) * dx + static_cast<long long>(dy) * dy +
                                   static_cast<long long>(dz) * dz,
                               dy, dz, dx);
        }
    std::sort(waiting.begin(), waiting.end());
    const long long bound = r == radius ? -1 : static_cast<long long>(r + 1) * (r + 1);
    std::size_t asked = 0;
    for (; asked < waiting.size(); ++asked) {
      const auto& [d2, dy, dz, dx] = waiting[asked];
      if (bound >= 0 && d2 >= bound) break;
      const CellPos c{near.x + dx, near.y + dy, near.z + dz};
      if (test.accepted(c)) {
        *out = c;
        return true;
      }
    }
    waiting.erase(waiting.begin(), waiting.begin() + static_cast<std::ptrdiff_t>(asked));
  }
  return false;
}

}  // namespace voxnav::detail
