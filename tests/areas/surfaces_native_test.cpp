// Surface costs and area filters on a real region (1.16 r.0.-1.mca): a road laid along a detour is
// taken by a profile whose surface malus makes it cheaper and ignored by one without; one set of
// navigation data read through two area filters gives two routes; A* stays optimal under negative
// surface costs (compared with a Dijkstra over the same move graph and the same integer costs);
// surface planes follow edits exactly; bad areas are refused and change nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

const std::string kRegion = std::string(VOXNAV_SHARED_DATA) + "/minecraft/regions/1.16/r.0.-1.mca";

CellPos pos(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }
CellPos cell(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }

struct Region {
  std::unique_ptr<World> w;
  ProfileId walker;
  std::vector<CellPos> standable;  // every standable cell, chunk order
  explicit Region(const std::string& path = kRegion) {
    w = test::load_region(path, &walker);
    if (!w) return;
    const detail::NavGrid& g = detail::WorldAccess::state(*w).walker()->grid();
    for (const detail::NavChunk* ch : g.ordered_chunks()) {
      if (ch->uniform) continue;
      for (int i = 0; i < detail::kChunkCells; ++i)
        if (detail::kind_standable(ch->kind_at(i))) standable.push_back(detail::cell_of(ch, i));
    }
  }
  const detail::NavGrid& grid() const { return detail::WorldAccess::state(*w).walker()->grid(); }
  PathResult path(ProfileId p, CellPos a, CellPos b, const AreaFilter& f = AreaFilter{}) {
    NavRequest q;
    q.profile = p;
    q.start = pos(a);
    q.goal = pos(b);
    q.filter = f;
    PathResult r;
    EXPECT_EQ(w->find_path_now(q, &r), Status::Ok);
    return r;
  }
  std::uint16_t value(const std::string& state) {
    std::uint16_t v = 0;
    EXPECT_EQ(w->block_value(state, &v), Status::Ok) << state;
    return v;
  }
  // The block a body standing in c stands on (the cell below for full-block ground).
  std::string surface_name(const CellPos& c) {
    std::uint16_t v = 0;
    EXPECT_EQ(w->get_block({c.x, c.y - 1, c.z}, &v), Status::Ok);
    return detail::WorldAccess::state(*w).registry.type(v).name;
  }
};

bool ready(const PathResult& r) { return r.status.state == PathState::Ready && !r.status.partial; }

double fraction_on(Region& r, const PathResult& p, const std::string& block) {
  if (p.cells.size() < 2) return 0;
  std::size_t on = 0;
  for (std::size_t i = 1; i < p.cells.size(); ++i)
    on += r.surface_name(cell(p.cells[i].cell)) == block;
  return static_cast<double>(on) / static_cast<double>(p.cells.size() - 1);
}

// Lays a road of gravel under a detour between two cells: the cells of a route from a to b via a
// point beside the straight route, where the ground is a plain full block (grass, dirt, stone ...,
// so the geometry does not change), leaving the first and last 3 cells. Returns the pair and the
// road's cells, or false when no such detour was found.
struct Road {
  CellPos a, b;
  std::vector<CellPos> cells;
  PathResult before;  // the walker's route before the road
};
bool lay_road(Region& r, Road& out) {
  tools::SplitMix64 rng{0x20AD};
  const std::uint16_t gravel = r.value("gravel");
  const detail::BlockRegistry& reg = detail::WorldAccess::state(*r.w).registry;
  for (int attempt = 0; attempt < 400; ++attempt) {
    const CellPos a = r.standable[rng.below(static_cast<std::uint32_t>(r.standable.size()))];
    const CellPos b = r.standable[rng.below(static_cast<std::uint32_t>(r.standable.size()))];
    const int dx = b.x - a.x, dz = b.z - a.z;
    const int d = std::max(std::abs(dx), std::abs(dz));
    if (d < 24 || d > 40) continue;
    const PathResult p0 = r.path(r.walker, a, b);
    if (!ready(p0)) continue;
    // A via cell 8 cells to the side of the midpoint.
    const CellPos mid = cell(p0.cells[p0.cells.size() / 2].cell);
    const double len = std::sqrt(double(dx * dx + dz * dz));
    const int sx = static_cast<int>(std::lround(-dz / len * 8)),
              sz = static_cast<int>(std::lround(dx / len * 8));
    CellPos via{};
    bool found = false;
    for (int dy = 4; dy >= -4 && !found; --dy) {
      const CellPos c{mid.x + sx, mid.y + dy, mid.z + sz};
      if (r.grid().standable(c)) via = c, found = true;
    }
    if (!found) continue;
    const PathResult p1 = r.path(r.walker, a, via), p2 = r.path(r.walker, via, b);
    if (!ready(p1) || !ready(p2)) continue;
    std::vector<CellPos> route;
    for (const PathCell& pc : p1.cells) route.push_back(cell(pc.cell));
    for (std::size_t i = 1; i < p2.cells.size(); ++i) route.push_back(cell(p2.cells[i].cell));
    if (route.size() > p0.cells.size() * 16 / 10) continue;
    std::size_t shared = 0;
    for (const CellPos& c : route)
      for (const PathCell& q : p0.cells)
        if (cell(q.cell) == c) ++shared;
    if (shared * 2 > route.size()) continue;
    std::vector<CellPos> road;
    for (std::size_t i = 3; i + 3 < route.size(); ++i) {
      const CellPos under{route[i].x, route[i].y - 1, route[i].z};
      std::uint16_t v = 0;
      if (r.w->get_block(pos(under), &v) != Status::Ok) continue;
      if (reg.traits(v) || reg.top_in_footprint(v, 19) != detail::kHeightUnits ||
          reg.type(v).boxes.size() != 1)
        continue;  // not a plain full block
      std::uint16_t own = 0;
      if (r.w->get_block(pos(route[i]), &own) != Status::Ok || reg.has_collision(own)) continue;
      road.push_back(under);
    }
    if (road.size() * 10 < (route.size() - 6) * 8) continue;  // most of it
    for (const CellPos& u : road) EXPECT_EQ(r.w->set_block(pos(u), gravel), Status::Ok);
    r.w->update();
    out.a = a;
    out.b = b;
    out.cells = road;
    out.before = p0;
    return true;
  }
  return false;
}

TEST(Surfaces, RoadIsPreferredByTheProfileThatLikesIt) {
  Region r;
  ASSERT_TRUE(r.w);
  Road road;
  ASSERT_TRUE(lay_road(r, road));
  Profile guard;
  guard.id = "guard";
  guard.surface_malus = {SurfaceMalus{{"gravel"}, -0.5}};
  ProfileId gid;
  std::string err;
  ASSERT_EQ(r.w->add_profile(guard, &gid, &err), Status::Ok) << err;
  const PathResult walk = r.path(r.walker, road.a, road.b);
  const PathResult g = r.path(gid, road.a, road.b);
  ASSERT_TRUE(ready(walk));
  ASSERT_TRUE(ready(g));
  const double fw = fraction_on(r, walk, "gravel"), fg = fraction_on(r, g, "gravel");
  std::printf(
      "road of %zu cells: walker %zu cells (%.0f %% on gravel, cost %u), guard %zu cells (%.0f %% "
      "on gravel, cost %u)\n",
      road.cells.size(), walk.cells.size(), 100 * fw, walk.status.cost, g.cells.size(), 100 * fg,
      g.status.cost);
  // The walker ignores the road (its route is the one before the road was laid); the guard takes
  // it.
  EXPECT_EQ(walk.status.cost, road.before.status.cost);
  EXPECT_GE(fg, 0.6);
  EXPECT_GE(fg, fw + 0.3);
  EXPECT_GT(g.cells.size(), walk.cells.size());  // a longer route ...
  EXPECT_LT(g.status.cost, walk.status.cost);    // ... that costs it less
}

TEST(Surfaces, TwoFiltersGiveTwoRoutesFromOneSetOfNavigationData) {
  Region r;
  ASSERT_TRUE(r.w);
  Road road;
  ASSERT_TRUE(lay_road(r, road));
  AreaId area;
  std::string err;
  const std::string gravel[] = {"minecraft:gravel"};
  ASSERT_EQ(r.w->define_area("road", gravel, -0.5, &area, &err), Status::Ok) << err;
  AreaId found;
  ASSERT_EQ(r.w->find_area("road", &found), Status::Ok);
  EXPECT_EQ(found.index, area.index);
  const std::uint64_t layers = detail::WorldAccess::state(*r.w).walker()->layers_version();
  AreaFilter takes_road;  // the default: the area as defined
  AreaFilter avoids_road;
  avoids_road.excluded = 1u << area.index;
  AreaFilter dislikes_road;
  dislikes_road.multiplier[area.index] = -4.0;  // out of range: refused
  const PathResult p1 = r.path(r.walker, road.a, road.b, takes_road);
  const PathResult p2 = r.path(r.walker, road.a, road.b, avoids_road);
  ASSERT_TRUE(ready(p1));
  ASSERT_TRUE(ready(p2));
  EXPECT_EQ(detail::WorldAccess::state(*r.w).walker()->layers_version(), layers) << "filters rebuild nothing";
  const double f1 = fraction_on(r, p1, "gravel"), f2 = fraction_on(r, p2, "gravel");
  std::printf(
      "filter 'as defined': %zu cells, %.0f %% on the road; filter 'exclude road': %zu cells, %.0f "
      "%%\n",
      p1.cells.size(), 100 * f1, p2.cells.size(), 100 * f2);
  EXPECT_GE(f1, 0.6);
  EXPECT_EQ(f2, 0.0);
  // The pulled corridor of the excluding request never crosses the road either: every point of
  // every straight segment (sampled each 1/8 cell) stands on something other than gravel.
  int crossings = 0;
  for (std::size_t k = 0; k + 1 < p2.waypoints.size(); ++k) {
    const Vec3 u = p2.waypoints[k].position, v = p2.waypoints[k + 1].position;
    const int n = 8 * static_cast<int>(std::ceil(std::max(std::abs(v.x - u.x), std::abs(v.z - u.z)))) + 1;
    for (int i = 0; i <= n; ++i) {
      const double t = static_cast<double>(i) / n;
      const CellPos c{static_cast<int>(std::floor(u.x + (v.x - u.x) * t)), p2.waypoints[k + 1].cell.y,
                   static_cast<int>(std::floor(u.z + (v.z - u.z) * t))};
      if (p2.waypoints[k].cell.y == p2.waypoints[k + 1].cell.y && r.surface_name(c) == "gravel") ++crossings;
    }
  }
  EXPECT_EQ(crossings, 0) << "a pulled segment crosses the excluded road";
  EXPECT_NE(p1.cells.size(), p2.cells.size());
  NavRequest q;
  q.profile = r.walker;
  q.start = pos(road.a);
  q.goal = pos(road.b);
  q.filter = dislikes_road;
  PathResult bad;
  EXPECT_EQ(r.w->find_path_now(q, &bad), Status::InvalidArgument);
}

// Dijkstra over the move words with the search's own cost rules: the optimal cost from a to b.
std::uint64_t dijkstra(const detail::NavGrid& g, const detail::CostTable& costs, CellPos a, CellPos b) {
  detail::CostTable base = costs;
  base.kind_extra.fill(0);
  std::unordered_map<std::uint64_t, std::uint64_t> dist;  // lookup only (the queue orders)
  using Item = std::pair<std::uint64_t, std::uint64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  auto decode = [](std::uint64_t k) {
    return CellPos{static_cast<int>(k & 0x3FFFFFF) - detail::kMaxHorizontal,
                static_cast<int>(k >> 52) - detail::kMaxVertical,
                static_cast<int>((k >> 26) & 0x3FFFFFF) - detail::kMaxHorizontal};
  };
  dist[detail::cell_key(a)] = 0;
  pq.push({0, detail::cell_key(a)});
  const std::uint64_t goal = detail::cell_key(b);
  while (!pq.empty()) {
    const std::uint64_t d = pq.top().first, k = pq.top().second;  // (lambdas capture these)
    pq.pop();
    if (dist[k] != d) continue;
    if (k == goal) return d;
    const CellPos c = decode(k);
    detail::NavChunk* ch = g.chunk(detail::chunk_of(c));
    detail::for_each_move(ch, detail::index_in_chunk(c), c,
                          [&](detail::NavChunk* tc, int ti, const CellPos& t, int dir, int code) {
                            if (detail::kMoveCodes[code].kind == EdgeKind::Drop &&
                                -detail::kMoveCodes[code].dy > costs.max_drop)
                              return;
                            const std::uint32_t mv =
                                detail::move_cost(base, dir, code, detail::CellKind::Walkable);
                            std::uint32_t c2 = detail::move_cost(costs, dir, code, tc->kind_at(ti));
                            if (c2 == detail::kCostImpassable) return;
                            if (costs.surface && tc->surface)
                              c2 = detail::with_surface(c2, mv, (*costs.surface)[tc->surface[ti]]);
                            if (c2 == detail::kCostImpassable) return;
                            const std::uint64_t nd = d + c2;
                            const std::uint64_t tk = detail::cell_key(t);
                            auto it = dist.find(tk);
                            if (it == dist.end() || nd < it->second) {
                              dist[tk] = nd;
                              pq.push({nd, tk});
                            }
                          });
  }
  return UINT64_MAX;
}

TEST(Surfaces, SearchStaysOptimalUnderNegativeSurfaceCosts) {
  Region r;
  ASSERT_TRUE(r.w);
  std::string err;
  AreaId cheap, dear;
  const std::string cheap_blocks[] = {"grass_block", "dirt", "gravel", "sand"};
  const std::string dear_blocks[] = {"stone", "andesite", "diorite", "granite", "coarse_dirt"};
  ASSERT_EQ(r.w->define_area("cheap", cheap_blocks, -0.6, &cheap, &err), Status::Ok) << err;
  ASSERT_EQ(r.w->define_area("dear", dear_blocks, 1.5, &dear, &err), Status::Ok) << err;
  Profile p;
  p.id = "miner";
  p.surface_malus = {SurfaceMalus{{"stone"}, -0.3}, SurfaceMalus{{"grass_block"}, 0.25}};
  ProfileId pid;
  ASSERT_EQ(r.w->add_profile(p, &pid, &err), Status::Ok) << err;
  tools::SplitMix64 rng{0xD1A};
  const detail::NavGrid& g = r.grid();
  int checked = 0, cheaper = 0;
  const auto n = static_cast<std::uint32_t>(r.standable.size());
  for (int k = 0; k < 4000 && checked < 60; ++k) {
    // Pairs near each other (cells in chunk order: a nearby index is usually a nearby cell).
    const std::uint32_t ia = rng.below(n);
    const std::uint32_t ib = std::min(n - 1, ia + rng.below(3000));
    const CellPos a = r.standable[ia];
    const CellPos b = r.standable[ib];
    if (std::max(std::abs(a.x - b.x), std::abs(a.z - b.z)) > 32) continue;
    for (ProfileId prof : {r.walker, pid}) {
      NavRequest q;
      q.profile = prof;
      q.start = pos(a);
      q.goal = pos(b);
      const detail::AgentMotion& m =
          detail::WorldAccess::state(*r.w).agents.motion(detail::WorldAccess::state(*r.w).profile_motion[prof.index]);
      PathResult res;
      ASSERT_EQ(r.w->find_path_now(q, &res), Status::Ok);
      const std::uint64_t best = dijkstra(g, m.costs, a, b);
      if (best == UINT64_MAX) {
        EXPECT_NE(res.status.state, PathState::Ready);
        continue;
      }
      ASSERT_EQ(res.status.state, PathState::Ready) << test::str(a) << " -> " << test::str(b);
      EXPECT_EQ(res.status.cost, best) << test::str(a) << " -> " << test::str(b);
      ++checked;
      const std::uint32_t octile = detail::octile(b.x - a.x, b.z - a.z);
      cheaper += res.status.cost < octile;
    }
  }
  std::printf("%d routes compared with Dijkstra, %d of them cheaper than their straight distance\n",
              checked, cheaper);
  EXPECT_GE(checked, 60);
  EXPECT_GT(cheaper, 0) << "the negative costs were never used";
}

TEST(Surfaces, PlanesFollowEditsExactly) {
  Region r;
  ASSERT_TRUE(r.w);
  std::string err;
  AreaId road;
  const std::string blocks[] = {"gravel", "sand"};
  ASSERT_EQ(r.w->define_area("road", blocks, -0.5, &road, &err), Status::Ok) << err;
  tools::SplitMix64 rng{0xE0};
  const std::uint16_t vals[] = {r.value("gravel"), r.value("sand"), r.value("stone"),
                                r.value("air"), r.value("oak_slab[type=bottom]")};
  for (int e = 0; e < 600; ++e) {
    const CellPos c = r.standable[rng.below(static_cast<std::uint32_t>(r.standable.size()))];
    const CellPos at{c.x, c.y - static_cast<int>(rng.below(2)), c.z};
    ASSERT_EQ(r.w->set_block(pos(at), vals[rng.below(5)]), Status::Ok);
    if (e % 7 == 0) r.w->update();
  }
  r.w->update();
  ProfileId fpid;
  std::unique_ptr<World> fresh = test::fresh_copy(*r.w, &fpid);
  AreaId froad;
  ASSERT_EQ(fresh->define_area("road", blocks, -0.5, &froad, &err), Status::Ok) << err;
  fresh->update();
  const detail::NavGrid& a = r.grid();
  const detail::NavGrid& b = detail::WorldAccess::state(*fresh).walker()->grid();
  std::size_t cells = 0, diffs = 0, grouped = 0;
  for (const detail::NavChunk* cb : b.ordered_chunks()) {
    const detail::NavChunk* ca = a.chunk(cb->pos);
    ASSERT_NE(ca, nullptr);
    for (int i = 0; i < detail::kChunkCells; ++i) {
      ++cells;
      grouped += cb->surface_at(i) != 0;
      if (ca->surface_at(i) != cb->surface_at(i) && ++diffs <= 5)
        ADD_FAILURE() << "surface of " << test::str(detail::cell_of(cb, i)) << ": "
                      << int(ca->surface_at(i)) << " after edits, " << int(cb->surface_at(i))
                      << " built fresh";
    }
  }
  std::printf("%zu cells compared, %zu on the road's blocks, %zu differences\n", cells, grouped,
              diffs);
  EXPECT_EQ(diffs, 0u);
  EXPECT_GT(grouped, 100u);
}

TEST(Surfaces, BadAreasAreRefusedAndChangeNothing) {
  Region r;
  ASSERT_TRUE(r.w);
  std::string err;
  AreaId id;
  const std::string ok[] = {"gravel"};
  const std::string unknown[] = {"gravel", "no_such_block"};
  const std::string empty_name[] = {""};
  EXPECT_EQ(r.w->define_area("road", unknown, 1.0, &id, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("blocks[1]: unknown block name \"no_such_block\""), std::string::npos) << err;
  EXPECT_EQ(r.w->define_area("road", empty_name, 1.0, &id, &err), Status::InvalidArgument);
  EXPECT_EQ(r.w->define_area("road", std::span<const std::string>{}, 1.0, &id, &err),
            Status::InvalidArgument);
  EXPECT_EQ(r.w->define_area("road", ok, -0.7, &id, &err), Status::InvalidArgument);
  EXPECT_EQ(r.w->define_area("road", ok, std::nan(""), &id, &err), Status::InvalidArgument);
  EXPECT_EQ(r.w->define_area("", ok, 1.0, &id, &err), Status::InvalidArgument);
  EXPECT_EQ(r.w->define_area("road", ok, 1.0, nullptr, &err), Status::InvalidArgument);
  EXPECT_EQ(r.w->find_area("road", &id), Status::NotFound);
  EXPECT_EQ(detail::WorldAccess::state(*r.w).areas.size(), 0u);
  EXPECT_EQ(detail::WorldAccess::state(*r.w).masks.size(), 0u);
  ASSERT_EQ(r.w->define_area("road", ok, 1.0, &id, &err), Status::Ok) << err;
  EXPECT_EQ(r.w->define_area("road", ok, 1.0, &id, &err), Status::InvalidArgument);
  EXPECT_NE(err.find("already defined"), std::string::npos) << err;
  for (int k = 1; k < 32; ++k)
    ASSERT_EQ(r.w->define_area("a" + std::to_string(k), ok, 1.0, &id, &err), Status::Ok);
  EXPECT_EQ(r.w->define_area("one_too_many", ok, 1.0, &id, &err), Status::InvalidArgument);
  EXPECT_EQ(detail::WorldAccess::state(*r.w).areas.size(), 32u);
}

}  // namespace
}  // namespace voxnav
