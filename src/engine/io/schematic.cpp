#include "engine/io/schematic.h"

#include <algorithm>
#include <map>

#include "voxnav/io.h"

namespace voxnav::detail {

namespace {

using nbt::Tag;
using nbt::TagType;

int floor_div16(std::int32_t v) { return v >> kChunkBits; }

}  // namespace

Status decode_sponge_schematic(const Tag& root_in, const MinecraftBlocks& blocks, CellPos origin,
                               DecodedSchematic& out, LookupTally& tally, std::string& message) {
  out = DecodedSchematic{};
  if (!blocks.loaded()) {
    message = "block registry not loaded";
    return Status::InvalidArgument;
  }
  const Tag* root = &root_in;
  if (const Tag* inner = root_in.get("Schematic", TagType::Compound)) root = inner;  // version 3
  if (root->type != TagType::Compound) {
    message = "schematic root is not a compound";
    return Status::BadFormat;
  }
  const int version = static_cast<int>(root->get_int("Version", 0));
  if (version < 1 || version > 3) {
    message = "Sponge schematic version " + std::to_string(version) + " is not supported (1..3)";
    return Status::Unsupported;
  }
  const Tag* w = root->get("Width");
  const Tag* h = root->get("Height");
  const Tag* l = root->get("Length");
  if (w == nullptr || h == nullptr || l == nullptr || !w->is_integer() || !h->is_integer() ||
      !l->is_integer()) {
    message = "schematic needs Width, Height and Length";
    return Status::BadFormat;
  }
  // Sizes are unsigned shorts stored in signed Short tags.
  const int width = static_cast<int>(w->integer & 0xFFFF);
  const int height = static_cast<int>(h->integer & 0xFFFF);
  const int length = static_cast<int>(l->integer & 0xFFFF);
  const Tag* palette = nullptr;
  const Tag* data = nullptr;
  if (version == 3) {
    const Tag* b = root->get("Blocks", TagType::Compound);
    if (b != nullptr) {
      palette = b->get("Palette", TagType::Compound);
      data = b->get("Data", TagType::ByteArray);
    }
  } else {
    palette = root->get("Palette", TagType::Compound);
    data = root->get("BlockData", TagType::ByteArray);
  }
  const std::int64_t volume = static_cast<std::int64_t>(width) * height * length;
  if (volume == 0) {
    message = "schematic is empty (" + std::to_string(width) + "x" + std::to_string(height) + "x" +
              std::to_string(length) + ")";
    return Status::BadFormat;
  }
  if (palette == nullptr || data == nullptr) {
    message = version == 3 ? "schematic v3 needs Blocks.Palette and Blocks.Data"
                           : "schematic needs Palette and BlockData";
    return Status::BadFormat;
  }
  // The far corner in 64 bits: an origin near INT_MAX must not wrap around into range.
  const std::int64_t far_x = std::int64_t{origin.x} + width - 1;
  const std::int64_t far_y = std::int64_t{origin.y} + height - 1;
  const std::int64_t far_z = std::int64_t{origin.z} + length - 1;
  if (!cell_in_range(origin) || far_x > kMaxCellXZ || far_y > kMaxCellY || far_z > kMaxCellXZ) {
    message = "schematic of " + std::to_string(width) + "x" + std::to_string(height) + "x" +
              std::to_string(length) + " placed at (" + std::to_string(origin.x) + ", " +
              std::to_string(origin.y) + ", " + std::to_string(origin.z) +
              ") leaves the space's range (|x|, |z| <= kMaxCellXZ, |y| <= kMaxCellY)";
    return Status::OutOfRange;
  }
  const CellPos max{static_cast<std::int32_t>(far_x), static_cast<std::int32_t>(far_y),
                    static_cast<std::int32_t>(far_z)};
  // Everything a schematic claims is checked before memory is reserved for it: the box in
  // chunks against kMaxLoadChunks, and the block data against the volume (one byte at least per
  // block), so a small file cannot ask for every chunk of a 65535 x 65535 box.
  const auto span16 = [](std::int32_t lo, std::int32_t hi) {
    return static_cast<std::uint64_t>((hi >> kChunkBits) - (lo >> kChunkBits) + 1);
  };
  const std::uint64_t box_chunks =
      span16(origin.x, max.x) * span16(origin.y, max.y) * span16(origin.z, max.z);
  if (box_chunks > kMaxLoadChunks) {
    message = "schematic of " + std::to_string(width) + "x" + std::to_string(height) + "x" +
              std::to_string(length) + " touches " + std::to_string(box_chunks) +
              " chunks, more than " + std::to_string(kMaxLoadChunks) + " (kMaxLoadChunks)";
    return Status::OutOfRange;
  }
  if (static_cast<std::uint64_t>(data->bytes.size()) < static_cast<std::uint64_t>(volume)) {
    message = "schematic block data has " + std::to_string(data->bytes.size()) + " bytes for " +
              std::to_string(volume) + " blocks (at least one byte per block)";
    return Status::BadFormat;
  }

  // ---- palette: name -> index ----
  std::int64_t pal_size = 0;
  for (const auto& [name, idx] : palette->compound) {
    if (!idx.is_integer() || idx.integer < 0 || idx.integer > 0xFFFFF) {
      message = "palette entry '" + name + "' has no valid index";
      return Status::BadFormat;
    }
    pal_size = std::max(pal_size, idx.integer + 1);
  }
  std::vector<std::uint16_t> pal(static_cast<std::size_t>(pal_size), blocks.registry().fallback());
  std::vector<std::string> unknown(static_cast<std::size_t>(pal_size));
  std::vector<bool> defined(static_cast<std::size_t>(pal_size), false);
  for (const auto& [name, idx] : palette->compound) {
    const auto k = static_cast<std::size_t>(idx.integer);
    BlockStateString st;
    std::string perr;
    defined[k] = true;
    if (parse_block_state_string(name, st, perr) != Status::Ok || blocks.block_index(st.name) < 0) {
      unknown[k] = name;
      continue;
    }
    pal[k] = blocks.value_from_state(st, &tally);
  }

  // ---- varint data -> chunks ----
  const CellPos cmin{floor_div16(origin.x), floor_div16(origin.y), floor_div16(origin.z)};
  const CellPos cmax{floor_div16(max.x), floor_div16(max.y), floor_div16(max.z)};
  std::map<std::uint64_t, DecodedChunk> chunks;  // ordered by chunk_key
  for (int cy = cmin.y; cy <= cmax.y; ++cy) {
    for (int cz = cmin.z; cz <= cmax.z; ++cz) {
      for (int cx = cmin.x; cx <= cmax.x; ++cx) {
        DecodedChunk c;
        c.pos = ChunkPos{cx, cy, cz};
        c.data.y = cy;
        c.data.uniform = false;
        c.data.values.assign(kChunkCells, 0);
        chunks.emplace(chunk_key(c.pos), std::move(c));
      }
    }
  }
  std::vector<std::uint64_t> uses(pal.size(), 0);
  const auto& bytes = data->bytes;
  std::size_t p = 0;
  // Chunk lookups are cached per run of x within one chunk.
  for (std::int64_t i = 0; i < volume; ++i) {
    std::uint32_t v = 0;
    int shift = 0;
    for (;;) {
      if (p >= bytes.size()) {
        message = "schematic block data ends after " + std::to_string(i) + " of " +
                  std::to_string(volume) + " blocks";
        return Status::BadFormat;
      }
      const auto b = static_cast<std::uint8_t>(bytes[p++]);
      if (shift > 28) {
        message =
            "schematic block data has a varint longer than 5 bytes at byte " + std::to_string(p);
        return Status::BadFormat;
      }
      v |= static_cast<std::uint32_t>(b & 0x7F) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    if (v >= pal.size() || !defined[v]) {
      message = "schematic block " + std::to_string(i) + " uses palette index " +
                std::to_string(v) + " which the palette does not define";
      return Status::BadFormat;
    }
    ++uses[v];
    const int x = static_cast<int>(i % width);
    const int z = static_cast<int>((i / width) % length);
    const int y = static_cast<int>(i / (static_cast<std::int64_t>(width) * length));
    const CellPos c{origin.x + x, origin.y + y, origin.z + z};
    DecodedChunk& ch = chunks.find(chunk_key(chunk_of(c)))->second;
    ch.data.values[static_cast<std::size_t>(index_in_chunk(c))] = pal[v];
    if (pal[v] != 0) ++out.non_air;
  }
  if (p != bytes.size()) {
    message = "schematic block data has " + std::to_string(bytes.size() - p) +
              " bytes after the last block";
    return Status::BadFormat;
  }
  for (std::size_t k = 0; k < pal.size(); ++k) {
    if (!unknown[k].empty() && uses[k] > 0) tally.note_unknown(unknown[k], uses[k]);
  }
  out.version = version;
  out.data_version = static_cast<std::int32_t>(root->get_int("DataVersion", 0));
  out.width = width;
  out.height = height;
  out.length = length;
  out.min = origin;
  out.max = max;
  for (auto& [key, c] : chunks) {
    const std::uint16_t first = c.data.values[0];
    if (std::all_of(c.data.values.begin(), c.data.values.end(),
                    [&](std::uint16_t v) { return v == first; })) {
      c.data.uniform = true;
      c.data.uniform_value = first;
      c.data.values.clear();
    }
    out.chunks.push_back(std::move(c));
  }
  return Status::Ok;
}

Status load_decoded_chunks(const std::vector<DecodedChunk>& chunks, Space& space) {
  for (const DecodedChunk& c : chunks) {
    const Status st = c.data.uniform ? space.load_uniform_chunk(c.pos, c.data.uniform_value)
                                     : space.load_chunk(c.pos, c.data.values);
    if (st != Status::Ok) return st;
  }
  return Status::Ok;
}

}  // namespace voxnav::detail
