// Pre-1.13 ("numeric id + metadata") blocks expressed as 1.21.1 block-state strings.
// The table of renamed blocks is documented in docs/formats.md.
#pragma once
#include <string>
#include <string_view>

namespace voxnav::detail {

/// 1.21.1 "name[props]" for the 1.12 block `name` (from blocks.pc-1.12.json) with metadata
/// `meta` (0..15). Blocks that kept their name map to their default state unless listed in the
/// table (orientation, slab half, colour, variant ...). Returns "" when there is no mapping.
std::string legacy_state_string(std::string_view name, int meta);

/// Doors and double plants store half of their state in each of their two blocks.
bool legacy_is_two_half(std::string_view name);
/// "name[props]" of a two-half block from the metadata of its lower and upper block.
std::string legacy_two_half_string(std::string_view name, int lower_meta, int upper_meta,
                                   bool upper);

/// 1.12 blocks whose side connections were computed, not stored: 0 none, 1 fence, 2 pane /
/// iron bars, 3 wall. Wooden fences connect to wooden fences, the nether brick fence only to
/// itself (see legacy_fence_group).
int legacy_connect_kind_of(std::string_view name);
/// 1 for wooden fences, 2 for the nether brick fence, 0 otherwise.
int legacy_fence_group(std::string_view name);

}  // namespace voxnav::detail
