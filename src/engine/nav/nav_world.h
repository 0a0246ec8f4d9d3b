// NavWorld: one space's navigation for one movement class: layers 0-2 kept up to date from the
// space's change log, reachability, and budgeted path requests run on the executor.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/corridor/corridor.h"
#include "engine/exec/executor.h"
#include "engine/islands/islands.h"
#include "engine/nav/change_feed.h"
#include "engine/search/astar.h"
#include "engine/util/recent_values.h"
#include "engine/world/space.h"
#include "voxnav/ids.h"
#include "voxnav/requests.h"

namespace voxnav::detail {

enum class RequestState : std::uint8_t { Free, Queued, Searching, Ready, Failed };

struct RequestSpec {
  CellPos start;
  CellPos goal;
  int goal_range = 0;
  std::uint32_t max_nodes = 200000;
  int max_distance = 0;
  bool toward = false;  ///< request_toward: a partial route is a success
  /// When the answer is Unknown(NotLoaded) (the goal lies in, or may be reached only through,
  /// chunks without navigation) and the start is built and standable: search toward the goal
  /// over the built chunks, a partial route being a success (the agents' requests with a build
  /// radius: they walk toward the goal, and the chunks ahead are built as they come near).
  bool toward_unbuilt = false;
  CostTable costs;
  /// Door cells to avoid (the follower's doors that stayed shut): entering one costs avoid_cost
  /// more.
  std::vector<CellPos> avoid;
  std::uint32_t avoid_cost = 20 * kCostStraight;
  /// Where `costs.surface` comes from, so that a request still queued when the surfaces are
  /// regrouped (a new area or profile) gets them again: the motion (profile) index and the
  /// filter's excluded bits and multipliers (null: all 1).
  std::uint32_t motion = 0xFFFFFFFFu;
  std::uint32_t excluded = 0;
  std::shared_ptr<const std::array<double, 32>> multiplier;
};

struct RequestSlot {
  std::uint32_t generation = 1;
  RequestState state = RequestState::Free;
  PathFailure fail = PathFailure::None;
  RequestSpec spec;
  SearchResult result;
  Corridor corridor;
  std::uint64_t deliver_tick = 0;  ///< tick at which a finished search is applied
  bool partial = false;
  std::uint64_t epoch = 0;             ///< navigation epoch the search ran against
  std::uint64_t layers_version = 0;    ///< NavWorld::layers_version() the search ran against
  std::uint64_t screened_version = 0;  ///< layers_version() of its last screening (0: none)
  double search_us = 0;                ///< wall time of the search job (not part of any decision)
};

struct NavStats {
  std::uint64_t searches = 0;
  /// Wall time of the last kSearchTimesKept applied searches, microseconds (for percentiles).
  RecentValues<double, kSearchTimesKept> search_us;
  std::uint64_t nodes_expanded = 0;
  std::uint64_t maintenance_runs = 0;
  double last_maintenance_ms = 0;
  std::uint64_t builds_installed = 0;     ///< streamed chunk builds installed
  std::uint64_t builds_reclassified = 0;  ///< of those, classified again (edited meanwhile)
  /// Of those, only the band facing a neighbour edited, loaded or unloaded meanwhile classified
  /// again (the chunk itself unchanged).
  std::uint64_t builds_band_reclassified = 0;
  /// Reachability answers that would have been No on the built chunks but were Unknown(NotLoaded)
  /// because the start reaches an island bordering an unbuilt chunk, and No answers given while
  /// some loaded chunk was unbuilt (see NavWorld::reachable).
  std::uint64_t frontier_unknowns = 0;
  std::uint64_t nos_with_unbuilt = 0;
  std::uint64_t frontier_scans = 0;  ///< recomputations of the frontier islands
};

class NavWorld {
 public:
  /// `executor` may be null (synchronous). `lockstep_delay` > 0 delivers results that many
  /// ticks after dispatch; otherwise results are delivered at the next update.
  NavWorld(Space& space, ClassEnvelope env, Executor* executor, int lockstep_delay = 0);
  ~NavWorld();

  /// Builds layers 0-2 of every chunk the space holds now and starts reading the change log from
  /// its current serial: for a NavWorld made after chunks were loaded (a second movement class).
  void build_from_space();
  /// Whether update() trims the space's change log up to what it processed (default). Off when
  /// several NavWorlds read one space: their owner trims at the lowest processed serial.
  void set_trims_log(bool on) { trims_log_ = on; }
  /// Whether update() first waits for the executor's jobs (default). Several NavWorlds sharing
  /// one executor: the first to update waits for every job, the others need not (they would
  /// wait for the searches the first one just dispatched).
  void set_waits(bool on) { waits_ = on; }
  /// Waits for every job on the executor (searches, builds) to finish.
  void wait_jobs() { exec_->wait_idle(); }
  /// Calls f(RequestSpec&) for every request not dispatched yet, in request order.
  template <class F>
  void for_each_queued(F&& f) {
    for (std::uint32_t idx : queued_) f(slots_[idx].spec);
  }
  std::uint64_t processed_serial() const { return processed_serial_; }
  /// Reads the change log and brings layers 0-2 up to date; applies finished requests in request
  /// order; dispatches queued requests. Call once per tick. Returns true when layers changed.
  bool update();
  std::uint64_t tick() const { return tick_; }
  /// Navigation epoch: advances exactly when some reachability answer may have changed.
  std::uint64_t epoch() const { return epoch_; }
  /// Advances whenever layers 0-2 changed at all (a move appeared or vanished), even when no
  /// reachability answer did: a path found before may no longer be walkable.
  std::uint64_t layers_version() const { return layers_version_; }

  /// Reachability from `from` to `goal` (or a cell within `goal_range`) for a profile that may
  /// enter the gate kinds `gates` (GateBits) and, when `restricted`, cannot do everything else
  /// its class can (its Yes answers become Unknown(ProfileRestricted)). No only when the class
  /// itself cannot get there; Unknown(DoorGated) when only a closed or open door the profile
  /// may not use decides; Unknown(ProfileRestricted) when another gate kind does. While some
  /// loaded chunk is not built (streaming), No also needs the start to reach, with every gate
  /// kind, no frontier island (one with a node cell whose moves read a cell of an unbuilt chunk):
  /// else Unknown(NotLoaded). The frontier is computed when first needed after a change.
  Reach reachable(CellPos from, CellPos goal, int goal_range = 0, std::uint8_t gates = kGateAll,
                  bool restricted = false);

  PathHandle request(const RequestSpec& spec);
  RequestState state(PathHandle h, PathFailure* why = nullptr) const;
  const RequestSlot* slot(PathHandle h) const;
  bool release(PathHandle h);

  /// Runs one search on the calling thread (searcher slot 0), bypassing the request queue.
  SearchResult search_now(const RequestSpec& spec);

  const NavGrid& grid() const { return grid_; }
  NavGrid& grid() { return grid_; }
  Islands& islands() { return islands_; }
  const Space& space() const { return space_; }
  /// Changes (boxes of cells) processed by updates, handed to the agents that follow this
  /// navigation: they check corridors against them, however many updates the host ran in
  /// between. Bounded, and empty while nobody consumes it (see ChangeFeed).
  ChangeFeed& change_feed() { return change_feed_; }
  const ChangeFeed& change_feed() const { return change_feed_; }
  const NavStats& stats() const { return stats_; }

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
    grid_.set_surface_groups(space_, std::move(table));
    ++layers_version_;
  }
  void set_streaming(bool on) {
    streaming_ = on;
    rescan_deferred_ = true;
  }
  bool streaming() const { return streaming_; }
  std::size_t pending_builds() const { return builds_.size() + new_builds_.size(); }
  /// Build radius of streaming, in chunks (0: every loaded chunk is built, the default). With
  /// r > 0 and streaming on, a chunk loaded after the first build is built (dispatched as above)
  /// only once its Chebyshev distance in chunk coordinates (max of |dx|, |dy|, |dz|) to one of the
  /// chunks given to set_agent_chunks is at most r; until then it is *deferred*: loaded, not
  /// built, answering Unknown(NotLoaded). A built chunk stays built until it is unloaded; an
  /// unloaded deferred chunk is forgotten. With r > 0 every load is streamed, however many chunks
  /// one update loads (without a radius more than kMaxIncrementalChunks loads build at once).
  void set_build_radius(int chunks) {
    build_radius_ = std::max(0, chunks);
    rescan_deferred_ = true;
  }
  int build_radius() const { return build_radius_; }
  /// At most `n` searches dispatched per update, oldest requests first (0: no limit).
  void set_search_budget(int n) { search_budget_ = std::max(0, n); }
  std::size_t queued_requests() const { return queued_.size(); }
  /// The chunks of the agents that pull builds around them (the World passes the chunk of every
  /// live agent's feet before each update). Any order, duplicates allowed.
  void set_agent_chunks(std::vector<ChunkPos> chunks);
  /// Loaded chunks whose build waits for an agent to come within the build radius.
  std::size_t deferred_builds() const { return deferred_.size(); }
  bool is_deferred(ChunkPos p) const;
  /// Whether chunk p is loaded in the space and has no navigation (its build is deferred,
  /// waiting for dispatch, or in flight).
  bool is_unbuilt(ChunkPos p) const { return space_.chunk(p) && !grid_.chunk(p); }

 private:
  /// Brings the layers up to date with `changes`; returns true when reachability answers may
  /// have changed. Edits of up to kMaxIncrementalCells cells are maintained cell by cell; loads,
  /// unloads and bigger boxes reclassify whole chunks and recompute the islands.
  bool maintain(const std::vector<Change>& changes);
  bool maintain_edit(const Change& c);
  void maintain_chunks(const std::vector<Change>& changes);
  /// Classifies the chunks of `classify` with `do_classify`, recomputes the moves around them and
  /// brings the islands up to date (a delta, or a full recomputation for many chunks).
  template <class F>
  void chunk_level(std::vector<ChunkPos> classify, F&& do_classify);
  bool is_new_build(ChunkPos p) const;  ///< loaded in this update, build not dispatched yet
  /// Whether chunk p is within the build radius of an agent's chunk (true without a radius).
  bool near_agents(ChunkPos p) const;
  void dispatch_builds();
  /// Whether island a (an id from Islands::component) reaches, with every gate kind, an island
  /// with a node cell that may have a move the built chunks lack: one whose moves read a cell of
  /// an unbuilt chunk (see frontier_ and reachable()).
  bool reaches_frontier(std::uint32_t a);
  void refresh_frontier();
  bool install_builds();
  /// After installing the build of chunk p made from the block snapshots `snap` (indexed like
  /// NavChunk::nb), classifies again from the current blocks only the cells whose layer 0 reads a
  /// neighbour whose stamp changed since. Returns false when it classified the whole chunk
  /// instead (the chunk is stored uniform, or should be now).
  bool reclassify_facing(ChunkPos p, const std::array<std::shared_ptr<Chunk>, 27>& snap);
  struct Build {
    ChunkPos pos;
    std::uint64_t deliver_tick = 0;
    /// Snapshots of the chunk and of the neighbours its layer 0 reads (NavGrid::reads_chunk),
    /// indexed like NavChunk::nb (null: not loaded, or not read).
    std::array<std::shared_ptr<Chunk>, 27> snap;
    std::unique_ptr<NavChunk> result;
  };
  std::deque<Build> builds_;            // dispatched, in order (deque: stable while jobs write)
  std::vector<ChunkPos> new_builds_;    // loads seen this update, dispatched at its end
  std::vector<ChunkPos> deferred_;      // loaded, not built, no build dispatched (chunk_key order)
  std::vector<ChunkPos> agent_chunks_;  // set_agent_chunks (chunk_key order, unique)
  int build_radius_ = 0;
  int search_budget_ = 0;         // searches dispatched per update (0: no limit)
  bool rescan_deferred_ = false;  // the agents, the radius or the loaded set changed
  // The frontier: ids (roots) of the islands holding a node cell within the move reach of an
  // unbuilt chunk, valid while frontier_key_ matches (layers, islands and built set unchanged).
  std::vector<std::uint32_t> frontier_;
  std::array<std::uint64_t, 5> frontier_key_{};
  bool streaming_ = false;
  bool trims_log_ = true;
  bool waits_ = true;
  static constexpr std::int64_t kMaxIncrementalCells = 512;
  /// Loads / unloads / big boxes touching more chunks than this recompute every island.
  static constexpr std::size_t kMaxIncrementalChunks = 48;
  struct ChunkSnap {  // a chunk's moves and island labels before a chunk-level change
    std::uint64_t key;
    std::vector<std::uint32_t> moves, labels;
    std::vector<std::uint8_t> vmoves, gaps;  // empty: none
  };
  /// Reachability screening of a queued request: fails it at once (returns false) on a No, an
  /// unloaded cell or a start / goal that cannot be stood on; else keeps it queued.
  bool screen(RequestSlot& s);
  void finish(RequestSlot& s, SearchResult&& r);

  Space& space_;
  NavGrid grid_;
  Islands islands_;
  Executor* exec_;
  SyncExecutor sync_;
  int lockstep_delay_;
  std::vector<std::unique_ptr<AStar>> searchers_;  // one per worker, slot = worker + 1
  std::unique_ptr<AStar> main_searcher_;           // slot 0
  std::deque<RequestSlot> slots_;  // deque: stable addresses while jobs write results
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> in_flight_;  // dispatched, result not yet applied (request order)
  std::vector<std::uint32_t> queued_;     // waiting for dispatch (request order)
  std::uint64_t processed_serial_ = 0;
  std::uint64_t epoch_ = 1;
  std::uint64_t layers_version_ = 1;
  // Scratch of maintain_edit (kept to avoid allocations per edit).
  std::vector<ChunkPos> scratch_chunks_;
  struct SavedChunk {  // a chunk's layer 0 / moves before it was classified again as a whole
    ChunkPos pos;
    bool uniform = false;
    CellKind uniform_kind = CellKind::Air;
    std::vector<std::uint8_t> kind, floor, clear, vmoves, gaps, flags;
    std::vector<std::uint32_t> moves;
    CellKind kind_at(int i) const {
      return uniform ? uniform_kind : static_cast<CellKind>(kind[static_cast<std::size_t>(i)]);
    }
  };
  std::vector<SavedChunk> scratch_saved_;
  struct Layer0Cell {  // what a cell's moves read of it (uniform chunks: their defaults)
    std::uint8_t kind = static_cast<std::uint8_t>(CellKind::Blocked), floor = 0, clear = 255,
                 flags = 0;
    bool operator==(const Layer0Cell&) const = default;
  };
  static Layer0Cell layer0_of(const NavChunk& ch, int i) {
    if (ch.uniform) return {static_cast<std::uint8_t>(ch.uniform_kind), 0, 255, 0};
    return {ch.kind[static_cast<std::size_t>(i)], ch.floor[static_cast<std::size_t>(i)],
            ch.clear[static_cast<std::size_t>(i)], ch.flags_at(i)};
  }
  std::vector<Layer0Cell> scratch_layer0_;
  std::vector<CellPos> scratch_extra_, scratch_extra_hazard_;
  std::vector<CellPos> scratch_cells_, scratch_gap_cells_;
  struct OldCell {
    CellPos c;
    bool node;
    std::uint8_t gate;
    std::uint8_t vword;
    std::uint8_t gword;
    std::uint32_t word;
    bool gaps_only = false;  ///< only its gap jumps can change (a cell two ahead reclassified)
  };
  std::vector<OldCell> scratch_old_;
  std::vector<std::uint64_t> scratch_relabel_;  // cell keys of cells entering or leaving gate kinds
  IslandDelta scratch_delta_;
  std::uint64_t tick_ = 0;
  ChangeFeed change_feed_;
  NavStats stats_;
};

}  // namespace voxnav::detail
