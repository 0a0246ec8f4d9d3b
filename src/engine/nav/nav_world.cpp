#include "engine/nav/nav_world.h"

#include <chrono>

namespace voxnav::detail {

NavWorld::NavWorld(Space& space, ClassEnvelope env, Executor* executor, int lockstep_delay)
    : ctx_(space, env, executor, lockstep_delay) {}

NavWorld::~NavWorld() { ctx_.exec->wait_idle(); }

bool NavWorld::update() {
  if (waits_) ctx_.exec->wait_idle();
  ++ctx_.tick;
  requests_.deliver_finished();
  // Worker builds of loaded chunks due this tick, then maintenance from the change log.
  const bool installed = builds_.install_due(maintenance_);
  if (installed) {
    ++ctx_.layers_version;
    ++ctx_.epoch;
  }
  std::vector<Change> changes;
  ctx_.space.changes_since(ctx_.processed_serial, changes);
  bool changed = false;
  if (!changes.empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool answers_changed = maintain(changes);
    ctx_.processed_serial = changes.back().serial;
    if (trims_log_) ctx_.space.trim_changes(ctx_.processed_serial);
    ctx_.change_feed.publish(changes);
    if (answers_changed) ++ctx_.epoch;
    ++ctx_.stats.maintenance_runs;
    ctx_.stats.last_maintenance_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    changed = true;
  }
  changed |= installed;
  builds_.dispatch();
  requests_.dispatch(changed);
  return changed;
}

bool NavWorld::maintain(const std::vector<Change>& all) {
  ++ctx_.layers_version;
  // Streaming: chunk loads are built on the executor (ChunkBuilds); a reloaded chunk loses its
  // old navigation data at once.
  std::vector<Change> rest;
  const bool streamed = builds_.take_loads(all, rest, maintenance_);
  return maintenance_.maintain(streamed ? rest : all, streamed, builds_);
}

void NavWorld::build_from_space() {
  std::vector<ChunkPos> all = ctx_.space.loaded_chunks();
  maintenance_.chunk_level(all, [&] {
    for (const ChunkPos& p : all) ctx_.grid.classify_chunk(ctx_.space, p);
  });
  ctx_.processed_serial = ctx_.space.serial();
  ++ctx_.epoch;
  ++ctx_.layers_version;
}

void NavWorld::adopt(std::vector<std::unique_ptr<NavChunk>> chunks, IslandTables tables) {
  ctx_.exec->wait_idle();
  std::vector<ChunkPos> old;
  for (const NavChunk* ch : ctx_.grid.ordered_chunks()) old.push_back(ch->pos);
  for (const ChunkPos& p : old) ctx_.grid.drop_chunk(p);
  std::vector<ChunkPos> pos;
  pos.reserve(chunks.size());
  for (std::unique_ptr<NavChunk>& ch : chunks) {
    pos.push_back(ch->pos);
    ctx_.grid.install_chunk(std::move(ch));
  }
  // Every chunk is in place: each one's own neighbour pointers suffice (NavGrid::link would also
  // relink its 26 neighbours, 27 times the lookups).
  for (const ChunkPos& p : pos) {
    NavChunk* c = ctx_.grid.chunk(p);
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        for (int dx = -1; dx <= 1; ++dx)
          c->nb[nb_index(dx, dy, dz)] = ctx_.grid.chunk({p.x + dx, p.y + dy, p.z + dz});
  }
  for (const ChunkPos& p : pos) ctx_.grid.refresh_surface(ctx_.space, p);
  ctx_.islands.restore_tables(std::move(tables));
  ctx_.processed_serial = ctx_.space.serial();
  if (trims_log_) ctx_.space.trim_changes(ctx_.processed_serial);
  ++ctx_.epoch;
  ++ctx_.layers_version;
}

}  // namespace voxnav::detail
