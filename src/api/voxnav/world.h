// voxnav - the World: one space's block mirror, its navigation, path requests and agents.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "voxnav/agents.h"
#include "voxnav/error.h"
#include "voxnav/executor.h"
#include "voxnav/ids.h"
#include "voxnav/profile.h"
#include "voxnav/registry.h"
#include "voxnav/requests.h"
#include "voxnav/status.h"
#include "voxnav/types.h"

namespace voxnav {

namespace detail {
struct WorldState;
struct WorldAccess;
}

/// How a World runs its jobs.
struct WorldDef {
  /// Where searches run; null = synchronously at dispatch. Not owned; must outlive the World.
  Executor* executor = nullptr;
  /// > 0: lockstep mode, every search result is applied exactly this many ticks after dispatch.
  /// 0: results are applied at the next update. Both are deterministic whatever the executor.
  /// [Limit: >= 0; a negative value counts as 0]
  int lockstep_delay = 0;
};

/// Navigation statistics since the World was made.
struct WorldStats {
  std::uint64_t searches = 0;
  std::uint64_t nodes_expanded = 0;
  std::uint64_t maintenance_runs = 0;
  double last_maintenance_ms = 0;
  /// Cells where a walker-class body stands (World::is_standable true; what island_cells lists):
  /// door, ladder and damage cells (fire, lava) are not counted.
  std::uint64_t standable_cells = 0;
  /// Live islands of the walker class, gate islands (one per door, ladder or damage cell) among
  /// them.
  std::uint64_t islands = 0;
  /// Microseconds the agents' corridor checks took after the latest maintenance run (the edits'
  /// cost on the agents side; maintenance_runs tells when it changes).
  double last_edit_check_us = 0;
};

/// One edit of World::set_blocks: every cell of the inclusive box min..max takes `value`.
struct BlockEdit {
  CellPos min, max;  ///< a single cell: min == max
  /// [Limit: 0..block_count()-1] Wider than a block value so a host's number is named as given.
  std::int64_t value = 0;
  /// How messages name the edit's cells: false "min" and "max" (a box), true "cell" (min == max).
  bool cell = false;
};

/// One standable cell on an island (World::island_cells): the island's id (>= 1, valid until
/// nav_epoch() changes) and its size in cells.
struct IslandCell {
  CellPos cell;
  std::uint32_t island = 0;
  std::uint32_t island_size = 0;
};

/// One space (a world or dimension): the host's block mirror, its navigation, requests and
/// agents. Not thread-safe: call it from one thread; searches run on the executor.
///
/// The usual loop, once per tick (20 Hz): edit blocks as the game does, then `tick(dt)`, then
/// read agent states and corridors. Conventions (docs/api.md): every fallible call returns a
/// Status and changes nothing unless it is Ok; cells are integer CellPos (|x|, |z| < 2^25,
/// |y| < 2048; out of that range is OutOfRange); positions are metres (feet: the bottom centre
/// of the body); buffers are the caller's, with a capacity and a total count.
class World {
 public:
  explicit World(const WorldDef& def = {});
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // ---- block registry (voxnav/registry.h; docs/registry.md) ----
  // A new World has two values: 0 "air" and 1 "voxnav:unknown" (a full block, the fallback).
  // A registry is installed only before any chunk is loaded and before any area or surface malus
  // names blocks (else Busy); traits may change at any time (set_block_traits).

  /// Installs `def` (value v becomes def.blocks[v]; rules: validate_block_registry).
  /// Returns: Ok; Busy (chunks loaded, or areas / surface malus name blocks);
  /// InvalidArgument (`error` names the block and the field).
  Status define_blocks(const BlockRegistryDef& def, std::string* error = nullptr);
  /// Installs a registry in voxnav's JSON format (parse_block_registry_json; docs/registry.md).
  /// Returns: Ok; Busy (as define_blocks); BadFormat (JSON, a missing, mistyped or unknown
  /// field); Unsupported (a version other than 1); InvalidArgument (registry rules). `error` says
  /// which block and field.
  Status load_blocks_json(std::span<const std::uint8_t> json, std::string* error = nullptr);
  /// Installs Minecraft's registry from minecraft-data JSON (blocks.pc-1.21.1.json and
  /// blockCollisionShapes.pc-1.20.5.json): one value per block state (docs/formats.md).
  /// Returns: Ok; Busy (as define_blocks); BadFormat (JSON, with `error`); InvalidArgument (the
  /// blocks made break a registry rule, with `error`).
  Status load_minecraft_blocks(std::span<const std::uint8_t> blocks_json,
                               std::span<const std::uint8_t> shapes_json,
                               std::string* error = nullptr);
  /// Replaces the traits of installed values (names and boxes stay), checked together after
  /// applying them all (a door pair in one call). Navigation of every class is rebuilt at the
  /// next update() as after reloading every chunk (docs/registry.md).
  /// Returns: Ok; OutOfRange (a value not in the registry); InvalidArgument (`error` names the
  /// value and the field, e.g. "value 5 'door_closed': door.toggle 'stone' is not a door").
  Status set_block_traits(std::span<const BlockTraitsChange> changes,
                          std::string* error = nullptr);
  Status set_block_traits(std::uint16_t value, const BlockTraits& traits,
                          std::string* error = nullptr) {
    const BlockTraitsChange c{value, traits};
    return set_block_traits(std::span<const BlockTraitsChange>(&c, 1), error);
  }
  /// The definition of `value` (its door toggle as a value and, when found, a name).
  /// [Limit: value 0..block_count()-1] Returns: Ok; OutOfRange; InvalidArgument (null `out`).
  Status block_def(std::uint16_t value, BlockDef* out) const;
  /// The value of a block name; with a Minecraft registry a state "name[prop=value,...]"
  /// (namespace optional, missing properties take the default). Strict, unlike world file
  /// loaders (docs/formats.md). Returns: Ok; NotFound (unknown name, property or value, a
  /// property given twice, a malformed string: `*value` gets the fallback, `error` says which
  /// part); InvalidArgument (null `value`).
  Status block_value(std::string_view state, std::uint16_t* value,
                     std::string* error = nullptr) const;
  /// Number of registry values (values are 0 .. block_count() - 1).
  std::size_t block_count() const;

  // ---- chunks and edits (each recorded in the change log; navigation sees it at the next
  // update(); docs/editing.md) ----
  /// Loads (or reloads) a chunk: kChunkValues values, index x + 16 * (z + 16 * y).
  /// [Limit: values.size() == kChunkValues; each value < block_count(); chunk in the chunk range,
  /// |x|, |z| <= kMaxChunkXZ, |y| <= kMaxChunkY] Returns: Ok; InvalidArgument (wrong count);
  /// OutOfRange (value, or `chunk`, checked before anything else about it).
  Status load_chunk(ChunkPos chunk, std::span<const std::uint16_t> values);
  /// Loads positions.size() chunks, kChunkValues values each, back to back in `values`. All or
  /// nothing: every position and value is checked first. Returns: load_chunk's statuses, and
  /// InvalidArgument for a chunk given twice (the message names both entries; as unload_chunks).
  Status load_chunks(std::span<const ChunkPos> positions, std::span<const std::uint16_t> values);
  /// Unloads a chunk. [Limit: chunk in the chunk range, as load_chunk] Returns: Ok; OutOfRange
  /// (`chunk`); NotLoaded.
  Status unload_chunk(ChunkPos chunk);
  /// Unloads every chunk of `positions`, all or nothing. Returns: Ok; OutOfRange; NotLoaded;
  /// InvalidArgument (a chunk given twice); checked before any is unloaded.
  Status unload_chunks(std::span<const ChunkPos> positions);
  /// Sets one block (setting the value it holds records nothing); set_blocks' rules and messages.
  /// Returns: Ok; OutOfRange (cell, or value >= block_count()); NotLoaded (its chunk).
  Status set_block(CellPos cell, std::uint16_t value);
  /// Sets every block of the inclusive box min..max. [Limit: 1..2^24 cells (kMaxBoxCells);
  /// 1..65536 chunks touched (kMaxBoxChunks), every one of them loaded] Returns: Ok; OutOfRange
  /// (a corner, the value, or more than kMaxBoxChunks chunks: the message names the box);
  /// InvalidArgument (min above max on an axis, more than 2^24 cells); NotLoaded (a chunk of
  /// the box).
  Status set_box(CellPos min, CellPos max, std::uint16_t value);
  /// Applies `edits` in order, all or nothing: every entry is checked first (as set_block /
  /// set_box: cells in range, min <= max, at most kMaxBoxCells cells and kMaxBoxChunks chunks a
  /// box, the value in the registry, every chunk touched loaded), then they apply; on error nothing is applied.
  /// Messages name the first bad entry's field as `list`[i].field ("edits[2].value"), or the
  /// field alone when `list` is empty (a host's single edit). [Limit: edits 0..2^24 entries]
  /// Returns: Ok; OutOfRange (a cell or value, a box over kMaxBoxChunks chunks); InvalidArgument (min above max, a box over
  /// kMaxBoxCells cells, too many entries); NotLoaded (a chunk of an entry). last_error() names
  /// the entry and field.
  Status set_blocks(std::span<const BlockEdit> edits, std::string_view list = "edits");
  /// Block value of a cell. Returns: Ok; OutOfRange; NotLoaded; InvalidArgument (null `value`).
  Status get_block(CellPos cell, std::uint16_t* value) const;

  // ---- profiles (voxnav/profile.h; docs/profiles.md) ----
  /// Adds a profile; the first one of a class builds that class's navigation from the chunks
  /// loaded so far, later ones share it. walker_large cells are *foot cells* (the low corner of
  /// its 2x2 footprint; docs/terrain.md#walker_large-a-2x2-footprint). A flyer profile builds the
  /// flyer layer (cells the 0.98 x 1.95 envelope fits in, feet on the cell's bottom: 1 KiB per
  /// loaded chunk; docs/flight.md#a-worlds-flyers); flyers have no surface costs.
  /// Returns: Ok; InvalidArgument (validate_profile's rules, among them the class envelope and
  /// can_fly <-> flyer, a duplicate id, a surface malus block the registry lacks, a null `id`:
  /// `error` names the profile and the field); OutOfMemory (the World's memory budget);
  /// OutOfRange (its surface malus would need more than 255 surface groups).
  Status add_profile(const Profile& profile, ProfileId* id, std::string* error = nullptr);
  /// The profile with that id. Returns: Ok; NotFound; InvalidArgument (null `out`).
  Status find_profile(std::string_view id, ProfileId* out) const;

  // ---- areas (docs/terrain.md#surfaces-and-area-filters) ----
  /// Defines a named area: the cells whose surface (the block stood on, the fluid swum in) is
  /// one of `blocks` (names, any state, "minecraft:" optional), and the cost a move pays on
  /// entering one, in cells of level walking (negative: a road). Requests read areas through
  /// NavRequest::filter. [Limit: name 1..64 bytes; cost -0.6..1000; blocks 1 or more; at most
  /// kMaxAreas areas] Returns: Ok; InvalidArgument (empty, over-long or duplicate name, cost out
  /// of range, no blocks, an unknown block name, kMaxAreas reached, null `out`: `error` names
  /// it); OutOfRange (more than 255 surface groups).
  Status define_area(std::string_view name, std::span<const std::string> blocks, double cost,
                     AreaId* out, std::string* error = nullptr);
  /// The area of that name. Returns: Ok; NotFound; InvalidArgument (null `out`).
  Status find_area(std::string_view name, AreaId* out) const;

  // ---- navigation ----
  /// Brings navigation up to date with the change log, applies finished searches (in request
  /// order) and dispatches new ones. tick() calls it; call it yourself when not using agents.
  void update();
  /// Chunk streaming, off by default: chunks loaded after the first update() are built on the
  /// executor and installed at a later update; until then their cells answer Unknown(NotLoaded).
  /// How, and why No stays exact meanwhile: docs/editing.md#chunk-streaming.
  void set_chunk_streaming(bool on) noexcept;
  /// Whether chunk streaming is on.
  bool chunk_streaming() const noexcept;
  /// Chunk builds dispatched or waiting to be dispatched (0 without streaming).
  std::size_t pending_chunk_builds() const noexcept;
  /// Build radius of chunk streaming, in chunks (Chebyshev distance to the chunk of a live
  /// agent's feet): a chunk loaded after the first update is built only once an agent comes
  /// that near; 0 (the default) builds every loaded chunk; no effect without streaming. Agents
  /// walk toward goals past unbuilt chunks (docs/editing.md#chunk-streaming, docs/agents.md).
  /// [Limit: chunks 0..kMaxChunkBuildRadius] Returns: Ok; InvalidArgument (out of the limit).
  Status set_chunk_build_radius(int chunks);
  static constexpr int kMaxChunkBuildRadius = 32;
  /// The build radius (chunks; 0: every loaded chunk is built).
  int chunk_build_radius() const noexcept;
  /// Search budget: at most `searches` path searches dispatched per update() and movement class,
  /// oldest first; the rest stay queued (Searching; agents in Planning). 0: no limit. A new World
  /// has kDefaultSearchesPerUpdate (256, requests.h), so a burst of thousands of goals spreads over ticks instead
  /// of making one long tick. Why, the tick it bounds and what it leaves out:
  /// docs/requests.md#the-search-budget.
  /// [Limit: searches 0..kMaxSearchesPerUpdate] Returns: Ok; InvalidArgument (out of the limit).
  Status set_searches_per_update(int searches);
  static constexpr int kMaxSearchesPerUpdate = 4096;
  /// The search budget (searches per update and class; 0: no limit).
  int searches_per_update() const noexcept;
  /// Path requests waiting to be dispatched (summed over the movement classes).
  std::size_t queued_requests() const noexcept;
  /// Loaded chunks whose build is deferred: no agent within the build radius (summed over the
  /// movement classes, like pending_chunk_builds; 0 without a radius).
  std::size_t deferred_chunk_builds() const noexcept;
  /// Navigation epoch, one for every movement class: moves when an update may have changed a
  /// reachability answer (Reach::epoch is on this scale). stats(), search_times_us() and
  /// nav_tick() describe the walker class.
  std::uint64_t nav_epoch() const;
  /// Constant-time reachability for the profile's class: Yes, No (never wrong for the class) or
  /// Unknown with a reason; Unknown(BadProfile) for a profile not of this world (docs/requests.md).
  /// A flyer: No when the cells' flyer components differ, Yes when the straight line between
  /// their feet positions is clear (line_flyable; its cost, not constant), else
  /// Unknown(FlightSearch); Unknown(StartNotStandable / GoalNotStandable) for a cell the flyer
  /// cannot be in (docs/flight.md#components).
  Reach reachable(ProfileId profile, CellPos from, CellPos goal) const;
  /// reachable() with its arguments checked. Returns: Ok; InvalidArgument (a profile not of this
  /// world); OutOfRange (`from` or `goal` out of the cell range; last_error() names which).
  Status reachable(ProfileId profile, CellPos from, CellPos goal, Reach* out) const;
  /// Island of `cell` in the profile's class navigation: a set of standable cells that all reach
  /// one another (the class's moves, ignoring the profile's restrictions). *island gets its id
  /// (>= 1, valid until nav_epoch() changes; 0 when the cell is not standable or its chunk has
  /// no navigation) and *size, when not null, its cell count (0 with id 0). Returns: Ok;
  /// InvalidArgument (a bad profile, a null `island`), OutOfRange (a cell out of range);
  /// Unsupported (a flyer profile: flight has components, not islands).
  Status island_of(ProfileId profile, CellPos cell, std::uint32_t* island,
                   std::uint32_t* size = nullptr) const;
  /// Every standable cell on an island of the profile's class navigation, in a fixed order
  /// (built chunks in order, then the cells of each chunk in order), with its island's id and
  /// size: a host picks spawn or goal cells from it. Exactly the cells is_standable() answers
  /// true for: door, ladder and damage cells (fire, lava, cactus ...) are never listed (each is
  /// a gate island of one cell, which island_of() still answers for). Copies up to `capacity` cells; `count` gets
  /// the total. Returns: Ok; InvalidArgument (a bad profile, a null `count`, or a null `out`
  /// with capacity > 0); Unsupported (a flyer profile).
  Status island_cells(ProfileId profile, IslandCell* out, std::size_t capacity,
                      std::size_t* count) const;
  /// Whether a body of the profile's class stands with its feet in `cell` (false for a bad
  /// profile, a cell out of range or not built). A flyer: whether the cell is free (the body fits
  /// there, feet on the cell's bottom).
  bool is_standable(ProfileId profile, CellPos cell) const;
  /// is_standable() with its arguments checked. Returns: Ok; InvalidArgument (profile);
  /// OutOfRange (cell).
  Status is_standable(ProfileId profile, CellPos cell, bool* out) const;
  /// Feet height of a standable cell, in metres (cell.y plus the standing height inside it; a
  /// flyer's free cell: cell.y).
  /// Returns: Ok; InvalidArgument (bad profile, null `feet_y`); OutOfRange; NotLoaded (its chunk
  /// has no navigation); NotFound (not standable).
  Status standing_height(ProfileId profile, CellPos cell, double* feet_y) const;
  /// Nearest standable cell to `near`, in shells of growing Chebyshev distance (then y, z, x).
  /// [Limit: radius 0..64 cells] Returns: Ok; NotFound (none within radius); InvalidArgument
  /// (bad profile, radius, null `out`); OutOfRange (`near`).
  Status nearest_standable(ProfileId profile, CellPos near, int radius, CellPos* out) const;

  /// Starts a path request; never blocks: the search runs at a later update() (docs/requests.md).
  /// A reachability No fails the handle at once (PathFailure::Unreachable) without a search.
  /// A flyer's request is served at the next update() on the calling thread: the straight line
  /// (a one-segment corridor, no search), else the default flight search in a window 32 cells
  /// round start and goal, string-pulled; waypoints are feet positions, edges Fly, `cost` the
  /// corridor's length (10,000 per cell) (docs/flight.md#requests).
  /// [Limit: req.goal_range 0..64; req.filter multipliers 0..1000, excluded bits name defined
  /// areas] Returns: Ok; InvalidArgument (bad profile, range, filter, null `out`); OutOfRange
  /// (start or goal); Busy (2^28 handles held and not released); Unsupported (`toward` for a
  /// flyer profile: no partial flight routes yet).
  Status request(const NavRequest& req, PathHandle* out);
  /// request() with `toward` set: a goal out of reach (or of the profile's search budget) gives
  /// Ready with the route to the explored cell nearest it (PathStatus::partial). Returns: as
  /// request().
  Status request_toward(NavRequest req, PathHandle* out) {
    req.toward = true;
    return request(req, out);
  }
  /// Runs one search now on the calling thread, with request()'s rules, on the navigation as of
  /// the last update(); changes nothing the simulation sees (docs/requests.md#find_path_now).
  /// Returns: Ok (also when no path is found: out->status.state == Failed with the reason);
  /// InvalidArgument (as request(), null `out`); OutOfRange (start or goal).
  Status find_path_now(const NavRequest& req, PathResult* out);
  /// A request's state: Searching, Ready or Failed with a reason.
  /// Returns: Ok; StaleHandle (released or unknown); InvalidArgument (null `out`).
  Status status(PathHandle path, PathStatus* out) const;
  /// Copies up to `capacity` waypoints of a Ready request; `*count` gets the total.
  /// Returns: Ok; StaleHandle; Busy (not Ready: Searching or Failed); InvalidArgument (null
  /// `count`, or null `out` with capacity > 0).
  Status corridor(PathHandle path, Waypoint* out, std::size_t capacity, std::size_t* count) const;
  /// Copies up to `capacity` search path cells of a Ready request; `*count` gets the total.
  /// Returns: as corridor().
  Status path_cells(PathHandle path, PathCell* out, std::size_t capacity, std::size_t* count) const;
  /// Frees a handle (its slot is reused with a new generation). Returns: Ok; StaleHandle.
  Status release(PathHandle path);

  // ---- agents (voxnav/agents.h; docs/agents.md) ----
  /// Adds an agent whose body stands at `def.feet` (metres, bottom centre of the body); it idles
  /// until given a goal. Walkers walk, swimmers swim (place a swimmer's feet in a water cell of
  /// its class), flyers fly and hover at rest (their feet anywhere their body fits; their goals
  /// go through the flyer requests, docs/flight.md#flyer-agents); a walker or swimmer added in
  /// the air falls first (docs/agents.md).
  /// Returns: Ok; InvalidArgument (bad profile, non-finite feet, null `out`); OutOfRange (its
  /// foot cell is out of the cell range).
  /// With `def.goal` the agent is sent there at once (set_agent_goal; OutOfRange "goal").
  Status add_agent(const AgentDef& def, AgentId* out);
  /// Adds defs.size() agents, all or nothing: every entry is checked first (as add_agent: the
  /// profile, finite feet whose cell is in range, a goal cell in range), then the agents are
  /// added in order and, after that, sent to their goals in order; `out` (defs.size() entries)
  /// gets their ids. Messages name the first bad entry's field as `list`[i].field
  /// ("agents[2].feet"). [Limit: defs 0..kMaxAgentBatch entries]
  /// Returns: Ok; InvalidArgument (a bad profile, non-finite feet, too many entries, a null `out`
  /// with entries); OutOfRange (feet or goal). last_error() names the entry and field.
  Status add_agents(std::span<const AgentDef> defs, AgentId* out,
                    std::string_view list = "agents");
  /// Most entries of one add_agents, set_agent_goals or teleport_agents call.
  static constexpr std::size_t kMaxAgentBatch = std::size_t{1} << 20;
  /// Removes an agent; its id becomes stale. Returns: Ok; StaleHandle.
  Status remove_agent(AgentId agent);
  /// Sends an agent to a goal cell (a foot cell for walker_large); it plans at the next tick.
  /// Returns: Ok; OutOfRange (goal); StaleHandle.
  Status set_agent_goal(AgentId agent, CellPos goal);
  /// Sends goals.size() agents to their goals, all or nothing: every entry is checked first
  /// (a live agent, given once; the goal in the cell range), then applied in order. Messages name
  /// the first bad entry's field as `list`[i].field ("goals[1].agent").
  /// [Limit: goals 0..kMaxAgentBatch entries] Returns: Ok; StaleHandle (an agent not live);
  /// InvalidArgument (an agent given twice, too many entries); OutOfRange (a goal).
  Status set_agent_goals(std::span<const AgentGoal> goals, std::string_view list = "goals");
  /// The agent's mode, body and counters. Returns: Ok; StaleHandle; InvalidArgument (null `out`).
  Status agent_state(AgentId agent, AgentState* out) const;
  /// Reason text of a Blocked or Failed agent (empty otherwise).
  /// Returns: Ok; StaleHandle; InvalidArgument (null `out`).
  Status agent_reason(AgentId agent, std::string* out) const;
  /// Copies up to `capacity` waypoints of the agent's current corridor; `*count` gets the total.
  /// Returns: Ok; StaleHandle; InvalidArgument (null `count`, or null `out` with capacity > 0).
  Status agent_corridor(AgentId agent, Waypoint* out, std::size_t capacity, std::size_t* count) const;
  /// The search cells of the agent's current corridor (each with the edge kind entering it);
  /// copies up to `capacity`, `count` gets the total. StaleHandle for an unknown agent,
  /// InvalidArgument for a null `count` (or a null `out` with capacity > 0).
  Status agent_path_cells(AgentId agent, PathCell* out, std::size_t capacity,
                          std::size_t* count) const;
  /// Moves an agent's body to `feet` (metres, bottom centre) at once, at rest; it plans again
  /// from there at the next tick and its corridor epoch changes.
  /// Returns: Ok; InvalidArgument (non-finite feet); OutOfRange (foot cell); StaleHandle.
  Status teleport_agent(AgentId agent, Vec3 feet);
  /// Teleports moves.size() agents, all or nothing: every entry is checked first (a live agent,
  /// given once; finite feet whose cell is in range), then applied in order (as teleport_agent).
  /// Messages name the first bad entry's field as `list`[i].field ("agents[1].feet").
  /// [Limit: moves 0..kMaxAgentBatch entries] Returns: Ok; StaleHandle (an agent not live);
  /// InvalidArgument (non-finite feet, an agent given twice, too many entries); OutOfRange (feet).
  Status teleport_agents(std::span<const AgentMove> moves, std::string_view list = "agents");

  // ---- doors (agents stop before closed doors and raise a DoorAhead event; the host opens
  // them: docs/agents.md#doors, docs/terrain.md#following-doors-and-ladders) ----

  /// Opens (`open` true) or closes the door at `cell`: it and the run straight above and below
  /// of the same door block in the same state (both halves of a two-high door) take the
  /// registry's toggled values; recorded like set_block. Ok, changing nothing, when the door is
  /// already in that state. Returns: Ok; OutOfRange (cell); NotLoaded (its chunk); NotFound (no
  /// door there); Unsupported (a half has no toggled value of the other state).
  Status set_door_open(CellPos cell, bool open);
  /// Moves up to `capacity` pending DoorAhead events, oldest first, into `out`; `*count` gets
  /// how many moved; the rest wait for the next call (at most 4096 are kept, the oldest dropped).
  /// Returns: Ok; InvalidArgument (null `count`, or null `out` with capacity > 0).
  Status take_door_events(DoorEvent* out, std::size_t capacity, std::size_t* count);
  /// DoorAhead events waiting for take_door_events.
  std::size_t pending_door_events() const;
  /// Navigation tick: the number of update() calls so far (tick() makes one). DoorEvent::tick and
  /// the avoided-door expiry count in it.
  std::uint64_t nav_tick() const;

  /// One simulation tick: update(), then every agent follows its corridor and moves with the
  /// shared movement step. [Limit: dt in (0, kMaxTickSeconds] seconds] Returns: Ok; InvalidArgument (dt).
  Status tick(double dt);
  static constexpr double kMaxTickSeconds = 1.0;

  /// Statistics of the walker class's navigation since the World was made.
  WorldStats stats() const;
  /// Wall time (microseconds) of the last kSearchTimesKept searches applied (fewer before that
  /// many ran), oldest first: for percentiles; timing only. The memory it takes is fixed.
  std::span<const double> search_times_us() const;

  /// The error of the last call that failed (status, C++ function and argument names, message);
  /// a call that succeeds leaves it as it was. Every call returning a Status fills it.
  const CallError& last_error() const noexcept;
  /// This World's id tag (1 .. kMaxIdTag, voxnav/ids.h): in its agent ids, path handles and
  /// profile ids and their numbers, so an id of another World is refused. Worlds take the tags in
  /// turn: two made kMaxIdTag Worlds apart share one.
  std::uint32_t id_tag() const noexcept;

 private:
  Status add_profile_checked(const Profile& profile, ProfileId* id, std::string* error);
  Status edit_blocks(const char* function, std::span<const BlockEdit> edits, std::string_view list);
  Status fail(Status st, const char* function, const char* argument, std::string message,
              std::string* error = nullptr) const;
  // InvalidArgument for a null `count`, or a null `out` with capacity > 0.
  Status check_buffer(const char* function, const void* out, std::size_t capacity,
                      const std::size_t* count) const;
  Status stale(const char* function, AgentId agent) const;
  Status stale(const char* function, PathHandle path, bool not_ready = false) const;
  mutable CallError last_error_;
  friend struct detail::WorldAccess;  // voxnav's own tests (src/engine/nav/world_access.h)
  std::unique_ptr<detail::WorldState> state_;
};

}  // namespace voxnav
