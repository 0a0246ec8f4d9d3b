// Bounded statistics: the ring behind World::search_times_us keeps the latest values, oldest
// first, in fixed memory.
#include <gtest/gtest.h>

#include <vector>

#include "engine/util/recent_values.h"
#include "voxnav/requests.h"

namespace voxnav::detail {
namespace {

std::vector<int> kept(const RecentValues<int, 4>& r) {
  return std::vector<int>(r.values().begin(), r.values().end());
}

TEST(RecentValues, KeepsTheLastNOldestFirst) {
  RecentValues<int, 4> r;
  EXPECT_TRUE(r.values().empty());
  r.push(1);
  r.push(2);
  r.push(3);
  EXPECT_EQ(kept(r), (std::vector<int>{1, 2, 3}));
  r.push(4);
  EXPECT_EQ(kept(r), (std::vector<int>{1, 2, 3, 4}));
  r.push(5);
  EXPECT_EQ(kept(r), (std::vector<int>{2, 3, 4, 5}));
  // Every wrap-around position: after v pushes the ring holds v-3 .. v.
  for (int v = 6; v <= 23; ++v) {
    r.push(v);
    EXPECT_EQ(kept(r), (std::vector<int>{v - 3, v - 2, v - 1, v})) << "after " << v;
  }
  EXPECT_EQ(r.size(), 4u);
}

TEST(RecentValues, SearchTimesStayBounded) {
  RecentValues<double, kSearchTimesKept> r;
  for (int i = 0; i < 3 * static_cast<int>(kSearchTimesKept) + 17; ++i) r.push(i);
  ASSERT_EQ(r.values().size(), kSearchTimesKept);
  EXPECT_EQ(r.values().front(), 2.0 * kSearchTimesKept + 17);
  EXPECT_EQ(r.values().back(), 3.0 * kSearchTimesKept + 16);
}

}  // namespace
}  // namespace voxnav::detail
