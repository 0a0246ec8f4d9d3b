// Profiles: parse_profile_json / validate_profile / check_surface_blocks. A table of bad profiles,
// each rejected with the right Status and an error that names the source, the profile and the
// field; a good profile with every field; warnings for profiles that restrict their class;
// World::add_profile rules; the example profiles (examples/profiles); compile_profile_costs.
// Runs natively and in wasm.
#include "voxnav/profile.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "engine/integrate/integrate.h"
#include "engine/nav/profile_compile.h"
#include "scenes.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct BadCase {
  const char* what;
  const char* json;
  Status status;
  const char* field;       ///< the field the error must name ("" for none)
  const char* also = "";   ///< another piece of text the error must contain
  bool any_error = false;  ///< BadFormat or InvalidArgument both acceptable
};

const BadCase kBad[] = {
    // Not JSON / not an object.
    // A syntax error says so, and where (nlohmann's byte); valid JSON of another type is
    // "not a JSON object".
    {"not JSON", "{ \"id\": \"zombie\", ", Status::BadFormat, "", "JSON syntax error at byte 19: "},
    {"a JSON array", "[1, 2]", Status::BadFormat, "", "not a JSON object"},
    {"empty text", "", Status::BadFormat, "", "JSON syntax error at byte 1: "},
    // Unknown fields, top level and nested.
    {"unknown field", R"({"id":"zombie","wings":2})", Status::BadFormat, "wings", "unknown field"},
    {"unknown body field", R"({"id":"zombie","body":{"width":0.6,"depth":1}})", Status::BadFormat,
     "body.depth", "unknown field"},
    {"unknown speed field", R"({"id":"zombie","speed":{"run":3}})", Status::BadFormat, "speed.run",
     "unknown field"},
    {"unknown search field", R"({"id":"zombie","search":{"nodes":3}})", Status::BadFormat,
     "search.nodes", "unknown field"},
    // Body larger than the class envelope.
    {"body.width > walker envelope", R"({"id":"zombie","body":{"width":1.2}})",
     Status::InvalidArgument, "body.width", "larger than the walker envelope 0.6"},
    {"body.height > walker envelope", R"({"id":"zombie","body":{"height":2.5}})",
     Status::InvalidArgument, "body.height", "larger than the walker envelope"},
    {"body.height > walker_small envelope",
     R"({"id":"zombie","class":"walker_small","body":{"height":1.5}})", Status::InvalidArgument,
     "body.height", "walker_small"},
    {"zero body width", R"({"id":"zombie","body":{"width":0}})", Status::InvalidArgument,
     "body.width"},
    // Class <-> ability rules.
    {"flyer without can_fly", R"({"id":"bat","class":"flyer","jump_apex":0})",
     Status::InvalidArgument, "can_fly"},
    {"can_fly on a walker", R"({"id":"zombie","can_fly":true})", Status::InvalidArgument,
     "can_fly"},
    {"swimmer without can_swim", R"({"id":"cod","class":"swimmer","jump_apex":0})",
     Status::InvalidArgument, "can_swim"},
    {"can_climb with climb speed 0", R"({"id":"spider","can_climb":true})", Status::InvalidArgument,
     "speed.climb"},
    {"can_climb with climb speed 0 (explicit)",
     R"({"id":"spider","can_climb":true,"speed":{"climb":0}})", Status::InvalidArgument,
     "speed.climb"},
    {"can_climb on a class that cannot climb",
     R"({"id":"golem","class":"walker_large","can_climb":true,"speed":{"climb":1}})",
     Status::InvalidArgument, "can_climb"},
    {"unknown class", R"({"id":"zombie","class":"crawler"})", Status::InvalidArgument, "class",
     "crawler"},
    // Values out of range.
    {"negative walk speed", R"({"id":"zombie","speed":{"walk":-1}})", Status::InvalidArgument,
     "speed.walk"},
    {"zero walk speed", R"({"id":"zombie","speed":{"walk":0}})", Status::InvalidArgument,
     "speed.walk"},
    {"sprint below walk", R"({"id":"zombie","speed":{"walk":4,"sprint":2}})",
     Status::InvalidArgument, "speed.sprint"},
    {"max_drop 9", R"({"id":"zombie","max_drop":9})", Status::InvalidArgument, "max_drop", "9"},
    {"max_drop -1", R"({"id":"zombie","max_drop":-1})", Status::InvalidArgument, "max_drop"},
    {"step_height 1.5", R"({"id":"zombie","step_height":1.5})", Status::InvalidArgument,
     "step_height"},
    {"jump_apex above the class", R"({"id":"zombie","jump_apex":2})", Status::InvalidArgument,
     "jump_apex"},
    {"gap_jump 20", R"({"id":"zombie","gap_jump":20})", Status::InvalidArgument, "gap_jump"},
    {"gap_jump -1 (auto is a word)", R"({"id":"zombie","gap_jump":-1})", Status::InvalidArgument,
     "gap_jump"},
    {"arrive_radius 0", R"({"id":"zombie","arrive_radius":0})", Status::InvalidArgument,
     "arrive_radius"},
    {"turn_rate 0", R"({"id":"zombie","turn_rate":0})", Status::InvalidArgument, "turn_rate"},
    {"search.max_nodes 0", R"({"id":"zombie","search":{"max_nodes":0}})", Status::InvalidArgument,
     "search.max_nodes", "0 must be in 1..100000000"},
    {"search.max_nodes above 10^8", R"({"id":"zombie","search":{"max_nodes":200000000}})",
     Status::InvalidArgument, "search.max_nodes"},
    {"search.max_distance 0", R"({"id":"zombie","search":{"max_distance":0}})",
     Status::InvalidArgument, "search.max_distance"},
    // Integers beyond what an int holds are out of range too (not a type error): every integer
    // field, as a plain integer, past 2^63 and with an exponent.
    {"max_drop 9999999999", R"({"id":"zombie","max_drop":9999999999})", Status::InvalidArgument,
     "max_drop", "9999999999 must be in 0..7"},
    {"max_drop 1e12", R"({"id":"zombie","max_drop":1e12})", Status::InvalidArgument, "max_drop",
     "1000000000000 must be in 0..7"},
    {"max_drop -9999999999", R"({"id":"zombie","max_drop":-9999999999})", Status::InvalidArgument,
     "max_drop", "-9999999999 must be in 0..7"},
    {"max_drop 2^64 - 1", R"({"id":"zombie","max_drop":18446744073709551615})",
     Status::InvalidArgument, "max_drop", "18446744073709551615 must be in 0..7"},
    {"max_drop 2^31", R"({"id":"zombie","max_drop":2147483648})", Status::InvalidArgument,
     "max_drop", "2147483648 must be in 0..7"},
    {"gap_jump 9999999999", R"({"id":"zombie","gap_jump":9999999999})", Status::InvalidArgument,
     "gap_jump", "9999999999 must be \"auto\" or 0..8"},
    {"gap_jump -1e12", R"({"id":"zombie","gap_jump":-1e12})", Status::InvalidArgument, "gap_jump",
     "-1000000000000 must be"},
    {"drop_malus 9999999999", R"({"id":"zombie","drop_malus":9999999999})", Status::InvalidArgument,
     "drop_malus", "9999999999 must be in 0..1000"},
    {"drop_malus 1e12", R"({"id":"zombie","drop_malus":1e12})", Status::InvalidArgument,
     "drop_malus", "1000000000000 must be in 0..1000"},
    {"drop_malus 1001", R"({"id":"zombie","drop_malus":1001})", Status::InvalidArgument,
     "drop_malus", "1001 must be in 0..1000"},
    {"search.max_nodes 9999999999", R"({"id":"zombie","search":{"max_nodes":9999999999}})",
     Status::InvalidArgument, "search.max_nodes", "9999999999 must be in 1..100000000"},
    {"search.max_nodes -9999999999", R"({"id":"zombie","search":{"max_nodes":-9999999999}})",
     Status::InvalidArgument, "search.max_nodes", "-9999999999 must be in 1..100000000"},
    {"search.max_nodes -5", R"({"id":"zombie","search":{"max_nodes":-5}})", Status::InvalidArgument,
     "search.max_nodes", "-5 must be in 1..100000000"},
    {"search.max_distance 9999999999", R"({"id":"zombie","search":{"max_distance":9999999999}})",
     Status::InvalidArgument, "search.max_distance", "9999999999 must be in 1..1048576 cells"},
    {"search.max_distance 1e12", R"({"id":"zombie","search":{"max_distance":1e12}})",
     Status::InvalidArgument, "search.max_distance", "1000000000000 must be in 1..1048576"},
    {"avoidance.max_neighbours 9999999999",
     R"({"id":"zombie","avoidance":{"max_neighbours":9999999999}})", Status::InvalidArgument,
     "avoidance.max_neighbours", "9999999999 must be in 0..32"},
    {"avoidance.max_neighbours -1e12", R"({"id":"zombie","avoidance":{"max_neighbours":-1e12}})",
     Status::InvalidArgument, "avoidance.max_neighbours", "-1000000000000 must be in 0..32"},
    {"malus 9999999999", R"({"id":"zombie","malus":{"slow":9999999999}})", Status::InvalidArgument,
     "malus.slow", "9999999999 must be an integer 0..1000"},
    {"malus 2^64 - 1 (not -1)", R"({"id":"zombie","malus":{"water":18446744073709551615}})",
     Status::InvalidArgument, "malus.water", "18446744073709551615 must be"},
    {"malus 1e12", R"({"id":"zombie","malus":{"climbable":1e12}})", Status::InvalidArgument,
     "malus.climbable", "1000000000000 must be"},
    {"malus -1e12", R"({"id":"zombie","malus":{"door_open":-1e12}})", Status::InvalidArgument,
     "malus.door_open", "-1000000000000 must be"},
    {"empty id", R"({"id":""})", Status::InvalidArgument, "id"},
    // Wrong types.
    {"id missing", R"({"class":"walker"})", Status::BadFormat, "id"},
    {"id a number", R"({"id":5})", Status::BadFormat, "id"},
    {"class a number", R"({"id":"zombie","class":1})", Status::BadFormat, "class"},
    {"body a number", R"({"id":"zombie","body":5})", Status::BadFormat, "body"},
    {"body.width a string", R"({"id":"zombie","body":{"width":"wide"}})", Status::BadFormat,
     "body.width"},
    {"speed.walk a string", R"({"id":"zombie","speed":{"walk":"fast"}})", Status::BadFormat,
     "speed.walk"},
    {"max_drop a string", R"({"id":"zombie","max_drop":"3"})", Status::BadFormat, "max_drop"},
    {"max_drop a fraction", R"({"id":"zombie","max_drop":2.5})", Status::BadFormat, "max_drop"},
    {"can_climb a number", R"({"id":"zombie","can_climb":1})", Status::BadFormat, "can_climb"},
    {"strafe a string", R"({"id":"zombie","strafe":"yes"})", Status::BadFormat, "strafe"},
    {"gap_jump a word", R"({"id":"zombie","gap_jump":"far"})", Status::BadFormat, "gap_jump"},
    {"search.max_nodes a fraction", R"({"id":"zombie","search":{"max_nodes":1.5}})",
     Status::BadFormat, "search.max_nodes"},
    {"search.max_distance a string", R"({"id":"zombie","search":{"max_distance":"far"}})",
     Status::BadFormat, "search.max_distance"},
    {"drop_malus a string", R"({"id":"zombie","drop_malus":"x"})", Status::BadFormat, "drop_malus"},
    {"drop_malus a fraction", R"({"id":"zombie","drop_malus":1.5})", Status::BadFormat,
     "drop_malus", "must be an integer"},
    {"gap_jump a fraction", R"({"id":"zombie","gap_jump":2.5})", Status::BadFormat, "gap_jump"},
    {"search.max_distance a fraction", R"({"id":"zombie","search":{"max_distance":1e-3}})",
     Status::BadFormat, "search.max_distance"},
    {"max_drop a boolean", R"({"id":"zombie","max_drop":true})", Status::BadFormat, "max_drop"},
    {"max_drop a huge fraction", R"({"id":"zombie","max_drop":12345678901.5})", Status::BadFormat,
     "max_drop"},
    // Class <-> ability rules added with the full profile.
    {"can_swim with swim speed 0", R"({"id":"zombie","can_swim":true})", Status::InvalidArgument,
     "speed.swim", "can_swim requires a positive swim speed"},
    {"swimmer with swim speed 0", R"({"id":"cod","class":"swimmer","can_swim":true})",
     Status::InvalidArgument, "speed.swim"},
    {"flyer with can_climb",
     R"({"id":"bat","class":"flyer","can_fly":true,"can_climb":true,"speed":{"climb":1}})",
     Status::InvalidArgument, "can_climb", "the flyer class cannot climb"},
    {"swimmer with can_climb",
     R"({"id":"cod","class":"swimmer","can_swim":true,"can_climb":true,"speed":{"swim":2,"climb":1}})",
     Status::InvalidArgument, "can_climb", "the swimmer class cannot climb"},
    {"swimmer with can_open_doors",
     R"({"id":"cod","class":"swimmer","can_swim":true,"can_open_doors":true,"speed":{"swim":2}})",
     Status::InvalidArgument, "can_open_doors", "the swimmer class cannot open doors"},
    // Per-path-type malus.
    {"malus not an object", R"({"id":"zombie","malus":5})", Status::BadFormat, "malus"},
    {"malus of an unknown path type", R"({"id":"zombie","malus":{"lava":4}})", Status::BadFormat,
     "malus.lava", "unknown path type"},
    {"malus a word", R"({"id":"zombie","malus":{"slow":"high"}})", Status::BadFormat, "malus.slow",
     "must be an integer 0..1000 or \"impassable\""},
    {"malus Impassable capitalised", R"({"id":"zombie","malus":{"slow":"Impassable"}})",
     Status::BadFormat, "malus.slow"},
    {"malus a fraction", R"({"id":"zombie","malus":{"danger_fire":2.5}})", Status::BadFormat,
     "malus.danger_fire"},
    {"malus true", R"({"id":"zombie","malus":{"water":true}})", Status::BadFormat, "malus.water"},
    {"malus -1 (not impassable)", R"({"id":"zombie","malus":{"door_closed":-1}})",
     Status::InvalidArgument, "malus.door_closed", "-1 must be"},
    {"malus 1001", R"({"id":"zombie","malus":{"danger_other":1001}})", Status::InvalidArgument,
     "malus.danger_other", "1001"},
    {"walkable impassable", R"({"id":"zombie","malus":{"walkable":"impassable"}})",
     Status::InvalidArgument, "malus.walkable", "cannot be \"impassable\""},
    // Surface malus.
    {"surface_malus an object", R"({"id":"zombie","surface_malus":{"blocks":["sand"],"cost":1}})",
     Status::BadFormat, "surface_malus"},
    {"surface_malus entry a string", R"({"id":"zombie","surface_malus":["sand"]})",
     Status::BadFormat, "surface_malus[0]"},
    {"surface_malus unknown entry field",
     R"({"id":"zombie","surface_malus":[{"blocks":["sand"],"cost":1,"speed":2}]})",
     Status::BadFormat, "surface_malus[0].speed", "unknown field"},
    {"surface_malus without blocks", R"({"id":"zombie","surface_malus":[{"cost":1}]})",
     Status::BadFormat, "surface_malus[0].blocks"},
    {"surface_malus blocks a string",
     R"({"id":"zombie","surface_malus":[{"blocks":"sand","cost":1}]})", Status::BadFormat,
     "surface_malus[0].blocks"},
    {"surface_malus no blocks", R"({"id":"zombie","surface_malus":[{"blocks":[],"cost":1}]})",
     Status::InvalidArgument, "surface_malus[0].blocks", "at least one"},
    {"surface_malus block a number",
     R"({"id":"zombie","surface_malus":[{"blocks":["sand",3],"cost":1}]})", Status::BadFormat,
     "surface_malus[0].blocks[1]"},
    {"surface_malus empty block name",
     R"({"id":"zombie","surface_malus":[{"blocks":[""],"cost":1}]})", Status::InvalidArgument,
     "surface_malus[0].blocks[0]", "must not be empty"},
    {"surface_malus only the prefix",
     R"({"id":"zombie","surface_malus":[{"blocks":["minecraft:"],"cost":1}]})",
     Status::InvalidArgument, "surface_malus[0].blocks[0]", "must not be empty"},
    {"surface_malus uppercase name",
     R"({"id":"zombie","surface_malus":[{"blocks":["sand","Gravel"],"cost":1}]})",
     Status::InvalidArgument, "surface_malus[0].blocks[1]", "\"Gravel\" is not a block name"},
    {"surface_malus block state",
     R"({"id":"zombie","surface_malus":[{"blocks":["oak_slab[type=top]"],"cost":1}]})",
     Status::InvalidArgument, "surface_malus[0].blocks[0]", "is not a block name"},
    {"surface_malus name twice in an entry",
     R"({"id":"zombie","surface_malus":[{"blocks":["gravel","minecraft:gravel"],"cost":1}]})",
     Status::InvalidArgument, "surface_malus[0].blocks[1]",
     "\"gravel\" is already listed in surface_malus[0].blocks[0]"},
    {"surface_malus name in two entries",
     R"({"id":"zombie","surface_malus":[{"blocks":["dirt_path"],"cost":-0.5},{"blocks":["sand","dirt_path"],"cost":2}]})",
     Status::InvalidArgument, "surface_malus[1].blocks[1]",
     "already listed in surface_malus[0].blocks[0]"},
    {"surface_malus without cost", R"({"id":"zombie","surface_malus":[{"blocks":["sand"]}]})",
     Status::BadFormat, "surface_malus[0].cost"},
    {"surface_malus cost a string",
     R"({"id":"zombie","surface_malus":[{"blocks":["sand"],"cost":"low"}]})", Status::BadFormat,
     "surface_malus[0].cost"},
    {"surface_malus cost below -0.6",
     R"({"id":"zombie","surface_malus":[{"blocks":["sand"],"cost":1},{"blocks":["dirt_path"],"cost":-0.7}]})",
     Status::InvalidArgument, "surface_malus[1].cost", "-0.7 must be in [-0.6, 1000]"},
    {"surface_malus cost above 1000",
     R"({"id":"zombie","surface_malus":[{"blocks":["sand"],"cost":1000.5}]})",
     Status::InvalidArgument, "surface_malus[0].cost"},
    // Avoidance.
    {"avoidance a boolean", R"({"id":"zombie","avoidance":true})", Status::BadFormat, "avoidance"},
    {"unknown avoidance field", R"({"id":"zombie","avoidance":{"speed":1}})", Status::BadFormat,
     "avoidance.speed", "unknown field"},
    {"avoidance.enabled a number", R"({"id":"zombie","avoidance":{"enabled":1}})",
     Status::BadFormat, "avoidance.enabled"},
    {"avoidance.radius negative", R"({"id":"zombie","avoidance":{"radius":-0.5}})",
     Status::InvalidArgument, "avoidance.radius"},
    {"avoidance.radius 17", R"({"id":"zombie","avoidance":{"radius":17}})", Status::InvalidArgument,
     "avoidance.radius"},
    {"avoidance.radius a string", R"({"id":"zombie","avoidance":{"radius":"big"}})",
     Status::BadFormat, "avoidance.radius"},
    {"avoidance.time_horizon 0.05", R"({"id":"zombie","avoidance":{"time_horizon":0.05}})",
     Status::InvalidArgument, "avoidance.time_horizon"},
    {"avoidance.time_horizon 11", R"({"id":"zombie","avoidance":{"time_horizon":11}})",
     Status::InvalidArgument, "avoidance.time_horizon"},
    {"avoidance.max_neighbours 33", R"({"id":"zombie","avoidance":{"max_neighbours":33}})",
     Status::InvalidArgument, "avoidance.max_neighbours", "33"},
    {"avoidance.max_neighbours -1", R"({"id":"zombie","avoidance":{"max_neighbours":-1}})",
     Status::InvalidArgument, "avoidance.max_neighbours"},
    {"avoidance.max_neighbours a fraction", R"({"id":"zombie","avoidance":{"max_neighbours":2.5}})",
     Status::BadFormat, "avoidance.max_neighbours"},
    // Knockback.
    {"knockback a number", R"({"id":"zombie","knockback":0.5})", Status::BadFormat, "knockback"},
    {"unknown knockback field", R"({"id":"zombie","knockback":{"mass":3}})", Status::BadFormat,
     "knockback.mass", "unknown field"},
    {"knockback.resistance 1.5", R"({"id":"zombie","knockback":{"resistance":1.5}})",
     Status::InvalidArgument, "knockback.resistance", "1.5 must be in [0, 1]"},
    {"knockback.resistance negative", R"({"id":"zombie","knockback":{"resistance":-0.1}})",
     Status::InvalidArgument, "knockback.resistance"},
    {"knockback.resistance a string", R"({"id":"zombie","knockback":{"resistance":"high"}})",
     Status::BadFormat, "knockback.resistance"},
};

class BadProfile : public ::testing::TestWithParam<BadCase> {};

using test::read_text;

// Loads the real block registry (data/blocks) into `w`: surface malus names are checked against it.
void load_blocks(World& w) {
  const std::string blocks_dir = std::string(VOXNAV_FIXTURES) + "/../../data/blocks/";
  const std::string blocks = read_text(blocks_dir + "blocks.pc-1.21.1.json");
  const std::string shapes = read_text(blocks_dir + "blockCollisionShapes.pc-1.20.5.json");
  ASSERT_FALSE(blocks.empty());
  std::string error;
  ASSERT_EQ(w.load_minecraft_blocks(
                {reinterpret_cast<const std::uint8_t*>(blocks.data()), blocks.size()},
                {reinterpret_cast<const std::uint8_t*>(shapes.data()), shapes.size()}, &error),
            Status::Ok)
      << error;
}

TEST_P(BadProfile, RejectedNamingTheField) {
  const BadCase& c = GetParam();
  Profile out;
  out.id = "untouched";
  out.walk_speed = 1.25;
  std::string error, warning;
  const Status s = parse_profile_json(c.json, out, &error, &warning, "mobs/zombie.json");
  if (c.any_error) {
    EXPECT_TRUE(s == Status::BadFormat || s == Status::InvalidArgument) << c.what << ": " << error;
  } else {
    EXPECT_EQ(s, c.status) << c.what << ": " << error;
  }
  EXPECT_EQ(error.rfind("mobs/zombie.json: ", 0), 0u)
      << "error must start with the source: " << error;
  if (*c.field) {
    EXPECT_NE(error.find(std::string("field \"") + c.field + "\""), std::string::npos)
        << c.what << ": error must name field " << c.field << ": " << error;
  }
  if (*c.also) {
    EXPECT_NE(error.find(c.also), std::string::npos) << c.what << ": " << error;
  }
  // The profile is named when the document has an id string.
  const std::string json = c.json;
  if (json.find("\"id\":\"") != std::string::npos &&
      json.find("\"id\":\"\"") == std::string::npos) {
    EXPECT_NE(error.find("profile \""), std::string::npos) << error;
  }
  // `out` is left unchanged.
  EXPECT_EQ(out.id, "untouched");
  EXPECT_EQ(out.walk_speed, 1.25);
  // Without an error string it still fails the same way (no crash).
  Profile out2;
  EXPECT_EQ(parse_profile_json(c.json, out2, nullptr), s);
}

INSTANTIATE_TEST_SUITE_P(Table, BadProfile, ::testing::ValuesIn(kBad),
                         [](const ::testing::TestParamInfo<BadCase>& i) {
                           std::string n = i.param.what;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n + "_" + std::to_string(i.index);
                         });

TEST(Profile, ErrorNamesProfileAndField) {
  Profile p;
  std::string error;
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","body":{"width":1.2}})", p, &error, nullptr,
                               "zombie.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error,
            "zombie.json: profile \"zombie\": field \"body.width\": 1.2 is larger than the walker "
            "envelope 0.6");
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","body":{"width":1.2}})", p, &error),
            Status::InvalidArgument);
  EXPECT_EQ(error.rfind("profile \"zombie\": field \"body.width\"", 0), 0u)
      << "no source: no prefix: " << error;
}

TEST(Profile, KeysGivenTwiceAreRefusedNamingTheKey) {
  Profile p;
  p.id = "untouched";
  std::string error;
  EXPECT_EQ(parse_profile_json(R"({"id":"z11","id":"z12"})", p, &error), Status::InvalidArgument);
  EXPECT_EQ(error, "profile JSON: key \"id\" appears more than once (each key may be given once)");
  EXPECT_EQ(p.id, "untouched");
  EXPECT_EQ(parse_profile_json(R"({"id":"b","body":{"width":0.5,"width":0.4}})", p, &error, nullptr,
                               "b.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error,
            "b.json: profile JSON: key \"body.width\" appears more than once (each key may be "
            "given once)");
  // Inside arrays the key is named with the element's index.
  EXPECT_EQ(parse_profile_json(R"({"id":"d","surface_malus":[{"blocks":["a"],"cost":1},)"
                               R"({"blocks":["b"],"cost":1,"cost":2}]})",
                               p, &error),
            Status::InvalidArgument);
  EXPECT_EQ(error,
            "profile JSON: key \"surface_malus[1].cost\" appears more than once (each key may be "
            "given once)");
  EXPECT_EQ(parse_profile_json(R"({"id":"d","x":[1,[2,{}],{"a":1,"a":2}]})", p, &error),
            Status::InvalidArgument);
  EXPECT_EQ(error,
            "profile JSON: key \"x[2].a\" appears more than once (each key may be given once)");
  EXPECT_EQ(parse_profile_json(R"({"id":"d","x":[[0,{"a":1,"a":2}]]})", p, &error),
            Status::InvalidArgument);
  EXPECT_EQ(error,
            "profile JSON: key \"x[0][1].a\" appears more than once (each key may be given once)");
  // The same key in different objects is fine.
  EXPECT_EQ(parse_profile_json(R"({"id":"c","body":{"width":0.5},"speed":{"walk":3}})", p, &error),
            Status::Ok)
      << error;
  EXPECT_EQ(
      parse_profile_json(
          R"({"id":"c","surface_malus":[{"blocks":["a"],"cost":1},{"blocks":["b"],"cost":1}]})", p,
          &error),
      Status::Ok)
      << error;
  // Deep nesting is an ordinary error, not a crash.
  const std::string deep =
      R"({"id":"deep","body":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(parse_profile_json(deep, p, &error), Status::BadFormat);
  EXPECT_EQ(error, "profile \"deep\": field \"body\": must be an object");
}

TEST(Profile, NaNIsSpelledNaN) {
  Profile p;
  p.id = "n";
  p.width = std::numeric_limits<double>::quiet_NaN();
  std::string error;
  EXPECT_EQ(validate_profile(p, &error), Status::InvalidArgument);
  EXPECT_EQ(error, "profile \"n\": field \"body.width\": NaN must be a finite number in (0, 64]");
}

// An integer field takes any JSON number without a fractional part (what JavaScript's
// JSON.stringify writes for 1e21 and up, or a hand-written 3.0); the range is then checked as for
// any other integer, and the out-of-range message carries the number as written.
TEST(Profile, IntegerFieldsTakeIntegralNumbers) {
  Profile p;
  std::string error;
  ASSERT_EQ(parse_profile_json(
                R"({"id":"z","max_drop":3.0,"drop_malus":1e2,"gap_jump":2E0,"malus":{"slow":4.0},
                    "search":{"max_nodes":5e4,"max_distance":6.4e1},"avoidance":{"max_neighbours":-0.0}})",
                p, &error),
            Status::Ok)
      << error;
  EXPECT_EQ(p.max_drop, 3);
  EXPECT_EQ(p.drop_malus, 100);
  EXPECT_EQ(p.gap_jump, 2);
  EXPECT_EQ(p.malus[static_cast<int>(PathType::Slow)], 4);
  EXPECT_EQ(p.search_max_nodes, 50000u);
  EXPECT_EQ(p.search_max_distance, 64);
  EXPECT_EQ(p.avoidance.max_neighbours, 0);
  // The largest integer a field reads before its own range check, and one past it.
  EXPECT_EQ(parse_profile_json(R"({"id":"z","max_drop":1073741824})", p, &error, nullptr, "f.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error, "f.json: profile \"z\": field \"max_drop\": 1073741824 must be in 0..7");
  EXPECT_EQ(parse_profile_json(R"({"id":"z","max_drop":1073741825})", p, &error, nullptr, "f.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error, "f.json: profile \"z\": field \"max_drop\": 1073741825 must be in 0..7");
  EXPECT_EQ(parse_profile_json(R"({"id":"z","max_drop":1e12})", p, &error, nullptr, "f.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error, "f.json: profile \"z\": field \"max_drop\": 1000000000000 must be in 0..7");
  EXPECT_EQ(parse_profile_json(R"({"id":"z","max_drop":1e30})", p, &error, nullptr, "f.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error, "f.json: profile \"z\": field \"max_drop\": 1e+30 must be in 0..7");
  // A fraction stays a type error, however large.
  EXPECT_EQ(parse_profile_json(R"({"id":"z","max_drop":0.5})", p, &error), Status::BadFormat);
  EXPECT_EQ(error, "profile \"z\": field \"max_drop\": must be an integer");
}

TEST(Profile, GoodProfileWithEveryField) {
  const char* json = R"({
    "id": "game:spider",
    "class": "walker",
    "body": {"width": 0.5, "height": 0.9},
    "speed": {"walk": 3.5, "sprint": 5.0, "climb": 2.0, "swim": 1.5},
    "step_height": 0.5,
    "jump_apex": 1.0,
    "max_drop": 2,
    "gap_jump": 2,
    "turn_rate": 360,
    "arrive_radius": 0.4,
    "strafe": true,
    "can_open_doors": true,
    "can_climb": true,
    "can_swim": true,
    "can_fly": false,
    "drop_malus": 3,
    "search": {"max_nodes": 5000, "max_distance": 64},
    "malus": {"walkable": 0, "slow": 2, "danger_fire": "impassable", "door_closed": 1, "water": 5},
    "surface_malus": [{"blocks": ["dirt_path", "minecraft:gravel"], "cost": -0.5},
                      {"blocks": ["soul_sand"], "cost": 3.25}],
    "avoidance": {"enabled": false, "radius": 0.75, "time_horizon": 2.5, "max_neighbours": 3},
    "knockback": {"resistance": 0.3}
  })";
  Profile p;
  std::string error, warning;
  ASSERT_EQ(parse_profile_json(json, p, &error, &warning, "spider.json"), Status::Ok) << error;
  EXPECT_EQ(p.id, "game:spider");
  EXPECT_EQ(p.movement_class, MovementClass::Walker);
  EXPECT_EQ(p.width, 0.5);
  EXPECT_EQ(p.height, 0.9);
  EXPECT_EQ(p.walk_speed, 3.5);
  EXPECT_EQ(p.sprint_speed, 5.0);
  EXPECT_EQ(p.climb_speed, 2.0);
  EXPECT_EQ(p.swim_speed, 1.5);
  EXPECT_EQ(p.step_height, 0.5);
  EXPECT_EQ(p.jump_apex, 1.0);
  EXPECT_EQ(p.max_drop, 2);
  EXPECT_EQ(p.gap_jump, 2);
  EXPECT_EQ(p.turn_rate, 360.0);
  EXPECT_EQ(p.arrive_radius, 0.4);
  EXPECT_TRUE(p.strafe);
  EXPECT_TRUE(p.can_open_doors);
  EXPECT_TRUE(p.can_climb);
  EXPECT_TRUE(p.can_swim);
  EXPECT_FALSE(p.can_fly);
  EXPECT_EQ(p.drop_malus, 3);
  EXPECT_EQ(p.search_max_nodes, 5000u);
  EXPECT_EQ(p.search_max_distance, 64);
  const std::array<int, kPathTypeCount> malus = {0,           2, kImpassable, 8, kImpassable,
                                                 kImpassable, 0, 1,           0, 5};
  EXPECT_EQ(p.malus, malus);
  ASSERT_EQ(p.surface_malus.size(), 2u);
  EXPECT_EQ(p.surface_malus[0].blocks, (std::vector<std::string>{"dirt_path", "gravel"}))
      << "the minecraft: prefix is dropped";
  EXPECT_EQ(p.surface_malus[0].cost, -0.5);
  EXPECT_EQ(p.surface_malus[1].blocks, (std::vector<std::string>{"soul_sand"}));
  EXPECT_EQ(p.surface_malus[1].cost, 3.25);
  EXPECT_FALSE(p.avoidance.enabled);
  EXPECT_EQ(p.avoidance.radius, 0.75);
  EXPECT_EQ(p.avoidance.time_horizon, 2.5);
  EXPECT_EQ(p.avoidance.max_neighbours, 3);
  EXPECT_EQ(p.knockback.resistance, 0.3);
  // It restricts the walker class (step, jump and drop below the class's, danger_fire impassable):
  // a warning naming each field, not an error.
  EXPECT_EQ(
      warning,
      "spider.json: profile \"game:spider\": restricts its class (field \"step_height\": 0.5 is "
      "below "
      "the class's 0.6; field \"jump_apex\": 1 is below the class's 1.25; field \"max_drop\": 2 is "
      "below the class's 3; field \"malus.danger_fire\": impassable): its reachability Yes answers "
      "become searches");
  EXPECT_EQ(validate_profile(p, &error), Status::Ok) << error;
  World w;
  load_blocks(w);
  ProfileId id;
  ASSERT_EQ(w.add_profile(p, &id, &error), Status::Ok) << error;
  ProfileId found;
  ASSERT_EQ(w.find_profile("game:spider", &found), Status::Ok);
  EXPECT_EQ(found.index, id.index);
  EXPECT_EQ(w.find_profile("game:boar", &found), Status::NotFound);
  // A surface block the world's registry does not know is refused when the profile is added,
  // and nothing is added.
  Profile bad = p;
  bad.id = "game:bad";
  bad.surface_malus = {SurfaceMalus{{"gravel", "no_such_block"}, 1.0}};
  EXPECT_EQ(w.add_profile(bad, &id, &error), Status::InvalidArgument);
  EXPECT_NE(
      error.find("field \"surface_malus[0].blocks[1]\": unknown block name \"no_such_block\""),
      std::string::npos)
      << error;
  EXPECT_EQ(w.find_profile("game:bad", &found), Status::NotFound);
}

TEST(Profile, MinimalProfileTakesDefaults) {
  Profile p;
  std::string error, warning = "stale";
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie"})", p, &error, &warning), Status::Ok) << error;
  const Profile d;
  EXPECT_EQ(p.id, "zombie");
  EXPECT_EQ(p.movement_class, MovementClass::Walker);
  EXPECT_EQ(p.width, d.width);
  EXPECT_EQ(p.height, d.height);
  EXPECT_EQ(p.walk_speed, d.walk_speed);
  EXPECT_EQ(p.max_drop, d.max_drop);
  EXPECT_EQ(p.gap_jump, -1);
  EXPECT_EQ(p.search_max_nodes, d.search_max_nodes);
  EXPECT_EQ(p.malus, kDefaultMalus);
  EXPECT_TRUE(p.surface_malus.empty());
  EXPECT_TRUE(p.avoidance.enabled);
  EXPECT_EQ(p.avoidance.radius, 0.0);
  EXPECT_EQ(p.avoidance.time_horizon, 1.0);
  EXPECT_EQ(p.avoidance.max_neighbours, 8);
  EXPECT_EQ(p.knockback.resistance, 0.0);
  EXPECT_TRUE(warning.empty()) << "the default walker does not restrict its class: " << warning;
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","gap_jump":"auto"})", p, &error), Status::Ok)
      << error;
  EXPECT_EQ(p.gap_jump, -1);
  // A faster walk raises the default sprint with it.
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","speed":{"walk":7}})", p, &error), Status::Ok)
      << error;
  EXPECT_EQ(p.walk_speed, 7.0);
  EXPECT_GE(p.sprint_speed, 7.0);
}

TEST(Profile, RestrictingTheClassWarns) {
  for (const char* json : {R"({"id":"timid","max_drop":1})", R"({"id":"timid","step_height":0.25})",
                           R"({"id":"timid","jump_apex":0.5})"}) {
    Profile p;
    std::string error, warning;
    ASSERT_EQ(parse_profile_json(json, p, &error, &warning, "timid.json"), Status::Ok)
        << json << ": " << error;
    EXPECT_NE(warning.find("restricts its class"), std::string::npos) << json << ": " << warning;
    EXPECT_NE(warning.find("profile \"timid\""), std::string::npos) << warning;
    EXPECT_EQ(warning.rfind("timid.json: ", 0), 0u) << warning;
    // No warning sink: still fine.
    ASSERT_EQ(parse_profile_json(json, p, &error), Status::Ok);
  }
  // validate_profile gives the same warning.
  Profile p;
  p.id = "timid";
  p.max_drop = 1;
  std::string error, warning;
  ASSERT_EQ(validate_profile(p, &error, &warning), Status::Ok) << error;
  EXPECT_NE(warning.find("restricts its class"), std::string::npos);
}

TEST(Profile, ValidateProfileChecksStructs) {
  std::string error;
  Profile p;
  EXPECT_EQ(validate_profile(p, &error), Status::Ok) << error;
  p.width = 0.9;
  EXPECT_EQ(validate_profile(p, &error), Status::InvalidArgument);
  EXPECT_NE(error.find("field \"body.width\""), std::string::npos) << error;
  p = Profile{};
  p.walk_speed = std::nan("");
  EXPECT_EQ(validate_profile(p, &error), Status::InvalidArgument);
  EXPECT_NE(error.find("field \"speed.walk\""), std::string::npos) << error;
  p = Profile{};
  p.can_fly = true;
  EXPECT_EQ(validate_profile(p, &error), Status::InvalidArgument);
  EXPECT_NE(error.find("field \"can_fly\""), std::string::npos) << error;
  p = Profile{};
  p.search_max_nodes = 0;
  EXPECT_EQ(validate_profile(p, &error), Status::InvalidArgument);
  EXPECT_NE(error.find("field \"search.max_nodes\""), std::string::npos) << error;
  // World::add_profile validates too.
  World w;
  ProfileId id;
  p = Profile{};
  p.max_drop = 9;
  EXPECT_EQ(w.add_profile(p, &id, &error), Status::InvalidArgument);
  EXPECT_NE(error.find("field \"max_drop\""), std::string::npos) << error;
  EXPECT_EQ(w.find_profile("walker", &id), Status::NotFound) << "a rejected profile is not added";
}

// The other classes parse with only what their class requires; add_profile takes walker_small,
// walker_large, swimmer and flyer profiles (their navigation is built then).
TEST(Profile, OtherClassesParseWithTheirRequiredFlags) {
  struct Case {
    const char* json;
    MovementClass cls;
  };
  const Case cases[] = {
      {R"({"id":"cod","class":"swimmer","can_swim":true,"speed":{"swim":2}})",
       MovementClass::Swimmer},
      {R"({"id":"bat","class":"flyer","can_fly":true})", MovementClass::Flyer},
      {R"({"id":"golem","class":"walker_large"})", MovementClass::WalkerLarge},
      {R"({"id":"chicken","class":"walker_small"})", MovementClass::WalkerSmall},
  };
  for (const Case& c : cases) {
    Profile p;
    std::string error, warning;
    EXPECT_EQ(parse_profile_json(c.json, p, &error, &warning), Status::Ok)
        << c.json << ": " << error;
    if (!error.empty()) continue;
    // Nothing was restricted: the defaults follow the class, so no "restricts its class" warning.
    EXPECT_TRUE(warning.empty()) << c.json << ": " << warning;
    EXPECT_EQ(p.movement_class, c.cls);
    World w;
    ProfileId id;
    EXPECT_EQ(w.add_profile(p, &id, &error), Status::Ok) << c.json << ": " << error;
  }
}

TEST(Profile, PathTypeNames) {
  const char* names[kPathTypeCount] = {"walkable",    "slow",         "danger_fire", "danger_other",
                                       "damage_fire", "damage_other", "door_open",   "door_closed",
                                       "climbable",   "water"};
  for (int i = 0; i < kPathTypeCount; ++i)
    EXPECT_STREQ(path_type_name(static_cast<PathType>(i)), names[i]);
  EXPECT_STREQ(path_type_name(static_cast<PathType>(kPathTypeCount)), "?");
  EXPECT_EQ(static_cast<int>(PathType::Water), kPathTypeCount - 1);
}

TEST(Profile, MalusChangesOnlyTheListedTypes) {
  Profile p;
  std::string error;
  ASSERT_EQ(parse_profile_json(
                R"({"id":"z","malus":{"danger_fire":4,"damage_other":"impassable","water":1000}})",
                p, &error),
            Status::Ok)
      << error;
  std::array<int, kPathTypeCount> want = kDefaultMalus;
  want[static_cast<int>(PathType::DangerFire)] = 4;
  want[static_cast<int>(PathType::Water)] = 1000;
  EXPECT_EQ(p.malus, want);
  // Damage cells can be made enterable (at a price).
  ASSERT_EQ(
      parse_profile_json(R"({"id":"z","malus":{"damage_fire":50,"damage_other":0}})", p, &error),
      Status::Ok)
      << error;
  EXPECT_EQ(p.malus[static_cast<int>(PathType::DamageFire)], 50);
  EXPECT_EQ(p.malus[static_cast<int>(PathType::DamageOther)], 0);
  // An empty object changes nothing.
  ASSERT_EQ(parse_profile_json(R"({"id":"z","malus":{}})", p, &error), Status::Ok) << error;
  EXPECT_EQ(p.malus, kDefaultMalus);
}

// Making a cell type the class walks freely impassable warns, naming the field; damage cells,
// closed doors, climbable cells and water do not (reachability gates those itself).
TEST(Profile, ImpassableMalusRestrictsTheClass) {
  for (const char* type : {"slow", "danger_fire", "danger_other", "door_open"}) {
    const std::string json =
        std::string(R"({"id":"timid","malus":{")") + type + R"(":"impassable"}})";
    Profile p;
    std::string error, warning;
    ASSERT_EQ(parse_profile_json(json, p, &error, &warning, "timid.json"), Status::Ok)
        << json << ": " << error;
    EXPECT_EQ(warning,
              std::string("timid.json: profile \"timid\": restricts its class (field \"malus.") +
                  type + "\": impassable): its reachability Yes answers become searches");
    EXPECT_TRUE(detail::compile_profile_costs(p).restricts_class) << type;
  }
  for (const char* type : {"damage_fire", "damage_other", "door_closed", "climbable", "water"}) {
    const std::string json =
        std::string(R"({"id":"timid","malus":{")") + type + R"(":"impassable"}})";
    Profile p;
    std::string error, warning = "stale";
    ASSERT_EQ(parse_profile_json(json, p, &error, &warning), Status::Ok) << json << ": " << error;
    EXPECT_TRUE(warning.empty()) << json << ": " << warning;
    EXPECT_FALSE(detail::compile_profile_costs(p).restricts_class) << type;
  }
  // A large malus is a cost, not a restriction.
  Profile p;
  std::string error, warning;
  ASSERT_EQ(parse_profile_json(R"({"id":"z","malus":{"slow":1000,"door_open":1000}})", p, &error,
                               &warning),
            Status::Ok);
  EXPECT_TRUE(warning.empty()) << warning;
}

TEST(Profile, AtMost32SurfaceEntries) {
  auto json = [](int entries) {
    std::string s = R"({"id":"roads","surface_malus":[)";
    for (int i = 0; i < entries; ++i) {
      if (i) s += ',';
      s += R"({"blocks":["b)";
      s += std::to_string(i);
      s += R"("],"cost":1})";
    }
    s += "]}";
    return s;
  };
  Profile p;
  std::string error;
  ASSERT_EQ(parse_profile_json(json(32), p, &error), Status::Ok) << error;
  EXPECT_EQ(p.surface_malus.size(), 32u);
  EXPECT_EQ(parse_profile_json(json(33), p, &error, nullptr, "roads.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error,
            "roads.json: profile \"roads\": field \"surface_malus\": 33 entries, at most 32");
  p.surface_malus.push_back({{"b99"}, 1.0});
  EXPECT_EQ(validate_profile(p, &error), Status::InvalidArgument);
  EXPECT_EQ(error, "profile \"roads\": field \"surface_malus\": 33 entries, at most 32");
}

TEST(Profile, ValidateProfileChecksTheNewFields) {
  std::string error;
  auto expect_field = [&](const Profile& p, const char* field) {
    EXPECT_EQ(validate_profile(p, &error), Status::InvalidArgument) << field;
    EXPECT_NE(error.find(std::string("field \"") + field + "\""), std::string::npos) << error;
  };
  Profile p;
  p.malus[static_cast<int>(PathType::Slow)] = -2;
  expect_field(p, "malus.slow");
  p = Profile{};
  p.malus[static_cast<int>(PathType::Climbable)] = 1001;
  expect_field(p, "malus.climbable");
  p = Profile{};
  p.malus[static_cast<int>(PathType::Walkable)] = kImpassable;
  expect_field(p, "malus.walkable");
  p = Profile{};
  p.surface_malus = {{{"minecraft:gravel"}, 1.0}, {{"sand", "gravel"}, 2.0}};
  expect_field(p, "surface_malus[1].blocks[1]");
  EXPECT_NE(error.find("\"gravel\" is already listed in surface_malus[0].blocks[0]"),
            std::string::npos)
      << error;
  p.surface_malus[1].blocks = {"sand"};
  EXPECT_EQ(validate_profile(p, &error), Status::Ok)
      << "a minecraft: prefix is accepted: " << error;
  p.surface_malus[1].cost = std::nan("");
  expect_field(p, "surface_malus[1].cost");
  p = Profile{};
  p.avoidance.time_horizon = std::numeric_limits<double>::infinity();
  expect_field(p, "avoidance.time_horizon");
  p = Profile{};
  p.knockback.resistance = std::nan("");
  expect_field(p, "knockback.resistance");
  EXPECT_NE(error.find("NaN"), std::string::npos) << error;
}

TEST(Profile, CheckSurfaceBlocksNamesTheUnknownBlock) {
  Profile p;
  p.id = "x";
  p.surface_malus = {{{"dirt_path"}, -0.5}, {{"minecraft:sand", "foo"}, 1.0}};
  std::vector<std::string> asked;
  auto known = [&](std::string_view name) {
    asked.emplace_back(name);
    return name == "dirt_path" || name == "sand";
  };
  std::string error;
  EXPECT_EQ(check_surface_blocks(p, known, &error), Status::InvalidArgument);
  EXPECT_EQ(error,
            "profile \"x\": field \"surface_malus[1].blocks[1]\": unknown block name \"foo\"");
  EXPECT_EQ(asked, (std::vector<std::string>{"dirt_path", "sand", "foo"}))
      << "asked without minecraft:";
  EXPECT_EQ(check_surface_blocks(p, known, &error, "x.json"), Status::InvalidArgument);
  EXPECT_EQ(error.rfind("x.json: profile \"x\": field \"surface_malus[1].blocks[1]\"", 0), 0u)
      << error;
  p.surface_malus[1].blocks.pop_back();
  error.clear();
  EXPECT_EQ(check_surface_blocks(p, known, &error), Status::Ok);
  EXPECT_TRUE(error.empty());
  EXPECT_EQ(check_surface_blocks(Profile{}, nullptr, &error), Status::Ok)
      << "no surfaces: nothing to ask";
}

// examples/profiles: each file parses with its file name as the source, and its surface blocks are
// in the real block registry (data/blocks).

TEST(Profile, ExampleProfilesParse) {
  const std::string dir = std::string(VOXNAV_FIXTURES) + "/../../examples/profiles/";
  const std::string blocks_dir = std::string(VOXNAV_FIXTURES) + "/../../data/blocks/";
  World w;
  const std::string blocks = read_text(blocks_dir + "blocks.pc-1.21.1.json");
  const std::string shapes = read_text(blocks_dir + "blockCollisionShapes.pc-1.20.5.json");
  ASSERT_FALSE(blocks.empty());
  std::string error;
  ASSERT_EQ(w.load_minecraft_blocks(
                {reinterpret_cast<const std::uint8_t*>(blocks.data()), blocks.size()},
                {reinterpret_cast<const std::uint8_t*>(shapes.data()), shapes.size()}, &error),
            Status::Ok)
      << error;
  auto known = [&](std::string_view name) {
    std::uint16_t v = 0;
    return w.block_value(name, &v) == Status::Ok;
  };
  struct Example {
    const char* file;
    MovementClass cls;
  };
  const Example examples[] = {{"boar.json", MovementClass::Walker},
                              {"spider.json", MovementClass::WalkerSmall},
                              {"golem.json", MovementClass::WalkerLarge},
                              {"fish.json", MovementClass::Swimmer},
                              {"guard.json", MovementClass::Walker}};
  std::vector<Profile> parsed;
  for (const Example& e : examples) {
    const std::string text = read_text(dir + e.file);
    ASSERT_FALSE(text.empty()) << dir << e.file;
    Profile p;
    std::string warning;
    ASSERT_EQ(parse_profile_json(text, p, &error, &warning, e.file), Status::Ok) << error;
    EXPECT_TRUE(warning.empty()) << e.file << " restricts its class: " << warning;
    EXPECT_EQ(p.movement_class, e.cls) << e.file;
    EXPECT_EQ(check_surface_blocks(p, known, &error, e.file), Status::Ok) << error;
    parsed.push_back(std::move(p));
  }
  // An unknown block in the real registry is refused, naming the file, the profile and the field.
  Profile guard = parsed[4];
  EXPECT_EQ(guard.id, "game:guard");
  EXPECT_TRUE(guard.can_open_doors);
  ASSERT_EQ(guard.surface_malus.size(), 2u);
  EXPECT_EQ(guard.surface_malus[0].blocks[1], "stone_bricks");
  EXPECT_LT(guard.surface_malus[0].cost, 0) << "the guard prefers roads";
  guard.surface_malus[1].blocks.push_back("asphalt");
  EXPECT_EQ(check_surface_blocks(guard, known, &error, "guard.json"), Status::InvalidArgument);
  EXPECT_EQ(error,
            "guard.json: profile \"game:guard\": field \"surface_malus[1].blocks[1]\": unknown "
            "block name "
            "\"asphalt\"");
  EXPECT_TRUE(parsed[1].can_climb);
  EXPECT_TRUE(parsed[3].can_swim);
  EXPECT_EQ(parsed[2].knockback.resistance, 1.0);
}

// ---- compile_profile_costs ----

TEST(ProfileCompile, JumpVelocityAndGapReach) {
  // g = 32 m/s^2 (the integrator's gravity). v = sqrt(2 g apex); flight time 2v/g;
  // gap reach = floor(max(walk, sprint) * 2v/g - 0.15) (kGapTakeOff, kGapMargin).
  Profile p;  // the default walker: walk 4.3, sprint 5.6, apex 1.25
  detail::CompiledProfile c = detail::compile_profile_costs(p);
  // v = sqrt(80) = 8.94427...; 2v/g = 0.559017; 5.6 * 0.559017 = 3.13050; - 0.15 = 2.98 -> 2.
  EXPECT_DOUBLE_EQ(c.jump_velocity, std::sqrt(80.0));
  EXPECT_EQ(c.jump_velocity, BodyParams{}.jump_velocity) << "the integrator's default jump";
  EXPECT_EQ(c.gap_reach, 2);
  // walk 6, apex 1: v = sqrt(64) = 8; 2v/g = 0.5; 6 * 0.5 = 3; - 0.15 = 2.85 -> 2.
  p.walk_speed = 6.0;
  p.sprint_speed = 6.0;
  p.jump_apex = 1.0;
  c = detail::compile_profile_costs(p);
  EXPECT_EQ(c.jump_velocity, 8.0);
  EXPECT_EQ(c.gap_reach, 2);
  // walk 8, apex 1.25: v = 8.94427; 2v/g = 0.559017; 8 * 0.559017 = 4.47214; - 0.15 = 4.32 -> 4.
  p.walk_speed = p.sprint_speed = 8.0;
  p.jump_apex = 1.25;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 4);
  // walk 3, apex 0.5: v = sqrt(32) = 5.65685; 2v/g = 0.353553; 3 * 0.353553 = 1.06066; - 0.15 =
  // 0.91 -> 0: this body cannot clear a gap.
  p.walk_speed = p.sprint_speed = 3.0;
  p.jump_apex = 0.5;
  c = detail::compile_profile_costs(p);
  EXPECT_DOUBLE_EQ(c.jump_velocity, std::sqrt(32.0));
  EXPECT_EQ(c.gap_reach, 0);
  // No jump: v = 0, floor(-0.15) = -1 clamped to 0.
  p.jump_apex = 0.0;
  c = detail::compile_profile_costs(p);
  EXPECT_EQ(c.jump_velocity, 0.0);
  EXPECT_EQ(c.gap_reach, 0);
  // A very fast walker is capped at the longest planned gap.
  p = Profile{};
  p.walk_speed = p.sprint_speed = 100.0;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, detail::kMaxGapJump);
}

TEST(ProfileCompile, GivenGapJumpNeverExceedsThePhysics) {
  Profile p;  // auto reach 2 at walk 6, apex 1 (see above)
  p.walk_speed = p.sprint_speed = 6.0;
  p.jump_apex = 1.0;
  p.gap_jump = 1;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 1);
  p.gap_jump = 0;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 0);
  p.gap_jump = 5;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 2) << "no more than the auto value";
  p.gap_jump = -1;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 2);
  p.movement_class = MovementClass::WalkerSmall;
  EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 2);
  // Classes without gap jumps.
  for (MovementClass cls :
       {MovementClass::WalkerLarge, MovementClass::Swimmer, MovementClass::Flyer}) {
    p.movement_class = cls;
    EXPECT_EQ(detail::compile_profile_costs(p).gap_reach, 0) << movement_class_name(cls);
  }
}

TEST(ProfileCompile, PathAndDropCosts) {
  Profile p;
  detail::CompiledProfile c = detail::compile_profile_costs(p);
  const std::array<std::uint32_t, kPathTypeCount> defaults = {
      0, 80000, 80000, 80000, detail::kPathCostImpassable, detail::kPathCostImpassable,
      0, 80000, 0,     0};
  EXPECT_EQ(c.path_cost, defaults);
  EXPECT_EQ(c.drop_extra, 2500u) << "drop_malus 1 = a quarter cell";
  EXPECT_TRUE(c.surfaces.empty());
  EXPECT_FALSE(c.restricts_class);
  std::string error;
  ASSERT_EQ(parse_profile_json(R"({"id":"z","drop_malus":6,"malus":{"slow":1,"damage_fire":1000,)"
                               R"("door_closed":"impassable","water":3}})",
                               p, &error),
            Status::Ok)
      << error;
  c = detail::compile_profile_costs(p);
  EXPECT_EQ(c.path_cost[static_cast<int>(PathType::Walkable)], 0u);
  EXPECT_EQ(c.path_cost[static_cast<int>(PathType::Slow)], 10000u);
  EXPECT_EQ(c.path_cost[static_cast<int>(PathType::DamageFire)], 10000000u);
  EXPECT_EQ(c.path_cost[static_cast<int>(PathType::DoorClosed)], detail::kPathCostImpassable);
  EXPECT_EQ(c.path_cost[static_cast<int>(PathType::Water)], 30000u);
  EXPECT_EQ(c.drop_extra, 15000u);
  EXPECT_FALSE(c.restricts_class) << "a closed door is gated, not a restriction";
  p.max_drop = 1;
  EXPECT_TRUE(detail::compile_profile_costs(p).restricts_class);
}

TEST(ProfileCompile, Surfaces) {
  Profile p;
  std::string error;
  ASSERT_EQ(parse_profile_json(R"({"id":"guard","surface_malus":[)"
                               R"({"blocks":["dirt_path","minecraft:gravel"],"cost":-0.5},)"
                               R"({"blocks":["farmland"],"cost":4},)"
                               R"({"blocks":["sand"],"cost":0.12346},)"
                               R"({"blocks":["ice"],"cost":-0.6},)"
                               R"({"blocks":["mud"],"cost":1000}]})",
                               p, &error),
            Status::Ok)
      << error;
  // A profile built in code may keep the prefix: the compiled names never have it.
  p.surface_malus[2].blocks[0] = "minecraft:sand";
  const detail::CompiledProfile c = detail::compile_profile_costs(p);
  ASSERT_EQ(c.surfaces.size(), 5u);
  EXPECT_EQ(c.surfaces[0].blocks, (std::vector<std::string>{"dirt_path", "gravel"}));
  EXPECT_EQ(c.surfaces[0].cost, -5000);
  EXPECT_EQ(c.surfaces[1].blocks, (std::vector<std::string>{"farmland"}));
  EXPECT_EQ(c.surfaces[1].cost, 40000);
  EXPECT_EQ(c.surfaces[2].blocks, (std::vector<std::string>{"sand"}));
  EXPECT_EQ(c.surfaces[2].cost, 1235) << "round(0.12346 * 10000)";
  EXPECT_EQ(c.surfaces[3].cost, -6000)
      << "a straight step onto ice costs 10000 - 6000 = 0.4 of a cell";
  EXPECT_EQ(c.surfaces[4].cost, 10000000);
}

}  // namespace
}  // namespace voxnav
