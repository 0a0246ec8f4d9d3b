// Layer 1: islands (strongly connected components of the layer 2 move graph) and reachability.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/classify/nav_grid.h"

namespace voxnav::detail {

/// Strongly connected components over every standable cell and its moves, their condensation (a
/// DAG of one-way moves such as drops), and weakly connected components. Answers "can a body of
/// the class get from a to b" exactly: same component -> yes; different weak component -> no;
/// otherwise a cached reachability set over the DAG.
///
/// Tarjan's algorithm numbers components in reverse topological order: everything reachable from
/// component c has an id <= c, so `b > a` already proves a cannot reach b.
class Islands {
 public:
  /// Recomputes every component from the grid's move words (writes NavChunk::scc).
  void rebuild(NavGrid& grid);
  /// Component of a cell + 1, or 0 when the cell is not standable / not built.
  static std::uint32_t component(const NavGrid& grid, Cell c);
  /// Whether component a (1-based) reaches component b (1-based). Not thread-safe (caches).
  bool reaches(std::uint32_t a, std::uint32_t b);
  std::uint32_t weak_of(std::uint32_t a) const { return weak_[a - 1]; }
  std::size_t component_count() const { return weak_.size(); }
  std::size_t cell_count() const { return cells_; }
  /// Size (cells) of component a (1-based).
  std::uint32_t size_of(std::uint32_t a) const { return size_[a - 1]; }

 private:
  std::vector<std::uint32_t> weak_;       // per component: weak component id
  std::vector<std::uint32_t> size_;       // per component: cell count
  std::vector<std::uint32_t> dag_start_;  // CSR of the condensation
  std::vector<std::uint32_t> dag_edges_;
  // Per source component: the bit set of components it reaches (lazily computed, empty = not
  // yet). Bounded by kReachCacheBits in total; cleared when full.
  std::vector<std::vector<std::uint64_t>> reach_cache_;
  std::size_t reach_cache_bits_ = 0;
  static constexpr std::size_t kReachCacheBits = std::size_t(1) << 28;  // 32 MiB
  std::size_t cells_ = 0;
};

/// Iterates the moves of a standable cell: calls f(target_chunk, target_index, target_cell,
/// dir, code) for every move in its move word.
template <class F>
inline void for_each_move(NavChunk* ch, int i, const Cell& c, F&& f) {
  const std::uint32_t word = ch->moves_at(i);
  if (!word) return;
  const int lx = c.x & 15, ly = c.y & 15, lz = c.z & 15;
  // Fast path: the target stays inside this chunk (most moves), so its index is an offset.
  const bool inner_xz = static_cast<unsigned>(lx - 1) < 14u && static_cast<unsigned>(lz - 1) < 14u;
  for (int dir = 0; dir < 8; ++dir) {
    const int code = move_code(word, dir);
    if (!code) continue;
    const int dy = kMoveCodes[code].dy;
    int ti;
    NavChunk* tc;
    if (inner_xz && static_cast<unsigned>(ly + dy) < 16u) {
      tc = ch;
      ti = i + kDirDx[dir] + 16 * kDirDz[dir] + 256 * dy;
    } else {
      tc = step_chunk(ch, lx + kDirDx[dir], ly + dy, lz + kDirDz[dir], ti);
      if (!tc) continue;
    }
    f(tc, ti, Cell{c.x + kDirDx[dir], c.y + dy, c.z + kDirDz[dir]}, dir, code);
  }
}

inline Cell cell_of(const NavChunk* ch, int i) {
  return Cell{ch->pos.x * 16 + (i & 15), ch->pos.y * 16 + (i >> 8), ch->pos.z * 16 + ((i >> 4) & 15)};
}

}  // namespace voxnav::detail
