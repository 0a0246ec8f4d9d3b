// voxnav bindings - WorldCore, the Embind class over one voxnav::World. It converts values only:
// JS numbers to cells and ids, typed arrays to spans; the World checks every rule and writes the
// messages (World::last_error()).
//
// Conventions (the JS wrapper in web/lib/world.mjs relies on them):
// - Methods with no result return the voxnav::Status as an int (0 = Ok).
// - Methods with a result return it as a JS value, or `undefined` when they fail.
// - After any failure, lastStatus() and lastError() describe it: {status, function, argument,
//   message}, the C++ call's names (web/lib/errors.mjs makes them the JS names).
// - Bulk data crosses as typed arrays: inputs are copied into the wasm heap with one
//   TypedArray.set; outputs are views of this object's scratch buffers, valid until the next call.
// - Agent ids and path handles are one JS number each (voxnav/ids.h id_number).
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "convert.h"
#include "voxnav/world.h"

#ifdef VOXNAV_WASM_THREADS
#include "thread_executor.h"
#endif

namespace voxnav::bindings {

#ifdef VOXNAV_WASM_THREADS
/// One pthread for the whole module (-sPTHREAD_POOL_SIZE=1), shared by every World; never freed.
inline ThreadExecutor* shared_executor() {
  static ThreadExecutor* exec = new ThreadExecutor();
  return exec;
}
#endif

class WorldCore {
 public:
  WorldCore(int lockstep_delay, bool threaded) {
    WorldDef def;
    def.lockstep_delay = lockstep_delay;
#ifdef VOXNAV_WASM_THREADS
    if (threaded) def.executor = shared_executor();
#endif
    threaded_ = threaded && def.executor != nullptr;
    world_ = std::make_unique<World>(def);
  }

  World& world() { return *world_; }
  CallState& calls() { return calls_; }
  const std::vector<AgentId>& agents() const { return agents_; }
  int last_status() const { return calls_.last_status(); }
  val last_error() const { return calls_.last_error(); }
  std::string last_warning() const { return last_warning_; }
  bool threaded() const { return threaded_; }

  // ---- registry ----
  int load_minecraft_blocks(val blocks, val shapes) {
    std::vector<std::uint8_t> b, s;
    if (!copy_typed(blocks, b) || !copy_typed(shapes, s))
      return calls_.fail(Status::InvalidArgument, "load_minecraft_blocks",
                         "blocksJson and shapesJson must be Uint8Array");
    return done(world_->load_minecraft_blocks(b, s));
  }
  val block_value(std::string state) {
    std::uint16_t v = 0;
    const Status st = world_->block_value(state, &v);
    return calls_.result(*world_, st, val(v));
  }
  double block_count() const { return static_cast<double>(world_->block_count()); }
  /// voxnav's registry JSON; `fn` is the JS function that called (defineBlocks reshapes its
  /// arguments into the format and is named in the error).
  int load_blocks(val json, std::string fn) {
    std::vector<std::uint8_t> b;
    if (!copy_typed(json, b)) return calls_.fail(Status::InvalidArgument, fn, "json must be bytes");
    if (done(world_->load_blocks_json(b)) != 0) calls_.set_function(fn);
    return last_status();
  }
  int set_block_traits(double value, std::string traits_json) {
    BlockTraitsChange c;
    std::string msg;
    if (const Status st = parse_block_traits_json(traits_json, &c.traits, &msg); st != Status::Ok)
      return calls_.fail(st, "set_block_traits", msg);
    if (!calls_.value("set_block_traits", value, c.value, world_->block_count()))
      return last_status();
    return done(world_->set_block_traits(std::span<const BlockTraitsChange>(&c, 1)));
  }

  // ---- chunks and edits ----
  /// positions: Int32Array of 3 per chunk; values: Uint16Array of kChunkValues per chunk.
  int load_chunks(val positions, val values) {
    if (!chunk_positions("load_chunks", positions)) return last_status();
    if (!copy_typed(values, u16_))
      return calls_.fail(Status::InvalidArgument, "load_chunks", "values must be a Uint16Array");
    const int st = done(world_->load_chunks(chunks_, u16_));
    release_large_scratch();
    return st;
  }
  int load_chunk(double cx, double cy, double cz, val values) {
    ChunkPos p;
    if (!calls_.chunk("load_chunk", cx, cy, cz, p)) return last_status();
    if (!copy_typed(values, u16_))
      return calls_.fail(Status::InvalidArgument, "load_chunk", "values must be a Uint16Array");
    return done(world_->load_chunk(p, u16_));
  }
  int unload_chunks(val positions) {
    return chunk_positions("unload_chunks", positions) ? done(world_->unload_chunks(chunks_))
                                                       : last_status();
  }
  int unload_chunk(double cx, double cy, double cz) {
    ChunkPos p;
    return calls_.chunk("unload_chunk", cx, cy, cz, p) ? done(world_->unload_chunk(p))
                                                       : last_status();
  }
  int set_block(double x, double y, double z, double value) {
    CellPos c;
    std::uint16_t v = 0;
    if (!calls_.cell("set_block", "cell", x, y, z, c) ||
        !calls_.value("set_block", value, v, world_->block_count()))
      return last_status();
    return done(world_->set_block(c, v));
  }
  int set_box(double x0, double y0, double z0, double x1, double y1, double z1, double value) {
    CellPos a, b;
    std::uint16_t v = 0;
    if (!calls_.cell("set_box", "min", x0, y0, z0, a) ||
        !calls_.cell("set_box", "max", x1, y1, z1, b) ||
        !calls_.value("set_box", value, v, world_->block_count()))
      return last_status();
    return done(world_->set_box(a, b, v));
  }
  /// World::set_blocks: `cells` Float64Array of 6 per edit (min, then max), `values` Float64Array
  /// of 1 per edit, `single` Uint8Array of 1 per edit (1: a cell, named "cell" in messages);
  /// `list` names the entries in messages ("edits"; "" for one edit).
  int set_blocks(val cells, val values, val single, std::string list) {
    const char* fn = "set_blocks";
    if (!copy_typed(cells, f64_) || !copy_typed(values, in_) || !copy_typed(single, u8_) ||
        f64_.size() != 6 * in_.size() || u8_.size() != in_.size())
      return calls_.fail(Status::InvalidArgument, fn,
                         "edits must be 6 cell numbers, a value and a flag each");
    std::vector<BlockEdit> edits(in_.size());
    for (std::size_t i = 0; i < edits.size(); ++i) {
      const std::string at = list.empty() ? std::string() : list + "[" + std::to_string(i) + "].";
      const double* c = &f64_[6 * i];
      if (!calls_.cell(fn, at + (u8_[i] ? "cell" : "min"), c[0], c[1], c[2], edits[i].min) ||
          !calls_.cell(fn, at + (u8_[i] ? "cell" : "max"), c[3], c[4], c[5], edits[i].max))
        return last_status();
      // A number no uint32 holds is never a registry value: UINT32_MAX is refused as OutOfRange.
      edits[i].value = integral(in_[i]) && in_[i] >= 0 && in_[i] < UINT32_MAX
                           ? std::uint32_t(in_[i])
                           : UINT32_MAX;
      edits[i].cell = u8_[i] != 0;
    }
    return done(world_->set_blocks(edits, list));
  }
  val get_block(double x, double y, double z) {
    CellPos c;
    if (!calls_.cell("get_block", "cell", x, y, z, c)) return val::undefined();
    std::uint16_t v = 0;
    const Status st = world_->get_block(c, &v);
    return calls_.result(*world_, st, val(v));
  }

  // ---- profiles and areas ----
  val add_profile(std::string json, std::string source) {
    Profile p;
    std::string err, warn;
    if (const Status st = parse_profile_json(json, p, &err, &warn, source); st != Status::Ok)
      return calls_.fail_val(st, "add_profile", err);
    ProfileId id;
    const Status st = world_->add_profile(p, &id);
    if (st == Status::Ok) last_warning_ = warn;
    return calls_.result(*world_, st, val(id.index));
  }
  val find_profile(std::string name) {
    ProfileId id;
    const Status st = world_->find_profile(name, &id);
    return calls_.result(*world_, st, val(id.index));
  }
  /// World::define_area: name, blocks (an Array of block names), cost in cells.
  val define_area(val name, val blocks, double cost) {
    const char* fn = "define_area";
    if (!name.isString())
      return calls_.fail_val(Status::InvalidArgument, fn, "name must be a string");
    const std::string n = name.as<std::string>();
    const auto bad = [&](const std::string& what) {
      return calls_.fail_val(Status::InvalidArgument, fn, "area \"" + n + "\": " + what, "blocks");
    };
    if (!blocks.isArray()) return bad("blocks must be an array of block names");
    std::vector<std::string> names;
    for (std::size_t i = 0, count = blocks["length"].as<std::size_t>(); i < count; ++i) {
      if (!blocks[i].isString())
        return bad("blocks[" + std::to_string(i) + "] is not a block name (a non-empty string)");
      names.push_back(blocks[i].as<std::string>());
    }
    AreaId id;
    const Status st = world_->define_area(n, names, cost, &id);
    return calls_.result(*world_, st, val(id.index));
  }
  val find_area(val name) {
    if (!name.isString())
      return calls_.fail_val(Status::InvalidArgument, "find_area", "name must be a string");
    AreaId id;
    const Status st = world_->find_area(name.as<std::string>(), &id);
    return calls_.result(*world_, st, val(id.index));
  }

  // ---- navigation queries ----
  void update() { world_->update(); }
  double nav_epoch() const { return static_cast<double>(world_->nav_epoch()); }
  val reachable(double profile, double fx, double fy, double fz, double gx, double gy, double gz) {
    const char* fn = "reachable";
    ProfileId pid;
    CellPos a, b;
    if (!calls_.profile_cell(fn, profile, "from", fx, fy, fz, pid, a) ||
        !calls_.cell(fn, "goal", gx, gy, gz, b))
      return val::undefined();
    Reach r;
    const Status st = world_->reachable(pid, a, b, &r);
    return calls_.result(*world_, st,
                         object({{"answer", val(reach_answer_name(r.answer))},
                                 {"reason", val(reach_reason_name(r.reason))},
                                 {"epoch", number(double(r.epoch))}}));
  }
  val is_standable(double profile, double x, double y, double z) {
    ProfileId pid;
    CellPos c;
    if (!calls_.profile_cell("is_standable", profile, "cell", x, y, z, pid, c))
      return val::undefined();
    bool standable = false;
    const Status st = world_->is_standable(pid, c, &standable);
    return calls_.result(*world_, st, val(standable));
  }
  /// Feet height in metres, or null when the cell is loaded but not standable.
  val standing_height(double profile, double x, double y, double z) {
    ProfileId pid;
    CellPos c;
    if (!calls_.profile_cell("standing_height", profile, "cell", x, y, z, pid, c))
      return val::undefined();
    double h = 0;
    const Status st = world_->standing_height(pid, c, &h);
    if (st == Status::NotFound) return calls_.ok(), val::null();
    return calls_.result(*world_, st, val(h));
  }
  /// Int32Array view [x, y, z], or null when no standable cell is within the radius.
  val nearest_standable(double profile, double x, double y, double z, double radius) {
    const char* fn = "nearest_standable";
    ProfileId pid;
    CellPos c, out;
    if (!calls_.profile_cell(fn, profile, "near", x, y, z, pid, c)) return val::undefined();
    if (!int32_number(radius))
      return calls_.fail_val(Status::InvalidArgument, fn,
                             "radius " + num(radius) + " is not an integer");
    const Status st = world_->nearest_standable(pid, c, static_cast<int>(radius), &out);
    if (st == Status::NotFound) return calls_.ok(), val::null();
    i32_.assign({out.x, out.y, out.z});
    return calls_.result(*world_, st, view(i32_));
  }

  // ---- requests ----
  val request(double profile, double sx, double sy, double sz, double gx, double gy, double gz,
              double range, bool toward, val filter) {
    const char* fn = toward ? "request_toward" : "request";
    NavRequest req;
    if (!request_args(fn, profile, sx, sy, sz, gx, gy, gz, range, toward, filter, req))
      return val::undefined();
    PathHandle h;
    if (world_->request(req, &h) != Status::Ok) return calls_.world_fail(*world_), val::undefined();
    double id = 0;
    if (!id_number(h, &id)) {
      (void)world_->release(h);
      return calls_.fail_val(Status::Unsupported, fn,
                             "more than 524288 requests of one class are held; release some");
    }
    return calls_.ok(), val(id);
  }
  val status(double handle) {
    PathHandle h;
    PathStatus s;
    if (!calls_.id("status", handle, h)) return val::undefined();
    const Status st = world_->status(h, &s);
    return calls_.result(*world_, st, status_object(s));
  }
  /// The search runs now (World::find_path_now): status() fields plus, when ready, `corridor`.
  val find_path_now(double profile, double sx, double sy, double sz, double gx, double gy,
                    double gz, double range, bool toward, val filter) {
    NavRequest req;
    if (!request_args("find_path_now", profile, sx, sy, sz, gx, gy, gz, range, toward, filter, req))
      return val::undefined();
    PathResult r;
    if (world_->find_path_now(req, &r) != Status::Ok)
      return calls_.world_fail(*world_), val::undefined();
    val o = status_object(r.status);
    o.set("corridor",
          r.status.state == PathState::Ready ? waypoint_views(r.waypoints) : val::null());
    return calls_.ok(), o;
  }
  /// {positions: Float64Array 3n, kinds: Uint8Array n, cells: Int32Array 3n} views.
  val corridor(double handle) {
    PathHandle h;
    if (!calls_.id("corridor", handle, h)) return val::undefined();
    const Status st = fetch_all(waypoints_, [&](Waypoint* o, std::size_t c, std::size_t* n) {
      return world_->corridor(h, o, c, n);
    });
    return st == Status::Ok ? (calls_.ok(), waypoint_views(waypoints_))
                            : (calls_.world_fail(*world_), val::undefined());
  }
  /// {cells: Int32Array 3n, kinds: Uint8Array n} views.
  val path_cells(double handle) {
    PathHandle h;
    if (!calls_.id("path_cells", handle, h)) return val::undefined();
    std::vector<PathCell> cells;
    if (fetch_all(cells, [&](PathCell* o, std::size_t c, std::size_t* n) {
          return world_->path_cells(h, o, c, n);
        }) != Status::Ok)
      return calls_.world_fail(*world_), val::undefined();
    i32_.clear();
    u8_.clear();
    for (const PathCell& c : cells)
      push_xyz(i32_, c.cell), u8_.push_back(static_cast<std::uint8_t>(c.kind));
    return calls_.ok(), object({{"cells", view(i32_)}, {"kinds", view(u8_)}});
  }
  int release(double handle) {
    PathHandle h;
    return calls_.id("release", handle, h) ? done(world_->release(h)) : last_status();
  }

  // ---- agents ----
  val add_agent(double profile, double x, double y, double z) {
    AgentDef def;
    if (!calls_.profile("add_agent", profile, def.profile)) return val::undefined();
    def.feet = Vec3{x, y, z};
    AgentId id;
    if (world_->add_agent(def, &id) != Status::Ok)
      return calls_.world_fail(*world_), val::undefined();
    double number = 0;
    if (!id_number(id, &number)) {
      (void)world_->remove_agent(id);
      return calls_.fail_val(Status::Unsupported, "add_agent", "more than 2097152 agents");
    }
    agents_.push_back(id);
    return calls_.ok(), val(number);
  }
  int remove_agent(double agent) {
    AgentId id;
    if (!calls_.id("remove_agent", agent, id)) return last_status();
    if (world_->remove_agent(id) != Status::Ok) return calls_.world_fail(*world_);
    std::erase_if(agents_,
                  [&](AgentId a) { return a.index == id.index && a.generation == id.generation; });
    return calls_.ok();
  }
  int set_agent_goal(double agent, double x, double y, double z) {
    AgentId id;
    CellPos c;
    if (!calls_.id("set_agent_goal", agent, id) ||
        !calls_.cell("set_agent_goal", "goal", x, y, z, c))
      return last_status();
    return done(world_->set_agent_goal(id, c));
  }
  val agent_state(double agent) {
    AgentId id;
    AgentState s;
    if (!calls_.id("agent_state", agent, id)) return val::undefined();
    if (world_->agent_state(id, &s) != Status::Ok)
      return calls_.world_fail(*world_), val::undefined();
    f64_.assign({s.feet.x, s.feet.y, s.feet.z, s.velocity.x, s.velocity.y, s.velocity.z});
    val door = val::array();
    for (int i = 0; i < 3; ++i) door.set(i, val((&s.door.x)[i]));
    return calls_.ok(), object({{"mode", val(agent_mode_name(s.mode))},
                                {"vectors", view(f64_)},  // feet, velocity
                                {"onGround", val(s.on_ground)},
                                {"corridorEpoch", val(s.corridor_epoch)},
                                {"nextWaypoint", val(s.next_waypoint)},
                                {"arrivals", val(s.arrivals)},
                                {"replans", val(s.replans)},
                                {"repairs", val(s.repairs)},
                                {"requests", val(s.requests)},
                                {"failure", val(path_failure_name(s.failure))},
                                {"waitingAtDoor", val(s.waiting_at_door)},
                                {"door", door},
                                {"doorHoldTicks", val(s.door_hold_ticks)},
                                {"doorEvents", val(s.door_events)},
                                {"doorTimeouts", val(s.door_timeouts)}});
  }
  val agent_reason(double agent) {
    AgentId id;
    std::string r;
    if (!calls_.id("agent_reason", agent, id)) return val::undefined();
    const Status st = world_->agent_reason(id, &r);
    return calls_.result(*world_, st, val(r));
  }
  /// Corridor views (see corridor()) plus `epoch`.
  val agent_corridor(double agent) {
    AgentId id;
    AgentState s;
    if (!calls_.id("agent_corridor", agent, id)) return val::undefined();
    if (world_->agent_state(id, &s) != Status::Ok ||
        fetch_all(waypoints_, [&](Waypoint* o, std::size_t c, std::size_t* n) {
          return world_->agent_corridor(id, o, c, n);
        }) != Status::Ok)
      return calls_.world_fail(*world_), val::undefined();
    val o = waypoint_views(waypoints_);
    o.set("epoch", val(s.corridor_epoch));
    return calls_.ok(), o;
  }
  int teleport_agent(double agent, double x, double y, double z) {
    AgentId id;
    return calls_.id("teleport_agent", agent, id) ? done(world_->teleport_agent(id, Vec3{x, y, z}))
                                                  : last_status();
  }
  /// Every live agent in the order added: {count, ids Float64Array n, positions / velocities
  /// Float64Array 3n, modes / onGround Uint8Array n, corridorEpochs Uint32Array n} views.
  val agents_snapshot() {
    for (auto* v : {&snap_ids_, &snap_pos_, &snap_vel_}) v->clear();
    snap_mode_.clear(), snap_ground_.clear(), snap_epoch_.clear();
    for (const AgentId& id : agents_) {
      AgentState s;
      (void)world_->agent_state(id, &s);
      snap_ids_.push_back(number_of(id));
      push_xyz(snap_pos_, s.feet), push_xyz(snap_vel_, s.velocity);
      snap_mode_.push_back(static_cast<std::uint8_t>(s.mode)),
          snap_ground_.push_back(s.on_ground ? 1 : 0);
      snap_epoch_.push_back(s.corridor_epoch);
    }
    return object({{"count", number(double(agents_.size()))},
                   {"ids", view(snap_ids_)},
                   {"positions", view(snap_pos_)},
                   {"velocities", view(snap_vel_)},
                   {"modes", view(snap_mode_)},
                   {"onGround", view(snap_ground_)},
                   {"corridorEpochs", view(snap_epoch_)}});
  }

  // ---- doors ----
  int set_door_open(double x, double y, double z, bool open) {
    CellPos c;
    return calls_.cell("set_door_open", "cell", x, y, z, c) ? done(world_->set_door_open(c, open))
                                                            : last_status();
  }
  /// Every pending DoorAhead event: {count, agents Float64Array n, doors Int32Array 3n, ticks
  /// Float64Array n} views.
  val take_door_events() {
    std::vector<DoorEvent> ev(world_->pending_door_events());
    std::size_t n = 0;
    (void)world_->take_door_events(ev.data(), ev.size(), &n);
    door_agents_.clear(), door_cells_.clear(), door_ticks_.clear();
    for (std::size_t i = 0; i < n; ++i) {
      door_agents_.push_back(number_of(ev[i].agent));
      push_xyz(door_cells_, ev[i].door);
      door_ticks_.push_back(static_cast<double>(ev[i].tick));
    }
    return calls_.ok(), object({{"count", number(double(n))},
                                {"agents", view(door_agents_)},
                                {"doors", view(door_cells_)},
                                {"ticks", view(door_ticks_)}});
  }
  double pending_door_events() const { return static_cast<double>(world_->pending_door_events()); }
  double nav_tick() const { return static_cast<double>(world_->nav_tick()); }

  // ---- chunk streaming, the search budget, the tick ----
  void set_chunk_streaming(bool on) { world_->set_chunk_streaming(on); }
  bool chunk_streaming() const { return world_->chunk_streaming(); }
  double pending_chunk_builds() const {
    return static_cast<double>(world_->pending_chunk_builds());
  }
  int set_chunk_build_radius(double chunks) {
    return done(world_->set_chunk_build_radius(int_or_refused(chunks)));
  }
  int chunk_build_radius() const { return world_->chunk_build_radius(); }
  double deferred_chunk_builds() const {
    return static_cast<double>(world_->deferred_chunk_builds());
  }
  int set_searches_per_update(double searches) {
    return done(world_->set_searches_per_update(int_or_refused(searches)));
  }
  int searches_per_update() const { return world_->searches_per_update(); }
  double queued_requests() const { return static_cast<double>(world_->queued_requests()); }
  int tick(double dt) { return done(world_->tick(dt)); }
  val stats() const {
    const WorldStats s = world_->stats();
    double jobs = 0;
#ifdef VOXNAV_WASM_THREADS
    if (threaded_) jobs = static_cast<double>(shared_executor()->jobs_run());
#endif
    return object({{"searches", number(double(s.searches))},
                   {"nodesExpanded", number(double(s.nodes_expanded))},
                   {"maintenanceRuns", number(double(s.maintenance_runs))},
                   {"lastMaintenanceMs", number(s.last_maintenance_ms)},
                   {"standableCells", number(double(s.standable_cells))},
                   {"islands", number(double(s.islands))},
                   {"agents", number(double(agents_.size()))},
                   {"threadJobs", number(jobs)}});
  }
  val search_times_us() const {
    const std::span<const double> t = world_->search_times_us();
    return val(typed_memory_view(t.size(), t.data()));
  }

 private:
  int done(Status st) { return calls_.done(*world_, st); }
  /// The copy of a large load is not kept: the heap is shared by every World of the module.
  void release_large_scratch() {
    constexpr std::size_t kKeepValues = std::size_t{64} * kChunkValues;
    if (u16_.capacity() > kKeepValues) std::vector<std::uint16_t>().swap(u16_);
    if (chunks_.capacity() > 64) std::vector<ChunkPos>().swap(chunks_);
  }
  template <class Id>
  static double number_of(Id id) {
    double n = -1;  // not reached: add_agent and request keep only ids that have a number
    (void)id_number(id, &n);
    return n;
  }
  // A JS number for a C++ int parameter: one no int holds becomes INT_MIN, which every limit
  // refuses (the World's message names it).
  static int int_or_refused(double v) { return int32_number(v) ? static_cast<int>(v) : INT32_MIN; }
  bool chunk_positions(const char* fn, const val& positions) {
    if (!copy_typed(positions, i32_))
      return calls_.fail(Status::InvalidArgument, fn, "positions must be an Int32Array"), false;
    if (i32_.size() % 3 != 0)
      return calls_.fail(Status::InvalidArgument, fn,
                         "positions has " + std::to_string(i32_.size()) +
                             " entries, not a multiple of 3 (x, y, z per chunk)"),
             false;
    chunks_.clear();
    for (std::size_t i = 0; i < i32_.size(); i += 3)
      chunks_.push_back(ChunkPos{i32_[i], i32_[i + 1], i32_[i + 2]});
    return true;
  }
  static val status_object(const PathStatus& s) {
    return object({{"state", val(path_state_name(s.state))},
                   {"failure", val(path_failure_name(s.failure))},
                   {"partial", val(s.partial)},
                   {"cost", val(s.cost)},
                   {"nodesExpanded", val(s.nodes_expanded)},
                   {"cellCount", val(s.cell_count)},
                   {"waypointCount", val(s.waypoint_count)}});
  }
  val waypoint_views(const std::vector<Waypoint>& points) {
    f64_.clear(), i32_.clear(), u8_.clear();
    for (const Waypoint& w : points)
      push_xyz(f64_, w.position), push_xyz(i32_, w.cell),
          u8_.push_back(static_cast<std::uint8_t>(w.kind));
    return object({{"positions", view(f64_)}, {"kinds", view(u8_)}, {"cells", view(i32_)}});
  }
  /// The arguments of request() and find_path_now() (false: the error is set).
  bool request_args(const char* fn, double profile, double sx, double sy, double sz, double gx,
                    double gy, double gz, double range, bool toward, const val& filter,
                    NavRequest& req) {
    if (!calls_.profile(fn, profile, req.profile) ||
        !calls_.cell(fn, "start", sx, sy, sz, req.start) ||
        !calls_.cell(fn, "goal", gx, gy, gz, req.goal))
      return false;
    if (!int32_number(range))
      return calls_.fail(Status::InvalidArgument, fn, "range " + num(range) + " is not an integer"),
             false;
    req.goal_range = static_cast<int>(range);
    req.toward = toward;
    return filter_arg(fn, filter, req.filter);
  }
  /// A request's area filter (areas resolved to indices by the JS wrapper): undefined or null, or
  /// { excluded: a 32-bit mask, multipliers: Float64Array, one entry per area }. The World checks
  /// that only defined areas are named and the multipliers' range.
  bool filter_arg(const char* fn, const val& f, AreaFilter& out) {
    out = AreaFilter{};
    if (f.isUndefined() || f.isNull()) return true;
    const auto bad = [&](const std::string& msg) {
      return calls_.fail(Status::InvalidArgument, fn, "filter: " + msg), false;
    };
    if (f.typeOf().as<std::string>() != "object" || f.isArray())
      return bad("must be an object { excluded, multipliers }");
    const val keys = val::global("Object").call<val>("keys", f);
    for (std::size_t i = 0, nk = keys["length"].as<std::size_t>(); i < nk; ++i)
      if (const std::string k = keys[i].as<std::string>(); k != "excluded" && k != "multipliers")
        return bad(k + " is not a filter field (excluded, multipliers)");
    if (const val ex = f["excluded"]; !ex.isUndefined()) {
      if (!ex.isNumber()) return bad("excluded must be a number (a bit per area)");
      const double e = ex.as<double>();
      if (!integral(e) || e < 0 || e > 4294967295.0)
        return bad("excluded " + num(e) + " is not a 32-bit mask");
      out.excluded = static_cast<std::uint32_t>(e);
    }
    if (const val mul = f["multipliers"]; !mul.isUndefined()) {
      if (!copy_typed(mul, in_))
        return bad("multipliers must be a Float64Array (one entry per area)");
      if (in_.size() > kMaxAreas)
        return bad("multipliers has " + std::to_string(in_.size()) + " entries, more than " +
                   std::to_string(kMaxAreas));
      std::copy(in_.begin(), in_.end(), out.multiplier.begin());
    }
    return true;
  }

  std::unique_ptr<World> world_;
  CallState calls_;
  bool threaded_ = false;
  std::string last_warning_;
  std::vector<AgentId> agents_;
  std::vector<ChunkPos> chunks_;
  std::vector<Waypoint> waypoints_;
  // Scratch buffers behind the views handed to JS.
  std::vector<std::int32_t> i32_, door_cells_;
  std::vector<std::uint16_t> u16_;
  std::vector<std::uint8_t> u8_, snap_mode_, snap_ground_;
  std::vector<double> f64_, in_, snap_ids_, snap_pos_, snap_vel_, door_agents_, door_ticks_;
  std::vector<std::uint32_t> snap_epoch_;
};

/// The calls over a WorldCore that are not the World's own methods (io_bindings.cpp): world
/// files, the height map, the movement step, block definitions, the state hash.
val load_anvil_columns(WorldCore& core, val data, val offsets, bool skip_empty_proto,
                       bool full_only);
val top_blocks(WorldCore& core, double x0, double z0, double x1, double z1, double y0, double y1);
val profile_body(WorldCore& core, double profile);
val step_body(WorldCore& core, val packed, double dt);
val block_def(WorldCore& core, double value);
std::string state_hash(WorldCore& core);
val list_region_chunks(val region);

}  // namespace voxnav::bindings
