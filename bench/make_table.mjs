#!/usr/bin/env node
// Turns the JSON lines of one bench/run.sh run into docs/benchmarks.md.
//
// usage: node bench/make_table.mjs --native N.jsonl --wasm W.jsonl --peers P.jsonl --meta M.json
//                                  [--out docs/benchmarks.md]
//   N / W: lines of search_bench (native / wasm): bench = movingai | region | reachable
//   P:     lines of bench/peers (PathFinding.js per map, mineflayer-pathfinder on the region)
//   M:     run facts written by run.sh (date, commit, load average, settings, phase times)
import fs from 'node:fs'

const USAGE = 'usage: node bench/make_table.mjs --native N.jsonl --wasm W.jsonl --peers P.jsonl --meta M.json [--out FILE]'

// Targets of issue 2 ("How it will be checked", bench/).
const TARGET_MEXP = 10 // native A*: million node expansions per second
const TARGET_PF = 10 // voxnav wasm per query vs PathFinding.js per query
const TARGET_MF = 100 // voxnav wasm per query vs mineflayer-pathfinder per query
const TARGET_REACH_NS = 250 // "well under a microsecond": this doc reads it as <= 250 ns per call

function args () {
  const a = process.argv.slice(2)
  const o = {}
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '-h' || a[i] === '--help') { console.log(USAGE); process.exit(0) }
    if (!a[i].startsWith('--') || i + 1 >= a.length) { console.error(USAGE); process.exit(2) }
    o[a[i].slice(2)] = a[++i]
  }
  for (const k of ['native', 'wasm', 'peers', 'meta']) if (!o[k]) { console.error(USAGE); process.exit(2) }
  return o
}

function lines (file) {
  if (!fs.existsSync(file)) return []
  return fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim()).map(l => JSON.parse(l))
}

/** A time in ms with about three significant digits. */
function ms (v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-'
  const a = Math.abs(v)
  const d = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : a >= 0.01 ? 4 : 5
  return v.toFixed(d)
}
function num (v, d = 1) { return v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(d) }
function ratio (a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b <= 0) return NaN
  return a / b
}
function x (r) {
  if (!Number.isFinite(r)) return '-'
  return (r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)) + 'x'
}
function pct (v) { return Number.isFinite(v) ? (100 * v).toFixed(0) + ' %' : '-' }
function mark (ok) { return ok === null ? 'n/a' : ok ? '**PASS**' : '**FAIL**' }
function int (v) { return Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '-' }

function main () {
  const o = args()
  const native = lines(o.native)
  const wasm = lines(o.wasm)
  const peers = lines(o.peers)
  const meta = JSON.parse(fs.readFileSync(o.meta, 'utf8'))

  const byMap = (arr, bench) => new Map(arr.filter(l => l.bench === bench).map(l => [l.map, l]))
  const nMaps = byMap(native, 'movingai')
  const wMaps = byMap(wasm, 'movingai')
  const pfMaps = new Map(peers.filter(l => l.library === 'pathfinding').map(l => [l.map, l]))
  // mineflayer-pathfinder runs: its Movements options set to voxnav's walker (the peer of record),
  // and the same plus voxnav's diagonal rule (no corner cutting), which no option expresses.
  const mfRuns = peers.filter(l => l.library === 'mineflayer-pathfinder')
  const mf = mfRuns.find(l => !(l.rules ?? '').includes('no-corner-cutting')) ?? mfRuns[0]
  const mfSame = mfRuns.find(l => (l.rules ?? '').includes('no-corner-cutting'))
  const nRegion = native.find(l => l.bench === 'region')
  const wRegion = wasm.find(l => l.bench === 'region')
  const nReach = native.find(l => l.bench === 'reachable')
  const wReach = wasm.find(l => l.bench === 'reachable')

  const maps = [...new Set([...nMaps.keys(), ...wMaps.keys(), ...pfMaps.keys()])].sort()
  const out = []
  const p = s => out.push(s)

  // ---- targets, computed first so they can open the page ----
  let expTotal = 0
  let expMs = 0
  let minMexp = Infinity
  let minMexpMap = ''
  for (const m of maps) {
    const n = nMaps.get(m)
    if (!n) continue
    expTotal += n.expanded_total
    expMs += n.search_ms_total
    if (n.mexp_per_s < minMexp) { minMexp = n.mexp_per_s; minMexpMap = m }
  }
  const mexpAll = expMs > 0 ? expTotal / expMs / 1000 : NaN

  const pfRows = []
  for (const m of maps) {
    const w = wMaps.get(m)
    const pf = pfMaps.get(m)
    if (!w || !pf) continue
    pfRows.push({
      map: m,
      req: ratio(pf.mean_ms, w.mean_ms), // user-paid: clone + findPath vs request round trip
      search: ratio(pf.search_mean_ms, w.search_mean_ms) // findPath alone vs A* alone
    })
  }
  const minBy = (rows, k) => rows.reduce((a, r) => (a === null || r[k] < a[k] ? r : a), null)
  const pfMinReq = minBy(pfRows, 'req')
  const pfMinSearch = minBy(pfRows, 'search')
  const mfSpeed = mf && wRegion ? ratio(mf.mean_ms, wRegion.mean_ms) : NaN
  // Success is compared under the same movement rules when that run exists.
  const mfRef = mfSame ?? mf
  const mfSuccessOk = mfRef && wRegion ? wRegion.success_rate >= mfRef.success_rate : null
  const reachOk = nReach && wReach
    ? nReach.steady_ns <= TARGET_REACH_NS && wReach.steady_ns <= TARGET_REACH_NS
    : null

  p('# Benchmarks')
  p('')
  p('Generated by `bench/run.sh` (voxnav native and wasm, PathFinding.js and mineflayer-pathfinder in one')
  p('run, on one machine); do not edit by hand: rerun the script. The programs and rules are in')
  p('`bench/README.md`.')
  p('')
  p(`- Date: ${meta.date}; commit \`${meta.commit}\`${meta.dirty ? ' with uncommitted changes' : ''}`)
  p(`- Machine: ${meta.cpu} (${meta.cpus} cores), ${meta.os}; node ${meta.node}; ${meta.cxx}; ${meta.emcc}`)
  p(`- **Load average** (1/5/15 min): ${meta.load_start.join(' / ')} at the start, ${meta.load_end.join(' / ')} at the end` +
    ` (the machine is shared; above ${meta.cpus} every number here is slowed down and p99 is noisy)`)
  p(`- Wall time: ${meta.phases.map(ph => `${ph.name} ${ph.seconds} s`).join(', ')}`)
  p(`- Rows per map: ${meta.sample_rule}; voxnav repeats every row ${meta.repeats} times and keeps the median`)
  p('')

  p('## Targets (issue 2)')
  p('')
  p('| target | measured | result |')
  p('|---|---|---|')
  p(`| native A* >= ${TARGET_MEXP} M node expansions/s | ${num(mexpAll, 2)} M/s over all maps (lowest: ${num(minMexp, 2)} M/s on ${minMexpMap.replace(/\.map$/, '')}) | ${mark(Number.isFinite(mexpAll) ? mexpAll >= TARGET_MEXP && minMexp >= TARGET_MEXP : null)} |`)
  p(`| voxnav wasm >= ${TARGET_PF}x faster per query than PathFinding.js | request round trip vs clone + findPath: lowest ${x(pfMinReq?.req)} (${pfMinReq?.map.replace(/\.map$/, '') ?? '-'}); A* alone vs findPath alone: lowest ${x(pfMinSearch?.search)} (${pfMinSearch?.map.replace(/\.map$/, '') ?? '-'}) | ${mark(pfMinReq ? pfMinReq.req >= TARGET_PF : null)} (request), ${mark(pfMinSearch ? pfMinSearch.search >= TARGET_PF : null)} (A* alone) |`)
  const mfBoth = successSpeed(mf, wRegion)
  p(`| voxnav wasm >= ${TARGET_MF}x faster than mineflayer-pathfinder | on the ${mfBoth.pairs} pairs both find a path: ${x(mfBoth.speedup)} (mean ms); over all pairs: ${x(mfSpeed)} (a voxnav request that reachable() answers No costs microseconds) | ${mark(Number.isFinite(mfBoth.speedup) ? mfBoth.speedup >= TARGET_MF : null)} |`)
  const sameNote = mfSame && mf
    ? `voxnav ${wRegion ? pct(wRegion.success_rate) : '-'} vs mineflayer under the same movement rules ${pct(mfSame.success_rate)}; with only its options set to the walker's (it still cuts corners and climbs diagonally) ${pct(mf.success_rate)}`
    : `voxnav ${wRegion ? pct(wRegion.success_rate) : '-'} vs mineflayer ${mf ? pct(mf.success_rate) : '-'}`
  p(`| ... with at least its success rate | ${sameNote} | ${mark(mfSuccessOk)}${mfSame && mf && wRegion && wRegion.success_rate < mf.success_rate ? ' (same rules), **FAIL** (options only)' : ''} |`)
  p(`| reachable() well under 1 us (read: <= ${TARGET_REACH_NS} ns per call, steady state, random pairs) | native ${nReach ? num(nReach.steady_ns, 0) : '-'} ns, wasm ${wReach ? num(wReach.steady_ns, 0) : '-'} ns | ${mark(reachOk)} |`)
  p('')

  // ---- Moving AI ----
  p('## Moving AI maps: voxnav vs PathFinding.js')
  p('')
  p('Mean ms per query over the same rows (`floor(i*R/N)` of each `.scen`). voxnav **request** = the')
  p('public round trip (`World::request`, `update`, `status`, `path_cells`, `release`, synchronous:')
  p('A* + string pulling); voxnav **A\\*** = `NavWorld::search_now` alone (search + cell path).')
  p('PathFinding.js **clone+search** = `grid.clone()` + `findPath` (what its users pay: a grid is used up')
  p('by one search); **search** = `findPath` alone. Speedups are PathFinding.js / voxnav wasm.')
  p('')
  p('| map | size | rows | native request | native A* | wasm request | wasm A* | wasm/native (A*) | PF.js clone+search | PF.js search | speedup (request vs clone+search) | speedup (A* vs search) |')
  p('|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const m of maps) {
    const n = nMaps.get(m)
    const w = wMaps.get(m)
    const pf = pfMaps.get(m)
    const any = n || w || pf
    p(`| ${m.replace(/\.map$/, '')} | ${any.width}x${any.height} | ${any.rows} | ${ms(n?.mean_ms)} | ${ms(n?.search_mean_ms)} | ${ms(w?.mean_ms)} | ${ms(w?.search_mean_ms)} | ${x(ratio(w?.search_mean_ms, n?.search_mean_ms))} | ${ms(pf?.mean_ms)} | ${ms(pf?.search_mean_ms)} | ${x(ratio(pf?.mean_ms, w?.mean_ms))} | ${x(ratio(pf?.search_mean_ms, w?.search_mean_ms))} |`)
  }
  p('')
  p('### voxnav A* detail (native, and wasm)')
  p('')
  p('Expansions/s = nodes expanded / A* time over the map\'s rows. String pulling = `string_pull` of the')
  p('A* cell path alone (the rest of the request beyond A*). Lengths: rows whose 8-connected cell path')
  p('length equals the `.scen` optimum within 1e-4 (native / wasm / PathFinding.js).')
  p('')
  p('| map | mean expanded | native M exp/s | wasm M exp/s | native A* p50 | native A* p99 | wasm A* p99 | native string pulling | wasm string pulling | optimal lengths | native = wasm results |')
  p('|---|---|---|---|---|---|---|---|---|---|---|')
  for (const m of maps) {
    const n = nMaps.get(m)
    const w = wMaps.get(m)
    const pf = pfMaps.get(m)
    const rows = (n || w || pf).rows
    const same = n && w ? (n.fingerprint === w.fingerprint ? 'yes' : '**no**') : '-'
    p(`| ${m.replace(/\.map$/, '')} | ${int(n?.expanded_mean ?? w?.expanded_mean)} | ${num(n?.mexp_per_s, 2)} | ${num(w?.mexp_per_s, 2)} | ${ms(n?.search_p50_ms)} | ${ms(n?.search_p99_ms)} | ${ms(w?.search_p99_ms)} | ${ms(n?.pull_mean_ms)} | ${ms(w?.pull_mean_ms)} | ${n ? n.matches : '-'} / ${w ? w.matches : '-'} / ${pf ? pf.matches : '-'} of ${rows} | ${same} |`)
  }
  p('')

  // ---- region ----
  p('## Minecraft region: voxnav vs mineflayer-pathfinder')
  p('')
  if (nRegion || wRegion || mf) {
    const r = nRegion || wRegion
    p(`Region \`${r ? r.region : mf.region}\`, pairs \`${r ? r.pairs_file : mf.pairs_file}\` (${r ? r.rows : mf.rows} start/goal feet cells).`)
    if (r) {
      p(`For voxnav's walker ${r.both_standable} of ${r.rows} pairs have both cells standable (from ${r.from_standable}, to ${r.to_standable});` +
        ` reachable(): ${Object.entries(r.reachable).map(([k, v]) => `${k} ${v}`).join(', ')}.` +
        ` Default walker profile (budget ${int(r.profile.max_nodes)} nodes, ${r.profile.max_distance} cells).` +
        ` The region: ${int(r.chunks)} chunks, ${int(r.standable_cells)} standable cells, ${int(r.islands)} islands;` +
        ` navigation built in ${ms(nRegion?.nav_build_ms)} ms native, ${ms(wRegion?.nav_build_ms)} ms wasm.`)
    }
    p('voxnav per query = the request round trip (a reachability No fails the request at once, without a')
    p('search); A* = the search alone, run on every pair. mineflayer: per pair until success, noPath or')
    p(`its ${mf ? mf.settings.timeout_ms : '-'} ms timeout, never digging, placing or pillaring. Its Movements are set to voxnav's default`)
    p('walker where an option exists (**walker options**): no parkour, no sprinting, drops of at most 3 blocks')
    p('(`maxDropDown` 4: mineflayer counts the block it lands on), no unbounded drops into water, and water,')
    p('bubble columns, kelp, seagrass and waterlogged blocks avoided (`blocksToAvoid`, `exclusionAreasStep`). Its')
    p('diagonal step has no option: it needs only one free side (it cuts block corners) and may jump up or')
    p('drop a block diagonally, where voxnav (and Moving AI) takes a diagonal only on the level with both')
    p('cardinal cells walkable; the **same rules** run adds that rule (a 10-line `Movements` subclass,')
    p('`--no-corner-cutting`). A pair counts as a success only when the returned path reaches the goal.')
    p('')
    p('| | per query mean | p50 | p99 | A* alone mean | success | expansions/s |')
    p('|---|---|---|---|---|---|---|')
    if (nRegion) p(`| voxnav native | ${ms(nRegion.mean_ms)} | ${ms(nRegion.p50_ms)} | ${ms(nRegion.p99_ms)} | ${ms(nRegion.search_mean_ms)} | ${nRegion.success}/${nRegion.rows} (${pct(nRegion.success_rate)}) | ${num(nRegion.mexp_per_s, 2)} M |`)
    if (wRegion) p(`| voxnav wasm | ${ms(wRegion.mean_ms)} | ${ms(wRegion.p50_ms)} | ${ms(wRegion.p99_ms)} | ${ms(wRegion.search_mean_ms)} | ${wRegion.success}/${wRegion.rows} (${pct(wRegion.success_rate)}) | ${num(wRegion.mexp_per_s, 2)} M |`)
    for (const [label, run] of [['walker options', mf], ['same rules', mfSame]]) {
      if (run) p(`| mineflayer-pathfinder (${label}) | ${ms(run.mean_ms)} | ${ms(run.p50_ms)} | ${ms(run.p99_ms)} | - | ${run.success}/${run.rows} (${pct(run.success_rate)}; ${run.timeout} timeout, ${run.noPath} noPath) | ${num(run.visited_per_ms / 1000, 4)} M |`)
    }
    p('')
    // Where the libraries disagree, pair by pair, and what mineflayer's paths do that the walker cannot.
    const vr = wRegion || nRegion
    if (vr && vr.pairs && mf && mf.pairs) {
      const diff = []
      for (let i = 0; i < vr.pairs.length; i++) {
        const v = vr.pairs[i]
        const a = mf.pairs[i]
        const b = mfSame?.pairs?.[i]
        const vOk = v.request === 'ready'
        if (vOk === (a?.status === 'success') && (!b || vOk === (b.status === 'success'))) continue
        const why = a?.status === 'success' ? ` (its path: ${a.corner_cuts ?? 0} corner cuts, ${a.diagonal_climbs ?? 0} diagonal climbs, ${a.water_steps ?? 0} steps in water)` : ''
        diff.push(`- pair ${i} \`[${v.from}] -> [${v.to}]\`: voxnav ${vOk ? 'path' : `${v.request} (reachable() ${v.reach})`};` +
          ` mineflayer walker options ${a?.status ?? '-'}${why}${b ? `; same rules ${b.status}` : ''}`)
      }
      const sw = mf.paths_with
      if (sw) {
        p(`Over mineflayer's ${mf.success} paths with the walker options: ${sw.corner_cuts} cut a block corner (${mf.steps_not_walker.corner_cuts} steps),` +
          ` ${sw.diagonal_climbs} climb or drop diagonally (${mf.steps_not_walker.diagonal_climbs} steps), ${sw.water_steps} step into water` +
          ` (${mf.steps_not_walker.water_steps} steps).` + (mfSame?.paths_with ? ` With the same rules: ${mfSame.paths_with.corner_cuts}, ${mfSame.paths_with.diagonal_climbs} and ${mfSame.paths_with.water_steps}.` : ''))
        p('')
      }
      p(diff.length ? `Pairs where the results differ (${diff.length}):` : 'Every pair has the same outcome for voxnav and mineflayer.')
      for (const d of diff) p(d)
      p('')
    }
    p(`Speedup of voxnav wasm over mineflayer-pathfinder (walker options): **${x(mfSpeed)}** per query (mean);` +
      ` native: ${x(mf && nRegion ? ratio(mf.mean_ms, nRegion.mean_ms) : NaN)};` +
      ` on the ${mfBoth.pairs} pairs both find a path: ${x(mfBoth.speedup)} (wasm).` +
      ` native = wasm results: ${nRegion && wRegion ? (nRegion.fingerprint === wRegion.fingerprint ? 'yes' : '**no**') : '-'}.`)
    p('')
  } else {
    p('(no region results in this run)')
    p('')
  }

  // ---- reachable ----
  p('## reachable()')
  p('')
  if (nReach || wReach) {
    const r = nReach || wReach
    p(`\`${r.api}\` on ${int(r.pairs)} random pairs of standable cells of the region (${int(r.source_components)} different start`)
    p(`components; answers ${Object.entries(r.answers).map(([k, v]) => `${k} ${v}`).join(', ')}). First call: each pair once, right after the`)
    p('navigation build, timed one by one (clock overhead subtracted). Steady: the same pairs cycled')
    p(`${int(r.steady_calls)} times (median of 5 batches); 16 pairs: the first 16 pairs cycled.`)
    p('')
    p('| | first call mean | first call p50 | first call p99 | first call max | steady (all pairs) | steady (16 pairs) |')
    p('|---|---|---|---|---|---|---|')
    for (const [name, q] of [['native', nReach], ['wasm', wReach]]) {
      if (!q) continue
      p(`| ${name} | ${int(q.first_call_mean_ns)} ns | ${int(q.first_call_p50_ns)} ns | ${int(q.first_call_p99_ns)} ns | ${int(q.first_call_max_ns)} ns | ${num(q.steady_ns, 0)} ns | ${num(q.steady_16_pairs_ns, 0)} ns |`)
    }
    p('')
  } else {
    p('(no reachable() results in this run)')
    p('')
  }

  // ---- observations computed from this run ----
  p('## Where voxnav\'s time goes (this run)')
  p('')
  const share = rows => {
    let pull = 0
    let req = 0
    for (const r of rows) { pull += r.pull_ms_total ?? 0; req += r.ms_total ?? 0 }
    return req > 0 ? pull / req : NaN
  }
  const nList = maps.map(m => nMaps.get(m)).filter(Boolean)
  const wList = maps.map(m => wMaps.get(m)).filter(Boolean)
  p(`- String pulling (\`string_pull\` of the A* path) is ${pct(share(nList))} of voxnav's native request time summed over` +
    ` the maps, ${pct(share(wList))} in wasm; A* alone is ${pct(nList.reduce((a, r) => a + r.search_ms_total, 0) / Math.max(1e-9, nList.reduce((a, r) => a + r.ms_total, 0)))} (native).`)
  const wn = maps.map(m => ratio(wMaps.get(m)?.search_mean_ms, nMaps.get(m)?.search_mean_ms)).filter(Number.isFinite)
  if (wn.length) p(`- wasm A* / native A* time: ${x(Math.min(...wn))} .. ${x(Math.max(...wn))} over the maps.`)
  const disagree = [...nList, ...wList].reduce((a, r) => a + (r.request_disagree || 0) + (r.nondeterministic || 0), 0)
  p(`- Requests whose result differs from A* alone, or repeats that expanded a different node count: ${disagree}.`)
  if (nRegion) {
    p(`- Region: reachable() answers ${Object.entries(nRegion.reachable).map(([k, v]) => `${k} ${v}`).join(', ')} on the ${nRegion.rows} pairs` +
      ` (mineflayer-pathfinder finds a path on ${mf ? mf.success : '-'} with the walker options${mfSame ? `, ${mfSame.success} under the same rules` : ''}); ${int(nRegion.islands)} islands for ${int(nRegion.standable_cells)} standable cells.`)
  }
  if (nReach) {
    p(`- reachable(): ${int(nReach.source_components)} different start components among the random pairs; steady` +
      ` ${num(nReach.steady_ns, 0)} ns per call over all pairs against ${num(nReach.steady_16_pairs_ns, 0)} ns over 16 pairs (native).`)
  }
  p('')

  // ---- how ----
  p('## How this was run')
  p('')
  p('```')
  p(meta.command.trim())
  p('```')
  p('')
  p(`- voxnav: \`bench/search_bench.cpp\`, one source built natively (${meta.native_build}, release) and with`)
  p(`  Emscripten (${meta.wasm_build}, -O3, \`-sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1\`) and run under`)
  p('  `node --no-experimental-fetch`. The wasm build reads the region from a raw chunk dump the native')
  p('  run writes (no zlib in wasm); the fingerprints above check both builds return the same results.')
  p('- PathFinding.js: `bench/peers/pathfinding_movingai.mjs` (A*, octile, no corner cutting) on the same rows.')
  p('- mineflayer-pathfinder: `bench/peers/mineflayer_region.mjs --walker-rules` (and `--walker-rules --no-corner-cutting`) on the same pairs file.')
  p('- Raw results: `' + meta.results_dir + '/{voxnav-native,voxnav-wasm,peers}.jsonl`.')
  p('')
  // Keep the sections other programs maintain in the same page: the shipped sizes
  // (bench/sizes.mjs --write), the editable-world tables (bench/edit_run.sh), the before/after
  // comparison (bench/ab_run.sh) and the load runs (bench/crowd_bench).
  const target = o.out || 'docs/benchmarks.md'
  const prev = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : ''
  for (const name of ['edits', 'abcompare', 'load', 'sizes', 'far-routes', 'pairs-compare']) {
    const kept = new RegExp(`<!-- ${name}:begin -->[\\s\\S]*?<!-- ${name}:end -->\\n?`).exec(prev)
    if (kept) out.push(kept[0])
  }
  fs.writeFileSync(target, out.join('\n'))
}

/** Mean-time speedup over the pairs that both voxnav and mineflayer solved. */
function successSpeed (mf, vr) {
  if (!mf || !vr || !mf.pairs || !vr.pairs) return { pairs: 0, speedup: NaN }
  let a = 0
  let b = 0
  let n = 0
  for (let i = 0; i < Math.min(mf.pairs.length, vr.pairs.length); i++) {
    if (mf.pairs[i].status === 'success' && vr.pairs[i].request === 'ready') {
      a += mf.pairs[i].ms
      b += vr.pairs[i].ms
      n++
    }
  }
  return { pairs: n, speedup: b > 0 ? a / b : NaN }
}

main()
