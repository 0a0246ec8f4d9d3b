// voxnav - path requests and queries: reachability answers, requests, their status and
// corridors. The calls are World's (world.h); see docs/requests.md for how they behave.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "voxnav/ids.h"
#include "voxnav/types.h"

namespace voxnav {

/// The most named areas a World holds (a filter's include/exclude set is one 32-bit word).
inline constexpr std::size_t kMaxAreas = 32;
/// World::define_area: name length in bytes, cost in cells. [Limit: 1..kMaxAreaNameBytes,
/// kMinAreaCost..kMaxAreaCost]
inline constexpr std::size_t kMaxAreaNameBytes = 64;
inline constexpr double kMinAreaCost = -0.6;
inline constexpr double kMaxAreaCost = 1000;
/// AreaFilter::multiplier entries. [Limit: 0..kMaxAreaMultiplier]
inline constexpr double kMaxAreaMultiplier = 1000;
/// NavRequest::goal_range and World::nearest_standable's radius, cells. [Limit: 0..kMaxGoalRange]
inline constexpr int kMaxGoalRange = 64;
inline constexpr int kMaxNearestRadius = 64;

/// One request's reading of the named areas (World::define_area), so that creatures sharing one
/// set of navigation data take different routes: per area, a multiplier on the area's cost and
/// whether the route may enter it at all. The default reads every area as defined.
struct AreaFilter {
  /// Bit i set: the route never enters a cell of area i (AreaId::index).
  std::uint32_t excluded = 0;
  /// Area i's cost is multiplied by multiplier[i] (0 .. 1000; the result rounds to the search's
  /// integer cost units).
  std::array<double, kMaxAreas> multiplier = [] {
    std::array<double, kMaxAreas> m{};
    m.fill(1.0);
    return m;
  }();
  bool is_default() const {
    if (excluded) return false;
    for (double x : multiplier)
      if (x != 1.0) return false;
    return true;
  }
};

/// Answer of a reachability query. `No` is never wrong for the profile's class; `Unknown` says
/// why it cannot answer (the search decides). Store `epoch` with a give-up and ask again once
/// World::nav_epoch() has moved on.
enum class ReachAnswer : std::uint8_t { Yes, No, Unknown };
enum class ReachReason : std::uint8_t {
  None,               ///< Yes or No
  NotLoaded,          ///< a cell's chunk is not loaded (or out of range)
  StartNotStandable,  ///< the start cell is not standable for the class
  GoalNotStandable,   ///< the goal cell is not standable for the class
  DoorGated,
  ProfileRestricted,
  FlightSearch,
  BadProfile,  ///< the profile id is not a profile of this world (nothing was looked up)
};
struct Reach {
  ReachAnswer answer = ReachAnswer::Unknown;
  ReachReason reason = ReachReason::None;
  std::uint64_t epoch = 0;
};
const char* reach_answer_name(ReachAnswer a) noexcept;
const char* reach_reason_name(ReachReason r) noexcept;

/// A path request. Goal: the cell `goal`, or any cell within `goal_range` cells of it on every
/// axis. `toward`: a route that gets as close as the search budget allows is a success (partial).
struct NavRequest {
  ProfileId profile;
  CellPos start;  ///< a standable cell (feet cell)
  CellPos goal;
  int goal_range = 0;  ///< cells [Limit: 0..kMaxGoalRange]
  bool toward = false;
  /// How this request reads the named areas (costs, exclusions); the default reads them as
  /// defined. Reachability screening ignores it: an excluded area can make a Yes fail NoPath.
  AreaFilter filter;
};

enum class PathState : std::uint8_t { Searching, Ready, Failed };
enum class PathFailure : std::uint8_t {
  None,
  Unreachable,
  NoPath,
  BudgetExhausted,
  BadStart,
  BadGoal,
  NotLoaded,
  /// Agents only (AgentState::failure of a Blocked agent, never a request's): an edit put
  /// blocks inside the agent's body and no standable cell lies within kEmbeddedPushRadius of it
  /// to push it out to (voxnav/agents.h, docs/agents.md#embedded). Named "embedded".
  Embedded
};
/// The last PathFailure (the bindings name every value up to it: keep it the last one).
inline constexpr PathFailure kLastPathFailure = PathFailure::Embedded;
struct PathStatus {
  PathState state = PathState::Failed;
  PathFailure failure = PathFailure::None;
  bool partial = false;    ///< Ready with a route that stops short (request_toward)
  std::uint32_t cost = 0;  ///< integer cost: 10000 per cell, 14142 per diagonal, + extras
  std::uint32_t nodes_expanded = 0;
  std::uint32_t cell_count = 0;  ///< cells of the search path
  std::uint32_t waypoint_count = 0;
};
const char* path_state_name(PathState s) noexcept;
const char* path_failure_name(PathFailure f) noexcept;

/// The search budget of a new World (World::set_searches_per_update): path searches dispatched
/// per update() and movement class; the rest wait, oldest first. 256 spreads a burst of thousands
/// of goals over ticks (10,000 goals: 40 updates) and still plans a crowd of up to 256 agents of
/// one class at once, as without a budget. [Limit: 0..World::kMaxSearchesPerUpdate; 0: no limit]
inline constexpr int kDefaultSearchesPerUpdate = 256;

/// How many of the latest searches World::search_times_us() keeps (their wall times).
inline constexpr std::size_t kSearchTimesKept = 4096;

/// Edge kinds of moves and corridor waypoints.
enum class EdgeKind : std::uint8_t {
  Start = 0,
  Walk,
  StepUp,
  StepDown,
  Jump,
  Drop,
  GapJump,
  Climb,
  Swim,
  Door,
  Fly
};
const char* edge_kind_name(EdgeKind k) noexcept;

/// One corridor waypoint: a feet position in metres and the kind of edge that reaches it. The
/// position is exact (a cell centre x + 0.5, z + 0.5 and the standing height) for every cell in
/// range, however far from the origin.
struct Waypoint {
  Vec3 position;
  EdgeKind kind = EdgeKind::Walk;
  CellPos cell;
};
/// One cell of a search path with the kind of the edge entering it.
struct PathCell {
  CellPos cell;
  EdgeKind kind = EdgeKind::Walk;
};

/// The answer of World::find_path_now: the status a request would end with (state Ready or
/// Failed, never Searching) and, when Ready, its corridor and search cells (as corridor() and
/// path_cells() would copy them).
struct PathResult {
  PathStatus status;
  std::vector<Waypoint> waypoints;
  std::vector<PathCell> cells;
};

}  // namespace voxnav
