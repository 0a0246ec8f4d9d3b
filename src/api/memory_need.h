// The bytes a large call of the API needs, estimated from what it will build, and the check of
// that estimate against the heap (voxnav/memory.h) before anything is allocated or changed: the
// one place where a load, a registry or an edit decides "OutOfMemory, nothing changed" up front
// (voxnav/status.h). Every estimate is an upper bound of the bytes the call allocates and keeps
// or holds at its peak. What the next update() builds for a call (the navigation of every
// movement class of the World) is charged to the World's budget, which every check adds to the
// call's own need (docs/memory.md); tests/api/memory_need_native_test.cpp compares the charges
// with the allocations measured on the shipped regions and on each chunk kind. What a call
// allocates beyond its estimate comes out of kHeapHeadroomBytes.
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "engine/world/space.h"
#include "voxnav/status.h"

namespace voxnav::detail {

struct WorldState;

/// What the allocator adds to every block it gives (size word and alignment), at most.
inline constexpr std::size_t kAllocOverheadBytes = 16;
/// One loaded chunk's block array (chunks of one value store none).
inline constexpr std::size_t kChunkArrayBytes = kChunkCells * 2 + kAllocOverheadBytes;
/// One loaded chunk's record, array or not: its hash-map node and bucket, its change-log entry,
/// its entry of the batch that loads it and of the loaders' decoded columns.
inline constexpr std::size_t kChunkRecordBytes = 320;
/// The number of movement classes whose navigation ws keeps (the walker's at least).
std::size_t nav_classes(const WorldState& ws) noexcept;
/// Decoding Anvil columns of `bytes` uncompressed NBT in all, the largest `largest_column`: the
/// decoded sections (a section with its own array takes at least 2 KiB of NBT for its 8 KiB of
/// values: 4 bytes a byte, plus every column's section records) and the NBT tree of one column at
/// a time (kNbtTreeBytesPerByte a byte of it).
std::size_t anvil_decode_bytes(std::size_t bytes, std::size_t columns,
                               std::size_t largest_column) noexcept;
/// Bytes of tree per byte of NBT: a tag of at least 3 bytes of input takes ~100 bytes of tree.
inline constexpr std::size_t kNbtTreeBytesPerByte = 40;
/// A JSON registry (blocks, shapes) of `bytes` in all: its parsed document and the registry
/// built from it (kJsonBytesPerByte a byte of text).
std::size_t registry_bytes(std::size_t bytes) noexcept;
inline constexpr std::size_t kJsonBytesPerByte = 24;
// ---- the World's budget: pending navigation builds, checked with every call's own need ----

/// One chunk's navigation for one class at the first build's transient peak: its planes, the
/// NavChunk, the scratch of classifying it and its share of the islands' rebuild. Measured on
/// mixed chunks with a floor every 4 cells: 122,040 bytes a chunk at the peak, 67,341 kept
/// (tests/api/memory_need_native_test.cpp, MemoryBudget).
inline constexpr std::size_t kNavBuildPeakBytes = 136 * 1024;
/// The same for a mostly uniform chunk (one value in all but kMostlyUniformOthers cells): every
/// plane at most (16 bytes a cell: 64 KiB) and the islands' scratch of the few cells where a
/// body stands (a floor layer from below and those above the odd cells). Measured: 37,856 bytes
/// (stone with an air pocket), about 90,000 (air with 64 blocks, over a stone floor).
inline constexpr std::size_t kNavMostlyUniformPeakBytes = 112 * 1024;
inline constexpr std::size_t kMostlyUniformOthers = 64;
/// A quiet chunk's navigation for one class: one value, and nothing a body can stand on, in or
/// beside (a uniform open chunk whose 26 neighbours are open or absent, or a uniform full block):
/// the NavChunk alone, no planes. Measured: 2,848 bytes at the peak, 1,883 kept.
inline constexpr std::size_t kNavQuietChunkBytes = 4096;
/// One agent slot (its record) in the agents' table.
std::size_t agent_slot_bytes() noexcept;
/// What adding `n` agents allocates in a table of `size` slots (`free` of them free) holding
/// `capacity` without growing: nothing while they fit, else every doubling up to the new
/// capacity (each new table is allocated while the old one is held: less than twice the last).
std::size_t agent_growth_bytes(std::size_t size, std::size_t free, std::size_t capacity,
                               std::size_t n) noexcept;
/// One request's slot and its share of the request tables (the slot deque's block, the index
/// vectors when they double).
std::size_t request_slot_bytes() noexcept;
/// Per request held, when the index vectors double (three vectors of 4-byte indices, twice).
inline constexpr std::size_t kRequestIndexBytes = 32;

/// The charge a call adds to the World's budget: the bytes the next update() will need for the
/// builds the call queues (`pending`), the chunks charged (`keys`), and what the call itself
/// allocates before returning (`now`: block arrays, records, a new class's navigation).
struct BudgetCharge {
  std::size_t now = 0;
  std::size_t pending = 0;
  std::vector<std::uint64_t> keys;
};
/// Whether a uniform chunk of `value` can be quiet: open (no collision box, no trait: air) or a
/// full block without traits.
bool quiet_value(const WorldState& ws, std::uint16_t value) noexcept;
/// The charge of loading `batch` into ws: block arrays and records now, and per class the
/// build of every chunk of the batch (kNavBuildPeakBytes, or kNavQuietChunkBytes for a quiet
/// one) plus the rebuild of every loaded open uniform chunk beside a chunk of the batch that is
/// not open (it may gain a floor). Chunks already charged are not charged again.
BudgetCharge chunk_load_charge(const WorldState& ws, std::span<const ChunkLoad> batch);
/// The charge of edits touching the chunks `touched` (sorted keys' positions): an array for each
/// uniform one, and per class the rebuild of each touched chunk and of its loaded open uniform
/// neighbours, those already charged excepted.
BudgetCharge edit_charge(const WorldState& ws, std::span<const ChunkPos> touched);
/// The charge of a new movement class: its navigation of every loaded chunk, built now.
BudgetCharge class_charge(const WorldState& ws);
/// Ok when the heap can give the World's pending budget plus `charge` (check_room); the charge
/// is not added (commit_charge does that once the call succeeded).
Status check_charge(const WorldState& ws, const BudgetCharge& charge, const std::string& what,
                    std::string& message);
/// Adds an accepted call's charge to the World's budget.
void commit_charge(WorldState& ws, BudgetCharge&& charge);
/// After update(): the budget is the builds still queued for the next update (not the chunks
/// deferred by a build radius).
void reset_budget(WorldState& ws);
/// A chunk unloaded before the update that would have built it: its mixed-build charge, if it
/// holds one, leaves the budget.
void uncharge_unloaded(WorldState& ws, ChunkPos pos);

/// check_charge for loading `batch` into ws; `what` names the load. On Ok, `charge` holds what to
/// commit once the load succeeded.
Status check_chunk_load(const WorldState& ws, std::span<const ChunkLoad> batch,
                        const std::string& what, std::string& message, BudgetCharge& charge);

/// Ok when the heap can give `bytes` (voxnav::heap_has_room); otherwise OutOfMemory with
/// `message` "out of memory: <what> needs up to N MiB, and the heap cannot give that (...);
/// nothing changed". Estimates add up with saturation, so a huge one is refused, never wrapped.
Status check_room(std::size_t bytes, const std::string& what, std::string& message);

/// a + b, or SIZE_MAX when that does not fit.
inline std::size_t add_bytes(std::size_t a, std::size_t b) noexcept {
  return a + b < a ? static_cast<std::size_t>(-1) : a + b;
}
/// n * each, or SIZE_MAX when that does not fit.
inline std::size_t times_bytes(std::size_t n, std::size_t each) noexcept {
  return each != 0 && n > static_cast<std::size_t>(-1) / each ? static_cast<std::size_t>(-1)
                                                              : n * each;
}

}  // namespace voxnav::detail
