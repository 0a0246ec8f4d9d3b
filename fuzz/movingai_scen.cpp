// Fuzzes parse_movingai_scen: the input is a Moving AI .scen text.
#include <string_view>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  std::vector<MovingAiScenario> rows;
  std::string err;
  const Status st = parse_movingai_scen(
      std::string_view(reinterpret_cast<const char*>(data), size), &rows, &err);
  if (st != Status::Ok) {
    if (err.empty()) fuzz::fail("a refused .scen gave no message");
    return 0;
  }
  for (const MovingAiScenario& r : rows)
    if (r.map.size() > size) fuzz::fail("a parsed row's map name is longer than the text");
  return 0;
}
