#include "engine/io/region.h"

#include <algorithm>

namespace voxnav::detail {

namespace {

std::uint32_t be32(const std::uint8_t* p) {
  return (static_cast<std::uint32_t>(p[0]) << 24) | (static_cast<std::uint32_t>(p[1]) << 16) |
         (static_cast<std::uint32_t>(p[2]) << 8) | static_cast<std::uint32_t>(p[3]);
}

std::string slot_name(int index) {
  return "chunk slot " + std::to_string(index) + " (local " + std::to_string(index & 31) + ", " +
         std::to_string(index >> 5) + ")";
}

}  // namespace

Status parse_region_table(std::span<const std::uint8_t> file, std::vector<RegionChunk>& out,
                          std::string& message) {
  out.clear();
  if (file.size() < 2 * kRegionSector) {
    message = "region file of " + std::to_string(file.size()) +
              " bytes is shorter than its 8192-byte header";
    return Status::BadFormat;
  }
  const std::size_t total_sectors = (file.size() + kRegionSector - 1) / kRegionSector;
  for (int i = 0; i < kRegionSlots; ++i) {
    const std::uint32_t loc = be32(file.data() + static_cast<std::size_t>(i) * 4);
    const std::uint32_t sector = loc >> 8, count = loc & 0xFF;
    if (sector == 0 && count == 0) continue;
    if (sector < 2) {
      message =
          slot_name(i) + " points at sector " + std::to_string(sector) + ", inside the header";
      out.clear();
      return Status::BadFormat;
    }
    if (count == 0 || static_cast<std::size_t>(sector) + count > total_sectors) {
      message = slot_name(i) + " occupies sectors " + std::to_string(sector) + ".." +
                std::to_string(sector + count) + " but the file has " +
                std::to_string(total_sectors) + " sectors (truncated file?)";
      out.clear();
      return Status::BadFormat;
    }
    const std::size_t start = static_cast<std::size_t>(sector) * kRegionSector;
    if (start + 5 > file.size()) {
      message = slot_name(i) + ": header past the end of the file";
      out.clear();
      return Status::BadFormat;
    }
    const std::uint32_t length = be32(file.data() + start);
    const std::uint8_t type = file[start + 4];
    if (length < 1 || static_cast<std::size_t>(length) + 4 > std::size_t{count} * kRegionSector ||
        start + 4 + length > file.size()) {
      message = slot_name(i) + ": length " + std::to_string(length) + " exceeds its " +
                std::to_string(count) + " sectors or the file (truncated file?)";
      out.clear();
      return Status::BadFormat;
    }
    RegionChunk c;
    c.index = i;
    if ((type & 0x80) != 0) {
      c.compression = RegionCompression::External;
      c.skipped = true;
      c.reason = slot_name(i) + ": stored in an external .mcc file (not supported)";
    } else if (type == 4) {
      c.compression = RegionCompression::Lz4;
      c.skipped = true;
      c.reason = slot_name(i) + ": LZ4 compression (not supported)";
    } else if (type >= 1 && type <= 3) {
      c.compression = static_cast<RegionCompression>(type);
      c.offset = start + 5;
      c.size = length - 1;
    } else {
      message = slot_name(i) + ": unknown compression type " + std::to_string(type);
      out.clear();
      return Status::BadFormat;
    }
    out.push_back(std::move(c));
  }
  return Status::Ok;
}

bool keep_column(const DecodedColumn& col, const LoadOptions& options, RegionDecodeStats& stats) {
  const bool proto = !col.status.empty() && col.status != "full" && col.status != "minecraft:full";
  if (options.full_chunks_only && proto) {
    ++stats.proto_left_out;
    return false;
  }
  if (options.skip_empty_proto_chunks && proto && !col.has_blocks) {
    ++stats.empty_proto;
    return false;
  }
  if (stats.columns == 0) {
    stats.data_version_min = stats.data_version_max = col.data_version;
  } else {
    stats.data_version_min = std::min(stats.data_version_min, col.data_version);
    stats.data_version_max = std::max(stats.data_version_max, col.data_version);
  }
  ++stats.columns;
  return true;
}

Status decode_region(std::span<const std::uint8_t> file, const MinecraftBlocks& blocks,
                     const LoadOptions& options, std::vector<DecodedColumn>& columns,
                     LookupTally& tally, RegionDecodeStats& stats, std::string& message) {
  columns.clear();
  stats = RegionDecodeStats{};
  std::vector<RegionChunk> entries;
  if (Status s = parse_region_table(file, entries, message); s != Status::Ok) return s;
  std::vector<std::uint8_t> inflated;
  LookupTally local;
  // options.max_inflated_bytes bounds the region's chunks together (time and memory of a file
  // whose every chunk is a zlib bomb), not each one.
  std::size_t inflated_total = 0;
  for (const RegionChunk& e : entries) {
    if (e.skipped) {
      if (stats.skipped++ == 0) stats.first_skip_reason = e.reason;
      continue;
    }
    std::span<const std::uint8_t> nbt_bytes = file.subspan(e.offset, e.size);
    if (e.compression != RegionCompression::None) {
      if (options.inflate == nullptr) {
        message = slot_name(e.index) + ": compressed, and no inflate function was given";
        columns.clear();
        return Status::Unsupported;
      }
      std::string zmsg;
      const std::size_t budget = options.max_inflated_bytes - inflated_total;
      Status s = budget == 0 ? Status::OutOfRange
                             : options.inflate(nbt_bytes, inflated, budget, &zmsg);
      if (s == Status::Ok && inflated.size() > budget) s = Status::OutOfRange;  // a lax inflater
      if (s != Status::Ok) {
        message = slot_name(e.index) + ": " + zmsg;
        if (s == Status::OutOfRange)
          message = slot_name(e.index) + ": the region's chunks inflate to more than " +
                    std::to_string(options.max_inflated_bytes) + " bytes together (max_inflated_bytes)";
        columns.clear();
        return s;
      }
      inflated_total += inflated.size();
      nbt_bytes = inflated;
    }
    DecodedColumn col;
    LookupTally chunk_tally;
    std::string msg;
    if (Status s = decode_anvil_chunk_bytes(nbt_bytes, blocks, col, chunk_tally, msg);
        s != Status::Ok) {
      message = slot_name(e.index) + ": " + msg;
      columns.clear();
      return s;
    }
    if (!keep_column(col, options, stats)) continue;
    local.merge(chunk_tally);
    columns.push_back(std::move(col));
  }
  tally.merge(local);
  return Status::Ok;
}

}  // namespace voxnav::detail
