// voxnav - numbers from a scripting host (JS numbers are doubles) to the API's types, for
// bindings: each refusal is a CallError naming the argument `name` and the number as
// number_text writes it ("agent 1.5 is not an agent id"). Ranges are the World's to check.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "voxnav/error.h"
#include "voxnav/ids.h"
#include "voxnav/requests.h"
#include "voxnav/types.h"

namespace voxnav {

/// Three numbers as a cell (or a chunk position, `what` "a chunk position"): integers an int32
/// holds. Returns: Ok; InvalidArgument ("<name> (x, y, z) is not <what> (integers expected)");
/// OutOfRange (an integer no int32 holds).
[[nodiscard]] Status from_numbers(const double* xyz, const std::string& name, CellPos* out,
                                  CallError* error, const char* what = "a cell");
/// One number as the type `out` points to. An int: an integer an int32 holds. Returns: Ok;
/// InvalidArgument ("<name> <v> is not an integer").
[[nodiscard]] Status from_number(double v, const std::string& name, int* out, CallError* error);
/// A block value: an integer a double holds exactly (|v| <= 2^53). Returns: Ok; InvalidArgument.
[[nodiscard]] Status from_number(double v, const std::string& name, std::int64_t* out,
                                 CallError* error);
/// A profile id, an agent id or a path handle from its id number (voxnav/ids.h), of the World
/// of id tag `tag` (World::id_tag; 0: of any World). Returns: Ok; InvalidArgument ("<name> <v>
/// is not an agent id", "... is a path handle, not an agent id", "... is an agent id of another
/// World").
[[nodiscard]] Status from_number(double v, const std::string& name, ProfileId* out,
                                 CallError* error, std::uint32_t tag = 0);
[[nodiscard]] Status from_number(double v, const std::string& name, AgentId* out, CallError* error,
                                 std::uint32_t tag = 0);
[[nodiscard]] Status from_number(double v, const std::string& name, PathHandle* out,
                                 CallError* error, std::uint32_t tag = 0);
/// An area filter from a mask of excluded areas (bit i: area i) and a multiplier per area (at
/// most kMaxAreas; the World checks their values). Returns: Ok; InvalidArgument (argument
/// "filter": excluded is not a 32-bit mask, or more than kMaxAreas multipliers).
[[nodiscard]] Status area_filter_of_numbers(double excluded, std::span<const double> multipliers,
                                            AreaFilter* out, CallError* error);

}  // namespace voxnav
