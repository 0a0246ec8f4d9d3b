#!/usr/bin/env node
// Far routes (issue 18, item 6): the public request round trip on region pairs 150 to 400 blocks
// apart, natively and in wasm in one run, beside an optimal reference search (A* alone without
// the distance window, budget 50M nodes: search_bench --unbounded). Writes the "far-routes"
// section of docs/benchmarks.md (kept by make_table.mjs) and prints it.
//
// usage: node bench/far_routes.mjs [--native build/release] [--wasm build/wasm] [--repeats 5]
//                                  [--pairs bench/peers/pairs/r.0.-1_1.16_far_seed3.json]
//                                  [--out docs/benchmarks.md] [--no-write]
// The wasm run is skipped (and said so) when build/wasm/bench/search_bench.js is missing.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { root, option, firstJson, median, fmt, generatedBy, writeSection } from './doc_section.mjs'

const args = process.argv.slice(2)
const opt = (name, dflt) => option(args, name, dflt)
const nativeDir = path.resolve(root, opt('native', 'build/release'))
const wasmDir = path.resolve(root, opt('wasm', 'build/wasm'))
const repeats = opt('repeats', '5')
const pairsFile = path.resolve(root, opt('pairs', 'bench/peers/pairs/r.0.-1_1.16_far_seed3.json'))
const out = path.resolve(root, opt('out', 'docs/benchmarks.md'))
const region = path.resolve(root, 'data/worlds/r.0.-1.mca')
const lo = 200
const hi = 600

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'voxnav-far-'))
const dump = path.join(tmp, 'region.dump')
const common = ['--maps', 'none', '--pairs', pairsFile, '--region-repeats', repeats,
  '--reach-calls', '1000', '--unbounded']

const regionRun = (text) => firstJson(text, (j) => j.bench === 'region')

const runs = []
const native = regionRun(execFileSync(path.join(nativeDir, 'bench/search_bench'),
  [...common, '--region', region, '--write-dump', dump], { encoding: 'utf8', maxBuffer: 1 << 28 }))
runs.push(['native', native])
const wasmJs = path.join(wasmDir, 'bench/search_bench.js')
let wasmNote = ''
if (fs.existsSync(wasmJs)) {
  runs.push(['wasm', regionRun(execFileSync('node', ['--no-experimental-fetch', wasmJs, ...common,
    '--region-dump', dump], { encoding: 'utf8', maxBuffer: 1 << 28 }))])
} else {
  wasmNote = `(no wasm build at ${path.relative(root, wasmJs)}: the wasm row was not run)`
}
fs.rmSync(tmp, { recursive: true, force: true })

const lines = []
const p = (s) => lines.push(s)
p('## Far routes (issue 18, item 6)')
p('')
p(generatedBy('node bench/far_routes.mjs'))
p(`Pairs: \`${path.relative(root, pairsFile)}\` (make_pairs.mjs, seed 3: 100 standable surface`)
p('pairs 150 to 400 blocks apart on the 1.16 region shipped in `data/worlds`). **Request** = the public')
p('round trip with the default walker (`World::request`, two `update`s, `path_cells`, `release`;')
p('budget 100,000 nodes): a goal `reachable()` proves reachable is searched without the 256-cell')
p('window. **Optimal** = A* alone without the window and with a 50M-node budget. Routes of 200 to')
p(`600 cells (the optimal path's cell count); median of ${repeats} runs per pair. ${wasmNote}`)
p('')
p('| build | reachable (yes / pairs) | requests ready | routes 200-600 cells | request median ms | request p90 ms | request max ms | optimal A* median ms | request cost / optimal (max) | native = wasm |')
p('|---|---|---|---|---|---|---|---|---|---|')
const fpNative = native.fingerprint
for (const [name, r] of runs) {
  const ps = r.pairs
  const yes = ps.filter((q) => q.reach === 'yes')
  const ready = ps.filter((q) => q.request === 'ready')
  const band = ready.filter((q) => q.outcome === 'found' && q.cells >= lo && q.cells <= hi)
  const ms = band.map((q) => q.ms)
  const sorted = [...ms].sort((a, b) => a - b)
  const p90 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))] : NaN
  const ratio = band.length ? Math.max(...band.map((q) => q.request_cost / q.cost)) : NaN
  p(`| ${name} | ${yes.length} / ${ps.length} | ${ready.length} | ${band.length} | ${fmt(median(ms))} | ${fmt(p90)} | ${fmt(sorted.at(-1))} | ${fmt(median(band.map((q) => q.search_ms)))} | ${fmt(ratio, 4)} | ${name === 'native' ? '-' : (r.fingerprint === fpNative ? 'yes' : 'NO')} |`)
}
p('')
p('Targets: median under 5 ms native and 8 ms wasm, cost within 3 % of the optimal search\'s.')
p('Before this change the same requests failed `NoPath` on 9 of the 95 reachable pairs (the window).')
if (args.includes('--no-write')) process.stdout.write(lines.join('\n') + '\n')
else process.stdout.write(writeSection(out, 'far-routes', lines.join('\n')))
