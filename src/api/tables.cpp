// voxnav - the limits and enum names tables (voxnav/tables.h).
#include "voxnav/tables.h"

#include "voxnav/columns.h"
#include "voxnav/control.h"
#include "voxnav/io.h"
#include "voxnav/queries.h"
#include "voxnav/world.h"

namespace voxnav {

std::span<const NamedLimit> limits() noexcept {
  static constexpr NamedLimit kTable[] = {
      {"maxCellXZ", kMaxCellXZ},
      {"maxCellY", kMaxCellY},
      {"chunkEdge", kChunkEdge},
      {"chunkValues", kChunkValues},
      {"maxChunkXZ", kMaxChunkXZ},
      {"maxChunkY", kMaxChunkY},
      {"maxBoxCells", double(kMaxBoxCells)},
      {"maxBoxChunks", double(kMaxBoxChunks)},
      {"maxAreas", double(kMaxAreas)},
      {"maxAreaNameBytes", double(kMaxAreaNameBytes)},
      {"minAreaCost", kMinAreaCost},
      {"maxAreaCost", kMaxAreaCost},
      {"maxAreaMultiplier", kMaxAreaMultiplier},
      {"maxGoalRange", kMaxGoalRange},
      {"maxNearestRadius", kMaxNearestRadius},
      {"maxChunkBuildRadius", World::kMaxChunkBuildRadius},
      {"maxSearchesPerUpdate", World::kMaxSearchesPerUpdate},
      {"maxTickSeconds", World::kMaxTickSeconds},
      {"searchTimesKept", double(kSearchTimesKept)},
      {"maxColumnTopsColumns", double(kMaxColumnTopsColumns)},
      {"maxColumnTopsHeight", double(kMaxColumnTopsHeight)},
      {"maxColumnTopsCells", double(kMaxColumnTopsCells)},
      {"noColumnTop", kNoColumnTop},
      {"maxInflatedBytes", double(kMaxInflatedBytes)},  // one load's budget
      // agents the game controls and the queries a brain asks (control.h, queries.h)
      {"maxLookahead", kMaxLookahead},
      {"maxKnock", kMaxKnock},
      {"maxEntities", double(kMaxEntities)},
      {"minChaseRange", kMinChaseRange},
      {"maxChaseRange", kMaxChaseRange},
      {"maxFleeDistance", kMaxFleeDistance},
      {"maxLineWalkCells", kMaxLineWalkCells},
      {"maxLineFlyCells", kMaxLineFlyCells},
      {"maxSpawnBoxCells", double(kMaxSpawnBoxCells)},
      {"maxSpawnCells", double(kMaxSpawnCells)},
      {"maxCellMoves", double(kMaxCellMoves)},
      {"maxFilterPoints", double(kMaxFilterPoints)},
      {"maxFilterDistance", kMaxFilterDistance},
      {"maxFilterHeadroom", kMaxFilterHeadroom},
      {"maxFilterHazardDistance", kMaxFilterHazardDistance},
  };
  return kTable;
}

namespace {
// name(int) of an enum E whose names come from `f`.
template <class E, const char* (*F)(E) noexcept>
const char* by_number(int v) {
  return F(static_cast<E>(v));
}
template <class E, const char* (*F)(E) noexcept>
constexpr EnumNames entry(const char* key, E last) {
  return {key, static_cast<int>(last) + 1, &by_number<E, F>};
}
}  // namespace

std::span<const EnumNames> enum_names() noexcept {
  static const EnumNames kTable[] = {
      entry<Status, status_name>("status", kLastStatus),
      entry<EdgeKind, edge_kind_name>("edgeKind", EdgeKind::Fly),
      entry<AgentMode, agent_mode_name>("agentMode", AgentMode::Blocked),
      entry<ReachAnswer, reach_answer_name>("reachAnswer", ReachAnswer::Unknown),
      entry<ReachReason, reach_reason_name>("reachReason", ReachReason::BadProfile),
      entry<PathState, path_state_name>("pathState", PathState::Failed),
      entry<PathFailure, path_failure_name>("pathFailure", kLastPathFailure),
      entry<BlockHazard, block_hazard_name>("blockHazard", BlockHazard::Other),
      entry<BlockFluid, block_fluid_name>("blockFluid", BlockFluid::Harmful),
  };
  return kTable;
}

}  // namespace voxnav
