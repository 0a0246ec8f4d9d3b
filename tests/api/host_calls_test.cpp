// The API's host calls the npm package's bindings stand on: results as flat numbers from one
// table per layout (voxnav/layouts.h), batches, requests and movement steps from numbers with
// messages naming the entry and field (voxnav/numbers.h), and the one-call JSON / vector forms
// (add_profile_json, set_block_traits_json, column_tops into vectors, state_hash's error and
// text). Checked against the World calls they stand for, on a small real world.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "voxnav/columns.h"
#include "voxnav/layouts.h"
#include "voxnav/numbers.h"
#include "voxnav/profile.h"
#include "voxnav/registry.h"
#include "voxnav/state_hash.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

constexpr std::uint16_t kStone = 1;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::span<const std::uint8_t> bytes(const char* s) {
  return {reinterpret_cast<const std::uint8_t*>(s), std::strlen(s)};
}

/// Air and stone; a stone floor (y = 0) over chunk (0, 0, 0) with a wall x = 8, z 0..11, y 1..3;
/// the default walker profile; navigation built.
struct Scene {
  World w;
  ProfileId walker;
  Scene() {
    std::string err;
    EXPECT_EQ(w.load_blocks_json(bytes(R"({"format": "voxnav-blocks", "version": 1, "blocks": [
        {"name": "air"}, {"name": "stone", "boxes": [[0, 0, 0, 1, 1, 1]]}]})"),
                                 &err),
              Status::Ok)
        << err;
    std::vector<std::uint16_t> v(kChunkValues, 0);
    for (int z = 0; z < 16; ++z)
      for (int x = 0; x < 16; ++x) v[std::size_t(x + 16 * z)] = kStone;
    for (int y = 1; y <= 3; ++y)
      for (int z = 0; z < 12; ++z) v[std::size_t(8 + 16 * (z + 16 * y))] = kStone;
    EXPECT_EQ(w.load_chunk(ChunkPos{0, 0, 0}, v), Status::Ok);
    EXPECT_EQ(w.add_profile(Profile{}, &walker), Status::Ok);
    w.update();
  }
};

std::size_t width(const char* key) {
  for (const ResultLayout& l : result_layouts())
    if (std::strcmp(l.key, key) == 0) {
      std::size_t n = 0;
      for (const LayoutField& f : l.fields) n += std::size_t(f.width);
      return n;
    }
  ADD_FAILURE() << "no layout " << key;
  return 0;
}

TEST(Layouts, EachWriterWritesItsTable) {
  EXPECT_EQ(result_layouts().size(), 15u);
  std::vector<double> out;
  append_numbers(Reach{ReachAnswer::No, ReachReason::None, 7}, &out);
  EXPECT_EQ(out, (std::vector<double>{double(ReachAnswer::No), 0, 7}));
  EXPECT_EQ(out.size(), width("reach"));
  out.clear();
  AgentState s;
  s.mode = AgentMode::Moving, s.feet = {1.5, 2, -3.25}, s.door = {4, 5, 6}, s.door_timeouts = 9;
  append_numbers(s, &out);
  ASSERT_EQ(out.size(), width("agentState"));
  EXPECT_EQ(out.size(), 22u);
  EXPECT_EQ(out[0], double(AgentMode::Moving));
  EXPECT_EQ((std::vector<double>(out.begin() + 1, out.begin() + 4)),
            (std::vector<double>{1.5, 2, -3.25}));
  EXPECT_EQ((std::vector<double>(out.begin() + 16, out.begin() + 19)),
            (std::vector<double>{4, 5, 6}));
  EXPECT_EQ(out[21], 9);
  out.clear();
  BlockDef d;
  d.boxes = {BlockBox{0, 0, 0, 1, 0.5f, 1}};
  d.traits.climbable = true;
  append_numbers(d, &out);  // traits (toggle -1: none), then the box
  EXPECT_EQ(out, (std::vector<double>{0, -1, 1, 0, 0, 0, 0, 0, 0, 1, 0.5, 1}));
  EXPECT_EQ(out.size(), width("blockTraits") + width("blockBox"));
  for (const char* key : {"pathStatus", "bodyParams", "stepResult", "worldStats", "loadReport"})
    EXPECT_GT(width(key), 0u) << key;
  out.clear();
  append_numbers(StepResult{}, &out);
  EXPECT_EQ(out.size(), width("stepResult"));
  out.clear();
  append_numbers(LoadReport{}, &out);
  EXPECT_EQ(out.size(), width("loadReport"));
}

TEST(Layouts, WorldReadsAsNumbersAreTheWorldCalls) {
  Scene sc;
  NavRequest q{.profile = sc.walker, .start = {2, 1, 2}, .goal = {13, 1, 2}};
  PathHandle h;
  ASSERT_EQ(sc.w.request(q, &h), Status::Ok);
  sc.w.update();
  sc.w.update();
  std::size_t n = 0;
  ASSERT_EQ(sc.w.corridor(h, nullptr, 0, &n), Status::Ok);
  std::vector<Waypoint> wp(n);
  ASSERT_EQ(sc.w.corridor(h, wp.data(), n, &n), Status::Ok);
  ASSERT_GE(n, 2u);
  std::vector<double> out;
  ASSERT_EQ(corridor_numbers(sc.w, h, &out), Status::Ok);
  ASSERT_EQ(out.size(), 7 * n);  // positions 3n, cells 3n, kinds n
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(out[3 * i], wp[i].position.x);
    EXPECT_EQ(out[3 * n + 3 * i + 2], wp[i].cell.z);
    EXPECT_EQ(out[6 * n + i], double(wp[i].kind));
  }
  EXPECT_EQ(out[3 * n + 3 * (n - 1)], 13);  // the goal cell ends it, round the wall
  std::vector<double> cells;
  ASSERT_EQ(path_cell_numbers(sc.w, h, &cells), Status::Ok);
  PathStatus ps;
  ASSERT_EQ(sc.w.status(h, &ps), Status::Ok);
  EXPECT_EQ(cells.size(), 4 * std::size_t(ps.cell_count));
  ASSERT_EQ(sc.w.release(h), Status::Ok);
  EXPECT_EQ(corridor_numbers(sc.w, h, &out), Status::StaleHandle);
  EXPECT_TRUE(out.empty());

  AgentId a[2];
  ASSERT_EQ(sc.w.add_agent(AgentDef{sc.walker, Vec3{2.5, 1, 2.5}}, &a[0]), Status::Ok);
  ASSERT_EQ(sc.w.add_agent(AgentDef{sc.walker, Vec3{3.5, 1, 5.5}}, &a[1]), Status::Ok);
  ASSERT_EQ(agent_snapshot_numbers(sc.w, a, &out), Status::Ok);
  double id1 = 0;
  ASSERT_TRUE(id_number(a[1], &id1));
  ASSERT_EQ(out.size(), 2 + 2 * 9u);  // ids, then positions, velocities, modes, ground, epochs
  EXPECT_EQ(out[1], id1);
  EXPECT_EQ((std::vector<double>(out.begin() + 5, out.begin() + 8)),
            (std::vector<double>{3.5, 1, 5.5}));
  ASSERT_EQ(sc.w.set_agent_goals(std::vector<AgentGoal>{{a[0], CellPos{13, 1, 2}}}), Status::Ok);
  for (int t = 0; t < 3; ++t) ASSERT_EQ(sc.w.tick(0.05), Status::Ok);
  AgentState st;
  ASSERT_EQ(sc.w.agent_state(a[0], &st), Status::Ok);
  ASSERT_EQ(corridor_numbers(sc.w, a[0], &out), Status::Ok);
  ASSERT_EQ(out.size() % 7, 1u);
  EXPECT_EQ(out.back(), st.corridor_epoch);
  EXPECT_GT(out.size(), 1u);
  ASSERT_EQ(sc.w.remove_agent(a[1]), Status::Ok);
  EXPECT_EQ(agent_snapshot_numbers(sc.w, a, &out), Status::StaleHandle);
  EXPECT_TRUE(out.empty());
  ASSERT_EQ(take_door_event_numbers(sc.w, &out), Status::Ok);
  EXPECT_TRUE(out.empty());  // no door in this world
}

TEST(HostBatches, EntriesNamedByListIndexAndField) {
  Scene sc;
  const std::uint32_t tag = sc.w.id_tag();
  double walker = 0;
  ASSERT_TRUE(id_number(sc.walker, &walker));
  std::vector<AgentDef> defs;
  CallError e;
  const std::vector<double> profiles = {walker, walker}, feet = {2.5, 1, 2.5, 3.5, 1, 3.5};
  ASSERT_EQ(agent_defs_of_numbers(profiles, feet, std::vector<double>{0, 0, 0, 0, 1, 13, 1, 2},
                                  "agents", tag, &defs, &e),
            Status::Ok);
  ASSERT_EQ(defs.size(), 2u);
  EXPECT_FALSE(defs[0].goal.has_value());
  EXPECT_EQ(defs[1].goal, (CellPos{13, 1, 2}));
  EXPECT_EQ(defs[1].feet.z, 3.5);
  EXPECT_EQ(agent_defs_of_numbers(profiles, feet, std::vector<double>{1, kNaN, 1, 1, 1, 13, 1, 2},
                                  "agents", tag, &defs, &e),
            Status::InvalidArgument)
      << "a NaN in a given goal is refused, not read as no goal";
  EXPECT_EQ(e.argument, "agents[0].goal");
  EXPECT_EQ(agent_defs_of_numbers(profiles, feet, std::vector<double>{0, 0, 0, 0, 1, 13, 1.5, 2},
                                  "agents", tag, &defs, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.argument, "agents[1].goal");
  EXPECT_EQ(e.message, "agents[1].goal (13, 1.5, 2) is not a cell (integers expected)");
  EXPECT_EQ(defs.size(), 2u) << "out is written only when every entry converts";
  EXPECT_EQ(agent_defs_of_numbers(std::vector<double>{1.5}, std::vector<double>{0, 0, 0},
                                  std::vector<double>{0, 0, 0, 0}, "", tag, &defs, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.message, "profile 1.5 is not a profile id");  // a batch of one: the field alone
  EXPECT_EQ(
      agent_defs_of_numbers(profiles, std::vector<double>{1, 2, 3}, feet, "agents", tag, &defs, &e),
      Status::InvalidArgument);
  EXPECT_EQ(e.argument, "agents");
  EXPECT_EQ(e.message, "agents: 2 entries need 6 numbers of 3 per entry, an array has 3");

  std::vector<BlockEdit> edits;
  ASSERT_EQ(block_edits_of_numbers(std::vector<double>{1, 1, 1, 1, 1, 1, 0, 1, 0, 3, 2, 3},
                                   std::vector<double>{1, 0}, std::vector<std::uint8_t>{1, 0},
                                   "edits", &edits, &e),
            Status::Ok);
  ASSERT_EQ(edits.size(), 2u);
  EXPECT_TRUE(edits[0].cell);
  EXPECT_EQ(edits[1].max, (CellPos{3, 2, 3}));
  EXPECT_EQ(block_edits_of_numbers(std::vector<double>{1, 1, 1, 1, 1, 1, 0, 1, 0, 3, 2, 3},
                                   std::vector<double>{1, 2.5}, std::vector<std::uint8_t>{1, 0},
                                   "edits", &edits, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.message, "edits[1].value 2.5 is not an integer block value");
  ASSERT_EQ(sc.w.set_blocks(edits, "edits"), Status::Ok);  // the converted batch applies

  std::vector<AgentGoal> goals;
  EXPECT_EQ(agent_goals_of_numbers(std::vector<double>{walker}, std::vector<double>{1, 1, 1},
                                   "goals", tag, &goals, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.message,
            "goals[0].agent " + number_text(walker) + " is a profile id, not an agent id");
  std::vector<AgentMove> moves;
  EXPECT_EQ(agent_moves_of_numbers(std::vector<double>{}, std::vector<double>{}, "agents", tag,
                                   &moves, &e),
            Status::Ok);
  EXPECT_TRUE(moves.empty());
  std::vector<ChunkPos> chunks;
  ASSERT_EQ(chunk_positions_of_numbers(std::vector<std::int32_t>{1, -2, 3}, &chunks, &e),
            Status::Ok);
  EXPECT_EQ(chunks.size(), 1u);
  EXPECT_EQ(chunks[0].y, -2);
  EXPECT_EQ(chunk_positions_of_numbers(std::vector<std::int32_t>{1, 2, 3, 4}, &chunks, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.message, "positions has 4 entries, not a multiple of 3 (x, y, z per chunk)");
}

TEST(HostNumbers, RequestsStepsValuesAndIdNumbers) {
  Scene sc;
  double walker = 0;
  ASSERT_TRUE(id_number(sc.walker, &walker));
  NavRequest q;
  CallError e;
  const std::vector<double> start = {2, 1, 2}, goal = {13, 1, 2};
  ASSERT_EQ(request_of_numbers(walker, start, goal, 3, true, 0, {}, sc.w.id_tag(), &q, &e),
            Status::Ok);
  EXPECT_EQ(q.goal, (CellPos{13, 1, 2}));
  EXPECT_EQ(q.goal_range, 3);
  EXPECT_TRUE(q.toward);
  PathResult r;
  ASSERT_EQ(sc.w.find_path_now(q, &r), Status::Ok);
  EXPECT_EQ(r.status.state, PathState::Ready);
  EXPECT_EQ(request_of_numbers(walker, std::vector<double>{2, 1}, goal, 0, false, 0, {}, 0, &q, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.argument, "start");
  EXPECT_EQ(e.message, "start must be 3 numbers [x, y, z] (got 2)");
  EXPECT_EQ(request_of_numbers(walker, start, goal, 0.5, false, 0, {}, 0, &q, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.message, "range 0.5 is not an integer");

  std::vector<double> packed(26, 0.0);
  packed[0] = 2.5, packed[1] = 1, packed[2] = 2.5, packed[11] = 4;  // feet, move x 4 m/s
  const double body[] = {0.6, 1.8, 0.6, 32, 8.94427190999915878564, 78.4, 0};
  std::copy(std::begin(body), std::end(body), packed.begin() + 19);
  StepResult step;
  BodyInput in;
  BodyParams p;
  ASSERT_EQ(body_step_of_numbers(packed, &step.state, &in, &p, &e), Status::Ok);
  EXPECT_EQ(in.move_x, 4);
  EXPECT_EQ(p.height, 1.8);
  ASSERT_EQ(step_body(sc.w, step.state, in, p, 0.05, &step.report, &e), Status::Ok) << e.message;
  EXPECT_NEAR(step.state.feet.x, 2.7, 1e-9);  // 4 m/s for 0.05 s
  packed[10] = 9;                             // no BodyMode
  ASSERT_EQ(body_step_of_numbers(packed, &step.state, &in, &p, &e), Status::Ok);
  EXPECT_EQ(step_body(sc.w, step.state, in, p, 0.05, &step.report, &e), Status::InvalidArgument);
  EXPECT_EQ(body_step_of_numbers(std::vector<double>(25), &step.state, &in, &p, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.message, "a movement step takes 26 numbers, not 25");

  std::uint16_t v = 0;
  ASSERT_EQ(block_value_of_number(1, "value", sc.w.block_count(), &v, &e), Status::Ok);
  EXPECT_EQ(v, kStone);
  EXPECT_EQ(block_value_of_number(70000, "value", sc.w.block_count(), &v, &e), Status::OutOfRange);
  EXPECT_EQ(e.message, "value 70000 is not in the block registry (values 0 .. 1)");
  EXPECT_EQ(block_value_of_number(2, "value", sc.w.block_count(), &v, &e), Status::OutOfRange)
      << "a value past the registry is refused here, as the header says";
  EXPECT_EQ(e.argument, "value");
  EXPECT_EQ(e.message, "value 2 is not in the block registry (values 0 .. 1)");
  EXPECT_EQ(block_value_of_number(-1.5, "value", 2, &v, &e), Status::InvalidArgument);

  std::vector<double> ids = {7};
  const AgentId ok{3, 1 | (sc.w.id_tag() << kIdTagShift)}, too_many{1u << 21, 1};
  ASSERT_EQ(id_numbers(std::vector<AgentId>{ok}, &ids, &e), Status::Ok);
  double want = 0;
  ASSERT_TRUE(id_number(ok, &want));
  EXPECT_EQ(ids, (std::vector<double>{7, want}));
  EXPECT_EQ(id_numbers(std::vector<AgentId>{ok, too_many}, &ids, &e), Status::Unsupported);
  EXPECT_EQ(e.message, "more than 2097152 agents");
  EXPECT_EQ(ids.size(), 2u);
  double hn = 0;
  EXPECT_EQ(id_number(PathHandle{1u << 19, 1}, &hn, &e), Status::Unsupported);
  EXPECT_EQ(e.message, "more than 524288 requests of one class are held; release some");
}

TEST(HostCalls, JsonVectorsAndHashText) {
  Scene sc;
  ProfileId id;
  std::string warn = "stale";
  CallError e;
  ASSERT_EQ(add_profile_json(sc.w, R"({"id": "guard"})", "", &id, &warn, &e), Status::Ok);
  EXPECT_EQ(warn, "");
  ProfileId found;
  ASSERT_EQ(sc.w.find_profile("guard", &found), Status::Ok);
  EXPECT_EQ(found.index, id.index);
  EXPECT_NE(add_profile_json(sc.w, R"({"id": "boar", "body": 3})", "boar.json", &id, &warn, &e),
            Status::Ok);
  EXPECT_EQ(e.argument, "profile");
  EXPECT_NE(e.message.find("boar.json"), std::string::npos) << e.message;
  EXPECT_EQ(sc.w.find_profile("boar", &found), Status::NotFound);
  EXPECT_EQ(add_profile_json(sc.w, R"({"id": "guard"})", "", &id, &warn, &e),
            Status::InvalidArgument);  // the World's refusal: the id is taken
  EXPECT_EQ(e.function, "add_profile");

  ASSERT_EQ(set_block_traits_json(sc.w, kStone, R"({"slow": true})", &e), Status::Ok);
  BlockDef d;
  ASSERT_EQ(sc.w.block_def(kStone, &d), Status::Ok);
  EXPECT_TRUE(d.traits.slow);
  EXPECT_EQ(set_block_traits_json(sc.w, kStone, R"({"slow": 2})", &e), Status::BadFormat);
  EXPECT_EQ(e.argument, "traits");
  ASSERT_EQ(sc.w.block_def(kStone, &d), Status::Ok);
  EXPECT_TRUE(d.traits.slow) << "unchanged";
  EXPECT_EQ(set_block_traits_json(sc.w, 9, "{}", &e), Status::OutOfRange);

  std::vector<std::int32_t> heights = {-5};
  std::vector<std::uint16_t> values;
  ASSERT_EQ(column_tops(sc.w, CellPos{0, 0, 0}, CellPos{15, 15, 15}, &heights, &values, &e),
            Status::Ok);
  ASSERT_EQ(heights.size(), 256u);
  EXPECT_EQ(heights[0], 0);  // the floor
  EXPECT_EQ(heights[8], 3);  // the wall's top
  EXPECT_EQ(heights[8 + 16 * 12], 0);
  EXPECT_EQ(values[8], kStone);
  EXPECT_EQ(column_tops(sc.w, CellPos{0, 0, 0}, CellPos{5000, 0, 5000}, &heights, &values, &e),
            Status::InvalidArgument);
  EXPECT_EQ(e.argument, "max");
  EXPECT_EQ(heights.size(), 256u) << "unchanged on error";

  EXPECT_EQ(state_hash_text(kStateHashBasis), "cbf29ce484222325");
  AgentId a;
  ASSERT_EQ(sc.w.add_agent(AgentDef{sc.walker, Vec3{2.5, 1, 2.5}}, &a), Status::Ok);
  std::uint64_t h = 0;
  ASSERT_EQ(state_hash(sc.w, std::vector<AgentId>{a}, &h, &e), Status::Ok);
  EXPECT_NE(h, kStateHashBasis);
  ASSERT_EQ(sc.w.remove_agent(a), Status::Ok);
  EXPECT_EQ(state_hash(sc.w, std::vector<AgentId>{a}, &h, &e), Status::StaleHandle);
  EXPECT_EQ(e.message, "agents[0] is not a live agent of this world");
}

}  // namespace
}  // namespace voxnav
