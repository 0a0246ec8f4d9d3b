// Decodes one Anvil chunk column (the NBT of one region-file chunk) into 16^3 sections of
// registry values, ready for Space::load_chunk / Space::load_uniform_chunk.
//
// Formats (chosen by content, see docs/formats.md):
//  - 1.12 and older: Level.Sections[].Blocks / Add / Data (numeric ids + metadata, mapped with
//    MinecraftBlocks::legacy_value; door halves are paired and fence / pane / wall connections
//    recomputed inside the column).
//  - 1.13 - 1.17: Level.Sections[].Palette + BlockStates (entries span longs before DataVersion
//    2566, i.e. 1.13 - 1.15; from 1.16 on an entry never spans two longs).
//  - 1.18+: root sections[].block_states.{palette, data}; yPos; a one-entry palette has no data.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/io/minecraft_registry.h"
#include "engine/io/nbt.h"
#include "engine/world/space.h"
#include "voxnav/status.h"

namespace voxnav::detail {

/// DataVersion from which an index never spans two longs (20w17a, 1.16).
inline constexpr std::int32_t kDataVersionNoSpan = 2566;

struct DecodedSection {
  std::int32_t y = 0;   ///< chunk y (cell y >> 4)
  bool uniform = true;  ///< one value everywhere: use load_uniform_chunk
  std::uint16_t uniform_value = 0;
  std::vector<std::uint16_t> values;  ///< kChunkCells values (index_in_chunk order) when !uniform
};

enum class AnvilFormat : std::uint8_t { Legacy112, Palette113, Sections118 };
const char* anvil_format_name(AnvilFormat f) noexcept;

struct DecodedColumn {
  std::int32_t x = 0, z = 0;      ///< chunk column coordinates (xPos, zPos)
  std::int32_t data_version = 0;  ///< 0 when the chunk has none (before 1.9)
  AnvilFormat format = AnvilFormat::Legacy112;
  std::string status;       ///< generation status ("full", "features" ...; "" before 1.13)
  bool has_blocks = false;  ///< any value other than air
  std::vector<DecodedSection> sections;  ///< ascending y, every section of the column's range

  std::size_t uniform_count() const;
};

/// Decodes a chunk's root compound. Missing sections inside the column's range are air (uniform
/// 0); the range is chunk y 0..15 before 1.18 and yPos..yPos+23 from 1.18 on (widened when a
/// section lies outside). Unknown names / ids become registry.fallback() and are counted per
/// cell in `tally`. Errors: BadFormat (missing xPos/zPos or sections, wrong array sizes, palette
/// index out of range), InvalidArgument (`blocks` not loaded, or a 1.12 chunk without the legacy
/// table). `message` says which field.
Status decode_anvil_chunk(const nbt::Tag& root, const MinecraftBlocks& blocks, DecodedColumn& out,
                          LookupTally& tally, std::string& message);

/// Convenience: parses uncompressed NBT bytes, then decode_anvil_chunk.
Status decode_anvil_chunk_bytes(std::span<const std::uint8_t> nbt_bytes,
                                const MinecraftBlocks& blocks, DecodedColumn& out,
                                LookupTally& tally, std::string& message);

/// Unpacks `count` palette indices of `bits` bits from a long array. `spanning`: 1.13-1.15
/// packing (an index may continue in the next long). Returns false when the array is too short.
bool unpack_indices(std::span<const std::int64_t> longs, int bits, bool spanning, int count,
                    std::uint16_t* out);

/// Loads a decoded column into `space` (load_uniform_chunk for uniform sections).
Status load_decoded_column(const DecodedColumn& col, Space& space);

}  // namespace voxnav::detail
