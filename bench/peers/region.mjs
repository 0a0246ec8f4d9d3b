// Loads one Anvil region file into a prismarine-world, and finds standable surface cells.
// Shared by make_pairs.mjs and mineflayer_region.mjs.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { require } from './common.mjs'

const { Vec3 } = require('vec3')

/** Region coordinates from a file name `r.X.Z.mca`. */
export function regionCoords (file) {
  const m = /^r\.(-?\d+)\.(-?\d+)\.mca$/.exec(path.basename(file))
  if (!m) throw new Error(`${file}: not a region file name (r.X.Z.mca)`)
  return { rx: Number(m[1]), rz: Number(m[2]) }
}

/**
 * Load every chunk of a region into a prismarine-world (no storage provider, so nothing is
 * ever saved). prismarine-provider-anvil opens region files read/write (and as root would even
 * write to a read-only file), so it reads a private copy in a temporary folder, never the file
 * itself.
 */
export async function loadRegion (file, version) {
  const { rx, rz } = regionCoords(file)
  const registry = require('prismarine-registry')(version)
  const Anvil = require('prismarine-provider-anvil').Anvil(version)
  const World = require('prismarine-world')(registry)

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'voxnav-peer-region-'))
  const copy = path.join(tmp, path.basename(file))
  fs.copyFileSync(file, copy)
  fs.chmodSync(copy, 0o600)
  const t0 = performance.now()
  const anvil = new Anvil(tmp)
  const world = new World(null, null, 0)
  const columns = []
  let minY = 0
  let height = 256
  try {
    for (let cx = 0; cx < 32; cx++) {
      for (let cz = 0; cz < 32; cz++) {
        const x = rx * 32 + cx
        const z = rz * 32 + cz
        const chunk = await anvil.load(x, z)
        if (!chunk) continue
        if (columns.length === 0) {
          minY = chunk.minY ?? 0
          height = chunk.worldHeight ?? 256
        }
        world.sync.setColumn(x, z, chunk, false)
        columns.push({ x, z, chunk })
      }
    }
  } finally {
    await anvil.close()
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  return { registry, world, columns, rx, rz, minY, maxY: minY + height - 1, loadMs: performance.now() - t0 }
}

const HAZARDS = new Set(['lava', 'fire', 'soul_fire', 'cobweb', 'web', 'sweet_berry_bush', 'magma_block',
  'campfire', 'soul_campfire', 'wither_rose', 'powder_snow', 'cactus'])
const LIQUIDS = new Set(['water', 'lava', 'flowing_water', 'flowing_lava', 'bubble_column', 'kelp', 'kelp_plant',
  'seagrass', 'tall_seagrass'])

/**
 * Per block-state facts for the standability rule, cached by state id.
 * collides: any collision box; full: one box [0,0,0,1,1,1]; empty: no box and mineflayer's
 * boundingBox 'empty' (a snow layer has no box but says 'block').
 */
function makeStateInfo (registry) {
  const Block = require('prismarine-block')(registry)
  const cache = new Map()
  return (stateId) => {
    let info = cache.get(stateId)
    if (info) return info
    const b = Block.fromStateId(stateId, 0)
    const shapes = b.shapes ?? []
    info = {
      name: b.name,
      collides: shapes.length > 0,
      full: shapes.length === 1 && shapes[0].join(',') === '0,0,0,1,1,1',
      empty: shapes.length === 0 && b.boundingBox === 'empty',
      leaves: b.name.endsWith('leaves'),
      hazard: HAZARDS.has(b.name),
      liquid: LIQUIDS.has(b.name)
    }
    cache.set(stateId, info)
    return info
  }
}

/**
 * Standable surface cells: per column, the ground is the highest block that has a collision box
 * and is not leaves (canopies are looked through); the cell is the one above it (the feet block of
 * a standing walker) and is kept when the ground is a full, non-hazard cube and the feet and head
 * cells have no collision box (mineflayer's boundingBox 'empty': no snow layers), no liquid, no
 * hazard. Returns [{x, y, z, ground, feet}].
 */
export function surfaceCells (region) {
  const info = makeStateInfo(region.registry)
  const cells = []
  const p = new Vec3(0, 0, 0)
  for (const { x: cx, z: cz, chunk } of region.columns) {
    for (let lx = 0; lx < 16; lx++) {
      for (let lz = 0; lz < 16; lz++) {
        p.x = lx
        p.z = lz
        let y = region.maxY
        for (; y >= region.minY; y--) {
          p.y = y
          const s = info(chunk.getBlockStateId(p))
          if (s.collides && !s.leaves) break
        }
        if (y < region.minY || y + 2 > region.maxY) continue
        p.y = y
        const ground = info(chunk.getBlockStateId(p))
        p.y = y + 1
        const feet = info(chunk.getBlockStateId(p))
        p.y = y + 2
        const head = info(chunk.getBlockStateId(p))
        if (!ground.full || ground.hazard) continue
        if (!feet.empty || feet.liquid || feet.hazard) continue
        if (!head.empty || head.liquid || head.hazard) continue
        cells.push({ x: cx * 16 + lx, y: y + 1, z: cz * 16 + lz, ground: ground.name, feet: feet.name })
      }
    }
  }
  return cells
}
