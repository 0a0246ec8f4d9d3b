// Where JSON text stops being JSON: the parsers of voxnav's JSON inputs (profiles, block
// registries, Minecraft's block data, the CLI's scenarios) report a syntax error as one, with the
// byte it was found at, instead of "not a JSON object". No exception is thrown (SAX parse). One
// out-of-line function over bytes, so the parser is instantiated once (wasm size).
#pragma once
#include <cstddef>
#include <string>

namespace voxnav::detail {

/// "JSON syntax error at byte 18: <nlohmann's explanation>" when the `size` bytes at `data` are
/// not JSON text; empty when they are. Bytes count from 1, as nlohmann reports them.
std::string json_syntax_error(const char* data, std::size_t size);

}  // namespace voxnav::detail
