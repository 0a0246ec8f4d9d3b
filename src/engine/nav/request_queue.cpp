#include "engine/nav/request_queue.h"

#include <algorithm>
#include <chrono>

#include "engine/nav/reachability.h"

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
    case PathFailure::Embedded:
      return "embedded";
  }
  return "?";
}

}  // namespace voxnav

namespace voxnav::detail {

RequestQueue::RequestQueue(NavContext& ctx, Reachability& reach) : ctx_(ctx), reach_(reach) {
  main_searcher_ = std::make_unique<AStar>(0);
}

void RequestQueue::search(AStar& a, RequestSlot& s) const {
  const NavGrid& grid = ctx_.grid;
  const SearchParams p = search_params(s.spec, s.proven);
  const auto t0 = std::chrono::steady_clock::now();
  s.result = a.run(grid, p, s.spec.costs);
  s.search_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  s.corridor.cells = s.result.cells;
  s.corridor.kinds = s.result.kinds;
  string_pull(grid, s.result.cells, s.result.kinds, s.corridor.points, s.spec.costs.surface.get());
}

void RequestQueue::deliver_finished() {
  std::size_t kept = 0;
  for (std::uint32_t idx : in_flight_) {
    RequestSlot& s = slots_[idx];
    if (s.deliver_tick > ctx_.tick) {
      in_flight_[kept++] = idx;
      continue;
    }
    const SearchOutcome o = s.result.outcome;
    ctx_.stats.nodes_expanded += s.result.expanded;
    ++ctx_.stats.searches;
    ctx_.stats.search_us.push(s.search_us);
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
    const bool partial_ok = o == SearchOutcome::Partial && search_bounds(s.spec, s.proven).partial;
    if (o == SearchOutcome::Found || partial_ok || stays_put) {
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
}

void RequestQueue::dispatch(bool layers_changed) {
  const std::uint64_t delay = ctx_.delivery_delay();
  std::size_t taken = 0, dispatched = 0;
  auto batch = std::make_shared<Batch>();
  for (; taken < queued_.size(); ++taken) {
    if (search_budget_ > 0 && dispatched == static_cast<std::size_t>(search_budget_)) break;
    const std::uint32_t idx = queued_[taken];
    RequestSlot& s = slots_[idx];
    // Judged on the layers it will be searched on (a request kept for a later update is judged
    // again then: the screening is cheap).
    if ((layers_changed || s.screened_version != ctx_.layers_version) && !screen(s)) continue;
    ++dispatched;
    s.state = RequestState::Searching;
    s.deliver_tick = ctx_.tick + delay;
    s.epoch = ctx_.epoch;
    s.layers_version = ctx_.layers_version;
    in_flight_.push_back(idx);
    batch->items.push_back(&s);
  }
  // The searches run in min(workers, kMaxSearchWorkers, searches) jobs, each on its own arena,
  // taking the requests in turn: no two jobs share an arena whatever the executor reports, and
  // each result depends only on its request (applied in request order by deliver_finished).
  if (!batch->items.empty()) {
    const int workers = std::clamp(ctx_.exec->worker_count(), 1, kMaxSearchWorkers);
    const std::size_t jobs = std::min(static_cast<std::size_t>(workers), batch->items.size());
    while (searchers_.size() < jobs)
      searchers_.push_back(std::make_unique<AStar>(static_cast<int>(searchers_.size()) + 1));
    for (std::size_t k = 0; k < jobs; ++k) {
      AStar* arena = searchers_[k].get();
      ctx_.exec->submit([this, batch, arena](int) {
        for (;;) {
          const std::size_t i = batch->next.fetch_add(1, std::memory_order_relaxed);
          if (i >= batch->items.size()) return;
          search(*arena, *batch->items[i]);
        }
      });
    }
  }
  // Requests beyond the budget wait for the next update, in request order.
  queued_.erase(queued_.begin(), queued_.begin() + static_cast<std::ptrdiff_t>(taken));
}

PathHandle RequestQueue::request(const RequestSpec& spec) {
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
  s.proven = false;
  s.state = RequestState::Queued;
  s.screened_version = 0;
  if (ctx_.space.serial() != ctx_.processed_serial) {
    // The world changed since navigation was last brought up to date (e.g. chunks loaded this
    // tick): judge the request at dispatch, after maintenance, not on stale layers.
    queued_.push_back(idx);
  } else if (screen(s)) {
    queued_.push_back(idx);
  }
  return PathHandle{idx, s.generation};
}

bool RequestQueue::screen(RequestSlot& s) {
  s.screened_version = ctx_.layers_version;
  s.proven = false;
  if (s.spec.toward_unbuilt) s.spec.toward = false;  // (set again below when it applies)
  const RequestSpec& spec = s.spec;
  // A flee search has no goal cell: only its start is judged (loaded, standable).
  const bool flee = spec.flee_distance > 0;
  const Reach r = reach_.reachable(spec.start, flee ? spec.start : spec.goal,
                                   flee ? 0 : spec.goal_range, spec.costs.gates(),
                                   spec.costs.restricts_class);
  if (r.answer == ReachAnswer::No && !spec.toward) {
    s.state = RequestState::Failed;
    s.fail = PathFailure::Unreachable;
  } else if (r.answer == ReachAnswer::Unknown && r.reason == ReachReason::NotLoaded) {
    const NavChunk* sc =
        cell_in_range(spec.start) ? ctx_.grid.chunk(chunk_of(spec.start)) : nullptr;
    if (spec.toward_unbuilt && sc && ctx_.islands.component_at(sc, index_in_chunk(spec.start))) {
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
    s.proven = r.answer == ReachAnswer::Yes;
    return true;
  }
  return false;  // failed at once, without a search
}

const RequestSlot* RequestQueue::slot(PathHandle h) const {
  if (h.generation == 0 || h.index >= slots_.size()) return nullptr;
  const RequestSlot& s = slots_[h.index];
  if (s.generation != h.generation || s.state == RequestState::Free) return nullptr;
  return &s;
}

RequestState RequestQueue::state(PathHandle h, PathFailure* why) const {
  const RequestSlot* s = slot(h);
  if (!s) return RequestState::Free;
  if (why) *why = s->fail;
  return s->state;
}

bool RequestQueue::release(PathHandle h) {
  if (!slot(h)) return false;
  RequestSlot& s = slots_[h.index];
  if (s.state == RequestState::Searching) {
    ctx_.exec->wait_idle();  // its job may still write the slot
    in_flight_.erase(std::remove(in_flight_.begin(), in_flight_.end(), h.index), in_flight_.end());
  }
  if (s.state == RequestState::Queued)
    queued_.erase(std::remove(queued_.begin(), queued_.end(), h.index), queued_.end());
  s.state = RequestState::Free;
  s.generation = next_generation(s.generation, 0);  // below the World's tag (world.cpp)
  s.result = SearchResult{};
  s.corridor = Corridor{};
  free_.push_back(h.index);
  return true;
}

SearchResult RequestQueue::search_now(const RequestSpec& spec, bool proven) {
  return main_searcher_->run(ctx_.grid, search_params(spec, proven), spec.costs);
}

}  // namespace voxnav::detail
