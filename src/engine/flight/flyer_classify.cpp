#include "engine/flight/flyer_classify.h"

namespace voxnav::detail::flight {

std::vector<std::uint8_t> flyer_value_flags(const BlockRegistry& reg) {
  std::vector<std::uint8_t> out(reg.size(), 0);
  // The envelope of a cell in the coordinates of the cell it reads: its own cell 0 .. H, the cell
  // above -1 .. H - 1, the cell below 1 .. H + 1 (H = kFlyerEnvelopeHeight); across x and z the
  // open square (0, 1)^2 of the column. Strict overlaps: a box touching a face does not count.
  constexpr double kH = kFlyerEnvelopeHeight;
  for (std::size_t v = 0; v < reg.size(); ++v) {
    const BlockType& t = reg.type(static_cast<std::uint16_t>(v));
    std::uint8_t f = 0;
    for (const Box& b : t.boxes) {
      if (!(b.min[0] < 1.0f && b.max[0] > 0.0f && b.min[2] < 1.0f && b.max[2] > 0.0f)) continue;
      const double lo = b.min[1], hi = b.max[1];
      if (hi > 0.0 && lo < kH) f |= kFlyHitSelf;
      if (lo < kH - 1.0 && hi > -1.0) f |= kFlyHitAbove;
      if (hi > 1.0 && lo < kH + 1.0) f |= kFlyHitBelow;
      if (hi >= 1.0) f |= kFlyTop;
    }
    if (t.traits & kTraitFluidHarm) f |= kFlyHarm;
    out[v] = f;
  }
  return out;
}

FlyerBrick classify_flyer_brick(const Space& space, const std::vector<std::uint8_t>& flags, int bx,
                                int by, int bz) {
  const int x0 = bx * 4, y0 = by * 4, z0 = bz * 4;
  const ChunkPos cp = chunk_of(CellPos{x0, y0, z0});
  const Chunk* own = space.chunk(cp);
  FlyerBrick out;
  if (!own) return out;
  // The cell rows y0 - 1 .. y0 + 4 this brick reads, each from its chunk (null: not loaded).
  const Chunk* row_chunk[6];
  for (int r = 0; r < 6; ++r) {
    const int y = y0 - 1 + r;
    row_chunk[r] = (y >> kChunkBits) == cp.y ? own : space.chunk(ChunkPos{cp.x, y >> kChunkBits, cp.z});
  }
  for (int lz = 0; lz < 4; ++lz)
    for (int lx = 0; lx < 4; ++lx) {
      const int x = x0 + lx, z = z0 + lz;
      // Flags of the column's rows y0 - 1 .. y0 + 4 (0xFF: not loaded, which blocks every use).
      std::uint8_t f[6];
      for (int r = 0; r < 6; ++r) {
        const Chunk* ch = row_chunk[r];
        f[r] = ch ? flags[ch->get(index_in_chunk(CellPos{x, y0 - 1 + r, z}))] : std::uint8_t{0xFF};
      }
      for (int ly = 0; ly < 4; ++ly) {
        const std::uint8_t below = f[ly], self = f[ly + 1], above = f[ly + 2];
        const bool free = !(self & (kFlyHitSelf | kFlyHarm)) && !(above & (kFlyHitAbove | kFlyHarm)) &&
                          !(below & kFlyHitBelow);
        if (!free) continue;
        const std::uint64_t bit = std::uint64_t{1} << (lx + 4 * ly + 16 * lz);
        out.free |= bit;
        if (below & kFlyTop) out.hover |= bit;
      }
    }
  return out;
}

}  // namespace voxnav::detail::flight
