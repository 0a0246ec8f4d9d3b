// Fuzzes load_anvil_columns: the input is one uncompressed Anvil chunk column (NBT), as a region
// holds it after inflating (1.12 ids, 1.13-1.17 palettes, 1.18+ sections).
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  fuzz::McWorld& mw = fuzz::mc_world();
  const std::span<const std::uint8_t> column(data, size);
  const std::span<const std::uint8_t> columns[] = {column};
  LoadOptions opt;
  opt.skip_empty_proto_chunks = size % 2 == 0;  // both settings, told by the input
  opt.full_chunks_only = size % 3 == 0;
  LoadReport rep;
  const std::uint64_t before = fuzz::hash_of(mw.world);
  const Status st = load_anvil_columns(mw.world, columns, opt, &rep);
  fuzz::check_load(mw, st, rep, before);
  return 0;
}
