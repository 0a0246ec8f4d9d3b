// Where JSON text stops being JSON: the parsers of voxnav's JSON inputs (profiles, block
// registries, Minecraft's block data, the CLI's scenarios) report a syntax error as one, with the
// byte it was found at, instead of "not a JSON object". No exception is thrown (SAX parse).
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace voxnav::detail {

/// "JSON syntax error at byte 18: <nlohmann's explanation>" when [first, last) is not JSON text;
/// empty when it is. Bytes count from 1, as nlohmann reports them.
template <class It>
std::string json_syntax_error(It first, It last) {
  using Json = nlohmann::json;
  struct Probe : nlohmann::json_sax<Json> {
    std::string error;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override {
      // ex.what() reads "[json.exception.parse_error.101] parse error at line 1, column 5:
      // syntax error while parsing value - ...": keep what follows the location.
      std::string what = ex.what();
      const std::size_t colon = what.find(": ");
      if (colon != std::string::npos) what = what.substr(colon + 2);
      error = "JSON syntax error at byte " + std::to_string(position) + ": " + what;
      return false;
    }
  } probe;
  if (Json::sax_parse(first, last, &probe) || !probe.error.empty()) return probe.error;
  return "JSON syntax error";  // not reached: a failed parse reports its error
}

}  // namespace voxnav::detail
