#include "engine/nav/chunk_builds.h"

#include <algorithm>
#include <cstdlib>

#include "engine/nav/edit_maintenance.h"

namespace voxnav::detail {

namespace {
std::shared_ptr<Chunk> copy_chunk(const Chunk* c) {
  if (!c) return nullptr;
  auto out = std::make_shared<Chunk>();
  out->pos = c->pos;
  out->stamp = c->stamp;
  out->uniform = c->uniform;
  out->uniform_value = c->uniform_value;
  if (!c->uniform) {
    out->values = std::make_unique<std::uint16_t[]>(kChunkCells);
    std::copy(c->values.get(), c->values.get() + kChunkCells, out->values.get());
  }
  return out;
}
bool same_stamp(const std::shared_ptr<Chunk>& snap, const Chunk* now) {
  if (!snap || !now) return !snap && !now;
  return snap->stamp.load_serial == now->stamp.load_serial &&
         snap->stamp.generation == now->stamp.generation;
}
}  // namespace

namespace {
bool key_less(const ChunkPos& a, const ChunkPos& b) { return chunk_key(a) < chunk_key(b); }
}  // namespace

void ChunkBuilds::set_agent_chunks(std::vector<ChunkPos> chunks) {
  std::sort(chunks.begin(), chunks.end(), key_less);
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  if (chunks == agent_chunks_) return;
  agent_chunks_ = std::move(chunks);
  rescan_deferred_ = true;
}

bool ChunkBuilds::is_deferred(ChunkPos p) const {
  return std::binary_search(deferred_.begin(), deferred_.end(), p, key_less);
}

bool ChunkBuilds::is_new_build(ChunkPos p) const {
  return std::find(new_builds_.begin(), new_builds_.end(), p) != new_builds_.end();
}

std::vector<ChunkPos> ChunkBuilds::unbuilt_chunks() const {
  std::vector<ChunkPos> unbuilt;
  for (const Build& b : builds_) unbuilt.push_back(b.pos);
  unbuilt.insert(unbuilt.end(), new_builds_.begin(), new_builds_.end());
  unbuilt.insert(unbuilt.end(), deferred_.begin(), deferred_.end());
  std::sort(unbuilt.begin(), unbuilt.end(), key_less);
  unbuilt.erase(std::unique(unbuilt.begin(), unbuilt.end()), unbuilt.end());
  return unbuilt;
}

bool ChunkBuilds::near_agents(ChunkPos p) const {
  if (!streaming_ || build_radius_ <= 0) return true;
  const int r = build_radius_;
  for (const ChunkPos& a : agent_chunks_)
    if (std::abs(a.x - p.x) <= r && std::abs(a.y - p.y) <= r && std::abs(a.z - p.z) <= r)
      return true;
  return false;
}

bool ChunkBuilds::take_loads(const std::vector<Change>& all, std::vector<Change>& rest,
                             EditMaintenance& maint) {
  if (streaming_ && ctx_.islands.id_bound() != 0) {
    std::size_t loads = 0;
    for (const Change& c : all) {
      loads += c.kind == Change::Kind::Load;
      // An unloaded deferred chunk is forgotten (dispatch_builds looks at the deferred list).
      if (c.kind == Change::Kind::Unload && !deferred_.empty()) rescan_deferred_ = true;
    }
    // With a build radius every load is streamed (most are deferred, and a host loads many
    // chunks at once); without one, more than kMaxIncrementalChunks loads build at once.
    if (loads > 0 && (loads <= EditMaintenance::kMaxIncrementalChunks || build_radius_ > 0)) {
      // A load (or reload) of chunk p: p waits for its build (an older build in flight is
      // discarded at install: its load serial no longer matches), and the built chunks above and
      // below, which read p's blocks, are classified again now.
      std::vector<ChunkPos> drop, touch;
      for (const Change& c : all) {
        if (c.kind != Change::Kind::Load) {
          rest.push_back(c);
          continue;
        }
        const ChunkPos p = chunk_of(c.min);
        if (std::find(new_builds_.begin(), new_builds_.end(), p) == new_builds_.end())
          new_builds_.push_back(p);
        if (ctx_.grid.chunk(p)) drop.push_back(p);
        touch.push_back(p);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx)
              if ((dx | dy | dz) != 0 && ctx_.grid.reads_chunk(-dx, -dy, -dz) &&
                  ctx_.grid.chunk({p.x + dx, p.y + dy, p.z + dz}))
                touch.push_back({p.x + dx, p.y + dy, p.z + dz});
      }
      maint.chunk_level(touch, [&] {
        for (const ChunkPos& p : drop) ctx_.grid.drop_chunk(p);
        for (const ChunkPos& q : touch)
          if (ctx_.grid.chunk(q) && !is_new_build(q)) ctx_.grid.classify_chunk(ctx_.space, q);
      });
      return true;
    }
  }
  return false;
}

void ChunkBuilds::dispatch() {
  const std::uint64_t delay = ctx_.delivery_delay();
  // The chunks to build now: the deferred chunks an agent came near (in chunk_key order), then
  // this update's loads near an agent (in load order); the other loads join the deferred ones.
  // Unloaded or already built chunks leave the deferred list.
  std::vector<ChunkPos> go;
  if (rescan_deferred_ && !deferred_.empty()) {
    std::size_t kept = 0;
    for (const ChunkPos& p : deferred_) {
      if (!ctx_.space.chunk(p) || ctx_.grid.chunk(p)) continue;
      if (near_agents(p))
        go.push_back(p);
      else
        deferred_[kept++] = p;
    }
    deferred_.resize(kept);
  }
  rescan_deferred_ = false;
  for (const ChunkPos& p : new_builds_) {
    if (!ctx_.space.chunk(p)) continue;  // unloaded again in the same update
    auto it = std::lower_bound(deferred_.begin(), deferred_.end(), p, key_less);
    const bool was_deferred = it != deferred_.end() && *it == p;
    if (near_agents(p)) {
      if (was_deferred) deferred_.erase(it);  // reloaded near an agent
      go.push_back(p);
    } else if (!was_deferred) {
      deferred_.insert(it, p);
    }
  }
  new_builds_.clear();
  for (const ChunkPos& p : go) {
    Build& b = builds_.emplace_back();
    b.pos = p;
    b.deliver_tick = ctx_.tick + delay;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx)
          if (ctx_.grid.reads_chunk(dx, dy, dz))
            b.snap[static_cast<std::size_t>(nb_index(dx, dy, dz))] =
                copy_chunk(ctx_.space.chunk({p.x + dx, p.y + dy, p.z + dz}));
    Build* bp = &b;
    const BlockRegistry* reg = &ctx_.space.registry();
    ctx_.exec->submit([this, bp, reg](int) {
      const NavGrid& grid = ctx_.grid;
      auto nc = std::make_unique<NavChunk>();
      nc->pos = bp->pos;
      BlockNeighbourhood nb;
      for (std::size_t k = 0; k < nb.c.size(); ++k) nb.c[k] = bp->snap[k].get();
      grid.classify_into(*reg, nb, *nc);
      bp->result = std::move(nc);
    });
  }
}

bool ChunkBuilds::install_due(EditMaintenance& maint) {
  bool any = false;
  while (!builds_.empty() && builds_.front().deliver_tick <= ctx_.tick) {
    Build b = std::move(builds_.front());
    builds_.pop_front();
    const Chunk* now = ctx_.space.chunk(b.pos);
    // Installed only if the chunk is still the one the snapshot was taken of (same load).
    constexpr std::size_t kSelf = 13;  // nb_index(0, 0, 0)
    if (!now || !b.result || now->stamp.load_serial != b.snap[kSelf]->stamp.load_serial ||
        ctx_.grid.chunk(b.pos))
      continue;
    const ChunkPos p = b.pos;
    const bool self_edited = !same_stamp(b.snap[kSelf], now);
    bool band_stale = false;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx | dy | dz) != 0 && ctx_.grid.reads_chunk(dx, dy, dz) &&
              !same_stamp(b.snap[static_cast<std::size_t>(nb_index(dx, dy, dz))],
                          ctx_.space.chunk({p.x + dx, p.y + dy, p.z + dz})))
            band_stale = true;
    // The built chunks whose layer 0 reads this chunk's blocks: the ones above and below (and for
    // the 2x2 footprint the -x, -z and -xz columns).
    std::vector<ChunkPos> classify{p};
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx | dy | dz) != 0 && ctx_.grid.reads_chunk(-dx, -dy, -dz) &&
              ctx_.grid.chunk({p.x + dx, p.y + dy, p.z + dz}))
            classify.push_back({p.x + dx, p.y + dy, p.z + dz});
    bool whole = self_edited;
    maint.chunk_level(classify, [&] {
      ctx_.grid.install_chunk(std::move(b.result));
      // Edited since the snapshot: classify again from the current blocks. A neighbour it reads
      // was edited, loaded or unloaded: only the band of cells facing it (reclassify_facing). The
      // chunks above and below read this chunk's blocks (their facing bands): classify them again
      // too.
      if (self_edited)
        ctx_.grid.classify_chunk(ctx_.space, p);
      else if (band_stale)
        whole = !reclassify_facing(p, b.snap);
      for (std::size_t k = 1; k < classify.size(); ++k)
        ctx_.grid.classify_chunk(ctx_.space, classify[k]);
      // (workers leave the surface plane to the main thread)
      ctx_.grid.refresh_surface(ctx_.space, p);
    });
    // The agents re-check corridors near the chunk and the ones above and below, as after an edit.
    Change ch;
    ch.serial = ctx_.processed_serial;
    ch.kind = Change::Kind::Load;
    const int back = ctx_.grid.envelope().footprint2 ? 16 : 0;  // foot cells standing over p
    ch.min = CellPos{p.x * 16 - back, p.y * 16 - 16, p.z * 16 - back};
    ch.max = CellPos{p.x * 16 + 15, p.y * 16 + 31, p.z * 16 + 15};
    ctx_.change_feed.publish(ch);
    ++ctx_.stats.builds_installed;
    if (whole) ++ctx_.stats.builds_reclassified;
    if (!whole && band_stale) ++ctx_.stats.builds_band_reclassified;
    any = true;
  }
  return any;
}

bool ChunkBuilds::reclassify_facing(ChunkPos p,
                                    const std::array<std::shared_ptr<Chunk>, 27>& snap) {
  NavChunk* nc = ctx_.grid.chunk(p);
  // Whether the chunk is stored uniform (no arrays) depends on the neighbours' blocks too: when
  // the snapshot's answer or today's is uniform, classify the whole chunk (cheap for a uniform
  // one, and exact).
  if (!nc || nc->uniform || ctx_.grid.uniform_kind_of(ctx_.space, p) >= 0) {
    ctx_.grid.classify_chunk(ctx_.space, p);
    return false;
  }
  // Layer 0 of cell c reads the blocks from c.y - 1 to c.y + 3 in its column (for the 2x2
  // footprint also the columns x + 1 and z + 1): the dependency box of maintain_edit seen from
  // the cell. So the cells reading neighbour (dx, dy, dz) are, along y, ly 13..15 toward the
  // chunk above and ly 0 toward the one below, and along x (z) lx 15 (lz 15) toward +x (+z).
  // Every other cell reads only blocks whose stamps match the snapshot: its layer 0 is exact.
  for (int dy = -1; dy <= 1; ++dy)
    for (int dz = -1; dz <= 1; ++dz)
      for (int dx = -1; dx <= 1; ++dx) {
        if ((dx | dy | dz) == 0 || !ctx_.grid.reads_chunk(dx, dy, dz)) continue;
        if (same_stamp(snap[static_cast<std::size_t>(nb_index(dx, dy, dz))],
                       ctx_.space.chunk({p.x + dx, p.y + dy, p.z + dz})))
          continue;
        const int x0 = dx > 0 ? 15 : 0, z0 = dz > 0 ? 15 : 0;
        const int y0 = dy > 0 ? 13 : 0, y1 = dy < 0 ? 0 : 15;
        ctx_.grid.classify_box(ctx_.space, CellPos{p.x * 16 + x0, p.y * 16 + y0, p.z * 16 + z0},
                               CellPos{p.x * 16 + 15, p.y * 16 + y1, p.z * 16 + 15});
      }
  return true;
}

}  // namespace voxnav::detail
