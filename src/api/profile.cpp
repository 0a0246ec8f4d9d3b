#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/nav/class_envelopes.h"
#include "voxnav/profile.h"

namespace voxnav {

const char* movement_class_name(MovementClass c) noexcept {
  switch (c) {
    case MovementClass::WalkerSmall: return "walker_small";
    case MovementClass::Walker: return "walker";
    case MovementClass::WalkerLarge: return "walker_large";
    case MovementClass::Swimmer: return "swimmer";
    case MovementClass::Flyer: return "flyer";
  }
  return "?";
}

namespace {

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

// The first key that appears twice in one object of `text` ("body.width" for a nested one), or
// "" when every key is unique (or the text is not JSON: the parse reports that). A SAX pass: no
// document is built, and the memory stays linear in the nesting depth.
class DuplicateKeys : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::string dup;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
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
    bool object = true;
    std::vector<std::string> keys;
  };
  bool open(bool object) {
    Frame f;
    f.object = object;
    if (!stack_.empty() && stack_.back().object) f.name = last_key_;
    stack_.push_back(std::move(f));
    return true;
  }
  bool close() {
    if (!stack_.empty()) stack_.pop_back();
    return true;
  }
  // "a.b." for a key of the object under "b" under "a" ("[]" marks an array level).
  std::string path() const {
    std::string p;
    for (std::size_t i = 1; i < stack_.size(); ++i) {
      if (stack_[i - 1].object) p += stack_[i].name;
      p += stack_[i].object ? "." : "[]";
    }
    return p;
  }
  std::vector<Frame> stack_;
  std::string last_key_;
};

std::string duplicate_key(std::string_view text) {
  DuplicateKeys sax;
  const bool complete =
      nlohmann::json::sax_parse(text.begin(), text.end(), &sax, nlohmann::json::input_format_t::json, false);
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
                                 movement_class_name(p.movement_class) + " envelope " + num(lim.width));
  if (p.height > lim.height + 1e-9)
    return bad("body.height", num(p.height) + " is larger than the " +
                                  movement_class_name(p.movement_class) + " envelope " + num(lim.height));
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
  if (p.max_drop < 0 || p.max_drop > 7) return bad("max_drop", std::to_string(p.max_drop) + " must be in 0..7");
  if (p.gap_jump < -1 || p.gap_jump > 8) return bad("gap_jump", "must be \"auto\" or 0..8");
  if (!finite_in("turn_rate", p.turn_rate, 1, 100000))
    return bad("turn_rate", num(p.turn_rate) + " must be in [1, 100000] degrees/s");
  if (!finite_in("arrive_radius", p.arrive_radius, 0.05, 64))
    return bad("arrive_radius", num(p.arrive_radius) + " must be in [0.05, 64] cells");
  if (p.drop_malus < 0 || p.drop_malus > 1000) return bad("drop_malus", "must be in 0..1000");
  if (p.search_max_nodes < 1 || p.search_max_nodes > 100000000u)
    return bad("search.max_nodes", "must be in 1..100000000");
  if (p.search_max_distance < 1 || p.search_max_distance > (1 << 20))
    return bad("search.max_distance", "must be in 1..1048576 cells");
  const bool flyer = p.movement_class == MovementClass::Flyer;
  if (flyer != p.can_fly)
    return bad("can_fly", flyer ? "the flyer class requires can_fly: true"
                                : "can_fly: true requires the flyer class");
  if (p.movement_class == MovementClass::Swimmer && !p.can_swim)
    return bad("can_swim", "the swimmer class requires can_swim: true");
  if (p.can_climb && !lim.can_climb)
    return bad("can_climb", std::string("the ") + movement_class_name(p.movement_class) +
                                " class cannot climb");
  if (p.can_climb && !(p.climb_speed > 0))
    return bad("speed.climb", "can_climb requires a positive climb speed");
  if (warning) {
    warning->clear();
    if (p.max_drop < lim.max_drop || p.step_height + 1e-9 < lim.step_height ||
        p.jump_apex + 1e-9 < lim.jump_apex)
      *warning = prefix(source, p.id) +
                 ": restricts its class (step, jump or drop below the class's): its reachability "
                 "Yes answers become searches";
  }
  return Status::Ok;
}

Status parse_profile_json(std::string_view text, Profile& out, std::string* error,
                          std::string* warning, std::string_view source) {
  using nlohmann::json;
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    if (error) *error = (source.empty() ? std::string() : std::string(source) + ": ") + "not a JSON object";
    return Status::BadFormat;
  }
  Profile p;
  if (const std::string dup = duplicate_key(text); !dup.empty()) {
    // JSON parsers keep one of the values: refuse rather than guess which one was meant.
    if (error)
      *error = (source.empty() ? std::string() : std::string(source) + ": ") + "profile JSON: key \"" + dup +
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
  auto get_int = [&](const json& obj, const char* key, int& v) -> bool {
    if (!obj.contains(key)) return true;
    if (!obj[key].is_number_integer()) return false;
    const auto x = obj[key].get<std::int64_t>();
    if (x < -(1ll << 30) || x > (1ll << 30)) return false;
    v = static_cast<int>(x);
    return true;
  };
  auto get_bool = [&](const json& obj, const char* key, bool& v) -> bool {
    if (!obj.contains(key)) return true;
    if (!obj[key].is_boolean()) return false;
    v = obj[key].get<bool>();
    return true;
  };
  static const char* kTop[] = {"id", "class", "body", "speed", "step_height", "jump_apex", "max_drop",
                               "gap_jump", "turn_rate", "arrive_radius", "strafe", "can_open_doors",
                               "can_climb", "can_swim", "can_fly", "drop_malus", "search",
                               "malus", "surface_malus", "avoidance", "knockback"};
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
    for (MovementClass mc : {MovementClass::WalkerSmall, MovementClass::Walker, MovementClass::WalkerLarge,
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
        return fail(error, Status::BadFormat, source, p.id, std::string(name) + "." + it.key(), "unknown field");
    }
    return body(o);
  };
  Status st = sub("body", {"width", "height"}, [&](const json& o) {
    if (!get_num(o, "width", "body.width", p.width)) return type_error("body.width", "a number");
    if (!get_num(o, "height", "body.height", p.height)) return type_error("body.height", "a number");
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
    if (!get_int(o, "max_nodes", nodes) || nodes < 1) return type_error("search.max_nodes", "a positive integer");
    p.search_max_nodes = static_cast<std::uint32_t>(nodes);
    if (!get_int(o, "max_distance", p.search_max_distance)) return type_error("search.max_distance", "an integer");
    return Status::Ok;
  });
  if (st != Status::Ok) return st;
  if (!get_num(doc, "step_height", "", p.step_height)) return type_error("step_height", "a number");
  if (!get_num(doc, "jump_apex", "", p.jump_apex)) return type_error("jump_apex", "a number");
  if (!get_int(doc, "max_drop", p.max_drop)) return type_error("max_drop", "an integer");
  if (doc.contains("gap_jump")) {
    const json& g = doc["gap_jump"];
    if (g.is_string() && g.get<std::string>() == "auto") p.gap_jump = -1;
    else if (!get_int(doc, "gap_jump", p.gap_jump)) return type_error("gap_jump", "\"auto\" or an integer");
  }
  if (!get_num(doc, "turn_rate", "", p.turn_rate)) return type_error("turn_rate", "a number");
  if (!get_num(doc, "arrive_radius", "", p.arrive_radius)) return type_error("arrive_radius", "a number");
  if (!get_bool(doc, "strafe", p.strafe)) return type_error("strafe", "true or false");
  if (!get_bool(doc, "can_open_doors", p.can_open_doors)) return type_error("can_open_doors", "true or false");
  if (!get_bool(doc, "can_climb", p.can_climb)) return type_error("can_climb", "true or false");
  if (!get_bool(doc, "can_swim", p.can_swim)) return type_error("can_swim", "true or false");
  if (!get_bool(doc, "can_fly", p.can_fly)) return type_error("can_fly", "true or false");
  if (!get_int(doc, "drop_malus", p.drop_malus)) return type_error("drop_malus", "an integer");
  st = validate_profile(p, error, warning, source);
  if (st != Status::Ok) return st;
  out = std::move(p);
  return Status::Ok;
}

}  // namespace voxnav
