// voxnav - status codes returned by every fallible call of the C++ API.
#pragma once
#include <cstdint>

namespace voxnav {

/// Result of a fallible API call. No exceptions cross the C++ API: every call that can fail
/// returns a Status (or a struct carrying one) and leaves the world and every agent unchanged
/// when it is not `Ok`.
///
/// Memory: loaders check what a file claims against the limits named in voxnav/io.h and
/// voxnav/registry.h before they reserve memory, so a small file cannot ask for a large amount.
/// Beyond that, the calls that build large structures catch std::bad_alloc (and any other
/// exception of the standard library) at the API boundary and return OutOfMemory with the World
/// unchanged: every loader of voxnav/io.h, World::define_blocks / load_blocks_json /
/// load_minecraft_blocks, parse_block_registry_json, and voxnav/native/files.h. The registry
/// loaders build the new registry aside and swap it in with moves that cannot fail. In wasm the
/// same catch works when the modules are built with native wasm exceptions (CMake
/// VOXNAV_WASM_EXCEPTIONS, off by default for size: docs/benchmarks.md); without them an
/// allocation failure stops the module, and the npm package throws VoxnavError('OutOfMemory')
/// naming the call either way (its heap ends at 2 GiB: LIMITS.maxHeapBytes).
enum class [[nodiscard]] Status : std::uint8_t {
  Ok = 0,
  InvalidArgument,  ///< an argument is malformed (wrong length, NaN, negative size, bad name ...)
  OutOfRange,       ///< a coordinate or index is outside what the space or registry allows
  NotLoaded,        ///< the chunk holding a cell is not loaded (or its navigation is not built)
  NotFound,         ///< a named thing (profile, block, file entry) does not exist
  StaleHandle,      ///< a PathHandle / AgentId whose slot was released or reused
  BadFormat,        ///< a byte buffer is not a valid world / registry / profile document
  Unsupported,      ///< a valid input that this build does not handle (e.g. an unknown version)
  Busy,             ///< the call is not allowed now (e.g. a chunk load while one is pending)
  OutOfMemory,      ///< an allocation failed; nothing changed (see above for which calls)
};
/// The last status (statuses are 0 .. kLastStatus).
inline constexpr Status kLastStatus = Status::OutOfMemory;

/// Short stable name of a status ("Ok", "InvalidArgument", ...), used by the JS VoxnavError.
const char* status_name(Status s) noexcept;

}  // namespace voxnav
