#include "engine/nav/nav_world.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>

namespace voxnav {

const char* path_failure_name(PathFailure r) noexcept {
  switch (r) {
    case PathFailure::None:
      return "none";
    case PathFailure::Unreachable:
      return "unreachable";
    case PathFailure::NoPath:
      return "no_path";
    case PathFailure::BudgetExhausted:
      return "budget_exhausted";
    case PathFailure::BadStart:
      return "bad_start";
    case PathFailure::BadGoal:
      return "bad_goal";
    case PathFailure::NotLoaded:
      return "not_loaded";
  }
  return "?";
}

const char* reach_reason_name(ReachReason r) noexcept {
  switch (r) {
    case ReachReason::None:
      return "none";
    case ReachReason::NotLoaded:
      return "not_loaded";
    case ReachReason::StartNotStandable:
      return "start_not_standable";
    case ReachReason::GoalNotStandable:
      return "goal_not_standable";
    case ReachReason::DoorGated:
      return "door_gated";
    case ReachReason::ProfileRestricted:
      return "profile_restricted";
    case ReachReason::FlightSearch:
      return "flight_search";
    case ReachReason::BadProfile:
      return "bad_profile";
  }
  return "?";
}

}  // namespace voxnav

namespace voxnav::detail {

NavWorld::NavWorld(Space& space, ClassEnvelope env, Executor* executor, int lockstep_delay)
    : space_(space),
      grid_(env),
      exec_(executor ? executor : &sync_),
      lockstep_delay_(lockstep_delay) {
  main_searcher_ = std::make_unique<AStar>(0);
  const int workers = std::min(exec_->worker_count(), kMaxSearchers - 1);
  for (int w = 0; w < workers; ++w) searchers_.push_back(std::make_unique<AStar>(w + 1));
}

NavWorld::~NavWorld() { exec_->wait_idle(); }

bool NavWorld::update() {
  if (waits_) exec_->wait_idle();
  ++tick_;
  // 1. Apply finished searches in request order.
  std::size_t kept = 0;
  for (std::uint32_t idx : in_flight_) {
    RequestSlot& s = slots_[idx];
    if (s.deliver_tick > tick_) {
      in_flight_[kept++] = idx;
      continue;
    }
    const SearchOutcome o = s.result.outcome;
    stats_.nodes_expanded += s.result.expanded;
    ++stats_.searches;
    stats_.search_us.push(s.search_us);
    // An agent's search toward a goal past unbuilt chunks that met no cell nearer the goal than
    // its start (the search then answers NoPath, or BudgetExhausted, rather than a partial route
    // of one cell): the agent stands as close as the built chunks go. A one-cell partial route,
    // on which it waits Blocked and retries (AgentSystem::install), not a failure.
    const bool stays_put = s.spec.toward_unbuilt && s.spec.toward &&
                           (o == SearchOutcome::NoPath || o == SearchOutcome::BudgetExhausted);
    if (stays_put) {
      s.corridor.cells.assign(1, s.spec.start);
      s.corridor.kinds.assign(1, EdgeKind::Start);
      s.corridor.points.clear();
    }
    if (o == SearchOutcome::Found || (o == SearchOutcome::Partial && s.spec.toward) || stays_put) {
      s.state = RequestState::Ready;
      s.partial = o != SearchOutcome::Found;
    } else {
      s.state = RequestState::Failed;
      s.fail = o == SearchOutcome::BudgetExhausted ? PathFailure::BudgetExhausted
               : o == SearchOutcome::BadStart      ? PathFailure::BadStart
               : o == SearchOutcome::Partial       ? PathFailure::BudgetExhausted
                                                   : PathFailure::NoPath;
    }
  }
  in_flight_.resize(kept);

  // 2. Worker builds of loaded chunks due this tick, then maintenance from the change log.
  const bool installed = install_builds();
  if (installed) {
    ++layers_version_;
    ++epoch_;
  }
  std::vector<Change> changes;
  space_.changes_since(processed_serial_, changes);
  bool changed = false;
  if (!changes.empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool answers_changed = maintain(changes);
    processed_serial_ = changes.back().serial;
    if (trims_log_) space_.trim_changes(processed_serial_);
    change_feed_.publish(changes);
    if (answers_changed) ++epoch_;
    ++stats_.maintenance_runs;
    stats_.last_maintenance_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    changed = true;
  }
  changed |= installed;
  dispatch_builds();

  // 3. Dispatch queued requests.
  const std::uint64_t delay = lockstep_delay_ > 0 ? static_cast<std::uint64_t>(lockstep_delay_) : 1;
  std::size_t taken = 0, dispatched = 0;
  for (; taken < queued_.size(); ++taken) {
    if (search_budget_ > 0 && dispatched == static_cast<std::size_t>(search_budget_)) break;
    const std::uint32_t idx = queued_[taken];
    RequestSlot& s = slots_[idx];
    // Judged on the layers it will be searched on (a request kept for a later update is judged
    // again then: the screening is cheap).
    if ((changed || s.screened_version != layers_version_) && !screen(s)) continue;
    ++dispatched;
    s.state = RequestState::Searching;
    s.deliver_tick = tick_ + delay;
    s.epoch = epoch_;
    s.layers_version = layers_version_;
    in_flight_.push_back(idx);
    RequestSlot* sp = &s;
    exec_->submit([this, sp](int worker) {
      AStar& a = *searchers_[static_cast<std::size_t>(worker) % searchers_.size()];
      SearchParams p{sp->spec.start,     sp->spec.goal,         sp->spec.goal_range,
                     sp->spec.max_nodes, sp->spec.max_distance, sp->spec.toward,
                     &sp->spec.avoid,    sp->spec.avoid_cost};
      const auto t0 = std::chrono::steady_clock::now();
      sp->result = a.run(grid_, p, sp->spec.costs);
      sp->search_us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      sp->corridor.cells = sp->result.cells;
      sp->corridor.kinds = sp->result.kinds;
      string_pull(grid_, sp->result.cells, sp->result.kinds, sp->corridor.points,
                  sp->spec.costs.surface.get());
    });
  }
  // Requests beyond the budget wait for the next update, in request order.
  queued_.erase(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(taken));
  return changed;
}

bool NavWorld::maintain(const std::vector<Change>& all) {
  ++layers_version_;
  // Streaming: chunk loads are built on the executor (install_builds); a reloaded chunk loses
  // its old navigation data at once.
  std::vector<Change> rest;
  const std::vector<Change>* todo = &all;
  bool dropped = false;
  if (streaming_ && islands_.id_bound() != 0) {
    std::size_t loads = 0;
    for (const Change& c : all) {
      loads += c.kind == Change::Kind::Load;
      // An unloaded deferred chunk is forgotten (dispatch_builds looks at the deferred list).
      if (c.kind == Change::Kind::Unload && !deferred_.empty()) rescan_deferred_ = true;
    }
    // With a build radius every load is streamed (most are deferred, and a host loads many
    // chunks at once); without one, more than kMaxIncrementalChunks loads build at once.
    if (loads > 0 && (loads <= kMaxIncrementalChunks || build_radius_ > 0)) {
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
        if (grid_.chunk(p)) drop.push_back(p);
        touch.push_back(p);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dz = -1; dz <= 1; ++dz)
            for (int dx = -1; dx <= 1; ++dx)
              if ((dx | dy | dz) != 0 && grid_.reads_chunk(-dx, -dy, -dz) &&
                  grid_.chunk({p.x + dx, p.y + dy, p.z + dz}))
                touch.push_back({p.x + dx, p.y + dy, p.z + dz});
      }
      chunk_level(touch, [&] {
        for (const ChunkPos& p : drop) grid_.drop_chunk(p);
        for (const ChunkPos& q : touch)
          if (grid_.chunk(q) && !is_new_build(q)) grid_.classify_chunk(space_, q);
      });
      dropped = true;
      todo = &rest;
    }
  }
  const std::vector<Change>& changes = *todo;
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
  maintain_chunks(changes);
  return true;
}

bool NavWorld::is_new_build(ChunkPos p) const {
  return std::find(new_builds_.begin(), new_builds_.end(), p) != new_builds_.end();
}

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

void NavWorld::set_agent_chunks(std::vector<ChunkPos> chunks) {
  std::sort(chunks.begin(), chunks.end(), key_less);
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  if (chunks == agent_chunks_) return;
  agent_chunks_ = std::move(chunks);
  rescan_deferred_ = true;
}

bool NavWorld::is_deferred(ChunkPos p) const {
  return std::binary_search(deferred_.begin(), deferred_.end(), p, key_less);
}

bool NavWorld::near_agents(ChunkPos p) const {
  if (!streaming_ || build_radius_ <= 0) return true;
  const int r = build_radius_;
  for (const ChunkPos& a : agent_chunks_)
    if (std::abs(a.x - p.x) <= r && std::abs(a.y - p.y) <= r && std::abs(a.z - p.z) <= r)
      return true;
  return false;
}

void NavWorld::dispatch_builds() {
  const std::uint64_t delay = lockstep_delay_ > 0 ? static_cast<std::uint64_t>(lockstep_delay_) : 1;
  // The chunks to build now: the deferred chunks an agent came near (in chunk_key order), then
  // this update's loads near an agent (in load order); the other loads join the deferred ones.
  // Unloaded or already built chunks leave the deferred list.
  std::vector<ChunkPos> go;
  if (rescan_deferred_ && !deferred_.empty()) {
    std::size_t kept = 0;
    for (const ChunkPos& p : deferred_) {
      if (!space_.chunk(p) || grid_.chunk(p)) continue;
      if (near_agents(p))
        go.push_back(p);
      else
        deferred_[kept++] = p;
    }
    deferred_.resize(kept);
  }
  rescan_deferred_ = false;
  for (const ChunkPos& p : new_builds_) {
    if (!space_.chunk(p)) continue;  // unloaded again in the same update
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
    b.deliver_tick = tick_ + delay;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx)
          if (grid_.reads_chunk(dx, dy, dz))
            b.snap[static_cast<std::size_t>(nb_index(dx, dy, dz))] =
                copy_chunk(space_.chunk({p.x + dx, p.y + dy, p.z + dz}));
    Build* bp = &b;
    const BlockRegistry* reg = &space_.registry();
    exec_->submit([this, bp, reg](int) {
      auto nc = std::make_unique<NavChunk>();
      nc->pos = bp->pos;
      BlockNeighbourhood nb;
      for (std::size_t k = 0; k < nb.c.size(); ++k) nb.c[k] = bp->snap[k].get();
      grid_.classify_into(*reg, nb, *nc);
      bp->result = std::move(nc);
    });
  }
}

bool NavWorld::install_builds() {
  bool any = false;
  while (!builds_.empty() && builds_.front().deliver_tick <= tick_) {
    Build b = std::move(builds_.front());
    builds_.pop_front();
    const Chunk* now = space_.chunk(b.pos);
    // Installed only if the chunk is still the one the snapshot was taken of (same load).
    constexpr std::size_t kSelf = 13;  // nb_index(0, 0, 0)
    if (!now || !b.result || now->stamp.load_serial != b.snap[kSelf]->stamp.load_serial ||
        grid_.chunk(b.pos))
      continue;
    const ChunkPos p = b.pos;
    const bool self_edited = !same_stamp(b.snap[kSelf], now);
    bool band_stale = false;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx | dy | dz) != 0 && grid_.reads_chunk(dx, dy, dz) &&
              !same_stamp(b.snap[static_cast<std::size_t>(nb_index(dx, dy, dz))],
                          space_.chunk({p.x + dx, p.y + dy, p.z + dz})))
            band_stale = true;
    // The built chunks whose layer 0 reads this chunk's blocks: the ones above and below (and for
    // the 2x2 footprint the -x, -z and -xz columns).
    std::vector<ChunkPos> classify{p};
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx)
          if ((dx | dy | dz) != 0 && grid_.reads_chunk(-dx, -dy, -dz) &&
              grid_.chunk({p.x + dx, p.y + dy, p.z + dz}))
            classify.push_back({p.x + dx, p.y + dy, p.z + dz});
    bool whole = self_edited;
    chunk_level(classify, [&] {
      grid_.install_chunk(std::move(b.result));
      // Edited since the snapshot: classify again from the current blocks. A neighbour it reads
      // was edited, loaded or unloaded: only the band of cells facing it (reclassify_facing). The
      // chunks above and below read this chunk's blocks (their facing bands): classify them again
      // too.
      if (self_edited)
        grid_.classify_chunk(space_, p);
      else if (band_stale)
        whole = !reclassify_facing(p, b.snap);
      for (std::size_t k = 1; k < classify.size(); ++k) grid_.classify_chunk(space_, classify[k]);
      grid_.refresh_surface(space_, p);  // workers leave the surface plane to the main thread
    });
    // The agents re-check corridors near the chunk and the ones above and below, as after an edit.
    Change ch;
    ch.serial = processed_serial_;
    ch.kind = Change::Kind::Load;
    const int back = grid_.envelope().footprint2 ? 16 : 0;  // foot cells standing over p
    ch.min = CellPos{p.x * 16 - back, p.y * 16 - 16, p.z * 16 - back};
    ch.max = CellPos{p.x * 16 + 15, p.y * 16 + 31, p.z * 16 + 15};
    change_feed_.publish(ch);
    ++stats_.builds_installed;
    if (whole) ++stats_.builds_reclassified;
    if (!whole && band_stale) ++stats_.builds_band_reclassified;
    any = true;
  }
  return any;
}

bool NavWorld::reclassify_facing(ChunkPos p, const std::array<std::shared_ptr<Chunk>, 27>& snap) {
  NavChunk* nc = grid_.chunk(p);
  // Whether the chunk is stored uniform (no arrays) depends on the neighbours' blocks too: when
  // the snapshot's answer or today's is uniform, classify the whole chunk (cheap for a uniform
  // one, and exact).
  if (!nc || nc->uniform || grid_.uniform_kind_of(space_, p) >= 0) {
    grid_.classify_chunk(space_, p);
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
        if ((dx | dy | dz) == 0 || !grid_.reads_chunk(dx, dy, dz)) continue;
        if (same_stamp(snap[static_cast<std::size_t>(nb_index(dx, dy, dz))],
                       space_.chunk({p.x + dx, p.y + dy, p.z + dz})))
          continue;
        const int x0 = dx > 0 ? 15 : 0, z0 = dz > 0 ? 15 : 0;
        const int y0 = dy > 0 ? 13 : 0, y1 = dy < 0 ? 0 : 15;
        grid_.classify_box(space_, CellPos{p.x * 16 + x0, p.y * 16 + y0, p.z * 16 + z0},
                           CellPos{p.x * 16 + 15, p.y * 16 + y1, p.z * 16 + 15});
      }
  return true;
}

bool NavWorld::maintain_edit(const Change& c) {
  const int max_drop = grid_.envelope().max_drop;
  // Layer 0 dependency box: the cells whose envelope, support or ceiling scan reads an edited
  // cell (support one below, ceiling scan three above, fluid / hazard traits one above; the 2x2
  // footprint's foot cells one toward -x and -z stand over it too).
  const int f2 = grid_.envelope().footprint2 ? 1 : 0;
  const CellPos bmin{c.min.x - f2, c.min.y - 3, c.min.z - f2}, bmax{c.max.x, c.max.y + 1, c.max.z};
  // Chunks stored uniform (solid rock, open sky: no arrays) stay so exactly while the blocks of
  // the chunk and of the chunks above and below allow it. Where that decision flips, the whole
  // chunk is classified again, its old state kept for the delta, and every cell whose layer 0
  // changed joins the edit (an air cell's clearance under a new ceiling, for instance).
  // Layer 0 of the dependency box before the edit: only the cells whose layer 0 changes can
  // change a move word (moves read layer 0 alone).
  const int bw = bmax.x - bmin.x + 1, bh = bmax.y - bmin.y + 1, bd = bmax.z - bmin.z + 1;
  auto box_index = [&](const CellPos& x) {
    return static_cast<std::size_t>(((x.y - bmin.y) * bd + (x.z - bmin.z)) * bw + (x.x - bmin.x));
  };
  auto in_box = [&](const CellPos& x) {
    return x.x >= bmin.x && x.x <= bmax.x && x.y >= bmin.y && x.y <= bmax.y && x.z >= bmin.z &&
           x.z <= bmax.z;
  };
  // Calls f(cell, its layer 0) for every cell of the box, a chunk looked up once per run.
  auto each_box_cell = [&](auto&& f) {
    const NavChunk* last = nullptr;
    ChunkPos last_p{};
    bool have = false;
    for (int y = bmin.y; y <= bmax.y; ++y)
      for (int z = bmin.z; z <= bmax.z; ++z)
        for (int x = bmin.x; x <= bmax.x; ++x) {
          const CellPos cc{x, y, z};
          const ChunkPos p = chunk_of(cc);
          if (!have || !(p == last_p)) {
            last = cell_in_range(cc) ? grid_.chunk(p) : nullptr;
            last_p = p;
            have = true;
          }
          f(cc, last ? layer0_of(*last, index_in_chunk(cc)) : Layer0Cell{});
        }
  };
  std::vector<Layer0Cell>& before = scratch_layer0_;
  before.resize(static_cast<std::size_t>(bw) * bh * bd);
  each_box_cell([&](const CellPos& cc, const Layer0Cell& l0) { before[box_index(cc)] = l0; });
  std::vector<ChunkPos>& check = scratch_chunks_;
  check.clear();
  {
    const ChunkPos a = chunk_of(bmin), b = chunk_of(bmax);
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
  std::vector<SavedChunk>& saved = scratch_saved_;
  saved.clear();
  std::vector<CellPos>& extra = scratch_extra_;
  extra.clear();
  std::vector<CellPos>& extra_hazard = scratch_extra_hazard_;
  extra_hazard.clear();
  for (const ChunkPos& p : check) {
    NavChunk* nc = grid_.chunk(p);
    if (!nc) continue;
    const int want = grid_.uniform_kind_of(space_, p);
    if (nc->uniform ? want == int(nc->uniform_kind) : want < 0) continue;
    SavedChunk sv;
    sv.pos = p;
    sv.uniform = nc->uniform;
    sv.uniform_kind = nc->uniform_kind;
    if (!nc->uniform) {
      sv.kind.assign(nc->kind.get(), nc->kind.get() + kChunkCells);
      sv.floor.assign(nc->floor.get(), nc->floor.get() + kChunkCells);
      sv.clear.assign(nc->clear.get(), nc->clear.get() + kChunkCells);
      sv.moves.assign(nc->moves.get(), nc->moves.get() + kChunkCells);
      if (nc->vmoves) sv.vmoves.assign(nc->vmoves.get(), nc->vmoves.get() + kChunkCells);
      if (nc->gaps) sv.gaps.assign(nc->gaps.get(), nc->gaps.get() + kChunkCells);
      if (nc->flags) sv.flags.assign(nc->flags.get(), nc->flags.get() + kChunkCells);
    }
    grid_.classify_chunk(space_, p);
    for (int i = 0; i < kChunkCells; ++i) {
      const CellKind ok = sv.kind_at(i), nk = nc->kind_at(i);
      const int oc = sv.uniform ? 255 : sv.clear[static_cast<std::size_t>(i)];
      const int ncl = nc->uniform ? 255 : nc->clear[i];
      const int of = sv.uniform ? 0 : sv.floor[static_cast<std::size_t>(i)];
      const int nf = nc->uniform ? 0 : nc->floor[i];
      if (ok != nk || oc != ncl || of != nf) extra.push_back(cell_of(nc, i));
      // (a hazard flag moved: the cells whose danger band reads it, see hazard_reader_box)
      const std::uint8_t ofl = sv.flags.empty() ? 0 : sv.flags[static_cast<std::size_t>(i)];
      if ((ofl ^ nc->flags_at(i)) & ~kFlagSlowBase) extra_hazard.push_back(cell_of(nc, i));
    }
    saved.push_back(std::move(sv));
  }
  // Layer 0 in the dependency box, and the cells in it whose layer 0 changed. A changed hazard
  // flag moves the danger band (decided with the moves, from flags up to two cells away): then
  // every cell of the box counts as changed.
  grid_.classify_box(space_, bmin, bmax);
  CellPos cmin{INT_MAX, INT_MAX, INT_MAX}, cmax{INT_MIN, INT_MIN, INT_MIN};
  bool hazard_moved = false;
  CellPos hmin{INT_MAX, INT_MAX, INT_MAX}, hmax{INT_MIN, INT_MIN, INT_MIN};
  each_box_cell([&](const CellPos& cc, const Layer0Cell& now) {
    const Layer0Cell& was = before[box_index(cc)];
    if (now == was) return;
    if ((now.flags ^ was.flags) & ~kFlagSlowBase) {
      hazard_moved = true;
      hmin = CellPos{std::min(hmin.x, cc.x), std::min(hmin.y, cc.y), std::min(hmin.z, cc.z)};
      hmax = CellPos{std::max(hmax.x, cc.x), std::max(hmax.y, cc.y), std::max(hmax.z, cc.z)};
    }
    cmin = CellPos{std::min(cmin.x, cc.x), std::min(cmin.y, cc.y), std::min(cmin.z, cc.z)};
    cmax = CellPos{std::max(cmax.x, cc.x), std::max(cmax.y, cc.y), std::max(cmax.z, cc.z)};
  });
  // The danger band of a standable cell reads the flags one column around it (two toward +x
  // and +z for the 2x2 footprint) from one below its feet to two above (three for the 2x2
  // footprint): a flag that moved at h is read from the cells h - (1 + f2, 2 + f2, 1 + f2) to
  // h + 1, which add_move_box covers for the box h - (f2, 1 + f2, f2) .. h. The flag may be
  // another edit's of this update (the box is classified from the blocks after every edit of the
  // update, so a later edit's change shows here first and not again there): the box reaches from
  // the flags that moved, not from this edit's cells only.
  auto hazard_reader_box = [&](CellPos mn, CellPos mx, CellPos& omin, CellPos& omax) {
    omin = CellPos{std::min(omin.x, mn.x - f2), std::min(omin.y, mn.y - 1 - f2),
                std::min(omin.z, mn.z - f2)};
    omax = CellPos{std::max(omax.x, mx.x), std::max(omax.y, mx.y), std::max(omax.z, mx.z)};
  };
  if (hazard_moved) {
    cmin = bmin;
    cmax = bmax;
    hazard_reader_box(hmin, hmax, cmin, cmax);
  }
  // Cells whose move words can change: every cell with a move into a reclassified cell (one
  // column around it, one cell below to max_drop cells above) and the cells themselves; with gap
  // jumps also the cells two columns away along the axes (a gap jump reads the cells two ahead).
  std::vector<CellPos>& cells = scratch_cells_;
  cells.clear();
  std::vector<CellPos>& gap_cells = scratch_gap_cells_;  // only their gap jumps can change
  gap_cells.clear();
  const bool gaps = grid_.envelope().gap_reach > 0;
  // (a vertical move down, a swimmer's or a climber's, comes from one cell above)
  const int reach_down = std::max(max_drop, 1);
  auto add_move_box = [&](CellPos mn, CellPos mx) {
    for (int y = mn.y - 1; y <= mx.y + reach_down; ++y) {
      for (int z = mn.z - 1; z <= mx.z + 1; ++z)
        for (int x = mn.x - 1; x <= mx.x + 1; ++x)
          if (cell_in_range(CellPos{x, y, z})) cells.push_back(CellPos{x, y, z});
      // A gap jump two columns away lands on a reclassified cell from its own level or from one
      // cell above it.
      if (!gaps || y < mn.y || y > mx.y + 1) continue;
      auto gap_cell = [&](CellPos g) {
        if (cell_in_range(g)) gap_cells.push_back(g);
      };
      for (int x = mn.x; x <= mx.x; ++x) {
        gap_cell(CellPos{x, y, mn.z - 2});
        gap_cell(CellPos{x, y, mx.z + 2});
      }
      for (int z = mn.z; z <= mx.z; ++z) {
        gap_cell(CellPos{mn.x - 2, y, z});
        gap_cell(CellPos{mx.x + 2, y, z});
      }
    }
  };
  if (cmin.x <= cmax.x) add_move_box(cmin, cmax);
  for (const CellPos& e : extra) add_move_box(e, e);
  for (const CellPos& e : extra_hazard) {
    CellPos mn = e, mx = e;
    hazard_reader_box(e, e, mn, mx);
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
  const std::size_t whole_cells = cells.size();
  cells.insert(cells.end(), gap_cells.begin(), gap_cells.end());
  // Snapshot the old state (from the saved copy for chunks classified again above).
  using Old = OldCell;
  std::vector<Old>& old = scratch_old_;
  old.clear();
  // The chunk of the cells in turn (they come in runs of the same chunk).
  NavChunk* last_chunk = nullptr;
  ChunkPos last_pos{};
  bool have_last = false;
  auto chunk_at = [&](const CellPos& x) {
    const ChunkPos p = chunk_of(x);
    if (!have_last || !(p == last_pos)) {
      last_chunk = grid_.chunk(p);
      last_pos = p;
      have_last = true;
    }
    return last_chunk;
  };
  for (std::size_t at = 0; at < cells.size(); ++at) {
    const CellPos& cell = cells[at];
    const bool gaps_only = at >= whole_cells;  // the cells appended from gap_cells
    const ChunkPos cp = chunk_of(cell);
    const int i = index_in_chunk(cell);
    const SavedChunk* sv = nullptr;
    for (const SavedChunk& x : saved)
      if (x.pos == cp) sv = &x;
    if (sv) {
      const CellKind k = sv->kind_at(i);
      const bool nd = kind_node(k);
      const auto si = static_cast<std::size_t>(i);
      old.push_back({cell, nd, kind_gate(k),
                     nd && !sv->vmoves.empty() ? sv->vmoves[si] : std::uint8_t(0),
                     nd && !sv->gaps.empty() ? sv->gaps[si] : std::uint8_t(0),
                     nd && !sv->uniform ? sv->moves[si] : 0u, gaps_only});
      continue;
    }
    const NavChunk* ch = chunk_at(cell);
    // (layer 0 of the dependency box was classified again above; its kinds before are kept)
    const CellKind k = !ch            ? CellKind::Blocked
                       : in_box(cell) ? static_cast<CellKind>(before[box_index(cell)].kind)
                                      : ch->kind_at(i);
    const bool nd = kind_node(k);
    old.push_back({cell, nd, kind_gate(k), nd ? ch->vmoves_at(i) : std::uint8_t(0),
                   nd ? ch->gaps_at(i) : std::uint8_t(0), nd ? ch->moves_at(i) : 0u, gaps_only});
  }
  // The move words.
  for (const Old& o : old)
    if (NavChunk* ch = chunk_at(o.c)) grid_.rebuild_cell_moves(*ch, o.c, o.gaps_only);
  // The delta of the move graph. A node that becomes a gate cell or stops being one leaves its
  // island and comes back as a new one (every move into or out of it with it); a gate cell of
  // another gate kind only changes its kind.
  IslandDelta& d = scratch_delta_;
  d.clear();
  std::vector<std::uint64_t>& relabel = scratch_relabel_;
  relabel.clear();
  for (const Old& o : old) {
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
  for (const Old& o : old) {
    const NavChunk* ch = chunk_at(o.c);
    const int i = index_in_chunk(o.c);
    const bool nd = ch && kind_node(ch->kind_at(i));
    const std::uint32_t word = nd ? ch->moves_at(i) : 0u;
    const std::uint8_t vword = nd ? ch->vmoves_at(i) : std::uint8_t(0);
    const std::uint8_t gword = nd ? ch->gaps_at(i) : std::uint8_t(0);
    const bool again = relabelled(o.c);
    if ((o.node && !nd) || again) d.removed_nodes.push_back(o.c);
    if ((!o.node && nd) || again) d.added_nodes.push_back(o.c);
    if (word == o.word && vword == o.vword && gword == o.gword && relabel.empty()) continue;
    auto edge = [&](int dir, int co, int cn) {
      const int dyo = kMoveCodes[co].dy, dyn = kMoveCodes[cn].dy;
      const int reach = std::max(co, cn) >= kCodeGapLevel ? 2 : 1;  // a gap jump: two cells
      const int dx = dir < 8 ? reach * kDirDx[dir] : 0, dz = dir < 8 ? reach * kDirDz[dir] : 0;
      const CellPos to{o.c.x + dx, o.c.y + dyo, o.c.z + dz}, tn{o.c.x + dx, o.c.y + dyn, o.c.z + dz};
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
    for (int g = 0; g < 8; ++g) {
      const std::uint8_t bit = static_cast<std::uint8_t>(1u << g);
      const int code = g < 4 ? kCodeGapLevel : kCodeGapDown;
      const int co = (o.gword & bit) ? code : 0, cn = (gword & bit) ? code : 0;
      if (co != cn || (co && (again || relabel.size()))) edge(g & 3, co, cn);
    }
  }
  return islands_.apply(grid_, d);
}

void NavWorld::maintain_chunks(const std::vector<Change>& changes) {
  std::vector<ChunkPos> classify;
  auto add_box = [&](CellPos mn, CellPos mx) {
    const ChunkPos a = chunk_of(mn), b = chunk_of(mx);
    for (int cy = a.y; cy <= b.y; ++cy)
      for (int cz = a.z; cz <= b.z; ++cz)
        for (int cx = a.x; cx <= b.x; ++cx) classify.push_back({cx, cy, cz});
  };
  for (const Change& c : changes) {
    // The 2x2 footprint's cells one column toward -x and -z stand over the changed cells too.
    const int f2 = grid_.envelope().footprint2 ? 1 : 0;
    if (c.kind == Change::Kind::Load || c.kind == Change::Kind::Unload) {
      add_box(CellPos{c.min.x - 16 * f2, c.min.y - 16, c.min.z - 16 * f2},
              CellPos{c.max.x, c.max.y + 16, c.max.z});
    } else {
      // Dependency box of an edited cell: the cells whose envelope or support can touch it.
      add_box(CellPos{c.min.x - f2, c.min.y - 3, c.min.z - f2}, CellPos{c.max.x, c.max.y + 1, c.max.z});
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
      if (!grid_.chunk(p) && (is_new_build(p) || is_deferred(p))) continue;
      grid_.classify_chunk(space_, p);
    }
  });
}

template <class F>
void NavWorld::chunk_level(std::vector<ChunkPos> classify, F&& do_classify) {
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
  const bool full = islands_.id_bound() == 0 || classify.size() > kMaxIncrementalChunks;
  std::vector<ChunkSnap> snaps;
  if (!full) {
    for (const ChunkPos& p : moves) {
      const NavChunk* ch = grid_.chunk(p);
      if (!ch || ch->uniform || !ch->scc || ch->nodes == 0) continue;
      ChunkSnap sn;
      sn.key = chunk_key(p);
      sn.moves.assign(ch->moves.get(), ch->moves.get() + kChunkCells);
      sn.labels.assign(ch->scc.get(), ch->scc.get() + kChunkCells);
      if (ch->vmoves) sn.vmoves.assign(ch->vmoves.get(), ch->vmoves.get() + kChunkCells);
      if (ch->gaps) sn.gaps.assign(ch->gaps.get(), ch->gaps.get() + kChunkCells);
      snaps.push_back(std::move(sn));
    }
  }
  do_classify();
  for (const ChunkPos& p : classify) grid_.link(p);
  for (const ChunkPos& p : moves) grid_.rebuild_moves(p);
  if (full) {
    islands_.rebuild(grid_);
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
    const NavChunk* ch = grid_.chunk(p);  // outside: unchanged
    return ch && !ch->uniform && ch->scc ? ch->scc[index_in_chunk(c)] : 0u;
  };
  IslandDelta& d = scratch_delta_;
  d.clear();
  for (const ChunkPos& p : moves) {
    const ChunkSnap* sn = snap_of(p);
    const NavChunk* ch = grid_.chunk(p);
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
      const std::uint8_t ogap = ost && !sn->gaps.empty() ? sn->gaps[si] : std::uint8_t(0);
      const std::uint8_t gword = st ? ch->gaps_at(i) : std::uint8_t(0);
      if (!ost && !st) continue;
      const CellPos c{p.x * 16 + (i & 15), p.y * 16 + (i >> 8), p.z * 16 + ((i >> 4) & 15)};
      if (ost && st) {
        const std::uint8_t og = islands_.gate_of(ol), ng = kind_gate(ch->kind_at(i));
        if ((og != 0) != (ng != 0)) {
          // A cell entering or leaving the gate kinds: rare at chunk level; recompute everything.
          islands_.rebuild(grid_);
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
        const int reach = std::max(co, cn) >= kCodeGapLevel ? 2 : 1;  // a gap jump: two cells
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
      for (int g = 0; g < 8; ++g) {
        const std::uint8_t bit = static_cast<std::uint8_t>(1u << g);
        const int code = g < 4 ? kCodeGapLevel : kCodeGapDown;
        const int co = (ogap & bit) ? code : 0, cn = (gword & bit) ? code : 0;
        if (co != cn) edge(g & 3, co, cn);
      }
    }
  }
  islands_.apply(grid_, d);
}

void NavWorld::build_from_space() {
  std::vector<ChunkPos> all = space_.loaded_chunks();
  chunk_level(all, [&] {
    for (const ChunkPos& p : all) grid_.classify_chunk(space_, p);
  });
  processed_serial_ = space_.serial();
  ++epoch_;
  ++layers_version_;
}

Reach NavWorld::reachable(CellPos from, CellPos goal, int goal_range, std::uint8_t gates,
                          bool restricted) {
  Reach r;
  r.epoch = epoch_;
  if (!cell_in_range(from) || !cell_in_range(goal)) {
    r.reason = ReachReason::NotLoaded;
    return r;
  }
  const NavChunk* fc = grid_.chunk(chunk_of(from));
  const NavChunk* gc = grid_.chunk(chunk_of(goal));
  if (!fc || !gc) {
    r.reason = ReachReason::NotLoaded;
    return r;
  }
  // Node cells carry a label; a chunk without labels (uniform, no node) has none.
  const std::uint32_t a = islands_.component_at(fc, index_in_chunk(from));
  if (!a) {
    r.reason = ReachReason::StartNotStandable;
    return r;
  }
  const std::uint32_t b = islands_.component_at(gc, index_in_chunk(goal));
  if (!b) {
    r.reason = ReachReason::GoalNotStandable;
    return r;
  }
  if (islands_.reaches(a, b, gates)) {
    r.answer = restricted ? ReachAnswer::Unknown : ReachAnswer::Yes;
    if (restricted) r.reason = ReachReason::ProfileRestricted;
  } else if ((gates & kGateAll) != kGateAll && islands_.reaches(a, b, kGateAll)) {
    // The class gets there through a gate this profile may not use: a door (the host may open
    // it, or the profile may be one that opens doors) or another gate kind.
    r.answer = ReachAnswer::Unknown;
    r.reason = islands_.reaches(a, b, gates | kGateDoorOpen | kGateDoorClosed)
                   ? ReachReason::DoorGated
                   : ReachReason::ProfileRestricted;
  } else if ((!builds_.empty() || !new_builds_.empty() || !deferred_.empty()) &&
             reaches_frontier(a)) {
    // The way may run through a chunk not built yet (deferred, or its build pending): not a No.
    r.answer = ReachAnswer::Unknown;
    r.reason = ReachReason::NotLoaded;
    ++stats_.frontier_unknowns;
  } else if (goal_range > 0) {
    r.answer = ReachAnswer::Unknown;  // another cell within range may still be reachable
  } else {
    r.answer = ReachAnswer::No;
    if (!builds_.empty() || !new_builds_.empty() || !deferred_.empty()) ++stats_.nos_with_unbuilt;
  }
  return r;
}

// Why a No stays right while some loaded chunks are not built (streaming). The full graph is the
// move graph the class would have with every loaded chunk built; the built graph is the one the
// islands describe. Layer 0 of a built chunk reads only blocks, which are loaded, so it equals the
// full graph's. A cell's moves (compute_moves_for_cell) read layer 0 within two columns of it
// (walk, step, jump and drop moves one column away, gap jumps two cells along an axis, the danger
// band one column, two toward +x and +z for the 2x2 footprint) from max_drop cells below it to
// two above (the danger band; three for the 2x2 footprint), and land inside that box (a step,
// jump or climb one above, a drop up to max_drop below); an unbuilt cell reads as no chunk: no
// move, no hazard. So a node cell of a built chunk whose box misses every unbuilt chunk
// has the same moves in both graphs (and the same gate kind: the danger band only changes kinds
// among standable ones). Call the others *frontier cells*. Suppose the full graph has a path P
// from a to b that the built graph lacks. Take the first cell f of P that is a frontier cell or
// lies in an unbuilt chunk. The cells before f are not frontier cells, so their moves, and the
// move into f, are in the built graph; f cannot lie in an unbuilt chunk (the move into it would
// make its source a frontier cell), unless f is the start itself, which lies in a built chunk.
// So f is a frontier cell that a reaches in the built graph, through the gate cells P uses. No is
// given only when not even with every gate kind a reaches b, so testing the frontier with every
// gate kind is conservative for every mask: when a reaches no frontier island, the built graph
// answers for the full graph and No is right.
void NavWorld::refresh_frontier() {
  const IslandStats& is = islands_.stats();
  const std::array<std::uint64_t, 5> key{layers_version_, epoch_, is.deltas, is.rebuilds,
                                         islands_.id_bound()};
  if (key == frontier_key_) return;
  frontier_key_ = key;
  ++stats_.frontier_scans;
  frontier_.clear();
  std::vector<ChunkPos> unbuilt;
  for (const Build& b : builds_) unbuilt.push_back(b.pos);
  unbuilt.insert(unbuilt.end(), new_builds_.begin(), new_builds_.end());
  unbuilt.insert(unbuilt.end(), deferred_.begin(), deferred_.end());
  std::sort(unbuilt.begin(), unbuilt.end(), key_less);
  unbuilt.erase(std::unique(unbuilt.begin(), unbuilt.end()), unbuilt.end());
  // The band of a built chunk facing an unbuilt neighbour: the cells whose move box (above)
  // reaches into it. Horizontally two cells (gap jumps land two cells away; more if the class's
  // gap reach ever grows), max_drop + 1 cells up from the bottom face (drops read and land up to
  // max_drop below, one more for margin), four cells down from the top face (a step or jump
  // lands one above, the danger band reads two above, three for the 2x2 footprint; one more for
  // margin).
  const ClassEnvelope& env = grid_.envelope();
  const int h = std::max(2, env.gap_reach + 1);
  const int below = std::max(2, env.max_drop + 1);
  const int above = 4;
  for (const ChunkPos& u : unbuilt) {
    if (!is_unbuilt(u)) continue;
    for (int oy = -1; oy <= 1; ++oy)
      for (int oz = -1; oz <= 1; ++oz)
        for (int ox = -1; ox <= 1; ++ox) {
          if ((ox | oy | oz) == 0) continue;
          // n is the built chunk, u = n + (ox, oy, oz).
          const NavChunk* n = grid_.chunk({u.x - ox, u.y - oy, u.z - oz});
          if (!n || n->uniform || !n->scc || n->nodes == 0) continue;
          auto range = [](int o, int toward_plus, int toward_minus, int& lo, int& hi) {
            lo = 0;
            hi = 15;
            if (o > 0) lo = 16 - toward_plus;
            if (o < 0) hi = toward_minus - 1;
          };
          int x0, x1, y0, y1, z0, z1;
          range(ox, h, h, x0, x1);
          range(oz, h, h, z0, z1);
          range(oy, above, below, y0, y1);
          for (int y = y0; y <= y1; ++y)
            for (int z = z0; z <= z1; ++z)
              for (int x = x0; x <= x1; ++x) {
                const std::uint32_t id = islands_.component_at(n, x | (z << 4) | (y << 8));
                if (id) frontier_.push_back(id);
              }
        }
  }
  std::sort(frontier_.begin(), frontier_.end());
  frontier_.erase(std::unique(frontier_.begin(), frontier_.end()), frontier_.end());
}

bool NavWorld::reaches_frontier(std::uint32_t a) {
  refresh_frontier();
  // Islands::reaches keeps one reach set per source and mask, so this walks the DAG once.
  for (const std::uint32_t f : frontier_)
    if (islands_.reaches(a, f, kGateAll)) return true;
  return false;
}

PathHandle NavWorld::request(const RequestSpec& spec) {
  std::uint32_t idx;
  if (!free_.empty()) {
    idx = free_.back();
    free_.pop_back();
  } else {
    idx = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  RequestSlot& s = slots_[idx];
  s.spec = spec;
  s.result = SearchResult{};
  s.corridor = Corridor{};
  s.fail = PathFailure::None;
  s.partial = false;
  s.state = RequestState::Queued;
  s.screened_version = 0;
  if (space_.serial() != processed_serial_) {
    // The world changed since navigation was last brought up to date (e.g. chunks loaded this
    // tick): judge the request at dispatch, after maintenance, not on stale layers.
    queued_.push_back(idx);
  } else if (screen(s)) {
    queued_.push_back(idx);
  }
  return PathHandle{idx, s.generation};
}

bool NavWorld::screen(RequestSlot& s) {
  s.screened_version = layers_version_;
  if (s.spec.toward_unbuilt) s.spec.toward = false;  // (set again below when it applies)
  const RequestSpec& spec = s.spec;
  const Reach r = reachable(spec.start, spec.goal, spec.goal_range, spec.costs.gates(),
                            spec.costs.restricts_class);
  if (r.answer == ReachAnswer::No && !spec.toward) {
    s.state = RequestState::Failed;
    s.fail = PathFailure::Unreachable;
  } else if (r.answer == ReachAnswer::Unknown && r.reason == ReachReason::NotLoaded) {
    const NavChunk* sc = cell_in_range(spec.start) ? grid_.chunk(chunk_of(spec.start)) : nullptr;
    if (spec.toward_unbuilt && sc && islands_.component_at(sc, index_in_chunk(spec.start))) {
      s.spec.toward = true;  // over the built chunks, as close to the goal as they go
      return true;
    }
    s.state = RequestState::Failed;
    s.fail = PathFailure::NotLoaded;
  } else if (r.answer == ReachAnswer::Unknown && r.reason == ReachReason::StartNotStandable) {
    s.state = RequestState::Failed;
    s.fail = PathFailure::BadStart;
  } else if (r.answer == ReachAnswer::Unknown && r.reason == ReachReason::GoalNotStandable &&
             spec.goal_range == 0 && !spec.toward) {  // toward: the closest reachable cell
    s.state = RequestState::Failed;
    s.fail = PathFailure::BadGoal;
  } else {
    return true;
  }
  return false;  // failed at once, without a search
}

const RequestSlot* NavWorld::slot(PathHandle h) const {
  if (h.generation == 0 || h.index >= slots_.size()) return nullptr;
  const RequestSlot& s = slots_[h.index];
  if (s.generation != h.generation || s.state == RequestState::Free) return nullptr;
  return &s;
}

RequestState NavWorld::state(PathHandle h, PathFailure* why) const {
  const RequestSlot* s = slot(h);
  if (!s) return RequestState::Free;
  if (why) *why = s->fail;
  return s->state;
}

bool NavWorld::release(PathHandle h) {
  if (!slot(h)) return false;
  RequestSlot& s = slots_[h.index];
  if (s.state == RequestState::Searching) {
    exec_->wait_idle();  // its job may still write the slot
    in_flight_.erase(std::remove(in_flight_.begin(), in_flight_.end(), h.index), in_flight_.end());
  }
  if (s.state == RequestState::Queued)
    queued_.erase(std::remove(queued_.begin(), queued_.end(), h.index), queued_.end());
  s.state = RequestState::Free;
  if (++s.generation == 0) s.generation = 1;
  s.result = SearchResult{};
  s.corridor = Corridor{};
  free_.push_back(h.index);
  return true;
}

SearchResult NavWorld::search_now(const RequestSpec& spec) {
  SearchParams p{spec.start,        spec.goal,   spec.goal_range, spec.max_nodes,
                 spec.max_distance, spec.toward, &spec.avoid,     spec.avoid_cost};
  return main_searcher_->run(grid_, p, spec.costs);
}

}  // namespace voxnav::detail
