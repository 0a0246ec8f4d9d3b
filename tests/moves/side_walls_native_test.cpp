// Walls beside the footprint (issue 18, causes 2 and 3): a thin collision box between the body's
// footprint and a cell's face (a ladder's plate, an open door's leaf, an open trapdoor) lies
// outside the footprint square that layer 0 classifies by, yet stops a body crossing that face.
// The oracle is the movement step: for each such block and each of the four directions of
// approach, the body walks (never jumping) from the cell before the block's cell to its centre,
// and the planner must have a direct move exactly when the walk gets there. String pulling never
// pulls a corridor through such a face either: an agent sent past the block arrives.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/integrate/integrate.h"
#include "test_support.h"
#include "voxnav/integrate.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// The block stands at (8, 1, 8) (a door's upper half at (8, 2, 8)) on a flat floor.
constexpr int kX = 8, kZ = 8;
constexpr int kDx[4] = {1, 0, -1, 0}, kDz[4] = {0, 1, 0, -1};

struct Thin {
  std::string lower;
  std::string upper;  // empty: none
};

struct WallWorld {
  World world;
  ProfileId walker;
  Profile profile;
  bool ok = false;
  explicit WallWorld(const Thin& t) {
    std::uint16_t stone = 0, lo = 0, up = 0;
    if (!test::load_real_blocks(world) || world.block_value("stone", &stone) != Status::Ok ||
        !test::load_flat_floor(world, stone) || world.block_value(t.lower, &lo) != Status::Ok ||
        world.set_block({kX, 1, kZ}, lo) != Status::Ok)
      return;
    if (!t.upper.empty() && (world.block_value(t.upper, &up) != Status::Ok ||
                    world.set_block({kX, 2, kZ}, up) != Status::Ok))
      return;
    world.update();
    profile.id = "climber";
    profile.can_climb = true;
    profile.climb_speed = 2.35;
    ok = world.add_profile(profile, &walker) == Status::Ok;
  }
  // The body walked along `d` from the centre of the cell before the block's toward the centre of
  // the block's cell, slowing onto it, never jumping: true when it gets there (within 0.1) with
  // its feet on the floor (y 1 to 1.2).
  bool walks_in(int d) {
    BodyParams body;
    if (profile_body(world, walker, &body) != Status::Ok) return false;
    BodyState s;
    s.feet = {kX - kDx[d] + 0.5, 1.0, kZ - kDz[d] + 0.5};
    s.on_ground = true;
    const double tx = kX + 0.5, tz = kZ + 0.5;
    if (!test::walk_body_to(world, s, body, tx, tz, profile.walk_speed, 60)) return false;
    return s.feet.y >= 1.0 - 1e-9 && s.feet.y < 1.2 && std::hypot(tx - s.feet.x, tz - s.feet.z) < 0.1;
  }
  // Whether the planner moves straight from the cell before into the block's cell.
  bool planned(int d) {
    NavRequest q;
    q.profile = walker;
    q.start = {kX - kDx[d], 1, kZ - kDz[d]};
    q.goal = {kX, 1, kZ};
    PathResult res;
    return world.find_path_now(q, &res) == Status::Ok && res.status.state == PathState::Ready &&
           res.cells.size() == 2;
  }
  // An agent from three cells before the block to three cells past it along `d`: arrives within
  // 10 s (around the block where its face is walled).
  bool passes(int d) {
    AgentId a;
    if (world.add_agent({walker, {kX - 3 * kDx[d] + 0.5, 1.0, kZ - 3 * kDz[d] + 0.5}}, &a) != Status::Ok ||
        world.set_agent_goal(a, {kX + 3 * kDx[d], 1, kZ + 3 * kDz[d]}) != Status::Ok)
      return false;
    AgentState st;
    bool arrived = false;
    for (int t = 0; t < 200 && !arrived; ++t) {
      if (world.tick(detail::kSimulationTick) != Status::Ok || world.agent_state(a, &st) != Status::Ok)
        return false;
      arrived = st.mode == AgentMode::Arrived;
    }
    if (!arrived) {
      std::string why;
      (void)world.agent_reason(a, &why);
      NavRequest q;
      q.profile = walker;
      q.start = {kX - 3 * kDx[d], 1, kZ - 3 * kDz[d]};
      q.goal = {kX + 3 * kDx[d], 1, kZ + 3 * kDz[d]};
      PathResult res;
      std::string route;
      if (world.find_path_now(q, &res) == Status::Ok)
        for (const PathCell& pc : res.cells) route += test::str(pc.cell) + edge_kind_name(pc.kind) + " ";
      ADD_FAILURE() << "agent at (" << st.feet.x << "," << st.feet.y << "," << st.feet.z << ") mode "
                    << agent_mode_name(st.mode) << " (" << why << "); route " << route;
    }
    (void)world.remove_agent(a);
    return arrived;
  }
};

std::vector<Thin> thin_blocks() {
  std::vector<Thin> out;
  for (const char* f : {"north", "south", "east", "west"})
    out.push_back({std::string("ladder[facing=") + f + ",waterlogged=false]", ""});
  for (const char* f : {"north", "south", "east", "west"})
    for (const char* hinge : {"left", "right"}) {
      const std::string rest = std::string(",facing=") + f + ",hinge=" + hinge + ",open=true,powered=false]";
      out.push_back({"oak_door[half=lower" + rest, "oak_door[half=upper" + rest});
    }
  for (const char* f : {"north", "south", "east", "west"})
    out.push_back({std::string("oak_trapdoor[facing=") + f +
                       ",half=bottom,open=true,powered=false,waterlogged=false]",
                   ""});
  return out;
}

TEST(SideWalls, DirectMoveExactlyWhereTheWalkingBodyGetsIn) {
  int walled = 0, open = 0;
  for (const Thin& t : thin_blocks()) {
    WallWorld w(t);
    ASSERT_TRUE(w.ok) << t.lower;
    int walls_here = 0;
    for (int d = 0; d < 4; ++d) {
      const bool walks = w.walks_in(d);
      const bool plan = w.planned(d);
      walled += !walks;
      open += walks;
      walls_here += !walks;
      EXPECT_EQ(plan, walks) << t.lower << " entered along direction " << d << ": planned " << plan
                             << ", the walking body " << (walks ? "gets in" : "is stopped");
      EXPECT_TRUE(w.passes(d)) << "an agent past " << t.lower << " along direction " << d;
    }
    // Each of these blocks stands against exactly one face of its cell.
    EXPECT_EQ(walls_here, 1) << t.lower;
  }
  EXPECT_EQ(walled, 16);
  EXPECT_EQ(open, 48);
}

}  // namespace
}  // namespace voxnav
