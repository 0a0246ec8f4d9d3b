// Saved navigation: a World's built layers 0 to 2 (and optionally its blocks) as one versioned,
// checksummed byte buffer, and the import that validates a whole buffer before installing it.
// Saved: per chunk the cell planes (kind, floor, clearance, move words, vertical moves, flags,
// gap jumps, island labels); per class the islands' tables (union-find, sizes, gate kinds, the
// DAG between islands). Recomputed on import: neighbour links, surface planes (they depend on
// the World's areas and profiles), the islands' caches (local components, reach sets). Format
// and policy: docs/saving.md. No file I/O: bytes in, bytes out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/classify/nav_grid.h"
#include "engine/world/registry.h"
#include "engine/world/space.h"
#include "voxnav/status.h"

namespace voxnav::detail {

struct WorldState;

/// The layout version this build writes and the only one it reads. Bumped whenever the layout
/// or the meaning of a saved plane changes (a new cell kind, a new move code, a changed rule of
/// classification): an older file then fails with "version N, expected M" and the caller
/// rebuilds. See docs/saving.md.
inline constexpr std::uint32_t kNavSaveVersion = 1;
inline constexpr char kNavSaveMagic[8] = {'V', 'O', 'X', 'N', 'A', 'V', 'S', 'V'};
inline constexpr std::size_t kNavSaveHeaderBytes = 64;
inline constexpr std::size_t kNavSaveSectionBytes = 40;
inline constexpr std::size_t kNavSaveTrailerBytes = 4;  ///< the CRC-32 of everything before it

/// Section kinds (the table entry's `kind`).
enum class SaveSection : std::uint32_t {
  Class = 1,   ///< one class slot's navigation: envelope fingerprint, chunk count
  Blocks = 2,  ///< one loaded chunk: its blocks' fingerprint (and its values when saved)
  Nav = 3,     ///< one chunk of one class slot: layers 0 and 2
};

/// Header flags.
inline constexpr std::uint32_t kSaveFlagBlocks = 1;  ///< Blocks sections carry the block values

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) of `bytes`, continuing from `crc` (0 to
/// start). Detects every single flipped bit and every error burst up to 32 bits.
std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t crc = 0);

/// FNV-1a 64 over the registry's entries (names, collision boxes as float bits, traits, door
/// toggles): a file made for other blocks is refused.
std::uint64_t registry_fingerprint(const BlockRegistry& reg);
/// A 64-bit hash of one chunk's block values (four multiply-xorshift lanes over 64-bit words,
/// folded by FNV-1a; uniform or not, the same values give the same
/// fingerprint).
std::uint64_t blocks_fingerprint(const Chunk& ch);
/// FNV-1a 64 over a class envelope's fields: navigation saved for another body is refused.
std::uint64_t envelope_fingerprint(const ClassEnvelope& env);

/// Byte runs (save payload planes): a varint control n, then (n odd) one byte repeated n >> 1
/// times, or (n even) n >> 1 literal bytes. Appends to `out`.
void rle_encode(const std::uint8_t* data, std::size_t n, std::vector<std::uint8_t>& out);
/// Decodes exactly `n` bytes into `out` from `in`. False when `in` is malformed, ends early, or
/// holds more than `n` bytes (nothing is read past `in`).
bool rle_decode(std::span<const std::uint8_t> in, std::uint8_t* out, std::size_t n);

struct NavExportOptions {
  bool include_blocks = false;
};

/// What an import installed (or would have).
struct NavImportSummary {
  std::size_t chunks = 0;   ///< loaded chunks the file describes
  std::size_t classes = 0;  ///< class slots installed
  bool blocks = false;      ///< the file carried the blocks and they were loaded
};

/// Writes the navigation of every built class slot of `ws` into `out` (replaced). Fails with
/// Busy (message in `error`) while the navigation is not up to date with the blocks (changes not
/// processed by an update, chunk builds pending or deferred), OutOfRange (2^32 sections or more),
/// OutOfMemory.
Status export_nav(WorldState& ws, const NavExportOptions& opt, std::vector<std::uint8_t>& out,
                  std::string* error);

/// What a file's header says (after the checks of its header, sizes and checksum).
struct NavFileHeader {
  std::uint32_t version = 0;
  std::uint32_t library = 0;  ///< VOXNAV_VERSION of the library that wrote it
  bool blocks = false;
  std::size_t chunks = 0, classes = 0;
};
/// Checks a file's header, sizes and checksum (the first steps of import_nav) and reads the
/// header. Statuses and messages as import_nav's for those steps.
Status read_nav_header(std::span<const std::uint8_t> bytes, NavFileHeader* out, std::string* error);

/// Validates all of `bytes` (header, version, sizes, checksum, every section's bounds and
/// payload, fingerprints, the World's loaded chunks), then installs each saved class slot's
/// navigation (creating the slots the World lacks) with its islands. On any error
/// nothing changed: the status and `error` name the problem. Statuses: BadFormat (magic,
/// truncation, checksum, bounds, a malformed payload), Unsupported (another version),
/// InvalidArgument (another registry or body envelope, chunks that are not the World's), Busy
/// (agents alive, chunk builds pending), OutOfMemory.
Status import_nav(WorldState& ws, std::span<const std::uint8_t> bytes, NavImportSummary* summary,
                  std::string* error);

}  // namespace voxnav::detail
