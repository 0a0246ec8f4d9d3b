// Checks shared by the saved-navigation suites (tests/save): two Worlds whose navigation must be
// the same, plane by plane and label by label, and answer the same routes.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "engine/nav/world_state.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav::test {

/// What a World looks like from outside, to check that a refused import changed nothing.
struct WorldSnapshot {
  std::size_t chunks = 0, nav_chunks = 0, islands = 0, navs = 0;
  std::uint64_t serial = 0, epoch = 0, standable = 0;
  bool operator==(const WorldSnapshot&) const = default;
};
inline WorldSnapshot snapshot(World& w) {
  detail::WorldState& st = detail::WorldAccess::state(w);
  WorldSnapshot s;
  s.chunks = st.space.chunk_count();
  s.serial = st.space.serial();
  s.epoch = w.nav_epoch();
  s.navs = st.navs().size();
  s.nav_chunks = st.walker()->grid().chunk_count();
  s.islands = st.walker()->islands().component_count();
  s.standable = w.stats().standable_cells;
  return s;
}

/// Byte-exact equality of n elements of two planes (both null counts as equal).
template <class T>
bool same_plane(const T* a, const T* b, std::size_t n) {
  if (!a || !b) return a == b;
  return std::memcmp(a, b, n * sizeof(T)) == 0;
}
/// The same for a plane stored by cell row: the same cell values (a row may be stored whole on
/// one side and as one value on the other).
template <class T>
bool same_plane(const detail::LayerPlane<T>& a, const detail::LayerPlane<T>& b, std::size_t n) {
  if (!a || !b) return bool(a) == bool(b);
  for (std::size_t i = 0; i < n; ++i)
    if (a[static_cast<int>(i)] != b[static_cast<int>(i)]) return false;
  return true;
}

/// Every class of `built` has navigation in `imported` with the same chunks, the same planes byte
/// for byte (kinds, floors, clearances, move words, vertical moves, flags, gap jumps, surfaces,
/// island labels), the same counters, and the same island tables (union-find, sizes, gates, DAG).
inline void expect_same_navigation(World& built, World& imported) {
  detail::WorldState& a = detail::WorldAccess::state(built);
  detail::WorldState& b = detail::WorldAccess::state(imported);
  for (std::uint32_t s = 0; s < detail::WorldState::kClassSlots; ++s) {
    detail::NavWorld* na = a.nav_of_slot(s);
    detail::NavWorld* nb = b.nav_of_slot(s);
    ASSERT_EQ(na == nullptr, nb == nullptr) << "class slot " << s;
    if (!na) continue;
    ASSERT_EQ(na->grid().chunk_count(), nb->grid().chunk_count()) << "slot " << s;
    std::size_t differing = 0;
    std::string first;
    for (const detail::NavChunk* ca : na->grid().ordered_chunks()) {
      const detail::NavChunk* cb = nb->grid().chunk(ca->pos);
      if (!cb) {
        ++differing;
        if (first.empty()) first = "missing " + str(ca->pos);
        continue;
      }
      constexpr std::size_t n = detail::kChunkCells;
      const bool same = ca->uniform == cb->uniform && ca->uniform_kind == cb->uniform_kind &&
                        ca->nodes == cb->nodes && ca->hazard_cells == cb->hazard_cells &&
                        ca->climb_cells == cb->climb_cells && ca->costly == cb->costly &&
                        same_plane(ca->kind, cb->kind, n) &&
                        same_plane(ca->floor, cb->floor, n) &&
                        same_plane(ca->clear, cb->clear, n) &&
                        same_plane(ca->moves, cb->moves, n) &&
                        same_plane(ca->vmoves.get(), cb->vmoves.get(), n) &&
                        same_plane(ca->flags.get(), cb->flags.get(), n) &&
                        same_plane(ca->gaps, cb->gaps, n) &&
                        same_plane(ca->surface.get(), cb->surface.get(), n) &&
                        same_plane(ca->scc, cb->scc, n);
      if (!same) {
        ++differing;
        if (first.empty()) first = "planes of " + str(ca->pos);
      }
      for (int k = 0; k < 27; ++k)
        if ((ca->nb[k] == nullptr) != (cb->nb[k] == nullptr) ||
            (ca->nb[k] && !(ca->nb[k]->pos == cb->nb[k]->pos))) {
          ++differing;
          if (first.empty()) first = "neighbour links of " + str(ca->pos);
          break;
        }
    }
    EXPECT_EQ(differing, 0u) << "slot " << s << ": first difference: " << first;
    detail::IslandTables ta, tb;
    na->islands().save_tables(ta);
    nb->islands().save_tables(tb);
    EXPECT_EQ(ta.parent, tb.parent) << "slot " << s;
    EXPECT_EQ(ta.size, tb.size) << "slot " << s;
    EXPECT_EQ(ta.gate, tb.gate) << "slot " << s;
    EXPECT_EQ(ta.out_start, tb.out_start) << "slot " << s;
    EXPECT_EQ(ta.out_to, tb.out_to) << "slot " << s;
    EXPECT_EQ(ta.out_count, tb.out_count) << "slot " << s;
    EXPECT_EQ(ta.cells, tb.cells);
    EXPECT_EQ(ta.live, tb.live);
    EXPECT_EQ(ta.label_limit, tb.label_limit);
  }
  EXPECT_EQ(built.stats().islands, imported.stats().islands);
  EXPECT_EQ(built.stats().standable_cells, imported.stats().standable_cells);
}

/// `pairs` random pairs of standable cells of the walker class (seeded): the same reachability
/// answer, the same route status, cost, cells and corridor in both Worlds. Returns the routes
/// found.
inline std::size_t expect_same_routes(World& built, ProfileId pa, World& imported, ProfileId pb,
                                      int pairs, std::uint64_t seed) {
  const std::vector<CellPos> cells =
      standable_cells(detail::WorldAccess::state(built).walker()->grid());
  if (cells.size() < 2) return 0;
  tools::SplitMix64 rng(seed);
  std::size_t found = 0;
  for (int k = 0; k < pairs; ++k) {
    NavRequest ra;
    ra.profile = pa;
    const std::size_t si = rng.below<std::size_t>(cells.size());
    ra.start = cells[si];
    // Every other goal is a near one (cells are in chunk order: within a few hundred indices lie
    // the same and the next chunks), the others anywhere.
    ra.goal = (k & 1) ? cells[std::min(cells.size() - 1, si + rng.below<std::size_t>(400))]
                      : cells[rng.below<std::size_t>(cells.size())];
    NavRequest rb = ra;
    rb.profile = pb;
    Reach xa{}, xb{};
    EXPECT_EQ(built.reachable(pa, ra.start, ra.goal, &xa), Status::Ok);
    EXPECT_EQ(imported.reachable(pb, ra.start, ra.goal, &xb), Status::Ok);
    EXPECT_EQ(xa.answer, xb.answer) << str(ra.start) << " -> " << str(ra.goal);
    PathResult a, b;
    EXPECT_EQ(built.find_path_now(ra, &a), Status::Ok);
    EXPECT_EQ(imported.find_path_now(rb, &b), Status::Ok);
    EXPECT_EQ(a.status.state, b.status.state) << str(ra.start) << " -> " << str(ra.goal);
    EXPECT_EQ(a.status.failure, b.status.failure);
    EXPECT_EQ(a.status.cost, b.status.cost);
    EXPECT_EQ(a.status.nodes_expanded, b.status.nodes_expanded);
    EXPECT_EQ(a.cells.size(), b.cells.size()) << str(ra.start) << " -> " << str(ra.goal);
    if (a.cells.size() != b.cells.size() || a.waypoints.size() != b.waypoints.size()) continue;
    for (std::size_t i = 0; i < a.cells.size(); ++i) {
      EXPECT_TRUE(a.cells[i].cell == b.cells[i].cell && a.cells[i].kind == b.cells[i].kind)
          << "cell " << i << " of " << str(ra.start) << " -> " << str(ra.goal);
    }
    EXPECT_EQ(a.waypoints.size(), b.waypoints.size());
    for (std::size_t i = 0; i < a.waypoints.size(); ++i)
      EXPECT_TRUE(a.waypoints[i].position.x == b.waypoints[i].position.x &&
                  a.waypoints[i].position.y == b.waypoints[i].position.y &&
                  a.waypoints[i].position.z == b.waypoints[i].position.z);
    found += a.status.state == PathState::Ready;
  }
  return found;
}

}  // namespace voxnav::test
