// Helpers shared by the GoogleTest suites, built once as the static library voxnav_test_support.
// Put declarations in tests/support/test_support.h. Being a static library, a file-scope object
// here that no suite references is not linked in: register gtest environments from the suites
// themselves.
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <unordered_map>

#include "engine/integrate/integrate.h"
#include "engine/islands/islands.h"
#include "engine/nav/world_access.h"
#ifndef __EMSCRIPTEN__
#include "voxnav/native/files.h"
#endif

namespace voxnav::test {

std::unique_ptr<World> fresh_copy(World& src, ProfileId* pid) {
  auto w = std::make_unique<World>();
  detail::WorldState& st = detail::WorldAccess::state(*w);
  const detail::WorldState& s = detail::WorldAccess::state(src);
  st.registry = s.registry;
  for (const ChunkPos& p : s.space.loaded_chunks()) {
    const detail::Chunk* ch = s.space.chunk(p);
    const Status r =
        ch->uniform ? st.space.load_uniform_chunk(p, ch->uniform_value)
                    : st.space.load_chunk(
                          p, std::span<const std::uint16_t>(ch->values.get(), detail::kChunkCells));
    EXPECT_EQ(r, Status::Ok);
  }
  EXPECT_EQ(w->add_profile(Profile{}, pid), Status::Ok);
  w->update();
  return w;
}

#ifndef __EMSCRIPTEN__
std::unique_ptr<World> load_region(const std::string& path, ProfileId* pid) {
  auto w = std::make_unique<World>();
  std::string msg;
  if (native::load_minecraft_blocks_dir(*w, std::string(VOXNAV_SHARED_DATA) + "/minecraft/blocks",
                                        &msg) != Status::Ok) {
    ADD_FAILURE() << "registry: " << msg;
    return nullptr;
  }
  LoadReport report;
  if (native::load_world_file(*w, path, LoadOptions{}, &report) != Status::Ok) {
    ADD_FAILURE() << "load " << path << ": " << report.message;
    return nullptr;
  }
  if (w->add_profile(Profile{}, pid) != Status::Ok) return nullptr;
  w->update();
  return w;
}
#endif

#ifndef __EMSCRIPTEN__
bool load_real_blocks(World& w) {
  std::string msg;
  const Status status = native::load_minecraft_blocks_dir(
      w, std::string(VOXNAV_SHARED_DATA) + "/minecraft/blocks", &msg);
  EXPECT_EQ(status, Status::Ok) << msg;
  return status == Status::Ok;
}
#endif

bool walk_body_to(const World& w, BodyState& s, const BodyParams& body, double tx, double tz,
                  double speed, int ticks) {
  for (int t = 0; t < ticks; ++t) {
    BodyInput in;
    const double ex = tx - s.feet.x, ez = tz - s.feet.z, dist = std::hypot(ex, ez);
    if (dist > 1e-9) {
      const double v = std::min(speed, dist / detail::kSimulationTick);
      in.move_x = ex / dist * v;
      in.move_z = ez / dist * v;
    }
    if (step_body(w, s, in, body, detail::kSimulationTick) != Status::Ok) return false;
  }
  return true;
}

bool load_flat_floor(World& w, std::uint16_t floor_value) {
  std::vector<std::uint16_t> floor(detail::kChunkCells, 0), air(detail::kChunkCells, 0);
  for (int i = 0; i < 256; ++i) floor[static_cast<std::size_t>(i)] = floor_value;
  bool ok = true;
  for (int cz = -1; cz <= 1; ++cz)
    for (int cx = -1; cx <= 1; ++cx) {
      const Status a = w.load_chunk({cx, 0, cz}, floor), b = w.load_chunk({cx, 1, cz}, air);
      EXPECT_EQ(a, Status::Ok);
      EXPECT_EQ(b, Status::Ok);
      ok = ok && a == Status::Ok && b == Status::Ok;
    }
  return ok;
}

const std::string& repo_region() {
  static const std::string path = std::string(VOXNAV_FIXTURES) + "/../../data/worlds/r.0.-1.mca";
  return path;
}

std::uint64_t env_seed(const char* name) {
  const char* s = std::getenv(name);
  return s ? std::strtoull(s, nullptr, 10) : 0;
}

int env_scale(const char* name) {
  const char* s = std::getenv(name);
  return s ? std::max(1, std::atoi(s)) : 1;
}

#if !defined(__EMSCRIPTEN__)
// Defined by the AddressSanitizer runtime (g++ and clang): non-null when the suite links it.
extern "C" void __asan_init() __attribute__((weak));
#endif

bool sanitized_build() {
#if defined(__EMSCRIPTEN__)
  return false;
#else
  return &__asan_init != nullptr;
#endif
}

int rounds(int optimised, int sanitized, const char* suite_env) {
  const int base = sanitized_build() ? sanitized : optimised;
  return base * env_scale("VOXNAV_TEST_SCALE") * (suite_env ? env_scale(suite_env) : 1);
}

std::string str(const CellPos& c) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "(%d,%d,%d)", c.x, c.y, c.z);
  return buf;
}
std::string str(const ChunkPos& p) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "chunk(%d,%d,%d)", p.x, p.y, p.z);
  return buf;
}

const detail::NavChunk* PairOracle::chunk_slow(const ChunkPos& p) {
  const std::uint64_t key = detail::chunk_key(p);
  CacheSlot& s = cache_[(key ^ (key >> 17) ^ (key >> 40)) & (cache_.size() - 1)];
  if (s.stamp != stamp_ || s.key != key) s = {key, g_.chunk(p), stamp_};
  last_pos_ = p;
  last_ = s.chunk;
  last_stamp_ = stamp_;
  return s.chunk;
}

bool PairOracle::reaches(const CellPos& a, const CellPos& b, std::uint8_t gates) {
  if (a == b) return true;
  if (++stamp_ == 0) {  // wrapped: forget every slot
    cache_.fill({});
    stamp_ = 1;
  }
  auto usable = [&](const CellPos& c) {
    const std::uint8_t g = detail::kind_gate(kind(c));
    return !g || (g & gates);
  };
  if (!usable(b)) return false;
  fwd_seen_.clear();
  bwd_seen_.clear();
  std::vector<CellPos> f{a}, bk{b}, next;
  fwd_seen_.insert(detail::cell_key(a));
  bwd_seen_.insert(detail::cell_key(b));
  while (!f.empty() && !bk.empty()) {
    const bool forward = f.size() <= bk.size();
    std::vector<CellPos>& front = forward ? f : bk;
    auto& mine = forward ? fwd_seen_ : bwd_seen_;
    auto& other = forward ? bwd_seen_ : fwd_seen_;
    next.clear();
    for (const CellPos& c : front) {
      bool met = false;
      auto visit = [&](const CellPos& n) {
        if (!usable(n)) return;
        const std::uint64_t k = detail::cell_key(n);
        if (other.count(k)) met = true;
        if (mine.insert(k).second) next.push_back(n);
      };
      if (forward) {
        const std::uint32_t word = moves(c);
        for (int dir = 0; dir < 8; ++dir) {
          const int code = detail::move_code(word, dir);
          if (code)
            visit(CellPos{c.x + detail::kDirDx[dir], c.y + detail::kMoveCodes[code].dy,
                               c.z + detail::kDirDz[dir]});
        }
        const std::uint8_t vm = vmoves(c);
        if (vm & detail::kMoveUp) visit(CellPos{c.x, c.y + 1, c.z});
        if (vm & detail::kMoveDown) visit(CellPos{c.x, c.y - 1, c.z});
        const detail::GapWord gm = gaps(c);
        for (int d = 0; d < 4; ++d) {
          const int dx = 2 * detail::kDirDx[d], dz = 2 * detail::kDirDz[d];
          if (gm & (detail::kGapLevel << d)) visit(CellPos{c.x + dx, c.y, c.z + dz});
          if (gm & (detail::kGapDown << d)) visit(CellPos{c.x + dx, c.y - 1, c.z + dz});
          if (gm & (detail::kGapUp << d)) visit(CellPos{c.x + dx, c.y + 1, c.z + dz});
          if (gm & (detail::kGapLevel2 << d))
            visit(CellPos{c.x + 3 * detail::kDirDx[d], c.y, c.z + 3 * detail::kDirDz[d]});
        }
      } else {
        for (int d = 0; d < 4; ++d) {
          const int dx = 2 * detail::kDirDx[d], dz = 2 * detail::kDirDz[d];
          const CellPos sl{c.x - dx, c.y, c.z - dz}, sd{c.x - dx, c.y + 1, c.z - dz},
              su{c.x - dx, c.y - 1, c.z - dz};
          if (gaps(sl) & (detail::kGapLevel << d)) visit(sl);
          if (gaps(sd) & (detail::kGapDown << d)) visit(sd);
          if (gaps(su) & (detail::kGapUp << d)) visit(su);
          const CellPos s2{c.x - 3 * detail::kDirDx[d], c.y, c.z - 3 * detail::kDirDz[d]};
          if (gaps(s2) & (detail::kGapLevel2 << d)) visit(s2);
        }
        if (vmoves(CellPos{c.x, c.y - 1, c.z}) & detail::kMoveUp)
          visit(CellPos{c.x, c.y - 1, c.z});
        if (vmoves(CellPos{c.x, c.y + 1, c.z}) & detail::kMoveDown)
          visit(CellPos{c.x, c.y + 1, c.z});
        for (int dir = 0; dir < 8; ++dir)
          for (int dy = 1; dy >= -7; --dy) {
            const CellPos s{c.x - detail::kDirDx[dir], c.y - dy, c.z - detail::kDirDz[dir]};
            const int code = detail::move_code(moves(s), dir);
            if (code && detail::kMoveCodes[code].dy == dy) visit(s);
          }
      }
      if (met) return true;
    }
    front.swap(next);
  }
  return false;
}

LayerDiff compare_layers(detail::NavWorld& inc, detail::NavWorld& fresh) {
  LayerDiff d;
  std::unordered_map<std::uint32_t, std::uint32_t> inc_to_fresh, fresh_to_inc;
  const detail::NavGrid& fg = fresh.grid();
  for (const detail::NavChunk* b : fg.ordered_chunks()) {
    const detail::NavChunk* a = inc.grid().chunk(b->pos);
    if (!a) {
      if (++d.missing == 1 && d.first.empty()) d.first = "missing nav chunk " + str(b->pos);
      continue;
    }
    for (int i = 0; i < detail::kChunkCells; ++i) {
      ++d.cells;
      const bool standable = detail::kind_node(a->kind_at(i));
      const bool kd = a->kind_at(i) != b->kind_at(i);
      const bool fd = standable && !kd && a->floor[i] != b->floor[i];
      const bool md = a->moves_at(i) != b->moves_at(i) || a->vmoves_at(i) != b->vmoves_at(i) ||
                      a->gaps_at(i) != b->gaps_at(i);
      d.kind += kd;
      d.floor += fd;
      d.moves += md;
      bool pd = false;
      if (standable && !kd) {
        const std::uint32_t ia = inc.islands().component_at(a, i),
                            ib = fresh.islands().component_at(b, i);
        auto [x, newx] = inc_to_fresh.try_emplace(ia, ib);
        auto [y, newy] = fresh_to_inc.try_emplace(ib, ia);
        pd = x->second != ib || y->second != ia || ia == 0 || ib == 0;
        d.partition += pd;
      }
      if ((kd || fd || md || pd) && d.first.empty()) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s: kind %d/%d moves %08x/%08x%s",
                      str(detail::cell_of(a, i)).c_str(), int(a->kind_at(i)), int(b->kind_at(i)),
                      a->moves_at(i), b->moves_at(i), pd ? " (island partition differs)" : "");
        d.first = buf;
      }
    }
  }
  for (const detail::NavChunk* a : inc.grid().ordered_chunks())
    if (!fg.chunk(a->pos) && ++d.extra == 1 && d.first.empty())
      d.first = "extra nav chunk " + str(a->pos);
  return d;
}

std::pair<int, int> biggest_island_column(World& w) {
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  std::uint32_t best = 0, best_size = 0;
  for (const detail::NavChunk* ch : nav.grid().ordered_chunks()) {
    if (ch->uniform || !ch->scc) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      const std::uint32_t isl = nav.islands().component_at(ch, i);
      if (isl && nav.islands().size_of(isl) > best_size)
        best = isl, best_size = nav.islands().size_of(isl);
    }
  }
  std::vector<CellPos> cells;
  for (const detail::NavChunk* ch : nav.grid().ordered_chunks()) {
    if (ch->uniform || !ch->scc) continue;
    for (int i = 0; i < detail::kChunkCells; ++i)
      if (nav.islands().component_at(ch, i) == best) cells.push_back(detail::cell_of(ch, i));
  }
  if (cells.empty()) return {0, 0};
  const CellPos m = cells[cells.size() / 2];
  return {m.x >> 4, m.z >> 4};
}

std::vector<CellPos> standable_cells(const detail::NavGrid& g) {
  std::vector<CellPos> out;
  for (const detail::NavChunk* ch : g.ordered_chunks()) {
    if (ch->uniform) continue;
    for (int i = 0; i < detail::kChunkCells; ++i)
      if (detail::kind_standable(ch->kind_at(i))) out.push_back(detail::cell_of(ch, i));
  }
  return out;
}

StandableByIsland standable_by_island(World& w) {
  detail::NavWorld& nav = *detail::WorldAccess::state(w).walker();
  StandableByIsland out;
  out.all = standable_cells(nav.grid());
  for (const CellPos& c : out.all) out.by_island[nav.islands().component(nav.grid(), c)].push_back(c);
  return out;
}

}  // namespace voxnav::test
