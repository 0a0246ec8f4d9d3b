#include "engine/classify/nav_grid.h"

#include <algorithm>

namespace voxnav::detail {

const char* edge_kind_name(EdgeKind k) {
  switch (k) {
    case EdgeKind::Start: return "start";
    case EdgeKind::Walk: return "walk";
    case EdgeKind::StepUp: return "step_up";
    case EdgeKind::StepDown: return "step_down";
    case EdgeKind::Jump: return "jump";
    case EdgeKind::Drop: return "drop";
    case EdgeKind::GapJump: return "gap_jump";
    case EdgeKind::Climb: return "climb";
    case EdgeKind::Swim: return "swim";
    case EdgeKind::Door: return "door";
    case EdgeKind::Fly: return "fly";
  }
  return "?";
}

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

CellKind NavGrid::kind(Cell c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->kind_at(index_in_chunk(c)) : CellKind::Blocked;
}
int NavGrid::floor_q(Cell c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch && !ch->uniform ? ch->floor[index_in_chunk(c)] : 0;
}
std::uint32_t NavGrid::moves(Cell c) const {
  const NavChunk* ch = chunk(chunk_of(c));
  return ch ? ch->moves_at(index_in_chunk(c)) : 0u;
}

int NavGrid::uniform_kind_of(const Space& space, ChunkPos p) const {
  return uniform_kind_for(space.registry(), space.chunk(p), space.chunk({p.x, p.y - 1, p.z}),
                          space.chunk({p.x, p.y + 1, p.z}));
}

int NavGrid::uniform_kind_for(const BlockRegistry& reg, const Chunk* self, const Chunk* below,
                              const Chunk* above) const {
  // The common uniform chunks, solid rock and open sky, classified without arrays. Both are
  // exact: every cell of such a chunk classifies to the same kind with no moves, and an open-sky
  // cell has the full 255 clearance (the chunk above has no collision either, or is not loaded).
  if (!self || !self->uniform) return -1;
  const int hw = env_.half_width_q;
  const std::uint16_t v = self->uniform_value;
  if (reg.traits(v) == 0 && reg.top_in_footprint(v, hw) >= kHeightUnits) return int(CellKind::Blocked);
  auto empty = [&](const Chunk* c) {
    return !c || (c->uniform && reg.traits(c->uniform_value) == 0 && !reg.has_collision(c->uniform_value));
  };
  if (reg.traits(v) == 0 && !reg.has_collision(v) && empty(below) && empty(above)) return int(CellKind::Air);
  return -1;
}

void NavGrid::classify_into(const BlockRegistry& reg, const Chunk* self, const Chunk* below, const Chunk* above,
                            NavChunk& nc) const {
  nc.standable = 0;
  nc.costly = false;
  if (const int k = uniform_kind_for(reg, self, below, above); k >= 0) {
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
  if (!nc.kind) {
    nc.kind = std::make_unique<std::uint8_t[]>(kChunkCells);
    nc.floor = std::make_unique<std::uint8_t[]>(kChunkCells);
    nc.clear = std::make_unique<std::uint8_t[]>(kChunkCells);
    nc.moves = std::make_unique<std::uint32_t[]>(kChunkCells);
  }
  std::fill(nc.moves.get(), nc.moves.get() + kChunkCells, 0u);
  std::fill(nc.kind.get(), nc.kind.get() + kChunkCells, std::uint8_t(0));
  for (int i = 0; i < kChunkCells; ++i) classify_cell(reg, self, below, above, nc, i);
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
  classify_into(space.registry(), self, space.chunk({p.x, p.y - 1, p.z}), space.chunk({p.x, p.y + 1, p.z}), *slot);
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
  const int th = reg.top_in_footprint(v, hw);
  CellKind kind = CellKind::Blocked;
  int support = -1;
  int clearance = 0;
  if (th < kHeightUnits) {
    const int vb = value(x, ly - 1, z);
    const int tb = vb < 0 ? -1 : reg.top_in_footprint(static_cast<std::uint16_t>(vb), hw);
    if (th >= 0) support = th;
    if (tb >= kHeightUnits) support = std::max(support, tb - kHeightUnits);
    const int feet = support < 0 ? 0 : support;
    // Lowest box bottom above the feet, scanning this cell and the three above it;
    // ceiling_in_footprint answers 2 * kHeightUnits for "no box in this cell".
    constexpr int kNone = 2 * kHeightUnits;
    constexpr int kScan = 4 * kHeightUnits;  // clearance is capped at 255 anyway
    int ceil = kScan;
    const int c0 = reg.ceiling_in_footprint(v, hw, feet);
    if (c0 < kNone) ceil = c0;
    for (int k = 1; k <= 3 && ceil > kHeightUnits * k; ++k) {
      const int w = value(x, ly + k, z);
      if (w < 0) {  // unloaded space above counts as a ceiling
        ceil = std::min(ceil, kHeightUnits * k);
        break;
      }
      const int ck = reg.ceiling_in_footprint(static_cast<std::uint16_t>(w), hw, 0);
      if (ck < kNone) ceil = std::min(ceil, kHeightUnits * k + ck);
    }
    clearance = std::min(255, ceil - feet);
    std::uint32_t tr = reg.traits(v);
    const int v1 = value(x, ly + 1, z);
    const std::uint32_t tr_up = v1 < 0 ? 0u : reg.traits(static_cast<std::uint16_t>(v1));
    const std::uint32_t tr_below = vb < 0 ? 0u : reg.traits(static_cast<std::uint16_t>(vb));
    if (support < 0) {
      kind = CellKind::Air;  // nothing to stand on or in: a body can only fall through
    } else if (clearance < env_.height_q) {
      kind = CellKind::Blocked;
    } else if ((tr | tr_up) & kTraitFluidHarm) {
      kind = CellKind::DamageFire;
    } else if (tr & kTraitFluidSwim) {
      kind = CellKind::Water;
    } else if ((tr | tr_up | tr_below) & kTraitHazardFire) {
      kind = CellKind::DamageFire;
    } else if ((tr | tr_up) & kTraitHazardOther) {
      kind = CellKind::DamageOther;
    } else if ((tr | tr_up | tr_below) & kTraitSlow) {
      kind = CellKind::Slow;
    } else {
      kind = CellKind::Walkable;
    }
    if (support >= 0 && (tr & (kTraitDoor | kTraitClimbable))) kind = CellKind::Blocked;
  }
  const bool was = kind_standable(static_cast<CellKind>(nc.kind[i]));
  nc.kind[i] = static_cast<std::uint8_t>(kind);
  nc.floor[i] = static_cast<std::uint8_t>(support < 0 ? 0 : support);
  nc.clear[i] = static_cast<std::uint8_t>(std::max(0, clearance));
  nc.standable += int(kind_standable(kind)) - int(was);
  if (kind_standable(kind) && kind != CellKind::Walkable) nc.costly = true;
}

void NavGrid::classify_box(const Space& space, Cell mn, Cell mx) {
  const BlockRegistry& reg = space.registry();
  const ChunkPos a = chunk_of(mn), b = chunk_of(mx);
  for (int cy = a.y; cy <= b.y; ++cy)
    for (int cz = a.z; cz <= b.z; ++cz)
      for (int cx = a.x; cx <= b.x; ++cx) {
        const ChunkPos p{cx, cy, cz};
        NavChunk* nc = chunk(p);
        const Chunk* self = space.chunk(p);
        if (!nc || nc->uniform || !self) continue;
        const Chunk* below = space.chunk({p.x, p.y - 1, p.z});
        const Chunk* above = space.chunk({p.x, p.y + 1, p.z});
        const int x0 = std::max(mn.x, cx * 16) & 15, x1 = std::min(mx.x, cx * 16 + 15) & 15;
        const int y0 = std::max(mn.y, cy * 16) & 15, y1 = std::min(mx.y, cy * 16 + 15) & 15;
        const int z0 = std::max(mn.z, cz * 16) & 15, z1 = std::min(mx.z, cz * 16 + 15) & 15;
        for (int y = y0; y <= y1; ++y)
          for (int z = z0; z <= z1; ++z)
            for (int x = x0; x <= x1; ++x) classify_cell(reg, self, below, above, *nc, x | (z << 4) | (y << 8));
      }
}

void NavGrid::rebuild_moves_box(Cell mn, Cell mx) {
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
              nc->moves[i] = 0;
              if (kind_standable(static_cast<CellKind>(nc->kind[i])))
                compute_moves_for_cell(*nc, i, Cell{cx * 16 + x, cy * 16 + y, cz * 16 + z});
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
    ch->moves[i] = 0;
    if (!kind_standable(static_cast<CellKind>(ch->kind[i]))) continue;
    const Cell c{p.x * 16 + (i & 15), p.y * 16 + (i >> 8), p.z * 16 + ((i >> 4) & 15)};
    compute_moves_for_cell(*ch, i, c);
  }
}

void NavGrid::compute_moves_for_cell(NavChunk& ch, int i, Cell c) {
  const int lx = c.x & 15, ly = c.y & 15, lz = c.z & 15;
  const int fs = ch.floor[i];
  const int cs = ch.clear[i];
  std::uint32_t word = 0;
  auto code_walkish = [](int code) { return code == 1 || code == 3 || code == 5; };
  for (int dir = 0; dir < 8; ++dir) {
    const bool diagonal = dir >= 4;
    if (diagonal && !(code_walkish(move_code(word, kDiagA[dir])) &&
                      code_walkish(move_code(word, kDiagB[dir]))))
      continue;
    int code = 0;
    for (int dy = 1; dy >= -env_.max_drop; --dy) {
      int ti;
      NavChunk* tc = step_chunk(&ch, lx + kDirDx[dir], ly + dy, lz + kDirDz[dir], ti);
      if (!tc) break;  // unloaded: never a move
      const CellKind k = tc->kind_at(ti);
      if (kind_standable(k)) {
        const int ft = tc->floor[ti];
        const int ct = tc->clear[ti];
        const int rise = dy * kHeightUnits + ft - fs;  // feet height change, 1/64 cells
        if (rise > 0) {
          if (rise > env_.jump_q || cs < rise + env_.height_q) break;
          if (rise <= env_.step_q) code = dy == 1 ? 3 : 1;
          else code = dy == 1 ? 4 : 2;
        } else {
          if (dy == 0 && ct < -rise + env_.height_q) break;
          if (dy == 0) code = 1;
          else if (dy == -1 && -rise <= env_.step_q) code = 5;
          else code = 5 + (-dy);  // drop codes 6.. for dy -1..-7
        }
        break;
      }
      if (dy == 1) continue;
      if (k != CellKind::Air) break;  // a wall, fluid or hazard stops the fall
      // The body leaves the source at its feet height: the first open cell must fit it there.
      if (dy == 0 && !tc->uniform && tc->clear[ti] < fs + env_.height_q) break;
    }
    if (diagonal && !code_walkish(code)) code = 0;
    word |= static_cast<std::uint32_t>(code) << (dir * 4);
  }
  ch.moves[i] = word;
}

}  // namespace voxnav::detail
