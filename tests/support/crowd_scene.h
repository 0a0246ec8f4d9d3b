// Crowd scenes shared by the steering suites (tests/steer): small worlds drawn as rows of text on
// the real Minecraft registry (data/blocks: stone, lava), agents on cell centres, and a run that
// checks every tick, for every agent, with its own box test that no stone or lava block is inside
// the body and that the foot cell is not over lava, and measures the smallest gap between two
// bodies (centre distance minus both half widths). GoogleTest-aware (EXPECT inside).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/integrate/integrate_math.h"
#include "test_support.h"
#include "voxnav/crowds.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav::test::crowd {

const std::string kBlocksDir = std::string(VOXNAV_FIXTURES) + "/../../data/blocks/";

struct Registry {
  std::vector<std::uint8_t> blocks, shapes;
  Registry() {
    blocks = test::read_bytes(kBlocksDir + "blocks.pc-1.21.1.json");
    shapes = test::read_bytes(kBlocksDir + "blockCollisionShapes.pc-1.20.5.json");
  }
};
inline const Registry& registry() {
  static const Registry* r = new Registry();
  return *r;
}

/// A scene from rows of text, row z = 0 first, column x = 0 first: '.' a stone floor (y = 0),
/// '#' a stone wall (floor and y = 1..3), 'L' lava in the floor, 'S' a raised floor one block
/// high (stone at y = 0 and 1: a jump up from the floor). Cells of the loaded chunks
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
            if (c == 'S') v[i(1)] = stone;
          }
        EXPECT_EQ(w->load_chunk(ChunkPos{cx, 0, cz}, v), Status::Ok);
        EXPECT_EQ(w->load_chunk(ChunkPos{cx, 1, cz}, air), Status::Ok);
      }
    EXPECT_EQ(w->add_profile(profile, &walker, &err), Status::Ok) << err;
    half_width = 0.5 * profile.width;
    w->update();
  }

  /// An agent with its feet on the centre of cell (x, 1, z), sent to cell (gx, gy, gz) (none when
  /// `idle`).
  void add(int x, int z, int gx, int gz, bool idle = false, int gy = 1) {
    AgentId id;
    AgentDef def{walker, Vec3{x + 0.5, 1.0, z + 0.5}};
    if (!idle) def.goal = CellPos{gx, gy, gz};
    ASSERT_EQ(w->add_agent(def, &id), Status::Ok);
    ids.push_back(id);
    goals.push_back(CellPos{gx, gy, gz});
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
inline bool body_meets(const World& w, const Vec3& f, double hw, double h, std::uint16_t value,
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

/// Runs up to `budget` ticks; `each`, when given, is called after every tick with the tick's
/// number (from 0) and the agents' states.
inline Outcome run(Scene& s, int budget, const std::vector<bool>& idle = {},
                   const std::function<void(int, const std::vector<AgentState>&)>& each = {}) {
  Outcome r;
  const std::size_t n = s.ids.size();
  std::vector<AgentState> st(n);
  for (int t = 0; t < budget; ++t) {
    EXPECT_EQ(s.w->tick(0.05), Status::Ok);
    r.ticks = t + 1;
    bool all = true;
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_EQ(s.w->agent_state(s.ids[i], &st[i]), Status::Ok);
    if (each) each(t, st);
    for (std::size_t i = 0; i < n; ++i) {
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
inline void expect_good(const Outcome& r, const char* scene, double overlap = 0.15) {
  EXPECT_TRUE(r.arrived) << scene << ": not everyone arrived within " << r.ticks << " ticks";
  EXPECT_EQ(r.inside_stone, 0) << scene << ": " << r.first_problem;
  EXPECT_EQ(r.in_lava, 0) << scene << ": " << r.first_problem;
  EXPECT_GT(r.min_gap, -overlap) << scene << ": bodies overlapped by " << -r.min_gap;
  std::printf("[ scene    ] %-28s ticks %4d  min gap %+.3f cells\n", scene, r.ticks, r.min_gap);
}

inline std::vector<std::string> open_floor(int w, int d) {
  std::vector<std::string> rows(static_cast<std::size_t>(d),
                                std::string(static_cast<std::size_t>(w), '.'));
  return rows;
}

/// The cells of a ring of `n` agents around (16, 16), radius 10 cells, each sent to the
/// opposite one (the library's own trigonometry, so the cells are the same in every build).
inline void ring(Scene& s, int n) {
  for (int k = 0; k < n; ++k) {
    const auto angle = static_cast<std::uint16_t>(k * 65536 / n);
    const detail::SinCos sc = detail::det_sin_cos(angle);
    const int x = 16 + static_cast<int>(std::lround(10.0 * sc.cos));
    const int z = 16 + static_cast<int>(std::lround(10.0 * sc.sin));
    s.add(x, z, 32 - x, 32 - z);
  }
}

}  // namespace voxnav::test::crowd
