#include "engine/io/movingai3d.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "engine/io/decimal.h"
#include "engine/util/text.h"

namespace voxnav::detail {

namespace {

// Lines of a text, CRLF accepted; `number` is 1-based.
struct LineReader {
  std::string_view text;
  std::size_t pos = 0;
  std::size_t number = 0;
  bool next(std::string_view& line) {
    if (pos >= text.size()) return false;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }
};

bool is_space(char c) { return c == ' ' || c == '\t'; }

// Splits on spaces and tabs into at most `max` fields; returns the field count (max + 1 when
// there are more).
int split(std::string_view line, std::string_view* fields, int max) {
  int n = 0;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    if (n == max) return max + 1;
    fields[n++] = line.substr(i, j - i);
    i = j;
  }
  return n;
}

bool blank(std::string_view line) {
  for (char c : line)
    if (!is_space(c)) return false;
  return true;
}

bool to_int(std::string_view s, long long& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// A line as it appears in messages: at most 40 bytes of it, in quotes, with every byte outside
// printable ASCII escaped (\t, \r, else \xNN) and quotes and backslashes escaped, so a control
// byte can neither hide in the message (a BOM, a lone CR returning the terminal's cursor) nor cut
// it (a NUL ends a C string). A carriage return inside the line is named: the lines of these files
// end in LF or CRLF.
std::string quoted(std::string_view line) {
  static const char kHex[] = "0123456789abcdef";
  std::string s = "\"";
  for (const char ch : line.substr(0, 40)) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      s += '\\';
      s += ch;
    } else if (c >= 0x20 && c < 0x7F) {
      s += ch;
    } else if (c == '\t') {
      s += "\\t";
    } else if (c == '\r') {
      s += "\\r";
    } else {
      s += "\\x";
      s += kHex[c >> 4];
      s += kHex[c & 15];
    }
  }
  if (line.size() > 40) s += "...";
  s += "\"";
  if (line.find('\r') != std::string_view::npos)
    s += " (a carriage return inside the line: lines end in LF or CRLF)";
  return s;
}

// A UTF-8 byte order mark at the start of a file is skipped (editors on Windows write one).
std::string_view skip_bom(std::string_view text) {
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

std::string at(std::size_t line) { return "line " + std::to_string(line) + ": "; }

// "" when (x, y, z) is inside sx x sy x sz, else why not.
std::string bounds_error(const char* what, long long x, long long y, long long z, int sx, int sy,
                         int sz) {
  const long long v[3] = {x, y, z};
  const int s[3] = {sx, sy, sz};
  for (int a = 0; a < 3; ++a)
    if (v[a] < 0 || v[a] >= s[a])
      return std::string(what) + " " + xyz_text(x, y, z) + " is outside the map: " + "xyz"[a] +
             " must be in 0 .. " + std::to_string(s[a] - 1) + " (the map is " + std::to_string(sx) +
             " x " + std::to_string(sy) + " x " + std::to_string(sz) + ")";
  return std::string();
}

}  // namespace

Status parse_3dmap(std::string_view text, VoxelMapText& out, std::string& message) {
  LineReader r{skip_bom(text)};
  std::string_view line;
  std::string_view f[4];
  // The header: the first line that is not blank.
  bool have_header = false;
  while (r.next(line)) {
    if (blank(line)) continue;
    long long s[3];
    if (split(line, f, 4) != 4 || f[0] != "voxel" || !to_int(f[1], s[0]) || !to_int(f[2], s[1]) ||
        !to_int(f[3], s[2])) {
      message = at(r.number) + "expected the header \"voxel X Y Z\" (three integer sizes), found " +
                quoted(line);
      return Status::BadFormat;
    }
    for (int a = 0; a < 3; ++a)
      if (s[a] < 1 || s[a] > kMaxVoxelMapEdge) {
        message = at(r.number) + "size " + "XYZ"[a] + " = " + std::to_string(s[a]) +
                  " is out of range: 1 .. " + std::to_string(kMaxVoxelMapEdge);
        return Status::OutOfRange;
      }
    if (std::uint64_t(s[0]) * std::uint64_t(s[1]) * std::uint64_t(s[2]) > kMaxVoxelMapCells) {
      message = at(r.number) + "the map " + std::to_string(s[0]) + " x " + std::to_string(s[1]) +
                " x " + std::to_string(s[2]) + " has more than " +
                std::to_string(kMaxVoxelMapCells) + " voxels";
      return Status::OutOfRange;
    }
    out.sx = int(s[0]);
    out.sy = int(s[1]);
    out.sz = int(s[2]);
    have_header = true;
    break;
  }
  if (!have_header) {
    message = "line " + std::to_string(r.number + (r.number == 0)) +
              ": no \"voxel X Y Z\" header (the text is empty)";
    return Status::BadFormat;
  }
  out.blocked.clear();
  while (r.next(line)) {
    if (blank(line)) continue;
    long long v[3];
    if (split(line, f, 3) != 3 || !to_int(f[0], v[0]) || !to_int(f[1], v[1]) ||
        !to_int(f[2], v[2])) {
      message = at(r.number) + "expected a blocked voxel \"x y z\" (three integers), found " +
                quoted(line);
      return Status::BadFormat;
    }
    if (std::string e = bounds_error("voxel", v[0], v[1], v[2], out.sx, out.sy, out.sz);
        !e.empty()) {
      message = at(r.number) + e;
      return Status::BadFormat;
    }
    if (out.blocked.size() == kMaxVoxelMapLines) {
      message =
          at(r.number) + "more than " + std::to_string(kMaxVoxelMapLines) + " blocked voxel lines";
      return Status::BadFormat;
    }
    out.blocked.push_back(CellPos{std::int32_t(v[0]), std::int32_t(v[1]), std::int32_t(v[2])});
  }
  return Status::Ok;
}

Status parse_3dscen(std::string_view text, int sx, int sy, int sz, std::vector<VoxelScenRow>& out,
                    std::string& message) {
  LineReader r{skip_bom(text)};
  std::string_view line;
  std::string_view f[8];
  out.clear();
  // "version N"
  bool have_version = false;
  while (r.next(line)) {
    if (blank(line)) continue;
    long long v = 0;
    if (split(line, f, 2) != 2 || f[0] != "version" || !to_int(f[1], v)) {
      message = at(r.number) + "expected \"version 1\", found " + quoted(line);
      return Status::BadFormat;
    }
    if (v != 1) {
      message =
          at(r.number) + "version " + std::to_string(v) + " is not supported (only version 1)";
      return Status::Unsupported;
    }
    have_version = true;
    break;
  }
  if (!have_version) {
    message = "line 1: no \"version 1\" line (the text is empty)";
    return Status::BadFormat;
  }
  bool have_name = false;
  while (r.next(line)) {
    if (blank(line)) continue;
    const int n = split(line, f, 8);
    if (!have_name) {
      // The map's file name: one field (a row has eight).
      if (n == 1) {
        have_name = true;
        continue;
      }
      message = at(r.number) + "expected the map's file name (one field), found " + quoted(line);
      return Status::BadFormat;
    }
    if (n != 8) {
      message = at(r.number) + "expected 8 fields \"sx sy sz gx gy gz optimal ratio\", found " +
                (n > 8 ? std::string("more") : std::to_string(n)) + " in " + quoted(line);
      return Status::BadFormat;
    }
    static const char* const kNames[8] = {"sx", "sy", "sz", "gx", "gy", "gz", "optimal", "ratio"};
    long long c[6];
    for (int i = 0; i < 6; ++i)
      if (!to_int(f[i], c[i]) || c[i] < INT32_MIN || c[i] > INT32_MAX) {
        message = at(r.number) + "field " + kNames[i] + " is not an integer: " + quoted(f[i]);
        return Status::BadFormat;
      }
    double opt = 0, ratio = 0;
    if (!parse_decimal(f[6], opt) || !std::isfinite(opt) || opt < 0) {
      message = at(r.number) + "field optimal is not a finite length >= 0: " + quoted(f[6]);
      return Status::BadFormat;
    }
    if (!parse_decimal(f[7], ratio) || !std::isfinite(ratio)) {
      message = at(r.number) + "field ratio is not a finite number: " + quoted(f[7]);
      return Status::BadFormat;
    }
    if (sx > 0) {
      for (int e = 0; e < 2; ++e)
        if (std::string b = bounds_error(e == 0 ? "start" : "goal", c[3 * e], c[3 * e + 1],
                                         c[3 * e + 2], sx, sy, sz);
            !b.empty()) {
          message = at(r.number) + b;
          return Status::BadFormat;
        }
    }
    if (out.size() == kMaxVoxelScenRows) {
      message = at(r.number) + "more than " + std::to_string(kMaxVoxelScenRows) + " rows";
      return Status::BadFormat;
    }
    VoxelScenRow row;
    row.line = r.number;
    row.start = CellPos{std::int32_t(c[0]), std::int32_t(c[1]), std::int32_t(c[2])};
    row.goal = CellPos{std::int32_t(c[3]), std::int32_t(c[4]), std::int32_t(c[5])};
    row.optimal = opt;
    row.ratio = ratio;
    out.push_back(row);
  }
  if (!have_name) {
    message = "line " + std::to_string(r.number + 1) + ": no map name line after \"version 1\"";
    return Status::BadFormat;
  }
  return Status::Ok;
}

}  // namespace voxnav::detail
