// Profiles: parse_profile_json / validate_profile. A table of bad profiles, each rejected with the
// right Status and an error that names the source, the profile and the field; a good profile with
// every field; warnings for profiles that restrict their class; World::add_profile rules.
// Runs natively and in wasm.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "voxnav/profile.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

struct BadCase {
  const char* what;
  const char* json;
  Status status;
  const char* field;        ///< the field the error must name ("" for none)
  const char* also = "";    ///< another piece of text the error must contain
  bool any_error = false;   ///< BadFormat or InvalidArgument both acceptable
};

const BadCase kBad[] = {
    // Not JSON / not an object.
    {"not JSON", "{ \"id\": \"zombie\", ", Status::BadFormat, "", "not a JSON object"},
    {"a JSON array", "[1, 2]", Status::BadFormat, "", "not a JSON object"},
    {"empty text", "", Status::BadFormat, "", "not a JSON object"},
    // Unknown fields, top level and nested.
    {"unknown field", R"({"id":"zombie","wings":2})", Status::BadFormat, "wings", "unknown field"},
    {"unknown body field", R"({"id":"zombie","body":{"width":0.6,"depth":1}})", Status::BadFormat, "body.depth",
     "unknown field"},
    {"unknown speed field", R"({"id":"zombie","speed":{"run":3}})", Status::BadFormat, "speed.run", "unknown field"},
    {"unknown search field", R"({"id":"zombie","search":{"nodes":3}})", Status::BadFormat, "search.nodes",
     "unknown field"},
    // Body larger than the class envelope.
    {"body.width > walker envelope", R"({"id":"zombie","body":{"width":1.2}})", Status::InvalidArgument, "body.width",
     "larger than the walker envelope 0.6"},
    {"body.height > walker envelope", R"({"id":"zombie","body":{"height":2.5}})", Status::InvalidArgument,
     "body.height", "larger than the walker envelope"},
    {"body.height > walker_small envelope", R"({"id":"zombie","class":"walker_small","body":{"height":1.5}})",
     Status::InvalidArgument, "body.height", "walker_small"},
    {"zero body width", R"({"id":"zombie","body":{"width":0}})", Status::InvalidArgument, "body.width"},
    // Class <-> ability rules.
    {"flyer without can_fly", R"({"id":"bat","class":"flyer","jump_apex":0})", Status::InvalidArgument, "can_fly"},
    {"can_fly on a walker", R"({"id":"zombie","can_fly":true})", Status::InvalidArgument, "can_fly"},
    {"swimmer without can_swim", R"({"id":"cod","class":"swimmer","jump_apex":0})", Status::InvalidArgument,
     "can_swim"},
    {"can_climb with climb speed 0", R"({"id":"spider","can_climb":true})", Status::InvalidArgument, "speed.climb"},
    {"can_climb with climb speed 0 (explicit)", R"({"id":"spider","can_climb":true,"speed":{"climb":0}})",
     Status::InvalidArgument, "speed.climb"},
    {"can_climb on a class that cannot climb",
     R"({"id":"golem","class":"walker_large","can_climb":true,"speed":{"climb":1}})", Status::InvalidArgument,
     "can_climb"},
    {"unknown class", R"({"id":"zombie","class":"crawler"})", Status::InvalidArgument, "class", "crawler"},
    // Values out of range.
    {"negative walk speed", R"({"id":"zombie","speed":{"walk":-1}})", Status::InvalidArgument, "speed.walk"},
    {"zero walk speed", R"({"id":"zombie","speed":{"walk":0}})", Status::InvalidArgument, "speed.walk"},
    {"sprint below walk", R"({"id":"zombie","speed":{"walk":4,"sprint":2}})", Status::InvalidArgument,
     "speed.sprint"},
    {"max_drop 9", R"({"id":"zombie","max_drop":9})", Status::InvalidArgument, "max_drop", "9"},
    {"max_drop -1", R"({"id":"zombie","max_drop":-1})", Status::InvalidArgument, "max_drop"},
    {"step_height 1.5", R"({"id":"zombie","step_height":1.5})", Status::InvalidArgument, "step_height"},
    {"jump_apex above the class", R"({"id":"zombie","jump_apex":2})", Status::InvalidArgument, "jump_apex"},
    {"gap_jump 20", R"({"id":"zombie","gap_jump":20})", Status::InvalidArgument, "gap_jump"},
    {"arrive_radius 0", R"({"id":"zombie","arrive_radius":0})", Status::InvalidArgument, "arrive_radius"},
    {"turn_rate 0", R"({"id":"zombie","turn_rate":0})", Status::InvalidArgument, "turn_rate"},
    {"search.max_nodes 0", R"({"id":"zombie","search":{"max_nodes":0}})", Status::InvalidArgument, "search.max_nodes", "",
     true},
    {"search.max_nodes above 10^8", R"({"id":"zombie","search":{"max_nodes":200000000}})", Status::InvalidArgument,
     "search.max_nodes"},
    {"search.max_distance 0", R"({"id":"zombie","search":{"max_distance":0}})", Status::InvalidArgument,
     "search.max_distance"},
    {"empty id", R"({"id":""})", Status::InvalidArgument, "id"},
    // Wrong types.
    {"id missing", R"({"class":"walker"})", Status::BadFormat, "id"},
    {"id a number", R"({"id":5})", Status::BadFormat, "id"},
    {"class a number", R"({"id":"zombie","class":1})", Status::BadFormat, "class"},
    {"body a number", R"({"id":"zombie","body":5})", Status::BadFormat, "body"},
    {"body.width a string", R"({"id":"zombie","body":{"width":"wide"}})", Status::BadFormat, "body.width"},
    {"speed.walk a string", R"({"id":"zombie","speed":{"walk":"fast"}})", Status::BadFormat, "speed.walk"},
    {"max_drop a string", R"({"id":"zombie","max_drop":"3"})", Status::BadFormat, "max_drop"},
    {"max_drop a fraction", R"({"id":"zombie","max_drop":2.5})", Status::BadFormat, "max_drop"},
    {"can_climb a number", R"({"id":"zombie","can_climb":1})", Status::BadFormat, "can_climb"},
    {"strafe a string", R"({"id":"zombie","strafe":"yes"})", Status::BadFormat, "strafe"},
    {"gap_jump a word", R"({"id":"zombie","gap_jump":"far"})", Status::BadFormat, "gap_jump"},
    {"search.max_nodes a fraction", R"({"id":"zombie","search":{"max_nodes":1.5}})", Status::BadFormat,
     "search.max_nodes"},
    {"search.max_distance a string", R"({"id":"zombie","search":{"max_distance":"far"}})", Status::BadFormat,
     "search.max_distance"},
    {"drop_malus a string", R"({"id":"zombie","drop_malus":"x"})", Status::BadFormat, "drop_malus"},
};

class BadProfile : public ::testing::TestWithParam<BadCase> {};

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
  EXPECT_EQ(error.rfind("mobs/zombie.json: ", 0), 0u) << "error must start with the source: " << error;
  if (*c.field) {
    EXPECT_NE(error.find(std::string("field \"") + c.field + "\""), std::string::npos)
        << c.what << ": error must name field " << c.field << ": " << error;
  }
  if (*c.also) {
    EXPECT_NE(error.find(c.also), std::string::npos) << c.what << ": " << error;
  }
  // The profile is named when the document has an id string.
  const std::string json = c.json;
  if (json.find("\"id\":\"") != std::string::npos && json.find("\"id\":\"\"") == std::string::npos) {
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
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","body":{"width":1.2}})", p, &error, nullptr, "zombie.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error, "zombie.json: profile \"zombie\": field \"body.width\": 1.2 is larger than the walker envelope 0.6");
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","body":{"width":1.2}})", p, &error), Status::InvalidArgument);
  EXPECT_EQ(error.rfind("profile \"zombie\": field \"body.width\"", 0), 0u) << "no source: no prefix: " << error;
}

TEST(Profile, KeysGivenTwiceAreRefusedNamingTheKey) {
  Profile p;
  p.id = "untouched";
  std::string error;
  EXPECT_EQ(parse_profile_json(R"({"id":"z11","id":"z12"})", p, &error), Status::InvalidArgument);
  EXPECT_EQ(error, "profile JSON: key \"id\" appears more than once (each key may be given once)");
  EXPECT_EQ(p.id, "untouched");
  EXPECT_EQ(parse_profile_json(R"({"id":"b","body":{"width":0.5,"width":0.4}})", p, &error, nullptr, "b.json"),
            Status::InvalidArgument);
  EXPECT_EQ(error, "b.json: profile JSON: key \"body.width\" appears more than once (each key may be given once)");
  // The same key in different objects is fine.
  EXPECT_EQ(parse_profile_json(R"({"id":"c","body":{"width":0.5},"speed":{"walk":3}})", p, &error), Status::Ok) << error;
  // Deep nesting is an ordinary error, not a crash.
  const std::string deep = R"({"id":"deep","body":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
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
    "search": {"max_nodes": 5000, "max_distance": 64}
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
  // It restricts the walker class (step, jump and drop below the class's): a warning, not an error.
  EXPECT_NE(warning.find("restricts its class"), std::string::npos) << warning;
  EXPECT_EQ(validate_profile(p, &error), Status::Ok) << error;
  World w;
  ProfileId id;
  ASSERT_EQ(w.add_profile(p, &id, &error), Status::Ok) << error;
  ProfileId found;
  ASSERT_EQ(w.find_profile("game:spider", &found), Status::Ok);
  EXPECT_EQ(found.index, id.index);
  EXPECT_EQ(w.find_profile("game:boar", &found), Status::NotFound);
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
  EXPECT_TRUE(warning.empty()) << "the default walker does not restrict its class: " << warning;
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","gap_jump":"auto"})", p, &error), Status::Ok) << error;
  EXPECT_EQ(p.gap_jump, -1);
  // A faster walk raises the default sprint with it.
  ASSERT_EQ(parse_profile_json(R"({"id":"zombie","speed":{"walk":7}})", p, &error), Status::Ok) << error;
  EXPECT_EQ(p.walk_speed, 7.0);
  EXPECT_GE(p.sprint_speed, 7.0);
}

TEST(Profile, RestrictingTheClassWarns) {
  for (const char* json : {R"({"id":"timid","max_drop":1})", R"({"id":"timid","step_height":0.25})",
                           R"({"id":"timid","jump_apex":0.5})"}) {
    Profile p;
    std::string error, warning;
    ASSERT_EQ(parse_profile_json(json, p, &error, &warning, "timid.json"), Status::Ok) << json << ": " << error;
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

// The other classes parse (forward compatibility) with only what their class requires; add_profile
// answers Unsupported for them in this build.
TEST(Profile, OtherClassesParseWithTheirRequiredFlags) {
  struct Case {
    const char* json;
    MovementClass cls;
  };
  const Case cases[] = {
      {R"({"id":"cod","class":"swimmer","can_swim":true,"speed":{"swim":2}})", MovementClass::Swimmer},
      {R"({"id":"bat","class":"flyer","can_fly":true})", MovementClass::Flyer},
      {R"({"id":"golem","class":"walker_large"})", MovementClass::WalkerLarge},
      {R"({"id":"chicken","class":"walker_small"})", MovementClass::WalkerSmall},
  };
  for (const Case& c : cases) {
    Profile p;
    std::string error, warning;
    EXPECT_EQ(parse_profile_json(c.json, p, &error, &warning), Status::Ok) << c.json << ": " << error;
    if (!error.empty()) continue;
    // Nothing was restricted: the defaults follow the class, so no "restricts its class" warning.
    EXPECT_TRUE(warning.empty()) << c.json << ": " << warning;
    EXPECT_EQ(p.movement_class, c.cls);
    World w;
    ProfileId id;
    EXPECT_EQ(w.add_profile(p, &id, &error), c.cls == MovementClass::Walker ? Status::Ok : Status::Unsupported)
        << c.json;
  }
}

}  // namespace
}  // namespace voxnav
