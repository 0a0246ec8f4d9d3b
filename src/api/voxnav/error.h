// voxnav - the structured error of the last failed call (World::last_error()).
#pragma once
#include <string>
#include <string_view>

#include "voxnav/status.h"

namespace voxnav {

/// What the last failed call of a World said about its failure. `function` is the C++ call's
/// name ("set_block"), `argument` the parameter at fault ("cell", "value", "goal_range"; empty
/// when no single argument is), `message` one sentence naming the value and the rule it breaks
/// ("cell (1, 99999, 2) is out of range: y is outside -2047 .. 2047"). The `std::string* error`
/// out-parameters of World's calls receive the same `message`.
struct CallError {
  Status status = Status::Ok;
  std::string function;
  std::string argument;
  std::string message;
};

/// How messages write a number (one rule for the C++ API and the npm package's bindings): an
/// integer below 10^15 without a fraction ("12"), "NaN", "Infinity", "-Infinity", any other the
/// shorter of 15 or 17 significant digits that reads back as the same double ("0.1").
std::string number_text(double v);

/// Where text stops being JSON, as voxnav's JSON readers say it: "JSON syntax error at byte 18:
/// ..." (bytes count from 1); empty when `text` is JSON.
std::string json_syntax_error(std::string_view text);

}  // namespace voxnav
