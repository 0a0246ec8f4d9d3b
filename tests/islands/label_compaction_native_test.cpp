// Island labels are not reused between rebuilds: every edit that adds a standable cell takes a
// new label, and a merge or an emptied island leaves a dead one. A server that edits for weeks
// must not grow the per-label tables without bound (the soak benchmark saw a 3.6 MB step at tick
// 138,000 from exactly this). Once the labels fill the room reserved at the last rebuild,
// Islands::apply recomputes, which renumbers the live ones.
//
// The scene: a flat floor with a wall across it that has a one-cell gap; a block toggled in the
// gap splits the floor into two islands and joins them again, thousands of times. Checked: the
// label count never passes the limit (plus one edit's margin), compaction happened, and after it
// the layers and islands equal a fresh build and the split/join answers stay exact (an
// independent BFS over the move words).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <memory>

#include "engine/islands/islands.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr std::uint16_t kFullBlock = 1;  // "voxnav:unknown": a new World's solid fallback block

TEST(LabelCompaction, LabelsStayBoundedUnderEndlessSplitsAndJoins) {
  World w;
  ASSERT_TRUE(test::load_flat_floor(w, kFullBlock));
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  // A wall at x = 0, three blocks high (no jump over it), across the whole floor but z = 5.
  for (int z = -16; z <= 31; ++z) {
    if (z != 5) {
      ASSERT_EQ(w.set_box(CellPos{0, 1, z}, CellPos{0, 3, z}, kFullBlock), Status::Ok);
    }
  }
  w.update();
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  const detail::Islands& isl = nav.islands();
  const std::size_t limit = isl.label_limit();
  ASSERT_GT(limit, 0u);
  const CellPos west{-8, 1, 5}, east{8, 1, 5}, gap{0, 1, 5};

  const std::uint64_t compactions0 = isl.stats().compactions;
  std::size_t max_bound = 0;
  // Each toggle adds at least one label (two, here), so `limit` toggles compact at least once.
  // The run stops kAfter toggles past the first compaction (about half of them: two labels a
  // toggle), enough to check splits and joins on renumbered labels.
  constexpr int kAfter = 1000;
  int toggles = static_cast<int>(limit);
  for (int i = 0; i < toggles; ++i) {
    const bool closed = i % 2 == 0;
    ASSERT_EQ(w.set_box(gap, CellPos{0, 3, 5}, closed ? kFullBlock : std::uint16_t{0}), Status::Ok);
    w.update();
    max_bound = std::max<std::size_t>(max_bound, isl.id_bound());
    if (toggles == static_cast<int>(limit) && isl.stats().compactions != compactions0)
      toggles = std::min(toggles, i + 1 + kAfter);
    if (i % 997 == 0 || i + 1 == toggles) {
      Reach a;
      ASSERT_EQ(w.reachable(pid, west, east, &a), Status::Ok);
      test::PairOracle oracle(nav.grid());
      const bool truth = oracle.reaches(west, east);
      EXPECT_EQ(truth, !closed) << "toggle " << i;
      EXPECT_EQ(a.answer == ReachAnswer::Yes, truth) << "toggle " << i;
      EXPECT_EQ(a.answer == ReachAnswer::No, !truth) << "toggle " << i;
    }
  }
  const std::uint64_t compactions = isl.stats().compactions - compactions0;
  std::printf("%d toggles, label limit %zu, largest label count %zu, %llu compactions\n", toggles,
              limit, max_bound, static_cast<unsigned long long>(compactions));
  EXPECT_GE(compactions, 1u);
  EXPECT_LE(max_bound, limit + detail::Islands::kApplyLabelMargin);

  ProfileId fpid;
  std::unique_ptr<World> fresh = test::fresh_copy(w, &fpid);
  const test::LayerDiff d = test::compare_layers(nav, *detail::WorldAccess::state(*fresh).walker());
  EXPECT_EQ(d.total(), 0u) << d.first;
  EXPECT_EQ(w.stats().islands, fresh->stats().islands);
}

}  // namespace
}  // namespace voxnav
