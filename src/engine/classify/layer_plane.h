// A per-cell plane of a navigation chunk stored by cell row (the 256 cells of one y level): a row
// whose cells all hold the same value keeps only that value, the others 256 values each. Most of
// a chunk's rows are rock or open air (the same kind, floor and clearance everywhere) or hold no
// node cell (no move word, no island label), so a chunk costs a few rows instead of 4,096 cells.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

namespace voxnav::detail {

template <class T>
class LayerPlane {
 public:
  static constexpr int kRows = 16;     ///< cell rows of a chunk (y levels)
  static constexpr int kRowCells = 256;  ///< cells of a row (x | z << 4)

  /// Whether the plane exists (a missing plane reads as all zero where the owner says so).
  explicit operator bool() const { return table_ != nullptr; }
  /// Creates the plane (or resets it) with every cell `fill`, no row stored.
  void create(T fill = T(0)) {
    if (!table_) table_ = std::make_unique<Table>();
    for (auto& r : table_->row) r.reset();
    table_->fill.fill(fill);
  }
  void reset() { table_.reset(); }

  /// The value of cell i (0..4095); the plane must exist.
  T operator[](int i) const {
    const T* r = table_->row[static_cast<std::size_t>(i >> 8)].get();
    return r ? r[i & 255] : table_->fill[static_cast<std::size_t>(i >> 8)];
  }
  /// Sets cell i; a row stored as one value is expanded when `v` differs from it.
  void set(int i, T v) {
    const std::size_t y = static_cast<std::size_t>(i >> 8);
    T* r = table_->row[y].get();
    if (!r) {
      if (v == table_->fill[y]) return;
      r = expand(y);
    }
    r[i & 255] = v;
  }
  /// The 256 values of row y, or null when every cell of the row holds fill(y).
  const T* row(int y) const { return table_->row[static_cast<std::size_t>(y)].get(); }
  T fill(int y) const { return table_->fill[static_cast<std::size_t>(y)]; }
  /// A writable row y (expanded first when stored as one value).
  T* row_mut(int y) {
    T* r = table_->row[static_cast<std::size_t>(y)].get();
    return r ? r : expand(static_cast<std::size_t>(y));
  }
  /// Stores each row whose cells all hold one value as that value only.
  void compact() {
    for (std::size_t y = 0; y < kRows; ++y) {
      const T* r = table_->row[y].get();
      if (r && std::all_of(r + 1, r + kRowCells, [&](T v) { return v == r[0]; })) {
        table_->fill[y] = r[0];
        table_->row[y].reset();
      }
    }
  }
  /// Copies all 4,096 cells into `out` (in cell index order).
  void copy_to(T* out) const {
    for (int y = 0; y < kRows; ++y) {
      if (const T* r = row(y))
        std::copy(r, r + kRowCells, out + y * kRowCells);
      else
        std::fill(out + y * kRowCells, out + (y + 1) * kRowCells, fill(y));
    }
  }
  /// Creates the plane from 4,096 cells (cell index order), compacted.
  void assign(const T* in) {
    create();
    for (std::size_t y = 0; y < kRows; ++y) {
      const T* src = in + y * kRowCells;
      if (std::all_of(src + 1, src + kRowCells, [&](T v) { return v == src[0]; })) {
        table_->fill[y] = src[0];
      } else {
        std::copy(src, src + kRowCells, expand(y));
      }
    }
  }

 private:
  struct Table {
    std::array<std::unique_ptr<T[]>, kRows> row;
    std::array<T, kRows> fill{};
  };
  T* expand(std::size_t y) {
    table_->row[y] = std::unique_ptr<T[]>(new T[kRowCells]);
    T* r = table_->row[y].get();
    std::fill(r, r + kRowCells, table_->fill[y]);
    return r;
  }
  std::unique_ptr<Table> table_;
};

}  // namespace voxnav::detail
