// voxnav - block registries: what each block value of a world is (a name, collision boxes in cell
// units and the traits navigation reads). A game defines its own (here, in JS, or in voxnav's JSON
// format, docs/registry.md); World::load_minecraft_blocks is one producer of the same definitions.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxnav/error.h"
#include "voxnav/status.h"

namespace voxnav {

/// "No block value" (a door without a toggled value).
inline constexpr std::uint16_t kNoBlockValue = 0xFFFF;
/// Values a registry may hold. [Limit: 1..65535] (values 0..65534).
inline constexpr std::size_t kMaxBlockValues = 0xFFFF;
/// Block names are 1..kMaxBlockNameLength bytes (also the longest block, property and value
/// name World::load_minecraft_blocks accepts).
inline constexpr std::size_t kMaxBlockNameLength = 128;
/// Block states World::load_minecraft_blocks accepts: one value each after the registry's own
/// air and fallback. A blocks JSON claiming more (its maxStateId, or its property combinations)
/// is refused with OutOfRange before anything is allocated for the states.
/// [Limit: 1..kMaxMinecraftStates]
inline constexpr std::size_t kMaxMinecraftStates = kMaxBlockValues - 2;
/// Collision boxes per block value. [Limit: 0..16]
inline constexpr std::size_t kMaxBlockBoxes = 16;
/// Highest top of a collision box, in cells (fences and walls reach 1.5).
inline constexpr float kMaxBlockBoxTop = 1.5f;

/// An axis-aligned collision box inside a cell, in cell units (0 = the cell's low corner, 1 = the
/// high one). A full block is {0,0,0,1,1,1}; a bottom slab {0,0,0,1,0.5,1}.
/// [Limit: 0 <= min <= max <= 1 on x and z; 0 <= min <= max <= kMaxBlockBoxTop on y (fences,
/// walls)]; a box with no volume is allowed and collides with nothing.
struct BlockBox {
  float min_x = 0, min_y = 0, min_z = 0;
  float max_x = 1, max_y = 1, max_z = 1;
  friend bool operator==(const BlockBox&, const BlockBox&) = default;
};

/// Whether a block is a door, and which state it is in.
enum class BlockDoor : std::uint8_t {
  None = 0,  ///< not a door
  Closed,    ///< a closed door (walkers without can_open_doors never pass it)
  Open,      ///< an open door (passable; still a single-cell island so it never merges two rooms)
};
/// What a block does to a body that touches it (cells next to one are "danger" cells).
enum class BlockHazard : std::uint8_t { None = 0, Fire, Other };
/// The fluid a block holds.
enum class BlockFluid : std::uint8_t {
  None = 0,
  Swimmable,  ///< water: swimmers live in it, walkers swim across it
  Harmful,    ///< lava: nobody swims in it (give it `hazard = Fire` too to keep walkers away)
};

/// The navigation traits of a block value (docs/terrain.md says what each one does).
struct BlockTraits {
  BlockDoor door = BlockDoor::None;
  /// For a door: the value the block becomes when World::set_door_open toggles it, a door of the
  /// other state; kNoBlockValue: none (set_door_open answers Unsupported). Must be kNoBlockValue
  /// for a block that is not a door.
  std::uint16_t door_toggle = kNoBlockValue;
  /// When not empty, names the toggled value instead of `door_toggle` (the first value of that
  /// name; the JSON format and JS use names). Resolved when the registry is installed or the
  /// traits are set; reading a definition back (World::block_def) fills the name too when it
  /// finds the toggled value.
  std::string door_toggle_name;
  bool climbable = false;  ///< ladder, vine: climbers move up and down inside it
  BlockHazard hazard = BlockHazard::None;
  bool slow = false;  ///< cobweb, soul sand: walkable at a higher cost
  BlockFluid fluid = BlockFluid::None;
  friend bool operator==(const BlockTraits&, const BlockTraits&) = default;
};

/// One block value of a registry.
struct BlockDef {
  /// [Limit: 1..kMaxBlockNameLength bytes] Names need not be unique (Minecraft's block states
  /// share their block's name); lookups by name find the first value of a name.
  std::string name;
  /// Collision boxes in cell units; empty for air, fluids, plants. [Limit: 0..kMaxBlockBoxes]
  std::vector<BlockBox> boxes;
  BlockTraits traits;
  friend bool operator==(const BlockDef&, const BlockDef&) = default;
};

/// A whole registry: value v is blocks[v] (so value 0 is blocks[0], conventionally air).
struct BlockRegistryDef {
  /// [Limit: 1..kMaxBlockValues entries]
  std::vector<BlockDef> blocks;
  /// The value that stands for a block name nobody knows (world file loaders, and the value
  /// World::block_value gives with NotFound). [Limit: < blocks.size()] Default 0.
  std::uint16_t fallback = 0;

  /// Appends a block; returns its value (kNoBlockValue when the registry is full).
  std::uint16_t add(BlockDef def);
  /// Appends a block of that name, boxes and traits; returns its value.
  std::uint16_t add(std::string name, std::vector<BlockBox> boxes = {}, BlockTraits traits = {});
};

/// Names of the enums as the JSON format writes them ("none", "closed", "open"; "none", "fire",
/// "other"; "none", "swimmable", "harmful").
const char* block_door_name(BlockDoor d) noexcept;
const char* block_hazard_name(BlockHazard h) noexcept;
const char* block_fluid_name(BlockFluid f) noexcept;

/// One value's new traits (World::set_block_traits).
struct BlockTraitsChange {
  std::uint16_t value = 0;
  BlockTraits traits;
};

/// Checks a registry without installing it. Ok, or InvalidArgument with `error` naming the block
/// and the field, e.g. "blocks[3] 'door_open': door.toggle 'door_closed' is not a block".
/// Rules: 1..kMaxBlockValues blocks, names of 1..kMaxBlockNameLength bytes, boxes within the
/// limits of BlockBox (finite, min <= max), at most kMaxBlockBoxes boxes, a door's toggle is
/// another value that is a door of the other state (a non-door has none), enum fields in range,
/// fallback < blocks.size().
[[nodiscard]] Status validate_block_registry(const BlockRegistryDef& def,
                                             std::string* error = nullptr);

/// voxnav's own registry format (docs/registry.md): a UTF-8 JSON document
/// {"format":"voxnav-blocks","version":1,"fallback":"name","blocks":[{"name":...},...]}.
/// Fills `out` (unchanged on error) with the blocks in order (door toggles by name) and checks it
/// as validate_block_registry does. Errors: BadFormat (not JSON, wrong "format", a missing or
/// mistyped field, an unknown field: `error` names the block and the field, e.g.
/// "blocks[2] 'ladder': unknown field 'climable'"), Unsupported (a "version" other than 1),
/// InvalidArgument (the rules of validate_block_registry, and names given twice: the format
/// names toggles by name, so its names are unique).
[[nodiscard]] Status parse_block_registry_json(std::span<const std::uint8_t> json,
                                               BlockRegistryDef* out, std::string* error = nullptr);
/// The traits object of one block in that format ({"door":{"open":false,"toggle":"name"},
/// "climbable":true,"hazard":"fire","slow":true,"fluid":"swimmable"}; every field optional), for
/// World::set_block_traits. The toggle is left as a name (`door_toggle_name`). BadFormat with
/// `error` naming the field; `out` unchanged on error.
[[nodiscard]] Status parse_block_traits_json(std::string_view json, BlockTraits* out,
                                             std::string* error = nullptr);
class World;
/// parse_block_traits_json, then World::set_block_traits for value `value`: its traits replaced,
/// navigation rebuilt. Returns: Ok; BadFormat (argument "traits", the message naming the field);
/// what World::set_block_traits returns (`error` gets world.last_error()). `error` may be null.
/// The World is unchanged on error.
[[nodiscard]] Status set_block_traits_json(World& world, std::uint16_t value,
                                           std::string_view traits_json, CallError* error);
}  // namespace voxnav
