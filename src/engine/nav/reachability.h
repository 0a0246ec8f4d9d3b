// Reachability: the answers of one NavWorld to "can a profile get from here to there", read from
// the islands, with the frontier that keeps a No honest while some loaded chunks are not built.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "engine/nav/nav_context.h"

namespace voxnav::detail {

class ChunkBuilds;

class Reachability {
 public:
  Reachability(NavContext& ctx, const ChunkBuilds& builds) : ctx_(ctx), builds_(builds) {}

  /// Reachability from `from` to `goal` (or a cell within `goal_range`) for a profile that may
  /// enter the gate kinds `gates` (GateBits) and, when `restricted`, cannot do everything else
  /// its class can (its Yes answers become Unknown(ProfileRestricted)). No only when the class
  /// itself cannot get there; Unknown(DoorGated) when only a closed or open door the profile
  /// may not use decides; Unknown(ProfileRestricted) when another gate kind does. While some
  /// loaded chunk is not built (streaming), No also needs the start to reach, with every gate
  /// kind, no frontier island (one with a node cell whose moves read a cell of an unbuilt chunk):
  /// else Unknown(NotLoaded). The frontier is computed when first needed after a change.
  Reach reachable(CellPos from, CellPos goal, int goal_range, std::uint8_t gates, bool restricted);

 private:
  /// Whether island a (an id from Islands::component) reaches, with every gate kind, an island
  /// with a node cell that may have a move the built chunks lack: one whose moves read a cell of
  /// an unbuilt chunk (see frontier_ and reachable()).
  bool reaches_frontier(std::uint32_t a);
  void refresh_frontier();

  NavContext& ctx_;
  const ChunkBuilds& builds_;
  // The frontier: ids (roots) of the islands holding a node cell within the move reach of an
  // unbuilt chunk, valid while frontier_key_ matches (layers, islands and built set unchanged).
  std::vector<std::uint32_t> frontier_;
  std::array<std::uint64_t, 5> frontier_key_{};
};

}  // namespace voxnav::detail
