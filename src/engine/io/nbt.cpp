#include "engine/io/nbt.h"

#include <cstring>

#include "voxnav/io.h"

namespace voxnav::detail::nbt {

const char* tag_type_name(TagType t) noexcept {
  switch (t) {
    case TagType::End:
      return "End";
    case TagType::Byte:
      return "Byte";
    case TagType::Short:
      return "Short";
    case TagType::Int:
      return "Int";
    case TagType::Long:
      return "Long";
    case TagType::Float:
      return "Float";
    case TagType::Double:
      return "Double";
    case TagType::ByteArray:
      return "ByteArray";
    case TagType::String:
      return "String";
    case TagType::List:
      return "List";
    case TagType::Compound:
      return "Compound";
    case TagType::IntArray:
      return "IntArray";
    case TagType::LongArray:
      return "LongArray";
  }
  return "?";
}

Tag::Tag() = default;
Tag::~Tag() = default;
Tag::Tag(const Tag&) = default;
Tag::Tag(Tag&&) noexcept = default;
Tag& Tag::operator=(const Tag&) = default;
Tag& Tag::operator=(Tag&&) noexcept = default;

const Tag* Tag::get(std::string_view name) const {
  if (type != TagType::Compound) return nullptr;
  for (const auto& [k, v] : compound) {
    if (k == name) return &v;
  }
  return nullptr;
}

const Tag* Tag::get(std::string_view name, TagType t) const {
  const Tag* tag = get(name);
  return tag != nullptr && tag->type == t ? tag : nullptr;
}

std::int64_t Tag::get_int(std::string_view name, std::int64_t fallback) const {
  const Tag* tag = get(name);
  return tag != nullptr && tag->is_integer() ? tag->integer : fallback;
}

std::string_view Tag::get_string(std::string_view name) const {
  const Tag* tag = get(name, TagType::String);
  return tag != nullptr ? std::string_view(tag->string) : std::string_view();
}

namespace {

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}

  std::size_t pos() const { return pos_; }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  bool need(std::size_t n, const char* what) {
    if (failed()) return false;
    if (n > b_.size() - pos_) {
      fail(std::string("truncated ") + what + ": needs " + std::to_string(n) + " bytes, " +
           std::to_string(b_.size() - pos_) + " left");
      return false;
    }
    return true;
  }
  void fail(std::string msg) {
    if (!failed()) error_ = "NBT at byte " + std::to_string(pos_) + ": " + std::move(msg);
  }

  std::uint64_t be(int n) {  // caller checked need(n)
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | b_[pos_ + static_cast<std::size_t>(i)];
    pos_ += static_cast<std::size_t>(n);
    return v;
  }
  bool u8(std::uint8_t& v, const char* what) {
    if (!need(1, what)) return false;
    v = static_cast<std::uint8_t>(be(1));
    return true;
  }
  bool i32(std::int32_t& v, const char* what) {
    if (!need(4, what)) return false;
    v = static_cast<std::int32_t>(static_cast<std::uint32_t>(be(4)));
    return true;
  }
  bool str(std::string& s, const char* what) {
    if (!need(2, what)) return false;
    const auto n = static_cast<std::size_t>(be(2));
    if (!need(n, what)) return false;
    s.assign(reinterpret_cast<const char*>(b_.data() + pos_), n);
    pos_ += n;
    return true;
  }
  /// Array / list length: non-negative and at most `remaining / min_elem_size`.
  bool length(std::size_t min_elem_size, std::size_t& n, const char* what) {
    std::int32_t len = 0;
    if (!i32(len, what)) return false;
    if (len < 0) {
      fail(std::string("negative length ") + std::to_string(len) + " of " + what);
      return false;
    }
    n = static_cast<std::size_t>(len);
    if (min_elem_size > 0 && n > (b_.size() - pos_) / min_elem_size) {
      fail(std::string("truncated ") + what + ": " + std::to_string(n) +
           " elements need at least " + std::to_string(n * min_elem_size) + " bytes, " +
           std::to_string(b_.size() - pos_) + " left");
      return false;
    }
    return true;
  }

  bool limit_hit() const { return limit_hit_; }
  /// Counts `n` more tags against kMaxNbtTags (before they are allocated).
  bool take_tags(std::size_t n) {
    if (n > kMaxNbtTags - tags_) {
      fail("more than " + std::to_string(kMaxNbtTags) + " tags in one document (kMaxNbtTags)");
      limit_hit_ = true;
      return false;
    }
    tags_ += n;
    return true;
  }

  bool payload(TagType t, Tag& out, int depth) {
    out.type = t;
    if (depth > kMaxDepth) {
      fail("nesting deeper than " + std::to_string(kMaxDepth));
      return false;
    }
    switch (t) {
      case TagType::Byte:
        if (!need(1, "Byte")) return false;
        out.integer = static_cast<std::int8_t>(be(1));
        return true;
      case TagType::Short:
        if (!need(2, "Short")) return false;
        out.integer = static_cast<std::int16_t>(static_cast<std::uint16_t>(be(2)));
        return true;
      case TagType::Int:
        if (!need(4, "Int")) return false;
        out.integer = static_cast<std::int32_t>(static_cast<std::uint32_t>(be(4)));
        return true;
      case TagType::Long:
        if (!need(8, "Long")) return false;
        out.integer = static_cast<std::int64_t>(be(8));
        return true;
      case TagType::Float: {
        if (!need(4, "Float")) return false;
        const auto bits = static_cast<std::uint32_t>(be(4));
        float f;
        std::memcpy(&f, &bits, sizeof f);
        out.real = f;
        return true;
      }
      case TagType::Double: {
        if (!need(8, "Double")) return false;
        const std::uint64_t bits = be(8);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        out.real = d;
        return true;
      }
      case TagType::ByteArray: {
        std::size_t n = 0;
        if (!length(1, n, "ByteArray")) return false;
        out.bytes.resize(n);
        if (n > 0) std::memcpy(out.bytes.data(), b_.data() + pos_, n);
        pos_ += n;
        return true;
      }
      case TagType::String:
        return str(out.string, "String");
      case TagType::List: {
        std::uint8_t et = 0;
        if (!u8(et, "List element type")) return false;
        if (et > static_cast<std::uint8_t>(TagType::LongArray)) {
          fail("unknown List element type " + std::to_string(et));
          return false;
        }
        out.list_type = static_cast<TagType>(et);
        std::size_t n = 0;
        if (!length(min_payload_size(out.list_type), n, "List")) return false;
        if (out.list_type == TagType::End && n > 0) {
          fail("List of End tags with " + std::to_string(n) + " elements");
          return false;
        }
        if (n > kMaxNbtListLength) {
          fail("List of " + std::to_string(n) + " elements is longer than " +
               std::to_string(kMaxNbtListLength) + " (kMaxNbtListLength)");
          limit_hit_ = true;
          return false;
        }
        if (!take_tags(n)) return false;
        out.list.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
          if (!payload(out.list_type, out.list[i], depth + 1)) return false;
        }
        return true;
      }
      case TagType::Compound:
        for (;;) {
          std::uint8_t tt = 0;
          if (!u8(tt, "Compound entry type")) return false;
          if (tt == 0) return true;
          if (tt > static_cast<std::uint8_t>(TagType::LongArray)) {
            fail("unknown tag type " + std::to_string(tt));
            return false;
          }
          if (!take_tags(1)) return false;
          std::pair<std::string, Tag> entry;
          if (!str(entry.first, "tag name")) return false;
          if (!payload(static_cast<TagType>(tt), entry.second, depth + 1)) return false;
          out.compound.push_back(std::move(entry));
        }
      case TagType::IntArray: {
        std::size_t n = 0;
        if (!length(4, n, "IntArray")) return false;
        out.ints.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
          out.ints[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(be(4)));
        }
        return true;
      }
      case TagType::LongArray: {
        std::size_t n = 0;
        if (!length(8, n, "LongArray")) return false;
        out.longs.resize(n);
        for (std::size_t i = 0; i < n; ++i) out.longs[i] = static_cast<std::int64_t>(be(8));
        return true;
      }
      case TagType::End:
        fail("unexpected End tag");
        return false;
    }
    fail("unknown tag type");
    return false;
  }

  static std::size_t min_payload_size(TagType t) {
    switch (t) {
      case TagType::End:
        return 0;
      case TagType::Byte:
        return 1;
      case TagType::Short:
        return 2;
      case TagType::Int:
        return 4;
      case TagType::Long:
        return 8;
      case TagType::Float:
        return 4;
      case TagType::Double:
        return 8;
      case TagType::ByteArray:
        return 4;
      case TagType::String:
        return 2;
      case TagType::List:
        return 5;
      case TagType::Compound:
        return 1;
      case TagType::IntArray:
        return 4;
      case TagType::LongArray:
        return 4;
    }
    return 1;
  }

 private:
  std::span<const std::uint8_t> b_;
  std::size_t pos_ = 0;
  std::string error_;
  std::size_t tags_ = 1;  // the root
  bool limit_hit_ = false;
};

}  // namespace

Status parse(std::span<const std::uint8_t> bytes, Document& out, std::string& message) {
  out = Document{};
  Reader r(bytes);
  std::uint8_t t = 0;
  if (!r.u8(t, "root tag type")) {
    message = r.error();
    return Status::BadFormat;
  }
  if (t == 0 || t > static_cast<std::uint8_t>(TagType::LongArray)) {
    message = "NBT root tag type " + std::to_string(t) + " is not a value tag";
    return Status::BadFormat;
  }
  if (!r.str(out.root_name, "root name") || !r.payload(static_cast<TagType>(t), out.root, 0)) {
    message = r.error();
    out = Document{};
    return r.limit_hit() ? Status::OutOfRange : Status::BadFormat;
  }
  out.consumed = r.pos();
  return Status::Ok;
}

}  // namespace voxnav::detail::nbt
