// A zlib bomb (issue 16): a small gzip stream that inflates far past max_inflated_bytes stops at
// the limit with OutOfRange, nothing loaded; the native inflater never returns more than asked.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "voxnav/io.h"
#include "voxnav/native/files.h"
#include "voxnav/world.h"

namespace voxnav {
namespace {

// `n` zero bytes deflated into a gzip stream (about n / 1000 bytes).
std::vector<std::uint8_t> gzip_zeros(std::size_t n) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<std::uint8_t> zeros(1 << 20, 0), out(n / 500 + 1024);
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  std::size_t left = n;
  for (;;) {
    const std::size_t take = std::min(left, zeros.size());
    zs.next_in = zeros.data();
    zs.avail_in = static_cast<uInt>(take);
    left -= take;
    const int rc = deflate(&zs, left == 0 ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    EXPECT_EQ(rc, Z_OK);
    if (rc != Z_OK) break;
  }
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

TEST(HostileInputNative, ZlibBombStopsAtTheLimit) {
  const auto bomb = gzip_zeros(std::size_t{64} << 20);  // 64 MiB of zeros in ~64 KiB
  ASSERT_LT(bomb.size(), 200u * 1024);
  std::vector<std::uint8_t> out;
  std::string err;
  EXPECT_EQ(native::zlib_inflate(bomb, out, std::size_t{1} << 20, &err), Status::OutOfRange);
  EXPECT_TRUE(out.empty());
  EXPECT_NE(err.find("1048576"), std::string::npos) << err;
  // Within the limit it inflates exactly.
  EXPECT_EQ(native::zlib_inflate(bomb, out, std::size_t{64} << 20, &err), Status::Ok) << err;
  EXPECT_EQ(out.size(), std::size_t{64} << 20);

  // Through the loader: the schematic's inflate budget is options.max_inflated_bytes.
  World w;
  LoadOptions o;
  o.inflate = &native::zlib_inflate;
  o.max_inflated_bytes = std::size_t{4} << 20;
  LoadReport r;
  const std::string blocks =
      R"([{"name":"air","minStateId":0,"maxStateId":0,"defaultState":0}])";
  const std::string shapes = R"({"blocks":{},"shapes":{}})";
  ASSERT_EQ(w.load_minecraft_blocks(std::vector<std::uint8_t>(blocks.begin(), blocks.end()),
                                    std::vector<std::uint8_t>(shapes.begin(), shapes.end())),
            Status::Ok);
  EXPECT_EQ(load_world_bytes(w, bomb, "bomb.schem", o, &r), Status::OutOfRange);
  EXPECT_NE(r.message.find("4194304"), std::string::npos) << r.message;
  EXPECT_EQ(r.chunks_loaded, 0u);
}

}  // namespace
}  // namespace voxnav
