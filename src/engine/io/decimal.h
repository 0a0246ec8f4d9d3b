// voxnav engine - the decimal numbers of the text formats (Moving AI maps and scens, 2D and 3D).
#pragma once
#include <string_view>

namespace voxnav::detail {

/// A decimal number: [-]digits[.digits] or [-].digits, then an optional exponent e[+-]digits, into
/// `v`. False (v unspecified) for anything else: a leading '+', hex, inf or nan, spaces, more than
/// 64 characters, or a value outside double's range. Native and wasm read the same double.
bool parse_decimal(std::string_view s, double& v);

}  // namespace voxnav::detail
