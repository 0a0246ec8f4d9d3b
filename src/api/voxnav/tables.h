// voxnav - the public API's limits and enum names as tables, for hosts that export them by name
// (the npm package's LIMITS and its enum name lists). The values are the constants named in the
// headers (voxnav/types.h, requests.h, columns.h, io.h, world.h); nothing here adds a rule.
#pragma once
#include <span>

namespace voxnav {

/// One limit: its JS-style name ("maxCellXZ") and value (exact in a double).
struct NamedLimit {
  const char* name;
  double value;
};
/// The limits a host needs to check its arguments the way the World will, in a fixed order.
std::span<const NamedLimit> limits() noexcept;

/// One enum's value names, by the enum's number: name(0) .. name(count - 1).
struct EnumNames {
  const char* key;  ///< "status", "edgeKind", "agentMode", ...
  int count;
  const char* (*name)(int value);
};
/// Every enum whose numbers cross to a host (Status, EdgeKind, AgentMode, ReachAnswer,
/// ReachReason, PathState, PathFailure, BlockHazard, BlockFluid).
std::span<const EnumNames> enum_names() noexcept;

}  // namespace voxnav
