#!/usr/bin/env node
// voxnav against mineflayer-pathfinder with its default moves (parkour, sprinting, its one-free-side
// diagonals; never digging or pillaring) on seeded near (16-48 blocks) and far (100-250 blocks)
// pairs of the 1.16 region shipped in data/worlds (issue 18). voxnav: the public request round
// trip of the default walker, then every Ready route walked to arrival by one of voxnav's own
// agents (search_bench --walk). Writes the "pairs-compare" section of docs/benchmarks.md (kept by
// make_table.mjs) and prints it.
//
// usage: node bench/pairs_compare.mjs [--native build/release] [--timeout-ms 5000] [--no-write]
//        (the mineflayer side needs `npm ci` in bench/peers)
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { root, option, firstJson, mean, median, fmt, generatedBy, writeSection } from './doc_section.mjs'

const args = process.argv.slice(2)
const opt = (name, dflt) => option(args, name, dflt)
const nativeDir = path.resolve(root, opt('native', 'build/release'))
const timeoutMs = opt('timeout-ms', '5000')
const out = path.resolve(root, 'docs/benchmarks.md')
const region = path.join(root, 'data/worlds/r.0.-1.mca')
const sets = [
  { name: 'near', file: 'bench/peers/pairs/r.0.-1_1.16_near_seed11.json', walkTicks: 2400 },
  { name: 'far', file: 'bench/peers/pairs/r.0.-1_1.16_far_seed12.json', walkTicks: 6000 }
]

const pct = (a, b) => `${a}/${b} (${b ? Math.round(100 * a / b) : 0} %)`

const rows = []
for (const set of sets) {
  const pairs = path.join(root, set.file)
  const t0 = Date.now()
  const v = firstJson(execFileSync(path.join(nativeDir, 'bench/search_bench'),
    ['--maps', 'none', '--pairs', pairs, '--region', region, '--region-repeats', '3', '--reach-calls', '1000',
      '--walk', String(set.walkTicks)], { encoding: 'utf8', maxBuffer: 1 << 28 }), (j) => j.bench === 'region')
  const vs = (Date.now() - t0) / 1000
  const t1 = Date.now()
  const m = firstJson(execFileSync('node', [path.join(root, 'bench/peers/mineflayer_region.mjs'), region, '1.16.4', pairs,
    '--parkour', '--timeout-ms', timeoutMs], { encoding: 'utf8', maxBuffer: 1 << 28 }), () => true)
  const ms = (Date.now() - t1) / 1000
  const n = v.pairs.length
  const ready = v.pairs.filter((p) => p.request === 'ready')
  const arrived = ready.filter((p) => p.walk === 'arrived')
  const both = v.pairs.map((p, i) => [p, m.pairs[i]]).filter(([p, q]) => p.request === 'ready' && q.status === 'success')
  rows.push({
    set: set.name, file: set.file, n, yes: v.reachable.yes ?? 0, ready: ready.length, arrived: arrived.length,
    walks: v.walks, mSuccess: m.success, mTimeout: m.timeout, mNoPath: m.noPath,
    vMean: mean(v.pairs.map((p) => p.ms)), mMean: m.mean_ms,
    vBoth: mean(both.map(([p]) => p.ms)), mBoth: mean(both.map(([, q]) => q.ms)), both: both.length,
    vWalk: median(arrived.map((p) => p.walk_s)), vs, ms
  })
}

const lines = []
const p = (s) => lines.push(s)
p('## Near and far pairs: voxnav vs mineflayer-pathfinder with its default moves (issue 18)')
p('')
p(generatedBy('node bench/pairs_compare.mjs') + ' On the')
p('1.16 region of `data/worlds`, pairs made by `bench/peers/make_pairs.mjs` (near: seed 11, 16 to 48')
p('blocks; far: seed 12, 100 to 250 blocks; 300 each). voxnav: the default walker\'s request round')
p('trip (budget 100,000 nodes; a proven goal is searched without the distance window), mean of 3')
p('runs, then every Ready route **walked by a voxnav agent** (ticks of 0.05 s, one agent at a time;')
p('`search_bench --walk`). mineflayer-pathfinder: its default moves (`--parkour`: gap jumps,')
p(`sprinting, diagonals with one free side; never digging or pillaring), ${timeoutMs} ms per pair,`)
p('a success only when the path reaches the goal. Its success can include moves voxnav\'s walker')
p('does not make, and a pair neither reaches is not counted against either.')
p('')
p('| pairs | reachable() yes | voxnav Ready | walked to arrival | mineflayer success | voxnav mean ms | mineflayer mean ms | pairs both route | ratio on those (mineflayer / voxnav) | voxnav walk median s |')
p('|---|---|---|---|---|---|---|---|---|---|')
for (const r of rows) {
  p(`| ${r.set} (${r.n}) | ${r.yes} | ${pct(r.ready, r.n)} | ${pct(r.arrived, r.ready)} | ${pct(r.mSuccess, r.n)} (${r.mTimeout} timeouts, ${r.mNoPath} noPath) | ${fmt(r.vMean, 4)} | ${fmt(r.mMean, 1)} | ${r.both} | ${fmt(r.mBoth / r.vBoth, 0)}x | ${fmt(r.vWalk, 1)} |`)
}
p('')
p(`Wall time: ${rows.map((r) => `${r.set}: voxnav ${r.vs.toFixed(0)} s (with the walks), mineflayer ${r.ms.toFixed(0)} s`).join('; ')}.`)
if (args.includes('--no-write')) process.stdout.write(lines.join('\n') + '\n')
else process.stdout.write(writeSection(out, 'pairs-compare', lines.join('\n')))
