#!/usr/bin/env python3
"""Seed corpora for the fuzz harnesses, cut at run time from real data (nothing big is committed):

    fuzz/make_seeds.py SHARED_DATA OUT_DIR

SHARED_DATA is ../shared/data (minecraft/, movingai-2d/); the repository's examples/ and docs/
give the profile, scenario and registry seeds. Writes OUT_DIR/<target>/<name> files."""
import gzip, json, os, re, struct, sys, zlib

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(shared, out):
    def put(target, name, data):
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data if isinstance(data, bytes) else data.encode())

    mc = os.path.join(shared, 'minecraft')
    # Anvil: a few chunks of each region (inflated NBT for anvil_columns, one-chunk regions).
    regions = os.path.join(mc, 'regions')
    for version in sorted(os.listdir(regions)) if os.path.isdir(regions) else []:
        for fname in sorted(os.listdir(os.path.join(regions, version))):
            data = open(os.path.join(regions, version, fname), 'rb').read()
            taken = 0
            for slot in range(1024):
                loc = struct.unpack('>I', data[slot * 4:slot * 4 + 4])[0]
                off, n = (loc >> 8) * 4096, loc & 0xFF
                if not loc or off + 5 > len(data):
                    continue
                length, comp = struct.unpack('>ib', data[off:off + 5])
                raw = data[off + 5:off + 4 + length]
                try:
                    nbt = zlib.decompress(raw) if comp == 2 else gzip.decompress(raw) if comp == 1 else raw
                except Exception:
                    continue
                if len(nbt) > 200000:
                    continue
                tag = '%s_%s_%d' % (version, fname, slot)
                put('anvil_columns', tag + '.nbt', nbt)
                header = bytearray(8192)
                blob = data[off:off + 4 + length]
                blob += b'\0' * (-len(blob) % 4096)
                header[0:4] = struct.pack('>I', (2 << 8) | (len(blob) // 4096))
                if len(blob) <= 60000:
                    put('anvil_region', tag + '.mca', bytes(header) + blob)
                taken += 1
                if taken == 3:
                    break
    # Schematics: the gzip files and their NBT.
    sdir = os.path.join(mc, 'schematics')
    for fname in sorted(os.listdir(sdir)) if os.path.isdir(sdir) else []:
        if fname.endswith('.schem') or fname.endswith('.schematic'):
            data = open(os.path.join(sdir, fname), 'rb').read()
            if len(data) < 200000:
                put('schematic', fname, data)
                put('schematic', fname + '.nbt', gzip.decompress(data))
    # Moving AI: each map cropped to 32 x 32 tiles, and the first rows of each scen.
    mdir = os.path.join(shared, 'movingai-2d', 'maps')
    for fname in sorted(os.listdir(mdir)) if os.path.isdir(mdir) else []:
        lines = open(os.path.join(mdir, fname), 'rb').read().decode('latin-1').splitlines()
        try:
            start = lines.index('map') + 1
        except ValueError:
            continue
        rows = [r[:32] for r in lines[start:start + 32]]
        put('movingai_map', fname, 'type octile\nheight %d\nwidth %d\nmap\n%s\n' % (
            len(rows), len(rows[0]), '\n'.join(rows)))
    cdir = os.path.join(shared, 'movingai-2d', 'scens')
    for fname in sorted(os.listdir(cdir)) if os.path.isdir(cdir) else []:
        lines = open(os.path.join(cdir, fname), 'rb').read().decode('latin-1').splitlines(True)
        put('movingai_scen', fname, ''.join(lines[:12]))
    # Moving AI voxel maps: the first voxels of each .3dmap (header kept) with its scen's first rows.
    vdir = os.path.join(shared, 'movingai-3d')
    for fname in sorted(os.listdir(vdir)) if os.path.isdir(vdir) else []:
        if not fname.endswith('.3dmap'):
            continue
        lines = open(os.path.join(vdir, fname), 'rb').read().decode('latin-1').splitlines(True)
        scen = os.path.join(vdir, fname + '.3dscen')
        rows = open(scen, 'rb').read().decode('latin-1').splitlines(True)[:6] if os.path.exists(scen) else []
        put('voxel_map', fname, ''.join(lines[:40]) + '\n#scen#\n' + ''.join(rows))
    # minecraft-data: the first blocks of each blocks file, with their shapes after the separator.
    bdir = os.path.join(mc, 'blocks')
    shapes_path = os.path.join(bdir, 'blockCollisionShapes.pc-1.20.5.json')
    shapes = json.load(open(shapes_path)) if os.path.exists(shapes_path) else None
    for fname, counts in (('blocks.pc-1.21.1.json', (12, 60)), ('blocks.pc-1.12.json', (20,))):
        p = os.path.join(bdir, fname)
        if not os.path.exists(p):
            continue
        blocks = json.load(open(p))
        for n in counts:
            part = blocks[:n]
            text = json.dumps(part, separators=(',', ':'))
            put('minecraft_blocks', '%s_%d.json' % (fname, n), text)
            if shapes:
                names = {b['name'] for b in part}
                sb = {k: v for k, v in shapes['blocks'].items() if k in names}
                ids = {str(i) for v in sb.values() for i in (v if isinstance(v, list) else [v])}
                sub = {'blocks': sb, 'shapes': {k: v for k, v in shapes['shapes'].items() if k in ids}}
                put('minecraft_blocks', '%s_%d_shapes.json' % (fname, n),
                    text + '\n#shapes#\n' + json.dumps(sub, separators=(',', ':')))
    # voxnav registry JSON: the examples in docs/registry.md.
    doc = open(os.path.join(REPO, 'docs', 'registry.md')).read()
    for i, block in enumerate(re.findall(r'```json\n(.*?)```', doc, re.S)):
        put('registry_json', 'registry_md_%d.json' % i, block)
    put('registry_json', 'minimal.json', '{"format":"voxnav-blocks","version":1,"blocks":[{"name":"air"},{"name":"stone","boxes":[[0,0,0,1,1,1]]}]}')
    # Profiles and scenarios from examples/.
    pdir = os.path.join(REPO, 'examples', 'profiles')
    for fname in sorted(os.listdir(pdir)):
        if fname.endswith('.json'):
            put('profile_json', fname, open(os.path.join(pdir, fname), 'rb').read())
    put('profile_json', 'walker.json', '{"id":"walker"}')
    sc = json.load(open(os.path.join(REPO, 'examples', 'web', 'scenario.json')))
    put('scenario_json', 'scenario.json', json.dumps(sc))
    small = dict(sc, agents=sc['agents'][:3], edits=sc.get('edits', [])[:3])
    if 'swimmers' in sc:
        small['swimmers'] = dict(sc['swimmers'], agents=sc['swimmers']['agents'][:2])
    put('scenario_json', 'scenario_small.json', json.dumps(small, indent=1))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
