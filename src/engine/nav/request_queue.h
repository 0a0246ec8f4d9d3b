// RequestQueue: the path requests of one NavWorld. Requests take slots (handles with a
// generation), are screened by reachability (a No, an unloaded cell or a start that cannot be
// stood on fails at once, without a search), wait in request order, are dispatched to the
// executor within the search budget, and their results are delivered in request order at the
// update the lockstep delay names.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "engine/corridor/corridor.h"
#include "engine/nav/nav_context.h"
#include "engine/search/astar.h"
#include "voxnav/ids.h"

namespace voxnav::detail {

class Reachability;

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
  /// The agents' requests: when reachable() proves the goal reachable (Yes) and the budget runs
  /// out, the route to the open node of lowest f (SearchParams::stage) is a success, partial: a
  /// stage the follower walks and then extends by planning again from its end.
  bool staged = false;
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
  /// A flee search (SearchParams::flee_distance > 0): the cheapest cell at least flee_distance
  /// cells from flee_from; `goal` and `goal_range` are not read (screening looks at the start).
  int flee_distance = 0;
  CellPos flee_from;
};

/// How far a screened request searches. A goal that reachable() proves reachable (Yes) is searched
/// without the profile's distance window: the window could only cut off a route known to exist,
/// and the expansion budget still bounds the memory. `partial`: on failure the search returns the
/// route to the explored cell nearest the goal (a request_toward, or a staged agent request).
/// `stage`: a staged agent request (RequestSpec::staged) whose budget runs out ends at the open
/// node of lowest f (SearchParams::stage).
struct SearchBounds {
  int max_distance = 0;
  bool partial = false;
  bool stage = false;
};
inline SearchBounds search_bounds(const RequestSpec& spec, bool proven) {
  const bool far_ok = proven && spec.flee_distance == 0;
  const bool stage = far_ok && spec.staged;
  return SearchBounds{far_ok ? 0 : spec.max_distance, spec.toward || stage, stage && !spec.toward};
}
/// The search a request runs: its spec within search_bounds(spec, proven).
inline SearchParams search_params(const RequestSpec& spec, bool proven) {
  const SearchBounds b = search_bounds(spec, proven);
  SearchParams p{spec.start,         spec.goal,      spec.goal_range, spec.max_nodes,
                 b.max_distance,     b.partial,      &spec.avoid,     spec.avoid_cost,
                 spec.flee_distance, spec.flee_from};
  p.stage = b.stage;
  return p;
}

struct RequestSlot {
  std::uint32_t generation = 1;
  RequestState state = RequestState::Free;
  PathFailure fail = PathFailure::None;
  RequestSpec spec;
  SearchResult result;
  Corridor corridor;
  std::uint64_t deliver_tick = 0;  ///< tick at which a finished search is applied
  bool partial = false;
  /// Screened with reachable() answering Yes: the goal is proven reachable (searched without the
  /// distance window, SearchBounds).
  bool proven = false;
  std::uint64_t epoch = 0;             ///< navigation epoch the search ran against
  std::uint64_t layers_version = 0;    ///< NavWorld::layers_version() the search ran against
  std::uint64_t screened_version = 0;  ///< layers_version() of its last screening (0: none)
  double search_us = 0;                ///< wall time of the search job (not part of any decision)
};

class RequestQueue {
 public:
  RequestQueue(NavContext& ctx, Reachability& reach);

  PathHandle request(const RequestSpec& spec);
  RequestState state(PathHandle h, PathFailure* why = nullptr) const;
  const RequestSlot* slot(PathHandle h) const;
  bool release(PathHandle h);
  /// Runs one search on the calling thread (searcher slot 0), bypassing the queue and its
  /// screening; `proven`: reachable() answered Yes (search_bounds).
  SearchResult search_now(const RequestSpec& spec, bool proven = false);

  /// Applies the searches due at this tick, in request order: Ready or Failed, with statistics.
  void deliver_finished();
  /// Dispatches queued requests in request order, at most the search budget; each is screened
  /// again first when `layers_changed` or the layers moved since its last screening.
  void dispatch(bool layers_changed);

  /// Calls f(RequestSpec&) for every request not dispatched yet, in request order.
  template <class F>
  void for_each_queued(F&& f) {
    for (std::uint32_t idx : queued_) f(slots_[idx].spec);
  }
  std::size_t queued() const { return queued_.size(); }
  /// Request slots held (queued, searching, done and not released, or free for reuse).
  std::size_t slot_count() const { return slots_.size(); }
  /// At most `n` searches dispatched per update, oldest requests first (0: no limit).
  void set_search_budget(int n) { search_budget_ = n < 0 ? 0 : n; }

 private:
  /// Reachability screening of a queued request: fails it at once (returns false) on a No, an
  /// unloaded cell or a start / goal that cannot be stood on; else keeps it queued.
  bool screen(RequestSlot& s);

  NavContext& ctx_;
  Reachability& reach_;
  /// The requests one update dispatched; its search jobs take them in turn (`next`).
  struct Batch {
    std::vector<RequestSlot*> items;
    std::atomic<std::size_t> next{0};
  };
  /// Runs one dispatched request's search on arena `a` (inside a job).
  void search(AStar& a, RequestSlot& s) const;

  /// Search arenas of the jobs, slot k + 1 for job k: made on first use, up to
  /// kMaxSearchWorkers, and kept (a job owns one arena; two jobs never share one).
  std::vector<std::unique_ptr<AStar>> searchers_;
  std::unique_ptr<AStar> main_searcher_;           // slot 0
  std::deque<RequestSlot> slots_;  // deque: stable addresses while jobs write results
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> in_flight_;  // dispatched, result not yet applied (request order)
  std::vector<std::uint32_t> queued_;     // waiting for dispatch (request order)
  int search_budget_ = 0;                 // searches dispatched per update (0: no limit)
};

}  // namespace voxnav::detail
