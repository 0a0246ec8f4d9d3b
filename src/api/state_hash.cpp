// voxnav - state_hash: FNV-1a 64 over agent states and corridors (public API only).
#include "voxnav/state_hash.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "voxnav/world.h"

namespace voxnav {

namespace {

class Fnv {
 public:
  void byte(std::uint8_t b) { h_ = (h_ ^ b) * 0x100000001B3ull; }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f64(double d) {
    std::uint64_t v;
    std::memcpy(&v, &d, sizeof v);
    for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void vec(const Vec3& v) {
    f64(v.x);
    f64(v.y);
    f64(v.z);
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = kStateHashBasis;
};

}  // namespace

std::string state_hash_text(std::uint64_t hash) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

Status state_hash(const World& world, std::span<const AgentId> agents, std::uint64_t* out,
                  CallError* error) {
  if (!out) return Status::InvalidArgument;
  Fnv h;
  std::vector<Waypoint> wps;
  for (std::size_t k = 0; k < agents.size(); ++k) {
    const AgentId id = agents[k];
    AgentState s;
    std::size_t count = 0;
    if (world.agent_state(id, &s) != Status::Ok ||
        world.agent_corridor(id, nullptr, 0, &count) != Status::Ok) {
      if (error)
        *error = CallError{Status::StaleHandle, "state_hash", "agents",
                           "agents[" + std::to_string(k) + "] is not a live agent of this world"};
      return Status::StaleHandle;
    }
    wps.resize(count);
    (void)world.agent_corridor(id, wps.data(), wps.size(), &count);
    h.vec(s.feet);
    h.vec(s.velocity);
    h.byte(static_cast<std::uint8_t>(s.mode));
    h.byte(s.on_ground ? 1 : 0);
    h.u32(s.arrivals);
    h.u32(s.replans);
    h.u32(s.repairs);
    h.u32(s.requests);
    h.u32(s.corridor_epoch);
    h.byte(static_cast<std::uint8_t>(s.yaw));  // the facing (voxnav/control.h)
    h.byte(static_cast<std::uint8_t>(s.yaw >> 8));
    h.u32(static_cast<std::uint32_t>(count));
    for (std::size_t i = 0; i < count; ++i) {
      h.vec(wps[i].position);
      h.byte(static_cast<std::uint8_t>(wps[i].kind));
      h.i32(wps[i].cell.x);
      h.i32(wps[i].cell.y);
      h.i32(wps[i].cell.z);
    }
  }
  if (out) *out = h.value();
  return Status::Ok;
}

}  // namespace voxnav
