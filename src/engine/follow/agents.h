// Agents: bodies that follow corridors with the shared movement integrator, replan when the
// world changes under them, and report Blocked (with a reason) when they cannot make progress.
#pragma once
#include <cmath>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "engine/flow/flow_fields.h"
#include "engine/follow/facing.h"
#include "engine/follow/corridor_index.h"
#include "engine/integrate/integrate.h"
#include "engine/nav/nav_world.h"
#include "engine/steer/steer.h"
#include "voxnav/agents.h"
#include "voxnav/control.h"

namespace voxnav::detail {

namespace flight {
class FlyerNav;
}

/// Compiled per-profile movement settings used by the follower.
struct AgentMotion {
  /// Which navigation the agent follows: the slot of its movement class in the navigations
  /// step() is given (0: walker, 1: walker_small, 2: swimmer, 3: walker_large; see World).
  std::uint8_t nav_slot = 0;
  /// A swimmer: the body moves in MotionMode::Swim at swim_speed, and the follower steers it in
  /// 3D along the cell path (see AgentSystem::swim_drive).
  bool swims = false;
  /// A flyer: its requests go to the World's flyer navigation (flight/flyer_nav.h), the body
  /// moves in BodyMode::Fly at walk_speed (3D), and the follower is flyer_follow.cpp's. Its
  /// nav_slot is WorldState::kFlyerSlot (no NavWorld).
  bool flies = false;
  /// Body centre minus foot-cell centre along x and z, cells (ClassEnvelope::foot_offset: 0.5 for
  /// walker_large, whose cells are the low corners of its 2x2 footprint). A body at position p
  /// stands in foot cell floor(p - foot_offset) (x and z), and steers its centre to a waypoint
  /// plus foot_offset.
  double foot_offset = 0.0;
  BodyParams body;
  double walk_speed = 4.3;     ///< m/s
  double swim_speed = 0.0;     ///< m/s (swimmers)
  double arrive_radius = 0.5;  ///< cells
  CostTable costs;
  SteerParams steer;  ///< ORCA avoidance among agents (engine/steer)
  ControlParams control;  ///< turn rate, sprint speed, strafe, knock resistance (facing.h)
  std::uint32_t max_nodes = 100000;
  int max_distance = 0;
};

/// The foot cell of a body whose feet (bottom centre) are at `p`: x and z shifted by
/// -foot_offset (see AgentMotion::foot_offset), then floored; y floored just above the feet.
inline CellPos foot_cell(const Vec3& p, double foot_offset) {
  return CellPos{static_cast<std::int32_t>(std::floor(p.x - foot_offset)),
              static_cast<std::int32_t>(std::floor(p.y + 1e-3)),
              static_cast<std::int32_t>(std::floor(p.z - foot_offset))};
}


/// A door cell an agent avoids after it stayed shut in front of it: every request the agent makes
/// carries it (RequestSpec::avoid) until the navigation tick `until`.
struct AvoidedDoor {
  CellPos cell;
  std::uint64_t until = 0;
};

/// A DoorAhead event: the agent stopped before the closed door cell `door` at navigation tick
/// `tick` (NavWorld::tick()) and holds until it opens.
struct DoorEventRecord {
  std::uint32_t agent_index = 0;
  std::uint32_t agent_generation = 0;
  CellPos door;
  std::uint64_t tick = 0;
};

/// What an agent's order is (docs/agents.md#goals-and-intents): a goal cell (or a flow field),
/// a moving target to come within a range of, a cell far enough from a point, or a path the host
/// requested.
enum class AgentIntent : std::uint8_t { Goal, Chase, Flee, Path };

/// A host entity: a position the host sets each tick, which agents may chase.
struct EntityRecord {
  std::uint32_t generation = 1;
  bool alive = false;
  Vec3 position;
};

struct AgentRecord {
  std::uint32_t generation = 1;
  bool alive = false;
  std::uint32_t motion = 0;  ///< index into the motion table
  BodyState body;
  CellPos goal;
  int goal_range = 0;
  bool has_goal = false;
  AgentMode mode = AgentMode::Idle;
  PathHandle request;
  Corridor corridor;
  std::size_t next = 0;        ///< next waypoint index
  std::size_t cell_index = 0;  ///< progress along corridor.cells (for validation)
  CellPos last_cell;              ///< last standable cell the body stood in
  double best_dist = 1e30;
  int ticks_without_progress = 0;
  int replans_in_row = 0;
  /// Where the last replan of the stuck watch started (valid while `stalled`): reaching a
  /// waypoint in that cell again (the new corridor's first) is no progress, so a replan of the
  /// same failing move counts toward kMaxReplansInRow instead of starting the count again.
  CellPos stall_cell;
  bool stalled = false;
  int blocked_ticks = 0;  ///< ticks spent Blocked (a retry comes every kBlockedRetryTicks)
  bool last_hit_wall = false;
  /// A flyer blocked by a wall slides down (its upward slide met a ceiling), until it passes.
  bool fly_slide_down = false;
  /// Plan again at the next step: the body was teleported while it had a goal, or its start could
  /// not be stood on while it was still falling (it plans once it lands).
  bool replan = false;
  int fall_ticks = 0;   ///< ticks waited for the body to land before planning (see `replan`)
  bool placed = false;  ///< added or teleported, and no corridor installed since
  /// The corridor stops short of the goal (a request toward a goal past unbuilt chunks, with a
  /// build radius): at its end the agent plans again instead of arriving.
  bool partial = false;
  /// Staged trips (RequestSpec::staged): the distance (cost units: octile in x/z plus kCostStraight
  /// per cell of height) from the nearest stage end so far to the goal, and the doublings of the search budget in force (a stage that ends no
  /// nearer than an earlier one doubles it, up to kMaxStageBoost: stages cannot circle for ever).
  std::uint32_t stage_best = 0xFFFFFFFFu;
  int stage_boost = 0;
  /// The corridor's path visits some cell twice (a detour spliced across its own path): its
  /// next repair pulls it whole instead of mapping old waypoints to path cells.
  bool corridor_repeats = false;
  // Doors: holding before a closed door cell on the corridor, and the doors to avoid.
  bool door_waiting = false;    ///< holding before `door_cell` (closed)
  bool door_announced = false;  ///< DoorAhead raised for `door_cell` in this approach
  CellPos door_cell;
  int door_hold_ticks = 0;  ///< ticks held so far in this hold
  std::vector<AvoidedDoor> avoid;
  /// An edit (or load) touched the body's cells since the last step: look whether blocks are
  /// inside it now (AgentSystem::resolve_embedded).
  bool check_embedded = false;
  /// The flow field followed (FlowFields slot and generation; generation 0: none) and the field
  /// version its corridor was traced on.
  std::uint32_t flow_index = 0;
  std::uint32_t flow_generation = 0;
  std::uint32_t flow_version = 0;
  std::string reason;  ///< why the agent is Failed or Blocked
  PathFailure fail = PathFailure::None;
  // counters
  std::uint32_t arrivals = 0;
  std::uint32_t replans = 0;
  std::uint32_t repairs = 0;  ///< corridors spliced locally around an edit
  std::uint32_t requests = 0;
  std::uint32_t door_events = 0;    ///< DoorAhead events raised
  std::uint32_t door_timeouts = 0;  ///< holds that ended with the door still shut
  std::uint32_t push_outs = 0;      ///< bodies pushed out of blocks an edit put inside them
  AgentControl control;  ///< facing, sprint, knockback (engine/follow/facing.h, control.cpp)
  // Reduced level of detail (voxnav/crowds.h set_agent_lod): 1 steps every tick; k > 1 steps
  // every k-th tick while plain walking (AgentSystem::plain_walk), staggered by the slot.
  int lod = 1;
  // Pinned by its own crowd (voxnav/agents.h kCrowdRestTicks): Blocked and resting.
  bool crowded = false;          ///< the Blocked agent rests, pinned by its crowd
  int crowd_rests = 0;           ///< rests since it last reached a waypoint
  std::uint32_t crowd_rests_total = 0;
  std::uint64_t last_step = 0;  ///< AgentSystem tick of the agent's last step
  bool lod_skip = false;        ///< resting this tick (reduced, plain walking, not its turn)
  // Intents (intents.cpp): a chase of another agent or an entity, a flee, a host's path.
  AgentIntent intent = AgentIntent::Goal;
  bool chase_entity = false;           ///< the target is an entity (else an agent)
  std::uint32_t target_index = 0;      ///< the target's slot and generation
  std::uint32_t target_generation = 0;
  double chase_range = 0.0;            ///< metres, feet to the target's position (3D)
  bool chase_direct = false;           ///< walking straight at the target (no search)
  bool chase_no_closer = false;  ///< Blocked at the end of a corridor to the target's cell, out of range
  CellPos flee_from;                   ///< the point fled from (a cell)
  int flee_distance = 0;               ///< cells
};

/// What every new order resets (a goal, a field, a chase, a flee, a path); the intent becomes
/// Goal (the caller sets another after it).
void start_order(AgentRecord& a, CellPos goal, int range);

class AgentSystem {
 public:
  /// Ticks without getting closer to the next waypoint before a replan, and replans in a row
  /// (without reaching a waypoint) before the agent is reported Blocked.
  static constexpr int kStuckTicks = 40;
  /// Ticks an agent whose start cannot be stood on waits to land before planning anyway (and
  /// failing with BadStart if it still cannot stand).
  static constexpr int kFallWaitTicks = 40;
  static constexpr int kMaxReplansInRow = 3;
  /// A Blocked agent plans again after this many ticks, or at once when an edit lands near it.
  static constexpr int kBlockedRetryTicks = 100;
  /// A body counts as in the way when it is this close (cells, beyond touching) in front.
  static constexpr double kCrowdPinMargin = 0.25;
  /// Node budget of the short search that splices a detour into a corridor broken by an edit.
  static constexpr std::uint32_t kRepairNodes = 512;
  /// Doors: ticks an agent holds before a closed door before it gives up on it, and ticks the
  /// door then stays in its avoided cells. Pending DoorAhead events kept at most (the oldest are
  /// dropped beyond it when the host never takes them).
  static constexpr int kDoorHoldTicks = 40;
  static constexpr int kDoorAvoidTicks = 600;
  static constexpr std::size_t kMaxDoorEvents = 4096;
  /// Climbing onto a ledge: the feet rise this far above the ledge's standing height before the
  /// body moves over it (cells).
  static constexpr double kLedgeClearance = 0.05;
  /// Swimmers: a waypoint where the cell path turns is passed when the feet are this close to it
  /// (cells, 3D), so the body follows the path's moves and never cuts a corner across a cell that
  /// is not water (a 0.98 body clears a cell's sides by 0.01); one on a straight run is passed
  /// within kSwimStraightPass.
  static constexpr double kSwimOnPoint = 1e-3;
  static constexpr double kSwimStraightPass = 0.35;
  /// Wall time (microseconds) the last step() spent checking and repairing corridors against
  /// the changes it consumed (0 when there were none). Statistics only.
  double last_edit_check_us() const { return last_edit_check_us_; }

  std::uint32_t add_motion(const AgentMotion& m) {
    motions_.push_back(m);
    return static_cast<std::uint32_t>(motions_.size() - 1);
  }
  const AgentMotion& motion(std::uint32_t i) const { return motions_[i]; }
  /// For recompiled surface costs (a new area or profile regroups the surfaces).
  AgentMotion& motion_mut(std::uint32_t i) { return motions_[i]; }
  std::size_t motion_count() const { return motions_.size(); }

  AgentId add(std::uint32_t motion, const Vec3& feet);
  bool remove(NavWorld& nav, AgentId id);
  AgentRecord* get(AgentId id);
  const AgentRecord* get(AgentId id) const;
  /// Sends the agent to a goal cell (a request is made at the next step).
  bool set_goal(NavWorld& nav, AgentId id, CellPos goal, int range = 0);
  /// Makes the agent follow flow field (index, generation) of the store given to set_flows: its
  /// goal becomes the field's goal; it traces the field instead of searching.
  bool set_flow(NavWorld& nav, AgentId id, std::uint32_t index, std::uint32_t generation,
                CellPos goal);
  /// Every agent following flow field (index, generation) stops: Idle, no goal.
  void detach_flow(std::uint32_t index, std::uint32_t generation);
  /// The flow fields the followers trace (owned by the World).
  void set_flows(const FlowFields* flows) { flows_ = flows; }
  /// The flyer navigation flyer agents plan on and follow (owned by the World; null until the
  /// first flyer profile: flyer agents wait).
  void set_flyer(flight::FlyerNav* flyer) { flyer_ = flyer; }

  // ---- flyers (defined in flyer_follow.cpp; docs/flight.md#flyer-agents) ----
  /// Waypoints ahead whose cells a flyer checks against the flyer layer at every step.
  static constexpr std::size_t kFlyCheckWaypoints = 4;
  /// A flyer steers at the furthest waypoint within this distance (cells, 3D, from its feet)
  /// that a clear straight line reaches.
  static constexpr double kFlySteerCells = 4.0;
  /// A waypoint before the last is passed within this distance (cells, 3D) of the feet.
  static constexpr double kFlyPass = 0.35;
  /// Cells a field trace covers from the agent's cell (a line-of-sight cell goes on to the goal).
  static constexpr int kTraceCells = 24;
  /// Reduced level of detail: the agent steps every `k`-th tick (staggered by its slot) while
  /// plain_walk() holds, with dt the ticks since its last step, and every tick otherwise. 1: full
  /// detail. The caller checks k (voxnav/crowds.h kMaxAgentLod).
  bool set_lod(AgentId id, int k);
  /// The step an agent takes now is plain walking: Moving on the ground in a walk toward a Walk
  /// waypoint, no knock, no door hold, no recovery of the stuck watch, nothing to re-plan.
  bool plain_walk(const AgentRecord& a) const;
  /// Moves the agent's body (teleport): clears velocity and carry, bumps the corridor epoch.
  bool teleport(AgentId id, const Vec3& feet);

  // ---- intents (defined in intents.cpp; docs/agents.md#goals-and-intents) ----
  /// Chases: within this many cells (x/z Chebyshev, and as many levels) of the target's cell a
  /// chaser walks straight at it when line_walkable_cells allows; a corridor is searched again
  /// when the target's cell is more than kChaseReplanCells from the corridor's last cell.
  static constexpr int kChaseDirectCells = voxnav::kChaseDirectCells;  // voxnav/control.h
  static constexpr int kChaseReplanCells = voxnav::kChaseReplanCells;
  /// The goal range of a chaser's search (cells around the target's cell): a host entity may
  /// float above, or stand inside, cells that are not standable.
  static constexpr int kChaseGoalRange = 1;
  /// Host entities: add (position in metres), move, remove, look up.
  std::uint32_t add_entity(const Vec3& position, std::uint32_t* generation);
  EntityRecord* entity(std::uint32_t index, std::uint32_t generation);
  const EntityRecord* entity(std::uint32_t index, std::uint32_t generation) const {
    return const_cast<AgentSystem*>(this)->entity(index, generation);
  }
  bool remove_entity(std::uint32_t index, std::uint32_t generation);
  std::size_t entity_count() const { return entities_.size() - entity_free_.size(); }
  /// Orders: chase a target (an agent, or an entity when `entity`) to within `range` metres;
  /// flee to the cheapest cell at least `distance` cells from `from`; follow the corridor `c`
  /// (a Ready request's, whose path holds the agent's cell at index `at`) toward `goal`. The
  /// caller checked the arguments.
  bool set_chase(NavWorld& nav, AgentId id, bool entity, std::uint32_t index,
                 std::uint32_t generation, double range);
  bool set_flee(NavWorld& nav, AgentId id, CellPos from, int distance);
  bool set_path(NavWorld& nav, AgentId id, const Corridor& c, std::size_t at, CellPos goal,
                int goal_range, bool partial);
  /// The position (feet, metres) and cell of a chaser's target; false when it is gone.
  bool chase_target(const AgentRecord& a, Vec3& position, CellPos& cell) const;

  // ---- control (defined in control.cpp; docs/agents.md#facing) ----
  /// Stop: the request is released, the corridor dropped (the epoch moves), the agent idles
  /// with no goal; its drive is zero from its next step.
  bool stop(NavWorld& nav, AgentId id);
  /// Adds `impulse` (m/s, world frame) scaled by 1 - the profile's knock resistance to the
  /// knock the agent takes at its next step (nothing for a fully resistant profile).
  bool knock(AgentId id, const Vec3& impulse);
  /// Sets the facing (binary angle) at once, as a teleport does.
  bool set_yaw(AgentId id, std::uint16_t yaw);
  bool set_sprint(AgentId id, bool sprint);
  /// The remaining path length from the feet along the corridor's waypoints (metres; 0 when
  /// not following one), and the waypoints ahead within `length` metres of path (at most
  /// `capacity` copied; returns how many lie within it).
  double distance_to_stop(const AgentRecord& a) const;
  std::size_t lookahead(const AgentRecord& a, double length, Waypoint* out,
                        std::size_t capacity) const;

  /// One tick for every agent, in index order: install finished requests, check corridors against
  /// the last layer change, follow, integrate, arrival and stuck watch. Call after
  /// NavWorld::update.
  void step(NavWorld& nav, const Space& space, double dt) {
    NavWorld* const one[1] = {&nav};
    step(std::span<NavWorld* const>(one), space, dt);
  }
  /// The same with one navigation per movement class (indexed by AgentMotion::nav_slot, all
  /// updated this tick; null for a class without navigation: its agents wait).
  void step(std::span<NavWorld* const> navs, const Space& space, double dt);

  /// DoorAhead events raised since the last take, oldest first: moves up to `capacity` of them to
  /// `out` and returns how many; the rest stay for the next call.
  std::size_t take_door_events(DoorEventRecord* out, std::size_t capacity);
  std::size_t pending_door_events() const { return door_events_.size(); }
  /// Events dropped because more than kMaxDoorEvents were pending.
  std::uint64_t dropped_door_events() const { return dropped_door_events_; }

  std::size_t capacity() const { return agents_.size(); }
  /// Slots the table holds without growing (free slots are reused first), and free slots.
  std::size_t slot_capacity() const { return agents_.capacity(); }
  std::size_t free_slots() const { return free_.size(); }
  /// The World's id tag, in the generation of every agent id (voxnav/ids.h); before any add.
  void set_id_tag(std::uint32_t tag) { id_tag_ = tag; }
  const AgentRecord& at(std::size_t i) const { return agents_[i]; }
  const CorridorIndex& corridor_index() const { return index_; }
  /// Counters of the local repairs since the system was made (statistics and tests).
  struct RepairStats {
    std::uint64_t repairs = 0;         ///< corridors spliced around an edit
    std::uint64_t kept_waypoints = 0;  ///< ... that kept old waypoints and pulled only between
    std::uint64_t shared_detours = 0;  ///< detours reused from another agent in the same update
    std::uint64_t same_waypoints = 0;  ///< repairs that left the waypoints ahead (and the epoch)
  };
  const RepairStats& repair_stats() const { return repair_stats_; }
  /// Separation, ORCA and arrival contagion among the agents (engine/steer).
  Steering& steering() { return steer_; }
  const Steering& steering() const { return steer_; }

 private:
  void plan(NavWorld& nav, AgentRecord& a);
  /// A flyer's request through the flyer navigation (the straight line, else the flight search);
  /// the agent is Planning (Waiting without a flyer navigation).
  void fly_plan(AgentRecord& a);
  /// Installs a flyer's finished request (Moving, or Failed with the request's reason).
  void fly_install(AgentRecord& a);
  /// One step of a flyer: retries, install, the checks ahead, the drive, the movement step.
  void fly_step(const Space& space, AgentRecord& a, double dt);
  /// The drive toward the corridor (steering, passing, arrival, the stuck watch).
  void fly_drive(AgentRecord& a, double dt, DriveInput& in);
  /// The stuck watch ran out: plan again, or Blocked after kMaxReplansInRow rounds.
  void fly_replan_or_block(AgentRecord& a);
  /// A flying chaser's decisions: caught (Arrived, hovering), target gone (Failed with a
  /// reason), straight at it within kChaseDirectCells when the straight line is clear, or a
  /// flyer request toward its cell.
  void fly_chase(AgentRecord& a);
  /// The flyers whose corridors the flyer layer's changes reach (corridor index): every
  /// remaining segment is checked; a broken one makes the agent plan again.
  void fly_edits();
  /// The free flyer cell the body is in (its foot cell, else one up or down), else the last one.
  CellPos fly_cell(AgentRecord& a) const;
  /// plan()'s request (released one replaced), without changing the mode: a chaser keeps
  /// walking its corridor while the search toward where the target went runs.
  void issue_request(NavWorld& nav, AgentRecord& a);
  /// A request's fields that come from the agent's motion (node and distance budget, costs).
  RequestSpec motion_spec(const AgentRecord& a) const;
  /// A chaser's corridor straight at its target, no search (`from` where it stands, `to` the
  /// target's cell): Moving along it, whatever held it before cleared.
  void install_direct_chase(AgentRecord& a, const Waypoint& from, const Waypoint& to);
  /// A chaser's decisions before its step (intents.cpp): caught (Arrived), target gone (Failed
  /// with a reason), straight at it, or a search toward where it went.
  void chase_step(NavWorld& nav, AgentRecord& a);
  /// A chaser at the last waypoint of a corridor, the target not in range: searches again toward
  /// where the target went, or, when that is the cell the corridor led to (the search gets it no
  /// closer), holds it Blocked with the reason until the target moves.
  void chase_corridor_end(AgentRecord& a);
  /// A chaser in direct mode: the drive straight at the target (intents.cpp).
  void chase_drive(AgentRecord& a, double dt, DriveInput& in);
  /// The target is gone: the agent stops, Failed, with a reason naming it.
  void lose_target(NavWorld& nav, AgentRecord& a);
  /// plan() of a field follower: traces the field into the corridor (no search).
  void trace(NavWorld& nav, AgentRecord& a);
  /// The cells of a straight walkable line from `from` to `to` on one level, each step a level
  /// walk the layers hold; false when there is none.
  static bool straight_cells(const NavGrid& grid, CellPos from, CellPos to,
                             const SurfaceCosts* surface, std::vector<CellPos>& out);
  /// Makes traced cells the agent's corridor (string pulled; the epoch moves only when the
  /// waypoints ahead changed) and sets it Moving.
  void install_trace(const NavGrid& grid, AgentRecord& a, std::vector<CellPos> cells,
                     std::vector<EdgeKind> kinds, bool partial);
  void install(NavWorld& nav, AgentRecord& a);
  /// One step of the agent over `ticks` ticks of `dt` seconds each (more than one for a reduced
  /// agent's step, set_lod).
  void follow(NavWorld& nav, const Space& space, AgentRecord& a, double dt, int ticks);
  /// A step under a knock (control.cpp): takes a pending knock, moves the body without a drive,
  /// and when the lock ends resumes the corridor (or replans when the body left it).
  void knocked_step(NavWorld& nav, const Space& space, AgentRecord& a, double dt);
  void resume_after_knock(NavWorld& nav, AgentRecord& a);
  /// A swimmer's drive toward its corridor: passes waypoints, arrival, the stuck watch.
  void swim_drive(NavWorld& nav, AgentRecord& a, double dt, DriveInput& in);
  /// A waypoint at `cell` was reached: progress resets the replan count (see stall_cell).
  static void waypoint_reached(AgentRecord& a, const CellPos& cell);
  /// The stuck watch ran out of recovery: plan again, or Blocked after kMaxReplansInRow rounds.
  /// The agent reached the end of a partial corridor: it plans again at the next step.
  void end_of_partial(AgentRecord& a);
  void replan_or_block(NavWorld& nav, AgentRecord& a);
  /// At the stuck watch's first stalled tick: when another body touches the agent's body in
  /// front of it (toward (tx, tz)), the agent rests (Blocked, crowded) and true; else false.
  bool pinned_by_crowd(AgentRecord& a, const Waypoint& w, double tx, double tz);
  /// The end of a rest: Moving on its corridor again, the stuck watch from zero.
  void resume_after_rest(AgentRecord& a);
  /// The corridor point a newly installed or spliced corridor is followed from: 1 for walkers
  /// (points[0] is where they stand), 0 for swimmers (they first swim onto the path).
  std::size_t first_waypoint(const AgentRecord& a) const {
    if (motions_[a.motion].swims) return 0;
    return a.corridor.points.size() > 1 ? 1 : 0;
  }
  /// Checks one agent's corridor against the changes: splice, re-pull or replan.
  void on_change(NavWorld& nav, AgentRecord& a, const std::vector<Change>& changes);
  /// Splices a detour from a short search around the broken part of the corridor ahead.
  bool repair(NavWorld& nav, AgentRecord& a, const std::vector<Change>& changes);
  /// Pulls the corridor again from the path cells ahead; bumps the epoch only when the
  /// waypoints ahead changed.
  void repull(NavWorld& nav, AgentRecord& a);
  /// repair()'s string pull of the spliced path `nc` (old cells [cell_index, s) kept, the detour,
  /// then old cells (j, end) shifted by `shift`): keeps the old waypoints whose stretches the
  /// changes cannot have touched and pulls only between them.
  void repull_spliced(const NavGrid& grid, AgentRecord& a, const std::vector<Change>& changes,
                      const std::vector<CellPos>& nc, const std::vector<EdgeKind>& nk, std::size_t s,
                      std::size_t j, std::ptrdiff_t shift);
  /// Blocks inside the body (after an edit, or while held Blocked for it): push the body out to
  /// the nearest standable cell within kEmbeddedPushRadius and plan from there, or hold it
  /// Blocked with PathFailure::Embedded; a held agent whose body is free again plans again.
  void resolve_embedded(NavWorld& nav, const Space& space, AgentRecord& a);
  /// The feet position, at rest, in the nearest cell of its class within kEmbeddedPushRadius of
  /// the body's foot cell where the body stands clear of every block (nearest by the distance
  /// from the feet, then y, z, x order); false when there is none.
  bool push_out_position(const NavGrid& grid, const Space& space, const AgentRecord& a,
                         Vec3& out) const;
  /// Puts the body at `feet` at rest (teleport and push-out): the corridor from the old place is
  /// no use, so an agent that was following or planning plans again at the next step.
  void place(AgentRecord& a, const Vec3& feet);
  void set_mode(AgentRecord& a, AgentMode m);
  void reindex(AgentRecord& a);
  std::uint32_t index_of(const AgentRecord& a) const {
    return static_cast<std::uint32_t>(&a - agents_.data());
  }
  CellPos current_cell(const NavGrid& grid, AgentRecord& a) const;
  /// The agent's avoided door cells still in force at navigation tick `now` (expired ones dropped).
  std::vector<CellPos> avoided_cells(AgentRecord& a, std::uint64_t now) const;
  /// Drives toward a closed door's front point and holds there; returns false when the door
  /// timed out and the agent replanned or was Blocked (no drive this tick).
  bool hold_at_door(NavWorld& nav, AgentRecord& a, const Waypoint& door, const Waypoint& front,
                    double dt, DriveInput& in);
  void raise_door_event(const NavWorld& nav, AgentRecord& a);
  void clear_door_hold(AgentRecord& a, bool end_approach);

  std::vector<AgentRecord> agents_;
  std::vector<EntityRecord> entities_;
  std::vector<std::uint32_t> entity_free_;

  std::uint32_t id_tag_ = 0;
  std::uint64_t ticks_ = 0;  ///< step() calls (the reduced agents' stagger and dt)
  const FlowFields* flows_ = nullptr;
  flight::FlyerNav* flyer_ = nullptr;
  std::vector<std::uint32_t> free_;
  std::vector<AgentMotion> motions_;
  std::uint32_t corridor_epoch_ = 0;
  double last_edit_check_us_ = 0;
  CorridorIndex index_;
  /// Detours searched by repair() during the current update's edit checks.
  struct Detour {
    CellPos start, goal;
    std::uint32_t motion;
    SearchResult result;
  };
  std::vector<Detour> detours_;
  RepairStats repair_stats_;
  Steering steer_;
  std::vector<std::size_t> pull_at_;  // repull_spliced() scratch
  std::vector<CellPos> pull_cells_;
  std::vector<EdgeKind> pull_kinds_;
  std::vector<Waypoint> pull_points_, pull_out_, pull_before_;
  std::vector<std::uint32_t> touched_;
  std::deque<DoorEventRecord> door_events_;  ///< pending, oldest first
  std::uint64_t dropped_door_events_ = 0;
};

}  // namespace voxnav::detail
