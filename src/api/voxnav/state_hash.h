// voxnav - a hash of the agents' state and corridors, to check that two runs (native and wasm,
// threads or none) agree bit for bit.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "voxnav/error.h"
#include "voxnav/status.h"

namespace voxnav {

class World;
struct AgentId;

/// FNV-1a 64 offset basis: the hash of no agents.
inline constexpr std::uint64_t kStateHashBasis = 0xcbf29ce484222325ull;

/// FNV-1a 64 over the state of `agents`, in the order given. For each agent, in this order and
/// as little-endian bytes: feet x, y, z and velocity x, y, z (IEEE doubles, their bit patterns),
/// mode (1 byte), on_ground (1 byte), arrivals, replans, repairs, requests and corridor epoch
/// (uint32 each), the facing (AgentState::yaw, uint16), the corridor's waypoint count (uint32),
/// then every waypoint of its corridor: position x, y, z
/// (the engine's doubles, exact cell centres and standing heights at any distance from the
/// origin), edge kind (1 byte) and cell x, y, z (int32). Equal hashes mean equal positions and
/// corridors to the last bit; the same World calls give the same hash natively and in wasm, with
/// or without threads.
///
/// Returns: Ok; StaleHandle (an id is not a live agent of `world`; `out` unchanged; `error`,
/// when non-null, names it: argument "agents", "agents[3] is not a live agent of this world");
/// InvalidArgument (a null `out`).
Status state_hash(const World& world, std::span<const AgentId> agents, std::uint64_t* out,
                  CallError* error = nullptr);
/// A hash as the tools and the npm package print it: 16 lowercase hex digits.
std::string state_hash_text(std::uint64_t hash);

}  // namespace voxnav
