// The stuck watch of `voxnav run`: which agents have not moved toward their goal for a while,
// judged from their positions alone (what a position trace of the run shows), with the reason
// the agent gives.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/world.h"

namespace voxnav::cli {

/// An agent is *stuck* when it has a goal it has not reached (its mode is not Arrived) and for
/// kStuckSeconds of simulated time or more its feet have not come kStuckProgress metres closer
/// to that goal (the centre of the goal cell's floor, straight-line distance) than they had been
/// since the goal was given. Reaching a goal counts as progress; a new goal keeps the clock
/// running (an agent given goal after goal, none of which it walks toward, is stuck). Time is
/// counted in ticks: kStuckSeconds is ceil(5 / dt) ticks (100 at 20 Hz).
class StuckWatch {
 public:
  static constexpr double kStuckSeconds = 5.0;
  static constexpr double kStuckProgress = 0.5;
  static constexpr double kInPlace = 2.0;

  struct Entry {
    std::size_t agent = 0;   ///< index in the run's agent list
    AgentMode mode = AgentMode::Idle;
    PathFailure failure = PathFailure::None;
    double seconds = 0;      ///< simulated time since its last progress
    /// How far (metres, straight line) its feet are from where they were at its last progress:
    /// small for a body pacing or held in place, large for one walking a long way round.
    double moved = 0;
    /// The farthest its feet went from there since (metres): under kInPlace, it is stuck *in
    /// place* (walled in, held, pacing); beyond, it walked off, likely a long way round.
    double farthest = 0;
    std::string reason;      ///< agent_reason, or what the watch saw ("no progress ...")
  };

  /// `agents` agents simulated in ticks of `dt` seconds.
  StuckWatch(std::size_t agents, double dt);
  /// Agent `i` was given `goal` after `tick` ticks (0: before the first).
  void goal(std::size_t i, CellPos goal, const Vec3& feet, std::int64_t tick);
  /// Agent `i`'s state after `tick` ticks.
  void observe(std::size_t i, const AgentState& s, std::int64_t tick);
  /// The agents stuck after `tick` ticks, in index order, with their reasons.
  std::vector<Entry> stuck(const World& world, const std::vector<AgentId>& ids,
                           std::int64_t tick) const;
  /// kStuckSeconds in ticks.
  std::int64_t threshold_ticks() const { return threshold_; }

 private:
  struct Agent {
    bool has_goal = false;
    Vec3 goal;
    double best = 0;
    std::int64_t since = 0;  ///< tick of the last progress
    Vec3 at;                 ///< feet at the last progress
    Vec3 now;                ///< feet at the last observation
    double farthest = 0;     ///< farthest from `at` since
    std::uint32_t arrivals = 0;
    AgentMode mode = AgentMode::Idle;
  };
  std::vector<Agent> agents_;
  double dt_;
  std::int64_t threshold_;
};

/// How many of the entries are stuck in place (farthest < kInPlace).
std::size_t in_place_count(const std::vector<StuckWatch::Entry>& entries);
/// "agent 3: blocked: embedded: ..." (the text form of an entry).
std::string stuck_text(const StuckWatch::Entry& e);
/// The entries as a JSON array of {"agent","mode","failure","seconds","moved_m","farthest_m",
/// "in_place","reason"}.
std::string stuck_json(const std::vector<StuckWatch::Entry>& entries);

}  // namespace voxnav::cli
