// The moves leaving one node cell with the integer cost the A* search (engine/search/astar.cpp)
// gives them for a cost table: the move words, ladder moves and gap jumps, the target kind's
// extra, the surface cost, the profile's step and jump limits and its max drop. One reading of
// the search's rules for the flow fields and their tests, kept beside the search's own code.
#pragma once
#include <cstdint>

#include "engine/classify/nav_grid.h"
#include "engine/search/astar.h"

namespace voxnav::detail {

/// The cost table compiled for one grid, as AStar::set_costs compiles it.
class MoveCosts {
 public:
  MoveCosts(const NavGrid& grid, const CostTable& c) : costs_(c) {
    CostTable base = c;
    base.kind_extra.fill(0);
    for (int dir = 0; dir < 8; ++dir)
      for (int code = 0; code < 16; ++code) {
        std::uint32_t& m = word_[dir * 16 + code];
        m = kCostImpassable;
        if (code == 0) continue;
        const MoveCode mc = kMoveCodes[code];
        if (mc.kind == EdgeKind::Drop && -mc.dy > c.max_drop) continue;
        m = move_cost(base, dir, code, CellKind::Walkable);
      }
    for (int d = 0; d < 4; ++d)
      for (int v = 0; v < kGapVariants; ++v)
        gap_[d * kGapVariants + v] = move_cost(base, d, kGapCode[v], CellKind::Walkable);
    const ClassEnvelope& env = grid.envelope();
    step_q_ = std::min<int>(c.step_q, env.step_q);
    jump_q_ = std::min<int>(c.jump_q, env.jump_q);
    class_step_q_ = env.step_q;
    limits_ = step_q_ < env.step_q || jump_q_ < env.jump_q;
    gap_cells_ = std::min<int>(c.gap_reach, env.gap_reach);
    swimmer_ = env.swimmer;
  }

  /// Calls f(target chunk, target index, dx, dy, dz, cost, edge kind) for every move of node cell
  /// `i` of chunk `ch` that the search would take (finite cost), in the search's order: ladder
  /// moves, gap jumps, then the move word's directions.
  template <class F>
  void for_each(NavChunk* ch, int i, F&& f) const {
    if (ch->uniform) return;
    const int lx = i & 15, lz = (i >> 4) & 15, ly = i >> 8;
    const std::uint32_t* kx = costs_.kind_extra.data();
    const std::array<std::int32_t, 256>* surf = costs_.surface.get();
    auto kind_of = [&](const NavChunk* tc, int ti) {
      return static_cast<int>(tc->kind_at(ti)) & 15;
    };
    auto rises_too_high = [&](EdgeKind kind, int dy, const NavChunk* tc, int ti) {
      const int rise = dy * kHeightUnits + tc->floor[ti] - ch->floor[i];
      return rise_refused(kind, rise, step_q_, jump_q_, class_step_q_);
    };
    if (const std::uint8_t vm = ch->vmoves_at(i)) {
      for (int b = 0; b < 2; ++b) {
        if (!(vm & (b == 0 ? kMoveUp : kMoveDown))) continue;
        int ti = 0;
        NavChunk* tc = step_chunk(ch, lx, ly + (b == 0 ? 1 : -1), lz, ti);
        if (!tc) continue;
        const std::uint32_t extra = tc->uniform ? 0u : kx[kind_of(tc, ti)];
        if (extra == kCostImpassable) continue;
        std::uint32_t cost = costs_.climb_cost + extra;
        if (surf && tc->surface) {
          cost = with_surface(cost, costs_.climb_cost, (*surf)[tc->surface[ti]]);
          if (cost == kCostImpassable) continue;
        }
        f(tc, ti, 0, b == 0 ? 1 : -1, 0, cost, swimmer_ ? EdgeKind::Swim : EdgeKind::Climb);
      }
    }
    if (gap_cells_ > 0) {
      if (const GapWord gm = ch->gaps_at(i)) {
        for (int d = 0; d < 4; ++d)
          for (int v = 0; v < kGapVariants; ++v) {
            if (!(gm & (kGapBit[v] << d)) || kGapCells[v] > gap_cells_) continue;
            const int reach = kGapCells[v] + 1;
            const int dx = reach * kDirDx[d], dz = reach * kDirDz[d], dy = kGapDy[v];
            int ti = 0;
            NavChunk* tc = step_chunk(ch, lx + dx, ly + dy, lz + dz, ti);
            if (!tc || tc->uniform) continue;
            const std::uint32_t extra = kx[kind_of(tc, ti)];
            if (extra == kCostImpassable) continue;
            const std::uint32_t own = gap_[d * kGapVariants + v];
            std::uint32_t cost = own + extra;
            if (surf && tc->surface) {
              cost = with_surface(cost, own, (*surf)[tc->surface[ti]]);
              if (cost == kCostImpassable) continue;
            }
            if (limits_ && rises_too_high(EdgeKind::GapJump, dy, tc, ti)) continue;
            f(tc, ti, dx, dy, dz, cost, EdgeKind::GapJump);
          }
      }
    }
    std::uint32_t word = ch->moves[i];
    while (word) {
      const int shift = __builtin_ctz(word) & ~3;
      const int dir = shift >> 2;
      const int code = static_cast<int>((word >> shift) & 15u);
      word &= ~(15u << shift);
      const std::uint32_t own = word_[dir * 16 + code];
      if (own == kCostImpassable) continue;
      const MoveCode mc = kMoveCodes[code];
      const int dx = kDirDx[dir], dz = kDirDz[dir], dy = mc.dy;
      int ti = 0;
      NavChunk* tc = step_chunk(ch, lx + dx, ly + dy, lz + dz, ti);
      if (!tc) continue;
      const std::uint32_t extra = kx[kind_of(tc, ti)];
      if (extra == kCostImpassable) continue;
      std::uint32_t cost = own + extra;
      if (surf && tc->surface) {
        cost = with_surface(cost, own, (*surf)[tc->surface[ti]]);
        if (cost == kCostImpassable) continue;
      }
      if (limits_ && !tc->uniform && rises_too_high(mc.kind, dy, tc, ti)) continue;
      f(tc, ti, dx, dy, dz, cost, swimmer_ ? EdgeKind::Swim : mc.kind);
    }
  }

 private:
  CostTable costs_;
  std::uint32_t word_[128];
  std::uint32_t gap_[4 * kGapVariants];
  int step_q_ = 0, jump_q_ = 0, class_step_q_ = 0;
  int gap_cells_ = 0;  // the longest gap jump taken, cells of air (0: none)
  bool limits_ = false, swimmer_ = false;
};

}  // namespace voxnav::detail
