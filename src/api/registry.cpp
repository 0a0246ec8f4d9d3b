#include "voxnav/registry.h"
#include "voxnav/world.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/util/json_error.h"
#include <unordered_set>

#include "engine/util/json_release.h"
#include "engine/world/registry.h"

namespace voxnav {

std::uint16_t BlockRegistryDef::add(BlockDef def) {
  if (blocks.size() >= kMaxBlockValues) return kNoBlockValue;
  blocks.push_back(std::move(def));
  return static_cast<std::uint16_t>(blocks.size() - 1);
}

std::uint16_t BlockRegistryDef::add(std::string name, std::vector<BlockBox> boxes,
                                    BlockTraits traits) {
  return add(BlockDef{std::move(name), std::move(boxes), std::move(traits)});
}

const char* block_door_name(BlockDoor d) noexcept {
  return d == BlockDoor::Closed ? "closed" : d == BlockDoor::Open ? "open" : "none";
}
const char* block_hazard_name(BlockHazard h) noexcept {
  return h == BlockHazard::Fire ? "fire" : h == BlockHazard::Other ? "other" : "none";
}
const char* block_fluid_name(BlockFluid f) noexcept {
  return f == BlockFluid::Swimmable ? "swimmable" : f == BlockFluid::Harmful ? "harmful" : "none";
}

Status validate_block_registry(const BlockRegistryDef& def, std::string* error) {
  return detail::check_block_registry(def, nullptr, error);
}

// ---- voxnav's JSON format (docs/registry.md) ----

namespace {

using Json = nlohmann::json;

constexpr int kFormatVersion = 1;

// A field's value, checked: each returns "" or what is wrong with it.
std::string type_error(const char* field, const char* want) {
  return std::string(field) + ": not " + want;
}

// The enumerator (of three) whose name is the string `v`.
template <class E>
bool enum_of(const Json& v, const char* (*name)(E) noexcept, E& out) {
  if (!v.is_string()) return false;
  for (int i = 0; i < 3; ++i)
    if (v.get<std::string>() == name(static_cast<E>(i))) {
      out = static_cast<E>(i);
      return true;
    }
  return false;
}

// Reads the traits fields of one block object (every other field is refused by the caller).
std::string read_traits(const Json& j, BlockTraits& t) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const Json& v = it.value();
    if (k == "door") {
      if (!v.is_object()) return type_error("door", "an object {\"open\": bool, \"toggle\": name}");
      t.door = BlockDoor::Closed;
      for (auto d = v.begin(); d != v.end(); ++d) {
        if (d.key() == "open") {
          if (!d.value().is_boolean()) return type_error("door.open", "true or false");
          t.door = d.value().get<bool>() ? BlockDoor::Open : BlockDoor::Closed;
        } else if (d.key() == "toggle") {
          if (!d.value().is_string() || d.value().get<std::string>().empty())
            return type_error("door.toggle", "a block name");
          t.door_toggle_name = d.value().get<std::string>();
        } else {
          return "unknown field 'door." + d.key() + "'";
        }
      }
    } else if (k == "climbable" || k == "slow") {
      if (!v.is_boolean()) return type_error(k.c_str(), "true or false");
      (k == "slow" ? t.slow : t.climbable) = v.get<bool>();
    } else if (k == "hazard") {
      if (!enum_of(v, block_hazard_name, t.hazard))
        return type_error("hazard", "\"fire\", \"other\" or \"none\"");
    } else if (k == "fluid") {
      if (!enum_of(v, block_fluid_name, t.fluid))
        return type_error("fluid", "\"swimmable\", \"harmful\" or \"none\"");
    } else {
      return "unknown field '" + k + "'";
    }
  }
  return {};
}

std::string read_boxes(const Json& v, std::vector<BlockBox>& out) {
  if (!v.is_array()) return type_error("boxes", "an array of [minX,minY,minZ,maxX,maxY,maxZ]");
  for (std::size_t k = 0; k < v.size(); ++k) {
    const Json& b = v[k];
    const std::string field = "boxes[" + std::to_string(k) + "]";
    if (!b.is_array() || b.size() != 6)
      return field + ": not an array of 6 numbers [minX,minY,minZ,maxX,maxY,maxZ]";
    float f[6];
    for (std::size_t i = 0; i < 6; ++i) {
      if (!b[i].is_number()) return field + ": not an array of 6 numbers";
      // A double beyond float's range has no float (the conversion is undefined): clamp it
      // first; validate_block_registry refuses such a box anyway, naming it.
      f[i] = static_cast<float>(std::clamp(b[i].get<double>(), -3.0e38, 3.0e38));
    }
    out.push_back(BlockBox{f[0], f[1], f[2], f[3], f[4], f[5]});
  }
  return {};
}

}  // namespace

Status parse_block_traits_json(std::string_view json, BlockTraits* out, std::string* error) {
  auto fail = [&](std::string m) {
    if (error) *error = "traits: " + m;
    return Status::BadFormat;
  };
  if (!out) return fail("no output");
  Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  const detail::JsonRelease release_j(j);  // freed without allocating (json_release.h)
  if (j.is_discarded()) return fail(detail::json_syntax_error(json.data(), json.size()));
  if (!j.is_object()) return fail("not a JSON object");
  BlockTraits t;
  if (std::string why = read_traits(j, t); !why.empty()) return fail(why);
  *out = std::move(t);
  if (error) error->clear();
  return Status::Ok;
}

Status parse_block_registry_json(std::span<const std::uint8_t> json, BlockRegistryDef* out,
                                 std::string* error) {
  auto fail = [&](Status st, std::string m) {
    if (error) *error = std::move(m);
    return st;
  };
  if (!out) return fail(Status::InvalidArgument, "no output registry");
  Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  const detail::JsonRelease release_j(j);  // freed without allocating (json_release.h)
  if (j.is_discarded())
    return fail(Status::BadFormat,
                "block registry: " + detail::json_syntax_error(reinterpret_cast<const char*>(json.data()), json.size()));
  if (!j.is_object()) return fail(Status::BadFormat, "block registry: not a JSON object");
  const auto format = j.find("format");
  if (format == j.end() || !format->is_string() || format->get<std::string>() != "voxnav-blocks")
    return fail(Status::BadFormat, "block registry: format: not \"voxnav-blocks\"");
  const auto version = j.find("version");
  if (version == j.end() || !version->is_number_integer())
    return fail(Status::BadFormat, "block registry: version: not an integer");
  if (version->get<std::int64_t>() != kFormatVersion)
    return fail(Status::Unsupported, "block registry: version " +
                                         std::to_string(version->get<std::int64_t>()) +
                                         " is not supported (this build reads version 1)");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "format" && it.key() != "version" && it.key() != "blocks" &&
        it.key() != "fallback")
      return fail(Status::BadFormat, "block registry: unknown field '" + it.key() + "'");
  const auto blocks = j.find("blocks");
  if (blocks == j.end() || !blocks->is_array())
    return fail(Status::BadFormat, "block registry: blocks: not an array");
  BlockRegistryDef def;
  std::unordered_set<std::string> names;  // lookup only
  for (std::size_t v = 0; v < blocks->size(); ++v) {
    const Json& b = (*blocks)[v];
    const std::string at = "blocks[" + std::to_string(v) + "]";
    if (!b.is_object()) return fail(Status::BadFormat, at + ": not an object");
    const auto name = b.find("name");
    if (name == b.end() || !name->is_string())
      return fail(Status::BadFormat, at + ": name: missing or not a string");
    BlockDef d;
    d.name = name->get<std::string>();
    if (d.name.size() > kMaxBlockNameLength)
      return fail(Status::InvalidArgument,
                  at + ": name: " + std::to_string(d.name.size()) + " bytes, more than " +
                      std::to_string(kMaxBlockNameLength) + " (kMaxBlockNameLength)");
    const std::string who = at + " '" + d.name + "'";
    if (!names.insert(d.name).second)
      return fail(Status::InvalidArgument, who + ": name: given twice (names are unique here)");
    Json traits = Json::object();
    const detail::JsonRelease release_traits(traits);
    for (auto it = b.begin(); it != b.end(); ++it) {
      if (it.key() == "name") continue;
      if (it.key() == "boxes") {
        if (std::string why = read_boxes(it.value(), d.boxes); !why.empty())
          return fail(Status::BadFormat, who + ": " + why);
      } else {
        traits[it.key()] = it.value();
      }
    }
    if (std::string why = read_traits(traits, d.traits); !why.empty())
      return fail(Status::BadFormat, who + ": " + why);
    if (def.add(std::move(d)) == kNoBlockValue)
      return fail(Status::InvalidArgument, "block registry: blocks: more than " +
                                               std::to_string(kMaxBlockValues) + " blocks");
  }
  if (const auto fb = j.find("fallback"); fb != j.end()) {
    if (!fb->is_string()) return fail(Status::BadFormat, "block registry: fallback: not a name");
    const std::string n = fb->get<std::string>();
    bool found = false;
    for (std::size_t v = 0; v < def.blocks.size() && !found; ++v)
      if (def.blocks[v].name == n) {
        def.fallback = static_cast<std::uint16_t>(v);
        found = true;
      }
    if (!found)
      return fail(Status::InvalidArgument, "block registry: fallback: '" + n + "' is not a block");
  }
  if (const Status st = validate_block_registry(def, error); st != Status::Ok) return st;
  *out = std::move(def);
  if (error) error->clear();
  return Status::Ok;
}

Status set_block_traits_json(World& world, std::uint16_t value, std::string_view traits_json,
                             CallError* error) {
  BlockTraitsChange t;
  t.value = value;
  std::string msg;
  if (const Status st = parse_block_traits_json(traits_json, &t.traits, &msg); st != Status::Ok) {
    if (error) *error = CallError{st, "set_block_traits", "traits", msg};
    return st;
  }
  const Status st = world.set_block_traits(std::span(&t, 1));
  if (st != Status::Ok && error) *error = world.last_error();
  return st;
}

}  // namespace voxnav
