#include "world_files.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>

#include "engine/io/anvil_chunk.h"
#include "engine/io/movingai.h"
#include "engine/io/nbt.h"
#include "engine/io/schematic.h"
#include "voxnav/native/files.h"

namespace voxnav::native {

namespace {


std::string join_path(const std::string& dir, const char* name) {
  if (dir.empty()) return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

void extend_bounds(WorldLoadReport& r, CellPos lo, CellPos hi) {
  if (!r.has_bounds) {
    r.min = lo;
    r.max = hi;
    r.has_bounds = true;
    return;
  }
  r.min = CellPos{std::min(r.min.x, lo.x), std::min(r.min.y, lo.y), std::min(r.min.z, lo.z)};
  r.max = CellPos{std::max(r.max.x, hi.x), std::max(r.max.y, hi.y), std::max(r.max.z, hi.z)};
}

void copy_tally(const detail::LookupTally& t, WorldLoadReport& r) {
  r.unknown_blocks = t.unknown_blocks;
  r.unknown_properties = t.unknown_properties;
  r.unknown_names = t.first_unknown;
  if (t.unknown_blocks > 0) {
    std::string names;
    for (const std::string& n : t.first_unknown) names += (names.empty() ? "" : ", ") + n;
    r.message = "warning: " + std::to_string(t.unknown_blocks) +
                " blocks with unknown names were loaded as voxnav:unknown (solid): " + names;
  }
  if (t.unknown_properties > 0) {
    r.message += (r.message.empty() ? "" : "; ") + std::string("warning: ") +
                 std::to_string(t.unknown_properties) + " unknown property values used the default";
  }
}

bool looks_like_movingai(const std::vector<std::uint8_t>& b) {
  static constexpr std::string_view kType = "type ";
  return b.size() >= kType.size() && std::equal(kType.begin(), kType.end(), b.begin());
}

bool is_gzip(const std::vector<std::uint8_t>& b) {
  return b.size() >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

Status load_region(const std::vector<std::uint8_t>& file, const detail::MinecraftBlocks& blocks,
                   detail::Space& space, WorldLoadReport& r, const WorldLoadOptions& o) {
  std::vector<detail::DecodedColumn> columns;
  detail::LookupTally tally;
  RegionDecodeStats stats;
  std::string msg;
  if (Status s = decode_region(file, blocks, o.region, columns, tally, stats, msg);
      s != Status::Ok) {
    r.message = msg;
    return s;
  }
  r.format = columns.empty() ? "anvil" : detail::anvil_format_name(columns.front().format);
  for (const auto& c : columns) {
    if (detail::anvil_format_name(c.format) != r.format) r.format = "anvil-mixed";
  }
  for (const auto& c : columns) {
    if (Status s = detail::load_decoded_column(c, space); s != Status::Ok) {
      r.message = "loading chunk column (" + std::to_string(c.x) + ", " + std::to_string(c.z) +
                  ") into the space failed: " + status_name(s);
      return s;
    }
    r.chunks_loaded += c.sections.size();
    r.uniform_chunks += c.uniform_count();
    if (!c.sections.empty()) {
      extend_bounds(r, CellPos{c.x * 16, c.sections.front().y * 16, c.z * 16},
                    CellPos{c.x * 16 + 15, c.sections.back().y * 16 + 15, c.z * 16 + 15});
    }
  }
  r.columns_loaded = columns.size();
  r.chunks_skipped = stats.skipped;
  r.empty_proto_chunks = stats.empty_proto;
  r.data_version = stats.data_version_max;
  copy_tally(tally, r);
  if (stats.skipped > 0) {
    r.message += (r.message.empty() ? "" : "; ") + std::string("warning: ") +
                 std::to_string(stats.skipped) + " chunks skipped (" + stats.first_skip_reason +
                 ")";
  }
  return Status::Ok;
}

Status load_schematic(const std::vector<std::uint8_t>& file, const detail::MinecraftBlocks& blocks,
                      detail::Space& space, WorldLoadReport& r, const WorldLoadOptions& o) {
  std::vector<std::uint8_t> raw;
  std::string msg;
  if (Status s = inflate_bytes(file, raw, msg); s != Status::Ok) {
    r.message = "schematic: " + msg;
    return s;
  }
  detail::nbt::Document doc;
  if (Status s = detail::nbt::parse(raw, doc, msg); s != Status::Ok) {
    r.message = "schematic: " + msg;
    return s;
  }
  const detail::nbt::Tag& root = doc.root;
  const bool sponge = root.get("Schematic", detail::nbt::TagType::Compound) != nullptr ||
                      root.get("BlockData") != nullptr || root.get("Palette") != nullptr;
  if (!sponge) {
    r.message = root.get("Materials") != nullptr
                    ? "MCEdit .schematic files (numeric ids) are not supported; use Sponge .schem"
                    : "gzip NBT file is neither a Sponge schematic nor a known world format";
    return Status::Unsupported;
  }
  detail::DecodedSchematic sch;
  detail::LookupTally tally;
  if (Status s = detail::decode_sponge_schematic(root, blocks, o.schematic_origin, sch, tally, msg);
      s != Status::Ok) {
    r.message = "schematic: " + msg;
    return s;
  }
  if (Status s = detail::load_decoded_chunks(sch.chunks, space); s != Status::Ok) {
    r.message = std::string("schematic: loading into the space failed: ") + status_name(s);
    return s;
  }
  r.format = "sponge-v" + std::to_string(sch.version);
  r.data_version = sch.data_version;
  r.chunks_loaded = sch.chunks.size();
  r.uniform_chunks = static_cast<std::size_t>(
      std::count_if(sch.chunks.begin(), sch.chunks.end(),
                    [](const detail::DecodedChunk& c) { return c.data.uniform; }));
  extend_bounds(r, sch.min, sch.max);
  copy_tally(tally, r);
  return Status::Ok;
}

Status load_movingai(const std::vector<std::uint8_t>& file, const detail::MinecraftBlocks& blocks,
                     detail::Space& space, WorldLoadReport& r) {
  detail::MovingAiMap map;
  std::string msg;
  const std::string_view text(reinterpret_cast<const char*>(file.data()), file.size());
  if (Status s = detail::parse_movingai_map(text, map, msg); s != Status::Ok) {
    r.message = msg;
    return s;
  }
  const std::uint16_t stone = blocks.registry().find("stone");
  detail::MovingAiWorldInfo info;
  if (Status s = detail::build_movingai_world(map, stone, space, &info); s != Status::Ok) {
    r.message = std::string("building the Moving AI world failed: ") + status_name(s);
    return s;
  }
  r.format = "movingai-map";
  r.chunks_loaded = info.chunks_loaded;
  r.uniform_chunks = info.uniform_chunks;
  extend_bounds(r, info.min, info.max);
  return Status::Ok;
}

}  // namespace

Status read_file_bytes(const std::string& path, std::vector<std::uint8_t>& out,
                       std::string& message) {
  return read_file(path, out, &message);
}

Status load_minecraft_registry_files(const std::string& dir, detail::BlockRegistry& registry,
                                     detail::MinecraftBlocks& blocks, std::string& message) {
  std::vector<std::uint8_t> bj, sj, lj;
  std::string msg;
  if (Status s = read_file_bytes(join_path(dir, "blocks.pc-1.21.1.json"), bj, msg);
      s != Status::Ok) {
    message = msg;
    return s;
  }
  if (Status s = read_file_bytes(join_path(dir, "blockCollisionShapes.pc-1.20.5.json"), sj, msg);
      s != Status::Ok) {
    message = msg;
    return s;
  }
  if (Status s = blocks.load(bj, sj, registry, msg); s != Status::Ok) {
    message = msg;
    return s;
  }
  message = msg;
  if (read_file_bytes(join_path(dir, "blocks.pc-1.12.json"), lj, msg) == Status::Ok) {
    if (Status s = blocks.load_legacy(lj, msg); s != Status::Ok) {
      message = msg;
      return s;
    }
    message += "; " + msg;
  } else {
    message += "; no blocks.pc-1.12.json (pre-1.13 worlds unavailable)";
  }
  return Status::Ok;
}

Status load_world_file(const std::string& path, const detail::MinecraftBlocks& blocks,
                       detail::Space& space, WorldLoadReport& report,
                       const WorldLoadOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  report = WorldLoadReport{};
  report.path = path;
  if (!blocks.loaded() || &blocks.registry() != &space.registry()) {
    report.message = "the space's registry is not the one the Minecraft blocks were loaded into";
    return Status::InvalidArgument;
  }
  std::vector<std::uint8_t> file;
  if (Status s = read_file_bytes(path, file, report.message); s != Status::Ok) return s;
  Status st;
  if (ends_with(path, ".mca") || ends_with(path, ".mcr")) {
    st = load_region(file, blocks, space, report, options);
  } else if (is_gzip(file)) {
    st = load_schematic(file, blocks, space, report, options);
  } else if (looks_like_movingai(file) || ends_with(path, ".map")) {
    st = load_movingai(file, blocks, space, report);
  } else {
    report.message =
        "unknown world format (expected an .mca region, a .schem Sponge schematic "
        "or a Moving AI .map)";
    st = Status::Unsupported;
  }
  if (st != Status::Ok && report.message.empty()) report.message = status_name(st);
  if (st != Status::Ok) report.message = "'" + path + "': " + report.message;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return st;
}

}  // namespace voxnav::native
