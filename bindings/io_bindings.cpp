// voxnav bindings - the calls over a WorldCore that are free functions of the C++ API: Anvil
// columns (voxnav/io.h), the height map (voxnav/columns.h), the movement step
// (voxnav/integrate.h), block definitions (voxnav/registry.h) and the state hash. Conversion only:
// results cross as flat arrays that web/lib/world.mjs and web/lib/anvil.mjs reshape.
#include <cstdio>
#include <string>
#include <vector>

#include "voxnav/columns.h"
#include "voxnav/integrate.h"
#include "voxnav/io.h"
#include "voxnav/state_hash.h"
#include "world_core.h"

namespace voxnav::bindings {

namespace {
val fail(WorldCore& core, Status st, const char* fn, const char* argument, std::string msg) {
  core.calls.fail(st, fn, argument, std::move(msg));
  return val::undefined();
}
/// An array of `items`, each pushed as it is.
template <class... T>
val array(const T&... items) {
  val list = val::array();
  (list.call<void>("push", items), ...);
  return list;
}
}  // namespace

/// Anvil chunk columns (uncompressed NBT) back to back in `data`, `offsets` n + 1 offsets into it
/// (World-side rules: voxnav/io.h load_anvil_columns). Returns [numbers, format, unknown names...]
/// with numbers: columns, chunks, uniform chunks, empty proto-chunks, proto-chunks left out,
/// lowest and highest DataVersion, unknown blocks, unknown properties, min 3, max 3.
val load_anvil_columns(WorldCore& core, val data, val offsets, bool skip_empty_proto,
                       bool full_only) {
  const char* fn = "load_anvil_columns";
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint32_t> offs;
  if (!copy_typed(data, bytes) || !copy_typed(offsets, offs) || offs.empty() || offs.front() != 0 ||
      offs.back() != bytes.size())
    return fail(core, Status::InvalidArgument, fn, "columns",
                "columns must be a Uint8Array and offsets into it from 0 to its length");
  std::vector<std::span<const std::uint8_t>> columns;
  for (std::size_t i = 0; i + 1 < offs.size(); ++i) {
    if (offs[i + 1] < offs[i])
      return fail(core, Status::InvalidArgument, fn, "columns", "offsets must not decrease");
    columns.emplace_back(bytes.data() + offs[i], offs[i + 1] - offs[i]);
  }
  const LoadOptions options{.skip_empty_proto_chunks = skip_empty_proto,
                            .full_chunks_only = full_only};
  LoadReport r;
  if (const Status st = voxnav::load_anvil_columns(*core.world, columns, options, &r);
      st != Status::Ok)
    return fail(core, st, fn, "columns", r.message);
  val report =
      array(core.numbers(r.columns_loaded, r.chunks_loaded, r.uniform_chunks, r.empty_proto_chunks,
                         r.proto_chunks_left_out, r.data_version_min, r.data_version,
                         r.unknown_blocks, r.unknown_properties, r.min, r.max),
            r.format);
  for (const UnknownBlock& n : r.unknown_names) report.call<void>("push", n.name);
  core.calls.ok();
  return report;
}

/// voxnav/io.h list_region_chunks of a region file's bytes (a Uint8Array): [status, message,
/// numbers, reasons...] (status 0: Ok), per chunk the numbers index, compression, offset, size,
/// skipped (5 each) and a reason. A module function, not a WorldCore call: it catches at its own
/// boundary (see voxnav_bindings.cpp) and reports an allocation failure as OutOfMemory.
val list_region_chunks(val region) {
  try {
    std::vector<std::uint8_t> bytes;
    std::vector<RegionChunk> chunks;
    std::string err = "file must be a Uint8Array";
    const Status st = copy_typed(region, bytes) ? voxnav::list_region_chunks(bytes, &chunks, &err)
                                                : Status::InvalidArgument;
    std::vector<double> numbers;
    for (const RegionChunk& c : chunks)
      put(numbers, c.index, c.compression, c.offset, c.size, c.skipped);
    val list = array(int(st), err, val::global("Float64Array").new_(view(numbers)));
    for (const RegionChunk& c : chunks) list.call<void>("push", c.reason);
    return list;
  } catch (...) {
  }
  return array(int(Status::OutOfMemory),
               std::string("out of memory: the wasm heap cannot hold the region file"),
               val::global("Float64Array").new_(0));
}

/// voxnav/columns.h column_tops over x0..x1, z0..z1 looking at y0..y1: [heights Int32Array,
/// values Uint16Array] views, one entry per column at (x - x0) + (x1 - x0 + 1) * (z - z0).
val top_blocks(WorldCore& core, double x0, double z0, double x1, double z1, double y0, double y1) {
  In in(core.calls, "top_blocks");
  const CellPos a = in(Cell{"min", x0, y0, z0}), b = in(Cell{"max", x1, y1, z1});
  if (!in) return val::undefined();
  // Buffers for the columns asked for, when column_tops will accept them (it checks the limits).
  const double columns = (double(b.x) - a.x + 1) * (double(b.z) - a.z + 1);
  const bool fits = a.x <= b.x && a.z <= b.z && columns <= double(kMaxColumnTopsColumns);
  static std::vector<std::int32_t> heights;  // one pair for the module, not one per World
  static std::vector<std::uint16_t> values;
  heights.resize(fits ? std::size_t(columns) : 0);
  values.resize(heights.size());
  CallError e;
  if (column_tops(*core.world, a, b, heights.data(), values.data(), heights.size(), &e) !=
      Status::Ok)
    return core.calls.fail("top_blocks", std::move(e)), val::undefined();
  core.calls.ok();
  return array(view(heights), view(values));
}

/// The body params of a profile: Float64Array [width, height, step_height, gravity,
/// jump_velocity, terminal_speed, climb_speed].
val profile_body(WorldCore& core, double profile) {
  In in(core.calls, "profile_body");
  const ProfileId pid = in(ProfileArg{profile});
  BodyParams p;
  CallError e;
  if (!in) return val::undefined();
  if (voxnav::profile_body(*core.world, pid, &p, &e) != Status::Ok)
    return core.calls.fail("profile_body", std::move(e)), val::undefined();
  core.calls.ok();
  return core.numbers(p.width, p.height, p.step_height, p.gravity, p.jump_velocity,
                      p.terminal_speed, p.climb_speed);
}

/// One movement step (voxnav/integrate.h). `packed` is a Float64Array of 26 numbers:
///   state  [0..2] feet, [3..5] velocity, [6..8] carry, [9] on_ground (0/1), [10] mode (0..3)
///   input  [11] move_x, [12] move_z, [13] jump (0/1), [14] climb (0..3), [15] vertical, [16..18]
///   knock params [19] width, [20] height, [21] step_height, [22] gravity, [23] jump_velocity,
///          [24] terminal_speed, [25] climb_speed
/// Returns a Float64Array of 24: the new state (11, as above), then the report: displacement
/// x, y, z, hit_wall_x, hit_wall_z, wall_speed, hit_ceiling, landed, landing_speed, stepped_up,
/// step_rise, climbing, in_fluid.
val step_body(WorldCore& core, val packed, double dt) {
  std::vector<double>& in = core.in;
  if (!copy_typed(packed, in) || in.size() != 26)
    return fail(core, Status::InvalidArgument, "step_body", "state",
                "packed must be a Float64Array of 26 numbers");
  // A mode or intent that is no enum value becomes 255, which step_body refuses (naming it).
  const auto small = [](double v) { return std::uint8_t(v >= 0 && v <= 255 ? v : 255); };
  const auto vec = [&](int at) { return Vec3{in[at], in[at + 1], in[at + 2]}; };
  BodyState s{.feet = vec(0),
              .velocity = vec(3),
              .on_ground = in[9] != 0,
              .mode = static_cast<BodyMode>(small(in[10])),
              .carry = vec(6)};
  const BodyInput input{in[11], in[12], in[13] != 0, static_cast<ClimbIntent>(small(in[14])),
                        in[15], vec(16)};
  const BodyParams p{in[19], in[20], in[21], in[22], in[23], in[24], in[25]};
  StepReport r;
  CallError e;
  if (voxnav::step_body(*core.world, s, input, p, dt, &r, &e) != Status::Ok)
    return core.calls.fail("step_body", std::move(e)), val::undefined();
  core.calls.ok();
  return core.numbers(s.feet, s.velocity, s.carry, s.on_ground, s.mode, r.displacement,
                      r.hit_wall_x, r.hit_wall_z, r.wall_speed, r.hit_ceiling, r.landed,
                      r.landing_speed, r.stepped_up, r.step_rise, r.climbing, r.in_fluid);
}

/// A registry value's definition: [name, door toggle name, numbers] with numbers: door (0 none,
/// 1 closed, 2 open), door toggle value (-1: none), climbable, hazard, slow, fluid, then 6 per
/// collision box (min x, y, z, max x, y, z).
val block_def(WorldCore& core, double value) {
  In in(core.calls, "block_def");
  const std::uint16_t v = in.value16(value, core.world->block_count());
  BlockDef d;
  if (!in || core.done(core.world->block_def(v, &d)) != 0) return val::undefined();
  const BlockTraits& t = d.traits;
  core.numbers(t.door, t.door_toggle == kNoBlockValue ? -1.0 : t.door_toggle, t.climbable, t.hazard,
               t.slow, t.fluid);
  for (const BlockBox& b : d.boxes)
    put(core.f64, b.min_x, b.min_y, b.min_z, b.max_x, b.max_y, b.max_z);
  return array(d.name, t.door_toggle_name, view(core.f64));
}

/// state_hash of every live agent in the order added, as 16 lowercase hex digits.
std::string state_hash(WorldCore& core) {
  std::uint64_t h = 0;
  if (voxnav::state_hash(*core.world, core.agents, &h) != Status::Ok)
    return fail(core, Status::StaleHandle, "state_hash", "",
                "an agent of this world is no longer live"),
           std::string();
  core.calls.ok();
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace voxnav::bindings
