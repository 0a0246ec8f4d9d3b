// NavContext: what the parts of one NavWorld share: the space it reads, the navigation layers of
// its movement class (grid, islands), the executor, the counters that say when answers or layers
// changed, the statistics and the hand-off of changes to the agents. The NavWorld owns it; the
// request queue, the chunk builds, the edit maintenance and the reachability each hold a
// reference and do their one job on it.
#pragma once
#include <cstdint>

#include "engine/classify/nav_grid.h"
#include "engine/exec/executor.h"
#include "engine/islands/islands.h"
#include "engine/nav/change_feed.h"
#include "engine/util/recent_values.h"
#include "engine/world/space.h"
#include "voxnav/requests.h"

namespace voxnav::detail {

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
  /// some loaded chunk was unbuilt (see Reachability::reachable).
  std::uint64_t frontier_unknowns = 0;
  std::uint64_t nos_with_unbuilt = 0;
  std::uint64_t frontier_scans = 0;  ///< recomputations of the frontier islands
};

struct NavContext {
  NavContext(Space& s, ClassEnvelope env, Executor* executor, int delay)
      : space(s), grid(env), exec(executor ? executor : &sync), lockstep_delay(delay) {}
  NavContext(const NavContext&) = delete;
  NavContext& operator=(const NavContext&) = delete;

  /// Ticks after dispatch at which a search or a chunk build is delivered (at least 1).
  std::uint64_t delivery_delay() const {
    return lockstep_delay > 0 ? static_cast<std::uint64_t>(lockstep_delay) : 1;
  }

  Space& space;
  NavGrid grid;
  Islands islands;
  SyncExecutor sync;
  Executor* exec;  ///< the executor given, or `sync`
  int lockstep_delay;
  std::uint64_t tick = 0;              ///< updates run
  std::uint64_t processed_serial = 0;  ///< change log serial brought up to date
  /// Advances exactly when some reachability answer may have changed.
  std::uint64_t epoch = 1;
  /// Advances whenever layers 0-2 changed at all.
  std::uint64_t layers_version = 1;
  NavStats stats;
  ChangeFeed change_feed;
};

}  // namespace voxnav::detail
