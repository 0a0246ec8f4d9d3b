// Access to the engine state behind a voxnav::World, for src/api's own implementation files and
// voxnav's tests only; users, the CLI, the examples, the bindings and the benchmarks use
// src/api only.
#pragma once
#include "engine/nav/world_state.h"
#include "voxnav/world.h"

namespace voxnav::detail {

struct WorldAccess {
  static WorldState& state(World& w) { return *w.state_; }
  static const WorldState& state(const World& w) { return *w.state_; }
};

}  // namespace voxnav::detail
