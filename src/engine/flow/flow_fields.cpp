#include "engine/flow/flow_fields.h"

#include <algorithm>

#include "engine/nav/nav_world.h"

namespace voxnav::detail {

std::uint32_t FlowFields::add(std::uint32_t profile, std::uint32_t nav_slot, CellPos goal,
                              std::vector<CellPos> cover, const CostTable& costs) {
  std::uint32_t idx;
  if (!free_.empty()) {
    idx = free_.back();
    free_.pop_back();
  } else {
    idx = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  FlowSlot& s = slots_[idx];
  const std::uint32_t gen = s.generation;
  s = FlowSlot{};
  s.generation = gen;
  s.live = true;
  s.profile = profile;
  s.nav_slot = nav_slot;
  s.goal = goal;
  s.cover = std::move(cover);
  s.costs = costs;
  s.dirty = true;
  s.wanted = next_want_++;
  return idx;
}

FlowSlot* FlowFields::get(std::uint32_t index, std::uint32_t generation) {
  if (generation == 0 || index >= slots_.size()) return nullptr;
  FlowSlot& s = slots_[index];
  return s.live && s.generation == generation ? &s : nullptr;
}
const FlowSlot* FlowFields::get(std::uint32_t index, std::uint32_t generation) const {
  return const_cast<FlowFields*>(this)->get(index, generation);
}

bool FlowFields::released(std::uint32_t index, std::uint32_t generation) const {
  if (generation == 0 || index >= slots_.size()) return false;
  const FlowSlot& s = slots_[index];
  return generation < s.generation;
}

void FlowFields::release(std::uint32_t index, std::uint32_t generation, Executor& exec) {
  FlowSlot* s = get(index, generation);
  if (!s) return;
  if (s->build) exec.wait_idle();  // its jobs may still run
  const std::uint32_t gen = s->generation;
  *s = FlowSlot{};
  s->generation = gen + 1 == 0 ? 1 : gen + 1;
  free_.push_back(index);
}

namespace {
/// Whether a change can alter moves of cells in `box` (one column around a cell's moves, two for
/// gap jumps; from five below to max drop + 5 above, as the agents' corridor checks).
bool touches(const Change& ch, const FlowBox& box, int max_drop) {
  return ch.max.x >= box.min.x - 2 && ch.min.x <= box.max.x + 2 && ch.max.z >= box.min.z - 2 &&
         ch.min.z <= box.max.z + 2 && ch.max.y >= box.min.y - max_drop - 5 &&
         ch.min.y <= box.max.y + 5;
}
}  // namespace

void FlowFields::start(FlowSlot& s, NavWorld& nav, Executor& exec, int delay) {
  std::vector<CellPos> points = s.cover;
  points.insert(points.end(), s.holders.begin(), s.holders.end());
  const FlowBox region = flow_region(s.goal, points, kFlowMargin, kFlowHalfWidth);
  auto build = std::make_shared<FlowBuild>(nav.grid(), s.costs, s.goal, region);
  s.build = build;
  s.dirty = false;
  s.wanted = 0;
  s.started_tick = tick_;
  s.deliver_tick = tick_ + static_cast<std::uint64_t>(delay > 0 ? delay : 1);
  ++s.builds;
  // Slices of one chunk each, taken in turn by min(workers, slices) jobs; the job finishing the
  // last slice runs the Dijkstra. The result depends only on the grid and the spec.
  const int workers = std::clamp(exec.worker_count(), 1, kMaxSearchWorkers);
  const std::size_t jobs =
      std::max<std::size_t>(1, std::min(static_cast<std::size_t>(workers), build->slices()));
  for (std::size_t k = 0; k < jobs; ++k) exec.submit([build](int) { build->run_slices(); });
}

void FlowFields::update(const std::array<NavWorld*, 4>& navs, const std::vector<Change>& changes,
                        Executor& exec, int delay) {
  ++tick_;
  ready_.clear();
  bool any_build = false;
  for (const FlowSlot& s : slots_) any_build |= s.live && s.build != nullptr;
  if (any_build) exec.wait_idle();
  for (FlowSlot& s : slots_) {
    if (!s.live) continue;
    NavWorld* nav = s.nav_slot < navs.size() ? navs[s.nav_slot] : nullptr;
    if (!nav) continue;
    if (s.build && s.deliver_tick <= tick_ && s.build->done()) {
      s.field = s.build->result();
      ++s.version;
      s.build.reset();
    }
    const int max_drop = nav->grid().envelope().max_drop;
    // A change in the region of the field serving (or of the one being built, which read the
    // layers before this update's changes): build again.
    for (const Change& ch : changes) {
      if ((s.field && touches(ch, s.field->region, max_drop)) ||
          (s.build && touches(ch, s.build->result()->region, max_drop))) {
        s.dirty = true;
        break;
      }
    }
    // A follower outside the region that a new build would cover.
    if (s.field && !s.dirty)
      for (const CellPos& h : s.holders)
        if (!s.field->region.contains(h) && std::abs(h.x - s.goal.x) <= kFlowHalfWidth &&
            std::abs(h.z - s.goal.z) <= kFlowHalfWidth &&
            std::abs(h.y - s.goal.y) <= kFlowHalfWidth) {
          s.dirty = true;
          break;
        }
    if (!s.dirty) continue;
    if (s.wanted == 0) s.wanted = next_want_++;  // joins the queue behind those wanted before
    if (!s.build && (s.builds == 0 || tick_ - s.started_tick >= kFlowRebuildTicks))
      ready_.push_back(static_cast<std::uint32_t>(&s - slots_.data()));
  }
  // The build budget: the fields wanted longest ago first (their places are unique); the rest
  // wait for the next update, the field built last serving meanwhile.
  std::sort(ready_.begin(), ready_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return slots_[a].wanted < slots_[b].wanted;
  });
  const std::size_t n =
      budget_ > 0 ? std::min(ready_.size(), static_cast<std::size_t>(budget_)) : ready_.size();
  for (std::size_t k = 0; k < n; ++k) {
    FlowSlot& s = slots_[ready_[k]];
    start(s, *navs[s.nav_slot], exec, delay);
  }
  ready_.clear();
  queued_ = 0;
  for (const FlowSlot& s : slots_) queued_ += s.live && s.dirty;
}

}  // namespace voxnav::detail
