#include "engine/io/anvil_chunk.h"

#include <algorithm>
#include <array>
#include <map>

#include "engine/io/legacy_blocks.h"
#include "voxnav/io.h"

namespace voxnav::detail {

namespace {

using nbt::Tag;
using nbt::TagType;

int ceil_log2(std::size_t n) {
  int b = 0;
  while ((std::size_t{1} << b) < n) ++b;
  return b;
}

void finish_section(DecodedSection& s) {
  if (s.values.empty()) return;
  const std::uint16_t first = s.values[0];
  if (std::all_of(s.values.begin(), s.values.end(), [&](std::uint16_t v) { return v == first; })) {
    s.uniform = true;
    s.uniform_value = first;
    s.values.clear();
    s.values.shrink_to_fit();
  } else {
    s.uniform = false;
  }
}

/// Fills the column's section list so that it covers [lo, hi] with air where nothing was decoded.
void fill_range(DecodedColumn& col, std::map<std::int32_t, DecodedSection>& by_y, std::int32_t lo,
                std::int32_t hi) {
  if (!by_y.empty()) {
    lo = std::min(lo, by_y.begin()->first);
    hi = std::max(hi, by_y.rbegin()->first);
  }
  col.sections.clear();
  for (std::int32_t y = lo; y <= hi; ++y) {
    auto it = by_y.find(y);
    if (it != by_y.end()) {
      col.sections.push_back(std::move(it->second));
    } else {
      DecodedSection air;
      air.y = y;
      col.sections.push_back(std::move(air));
    }
  }
  col.has_blocks =
      std::any_of(col.sections.begin(), col.sections.end(),
                  [](const DecodedSection& s) { return !s.uniform || s.uniform_value != 0; });
}

// ---- palette formats (1.13+) ----

/// Resolves a palette (list of {Name, Properties}) to values. Unknown names stay marked so the
/// caller can count their cells.
Status resolve_palette(const Tag& palette, const MinecraftBlocks& blocks,
                       std::vector<std::uint16_t>& values, std::vector<std::string>& unknown_names,
                       LookupTally& tally, std::string& message) {
  values.clear();
  unknown_names.clear();
  if (palette.type != TagType::List ||
      (palette.list_type != TagType::Compound && !palette.list.empty())) {
    message = "palette is not a list of compounds";
    return Status::BadFormat;
  }
  std::vector<std::pair<std::string, std::string>> props;
  for (const Tag& e : palette.list) {
    const Tag* name = e.get("Name", TagType::String);
    if (name == nullptr) {
      message = "palette entry without Name";
      return Status::BadFormat;
    }
    props.clear();
    if (const Tag* p = e.get("Properties", TagType::Compound)) {
      for (const auto& [k, v] : p->compound) {
        if (v.type == TagType::String) props.emplace_back(k, v.string);
      }
    }
    if (blocks.block_index(name->string) < 0) {
      values.push_back(blocks.registry().fallback());
      unknown_names.push_back(name->string);
    } else {
      values.push_back(blocks.value(name->string, props, &tally));
      unknown_names.emplace_back();
    }
  }
  return Status::Ok;
}

Status decode_palette_section(const Tag& palette, const Tag* data, bool spanning, std::int32_t y,
                              const MinecraftBlocks& blocks, DecodedSection& out,
                              LookupTally& tally, std::string& message) {
  std::vector<std::uint16_t> pal;
  std::vector<std::string> unknown;
  if (Status s = resolve_palette(palette, blocks, pal, unknown, tally, message); s != Status::Ok) {
    message = "section " + std::to_string(y) + ": " + message;
    return s;
  }
  out = DecodedSection{};
  out.y = y;
  if (pal.empty()) {
    message = "section " + std::to_string(y) + ": empty palette";
    return Status::BadFormat;
  }
  std::vector<std::uint16_t> idx(kChunkCells, 0);
  if (pal.size() > 1 || (data != nullptr && !data->longs.empty())) {
    if (data == nullptr || data->longs.empty()) {
      if (pal.size() > 1) {
        message = "section " + std::to_string(y) + ": palette of " + std::to_string(pal.size()) +
                  " entries without block data";
        return Status::BadFormat;
      }
    } else {
      const std::size_t n = data->longs.size();
      int bits = std::max(4, ceil_log2(pal.size()));
      auto expected = [&](int b) -> std::size_t {
        if (spanning)
          return static_cast<std::size_t>(kChunkCells) * static_cast<std::size_t>(b) / 64;
        const int per = 64 / b;
        return static_cast<std::size_t>((kChunkCells + per - 1) / per);
      };
      if (expected(bits) != n) {
        int found = -1;
        for (int b = ceil_log2(pal.size()); b <= 16 && found < 0; ++b) {
          if (b >= 1 && expected(b) == n) found = b;
        }
        if (found < 0) {
          message = "section " + std::to_string(y) + ": " + std::to_string(n) +
                    " longs of block data fit no index width for a palette of " +
                    std::to_string(pal.size());
          return Status::BadFormat;
        }
        bits = found;
      }
      if (!unpack_indices(data->longs, bits, spanning, kChunkCells, idx.data())) {
        message = "section " + std::to_string(y) + ": block data too short";
        return Status::BadFormat;
      }
    }
  }
  std::vector<std::uint32_t> uses(pal.size(), 0);
  out.values.resize(kChunkCells);
  for (int i = 0; i < kChunkCells; ++i) {
    const std::uint16_t k = idx[static_cast<std::size_t>(i)];
    if (k >= pal.size()) {
      message = "section " + std::to_string(y) + ": palette index " + std::to_string(k) +
                " out of range (" + std::to_string(pal.size()) + " entries)";
      return Status::BadFormat;
    }
    ++uses[k];
    out.values[static_cast<std::size_t>(i)] = pal[k];
  }
  for (std::size_t k = 0; k < pal.size(); ++k) {
    if (!unknown[k].empty() && uses[k] > 0) tally.note_unknown(unknown[k], uses[k]);
  }
  finish_section(out);
  return Status::Ok;
}

/// "" when chunk y `v` (a section's Y, a column's yPos) is inside kMinChunkY..kMaxChunkY.
std::string chunk_y_error(const char* field, std::int64_t v) {
  if (v >= kMinChunkY && v <= kMaxChunkY) return {};
  return std::string(field) + " " + std::to_string(v) + " is outside the chunk y range " +
         std::to_string(kMinChunkY) + ".." + std::to_string(kMaxChunkY) +
         " (kMinChunkY..kMaxChunkY)";
}

/// A section's Y, checked against the chunk y range before any section is made for it (so a
/// column never holds more than kMaxColumnSections). Sets `st` (BadFormat: no Y; OutOfRange).
std::int32_t section_y(const Tag& s, Status& st, std::string& message) {
  const Tag* y = s.get("Y");
  if (y == nullptr || !y->is_integer()) {
    message = "a section has no Y";
    st = Status::BadFormat;
    return 0;
  }
  // 1.12 - 1.17 store Y as a Byte; negative sections exist from 1.18 on.
  if (std::string e = chunk_y_error("section Y", y->integer); !e.empty()) {
    message = e;
    st = Status::OutOfRange;
    return 0;
  }
  st = Status::Ok;
  return static_cast<std::int32_t>(y->integer);
}

Status decode_palette_column(const Tag& level, const Tag& sections, bool modern, bool spanning,
                             const MinecraftBlocks& blocks, DecodedColumn& out, LookupTally& tally,
                             std::string& message) {
  std::map<std::int32_t, DecodedSection> by_y;
  for (const Tag& s : sections.list) {
    Status yst = Status::Ok;
    const std::int32_t y = section_y(s, yst, message);
    if (yst != Status::Ok) return yst;
    const Tag* palette = nullptr;
    const Tag* data = nullptr;
    if (modern) {
      const Tag* bs = s.get("block_states", TagType::Compound);
      if (bs == nullptr) continue;  // light-only section
      palette = bs->get("palette", TagType::List);
      data = bs->get("data", TagType::LongArray);
    } else {
      palette = s.get("Palette", TagType::List);
      data = s.get("BlockStates", TagType::LongArray);
    }
    if (palette == nullptr) {
      if (data != nullptr) {
        message = "section " + std::to_string(y) + " has block data but no palette";
        return Status::BadFormat;
      }
      continue;  // sections that only carry light (e.g. Y = -1 before 1.18)
    }
    DecodedSection sec;
    if (Status st =
            decode_palette_section(*palette, data, spanning, y, blocks, sec, tally, message);
        st != Status::Ok) {
      return st;
    }
    by_y[y] = std::move(sec);
  }
  std::int32_t lo = 0, hi = 15;
  if (modern) {
    // 24 sections from yPos (1.18+), clipped to the chunk y range.
    const std::int64_t ypos = level.get_int("yPos", -4);
    if (std::string e = chunk_y_error("yPos", ypos); !e.empty()) {
      message = e;
      return Status::OutOfRange;
    }
    lo = static_cast<std::int32_t>(ypos);
    hi = std::min<std::int32_t>(lo + 23, kMaxChunkY);
  }
  fill_range(out, by_y, lo, hi);
  return Status::Ok;
}

// ---- 1.12 numeric ids ----

struct RawSection {
  std::array<std::uint16_t, kChunkCells> id{};
  std::array<std::uint8_t, kChunkCells> meta{};
};

class LegacyColumn {
 public:
  std::map<std::int32_t, RawSection> sections;

  bool raw(int x, int y, int z, int& id, int& meta) const {
    id = 0;
    meta = 0;
    if (x < 0 || x > 15 || z < 0 || z > 15) return false;  // outside the column: unknown
    auto it = sections.find(y >> 4);
    if (it == sections.end()) return true;  // missing section: air
    const int i = (x & 15) | ((z & 15) << 4) | ((y & 15) << 8);
    id = it->second.id[static_cast<std::size_t>(i)];
    meta = it->second.meta[static_cast<std::size_t>(i)];
    return true;
  }
};

bool full_cube(const BlockRegistry& reg, std::uint16_t v) {
  const auto& boxes = reg.type(v).boxes;
  if (boxes.size() != 1) return false;
  const Box& b = boxes[0];
  return b.min[0] == 0 && b.min[1] == 0 && b.min[2] == 0 && b.max[0] == 1 && b.max[1] == 1 &&
         b.max[2] == 1;
}

/// Whether a 1.12 connecting block of `kind` (1 fence, 2 pane, 3 wall; fence `group`) attaches
/// to the neighbour (id, meta).
bool connects(const MinecraftBlocks& blocks, int kind, int group, int id, int meta) {
  const std::string_view n = blocks.legacy_name(id);
  if (n.empty() || id == 0) return false;
  const int nk = legacy_connect_kind_of(n);
  const bool gate =
      n == "fence_gate" || (n.size() > 11 && n.substr(n.size() - 11) == "_fence_gate");
  if (kind == 1) {
    if (nk == 1) return legacy_fence_group(n) == group;
    if (gate) return true;
  } else if (kind == 2) {
    if (nk == 2 || n == "glass" || n == "stained_glass") return true;
  } else if (kind == 3) {
    if (nk == 3 || gate) return true;
  }
  if (n == "leaves" || n == "leaves2" || n == "barrier" || n == "glass" || n == "stained_glass") {
    return false;
  }
  return full_cube(blocks.registry(), blocks.legacy_value(id, meta));
}

Status decode_legacy_column(const Tag& sections, const MinecraftBlocks& blocks, DecodedColumn& out,
                            LookupTally& tally, std::string& message) {
  if (!blocks.legacy_loaded()) {
    message = "chunk uses pre-1.13 numeric ids but the 1.12 id table is not loaded";
    return Status::InvalidArgument;
  }
  LegacyColumn col;
  for (const Tag& s : sections.list) {
    Status yst = Status::Ok;
    const std::int32_t y = section_y(s, yst, message);
    if (yst != Status::Ok) return yst;
    const Tag* b = s.get("Blocks", TagType::ByteArray);
    const Tag* d = s.get("Data", TagType::ByteArray);
    const Tag* a = s.get("Add", TagType::ByteArray);
    if (b == nullptr) continue;
    if (b->bytes.size() != kChunkCells || d == nullptr || d->bytes.size() != kChunkCells / 2 ||
        (a != nullptr && a->bytes.size() != kChunkCells / 2)) {
      message =
          "section " + std::to_string(y) + ": Blocks must hold 4096 bytes and Data / Add 2048";
      return Status::BadFormat;
    }
    RawSection& raw = col.sections[y];
    for (int i = 0; i < kChunkCells; ++i) {
      const auto nib = [&](const Tag* t) {
        const auto byte = static_cast<std::uint8_t>(t->bytes[static_cast<std::size_t>(i >> 1)]);
        return (i & 1) != 0 ? (byte >> 4) & 15 : byte & 15;
      };
      int id = static_cast<std::uint8_t>(b->bytes[static_cast<std::size_t>(i)]);
      if (a != nullptr) id |= nib(a) << 8;
      raw.id[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(id);
      raw.meta[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(nib(d));
    }
  }
  std::map<std::int32_t, DecodedSection> by_y;
  std::map<int, std::uint64_t> unknown_cells;  // (id << 4 | meta) -> cells, ordered
  std::vector<std::pair<std::string, std::string>> props;
  for (const auto& [sy, raw] : col.sections) {
    DecodedSection sec;
    sec.y = sy;
    sec.values.resize(kChunkCells);
    for (int i = 0; i < kChunkCells; ++i) {
      const int id = raw.id[static_cast<std::size_t>(i)];
      const int meta = raw.meta[static_cast<std::size_t>(i)];
      std::uint16_t v = blocks.legacy_value(id, meta);
      if (!blocks.legacy_known(id, meta)) {
        ++unknown_cells[(id << 4) | meta];
      } else if (id != 0 && (blocks.legacy_two_half(id) || blocks.legacy_connect_kind(id) != 0)) {
        const int x = i & 15, z = (i >> 4) & 15, y = sy * 16 + (i >> 8);
        if (blocks.legacy_two_half(id)) {
          const bool upper = (meta & 8) != 0;
          int oid = 0, ometa = 0;
          col.raw(x, upper ? y - 1 : y + 1, z, oid, ometa);
          if (oid != id) ometa = upper ? 0 : 8;
          v = blocks.legacy_two_half_value(id, upper ? ometa : meta, upper ? meta : ometa, upper);
        } else {
          const int kind = blocks.legacy_connect_kind(id);
          const int group = legacy_fence_group(blocks.legacy_name(id));
          static constexpr std::array<std::pair<const char*, std::array<int, 2>>, 4> kSides = {
              {{"north", {0, -1}}, {"east", {1, 0}}, {"south", {0, 1}}, {"west", {-1, 0}}}};
          bool c[4];
          for (int k = 0; k < 4; ++k) {
            int nid = 0, nmeta = 0;
            const bool known =
                col.raw(x + kSides[static_cast<std::size_t>(k)].second[0], y,
                        z + kSides[static_cast<std::size_t>(k)].second[1], nid, nmeta);
            c[k] = known && connects(blocks, kind, group, nid, nmeta);
          }
          props.clear();
          for (int k = 0; k < 4; ++k) {
            const char* on = kind == 3 ? (c[k] ? "low" : "none") : (c[k] ? "true" : "false");
            props.emplace_back(kSides[static_cast<std::size_t>(k)].first, on);
          }
          if (kind == 3) {
            const bool straight =
                (c[0] && c[2] && !c[1] && !c[3]) || (c[1] && c[3] && !c[0] && !c[2]);
            props.emplace_back("up", straight ? "false" : "true");
          }
          v = blocks.value(blocks.registry().type(v).name, props, &tally);
        }
      }
      sec.values[static_cast<std::size_t>(i)] = v;
    }
    finish_section(sec);
    by_y[sy] = std::move(sec);
  }
  for (const auto& [key, cells] : unknown_cells) {
    const std::string_view n = blocks.legacy_name(key >> 4);
    tally.note_unknown((n.empty() ? "id " + std::to_string(key >> 4) : std::string(n)) + ":" +
                           std::to_string(key & 15),
                       cells);
  }
  fill_range(out, by_y, 0, 15);
  return Status::Ok;
}

}  // namespace

const char* anvil_format_name(AnvilFormat f) noexcept {
  switch (f) {
    case AnvilFormat::Legacy112:
      return "anvil-1.12";
    case AnvilFormat::Palette113:
      return "anvil-1.13";
    case AnvilFormat::Sections118:
      return "anvil-1.18";
  }
  return "?";
}

std::size_t DecodedColumn::uniform_count() const {
  return static_cast<std::size_t>(std::count_if(sections.begin(), sections.end(),
                                                [](const DecodedSection& s) { return s.uniform; }));
}

bool unpack_indices(std::span<const std::int64_t> longs, int bits, bool spanning, int count,
                    std::uint16_t* out) {
  if (bits < 1 || bits > 16 || count < 0) return false;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  if (spanning) {
    const std::size_t need =
        (static_cast<std::size_t>(count) * static_cast<std::size_t>(bits) + 63) / 64;
    if (longs.size() < need) return false;
    for (int i = 0; i < count; ++i) {
      const std::size_t bit = static_cast<std::size_t>(i) * static_cast<std::size_t>(bits);
      const std::size_t w = bit >> 6;
      const unsigned shift = static_cast<unsigned>(bit & 63);
      std::uint64_t v = static_cast<std::uint64_t>(longs[w]) >> shift;
      if (shift + static_cast<unsigned>(bits) > 64) {
        v |= static_cast<std::uint64_t>(longs[w + 1]) << (64 - shift);
      }
      out[i] = static_cast<std::uint16_t>(v & mask);
    }
    return true;
  }
  const int per = 64 / bits;
  const std::size_t need = static_cast<std::size_t>((count + per - 1) / per);
  if (longs.size() < need) return false;
  for (int i = 0; i < count; ++i) {
    const auto w = static_cast<std::uint64_t>(longs[static_cast<std::size_t>(i / per)]);
    out[i] = static_cast<std::uint16_t>((w >> ((i % per) * bits)) & mask);
  }
  return true;
}

Status decode_anvil_chunk(const Tag& root, const MinecraftBlocks& blocks, DecodedColumn& out,
                          LookupTally& tally, std::string& message) {
  out = DecodedColumn{};
  if (!blocks.loaded()) {
    message = "block registry not loaded";
    return Status::InvalidArgument;
  }
  if (root.type != TagType::Compound) {
    message = "chunk root is not a compound";
    return Status::BadFormat;
  }
  out.data_version = static_cast<std::int32_t>(root.get_int("DataVersion", 0));
  const Tag* level = root.get("Level", TagType::Compound);
  const bool modern = level == nullptr;  // 1.18+: no Level wrapper
  const Tag& lv = modern ? root : *level;
  const Tag* xp = lv.get("xPos");
  const Tag* zp = lv.get("zPos");
  if (xp == nullptr || zp == nullptr || !xp->is_integer() || !zp->is_integer()) {
    message = "chunk has no xPos / zPos";
    return Status::BadFormat;
  }
  for (const auto& [field, v] : {std::pair<const char*, std::int64_t>{"xPos", xp->integer},
                                 std::pair<const char*, std::int64_t>{"zPos", zp->integer}}) {
    if (v < -kMaxChunkXZ || v > kMaxChunkXZ) {
      message = std::string("chunk ") + field + " " + std::to_string(v) +
                " is outside the chunk range -" + std::to_string(kMaxChunkXZ) + ".." +
                std::to_string(kMaxChunkXZ) + " (kMaxChunkXZ: cells within kMaxCellXZ)";
      return Status::OutOfRange;
    }
  }
  out.x = static_cast<std::int32_t>(xp->integer);
  out.z = static_cast<std::int32_t>(zp->integer);
  out.status = std::string(lv.get_string("Status"));
  const Tag* sections = lv.get(modern ? "sections" : "Sections", TagType::List);
  Status st = Status::Ok;
  if (sections == nullptr) {
    // A chunk without a section list is empty (proto-chunks, or an all-air 1.12 column).
    static const Tag kEmpty = [] {
      Tag t;
      t.type = TagType::List;
      return t;
    }();
    sections = &kEmpty;
    if (lv.get(modern ? "sections" : "Sections") != nullptr) {
      message = "chunk sections are not a list";
      return Status::BadFormat;
    }
  }
  bool legacy = false;
  if (!modern) {
    for (const Tag& s : sections->list) {
      if (s.get("Blocks") != nullptr) legacy = true;
    }
    if (sections->list.empty() && out.data_version > 0 && out.data_version < 1451) legacy = true;
  }
  if (legacy) {
    out.format = AnvilFormat::Legacy112;
    st = decode_legacy_column(*sections, blocks, out, tally, message);
  } else {
    out.format = modern ? AnvilFormat::Sections118 : AnvilFormat::Palette113;
    st = decode_palette_column(lv, *sections, modern, out.data_version < kDataVersionNoSpan, blocks,
                               out, tally, message);
  }
  if (st != Status::Ok) {
    message = "chunk (" + std::to_string(out.x) + ", " + std::to_string(out.z) + "): " + message;
  }
  return st;
}

Status decode_anvil_chunk_bytes(std::span<const std::uint8_t> nbt_bytes,
                                const MinecraftBlocks& blocks, DecodedColumn& out,
                                LookupTally& tally, std::string& message) {
  nbt::Document doc;
  if (Status s = nbt::parse(nbt_bytes, doc, message); s != Status::Ok) return s;
  return decode_anvil_chunk(doc.root, blocks, out, tally, message);
}

Status load_decoded_column(const DecodedColumn& col, Space& space) {
  for (const DecodedSection& s : col.sections) {
    const ChunkPos pos{col.x, s.y, col.z};
    const Status st = s.uniform ? space.load_uniform_chunk(pos, s.uniform_value)
                                : space.load_chunk(pos, s.values);
    if (st != Status::Ok) return st;
  }
  return Status::Ok;
}

}  // namespace voxnav::detail
