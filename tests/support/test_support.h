// Helpers shared by the GoogleTest suites (tests/support/test_support.cpp, the
// voxnav_test_support library). The gtest-free part, shared with bench/, is scenes.h.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/nav/nav_world.h"
#include "voxnav/integrate.h"
#include "scenes.h"
#include "voxnav/world.h"

namespace voxnav::test {

/// A second World holding a copy of `src`'s blocks (same registry) with one default walker
/// profile (`*pid`), its navigation built from scratch by one update(): the reference that
/// incrementally maintained layers are compared with.
std::unique_ptr<World> fresh_copy(World& src, ProfileId* pid);

#ifndef __EMSCRIPTEN__
/// A World with the real Minecraft block registry (shared data) and the world file at `path`
/// (any format the native loaders read), one default walker profile (`*pid`) and its navigation
/// built by one update(). Null (with a test failure naming the problem) when a file fails.
std::unique_ptr<World> load_region(const std::string& path, ProfileId* pid);
/// Loads the real Minecraft block registry (shared data) into `w`, before any chunk. False (with
/// a test failure naming the problem) when it fails.
bool load_real_blocks(World& w);
#endif

/// A flat world in `w`: 3 x 3 chunk columns around the origin (cells -16 .. 31 in x and z), a
/// floor of `floor_value` at y = 0 and open air above it up to y = 31. False (with a test failure)
/// when a chunk is refused.
bool load_flat_floor(World& w, std::uint16_t floor_value);

/// Drives `s` with the movement step (step_body, 20 Hz) for `ticks` ticks toward the point
/// (tx, tz) at `speed` m/s, slowing onto it, never jumping: how the move oracles walk a body from
/// one cell's centre to the next. False when a step is refused.
bool walk_body_to(const World& w, BodyState& s, const BodyParams& body, double tx, double tz,
                  double speed, int ticks);

/// The real region shipped in the repository (data/worlds/r.0.-1.mca, Minecraft 1.16): the
/// default world of `voxnav run`.
const std::string& repo_region();

/// Exploration knobs of the break suites, unset in normal runs: the seed offset in environment
/// variable `name` (0 when unset), and the multiplier of run lengths in `name` (1 when unset or
/// below 1).
std::uint64_t env_seed(const char* name);
int env_scale(const char* name);

/// Whether the suite runs with the AddressSanitizer runtime linked (the debug preset), decided when
/// it runs: the debug tree may link the release tree's compiled suites (tests/CMakeLists.txt).
bool sanitized_build();

/// The length of a randomized suite's run (edits, updates, ticks): `optimised` in the builds
/// without AddressSanitizer (release, wasm, tsan), `sanitized` in the ASan + UBSan build (several
/// times slower per round),
/// either times the multiplier in VOXNAV_TEST_SCALE and the one in the suite's own variable
/// `suite_env` (both 1 when unset). CI runs the defaults; `scripts/long-tests.sh` runs every
/// suite with VOXNAV_TEST_SCALE > 1 for a longer search for failures.
int rounds(int optimised, int sanitized, const char* suite_env = nullptr);

/// Whether this build runs under ThreadSanitizer (the tsan preset, which builds only the suites
/// labelled "threads").
#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif
#else
inline constexpr bool kThreadSanitizer = false;
#endif

/// "(x,y,z)" and "chunk(x,y,z)", for failure messages.
/// The chunk column (x, z) of the middle cell of the walker class's biggest island of `w`.
std::pair<int, int> biggest_island_column(World& w);
/// Every standable cell of a grid, in chunk order.
std::vector<CellPos> standable_cells(const detail::NavGrid& g);
/// The walker class's standable cells of `w` (chunk order), and the same cells by island (the
/// trips of the agent suites: a start and a goal it can reach).
struct StandableByIsland {
  std::vector<CellPos> all;
  std::map<std::uint32_t, std::vector<CellPos>> by_island;
};
StandableByIsland standable_by_island(World& w);

std::string str(const CellPos& c);
std::string str(const ChunkPos& p);

/// Reachability over the move graph decoded from the move words by hand, independent of the
/// engine's islands and neighbour pointers: a bidirectional BFS expanding the smaller frontier
/// (an exhausted side proves No).
class PairOracle {
 public:
  explicit PairOracle(const detail::NavGrid& g) : g_(g) {}
  /// A bidirectional BFS over the move words: does `a` reach `b` entering only the gate cells
  /// (doors, ladders, damage cells) of the kinds in `gates` (the start may be any node)?
  bool reaches(const CellPos& a, const CellPos& b, std::uint8_t gates = detail::kGateAll);

 private:
  // The grid's cells read through a direct-mapped cache of chunk pointers, emptied at the start of
  // each reaches() (the grid does not change during one). The backward step reads 72 cells per
  // cell, and the grid's own lookup hashes the chunk every time (slow under the sanitizers).
  const detail::NavChunk* chunk(const CellPos& c) {
    const ChunkPos p = detail::chunk_of(c);
    if (p == last_pos_ && last_stamp_ == stamp_) return last_;
    return chunk_slow(p);
  }
  const detail::NavChunk* chunk_slow(const ChunkPos& p);
  detail::CellKind kind(const CellPos& c) {
    const detail::NavChunk* ch = chunk(c);
    return ch ? ch->kind_at(detail::index_in_chunk(c)) : detail::CellKind::Blocked;
  }
  std::uint32_t moves(const CellPos& c) {
    const detail::NavChunk* ch = chunk(c);
    return ch ? ch->moves_at(detail::index_in_chunk(c)) : 0u;
  }
  std::uint8_t vmoves(const CellPos& c) {
    const detail::NavChunk* ch = chunk(c);
    return ch ? ch->vmoves_at(detail::index_in_chunk(c)) : std::uint8_t(0);
  }
  detail::GapWord gaps(const CellPos& c) {
    const detail::NavChunk* ch = chunk(c);
    return ch ? ch->gaps_at(detail::index_in_chunk(c)) : detail::GapWord(0);
  }

  const detail::NavGrid& g_;
  std::unordered_set<std::uint64_t> fwd_seen_, bwd_seen_;
  struct CacheSlot {
    std::uint64_t key = 0;
    const detail::NavChunk* chunk = nullptr;
    std::uint32_t stamp = 0;  // the reaches() call that filled it; 0: never
  };
  std::array<CacheSlot, 256> cache_{};
  std::uint32_t stamp_ = 0;
  ChunkPos last_pos_{};  // the chunk read last, in the reaches() call `last_stamp_`
  const detail::NavChunk* last_ = nullptr;
  std::uint32_t last_stamp_ = 0;
};

/// Differences between incrementally maintained layers and a fresh build of the same blocks.
struct LayerDiff {
  std::size_t cells = 0, kind = 0, floor = 0, moves = 0, missing = 0, extra = 0, partition = 0;
  std::string first;  ///< the first difference, readable
  std::size_t total() const { return kind + floor + moves + missing + extra + partition; }
};

/// Layer 0 kinds, floors of standable cells and move words cell by cell over every chunk of
/// `fresh`, nav chunks missing or extra, and the islands as a partition (a one to one map between
/// the two labellings over every standable cell).
LayerDiff compare_layers(detail::NavWorld& inc, detail::NavWorld& fresh);

}  // namespace voxnav::test

/// First statement of a test in a "threads" suite that runs no thread (no executor): under
/// ThreadSanitizer it is skipped, since there is no race to find and TSan only slows it (the
/// release and ASan + UBSan legs run it).
#define VOXNAV_SKIP_SINGLE_THREADED_UNDER_TSAN()                                               \
  do {                                                                                         \
    if (::voxnav::test::kThreadSanitizer)                                                      \
      GTEST_SKIP() << "single-threaded: nothing for ThreadSanitizer to check (release and "    \
                      "ASan + UBSan run it)";                                                  \
  } while (0)
