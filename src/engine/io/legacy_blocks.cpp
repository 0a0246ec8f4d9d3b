#include "engine/io/legacy_blocks.h"

#include <array>

namespace voxnav::detail {

namespace {

constexpr std::array<const char*, 16> kColours = {
    "white",      "orange", "magenta", "light_blue", "yellow", "lime",  "pink", "gray",
    "light_gray", "cyan",   "purple",  "blue",       "brown",  "green", "red",  "black"};
constexpr std::array<const char*, 6> kWoods = {"oak",    "spruce", "birch",
                                               "jungle", "acacia", "dark_oak"};
// Horizontal facing index of 1.12 (beds, fence gates, pumpkins ...): south, west, north, east.
constexpr std::array<const char*, 4> kHorizontal = {"south", "west", "north", "east"};
// 1.12 stairs: meta & 3 -> east, west, south, north.
constexpr std::array<const char*, 4> kStairFacing = {"east", "west", "south", "north"};
// 1.12 trapdoors: meta & 3 -> north, south, west, east.
constexpr std::array<const char*, 4> kTrapdoorFacing = {"north", "south", "west", "east"};
// 1.12 lower door half: meta & 3 -> east, south, west, north.
constexpr std::array<const char*, 4> kDoorFacing = {"east", "south", "west", "north"};
// Stone slab variants (stone_slab / double_stone_slab, meta & 7).
constexpr std::array<const char*, 8> kStoneSlabs = {
    "smooth_stone_slab", "sandstone_slab",   "petrified_oak_slab", "cobblestone_slab",
    "brick_slab",        "stone_brick_slab", "nether_brick_slab",  "quartz_slab"};
constexpr std::array<const char*, 6> kDoublePlants = {"sunflower",  "lilac",     "tall_grass",
                                                      "large_fern", "rose_bush", "peony"};

/// Facing from a full 3D index (2 north, 3 south, 4 west, 5 east); others -> north.
const char* facing6(int meta) {
  switch (meta) {
    case 3:
      return "south";
    case 4:
      return "west";
    case 5:
      return "east";
    default:
      return "north";
  }
}

const char* tf(bool b) { return b ? "true" : "false"; }

template <std::size_t N>
const char* pick(const std::array<const char*, N>& a, int i) {
  return (i >= 0 && static_cast<std::size_t>(i) < N) ? a[static_cast<std::size_t>(i)] : a[0];
}

std::string with(std::string name, std::string props) { return name + "[" + props + "]"; }

bool is_stairs(std::string_view n) { return n.size() > 7 && n.substr(n.size() - 7) == "_stairs"; }

const char* door_name(std::string_view n) {
  if (n == "wooden_door") return "oak_door";
  if (n == "iron_door") return "iron_door";
  if (n == "spruce_door") return "spruce_door";
  if (n == "birch_door") return "birch_door";
  if (n == "jungle_door") return "jungle_door";
  if (n == "acacia_door") return "acacia_door";
  if (n == "dark_oak_door") return "dark_oak_door";
  return nullptr;
}

std::string log_state(const char* wood, int meta) {
  const int axis = (meta >> 2) & 3;
  if (axis == 3) return std::string(wood) + "_wood";  // bark on all six sides
  static constexpr std::array<const char*, 3> kAxis = {"y", "x", "z"};
  return with(std::string(wood) + "_log",
              std::string("axis=") + kAxis[static_cast<std::size_t>(axis)]);
}

std::string slab_state(const char* slab, int meta) {
  return with(slab, std::string("type=") + ((meta & 8) != 0 ? "top" : "bottom"));
}

}  // namespace

bool legacy_is_two_half(std::string_view name) {
  return door_name(name) != nullptr || name == "double_plant";
}

std::string legacy_two_half_string(std::string_view name, int lower_meta, int upper_meta,
                                   bool upper) {
  if (const char* door = door_name(name)) {
    std::string p = std::string("facing=") + pick(kDoorFacing, lower_meta & 3) +
                    ",half=" + (upper ? "upper" : "lower") +
                    ",hinge=" + ((upper_meta & 1) != 0 ? "right" : "left") +
                    ",open=" + tf((lower_meta & 4) != 0) + ",powered=" + tf((upper_meta & 2) != 0);
    return with(door, p);
  }
  if (name == "double_plant") {
    const int v = lower_meta & 7;
    return with(v < 6 ? kDoublePlants[static_cast<std::size_t>(v)] : "sunflower",
                std::string("half=") + (upper ? "upper" : "lower"));
  }
  return legacy_state_string(name, upper ? upper_meta : lower_meta);
}

int legacy_connect_kind_of(std::string_view n) {
  if (legacy_fence_group(n) != 0) return 1;
  if (n == "glass_pane" || n == "stained_glass_pane" || n == "iron_bars") return 2;
  if (n == "cobblestone_wall") return 3;
  return 0;
}

int legacy_fence_group(std::string_view n) {
  if (n == "fence" || n == "spruce_fence" || n == "birch_fence" || n == "jungle_fence" ||
      n == "dark_oak_fence" || n == "acacia_fence") {
    return 1;
  }
  if (n == "nether_brick_fence") return 2;
  return 0;
}

std::string legacy_state_string(std::string_view n, int m) {
  m &= 15;
  const std::string name(n);
  // ---- doors and tall plants: the single-block view (the decoder pairs the halves) ----
  if (legacy_is_two_half(n)) {
    const bool upper = (m & 8) != 0;
    return legacy_two_half_string(n, upper ? 0 : m, upper ? m : 0, upper);
  }
  // ---- renamed or split by metadata ----
  if (n == "stone") {
    static constexpr std::array<const char*, 7> k = {
        "stone",    "granite",          "polished_granite", "diorite", "polished_diorite",
        "andesite", "polished_andesite"};
    return pick(k, m);
  }
  if (n == "grass") return "grass_block[snowy=false]";
  if (n == "dirt") {
    static constexpr std::array<const char*, 3> k = {"dirt", "coarse_dirt", "podzol"};
    return pick(k, m);
  }
  if (n == "planks") return std::string(pick(kWoods, m)) + "_planks";
  if (n == "sapling") return std::string(pick(kWoods, m & 7)) + "_sapling";
  if (n == "flowing_water" || n == "water") return with("water", "level=" + std::to_string(m));
  if (n == "flowing_lava" || n == "lava") return with("lava", "level=" + std::to_string(m));
  if (n == "sand") return (m & 1) != 0 ? "red_sand" : "sand";
  if (n == "log") return log_state(pick(kWoods, m & 3), m);
  if (n == "log2") return log_state(pick(kWoods, 4 + (m & 1)), m);
  if (n == "leaves" || n == "leaves2") {
    const char* wood = n == "leaves" ? pick(kWoods, m & 3) : pick(kWoods, 4 + (m & 1));
    return with(std::string(wood) + "_leaves", std::string("persistent=") + tf((m & 4) != 0));
  }
  if (n == "sponge") return (m & 1) != 0 ? "wet_sponge" : "sponge";
  if (n == "sandstone" || n == "red_sandstone") {
    static constexpr std::array<const char*, 3> k = {"", "chiseled_", "cut_"};
    return std::string(pick(k, m)) + name;
  }
  if (n == "noteblock") return "note_block";
  if (n == "bed") {
    return with("red_bed", std::string("facing=") + pick(kHorizontal, m & 3) + ",occupied=" +
                               tf((m & 4) != 0) + ",part=" + ((m & 8) != 0 ? "head" : "foot"));
  }
  if (n == "golden_rail") return "powered_rail";
  if (n == "web") return "cobweb";
  if (n == "tallgrass") {
    static constexpr std::array<const char*, 3> k = {"dead_bush", "short_grass", "fern"};
    return pick(k, m);
  }
  if (n == "deadbush") return "dead_bush";
  if (n == "wool") return std::string(pick(kColours, m)) + "_wool";
  if (n == "piston_extension") return "moving_piston";
  if (n == "yellow_flower") return "dandelion";
  if (n == "red_flower") {
    static constexpr std::array<const char*, 9> k = {"poppy",       "blue_orchid", "allium",
                                                     "azure_bluet", "red_tulip",   "orange_tulip",
                                                     "white_tulip", "pink_tulip",  "oxeye_daisy"};
    return pick(k, m);
  }
  if (n == "double_stone_slab") {
    if (m == 8) return "smooth_stone";
    if (m == 9) return "smooth_sandstone";
    if (m == 15) return "smooth_quartz";
    return with(pick(kStoneSlabs, m & 7), "type=double");
  }
  if (n == "stone_slab") return slab_state(pick(kStoneSlabs, m & 7), m);
  if (n == "double_wooden_slab")
    return with(std::string(pick(kWoods, m & 7)) + "_slab", "type=double");
  if (n == "wooden_slab")
    return slab_state((std::string(pick(kWoods, m & 7)) + "_slab").c_str(), m);
  if (n == "double_stone_slab2")
    return m == 8 ? "smooth_red_sandstone" : "red_sandstone_slab[type=double]";
  if (n == "stone_slab2") return slab_state("red_sandstone_slab", m);
  if (n == "purpur_double_slab") return "purpur_slab[type=double]";
  if (n == "purpur_slab") return slab_state("purpur_slab", m);
  if (n == "brick_block") return "bricks";
  if (n == "torch" || n == "redstone_torch" || n == "unlit_redstone_torch") {
    const bool redstone = n != "torch";
    const std::string lit = n == "unlit_redstone_torch" ? "lit=false" : "lit=true";
    if (m >= 1 && m <= 4) {
      static constexpr std::array<const char*, 4> k = {"east", "west", "south", "north"};
      return with(redstone ? "redstone_wall_torch" : "wall_torch",
                  std::string("facing=") + k[static_cast<std::size_t>(m - 1)] +
                      (redstone ? "," + lit : ""));
    }
    return redstone ? with("redstone_torch", lit) : "torch";
  }
  if (n == "mob_spawner") return "spawner";
  if (is_stairs(n)) {
    const std::string s = n == "stone_stairs" ? "cobblestone_stairs" : name;
    return with(s, std::string("facing=") + pick(kStairFacing, m & 3) +
                       ",half=" + ((m & 4) != 0 ? "top" : "bottom") + ",shape=straight");
  }
  if (n == "furnace" || n == "lit_furnace") {
    return with("furnace", std::string("facing=") + facing6(m) + ",lit=" + tf(n == "lit_furnace"));
  }
  if (n == "chest" || n == "trapped_chest" || n == "ender_chest") {
    return with(name, std::string("facing=") + facing6(m));
  }
  if (n == "standing_sign") return with("oak_sign", "rotation=" + std::to_string(m));
  if (n == "wall_sign") return with("oak_wall_sign", std::string("facing=") + facing6(m));
  if (n == "ladder") return with("ladder", std::string("facing=") + facing6(m));
  if (n == "wooden_pressure_plate") return "oak_pressure_plate";
  if (n == "lit_redstone_ore") return "redstone_ore[lit=true]";
  if (n == "redstone_ore") return "redstone_ore[lit=false]";
  if (n == "wooden_button") return "oak_button";
  if (n == "snow_layer") return with("snow", "layers=" + std::to_string((m & 7) + 1));
  if (n == "snow") return "snow_block";
  if (n == "cactus") return with("cactus", "age=" + std::to_string(m));
  if (n == "reeds") return "sugar_cane";
  if (n == "fence") return "oak_fence";
  if (n == "pumpkin")
    return with("carved_pumpkin", std::string("facing=") + pick(kHorizontal, m & 3));
  if (n == "lit_pumpkin")
    return with("jack_o_lantern", std::string("facing=") + pick(kHorizontal, m & 3));
  if (n == "portal") return with("nether_portal", (m & 3) == 2 ? "axis=z" : "axis=x");
  if (n == "cake") return with("cake", "bites=" + std::to_string(m <= 6 ? m : 0));
  if (n == "unpowered_repeater" || n == "powered_repeater") {
    return with("repeater", std::string("facing=") + pick(kHorizontal, m & 3) +
                                ",delay=" + std::to_string(((m >> 2) & 3) + 1) +
                                ",powered=" + tf(n == "powered_repeater"));
  }
  if (n == "stained_glass") return std::string(pick(kColours, m)) + "_stained_glass";
  if (n == "trapdoor" || n == "iron_trapdoor") {
    return with(n == "trapdoor" ? "oak_trapdoor" : "iron_trapdoor",
                std::string("facing=") + pick(kTrapdoorFacing, m & 3) +
                    ",half=" + ((m & 8) != 0 ? "top" : "bottom") + ",open=" + tf((m & 4) != 0));
  }
  if (n == "monster_egg") {
    static constexpr std::array<const char*, 6> k = {"infested_stone",
                                                     "infested_cobblestone",
                                                     "infested_stone_bricks",
                                                     "infested_mossy_stone_bricks",
                                                     "infested_cracked_stone_bricks",
                                                     "infested_chiseled_stone_bricks"};
    return pick(k, m);
  }
  if (n == "stonebrick") {
    static constexpr std::array<const char*, 4> k = {
        "stone_bricks", "mossy_stone_bricks", "cracked_stone_bricks", "chiseled_stone_bricks"};
    return pick(k, m);
  }
  if (n == "brown_mushroom_block" || n == "red_mushroom_block") {
    return m == 10 || m == 15 ? "mushroom_stem" : name;
  }
  if (n == "melon_block") return "melon";
  if (n == "vine") {
    return with("vine", std::string("south=") + tf((m & 1) != 0) + ",west=" + tf((m & 2) != 0) +
                            ",north=" + tf((m & 4) != 0) + ",east=" + tf((m & 8) != 0) +
                            ",up=" + tf(m == 0));
  }
  if (n == "fence_gate" || (n.size() > 11 && n.substr(n.size() - 11) == "_fence_gate")) {
    return with(n == "fence_gate" ? "oak_fence_gate" : name,
                std::string("facing=") + pick(kHorizontal, m & 3) + ",open=" + tf((m & 4) != 0));
  }
  if (n == "waterlily") return "lily_pad";
  if (n == "nether_brick") return "nether_bricks";
  if (n == "lit_redstone_lamp") return "redstone_lamp[lit=true]";
  if (n == "cobblestone_wall") return (m & 1) != 0 ? "mossy_cobblestone_wall" : "cobblestone_wall";
  if (n == "skull") return "skeleton_skull";
  if (n == "anvil") {
    static constexpr std::array<const char*, 3> k = {"anvil", "chipped_anvil", "damaged_anvil"};
    return with(pick(k, (m >> 2) & 3), std::string("facing=") + pick(kHorizontal, m & 3));
  }
  if (n == "unpowered_comparator" || n == "powered_comparator") {
    return with("comparator", std::string("facing=") + pick(kHorizontal, m & 3) +
                                  ",powered=" + tf(n == "powered_comparator"));
  }
  if (n == "daylight_detector_inverted") return "daylight_detector[inverted=true]";
  if (n == "quartz_ore") return "nether_quartz_ore";
  if (n == "quartz_block") {
    if (m == 1) return "chiseled_quartz_block";
    if (m == 2) return "quartz_pillar[axis=y]";
    if (m == 3) return "quartz_pillar[axis=x]";
    if (m == 4) return "quartz_pillar[axis=z]";
    return "quartz_block";
  }
  if (n == "stained_hardened_clay") return std::string(pick(kColours, m)) + "_terracotta";
  if (n == "stained_glass_pane") return std::string(pick(kColours, m)) + "_stained_glass_pane";
  if (n == "slime") return "slime_block";
  if (n == "prismarine") {
    static constexpr std::array<const char*, 3> k = {"prismarine", "prismarine_bricks",
                                                     "dark_prismarine"};
    return pick(k, m);
  }
  if (n == "carpet") return std::string(pick(kColours, m)) + "_carpet";
  if (n == "hardened_clay") return "terracotta";
  if (n == "standing_banner") return with("white_banner", "rotation=" + std::to_string(m));
  if (n == "wall_banner") return with("white_wall_banner", std::string("facing=") + facing6(m));
  if (n == "end_bricks") return "end_stone_bricks";
  if (n == "grass_path") return "dirt_path";
  if (n == "magma") return "magma_block";
  if (n == "red_nether_brick") return "red_nether_bricks";
  if (n == "concrete") return std::string(pick(kColours, m)) + "_concrete";
  if (n == "concrete_powder") return std::string(pick(kColours, m)) + "_concrete_powder";
  if (n == "end_portal_frame") {
    return with("end_portal_frame",
                std::string("facing=") + pick(kHorizontal, m & 3) + ",eye=" + tf((m & 4) != 0));
  }
  if (n == "cocoa") {
    return with("cocoa", std::string("facing=") + pick(kHorizontal, m & 3) +
                             ",age=" + std::to_string(((m >> 2) & 3) <= 2 ? (m >> 2) & 3 : 2));
  }
  if (n == "farmland") return with("farmland", "moisture=" + std::to_string(m & 7));
  if (n == "wheat" || n == "beetroots" || n == "carrots" || n == "potatoes" || n == "nether_wart" ||
      n == "pumpkin_stem" || n == "melon_stem") {
    return name;  // growth stage does not change collision
  }
  // ---- same name in 1.21.1, default state ----
  return name;
}

}  // namespace voxnav::detail
