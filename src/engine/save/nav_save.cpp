#include "engine/save/nav_save.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

#include "engine/nav/class_envelopes.h"
#include "engine/nav/world_state.h"
#include "voxnav/version.h"

namespace voxnav::detail {

static_assert(std::endian::native == std::endian::little,
              "saved planes are copied as little-endian words");

namespace {

constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

struct Fnv {
  std::uint64_t h = kFnvBasis;
  void byte(std::uint8_t b) { h = (h ^ b) * kFnvPrime; }
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) byte(b[i]);
  }
  void u32(std::uint32_t v) { bytes(&v, 4); }
  void i32(std::int32_t v) { bytes(&v, 4); }
};

/// A 64-bit hash of n bytes: four lanes of multiply-xorshift over 64-bit words (independent, so
/// it runs at the multiplier's throughput), the tail and the length, folded by FNV-1a.
std::uint64_t hash_words(const void* data, std::size_t n) {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  std::uint64_t lane[4] = {kFnvBasis, kFnvBasis ^ 1, kFnvBasis ^ 2, kFnvBasis ^ 3};
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int j = 0; j < 4; ++j) {
      std::uint64_t w;
      std::memcpy(&w, p + i + 8 * j, 8);
      const std::uint64_t x = (lane[j] ^ w) * kMul;
      lane[j] = x ^ (x >> 29);
    }
  Fnv f;
  for (const std::uint64_t l : lane) f.bytes(&l, 8);
  f.bytes(p + i, n - i);
  const std::uint64_t len = n;
  f.bytes(&len, 8);
  return f.h;
}

/// The slicing-by-8 tables of CRC-32: t[0] is the classic byte table, t[k][b] the CRC of byte b
/// followed by k zero bytes.
using CrcTables = std::array<std::array<std::uint32_t, 256>, 8>;
CrcTables make_crc_tables() {
  CrcTables t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][i] = c;
  }
  for (std::uint32_t i = 0; i < 256; ++i)
    for (int k = 1; k < 8; ++k) t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xFF];
  return t;
}

// ---- little-endian writes and reads ----
void put_u32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
  std::memcpy(out.data() + at, &v, 4);
}
void put_u64(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t v) {
  std::memcpy(out.data() + at, &v, 8);
}
void add_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  const std::size_t at = out.size();
  out.resize(at + 4);
  put_u32(out, at, v);
}
void add_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  const std::size_t at = out.size();
  out.resize(at + 8);
  put_u64(out, at, v);
}
std::uint32_t get_u32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
std::uint64_t get_u64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

/// "major.minor.patch" of a VOXNAV_VERSION number.
std::string version_text(std::uint32_t v) {
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

const char* slot_name(std::uint32_t slot) {
  return slot < WorldState::kClassSlots ? movement_class_name(WorldState::kSlotClass[slot]) : "?";
}
std::string pos_text(std::int32_t x, std::int32_t y, std::int32_t z) {
  return std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z);
}

// Nav payload: a 16-byte head, then (not uniform) the planes, each a u32 length and its runs.
constexpr std::size_t kNavHead = 16;
enum PlaneBits : std::uint8_t {
  kPlaneVmoves = 1,
  kPlaneFlags = 2,
  kPlaneGaps = 4,
  kPlaneScc = 8,
  kPlaneSides = 16,
};
// Blocks payload: a 16-byte head (fingerprint, uniform, value, run length), then the runs.
constexpr std::size_t kBlocksHead = 16;

void add_plane(std::vector<std::uint8_t>& out, const void* data, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + 4);
  rle_encode(static_cast<const std::uint8_t*>(data), n, out);
  put_u32(out, at, static_cast<std::uint32_t>(out.size() - at - 4));
}

void encode_nav(const NavChunk& ch, std::vector<std::uint8_t>& out) {
  const std::uint8_t planes =
      static_cast<std::uint8_t>((ch.vmoves ? kPlaneVmoves : 0) | (ch.flags ? kPlaneFlags : 0) |
                                (ch.gaps ? kPlaneGaps : 0) | (ch.scc ? kPlaneScc : 0) |
                                (ch.sides ? kPlaneSides : 0));
  out.push_back(ch.uniform ? 1 : 0);
  out.push_back(static_cast<std::uint8_t>(ch.uniform_kind));
  out.push_back(ch.uniform ? 0 : planes);
  out.push_back(ch.costly ? 1 : 0);
  add_u32(out, static_cast<std::uint32_t>(ch.nodes));
  add_u32(out, static_cast<std::uint32_t>(ch.hazard_cells));
  add_u32(out, static_cast<std::uint32_t>(ch.climb_cells));
  if (ch.uniform) return;
  std::vector<std::uint8_t> bytes(kChunkCells);  // the row-stored planes, whole
  for (const LayerPlane<std::uint8_t>* plane : {&ch.kind, &ch.floor, &ch.clear}) {
    plane->copy_to(bytes.data());
    add_plane(out, bytes.data(), kChunkCells);
  }
  std::vector<std::uint32_t> words(kChunkCells);  // the row-stored planes, whole
  ch.moves.copy_to(words.data());
  add_plane(out, words.data(), kChunkCells * 4);
  if (ch.vmoves) add_plane(out, ch.vmoves.get(), kChunkCells);
  if (ch.flags) add_plane(out, ch.flags.get(), kChunkCells);
  if (ch.gaps) {
    std::vector<GapWord> gaps(kChunkCells);
    ch.gaps.copy_to(gaps.data());
    add_plane(out, gaps.data(), kChunkCells * sizeof(GapWord));
  }
  if (ch.scc) {
    ch.scc.copy_to(words.data());
    add_plane(out, words.data(), kChunkCells * 4);
  }
  if (ch.sides) add_plane(out, ch.sides.get(), kChunkCells * 4);
}

/// Reads one plane at `at` of `p` (size n): false when its length runs past the payload or its
/// runs do not decode to exactly `bytes` bytes.
bool read_plane(std::span<const std::uint8_t> p, std::size_t& at, void* dst, std::size_t bytes,
                const char* plane, std::string& why) {
  if (p.size() - at < 4) {
    why = std::string("plane '") + plane + "' truncated";
    return false;
  }
  const std::uint32_t len = get_u32(p.data() + at);
  at += 4;
  if (len > p.size() - at) {
    why = std::string("plane '") + plane + "' length " + std::to_string(len) +
          " runs past the section";
    return false;
  }
  if (!rle_decode(p.subspan(at, len), static_cast<std::uint8_t*>(dst), bytes)) {
    why =
        std::string("plane '") + plane + "' does not decode to " + std::to_string(bytes) + " bytes";
    return false;
  }
  at += len;
  return true;
}

/// Decodes and checks one Nav payload into `ch` (pos set by the caller). False with `why`.
bool decode_nav(std::span<const std::uint8_t> p, NavChunk& ch, std::uint32_t labels,
                std::string& why) {
  if (p.size() < kNavHead) {
    why = "payload of " + std::to_string(p.size()) + " bytes, its head needs " +
          std::to_string(kNavHead);
    return false;
  }
  const std::uint8_t uniform = p[0], ukind = p[1], planes = p[2], costly = p[3];
  if (uniform > 1 || costly > 1 || (planes & ~31u) != 0) {
    why = "bad head flags";
    return false;
  }
  ch.uniform = uniform != 0;
  ch.costly = costly != 0;
  ch.nodes = static_cast<int>(get_u32(p.data() + 4));
  ch.hazard_cells = static_cast<int>(get_u32(p.data() + 8));
  ch.climb_cells = static_cast<int>(get_u32(p.data() + 12));
  if (ch.uniform) {
    if (ukind != std::uint8_t(CellKind::Blocked) && ukind != std::uint8_t(CellKind::Air)) {
      why = "uniform kind " + std::to_string(ukind) + " is neither blocked nor air";
      return false;
    }
    ch.uniform_kind = static_cast<CellKind>(ukind);
    if (p.size() != kNavHead || ch.nodes || ch.hazard_cells || ch.climb_cells || planes) {
      why = "a uniform chunk with planes or counts";
      return false;
    }
    return true;
  }
  ch.uniform_kind = CellKind::Air;
  std::size_t at = kNavHead;
  std::vector<std::uint32_t> words(kChunkCells);  // the row-stored planes, whole
  std::vector<std::uint8_t> kinds(kChunkCells), floors(kChunkCells), clears(kChunkCells);
  if (!read_plane(p, at, kinds.data(), kChunkCells, "kind", why) ||
      !read_plane(p, at, floors.data(), kChunkCells, "floor", why) ||
      !read_plane(p, at, clears.data(), kChunkCells, "clear", why) ||
      !read_plane(p, at, words.data(), kChunkCells * 4, "moves", why))
    return false;
  ch.kind.assign(kinds.data());
  ch.floor.assign(floors.data());
  ch.clear.assign(clears.data());
  ch.moves.assign(words.data());
  if (planes & kPlaneVmoves) {
    ch.vmoves = std::unique_ptr<std::uint8_t[]>(new std::uint8_t[kChunkCells]);
    if (!read_plane(p, at, ch.vmoves.get(), kChunkCells, "vmoves", why)) return false;
  }
  if (planes & kPlaneFlags) {
    ch.flags = std::unique_ptr<std::uint8_t[]>(new std::uint8_t[kChunkCells]);
    if (!read_plane(p, at, ch.flags.get(), kChunkCells, "flags", why)) return false;
  }
  if (planes & kPlaneGaps) {
    std::vector<GapWord> gaps(kChunkCells);
    if (!read_plane(p, at, gaps.data(), kChunkCells * sizeof(GapWord), "gaps", why)) return false;
    ch.gaps.assign(gaps.data());
  }
  if (planes & kPlaneScc) {
    if (!read_plane(p, at, words.data(), kChunkCells * 4, "scc", why)) return false;
    ch.scc.assign(words.data());
    for (int i = 0; i < kChunkCells; ++i)
      if (words[static_cast<std::size_t>(i)] > labels) {
        why = "cell " + std::to_string(i) + " has island label " +
              std::to_string(words[static_cast<std::size_t>(i)]) +
              " of " + std::to_string(labels);
        return false;
      }
  } else if (ch.nodes) {
    why = "node cells without island labels";
    return false;
  }
  if (planes & kPlaneSides) {
    ch.sides = std::unique_ptr<std::uint32_t[]>(new std::uint32_t[kChunkCells]);
    if (!read_plane(p, at, ch.sides.get(), kChunkCells * 4, "sides", why)) return false;
    for (int i = 0; i < kChunkCells; ++i)
      for (int d = 0; d < 4; ++d)
        if (const int t = tread_of(ch.sides[i], d); t != kNoTread && t >= kTreadBias) {
          why = "cell " + std::to_string(i) + " has a tread " + std::to_string(t - kTreadBias) +
                " at or above its own bottom";
          return false;
        }
  }
  if (at != p.size()) {
    why = std::to_string(p.size() - at) + " bytes after the last plane";
    return false;
  }
  // The kinds are layer 0's and the counts agree with them (a damaged or forged plane that the
  // checksum let through would otherwise reach the searches).
  // (The standable count is not saved: it follows from the kinds.)
  int nodes = 0, climb = 0;
  ch.standable = 0;
  for (int i = 0; i < kChunkCells; ++i) {
    const std::uint8_t k = ch.kind[i];
    if (k > std::uint8_t(CellKind::Slow)) {
      why = "cell " + std::to_string(i) + " has kind " + std::to_string(k);
      return false;
    }
    nodes += kind_node(static_cast<CellKind>(k)) ? 1 : 0;
    ch.standable += kind_standable(static_cast<CellKind>(k)) ? 1 : 0;
    climb += k == std::uint8_t(CellKind::Climbable) ? 1 : 0;
  }
  if (nodes != ch.nodes || climb != ch.climb_cells) {
    why = "node or climbable count disagrees with the kind plane";
    return false;
  }
  int hazards = 0;
  if (ch.flags)
    for (int i = 0; i < kChunkCells; ++i) hazards += (ch.flags[i] & kFlagsHazard) != 0 ? 1 : 0;
  if (hazards != ch.hazard_cells) {
    why = "hazard count disagrees with the flag plane";
    return false;
  }
  return true;
}

// Class payload: envelope fingerprint (u64), chunk count (u32), label count n (u32), DAG edge
// count m (u32), reserved (u32), cells, live islands, label limit (u64 each), then parent[n],
// size[n] (u32), gate[n] (u8), out_start[n + 1], out_to[m], out_count[m] (u32).
constexpr std::size_t kClassHead = 48;

void add_u32s(std::vector<std::uint8_t>& out, const std::vector<std::uint32_t>& v) {
  const std::size_t at = out.size();
  out.resize(at + v.size() * 4);
  if (!v.empty()) std::memcpy(out.data() + at, v.data(), v.size() * 4);
}

void encode_tables(const IslandTables& t, std::vector<std::uint8_t>& out) {
  add_u32(out, static_cast<std::uint32_t>(t.parent.size()));
  add_u32(out, static_cast<std::uint32_t>(t.out_to.size()));
  add_u32(out, 0);
  add_u64(out, t.cells);
  add_u64(out, t.live);
  add_u64(out, t.label_limit);
  add_u32s(out, t.parent);
  add_u32s(out, t.size);
  out.insert(out.end(), t.gate.begin(), t.gate.end());
  add_u32s(out, t.out_start);
  add_u32s(out, t.out_to);
  add_u32s(out, t.out_count);
}

/// Reads and checks the islands' tables of a class payload: sizes, parents forming a forest,
/// gate kinds, DAG edges sorted and in range.
bool decode_tables(std::span<const std::uint8_t> p, IslandTables& t, std::string& why) {
  const std::uint64_t n = get_u32(p.data() + 12), m = get_u32(p.data() + 16);
  const std::uint64_t want = kClassHead + n * 9 + (n + 1) * 4 + m * 8;
  if (p.size() != want) {
    why = "payload of " + std::to_string(p.size()) + " bytes, " + std::to_string(n) +
          " labels and " + std::to_string(m) + " edges need " + std::to_string(want);
    return false;
  }
  t.cells = get_u64(p.data() + 24);
  t.live = get_u64(p.data() + 32);
  t.label_limit = get_u64(p.data() + 40);
  auto u32s = [&](std::size_t at, std::size_t count, std::vector<std::uint32_t>& v) {
    v.resize(count);
    if (count) std::memcpy(v.data(), p.data() + at, count * 4);
    return at + count * 4;
  };
  std::size_t at = kClassHead;
  at = u32s(at, n, t.parent);
  at = u32s(at, n, t.size);
  t.gate.assign(p.data() + at, p.data() + at + n);
  at += n;
  at = u32s(at, n + 1, t.out_start);
  at = u32s(at, m, t.out_to);
  u32s(at, m, t.out_count);
  if (t.live > n || t.label_limit > n + std::max<std::uint64_t>(n, 1u << 20)) {
    why = "live island count or label limit out of range";
    return false;
  }
  for (std::uint64_t l = 0; l < n; ++l) {
    const std::uint8_t g = t.gate[l];
    if (t.parent[l] >= n || (g & (g - 1)) != 0 || g > kGateOther) {
      why = "label " + std::to_string(l) + " has a bad parent or gate kind";
      return false;
    }
  }
  // Parents form a forest (Islands::find follows them): no chain may loop.
  std::vector<std::uint8_t> state(n, 0);  // 0 unseen, 1 on the current chain, 2 reaches a root
  std::vector<std::uint32_t> chain;
  for (std::uint64_t l = 0; l < n; ++l) {
    std::uint32_t x = static_cast<std::uint32_t>(l);
    chain.clear();
    while (state[x] == 0 && t.parent[x] != x) {
      state[x] = 1;
      chain.push_back(x);
      x = t.parent[x];
    }
    if (state[x] == 1) {
      why = "the union-find parents of label " + std::to_string(l) + " loop";
      return false;
    }
    state[x] = 2;
    for (const std::uint32_t c : chain) state[c] = 2;
  }
  if (t.out_start[0] != 0 || t.out_start[n] != m) {
    why = "DAG edge index out of range";
    return false;
  }
  for (std::uint64_t l = 0; l < n; ++l) {
    const std::uint32_t b = t.out_start[l], e = t.out_start[l + 1];
    if (b > e || e > m) {
      why = "DAG edge index of label " + std::to_string(l) + " out of range";
      return false;
    }
    for (std::uint32_t k = b; k < e; ++k)
      if (t.out_to[k] >= n || t.out_count[k] == 0 || (k > b && t.out_to[k] <= t.out_to[k - 1])) {
        why = "DAG edges of label " + std::to_string(l) + " are not sorted, counted and in range";
        return false;
      }
  }
  return true;
}

struct BlocksEntry {
  ChunkPos pos;
  std::uint64_t fingerprint = 0;
  bool uniform = true;
  std::uint16_t value = 0;
  std::vector<std::uint16_t> values;  // saved blocks of a non-uniform chunk
};

struct Section {
  SaveSection kind;
  std::uint32_t slot;
  ChunkPos pos;
  std::span<const std::uint8_t> payload;
};

std::string section_name(SaveSection kind, std::uint32_t slot, const ChunkPos& p) {
  switch (kind) {
    case SaveSection::Class:
      return std::string("class ") + slot_name(slot);
    case SaveSection::Blocks:
      return "chunk " + pos_text(p.x, p.y, p.z);
    case SaveSection::Nav:
      return std::string(slot_name(slot)) + " chunk " + pos_text(p.x, p.y, p.z);
  }
  return "?";
}

Status bad(std::string* error, Status st, std::string msg) {
  if (error) *error = std::move(msg);
  return st;
}

}  // namespace

std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t crc) {
  static const CrcTables t = make_crc_tables();
  std::uint32_t c = ~crc;
  const std::uint8_t* p = bytes.data();
  std::size_t n = bytes.size();
  for (; n >= 8; n -= 8, p += 8) {  // slicing by 8 (little-endian words)
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    lo ^= c;
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
        t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
  }
  for (; n > 0; --n, ++p) c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
  return ~c;
}

std::uint64_t registry_fingerprint(const BlockRegistry& reg) {
  // The entries serialized, then hashed by words (a byte-wise FNV over the ~27,000 states of a
  // Minecraft registry took milliseconds).
  std::vector<std::uint8_t> buf;
  buf.reserve(reg.size() * 48);
  auto put = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    buf.insert(buf.end(), b, b + n);
  };
  const auto count = static_cast<std::uint32_t>(reg.size());
  put(&count, 4);
  for (std::size_t v = 0; v < reg.size(); ++v) {
    const BlockType& t = reg.type(static_cast<std::uint16_t>(v));
    const auto len = static_cast<std::uint32_t>(t.name.size());
    put(&len, 4);
    put(t.name.data(), t.name.size());
    const auto boxes = static_cast<std::uint32_t>(t.boxes.size());
    put(&boxes, 4);
    for (const Box& b : t.boxes) {
      put(b.min, sizeof b.min);
      put(b.max, sizeof b.max);
    }
    put(&t.traits, 4);
    put(&t.open_value, 2);
  }
  return hash_words(buf.data(), buf.size());
}

std::uint64_t blocks_fingerprint(const Chunk& ch) {
  if (!ch.uniform) return hash_words(ch.values.get(), kChunkCells * sizeof(std::uint16_t));
  std::array<std::uint16_t, kChunkCells> same;
  same.fill(ch.uniform_value);
  return hash_words(same.data(), sizeof same);
}

std::uint64_t envelope_fingerprint(const ClassEnvelope& e) {
  Fnv f;
  f.i32(e.half_width_q);
  f.i32(e.height_q);
  f.i32(e.step_q);
  f.i32(e.jump_q);
  f.i32(e.max_drop);
  f.byte(e.swimmer);
  f.i32(e.gap_reach);
  f.byte(e.footprint2);
  f.byte(e.climbs);
  return f.h;
}

void rle_encode(const std::uint8_t* data, std::size_t n, std::vector<std::uint8_t>& out) {
  auto varint = [&](std::uint64_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<std::uint8_t>(v | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
  };
  std::size_t i = 0, lit = 0;  // literal bytes [lit, i) not written yet
  auto flush = [&](std::size_t end) {
    if (end > lit) {
      varint((end - lit) << 1);
      out.insert(out.end(), data + lit, data + end);
    }
  };
  while (i < n) {
    std::size_t j = i + 1;
    while (j < n && data[j] == data[i]) ++j;
    if (j - i >= 4) {  // a run worth its control
      flush(i);
      varint(((j - i) << 1) | 1);
      out.push_back(data[i]);
      lit = j;
    }
    i = j;
  }
  flush(n);
}

bool rle_decode(std::span<const std::uint8_t> in, std::uint8_t* out, std::size_t n) {
  std::size_t at = 0, done = 0;
  while (at < in.size()) {
    std::uint64_t v = 0;
    int shift = 0;
    for (;;) {
      if (at >= in.size() || shift > 56) return false;
      const std::uint8_t b = in[at++];
      v |= std::uint64_t(b & 0x7F) << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
    const std::uint64_t len = v >> 1;
    if (len == 0 || len > n - done) return false;
    if (v & 1) {
      if (at >= in.size()) return false;
      std::memset(out + done, in[at++], len);
    } else {
      if (len > in.size() - at) return false;
      std::memcpy(out + done, in.data() + at, len);
      at += len;
    }
    done += len;
  }
  return done == n;
}

Status export_nav(WorldState& ws, const NavExportOptions& opt, std::vector<std::uint8_t>& out,
                  std::string* error) {
  const std::vector<ChunkPos> chunks = ws.space.loaded_chunks();
  std::vector<std::uint32_t> slots;
  for (std::uint32_t s = 0; s < WorldState::kClassSlots; ++s) {
    NavWorld* n = ws.nav_of_slot(s);
    if (!n) continue;
    n->wait_jobs();
    if (n->processed_serial() != ws.space.serial())
      return bad(error, Status::Busy,
                 std::string("the ") + slot_name(s) +
                     " navigation has not processed the latest block changes: call update() first");
    if (n->pending_builds() || n->deferred_builds() || n->grid().chunk_count() != chunks.size())
      return bad(error, Status::Busy,
                 std::string("the ") + slot_name(s) +
                     " navigation is not built for every loaded chunk (chunk builds pending or "
                     "deferred): update until pending_chunk_builds() and deferred_chunk_builds() "
                     "are 0");
    slots.push_back(s);
  }
  const std::size_t sections = chunks.size() * (1 + slots.size()) + slots.size();
  if (sections > 0xFFFFFFFFull)
    return bad(error, Status::OutOfRange,
               std::to_string(chunks.size()) + " chunks need " + std::to_string(sections) +
                   " sections, more than a file holds (2^32 - 1)");
  std::vector<std::uint8_t> buf;
  try {
    buf.reserve(kNavSaveHeaderBytes + sections * kNavSaveSectionBytes + chunks.size() * 64);
    buf.resize(kNavSaveHeaderBytes + sections * kNavSaveSectionBytes);
    std::size_t entry = kNavSaveHeaderBytes;
    auto section = [&](SaveSection kind, std::uint32_t slot, ChunkPos p, std::size_t start) {
      put_u32(buf, entry, static_cast<std::uint32_t>(kind));
      put_u32(buf, entry + 4, slot);
      put_u32(buf, entry + 8, static_cast<std::uint32_t>(p.x));
      put_u32(buf, entry + 12, static_cast<std::uint32_t>(p.y));
      put_u32(buf, entry + 16, static_cast<std::uint32_t>(p.z));
      put_u32(buf, entry + 20, 0);
      put_u64(buf, entry + 24, start);
      put_u64(buf, entry + 32, buf.size() - start);
      entry += kNavSaveSectionBytes;
    };
    for (const ChunkPos& p : chunks) {
      const Chunk* c = ws.space.chunk(p);
      const std::size_t start = buf.size();
      add_u64(buf, blocks_fingerprint(*c));
      buf.push_back(c->uniform ? 1 : 0);
      buf.push_back(0);
      buf.push_back(static_cast<std::uint8_t>(c->uniform_value & 0xFF));
      buf.push_back(static_cast<std::uint8_t>(c->uniform_value >> 8));
      const std::size_t len_at = buf.size();
      add_u32(buf, 0);
      if (opt.include_blocks && !c->uniform) {
        // Low bytes, then high bytes: each half runs longer than the interleaved words.
        std::array<std::uint8_t, kChunkCells * 2> split;
        for (int i = 0; i < kChunkCells; ++i) {
          split[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(c->values[i] & 0xFF);
          split[static_cast<std::size_t>(kChunkCells + i)] =
              static_cast<std::uint8_t>(c->values[i] >> 8);
        }
        rle_encode(split.data(), split.size(), buf);
        put_u32(buf, len_at, static_cast<std::uint32_t>(buf.size() - len_at - 4));
      }
      section(SaveSection::Blocks, 0, p, start);
    }
    for (const std::uint32_t s : slots) {
      const NavWorld* n = ws.nav_of_slot(s);
      std::size_t start = buf.size();
      add_u64(buf, envelope_fingerprint(n->grid().envelope()));
      add_u32(buf, static_cast<std::uint32_t>(chunks.size()));
      IslandTables t;
      ws.nav_of_slot(s)->islands().save_tables(t);
      encode_tables(t, buf);
      section(SaveSection::Class, s, ChunkPos{0, 0, 0}, start);
      for (const ChunkPos& p : chunks) {
        start = buf.size();
        encode_nav(*n->grid().chunk(p), buf);
        section(SaveSection::Nav, s, p, start);
      }
    }
    // Header, then the checksum of everything.
    std::memcpy(buf.data(), kNavSaveMagic, 8);
    put_u32(buf, 8, kNavSaveVersion);
    put_u32(buf, 12, static_cast<std::uint32_t>(kNavSaveHeaderBytes));
    put_u64(buf, 16, buf.size() + kNavSaveTrailerBytes);
    put_u64(buf, 24, registry_fingerprint(ws.registry));
    put_u32(buf, 32, static_cast<std::uint32_t>(sections));
    put_u32(buf, 36, opt.include_blocks ? kSaveFlagBlocks : 0);
    put_u32(buf, 40, static_cast<std::uint32_t>(chunks.size()));
    put_u32(buf, 44, static_cast<std::uint32_t>(slots.size()));
    put_u32(buf, 48, static_cast<std::uint32_t>(VOXNAV_VERSION));
    put_u32(buf, 52, 0);
    put_u64(buf, 56, 0);
    add_u32(buf, crc32(buf));
  } catch (const std::bad_alloc&) {
    return bad(error, Status::OutOfMemory, "out of memory writing the navigation");
  }
  out = std::move(buf);
  return Status::Ok;
}

Status read_nav_header(std::span<const std::uint8_t> bytes, NavFileHeader* out,
                       std::string* error) {
  const std::size_t size = bytes.size();
  const std::uint8_t* b = bytes.data();
  if (size < kNavSaveHeaderBytes + kNavSaveTrailerBytes)
    return bad(error, Status::BadFormat,
               "truncated at byte " + std::to_string(size) + ": a navigation file has at least " +
                   std::to_string(kNavSaveHeaderBytes + kNavSaveTrailerBytes) + " bytes");
  if (std::memcmp(b, kNavSaveMagic, 8) != 0)
    return bad(error, Status::BadFormat,
               "not a voxnav navigation file: bad magic (the first 8 bytes are not \"VOXNAVSV\")");
  const std::uint32_t version = get_u32(b + 8);
  if (version != kNavSaveVersion)
    return bad(error, Status::Unsupported,
               "version " + std::to_string(version) + ", expected " +
                   std::to_string(kNavSaveVersion) +
                   ": rebuild the navigation and export it again");
  if (get_u32(b + 12) != kNavSaveHeaderBytes)
    return bad(error, Status::BadFormat,
               "header size " + std::to_string(get_u32(b + 12)) + ", expected " +
                   std::to_string(kNavSaveHeaderBytes));
  const std::uint64_t total = get_u64(b + 16);
  if (total > size)
    return bad(error, Status::BadFormat,
               "truncated at byte " + std::to_string(size) + ": the header says " +
                   std::to_string(total) + " bytes");
  if (total < size)
    return bad(error, Status::BadFormat,
               std::to_string(size - total) + " bytes after the end the header gives (byte " +
                   std::to_string(total) + ")");
  const std::uint32_t stored = get_u32(b + size - kNavSaveTrailerBytes);
  const std::uint32_t computed = crc32(bytes.first(size - kNavSaveTrailerBytes));
  if (stored != computed) {
    char msg[96];
    std::snprintf(msg, sizeof msg,
                  "checksum mismatch (stored %08x, computed %08x): the file is damaged", stored,
                  computed);
    return bad(error, Status::BadFormat, msg);
  }
  // The rules that made the navigation are the library's: another release may classify or move
  // differently, so its file is refused as a cache miss (the checksum is checked first so that
  // damage is reported as damage).
  const std::uint32_t library = get_u32(b + 48);
  if (out) out->library = library;
  if (library != static_cast<std::uint32_t>(VOXNAV_VERSION))
    return bad(error, Status::Unsupported,
               "made by voxnav " + version_text(library) + ", this is voxnav " +
                   version_text(VOXNAV_VERSION) +
                   ": its navigation rules may differ; rebuild the navigation and export it again");
  if (out) {
    out->version = version;
    out->blocks = (get_u32(b + 36) & kSaveFlagBlocks) != 0;
    out->chunks = get_u32(b + 40);
    out->classes = get_u32(b + 44);
  }
  return Status::Ok;
}

Status import_nav(WorldState& ws, std::span<const std::uint8_t> bytes, NavImportSummary* summary,
                  std::string* error) {
  const std::size_t size = bytes.size();
  const std::uint8_t* b = bytes.data();
  // 1. The header: magic, version, sizes, checksum, registry.
  if (const Status st = read_nav_header(bytes, nullptr, error); st != Status::Ok) return st;
  if (get_u64(b + 24) != registry_fingerprint(ws.registry))
    return bad(error, Status::InvalidArgument,
               "the file was made for another block registry (registry fingerprint differs): load "
               "the same blocks, or rebuild");
  const std::uint32_t nsections = get_u32(b + 32), flags = get_u32(b + 36);
  const std::uint32_t nchunks = get_u32(b + 40), nclasses = get_u32(b + 44);
  if ((flags & ~kSaveFlagBlocks) != 0)
    return bad(error, Status::BadFormat, "unknown header flags " + std::to_string(flags));
  const bool with_blocks = (flags & kSaveFlagBlocks) != 0;
  const std::size_t body_end = size - kNavSaveTrailerBytes;
  const std::size_t table_end = kNavSaveHeaderBytes + std::size_t(nsections) * kNavSaveSectionBytes;
  if (nsections > (body_end - kNavSaveHeaderBytes) / kNavSaveSectionBytes)
    return bad(error, Status::BadFormat,
               "section table of " + std::to_string(nsections) +
                   " entries out of bounds (the file has " + std::to_string(size) + " bytes)");
  if (nclasses > WorldState::kClassSlots ||
      std::uint64_t(nchunks) * (1 + nclasses) + nclasses != nsections)
    return bad(error, Status::BadFormat,
               std::to_string(nsections) + " sections for " + std::to_string(nchunks) +
                   " chunks and " + std::to_string(nclasses) + " classes");

  // 2. Every section: bounds, kind, position, payload; decoded off to the side.
  std::vector<BlocksEntry> blocks;
  std::array<std::vector<std::unique_ptr<NavChunk>>, WorldState::kClassSlots> navs;
  std::array<bool, WorldState::kClassSlots> has_class{};
  std::array<IslandTables, WorldState::kClassSlots> tables;
  try {
    blocks.reserve(nchunks);
    for (std::uint32_t k = 0; k < nsections; ++k) {
      const std::uint8_t* e = b + kNavSaveHeaderBytes + std::size_t(k) * kNavSaveSectionBytes;
      const std::uint32_t kind = get_u32(e), slot = get_u32(e + 4);
      const ChunkPos p{static_cast<std::int32_t>(get_u32(e + 8)),
                       static_cast<std::int32_t>(get_u32(e + 12)),
                       static_cast<std::int32_t>(get_u32(e + 16))};
      const std::uint64_t off = get_u64(e + 24), len = get_u64(e + 32);
      if (kind < 1 || kind > 3)
        return bad(error, Status::BadFormat,
                   "section " + std::to_string(k) + " has unknown kind " + std::to_string(kind));
      const auto sk = static_cast<SaveSection>(kind);
      if (slot >= WorldState::kClassSlots || (sk == SaveSection::Blocks && slot != 0))
        return bad(error, Status::BadFormat,
                   "section " + std::to_string(k) + " names class slot " + std::to_string(slot));
      // (built only for a message: a name per section would allocate thousands of strings)
      auto name = [&] { return section_name(sk, slot, p); };
      if (off < table_end || off > body_end || len > body_end - off)
        return bad(error, Status::BadFormat,
                   "section '" + name() + "' out of bounds (bytes " + std::to_string(off) + " + " +
                       std::to_string(len) + ", the payloads lie in " + std::to_string(table_end) +
                       " .. " + std::to_string(body_end) + ")");
      if (sk != SaveSection::Class && !chunk_in_range(p))
        return bad(error, Status::BadFormat, "section '" + name() + "': chunk out of range");
      const std::span<const std::uint8_t> pay = bytes.subspan(off, len);
      std::string why;
      if (sk == SaveSection::Blocks) {
        if (!blocks.empty() && chunk_key(blocks.back().pos) >= chunk_key(p))
          return bad(error, Status::BadFormat,
                     "section '" + name() + "' is out of order or repeated");
        BlocksEntry be;
        be.pos = p;
        if (pay.size() < kBlocksHead)
          return bad(error, Status::BadFormat, "section '" + name() + "': payload too short");
        be.fingerprint = get_u64(pay.data());
        be.uniform = pay[8] != 0;
        be.value = static_cast<std::uint16_t>(pay[10] | (pay[11] << 8));
        const std::uint32_t rl = get_u32(pay.data() + 12);
        if (pay[8] > 1 || rl != pay.size() - kBlocksHead ||
            (rl != 0) != (with_blocks && !be.uniform))
          return bad(error, Status::BadFormat, "section '" + name() + "': bad head");
        if (with_blocks) {
          if (be.uniform) {
            if (be.value >= ws.registry.size())
              return bad(error, Status::BadFormat,
                         "section '" + name() + "': block value " + std::to_string(be.value) +
                             " is not in the registry");
          } else {
            be.values.resize(kChunkCells);
            std::array<std::uint8_t, kChunkCells * 2> split;
            if (!rle_decode(pay.subspan(kBlocksHead), split.data(), split.size()))
              return bad(error, Status::BadFormat,
                         "section '" + name() + "': the block values do not decode");
            for (int i = 0; i < kChunkCells; ++i)
              be.values[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(
                  split[static_cast<std::size_t>(i)] |
                  (split[static_cast<std::size_t>(kChunkCells + i)] << 8));
            for (const std::uint16_t v : be.values)
              if (v >= ws.registry.size())
                return bad(error, Status::BadFormat,
                           "section '" + name() + "': block value " + std::to_string(v) +
                               " is not in the registry");
          }
        }
        blocks.push_back(std::move(be));
      } else if (sk == SaveSection::Class) {
        if (has_class[slot])
          return bad(error, Status::BadFormat, "section '" + name() + "' is repeated");
        has_class[slot] = true;
        if (pay.size() < kClassHead)
          return bad(error, Status::BadFormat, "section '" + name() + "': payload too short");
        if (!decode_tables(pay, tables[slot], why))
          return bad(error, Status::BadFormat, "section '" + name() + "': islands: " + why);
        const MovementClass cls = WorldState::kSlotClass[slot];
        if (get_u64(pay.data()) != envelope_fingerprint(class_envelope(cls)))
          return bad(error, Status::InvalidArgument,
                     "section '" + name() + "': saved for another " + movement_class_name(cls) +
                         " body envelope (a build whose class rules differ): rebuild");
        if (get_u32(pay.data() + 8) != nchunks)
          return bad(error, Status::BadFormat,
                     "section '" + name() + "': " + std::to_string(get_u32(pay.data() + 8)) +
                         " chunks, the header says " + std::to_string(nchunks));
        navs[slot].reserve(nchunks);
      } else {
        if (!has_class[slot])
          return bad(error, Status::BadFormat,
                     "section '" + name() + "' comes before its class section");
        std::vector<std::unique_ptr<NavChunk>>& v = navs[slot];
        if (v.size() >= blocks.size() || !(blocks[v.size()].pos == p))
          return bad(error, Status::BadFormat,
                     "section '" + name() + "' does not follow the chunk order of the blocks");
        auto ch = std::make_unique<NavChunk>();
        ch->pos = p;
        if (!decode_nav(pay, *ch, static_cast<std::uint32_t>(tables[slot].parent.size()), why))
          return bad(error, Status::BadFormat, "section '" + name() + "': " + why);
        v.push_back(std::move(ch));
      }
    }
  } catch (const std::bad_alloc&) {
    return bad(error, Status::OutOfMemory, "out of memory reading the navigation");
  }
  if (blocks.size() != nchunks)
    return bad(error, Status::BadFormat,
               std::to_string(blocks.size()) + " chunk sections, the header says " +
                   std::to_string(nchunks));
  std::size_t classes = 0;
  for (std::uint32_t s = 0; s < WorldState::kClassSlots; ++s) {
    if (!has_class[s]) continue;
    ++classes;
    if (navs[s].size() != nchunks)
      return bad(error, Status::BadFormat,
                 std::string(slot_name(s)) + ": " + std::to_string(navs[s].size()) +
                     " chunk sections, the header says " + std::to_string(nchunks));
  }
  if (classes != nclasses)
    return bad(
        error, Status::BadFormat,
        std::to_string(classes) + " class sections, the header says " + std::to_string(nclasses));

  // 3. The World: its blocks are the saved ones (or it has none and the file brings them), and
  //    nothing is under way that the new navigation would pull out from under.
  if (with_blocks) {
    if (ws.space.chunk_count() != 0)
      return bad(error, Status::InvalidArgument,
                 "the file carries its blocks: import it into a World without chunks (" +
                     std::to_string(ws.space.chunk_count()) + " loaded)");
  } else {
    if (ws.space.chunk_count() != blocks.size())
      return bad(error, Status::InvalidArgument,
                 "the World has " + std::to_string(ws.space.chunk_count()) +
                     " chunks loaded, the file describes " + std::to_string(blocks.size()) +
                     ": load the same blocks first (or export with the blocks)");
    // Uniform chunks share a few values (air, stone): their fingerprints are computed once.
    std::vector<std::pair<std::uint16_t, std::uint64_t>> uniform_fp;
    for (const BlocksEntry& be : blocks) {
      const Chunk* c = ws.space.chunk(be.pos);
      if (!c)
        return bad(error, Status::InvalidArgument,
                   "chunk " + pos_text(be.pos.x, be.pos.y, be.pos.z) +
                       " of the file is not loaded in the World");
      std::uint64_t fp = 0;
      if (c && c->uniform) {
        auto it = std::find_if(uniform_fp.begin(), uniform_fp.end(),
                               [&](const auto& e) { return e.first == c->uniform_value; });
        if (it == uniform_fp.end()) {
          uniform_fp.emplace_back(c->uniform_value, blocks_fingerprint(*c));
          it = uniform_fp.end() - 1;
        }
        fp = it->second;
      } else if (c) {
        fp = blocks_fingerprint(*c);
      }
      if (fp != be.fingerprint)
        return bad(error, Status::InvalidArgument,
                   "chunk " + pos_text(be.pos.x, be.pos.y, be.pos.z) +
                       ": the World's blocks differ from the saved ones");
    }
  }
  for (std::size_t i = 0; i < ws.agents.capacity(); ++i)
    if (ws.agents.at(i).alive)
      return bad(error, Status::Busy,
                 "the World has live agents: import navigation before adding agents");
  for (NavWorld* n : ws.navs()) {
    n->wait_jobs();
    if (n->pending_builds() || n->deferred_builds())
      return bad(error, Status::Busy, "chunk builds are pending or deferred");
  }

  // 4. Install: the blocks (all or nothing), then each class slot's navigation.
  if (with_blocks) {
    std::vector<ChunkLoad> batch(blocks.size());
    for (std::size_t i = 0; i < blocks.size(); ++i)
      batch[i] = ChunkLoad{blocks[i].pos, blocks[i].uniform, blocks[i].value,
                           std::span<const std::uint16_t>(blocks[i].values)};
    Status st;
    try {
      st = ws.space.load_chunks(batch);
    } catch (const std::bad_alloc&) {
      st = Status::OutOfMemory;
    }
    if (st != Status::Ok) return bad(error, st, "the saved blocks could not be loaded");
  }
  for (std::uint32_t s = 0; s < WorldState::kClassSlots; ++s) {
    if (!has_class[s]) continue;
    if (!ws.nav_of_slot(s)) {
      // As World::add_profile makes the first navigation of a class (without building it).
      auto nav = std::make_unique<NavWorld>(ws.space, class_envelope(WorldState::kSlotClass[s]),
                                            ws.executor, ws.lockstep_delay);
      nav->set_streaming(ws.streaming);
      nav->set_build_radius(ws.build_radius);
      nav->set_search_budget(ws.search_budget);
      nav->set_surface_groups(ws.groups.group_of_value);
      for (NavWorld* n : ws.navs()) n->set_trims_log(false);
      nav->set_trims_log(false);
      nav->set_waits(false);
      *ws.slot_owner(s) = std::move(nav);
    }
    ws.nav_of_slot(s)->adopt(std::move(navs[s]), std::move(tables[s]));
  }
  if (summary) {
    summary->chunks = blocks.size();
    summary->classes = classes;
    summary->blocks = with_blocks;
  }
  return Status::Ok;
}

}  // namespace voxnav::detail
