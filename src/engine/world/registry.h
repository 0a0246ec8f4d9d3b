// Block registry: what each uint16 block value is (name, collision boxes, navigation traits).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "voxnav/registry.h"
#include "voxnav/status.h"

namespace voxnav::detail {

/// Axis-aligned box inside a cell, in cell units (x, y, z min then max). A full block is
/// {0,0,0,1,1,1}; a bottom slab {0,0,0,1,0.5,1}; a fence reaches y = 1.5.
struct Box {
  float min[3];
  float max[3];
};

/// Navigation traits of a block value (bit flags).
enum BlockTrait : std::uint32_t {
  kTraitDoor = 1u << 0,         ///< a door; `open_value` is the value it becomes when toggled
  kTraitDoorOpen = 1u << 1,     ///< this door value is the open one
  kTraitClimbable = 1u << 2,    ///< ladder, vine, scaffolding ...
  kTraitHazardFire = 1u << 3,   ///< fire, lava, campfire, magma ...
  kTraitHazardOther = 1u << 4,  ///< cactus, sweet berry bush, wither rose, powder snow ...
  kTraitSlow = 1u << 5,         ///< cobweb, honey, soul sand ...
  kTraitFluidSwim = 1u << 6,    ///< water (a body can swim in it)
  kTraitFluidHarm = 1u << 7,    ///< lava (a body cannot swim in it)
  kTraitFallback = 1u << 8,     ///< stands for a block name the registry did not know
};

/// One registry entry.
struct BlockType {
  std::string name;        ///< e.g. "oak_stairs" (no namespace); states share the block's name
  std::vector<Box> boxes;  ///< collision boxes; empty for air, fluids, flowers ...
  std::uint32_t traits = 0;
  std::uint16_t open_value = 0;  ///< for doors: the value after toggling open/closed
};

/// Heights are quantised to 1/64 of a cell for classification (integers decide, not floats).
inline constexpr int kHeightUnits = 64;

/// The block registry of a space. Values are dense indices 0..size()-1; value 0 is air.
class BlockRegistry {
 public:
  BlockRegistry();

  /// Appends a block value; returns it. Boxes are clamped to [0,1] in x/z and [0,1.5] in y.
  std::uint16_t add(BlockType t);
  /// Back to the default registry: 0 "air", 1 "voxnav:unknown" (the fallback, a full block).
  void clear();
  /// Replaces the whole registry by `def` (value v = def.blocks[v]; door toggles given by name
  /// resolved). Every producer (a game's own blocks, the JSON format, minecraft-data) installs
  /// through here. InvalidArgument with `error` naming the block and the field (see
  /// validate_block_registry); nothing changes on error.
  Status install(const BlockRegistryDef& def, std::string* error);
  /// Replaces the traits of some values (boxes and names stay). Checked together after applying
  /// them all (a door pair may be made in one call): OutOfRange for a value not in the registry,
  /// InvalidArgument for traits breaking the rules of validate_block_registry; `error` names the
  /// value and the field; nothing changes on error.
  Status set_traits(std::span<const BlockTraitsChange> changes, std::string* error);
  /// The public definition of a value (toggle given as value and name).
  BlockDef def(std::uint16_t v) const;

  std::size_t size() const { return types_.size(); }
  const BlockType& type(std::uint16_t v) const { return types_[v]; }
  bool valid(std::uint16_t v) const { return v < types_.size(); }

  /// Value of the first entry with this name (its default state for Minecraft registries), or
  /// `fallback()` when unknown.
  std::uint16_t find(std::string_view name) const;
  bool has(std::string_view name) const;
  /// Makes `find(name)` return `v` (loaders point a block's name at its default state).
  void set_default(std::string_view name, std::uint16_t v) { by_name_[std::string(name)] = v; }
  /// Value used for block names nobody knows: a solid full block flagged kTraitFallback.
  std::uint16_t fallback() const { return fallback_; }

  // ---- derived, quantised shape data used by layer 0 (filled by add) ----
  /// Highest box top (1/64 cell, up to 96 for fences) over the footprint square
  /// [c-h, c+h]^2 (h = half width in 1/64 units, c = 32), or -1 when no box touches it.
  int top_in_footprint(std::uint16_t v, int half_width_q) const;
  /// Lowest box bottom over the footprint that lies above `above_q` (1/64 cell), or
  /// kHeightUnits*2 when none: the ceiling a body standing at `above_q` meets in this cell.
  int ceiling_in_footprint(std::uint16_t v, int half_width_q, int above_q) const;
  /// Whether a box of `v` whose top is at `top_q` (1/64 cell) spans the cell to within
  /// `margin_q` of all four sides: a body standing on it is held up anywhere its box overlaps the
  /// cell's corner squares of that size (diagonals past an open side rest on such tops).
  bool top_spans_cell(std::uint16_t v, int top_q, int margin_q) const;
  /// The sides d (bit d; 0 +x, 1 +z, 2 -x, 3 -z) of `v`'s cell where a box lies between the
  /// footprint square (half width `half_width_q`, 1/64 cell) and the cell's face, across the
  /// footprint's side band, and overlaps the heights (lo_q, hi_q) (1/64 above the cell's bottom):
  /// a body whose too-high part spans those heights cannot cross that face (a ladder's plate, an
  /// open door's leaf, an open trapdoor).
  int side_walls(std::uint16_t v, int half_width_q, int lo_q, int hi_q) const;
  /// The tread a body moving along cardinal direction `dir` (0 +x, 1 +z, 2 -x, 3 -z) first mounts
  /// to climb `v` in steps (1/64 cell): the box tops its front edge meets, in the order it meets
  /// them while its centre crosses to the cell's centre, within the footprint's side band; the
  /// answer is the lowest of them from which every later rise is at most `step_q`. A stair from its
  /// low side answers its lower half (32); a full block or a stair from its back answers the top.
  /// -1 when no box lies in the band.
  int tread_in_footprint(std::uint16_t v, int dir, int half_width_q, int step_q) const;
  bool has_collision(std::uint16_t v) const { return !types_[v].boxes.empty(); }
  std::uint32_t traits(std::uint16_t v) const { return types_[v].traits; }

 private:
  struct QBox {
    std::int16_t min[3];
    std::int16_t max[3];
  };
  std::vector<BlockType> types_;
  std::vector<std::vector<QBox>> qboxes_;
  std::unordered_map<std::string, std::uint16_t> by_name_;  // lookup only
  std::uint16_t fallback_ = 0;
};

/// The one rule for a block's collision box, whoever made the registry (a BlockDef in C++ or JS,
/// voxnav's registry JSON, the Minecraft loader): every bound finite, x and z within 0..1, y
/// within 0..kMaxBlockBoxTop, min <= max on each axis. Empty when the box follows it, else why
/// not ("y runs 0.000000..100.000000, outside 0..1.5 or min above max").
std::string block_box_error(const BlockBox& b);

/// Minecraft's own collision shapes let a few boxes reach out of their cell (a piston head's arm
/// 0.25 into the base, a pitcher crop 0.0625 below its cell): that part lies in the neighbouring
/// cell, whose space a one-cell box cannot hold, so the Minecraft loader cuts it off at the cell's
/// bounds. Only a part reaching out by at most this much is cut (cells); the cut box must then
/// follow block_box_error's rule like any other, so a box reaching further out, an inverted box
/// or a non-finite bound is refused, never clamped into something else.
inline constexpr float kMaxShapeOverhang = 0.5f;
/// Cuts `b`'s overhang (kMaxShapeOverhang) and checks the rest with block_box_error: empty and
/// `b` cut when fine; `empty` set (and `b` unchanged) when the box lies wholly outside its cell
/// within the overhang (a part of the neighbour's shape only: the caller drops it); else the
/// reason, from block_box_error of the box as given, and `b` unchanged.
std::string cut_shape_overhang(BlockBox& b, bool& empty);

/// Checks `def` (validate_block_registry's rules); fills `toggles` with each value's resolved
/// door toggle (kNoBlockValue: none).
Status check_block_registry(const BlockRegistryDef& def, std::vector<std::uint16_t>* toggles,
                            std::string* error);

}  // namespace voxnav::detail
