#include "engine/io/minecraft_registry.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "engine/io/legacy_blocks.h"
#include "engine/util/json_error.h"
#include "engine/util/json_release.h"

namespace voxnav::detail {

namespace {

using Json = nlohmann::json;

constexpr std::string_view kNamespace = "minecraft:";

std::string_view strip_namespace(std::string_view name) {
  if (name.substr(0, kNamespace.size()) == kNamespace) name.remove_prefix(kNamespace.size());
  return name;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_air_name(std::string_view n) { return n == "air" || n == "cave_air" || n == "void_air"; }

/// Names that were renamed after the flattening (1.13+) and no longer exist in 1.21.1.
std::string_view renamed(std::string_view n) {
  if (n == "grass") return "short_grass";        // 1.20.3
  if (n == "grass_path") return "dirt_path";     // 1.17
  if (n == "sign") return "oak_sign";            // 1.14
  if (n == "wall_sign") return "oak_wall_sign";  // 1.14
  return {};
}

bool parse_json(std::span<const std::uint8_t> bytes, Json& out) {
  out = Json::parse(bytes.begin(), bytes.end(), nullptr, /*allow_exceptions=*/false);
  return !out.is_discarded();
}

const Json* member(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

bool get_uint(const Json& j, const char* key, std::uint32_t& out) {
  const Json* m = member(j, key);
  if (m == nullptr || !m->is_number_integer()) return false;
  const auto v = m->get<std::int64_t>();
  if (v < 0 || v > 0xFFFFFFFFll) return false;
  out = static_cast<std::uint32_t>(v);
  return true;
}

bool get_string(const Json& j, const char* key, std::string& out) {
  const Json* m = member(j, key);
  if (m == nullptr || !m->is_string()) return false;
  out = m->get<std::string>();
  return true;
}

/// Decodes a state offset into one value index per property (the last property varies fastest).
void decode_indices(const McBlock& b, std::uint32_t offset, std::vector<std::uint32_t>& idx) {
  idx.assign(b.properties.size(), 0);
  for (std::size_t p = b.properties.size(); p-- > 0;) {
    const auto n = static_cast<std::uint32_t>(b.properties[p].values.size());
    idx[p] = offset % n;
    offset /= n;
  }
}

std::uint32_t encode_indices(const McBlock& b, const std::vector<std::uint32_t>& idx) {
  std::uint32_t offset = 0;
  for (std::size_t p = 0; p < b.properties.size(); ++p) {
    offset = offset * static_cast<std::uint32_t>(b.properties[p].values.size()) + idx[p];
  }
  return offset;
}

int find_property(const McBlock& b, std::string_view name) {
  for (std::size_t p = 0; p < b.properties.size(); ++p) {
    if (b.properties[p].name == name) return static_cast<int>(p);
  }
  return -1;
}

int find_value(const McProperty& p, std::string_view v) {
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    if (p.values[i] == v) return static_cast<int>(i);
  }
  return -1;
}

BlockTraits traits_of(const McBlock& b, const std::vector<std::uint32_t>& idx) {
  auto prop = [&](std::string_view name) -> std::string_view {
    const int p = find_property(b, name);
    return p < 0 ? std::string_view() : std::string_view(b.properties[p].values[idx[p]]);
  };
  const std::string_view n = b.name;
  BlockTraits t;
  if (ends_with(n, "_door") || ends_with(n, "_fence_gate"))
    t.door = prop("open") == "true" ? BlockDoor::Open : BlockDoor::Closed;
  t.climbable = n == "ladder" || n == "vine" || n == "weeping_vines" ||
                n == "weeping_vines_plant" || n == "twisting_vines" ||
                n == "twisting_vines_plant" || n == "cave_vines" || n == "cave_vines_plant" ||
                n == "scaffolding";
  if (n == "fire" || n == "soul_fire" || n == "lava" || n == "magma_block" ||
      ((n == "campfire" || n == "soul_campfire") && prop("lit") == "true")) {
    t.hazard = BlockHazard::Fire;
  } else if (n == "cactus" || n == "sweet_berry_bush" || n == "wither_rose" ||
             n == "powder_snow" || n == "pointed_dripstone") {
    t.hazard = BlockHazard::Other;
  }
  t.slow = n == "cobweb" || n == "honey_block" || n == "soul_sand";
  // Kelp and seagrass only exist under water (they are implicitly waterlogged).
  if (n == "lava") {
    t.fluid = BlockFluid::Harmful;
  } else if (n == "water" || n == "bubble_column" || n == "kelp" || n == "kelp_plant" ||
             n == "seagrass" || n == "tall_seagrass" || prop("waterlogged") == "true") {
    t.fluid = BlockFluid::Swimmable;
  }
  return t;
}

// A shape's boxes: each cut to its cell and checked by the registry's one box rule
// (cut_shape_overhang, engine/world/registry.h); a box wholly in the neighbouring cell is dropped.
// False when the shape is not an array of six-number arrays; `why` names a box the rule refuses.
bool read_box_list(const Json& shape, std::vector<BlockBox>& out, std::string& why) {
  out.clear();
  why.clear();
  if (!shape.is_array()) return false;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const Json& b = shape[k];
    if (!b.is_array() || b.size() != 6) return false;
    float f[6];
    for (std::size_t i = 0; i < 6; ++i) {
      if (!b[i].is_number()) return false;
      // (a double beyond float's range has no float: clamped first, then refused by the rule)
      f[i] = static_cast<float>(std::clamp(b[i].get<double>(), -3.0e38, 3.0e38));
    }
    BlockBox box{f[0], f[1], f[2], f[3], f[4], f[5]};
    bool empty = false;
    if (std::string e = cut_shape_overhang(box, empty); !e.empty()) {
      if (why.empty()) why = "boxes[" + std::to_string(k) + "]: " + e;
      continue;
    }
    if (!empty) out.push_back(box);
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

void LookupTally::note_unknown(std::string_view name, std::uint64_t count) {
  unknown_blocks += count;
  for (std::size_t i = 0; i < first_unknown.size(); ++i) {
    if (first_unknown[i] == name) {
      first_unknown_counts[i] += count;
      return;
    }
  }
  if (first_unknown.size() >= kMaxNames) return;
  first_unknown.emplace_back(name);
  first_unknown_counts.push_back(count);
}

void LookupTally::merge(const LookupTally& other) {
  unknown_properties += other.unknown_properties;
  const std::uint64_t before = unknown_blocks;
  for (std::size_t i = 0; i < other.first_unknown.size(); ++i)
    note_unknown(other.first_unknown[i], other.first_unknown_counts[i]);
  unknown_blocks = before + other.unknown_blocks;
}

Status parse_block_state_string(std::string_view s, BlockStateString& out, std::string& message) {
  out = BlockStateString{};
  const std::size_t br = s.find('[');
  std::string_view name = strip_namespace(s.substr(0, br));
  if (name.empty()) {
    message = "block state '" + std::string(s) + "' has no name";
    return Status::BadFormat;
  }
  out.name.assign(name);
  if (br == std::string_view::npos) return Status::Ok;
  if (s.back() != ']') {
    message = "block state '" + std::string(s) + "' lacks a closing ']'";
    return Status::BadFormat;
  }
  std::string_view body = s.substr(br + 1, s.size() - br - 2);
  while (!body.empty()) {
    const std::size_t comma = body.find(',');
    const std::string_view item = body.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      message = "block state '" + std::string(s) + "' has a property without '='";
      return Status::BadFormat;
    }
    out.properties.emplace_back(std::string(item.substr(0, eq)), std::string(item.substr(eq + 1)));
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return Status::Ok;
}

Status MinecraftBlocks::produce(std::span<const std::uint8_t> blocks_json,
                                std::span<const std::uint8_t> shapes_json, BlockRegistryDef& out,
                                std::string& message) {
  Json blocks, shapes;
  const JsonRelease release_blocks(blocks), release_shapes(shapes);  // json_release.h
  if (!parse_json(blocks_json, blocks) || !blocks.is_array()) {
    message = "blocks JSON: " + (blocks.is_discarded()
                                     ? json_syntax_error(reinterpret_cast<const char*>(blocks_json.data()), blocks_json.size())
                                     : std::string("not a JSON array"));
    return Status::BadFormat;
  }
  if (!parse_json(shapes_json, shapes) || !shapes.is_object()) {
    message = "collision shapes JSON: " +
              (shapes.is_discarded() ? json_syntax_error(reinterpret_cast<const char*>(shapes_json.data()), shapes_json.size())
                                     : std::string("not a JSON object"));
    return Status::BadFormat;
  }
  const Json* shape_blocks = member(shapes, "blocks");
  const Json* shape_table = member(shapes, "shapes");
  if (shape_blocks == nullptr || !shape_blocks->is_object() || shape_table == nullptr ||
      !shape_table->is_object()) {
    message = "collision shapes JSON: needs objects 'blocks' and 'shapes'";
    return Status::BadFormat;
  }

  // ---- blocks and their properties ----
  std::vector<McBlock> list;
  std::vector<bool> bbox_full;  // blocks.json boundingBox == "block", per block
  list.reserve(blocks.size());
  std::uint32_t next_state = 0;
  for (const Json& jb : blocks) {
    McBlock b;
    if (!get_string(jb, "name", b.name) || !get_uint(jb, "minStateId", b.min_state) ||
        !get_uint(jb, "maxStateId", b.max_state) ||
        !get_uint(jb, "defaultState", b.default_state)) {
      message = "blocks JSON: block #" + std::to_string(list.size()) +
                " lacks name / minStateId / maxStateId / defaultState";
      return Status::BadFormat;
    }
    b.name = std::string(strip_namespace(b.name));
    if (b.name.empty() || b.name.size() > kMaxBlockNameLength) {
      message = "blocks JSON: block #" + std::to_string(list.size()) + " has a name of " +
                std::to_string(b.name.size()) + " bytes (1.." +
                std::to_string(kMaxBlockNameLength) + ", kMaxBlockNameLength)";
      return Status::BadFormat;
    }
    // The state count is checked before the counter moves past it (a maxStateId of 2^32 - 1
    // must not wrap it to 0) and before anything is allocated per state.
    if (std::uint64_t{b.max_state} >= kMaxMinecraftStates) {
      message = "blocks JSON: '" + b.name + "' maxStateId " + std::to_string(b.max_state) +
                " gives more than " + std::to_string(kMaxMinecraftStates) +
                " states (kMaxMinecraftStates)";
      return Status::OutOfRange;
    }
    if (b.min_state != next_state || b.max_state < b.min_state || b.default_state < b.min_state ||
        b.default_state > b.max_state) {
      message = "blocks JSON: state ids of '" + b.name + "' are not dense (min " +
                std::to_string(b.min_state) + ", expected " + std::to_string(next_state) + ")";
      return Status::BadFormat;
    }
    std::uint64_t combos = 1;
    if (const Json* states = member(jb, "states"); states != nullptr && states->is_array()) {
      for (const Json& js : *states) {
        McProperty p;
        std::string type;
        std::uint32_t num = 0;
        if (!get_string(js, "name", p.name) || !get_string(js, "type", type) ||
            !get_uint(js, "num_values", num) || num == 0) {
          message = "blocks JSON: a property of '" + b.name + "' lacks name / type / num_values";
          return Status::BadFormat;
        }
        if (p.name.empty() || p.name.size() > kMaxBlockNameLength) {
          message = "blocks JSON: a property of '" + b.name + "' has a name of " +
                    std::to_string(p.name.size()) + " bytes (1.." +
                    std::to_string(kMaxBlockNameLength) + ", kMaxBlockNameLength)";
          return Status::BadFormat;
        }
        // Every value is a state of its own: more values than states is refused before they
        // are read (and keeps the product below from overflowing).
        if (num > kMaxMinecraftStates || combos * num > kMaxMinecraftStates) {
          message = "blocks JSON: '" + b.name + "' has more than " +
                    std::to_string(kMaxMinecraftStates) +
                    " property combinations (kMaxMinecraftStates)";
          return Status::OutOfRange;
        }
        if (type == "bool") {
          p.values = {"true", "false"};  // minecraft-data order: true is index 0
        } else {
          const Json* vals = member(js, "values");
          if (vals == nullptr || !vals->is_array()) {
            message = "blocks JSON: property '" + p.name + "' of '" + b.name + "' has no values";
            return Status::BadFormat;
          }
          for (const Json& v : *vals) {
            if (!v.is_string()) {
              message = "blocks JSON: property '" + p.name + "' of '" + b.name +
                        "' has a non-string value";
              return Status::BadFormat;
            }
            if (v.get_ref<const std::string&>().size() > kMaxBlockNameLength) {
              message = "blocks JSON: property '" + p.name + "' of '" + b.name +
                        "' has a value longer than " + std::to_string(kMaxBlockNameLength) +
                        " bytes (kMaxBlockNameLength)";
              return Status::BadFormat;
            }
            p.values.push_back(v.get<std::string>());
          }
        }
        if (p.values.size() != num) {
          message = "blocks JSON: property '" + p.name + "' of '" + b.name + "' lists " +
                    std::to_string(p.values.size()) + " values, num_values " + std::to_string(num);
          return Status::BadFormat;
        }
        combos *= num;
        b.properties.push_back(std::move(p));
      }
    }
    if (combos != static_cast<std::uint64_t>(b.max_state - b.min_state) + 1) {
      message = "blocks JSON: '" + b.name + "' has " + std::to_string(combos) +
                " property combinations but " + std::to_string(b.max_state - b.min_state + 1) +
                " states";
      return Status::BadFormat;
    }
    next_state = b.max_state + 1;
    std::string bb;
    get_string(jb, "boundingBox", bb);
    bbox_full.push_back(bb == "block");
    list.push_back(std::move(b));
  }
  if (static_cast<std::uint64_t>(next_state) + kStateValueOffset > 0xFFFFu) {
    message = "blocks JSON: " + std::to_string(next_state) + " states do not fit uint16 values";
    return Status::BadFormat;
  }

  // ---- shapes ----
  std::map<std::uint32_t, std::vector<BlockBox>> shape_boxes;  // shape id -> boxes (ordered, no hash)
  // Shapes with a box the registry's box rule refuses: reported with the first block using them,
  // or by id when no block does.
  std::map<std::uint32_t, std::string> bad_shapes;
  for (auto it = shape_table->begin(); it != shape_table->end(); ++it) {
    std::vector<BlockBox> boxes;
    std::uint32_t id = 0;
    const std::string& key = it.key();
    std::string why;
    if (key.empty() || key.size() > 9 ||
        !std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        !read_box_list(it.value(), boxes, why)) {
      message = "collision shapes JSON: shape '" + key + "' is malformed";
      return Status::BadFormat;
    }
    for (char c : key) id = id * 10 + static_cast<std::uint32_t>(c - '0');
    if (!why.empty()) bad_shapes[id] = std::move(why);
    shape_boxes[id] = std::move(boxes);
  }

  // ---- registry: one value per state, in state order ----
  // Values 0 and 1 are the registry's own air and fallback (a full block standing for names
  // nobody knows), then one value per state.
  BlockRegistryDef def;
  def.blocks.reserve(static_cast<std::size_t>(next_state) + kStateValueOffset);
  def.add("air");
  def.add("voxnav:unknown", {BlockBox{}});
  def.fallback = 1;
  std::size_t without_shapes = 0;
  std::vector<std::uint32_t> idx, flipped;
  std::vector<std::string> fallback_names;
  for (std::size_t bi = 0; bi < list.size(); ++bi) {
    const McBlock& b = list[bi];
    const Json* shape = member(*shape_blocks, b.name.c_str());
    bool fallback_shape = false;
    std::vector<BlockBox> bbox_fallback;
    if (shape == nullptr) {
      fallback_shape = true;
      ++without_shapes;
      if (fallback_names.size() < LookupTally::kMaxNames) fallback_names.push_back(b.name);
    }
    const std::uint32_t n_states = b.max_state - b.min_state + 1;
    if (shape != nullptr && shape->is_array() && shape->size() != n_states) {
      message = "collision shapes JSON: '" + b.name + "' lists " + std::to_string(shape->size()) +
                " shapes for " + std::to_string(n_states) + " states";
      return Status::BadFormat;
    }
    if (fallback_shape) {
      // blocks.json boundingBox: "block" -> full cube, "empty" -> nothing.
      if (bbox_full[bi]) bbox_fallback.push_back(BlockBox{});
    }
    const int open_prop = find_property(b, "open");
    const bool door = ends_with(b.name, "_door") || ends_with(b.name, "_fence_gate");
    for (std::uint32_t s = 0; s < n_states; ++s) {
      BlockDef t;
      t.name = b.name;
      if (fallback_shape) {
        t.boxes = bbox_fallback;
      } else {
        const Json& sid = shape->is_array() ? (*shape)[s] : *shape;
        if (!sid.is_number_integer() || sid.get<std::int64_t>() < 0) {
          message = "collision shapes JSON: '" + b.name + "' has a non-integer shape id";
          return Status::BadFormat;
        }
        auto it = shape_boxes.find(static_cast<std::uint32_t>(sid.get<std::int64_t>()));
        if (it == shape_boxes.end()) {
          message = "collision shapes JSON: '" + b.name + "' uses unknown shape id " +
                    std::to_string(sid.get<std::int64_t>());
          return Status::BadFormat;
        }
        if (auto bad = bad_shapes.find(it->first); bad != bad_shapes.end()) {
          message = "collision shapes JSON: '" + b.name + "' (state " +
                    std::to_string(b.min_state + s) + ") uses shape " +
                    std::to_string(it->first) + ", whose " + bad->second;
          return Status::BadFormat;
        }
        t.boxes = it->second;
      }
      decode_indices(b, s, idx);
      t.traits = traits_of(b, idx);
      if (door && open_prop >= 0) {
        flipped = idx;
        flipped[open_prop] ^= 1u;  // bool: index 0 true, 1 false
        t.traits.door_toggle = value_of_state(b.min_state + encode_indices(b, flipped));
      }
      const std::uint16_t v = def.add(std::move(t));
      if (v != value_of_state(b.min_state + s)) {
        message = "registry numbering mismatch at '" + b.name + "'";
        return Status::BadFormat;
      }
    }
  }

  if (!bad_shapes.empty()) {  // used by no block, but still a box no registry may hold
    message = "collision shapes JSON: shape " + std::to_string(bad_shapes.begin()->first) + ": " +
              bad_shapes.begin()->second;
    return Status::BadFormat;
  }
  list_ = std::move(list);
  next_state_ = next_state;
  without_shapes_ = without_shapes;
  fallback_names_ = std::move(fallback_names);
  out = std::move(def);
  return Status::Ok;
}

Status MinecraftBlocks::load(std::span<const std::uint8_t> blocks_json,
                             std::span<const std::uint8_t> shapes_json, BlockRegistry& registry,
                             std::string& message) {
  BlockRegistryDef def;
  if (const Status st = produce(blocks_json, shapes_json, def, message); st != Status::Ok)
    return st;
  if (const Status st = registry.install(def, &message); st != Status::Ok)
    return Status::BadFormat;  // not reached: produce makes a valid registry
  bind(registry, message);
  return Status::Ok;
}

void MinecraftBlocks::bind(BlockRegistry& registry, std::string& message) {
  const std::uint32_t next_state = next_state_;
  const std::size_t without_shapes = without_shapes_;
  registry_ = &registry;
  blocks_ = std::move(list_);
  list_.clear();
  block_of_state_.assign(next_state, 0);
  by_name_.clear();
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    by_name_.emplace(blocks_[i].name, static_cast<int>(i));
    registry.set_default(blocks_[i].name, value_of_state(blocks_[i].default_state));
    for (std::uint32_t s = blocks_[i].min_state; s <= blocks_[i].max_state; ++s) {
      block_of_state_[s] = static_cast<std::int32_t>(i);
    }
  }
  blocks_without_shapes_ = without_shapes;
  legacy_.clear();
  legacy_known_.clear();
  legacy_names_.clear();
  legacy_halves_.clear();
  legacy_half_slot_.clear();

  message = std::to_string(blocks_.size()) + " blocks, " + std::to_string(next_state) +
            " states, " + std::to_string(without_shapes) + " blocks without collision shapes";
  if (!fallback_names_.empty()) {
    message += " (boundingBox used for:";
    for (const std::string& n : fallback_names_) message += " " + n;
    message += ")";
  }
}

int MinecraftBlocks::block_index(std::string_view name) const {
  name = strip_namespace(name);
  auto it = by_name_.find(name);
  if (it != by_name_.end()) return it->second;
  const std::string_view alias = renamed(name);
  if (!alias.empty()) {
    it = by_name_.find(alias);
    if (it != by_name_.end()) return it->second;
  }
  return -1;
}

std::uint16_t MinecraftBlocks::state_value(std::uint32_t state_id) const {
  if (state_id >= block_of_state_.size()) return registry_->fallback();
  if (is_air_name(blocks_[static_cast<std::size_t>(block_of_state_[state_id])].name)) return 0;
  return value_of_state(state_id);
}

std::int64_t MinecraftBlocks::state_of_value(std::uint16_t v) const {
  if (v < kStateValueOffset ||
      static_cast<std::size_t>(v - kStateValueOffset) >= block_of_state_.size()) {
    return -1;
  }
  return v - kStateValueOffset;
}

std::uint32_t MinecraftBlocks::state_index(
    const McBlock& b, std::span<const std::pair<std::string, std::string>> props,
    LookupTally* tally) const {
  std::vector<std::uint32_t> idx;
  decode_indices(b, b.default_state - b.min_state, idx);
  for (const auto& [k, v] : props) {
    const int p = find_property(b, k);
    if (p < 0) continue;  // a property this version does not have (e.g. cauldron level in 1.16)
    int i = find_value(b.properties[p], v);
    if (i < 0 && b.properties[p].values.size() == 3 && b.properties[p].values[0] == "none") {
      // walls before 1.16 stored true/false where 1.16+ stores none/low/tall
      if (v == "true") i = find_value(b.properties[p], "low");
      if (v == "false") i = find_value(b.properties[p], "none");
    }
    if (i < 0) {
      if (tally != nullptr) ++tally->unknown_properties;
      continue;
    }
    idx[p] = static_cast<std::uint32_t>(i);
  }
  return encode_indices(b, idx);
}

std::uint16_t MinecraftBlocks::value(
    std::string_view name, std::span<const std::pair<std::string, std::string>> properties,
    LookupTally* tally) const {
  const int bi = block_index(name);
  if (bi < 0) {
    if (tally != nullptr) tally->note_unknown(strip_namespace(name));
    return registry_->fallback();
  }
  const McBlock& b = blocks_[static_cast<std::size_t>(bi)];
  if (is_air_name(b.name)) return 0;
  return value_of_state(b.min_state + state_index(b, properties, tally));
}

std::uint16_t MinecraftBlocks::default_value(std::string_view name, LookupTally* tally) const {
  return value(name, {}, tally);
}

std::uint16_t MinecraftBlocks::value_from_string(std::string_view state, LookupTally* tally) const {
  BlockStateString s;
  std::string msg;
  if (parse_block_state_string(state, s, msg) != Status::Ok) {
    if (tally != nullptr) tally->note_unknown(state);
    return registry_->fallback();
  }
  return value(s.name, s.properties, tally);
}

std::string MinecraftBlocks::state_string(std::uint16_t v) const {
  const std::int64_t s = state_of_value(v);
  if (s < 0) return registry_ != nullptr && registry_->valid(v) ? registry_->type(v).name : "?";
  const McBlock& b =
      blocks_[static_cast<std::size_t>(block_of_state_[static_cast<std::size_t>(s)])];
  std::vector<std::uint32_t> idx;
  decode_indices(b, static_cast<std::uint32_t>(s) - b.min_state, idx);
  std::string out = b.name;
  if (!b.properties.empty()) {
    out += '[';
    for (std::size_t p = 0; p < b.properties.size(); ++p) {
      if (p > 0) out += ',';
      out += b.properties[p].name + "=" + b.properties[p].values[idx[p]];
    }
    out += ']';
  }
  return out;
}

std::string_view MinecraftBlocks::property(std::uint16_t v, std::string_view prop) const {
  const std::int64_t s = state_of_value(v);
  if (s < 0) return {};
  const McBlock& b =
      blocks_[static_cast<std::size_t>(block_of_state_[static_cast<std::size_t>(s)])];
  const int p = find_property(b, prop);
  if (p < 0) return {};
  std::vector<std::uint32_t> idx;
  decode_indices(b, static_cast<std::uint32_t>(s) - b.min_state, idx);
  return b.properties[p].values[idx[p]];
}

// ---- legacy (pre-1.13) ids ----

std::uint16_t MinecraftBlocks::value_from_legacy_string(const std::string& s) const {
  BlockStateString st;
  std::string msg;
  if (s.empty() || parse_block_state_string(s, st, msg) != Status::Ok) return registry_->fallback();
  if (block_index(st.name) < 0) return registry_->fallback();
  return value(st.name, st.properties, nullptr);
}

Status MinecraftBlocks::load_legacy(std::span<const std::uint8_t> blocks_112_json,
                                    std::string& message) {
  if (!loaded()) {
    message = "load the 1.21.1 blocks before the 1.12 id table";
    return Status::InvalidArgument;
  }
  Json old;
  const JsonRelease release_old(old);  // json_release.h
  if (!parse_json(blocks_112_json, old) || !old.is_array()) {
    message = "1.12 blocks JSON: not a JSON array";
    return Status::BadFormat;
  }
  std::vector<std::string> names(4096);
  for (const Json& jb : old) {
    std::uint32_t id = 0;
    std::string name;
    if (!get_uint(jb, "id", id) || !get_string(jb, "name", name) || id >= 4096) {
      message = "1.12 blocks JSON: an entry lacks id / name";
      return Status::BadFormat;
    }
    names[id] = std::string(strip_namespace(name));
  }
  // Every table is built aside and moved in at the end (moves of vectors cannot fail): an
  // allocation failure on the way leaves the tables of an earlier load_legacy as they were.
  std::vector<std::uint16_t> legacy(4096 * 16, registry_->fallback());
  std::vector<std::uint8_t> legacy_known(4096 * 16, 0);
  std::size_t mapped_ids = 0, unmapped_ids = 0;
  std::string unmapped_list;
  for (int id = 0; id < 4096; ++id) {
    if (names[static_cast<std::size_t>(id)].empty()) continue;
    bool any = false;
    for (int meta = 0; meta < 16; ++meta) {
      const std::string s = legacy_state_string(names[static_cast<std::size_t>(id)], meta);
      const std::uint16_t v = value_from_legacy_string(s);
      if (v == registry_->fallback()) continue;
      legacy[static_cast<std::size_t>(id * 16 + meta)] = v;
      legacy_known[static_cast<std::size_t>(id * 16 + meta)] = 1;
      any = true;
    }
    if (any) {
      ++mapped_ids;
    } else {
      ++unmapped_ids;
      if (unmapped_ids <= LookupTally::kMaxNames)
        unmapped_list += " " + names[static_cast<std::size_t>(id)];
    }
  }

  // Two-half blocks: value per (lower meta & 7, upper meta & 3, half).
  std::vector<std::int16_t> half_slot(4096, -1);
  std::vector<std::uint16_t> halves;
  for (int id = 0; id < 4096; ++id) {
    const std::string& n = names[static_cast<std::size_t>(id)];
    if (n.empty() || !legacy_is_two_half(n)) continue;
    half_slot[static_cast<std::size_t>(id)] = static_cast<std::int16_t>(halves.size() / 64);
    for (int k = 0; k < 64; ++k) {
      const int lower = k & 7, upper = (k >> 3) & 3, half = k >> 5;
      const std::uint16_t v =
          value_from_legacy_string(legacy_two_half_string(n, lower, upper, half != 0));
      halves.push_back(v);
    }
  }
  std::string summary = std::to_string(mapped_ids) + " pre-1.13 ids mapped, " +
                        std::to_string(unmapped_ids) + " unmapped" +
                        (unmapped_list.empty() ? std::string() : " (" + unmapped_list.substr(1) + ")");
  legacy_ = std::move(legacy);
  legacy_known_ = std::move(legacy_known);
  legacy_names_ = std::move(names);
  legacy_half_slot_ = std::move(half_slot);
  legacy_halves_ = std::move(halves);
  message = std::move(summary);
  return Status::Ok;
}

std::uint16_t MinecraftBlocks::legacy_value(int id, int meta) const {
  if (id < 0 || id >= 4096 || meta < 0 || meta > 15 || legacy_.empty())
    return registry_->fallback();
  return legacy_[static_cast<std::size_t>(id * 16 + meta)];
}

bool MinecraftBlocks::legacy_known(int id, int meta) const {
  if (id < 0 || id >= 4096 || meta < 0 || meta > 15 || legacy_.empty()) return false;
  return legacy_known_[static_cast<std::size_t>(id * 16 + meta)] != 0;
}

std::string_view MinecraftBlocks::legacy_name(int id) const {
  if (id < 0 || id >= static_cast<int>(legacy_names_.size())) return {};
  return legacy_names_[static_cast<std::size_t>(id)];
}

bool MinecraftBlocks::legacy_two_half(int id) const {
  return id >= 0 && id < static_cast<int>(legacy_half_slot_.size()) &&
         legacy_half_slot_[static_cast<std::size_t>(id)] >= 0;
}

std::uint16_t MinecraftBlocks::legacy_two_half_value(int id, int lower_meta, int upper_meta,
                                                     bool upper) const {
  if (!legacy_two_half(id)) return legacy_value(id, upper ? upper_meta : lower_meta);
  const auto slot = static_cast<std::size_t>(legacy_half_slot_[static_cast<std::size_t>(id)]);
  const int k = (lower_meta & 7) | ((upper_meta & 3) << 3) | (upper ? 32 : 0);
  return legacy_halves_[slot * 64 + static_cast<std::size_t>(k)];
}

int MinecraftBlocks::legacy_connect_kind(int id) const {
  return legacy_connect_kind_of(legacy_name(id));
}

}  // namespace voxnav::detail
