#include "engine/world/space.h"

#include <algorithm>

namespace voxnav::detail {

namespace {
CellPos chunk_min(ChunkPos p) { return {p.x * kChunkSize, p.y * kChunkSize, p.z * kChunkSize}; }
CellPos chunk_max(ChunkPos p) {
  return {p.x * kChunkSize + 15, p.y * kChunkSize + 15, p.z * kChunkSize + 15};
}
}  // namespace

void Space::make_room(std::size_t new_chunks, std::size_t new_changes) {
  // Growth stays geometric (a load of one chunk at a time must not rehash or copy every time).
  if (log_.capacity() - log_.size() < new_changes)
    log_.reserve(std::max(log_.size() + new_changes, 2 * log_.capacity()));
  const std::size_t want = chunks_.size() + new_chunks;
  if (static_cast<double>(want) > chunks_.max_load_factor() * static_cast<double>(chunks_.bucket_count()))
    chunks_.reserve(std::max(want, 2 * chunks_.size()));
}

void Space::log(Change::Kind kind, CellPos min, CellPos max) {
  ++serial_;
  log_.push_back(Change{serial_, kind, min, max});
}

Status Space::load_chunk(ChunkPos pos, std::span<const std::uint16_t> values) {
  if (values.size() != static_cast<std::size_t>(kChunkCells)) return Status::InvalidArgument;
  if (!chunk_in_range(pos)) return Status::OutOfRange;
  const std::size_t n = registry_->size();
  bool uniform = true;
  for (std::uint16_t v : values) {
    if (v >= n) return Status::OutOfRange;
    uniform = uniform && v == values[0];
  }
  Chunk ch;
  ch.pos = pos;
  ch.uniform = uniform;
  ch.uniform_value = values[0];
  if (!uniform) {
    ch.values = std::make_unique<std::uint16_t[]>(kChunkCells);
    std::copy(values.begin(), values.end(), ch.values.get());
  }
  make_room(1, 1);  // a throw leaves the Space as it was
  log(Change::Kind::Load, chunk_min(pos), chunk_max(pos));
  ch.stamp = ChunkStamp{serial_, 0};
  chunks_[chunk_key(pos)] = std::move(ch);
  return Status::Ok;
}

Status Space::load_chunks(std::span<const ChunkLoad> batch) {
  const std::size_t n = registry_->size();
  for (const ChunkLoad& c : batch) {
    if (!c.uniform && c.values.size() != static_cast<std::size_t>(kChunkCells))
      return Status::InvalidArgument;
    if (!chunk_in_range(c.pos)) return Status::OutOfRange;
    if (c.uniform ? c.uniform_value >= n
                  : std::any_of(c.values.begin(), c.values.end(),
                                [n](std::uint16_t v) { return v >= n; }))
      return Status::OutOfRange;
  }
  // Everything that allocates happens here, before the Space changes: the chunks with their
  // arrays (in a staging map whose nodes move over below), room in the map and in the log.
  std::unordered_map<std::uint64_t, Chunk, KeyHash> staging;
  staging.reserve(batch.size());
  std::uint64_t next_serial = serial_;
  for (const ChunkLoad& c : batch) {
    Chunk ch;
    ch.pos = c.pos;
    ch.stamp = ChunkStamp{++next_serial, 0};  // the serial of its own log entry, as load_chunk
    ch.uniform = c.uniform ||
                 std::all_of(c.values.begin(), c.values.end(),
                             [&](std::uint16_t v) { return v == c.values[0]; });
    ch.uniform_value = c.uniform ? c.uniform_value : c.values[0];
    if (!ch.uniform) {
      ch.values = std::make_unique<std::uint16_t[]>(kChunkCells);
      std::copy(c.values.begin(), c.values.end(), ch.values.get());
    }
    staging[chunk_key(c.pos)] = std::move(ch);  // a repeated position: the later one wins
  }
  make_room(staging.size(), batch.size());
  // Commit: no allocation from here on (node moves into a map with room, moves, log appends
  // within capacity).
  for (const ChunkLoad& c : batch) log(Change::Kind::Load, chunk_min(c.pos), chunk_max(c.pos));
  for (const ChunkLoad& c : batch) {
    const std::uint64_t key = chunk_key(c.pos);
    auto node = staging.extract(key);
    if (node.empty()) continue;  // a repeated position, already moved
    if (auto it = chunks_.find(key); it != chunks_.end())
      it->second = std::move(node.mapped());
    else
      chunks_.insert(std::move(node));
  }
  return Status::Ok;
}

Status Space::load_uniform_chunk(ChunkPos pos, std::uint16_t value) {
  if (!chunk_in_range(pos)) return Status::OutOfRange;
  if (value >= registry_->size()) return Status::OutOfRange;
  Chunk ch;
  ch.pos = pos;
  ch.uniform = true;
  ch.uniform_value = value;
  make_room(1, 1);
  log(Change::Kind::Load, chunk_min(pos), chunk_max(pos));
  ch.stamp = ChunkStamp{serial_, 0};
  chunks_[chunk_key(pos)] = std::move(ch);
  return Status::Ok;
}

Status Space::unload_chunk(ChunkPos pos) {
  if (!chunk_in_range(pos)) return Status::OutOfRange;  // before the key, which keeps 22 bits
  auto it = chunks_.find(chunk_key(pos));
  if (it == chunks_.end()) return Status::NotLoaded;
  chunks_.erase(it);
  log(Change::Kind::Unload, chunk_min(pos), chunk_max(pos));
  return Status::Ok;
}

Chunk& Space::ensure_array(Chunk& ch) {
  if (ch.uniform) {
    ch.values = std::make_unique<std::uint16_t[]>(kChunkCells);
    std::fill(ch.values.get(), ch.values.get() + kChunkCells, ch.uniform_value);
    ch.uniform = false;
  }
  return ch;
}

// Back to the uniform form when every cell holds one value, so that equal blocks always have
// equal storage (navigation's uniform-chunk shortcuts depend only on the blocks).
void Space::compact(Chunk& ch) {
  if (ch.uniform) return;
  const std::uint16_t v = ch.values[0];
  const std::uint16_t* a = ch.values.get();
  bool same = true;
  for (int i = 0; i < kChunkCells; i += 64) {
    std::uint16_t diff = 0;
    for (int k = 0; k < 64; ++k) diff |= static_cast<std::uint16_t>(a[i + k] ^ v);
    if (diff) {
      same = false;
      break;
    }
  }
  if (!same) return;
  ch.uniform = true;
  ch.uniform_value = v;
  ch.values.reset();
}

Status Space::set_block(CellPos c, std::uint16_t value) {
  if (!cell_in_range(c) || value >= registry_->size()) return Status::OutOfRange;
  auto it = chunks_.find(chunk_key(chunk_of(c)));
  if (it == chunks_.end()) return Status::NotLoaded;
  Chunk& ch = it->second;
  if (ch.get(index_in_chunk(c)) == value) return Status::Ok;  // no change, nothing logged
  make_room(0, 1);  // allocations first: a throw leaves the Space as it was
  ensure_array(ch).values[index_in_chunk(c)] = value;
  compact(ch);
  ++ch.stamp.generation;
  log(Change::Kind::SetBlock, c, c);
  return Status::Ok;
}

Status Space::set_box(CellPos mn, CellPos mx, std::uint16_t value) {
  if (!cell_in_range(mn) || !cell_in_range(mx) || value >= registry_->size())
    return Status::OutOfRange;
  if (mn.x > mx.x || mn.y > mx.y || mn.z > mx.z) return Status::InvalidArgument;
  const std::uint64_t cells = box_cell_count(mn, mx);
  if (cells > static_cast<std::uint64_t>(kMaxBoxCells)) return Status::InvalidArgument;
  if (box_chunk_count(mn, mx) > static_cast<std::uint64_t>(kMaxBoxChunks)) return Status::OutOfRange;
  const ChunkPos a = chunk_of(mn), b = chunk_of(mx);
  for (int cy = a.y; cy <= b.y; ++cy)
    for (int cz = a.z; cz <= b.z; ++cz)
      for (int cx = a.x; cx <= b.x; ++cx)
        if (!is_loaded({cx, cy, cz})) return Status::NotLoaded;
  // Every allocation first (arrays for the uniform chunks, room in the log): a throw leaves the
  // Space as it was.
  std::vector<std::unique_ptr<std::uint16_t[]>> arrays;
  for (int cy = a.y; cy <= b.y; ++cy)
    for (int cz = a.z; cz <= b.z; ++cz)
      for (int cx = a.x; cx <= b.x; ++cx)
        if (chunks_.at(chunk_key({cx, cy, cz})).uniform)
          arrays.push_back(std::make_unique<std::uint16_t[]>(kChunkCells));
  make_room(0, 1);
  std::size_t next_array = 0;
  for (int cy = a.y; cy <= b.y; ++cy)
    for (int cz = a.z; cz <= b.z; ++cz)
      for (int cx = a.x; cx <= b.x; ++cx) {
        Chunk& ch = chunks_.at(chunk_key({cx, cy, cz}));
        if (ch.uniform) {
          ch.values = std::move(arrays[next_array++]);
          std::fill(ch.values.get(), ch.values.get() + kChunkCells, ch.uniform_value);
          ch.uniform = false;
        }
        ++ch.stamp.generation;
        const int x0 = std::max(mn.x, cx * 16), x1 = std::min(mx.x, cx * 16 + 15);
        const int y0 = std::max(mn.y, cy * 16), y1 = std::min(mx.y, cy * 16 + 15);
        const int z0 = std::max(mn.z, cz * 16), z1 = std::min(mx.z, cz * 16 + 15);
        for (int y = y0; y <= y1; ++y)
          for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x) ch.values[index_in_chunk({x, y, z})] = value;
        compact(ch);
      }
  log(Change::Kind::SetBox, mn, mx);
  return Status::Ok;
}

std::uint16_t Space::block(CellPos c) const {
  const Chunk* ch = chunk(chunk_of(c));
  return ch ? ch->get(index_in_chunk(c)) : 0;
}

const Chunk* Space::chunk(ChunkPos p) const {
  if (!chunk_in_range(p)) return nullptr;  // its key would name another chunk
  auto it = chunks_.find(chunk_key(p));
  return it == chunks_.end() ? nullptr : &it->second;
}

void Space::changes_since(std::uint64_t after, std::vector<Change>& out) const {
  auto it = std::upper_bound(log_.begin(), log_.end(), after,
                             [](std::uint64_t s, const Change& c) { return s < c.serial; });
  out.insert(out.end(), it, log_.end());
}

void Space::trim_changes(std::uint64_t upto) {
  auto it = std::upper_bound(log_.begin(), log_.end(), upto,
                             [](std::uint64_t s, const Change& c) { return s < c.serial; });
  log_.erase(log_.begin(), it);
}

std::vector<ChunkPos> Space::loaded_chunks() const {
  std::vector<std::uint64_t> keys;
  keys.reserve(chunks_.size());
  for (const auto& [k, ch] : chunks_) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  std::vector<ChunkPos> out;
  out.reserve(keys.size());
  for (std::uint64_t k : keys) out.push_back(chunks_.at(k).pos);
  return out;
}

}  // namespace voxnav::detail
