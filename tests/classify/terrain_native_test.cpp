// Layer 0 and layer 2 on real block shapes (the minecraft-data registry in data/blocks): standing
// heights and the moves a walker gets onto slabs, soul sand, full blocks and fences, and the moves
// of a real region (a walker must be able to jump up one block: terrain is one connected world,
// not thousands of terraces).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#include "scenes.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {


const std::string kData = std::string(VOXNAV_FIXTURES) + "/../../data";

// A flat stone floor (y = 0) over one chunk column, with blocks placed by the test at y = 1.
struct Flat {
  World world;
  ProfileId walker;
  std::uint16_t stone = 0;
  Flat() {
    std::string msg;
    EXPECT_EQ(native::load_minecraft_blocks_dir(world, kData + "/blocks", &msg), Status::Ok)
        << msg;
    EXPECT_EQ(world.block_value("stone", &stone), Status::Ok);
    std::vector<std::uint16_t> v(4096, 0);
    for (int i = 0; i < 256; ++i) v[i] = stone;  // y = 0 layer
    for (int cz = -1; cz <= 1; ++cz)
      for (int cx = -1; cx <= 1; ++cx) {
        EXPECT_EQ(world.load_chunk({cx, 0, cz}, v), Status::Ok);
        std::vector<std::uint16_t> air(4096, 0);
        EXPECT_EQ(world.load_chunk({cx, 1, cz}, air), Status::Ok);
      }
    EXPECT_EQ(world.add_profile(Profile{}, &walker), Status::Ok);
  }
  void put(const char* state, CellPos c) {
    std::uint16_t v = 0;
    ASSERT_EQ(world.block_value(state, &v), Status::Ok) << state;
    ASSERT_EQ(world.set_block({c.x, c.y, c.z}, v), Status::Ok);
  }
  // The move from (8,1,8) toward +x: its (dy, kind), or kind Start for none.
  detail::MoveCode move_east() {
    world.update();
    const std::uint32_t w = detail::WorldAccess::state(world).walker()->grid().moves(CellPos{8, 1, 8});
    return detail::kMoveCodes[detail::move_code(w, 0)];
  }
  double feet(CellPos c) {
    double y = -1;
    EXPECT_EQ(world.standing_height(walker, {c.x, c.y, c.z}, &y), Status::Ok);
    return y;
  }
};

TEST(NavTerrain, FullBlockIsAJumpOfOneCell) {
  Flat f;
  f.put("stone", {9, 1, 8});
  const detail::MoveCode m = f.move_east();
  EXPECT_EQ(m.kind, EdgeKind::Jump);
  EXPECT_EQ(m.dy, 1);
  EXPECT_DOUBLE_EQ(f.feet({9, 2, 8}), 2.0);
}

TEST(NavTerrain, TwoBlocksHighIsAWall) {
  Flat f;
  f.put("stone", {9, 1, 8});
  f.put("stone", {9, 2, 8});
  EXPECT_EQ(f.move_east().kind, EdgeKind::Start);  // no move
}

TEST(NavTerrain, BottomSlabIsAStep) {
  Flat f;
  f.put("smooth_stone_slab[type=bottom]", {9, 1, 8});
  const detail::MoveCode m = f.move_east();
  EXPECT_EQ(m.kind, EdgeKind::Walk);  // rise 0.5 <= step 0.6, same cell row
  EXPECT_EQ(m.dy, 0);
  EXPECT_DOUBLE_EQ(f.feet({9, 1, 8}), 1.5);
}

TEST(NavTerrain, SoulSandNeedsAJump) {
  Flat f;
  f.put("soul_sand", {9, 1, 8});
  const detail::MoveCode m = f.move_east();
  EXPECT_EQ(m.kind, EdgeKind::Jump);  // rise 0.875 > step 0.6
  EXPECT_DOUBLE_EQ(f.feet({9, 1, 8}), 1.875);
}

TEST(NavTerrain, FenceCannotBeJumped) {
  Flat f;
  f.put("oak_fence", {9, 1, 8});
  EXPECT_EQ(f.move_east().kind, EdgeKind::Start);  // 1.5 high: above the 1.25 jump
  EXPECT_DOUBLE_EQ(f.feet({9, 2, 8}), 2.5);                // standing on it is at 1.5
}

TEST(NavTerrain, LowCeilingForbidsTheJump) {
  Flat f;
  f.put("stone", {9, 1, 8});
  f.put("stone", {8, 3, 8});  // a roof 2 cells above the start: no room to rise one more
  EXPECT_EQ(f.move_east().kind, EdgeKind::Start);
}

TEST(NavTerrain, DropsUpToThree) {
  Flat f;
  // Raise the start onto a 3-high pillar; the floor beside it is 3 below.
  f.put("stone", {8, 1, 8});
  f.put("stone", {8, 2, 8});
  f.put("stone", {8, 3, 8});
  f.world.update();
  const std::uint32_t w = detail::WorldAccess::state(f.world).walker()->grid().moves(CellPos{8, 4, 8});
  const detail::MoveCode m = detail::kMoveCodes[detail::move_code(w, 0)];
  EXPECT_EQ(m.kind, EdgeKind::Drop);
  EXPECT_EQ(m.dy, -3);
  EXPECT_EQ(f.world.reachable(f.walker, {8, 4, 8}, {9, 1, 8}).answer, ReachAnswer::Yes);
  EXPECT_EQ(f.world.reachable(f.walker, {9, 1, 8}, {8, 4, 8}).answer, ReachAnswer::No);  // one way
}

// Hazards: a damage cell is a node only a pricing profile enters; the danger band is one cell
// around a hazard value; fire outranks other hazards; the band follows edits.
TEST(NavTerrain, DangerBandAroundFireAndCactusFollowsEdits) {
  Flat f;
  auto kind = [&](CellPos c) { return detail::WorldAccess::state(f.world).walker()->grid().kind(c); };
  f.put("lava", {8, 1, 8});
  f.world.update();
  EXPECT_EQ(kind({8, 1, 8}), detail::CellKind::DamageFire);
  for (CellPos c : {CellPos{7, 1, 8}, CellPos{9, 1, 9}, CellPos{8, 1, 7}})
    EXPECT_EQ(kind(c), detail::CellKind::DangerFire);
  EXPECT_EQ(kind({10, 1, 8}), detail::CellKind::Walkable);  // two cells away
  f.put("cactus", {11, 1, 8});
  f.world.update();
  EXPECT_EQ(kind({10, 1, 8}), detail::CellKind::DangerOther);
  EXPECT_EQ(kind({9, 1, 8}), detail::CellKind::DangerFire);    // fire and cactus: fire outranks
  EXPECT_EQ(kind({11, 1, 8}), detail::CellKind::DamageOther);  // standing on the cactus
  f.put("air", {8, 1, 8});
  f.world.update();
  EXPECT_EQ(kind({8, 1, 8}), detail::CellKind::Walkable);
  EXPECT_EQ(kind({7, 1, 8}), detail::CellKind::Walkable);
  EXPECT_EQ(kind({9, 1, 8}), detail::CellKind::Walkable);  // the cactus is two cells away
  EXPECT_EQ(kind({10, 1, 8}), detail::CellKind::DangerOther);
  // Soul sand is slow; lava beside it makes it dangerous, and taking the lava away makes it slow
  // again.
  f.put("soul_sand", {5, 1, 5});
  f.world.update();
  EXPECT_EQ(kind({5, 1, 5}), detail::CellKind::Slow);
  f.put("lava", {5, 1, 6});
  f.world.update();
  EXPECT_EQ(kind({5, 1, 5}), detail::CellKind::DangerFire);
  f.put("air", {5, 1, 6});
  f.world.update();
  EXPECT_EQ(kind({5, 1, 5}), detail::CellKind::Slow);
}

TEST(NavTerrain, WalkersAvoidFireUnlessPriced) {
  Flat f;
  // A wall of fire across the floor (x = 12, z = -16 .. 31) with lava at both ends: the only way
  // from x < 12 to x > 12 leads through damage cells.
  for (int z = -16; z <= 31; ++z) f.put(z % 5 == 0 ? "lava" : "fire", {12, 1, z});
  f.world.update();
  Profile priced;
  priced.id = "fire_walker";
  priced.malus[static_cast<int>(PathType::DamageFire)] = 20;
  ProfileId pid;
  std::string err;
  ASSERT_EQ(f.world.add_profile(priced, &pid, &err), Status::Ok) << err;
  const CellPos a{4, 1, 8}, b{20, 1, 8};
  const Reach r = f.world.reachable(f.walker, a, b);
  EXPECT_EQ(r.answer, ReachAnswer::Unknown);
  EXPECT_EQ(r.reason, ReachReason::ProfileRestricted);
  EXPECT_EQ(f.world.reachable(pid, a, b).answer, ReachAnswer::Yes);
  NavRequest q;
  q.profile = f.walker;
  q.start = a;
  q.goal = b;
  PathResult plain, fire;
  ASSERT_EQ(f.world.find_path_now(q, &plain), Status::Ok);
  EXPECT_EQ(plain.status.state, PathState::Failed);
  q.profile = pid;
  ASSERT_EQ(f.world.find_path_now(q, &fire), Status::Ok);
  ASSERT_EQ(fire.status.state, PathState::Ready);
  int damage = 0, danger = 0;
  for (const PathCell& c : fire.cells) {
    const detail::CellKind k =
        detail::WorldAccess::state(f.world).walker()->grid().kind({c.cell.x, c.cell.y, c.cell.z});
    damage += k == detail::CellKind::DamageFire;
    danger += k == detail::CellKind::DangerFire;
  }
  EXPECT_EQ(damage, 1);  // straight across, once
  EXPECT_EQ(danger, 2);  // the band on either side
  // 16 cells straight, 20 for the fire, 8 + 8 for the danger band on either side.
  EXPECT_EQ(fire.status.cost, 16u * 10000u + 20u * 10000u + 2u * 8u * 10000u);
  // With a gap in the wall, the plain walker goes through the gap and never onto a damage cell,
  // and the pricing profile too when the gap is near.
  f.put("air", {12, 1, 12});
  f.world.update();
  q.profile = f.walker;
  ASSERT_EQ(f.world.find_path_now(q, &plain), Status::Ok);
  ASSERT_EQ(plain.status.state, PathState::Ready);
  for (const PathCell& c : plain.cells) {
    const detail::CellKind k =
        detail::WorldAccess::state(f.world).walker()->grid().kind({c.cell.x, c.cell.y, c.cell.z});
    EXPECT_NE(k, detail::CellKind::DamageFire);
    EXPECT_NE(k, detail::CellKind::DamageOther);
  }
  EXPECT_EQ(f.world.reachable(f.walker, a, b).answer, ReachAnswer::Yes);
}

// Classes: the walker_small class (0.95 cells tall) has its own navigation data and crawls through
// a hole one cell high that the walker class (1.8) cannot pass.
TEST(NavTerrain, SmallWalkersPassWhereWalkersCannot) {
  Flat f;
  for (int z = -16; z <= 31; ++z)
    for (int y = 1; y <= 3; ++y)
      if (!(z == 8 && y == 1)) f.put("stone", {10, y, z});
  f.world.update();
  Profile chicken;
  chicken.id = "chicken";
  chicken.movement_class = MovementClass::WalkerSmall;
  chicken.height = 0.7;
  chicken.width = 0.4;
  ProfileId cid;
  std::string err;
  ASSERT_EQ(f.world.add_profile(chicken, &cid, &err), Status::Ok) << err;
  const CellPos a{4, 1, 8}, b{16, 1, 8};
  EXPECT_EQ(f.world.reachable(f.walker, a, b).answer, ReachAnswer::No);
  EXPECT_EQ(f.world.reachable(cid, a, b).answer, ReachAnswer::Yes);
  NavRequest q;
  q.profile = cid;
  q.start = a;
  q.goal = b;
  PathResult r;
  ASSERT_EQ(f.world.find_path_now(q, &r), Status::Ok);
  ASSERT_EQ(r.status.state, PathState::Ready);
  EXPECT_EQ(r.status.cost, 12u * 10000u);  // straight through the hole
  bool through = false;
  for (const PathCell& c : r.cells) through |= c.cell.x == 10 && c.cell.y == 1 && c.cell.z == 8;
  EXPECT_TRUE(through);
  // Both classes follow an edit: the hole is filled, then opened two cells high.
  f.put("stone", {10, 1, 8});
  f.world.update();
  EXPECT_EQ(f.world.reachable(cid, a, b).answer, ReachAnswer::No);
  f.put("air", {10, 1, 8});
  f.put("air", {10, 2, 8});
  f.world.update();
  EXPECT_EQ(f.world.reachable(cid, a, b).answer, ReachAnswer::Yes);
  EXPECT_EQ(f.world.reachable(f.walker, a, b).answer, ReachAnswer::Yes);
  // A path handle of the small class answers through its own navigation.
  PathHandle h;
  ASSERT_EQ(f.world.request(q, &h), Status::Ok);
  f.world.update();  // dispatched
  f.world.update();  // applied
  PathStatus st;
  ASSERT_EQ(f.world.status(h, &st), Status::Ok);
  EXPECT_EQ(st.state, PathState::Ready);
  EXPECT_EQ(f.world.release(h), Status::Ok);
  EXPECT_EQ(f.world.status(h, &st), Status::StaleHandle);
  // A small walker agent crawls through the hole (made one cell high again) and arrives.
  f.put("stone", {10, 2, 8});
  f.world.update();
  AgentId id;
  ASSERT_EQ(f.world.add_agent(AgentDef{cid, Vec3{4.5, 1.0, 8.5}}, &id), Status::Ok);
  ASSERT_EQ(f.world.set_agent_goal(id, b), Status::Ok);
  AgentState as;
  int ticks = 0;
  bool crawled = false;
  for (; ticks < 400; ++ticks) {
    ASSERT_EQ(f.world.tick(0.05), Status::Ok);
    ASSERT_EQ(f.world.agent_state(id, &as), Status::Ok);
    crawled |= std::abs(as.feet.x - 10.5) < 0.5 && std::abs(as.feet.z - 8.5) < 0.5;
    if (as.mode == AgentMode::Arrived) break;
  }
  std::printf("small walker arrived after %d ticks through the one-high hole\n", ticks);
  EXPECT_EQ(as.mode, AgentMode::Arrived);
  EXPECT_TRUE(crawled);
  EXPECT_EQ(f.world.remove_agent(id), Status::Ok);
}

TEST(NavTerrain, RealRegionHasJumpsAndOneBigIsland) {
  World world;
  detail::WorldState& st = detail::WorldAccess::state(world);
  std::string msg;
  ASSERT_EQ(native::load_minecraft_blocks_dir(world, kData + "/blocks", &msg), Status::Ok);
  LoadReport report;
  ASSERT_EQ(native::load_world_file(world, kData + "/worlds/r.0.-1.mca", LoadOptions{}, &report),
            Status::Ok);
  world.update();
  const detail::NavGrid& g = st.walker()->grid();
  std::map<EdgeKind, std::size_t> kinds;
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i)
      for (int d = 0; d < 8; ++d) {
        const int code = detail::move_code(ch->moves[i], d);
        if (code) ++kinds[detail::kMoveCodes[code].kind];
      }
  }
  EXPECT_GT(kinds[EdgeKind::Jump], 10000u);
  EXPECT_GT(kinds[EdgeKind::Drop], 10000u);
  EXPECT_GT(kinds[EdgeKind::Walk], 300000u);
  std::uint32_t largest = 0;
  for (std::uint32_t c = 1; c <= st.walker()->islands().id_bound(); ++c)
    largest = std::max(largest, st.walker()->islands().size_of(c));
  // Hills connect when walkers jump one block: the biggest island holds most of the dry land.
  EXPECT_GT(largest, 40000u) << "islands: " << st.walker()->islands().component_count();
}

}  // namespace
}  // namespace voxnav
