// Helpers shared by the GoogleTest suites (tests/test_support.cpp, the voxnav_test_support library).
#pragma once
#include <memory>

#include "voxnav/world.h"

namespace voxnav::test {

/// A second World holding a copy of `src`'s blocks (same registry) with one default walker
/// profile (`*pid`), its navigation built from scratch by one update(): the reference that
/// incrementally maintained layers are compared with.
std::unique_ptr<World> fresh_copy(World& src, ProfileId* pid);

}  // namespace voxnav::test
