// ChangeFeed: the hand-off of changes from a NavWorld's maintenance to the agents that follow
// its corridors. Maintenance publishes the boxes of cells it brought up to date (edits, loads,
// installed chunk builds); the consumer (the agent system) reads them at its step and consumes
// them. The feed keeps nothing while it has no consumer, and never more than kMaxBoxes boxes:
// past that it coalesces into one bounding box and says so (coalesced()), and the consumer then
// checks every corridor against that box instead of looking up the ones near each change.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "engine/world/space.h"

namespace voxnav::detail {

class ChangeFeed {
 public:
  /// Boxes kept between two consumptions before they coalesce into one.
  static constexpr std::size_t kMaxBoxes = 4096;

  /// Whether someone will consume the feed (the World sets it before each update: some live
  /// agent follows this navigation). Without a consumer publish() keeps nothing, and turning the
  /// consumer off drops what was kept: an agent added later plans on the layers of its time.
  void set_consumer(bool on) {
    consumer_ = on;
    if (!on) consume();
  }
  bool has_consumer() const { return consumer_; }

  void publish(const Change& c) {
    if (!consumer_) return;
    if (coalesced_) {
      grow(boxes_.front(), c);
      return;
    }
    boxes_.push_back(c);
    if (boxes_.size() > kMaxBoxes) coalesce();
  }
  void publish(const std::vector<Change>& cs) {
    for (const Change& c : cs) publish(c);
  }

  /// The boxes published since the last consume(), in order (one box when coalesced()).
  const std::vector<Change>& changes() const { return boxes_; }
  /// More than kMaxBoxes boxes came since the last consume(): changes() holds their bounding
  /// box alone, and every corridor is to be checked against it.
  bool coalesced() const { return coalesced_; }
  void consume() {
    boxes_.clear();
    coalesced_ = false;
  }

 private:
  static void grow(Change& all, const Change& c) {
    all.min = CellPos{std::min(all.min.x, c.min.x), std::min(all.min.y, c.min.y),
                      std::min(all.min.z, c.min.z)};
    all.max = CellPos{std::max(all.max.x, c.max.x), std::max(all.max.y, c.max.y),
                      std::max(all.max.z, c.max.z)};
  }
  void coalesce() {
    Change all = boxes_.front();
    for (const Change& c : boxes_) grow(all, c);
    boxes_.assign(1, all);
    coalesced_ = true;
  }

  std::vector<Change> boxes_;
  bool consumer_ = false;
  bool coalesced_ = false;
};

}  // namespace voxnav::detail
