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
  return detail::WorldAccess::state(world).agents.steering().stats();
}

}  // namespace voxnav
