#include "voxnav/native/files.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>

#include "voxnav/world.h"

namespace voxnav::native {

namespace {

std::string join_path(const std::string& dir, const char* name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

Status fail(std::string* error, Status s, std::string msg) {
  if (error != nullptr) *error = std::move(msg);
  return s;
}

// The API boundary (voxnav/status.h): an allocation that fails becomes OutOfMemory.
template <typename F>
Status guarded(std::string* error, F&& f) noexcept {
  try {
    return f();
  } catch (...) {
    try {
      if (error != nullptr) *error = "out of memory";
    } catch (...) {
    }
    return Status::OutOfMemory;
  }
}

}  // namespace

namespace {
Status read_file_impl(const std::string& path, std::vector<std::uint8_t>& out, std::string* error) {
  out.clear();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  std::FILE* f = file.get();  // closed also when an allocation below throws
  if (f == nullptr) return fail(error, Status::NotFound, "cannot open '" + path + "'");
  std::uint8_t buf[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(buf, 1, sizeof buf, f);
    out.insert(out.end(), buf, buf + n);
    if (n < sizeof buf) break;
  }
  const bool err = std::ferror(f) != 0;
  file.reset();
  if (err) {
    out.clear();
    return fail(error, Status::NotFound, "error reading '" + path + "'");
  }
  return Status::Ok;
}

Status zlib_inflate_impl(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out,
                         std::size_t max_out, std::string* error, z_stream& zs) {
  out.clear();
  // 15 + 32: zlib or gzip header, detected automatically.
  zs.next_in = const_cast<Bytef*>(in.data());
  zs.avail_in = static_cast<uInt>(in.size());
  out.resize(std::min(max_out, std::max<std::size_t>(in.size() * 4, 1 << 16)));
  int rc = Z_OK;
  bool too_big = false;
  for (;;) {
    if (zs.total_out >= out.size()) {
      if (out.size() >= max_out) {
        too_big = true;
        break;
      }
      out.resize(std::min(max_out, out.size() * 2));
    }
    zs.next_out = out.data() + zs.total_out;
    zs.avail_out = static_cast<uInt>(
        std::min<std::size_t>(out.size() - zs.total_out, std::numeric_limits<uInt>::max()));
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      rc = Z_DATA_ERROR;  // input ended before the stream did
      break;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
  }
  const std::size_t produced = zs.total_out;
  const std::string zmsg = zs.msg != nullptr ? zs.msg : "";
  if (too_big) {
    out.clear();
    return fail(error, Status::OutOfRange,
                "compressed data inflates to more than " + std::to_string(max_out) + " bytes");
  }
  if (rc != Z_STREAM_END) {
    out.clear();
    return fail(error, Status::BadFormat,
                "compressed data is corrupt or truncated" +
                    (zmsg.empty() ? std::string() : " (" + zmsg + ")"));
  }
  out.resize(produced);
  return Status::Ok;
}
}  // namespace

Status read_file(const std::string& path, std::vector<std::uint8_t>& out, std::string* error) {
  const Status s = guarded(error, [&] { return read_file_impl(path, out, error); });
  if (s == Status::OutOfMemory) out.clear();
  return s;
}

Status zlib_inflate(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out,
                    std::size_t max_out, std::string* error) {
  z_stream zs{};
  // 15 + 32: zlib or gzip header, detected automatically.
  if (inflateInit2(&zs, 15 + 32) != Z_OK) return fail(error, Status::BadFormat, "inflateInit failed");
  const Status s = guarded(error, [&] { return zlib_inflate_impl(in, out, max_out, error, zs); });
  inflateEnd(&zs);  // also when an allocation threw
  if (s == Status::OutOfMemory) out.clear();
  return s;
}

Status load_world_file(World& world, const std::string& path, const LoadOptions& options,
                       LoadReport* report) {
  std::vector<std::uint8_t> file;
  std::string msg;
  if (Status s = read_file(path, file, &msg); s != Status::Ok) {  // OutOfMemory included
    if (report != nullptr) {
      *report = LoadReport{};
      report->message = msg;
    }
    return s;
  }
  LoadOptions o = options;
  if (o.inflate == nullptr) o.inflate = &zlib_inflate;
  return load_world_bytes(world, file, path, o, report);
}

Status load_minecraft_blocks_dir(World& world, const std::string& dir, std::string* message) {
  std::vector<std::uint8_t> bj, sj, lj;
  std::string msg;
  if (Status s = read_file(join_path(dir, "blocks.pc-1.21.1.json"), bj, &msg); s != Status::Ok)
    return fail(message, s, msg);
  if (Status s = read_file(join_path(dir, "blockCollisionShapes.pc-1.20.5.json"), sj, &msg);
      s != Status::Ok)
    return fail(message, s, msg);
  if (Status s = world.load_minecraft_blocks(bj, sj, &msg); s != Status::Ok)
    return fail(message, s, msg);
  std::string summary = std::to_string(world.block_count()) + " block values";
  if (read_file(join_path(dir, "blocks.pc-1.12.json"), lj, &msg) == Status::Ok) {
    if (Status s = load_minecraft_legacy_ids(world, lj, &msg); s != Status::Ok)
      return fail(message, s, msg);
    summary += "; " + msg;  // the 1.12 loader's own summary ("N pre-1.13 ids mapped ...")
  } else {
    summary += "; no blocks.pc-1.12.json (pre-1.13 worlds unavailable)";
  }
  if (message != nullptr) *message = summary;
  return Status::Ok;
}

}  // namespace voxnav::native
