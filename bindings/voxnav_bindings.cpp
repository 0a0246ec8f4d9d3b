// voxnav bindings - Embind over the public World API (src/api). No navigation logic and no rules
// here: JS values are converted to C++ types (errors only for what does not convert: "must be a
// Uint16Array", "is not a cell (integers expected)"), the World checks them and writes the
// messages (World::last_error()), and typed arrays and ids are packed.
//
// Conventions (the JS wrapper in web/lib/world.mjs relies on them):
// - Methods with no result return the voxnav::Status as an int (0 = Ok).
// - Methods with a result return it as a JS value, or `undefined` when they fail.
// - After any failure, last_status() and last_error() describe it: {status, function, argument,
//   message}, the C++ call's names (web/lib/errors.mjs makes them the JS names).
// - Bulk data crosses as typed arrays: inputs are copied into the wasm heap with one
//   TypedArray.set; outputs are typed_memory_view's of this object's scratch buffers, valid until
//   the next call (the wrapper copies them with .slice()).
// - Cells come in as doubles and must be integers an int32 holds, so a JS number never wraps
//   silently; the World checks the cell range.
// - Agent ids and path handles are one JS number: generation * 2^21 + index (exact in a double
//   for every 32-bit generation while index < 2^21).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "voxnav/columns.h"
#include "voxnav/integrate.h"
#include "voxnav/io.h"
#include "voxnav/profile.h"
#include "voxnav/registry.h"
#include "voxnav/state_hash.h"
#include "voxnav/status.h"
#include "voxnav/version.h"
#include "voxnav/world.h"

#ifdef VOXNAV_WASM_THREADS
#include "thread_executor.h"
#endif

using emscripten::typed_memory_view;
using emscripten::val;

namespace voxnav::bindings {
namespace {

constexpr double kIndexRange = 2097152.0;  // 2^21

std::string num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A JS number that is an integer a C++ int32 holds (the C++ API checks the range it allows).
bool int32_number(double v) { return v == std::floor(v) && v >= INT32_MIN && v <= INT32_MAX; }

double encode_id(std::uint32_t index, std::uint32_t generation) {
  return static_cast<double>(generation) * kIndexRange + static_cast<double>(index);
}

// Path handles carry their movement class in the index's top bits (bits 28 and up, see World):
// in JS the class goes to bits 19-20 of the 21-bit index field, so up to 2^19 requests per class.
constexpr std::uint32_t kPathClassShift = 28, kJsClassShift = 19;
constexpr std::uint32_t kJsPathIndexMask = (1u << kJsClassShift) - 1;
bool encode_path(const PathHandle& h, double* out) {
  const std::uint32_t slot = h.index >> kPathClassShift,
                      low = h.index & ((1u << kPathClassShift) - 1);
  if (slot > 3 || low > kJsPathIndexMask) return false;
  *out = encode_id((slot << kJsClassShift) | low, h.generation);
  return true;
}
PathHandle path_of_js(std::uint32_t index, std::uint32_t generation) {
  return PathHandle{((index >> kJsClassShift) << kPathClassShift) | (index & kJsPathIndexMask),
                    generation};
}

#ifdef VOXNAV_WASM_THREADS
// One pthread for the whole module (-sPTHREAD_POOL_SIZE=1): every World shares it. Made on first
// use, never destroyed (the runtime does not exit).
ThreadExecutor* shared_executor() {
  static ThreadExecutor* exec = new ThreadExecutor();
  return exec;
}
#endif

}  // namespace

class WorldCore {
 public:
  WorldCore(int lockstep_delay, bool threaded) {
    WorldDef def;
    def.lockstep_delay = lockstep_delay < 0 ? 0 : lockstep_delay;
#ifdef VOXNAV_WASM_THREADS
    if (threaded) def.executor = shared_executor();
#else
    (void)threaded;
#endif
    threaded_ = def.executor != nullptr;
    world_ = std::make_unique<World>(def);
  }

  int last_status() const { return last_status_; }
  /// {status, function, argument, message} of the last failure: C++ names (snake_case); the JS
  /// wrapper (web/lib/errors.mjs) derives the JS names from them.
  val last_error() const {
    val o = val::object();
    o.set("status", val(last_status_));
    o.set("function", val(last_function_));
    o.set("argument", val(last_argument_));
    o.set("message", val(last_error_));
    return o;
  }
  std::string last_warning() const { return last_warning_; }
  bool threaded() const { return threaded_; }

  // ---- registry ----
  int load_minecraft_blocks(val blocks, val shapes) {
    const char* fn = "load_minecraft_blocks";
    std::vector<std::uint8_t> b, s;
    if (!copy_bytes(blocks, b) || !copy_bytes(shapes, s))
      return fail(Status::InvalidArgument, fn, "blocksJson and shapesJson must be Uint8Array");
    return done(world_->load_minecraft_blocks(b, s));
  }

  val block_value(std::string state) {
    std::uint16_t v = 0;
    if (world_->block_value(state, &v) != Status::Ok) return world_fail_val();
    ok();
    return val(v);
  }

  double block_count() const { return static_cast<double>(world_->block_count()); }

  // ---- a game's own blocks (voxnav/registry.h): conversion only, C++ writes the messages ----
  // `fn` is the JS function that called (defineBlocks reshapes its arguments into the format).
  int load_blocks(val json, std::string fn) {
    std::vector<std::uint8_t> b;
    if (!copy_bytes(json, b)) return fail(Status::InvalidArgument, fn.c_str(), "json must be bytes");
    if (world_->load_blocks_json(b) == Status::Ok) return ok();
    world_fail();
    last_function_ = fn;  // defineBlocks reshapes its arguments into the format: its own name
    return last_status_;
  }
  int set_block_traits(double value, std::string traits_json) {
    const char* fn = "set_block_traits";
    BlockTraitsChange c;
    std::string msg;
    if (const Status st = parse_block_traits_json(traits_json, &c.traits, &msg); st != Status::Ok)
      return fail(st, fn, msg);
    // A value no uint16 holds is never in a registry: kNoBlockValue is refused as OutOfRange.
    c.value = value >= 0 && value < kNoBlockValue ? static_cast<std::uint16_t>(value) : kNoBlockValue;
    return done(world_->set_block_traits(std::span<const BlockTraitsChange>(&c, 1)));
  }
  val block_def(double value) {
    BlockDef d;
    const auto v = value >= 0 && value < kNoBlockValue ? static_cast<std::uint16_t>(value) : kNoBlockValue;
    if (world_->block_def(v, &d) != Status::Ok) return world_fail_val();
    ok();
    val o = val::object(), boxes = val::array();
    o.set("name", d.name);
    for (const BlockBox& b : d.boxes) {
      val box = val::array();
      for (float f : {b.min_x, b.min_y, b.min_z, b.max_x, b.max_y, b.max_z}) box.call<void>("push", f);
      boxes.call<void>("push", box);
    }
    o.set("boxes", boxes);
    const BlockTraits& t = d.traits;
    if (t.door != BlockDoor::None) {
      val door = val::object();
      door.set("open", t.door == BlockDoor::Open);
      if (!t.door_toggle_name.empty()) door.set("toggle", t.door_toggle_name);
      if (t.door_toggle != kNoBlockValue) door.set("toggleValue", t.door_toggle);
      o.set("door", door);
    }
    if (t.climbable) o.set("climbable", true);
    if (t.hazard != BlockHazard::None) o.set("hazard", std::string(block_hazard_name(t.hazard)));
    if (t.slow) o.set("slow", true);
    if (t.fluid != BlockFluid::None) o.set("fluid", std::string(block_fluid_name(t.fluid)));
    return o;
  }
  // ---- end of a game's own blocks ----

  // ---- chunks and edits ----
  /// positions: Int32Array of 3 * n chunk coordinates; values: Uint16Array of 4096 * n values.
  /// Everything is checked before anything is loaded, so a failure leaves the world unchanged.
  int load_chunks(val positions, val values) {
    const char* fn = "load_chunks";
    if (!copy_typed(positions, chunk_pos_))
      return fail(Status::InvalidArgument, fn, "positions must be an Int32Array");
    if (!copy_typed(values, u16_))
      return fail(Status::InvalidArgument, fn, "values must be a Uint16Array");
    if (chunk_pos_.size() % 3 != 0)
      return fail(Status::InvalidArgument, fn,
                  "positions has " + std::to_string(chunk_pos_.size()) +
                      " entries, not a multiple of 3 (x, y, z per chunk)");
    return done(world_->load_chunks(chunk_positions(), u16_));
  }

  /// One chunk: values must be a Uint16Array of 4096 values (index x + 16 * (z + 16 * y)).
  int load_chunk(double cx, double cy, double cz, val values) {
    const char* fn = "load_chunk";
    ChunkPos p;
    if (!chunk_arg(fn, "chunk", cx, cy, cz, p)) return last_status_;
    if (!copy_typed(values, u16_))
      return fail(Status::InvalidArgument, fn, "values must be a Uint16Array");
    return done(world_->load_chunk(p, u16_));
  }

  /// positions: Int32Array of 3 * n (all or nothing, World::unload_chunks).
  int unload_chunks(val positions) {
    const char* fn = "unload_chunks";
    if (!copy_typed(positions, chunk_pos_))
      return fail(Status::InvalidArgument, fn, "positions must be an Int32Array");
    if (chunk_pos_.size() % 3 != 0)
      return fail(
          Status::InvalidArgument, fn,
          "positions has " + std::to_string(chunk_pos_.size()) + " entries, not a multiple of 3");
    return done(world_->unload_chunks(chunk_positions()));
  }

  int unload_chunk(double cx, double cy, double cz) {
    ChunkPos p;
    if (!chunk_arg("unload_chunk", "chunk", cx, cy, cz, p)) return last_status_;
    return done(world_->unload_chunk(p));
  }

  /// Anvil chunk columns (the uncompressed NBT of region-file chunks), decoded by the engine's
  /// decoder (the one the native loaders use) and loaded through load_chunk. `data` holds the
  /// columns back to back, `offsets` n + 1 offsets into it. Every column is decoded and checked
  /// before any is loaded. Proto-chunks (Status other than full) without any block are left out
  /// when skip_empty_proto (as natively); full_only leaves out every proto-chunk.
  val load_anvil_columns(val data, val offsets, bool skip_empty_proto, bool full_only) {
    const char* fn = "load_anvil_columns";
    std::vector<std::uint8_t> bytes;
    std::vector<std::uint32_t> offs;
    if (!copy_typed(data, bytes))
      return fail_val(Status::InvalidArgument, fn, "data must be a Uint8Array");
    if (!copy_typed(offsets, offs))
      return fail_val(Status::InvalidArgument, fn, "offsets must be a Uint32Array");
    if (offs.empty() || offs.front() != 0 || offs.back() != bytes.size())
      return fail_val(Status::InvalidArgument, fn,
                      "offsets must start at 0 and end at data.length");
    for (std::size_t i = 1; i < offs.size(); ++i)
      if (offs[i] < offs[i - 1])
        return fail_val(Status::InvalidArgument, fn, "offsets must not decrease");
    std::vector<std::span<const std::uint8_t>> columns;
    for (std::size_t i = 0; i + 1 < offs.size(); ++i)
      columns.emplace_back(bytes.data() + offs[i], offs[i + 1] - offs[i]);
    LoadOptions options;
    options.skip_empty_proto_chunks = skip_empty_proto;
    options.full_chunks_only = full_only;
    LoadReport r;
    if (const Status st = voxnav::load_anvil_columns(*world_, columns, options, &r); st != Status::Ok)
      return fail_val(st, fn, r.message);
    val o = val::object();
    o.set("columns", val(static_cast<double>(r.columns_loaded)));
    o.set("chunks", val(static_cast<double>(r.chunks_loaded)));
    o.set("uniformChunks", val(static_cast<double>(r.uniform_chunks)));
    o.set("emptyProtoChunks", val(static_cast<double>(r.empty_proto_chunks)));
    o.set("skippedProtoChunks", val(static_cast<double>(r.proto_chunks_left_out)));
    o.set("format", val(r.format));
    o.set("dataVersionMin", val(r.data_version_min));
    o.set("dataVersionMax", val(r.data_version));
    o.set("unknownBlocks", val(static_cast<double>(r.unknown_blocks)));
    o.set("unknownProperties", val(static_cast<double>(r.unknown_properties)));
    val names = val::array();
    for (const UnknownBlock& n : r.unknown_names) names.call<void>("push", val(n.name));
    o.set("unknownNames", names);
    if (r.chunks_loaded) {
      val lo = val::array(), hi = val::array();
      const CellPos mn = r.min, mx = r.max;
      for (double v : {double(mn.x), double(mn.y), double(mn.z)}) lo.call<void>("push", val(v));
      for (double v : {double(mx.x), double(mx.y), double(mx.z)}) hi.call<void>("push", val(v));
      o.set("min", lo);
      o.set("max", hi);
    } else {
      o.set("min", val::null());
      o.set("max", val::null());
    }
    ok();
    return o;
  }

  int set_block(double x, double y, double z, double value) {
    const char* fn = "set_block";
    CellPos c;
    std::uint16_t v = 0;
    if (!cell_arg(fn, "cell", x, y, z, c) || !value_arg(fn, value, v)) return last_status_;
    return done(world_->set_block(c, v));
  }

  int set_box(double x0, double y0, double z0, double x1, double y1, double z1, double value) {
    const char* fn = "set_box";
    CellPos a, b;
    std::uint16_t v = 0;
    if (!cell_arg(fn, "min", x0, y0, z0, a) || !cell_arg(fn, "max", x1, y1, z1, b) ||
        !value_arg(fn, value, v))
      return last_status_;
    return done(world_->set_box(a, b, v));
  }

  val get_block(double x, double y, double z) {
    CellPos c;
    if (!cell_arg("get_block", "cell", x, y, z, c)) return val::undefined();
    std::uint16_t v = 0;
    if (world_->get_block(c, &v) != Status::Ok) return world_fail_val();
    ok();
    return val(v);
  }

  // ---- profiles ----
  val add_profile(std::string json, std::string source) {
    const char* fn = "add_profile";
    Profile p;
    std::string err, warn;
    Status st = parse_profile_json(json, p, &err, &warn, source);
    if (st != Status::Ok) return fail_val(st, fn, err);
    ProfileId id;
    if (world_->add_profile(p, &id) != Status::Ok) return world_fail_val();
    last_warning_ = warn;
    profiles_added_ = static_cast<std::size_t>(id.index) + 1;
    ok();
    return val(id.index);
  }

  val find_profile(std::string name) {
    ProfileId id;
    if (world_->find_profile(name, &id) != Status::Ok)
      return fail_val(Status::NotFound, "find_profile", "no profile \"" + name + "\" in this world");
    ok();
    return val(id.index);
  }

  // ---- areas ----
  /// World::define_area: name (1 .. 64 bytes), blocks (a non-empty Array of block names), cost in
  /// cells (-0.6 .. 1000). Returns the area's index, or undefined (InvalidArgument / OutOfRange,
  /// the message naming the area and the bad part; nothing changes).
  val define_area(val name, val blocks, double cost) {
    const char* fn = "define_area";
    if (!name.isString()) return fail_val(Status::InvalidArgument, fn, "name must be a string");
    const std::string n = name.as<std::string>();
    if (!blocks.isArray())
      return fail_val(Status::InvalidArgument, fn,
                      "area \"" + n + "\": blocks must be an array of block names", "blocks");
    std::vector<std::string> names;
    for (std::size_t i = 0, count = blocks["length"].as<std::size_t>(); i < count; ++i) {
      const val b = blocks[i];
      if (!b.isString())
        return fail_val(Status::InvalidArgument, fn,
                        "area \"" + n + "\": blocks[" + std::to_string(i) +
                            "] is not a block name (a non-empty string)", "blocks");
      names.push_back(b.as<std::string>());
    }
    AreaId id;
    if (world_->define_area(n, names, cost, &id) != Status::Ok) return world_fail_val();
    ok();
    return val(id.index);
  }

  val find_area(val name) {
    const char* fn = "find_area";
    if (!name.isString()) return fail_val(Status::InvalidArgument, fn, "name must be a string");
    const std::string n = name.as<std::string>();
    AreaId id;
    if (world_->find_area(n, &id) != Status::Ok)
      return fail_val(Status::NotFound, fn,
                      "no area \"" + n + "\" in this world (defineArea first)");
    ok();
    return val(id.index);
  }

  // ---- navigation ----
  void update() { world_->update(); }
  double nav_epoch() const { return static_cast<double>(world_->nav_epoch()); }

  val reachable(double profile, double fx, double fy, double fz, double gx, double gy, double gz) {
    const char* fn = "reachable";
    ProfileId pid;
    CellPos a, b;
    if (!profile_arg(fn, profile, pid) || !cell_arg(fn, "from", fx, fy, fz, a) ||
        !cell_arg(fn, "goal", gx, gy, gz, b))
      return val::undefined();
    Reach r;
    if (world_->reachable(pid, a, b, &r) != Status::Ok) return world_fail_val();
    val o = val::object();
    o.set("answer", val(reach_answer_name(r.answer)));
    o.set("reason", val(reach_reason_name(r.reason)));
    o.set("epoch", val(static_cast<double>(r.epoch)));
    ok();
    return o;
  }

  val is_standable(double profile, double x, double y, double z) {
    const char* fn = "is_standable";
    ProfileId pid;
    CellPos c;
    if (!profile_arg(fn, profile, pid) || !cell_arg(fn, "cell", x, y, z, c))
      return val::undefined();
    bool standable = false;
    if (world_->is_standable(pid, c, &standable) != Status::Ok) return world_fail_val();
    ok();
    return val(standable);
  }

  /// Feet height in metres, or null when the cell is loaded but not standable.
  val standing_height(double profile, double x, double y, double z) {
    const char* fn = "standing_height";
    ProfileId pid;
    CellPos c;
    if (!profile_arg(fn, profile, pid) || !cell_arg(fn, "cell", x, y, z, c))
      return val::undefined();
    double h = 0;
    const Status st = world_->standing_height(pid, c, &h);
    if (st == Status::NotFound) {
      ok();
      return val::null();
    }
    if (st != Status::Ok) return world_fail_val();
    ok();
    return val(h);
  }

  /// Int32Array view [x, y, z], or null when no standable cell is within the radius.
  val nearest_standable(double profile, double x, double y, double z, double radius) {
    const char* fn = "nearest_standable";
    ProfileId pid;
    CellPos c;
    if (!profile_arg(fn, profile, pid) || !cell_arg(fn, "near", x, y, z, c))
      return val::undefined();
    if (!int32_number(radius))
      return fail_val(Status::InvalidArgument, fn, "radius " + num(radius) + " is not an integer");
    CellPos out;
    const Status st = world_->nearest_standable(pid, c, static_cast<int>(radius), &out);
    if (st == Status::NotFound) {
      ok();
      return val::null();
    }
    if (st != Status::Ok) return world_fail_val();
    i32_.assign({out.x, out.y, out.z});
    ok();
    return val(typed_memory_view(i32_.size(), i32_.data()));
  }

  // ---- requests ----
  /// The arguments of request() and find_path_now(), checked (false: the error is set).
  bool request_args(const char* fn, double profile, double sx, double sy, double sz, double gx,
                    double gy, double gz, double range, bool toward, const val& filter,
                    NavRequest& req) {
    if (!profile_arg(fn, profile, req.profile) || !cell_arg(fn, "start", sx, sy, sz, req.start) ||
        !cell_arg(fn, "goal", gx, gy, gz, req.goal))
      return false;
    if (!int32_number(range)) {
      fail(Status::InvalidArgument, fn, "range " + num(range) + " is not an integer");
      return false;
    }
    req.goal_range = static_cast<int>(range);
    req.toward = toward;
    return filter_arg(fn, filter, req.filter);
  }

  /// A request's area filter, its areas already resolved to indices by the JS wrapper (which
  /// takes them by name): undefined or null (every area as defined), or { excluded, multipliers }:
  /// `excluded` an integer whose bit i excludes area i, `multipliers` a Float64Array whose entry i
  /// multiplies area i's cost (0 .. 1000; at most one entry per defined area, missing ones 1).
  /// Only bits and entries of defined areas are accepted.
  bool filter_arg(const char* fn, const val& f, AreaFilter& out) {
    out = AreaFilter{};
    if (f.isUndefined() || f.isNull()) return true;
    const auto bad = [&](const std::string& msg) {
      fail(Status::InvalidArgument, fn, "filter: " + msg);
      return false;
    };
    if (f.typeOf().as<std::string>() != "object" || f.isArray())
      return bad("must be an object { excluded, multipliers }");
    const val keys = val::global("Object").call<val>("keys", f);
    for (std::size_t i = 0, nk = keys["length"].as<std::size_t>(); i < nk; ++i) {
      const std::string k = keys[i].as<std::string>();
      if (k != "excluded" && k != "multipliers")
        return bad(k + " is not a filter field (excluded, multipliers)");
    }
    const val ex = f["excluded"];
    if (!ex.isUndefined()) {
      if (!ex.isNumber()) return bad("excluded must be a number (a bit per area)");
      const double e = ex.as<double>();
      if (!integral(e) || e < 0 || e > 4294967295.0)
        return bad("excluded " + num(e) + " is not a 32-bit mask");
      out.excluded = static_cast<std::uint32_t>(e);
    }
    const val mul = f["multipliers"];
    if (!mul.isUndefined()) {
      if (!copy_typed(mul, filter_mul_))
        return bad("multipliers must be a Float64Array (one entry per area)");
      if (filter_mul_.size() > kMaxAreas)
        return bad("multipliers has " + std::to_string(filter_mul_.size()) + " entries, more than " +
                   std::to_string(kMaxAreas));
      std::copy(filter_mul_.begin(), filter_mul_.end(), out.multiplier.begin());
    }
    return true;
  }

  val request(double profile, double sx, double sy, double sz, double gx, double gy, double gz,
              double range, bool toward, val filter) {
    const char* fn = toward ? "request_toward" : "request";
    NavRequest req;
    if (!request_args(fn, profile, sx, sy, sz, gx, gy, gz, range, toward, filter, req))
      return val::undefined();
    PathHandle h;
    if (world_->request(req, &h) != Status::Ok) return world_fail_val();
    double id = 0;
    if (!encode_path(h, &id)) {
      (void)world_->release(h);
      return fail_val(Status::Unsupported, fn,
                      "more than 524288 requests of one class are held; release some");
    }
    ok();
    return val(id);
  }

  val status(double handle) {
    const char* fn = "status";
    PathHandle h;
    if (!handle_arg(fn, handle, h)) return val::undefined();
    PathStatus s;
    if (world_->status(h, &s) != Status::Ok)
      return fail_val(Status::StaleHandle, fn, stale_handle_text(handle));
    val o = val::object();
    set_status(o, s);
    ok();
    return o;
  }

  /// World::find_path_now: the search runs now on this thread, no handle, the tick does not
  /// advance. The status fields of status(), plus, when ready, the corridor views of corridor()
  /// ({positions, kinds, cells}; null otherwise).
  val find_path_now(double profile, double sx, double sy, double sz, double gx, double gy,
                    double gz, double range, bool toward, val filter) {
    const char* fn = "find_path_now";
    NavRequest req;
    if (!request_args(fn, profile, sx, sy, sz, gx, gy, gz, range, toward, filter, req))
      return val::undefined();
    PathResult r;
    if (world_->find_path_now(req, &r) != Status::Ok) return world_fail_val();
    val o = val::object();
    set_status(o, r.status);
    if (r.status.state == PathState::Ready) {
      waypoints_ = std::move(r.waypoints);
      o.set("corridor", waypoint_views(waypoints_.size()));
    } else {
      o.set("corridor", val::null());
    }
    ok();
    return o;
  }

  /// {positions: Float64Array 3n, kinds: Uint8Array n, cells: Int32Array 3n} views.
  val corridor(double handle) {
    const char* fn = "corridor";
    PathHandle h;
    if (!handle_arg(fn, handle, h)) return val::undefined();
    std::size_t count = 0;
    Status st = world_->corridor(h, nullptr, 0, &count);
    if (st == Status::Ok) {
      waypoints_.resize(count);
      st = world_->corridor(h, waypoints_.data(), waypoints_.size(), &count);
    }
    if (st == Status::StaleHandle) return fail_val(st, fn, stale_handle_text(handle));
    if (st == Status::Busy)
      return fail_val(st, fn, "path " + num(handle) + " is not ready (status is not 'ready')");
    if (st != Status::Ok) return fail_val(st, fn, "cannot read path " + num(handle));
    ok();
    return waypoint_views(count);
  }

  /// {cells: Int32Array 3n, kinds: Uint8Array n} views.
  val path_cells(double handle) {
    const char* fn = "path_cells";
    PathHandle h;
    if (!handle_arg(fn, handle, h)) return val::undefined();
    std::size_t count = 0;
    Status st = world_->path_cells(h, nullptr, 0, &count);
    std::vector<PathCell> cells;
    if (st == Status::Ok) {
      cells.resize(count);
      st = world_->path_cells(h, cells.data(), cells.size(), &count);
    }
    if (st == Status::StaleHandle) return fail_val(st, fn, stale_handle_text(handle));
    if (st == Status::Busy)
      return fail_val(st, fn, "path " + num(handle) + " is not ready (status is not 'ready')");
    if (st != Status::Ok) return fail_val(st, fn, "cannot read path " + num(handle));
    i32_.resize(3 * count);
    u8_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      i32_[3 * i] = cells[i].cell.x;
      i32_[3 * i + 1] = cells[i].cell.y;
      i32_[3 * i + 2] = cells[i].cell.z;
      u8_[i] = static_cast<std::uint8_t>(cells[i].kind);
    }
    val o = val::object();
    o.set("cells", val(typed_memory_view(i32_.size(), i32_.data())));
    o.set("kinds", val(typed_memory_view(u8_.size(), u8_.data())));
    ok();
    return o;
  }

  int release(double handle) {
    const char* fn = "release";
    PathHandle h;
    if (!handle_arg(fn, handle, h)) return last_status_;
    if (world_->release(h) != Status::Ok)
      return fail(Status::StaleHandle, fn, stale_handle_text(handle));
    return ok();
  }

  // ---- agents ----
  val add_agent(double profile, double x, double y, double z) {
    const char* fn = "add_agent";
    AgentDef def;
    if (!profile_arg(fn, profile, def.profile)) return val::undefined();
    def.feet = Vec3{x, y, z};
    AgentId id;
    if (world_->add_agent(def, &id) != Status::Ok) return world_fail_val();
    if (id.index >= kIndexRange) {
      (void)world_->remove_agent(id);
      return fail_val(Status::Unsupported, fn, "more than 2097152 agents");
    }
    agents_.push_back(id);
    ok();
    return val(encode_id(id.index, id.generation));
  }

  int remove_agent(double agent) {
    const char* fn = "remove_agent";
    AgentId id;
    if (!agent_arg(fn, agent, id)) return last_status_;
    if (world_->remove_agent(id) != Status::Ok)
      return fail(Status::StaleHandle, fn, stale_agent_text(agent));
    for (std::size_t i = 0; i < agents_.size(); ++i)
      if (agents_[i].index == id.index && agents_[i].generation == id.generation) {
        agents_.erase(agents_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    return ok();
  }

  int set_agent_goal(double agent, double x, double y, double z) {
    const char* fn = "set_agent_goal";
    AgentId id;
    CellPos c;
    if (!agent_arg(fn, agent, id) || !cell_arg(fn, "goal", x, y, z, c)) return last_status_;
    const Status st = world_->set_agent_goal(id, c);
    if (st == Status::StaleHandle) return fail(st, fn, stale_agent_text(agent));
    return done(st);
  }

  val agent_state(double agent) {
    const char* fn = "agent_state";
    AgentId id;
    if (!agent_arg(fn, agent, id)) return val::undefined();
    AgentState s;
    if (world_->agent_state(id, &s) != Status::Ok)
      return fail_val(Status::StaleHandle, fn, stale_agent_text(agent));
    val o = val::object();
    o.set("mode", val(agent_mode_name(s.mode)));
    f64_.assign({s.feet.x, s.feet.y, s.feet.z, s.velocity.x, s.velocity.y, s.velocity.z});
    o.set("vectors", val(typed_memory_view(f64_.size(), f64_.data())));  // feet, velocity
    o.set("onGround", val(s.on_ground));
    o.set("corridorEpoch", val(s.corridor_epoch));
    o.set("nextWaypoint", val(s.next_waypoint));
    o.set("arrivals", val(s.arrivals));
    o.set("replans", val(s.replans));
    o.set("repairs", val(s.repairs));
    o.set("requests", val(s.requests));
    o.set("failure", val(path_failure_name(s.failure)));
    // doors
    o.set("waitingAtDoor", val(s.waiting_at_door));
    val door = val::array();
    door.set(0, val(s.door.x));
    door.set(1, val(s.door.y));
    door.set(2, val(s.door.z));
    o.set("door", door);
    o.set("doorHoldTicks", val(s.door_hold_ticks));
    o.set("doorEvents", val(s.door_events));
    o.set("doorTimeouts", val(s.door_timeouts));
    ok();
    return o;
  }

  val agent_reason(double agent) {
    const char* fn = "agent_reason";
    AgentId id;
    if (!agent_arg(fn, agent, id)) return val::undefined();
    std::string r;
    if (world_->agent_reason(id, &r) != Status::Ok)
      return fail_val(Status::StaleHandle, fn, stale_agent_text(agent));
    ok();
    return val(r);
  }

  /// Corridor views (see corridor()) plus `epoch`.
  val agent_corridor(double agent) {
    const char* fn = "agent_corridor";
    AgentId id;
    if (!agent_arg(fn, agent, id)) return val::undefined();
    AgentState s;
    std::size_t count = 0;
    if (world_->agent_state(id, &s) != Status::Ok ||
        world_->agent_corridor(id, nullptr, 0, &count) != Status::Ok)
      return fail_val(Status::StaleHandle, fn, stale_agent_text(agent));
    waypoints_.resize(count);
    (void)world_->agent_corridor(id, waypoints_.data(), waypoints_.size(), &count);
    val o = waypoint_views(count);
    o.set("epoch", val(s.corridor_epoch));
    ok();
    return o;
  }

  int teleport_agent(double agent, double x, double y, double z) {
    const char* fn = "teleport_agent";
    AgentId id;
    if (!agent_arg(fn, agent, id)) return last_status_;
    const Status st = world_->teleport_agent(id, Vec3{x, y, z});
    if (st == Status::StaleHandle) return fail(st, fn, stale_agent_text(agent));
    return done(st);
  }

  /// Every live agent, in the order they were added: {count, ids Float64Array n, positions
  /// Float64Array 3n (feet), velocities Float64Array 3n, modes Uint8Array n, onGround Uint8Array n,
  /// corridorEpochs Uint32Array n} views.
  val agents_snapshot() {
    const std::size_t n = agents_.size();
    snap_ids_.resize(n);
    snap_pos_.resize(3 * n);
    snap_vel_.resize(3 * n);
    snap_mode_.resize(n);
    snap_ground_.resize(n);
    snap_epoch_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      AgentState s;
      (void)world_->agent_state(agents_[i], &s);
      snap_ids_[i] = encode_id(agents_[i].index, agents_[i].generation);
      snap_pos_[3 * i] = s.feet.x;
      snap_pos_[3 * i + 1] = s.feet.y;
      snap_pos_[3 * i + 2] = s.feet.z;
      snap_vel_[3 * i] = s.velocity.x;
      snap_vel_[3 * i + 1] = s.velocity.y;
      snap_vel_[3 * i + 2] = s.velocity.z;
      snap_mode_[i] = static_cast<std::uint8_t>(s.mode);
      snap_ground_[i] = s.on_ground ? 1 : 0;
      snap_epoch_[i] = s.corridor_epoch;
    }
    val o = val::object();
    o.set("count", val(static_cast<double>(n)));
    o.set("ids", val(typed_memory_view(n, snap_ids_.data())));
    o.set("positions", val(typed_memory_view(3 * n, snap_pos_.data())));
    o.set("velocities", val(typed_memory_view(3 * n, snap_vel_.data())));
    o.set("modes", val(typed_memory_view(n, snap_mode_.data())));
    o.set("onGround", val(typed_memory_view(n, snap_ground_.data())));
    o.set("corridorEpochs", val(typed_memory_view(n, snap_epoch_.data())));
    return o;
  }

  // ---- doors ----
  /// World::set_door_open: the door at the cell (both halves) opens or closes.
  int set_door_open(double x, double y, double z, bool open) {
    const char* fn = "set_door_open";
    CellPos c;
    if (!cell_arg(fn, "cell", x, y, z, c)) return last_status_;
    return done(world_->set_door_open(c, open));
  }

  /// World::take_door_events, every pending event: {count, agents Float64Array n (agent ids),
  /// doors Int32Array 3n (door cells), ticks Float64Array n} views.
  val take_door_events() {
    std::vector<DoorEvent> ev(world_->pending_door_events());
    std::size_t n = 0;
    (void)world_->take_door_events(ev.data(), ev.size(), &n);
    door_agents_.resize(n);
    door_cells_.resize(3 * n);
    door_ticks_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      door_agents_[i] = encode_id(ev[i].agent.index, ev[i].agent.generation);
      door_cells_[3 * i] = ev[i].door.x;
      door_cells_[3 * i + 1] = ev[i].door.y;
      door_cells_[3 * i + 2] = ev[i].door.z;
      door_ticks_[i] = static_cast<double>(ev[i].tick);
    }
    val o = val::object();
    o.set("count", val(static_cast<double>(n)));
    o.set("agents", val(typed_memory_view(n, door_agents_.data())));
    o.set("doors", val(typed_memory_view(3 * n, door_cells_.data())));
    o.set("ticks", val(typed_memory_view(n, door_ticks_.data())));
    ok();
    return o;
  }

  double pending_door_events() const { return static_cast<double>(world_->pending_door_events()); }
  double nav_tick() const { return static_cast<double>(world_->nav_tick()); }

  // ---- chunk streaming and the search budget ----
  /// World::set_chunk_streaming (off by default).
  void set_chunk_streaming(bool on) { world_->set_chunk_streaming(on); }
  /// Whether chunk streaming is on.
  bool chunk_streaming() const { return world_->chunk_streaming(); }
  double pending_chunk_builds() const {
    return static_cast<double>(world_->pending_chunk_builds());
  }
  /// World::set_chunk_build_radius: chunks, an integer in 0 .. kMaxChunkBuildRadius.
  int set_chunk_build_radius(double chunks) {
    if (!int32_number(chunks))
      return fail(Status::InvalidArgument, "set_chunk_build_radius",
                  "chunks " + num(chunks) + " is not an integer number of chunks in 0 .. " +
                      std::to_string(World::kMaxChunkBuildRadius));
    return done(world_->set_chunk_build_radius(static_cast<int>(chunks)));
  }
  int chunk_build_radius() const { return world_->chunk_build_radius(); }
  double deferred_chunk_builds() const {
    return static_cast<double>(world_->deferred_chunk_builds());
  }
  /// World::set_searches_per_update: searches, an integer in 0 .. kMaxSearchesPerUpdate.
  int set_searches_per_update(double searches) {
    if (!int32_number(searches))
      return fail(Status::InvalidArgument, "set_searches_per_update",
                  "searches " + num(searches) + " is not an integer number of searches in 0 .. " +
                      std::to_string(World::kMaxSearchesPerUpdate));
    return done(world_->set_searches_per_update(static_cast<int>(searches)));
  }
  int searches_per_update() const { return world_->searches_per_update(); }
  double queued_requests() const { return static_cast<double>(world_->queued_requests()); }

  int tick(double dt) { return done(world_->tick(dt)); }

  val stats() const {
    const WorldStats s = world_->stats();
    val o = val::object();
    o.set("searches", val(static_cast<double>(s.searches)));
    o.set("nodesExpanded", val(static_cast<double>(s.nodes_expanded)));
    o.set("maintenanceRuns", val(static_cast<double>(s.maintenance_runs)));
    o.set("lastMaintenanceMs", val(s.last_maintenance_ms));
    o.set("standableCells", val(static_cast<double>(s.standable_cells)));
    o.set("islands", val(static_cast<double>(s.islands)));
    o.set("agents", val(static_cast<double>(agents_.size())));
#ifdef VOXNAV_WASM_THREADS
    o.set("threadJobs", val(threaded_ ? static_cast<double>(shared_executor()->jobs_run()) : 0.0));
#else
    o.set("threadJobs", val(0.0));
#endif
    return o;
  }

  val search_times_us() const {
    const std::span<const double> t = world_->search_times_us();
    return val(typed_memory_view(t.size(), t.data()));
  }

  /// state_hash (voxnav/state_hash.h) of every live agent in the order they were added, as 16
  /// lowercase hex digits.
  std::string state_hash() {
    std::uint64_t h = 0;
    if (voxnav::state_hash(*world_, agents_, &h) != Status::Ok) {
      fail(Status::StaleHandle, "state_hash", "an agent of this world is no longer live");
      return std::string();
    }
    ok();
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }

  /// The highest block that is not air in each column of the inclusive box x0..x1, z0..z1,
  /// looking at y0..y1 only: {heights: Int32Array, values: Uint16Array} views, one entry per
  /// column at (x - x0) + width * (z - z0); columns without any such block (or not loaded) have
  /// height -2147483648 and value 0. Limits (so one call stays well under a second, loaded or
  /// not: about 0.5 s for 2^26 cells of chunks that are all air but one block): at most
  /// kMaxColumnTopsColumns columns, kMaxColumnTopsHeight cells of y, kMaxColumnTopsCells cells in
  /// all (voxnav/columns.h, whose column_tops does the work). Chunks are
  /// looked up once per chunk, not per column.
  val top_blocks(double x0, double z0, double x1, double z1, double y0, double y1) {
    const char* fn = "top_blocks";
    CellPos a, b;
    if (!cell_arg(fn, "min", x0, y0, z0, a) || !cell_arg(fn, "max", x1, y1, z1, b))
      return val::undefined();
    const double columns = (double(b.x) - a.x + 1) * (double(b.z) - a.z + 1);
    const std::size_t w = a.x <= b.x ? static_cast<std::size_t>(b.x - a.x + 1) : 0;
    const std::size_t n =
        a.x <= b.x && a.z <= b.z && columns <= double(kMaxColumnTopsColumns) ? std::size_t(columns) : 0;
    top_h_.resize(n);
    top_v_.resize(n);
    std::string err;
    const Status st = column_tops(*world_, a, b, top_h_.data(), top_v_.data(), n, &err);
    if (st != Status::Ok) return fail_val(st, fn, err);
    val o = val::object();
    o.set("width", val(static_cast<double>(w)));
    o.set("heights", val(typed_memory_view(top_h_.size(), top_h_.data())));
    o.set("values", val(typed_memory_view(top_v_.size(), top_v_.data())));
    ok();
    return o;
  }

  /// The body params of a profile: Float64Array view [width, height, step_height, gravity,
  /// jump_velocity, terminal_speed, climb_speed].
  val profile_body(double profile) {
    const char* fn = "profile_body";
    ProfileId pid;
    if (!profile_arg(fn, profile, pid)) return val::undefined();
    BodyParams p;
    if (voxnav::profile_body(*world_, pid, &p) != Status::Ok)
      return fail_val(Status::InvalidArgument, fn, "profile " + num(profile) + " has no body");
    f64_.assign({p.width, p.height, p.step_height, p.gravity, p.jump_velocity, p.terminal_speed,
                 p.climb_speed});
    ok();
    return val(typed_memory_view(f64_.size(), f64_.data()));
  }

  /// One movement step (voxnav/integrate.h). `packed` is a Float64Array of 26 numbers:
  ///   state  [0..2] feet, [3..5] velocity, [6..8] carry, [9] on_ground (0/1), [10] mode (0..3)
  ///   input  [11] move_x, [12] move_z, [13] jump (0/1), [14] climb (0..3), [15] vertical,
  ///          [16..18] knock
  ///   params [19] width, [20] height, [21] step_height, [22] gravity, [23] jump_velocity,
  ///          [24] terminal_speed, [25] climb_speed
  /// Returns a Float64Array view of 25: the new state (11, as above), then the report:
  /// displacement x, y, z, hit_wall_x, hit_wall_z, wall_speed, hit_ceiling, landed,
  /// landing_speed, stepped_up, step_rise, climbing, in_fluid.
  val step_body(val packed, double dt) {
    const char* fn = "step_body";
    std::vector<double>& in = step_in_;
    if (!packed.instanceof (val::global("Float64Array")))
      return fail_val(Status::InvalidArgument, fn, "packed must be a Float64Array");
    const std::size_t n = packed["length"].as<std::size_t>();
    if (n != 26)
      return fail_val(Status::InvalidArgument, fn,
                      "packed has " + std::to_string(n) + " entries, expected 26");
    in.resize(n);
    val(typed_memory_view(n, in.data())).call<void>("set", packed);
    const auto small_enum = [](double v) { return integral(v) && v >= 0 && v <= 3; };
    if (!small_enum(in[10]))
      return fail_val(Status::InvalidArgument, fn,
                      "state.mode " + num(in[10]) + " is not a body mode (0 .. 3)");
    if (!small_enum(in[14]))
      return fail_val(Status::InvalidArgument, fn,
                      "input.climb " + num(in[14]) + " is not a climb intent (0 .. 3)");
    BodyState s;
    s.feet = Vec3{in[0], in[1], in[2]};
    s.velocity = Vec3{in[3], in[4], in[5]};
    s.carry = Vec3{in[6], in[7], in[8]};
    s.on_ground = in[9] != 0;
    s.mode = static_cast<BodyMode>(static_cast<int>(in[10]));
    BodyInput input;
    input.move_x = in[11];
    input.move_z = in[12];
    input.jump = in[13] != 0;
    input.climb = static_cast<ClimbIntent>(static_cast<int>(in[14]));
    input.vertical = in[15];
    input.knock = Vec3{in[16], in[17], in[18]};
    BodyParams p;
    p.width = in[19];
    p.height = in[20];
    p.step_height = in[21];
    p.gravity = in[22];
    p.jump_velocity = in[23];
    p.terminal_speed = in[24];
    p.climb_speed = in[25];
    StepReport r;
    std::string err;
    const Status st = voxnav::step_body(*world_, s, input, p, dt, &r, &err);
    if (st != Status::Ok) return fail_val(st, fn, js_field_names(err));
    f64_.assign({s.feet.x,
                 s.feet.y,
                 s.feet.z,
                 s.velocity.x,
                 s.velocity.y,
                 s.velocity.z,
                 s.carry.x,
                 s.carry.y,
                 s.carry.z,
                 s.on_ground ? 1.0 : 0.0,
                 static_cast<double>(s.mode),
                 r.displacement.x,
                 r.displacement.y,
                 r.displacement.z,
                 r.hit_wall_x ? 1.0 : 0.0,
                 r.hit_wall_z ? 1.0 : 0.0,
                 r.wall_speed,
                 r.hit_ceiling ? 1.0 : 0.0,
                 r.landed ? 1.0 : 0.0,
                 r.landing_speed,
                 r.stepped_up ? 1.0 : 0.0,
                 r.step_rise,
                 r.climbing ? 1.0 : 0.0,
                 r.in_fluid ? 1.0 : 0.0});
    ok();
    return val(typed_memory_view(f64_.size(), f64_.data()));
  }

 private:
  int ok() {
    last_status_ = 0;
    last_function_.clear();
    last_argument_.clear();
    last_error_.clear();
    return 0;
  }
  /// A conversion error of this file (`fn`: the JS function; the argument: the word the message
  /// starts with when it names one).
  int fail(Status st, const char* fn, const std::string& msg, const char* argument = nullptr) {
    last_status_ = static_cast<int>(st);
    last_function_ = fn;
    last_argument_ = argument ? argument : msg.substr(0, msg.find_first_of(" :["));
    last_error_ = msg;
    return last_status_;
  }
  /// The error the World wrote for its last failed call.
  int world_fail() {
    const CallError& e = world_->last_error();
    last_status_ = static_cast<int>(e.status);
    last_function_ = e.function;
    last_argument_ = e.argument;
    last_error_ = e.message;
    return last_status_;
  }
  val world_fail_val() {
    world_fail();
    return val::undefined();
  }
  int done(Status st) { return st == Status::Ok ? ok() : world_fail(); }
  std::span<const ChunkPos> chunk_positions() const {
    static_assert(sizeof(ChunkPos) == 3 * sizeof(std::int32_t));
    return {reinterpret_cast<const ChunkPos*>(chunk_pos_.data()), chunk_pos_.size() / 3};
  }
  val fail_val(Status st, const char* fn, const std::string& msg, const char* argument = nullptr) {
    fail(st, fn, msg, argument);
    return val::undefined();
  }

  static void set_status(val& o, const PathStatus& s) {
    o.set("state", val(path_state_name(s.state)));
    o.set("failure", val(path_failure_name(s.failure)));
    o.set("partial", val(s.partial));
    o.set("cost", val(s.cost));
    o.set("nodesExpanded", val(s.nodes_expanded));
    o.set("cellCount", val(s.cell_count));
    o.set("waypointCount", val(s.waypoint_count));
  }

  static std::string vec_text(double x, double y, double z) {
    return "(" + num(x) + ", " + num(y) + ", " + num(z) + ")";
  }
  static std::string stale_handle_text(double h) {
    return "path " + num(h) + " is not a live request (released, or never made by this world)";
  }
  static std::string stale_agent_text(double a) {
    return "agent " + num(a) + " is not a live agent (removed, or never added to this world)";
  }

  static bool integral(double v) { return std::isfinite(v) && v == std::floor(v); }

  /// The C++ field names of step_body's messages, as the JS wrapper spells them.
  static std::string js_field_names(std::string msg) {
    static const char* const names[][2] = {
        {"params.step_height", "params.stepHeight"},
        {"params.jump_velocity", "params.jumpVelocity"},
        {"params.terminal_speed", "params.terminalSpeed"},
        {"params.climb_speed", "params.climbSpeed"},
    };
    for (const auto& nm : names) {
      const std::size_t at = msg.find(nm[0]);
      if (at != std::string::npos) msg.replace(at, std::string(nm[0]).size(), nm[1]);
    }
    return msg;
  }

  /// Three JS numbers -> a cell / chunk position: integers a C++ int32 holds (the World checks the
  /// range it allows).
  bool cell_arg(const char* fn, const char* name, double x, double y, double z, CellPos& out,
                const char* what = "a cell") {
    if (!integral(x) || !integral(y) || !integral(z)) {
      fail(Status::InvalidArgument, fn,
           std::string(name) + " " + vec_text(x, y, z) + " is not " + what + " (integers expected)");
      return false;
    }
    if (!int32_number(x) || !int32_number(y) || !int32_number(z)) {
      fail(Status::OutOfRange, fn, std::string(name) + " " + vec_text(x, y, z) + " is out of range");
      return false;
    }
    out = CellPos{static_cast<std::int32_t>(x), static_cast<std::int32_t>(y),
                  static_cast<std::int32_t>(z)};
    return true;
  }

  bool chunk_arg(const char* fn, const char* name, double x, double y, double z, ChunkPos& out) {
    CellPos c;
    if (!cell_arg(fn, name, x, y, z, c, "a chunk position")) return false;
    out = ChunkPos{c.x, c.y, c.z};
    return true;
  }

  bool value_arg(const char* fn, double value, std::uint16_t& out) {
    const double n = static_cast<double>(world_->block_count());
    if (!integral(value)) {
      fail(Status::InvalidArgument, fn, "value " + num(value) + " is not an integer block value");
      return false;
    }
    if (value < 0 || value >= 65536) {  // no uint16: never a registry value
      fail(Status::OutOfRange, fn,
           "value " + num(value) + " is not in the block registry (values 0 .. " + num(n - 1) + ")");
      return false;
    }
    out = static_cast<std::uint16_t>(value);
    return true;
  }

  bool profile_arg(const char* fn, double profile, ProfileId& out) {
    // Profiles get dense indices in the order they are added (World::add_profile).
    if (!integral(profile) || profile < 0 || profile >= static_cast<double>(profile_count())) {
      fail(Status::InvalidArgument, fn,
           "profile " + num(profile) + " is not a profile of this world (" +
               std::to_string(profile_count()) + " added)");
      return false;
    }
    out.index = static_cast<std::uint32_t>(profile);
    return true;
  }

  std::size_t profile_count() const { return profiles_added_; }

  static bool decode_id(double id, std::uint32_t& index, std::uint32_t& generation) {
    if (!integral(id) || id < 0 || id >= 9007199254740992.0) return false;
    const double g = std::floor(id / kIndexRange);
    if (g > 4294967295.0) return false;
    index = static_cast<std::uint32_t>(id - g * kIndexRange);
    generation = static_cast<std::uint32_t>(g);
    return true;
  }

  bool handle_arg(const char* fn, double handle, PathHandle& out) {
    std::uint32_t index = 0, generation = 0;
    if (!decode_id(handle, index, generation)) {
      fail(Status::InvalidArgument, fn, "path " + num(handle) + " is not a path handle");
      return false;
    }
    out = path_of_js(index, generation);
    return true;
  }

  bool agent_arg(const char* fn, double agent, AgentId& out) {
    if (!decode_id(agent, out.index, out.generation)) {
      fail(Status::InvalidArgument, fn, "agent " + num(agent) + " is not an agent id");
      return false;
    }
    return true;
  }

  val waypoint_views(std::size_t count) {
    f64_.resize(3 * count);
    i32_.resize(3 * count);
    u8_.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
      const Waypoint& w = waypoints_[i];
      f64_[3 * i] = w.position.x;
      f64_[3 * i + 1] = w.position.y;
      f64_[3 * i + 2] = w.position.z;
      i32_[3 * i] = w.cell.x;
      i32_[3 * i + 1] = w.cell.y;
      i32_[3 * i + 2] = w.cell.z;
      u8_[i] = static_cast<std::uint8_t>(w.kind);
    }
    val o = val::object();
    o.set("positions", val(typed_memory_view(f64_.size(), f64_.data())));
    o.set("kinds", val(typed_memory_view(u8_.size(), u8_.data())));
    o.set("cells", val(typed_memory_view(i32_.size(), i32_.data())));
    return o;
  }

  template <class T>
  static constexpr const char* typed_name() {
    if constexpr (std::is_same_v<T, double>) return "Float64Array";
    if constexpr (std::is_same_v<T, std::uint8_t>) return "Uint8Array";
    if constexpr (std::is_same_v<T, std::uint16_t>) return "Uint16Array";
    if constexpr (std::is_same_v<T, std::uint32_t>) return "Uint32Array";
    if constexpr (std::is_same_v<T, std::int32_t>) return "Int32Array";
  }
  template <class T>
  static bool copy_typed(const val& arr, std::vector<T>& out) {
    if (!arr.instanceof (val::global(typed_name<T>()))) return false;
    const std::size_t n = arr["length"].as<std::size_t>();
    out.resize(n);
    if (n) val(typed_memory_view(n, out.data())).call<void>("set", arr);
    return true;
  }
  static bool copy_bytes(const val& arr, std::vector<std::uint8_t>& out) {
    return copy_typed(arr, out);
  }

 private:
  std::unique_ptr<World> world_;
  bool threaded_ = false;
  int last_status_ = 0;
  std::string last_function_, last_argument_, last_error_, last_warning_;
  std::size_t profiles_added_ = 0;
  std::vector<double> filter_mul_;
  std::vector<AgentId> agents_;
  std::vector<std::int32_t> chunk_pos_, i32_;
  std::vector<std::uint16_t> u16_;
  std::vector<std::uint8_t> u8_;
  std::vector<double> f64_;
  std::vector<Waypoint> waypoints_;
  std::vector<double> snap_ids_, snap_pos_, snap_vel_;
  std::vector<std::uint8_t> snap_mode_, snap_ground_;
  std::vector<std::uint32_t> snap_epoch_;
  std::vector<std::int32_t> top_h_;
  std::vector<std::uint16_t> top_v_;
  std::vector<double> step_in_;
  std::vector<double> door_agents_, door_ticks_;
  std::vector<std::int32_t> door_cells_;
};

/// The C++ library's version (voxnav/version.h); tests/web checks the npm package carries it too.
std::string version_string_of() { return std::string(voxnav::version_string()); }

std::string status_name_of(int s) {
  if (s < 0 || s > static_cast<int>(Status::Busy)) return "Unknown";
  return status_name(static_cast<Status>(s));
}

std::string edge_kind_name_of(int k) {
  if (k < 0 || k > static_cast<int>(EdgeKind::Fly)) return "unknown";
  return edge_kind_name(static_cast<EdgeKind>(k));
}

std::string agent_mode_name_of(int m) {
  if (m < 0 || m > static_cast<int>(AgentMode::Blocked)) return "unknown";
  return agent_mode_name(static_cast<AgentMode>(m));
}

/// The limits of the C++ API (named once in its headers), for JS: web/index.mjs's LIMITS.
val limits() {
  val o = val::object();
  const auto set = [&](const char* name, double v) { o.set(name, val(v)); };
  set("maxCellXZ", kMaxCellXZ);
  set("maxCellY", kMaxCellY);
  set("chunkEdge", kChunkEdge);
  set("chunkValues", kChunkValues);
  set("maxChunkXZ", kMaxChunkXZ), set("maxChunkY", kMaxChunkY);  // the chunk range (types.h)
  set("maxBoxCells", static_cast<double>(kMaxBoxCells));
  set("maxAreas", static_cast<double>(kMaxAreas));
  set("maxAreaNameBytes", static_cast<double>(kMaxAreaNameBytes));
  set("minAreaCost", kMinAreaCost);
  set("maxAreaCost", kMaxAreaCost);
  set("maxAreaMultiplier", kMaxAreaMultiplier);
  set("maxGoalRange", kMaxGoalRange);
  set("maxNearestRadius", kMaxNearestRadius);
  set("maxChunkBuildRadius", World::kMaxChunkBuildRadius);
  set("maxSearchesPerUpdate", World::kMaxSearchesPerUpdate);
  set("maxTickSeconds", World::kMaxTickSeconds);
  set("searchTimesKept", static_cast<double>(kSearchTimesKept));
  set("maxColumnTopsColumns", static_cast<double>(kMaxColumnTopsColumns));
  set("maxColumnTopsHeight", static_cast<double>(kMaxColumnTopsHeight));
  set("maxColumnTopsCells", static_cast<double>(kMaxColumnTopsCells));
  set("noColumnTop", kNoColumnTop);
  return o;
}

bool threads_built() {
#ifdef VOXNAV_WASM_THREADS
  return true;
#else
  return false;
#endif
}

}  // namespace voxnav::bindings

EMSCRIPTEN_BINDINGS(voxnav) {
  using namespace voxnav::bindings;
  emscripten::function("statusName", &status_name_of);
  emscripten::function("edgeKindName", &edge_kind_name_of);
  emscripten::function("agentModeName", &agent_mode_name_of);
  emscripten::function("threadsBuilt", &threads_built);
  emscripten::function("limits", &limits);
  emscripten::function("versionString", &version_string_of);
  emscripten::class_<WorldCore>("WorldCore")
      .constructor<int, bool>()
      .function("lastStatus", &WorldCore::last_status)
      .function("lastError", &WorldCore::last_error)
      .function("lastWarning", &WorldCore::last_warning)
      .function("threaded", &WorldCore::threaded)
      .function("loadMinecraftBlocks", &WorldCore::load_minecraft_blocks)
      .function("blockValue", &WorldCore::block_value)
      .function("blockCount", &WorldCore::block_count)
      // a game's own blocks
      .function("loadBlocks", &WorldCore::load_blocks)
      .function("setBlockTraits", &WorldCore::set_block_traits)
      .function("blockDef", &WorldCore::block_def)
      .function("loadChunks", &WorldCore::load_chunks)
      .function("loadChunk", &WorldCore::load_chunk)
      .function("unloadChunks", &WorldCore::unload_chunks)
      .function("unloadChunk", &WorldCore::unload_chunk)
      .function("loadAnvilColumns", &WorldCore::load_anvil_columns)
      .function("setBlock", &WorldCore::set_block)
      .function("setBox", &WorldCore::set_box)
      .function("getBlock", &WorldCore::get_block)
      .function("addProfile", &WorldCore::add_profile)
      .function("findProfile", &WorldCore::find_profile)
      .function("defineArea", &WorldCore::define_area)
      .function("findArea", &WorldCore::find_area)
      .function("update", &WorldCore::update)
      .function("navEpoch", &WorldCore::nav_epoch)
      .function("reachable", &WorldCore::reachable)
      .function("isStandable", &WorldCore::is_standable)
      .function("standingHeight", &WorldCore::standing_height)
      .function("nearestStandable", &WorldCore::nearest_standable)
      .function("request", &WorldCore::request)
      .function("status", &WorldCore::status)
      .function("findPathNow", &WorldCore::find_path_now)
      .function("corridor", &WorldCore::corridor)
      .function("pathCells", &WorldCore::path_cells)
      .function("release", &WorldCore::release)
      .function("addAgent", &WorldCore::add_agent)
      .function("removeAgent", &WorldCore::remove_agent)
      .function("setAgentGoal", &WorldCore::set_agent_goal)
      .function("agentState", &WorldCore::agent_state)
      .function("agentReason", &WorldCore::agent_reason)
      .function("agentCorridor", &WorldCore::agent_corridor)
      .function("teleportAgent", &WorldCore::teleport_agent)
      .function("agentsSnapshot", &WorldCore::agents_snapshot)
      .function("setDoorOpen", &WorldCore::set_door_open)
      .function("takeDoorEvents", &WorldCore::take_door_events)
      .function("pendingDoorEvents", &WorldCore::pending_door_events)
      .function("navTick", &WorldCore::nav_tick)
      .function("setChunkStreaming", &WorldCore::set_chunk_streaming)
      .function("chunkStreaming", &WorldCore::chunk_streaming)
      .function("pendingChunkBuilds", &WorldCore::pending_chunk_builds)
      .function("setChunkBuildRadius", &WorldCore::set_chunk_build_radius)
      .function("chunkBuildRadius", &WorldCore::chunk_build_radius)
      .function("deferredChunkBuilds", &WorldCore::deferred_chunk_builds)
      .function("setSearchesPerUpdate", &WorldCore::set_searches_per_update)
      .function("searchesPerUpdate", &WorldCore::searches_per_update)
      .function("queuedRequests", &WorldCore::queued_requests)
      .function("tick", &WorldCore::tick)
      .function("stats", &WorldCore::stats)
      .function("searchTimesUs", &WorldCore::search_times_us)
      .function("stateHash", &WorldCore::state_hash)
      .function("topBlocks", &WorldCore::top_blocks)
      .function("profileBody", &WorldCore::profile_body)
      .function("stepBody", &WorldCore::step_body);
}
