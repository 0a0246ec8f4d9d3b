// Anvil region files (.mca): a 4 KiB table of 1024 chunk locations (3-byte sector offset +
// 1-byte sector count), a 4 KiB timestamp table, then 4 KiB sectors. A chunk's sectors start
// with its byte length (4 bytes, big endian, counting the compression byte) and a compression
// type: 1 gzip, 2 zlib, 3 uncompressed (4 = LZ4 and the +128 "external .mcc file" flag are
// reported as skipped). Inflating is the caller's: it passes an InflateFn (voxnav/io.h).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/io/anvil_chunk.h"
#include "engine/io/minecraft_registry.h"
#include "voxnav/io.h"
#include "voxnav/status.h"

namespace voxnav::detail {

inline constexpr std::size_t kRegionSector = 4096;
inline constexpr int kRegionSlots = 1024;

/// The present chunks of a region file, checked against the file (see voxnav::list_region_chunks).
Status parse_region_table(std::span<const std::uint8_t> file, std::vector<RegionChunk>& out,
                          std::string& message);

struct RegionDecodeStats {
  std::size_t columns = 0;      ///< chunk columns decoded and kept
  std::size_t skipped = 0;      ///< present but not readable by this build (LZ4, external)
  std::size_t empty_proto = 0;  ///< not-"full" proto-chunks without any block (left out)
  std::size_t proto_left_out = 0;  ///< proto-chunks left out by full_chunks_only
  std::int32_t data_version_min = 0, data_version_max = 0;
  std::string first_skip_reason;
};

/// Whether a decoded column is kept under the options; counts the ones left out in `stats`.
bool keep_column(const DecodedColumn& col, const LoadOptions& options, RegionDecodeStats& stats);

/// Decodes every present chunk of a region file, inflating with options.inflate. Nothing is
/// loaded anywhere. Errors: those of parse_region_table, BadFormat / OutOfRange from inflating
/// or decoding (the chunk named), Unsupported when a compressed chunk meets a null inflate.
Status decode_region(std::span<const std::uint8_t> file, const MinecraftBlocks& blocks,
                     const LoadOptions& options, std::vector<DecodedColumn>& columns,
                     LookupTally& tally, RegionDecodeStats& stats, std::string& message);

}  // namespace voxnav::detail
