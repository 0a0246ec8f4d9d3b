// voxnav bindings - the calls over a WorldCore that are free functions of the C++ API: Anvil
// columns (voxnav/io.h), the height map (voxnav/columns.h), the movement step
// (voxnav/integrate.h), block definitions (voxnav/registry.h) and the state hash. Conversion only.
#include <cstdio>
#include <string>
#include <vector>

#include "voxnav/columns.h"
#include "voxnav/integrate.h"
#include "voxnav/io.h"
#include "voxnav/state_hash.h"
#include "world_core.h"

namespace voxnav::bindings {

/// Anvil chunk columns (uncompressed NBT) back to back in `data`, `offsets` n + 1 offsets into it
/// (World-side rules: voxnav/io.h load_anvil_columns). Returns the load report.
val load_anvil_columns(WorldCore& core, val data, val offsets, bool skip_empty_proto,
                       bool full_only) {
  const char* fn = "load_anvil_columns";
  CallState& calls = core.calls();
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint32_t> offs;
  if (!copy_typed(data, bytes))
    return calls.fail_val(Status::InvalidArgument, fn, "data must be a Uint8Array");
  if (!copy_typed(offsets, offs))
    return calls.fail_val(Status::InvalidArgument, fn, "offsets must be a Uint32Array");
  if (offs.empty() || offs.front() != 0 || offs.back() != bytes.size())
    return calls.fail_val(Status::InvalidArgument, fn,
                          "offsets must start at 0 and end at data.length");
  std::vector<std::span<const std::uint8_t>> columns;
  for (std::size_t i = 0; i + 1 < offs.size(); ++i) {
    if (offs[i + 1] < offs[i])
      return calls.fail_val(Status::InvalidArgument, fn, "offsets must not decrease");
    columns.emplace_back(bytes.data() + offs[i], offs[i + 1] - offs[i]);
  }
  LoadOptions options;
  options.skip_empty_proto_chunks = skip_empty_proto;
  options.full_chunks_only = full_only;
  LoadReport r;
  if (const Status st = voxnav::load_anvil_columns(core.world(), columns, options, &r);
      st != Status::Ok)
    return calls.fail_val(st, fn, r.message);
  val names = val::array();
  for (const UnknownBlock& n : r.unknown_names) names.call<void>("push", val(n.name));
  const auto corner = [&](CellPos c) {
    if (!r.chunks_loaded) return val::null();
    val a = val::array();
    for (double v : {double(c.x), double(c.y), double(c.z)}) a.call<void>("push", val(v));
    return a;
  };
  calls.ok();
  return object({{"columns", number(double(r.columns_loaded))},
                 {"chunks", number(double(r.chunks_loaded))},
                 {"uniformChunks", number(double(r.uniform_chunks))},
                 {"emptyProtoChunks", number(double(r.empty_proto_chunks))},
                 {"skippedProtoChunks", number(double(r.proto_chunks_left_out))},
                 {"format", val(r.format)},
                 {"dataVersionMin", val(r.data_version_min)},
                 {"dataVersionMax", val(r.data_version)},
                 {"unknownBlocks", number(double(r.unknown_blocks))},
                 {"unknownProperties", number(double(r.unknown_properties))},
                 {"unknownNames", names},
                 {"min", corner(r.min)},
                 {"max", corner(r.max)}});
}

val list_region_chunks_unguarded(val region);

/// voxnav/io.h list_region_chunks of a region file's bytes (a Uint8Array): {status, message,
/// chunks: [{index, compression, offset, size, skipped, reason}]} (status 0: Ok).
val list_region_chunks(val region) {
  // A module function, not a WorldCore method: it catches at its own boundary (see
  // voxnav_bindings.cpp) and reports an allocation failure as OutOfMemory.
  try {
    return list_region_chunks_unguarded(region);
  } catch (...) {
  }
  return object({{"status", val(int(Status::OutOfMemory))},
                 {"message", val(std::string("out of memory: the wasm heap cannot hold the region file"))}});
}
val list_region_chunks_unguarded(val region) {
  std::vector<std::uint8_t> bytes;
  if (!copy_typed(region, bytes))
    return object({{"status", val(int(Status::InvalidArgument))},
                   {"message", val(std::string("file must be a Uint8Array"))}});
  std::vector<RegionChunk> chunks;
  std::string err;
  const Status st = voxnav::list_region_chunks(bytes, &chunks, &err);
  val list = val::array();
  for (const RegionChunk& c : chunks)
    list.call<void>("push", object({{"index", val(c.index)},
                                    {"compression", val(int(c.compression))},
                                    {"offset", number(double(c.offset))},
                                    {"size", number(double(c.size))},
                                    {"skipped", val(c.skipped)},
                                    {"reason", val(c.reason)}}));
  return object({{"status", val(int(st))}, {"message", val(err)}, {"chunks", list}});
}

/// voxnav/columns.h column_tops over x0..x1, z0..z1 looking at y0..y1: {width, heights:
/// Int32Array, values: Uint16Array} views, one entry per column at (x - x0) + width * (z - z0).
val top_blocks(WorldCore& core, double x0, double z0, double x1, double z1, double y0, double y1) {
  static std::vector<std::int32_t> heights;
  static std::vector<std::uint16_t> values;
  const char* fn = "top_blocks";
  CellPos a, b;
  if (!core.calls().cell(fn, "min", x0, y0, z0, a) || !core.calls().cell(fn, "max", x1, y1, z1, b))
    return val::undefined();
  // Buffers for the columns asked for, when column_tops will accept them (it checks the limits).
  const double columns = (double(b.x) - a.x + 1) * (double(b.z) - a.z + 1);
  const bool fits = a.x <= b.x && a.z <= b.z && columns <= double(kMaxColumnTopsColumns);
  heights.resize(fits ? std::size_t(columns) : 0);
  values.resize(heights.size());
  std::string err;
  if (const Status st =
          column_tops(core.world(), a, b, heights.data(), values.data(), heights.size(), &err);
      st != Status::Ok)
    return core.calls().fail_val(st, fn, err);
  core.calls().ok();
  return object({{"width", number(double(b.x) - a.x + 1)},
                 {"heights", view(heights)},
                 {"values", view(values)}});
}

/// The body params of a profile: Float64Array [width, height, step_height, gravity,
/// jump_velocity, terminal_speed, climb_speed].
val profile_body(WorldCore& core, double profile) {
  static std::vector<double> out;
  ProfileId pid;
  BodyParams p;
  std::string err;
  if (!core.calls().profile("profile_body", profile, pid)) return val::undefined();
  if (const Status st = voxnav::profile_body(core.world(), pid, &p, &err); st != Status::Ok)
    return core.calls().fail_val(st, "profile_body", err, "profile");
  out.assign({p.width, p.height, p.step_height, p.gravity, p.jump_velocity, p.terminal_speed,
              p.climb_speed});
  core.calls().ok();
  return view(out);
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
  static std::vector<double> in, out;
  const char* fn = "step_body";
  if (!copy_typed(packed, in))
    return core.calls().fail_val(Status::InvalidArgument, fn, "packed must be a Float64Array");
  if (in.size() != 26)
    return core.calls().fail_val(
        Status::InvalidArgument, fn,
        "packed has " + std::to_string(in.size()) + " entries, expected 26");
  const auto small_enum = [](double v) { return integral(v) && v >= 0 && v <= 3; };
  if (!small_enum(in[10]))
    return core.calls().fail_val(Status::InvalidArgument, fn,
                                 "state.mode " + num(in[10]) + " is not a body mode (0 .. 3)");
  if (!small_enum(in[14]))
    return core.calls().fail_val(Status::InvalidArgument, fn,
                                 "input.climb " + num(in[14]) + " is not a climb intent (0 .. 3)");
  BodyState s{.feet = Vec3{in[0], in[1], in[2]},
              .velocity = Vec3{in[3], in[4], in[5]},
              .on_ground = in[9] != 0,
              .mode = static_cast<BodyMode>(int(in[10])),
              .carry = Vec3{in[6], in[7], in[8]}};
  BodyInput input{in[11],      in[12],
                  in[13] != 0, static_cast<ClimbIntent>(int(in[14])),
                  in[15],      Vec3{in[16], in[17], in[18]}};
  const BodyParams p{in[19], in[20], in[21], in[22], in[23], in[24], in[25]};
  StepReport r;
  std::string err;
  if (const Status st = voxnav::step_body(core.world(), s, input, p, dt, &r, &err);
      st != Status::Ok)
    return core.calls().fail_val(st, fn, err);
  const auto b = [](bool v) { return v ? 1.0 : 0.0; };
  out.assign({s.feet.x,         s.feet.y,         s.feet.z,        s.velocity.x,
              s.velocity.y,     s.velocity.z,     s.carry.x,       s.carry.y,
              s.carry.z,        b(s.on_ground),   double(s.mode),  r.displacement.x,
              r.displacement.y, r.displacement.z, b(r.hit_wall_x), b(r.hit_wall_z),
              r.wall_speed,     b(r.hit_ceiling), b(r.landed),     r.landing_speed,
              b(r.stepped_up),  r.step_rise,      b(r.climbing),   b(r.in_fluid)});
  core.calls().ok();
  return view(out);
}

/// A registry value's definition: {name, boxes, door?, climbable?, hazard?, slow?, fluid?}.
val block_def(WorldCore& core, double value) {
  BlockDef d;
  std::uint16_t v = 0;
  if (!core.calls().value("block_def", value, v, core.world().block_count())) return val::undefined();
  if (core.world().block_def(v, &d) != Status::Ok)
    return core.calls().world_fail(core.world()), val::undefined();
  val boxes = val::array();
  for (const BlockBox& bx : d.boxes) {
    val box = val::array();
    for (float f : {bx.min_x, bx.min_y, bx.min_z, bx.max_x, bx.max_y, bx.max_z})
      box.call<void>("push", f);
    boxes.call<void>("push", box);
  }
  val o = object({{"name", val(d.name)}, {"boxes", boxes}});
  const BlockTraits& t = d.traits;
  if (t.door != BlockDoor::None) {
    val door = object({{"open", val(t.door == BlockDoor::Open)}});
    if (!t.door_toggle_name.empty()) door.set("toggle", t.door_toggle_name);
    if (t.door_toggle != kNoBlockValue) door.set("toggleValue", t.door_toggle);
    o.set("door", door);
  }
  if (t.climbable) o.set("climbable", true);
  if (t.hazard != BlockHazard::None) o.set("hazard", std::string(block_hazard_name(t.hazard)));
  if (t.slow) o.set("slow", true);
  if (t.fluid != BlockFluid::None) o.set("fluid", std::string(block_fluid_name(t.fluid)));
  core.calls().ok();
  return o;
}

/// state_hash of every live agent in the order added, as 16 lowercase hex digits.
std::string state_hash(WorldCore& core) {
  std::uint64_t h = 0;
  if (voxnav::state_hash(core.world(), core.agents(), &h) != Status::Ok) {
    core.calls().fail(Status::StaleHandle, "state_hash",
                      "an agent of this world is no longer live");
    return std::string();
  }
  core.calls().ok();
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace voxnav::bindings
