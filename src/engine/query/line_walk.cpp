#include "engine/query/line_walk.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "engine/corridor/corridor.h"
#include "engine/integrate/integrate.h"

namespace voxnav::detail {

namespace {

int feet_q(const NavGrid& grid, CellPos c) { return c.y * kHeightUnits + grid.floor_q(c); }

/// The profile may enter cell `c` (a node of the grid): its kind is not impassable and its
/// surface is not excluded.
bool enterable(const NavGrid& grid, const CostTable& costs, CellPos c) {
  const CellKind k = grid.kind(c);
  if (costs.kind_extra[static_cast<std::size_t>(k)] == kCostImpassable) return false;
  if (costs.surface) {
    const NavChunk* ch = grid.chunk(chunk_of(c));
    if (!ch || ch->uniform) return false;
    if (ch->surface && (*costs.surface)[ch->surface[index_in_chunk(c)]] == kSurfaceExcluded)
      return false;
  }
  return true;
}

/// Free height above the feet of a cell (its floor; a cell's bottom when nothing supports it),
/// 1/64 cells, capped at 255.
int clear_q(const NavGrid& grid, CellPos c) {
  const NavChunk* ch = grid.chunk(chunk_of(c));
  if (!ch) return 0;
  if (ch->uniform) return grid.kind(c) == CellKind::Air ? 255 : 0;
  return ch->clear[index_in_chunk(c)];
}

/// A fall after a drop or a step down: the columns the body reaches over the samples
/// [from, until] must be open air over rows lo..hi, free up to the body's top (it is still
/// coming down through them), but for the column it fell from.
struct Fall {
  int from = 0, until = -1;
  int lo = 0, hi = -1;
  int top = 0;  ///< free height row `hi` needs from its bottom: the body's top at the take-off
  int src_x = 0, src_z = 0;
};

}  // namespace

bool line_walkable_cells(const NavGrid& grid, const CostTable& costs, CellPos a, CellPos b,
                         double speed, double gravity) {
  if (!grid.standable(a) || !grid.standable(b)) return false;
  if (!enterable(grid, costs, a) || !enterable(grid, costs, b)) return false;
  if (a == b) return true;
  const ClassEnvelope& env = grid.envelope();
  const int step = std::min<int>(env.step_q, costs.step_q);
  const int hl = env.line_lo_q(), hh = env.line_hi_q();
  // Samples of the centre line in foot-cell space, 1/64 cells, every 1/8 cell along the longer
  // axis (as line_walkable_level): sample s at a + d * s / n.
  const int dx = (b.x - a.x) * 64, dz = (b.z - a.z) * 64;
  const int adx = std::abs(dx), adz = std::abs(dz);
  const int n = std::max(adx, adz) / 8 + 1;
  const int x0 = a.x * 64 + 32, z0 = a.z * 64 + 32;
  auto sample = [&](int s, int& px, int& pz) {
    // |d| * s / n, truncated (integer exact)
    const int ox = static_cast<int>(static_cast<long long>(adx) * s / n);
    const int oz = static_cast<int>(static_cast<long long>(adz) * s / n);
    px = dx < 0 ? x0 - ox : x0 + ox;
    pz = dz < 0 ? z0 - oz : z0 + oz;
  };
  // Pass 1: the chain of cells the centre crosses, each entered by a move of the grid.
  std::vector<CellPos> chain{a};
  std::vector<int> enter{0};
  std::vector<Fall> falls;
  const double per_sample = std::sqrt(static_cast<double>(dx) * dx + static_cast<double>(dz) * dz) /
                            64.0 / static_cast<double>(n);
  for (int s = 1; s <= n; ++s) {
    int px, pz;
    sample(s, px, pz);
    const CellPos& cur = chain.back();
    const int cx = px >> 6, cz = pz >> 6;
    if (cx == cur.x && cz == cur.z) continue;
    const int ddx = cx - cur.x, ddz = cz - cur.z;
    int dir = -1;
    for (int d = 0; d < 8; ++d)
      if (kDirDx[d] == ddx && kDirDz[d] == ddz) dir = d;
    if (dir < 0) return false;
    const int code = move_code(grid.moves(cur), dir);
    if (code == 0) return false;
    const MoveCode mc = kMoveCodes[code];
    if (dir >= 4 && code != 1) return false;  // diagonals: level walks only
    const bool drop = mc.kind == EdgeKind::Drop;
    if (mc.kind != EdgeKind::Walk && mc.kind != EdgeKind::StepUp &&
        mc.kind != EdgeKind::StepDown && !drop)
      return false;
    if (drop && -mc.dy > costs.max_drop) return false;
    const CellPos next{cx, cur.y + mc.dy, cz};
    if (!grid.standable(next) || !enterable(grid, costs, next)) return false;
    const int rise = feet_q(grid, next) - feet_q(grid, cur);
    if (rise > step) return false;
    if (rise < 0) {
      // Coming down: the body leaves the edge when its footprint has passed it and falls for
      // sqrt(2 h / g) while it keeps walking; the columns it reaches meanwhile must be open over
      // the rows it falls through (and the one above when it stood on a raised floor).
      const double h = -rise / static_cast<double>(kHeightUnits);
      const double reach = speed * std::sqrt(2.0 * h / gravity) + (hl + hh) / 64.0 + 0.5;
      Fall f;
      f.from = s;
      f.until = s + static_cast<int>(std::ceil(reach / per_sample));
      f.lo = next.y + 1;
      f.hi = cur.y;
      f.top = grid.floor_q(cur) + env.height_q + 1;
      f.src_x = cur.x;
      f.src_z = cur.z;
      if (f.hi >= f.lo) falls.push_back(f);
    }
    chain.push_back(next);
    enter.push_back(s);
  }
  if (!(chain.back() == b)) return false;  // ended on another level of b's column
  // The footprint judged in pass 2 is wider than the envelope's: by 2/64 (the body's half width
  // 0.3 against the envelope's 19/64, the samples' truncation, and a body touching a box stops
  // against it), and along each axis by one step's displacement on it, since the movement step
  // sweeps x with z still where it was and z with x already moved: a diagonal walk brushes
  // corners a straight line would clear.
  // The lag is one-sided: while x moves the body is behind the line along z (the side z comes
  // from), while z moves it is ahead along x (the side x goes to).
  const double len_cells =
      std::sqrt(static_cast<double>(dx) * dx + static_cast<double>(dz) * dz) / 64.0;
  const double tick_move = speed * kSimulationTick / len_cells;
  const int lag_x = static_cast<int>(std::ceil(tick_move * adx));  // (adx: 1/64 cells)
  const int lag_z = static_cast<int>(std::ceil(tick_move * adz));
  const int xlo = hl + 2 + (dx < 0 ? lag_x : 0), xhi = hh + 2 + (dx > 0 ? lag_x : 0);
  const int zlo = hl + 2 + (dz > 0 ? lag_z : 0), zhi = hh + 2 + (dz < 0 ? lag_z : 0);
  // Pass 2: every column the footprint reaches. A column of the centre's cell or of the cell
  // before or after it in the chain is judged by the move between them; any other must be
  // standable at the centre's level within a step of its floor, and open over any fall.
  std::size_t j = 0;
  int lxl = INT32_MIN, lxh = INT32_MIN, lzl = INT32_MIN, lzh = INT32_MIN;
  std::size_t lj = static_cast<std::size_t>(-1);
  for (int s = 0; s <= n; ++s) {
    while (j + 1 < chain.size() && enter[j + 1] <= s) ++j;
    int px, pz;
    sample(s, px, pz);
    const int xl = (px - xlo) >> 6, xh = (px + xhi) >> 6;
    const int zl = (pz - zlo) >> 6, zh = (pz + zhi) >> 6;
    bool in_fall = false;
    for (const Fall& f : falls) in_fall = in_fall || (s >= f.from && s <= f.until);
    if (!in_fall && j == lj && xl == lxl && xh == lxh && zl == lzl && zh == lzh) continue;
    lxl = xl, lxh = xh, lzl = zl, lzh = zh, lj = j;
    const CellPos& c = chain[j];
    const int cf = grid.floor_q(c);
    const int cols[4][2] = {{xl, zl}, {xh, zl}, {xl, zh}, {xh, zh}};
    for (const auto& col : cols) {
      const int x = col[0], z = col[1];
      for (const Fall& f : falls) {
        if (s < f.from || s > f.until || (x == f.src_x && z == f.src_z)) continue;
        // Every row it falls through is unsupported air, free up to the body's top as it
        // was when it walked off (the free height is read from each row's bottom, capped).
        for (int r = f.lo; r <= f.hi; ++r) {
          const CellPos o{x, r, z};
          const int need = std::min(255, (f.hi - r) * kHeightUnits + f.top);
          if (grid.kind(o) != CellKind::Air || clear_q(grid, o) < need) return false;
        }
      }
      auto chained = [&](std::size_t k) { return chain[k].x == x && chain[k].z == z; };
      if (chained(j) || (j > 0 && chained(j - 1)) || (j + 1 < chain.size() && chained(j + 1)))
        continue;
      // Beside the centre's column: open air at its level, clear up to the body's top (the
      // body overhangs an edge, held by the floor under its centre), or ground within a step of
      // its floor.
      const CellPos o{x, c.y, z};
      if (any_wall(grid.sides(o))) return false;  // crossed by the grid's own moves only
      if (grid.kind(o) == CellKind::Air && clear_q(grid, o) >= cf + env.height_q + 1) continue;
      if (!grid.standable(o) || std::abs(grid.floor_q(o) - cf) > step ||
          !enterable(grid, costs, o))
        return false;
    }
  }
  return true;
}

std::uint64_t travel_cost_bound(const NavGrid& grid, const CostTable& costs, CellPos a,
                                CellPos b) {
  const std::uint64_t flat = octile(std::abs(b.x - a.x), std::abs(b.z - a.z));
  const ClassEnvelope& env = grid.envelope();
  std::uint64_t vertical = 0;
  if (!env.swimmer) {
    const int fa = grid.standable(a) ? feet_q(grid, a) : a.y * kHeightUnits;
    const int fb = grid.standable(b) ? feet_q(grid, b) : b.y * kHeightUnits;
    const int rise = fb - fa;
    const bool climbs =
        costs.kind_extra[static_cast<std::size_t>(CellKind::Climbable)] != kCostImpassable;
    // The cheapest cost per 1/64 cell of rise or fall any move achieves (cost units, double):
    // a step (at most step_q up, a straight cell's cost at least), a jump (jump_q, plus
    // jump_extra), a ladder; down a walk or step (under two cells of fall, a cell's cost), a
    // drop of k cells (under k + 1 cells of fall, a cell's cost plus k drop_extra) or a ladder.
    const int step = std::max(1, std::min<int>(env.step_q, costs.step_q));
    const int jump = std::max(step, std::min<int>(env.jump_q, costs.jump_q));
    double up = static_cast<double>(kCostStraight) / step;
    up = std::min(up, static_cast<double>(kCostStraight + costs.jump_extra) / jump);
    double down = static_cast<double>(kCostStraight) / (2 * kHeightUnits);  // a step down
    for (int k = 1; k <= std::min<int>(costs.max_drop, env.max_drop); ++k)
      down = std::min(down, static_cast<double>(kCostStraight + k * costs.drop_extra) /
                                ((k + 1) * kHeightUnits));
    if (climbs) {
      // A ladder cell climbed (a cell per climb_cost), a ledge left from one (at most two cells
      // of rise), a climbable cell entered within its row (a cell's cost, less than a cell up).
      const double ladder = std::min(static_cast<double>(costs.climb_cost) / (2 * kHeightUnits),
                                     static_cast<double>(kCostStraight) / kHeightUnits);
      up = std::min(up, ladder);
      down = std::min(down, ladder);
    }
    const double v = rise > 0 ? rise * up : -rise * down;
    vertical = static_cast<std::uint64_t>(std::floor(v));
  }
  // Preferred surfaces lower a move to no less than 0.4 of its cost (and by surface_min at
  // most): the octile part scales as the search's heuristic does, the vertical part by 0.4.
  if (costs.surface && costs.surface_min < 0) {
    const std::uint64_t hscale = static_cast<std::uint64_t>(
        std::max<std::int64_t>(4000, std::int64_t(kCostStraight) + costs.surface_min));
    return std::max(flat * hscale / kCostStraight, vertical * 2 / 5);
  }
  return std::max(flat, vertical);
}

}  // namespace voxnav::detail
