// The default flight search over a FlightGrid (flight_grid.h): fast, not optimal.
//
// Nodes are open bricks (one node for the whole 4x4x4 brick) and, in mixed bricks, free cells.
// Six neighbours: across a face, an open brick is one node, a mixed brick gives each free cell
// of the touching face layer (up to 16), a blocked brick nothing. Every node costs one unit, and
// a hover cell (FlightGrid::brick_hover: a World flyer's cell just above a collision top) one
// more, so a route through open air (few, large nodes) is cheap: flyers prefer open air. f = g + 4 h with
// h the Manhattan distance in cells from the node's nearest cell to the goal; ties by (f, h, node
// id); a closed node is never reopened (the weighted heuristic makes the result bounded-
// suboptimal anyway). Reachability is the same as the optimal mode's: any 26-connected box-rule
// path decomposes into face steps through free cells.
//
// The node path is emitted as a 6-connected cell path: axis runs inside each open brick (all its
// cells are free) from the cell where the path enters to the cell where it leaves.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/flight/brick_tags.h"
#include "engine/flight/flight_grid.h"
#include "voxnav/types.h"

namespace voxnav::detail::flight {

struct DefaultSearchResult {
  bool found = false;
  bool limited = false;
  std::uint64_t expanded = 0;  ///< nodes expanded (an open brick counts once)
  std::uint64_t nodes = 0;     ///< nodes on the path (its cost in units)
  std::vector<CellPos> cells;  ///< 6-connected, start .. goal
};

class DefaultSearch {
 public:
  /// Start and goal must be free cells of `grid` (the caller checks). max_expansions 0: no limit.
  void run(const FlightGrid& grid, CellPos start, CellPos goal, std::uint64_t max_expansions,
           DefaultSearchResult& out);
  std::size_t memory_bytes() const;

 private:
  struct Page {
    std::uint32_t g[64];
    std::uint32_t parent[64];
    std::uint64_t closed;
  };
  struct Entry {
    std::uint64_t fh;  // f << 32 | h
    std::uint32_t id;
  };
  Page& touch(std::uint32_t brick);
  Page* find(std::uint32_t brick);
  void push(Entry e);
  Entry pop();

  BrickTags tags_;  // per padded brick touched: generation << 32 | page
  std::vector<Page> pages_;
  std::size_t pages_used_ = 0;
  std::vector<Entry> heap_;
  std::vector<std::uint32_t> path_nodes_;
  std::uint32_t gen_ = 0;
};

}  // namespace voxnav::detail::flight
