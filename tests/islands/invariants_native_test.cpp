// Whole-map navigation invariants on the real Minecraft regions (1.12.2, 1.16, 1.18.2):
//  (a) reachable() Yes/No agrees exactly with a plain BFS over the layer 2 move words, for a few
//      thousand deterministic pairs of standable cells (many of them within 32 cells, so Yes is
//      common); Unknown never happens for standable, loaded pairs;
//  (b) A* paths (NavWorld::search_now) are valid move sequences whose cost equals an independent
//      Dijkstra's over the same moves and move_cost();
//  (c) after a few hundred random edits near those paths (+ World::update), (a) still holds and the
//      incremental layers equal those of a fresh World built from the edited blocks;
//  (d) string-pulled corridors: waypoints are standable path cells, consecutive level waypoints
//      see each other (line_walkable_level).
// The oracle graph is decoded from the move words by hand (dense ids + CSR), independently of the
// engine's neighbour pointers and islands; for_each_move is checked against that decoding.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/corridor/corridor.h"
#include "engine/islands/islands.h"
#include "engine/nav/nav_world.h"
#include "engine/nav/world_access.h"
#include "engine/search/astar.h"
#include "shared_regions.h"
#include "splitmix.h"
#include "test_support.h"
#include "voxnav/world.h"
#include "voxnav/native/files.h"

namespace voxnav {
namespace {

using detail::CellKind;
using detail::NavChunk;
using detail::NavGrid;

const std::string kShared = VOXNAV_SHARED_DATA;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

using Rng = voxnav::tools::SplitMix64;

std::string str(const CellPos& c) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "(%d,%d,%d)", c.x, c.y, c.z);
  return buf;
}
CellPos pos(const CellPos& c) { return CellPos{c.x, c.y, c.z}; }

// ---------------------------------------------------------------------------------------------
// A world loaded from a region file.

struct RegionWorld {
  std::unique_ptr<World> world;
  ProfileId pid;
  LoadReport report;
  double load_s = 0, nav_s = 0;
  detail::NavWorld& nav() { return *detail::WorldAccess::state(*world).walker(); }
  const NavGrid& grid() { return nav().grid(); }
};

std::unique_ptr<RegionWorld> load_region(const std::string& path) {
  auto rw = std::make_unique<RegionWorld>();
  rw->world = std::make_unique<World>();
  std::string msg;
  const auto t0 = std::chrono::steady_clock::now();
  if (native::load_minecraft_blocks_dir(*rw->world, kShared + "/minecraft/blocks", &msg) !=
      Status::Ok) {
    ADD_FAILURE() << "registry: " << msg;
    return nullptr;
  }
  const Status s = native::load_world_file(*rw->world, path, LoadOptions{}, &rw->report);
  if (s != Status::Ok) {
    ADD_FAILURE() << "load " << path << ": " << rw->report.message;
    return nullptr;
  }
  rw->load_s = seconds_since(t0);
  std::string err;
  if (rw->world->add_profile(Profile{}, &rw->pid, &err) != Status::Ok) {
    ADD_FAILURE() << err;
    return nullptr;
  }
  const auto t1 = std::chrono::steady_clock::now();
  rw->world->update();
  rw->nav_s = seconds_since(t1);
  return rw;
}

using test::fresh_copy;

// ---------------------------------------------------------------------------------------------
// The oracle: standable cells with dense ids, and the moves decoded from the move words (CSR).

struct Edge {
  std::uint32_t to;
  std::uint8_t dir;
  std::uint8_t code;
};

class Oracle {
 public:
  explicit Oracle(const NavGrid& grid) {
    for (NavChunk* ch : grid.ordered_chunks()) {
      if (ch->uniform || ch->nodes == 0) continue;
      ChunkInfo info;
      info.ch = ch;
      info.base = static_cast<std::uint32_t>(cells_.size());
      std::uint32_t count = 0;
      for (int w = 0; w < 64; ++w) {
        info.prefix[w] = count;
        std::uint64_t bits = 0;
        for (int b = 0; b < 64; ++b) {
          const int i = w * 64 + b;
          if (detail::kind_node(ch->kind_at(i))) {
            bits |= 1ull << b;
            cells_.push_back(detail::cell_of(ch, i));
            kinds_.push_back(ch->kind_at(i));
          }
        }
        info.bits[w] = bits;
        count += static_cast<std::uint32_t>(std::popcount(bits));
      }
      if (count != static_cast<std::uint32_t>(ch->nodes)) ++standable_count_mismatch_;
      index_[detail::chunk_key(ch->pos)] = chunks_.size();
      chunks_.push_back(info);
    }
    // Moves, decoded by hand from the move words; checked against for_each_move.
    start_.reserve(cells_.size() + 1);
    for (std::uint32_t v = 0; v < cells_.size(); ++v) {
      start_.push_back(static_cast<std::uint32_t>(edges_.size()));
      const CellPos c = cells_[v];
      const std::uint32_t word = grid.moves(c);
      std::vector<std::pair<CellPos, int>> decoded;
      for (int dir = 0; dir < 8; ++dir) {
        const int code = detail::move_code(word, dir);
        if (!code) continue;
        ++moves_;
        if (code >= detail::kMoveCodeCount) {
          ++bad_codes_;
          continue;
        }
        const CellPos t{c.x + detail::kDirDx[dir], c.y + detail::kMoveCodes[code].dy,
                     c.z + detail::kDirDz[dir]};
        const std::uint32_t tid = id(t);
        if (tid == kNone) {
          if (bad_targets_.size() < 5)
            bad_targets_.push_back(str(c) + " dir " + std::to_string(dir) + " -> " + str(t));
          ++bad_target_count_;
          continue;
        }
        // No corner cutting: a diagonal needs each cardinal side to be a level-ish walk onto a
        // cell that is no damage cell, or open air at this level (over the void beside a
        // corner: then the diagonal is a level walk).
        if (dir >= 4) {
          auto walkish = [](int k) { return k == 1 || k == 3 || k == 5; };
          auto side_ok = [&](int d) {
            const int k = detail::move_code(word, d);
            const CellPos s{c.x + detail::kDirDx[d], c.y, c.z + detail::kDirDz[d]};
            if (!walkish(k))
              return code == 1 && grid.kind(s) == CellKind::Air;
            const CellPos st{s.x, c.y + detail::kMoveCodes[k].dy, s.z};
            return grid.kind(st) != CellKind::DamageFire && grid.kind(st) != CellKind::DamageOther;
          };
          if (!side_ok(detail::kDiagA[dir]) || !side_ok(detail::kDiagB[dir]) || !walkish(code))
            ++corner_cuts_;
        }
        decoded.push_back({t, dir});
        edges_.push_back(
            Edge{tid, static_cast<std::uint8_t>(dir), static_cast<std::uint8_t>(code)});
      }
      // Vertical moves (ladders): straight up or down.
      const std::uint8_t vm = grid.vmoves(c);
      for (int b = 0; b < 2; ++b) {
        if (!(vm & (b == 0 ? detail::kMoveUp : detail::kMoveDown))) continue;
        ++moves_;
        const CellPos t{c.x, c.y + (b == 0 ? 1 : -1), c.z};
        const std::uint32_t tid = id(t);
        if (tid == kNone) {
          ++bad_target_count_;
          continue;
        }
        const int dir = b == 0 ? detail::kDirUp : detail::kDirDown;
        decoded.push_back({t, dir});
        edges_.push_back(
            Edge{tid, static_cast<std::uint8_t>(dir),
                 static_cast<std::uint8_t>(b == 0 ? detail::kCodeVertUp : detail::kCodeVertDown)});
      }
      // Gap jumps: two cells along a cardinal direction, level, a cell lower or a row up; three
      // cells (over two of air), level.
      const detail::GapWord gm = grid.gaps(c);
      for (int d = 0; d < 4; ++d)
        for (int b = 0; b < 4; ++b) {
          const detail::GapWord bit = b == 0   ? detail::kGapLevel
                                      : b == 1 ? detail::kGapDown
                                      : b == 2 ? detail::kGapUp
                                               : detail::kGapLevel2;
          if (!(gm & (bit << d))) continue;
          ++moves_;
          ++gap_moves_;
          const int dy = b == 1 ? -1 : b == 2 ? 1 : 0, r = b == 3 ? 3 : 2;
          const CellPos t{c.x + r * detail::kDirDx[d], c.y + dy, c.z + r * detail::kDirDz[d]};
          const std::uint32_t tid = id(t);
          if (tid == kNone) {
            ++bad_target_count_;
            continue;
          }
          decoded.push_back({t, d});
          edges_.push_back(
              Edge{tid, static_cast<std::uint8_t>(d),
                   static_cast<std::uint8_t>(b == 0   ? detail::kCodeGapLevel
                                             : b == 1 ? detail::kCodeGapDown
                                             : b == 2 ? detail::kCodeGapUp
                                                      : detail::kCodeGapLevel2)});
        }
      std::size_t seen = 0;
      bool ok = true;
      NavChunk* ch = grid.chunk(detail::chunk_of(c));
      detail::for_each_move(
          ch, detail::index_in_chunk(c), c, [&](NavChunk* tc, int ti, const CellPos& t, int dir, int) {
            if (seen >= decoded.size() || !(decoded[seen].first == t) ||
                decoded[seen].second != dir)
              ok = false;
            if (tc != grid.chunk(detail::chunk_of(t)) || ti != detail::index_in_chunk(t))
              ok = false;
            ++seen;
          });
      if (!ok || seen != decoded.size()) ++for_each_mismatch_;
    }
    start_.push_back(static_cast<std::uint32_t>(edges_.size()));
    mark_.assign(cells_.size(), 0);
  }

  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::size_t gap_moves() const { return gap_moves_; }

  std::uint32_t id(const CellPos& c) const {
    const auto it = index_.find(detail::chunk_key(detail::chunk_of(c)));
    if (it == index_.end()) return kNone;
    const ChunkInfo& info = chunks_[it->second];
    const int i = detail::index_in_chunk(c);
    const std::uint64_t bits = info.bits[i >> 6];
    if (!((bits >> (i & 63)) & 1u)) return kNone;
    return info.base + info.prefix[i >> 6] +
           static_cast<std::uint32_t>(std::popcount(bits & ((1ull << (i & 63)) - 1)));
  }
  std::size_t size() const { return cells_.size(); }
  const CellPos& cell(std::uint32_t v) const { return cells_[v]; }
  CellKind kind(std::uint32_t v) const { return kinds_[v]; }
  std::size_t edge_count() const { return edges_.size(); }

  /// Marks every cell reachable from `src` (plain BFS) for the class and, entering only the gate
  /// cells (doors, ladders, damage cells) of the kinds in `gates`, for a profile; reached(v) and
  /// reached_by_class(v) answer afterwards.
  void bfs(std::uint32_t src, std::uint8_t gates = detail::kGateAll) {
    if (++stamp_ == 0) {
      std::fill(mark_.begin(), mark_.end(), 0);
      std::fill(class_mark_.begin(), class_mark_.end(), 0);
      stamp_ = 1;
    }
    class_mark_.resize(mark_.size(), 0);
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<std::uint32_t>& mark = pass == 0 ? class_mark_ : mark_;
      const std::uint8_t allowed = pass == 0 ? std::uint8_t(detail::kGateAll) : gates;
      std::vector<std::uint32_t> queue{src};
      mark[src] = stamp_;
      for (std::size_t q = 0; q < queue.size(); ++q) {
        const std::uint32_t v = queue[q];
        for (std::uint32_t e = start_[v]; e < start_[v + 1]; ++e) {
          const std::uint32_t w = edges_[e].to;
          const std::uint8_t g = detail::kind_gate(kinds_[w]);
          if (mark[w] != stamp_ && (!g || (g & allowed))) {
            mark[w] = stamp_;
            queue.push_back(w);
          }
        }
      }
      if (pass == 1) last_reached_ = queue.size();
    }
  }
  bool reached(std::uint32_t v) const { return mark_[v] == stamp_; }
  bool reached_by_class(std::uint32_t v) const { return class_mark_[v] == stamp_; }
  std::size_t last_reached() const { return last_reached_; }

  /// Dijkstra's from src to dst over the same moves with move_cost; UINT64_MAX when unreachable.
  std::uint64_t dijkstra(std::uint32_t src, std::uint32_t dst,
                         const detail::CostTable& costs) const {
    std::vector<std::uint64_t> dist(cells_.size(), UINT64_MAX);
    using Item = std::pair<std::uint64_t, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
    dist[src] = 0;
    pq.push({0, src});
    while (!pq.empty()) {
      const auto [d, v] = pq.top();
      pq.pop();
      if (d != dist[v]) continue;
      if (v == dst) return d;
      for (std::uint32_t e = start_[v]; e < start_[v + 1]; ++e) {
        const Edge& ed = edges_[e];
        const detail::MoveCode mc = detail::kMoveCodes[ed.code];
        if (mc.kind == EdgeKind::Drop && -mc.dy > costs.max_drop) continue;
        const std::uint32_t mcost = detail::move_cost(costs, ed.dir, ed.code, kinds_[ed.to]);
        if (mcost == detail::kCostImpassable) continue;
        const std::uint64_t nd = d + mcost;
        if (nd < dist[ed.to]) {
          dist[ed.to] = nd;
          pq.push({nd, ed.to});
        }
      }
    }
    return UINT64_MAX;
  }

  /// Standable cells within `r` cells (Chebyshev, every axis) of c, in chunk/index order.
  std::vector<std::uint32_t> near(const CellPos& c, int r) const {
    std::vector<std::uint32_t> out;
    const ChunkPos lo = detail::chunk_of(CellPos{c.x - r, c.y - r, c.z - r});
    const ChunkPos hi = detail::chunk_of(CellPos{c.x + r, c.y + r, c.z + r});
    for (int cy = lo.y; cy <= hi.y; ++cy)
      for (int cz = lo.z; cz <= hi.z; ++cz)
        for (int cx = lo.x; cx <= hi.x; ++cx) {
          const auto it = index_.find(detail::chunk_key(ChunkPos{cx, cy, cz}));
          if (it == index_.end()) continue;
          const ChunkInfo& info = chunks_[it->second];
          std::uint32_t v = info.base;
          for (int w = 0; w < 64; ++w)
            for (std::uint64_t bits = info.bits[w]; bits; bits &= bits - 1, ++v) {
              const CellPos t = cells_[v];
              if (std::abs(t.x - c.x) <= r && std::abs(t.y - c.y) <= r && std::abs(t.z - c.z) <= r)
                out.push_back(v);
            }
        }
    return out;
  }

  // Structural findings of the construction.
  std::size_t moves_ = 0, gap_moves_ = 0, bad_codes_ = 0, bad_target_count_ = 0, corner_cuts_ = 0;
  std::size_t for_each_mismatch_ = 0, standable_count_mismatch_ = 0;
  std::vector<std::string> bad_targets_;

 private:
  struct ChunkInfo {
    const NavChunk* ch = nullptr;
    std::uint32_t base = 0;
    std::array<std::uint64_t, 64> bits{};
    std::array<std::uint32_t, 64> prefix{};
  };
  std::vector<ChunkInfo> chunks_;
  std::unordered_map<std::uint64_t, std::size_t> index_;
  std::vector<CellPos> cells_;
  std::vector<CellKind> kinds_;
  std::vector<std::uint32_t> start_;
  std::vector<Edge> edges_;
  std::vector<std::uint32_t> mark_, class_mark_;
  std::uint32_t stamp_ = 0;
  std::size_t last_reached_ = 0;
};

void expect_oracle_sound(const Oracle& o) {
  EXPECT_EQ(o.bad_codes_, 0u) << "move codes outside kMoveCodes";
  EXPECT_EQ(o.bad_target_count_, 0u) << "moves into cells that are not standable, e.g. "
                                     << (o.bad_targets_.empty() ? "" : o.bad_targets_[0]);
  EXPECT_EQ(o.corner_cuts_, 0u) << "diagonal moves without both cardinal walks (corner cutting)";
  EXPECT_EQ(o.for_each_mismatch_, 0u)
      << "for_each_move disagrees with the move words (stale links?)";
  EXPECT_EQ(o.standable_count_mismatch_, 0u) << "NavChunk::standable disagrees with the kinds";
}

// ---------------------------------------------------------------------------------------------
// (a) reachability vs BFS.

struct PairTally {
  std::size_t pairs = 0, yes = 0, no = 0, unknown = 0, mismatches = 0, near_pairs = 0;
  std::size_t gated = 0;  ///< Unknown(DoorGated / ProfileRestricted) where only a gate cell decides
  std::vector<std::pair<std::uint32_t, std::uint32_t>> yes_near, yes_far;
};

/// Checks `sources` x (near + far goals) pairs; returns the tally (with Yes pairs for (b)).
PairTally check_reachability(RegionWorld& rw, Oracle& o, const std::vector<std::uint32_t>& sources,
                             int near_per_source, int far_per_source, Rng& rng) {
  PairTally t;
  // The test profile (Profile{}) neither climbs nor opens doors nor enters damage cells.
  const std::uint8_t gates = detail::CostTable{}.gates();
  for (std::uint32_t s : sources) {
    o.bfs(s, gates);
    const CellPos sc = o.cell(s);
    const std::vector<std::uint32_t> near = o.near(sc, 32);
    std::vector<std::uint32_t> near_reached;
    for (std::uint32_t v : near)
      if (o.reached(v)) near_reached.push_back(v);
    // Half of the near goals uniformly among the standable cells within 32 cells, half among
    // those the BFS reached (so Yes answers are common; the check is exact either way).
    std::vector<std::uint32_t> goals;
    for (int k = 0; k < near_per_source && !near.empty(); ++k) {
      const std::vector<std::uint32_t>& from =
          (k & 1) && !near_reached.empty() ? near_reached : near;
      goals.push_back(from[rng.below(static_cast<std::uint32_t>(from.size()))]);
    }
    const std::size_t n_near = goals.size();
    for (int k = 0; k < far_per_source; ++k)
      goals.push_back(rng.below(static_cast<std::uint32_t>(o.size())));
    for (std::size_t gi = 0; gi < goals.size(); ++gi) {
      const std::uint32_t g = goals[gi];
      const CellPos gc = o.cell(g);
      const Reach r = rw.world->reachable(rw.pid, pos(sc), pos(gc));
      ++t.pairs;
      if (gi < n_near) ++t.near_pairs;
      const bool truth = o.reached(g);
      const bool class_truth = o.reached_by_class(g);
      const bool gated =
          r.answer == ReachAnswer::Unknown &&
          (r.reason == ReachReason::DoorGated || r.reason == ReachReason::ProfileRestricted);
      if (r.answer == ReachAnswer::Yes)
        ++t.yes;
      else if (r.answer == ReachAnswer::No)
        ++t.no;
      else if (gated)
        ++t.gated;
      else
        ++t.unknown;
      // Yes exactly when the profile gets there; No only when the class does not; Unknown
      // (gated) exactly when the class does and the profile does not.
      const bool agree = (r.answer == ReachAnswer::Yes && truth) ||
                         (r.answer == ReachAnswer::No && !class_truth) ||
                         (gated && class_truth && !truth);
      if (!agree) {
        if (t.mismatches < 8)
          ADD_FAILURE() << "reachable " << str(sc) << " -> " << str(gc) << " = "
                        << reach_answer_name(r.answer) << " (" << reach_reason_name(r.reason)
                        << "), BFS says " << (truth ? "yes" : "no");
        ++t.mismatches;
      }
      if (truth && r.answer == ReachAnswer::Yes && s != g)
        (gi < n_near ? t.yes_near : t.yes_far).push_back({s, g});
    }
  }
  return t;
}

/// `n` random standable cells; the first `rich` of them reach at least 300 cells (islands on
/// leaves, in pits and caves are common, and pairs from them are nearly all No).
std::vector<std::uint32_t> pick_sources(Oracle& o, int n, int rich, Rng& rng) {
  std::vector<std::uint32_t> s;
  for (int i = 0; i < n; ++i) {
    std::uint32_t v = rng.below(static_cast<std::uint32_t>(o.size()));
    for (int tries = 0; i < rich && tries < 200; ++tries) {
      o.bfs(v);
      if (o.last_reached() >= 300) break;
      v = rng.below(static_cast<std::uint32_t>(o.size()));
    }
    s.push_back(v);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// (b) paths vs Dijkstra, (d) corridors.

struct PathTally {
  std::size_t paths = 0, cost_mismatch = 0, invalid = 0, not_found = 0, waypoints = 0,
              level_pairs = 0, corridor_bad = 0;
  std::uint64_t expanded = 0;
  std::vector<std::vector<CellPos>> cells;  // found paths (for edits)
};

/// Validates one A* path; returns an empty string when it is a valid move sequence costing `cost`.
std::string validate_path(const NavGrid& grid, const detail::SearchResult& r, const CellPos& start,
                          const CellPos& goal, const detail::CostTable& costs) {
  if (r.cells.empty()) return "empty path";
  if (r.cells.size() != r.kinds.size()) return "cells/kinds size differ";
  if (!(r.cells.front() == start)) return "does not start at the start";
  if (!(r.cells.back() == goal)) return "does not end at the goal";
  if (r.kinds[0] != EdgeKind::Start) return "first kind is not Start";
  std::uint64_t cost = 0;
  for (std::size_t i = 0; i + 1 < r.cells.size(); ++i) {
    const CellPos a = r.cells[i], b = r.cells[i + 1];
    const std::uint32_t word = grid.moves(a);
    bool found = false;
    const detail::GapWord gm = grid.gaps(a);
    for (int dir = 0; dir < 24 && !found; ++dir) {
      // 0..7: the move word; 8..23: the gap jumps (bit dir - 8 of the gap word).
      const int code = dir < 8                                     ? detail::move_code(word, dir)
                       : !(gm & (1u << (dir - 8)))                 ? 0
                       : dir < 12 ? detail::kCodeGapLevel
                       : dir < 16 ? detail::kCodeGapDown
                       : dir < 20 ? detail::kCodeGapUp : detail::kCodeGapLevel2;
      if (!code) continue;
      const int reach = dir < 8 ? 1 : dir < 20 ? 2 : 3, d = dir < 8 ? dir : (dir - 8) & 3;
      const CellPos t{a.x + reach * detail::kDirDx[d], a.y + detail::kMoveCodes[code].dy,
                   a.z + reach * detail::kDirDz[d]};
      if (!(t == b)) continue;
      if (detail::kMoveCodes[code].kind != r.kinds[i + 1])
        return "step " + std::to_string(i) + " " + str(a) + "->" + str(b) + " has kind " +
               edge_kind_name(r.kinds[i + 1]) + " but the move word says " +
               edge_kind_name(detail::kMoveCodes[code].kind);
      cost += detail::move_cost(costs, d, code, grid.kind(b));
      found = true;
    }
    if (!found)
      return "step " + std::to_string(i) + " " + str(a) + "->" + str(b) + " is not a move";
  }
  if (cost != r.cost)
    return "reported cost " + std::to_string(r.cost) + " but its moves cost " +
           std::to_string(cost);
  return {};
}

/// (d): string pulling of a valid path.
std::string validate_corridor(const NavGrid& grid, const detail::SearchResult& r,
                              std::size_t* level_pairs, std::size_t* waypoints) {
  std::vector<Waypoint> pts;
  detail::string_pull(grid, r.cells, r.kinds, pts);
  *waypoints += pts.size();
  if (pts.empty()) return "no waypoints";
  if (!(pts.front().cell == r.cells.front())) return "first waypoint is not the start";
  if (!(pts.back().cell == r.cells.back())) return "last waypoint is not the goal";
  if (pts.front().kind != EdgeKind::Start) return "first waypoint kind is not Start";
  std::size_t idx = 0;  // index into r.cells of the previous waypoint
  for (std::size_t k = 0; k < pts.size(); ++k) {
    const Waypoint& w = pts[k];
    // (the start is where the body is: any node, a damage cell an edit lit under it too)
    if (k == 0 ? !grid.node(w.cell) : !grid.standable(w.cell))
      return "waypoint " + std::to_string(k) + " " + str(w.cell) + " is not standable (kind " +
             std::to_string(static_cast<int>(grid.kind(w.cell))) + ")";
    const Waypoint expect = detail::waypoint_of(grid, w.cell, w.kind);
    if (w.position.x != expect.position.x || w.position.y != expect.position.y ||
        w.position.z != expect.position.z)
      return "waypoint " + std::to_string(k) + " position is not the cell's feet position";
    std::size_t j = k == 0 ? 0 : idx + 1;
    while (j < r.cells.size() && !(r.cells[j] == w.cell)) ++j;
    if (j == r.cells.size())
      return "waypoint " + std::to_string(k) + " " + str(w.cell) + " is not on the path (in order)";
    if (k > 0 && w.kind != r.kinds[j])
      return "waypoint " + std::to_string(k) + " kind " + edge_kind_name(w.kind) +
             " differs from the path's " + edge_kind_name(r.kinds[j]);
    if (k > 0 && w.kind == EdgeKind::Walk && w.cell.y == pts[k - 1].cell.y) {
      ++*level_pairs;
      if (!detail::line_walkable_level(grid, pts[k - 1].cell, w.cell))
        return "level waypoints " + std::to_string(k - 1) + " " + str(pts[k - 1].cell) + " -> " +
               str(w.cell) + " (path steps " + std::to_string(idx) + ".." + std::to_string(j) +
               ") are not line_walkable_level";
    }
    idx = j;
  }
  return {};
}

PathTally check_paths(RegionWorld& rw, Oracle& o,
                      const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  PathTally t;
  const detail::CostTable costs;
  for (const auto& [s, g] : pairs) {
    detail::RequestSpec spec;
    spec.start = o.cell(s);
    spec.goal = o.cell(g);
    spec.max_nodes = 50000000;
    spec.costs = costs;
    const detail::SearchResult r = rw.nav().search_now(spec);
    ++t.paths;
    t.expanded += r.expanded;
    if (r.outcome != detail::SearchOutcome::Found) {
      if (t.not_found++ < 5)
        ADD_FAILURE() << "A* found no path " << str(spec.start) << " -> " << str(spec.goal)
                      << " (outcome " << static_cast<int>(r.outcome)
                      << ") though BFS and reachable say yes";
      continue;
    }
    const std::string bad = validate_path(rw.grid(), r, spec.start, spec.goal, costs);
    if (!bad.empty()) {
      if (t.invalid++ < 5)
        ADD_FAILURE() << "path " << str(spec.start) << " -> " << str(spec.goal) << ": " << bad;
      continue;
    }
    const std::uint64_t best = o.dijkstra(s, g, costs);
    if (best != r.cost) {
      if (t.cost_mismatch++ < 5)
        ADD_FAILURE() << "path " << str(spec.start) << " -> " << str(spec.goal) << ": A* cost "
                      << r.cost << ", Dijkstra " << best;
    }
    const std::string cbad = validate_corridor(rw.grid(), r, &t.level_pairs, &t.waypoints);
    if (!cbad.empty()) {
      if (t.corridor_bad++ < 5)
        ADD_FAILURE() << "corridor " << str(spec.start) << " -> " << str(spec.goal) << ": " << cbad;
    }
    t.cells.push_back(r.cells);
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// (c) incremental layers vs a fresh build.

struct GridDiff {
  std::size_t chunks = 0, cells_compared = 0, kind = 0, floor = 0, moves = 0, missing = 0;
  std::vector<std::string> first;
};

GridDiff compare_grids(const NavGrid& inc, const NavGrid& fresh,
                       const std::vector<ChunkPos>& only) {
  GridDiff d;
  auto floor_of = [](const NavChunk* c, int i) {
    return c->uniform ? 0 : static_cast<int>(c->floor[i]);
  };
  for (const ChunkPos& p : only) {
    const NavChunk* a = inc.chunk(p);
    const NavChunk* b = fresh.chunk(p);
    if (!a || !b) {
      if (a != b) ++d.missing;
      continue;
    }
    ++d.chunks;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      ++d.cells_compared;
      const bool kd = a->kind_at(i) != b->kind_at(i);
      const bool standable = detail::kind_standable(a->kind_at(i));
      const bool fd = standable && floor_of(a, i) != floor_of(b, i);
      const bool md = a->moves_at(i) != b->moves_at(i);
      d.kind += kd;
      d.floor += fd;
      d.moves += md;
      if ((kd || fd || md) && d.first.size() < 8) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "%s: kind %d/%d floor %d/%d moves %08x/%08x (incremental/fresh)",
                      str(detail::cell_of(a, i)).c_str(), static_cast<int>(a->kind_at(i)),
                      static_cast<int>(b->kind_at(i)), floor_of(a, i), floor_of(b, i),
                      a->moves_at(i), b->moves_at(i));
        d.first.push_back(buf);
      }
    }
  }
  return d;
}

// ---------------------------------------------------------------------------------------------

using RegionCase = test::SharedRegion;
constexpr const auto& kRegions = test::kSharedRegions;

class NavInvariants : public ::testing::TestWithParam<RegionCase> {};

TEST_P(NavInvariants, ReachabilityPathsCorridorsAndEdits) {
  const auto t_start = std::chrono::steady_clock::now();
  auto rw = load_region(kShared + GetParam().file);
  ASSERT_TRUE(rw);
  const NavGrid& grid = rw->grid();
  auto t0 = std::chrono::steady_clock::now();
  auto oracle = std::make_unique<Oracle>(grid);
  const double oracle_s = seconds_since(t0);
  ASSERT_GT(oracle->size(), 10000u) << "suspiciously few standable cells";
  // The oracle holds every node cell, each on an island; the stats count the standable ones.
  EXPECT_EQ(oracle->size(), detail::WorldAccess::state(*rw->world).walker()->islands().cell_count());
  EXPECT_EQ(test::standable_cells(grid).size(), rw->world->stats().standable_cells);
  expect_oracle_sound(*oracle);
  std::printf(
      "[%s] %zu chunks loaded (load %.2f s), nav build %.2f s: %zu standable cells, %zu moves "
      "(%zu gap jumps), %llu islands (oracle %.2f s)\n",
      GetParam().name, rw->report.chunks_loaded, rw->load_s, rw->nav_s, oracle->size(),
      oracle->edge_count(), oracle->gap_moves(),
      static_cast<unsigned long long>(rw->world->stats().islands), oracle_s);
  // Real terrain has gaps a walker jumps: the class's navigation must hold some.
  EXPECT_GT(oracle->gap_moves(), 0u);

  // (a) reachability vs BFS.
  std::uint64_t seed = 0x5EED0000u;
  for (const char* n = GetParam().name; *n; ++n) seed = seed * 131 + static_cast<unsigned char>(*n);
  Rng rng(seed);
  t0 = std::chrono::steady_clock::now();
  const std::vector<std::uint32_t> sources = pick_sources(*oracle, 60, 40, rng);
  PairTally a = check_reachability(*rw, *oracle, sources, 40, 20, rng);
  EXPECT_EQ(a.mismatches, 0u);
  EXPECT_EQ(a.unknown, 0u);
  EXPECT_GE(a.pairs, 2500u);
  EXPECT_GT(a.yes, a.pairs / 4) << "too few Yes pairs to mean anything";
  EXPECT_GT(a.no, 0u);
  std::printf(
      "[%s] (a) %zu pairs (%zu within 32 cells): %zu yes, %zu no, %zu gated, %zu unknown, %zu "
      "mismatches (%.2f s)\n",
      GetParam().name, a.pairs, a.near_pairs, a.yes, a.no, a.gated, a.unknown, a.mismatches,
      seconds_since(t0));

  // (b) + (d): A* paths vs Dijkstra, corridors. Mostly near pairs, a few far ones.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> path_pairs;
  for (std::size_t i = 0; i < a.yes_near.size() && path_pairs.size() < 300; i += 3)
    path_pairs.push_back(a.yes_near[i]);
  for (std::size_t i = 0; i < a.yes_far.size() && i < 12; ++i) path_pairs.push_back(a.yes_far[i]);
  t0 = std::chrono::steady_clock::now();
  PathTally b = check_paths(*rw, *oracle, path_pairs);
  EXPECT_GE(b.paths, 200u);
  EXPECT_EQ(b.not_found + b.invalid + b.cost_mismatch + b.corridor_bad, 0u);
  std::printf(
      "[%s] (b) %zu paths (%zu far), %llu nodes expanded: %zu not found, %zu invalid, %zu cost "
      "mismatches; "
      "(d) %zu waypoints, %zu level pairs, %zu bad corridors (%.2f s)\n",
      GetParam().name, b.paths, std::min<std::size_t>(a.yes_far.size(), 12),
      static_cast<unsigned long long>(b.expanded), b.not_found, b.invalid, b.cost_mismatch,
      b.waypoints, b.level_pairs, b.corridor_bad, seconds_since(t0));

  // (c) random edits near the paths, in three styles: one edit per update, a burst of edits and
  // one update, and bursts of ten.
  ASSERT_FALSE(b.cells.empty());
  std::uint16_t stone = 0;
  ASSERT_EQ(rw->world->block_value("stone", &stone), Status::Ok);
  const std::uint16_t air = 0;
  std::vector<CellPos> edited;
  std::size_t edits = 0, rejected = 0;
  auto one_edit = [&]() {
    const std::vector<CellPos>& path = b.cells[rng.below(static_cast<std::uint32_t>(b.cells.size()))];
    const CellPos c = path[rng.below(static_cast<std::uint32_t>(path.size()))];
    Status s = Status::Ok;
    CellPos touched = c;
    switch (rng.below(7)) {
      case 0:
        s = rw->world->set_block(pos(c), stone);
        break;  // block the feet cell
      case 1:
        touched = {c.x, c.y - 1, c.z};
        s = rw->world->set_block(pos(touched), air);
        break;  // hole in the floor
      case 2:
        touched = {c.x, c.y + 1, c.z};
        s = rw->world->set_block(pos(touched), stone);
        break;   // low ceiling
      case 3: {  // wall beside the path
        const int d = rng.range(0, 3);
        touched = {c.x + detail::kDirDx[d], c.y, c.z + detail::kDirDz[d]};
        s = rw->world->set_block(pos(touched), stone);
        break;
      }
      case 4:  // a step up on the path
        touched = {c.x, c.y, c.z};
        s = rw->world->set_box(pos(c), pos(c), stone);
        break;
      case 5: {  // a 3x2x3 pit
        touched = {c.x, c.y - 2, c.z};
        s = rw->world->set_box(CellPos{c.x - 1, c.y - 2, c.z - 1},
                               CellPos{c.x + 1, c.y - 1, c.z + 1}, air);
        break;
      }
      default: {  // a 3x3x1 slab of stone at head height, or clearing it
        touched = {c.x, c.y + 1, c.z};
        s = rw->world->set_box(CellPos{c.x - 1, c.y + 1, c.z - 1},
                               CellPos{c.x + 1, c.y + 1, c.z + 1}, rng.below(2) ? stone : air);
        break;
      }
    }
    if (s == Status::Ok) {
      ++edits;
      edited.push_back(touched);
    } else {
      ++rejected;
    }
  };
  t0 = std::chrono::steady_clock::now();
  const std::uint64_t epoch0 = rw->world->nav_epoch();
  // Every update rebuilds the islands: slow under the sanitizers.
  const int singles = test::sanitized_build() ? 15 : 60, bursts = test::sanitized_build() ? 4 : 10;
  int updates = 0;
  for (int i = 0; i < singles; ++i) {
    one_edit();
    rw->world->update();
    ++updates;
  }
  for (int i = 0; i < 150; ++i) one_edit();
  rw->world->update();
  ++updates;
  for (int r = 0; r < bursts; ++r) {
    for (int i = 0; i < 10; ++i) one_edit();
    rw->world->update();
    ++updates;
  }
  const double edit_s = seconds_since(t0);
  EXPECT_GT(rw->world->nav_epoch(), epoch0);
  EXPECT_GE(edits, 200u);

  // (a) again on the edited world: sources near the edits and random ones.
  oracle = std::make_unique<Oracle>(rw->grid());
  expect_oracle_sound(*oracle);
  std::vector<std::uint32_t> sources2;
  for (std::size_t i = 0; i < edited.size() && sources2.size() < 30; i += 7) {
    const std::vector<std::uint32_t> n = oracle->near(edited[i], 3);
    if (!n.empty()) sources2.push_back(n[rng.below(static_cast<std::uint32_t>(n.size()))]);
  }
  for (std::uint32_t s : pick_sources(*oracle, 20, 10, rng)) sources2.push_back(s);
  PairTally a2 = check_reachability(*rw, *oracle, sources2, 40, 20, rng);
  EXPECT_EQ(a2.mismatches, 0u);
  EXPECT_EQ(a2.unknown, 0u);
  // and (b) on a few of the new Yes pairs (paths through the edited areas).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pp2;
  for (std::size_t i = 0; i < a2.yes_near.size() && pp2.size() < 60; i += 5)
    pp2.push_back(a2.yes_near[i]);
  PathTally b2 = check_paths(*rw, *oracle, pp2);
  EXPECT_EQ(b2.not_found + b2.invalid + b2.cost_mismatch + b2.corridor_bad, 0u);

  // Incremental layers vs a fresh World built from the edited blocks: every chunk within reach of
  // an edit (the touched chunks and their neighbours), then every chunk of the space.
  t0 = std::chrono::steady_clock::now();
  ProfileId fresh_pid;
  auto fresh = fresh_copy(*rw->world, &fresh_pid);
  const double fresh_s = seconds_since(t0);
  std::vector<ChunkPos> touched;
  for (const CellPos& c : edited) {
    const ChunkPos p = detail::chunk_of(c);
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) touched.push_back({p.x + dx, p.y + dy, p.z + dz});
  }
  std::sort(touched.begin(), touched.end(),
            [](const ChunkPos& l, const ChunkPos& r) {
              return detail::chunk_key(l) < detail::chunk_key(r);
            });
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  const NavGrid& fgrid = detail::WorldAccess::state(*fresh).walker()->grid();
  const GridDiff d = compare_grids(rw->grid(), fgrid, touched);
  EXPECT_EQ(d.kind + d.floor + d.moves + d.missing, 0u)
      << "incremental layers differ from a fresh build, e.g. "
      << (d.first.empty() ? "" : d.first[0]);
  for (std::size_t i = 1; i < d.first.size(); ++i) std::printf("  diff %s\n", d.first[i].c_str());
  std::vector<ChunkPos> all;
  for (const NavChunk* ch : fgrid.ordered_chunks()) all.push_back(ch->pos);
  EXPECT_EQ(rw->grid().chunk_count(), fgrid.chunk_count());
  const GridDiff dall = compare_grids(rw->grid(), fgrid, all);
  EXPECT_EQ(dall.kind + dall.floor + dall.moves + dall.missing, 0u)
      << "incremental layers differ from a fresh build, e.g. "
      << (dall.first.empty() ? "" : dall.first[0]);
  EXPECT_EQ(rw->world->stats().standable_cells, fresh->stats().standable_cells);
  EXPECT_EQ(rw->world->stats().islands, fresh->stats().islands);
  // Reachability of the incremental world equals that of the fresh one on the same pairs.
  std::size_t reach_diff = 0;
  for (std::uint32_t s : sources2)
    for (std::uint32_t g : oracle->near(oracle->cell(s), 6)) {
      const Reach x = rw->world->reachable(rw->pid, pos(oracle->cell(s)), pos(oracle->cell(g)));
      const Reach y = fresh->reachable(fresh_pid, pos(oracle->cell(s)), pos(oracle->cell(g)));
      reach_diff += x.answer != y.answer;
    }
  EXPECT_EQ(reach_diff, 0u);
  std::printf(
      "[%s] (c) %zu edits (%zu rejected), %d updates in %.2f s; after: %zu pairs, %zu yes, %zu no, "
      "%zu unknown, "
      "%zu mismatches; %zu paths re-checked; layers vs fresh build (%.2f s): %zu touched chunks + "
      "%zu total, "
      "%zu cells, %zu kind / %zu floor / %zu move diffs\n",
      GetParam().name, edits, rejected, updates, edit_s, a2.pairs, a2.yes, a2.no, a2.unknown,
      a2.mismatches, b2.paths, fresh_s, d.chunks, dall.chunks, dall.cells_compared, dall.kind,
      dall.floor, dall.moves);

  // Chunk unload and reload (Load / Unload changes): unload two chunks holding path cells; cells
  // there answer Unknown(NotLoaded), the rest still agrees with the BFS and with a fresh build;
  // reloading the saved blocks gives the same layers as a fresh build again.
  std::vector<std::pair<ChunkPos, std::vector<std::uint16_t>>> saved;
  std::vector<CellPos> probe;  // a standable cell in each unloaded chunk
  for (int k = 0; k < 8 && saved.size() < 2; ++k) {
    const std::vector<CellPos>& path = b.cells[rng.below(static_cast<std::uint32_t>(b.cells.size()))];
    const CellPos c = path[path.size() / 2];
    if (!rw->grid().standable(c)) continue;
    const ChunkPos p = detail::chunk_of(c);
    bool dup = false;
    for (const auto& sv : saved) dup = dup || sv.first == p;
    if (dup) continue;
    const detail::Chunk* ch = detail::WorldAccess::state(*rw->world).space.chunk(p);
    ASSERT_NE(ch, nullptr);
    std::vector<std::uint16_t> values(detail::kChunkCells);
    for (int i = 0; i < detail::kChunkCells; ++i) values[static_cast<std::size_t>(i)] = ch->get(i);
    saved.push_back({p, std::move(values)});
    probe.push_back(c);
    ASSERT_EQ(rw->world->unload_chunk(ChunkPos{p.x, p.y, p.z}), Status::Ok);
  }
  ASSERT_FALSE(saved.empty());
  rw->world->update();
  for (const CellPos& c : probe) {
    const Reach r = rw->world->reachable(rw->pid, pos(c), pos(c));
    EXPECT_EQ(r.answer, ReachAnswer::Unknown);
    EXPECT_EQ(r.reason, ReachReason::NotLoaded);
  }
  oracle = std::make_unique<Oracle>(rw->grid());
  expect_oracle_sound(*oracle);
  std::vector<std::uint32_t> sources3;
  for (const CellPos& c : probe)
    for (std::uint32_t v : oracle->near(c, 20))
      if (sources3.size() < 20 && rng.below(8) == 0) sources3.push_back(v);
  PairTally a3 = check_reachability(*rw, *oracle, sources3, 40, 10, rng);
  EXPECT_EQ(a3.mismatches + a3.unknown, 0u);
  ProfileId pid3;
  auto fresh3 = fresh_copy(*rw->world, &pid3);
  const NavGrid& fgrid3 = detail::WorldAccess::state(*fresh3).walker()->grid();
  std::vector<ChunkPos> all3;
  for (const NavChunk* ch : fgrid3.ordered_chunks()) all3.push_back(ch->pos);
  EXPECT_EQ(rw->grid().chunk_count(), fgrid3.chunk_count());
  const GridDiff d3 = compare_grids(rw->grid(), fgrid3, all3);
  EXPECT_EQ(d3.kind + d3.floor + d3.moves + d3.missing, 0u)
      << "after unload: incremental layers differ from a fresh build, e.g. "
      << (d3.first.empty() ? "" : d3.first[0]);
  for (const auto& [p, values] : saved)
    ASSERT_EQ(rw->world->load_chunk(ChunkPos{p.x, p.y, p.z}, values), Status::Ok);
  rw->world->update();
  const GridDiff d4 = compare_grids(rw->grid(), fgrid, all);
  EXPECT_EQ(rw->grid().chunk_count(), fgrid.chunk_count());
  EXPECT_EQ(d4.kind + d4.floor + d4.moves + d4.missing, 0u)
      << "after reload: incremental layers differ from a fresh build, e.g. "
      << (d4.first.empty() ? "" : d4.first[0]);
  EXPECT_EQ(rw->world->stats().islands, fresh->stats().islands);
  std::printf(
      "[%s] unload %zu chunks: %zu pairs, %zu yes, %zu mismatches, %zu diffs vs fresh; reload: %zu "
      "diffs\n",
      GetParam().name, saved.size(), a3.pairs, a3.yes, a3.mismatches,
      d3.kind + d3.floor + d3.moves + d3.missing, d4.kind + d4.floor + d4.moves + d4.missing);
  std::printf("[%s] total %.2f s\n", GetParam().name, seconds_since(t_start));
}

INSTANTIATE_TEST_SUITE_P(Regions, NavInvariants, ::testing::ValuesIn(kRegions),
                         [](const ::testing::TestParamInfo<RegionCase>& i) {
                           return std::string(i.param.name);
                         });

}  // namespace
}  // namespace voxnav
