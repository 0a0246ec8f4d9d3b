// ChunkBuilds: the streaming of one NavWorld. A chunk loaded after the first build gets its
// layer 0 built on the executor from a snapshot of it and of the chunks its cells read; the build
// is installed at the update the lockstep delay names, and only if the chunk is still the one
// loaded (classified again from the current blocks if it, or a neighbour it reads, changed
// meanwhile). With a build radius, loads far from every agent wait, deferred, until one comes
// near.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "engine/nav/nav_context.h"

namespace voxnav::detail {

class EditMaintenance;

class ChunkBuilds {
 public:
  explicit ChunkBuilds(NavContext& ctx) : ctx_(ctx) {}

  void set_streaming(bool on) {
    streaming_ = on;
    rescan_deferred_ = true;
  }
  bool streaming() const { return streaming_; }
  void set_build_radius(int chunks) {
    build_radius_ = chunks < 0 ? 0 : chunks;
    rescan_deferred_ = true;
  }
  int build_radius() const { return build_radius_; }
  /// The chunks of the agents that pull builds around them. Any order, duplicates allowed.
  void set_agent_chunks(std::vector<ChunkPos> chunks);

  /// Builds dispatched or about to be (this update's loads).
  std::size_t pending() const { return builds_.size() + new_builds_.size(); }
  std::size_t deferred() const { return deferred_.size(); }
  bool is_deferred(ChunkPos p) const;
  /// Loaded in this update, build not dispatched yet.
  bool is_new_build(ChunkPos p) const;
  /// Whether chunk p is loaded in the space and has no navigation.
  bool is_unbuilt(ChunkPos p) const { return ctx_.space.chunk(p) && !ctx_.grid.chunk(p); }
  /// Whether some chunk's build is in flight, waits for dispatch or is deferred.
  bool any_unbuilt() const {
    return !builds_.empty() || !new_builds_.empty() || !deferred_.empty();
  }
  /// Those chunks (in flight, this update's loads, deferred), in chunk_key order, unique.
  std::vector<ChunkPos> unbuilt_chunks() const;

  /// Streaming the loads among `all` (when streaming and a first build exists, and there are not
  /// too many loads without a build radius): each loaded chunk waits for its build (a reloaded
  /// one loses its navigation at once) and the built chunks that read its blocks are classified
  /// again now, through `maint`. Returns true when it did; `rest` then holds the other changes.
  bool take_loads(const std::vector<Change>& all, std::vector<Change>& rest,
                  EditMaintenance& maint);
  /// Installs the builds due at this tick (through `maint`, for the islands); publishes a change
  /// around each one for the agents. Returns true when one was installed.
  bool install_due(EditMaintenance& maint);
  /// Dispatches the builds of this update's loads near an agent and of the deferred chunks an
  /// agent came near; the others join the deferred ones.
  void dispatch();

 private:
  struct Build {
    ChunkPos pos;
    std::uint64_t deliver_tick = 0;
    /// Snapshots of the chunk and of the neighbours its layer 0 reads (NavGrid::reads_chunk),
    /// indexed like NavChunk::nb (null: not loaded, or not read).
    std::array<std::shared_ptr<Chunk>, 27> snap;
    std::unique_ptr<NavChunk> result;
  };
  /// Whether chunk p is within the build radius of an agent's chunk (true without a radius).
  bool near_agents(ChunkPos p) const;
  /// After installing the build of chunk p made from the block snapshots `snap` (indexed like
  /// NavChunk::nb), classifies again from the current blocks only the cells whose layer 0 reads a
  /// neighbour whose stamp changed since. Returns false when it classified the whole chunk
  /// instead (the chunk is stored uniform, or should be now).
  bool reclassify_facing(ChunkPos p, const std::array<std::shared_ptr<Chunk>, 27>& snap);

  NavContext& ctx_;
  std::deque<Build> builds_;            // dispatched, in order (deque: stable while jobs write)
  std::vector<ChunkPos> new_builds_;    // loads seen this update, dispatched at its end
  std::vector<ChunkPos> deferred_;      // loaded, not built, no build dispatched (chunk_key order)
  std::vector<ChunkPos> agent_chunks_;  // set_agent_chunks (chunk_key order, unique)
  int build_radius_ = 0;
  bool rescan_deferred_ = false;  // the agents, the radius or the loaded set changed
  bool streaming_ = false;
};

}  // namespace voxnav::detail
