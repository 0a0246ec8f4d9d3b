// voxnav - movement classes and profiles (per-creature movement settings).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "voxnav/error.h"
#include "voxnav/ids.h"
#include "voxnav/status.h"

namespace voxnav {

/// Movement classes fix the body envelope and therefore the navigation data (built once per
/// class, shared by every profile of it): walker_small 0.6 x 0.95, walker 0.6 x 1.8, walker_large
/// 1.98 x 2.95 (a 2x2 footprint), swimmer 0.98 x 0.98 (only in swimmable fluid), flyer 0.98 x 1.95.
/// Why these sizes: docs/terrain.md#classes-and-body-heights.
/// This build navigates walker_small, walker, walker_large (its cells are the low corners of its
/// footprint: docs/terrain.md#walker_large-a-2x2-footprint) and swimmer; flyer profiles parse and validate, and
/// World::add_profile answers Unsupported for them.
enum class MovementClass : std::uint8_t { WalkerSmall, Walker, WalkerLarge, Swimmer, Flyer };

/// Name used in profile files: "walker_small", "walker", "walker_large", "swimmer", "flyer".
const char* movement_class_name(MovementClass c) noexcept;

/// What a cell is for a walker's navigation (its layer-0 kind, as a move's destination). Each type
/// has a malus in Profile::malus.
enum class PathType : std::uint8_t {
  Walkable,     ///< supported, envelope clear
  Slow,         ///< slows the body (soul sand, honey, cobweb, powder snow ...)
  DangerFire,   ///< walkable, within one cell of fire / lava / magma
  DangerOther,  ///< walkable, within one cell of another hazard (cactus, sweet berries ...)
  DamageFire,   ///< the envelope meets fire / lava / magma
  DamageOther,  ///< the envelope meets another damaging block
  DoorOpen,     ///< an open door (passable)
  DoorClosed,   ///< a closed door (passable to profiles with can_open_doors)
  Climbable,    ///< ladder, vine, scaffolding (used by profiles with can_climb)
  Water,        ///< water (swum by profiles with can_swim)
};
inline constexpr int kPathTypeCount = 10;

/// A malus value: a profile never enters a cell of that path type.
inline constexpr int kImpassable = -1;

/// Name used in profile files: "walkable", "slow", "danger_fire", "danger_other", "damage_fire",
/// "damage_other", "door_open", "door_closed", "climbable", "water" ("?" for a bad value).
const char* path_type_name(PathType t) noexcept;

/// Default Profile::malus, indexed by PathType: walkable 0, slow 8, danger_fire 8, danger_other 8,
/// damage_fire and damage_other impassable, door_open 0, door_closed 8, climbable 0, water 0.
inline constexpr std::array<int, kPathTypeCount> kDefaultMalus = {
    0,            // walkable
    8,            // slow
    8,            // danger_fire
    8,            // danger_other
    kImpassable,  // damage_fire
    kImpassable,  // damage_other
    0,            // door_open
    8,            // door_closed
    0,            // climbable
    0,            // water
};

/// A cost for moving over given surfaces: added when a move enters a cell whose surface (the block
/// the feet stand on) is one of `blocks`.
struct SurfaceMalus {
  /// Block names, without block states ("dirt_path", "gravel"); a "minecraft:" prefix is dropped by
  /// the parser (and ignored by validation). Non-empty, lowercase [a-z0-9_./:-]; a name may appear
  /// once across all entries. Whether a name is in the block registry is checked when the profile
  /// is added to a World (check_surface_blocks).
  std::vector<std::string> blocks;
  /// Cells of level walking, -0.6 .. 1000. Negative = a preferred surface (a road): with at least
  /// -0.6 per entered cell a move never costs less than 0.4 of its distance.
  double cost = 0.0;
};

/// At most this many SurfaceMalus entries per profile.
inline constexpr int kMaxSurfaceMalus = 32;

/// Local avoidance of other agents (ORCA) while following a corridor.
struct Avoidance {
  bool enabled = true;        ///< false: the agent only separates (never plans around others)
  double radius = 0.0;        ///< cells, 0 .. 16; 0 = half the body width
  double time_horizon = 1.0;  ///< seconds ahead a collision is avoided, 0.1 .. 10
  int max_neighbours = 8;     ///< agents considered at once, 0 .. 32
};

/// How the body takes knock (hits, explosions) in the integrator.
struct Knockback {
  double resistance = 0.0;  ///< 0 .. 1: the fraction of knock ignored (1 = immovable)
};

/// Per-creature movement settings. Units: cells (= metres at cell_size 1), seconds, degrees per
/// second for turn_rate. Defaults are a Minecraft-like zombie-sized walker. Costs (malus,
/// drop_malus, surface_malus) are in cells of level walking (one straight cell costs 1). See
/// docs/profiles.md for the JSON form and every rule.
struct Profile {
  std::string id = "walker";  ///< unique name, e.g. "game:boar"
  MovementClass movement_class = MovementClass::Walker;
  double width = 0.6;                       ///< body footprint side, cells; <= class envelope
  double height = 1.8;                      ///< body height, cells; <= class envelope
  double walk_speed = 4.3;                  ///< m/s, (0, 100]
  double sprint_speed = 5.6;                ///< m/s, walk_speed .. 100
  double climb_speed = 0.0;                 ///< m/s, 0 .. 100; > 0 with can_climb
  double swim_speed = 0.0;                  ///< m/s, 0 .. 100; > 0 with can_swim
  /// Cells, 0 .. 1 and at most the class's step (walker_small, walker 0.6; walker_large 1.0; no
  /// limit for swimmer and flyer): the class's move words hold steps up to that, so a higher step
  /// is refused (InvalidArgument naming "step_height"), never silently cut back.
  double step_height = 0.6;
  double jump_apex = 1.25;                  ///< cells, 0 .. 1.25 (the class's jump)
  /// Cells a creature drops without refusing, 0..7 and at most the class's (walker_small, walker
  /// 3; walker_large 4; no limit for swimmer and flyer): the class's move words hold drops down to
  /// that, so a deeper one is refused (InvalidArgument naming "max_drop"), never ignored.
  int max_drop = 3;
  /// Gap reach, cells: -1 = auto (derived), else 0..8 (0 = none). The walker classes' navigation
  /// holds one-cell gap jumps: a longer reach plans those, 0 restricts the class.
  int gap_jump = -1;
  double turn_rate = 720.0;                 ///< degrees per second, 1 .. 100000
  double arrive_radius = 0.5;               ///< cells, 0.05 .. 64
  bool strafe = false;                      ///< may move sideways without turning first
  bool can_open_doors = false;              ///< walks through closed doors (not swimmers)
  bool can_climb = false;                   ///< climbs climbable cells (walker_small, walker)
  bool can_swim = false;                    ///< swims water (required by the swimmer class)
  bool can_fly = false;                     ///< exactly when the class is flyer
  int drop_malus = 1;                       ///< extra cost per dropped cell, quarter cells, 0..1000
  std::uint32_t search_max_nodes = 100000;  ///< A* expansion budget per request, 1 .. 10^8
  /// Cells from the start a search may go, 1 .. 2^20, while reachability cannot vouch for the goal:
  /// a goal reachable() answers Yes for is searched without this window (docs/requests.md).
  int search_max_distance = 256;
  /// Extra cost, in cells of level walking, added when a move enters a cell of a path type
  /// (indexed by PathType): 0 .. 1000, or kImpassable (never entered; not allowed for walkable).
  /// Default kDefaultMalus.
  std::array<int, kPathTypeCount> malus = kDefaultMalus;
  /// Costs by surface block, at most kMaxSurfaceMalus entries (default none).
  std::vector<SurfaceMalus> surface_malus;
  Avoidance avoidance;
  Knockback knockback;
};

/// Parses one profile from JSON (an object with the fields above; `class` for movement_class,
/// `body: {width, height}`, `speed: {walk, sprint, climb, swim}`, `search: {max_nodes,
/// max_distance}`; gap_jump is "auto" or an integer; `malus: {"<path type>": <int> | "impassable"}`
/// changes only the listed types; `surface_malus: [{"blocks": [...], "cost": <number>}]`;
/// `avoidance: {enabled, radius, time_horizon, max_neighbours}`; `knockback: {resistance}`).
/// Unknown fields (an unknown path type is one), wrong types and values out
/// of range are errors, and so is a key given twice in one object (InvalidArgument, the message
/// names the key): returns BadFormat / InvalidArgument and writes a message naming the
/// profile (or `source`, e.g. a file name) and the field, e.g.
/// `zombie.json: profile "zombie": field "body.width": 1.2 is larger than the walker envelope 0.6`
/// or `boar.json: profile "boar": field "surface_malus[0].blocks[1]": ...`.
/// `out` is left unchanged on error. Warnings (a profile that restricts its class: step, jump or
/// drop below the class's, or slow / danger / open-door cells made impassable) go to `warning`
/// when non-null, naming the fields; it is cleared when there is none.
Status parse_profile_json(std::string_view json, Profile& out, std::string* error,
                          std::string* warning = nullptr, std::string_view source = {});

/// Checks a profile's values (what parse_profile_json checks after parsing; the limits are on
/// the Profile fields above). Returns: Ok; InvalidArgument (`error` names the profile and the
/// field, as parse_profile_json's messages do). Warnings as parse_profile_json.
Status validate_profile(const Profile& p, std::string* error, std::string* warning = nullptr,
                        std::string_view source = {});

/// Checks that every surface_malus block name is in a block registry: `known` answers for a name
/// without the "minecraft:" prefix. InvalidArgument on the first unknown name, e.g.
/// `profile "x": field "surface_malus[0].blocks[1]": unknown block name "foo"` (with `source: `
/// first when given); Ok otherwise.
Status check_surface_blocks(const Profile& p, const std::function<bool(std::string_view)>& known,
                            std::string* error, std::string_view source = {});

class World;
/// parse_profile_json, then World::add_profile: one profile from JSON into `world`, its id to
/// `id`. Returns: Ok; what parse_profile_json returns (argument "profile", the message naming the
/// profile and the field); what World::add_profile returns (`error` gets world.last_error()).
/// `warning` (may be null) gets the parse warning on success ('' when none). `error` may be
/// null. The World is unchanged on error.
[[nodiscard]] Status add_profile_json(World& world, std::string_view json,
                                      std::string_view source, ProfileId* id,
                                      std::string* warning, CallError* error);

}  // namespace voxnav
