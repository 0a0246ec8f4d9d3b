"""A small NBT writer (big-endian Java edition) for fuzz/make_regressions.py and make_seeds.py."""
import struct

END, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BYTE_ARRAY, STRING, LIST, COMPOUND, INT_ARRAY, LONG_ARRAY = range(13)


def _name(s):
    b = s.encode()
    return struct.pack('>H', len(b)) + b


def payload(tag, v):
    if tag == BYTE: return struct.pack('>b', v)
    if tag == SHORT: return struct.pack('>h', v)
    if tag == INT: return struct.pack('>i', v)
    if tag == LONG: return struct.pack('>q', v)
    if tag == STRING: return _name(v)
    if tag == BYTE_ARRAY: return struct.pack('>i', len(v)) + bytes(v)
    if tag == INT_ARRAY: return struct.pack('>i', len(v)) + b''.join(struct.pack('>i', x) for x in v)
    if tag == LONG_ARRAY: return struct.pack('>i', len(v)) + b''.join(struct.pack('>q', x) for x in v)
    if tag == LIST:
        elem, items = v
        return struct.pack('>bi', elem, len(items)) + b''.join(payload(elem, x) for x in items)
    if tag == COMPOUND:
        return b''.join(struct.pack('>b', t) + _name(k) + payload(t, x) for k, (t, x) in v.items()) + b'\0'
    raise ValueError(tag)


def document(root):
    """A named root compound (name "") holding `root` ({name: (tag, value)})."""
    return struct.pack('>b', COMPOUND) + _name('') + payload(COMPOUND, root)
