// The real Minecraft block registry, built from minecraft-data JSON bytes.
//
// Numbering: every block state of blocks.pc-1.21.1.json gets its own registry value
//   value = kStateValueOffset + state id      (kStateValueOffset = 2: values 0 and 1 are the
//                                              registry's own "air" and "voxnav:unknown")
// so a state's value never changes between runs. Lookups (names, "name[props]" strings, legacy
// numeric ids, palettes of world files) resolve the three air blocks (air, cave_air, void_air) to
// value 0, the registry's air, so empty space is always 0; their own state values stay in the
// registry but decoders never produce them. Unknown names resolve to registry.fallback() and are
// counted in a LookupTally (never silently dropped). See docs/formats.md.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/world/registry.h"
#include "voxnav/status.h"

namespace voxnav::detail {

/// Counts what lookups could not resolve. Deterministic: names are kept in first-seen order.
struct LookupTally {
  static constexpr std::size_t kMaxNames = 8;
  std::uint64_t unknown_blocks = 0;      ///< blocks (cells or lookups) that became fallback()
  std::uint64_t unknown_properties = 0;  ///< property values not valid for the block (default used)
  std::vector<std::string> first_unknown;  ///< first kMaxNames distinct unknown names
  std::vector<std::uint64_t> first_unknown_counts;  ///< how many blocks each of them named

  void note_unknown(std::string_view name, std::uint64_t count = 1);
  void merge(const LookupTally& other);
};

/// One property of a block ("facing" with values north, south, ...).
struct McProperty {
  std::string name;
  std::vector<std::string> values;  ///< bool properties: {"true", "false"} (minecraft order)
};

/// One block of blocks.json.
struct McBlock {
  std::string name;  ///< without "minecraft:"
  std::uint32_t min_state = 0, max_state = 0, default_state = 0;
  std::vector<McProperty> properties;  ///< the LAST property varies fastest in the state id
};

/// A parsed "name[prop=value,...]" (name without the "minecraft:" prefix).
struct BlockStateString {
  std::string name;
  std::vector<std::pair<std::string, std::string>> properties;
};
/// Parses "minecraft:oak_door[half=upper,open=true]", "stone", "oak_slab[]". Errors: BadFormat
/// (empty name, missing ']' , a property without '=').
Status parse_block_state_string(std::string_view s, BlockStateString& out, std::string& message);

/// Name -> block -> state lookups over a registry built by `load`.
class MinecraftBlocks {
 public:
  static constexpr std::uint16_t kStateValueOffset = 2;

  /// produce(), registry.install(), bind(): replaces `registry` by one value per block state of `blocks_json`
  /// (blocks.pc-1.21.1.json), with collision boxes from `shapes_json`
  /// (blockCollisionShapes.pc-1.20.5.json) and navigation traits. Keeps a pointer to `registry`.
  /// Errors: BadFormat (not JSON, missing fields, state ids not dense / too many for uint16).
  /// `message` gets a summary ("1060 blocks, 26684 states, 0 blocks without shapes").
  Status load(std::span<const std::uint8_t> blocks_json, std::span<const std::uint8_t> shapes_json,
              BlockRegistry& registry, std::string& message);
  /// The producer: parses the JSON into `out`, one BlockDef per state in state order after
  /// value 0 "air" and value 1 "voxnav:unknown" (the fallback), with collision boxes (clipped to
  /// the cell) and traits; the state ids' doors toggle `open`. Keeps the parsed blocks for
  /// bind(). Errors as load.
  Status produce(std::span<const std::uint8_t> blocks_json,
                 std::span<const std::uint8_t> shapes_json, BlockRegistryDef& out,
                 std::string& message);
  /// After produce(), once `registry` holds what produce made: the name and state lookups
  /// (a block name finds its default state). `message` gets the summary.
  void bind(BlockRegistry& registry, std::string& message);
  /// Loads the pre-1.13 numeric id table from blocks.pc-1.12.json (needs `load` first).
  /// Errors: BadFormat, InvalidArgument (load not called).
  Status load_legacy(std::span<const std::uint8_t> blocks_112_json, std::string& message);

  /// Points this lookup at `registry`, which must hold exactly what `load` put into the
  /// registry it was given (e.g. that registry after a move or copy). Avoids parsing the JSON
  /// twice when the registry is moved into its final place.
  void rebind(BlockRegistry& registry) { registry_ = &registry; }

  bool loaded() const { return registry_ != nullptr; }
  const BlockRegistry& registry() const { return *registry_; }
  const std::vector<McBlock>& blocks() const { return blocks_; }
  /// Blocks of 1.21.1 that had no entry in the shapes file (fell back to boundingBox).
  std::size_t blocks_without_shapes() const { return blocks_without_shapes_; }

  /// Index into blocks() of a name (with or without "minecraft:"; a few renamed names such as
  /// "grass" -> "short_grass" are accepted, see docs/formats.md), or -1.
  int block_index(std::string_view name) const;

  static std::uint16_t value_of_state(std::uint32_t state_id) {
    return static_cast<std::uint16_t>(state_id + kStateValueOffset);
  }
  /// Registry value of a state id as decoders produce it (air states -> 0).
  std::uint16_t state_value(std::uint32_t state_id) const;
  /// State id of a registry value, or -1 for values that are not Minecraft states (0, 1).
  std::int64_t state_of_value(std::uint16_t v) const;

  /// Value of block `name` with the given properties; properties not given take the block's
  /// default-state value, unknown property names are ignored, invalid values use the default and
  /// count in `tally->unknown_properties`. Unknown names -> registry.fallback(), counted.
  std::uint16_t value(std::string_view name,
                      std::span<const std::pair<std::string, std::string>> properties,
                      LookupTally* tally = nullptr) const;
  /// Default state of a block name (fallback + counted when unknown).
  std::uint16_t default_value(std::string_view name, LookupTally* tally = nullptr) const;
  /// Value of a "name[prop=value,...]" string (fallback + counted when unknown or malformed).
  std::uint16_t value_from_string(std::string_view state, LookupTally* tally = nullptr) const;
  /// Value of a state given as an NBT-style palette entry already split into name + properties.
  std::uint16_t value_from_state(const BlockStateString& s, LookupTally* tally = nullptr) const {
    return value(s.name, s.properties, tally);
  }
  /// "name[prop=value,...]" of a registry value ("air" for 0, "voxnav:unknown" for fallback).
  std::string state_string(std::uint16_t v) const;
  /// Value of one property of a registry value ("" when the block has no such property).
  std::string_view property(std::uint16_t v, std::string_view prop) const;

  // ---- pre-1.13 numeric ids (needs load_legacy) ----
  bool legacy_loaded() const { return !legacy_.empty(); }
  /// Value of numeric id `id` (0..4095) with metadata `meta` (0..15); fallback when unmapped.
  std::uint16_t legacy_value(int id, int meta) const;
  /// Whether `legacy_value(id, meta)` is a fallback for an unknown/unmapped id.
  bool legacy_known(int id, int meta) const;
  /// 1.12 name of a numeric id ("" when unknown), for reports.
  std::string_view legacy_name(int id) const;
  /// Doors and tall plants keep half of their state in each of their two blocks (1.12 metadata).
  bool legacy_two_half(int id) const;
  /// Value of a two-half block given the metadata of both halves and which one this block is.
  std::uint16_t legacy_two_half_value(int id, int lower_meta, int upper_meta, bool upper) const;
  /// 1.12 blocks whose connections were not stored (fences, panes, walls): 0 none, 1 fence,
  /// 2 pane, 3 wall. Decoders recompute their north/east/south/west from the neighbours.
  int legacy_connect_kind(int id) const;

 private:
  std::uint32_t state_index(const McBlock& b,
                            std::span<const std::pair<std::string, std::string>> props,
                            LookupTally* tally) const;
  std::uint16_t value_from_legacy_string(const std::string& s) const;

  BlockRegistry* registry_ = nullptr;
  std::vector<McBlock> blocks_;
  // produce() -> bind()
  std::vector<McBlock> list_;
  std::uint32_t next_state_ = 0;
  std::size_t without_shapes_ = 0;
  std::vector<std::string> fallback_names_;
  std::vector<std::int32_t> block_of_state_;  // state id -> index into blocks_
  std::map<std::string, int, std::less<>> by_name_;
  std::size_t blocks_without_shapes_ = 0;

  std::vector<std::uint16_t> legacy_;         // (id << 4 | meta) -> value, 4096 * 16 entries
  std::vector<std::uint8_t> legacy_known_;    // same index: 1 when mapped
  std::vector<std::string> legacy_names_;     // id -> 1.12 name
  std::vector<std::uint16_t> legacy_halves_;  // (door/plant slot, lower&7, upper&3, half) -> value
  std::vector<std::int16_t> legacy_half_slot_;  // id -> slot in legacy_halves_ or -1
};

}  // namespace voxnav::detail
