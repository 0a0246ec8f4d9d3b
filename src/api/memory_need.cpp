#include "memory_need.h"

#include <algorithm>

#include "engine/classify/nav_grid.h"
#include "engine/nav/world_state.h"
#include "voxnav/io.h"
#include "voxnav/memory.h"

namespace voxnav::detail {

namespace {
constexpr std::size_t kMiB = std::size_t{1} << 20;
/// Layer 0 and 1 arrays of one chunk: kind, floor, clear, vmoves, flags, surface (1 byte a cell),
/// gap moves (GapWord), moves and components (4 bytes), each its own allocation.
constexpr std::size_t kNavCellBytes = 6 + sizeof(GapWord) + 4 + 4;
constexpr std::size_t kNavArrays = 9;
/// The chunk's share of the class's other structures (islands, corridor index, change
/// bookkeeping, the grid's map node): measured below 2 KiB a chunk on the shipped regions.
constexpr std::size_t kNavSharedBytes = 4096;
}  // namespace

std::size_t nav_chunk_bytes() noexcept {
  return sizeof(NavChunk) + kAllocOverheadBytes + kChunkCells * kNavCellBytes +
         kNavArrays * kAllocOverheadBytes + kNavSharedBytes;
}

std::size_t chunk_load_bytes(std::size_t array_chunks, std::size_t uniform_chunks,
                             std::size_t classes) noexcept {
  const std::size_t chunks = add_bytes(array_chunks, uniform_chunks);
  const std::size_t per_chunk = kChunkRecordBytes + classes * nav_chunk_bytes();
  return add_bytes(times_bytes(array_chunks, kChunkArrayBytes), times_bytes(chunks, per_chunk));
}

std::size_t nav_classes(const WorldState& ws) noexcept {
  std::size_t n = 0;
  for (const auto& c : ws.classes) n += c != nullptr;
  return std::max<std::size_t>(n, 1);
}

std::size_t anvil_decode_bytes(std::size_t bytes, std::size_t columns,
                               std::size_t largest_column) noexcept {
  // Section records: a column spans at most kMaxColumnSections chunk rows.
  const std::size_t records = times_bytes(columns, kMaxColumnSections * 48 + 256);
  return add_bytes(add_bytes(times_bytes(bytes, 4), records),
                   times_bytes(largest_column, kNbtTreeBytesPerByte));
}

std::size_t registry_bytes(std::size_t bytes) noexcept {
  return times_bytes(bytes, kJsonBytesPerByte);
}

std::size_t edit_bytes(std::size_t uniform_chunks, std::size_t touched,
                       std::size_t classes) noexcept {
  return add_bytes(times_bytes(uniform_chunks, kChunkArrayBytes),
                   times_bytes(touched, classes * nav_chunk_bytes()));
}

Status check_chunk_load(const WorldState& ws, std::span<const ChunkLoad> batch,
                        const std::string& what, std::string& message) {
  const auto arrays = static_cast<std::size_t>(
      std::count_if(batch.begin(), batch.end(), [](const ChunkLoad& c) { return !c.uniform; }));
  return check_room(chunk_load_bytes(arrays, batch.size() - arrays, nav_classes(ws)),
                    what + " of " + std::to_string(batch.size()) + " chunks", message);
}

Status check_room(std::size_t bytes, const std::string& what, std::string& message) {
  if (heap_has_room(bytes)) return Status::Ok;
  const std::size_t ceiling = heap_ceiling_bytes();
  message = "out of memory: " + what + " needs up to " +
            std::to_string((bytes + kMiB - 1) / kMiB) + " MiB";
  message += ceiling ? ", more than the wasm heap can still give (it ends at " +
                           std::to_string(ceiling / kMiB) + " MiB, shared by every World)"
                     : ", more than the heap can give";
  message += "; nothing changed";
  return Status::OutOfMemory;
}

}  // namespace voxnav::detail
