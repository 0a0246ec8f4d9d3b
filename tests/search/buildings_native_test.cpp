// Scenario tests on real buildings (issue 5): ladders, doors (open and closed), stairs and slabs of
// shared/data/minecraft/schematics/smallhouse1.schem, navigated by profiles that can or cannot
// climb and open doors; the same scenario checks, found from the blocks, on a building that is not
// in the repository (VOXNAV_EXTRA_SCHEM, see ExtraBuilding below).
//
// What each profile must get (DESIGN.md "Doors", "Climbing"; issue 5 "Reachability gating"):
// - a climber goes up and down ladders (Climb edges over the climbable cells);
// - a profile that cannot climb gets Unknown(ProfileRestricted) for a goal behind a ladder, never
//   a wrong No, and no path with a Climb edge;
// - a closed door passes only profiles with can_open_doors: the others get Unknown(DoorGated)
//   for a goal only reachable through it and no path through the door cell; an open door passes
//   everyone; a door cell is entered with an EdgeKind::Door move, along the door's axis only.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/nav/world_access.h"
#include "test_support.h"
#include "voxnav/world.h"

namespace voxnav {
// Names instead of bytes in GoogleTest messages.
void PrintTo(ReachAnswer a, std::ostream* os) { *os << reach_answer_name(a); }
void PrintTo(ReachReason r, std::ostream* os) { *os << reach_reason_name(r); }
void PrintTo(EdgeKind k, std::ostream* os) { *os << edge_kind_name(k); }
void PrintTo(PathState s, std::ostream* os) { *os << path_state_name(s); }
namespace detail {
void PrintTo(CellKind k, std::ostream* os) {
  static const char* const kNames[] = {"Blocked",     "Air",        "Walkable",    "Water",
                                       "Climbable",   "DoorOpen",   "DoorClosed",  "DamageFire",
                                       "DamageOther", "DangerFire", "DangerOther", "Slow"};
  const auto i = static_cast<std::size_t>(k);
  *os << (i < std::size(kNames) ? kNames[i] : "?") << " (" << i << ")";
}
}  // namespace detail

namespace {

using detail::CellKind;

const std::string kSmallHouse =
    std::string(VOXNAV_SHARED_DATA) + "/minecraft/schematics/smallhouse1.schem";

// ---- Survey of smallhouse1.schem ----------------------------------------------------------------
// How these were found: the Sponge schematic (21 x 28 x 20, DataVersion 2584) was decoded with a
// small Python NBT reader (Palette + varint BlockData, index x + 21 * (z + 20 * y)), and the
// walker's layer 0 kinds, islands and paths were dumped at the base commit (d9f9a5b, before doors
// and ladders had kinds of their own). Coordinates are the world cells native::load_world_file
// gives a .schem with the default origin: the schematic's minimum corner at (0, 0, 0)
// (world_files_native_test: min (0,0,0), max (20,27,19); the file's Offset / WEOffset are ignored).
//
// Layout: a ground floor (feet y = 1, floor y = 0) inside a log house (x 6..14, z 6..12) with two
// doors on the x = 10 axis, surrounded by an outside ring (x 3..17, z 3..15, feet y = 1) that is
// connected to the inside only through those doors (their inner sides, (10,1,6) and (10,1,12), are
// red_carpet: a floor 1/16 above the door cell's). A spiral of slabs and blocks around the log
// pillar (10, 1..15, 9) leads from the ground floor up to the upper storey (feet y = 12, planks at
// y = 11; x 6..14, z 5..13): every walker gets there without climbing. The attic room above it
// (feet y = 16 on top slabs at y = 15; x 7..13, z 8..10) is reached only by the ladder column
// (10, 13..17, 14): from the upper storey a walker steps onto the spruce stair (10,12,13) to the
// ladder's foot, climbs, and steps out north onto the top-slab corridor (10, 16, 11..13) between
// fences, which leads into the attic. Two closed doors in the attic's end walls open onto two small
// fenced balconies (x = 5 and x = 15, z 8..10, feet y = 16) that nothing else reaches.
constexpr CellPos kGroundInside{10, 1, 7};   // ground floor, inside the house
constexpr CellPos kGroundNorth{10, 1, 3};    // outside ring, in front of the north door
constexpr CellPos kGroundSouth{10, 1, 15};   // outside ring, in front of the south door
constexpr CellPos kNorthDoor{10, 1, 5};      // lower half; upper half (10,2,5); closed
constexpr CellPos kSouthDoor{10, 1, 13};     // lower half; upper half (10,2,13); open
constexpr CellPos kUpperStorey{10, 12, 12};  // upper storey floor, reached by the spiral stair
constexpr CellPos kLadderFoot{10, 13, 13};   // on spruce_stairs (10,12,13), facing the ladder
constexpr int kLadderX = 10, kLadderZ = 14, kLadderY0 = 13, kLadderY1 = 17;  // ladder blocks
constexpr CellPos kLadderTop{10, 16, 13};   // first cell off the ladder: top slab (10,15,13)
constexpr CellPos kAttic{10, 16, 10};       // attic room floor (top slab (10,15,10))
constexpr CellPos kWestDoor{6, 16, 10};     // lower half; upper half (6,17,10); closed
constexpr CellPos kWestBalcony{5, 16, 9};   // balcony cells (5, 16, 8..10): only via kWestDoor
constexpr CellPos kEastDoor{14, 16, 8};     // lower half; upper half (14,17,8); closed
constexpr CellPos kEastBalcony{15, 16, 9};  // balcony cells (15, 16, 8..10): only via kEastDoor
// Exact block states of the doors in the file.
const char* const kWestLowerClosed =
    "oak_door[facing=west,half=lower,hinge=left,open=false,powered=false]";
const char* const kWestUpperClosed =
    "oak_door[facing=west,half=upper,hinge=left,open=false,powered=false]";
const char* const kWestLowerOpen =
    "oak_door[facing=west,half=lower,hinge=left,open=true,powered=false]";
const char* const kWestUpperOpen =
    "oak_door[facing=west,half=upper,hinge=left,open=true,powered=false]";
const char* const kSouthLowerOpen =
    "oak_door[facing=south,half=lower,hinge=left,open=true,powered=false]";
const char* const kSouthUpperOpen =
    "oak_door[facing=south,half=upper,hinge=left,open=true,powered=false]";
const char* const kSouthLowerClosed =
    "oak_door[facing=south,half=lower,hinge=left,open=false,powered=false]";
const char* const kSouthUpperClosed =
    "oak_door[facing=south,half=upper,hinge=left,open=false,powered=false]";
// The shipped Minecraft regions (shared/data/minecraft/regions/{1.12.2,1.16,1.18.2}) were scanned
// block by block the same way: none holds a door or a ladder (no village; the only built blocks
// are a 1.16 mineshaft's planks, fences and rails), so the building "not in the repository" is
// taken from VOXNAV_EXTRA_SCHEM instead.

// ---- helpers
// ---------------------------------------------------------------------------------------

std::string str(CellPos c) {
  std::ostringstream o;
  o << '(' << c.x << ',' << c.y << ',' << c.z << ')';
  return o.str();
}

std::string describe(const PathResult& r) {
  std::ostringstream o;
  o << path_state_name(r.status.state) << '/' << path_failure_name(r.status.failure) << " cost "
    << r.status.cost << " cells:";
  for (const PathCell& c : r.cells) o << ' ' << str(c.cell) << edge_kind_name(c.kind);
  o << " waypoints:";
  for (const Waypoint& w : r.waypoints) o << ' ' << str(w.cell) << edge_kind_name(w.kind);
  return o.str();
}

std::string describe(const Reach& r) {
  return std::string(reach_answer_name(r.answer)) + "/" + reach_reason_name(r.reason);
}

bool has_cell(const PathResult& r, CellPos c) {
  return std::any_of(r.cells.begin(), r.cells.end(),
                     [&](const PathCell& p) { return p.cell == c; });
}
EdgeKind kind_into(const PathResult& r, CellPos c) {
  for (const PathCell& p : r.cells)
    if (p.cell == c) return p.kind;
  return EdgeKind::Start;
}
int cells_of_kind(const PathResult& r, EdgeKind k) {
  return static_cast<int>(std::count_if(r.cells.begin(), r.cells.end(),
                                        [&](const PathCell& p) { return p.kind == k; }));
}
int waypoints_of_kind(const PathResult& r, EdgeKind k) {
  return static_cast<int>(std::count_if(r.waypoints.begin(), r.waypoints.end(),
                                        [&](const Waypoint& w) { return w.kind == k; }));
}
bool ready(const PathResult& r) { return r.status.state == PathState::Ready && !r.status.partial; }

CellPos dc(CellPos c) { return CellPos{c.x, c.y, c.z}; }

/// "prop=value" of a state string, or "".
std::string prop(const std::string& state, const std::string& name) {
  const std::size_t a = state.find('[');
  if (a == std::string::npos) return {};
  std::string body = state.substr(a + 1, state.size() - a - 2);
  std::stringstream ss(body);
  std::string kv;
  while (std::getline(ss, kv, ','))
    if (kv.compare(0, name.size() + 1, name + "=") == 0) return kv.substr(name.size() + 1);
  return {};
}

/// A building loaded from a world file with four walker profiles: `walker` (no climbing, no doors:
/// the default profile load_region adds), `climber` (can_climb, climb speed 2), `opener`
/// (can_open_doors) and `both`.
struct Building {
  std::unique_ptr<World> w;
  ProfileId walker, climber, opener, both;

  explicit Building(const std::string& path) {
    w = test::load_region(path, &walker);
    if (!w) return;
    Profile c;
    c.id = "climber";
    c.can_climb = true;
    c.climb_speed = 2.0;
    Profile o;
    o.id = "opener";
    o.can_open_doors = true;
    Profile b = c;
    b.id = "climber_opener";
    b.can_open_doors = true;
    std::string err;
    EXPECT_EQ(w->add_profile(c, &climber, &err), Status::Ok) << err;
    EXPECT_EQ(w->add_profile(o, &opener, &err), Status::Ok) << err;
    EXPECT_EQ(w->add_profile(b, &both, &err), Status::Ok) << err;
    w->update();
  }

  PathResult path(ProfileId p, CellPos a, CellPos b) {
    NavRequest rq;
    rq.profile = p;
    rq.start = a;
    rq.goal = b;
    PathResult r;
    EXPECT_EQ(w->find_path_now(rq, &r), Status::Ok) << str(a) << " -> " << str(b);
    return r;
  }
  Reach reach(ProfileId p, CellPos a, CellPos b) const { return w->reachable(p, a, b); }
  CellKind kind(CellPos c) const { return detail::WorldAccess::state(*w).walker()->grid().kind(dc(c)); }
  std::uint16_t block(CellPos c) const {
    std::uint16_t v = 0;
    EXPECT_EQ(w->get_block(c, &v), Status::Ok) << str(c);
    return v;
  }
  std::string state(CellPos c) const { return detail::WorldAccess::state(*w).blocks.state_string(block(c)); }
  void set(CellPos c, const std::string& state) {
    std::uint16_t v = 0;
    std::string err;
    ASSERT_EQ(w->block_value(state, &v, &err), Status::Ok) << state << ": " << err;
    ASSERT_EQ(w->set_block(c, v), Status::Ok) << str(c);
  }
};

/// A door found in the blocks: its lower half, whether it is open, and the two cells in front of
/// and behind it along its axis.
struct Door {
  CellPos lower;
  bool open = false;
  CellPos front, back;
};
/// A column of climbable blocks (ladders, vines ...): x, z and the lowest / highest block.
struct ClimbColumn {
  int x = 0, z = 0, y0 = 0, y1 = 0;
};
struct Found {
  std::vector<Door> doors;
  std::vector<ClimbColumn> columns;
  std::vector<CellPos> standable;  ///< every standable cell (walker class), in scan order
};

Found find_features(Building& b) {
  Found f;
  const detail::WorldState& st = detail::WorldAccess::state(*b.w);
  std::vector<ChunkPos> chunks = st.space.loaded_chunks();
  std::sort(chunks.begin(), chunks.end(), [](const ChunkPos& p, const ChunkPos& q) {
    return std::tie(p.y, p.z, p.x) < std::tie(q.y, q.z, q.x);
  });
  std::map<std::pair<int, int>, std::vector<int>> climb;  // (x, z) -> ys
  for (const ChunkPos& p : chunks)
    for (int ly = 0; ly < 16; ++ly)
      for (int lz = 0; lz < 16; ++lz)
        for (int lx = 0; lx < 16; ++lx) {
          const CellPos c{p.x * 16 + lx, p.y * 16 + ly, p.z * 16 + lz};
          const std::uint16_t v = st.space.block(dc(c));
          const std::uint32_t tr = st.registry.traits(v);
          if (tr & detail::kTraitClimbable) climb[{c.x, c.z}].push_back(c.y);
          if (tr & detail::kTraitDoor) {
            const std::string s = st.blocks.state_string(v);
            if (prop(s, "half") == "lower") {
              Door d;
              d.lower = c;
              d.open = prop(s, "open") == "true";
              const std::string facing = prop(s, "facing");
              const int dx = facing == "east" ? 1 : facing == "west" ? -1 : 0;
              const int dz = facing == "south" ? 1 : facing == "north" ? -1 : 0;
              d.front = {c.x + dx, c.y, c.z + dz};
              d.back = {c.x - dx, c.y, c.z - dz};
              f.doors.push_back(d);
            }
          }
          if (st.walker()->grid().standable(dc(c))) f.standable.push_back(c);
        }
  for (auto& [xz, ys] : climb) {
    std::sort(ys.begin(), ys.end());
    std::size_t i = 0;
    while (i < ys.size()) {
      std::size_t j = i;
      while (j + 1 < ys.size() && ys[j + 1] == ys[j] + 1) ++j;
      f.columns.push_back({xz.first, xz.second, ys[i], ys[j]});
      i = j + 1;
    }
  }
  return f;
}

/// Every door cell is entered and left along the door's axis (never diagonally), by a Door edge.
void expect_doors_entered_by_axis_moves(Building& b, const PathResult& r, const std::string& what) {
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    const CellKind k = b.kind(r.cells[i].cell);
    if (k != CellKind::DoorOpen && k != CellKind::DoorClosed) continue;
    EXPECT_EQ(r.cells[i].kind, EdgeKind::Door)
        << what << ": door cell " << str(r.cells[i].cell) << " entered by "
        << edge_kind_name(r.cells[i].kind) << "; " << describe(r);
    for (std::size_t j : {i - 1, i + 1}) {
      if (j >= r.cells.size()) continue;  // i - 1 wraps for i == 0
      const CellPos a = r.cells[i].cell, n = r.cells[j].cell;
      EXPECT_EQ(std::abs(a.x - n.x) + std::abs(a.z - n.z), 1)
          << what << ": door cell " << str(a) << " next to " << str(n) << " is not an axis move; "
          << describe(r);
    }
  }
}

/// Layer 0 of the door cells follows the blocks: the lower half's cell is DoorOpen or DoorClosed as
/// the block's `open` property says.
void expect_door_kinds(Building& b, const Found& f) {
  for (const Door& d : f.doors)
    EXPECT_EQ(b.kind(d.lower), d.open ? CellKind::DoorOpen : CellKind::DoorClosed)
        << "door " << str(d.lower) << " " << b.state(d.lower) << ": layer 0 kind "
        << static_cast<int>(b.kind(d.lower));
}

/// Door scenarios on every door whose two sides a body can stand on: the opener walks from one side
/// to the other through the door (a Door edge into the door cell); a profile without
/// can_open_doors passes an open door the same way, and for a closed door gets either a route
/// around it (not through the door cell) or, when none exists, Unknown(DoorGated) and no path.
/// Then every closed door is opened (both halves, the registry's toggled values) and the walker
/// passes it; the blocks are restored afterwards.
/// Whether the class's move graph has a Door move into the door cell from `side`.
bool door_move_from(Building& b, CellPos side, CellPos door) {
  const detail::NavGrid& g = detail::WorldAccess::state(*b.w).walker()->grid();
  const CellPos c{side.x, side.y, side.z};
  detail::NavChunk* ch = g.chunk(detail::chunk_of(c));
  bool found = false;
  if (ch)
    detail::for_each_move(ch, detail::index_in_chunk(c), c,
                          [&](detail::NavChunk*, int, const CellPos& t, int, int code) {
                            if (t.x == door.x && t.y == door.y && t.z == door.z &&
                                detail::kMoveCodes[code].kind == EdgeKind::Door)
                              found = true;
                          });
  return found;
}

/// Doors a body of the class can pass from both sides (the geometry, not the door's state: a
/// carpet under a low lintel can leave too little headroom).
bool crossable(Building& b, const Door& d) {
  return b.w->is_standable(b.walker, d.front) && b.w->is_standable(b.walker, d.back) &&
         door_move_from(b, d.front, d.lower) && door_move_from(b, d.back, d.lower);
}

void door_scenarios(Building& b, const Found& f) {
  const detail::WorldState& st = detail::WorldAccess::state(*b.w);
  int checked = 0;
  for (const Door& d : f.doors) {
    if (!crossable(b, d)) continue;
    ++checked;
    const std::string what = "door " + str(d.lower) + " " + b.state(d.lower);
    for (auto [from, to] : {std::pair{d.front, d.back}, std::pair{d.back, d.front}}) {
      const PathResult o = b.path(b.opener, from, to);
      if (!ready(o)) {  // report every door, not just the first
        ADD_FAILURE() << what << ": opener " << str(from) << " -> " << str(to) << ": "
                      << describe(o) << "; reachable " << describe(b.reach(b.opener, from, to));
        continue;
      }
      EXPECT_TRUE(has_cell(o, d.lower)) << what << ": opener goes around: " << describe(o);
      EXPECT_EQ(kind_into(o, d.lower), EdgeKind::Door) << what << ": " << describe(o);
      EXPECT_GE(waypoints_of_kind(o, EdgeKind::Door), 1) << what << ": " << describe(o);
      EXPECT_EQ(b.reach(b.opener, from, to).answer, ReachAnswer::Yes) << what;
      const Reach r = b.reach(b.walker, from, to);
      const PathResult p = b.path(b.walker, from, to);
      EXPECT_NE(r.answer, ReachAnswer::No) << what << ": a wrong No for the walker";
      if (d.open) {
        EXPECT_EQ(r.answer, ReachAnswer::Yes) << what << ": open door, walker " << describe(r);
        EXPECT_TRUE(ready(p)) << what << ": open door, walker: " << describe(p);
        EXPECT_TRUE(!ready(p) || has_cell(p, d.lower))
            << what << ": open door, walker goes around: " << describe(p);
      } else if (ready(p)) {
        EXPECT_FALSE(has_cell(p, d.lower))
            << what << ": walker through a closed door: " << describe(p);
      } else {  // no way around: gated (by this door, or also by a ladder on the other routes)
        EXPECT_EQ(r.answer, ReachAnswer::Unknown) << what;
        EXPECT_TRUE(r.reason == ReachReason::DoorGated ||
                    r.reason == ReachReason::ProfileRestricted)
            << what << ": walker " << describe(r);
      }
      expect_doors_entered_by_axis_moves(b, o, what);
      expect_doors_entered_by_axis_moves(b, p, what);
    }
  }
  // Open every closed door at once, check, restore.
  std::vector<std::pair<CellPos, std::uint16_t>> saved;
  for (const Door& d : f.doors) {
    if (d.open) continue;
    for (CellPos c : {d.lower, CellPos{d.lower.x, d.lower.y + 1, d.lower.z}}) {
      const std::uint16_t v = b.block(c);
      if (!(st.registry.traits(v) & detail::kTraitDoor)) continue;
      saved.push_back({c, v});
      ASSERT_EQ(b.w->set_block(c, st.registry.type(v).open_value), Status::Ok);
    }
  }
  b.w->update();
  for (const Door& d : f.doors) {
    EXPECT_EQ(b.kind(d.lower), CellKind::DoorOpen)
        << "door " << str(d.lower) << " opened: " << b.state(d.lower);
    if (d.open || !crossable(b, d)) continue;
    const PathResult p = b.path(b.walker, d.front, d.back);
    EXPECT_TRUE(ready(p)) << "opened door " << str(d.lower) << ": " << describe(p);
    EXPECT_TRUE(!ready(p) || has_cell(p, d.lower))
        << "opened door " << str(d.lower) << ": " << describe(p);
    EXPECT_EQ(b.reach(b.walker, d.front, d.back).answer, ReachAnswer::Yes)
        << "opened door " << str(d.lower);
  }
  for (auto& [c, v] : saved) ASSERT_EQ(b.w->set_block(c, v), Status::Ok);
  b.w->update();
  std::printf("[ doors    ] %zu doors, %d crossable by the class from both sides\n", f.doors.size(),
              checked);
}

/// Climb scenarios on every climbable column: between the lowest and the highest cell a body can
/// stand on next to (or in) the column, a climber finds a path with Climb edges (when they are two
/// or more cells apart); a profile that cannot climb never gets a Climb edge and never a wrong No.
void climb_scenarios(Building& b, const Found& f) {
  static constexpr std::pair<int, int> kAround[] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  int checked = 0;
  for (const ClimbColumn& col : f.columns) {
    bool any = false;
    CellPos low, high;
    for (int y = col.y0 - 1; y <= col.y1 + 1; ++y)
      for (const auto& [dx, dz] : kAround) {
        const CellPos c{col.x + dx, y, col.z + dz};
        if (!b.w->is_standable(b.climber, c)) continue;
        if (!any || c.y < low.y) low = c;
        if (!any || c.y > high.y) high = c;
        any = true;
      }
    if (!any || high.y - low.y < 2) continue;
    ++checked;
    const std::string what = "climbable column x " + std::to_string(col.x) + " z " +
                             std::to_string(col.z) + " y " + std::to_string(col.y0) + ".." +
                             std::to_string(col.y1);
    for (auto [from, to] : {std::pair{low, high}, std::pair{high, low}}) {
      const PathResult c = b.path(b.climber, from, to);
      ASSERT_TRUE(ready(c)) << what << ": climber " << str(from) << " -> " << str(to) << ": "
                            << describe(c);
      EXPECT_GE(cells_of_kind(c, EdgeKind::Climb), 1) << what << ": " << describe(c);
      const PathResult w = b.path(b.walker, from, to);
      EXPECT_EQ(cells_of_kind(w, EdgeKind::Climb), 0) << what << ": walker climbs: " << describe(w);
      const Reach r = b.reach(b.walker, from, to);
      EXPECT_NE(r.answer, ReachAnswer::No) << what << ": a wrong No for the walker";
      if (!ready(w)) {
        EXPECT_EQ(r.answer, ReachAnswer::Unknown) << what << ": " << describe(r);
      }
    }
  }
  std::printf("[ climbing ] %zu climbable columns, %d climbs checked\n", f.columns.size(), checked);
}

/// Over pairs of standable cells (an even sample of at most `anchors` of them): a Yes is a path
/// for that profile; a No is no path even for the profile that climbs and opens doors; where that
/// profile finds a path, nobody gets No, and a restricted profile without a path gets
/// Unknown(ProfileRestricted or DoorGated). Restricted profiles' paths have no Climb edge (no
/// can_climb) and no closed door cell (no can_open_doors); door cells are entered by axis moves.
void sweep(Building& b, const Found& f, std::size_t anchors) {
  std::vector<CellPos> cells;
  const std::size_t n = f.standable.size();
  for (std::size_t i = 0; i < anchors && n > 0; ++i) cells.push_back(f.standable[i * n / anchors]);
  for (const Door& d : f.doors)  // and both sides of every door
    for (CellPos c : {d.front, d.back})
      if (b.w->is_standable(b.walker, c)) cells.push_back(c);
  std::sort(cells.begin(), cells.end(),
            [](CellPos p, CellPos q) { return std::tie(p.y, p.z, p.x) < std::tie(q.y, q.z, q.x); });
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  const ProfileId profiles[] = {b.walker, b.climber, b.opener, b.both};
  const bool climbs[] = {false, true, false, true}, opens[] = {false, false, true, true};
  int pairs = 0, found_all = 0;
  std::vector<std::string> errors;
  for (CellPos a : cells)
    for (CellPos g : cells) {
      if (a == g) continue;
      ++pairs;
      const PathResult full = b.path(b.both, a, g);
      found_all += ready(full);
      for (int k = 0; k < 4; ++k) {
        const std::string what = std::string("profile ") + (climbs[k] ? "climb " : "") +
                                 (opens[k] ? "doors " : "") + str(a) + " -> " + str(g) + ": ";
        const Reach r = b.reach(profiles[k], a, g);
        const PathResult p = k == 3 ? full : b.path(profiles[k], a, g);
        if (r.answer == ReachAnswer::Yes && !ready(p))
          errors.push_back(what + "Yes without a path: " + describe(p));
        if (r.answer == ReachAnswer::No && ready(full))
          errors.push_back(what + "No, but a path exists: " + describe(full));
        if (ready(full) && !ready(p) &&
            (r.answer != ReachAnswer::Unknown ||
             (r.reason != ReachReason::ProfileRestricted && r.reason != ReachReason::DoorGated)))
          errors.push_back(what + "no path for this profile, full profile has one, reachable " +
                           describe(r));
        if (!climbs[k] && cells_of_kind(p, EdgeKind::Climb) > 0)
          errors.push_back(what + "climbs: " + describe(p));
        if (!opens[k])
          for (const PathCell& c : p.cells)
            if (b.kind(c.cell) == CellKind::DoorClosed)
              errors.push_back(what + "through the closed door " + str(c.cell) + ": " +
                               describe(p));
        for (std::size_t i = 0; i < p.cells.size(); ++i) {
          const CellKind kd = b.kind(p.cells[i].cell);
          if (kd != CellKind::DoorOpen && kd != CellKind::DoorClosed) continue;
          if (p.cells[i].kind != EdgeKind::Door)
            errors.push_back(what + "door cell " + str(p.cells[i].cell) + " entered by " +
                             edge_kind_name(p.cells[i].kind));
          for (std::size_t j : {i - 1, i + 1}) {
            if (j >= p.cells.size()) continue;
            const CellPos c = p.cells[i].cell, m = p.cells[j].cell;
            if (std::abs(c.x - m.x) + std::abs(c.z - m.z) != 1)
              errors.push_back(what + "door cell " + str(c) + " next to " + str(m) +
                               " (not an axis move)");
          }
        }
      }
    }
  std::printf(
      "[ sweep    ] %zu standable cells, %zu anchors, %d pairs, %d found by the full profile, %zu "
      "errors\n",
      n, cells.size(), pairs, found_all, errors.size());
  std::string first;
  for (std::size_t i = 0; i < errors.size() && i < 20; ++i) first += "\n  " + errors[i];
  EXPECT_TRUE(errors.empty()) << errors.size() << " wrong answers, the first ones:" << first;
}

// ---- smallhouse1.schem
// ----------------------------------------------------------------------------

class SmallHouse : public ::testing::Test {
 protected:
  void SetUp() override {
    b_ = std::make_unique<Building>(kSmallHouse);
    ASSERT_TRUE(b_->w) << kSmallHouse;
  }
  std::unique_ptr<Building> b_;
};

TEST_F(SmallHouse, SurveyStillHolds) {
  Building& b = *b_;
  // The blocks the constants above name.
  for (int y = kLadderY0; y <= kLadderY1; ++y)
    EXPECT_FALSE(prop(b.state({kLadderX, y, kLadderZ}), "facing").empty()) << y;
  EXPECT_EQ(b.state({kLadderX, kLadderY0, kLadderZ}).rfind("ladder[", 0), 0u);
  EXPECT_EQ(b.state({kLadderX, kLadderY1 + 1, kLadderZ}),
            "spruce_log[axis=x]");  // the ladder's top is capped
  EXPECT_EQ(b.state(kWestDoor), kWestLowerClosed);
  EXPECT_EQ(b.state({6, 17, 10}), kWestUpperClosed);
  EXPECT_EQ(b.state(kSouthDoor), kSouthLowerOpen);
  EXPECT_EQ(b.state({10, 2, 13}), kSouthUpperOpen);
  EXPECT_EQ(b.state(kNorthDoor),
            "oak_door[facing=north,half=lower,hinge=right,open=false,powered=false]");
  EXPECT_EQ(b.state(kEastDoor),
            "oak_door[facing=east,half=lower,hinge=right,open=false,powered=false]");
  EXPECT_EQ(b.state({10, 15, 13}), "oak_slab[type=top,waterlogged=false]");
  EXPECT_EQ(b.state({10, 12, 13}),
            "spruce_stairs[facing=south,half=bottom,shape=straight,waterlogged=false]");
  const Found f = find_features(b);
  EXPECT_EQ(f.doors.size(), 4u);
  ASSERT_EQ(f.columns.size(), 1u);
  EXPECT_EQ(f.columns[0].x, kLadderX);
  EXPECT_EQ(f.columns[0].z, kLadderZ);
  EXPECT_EQ(f.columns[0].y0, kLadderY0);
  EXPECT_EQ(f.columns[0].y1, kLadderY1);
  // Cells a body stands on.
  for (CellPos c : {kGroundInside, kGroundNorth, kGroundSouth, kUpperStorey, kLadderFoot,
                    kLadderTop, kAttic, kWestBalcony, kEastBalcony})
    EXPECT_TRUE(b.w->is_standable(b.walker, c)) << str(c);
}

// Issue 5: "a climber reaches the upper floor by the ladder".
TEST_F(SmallHouse, LadderTakesTheClimberUpstairs) {
  Building& b = *b_;
  for (CellPos from : {kGroundInside, kUpperStorey}) {
    const PathResult up = b.path(b.climber, from, kAttic);
    ASSERT_TRUE(ready(up)) << str(from) << ": " << describe(up);
    EXPECT_GE(cells_of_kind(up, EdgeKind::Climb), 2) << describe(up);
    EXPECT_GE(waypoints_of_kind(up, EdgeKind::Climb), 1) << describe(up);
    // Feet at y 13 -> 16: every route up passes the two ladder cells between foot and top.
    EXPECT_TRUE(has_cell(up, {kLadderX, 14, kLadderZ})) << describe(up);
    EXPECT_TRUE(has_cell(up, {kLadderX, 15, kLadderZ})) << describe(up);
    EXPECT_TRUE(has_cell(up, kLadderTop)) << describe(up);
    EXPECT_TRUE(has_cell(up, kUpperStorey) || from == kUpperStorey) << describe(up);
    const Reach r = b.reach(b.climber, from, kAttic);
    EXPECT_EQ(r.answer, ReachAnswer::Yes) << describe(r);
  }
  // And down again.
  const PathResult down = b.path(b.climber, kAttic, kGroundInside);
  ASSERT_TRUE(ready(down)) << describe(down);
  EXPECT_GE(cells_of_kind(down, EdgeKind::Climb), 1) << describe(down);
  EXPECT_TRUE(has_cell(down, {kLadderX, 14, kLadderZ})) << describe(down);
  EXPECT_EQ(b.reach(b.climber, kAttic, kGroundInside).answer, ReachAnswer::Yes);
  // The climbable cells: unsupported cells whose body overlaps the ladder.
  for (int y = 14; y <= 16; ++y)
    EXPECT_EQ(b.kind({kLadderX, y, kLadderZ}), CellKind::Climbable)
        << "(" << kLadderX << "," << y << "," << kLadderZ << ") kind "
        << static_cast<int>(b.kind({kLadderX, y, kLadderZ}));
}

// Issue 5: "a non-climber gets the right answer".
TEST_F(SmallHouse, NonClimberIsRestrictedNotDenied) {
  Building& b = *b_;
  for (ProfileId p : {b.walker, b.opener}) {
    for (auto [from, to] : {std::pair{kGroundInside, kAttic}, std::pair{kUpperStorey, kAttic},
                            std::pair{kAttic, kGroundInside}}) {
      const Reach r = b.reach(p, from, to);
      EXPECT_EQ(r.answer, ReachAnswer::Unknown)
          << str(from) << " -> " << str(to) << ": " << describe(r);
      EXPECT_EQ(r.reason, ReachReason::ProfileRestricted)
          << str(from) << " -> " << str(to) << ": " << describe(r);
      // The ladder is the only way up (no stairs reach the attic): the search fails, and never
      // with a Climb edge.
      const PathResult path = b.path(p, from, to);
      EXPECT_EQ(path.status.state, PathState::Failed) << describe(path);
      EXPECT_EQ(cells_of_kind(path, EdgeKind::Climb), 0) << describe(path);
    }
    // The upper storey itself is reached by the spiral stair around the pillar, without climbing.
    const PathResult stairs = b.path(p, kGroundInside, kUpperStorey);
    ASSERT_TRUE(ready(stairs)) << describe(stairs);
    EXPECT_EQ(cells_of_kind(stairs, EdgeKind::Climb), 0) << describe(stairs);
    // 11 cells up (y 1 -> 12) without climbing: at least 11 upward moves (StepUp or Jump, +1 each).
    EXPECT_GE(cells_of_kind(stairs, EdgeKind::StepUp) + cells_of_kind(stairs, EdgeKind::Jump), 11)
        << describe(stairs);
    EXPECT_EQ(b.reach(p, kGroundInside, kUpperStorey).answer, ReachAnswer::Yes);
    // Up to the ladder's foot, but not onto the ladder.
    EXPECT_EQ(b.reach(p, kUpperStorey, kLadderFoot).answer, ReachAnswer::Yes);
  }
}

// Issue 5: "doors behave as above": a closed door with only a balcony behind it.
TEST_F(SmallHouse, ClosedDoorGates) {
  Building& b = *b_;
  EXPECT_EQ(b.kind(kWestDoor), CellKind::DoorClosed);
  EXPECT_EQ(b.kind(kEastDoor), CellKind::DoorClosed);
  for (auto [door, balcony] :
       {std::pair{kWestDoor, kWestBalcony}, std::pair{kEastDoor, kEastBalcony}}) {
    // Without can_open_doors (whether or not it climbs): gated, and no path.
    for (ProfileId p : {b.walker, b.climber}) {
      const Reach r = b.reach(p, kAttic, balcony);
      EXPECT_EQ(r.answer, ReachAnswer::Unknown) << str(balcony) << ": " << describe(r);
      EXPECT_EQ(r.reason, ReachReason::DoorGated) << str(balcony) << ": " << describe(r);
      const PathResult path = b.path(p, kAttic, balcony);
      EXPECT_EQ(path.status.state, PathState::Failed) << describe(path);
      EXPECT_FALSE(has_cell(path, door)) << describe(path);
    }
    // With can_open_doors: through the door, a Door edge into the door cell.
    for (ProfileId p : {b.opener, b.both}) {
      EXPECT_EQ(b.reach(p, kAttic, balcony).answer, ReachAnswer::Yes) << str(balcony);
      const PathResult path = b.path(p, kAttic, balcony);
      ASSERT_TRUE(ready(path)) << describe(path);
      EXPECT_TRUE(has_cell(path, door)) << describe(path);
      EXPECT_EQ(kind_into(path, door), EdgeKind::Door) << describe(path);
      EXPECT_GE(waypoints_of_kind(path, EdgeKind::Door), 1) << describe(path);
      expect_doors_entered_by_axis_moves(b, path, "opener to " + str(balcony));
      // And back out.
      const PathResult back = b.path(p, balcony, kAttic);
      ASSERT_TRUE(ready(back)) << describe(back);
      EXPECT_EQ(kind_into(back, door), EdgeKind::Door) << describe(back);
    }
  }
  // The climber that opens doors goes from the ground floor to the balcony: ladder, then door.
  const PathResult all = b.path(b.both, kGroundInside, kWestBalcony);
  ASSERT_TRUE(ready(all)) << describe(all);
  EXPECT_GE(cells_of_kind(all, EdgeKind::Climb), 1) << describe(all);
  EXPECT_EQ(kind_into(all, kWestDoor), EdgeKind::Door) << describe(all);

  // The host opens the west door (both halves): now everyone who reaches the attic passes it.
  const std::uint64_t epoch = b.w->nav_epoch();
  b.set(kWestDoor, kWestLowerOpen);
  b.set({kWestDoor.x, kWestDoor.y + 1, kWestDoor.z}, kWestUpperOpen);
  b.w->update();
  EXPECT_GT(b.w->nav_epoch(), epoch);
  EXPECT_EQ(b.kind(kWestDoor), CellKind::DoorOpen);
  for (ProfileId p : {b.walker, b.climber}) {
    const Reach r = b.reach(p, kAttic, kWestBalcony);
    EXPECT_EQ(r.answer, ReachAnswer::Yes) << describe(r);
    const PathResult path = b.path(p, kAttic, kWestBalcony);
    ASSERT_TRUE(ready(path)) << describe(path);
    EXPECT_EQ(kind_into(path, kWestDoor), EdgeKind::Door) << describe(path);
    EXPECT_GE(waypoints_of_kind(path, EdgeKind::Door), 1) << describe(path);
  }
  // The east door is still closed.
  EXPECT_EQ(b.reach(b.walker, kAttic, kEastBalcony).reason, ReachReason::DoorGated);
  // Closed again: gated again.
  b.set(kWestDoor, kWestLowerClosed);
  b.set({kWestDoor.x, kWestDoor.y + 1, kWestDoor.z}, kWestUpperClosed);
  b.w->update();
  EXPECT_EQ(b.kind(kWestDoor), CellKind::DoorClosed);
  EXPECT_EQ(b.reach(b.walker, kAttic, kWestBalcony).reason, ReachReason::DoorGated);
  EXPECT_EQ(b.path(b.walker, kAttic, kWestBalcony).status.state, PathState::Failed);
}

// Issue 5: "an open door lets everyone through". The ground floor's outside ring reaches the inside
// through the open south door or the closed north door.
// The ground doors have a carpet (1/16 of a cell) on their inner side and an upside-down stair as
// their lintel, 2 cells above the door's floor: 1.9375 cells of headroom, which the walker class's
// 1.8 envelope (the default body) fits under (the 1.95 envelope it had before issue 18 cause 10
// kept both doors shut until the host lifted the carpets). The open south door lets everyone in,
// and the closed north door only the opener.
TEST_F(SmallHouse, OpenDoorLetsEveryoneThrough) {
  Building& b = *b_;
  EXPECT_EQ(b.kind(kSouthDoor), CellKind::DoorOpen);
  EXPECT_EQ(b.kind(kNorthDoor), CellKind::DoorClosed);
  EXPECT_EQ(b.state(CellPos{10, 1, 12}), "red_carpet");
  EXPECT_EQ(b.state(CellPos{10, 1, 6}), "red_carpet");
  // The walker goes around the house and in through the open south door, never the north door.
  const PathResult walk = b.path(b.walker, kGroundNorth, kGroundInside);
  ASSERT_TRUE(ready(walk)) << describe(walk);
  EXPECT_EQ(kind_into(walk, kSouthDoor), EdgeKind::Door) << describe(walk);
  EXPECT_FALSE(has_cell(walk, kNorthDoor)) << describe(walk);
  EXPECT_GE(waypoints_of_kind(walk, EdgeKind::Door), 1) << describe(walk);
  EXPECT_EQ(b.reach(b.walker, kGroundNorth, kGroundInside).answer, ReachAnswer::Yes);
  expect_doors_entered_by_axis_moves(b, walk, "walker in");
  // The opener takes the short way through the closed north door.
  const PathResult open = b.path(b.opener, kGroundNorth, kGroundInside);
  ASSERT_TRUE(ready(open)) << describe(open);
  EXPECT_EQ(kind_into(open, kNorthDoor), EdgeKind::Door) << describe(open);
  EXPECT_FALSE(has_cell(open, kSouthDoor)) << describe(open);
  EXPECT_LT(open.status.cost, walk.status.cost);
  // From the south both go straight through the open door.
  for (ProfileId p : {b.walker, b.opener}) {
    const PathResult s = b.path(p, kGroundSouth, kGroundInside);
    ASSERT_TRUE(ready(s)) << describe(s);
    EXPECT_EQ(kind_into(s, kSouthDoor), EdgeKind::Door) << describe(s);
  }
  // The host closes the south door: the inside is now behind closed doors only.
  b.set(kSouthDoor, kSouthLowerClosed);
  b.set({kSouthDoor.x, kSouthDoor.y + 1, kSouthDoor.z}, kSouthUpperClosed);
  b.w->update();
  EXPECT_EQ(b.kind(kSouthDoor), CellKind::DoorClosed);
  const Reach r = b.reach(b.walker, kGroundNorth, kGroundInside);
  EXPECT_EQ(r.answer, ReachAnswer::Unknown) << describe(r);
  EXPECT_EQ(r.reason, ReachReason::DoorGated) << describe(r);
  const PathResult shut = b.path(b.walker, kGroundNorth, kGroundInside);
  EXPECT_EQ(shut.status.state, PathState::Failed) << describe(shut);
  const PathResult still = b.path(b.opener, kGroundNorth, kGroundInside);
  ASSERT_TRUE(ready(still)) << describe(still);
  EXPECT_EQ(kind_into(still, kNorthDoor), EdgeKind::Door) << describe(still);
  // Inside the house the walker still goes upstairs (no door on the way).
  EXPECT_EQ(b.reach(b.walker, kGroundInside, kUpperStorey).answer, ReachAnswer::Yes);
}

// Invariants over the whole schematic: door kinds follow the blocks; every door and ladder found in
// the blocks passes the generic scenarios; no reachability answer is wrong for any profile.
TEST_F(SmallHouse, DoorKindsFollowTheBlocks) {
  Building& b = *b_;
  const Found f = find_features(b);
  ASSERT_EQ(f.doors.size(), 4u);
  EXPECT_EQ(std::count_if(f.doors.begin(), f.doors.end(), [](const Door& d) { return d.open; }), 1);
  expect_door_kinds(b, f);
}

TEST_F(SmallHouse, EveryDoorAndLadderScenario) {
  Building& b = *b_;
  const Found f = find_features(b);
  door_scenarios(b, f);
  climb_scenarios(b, f);
}

TEST_F(SmallHouse, NoWrongReachabilityAnswer) {
  Building& b = *b_;
  const Found f = find_features(b);
  sweep(b, f, 80);
}

// ---- a building not in the repository
// ------------------------------------------------------------ VOXNAV_EXTRA_SCHEM=<a Sponge .schem
// or any world file the native loaders read>: the same door, ladder and reachability scenarios,
// found from its blocks. Skipped when unset.
TEST(ExtraBuilding, DoorLadderAndReachabilityScenarios) {
  const char* path = std::getenv("VOXNAV_EXTRA_SCHEM");
  if (!path || !*path) GTEST_SKIP() << "set VOXNAV_EXTRA_SCHEM to a building's .schem to run it";
  Building b(path);
  ASSERT_TRUE(b.w) << path;
  const Found f = find_features(b);
  std::printf("[ building ] %s: %zu doors, %zu climbable columns, %zu standable cells\n", path,
              f.doors.size(), f.columns.size(), f.standable.size());
  ASSERT_FALSE(f.standable.empty());
  expect_door_kinds(b, f);
  door_scenarios(b, f);
  climb_scenarios(b, f);
  sweep(b, f, 32);
}

}  // namespace
}  // namespace voxnav
