// voxnav - the ids a World hands out. Opaque: compare them, store them, pass them back; a handle
// whose slot was released or reused is refused with Status::StaleHandle.
#pragma once
#include <cstdint>

namespace voxnav {

/// Identifies a profile added to a World (index order of add_profile).
struct ProfileId {
  std::uint32_t index = 0xFFFFFFFFu;
};

/// Identifies a named area (index order of World::define_area).
struct AreaId {
  std::uint32_t index = 0xFFFFFFFFu;
};

/// Opaque, generation-checked handle of a path request. Passed by value; a released handle (or
/// one whose slot was reused) is rejected with Status::StaleHandle.
struct PathHandle {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  ///< 0 is never valid
};

/// Opaque, generation-checked agent id.
struct AgentId {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  ///< 0 is never valid
};

}  // namespace voxnav
