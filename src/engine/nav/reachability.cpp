#include "engine/nav/reachability.h"

#include <algorithm>

#include "engine/nav/chunk_builds.h"

namespace voxnav {

const char* reach_reason_name(ReachReason r) noexcept {
  switch (r) {
    case ReachReason::None:
      return "none";
    case ReachReason::NotLoaded:
      return "not_loaded";
    case ReachReason::StartNotStandable:
      return "start_not_standable";
    case ReachReason::GoalNotStandable:
      return "goal_not_standable";
    case ReachReason::DoorGated:
      return "door_gated";
    case ReachReason::ProfileRestricted:
      return "profile_restricted";
    case ReachReason::FlightSearch:
      return "flight_search";
    case ReachReason::BadProfile:
      return "bad_profile";
  }
  return "?";
}

}  // namespace voxnav

namespace voxnav::detail {

Reach Reachability::reachable(CellPos from, CellPos goal, int goal_range, std::uint8_t gates,
                              bool restricted) {
  Reach r;
  r.epoch = ctx_.epoch;
  if (!cell_in_range(from) || !cell_in_range(goal)) {
    r.reason = ReachReason::NotLoaded;
    return r;
  }
  const NavChunk* fc = ctx_.grid.chunk(chunk_of(from));
  const NavChunk* gc = ctx_.grid.chunk(chunk_of(goal));
  if (!fc || !gc) {
    r.reason = ReachReason::NotLoaded;
    return r;
  }
  // Node cells carry a label; a chunk without labels (uniform, no node) has none.
  const std::uint32_t a = ctx_.islands.component_at(fc, index_in_chunk(from));
  if (!a) {
    r.reason = ReachReason::StartNotStandable;
    return r;
  }
  const std::uint32_t b = ctx_.islands.component_at(gc, index_in_chunk(goal));
  if (!b) {
    r.reason = ReachReason::GoalNotStandable;
    return r;
  }
  if (ctx_.islands.reaches(a, b, gates)) {
    r.answer = restricted ? ReachAnswer::Unknown : ReachAnswer::Yes;
    if (restricted) r.reason = ReachReason::ProfileRestricted;
  } else if ((gates & kGateAll) != kGateAll && ctx_.islands.reaches(a, b, kGateAll)) {
    // The class gets there through a gate this profile may not use: a door (the host may open
    // it, or the profile may be one that opens doors) or another gate kind.
    r.answer = ReachAnswer::Unknown;
    r.reason = ctx_.islands.reaches(a, b, gates | kGateDoorOpen | kGateDoorClosed)
                   ? ReachReason::DoorGated
                   : ReachReason::ProfileRestricted;
  } else if (builds_.any_unbuilt() && reaches_frontier(a)) {
    // The way may run through a chunk not built yet (deferred, or its build pending): not a No.
    r.answer = ReachAnswer::Unknown;
    r.reason = ReachReason::NotLoaded;
    ++ctx_.stats.frontier_unknowns;
  } else if (goal_range > 0) {
    r.answer = ReachAnswer::Unknown;  // another cell within range may still be reachable
  } else {
    r.answer = ReachAnswer::No;
    if (builds_.any_unbuilt()) ++ctx_.stats.nos_with_unbuilt;
  }
  return r;
}

// Why a No stays right while some loaded chunks are not built (streaming). The full graph is the
// move graph the class would have with every loaded chunk built; the built graph is the one the
// islands describe. Layer 0 of a built chunk reads only blocks, which are loaded, so it equals the
// full graph's. A cell's moves (compute_moves_for_cell) read layer 0 within two columns of it
// (walk, step, jump and drop moves one column away, gap jumps two cells along an axis, the danger
// band one column, two toward +x and +z for the 2x2 footprint) from max_drop cells below it to
// two above (the danger band; three for the 2x2 footprint), and land inside that box (a step,
// jump or climb one above, a drop up to max_drop below); an unbuilt cell reads as no chunk: no
// move, no hazard. So a node cell of a built chunk whose box misses every unbuilt chunk
// has the same moves in both graphs (and the same gate kind: the danger band only changes kinds
// among standable ones). Call the others *frontier cells*. Suppose the full graph has a path P
// from a to b that the built graph lacks. Take the first cell f of P that is a frontier cell or
// lies in an unbuilt chunk. The cells before f are not frontier cells, so their moves, and the
// move into f, are in the built graph; f cannot lie in an unbuilt chunk (the move into it would
// make its source a frontier cell), unless f is the start itself, which lies in a built chunk.
// So f is a frontier cell that a reaches in the built graph, through the gate cells P uses. No is
// given only when not even with every gate kind a reaches b, so testing the frontier with every
// gate kind is conservative for every mask: when a reaches no frontier island, the built graph
// answers for the full graph and No is right.
void Reachability::refresh_frontier() {
  const IslandStats& is = ctx_.islands.stats();
  const std::array<std::uint64_t, 5> key{ctx_.layers_version, ctx_.epoch, is.deltas, is.rebuilds,
                                         ctx_.islands.id_bound()};
  if (key == frontier_key_) return;
  frontier_key_ = key;
  ++ctx_.stats.frontier_scans;
  frontier_.clear();
  const std::vector<ChunkPos> unbuilt = builds_.unbuilt_chunks();
  // The band of a built chunk facing an unbuilt neighbour: the cells whose move box (above)
  // reaches into it. Horizontally two cells (gap jumps land two cells away; more if the class's
  // gap reach ever grows), max_drop + 1 cells up from the bottom face (drops read and land up to
  // max_drop below, one more for margin), four cells down from the top face (a step or jump
  // lands one above, the danger band reads two above, three for the 2x2 footprint; one more for
  // margin).
  const ClassEnvelope& env = ctx_.grid.envelope();
  const int h = std::max(2, env.gap_reach + 1);
  const int below = std::max(2, env.max_drop + 1);
  const int above = 4;
  for (const ChunkPos& u : unbuilt) {
    if (!builds_.is_unbuilt(u)) continue;
    for (int oy = -1; oy <= 1; ++oy)
      for (int oz = -1; oz <= 1; ++oz)
        for (int ox = -1; ox <= 1; ++ox) {
          if ((ox | oy | oz) == 0) continue;
          // n is the built chunk, u = n + (ox, oy, oz).
          const NavChunk* n = ctx_.grid.chunk({u.x - ox, u.y - oy, u.z - oz});
          if (!n || n->uniform || !n->scc || n->nodes == 0) continue;
          auto range = [](int o, int toward_plus, int toward_minus, int& lo, int& hi) {
            lo = 0;
            hi = 15;
            if (o > 0) lo = 16 - toward_plus;
            if (o < 0) hi = toward_minus - 1;
          };
          int x0, x1, y0, y1, z0, z1;
          range(ox, h, h, x0, x1);
          range(oz, h, h, z0, z1);
          range(oy, above, below, y0, y1);
          for (int y = y0; y <= y1; ++y)
            for (int z = z0; z <= z1; ++z)
              for (int x = x0; x <= x1; ++x) {
                const std::uint32_t id = ctx_.islands.component_at(n, x | (z << 4) | (y << 8));
                if (id) frontier_.push_back(id);
              }
        }
  }
  std::sort(frontier_.begin(), frontier_.end());
  frontier_.erase(std::unique(frontier_.begin(), frontier_.end()), frontier_.end());
}

bool Reachability::reaches_frontier(std::uint32_t a) {
  refresh_frontier();
  // Islands::reaches keeps one reach set per source and mask, so this walks the DAG once.
  for (const std::uint32_t f : frontier_)
    if (ctx_.islands.reaches(a, f, kGateAll)) return true;
  return false;
}

}  // namespace voxnav::detail
