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

/// An id as one number, exact in a double: generation * 2^21 + index. Messages show ids so, and
/// the npm package hands them out so. A path handle's movement class (its index's bits 28 and up)
/// goes to bits 19-20 of the number's index part. False when the id has no such number (an agent
/// index >= 2^21, more than 2^19 requests of one class held).
[[nodiscard]] bool id_number(AgentId agent, double* out) noexcept;
[[nodiscard]] bool id_number(PathHandle path, double* out) noexcept;
/// The id of such a number. False for a number id_number never gives (not an integer, negative,
/// 2^53 or more). A number of an id a World never made decodes; the World refuses it as stale.
[[nodiscard]] bool id_of_number(double number, AgentId* out) noexcept;
[[nodiscard]] bool id_of_number(double number, PathHandle* out) noexcept;

}  // namespace voxnav
