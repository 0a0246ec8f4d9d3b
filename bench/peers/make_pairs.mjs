#!/usr/bin/env node
// Writes a PAIRS.json of random standable surface pairs in one Minecraft region, for
// mineflayer_region.mjs (and voxnav's side of the same benchmark). Deterministic for a seed.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs, die, intOpt, numOpt, mulberry32 } from './common.mjs'
import { loadRegion, surfaceCells } from './region.mjs'

const USAGE = `usage: node make_pairs.mjs REGION_FILE VERSION OUT.json [--count 50] [--seed 1]
                             [--min-dist 8] [--max-dist 64]
  Picks --count pairs of standable surface cells (feet block of a standing walker) whose
  horizontal (x, z) distance is in [--min-dist, --max-dist]. See region.mjs surfaceCells for the
  standability rule. Same arguments, same file.`

async function main () {
  const { positional, opts } = parseArgs(process.argv.slice(2), { usage: USAGE })
  if (positional.length !== 3) die(USAGE)
  const [regionFile, version, outFile] = positional
  const count = intOpt(opts, 'count', 50)
  const seed = intOpt(opts, 'seed', 1)
  const minDist = numOpt(opts, 'min-dist', 8)
  const maxDist = numOpt(opts, 'max-dist', 64)
  if (!(maxDist >= minDist && maxDist > 0)) die('need 0 < --max-dist and --min-dist <= --max-dist')

  const region = await loadRegion(regionFile, version)
  const cells = surfaceCells(region)
  if (cells.length < 2) die(`${regionFile}: fewer than 2 standable surface cells`)
  const byColumn = new Map()
  for (const c of cells) byColumn.set(`${c.x},${c.z}`, c)

  const rand = mulberry32(seed)
  const pairs = []
  let attempts = 0
  while (pairs.length < count) {
    if (++attempts > count * 100000) die(`could not find ${count} pairs (found ${pairs.length})`)
    const a = cells[Math.floor(rand() * cells.length)]
    // a point in the ring [minDist, maxDist] around a, uniform over its area
    const r = Math.sqrt(minDist * minDist + rand() * (maxDist * maxDist - minDist * minDist))
    const th = rand() * 2 * Math.PI
    const b = byColumn.get(`${Math.round(a.x + r * Math.cos(th))},${Math.round(a.z + r * Math.sin(th))}`)
    if (!b || b === a) continue
    const d = Math.hypot(b.x - a.x, b.z - a.z)
    if (d < minDist || d > maxDist) continue
    pairs.push({ from: [a.x, a.y, a.z], to: [b.x, b.y, b.z] })
  }

  const out = {
    region: regionFile,
    version,
    generator: 'bench/peers/make_pairs.mjs',
    seed,
    count,
    min_dist: minDist,
    max_dist: maxDist,
    cells: 'feet block of a standing walker: full solid cube below, feet and head cells without collision, liquid or hazard; highest such ground per column (leaves looked through)',
    standable_surface_cells: cells.length,
    pairs
  }
  fs.mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true })
  // one pair per line: readable and diff-friendly
  const body = JSON.stringify({ ...out, pairs: [] }).replace(/"pairs":\[\]\}$/,
    '"pairs":[\n' + pairs.map(p => '  ' + JSON.stringify(p)).join(',\n') + '\n]}\n')
  fs.writeFileSync(outFile, body)
  process.stderr.write(`make_pairs: ${pairs.length} pairs from ${cells.length} surface cells -> ${outFile}\n`)
}

main().catch(e => { process.stderr.write(`${e.stack || e}\n`); process.exit(1) })
