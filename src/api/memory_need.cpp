#include "memory_need.h"

#include <algorithm>

#include "engine/classify/nav_grid.h"
#include "engine/nav/world_state.h"
#include "voxnav/io.h"
#include "voxnav/memory.h"

namespace voxnav::detail {

namespace {
constexpr std::size_t kMiB = std::size_t{1} << 20;
}  // namespace

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

namespace {
/// What the budget needs to know of a chunk: absent, or its kind.
enum class Kind : std::uint8_t { Absent, Mixed, Mostly, Open, Full, Other };

Kind value_kind(const WorldState& ws, std::uint16_t v) noexcept {
  if (!ws.registry.valid(v) || ws.registry.traits(v) != 0) return Kind::Other;
  const auto& boxes = ws.registry.type(v).boxes;
  if (boxes.empty()) return Kind::Open;
  if (boxes.size() == 1) {
    const Box& b = boxes[0];
    if (b.min[0] == 0 && b.min[1] == 0 && b.min[2] == 0 && b.max[0] == 1 && b.max[1] == 1 &&
        b.max[2] == 1)
      return Kind::Full;
  }
  return Kind::Other;
}
Kind loaded_kind(const WorldState& ws, ChunkPos p) noexcept {
  if (!chunk_in_range(p)) return Kind::Absent;
  const Chunk* c = ws.space.chunk(p);
  if (!c) return Kind::Absent;
  return c->uniform ? value_kind(ws, c->uniform_value) : Kind::Mixed;
}
Kind batch_kind(const WorldState& ws, const ChunkLoad& c) noexcept {
  if (c.uniform) return value_kind(ws, c.uniform_value);
  if (c.values.empty()) return Kind::Mixed;
  // Uniform, mostly uniform (the first value, or the first that differs, in all but
  // kMostlyUniformOthers cells), or mixed.
  const std::uint16_t v = c.values[0];
  std::uint16_t w = v;
  std::size_t first = 0, second = 0;
  for (const std::uint16_t x : c.values) {
    if (x == v) ++first;
    else if (w == v || x == w) w = x, ++second;
  }
  if (first == c.values.size()) return value_kind(ws, v);
  const std::size_t most = std::max(first, second);
  return c.values.size() - most <= kMostlyUniformOthers ? Kind::Mostly : Kind::Mixed;
}
/// Calls f(neighbour) for the 26 neighbours of p that are in range.
template <class F>
void for_neighbours(ChunkPos p, F&& f) {
  for (int dy = -1; dy <= 1; ++dy)
    for (int dz = -1; dz <= 1; ++dz)
      for (int dx = -1; dx <= 1; ++dx) {
        if (!dx && !dy && !dz) continue;
        const ChunkPos n{p.x + dx, p.y + dy, p.z + dz};
        if (chunk_in_range(n)) f(n);
      }
}
std::size_t per_class(const WorldState& ws, std::size_t bytes) noexcept {
  return times_bytes(nav_classes(ws), bytes);
}
}  // namespace

std::size_t agent_slot_bytes() noexcept { return sizeof(AgentRecord); }

std::size_t agent_growth_bytes(std::size_t size, std::size_t free, std::size_t capacity,
                               std::size_t n) noexcept {
  const std::size_t added = n > free ? n - free : 0;
  const std::size_t need = add_bytes(size, added);
  if (need <= capacity) return 0;
  std::size_t cap = std::max<std::size_t>(capacity, 1);
  while (cap < need) cap = cap > static_cast<std::size_t>(-1) / 2 ? need : 2 * cap;
  return times_bytes(times_bytes(cap, 2), agent_slot_bytes());
}

std::size_t request_slot_bytes() noexcept { return 2 * sizeof(RequestSlot) + 256; }

bool quiet_value(const WorldState& ws, std::uint16_t value) noexcept {
  const Kind k = value_kind(ws, value);
  return k == Kind::Open || k == Kind::Full;
}

BudgetCharge chunk_load_charge(const WorldState& ws, std::span<const ChunkLoad> batch) {
  BudgetCharge charge;
  std::vector<std::pair<std::uint64_t, Kind>> in;  // the batch, sorted by key
  in.reserve(batch.size());
  std::size_t arrays = 0;
  std::vector<Kind> kinds;
  kinds.reserve(batch.size());
  for (const ChunkLoad& c : batch) {
    kinds.push_back(batch_kind(ws, c));
    arrays += kinds.back() == Kind::Mixed || kinds.back() == Kind::Mostly;
    in.push_back({chunk_key(c.pos), kinds.back()});
  }
  std::sort(in.begin(), in.end());
  // Kind::Absent sorts first: lower_bound finds the batch's entry of a key, if any.
  const auto in_batch = [&](std::uint64_t key) {
    const auto it = std::lower_bound(in.begin(), in.end(), std::pair{key, Kind::Absent});
    return it != in.end() && it->first == key ? &*it : nullptr;
  };
  const auto kind_at = [&](ChunkPos p) {
    const auto* e = in_batch(chunk_key(p));
    return e ? e->second : loaded_kind(ws, p);
  };
  std::size_t quiet = 0, built = 0, mostly = 0;
  std::vector<std::uint64_t> woken;  // loaded open chunks beside a batch chunk that is not open
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const ChunkLoad& c = batch[i];
    const Kind k = kinds[i];
    bool q = k == Kind::Full;
    if (k == Kind::Open) {
      q = true;
      for_neighbours(c.pos, [&](ChunkPos n) {
        const Kind nk = kind_at(n);
        q = q && (nk == Kind::Absent || nk == Kind::Open);
      });
    }
    if (k != Kind::Open)
      for_neighbours(c.pos, [&](ChunkPos n) {
        const std::uint64_t key = chunk_key(n);
        if (loaded_kind(ws, n) == Kind::Open && !in_batch(key) && !ws.budget_chunks.count(key))
          woken.push_back(key);
      });
    (q ? quiet : k == Kind::Mostly ? mostly : built) += 1;
    // A quiet or mostly uniform chunk is charged again, as mixed, when edited.
    if (!q && k != Kind::Mostly) charge.keys.push_back(chunk_key(c.pos));
  }
  std::sort(woken.begin(), woken.end());
  woken.erase(std::unique(woken.begin(), woken.end()), woken.end());
  built += woken.size();
  charge.keys.insert(charge.keys.end(), woken.begin(), woken.end());
  charge.now = add_bytes(times_bytes(arrays, kChunkArrayBytes),
                         times_bytes(batch.size(), kChunkRecordBytes));
  charge.pending = per_class(
      ws, add_bytes(add_bytes(times_bytes(built, kNavBuildPeakBytes),
                              times_bytes(mostly, kNavMostlyUniformPeakBytes)),
                    times_bytes(quiet, kNavQuietChunkBytes)));
  return charge;
}

BudgetCharge edit_charge(const WorldState& ws, std::span<const ChunkPos> touched) {
  BudgetCharge charge;
  std::size_t uniform = 0;
  std::vector<std::uint64_t> keys;
  for (const ChunkPos& p : touched) {
    const Chunk* c = ws.space.chunk(p);
    uniform += c && c->uniform;
    keys.push_back(chunk_key(p));
    for_neighbours(p, [&](ChunkPos n) {
      if (loaded_kind(ws, n) == Kind::Open) keys.push_back(chunk_key(n));
    });
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (const std::uint64_t k : keys)
    if (!ws.budget_chunks.count(k)) charge.keys.push_back(k);
  charge.now = times_bytes(uniform, kChunkArrayBytes);
  charge.pending = per_class(ws, times_bytes(charge.keys.size(), kNavBuildPeakBytes));
  return charge;
}

BudgetCharge class_charge(const WorldState& ws) {
  BudgetCharge charge;
  std::size_t quiet = 0, built = 0;
  for (const ChunkPos& p : ws.space.loaded_chunks()) {
    const Kind k = loaded_kind(ws, p);
    bool q = k == Kind::Full;
    if (k == Kind::Open) {
      q = true;
      for_neighbours(p, [&](ChunkPos n) {
        const Kind nk = loaded_kind(ws, n);
        q = q && (nk == Kind::Absent || nk == Kind::Open);
      });
    }
    (q ? quiet : built) += 1;
  }
  charge.now = add_bytes(times_bytes(built, kNavBuildPeakBytes), times_bytes(quiet, kNavQuietChunkBytes));
  return charge;
}

Status check_charge(const WorldState& ws, const BudgetCharge& charge, const std::string& what,
                    std::string& message) {
  const std::size_t bytes = add_bytes(ws.budget_pending_bytes, add_bytes(charge.now, charge.pending));
  std::string w = what;
  if (ws.budget_pending_bytes >= kMiB)
    w += " (with " + std::to_string(ws.budget_pending_bytes / kMiB) +
         " MiB of navigation builds already pending for the next update)";
  return check_room(bytes, w, message);
}

void commit_charge(WorldState& ws, BudgetCharge&& charge) {
  ws.budget_pending_bytes = add_bytes(ws.budget_pending_bytes, charge.pending);
  for (const std::uint64_t k : charge.keys) ws.budget_chunks.insert(k);
}

void reset_budget(WorldState& ws) {
  // The builds still queued for the next update. Deferred chunks (a build radius, waiting for an
  // agent to come near) are not: most never become due, and charging them each as a mixed build
  // made a World with many far chunks refuse every call although nothing was to be built. Those
  // that become due are built a few at a time, as agents walk, out of the headroom.
  std::size_t pending = 0;
  for (const NavWorld* n : ws.navs()) pending += n->pending_builds();
  ws.budget_pending_bytes = times_bytes(pending, kNavBuildPeakBytes);
  ws.budget_chunks.clear();
}

void uncharge_unloaded(WorldState& ws, ChunkPos pos) {
  // Every key in budget_chunks was charged a mixed build for each class (chunk_load_charge,
  // edit_charge); quiet and mostly uniform chunks keep their smaller charge until the update.
  if (ws.budget_chunks.erase(chunk_key(pos)) == 0) return;
  const std::size_t one = per_class(ws, kNavBuildPeakBytes);
  ws.budget_pending_bytes = ws.budget_pending_bytes > one ? ws.budget_pending_bytes - one : 0;
}

Status check_chunk_load(const WorldState& ws, std::span<const ChunkLoad> batch,
                        const std::string& what, std::string& message, BudgetCharge& charge) {
  charge = chunk_load_charge(ws, batch);
  return check_charge(ws, charge, what + " of " + std::to_string(batch.size()) + " chunks", message);
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
