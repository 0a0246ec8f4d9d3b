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
  int lockstep_delay = 0;
};

/// Navigation statistics since the World was made.
struct WorldStats {
  std::uint64_t searches = 0;
  std::uint64_t nodes_expanded = 0;
  std::uint64_t maintenance_runs = 0;
  double last_maintenance_ms = 0;
  std::uint64_t standable_cells = 0;
  std::uint64_t islands = 0;
  /// Microseconds the agents' corridor checks took after the latest maintenance run (the edits'
  /// cost on the agents side; maintenance_runs tells when it changes).
  double last_edit_check_us = 0;
};

/// One standable cell on an island (World::island_cells): the island's id (>= 1, valid until
/// nav_epoch() changes) and its size in cells.
struct IslandCell {
  CellPos cell;
  std::uint32_t island = 0;
  std::uint32_t island_size = 0;
};

/// One space (a world or dimension): the host's block mirror, walker navigation, requests and
/// agents. Not thread-safe: call it from one thread; searches run on the executor.
///
/// The usual loop, once per tick (20 Hz): edit blocks as the game does, then `tick(dt)`, then
/// read agent states and corridors.
class World {
 public:
  explicit World(const WorldDef& def = {});
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // ---- block registry (voxnav/registry.h, docs/registry.md) ----
  // A World starts with a two-value registry: 0 "air", 1 "voxnav:unknown" (a full block, the
  // fallback). A game installs its own blocks with define_blocks or load_blocks_json, or
  // Minecraft's with load_minecraft_blocks; all three install BlockDefs the same way. Installing
  // is allowed only before any chunk is loaded and before any area or surface malus names blocks
  // (else Busy, nothing changes); the traits of installed values may change at any time
  // (set_block_traits).

  /// Installs `def`: value v becomes def.blocks[v]. Errors (nothing changes): Busy (see above),
  /// InvalidArgument with `error` naming the block and the field (validate_block_registry).
  Status define_blocks(const BlockRegistryDef& def, std::string* error = nullptr);
  /// Installs a registry written in voxnav's JSON format (parse_block_registry_json): Busy,
  /// BadFormat, Unsupported (a version other than 1) or InvalidArgument with `error`.
  Status load_blocks_json(std::span<const std::uint8_t> json, std::string* error = nullptr);
  /// Loads the Minecraft block registry from minecraft-data JSON (blocks.pc-1.21.1.json and
  /// blockCollisionShapes.pc-1.20.5.json, see docs/formats.md): one value per block state, made
  /// into BlockDefs and installed as define_blocks does. Busy as define_blocks; BadFormat with
  /// `error` on bad JSON.
  Status load_minecraft_blocks(std::span<const std::uint8_t> blocks_json,
                               std::span<const std::uint8_t> shapes_json,
                               std::string* error = nullptr);
  /// Replaces the traits of installed values (names and boxes stay), all checked together after
  /// applying them (a door pair can be made in one call), at any time. Navigation of every
  /// movement class is rebuilt at the next update() as if every loaded chunk had been loaded
  /// again: the navigation epoch moves and agents whose corridors are affected plan again, as
  /// after an edit (with chunk streaming on, the chunks are rebuilt as streamed loads). Errors
  /// (nothing changes): OutOfRange for a value not in the registry, InvalidArgument with `error`
  /// naming the value and the field ("value 5 'door_closed': door.toggle 'stone' is not a
  /// door").
  Status set_block_traits(std::span<const BlockTraitsChange> changes,
                          std::string* error = nullptr);
  Status set_block_traits(std::uint16_t value, const BlockTraits& traits,
                          std::string* error = nullptr) {
    const BlockTraitsChange c{value, traits};
    return set_block_traits(std::span<const BlockTraitsChange>(&c, 1), error);
  }
  /// The definition of a value (its toggle as value and, when the name finds it, name).
  /// OutOfRange for a value not in the registry.
  Status block_def(std::uint16_t value, BlockDef* out) const;
  /// The value of a block name: with a Minecraft registry a block state written
  /// "name[prop=value,...]" (namespace optional; properties not given take the block's default),
  /// otherwise the first value of that name. Strict: an unknown block name (and with Minecraft an
  /// unknown property name, a value the property does not have, a property given twice or a
  /// malformed string) gives the fallback value and NotFound, with `error` saying which part is
  /// wrong. (World file loaders stay lenient: they count such states instead, see
  /// docs/formats.md.)
  Status block_value(std::string_view state, std::uint16_t* value,
                     std::string* error = nullptr) const;
  /// Number of registry values (values are 0 .. block_count() - 1).
  std::size_t block_count() const;

  // ---- chunks and edits (all recorded in the change log) ----
  /// Loads a chunk from kChunkValues values (index x + 16 * (z + 16 * y)). InvalidArgument when
  /// the count is wrong, OutOfRange for a value not in the registry or a position out of range.
  Status load_chunk(ChunkPos pos, std::span<const std::uint16_t> values);
  /// NotLoaded when the chunk is not loaded.
  Status unload_chunk(ChunkPos pos);
  /// OutOfRange (cell or value), NotLoaded (chunk not loaded).
  Status set_block(CellPos cell, std::uint16_t value);
  /// Sets every block of the inclusive box (at most 2^24 cells; every chunk loaded).
  Status set_box(CellPos min, CellPos max, std::uint16_t value);
  /// Block value of a cell; NotLoaded when its chunk is not loaded.
  Status get_block(CellPos cell, std::uint16_t* value) const;

  // ---- profiles ----
  /// Adds a validated profile (see validate_profile). The first profile of a class builds that
  /// class's navigation data from the chunks loaded so far (walker_small, walker, walker_large and
  /// swimmer are navigable; flyer answers Unsupported in this build); every later profile of the
  /// class shares it.
  ///
  /// walker_large stands on a 2x2 footprint: its cells are *foot cells*, the low corner (min x,
  /// min z) of the four columns under the body, whose centre is (0.5, 0, 0.5) cells from the foot
  /// cell's centre. Every CellPos a walker_large profile gives or gets (reachable, is_standable,
  /// standing_height, nearest_standable, requests, path cells, waypoint cells and positions, agent
  /// goals) is a foot cell, and a waypoint's position is the foot cell's feet; an agent's feet
  /// (AgentDef::feet, AgentState::feet, teleport_agent) are the body's bottom centre, in foot cell
  /// floor(x - 0.5), floor(y), floor(z - 0.5). InvalidArgument with `error` for a bad profile, a
  /// duplicate id or a surface malus block the registry does not know; nothing is added on error.
  Status add_profile(const Profile& profile, ProfileId* id, std::string* error = nullptr);
  Status find_profile(std::string_view id, ProfileId* out) const;

  // ---- areas (surface groups) ----
  /// Defines a named area: the cells whose surface (the block a body stands on; a fluid a body
  /// swims in) is one of `blocks` (block names, any state; a "minecraft:" prefix is allowed) and
  /// the cost, in cells of level walking, a move pays on entering one (-0.6 .. 1000: negative
  /// for a road; a move never costs less than 0.4 of its own cost, and the search's heuristic is
  /// scaled so it stays optimal). Requests read areas through an AreaFilter (NavRequest::filter);
  /// profiles add their own surface malus on top. Areas are matched by name, never by index.
  /// Errors (nothing changes): InvalidArgument for an empty, duplicate or over-long (64) name, a
  /// cost out of range, an empty or unknown block name (`error` names it), more than kMaxAreas
  /// areas; OutOfRange when the surfaces would need more than 255 groups.
  Status define_area(std::string_view name, std::span<const std::string> blocks, double cost,
                     AreaId* out, std::string* error = nullptr);
  /// The area of that name, or NotFound.
  Status find_area(std::string_view name, AreaId* out) const;

  // ---- navigation ----
  /// Brings navigation up to date with the change log, applies finished searches (in request
  /// order) and dispatches new ones. tick() calls it; call it yourself when not using agents.
  void update();
  /// Chunk streaming (off by default). When on, a chunk loaded after the first update() has its
  /// navigation built on the executor from a snapshot of its blocks and of the chunks above and
  /// below (for walker_large also the +x, +z and +xz columns its foot cells stand over), and
  /// installed two updates later (the same tick with threads or without) if the chunk is still
  /// the one loaded; a chunk edited meanwhile is classified again from the current blocks, and
  /// when only a neighbour read by the build was edited, loaded or unloaded, so are the cells
  /// whose classification reads that neighbour (the band facing it). Until installed, its cells
  /// answer Unknown(NotLoaded) and no corridor enters it. A reachability answer is No only when the
  /// start reaches no island bordering a chunk without navigation (one whose build is pending or
  /// deferred, see set_chunk_build_radius): otherwise the way may run through such a chunk and the
  /// answer is Unknown(NotLoaded). Loading more than 48 chunks in one update builds them at once,
  /// as without streaming (unless a build radius is set). Chunks loaded before the first update are
  /// built by it.
  void set_chunk_streaming(bool on) noexcept;
  /// Whether chunk streaming is on.
  bool chunk_streaming() const noexcept;
  /// Chunk builds dispatched or waiting to be dispatched (0 without streaming).
  std::size_t pending_chunk_builds() const noexcept;
  /// Build radius of chunk streaming, in chunks: with streaming on and `chunks` > 0, a chunk
  /// loaded after the first update is built only once it is within `chunks` chunks of an agent:
  /// the Chebyshev distance in chunk coordinates (the largest of |dx|, |dy|, |dz|) between it and
  /// the chunk holding a live agent's feet (every agent added and not removed, whatever its mode)
  /// is at most `chunks`. Until then the chunk is *deferred*: loaded, not built; its cells answer
  /// Unknown(NotLoaded) and no corridor enters it. Each update() (tick() makes one) looks at the
  /// agents' positions at that moment: a deferred chunk an agent came near (walking or teleported)
  /// is dispatched then and installed like any streamed build. A built chunk stays built until
  /// it is unloaded; edits of a deferred chunk cost nothing (its build reads the blocks current
  /// then). With a radius every load is streamed, however many chunks one update loads. 0 (the
  /// default) builds every loaded chunk; without streaming the radius has no effect. Applies to
  /// every movement class (a class added later builds every chunk loaded by then).
  /// Agents with a radius set: when their goal answers Unknown(NotLoaded) (it lies in, or may be
  /// reached only through, chunks without navigation) and they stand on a built cell, they walk
  /// over the built chunks as close to the goal as those go (a partial corridor), the chunks
  /// ahead are built as they come near, and they plan again at its end; when no built cell is
  /// closer they wait Blocked and retry. Requests made with request() still fail NotLoaded.
  /// InvalidArgument (nothing changes) for a value below 0 or above kMaxChunkBuildRadius.
  Status set_chunk_build_radius(int chunks) noexcept;
  static constexpr int kMaxChunkBuildRadius = 32;
  /// The build radius (chunks; 0: every loaded chunk is built).
  int chunk_build_radius() const noexcept;
  /// Search budget: at most `searches` path searches are dispatched per update() and movement
  /// class, the oldest requests first; the others stay queued (their state Searching, agents wait
  /// in Planning) for the next updates. A burst of replans (many edits under corridors, a crowd
  /// given one order) then costs a few ticks of waiting instead of one long tick, which matters
  /// most without worker threads, where searches run inside update(). Local corridor repairs
  /// (short, bounded searches) are not counted. 0 (the default): every queued request is dispatched
  /// at once. InvalidArgument (nothing changes) below 0 or above kMaxSearchesPerUpdate.
  Status set_searches_per_update(int searches) noexcept;
  static constexpr int kMaxSearchesPerUpdate = 4096;
  /// The search budget (searches per update and class; 0: no limit).
  int searches_per_update() const noexcept;
  /// Path requests waiting to be dispatched (summed over the movement classes).
  std::size_t queued_requests() const noexcept;
  /// Loaded chunks whose build is deferred: no agent within the build radius (summed over the
  /// movement classes, like pending_chunk_builds; 0 without a radius).
  std::size_t deferred_chunk_builds() const noexcept;
  /// Navigation epoch, one for every movement class: advances whenever an update changed some
  /// class's navigation data in a way that may change a reachability answer (Reach::epoch is on
  /// the same scale). stats(), search_times_us() and nav_tick() describe the walker class.
  std::uint64_t nav_epoch() const;
  /// Constant-time reachability for the profile's class (see Reach): Yes, No (never wrong for the
  /// class) or Unknown with a reason; Unknown(BadProfile) for a profile id not of this world.
  Reach reachable(ProfileId profile, CellPos from, CellPos goal) const;
  /// Island of `cell` in the profile's class navigation: a set of standable cells that all reach
  /// one another (the class's moves, ignoring the profile's restrictions). *island gets its id
  /// (>= 1, valid until nav_epoch() changes; 0 when the cell is not standable or its chunk has
  /// no navigation) and *size, when not null, its cell count (0 with id 0). Statuses: Ok,
  /// InvalidArgument (a bad profile, a null `island`), OutOfRange (a cell out of range).
  Status island_of(ProfileId profile, CellPos cell, std::uint32_t* island,
                   std::uint32_t* size = nullptr) const;
  /// Every standable cell on an island of the profile's class navigation, in a fixed order
  /// (built chunks in order, then the cells of each chunk in order), with its island's id and
  /// size: a host picks spawn or goal cells from it. Copies up to `capacity` cells; `count` gets
  /// the total. Statuses: Ok, InvalidArgument (a bad profile, a null `count`, or a null `out`
  /// with capacity > 0).
  Status island_cells(ProfileId profile, IslandCell* out, std::size_t capacity,
                      std::size_t* count) const;
  /// Whether a body of the profile's class can stand with its feet in `cell`.
  bool is_standable(ProfileId profile, CellPos cell) const;
  /// Feet height (metres) of a standable cell, or NotLoaded / NotFound.
  Status standing_height(ProfileId profile, CellPos cell, double* feet_y) const;
  /// Nearest standable cell to `near` within `radius` cells (search order: distance, then y, z,
  /// x); NotFound when none.
  Status nearest_standable(ProfileId profile, CellPos near, int radius, CellPos* out) const;

  /// Starts a path request; never blocks. A reachability No fails the handle at once
  /// (PathFailure::Unreachable) without a search. InvalidArgument for a bad profile or range.
  Status request(const NavRequest& req, PathHandle* out);
  /// The same request with `toward` set: when the goal cannot be reached within the profile's
  /// search budget (or at all), the handle becomes Ready with the route to the explored cell
  /// nearest the goal (PathStatus::partial), instead of Failed.
  Status request_toward(NavRequest req, PathHandle* out) {
    req.toward = true;
    return request(req, out);
  }
  /// Runs one search on the calling thread now, with the request's rules (reachability
  /// screening, the profile's budget, `toward`), and fills `out`. No request slot is used and the
  /// tick does not advance: nothing the agents or other requests see changes (the search is not
  /// counted in stats() either), so a host may answer interactive queries between ticks without
  /// changing the simulation. It searches the navigation as of the last update() / tick(): edits
  /// made since are not seen until the next one. InvalidArgument for a bad profile or range (or
  /// a null `out`), OutOfRange for cells out of range; a path that cannot be found is Ok with
  /// out->status.state == Failed and the reason in out->status.failure.
  Status find_path_now(const NavRequest& req, PathResult* out);
  /// StaleHandle for a released or unknown handle.
  Status status(PathHandle h, PathStatus* out) const;
  /// Copies up to `capacity` waypoints of a Ready request; `count` gets the total.
  Status corridor(PathHandle h, Waypoint* out, std::size_t capacity, std::size_t* count) const;
  /// Copies up to `capacity` path cells of a Ready request; `count` gets the total.
  Status path_cells(PathHandle h, PathCell* out, std::size_t capacity, std::size_t* count) const;
  /// Frees a handle (its slot is reused with a new generation).
  Status release(PathHandle h);

  // ---- agents ----
  /// Adds an agent whose body stands at `def.feet` (bottom centre of the body). InvalidArgument
  /// for a bad profile or a non-finite position, OutOfRange when its (foot) cell is out of range.
  /// Agents of walker, walker_small and walker_large profiles walk (a walker_large body centre
  /// steers to each waypoint plus (0.5, 0, 0.5)); agents of a swimmer profile swim (the movement
  /// step's Swim mode, at the profile's `speed.swim`): they follow the swimmer navigation's water
  /// cells, rise and dive toward each waypoint's depth and never steer out of the water. Place a
  /// swimmer's feet in a water cell of its class (a cell `is_standable` answers for). A walker
  /// added in the air falls and plans once it stands.
  Status add_agent(const AgentDef& def, AgentId* out);
  Status remove_agent(AgentId id);
  /// Sends an agent to a goal cell (the search starts at the next tick).
  Status set_agent_goal(AgentId id, CellPos goal);
  Status agent_state(AgentId id, AgentState* out) const;
  /// Reason text of a Blocked or Failed agent (empty otherwise).
  Status agent_reason(AgentId id, std::string* out) const;
  /// Waypoints of the agent's current corridor.
  Status agent_corridor(AgentId id, Waypoint* out, std::size_t capacity, std::size_t* count) const;
  /// The search cells of the agent's current corridor (each with the edge kind entering it);
  /// copies up to `capacity`, `count` gets the total. StaleHandle for an unknown agent,
  /// InvalidArgument for a null `count` (or a null `out` with capacity > 0).
  Status agent_path_cells(AgentId id, PathCell* out, std::size_t capacity,
                          std::size_t* count) const;
  /// Moves an agent's body to `feet` (bottom centre, metres) at once, at rest. An agent that was
  /// following a corridor or waiting for a search plans again from there at the next tick (a body
  /// placed in the air falls first and plans once it stands); the corridor epoch changes.
  /// InvalidArgument for a non-finite position, OutOfRange when its (foot) cell is out of range,
  /// StaleHandle for a removed agent; nothing changes on an error.
  Status teleport_agent(AgentId id, Vec3 feet);

  // ---- doors ----
  // The follower stops before a closed door cell its corridor enters (only profiles with
  // can_open_doors plan through closed doors; any agent meets one that closed after it planned):
  // it stands within 1 + width / 2 cells of the door cell's centre, raises one DoorAhead event
  // (take_door_events) and holds, without counting as stuck, until navigation shows the cell open
  // (the host opens doors: set_door_open, or any edit; navigation sees it at the next tick). After
  // 40 ticks of holding, the door cell joins the agent's avoided cells for 600 ticks (each request
  // it makes costs a move into an avoided door 20 cells more) and the agent plans again: it takes
  // another way when one exists, else holds again at the same door (no new event) and, when that
  // door was already avoided, becomes Blocked with a reason naming the door.

  /// Opens (`open` true) or closes a door: the cell and the run of cells straight above and below
  /// it holding the same door block (same block name, same open state: both halves of a two-high
  /// door) each become the registry's toggled value (for Minecraft, the state with `open` flipped).
  /// Recorded in the change log like set_block; navigation sees it at the next update() / tick().
  /// Ok and nothing changes when the door already is in that state. Errors (nothing changes):
  /// OutOfRange for a cell out of range, NotLoaded when its chunk is not loaded, NotFound when the
  /// cell holds no door, Unsupported when the registry gives the door no toggled value of the
  /// other state.
  Status set_door_open(CellPos cell, bool open);
  /// Moves the DoorAhead events raised since the last call, oldest first, into `out`: up to
  /// `capacity` of them; `*count` gets how many were moved. Events that do not fit stay for the
  /// next call (pending_door_events() tells how many wait; at most 4096 are kept, the oldest
  /// dropped beyond that). InvalidArgument for a null `count`, or a null `out` with capacity > 0.
  Status take_door_events(DoorEvent* out, std::size_t capacity, std::size_t* count);
  std::size_t pending_door_events() const;
  /// Navigation tick: the number of update() calls so far (tick() makes one). DoorEvent::tick and
  /// the avoided-door expiry count in it.
  std::uint64_t nav_tick() const;

  /// One simulation tick: update(), then every agent follows its corridor and moves with the
  /// shared integrator. dt in seconds (0 < dt <= 1).
  Status tick(double dt);

  WorldStats stats() const;
  /// Wall time (microseconds) of the last kSearchTimesKept searches applied (fewer before that
  /// many ran), oldest first: for percentiles; timing only. The memory it takes is fixed.
  std::span<const double> search_times_us() const;

 private:
  friend struct detail::WorldAccess;  // voxnav's own tests (src/engine/nav/world_access.h)
  std::unique_ptr<detail::WorldState> state_;
};

}  // namespace voxnav
