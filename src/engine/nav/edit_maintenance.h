// EditMaintenance: keeps one NavWorld's layers 0-2 and islands up to date with the space's
// changes. An edit of up to kMaxIncrementalCells cells is maintained cell by cell
// (maintain_edit, in named phases); loads, unloads and bigger boxes reclassify whole chunks
// (chunk_level), and the islands follow as a delta, or a full recomputation for many chunks.
#pragma once
#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "engine/nav/nav_context.h"

namespace voxnav::detail {

class ChunkBuilds;

class EditMaintenance {
 public:
  /// Edits touching more cells than this are maintained chunk by chunk.
  static constexpr std::int64_t kMaxIncrementalCells = 512;
  /// Loads / unloads / big boxes touching more chunks than this recompute every island (and,
  /// without a build radius, that many loads build at once instead of streaming).
  static constexpr std::size_t kMaxIncrementalChunks = 48;

  explicit EditMaintenance(NavContext& ctx) : ctx_(ctx) {}

  /// Brings the layers up to date with `changes` (the loads streamed by `builds` already taken
  /// out); `dropped` when that streaming changed chunks. Returns true when reachability answers
  /// may have changed.
  bool maintain(const std::vector<Change>& changes, bool dropped, const ChunkBuilds& builds);
  /// Classifies the chunks of `classify` with `do_classify`, recomputes the moves around them and
  /// brings the islands up to date (a delta, or a full recomputation for many chunks).
  template <class F>
  void chunk_level(std::vector<ChunkPos> classify, F&& do_classify) {
    using Fn = std::remove_reference_t<F>;
    chunk_level_with(
        std::move(classify), [](void* f) { (*static_cast<Fn*>(f))(); },
        const_cast<void*>(static_cast<const void*>(&do_classify)));
  }

 private:
  void chunk_level_with(std::vector<ChunkPos> classify, void (*call)(void*), void* fn);
  void maintain_chunks(const std::vector<Change>& changes, const ChunkBuilds& builds);

  // ---- maintain_edit and its phases ----
  /// The layer-0 dependency box of an edit: the cells whose envelope, support or ceiling scan
  /// reads an edited cell.
  struct EditBox {
    CellPos min, max;
    int f2 = 0;  ///< 1 for the 2x2 footprint (its foot cells one toward -x and -z stand over it)
    int w = 0, h = 0, d = 0;
    std::size_t index(const CellPos& x) const {
      return static_cast<std::size_t>(((x.y - min.y) * d + (x.z - min.z)) * w + (x.x - min.x));
    }
    bool contains(const CellPos& x) const {
      return x.x >= min.x && x.x <= max.x && x.y >= min.y && x.y <= max.y && x.z >= min.z &&
             x.z <= max.z;
    }
  };
  /// The box of cells whose layer 0 changed (empty: min > max), widened to the readers of the
  /// hazard flags that moved.
  struct ChangedBox {
    CellPos min{INT_MAX, INT_MAX, INT_MAX}, max{INT_MIN, INT_MIN, INT_MIN};
  };
  bool maintain_edit(const Change& c);
  EditBox dependency_box(const Change& c) const;
  /// Calls f(cell, its layer 0) for every cell of the box, a chunk looked up once per run.
  template <class F>
  void each_box_cell(const EditBox& box, F&& f) const;
  void record_layer0(const EditBox& box);
  /// The chunks whose uniform storage may flip with this edit: the box's, and those above and
  /// below the edited chunks (and the 2x2 footprint's -x, -z columns).
  void collect_uniform_candidates(const Change& c, const EditBox& box);
  /// Classifies again, whole, each candidate whose uniform decision flipped, keeping its old
  /// state; every cell whose layer 0 or hazard flag changed there joins the edit.
  void reclassify_uniform_flips();
  /// Classifies the box again and returns the box of the cells whose layer 0 changed.
  ChangedBox reclassify_box(const EditBox& box);
  /// Cells whose move words can change: every cell with a move into a reclassified cell and the
  /// cells themselves; with gap jumps, the cells two columns away (their gap jumps only).
  void collect_move_cells(const ChangedBox& changed, int f2);
  /// The node, gate and move words of those cells before the edit.
  void snapshot_old_cells(const EditBox& box);
  void rebuild_move_words();
  /// The islands' delta: nodes in and out, gate kind changes, edges removed and added.
  IslandDelta& island_delta();
  NavChunk* chunk_at(const CellPos& x);

  NavContext& ctx_;
  // Scratch of maintain_edit (kept to avoid allocations per edit).
  struct SavedChunk {  // a chunk's layer 0 / moves before it was classified again as a whole
    ChunkPos pos;
    bool uniform = false;
    CellKind uniform_kind = CellKind::Air;
    std::vector<std::uint8_t> kind, floor, clear, vmoves, flags;
    std::vector<std::uint32_t> sides;  // empty: none
    std::vector<GapWord> gaps;
    std::vector<std::uint32_t> moves;
    CellKind kind_at(int i) const {
      return uniform ? uniform_kind : static_cast<CellKind>(kind[static_cast<std::size_t>(i)]);
    }
  };
  struct Layer0Cell {  // what a cell's moves read of it (uniform chunks: their defaults)
    std::uint8_t kind = static_cast<std::uint8_t>(CellKind::Blocked), floor = 0, clear = 255,
                 flags = 0;
    std::uint32_t sides = kNoSides;
    bool operator==(const Layer0Cell&) const = default;
  };
  static Layer0Cell layer0_of(const NavChunk& ch, int i) {
    if (ch.uniform) return {static_cast<std::uint8_t>(ch.uniform_kind), 0, 255, 0, kNoSides};
    return {ch.kind[i], ch.floor[i], ch.clear[i], ch.flags_at(i), ch.sides_at(i)};
  }
  struct OldCell {
    CellPos c;
    bool node;
    std::uint8_t gate;
    std::uint8_t vword;
    GapWord gword;
    std::uint32_t word;
    bool gaps_only = false;  ///< only its gap jumps can change (a cell two ahead reclassified)
  };
  std::vector<ChunkPos> scratch_chunks_;
  std::vector<SavedChunk> scratch_saved_;
  std::vector<Layer0Cell> scratch_layer0_;  // layer 0 of the dependency box before the edit
  std::vector<CellPos> scratch_extra_, scratch_extra_hazard_;
  std::vector<CellPos> scratch_cells_, scratch_gap_cells_;
  std::size_t whole_cells_ = 0;  // scratch_cells_[0, whole_cells_): every move word
  std::vector<OldCell> scratch_old_;
  std::vector<std::uint64_t> scratch_relabel_;  // cell keys of cells entering or leaving gate kinds
  IslandDelta scratch_delta_;
  // The chunk of the cells in turn (they come in runs of the same chunk): chunk_at's cache.
  NavChunk* last_chunk_ = nullptr;
  ChunkPos last_pos_{};
  bool have_last_ = false;
  struct ChunkSnap {  // a chunk's moves and island labels before a chunk-level change
    std::uint64_t key;
    std::vector<std::uint32_t> moves, labels;
    std::vector<std::uint8_t> vmoves;  // empty: none
    std::vector<GapWord> gaps;         // empty: none
  };
};

}  // namespace voxnav::detail
