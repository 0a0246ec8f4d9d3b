// voxnav/numbers.h (host numbers to the API's types), voxnav/tables.h (limits and enum names) and
// io.h's load_anvil_columns over bytes + offsets: the conversions the npm package's bindings use.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "voxnav/columns.h"
#include "voxnav/control.h"
#include "voxnav/io.h"
#include "voxnav/numbers.h"
#include "voxnav/tables.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

TEST(HostNumbers, CellsAreInt32Integers) {
  CellPos c;
  CallError e;
  const double ok[] = {3, -7, 2147483647};
  ASSERT_EQ(from_numbers(ok, "goal", &c, &e), Status::Ok);
  EXPECT_EQ(c.x, 3);
  EXPECT_EQ(c.y, -7);
  EXPECT_EQ(c.z, 2147483647);
  const double half[] = {1, 2.5, 3};
  EXPECT_EQ(from_numbers(half, "goal", &c, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "goal");
  EXPECT_EQ(e.message, "goal (1, 2.5, 3) is not a cell (integers expected)");
  const double far[] = {0, 2147483648.0, 0};
  EXPECT_EQ(from_numbers(far, "chunk", &c, &e, "a chunk position"), Status::OutOfRange);
  EXPECT_EQ(e.message, "chunk (0, 2147483648, 0) is out of range");
}

TEST(HostNumbers, IdsIntsAndValues) {
  CallError e;
  int n = 0;
  EXPECT_EQ(from_number(-12, "radius", &n, &e), Status::Ok);
  EXPECT_EQ(n, -12);
  EXPECT_EQ(from_number(0.5, "radius", &n, &e), Status::InvalidArgument);
  EXPECT_EQ(e.message, "radius 0.5 is not an integer");
  std::int64_t v = 0;
  EXPECT_EQ(from_number(9007199254740992.0, "value", &v, &e), Status::Ok);
  EXPECT_EQ(v, std::int64_t{1} << 53);
  EXPECT_EQ(from_number(1e300, "value", &v, &e), Status::InvalidArgument);
  ProfileId p;
  double pn = 0;
  ASSERT_TRUE(id_number(ProfileId{4, 2}, &pn));
  EXPECT_EQ(pn, (4 * 64 + 2) * 4 + 3);
  EXPECT_EQ(from_number(pn, "profile", &p, &e, 2), Status::Ok);
  EXPECT_EQ(p.index, 4u);
  EXPECT_EQ(p.owner, 2u);
  EXPECT_EQ(from_number(pn, "profile", &p, &e, 5), Status::InvalidArgument);
  EXPECT_EQ(e.message, "profile 1035 is a profile id of another World");
  EXPECT_EQ(from_number(-1, "profile", &p, &e), Status::InvalidArgument);
  EXPECT_EQ(e.message, "profile -1 is not a profile id");
  // An agent number round-trips through id_number (voxnav/ids.h), and is no other kind.
  AgentId a;
  double number = 0;
  ASSERT_TRUE(id_number(AgentId{5, 3}, &number));
  ASSERT_EQ(from_number(number, "agent", &a, &e), Status::Ok);
  EXPECT_EQ(a.index, 5u);
  EXPECT_EQ(a.generation, 3u);
  EXPECT_EQ(from_number(number, "profile", &p, &e), Status::InvalidArgument);
  EXPECT_EQ(e.message, "profile " + number_text(number) + " is an agent id, not a profile id");
  PathHandle h;
  EXPECT_EQ(from_number(1.5, "path", &h, &e), Status::InvalidArgument);
  EXPECT_EQ(e.message, "path 1.5 is not a path handle");
}

TEST(HostNumbers, AreaFilters) {
  CallError e;
  AreaFilter f;
  const std::vector<double> m = {0.5, 2};
  ASSERT_EQ(area_filter_of_numbers(5, m, &f, &e), Status::Ok);
  EXPECT_EQ(f.excluded, 5u);
  EXPECT_EQ(f.multiplier[0], 0.5);
  EXPECT_EQ(f.multiplier[1], 2.0);
  EXPECT_EQ(f.multiplier[2], 1.0);
  EXPECT_EQ(area_filter_of_numbers(4294967296.0, m, &f, &e), Status::InvalidArgument);
  EXPECT_EQ(e.message, "filter: excluded 4294967296 is not a 32-bit mask");
  const std::vector<double> many(kMaxAreas + 1, 1.0);
  EXPECT_EQ(area_filter_of_numbers(0, many, &f, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "filter");
}

// Entity ids cross as numbers of kind bits 0 that no other conversion takes, and back.
TEST(HostNumbers, EntityIdsHaveNumbersOfTheirOwn) {
  World w, other;
  EntityId ent, far;
  ASSERT_EQ(add_entity(w, Vec3{1.5, 2, 3.5}, &ent), Status::Ok);
  ASSERT_EQ(add_entity(other, Vec3{1.5, 2, 3.5}, &far), Status::Ok);
  double n = 0, fn = 0;
  ASSERT_TRUE(id_number(ent, &n));
  ASSERT_TRUE(id_number(far, &fn));
  EXPECT_EQ(id_number_kind(n), IdKind::None);
  EntityId back;
  CallError e;
  ASSERT_EQ(from_number(n, "entity", &back, &e, w.id_tag()), Status::Ok);
  EXPECT_EQ(back.index, ent.index);
  EXPECT_EQ(back.generation, ent.generation);
  Vec3 p;
  EXPECT_EQ(entity_position(w, back, &p), Status::Ok);
  EXPECT_EQ(p, (Vec3{1.5, 2, 3.5}));
  // Another World's entity, an agent id, a plain number: refused, naming the argument.
  EXPECT_EQ(from_number(fn, "target", &back, &e, w.id_tag()), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "target");
  EXPECT_NE(e.message.find("is an entity id of another World"), std::string::npos) << e.message;
  double an = 0;
  ASSERT_TRUE(id_number(AgentId{3, ent.generation}, &an));
  EXPECT_EQ(from_number(an, "entity", &back, &e), Status::InvalidArgument);
  EXPECT_NE(e.message.find("is an agent id, not an entity id"), std::string::npos) << e.message;
  for (const double bad : {0.0, 8.0, n + 4.0 * 2097152.0 * 1073741824.0, 1.5, -4.0}) {
    EXPECT_EQ(from_number(bad, "entity", &back, &e), Status::InvalidArgument) << bad;
  }
  // An entity number is no agent id, path handle or profile id.
  AgentId a;
  PathHandle h;
  ProfileId pid;
  EXPECT_EQ(from_number(n, "agent", &a, &e), Status::InvalidArgument);
  EXPECT_EQ(from_number(n, "path", &h, &e), Status::InvalidArgument);
  EXPECT_EQ(from_number(n, "profile", &pid, &e), Status::InvalidArgument);
  EXPECT_FALSE(id_number(EntityId{0, 0}, &n));
}

TEST(Tables, LimitsAndNamesAreTheHeadersConstants) {
  std::size_t found = 0;
  for (const NamedLimit& l : limits()) {
    const std::string name = l.name;
    const double want = name == "maxCellXZ"     ? kMaxCellXZ
                        : name == "maxAreas"    ? double(kMaxAreas)
                        : name == "noColumnTop" ? kNoColumnTop
                                                : l.value;
    EXPECT_EQ(l.value, want) << name;
    found += name == "maxCellXZ" || name == "maxAreas" || name == "noColumnTop";
  }
  EXPECT_EQ(found, 3u);
  for (const EnumNames& e : enum_names()) {
    if (std::strcmp(e.key, "status") != 0) continue;
    EXPECT_EQ(e.count, static_cast<int>(kLastStatus) + 1);
    for (int i = 0; i < e.count; ++i) EXPECT_STREQ(e.name(i), status_name(static_cast<Status>(i)));
  }
}

TEST(AnvilColumnsOffsets, RefusedWithNothingLoaded) {
  World w;
  LoadReport r;
  const std::vector<std::uint8_t> bytes(10, 0);
  const std::vector<std::uint32_t> short_offsets = {0, 4};
  EXPECT_EQ(load_anvil_columns(w, bytes, short_offsets, LoadOptions{}, &r),
            Status::InvalidArgument);
  EXPECT_EQ(r.message, "offsets must run from 0 to the length of the columns' bytes");
  const std::vector<std::uint32_t> back = {0, 6, 4, 10};
  EXPECT_EQ(load_anvil_columns(w, bytes, back, LoadOptions{}, &r), Status::InvalidArgument);
  EXPECT_EQ(r.message, "offsets must not decrease");
}

}  // namespace
}  // namespace voxnav
