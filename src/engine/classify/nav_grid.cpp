#include "engine/classify/nav_grid.h"

#include <algorithm>

namespace voxnav {

const char* edge_kind_name(EdgeKind k) noexcept {
  switch (k) {
    case EdgeKind::Start:
      return "start";
    case EdgeKind::Walk:
      return "walk";
    case EdgeKind::StepUp:
      return "step_up";
    case EdgeKind::StepDown:
      return "step_down";
    case EdgeKind::Jump:
      return "jump";
    case EdgeKind::Drop:
      return "drop";
    case EdgeKind::GapJump:
      return "gap_jump";
    case EdgeKind::Climb:
      return "climb";
    case EdgeKind::Swim:
      return "swim";
    case EdgeKind::Door:
      return "door";
    case EdgeKind::Fly:
      return "fly";
  }
  return "?";
}

}  // namespace voxnav

namespace voxnav::detail {

NavChunk* NavGrid::chunk(ChunkPos p) const {
  auto it = chunks_.find(chunk_key(p));
  return it == chunks_.end() ? nullptr : it->second.get();
}

const std::vector<NavChunk*>& NavGrid::ordered_chunks() const {
  if (ordered_dirty_) {
    std::vector<std::uint64_t> keys;
    keys.reserve(chunks_.size());
    for (const auto& [k, c] : chunks_) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    ordered_.clear();
    for (std::uint64_t k : keys) ordered_.push_back(chunks_.at(k).get());
    ordered_dirty_ = false;
  }
  return ordered_;
}

std::uint64_t NavGrid::standable_count() const {
  std::uint64_t n = 0;
  for (const auto& [k, ch] : chunks_) n += static_cast<std::uint64_t>(ch->standable);
  return n;
}

CellKind NavGrid::kind(CellPos c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->kind_at(index_in_chunk(c)) : CellKind::Blocked;
}
int NavGrid::floor_q(CellPos c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch && !ch->uniform ? ch->floor[index_in_chunk(c)] : 0;
}
std::uint32_t NavGrid::moves(CellPos c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->moves_at(index_in_chunk(c)) : 0u;
}

void NavGrid::neighbourhood(const Space& space, ChunkPos p, BlockNeighbourhood& nb) const {
  nb.c.fill(nullptr);
  if (!env_.footprint2) {  // one column: the chunk and the chunks below and above (edits: hot)
    nb.c[static_cast<std::size_t>(nb_index(0, 0, 0))] = space.chunk(p);
    nb.c[static_cast<std::size_t>(nb_index(0, -1, 0))] = space.chunk({p.x, p.y - 1, p.z});
    nb.c[static_cast<std::size_t>(nb_index(0, 1, 0))] = space.chunk({p.x, p.y + 1, p.z});
    return;
  }
  for (int dy = -1; dy <= 1; ++dy)
    for (int dz = -1; dz <= 1; ++dz)
      for (int dx = -1; dx <= 1; ++dx)
        if (reads_chunk(dx, dy, dz))
          nb.c[nb_index(dx, dy, dz)] = space.chunk({p.x + dx, p.y + dy, p.z + dz});
}

int NavGrid::uniform_kind_of(const Space& space, ChunkPos p) const {
  BlockNeighbourhood nb;
  neighbourhood(space, p, nb);
  return uniform_kind_for(space.registry(), nb);
}

int NavGrid::uniform_kind_for(const BlockRegistry& reg, const BlockNeighbourhood& nb) const {
  // The common uniform chunks, solid rock and open sky, classified without arrays. Both are
  // exact: every cell of such a chunk classifies to the same kind with no moves, and an open-sky
  // cell has the full 255 clearance (the chunk above has no collision either, or is not loaded).
  const Chunk* self = nb.self();
  if (!self || !self->uniform) return -1;
  const int hw = env_.half_width_q;
  const std::uint16_t v = self->uniform_value;
  if (env_.swimmer) {  // a swimmer's cell reads only its own block
    if (reg.traits(v) & kTraitFluidSwim) return -1;
    return reg.top_in_footprint(v, hw) >= 0 ? int(CellKind::Blocked) : int(CellKind::Air);
  }
  // Solid rock: every cell's own block fills the footprint (for the 2x2 footprint, one of its
  // four columns does): blocked whatever the neighbours hold.
  if (reg.traits(v) == 0 && reg.top_in_footprint(v, hw) >= kHeightUnits)
    return int(CellKind::Blocked);
  auto empty = [&](const Chunk* c) {
    return !c || (c->uniform && reg.traits(c->uniform_value) == 0 &&
                  !reg.has_collision(c->uniform_value));
  };
  if (reg.traits(v) != 0 || reg.has_collision(v)) return -1;
  if (!env_.footprint2)
    return empty(nb.at(0, -1, 0)) && empty(nb.at(0, 1, 0)) ? int(CellKind::Air) : -1;
  // Open sky for the 2x2 footprint: every chunk its foot cells stand over is empty, and the +x,
  // +z and +xz chunks are loaded (a body reaching into unloaded space is blocked).
  for (int dz = 0; dz <= 1; ++dz)
    for (int dx = 0; dx <= 1; ++dx) {
      if (!nb.at(dx, 0, dz) || !empty(nb.at(dx, 0, dz))) return -1;
      if (!empty(nb.at(dx, -1, dz)) || !empty(nb.at(dx, 1, dz))) return -1;
    }
  return int(CellKind::Air);
}

void NavGrid::classify_into(const BlockRegistry& reg, const BlockNeighbourhood& nb,
                            NavChunk& nc) const {
  nc.nodes = 0;
  nc.standable = 0;
  nc.hazard_cells = 0;
  nc.climb_cells = 0;
  nc.costly = false;
  nc.vmoves.reset();
  nc.gaps.reset();
  nc.flags.reset();
  nc.surface.reset();
  nc.surface_version = 0;  // surfaces come from refresh_surface (main thread)
  if (const int k = uniform_kind_for(reg, nb); k >= 0) {
    nc.uniform = true;
    nc.uniform_kind = static_cast<CellKind>(k);
    nc.kind.reset();
    nc.floor.reset();
    nc.clear.reset();
    nc.moves.reset();
    nc.scc.reset();
    return;
  }
  nc.uniform = false;
  // Layer 0 whole while the cells are classified (every kind Blocked first), then each row whose
  // cells all agree stored as one value.
  for (LayerPlane<std::uint8_t>* plane : {&nc.kind, &nc.floor, &nc.clear}) {
    plane->create();
    for (int y = 0; y < LayerPlane<std::uint8_t>::kRows; ++y) plane->row_mut(y);
  }
  nc.moves.create();
  if (env_.footprint2) {
    for (int i = 0; i < kChunkCells; ++i) classify_cell_2x2(reg, nb, nc, i);
  } else {
    const Chunk* self = nb.self();
    const Chunk* below = nb.at(0, -1, 0);
    const Chunk* above = nb.at(0, 1, 0);
    for (int i = 0; i < kChunkCells; ++i) classify_cell(reg, self, below, above, nc, i);
  }
  nc.kind.compact();
  nc.floor.compact();
  nc.clear.compact();
}

void NavGrid::classify_chunk(const Space& space, ChunkPos p) {
  const Chunk* self = space.chunk(p);
  const std::uint64_t key = chunk_key(p);
  if (!self) {
    if (chunks_.erase(key)) ordered_dirty_ = true;
    return;
  }
  auto& slot = chunks_[key];
  if (!slot) {
    slot = std::make_unique<NavChunk>();
    ordered_dirty_ = true;
  }
  slot->pos = p;
  BlockNeighbourhood nb;
  neighbourhood(space, p, nb);
  classify_into(space.registry(), nb, *slot);
  refresh_surface(space, p);
}

std::uint8_t NavGrid::surface(CellPos c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->surface_at(index_in_chunk(c)) : std::uint8_t(0);
}

void NavGrid::surface_cell(const BlockRegistry& reg, const std::vector<std::uint8_t>& table,
                           const BlockNeighbourhood& nb, NavChunk& nc, int i) const {
  // The block the body stands on: the cell's own block when its collision holds the feet (a slab,
  // a carpet), else the one below; a water cell takes its fluid's group; ladders have none. The
  // 2x2 footprint stands on the first of its four columns (x, z order) whose block holds the feet
  // at the cell's standing height, or whose fluid it swims in.
  const CellKind k = static_cast<CellKind>(nc.kind[i]);
  std::uint8_t g = 0;
  if (kind_node(k) && k != CellKind::Climbable) {
    const Chunk* self = nb.self();
    const Chunk* below = nb.at(0, -1, 0);
    int sv = -1;
    if (!env_.footprint2) {
      const std::uint16_t v = self->get(i);
      const bool own =
          env_.swimmer || k == CellKind::Water ||
          (!(reg.traits(v) & kTraitDoor) && reg.top_in_footprint(v, env_.half_width_q) >= 0);
      sv = own ? v : -1;
      if (!own) {
        if (i >= 256)
          sv = self->get(i - 256);
        else if (below)
          sv = below->get(i + 15 * 256);
      }
    } else {
      const int x = i & 15, z = (i >> 4) & 15, ly = i >> 8, feet = nc.floor[i];
      auto value = [&](int cx, int y, int cz) -> int {
        const Chunk* ch = nb.at(cx >> 4, y < 0 ? -1 : 0, cz >> 4);
        return ch ? ch->get((cx & 15) | ((cz & 15) << 4) | ((y & 15) << 8)) : -1;
      };
      for (int c = 0; c < 4 && sv < 0; ++c) {
        const int cx = x + (c & 1), cz = z + (c >> 1);
        const int v = value(cx, ly, cz);
        if (v < 0) continue;
        const auto uv = static_cast<std::uint16_t>(v);
        if (k == CellKind::Water) {
          if (reg.traits(uv) & kTraitFluidSwim) sv = v;
          continue;
        }
        if (!(reg.traits(uv) & kTraitDoor) && reg.top_in_footprint(uv, env_.half_width_q) == feet &&
            feet > 0) {
          sv = v;
          continue;
        }
        const int vb = value(cx, ly - 1, cz);
        if (vb >= 0 && !(reg.traits(static_cast<std::uint16_t>(vb)) & kTraitDoor) &&
            reg.top_in_footprint(static_cast<std::uint16_t>(vb), env_.half_width_q) ==
                kHeightUnits + feet)
          sv = vb;
      }
    }
    if (sv >= 0 && static_cast<std::size_t>(sv) < table.size())
      g = table[static_cast<std::size_t>(sv)];
  }
  if (g || nc.surface) {
    if (!nc.surface) nc.surface = std::make_unique<std::uint8_t[]>(kChunkCells);
    nc.surface[i] = g;
    if (g) nc.costly = true;
  }
}

void NavGrid::refresh_surface(const Space& space, ChunkPos p) {
  NavChunk* nc = chunk(p);
  if (!nc || nc->surface_version == surface_version_) return;
  nc->surface.reset();
  nc->surface_version = surface_version_;
  if (nc->uniform || !surface_groups_ || surface_groups_->empty()) return;
  BlockNeighbourhood nb;
  neighbourhood(space, p, nb);
  if (!nb.self()) return;
  for (int i = 0; i < kChunkCells; ++i)
    surface_cell(space.registry(), *surface_groups_, nb, *nc, i);
}

void NavGrid::set_surface_groups(const Space& space, SurfaceTable table) {
  surface_groups_ = std::move(table);
  ++surface_version_;
  for (NavChunk* ch : ordered_chunks()) refresh_surface(space, ch->pos);
}

void NavGrid::install_chunk(std::unique_ptr<NavChunk> nc) {
  auto& slot = chunks_[chunk_key(nc->pos)];
  if (!slot) ordered_dirty_ = true;
  nc->nb.fill(nullptr);
  slot = std::move(nc);
}

void NavGrid::drop_chunk(ChunkPos p) {
  if (chunks_.erase(chunk_key(p))) ordered_dirty_ = true;
}

namespace {
/// The ceiling scan of one column of a body's cells: lowers `ceil` to the lowest box bottom in the
/// three cells above the feet cell (heights in 1/64 units from the feet cell's floor; unloaded
/// space counts as a ceiling), stopping once `ceil` is below the cell scanned. Door values count
/// as open (no collision) and flag `door` / `door_closed` when they lie in the body's cells (below
/// feet + height_q); the traits of the cell just above join `tr_up`. `above(k)` is the block value
/// k cells up, or -1 when its chunk is not loaded.
template <class Above>
void scan_ceiling(const BlockRegistry& reg, Above&& above, int hw, int feet, int height_q,
                  int& ceil, bool& door, bool& door_closed, std::uint32_t& tr_up) {
  constexpr int kNone = 2 * kHeightUnits;  // ceiling_in_footprint: no box in this cell
  for (int k = 1; k < kScanCells && ceil > kHeightUnits * k; ++k) {
    const int w = above(k);
    if (w < 0) {
      ceil = std::min(ceil, kHeightUnits * k);
      break;
    }
    const std::uint32_t tw = reg.traits(static_cast<std::uint16_t>(w));
    if (k == 1) tr_up |= tw;
    if (tw & kTraitDoor) {
      if (kHeightUnits * k < feet + height_q) {  // a door in the body's cells
        door = true;
        if (!(tw & kTraitDoorOpen)) door_closed = true;
      }
      continue;
    }
    const int ck = reg.ceiling_in_footprint(static_cast<std::uint16_t>(w), hw, 0);
    if (ck < kNone) ceil = std::min(ceil, kHeightUnits * k + ck);
  }
}
}  // namespace

void NavGrid::classify_cell(const BlockRegistry& reg, const Chunk* self, const Chunk* below,
                            const Chunk* above, NavChunk& nc, int i) const {
  const int hw = env_.half_width_q;
  // Block value at local (x, ly, z) with ly in [-1, 31]; -1 when that chunk is not loaded.
  auto value = [&](int x, int ly, int z) -> int {
    const Chunk* ch = self;
    if (ly < 0) {
      ch = below;
      ly += 16;
    } else if (ly > 15) {
      ch = above;
      ly -= 16;
    }
    if (!ch) return -1;
    return ch->get(x | (z << 4) | (ly << 8));
  };
  const int x = i & 15, z = (i >> 4) & 15, ly = i >> 8;
  const auto v = static_cast<std::uint16_t>(value(x, ly, z));
  const std::uint32_t tr = reg.traits(v);
  if (env_.swimmer) {
    // Swimmers: the whole envelope in a swimmable fluid (no collision box in the footprint: a
    // waterlogged stair is not open water), else blocked by collision or open (air, lava).
    const bool fluid = (tr & kTraitFluidSwim) && reg.top_in_footprint(v, hw) < 0;
    const CellKind kind = fluid                              ? CellKind::Walkable
                          : reg.top_in_footprint(v, hw) >= 0 ? CellKind::Blocked
                                                             : CellKind::Air;
    const CellKind was = static_cast<CellKind>(nc.kind[i]);
    nc.kind.set(i, static_cast<std::uint8_t>(kind));
    nc.floor.set(i, 0);
    nc.clear.set(i, static_cast<std::uint8_t>(fluid ? kHeightUnits : 0));
    nc.nodes += int(kind_node(kind)) - int(kind_node(was));
    nc.standable += int(kind_standable(kind)) - int(kind_standable(was));
    return;
  }
  // Doors never collide for classification and never support a body: a door cell is the space a
  // body takes when the door is open (closed ones are swapped for their open value). Its kind
  // says whether the door is closed; moves into it are Door moves along an axis.
  const int th = (tr & kTraitDoor) ? -1 : reg.top_in_footprint(v, hw);
  CellKind kind = CellKind::Blocked;
  int support = -1;
  int clearance = 0;
  bool narrow = false;
  std::uint32_t sides = kNoSides;
  if (th < kHeightUnits) {
    const int vb = value(x, ly - 1, z);
    const std::uint32_t tr_below = vb < 0 ? 0u : reg.traits(static_cast<std::uint16_t>(vb));
    const int tb = (vb < 0 || (tr_below & kTraitDoor))
                       ? -1
                       : reg.top_in_footprint(static_cast<std::uint16_t>(vb), hw);
    if (th >= 0) support = th;
    if (tb >= kHeightUnits) support = std::max(support, tb - kHeightUnits);
    const int feet = support < 0 ? 0 : support;
    // Lowest box bottom above the feet, scanning this cell and the three above it;
    // ceiling_in_footprint answers 2 * kHeightUnits for "no box in this cell". Door values in the
    // scan count as open (no collision); the body's cells are scanned for doors on the way.
    constexpr int kNone = 2 * kHeightUnits;
    constexpr int kScan = kScanCells * kHeightUnits;  // clearance is capped at 255 anyway
    int ceil = kScan;
    bool door = (tr & kTraitDoor) != 0;
    bool door_closed = door && !(tr & kTraitDoorOpen);
    const int c0 = (tr & kTraitDoor) ? kNone : reg.ceiling_in_footprint(v, hw, feet);
    if (c0 < kNone) ceil = c0;
    std::uint32_t tr_up = 0;
    scan_ceiling(
        reg, [&](int k) { return value(x, ly + k, z); }, hw, feet, env_.height_q, ceil, door,
        door_closed, tr_up);
    clearance = std::min(255, ceil - feet);
    kind = walker_kind(support, clearance, door, door_closed, tr, tr_up, tr_below);
    if (kind_standable(kind)) {
      // Whether the standing surface spans the cell to its corners (kFlagNarrowSupport).
      const bool own = th >= 0 && th == support;
      narrow = !reg.top_spans_cell(own ? v : static_cast<std::uint16_t>(vb),
                                   own ? support : support + kHeightUnits, kCornerMarginQ);
      if (!own) sides = treads_of(reg, static_cast<std::uint16_t>(vb), tb);
    }
    if (kind != CellKind::Blocked && !env_.footprint2) {
      // The boxes beside the body's footprint in its cells, too high to step over: walls on the
      // faces they stand before (closed doors are not: a door move toggles them).
      int walls = 0;
      for (int k = 0; k < kScanCells && k * kHeightUnits < feet + env_.height_q; ++k) {
        const int w = k == 0 ? int(v) : value(x, ly + k, z);
        if (w < 0) break;
        const auto wv = static_cast<std::uint16_t>(w);
        const std::uint32_t tw = reg.traits(wv);
        if ((tw & kTraitDoor) && !(tw & kTraitDoorOpen)) continue;
        walls |= reg.side_walls(wv, hw, feet + env_.step_q - k * kHeightUnits,
                                feet + env_.height_q - k * kHeightUnits);
      }
      for (int d = 0; d < 4; ++d)
        if (walls & (1 << d)) sides |= kSideWall << (8 * d);
    }
  }
  store_cell(nc, i, kind, support, clearance, tr, narrow, sides);
}

inline CellKind NavGrid::walker_kind(int support, int clearance, bool door, bool door_closed,
                                     std::uint32_t tr, std::uint32_t tr_up,
                                     std::uint32_t tr_below) const {
  if (support < 0) {
    // Nothing to stand on: a body of a climbing class whose feet are in a climbable value holds
    // on to it (the movement step's rule: a rung at head height only does not hold), any other
    // falls.
    return env_.climbs && (tr & kTraitClimbable) && clearance >= env_.height_q
               ? CellKind::Climbable
               : CellKind::Air;
  }
  if (clearance < env_.height_q) return CellKind::Blocked;
  if (door) return door_closed ? CellKind::DoorClosed : CellKind::DoorOpen;
  if ((tr | tr_up) & kTraitFluidHarm) return CellKind::DamageFire;
  if (tr & kTraitFluidSwim) return CellKind::Water;
  if ((tr | tr_up | tr_below) & kTraitHazardFire) return CellKind::DamageFire;  // outranks other
  if ((tr | tr_up | tr_below) & kTraitHazardOther) return CellKind::DamageOther;
  if ((tr | tr_up | tr_below) & kTraitSlow) return CellKind::Slow;
  return CellKind::Walkable;
}

std::uint32_t NavGrid::treads_of(const BlockRegistry& reg, std::uint16_t below, int top) const {
  std::uint32_t out = kNoSides;
  for (int d = 0; d < 4; ++d) {
    const int t = reg.tread_in_footprint(below, d, env_.half_width_q, env_.step_q);
    if (t >= 0 && t < top) {
      out &= ~(0x7Fu << (8 * d));
      out |= static_cast<std::uint32_t>(kTreadBias + t - kHeightUnits) << (8 * d);
    }
  }
  return out;
}

inline void NavGrid::store_cell(NavChunk& nc, int i, CellKind kind, int support, int clearance,
                                std::uint32_t own_traits, bool narrow_support,
                                std::uint32_t sides) const {
  const CellKind was = static_cast<CellKind>(nc.kind[i]);
  nc.kind.set(i, static_cast<std::uint8_t>(kind));
  nc.floor.set(i, static_cast<std::uint8_t>(support < 0 ? 0 : support));
  nc.clear.set(i, static_cast<std::uint8_t>(std::max(0, clearance)));
  nc.nodes += int(kind_node(kind)) - int(kind_node(was));
  nc.standable += int(kind_standable(kind)) - int(kind_standable(was));
  nc.climb_cells += int(kind == CellKind::Climbable) - int(was == CellKind::Climbable);
  if (kind_node(kind) && kind != CellKind::Walkable) nc.costly = true;
  // Flags of the value in this cell (the danger band of the cells around reads them) and the
  // slow base kind (the danger band may overwrite the kind).
  std::uint8_t f = 0;
  if (own_traits & (kTraitHazardFire | kTraitFluidHarm)) f |= kFlagFireBlock;
  if (own_traits & kTraitHazardOther) f |= kFlagOtherBlock;
  if (kind == CellKind::Slow) f |= kFlagSlowBase;
  if (own_traits & kTraitSlow) f |= kFlagSlowBlock;
  if (own_traits & kTraitClimbable) f |= kFlagClimbBlock;
  if (narrow_support) f |= kFlagNarrowSupport;
  if (sides != nc.sides_at(i)) {
    if (!nc.sides) {
      nc.sides = std::make_unique<std::uint32_t[]>(kChunkCells);
      std::fill_n(nc.sides.get(), kChunkCells, kNoSides);
    }
    nc.sides[i] = sides;
  }
  const std::uint8_t old = nc.flags_at(i);
  if (f != old) {
    if (!nc.flags) nc.flags = std::make_unique<std::uint8_t[]>(kChunkCells);
    nc.flags[i] = f;
    nc.hazard_cells += int((f & kFlagsHazard) != 0) - int((old & kFlagsHazard) != 0);
  }
}

void NavGrid::classify_cell_2x2(const BlockRegistry& reg, const BlockNeighbourhood& nb,
                                NavChunk& nc, int i) const {
  // The body stands over the four columns (x..x+1, z..z+1) of foot cell i, each read over its
  // whole cell. It stands on the highest support among them; clearance is the least of the four
  // columns' from that height; the traits of any column count. Doors are handled per column as
  // in classify_cell (no collision, no support; a door in the body's cells makes a door cell).
  constexpr int hw = kHeightUnits / 2;
  const int x = i & 15, z = (i >> 4) & 15, ly = i >> 8;
  // Block value at (cx, y, cz) in chunk-local coordinates (cx, cz in 0..16, y in -1..19); -1
  // when that chunk is not loaded.
  auto value = [&](int cx, int y, int cz) -> int {
    const Chunk* ch = nb.at(cx >> 4, y < 0 ? -1 : (y > 15 ? 1 : 0), cz >> 4);
    return ch ? ch->get((cx & 15) | ((cz & 15) << 4) | ((y & 15) << 8)) : -1;
  };
  // The flags stored with the cell are those of its own block (the danger band reads them).
  const std::uint32_t own_tr = reg.traits(nb.self()->get(i));
  int vs[4] = {0, 0, 0, 0};
  std::uint32_t tr = 0, tr_below = 0, tr_up = 0;
  int support = -1;
  bool door = false, door_closed = false;
  for (int c = 0; c < 4; ++c) {
    const int v = value(x + (c & 1), ly, z + (c >> 1));
    if (v < 0) {  // the body reaches into unloaded space
      store_cell(nc, i, CellKind::Blocked, -1, 0, own_tr);
      return;
    }
    vs[c] = v;
    const std::uint32_t t = reg.traits(static_cast<std::uint16_t>(v));
    tr |= t;
    const int th = (t & kTraitDoor) ? -1 : reg.top_in_footprint(static_cast<std::uint16_t>(v), hw);
    if (th >= kHeightUnits) {  // a column's own block fills the body's cell
      store_cell(nc, i, CellKind::Blocked, -1, 0, own_tr);
      return;
    }
    if (t & kTraitDoor) {
      door = true;
      if (!(t & kTraitDoorOpen)) door_closed = true;
    }
    const int vb = value(x + (c & 1), ly - 1, z + (c >> 1));
    const std::uint32_t tb_traits = vb < 0 ? 0u : reg.traits(static_cast<std::uint16_t>(vb));
    tr_below |= tb_traits;
    const int tb = (vb < 0 || (tb_traits & kTraitDoor))
                       ? -1
                       : reg.top_in_footprint(static_cast<std::uint16_t>(vb), hw);
    support = std::max(support, th);
    if (tb >= kHeightUnits) support = std::max(support, tb - kHeightUnits);
  }
  const int feet = support < 0 ? 0 : support;
  // Lowest box bottom above the feet over the four columns, scanning each column's cell and the
  // three above it (ceiling_in_footprint answers 2 * kHeightUnits for "no box in this cell").
  constexpr int kNone = 2 * kHeightUnits;
  int ceil = kScanCells * kHeightUnits;
  for (int c = 0; c < 4; ++c) {
    const auto v = static_cast<std::uint16_t>(vs[c]);
    if (!(reg.traits(v) & kTraitDoor)) {
      const int c0 = reg.ceiling_in_footprint(v, hw, feet);
      if (c0 < kNone) ceil = std::min(ceil, c0);
    }
    scan_ceiling(
        reg, [&](int k) { return value(x + (c & 1), ly + k, z + (c >> 1)); }, hw, feet,
        env_.height_q, ceil, door, door_closed, tr_up);
  }
  const int clearance = std::min(255, ceil - feet);
  const CellKind kind = walker_kind(support, clearance, door, door_closed, tr, tr_up, tr_below);
  store_cell(nc, i, kind, support, clearance, own_tr);
}

void NavGrid::classify_box(const Space& space, CellPos mn, CellPos mx) {
  const BlockRegistry& reg = space.registry();
  const std::vector<std::uint8_t>* groups =
      surface_groups_ && !surface_groups_->empty() ? surface_groups_.get() : nullptr;
  const ChunkPos a = chunk_of(mn), b = chunk_of(mx);
  for (int cy = a.y; cy <= b.y; ++cy)
    for (int cz = a.z; cz <= b.z; ++cz)
      for (int cx = a.x; cx <= b.x; ++cx) {
        const ChunkPos p{cx, cy, cz};
        NavChunk* nc = chunk(p);
        if (!nc || nc->uniform) continue;
        BlockNeighbourhood nb;
        neighbourhood(space, p, nb);
        const Chunk* self = nb.self();
        if (!self) continue;
        const Chunk* below = nb.at(0, -1, 0);
        const Chunk* above = nb.at(0, 1, 0);
        const int x0 = std::max(mn.x, cx * 16) & 15, x1 = std::min(mx.x, cx * 16 + 15) & 15;
        const int y0 = std::max(mn.y, cy * 16) & 15, y1 = std::min(mx.y, cy * 16 + 15) & 15;
        const int z0 = std::max(mn.z, cz * 16) & 15, z1 = std::min(mx.z, cz * 16 + 15) & 15;
        for (int y = y0; y <= y1; ++y)
          for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x) {
              const int i = x | (z << 4) | (y << 8);
              if (env_.footprint2)
                classify_cell_2x2(reg, nb, *nc, i);
              else
                classify_cell(reg, self, below, above, *nc, i);
              if (groups && nc->surface_version == surface_version_)
                surface_cell(reg, *groups, nb, *nc, i);
            }
      }
}

void NavGrid::rebuild_moves_box(CellPos mn, CellPos mx) {
  const ChunkPos a = chunk_of(mn), b = chunk_of(mx);
  for (int cy = a.y; cy <= b.y; ++cy)
    for (int cz = a.z; cz <= b.z; ++cz)
      for (int cx = a.x; cx <= b.x; ++cx) {
        NavChunk* nc = chunk({cx, cy, cz});
        if (!nc || nc->uniform) continue;
        const int x0 = std::max(mn.x, cx * 16) & 15, x1 = std::min(mx.x, cx * 16 + 15) & 15;
        const int y0 = std::max(mn.y, cy * 16) & 15, y1 = std::min(mx.y, cy * 16 + 15) & 15;
        const int z0 = std::max(mn.z, cz * 16) & 15, z1 = std::min(mx.z, cz * 16 + 15) & 15;
        for (int y = y0; y <= y1; ++y)
          for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x) {
              const int i = x | (z << 4) | (y << 8);
              nc->moves.set(i, 0);
              if (nc->vmoves) nc->vmoves[i] = 0;
              if (nc->gaps) nc->gaps.set(i, 0);
              if (kind_node(static_cast<CellKind>(nc->kind[i])))
                compute_moves_for_cell(*nc, i, CellPos{cx * 16 + x, cy * 16 + y, cz * 16 + z});
            }
      }
}

void NavGrid::link(ChunkPos p) {
  for (int dy = -1; dy <= 1; ++dy)
    for (int dz = -1; dz <= 1; ++dz)
      for (int dx = -1; dx <= 1; ++dx) {
        NavChunk* c = chunk({p.x + dx, p.y + dy, p.z + dz});
        if (!c) continue;
        for (int ey = -1; ey <= 1; ++ey)
          for (int ez = -1; ez <= 1; ++ez)
            for (int ex = -1; ex <= 1; ++ex)
              c->nb[nb_index(ex, ey, ez)] = chunk({c->pos.x + ex, c->pos.y + ey, c->pos.z + ez});
      }
}

void NavGrid::rebuild_moves(ChunkPos p) {
  NavChunk* ch = chunk(p);
  if (!ch || ch->uniform) return;
  for (int i = 0; i < kChunkCells; ++i) {
    ch->moves.set(i, 0);
    if (ch->vmoves) ch->vmoves[i] = 0;
    if (ch->gaps) ch->gaps.set(i, 0);
    if (!kind_node(static_cast<CellKind>(ch->kind[i]))) continue;
    const CellPos c{p.x * 16 + (i & 15), p.y * 16 + (i >> 8), p.z * 16 + ((i >> 4) & 15)};
    compute_moves_for_cell(*ch, i, c);
  }
}

CellKind NavGrid::danger_of(NavChunk& ch, int lx, int ly, int lz) const {
  // A hazard value within one cell of the body's cells (feet and head cell): x and z within one,
  // from the cell below the feet to the cell above the head.
  // Most cells have no hazard in their own chunk nor in the neighbour chunks the box reaches into:
  // a look at those chunks' hazard counts answers without scanning.
  // The 2x2 footprint's body covers one more column toward +x and +z, and one more cell up.
  const int f2 = env_.footprint2 ? 1 : 0;
  const int x0 = lx == 0 ? -1 : 0, x1 = lx >= 15 - f2 ? 1 : 0, z0 = lz == 0 ? -1 : 0,
            z1 = lz >= 15 - f2 ? 1 : 0;
  const int y0 = ly == 0 ? -1 : 0, y1 = ly >= 14 - f2 ? 1 : 0;
  bool any = false;
  for (int cy = y0; cy <= y1 && !any; ++cy)
    for (int cz = z0; cz <= z1 && !any; ++cz)
      for (int cx = x0; cx <= x1 && !any; ++cx) {
        const NavChunk* n = (cx | cy | cz) == 0 ? &ch : ch.nb[nb_index(cx, cy, cz)];
        any = n && n->hazard_cells;
      }
  if (!any) return CellKind::Blocked;
  std::uint8_t seen = 0;
  for (int dy = -1; dy <= 2 + f2; ++dy)
    for (int dz = -1; dz <= 1 + f2; ++dz)
      for (int dx = -1; dx <= 1 + f2; ++dx) {
        int ti;
        const NavChunk* tc = step_chunk(&ch, lx + dx, ly + dy, lz + dz, ti);
        if (tc && tc->hazard_cells) seen |= tc->flags_at(ti);
      }
  if (seen & kFlagFireBlock) return CellKind::DangerFire;
  if (seen & kFlagOtherBlock) return CellKind::DangerOther;
  return CellKind::Blocked;
}

std::uint32_t NavGrid::sides(CellPos c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->sides_at(index_in_chunk(c)) : kNoSides;
}

std::uint8_t NavGrid::vmoves(CellPos c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->vmoves_at(index_in_chunk(c)) : std::uint8_t(0);
}

GapWord NavGrid::gaps(CellPos c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->gaps_at(index_in_chunk(c)) : GapWord(0);
}

namespace {
// Whether the column of cell (lx, ly, lz) (offsets from `ch`, within +-16) is free of collision
// from the cell's floor up to `top_q` (1/64 cells above the cell's bottom). A cell's clearance is
// exact only up to the ceiling scan (the cell and kScanCells - 1 above it) and the 255 cap: when
// it reaches that limit, the cell above answers for the rest. That cell is then open at its bottom
// (the scan went through it), unsupported, and its own clearance is measured from its bottom;
// top_q never exceeds two cells plus the scan, so one cell up is always enough (kGapReadUp).
bool column_open_to(const NavChunk& ch, int lx, int ly, int lz, int top_q) {
  int li;
  const NavChunk* c = step_chunk(const_cast<NavChunk*>(&ch), lx, ly, lz, li);
  if (!c) return false;
  if (c->uniform) return c->uniform_kind == CellKind::Air;
  const int fl = c->floor[li], reach = fl + c->clear[li];
  if (reach >= top_q) return true;
  if (reach < std::min(255 + fl, kScanCells * kHeightUnits)) return false;  // a real ceiling
  const NavChunk* a = step_chunk(const_cast<NavChunk*>(&ch), lx, ly + kGapReadUp, lz, li);
  if (!a) return false;
  if (a->uniform) return a->uniform_kind == CellKind::Air;
  const CellKind ak = a->kind_at(li);
  return (ak == CellKind::Air || ak == CellKind::Climbable) &&
         a->floor[li] + a->clear[li] >= top_q - kHeightUnits;
}
}  // namespace

GapWord NavGrid::gap_moves_of(NavChunk& ch, int lx, int ly, int lz) const {
  // A gap jump of reach 1 along a cardinal direction: from a standable cell over one cell of
  // open air to standable ground two cells away, level or a cell lower. The body rises by its
  // jump apex on the way, so the take-off cell and the air cell must be clear to that height
  // above the take-off feet (whatever the take-off floor: from soul sand or a farmland at 0.9 of
  // its cell the top reaches past the ceiling scan, see column_open_to). Doors, ladders and
  // damage cells are never jumped into or from.
  const int i = lx | (lz << 4) | (ly << 8);
  const int fs = ch.floor[i];
  const int need = fs + env_.height_q + env_.jump_q;  // 1/64 cells above the take-off cell's bottom
  if (!column_open_to(ch, lx, ly, lz, need)) return 0;
  GapWord out = 0;
  const std::uint32_t word = ch.moves[i];
  const std::uint32_t sides = ch.sides_at(i);
  for (int d = 0; d < 4; ++d) {
    if (side_walled(sides, d)) continue;
    // The cell ahead is open air only when the move that way is none, a step down or a drop (a
    // walk, jump, door or climb move enters a node there).
    if (const int code = move_code(word, d); code != 0 && (code < 5 || code > 12)) continue;
    int mi;
    const NavChunk* mc = step_chunk(&ch, lx + kDirDx[d], ly, lz + kDirDz[d], mi);
    if (!mc || mc->kind_at(mi) != CellKind::Air) continue;
    if (side_walled(mc->sides_at(mi), d) || side_walled(mc->sides_at(mi), opposite_dir(d))) continue;
    if (!column_open_to(ch, lx + kDirDx[d], ly, lz + kDirDz[d], need)) continue;
    int li;
    const NavChunk* lc = step_chunk(&ch, lx + 2 * kDirDx[d], ly, lz + 2 * kDirDz[d], li);
    if (!lc) continue;
    const CellKind lk = lc->kind_at(li);
    if (side_walled(lc->sides_at(li), opposite_dir(d))) continue;
    if (lk == CellKind::Air && env_.gap_reach >= 2) out |= gap2_level(ch, lx, ly, lz, d, fs, need);
    if (kind_standable(lk)) {
      // Level: the landing floor at most a step above the take-off, the body fits there.
      if (lc->floor[li] - fs <= env_.step_q && lc->clear[li] >= env_.height_q)
        out |= kGapLevel << d;
      continue;
    }
    if (lk != CellKind::Air && lk != CellKind::Blocked) continue;
    // A cell row up: from a high floor (soul sand, farmland) onto ground whose standing height
    // lies in the next row but at most a step above the take-off feet (a full block beside soul
    // sand's 0.875: its own cell in the take-off row is Blocked). The body rises past that top
    // on the jump and fits on the landing.
    int lu;
    const NavChunk* lcu =
        step_chunk(&ch, lx + 2 * kDirDx[d], ly + kGapReadUp, lz + 2 * kDirDz[d], lu);
    if (lcu && kind_standable(lcu->kind_at(lu)) &&
        kHeightUnits + lcu->floor[lu] - fs <= env_.step_q && lcu->clear[lu] >= env_.height_q &&
        column_open_to(ch, lx + 2 * kDirDx[d], ly + kGapReadUp, lz + 2 * kDirDz[d],
                       need - kHeightUnits)) {
      out |= kGapUp << d;
      continue;
    }
    if (lk != CellKind::Air) continue;
    // A cell lower: the air cell's column and the landing column are open at the take-off level,
    // the gap is open a cell lower too (else it is a step down, not a gap), and the body lands on
    // standable ground in the cell below the landing column.
    if (!column_open_to(ch, lx + 2 * kDirDx[d], ly, lz + 2 * kDirDz[d], need)) continue;
    int mi2, li2;
    const NavChunk* mc2 = step_chunk(&ch, lx + kDirDx[d], ly - 1, lz + kDirDz[d], mi2);
    const NavChunk* lc2 = step_chunk(&ch, lx + 2 * kDirDx[d], ly - 1, lz + 2 * kDirDz[d], li2);
    if (!mc2 || !lc2 || mc2->kind_at(mi2) != CellKind::Air) continue;
    if (kind_standable(lc2->kind_at(li2)) && lc2->clear[li2] >= env_.height_q) out |= kGapDown << d;
  }
  return out;
}

GapWord NavGrid::gap2_level(NavChunk& ch, int lx, int ly, int lz, int d, int fs, int need) const {
  // Over two cells of open air (the second checked here, the first by the caller) onto standable
  // ground three cells along d, within a step of the take-off floor: the walking jump's flight
  // (2.4 cells at the default speed, ClassEnvelope::gap_reach) carries the body there. The body
  // rises by its jump over both air columns.
  const int ax = lx + 2 * kDirDx[d], az = lz + 2 * kDirDz[d];
  int ai, li;
  const NavChunk* ac = step_chunk(&ch, ax, ly, az, ai);
  if (!ac || ac->kind_at(ai) != CellKind::Air || !column_open_to(ch, ax, ly, az, need)) return 0;
  if (side_walled(ac->sides_at(ai), d)) return 0;
  const NavChunk* lc = step_chunk(&ch, lx + 3 * kDirDx[d], ly, lz + 3 * kDirDz[d], li);
  if (!lc || !kind_standable(lc->kind_at(li)) || side_walled(lc->sides_at(li), opposite_dir(d)))
    return 0;
  if (lc->floor[li] - fs > env_.step_q || lc->clear[li] < env_.height_q) return 0;
  return static_cast<GapWord>(kGapLevel2 << d);
}

void NavGrid::compute_moves_for_cell(NavChunk& ch, int i, CellPos c) {
  const int lx = c.x & 15, ly = c.y & 15, lz = c.z & 15;
  const CellKind sk = static_cast<CellKind>(ch.kind[i]);
  if (env_.swimmer) {
    // Level moves to swimmable cells (a diagonal only past two swimmable cardinal cells), and
    // straight up or down.
    std::uint32_t word = 0;
    for (int dir = 0; dir < 8; ++dir) {
      if (dir >= 4 && !(move_code(word, kDiagA[dir]) && move_code(word, kDiagB[dir]))) continue;
      int ti;
      const NavChunk* tc = step_chunk(&ch, lx + kDirDx[dir], ly, lz + kDirDz[dir], ti);
      if (tc && kind_node(tc->kind_at(ti))) word |= 1u << (dir * 4);
    }
    ch.moves.set(i, word);
    std::uint8_t vm = 0;
    int ti;
    if (const NavChunk* up = step_chunk(&ch, lx, ly + 1, lz, ti); up && kind_node(up->kind_at(ti)))
      vm |= kMoveUp;
    if (const NavChunk* dn = step_chunk(&ch, lx, ly - 1, lz, ti); dn && kind_node(dn->kind_at(ti)))
      vm |= kMoveDown;
    if (vm || ch.vmoves) {
      if (!ch.vmoves) ch.vmoves = std::make_unique<std::uint8_t[]>(kChunkCells);
      ch.vmoves[i] = vm;
      if (vm) ch.costly = true;
    }
    return;
  }
  // The danger band: a standable cell near a hazard value costs more (fire outranks other, both
  // outrank slow). Layer 0 keeps the base kind in the flags; the band is decided here, where the
  // cells around are at hand.
  if (kind_standable(sk)) {
    CellKind nk = danger_of(ch, lx, ly, lz);
    if (nk == CellKind::Blocked)
      nk = (ch.flags_at(i) & kFlagSlowBase) ? CellKind::Slow : CellKind::Walkable;
    if (nk != sk) ch.kind.set(i, static_cast<std::uint8_t>(nk));
    if (nk != CellKind::Walkable) ch.costly = true;
  }
  const int fs = ch.floor[i];
  const int cs = ch.clear[i];
  // Climbable and door cells are left and entered along the axes only.
  const bool axis_only = sk == CellKind::Climbable || kind_door(sk);
  std::uint32_t word = 0;
  auto code_walkish = [](int code) { return code == 1 || code == 3 || code == 5; };
  // What each cardinal side offers a diagonal past it (diagonal_side):
  //  - kSideWalk: a walk or step onto a node that is no damage cell (the 0.6 body cutting the
  //    corner overlaps the side cell, so a fire, lava, berry bush or wither rose there refuses
  //    the diagonal, as a wall does);
  //  - kSideVoid (one-column classes): open air at the source's row with no hazard value in it
  //    or the cell above, open to `side_open` (1/64 above its bottom). The body on the exact
  //    diagonal overlaps the source's or the target's corner square all along, so it needs no
  //    floor beside it; the target must be a level walk and both standing surfaces must reach
  //    the corners (kFlagNarrowSupport clear), and the side must be open above the higher feet.
  enum : std::uint8_t { kSideNone = 0, kSideWalk = 1, kSideVoid = 2 };
  std::uint8_t side[4] = {kSideNone, kSideNone, kSideNone, kSideNone};
  int side_open[4] = {0, 0, 0, 0};
  std::uint32_t side_walls[4] = {kNoSides, kNoSides, kNoSides, kNoSides};  // the side cells' sides
  const bool void_diagonals = !env_.footprint2 && !(ch.flags_at(i) & kFlagNarrowSupport);
  for (int dir = 0; dir < 8; ++dir) {
    const bool diagonal = dir >= 4;
    if (diagonal && (axis_only || !side[kDiagA[dir]] || !side[kDiagB[dir]])) continue;
    CellKind target_kind = CellKind::Blocked;
    int target_floor = 0;
    std::uint32_t target_sides = kNoSides;
    int target_dy = 0;
    int code = 0;
    for (int dy = 1; dy >= -env_.max_drop; --dy) {
      int ti;
      NavChunk* tc = step_chunk(&ch, lx + kDirDx[dir], ly + dy, lz + kDirDz[dir], ti);
      if (!tc) break;  // unloaded: never a move
      const CellKind k = tc->kind_at(ti);
      target_sides = tc->sides_at(ti);
      target_dy = dy;
      if (k == CellKind::Climbable && dy >= 0) {
        // A ladder cell beside: stepped into at the same level (a Climb), never jumped up to.
        if (dy == 1) continue;
        if (!diagonal && cs >= env_.height_q) code = kCodeClimbLevel;
        break;
      }
      if (kind_node(k)) {
        const int ft = tc->floor[ti];
        const int ct = tc->clear[ti];
        target_kind = k;
        target_floor = tc->flags_at(ti) & kFlagNarrowSupport ? -1 : ft;
        const int rise = dy * kHeightUnits + ft - fs;  // feet height change, 1/64 cells
        if (kind_door(k)) {
          // Doors: a level or in-row step move along an axis only.
          if (dy == 0 && !diagonal && rise <= env_.step_q &&
              ct >= std::max(0, -rise) + env_.height_q && cs >= std::max(0, rise) + env_.height_q)
            code = kCodeDoor;
          break;
        }
        if (k == CellKind::Climbable) {  // the end of a drop: the body catches the ladder
          code = 5 + (-dy);
          break;
        }
        if (rise > 0) {
          if (sk == CellKind::Climbable) {
            // Out of a ladder onto a ledge: the body climbs until its feet clear the lip.
            if (rise > kHeightUnits + env_.step_q || cs < rise + env_.height_q) break;
            if (rise <= env_.step_q)
              code = dy == 1 ? 3 : 1;
            else
              code = dy == 1 ? kCodeClimbUp : kCodeClimbLevel;
            break;
          }
          if (rise > env_.jump_q || cs < rise + env_.height_q) break;
          if (rise <= env_.step_q || (!diagonal && climbs_treads(tc->sides_at(ti), dir, dy, fs)))
            code = dy == 1 ? 3 : 1;
          else
            code = dy == 1 ? 4 : 2;
        } else {
          if (dy == 0 && ct < -rise + env_.height_q) break;
          if (dy == 0)
            code = 1;
          else if (dy == -1 && -rise <= env_.step_q)
            code = 5;
          else
            code = 5 + (-dy);  // drop codes 6.. for dy -1..-7
        }
        break;
      }
      if (dy == 1) continue;
      if (k != CellKind::Air) break;  // a wall or fluid stops the fall
      // The body leaves the source at its feet height: the first open cell must fit it there,
      // with no wall on the face it enters by.
      if (dy == 0 && !tc->uniform && tc->clear[ti] < fs + env_.height_q) break;
      if (dy == 0 && !diagonal && side_walled(target_sides, opposite_dir(dir))) break;
    }
    if (code && crosses_wall(ch.sides_at(i), target_sides, dir, target_dy)) code = 0;
    if (code && diagonal) {
      // The body cuts the corner of each side cell: a wall on either face at that corner stops it.
      const int a = kDiagA[dir], b = kDiagB[dir];
      if (side_walled(side_walls[a], b) || side_walled(side_walls[a], opposite_dir(a)) ||
          side_walled(side_walls[b], a) || side_walled(side_walls[b], opposite_dir(b)))
        code = 0;
    }
    if (diagonal && !code_walkish(code)) code = 0;
    if (diagonal && code && (side[kDiagA[dir]] == kSideVoid || side[kDiagB[dir]] == kSideVoid)) {
      // Past open air: a level walk between surfaces reaching the corners, the side open above
      // the higher of the two feet by the body's height, and the body within the side's two
      // cells whose hazard flags were read (kVoidSideRows).
      const int top = std::max(fs, target_floor) + env_.height_q;
      const int a = kDiagA[dir], b = kDiagB[dir];
      if (code != 1 || target_floor < 0 || top > kVoidSideRows * kHeightUnits ||
          (side[a] == kSideVoid && side_open[a] < top) ||
          (side[b] == kSideVoid && side_open[b] < top))
        code = 0;
    }
    if (!diagonal) {
      // The side's two cells at the body's rows (the source's row and the one above): a slowing
      // value there (a cobweb) refuses a diagonal past it, as a hazard does.
      int si, ui;
      const NavChunk* sc = step_chunk(&ch, lx + kDirDx[dir], ly, lz + kDirDz[dir], si);
      static_assert(kVoidSideRows == 2, "the side cell and the one above are read");
      const NavChunk* uc = step_chunk(&ch, lx + kDirDx[dir], ly + 1, lz + kDirDz[dir], ui);
      const bool side_slow =
          (sc && (sc->flags_at(si) & kFlagSlowBlock)) || (uc && (uc->flags_at(ui) & kFlagSlowBlock));
      if (sc) side_walls[dir] = sc->sides_at(si);
      if (code_walkish(code) && target_kind != CellKind::DamageFire &&
          target_kind != CellKind::DamageOther && !side_slow) {
        side[dir] = kSideWalk;
      } else if (void_diagonals && !code_walkish(code)) {
        constexpr std::uint8_t kRefused = kFlagsHazard | kFlagSlowBlock;
        if (sc && uc && sc->kind_at(si) == CellKind::Air && !(sc->flags_at(si) & kRefused) &&
            !(uc->flags_at(ui) & kRefused)) {
          side[dir] = kSideVoid;
          side_open[dir] = sc->uniform ? 255 : sc->clear[si];
        }
      }
    }
    word |= static_cast<std::uint32_t>(code) << (dir * 4);
  }
  ch.moves.set(i, word);
  // Vertical moves: up into a climbable cell straight above (the body rises one cell in its own
  // column), down out of a climbable cell onto the one below.
  std::uint8_t vm = 0;
  // (only where the chunk holding the cell above has a climbable cell at all)
  const NavChunk* up_chunk = ly < 15 ? &ch : ch.nb[nb_index(0, 1, 0)];
  if ((kind_standable(sk) || sk == CellKind::Climbable) && up_chunk && up_chunk->climb_cells) {
    int ti;
    const NavChunk* up = step_chunk(&ch, lx, ly + 1, lz, ti);
    // From the ground the body catches the rung above with its feet: standing in a climbable
    // value already, or by jumping into the cell above.
    const bool catches = sk == CellKind::Climbable || (ch.flags_at(i) & kFlagClimbBlock) ||
                         kHeightUnits - fs <= env_.jump_q;
    if (up && up->kind_at(ti) == CellKind::Climbable && catches &&
        cs >= kHeightUnits - fs + env_.height_q)
      vm |= kMoveUp;
  }
  if (sk == CellKind::Climbable) {
    int ti;
    const NavChunk* dn = step_chunk(&ch, lx, ly - 1, lz, ti);
    if (dn) {
      const CellKind k = dn->kind_at(ti);
      if (k == CellKind::Climbable || kind_standable(k)) vm |= kMoveDown;
    }
  }
  if (vm || ch.vmoves) {
    if (!ch.vmoves) ch.vmoves = std::make_unique<std::uint8_t[]>(kChunkCells);
    ch.vmoves[i] = vm;
    if (vm) ch.costly = true;
  }
  if (env_.gap_reach > 0) update_gaps(ch, i, lx, ly, lz);
}

void NavGrid::update_gaps(NavChunk& ch, int i, int lx, int ly, int lz) {
  // Gap jumps: only from standable ground with a cardinal neighbour that is not a level walk.
  GapWord gm = 0;
  if (kind_standable(static_cast<CellKind>(ch.kind[i])) && (ch.moves[i] & 0xFFFFu) != 0x1111u)
    gm = gap_moves_of(ch, lx, ly, lz);
  if (gm || ch.gaps) {
    if (!ch.gaps) ch.gaps.create();
    ch.gaps.set(i, gm);  // (not `costly`: searches look at the gap plane itself)
  }
}

void NavGrid::rebuild_cell_moves(NavChunk& nc, CellPos c, bool gaps_only) {
  if (nc.uniform) return;
  const int i = index_in_chunk(c);
  if (gaps_only) {
    if (env_.gap_reach > 0) update_gaps(nc, i, c.x & 15, c.y & 15, c.z & 15);
    return;
  }
  nc.moves.set(i, 0);
  if (nc.vmoves) nc.vmoves[i] = 0;
  if (nc.gaps) nc.gaps.set(i, 0);
  if (kind_node(static_cast<CellKind>(nc.kind[i]))) compute_moves_for_cell(nc, i, c);
}

void NavGrid::rebuild_gaps(CellPos c) {
  NavChunk* ch = chunk(chunk_of(c));
  if (!ch || ch->uniform || env_.gap_reach <= 0) return;
  update_gaps(*ch, index_in_chunk(c), c.x & 15, c.y & 15, c.z & 15);
}

}  // namespace voxnav::detail
