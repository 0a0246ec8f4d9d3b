// Flyer agents (docs/flight.md#flyer-agents) on the shipped region (data/worlds, Minecraft 1.16):
// agents sent from hover cells to free cells across the air arrive, and at every tick the body's
// box (the profile's width and height, feet at its bottom centre) has no interior overlap with any
// collision box of the cells around it (an exact test: the boxes' bounds and the body's are
// compared directly, with 1e-9 cell of slack for the movement step's contact); a goal sealed in a
// stone shell fails Unreachable at the first tick; stone pillars put on the corridors just ahead
// of moving agents make them plan again, and they still never clip; the same scene gives the same
// state hash twice and on a 2-worker ThreadPool.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/flight/flyer_nav.h"
#include "engine/nav/world_access.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/control.h"
#include "voxnav/native/files.h"
#include "voxnav/native/thread_pool.h"
#include "voxnav/state_hash.h"

namespace voxnav {
namespace {

constexpr double kDt = 0.05;

std::unique_ptr<World> region_with_bat(const WorldDef& def, ProfileId* bat) {
  auto w = std::make_unique<World>(def);
  std::string msg;
  EXPECT_EQ(native::load_minecraft_blocks_dir(*w, std::string(VOXNAV_SHARED_DATA) + "/minecraft/blocks", &msg),
            Status::Ok)
      << msg;
  LoadReport report;
  EXPECT_EQ(native::load_world_file(*w, test::repo_region(), LoadOptions{}, &report), Status::Ok) << report.message;
  ProfileId walker;
  EXPECT_EQ(w->add_profile(Profile{}, &walker), Status::Ok);
  EXPECT_EQ(w->add_profile(test::bat_profile(), bat, &msg), Status::Ok) << msg;
  w->update();
  return w;
}

// Whether the body with its feet at `f` overlaps a collision box (interior, beyond 1e-9).
bool body_clips(const detail::Space& space, const Vec3& f, double hw, double h) {
  const double lo[3] = {f.x - hw, f.y, f.z - hw}, hi[3] = {f.x + hw, f.y + h, f.z + hw};
  constexpr double kSlack = 1e-9;
  const detail::BlockRegistry& reg = space.registry();
  for (int x = int(std::floor(lo[0])) - 1; x <= int(std::floor(hi[0])); ++x)
    for (int y = int(std::floor(lo[1])) - 1; y <= int(std::floor(hi[1])); ++y)
      for (int z = int(std::floor(lo[2])) - 1; z <= int(std::floor(hi[2])); ++z) {
        const CellPos c{x, y, z};
        if (!space.is_cell_loaded(c)) return true;
        const double base[3] = {double(x), double(y), double(z)};
        for (const detail::Box& b : reg.type(space.block(c)).boxes) {
          bool in = true;
          for (int k = 0; k < 3 && in; ++k)
            in = base[k] + double(b.max[k]) > lo[k] + kSlack && base[k] + double(b.min[k]) < hi[k] - kSlack;
          if (in) return true;
        }
      }
  return false;
}

Vec3 feet_of(CellPos c) { return Vec3{c.x + 0.5, double(c.y), c.z + 0.5}; }

// Start (hover cells: on the ground, terrain in the way) and goal pairs a flyer route joins.
std::vector<std::pair<CellPos, CellPos>> pairs(World& w, ProfileId bat, int n, std::uint64_t seed) {
  const detail::WorldState& ws = detail::WorldAccess::state(w);
  const detail::flight::FlyerStore& store = ws.flyer->store();
  const std::vector<ChunkPos> chunks = ws.space.loaded_chunks();
  tools::SplitMix64 rng{seed};
  std::vector<std::pair<CellPos, CellPos>> out;
  while (int(out.size()) < n) {
    const ChunkPos cp = chunks[rng.next() % chunks.size()];
    const CellPos a{cp.x * 16 + int(rng.next() % 16), cp.y * 16 + int(rng.next() % 16), cp.z * 16 + int(rng.next() % 16)};
    if (!store.hover(a)) continue;
    const CellPos b{a.x + int(rng.next() % 33) - 16, a.y + int(rng.next() % 7), a.z + int(rng.next() % 33) - 16};
    if (!store.free(b)) continue;
    NavRequest req;
    req.profile = bat;
    req.start = a;
    req.goal = b;
    PathResult r;
    if (w.find_path_now(req, &r) != Status::Ok || r.status.state != PathState::Ready) continue;
    out.emplace_back(a, b);
  }
  return out;
}

struct FlyRun {
  std::uint64_t hash = 0;
  int arrived = 0, failed = 0, blocked = 0, clips = 0, edits = 0;
  std::uint32_t replans = 0;
  int ticks = 0;
  double worst_gap = 0;  ///< largest feet-to-goal distance of an Arrived agent
};

// `n` flyers sent across the air; with `edits`, every 3 ticks a stone pillar (two cells) goes on
// the corridor of a moving agent 2.5 cells or more ahead of it (never in a body or near a goal).
FlyRun fly_scene(const WorldDef& def, int n, bool edits, std::uint64_t seed) {
  ProfileId bat;
  std::unique_ptr<World> wp = region_with_bat(def, &bat);
  World& w = *wp;
  std::uint16_t stone = 0;
  EXPECT_EQ(w.block_value("stone", &stone), Status::Ok);
  const auto ps = pairs(w, bat, n, seed);
  std::vector<AgentDef> defs;
  for (const auto& [a, b] : ps) defs.push_back(AgentDef{bat, feet_of(a), b});
  std::vector<AgentId> ids(defs.size());
  EXPECT_EQ(w.add_agents(defs, ids.data()), Status::Ok);
  const detail::WorldState& ws = detail::WorldAccess::state(w);
  const Profile p = test::bat_profile();
  const double hw = 0.5 * p.width;
  tools::SplitMix64 rng{seed ^ 0x5eed};
  FlyRun run;
  for (int t = 0; t < 900; ++t) {
    for (int tries = 0; edits && t % 3 == 0 && tries < 8; ++tries) {
      const std::size_t i = rng.next() % ids.size();
      const detail::AgentRecord* a = ws.agents.get(ids[i]);
      if (a && a->mode == AgentMode::Moving && a->next < a->corridor.points.size()) {
        const Vec3 f = a->body.feet, q = a->corridor.points[a->next].position;
        const double d = std::sqrt((q.x - f.x) * (q.x - f.x) + (q.y - f.y) * (q.y - f.y) + (q.z - f.z) * (q.z - f.z));
        if (d >= 2.5) {
          const double s = std::min(d, 2.5 + double(rng.next() % 3)) / d;
          const CellPos c{int(std::floor(f.x + (q.x - f.x) * s)), int(std::floor(f.y + (q.y - f.y) * s + 0.5)),
                          int(std::floor(f.z + (q.z - f.z) * s))};
          bool ok = true;
          for (std::size_t k = 0; k < ids.size() && ok; ++k) {
            AgentState st;
            EXPECT_EQ(w.agent_state(ids[k], &st), Status::Ok);
            const Vec3 g = feet_of(ps[k].second);
            ok = !(std::abs(st.feet.x - (c.x + 0.5)) < 1.6 && st.feet.y < c.y + 2.2 && st.feet.y + p.height > c.y - 0.2 &&
                   std::abs(st.feet.z - (c.z + 0.5)) < 1.6) &&
                 (std::abs(g.x - (c.x + 0.5)) > 2.5 || std::abs(g.z - (c.z + 0.5)) > 2.5 || std::abs(g.y - c.y) > 3.5);
          }
          if (ok) {
            EXPECT_EQ(w.set_blocks(std::vector<BlockEdit>{BlockEdit{c, CellPos{c.x, c.y + 1, c.z}, stone}}), Status::Ok);
            ++run.edits;
            break;
          }
        }
      }
    }
    EXPECT_EQ(w.tick(kDt), Status::Ok);
    run.ticks = t + 1;
    bool all_done = true;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      AgentState st;
      EXPECT_EQ(w.agent_state(ids[k], &st), Status::Ok);
      if (body_clips(ws.space, st.feet, hw, p.height)) {
        ++run.clips;
        ADD_FAILURE() << "agent " << k << " clips at tick " << t << ": feet " << st.feet.x << ", " << st.feet.y
                      << ", " << st.feet.z;
      }
      if (st.mode == AgentMode::Moving || st.mode == AgentMode::Planning) all_done = false;
    }
    if (all_done) break;
  }
  for (std::size_t k = 0; k < ids.size(); ++k) {
    AgentState st;
    EXPECT_EQ(w.agent_state(ids[k], &st), Status::Ok);
    run.replans += st.replans;
    if (st.mode == AgentMode::Arrived) {
      ++run.arrived;
      const Vec3 g = feet_of(ps[k].second);
      const double gap = std::sqrt((st.feet.x - g.x) * (st.feet.x - g.x) + (st.feet.y - g.y) * (st.feet.y - g.y) +
                                   (st.feet.z - g.z) * (st.feet.z - g.z));
      run.worst_gap = std::max(run.worst_gap, gap);
    } else {
      std::string why;
      EXPECT_EQ(w.agent_reason(ids[k], &why), Status::Ok);
      EXPECT_FALSE(why.empty()) << "agent " << k << " ended " << agent_mode_name(st.mode) << " without a reason";
      (st.mode == AgentMode::Failed ? run.failed : run.blocked) += 1;
    }
  }
  EXPECT_EQ(state_hash(w, ids, &run.hash), Status::Ok);
  return run;
}

TEST(FlyerAgents, CrossTheAirAndArriveWithoutClipping) {
  const FlyRun r = fly_scene(WorldDef{}, 24, false, 4242);
  std::printf("[ flyers   ] %d arrived in %d ticks (worst gap %.3f), %d failed, %d blocked, %u replans\n", r.arrived,
              r.ticks, r.worst_gap, r.failed, r.blocked, r.replans);
  EXPECT_EQ(r.clips, 0);
  EXPECT_EQ(r.arrived, 24);
  EXPECT_LE(r.worst_gap, 0.5 + 1e-9);  // the default arrive radius
}

TEST(FlyerAgents, EnclosedGoalIsUnreachableAtOnce) {
  ProfileId bat;
  std::unique_ptr<World> w = region_with_bat(WorldDef{}, &bat);
  std::uint16_t stone = 0, air = 0;
  ASSERT_EQ(w->block_value("stone", &stone), Status::Ok);
  ASSERT_EQ(w->block_value("air", &air), Status::Ok);
  const auto ps = pairs(*w, bat, 1, 77);
  const CellPos a = ps[0].first;
  // A stone shell 5 x 6 x 5 high in the air above the start, hollow inside (3 x 4 x 3 of air).
  const CellPos lo{a.x - 2, a.y + 6, a.z - 2};
  const CellPos hi{a.x + 2, a.y + 11, a.z + 2};
  ASSERT_EQ(w->set_blocks(std::vector<BlockEdit>{BlockEdit{lo, hi, stone},
                                                 BlockEdit{CellPos{lo.x + 1, lo.y + 1, lo.z + 1},
                                                           CellPos{hi.x - 1, hi.y - 1, hi.z - 1}, air}}),
            Status::Ok);
  w->update();
  const CellPos goal{a.x, lo.y + 1, a.z};
  EXPECT_EQ(w->reachable(bat, a, goal).answer, ReachAnswer::No);
  AgentId id;
  ASSERT_EQ(w->add_agent(AgentDef{bat, feet_of(a), goal}, &id), Status::Ok);
  AgentState st;
  ASSERT_EQ(w->agent_state(id, &st), Status::Ok);
  EXPECT_EQ(st.mode, AgentMode::Planning);
  ASSERT_EQ(w->tick(kDt), Status::Ok);
  ASSERT_EQ(w->agent_state(id, &st), Status::Ok);
  EXPECT_EQ(st.mode, AgentMode::Failed);
  EXPECT_EQ(st.failure, PathFailure::Unreachable);
  std::string why;
  ASSERT_EQ(w->agent_reason(id, &why), Status::Ok);
  EXPECT_NE(why.find("nreachable"), std::string::npos) << why;
  // It hovers where it was put: no gravity for a flyer at rest.
  for (int t = 0; t < 20; ++t) ASSERT_EQ(w->tick(kDt), Status::Ok);
  ASSERT_EQ(w->agent_state(id, &st), Status::Ok);
  EXPECT_EQ(st.feet.y, double(a.y));
  // Orders other than goals are refused for flyers.
  EXPECT_EQ(flee_from(*w, id, a, 4), Status::Unsupported);
}

TEST(FlyerAgents, EditsAheadReplanAndNeverClip) {
  const FlyRun r = fly_scene(WorldDef{}, 24, true, 9191);
  std::printf("[ flyers   ] with %d pillars ahead: %d arrived in %d ticks, %d failed, %d blocked, %u replans\n",
              r.edits, r.arrived, r.ticks, r.failed, r.blocked, r.replans);
  EXPECT_EQ(r.clips, 0);
  EXPECT_GE(r.edits, 10);
  EXPECT_GT(r.replans, 0u);
  EXPECT_GE(r.arrived, 20);
}

TEST(FlyerAgents, SameHashTwiceAndWithThreads) {
  const FlyRun a = fly_scene(WorldDef{}, 12, true, 555);
  const FlyRun b = fly_scene(WorldDef{}, 12, true, 555);
  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  const FlyRun c = fly_scene(def, 12, true, 555);
  std::printf("[ hash     ] flyer scene: %016llx\n", static_cast<unsigned long long>(a.hash));
  EXPECT_EQ(a.hash, b.hash);
  EXPECT_EQ(a.hash, c.hash);
}

}  // namespace
}  // namespace voxnav
