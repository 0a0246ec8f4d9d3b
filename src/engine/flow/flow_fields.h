// FlowFields: the flow fields of one World. Slots with generations (flow handles), builds run on
// the executor and installed at the update after their dispatch (or lockstep_delay updates
// later), rebuilds when a change lands in a field's region or a follower stands outside it, at
// most one start every kFlowRebuildTicks updates per field; the old field serves until the new
// one is installed.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/exec/executor.h"
#include "engine/flow/flow_field.h"
#include "engine/world/space.h"

namespace voxnav::detail {

class NavWorld;

/// A field's region grows this far around its goal, cover points and followers, and no further
/// than kFlowHalfWidth from the goal (160 cells across).
inline constexpr int kFlowMargin = 16;
inline constexpr int kFlowHalfWidth = 80;
/// Updates between two build starts of one field: 4 per second at 20 updates per second.
inline constexpr std::uint64_t kFlowRebuildTicks = 5;
/// Builds started per update by default (FlowFields::set_budget; 0: no limit).
inline constexpr int kFlowBuildsPerUpdate = 8;

struct FlowSlot {
  std::uint32_t generation = 1;
  bool live = false;
  std::uint32_t profile = 0;
  std::uint32_t nav_slot = 0;
  CellPos goal;
  std::vector<CellPos> cover;
  CostTable costs;
  std::shared_ptr<const FlowField> field;  ///< the field serving (null until the first build)
  std::uint32_t version = 0;               ///< builds installed
  std::shared_ptr<FlowBuild> build;        ///< in flight
  std::uint64_t deliver_tick = 0;
  std::uint64_t started_tick = 0;  ///< update at which the last build started
  bool dirty = true;               ///< a build is wanted
  std::uint64_t wanted = 0;        ///< its place in the build queue (0: not queued yet)
  std::vector<CellPos> holders;    ///< the followers' cells at the last update
  std::uint64_t builds = 0;        ///< builds started (statistics and tests)
};

class FlowFields {
 public:
  /// A new field slot (its first build starts at the next update). Returns its index.
  std::uint32_t add(std::uint32_t profile, std::uint32_t nav_slot, CellPos goal,
                    std::vector<CellPos> cover, const CostTable& costs);
  FlowSlot* get(std::uint32_t index, std::uint32_t generation);
  const FlowSlot* get(std::uint32_t index, std::uint32_t generation) const;
  /// Whether (index, generation) was a slot of this store, released since.
  bool released(std::uint32_t index, std::uint32_t generation) const;
  void release(std::uint32_t index, std::uint32_t generation, Executor& exec);
  std::size_t capacity() const { return slots_.size(); }
  const FlowSlot& at(std::size_t i) const { return slots_[i]; }
  FlowSlot& at_mut(std::size_t i) { return slots_[i]; }

  /// One update, after the navigations updated (their jobs are finished): installs the builds due,
  /// marks the fields whose region `changes` touch (or whose followers stand outside it), and
  /// starts the builds wanted and allowed, at most budget() of them, those wanted first (in the
  /// order they were wanted) first; the rest wait, their old field serving. `navs` by class slot;
  /// `delay` the lockstep delay.
  void update(const std::array<NavWorld*, 4>& navs, const std::vector<Change>& changes,
              Executor& exec, int delay);
  std::uint64_t tick() const { return tick_; }
  /// Builds started per update (0: no limit).
  void set_budget(int builds) { budget_ = builds; }
  int budget() const { return budget_; }
  /// Fields wanting a build that has not started (after the last update).
  std::size_t queued() const { return queued_; }

 private:
  void start(FlowSlot& s, NavWorld& nav, Executor& exec, int delay);
  std::vector<FlowSlot> slots_;
  std::vector<std::uint32_t> free_;
  std::uint64_t tick_ = 0;
  std::uint64_t next_want_ = 1;
  int budget_ = kFlowBuildsPerUpdate;
  std::size_t queued_ = 0;
  std::vector<std::uint32_t> ready_;  // scratch: slots whose build may start this update
};

}  // namespace voxnav::detail
