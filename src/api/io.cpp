// voxnav/io.h: world files from bytes into a World (all-or-nothing), Moving AI scenarios.
#include "voxnav/io.h"

#include <algorithm>
#include <exception>
#include <new>
#include <string>
#include <tuple>
#include <vector>

#include "api_text.h"
#include "memory_need.h"
#include "engine/io/anvil_chunk.h"
#include "engine/io/movingai.h"
#include "engine/io/nbt.h"
#include "engine/io/region.h"
#include "engine/io/schematic.h"
#include "engine/nav/world_access.h"
#include "voxnav/world.h"

namespace voxnav {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  for (std::size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

void extend_bounds(LoadReport& r, CellPos lo, CellPos hi) {
  if (!r.has_bounds) {
    r.min = lo;
    r.max = hi;
    r.has_bounds = true;
    return;
  }
  r.min = CellPos{std::min(r.min.x, lo.x), std::min(r.min.y, lo.y), std::min(r.min.z, lo.z)};
  r.max = CellPos{std::max(r.max.x, hi.x), std::max(r.max.y, hi.y), std::max(r.max.z, hi.z)};
}

void copy_tally(const detail::LookupTally& t, LoadReport& r) {
  r.unknown_blocks = t.unknown_blocks;
  r.unknown_properties = t.unknown_properties;
  r.unknown_names.clear();
  for (std::size_t i = 0; i < t.first_unknown.size() && i < kMaxReportedUnknownNames; ++i)
    r.unknown_names.push_back(UnknownBlock{t.first_unknown[i], t.first_unknown_counts[i]});
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

/// The World's Minecraft names, or InvalidArgument with a message.
Status minecraft_blocks(World& world, const detail::MinecraftBlocks** out, LoadReport& r) {
  const detail::WorldState& st = detail::WorldAccess::state(world);
  if (!st.blocks.loaded()) {
    r.message = "load the Minecraft block registry first (load_minecraft_blocks)";
    return Status::InvalidArgument;
  }
  *out = &st.blocks;
  return Status::Ok;
}

/// Checks every column fits the World, then loads them all (the all-or-nothing step).
// Two columns of one load at the same chunk column (a region whose slots repeat a position):
// BadFormat naming both, as the second would silently replace the first.
Status check_distinct_columns(const std::vector<detail::DecodedColumn>& columns, LoadReport& r) {
  std::vector<std::tuple<std::int32_t, std::int32_t, std::size_t>> at;
  at.reserve(columns.size());
  for (std::size_t i = 0; i < columns.size(); ++i) at.emplace_back(columns[i].x, columns[i].z, i);
  std::sort(at.begin(), at.end());
  for (std::size_t k = 1; k < at.size(); ++k) {
    const auto& [x, z, i] = at[k - 1];
    if (std::get<0>(at[k]) != x || std::get<1>(at[k]) != z) continue;
    r.message = "columns " + std::to_string(i) + " and " + std::to_string(std::get<2>(at[k])) +
                " both hold chunk column (" + std::to_string(x) + ", " + std::to_string(z) + ")";
    return Status::BadFormat;
  }
  return Status::Ok;
}

Status install_columns(World& world, const std::vector<detail::DecodedColumn>& columns,
                       const detail::LookupTally& tally, const detail::RegionDecodeStats& stats,
                       LoadReport& r) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const detail::DecodedColumn& c = columns[i];
    for (const detail::DecodedSection& s : c.sections) {
      if (std::string e = detail::chunk_range_error("chunk", ChunkPos{c.x, s.y, c.z}); !e.empty()) {
        r.message = "column " + std::to_string(i) + ": " + e;
        return Status::OutOfRange;
      }
    }
  }
  if (Status s = check_distinct_columns(columns, r); s != Status::Ok) return s;
  detail::Space& space = detail::WorldAccess::state(world).space;
  r.format = columns.empty() ? "anvil" : detail::anvil_format_name(columns.front().format);
  for (const auto& c : columns) {
    if (detail::anvil_format_name(c.format) != r.format) r.format = "anvil-mixed";
  }
  std::vector<detail::ChunkLoad> batch;
  for (const auto& c : columns) {
    for (const detail::DecodedSection& s : c.sections)
      batch.push_back(detail::ChunkLoad{ChunkPos{c.x, s.y, c.z}, s.uniform, s.uniform_value,
                                        s.values});
  }
  if (batch.size() > kMaxLoadChunks) {
    r.message = std::to_string(batch.size()) + " chunks in one load, more than " +
                std::to_string(kMaxLoadChunks) + " (kMaxLoadChunks)";
    return Status::OutOfRange;
  }
  // One batch: every chunk or none (the World is unchanged on any error), if the heap holds it.
  detail::BudgetCharge charge;
  if (Status s = detail::check_chunk_load(detail::WorldAccess::state(world), batch,
                                          "loading the columns", r.message, charge);
      s != Status::Ok)
    return s;
  if (Status s = space.load_chunks(batch); s != Status::Ok) {
    r.message = std::string("loading the chunks into the world failed: ") + status_name(s);
    return s;
  }
  detail::commit_charge(detail::WorldAccess::state(world), std::move(charge));
  for (const auto& c : columns) {
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
  r.proto_chunks_left_out = stats.proto_left_out;
  r.data_version = stats.data_version_max;
  r.data_version_min = stats.data_version_min;
  copy_tally(tally, r);
  if (stats.skipped > 0) {
    r.message += (r.message.empty() ? "" : "; ") + std::string("warning: ") +
                 std::to_string(stats.skipped) + " chunks skipped (" + stats.first_skip_reason +
                 ")";
  }
  return Status::Ok;
}

Status check_options(const LoadOptions& o, LoadReport& r) {
  if (o.max_inflated_bytes < 1 || o.max_inflated_bytes > kMaxInflatedBytes) {
    r.message = "max_inflated_bytes " + std::to_string(o.max_inflated_bytes) +
                " is outside 1.." + std::to_string(kMaxInflatedBytes);
    return Status::InvalidArgument;
  }
  return Status::Ok;
}

Status region_impl(World& world, std::span<const std::uint8_t> region, const LoadOptions& o,
                   LoadReport& r) {
  const detail::MinecraftBlocks* blocks = nullptr;
  if (Status s = minecraft_blocks(world, &blocks, r); s != Status::Ok) return s;
  if (Status s = check_options(o, r); s != Status::Ok) return s;
  std::vector<detail::DecodedColumn> columns;
  detail::LookupTally tally;
  detail::RegionDecodeStats stats;
  if (Status s = detail::decode_region(region, *blocks, o, columns, tally, stats, r.message);
      s != Status::Ok)
    return s;
  return install_columns(world, columns, tally, stats, r);
}

Status schematic_impl(World& world, std::span<const std::uint8_t> file, const LoadOptions& o,
                      LoadReport& r) {
  const detail::MinecraftBlocks* blocks = nullptr;
  if (Status s = minecraft_blocks(world, &blocks, r); s != Status::Ok) return s;
  if (Status s = check_options(o, r); s != Status::Ok) return s;
  if (o.inflate == nullptr) {
    r.message = "schematic: gzip data, and no inflate function was given";
    return Status::Unsupported;
  }
  std::vector<std::uint8_t> raw;
  std::string msg;
  if (Status s = o.inflate(file, raw, o.max_inflated_bytes, &msg); s != Status::Ok) {
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
  const CellPos origin{o.schematic_origin.x, o.schematic_origin.y, o.schematic_origin.z};
  if (Status s = detail::decode_sponge_schematic(root, *blocks, origin, sch, tally, msg);
      s != Status::Ok) {
    r.message = "schematic: " + msg;
    return s;
  }
  detail::Space& space = detail::WorldAccess::state(world).space;
  std::vector<detail::ChunkLoad> batch;
  batch.reserve(sch.chunks.size());
  for (const detail::DecodedChunk& c : sch.chunks)
    batch.push_back(detail::ChunkLoad{c.pos, c.data.uniform, c.data.uniform_value, c.data.values});
  detail::BudgetCharge charge;
  if (Status s = detail::check_chunk_load(detail::WorldAccess::state(world), batch,
                                          "loading the schematic", r.message, charge);
      s != Status::Ok)
    return s;
  if (Status s = space.load_chunks(batch); s != Status::Ok) {
    r.message = std::string("schematic: loading into the world failed: ") + status_name(s);
    return s;
  }
  detail::commit_charge(detail::WorldAccess::state(world), std::move(charge));
  r.format = "sponge-v" + std::to_string(sch.version);
  r.data_version = r.data_version_min = sch.data_version;
  r.chunks_loaded = sch.chunks.size();
  r.uniform_chunks = static_cast<std::size_t>(
      std::count_if(sch.chunks.begin(), sch.chunks.end(),
                    [](const detail::DecodedChunk& c) { return c.data.uniform; }));
  extend_bounds(r, sch.min, sch.max);
  copy_tally(tally, r);
  return Status::Ok;
}

Status movingai_impl(World& world, std::string_view text, LoadReport& r) {
  const detail::MinecraftBlocks* blocks = nullptr;
  if (Status s = minecraft_blocks(world, &blocks, r); s != Status::Ok) return s;
  detail::MovingAiMap map;
  if (Status s = detail::parse_movingai_map(text, map, r.message); s != Status::Ok) return s;
  const detail::BlockRegistry& reg = blocks->registry();
  if (!reg.has("stone")) {
    r.message = "the registry has no 'stone' block to build Moving AI walls with";
    return Status::InvalidArgument;
  }
  // A column of chunks with arrays (floor and walls) and one of air above, per 16 x 16 tiles.
  const std::size_t columns = static_cast<std::size_t>((map.width + 15) / 16) *
                              static_cast<std::size_t>((map.height + 15) / 16);
  detail::WorldState& ws = detail::WorldAccess::state(world);
  // Charged as many arrays and as many built chunks as the map has chunks (an upper bound: the
  // air column above the floor is built as well).
  detail::BudgetCharge charge;
  charge.now = detail::times_bytes(2 * columns, detail::kChunkArrayBytes + detail::kChunkRecordBytes);
  charge.pending = detail::times_bytes(detail::nav_classes(ws),
                                       detail::times_bytes(2 * columns, detail::kNavBuildPeakBytes));
  if (Status s = detail::check_charge(ws, charge,
          "the Moving AI map of " + std::to_string(2 * columns) + " chunks", r.message);
      s != Status::Ok)
    return s;
  detail::MovingAiWorldInfo info;
  detail::Space& space = ws.space;
  if (Status s = detail::build_movingai_world(map, reg.find("stone"), space, &info);
      s != Status::Ok) {
    r.message = std::string("building the Moving AI world failed: ") + status_name(s);
    return s;
  }
  detail::commit_charge(ws, std::move(charge));
  r.format = "movingai-map";
  r.chunks_loaded = info.chunks_loaded;
  r.uniform_chunks = info.uniform_chunks;
  extend_bounds(r, info.min, info.max);
  return Status::Ok;
}

/// Runs a loader with a fresh report (a local one when the caller passed none).
template <typename F>
Status with_report(LoadReport* report, F&& f) {
  LoadReport local;
  LoadReport& r = report != nullptr ? *report : local;
  r = LoadReport{};
  const Status s = detail::guarded(r.message, [&] { return f(r); });
  if (s != Status::Ok) {
    const std::string msg = r.message.empty() ? std::string(status_name(s)) : r.message;
    r = LoadReport{};
    r.message = msg;
  }
  return s;
}

}  // namespace

Status load_world_bytes(World& world, std::span<const std::uint8_t> bytes, std::string_view name,
                        const LoadOptions& options, LoadReport* report) {
  return with_report(report, [&](LoadReport& r) {
    Status st;
    static constexpr std::string_view kType = "type ";
    const bool gzip = bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
    const bool movingai =
        bytes.size() >= kType.size() && std::equal(kType.begin(), kType.end(), bytes.begin());
    if (ends_with(name, ".mca") || ends_with(name, ".mcr")) {
      st = region_impl(world, bytes, options, r);
    } else if (gzip) {
      st = schematic_impl(world, bytes, options, r);
    } else if (movingai || ends_with(name, ".map")) {
      st = movingai_impl(
          world, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), r);
    } else {
      r.message =
          "unknown world format (expected an .mca region, a .schem Sponge schematic "
          "or a Moving AI .map)";
      st = Status::Unsupported;
    }
    if (st != Status::Ok && !name.empty()) {
      std::string named(1, '\'');
      named.append(name).append("': ").append(r.message);
      r.message = std::move(named);
    }
    return st;
  });
}

Status load_schematic(World& world, std::span<const std::uint8_t> gzip_bytes,
                      const LoadOptions& options, LoadReport* report) {
  return with_report(report,
                     [&](LoadReport& r) { return schematic_impl(world, gzip_bytes, options, r); });
}

Status load_movingai_map(World& world, std::string_view text, LoadReport* report) {
  return with_report(report, [&](LoadReport& r) { return movingai_impl(world, text, r); });
}

Status load_anvil_region(World& world, std::span<const std::uint8_t> region,
                         const LoadOptions& options, LoadReport* report) {
  return with_report(report,
                     [&](LoadReport& r) { return region_impl(world, region, options, r); });
}

Status list_region_chunks(std::span<const std::uint8_t> region, std::vector<RegionChunk>* out,
                          std::string* error) {
  std::vector<RegionChunk> local;
  std::string msg;
  const Status s = detail::guarded(msg, [&] {
    return detail::parse_region_table(region, out != nullptr ? *out : local, msg);
  });
  if (s != Status::Ok && error != nullptr) *error = msg;
  return s;
}

Status load_anvil_columns(World& world, std::span<const std::span<const std::uint8_t>> columns,
                          const LoadOptions& options, LoadReport* report) {
  return with_report(report, [&](LoadReport& r) {
    const detail::MinecraftBlocks* blocks = nullptr;
    if (Status s = minecraft_blocks(world, &blocks, r); s != Status::Ok) return s;
    std::size_t bytes = 0, largest = 0;
    for (const std::span<const std::uint8_t>& c : columns)
      bytes += c.size(), largest = std::max(largest, c.size());
    detail::BudgetCharge decode;  // with the builds the World already has pending
    decode.now = detail::anvil_decode_bytes(bytes, columns.size(), largest);
    if (Status s = detail::check_charge(detail::WorldAccess::state(world), decode,
                                        "decoding " + std::to_string(columns.size()) +
                                            " Anvil columns of " + std::to_string(bytes) + " bytes",
                                        r.message);
        s != Status::Ok)
      return s;
    std::vector<detail::DecodedColumn> cols;
    detail::LookupTally tally;
    detail::RegionDecodeStats stats;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      detail::DecodedColumn col;
      detail::LookupTally t;
      std::string msg;
      if (Status s = detail::decode_anvil_chunk_bytes(columns[i], *blocks, col, t, msg);
          s != Status::Ok) {
        r.message = "column " + std::to_string(i) + ": " + msg;
        return s;
      }
      if (!detail::keep_column(col, options, stats)) continue;
      tally.merge(t);
      cols.push_back(std::move(col));
    }
    return install_columns(world, cols, tally, stats, r);
  });
}

Status load_anvil_columns(World& world, std::span<const std::uint8_t> bytes,
                          std::span<const std::uint32_t> offsets, const LoadOptions& options,
                          LoadReport* report) {
  return with_report(report, [&](LoadReport& r) {
    if (offsets.empty() || offsets.front() != 0 || offsets.back() != bytes.size()) {
      r.message = "offsets must run from 0 to the length of the columns' bytes";
      return Status::InvalidArgument;
    }
    std::vector<std::span<const std::uint8_t>> columns;
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
      if (offsets[i + 1] < offsets[i]) {
        r.message = "offsets must not decrease";
        return Status::InvalidArgument;
      }
      columns.push_back(bytes.subspan(offsets[i], offsets[i + 1] - offsets[i]));
    }
    return load_anvil_columns(world, columns, options, &r);
  });
}

Status load_minecraft_legacy_ids(World& world, std::span<const std::uint8_t> json,
                                 std::string* error) {
  detail::MinecraftBlocks& blocks = detail::WorldAccess::state(world).blocks;
  std::string msg;
  Status s = Status::InvalidArgument;
  if (!blocks.loaded())
    msg = "load the Minecraft block registry first (load_minecraft_blocks)";
  else
    s = detail::guarded(msg, [&] { return blocks.load_legacy(json, msg); });
  if (error != nullptr) *error = msg;
  return s;
}

Status parse_movingai_scen(std::string_view text, std::vector<MovingAiScenario>* out,
                           std::string* error) {
  std::vector<MovingAiScenario> local;
  std::string msg;
  const Status s = detail::guarded(msg, [&] {
    return detail::parse_movingai_scen(text, out != nullptr ? *out : local, msg);
  });
  if (s != Status::Ok && error != nullptr) *error = msg;
  return s;
}

}  // namespace voxnav
