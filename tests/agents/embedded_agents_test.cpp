// Bodies walled in by an edit (docs/agents.md#embedded): stone placed in an agent's feet cell or
// head cell pushes the body out to the nearest standable cell and the agent walks on to its goal;
// an agent enclosed with no standable cell within kEmbeddedPushRadius is Blocked with failure
// "embedded" (never Failed bad_start), stays so while walled in, and walks on once dug out; an
// agent the edits do not touch moves bit for bit as without them.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr std::uint16_t kSolid = 1;  // the default registry's full block (voxnav:unknown)

struct Scene {
  std::unique_ptr<World> world = std::make_unique<World>();
  ProfileId pid;
  AgentId walled, other;
};

// A flat floor (y = 0), agent `walled` from (2.5, 1, 2.5) to cell (14, 1, 2), agent `other`
// from (2.5, 1, 22.5) to cell (14, 1, 22), far from every edit of these tests.
Scene make_scene() {
  Scene s;
  EXPECT_TRUE(test::load_flat_floor(*s.world, kSolid));
  EXPECT_EQ(s.world->add_profile(Profile{}, &s.pid), Status::Ok);
  s.world->update();
  EXPECT_EQ(s.world->add_agent(AgentDef{s.pid, Vec3{2.5, 1, 2.5}}, &s.walled), Status::Ok);
  EXPECT_EQ(s.world->add_agent(AgentDef{s.pid, Vec3{2.5, 1, 22.5}}, &s.other), Status::Ok);
  EXPECT_EQ(s.world->set_agent_goal(s.walled, CellPos{14, 1, 2}), Status::Ok);
  EXPECT_EQ(s.world->set_agent_goal(s.other, CellPos{14, 1, 22}), Status::Ok);
  return s;
}

AgentState state(const World& w, AgentId a) {
  AgentState s;
  EXPECT_EQ(w.agent_state(a, &s), Status::Ok);
  return s;
}

std::string reason(const World& w, AgentId a) {
  std::string r;
  EXPECT_EQ(w.agent_reason(a, &r), Status::Ok);
  return r;
}

CellPos foot(const Vec3& f) {
  return CellPos{static_cast<int>(std::floor(f.x)), static_cast<int>(std::floor(f.y + 1e-3)),
                 static_cast<int>(std::floor(f.z))};
}

// Ticks until the agent arrives (or `limit` ticks); the ticks taken.
int run_to_arrival(World& w, AgentId a, int limit) {
  for (int t = 0; t < limit; ++t) {
    (void)w.tick(0.05);
    if (state(w, a).mode == AgentMode::Arrived) return t + 1;
  }
  return limit;
}

// Stone put in the cell `dy` above the agent's foot cell after it walked 10 ticks: the body is
// pushed out, at once, to a standable cell next to the stone (at its level: the nearest), and
// the agent arrives. Without the push it failed bad_start and never moved again.
void walled_by_one_block(int dy) {
  Scene s = make_scene();
  World& w = *s.world;
  for (int t = 0; t < 10; ++t) (void)w.tick(0.05);
  const AgentState before = state(w, s.walled);
  ASSERT_EQ(before.mode, AgentMode::Moving);
  const CellPos f = foot(before.feet);
  const CellPos stone{f.x, f.y + dy, f.z};
  ASSERT_EQ(w.set_block(stone, kSolid), Status::Ok);
  (void)w.tick(0.05);
  const AgentState after = state(w, s.walled);
  EXPECT_EQ(after.push_outs, 1u);
  EXPECT_NE(after.mode, AgentMode::Failed) << reason(w, s.walled);
  EXPECT_NE(after.mode, AgentMode::Blocked) << reason(w, s.walled);
  const CellPos to = foot(after.feet);
  EXPECT_TRUE(w.is_standable(s.pid, to)) << test::str(to);
  EXPECT_EQ(to.y, f.y) << "pushed up onto the stone, not beside it: " << test::str(to);
  EXPECT_LE(std::max(std::abs(to.x - f.x), std::abs(to.z - f.z)), 1) << test::str(to);
  EXPECT_FALSE(to == f);
  // At rest in the middle of that cell: clear of the stone.
  EXPECT_DOUBLE_EQ(after.feet.x, to.x + 0.5);
  EXPECT_DOUBLE_EQ(after.feet.z, to.z + 0.5);
  EXPECT_LT(run_to_arrival(w, s.walled, 400), 400) << agent_mode_name(state(w, s.walled).mode)
                                                  << ": " << reason(w, s.walled);
  EXPECT_EQ(state(w, s.walled).failure, PathFailure::None);
  EXPECT_EQ(state(w, s.walled).push_outs, 1u);
}

TEST(EmbeddedAgents, StoneInTheFeetCellPushesTheBodyOutAndItArrives) { walled_by_one_block(0); }

TEST(EmbeddedAgents, StoneInTheHeadCellPushesTheBodyOutAndItArrives) { walled_by_one_block(1); }

TEST(EmbeddedAgents, EnclosedIsBlockedEmbeddedUntilDugOut) {
  Scene s = make_scene();
  World& w = *s.world;
  for (int t = 0; t < 10; ++t) (void)w.tick(0.05);
  const CellPos f = foot(state(w, s.walled).feet);
  // Every cell within 2 of the foot cell filled, from the feet up to the cell one above the
  // head: no standable cell within kEmbeddedPushRadius (the floor's cells are solid, the chunks
  // below it not loaded, and the first standable cells, on top of the fill, are 3 up).
  static_assert(kEmbeddedPushRadius == 2);
  const CellPos mn{f.x - 2, 1, f.z - 2}, mx{f.x + 2, 3, f.z + 2};
  ASSERT_EQ(w.set_box(mn, mx, kSolid), Status::Ok);
  (void)w.tick(0.05);
  AgentState a = state(w, s.walled);
  EXPECT_EQ(a.mode, AgentMode::Blocked);
  EXPECT_EQ(a.failure, PathFailure::Embedded);
  EXPECT_STREQ(path_failure_name(a.failure), "embedded");
  EXPECT_EQ(reason(w, s.walled).rfind("embedded: ", 0), 0u) << reason(w, s.walled);
  EXPECT_EQ(a.push_outs, 0u);
  const Vec3 held = a.feet;
  // Held, not failed: through two retries (every 100 ticks) and a new goal.
  for (int t = 0; t < 250; ++t) {
    (void)w.tick(0.05);
    a = state(w, s.walled);
    ASSERT_EQ(a.mode, AgentMode::Blocked) << "tick " << t << ": " << reason(w, s.walled);
    ASSERT_EQ(a.failure, PathFailure::Embedded);
  }
  EXPECT_EQ(a.feet.x, held.x);
  EXPECT_EQ(a.feet.z, held.z);
  ASSERT_EQ(w.set_agent_goal(s.walled, CellPos{14, 1, 3}), Status::Ok);
  (void)w.tick(0.05);
  a = state(w, s.walled);
  EXPECT_EQ(a.mode, AgentMode::Blocked);
  EXPECT_EQ(a.failure, PathFailure::Embedded);
  // Dug out: the edit lands near it, it looks again at once and walks to the goal.
  ASSERT_EQ(w.set_box(mn, mx, 0), Status::Ok);
  (void)w.tick(0.05);
  a = state(w, s.walled);
  EXPECT_NE(a.mode, AgentMode::Blocked) << reason(w, s.walled);
  EXPECT_EQ(a.failure, PathFailure::None);
  EXPECT_EQ(reason(w, s.walled), "");
  EXPECT_LT(run_to_arrival(w, s.walled, 400), 400) << reason(w, s.walled);
}

TEST(EmbeddedAgents, AStoneNextToTheBodyIsNoEmbedding) {
  // A block put in the cell next to the body's, which the body does not reach into, changes
  // nothing for it: no push (the step has the body walk around it as before).
  Scene s = make_scene();
  World& w = *s.world;
  for (int t = 0; t < 3; ++t) (void)w.tick(0.05);
  const Vec3 p = state(w, s.walled).feet;
  const CellPos f = foot(p);
  ASSERT_LT(p.z - f.z, 0.7);  // the body (half width 0.3) does not reach the cell z + 1
  ASSERT_EQ(w.set_block(CellPos{f.x, 1, f.z + 2}, kSolid), Status::Ok);
  (void)w.tick(0.05);
  EXPECT_EQ(state(w, s.walled).push_outs, 0u);
  EXPECT_LT(run_to_arrival(w, s.walled, 400), 400) << reason(w, s.walled);
}

TEST(EmbeddedAgents, AgentsTheEditsDoNotTouchMoveAsWithoutThem) {
  // The same scene twice, walled in (and dug out) in one: the other agent's positions are
  // bit for bit the same every tick.
  auto trace = [](bool edits) {
    Scene s = make_scene();
    World& w = *s.world;
    std::vector<double> out;
    for (int t = 0; t < 200; ++t) {
      if (edits && t == 10) {
        const CellPos f = foot(state(w, s.walled).feet);
        EXPECT_EQ(w.set_box(CellPos{f.x - 2, 1, f.z - 2}, CellPos{f.x + 2, 3, f.z + 2}, kSolid),
                  Status::Ok);
      }
      (void)w.tick(0.05);
      const AgentState a = state(w, s.other);
      out.insert(out.end(), {a.feet.x, a.feet.y, a.feet.z, a.velocity.x, a.velocity.z,
                             static_cast<double>(a.mode), static_cast<double>(a.corridor_epoch)});
    }
    if (edits) {
      EXPECT_EQ(state(w, s.walled).failure, PathFailure::Embedded);
    }
    return out;
  };
  const std::vector<double> with = trace(true), without = trace(false);
  ASSERT_EQ(with.size(), without.size());
  for (std::size_t i = 0; i < with.size(); ++i) ASSERT_EQ(with[i], without[i]) << "entry " << i;
}

}  // namespace
}  // namespace voxnav
