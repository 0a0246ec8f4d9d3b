// The scene the control suites share: a flat floor of the default registry's full block with one
// profile, built, and the reads they repeat.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>

#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/world.h"

namespace voxnav::test {

inline constexpr std::uint16_t kSolid = 1;  // the default registry's full block

struct Flat {
  std::unique_ptr<World> world = std::make_unique<World>();
  ProfileId pid;
};

inline Flat flat(const Profile& p = Profile{}) {
  Flat f;
  EXPECT_TRUE(load_flat_floor(*f.world, kSolid));
  EXPECT_EQ(f.world->add_profile(p, &f.pid), Status::Ok);
  f.world->update();
  return f;
}

inline AgentState state(const World& w, AgentId a) {
  AgentState s;
  EXPECT_EQ(w.agent_state(a, &s), Status::Ok);
  return s;
}

inline AgentLocomotion loco(const World& w, AgentId a) {
  AgentLocomotion l;
  EXPECT_EQ(agent_locomotion(w, a, &l), Status::Ok);
  return l;
}

}  // namespace voxnav::test
