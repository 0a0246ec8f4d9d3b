// A game's own blocks (voxnav/registry.h, docs/registry.md): the six blocks of a small browser
// game (air, stone, a half slab, a ladder, water and a door with its closed and open values)
// defined in C++ and in voxnav's JSON format, validation errors that name the block and the field,
// and agents in a hand-built world that climb the ladder, swim the water and stop at the closed
// door (DoorAhead), then pass it once it is opened. set_block_traits rebuilds navigation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "test_support.h"
#include "voxnav/registry.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// Values of the game's registry.
constexpr std::uint16_t kAir = 0, kStone = 1, kSlab = 2, kLadder = 3, kWater = 4, kDoorClosed = 5,
                        kDoorOpen = 6;

BlockRegistryDef six_blocks() {
  BlockRegistryDef def;
  BlockTraits ladder, water, closed, open;
  ladder.climbable = true;
  water.fluid = BlockFluid::Swimmable;
  closed.door = BlockDoor::Closed;
  closed.door_toggle_name = "door_open";
  open.door = BlockDoor::Open;
  open.door_toggle_name = "door_closed";
  EXPECT_EQ(def.add("air"), kAir);
  EXPECT_EQ(def.add("stone", {BlockBox{}}), kStone);
  EXPECT_EQ(def.add("half_slab", {BlockBox{0, 0, 0, 1, 0.5f, 1}}), kSlab);
  // The ladder plate leans on the block to its south (+z).
  EXPECT_EQ(def.add("ladder", {BlockBox{0, 0, 0.8125f, 1, 1, 1}}, ladder), kLadder);
  EXPECT_EQ(def.add("water", {}, water), kWater);
  // A closed door fills the cell's north edge; open, it swings to the west edge.
  EXPECT_EQ(def.add("door_closed", {BlockBox{0, 0, 0, 1, 1, 0.1875f}}, closed), kDoorClosed);
  EXPECT_EQ(def.add("door_open", {BlockBox{0, 0, 0, 0.1875f, 1, 1}}, open), kDoorOpen);
  return def;
}

const char* kSixBlocksJson = R"({
  "format": "voxnav-blocks", "version": 1,
  "blocks": [
    {"name": "air"},
    {"name": "stone", "boxes": [[0, 0, 0, 1, 1, 1]]},
    {"name": "half_slab", "boxes": [[0, 0, 0, 1, 0.5, 1]]},
    {"name": "ladder", "boxes": [[0, 0, 0.8125, 1, 1, 1]], "climbable": true},
    {"name": "water", "fluid": "swimmable"},
    {"name": "door_closed", "boxes": [[0, 0, 0, 1, 1, 0.1875]],
     "door": {"open": false, "toggle": "door_open"}},
    {"name": "door_open", "boxes": [[0, 0, 0, 0.1875, 1, 1]],
     "door": {"open": true, "toggle": "door_closed"}}
  ]
})";

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

Status parse(const std::string& json, BlockRegistryDef* out, std::string* err) {
  return parse_block_registry_json(bytes(json), out, err);
}

TEST(Registry, JsonFormatGivesTheSameBlocksAsTheBuilder) {
  BlockRegistryDef def;
  std::string err;
  ASSERT_EQ(parse(kSixBlocksJson, &def, &err), Status::Ok) << err;
  EXPECT_EQ(def.blocks, six_blocks().blocks);
  EXPECT_EQ(def.fallback, 0);
  World w;
  ASSERT_EQ(w.load_blocks_json(bytes(kSixBlocksJson), &err), Status::Ok) << err;
  EXPECT_EQ(w.block_count(), 7u);
  std::uint16_t v = 99;
  EXPECT_EQ(w.block_value("door_open", &v, &err), Status::Ok) << err;
  EXPECT_EQ(v, kDoorOpen);
  EXPECT_EQ(w.block_value("granite", &v, &err), Status::NotFound);
  EXPECT_EQ(v, 0);  // the fallback
  BlockDef d;
  ASSERT_EQ(w.block_def(kDoorClosed, &d), Status::Ok);
  EXPECT_EQ(d.traits.door, BlockDoor::Closed);
  EXPECT_EQ(d.traits.door_toggle, kDoorOpen);
  EXPECT_EQ(d.traits.door_toggle_name, "door_open");
  EXPECT_EQ(d.boxes.size(), 1u);
  EXPECT_FLOAT_EQ(d.boxes[0].max_z, 0.1875f);
  EXPECT_EQ(w.block_def(7, &d), Status::OutOfRange);
}

TEST(Registry, ErrorsNameTheBlockAndTheField) {
  struct Case {
    std::string json;
    Status status;
    std::string message;
  };
  auto doc = [](const std::string& blocks, const std::string& extra = "") {
    return R"({"format":"voxnav-blocks","version":1)" + extra + R"(,"blocks":[)" + blocks + "]}";
  };
  const std::string air = R"({"name":"air"},)";
  const std::vector<Case> cases = {
      {"[1,2]", Status::BadFormat, "block registry: not a JSON object"},
      {R"({"format":"minecraft","version":1,"blocks":[]})", Status::BadFormat,
       "block registry: format: not \"voxnav-blocks\""},
      {R"({"format":"voxnav-blocks","version":2,"blocks":[]})", Status::Unsupported,
       "block registry: version 2 is not supported (this build reads version 1)"},
      {doc(air + R"({"name":"ladder","climable":true})"), Status::BadFormat,
       "blocks[1] 'ladder': unknown field 'climable'"},
      {doc(R"({"name":"air"})", R"(,"extra":1)"), Status::BadFormat, "block registry: unknown field 'extra'"},
      {doc(air + R"({"name":"d","door":{"open":true,"toggle":"door_closed"}})"),
       Status::InvalidArgument, "blocks[1] 'd': door.toggle 'door_closed' is not a block"},
      {doc(air + R"({"name":"d","door":{"toggle":"air"}})"), Status::InvalidArgument,
       "blocks[1] 'd': door.toggle 'air' is not a door"},
      {doc(air + R"({"name":"a","door":{"toggle":"b"}},{"name":"b","door":{"toggle":"a"}})"),
       Status::InvalidArgument,
       "blocks[1] 'a': door.toggle 'b' is a door of the same state (a toggle opens or closes)"},
      {doc(air + R"({"name":"w","fluid":"lava"})"), Status::BadFormat,
       "blocks[1] 'w': fluid: not \"swimmable\", \"harmful\" or \"none\""},
      {doc(air + R"({"name":"h","hazard":true})"), Status::BadFormat,
       "blocks[1] 'h': hazard: not \"fire\", \"other\" or \"none\""},
      {doc(air + R"({"name":"s","boxes":[[0,0,0,1,2,1]]})"), Status::InvalidArgument,
       "blocks[1] 's': boxes[0]: y runs 0.000000..2.000000, outside 0..1.5 or min above max"},
      {doc(air + R"({"name":"s","boxes":[[0,0,0,1,1]]})"), Status::BadFormat,
       "blocks[1] 's': boxes[0]: not an array of 6 numbers [minX,minY,minZ,maxX,maxY,maxZ]"},
      {doc(air + R"({"name":"air"})"), Status::InvalidArgument,
       "blocks[1] 'air': name: given twice (names are unique here)"},
      {doc(air + R"({"boxes":[]})"), Status::BadFormat, "blocks[1]: name: missing or not a string"},
      {doc(R"({"name":"air"})", R"(,"fallback":"stone")"), Status::InvalidArgument,
       "block registry: fallback: 'stone' is not a block"},
      {doc(""), Status::InvalidArgument, "blocks: a registry needs at least one block"},
  };
  for (const Case& c : cases) {
    BlockRegistryDef def;
    def.add("untouched");
    std::string err;
    EXPECT_EQ(parse(c.json, &def, &err), c.status) << c.json;
    EXPECT_EQ(err, c.message) << c.json;
    ASSERT_EQ(def.blocks.size(), 1u);  // nothing changes on error
    EXPECT_EQ(def.blocks[0].name, "untouched");
  }
}

TEST(Registry, DefineBlocksValidatesAndRefusesOnceChunksAreLoaded) {
  World w;
  BlockRegistryDef bad = six_blocks();
  bad.blocks[kDoorOpen].traits.door_toggle_name = "door_closd";
  std::string err;
  EXPECT_EQ(w.define_blocks(bad, &err), Status::InvalidArgument);
  EXPECT_EQ(err, "blocks[6] 'door_open': door.toggle 'door_closd' is not a block");
  EXPECT_EQ(w.block_count(), 2u);  // the default registry stays
  bad = six_blocks();
  bad.blocks[kStone].traits.door_toggle = kDoorOpen;
  EXPECT_EQ(w.define_blocks(bad, &err), Status::InvalidArgument);
  EXPECT_EQ(err, "blocks[1] 'stone': door.toggle: given for a block that is not a door");
  bad = six_blocks();
  bad.fallback = 7;
  EXPECT_EQ(w.define_blocks(bad, &err), Status::InvalidArgument);
  EXPECT_EQ(err, "fallback: value 7 is not in the registry");
  ASSERT_EQ(w.define_blocks(six_blocks(), &err), Status::Ok) << err;
  EXPECT_EQ(w.block_count(), 7u);
  ASSERT_TRUE(test::load_flat_floor(w, kStone));
  EXPECT_EQ(w.define_blocks(six_blocks(), &err), Status::Busy);
  EXPECT_EQ(err, "chunks are already loaded; install the registry first");
  EXPECT_EQ(w.last_error().function, "define_blocks");
  EXPECT_EQ(w.last_error().status, Status::Busy);
  EXPECT_EQ(w.load_blocks_json(bytes(kSixBlocksJson), &err), Status::Busy);
  // Traits at any time, checked together, nothing changes on error.
  BlockTraits t;
  t.door = BlockDoor::Closed;
  t.door_toggle_name = "stone";
  EXPECT_EQ(w.set_block_traits(kSlab, t, &err), Status::InvalidArgument);
  EXPECT_EQ(err, "value 2 'half_slab': door.toggle 'stone' is not a door");
  EXPECT_EQ(w.set_block_traits(9, BlockTraits{}, &err), Status::OutOfRange);
  BlockDef d;
  ASSERT_EQ(w.block_def(kSlab, &d), Status::Ok);
  EXPECT_EQ(d.traits, BlockTraits{});
  // Making a door pair of two values in one call.
  BlockTraits a, b;
  a.door = BlockDoor::Closed;
  a.door_toggle = kLadder;
  b.door = BlockDoor::Open;
  b.door_toggle = kSlab;
  const BlockTraitsChange pair[] = {{kSlab, a}, {kLadder, b}};
  EXPECT_EQ(w.set_block_traits(pair, &err), Status::Ok) << err;
  ASSERT_EQ(w.block_def(kLadder, &d), Status::Ok);
  EXPECT_EQ(d.traits.door, BlockDoor::Open);
  EXPECT_EQ(d.traits.door_toggle_name, "half_slab");
}

// The hand-built world: a stone floor at y = 0 (cells -16..31 in x and z, air above), and
//  - a stone platform x 10..14, y 1..4, z 10..14 whose only way up is a ladder column at
//    (12, 1..4, 9) leaning on it, and a half slab at (12, 1, 4) on the way there;
//  - a pool of water x -9..-5, y 1..3, z -9..-5 inside a stone rim;
//  - a wall at z = 20 (y 1..3) across the whole world with a two-high closed door at (20, 1..2).
struct GameWorld {
  World w;
  ProfileId climber, swimmer, opener;

  bool build() {
    std::string err;
    EXPECT_EQ(w.define_blocks(six_blocks(), &err), Status::Ok) << err;
    if (!test::load_flat_floor(w, kStone)) return false;
    bool ok = w.set_box({10, 1, 10}, {14, 4, 14}, kStone) == Status::Ok &&
              w.set_box({12, 1, 9}, {12, 4, 9}, kLadder) == Status::Ok &&
              w.set_block({12, 1, 4}, kSlab) == Status::Ok &&
              w.set_box({-10, 1, -10}, {-4, 3, -4}, kStone) == Status::Ok &&
              w.set_box({-9, 1, -9}, {-5, 3, -5}, kWater) == Status::Ok &&
              w.set_box({-16, 1, 20}, {31, 3, 20}, kStone) == Status::Ok &&
              w.set_box({20, 1, 20}, {20, 2, 20}, kDoorClosed) == Status::Ok;
    EXPECT_TRUE(ok);
    // The profiles of tests/web/registry.test.mjs, in the profile JSON format.
    const std::pair<const char*, ProfileId*> profiles[] = {
        {R"({"id": "climber", "can_climb": true, "speed": {"climb": 2}})", &climber},
        {R"({"id": "opener", "can_open_doors": true})", &opener},
        {R"({"id": "fish", "class": "swimmer", "can_swim": true, "speed": {"swim": 2},
             "body": {"width": 0.98, "height": 0.98}})",
         &swimmer},
    };
    for (const auto& [json, id] : profiles) {
      Profile p;
      EXPECT_EQ(parse_profile_json(json, p, &err), Status::Ok) << err;
      EXPECT_EQ(w.add_profile(p, id, &err), Status::Ok) << err;
    }
    w.update();
    return ok;
  }
  Vec3 feet_of(ProfileId p, CellPos c) {
    double y = 0;
    EXPECT_EQ(w.standing_height(p, c, &y), Status::Ok);
    return {c.x + 0.5, y, c.z + 0.5};
  }
};

TEST(Registry, SixBlocksClassify) {
  GameWorld g;
  ASSERT_TRUE(g.build());
  double y = 0;
  ASSERT_EQ(g.w.standing_height(g.climber, {12, 1, 4}, &y), Status::Ok);
  EXPECT_DOUBLE_EQ(y, 1.5);  // on the half slab
  EXPECT_TRUE(g.w.is_standable(g.climber, {12, 5, 12}));   // platform top
  EXPECT_TRUE(g.w.is_standable(g.swimmer, {-7, 2, -7}));   // in the water
  EXPECT_FALSE(g.w.is_standable(g.swimmer, {-7, 4, -7}));  // above it
  // Only the ladder reaches the platform: climbers Yes, the others are restricted.
  EXPECT_EQ(g.w.reachable(g.climber, {12, 1, 2}, {12, 5, 12}).answer, ReachAnswer::Yes);
  EXPECT_EQ(g.w.reachable(g.opener, {12, 1, 2}, {12, 5, 12}).answer, ReachAnswer::Unknown);
  // Only the door crosses the wall.
  EXPECT_EQ(g.w.reachable(g.opener, {20, 1, 16}, {20, 1, 26}).answer, ReachAnswer::Yes);
  EXPECT_EQ(g.w.reachable(g.climber, {20, 1, 16}, {20, 1, 26}).reason, ReachReason::DoorGated);
  // Surfaces (areas, surface malus) name the game's blocks.
  AreaId area;
  std::string err;
  const std::vector<std::string> slabs{"half_slab"}, granite{"granite"};
  EXPECT_EQ(g.w.define_area("slabs", slabs, 2.0, &area, &err), Status::Ok) << err;
  EXPECT_EQ(g.w.define_area("granite", granite, 2.0, &area, &err), Status::InvalidArgument);
  EXPECT_EQ(err, "area \"granite\": blocks[0]: unknown block name \"granite\"");
}

TEST(Registry, AgentsClimbTheLadderSwimTheWaterAndStopAtTheDoor) {
  GameWorld g;
  ASSERT_TRUE(g.build());
  World& w = g.w;
  AgentId climber, fish, opener;
  ASSERT_EQ(w.add_agent({g.climber, g.feet_of(g.climber, {12, 1, 2})}, &climber), Status::Ok);
  ASSERT_EQ(w.add_agent({g.swimmer, g.feet_of(g.swimmer, {-9, 1, -9})}, &fish), Status::Ok);
  ASSERT_EQ(w.add_agent({g.opener, g.feet_of(g.opener, {20, 1, 16})}, &opener), Status::Ok);
  ASSERT_EQ(w.set_agent_goal(climber, {12, 5, 12}), Status::Ok);
  ASSERT_EQ(w.set_agent_goal(fish, {-5, 3, -5}), Status::Ok);
  ASSERT_EQ(w.set_agent_goal(opener, {20, 1, 26}), Status::Ok);
  bool climbed_in_ladder = false, fish_left_water = false;
  std::vector<DoorEvent> events;
  std::uint64_t opened_at = 0;
  for (int tick = 0; tick < 600; ++tick) {
    ASSERT_EQ(w.tick(0.05), Status::Ok);
    AgentState c, f, o;
    ASSERT_EQ(w.agent_state(climber, &c), Status::Ok);
    ASSERT_EQ(w.agent_state(fish, &f), Status::Ok);
    ASSERT_EQ(w.agent_state(opener, &o), Status::Ok);
    // The climber rises inside the ladder column (x 12, z 9), above any jump.
    if (std::floor(c.feet.x) == 12 && std::floor(c.feet.z) == 9 && c.feet.y > 3.0)
      climbed_in_ladder = true;
    // The fish's body stays in the pool's water cells.
    const bool in_pool = f.feet.x > -9.0 && f.feet.x < -4.0 && f.feet.z > -9.0 &&
                         f.feet.z < -4.0 && f.feet.y >= 1.0 && f.feet.y < 4.0;
    fish_left_water |= !in_pool;
    // The opener never enters the closed door cell.
    if (!opened_at) {
      EXPECT_LT(o.feet.z, 20.0) << "tick " << tick;
    }
    DoorEvent ev[4];
    std::size_t n = 0;
    ASSERT_EQ(w.take_door_events(ev, 4, &n), Status::Ok);
    events.insert(events.end(), ev, ev + n);
    if (!opened_at && !events.empty() && tick >= static_cast<int>(events[0].tick) + 20) {
      // It holds in front of the door: within 1 + width / 2 of the door cell's centre, stopped.
      EXPECT_LT(std::hypot(o.feet.x - 20.5, o.feet.z - 20.5), 1.0 + 0.3 + 1e-9);
      EXPECT_LT(std::hypot(o.velocity.x, o.velocity.z), 1e-6);
      ASSERT_EQ(w.set_door_open({20, 1, 20}, true), Status::Ok);
      std::uint16_t v = 0;
      ASSERT_EQ(w.get_block({20, 2, 20}, &v), Status::Ok);
      EXPECT_EQ(v, kDoorOpen);  // both halves toggled to the registry's open value
      opened_at = static_cast<std::uint64_t>(tick);
    }
  }
  AgentState c, f, o;
  ASSERT_EQ(w.agent_state(climber, &c), Status::Ok);
  ASSERT_EQ(w.agent_state(fish, &f), Status::Ok);
  ASSERT_EQ(w.agent_state(opener, &o), Status::Ok);
  EXPECT_TRUE(climbed_in_ladder);
  EXPECT_EQ(c.arrivals, 1u);
  EXPECT_DOUBLE_EQ(c.feet.y, 5.0);  // on the platform
  EXPECT_FALSE(fish_left_water);
  EXPECT_EQ(f.arrivals, 1u);
  EXPECT_LT(std::hypot(f.feet.x + 4.5, f.feet.z + 4.5), 1.0);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].agent.index, opener.index);
  EXPECT_EQ(events[0].door.x, 20);
  EXPECT_EQ(events[0].door.z, 20);
  EXPECT_EQ(events[0].door.y, 1);
  EXPECT_GT(opened_at, 0u);
  EXPECT_EQ(o.arrivals, 1u);
  EXPECT_GT(o.feet.z, 25.0);
}

TEST(Registry, SetBlockTraitsRebuildsNavigation) {
  GameWorld g;
  ASSERT_TRUE(g.build());
  World& w = g.w;
  const std::uint64_t epoch = w.nav_epoch();
  EXPECT_EQ(w.reachable(g.opener, {12, 1, 2}, {12, 5, 12}).answer, ReachAnswer::Unknown);
  // The ladder stops being climbable: no profile reaches the platform any more.
  std::string err;
  ASSERT_EQ(w.set_block_traits(kLadder, BlockTraits{}, &err), Status::Ok) << err;
  w.update();
  EXPECT_GT(w.nav_epoch(), epoch);
  EXPECT_EQ(w.reachable(g.climber, {12, 1, 2}, {12, 5, 12}).answer, ReachAnswer::No);
  // The half slab becomes a climbable block... and the ladder again: Yes once more.
  BlockTraits ladder;
  ladder.climbable = true;
  ASSERT_EQ(w.set_block_traits(kLadder, ladder, &err), Status::Ok) << err;
  w.update();
  EXPECT_EQ(w.reachable(g.climber, {12, 1, 2}, {12, 5, 12}).answer, ReachAnswer::Yes);
  // Water made harmful: the swimmer's pool is gone.
  BlockTraits lava;
  lava.fluid = BlockFluid::Harmful;
  lava.hazard = BlockHazard::Fire;
  EXPECT_TRUE(w.is_standable(g.swimmer, {-7, 2, -7}));
  ASSERT_EQ(w.set_block_traits(kWater, lava, &err), Status::Ok) << err;
  w.update();
  EXPECT_FALSE(w.is_standable(g.swimmer, {-7, 2, -7}));
}

}  // namespace
}  // namespace voxnav
