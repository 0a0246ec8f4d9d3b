#include "engine/flight/flyer_nav.h"

#include <algorithm>
#include <cmath>

#include "engine/flight/flight_line.h"
#include "engine/flight/flyer_line.h"
#include "voxnav/flight.h"

namespace voxnav::detail::flight {
namespace {

constexpr std::uint32_t kGenerationMask = (1u << kIdTagShift) - 1;
// Path steps string pulling scans ahead of the last waypoint (a segment of 16 cells spans at most
// 48 face steps), as for the Moving AI maps.
constexpr std::size_t kPullGap = 3 * static_cast<std::size_t>(kFlightPullSegment);

std::uint32_t length_cost(double cells) {
  const double c = std::round(cells * double(detail::kCostStraight));
  return c >= 4294967295.0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(c);
}

double distance(CellPos a, CellPos b) {
  const double dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

FlyerNav::FlyerNav(const Space& space) : space_(space) {
  store_.build_all(space);
  comps_.build_all(store_, space);
  processed_ = space.serial();
}

bool FlyerNav::update() {
  changes_.clear();
  space_.changes_since(processed_, changes_);
  const bool changed = store_.apply(space_, changes_) != 0;
  if (!feed_coalesced_) {
    if (feed_.size() + changes_.size() > kMaxFeed) {
      feed_.clear();
      feed_coalesced_ = true;
    } else {
      feed_.insert(feed_.end(), changes_.begin(), changes_.end());
    }
  }
  if (changed) ++epoch_;
  comps_.update(store_, space_, store_.changed_chunks());
  processed_ = space_.serial();
  changes_.clear();
  for (const std::uint32_t i : queue_) {
    RequestSlot& s = slots_[i];
    if (s.state != RequestState::Queued) continue;  // released meanwhile
    serve(s);
  }
  queue_.clear();
  return changed;
}

bool FlyerNav::line_clear(Vec3 a, Vec3 b) const { return flyer_line_clear(store_, a, b); }

Reach FlyerNav::reachable(CellPos from, CellPos goal) const {
  Reach r;
  r.answer = ReachAnswer::Unknown;
  if (!space_.is_cell_loaded(from) || !space_.is_cell_loaded(goal)) {
    r.reason = ReachReason::NotLoaded;
    return r;
  }
  if (!store_.free(from)) {
    r.reason = ReachReason::StartNotStandable;
    return r;
  }
  if (!store_.free(goal)) {
    r.reason = ReachReason::GoalNotStandable;
    return r;
  }
  if (comps_.label(store_, from) != comps_.label(store_, goal)) {
    r.answer = ReachAnswer::No;
    r.reason = ReachReason::None;
    return r;
  }
  if (line_clear(flyer_feet(from), flyer_feet(goal))) {
    r.answer = ReachAnswer::Yes;
    r.reason = ReachReason::None;
    return r;
  }
  r.reason = ReachReason::FlightSearch;
  return r;
}

PathHandle FlyerNav::request(const RequestSpec& spec) {
  std::uint32_t i;
  if (!free_slots_.empty()) {
    i = free_slots_.back();
    free_slots_.pop_back();
  } else {
    i = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  RequestSlot& s = slots_[i];
  const std::uint32_t gen = s.generation;
  s = RequestSlot{};
  s.generation = gen;
  s.spec = spec;
  s.state = RequestState::Queued;
  queue_.push_back(i);
  return PathHandle{i, gen};
}

const RequestSlot* FlyerNav::slot(PathHandle h) const {
  if (h.index >= slots_.size()) return nullptr;
  const RequestSlot& s = slots_[h.index];
  return s.state != RequestState::Free && s.generation == h.generation ? &s : nullptr;
}

bool FlyerNav::release(PathHandle h) {
  if (!slot(h)) return false;
  RequestSlot& s = slots_[h.index];
  const std::uint32_t gen = (s.generation & kGenerationMask) % kGenerationMask + 1;  // never 0
  s = RequestSlot{};
  s.generation = gen;
  s.state = RequestState::Free;
  free_slots_.push_back(h.index);
  return true;
}

void FlyerNav::serve(RequestSlot& s) {
  const RequestSpec& spec = s.spec;
  s.result = SearchResult{};
  s.corridor = Corridor{};
  s.partial = false;
  s.epoch = epoch_;
  const auto fail = [&](PathFailure f, SearchOutcome o) {
    s.state = RequestState::Failed;
    s.fail = f;
    s.result.outcome = o;
  };
  const CellPos start = spec.start;
  CellPos goal = spec.goal;
  if (!space_.is_cell_loaded(start) || !space_.is_cell_loaded(goal)) return fail(PathFailure::NotLoaded, SearchOutcome::NoPath);
  if (!store_.free(start)) return fail(PathFailure::BadStart, SearchOutcome::BadStart);
  if (!store_.free(goal) && spec.goal_range > 0) {
    // The nearest free cell within the range (shells of growing Chebyshev radius, fixed order).
    bool found = false;
    for (int r = 1; r <= spec.goal_range && !found; ++r)
      for (int dy = -r; dy <= r && !found; ++dy)
        for (int dz = -r; dz <= r && !found; ++dz)
          for (int dx = -r; dx <= r && !found; ++dx) {
            if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
            const CellPos c{spec.goal.x + dx, spec.goal.y + dy, spec.goal.z + dz};
            if (cell_in_range(c) && store_.free(c)) {
              goal = c;
              found = true;
            }
          }
  }
  if (!store_.free(goal)) return fail(PathFailure::BadGoal, SearchOutcome::NoPath);
  // Different components: no route, without a search (the reachability No).
  if (comps_.label(store_, start) != comps_.label(store_, goal)) return fail(PathFailure::Unreachable, SearchOutcome::NoPath);
  std::vector<CellPos> cells;
  std::uint32_t expanded = 0;
  if (line_clear(flyer_feet(start), flyer_feet(goal))) {
    // The straight line: a one-segment corridor, no search.
    cells = {start, goal};
    if (start.x == goal.x && start.y == goal.y && start.z == goal.z) cells.pop_back();
    s.corridor.cells = cells;
  } else {
    // The default flight search on a window of the layer around start and goal, within the
    // profile's search distance of the start.
    const int m = std::min(kFlyerWindowMargin, std::max(1, spec.max_distance));
    const int reach = std::max(1, spec.max_distance);
    const auto lo_of = [&](int a, int b, int st) { return std::max(std::min(a, b) - m, st - reach); };
    const auto hi_of = [&](int a, int b, int st) { return std::min(std::max(a, b) + m, st + reach); };
    CellPos lo{lo_of(start.x, goal.x, start.x), lo_of(start.y, goal.y, start.y), lo_of(start.z, goal.z, start.z)};
    const CellPos hi{hi_of(start.x, goal.x, start.x), hi_of(start.y, goal.y, start.y), hi_of(start.z, goal.z, start.z)};
    if (goal.x < lo.x || goal.y < lo.y || goal.z < lo.z || goal.x > hi.x || goal.y > hi.y || goal.z > hi.z)
      return fail(PathFailure::BudgetExhausted, SearchOutcome::BudgetExhausted);  // beyond max_distance
    lo = CellPos{lo.x & ~3, lo.y & ~3, lo.z & ~3};
    const int sx = hi.x - lo.x + 1, sy = hi.y - lo.y + 1, sz = hi.z - lo.z + 1;
    if (sx > kMaxGridEdge || sy > kMaxGridEdge || sz > kMaxGridEdge ||
        std::uint64_t(sx) * std::uint64_t(sy) * std::uint64_t(sz) > kMaxGridCells)
      return fail(PathFailure::BudgetExhausted, SearchOutcome::NoPath);
    store_.window(lo, sx, sy, sz, window_);
    const auto local = [&](CellPos c) { return CellPos{c.x - lo.x, c.y - lo.y, c.z - lo.z}; };
    search_.run(window_, local(start), local(goal), spec.max_nodes, found_);
    expanded = static_cast<std::uint32_t>(std::min<std::uint64_t>(found_.expanded, 0xFFFFFFFFu));
    if (!found_.found) {
      fail(found_.limited ? PathFailure::BudgetExhausted : PathFailure::NoPath, SearchOutcome::NoPath);
      s.result.expanded = expanded;
      return;
    }
    s.corridor.cells.reserve(found_.cells.size());
    for (const CellPos& c : found_.cells) s.corridor.cells.push_back(CellPos{c.x + lo.x, c.y + lo.y, c.z + lo.z});
    sweep::pull_cells(s.corridor.cells, kFlightPullSegment, kPullGap, cells, [&](CellPos p, CellPos q) {
      return flyer_line_clear(window_, lo, flyer_feet(p), flyer_feet(q));
    });
  }
  // The corridor: waypoints at the kept cells' feet, every edge Fly.
  double length = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) length += distance(cells[i - 1], cells[i]);
    s.corridor.points.push_back(Waypoint{flyer_feet(cells[i]), i ? EdgeKind::Fly : EdgeKind::Start, cells[i]});
  }
  s.corridor.kinds.assign(s.corridor.cells.size(), EdgeKind::Fly);
  if (!s.corridor.kinds.empty()) s.corridor.kinds[0] = EdgeKind::Start;
  s.result.outcome = SearchOutcome::Found;
  s.result.cells = s.corridor.cells;
  s.result.kinds = s.corridor.kinds;
  s.result.cost = length_cost(length);
  s.result.expanded = expanded;
  s.state = RequestState::Ready;
  s.fail = PathFailure::None;
}

}  // namespace voxnav::detail::flight
