// The public World API on a real Moving AI map (arena.map) loaded chunk by chunk through
// World::load_chunk with the real Minecraft block registry (World::load_minecraft_blocks on the
// JSON bytes of data/blocks): request / status / corridor / path_cells / release lifecycle,
// request_toward with a tiny budget, bad input (each with its Status and the world unchanged),
// and lockstep delivery. Runs natively and in wasm (files read with std::ifstream; NODERAWFS).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/io/movingai.h"
#include "scenes.h"
#include "voxnav/columns.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

const std::string kBlocksDir = std::string(VOXNAV_FIXTURES) + "/../../data/blocks/";
const std::string kMovingAi = std::string(VOXNAV_SHARED_DATA) + "/movingai-2d/";

using test::read_bytes;

/// The registry JSON and the map, read once.
struct Inputs {
  std::vector<std::uint8_t> blocks, shapes;
  detail::MovingAiMap map;
  std::vector<detail::MovingAiScenario> rows;
  Inputs() {
    blocks = read_bytes(kBlocksDir + "blocks.pc-1.21.1.json");
    shapes = read_bytes(kBlocksDir + "blockCollisionShapes.pc-1.20.5.json");
    const std::vector<std::uint8_t> m = read_bytes(kMovingAi + "maps/arena.map");
    const std::vector<std::uint8_t> s = read_bytes(kMovingAi + "scens/arena.map.scen");
    std::string msg;
    EXPECT_EQ(detail::parse_movingai_map(
                  std::string_view(reinterpret_cast<const char*>(m.data()), m.size()), map, msg),
              Status::Ok)
        << msg;
    EXPECT_EQ(detail::parse_movingai_scen(
                  std::string_view(reinterpret_cast<const char*>(s.data()), s.size()), rows, msg),
              Status::Ok)
        << msg;
  }
};
const Inputs& inputs() {
  static const Inputs* in = new Inputs();
  return *in;
}

int chunks_x() { return (inputs().map.width + 15) / 16; }
int chunks_z() { return (inputs().map.height + 15) / 16; }

/// Chunk (cx, 0, cz) of the map's voxel world: a stone floor at y = 0 and stone columns y = 1..4
/// on blocked (and off-map) cells; chunk layer y = 1 is all air.
std::vector<std::uint16_t> map_chunk(int cx, int cy, int cz, std::uint16_t stone) {
  std::vector<std::uint16_t> v(kChunkValues, 0);
  if (cy != 0) return v;
  const detail::MovingAiMap& m = inputs().map;
  for (int y = 0; y < 16; ++y)
    for (int z = 0; z < 16; ++z)
      for (int x = 0; x < 16; ++x) {
        const int wx = cx * 16 + x, wz = cz * 16 + z;
        const bool wall = y >= 1 && y <= 4 && !m.passable(wx, wz);
        if (y == 0 || wall) v[static_cast<std::size_t>(x + 16 * (z + 16 * y))] = stone;
      }
  return v;
}

struct ApiWorld {
  std::unique_ptr<World> w;
  ProfileId pid;
  std::uint16_t stone = 0;
};

/// A World with the real registry and the map loaded through load_chunk, navigation built.
ApiWorld make_world(const WorldDef& def = {}) {
  ApiWorld a;
  a.w = std::make_unique<World>(def);
  std::string err;
  EXPECT_EQ(a.w->load_minecraft_blocks(inputs().blocks, inputs().shapes, &err), Status::Ok) << err;
  EXPECT_EQ(a.w->block_value("stone", &a.stone), Status::Ok);
  EXPECT_NE(a.stone, 0);
  for (int cy = 0; cy <= 1; ++cy)
    for (int cz = 0; cz < chunks_z(); ++cz)
      for (int cx = 0; cx < chunks_x(); ++cx)
        EXPECT_EQ(a.w->load_chunk(ChunkPos{cx, cy, cz}, map_chunk(cx, cy, cz, a.stone)),
                  Status::Ok);
  EXPECT_EQ(a.w->add_profile(Profile{}, &a.pid, &err), Status::Ok) << err;
  a.w->update();
  return a;
}

CellPos stand(int x, int y) { return CellPos{x, detail::kMovingAiStandY, y}; }

/// The scenario row with the longest optimal length (a route across the arena).
const detail::MovingAiScenario& longest_row() {
  const auto& rows = inputs().rows;
  std::size_t best = 0;
  for (std::size_t i = 1; i < rows.size(); ++i)
    if (rows[i].optimal > rows[best].optimal) best = i;
  return rows[best];
}

/// The scenario row whose search expands the most nodes (a route with a detour).
/// The Moving AI length of a cell path on one level: 1 per straight step, sqrt 2 per diagonal.
double octile_length(const std::vector<PathCell>& cells) {
  double len = 0;
  for (std::size_t i = 1; i < cells.size(); ++i)
    len += (cells[i].cell.x != cells[i - 1].cell.x && cells[i].cell.z != cells[i - 1].cell.z)
               ? std::sqrt(2.0)
               : 1.0;
  return len;
}

std::size_t hardest_row(World& w, ProfileId pid, std::uint32_t* expanded);

NavRequest route(ProfileId pid, const detail::MovingAiScenario& r, bool toward = false) {
  NavRequest q;
  q.profile = pid;
  q.start = stand(r.start_x, r.start_y);
  q.goal = stand(r.goal_x, r.goal_y);
  q.toward = toward;
  return q;
}

int octile_cells(CellPos a, CellPos b) {  // octile distance in 1/1000 cells (integer compare)
  const int dx = std::abs(a.x - b.x), dz = std::abs(a.z - b.z);
  return std::min(dx, dz) * 1414 + (std::max(dx, dz) - std::min(dx, dz)) * 1000;
}

std::size_t hardest_row(World& w, ProfileId pid, std::uint32_t* expanded) {
  const auto& rows = inputs().rows;
  std::vector<PathHandle> hs(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    EXPECT_EQ(w.request(route(pid, rows[i]), &hs[i]), Status::Ok);
  w.update();
  w.update();
  std::size_t best = 0;
  *expanded = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    PathStatus ps;
    EXPECT_EQ(w.status(hs[i], &ps), Status::Ok);
    EXPECT_EQ(ps.state, PathState::Ready);
    if (ps.nodes_expanded > *expanded) *expanded = ps.nodes_expanded, best = i;
    EXPECT_EQ(w.release(hs[i]), Status::Ok);
  }
  return best;
}

TEST(NavApi, WorldBuiltThroughLoadChunk) {
  ApiWorld a = make_world();
  World& w = *a.w;
  EXPECT_GT(w.block_count(), 20000u) << "the real registry has one value per block state";
  const WorldStats st = w.stats();
  EXPECT_EQ(st.standable_cells >= inputs().map.passable_count(), true);
  const detail::MovingAiScenario& r = longest_row();
  EXPECT_TRUE(w.is_standable(a.pid, stand(r.start_x, r.start_y)));
  EXPECT_FALSE(w.is_standable(a.pid, CellPos{r.start_x, 0, r.start_y}));
  double feet = -1;
  ASSERT_EQ(w.standing_height(a.pid, stand(r.start_x, r.start_y), &feet), Status::Ok);
  EXPECT_EQ(feet, 1.0);
  EXPECT_EQ(w.standing_height(a.pid, CellPos{r.start_x, 3, r.start_y}, &feet), Status::NotFound);
  EXPECT_EQ(w.standing_height(a.pid, CellPos{5000, 1, 5000}, &feet), Status::NotLoaded);
  // nearest_standable: the first standable cell by (Chebyshev distance, y, z, x).
  for (const CellPos probe : {CellPos{r.start_x, 3, r.start_y}, CellPos{r.goal_x, 2, r.goal_y}}) {
    CellPos near{}, expect{};
    int best = 1000;
    for (int y = probe.y + 4; y >= probe.y - 4; --y)
      for (int z = probe.z + 4; z >= probe.z - 4; --z)
        for (int x = probe.x + 4; x >= probe.x - 4; --x) {
          const int d =
              std::max({std::abs(x - probe.x), std::abs(y - probe.y), std::abs(z - probe.z)});
          if (d <= best && w.is_standable(a.pid, CellPos{x, y, z}))
            best = d, expect = CellPos{x, y, z};
        }
    ASSERT_EQ(w.nearest_standable(a.pid, probe, 4, &near), Status::Ok);
    EXPECT_EQ(near, expect);
    EXPECT_EQ(near.y, 1);
  }
  CellPos none{};
  EXPECT_EQ(w.nearest_standable(a.pid, CellPos{r.start_x, 12, r.start_y}, 4, &none),
            Status::NotFound);
  const Reach reach = w.reachable(a.pid, stand(r.start_x, r.start_y), stand(r.goal_x, r.goal_y));
  EXPECT_EQ(reach.answer, ReachAnswer::Yes);
  EXPECT_EQ(reach.epoch, w.nav_epoch());
  std::uint16_t v = 99;
  ASSERT_EQ(w.get_block(CellPos{r.start_x, 0, r.start_y}, &v), Status::Ok);
  EXPECT_EQ(v, a.stone);
  ASSERT_EQ(w.get_block(stand(r.start_x, r.start_y), &v), Status::Ok);
  EXPECT_EQ(v, 0);
}

TEST(NavApi, RequestLifecycleCorridorAndRelease) {
  ApiWorld a = make_world();
  World& w = *a.w;
  const detail::MovingAiScenario& r = longest_row();
  PathHandle h;
  ASSERT_EQ(w.request(route(a.pid, r), &h), Status::Ok);
  EXPECT_NE(h.generation, 0u);
  PathStatus ps;
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Searching);
  std::size_t n = 0;
  EXPECT_EQ(w.corridor(h, nullptr, 0, &n), Status::Busy) << "no corridor before Ready";
  w.update();  // dispatches
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Searching);
  w.update();  // applies
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  ASSERT_EQ(ps.state, PathState::Ready);
  EXPECT_EQ(ps.failure, PathFailure::None);
  EXPECT_FALSE(ps.partial);
  EXPECT_GT(ps.nodes_expanded, 0u);
  EXPECT_GE(ps.cell_count, 2u);
  EXPECT_GE(ps.waypoint_count, 2u);
  EXPECT_LE(ps.waypoint_count, ps.cell_count);
  EXPECT_NEAR(ps.cost, r.optimal * 10000.0, r.optimal * 10000.0 * 1e-4)
      << "10000 per cell, 14142 per diagonal";

  // path_cells: count only, then a small capacity (count is the total, only `capacity` written).
  ASSERT_EQ(w.path_cells(h, nullptr, 0, &n), Status::Ok);
  EXPECT_EQ(n, ps.cell_count);
  PathCell few[3];
  few[2].cell = CellPos{-7, -7, -7};
  n = 0;
  ASSERT_EQ(w.path_cells(h, few, 2, &n), Status::Ok);
  EXPECT_EQ(n, ps.cell_count);
  EXPECT_EQ(few[0].cell, stand(r.start_x, r.start_y));
  EXPECT_EQ(few[0].kind, EdgeKind::Start);
  EXPECT_EQ(few[2].cell, (CellPos{-7, -7, -7})) << "wrote past capacity";
  std::vector<PathCell> cells(n);
  ASSERT_EQ(w.path_cells(h, cells.data(), cells.size(), &n), Status::Ok);
  EXPECT_EQ(cells.back().cell, stand(r.goal_x, r.goal_y));
  EXPECT_EQ(cells[1].cell, few[1].cell);
  EXPECT_NEAR(octile_length(cells), r.optimal, 1e-4 * r.optimal);

  // corridor: the same rules.
  ASSERT_EQ(w.corridor(h, nullptr, 0, &n), Status::Ok);
  EXPECT_EQ(n, ps.waypoint_count);
  Waypoint wp[2];
  wp[1].position = Vec3{-1, -1, -1};
  ASSERT_EQ(w.corridor(h, wp, 1, &n), Status::Ok);
  EXPECT_EQ(n, ps.waypoint_count);
  EXPECT_EQ(wp[0].cell, stand(r.start_x, r.start_y));
  EXPECT_EQ(wp[0].kind, EdgeKind::Start);
  EXPECT_EQ(wp[0].position.x, r.start_x + 0.5);
  EXPECT_EQ(wp[0].position.y, 1.0);
  EXPECT_EQ(wp[0].position.z, r.start_y + 0.5);
  EXPECT_EQ(wp[1].position.x, -1.0) << "wrote past capacity";
  std::vector<Waypoint> all(n);
  ASSERT_EQ(w.corridor(h, all.data(), all.size(), &n), Status::Ok);
  EXPECT_EQ(all.back().cell, stand(r.goal_x, r.goal_y));
  for (const Waypoint& p : all) EXPECT_TRUE(w.is_standable(a.pid, p.cell));

  // release: the handle goes stale, its slot is reused with a new generation.
  ASSERT_EQ(w.release(h), Status::Ok);
  EXPECT_EQ(w.status(h, &ps), Status::StaleHandle);
  EXPECT_EQ(w.release(h), Status::StaleHandle);
  EXPECT_EQ(w.path_cells(h, nullptr, 0, &n), Status::StaleHandle);
  EXPECT_EQ(w.corridor(h, nullptr, 0, &n), Status::StaleHandle);
  PathHandle h2;
  ASSERT_EQ(w.request(route(a.pid, r), &h2), Status::Ok);
  EXPECT_EQ(h2.index, h.index) << "the freed slot is reused";
  EXPECT_NE(h2.generation, h.generation);
  EXPECT_EQ(w.status(h, &ps), Status::StaleHandle)
      << "an old handle stays stale after its slot is reused";
  EXPECT_EQ(w.release(h), Status::StaleHandle);
  ASSERT_EQ(w.status(h2, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Searching);
  // Releasing a request still in flight is fine and it never comes back.
  w.update();
  ASSERT_EQ(w.release(h2), Status::Ok);
  w.update();
  w.update();
  EXPECT_EQ(w.status(h2, &ps), Status::StaleHandle);
  EXPECT_EQ(w.status(PathHandle{}, &ps), Status::StaleHandle);
  EXPECT_EQ(w.status(PathHandle{12345, 1}, &ps), Status::StaleHandle);
  EXPECT_EQ(w.release(PathHandle{}), Status::StaleHandle);
}

TEST(NavApi, FindPathNowMatchesARequestWithoutAdvancingTime) {
  ApiWorld a = make_world();
  World& w = *a.w;
  const detail::MovingAiScenario& r = longest_row();
  const WorldStats before = w.stats();
  PathResult now;
  ASSERT_EQ(w.find_path_now(route(a.pid, r), &now), Status::Ok);
  ASSERT_EQ(now.status.state, PathState::Ready);
  EXPECT_EQ(w.stats().searches, before.searches) << "not a request: not counted";

  // The same request through the queue gives the same status, cells and waypoints.
  PathHandle h;
  ASSERT_EQ(w.request(route(a.pid, r), &h), Status::Ok);
  w.update();
  w.update();
  PathStatus ps;
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  ASSERT_EQ(ps.state, PathState::Ready);
  EXPECT_EQ(now.status.cost, ps.cost);
  EXPECT_EQ(now.status.nodes_expanded, ps.nodes_expanded);
  EXPECT_EQ(now.status.cell_count, ps.cell_count);
  EXPECT_EQ(now.status.waypoint_count, ps.waypoint_count);
  std::vector<Waypoint> wps(ps.waypoint_count);
  std::size_t n = 0;
  ASSERT_EQ(w.corridor(h, wps.data(), wps.size(), &n), Status::Ok);
  ASSERT_EQ(now.waypoints.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(now.waypoints[i].cell, wps[i].cell);
    EXPECT_EQ(now.waypoints[i].kind, wps[i].kind);
    EXPECT_EQ(now.waypoints[i].position.x, wps[i].position.x);
    EXPECT_EQ(now.waypoints[i].position.y, wps[i].position.y);
    EXPECT_EQ(now.waypoints[i].position.z, wps[i].position.z);
  }
  ASSERT_EQ(now.cells.size(), ps.cell_count);
  EXPECT_EQ(now.cells.front().kind, EdgeKind::Start);
  EXPECT_EQ(now.cells.back().cell, stand(r.goal_x, r.goal_y));
  EXPECT_EQ(w.release(h), Status::Ok);

  // Failures without a search, and bad arguments.
  NavRequest into_wall = route(a.pid, r);
  into_wall.goal = CellPos{0, detail::kMovingAiStandY, 0};  // a wall cell of the arena
  ASSERT_EQ(w.find_path_now(into_wall, &now), Status::Ok);
  EXPECT_EQ(now.status.state, PathState::Failed);
  EXPECT_EQ(now.status.failure, PathFailure::BadGoal);
  EXPECT_TRUE(now.waypoints.empty() && now.cells.empty());
  NavRequest far = route(a.pid, r);
  far.goal = CellPos{5000, detail::kMovingAiStandY, 5000};
  ASSERT_EQ(w.find_path_now(far, &now), Status::Ok);
  EXPECT_EQ(now.status.failure, PathFailure::NotLoaded);
  NavRequest bad = route(a.pid, r);
  bad.goal_range = 65;
  EXPECT_EQ(w.find_path_now(bad, &now), Status::InvalidArgument);
  bad = route(ProfileId{7}, r);
  EXPECT_EQ(w.find_path_now(bad, &now), Status::InvalidArgument);
  bad = route(a.pid, r);
  bad.start = CellPos{1 << 25, 1, 0};
  EXPECT_EQ(w.find_path_now(bad, &now), Status::OutOfRange);
  EXPECT_EQ(w.find_path_now(route(a.pid, r), nullptr), Status::InvalidArgument);
}

TEST(NavApi, BlockValueIsStrictAboutProperties) {
  ApiWorld a = make_world();
  World& w = *a.w;
  std::uint16_t v = 0, top = 0;
  std::string err;
  EXPECT_EQ(w.block_value("oak_slab[type=top]", &top, &err), Status::Ok);
  EXPECT_TRUE(err.empty());
  EXPECT_EQ(w.block_value("minecraft:oak_slab[waterlogged=false,type=top]", &v), Status::Ok);
  EXPECT_EQ(v, top);
  EXPECT_EQ(w.block_value("oak_slab[type=diagonal]", &v, &err), Status::NotFound);
  EXPECT_EQ(err, "state \"oak_slab[type=diagonal]\" is not in the block registry: " "property \"type\" of block \"oak_slab\" has no value \"diagonal\" (values: top, "
            "bottom, double)");
  EXPECT_EQ(w.block_value("stone[foo=bar]", &v, &err), Status::NotFound);
  EXPECT_EQ(err, "state \"stone[foo=bar]\" is not in the block registry: " "block \"stone\" has no property \"foo\" (it has none)");
  EXPECT_EQ(w.block_value("oak_slab[type=top,type=top]", &v, &err), Status::NotFound);
  EXPECT_EQ(err, "state \"oak_slab[type=top,type=top]\" is not in the block registry: " "property \"type\" is given twice");
  EXPECT_EQ(w.block_value("no_such_block", &v, &err), Status::NotFound);
  EXPECT_EQ(err, "state \"no_such_block\" is not in the block registry: " "no block is named \"no_such_block\"");
  EXPECT_EQ(w.last_error().function, "block_value");
  EXPECT_EQ(w.last_error().argument, "state");
  EXPECT_EQ(w.last_error().message, err);
}

TEST(NavApi, ResultsApplyTogetherInRequestOrder) {
  ApiWorld a = make_world();
  World& w = *a.w;
  const auto& rows = inputs().rows;
  std::vector<PathHandle> hs;
  for (std::size_t i = 0; i < rows.size(); i += 13) {
    PathHandle h;
    ASSERT_EQ(w.request(route(a.pid, rows[i]), &h), Status::Ok);
    hs.push_back(h);
  }
  w.update();
  PathStatus ps;
  for (const PathHandle& h : hs) {
    ASSERT_EQ(w.status(h, &ps), Status::Ok);
    EXPECT_EQ(ps.state, PathState::Searching);
  }
  w.update();
  for (const PathHandle& h : hs) {
    ASSERT_EQ(w.status(h, &ps), Status::Ok);
    EXPECT_EQ(ps.state, PathState::Ready);
  }
  EXPECT_EQ(w.stats().searches, hs.size());
}

TEST(NavApi, SearchBudgetDispatchesOldestFirstAndKeepsResults) {
  ApiWorld a = make_world();
  World& w = *a.w;
  EXPECT_EQ(w.searches_per_update(), kDefaultSearchesPerUpdate);
  EXPECT_EQ(w.set_searches_per_update(-1), Status::InvalidArgument);
  EXPECT_EQ(w.set_searches_per_update(World::kMaxSearchesPerUpdate + 1), Status::InvalidArgument);
  EXPECT_EQ(w.searches_per_update(), kDefaultSearchesPerUpdate);  // refused: nothing changed
  // The same requests without a budget: their costs are the reference.
  ASSERT_EQ(w.set_searches_per_update(0), Status::Ok);
  const auto& rows = inputs().rows;
  std::vector<std::size_t> picked;
  for (std::size_t i = 0; i < rows.size(); i += 13) picked.push_back(i);
  ASSERT_GT(picked.size(), 8u);
  std::vector<PathHandle> ref(picked.size());
  for (std::size_t k = 0; k < picked.size(); ++k)
    ASSERT_EQ(w.request(route(a.pid, rows[picked[k]]), &ref[k]), Status::Ok);
  w.update();
  w.update();
  std::vector<std::uint32_t> cost(picked.size());
  PathStatus ps;
  for (std::size_t k = 0; k < picked.size(); ++k) {
    ASSERT_EQ(w.status(ref[k], &ps), Status::Ok);
    ASSERT_EQ(ps.state, PathState::Ready);
    cost[k] = ps.cost;
    ASSERT_EQ(w.release(ref[k]), Status::Ok);
  }
  // With 3 searches per update: update u dispatches requests 3(u-1) .. 3u-1, delivered at the
  // next update, in request order; every result equals the unbudgeted one.
  constexpr std::size_t kBudget = 3;
  ASSERT_EQ(w.set_searches_per_update(static_cast<int>(kBudget)), Status::Ok);
  EXPECT_EQ(w.searches_per_update(), static_cast<int>(kBudget));
  std::vector<PathHandle> hs(picked.size());
  for (std::size_t k = 0; k < picked.size(); ++k)
    ASSERT_EQ(w.request(route(a.pid, rows[picked[k]]), &hs[k]), Status::Ok);
  EXPECT_EQ(w.queued_requests(), picked.size());
  std::size_t updates = 0;
  for (std::size_t ready = 0; ready < picked.size();) {
    w.update();
    ++updates;
    ASSERT_LE(updates, picked.size());
    EXPECT_EQ(w.queued_requests(), picked.size() - std::min(picked.size(), kBudget * updates));
    ready = 0;
    for (std::size_t k = 0; k < picked.size(); ++k) {
      ASSERT_EQ(w.status(hs[k], &ps), Status::Ok);
      const bool should = k < kBudget * (updates - 1);
      EXPECT_EQ(ps.state, should ? PathState::Ready : PathState::Searching) << k << " " << updates;
      if (ps.state == PathState::Ready) {
        EXPECT_EQ(ps.cost, cost[k]) << k;
        ++ready;
      }
    }
  }
  EXPECT_EQ(updates, (picked.size() + kBudget - 1) / kBudget + 1);
}

TEST(NavApi, TinyBudgetTowardIsPartialPlainRequestExhausts) {
  ApiWorld a = make_world();
  World& w = *a.w;
  Profile tiny;
  tiny.id = "tiny";
  tiny.search_max_nodes = 50;
  ProfileId tid;
  std::string err;
  ASSERT_EQ(w.add_profile(tiny, &tid, &err), Status::Ok) << err;
  std::uint32_t most = 0;
  const detail::MovingAiScenario& r = inputs().rows[hardest_row(w, a.pid, &most)];
  ASSERT_GT(most, 100u) << "no arena row needs more than the tiny budget";
  PathHandle toward, plain;
  ASSERT_EQ(w.request_toward(route(tid, r), &toward), Status::Ok);
  ASSERT_EQ(w.request(route(tid, r, false), &plain), Status::Ok);
  w.update();
  w.update();
  PathStatus ps;
  ASSERT_EQ(w.status(toward, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Ready);
  EXPECT_TRUE(ps.partial);
  EXPECT_EQ(ps.failure, PathFailure::None);
  EXPECT_LE(ps.nodes_expanded, 50u);
  std::size_t n = 0;
  ASSERT_EQ(w.path_cells(toward, nullptr, 0, &n), Status::Ok);
  ASSERT_GE(n, 2u);
  std::vector<PathCell> cells(n);
  ASSERT_EQ(w.path_cells(toward, cells.data(), n, &n), Status::Ok);
  const CellPos start = stand(r.start_x, r.start_y), goal = stand(r.goal_x, r.goal_y);
  EXPECT_EQ(cells.front().cell, start);
  EXPECT_NE(cells.back().cell, goal);
  EXPECT_LT(octile_cells(cells.back().cell, goal), octile_cells(start, goal))
      << "a partial route gets closer";
  ASSERT_EQ(w.corridor(toward, nullptr, 0, &n), Status::Ok);
  EXPECT_GE(n, 2u);

  ASSERT_EQ(w.status(plain, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Failed);
  EXPECT_EQ(ps.failure, PathFailure::BudgetExhausted);
  EXPECT_FALSE(ps.partial);
  EXPECT_EQ(ps.cell_count, 0u);
  EXPECT_EQ(w.path_cells(plain, nullptr, 0, &n), Status::Busy);

  // The same routes with the default budget succeed.
  PathHandle full;
  ASSERT_EQ(w.request(route(a.pid, r, true), &full), Status::Ok);
  w.update();
  w.update();
  ASSERT_EQ(w.status(full, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Ready);
  EXPECT_FALSE(ps.partial);
}

TEST(NavApi, BadInputIsRejectedAndChangesNothing) {
  ApiWorld a = make_world();
  World& w = *a.w;
  const detail::MovingAiScenario& r = longest_row();
  const CellPos start = stand(r.start_x, r.start_y);
  const std::uint64_t epoch = w.nav_epoch();
  const WorldStats before = w.stats();

  // load_chunk with the wrong count: InvalidArgument, the loaded chunk keeps its blocks.
  std::vector<std::uint16_t> short_chunk(kChunkValues - 1, a.stone);
  EXPECT_EQ(w.load_chunk(ChunkPos{0, 1, 0}, short_chunk), Status::InvalidArgument);
  EXPECT_EQ(w.load_chunk(ChunkPos{0, 1, 0}, std::vector<std::uint16_t>(kChunkValues + 1, a.stone)),
            Status::InvalidArgument);
  EXPECT_EQ(w.load_chunk(ChunkPos{40, 0, 40}, short_chunk), Status::InvalidArgument);
  std::uint16_t v = 1;
  ASSERT_EQ(w.get_block(CellPos{3, 20, 3}, &v), Status::Ok);
  EXPECT_EQ(v, 0) << "the failed load_chunk changed a block";
  EXPECT_EQ(w.get_block(CellPos{40 * 16, 1, 40 * 16}, &v), Status::NotLoaded);
  // A value outside the registry: OutOfRange, unchanged.
  std::vector<std::uint16_t> bad(kChunkValues, 0);
  bad[100] = static_cast<std::uint16_t>(w.block_count());
  EXPECT_EQ(w.load_chunk(ChunkPos{0, 1, 0}, bad), Status::OutOfRange);
  bad[100] = 0xFFFF;
  EXPECT_EQ(w.load_chunk(ChunkPos{0, 1, 0}, bad), Status::OutOfRange);
  ASSERT_EQ(w.get_block(CellPos{3, 20, 3}, &v), Status::Ok);
  EXPECT_EQ(v, 0);
  EXPECT_EQ(w.set_block(start, static_cast<std::uint16_t>(w.block_count())), Status::OutOfRange);
  EXPECT_EQ(w.set_box(start, start, static_cast<std::uint16_t>(w.block_count())),
            Status::OutOfRange);
  // Unloaded chunks.
  EXPECT_EQ(w.set_block(CellPos{1000, 1, 1000}, a.stone), Status::NotLoaded);
  EXPECT_EQ(w.set_box(CellPos{0, 1, 0}, CellPos{100, 1, 0}, a.stone), Status::NotLoaded)
      << "a box reaching an unloaded chunk";
  ASSERT_EQ(w.get_block(CellPos{0, 1, 0}, &v), Status::Ok);
  EXPECT_EQ(v, a.stone) << "arena border column";
  ASSERT_EQ(w.get_block(start, &v), Status::Ok);
  EXPECT_EQ(v, 0) << "a refused set_box changed a block";
  EXPECT_EQ(w.unload_chunk(ChunkPos{1000, 0, 1000}), Status::NotLoaded);
  // Out-of-range coordinates (|x| < 2^25).
  const std::int32_t far = 1 << 26;
  EXPECT_EQ(w.set_block(CellPos{far, 1, 0}, a.stone), Status::OutOfRange);
  EXPECT_EQ(w.set_block(CellPos{0, 1 << 21, 0}, a.stone), Status::OutOfRange);
  EXPECT_EQ(w.set_block(CellPos{0, 1, -far}, a.stone), Status::OutOfRange);
  EXPECT_EQ(w.set_box(CellPos{0, 1, 0}, CellPos{far, 1, 0}, a.stone), Status::OutOfRange);
  EXPECT_EQ(w.get_block(CellPos{far, 1, 0}, &v), Status::OutOfRange);
  EXPECT_EQ(w.load_chunk(ChunkPos{far >> 4, 0, 0}, bad), Status::OutOfRange);
  EXPECT_EQ(w.load_chunk(ChunkPos{far, 0, 0}, std::vector<std::uint16_t>(kChunkValues, 0)),
            Status::OutOfRange);
  EXPECT_FALSE(w.is_standable(a.pid, CellPos{far, 1, 0}));
  Reach reach = w.reachable(a.pid, start, CellPos{far, 1, 0});
  EXPECT_EQ(reach.answer, ReachAnswer::Unknown);
  EXPECT_EQ(reach.reason, ReachReason::NotLoaded);
  NavRequest q;
  q.profile = a.pid;
  q.start = start;
  q.goal = CellPos{far, 1, 0};
  PathHandle h;
  EXPECT_EQ(w.request(q, &h), Status::OutOfRange);
  AgentId agent;
  EXPECT_EQ(w.add_agent(AgentDef{a.pid, Vec3{static_cast<double>(far), 1, 0}}, &agent),
            Status::OutOfRange);
  // Nothing above changed the world.
  w.update();
  EXPECT_EQ(w.nav_epoch(), epoch) << "a rejected call logged a change";
  EXPECT_EQ(w.stats().standable_cells, before.standable_cells);

  // A goal (or start) in an unloaded chunk: Unknown(NotLoaded), and the request fails NotLoaded.
  const CellPos unloaded{1000, 1, 1000};
  reach = w.reachable(a.pid, start, unloaded);
  EXPECT_EQ(reach.answer, ReachAnswer::Unknown);
  EXPECT_EQ(reach.reason, ReachReason::NotLoaded);
  EXPECT_EQ(reach.epoch, w.nav_epoch());
  reach = w.reachable(a.pid, unloaded, start);
  EXPECT_EQ(reach.answer, ReachAnswer::Unknown);
  EXPECT_EQ(reach.reason, ReachReason::NotLoaded);
  for (const auto& [s, g] : {std::pair{start, unloaded}, std::pair{unloaded, start}}) {
    q.start = s;
    q.goal = g;
    ASSERT_EQ(w.request(q, &h), Status::Ok);
    PathStatus ps;
    ASSERT_EQ(w.status(h, &ps), Status::Ok);
    EXPECT_EQ(ps.state, PathState::Failed);
    EXPECT_EQ(ps.failure, PathFailure::NotLoaded);
    w.update();
    w.update();
    ASSERT_EQ(w.status(h, &ps), Status::Ok);
    EXPECT_EQ(ps.state, PathState::Failed);
    EXPECT_EQ(ps.failure, PathFailure::NotLoaded);
    EXPECT_EQ(w.release(h), Status::Ok);
  }
  // Start or goal not standable.
  q.start = CellPos{r.start_x, 0, r.start_y};
  q.goal = stand(r.goal_x, r.goal_y);
  EXPECT_EQ(w.reachable(a.pid, q.start, q.goal).reason, ReachReason::StartNotStandable);
  ASSERT_EQ(w.request(q, &h), Status::Ok);
  PathStatus ps;
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Failed);
  EXPECT_EQ(ps.failure, PathFailure::BadStart);
  q.start = start;
  q.goal = CellPos{r.goal_x, 3, r.goal_y};
  EXPECT_EQ(w.reachable(a.pid, q.start, q.goal).reason, ReachReason::GoalNotStandable);
  ASSERT_EQ(w.request(q, &h), Status::Ok);
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Failed);
  EXPECT_EQ(ps.failure, PathFailure::BadGoal);
  // Bad profile and range.
  q.goal = stand(r.goal_x, r.goal_y);
  q.profile = ProfileId{7};
  EXPECT_EQ(w.request(q, &h), Status::InvalidArgument);
  EXPECT_EQ(w.reachable(ProfileId{7}, start, start).answer, ReachAnswer::Unknown);
  q.profile = a.pid;
  q.goal_range = 65;
  EXPECT_EQ(w.request(q, &h), Status::InvalidArgument);
  q.goal_range = -1;
  EXPECT_EQ(w.request(q, &h), Status::InvalidArgument);
  q.goal_range = 0;

  // tick: 0 < dt <= 1.
  EXPECT_EQ(w.tick(0.0), Status::InvalidArgument);
  EXPECT_EQ(w.tick(-0.05), Status::InvalidArgument);
  EXPECT_EQ(w.tick(1.5), Status::InvalidArgument);
  EXPECT_EQ(w.tick(std::numeric_limits<double>::quiet_NaN()), Status::InvalidArgument);
  EXPECT_EQ(w.tick(std::numeric_limits<double>::infinity()), Status::InvalidArgument);
  EXPECT_EQ(w.tick(0.05), Status::Ok);

  // Null output pointers.
  EXPECT_EQ(w.request(q, nullptr), Status::InvalidArgument);
  ASSERT_EQ(w.request(q, &h), Status::Ok);
  w.update();
  w.update();
  EXPECT_EQ(w.status(h, nullptr), Status::InvalidArgument);
  std::size_t n = 0;
  EXPECT_EQ(w.corridor(h, nullptr, 4, &n), Status::InvalidArgument);
  Waypoint wp[4];
  PathCell pc[4];
  EXPECT_EQ(w.corridor(h, wp, 4, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.path_cells(h, nullptr, 4, &n), Status::InvalidArgument);
  EXPECT_EQ(w.path_cells(h, pc, 4, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.corridor(h, wp, 4, &n), Status::Ok);
  EXPECT_EQ(w.get_block(start, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.block_value("stone", nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.add_profile(Profile{}, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.find_profile("walker", nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.standing_height(a.pid, start, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.nearest_standable(a.pid, start, 3, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.add_agent(AgentDef{a.pid, Vec3{start.x + 0.5, 1.0, start.z + 0.5}}, nullptr),
            Status::InvalidArgument);
  ASSERT_EQ(w.add_agent(AgentDef{a.pid, Vec3{start.x + 0.5, 1.0, start.z + 0.5}}, &agent),
            Status::Ok);
  EXPECT_EQ(w.agent_state(agent, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.agent_reason(agent, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.agent_corridor(agent, nullptr, 4, &n), Status::InvalidArgument);
  EXPECT_EQ(w.agent_corridor(agent, wp, 4, nullptr), Status::InvalidArgument);
  // Other bad arguments.
  EXPECT_EQ(w.add_agent(AgentDef{a.pid, Vec3{std::nan(""), 1, 0}}, &agent),
            Status::InvalidArgument);
  EXPECT_EQ(w.add_agent(AgentDef{ProfileId{9}, Vec3{1, 1, 1}}, &agent), Status::InvalidArgument);
  EXPECT_EQ(w.teleport_agent(agent, Vec3{0, std::numeric_limits<double>::infinity(), 0}),
            Status::InvalidArgument);
  EXPECT_EQ(w.set_agent_goal(agent, CellPos{far, 1, 0}), Status::OutOfRange);
  EXPECT_EQ(w.set_agent_goal(AgentId{}, start), Status::StaleHandle);
  EXPECT_EQ(w.remove_agent(AgentId{}), Status::StaleHandle);
  CellPos out;
  EXPECT_EQ(w.nearest_standable(a.pid, start, 65, &out), Status::InvalidArgument);
  EXPECT_EQ(w.nearest_standable(a.pid, start, -1, &out), Status::InvalidArgument);
  EXPECT_EQ(w.set_box(CellPos{5, 1, 5}, CellPos{4, 1, 5}, a.stone), Status::InvalidArgument)
      << "min > max";
  ProfileId dup;
  std::string err;
  EXPECT_EQ(w.add_profile(Profile{}, &dup, &err), Status::InvalidArgument) << "duplicate id";
  EXPECT_NE(err.find("walker"), std::string::npos);
  Profile flyer;
  flyer.id = "bat";
  flyer.movement_class = MovementClass::Flyer;
  flyer.can_fly = true;
  flyer.jump_apex = 0;
  EXPECT_EQ(w.add_profile(flyer, &dup, &err), Status::Ok) << err;
  EXPECT_EQ(w.add_profile(flyer, &dup, &err), Status::InvalidArgument) << "duplicate flyer id";
  std::uint16_t val = 0;
  EXPECT_EQ(w.block_value("no_such_block_anywhere", &val), Status::NotFound);
  EXPECT_NE(val, 0) << "unknown names give the fallback solid block";
  // The registry cannot be replaced once chunks are loaded; bad JSON is BadFormat.
  EXPECT_EQ(w.load_minecraft_blocks(inputs().blocks, inputs().shapes, &err), Status::Busy);
  World empty;
  const std::string junk = "{ not json";
  const std::span<const std::uint8_t> jb(reinterpret_cast<const std::uint8_t*>(junk.data()),
                                         junk.size());
  EXPECT_EQ(empty.load_minecraft_blocks(jb, inputs().shapes, &err), Status::BadFormat);
}

TEST(NavApi, EditsMoveTheEpochAndChangeAnswers) {
  ApiWorld a = make_world();
  World& w = *a.w;
  const detail::MovingAiScenario& r = longest_row();
  const CellPos start = stand(r.start_x, r.start_y), goal = stand(r.goal_x, r.goal_y);
  const std::uint64_t e0 = w.nav_epoch();
  // Wall the start cell in with a ring of stone pillars (set_box), then remove one pillar.
  ASSERT_EQ(w.set_box(CellPos{start.x - 1, 1, start.z - 1}, CellPos{start.x + 1, 4, start.z + 1},
                      a.stone),
            Status::Ok);
  ASSERT_EQ(w.set_box(CellPos{start.x, 1, start.z}, CellPos{start.x, 4, start.z}, 0), Status::Ok);
  EXPECT_EQ(w.nav_epoch(), e0) << "navigation changes only at update()";
  w.update();
  EXPECT_GT(w.nav_epoch(), e0);
  Reach reach = w.reachable(a.pid, start, goal);
  EXPECT_EQ(reach.answer, ReachAnswer::No);
  EXPECT_EQ(reach.epoch, w.nav_epoch());
  PathHandle h;
  NavRequest q;
  q.profile = a.pid;
  q.start = start;
  q.goal = goal;
  ASSERT_EQ(w.request(q, &h), Status::Ok);
  PathStatus ps;
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Failed);
  EXPECT_EQ(ps.failure, PathFailure::Unreachable);
  const std::uint64_t e1 = w.nav_epoch();
  // Open the pillar toward the goal's side: Yes again, with a new epoch.
  const int sx = goal.x > start.x ? 1 : -1;
  ASSERT_EQ(w.set_box(CellPos{start.x + sx, 1, start.z}, CellPos{start.x + sx, 4, start.z}, 0),
            Status::Ok);
  w.update();
  EXPECT_GT(w.nav_epoch(), e1);
  reach = w.reachable(a.pid, start, goal);
  if (inputs().map.passable(start.x + 2 * sx, start.z)) {
    EXPECT_EQ(reach.answer, ReachAnswer::Yes);
  }
  // An update without changes keeps the epoch; setting a block to its own value logs nothing.
  const std::uint64_t e2 = w.nav_epoch();
  ASSERT_EQ(w.set_block(start, 0), Status::Ok);
  w.update();
  EXPECT_EQ(w.nav_epoch(), e2);
  // Unloading the start's chunk makes the answer Unknown(NotLoaded).
  ASSERT_EQ(w.unload_chunk(ChunkPos{start.x >> 4, 0, start.z >> 4}), Status::Ok);
  w.update();
  reach = w.reachable(a.pid, start, goal);
  EXPECT_EQ(reach.answer, ReachAnswer::Unknown);
  EXPECT_EQ(reach.reason, ReachReason::NotLoaded);
  EXPECT_FALSE(w.is_standable(a.pid, start));
}

TEST(NavApi, GoalRangeAndTowardAnUnreachableGoal) {
  ApiWorld a = make_world();
  World& w = *a.w;
  const detail::MovingAiScenario& r = longest_row();
  const CellPos start = stand(r.start_x, r.start_y), goal = stand(r.goal_x, r.goal_y);
  // A goal inside a wall column, with a range of 1: the search stops on a cell within range.
  const detail::MovingAiMap& m = inputs().map;
  CellPos wall{};
  bool found = false;
  for (int z = 1; z + 1 < m.height && !found; ++z)
    for (int x = 1; x + 1 < m.width && !found; ++x)
      if (!m.passable(x, z) && m.passable(x + 1, z) &&
          w.reachable(a.pid, start, stand(x + 1, z)).answer == ReachAnswer::Yes)
        wall = stand(x, z), found = true;
  ASSERT_TRUE(found);
  EXPECT_EQ(w.reachable(a.pid, start, wall).reason, ReachReason::GoalNotStandable);
  NavRequest q;
  q.profile = a.pid;
  q.start = start;
  q.goal = wall;
  q.goal_range = 1;
  PathHandle h;
  ASSERT_EQ(w.request(q, &h), Status::Ok);
  w.update();
  w.update();
  PathStatus ps;
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  ASSERT_EQ(ps.state, PathState::Ready) << path_failure_name(ps.failure);
  EXPECT_FALSE(ps.partial);
  std::size_t n = 0;
  ASSERT_EQ(w.path_cells(h, nullptr, 0, &n), Status::Ok);
  std::vector<PathCell> cells(n);
  ASSERT_EQ(w.path_cells(h, cells.data(), n, &n), Status::Ok);
  const CellPos end = cells.back().cell;
  EXPECT_LE(
      std::max({std::abs(end.x - wall.x), std::abs(end.y - wall.y), std::abs(end.z - wall.z)}), 1);

  // Wall the goal in (a ring of stone pillars around it): a plain request fails Unreachable at
  // once, request_toward returns the best partial route, ending next to the ring.
  ASSERT_EQ(
      w.set_box(CellPos{goal.x - 1, 1, goal.z - 1}, CellPos{goal.x + 1, 4, goal.z + 1}, a.stone),
      Status::Ok);
  ASSERT_EQ(w.set_box(CellPos{goal.x, 1, goal.z}, CellPos{goal.x, 4, goal.z}, 0), Status::Ok);
  w.update();
  EXPECT_EQ(w.reachable(a.pid, start, goal).answer, ReachAnswer::No);
  q.goal = goal;
  q.goal_range = 0;
  ASSERT_EQ(w.request(q, &h), Status::Ok);
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Failed);
  EXPECT_EQ(ps.failure, PathFailure::Unreachable);
  q.toward = true;
  ASSERT_EQ(w.request(q, &h), Status::Ok);
  w.update();
  w.update();
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  ASSERT_EQ(ps.state, PathState::Ready) << path_failure_name(ps.failure);
  EXPECT_TRUE(ps.partial);
  ASSERT_EQ(w.path_cells(h, nullptr, 0, &n), Status::Ok);
  cells.assign(n, PathCell{});
  ASSERT_EQ(w.path_cells(h, cells.data(), n, &n), Status::Ok);
  const CellPos last = cells.back().cell;
  EXPECT_EQ(std::max(std::abs(last.x - goal.x), std::abs(last.z - goal.z)), 2)
      << "ends just outside the ring";
}

TEST(NavApi, LockstepDeliversExactlyThreeUpdatesAfterDispatch) {
  ApiWorld a = make_world(WorldDef{nullptr, 3});
  World& w = *a.w;
  const detail::MovingAiScenario& r = longest_row();
  PathHandle h;
  ASSERT_EQ(w.request(route(a.pid, r), &h), Status::Ok);
  PathStatus ps;
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Searching);
  w.update();  // dispatch
  for (int k = 1; k <= 2; ++k) {
    w.update();
    ASSERT_EQ(w.status(h, &ps), Status::Ok);
    EXPECT_EQ(ps.state, PathState::Searching) << k << " updates after dispatch";
  }
  w.update();
  ASSERT_EQ(w.status(h, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Ready) << "3 updates after dispatch";
  // The same through tick() (tick runs update), and a second request dispatched later keeps its own
  // delay.
  PathHandle h2, h3;
  ASSERT_EQ(w.request(route(a.pid, inputs().rows[3]), &h2), Status::Ok);
  ASSERT_EQ(w.tick(0.05), Status::Ok);  // dispatch h2
  ASSERT_EQ(w.request(route(a.pid, inputs().rows[5]), &h3), Status::Ok);
  ASSERT_EQ(w.tick(0.05), Status::Ok);  // dispatch h3
  ASSERT_EQ(w.tick(0.05), Status::Ok);
  ASSERT_EQ(w.status(h2, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Searching);
  ASSERT_EQ(w.tick(0.05), Status::Ok);  // h2: 3 after dispatch
  ASSERT_EQ(w.status(h2, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Ready);
  ASSERT_EQ(w.status(h3, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Searching);
  ASSERT_EQ(w.tick(0.05), Status::Ok);  // h3: 3 after dispatch
  ASSERT_EQ(w.status(h3, &ps), Status::Ok);
  EXPECT_EQ(ps.state, PathState::Ready);
}

// Every failing call writes its error once, in C++: status, the call's and the argument's names,
// and a sentence naming the value and the rule. The limits it states are the named constants.
TEST(NavApi, LastErrorNamesTheCallTheArgumentAndTheRule) {
  World w;  // the two-value registry: 0 air, 1 voxnav:unknown
  EXPECT_EQ(w.last_error().status, Status::Ok);
  EXPECT_EQ(w.set_block(CellPos{1, 99999, 2}, 1), Status::OutOfRange);
  const CallError& e = w.last_error();
  EXPECT_EQ(e.status, Status::OutOfRange);
  EXPECT_EQ(e.function, "set_block");
  EXPECT_EQ(e.argument, "cell");
  EXPECT_EQ(e.message, "cell (1, 99999, 2) is out of range: y is outside -" +
                           std::to_string(kMaxCellY) + " .. " + std::to_string(kMaxCellY));
  EXPECT_EQ(w.set_block(CellPos{kMaxCellXZ + 1, 0, 0}, 1), Status::OutOfRange);
  EXPECT_EQ(w.last_error().message, "cell (33554432, 0, 0) is out of range: x is outside -33554431 .. 33554431");
  EXPECT_EQ(w.set_block(CellPos{0, 0, 0}, 7), Status::OutOfRange);
  EXPECT_EQ(w.last_error().argument, "value");
  EXPECT_EQ(w.last_error().message, "value 7 is not in the block registry (values 0 .. 1)");
  EXPECT_EQ(w.set_block(CellPos{0, 0, 0}, 1), Status::NotLoaded);
  EXPECT_EQ(w.last_error().message, "cell (0, 0, 0) is in chunk (0, 0, 0), which is not loaded");
  // A success leaves the last error as it was.
  std::vector<std::uint16_t> air(kChunkValues, 0);
  ASSERT_EQ(w.load_chunk(ChunkPos{0, 0, 0}, air), Status::Ok);
  EXPECT_EQ(w.last_error().function, "set_block");
  // Batches: all or nothing, the entry named.
  const ChunkPos twice[] = {{0, 0, 0}, {5, 0, 5}, {0, 0, 0}};
  EXPECT_EQ(w.unload_chunks(twice), Status::NotLoaded);
  EXPECT_EQ(w.last_error().message, "chunk 1 (5, 0, 5) is not loaded");
  const ChunkPos same[] = {{0, 0, 0}, {0, 0, 0}};
  EXPECT_EQ(w.unload_chunks(same), Status::InvalidArgument);
  EXPECT_EQ(w.last_error().message,
            "positions: chunk 1 (0, 0, 0) repeats chunk 0 (each chunk may be given once)");
  EXPECT_EQ(w.get_block(CellPos{0, 0, 0}, air.data()), Status::Ok) << "nothing was unloaded";
  // load_chunks refuses a chunk given twice the same way (it kept one array and dropped the
  // other), all or nothing: the first chunk of the batch is not loaded either.
  {
    const ChunkPos load_twice[] = {{3, 0, 3}, {4, 0, 4}, {3, 0, 3}};
    std::vector<std::uint16_t> three(3 * kChunkValues, 0);
    three[2 * kChunkValues] = 1;  // the second array for (3,0,3) differs from the first
    EXPECT_EQ(w.load_chunks(load_twice, three), Status::InvalidArgument);
    EXPECT_EQ(w.last_error().function, "load_chunks");
    EXPECT_EQ(w.last_error().message,
              "positions: chunk 2 (3, 0, 3) repeats chunk 0 (each chunk may be given once)");
    std::uint16_t v = 0;
    EXPECT_EQ(w.get_block(CellPos{48, 0, 48}, &v), Status::NotLoaded) << "nothing was loaded";
    EXPECT_EQ(w.get_block(CellPos{64, 0, 64}, &v), Status::NotLoaded) << "nothing was loaded";
  }
  // Requests: the argument is the request's field.
  NavRequest req;
  PathHandle h;
  EXPECT_EQ(w.request(req, &h), Status::InvalidArgument);
  EXPECT_EQ(w.last_error().argument, "profile");
  EXPECT_EQ(w.last_error().message, "profile 4294967295 is not a profile of this world (0 added)");
  ProfileId pid;
  ASSERT_EQ(w.add_profile(Profile{}, &pid), Status::Ok);
  req.profile = pid;
  req.goal_range = kMaxGoalRange + 1;
  EXPECT_EQ(w.request(req, &h), Status::InvalidArgument);
  EXPECT_EQ(w.last_error().argument, "goal_range");
  EXPECT_EQ(w.last_error().message, "range 65 is not an integer in 0 .. 64");
  // define_area: the text goes to `error` and to last_error() alike.
  std::string err;
  AreaId area;
  const std::vector<std::string> blocks{"air"};
  EXPECT_EQ(w.define_area("road", blocks, kMaxAreaCost + 1, &area, &err), Status::InvalidArgument);
  EXPECT_EQ(err, "area \"road\": cost 1001 is not a number of cells in -0.6 .. 1000");
  EXPECT_EQ(w.last_error().message, err);
  EXPECT_EQ(w.last_error().argument, "cost");
  EXPECT_EQ(w.set_chunk_build_radius(World::kMaxChunkBuildRadius + 1), Status::InvalidArgument);
  EXPECT_EQ(w.last_error().message, "chunks 33 is not an integer number of chunks in 0 .. 32");
  EXPECT_EQ(w.tick(2), Status::InvalidArgument);
  EXPECT_EQ(w.last_error().message, "dt 2 is not in (0, 1] seconds");
}

}  // namespace
}  // namespace voxnav

namespace voxnav {
namespace {

TEST(NavApi, IslandCellsListEveryStandableCellWithItsIsland) {
  ApiWorld a = make_world();
  World& w = *a.w;
  std::size_t n = 0;
  ASSERT_EQ(w.island_cells(a.pid, nullptr, 0, &n), Status::Ok);
  const WorldStats stats = w.stats();
  ASSERT_EQ(n, stats.standable_cells) << "every standable cell is on an island";
  std::vector<IslandCell> cells(n);
  ASSERT_EQ(w.island_cells(a.pid, cells.data(), cells.size(), &n), Status::Ok);
  std::map<std::uint32_t, std::uint32_t> seen;  // island -> cells listed
  std::size_t passable = 0;
  for (int z = 0; z < inputs().map.height; ++z)
    for (int x = 0; x < inputs().map.width; ++x) passable += inputs().map.passable(x, z) ? 1 : 0;
  std::size_t floor_cells = 0;
  for (const IslandCell& c : cells) {
    // On the floor: the passable map cells; else on top of a wall column (y = 5).
    if (c.cell.y == detail::kMovingAiStandY) {
      ASSERT_TRUE(inputs().map.passable(c.cell.x, c.cell.z));
      ++floor_cells;
    } else {
      ASSERT_EQ(c.cell.y, 5);
      ASSERT_FALSE(inputs().map.passable(c.cell.x, c.cell.z));
    }
    std::uint32_t isl = 0, size = 0;
    ASSERT_EQ(w.island_of(a.pid, c.cell, &isl, &size), Status::Ok);
    ASSERT_EQ(isl, c.island);
    ASSERT_EQ(size, c.island_size);
    ++seen[c.island];
  }
  EXPECT_EQ(floor_cells, passable) << "arena: one floor cell per passable map cell";
  EXPECT_EQ(seen.size(), stats.islands);
  for (const IslandCell& c : cells) ASSERT_EQ(seen[c.island], c.island_size);
  // The ends of a solvable row share an island; a wall cell has none.
  const detail::MovingAiScenario& r = longest_row();
  std::uint32_t s = 0, g = 0, size = 7;
  ASSERT_EQ(w.island_of(a.pid, stand(r.start_x, r.start_y), &s), Status::Ok);
  ASSERT_EQ(w.island_of(a.pid, stand(r.goal_x, r.goal_y), &g), Status::Ok);
  EXPECT_NE(s, 0u);
  EXPECT_EQ(s, g);
  int wx = -1, wz = -1;
  for (int z = 0; z < inputs().map.height && wx < 0; ++z)
    for (int x = 0; x < inputs().map.width && wx < 0; ++x)
      if (!inputs().map.passable(x, z)) wx = x, wz = z;
  ASSERT_GE(wx, 0);
  ASSERT_EQ(w.island_of(a.pid, stand(wx, wz), &s, &size), Status::Ok);
  EXPECT_EQ(s, 0u);
  EXPECT_EQ(size, 0u);
  // Bad input.
  // Bad input: the Status, and last_error() naming the call, the argument and the rule.
  const auto said = [&](const char* fn, const char* arg, const std::string& msg) {
    EXPECT_EQ(w.last_error().function, fn);
    EXPECT_EQ(w.last_error().argument, arg);
    EXPECT_EQ(w.last_error().message, msg);
  };
  EXPECT_EQ(w.island_of(ProfileId{99}, stand(r.start_x, r.start_y), &s), Status::InvalidArgument);
  said("island_of", "profile", "profile 99 is not a profile of this world (1 added)");
  EXPECT_EQ(w.island_of(a.pid, stand(r.start_x, r.start_y), nullptr), Status::InvalidArgument);
  said("island_of", "island", "island is null");
  EXPECT_EQ(w.island_of(a.pid, CellPos{1 << 30, 1, 0}, &s), Status::OutOfRange);
  said("island_of", "cell", "cell (1073741824, 1, 0) is out of range: x is outside -33554431 .. 33554431");
  EXPECT_EQ(w.island_cells(ProfileId{99}, nullptr, 0, &n), Status::InvalidArgument);
  said("island_cells", "profile", "profile 99 is not a profile of this world (1 added)");
  EXPECT_EQ(w.island_cells(a.pid, nullptr, 4, &n), Status::InvalidArgument);
  said("island_cells", "out", "out is null with capacity 4");
  EXPECT_EQ(w.island_cells(a.pid, nullptr, 0, nullptr), Status::InvalidArgument);
  said("island_cells", "count", "count is null");
}

TEST(NavApi, AgentPathCellsAreTheCorridorsSearchCells) {
  ApiWorld a = make_world();
  World& w = *a.w;
  const detail::MovingAiScenario& r = longest_row();
  AgentId id;
  ASSERT_EQ(w.add_agent(AgentDef{a.pid, Vec3{r.start_x + 0.5, 1.0, r.start_y + 0.5}}, &id),
            Status::Ok);
  ASSERT_EQ(w.set_agent_goal(id, stand(r.goal_x, r.goal_y)), Status::Ok);
  std::size_t n = 0;
  for (int t = 0; t < 5; ++t) (void)w.tick(0.05);
  ASSERT_EQ(w.agent_path_cells(id, nullptr, 0, &n), Status::Ok);
  ASSERT_GE(n, 2u);
  std::vector<PathCell> cells(n);
  ASSERT_EQ(w.agent_path_cells(id, cells.data(), cells.size(), &n), Status::Ok);
  EXPECT_EQ(cells.front().cell, stand(r.start_x, r.start_y));
  EXPECT_EQ(cells.back().cell, stand(r.goal_x, r.goal_y));
  EXPECT_NEAR(octile_length(cells), r.optimal, 1e-4 * r.optimal);
  AgentState s;
  ASSERT_EQ(w.agent_state(id, &s), Status::Ok);
  EXPECT_TRUE(w.is_standable(a.pid, s.cell)) << "the agent's last standable cell";
  const AgentId gone{id.index, id.generation + 1};
  EXPECT_EQ(w.agent_path_cells(gone, nullptr, 0, &n), Status::StaleHandle);
  double number = 0;
  ASSERT_TRUE(id_number(gone, &number));
  EXPECT_EQ(number, (gone.generation * 2097152.0 + gone.index) * 4 + 1);
  EXPECT_EQ(w.last_error().function, "agent_path_cells");
  EXPECT_EQ(w.last_error().argument, "agent");
  EXPECT_EQ(w.last_error().message, "agent " + std::to_string(std::uint64_t(number)) +
                                        " is not a live agent (removed, or never added to this world)");
  EXPECT_EQ(w.agent_path_cells(id, nullptr, 0, nullptr), Status::InvalidArgument);
  EXPECT_EQ(w.last_error().argument, "count");
}

}  // namespace
}  // namespace voxnav

namespace voxnav {
namespace {

// Ids as numbers (voxnav/ids.h): the numbers messages show; a path handle's class bits move to
// bits 19-20; numbers a World never gives are refused.
TEST(NavApi, IdNumbersRoundTripAndStaleMessagesShowThem) {
  double n = 0;
  ASSERT_TRUE(id_number(AgentId{5, 3}, &n));
  EXPECT_EQ(n, (3 * 2097152.0 + 5) * 4 + 1);  // kind 1: an agent
  PathHandle not_path;
  EXPECT_FALSE(id_of_number(n, &not_path)) << "an agent's number is no path handle";
  EXPECT_EQ(id_number_kind(n), IdKind::Agent);
  AgentId a;
  ASSERT_TRUE(id_of_number(n, &a));
  EXPECT_EQ(a.index, 5u);
  EXPECT_EQ(a.generation, 3u);
  EXPECT_FALSE(id_number(AgentId{1u << 21, 1}, &n));
  const PathHandle h{(2u << 28) | 7u, 9};
  ASSERT_TRUE(id_number(h, &n));
  EXPECT_EQ(n, (9 * 2097152.0 + double((2u << 19) | 7u)) * 4 + 2);  // kind 2: a path
  PathHandle back;
  ASSERT_TRUE(id_of_number(n, &back));
  EXPECT_EQ(back.index, h.index);
  EXPECT_EQ(back.generation, h.generation);
  EXPECT_FALSE(id_number(PathHandle{1u << 19, 1}, &n)) << "more than 2^19 requests of a class";
  for (double bad : {-1.0, 1.5, 9007199254740992.0, std::nan("")}) EXPECT_FALSE(id_of_number(bad, &a));
  World w;
  PathStatus ps;
  std::size_t count = 0;
  EXPECT_EQ(w.status(PathHandle{3, 1}, &ps), Status::StaleHandle);
  EXPECT_EQ(w.last_error().function, "status");
  EXPECT_EQ(w.last_error().argument, "path");
  EXPECT_EQ(w.last_error().message, "path 8388622 is not a live request (released, or never made by this world)");
  EXPECT_EQ(w.corridor(PathHandle{(1u << 28) | 3u, 2}, nullptr, 0, &count), Status::StaleHandle);
  EXPECT_EQ(w.last_error().message, "path 18874382 is not a live request (released, or never made by this world)");
  EXPECT_EQ(w.release(PathHandle{3, 1}), Status::StaleHandle);
  EXPECT_EQ(w.last_error().function, "release");
  EXPECT_EQ(w.remove_agent(AgentId{0, 2}), Status::StaleHandle);
  EXPECT_EQ(w.last_error().message, "agent 16777217 is not a live agent (removed, or never added to this world)");
  std::string reason;
  EXPECT_EQ(w.agent_reason(AgentId{0, 2}, &reason), Status::StaleHandle);
  EXPECT_EQ(w.last_error().function, "agent_reason");
}

// column_tops succeeds on a game's own registry (no "cave_air") without touching last_error().
TEST(NavApi, ColumnTopsLeavesLastErrorAlone) {
  World w;  // 0 air, 1 voxnav:unknown: no cave_air, no void_air
  EXPECT_EQ(w.set_block(CellPos{0, 0, 0}, 1), Status::NotLoaded);
  std::vector<std::uint16_t> vals(kChunkValues, 0);
  vals[3 + 16 * (2 + 16 * 5)] = 1;  // (3, 5, 2)
  ASSERT_EQ(w.load_chunk(ChunkPos{0, 0, 0}, vals), Status::Ok);
  std::int32_t h[4];
  std::uint16_t v[4];
  ASSERT_EQ(column_tops(w, CellPos{2, 0, 2}, CellPos{3, 15, 3}, h, v, 4), Status::Ok);
  EXPECT_EQ(h[1], 5);
  EXPECT_EQ(v[1], 1);
  EXPECT_EQ(h[0], kNoColumnTop);
  EXPECT_EQ(w.last_error().function, "set_block") << "column_tops looked names up quietly";
  EXPECT_EQ(w.last_error().status, Status::NotLoaded);
}

}  // namespace
}  // namespace voxnav

// state_hash refuses a null out instead of writing through it; with no agents the hash is the
// FNV-1a basis.
TEST(NavApi, StateHashRefusesNullOut) {
  voxnav::World w;
  EXPECT_EQ(voxnav::state_hash(w, {}, nullptr), voxnav::Status::InvalidArgument);
  std::uint64_t h = 0;
  ASSERT_EQ(voxnav::state_hash(w, {}, &h), voxnav::Status::Ok);
  EXPECT_EQ(h, voxnav::kStateHashBasis);
}

namespace voxnav {
namespace {

// Ids carry their World's id tag (voxnav/ids.h): an id of another World is refused as stale in
// C++, and its number says which World and which kind it is.
TEST(NavApi, IdsOfAnotherWorldAreRefused) {
  World a, b;
  ASSERT_NE(a.id_tag(), b.id_tag());
  for (World* w : {&a, &b}) {
    std::vector<std::uint16_t> floor(kChunkValues, 0);
    for (int i = 0; i < 256; ++i) floor[i] = 1;
    ASSERT_EQ(w->load_chunk(ChunkPos{0, 0, 0}, floor), Status::Ok);
  }
  ProfileId pa, pb;
  Profile walker;
  walker.id = "walker";
  ASSERT_EQ(a.add_profile(walker, &pa), Status::Ok);
  ASSERT_EQ(b.add_profile(walker, &pb), Status::Ok);
  EXPECT_EQ(pa.owner, a.id_tag());
  AgentId ia, ib;
  ASSERT_EQ(a.add_agent(AgentDef{pa, Vec3{2.5, 1, 2.5}}, &ia), Status::Ok);
  ASSERT_EQ(b.add_agent(AgentDef{pb, Vec3{2.5, 1, 2.5}}, &ib), Status::Ok);
  EXPECT_EQ(ia.index, ib.index) << "the same slot in both Worlds";
  AgentState s;
  EXPECT_EQ(b.agent_state(ia, &s), Status::StaleHandle);
  EXPECT_EQ(b.last_error().argument, "agent");
  EXPECT_EQ(b.agent_state(ib, &s), Status::Ok);
  NavRequest req{pa, CellPos{1, 1, 1}, CellPos{5, 1, 5}};
  PathHandle h;
  ASSERT_EQ(a.request(req, &h), Status::Ok);
  PathStatus ps;
  EXPECT_EQ(b.status(h, &ps), Status::StaleHandle);
  EXPECT_EQ(a.status(h, &ps), Status::Ok);
  double n = 0;
  ASSERT_TRUE(id_number(ia, &n));
  EXPECT_EQ(id_number_tag(n), a.id_tag());
  ASSERT_TRUE(id_number(pa, &n));
  EXPECT_EQ(id_number_kind(n), IdKind::Profile);
  EXPECT_EQ(id_number_tag(n), a.id_tag());
  ProfileId back;
  ASSERT_TRUE(id_of_number(n, &back));
  EXPECT_EQ(back.index, pa.index);
  EXPECT_EQ(back.owner, pa.owner);
  // A profile id of World a passed to World b (same index) is refused by every call taking one,
  // and b is unchanged; a hand-made id (owner 0) is looked up by index.
  const std::uint64_t before = b.nav_epoch();
  EXPECT_EQ(b.reachable(pa, CellPos{1, 1, 1}, CellPos{5, 1, 5}).reason, ReachReason::BadProfile);
  bool standable = false;
  EXPECT_EQ(b.is_standable(pa, CellPos{1, 1, 1}, &standable), Status::InvalidArgument);
  EXPECT_EQ(b.last_error().argument, "profile");
  AgentId other;
  EXPECT_EQ(b.add_agent(AgentDef{pa, Vec3{3.5, 1, 3.5}}, &other), Status::InvalidArgument);
  EXPECT_EQ(b.request(NavRequest{pa, CellPos{1, 1, 1}, CellPos{5, 1, 5}}, &h), Status::InvalidArgument);
  EXPECT_EQ(b.nav_epoch(), before);
  EXPECT_EQ(b.is_standable(ProfileId{pb.index}, CellPos{1, 1, 1}, &standable), Status::Ok);
}

}  // namespace
}  // namespace voxnav
