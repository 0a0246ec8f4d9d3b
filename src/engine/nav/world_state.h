// What a voxnav::World holds (the engine side of the public World facade).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "engine/flight/flyer_nav.h"
#include "engine/flow/flow_fields.h"
#include "engine/follow/agents.h"
#include "engine/io/minecraft_registry.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/surfaces.h"
#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "voxnav/profile.h"
#include "voxnav/requests.h"

namespace voxnav::detail {

struct WorldState {
  std::uint32_t id_tag = 1;  ///< this World's id tag (voxnav/ids.h), 1 .. kMaxIdTag
  /// Whether `p` names a profile of this World: an index added, and the owner this World's tag
  /// (or 0: an id made by hand, looked up by index; voxnav/ids.h).
  bool has_profile(ProfileId p) const {
    return p.index < profiles.size() && (p.owner == 0 || p.owner == id_tag);
  }
  BlockRegistry registry;
  MinecraftBlocks blocks;  ///< name/state lookups when a Minecraft registry is loaded
  Space space{&registry};
  /// Number of class slots (class_slot values; AgentMotion::nav_slot).
  static constexpr std::uint32_t kClassSlots = 4;
  /// The movement class of each slot. The order is part of the contract: updates run, epochs
  /// sum and hashes read in slot order, and path handles and agents carry the slot.
  static constexpr std::array<MovementClass, kClassSlots> kSlotClass = {
      MovementClass::Walker, MovementClass::WalkerSmall, MovementClass::Swimmer,
      MovementClass::WalkerLarge};
  static constexpr std::uint32_t kWalkerSlot = 0;
  /// Navigation of each class slot, made with the first profile of the class (the walker's is
  /// always there; the others are null until a profile of their class is added).
  std::array<std::unique_ptr<NavWorld>, kClassSlots> classes;
  Executor* executor = nullptr;
  int lockstep_delay = 0;
  bool streaming = false;
  int build_radius = 0;   ///< World::set_chunk_build_radius (chunks; 0: build every loaded chunk)
  /// World::set_searches_per_update (0: every queued request).
  int search_budget = kDefaultSearchesPerUpdate;
  /// The slot of a navigable movement class (its path handles and agents carry it); kClassSlots
  /// for a class without navigation in this build (flyer).
  static constexpr std::uint32_t class_slot(MovementClass c) {
    for (std::uint32_t s = 0; s < kClassSlots; ++s)
      if (kSlotClass[s] == c) return s;
    return kClassSlots;
  }
  /// The navigation of the walker class (always there).
  NavWorld* walker() const { return classes[kWalkerSlot].get(); }
  /// The owner of the navigation in class slot `slot` (null for an unknown slot).
  std::unique_ptr<NavWorld>* slot_owner(std::uint32_t slot) {
    return slot < kClassSlots ? &classes[slot] : nullptr;
  }
  /// The navigation in class slot `slot` (null when not built, or an unknown slot).
  NavWorld* nav_of_slot(std::uint32_t slot) const {
    return slot < kClassSlots ? classes[slot].get() : nullptr;
  }
  /// The navigation of movement class c (null when no profile of it was added, or unsupported).
  NavWorld* nav_of(MovementClass c) const { return nav_of_slot(class_slot(c)); }
  /// The flyer class's navigation (flight/flyer_nav.h), made with the first flyer profile; its
  /// path handles carry kFlyerSlot. It has no NavWorld: navs() does not list it.
  std::unique_ptr<flight::FlyerNav> flyer;
  static constexpr std::uint32_t kFlyerSlot = kClassSlots;
  /// Whether profile `p` (a profile of this World) is of the flyer class.
  bool is_flyer(ProfileId p) const { return profiles[p.index].movement_class == MovementClass::Flyer; }
  /// The sum of every class's navigation epoch (World::nav_epoch): no allocation, it sits on the
  /// reachable() path.
  std::uint64_t epoch_sum() const {
    std::uint64_t sum = 0;
    for (const std::unique_ptr<NavWorld>& n : classes)
      if (n) sum += n->epoch();
    if (flyer) sum += flyer->epoch();
    return sum;
  }
  /// Every navigation the world keeps, in slot order (walker first).
  std::vector<NavWorld*> navs() const {
    std::vector<NavWorld*> v;
    for (const std::unique_ptr<NavWorld>& n : classes)
      if (n) v.push_back(n.get());
    return v;
  }
  AgentSystem agents;
  /// Flow fields (voxnav/crowds.h) and this World's tag in their handles (FlowId::owner).
  FlowFields flows;
  std::uint32_t flow_owner = 0;
  /// The hand-off of navigation changes to the agents: each class's ChangeFeed has a consumer
  /// exactly while some live agent follows that class, so a host that only updates keeps no
  /// changes. Called before the navigations update.
  void claim_changes() {
    std::array<bool, kClassSlots> followed{};
    for (std::size_t i = 0; i < agents.capacity(); ++i) {
      const AgentRecord& a = agents.at(i);
      if (!a.alive) continue;
      const std::uint32_t slot = agents.motion(a.motion).nav_slot;
      if (slot < kClassSlots) followed[slot] = true;
    }
    for (std::uint32_t s = 0; s < kClassSlots; ++s)
      if (classes[s]) classes[s]->change_feed().set_consumer(followed[s]);
  }
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
  // ---- the API's memory budget (src/api/memory_need.h; no heap is asked here) ----
  /// Bytes the next update() is expected to allocate at its peak for the navigation builds
  /// still pending (every class), charged by the calls that queued them and reset by update().
  std::size_t budget_pending_bytes = 0;
  /// Keys (chunk_key) of the chunks whose build is charged in budget_pending_bytes: a chunk
  /// edited again before the update is not charged twice. Membership only, never iterated.
  std::unordered_set<std::uint64_t> budget_chunks;
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

/// The flow fields' part of World::update (src/api/crowds.cpp): the followers' cells, then
/// FlowFields::update with the changes this update processed.
void update_flows(WorldState& ws, const std::vector<Change>& changes);

/// The walker class envelope in layer 0 units.
ClassEnvelope walker_envelope();
/// Compiles a profile into the follower's motion settings (costs, body, jump velocity).
AgentMotion compile_profile(const Profile& p);

}  // namespace voxnav::detail
