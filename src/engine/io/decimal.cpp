// voxnav engine - the decimal numbers of the text formats (decimal.h).
#include "engine/io/decimal.h"

#include <cerrno>
#include <cstdlib>
#include <string>

namespace voxnav::detail {

// (strtod alone reads "0x10" as 16, "inf", and takes the locale's decimal point.)
bool parse_decimal(std::string_view s, double& v) {
  if (s.empty() || s.size() > 64) return false;
  std::size_t i = 0;
  if (s[i] == '-') ++i;
  std::size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  if (i != s.size()) return false;
  // strtod, not from_chars: libc++ 14 (Emscripten's, and the fuzz preset's) has no floating-point
  // from_chars. The text is checked above to be a plain decimal number, and both C libraries
  // round it correctly, so native and wasm read the same double. strtod needs a terminated string.
  // Out of double's range (ERANGE: overflow or underflow) is refused, as from_chars refuses it.
  const std::string tmp(s);
  char* end = nullptr;
  errno = 0;
  v = std::strtod(tmp.c_str(), &end);
  return end == tmp.c_str() + tmp.size() && errno != ERANGE;
}

}  // namespace voxnav::detail
