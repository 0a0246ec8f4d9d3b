#include "cli_stuck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli_common.h"

namespace voxnav::cli {

namespace {
double distance(const Vec3& a, const Vec3& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}
}  // namespace

StuckWatch::StuckWatch(std::size_t agents, double dt)
    : agents_(agents),
      dt_(dt),
      threshold_(static_cast<std::int64_t>(std::ceil(kStuckSeconds / dt - 1e-9))) {}

void StuckWatch::goal(std::size_t i, CellPos goal, const Vec3& feet, std::int64_t now) {
  Agent& a = agents_[i];
  if (!a.has_goal) {  // the clock starts with the first goal
    a.since = now;
    a.at = a.now = feet;
    a.farthest = 0;
  }
  a.has_goal = true;
  a.goal = Vec3{goal.x + 0.5, static_cast<double>(goal.y), goal.z + 0.5};
  a.best = distance(feet, a.goal);
}

void StuckWatch::observe(std::size_t i, const AgentState& s, std::int64_t now) {
  Agent& a = agents_[i];
  a.mode = s.mode;
  a.now = s.feet;
  a.farthest = std::max(a.farthest, distance(s.feet, a.at));
  const double d = distance(s.feet, a.goal);
  if (!a.has_goal || s.mode == AgentMode::Arrived || s.arrivals != a.arrivals) {
    a.arrivals = s.arrivals;
    a.best = d;
    a.since = now;
    a.at = s.feet;
    a.farthest = 0;
  } else if (d <= a.best - kStuckProgress) {
    a.best = d;
    a.since = now;
    a.at = s.feet;
    a.farthest = 0;
  }
}

std::vector<StuckWatch::Entry> StuckWatch::stuck(const World& world,
                                                 const std::vector<AgentId>& ids,
                                                 std::int64_t now) const {
  std::vector<Entry> out;
  for (std::size_t i = 0; i < agents_.size() && i < ids.size(); ++i) {
    const Agent& a = agents_[i];
    if (!a.has_goal || a.mode == AgentMode::Arrived || now - a.since < threshold_) continue;
    Entry e;
    e.agent = i;
    e.mode = a.mode;
    e.seconds = static_cast<double>(now - a.since) * dt_;
    e.moved = distance(a.now, a.at);
    e.farthest = a.farthest;
    AgentState s;
    if (world.agent_state(ids[i], &s) == Status::Ok) e.failure = s.failure;
    (void)world.agent_reason(ids[i], &e.reason);
    if (e.reason.empty()) {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "no progress toward its goal for %.2f s (%s: its feet went %.1f m at most "
                    "from where they were then)",
                    e.seconds, e.farthest < kInPlace ? "in place" : "walking elsewhere",
                    e.farthest);
      e.reason = buf;
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::size_t in_place_count(const std::vector<StuckWatch::Entry>& entries) {
  std::size_t n = 0;
  for (const StuckWatch::Entry& e : entries) n += e.farthest < StuckWatch::kInPlace;
  return n;
}

std::string stuck_text(const StuckWatch::Entry& e) {
  return "agent " + std::to_string(e.agent) + ": " + agent_mode_name(e.mode) + ": " + e.reason;
}

std::string stuck_json(const std::vector<StuckWatch::Entry>& entries) {
  std::string o = "[";
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const StuckWatch::Entry& e = entries[k];
    char secs[64];
    std::snprintf(secs, sizeof secs, "%.2f,\"moved_m\":%.2f,\"farthest_m\":%.2f", e.seconds,
                  e.moved, e.farthest);
    o += (k ? ",{" : "{");
    o += "\"agent\":" + std::to_string(e.agent) + ",\"mode\":\"" + agent_mode_name(e.mode) +
         "\",\"failure\":\"" + path_failure_name(e.failure) + "\",\"seconds\":" + secs +
         ",\"in_place\":" + (e.farthest < StuckWatch::kInPlace ? "true" : "false") +
         ",\"reason\":\"" + json_escape(e.reason) + "\"}";
  }
  return o + "]";
}

}  // namespace voxnav::cli
