// Steering among agents (engine/steer, voxnav/crowds.h) in the crowd scenes crowd libraries are
// judged by: a head-on symmetric pair, rings of 2 to 8 agents swapping sides, a 1-wide doorway
// crossed from both sides, an idle agent in a corridor, a pillar exactly on the straight line and
// a 3-wide bridge over lava crossed both ways. Worlds use the real Minecraft registry (data/blocks:
// stone, lava). Every tick, for every agent, the test checks with its own box test that no stone
// or lava block is inside the body and that the foot cell is not over lava; it measures the
// smallest gap between two bodies (centre distance minus both half widths) over the run. Every
// scene must end with everyone Arrived within its tick budget. Runs natively and in wasm: the
// pinned hash of the ring of eight is the same bits in both builds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/integrate/integrate_math.h"
#include "test_support.h"
#include "voxnav/crowds.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/thread_pool.h"
#endif

namespace voxnav {
namespace {

const std::string kBlocksDir = std::string(VOXNAV_FIXTURES) + "/../../data/blocks/";

struct Registry {
  std::vector<std::uint8_t> blocks, shapes;
  Registry() {
    blocks = test::read_bytes(kBlocksDir + "blocks.pc-1.21.1.json");
    shapes = test::read_bytes(kBlocksDir + "blockCollisionShapes.pc-1.20.5.json");
  }
};
const Registry& registry() {
  static const Registry* r = new Registry();
  return *r;
}

/// A scene from rows of text, row z = 0 first, column x = 0 first: '.' a stone floor (y = 0),
/// '#' a stone wall (floor and y = 1..3), 'L' lava in the floor. Cells of the loaded chunks
/// outside the rows are walls. Agents stand with their feet at y = 1.
struct Scene {
  std::unique_ptr<World> w;
  ProfileId walker;
  std::uint16_t stone = 0, lava = 0;
  std::vector<AgentId> ids;
  std::vector<CellPos> goals;
  double half_width = 0.3;

  Scene(const std::vector<std::string>& rows, const Profile& profile = Profile{},
        const WorldDef& def = WorldDef{}) {
    w = std::make_unique<World>(def);
    std::string err;
    EXPECT_EQ(w->load_minecraft_blocks(registry().blocks, registry().shapes, &err), Status::Ok)
        << err;
    EXPECT_EQ(w->block_value("stone", &stone), Status::Ok);
    EXPECT_EQ(w->block_value("lava", &lava), Status::Ok);
    const int depth = static_cast<int>(rows.size());
    int width = 0;
    for (const std::string& r : rows) width = std::max(width, static_cast<int>(r.size()));
    auto at = [&](int x, int z) -> char {
      if (x < 0 || z < 0 || z >= depth ||
          x >= static_cast<int>(rows[static_cast<std::size_t>(z)].size()))
        return '#';
      return rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)];
    };
    for (int cz = 0; cz * 16 < depth; ++cz)
      for (int cx = 0; cx * 16 < width; ++cx) {
        std::vector<std::uint16_t> v(kChunkValues, 0), air(kChunkValues, 0);
        for (int z = 0; z < 16; ++z)
          for (int x = 0; x < 16; ++x) {
            const char c = at(cx * 16 + x, cz * 16 + z);
            const auto i = [&](int y) { return static_cast<std::size_t>(x + 16 * (z + 16 * y)); };
            v[i(0)] = c == 'L' ? lava : stone;
            if (c == '#')
              for (int y = 1; y <= 3; ++y) v[i(y)] = stone;
          }
        EXPECT_EQ(w->load_chunk(ChunkPos{cx, 0, cz}, v), Status::Ok);
        EXPECT_EQ(w->load_chunk(ChunkPos{cx, 1, cz}, air), Status::Ok);
      }
    EXPECT_EQ(w->add_profile(profile, &walker, &err), Status::Ok) << err;
    half_width = 0.5 * profile.width;
    w->update();
  }

  /// An agent with its feet on the centre of cell (x, 1, z), sent to cell (gx, 1, gz) (none when
  /// `idle`).
  void add(int x, int z, int gx, int gz, bool idle = false) {
    AgentId id;
    AgentDef def{walker, Vec3{x + 0.5, 1.0, z + 0.5}};
    if (!idle) def.goal = CellPos{gx, 1, gz};
    ASSERT_EQ(w->add_agent(def, &id), Status::Ok);
    ids.push_back(id);
    goals.push_back(CellPos{gx, 1, gz});
  }
};

/// What a run measured.
struct Outcome {
  int ticks = 0;         ///< ticks until everyone (but idle agents) Arrived, or the budget
  bool arrived = false;  ///< everyone arrived within the budget
  double min_gap = 1e9;  ///< smallest centre distance minus both half widths, cells
  int inside_stone = 0;  ///< agent ticks with a stone block inside the body
  int in_lava = 0;       ///< agent ticks with lava inside the body or under its centre
  std::string first_problem;
  std::uint64_t hash = 0;
};

/// Whether a block of `value` lies inside the body whose feet are at `f` (full cubes; the body's
/// box shrunk by 1e-3 so that touching is not inside), or, with `under`, in the column under the
/// body's centre in the cell just below the feet.
bool body_meets(const World& w, const Vec3& f, double hw, double h, std::uint16_t value,
                bool under) {
  const double e = 1e-3;
  const int x0 = static_cast<int>(std::floor(f.x - hw + e)),
            x1 = static_cast<int>(std::floor(f.x + hw - e));
  const int z0 = static_cast<int>(std::floor(f.z - hw + e)),
            z1 = static_cast<int>(std::floor(f.z + hw - e));
  const int y0 = static_cast<int>(std::floor(f.y + e)),
            y1 = static_cast<int>(std::floor(f.y + h - e));
  std::uint16_t v = 0;
  for (int y = y0; y <= y1; ++y)
    for (int z = z0; z <= z1; ++z)
      for (int x = x0; x <= x1; ++x)
        if (w.get_block(CellPos{x, y, z}, &v) == Status::Ok && v == value) return true;
  if (under) {
    const CellPos below{static_cast<int>(std::floor(f.x)),
                        static_cast<int>(std::floor(f.y + e)) - 1,
                        static_cast<int>(std::floor(f.z))};
    if (w.get_block(below, &v) == Status::Ok && v == value) return true;
  }
  return false;
}

Outcome run(Scene& s, int budget, const std::vector<bool>& idle = {}) {
  Outcome r;
  const std::size_t n = s.ids.size();
  std::vector<AgentState> st(n);
  for (int t = 0; t < budget; ++t) {
    EXPECT_EQ(s.w->tick(0.05), Status::Ok);
    r.ticks = t + 1;
    bool all = true;
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(s.w->agent_state(s.ids[i], &st[i]), Status::Ok);
      const bool is_idle = i < idle.size() && idle[i];
      if (!is_idle && st[i].mode != AgentMode::Arrived) all = false;
      const Vec3& f = st[i].feet;
      if (body_meets(*s.w, f, s.half_width, 1.8, s.stone, false)) {
        if (r.inside_stone++ == 0)
          r.first_problem = "agent " + std::to_string(i) + " inside stone at tick " +
                            std::to_string(t) + " (" + std::to_string(f.x) + ", " +
                            std::to_string(f.y) + ", " + std::to_string(f.z) + ")";
      }
      if (body_meets(*s.w, f, s.half_width, 1.8, s.lava, true)) {
        if (r.in_lava++ == 0)
          r.first_problem = "agent " + std::to_string(i) + " in lava at tick " + std::to_string(t) +
                            " (" + std::to_string(f.x) + ", " + std::to_string(f.y) + ", " +
                            std::to_string(f.z) + ")";
      }
    }
    if (std::getenv("STEER_TRACE"))
      for (std::size_t i = 0; i < n; ++i)
        std::printf("t %d a %zu mode %d (%.3f, %.3f, %.3f) v (%.2f, %.2f)\n", t, i,
                    static_cast<int>(st[i].mode), st[i].feet.x, st[i].feet.y, st[i].feet.z,
                    st[i].velocity.x, st[i].velocity.z);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        const double d = std::hypot(st[i].feet.x - st[j].feet.x, st[i].feet.z - st[j].feet.z);
        r.min_gap = std::min(r.min_gap, d - 2 * s.half_width);
      }
    if (all) {
      r.arrived = true;
      break;
    }
  }
  EXPECT_EQ(state_hash(*s.w, s.ids, &r.hash), Status::Ok);
  return r;
}

/// The common assertions: everyone arrived within the budget, nobody in stone or lava, bodies
/// never overlapping by more than `overlap` cells.
void expect_good(const Outcome& r, const char* scene, double overlap = 0.15) {
  EXPECT_TRUE(r.arrived) << scene << ": not everyone arrived within " << r.ticks << " ticks";
  EXPECT_EQ(r.inside_stone, 0) << scene << ": " << r.first_problem;
  EXPECT_EQ(r.in_lava, 0) << scene << ": " << r.first_problem;
  EXPECT_GT(r.min_gap, -overlap) << scene << ": bodies overlapped by " << -r.min_gap;
  std::printf("[ scene    ] %-28s ticks %4d  min gap %+.3f cells\n", scene, r.ticks, r.min_gap);
}

std::vector<std::string> open_floor(int w, int d) {
  std::vector<std::string> rows(static_cast<std::size_t>(d),
                                std::string(static_cast<std::size_t>(w), '.'));
  return rows;
}

TEST(CrowdScenes, HeadOnSymmetricPair) {
  Scene s(open_floor(32, 16));
  s.add(4, 8, 27, 8);
  s.add(27, 8, 4, 8);
  const Outcome r = run(s, 400);
  expect_good(r, "head-on pair");
  // Straight line: 23 cells at 4.3 m/s is 107 ticks; passing each other costs a few more.
  EXPECT_LT(r.ticks, 107 + 60);
}

/// The cells of a ring of `n` agents around (16, 16), radius 10 cells, each sent to the
/// opposite one (the library's own trigonometry, so the cells are the same in every build).
void ring(Scene& s, int n) {
  for (int k = 0; k < n; ++k) {
    const auto angle = static_cast<std::uint16_t>(k * 65536 / n);
    const detail::SinCos sc = detail::det_sin_cos(angle);
    const int x = 16 + static_cast<int>(std::lround(10.0 * sc.cos));
    const int z = 16 + static_cast<int>(std::lround(10.0 * sc.sin));
    s.add(x, z, 32 - x, 32 - z);
  }
}

TEST(CrowdScenes, RingsOfTwoToEightSwapSides) {
  for (int n = 2; n <= 8; ++n) {
    Scene s(open_floor(33, 33));
    ring(s, n);
    const Outcome r = run(s, 600);
    const std::string name = "ring of " + std::to_string(n);
    expect_good(r, name.c_str());
  }
}

TEST(CrowdScenes, DoorwayFromBothSides) {
  // A wall across the floor at x = 12 with a 1-wide gap at z = 8; three agents each side, each
  // sent to the mirror cell on the other side.
  std::vector<std::string> rows = open_floor(25, 17);
  for (int z = 0; z < 17; ++z)
    if (z != 8) rows[static_cast<std::size_t>(z)][12] = '#';
  Scene s(rows);
  for (int k = 0; k < 3; ++k) {
    s.add(4, 6 + 2 * k, 20, 6 + 2 * k);
    s.add(20, 7 + 2 * k, 4, 7 + 2 * k);
  }
  const Outcome r = run(s, 1600);
  expect_good(r, "doorway both sides");
}

TEST(CrowdScenes, IdleAgentInACorridor) {
  // A corridor 3 cells wide and 24 long; an idle agent stands in its middle; walkers pass it
  // from both ends.
  std::vector<std::string> rows(5, std::string(26, '#'));
  for (int z = 1; z <= 3; ++z)
    for (int x = 1; x <= 24; ++x)
      rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = '.';
  Scene s(rows);
  s.add(12, 2, 0, 0, true);
  s.add(2, 2, 23, 2);
  s.add(23, 2, 2, 2);
  const Outcome r = run(s, 800, {true, false, false});
  expect_good(r, "idle agent in a corridor");
  AgentState idle;
  ASSERT_EQ(s.w->agent_state(s.ids[0], &idle), Status::Ok);
  EXPECT_EQ(idle.mode, AgentMode::Idle);
  EXPECT_TRUE(idle.feet.z >= 1.3 && idle.feet.z <= 3.7) << "still inside the corridor";
}

TEST(CrowdScenes, PillarExactlyOnTheStraightLine) {
  std::vector<std::string> rows = open_floor(32, 17);
  rows[8][16] = '#';
  Scene s(rows);
  s.add(4, 8, 28, 8);
  s.add(28, 8, 4, 8);
  s.add(4, 7, 28, 9);
  const Outcome r = run(s, 600);
  expect_good(r, "pillar on the line");
}

TEST(CrowdScenes, ThreeWideBridgeOverLavaBothWays) {
  // Floor x 0..5 and 30..35, a lava lake between, a bridge 3 wide (z = 7..9) across it.
  std::vector<std::string> rows = open_floor(36, 17);
  for (int z = 0; z < 17; ++z)
    for (int x = 6; x < 30; ++x)
      if (z < 7 || z > 9) rows[static_cast<std::size_t>(z)][static_cast<std::size_t>(x)] = 'L';
  Scene s(rows);
  for (int k = 0; k < 3; ++k) {
    s.add(2, 6 + 2 * k, 33, 6 + 2 * k);
    s.add(33, 7 + 2 * k, 2, 7 + 2 * k);
  }
  const Outcome r = run(s, 1600);
  expect_good(r, "bridge over lava");
}

TEST(CrowdScenes, ArrivalContagionAtOneGoal) {
  // Six agents sent to one cell: the first stands on it, the others arrive touching it or each
  // other instead of pushing forever.
  Scene s(open_floor(32, 32));
  for (int k = 0; k < 6; ++k) s.add(4 + 4 * k, 4, 16, 24);
  const Outcome r = run(s, 600);
  expect_good(r, "six to one goal");
  int on_goal = 0;
  for (AgentId id : s.ids) {
    AgentState a;
    ASSERT_EQ(s.w->agent_state(id, &a), Status::Ok);
    if (std::hypot(a.feet.x - 16.5, a.feet.z - 24.5) < 0.5) ++on_goal;
  }
  EXPECT_GE(on_goal, 1);
  EXPECT_LE(on_goal, 2) << "bodies do not share the goal cell";
}

TEST(CrowdScenes, SameSceneTwiceSameHashAndPinnedAcrossBuilds) {
  std::uint64_t h[2];
  for (int k = 0; k < 2; ++k) {
    Scene s(open_floor(33, 33));
    ring(s, 8);
    const Outcome r = run(s, 600);
    EXPECT_TRUE(r.arrived);
    h[k] = r.hash;
  }
  EXPECT_EQ(h[0], h[1]);
  // Pinned: the wasm build must give the same bits. Re-pin (the printed value) only when the
  // agents' behaviour changes on purpose.
  EXPECT_EQ(h[0], 0x67acf2e9f048ce6dull);
  std::printf("[ hash     ] ring of 8: %016llx\n", static_cast<unsigned long long>(h[0]));
}

#ifndef __EMSCRIPTEN__
TEST(CrowdScenes, WithThreadsTheSameHash) {
  // Searches on a 2-thread pool (natively): the same bits as without threads.
  native::ThreadPool pool(2);
  WorldDef def;
  def.executor = &pool;
  Scene s(open_floor(33, 33), Profile{}, def);
  ring(s, 8);
  const Outcome r = run(s, 600);
  EXPECT_TRUE(r.arrived);
  EXPECT_EQ(r.hash, 0x67acf2e9f048ce6dull);
}
#endif

TEST(CrowdScenes, WithoutSteeringThePairWalksThroughEachOther) {
  // Avoidance off in the profile and separation off in the World: the head-on pair walks
  // through each other (the behaviour before steering), which the scene above does not.
  Profile p;
  p.avoidance.enabled = false;
  Scene s(open_floor(32, 16), p);
  set_separation(*s.w, false);
  EXPECT_FALSE(separation(*s.w));
  s.add(4, 8, 27, 8);
  s.add(27, 8, 4, 8);
  const Outcome r = run(s, 400);
  EXPECT_TRUE(r.arrived);
  EXPECT_LT(r.min_gap, -0.3) << "the bodies pass through each other";
  set_separation(*s.w, true);
  EXPECT_TRUE(separation(*s.w));
}

}  // namespace
}  // namespace voxnav
