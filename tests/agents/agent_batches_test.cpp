// World::add_agents, set_agent_goals and teleport_agents: batches that are all or nothing. Every
// entry is checked first; the first bad one is named by index and field and nothing changes; a
// good batch gives what the same one-by-one calls give (ids, and the state hash after walking).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "test_support.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// A flat floor of value 1 (the default registry's full block) and one walker profile.
struct Flat {
  World w;
  ProfileId walker;
  Flat() {
    EXPECT_TRUE(test::load_flat_floor(w, 1));
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    w.update();
  }
  std::uint64_t hash_after(std::span<const AgentId> ids, int ticks) {
    for (int t = 0; t < ticks; ++t) EXPECT_EQ(w.tick(0.05), Status::Ok);
    std::uint64_t h = 0;
    EXPECT_EQ(state_hash(w, ids, &h), Status::Ok);
    return h;
  }
  Vec3 feet(AgentId id) {
    AgentState s;
    EXPECT_EQ(w.agent_state(id, &s), Status::Ok);
    return s.feet;
  }
};

bool same(Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

void expect_error(const World& w, const char* function, const std::string& argument,
                  const std::string& message) {
  EXPECT_EQ(w.last_error().function, function);
  EXPECT_EQ(w.last_error().argument, argument);
  EXPECT_EQ(w.last_error().message, message);
}

/// `defs` for another World: the same entries with that World's profile id (each World refuses
/// another's profile ids).
std::vector<AgentDef> with_profile(std::vector<AgentDef> defs, ProfileId p) {
  for (AgentDef& d : defs) d.profile = p;
  return defs;
}

std::vector<AgentDef> three_defs(ProfileId p) {
  return {AgentDef{p, Vec3{2.5, 1.0, 2.5}, CellPos{20, 1, 20}}, AgentDef{p, Vec3{5.5, 1.0, 2.5}},
          AgentDef{p, Vec3{2.5, 1.0, 8.5}, CellPos{-10, 1, 25}}};
}

TEST(AgentBatches, AddAgentsEqualsOneByOneCalls) {
  Flat batch, single;
  const std::vector<AgentDef> defs = three_defs(batch.walker);
  std::vector<AgentId> a(defs.size()), b(defs.size());
  ASSERT_EQ(batch.w.add_agents(defs, a.data()), Status::Ok);
  // One by one as a host would: every agent added, then the goals sent in order.
  for (std::size_t i = 0; i < defs.size(); ++i)
    ASSERT_EQ(single.w.add_agent(AgentDef{single.walker, defs[i].feet}, &b[i]), Status::Ok);
  for (std::size_t i = 0; i < defs.size(); ++i) {
    if (defs[i].goal) {
      ASSERT_EQ(single.w.set_agent_goal(b[i], *defs[i].goal), Status::Ok);
    }
  }
  for (std::size_t i = 0; i < defs.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    // The same generation count; the bits above it are each World's id tag (voxnav/ids.h).
    EXPECT_EQ(a[i].generation >> kIdTagShift, batch.w.id_tag());
    EXPECT_EQ(a[i].generation & ((1u << kIdTagShift) - 1), b[i].generation & ((1u << kIdTagShift) - 1));
  }
  EXPECT_EQ(batch.hash_after(a, 200), single.hash_after(b, 200));
  AgentState s;
  ASSERT_EQ(batch.w.agent_state(a[0], &s), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Arrived) << "the goal was sent with the batch";
  ASSERT_EQ(batch.w.agent_state(a[1], &s), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Idle) << "no goal: it idles";
  EXPECT_EQ(batch.w.add_agents({}, nullptr), Status::Ok);
}

TEST(AgentBatches, AddAgentsRefusesTheFirstBadEntryAndAddsNone) {
  Flat f;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    std::size_t bad;
    AgentDef def;
    Status status;
    std::string argument, message;
  };
  const Case cases[] = {
      {1, AgentDef{f.walker, Vec3{nan, 1.0, 2.5}}, Status::InvalidArgument, "agents[1].feet",
       "agents[1].feet (NaN, 1, 2.5) is not finite"},
      {1, AgentDef{ProfileId{3}, Vec3{4.5, 1.0, 2.5}}, Status::InvalidArgument,
       "agents[1].profile", "agents[1].profile 3 is not a profile of this world (1 added)"},
      {1, AgentDef{f.walker, Vec3{4.5, 1e9, 2.5}}, Status::OutOfRange, "agents[1].feet",
       "agents[1].feet (4.5, 1000000000, 2.5) is out of range: its cell must have |x|, |z| <= "
       "33554431 and |y| <= 2047"},
      {2, AgentDef{f.walker, Vec3{4.5, 1.0, 2.5}, CellPos{0, 4096, 0}}, Status::OutOfRange,
       "agents[2].goal", "agents[2].goal (0, 4096, 0) is out of range: y is outside -2047 .. 2047"},
  };
  for (const Case& c : cases) {
    std::vector<AgentDef> defs = three_defs(f.walker);
    defs[c.bad] = c.def;
    std::vector<AgentId> ids(defs.size());
    EXPECT_EQ(f.w.add_agents(defs, ids.data()), c.status) << c.message;
    expect_error(f.w, "add_agents", c.argument, c.message);
  }
  // None was added: the next agent gets the first id a fresh world gives.
  Flat fresh;
  AgentId got, want;
  ASSERT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{2.5, 1.0, 2.5}}, &got), Status::Ok);
  ASSERT_EQ(fresh.w.add_agent(AgentDef{fresh.walker, Vec3{2.5, 1.0, 2.5}}, &want), Status::Ok);
  EXPECT_EQ(got.index, want.index);
  EXPECT_EQ(got.generation & ((1u << kIdTagShift) - 1), want.generation & ((1u << kIdTagShift) - 1));
  EXPECT_EQ(f.w.stats().searches, 0u);
  // The single call checks the goal too (its argument named alone).
  AgentId one;
  EXPECT_EQ(f.w.add_agent(AgentDef{f.walker, Vec3{2.5, 1.0, 2.5}, CellPos{0, -5000, 0}}, &one),
            Status::OutOfRange);
  expect_error(f.w, "add_agent", "goal", "goal (0, -5000, 0) is out of range: y is outside -2047 .. 2047");
}

TEST(AgentBatches, SetAgentGoalsAllOrNothing) {
  Flat batch, single;
  std::vector<AgentId> a(3), b(3);
  std::vector<AgentDef> defs = three_defs(batch.walker);
  for (AgentDef& d : defs) d.goal.reset();
  ASSERT_EQ(batch.w.add_agents(defs, a.data()), Status::Ok);
  ASSERT_EQ(single.w.add_agents(with_profile(defs, single.walker), b.data()), Status::Ok);
  double n0 = 0;
  ASSERT_TRUE(id_number(a[0], &n0));
  const std::string id0 = number_text(n0);
  AgentId gone;
  ASSERT_EQ(batch.w.add_agent(AgentDef{batch.walker, Vec3{9.5, 1.0, 9.5}}, &gone), Status::Ok);
  ASSERT_EQ(batch.w.remove_agent(gone), Status::Ok);
  double ng = 0;
  ASSERT_TRUE(id_number(gone, &ng));
  struct Case {
    std::vector<AgentGoal> goals;
    Status status;
    std::string argument, message;
  };
  const Case cases[] = {
      {{{a[0], {20, 1, 20}}, {a[0], {21, 1, 21}}}, Status::InvalidArgument, "goals[1].agent",
       "goals[1].agent (" + id0 + ") repeats goals[0].agent (each agent may be given once)"},
      {{{a[0], {20, 1, 20}}, {gone, {21, 1, 21}}}, Status::StaleHandle, "goals[1].agent",
       "goals[1].agent " + number_text(ng) +
           " is not a live agent (removed, or never added to this world)"},
      {{{a[0], {20, 1, 20}}, {a[1], {0, 1, 1 << 26}}, {a[2], {1, 1, 1}}}, Status::OutOfRange,
       "goals[1].goal", "goals[1].goal (0, 1, 67108864) is out of range: z is outside -33554431 .. 33554431"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(batch.w.set_agent_goals(c.goals), c.status) << c.message;
    expect_error(batch.w, "set_agent_goals", c.argument, c.message);
  }
  batch.w.update();
  AgentState s;
  ASSERT_EQ(batch.w.agent_state(a[0], &s), Status::Ok);
  EXPECT_EQ(s.mode, AgentMode::Idle) << "no goal was set by a refused batch";
  EXPECT_EQ(s.requests, 0u);
  // A good batch equals the one-by-one calls.
  const AgentGoal goals[] = {{a[2], {-10, 1, 25}}, {a[0], {20, 1, 20}}};
  ASSERT_EQ(batch.w.set_agent_goals(goals), Status::Ok);
  // Both worlds dispatch the searches in the same update, so the agents start on the same tick
  // (with steering, agents that pass each other a tick apart pass differently).
  batch.w.update();
  ASSERT_EQ(single.w.set_agent_goal(b[2], {-10, 1, 25}), Status::Ok);
  ASSERT_EQ(single.w.set_agent_goal(b[0], {20, 1, 20}), Status::Ok);
  single.w.update();
  EXPECT_EQ(batch.hash_after(a, 200), single.hash_after(b, 200));
}

TEST(AgentBatches, TeleportAgentsAllOrNothing) {
  Flat batch, single;
  std::vector<AgentId> a(3), b(3);
  const std::vector<AgentDef> defs = three_defs(batch.walker);
  ASSERT_EQ(batch.w.add_agents(defs, a.data()), Status::Ok);
  ASSERT_EQ(single.w.add_agents(with_profile(defs, single.walker), b.data()), Status::Ok);
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::vector<AgentMove> moves;
    Status status;
    std::string argument, message;
  };
  double n1 = 0;
  ASSERT_TRUE(id_number(a[1], &n1));
  const Case cases[] = {
      {{{a[0], {30.5, 1, 30.5}}, {a[1], {inf, 1, 1}}}, Status::InvalidArgument, "agents[1].feet",
       "agents[1].feet (Infinity, 1, 1) is not finite"},
      {{{a[0], {30.5, 1, 30.5}}, {a[1], {1e9, 1, 0}}}, Status::OutOfRange, "agents[1].feet",
       "agents[1].feet (1000000000, 1, 0) is out of range: its cell must have |x|, |z| <= 33554431 "
       "and |y| <= 2047"},
      {{{a[1], {30.5, 1, 30.5}}, {a[0], {1, 1, 1}}, {a[1], {31.5, 1, 30.5}}}, Status::InvalidArgument,
       "agents[2].agent",
       "agents[2].agent (" + number_text(n1) + ") repeats agents[0].agent (each agent may be given once)"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(batch.w.teleport_agents(c.moves), c.status) << c.message;
    expect_error(batch.w, "teleport_agents", c.argument, c.message);
    EXPECT_TRUE(same(batch.feet(a[0]), Vec3{2.5, 1.0, 2.5})) << "nothing moved: " << c.message;
    EXPECT_TRUE(same(batch.feet(a[1]), Vec3{5.5, 1.0, 2.5}));
  }
  const AgentMove moves[] = {{a[1], {-8.5, 1, -8.5}}, {a[0], {12.5, 1, 3.5}}};
  ASSERT_EQ(batch.w.teleport_agents(moves), Status::Ok);
  ASSERT_EQ(single.w.teleport_agent(b[1], {-8.5, 1, -8.5}), Status::Ok);
  ASSERT_EQ(single.w.teleport_agent(b[0], {12.5, 1, 3.5}), Status::Ok);
  EXPECT_TRUE(same(batch.feet(a[1]), Vec3{-8.5, 1, -8.5}));
  EXPECT_EQ(batch.hash_after(a, 200), single.hash_after(b, 200));
  // A list name of "" names the fields alone (a host's single entry).
  const AgentMove bad[] = {{a[0], {inf, 0, 0}}};
  EXPECT_EQ(batch.w.teleport_agents(bad, ""), Status::InvalidArgument);
  expect_error(batch.w, "teleport_agents", "feet", "feet (Infinity, 0, 0) is not finite");
}

}  // namespace
}  // namespace voxnav
