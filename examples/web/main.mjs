// voxnav demo page: the package's server worker runs navigation on a real Minecraft region; this
// page draws a top-down map, the agents and their corridors, and edits blocks where you click.
// Plain ES modules, no bundler. Served by serve.mjs: /voxnav/ is the npm package, /data/ the repo's
// data folder. Query: ?agents=N (default 120), ?world=FILE (a region in data/worlds).
import { connectWorker } from './client.mjs';
import { runScenario } from './scenario.mjs';

const params = new URLSearchParams(location.search);
const AGENTS = Number(params.get('agents') ?? 120);
const WORLD = params.get('world') ?? 'r.0.-1.mca';
const DT = 0.05;           // 20 ticks per second
const GOAL_RANGE = 40;     // new goals within this many cells (x and z)
const FLASH_MS = 1500;     // how long a corridor changed by an edit stays yellow
const MODES = ['idle', 'planning', 'moving', 'arrived', 'failed', 'blocked'];
const MODE_COLOR = {
  idle: '#9aa4b1', planning: '#56d4ff', moving: '#ffffff', arrived: '#7ee787', failed: '#ff7b72', blocked: '#ffa657',
};

const canvas = document.getElementById('map');
const ctx = canvas.getContext('2d');
const statusEl = document.getElementById('status');

// Everything the page knows, updated from the worker's replies and tick posts.
const S = {
  build: null, threaded: false, bounds: null, scale: 2,
  heights: null, values: null, water: new Set(), stone: 0, air: 0, profile: 0,
  agents: { ids: new Float64Array(0), positions: new Float64Array(0), modes: new Uint8Array(0) },
  corridors: new Map(),     // agent -> { epoch, waypoints: Float64Array (x, y, z metres), kinds }
  flash: new Map(),         // agent -> time until which its corridor is drawn yellow
  marks: [],                // edited cells: { x, z, place, until }
  tick: 0, stats: null, searchRate: 0, frames: 0, corridorsDrawn: 0,
  running: false, paused: false, regoal: new Set(), postWaiters: [],
};

const worker = new Worker(new URL('/voxnav/worker/index.mjs', location.href), { type: 'module' });
const send = connectWorker(worker, onTick);

function onTick(post) {
  S.tick = post.tick;
  S.agents = post.agents;
  for (const c of post.corridors) S.corridors.set(c.agent, c);
  for (const id of post.removed) S.corridors.delete(id);
  for (let i = 0; i < post.agents.ids.length; ++i) {
    const mode = MODES[post.agents.modes[i]];
    if (mode === 'arrived' || mode === 'failed' || mode === 'blocked' || mode === 'idle') S.regoal.add(post.agents.ids[i]);
  }
  for (const w of S.postWaiters.splice(0)) w(post);
}
const nextPost = () => new Promise((resolve) => S.postWaiters.push(resolve));

async function fetchBytes(path) {
  const r = await fetch(path);
  if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

// ---- the map ----
const mapImage = document.createElement('canvas');

function columnIndex(x, z) {
  const [x0, , z0] = S.bounds.min;
  return (x - x0) + S.bounds.width * (z - z0);
}

function shade(x, z) {
  const i = columnIndex(x, z);
  const h = S.heights[i];
  if (h === -2147483648) return [0, 0, 0];
  const [, y0] = S.bounds.min;
  const t = Math.min(1, Math.max(0, (h - 50 - y0) / 60));
  // Hill shading: lighter where the ground rises toward the north-west.
  const hw = x > S.bounds.min[0] ? S.heights[i - 1] : h;
  const hn = z > S.bounds.min[2] ? S.heights[i - S.bounds.width] : h;
  const slope = Math.max(-3, Math.min(3, (h - hw) + (h - hn))) * 10;
  if (S.water.has(S.values[i])) return [40 + 30 * t, 90 + 40 * t, 190 + 40 * t];
  return [70 + 150 * t + slope, 95 + 130 * t + slope, 60 + 90 * t + slope];
}

function paintColumns(cells) {
  const g = mapImage.getContext('2d');
  const img = g.createImageData(1, 1);
  for (const [x, z] of cells) {
    const [r, gg, b] = shade(x, z);
    img.data.set([r, gg, b, 255]);
    g.putImageData(img, x - S.bounds.min[0], z - S.bounds.min[2]);
  }
}

function paintMap() {
  const { width, depth } = S.bounds;
  mapImage.width = width;
  mapImage.height = depth;
  const g = mapImage.getContext('2d');
  const img = g.createImageData(width, depth);
  for (let z = 0; z < depth; ++z) {
    for (let x = 0; x < width; ++x) {
      const [r, gg, b] = shade(S.bounds.min[0] + x, S.bounds.min[2] + z);
      img.data.set([r, gg, b, 255], 4 * (x + width * z));
    }
  }
  g.putImageData(img, 0, 0);
}

// ---- drawing ----
function draw() {
  requestAnimationFrame(draw);
  if (!S.bounds) return;
  const k = S.scale;
  const [x0, , z0] = S.bounds.min;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(mapImage, 0, 0, mapImage.width * k, mapImage.height * k);
  const now = performance.now();
  let drawn = 0;
  ctx.lineWidth = 1.5;
  for (const [agent, c] of S.corridors) {
    const w = c.waypoints;
    if (w.length < 6) continue;
    const flashing = (S.flash.get(agent) ?? 0) > now;
    ctx.strokeStyle = flashing ? 'rgb(255, 230, 0)' : 'rgba(255, 60, 210, 0.8)';
    ctx.lineWidth = flashing ? 3 : 1.5;
    ctx.beginPath();
    ctx.moveTo((w[0] - x0) * k, (w[2] - z0) * k);
    for (let i = 3; i < w.length; i += 3) ctx.lineTo((w[i] - x0) * k, (w[i + 2] - z0) * k);
    ctx.stroke();
    ++drawn;
  }
  S.marks = S.marks.filter((m) => m.until > now);
  for (const m of S.marks) {
    ctx.strokeStyle = m.place ? '#ff3b30' : '#00e5ff';
    ctx.lineWidth = 2;
    ctx.strokeRect((m.x - x0) * k - 3, (m.z - z0) * k - 3, k + 6, k + 6);
  }
  const { positions, modes } = S.agents;
  for (let i = 0; i < modes.length; ++i) {
    ctx.fillStyle = MODE_COLOR[MODES[modes[i]]];
    ctx.beginPath();
    ctx.arc((positions[3 * i] - x0) * k, (positions[3 * i + 2] - z0) * k, Math.max(2, k), 0, 2 * Math.PI);
    ctx.fill();
  }
  S.corridorsDrawn = drawn;
  S.frames += 1;
}

function showStatus() {
  const s = S.stats;
  if (!s) return;
  statusEl.textContent = [
    `${S.build} build${S.threaded ? ' (1 search thread)' : ''}`,
    `crossOriginIsolated ${self.crossOriginIsolated}`,
    `${S.agents.ids.length} agents`,
    `${S.searchRate.toFixed(0)} searches/s`,
    `search p50 ${s.searchUsP50.toFixed(0)} µs, p99 ${s.searchUsP99.toFixed(0)} µs`,
    `tick ${s.lastTickMs.toFixed(2)} ms (mean ${s.meanTickMs.toFixed(2)})`,
    `tick #${s.ticks}`,
  ].join(' · ');
}

// ---- agents and goals ----
let seed = 12345;
function random() {  // xorshift32: the same agents on every load
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}

/** A random surface cell [x, y, z] (feet cell above the top block), not water. */
function surfaceCell(near) {
  const { min, width, depth } = S.bounds;
  for (let i = 0; i < 50; ++i) {
    let x, z;
    if (near) {
      x = Math.floor(near[0] + (random() * 2 - 1) * GOAL_RANGE);
      z = Math.floor(near[2] + (random() * 2 - 1) * GOAL_RANGE);
      if (x < min[0] || z < min[2] || x >= min[0] + width || z >= min[2] + depth) continue;
    } else {
      x = min[0] + Math.floor(random() * width);
      z = min[2] + Math.floor(random() * depth);
    }
    const c = columnIndex(x, z);
    if (S.heights[c] === -2147483648 || S.water.has(S.values[c])) continue;
    return [x, S.heights[c] + 1, z];
  }
  return null;
}

async function spawn(n) {
  const agents = [];
  for (let tries = 0; agents.length < n && tries < n * 30; ++tries) {
    const from = surfaceCell(null);
    const to = from && surfaceCell(from);
    if (!to) continue;
    const r = await send({ type: 'reachable', profile: S.profile, from, goal: to });
    if (r.answer === 'yes') agents.push({ profile: S.profile, feet: [from[0] + 0.5, from[1], from[2] + 0.5], goal: to });
  }
  if (agents.length) await send({ type: 'addAgents', agents });
}

async function newGoals() {
  const goals = [];
  const { ids, positions } = S.agents;
  for (let i = 0; i < ids.length && goals.length < 20; ++i) {
    if (!S.regoal.has(ids[i])) continue;
    const at = [Math.floor(positions[3 * i]), Math.floor(positions[3 * i + 1]), Math.floor(positions[3 * i + 2])];
    const to = surfaceCell(at);
    if (to) goals.push({ agent: ids[i], goal: to });
  }
  S.regoal.clear();
  if (goals.length) await send({ type: 'setGoals', goals });
}

// ---- the tick loop ----
async function loop() {
  let lastStats = performance.now();
  const history = [];  // [time, searches] of the last 5 s, for searches per second
  while (S.running) {
    const t0 = performance.now();
    if (!S.paused) {
      await send({ type: 'tick', dt: DT });
      if (S.regoal.size) await newGoals();
      if (t0 - lastStats > 500) {
        const s = await send({ type: 'stats' });
        const now = performance.now();
        history.push([now, s.searches]);
        while (history.length > 2 && now - history[0][0] > 5000) history.shift();
        const [t, n] = history[0];
        S.searchRate = now > t ? ((s.searches - n) * 1000) / (now - t) : 0;
        lastStats = now;
        S.stats = s;
        showStatus();
      }
    }
    const wait = DT * 1000 - (performance.now() - t0);
    await new Promise((r) => setTimeout(r, Math.max(0, wait)));
  }
}

// ---- edits ----
/** Whether a corridor crosses the cell (x, y, z) at feet level, from the segment nearest its agent on. */
function crosses(agent, w, x, y, z) {
  const i = S.agents.ids.indexOf(agent);
  let from = 0;
  if (i >= 0) {
    const px = S.agents.positions[3 * i], pz = S.agents.positions[3 * i + 2];
    let best = Infinity;
    for (let k = 0; k + 3 < w.length; k += 3) {
      const d = segmentDistance(px, pz, w[k], w[k + 2], w[k + 3], w[k + 5]);
      if (d < best) { best = d; from = k; }
    }
  }
  for (let k = from; k + 3 < w.length; k += 3) {
    const hit = segmentInSquare(w[k], w[k + 2], w[k + 3], w[k + 5], x, z);
    if (!hit) continue;
    // The feet over the column: the higher end of the part inside it (a step or a drop is taken
    // at the top of the move, so a corridor that now climbs onto the block does not count).
    const y0 = w[k + 1] + hit[0] * (w[k + 4] - w[k + 1]), y1 = w[k + 1] + hit[1] * (w[k + 4] - w[k + 1]);
    if (Math.floor(Math.max(y0, y1)) === y) return true;
  }
  return false;
}

function segmentDistance(px, pz, ax, az, bx, bz) {
  const dx = bx - ax, dz = bz - az;
  const len = dx * dx + dz * dz;
  const t = len ? Math.max(0, Math.min(1, ((px - ax) * dx + (pz - az) * dz) / len)) : 0;
  return Math.hypot(ax + t * dx - px, az + t * dz - pz);
}

/** The part [t0, t1] of segment a-b inside the unit square [x, x+1] x [z, z+1], or null (Liang-Barsky). */
function segmentInSquare(ax, az, bx, bz, x, z) {
  let t0 = 0, t1 = 1;
  const dx = bx - ax, dz = bz - az;
  for (const [p, q] of [[-dx, ax - x], [dx, x + 1 - ax], [-dz, az - z], [dz, z + 1 - az]]) {
    if (p === 0) {
      if (q < 0) return null;
    } else {
      const r = q / p;
      if (p < 0) t0 = Math.max(t0, r);
      else t1 = Math.min(t1, r);
    }
  }
  return t0 <= t1 ? [t0, t1] : null;
}

/**
 * Sets one block, then waits (up to `maxTicks` ticks) until every corridor that crossed the
 * cell has been re-planned. Resolves to { crossed, changed }: agent ids whose corridor crossed the
 * cell, and agent ids whose corridor changed after the edit.
 */
async function edit(x, y, z, value, maxTicks = 60) {
  const crossed = [];
  const before = new Map();
  for (const [agent, c] of S.corridors) {
    before.set(agent, c.epoch);
    if (crosses(agent, c.waypoints, x, y, z)) crossed.push(agent);
  }
  await send({ type: 'edit', cell: [x, y, z], value });
  S.marks.push({ x, z, place: value !== S.air, until: performance.now() + 4000 });
  const changedNow = () => [...S.corridors].filter(([a, c]) => before.has(a) && before.get(a) !== c.epoch).map(([a]) => a);
  const start = S.tick;
  while (S.tick - start < maxTicks) {
    const changed = changedNow();
    if (crossed.every((a) => changed.includes(a)) && S.tick - start >= 2) break;
    await nextPost();
  }
  const changed = changedNow();
  const until = performance.now() + FLASH_MS;
  for (const a of crossed) if (changed.includes(a)) S.flash.set(a, until);
  const col = await send({ type: 'topBlocks', min: [x, S.bounds.min[1], z], max: [x, S.bounds.max[1], z] });
  const i = columnIndex(x, z);
  S.heights[i] = col.heights[0];
  S.values[i] = col.values[0];
  paintColumns([[x, z], [x + 1, z], [x, z + 1]].filter(([cx, cz]) => cx < S.bounds.min[0] + S.bounds.width && cz < S.bounds.min[2] + S.bounds.depth));
  return { crossed, changed };
}

canvas.addEventListener('click', async (e) => {
  if (!S.bounds) return;
  const r = canvas.getBoundingClientRect();
  const x = S.bounds.min[0] + Math.floor((e.clientX - r.left) / S.scale);
  const z = S.bounds.min[2] + Math.floor((e.clientY - r.top) / S.scale);
  const top = S.heights[columnIndex(x, z)];
  if (top === -2147483648) return;
  const place = document.querySelector('input[name=mode]:checked').value === 'place';
  try {
    await edit(x, place ? top + 1 : top, z, place ? S.stone : S.air);
  } catch (err) {
    statusEl.textContent = `edit failed: ${err.message}`;
  }
});
document.getElementById('more').addEventListener('click', () => spawn(25));

// ---- start ----
async function start() {
  const [blocksJson, shapesJson, world] = await Promise.all([
    fetchBytes('/data/blocks/blocks.pc-1.21.1.json'),
    fetchBytes('/data/blocks/blockCollisionShapes.pc-1.20.5.json'),
    fetchBytes(`/data/worlds/${WORLD}`),
  ]);
  S.inputs = { blocksJson, shapesJson, world };
  const init = await send({ type: 'init', blocksJson, shapesJson });
  S.build = init.build;
  S.threaded = init.threaded;
  statusEl.textContent = `${S.build} build: loading ${WORLD}...`;
  const report = await send({ type: 'loadRegion', bytes: world.slice() });
  S.profile = (await send({ type: 'addProfile', profile: { id: 'walker' } })).profile;
  const { values } = await send({ type: 'blockValues', names: ['stone', 'air', 'water'] });
  [S.stone, S.air] = values;
  S.water.add(values[2]);
  const { min, max } = report;
  const tops = await send({ type: 'topBlocks', min, max });
  S.bounds = { min, max, width: max[0] - min[0] + 1, depth: max[2] - min[2] + 1 };
  S.heights = tops.heights;
  S.values = tops.values;
  S.scale = Math.max(1, Math.min(3, Math.floor((innerWidth - 40) / S.bounds.width)));
  canvas.width = S.bounds.width * S.scale;
  canvas.height = S.bounds.depth * S.scale;
  paintMap();
  await spawn(AGENTS);
  S.running = true;
  requestAnimationFrame(draw);
  const first = nextPost();
  loop();
  await first;
}

// A small hook for tests and the console.
window.voxnavDemo = {
  /** Resolves once agents are ticking (after the first tick update). */
  ready: null,
  /** Build, isolation, counts. */
  info: () => ({
    build: S.build, threaded: S.threaded, crossOriginIsolated: self.crossOriginIsolated, tick: S.tick,
    agents: S.agents.ids.length, corridors: S.corridors.size, corridorsDrawn: S.corridorsDrawn, frames: S.frames,
    searchRate: S.searchRate, stats: S.stats, status: statusEl.textContent, bounds: S.bounds,
    blocks: { stone: S.stone, air: S.air },
  }),
  /** Agent ids and feet positions of the last tick. */
  agents: () => ({ ids: [...S.agents.ids], positions: [...S.agents.positions], modes: [...S.agents.modes].map((m) => MODES[m]) }),
  /** Every corridor the page holds: [{ agent, epoch, waypoints: [x, y, z, ...] }]. */
  corridors: () => [...S.corridors].map(([agent, c]) => ({ agent, epoch: c.epoch, waypoints: [...c.waypoints] })),
  /** Whether the corridor of `agent` (as the page holds it) crosses the cell at feet level. */
  crosses: (agent, x, y, z) => S.corridors.has(agent) && crosses(agent, S.corridors.get(agent).waypoints, x, y, z),
  edit,
  /** A raw message to the worker (the same queue the page uses). */
  send,
  /** Canvas pixels drawn in the corridor colours (magenta or yellow). */
  corridorPixels() {
    const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      const magenta = d[i] > 180 && d[i + 1] < 130 && d[i + 2] > 150;
      const yellow = d[i] > 220 && d[i + 1] > 200 && d[i + 2] < 60;
      if (magenta || yellow) ++n;
    }
    return n;
  },
  /**
   * Replays a scripted scenario (default scenario.json) in a second server worker, with the demo
   * paused, and resolves to its state hashes (see scenario.mjs).
   */
  async runScenario(url = 'scenario.json') {
    const script = await (await fetch(url)).json();
    const w = new Worker(new URL('/voxnav/worker/index.mjs', location.href), { type: 'module' });
    S.paused = true;
    try {
      const bytes = await fetchBytes(`/data/worlds/${script.world}`);
      return await runScenario(connectWorker(w), script, { ...S.inputs, world: bytes });
    } finally {
      w.terminate();
      S.paused = false;
    }
  },
};
window.voxnavDemo.ready = start().catch((err) => {
  statusEl.textContent = `error: ${err.message}`;
  statusEl.className = 'error';
  throw err;
});
