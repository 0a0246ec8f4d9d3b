#!/usr/bin/env node
// PathFinding.js (npm `pathfinding`) A* on a Moving AI 2D benchmark: the peer side of voxnav's
// grid search benchmark. See bench/README.md.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  require, packageVersion, parseArgs, die, intOpt, timeStats, round, emitJson, environment
} from './common.mjs'

const USAGE = `usage: node pathfinding_movingai.mjs MAP SCEN [--rows N | --sample N] [--warmup N]
                                  [--per-row] [--expanded] [--json out.json]
  MAP, SCEN     a Moving AI .map and its .scen
  --rows N      only the first N scenario rows
  --sample N    a deterministic sample of N rows spread evenly over the file (and so over its
                buckets): data rows floor(i * R / N) for i = 0..N-1, R = number of rows
                (0-based, the 'version' line not counted); all rows when N >= R
  --warmup N    untimed queries (the first N selected rows) before the timed run (default 20)
  --per-row     add every row's result to the JSON ('per_row')
  --expanded    count closed nodes after each search (outside the timing) and report them
  --json FILE   write the JSON line to FILE instead of stdout`

const PF = require('pathfinding')

const PASSABLE = new Set(['.', 'G', 'S'])

export function readMap (file) {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/)
  let i = 0
  let width = -1
  let height = -1
  for (; i < lines.length; i++) {
    const l = lines[i].trim()
    if (l === 'map') { i++; break }
    const [k, v] = l.split(/\s+/)
    if (k === 'height') height = Number(v)
    else if (k === 'width') width = Number(v)
  }
  if (!(width > 0 && height > 0)) throw new Error(`${file}: no width/height header`)
  const matrix = []
  for (let y = 0; y < height; y++) {
    const row = lines[i + y]
    if (row === undefined || row.length < width) throw new Error(`${file}: row ${y} is short`)
    const r = new Array(width)
    for (let x = 0; x < width; x++) r[x] = PASSABLE.has(row[x]) ? 0 : 1 // PF: 1 = blocked
    matrix.push(r)
  }
  return { width, height, matrix }
}

export function readScen (file) {
  const rows = []
  for (const line of fs.readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('version')) continue
    const f = line.split('\t')
    if (f.length < 9) throw new Error(`${file}: bad row '${line}'`)
    rows.push({
      bucket: Number(f[0]),
      map: f[1],
      width: Number(f[2]),
      height: Number(f[3]),
      sx: Number(f[4]),
      sy: Number(f[5]),
      gx: Number(f[6]),
      gy: Number(f[7]),
      optimal: Number(f[8])
    })
  }
  return rows
}

/** Indices of the rows to run (see USAGE). */
export function selectRows (total, { rows, sample }) {
  if (sample !== undefined && sample < total) {
    const idx = []
    for (let i = 0; i < sample; i++) idx.push(Math.floor((i * total) / sample))
    return { indices: idx, rule: `sample floor(i*${total}/${sample}), i=0..${sample - 1}` }
  }
  const n = rows !== undefined ? Math.min(rows, total) : total
  const idx = Array.from({ length: n }, (_, i) => i)
  return { indices: idx, rule: n === total ? 'all rows' : `first ${n} rows` }
}

/** Length of a PF path (list of [x, y]): steps of 1 and sqrt(2). */
export function pathLength (p) {
  let len = 0
  for (let i = 1; i < p.length; i++) {
    const dx = Math.abs(p[i][0] - p[i - 1][0])
    const dy = Math.abs(p[i][1] - p[i - 1][1])
    if (dx > 1 || dy > 1 || dx + dy === 0) throw new Error(`bad step ${p[i - 1]} -> ${p[i]}`)
    len += dx + dy === 2 ? Math.SQRT2 : 1
  }
  return len
}

function countClosed (grid) {
  let n = 0
  for (const row of grid.nodes) for (const node of row) if (node.closed) n++
  return n
}

function main () {
  const { positional, opts } = parseArgs(process.argv.slice(2), { flags: ['per-row', 'expanded'], usage: USAGE })
  if (positional.length !== 2) die(USAGE)
  const [mapFile, scenFile] = positional
  const rowsOpt = intOpt(opts, 'rows', undefined)
  const sampleOpt = intOpt(opts, 'sample', undefined)
  if (rowsOpt !== undefined && sampleOpt !== undefined) die('use --rows or --sample, not both')
  const warmup = intOpt(opts, 'warmup', 20)

  const map = readMap(mapFile)
  const scen = readScen(scenFile)
  const { indices, rule } = selectRows(scen.length, { rows: rowsOpt, sample: sampleOpt })
  for (const i of indices) {
    const r = scen[i]
    if (r.width !== map.width || r.height !== map.height) die(`row ${i}: scen size ${r.width}x${r.height} != map ${map.width}x${map.height}`)
    for (const [x, y] of [[r.sx, r.sy], [r.gx, r.gy]]) {
      if (map.matrix[y]?.[x] !== 0) die(`row ${i}: (${x}, ${y}) is not a passable cell`)
    }
  }

  const tBuild0 = performance.now()
  const base = new PF.Grid(map.width, map.height, map.matrix)
  const buildMs = performance.now() - tBuild0
  const finder = new PF.AStarFinder({
    diagonalMovement: PF.DiagonalMovement.OnlyWhenNoObstacles, // no corner cutting
    heuristic: PF.Heuristic.octile,
    weight: 1
  })

  // Warm-up: let V8 compile the hot paths before timing.
  for (let k = 0; k < Math.min(warmup, indices.length); k++) {
    const r = scen[indices[k]]
    finder.findPath(r.sx, r.sy, r.gx, r.gy, base.clone())
  }

  const totalMs = []
  const searchMs = []
  const cloneMs = []
  const perRow = []
  const expanded = []
  let matches = 0
  let noPath = 0
  let maxRelErr = 0
  for (const i of indices) {
    const r = scen[i]
    const t0 = performance.now()
    const grid = base.clone() // PathFinding.js docs: a grid is used up by one search
    const t1 = performance.now()
    const p = finder.findPath(r.sx, r.sy, r.gx, r.gy, grid)
    const t2 = performance.now()
    cloneMs.push(t1 - t0)
    searchMs.push(t2 - t1)
    totalMs.push(t2 - t0)
    const found = p.length > 0
    const len = found ? pathLength(p) : null
    if (found) {
      const last = p[p.length - 1]
      if (p[0][0] !== r.sx || p[0][1] !== r.sy || last[0] !== r.gx || last[1] !== r.gy) {
        throw new Error(`row ${i}: path does not join start and goal`)
      }
    } else {
      noPath++
    }
    const relErr = found ? Math.abs(len - r.optimal) / Math.max(1, r.optimal) : Infinity
    const ok = relErr <= 1e-4
    if (ok) matches++
    if (found) maxRelErr = Math.max(maxRelErr, relErr)
    if (opts.expanded) expanded.push(countClosed(grid))
    if (opts['per-row']) {
      perRow.push({
        row: i,
        bucket: r.bucket,
        ms: round(t2 - t0, 5),
        search_ms: round(t2 - t1, 5),
        length: len === null ? null : round(len, 6),
        optimal: r.optimal,
        match: ok,
        ...(opts.expanded ? { expanded: expanded[expanded.length - 1] } : {})
      })
    }
  }

  const out = {
    library: 'pathfinding',
    version: packageVersion('pathfinding'),
    finder: 'AStarFinder',
    settings: { diagonalMovement: 'OnlyWhenNoObstacles', heuristic: 'octile', weight: 1, clone_per_query: true },
    map: path.basename(mapFile),
    scen: path.basename(scenFile),
    width: map.width,
    height: map.height,
    rows: indices.length,
    rows_in_scen: scen.length,
    selection: rule,
    buckets: indices.length ? [scen[indices[0]].bucket, scen[indices[indices.length - 1]].bucket] : [],
    warmup: Math.min(warmup, indices.length),
    // Per query, grid clone + findPath (what a user of the library pays):
    ...timeStats(totalMs),
    // findPath alone, and the clone alone:
    ...timeStats(searchMs, 'search_'),
    ...timeStats(cloneMs, 'clone_'),
    matches,
    mismatches: indices.length - matches,
    no_path: noPath,
    max_rel_err: round(maxRelErr, 9),
    grid_build_ms: round(buildMs, 3),
    ...(opts.expanded
      ? { expanded_total: expanded.reduce((a, b) => a + b, 0), expanded_mean: round(expanded.reduce((a, b) => a + b, 0) / Math.max(1, expanded.length), 1) }
      : {}),
    env: environment(),
    ...(opts['per-row'] ? { per_row: perRow } : {})
  }
  emitJson(out, opts.json)
  process.stderr.write(`pathfinding ${out.map}: ${out.rows} rows, mean ${out.mean_ms} ms ` +
    `(search ${out.search_mean_ms} + clone ${out.clone_mean_ms}), p50 ${out.p50_ms}, p99 ${out.p99_ms}, ` +
    `matches ${matches}/${out.rows}\n`)
}

// Run when executed, not when imported (readMap, readScen, selectRows, pathLength are exported).
if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))) main()
