// voxnav - saved navigation: a World's built navigation (layers 0 and 2 of every class that has
// navigation, optionally its blocks) as one versioned, checksummed byte buffer, and its import,
// which installs the navigation instead of building it. No file I/O: the caller stores the bytes
// (a file, IndexedDB ...). Format, versioning and the fallback: docs/saving.md.
//
//   std::vector<std::uint8_t> bytes;
//   if (export_navigation(world, ExportDef{}, &bytes) == Status::Ok) store(bytes);
//   ...
//   load the same blocks into a new World, then
//   if (import_navigation(world2, bytes) != Status::Ok) world2.update();  // rebuild instead
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "voxnav/error.h"
#include "voxnav/status.h"

namespace voxnav {

class World;

/// The saved-navigation layout this build writes, and the only one it imports (a file of another
/// version is refused with Unsupported, "version 3, expected 1").
inline constexpr std::uint32_t kNavigationFormatVersion = 1;

struct ExportDef {
  /// Also save the loaded chunks' block values; the import then loads them into a World that has
  /// none, so one buffer restores blocks and navigation (bigger: 4.7 MB instead of 2.7 MB for the
  /// shipped region).
  bool include_blocks = false;
};

/// What import_navigation installed.
struct ImportReport {
  std::size_t chunks = 0;   ///< loaded chunks the file describes
  std::size_t classes = 0;  ///< movement classes whose navigation was installed
  bool blocks = false;      ///< the file carried the blocks and they were loaded
};

/// Writes the navigation of every movement class the World has navigation for (the walker's
/// always, another class's once a profile of it was added) into `*out` (replaced; caller-owned).
/// The navigation must be up to date: call World::update() after the last block change, and with
/// streaming until pending_chunk_builds() and deferred_chunk_builds() are 0.
/// The bytes are the same for the same World natively and in wasm. Size: a few bytes per uniform
/// chunk, a few hundred bytes to a few KB per chunk with terrain (2.7 MB for the 4,048 chunks of
/// the shipped region; 4.7 MB with its blocks). [Limit: fewer than 2^32 sections (one per loaded
/// chunk, plus one per class and chunk) and 2^32 island labels per class]
/// Returns: Ok; InvalidArgument (null `out`); Busy (changes not processed by an update, chunk
/// builds pending or deferred; `out` unchanged); OutOfRange (past the section limit);
/// OutOfMemory. `error` (may be null) receives the
/// failure.
[[nodiscard]] Status export_navigation(World& world, const ExportDef& def,
                                       std::vector<std::uint8_t>* out, CallError* error = nullptr);

/// What a saved-navigation file holds, from its header.
struct NavigationInfo {
  std::uint32_t version = 0;  ///< format version (kNavigationFormatVersion)
  /// VOXNAV_VERSION (voxnav/version.h) of the library that wrote it; only files of this library
  /// version import (another release may build different navigation). Filled even when that is
  /// why the call failed.
  std::uint32_t library_version = 0;
  bool blocks = false;      ///< it carries the blocks (import into a World without chunks)
  std::size_t chunks = 0;   ///< loaded chunks it describes
  std::size_t classes = 0;  ///< movement classes it holds navigation for
};

/// Reads a file's header after checking its magic, version, sizes, checksum and library version
/// (no World needed): whether it carries its blocks, how many chunks and classes. Returns: Ok;
/// BadFormat, Unsupported as import_navigation for those checks; InvalidArgument (null `out`).
[[nodiscard]] Status navigation_info(std::span<const std::uint8_t> bytes, NavigationInfo* out,
                                     CallError* error = nullptr);

/// Installs navigation exported by export_navigation, without building it. The whole buffer is
/// checked first: magic, version, sizes, the CRC-32 checksum, every section's bounds and payload,
/// the block registry's fingerprint, each class's body envelope, and the World's blocks (without
/// saved blocks the World must hold exactly the saved chunks, block for block: load them first;
/// with saved blocks it must hold no chunk). Then each saved class's navigation replaces the
/// World's (a class without navigation in the World gets it, as a first profile of the class
/// would build it) and its islands are recomputed from the saved moves. Afterwards the World
/// answers exactly as if it had built the navigation itself: same islands, same routes.
/// Call it before adding agents.
/// Returns: Ok; BadFormat (not a navigation file, truncated "truncated at byte N", damaged
/// "checksum mismatch", a section "section 'chunk 4,-2,3' out of bounds" or malformed);
/// Unsupported (another format version: "version 3, expected 1"; written by another library
/// release: "made by voxnav 0.3.0, this is voxnav 0.4.0 ..."); InvalidArgument (another block
/// registry, another body envelope, chunks that are not the World's); Busy (live agents, chunk
/// builds pending); OutOfMemory. On every failure the World is unchanged (blocks, navigation,
/// change serial): fall back to building it with World::update().
[[nodiscard]] Status import_navigation(World& world, std::span<const std::uint8_t> bytes,
                                       ImportReport* report = nullptr, CallError* error = nullptr);

}  // namespace voxnav
