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
Status from_number(double v, const std::string& name, ProfileId* out, CallError* error) {
  const Status st =
      check(integral(v) && v >= 0 && v < 4294967295.0, v, name, "a profile id (an integer)", error);
  if (st == Status::Ok && out) *out = ProfileId{static_cast<std::uint32_t>(v)};
  return st;
}
Status from_number(double v, const std::string& name, AgentId* out, CallError* error) {
  AgentId id;
  return check(id_of_number(v, out ? out : &id), v, name, "an agent id", error);
}
Status from_number(double v, const std::string& name, PathHandle* out, CallError* error) {
  PathHandle h;
  return check(id_of_number(v, out ? out : &h), v, name, "a path handle", error);
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
