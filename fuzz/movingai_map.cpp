// Fuzzes load_movingai_map: the input is a Moving AI .map text.
#include <string_view>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  fuzz::McWorld& mw = fuzz::mc_world();
  LoadReport rep;
  const std::uint64_t before = fuzz::hash_of(mw.world);
  const Status st = load_movingai_map(
      mw.world, std::string_view(reinterpret_cast<const char*>(data), size), &rep);
  fuzz::check_load(mw, st, rep, before);
  return 0;
}
