#include "engine/corridor/corridor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "engine/islands/islands.h"
#include "engine/search/astar.h"

namespace voxnav::detail {

Waypoint waypoint_of(const NavGrid& grid, CellPos c, EdgeKind kind) {
  const double fl = static_cast<double>(grid.floor_q(c)) / static_cast<double>(kHeightUnits);
  return Waypoint{Vec3{static_cast<double>(c.x) + 0.5, static_cast<double>(c.y) + fl,
                       static_cast<double>(c.z) + 0.5},
                  kind, c};
}

namespace {
inline bool excluded_surface(const SurfaceCosts* surface, const NavChunk* ch, int i) {
  return surface && ch->surface && (*surface)[ch->surface[i]] == kSurfaceExcluded;
}

/// What a straight line may cross, so that string pulling never pulls a corridor through cells
/// the search paid extra to avoid (issue 18, cause 6): a cell's kind rank (0 Walkable; 1 the
/// costly standable kinds: Slow, the danger band) and its surface cost for the profile. A line
/// crosses only cells ranking no higher than its anchor on both, so a line from plain ground
/// never cuts through a cobweb, soul sand, the band beside lava or a surface the profile
/// prices, while a corridor across a field of them still pulls straight inside it.
struct LineCost {
  int rank = 0;
  std::int32_t surface = 0;
};
inline LineCost line_cost(const SurfaceCosts* surface, const NavChunk* ch, int i) {
  LineCost c;
  c.rank = static_cast<CellKind>(ch->kind[i]) == CellKind::Walkable ? 0 : 1;
  c.surface = surface && ch->surface ? (*surface)[ch->surface[i]] : 0;
  return c;
}
inline bool within(LineCost c, LineCost anchor) { return c.rank <= anchor.rank && c.surface <= anchor.surface; }
}  // namespace

bool line_walkable_level(const NavGrid& grid, CellPos a, CellPos b, const SurfaceCosts* surface) {
  if (a.y != b.y) return false;
  if (std::abs(b.x - a.x) == 1 && std::abs(b.z - a.z) == 1) {
    // One diagonal step: walkable exactly when it is a level walk of the grid (a diagonal over
    // the void beside a corner is one, though the footprint sweeps the open side; the follower's
    // corridor checks then keep such a step).
    for (int dir = 4; dir < 8; ++dir)
      if (kDirDx[dir] == b.x - a.x && kDirDz[dir] == b.z - a.z) {
        const NavChunk* cb = grid.chunk(chunk_of(b));
        return move_code(grid.moves(a), dir) == 1 && cb &&
               !excluded_surface(surface, cb, index_in_chunk(b));
      }
  }
  // Cells are looked up through the last two chunks touched: one hash lookup per chunk crossed
  // (the footprint's corners can straddle a chunk border for many samples).
  const NavChunk* c0 = nullptr;
  const NavChunk* c1 = nullptr;
  ChunkPos p0{0, 0, 0}, p1{0, 0, 0};
  auto chunk_at = [&](const CellPos& c) -> const NavChunk* {
    const ChunkPos p = chunk_of(c);
    if (c0 && p == p0) return c0;
    if (c1 && p == p1) {
      std::swap(c0, c1);
      std::swap(p0, p1);
      return c0;
    }
    c1 = c0;
    p1 = p0;
    c0 = grid.chunk(p);
    p0 = p;
    return c0;
  };
  const NavChunk* ca = chunk_at(a);
  if (!ca || ca->uniform) return false;
  const int fa = ca->floor[index_in_chunk(a)];
  const LineCost anchor_cost = line_cost(surface, ca, index_in_chunk(a));
  const int step = grid.envelope().step_q;
  // Footprint half widths toward - and +, 1/64 cells (equal but for the 2x2 footprint).
  const int hl = grid.envelope().line_lo_q(), hh = grid.envelope().line_hi_q();
  auto good = [&](int x, int z) {
    const CellPos c{x, a.y, z};
    const NavChunk* ch = chunk_at(c);
    if (!ch || ch->uniform) return false;
    const int i = index_in_chunk(c);
    const bool end = (x == a.x && z == a.z) || (x == b.x && z == b.z);  // the line's own ends
    // (a cell with a wall beside its footprint is crossed by the grid's own moves only)
    return kind_standable(static_cast<CellKind>(ch->kind[i])) && !any_wall(ch->sides_at(i)) &&
           std::abs(static_cast<int>(ch->floor[i]) - fa) <= step &&
           !excluded_surface(surface, ch, i) && (end || within(line_cost(surface, ch, i), anchor_cost));
  };
  // Sample the segment from centre to centre in 1/8-cell steps (fixed-point, integer exact):
  // sample s is at a + d * s / n (division truncating toward zero), computed incrementally.
  const int dx = (b.x - a.x) * 64, dz = (b.z - a.z) * 64;
  const int adx = std::abs(dx), adz = std::abs(dz);
  const int len = std::max(adx, adz);
  const int n = len / 8 + 1;
  const int qx = adx / n, rx = adx % n, qz = adz / n, rz = adz % n;
  const int x0 = a.x * 64 + 32, z0 = a.z * 64 + 32;
  int ox = 0, ex = 0, oz = 0, ez = 0;  // |d| * s / n: quotient and remainder
  // Each footprint corner usually stays in the same cell for several samples: check a cell only
  // when a corner enters it. Corner k is at (x - hl / + hh, z - hl / + hh) for bits 1 / 2 of k.
  int lxl = INT32_MIN, lxh = INT32_MIN, lzl = INT32_MIN, lzh = INT32_MIN;  // previous sample
  for (int s = 0; s <= n; ++s) {
    if (s > 0) {
      ox += qx;
      ex += rx;
      if (ex >= n) ++ox, ex -= n;
      oz += qz;
      ez += rz;
      if (ez >= n) ++oz, ez -= n;
    }
    const int px = dx < 0 ? x0 - ox : x0 + ox;
    const int pz = dz < 0 ? z0 - oz : z0 + oz;
    const int xl = (px - hl) >> 6, xh = (px + hh) >> 6, zl = (pz - hl) >> 6, zh = (pz + hh) >> 6;
    if (xl == lxl && xh == lxh && zl == lzl && zh == lzh) continue;
    const bool nl = zl != lzl, nh = zh != lzh;
    if ((xl != lxl || nl) && !good(xl, zl)) return false;
    if ((xh != lxh || nl) && !good(xh, zl)) return false;
    if ((xl != lxl || nh) && !good(xl, zh)) return false;
    if ((xh != lxh || nh) && !good(xh, zh)) return false;
    lxl = xl;
    lxh = xh;
    lzl = zl;
    lzh = zh;
  }
  return true;
}

namespace {

/// Answers line_walkable_level(anchor, b) for one anchor and many targets b (string pulling),
/// with the same result, without sampling every line. line_walkable_level samples the segment
/// between the cell centres in 1/8-cell steps and checks the cells the footprint's four corners
/// land in; the corners never leave the bounding box of the two cells (the half width is below
/// half a cell). So the line is walkable exactly when no bad cell (not standable within step
/// height of the anchor's floor) of that box is landed in. Per quadrant around the anchor the
/// checker scans a growing box once and keeps its bad cells; a line then only tests the bad
/// cells of its box: most are far from the line, the rest are checked exactly on the few
/// samples that come near them.
class AnchorLines {
 public:
  AnchorLines(const NavGrid& grid, const SurfaceCosts* surface)
      : grid_(grid),
        surface_(surface),
        step_(grid.envelope().step_q),
        hl_(grid.envelope().line_lo_q()),
        hh_(grid.envelope().line_hi_q()) {}
  void set_anchor(CellPos a) {
    a_ = a;
    for (Quadrant& q : quad_) {
      q.gx = q.gz = -1;
      q.bad.clear();
    }
    const NavChunk* ch = chunk_at(a);
    anchor_ok_ = ch && !ch->uniform;
    fa_ = anchor_ok_ ? ch->floor[index_in_chunk(a)] : 0;
    if (anchor_ok_) cost_ = line_cost(surface_, ch, index_in_chunk(a));
  }
  bool walkable(CellPos b) {
    if (!anchor_ok_ || hl_ < 0 || hh_ < 0 || hl_ > kHeightUnits / 2 || hh_ >= kHeightUnits / 2 ||
        b.y != a_.y)
      return line_walkable_level(grid_, a_, b, surface_);
    const int dxc = b.x - a_.x, dzc = b.z - a_.z;
    const int sx = dxc < 0 ? -1 : 1, sz = dzc < 0 ? -1 : 1;
    const int wx = dxc * sx, wz = dzc * sz;
    Quadrant& q = quad_[(dxc < 0 ? 1 : 0) | (dzc < 0 ? 2 : 0)];
    if (wx > q.gx || wz > q.gz) {
      // Scan the cells of the grown box [0, max] x [0, max] that the old box did not cover.
      const int nx = std::max(wx, q.gx), nz = std::max(wz, q.gz);
      for (int z = 0; z <= nz; ++z) {
        for (int x = z <= q.gz ? q.gx + 1 : 0; x <= nx; ++x)
          if (!good(a_.x + sx * x, a_.z + sz * z))
            q.bad.push_back({x, z, false});
          else if ((x || z) && costlier(a_.x + sx * x, a_.z + sz * z))
            q.bad.push_back({x, z, true});
      }
      q.gx = nx;
      q.gz = nz;
    }
    if (q.bad.empty()) return true;
    // The sampling of line_walkable_level: sample s (0..n) is at centre + d * s / n, truncated.
    const int dx = dxc * 64, dz = dzc * 64;
    const int n = std::max(wx, wz) * 64 / 8 + 1;
    const std::int64_t reach =
        kHeightUnits / 2 + std::max(hl_, hh_) + 1;  // centre to corner-in-cell bound
    const std::int64_t span = reach * (std::int64_t{std::abs(dx)} + std::abs(dz));
    for (const BadCell& c : q.bad) {
      if (c.x > wx || c.z > wz) continue;
      if (c.cost_only && c.x == wx && c.z == wz) continue;  // the target itself
      const int ox = sx * c.x * 64, oz = sz * c.z * 64;  // cell centre relative to the anchor's
      const std::int64_t cross = std::int64_t{dx} * oz - std::int64_t{dz} * ox;
      if (cross > span || -cross > span) continue;  // the footprint never comes near it
      if (touches(dx, dz, n, a_.x + sx * c.x, a_.z + sz * c.z)) return false;
    }
    return true;
  }

 private:
  struct BadCell {
    int x, z;  // away from the anchor, in the quadrant's directions
    bool cost_only;  // standable, but costlier than the anchor (LineCost)
  };
  struct Quadrant {
    int gx = -1, gz = -1;  // box [0, gx] x [0, gz] scanned
    std::vector<BadCell> bad;
  };
  /// Floor division for a positive divisor.
  static int fdiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
  /// Samples s in [0, n] whose offset o(s) = floor(ad * s / n) (ad >= 0) lies in [lo, hi].
  static void sample_range(int ad, int n, int lo, int hi, int& s0, int& s1) {
    if (ad == 0) {
      if (lo <= 0 && 0 <= hi)
        s0 = 0, s1 = n;
      else
        s0 = 1, s1 = 0;
      return;
    }
    // o(s) >= lo  <=>  ad * s >= lo * n;  o(s) <= hi  <=>  ad * s < (hi + 1) * n.
    s0 = lo <= 0 ? 0 : -fdiv(-lo * n, ad);
    s1 = fdiv((hi + 1) * n - 1, ad);
    s0 = std::max(s0, 0);
    s1 = std::min(s1, n);
  }
  /// Whether some sample of the line from the anchor puts a footprint corner in cell (cx, cz).
  bool touches(int dx, int dz, int n, int cx, int cz) const {
    const int x0 = a_.x * 64 + 32, z0 = a_.z * 64 + 32;
    const int adx = std::abs(dx), adz = std::abs(dz);
    // A corner is in column cx when the centre p is in [64 cx - hh, 64 cx + 63 + hl].
    const int xlo = 64 * cx - hh_, xhi = 64 * cx + 63 + hl_;
    const int zlo = 64 * cz - hh_, zhi = 64 * cz + 63 + hl_;
    int s0, s1, t0, t1;
    if (dx >= 0)
      sample_range(adx, n, xlo - x0, xhi - x0, s0, s1);
    else
      sample_range(adx, n, x0 - xhi, x0 - xlo, s0, s1);
    if (dz >= 0)
      sample_range(adz, n, zlo - z0, zhi - z0, t0, t1);
    else
      sample_range(adz, n, z0 - zhi, z0 - zlo, t0, t1);
    s0 = std::max(s0, t0);
    s1 = std::min(s1, t1);
    for (int s = s0; s <= s1; ++s) {
      const int px = x0 + dx * s / n, pz = z0 + dz * s / n;
      const bool in_x = ((px - hl_) >> 6) == cx || ((px + hh_) >> 6) == cx;
      const bool in_z = ((pz - hl_) >> 6) == cz || ((pz + hh_) >> 6) == cz;
      if (in_x && in_z) return true;
    }
    return false;
  }
  const NavChunk* chunk_at(CellPos c) {
    const ChunkPos p = chunk_of(c);
    if (!(cached_ && p == cached_pos_)) {
      cached_ = grid_.chunk(p);
      cached_pos_ = p;
    }
    return cached_;
  }
  bool good(int x, int z) {
    const CellPos c{x, a_.y, z};
    const NavChunk* ch = chunk_at(c);
    if (!ch || ch->uniform) return false;
    const int i = index_in_chunk(c);
    return kind_standable(static_cast<CellKind>(ch->kind[i])) && !any_wall(ch->sides_at(i)) &&
           std::abs(static_cast<int>(ch->floor[i]) - fa_) <= step_ &&
           !excluded_surface(surface_, ch, i);
  }
  /// Whether a cell that good() accepts costs more than the anchor (a line crosses it only as
  /// its target).
  bool costlier(int x, int z) {
    const CellPos c{x, a_.y, z};
    const NavChunk* ch = chunk_at(c);
    return !within(line_cost(surface_, ch, index_in_chunk(c)), cost_);
  }
  const NavGrid& grid_;
  const SurfaceCosts* surface_;
  int step_, hl_, hh_;
  CellPos a_{};
  bool anchor_ok_ = false;
  int fa_ = 0;
  LineCost cost_;
  Quadrant quad_[4];
  const NavChunk* cached_ = nullptr;
  ChunkPos cached_pos_{0, 0, 0};
};

}  // namespace

void string_pull(const NavGrid& grid, const std::vector<CellPos>& cells,
                 const std::vector<EdgeKind>& kinds, std::vector<Waypoint>& out,
                 const SurfaceCosts* surface) {
  out.clear();
  if (cells.empty()) return;
  out.push_back(waypoint_of(grid, cells[0], EdgeKind::Start));
  AnchorLines lines(grid, surface);
  std::size_t anchor = 0;
  lines.set_anchor(cells[0]);
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const bool level = kinds[i] == EdgeKind::Walk;
    const bool last = i + 1 == cells.size();
    if (!level) {
      if (anchor != i - 1) out.push_back(waypoint_of(grid, cells[i - 1], EdgeKind::Walk));
      out.push_back(waypoint_of(grid, cells[i], kinds[i]));
      anchor = i;
      lines.set_anchor(cells[i]);
      continue;
    }
    if (last) {
      out.push_back(waypoint_of(grid, cells[i], EdgeKind::Walk));
      break;
    }
    // Can the anchor see the next cell directly? If not, cells[i] becomes a waypoint. Segments
    // are at most kMaxSegment cells long, which keeps string pulling linear in the path length.
    constexpr std::size_t kMaxSegment = 24;
    const bool next_level = kinds[i + 1] == EdgeKind::Walk;
    if (next_level && i + 1 - anchor <= kMaxSegment && lines.walkable(cells[i + 1])) continue;
    out.push_back(waypoint_of(grid, cells[i], EdgeKind::Walk));
    anchor = i;
    lines.set_anchor(cells[i]);
  }
}

double path_length_xz(const std::vector<CellPos>& cells) {
  double len = 0.0;
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const int dx = std::abs(cells[i].x - cells[i - 1].x),
              dz = std::abs(cells[i].z - cells[i - 1].z);
    len += (dx && dz) ? std::sqrt(2.0) : 1.0;
  }
  return len;
}

bool step_valid(const NavGrid& grid, const CellPos& a, const CellPos& b, EdgeKind kind) {
  NavChunk* ch = grid.chunk(chunk_of(a));
  if (!ch) return false;
  bool ok = false;
  for_each_move(ch, index_in_chunk(a), a, [&](NavChunk*, int, const CellPos& t, int, int code) {
    if (t == b && edge_kind_of(grid.envelope(), code) == kind) ok = true;
  });
  return ok;
}

bool path_still_valid(const NavGrid& grid, const std::vector<CellPos>& cells,
                      const std::vector<EdgeKind>& kinds, std::size_t from) {
  for (std::size_t i = from; i + 1 < cells.size(); ++i)
    if (!step_valid(grid, cells[i], cells[i + 1], kinds[i + 1])) return false;
  return true;
}

}  // namespace voxnav::detail
