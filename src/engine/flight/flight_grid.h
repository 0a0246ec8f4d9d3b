// The flight grid: which cells a flying body may occupy, stored as 4x4x4 bricks.
//
// Each brick is all blocked, all open, or mixed with a 64-bit free mask (bit x + 4y + 16z of the
// brick's local cell). The grid is built from a free-cell source and knows nothing of where the
// cells came from: a Moving AI voxel map (one voxel = one cell, the agent one voxel) now, a
// World's flyer class (a cell is free when the class envelope fits there) in the next step. The
// searches in flight_search.h read only this grid.
//
// Layout: the brick array is padded by one all-blocked brick on every side, so a cell one step
// outside the grid (x = -1 or x = size_x, ...) reads as blocked without a bounds test. Cells of
// a partial edge brick beyond the size are blocked too.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "voxnav/types.h"

namespace voxnav::detail::flight {

inline constexpr int kBrickEdge = 4;
inline constexpr int kBrickCells = 64;
/// Bit of local cell (lx, ly, lz) in a brick mask.
constexpr int brick_bit(int lx, int ly, int lz) { return lx + 4 * ly + 16 * lz; }

/// Largest edge of a flight grid in cells, and largest cell count. The edge bound keeps the
/// optimal search's heuristic below 2^32 (flight_search.h); the cell bound keeps node ids
/// (padded brick index * 64 + bit) below 2^32.
inline constexpr int kMaxGridEdge = 4096;
inline constexpr std::uint64_t kMaxGridCells = std::uint64_t{1} << 31;

class FlightGrid {
 public:
  /// Brick references: 0 is all blocked, 1 all open, k >= 2 the mixed brick whose free mask is
  /// masks_[k]. masks_[0] = 0 and masks_[1] = ~0, so brick_mask() needs no branch.
  static constexpr std::uint32_t kBlockedRef = 0;
  static constexpr std::uint32_t kOpenRef = 1;

  FlightGrid() = default;

  /// Builds a grid of sx x sy x sz cells (each 1..kMaxGridEdge, product <= kMaxGridCells; the
  /// caller checks) whose free cells are those of `free_mask(bx, by, bz)`: the 64-bit free mask
  /// of brick (bx, by, bz), bit x + 4y + 16z. Bits of cells outside the grid are ignored.
  template <class MaskFn>
  void build(int sx, int sy, int sz, MaskFn&& free_mask) {
    reset(sx, sy, sz);
    for (int bz = 0; bz < nbz_; ++bz)
      for (int by = 0; by < nby_; ++by)
        for (int bx = 0; bx < nbx_; ++bx)
          set_brick(bx, by, bz, free_mask(bx, by, bz) & in_bounds_mask(bx, by, bz));
  }

  /// build() with a hover mask per brick as well: `masks(bx, by, bz)` returns {free, hover}
  /// (hover cells are free cells a search charges one more unit for: a World flyer's cells just
  /// above a collision top, flyer_classify.h). A brick with a hover cell is mixed even when all its
  /// cells are free, so that "all open" keeps meaning "one node, no hover cell".
  template <class MasksFn>
  void build_with_hover(int sx, int sy, int sz, MasksFn&& masks) {
    reset(sx, sy, sz);
    for (int bz = 0; bz < nbz_; ++bz)
      for (int by = 0; by < nby_; ++by)
        for (int bx = 0; bx < nbx_; ++bx) {
          const std::uint64_t in = in_bounds_mask(bx, by, bz);
          const auto [free, hover] = masks(bx, by, bz);
          set_brick(bx, by, bz, free & in, hover & free & in);
        }
  }

  /// Builds a grid where every cell is free except the listed ones (a Moving AI .3dmap lists its
  /// blocked voxels). Cells outside the grid in `blocked` are ignored (the parser refuses them).
  void build_from_blocked(int sx, int sy, int sz, const std::vector<CellPos>& blocked);

  int size_x() const { return sx_; }
  int size_y() const { return sy_; }
  int size_z() const { return sz_; }
  std::uint64_t cell_count() const { return std::uint64_t(sx_) * sy_ * sz_; }
  bool empty() const { return sx_ == 0; }
  bool in_bounds(int x, int y, int z) const {
    return x >= 0 && y >= 0 && z >= 0 && x < sx_ && y < sy_ && z < sz_;
  }

  /// Padded brick array: brick (bx, by, bz) of the grid (bx in -1 .. bricks_x()) is at index
  /// (bx + 1) + pbx * ((by + 1) + pby * (bz + 1)).
  int padded_x() const { return pbx_; }
  int padded_y() const { return pby_; }
  int padded_z() const { return pbz_; }
  std::uint32_t brick_index_of_cell(int x, int y, int z) const {
    return std::uint32_t((x >> 2) + 1) +
           std::uint32_t(pbx_) * (std::uint32_t((y >> 2) + 1) + std::uint32_t(pby_) * std::uint32_t((z >> 2) + 1));
  }
  static int bit_of_cell(int x, int y, int z) { return brick_bit(x & 3, y & 3, z & 3); }

  /// The free mask of a padded brick index (0 blocked, ~0 open).
  std::uint64_t brick_mask(std::uint32_t padded_brick) const { return masks_[refs_[padded_brick]]; }
  std::uint32_t brick_ref(std::uint32_t padded_brick) const { return refs_[padded_brick]; }
  /// The hover mask of a padded brick index (0 for a grid built without hover cells).
  std::uint64_t brick_hover(std::uint32_t padded_brick) const {
    return hover_.empty() ? 0 : hover_[refs_[padded_brick]];
  }

  /// True when (x, y, z) is inside the grid and free. Any x, y, z.
  bool free(int x, int y, int z) const {
    if (!in_bounds(x, y, z)) return false;
    return (brick_mask(brick_index_of_cell(x, y, z)) >> bit_of_cell(x, y, z)) & 1u;
  }

  std::size_t open_bricks() const { return open_; }
  std::size_t blocked_bricks() const { return blocked_; }
  std::size_t mixed_bricks() const { return masks_.size() - 2; }
  /// Bytes held: the padded reference array and the mixed masks.
  std::size_t memory_bytes() const {
    return refs_.capacity() * sizeof(std::uint32_t) + (masks_.capacity() + hover_.capacity()) * sizeof(std::uint64_t);
  }

 private:
  void reset(int sx, int sy, int sz);
  std::uint64_t in_bounds_mask(int bx, int by, int bz) const;
  void set_brick(int bx, int by, int bz, std::uint64_t mask, std::uint64_t hover = 0);

  int sx_ = 0, sy_ = 0, sz_ = 0;
  int nbx_ = 0, nby_ = 0, nbz_ = 0;  // bricks covering the grid
  int pbx_ = 0, pby_ = 0, pbz_ = 0;  // with the padding
  std::vector<std::uint32_t> refs_;
  std::vector<std::uint64_t> masks_;
  std::vector<std::uint64_t> hover_;  // per mask, when some brick has a hover cell; else empty
  std::size_t open_ = 0, blocked_ = 0;
};

}  // namespace voxnav::detail::flight
