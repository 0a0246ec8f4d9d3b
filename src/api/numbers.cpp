// voxnav - host numbers to the API's types (voxnav/numbers.h).
#include "voxnav/numbers.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <tuple>
#include <utility>

namespace voxnav {
namespace {
bool integral(double v) { return std::isfinite(v) && v == std::floor(v); }
bool int32_number(double v) { return integral(v) && v >= INT32_MIN && v <= INT32_MAX; }
// Ok when `ok`, else InvalidArgument "<name> <v> is not <what>".
Status check(bool ok, double v, const std::string& name, const char* what, CallError* error) {
  if (ok) return Status::Ok;
  if (error)
    *error = CallError{Status::InvalidArgument, "", name,
                       name + " " + number_text(v) + " is not " + what};
  return Status::InvalidArgument;
}
}  // namespace

Status from_numbers(const double* xyz, const std::string& name, CellPos* out, CallError* error,
                    const char* what) {
  std::string at = name + " (";
  for (int i = 0; i < 3; ++i) at += number_text(xyz[i]) + (i < 2 ? ", " : ")");
  Status st = Status::Ok;
  if (!integral(xyz[0]) || !integral(xyz[1]) || !integral(xyz[2]))
    st = Status::InvalidArgument, at += std::string(" is not ") + what + " (integers expected)";
  else if (!int32_number(xyz[0]) || !int32_number(xyz[1]) || !int32_number(xyz[2]))
    st = Status::OutOfRange, at += " is out of range";
  else if (out)
    *out = CellPos{std::int32_t(xyz[0]), std::int32_t(xyz[1]), std::int32_t(xyz[2])};
  if (st != Status::Ok && error) *error = CallError{st, "", name, at};
  return st;
}
Status from_number(double v, const std::string& name, int* out, CallError* error) {
  const Status st = check(int32_number(v), v, name, "an integer", error);
  if (st == Status::Ok && out) *out = static_cast<int>(v);
  return st;
}
Status from_number(double v, const std::string& name, std::int64_t* out, CallError* error) {
  const Status st = check(integral(v) && std::fabs(v) <= 9007199254740992.0, v, name,
                          "an integer block value", error);
  if (st == Status::Ok && out) *out = static_cast<std::int64_t>(v);
  return st;
}
namespace {
// Why `v` is no id number of kind `kind` (of the World of tag `tag`, unless 0); "" when it is one.
std::string id_refusal(double v, std::uint32_t tag, IdKind kind) {
  const auto a = [](IdKind k) {
    return std::string(k == IdKind::Agent ? "an " : "a ") + id_kind_name(k);
  };
  const IdKind got = id_number_kind(v);
  ProfileId p;
  if (got == IdKind::None) return "is not " + a(kind);
  if (got != kind) return "is " + a(got) + ", not " + a(kind);
  if (kind == IdKind::Profile && !id_of_number(v, &p)) return "is not " + a(kind);
  if (tag != 0 && id_number_tag(v) != tag) return "is " + a(kind) + " of another World";
  return std::string();
}
// Ok when `why` is empty, else InvalidArgument "<name> <v> <why>".
Status id_status(const std::string& why, double v, const std::string& name, CallError* error) {
  if (why.empty()) return Status::Ok;
  if (error)
    *error = CallError{Status::InvalidArgument, "", name, name + " " + number_text(v) + " " + why};
  return Status::InvalidArgument;
}
}  // namespace

Status from_number(double v, const std::string& name, ProfileId* out, CallError* error,
                   std::uint32_t tag) {
  const Status st = id_status(id_refusal(v, tag, IdKind::Profile), v, name, error);
  if (st == Status::Ok && out) (void)id_of_number(v, out);
  return st;
}
Status from_number(double v, const std::string& name, AgentId* out, CallError* error,
                   std::uint32_t tag) {
  const Status st = id_status(id_refusal(v, tag, IdKind::Agent), v, name, error);
  if (st == Status::Ok && out) (void)id_of_number(v, out);
  return st;
}
Status from_number(double v, const std::string& name, PathHandle* out, CallError* error,
                   std::uint32_t tag) {
  const Status st = id_status(id_refusal(v, tag, IdKind::Path), v, name, error);
  if (st == Status::Ok && out) (void)id_of_number(v, out);
  return st;
}
namespace {
constexpr double kEntityIndexRange = 2097152.0;  // 2^21, as agent numbers (ids.h)
// The entity id of `v` (false: not a number id_number(EntityId) gives).
bool entity_of_number(double v, EntityId* out) {
  if (id_number_kind(v) != IdKind::None || !(v > 0) || v >= 9007199254740992.0 || v != std::floor(v))
    return false;
  const double id = std::floor(v / 4.0), g = std::floor(id / kEntityIndexRange);
  if (v != id * 4.0 || g < 1 || g >= 1073741824.0) return false;
  out->index = static_cast<std::uint32_t>(id - g * kEntityIndexRange);
  out->generation = static_cast<std::uint32_t>(g);
  return true;
}
}  // namespace

bool id_number(EntityId entity, double* out) noexcept {
  if (!out || entity.index >= kEntityIndexRange || entity.generation == 0 ||
      entity.generation >> 30)
    return false;
  *out = (entity.generation * kEntityIndexRange + entity.index) * 4.0;
  return true;
}
Status from_number(double v, const std::string& name, EntityId* out, CallError* error,
                   std::uint32_t tag) {
  EntityId e;
  std::string why;
  const IdKind got = id_number_kind(v);
  if (got != IdKind::None)
    why = std::string("is ") + (got == IdKind::Agent ? "an " : "a ") + id_kind_name(got) +
          ", not an entity id";
  else if (!entity_of_number(v, &e))
    why = "is not an entity id";
  else if (tag != 0 && e.generation >> kIdTagShift != tag)
    why = "is an entity id of another World";
  const Status st = id_status(why, v, name, error);
  if (st == Status::Ok && out) *out = e;
  return st;
}

Status area_filter_of_numbers(double excluded, std::span<const double> multipliers, AreaFilter* out,
                              CallError* error) {
  std::string msg;
  if (!integral(excluded) || excluded < 0 || excluded > UINT32_MAX)
    msg = "filter: excluded " + number_text(excluded) + " is not a 32-bit mask";
  else if (multipliers.size() > kMaxAreas)
    msg = "filter: multipliers has " + std::to_string(multipliers.size()) + " entries, more than " +
          std::to_string(kMaxAreas);
  if (!msg.empty()) {
    if (error) *error = CallError{Status::InvalidArgument, "", "filter", msg};
    return Status::InvalidArgument;
  }
  if (out) {
    out->excluded = static_cast<std::uint32_t>(excluded);
    std::copy(multipliers.begin(), multipliers.end(), out->multiplier.begin());
  }
  return Status::Ok;
}

Status wrong_type(const std::string& name, const char* type, CallError* error,
                  const std::string& what) {
  if (error)
    *error = CallError{Status::InvalidArgument, "", name,
                       (what.empty() ? name : what) + " must be " + type};
  return Status::InvalidArgument;
}

namespace {
Status no_number(const char* what, CallError* error) {
  if (error) *error = CallError{Status::Unsupported, "", "", std::string("more than ") + what};
  return Status::Unsupported;
}
}  // namespace
Status id_numbers(std::span<const AgentId> agents, std::vector<double>* out, CallError* error) {
  std::vector<double> n(agents.size());
  for (std::size_t i = 0; i < agents.size(); ++i)
    if (!id_number(agents[i], &n[i])) return no_number("2097152 agents", error);
  if (out) out->insert(out->end(), n.begin(), n.end());
  return Status::Ok;
}
Status id_number(PathHandle path, double* out, CallError* error) {
  double n = 0;
  if (!id_number(path, &n))
    return no_number("524288 requests of one class are held; release some", error);
  if (out) *out = n;
  return Status::Ok;
}

Status add_agents_numbered(World& world, std::span<const AgentDef> defs, const std::string& list,
                           std::vector<AgentId>* ids, std::vector<double>* numbers,
                           CallError* error) {
  std::vector<AgentId> added(defs.size());
  if (const Status st = world.add_agents(defs, added.data(), list); st != Status::Ok) {
    if (error) *error = world.last_error();
    return st;
  }
  std::vector<double> n;
  if (const Status st = id_numbers(added, &n, error); st != Status::Ok) {
    for (const AgentId& a : added) (void)world.remove_agent(a);
    return st;
  }
  if (ids) *ids = std::move(added);
  if (numbers) *numbers = std::move(n);
  return Status::Ok;
}

Status block_value_of_number(double v, const std::string& name, std::size_t block_count,
                             std::uint16_t* out, CallError* error) {
  std::int64_t n = 0;
  if (const Status st = from_number(v, name, &n, error); st != Status::Ok) return st;
  if (n < 0 || n > 65535 || n >= std::int64_t(block_count)) {
    if (error)
      *error =
          CallError{Status::OutOfRange, "", name,
                    name + " " + std::to_string(n) + " is not in the block registry (values 0 .. " +
                        std::to_string(std::int64_t(block_count) - 1) + ")"};
    return Status::OutOfRange;
  }
  if (out) *out = static_cast<std::uint16_t>(n);
  return Status::Ok;
}

Status request_of_numbers(double profile, std::span<const double> start,
                          std::span<const double> goal, double range, bool toward, double excluded,
                          std::span<const double> multipliers, std::uint32_t tag, NavRequest* out,
                          CallError* error) {
  NavRequest r;
  r.toward = toward;
  Status st = from_number(profile, "profile", &r.profile, error, tag);
  for (const auto& [cell, xyz, name] :
       {std::tuple(&r.start, start, "start"), std::tuple(&r.goal, goal, "goal")}) {
    if (st == Status::Ok && xyz.size() != 3) {
      if (error)
        *error = CallError{Status::InvalidArgument, "", name,
                           std::string(name) + " must be 3 numbers [x, y, z] (got " +
                               std::to_string(xyz.size()) + ")"};
      st = Status::InvalidArgument;
    }
    if (st == Status::Ok) st = from_numbers(xyz.data(), name, cell, error);
  }
  if (st == Status::Ok) st = from_number(range, "range", &r.goal_range, error);
  if (st == Status::Ok) st = area_filter_of_numbers(excluded, multipliers, &r.filter, error);
  if (st == Status::Ok && out) *out = r;
  return st;
}

namespace {
// "<list>[i].<field>" (the field alone when `list` is "").
std::string entry(const std::string& list, std::size_t i, const char* field) {
  return list.empty() ? std::string(field) : list + "[" + std::to_string(i) + "]." + field;
}
// Ok when every array holds its count of numbers per entry (n = first.size()).
Status batch_lengths(const std::string& list, std::size_t n,
                     std::initializer_list<std::pair<std::size_t, std::size_t>> sizes_per_entry,
                     CallError* error) {
  for (const auto& [size, per] : sizes_per_entry)
    if (size != per * n) {
      if (error)
        *error = CallError{Status::InvalidArgument, "", list,
                           list + ": " + std::to_string(n) + " entries need " +
                               std::to_string(per * n) + " numbers of " + std::to_string(per) +
                               " per entry, an array has " + std::to_string(size)};
      return Status::InvalidArgument;
    }
  return Status::Ok;
}
Vec3 vec3(const double* v) { return Vec3{v[0], v[1], v[2]}; }
// Converts n entries with make(i, &entry) (a Status), all before `out` is written.
template <class T, class Make>
Status batch(std::size_t n, std::vector<T>* out, Make make) {
  std::vector<T> entries(n);
  for (std::size_t i = 0; i < n; ++i)
    if (const Status st = make(i, entries[i]); st != Status::Ok) return st;
  if (out) *out = std::move(entries);
  return Status::Ok;
}
}  // namespace

Status agent_defs_of_numbers(std::span<const double> profiles, std::span<const double> feet,
                             std::span<const double> goals, const std::string& list,
                             std::uint32_t tag, std::vector<AgentDef>* out, CallError* error) {
  const std::size_t n = profiles.size();
  if (const Status st = batch_lengths(list, n, {{feet.size(), 3}, {goals.size(), 4}}, error);
      st != Status::Ok)
    return st;
  return batch(n, out, [&](std::size_t i, AgentDef& d) {
    d.feet = vec3(&feet[3 * i]);
    Status st = from_number(profiles[i], entry(list, i, "profile"), &d.profile, error, tag);
    if (st == Status::Ok && goals[4 * i] != 0)
      st = from_numbers(&goals[4 * i + 1], entry(list, i, "goal"), &d.goal.emplace(), error);
    return st;
  });
}
Status agent_goals_of_numbers(std::span<const double> agents, std::span<const double> goals,
                              const std::string& list, std::uint32_t tag,
                              std::vector<AgentGoal>* out, CallError* error) {
  if (const Status st = batch_lengths(list, agents.size(), {{goals.size(), 3}}, error);
      st != Status::Ok)
    return st;
  return batch(agents.size(), out, [&](std::size_t i, AgentGoal& g) {
    const Status st = from_number(agents[i], entry(list, i, "agent"), &g.agent, error, tag);
    return st != Status::Ok ? st
                            : from_numbers(&goals[3 * i], entry(list, i, "goal"), &g.goal, error);
  });
}
Status agent_moves_of_numbers(std::span<const double> agents, std::span<const double> feet,
                              const std::string& list, std::uint32_t tag,
                              std::vector<AgentMove>* out, CallError* error) {
  if (const Status st = batch_lengths(list, agents.size(), {{feet.size(), 3}}, error);
      st != Status::Ok)
    return st;
  return batch(agents.size(), out, [&](std::size_t i, AgentMove& m) {
    m.feet = vec3(&feet[3 * i]);
    return from_number(agents[i], entry(list, i, "agent"), &m.agent, error, tag);
  });
}
Status block_edits_of_numbers(std::span<const double> boxes, std::span<const double> values,
                              std::span<const std::uint8_t> single, const std::string& list,
                              std::vector<BlockEdit>* out, CallError* error) {
  if (const Status st =
          batch_lengths(list, values.size(), {{boxes.size(), 6}, {single.size(), 1}}, error);
      st != Status::Ok)
    return st;
  return batch(values.size(), out, [&](std::size_t i, BlockEdit& e) {
    e.cell = single[i] != 0;
    Status st = from_numbers(&boxes[6 * i], entry(list, i, e.cell ? "cell" : "min"), &e.min, error);
    if (st == Status::Ok)
      st = from_numbers(&boxes[6 * i + 3], entry(list, i, e.cell ? "cell" : "max"), &e.max, error);
    if (st == Status::Ok) st = from_number(values[i], entry(list, i, "value"), &e.value, error);
    return st;
  });
}
Status chunk_positions_of_numbers(std::span<const std::int32_t> xyz, std::vector<ChunkPos>* out,
                                  CallError* error) {
  if (xyz.size() % 3 != 0) {
    if (error)
      *error = CallError{Status::InvalidArgument, "", "positions",
                         "positions has " + std::to_string(xyz.size()) +
                             " entries, not a multiple of 3 (x, y, z per chunk)"};
    return Status::InvalidArgument;
  }
  if (out) {
    out->clear();
    for (std::size_t i = 0; i < xyz.size(); i += 3)
      out->push_back(ChunkPos{xyz[i], xyz[i + 1], xyz[i + 2]});
  }
  return Status::Ok;
}
Status body_step_of_numbers(std::span<const double> in, BodyState* state, BodyInput* input,
                            BodyParams* params, CallError* error) {
  if (in.size() != 26) {
    if (error)
      *error = CallError{Status::InvalidArgument, "", "state",
                         "a movement step takes 26 numbers, not " + std::to_string(in.size())};
    return Status::InvalidArgument;
  }
  // A mode or intent that is no enum value becomes 255, which step_body refuses (naming it).
  const auto small = [](double v) { return std::uint8_t(v >= 0 && v <= 255 ? v : 255); };
  if (state)
    *state = BodyState{.feet = vec3(&in[0]),
                       .velocity = vec3(&in[3]),
                       .on_ground = in[9] != 0,
                       .mode = static_cast<BodyMode>(small(in[10])),
                       .carry = vec3(&in[6])};
  if (input)
    *input = BodyInput{in[11], in[12],       in[13] != 0, static_cast<ClimbIntent>(small(in[14])),
                       in[15], vec3(&in[16])};
  if (params) *params = BodyParams{in[19], in[20], in[21], in[22], in[23], in[24], in[25]};
  return Status::Ok;
}

}  // namespace voxnav
