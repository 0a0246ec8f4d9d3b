// What a voxnav::World holds (the engine side of the public World facade).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/follow/agents.h"
#include "engine/io/minecraft_registry.h"
#include "engine/nav/nav_world.h"
#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "voxnav/profile.h"

namespace voxnav::detail {

struct WorldState {
  BlockRegistry registry;
  MinecraftBlocks blocks;  ///< name/state lookups when a Minecraft registry is loaded
  Space space{&registry};
  std::unique_ptr<NavWorld> walker;  ///< navigation for the walker class
  AgentSystem agents;
  std::vector<Profile> profiles;
  std::vector<std::uint32_t> profile_motion;  ///< profile index -> AgentSystem motion index
};

/// The walker class envelope in layer 0 units.
ClassEnvelope walker_envelope();
/// Compiles a profile into the follower's motion settings (costs, body, jump velocity).
AgentMotion compile_profile(const Profile& p);

}  // namespace voxnav::detail
