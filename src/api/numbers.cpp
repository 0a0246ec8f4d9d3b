// voxnav - host numbers to the API's types (voxnav/numbers.h).
#include "voxnav/numbers.h"

#include <algorithm>
#include <cmath>

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

}  // namespace voxnav
