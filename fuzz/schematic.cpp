// Fuzzes load_schematic (Sponge v1..v3). An input starting with the gzip magic is passed as it
// is; any other input is taken as the uncompressed NBT and gzipped here first, so the mutations
// reach the NBT and schematic decoders instead of dying in the gzip checksum.
#include <zlib.h>

#include "fuzz_common.h"

namespace {
std::vector<std::uint8_t> gzip(const std::uint8_t* data, std::size_t size) {
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::vector<std::uint8_t> out(deflateBound(&z, static_cast<uLong>(size)) + 32);
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace voxnav;
  fuzz::McWorld& mw = fuzz::mc_world();
  std::vector<std::uint8_t> gz;
  std::span<const std::uint8_t> bytes(data, size);
  if (!(size >= 2 && data[0] == 0x1f && data[1] == 0x8b)) {
    gz = gzip(data, size);
    bytes = gz;
  }
  LoadOptions opt;
  opt.inflate = native::zlib_inflate;
  opt.max_inflated_bytes = std::size_t{16} << 20;  // as anvil_region
  // An origin from the input, near the edges of the range now and then.
  if (size >= 1 && data[size - 1] % 4 == 0) opt.schematic_origin = CellPos{kMaxCellXZ - 40, 0, -kMaxCellXZ};
  LoadReport rep;
  const std::uint64_t before = fuzz::hash_of(mw.world);
  const Status st = load_schematic(mw.world, bytes, opt, &rep);
  fuzz::check_load(mw, st, rep, before);
  return 0;
}
