// Steering of agents among each other (docs/crowds.md#steering): a spatial grid of the bodies,
// ORCA avoidance (reciprocal velocity obstacles) of the drive before the movement step, positional
// separation of overlapping bodies after it, and arrival contagion. Deterministic: neighbours come
// in a fixed order (distance, then agent slot), every sum runs in that order, and the arithmetic is
// IEEE +, -, *, /, sqrt in double (bit-identical natively and in wasm).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/integrate/integrate.h"
#include "engine/steer/agent_grid.h"
#include "voxnav/crowds.h"
#include "voxnav/profile.h"

namespace voxnav::detail {

struct AgentRecord;
struct AgentMotion;
class NavWorld;

/// A profile's steering, compiled (AgentMotion::steer).
struct SteerParams {
  bool orca = true;           ///< Avoidance::enabled (and max_neighbours > 0)
  double radius = 0.3;        ///< ORCA radius, cells (Avoidance::radius, 0: half the body width)
  double time_horizon = 1.0;  ///< seconds
  int max_neighbours = 8;     ///< [0, kMaxOrcaNeighbours]
};
SteerParams compile_steer(const Avoidance& a, double body_width);

/// One ORCA constraint: the velocities v with det(direction, v - point) >= 0 are allowed, where
/// det(a, b) = a.x b.z - a.z b.x (the half-plane left of the directed line, x right and z up).
struct OrcaLine {
  double px = 0, pz = 0;  ///< a point on the line
  double dx = 0, dz = 0;  ///< unit direction
};

/// The new velocity ORCA picks for an agent (2D, x and z): the velocity closest to `pref` inside
/// every half-plane of `lines` and the disc of radius `max_speed`, or, when they leave no room, the
/// one violating them least (the 3D program of van den Berg et al.). `scratch` holds
/// lines.size() entries. Fixed evaluation order, no allocation.
void orca_solve(const OrcaLine* lines, std::size_t count, double max_speed, double pref_x,
                double pref_z, OrcaLine* scratch, double& out_x, double& out_z);

/// The half-plane agent A's velocity must keep to avoid B within `time_horizon`: A at the origin,
/// B at relative position (rx, rz) with relative velocity (vA - vB) = (ux, uz), combined radius
/// `r`, A's own velocity (vx, vz); `share` is A's part of the avoidance (0.5 reciprocal, 1 when B
/// does not avoid). `dt` is the tick (the collision case resolves within one tick).
OrcaLine orca_line(double rx, double rz, double ux, double uz, double vx, double vz, double r,
                   double time_horizon, double dt, double share);

class Steering {
 public:
  /// ORCA neighbours at most (Avoidance::max_neighbours' limit).
  static constexpr int kMaxOrcaNeighbours = 32;
  /// Separation looks at this many nearest overlapping bodies per agent at most.
  static constexpr int kMaxSeparationNeighbours = 16;
  /// Bodies closer than the sum of their radii plus this (cells) touch (arrival contagion).
  static constexpr double kContactMargin = 0.1;
  /// The largest push separation gives one body in one tick, as a fraction of its radius.
  static constexpr double kMaxPushFraction = 0.5;
  /// Grid buckets: 2^kOrcaShift cells for ORCA's queries (a range of about 9 cells at walking
  /// speed and a 1 s horizon), one cell for separation and contact (under a cell).
  static constexpr int kOrcaShift = 2;
  static constexpr int kContactShift = 0;

  void set_separation(bool on) { separation_ = on; }
  bool separation() const { return separation_; }

  /// Before the agents follow: records every live agent's body (position, velocity, radii, and
  /// whether it avoids back) in the grid that avoid() reads. `count` records at `agents`.
  void begin(const AgentRecord* agents, std::size_t count, const AgentMotion* motions);
  /// ORCA for agent `slot` (a Moving walker on the ground, walking, with avoidance): replaces the
  /// horizontal drive `in.move_x/z` by the velocity ORCA picks against the bodies recorded by
  /// begin(). The navigation has the last word: when the body would end the tick where a push
  /// could not take it (push_allowed: a wall, a cell it cannot stand in, a hazard), the drive is
  /// left as it was. Other agents and drives are left alone.
  /// `dt`: the step's seconds (a reduced agent's step spans several ticks).
  void avoid(std::uint32_t slot, const AgentRecord& a, const AgentMotion& m, const NavWorld& nav,
             const Space& space, double dt, DriveInput& in);
  /// The slot of the nearest body (as begin() recorded them) other than agent `slot`'s that
  /// touches its body within `margin` cells in front of it (toward (dx, dz): less than a quarter
  /// turn off), or AgentGrid::kNone. Fixed order: (distance, slot).
  std::uint32_t in_the_way(std::uint32_t slot, double dx, double dz, double margin) const;
  /// After every agent moved: separation (when on), then arrival contagion. Returns the slots,
  /// ascending, of Moving agents that touch an agent Arrived on the same order (the caller makes
  /// them Arrived). `navs` indexed by AgentMotion::nav_slot (null: no pushes for that class).
  const std::vector<std::uint32_t>& finish(AgentRecord* agents, std::size_t count,
                                           const AgentMotion* motions, const NavWorld* const* navs,
                                           std::size_t nav_count, const Space& space);

  /// Statistics of the last tick: ORCA neighbours summed over agents, pushes applied and pushes
  /// refused by the navigation (whole or shortened).
  /// The public counters (voxnav/crowds.h), kept as they are reported.
  const SteeringStats& stats() const { return stats_; }

 private:
  /// Records the bodies of live agents into grid_ (positions as they are now).
  void record(const AgentRecord* agents, std::size_t count, const AgentMotion* motions,
              int min_shift);
  /// Whether the body of `a` may stand at feet (x, z) (its y unchanged): with `blocks`, no block
  /// inside it (a push moves the body without the movement step; ORCA's velocity goes through the
  /// step, which collides itself); and its foot cell the one it is in, or one the class stands on
  /// and the profile enters (no damage cell, door, ladder or water, and no cell beside a hazard
  /// from a safe one).
  static bool push_allowed(const AgentRecord& a, const AgentMotion& m, const NavWorld& nav,
                           const Space& space, double x, double z, bool blocks);

  bool separation_ = true;
  AgentGrid grid_;
  SteeringStats stats_;
  std::vector<double> push_x_, push_z_;  // per grid entry
  std::vector<std::uint32_t> contagion_;
};

}  // namespace voxnav::detail
