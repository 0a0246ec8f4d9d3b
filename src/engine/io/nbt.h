// NBT (Minecraft's Named Binary Tag format) reader over uncompressed, big-endian bytes.
// Bounds-checked: truncated or malformed input returns Status::BadFormat with a message and never
// reads past the buffer. Decompression (gzip / zlib) is the caller's job (native/).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "voxnav/status.h"

namespace voxnav::detail::nbt {

enum class TagType : std::uint8_t {
  End = 0,
  Byte = 1,
  Short = 2,
  Int = 3,
  Long = 4,
  Float = 5,
  Double = 6,
  ByteArray = 7,
  String = 8,
  List = 9,
  Compound = 10,
  IntArray = 11,
  LongArray = 12,
};

const char* tag_type_name(TagType t) noexcept;

/// One tag. Only the members matching `type` are used.
struct Tag {
  // Declared here, defined in nbt.cpp: a member vector of pairs holding Tag must not be
  // instantiated while Tag is incomplete (clang 14 with libstdc++ 12 refuses it in C++20).
  Tag();
  ~Tag();
  Tag(const Tag&);
  Tag(Tag&&) noexcept;
  Tag& operator=(const Tag&);
  Tag& operator=(Tag&&) noexcept;

  TagType type = TagType::End;
  std::int64_t integer = 0;                           ///< Byte, Short, Int, Long (sign-extended)
  double real = 0;                                    ///< Float, Double
  std::string string;                                 ///< String (modified UTF-8 bytes as stored)
  std::vector<std::int8_t> bytes;                     ///< ByteArray
  std::vector<std::int32_t> ints;                     ///< IntArray
  std::vector<std::int64_t> longs;                    ///< LongArray
  TagType list_type = TagType::End;                   ///< List: element type
  std::vector<Tag> list;                              ///< List elements
  std::vector<std::pair<std::string, Tag>> compound;  ///< Compound entries in file order

  bool is_integer() const {
    return type == TagType::Byte || type == TagType::Short || type == TagType::Int ||
           type == TagType::Long;
  }
  /// Compound member by name (first match), or nullptr (also when this is not a compound).
  const Tag* get(std::string_view name) const;
  /// Compound member of a given type, or nullptr.
  const Tag* get(std::string_view name, TagType t) const;
  /// Integer member (any integer tag type) or `fallback`.
  std::int64_t get_int(std::string_view name, std::int64_t fallback) const;
  /// String member or empty view.
  std::string_view get_string(std::string_view name) const;
};

/// Result of parsing one document.
struct Document {
  std::string root_name;
  Tag root;                  ///< normally a Compound
  std::size_t consumed = 0;  ///< bytes read (region payloads may carry padding after the tag)
};

/// Limits that keep hostile input from exhausting the stack.
inline constexpr int kMaxDepth = 512;

/// Parses one named root tag (normally a compound) from `bytes`. Trailing bytes are allowed and
/// reported through `consumed`. Errors: BadFormat (truncated, unknown tag type, negative length,
/// nesting deeper than kMaxDepth, an End tag as root); OutOfRange (a List longer than
/// kMaxNbtListLength or more than kMaxNbtTags tags, voxnav/io.h: checked before the list is
/// allocated); `message` says what and at which offset.
Status parse(std::span<const std::uint8_t> bytes, Document& out, std::string& message);

}  // namespace voxnav::detail::nbt
