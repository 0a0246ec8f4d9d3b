#include "voxnav/profile.h"
#include "voxnav/world.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/util/json_error.h"
#include <string>
#include <vector>

#include "engine/nav/class_envelopes.h"
#include "engine/nav/profile_compile.h"

namespace voxnav {

const char* movement_class_name(MovementClass c) noexcept {
  switch (c) {
    case MovementClass::WalkerSmall:
      return "walker_small";
    case MovementClass::Walker:
      return "walker";
    case MovementClass::WalkerLarge:
      return "walker_large";
    case MovementClass::Swimmer:
      return "swimmer";
    case MovementClass::Flyer:
      return "flyer";
  }
  return "?";
}

const char* path_type_name(PathType t) noexcept {
  switch (t) {
    case PathType::Walkable:
      return "walkable";
    case PathType::Slow:
      return "slow";
    case PathType::DangerFire:
      return "danger_fire";
    case PathType::DangerOther:
      return "danger_other";
    case PathType::DamageFire:
      return "damage_fire";
    case PathType::DamageOther:
      return "damage_other";
    case PathType::DoorOpen:
      return "door_open";
    case PathType::DoorClosed:
      return "door_closed";
    case PathType::Climbable:
      return "climbable";
    case PathType::Water:
      return "water";
  }
  return "?";
}

namespace {

constexpr int kMaxMalus = 1000;
constexpr const char* kMalusRange = "must be an integer 0..1000 or \"impassable\"";

std::string surface_field(std::size_t entry, const char* sub) {
  return "surface_malus[" + std::to_string(entry) + "]." + sub;
}
std::string block_field(std::size_t entry, std::size_t block) {
  return surface_field(entry, "blocks") + "[" + std::to_string(block) + "]";
}

// Block names of surface_malus: lowercase letters, digits and _ . / : - (a namespaced name is
// allowed; the "minecraft:" prefix is dropped before this check).
bool block_name_ok(std::string_view n) {
  if (n.empty()) return false;
  for (char ch : n)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
          ch == '/' || ch == ':' || ch == '-'))
      return false;
  return true;
}

std::string prefix(std::string_view source, const std::string& id) {
  std::string s;
  if (!source.empty()) s += std::string(source) + ": ";
  s += "profile \"" + id + "\"";
  return s;
}

Status fail(std::string* error, Status st, std::string_view source, const std::string& id,
            const std::string& field, const std::string& what) {
  if (error) *error = prefix(source, id) + ": field \"" + field + "\": " + what;
  return st;
}

std::string num(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// The ranges of the integer fields, shared by the parser (an integer too large for any field) and
// validate_profile (a value the field does not accept).
constexpr const char* kMaxDropRange = "must be in 0..7";
constexpr const char* kGapJumpRange = "must be \"auto\" or 0..8";
constexpr const char* kDropMalusRange = "must be in 0..1000";
constexpr const char* kMaxNodesRange = "must be in 1..100000000";
constexpr const char* kMaxDistanceRange = "must be in 1..1048576 cells";
constexpr const char* kNeighboursRange = "must be in 0..32";

// How a JSON value reads as an integer field. Any JSON number without a fractional part is an
// integer (3, -3, 3.0, 1e12); one beyond +-2^30 (more than any field accepts, and more than an
// int holds) is OutOfRange, with its text for the message. A string, a boolean or 2.5 is the
// wrong type.
enum class IntRead { Ok, WrongType, OutOfRange };
constexpr std::int64_t kIntLimit = std::int64_t{1} << 30;

IntRead read_int(const nlohmann::json& v, int& out, std::string& text) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(kIntLimit)) {
      text = std::to_string(u);
      return IntRead::OutOfRange;
    }
    out = static_cast<int>(u);
    return IntRead::Ok;
  }
  if (v.is_number_integer()) {
    const auto x = v.get<std::int64_t>();
    if (x < -kIntLimit || x > kIntLimit) {
      text = std::to_string(x);
      return IntRead::OutOfRange;
    }
    out = static_cast<int>(x);
    return IntRead::Ok;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isnan(d) || (std::isfinite(d) && std::floor(d) != d)) return IntRead::WrongType;
    if (!(d >= -static_cast<double>(kIntLimit) && d <= static_cast<double>(kIntLimit))) {
      // Integers written with an exponent or a ".0", and numbers too large for a double.
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.15g", d);
      text = std::isinf(d) ? num(d) : std::string(buf);
      return IntRead::OutOfRange;
    }
    out = static_cast<int>(d);
    return IntRead::Ok;
  }
  return IntRead::WrongType;
}

// The first key that appears twice in one object of `text` ("body.width" for a nested one), or
// "" when every key is unique (or the text is not JSON: the parse reports that). A SAX pass: no
// document is built, and the memory stays linear in the nesting depth.
class DuplicateKeys : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::string dup;

  bool null() override { return element(); }
  bool boolean(bool) override { return element(); }
  bool number_integer(number_integer_t) override { return element(); }
  bool number_unsigned(number_unsigned_t) override { return element(); }
  bool number_float(number_float_t, const string_t&) override { return element(); }
  bool string(string_t&) override { return element(); }
  bool binary(binary_t&) override { return element(); }
  bool start_object(std::size_t) override { return open(true); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Frame& f = stack_.back();
    for (const std::string& seen : f.keys)
      if (seen == k) {
        dup = path() + k;
        return false;  // stop: one is enough
      }
    f.keys.push_back(k);
    last_key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  struct Frame {
    std::string name;  // key this object / array is the value of ("" at the top or in an array)
    std::size_t index = 0;  // position in the enclosing array
    std::size_t next = 0;   // an array's next element index
    bool object = true;
    std::vector<std::string> keys;
  };
  // A value inside an array: count it so a nested object's position is known.
  bool element() {
    if (!stack_.empty() && !stack_.back().object) ++stack_.back().next;
    return true;
  }
  bool open(bool object) {
    Frame f;
    f.object = object;
    if (!stack_.empty() && stack_.back().object) f.name = last_key_;
    if (!stack_.empty() && !stack_.back().object) f.index = stack_.back().next++;
    stack_.push_back(std::move(f));
    return true;
  }
  bool close() {
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }
  // "a.b." for a key of the object under "b" under "a"; "a[2]." for a key of the third object of
  // the array under "a".
  std::string path() const {
    std::string p;
    for (std::size_t i = 1; i < stack_.size(); ++i) {
      if (stack_[i - 1].object)
        p += stack_[i].name;
      else {
        p += '[';
        p += std::to_string(stack_[i].index);
        p += ']';
      }
      if (stack_[i].object) p += ".";
    }
    return p;
  }
  std::vector<Frame> stack_;
  std::string last_key_;
};

std::string duplicate_key(std::string_view text) {
  DuplicateKeys sax;
  const bool complete = nlohmann::json::sax_parse(text.begin(), text.end(), &sax,
                                                  nlohmann::json::input_format_t::json, false);
  return complete ? std::string() : sax.dup;
}
}  // namespace

Status validate_profile(const Profile& p, std::string* error, std::string* warning,
                        std::string_view source) {
  const detail::ClassLimits& lim = detail::class_limits(p.movement_class);
  auto bad = [&](const std::string& field, const std::string& what) {
    return fail(error, Status::InvalidArgument, source, p.id, field, what);
  };
  auto finite_in = [&](const char*, double v, double lo, double hi) -> bool {
    return std::isfinite(v) && v >= lo && v <= hi;
  };
  if (p.id.empty()) return bad("id", "must not be empty");
  if (!finite_in("body.width", p.width, 0.01, 64))
    return bad("body.width", num(p.width) + " must be a finite number in (0, 64]");
  if (!finite_in("body.height", p.height, 0.01, 64))
    return bad("body.height", num(p.height) + " must be a finite number in (0, 64]");
  if (p.width > lim.width + 1e-9)
    return bad("body.width", num(p.width) + " is larger than the " +
                                 movement_class_name(p.movement_class) + " envelope " +
                                 num(lim.width));
  if (p.height > lim.height + 1e-9)
    return bad("body.height", num(p.height) + " is larger than the " +
                                  movement_class_name(p.movement_class) + " envelope " +
                                  num(lim.height));
  if (!finite_in("speed.walk", p.walk_speed, 1e-3, 100))
    return bad("speed.walk", num(p.walk_speed) + " must be in (0, 100] m/s");
  if (!finite_in("speed.sprint", p.sprint_speed, p.walk_speed, 100))
    return bad("speed.sprint", num(p.sprint_speed) + " must be >= speed.walk and <= 100 m/s");
  if (!finite_in("speed.climb", p.climb_speed, 0, 100))
    return bad("speed.climb", num(p.climb_speed) + " must be in [0, 100] m/s");
  if (!finite_in("speed.swim", p.swim_speed, 0, 100))
    return bad("speed.swim", num(p.swim_speed) + " must be in [0, 100] m/s");
  if (!finite_in("step_height", p.step_height, 0, 1))
    return bad("step_height", num(p.step_height) + " must be in [0, 1] cells");
  if (!finite_in("jump_apex", p.jump_apex, 0, lim.jump_apex))
    return bad("jump_apex", num(p.jump_apex) + " must be in [0, " + num(lim.jump_apex) + "] cells");
  if (p.max_drop < 0 || p.max_drop > 7)
    return bad("max_drop", std::to_string(p.max_drop) + " " + kMaxDropRange);
  // The walker classes' move words hold drops down to the class's max_drop and rises up to its
  // step as steps: a profile asking for more would be accepted and silently cut back to the
  // class's, so it is refused (swimmers and flyers neither step nor drop: no limit).
  if (lim.max_drop > 0 && p.max_drop > lim.max_drop)
    return bad("max_drop", std::to_string(p.max_drop) + " is above the " +
                               movement_class_name(p.movement_class) + " class's " +
                               std::to_string(lim.max_drop) +
                               " (the deepest drop its navigation holds)");
  if (lim.step_height > 0 && p.step_height > lim.step_height + 1e-9)
    return bad("step_height", num(p.step_height) + " is above the " +
                                  movement_class_name(p.movement_class) + " class's " +
                                  num(lim.step_height) +
                                  " (the highest rise its navigation plans as a step)");
  if (p.gap_jump < -1 || p.gap_jump > 8)
    return bad("gap_jump", std::to_string(p.gap_jump) + " " + kGapJumpRange);
  if (!finite_in("turn_rate", p.turn_rate, 1, 100000))
    return bad("turn_rate", num(p.turn_rate) + " must be in [1, 100000] degrees/s");
  if (!finite_in("arrive_radius", p.arrive_radius, 0.05, 64))
    return bad("arrive_radius", num(p.arrive_radius) + " must be in [0.05, 64] cells");
  if (p.drop_malus < 0 || p.drop_malus > 1000)
    return bad("drop_malus", std::to_string(p.drop_malus) + " " + kDropMalusRange);
  if (p.search_max_nodes < 1 || p.search_max_nodes > 100000000u)
    return bad("search.max_nodes", std::to_string(p.search_max_nodes) + " " + kMaxNodesRange);
  if (p.search_max_distance < 1 || p.search_max_distance > (1 << 20))
    return bad("search.max_distance",
               std::to_string(p.search_max_distance) + " " + kMaxDistanceRange);
  for (int i = 0; i < kPathTypeCount; ++i) {
    const std::string field = std::string("malus.") + path_type_name(static_cast<PathType>(i));
    const int m = p.malus[i];
    if (m != kImpassable && (m < 0 || m > kMaxMalus))
      return bad(field, std::to_string(m) + " " + kMalusRange);
  }
  if (p.malus[static_cast<int>(PathType::Walkable)] == kImpassable)
    return bad("malus.walkable", "cannot be \"impassable\" (every route walks on walkable cells)");
  if (p.surface_malus.size() > static_cast<std::size_t>(kMaxSurfaceMalus))
    return bad("surface_malus", std::to_string(p.surface_malus.size()) + " entries, at most " +
                                    std::to_string(kMaxSurfaceMalus));
  std::map<std::string_view, std::pair<std::size_t, std::size_t>> seen;  // name -> (entry, block)
  for (std::size_t e = 0; e < p.surface_malus.size(); ++e) {
    const SurfaceMalus& s = p.surface_malus[e];
    if (s.blocks.empty())
      return bad(surface_field(e, "blocks"), "must list at least one block name");
    for (std::size_t b = 0; b < s.blocks.size(); ++b) {
      const std::string_view name = detail::canonical_block_name(s.blocks[b]);
      if (name.empty()) return bad(block_field(e, b), "a block name must not be empty");
      if (!block_name_ok(name))
        return bad(block_field(e, b),
                   "\"" + s.blocks[b] + "\" is not a block name (lowercase a-z 0-9 _ . / : -)");
      // A name listed twice, within this entry or across entries: name the first occurrence.
      const auto [at, added] = seen.emplace(name, std::make_pair(e, b));
      if (!added)
        return bad(block_field(e, b), "\"" + std::string(name) + "\" is already listed in " +
                                          block_field(at->second.first, at->second.second));
    }
    if (!finite_in("", s.cost, -0.6, 1000))
      return bad(surface_field(e, "cost"), num(s.cost) + " must be in [-0.6, 1000] cells");
  }
  if (!finite_in("", p.avoidance.radius, 0, 16))
    return bad("avoidance.radius",
               num(p.avoidance.radius) + " must be in [0, 16] cells (0 = half the body width)");
  if (!finite_in("", p.avoidance.time_horizon, 0.1, 10))
    return bad("avoidance.time_horizon", num(p.avoidance.time_horizon) + " must be in [0.1, 10] s");
  if (p.avoidance.max_neighbours < 0 || p.avoidance.max_neighbours > 32)
    return bad("avoidance.max_neighbours",
               std::to_string(p.avoidance.max_neighbours) + " " + kNeighboursRange);
  if (!finite_in("", p.knockback.resistance, 0, 1))
    return bad("knockback.resistance", num(p.knockback.resistance) + " must be in [0, 1]");
  const bool flyer = p.movement_class == MovementClass::Flyer;
  if (flyer != p.can_fly)
    return bad("can_fly", flyer ? "the flyer class requires can_fly: true"
                                : "can_fly: true requires the flyer class");
  if (p.movement_class == MovementClass::Swimmer && !p.can_swim)
    return bad("can_swim", "the swimmer class requires can_swim: true");
  if (p.can_climb && !lim.can_climb)
    return bad("can_climb",
               std::string("the ") + movement_class_name(p.movement_class) + " class cannot climb");
  if (p.can_climb && !(p.climb_speed > 0))
    return bad("speed.climb", "can_climb requires a positive climb speed");
  if (p.can_swim && !(p.swim_speed > 0))
    return bad("speed.swim", "can_swim requires a positive swim speed");
  if (p.can_open_doors && p.movement_class == MovementClass::Swimmer)
    return bad("can_open_doors", "the swimmer class cannot open doors");
  if (warning) {
    warning->clear();
    if (const std::string why = detail::class_restrictions(p); !why.empty())
      *warning = prefix(source, p.id) + ": restricts its class (" + why +
                 "): its reachability Yes answers become searches";
  }
  return Status::Ok;
}

Status check_surface_blocks(const Profile& p, const std::function<bool(std::string_view)>& known,
                            std::string* error, std::string_view source) {
  for (std::size_t e = 0; e < p.surface_malus.size(); ++e)
    for (std::size_t b = 0; b < p.surface_malus[e].blocks.size(); ++b) {
      const std::string_view name = detail::canonical_block_name(p.surface_malus[e].blocks[b]);
      if (!known || !known(name))
        return fail(error, Status::InvalidArgument, source, p.id, block_field(e, b),
                    "unknown block name \"" + std::string(name) + "\"");
    }
  return Status::Ok;
}

Status parse_profile_json(std::string_view text, Profile& out, std::string* error,
                          std::string* warning, std::string_view source) {
  using nlohmann::json;
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    if (error)
      *error = (source.empty() ? std::string() : std::string(source) + ": ") +
               (doc.is_discarded() ? detail::json_syntax_error(text.data(), text.size())
                                   : std::string("not a JSON object"));
    return Status::BadFormat;
  }
  Profile p;
  if (const std::string dup = duplicate_key(text); !dup.empty()) {
    // JSON parsers keep one of the values: refuse rather than guess which one was meant.
    if (error)
      *error = (source.empty() ? std::string() : std::string(source) + ": ") +
               "profile JSON: key \"" + dup +
               "\" appears more than once (each key may be given once)";
    return Status::InvalidArgument;
  }
  if (doc.contains("id") && doc["id"].is_string()) p.id = doc["id"].get<std::string>();
  auto type_error = [&](const std::string& field, const char* want) {
    return fail(error, Status::BadFormat, source, p.id, field, std::string("must be ") + want);
  };
  auto get_num = [&](const json& obj, const char* key, const std::string&, double& v) -> bool {
    if (!obj.contains(key)) return true;
    if (!obj[key].is_number()) return false;
    v = obj[key].get<double>();
    return true;
  };
  // An integer field: Ok when absent or read into `v`; a type error naming `want`; InvalidArgument
  // with the field's `range` for an integer larger than any field accepts (the other range checks
  // are validate_profile's).
  auto get_int = [&](const json& obj, const char* key, const std::string& field, const char* want,
                     const char* range, int& v) -> Status {
    if (!obj.contains(key)) return Status::Ok;
    std::string shown;
    switch (read_int(obj[key], v, shown)) {
      case IntRead::Ok:
        return Status::Ok;
      case IntRead::WrongType:
        return type_error(field, want);
      case IntRead::OutOfRange:
        break;
    }
    return fail(error, Status::InvalidArgument, source, p.id, field, shown + " " + range);
  };
  auto get_bool = [&](const json& obj, const char* key, bool& v) -> bool {
    if (!obj.contains(key)) return true;
    if (!obj[key].is_boolean()) return false;
    v = obj[key].get<bool>();
    return true;
  };
  static const char* kTop[] = {"id",          "class",         "body",          "speed",
                               "step_height", "jump_apex",     "max_drop",      "gap_jump",
                               "turn_rate",   "arrive_radius", "strafe",        "can_open_doors",
                               "can_climb",   "can_swim",      "can_fly",       "drop_malus",
                               "search",      "malus",         "surface_malus", "avoidance",
                               "knockback"};
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    bool known = false;
    for (const char* k : kTop) known = known || it.key() == k;
    if (!known) return fail(error, Status::BadFormat, source, p.id, it.key(), "unknown field");
  }
  if (!doc.contains("id") || !doc["id"].is_string()) return type_error("id", "a string");
  if (doc.contains("class")) {
    if (!doc["class"].is_string()) return type_error("class", "a string");
    const std::string c = doc["class"].get<std::string>();
    bool found = false;
    for (MovementClass mc :
         {MovementClass::WalkerSmall, MovementClass::Walker, MovementClass::WalkerLarge,
          MovementClass::Swimmer, MovementClass::Flyer})
      if (c == movement_class_name(mc)) p.movement_class = mc, found = true;
    if (!found)
      return fail(error, Status::InvalidArgument, source, p.id, "class",
                  "\"" + c + "\" is not one of walker_small, walker, walker_large, swimmer, flyer");
  }
  const detail::ClassLimits& lim = detail::class_limits(p.movement_class);
  // Defaults follow the class: its envelope, step, jump and drop (fields given below override).
  p.width = std::min(p.width, lim.width);
  p.height = std::min(p.height, lim.height);
  p.step_height = lim.step_height;
  p.jump_apex = lim.jump_apex;
  p.max_drop = lim.max_drop;
  auto sub = [&](const char* name, std::initializer_list<const char*> keys, auto&& body) -> Status {
    if (!doc.contains(name)) return Status::Ok;
    const json& o = doc[name];
    if (!o.is_object()) return type_error(name, "an object");
    for (auto it = o.begin(); it != o.end(); ++it) {
      bool known = false;
      for (const char* k : keys) known = known || it.key() == k;
      if (!known)
        return fail(error, Status::BadFormat, source, p.id, std::string(name) + "." + it.key(),
                    "unknown field");
    }
    return body(o);
  };
  Status st = sub("body", {"width", "height"}, [&](const json& o) {
    if (!get_num(o, "width", "body.width", p.width)) return type_error("body.width", "a number");
    if (!get_num(o, "height", "body.height", p.height))
      return type_error("body.height", "a number");
    return Status::Ok;
  });
  if (st != Status::Ok) return st;
  st = sub("speed", {"walk", "sprint", "climb", "swim"}, [&](const json& o) {
    if (!get_num(o, "walk", "", p.walk_speed)) return type_error("speed.walk", "a number");
    if (!o.contains("sprint")) p.sprint_speed = std::max(p.sprint_speed, p.walk_speed);
    if (!get_num(o, "sprint", "", p.sprint_speed)) return type_error("speed.sprint", "a number");
    if (!get_num(o, "climb", "", p.climb_speed)) return type_error("speed.climb", "a number");
    if (!get_num(o, "swim", "", p.swim_speed)) return type_error("speed.swim", "a number");
    return Status::Ok;
  });
  if (st != Status::Ok) return st;
  st = sub("search", {"max_nodes", "max_distance"}, [&](const json& o) {
    int nodes = static_cast<int>(p.search_max_nodes);
    Status s = get_int(o, "max_nodes", "search.max_nodes", "an integer", kMaxNodesRange, nodes);
    if (s != Status::Ok) return s;
    if (nodes < 1)
      return fail(error, Status::InvalidArgument, source, p.id, "search.max_nodes",
                  std::to_string(nodes) + " " + kMaxNodesRange);
    p.search_max_nodes = static_cast<std::uint32_t>(nodes);
    return get_int(o, "max_distance", "search.max_distance", "an integer", kMaxDistanceRange,
                   p.search_max_distance);
  });
  if (st != Status::Ok) return st;
  if (!get_num(doc, "step_height", "", p.step_height)) return type_error("step_height", "a number");
  if (!get_num(doc, "jump_apex", "", p.jump_apex)) return type_error("jump_apex", "a number");
  st = get_int(doc, "max_drop", "max_drop", "an integer", kMaxDropRange, p.max_drop);
  if (st != Status::Ok) return st;
  if (doc.contains("gap_jump")) {
    const json& g = doc["gap_jump"];
    if (g.is_string() && g.get<std::string>() == "auto")
      p.gap_jump = -1;
    else if ((st = get_int(doc, "gap_jump", "gap_jump", "\"auto\" or an integer", kGapJumpRange,
                           p.gap_jump)) != Status::Ok)
      return st;
    else if (p.gap_jump < 0)  // -1 is the struct's "auto", not a value files may give
      return fail(error, Status::InvalidArgument, source, p.id, "gap_jump",
                  std::to_string(p.gap_jump) + " " + kGapJumpRange);
  }
  if (!get_num(doc, "turn_rate", "", p.turn_rate)) return type_error("turn_rate", "a number");
  if (!get_num(doc, "arrive_radius", "", p.arrive_radius))
    return type_error("arrive_radius", "a number");
  if (!get_bool(doc, "strafe", p.strafe)) return type_error("strafe", "true or false");
  if (!get_bool(doc, "can_open_doors", p.can_open_doors))
    return type_error("can_open_doors", "true or false");
  if (!get_bool(doc, "can_climb", p.can_climb)) return type_error("can_climb", "true or false");
  if (!get_bool(doc, "can_swim", p.can_swim)) return type_error("can_swim", "true or false");
  if (!get_bool(doc, "can_fly", p.can_fly)) return type_error("can_fly", "true or false");
  st = get_int(doc, "drop_malus", "drop_malus", "an integer", kDropMalusRange, p.drop_malus);
  if (st != Status::Ok) return st;
  st =
      sub("avoidance", {"enabled", "radius", "time_horizon", "max_neighbours"}, [&](const json& o) {
        if (!get_bool(o, "enabled", p.avoidance.enabled))
          return type_error("avoidance.enabled", "true or false");
        if (!get_num(o, "radius", "", p.avoidance.radius))
          return type_error("avoidance.radius", "a number");
        if (!get_num(o, "time_horizon", "", p.avoidance.time_horizon))
          return type_error("avoidance.time_horizon", "a number");
        return get_int(o, "max_neighbours", "avoidance.max_neighbours", "an integer",
                       kNeighboursRange, p.avoidance.max_neighbours);
      });
  if (st != Status::Ok) return st;
  st = sub("knockback", {"resistance"}, [&](const json& o) {
    if (!get_num(o, "resistance", "", p.knockback.resistance))
      return type_error("knockback.resistance", "a number");
    return Status::Ok;
  });
  if (st != Status::Ok) return st;
  if (doc.contains("malus")) {
    const json& o = doc["malus"];
    if (!o.is_object()) return type_error("malus", "an object of path type names");
    for (auto it = o.begin(); it != o.end(); ++it) {
      const std::string field = "malus." + it.key();
      int type = -1;
      for (int i = 0; i < kPathTypeCount; ++i)
        if (it.key() == path_type_name(static_cast<PathType>(i))) type = i;
      if (type < 0)
        return fail(
            error, Status::BadFormat, source, p.id, field,
            "unknown path type (one of walkable, slow, danger_fire, danger_other, damage_fire, "
            "damage_other, door_open, door_closed, climbable, water)");
      const json& v = it.value();
      if (v.is_string() && v.get<std::string>() == "impassable") {
        p.malus[type] = kImpassable;
      } else {
        // Range-checked here: a -1 in the file must not read as kImpassable.
        int x = 0;
        std::string shown;
        const IntRead r = read_int(v, x, shown);
        if (r == IntRead::WrongType)
          return fail(error, Status::BadFormat, source, p.id, field, kMalusRange);
        if (r == IntRead::Ok) shown = std::to_string(x);
        if (r == IntRead::OutOfRange || x < 0 || x > kMaxMalus)
          return fail(error, Status::InvalidArgument, source, p.id, field,
                      shown + " " + kMalusRange);
        p.malus[type] = x;
      }
    }
  }
  if (doc.contains("surface_malus")) {
    const json& a = doc["surface_malus"];
    if (!a.is_array())
      return type_error("surface_malus", "an array of {\"blocks\": [...], \"cost\": ...}");
    if (a.size() > static_cast<std::size_t>(kMaxSurfaceMalus))
      return fail(
          error, Status::InvalidArgument, source, p.id, "surface_malus",
          std::to_string(a.size()) + " entries, at most " + std::to_string(kMaxSurfaceMalus));
    for (std::size_t e = 0; e < a.size(); ++e) {
      const json& o = a[e];
      if (!o.is_object())
        return type_error("surface_malus[" + std::to_string(e) + "]",
                          "an object {\"blocks\": [...], \"cost\": ...}");
      for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != "blocks" && it.key() != "cost")
          return fail(error, Status::BadFormat, source, p.id, surface_field(e, it.key().c_str()),
                      "unknown field");
      SurfaceMalus s;
      if (!o.contains("blocks") || !o["blocks"].is_array())
        return type_error(surface_field(e, "blocks"), "an array of block names");
      const json& blocks = o["blocks"];
      for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (!blocks[b].is_string()) return type_error(block_field(e, b), "a string");
        s.blocks.emplace_back(detail::canonical_block_name(blocks[b].get<std::string>()));
      }
      if (!o.contains("cost") || !o["cost"].is_number())
        return type_error(surface_field(e, "cost"), "a number");
      s.cost = o["cost"].get<double>();
      p.surface_malus.push_back(std::move(s));
    }
  }
  st = validate_profile(p, error, warning, source);
  if (st != Status::Ok) return st;
  out = std::move(p);
  return Status::Ok;
}

Status add_profile_json(World& world, std::string_view json, std::string_view source,
                        ProfileId* id, std::string* warning, CallError* error) {
  Profile p;
  std::string msg, warn;
  if (const Status st = parse_profile_json(json, p, &msg, &warn, source); st != Status::Ok) {
    if (error) *error = CallError{st, "add_profile", "profile", msg};
    return st;
  }
  const Status st = world.add_profile(p, id);
  if (st != Status::Ok && error) *error = world.last_error();
  if (st == Status::Ok && warning) *warning = warn;
  return st;
}

}  // namespace voxnav
