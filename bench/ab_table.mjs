// Prints the before/after table of bench/ab_run.sh: node bench/ab_table.mjs OUT_DIR ROUNDS.
// Per map the median over the rounds of A* expansions per second (search_bench's mexp_per_s), all
// maps together (total expansions over total A* time), and edit_bench's per-edit median and p99
// (layers + islands, and with the agents' corridor checks). Exits 1 when the two sides disagree on
// a map's fingerprint or expansions, or on the edits' island work (the same edits were made).
import fs from 'node:fs'
import path from 'node:path'

const [dir, roundsArg] = process.argv.slice(2)
const rounds = Number(roundsArg || 5)
const median = v => { const s = [...v].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2 }
const fmt = (x, d = 2) => x.toFixed(d)
const search = { a: {}, b: {} }, overall = { a: [], b: [] }, edit = { a: {}, b: {} }
let bad = 0
const fps = {}
for (let r = 1; r <= rounds; ++r) {
  for (const side of ['a', 'b']) {
    const lines = fs.readFileSync(path.join(dir, `search_${side}_${r}.jsonl`), 'utf8').trim().split('\n').map(l => JSON.parse(l))
    let exp = 0, ms = 0
    for (const j of lines.filter(j => j.bench === 'movingai')) {
      (search[side][j.map] ??= []).push(j.mexp_per_s)
      exp += j.expanded_total; ms += j.expanded_total / (j.mexp_per_s * 1000)
      const key = `${j.map} ${j.fingerprint} ${j.expanded_total}`
      fps[j.map] ??= key
      if (fps[j.map] !== key) { console.error(`mismatch: ${fps[j.map]} vs ${key} (${side}, round ${r})`); bad = 1 }
    }
    overall[side].push(exp / ms / 1000)
    const txt = fs.readFileSync(path.join(dir, `edit_${side}_${r}.txt`), 'utf8')
    const isl = txt.match(/^islands: .*$/m)[0]
    fps.edit ??= isl
    if (fps.edit !== isl) { console.error(`edit mismatch: ${fps.edit} vs ${isl} (${side}, round ${r})`); bad = 1 }
    const m = txt.match(/summary: (.*)/)
    for (const kv of m[1].trim().split(/\s+/)) { const [k, v] = kv.split('='); (edit[side][k] ??= []).push(Number(v)) }
  }
}
console.log(`| measure (median of ${rounds} interleaved rounds) | before (A) | after (B) | after / before |`)
console.log('|---|---:|---:|---:|')
const row = (name, a, b, d = 2) => console.log(`| ${name} | ${fmt(a, d)} | ${fmt(b, d)} | ${fmt(b / a, 3)} |`)
for (const map of Object.keys(search.a)) row(`A* M expansions/s, ${map} (${fps[map].split(' ')[2]} expanded, fingerprint ${fps[map].split(' ')[1]})`, median(search.a[map]), median(search.b[map]))
row('A* M expansions/s, all maps', median(overall.a), median(overall.b))
for (const [k, label] of [['layers_p50_us', 'per-edit layers + islands, median (us)'], ['layers_p99_us', 'per-edit layers + islands, p99 (us)'], ['total_p50_us', 'per-edit total with agents, median (us)'], ['total_p99_us', 'per-edit total with agents, p99 (us)']])
  row(label, median(edit.a[k]), median(edit.b[k]), 1)
process.exit(bad)
