// The corridor index: which agents' corridors pass a brick (4x4x4 cells), so that an edit
// touches only the agents whose corridors run near it.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/corridor/corridor.h"
#include "engine/util/key_hash.h"

namespace voxnav::detail {

class CorridorIndex {
 public:
  /// Brick of a cell: 4x4x4 cells, packed into 64 bits.
  static std::uint64_t brick_key(int bx, int by, int bz) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(bx + (1 << 23)) & 0xFFFFFFu)) |
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(bz + (1 << 23)) & 0xFFFFFFu)
            << 24) |
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(by + (1 << 18)) & 0xFFFFu) << 48);
  }

  /// Registers the part of `c` ahead of path cell `from` for `agent` (replacing what it had):
  /// the bricks of its path cells and of the boxes spanned by its level straight segments.
  void set(std::uint32_t agent, const Corridor& c, std::size_t from);
  /// Registers one cell's brick for `agent` (a blocked agent waits for edits around it).
  void set_cell(std::uint32_t agent, const CellPos& cell);
  void clear(std::uint32_t agent);
  /// Appends the agents registered in a brick overlapping the cell box [mn, mx] (unsorted,
  /// possibly repeated).
  void query(const CellPos& mn, const CellPos& mx, std::vector<std::uint32_t>& out) const;
  std::size_t bricks() const { return bricks_.size(); }

 private:
  void assign(std::uint32_t agent, std::vector<std::uint64_t>& keys);
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>, KeyHash> bricks_;  // lookup only
  std::vector<std::vector<std::uint64_t>> of_agent_;
  std::vector<std::uint64_t> scratch_;
};

}  // namespace voxnav::detail
