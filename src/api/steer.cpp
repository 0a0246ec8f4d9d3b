// voxnav/crowds.h: steering among agents over the engine's Steering (engine/steer).
#include "engine/nav/world_access.h"
#include "voxnav/crowds.h"
#include "voxnav/world.h"

namespace voxnav {

void set_separation(World& world, bool on) noexcept {
  detail::WorldAccess::state(world).agents.steering().set_separation(on);
}

bool separation(const World& world) noexcept {
  return detail::WorldAccess::state(world).agents.steering().separation();
}

SteeringStats steering_stats(const World& world) noexcept {
  const detail::Steering::Stats& s = detail::WorldAccess::state(world).agents.steering().stats();
  SteeringStats out;
  out.orca_agents = s.orca_agents;
  out.orca_neighbours = s.orca_neighbours;
  out.orca_refused = s.orca_refused;
  out.pushes = s.pushes;
  out.pushes_shortened = s.pushes_shortened;
  out.pushes_refused = s.pushes_refused;
  return out;
}

}  // namespace voxnav
