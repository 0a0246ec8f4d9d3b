// Shared helpers of the node:test suites in tests/web: where the wasm build is, a staged copy of
// the npm package (web/ sources + the build's dist/), real data (block registry, Moving AI maps).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stagePackage } from '../support/stage_package.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
export const sharedData = path.resolve(repoRoot, '../shared/data');
export const buildDir = path.resolve(process.env.VOXNAV_WASM_BUILD_DIR || path.join(repoRoot, 'build/wasm'));
export const distDir = path.join(buildDir, 'web', 'dist');

const syncWasm = path.join(distDir, 'voxnav-sync.wasm');
export const hasThreadedBuild = fs.existsSync(path.join(distDir, 'voxnav-mt.wasm'));

/** A reason to skip (string) when the wasm build is missing, else false. */
export const skipReason = fs.existsSync(syncWasm)
  ? false
  : `no wasm build at ${distDir} (build the wasm preset, or set VOXNAV_WASM_BUILD_DIR)`;
if (skipReason) console.log(`# SKIP tests/web: ${skipReason}`);

let staged = null;
/**
 * A fresh copy of the npm package: the current web/ sources plus the build's dist/ (so a test never
 * runs stale JS). Made once per test process.
 */
export function packageDir() {
  if (!staged) staged = stagePackage(distDir);
  return staged;
}

/** Imports a module of the staged package ('index.mjs', 'worker/handlers.mjs', ...). */
export function importPackage(rel = 'index.mjs') {
  return import(pathToFileURL(path.join(packageDir(), rel)).href);
}

let registryBytes = null;
/** minecraft-data's 1.21.1 block list and collision shapes (data/blocks). */
export function registryFiles() {
  if (!registryBytes) {
    registryBytes = {
      blocks: fs.readFileSync(path.join(repoRoot, 'data/blocks/blocks.pc-1.21.1.json')),
      shapes: fs.readFileSync(path.join(repoRoot, 'data/blocks/blockCollisionShapes.pc-1.20.5.json')),
    };
  }
  return registryBytes;
}

// ---- Moving AI maps (shared/data/movingai-2d) ----

export function movingAiPath(name) {
  return path.join(sharedData, 'movingai-2d/maps', name);
}

/** Parses a Moving AI .map: { width, height, rows, passable(x, y) }. */
export function readMovingAiMap(name) {
  const text = fs.readFileSync(movingAiPath(name), 'utf8');
  const lines = text.split(/\r?\n/);
  const head = {};
  let i = 0;
  for (; i < lines.length && lines[i].trim() !== 'map'; ++i) {
    const [k, v] = lines[i].trim().split(/\s+/);
    head[k] = v;
  }
  const width = Number(head.width), height = Number(head.height);
  const rows = lines.slice(i + 1, i + 1 + height);
  if (rows.length !== height || rows.some((r) => r.length < width)) throw new Error(`${name}: bad map`);
  const passable = (x, y) => x >= 0 && y >= 0 && x < width && y < height && '.GS'.includes(rows[y][x]);
  return { name, width, height, rows, passable };
}

/** Rows of the .scen of a map: { bucket, sx, sy, gx, gy, optimal }. */
export function readScenario(name) {
  const text = fs.readFileSync(path.join(sharedData, 'movingai-2d/scens', `${name}.scen`), 'utf8');
  return text.split(/\r?\n/).slice(1).filter((l) => l.trim()).map((l) => {
    const f = l.split('\t');
    return { bucket: +f[0], sx: +f[4], sy: +f[5], gx: +f[6], gy: +f[7], optimal: +f[8] };
  });
}

export const STAND_Y = 1;    // walkers stand with their feet at y = 1
export const WALL_TOP = 4;   // blocked tiles fill y = 1 .. 4

/**
 * The voxel world of a map, as voxnav's native loader builds it: map x -> cell x, map y -> cell z,
 * a solid floor at y = 0, blocked tiles (and the edge chunks' cells outside the map) solid at
 * y = 1 .. 4, and the chunk layer above loaded as air. Returns loadChunks() arguments.
 */
export function movingAiChunks(map, solid) {
  const cw = Math.ceil(map.width / 16), ch = Math.ceil(map.height / 16);
  const n = cw * ch * 2;
  const positions = new Int32Array(3 * n);
  const values = new Uint16Array(4096 * n);
  let k = 0;
  for (let cz = 0; cz < ch; ++cz) {
    for (let cx = 0; cx < cw; ++cx) {
      positions.set([cx, 0, cz], 3 * k);
      const base = 4096 * k;
      for (let z = 0; z < 16; ++z) {
        for (let x = 0; x < 16; ++x) {
          const blocked = !map.passable(cx * 16 + x, cz * 16 + z);
          values[base + x + 16 * z] = solid;  // y = 0
          if (blocked) for (let y = 1; y <= WALL_TOP; ++y) values[base + x + 16 * (z + 16 * y)] = solid;
        }
      }
      ++k;
      positions.set([cx, 1, cz], 3 * k);  // air above
      ++k;
    }
  }
  return { positions, values };
}

/** 4-connected components of the passable tiles (no corner cutting: the walker's islands). */
export function components(map) {
  const label = new Int32Array(map.width * map.height).fill(-1);
  let next = 0;
  for (let y = 0; y < map.height; ++y) {
    for (let x = 0; x < map.width; ++x) {
      if (!map.passable(x, y) || label[y * map.width + x] >= 0) continue;
      const stack = [[x, y]];
      label[y * map.width + x] = next;
      while (stack.length) {
        const [px, py] = stack.pop();
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const qx = px + dx, qy = py + dy;
          if (map.passable(qx, qy) && label[qy * map.width + qx] < 0) {
            label[qy * map.width + qx] = next;
            stack.push([qx, qy]);
          }
        }
      }
      ++next;
    }
  }
  return { label, count: next, at: (x, y) => label[y * map.width + x] };
}

/** Octile length of a cell path (Int32Array x, y, z per cell), in cells. */
export function octileLength(cells) {
  let len = 0;
  for (let i = 3; i < cells.length; i += 3) {
    const dx = Math.abs(cells[i] - cells[i - 3]), dz = Math.abs(cells[i + 2] - cells[i - 1]);
    len += dx && dz ? Math.SQRT2 : dx + dz;
  }
  return len;
}

/** A World with the real registry and a Moving AI map loaded, one walker profile, navigation built. */
export function worldWithMap(lib, mapName, worldOptions = {}) {
  const world = lib.createWorld(worldOptions);
  const { blocks, shapes } = registryFiles();
  world.loadMinecraftBlocks(blocks, shapes);
  const stone = world.blockValue('stone');
  const map = readMovingAiMap(mapName);
  const { positions, values } = movingAiChunks(map, stone);
  world.loadChunks(positions, values);
  const walker = world.addProfile({ id: 'walker', class: 'walker' });
  world.update();
  return { world, map, stone, walker, air: 0 };
}

/** Calls update() until a request leaves 'searching' (at most `limit` updates). */
export function settle(world, handle, limit = 20) {
  let st = world.status(handle);
  for (let i = 0; i < limit && st.state === 'searching'; ++i) {
    world.update();
    st = world.status(handle);
  }
  return st;
}

/**
 * A worker session over the pure handlers: send() passes messages to handle() with increasing ids
 * and collects the posts (as the page receives them); ok() expects a reply with `ok` only, err() one
 * with an error of that status and message and no posts.
 */
export function workerSession(handlers, state) {
  let next = 1;
  const posts = [];
  const send = async (msg) => {
    const id = next++;
    const r = await handlers.handle(state, { id, ...msg });
    assert.equal(r.reply.id, id);
    posts.push(...r.posts);
    return r;
  };
  const ok = async (msg) => {
    const r = await send(msg);
    assert.ok(!r.reply.error, `${msg.type}: ${JSON.stringify(r.reply.error)}`);
    assert.equal(Object.keys(r.reply).sort().join(), 'id,ok');
    return r.reply.ok;
  };
  const err = async (msg, status, re) => {
    const r = await send(msg);
    assert.ok(r.reply.error, `${msg.type} did not fail: ${JSON.stringify(r.reply.ok)}`);
    assert.equal(Object.keys(r.reply).sort().join(), 'error,id');
    assert.equal(r.reply.error.status, status, r.reply.error.message);
    assert.match(r.reply.error.message, re);
    assert.equal(r.posts.length, 0);
    return r.reply.error;
  };
  return { send, ok, err, posts };
}
