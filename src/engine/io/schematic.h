// Sponge schematics (.schem, the NBT inside the gzip): version 1 / 2 (Palette + BlockData at the
// root) and version 3 (under Schematic.Blocks). Block index = x + z * Width + y * Width * Length;
// the data is a sequence of unsigned LEB128 varints (palette indices).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/io/anvil_chunk.h"
#include "engine/io/minecraft_registry.h"
#include "engine/io/nbt.h"
#include "engine/world/space.h"
#include "voxnav/status.h"

namespace voxnav::detail {

struct DecodedChunk {
  ChunkPos pos;
  DecodedSection data;  ///< data.y == pos.y
};

struct DecodedSchematic {
  int version = 0;
  std::int32_t data_version = 0;
  int width = 0, height = 0, length = 0;  ///< x, y, z sizes
  CellPos min, max;                          ///< cells covered (inclusive), min == origin
  std::size_t non_air = 0;
  std::vector<DecodedChunk> chunks;  ///< every chunk the box touches, sorted by chunk_key
};

/// Decodes a Sponge schematic's root compound, placing its minimum corner at `origin`. Cells of
/// the touched chunks outside the schematic are air. Unknown palette names become fallback and
/// are counted per cell. Errors: BadFormat (missing sizes / palette / data, bad varints, index
/// out of the palette), Unsupported (a version other than 1..3), OutOfRange (placement outside
/// the space's limits).
Status decode_sponge_schematic(const nbt::Tag& root, const MinecraftBlocks& blocks, CellPos origin,
                               DecodedSchematic& out, LookupTally& tally, std::string& message);

Status load_decoded_chunks(const std::vector<DecodedChunk>& chunks, Space& space);

}  // namespace voxnav::detail
