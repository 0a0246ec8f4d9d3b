// FlyerNav: the flyer class's navigation of one World: its layer (FlyerStore, kept up to date
// from the space's change log), the straight line, reachability, and path requests.
//
// Requests are served at the update after they were made, in request order, on the calling thread
// (flight searches are short: the straight line first, a one-waypoint corridor without a search;
// otherwise the default flight search, flight_default.h, on a window of the layer around start
// and goal, and its path string-pulled with the flyer's straight line). Results go through the
// same request slots and corridors as the walkers' (request_queue.h's RequestSlot).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/flight/flight_default.h"
#include "engine/flight/flight_grid.h"
#include "engine/flight/flyer_components.h"
#include "engine/flight/flyer_store.h"
#include "engine/nav/request_queue.h"
#include "engine/world/space.h"
#include "voxnav/ids.h"
#include "voxnav/requests.h"

namespace voxnav::detail::flight {

/// Cells a flight search's window reaches beyond the box of start and goal on every side (and at
/// most the profile's search distance): a route that must go further round is not found (NoPath).
inline constexpr int kFlyerWindowMargin = 32;

class FlyerNav {
 public:
  /// Builds the layer of every chunk `space` holds and reads the change log from its serial on.
  explicit FlyerNav(const Space& space);

  /// Reads the change log, refreshes the layer, then serves the queued requests in order.
  /// Returns true when the layer changed.
  bool update();
  std::uint64_t processed_serial() const { return processed_; }
  /// Advances whenever the layer changed (a reachability answer or a path may have changed).
  std::uint64_t epoch() const { return epoch_; }
  /// The changes every update() read since the last consume_feed() (the flyer agents' edit
  /// check, engine/follow/flyer_follow.cpp), oldest first; more than kMaxFeed of them are
  /// coalesced: feed_coalesced() says every corridor must be checked.
  static constexpr std::size_t kMaxFeed = 4096;
  const std::vector<Change>& feed() const { return feed_; }
  bool feed_coalesced() const { return feed_coalesced_; }
  void consume_feed() {
    feed_.clear();
    feed_coalesced_ = false;
  }
  const FlyerStore& store() const { return store_; }

  /// Whether the body flies straight from feet a to feet b (flyer_line.h). Finite, in range.
  bool line_clear(Vec3 a, Vec3 b) const;
  /// For two free cells: No when they lie in different components (flyer_components.h: never
  /// wrong), else Yes when the straight line between their feet positions is clear, else
  /// Unknown(FlightSearch). Unknown(NotLoaded / StartNotStandable / GoalNotStandable) otherwise.
  Reach reachable(CellPos from, CellPos goal) const;
  const FlyerComponents& components() const { return comps_; }

  /// Takes a request slot (served at the next update()). The handle's index is the slot.
  PathHandle request(const RequestSpec& spec);
  const RequestSlot* slot(PathHandle h) const;
  bool release(PathHandle h);
  std::size_t queued() const { return queue_.size(); }
  std::size_t held() const { return slots_.size(); }
  /// Serves one request now (as update() would): fills `slot`'s state, failure, result and
  /// corridor from `slot.spec`.
  void serve(RequestSlot& slot);

 private:
  const Space& space_;
  FlyerStore store_;
  FlyerComponents comps_;
  std::uint64_t processed_ = 0;
  std::uint64_t epoch_ = 1;
  std::vector<RequestSlot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::uint32_t> queue_;  // slot indices in request order
  FlightGrid window_;
  DefaultSearch search_;
  DefaultSearchResult found_;
  std::vector<Change> changes_;
  std::vector<Change> feed_;
  bool feed_coalesced_ = false;
};

}  // namespace voxnav::detail::flight
