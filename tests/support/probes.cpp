// Benchmark probes into the engine (see probes.h).
#include "probes.h"

#include "engine/corridor/corridor.h"
#include "engine/nav/world_access.h"

namespace voxnav::test {

namespace {
detail::NavWorld& walker_nav(World& w) { return *detail::WorldAccess::state(w).walker(); }
}  // namespace

const char* raw_outcome_name(RawOutcome o) noexcept {
  switch (o) {
    case RawOutcome::Found:
      return "found";
    case RawOutcome::Partial:
      return "partial";
    case RawOutcome::NoPath:
      return "no_path";
    case RawOutcome::BudgetExhausted:
      return "budget_exhausted";
    case RawOutcome::BadStart:
      return "bad_start";
  }
  return "?";
}

SearchLimits compiled_limits(const Profile& profile) {
  const detail::AgentMotion m = detail::compile_profile(profile);
  return SearchLimits{m.max_nodes, m.max_distance};
}

struct RawSearcher::Impl {
  detail::NavWorld* nav = nullptr;
  detail::RequestSpec spec;
  detail::SearchResult res;
  std::vector<Waypoint> points;
};

RawSearcher::RawSearcher(World& world, const Profile* costs_of) : impl_(std::make_unique<Impl>()) {
  impl_->nav = &walker_nav(world);
  if (costs_of) impl_->spec.costs = detail::compile_profile(*costs_of).costs;
}
RawSearcher::~RawSearcher() = default;

void RawSearcher::run(CellPos start, CellPos goal, SearchLimits limits) {
  impl_->spec.start = start;
  impl_->spec.goal = goal;
  impl_->spec.max_nodes = limits.max_nodes;
  impl_->spec.max_distance = limits.max_distance;
  impl_->res = impl_->nav->search_now(impl_->spec);
}
RawOutcome RawSearcher::outcome() const noexcept { return static_cast<RawOutcome>(impl_->res.outcome); }
std::uint32_t RawSearcher::cost() const noexcept { return impl_->res.cost; }
std::uint32_t RawSearcher::expanded() const noexcept { return impl_->res.expanded; }
const std::vector<CellPos>& RawSearcher::cells() const noexcept { return impl_->res.cells; }
std::size_t RawSearcher::pull() {
  detail::string_pull(impl_->nav->grid(), impl_->res.cells, impl_->res.kinds, impl_->points);
  return impl_->points.size();
}

IslandCounters island_counters(const World& world) {
  // NavWorld has no const islands(); reading the counters changes nothing.
  const detail::IslandStats& s = walker_nav(const_cast<World&>(world)).islands().stats();
  IslandCounters c;
  c.deltas = s.deltas;
  c.merges = s.merges;
  c.split_checks = s.split_checks;
  c.fallbacks = s.fallbacks;
  c.local_splits = s.local_splits;
  c.component_searches = s.component_searches;
  c.components_built = s.components_built;
  c.out_patches = s.out_patches;
  return c;
}

void rebuild_chunk_from_scratch(World& world, ChunkPos p) {
  detail::WorldState& st = detail::WorldAccess::state(world);
  detail::NavWorld& nav = *st.walker();
  nav.grid().classify_chunk(st.space, p);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dz = -1; dz <= 1; ++dz)
      for (int dx = -1; dx <= 1; ++dx) nav.grid().rebuild_moves({p.x + dx, p.y + dy, p.z + dz});
}

void recompute_islands(World& world) {
  detail::NavWorld& nav = walker_nav(world);
  nav.islands().recompute(nav.grid());
}

Status agent_cell_index(const World& world, AgentId id, std::size_t* index) {
  if (!index) return Status::InvalidArgument;
  const detail::AgentRecord* a = detail::WorldAccess::state(world).agents.get(id);
  if (!a) return Status::StaleHandle;
  *index = a->cell_index;
  return Status::Ok;
}

}  // namespace voxnav::test
