// Loading worlds and the Minecraft block registry from files (native only: files + zlib).
//
//   load_minecraft_registry_files(dir, registry, blocks, message)
//       reads blocks.pc-1.21.1.json, blockCollisionShapes.pc-1.20.5.json and (when present)
//       blocks.pc-1.12.json from `dir` (e.g. data/blocks or ../shared/data/minecraft/blocks).
//   load_world_file(path, blocks, space, report, options)
//       detects the format by content (and extension for region files):
//         .mca   Anvil region (1.12 numeric ids, 1.13-1.17 palettes, 1.18+ sections)
//         .schem Sponge schematic v1/v2/v3 (gzip NBT), placed with its minimum corner at
//                options.schematic_origin (default (0,0,0)); nothing is added around it
//         .map   Moving AI grid map (floor at y = 0, walls at y = 1..4 built from "stone")
//       anything else -> Status::Unsupported with a message.
// Loading is all-or-nothing: a file is decoded completely before the first chunk is loaded, so
// on error the space is unchanged.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/io/minecraft_registry.h"
#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "region_file.h"
#include "voxnav/status.h"

namespace voxnav::native {

struct WorldLoadOptions {
  RegionOptions region;                    ///< proto-chunk handling for .mca files
  CellPos schematic_origin{0, 0, 0};  ///< where a schematic's minimum corner goes
};

struct WorldLoadReport {
  std::string format;  ///< "anvil-1.12", "anvil-1.13", "anvil-1.18", "sponge-v2", "movingai-map"
  std::string path;
  std::size_t columns_loaded = 0;        ///< chunk columns (regions) or 0
  std::size_t chunks_loaded = 0;         ///< 16^3 chunks loaded into the space
  std::size_t uniform_chunks = 0;        ///< of those, loaded with load_uniform_chunk
  std::size_t chunks_skipped = 0;        ///< region chunks not decodable by this build (LZ4, .mcc)
  std::size_t empty_proto_chunks = 0;    ///< region proto-chunks without blocks, left out
  std::int32_t data_version = 0;         ///< highest DataVersion seen (0 when none)
  std::uint64_t unknown_blocks = 0;      ///< cells whose name / id was unknown -> fallback
  std::uint64_t unknown_properties = 0;  ///< property values not valid for their block
  std::vector<std::string> unknown_names;  ///< first few unknown names (first-seen order)
  bool has_bounds = false;
  CellPos min, max;  ///< cells covered by the loaded chunks (inclusive)
  double seconds = 0;     ///< wall time of read + decode + load
  std::string message;    ///< the error on failure; warnings (unknown names ...) on success
};

/// Reads the registry JSON files from `dir`. `blocks.pc-1.12.json` is optional (without it
/// 1.12 regions fail with InvalidArgument). Errors: NotFound (a required file is missing),
/// BadFormat (JSON). `message` gets the loader's summary.
Status load_minecraft_registry_files(const std::string& dir, detail::BlockRegistry& registry,
                                     detail::MinecraftBlocks& blocks, std::string& message);

/// Loads a world file into `space`, whose registry must be the one `blocks` was loaded into.
/// Errors: NotFound (cannot open), Unsupported (unknown format / version), BadFormat (malformed
/// or truncated file), InvalidArgument (registry mismatch, 1.12 table not loaded). On error
/// `report.message` explains and the space is unchanged.
Status load_world_file(const std::string& path, const detail::MinecraftBlocks& blocks,
                       detail::Space& space, WorldLoadReport& report,
                       const WorldLoadOptions& options = {});

/// Reads a whole file. Errors: NotFound.
Status read_file_bytes(const std::string& path, std::vector<std::uint8_t>& out,
                       std::string& message);

}  // namespace voxnav::native
