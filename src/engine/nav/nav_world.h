// NavWorld: one space's navigation for one movement class: layers 0-2 kept up to date from the
// space's change log, reachability, and budgeted path requests run on the executor. A thin owner
// of its parts, each with one job: the request queue (request_queue.h), the chunk builds of
// streaming (chunk_builds.h), the edit maintenance (edit_maintenance.h) and the reachability
// answers (reachability.h), sharing the layers and counters of a NavContext (nav_context.h).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/nav/chunk_builds.h"
#include "engine/nav/edit_maintenance.h"
#include "engine/nav/nav_context.h"
#include "engine/nav/reachability.h"
#include "engine/nav/request_queue.h"

namespace voxnav::detail {

class NavWorld {
 public:
  /// `executor` may be null (synchronous). `lockstep_delay` > 0 delivers results that many
  /// ticks after dispatch; otherwise results are delivered at the next update.
  NavWorld(Space& space, ClassEnvelope env, Executor* executor, int lockstep_delay = 0);
  ~NavWorld();

  /// Builds layers 0-2 of every chunk the space holds now and starts reading the change log from
  /// its current serial: for a NavWorld made after chunks were loaded (a second movement class).
  void build_from_space();
  /// Installs navigation made elsewhere (a saved file, engine/save) instead of building it: drops
  /// every nav chunk, installs `chunks` (layers 0 to 2 of each loaded chunk), links them,
  /// recomputes the surface planes, restores the islands (`tables` over the chunks' saved scc
  /// planes), and marks the change log processed up to the space's current serial. The caller
  /// checked that `chunks` describe the loaded blocks and that the tables are sound.
  void adopt(std::vector<std::unique_ptr<NavChunk>> chunks, IslandTables tables);
  /// Whether update() trims the space's change log up to what it processed (default). Off when
  /// several NavWorlds read one space: their owner trims at the lowest processed serial.
  void set_trims_log(bool on) { trims_log_ = on; }
  /// Whether update() first waits for the executor's jobs (default). Several NavWorlds sharing
  /// one executor: the first to update waits for every job, the others need not (they would
  /// wait for the searches the first one just dispatched).
  void set_waits(bool on) { waits_ = on; }
  /// Waits for every job on the executor (searches, builds) to finish.
  void wait_jobs() { ctx_.exec->wait_idle(); }
  /// Calls f(RequestSpec&) for every request not dispatched yet, in request order.
  template <class F>
  void for_each_queued(F&& f) {
    requests_.for_each_queued(std::forward<F>(f));
  }
  std::uint64_t processed_serial() const { return ctx_.processed_serial; }
  /// Reads the change log and brings layers 0-2 up to date; applies finished requests in request
  /// order; dispatches queued requests. Call once per tick. Returns true when layers changed.
  bool update();
  std::uint64_t tick() const { return ctx_.tick; }
  /// Navigation epoch: advances exactly when some reachability answer may have changed.
  std::uint64_t epoch() const { return ctx_.epoch; }
  /// Advances whenever layers 0-2 changed at all (a move appeared or vanished), even when no
  /// reachability answer did: a path found before may no longer be walkable.
  std::uint64_t layers_version() const { return ctx_.layers_version; }

  /// Reachability from `from` to `goal` (or a cell within `goal_range`) for a profile that may
  /// enter the gate kinds `gates` (GateBits) and, when `restricted`, cannot do everything else
  /// its class can (its Yes answers become Unknown(ProfileRestricted)). No only when the class
  /// itself cannot get there; Unknown(DoorGated) when only a closed or open door the profile
  /// may not use decides; Unknown(ProfileRestricted) when another gate kind does. While some
  /// loaded chunk is not built (streaming), No also needs the start to reach, with every gate
  /// kind, no frontier island (one with a node cell whose moves read a cell of an unbuilt chunk):
  /// else Unknown(NotLoaded). The frontier is computed when first needed after a change.
  Reach reachable(CellPos from, CellPos goal, int goal_range = 0, std::uint8_t gates = kGateAll,
                  bool restricted = false) {
    return reach_.reachable(from, goal, goal_range, gates, restricted);
  }

  PathHandle request(const RequestSpec& spec) { return requests_.request(spec); }
  RequestState state(PathHandle h, PathFailure* why = nullptr) const {
    return requests_.state(h, why);
  }
  const RequestSlot* slot(PathHandle h) const { return requests_.slot(h); }
  bool release(PathHandle h) { return requests_.release(h); }

  /// Runs one search on the calling thread (searcher slot 0), bypassing the request queue.
  SearchResult search_now(const RequestSpec& spec, bool proven = false) {
    return requests_.search_now(spec, proven);
  }

  const NavGrid& grid() const { return ctx_.grid; }
  NavGrid& grid() { return ctx_.grid; }
  Islands& islands() { return ctx_.islands; }
  const Space& space() const { return ctx_.space; }
  /// Changes (boxes of cells) processed by updates, handed to the agents that follow this
  /// navigation: they check corridors against them, however many updates the host ran in
  /// between. Bounded, and empty while nobody consumes it (see ChangeFeed).
  ChangeFeed& change_feed() { return ctx_.change_feed; }
  const ChangeFeed& change_feed() const { return ctx_.change_feed; }
  const NavStats& stats() const { return ctx_.stats; }

  /// Streaming (off by default): a chunk loaded after the first build gets its layer 0 built on
  /// the executor from a snapshot of it and the chunks above and below; the build is installed
  /// at the update after next (the same tick whatever the executor) and only if the chunk is
  /// still the one loaded; if it was edited meanwhile it is classified again from the current
  /// blocks, and if only a chunk it reads was edited, loaded or unloaded, so is the band of cells
  /// facing that chunk (reclassify_facing). Until then its cells answer
  /// Unknown(NotLoaded), and an answer is No only when the start reaches no island bordering an
  /// unbuilt chunk (reachable()). A reload drops the old navigation data at once.
  /// Surface groups by block value (see NavGrid::set_surface_groups): every surface plane is
  /// recomputed now; paths found before may no longer be the cheapest (layers_version moves).
  void set_surface_groups(NavGrid::SurfaceTable table) {
    ctx_.grid.set_surface_groups(ctx_.space, std::move(table));
    ++ctx_.layers_version;
  }
  void set_streaming(bool on) { builds_.set_streaming(on); }
  bool streaming() const { return builds_.streaming(); }
  std::size_t pending_builds() const { return builds_.pending(); }
  /// Build radius of streaming, in chunks (0: every loaded chunk is built, the default). With
  /// r > 0 and streaming on, a chunk loaded after the first build is built (dispatched as above)
  /// only once its Chebyshev distance in chunk coordinates (max of |dx|, |dy|, |dz|) to one of the
  /// chunks given to set_agent_chunks is at most r; until then it is *deferred*: loaded, not
  /// built, answering Unknown(NotLoaded). A built chunk stays built until it is unloaded; an
  /// unloaded deferred chunk is forgotten. With r > 0 every load is streamed, however many chunks
  /// one update loads (without a radius more than kMaxIncrementalChunks loads build at once).
  void set_build_radius(int chunks) { builds_.set_build_radius(chunks); }
  int build_radius() const { return builds_.build_radius(); }
  /// At most `n` searches dispatched per update, oldest requests first (0: no limit).
  void set_search_budget(int n) { requests_.set_search_budget(n); }
  std::size_t queued_requests() const { return requests_.queued(); }
  std::size_t held_requests() const { return requests_.slot_count(); }
  /// The chunks of the agents that pull builds around them (the World passes the chunk of every
  /// live agent's feet before each update). Any order, duplicates allowed.
  void set_agent_chunks(std::vector<ChunkPos> chunks) {
    builds_.set_agent_chunks(std::move(chunks));
  }
  /// Loaded chunks whose build waits for an agent to come within the build radius.
  std::size_t deferred_builds() const { return builds_.deferred(); }
  bool is_deferred(ChunkPos p) const { return builds_.is_deferred(p); }
  /// Whether chunk p is loaded in the space and has no navigation (its build is deferred,
  /// waiting for dispatch, or in flight).
  bool is_unbuilt(ChunkPos p) const { return builds_.is_unbuilt(p); }

 private:
  /// Brings the layers up to date with `changes` (loads streamed by builds_, the rest by
  /// maintenance_); returns true when reachability answers may have changed.
  bool maintain(const std::vector<Change>& changes);

  NavContext ctx_;
  ChunkBuilds builds_{ctx_};
  EditMaintenance maintenance_{ctx_};
  Reachability reach_{ctx_, builds_};
  RequestQueue requests_{ctx_, reach_};
  bool trims_log_ = true;
  bool waits_ = true;
};

}  // namespace voxnav::detail
