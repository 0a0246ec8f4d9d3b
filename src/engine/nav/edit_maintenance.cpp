#include "engine/nav/edit_maintenance.h"

#include <algorithm>
#include <climits>

#include "engine/nav/chunk_builds.h"

namespace voxnav::detail {

bool EditMaintenance::maintain(const std::vector<Change>& changes, bool dropped,
                               const ChunkBuilds& builds) {
  if (changes.empty()) return dropped;
  bool chunk_level_change = false;
  for (const Change& c : changes) {
    const std::int64_t volume =
        std::int64_t(c.max.x - c.min.x + 1) * (c.max.y - c.min.y + 1) * (c.max.z - c.min.z + 1);
    if (c.kind == Change::Kind::Load || c.kind == Change::Kind::Unload ||
        volume > kMaxIncrementalCells)
      chunk_level_change = true;
  }
  if (!chunk_level_change) {
    bool answers_changed = dropped;
    for (const Change& c : changes) answers_changed |= maintain_edit(c);
    return answers_changed;
  }
  maintain_chunks(changes, builds);
  return true;
}

void EditMaintenance::maintain_chunks(const std::vector<Change>& changes,
                                      const ChunkBuilds& builds) {
  std::vector<ChunkPos> classify;
  auto add_box = [&](CellPos mn, CellPos mx) {
    const ChunkPos a = chunk_of(mn), b = chunk_of(mx);
    for (int cy = a.y; cy <= b.y; ++cy)
      for (int cz = a.z; cz <= b.z; ++cz)
        for (int cx = a.x; cx <= b.x; ++cx) classify.push_back({cx, cy, cz});
  };
  for (const Change& c : changes) {
    // The 2x2 footprint's cells one column toward -x and -z stand over the changed cells too.
    const int f2 = ctx_.grid.envelope().footprint2 ? 1 : 0;
    if (c.kind == Change::Kind::Load || c.kind == Change::Kind::Unload) {
      add_box(CellPos{c.min.x - 16 * f2, c.min.y - 16, c.min.z - 16 * f2},
              CellPos{c.max.x, c.max.y + 16, c.max.z});
    } else {
      // Dependency box of an edited cell: the cells whose envelope or support can touch it.
      add_box(CellPos{c.min.x - f2, c.min.y - (kScanCells - 1), c.min.z - f2},
              CellPos{c.max.x, c.max.y + 1, c.max.z});
      // Whether a chunk is stored uniform reads the chunks above and below it (and for the 2x2
      // footprint the +x, +z and +xz columns): the chunks whose decision reads an edited chunk
      // are classified again too (as maintain_edit checks them).
      add_box(CellPos{c.min.x - 16 * f2, c.min.y - 16, c.min.z - 16 * f2},
              CellPos{c.max.x, c.max.y + 16, c.max.z});
    }
  }
  auto sort_unique = [](std::vector<ChunkPos>& v) {
    std::sort(v.begin(), v.end(),
              [](const ChunkPos& a, const ChunkPos& b) { return chunk_key(a) < chunk_key(b); });
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  sort_unique(classify);
  chunk_level(classify, [&] {
    for (const ChunkPos& p : classify) {
      // A chunk loaded in this same update waits for its worker build; any other is classified
      // now (a build still in flight for it is then discarded at install).
      // A deferred chunk stays unbuilt (its build reads the blocks current then).
      if (!ctx_.grid.chunk(p) && (builds.is_new_build(p) || builds.is_deferred(p))) continue;
      ctx_.grid.classify_chunk(ctx_.space, p);
    }
  });
}

void EditMaintenance::chunk_level_with(std::vector<ChunkPos> classify, void (*call)(void*),
                                       void* fn) {
  auto sort_unique = [](std::vector<ChunkPos>& v) {
    std::sort(v.begin(), v.end(),
              [](const ChunkPos& a, const ChunkPos& b) { return chunk_key(a) < chunk_key(b); });
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  sort_unique(classify);
  // Moves of a cell read layer 0 one column around it, one cell up and max_drop cells down.
  std::vector<ChunkPos> moves;
  moves.reserve(classify.size() * 3);
  for (const ChunkPos& p : classify)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx) moves.push_back({p.x + dx, p.y + dy, p.z + dz});
  sort_unique(moves);
  // A first build, or many chunks at once: recompute every island. Otherwise keep the old move
  // words and labels of the chunks whose moves are recomputed and apply the difference.
  const bool full = ctx_.islands.id_bound() == 0 || classify.size() > kMaxIncrementalChunks;
  std::vector<ChunkSnap> snaps;
  if (!full) {
    for (const ChunkPos& p : moves) {
      const NavChunk* ch = ctx_.grid.chunk(p);
      if (!ch || ch->uniform || !ch->scc || ch->nodes == 0) continue;
      ChunkSnap sn;
      sn.key = chunk_key(p);
      sn.moves.resize(kChunkCells);
      ch->moves.copy_to(sn.moves.data());
      sn.labels.resize(kChunkCells);
      ch->scc.copy_to(sn.labels.data());
      if (ch->vmoves) sn.vmoves.assign(ch->vmoves.get(), ch->vmoves.get() + kChunkCells);
      if (ch->gaps) {
        sn.gaps.resize(kChunkCells);
        ch->gaps.copy_to(sn.gaps.data());
      }
      snaps.push_back(std::move(sn));
    }
  }
  call(fn);  // the caller's classification
  for (const ChunkPos& p : classify) ctx_.grid.link(p);
  for (const ChunkPos& p : moves) ctx_.grid.rebuild_moves(p);
  if (full) {
    ctx_.islands.rebuild(ctx_.grid);
    return;
  }
  // snaps is in chunk_key order (moves is).
  auto snap_of = [&](ChunkPos p) -> const ChunkSnap* {
    const std::uint64_t k = chunk_key(p);
    auto it = std::lower_bound(snaps.begin(), snaps.end(), k,
                               [](const ChunkSnap& a, std::uint64_t v) { return a.key < v; });
    return it != snaps.end() && it->key == k ? &*it : nullptr;
  };
  auto in_moves = [&](ChunkPos p) {
    return std::binary_search(
        moves.begin(), moves.end(), p,
        [](const ChunkPos& a, const ChunkPos& b) { return chunk_key(a) < chunk_key(b); });
  };
  auto old_label = [&](const CellPos& c) -> std::uint32_t {
    const ChunkPos p = chunk_of(c);
    if (in_moves(p)) {
      const ChunkSnap* sn = snap_of(p);
      return sn ? sn->labels[static_cast<std::size_t>(index_in_chunk(c))] : 0u;
    }
    const NavChunk* ch = ctx_.grid.chunk(p);  // outside: unchanged
    return ch && !ch->uniform && ch->scc ? ch->scc[index_in_chunk(c)] : 0u;
  };
  IslandDelta& d = scratch_delta_;
  d.clear();
  for (const ChunkPos& p : moves) {
    const ChunkSnap* sn = snap_of(p);
    const NavChunk* ch = ctx_.grid.chunk(p);
    const bool now_any = ch && !ch->uniform && ch->nodes > 0;
    if (!sn && !now_any) continue;
    for (int i = 0; i < kChunkCells; ++i) {
      const auto si = static_cast<std::size_t>(i);
      const std::uint32_t ol = sn ? sn->labels[si] : 0u;
      const bool ost = ol != 0;
      const std::uint32_t ow = ost ? sn->moves[si] : 0u;
      const std::uint8_t ov = ost && !sn->vmoves.empty() ? sn->vmoves[si] : std::uint8_t(0);
      const bool st = now_any && kind_node(ch->kind_at(i));
      const std::uint32_t word = st ? ch->moves_at(i) : 0u;
      const std::uint8_t vword = st ? ch->vmoves_at(i) : std::uint8_t(0);
      const GapWord ogap = ost && !sn->gaps.empty() ? sn->gaps[si] : GapWord(0);
      const GapWord gword = st ? ch->gaps_at(i) : GapWord(0);
      if (!ost && !st) continue;
      const CellPos c{p.x * 16 + (i & 15), p.y * 16 + (i >> 8), p.z * 16 + ((i >> 4) & 15)};
      if (ost && st) {
        const std::uint8_t og = ctx_.islands.gate_of(ol), ng = kind_gate(ch->kind_at(i));
        if ((og != 0) != (ng != 0)) {
          // A cell entering or leaving the gate kinds: rare at chunk level; recompute everything.
          ctx_.islands.rebuild(ctx_.grid);
          return;
        }
        if (og != ng) d.gate_changes.push_back(c);
      }
      if (ost && !st) {
        d.removed_nodes.push_back(c);
        d.removed_labels.push_back(ol);
      }
      if (!ost && st) d.added_nodes.push_back(c);
      if (word == ow && vword == ov && gword == ogap) continue;
      auto edge = [&](int dir, int co, int cn) {
        const int dyo = kMoveCodes[co].dy, dyn = kMoveCodes[cn].dy;
        if (co && cn && dyo == dyn) return;
        const int top = std::max(co, cn);  // a gap jump lands two or three cells along
        const int reach = top >= kCodeGapLevel ? gap_code_reach(top) : 1;
        const int dx = dir < 8 ? reach * kDirDx[dir] : 0, dz = dir < 8 ? reach * kDirDz[dir] : 0;
        if (co) {
          const CellPos t{c.x + dx, c.y + dyo, c.z + dz};
          d.removed_edges.push_back({c, t, ol, old_label(t)});
        }
        if (cn) d.added_edges.push_back({c, CellPos{c.x + dx, c.y + dyn, c.z + dz}});
      };
      for (int dir = 0; dir < 8; ++dir) {
        const int co = move_code(ow, dir), cn = move_code(word, dir);
        if (co != cn) edge(dir, co, cn);
      }
      for (int b = 0; b < 2; ++b) {
        const std::uint8_t bit = b == 0 ? kMoveUp : kMoveDown;
        const int code = b == 0 ? kCodeVertUp : kCodeVertDown;
        const int co = (ov & bit) ? code : 0, cn = (vword & bit) ? code : 0;
        if (co != cn) edge(b == 0 ? kDirUp : kDirDown, co, cn);
      }
      for (int g = 0; g < 4 * kGapVariants; ++g) {
        const GapWord bit = static_cast<GapWord>(kGapBit[g >> 2] << (g & 3));
        const int code = kGapCode[g >> 2];
        const int co = (ogap & bit) ? code : 0, cn = (gword & bit) ? code : 0;
        if (co != cn) edge(g & 3, co, cn);
      }
    }
  }
  ctx_.islands.apply(ctx_.grid, d);
}

// ---- maintain_edit: one edit of a few cells, maintained cell by cell ----
//
// Chunks stored uniform (solid rock, open sky: no arrays) stay so exactly while the blocks of
// the chunk and of the chunks above and below allow it. Where that decision flips, the whole
// chunk is classified again, its old state kept for the delta, and every cell whose layer 0
// changed joins the edit (an air cell's clearance under a new ceiling, for instance). Only the
// cells whose layer 0 changes can change a move word (moves read layer 0 alone), so layer 0 of
// the dependency box is recorded before it is classified again.
bool EditMaintenance::maintain_edit(const Change& c) {
  const EditBox box = dependency_box(c);
  record_layer0(box);
  collect_uniform_candidates(c, box);
  reclassify_uniform_flips();
  const ChangedBox changed = reclassify_box(box);
  collect_move_cells(changed, box.f2);
  snapshot_old_cells(box);
  rebuild_move_words();
  return ctx_.islands.apply(ctx_.grid, island_delta());
}

EditMaintenance::EditBox EditMaintenance::dependency_box(const Change& c) const {
  // Support one below, ceiling scan three above, fluid / hazard traits one above; the 2x2
  // footprint's foot cells one toward -x and -z stand over the edit too.
  EditBox b;
  b.f2 = ctx_.grid.envelope().footprint2 ? 1 : 0;
  b.min = CellPos{c.min.x - b.f2, c.min.y - (kScanCells - 1), c.min.z - b.f2};
  b.max = CellPos{c.max.x, c.max.y + 1, c.max.z};
  b.w = b.max.x - b.min.x + 1;
  b.h = b.max.y - b.min.y + 1;
  b.d = b.max.z - b.min.z + 1;
  return b;
}

template <class F>
void EditMaintenance::each_box_cell(const EditBox& box, F&& f) const {
  const NavChunk* last = nullptr;
  ChunkPos last_p{};
  bool have = false;
  for (int y = box.min.y; y <= box.max.y; ++y)
    for (int z = box.min.z; z <= box.max.z; ++z)
      for (int x = box.min.x; x <= box.max.x; ++x) {
        const CellPos cc{x, y, z};
        const ChunkPos p = chunk_of(cc);
        if (!have || !(p == last_p)) {
          last = cell_in_range(cc) ? ctx_.grid.chunk(p) : nullptr;
          last_p = p;
          have = true;
        }
        f(cc, last ? layer0_of(*last, index_in_chunk(cc)) : Layer0Cell{});
      }
}

void EditMaintenance::record_layer0(const EditBox& box) {
  std::vector<Layer0Cell>& before = scratch_layer0_;
  before.resize(static_cast<std::size_t>(box.w) * box.h * box.d);
  each_box_cell(box, [&](const CellPos& cc, const Layer0Cell& l0) { before[box.index(cc)] = l0; });
}

void EditMaintenance::collect_uniform_candidates(const Change& c, const EditBox& box) {
  const int f2 = box.f2;
  std::vector<ChunkPos>& check = scratch_chunks_;
  check.clear();
  const ChunkPos a = chunk_of(box.min), b = chunk_of(box.max);
  for (int cy = a.y; cy <= b.y; ++cy)
    for (int cz = a.z; cz <= b.z; ++cz)
      for (int cx = a.x; cx <= b.x; ++cx) check.push_back({cx, cy, cz});
  const ChunkPos e0 = chunk_of(c.min), e1 = chunk_of(c.max);
  for (int cy = e0.y; cy <= e1.y; ++cy)
    for (int cz = e0.z; cz <= e1.z; ++cz)
      for (int cx = e0.x; cx <= e1.x; ++cx) {
        check.push_back({cx, cy - 1, cz});
        check.push_back({cx, cy + 1, cz});
        // The 2x2 footprint's uniform test also reads the +x, +z and +xz columns.
        for (int dz = -f2; dz <= 0; ++dz)
          for (int dx = -f2; dx <= 0; ++dx)
            if (dx | dz)
              for (int dy = -1; dy <= 1; ++dy) check.push_back({cx + dx, cy + dy, cz + dz});
      }
  std::sort(check.begin(), check.end(),
            [](const ChunkPos& l, const ChunkPos& r) { return chunk_key(l) < chunk_key(r); });
  check.erase(std::unique(check.begin(), check.end()), check.end());
}

void EditMaintenance::reclassify_uniform_flips() {
  NavGrid& grid = ctx_.grid;
  std::vector<SavedChunk>& saved = scratch_saved_;
  saved.clear();
  std::vector<CellPos>& extra = scratch_extra_;
  extra.clear();
  std::vector<CellPos>& extra_hazard = scratch_extra_hazard_;
  extra_hazard.clear();
  for (const ChunkPos& p : scratch_chunks_) {
    NavChunk* nc = grid.chunk(p);
    if (!nc) continue;
    const int want = grid.uniform_kind_of(ctx_.space, p);
    if (nc->uniform ? want == int(nc->uniform_kind) : want < 0) continue;
    SavedChunk sv;
    sv.pos = p;
    sv.uniform = nc->uniform;
    sv.uniform_kind = nc->uniform_kind;
    if (!nc->uniform) {
      for (auto [to, from] : {std::pair{&sv.kind, &nc->kind}, std::pair{&sv.floor, &nc->floor},
                              std::pair{&sv.clear, &nc->clear}}) {
        to->resize(kChunkCells);
        from->copy_to(to->data());
      }
      sv.moves.resize(kChunkCells);
      nc->moves.copy_to(sv.moves.data());
      if (nc->vmoves) sv.vmoves.assign(nc->vmoves.get(), nc->vmoves.get() + kChunkCells);
      if (nc->gaps) {
        sv.gaps.resize(kChunkCells);
        nc->gaps.copy_to(sv.gaps.data());
      }
      if (nc->flags) sv.flags.assign(nc->flags.get(), nc->flags.get() + kChunkCells);
      if (nc->sides) sv.sides.assign(nc->sides.get(), nc->sides.get() + kChunkCells);
    }
    grid.classify_chunk(ctx_.space, p);
    for (int i = 0; i < kChunkCells; ++i) {
      const CellKind ok = sv.kind_at(i), nk = nc->kind_at(i);
      const int oc = sv.uniform ? 255 : sv.clear[static_cast<std::size_t>(i)];
      const int ncl = nc->uniform ? 255 : nc->clear[i];
      const int of = sv.uniform ? 0 : sv.floor[static_cast<std::size_t>(i)];
      const int nf = nc->uniform ? 0 : nc->floor[i];
      const std::uint32_t otr = sv.sides.empty() ? kNoSides : sv.sides[static_cast<std::size_t>(i)];
      if (ok != nk || oc != ncl || of != nf || otr != nc->sides_at(i)) extra.push_back(cell_of(nc, i));
      // (a hazard flag moved: the cells whose danger band reads it, see widen_to_hazard_readers)
      const std::uint8_t ofl = sv.flags.empty() ? 0 : sv.flags[static_cast<std::size_t>(i)];
      if ((ofl ^ nc->flags_at(i)) & kFlagsHazard) extra_hazard.push_back(cell_of(nc, i));
      else if ((ofl ^ nc->flags_at(i)) & (kFlagNarrowSupport | kFlagClimbBlock))
        extra.push_back(cell_of(nc, i));
    }
    saved.push_back(std::move(sv));
  }
}

namespace {
// The danger band of a standable cell reads the flags one column around it (two toward +x and +z
// for the 2x2 footprint) from one below its feet to two above (three for the 2x2 footprint): a
// flag that moved at h is read from the cells h - (1 + f2, 2 + f2, 1 + f2) to h + 1, which
// collect_move_cells covers for the box h - (f2, 1 + f2, f2) .. h. The flag may be another edit's
// of this update (the box is classified from the blocks after every edit of the update, so a
// later edit's change shows here first and not again there): the box reaches from the flags that
// moved, not from this edit's cells only. Widens (omin, omax) by the box for flags in (mn, mx).
void widen_to_hazard_readers(CellPos mn, CellPos mx, int f2, CellPos& omin, CellPos& omax) {
  omin = CellPos{std::min(omin.x, mn.x - f2), std::min(omin.y, mn.y - 1 - f2),
                 std::min(omin.z, mn.z - f2)};
  omax = CellPos{std::max(omax.x, mx.x), std::max(omax.y, mx.y), std::max(omax.z, mx.z)};
}
}  // namespace

EditMaintenance::ChangedBox EditMaintenance::reclassify_box(const EditBox& box) {
  // A changed hazard flag moves the danger band (decided with the moves, from flags up to two
  // cells away): then every cell of the box counts as changed.
  ctx_.grid.classify_box(ctx_.space, box.min, box.max);
  const std::vector<Layer0Cell>& before = scratch_layer0_;
  ChangedBox changed;
  bool hazard_moved = false;
  CellPos hmin{INT_MAX, INT_MAX, INT_MAX}, hmax{INT_MIN, INT_MIN, INT_MIN};
  each_box_cell(box, [&](const CellPos& cc, const Layer0Cell& now) {
    const Layer0Cell& was = before[box.index(cc)];
    if (now == was) return;
    if ((now.flags ^ was.flags) & kFlagsHazard) {
      hazard_moved = true;
      hmin = CellPos{std::min(hmin.x, cc.x), std::min(hmin.y, cc.y), std::min(hmin.z, cc.z)};
      hmax = CellPos{std::max(hmax.x, cc.x), std::max(hmax.y, cc.y), std::max(hmax.z, cc.z)};
    }
    changed.min = CellPos{std::min(changed.min.x, cc.x), std::min(changed.min.y, cc.y),
                          std::min(changed.min.z, cc.z)};
    changed.max = CellPos{std::max(changed.max.x, cc.x), std::max(changed.max.y, cc.y),
                          std::max(changed.max.z, cc.z)};
  });
  if (hazard_moved) {
    changed.min = box.min;
    changed.max = box.max;
    widen_to_hazard_readers(hmin, hmax, box.f2, changed.min, changed.max);
  }
  return changed;
}

void EditMaintenance::collect_move_cells(const ChangedBox& changed, int f2) {
  // Every cell with a move into a reclassified cell (one column around it, one cell below to
  // max_drop cells above) and the cells themselves; with gap jumps also the cells two and three
  // columns away along the axes (a gap jump reads the cells up to kMaxGapCells + 1 ahead).
  const std::vector<CellPos>& extra = scratch_extra_;
  const std::vector<CellPos>& extra_hazard = scratch_extra_hazard_;
  std::vector<CellPos>& cells = scratch_cells_;
  cells.clear();
  std::vector<CellPos>& gap_cells = scratch_gap_cells_;  // only their gap jumps can change
  gap_cells.clear();
  const bool gaps = ctx_.grid.envelope().gap_reach > 0;
  // (a vertical move down, a swimmer's or a climber's, comes from one cell above)
  const int reach_down = std::max(ctx_.grid.envelope().max_drop, 1);
  auto add_move_box = [&](CellPos mn, CellPos mx) {
    for (int y = mn.y - 1; y <= mx.y + reach_down; ++y) {
      for (int z = mn.z - 1; z <= mx.z + 1; ++z)
        for (int x = mn.x - 1; x <= mx.x + 1; ++x)
          if (cell_in_range(CellPos{x, y, z})) cells.push_back(CellPos{x, y, z});
      // A gap jump two or three columns away reads the landing column from kGapReadDown below its
      // take-off level to kGapReadUp above it.
      static_assert(kGapReadUp <= 1, "the loop starts one cell below the reclassified cells");
      if (!gaps || y < mn.y - kGapReadUp || y > mx.y + kGapReadDown) continue;
      auto gap_cell = [&](CellPos g) {
        if (cell_in_range(g)) gap_cells.push_back(g);
      };
      for (int r = 2; r <= kMaxGapCells + 1; ++r) {  // (the take-offs r columns away)
        for (int x = mn.x; x <= mx.x; ++x) {
          gap_cell(CellPos{x, y, mn.z - r});
          gap_cell(CellPos{x, y, mx.z + r});
        }
        for (int z = mn.z; z <= mx.z; ++z) {
          gap_cell(CellPos{mn.x - r, y, z});
          gap_cell(CellPos{mx.x + r, y, z});
        }
      }
    }
  };
  if (changed.min.x <= changed.max.x) add_move_box(changed.min, changed.max);
  for (const CellPos& e : extra) add_move_box(e, e);
  for (const CellPos& e : extra_hazard) {
    CellPos mn = e, mx = e;
    widen_to_hazard_readers(e, e, f2, mn, mx);
    add_move_box(mn, mx);
  }
  auto less = [](const CellPos& a, const CellPos& b) {
    return a.y != b.y ? a.y < b.y : a.z != b.z ? a.z < b.z : a.x < b.x;
  };
  if (!extra.empty() || !extra_hazard.empty()) {
    std::sort(cells.begin(), cells.end(), less);
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  }
  if (!gap_cells.empty()) {
    std::sort(gap_cells.begin(), gap_cells.end(), less);
    gap_cells.erase(std::unique(gap_cells.begin(), gap_cells.end()), gap_cells.end());
    if (!extra.empty() || !extra_hazard.empty())  // recomputed whole: their gap jumps too
      gap_cells.erase(std::remove_if(gap_cells.begin(), gap_cells.end(),
                                     [&](const CellPos& g) {
                                       return std::binary_search(cells.begin(), cells.end(), g,
                                                                 less);
                                     }),
                      gap_cells.end());
  }
  whole_cells_ = cells.size();
  cells.insert(cells.end(), gap_cells.begin(), gap_cells.end());
}

NavChunk* EditMaintenance::chunk_at(const CellPos& x) {
  const ChunkPos p = chunk_of(x);
  if (!have_last_ || !(p == last_pos_)) {
    last_chunk_ = ctx_.grid.chunk(p);
    last_pos_ = p;
    have_last_ = true;
  }
  return last_chunk_;
}

void EditMaintenance::snapshot_old_cells(const EditBox& box) {
  // From the saved copy for chunks classified again whole; layer 0 of the dependency box was
  // classified again too, its kinds before are recorded.
  const std::vector<CellPos>& cells = scratch_cells_;
  const std::vector<Layer0Cell>& before = scratch_layer0_;
  std::vector<OldCell>& old = scratch_old_;
  old.clear();
  have_last_ = false;
  for (std::size_t at = 0; at < cells.size(); ++at) {
    const CellPos& cell = cells[at];
    const bool gaps_only = at >= whole_cells_;  // the cells appended from the gap cells
    const ChunkPos cp = chunk_of(cell);
    const int i = index_in_chunk(cell);
    const SavedChunk* sv = nullptr;
    for (const SavedChunk& x : scratch_saved_)
      if (x.pos == cp) sv = &x;
    if (sv) {
      const CellKind k = sv->kind_at(i);
      const bool nd = kind_node(k);
      const auto si = static_cast<std::size_t>(i);
      old.push_back({cell, nd, kind_gate(k),
                     nd && !sv->vmoves.empty() ? sv->vmoves[si] : std::uint8_t(0),
                     nd && !sv->gaps.empty() ? sv->gaps[si] : GapWord(0),
                     nd && !sv->uniform ? sv->moves[si] : 0u, gaps_only});
      continue;
    }
    const NavChunk* ch = chunk_at(cell);
    const CellKind k = !ch                  ? CellKind::Blocked
                       : box.contains(cell) ? static_cast<CellKind>(before[box.index(cell)].kind)
                                            : ch->kind_at(i);
    const bool nd = kind_node(k);
    old.push_back({cell, nd, kind_gate(k), nd ? ch->vmoves_at(i) : std::uint8_t(0),
                   nd ? ch->gaps_at(i) : GapWord(0), nd ? ch->moves_at(i) : 0u, gaps_only});
  }
}

void EditMaintenance::rebuild_move_words() {
  for (const OldCell& o : scratch_old_)
    if (NavChunk* ch = chunk_at(o.c)) ctx_.grid.rebuild_cell_moves(*ch, o.c, o.gaps_only);
}

IslandDelta& EditMaintenance::island_delta() {
  // A node that becomes a gate cell or stops being one leaves its island and comes back as a new
  // one (every move into or out of it with it); a gate cell of another gate kind only changes
  // its kind.
  const std::vector<OldCell>& old = scratch_old_;
  IslandDelta& d = scratch_delta_;
  d.clear();
  std::vector<std::uint64_t>& relabel = scratch_relabel_;
  relabel.clear();
  for (const OldCell& o : old) {
    if (!o.node) continue;
    const NavChunk* kc = chunk_at(o.c);
    const CellKind k = kc ? kc->kind_at(index_in_chunk(o.c)) : CellKind::Blocked;
    if (!kind_node(k)) continue;
    const std::uint8_t g = kind_gate(k);
    if ((g != 0) != (o.gate != 0))
      relabel.push_back(cell_key(o.c));
    else if (g != o.gate)
      d.gate_changes.push_back(o.c);
  }
  std::sort(relabel.begin(), relabel.end());
  auto relabelled = [&](const CellPos& x) {
    return !relabel.empty() && std::binary_search(relabel.begin(), relabel.end(), cell_key(x));
  };
  for (const OldCell& o : old) {
    const NavChunk* ch = chunk_at(o.c);
    const int i = index_in_chunk(o.c);
    const bool nd = ch && kind_node(ch->kind_at(i));
    const std::uint32_t word = nd ? ch->moves_at(i) : 0u;
    const std::uint8_t vword = nd ? ch->vmoves_at(i) : std::uint8_t(0);
    const GapWord gword = nd ? ch->gaps_at(i) : GapWord(0);
    const bool again = relabelled(o.c);
    if ((o.node && !nd) || again) d.removed_nodes.push_back(o.c);
    if ((!o.node && nd) || again) d.added_nodes.push_back(o.c);
    if (word == o.word && vword == o.vword && gword == o.gword && relabel.empty()) continue;
    auto edge = [&](int dir, int co, int cn) {
      const int dyo = kMoveCodes[co].dy, dyn = kMoveCodes[cn].dy;
      const int top = std::max(co, cn);  // a gap jump lands two or three cells along
      const int reach = top >= kCodeGapLevel ? gap_code_reach(top) : 1;
      const int dx = dir < 8 ? reach * kDirDx[dir] : 0, dz = dir < 8 ? reach * kDirDz[dir] : 0;
      const CellPos to{o.c.x + dx, o.c.y + dyo, o.c.z + dz},
          tn{o.c.x + dx, o.c.y + dyn, o.c.z + dz};
      if (co && cn && dyo == dyn && !again && !relabelled(to))
        return;  // the same move, maybe another kind
      if (co) d.removed_edges.push_back({o.c, to});
      if (cn) d.added_edges.push_back({o.c, tn});
    };
    for (int dir = 0; dir < 8; ++dir) {
      const int co = move_code(o.word, dir), cn = move_code(word, dir);
      if (co != cn || (co && (again || relabel.size()))) edge(dir, co, cn);
    }
    for (int b = 0; b < 2; ++b) {
      const std::uint8_t bit = b == 0 ? kMoveUp : kMoveDown;
      const int code = b == 0 ? kCodeVertUp : kCodeVertDown;
      const int co = (o.vword & bit) ? code : 0, cn = (vword & bit) ? code : 0;
      if (co != cn || (co && (again || relabel.size()))) edge(b == 0 ? kDirUp : kDirDown, co, cn);
    }
    for (int g = 0; g < 4 * kGapVariants; ++g) {
      const GapWord bit = static_cast<GapWord>(kGapBit[g >> 2] << (g & 3));
      const int code = kGapCode[g >> 2];
      const int co = (o.gword & bit) ? code : 0, cn = (gword & bit) ? code : 0;
      if (co != cn || (co && (again || relabel.size()))) edge(g & 3, co, cn);
    }
  }
  return d;
}

}  // namespace voxnav::detail
