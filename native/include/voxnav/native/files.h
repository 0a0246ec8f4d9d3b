// voxnav native helpers: files and zlib around voxnav/io.h (the core reads no files and links no
// zlib). Link voxnav::native.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "voxnav/io.h"
#include "voxnav/status.h"

namespace voxnav {
class World;
}

namespace voxnav::native {

/// Reads a whole file into `out` (replaced). Returns: Ok; NotFound (cannot open or read) with
/// `error` (may be null); OutOfMemory (`out` is empty).
[[nodiscard]] Status read_file(const std::string& path, std::vector<std::uint8_t>& out,
                               std::string* error);

/// zlib's inflate for gzip or zlib data (told by the header); an InflateFn for LoadOptions.
/// Returns: Ok; BadFormat (corrupt or truncated data); OutOfRange (more than `max_out` bytes);
/// OutOfMemory (an allocation failed; `out` is empty). Memory use is bounded by `max_out`.
[[nodiscard]] Status zlib_inflate(std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out,
                                  std::size_t max_out, std::string* error);

/// Reads `path` and loads it with load_world_bytes (the format told by content and extension);
/// options.inflate defaults to zlib_inflate when null. Returns: those of read_file and
/// load_world_bytes; report->message names the file on error. `report` may be null.
[[nodiscard]] Status load_world_file(World& world, const std::string& path,
                                     const LoadOptions& options, LoadReport* report);

/// Loads the Minecraft block registry into `world` from minecraft-data files in `dir` (e.g.
/// data/blocks or ../shared/data/minecraft/blocks): blocks.pc-1.21.1.json,
/// blockCollisionShapes.pc-1.20.5.json and, when present, blocks.pc-1.12.json (the ids of 1.12
/// regions). Returns: Ok; NotFound (a required file is missing); BadFormat (JSON); Busy (chunks
/// already loaded). `message` (may be null) gets the error, or a summary on success.
[[nodiscard]] Status load_minecraft_blocks_dir(World& world, const std::string& dir,
                                               std::string* message);

}  // namespace voxnav::native
