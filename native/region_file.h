// Anvil region files (.mca): a 4 KiB table of 1024 chunk locations (3-byte sector offset +
// 1-byte sector count), a 4 KiB timestamp table, then 4 KiB sectors. A chunk's sectors start
// with its byte length (4 bytes, big endian, counting the compression byte) and a compression
// type: 1 gzip, 2 zlib, 3 uncompressed (4 = LZ4 and the +128 "external .mcc file" flag are
// reported as unsupported and skipped). Native only (zlib).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/io/anvil_chunk.h"
#include "engine/io/minecraft_registry.h"
#include "voxnav/status.h"

namespace voxnav::native {

/// Inflates gzip or zlib data (auto-detected) into `out`. Errors: BadFormat with zlib's message.
Status inflate_bytes(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out,
                     std::string& message);

struct RegionChunkEntry {
  int index = 0;              ///< slot 0..1023 (local x + 32 * local z)
  std::uint32_t sector = 0;   ///< first sector
  std::uint32_t sectors = 0;  ///< sector count from the table
};

/// Lists the present chunks of a region file after checking the table: every entry must lie
/// inside the file (no sector before 2, none past the end). Errors: BadFormat (file shorter than
/// the 8 KiB header, an entry pointing into the header or past the end of the file).
Status list_region_chunks(std::span<const std::uint8_t> file, std::vector<RegionChunkEntry>& out,
                          std::string& message);

/// Reads and decompresses one chunk's NBT bytes. `skipped` is set (and Ok returned) for chunks
/// this build does not read (LZ4, external .mcc). Errors: BadFormat (length past its sectors or
/// the file, unknown compression, inflate failure).
Status read_region_chunk(std::span<const std::uint8_t> file, const RegionChunkEntry& entry,
                         std::vector<std::uint8_t>& nbt_out, bool& skipped, std::string& message);

struct RegionDecodeStats {
  std::size_t columns = 0;      ///< chunk columns decoded
  std::size_t skipped = 0;      ///< present but not decodable by this build (LZ4, external)
  std::size_t empty_proto = 0;  ///< not-"full" proto-chunks without any block (left out)
  std::int32_t data_version_min = 0, data_version_max = 0;
  std::string first_skip_reason;
};

struct RegionOptions {
  /// Leave out proto-chunks (Status other than "full") that contain no block at all: they are
  /// placeholders the game wrote while generating neighbours, not empty terrain.
  bool skip_empty_proto_chunks = true;
  /// Load only chunks whose Status is "full" (or that predate Status, 1.12).
  bool full_chunks_only = false;
};

/// Decodes every present chunk of a region file. Nothing is loaded anywhere; the caller puts
/// the columns into a Space. Errors: those of list/read/decode, with the chunk named.
Status decode_region(std::span<const std::uint8_t> file, const detail::MinecraftBlocks& blocks,
                     const RegionOptions& options, std::vector<detail::DecodedColumn>& columns,
                     detail::LookupTally& tally, RegionDecodeStats& stats, std::string& message);

}  // namespace voxnav::native
