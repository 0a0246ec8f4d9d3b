// voxnav - column queries over the block mirror: the highest block that is not air in each column
// of a box (a height map, e.g. for a top-down view of the world).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/error.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav {

class World;

/// Limits of one column_tops call, so it stays well under a second whatever is loaded (about
/// 0.5 s for 2^26 cells of chunks that are all air but one block).
inline constexpr std::int64_t kMaxColumnTopsColumns = std::int64_t{1} << 22;
inline constexpr std::int64_t kMaxColumnTopsHeight = 4096;  ///< cells of y
inline constexpr std::int64_t kMaxColumnTopsCells = std::int64_t{1} << 26;
/// Height of a column with no block but air in the range (or not loaded).
inline constexpr std::int32_t kNoColumnTop = INT32_MIN;

/// The highest block that is not air ("air", "cave_air", "void_air" and value 0) in each column
/// of the inclusive box min..max, looking at y in min.y..max.y only. Column (x, z) goes to index
/// (x - min.x) + (max.x - min.x + 1) * (z - min.z) of `heights` (cell y, or kNoColumnTop) and
/// `values` (its block value, 0 with kNoColumnTop); both hold at least `capacity` entries.
/// [Limit: columns (max.x - min.x + 1) * (max.z - min.z + 1) <= kMaxColumnTopsColumns, height
/// max.y - min.y + 1 <= kMaxColumnTopsHeight, columns * height <= kMaxColumnTopsCells]
/// Returns: Ok; OutOfRange for min or max out of the cell range; InvalidArgument for min above
/// max on an axis or a limit exceeded (argument "max"), a capacity below the column count or
/// null buffers ("capacity"). `error` (may be null) gets the argument and the message. Nothing
/// is written on error.
[[nodiscard]] Status column_tops(const World& world, CellPos min, CellPos max,
                                 std::int32_t* heights, std::uint16_t* values,
                                 std::size_t capacity, CallError* error = nullptr);
/// The same into vectors sized to the column count (replaced; left unchanged on error). Returns
/// what the call above returns ("capacity": a null vector).
[[nodiscard]] Status column_tops(const World& world, CellPos min, CellPos max,
                                 std::vector<std::int32_t>* heights,
                                 std::vector<std::uint16_t>* values, CallError* error = nullptr);

}  // namespace voxnav
