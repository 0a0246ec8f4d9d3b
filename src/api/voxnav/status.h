// voxnav - status codes returned by every fallible call of the C++ API.
#pragma once
#include <cstdint>

namespace voxnav {

/// Result of a fallible API call. No exceptions cross the C++ API: every call that can fail
/// returns a Status (or a struct carrying one) and leaves the world and every agent unchanged
/// when it is not `Ok`.
///
/// Memory: loaders check what a file claims against the limits of voxnav/io.h and registry.h
/// first. Then the calls that build something proportional to their input (every loader of
/// voxnav/io.h, World::load_chunk(s), load_blocks_json, load_minecraft_blocks, set_block / box /
/// blocks) estimate what they will build, the next update()'s navigation included, and ask the
/// heap for it (voxnav/memory.h, docs/memory.md): OutOfMemory with nothing changed when it cannot
/// give it, in the shipped wasm (no C++ exceptions) too, the module and other Worlds still usable.
/// Those calls, define_blocks, parse_block_registry_json and voxnav/native/files.h also catch
/// std::bad_alloc at the API boundary (natively; in wasm built with VOXNAV_WASM_EXCEPTIONS).
/// Not checked: the small allocations of ticks, requests and agents, covered by the headroom
/// (kHeapHeadroomBytes) each check leaves; should one fail in the shipped wasm, the module stops
/// and the npm package throws VoxnavError('OutOfMemory') naming the call (heap: 2 GiB at most).
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
  OutOfMemory,      ///< the heap cannot give what the call needs; nothing changed (see above)
};
/// The last status (statuses are 0 .. kLastStatus).
inline constexpr Status kLastStatus = Status::OutOfMemory;

/// Short stable name of a status ("Ok", "InvalidArgument", ...), used by the JS VoxnavError.
const char* status_name(Status s) noexcept;

}  // namespace voxnav
