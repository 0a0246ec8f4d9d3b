// The body envelope and move limits of each movement class (navigation data is per class).
#pragma once
#include "voxnav/profile.h"

namespace voxnav::detail {

struct ClassLimits {
  double width, height;   ///< envelope, cells
  double step_height;     ///< cells
  double jump_apex;       ///< cells
  int max_drop;           ///< cells
  bool can_climb;
};

/// walker_small 0.6 x 0.95, walker 0.6 x 1.95, walker_large 1.98 x 2.95 (a 2x2 footprint),
/// swimmer 0.98 x 0.98, flyer 0.98 x 1.95.
inline const ClassLimits& class_limits(MovementClass c) {
  static const ClassLimits k[5] = {
      {0.6, 0.95, 0.6, 1.25, 3, true},   // walker_small
      {0.6, 1.95, 0.6, 1.25, 3, true},   // walker
      {1.98, 2.95, 1.0, 1.25, 4, false}, // walker_large
      {0.98, 0.98, 0.0, 0.0, 0, false},  // swimmer
      {0.98, 1.95, 0.0, 0.0, 0, false},  // flyer
  };
  return k[static_cast<int>(c)];
}

}  // namespace voxnav::detail
