// Agents following flow fields give the same simulation bit for bit with no executor and with
// thread pools of 2 and 3 workers: the fields are built in slices on the executor's jobs and
// installed at a fixed update, so the state hash of every tick is the same.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "test_support.h"
#include "voxnav/crowds.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

std::vector<std::uint64_t> run(int threads) {
  std::unique_ptr<native::ThreadPool> pool;
  WorldDef def;
  if (threads > 0) {
    pool = std::make_unique<native::ThreadPool>(threads);
    def.executor = pool.get();
  }
  std::vector<std::uint64_t> hashes;
  {
    World w(def);
    EXPECT_TRUE(test::load_flat_floor(w, 1));
    ProfileId walker;
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    // A wall across the floor with one gap, and two goals behind it.
    for (int x = -16; x <= 31; ++x) {
      if (x == 20) continue;
      for (int y = 1; y <= 2; ++y) {
        EXPECT_EQ(w.set_block(CellPos{x, y, 8}, 1), Status::Ok);
      }
    }
    w.update();
    FlowId a, b;
    EXPECT_EQ(request_flow(w, walker, CellPos{0, 1, 24}, {}, &a), Status::Ok);
    EXPECT_EQ(request_flow(w, walker, CellPos{-10, 1, 28}, {}, &b), Status::Ok);
    std::vector<AgentId> ids;
    for (int k = 0; k < 8; ++k) {
      AgentId id;
      EXPECT_EQ(w.add_agent(AgentDef{walker, Vec3{-12.5 + 5 * k, 1, -8.5 - (k % 3)}}, &id),
                Status::Ok);
      EXPECT_EQ(set_agent_flow(w, id, k % 2 ? a : b), Status::Ok);
      ids.push_back(id);
    }
    for (int t = 0; t < 500; ++t) {
      EXPECT_EQ(w.tick(0.05), Status::Ok);
      if (t == 150) {
        EXPECT_EQ(w.set_block(CellPos{4, 1, 16}, 1), Status::Ok);  // a rebuild mid-way
      }
      std::uint64_t h = 0;
      EXPECT_EQ(state_hash(w, ids, &h), Status::Ok);
      hashes.push_back(h);
    }
    std::size_t arrived = 0;
    for (AgentId id : ids) {
      AgentState s;
      EXPECT_EQ(w.agent_state(id, &s), Status::Ok);
      arrived += s.mode == AgentMode::Arrived;
    }
    EXPECT_EQ(arrived, ids.size());
  }
  return hashes;
}

TEST(FlowThreads, SameHashesWithAnyExecutor) {
  const std::vector<std::uint64_t> sync = run(0);
  ASSERT_EQ(sync.size(), 500u);
  EXPECT_EQ(run(2), sync);
  EXPECT_EQ(run(3), sync);
}

}  // namespace
}  // namespace voxnav
