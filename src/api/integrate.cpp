// voxnav - the public movement step over the engine's integrator (src/engine/integrate).
#include "voxnav/integrate.h"

#include <cmath>
#include <cstdio>

#include "api_text.h"
#include "engine/integrate/integrate.h"
#include "engine/nav/profile_compile.h"
#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {

namespace {

// Positions must stay this far inside the cell range (the engine's kRangeMargin).
constexpr double kMargin = 2.0 * detail::kMaxStepDisplacement + 8.0;

using detail::num;

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

Status fail(CallError* error, Status st, const char* argument, std::string msg) {
  if (error) *error = CallError{st, "step_body", argument, std::move(msg)};
  return st;
}

// The first bad field of a step's arguments, or an empty string.
Status check(const BodyState& s, const BodyInput& in, const BodyParams& p, double dt,
             CallError* error) {
  const Status bad = Status::InvalidArgument;
  if (!(std::isfinite(dt) && dt > 0.0 && dt <= 1.0))
    return fail(error, bad, "dt", "dt " + num(dt) + " is not in (0, 1] seconds");
  if (!finite(s.feet)) return fail(error, bad, "state.feet", "state.feet is not finite");
  if (!finite(s.velocity)) return fail(error, bad, "state.velocity", "state.velocity is not finite");
  if (!finite(s.carry)) return fail(error, bad, "state.carry", "state.carry is not finite");
  if (static_cast<int>(s.mode) > static_cast<int>(BodyMode::Climb))
    return fail(error, bad, "state.mode",
                "state.mode " + std::to_string(static_cast<int>(s.mode)) +
                    " is not a body mode (0 walk, 1 fly, 2 swim, 3 climb)");
  if (!std::isfinite(in.move_x) || !std::isfinite(in.move_z))
    return fail(error, bad, "input.move", "input.move is not finite");
  if (!std::isfinite(in.vertical)) return fail(error, bad, "input.vertical", "input.vertical is not finite");
  if (!finite(in.knock)) return fail(error, bad, "input.knock", "input.knock is not finite");
  if (static_cast<int>(in.climb) > static_cast<int>(ClimbIntent::Hold))
    return fail(error, bad, "input.climb",
                "input.climb " + std::to_string(static_cast<int>(in.climb)) +
                    " is not a climb intent (0 none, 1 up, 2 down, 3 hold)");
  if (!(std::isfinite(p.width) && p.width > 0.0 && p.width <= 16.0))
    return fail(error, bad, "params.width", "params.width " + num(p.width) + " is not in (0, 16]");
  if (!(std::isfinite(p.height) && p.height > 0.0 && p.height <= 16.0))
    return fail(error, bad, "params.height", "params.height " + num(p.height) + " is not in (0, 16]");
  if (!(std::isfinite(p.step_height) && p.step_height >= 0.0))
    return fail(error, bad, "params.step_height",
                "params.step_height " + num(p.step_height) + " is not a finite number >= 0");
  if (!std::isfinite(p.gravity)) return fail(error, bad, "params.gravity", "params.gravity is not finite");
  if (!std::isfinite(p.jump_velocity))
    return fail(error, bad, "params.jump_velocity", "params.jump_velocity is not finite");
  if (!(std::isfinite(p.terminal_speed) && p.terminal_speed >= 0.0))
    return fail(error, bad, "params.terminal_speed",
                "params.terminal_speed " + num(p.terminal_speed) + " is not a finite number >= 0");
  if (!std::isfinite(p.climb_speed)) return fail(error, bad, "params.climb_speed", "params.climb_speed is not finite");
  const double h = static_cast<double>(detail::kMaxHorizontal) - kMargin;
  const double v = static_cast<double>(detail::kMaxVertical) - kMargin;
  if (!(s.feet.x > -h && s.feet.x < h && s.feet.z > -h && s.feet.z < h && s.feet.y > -v &&
        s.feet.y < v))
    return fail(error, Status::OutOfRange, "state.feet",
                "state.feet (" + num(s.feet.x) + ", " + num(s.feet.y) + ", " + num(s.feet.z) +
                    ") is out of range (|x|, |z| < " + num(h) + ", |y| < " + num(v) + ")");
  return Status::Ok;
}

}  // namespace

const char* body_mode_name(BodyMode m) noexcept {
  switch (m) {
    case BodyMode::Walk:
      return "walk";
    case BodyMode::Fly:
      return "fly";
    case BodyMode::Swim:
      return "swim";
    case BodyMode::Climb:
      return "climb";
  }
  return "unknown";
}

const char* climb_intent_name(ClimbIntent c) noexcept {
  switch (c) {
    case ClimbIntent::None:
      return "none";
    case ClimbIntent::Up:
      return "up";
    case ClimbIntent::Down:
      return "down";
    case ClimbIntent::Hold:
      return "hold";
  }
  return "unknown";
}

Status profile_body(const World& world, ProfileId profile, BodyParams* out, CallError* error) {
  const detail::WorldState& st = detail::WorldAccess::state(world);
  if (!st.has_profile(profile) || out == nullptr) {
    if (error)
      *error = out == nullptr ? CallError{Status::InvalidArgument, "profile_body", "out", "out is null"}
                              : CallError{Status::InvalidArgument, "profile_body", "profile",
                                          detail::profile_error(profile, st.profiles.size())};
    return Status::InvalidArgument;
  }
  const detail::AgentMotion m = detail::compile_profile(st.profiles[profile.index]);
  *out = m.body;
  return Status::Ok;
}

Status step_body(const World& world, BodyState& state, const BodyInput& input,
                 const BodyParams& params, double dt, StepReport* report, CallError* error) {
  const Status st = check(state, input, params, dt, error);
  if (st != Status::Ok) return st;

  BodyState next = state;
  detail::DriveInput drive;
  drive.move_x = input.move_x;
  drive.move_z = input.move_z;
  drive.jump = input.jump;
  drive.climb = input.climb;
  drive.vertical = input.vertical;

  const detail::IntegrateReport r = detail::integrate_character_tick(
      next, drive, input.knock, params, detail::WorldAccess::state(world).space, dt);
  if (!r.valid) return fail(error, Status::InvalidArgument, "state", "the step's input was refused");

  state = next;
  if (report) {
    StepReport out;
    out.displacement = r.displacement;
    out.hit_wall_x = (r.hit_wall & detail::kHitX) != 0;
    out.hit_wall_z = (r.hit_wall & detail::kHitZ) != 0;
    out.wall_speed = r.wall_speed;
    out.hit_ceiling = r.hit_ceiling;
    out.landed = r.landed;
    out.landing_speed = r.landing_speed;
    out.stepped_up = r.stepped_up;
    out.step_rise = r.step_rise;
    out.climbing = r.climbing;
    out.in_fluid = r.in_fluid;
    *report = out;
  }
  return Status::Ok;
}

Status gap_jump_run(const BodyParams& params, int cells, double walk_speed, double sprint_speed,
                    double* speed, double* take_off, CallError* error) {
  const char* fn = "gap_jump_run";
  if (!speed) return detail::fail(error, fn, "speed", "speed is null", Status::InvalidArgument);
  if (!take_off)
    return detail::fail(error, fn, "take_off", "take_off is null", Status::InvalidArgument);
  if (cells < 1 || cells > detail::kMaxGapJump)
    return detail::fail(error, fn, "cells",
                        "cells " + std::to_string(cells) + " is not in 1 .. " +
                            std::to_string(detail::kMaxGapJump),
                        Status::InvalidArgument);
  if (!std::isfinite(walk_speed) || walk_speed <= 0.0)
    return detail::fail(error, fn, "walk_speed",
                        "walk_speed " + detail::num(walk_speed) + " is not a positive number",
                        Status::InvalidArgument);
  if (!std::isfinite(sprint_speed) || sprint_speed < walk_speed)
    return detail::fail(error, fn, "sprint_speed",
                        "sprint_speed " + detail::num(sprint_speed) + " is not a number of at least walk_speed " +
                            detail::num(walk_speed),
                        Status::InvalidArgument);
  if (!std::isfinite(params.gravity) || params.gravity <= 0.0)
    return detail::fail(error, fn, "params.gravity",
                        "params.gravity " + detail::num(params.gravity) + " is not positive",
                        Status::InvalidArgument);
  if (!std::isfinite(params.jump_velocity) || params.jump_velocity <= 0.0)
    return detail::fail(error, fn, "params.jump_velocity",
                        "params.jump_velocity " + detail::num(params.jump_velocity) + " is not positive",
                        Status::InvalidArgument);
  *speed = detail::gap_run_speed(cells + 1, walk_speed, sprint_speed, params.jump_velocity,
                                 params.gravity);
  *take_off = cells + 1 - detail::kGapTakeOff;
  return Status::Ok;
}

}  // namespace voxnav
