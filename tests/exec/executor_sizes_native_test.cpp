// Executors of any size: a 10 x 11-column window of the shipped region (data/worlds/r.0.-1.mca;
// the window keeps the suite quick under TSan) with 48 walking agents and
// bursts of path requests, run with no executor and with ThreadPool(1, 2, 3, 4, 8) and with a
// host executor that reports more workers than navigation keeps search arenas (and hands jobs
// worker indices beyond its count). Every run must give the synchronous run's results bit for
// bit: the agents' state hash after every tick, and every request's status, cost and cells.
// Before navigation sized its search arenas from the executor, ThreadPool(4) shared one A* arena
// between two threads (a crash, or data races under TSan). This suite also runs in the TSan leg
// (scripts/test.sh, ctest label "threads").
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "splitmix.h"
#include "test_support.h"
#include "voxnav/io.h"
#include "voxnav/native/files.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

/// A host executor with many workers that runs every job on the calling thread at wait_idle, in
/// submission order, handing it worker index 1000 + k (an index navigation must not trust).
class WideExecutor final : public Executor {
 public:
  int worker_count() const override { return 1000; }
  void submit(Job job) override { jobs_.push_back(std::move(job)); }
  void wait_idle() override {
    int k = 0;
    while (!jobs_.empty()) {
      Job j = std::move(jobs_.front());
      jobs_.pop_front();
      j(1000 + k++);
    }
  }

 private:
  std::deque<Job> jobs_;
};

struct Trace {
  std::vector<std::uint64_t> hashes;  ///< agents' state hash after each tick
  std::vector<std::uint64_t> requests;  ///< per request: FNV-1a of status, cost and cells
  std::uint64_t searches = 0;
};

std::uint64_t fnv(std::uint64_t h, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    h ^= (v >> (8 * i)) & 0xFF;
    h *= 0x100000001b3ull;
  }
  return h;
}

/// Standable cells of the walker's islands of at least 200 cells, in the World's fixed order.
std::vector<IslandCell> big_island_cells(World& w, ProfileId pid) {
  std::size_t n = 0;
  EXPECT_EQ(w.island_cells(pid, nullptr, 0, &n), Status::Ok);
  std::vector<IslandCell> all(n);
  EXPECT_EQ(w.island_cells(pid, all.data(), all.size(), &n), Status::Ok);
  std::vector<IslandCell> big;
  for (const IslandCell& c : all)
    if (c.island_size >= 200) big.push_back(c);
  return big;
}

/// The inflated chunk columns of the region with local x in 9 .. 18 (z: all present, 21 .. 31;
/// 110 of its 253 columns), read once.
const std::vector<std::vector<std::uint8_t>>& window_columns() {
  static const std::vector<std::vector<std::uint8_t>> cols = [] {
    std::vector<std::vector<std::uint8_t>> out;
    std::vector<std::uint8_t> region;
    std::string err;
    EXPECT_EQ(native::read_file(test::repo_region(), region, &err), Status::Ok) << err;
    std::vector<RegionChunk> chunks;
    EXPECT_EQ(list_region_chunks(region, &chunks, &err), Status::Ok) << err;
    for (const RegionChunk& c : chunks) {
      const int lx = c.index % 32, lz = c.index / 32;
      if (c.skipped || lx < 9 || lx > 18 || lz < 21) continue;
      std::vector<std::uint8_t> nbt;
      const std::span<const std::uint8_t> data(region.data() + c.offset, c.size);
      EXPECT_EQ(native::zlib_inflate(data, nbt, kMaxInflatedBytes, &err), Status::Ok) << err;
      out.push_back(std::move(nbt));
    }
    return out;
  }();
  return cols;
}

Trace run(Executor* ex, int ticks) {
  Trace t;
  WorldDef def;
  def.executor = ex;
  World w(def);
  EXPECT_TRUE(test::load_real_blocks(w));
  const std::vector<std::vector<std::uint8_t>>& cols = window_columns();
  EXPECT_GE(cols.size(), 100u);
  std::vector<std::span<const std::uint8_t>> spans(cols.begin(), cols.end());
  LoadReport rep;
  EXPECT_EQ(load_anvil_columns(w, spans, LoadOptions{}, &rep), Status::Ok) << rep.message;
  ProfileId pid;
  EXPECT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  w.update();
  const std::vector<IslandCell> cells = big_island_cells(w, pid);
  EXPECT_GT(cells.size(), 1000u);
  if (cells.size() < 1000) return t;
  tools::SplitMix64 rng(0x5EED16u);
  const auto pick = [&] { return cells[rng.below(static_cast<std::uint32_t>(cells.size()))]; };
  // Goals in the agent's own island, so most walk far; the others fail or stop, also the same.
  std::vector<AgentId> ids;
  for (int i = 0; i < 48; ++i) {
    const IslandCell s = pick();
    double y = 0;
    EXPECT_EQ(w.standing_height(pid, s.cell, &y), Status::Ok);
    AgentId id;
    EXPECT_EQ(w.add_agent(AgentDef{pid, Vec3{s.cell.x + 0.5, y, s.cell.z + 0.5}}, &id), Status::Ok);
    EXPECT_EQ(w.set_agent_goal(id, pick().cell), Status::Ok);
    ids.push_back(id);
  }
  std::vector<PathHandle> handles;
  for (int k = 0; k < ticks; ++k) {
    if (k % 10 == 0) {  // a burst of 24 requests: many searches in flight on every worker
      for (int r = 0; r < 24; ++r) {
        NavRequest q;
        q.profile = pid;
        q.start = pick().cell;
        q.goal = pick().cell;
        PathHandle h;
        EXPECT_EQ(w.request(q, &h), Status::Ok);
        handles.push_back(h);
      }
    }
    EXPECT_EQ(w.tick(0.05), Status::Ok);
    std::uint64_t h = 0;
    EXPECT_EQ(state_hash(w, ids, &h), Status::Ok);
    t.hashes.push_back(h);
  }
  w.update();
  for (PathHandle ph : handles) {
    PathStatus ps;
    EXPECT_EQ(w.status(ph, &ps), Status::Ok);
    std::uint64_t h = kStateHashBasis;
    h = fnv(h, static_cast<std::uint64_t>(ps.state));
    h = fnv(h, static_cast<std::uint64_t>(ps.failure));
    h = fnv(h, ps.cost);
    h = fnv(h, ps.nodes_expanded);
    if (ps.state == PathState::Ready) {
      std::size_t n = 0;
      EXPECT_EQ(w.path_cells(ph, nullptr, 0, &n), Status::Ok);
      std::vector<PathCell> pc(n);
      EXPECT_EQ(w.path_cells(ph, pc.data(), pc.size(), &n), Status::Ok);
      for (const PathCell& c : pc)
        h = fnv(fnv(fnv(h, static_cast<std::uint32_t>(c.cell.x)), static_cast<std::uint32_t>(c.cell.y)),
                static_cast<std::uint32_t>(c.cell.z));
    }
    t.requests.push_back(h);
  }
  t.searches = w.stats().searches;
  return t;
}

void expect_same(const Trace& a, const Trace& b, const std::string& what) {
  ASSERT_EQ(a.hashes.size(), b.hashes.size()) << what;
  for (std::size_t k = 0; k < a.hashes.size(); ++k)
    ASSERT_EQ(a.hashes[k], b.hashes[k]) << what << ": state hash differs first after tick " << k + 1;
  ASSERT_EQ(a.requests.size(), b.requests.size()) << what;
  for (std::size_t i = 0; i < a.requests.size(); ++i)
    EXPECT_EQ(a.requests[i], b.requests[i]) << what << ": request " << i << " differs";
  EXPECT_EQ(a.searches, b.searches) << what;
}

constexpr int kTicks = 60;

/// The synchronous run (computed once for both tests).
const Trace& sync_trace() {
  static const Trace t = run(nullptr, kTicks);
  return t;
}

TEST(ExecutorSizes, ThreadPoolsOfOneToEightWorkersMatchTheSynchronousRunBitForBit) {
  const Trace& sync = sync_trace();
  ASSERT_EQ(sync.hashes.size(), static_cast<std::size_t>(kTicks));
  // The scene is busy: the bursts and the agents' requests give many searches per update.
  EXPECT_GE(sync.searches, 120u);
  for (int k : {1, 2, 3, 4, 8}) {
    native::ThreadPool pool(k);
    ASSERT_EQ(pool.worker_count(), k);
    const Trace t = run(&pool, kTicks);
    expect_same(sync, t, "ThreadPool(" + std::to_string(k) + ")");
  }
}

TEST(ExecutorSizes, AHostExecutorWithMoreWorkersThanArenasMatchesTheSynchronousRun) {
  const Trace& sync = sync_trace();
  WideExecutor wide;
  expect_same(sync, run(&wide, kTicks), "an executor of 1000 workers");
}

TEST(ExecutorSizes, ThreadPoolClampsItsThreadCount) {
  EXPECT_EQ(native::ThreadPool(0).worker_count(), 1);
  EXPECT_EQ(native::ThreadPool(-5).worker_count(), 1);
  EXPECT_EQ(native::ThreadPool(native::ThreadPool::kMaxThreads + 1).worker_count(),
            native::ThreadPool::kMaxThreads);
}

}  // namespace
}  // namespace voxnav
