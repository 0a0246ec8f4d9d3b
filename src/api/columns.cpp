// voxnav/columns.h: the height map over the block mirror.
#include "voxnav/columns.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "api_text.h"
#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {

namespace {
using detail::cell_text;
using detail::num;

Status fail(CallError* error, const char* argument, std::string msg,
            Status st = Status::InvalidArgument) {
  if (error != nullptr) *error = CallError{st, "column_tops", argument, std::move(msg)};
  return st;
}

}  // namespace

Status column_tops(const World& world, CellPos a, CellPos b, std::int32_t* heights,
                   std::uint16_t* values, std::size_t capacity, CallError* error) {
  for (const auto& [what, c] : {std::pair<const char*, CellPos>{"min", a}, {"max", b}})
    if (std::string e = detail::cell_range_error(what, c); !e.empty())
      return fail(error, what, e, Status::OutOfRange);
  if (a.x > b.x || a.y > b.y || a.z > b.z)
    return fail(error, "max", "min " + cell_text(a) + " is above max " + cell_text(b) + " on some axis");
  const double columns = (double(b.x) - a.x + 1) * (double(b.z) - a.z + 1);
  const double height = double(b.y) - a.y + 1;
  if (columns > double(kMaxColumnTopsColumns))
    return fail(error, "max", "the area has " + num(columns) + " columns, more than " +
                           num(double(kMaxColumnTopsColumns)));
  if (height > double(kMaxColumnTopsHeight))
    return fail(error, "max", "the y range " + std::to_string(a.y) + " .. " + std::to_string(b.y) +
                           " spans more than " + num(double(kMaxColumnTopsHeight)) + " cells");
  if (columns * height > double(kMaxColumnTopsCells))
    return fail(error, "max", "the box has " + num(columns * height) + " cells (" + num(columns) +
                           " columns x " + num(height) + " high), more than " +
                           num(double(kMaxColumnTopsCells)) + "; ask for a smaller area or y range");
  const std::size_t w = static_cast<std::size_t>(b.x - a.x + 1);
  const std::size_t n = w * static_cast<std::size_t>(b.z - a.z + 1);
  if (heights == nullptr || values == nullptr || capacity < n)
    return fail(error, "capacity", "the output buffers hold " + std::to_string(capacity) + " entries, the box has " +
                           std::to_string(n) + " columns");
  std::uint16_t air[4] = {0, 0, 0, 0};
  int n_air = 1;
  // Looked up in the registry itself: World::block_value would write last_error for a name the
  // registry lacks ("cave_air" in a game's own registry), and this call succeeds.
  const detail::WorldState& ws = detail::WorldAccess::state(world);
  for (const char* name : {"air", "cave_air", "void_air"}) {
    detail::LookupTally tally;
    if (ws.blocks.loaded()) {
      const std::uint16_t v = ws.blocks.value_from_string(name, &tally);
      if (!tally.unknown_blocks && !tally.unknown_properties) air[n_air++] = v;
    } else if (ws.registry.has(name)) {
      air[n_air++] = ws.registry.find(name);
    }
  }
  const auto is_air = [&](std::uint16_t v) {
    for (int i = 0; i < n_air; ++i)
      if (air[i] == v) return true;
    return false;
  };
  std::fill(heights, heights + n, kNoColumnTop);
  std::fill(values, values + n, std::uint16_t{0});
  const detail::Space& space = ws.space;
  const auto floor16 = [](std::int32_t v) { return v >> 4; };  // arithmetic shift (C++20)
  for (std::int32_t cz = floor16(a.z); cz <= floor16(b.z); ++cz) {
    for (std::int32_t cx = floor16(a.x); cx <= floor16(b.x); ++cx) {
      // The box's columns in this chunk column; each takes the first chunk from the top with a
      // block that is not air in it.
      const std::int32_t xlo = std::max(a.x, cx * 16), xhi = std::min(b.x, cx * 16 + 15);
      const std::int32_t zlo = std::max(a.z, cz * 16), zhi = std::min(b.z, cz * 16 + 15);
      std::int64_t left = std::int64_t(xhi - xlo + 1) * (zhi - zlo + 1);
      for (std::int32_t cy = floor16(b.y); cy >= floor16(a.y) && left > 0; --cy) {
        const detail::Chunk* ch = space.chunk(ChunkPos{cx, cy, cz});
        if (!ch || (ch->uniform && is_air(ch->uniform_value))) continue;
        const std::int32_t hi = std::min(b.y, cy * 16 + 15), lo = std::max(a.y, cy * 16);
        for (std::int32_t z = zlo; z <= zhi; ++z) {
          for (std::int32_t x = xlo; x <= xhi; ++x) {
            const std::size_t k =
                static_cast<std::size_t>(x - a.x) + w * static_cast<std::size_t>(z - a.z);
            if (heights[k] != kNoColumnTop) continue;
            for (std::int32_t y = hi; y >= lo; --y) {
              const std::uint16_t v = ch->get((x & 15) | ((z & 15) << 4) | ((y & 15) << 8));
              if (!is_air(v)) {
                heights[k] = y;
                values[k] = v;
                --left;
                break;
              }
            }
          }
        }
      }
    }
  }
  return Status::Ok;
}

Status column_tops(const World& world, CellPos a, CellPos b, std::vector<std::int32_t>* heights,
                   std::vector<std::uint16_t>* values, CallError* error) {
  // Sized only for a box whose columns are within the limit (the call checks the rest).
  const double columns = (double(b.x) - a.x + 1) * (double(b.z) - a.z + 1);
  const bool fits = a.x <= b.x && a.z <= b.z && columns <= double(kMaxColumnTopsColumns);
  std::vector<std::int32_t> h(fits ? std::size_t(columns) : 0);
  std::vector<std::uint16_t> v(h.size());
  const Status st = column_tops(world, a, b, h.data(), v.data(), h.size(), error);
  if (st == Status::Ok && (!heights || !values))
    return fail(error, "capacity", "the output vectors are null");
  if (st == Status::Ok) *heights = std::move(h), *values = std::move(v);
  return st;
}

}  // namespace voxnav
