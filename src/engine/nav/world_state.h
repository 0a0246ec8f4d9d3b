// What a voxnav::World holds (the engine side of the public World facade).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/follow/agents.h"
#include "engine/io/minecraft_registry.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/surfaces.h"
#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "voxnav/profile.h"

namespace voxnav::detail {

struct WorldState {
  BlockRegistry registry;
  MinecraftBlocks blocks;  ///< name/state lookups when a Minecraft registry is loaded
  Space space{&registry};
  std::unique_ptr<NavWorld> walker;  ///< navigation for the walker class (always there)
  /// Navigation of the other classes, made with the first profile of the class (index by
  /// class_slot; slot 0 is `walker`).
  std::unique_ptr<NavWorld> walker_small, swimmer;
  Executor* executor = nullptr;
  int lockstep_delay = 0;
  bool streaming = false;
  /// The navigation of movement class c (null when no profile of it was added, or unsupported).
  NavWorld* nav_of(MovementClass c) {
    switch (c) {
      case MovementClass::Walker: return walker.get();
      case MovementClass::WalkerSmall: return walker_small.get();
      case MovementClass::Swimmer: return swimmer.get();
      default: return nullptr;
    }
  }
  /// The sum of every class's navigation epoch (World::nav_epoch): no allocation, it sits on the
  /// reachable() path.
  std::uint64_t epoch_sum() const {
    return walker->epoch() + (walker_small ? walker_small->epoch() : 0) + (swimmer ? swimmer->epoch() : 0);
  }
  /// Every navigation the world keeps, walker first.
  std::vector<NavWorld*> navs() {
    std::vector<NavWorld*> v{walker.get()};
    if (walker_small) v.push_back(walker_small.get());
    if (swimmer) v.push_back(swimmer.get());
    return v;
  }
  AgentSystem agents;
  std::vector<Profile> profiles;
  std::vector<std::uint32_t> profile_motion;  ///< profile index -> AgentSystem motion index
  // ---- surfaces: named areas and the profiles' surface malus, as masks of block values ----
  struct Area {
    std::string name;
    std::int32_t cost = 0;  ///< default cost, cost units (cells * 10000)
    std::uint32_t mask = 0;
  };
  std::vector<Area> areas;
  std::vector<std::vector<std::uint16_t>> masks;
  /// Per profile: (mask, cost units) of each surface malus entry.
  std::vector<std::vector<std::pair<std::uint32_t, std::int32_t>>> profile_masks;
  SurfaceGroups groups;
};

/// Regroups the surfaces after masks changed (an area defined, a profile with surface malus
/// added, the registry replaced): installs the group table in navigation and recompiles every
/// profile's surface costs. OutOfRange (nothing changed) when more than kMaxSurfaceGroups groups
/// would be needed.
Status rebuild_surfaces(WorldState& ws);
/// The surface costs of a profile read through a filter (excluded areas, multipliers); `excluded`
/// and `multiplier` index the areas.
std::shared_ptr<const std::array<std::int32_t, 256>> filtered_surface_costs(
    const WorldState& ws, std::uint32_t profile, std::uint32_t excluded, const double* multiplier,
    std::int32_t* min);

/// The walker class envelope in layer 0 units.
ClassEnvelope walker_envelope();
/// Compiles a profile into the follower's motion settings (costs, body, jump velocity).
AgentMotion compile_profile(const Profile& p);

}  // namespace voxnav::detail
