#!/usr/bin/env node
// mineflayer-pathfinder's A* on a real Minecraft region, without a bot or a server: the peer side
// of voxnav's voxel search benchmark. See bench/README.md.
import fs from 'node:fs'
import path from 'node:path'
import {
  require, packageVersion, parseArgs, die, intOpt, numOpt, timeStats, round, emitJson, environment
} from './common.mjs'
import { loadRegion } from './region.mjs'

const USAGE = `usage: node mineflayer_region.mjs REGION_FILE VERSION PAIRS.json [--json out.json]
        [--timeout-ms 5000] [--tick-timeout-ms 40] [--search-radius -1] [--parkour]
        [--walker-rules] [--no-corner-cutting] [--warmup 5] [--no-pairs]
  REGION_FILE     an Anvil region r.X.Z.mca (read from a private copy, never written)
  VERSION         a minecraft-data version, e.g. 1.16.4 (for regions/1.16) or 1.18.2
  PAIRS.json      {"pairs": [{"from": [x,y,z], "to": [x,y,z]}, ...]}, cells = feet blocks
  --timeout-ms    per-pair search budget (AStar 'timeout'; default 5000)
  --tick-timeout-ms  AStar 'tickTimeout': compute() returns 'partial' after this long and is called
                  again at once, as the pathfinder plugin does tick after tick (default 40, its default)
  --search-radius AStar 'searchRadius' (default -1: unbounded, the plugin's default)
  --parkour       allow parkour (gap) jumps; off by default (a plain walker)
  --walker-rules  set the Movements options to voxnav's default walker (bench/README.md): no sprinting,
                  drops of at most 3 blocks (maxDropDown 4: mineflayer counts the block landed on),
                  no infinite drops into water, and water, bubble columns, kelp, seagrass and
                  waterlogged blocks avoided (voxnav's walker never stands in water)
  --no-corner-cutting  also voxnav's diagonal rule, which no option expresses (a small Movements
                  subclass): a diagonal step only on the level and only when both cardinal
                  neighbours are walkable (mineflayer's own diagonal needs one free side, and may
                  jump up or drop one block)
  --warmup N      untimed searches on the first N pairs (1 s budget each) before timing (default 5)
  --no-pairs      leave the per-pair results out of the JSON (summary only)
  --json FILE     write the JSON line to FILE instead of stdout`

const { Vec3 } = require('vec3')
const AStar = require('mineflayer-pathfinder/lib/astar')
const Movements = require('mineflayer-pathfinder/lib/movements')
const Move = require('mineflayer-pathfinder/lib/move')
const { GoalBlock } = require('mineflayer-pathfinder/lib/goals')

/**
 * The part of a mineflayer bot that Movements and AStar read when nothing is dug, placed or
 * attacked: registry, blockAt (mineflayer's is bot.world.getBlock on a prismarine-world, the same
 * call), game.minY (drop landing search), entity/entities (entity avoidance: none here) and an
 * empty inventory (no scaffolding blocks).
 */
function stubBot (region, version) {
  const sync = region.world.sync
  return {
    version,
    registry: region.registry,
    world: sync,
    blockAt: (pos, _extraInfos) => sync.getBlock(pos),
    game: { minY: region.minY, height: region.maxY - region.minY + 1 },
    entity: { position: new Vec3(0, 0, 0), effects: {}, onGround: true, height: 1.8 },
    entities: {},
    inventory: { items: () => [] },
    pathfinder: { bestHarvestTool: () => null }
  }
}

/** Blocks that are water for voxnav's walker (its feet would be in water): avoided with --walker-rules. */
const WATER_BLOCKS = ['water', 'bubble_column', 'kelp', 'kelp_plant', 'seagrass', 'tall_seagrass']

/**
 * voxnav's diagonal rule (--no-corner-cutting): a diagonal step stays on the level (no diagonal
 * jump up or drop) and both cardinal cells beside it are walkable (feet and head free, ground
 * below). mineflayer's own getMoveDiagonal needs only the cheaper side free.
 */
class NoCornerCuttingMovements extends Movements {
  getMoveDiagonal (node, dir, neighbors) {
    if (this.getBlock(node, dir.x, 0, dir.z).physical) return // would be a diagonal jump up
    if (!this.getBlock(node, dir.x, -1, dir.z).physical) return // would be a diagonal drop
    for (const side of [{ x: dir.x, z: 0 }, { x: 0, z: dir.z }]) {
      if (!this.getBlock(node, side.x, 0, side.z).safe || !this.getBlock(node, side.x, 1, side.z).safe ||
          !this.getBlock(node, side.x, -1, side.z).physical) return
    }
    super.getMoveDiagonal(node, dir, neighbors)
  }
}

export function makeMovements (bot, { parkour, walkerRules, noCornerCutting }) {
  const m = noCornerCutting ? new NoCornerCuttingMovements(bot) : new Movements(bot)
  m.canDig = false // never break blocks
  m.scafoldingBlocks = [] // never place blocks (the property is spelled so in the library)
  m.allow1by1towers = false // never pillar up
  m.allowParkour = !!parkour // gap jumps: off for a plain walker
  if (walkerRules) {
    m.allowSprinting = false
    // getLandingBlock accepts a landing block (the block stood on) at most maxDropDown below the
    // feet, so the feet drop at most maxDropDown - 1 blocks: 4 = voxnav's max drop of 3.
    m.maxDropDown = 4
    m.infiniteLiquidDropdownDistance = false
    for (const name of WATER_BLOCKS) {
      const b = bot.registry.blocksByName[name]
      if (b) m.blocksToAvoid.add(b.id)
    }
    // Waterlogged blocks (slabs, stairs, fences ... with water in them): an exclusion weight of 100
    // makes the step impossible, as voxnav's walker cannot stand in them.
    m.exclusionAreasStep.push(block => (block.getProperties && block.getProperties().waterlogged === true) ? 100 : 0)
  }
  // Otherwise left at the library defaults: allowSprinting true (only lengthens parkour jumps),
  // maxDropDown 4 (3-block drops), infiniteLiquidDropdownDistance true, liquidCost 1.
  // Always: canOpenDoors false, allowEntityDetection true (no entities exist here), allowFreeMotion false.
  return m
}

/** Whether the block at (x, y, z) is water for voxnav's walker (for the per-path counts). */
function isWater (bot, x, y, z) {
  const b = bot.blockAt(new Vec3(x, y, z))
  if (!b) return false
  return WATER_BLOCKS.includes(b.name) || (b.getProperties && b.getProperties().waterlogged === true)
}

/**
 * Counts the steps of a path that voxnav's walker would not take: feet in water, diagonal steps
 * that rise or fall, and level diagonal steps past a side cell that is not walkable (corner cuts).
 */
function stepCounts (bot, movements, from, path) {
  const counts = { water_steps: 0, diagonal_climbs: 0, corner_cuts: 0 }
  let prev = { x: from[0], y: from[1], z: from[2] }
  for (const n of path) {
    if (isWater(bot, n.x, n.y, n.z)) counts.water_steps++
    const dx = n.x - prev.x
    const dz = n.z - prev.z
    if (dx && dz) {
      if (n.y !== prev.y) {
        counts.diagonal_climbs++
      } else {
        const base = new Vec3(prev.x, prev.y, prev.z)
        for (const side of [{ x: dx, z: 0 }, { x: 0, z: dz }]) {
          if (!movements.getBlock(base, side.x, 0, side.z).safe || !movements.getBlock(base, side.x, 1, side.z).safe ||
              !movements.getBlock(base, side.x, -1, side.z).physical) {
            counts.corner_cuts++
            break
          }
        }
      }
    }
    prev = n
  }
  return counts
}

function stepLength (a, b) {
  return Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z)
}

/** One search; loops over compute() slices like the plugin's tick loop. */
function search (movements, from, to, timeoutMs, tickTimeoutMs, searchRadius) {
  const t0 = performance.now()
  // The plugin starts from the bot's floored feet position with remainingBlocks = the number of
  // scaffolding items in the inventory (0 here).
  const start = new Move(from[0], from[1], from[2], 0, 0)
  const goal = new GoalBlock(to[0], to[1], to[2])
  const astar = new AStar(start, movements, goal, timeoutMs, tickTimeoutMs, searchRadius)
  let result = astar.compute()
  let slices = 1
  while (result.status === 'partial') {
    result = astar.compute()
    slices++
  }
  const ms = performance.now() - t0
  return { result, ms, slices }
}

async function main () {
  const { positional, opts } = parseArgs(process.argv.slice(2), {
    flags: ['parkour', 'no-pairs', 'walker-rules', 'no-corner-cutting'], usage: USAGE
  })
  if (positional.length !== 3) die(USAGE)
  const [regionFile, version, pairsFile] = positional
  const timeoutMs = numOpt(opts, 'timeout-ms', 5000)
  const tickTimeoutMs = numOpt(opts, 'tick-timeout-ms', 40)
  const searchRadius = numOpt(opts, 'search-radius', -1)
  const warmup = intOpt(opts, 'warmup', 5)
  const parkour = !!opts.parkour
  const walkerRules = !!opts['walker-rules']
  const noCornerCutting = !!opts['no-corner-cutting']
  const rules = (walkerRules ? 'walker' : 'library') + (noCornerCutting ? '+no-corner-cutting' : '')

  const pairsDoc = JSON.parse(fs.readFileSync(pairsFile, 'utf8'))
  const pairs = pairsDoc.pairs
  if (!Array.isArray(pairs) || pairs.length === 0) die(`${pairsFile}: no "pairs"`)
  for (const [i, p] of pairs.entries()) {
    for (const k of ['from', 'to']) {
      if (!Array.isArray(p[k]) || p[k].length !== 3 || !p[k].every(Number.isInteger)) die(`${pairsFile}: pair ${i} has a bad "${k}"`)
    }
  }

  if (pairsDoc.region && path.basename(pairsDoc.region) !== path.basename(regionFile)) {
    process.stderr.write(`warning: ${pairsFile} was made for ${pairsDoc.region}, running on ${regionFile}\n`)
  }
  const region = await loadRegion(regionFile, version)
  if (region.columns.length === 0) die(`${regionFile}: no chunks loaded`)
  const bot = stubBot(region, version)
  const movements = makeMovements(bot, { parkour, walkerRules, noCornerCutting })

  for (let k = 0; k < Math.min(warmup, pairs.length); k++) {
    search(movements, pairs[k].from, pairs[k].to, Math.min(timeoutMs, 1000), tickTimeoutMs, searchRadius)
  }

  const results = []
  const counts = { success: 0, noPath: 0, timeout: 0, partial: 0 }
  const stepTotals = { water_steps: 0, diagonal_climbs: 0, corner_cuts: 0 }
  const pathsWith = { water_steps: 0, diagonal_climbs: 0, corner_cuts: 0 }
  const ms = []
  const msSuccess = []
  for (const [i, p] of pairs.entries()) {
    const { result, ms: t, slices } = search(movements, p.from, p.to, timeoutMs, tickTimeoutMs, searchRadius)
    counts[result.status] = (counts[result.status] ?? 0) + 1
    ms.push(t)
    if (result.status === 'success') msSuccess.push(t)
    let length = 0
    let prev = { x: p.from[0], y: p.from[1], z: p.from[2] }
    for (const n of result.path) { length += stepLength(prev, n); prev = n }
    const last = result.path[result.path.length - 1]
    if (result.status === 'success' && result.path.length > 0 &&
        (last.x !== p.to[0] || last.y !== p.to[1] || last.z !== p.to[2])) {
      throw new Error(`pair ${i}: 'success' path does not end at the goal`)
    }
    const steps = result.status === 'success' ? stepCounts(bot, movements, p.from, result.path) : null
    if (steps) {
      for (const k of Object.keys(stepTotals)) {
        stepTotals[k] += steps[k]
        if (steps[k] > 0) pathsWith[k]++
      }
    }
    results.push({
      i,
      status: result.status,
      ...(steps ?? {}),
      nodes: result.path.length, // path nodes after the start
      cost: round(result.cost, 4), // mineflayer cost units (1 per block walked, sqrt2 diagonal, +1 jump ...)
      length: round(length, 4), // sum of 3D step lengths along the returned path (to the best node when not success)
      visited: result.visitedNodes,
      generated: result.generatedNodes,
      ms: round(t, 3),
      slices,
      end_h: result.status === 'success' ? 0 : round(new GoalBlock(...p.to).heuristic(last ?? { x: p.from[0], y: p.from[1], z: p.from[2] }), 3)
    })
  }

  const visited = results.reduce((a, r) => a + r.visited, 0)
  const out = {
    library: 'mineflayer-pathfinder',
    version: packageVersion('mineflayer-pathfinder'),
    search: 'lib/astar AStar + GoalBlock, no bot',
    region: path.basename(path.dirname(regionFile)) + '/' + path.basename(regionFile),
    mc_version: version,
    minecraft_data: packageVersion('minecraft-data'),
    chunks: region.columns.length,
    region_load_ms: round(region.loadMs, 1),
    pairs_file: path.basename(pairsFile),
    rules,
    settings: {
      rules,
      canDig: movements.canDig,
      scafoldingBlocks: movements.scafoldingBlocks.length,
      allow1by1towers: movements.allow1by1towers,
      allowParkour: movements.allowParkour,
      allowSprinting: movements.allowSprinting,
      canOpenDoors: movements.canOpenDoors,
      maxDropDown: movements.maxDropDown,
      infiniteLiquidDropdownDistance: movements.infiniteLiquidDropdownDistance,
      avoided: walkerRules ? [...WATER_BLOCKS, 'waterlogged'] : [],
      noCornerCutting,
      allowEntityDetection: movements.allowEntityDetection,
      timeout_ms: timeoutMs,
      tick_timeout_ms: tickTimeoutMs,
      search_radius: searchRadius,
      warmup: Math.min(warmup, pairs.length)
    },
    rows: pairs.length,
    ...counts,
    success_rate: round(counts.success / pairs.length, 4),
    // Over the successful paths: steps voxnav's walker would not take, and paths with any.
    steps_not_walker: stepTotals,
    paths_with: pathsWith,
    ...timeStats(ms),
    ...timeStats(msSuccess, 'success_'),
    visited_total: visited,
    visited_per_ms: round(visited / Math.max(1e-9, ms.reduce((a, b) => a + b, 0)), 1),
    env: environment(),
    ...(opts['no-pairs'] ? {} : { pairs: results })
  }
  emitJson(out, opts.json)
  process.stderr.write(`mineflayer-pathfinder (${rules}) ${out.region}: ${pairs.length} pairs, success ${counts.success}, ` +
    `noPath ${counts.noPath}, timeout ${counts.timeout}; mean ${out.mean_ms} ms, p50 ${out.p50_ms}, p99 ${out.p99_ms}\n`)
}

main().catch(e => { process.stderr.write(`${e.stack || e}\n`); process.exit(1) })
