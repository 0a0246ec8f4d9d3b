#include "region_file.h"

#include "engine/io/region.h"
#include "voxnav/native/files.h"

#include <algorithm>

namespace voxnav::native {

namespace {

constexpr std::size_t kSector = 4096;

std::uint32_t be32(const std::uint8_t* p) {
  return (static_cast<std::uint32_t>(p[0]) << 24) | (static_cast<std::uint32_t>(p[1]) << 16) |
         (static_cast<std::uint32_t>(p[2]) << 8) | static_cast<std::uint32_t>(p[3]);
}

std::string slot_name(int index) {
  return "chunk slot " + std::to_string(index) + " (local " + std::to_string(index & 31) + ", " +
         std::to_string(index >> 5) + ")";
}

}  // namespace

Status inflate_bytes(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out,
                     std::string& message) {
  return zlib_inflate(in, out, kMaxInflatedBytes, &message);
}

Status list_region_chunks(std::span<const std::uint8_t> file, std::vector<RegionChunkEntry>& out,
                          std::string& message) {
  out.clear();
  if (file.size() < 2 * kSector) {
    message = "region file of " + std::to_string(file.size()) +
              " bytes is shorter than its 8192-byte header";
    return Status::BadFormat;
  }
  const std::size_t total_sectors = (file.size() + kSector - 1) / kSector;
  for (int i = 0; i < 1024; ++i) {
    const std::uint32_t loc = be32(file.data() + static_cast<std::size_t>(i) * 4);
    const std::uint32_t sector = loc >> 8, count = loc & 0xFF;
    if (sector == 0 && count == 0) continue;
    if (sector < 2) {
      message =
          slot_name(i) + " points at sector " + std::to_string(sector) + ", inside the header";
      return Status::BadFormat;
    }
    if (count == 0 || static_cast<std::size_t>(sector) + count > total_sectors) {
      message = slot_name(i) + " occupies sectors " + std::to_string(sector) + ".." +
                std::to_string(sector + count) + " but the file has " +
                std::to_string(total_sectors) + " sectors (truncated file?)";
      return Status::BadFormat;
    }
    out.push_back(RegionChunkEntry{i, sector, count});
  }
  return Status::Ok;
}

Status read_region_chunk(std::span<const std::uint8_t> file, const RegionChunkEntry& e,
                         std::vector<std::uint8_t>& nbt_out, bool& skipped, std::string& message) {
  skipped = false;
  nbt_out.clear();
  const std::size_t start = static_cast<std::size_t>(e.sector) * kSector;
  if (start + 5 > file.size()) {
    message = slot_name(e.index) + ": header past the end of the file";
    return Status::BadFormat;
  }
  const std::uint32_t length = be32(file.data() + start);
  const std::uint8_t type = file[start + 4];
  if (length < 1 ||
      static_cast<std::size_t>(length) + 4 > static_cast<std::size_t>(e.sectors) * kSector ||
      start + 4 + length > file.size()) {
    message = slot_name(e.index) + ": length " + std::to_string(length) + " exceeds its " +
              std::to_string(e.sectors) + " sectors or the file (truncated file?)";
    return Status::BadFormat;
  }
  if ((type & 0x80) != 0) {
    skipped = true;
    message = slot_name(e.index) + ": stored in an external .mcc file (not supported)";
    return Status::Ok;
  }
  const std::span<const std::uint8_t> payload = file.subspan(start + 5, length - 1);
  switch (type) {
    case 1:
    case 2: {
      std::string zmsg;
      if (inflate_bytes(payload, nbt_out, zmsg) != Status::Ok) {
        message = slot_name(e.index) + ": " + zmsg;
        return Status::BadFormat;
      }
      return Status::Ok;
    }
    case 3:
      nbt_out.assign(payload.begin(), payload.end());
      return Status::Ok;
    case 4:
      skipped = true;
      message = slot_name(e.index) + ": LZ4 compression (not supported)";
      return Status::Ok;
    default:
      message = slot_name(e.index) + ": unknown compression type " + std::to_string(type);
      return Status::BadFormat;
  }
}

Status decode_region(std::span<const std::uint8_t> file, const detail::MinecraftBlocks& blocks,
                     const RegionOptions& options, std::vector<detail::DecodedColumn>& columns,
                     detail::LookupTally& tally, RegionDecodeStats& stats, std::string& message) {
  LoadOptions o;
  o.inflate = &zlib_inflate;
  o.skip_empty_proto_chunks = options.skip_empty_proto_chunks;
  o.full_chunks_only = options.full_chunks_only;
  detail::RegionDecodeStats st;
  const Status s = detail::decode_region(file, blocks, o, columns, tally, st, message);
  stats.columns = st.columns;
  stats.skipped = st.skipped;
  stats.empty_proto = st.empty_proto;
  stats.data_version_min = st.data_version_min;
  stats.data_version_max = st.data_version_max;
  stats.first_skip_reason = st.first_skip_reason;
  return s;
}

}  // namespace voxnav::native
