// Layer 0 (per-cell classification) and the per-cell move words of layer 2, stored per chunk.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/classify/layer_plane.h"
#include "engine/util/key_hash.h"
#include "engine/world/space.h"
#include "voxnav/executor.h"
#include "voxnav/requests.h"

namespace voxnav::detail {

/// Layer 0 kinds: what a body of the class standing with its feet in a cell meets.
enum class CellKind : std::uint8_t {
  Blocked = 0,  ///< the envelope intersects collision (or reaches into unloaded space)
  Air,          ///< envelope clear but nothing to stand on
  Walkable,     ///< supported and clear
  Water,        ///< the feet are in a swimmable fluid
  Climbable,
  DoorOpen,
  DoorClosed,
  DamageFire,   ///< fire, lava, magma under or in the body: impassable unless priced
  DamageOther,  ///< cactus, berry bush ...
  DangerFire,   ///< walkable, within one cell of a fire hazard
  DangerOther,  ///< walkable, within one cell of another hazard
  Slow,         ///< walkable but slowed (cobweb, honey, soul sand)
};

/// A body stands on ground in this cell (walkable, possibly slowed or next to a hazard).
inline bool kind_standable(CellKind k) {
  return k == CellKind::Walkable || k == CellKind::Slow || k == CellKind::DangerFire ||
         k == CellKind::DangerOther;
}

/// A node of the class's move graph: a standable cell, a climbable cell, a door cell or a damage
/// cell (a profile that does not price it never enters it). Air, water and blocked cells are not.
inline bool kind_node(CellKind k) {
  return k != CellKind::Blocked && k != CellKind::Air && k != CellKind::Water;
}

/// Whether any of 8 consecutive kind bytes is a node (SWAR: the bytes that are not are 0, 1 and 3,
/// below 4 and not 2), so scans of a chunk's kinds skip runs of air and rock 8 cells at a time.
inline bool any_node8(const std::uint8_t* kinds) {
  static_assert(int(CellKind::Blocked) == 0 && int(CellKind::Air) == 1 &&
                int(CellKind::Walkable) == 2 && int(CellKind::Water) == 3);
  std::uint64_t w;
  std::memcpy(&w, kinds, 8);
  constexpr std::uint64_t kLow = 0x0101010101010101ull;
  return (w & (kLow * 0xFC)) != 0 || ((w >> 1) & ~w & kLow) != 0;
}

/// Gate kinds: node kinds some profiles may not enter. A gate cell is an island of its own (see
/// Islands), so reachability can be answered with or without each gate kind.
enum GateBits : std::uint8_t {
  kGateDoorOpen = 1,
  kGateDoorClosed = 2,
  kGateClimb = 4,
  kGateFire = 8,
  kGateOther = 16,
  kGateAll = 31,
};
inline std::uint8_t kind_gate(CellKind k) {
  switch (k) {
    case CellKind::DoorOpen:
      return kGateDoorOpen;
    case CellKind::DoorClosed:
      return kGateDoorClosed;
    case CellKind::Climbable:
      return kGateClimb;
    case CellKind::DamageFire:
      return kGateFire;
    case CellKind::DamageOther:
      return kGateOther;
    default:
      return 0;
  }
}
inline bool kind_door(CellKind k) { return k == CellKind::DoorOpen || k == CellKind::DoorClosed; }

/// Per-cell flags of the blocks in the cell itself (NavChunk::flags): what the danger band and the
/// slow base kind are derived from.
enum CellFlags : std::uint8_t {
  kFlagFireBlock = 1,   ///< a fire hazard value lies in this cell
  kFlagOtherBlock = 2,  ///< another hazard value lies in this cell
  kFlagSlowBase = 4,    ///< layer 0 classified the cell Slow (before the danger band)
  /// A standable cell whose standing surface does not span the cell to within kCornerMarginQ of
  /// its sides (a fence or wall post, a stair's upper half, a pot): a diagonal past an open side
  /// never starts or ends on one (see NavGrid::compute_moves_for_cell).
  kFlagNarrowSupport = 8,
  /// A value that slows a body touching it lies in this cell (a cobweb, a honey or soul sand
  /// block, powder snow): a diagonal whose body would overlap such a cell beside it is refused,
  /// as past a hazard (NavGrid::compute_moves_for_cell, issue 18 cause 6).
  kFlagSlowBlock = 16,
  /// A climbable value lies in this cell: a body standing here has its feet on it and climbs the
  /// rung above without a jump.
  kFlagClimbBlock = 32,
};
/// The flags of hazard values (what the danger band reads).
inline constexpr std::uint8_t kFlagsHazard = kFlagFireBlock | kFlagOtherBlock;
/// A diagonal over the void beside a corner: the 0.6-wide body on the exact diagonal between
/// two cell centres always overlaps the source's or the target's corner square of 0.4 - a
/// little (it leaves the source's when its near edge passes the corner, 0.2 before it reaches
/// the target's): with both standing surfaces spanning the cell to within 12/64 of the sides,
/// it rests on one of them all along.
inline constexpr int kCornerMarginQ = 12;
/// Cell rows of an open side a diagonal over the void reads (the source's row and the one
/// above: within the one-column, one-row-up reach of every move rule, which the edit maintenance
/// recomputes): the body must stay below their top.
inline constexpr int kVoidSideRows = 2;

/// What a body moving along each cardinal direction d meets at the cell's sides (NavChunk::sides),
/// byte d of a word:
///  - kSideWall (bit 7): a collision box lies between the body's footprint and the cell's face on
///    side d, across the body's width and too high to step over at the cell's feet height (a
///    ladder's plate, an open door's leaf, a fence's arm): no move leaves or enters the cell
///    through that side (BlockRegistry::side_walls);
///  - the tread (bits 0..6): for a cell standing on a block of the cell below, the first tread a
///    body moving along d mounts to climb that block in steps (a stair from its low side: its
///    lower half), as kTreadBias + its height from the cell's bottom in 1/64 units (below the
///    bottom), or kNoTread when the body climbs it by jumping (BlockRegistry::tread_in_footprint).
///    A rise onto the cell whose first tread lies within a step of the source's feet is a StepUp
///    (NavGrid::compute_moves_for_cell).
inline constexpr std::uint32_t kNoSides = 0x7F7F7F7Fu;
inline constexpr int kNoTread = 0x7F;
inline constexpr int kTreadBias = 64;
inline constexpr std::uint32_t kSideWall = 0x80;
inline int tread_of(std::uint32_t sides, int dir) { return (sides >> (dir * 8)) & 0x7F; }
inline bool side_walled(std::uint32_t sides, int dir) { return ((sides >> (dir * 8)) & kSideWall) != 0; }
inline bool any_wall(std::uint32_t sides) { return (sides & 0x80808080u) != 0; }
/// The cardinal direction opposite d (0..3).
inline int opposite_dir(int d) { return (d + 2) & 3; }

/// Vertical moves of a cell (NavChunk::vmoves): climbing a ladder up or down.
enum VerticalMoves : std::uint8_t { kMoveUp = 1, kMoveDown = 2 };

/// Gap jumps of a cell (NavChunk::gaps), one bit per cardinal direction d (0..3): bit d a jump
/// over one cell of open air landing at the same level (two cells along d), bit 4 + d one landing
/// a cell lower, bit 8 + d one landing in the cell row above (a take-off from a high floor, soul
/// sand at 0.875, onto a full block: the landing feet rise at most a step either way), bit 12 + d
/// a jump over two cells of open air landing at the same level (three cells along d: a walking
/// jump carries the body 2.4 cells). See ClassEnvelope::gap_reach.
using GapWord = std::uint16_t;
enum GapMoves : GapWord { kGapLevel = 1, kGapDown = 16, kGapUp = 256, kGapLevel2 = 4096 };
/// The gap jump variants v (0 level, 1 a cell lower, 2 a cell row up, 3 level over two cells):
/// bit kGapBit[v] << d of a gap word, the cell row kGapDy[v] of the landing, the cells of open
/// air kGapCells[v] it crosses (the landing is kGapCells[v] + 1 cells along d), and the move code
/// kGapCode[v].
inline constexpr int kGapVariants = 4;
inline constexpr GapWord kGapBit[kGapVariants] = {kGapLevel, kGapDown, kGapUp, kGapLevel2};
inline constexpr int kGapDy[kGapVariants] = {0, -1, 1, 0};
inline constexpr int kGapCells[kGapVariants] = {1, 1, 1, 2};
/// The longest gap jump of the navigation, cells of open air.
inline constexpr int kMaxGapCells = 2;

/// Cells a walker cell's ceiling scan reads: its own and kScanCells - 1 above (its clearance is
/// exact up to there, and capped at 255). The edit dependency box of layer 0 reaches this far down
/// from an edited cell (EditMaintenance::dependency_box).
inline constexpr int kScanCells = 4;
/// How far above and below the take-off level the gap jump rules read layer 0 in the columns they
/// cross (the cell above a column whose clearance reached the scan's limit, see column_open_to;
/// the landing a cell lower). EditMaintenance::collect_move_cells recomputes the gap jumps of the
/// cells two columns away over exactly this range.
inline constexpr int kGapReadUp = 1;
inline constexpr int kGapReadDown = 1;

/// The body envelope of a movement class, in 1/64 cell units (kHeightUnits).
struct ClassEnvelope {
  int half_width_q = 19;  ///< 0.3 cell: a 0.6 wide body
  int height_q = 116;     ///< 1.8 cells (rounded up)
  int step_q = 38;        ///< 0.6 cell step height
  int jump_q = 79;        ///< the 1.25-apex jump sampled at 20 Hz reaches 1.2430 (jump_rise_q)
  int max_drop = 3;       ///< cells a walker drops without a search refusing it
  /// The swimmer class: a cell is a node (kind Walkable: "the body can be here") when its whole
  /// envelope, feet on the cell's bottom, lies in a swimmable fluid; moves are level (8
  /// directions, no corner cutting) and straight up or down between such cells, all Swim edges.
  bool swimmer = false;
  /// Cells of open air a gap jump of the class's navigation crosses (0: the class has no gap
  /// jumps). The navigation holds gap jumps over exactly this many cells; a profile's compiled
  /// reach is capped at it, and a profile that cannot jump it restricts the class.
  int gap_reach = 0;
  /// A 2x2 footprint (walker_large): a cell is a *foot cell*, the low corner (min x, min z) of the
  /// four columns the body stands over, and the body's centre is (0.5, 0, 0.5) cells from the foot
  /// cell's centre. Layer 0 of a foot cell combines the four columns (x..x+1, z..z+1), each read
  /// over its whole cell (`half_width_q` is then 32: the body covers 0.99 of each column, and no
  /// collision box lies in the 0.01 strip left out); moves are the walker's between foot cells.
  bool footprint2 = false;
  /// Whether unsupported cells overlapping a climbable value are Climbable (climbing classes); for
  /// the other walkers they are Air.
  bool climbs = true;
  /// Half width of the footprint in foot-cell space, low and high side (1/64 cells): what string
  /// pulling sweeps along a line. The body's own half width for one-column classes; for the 2x2
  /// footprint the body spans foot cells floor(p - 0.49) .. floor(p + 0.49) around a foot-space
  /// position p, which on the 1/64 grid is exactly (p - 32) >> 6 .. (p + 31) >> 6.
  int line_lo_q() const { return footprint2 ? 32 : half_width_q; }
  int line_hi_q() const { return footprint2 ? 31 : half_width_q; }
  /// Body centre minus foot-cell centre, in cells along x and z (0.5 for the 2x2 footprint).
  double foot_offset() const { return footprint2 ? 0.5 : 0.0; }
};

/// The edge kind of a move code in a grid of envelope `env` (a swimmer's moves are all Swim).
inline EdgeKind edge_kind_of(const ClassEnvelope& env, int code);

/// A move code (4 bits per direction in a cell's move word) stands for (dy, kind).
struct MoveCode {
  std::int8_t dy;
  EdgeKind kind;
};
/// Codes 0..15 are the nibbles of a move word; 16 and 17 stand for the vertical moves (vmoves) and
/// 18 to 21 for the gap jumps (gaps) in iterations over a cell's moves.
inline constexpr int kMoveCodeCount = 16;
inline constexpr MoveCode
    kMoveCodes[kMoveCodeCount + 6] =
        {
            {0, EdgeKind::Start},      // 0: no move
            {0, EdgeKind::Walk},       // 1
            {0, EdgeKind::Jump},       // 2: a rise above step height inside the same cell row
            {1, EdgeKind::StepUp},     // 3
            {1, EdgeKind::Jump},       // 4
            {-1, EdgeKind::StepDown},  // 5
            {-1, EdgeKind::Drop},      // 6
            {-2, EdgeKind::Drop},     {-3, EdgeKind::Drop}, {-4, EdgeKind::Drop},
            {-5, EdgeKind::Drop},     {-6, EdgeKind::Drop}, {-7, EdgeKind::Drop},
            {0, EdgeKind::Door},      // 13: a level (or in-row step) axis move into a door cell
            {1, EdgeKind::Climb},     // 14: from a climbable cell onto a ledge one cell up
            {0, EdgeKind::Climb},     // 15: into or out of a climbable cell within the row
            {1, EdgeKind::Climb},     // 16: straight up a ladder (vmoves kMoveUp)
            {-1, EdgeKind::Climb},    // 17: straight down a ladder (vmoves kMoveDown)
            {0, EdgeKind::GapJump},   // 18: over a gap, landing at the same level (gaps kGapLevel)
            {-1, EdgeKind::GapJump},  // 19: over a gap, landing a cell lower (gaps kGapDown)
            {1, EdgeKind::GapJump},   // 20: over a gap, landing a cell row up (gaps kGapUp)
            {0, EdgeKind::GapJump},   // 21: over a two-cell gap, landing level (gaps kGapLevel2)
};
inline constexpr int kCodeDoor = 13, kCodeClimbUp = 14, kCodeClimbLevel = 15;
inline constexpr int kCodeVertUp = 16, kCodeVertDown = 17;
inline constexpr int kCodeGapLevel = 18, kCodeGapDown = 19, kCodeGapUp = 20, kCodeGapLevel2 = 21;
inline constexpr int kGapCode[kGapVariants] = {kCodeGapLevel, kCodeGapDown, kCodeGapUp,
                                               kCodeGapLevel2};
/// Cells along its direction a gap jump of move code `code` (kGapCode[v]) lands: kGapCells[v] + 1.
inline int gap_code_reach(int code) { return code == kCodeGapLevel2 ? 3 : 2; }
static_assert(kGapCells[0] == 1 && kGapCells[1] == 1 && kGapCells[2] == 1 && kGapCells[3] == 2 &&
                  kGapCode[3] == kCodeGapLevel2,
              "gap_code_reach: only kCodeGapLevel2 crosses two cells");
/// Direction numbers of the vertical moves in iterations (after the 8 horizontal ones).
inline constexpr int kDirUp = 8, kDirDown = 9;

inline EdgeKind edge_kind_of(const ClassEnvelope& env, int code) {
  return env.swimmer && code ? EdgeKind::Swim : kMoveCodes[code].kind;
}

/// The 8 horizontal directions; 0..3 cardinal (+x, +z, -x, -z), 4..7 diagonal.
inline constexpr int kDirDx[8] = {1, 0, -1, 0, 1, -1, -1, 1};
inline constexpr int kDirDz[8] = {0, 1, 0, -1, 1, 1, -1, -1};
/// For a diagonal direction d (4..7), its two cardinal components.
inline constexpr int kDiagA[8] = {-1, -1, -1, -1, 0, 2, 2, 0};
inline constexpr int kDiagB[8] = {-1, -1, -1, -1, 1, 1, 3, 3};

inline int move_code(std::uint32_t word, int dir) { return (word >> (dir * 4)) & 15; }

/// Search arenas per grid: slot 0 for searches on the calling thread (find_path_now), slots
/// 1..kMaxSearchWorkers for the search jobs (voxnav/executor.h).
inline constexpr int kMaxSearchers = 1 + kMaxSearchWorkers;

/// Layer 1's cache of the local components of one octant of a chunk (an 8x8x8 box): the strongly
/// connected components of its node cells that are not gate cells, under the moves that stay
/// inside the octant, and the moves leaving each one (to another of its components, or to a cell
/// of another octant). Every local component lies inside one island, so a path over local
/// components is a path over cells: Islands searches them to prove an island still holds after an
/// edit when the detour is too long for a search over cells. Computed lazily by Islands; an edit
/// that changes a move of one of the octant's cells marks it stale.
struct LocalComponents {
  static constexpr std::uint16_t kNone = 0xFFFF;
  static constexpr std::uint32_t kLocal = 0x80000000u;  ///< out entry: kLocal | component
  std::uint64_t gen = 0;          ///< Islands generation it is valid for (0: stale)
  std::vector<std::uint16_t> of;  ///< per cell of the octant: its component, or kNone (empty: none)
  std::vector<std::uint16_t> rep;        ///< per component: its lowest cell (index in the chunk)
  std::vector<std::uint32_t> out_start;  ///< per component: its moves in out[] (CSR)
  /// kLocal | component, or nb_index << 12 | the target's cell index in that chunk (nb_index
  /// 13: this chunk, another octant).
  std::vector<std::uint32_t> out;
  std::vector<std::uint32_t> seen;  ///< per component: the stamp of the last search that saw it
  /// The component of the cell at index_in_octant `i`, or kNone.
  std::uint16_t at(int i) const { return of.empty() ? kNone : of[static_cast<std::size_t>(i)]; }
};
/// The octant of a cell index in its chunk, and the cell's index inside the octant.
inline int octant_of(int i) { return ((i >> 3) & 1) | ((i >> 6) & 2) | ((i >> 9) & 4); }
inline int index_in_octant(int i) { return (i & 7) | ((i >> 1) & 0x38) | ((i >> 2) & 0x1C0); }

/// Navigation data of one chunk for one class.
struct NavChunk {
  ChunkPos pos;
  /// When `uniform` is set the arrays are empty and every cell has `uniform_kind` (Blocked or
  /// Air) with no moves.
  bool uniform = false;
  CellKind uniform_kind = CellKind::Air;
  // Layer 0, by cell row (a row of rock or open air stores one value per plane):
  LayerPlane<std::uint8_t> kind;   // CellKind per cell
  LayerPlane<std::uint8_t> floor;  // standing height inside the cell, 1/64 units
  LayerPlane<std::uint8_t> clear;  // free height above the feet, 1/64 (capped 255)
  /// 8 x 4-bit move codes per node cell (0 elsewhere): rows without a node store no words.
  LayerPlane<std::uint32_t> moves;
  /// Layer 1: strongly connected component + 1 per node cell (0: none), rows without a label
  /// store none.
  LayerPlane<std::uint32_t> scc;
  /// Layer 1's cache of local components, per octant (lazy).
  std::unique_ptr<std::array<LocalComponents, 8>> comps;
  /// VerticalMoves per cell; null while no cell of the chunk has one.
  std::unique_ptr<std::uint8_t[]> vmoves;
  /// CellFlags per cell; null while no cell of the chunk has one.
  std::unique_ptr<std::uint8_t[]> flags;
  /// Sides per cell (kNoSides: no wall, no tread); null while no cell of the chunk has one.
  std::unique_ptr<std::uint32_t[]> sides;
  /// GapMoves per cell; absent while no cell of the chunk has one (rows without one store none).
  LayerPlane<GapWord> gaps;
  /// Surface group per cell (the group of the block a body stands on, or of the fluid it swims
  /// in; 0 = none); null while no cell of the chunk has one. See NavGrid::set_surface_groups.
  std::unique_ptr<std::uint8_t[]> surface;
  std::uint32_t surface_version = 0;  ///< NavGrid::surface_version() the plane was computed for
  int nodes = 0;                      // number of node cells (kind_node)
  int standable = 0;                  // number of standable cells (kind_standable), among nodes
  int hazard_cells = 0;               // cells with kFlagFireBlock or kFlagOtherBlock
  int climb_cells = 0;                // cells of kind Climbable
  bool costly = false;                // some cell may cost extra to enter: searches look at
                                      // kinds (and vertical moves) in this chunk
  /// Neighbour chunks (dx,dy,dz in -1..1 -> (dx+1) + 3*((dz+1) + 3*(dy+1))), null if absent.
  std::array<NavChunk*, 27> nb{};
  /// Per-searcher scratch for the search arena (stamp, block index); searchers own one slot each.
  struct SearchSlot {
    std::uint32_t stamp = 0;
    std::uint32_t block = 0;
  };
  mutable std::array<SearchSlot, kMaxSearchers> slot{};

  CellKind kind_at(int i) const { return uniform ? uniform_kind : static_cast<CellKind>(kind[i]); }
  std::uint32_t moves_at(int i) const { return uniform ? 0u : moves[i]; }
  std::uint8_t vmoves_at(int i) const { return vmoves ? vmoves[i] : std::uint8_t(0); }
  std::uint8_t flags_at(int i) const { return flags ? flags[i] : std::uint8_t(0); }
  std::uint32_t sides_at(int i) const { return sides ? sides[i] : kNoSides; }
  GapWord gaps_at(int i) const { return gaps ? gaps[i] : GapWord(0); }
  std::uint8_t surface_at(int i) const { return surface ? surface[i] : std::uint8_t(0); }
};

inline int nb_index(int dx, int dy, int dz) { return (dx + 1) + 3 * ((dz + 1) + 3 * (dy + 1)); }

/// The block chunks layer 0 of one chunk reads: the chunk and its 26 neighbours, indexed like
/// NavChunk::nb (null: not loaded, or not read by the class). One-column classes read the chunk
/// and the chunks below and above it; the 2x2 footprint also the +x, +z and +xz columns (its foot
/// cells at lx == 15 or lz == 15 stand over them). See NavGrid::reads_chunk.
struct BlockNeighbourhood {
  std::array<const Chunk*, 27> c{};
  const Chunk* at(int dx, int dy, int dz) const { return c[nb_index(dx, dy, dz)]; }
  const Chunk* self() const { return c[13]; }
};

/// All navigation chunks of one class in one space.
class NavGrid {
 public:
  explicit NavGrid(ClassEnvelope env) : env_(env) {}
  const ClassEnvelope& envelope() const { return env_; }

  NavChunk* chunk(ChunkPos p) const;
  /// Rebuilds layer 0 of chunk `p` from the space (creates or drops the nav chunk to follow
  /// the space's loaded set). Moves are not updated: call rebuild_moves after.
  void classify_chunk(const Space& space, ChunkPos p);
  /// Whether layer 0 of a chunk reads the blocks of its neighbour chunk (dx, dy, dz) (each in
  /// -1..1): the chunks below and above, and for the 2x2 footprint the +x, +z and +xz columns.
  bool reads_chunk(int dx, int dy, int dz) const {
    (void)dy;
    return env_.footprint2 ? (dx == 0 || dx == 1) && (dz == 0 || dz == 1) : dx == 0 && dz == 0;
  }
  /// The block chunks layer 0 of chunk `p` reads, from the space (the others stay null).
  void neighbourhood(const Space& space, ChunkPos p, BlockNeighbourhood& nb) const;
  /// The kind of every cell of chunk `p` when the chunk is stored uniform (no arrays): Blocked for
  /// solid rock, Air for open sky (no collision in any chunk its cells read, and for the 2x2
  /// footprint the +x, +z and +xz chunks loaded); -1 when it needs arrays. Depends only on the
  /// blocks of the chunks reads_chunk names.
  int uniform_kind_of(const Space& space, ChunkPos p) const;
  /// The same from the block chunks (any may be null: not loaded).
  int uniform_kind_for(const BlockRegistry& reg, const BlockNeighbourhood& nb) const;
  /// Layer 0 of one chunk from its blocks and those of the neighbour chunks it reads (null: not
  /// loaded), into `nc` (moves zeroed, labels untouched). Touches nothing else: worker builds run
  /// it on snapshots.
  void classify_into(const BlockRegistry& reg, const BlockNeighbourhood& nb, NavChunk& nc) const;
  /// Puts a chunk built elsewhere (classify_into) in place; call link() after.
  void install_chunk(std::unique_ptr<NavChunk> nc);
  void drop_chunk(ChunkPos p);
  /// Recomputes the move words (and vertical moves, and the danger band) of every node cell of
  /// chunk `p`.
  void rebuild_moves(ChunkPos p);
  /// Reclassifies layer 0 of the cells in the box [mn, mx] (inclusive) from the space; only in
  /// nav chunks that exist and are not uniform (a uniform chunk needs classify_chunk first).
  void classify_box(const Space& space, CellPos mn, CellPos mx);
  /// Recomputes the move words of the cells in the box [mn, mx] (inclusive), non-uniform chunks.
  void rebuild_moves_box(CellPos mn, CellPos mx);
  /// Recomputes only the gap jumps of cell c (its layer 0 and move word unchanged, a cell ahead
  /// of it reclassified).
  void rebuild_gaps(CellPos c);
  /// rebuild_moves_box(c, c) (or rebuild_gaps(c) when `gaps_only`) for a cell of chunk `nc`,
  /// which the caller has looked up.
  void rebuild_cell_moves(NavChunk& nc, CellPos c, bool gaps_only);
  /// Surface groups by block value (null or empty: none): the value table every chunk's surface
  /// plane is computed from. Setting a new table recomputes every plane from the space; a chunk
  /// built on a worker with an older table is brought up to date by refresh_surface.
  using SurfaceTable = std::shared_ptr<const std::vector<std::uint8_t>>;
  void set_surface_groups(const Space& space, SurfaceTable table);
  const SurfaceTable& surface_groups() const { return surface_groups_; }
  std::uint32_t surface_version() const { return surface_version_; }
  /// Recomputes the surface plane of chunk `p` from the space when it is older than the table.
  void refresh_surface(const Space& space, ChunkPos p);
  std::uint8_t surface(CellPos c) const;
  /// Links neighbour pointers of `p` and its 26 neighbours.
  void link(ChunkPos p);

  // Cell accessors (any cell; unloaded cells read as Blocked).
  CellKind kind(CellPos c) const;
  int floor_q(CellPos c) const;
  std::uint32_t moves(CellPos c) const;
  bool standable(CellPos c) const { return kind_standable(kind(c)); }
  bool node(CellPos c) const { return kind_node(kind(c)); }
  std::uint8_t vmoves(CellPos c) const;
  std::uint32_t sides(CellPos c) const;
  GapWord gaps(CellPos c) const;

  /// Standable cells (kind_standable: no door, ladder or damage cell) of every chunk.
  std::uint64_t standable_count() const;
  /// Chunks in deterministic (chunk_key) order.
  const std::vector<NavChunk*>& ordered_chunks() const;
  std::size_t chunk_count() const { return chunks_.size(); }

 private:
  void compute_moves_for_cell(NavChunk& ch, int i, CellPos c);
  /// Whether a body with its feet `fs` (1/64) above its cell's bottom, moving along cardinal
  /// direction `dir` onto a cell `dy` rows up whose sides are `sides`, climbs it in steps: the
  /// first tread along `dir` lies within the class's step of the feet.
  bool climbs_treads(std::uint32_t sides, int dir, int dy, int fs) const {
    const int t = dir < 4 ? tread_of(sides, dir) : kNoTread;
    return t != kNoTread && dy * kHeightUnits + t - kTreadBias - fs <= env_.step_q;
  }
  /// Whether a move along direction `dir` from a cell with sides `from` to one `dy` rows away
  /// with sides `to` crosses a wall: the target's face it enters by, and (unless it rises to the
  /// row above, over the source's boxes) the source's face it leaves by; a diagonal both faces of
  /// each.
  static bool crosses_wall(std::uint32_t from, std::uint32_t to, int dir, int dy) {
    if (dir < 4)
      return side_walled(to, opposite_dir(dir)) || (dy <= 0 && side_walled(from, dir));
    const int a = kDiagA[dir], b = kDiagB[dir];
    return side_walled(from, a) || side_walled(from, b) || side_walled(to, opposite_dir(a)) ||
           side_walled(to, opposite_dir(b));
  }
  /// The danger band kind of a standable cell from the hazard flags around its body (0: none).
  CellKind danger_of(NavChunk& ch, int lx, int ly, int lz) const;
  /// The gap jumps (GapMoves) of standable cell (lx, ly, lz) of `ch` from layer 0 around it.
  GapWord gap_moves_of(NavChunk& ch, int lx, int ly, int lz) const;
  /// The level two-cell gap jump along d (kGapLevel2 << d, or 0) of standable cell (lx, ly, lz)
  /// with floor `fs`, the cells one and two along d open air to `need` (the first checked).
  GapWord gap2_level(NavChunk& ch, int lx, int ly, int lz, int d, int fs, int need) const;
  /// Recomputes the gap byte of cell i of `ch` (its move word already computed).
  void update_gaps(NavChunk& ch, int i, int lx, int ly, int lz);
  void classify_cell(const BlockRegistry& reg, const Chunk* self, const Chunk* below,
                     const Chunk* above, NavChunk& nc, int i) const;
  /// Layer 0 of foot cell i for the 2x2 footprint (the four columns x..x+1, z..z+1).
  void classify_cell_2x2(const BlockRegistry& reg, const BlockNeighbourhood& nb, NavChunk& nc,
                         int i) const;
  /// The kind of a walker-class cell from its standing height (`support`, -1: none), clearance
  /// (1/64 cells), doors in the body's cells and the traits of the feet cell, the cell above and
  /// the cell below (OR-ed over the columns for the 2x2 footprint). Fire outranks other hazards.
  CellKind walker_kind(int support, int clearance, bool door, bool door_closed, std::uint32_t tr,
                       std::uint32_t tr_up, std::uint32_t tr_below) const;
  /// The treads (NavChunk::sides) of a cell standing on block value `below` of the cell below,
  /// whose top is `top` (1/64 above that cell's bottom).
  std::uint32_t treads_of(const BlockRegistry& reg, std::uint16_t below, int top) const;
  /// Stores a classified cell (kind, floor, clearance, counts, the flags of `own_traits`, the
  /// traits of the block in the cell itself, and its sides).
  void store_cell(NavChunk& nc, int i, CellKind kind, int support, int clearance,
                  std::uint32_t own_traits, bool narrow_support = false,
                  std::uint32_t sides = kNoSides) const;
  /// The surface group of cell i of `nc` from the blocks (layer 0 already classified).
  void surface_cell(const BlockRegistry& reg, const std::vector<std::uint8_t>& table,
                    const BlockNeighbourhood& nb, NavChunk& nc, int i) const;
  ClassEnvelope env_;
  SurfaceTable surface_groups_;
  std::uint32_t surface_version_ = 1;  // chunks start at 0: refreshed before first use
  std::unordered_map<std::uint64_t, std::unique_ptr<NavChunk>, KeyHash> chunks_;  // lookup only
  mutable std::vector<NavChunk*> ordered_;
  mutable bool ordered_dirty_ = true;
};

/// A body standing on a floor within kFeetLiftQ of its cell's top (soul sand, mud, farmland, a
/// dirt path, a full snow layer: 0.875 of the cell and up) is named by block-world bots by the
/// cell above (their feet + 1/8, floored; its feet are in the floor's own cell here). A query or
/// request naming such a cell means the cell below: feet_cell resolves it there when the named
/// cell is not a node itself. Any other cell is returned unchanged.
inline constexpr int kFeetLiftQ = 8;
inline CellPos feet_cell(const NavGrid& g, CellPos c) {
  const CellPos b{c.x, c.y - 1, c.z};
  if (!cell_in_range(c) || !cell_in_range(b) || g.node(c)) return c;
  return g.standable(b) && g.floor_q(b) >= kHeightUnits - kFeetLiftQ ? b : c;
}

/// Resolves a cell offset from a chunk through its neighbour pointers (offsets within +-16).
inline NavChunk* step_chunk(NavChunk* ch, int lx, int ly, int lz, int& li) {
  const int cx = lx < 0 ? -1 : (lx > 15 ? 1 : 0);
  const int cy = ly < 0 ? -1 : (ly > 15 ? 1 : 0);
  const int cz = lz < 0 ? -1 : (lz > 15 ? 1 : 0);
  li = (lx & 15) | ((lz & 15) << 4) | ((ly & 15) << 8);
  if ((cx | cy | cz) == 0) return ch;
  return ch->nb[nb_index(cx, cy, cz)];
}

}  // namespace voxnav::detail
