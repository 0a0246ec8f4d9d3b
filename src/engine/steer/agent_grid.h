// A spatial grid of agent bodies for neighbour queries (steering). Bodies are bucketed by the
// cells under their feet into square buckets of `bucket` cells over the bounding box of all
// bodies; each bucket lists its bodies by agent slot. A query returns the k nearest bodies within a
// range, ordered by (squared distance, slot): the answer depends only on the bodies, never on the
// bucket size or the order buckets are visited in. Rebuilt each tick without allocating once the
// vectors have grown to the crowd's size.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace voxnav::detail {

/// One body in the grid.
struct GridBody {
  double x = 0, y = 0, z = 0;  ///< feet (bottom centre), cells
  double vx = 0, vz = 0;       ///< horizontal velocity, m/s
  double height = 0;           ///< body height, cells
  double orca_radius = 0;      ///< ORCA radius, cells
  double radius = 0;           ///< half the body width (separation, contact), cells
  std::uint32_t slot = 0;      ///< agent slot
  std::uint32_t motion = 0;
  /// The agent's order: its goal cell and range, or the flow field it follows (generation 0:
  /// none). Two bodies share an order when all of these are equal (a field's followers: the same
  /// field).
  std::int32_t goal_x = 0, goal_y = 0, goal_z = 0, goal_range = 0;
  std::uint32_t flow_index = 0, flow_generation = 0;
  bool same_order(const GridBody& o) const {
    if (flow_generation != o.flow_generation) return false;
    if (flow_generation) return flow_index == o.flow_index;
    return goal_x == o.goal_x && goal_y == o.goal_y && goal_z == o.goal_z &&
           goal_range == o.goal_range;
  }
  std::uint8_t flags = 0;                       ///< GridBody::k* bits
  static constexpr std::uint8_t kAvoids = 1;    ///< avoids back this tick (ORCA reciprocity)
  static constexpr std::uint8_t kPushable = 2;  ///< separation may move it
  static constexpr std::uint8_t kArrived = 4;   ///< Arrived with a goal (contagion source)
  static constexpr std::uint8_t kMoving = 8;    ///< Moving with a goal (contagion target)
};

/// A neighbour found by AgentGrid::nearest: its body index and squared distance.
struct GridHit {
  double d2 = 0;
  std::uint32_t body = 0;
  std::uint32_t slot = 0;
};

class AgentGrid {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  /// Empties the grid; add() bodies in slot order, then build().
  void clear(std::size_t slots);
  void add(const GridBody& b) {
    if (b.slot >= of_slot_.size()) of_slot_.resize(b.slot + 1, kNone);
    of_slot_[b.slot] = static_cast<std::uint32_t>(bodies_.size());
    bodies_.push_back(b);
  }
  /// Buckets `1 << min_shift` cells wide at least (wider for a widely spread crowd). A query
  /// visits every bucket around the body out to its range until it holds k hits nearer than
  /// any unvisited bucket: match the bucket to the range of the queries (the answer does not
  /// depend on it).
  void build(int min_shift);

  std::size_t size() const { return bodies_.size(); }
  const GridBody& body(std::uint32_t i) const { return bodies_[i]; }
  /// The body index of an agent slot (kNone when it was not added).
  std::uint32_t of_slot(std::uint32_t slot) const {
    return slot < of_slot_.size() ? of_slot_[slot] : kNone;
  }
  /// Largest radius and ORCA radius of the bodies.
  double max_radius() const { return max_radius_; }
  double max_orca_radius() const { return max_orca_radius_; }

  /// The at most `k` nearest bodies other than `self` whose horizontal distance from body `self`
  /// is below `range` and whose heights overlap it, nearest first (ties: lower slot first).
  /// Writes them to `out` (room for k) and returns how many.
  int nearest(std::uint32_t self, double range, int k, GridHit* out) const;

 private:
  std::vector<GridBody> bodies_;
  std::vector<std::uint32_t> of_slot_;
  std::vector<std::uint32_t> start_;  ///< per bucket: first index into packed_ (+1 entry)
  /// What a query reads of a body, bucket by bucket (by slot inside one): contiguous, so a
  /// query walks memory in order.
  struct Packed {
    double x, z, y, top;  ///< feet, and feet + height
    std::uint32_t body, slot;
  };
  std::vector<Packed> packed_;
  std::vector<std::uint32_t> bucket_of_;
  std::int64_t min_x_ = 0, min_z_ = 0;  ///< cell of bucket (0, 0)'s low corner
  std::int64_t width_ = 0, depth_ = 0;  ///< buckets along x and z
  int shift_ = 1;                       ///< bucket side = 1 << shift_ cells
  double max_radius_ = 0, max_orca_radius_ = 0;
};

}  // namespace voxnav::detail
