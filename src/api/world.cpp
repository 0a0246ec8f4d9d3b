#include "voxnav/world.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "api_text.h"
#include "memory_need.h"
#include "engine/nav/class_envelopes.h"
#include "engine/util/json_error.h"
#include "engine/nav/profile_compile.h"
#include "engine/nav/world_state.h"

namespace voxnav {


namespace detail {

ClassEnvelope walker_envelope() { return class_envelope(MovementClass::Walker); }

/// Most one cell of climbing costs (a thousand cells of walking), whatever the climb speed.
constexpr std::uint32_t kMaxClimbCost = 1000 * kCostStraight;

AgentMotion compile_profile(const Profile& p) {
  AgentMotion m;
  m.body.width = p.width;
  m.body.height = p.height;
  m.body.step_height = p.step_height;
  m.body.jump_velocity = jump_velocity_for_apex(m.body.gravity, p.jump_apex);
  m.body.climb_speed = p.can_climb ? p.climb_speed : 0.0;
  const std::uint32_t slot = WorldState::class_slot(p.movement_class);
  m.nav_slot = static_cast<std::uint8_t>(slot < WorldState::kClassSlots ? slot : 0);
  m.flies = p.movement_class == MovementClass::Flyer;
  if (m.flies) m.nav_slot = static_cast<std::uint8_t>(WorldState::kFlyerSlot);
  m.foot_offset = class_envelope(p.movement_class).foot_offset();
  m.walk_speed = p.walk_speed;
  m.swims = p.movement_class == MovementClass::Swimmer;
  m.swim_speed = p.swim_speed;
  m.arrive_radius = p.arrive_radius;
  m.steer = compile_steer(p.avoidance, p.width);
  m.control = ControlParams{p.turn_rate, p.sprint_speed, p.strafe, p.knockback.resistance};
  m.costs.max_drop = static_cast<std::uint8_t>(p.max_drop);
  // The malus table per path type, in integer cost units; ladders only for climbers (one cell
  // up or down costs the time it takes at climb speed) and closed doors only for profiles that
  // open them: both stay impassable for the others whatever their malus says.
  const CompiledProfile cp = compile_profile_costs(p);
  m.costs.drop_extra = cp.drop_extra;
  m.costs.restricts_class = cp.restricts_class;
  // Gap jumps: the class's navigation holds them over kClassGapReach cells (a longer reach is
  // capped there; a shorter one refuses them).
  m.costs.gap_reach = static_cast<std::uint8_t>(std::min(cp.gap_reach, 255));
  auto& extra = m.costs.kind_extra;
  static constexpr std::pair<PathType, CellKind> kKinds[] = {
      {PathType::Walkable, CellKind::Walkable},     {PathType::Slow, CellKind::Slow},
      {PathType::DangerFire, CellKind::DangerFire}, {PathType::DangerOther, CellKind::DangerOther},
      {PathType::DamageFire, CellKind::DamageFire}, {PathType::DamageOther, CellKind::DamageOther},
      {PathType::DoorOpen, CellKind::DoorOpen},     {PathType::DoorClosed, CellKind::DoorClosed},
      {PathType::Climbable, CellKind::Climbable},   {PathType::Water, CellKind::Water},
  };
  for (const auto& [type, kind] : kKinds)
    extra[static_cast<std::size_t>(kind)] = cp.path_cost[static_cast<std::size_t>(type)];
  if (p.can_climb && p.climb_speed > 0) {
    // In double, capped at kMaxClimbCost, then converted: a very slow climb (a huge ratio) must
    // not wrap through a narrower integer to 0, and a move costs at least 1.
    const double ratio = kCostStraight * p.walk_speed / p.climb_speed;
    const double capped = std::clamp(std::round(ratio), 1.0, static_cast<double>(kMaxClimbCost));
    m.costs.climb_cost = static_cast<std::uint32_t>(capped);
  } else
    extra[static_cast<int>(CellKind::Climbable)] = kCostImpassable;
  if (!p.can_open_doors) extra[static_cast<int>(CellKind::DoorClosed)] = kCostImpassable;
  // Below the class's step or jump, searches check each rise against the profile's own.
  const ClassLimits& cl = class_limits(p.movement_class);
  if (p.step_height < cl.step_height)
    m.costs.step_q = static_cast<std::uint8_t>(std::floor(p.step_height * kHeightUnits + 1e-9));
  if (p.jump_apex < cl.jump_apex)
    m.costs.jump_q = static_cast<std::uint8_t>(jump_rise_q(p.jump_apex));
  // A swimmer's vertical moves are swimming up or down: one cell costs one cell of travel.
  if (p.movement_class == MovementClass::Swimmer) m.costs.climb_cost = kCostStraight;
  m.max_nodes = p.search_max_nodes;
  m.max_distance = p.search_max_distance;
  return m;
}

Status rebuild_surfaces(WorldState& ws) {
  SurfaceGroups groups;
  const Status st = build_surface_groups(ws.registry.size(), ws.masks, groups);
  if (st != Status::Ok) return st;
  // Searches already dispatched finish on the planes they started with; then the planes change.
  for (NavWorld* n : ws.navs()) n->wait_jobs();
  ws.groups = std::move(groups);
  for (NavWorld* n : ws.navs()) n->set_surface_groups(ws.groups.group_of_value);
  for (std::uint32_t i = 0; i < ws.profiles.size(); ++i) {
    AgentMotion& m = ws.agents.motion_mut(ws.profile_motion[i]);
    m.costs.surface = filtered_surface_costs(ws, i, 0, nullptr, &m.costs.surface_min);
  }
  // Requests still queued compiled their surface costs for the old groups: compile them again.
  for (NavWorld* n : ws.navs())
    n->for_each_queued([&](RequestSpec& spec) {
      for (std::uint32_t i = 0; i < ws.profiles.size(); ++i)
        if (ws.profile_motion[i] == spec.motion) {
          spec.costs.surface = filtered_surface_costs(
              ws, i, spec.excluded, spec.multiplier ? spec.multiplier->data() : nullptr,
              &spec.costs.surface_min);
          break;
        }
    });
  return Status::Ok;
}

std::shared_ptr<const std::array<std::int32_t, 256>> filtered_surface_costs(
    const WorldState& ws, std::uint32_t profile, std::uint32_t excluded, const double* multiplier,
    std::int32_t* min) {
  std::vector<std::int64_t> mask_cost(ws.masks.size(), 0);
  for (std::size_t a = 0; a < ws.areas.size(); ++a) {
    const WorldState::Area& area = ws.areas[a];
    if (excluded & (1u << a)) {
      mask_cost[area.mask] = kMaskExcluded;
      continue;
    }
    const double k = multiplier ? multiplier[a] : 1.0;
    // |cost| <= 10^7 and k <= 1000: exact in a double, and no int64 overflow.
    mask_cost[area.mask] = std::llround(static_cast<double>(area.cost) * k);
  }
  if (profile < ws.profile_masks.size())
    for (const auto& [mask, cost] : ws.profile_masks[profile])
      if (mask_cost[mask] != kMaskExcluded) mask_cost[mask] += cost;
  return group_costs(ws.groups, mask_cost, min);
}

}  // namespace detail

namespace {
using detail::cell_range_error;
using detail::cell_text;
using detail::chunk_range_error;
using detail::chunk_text;
using detail::num;
using detail::vec_text;
using detail::profile_error;
// The one wording of an unloaded cell: "cell (1, 2, 3) is in chunk (0, 0, 0), which is not loaded".
std::string cell_not_loaded(const std::string& what, CellPos c) {
  return what + " " + cell_text(c) + " is in chunk " + chunk_text(detail::chunk_of(c)) +
         ", which is not loaded";
}
std::string value_error(std::uint16_t v, std::size_t count) {
  return "value " + std::to_string(v) + " is not in the block registry (values 0 .. " +
         std::to_string(count - 1) + ")";
}
bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
void copy_points(const std::vector<Waypoint>& pts, Waypoint* out, std::size_t cap) {
  std::copy_n(pts.begin(), std::min(pts.size(), cap), out);
}
}  // namespace

std::string number_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string json_syntax_error(std::string_view text) {
  return detail::json_syntax_error(text.data(), text.size());
}

const char* reach_answer_name(ReachAnswer a) noexcept {
  return a == ReachAnswer::Yes ? "yes" : a == ReachAnswer::No ? "no" : "unknown";
}
const char* path_state_name(PathState s) noexcept {
  return s == PathState::Searching ? "searching" : s == PathState::Ready ? "ready" : "failed";
}

World::World(const WorldDef& def) : state_(std::make_unique<detail::WorldState>()) {
  static std::atomic<std::uint32_t> worlds{0};  // id tags 1 .. kMaxIdTag, in turn
  state_->id_tag = 1 + worlds.fetch_add(1, std::memory_order_relaxed) % kMaxIdTag;
  state_->agents.set_id_tag(state_->id_tag);
  state_->executor = def.executor;
  state_->lockstep_delay = std::max(0, def.lockstep_delay);
  state_->classes[detail::WorldState::kWalkerSlot] = std::make_unique<detail::NavWorld>(
      state_->space, detail::walker_envelope(), state_->executor, state_->lockstep_delay);
  state_->walker()->set_search_budget(state_->search_budget);
}

namespace {
// Path handles carry the class of the navigation that owns the request in their top bits.
constexpr std::uint32_t kSlotShift = 28;
constexpr std::uint32_t kIndexMask = (1u << kSlotShift) - 1;
std::uint32_t class_slot(MovementClass c) { return detail::WorldState::class_slot(c); }
detail::NavWorld* nav_of_slot(detail::WorldState& ws, std::uint32_t slot) {
  return ws.nav_of_slot(slot);
}
detail::NavWorld* nav_of_profile(detail::WorldState& ws, ProfileId p) {
  return ws.has_profile(p) ? ws.nav_of(ws.profiles[p.index].movement_class) : nullptr;
}
// The navigation an agent follows (the walker's for a stale id: the callers then fail on the id).
detail::NavWorld* agent_nav(detail::WorldState& ws, AgentId id) {
  const detail::AgentRecord* a = ws.agents.get(AgentId{id.index, id.generation});
  if (!a) return ws.walker();
  detail::NavWorld* nav = nav_of_slot(ws, ws.agents.motion(a->motion).nav_slot);
  return nav ? nav : ws.walker();
}
// The navigation's own handle of a handle of this World (generation 0, never valid, for one of
// another World: its id tag differs).
PathHandle engine_handle(const detail::WorldState& ws, PathHandle h) {
  const std::uint32_t mask = (1u << kIdTagShift) - 1;
  return PathHandle{h.index & kIndexMask, h.generation >> kIdTagShift == ws.id_tag ? h.generation & mask : 0};
}
// The request slot of a handle, or null (stale, or a class without navigation).
const detail::RequestSlot* slot_of(detail::WorldState& ws, PathHandle h) {
  if (h.index >> kSlotShift == detail::WorldState::kFlyerSlot)
    return ws.flyer ? ws.flyer->slot(engine_handle(ws, h)) : nullptr;
  detail::NavWorld* nav = nav_of_slot(ws, h.index >> kSlotShift);
  return nav ? nav->slot(engine_handle(ws, h)) : nullptr;
}
// The refusal of a walkers' query asked of a flyer profile.
std::string flyer_query_error(const detail::WorldState& ws, ProfileId p, const char* instead) {
  return "profile " + std::to_string(p.index) + " (" + ws.profiles[p.index].id + ") is a flyer: " + instead;
}
}  // namespace


// ---- ids as numbers (voxnav/ids.h) ----
namespace {
constexpr double kIdIndexRange = 2097152.0;  // 2^21
constexpr double kKinds = 4.0;               // the kind in the low 2 bits
constexpr double kTags = 64.0;               // a profile number's owner tag
constexpr std::uint32_t kNumberClassShift = 19, kNumberIndexMask = (1u << kNumberClassShift) - 1;
// The id part of a number of kind `kind` (false: not such a number).
bool split_number(double n, IdKind kind, std::uint32_t* index, std::uint32_t* generation) {
  if (id_number_kind(n) != kind) return false;
  const double id = std::floor(n / kKinds), g = std::floor(id / kIdIndexRange);
  *index = static_cast<std::uint32_t>(id - g * kIdIndexRange);
  *generation = static_cast<std::uint32_t>(g);
  return true;
}
}  // namespace

IdKind id_number_kind(double n) noexcept {
  if (!(n >= 0) || n >= 9007199254740992.0 || n != std::floor(n)) return IdKind::None;
  return static_cast<IdKind>(static_cast<int>(n - std::floor(n / kKinds) * kKinds));
}
std::uint32_t id_number_tag(double n) noexcept {
  const double id = std::floor(n / kKinds);
  switch (id_number_kind(n)) {
    case IdKind::Profile: return static_cast<std::uint32_t>(id - std::floor(id / kTags) * kTags);
    case IdKind::Agent:
    case IdKind::Path: return static_cast<std::uint32_t>(std::floor(id / kIdIndexRange)) >> kIdTagShift;
    default: return 0;
  }
}
const char* id_kind_name(IdKind kind) noexcept {
  switch (kind) {
    case IdKind::Agent: return "agent id";
    case IdKind::Path: return "path handle";
    case IdKind::Profile: return "profile id";
    default: return "";
  }
}
bool id_number(AgentId agent, double* out) noexcept {
  if (!out || agent.index >= kIdIndexRange || agent.generation >> 30) return false;
  *out = (agent.generation * kIdIndexRange + agent.index) * kKinds + double(IdKind::Agent);
  return true;
}
bool id_number(PathHandle path, double* out) noexcept {
  const std::uint32_t slot = path.index >> kSlotShift, low = path.index & kIndexMask;
  if (!out || slot > 3 || low > kNumberIndexMask || path.generation >> 30) return false;
  *out = (path.generation * kIdIndexRange + double((slot << kNumberClassShift) | low)) * kKinds +
         double(IdKind::Path);
  return true;
}
bool id_number(ProfileId profile, double* out) noexcept {
  if (!out || profile.owner == 0 || profile.owner > kMaxIdTag) return false;
  *out = (profile.index * kTags + profile.owner) * kKinds + double(IdKind::Profile);
  return true;
}
bool id_of_number(double number, AgentId* out) noexcept {
  return out && split_number(number, IdKind::Agent, &out->index, &out->generation);
}
bool id_of_number(double number, PathHandle* out) noexcept {
  std::uint32_t index = 0, generation = 0;
  if (!out || !split_number(number, IdKind::Path, &index, &generation)) return false;
  *out = PathHandle{((index >> kNumberClassShift) << kSlotShift) | (index & kNumberIndexMask), generation};
  return true;
}
bool id_of_number(double number, ProfileId* out) noexcept {
  if (!out || id_number_kind(number) != IdKind::Profile) return false;
  const double id = std::floor(number / kKinds), index = std::floor(id / kTags);
  if (index > 4294967294.0) return false;
  *out = ProfileId{static_cast<std::uint32_t>(index), id_number_tag(number)};
  return true;
}

Status World::check_buffer(const char* function, const void* out, std::size_t capacity,
                           const std::size_t* count) const {
  if (!count) return fail(Status::InvalidArgument, function, "count", "count is null");
  if (capacity && !out)
    return fail(Status::InvalidArgument, function, "out", "out is null with capacity " + std::to_string(capacity));
  return Status::Ok;
}
Status World::stale(const char* function, AgentId agent) const {
  return fail(Status::StaleHandle, function, "agent",
              detail::agent_text("agent", agent) +
                  " is not a live agent (removed, or never added to this world)");
}
Status World::stale(const char* function, PathHandle path, bool not_ready) const {
  double n = 0;
  const bool numbered = id_number(path, &n);
  const std::string id = detail::id_text("path", n, numbered, path.index, path.generation);
  if (not_ready) return fail(Status::Busy, function, "path", id + " is not ready (status is not 'ready')");
  return fail(Status::StaleHandle, function, "path", id + " is not a live request (released, or never made by this world)");
}

World::~World() = default;

const CallError& World::last_error() const noexcept { return last_error_; }
std::uint32_t World::id_tag() const noexcept { return state_->id_tag; }

Status World::fail(Status st, const char* function, const char* argument, std::string message,
                   std::string* error) const {
  last_error_ = CallError{st, function, argument ? argument : "", message};
  if (error) *error = std::move(message);
  return st;
}

namespace {
// Every registry is installed here: a game's own blocks, the JSON format, minecraft-data (whose
// producer `mc` keeps its state lookups, bound once the registry is in place).
Status install_blocks(detail::WorldState& ws, const BlockRegistryDef& def,
                      detail::MinecraftBlocks* mc, const char* fn, std::string* error) {
  if (ws.space.chunk_count() != 0 || !ws.masks.empty()) {
    (void)fn;
    if (error)
      *error = ws.space.chunk_count() != 0
                   ? "chunks are already loaded; install the registry first"
                   : "areas or surface malus already name blocks; install the registry first";
    return Status::Busy;
  }
  // Built aside (the registry, then the lookups bound to it: both allocate), then swapped in
  // with moves that cannot throw: an allocation failure leaves the old registry and lookups.
  detail::BlockRegistry reg;
  detail::MinecraftBlocks lookups;
  std::string msg;
  if (const Status st = reg.install(def, &msg); st != Status::Ok) {
    if (error) *error = msg;
    return st;
  }
  if (mc) {
    mc->bind(reg, msg);  // name and state lookups into the new registry
    lookups = std::move(*mc);
  }
  static_assert(std::is_nothrow_move_assignable_v<detail::BlockRegistry> &&
                    std::is_nothrow_move_assignable_v<detail::MinecraftBlocks>,
                "install_blocks swaps the new registry in with moves that cannot fail");
  ws.registry = std::move(reg);
  ws.blocks = std::move(lookups);
  if (mc) ws.blocks.rebind(ws.registry);  // the same registry, at its final place
  if (error) error->clear();
  return Status::Ok;
}
}  // namespace

Status World::define_blocks(const BlockRegistryDef& def, std::string* error) {
  std::string msg;
  const Status st =
      detail::guarded(msg, [&] { return install_blocks(*state_, def, nullptr, "define_blocks", &msg); });
  return st == Status::Ok ? st : fail(st, "define_blocks", "def", msg, error);
}

Status World::load_blocks_json(std::span<const std::uint8_t> json, std::string* error) {
  const char* fn = "load_blocks_json";
  std::string msg;
  BlockRegistryDef def;
  Status st = Status::Ok;
  if (state_->space.chunk_count() != 0 || !state_->masks.empty())
    st = install_blocks(*state_, {}, nullptr, fn, &msg);  // Busy
  if (st == Status::Ok)
    st = detail::guarded(msg, [&] {
      const Status room = detail::check_room(
          detail::registry_bytes(json.size()),
          "a block registry of " + std::to_string(json.size()) + " bytes", msg);
      return room != Status::Ok ? room : parse_block_registry_json(json, &def, &msg);
    });
  if (st == Status::Ok)
    st = detail::guarded(msg, [&] { return install_blocks(*state_, def, nullptr, fn, &msg); });
  if (st == Status::Ok && error) error->clear();
  return st == Status::Ok ? st : fail(st, fn, "json", msg, error);
}

Status World::load_minecraft_blocks(std::span<const std::uint8_t> blocks_json,
                                    std::span<const std::uint8_t> shapes_json, std::string* error) {
  const char* fn = "load_minecraft_blocks";
  std::string msg;
  if (state_->space.chunk_count() != 0 || !state_->masks.empty()) {
    const Status st = install_blocks(*state_, {}, nullptr, fn, &msg);  // Busy
    return fail(st, fn, "", msg, error);
  }
  detail::MinecraftBlocks blocks;
  BlockRegistryDef def;
  if (const Status st = detail::guarded(msg, [&] {
        const std::size_t bytes = blocks_json.size() + shapes_json.size();
        const Status room = detail::check_room(
            detail::registry_bytes(bytes), "a block registry of " + std::to_string(bytes) + " bytes", msg);
        return room != Status::Ok ? room : blocks.produce(blocks_json, shapes_json, def, msg);
      });
      st != Status::Ok)
    return fail(st, fn, "blocks_json", msg.empty() ? "the block registry JSON is not valid" : msg, error);
  const Status st = detail::guarded(msg, [&] { return install_blocks(*state_, def, &blocks, fn, &msg); });
  if (st == Status::Ok && error) error->clear();
  return st == Status::Ok ? st : fail(st, fn, "blocks_json", msg, error);
}

Status World::set_block_traits(std::span<const BlockTraitsChange> changes, std::string* error) {
  detail::WorldState& ws = *state_;
  // Searches and chunk builds in flight read the registry: they finish first.
  for (detail::NavWorld* n : ws.navs()) n->wait_jobs();
  std::string msg;
  if (const Status st = ws.registry.set_traits(changes, &msg); st != Status::Ok)
    return fail(st, "set_block_traits", "changes",
                msg.empty() && !changes.empty() ? "value " + std::to_string(changes[0].value) + " is not in the registry" : msg,
                error);
  if (error) error->clear();
  // Every loaded chunk is loaded again with its own blocks: navigation rebuilds them at the next
  // update and the agents see the change as they see any other.
  detail::Space& space = ws.space;
  std::vector<std::uint16_t> values(detail::kChunkCells);
  for (const ChunkPos& p : space.loaded_chunks()) {
    const detail::Chunk* ch = space.chunk(p);
    Status st = Status::Ok;
    if (ch->uniform) {
      st = space.load_uniform_chunk(p, ch->uniform_value);
    } else {
      std::copy(ch->values.get(), ch->values.get() + detail::kChunkCells, values.begin());
      st = space.load_chunk(p, values);
    }
    if (st != Status::Ok) return st;  // not reached: the chunk was loaded with these values
  }
  return Status::Ok;
}

Status World::block_def(std::uint16_t value, BlockDef* out) const {
  if (!out) return fail(Status::InvalidArgument, "block_def", "out", "out is null");
  if (!state_->registry.valid(value))
    return fail(Status::OutOfRange, "block_def", "value", value_error(value, block_count()));
  *out = state_->registry.def(value);
  return Status::Ok;
}

namespace {
// The part of a state string block_value refuses, or "" when every part names something real.
// World file loaders resolve states leniently (MinecraftBlocks::value counts what it ignores);
// a name a host types is checked strictly here instead.
std::string strict_state_error(const detail::MinecraftBlocks& blocks, std::string_view state) {
  detail::BlockStateString s;
  std::string msg;
  if (detail::parse_block_state_string(state, s, msg) != Status::Ok) return msg;
  const int bi = blocks.block_index(s.name);
  if (bi < 0) return "no block is named \"" + s.name + "\"";
  const detail::McBlock& b = blocks.blocks()[static_cast<std::size_t>(bi)];
  for (std::size_t i = 0; i < s.properties.size(); ++i) {
    const auto& [key, val] = s.properties[i];
    for (std::size_t j = 0; j < i; ++j)
      if (s.properties[j].first == key) return "property \"" + key + "\" is given twice";
    const detail::McProperty* prop = nullptr;
    for (const detail::McProperty& p : b.properties)
      if (p.name == key) prop = &p;
    if (!prop) {
      std::string names;
      for (const detail::McProperty& p : b.properties)
        names += (names.empty() ? "" : ", ") + p.name;
      return "block \"" + b.name + "\" has no property \"" + key + "\" (" +
             (names.empty() ? std::string("it has none") : "properties: " + names) + ")";
    }
    bool known = false;
    for (const std::string& v : prop->values) known = known || v == val;
    if (!known) {
      std::string values;
      for (const std::string& v : prop->values) values += (values.empty() ? "" : ", ") + v;
      return "property \"" + key + "\" of block \"" + b.name + "\" has no value \"" + val +
             "\" (values: " + values + ")";
    }
  }
  return std::string();
}
}  // namespace

Status World::block_value(std::string_view state, std::uint16_t* value, std::string* error) const {
  if (!value) return Status::InvalidArgument;
  if (state_->blocks.loaded()) {
    const std::string why = strict_state_error(state_->blocks, state);
    if (!why.empty()) {
      *value = state_->registry.fallback();
      return fail(Status::NotFound, "block_value", "state",
                  "state \"" + std::string(state) + "\" is not in the block registry: " + why, error);
    }
    detail::LookupTally tally;
    *value = state_->blocks.value_from_string(state, &tally);
    if (tally.unknown_blocks || tally.unknown_properties) {  // not expected after the check above
      if (error) *error = "state \"" + std::string(state) + "\" is not in the block registry";
      return Status::NotFound;
    }
    if (error) error->clear();
    return Status::Ok;
  }
  *value = state_->registry.find(state);
  if (!state_->registry.has(state))
    return fail(Status::NotFound, "block_value", "state",
                "state \"" + std::string(state) + "\" is not in the block registry", error);
  if (error) error->clear();
  return Status::Ok;
}

std::size_t World::block_count() const { return state_->registry.size(); }

namespace {
// Checks chunks to load (`one`: a single chunk, named without its index); "" when all are good.
struct Refusal {
  Status status = Status::Ok;
  const char* argument = "";
  std::string message;
};
Refusal check_chunks(const detail::Space& space, std::span<const ChunkPos> positions,
                             const std::uint16_t* values, std::size_t value_count,
                             std::size_t registry_size, bool loading, bool one) {
  const std::size_t n = positions.size();
  if (loading && value_count != n * kChunkValues)
    return {Status::InvalidArgument, "values",
            "values has " + std::to_string(value_count) + " entries, expected " +
                std::to_string(n * kChunkValues) +
                (one ? std::string()
                     : " (" + std::to_string(kChunkValues) + " per chunk, " + std::to_string(n) +
                           (n == 1 ? " chunk)" : " chunks)"))};
  std::vector<std::pair<std::array<std::int32_t, 3>, std::size_t>> seen;
  for (std::size_t i = 0; i < n; ++i) {
    const ChunkPos p = positions[i];
    const std::string which = one ? "chunk" : "chunk " + std::to_string(i);
    if (std::string e = chunk_range_error(which, p); !e.empty())
      return {Status::OutOfRange, one ? "chunk" : "positions", e};
    if (loading) {
      const std::uint16_t* v = values + i * kChunkValues;
      for (int k = 0; k < kChunkValues; ++k)
        if (v[k] >= registry_size)
          return {Status::OutOfRange, "values",
                  "values[" + std::to_string(i * kChunkValues + k) + "] = " + std::to_string(v[k]) +
                      " (" + which + " " + chunk_text(p) +
                      ") is not in the block registry (values 0 .. " +
                      std::to_string(registry_size - 1) + ")"};
    } else if (!space.is_loaded(p)) {
      return {Status::NotLoaded, one ? "chunk" : "positions", which + " " + chunk_text(p) + " is not loaded"};
    }
    seen.push_back({{p.x, p.y, p.z}, i});
  }
  // A chunk given twice: refused for loads as for unloads (a load would keep one of the two
  // arrays and drop the other without a word).
  std::sort(seen.begin(), seen.end());
  for (std::size_t k = 1; k < seen.size(); ++k)
    if (seen[k].first == seen[k - 1].first)
      return {Status::InvalidArgument, "positions",
              "positions: chunk " + std::to_string(std::max(seen[k].second, seen[k - 1].second)) +
                  " " + chunk_text(positions[seen[k].second]) + " repeats chunk " +
                  std::to_string(std::min(seen[k].second, seen[k - 1].second)) +
                  " (each chunk may be given once)"};
  return {};
}
}  // namespace

Status World::load_chunk(ChunkPos pos, std::span<const std::uint16_t> values) {
  const Refusal e = check_chunks(state_->space, std::span<const ChunkPos>(&pos, 1),
                                         values.data(), values.size(), block_count(), true, true);
  if (e.status != Status::Ok) return fail(e.status, "load_chunk", e.argument, e.message);
  std::string msg;
  const detail::ChunkLoad one{pos, false, 0, values};
  const Status st = detail::guarded(msg, [&] {
    detail::BudgetCharge charge;
    const Status room =
        detail::check_chunk_load(*state_, std::span(&one, 1), "load_chunk", msg, charge);
    if (room != Status::Ok) return room;
    const Status s = state_->space.load_chunk(pos, values);
    if (s == Status::Ok) detail::commit_charge(*state_, std::move(charge));
    return s;
  });
  return st == Status::OutOfMemory ? fail(st, "load_chunk", "values", msg) : st;
}
Status World::load_chunks(std::span<const ChunkPos> positions,
                          std::span<const std::uint16_t> values) {
  const Refusal e = check_chunks(state_->space, positions, values.data(), values.size(),
                                         block_count(), true, false);
  if (e.status != Status::Ok) return fail(e.status, "load_chunks", e.argument, e.message);
  // One all-or-nothing batch (Space::load_chunks), also when memory runs out: refused up front
  // when the heap cannot hold it (memory_need.h), and caught if an allocation still fails.
  std::string msg;
  const Status st = detail::guarded(msg, [&] {
    std::vector<detail::ChunkLoad> batch(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
      batch[i] = detail::ChunkLoad{positions[i], false, 0,
                                   values.subspan(i * kChunkValues, kChunkValues)};
    detail::BudgetCharge charge;
    if (const Status room = detail::check_chunk_load(*state_, batch, "load_chunks", msg, charge);
        room != Status::Ok)
      return room;
    const Status s = state_->space.load_chunks(batch);
    if (s == Status::Ok) detail::commit_charge(*state_, std::move(charge));
    return s;
  });
  if (st != Status::Ok)  // OutOfMemory; others not reached: every chunk was checked
    return fail(st, "load_chunks", "positions",
                st == Status::OutOfMemory ? msg : std::string("the chunks could not be loaded"));
  return Status::Ok;
}
Status World::unload_chunk(ChunkPos pos) {
  const Refusal e = check_chunks(state_->space, std::span<const ChunkPos>(&pos, 1),
                                         nullptr, 0, 0, false, true);
  if (e.status != Status::Ok) return fail(e.status, "unload_chunk", e.argument, e.message);
  detail::uncharge_unloaded(*state_, pos);
  return state_->space.unload_chunk(pos);
}
Status World::unload_chunks(std::span<const ChunkPos> positions) {
  const Refusal e = check_chunks(state_->space, positions, nullptr, 0, 0, false, false);
  if (e.status != Status::Ok) return fail(e.status, "unload_chunks", e.argument, e.message);
  for (const ChunkPos& p : positions) {  // each checked loaded
    detail::uncharge_unloaded(*state_, p);
    (void)state_->space.unload_chunk(p);
  }
  return Status::Ok;
}
Status World::set_block(CellPos cell, std::uint16_t value) {
  const BlockEdit e{cell, cell, value, true};
  return edit_blocks("set_block", std::span<const BlockEdit>(&e, 1), "");
}
namespace {
// "" for a box within kMaxBoxChunks chunks, else "<box> touches 1048577 x 1 x 1 chunks, more
// than 65536 (LIMITS.maxBoxChunks)".
std::string box_chunks_error(const std::string& box, CellPos mn, CellPos mx) {
  if (detail::box_chunk_count(mn, mx) <= static_cast<std::uint64_t>(kMaxBoxChunks)) return {};
  const ChunkPos a = detail::chunk_of(mn), b = detail::chunk_of(mx);
  return box + " touches " + std::to_string(std::int64_t{b.x} - a.x + 1) + " x " +
         std::to_string(std::int64_t{b.y} - a.y + 1) + " x " + std::to_string(std::int64_t{b.z} - a.z + 1) +
         " chunks, more than " + std::to_string(kMaxBoxChunks) + " (kMaxBoxChunks)";
}
}  // namespace

Status World::set_box(CellPos min, CellPos max, std::uint16_t value) {
  const BlockEdit e{min, max, value, false};
  return edit_blocks("set_box", std::span<const BlockEdit>(&e, 1), "");
}
Status World::set_blocks(std::span<const BlockEdit> edits, std::string_view list) {
  return edit_blocks("set_blocks", edits, list);
}
namespace {
// The charge of `edits` (each checked) on the World's budget: a block array for every chunk of
// one value they touch, and the rebuild at the next update of every chunk they touch and of its
// open neighbours, unless already charged (memory_need.h edit_charge).
detail::BudgetCharge edit_room(const detail::WorldState& ws, std::span<const BlockEdit> edits,
                               std::size_t& chunks) {
  std::vector<std::uint64_t> keys;
  std::vector<ChunkPos> touched;
  for (const BlockEdit& e : edits) {
    const ChunkPos c0 = detail::chunk_of(e.min), c1 = detail::chunk_of(e.max);
    for (std::int32_t cy = c0.y; cy <= c1.y; ++cy)
      for (std::int32_t cz = c0.z; cz <= c1.z; ++cz)
        for (std::int32_t cx = c0.x; cx <= c1.x; ++cx) {
          const ChunkPos p{cx, cy, cz};
          keys.push_back(detail::chunk_key(p));
          touched.push_back(p);
        }
  }
  std::vector<std::size_t> order(touched.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<ChunkPos> unique;
  for (std::size_t i = 0; i < order.size(); ++i)
    if (i == 0 || keys[order[i]] != keys[order[i - 1]]) unique.push_back(touched[order[i]]);
  chunks = unique.size();
  return detail::edit_charge(ws, unique);
}
}  // namespace

// The one rule of every edit (set_block, set_box, set_blocks): all entries checked, then applied.
Status World::edit_blocks(const char* fn, std::span<const BlockEdit> edits, std::string_view list) {
  if (edits.size() > std::size_t{1} << 24)
    return fail(Status::InvalidArgument, fn, std::string(list).c_str(),
                std::string(list) + " has " + std::to_string(edits.size()) + " entries, more than 16777216");
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const BlockEdit& e = edits[i];
    const std::string at = list.empty() ? std::string() : std::string(list) + "[" + std::to_string(i) + "].";
    const std::string lo = at + (e.cell ? "cell" : "min"), hi = at + (e.cell ? "cell" : "max");
    const auto refuse = [&](Status st, const std::string& arg, std::string msg) {
      return fail(st, fn, arg.c_str(), std::move(msg));
    };
    if (std::string m = cell_range_error(lo, e.min); !m.empty()) return refuse(Status::OutOfRange, lo, m);
    if (std::string m = cell_range_error(hi, e.max); !m.empty()) return refuse(Status::OutOfRange, hi, m);
    if (e.min.x > e.max.x || e.min.y > e.max.y || e.min.z > e.max.z)
      return refuse(Status::InvalidArgument, hi,
                    lo + " " + cell_text(e.min) + " is above " + hi + " " + cell_text(e.max) + " on some axis");
    // The extents are below 2^26 x 2^12 x 2^26 cells: their product is below 2^64.
    const std::uint64_t cells = std::uint64_t(std::int64_t{e.max.x} - e.min.x + 1) *
                                std::uint64_t(std::int64_t{e.max.y} - e.min.y + 1) *
                                std::uint64_t(std::int64_t{e.max.z} - e.min.z + 1);
    const std::string box = "the box " + lo + " .. " + hi;
    if (cells > static_cast<std::uint64_t>(kMaxBoxCells))
      return refuse(Status::InvalidArgument, hi,
                    box + " has " + std::to_string(cells) + " cells, more than " + std::to_string(kMaxBoxCells));
    if (std::string m = box_chunks_error(box, e.min, e.max); !m.empty())
      return refuse(Status::OutOfRange, hi, std::move(m));
    if (e.value < 0 || static_cast<std::uint64_t>(e.value) >= block_count())
      return refuse(Status::OutOfRange, at + "value",
                    at + "value " + std::to_string(e.value) + " is not in the block registry (values 0 .. " +
                        std::to_string(block_count() - 1) + ")");
    const ChunkPos c0 = detail::chunk_of(e.min), c1 = detail::chunk_of(e.max);
    for (std::int32_t cy = c0.y; cy <= c1.y; ++cy)
      for (std::int32_t cz = c0.z; cz <= c1.z; ++cz)
        for (std::int32_t cx = c0.x; cx <= c1.x; ++cx)
          if (!state_->space.is_loaded(ChunkPos{cx, cy, cz}))
            return refuse(Status::NotLoaded, lo,
                          e.cell ? cell_not_loaded(lo, e.min)
                                 : box + " covers chunk " + chunk_text(ChunkPos{cx, cy, cz}) +
                                       ", which is not loaded");
  }
  std::string msg;  // a uniform chunk gets its array when first edited: an allocation
  const Status st = detail::guarded(msg, [&] {
    std::size_t chunks = 0;
    detail::BudgetCharge charge = edit_room(*state_, edits, chunks);
    if (const Status room = detail::check_charge(
            *state_, charge, "the edits of " + std::to_string(chunks) + " chunks", msg);
        room != Status::Ok)
      return room;
    detail::commit_charge(*state_, std::move(charge));  // every entry below was checked
    for (const BlockEdit& e : edits) {
      const auto v = static_cast<std::uint16_t>(e.value);
      const Status s = e.min == e.max ? state_->space.set_block(e.min, v) : state_->space.set_box(e.min, e.max, v);
      if (s != Status::Ok) return s;  // not expected: every entry was checked
    }
    return Status::Ok;
  });
  return st == Status::Ok ? st : fail(st, fn, "", st == Status::OutOfMemory ? msg : "an edit checked above was refused");
}
Status World::get_block(CellPos cell, std::uint16_t* value) const {
  if (!value) return fail(Status::InvalidArgument, "get_block", "value", "value is null");
  if (std::string e = cell_range_error("cell", cell); !e.empty())
    return fail(Status::OutOfRange, "get_block", "cell", e);
  if (!state_->space.is_cell_loaded(cell))
    return fail(Status::NotLoaded, "get_block", "cell", cell_not_loaded("cell", cell));
  *value = state_->space.block(cell);
  return Status::Ok;
}

Status World::add_profile(const Profile& profile, ProfileId* id, std::string* error) {
  std::string msg;
  const Status st = add_profile_checked(profile, id, &msg);
  if (st == Status::Ok) {
    if (error) error->clear();
    return st;
  }
  return fail(st, "add_profile", "profile", msg.empty() ? "the profile was refused" : msg, error);
}

Status World::add_profile_checked(const Profile& profile, ProfileId* id, std::string* error) {
  if (!id) return Status::InvalidArgument;
  const Status st = validate_profile(profile, error);
  if (st != Status::Ok) return st;
  const MovementClass cls = profile.movement_class;
  for (const Profile& p : state_->profiles)
    if (p.id == profile.id) {
      if (error) *error = "profile \"" + profile.id + "\": field \"id\": already added";
      return Status::InvalidArgument;
    }
  if (cls == MovementClass::Flyer) {
    // validate_profile checked the class envelope and can_fly. Surface malus names are still
    // checked below against the registry; flight has no surface costs, so they change nothing.
    const detail::BlockRegistry& reg = state_->registry;
    const Status sb = check_surface_blocks(
        profile,
        [&reg](std::string_view name) { return reg.has(detail::canonical_block_name(name)); }, error);
    if (sb != Status::Ok) return sb;
    if (!state_->flyer) {
      // The flyer layer of every loaded chunk is built here, at once (two 64-bit masks per brick).
      detail::BudgetCharge charge;
      charge.now = detail::times_bytes(state_->space.chunk_count(), sizeof(detail::flight::FlyerStore::ChunkBricks) + 64);
      std::string msg;
      if (detail::check_charge(*state_, charge,
                               "the flyer navigation of " + std::to_string(state_->space.chunk_count()) + " chunks",
                               msg) != Status::Ok) {
        if (error) *error = msg;
        return Status::OutOfMemory;
      }
      state_->flyer = std::make_unique<detail::flight::FlyerNav>(state_->space);
      state_->agents.set_flyer(state_->flyer.get());
      // From now on the flyer layer reads the change log too: World::update trims it.
      for (detail::NavWorld* n : state_->navs()) n->set_trims_log(false);
    }
    state_->profiles.push_back(profile);
    state_->profile_motion.push_back(state_->agents.add_motion(detail::compile_profile(profile)));
    state_->profile_masks.emplace_back();
    *id = ProfileId{static_cast<std::uint32_t>(state_->profiles.size() - 1), state_->id_tag};
    return Status::Ok;
  }
  // Surface malus names must name blocks of this world's registry.
  const detail::BlockRegistry& reg = state_->registry;
  const Status sb = check_surface_blocks(
      profile,
      [&reg](std::string_view name) { return reg.has(detail::canonical_block_name(name)); }, error);
  if (sb != Status::Ok) return sb;
  // The first profile of a class builds that class's navigation from the chunks loaded so far;
  // from then on several navigations read the change log and World::update trims it.
  bool built_nav = false;
  if (!state_->nav_of(cls)) {
    // The class's navigation of every loaded chunk is built here, at once: checked first.
    const detail::BudgetCharge charge = detail::class_charge(*state_);
    std::string msg;
    if (detail::check_charge(*state_, charge,
                             "the " + std::string(movement_class_name(cls)) +
                                 " navigation of " + std::to_string(state_->space.chunk_count()) +
                                 " chunks",
                             msg) != Status::Ok) {
      if (error) *error = msg;
      return Status::OutOfMemory;
    }
    auto nav = std::make_unique<detail::NavWorld>(state_->space, detail::class_envelope(cls),
                                                  state_->executor, state_->lockstep_delay);
    nav->set_streaming(state_->streaming);
    nav->set_build_radius(state_->build_radius);
    nav->set_search_budget(state_->search_budget);
    nav->build_from_space();
    nav->set_surface_groups(state_->groups.group_of_value);
    for (detail::NavWorld* n : state_->navs()) n->set_trims_log(false);
    nav->set_trims_log(false);
    nav->set_waits(false);  // the walker's update waits for the shared executor's jobs
    *state_->slot_owner(class_slot(cls)) = std::move(nav);
    built_nav = true;
  }
  state_->profiles.push_back(profile);
  state_->profile_motion.push_back(state_->agents.add_motion(detail::compile_profile(profile)));
  // Its surface malus entries become masks of block values; the surfaces are regrouped.
  std::vector<std::pair<std::uint32_t, std::int32_t>> pm;
  const std::size_t masks_before = state_->masks.size();
  for (const detail::CompiledProfile::Surface& sf :
       detail::compile_profile_costs(profile).surfaces) {
    state_->masks.push_back(detail::values_named(state_->registry, sf.blocks));
    pm.push_back({static_cast<std::uint32_t>(state_->masks.size() - 1), sf.cost});
  }
  const bool regroup = !pm.empty();
  state_->profile_masks.push_back(std::move(pm));
  if (!regroup) {  // the groups stay: only this profile's costs over them
    const auto idx = static_cast<std::uint32_t>(state_->profiles.size() - 1);
    detail::AgentMotion& m = state_->agents.motion_mut(state_->profile_motion[idx]);
    m.costs.surface =
        detail::filtered_surface_costs(*state_, idx, 0, nullptr, &m.costs.surface_min);
    *id = ProfileId{idx, state_->id_tag};
    return Status::Ok;
  }
  const Status rs = detail::rebuild_surfaces(*state_);
  if (rs != Status::Ok) {  // too many surface groups: take the profile back out
    state_->masks.resize(masks_before);
    state_->profile_masks.pop_back();
    state_->profiles.pop_back();
    state_->profile_motion.pop_back();
    if (built_nav) state_->slot_owner(class_slot(cls))->reset();
    if (error)
      *error =
          "profile \"" + profile.id + "\": field \"surface_malus\": more than 255 surface groups";
    return rs;
  }
  *id = ProfileId{static_cast<std::uint32_t>(state_->profiles.size() - 1), state_->id_tag};
  return Status::Ok;
}

Status World::define_area(std::string_view name, std::span<const std::string> blocks, double cost,
                          AreaId* out, std::string* error) {
  const auto refuse = [&](Status st, const char* arg, const std::string& what) {
    return fail(st, "define_area", arg, "area \"" + std::string(name) + "\": " + what, error);
  };
  if (!out) return refuse(Status::InvalidArgument, "out", "out is null");
  if (name.empty() || name.size() > kMaxAreaNameBytes)
    return refuse(Status::InvalidArgument, "name",
                  "the name must have 1 to " + std::to_string(kMaxAreaNameBytes) +
                      " bytes (it has " + std::to_string(name.size()) + ")");
  for (const detail::WorldState::Area& a : state_->areas)
    if (a.name == name) return refuse(Status::InvalidArgument, "name", "already defined");
  if (state_->areas.size() >= kMaxAreas)
    return refuse(Status::InvalidArgument, "name",
                  "this world already has " + std::to_string(kMaxAreas) + " areas (the most)");
  if (blocks.empty()) return refuse(Status::InvalidArgument, "blocks", "blocks is empty");
  if (!std::isfinite(cost) || cost < kMinAreaCost || cost > kMaxAreaCost)
    return refuse(Status::InvalidArgument, "cost",
                  "cost " + num(cost) + " is not a number of cells in " + num(kMinAreaCost) +
                      " .. " + num(kMaxAreaCost));
  std::vector<std::string> names;
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const std::string n(detail::canonical_block_name(blocks[k]));
    if (blocks[k].empty())
      return refuse(Status::InvalidArgument, "blocks",
                    "blocks[" + std::to_string(k) + "] is not a block name (a non-empty string)");
    if (n.empty() || !state_->registry.has(n))
      return refuse(Status::InvalidArgument, "blocks",
                    "blocks[" + std::to_string(k) + "]: unknown block name \"" + blocks[k] + "\"");
    names.push_back(n);
  }
  detail::WorldState::Area area;
  area.name = std::string(name);
  area.cost =
      static_cast<std::int32_t>(std::llround(cost * static_cast<double>(detail::kCostStraight)));
  area.mask = static_cast<std::uint32_t>(state_->masks.size());
  state_->masks.push_back(detail::values_named(state_->registry, names));
  state_->areas.push_back(area);
  const Status rs = detail::rebuild_surfaces(*state_);
  if (rs != Status::Ok) {
    state_->areas.pop_back();
    state_->masks.pop_back();
    return refuse(rs, "blocks", "more than 255 surface groups");
  }
  out->index = static_cast<std::uint32_t>(state_->areas.size() - 1);
  if (error) error->clear();
  return Status::Ok;
}

Status World::find_area(std::string_view name, AreaId* out) const {
  if (!out) return fail(Status::InvalidArgument, "find_area", "out", "out is null");
  for (std::size_t a = 0; a < state_->areas.size(); ++a)
    if (state_->areas[a].name == name) {
      out->index = static_cast<std::uint32_t>(a);
      return Status::Ok;
    }
  return fail(Status::NotFound, "find_area", "name",
              "no area \"" + std::string(name) + "\" in this world (define it first)");
}

Status World::find_profile(std::string_view id, ProfileId* out) const {
  if (!out) return fail(Status::InvalidArgument, "find_profile", "out", "out is null");
  for (std::size_t i = 0; i < state_->profiles.size(); ++i)
    if (state_->profiles[i].id == id) {
      *out = ProfileId{static_cast<std::uint32_t>(i), state_->id_tag};
      return Status::Ok;
    }
  return fail(Status::NotFound, "find_profile", "id", "no profile \"" + std::string(id) + "\" in this world");
}

void World::update() {
  std::uint64_t processed = UINT64_MAX;
  const std::vector<detail::NavWorld*> navs = state_->navs();
  // Streaming with a build radius: the chunks of the live agents' feet pull builds around them.
  std::vector<ChunkPos> agent_chunks;
  if (state_->streaming && state_->build_radius > 0) {
    const detail::AgentSystem& agents = state_->agents;
    for (std::size_t i = 0; i < agents.capacity(); ++i) {
      const detail::AgentRecord& a = agents.at(i);
      if (!a.alive) continue;
      const Vec3& p = a.body.feet;
      agent_chunks.push_back(
          detail::chunk_of(CellPos{static_cast<std::int32_t>(std::floor(p.x)),
                                        static_cast<std::int32_t>(std::floor(p.y + 1e-3)),
                                        static_cast<std::int32_t>(std::floor(p.z))}));
    }
  }
  state_->claim_changes();
  // Flow fields see the changes this update processes (voxnav/crowds.h).
  std::vector<detail::Change> flow_changes;
  const bool flows = state_->flows.capacity() != 0;
  if (flows) {
    std::uint64_t from = UINT64_MAX;
    for (detail::NavWorld* n : navs) from = std::min(from, n->processed_serial());
    if (state_->flyer) from = std::min(from, state_->flyer->processed_serial());
    state_->space.changes_since(from, flow_changes);
  }
  for (detail::NavWorld* n : navs) {
    n->set_agent_chunks(agent_chunks);
    n->update();
    processed = std::min(processed, n->processed_serial());
  }
  if (state_->flyer) {
    state_->flyer->update();
    processed = std::min(processed, state_->flyer->processed_serial());
  }
  if (navs.size() > 1 || state_->flyer) state_->space.trim_changes(processed);
  if (flows) detail::update_flows(*state_, flow_changes);
  detail::reset_budget(*state_);  // what is still pending (streamed builds) stays charged
}
bool World::chunk_streaming() const noexcept { return state_->streaming; }

void World::set_chunk_streaming(bool on) noexcept {
  state_->streaming = on;
  for (detail::NavWorld* n : state_->navs()) n->set_streaming(on);
}
std::size_t World::pending_chunk_builds() const noexcept {
  std::size_t n = 0;
  for (detail::NavWorld* nav : state_->navs()) n += nav->pending_builds();
  return n;
}
Status World::set_chunk_build_radius(int chunks) {
  if (chunks < 0 || chunks > kMaxChunkBuildRadius)
    return fail(Status::InvalidArgument, "set_chunk_build_radius", "chunks",
                "chunks " + std::to_string(chunks) + " is not an integer number of chunks in 0 .. " +
                    std::to_string(kMaxChunkBuildRadius));
  state_->build_radius = chunks;
  for (detail::NavWorld* n : state_->navs()) n->set_build_radius(chunks);
  return Status::Ok;
}
int World::chunk_build_radius() const noexcept { return state_->build_radius; }
Status World::set_searches_per_update(int searches) {
  if (searches < 0 || searches > kMaxSearchesPerUpdate)
    return fail(Status::InvalidArgument, "set_searches_per_update", "searches",
                "searches " + std::to_string(searches) + " is not an integer number of searches in 0 .. " +
                    std::to_string(kMaxSearchesPerUpdate));
  state_->search_budget = searches;
  for (detail::NavWorld* n : state_->navs()) n->set_search_budget(searches);
  return Status::Ok;
}
int World::searches_per_update() const noexcept { return state_->search_budget; }
std::size_t World::queued_requests() const noexcept {
  std::size_t n = 0;
  for (detail::NavWorld* nav : state_->navs()) n += nav->queued_requests();
  if (state_->flyer) n += state_->flyer->queued();
  return n;
}
std::size_t World::deferred_chunk_builds() const noexcept {
  std::size_t n = 0;
  for (detail::NavWorld* nav : state_->navs()) n += nav->deferred_builds();
  return n;
}
std::uint64_t World::nav_epoch() const {
  // One epoch for every class: the sum of the classes' epochs moves whenever one of them does.
  return state_->epoch_sum();
}

Reach World::reachable(ProfileId profile, CellPos from, CellPos goal) const {
  Reach r;
  r.epoch = nav_epoch();
  if (!state_->has_profile(profile)) {
    r.reason = ReachReason::BadProfile;
    return r;
  }
  if (state_->is_flyer(profile)) {
    const detail::WorldState& ws = *state_;
    r = ws.flyer->reachable(from, goal);
    r.epoch = nav_epoch();
    return r;
  }
  const detail::CostTable& costs =
      state_->agents.motion(state_->profile_motion[profile.index]).costs;
  detail::NavWorld* nav = nav_of_profile(*state_, profile);
  const Reach d = nav->reachable(detail::feet_cell(nav->grid(), from),
                                 detail::feet_cell(nav->grid(), goal), 0, costs.gates(),
                                 costs.restricts_class);
  r.answer = static_cast<ReachAnswer>(d.answer);
  r.reason = static_cast<ReachReason>(d.reason);
  r.epoch = nav_epoch();  // on nav_epoch()'s scale, whatever the class
  return r;
}

Status World::reachable(ProfileId profile, CellPos from, CellPos goal, Reach* out) const {
  if (!out) return fail(Status::InvalidArgument, "reachable", "out", "out is null");
  if (!state_->has_profile(profile))
    return fail(Status::InvalidArgument, "reachable", "profile", profile_error(profile, state_->profiles.size()));
  if (std::string e = cell_range_error("from", from); !e.empty())
    return fail(Status::OutOfRange, "reachable", "from", e);
  if (std::string e = cell_range_error("goal", goal); !e.empty())
    return fail(Status::OutOfRange, "reachable", "goal", e);
  *out = reachable(profile, from, goal);
  return Status::Ok;
}

Status World::is_standable(ProfileId profile, CellPos cell, bool* out) const {
  if (!out) return fail(Status::InvalidArgument, "is_standable", "out", "out is null");
  if (!state_->has_profile(profile))
    return fail(Status::InvalidArgument, "is_standable", "profile", profile_error(profile, state_->profiles.size()));
  if (std::string e = cell_range_error("cell", cell); !e.empty())
    return fail(Status::OutOfRange, "is_standable", "cell", e);
  *out = is_standable(profile, cell);
  return Status::Ok;
}

Status World::island_of(ProfileId profile, CellPos cell, std::uint32_t* island,
                        std::uint32_t* size) const {
  const char* fn = "island_of";
  if (!island) return fail(Status::InvalidArgument, fn, "island", "island is null");
  if (!state_->has_profile(profile))
    return fail(Status::InvalidArgument, fn, "profile", profile_error(profile, state_->profiles.size()));
  if (std::string e = cell_range_error("cell", cell); !e.empty()) return fail(Status::OutOfRange, fn, "cell", e);
  if (state_->is_flyer(profile))
    return fail(Status::Unsupported, fn, "profile", flyer_query_error(*state_, profile, "flight has no islands yet"));
  detail::NavWorld& nav = *nav_of_profile(*state_, profile);
  *island = nav.islands().component(nav.grid(), cell);
  if (size) *size = nav.islands().size_of(*island);
  return Status::Ok;
}

Status World::island_cells(ProfileId profile, IslandCell* out, std::size_t capacity,
                           std::size_t* count) const {
  const char* fn = "island_cells";
  if (Status st = check_buffer(fn, out, capacity, count); st != Status::Ok) return st;
  if (!state_->has_profile(profile))
    return fail(Status::InvalidArgument, fn, "profile", profile_error(profile, state_->profiles.size()));
  if (state_->is_flyer(profile))
    return fail(Status::Unsupported, fn, "profile", flyer_query_error(*state_, profile, "flight has no islands yet"));
  detail::NavWorld& nav = *nav_of_profile(*state_, profile);
  std::size_t n = 0;
  for (const detail::NavChunk* ch : nav.grid().ordered_chunks()) {
    if (ch->uniform || !ch->scc) continue;
    for (int i = 0; i < detail::kChunkCells; ++i) {
      // Standable cells only, as is_standable answers: door, ladder and damage cells (lava,
      // fire) are nodes on gate islands of their own, never a place to stand or spawn.
      if (!detail::kind_standable(ch->kind_at(i))) continue;
      const std::uint32_t isl = nav.islands().component_at(ch, i);
      if (!isl) continue;
      if (n < capacity) out[n] = IslandCell{detail::cell_of(ch, i), isl, nav.islands().size_of(isl)};
      ++n;
    }
  }
  *count = n;
  return Status::Ok;
}

bool World::is_standable(ProfileId profile, CellPos cell) const {
  if (!state_->has_profile(profile) || !detail::cell_in_range(cell))
    return false;
  if (state_->is_flyer(profile)) return state_->flyer->store().free(cell);  // a flyer can be there
  return nav_of_profile(*state_, profile)->grid().standable(cell);
}

Status World::standing_height(ProfileId profile, CellPos cell, double* feet_y) const {
  const char* fn = "standing_height";
  if (!feet_y) return fail(Status::InvalidArgument, fn, "feet_y", "feet_y is null");
  if (!state_->has_profile(profile))
    return fail(Status::InvalidArgument, fn, "profile", profile_error(profile, state_->profiles.size()));
  if (std::string e = cell_range_error("cell", cell); !e.empty()) return fail(Status::OutOfRange, fn, "cell", e);
  if (state_->is_flyer(profile)) {  // feet on the cell's bottom
    if (!state_->space.is_cell_loaded(cell)) return fail(Status::NotLoaded, fn, "cell", cell_not_loaded("cell", cell));
    if (!state_->flyer->store().free(cell)) return Status::NotFound;
    *feet_y = cell.y;
    return Status::Ok;
  }
  const detail::NavGrid& g = nav_of_profile(*state_, profile)->grid();
  if (!g.chunk(detail::chunk_of(cell)))
    return fail(Status::NotLoaded, fn, "cell", cell_not_loaded("cell", cell));
  if (!g.standable(cell)) return Status::NotFound;
  *feet_y = cell.y + static_cast<double>(g.floor_q(cell)) / detail::kHeightUnits;
  return Status::Ok;
}

Status World::nearest_standable(ProfileId profile, CellPos near, int radius, CellPos* out) const {
  const char* fn = "nearest_standable";
  if (!out) return fail(Status::InvalidArgument, fn, "out", "out is null");
  if (!state_->has_profile(profile))
    return fail(Status::InvalidArgument, fn, "profile", profile_error(profile, state_->profiles.size()));
  if (std::string e = cell_range_error("near", near); !e.empty()) return fail(Status::OutOfRange, fn, "near", e);
  if (radius < 0 || radius > kMaxNearestRadius)
    return fail(Status::InvalidArgument, fn, "radius",
                "radius " + std::to_string(radius) + " is not an integer in 0 .. " + std::to_string(kMaxNearestRadius));
  const bool flyer = state_->is_flyer(profile);
  const detail::NavGrid& g = flyer ? state_->walker()->grid() : nav_of_profile(*state_, profile)->grid();
  for (int r = 0; r <= radius; ++r) {  // shells of growing Chebyshev radius
    for (int dy = -r; dy <= r; ++dy)
      for (int dz = -r; dz <= r; ++dz)
        for (int dx = -r; dx <= r; ++dx) {
          if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
          const CellPos c{near.x + dx, near.y + dy, near.z + dz};
          if (detail::cell_in_range(c) && (flyer ? state_->flyer->store().free(c) : g.standable(c))) {
            *out = c;
            return Status::Ok;
          }
        }
  }
  return Status::NotFound;
}

namespace {
// Checks a request's arguments (as World::request does) and compiles it for the engine.
Refusal request_spec(const detail::WorldState& ws, const NavRequest& req,
                     detail::RequestSpec& spec) {
  if (!ws.has_profile(req.profile))
    return {Status::InvalidArgument, "profile", profile_error(req.profile, ws.profiles.size())};
  if (std::string e = cell_range_error("start", req.start); !e.empty()) return {Status::OutOfRange, "start", e};
  if (std::string e = cell_range_error("goal", req.goal); !e.empty()) return {Status::OutOfRange, "goal", e};
  if (req.goal_range < 0 || req.goal_range > kMaxGoalRange)
    return {Status::InvalidArgument, "goal_range",
            "range " + std::to_string(req.goal_range) + " is not an integer in 0 .. " + std::to_string(kMaxGoalRange)};
  const detail::AgentMotion& m = ws.agents.motion(ws.profile_motion[req.profile.index]);
  // (a cell just above a high floor names the floor's cell: detail::feet_cell)
  if (ws.is_flyer(req.profile)) {  // a flyer's cells are its feet cells as given
    spec.start = req.start;
    spec.goal = req.goal;
  } else {
    const detail::NavGrid& grid = ws.nav_of(ws.profiles[req.profile.index].movement_class)->grid();
    spec.start = detail::feet_cell(grid, req.start);
    spec.goal = detail::feet_cell(grid, req.goal);
  }
  spec.goal_range = req.goal_range;
  spec.toward = req.toward;
  spec.costs = m.costs;
  spec.max_nodes = m.max_nodes;
  spec.max_distance = m.max_distance;
  const std::size_t n = ws.areas.size();
  if (n < kMaxAreas && (req.filter.excluded >> n) != 0) {
    std::size_t bit = n;
    while (!((req.filter.excluded >> bit) & 1u)) ++bit;
    return {Status::InvalidArgument, "filter",
            "filter: excluded has bit " + std::to_string(bit) + " set, but this world has " +
                std::to_string(n) + (n == 1 ? " area" : " areas")};
  }
  spec.motion = ws.profile_motion[req.profile.index];
  if (!req.filter.is_default()) {
    spec.excluded = req.filter.excluded;
    spec.multiplier = std::make_shared<const std::array<double, 32>>(req.filter.multiplier);
    for (std::size_t a = 0; a < kMaxAreas; ++a) {
      const double k = req.filter.multiplier[a];
      if (!std::isfinite(k) || k < 0 || k > kMaxAreaMultiplier)
        return {Status::InvalidArgument, "filter",
                "filter: " + (a < n ? "area \"" + ws.areas[a].name + "\"" : "multiplier[" + std::to_string(a) + "]") +
                    ": multiplier " + num(k) + " is not a number in 0 .. " + num(kMaxAreaMultiplier)};
      if (a >= n && k != 1.0)
        return {Status::InvalidArgument, "filter",
                "filter: multiplier[" + std::to_string(a) + "] is set, but this world has " +
                    std::to_string(n) + (n == 1 ? " area" : " areas")};
    }
    spec.costs.surface =
        detail::filtered_surface_costs(ws, req.profile.index, req.filter.excluded,
                                       req.filter.multiplier.data(), &spec.costs.surface_min);
  }
  return {};
}
}  // namespace

Status World::request(const NavRequest& req, PathHandle* out) {
  const char* fn = req.toward ? "request_toward" : "request";
  if (!out) return fail(Status::InvalidArgument, fn, "out", "out is null");
  detail::RequestSpec spec;
  const Refusal e = request_spec(*state_, req, spec);
  if (e.status != Status::Ok) return fail(e.status, fn, e.argument, e.message);
  const MovementClass cls = state_->profiles[req.profile.index].movement_class;
  if (cls == MovementClass::Flyer) {
    if (req.toward)
      return fail(Status::Unsupported, fn, "toward", "flyers have no partial routes yet (request_toward)");
    detail::BudgetCharge charge;
    charge.now = detail::add_bytes(detail::request_slot_bytes(),
                                   detail::times_bytes(state_->flyer->held() + 1, detail::kRequestIndexBytes));
    if (std::string msg; detail::check_charge(*state_, charge, "the request tables", msg) != Status::Ok)
      return fail(Status::OutOfMemory, fn, "", msg);
    const PathHandle h = state_->flyer->request(spec);
    if (h.index > kIndexMask) return fail(Status::Busy, fn, "", "2^28 requests are held; release some");
    *out = PathHandle{h.index | (detail::WorldState::kFlyerSlot << kSlotShift),
                      h.generation | (state_->id_tag << kIdTagShift)};
    return Status::Ok;
  }
  {  // the request tables may double: checked with the pending builds (memory_need.h)
    detail::BudgetCharge charge;
    charge.now = detail::add_bytes(
        detail::request_slot_bytes(),
        detail::times_bytes(state_->nav_of(cls)->held_requests() + 1, detail::kRequestIndexBytes));
    if (std::string msg; detail::check_charge(*state_, charge, "the request tables", msg) != Status::Ok)
      return fail(Status::OutOfMemory, fn, "", msg);
  }
  const PathHandle h = state_->nav_of(cls)->request(spec);
  if (h.index > kIndexMask)  // 2^28 requests held at once: not released
    return fail(Status::Busy, fn, "", "2^28 requests are held; release some");
  *out = PathHandle{h.index | (class_slot(cls) << kSlotShift),
                    h.generation | (state_->id_tag << kIdTagShift)};
  return Status::Ok;
}

Status World::find_path_now(const NavRequest& req, PathResult* out) {
  if (!out) return fail(Status::InvalidArgument, "find_path_now", "out", "out is null");
  detail::RequestSpec spec;
  const Refusal e = request_spec(*state_, req, spec);
  if (e.status != Status::Ok) return fail(e.status, "find_path_now", e.argument, e.message);
  if (state_->is_flyer(req.profile)) {
    if (req.toward)
      return fail(Status::Unsupported, "find_path_now", "toward", "flyers have no partial routes yet (request_toward)");
    detail::RequestSlot slot;
    slot.spec = spec;
    state_->flyer->serve(slot);
    PathResult r;
    r.status.state = slot.state == detail::RequestState::Ready ? PathState::Ready : PathState::Failed;
    r.status.failure = slot.fail;
    r.status.cost = slot.result.cost;
    r.status.nodes_expanded = slot.result.expanded;
    if (slot.state == detail::RequestState::Ready) {
      r.waypoints = slot.corridor.points;
      for (std::size_t i = 0; i < slot.result.cells.size(); ++i)
        r.cells.push_back(PathCell{slot.result.cells[i], slot.result.kinds[i]});
      r.status.cell_count = static_cast<std::uint32_t>(r.cells.size());
      r.status.waypoint_count = static_cast<std::uint32_t>(r.waypoints.size());
    }
    *out = std::move(r);
    return Status::Ok;
  }
  detail::NavWorld& nav = *nav_of_profile(*state_, req.profile);
  PathResult r;
  PathStatus& ps = r.status;
  ps.state = PathState::Failed;
  // The screening of a queued request (NavWorld::screen): these fail without a search.
  const Reach reach = nav.reachable(spec.start, spec.goal, spec.goal_range,
                                            spec.costs.gates(), spec.costs.restricts_class);
  const bool unknown = reach.answer == ReachAnswer::Unknown;
  if (reach.answer == ReachAnswer::No && !spec.toward) {
    ps.failure = PathFailure::Unreachable;
  } else if (unknown && reach.reason == ReachReason::NotLoaded) {
    ps.failure = PathFailure::NotLoaded;
  } else if (unknown && reach.reason == ReachReason::StartNotStandable) {
    ps.failure = PathFailure::BadStart;
  } else if (unknown && reach.reason == ReachReason::GoalNotStandable &&
             spec.goal_range == 0 && !spec.toward) {
    ps.failure = PathFailure::BadGoal;
  } else {
    // The search and the outcome rules of NavWorld::update.
    const bool proven = reach.answer == ReachAnswer::Yes;
    detail::SearchResult sr = nav.search_now(spec, proven);
    const detail::SearchOutcome o = sr.outcome;
    ps.cost = sr.cost;
    ps.nodes_expanded = sr.expanded;
    if (o == detail::SearchOutcome::Found ||
        (o == detail::SearchOutcome::Partial && detail::search_bounds(spec, proven).partial)) {
      ps.state = PathState::Ready;
      ps.partial = o == detail::SearchOutcome::Partial;
      detail::string_pull(nav.grid(), sr.cells, sr.kinds, r.waypoints, spec.costs.surface.get());
      r.cells.reserve(sr.cells.size());
      for (std::size_t i = 0; i < sr.cells.size(); ++i)
        r.cells.push_back(PathCell{sr.cells[i], static_cast<EdgeKind>(sr.kinds[i])});
      ps.cell_count = static_cast<std::uint32_t>(r.cells.size());
      ps.waypoint_count = static_cast<std::uint32_t>(r.waypoints.size());
    } else {
      ps.failure = o == detail::SearchOutcome::BadStart ? PathFailure::BadStart
                   : o == detail::SearchOutcome::NoPath ? PathFailure::NoPath
                                                        : PathFailure::BudgetExhausted;
    }
  }
  *out = std::move(r);
  return Status::Ok;
}

Status World::status(PathHandle h, PathStatus* out) const {
  if (!out) return fail(Status::InvalidArgument, "status", "out", "out is null");
  const detail::RequestSlot* s = slot_of(*state_, h);
  if (!s) return stale("status", h);
  PathStatus ps;
  switch (s->state) {
    case detail::RequestState::Queued:
    case detail::RequestState::Searching:
      ps.state = PathState::Searching;
      break;
    case detail::RequestState::Ready:
      ps.state = PathState::Ready;
      break;
    default:
      ps.state = PathState::Failed;
      break;
  }
  ps.failure = static_cast<PathFailure>(s->fail);
  if (s->state == detail::RequestState::Ready || s->state == detail::RequestState::Failed) {
    ps.partial = s->partial;
    ps.cost = s->result.cost;
    ps.nodes_expanded = s->result.expanded;
    if (s->state == detail::RequestState::Ready) {
      ps.cell_count = static_cast<std::uint32_t>(s->result.cells.size());
      ps.waypoint_count = static_cast<std::uint32_t>(s->corridor.points.size());
    }
  }
  *out = ps;
  return Status::Ok;
}

Status World::corridor(PathHandle h, Waypoint* out, std::size_t capacity,
                       std::size_t* count) const {
  if (Status st = check_buffer("corridor", out, capacity, count); st != Status::Ok) return st;
  const detail::RequestSlot* s = slot_of(*state_, h);
  if (!s) return stale("corridor", h);
  if (s->state != detail::RequestState::Ready) return stale("corridor", h, true);
  *count = s->corridor.points.size();
  copy_points(s->corridor.points, out, capacity);
  return Status::Ok;
}

Status World::path_cells(PathHandle h, PathCell* out, std::size_t capacity,
                         std::size_t* count) const {
  if (Status st = check_buffer("path_cells", out, capacity, count); st != Status::Ok) return st;
  const detail::RequestSlot* s = slot_of(*state_, h);
  if (!s) return stale("path_cells", h);
  if (s->state != detail::RequestState::Ready) return stale("path_cells", h, true);
  *count = s->result.cells.size();
  for (std::size_t i = 0; i < s->result.cells.size() && i < capacity; ++i)
    out[i] = PathCell{s->result.cells[i], static_cast<EdgeKind>(s->result.kinds[i])};
  return Status::Ok;
}

Status World::release(PathHandle h) {
  if (h.index >> kSlotShift == detail::WorldState::kFlyerSlot)
    return state_->flyer && state_->flyer->release(engine_handle(*state_, h)) ? Status::Ok : stale("release", h);
  detail::NavWorld* nav = nav_of_slot(*state_, h.index >> kSlotShift);
  return nav && nav->release(engine_handle(*state_, h))
             ? Status::Ok
             : stale("release", h);
}

namespace {
// The body's foot cell (walker_large: the low corner of its 2x2 footprint) is in the cell range.
bool feet_in_range(Vec3 feet, double foot_offset) {
  return std::fabs(feet.x) <= 4e9 && std::fabs(feet.y) <= 4e9 && std::fabs(feet.z) <= 4e9 &&
         detail::cell_in_range(
             detail::foot_cell(Vec3{feet.x, feet.y, feet.z}, foot_offset));
}
std::string feet_range_error(Vec3 feet, const std::string& what = "feet") {
  return what + " " + vec_text(feet) + " is out of range: its cell must have |x|, |z| <= " +
         std::to_string(kMaxCellXZ) + " and |y| <= " + std::to_string(kMaxCellY);
}
// "what" of entry i of a batch: "agents[2].feet", or "feet" alone when `list` is empty.
std::string entry_field(std::string_view list, std::size_t i, const char* what) {
  return list.empty() ? std::string(what)
                      : std::string(list) + "[" + std::to_string(i) + "]." + what;
}
// An agent id as messages show it: its number, or (index, generation) when it has none.
std::string agent_number(AgentId a) {
  double n = 0;
  return id_number(a, &n) ? num(n)
                          : "(index " + std::to_string(a.index) + ", generation " +
                                std::to_string(a.generation) + ")";
}
// A batch's refusal of too many entries ("" when the count is within kMaxAgentBatch).
std::string batch_size_error(std::string_view list, std::size_t n) {
  if (n <= World::kMaxAgentBatch) return std::string();
  return std::string(list) + " has " + std::to_string(n) + " entries, more than " +
         std::to_string(World::kMaxAgentBatch);
}
// The checks of an agent batch entry, in order: a live agent, then its goal or feet (the
// caller's), then given once (`first`: the entry that gave the agent first; i when none did).
Refusal check_live(const detail::AgentSystem& agents, std::string_view list, std::size_t i, AgentId a) {
  if (agents.get(a)) return {};
  return {Status::StaleHandle, "", entry_field(list, i, "agent") + " " + agent_number(a) +
                                       " is not a live agent (removed, or never added to this world)"};
}
Refusal check_once(std::string_view list, std::size_t i, AgentId a, std::size_t first) {
  if (first == i) return {};
  return {Status::InvalidArgument, "", entry_field(list, i, "agent") + " (" + agent_number(a) +
                                           ") repeats " + entry_field(list, first, "agent") +
                                           " (each agent may be given once)"};
}
Refusal check_feet(const detail::AgentSystem& agents, std::uint32_t motion, Vec3 feet,
                   const std::string& name) {
  if (!finite(feet)) return {Status::InvalidArgument, "", name + " " + vec_text(feet) + " is not finite"};
  if (!feet_in_range(feet, agents.motion(motion).foot_offset))
    return {Status::OutOfRange, "", feet_range_error(feet, name)};
  return {};
}
// For each entry, the first entry with the same agent (sorted, not hashed: no order decides).
template <class Entry>
std::vector<std::size_t> first_of_agent(std::span<const Entry> entries) {
  std::vector<std::pair<std::uint64_t, std::size_t>> keys(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i)
    keys[i] = {(std::uint64_t{entries[i].agent.generation} << 32) | entries[i].agent.index, i};
  std::sort(keys.begin(), keys.end());
  std::vector<std::size_t> first(entries.size());
  for (std::size_t k = 0; k < keys.size(); ++k)
    first[keys[k].second] = k > 0 && keys[k - 1].first == keys[k].first ? first[keys[k - 1].second]
                                                                       : keys[k].second;
  return first;
}
// The refusal of an agent batch: the argument it names ("goals[2].goal") and why.
struct BatchRefusal {
  Status status = Status::Ok;
  std::string argument, message;
};
BatchRefusal refused(std::string argument, const Refusal& r) { return {r.status, std::move(argument), r.message}; }
// An agent batch, all or nothing: its size, then check(i) of every entry in order (the first
// refusal is the call's), and only then commit().
template <class Check, class Commit>
BatchRefusal agent_batch(std::string_view list, std::size_t n, Check check, Commit commit) {
  if (std::string e = batch_size_error(list, n); !e.empty())
    return {Status::InvalidArgument, std::string(list), e};
  for (std::size_t i = 0; i < n; ++i)
    if (BatchRefusal r = check(i); r.status != Status::Ok) return r;
  commit();
  return {};
}
}  // namespace

namespace {
// Whether the agents' table can take `n` more: when it grows, each new table is allocated while
// the old one is held (memory_need.h agent_growth_bytes), on top of the pending builds.
Status agent_room(const detail::WorldState& ws, std::size_t n, std::string& msg) {
  const detail::AgentSystem& a = ws.agents;
  detail::BudgetCharge charge;
  charge.now = detail::agent_growth_bytes(a.capacity(), a.free_slots(), a.slot_capacity(), n);
  if (charge.now == 0) return Status::Ok;
  return detail::check_charge(
      ws, charge, "the agents' table growing to " + std::to_string(a.capacity() + n) + " slots", msg);
}
}  // namespace

Status World::add_agent(const AgentDef& def, AgentId* out) {
  const char* fn = "add_agent";
  if (!out) return fail(Status::InvalidArgument, fn, "out", "out is null");
  if (!state_->has_profile(def.profile))
    return fail(Status::InvalidArgument, fn, "profile", profile_error(def.profile, state_->profiles.size()));
  if (!finite(def.feet))
    return fail(Status::InvalidArgument, fn, "feet", "feet " + vec_text(def.feet) + " is not finite");
  const double off = state_->agents.motion(state_->profile_motion[def.profile.index]).foot_offset;
  if (!feet_in_range(def.feet, off))
    return fail(Status::OutOfRange, fn, "feet", feet_range_error(def.feet));
  if (def.goal)
    if (std::string e = cell_range_error("goal", *def.goal); !e.empty())
      return fail(Status::OutOfRange, fn, "goal", e);
  if (std::string msg; agent_room(*state_, 1, msg) != Status::Ok)
    return fail(Status::OutOfMemory, fn, "", msg);
  *out = state_->agents.add(state_->profile_motion[def.profile.index], def.feet);
  if (def.goal) (void)state_->agents.set_goal(*agent_nav(*state_, *out), *out, *def.goal);
  return Status::Ok;
}

Status World::add_agents(std::span<const AgentDef> defs, AgentId* out, std::string_view list) {
  const auto check = [&](std::size_t i) -> BatchRefusal {
    if (!out) return {Status::InvalidArgument, "out", "out is null"};
    const AgentDef& d = defs[i];
    const std::string profile = entry_field(list, i, "profile");
    if (!state_->has_profile(d.profile))
      return {Status::InvalidArgument, profile, profile_error(d.profile, state_->profiles.size(), profile)};
    const std::string feet = entry_field(list, i, "feet");
    const Refusal r = check_feet(state_->agents, state_->profile_motion[d.profile.index], d.feet, feet);
    if (r.status != Status::Ok) return refused(feet, r);
    const std::string goal = entry_field(list, i, "goal");
    if (d.goal)
      if (std::string e = cell_range_error(goal, *d.goal); !e.empty()) return {Status::OutOfRange, goal, e};
    return {};
  };
  // Goals after every add, as a host sending them does.
  const auto commit = [&] {
    for (std::size_t i = 0; i < defs.size(); ++i)
      out[i] = state_->agents.add(state_->profile_motion[defs[i].profile.index], defs[i].feet);
    for (std::size_t i = 0; i < defs.size(); ++i)
      if (defs[i].goal) (void)state_->agents.set_goal(*agent_nav(*state_, out[i]), out[i], *defs[i].goal);
  };
  const auto check_all = [&](std::size_t i) -> BatchRefusal {
    BatchRefusal r = check(i);
    if (r.status == Status::Ok && i + 1 == defs.size())
      if (std::string msg; agent_room(*state_, defs.size(), msg) != Status::Ok)
        return {Status::OutOfMemory, "", msg};
    return r;
  };
  const BatchRefusal r = agent_batch(list, defs.size(), check_all, commit);
  return r.status == Status::Ok ? Status::Ok : fail(r.status, "add_agents", r.argument.c_str(), r.message);
}

Status World::remove_agent(AgentId id) {
  return state_->agents.remove(*agent_nav(*state_, id), AgentId{id.index, id.generation})
             ? Status::Ok
             : stale("remove_agent", id);
}

Status World::set_agent_goal(AgentId id, CellPos goal) {
  if (std::string e = cell_range_error("goal", goal); !e.empty())
    return fail(Status::OutOfRange, "set_agent_goal", "goal", e);
  return state_->agents.set_goal(*agent_nav(*state_, id),
                                 AgentId{id.index, id.generation}, goal)
             ? Status::Ok
             : stale("set_agent_goal", id);
}

Status World::set_agent_goals(std::span<const AgentGoal> goals, std::string_view list) {
  const std::vector<std::size_t> first = first_of_agent(goals);
  const auto check = [&](std::size_t i) -> BatchRefusal {
    const std::string agent = entry_field(list, i, "agent"), goal = entry_field(list, i, "goal");
    if (Refusal r = check_live(state_->agents, list, i, goals[i].agent); r.status != Status::Ok)
      return refused(agent, r);
    if (std::string e = cell_range_error(goal, goals[i].goal); !e.empty()) return {Status::OutOfRange, goal, e};
    return refused(agent, check_once(list, i, goals[i].agent, first[i]));
  };
  const auto commit = [&] {
    for (const AgentGoal& g : goals) (void)state_->agents.set_goal(*agent_nav(*state_, g.agent), g.agent, g.goal);
  };
  const BatchRefusal r = agent_batch(list, goals.size(), check, commit);
  return r.status == Status::Ok ? Status::Ok : fail(r.status, "set_agent_goals", r.argument.c_str(), r.message);
}

Status World::agent_state(AgentId id, AgentState* out) const {
  if (!out) return fail(Status::InvalidArgument, "agent_state", "out", "out is null");
  const detail::AgentRecord* a = state_->agents.get(AgentId{id.index, id.generation});
  if (!a) return stale("agent_state", id);
  AgentState s;
  s.mode = static_cast<AgentMode>(a->mode);
  s.feet = a->body.feet;
  s.velocity = Vec3{a->body.velocity.x, a->body.velocity.y, a->body.velocity.z};
  s.on_ground = a->body.on_ground;
  s.cell = a->last_cell;
  s.corridor_epoch = a->corridor.epoch;
  s.next_waypoint = static_cast<std::uint32_t>(a->next);
  s.arrivals = a->arrivals;
  s.replans = a->replans;
  s.repairs = a->repairs;
  s.requests = a->requests;
  s.failure = static_cast<PathFailure>(a->fail);
  // doors
  s.waiting_at_door = a->door_waiting;
  s.door = a->door_cell;
  s.door_hold_ticks = static_cast<std::uint32_t>(a->door_waiting ? a->door_hold_ticks : 0);
  s.door_events = a->door_events;
  s.door_timeouts = a->door_timeouts;
  s.push_outs = a->push_outs;
  s.yaw = a->control.yaw;
  s.lod = static_cast<std::uint8_t>(a->lod);
  s.crowded = a->mode == AgentMode::Blocked && a->crowded;
  s.crowd_rests = a->crowd_rests_total;
  *out = s;
  return Status::Ok;
}

Status World::agent_reason(AgentId id, std::string* out) const {
  if (!out) return fail(Status::InvalidArgument, "agent_reason", "out", "out is null");
  const detail::AgentRecord* a = state_->agents.get(AgentId{id.index, id.generation});
  if (!a) return stale("agent_reason", id);
  *out = a->reason;
  return Status::Ok;
}

Status World::agent_corridor(AgentId id, Waypoint* out, std::size_t capacity,
                             std::size_t* count) const {
  if (Status st = check_buffer("agent_corridor", out, capacity, count); st != Status::Ok) return st;
  const detail::AgentRecord* a = state_->agents.get(AgentId{id.index, id.generation});
  if (!a) return stale("agent_corridor", id);
  *count = a->corridor.points.size();
  copy_points(a->corridor.points, out, capacity);
  return Status::Ok;
}

Status World::agent_path_cells(AgentId id, PathCell* out, std::size_t capacity,
                               std::size_t* count) const {
  const char* fn = "agent_path_cells";
  if (Status st = check_buffer(fn, out, capacity, count); st != Status::Ok) return st;
  const detail::AgentRecord* a = state_->agents.get(AgentId{id.index, id.generation});
  if (!a) return stale(fn, id);
  const detail::Corridor& c = a->corridor;
  *count = c.cells.size();
  for (std::size_t i = 0; i < c.cells.size() && i < capacity; ++i)
    out[i] = PathCell{c.cells[i], i < c.kinds.size() ? static_cast<EdgeKind>(c.kinds[i]) : EdgeKind::Walk};
  return Status::Ok;
}

Status World::teleport_agent(AgentId id, Vec3 feet) {
  const char* fn = "teleport_agent";
  if (!finite(feet))
    return fail(Status::InvalidArgument, fn, "feet", "feet " + vec_text(feet) + " is not finite");
  const detail::AgentRecord* a = state_->agents.get(AgentId{id.index, id.generation});
  if (!a) return stale(fn, id);
  const double off = state_->agents.motion(a->motion).foot_offset;
  if (!feet_in_range(feet, off)) return fail(Status::OutOfRange, fn, "feet", feet_range_error(feet));
  return state_->agents.teleport(AgentId{id.index, id.generation},
                                 Vec3{feet.x, feet.y, feet.z})
             ? Status::Ok
             : stale(fn, id);
}

Status World::teleport_agents(std::span<const AgentMove> moves, std::string_view list) {
  const std::vector<std::size_t> first = first_of_agent(moves);
  const auto check = [&](std::size_t i) -> BatchRefusal {
    const std::string agent = entry_field(list, i, "agent"), feet = entry_field(list, i, "feet");
    if (Refusal r = check_live(state_->agents, list, i, moves[i].agent); r.status != Status::Ok)
      return refused(agent, r);
    const detail::AgentRecord* a = state_->agents.get(moves[i].agent);
    if (Refusal r = check_feet(state_->agents, a->motion, moves[i].feet, feet); r.status != Status::Ok)
      return refused(feet, r);
    return refused(agent, check_once(list, i, moves[i].agent, first[i]));
  };
  const auto commit = [&] {
    for (const AgentMove& m : moves) {
      (void)state_->agents.teleport(m.agent, m.feet);
      if (m.yaw) (void)state_->agents.set_yaw(m.agent, *m.yaw);
    }
  };
  const BatchRefusal r = agent_batch(list, moves.size(), check, commit);
  return r.status == Status::Ok ? Status::Ok : fail(r.status, "teleport_agents", r.argument.c_str(), r.message);
}

// ---- doors ----

Status World::set_door_open(CellPos cell, bool open) {
  const CellPos c = cell;
  const char* fn = "set_door_open";
  if (std::string e = cell_range_error("cell", c); !e.empty()) return fail(Status::OutOfRange, fn, "cell", e);
  detail::Space& space = state_->space;
  if (!space.is_cell_loaded(c))
    return fail(Status::NotLoaded, fn, "cell", cell_not_loaded("cell", c));
  const detail::BlockRegistry& reg = state_->registry;
  const std::uint16_t v = space.block(c);
  const std::uint32_t tr = reg.traits(v);
  if (!(tr & detail::kTraitDoor))
    return fail(Status::NotFound, fn, "cell", "cell " + cell_text(c) + " holds no door");
  const auto no_state = [&] {
    return fail(Status::Unsupported, fn, "open",
                "the block registry gives the door at " + cell_text(c) + " no " +
                    (open ? "open" : "closed") + " state");
  };
  const bool is_open = (tr & detail::kTraitDoorOpen) != 0;
  if (is_open == open) return Status::Ok;
  // The door: this cell and the run straight above and below of the same door block in the same
  // state (a two-high door's halves are different values of one block).
  const std::string& name = reg.type(v).name;
  auto same_door = [&](CellPos q) {
    if (!detail::cell_in_range(q) || !space.is_cell_loaded(q)) return false;
    const std::uint16_t u = space.block(q);
    const std::uint32_t t = reg.traits(u);
    return (t & detail::kTraitDoor) && ((t & detail::kTraitDoorOpen) != 0) == is_open &&
           reg.type(u).name == name;
  };
  std::vector<CellPos> cells{c};
  for (int dir : {-1, 1})
    for (CellPos q{c.x, c.y + dir, c.z}; same_door(q); q.y += dir) cells.push_back(q);
  // Every half must toggle to a door value of the other state before anything changes.
  std::vector<std::uint16_t> values;
  values.reserve(cells.size());
  for (const CellPos& q : cells) {
    const std::uint16_t nv = reg.type(space.block(q)).open_value;
    if (!reg.valid(nv)) return no_state();
    const std::uint32_t t = reg.traits(nv);
    if (!(t & detail::kTraitDoor) || ((t & detail::kTraitDoorOpen) != 0) != open) return no_state();
    values.push_back(nv);
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Status st = space.set_block(cells[i], values[i]);
    if (st != Status::Ok) return st;  // not reached: every cell was checked loaded and in range
  }
  return Status::Ok;
}

Status World::take_door_events(DoorEvent* out, std::size_t capacity, std::size_t* count) {
  if (!count || (capacity && !out)) return Status::InvalidArgument;
  std::vector<detail::DoorEventRecord> recs(
      std::min(capacity, state_->agents.pending_door_events()));
  const std::size_t n = state_->agents.take_door_events(recs.data(), recs.size());
  for (std::size_t i = 0; i < n; ++i)
    out[i] = DoorEvent{AgentId{recs[i].agent_index, recs[i].agent_generation}, recs[i].door,
                       recs[i].tick};
  *count = n;
  return Status::Ok;
}

std::size_t World::pending_door_events() const { return state_->agents.pending_door_events(); }

std::uint64_t World::nav_tick() const { return state_->walker()->tick(); }

Status World::tick(double dt) {
  if (!(dt > 0.0 && dt <= kMaxTickSeconds))
    return fail(Status::InvalidArgument, "tick", "dt",
                "dt " + num(dt) + " is not in (0, " + num(kMaxTickSeconds) + "] seconds");
  // The navigation builds this update runs were charged by the calls that queued them; if the
  // heap cannot give them now (other Worlds took it meanwhile), the tick is refused before it
  // starts, the World as it was (unload chunks or dispose Worlds, then tick again).
  if (state_->budget_pending_bytes != 0) {
    std::string msg;
    detail::BudgetCharge none;
    if (detail::check_charge(*state_, none, "the navigation builds of this tick", msg) != Status::Ok)
      return fail(Status::OutOfMemory, "tick", "", msg);
  }
  update();
  detail::NavWorld* navs[detail::WorldState::kClassSlots];
  for (std::uint32_t k = 0; k < detail::WorldState::kClassSlots; ++k)
    navs[k] = state_->nav_of_slot(k);
  state_->agents.step(std::span<detail::NavWorld* const>(navs), state_->space, dt);
  return Status::Ok;
}

WorldStats World::stats() const {
  const detail::NavStats& n = state_->walker()->stats();
  WorldStats s;
  s.searches = n.searches;
  s.nodes_expanded = n.nodes_expanded;
  s.maintenance_runs = n.maintenance_runs;
  s.last_maintenance_ms = n.last_maintenance_ms;
  s.standable_cells = state_->walker()->grid().standable_count();
  s.islands = state_->walker()->islands().component_count();
  s.last_edit_check_us = state_->agents.last_edit_check_us();
  return s;
}

std::span<const double> World::search_times_us() const {
  return state_->walker()->stats().search_us.values();
}

}  // namespace voxnav
