// Small helpers shared by the peer benchmark scripts (no dependencies).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'

export const require = createRequire(import.meta.url)

/** Version string of an installed package, read from its package.json. */
export function packageVersion (name) {
  const dir = path.dirname(require.resolve(`${name}/package.json`))
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version
}

/**
 * Parse `argv` into positionals and `--flag value` / `--flag` options.
 * `flags` lists the options that take no value.
 */
export function parseArgs (argv, { flags = [], usage = '' } = {}) {
  const positional = []
  const opts = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '-h' || a === '--help') {
      process.stdout.write(usage + '\n')
      process.exit(0)
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=')
      const key = eq > 0 ? a.slice(2, eq) : a.slice(2)
      if (flags.includes(key)) {
        opts[key] = true
      } else if (eq > 0) {
        opts[key] = a.slice(eq + 1)
      } else {
        if (i + 1 >= argv.length) die(`option --${key} needs a value\n${usage}`)
        opts[key] = argv[++i]
      }
    } else {
      positional.push(a)
    }
  }
  return { positional, opts }
}

export function die (msg) {
  process.stderr.write(msg.endsWith('\n') ? msg : msg + '\n')
  process.exit(2)
}

export function intOpt (opts, key, dflt) {
  if (opts[key] === undefined) return dflt
  const v = Number(opts[key])
  if (!Number.isInteger(v) || v < 0) die(`--${key} must be a non-negative integer, got '${opts[key]}'`)
  return v
}

export function numOpt (opts, key, dflt) {
  if (opts[key] === undefined) return dflt
  const v = Number(opts[key])
  if (!Number.isFinite(v)) die(`--${key} must be a number, got '${opts[key]}'`)
  return v
}

/** Nearest-rank percentile (p in 0..100) of an array of numbers. */
export function percentile (values, p) {
  if (values.length === 0) return null
  const s = Float64Array.from(values).sort()
  const rank = Math.ceil((p / 100) * s.length)
  return s[Math.min(s.length - 1, Math.max(0, rank - 1))]
}

export function mean (values) {
  if (values.length === 0) return null
  let t = 0
  for (const v of values) t += v
  return t / values.length
}

export function sum (values) {
  let t = 0
  for (const v of values) t += v
  return t
}

/** Round to `d` decimals (for compact JSON); null stays null. */
export function round (v, d = 4) {
  if (v === null || v === undefined || !Number.isFinite(v)) return v ?? null
  const f = 10 ** d
  return Math.round(v * f) / f
}

/** Summary statistics of per-query times in ms. */
export function timeStats (ms, prefix = '') {
  return {
    [`${prefix}ms_total`]: round(sum(ms), 3),
    [`${prefix}mean_ms`]: round(mean(ms)),
    [`${prefix}p50_ms`]: round(percentile(ms, 50)),
    [`${prefix}p99_ms`]: round(percentile(ms, 99)),
    [`${prefix}max_ms`]: round(ms.length ? Math.max(...ms) : null)
  }
}

/** Write one JSON line to `file` (overwrite) or to stdout. */
export function emitJson (obj, file) {
  const line = JSON.stringify(obj) + '\n'
  if (file) fs.writeFileSync(file, line)
  else process.stdout.write(line)
}

/** mulberry32: small deterministic PRNG returning floats in [0, 1). */
export function mulberry32 (seed) {
  let a = seed >>> 0
  return function () {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function environment () {
  // loadavg: the machine's 1/5/15-minute load when the run ended (timings are noisy when it is
  // above the core count)
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: os.cpus().length,
    loadavg: os.loadavg().map(v => round(v, 2))
  }
}
