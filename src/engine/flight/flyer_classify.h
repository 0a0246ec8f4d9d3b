// Flyer layer 0: which cells of a World a flying body of the flyer class may occupy.
//
// A cell (x, y, z) is *free* (Open) when the class envelope, feet on the cell's bottom and centred
// in its column, touches no collision box and no harmful fluid (kTraitFluidHarm: a fluid no body
// can swim in; swimmable water does not block a flyer). It is a *hover* cell (layer 0 Walkable)
// when it is free and a collision box of the cell below reaches its floor (a top at 1.0 over the
// column): the flyer can rest there. Every other cell is Blocked or HazardFluid; the flight grid
// keeps only free / not free (and the hover bit), per 4x4x4 brick, bit x + 4y + 16z.
//
// The envelope read here is a little larger than the 0.98 x 1.95 body, so that a body anywhere
// between cells is inside the union of the envelopes of the cells the straight-line sweep reads
// (flyer_line.h explains the sweep):
// - across x and z it is the whole column (the open square (0, 1)^2): a block's boxes lie in their
//   own column, so this differs from the 0.98 body only for boxes thinner than 0.01 hugging a
//   column's side, which block here;
// - up it reaches kFlyerEnvelopeHeight = 1.95 + 1/1024 above the feet, so a body whose feet are
//   up to 1/1024 above a cell's bottom is still inside that cell's envelope.
// Overlaps are strict (touching a face is not touching): a cell above a full block is free, a
// cell whose envelope a fence post (a box reaching 1.5) pokes into from below is not. Cells whose
// envelope needs an unloaded chunk (the cell's own, the one above, or the one below for boxes
// reaching up into the cell) are not free.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/world/registry.h"
#include "engine/world/space.h"

namespace voxnav::detail::flight {

/// Height of the classification envelope above the feet, cells (the flyer class's 1.95 body plus
/// 1/1024: see above).
inline constexpr double kFlyerEnvelopeHeight = 1.95 + 1.0 / 1024.0;

/// What a block value does to flyer envelopes around it (bit flags).
enum FlyerValueFlags : std::uint8_t {
  kFlyHitSelf = 1,   ///< a box overlaps the envelope of its own cell (feet on the cell's bottom)
  kFlyHitAbove = 2,  ///< a box overlaps the envelope of the cell below (which reaches 0.95 up here)
  kFlyHitBelow = 4,  ///< a box reaches above 1.0 into the envelope of the cell above
  kFlyTop = 8,       ///< a box's top reaches 1.0: the cell above is a hover cell when free
  kFlyHarm = 16,     ///< a harmful fluid: no envelope may touch this cell
};

/// The flags of every value of `reg` (index = value).
std::vector<std::uint8_t> flyer_value_flags(const BlockRegistry& reg);

/// The free and hover masks of one brick.
struct FlyerBrick {
  std::uint64_t free = 0;
  std::uint64_t hover = 0;
};

/// Classifies the brick whose low cell is (4 bx, 4 by, 4 bz) (world brick coordinates, any sign)
/// from the blocks of `space`, through the value flags `flags` (flyer_value_flags of the space's
/// registry). Reads the brick's chunk and, for its top and bottom cell rows, the chunks above and
/// below (unloaded: those cells are not free). The brick's own chunk must be loaded.
FlyerBrick classify_flyer_brick(const Space& space, const std::vector<std::uint8_t>& flags, int bx,
                                int by, int bz);

}  // namespace voxnav::detail::flight
