// voxnav - the ids a World hands out. Opaque: compare them, store them, pass them back; a handle
// whose slot was released or reused is refused with Status::StaleHandle.
#pragma once
#include <cstdint>

namespace voxnav {

/// Identifies a profile added to a World (index order of add_profile).
struct ProfileId {
  std::uint32_t index = 0xFFFFFFFFu;
  /// The id tag of the World that gave it (add_profile, find_profile). A World refuses a profile
  /// id whose owner is another World's tag (InvalidArgument, as an index never added); 0, an id
  /// made by hand from an index, is looked up by index alone.
  std::uint32_t owner = 0;
};

/// Identifies a named area (index order of World::define_area).
struct AreaId {
  std::uint32_t index = 0xFFFFFFFFu;
};

/// Agent ids and path handles carry their World's id tag (1 .. kMaxIdTag, id_tag(World)) in bits
/// 24-29 of their generation, above a counter that wraps within 1 .. 2^24 - 1: an id of another
/// World never matches a slot (StaleHandle), and every id fits one number (id_number).
inline constexpr std::uint32_t kIdTagShift = 24;
inline constexpr std::uint32_t kMaxIdTag = 63;
/// The generation after `generation` for a World of tag `tag`.
constexpr std::uint32_t next_generation(std::uint32_t generation, std::uint32_t tag) {
  const std::uint32_t count = (generation & ((1u << kIdTagShift) - 1)) + 1;
  return (tag << kIdTagShift) | (count >> kIdTagShift ? 1u : count);
}

/// Opaque, generation-checked handle of a path request. Passed by value; a released handle (or
/// one whose slot was reused, or a handle of another World) is rejected with Status::StaleHandle.
struct PathHandle {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  ///< 0 is never valid
};

/// Opaque, generation-checked agent id.
struct AgentId {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  ///< 0 is never valid
};

/// Opaque, generation-checked id of a host entity (voxnav/control.h add_entity): a position the
/// host sets each tick that agents may chase. Its generation carries the World's id tag like an
/// agent's; a removed entity's id (or another World's) is refused with Status::StaleHandle.
struct EntityId {
  std::uint32_t index = 0;
  std::uint32_t generation = 0;  ///< 0 is never valid
};

/// What an id number names (its low 2 bits): 0 is none.
enum class IdKind : std::uint8_t { None = 0, Agent = 1, Path = 2, Profile = 3 };
/// An id as one number, exact in a double, that says its kind and its World:
/// (generation * 2^21 + index) * 4 + kind for agents and paths (the generation holds the World's
/// tag), (index * 64 + owner) * 4 + 3 for profiles. Messages show ids so, and the npm package
/// hands them out so. A path handle's movement class (its index's bits 28 and up) goes to bits
/// 19-20 of the index part. False when the id has no such number (an agent index >= 2^21, more
/// than 2^19 requests of one class held, a generation of 2^30 or more, a profile without owner).
[[nodiscard]] bool id_number(AgentId agent, double* out) noexcept;
[[nodiscard]] bool id_number(PathHandle path, double* out) noexcept;
[[nodiscard]] bool id_number(ProfileId profile, double* out) noexcept;
/// The kind of id a number is (None: not an integer in 0 .. 2^53 - 1, or no kind bits).
IdKind id_number_kind(double number) noexcept;
/// The World id tag a number of kind `id_number_kind` carries.
std::uint32_t id_number_tag(double number) noexcept;
/// The id of such a number. False for a number id_number never gives, or one of another kind. A
/// number of an id a World never made decodes; the World refuses it as stale.
[[nodiscard]] bool id_of_number(double number, AgentId* out) noexcept;
[[nodiscard]] bool id_of_number(double number, PathHandle* out) noexcept;
[[nodiscard]] bool id_of_number(double number, ProfileId* out) noexcept;
/// The name of a kind ("agent id", "path handle", "profile id"; "" for None).
const char* id_kind_name(IdKind kind) noexcept;

}  // namespace voxnav
