// Helpers shared by the GoogleTest suites, built once as the static library voxnav_test_support.
// Put declarations in tests/test_support.h. Being a static library, a file-scope object here that
// no suite references is not linked in: register gtest environments from the suites themselves.
#include "test_support.h"

#include <gtest/gtest.h>

#include <span>

#include "engine/nav/world_state.h"

namespace voxnav::test {

std::unique_ptr<World> fresh_copy(World& src, ProfileId* pid) {
  auto w = std::make_unique<World>();
  detail::WorldState& st = w->internal();
  const detail::WorldState& s = src.internal();
  st.registry = s.registry;
  for (const detail::ChunkPos& p : s.space.loaded_chunks()) {
    const detail::Chunk* ch = s.space.chunk(p);
    const Status r = ch->uniform ? st.space.load_uniform_chunk(p, ch->uniform_value)
                                 : st.space.load_chunk(p, std::span<const std::uint16_t>(ch->values.get(),
                                                                                        detail::kChunkCells));
    EXPECT_EQ(r, Status::Ok);
  }
  EXPECT_EQ(w->add_profile(Profile{}, pid), Status::Ok);
  w->update();
  return w;
}

}  // namespace voxnav::test
