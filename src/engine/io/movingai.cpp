#include "engine/io/movingai.h"

#include "engine/io/decimal.h"
#include "voxnav/io.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace voxnav::detail {

namespace {

/// Splits text into lines (LF or CRLF); the last line may lack a newline.
class Lines {
 public:
  explicit Lines(std::string_view t) : t_(t) {}
  bool next(std::string_view& line) {
    if (pos_ >= t_.size()) return false;
    std::size_t e = t_.find('\n', pos_);
    if (e == std::string_view::npos) e = t_.size();
    line = t_.substr(pos_, e - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = e + 1;
    ++number_;
    return true;
  }
  int number() const { return number_; }

 private:
  std::string_view t_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// Splits on runs of spaces / tabs.
std::vector<std::string_view> fields(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

bool to_int(std::string_view s, int& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// A scen row's optimal length: a decimal number, or inf / nan (read so that the scen runner can
// report that row as bad, naming the value, instead of refusing the whole file).
bool to_length(std::string_view s, double& v) {
  if (s == "inf" || s == "nan") {
    v = s == "inf" ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  return parse_decimal(s, v);
}

bool known_tile(char c) {
  return c == '.' || c == 'G' || c == 'S' || c == '@' || c == 'O' || c == 'T' || c == 'W';
}

}  // namespace

std::size_t MovingAiMap::passable_count() const {
  return static_cast<std::size_t>(std::count_if(tiles.begin(), tiles.end(), movingai_passable));
}

Status parse_movingai_map(std::string_view text, MovingAiMap& out, std::string& message) {
  out = MovingAiMap{};
  Lines lines(text);
  std::string_view line;
  int width = -1, height = -1;
  bool map_seen = false;
  while (!map_seen && lines.next(line)) {
    const auto f = fields(line);
    if (f.empty()) continue;
    if (f[0] == "type") {
      if (f.size() != 2) {
        message = "map line " + std::to_string(lines.number()) + ": 'type' needs one value";
        return Status::BadFormat;
      }
      if (f[1] != "octile") {
        message = "map type '" + std::string(f[1]) + "' is not supported (only octile)";
        return Status::Unsupported;
      }
    } else if (f[0] == "height" || f[0] == "width") {
      int v = 0;
      if (f.size() != 2 || !to_int(f[1], v) || v <= 0) {
        message = "map line " + std::to_string(lines.number()) + ": bad " + std::string(f[0]);
        return Status::BadFormat;
      }
      (f[0] == "height" ? height : width) = v;
    } else if (f[0] == "map") {
      map_seen = true;
    } else {
      message = "map line " + std::to_string(lines.number()) + ": unexpected header '" +
                std::string(f[0]) + "'";
      return Status::BadFormat;
    }
  }
  if (!map_seen || width <= 0 || height <= 0) {
    message = "map header needs 'height', 'width' and 'map' lines";
    return Status::BadFormat;
  }
  if (static_cast<std::int64_t>(width) * height > (std::int64_t{1} << 28)) {
    message = "map of " + std::to_string(width) + "x" + std::to_string(height) + " is too large";
    return Status::BadFormat;
  }
  // Two chunks (ground and air above it) per 16 x 16 tiles: checked against kMaxLoadChunks, and
  // the text against the tile count, before the tiles are reserved.
  const std::uint64_t load_chunks = 2 * static_cast<std::uint64_t>((width + 15) / 16) *
                                    static_cast<std::uint64_t>((height + 15) / 16);
  if (load_chunks > kMaxLoadChunks) {
    message = "map of " + std::to_string(width) + "x" + std::to_string(height) + " needs " +
              std::to_string(load_chunks) + " chunks, more than " +
              std::to_string(kMaxLoadChunks) + " (kMaxLoadChunks)";
    return Status::OutOfRange;
  }
  if (static_cast<std::uint64_t>(text.size()) <
      static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height)) {
    message = "map of " + std::to_string(width) + "x" + std::to_string(height) + " tiles has only " +
              std::to_string(text.size()) + " bytes";
    return Status::BadFormat;
  }
  std::vector<char> tiles;
  tiles.reserve(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  for (int row = 0; row < height; ++row) {
    if (!lines.next(line)) {
      message = "map has " + std::to_string(row) + " rows, header says " + std::to_string(height);
      return Status::BadFormat;
    }
    if (static_cast<int>(line.size()) != width) {
      message = "map line " + std::to_string(lines.number()) + ": row of " +
                std::to_string(line.size()) + " tiles, width is " + std::to_string(width);
      return Status::BadFormat;
    }
    for (std::size_t x = 0; x < line.size(); ++x) {
      if (!known_tile(line[x])) {
        message = "map line " + std::to_string(lines.number()) + " column " +
                  std::to_string(x + 1) + ": unknown tile '" + std::string(1, line[x]) + "'";
        return Status::BadFormat;
      }
    }
    tiles.insert(tiles.end(), line.begin(), line.end());
  }
  while (lines.next(line)) {
    if (!trim(line).empty()) {
      message = "map line " + std::to_string(lines.number()) + ": text after the last row";
      return Status::BadFormat;
    }
  }
  out.width = width;
  out.height = height;
  out.tiles = std::move(tiles);
  return Status::Ok;
}

Status parse_movingai_scen(std::string_view text, std::vector<MovingAiScenario>& out,
                           std::string& message) {
  out.clear();
  Lines lines(text);
  std::string_view line;
  bool first = true, any = false;
  while (lines.next(line)) {
    const auto f = fields(line);
    if (f.empty()) continue;
    if (first) {
      first = false;
      // The "version 1" line is optional: some published files start with their first row.
      if (f[0] == "version") {
        if (f.size() != 2) {
          message = "scen line " + std::to_string(lines.number()) + ": expected 'version 1'";
          return Status::BadFormat;
        }
        if (f[1] != "1" && f[1] != "1.0") {
          message = "scen version '" + std::string(f[1]) + "' is not supported (only 1)";
          return Status::Unsupported;
        }
        any = true;
        continue;
      }
    }
    MovingAiScenario s;
    if (f.size() != 9 || !to_int(f[0], s.bucket) || !to_int(f[2], s.map_width) ||
        !to_int(f[3], s.map_height) || !to_int(f[4], s.start_x) || !to_int(f[5], s.start_y) ||
        !to_int(f[6], s.goal_x) || !to_int(f[7], s.goal_y) || !to_length(f[8], s.optimal)) {
      message = "scen line " + std::to_string(lines.number()) +
                ": expected bucket, map, width, height, start x, start y, goal x, goal y, length";
      out.clear();
      return Status::BadFormat;
    }
    s.map = std::string(f[1]);
    out.push_back(std::move(s));
    any = true;
  }
  if (!any) {
    message = "scen file is empty (no 'version 1' line and no row)";
    return Status::BadFormat;
  }
  return Status::Ok;
}

Status build_movingai_world(const MovingAiMap& map, std::uint16_t solid, Space& space,
                            MovingAiWorldInfo* info) {
  if (map.width <= 0 || map.height <= 0 ||
      map.tiles.size() !=
          static_cast<std::size_t>(map.width) * static_cast<std::size_t>(map.height)) {
    return Status::InvalidArgument;
  }
  if (!space.registry().valid(solid) || !space.registry().has_collision(solid)) {
    return Status::InvalidArgument;
  }
  if (map.width >= kMaxHorizontal || map.height >= kMaxHorizontal) return Status::OutOfRange;
  const int cx_n = (map.width + kChunkSize - 1) / kChunkSize;
  const int cz_n = (map.height + kChunkSize - 1) / kChunkSize;
  MovingAiWorldInfo inf;
  // All chunks are made first and loaded in one all-or-nothing batch.
  std::vector<std::uint16_t> all(static_cast<std::size_t>(cx_n) * static_cast<std::size_t>(cz_n) *
                                 kChunkCells);
  std::vector<ChunkLoad> batch;
  batch.reserve(static_cast<std::size_t>(cx_n) * static_cast<std::size_t>(cz_n) * 2);
  for (int cz = 0; cz < cz_n; ++cz) {
    for (int cx = 0; cx < cx_n; ++cx) {
      const std::span<std::uint16_t> values(
          all.data() + (static_cast<std::size_t>(cz) * cx_n + cx) * kChunkCells, kChunkCells);
      for (int lz = 0; lz < kChunkSize; ++lz) {
        for (int lx = 0; lx < kChunkSize; ++lx) {
          const int x = cx * kChunkSize + lx, z = cz * kChunkSize + lz;
          const bool blocked = !map.passable(x, z);  // outside the map counts as blocked
          const int top = blocked ? kMovingAiWallTop : 0;
          for (int y = 0; y <= top; ++y) {
            values[static_cast<std::size_t>(index_in_chunk(CellPos{lx, y, lz}))] = solid;
          }
        }
      }
      batch.push_back(ChunkLoad{ChunkPos{cx, 0, cz}, false, 0, values});
      batch.push_back(ChunkLoad{ChunkPos{cx, 1, cz}, true, 0, {}});
      inf.chunks_loaded += 2;
      inf.uniform_chunks += 1;
    }
  }
  if (Status s = space.load_chunks(batch); s != Status::Ok) return s;
  inf.min = CellPos{0, 0, 0};
  inf.max = CellPos{map.width - 1, kMovingAiWallTop, map.height - 1};
  if (info != nullptr) *info = inf;
  return Status::Ok;
}

}  // namespace voxnav::detail
