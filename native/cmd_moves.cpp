// voxnav moves WORLD: the movement-step oracle of layer 2 (issue 18). Every move a profile's
// navigation plans out of every standable cell (cell_moves) is driven with the movement step
// (step_body) the way the agents' follower drives it, and every candidate move a body could try
// between neighbouring cells that is not planned is driven too. Two counts come out: planned but
// not executable (must be 0) and executable but not planned (by family).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_common.h"
#include "voxnav/integrate.h"
#include "voxnav/queries.h"

namespace voxnav::cli {

namespace {

constexpr double kTick = 0.05;  // the simulation's 20 Hz
constexpr int kMaxTicks = 80;

enum class Drive { Walk, Jump, Gap };

struct Driver {
  const World& world;
  ProfileId profile;
  BodyParams body;
  double walk = 4.3, sprint = 5.6;
  double offset = 0.5;  // cell corner to body centre: 1.0 for walker_large's 2x2 foot cells
  double feet(CellPos c) const {
    double y = c.y;
    (void)world.standing_height(profile, c, &y);
    return y;
  }
  // The body from the standing spot of s toward that of t at walking speed (a gap jump: at its
  // run speed), slowing onto the point; a jump when on the ground within 1.3 of it (Jump) or at
  // the take-off distance (Gap, `cells` of air). True when it stands on t within 80 ticks.
  bool run(CellPos s, CellPos t, Drive how, int cells = 1) const {
    const double ft = feet(t);
    double speed = walk, take_off = 0;
    if (how == Drive::Gap && gap_jump_run(body, cells, walk, sprint, &speed, &take_off) != Status::Ok)
      return false;
    BodyState st;
    st.feet = {s.x + offset, feet(s), s.z + offset};
    st.on_ground = true;
    for (int k = 0; k < kMaxTicks; ++k) {
      const double dx = t.x + offset - st.feet.x, dz = t.z + offset - st.feet.z;
      const double dist = std::hypot(dx, dz);
      if (st.on_ground && dist < 0.05 && std::abs(st.feet.y - ft) < 1e-3) return true;
      BodyInput in;
      if (dist > 1e-9) {
        const double v = std::min(speed, dist / kTick);
        in.move_x = dx / dist * v;
        in.move_z = dz / dist * v;
      }
      in.jump = st.on_ground && ((how == Drive::Jump && dist < 1.3) ||
                                 (how == Drive::Gap && dist < take_off && dist > take_off - 1.15));
      if (step_body(world, st, in, body, kTick) != Status::Ok) return false;
    }
    return false;
  }
};

struct KindCount {
  std::uint64_t planned = 0, driven = 0, executed = 0;
};

// Families of candidate moves that are not planned (executable but not planned).
enum Family { kLevel, kLevelDiagonal, kUp, kUpDiagonal, kDown, kDownDiagonal, kGap, kFamilies };
const char* const kFamilyNames[kFamilies] = {"level",   "level_diagonal", "up",  "up_diagonal",
                                             "down",    "down_diagonal",  "gap"};

}  // namespace

int cmd_moves(int argc, char** argv) {
  std::string world_path, profile_file;
  bool json = false;
  long limit = 0;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--profile" && i + 1 < argc) {
      profile_file = argv[++i];
    } else if (a == "--limit" && i + 1 < argc) {
      limit = std::strtol(argv[++i], nullptr, 10);
      if (limit < 1) {
        std::fprintf(stderr, "voxnav moves: --limit needs a positive cell count, got '%s'\n", argv[i]);
        return 2;
      }
    } else if (a == "--json") {
      json = true;
    } else if (world_path.empty() && !a.empty() && a[0] != '-') {
      world_path = a;
    } else {
      std::fprintf(stderr, "voxnav moves: unexpected argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (world_path.empty()) {
    std::fprintf(stderr, "usage: voxnav moves WORLD [--profile FILE] [--limit CELLS] [--json]\n");
    return 2;
  }
  World world;
  LoadReport report;
  double build_ms = 0;
  if (!load_world(world, world_path, report, &build_ms)) return 1;
  ProfileId prof;
  Profile p;
  if (!add_profile(world, profile_file, prof, &p)) return 1;
  Driver drv{world, prof, {}, p.walk_speed, std::max(p.walk_speed, p.sprint_speed),
             p.movement_class == MovementClass::WalkerLarge ? 1.0 : 0.5};
  if (profile_body(world, prof, &drv.body) != Status::Ok) return 1;

  std::size_t total = 0;
  if (world.island_cells(prof, nullptr, 0, &total) != Status::Ok) {
    std::fprintf(stderr, "voxnav moves: the profile has no standable cells (a flyer?)\n");
    return 1;
  }
  std::vector<IslandCell> cells(total);
  (void)world.island_cells(prof, cells.data(), cells.size(), &total);
  // Every cell, or an even sample of `limit` of them.
  const std::size_t stride = limit > 0 && total > static_cast<std::size_t>(limit) ? total / static_cast<std::size_t>(limit) : 1;

  std::array<KindCount, 16> kinds{};
  std::array<std::uint64_t, kFamilies> cand_driven{}, cand_exec{};
  std::uint64_t not_driven = 0, failed = 0, sampled = 0;
  std::vector<std::string> failures;
  constexpr int kDx[8] = {1, 0, -1, 0, 1, -1, -1, 1}, kDz[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  CellMove mv[kMaxCellMoves];
  for (std::size_t ci = 0; ci < cells.size(); ci += stride) {
    const CellPos s = cells[ci].cell;
    ++sampled;
    std::size_t n = 0;
    if (cell_moves(world, prof, s, mv, kMaxCellMoves, &n) != Status::Ok) continue;
    auto planned_to = [&](CellPos t) {
      for (std::size_t k = 0; k < n; ++k)
        if (mv[k].to == t) return true;
      return false;
    };
    // Planned moves: each driven the way the follower drives its kind.
    for (std::size_t k = 0; k < n; ++k) {
      KindCount& kc = kinds[static_cast<std::size_t>(mv[k].kind) & 15];
      ++kc.planned;
      const EdgeKind e = mv[k].kind;
      if (e == EdgeKind::Door || e == EdgeKind::Climb || e == EdgeKind::Swim) {
        ++not_driven;  // (a host's door toggle or ladder intents: driven by agents, not here)
        continue;
      }
      const int cells_of_air = std::max(std::abs(mv[k].to.x - s.x), std::abs(mv[k].to.z - s.z)) - 1;
      const Drive how = e == EdgeKind::GapJump ? Drive::Gap : e == EdgeKind::Jump ? Drive::Jump : Drive::Walk;
      ++kc.driven;
      if (drv.run(s, mv[k].to, how, std::max(1, cells_of_air))) {
        ++kc.executed;
      } else {
        ++failed;
        if (failures.size() < 20)
          failures.push_back(std::to_string(s.x) + "," + std::to_string(s.y) + "," + std::to_string(s.z) +
                             " -> " + std::to_string(mv[k].to.x) + "," + std::to_string(mv[k].to.y) + "," +
                             std::to_string(mv[k].to.z) + " " + edge_kind_name(e));
      }
    }
    // Candidates not planned: a neighbouring column's cell a row up (walked, else jumped), the
    // first standable cell of the column at or below the source's row within max_drop (walked);
    // along the axes, gaps of one and two cells (level, a row up or down), run and jumped.
    for (int d = 0; d < 8; ++d) {
      const bool diag = d >= 4;
      const CellPos up{s.x + kDx[d], s.y + 1, s.z + kDz[d]};
      if (world.is_standable(prof, up) && !planned_to(up)) {
        const Family f = diag ? kUpDiagonal : kUp;
        ++cand_driven[f];
        if (drv.run(s, up, Drive::Walk) || drv.run(s, up, Drive::Jump)) ++cand_exec[f];
      }
      for (int dy = 0; dy >= -p.max_drop; --dy) {
        const CellPos t{s.x + kDx[d], s.y + dy, s.z + kDz[d]};
        if (!world.is_standable(prof, t)) continue;
        if (!planned_to(t)) {
          const Family f = dy == 0 ? (diag ? kLevelDiagonal : kLevel) : (diag ? kDownDiagonal : kDown);
          ++cand_driven[f];
          if (drv.run(s, t, Drive::Walk) || (dy == 0 && drv.run(s, t, Drive::Jump))) ++cand_exec[f];
        }
        break;
      }
      if (diag) continue;
      // (only over a real gap: no ground within a row of the source's in the columns between)
      bool open = true;
      for (int r = 2; r <= 3 && open; ++r) {
        for (int dy = -1; dy <= 1; ++dy)
          open = open && !world.is_standable(prof, CellPos{s.x + (r - 1) * kDx[d], s.y + dy, s.z + (r - 1) * kDz[d]});
        if (!open) break;
        for (int dy = -1; dy <= 1; ++dy) {
          const CellPos t{s.x + r * kDx[d], s.y + dy, s.z + r * kDz[d]};
          if (!world.is_standable(prof, t) || planned_to(t)) continue;
          ++cand_driven[kGap];
          if (drv.run(s, t, Drive::Gap, r - 1)) ++cand_exec[kGap];
        }
      }
    }
  }
  std::uint64_t planned = 0, driven = 0;
  for (const KindCount& k : kinds) planned += k.planned, driven += k.driven;
  if (json) {
    std::printf("{\"world\":\"%s\",\"cells\":%zu,\"sampled\":%llu,\"planned\":%llu,\"driven\":%llu,"
                "\"planned_not_executable\":%llu,\"not_driven\":%llu,\"kinds\":{",
                json_escape(world_path).c_str(), total, static_cast<unsigned long long>(sampled),
                static_cast<unsigned long long>(planned), static_cast<unsigned long long>(driven),
                static_cast<unsigned long long>(failed), static_cast<unsigned long long>(not_driven));
    bool first = true;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
      if (!kinds[k].planned) continue;
      std::printf("%s\"%s\":{\"planned\":%llu,\"driven\":%llu,\"executed\":%llu}", first ? "" : ",",
                  edge_kind_name(static_cast<EdgeKind>(k)), static_cast<unsigned long long>(kinds[k].planned),
                  static_cast<unsigned long long>(kinds[k].driven), static_cast<unsigned long long>(kinds[k].executed));
      first = false;
    }
    std::printf("},\"executable_not_planned\":{");
    for (int f = 0; f < kFamilies; ++f)
      std::printf("%s\"%s\":{\"driven\":%llu,\"executable\":%llu}", f ? "," : "", kFamilyNames[f],
                  static_cast<unsigned long long>(cand_driven[f]), static_cast<unsigned long long>(cand_exec[f]));
    std::printf("},\"failures\":[");
    for (std::size_t i = 0; i < failures.size(); ++i) std::printf("%s\"%s\"", i ? "," : "", failures[i].c_str());
    std::printf("]}\n");
  } else {
    std::printf("world %s (%s): %zu standable cells, %llu sampled; navigation built in %.1f ms\n",
                world_path.c_str(), report.format.c_str(), total, static_cast<unsigned long long>(sampled), build_ms);
    std::printf("planned moves %llu, driven %llu (%llu door, ladder and swim moves not driven)\n",
                static_cast<unsigned long long>(planned), static_cast<unsigned long long>(driven),
                static_cast<unsigned long long>(not_driven));
    for (std::size_t k = 0; k < kinds.size(); ++k)
      if (kinds[k].planned)
        std::printf("  %-10s planned %8llu  executed %8llu of %llu driven\n", edge_kind_name(static_cast<EdgeKind>(k)),
                    static_cast<unsigned long long>(kinds[k].planned), static_cast<unsigned long long>(kinds[k].executed),
                    static_cast<unsigned long long>(kinds[k].driven));
    std::printf("planned but not executable: %llu\n", static_cast<unsigned long long>(failed));
    for (const std::string& f : failures) std::printf("  %s\n", f.c_str());
    std::printf("executable but not planned (candidates driven / executable):\n");
    for (int f = 0; f < kFamilies; ++f)
      std::printf("  %-15s %8llu / %llu\n", kFamilyNames[f], static_cast<unsigned long long>(cand_driven[f]),
                  static_cast<unsigned long long>(cand_exec[f]));
  }
  return failed ? 3 : 0;
}

}  // namespace voxnav::cli
