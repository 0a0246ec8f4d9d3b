// Fuzzes load_anvil_region with zlib: the input is a region file (.mca): the 8 KiB location
// table, then the chunks (gzip / zlib / uncompressed NBT).
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  fuzz::McWorld& mw = fuzz::mc_world();
  LoadOptions opt;
  opt.inflate = native::zlib_inflate;
  // Below the default so a run stays inside -rss_limit_mb under ASan; the limit's checks are the
  // same (the zlib bomb regression input inflates past it).
  opt.max_inflated_bytes = std::size_t{16} << 20;
  LoadReport rep;
  const std::uint64_t before = fuzz::hash_of(mw.world);
  const Status st = load_anvil_region(mw.world, {data, size}, opt, &rep);
  fuzz::check_load(mw, st, rep, before);
  // The two-step path the npm package takes: the chunk list alone.
  std::vector<RegionChunk> chunks;
  std::string err;
  if (list_region_chunks({data, size}, &chunks, &err) == Status::Ok)
    for (const RegionChunk& c : chunks)
      if (!c.skipped && (c.offset > size || c.size > size - c.offset))
        fuzz::fail("list_region_chunks gave a range past the end");
  return 0;
}
