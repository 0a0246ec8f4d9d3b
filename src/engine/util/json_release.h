// Freeing an nlohmann::json document without allocating. Its destructor flattens a non-empty array
// or object into a heap vector before freeing it (to avoid deep recursion), and an allocation that
// fails inside a destructor terminates the process: out of memory right after a parse, freeing the
// parsed document would end the program instead of returning OutOfMemory. JsonRelease empties a
// document first, children before parents, so that every container the destructor meets is empty.
#pragma once
#include <nlohmann/json.hpp>

namespace voxnav::detail {

/// Empties `j` bottom-up without allocating. Recursion stops at kMaxDepth levels (deeper parts are
/// left to the destructor, which may allocate): the documents read here are a few levels deep.
inline void release_json(nlohmann::json& j, int depth = 0) noexcept {
  constexpr int kMaxDepth = 64;
  if (depth >= kMaxDepth) return;
  if (j.is_array()) {
    auto& a = j.get_ref<nlohmann::json::array_t&>();
    while (!a.empty()) {
      release_json(a.back(), depth + 1);
      a.pop_back();  // destroys an empty container, a string or a scalar: no allocation
    }
  } else if (j.is_object()) {
    auto& o = j.get_ref<nlohmann::json::object_t&>();
    for (auto& kv : o) release_json(kv.second, depth + 1);
    o.clear();
  }
}

/// Releases a document when the scope ends (declare it right after the document).
class JsonRelease {
 public:
  explicit JsonRelease(nlohmann::json& j) : j_(j) {}
  JsonRelease(const JsonRelease&) = delete;
  JsonRelease& operator=(const JsonRelease&) = delete;
  ~JsonRelease() { release_json(j_); }

 private:
  nlohmann::json& j_;
};

}  // namespace voxnav::detail
