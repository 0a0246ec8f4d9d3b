#!/usr/bin/env python3
"""Writes the reproducers of issue 16 (and later fuzz findings) into fuzz/regressions/<target>/.
scripts/fuzz.sh runs every file there through its harness; each must end in a clean status.
Deterministic: running it again gives the same bytes (the outputs are committed)."""
import gzip, json, os, struct, sys, zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nbt import *  # noqa: E402,F401,F403

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'regressions')


def write(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def chunk_118(root_extra=None, sections=None):
    root = {'DataVersion': (INT, 2975), 'xPos': (INT, 0), 'zPos': (INT, 0), 'yPos': (INT, -4),
            'Status': (STRING, 'full'),
            'sections': (LIST, (COMPOUND, sections if sections is not None else []))}
    root.update(root_extra or {})
    return document(root)


def stone_section(y_tag, y):
    return {'Y': (y_tag, y),
            'block_states': (COMPOUND, {'palette': (LIST, (COMPOUND, [{'Name': (STRING, 'minecraft:stone')}]))})}


# 1. A blocks JSON whose block claims maxStateId 2^32-1 and 32 boolean properties: the state counter
#    wrapped to 0 and the loader wrote through an empty vector.
states = [{'name': 'p%d' % i, 'type': 'bool', 'num_values': 2} for i in range(32)]
blocks = [{'id': 0, 'name': 'air', 'minStateId': 0, 'maxStateId': 0, 'defaultState': 0, 'states': [],
           'boundingBox': 'empty'},
          {'id': 1, 'name': 'wrap', 'minStateId': 1, 'maxStateId': 4294967295, 'defaultState': 1,
           'states': states, 'boundingBox': 'block'}]
write('minecraft_blocks', 'max_state_id_wrap.json', json.dumps(blocks, separators=(',', ':')).encode())

# 2. A 115-byte-class schematic claiming 65535 x 1 x 65535 with no block data: every chunk buffer
#    was allocated before the data length was checked. The raw NBT (the harness gzips it) and the
#    gzip file itself.
schem = document({'Schematic': (COMPOUND, {
    'Version': (INT, 2), 'DataVersion': (INT, 2975),
    'Width': (SHORT, -1), 'Height': (SHORT, 1), 'Length': (SHORT, -1),
    'PaletteMax': (INT, 1), 'Palette': (COMPOUND, {'minecraft:air': (INT, 0)}),
    'BlockData': (BYTE_ARRAY, b'')})})
write('schematic', 'huge_box_no_data.nbt', schem)
write('schematic', 'huge_box_no_data.schem', gzip.compress(schem, compresslevel=9, mtime=0))
# Sponge v1 at the root (no "Schematic" wrapper), same claim.
schem1 = document({'Version': (INT, 1), 'Width': (SHORT, -1), 'Height': (SHORT, 1), 'Length': (SHORT, -1),
                   'PaletteMax': (INT, 1), 'Palette': (COMPOUND, {'minecraft:air': (INT, 0)}),
                   'BlockData': (BYTE_ARRAY, b'')})
write('schematic', 'huge_box_no_data_v1.nbt', schem1)

# 3. Anvil sections with a huge Y (one section was made per y up to it), yPos near INT_MAX, xPos at
#    2^27 (past the chunk key's bits), a Long xPos.
write('anvil_columns', 'section_huge_y.nbt', chunk_118(sections=[stone_section(INT, 1000000)]))
write('anvil_columns', 'section_negative_huge_y.nbt', chunk_118(sections=[stone_section(INT, -2000000000)]))
write('anvil_columns', 'ypos_int_max.nbt', chunk_118({'yPos': (INT, 2147483647)}, [stone_section(BYTE, 0)]))
write('anvil_columns', 'xpos_2_27.nbt', chunk_118({'xPos': (INT, 1 << 27)}, [stone_section(BYTE, 0)]))
write('anvil_columns', 'xpos_long.nbt', chunk_118({'xPos': (LONG, 1 << 40)}, [stone_section(BYTE, 0)]))

# 4. An NBT list claiming 10^8 entries (it was pre-sized): a compound list header and nothing after.
list_doc = (struct.pack('>b', COMPOUND) + struct.pack('>H', 0) +
            struct.pack('>b', INT) + struct.pack('>H', 11) + b'DataVersion' + struct.pack('>i', 2975) +
            struct.pack('>b', LIST) + struct.pack('>H', 8) + b'sections' + struct.pack('>bi', COMPOUND, 100000000))
write('anvil_columns', 'nbt_list_1e8.nbt', list_doc)
write('anvil_columns', 'nbt_long_array_1e8.nbt',
      struct.pack('>b', COMPOUND) + struct.pack('>H', 0) +
      struct.pack('>b', LONG_ARRAY) + struct.pack('>H', 4) + b'data' + struct.pack('>i', 100000000))


# 5. A zlib bomb in a region: one chunk inflating to 17 MiB of zeros (the harness allows 16 MiB;
#    the library's default limit, 256 MiB, is tested in tests/io/hostile_input_native_test.cpp).
def region(chunks):
    """chunks: list of (slot, compression, payload) -> region bytes."""
    header = bytearray(8192)
    body = bytearray()
    sector = 2
    for slot, comp, data in chunks:
        blob = struct.pack('>ib', len(data) + 1, comp) + data
        blob += b'\0' * (-len(blob) % 4096)
        n = len(blob) // 4096
        header[slot * 4:slot * 4 + 4] = struct.pack('>I', (sector << 8) | n)
        body += blob
        sector += n
    return bytes(header) + bytes(body)


bomb = zlib.compress(b'\0' * (17 << 20), 9)
write('anvil_region', 'zlib_bomb.mca', region([(0, 2, bomb)]))
# Open finding (fuzz/findings/, not run by scripts/fuzz.sh until fixed): the same chunk in two
# slots of a region loads "Ok" with chunks_loaded 2 although one chunk is in the World (the second
# slot silently replaces the first).
one = zlib.compress(chunk_118(sections=[stone_section(BYTE, 0)]), 9)
os.makedirs(os.path.join(OUT, '..', 'findings', 'anvil_region'), exist_ok=True)
with open(os.path.join(OUT, '..', 'findings', 'anvil_region', 'same_chunk_twice.mca'), 'wb') as f:
    f.write(region([(0, 2, one), (1, 2, one)]))
# A region whose chunk says xPos 2^27: loaded "Ok" into out-of-range chunks before.
far = zlib.compress(chunk_118({'xPos': (INT, 1 << 27)}, [stone_section(BYTE, 0)]), 9)
write('anvil_region', 'xpos_2_27.mca', region([(0, 2, far)]))

print('regressions written to', OUT)
