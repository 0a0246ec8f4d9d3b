#include "engine/util/json_error.h"

#include <nlohmann/json.hpp>

namespace voxnav::detail {

std::string json_syntax_error(const char* data, std::size_t size) {
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
  if (Json::sax_parse(data, data + size, &probe) || !probe.error.empty()) return probe.error;
  return "JSON syntax error";  // not reached: a failed parse reports its error
}

}  // namespace voxnav::detail
