// Saved navigation (voxnav/save.h) on a generated world with every kind of cell (terrain, slabs,
// ladders, doors, lava, water; a walker and a swimmer class): an import is the build plane for
// plane and label for label and answers the same routes; every damaged file (cut anywhere, any
// single bit flipped anywhere, another version, another registry, forged sections) is refused by
// name with the World unchanged, and the World then still builds its own navigation.
#include "engine/save/nav_save.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "save_checks.h"
#include "splitmix.h"
#include "voxnav/save.h"
#include "voxnav/version.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

enum : std::uint16_t {
  kAir,
  kStone,
  kSlab,
  kLadder,
  kLava,
  kWater,
  kDoorClosed,
  kDoorOpen,
  kCount
};

BlockRegistryDef registry(bool extra = false) {
  BlockRegistryDef d;
  d.add("air");
  d.add("stone", {BlockBox{}});
  d.add("slab", {BlockBox{0, 0, 0, 1, 0.5f, 1}});
  BlockTraits ladder;
  ladder.climbable = true;
  d.add("ladder", {BlockBox{0, 0, 0.8125f, 1, 1, 1}}, ladder);
  BlockTraits lava;
  lava.hazard = BlockHazard::Fire;
  lava.fluid = BlockFluid::Harmful;
  d.add("lava", {}, lava);
  BlockTraits water;
  water.fluid = BlockFluid::Swimmable;
  d.add("water", {}, water);
  BlockTraits closed;
  closed.door = BlockDoor::Closed;
  closed.door_toggle_name = "door_open";
  d.add("door_closed", {BlockBox{0, 0, 0, 1, 1, 0.1875f}}, closed);
  BlockTraits open;
  open.door = BlockDoor::Open;
  open.door_toggle_name = "door_closed";
  d.add("door_open", {BlockBox{0, 0, 0, 0.1875f, 1, 1}}, open);
  if (extra) d.add("glass", {BlockBox{}});
  return d;
}

constexpr int kChunksXZ = 3;  // chunks -1..1 in x and z, 0..1 in y

/// The blocks of chunk (cx, cy, cz), seeded: hills of stone with slabs on top, ladders up their
/// sides, door frames, a lava pit and a water pool deep enough to swim in.
std::vector<std::uint16_t> chunk_values(int cx, int cy, int cz) {
  std::vector<std::uint16_t> v(detail::kChunkCells, kAir);
  for (int lz = 0; lz < 16; ++lz)
    for (int lx = 0; lx < 16; ++lx) {
      const int x = cx * 16 + lx, z = cz * 16 + lz;
      tools::SplitMix64 col(static_cast<std::uint64_t>((x + 100) * 1000 + (z + 100)));
      const int h = 3 + static_cast<int>((((x >> 2) * 7 + (z >> 2) * 13) & 7)) +
                    static_cast<int>(col.below<std::uint64_t>(2));
      const bool pool = x >= 4 && x < 12 && z >= -12 && z < -4;
      const bool pit = x >= -12 && x < -9 && z >= 6 && z < 9;
      for (int ly = 0; ly < 16; ++ly) {
        const int y = cy * 16 + ly;
        std::uint16_t b = kAir;
        if (pool) {
          b = y < 2 ? kStone : (y < 6 ? kWater : kAir);
        } else if (pit) {
          b = y < 2 ? kStone : (y == 2 ? kLava : kAir);
        } else if (y < h) {
          b = kStone;
        } else if (y == h && col.below<std::uint64_t>(5) == 0) {
          b = kSlab;
        } else if (y > h && y < h + 4 && (x & 7) == 3 && (z & 7) == 2) {
          b = kLadder;  // a ladder column beside the hills
        } else if (y == h + 1 && (x & 15) == 9 && (z & 3) == 1) {
          b = (z & 4) ? kDoorClosed : kDoorOpen;
        }
        v[static_cast<std::size_t>(lx + 16 * (lz + 16 * ly))] = b;
      }
    }
  return v;
}

/// A World with the registry and the generated blocks (navigation not built).
std::unique_ptr<World> make_world(bool extra_block = false, bool load = true) {
  auto w = std::make_unique<World>();
  std::string err;
  EXPECT_EQ(w->define_blocks(registry(extra_block), &err), Status::Ok) << err;
  if (!load) return w;
  for (int cy = 0; cy <= 1; ++cy)
    for (int cz = -1; cz < kChunksXZ - 1; ++cz)
      for (int cx = -1; cx < kChunksXZ - 1; ++cx)
        EXPECT_EQ(w->load_chunk({cx, cy, cz}, chunk_values(cx, cy, cz)), Status::Ok);
  return w;
}

Profile fish() {
  Profile p;
  p.id = "fish";
  p.movement_class = MovementClass::Swimmer;
  p.width = 0.98;
  p.height = 0.98;
  p.can_swim = true;
  p.swim_speed = 2;
  p.step_height = 0;
  p.jump_apex = 0;
  p.max_drop = 0;
  return p;
}

/// The built World (walker and swimmer navigation) and its export.
struct Built {
  std::unique_ptr<World> world;
  ProfileId walker, swimmer;
  std::vector<std::uint8_t> bytes;
};
Built build(bool with_blocks = false) {
  Built b;
  b.world = make_world();
  b.world->update();
  std::string err;
  EXPECT_EQ(b.world->add_profile(Profile{}, &b.walker, &err), Status::Ok) << err;
  EXPECT_EQ(b.world->add_profile(fish(), &b.swimmer, &err), Status::Ok) << err;
  ExportDef def;
  def.include_blocks = with_blocks;
  CallError e;
  EXPECT_EQ(export_navigation(*b.world, def, &b.bytes, &e), Status::Ok) << e.message;
  return b;
}

/// The fallback after a refused import: build as the exporter did (update, then the profiles).
void rebuild_as_exporter(World& w) {
  w.update();
  ProfileId a, b;
  ASSERT_EQ(w.add_profile(Profile{}, &a), Status::Ok);
  ASSERT_EQ(w.add_profile(fish(), &b), Status::Ok);
}

/// Imports `bytes` into `w` expecting `want` and a message containing `says`; the World must be
/// unchanged.
void expect_refused(World& w, const std::vector<std::uint8_t>& bytes, Status want,
                    const std::string& says, const std::string& what) {
  const test::WorldSnapshot before = test::snapshot(w);
  CallError e;
  EXPECT_EQ(import_navigation(w, bytes, nullptr, &e), want) << what << ": " << e.message;
  EXPECT_NE(e.message.find(says), std::string::npos) << what << ": " << e.message;
  EXPECT_EQ(e.function, "import_navigation");
  EXPECT_TRUE(test::snapshot(w) == before) << what;
}

/// Rewrites the trailing CRC-32 so that a forged change passes the checksum.
void reseal(std::vector<std::uint8_t>& b) {
  const std::uint32_t c = detail::crc32(std::span<const std::uint8_t>(b.data(), b.size() - 4));
  std::memcpy(b.data() + b.size() - 4, &c, 4);
}

TEST(NavSave, Crc32AndRunsAreRight) {
  // The CRC-32 check value of "123456789" (IEEE 802.3), byte-wise and through the 8-byte path.
  const std::string s = "123456789";
  EXPECT_EQ(detail::crc32({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}),
            0xCBF43926u);
  std::vector<std::uint8_t> ones(100, 0xFF);
  std::uint32_t slow = 0xFFFFFFFFu;  // the bit-at-a-time definition
  for (std::uint8_t byte : ones) {
    slow ^= byte;
    for (int k = 0; k < 8; ++k) slow = (slow & 1) ? 0xEDB88320u ^ (slow >> 1) : slow >> 1;
  }
  EXPECT_EQ(detail::crc32(ones), ~slow);
  // Runs: random bytes with long runs round trip; a truncated or overlong encoding is refused.
  tools::SplitMix64 rng(7);
  std::vector<std::uint8_t> data(5000);
  for (std::size_t i = 0; i < data.size();) {
    const std::size_t run = 1 + rng.below<std::size_t>(rng.below<std::size_t>(2) ? 3 : 300);
    const auto v = static_cast<std::uint8_t>(rng.below<unsigned>(4));
    for (std::size_t k = 0; k < run && i < data.size(); ++k, ++i)
      data[i] = rng.below<unsigned>(3) ? v : static_cast<std::uint8_t>(rng.next());
  }
  std::vector<std::uint8_t> enc;
  detail::rle_encode(data.data(), data.size(), enc);
  EXPECT_LT(enc.size(), data.size());
  std::vector<std::uint8_t> dec(data.size());
  ASSERT_TRUE(detail::rle_decode(enc, dec.data(), dec.size()));
  EXPECT_EQ(dec, data);
  EXPECT_FALSE(detail::rle_decode({enc.data(), enc.size() - 1}, dec.data(), dec.size()));
  EXPECT_FALSE(detail::rle_decode(enc, dec.data(), dec.size() - 1));
  EXPECT_FALSE(detail::rle_decode(enc, dec.data(), dec.size() + 1));
}

TEST(NavSave, AnImportIsTheBuild) {
  Built b = build();
  ASSERT_FALSE(b.bytes.empty());
  std::unique_ptr<World> w = make_world();
  ImportReport rep;
  CallError e;
  ASSERT_EQ(import_navigation(*w, b.bytes, &rep, &e), Status::Ok) << e.message;
  EXPECT_EQ(rep.chunks, 18u);
  EXPECT_EQ(rep.classes, 2u);  // walker and swimmer
  EXPECT_FALSE(rep.blocks);
  ProfileId walker, swimmer;
  std::string err;
  ASSERT_EQ(w->add_profile(Profile{}, &walker, &err), Status::Ok) << err;
  ASSERT_EQ(w->add_profile(fish(), &swimmer, &err), Status::Ok) << err;
  // The world has what every plane distinguishes (else the comparison proves little).
  const detail::WorldState& st = detail::WorldAccess::state(*w);
  int vmoves = 0, gaps = 0, gates = 0;
  for (const detail::NavChunk* ch : st.walker()->grid().ordered_chunks()) {
    vmoves += ch->vmoves != nullptr;
    gaps += bool(ch->gaps);
  }
  for (std::uint8_t g :
       {detail::kGateDoorOpen, detail::kGateDoorClosed, detail::kGateClimb, detail::kGateFire})
    gates += (detail::WorldAccess::state(*w).walker()->islands().gates_present() & g) != 0;
  EXPECT_GT(vmoves, 0);
  EXPECT_GT(gaps, 0);
  EXPECT_EQ(gates, 4) << "doors open and closed, ladders and lava";
  EXPECT_GT(st.nav_of(MovementClass::Swimmer)->islands().cell_count(), 100u);
  test::expect_same_navigation(*b.world, *w);
  EXPECT_GT(test::expect_same_routes(*b.world, b.walker, *w, walker, 300, 11), 30u);
  // The imported World exports the very bytes it was given.
  std::vector<std::uint8_t> again;
  ASSERT_EQ(export_navigation(*w, ExportDef{}, &again, &e), Status::Ok) << e.message;
  EXPECT_TRUE(again == b.bytes);
  // Edits after the import are maintained as after the build: the same planes and labels.
  for (World* x : {b.world.get(), w.get()}) {
    ASSERT_EQ(x->set_box({2, 3, 2}, {9, 9, 3}, kStone), Status::Ok);
    ASSERT_EQ(x->set_block({-5, 8, 5}, kAir), Status::Ok);
    (void)x->set_door_open({9, 5, 1}, true);  // a door when the terrain put one there
    x->update();
  }
  test::expect_same_navigation(*b.world, *w);
  test::expect_same_routes(*b.world, b.walker, *w, walker, 100, 12);
}

TEST(NavSave, StreamingContinuesAfterAnImport) {
  // With chunk streaming on, the imported World streams later loads exactly as the built one.
  std::unique_ptr<World> a = make_world();
  a->set_chunk_streaming(true);
  a->update();
  std::vector<std::uint8_t> bytes;
  CallError e;
  ASSERT_EQ(export_navigation(*a, ExportDef{}, &bytes, &e), Status::Ok) << e.message;
  std::unique_ptr<World> b = make_world();
  b->set_chunk_streaming(true);
  ASSERT_EQ(import_navigation(*b, bytes, nullptr, &e), Status::Ok) << e.message;
  test::expect_same_navigation(*a, *b);
  std::vector<std::uint16_t> v = chunk_values(0, 1, 0);
  for (int i = 0; i < 600; ++i) v[static_cast<std::size_t>(i * 5)] = kStone;
  for (World* w : {a.get(), b.get()}) {
    ASSERT_EQ(w->unload_chunk({0, 1, 0}), Status::Ok);
    w->update();
    ASSERT_EQ(w->load_chunk({0, 1, 0}, v), Status::Ok);
    ASSERT_EQ(w->set_block({-7, 6, -7}, kStone), Status::Ok);
    for (int t = 0; t < 4; ++t) w->update();
    EXPECT_EQ(w->pending_chunk_builds(), 0u);
    EXPECT_EQ(detail::WorldAccess::state(*w).walker()->stats().builds_installed, 1u)
        << "the reload was streamed";
  }
  test::expect_same_navigation(*a, *b);
}

TEST(NavSave, AFileWithItsBlocksRestoresAnEmptyWorld) {
  Built b = build(/*with_blocks=*/true);
  Built plain = build(false);
  EXPECT_GT(b.bytes.size(), plain.bytes.size());
  std::unique_ptr<World> w = make_world(false, /*load=*/false);
  ImportReport rep;
  CallError e;
  ASSERT_EQ(import_navigation(*w, b.bytes, &rep, &e), Status::Ok) << e.message;
  EXPECT_TRUE(rep.blocks);
  for (CellPos c : {CellPos{0, 0, 0}, CellPos{5, 4, -7}, CellPos{-11, 2, 7}, CellPos{9, 5, 1}}) {
    std::uint16_t va = 0, vb = 0;
    ASSERT_EQ(b.world->get_block(c, &va), Status::Ok);
    ASSERT_EQ(w->get_block(c, &vb), Status::Ok);
    EXPECT_EQ(va, vb) << test::str(c);
  }
  test::expect_same_navigation(*b.world, *w);
  w->update();  // the loads the import made are not built again
  test::expect_same_navigation(*b.world, *w);
  // A World that holds chunks already is refused (the file would replace them).
  std::unique_ptr<World> full = make_world();
  expect_refused(*full, b.bytes, Status::InvalidArgument, "without chunks",
                 "blocks into a loaded World");
}

TEST(NavSave, EveryCutIsRefusedByName) {
  const Built b = build();
  std::unique_ptr<World> w = make_world();
  const std::size_t n = b.bytes.size();
  // Cuts in the header, the section table, the payloads and the checksum.
  for (std::size_t len : {std::size_t{0}, std::size_t{7}, std::size_t{40}, std::size_t{67},
                          std::size_t{64 + 40 * 3 + 5}, n / 3, n / 2, n - 5, n - 1}) {
    std::vector<std::uint8_t> cut(b.bytes.begin(), b.bytes.begin() + static_cast<long>(len));
    expect_refused(*w, cut, Status::BadFormat, "truncated at byte " + std::to_string(len),
                   "cut at " + std::to_string(len));
  }
  // Bytes added after the end are refused too.
  std::vector<std::uint8_t> longer = b.bytes;
  longer.push_back(0);
  expect_refused(*w, longer, Status::BadFormat, "1 bytes after the end", "one byte more");
  // The World still builds its own navigation, the same as the exporter's.
  rebuild_as_exporter(*w);
  test::expect_same_navigation(*b.world, *w);
}

TEST(NavSave, EverySingleFlippedBitIsRefused) {
  const Built b = build();
  std::unique_ptr<World> w = make_world();
  const test::WorldSnapshot before = test::snapshot(*w);
  const std::size_t n = b.bytes.size();
  std::vector<std::uint8_t> bad = b.bytes;
  std::size_t refused = 0, by_checksum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto bit = static_cast<std::uint8_t>(1u << (i % 8));
    bad[i] ^= bit;
    CallError e;
    const Status st = import_navigation(*w, bad, nullptr, &e);
    bad[i] ^= bit;
    ASSERT_NE(st, Status::Ok) << "byte " << i << " flipped was accepted";
    ++refused;
    // Fields read before the checksum say what they are; everything else is the checksum.
    const bool named = e.message.find("checksum mismatch") != std::string::npos ||
                       e.message.find("bad magic") != std::string::npos ||
                       e.message.find("version") != std::string::npos ||
                       e.message.find("header size") != std::string::npos ||
                       e.message.find("truncated at byte") != std::string::npos ||
                       e.message.find("bytes after the end") != std::string::npos;
    ASSERT_TRUE(named) << "byte " << i << ": " << e.message;
    by_checksum += e.message.find("checksum mismatch") != std::string::npos;
    if (i < 8) {
      EXPECT_NE(e.message.find("bad magic"), std::string::npos) << i;
    }
    if (i >= 8 && i < 12) {
      EXPECT_EQ(st, Status::Unsupported) << i;
    }
    if (i >= 24) {
      EXPECT_NE(e.message.find("checksum mismatch"), std::string::npos) << i;
    }
  }
  EXPECT_EQ(refused, n);
  EXPECT_EQ(by_checksum, n - 24);
  EXPECT_TRUE(test::snapshot(*w) == before);
}

TEST(NavSave, AnotherVersionIsRefused) {
  const Built b = build();
  std::unique_ptr<World> w = make_world();
  for (std::uint32_t v : {0u, 2u, 3u, 0xFFFFFFFFu}) {
    std::vector<std::uint8_t> bad = b.bytes;
    std::memcpy(bad.data() + 8, &v, 4);
    reseal(bad);  // a well-formed file of that version, not a damaged one
    expect_refused(*w, bad, Status::Unsupported, "version " + std::to_string(v) + ", expected 1",
                   "version " + std::to_string(v));
  }
}

TEST(NavSave, AnotherLibraryReleaseIsRefused) {
  const Built b = build();
  NavigationInfo info;
  ASSERT_EQ(navigation_info(b.bytes, &info), Status::Ok);
  EXPECT_EQ(info.version, kNavigationFormatVersion);
  EXPECT_EQ(info.library_version, static_cast<std::uint32_t>(VOXNAV_VERSION));
  EXPECT_EQ(info.chunks, 18u);
  EXPECT_EQ(info.classes, 2u);
  EXPECT_FALSE(info.blocks);
  std::unique_ptr<World> w = make_world();
  std::vector<std::uint8_t> bad = b.bytes;
  const std::uint32_t other = 10203;  // 1.2.3
  std::memcpy(bad.data() + 48, &other, 4);
  reseal(bad);
  expect_refused(*w, bad, Status::Unsupported, "made by voxnav 1.2.3, this is voxnav ",
                 "another release");
  CallError e;
  EXPECT_EQ(navigation_info(bad, &info, &e), Status::Unsupported);
  EXPECT_EQ(info.library_version, other);
}

TEST(NavSave, AFileForOtherBlocksIsRefused) {
  const Built b = build();
  // Another registry (one block more): refused before anything is read.
  std::unique_ptr<World> other = make_world(/*extra_block=*/true);
  expect_refused(*other, b.bytes, Status::InvalidArgument, "another block registry",
                 "other registry");
  // The same registry, one block changed in one chunk.
  std::unique_ptr<World> edited = make_world();
  ASSERT_EQ(edited->set_block({20, 20, 20}, kStone), Status::Ok);
  expect_refused(*edited, b.bytes, Status::InvalidArgument,
                 "chunk 1,1,1: the World's blocks differ", "one block changed");
  // A chunk fewer.
  std::unique_ptr<World> fewer = make_world();
  ASSERT_EQ(fewer->unload_chunk({0, 1, 0}), Status::Ok);
  expect_refused(*fewer, b.bytes, Status::InvalidArgument,
                 "17 chunks loaded, the file describes 18", "a chunk fewer");
  // A World with agents.
  std::unique_ptr<World> busy = make_world();
  busy->update();
  ProfileId pid;
  ASSERT_EQ(busy->add_profile(Profile{}, &pid), Status::Ok);
  const std::vector<CellPos> cells =
      test::standable_cells(detail::WorldAccess::state(*busy).walker()->grid());
  ASSERT_FALSE(cells.empty());
  AgentId id;
  ASSERT_EQ(busy->add_agent(
                AgentDef{pid, Vec3{cells[0].x + 0.5, double(cells[0].y), cells[0].z + 0.5}}, &id),
            Status::Ok);
  expect_refused(*busy, b.bytes, Status::Busy, "live agents", "agents");
}

TEST(NavSave, ForgedSectionsAreRefusedByName) {
  const Built b = build();
  std::unique_ptr<World> w = make_world();
  auto entry = [&](std::vector<std::uint8_t>& f, std::size_t k) {
    return f.data() + detail::kNavSaveHeaderBytes + k * detail::kNavSaveSectionBytes;
  };
  auto pos_of = [&](std::vector<std::uint8_t>& f, std::size_t k) {
    std::int32_t p[3];
    std::memcpy(p, entry(f, k) + 8, 12);
    return std::to_string(p[0]) + "," + std::to_string(p[1]) + "," + std::to_string(p[2]);
  };
  {  // A blocks section pointing past the end.
    std::vector<std::uint8_t> f = b.bytes;
    const std::uint64_t off = f.size() + 100;
    std::memcpy(entry(f, 4) + 24, &off, 8);
    reseal(f);
    expect_refused(*w, f, Status::BadFormat, "section 'chunk " + pos_of(f, 4) + "' out of bounds",
                   "offset past the end");
  }
  {  // A nav section whose length runs into the checksum.
    std::vector<std::uint8_t> f = b.bytes;
    const std::size_t k = 18 + 1 + 3;  // after the 18 blocks sections and the walker's class
    std::uint64_t off;
    std::memcpy(&off, entry(f, k) + 24, 8);
    const std::uint64_t len = f.size() - off;
    std::memcpy(entry(f, k) + 32, &len, 8);
    reseal(f);
    expect_refused(*w, f, Status::BadFormat,
                   "section 'walker chunk " + pos_of(f, k) + "' out of bounds", "length");
  }
  {  // A section table longer than the file.
    std::vector<std::uint8_t> f = b.bytes;
    const std::uint32_t sections = 1u << 30;
    std::memcpy(f.data() + 32, &sections, 4);
    reseal(f);
    expect_refused(*w, f, Status::BadFormat, "section table", "table");
  }
  {  // A nav payload byte changed (a kind that does not exist).
    std::vector<std::uint8_t> f = b.bytes;
    std::size_t k = 18 + 1;
    std::uint64_t off = 0;
    for (;; ++k) {  // the first non-uniform walker chunk: its first plane's first run
      std::memcpy(&off, entry(f, k) + 24, 8);
      if (f[off] == 0) break;
    }
    const std::uint8_t* plane = f.data() + off + 16 + 4;  // the kind plane's runs
    ASSERT_TRUE((plane[0] & 1) == 1 || (plane[0] & 1) == 0);
    // Rewrite the first run's value (or first literal byte) to kind 200.
    std::size_t at = off + 16 + 4;
    while (f[at] & 0x80) ++at;  // skip the varint
    f[at + 1] = 200;
    reseal(f);
    expect_refused(*w, f, Status::BadFormat, "section 'walker chunk " + pos_of(f, k) + "'",
                   "bad kind");
  }
  {  // Island parents that loop.
    std::vector<std::uint8_t> f = b.bytes;
    std::uint64_t off;
    std::memcpy(&off, entry(f, 18) + 24, 8);  // the walker's class section
    std::uint32_t labels;
    std::memcpy(&labels, f.data() + off + 12, 4);
    ASSERT_GE(labels, 2u);
    const std::uint32_t one = 1, zero = 0;
    std::memcpy(f.data() + off + 48, &one, 4);       // parent[0] = 1
    std::memcpy(f.data() + off + 48 + 4, &zero, 4);  // parent[1] = 0
    reseal(f);
    expect_refused(*w, f, Status::BadFormat, "section 'class walker': islands", "parent loop");
  }
  // After all that, the World builds its own navigation, the exporter's.
  rebuild_as_exporter(*w);
  test::expect_same_navigation(*b.world, *w);
}

TEST(NavSave, ForgedBytesNeverCrash) {
  // Random bytes rewritten past the header, the checksum made right again: what a buggy writer
  // might produce. Each file is refused by name, or imported and then still answers queries, a
  // search and an edit without crashing (run under the sanitizer presets too).
  const Built b = build();
  // Exploration: VOXNAV_SAVE_SEED shifts the seed, VOXNAV_SAVE_SCALE multiplies the count.
  tools::SplitMix64 rng(99 + test::env_seed("VOXNAV_SAVE_SEED"));
  const int files = 300 * test::env_scale("VOXNAV_SAVE_SCALE");
  int refused = 0, imported = 0;
  for (int k = 0; k < files; ++k) {
    std::vector<std::uint8_t> f = b.bytes;
    const int changes = 1 + static_cast<int>(rng.below<unsigned>(3));
    for (int c = 0; c < changes; ++c) {
      const std::size_t at = 64 + rng.below<std::size_t>(f.size() - 68);
      f[at] = static_cast<std::uint8_t>(rng.next());
    }
    reseal(f);
    std::unique_ptr<World> w = make_world();
    const test::WorldSnapshot before = test::snapshot(*w);
    CallError e;
    if (import_navigation(*w, f, nullptr, &e) != Status::Ok) {
      ++refused;
      EXPECT_FALSE(e.message.empty());
      EXPECT_TRUE(test::snapshot(*w) == before) << e.message;
      continue;
    }
    ++imported;
    ProfileId pid;
    ASSERT_EQ(w->add_profile(Profile{}, &pid), Status::Ok);
    NavRequest r;
    r.profile = pid;
    r.start = {1, 9, 1};
    r.goal = {-10, 9, 12};
    Reach reach;
    (void)w->reachable(pid, r.start, r.goal, &reach);
    PathResult path;
    (void)w->find_path_now(r, &path);
    (void)w->set_box({-3, 4, -3}, {3, 8, 3}, kAir);
    w->update();
  }
  EXPECT_EQ(refused + imported, files);
  std::printf("forged files: %d refused, %d imported\n", refused, imported);
  EXPECT_GT(refused, files / 3) << "most forged payloads break a check";
}

TEST(NavSave, ExportNeedsUpToDateNavigation) {
  std::unique_ptr<World> w = make_world();
  std::vector<std::uint8_t> out = {1, 2, 3};
  CallError e;
  EXPECT_EQ(export_navigation(*w, ExportDef{}, &out, &e), Status::Busy);
  EXPECT_NE(e.message.find("call update() first"), std::string::npos) << e.message;
  EXPECT_EQ(out, (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(export_navigation(*w, ExportDef{}, nullptr, &e), Status::InvalidArgument);
  EXPECT_EQ(e.argument, "out");
  w->update();
  EXPECT_EQ(export_navigation(*w, ExportDef{}, &out, &e), Status::Ok) << e.message;
  // Deterministic: the same World exports the same bytes.
  std::vector<std::uint8_t> again;
  EXPECT_EQ(export_navigation(*w, ExportDef{}, &again, &e), Status::Ok);
  EXPECT_EQ(out, again);
}

}  // namespace
}  // namespace voxnav
