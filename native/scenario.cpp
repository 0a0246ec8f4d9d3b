// The scripted-scenario JSON of `voxnav run --script` (voxnav/native/scenario.h).
#include "voxnav/native/scenario.h"

#include <limits>
#include <new>
#include <string>
#include <nlohmann/json.hpp>

#include "voxnav/error.h"

namespace voxnav::native {

namespace {

using nlohmann::json;

// Deepest nesting of arrays and objects a script may have. nlohmann's parser keeps its own stack,
// but dump() (the profiles are passed on as text) recurses once per level: a file of 100,000
// brackets overflowed the native stack.
constexpr int kMaxNesting = 64;

// Whether the bytes nest arrays/objects deeper than kMaxNesting (strings skipped; an iterative
// scan, so it cannot overflow whatever the input).
bool nests_too_deep(std::span<const std::uint8_t> bytes) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (const std::uint8_t c : bytes) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxNesting) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

bool parse(std::span<const std::uint8_t> bytes, Scenario& out, std::string& err) {
  if (nests_too_deep(bytes))
    return err = "arrays and objects nest deeper than " + std::to_string(kMaxNesting) + " levels",
           false;
  const json j = json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (j.is_discarded()) return err = json_syntax_error(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())), false;
  if (!j.is_object()) return err = "not a JSON object", false;
  const auto cell = [](const json& v, CellPos& c) {
    if (!v.is_array() || v.size() != 3) return false;
    for (const json& e : v) {
      if (!e.is_number_integer()) return false;
      if (e.is_number_unsigned()) {
        if (e.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
          return false;
      } else {
        const std::int64_t x = e.get<std::int64_t>();
        if (x < std::numeric_limits<std::int32_t>::min() ||
            x > std::numeric_limits<std::int32_t>::max())
          return false;
      }
    }
    c = CellPos{v[0].get<std::int32_t>(), v[1].get<std::int32_t>(), v[2].get<std::int32_t>()};
    return true;
  };
  if (!j.contains("world") || !j["world"].is_string())
    return err = "\"world\" must be a string", false;
  out.world = j["world"].get<std::string>();
  out.profile_json =
      j.contains("profile") ? j["profile"].dump() : std::string("{\"id\":\"walker\"}");
  if (j.contains("dt")) {
    if (!j["dt"].is_number()) return err = "\"dt\" must be a number", false;
    out.dt = j["dt"].get<double>();
    if (!(out.dt > 0 && out.dt <= 1)) return err = "\"dt\" must be in (0, 1]", false;
  }
  const auto int_in = [](const json& v, long long lo, long long hi) {
    if (!v.is_number_integer()) return false;
    if (hi < lo) return false;  // an empty range (edits when "ticks" is 0)
    if (v.is_number_unsigned()) {
      const std::uint64_t u = v.get<std::uint64_t>();
      return u <= static_cast<std::uint64_t>(hi) && (lo <= 0 || u >= static_cast<std::uint64_t>(lo));
    }
    const long long x = v.get<long long>();
    return x >= lo && x <= hi;
  };
  if (!j.contains("ticks") || !int_in(j["ticks"], 0, 1000000))
    return err = "\"ticks\" must be an integer in 0 .. 10^6", false;
  out.ticks = j["ticks"].get<int>();
  if (!j.contains("agents") || !j["agents"].is_array())
    return err = "\"agents\" must be an array", false;
  const auto agents = [&](const json& list, const std::string& name) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json& a = list[i];
      const std::string at = name + "[" + std::to_string(i) + "]";
      if (!a.is_object() || !a.contains("feet") || !a["feet"].is_array() || a["feet"].size() != 3 ||
          !a["feet"][0].is_number() || !a["feet"][1].is_number() || !a["feet"][2].is_number())
        return err = at + ".feet must be [x, y, z] numbers", false;
      CellPos g;
      if (!a.contains("goal") || !cell(a["goal"], g))
        return err = at + ".goal must be [x, y, z] integers", false;
      out.feet.push_back(
          Vec3{a["feet"][0].get<double>(), a["feet"][1].get<double>(), a["feet"][2].get<double>()});
      out.goals.push_back(g);
    }
    return true;
  };
  if (!agents(j["agents"], "agents")) return false;
  if (j.contains("swimmers")) {
    const json& sw = j["swimmers"];
    if (!sw.is_object() || !sw.contains("profile") || !sw["profile"].is_object() ||
        !sw.contains("agents") || !sw["agents"].is_array())
      return err = "\"swimmers\" must be { \"profile\": {...}, \"agents\": [...] }", false;
    out.swimmer_json = sw["profile"].dump();
    out.swimmers = sw["agents"].size();
    if (!agents(sw["agents"], "swimmers.agents")) return false;
  }
  if (j.contains("edits")) {
    if (!j["edits"].is_array()) return err = "\"edits\" must be an array", false;
    for (std::size_t i = 0; i < j["edits"].size(); ++i) {
      const json& e = j["edits"][i];
      const std::string at = "edits[" + std::to_string(i) + "]";
      ScenarioEdit ed;
      if (!e.is_object() || !e.contains("tick") || !int_in(e["tick"], 0, out.ticks - 1LL))
        return err = at + ".tick must be an integer in 0 .. ticks - 1", false;
      ed.tick = e["tick"].get<int>();
      if (!e.contains("cell") || !cell(e["cell"], ed.cell))
        return err = at + ".cell must be [x, y, z] integers", false;
      if (!e.contains("block") || !e["block"].is_string())
        return err = at + ".block must be a block state name", false;
      ed.block = e["block"].get<std::string>();
      if (!out.edits.empty() && ed.tick < out.edits.back().tick)
        return err = at + ".tick is smaller than the previous edit's (edits must be in tick order)",
               false;
      out.edits.push_back(ed);
    }
  }
  if (j.contains("checkpoints")) {
    if (!j["checkpoints"].is_array()) return err = "\"checkpoints\" must be an array", false;
    for (const json& c : j["checkpoints"]) {
      if (!int_in(c, 1, out.ticks)) return err = "checkpoints must be integers in 1 .. ticks", false;
      out.checkpoints.push_back(c.get<int>());
    }
  }
  return true;
}

}  // namespace

Status parse_scenario_json(std::span<const std::uint8_t> json_bytes, Scenario* out,
                           std::string* error) {
  std::string err;
  try {
    if (!out) {
      err = "out is null";
      if (error) *error = err;
      return Status::InvalidArgument;
    }
    Scenario sc;
    if (!parse(json_bytes, sc, err)) {
      if (error) *error = err;
      return Status::BadFormat;
    }
    *out = std::move(sc);
    return Status::Ok;
  } catch (const std::bad_alloc&) {
    if (error) *error = "out of memory";
    return Status::OutOfMemory;
  } catch (const std::exception& e) {  // nlohmann type errors: none expected, never let one out
    if (error) *error = e.what();
    return Status::BadFormat;
  }
}

}  // namespace voxnav::native
