// voxnav - world files from bytes: Sponge schematics, Anvil regions, Moving AI maps and
// scenarios. The core reads no files and links no zlib: compressed data is inflated by a function
// the caller passes in LoadOptions (voxnav/native/files.h has a zlib one; the npm package uses
// DecompressionStream). Formats and their limits: docs/formats.md.
//
// Loading is all-or-nothing: a file is decoded completely before the first chunk is loaded, so
// on any error the World is unchanged. Names inside a file are looked up in the World's
// Minecraft block registry (World::load_minecraft_blocks); unknown names load as the registry's
// fallback (a solid full block) and are counted in the LoadReport.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxnav/types.h"
#include "voxnav/status.h"

namespace voxnav {

class World;

/// Inflates gzip or zlib data (the format is told by its header) into `out` (replaced), never
/// producing more than `max_out` bytes. Returns Ok, or BadFormat (corrupt or truncated data) /
/// OutOfRange (more than `max_out` bytes) with `error` (may be null) saying why.
using InflateFn = Status (*)(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out,
                             std::size_t max_out, std::string* error);

// ---- Limits of the loaders ----
// A file is checked against these before memory is reserved for what it claims; past one, the
// load returns BadFormat or OutOfRange with a message naming the field and the limit, and the
// World is unchanged.

/// Largest inflated size of one load: a schematic, or all the chunks of one region together
/// (a real region inflates to a few tens of MiB): 256 MiB.
inline constexpr std::size_t kMaxInflatedBytes = std::size_t{1} << 28;

/// Largest world box one load may fill, in 16^3 chunks (a whole 1.18+ region is 32 * 32 * 24 =
/// 24,576; a schematic whose box touches more is refused with OutOfRange). [Limit: 1..65,536]
inline constexpr std::size_t kMaxLoadChunks = std::size_t{1} << 16;

/// Chunk coordinates a loaded chunk may have: the chunk range of voxnav/types.h (kMaxChunkXZ,
/// kMaxChunkY; kMinChunkY = -kMaxChunkY). An Anvil column whose xPos / zPos, a section whose Y or
/// a 1.18 chunk whose yPos is outside is refused with OutOfRange before anything is allocated.
inline constexpr std::int32_t kMinChunkY = -kMaxChunkY;
/// Sections one Anvil column may hold (its whole chunk y range). [Limit: 0..kMaxColumnSections]
inline constexpr std::size_t kMaxColumnSections =
    static_cast<std::size_t>(kMaxChunkY - kMinChunkY + 1);

/// NBT (schematics, Anvil chunks): elements of one List tag. [Limit: 0..kMaxNbtListLength]
inline constexpr std::size_t kMaxNbtListLength = std::size_t{1} << 18;
/// NBT: tags in one document (a real Anvil chunk holds a few thousand; each costs ~200 bytes of
/// memory, so this bounds a document's tree at ~200 MiB). [Limit: 1..kMaxNbtTags]
inline constexpr std::size_t kMaxNbtTags = std::size_t{1} << 20;

struct LoadOptions {
  /// Inflates schematics and gzip / zlib region chunks. Null: those give Unsupported.
  InflateFn inflate = nullptr;
  /// [Limit: 1..kMaxInflatedBytes] inflated bytes per load (a schematic; a region's chunks
  /// together).
  std::size_t max_inflated_bytes = kMaxInflatedBytes;
  /// Cell where a schematic's minimum corner goes.
  CellPos schematic_origin{0, 0, 0};
  /// Anvil: leave out proto-chunks (a Status other than "full") holding no block at all; they
  /// are placeholders the game wrote while generating neighbours, not empty terrain.
  bool skip_empty_proto_chunks = true;
  /// Anvil: load only chunks whose Status is "full" (or that predate Status, 1.12).
  bool full_chunks_only = false;
};

/// An unknown block name met in a file and how many cells held it.
struct UnknownBlock {
  std::string name;
  std::uint64_t count = 0;
};

/// What a load did. On error only `message` is meaningful.
struct LoadReport {
  /// "anvil-1.12", "anvil-1.13", "anvil-1.18", "anvil-mixed", "anvil" (no chunk), "sponge-v1"..
  /// "sponge-v3", "movingai-map".
  std::string format;
  bool has_bounds = false;
  /// Cells the file's content covers (inclusive): whole chunks for Anvil columns, the box for a
  /// schematic, the map's cells for Moving AI. The loaded chunks may reach past a schematic's or
  /// a map's box (chunks are whole).
  CellPos min, max;
  std::size_t columns_loaded = 0;      ///< Anvil chunk columns loaded (0 for other formats)
  std::size_t chunks_loaded = 0;       ///< 16^3 chunks loaded into the World
  std::size_t uniform_chunks = 0;      ///< of those, holding one value everywhere
  std::size_t chunks_skipped = 0;      ///< region chunks this build cannot read (LZ4, .mcc)
  std::size_t empty_proto_chunks = 0;  ///< proto-chunks without blocks, left out
  std::size_t proto_chunks_left_out = 0;  ///< proto-chunks left out by full_chunks_only
  std::int32_t data_version = 0;          ///< highest DataVersion seen (0: none)
  std::int32_t data_version_min = 0;      ///< lowest DataVersion seen (0: none)
  std::uint64_t unknown_blocks = 0;       ///< cells whose name / id was unknown -> fallback
  std::uint64_t unknown_properties = 0;   ///< property values not valid for their block
  /// The first kMaxReportedUnknownNames distinct unknown names, first seen first, with their
  /// cell counts (names beyond those count only in unknown_blocks).
  std::vector<UnknownBlock> unknown_names;
  /// The error on failure; warnings (unknown names, skipped chunks) on success.
  std::string message;
};
inline constexpr std::size_t kMaxReportedUnknownNames = 8;

/// Loads a world file from its bytes, the format told by `name` and content, in this order: a
/// `name` ending in ".mca" / ".mcr" is an Anvil region; a gzip stream is a Sponge schematic;
/// text starting "type " (or a `name` ending in ".map") is a Moving AI map. `name` (a file name,
/// may be empty) is used only for that and in messages. `report` may be null.
/// Returns: Ok; Unsupported (unknown format or version, no inflate function for compressed
/// data); BadFormat (malformed or truncated data); InvalidArgument (no Minecraft registry
/// loaded, a 1.12 region without the 1.12 table, options.max_inflated_bytes out of its limit);
/// OutOfRange (a chunk outside the World's range, inflated data above max_inflated_bytes, a box
/// above kMaxLoadChunks, an NBT list or tag count above kMaxNbtListLength / kMaxNbtTags);
/// OutOfMemory (an allocation failed). On any error the World is unchanged (same chunks, same
/// blocks, same change serial and state hash).
[[nodiscard]] Status load_world_bytes(World& world, std::span<const std::uint8_t> bytes,
                                      std::string_view name, const LoadOptions& options,
                                      LoadReport* report);

/// A Sponge schematic v1..v3 (gzip NBT), minimum corner at options.schematic_origin; cells of the
/// chunks it touches outside its box are air. Returns: as load_world_bytes.
[[nodiscard]] Status load_schematic(World& world, std::span<const std::uint8_t> gzip_bytes,
                                    const LoadOptions& options, LoadReport* report);

/// A Moving AI grid map (.map, "type octile"): map x -> cell x, map y -> cell z, a floor of
/// "stone" at y = 0, blocked tiles walled at y = 1..kMovingAiWallTop; walkers stand at
/// y = kMovingAiStandY. Returns: Ok, BadFormat (the message names line and column), Unsupported
/// (a type other than octile), InvalidArgument (no registry or no "stone" block), OutOfRange.
[[nodiscard]] Status load_movingai_map(World& world, std::string_view text, LoadReport* report);
inline constexpr int kMovingAiWallTop = 4;
inline constexpr int kMovingAiStandY = 1;

/// An Anvil region file (.mca): 1.12 numeric ids, 1.13-1.17 palettes, 1.18+ sections. Needs
/// options.inflate for gzip / zlib chunks. Returns: as load_world_bytes.
[[nodiscard]] Status load_anvil_region(World& world, std::span<const std::uint8_t> region,
                                       const LoadOptions& options, LoadReport* report);

// ---- Anvil in two steps (for hosts that inflate themselves, e.g. the npm package) ----

/// How a region chunk is stored.
enum class RegionCompression : std::uint8_t { Gzip = 1, Zlib = 2, None = 3, Lz4 = 4, External = 128 };

/// One present chunk of a region file.
struct RegionChunk {
  int index = 0;  ///< slot 0..1023 = local x + 32 * local z
  RegionCompression compression = RegionCompression::None;
  std::size_t offset = 0;  ///< first byte of the (compressed) chunk data in the region bytes
  std::size_t size = 0;    ///< its byte count
  /// True for chunks this build cannot read (LZ4, stored in an external .mcc file); `reason`
  /// says which. Such chunks have no data range (offset and size 0).
  bool skipped = false;
  std::string reason;
};

/// Parses a region file's location table and each present chunk's header (no inflating).
/// `out` (replaced) gets the present chunks in slot order. Returns: Ok; BadFormat with `error`
/// (may be null) for a file shorter than its 8 KiB header, a slot pointing into the header or past
/// the end, a chunk length past its sectors, an unknown compression type.
[[nodiscard]] Status list_region_chunks(std::span<const std::uint8_t> region,
                                        std::vector<RegionChunk>* out, std::string* error);

/// Loads Anvil chunk columns given as uncompressed NBT (one span per column, e.g. the inflated
/// ranges list_region_chunks returned). Every column is decoded and checked before any is
/// loaded. options.skip_empty_proto_chunks / full_chunks_only apply; inflate is not used.
/// Returns: as load_world_bytes (a message names the column by its index).
[[nodiscard]] Status load_anvil_columns(World& world,
                                        std::span<const std::span<const std::uint8_t>> columns,
                                        const LoadOptions& options, LoadReport* report);
/// The same for columns back to back in `bytes`: column i is bytes[offsets[i] .. offsets[i + 1]]
/// (offsets: one more entry than columns, from 0 to bytes.size(), never decreasing). Returns: as
/// above; InvalidArgument (offsets not so, the message says how; nothing loaded).
[[nodiscard]] Status load_anvil_columns(World& world, std::span<const std::uint8_t> bytes,
                                        std::span<const std::uint32_t> offsets,
                                        const LoadOptions& options, LoadReport* report);

/// Loads minecraft-data's blocks.pc-1.12.json: the numeric block ids and metadata of 1.12 and
/// older regions, mapped onto the World's Minecraft registry (load it first). Without it, 1.12
/// regions give InvalidArgument. Returns: Ok; InvalidArgument (no Minecraft registry loaded);
/// BadFormat (JSON) with `error` (may be null).
[[nodiscard]] Status load_minecraft_legacy_ids(World& world, std::span<const std::uint8_t> json,
                                               std::string* error);

// ---- Moving AI scenarios ----

/// One row of a .scen file: a search on `map` (map_width x map_height tiles) from start to goal
/// (tile coordinates) whose optimal octile length (1 and sqrt(2), no corner cutting) is
/// `optimal`.
struct MovingAiScenario {
  int bucket = 0;
  std::string map;
  int map_width = 0, map_height = 0;
  int start_x = 0, start_y = 0, goal_x = 0, goal_y = 0;
  double optimal = 0;
};

/// Parses a .scen text: an optional "version 1" line (real files exist without it), then rows of
/// nine tab / space separated fields; CRLF accepted. `out` is replaced. Returns: Ok; BadFormat
/// with `error` (may be null) naming the line; Unsupported (a version other than 1).
[[nodiscard]] Status parse_movingai_scen(std::string_view text,
                                         std::vector<MovingAiScenario>* out, std::string* error);

}  // namespace voxnav
