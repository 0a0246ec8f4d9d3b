// voxnav bindings - WorldCore, the Embind class over one voxnav::World. It converts values only
// (JS numbers to cells and ids, typed arrays to spans); the World checks every rule and writes the
// messages. Conventions (web/lib/world.mjs relies on them and reshapes the results):
// - Methods with no result return the voxnav::Status as an int (0 = Ok); methods with a result
//   return it, or `undefined` when they fail. lastError() then gives {status, function, argument,
//   message} with the C++ names (web/lib/errors.mjs makes them the JS names).
// - Inputs cross as typed arrays (copied with one TypedArray.set); results as flat Float64Array
//   views of scratch buffers, valid until the next call, laid out as each method says. Enums
//   cross as numbers (their names: the module's names()); ids as numbers (voxnav/ids.h).
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "convert.h"
#include "voxnav/world.h"

#ifdef VOXNAV_WASM_THREADS
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav::bindings {

class WorldCore {
 public:
  WorldCore(int lockstep_delay, bool threaded) {
    WorldDef def;
    def.lockstep_delay = lockstep_delay;
#ifdef VOXNAV_WASM_THREADS
    if (threaded) def.executor = &pool();
#endif
    threaded_ = threaded && def.executor != nullptr;
    world_ = std::make_unique<World>(def);
  }
#ifdef VOXNAV_WASM_THREADS
  /// One pthread for the whole module (-sPTHREAD_POOL_SIZE=1), shared by every World; never freed.
  static native::ThreadPool& pool() {
    static auto* pool = new native::ThreadPool(1);
    return *pool;
  }
#endif

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
    return done(world_->load_minecraft_blocks(typed(blocks, b), typed(shapes, s)));
  }
  val block_value(std::string state) {
    std::uint16_t v = 0;
    return result(world_->block_value(state, &v), val(v));
  }
  double block_count() const { return static_cast<double>(world_->block_count()); }
  /// voxnav's registry JSON; `fn`: the JS function that called (defineBlocks writes the JSON).
  int load_blocks(val json, std::string fn) {
    std::vector<std::uint8_t> b;
    if (done(world_->load_blocks_json(typed(json, b))) != 0) calls_.set_function(fn);
    return last_status();
  }
  int set_block_traits(double value, std::string traits_json) {
    BlockTraitsChange c;
    std::string msg;
    if (const Status st = parse_block_traits_json(traits_json, &c.traits, &msg); st != Status::Ok)
      return calls_.fail(st, "set_block_traits", "traits", msg);
    if (!calls_.value("set_block_traits", value, c.value, world_->block_count()))
      return last_status();
    return done(world_->set_block_traits(std::span<const BlockTraitsChange>(&c, 1)));
  }

  // ---- chunks and edits ----
  /// positions: Int32Array of 3 per chunk; values: Uint16Array of kChunkValues per chunk.
  int load_chunks(val positions, val values) {
    if (!chunk_positions("load_chunks", positions)) return last_status();
    const int st = done(world_->load_chunks(chunks_, typed(values, u16_)));
    release_large_scratch();
    return st;
  }
  int load_chunk(double cx, double cy, double cz, val values) {
    CellPos c;
    if (!calls_.cell("load_chunk", "chunk", cx, cy, cz, c, "a chunk position"))
      return last_status();
    return done(world_->load_chunk(ChunkPos{c.x, c.y, c.z}, typed(values, u16_)));
  }
  int unload_chunks(val positions) {
    return chunk_positions("unload_chunks", positions) ? done(world_->unload_chunks(chunks_))
                                                       : last_status();
  }
  int unload_chunk(double cx, double cy, double cz) {
    CellPos c;
    if (!calls_.cell("unload_chunk", "chunk", cx, cy, cz, c, "a chunk position"))
      return last_status();
    return done(world_->unload_chunk(ChunkPos{c.x, c.y, c.z}));
  }
  /// World::set_blocks (also setBlock and setBox): `cells` Float64Array of 6 per edit (min, then
  /// max), `values` Float64Array of 1 per edit, `single` Uint8Array of 1 per edit (1: a cell,
  /// named "cell" in messages); `list` names the entries in messages ("" for one edit).
  int set_blocks(val cells, val values, val single, std::string list) {
    const char* fn = "set_blocks";
    if (!copy_typed(cells, f64_) || !copy_typed(values, in_) || !copy_typed(single, u8_) ||
        f64_.size() != 6 * in_.size() || u8_.size() != in_.size())
      return calls_.fail(Status::InvalidArgument, fn, list,
                         "edits must be 6 cell numbers, a value and a flag each");
    std::vector<BlockEdit> edits(in_.size());
    for (std::size_t i = 0; i < edits.size(); ++i) {
      const char* lo = u8_[i] ? "cell" : "min";
      if (!calls_.cell(fn, entry(list, i, lo), &f64_[6 * i], edits[i].min) ||
          !calls_.cell(fn, entry(list, i, u8_[i] ? "cell" : "max"), &f64_[6 * i + 3],
                       edits[i].max) ||
          !calls_.value(fn, entry(list, i, "value"), in_[i], edits[i].value))
        return last_status();
      edits[i].cell = u8_[i] != 0;
    }
    return done(world_->set_blocks(edits, list));
  }
  val get_block(double x, double y, double z) {
    CellPos c;
    std::uint16_t v = 0;
    if (!calls_.cell("get_block", "cell", x, y, z, c)) return val::undefined();
    return result(world_->get_block(c, &v), val(v));
  }

  // ---- profiles and areas ----
  val add_profile(std::string json, std::string source) {
    Profile p;
    ProfileId id;
    std::string err, warn;
    if (const Status st = parse_profile_json(json, p, &err, &warn, source); st != Status::Ok)
      return calls_.fail(st, "add_profile", "profile", err), val::undefined();
    const Status st = world_->add_profile(p, &id);
    if (st == Status::Ok) last_warning_ = warn;
    return result(st, val(id.index));
  }
  val find_profile(std::string name) {
    ProfileId id;
    return result(world_->find_profile(name, &id), val(id.index));
  }
  /// World::define_area: name, blocks (an Array of block names), cost in cells.
  val define_area(val name, val blocks, double cost) {
    const char* fn = "define_area";
    AreaId id;
    if (!name.isString())
      return calls_.fail(Status::InvalidArgument, fn, "name", "name must be a string"),
             val::undefined();
    const std::string at = "area \"" + name.as<std::string>() + "\": ";
    if (!blocks.isArray())
      return calls_.fail(Status::InvalidArgument, fn, "blocks",
                         at + "blocks must be an array of block names"),
             val::undefined();
    std::vector<std::string> names;
    for (std::size_t i = 0, count = blocks["length"].as<std::size_t>(); i < count; ++i) {
      if (!blocks[i].isString())
        return calls_.fail(Status::InvalidArgument, fn, "blocks",
                           at + "blocks[" + std::to_string(i) +
                               "] is not a block name (a non-empty string)"),
               val::undefined();
      names.push_back(blocks[i].as<std::string>());
    }
    return result(world_->define_area(name.as<std::string>(), names, cost, &id), val(id.index));
  }
  val find_area(val name) {
    AreaId id;
    if (!name.isString())
      return calls_.fail(Status::InvalidArgument, "find_area", "name", "name must be a string"),
             val::undefined();
    return result(world_->find_area(name.as<std::string>(), &id), val(id.index));
  }

  // ---- navigation queries ----
  void update() { world_->update(); }
  double nav_epoch() const { return static_cast<double>(world_->nav_epoch()); }
  /// [answer, reason, epoch].
  val reachable(double profile, double fx, double fy, double fz, double gx, double gy, double gz) {
    ProfileId p;
    CellPos a, b;
    Reach r;
    if (!profile_cell("reachable", profile, "from", fx, fy, fz, p, a) ||
        !calls_.cell("reachable", "goal", gx, gy, gz, b))
      return val::undefined();
    const Status st = world_->reachable(p, a, b, &r);
    return result(st, numbers({double(r.answer), double(r.reason), double(r.epoch)}));
  }
  val is_standable(double profile, double x, double y, double z) {
    ProfileId p;
    CellPos c;
    bool standable = false;
    if (!profile_cell("is_standable", profile, "cell", x, y, z, p, c)) return val::undefined();
    return result(world_->is_standable(p, c, &standable), val(standable));
  }
  /// Feet height in metres, or null when the cell is loaded but not standable.
  val standing_height(double profile, double x, double y, double z) {
    ProfileId p;
    CellPos c;
    double h = 0;
    if (!profile_cell("standing_height", profile, "cell", x, y, z, p, c)) return val::undefined();
    const Status st = world_->standing_height(p, c, &h);
    return st == Status::NotFound ? (calls_.ok(), val::null()) : result(st, val(h));
  }
  /// [x, y, z], or null when no standable cell is within the radius.
  val nearest_standable(double profile, double x, double y, double z, double radius) {
    const char* fn = "nearest_standable";
    ProfileId p;
    CellPos c, out;
    if (!profile_cell(fn, profile, "near", x, y, z, p, c)) return val::undefined();
    if (!int32_number(radius))
      return calls_.fail(Status::InvalidArgument, fn, "radius",
                         "radius " + number_text(radius) + " is not an integer"),
             val::undefined();
    const Status st = world_->nearest_standable(p, c, static_cast<int>(radius), &out);
    if (st == Status::NotFound) return calls_.ok(), val::null();
    return result(st, numbers({double(out.x), double(out.y), double(out.z)}));
  }

  // ---- requests ----
  /// `start`, `goal`: Float64Array [x, y, z]; the area filter as `excluded` (a bit per area) and
  /// `multipliers` (Float64Array, one per area), areas resolved by the wrapper.
  val request(double profile, val start, val goal, double range, bool toward, double excluded,
              val multipliers) {
    const char* fn = toward ? "request_toward" : "request";
    NavRequest req;
    PathHandle h;
    double id = 0;
    if (!request_args(fn, profile, start, goal, range, toward, excluded, multipliers, req))
      return val::undefined();
    if (const Status st = world_->request(req, &h); st != Status::Ok)
      return result(st, val::undefined());
    if (!id_number(h, &id)) {
      (void)world_->release(h);
      return calls_.fail(Status::Unsupported, fn, "",
                         "more than 524288 requests of one class are held; release some"),
             val::undefined();
    }
    return calls_.ok(), val(id);
  }
  /// [state, failure, partial, cost, nodes expanded, cell count, waypoint count].
  val status(double handle) {
    PathHandle h;
    PathStatus s;
    if (!calls_.id("status", "path", handle, h)) return val::undefined();
    const Status st = world_->status(h, &s);
    return result(st, status_numbers(s));
  }
  /// World::find_path_now: status()'s numbers, then waypoints() of the route (none unless ready).
  val find_path_now(double profile, val start, val goal, double range, bool toward, double excluded,
                    val multipliers) {
    const char* fn = "find_path_now";
    NavRequest req;
    PathResult r;
    if (!request_args(fn, profile, start, goal, range, toward, excluded, multipliers, req))
      return val::undefined();
    if (const Status st = world_->find_path_now(req, &r); st != Status::Ok)
      return result(st, val::undefined());
    if (r.status.state != PathState::Ready) r.waypoints.clear();
    status_numbers(r.status);
    return calls_.ok(), waypoints(r.waypoints, true);
  }
  /// waypoints(): [positions 3n, cells 3n, kinds n].
  val corridor(double handle) {
    PathHandle h;
    if (!calls_.id("corridor", "path", handle, h)) return val::undefined();
    const Status st = fetch_all(waypoints_, [&](Waypoint* o, std::size_t c, std::size_t* n) {
      return world_->corridor(h, o, c, n);
    });
    return result(st, waypoints(waypoints_));
  }
  /// [cells 3n, kinds n].
  val path_cells(double handle) {
    PathHandle h;
    std::vector<PathCell> cells;
    if (!calls_.id("path_cells", "path", handle, h)) return val::undefined();
    const Status st = fetch_all(cells, [&](PathCell* o, std::size_t c, std::size_t* n) {
      return world_->path_cells(h, o, c, n);
    });
    f64_.assign(4 * cells.size(), 0);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      put_xyz(&f64_[3 * i], cells[i].cell);
      f64_[3 * cells.size() + i] = double(cells[i].kind);
    }
    return result(st, view(f64_));
  }
  int release(double handle) {
    PathHandle h;
    return calls_.id("release", "path", handle, h) ? done(world_->release(h)) : last_status();
  }

  // ---- agents (one agent: a batch of one, `list` "") ----
  /// World::add_agents: `profiles` Float64Array n, `feet` 3n, `goals` 3n (x NaN: none). Returns
  /// the ids (n).
  val add_agents(val profiles, val feet, val goals, std::string list) {
    const char* fn = "add_agents";
    std::vector<AgentDef> defs;
    if (!batch(fn, list, profiles, feet, goals)) return val::undefined();
    for (std::size_t i = 0; i < in_.size(); ++i) {
      AgentDef& d =
          defs.emplace_back(AgentDef{{}, Vec3{f64_[3 * i], f64_[3 * i + 1], f64_[3 * i + 2]}});
      CellPos goal;
      const bool has_goal = !std::isnan(f64b_[3 * i]);
      if (!calls_.profile(fn, entry(list, i, "profile"), in_[i], d.profile) ||
          (has_goal && !calls_.cell(fn, entry(list, i, "goal"), &f64b_[3 * i], goal)))
        return val::undefined();
      if (has_goal) d.goal = goal;
    }
    std::vector<AgentId> ids(defs.size());
    const Status st = world_->add_agents(defs, ids.data(), list);
    if (st == Status::Ok && !numbered(fn, ids)) return val::undefined();
    in_.clear();
    for (const AgentId& id : ids) in_.push_back(number_of(id));
    return result(st, view(in_));
  }
  int remove_agent(double agent) {
    AgentId id;
    if (!calls_.id("remove_agent", "agent", agent, id)) return last_status();
    if (done(world_->remove_agent(id)) == 0)
      std::erase_if(
          agents_, [&](AgentId a) { return a.index == id.index && a.generation == id.generation; });
    return last_status();
  }
  /// World::set_agent_goals: `agents` Float64Array n, `goals` 3n.
  int set_agent_goals(val agents, val goals, std::string list) {
    const char* fn = "set_agent_goals";
    if (!batch(fn, list, agents, goals, val::undefined())) return last_status();
    std::vector<AgentGoal> entries(in_.size());
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (!calls_.id(fn, entry(list, i, "agent"), in_[i], entries[i].agent) ||
          !calls_.cell(fn, entry(list, i, "goal"), &f64_[3 * i], entries[i].goal))
        return last_status();
    return done(world_->set_agent_goals(entries, list));
  }
  /// World::teleport_agents: `agents` Float64Array n, `feet` 3n.
  int teleport_agents(val agents, val feet, std::string list) {
    const char* fn = "teleport_agents";
    if (!batch(fn, list, agents, feet, val::undefined())) return last_status();
    std::vector<AgentMove> moves(in_.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
      moves[i].feet = Vec3{f64_[3 * i], f64_[3 * i + 1], f64_[3 * i + 2]};
      if (!calls_.id(fn, entry(list, i, "agent"), in_[i], moves[i].agent)) return last_status();
    }
    return done(world_->teleport_agents(moves, list));
  }
  /// [mode, feet 3, velocity 3, on_ground, corridor_epoch, next_waypoint, arrivals, replans,
  /// repairs, requests, failure, waiting_at_door, door 3, door_hold_ticks, door_events,
  /// door_timeouts] (22 numbers).
  val agent_state(double agent) {
    AgentId id;
    AgentState s;
    if (!calls_.id("agent_state", "agent", agent, id)) return val::undefined();
    const Status st = world_->agent_state(id, &s);
    return result(st, numbers({double(s.mode),
                               s.feet.x,
                               s.feet.y,
                               s.feet.z,
                               s.velocity.x,
                               s.velocity.y,
                               s.velocity.z,
                               double(s.on_ground),
                               double(s.corridor_epoch),
                               double(s.next_waypoint),
                               double(s.arrivals),
                               double(s.replans),
                               double(s.repairs),
                               double(s.requests),
                               double(s.failure),
                               double(s.waiting_at_door),
                               double(s.door.x),
                               double(s.door.y),
                               double(s.door.z),
                               double(s.door_hold_ticks),
                               double(s.door_events),
                               double(s.door_timeouts)}));
  }
  val agent_reason(double agent) {
    AgentId id;
    std::string r;
    if (!calls_.id("agent_reason", "agent", agent, id)) return val::undefined();
    return result(world_->agent_reason(id, &r), val(r));
  }
  /// waypoints() of the agent's corridor, then its epoch.
  val agent_corridor(double agent) {
    AgentId id;
    AgentState s;
    if (!calls_.id("agent_corridor", "agent", agent, id)) return val::undefined();
    Status st = world_->agent_state(id, &s);
    if (st == Status::Ok)
      st = fetch_all(waypoints_, [&](Waypoint* o, std::size_t c, std::size_t* n) {
        return world_->agent_corridor(id, o, c, n);
      });
    if (st != Status::Ok) return result(st, val::undefined());
    waypoints(waypoints_);
    f64_.push_back(s.corridor_epoch);
    return calls_.ok(), view(f64_);
  }
  /// Every live agent in the order added, n of them: [ids n, positions 3n, velocities 3n,
  /// modes n, on_ground n, corridor epochs n].
  val agents_snapshot() {
    const std::size_t n = agents_.size();
    f64_.assign(10 * n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      AgentState s;
      (void)world_->agent_state(agents_[i], &s);
      f64_[i] = number_of(agents_[i]);
      put_xyz(&f64_[n + 3 * i], s.feet);
      put_xyz(&f64_[4 * n + 3 * i], s.velocity);
      f64_[7 * n + i] = double(s.mode);
      f64_[8 * n + i] = double(s.on_ground);
      f64_[9 * n + i] = double(s.corridor_epoch);
    }
    return view(f64_);
  }

  // ---- doors ----
  int set_door_open(double x, double y, double z, bool open) {
    CellPos c;
    return calls_.cell("set_door_open", "cell", x, y, z, c) ? done(world_->set_door_open(c, open))
                                                            : last_status();
  }
  /// Every pending DoorAhead event, n of them: [agents n, doors 3n, ticks n].
  val take_door_events() {
    std::vector<DoorEvent> ev(world_->pending_door_events());
    std::size_t n = 0;
    (void)world_->take_door_events(ev.data(), ev.size(), &n);
    f64_.assign(5 * n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      f64_[i] = number_of(ev[i].agent);
      put_xyz(&f64_[n + 3 * i], ev[i].door);
      f64_[4 * n + i] = static_cast<double>(ev[i].tick);
    }
    return calls_.ok(), view(f64_);
  }
  double pending_door_events() const { return static_cast<double>(world_->pending_door_events()); }
  double nav_tick() const { return static_cast<double>(world_->nav_tick()); }

  // ---- chunk streaming, the search budget, the tick ----
  void set_chunk_streaming(bool on) { world_->set_chunk_streaming(on); }
  bool chunk_streaming() const { return world_->chunk_streaming(); }
  double pending_chunk_builds() const { return double(world_->pending_chunk_builds()); }
  int set_chunk_build_radius(double chunks) {
    return done(world_->set_chunk_build_radius(int_or_refused(chunks)));
  }
  int chunk_build_radius() const { return world_->chunk_build_radius(); }
  double deferred_chunk_builds() const { return double(world_->deferred_chunk_builds()); }
  int set_searches_per_update(double searches) {
    return done(world_->set_searches_per_update(int_or_refused(searches)));
  }
  int searches_per_update() const { return world_->searches_per_update(); }
  double queued_requests() const { return static_cast<double>(world_->queued_requests()); }
  int tick(double dt) { return done(world_->tick(dt)); }
  /// [searches, nodes expanded, maintenance runs, last maintenance ms, standable cells, islands,
  /// agents, thread jobs].
  val stats() {
    const WorldStats s = world_->stats();
    double jobs = 0;
#ifdef VOXNAV_WASM_THREADS
    if (threaded_) jobs = static_cast<double>(pool().jobs_run());
#endif
    return numbers({double(s.searches), double(s.nodes_expanded), double(s.maintenance_runs),
                    s.last_maintenance_ms, double(s.standable_cells), double(s.islands),
                    double(agents_.size()), jobs});
  }
  val search_times_us() const {
    const std::span<const double> t = world_->search_times_us();
    return val(typed_memory_view(t.size(), t.data()));
  }

 private:
  int done(Status st) { return calls_.done(*world_, st); }
  val result(Status st, val v) { return calls_.result(*world_, st, std::move(v)); }
  val numbers(std::initializer_list<double> v) {
    f64_.assign(v);
    return view(f64_);
  }
  template <class P>
  static void put_xyz(double* out, const P& p) {
    out[0] = double(p.x), out[1] = double(p.y), out[2] = double(p.z);
  }
  /// The copy of a large load is not kept: the heap is shared by every World of the module.
  void release_large_scratch() {
    constexpr std::size_t kKeepValues = std::size_t{64} * kChunkValues;
    if (u16_.capacity() > kKeepValues) std::vector<std::uint16_t>().swap(u16_);
    if (chunks_.capacity() > 64) std::vector<ChunkPos>().swap(chunks_);
  }
  template <class Id>
  static double number_of(Id id) {
    double n = -1;  // not reached: add_agents and request keep only ids that have a number
    (void)id_number(id, &n);
    return n;
  }
  bool profile_cell(const char* fn, double profile, const char* name, double x, double y, double z,
                    ProfileId& p, CellPos& c) {
    return calls_.profile(fn, "profile", profile, p) && calls_.cell(fn, name, x, y, z, c);
  }
  /// Keeps agents just added when each has an id number; else removes them all (Unsupported).
  bool numbered(const char* fn, std::span<const AgentId> ids) {
    double n = 0;
    for (const AgentId& id : ids)
      if (!id_number(id, &n)) {
        for (const AgentId& a : ids) (void)world_->remove_agent(a);
        return calls_.fail(Status::Unsupported, fn, "", "more than 2097152 agents"), false;
      }
    agents_.insert(agents_.end(), ids.begin(), ids.end());
    return true;
  }
  // A JS number for a C++ int parameter: one no int holds becomes INT_MIN, which every limit
  // refuses (the World's message names it).
  static int int_or_refused(double v) { return int32_number(v) ? static_cast<int>(v) : INT32_MIN; }
  /// A batch's Float64Arrays: `one` (into in_, 1 per entry), `three` (f64_, 3 per entry) and,
  /// unless undefined, `more` (f64b_, 3 per entry).
  bool batch(const char* fn, const std::string& list, const val& one, const val& three,
             const val& more) {
    if (copy_typed(one, in_) && copy_typed(three, f64_) && f64_.size() == 3 * in_.size() &&
        (more.isUndefined() || (copy_typed(more, f64b_) && f64b_.size() == f64_.size())))
      return true;
    return calls_.fail(Status::InvalidArgument, fn, list, list + " must be Float64Arrays"), false;
  }
  bool chunk_positions(const char* fn, const val& positions) {
    if (!copy_typed(positions, i32_))
      return calls_.fail(Status::InvalidArgument, fn, "positions",
                         "positions must be an Int32Array"),
             false;
    if (i32_.size() % 3 != 0)
      return calls_.fail(Status::InvalidArgument, fn, "positions",
                         "positions has " + std::to_string(i32_.size()) +
                             " entries, not a multiple of 3 (x, y, z per chunk)"),
             false;
    chunks_.clear();
    for (std::size_t i = 0; i < i32_.size(); i += 3)
      chunks_.push_back(ChunkPos{i32_[i], i32_[i + 1], i32_[i + 2]});
    return true;
  }
  val status_numbers(const PathStatus& s) {
    return numbers({double(s.state), double(s.failure), double(s.partial), double(s.cost),
                    double(s.nodes_expanded), double(s.cell_count), double(s.waypoint_count)});
  }
  /// [positions 3n, cells 3n, kinds n] of `points`; `append`: after what f64_ holds.
  val waypoints(const std::vector<Waypoint>& points, bool append = false) {
    const std::size_t n = points.size(), at = append ? f64_.size() : 0;
    f64_.resize(at + 7 * n);
    for (std::size_t i = 0; i < n; ++i) {
      put_xyz(&f64_[at + 3 * i], points[i].position);
      put_xyz(&f64_[at + 3 * n + 3 * i], points[i].cell);
      f64_[at + 6 * n + i] = double(points[i].kind);
    }
    return view(f64_);
  }
  /// The arguments of request() and find_path_now() (false: the error is set).
  bool request_args(const char* fn, double profile, const val& start, const val& goal, double range,
                    bool toward, double excluded, const val& multipliers, NavRequest& req) {
    if (!calls_.profile(fn, "profile", profile, req.profile) || !copy_typed(start, in_) ||
        in_.size() != 3 || !calls_.cell(fn, "start", in_.data(), req.start) ||
        !copy_typed(goal, in_) || in_.size() != 3 || !calls_.cell(fn, "goal", in_.data(), req.goal))
      return false;
    if (!int32_number(range))
      return calls_.fail(Status::InvalidArgument, fn, "range",
                         "range " + number_text(range) + " is not an integer"),
             false;
    const auto bad = [&](const std::string& what) {
      return calls_.fail(Status::InvalidArgument, fn, "filter", "filter: " + what), false;
    };
    if (!integral(excluded) || excluded < 0 || excluded > UINT32_MAX)
      return bad("excluded " + number_text(excluded) + " is not a 32-bit mask");
    if (!copy_typed(multipliers, in_))
      return bad("multipliers must be a Float64Array (one entry per area)");
    if (in_.size() > kMaxAreas)
      return bad("multipliers has " + std::to_string(in_.size()) + " entries, more than " +
                 std::to_string(kMaxAreas));
    req.goal_range = static_cast<int>(range);
    req.toward = toward;
    req.filter.excluded = static_cast<std::uint32_t>(excluded);
    std::copy(in_.begin(), in_.end(), req.filter.multiplier.begin());
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
  std::vector<std::int32_t> i32_;
  std::vector<std::uint16_t> u16_;
  std::vector<std::uint8_t> u8_;
  std::vector<double> f64_, f64b_, in_;
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
