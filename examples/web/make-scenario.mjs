// Writes the scripted scenario the tests replay natively, in Node and in the browser
// (scenario.json): walker agents with reachable goals on the shipped region, swimmer agents with
// reachable goals across its water, and block edits on their corridors at fixed ticks (walkers'
// every 20 ticks, stone dropped into the water ahead of a swimmer every 40). Deterministic for a
// seed; run it again only to change the scenario.
//
//   node examples/web/make-scenario.mjs [--seed 7] [--agents 48] [--swimmers 8] [--ticks 400] [--pkg DIR] > examples/web/scenario.json
//
// DIR is a built package (default: $VOXNAV_WASM_BUILD_DIR/web, else build/wasm/web).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const seed = Number(opt('--seed', 7));
const nAgents = Number(opt('--agents', 48));
const nSwimmers = Number(opt('--swimmers', 8));
const ticks = Number(opt('--ticks', 400));
const pkgDir = opt('--pkg', path.join(process.env.VOXNAV_WASM_BUILD_DIR || path.join(repo, 'build/wasm'), 'web'));

// mulberry32: a small seeded generator (only used to pick the scenario, never during a replay).
function rng(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(seed);
const pick = (n) => Math.floor(rand() * n);
// The swimmers' picks draw from a stream of their own, so the walkers' part stays what it was.
const randSwim = rng(seed ^ 0x5a1a);
const pickSwim = (n) => Math.floor(randSwim() * n);

const { load } = await import(pathToFileURL(path.join(pkgDir, 'index.mjs')).href);
const lib = await load({ build: 'sync' });
const world = lib.createWorld();
world.loadMinecraftBlocks(fs.readFileSync(path.join(repo, 'data/blocks/blocks.pc-1.21.1.json')),
  fs.readFileSync(path.join(repo, 'data/blocks/blockCollisionShapes.pc-1.20.5.json')));
const worldName = 'r.0.-1.mca';
const report = await world.loadRegion(fs.readFileSync(path.join(repo, 'data/worlds', worldName)));
world.update();
const profileJson = { id: 'walker' };
const walker = world.addProfile(profileJson);

// Standable surface cells (feet just above the top block).
const { min, max } = report;
const tops = world.topBlocks(min, max);
const surface = [];
for (let i = 0; i < tops.heights.length; ++i) {
  const y = tops.heights[i] + 1;
  if (y <= min[1] || y > max[1]) continue;
  const x = min[0] + (i % tops.width), z = min[2] + Math.floor(i / tops.width);
  const feet = world.standingHeight(walker, [x, y, z]);
  if (feet !== null) surface.push({ cell: [x, y, z], feet });
}

const agents = [];
for (let tries = 0; agents.length < nAgents && tries < nAgents * 200; ++tries) {
  const s = surface[pick(surface.length)];
  for (let g = 0; g < 40; ++g) {
    const t = surface[pick(surface.length)];
    const d = Math.max(Math.abs(t.cell[0] - s.cell[0]), Math.abs(t.cell[2] - s.cell[2]));
    if (d < 16 || d > 48) continue;
    if (world.reachable(walker, s.cell, t.cell).answer !== 'yes') continue;
    agents.push({ feet: [s.cell[0] + 0.5, s.feet, s.cell[2] + 0.5], goal: t.cell });
    break;
  }
}

// Swimmers: water cells of every third column, and goals 8 to 30 cells away that they reach.
const swimmerJson = { id: 'fish', class: 'swimmer', can_swim: true, speed: { swim: 2 } };
const fish = world.addProfile(swimmerJson);
const water = [];
for (let x = min[0]; x <= max[0]; x += 3) {
  for (let z = min[2]; z <= max[2]; z += 3) {
    for (let y = 40; y <= 70; ++y) if (world.isStandable(fish, [x, y, z])) water.push([x, y, z]);
  }
}
const swimmers = [];
for (let tries = 0; swimmers.length < nSwimmers && water.length && tries < nSwimmers * 200; ++tries) {
  const s = water[pickSwim(water.length)];
  for (let g = 0; g < 40; ++g) {
    const t = water[pickSwim(water.length)];
    const d = Math.max(Math.abs(t[0] - s[0]), Math.abs(t[1] - s[1]), Math.abs(t[2] - s[2]));
    if (d < 8 || d > 30) continue;
    if (world.reachable(fish, s, t).answer !== 'yes') continue;
    swimmers.push({ feet: [s[0] + 0.5, s[1], s[2] + 0.5], goal: t });
    break;
  }
}

// Run it, editing corridors as it goes: every 20 ticks block a waypoint cell ahead of a moving
// walker (stone at its feet), or dig out the floor under one (air below its feet); every 40 ticks
// drop stone into the water on a moving swimmer's corridor, a few cells ahead of it.
const ids = agents.map((a) => world.addAgent(walker, a.feet));
const swimIds = swimmers.map((a) => world.addAgent(fish, a.feet));
agents.forEach((a, i) => world.setAgentGoal(ids[i], a.goal));
swimmers.forEach((a, i) => world.setAgentGoal(swimIds[i], a.goal));
const isWalker = new Set(ids);
const edits = [];
let walkerEdits = 0;
const watch = [];  // [agent, corridor epoch at the edit, tick to look again]
let changed = 0;
for (let t = 0; t < ticks; ++t) {
  if (t >= 20 && t % 20 === 0 && t < ticks - 40) {
    const snap = world.agentsSnapshot();
    const moving = [];
    for (let i = 0; i < snap.count; ++i) {
      if (isWalker.has(snap.ids[i]) && lib.AGENT_MODES[snap.modes[i]] === 'moving') moving.push(snap.ids[i]);
    }
    for (let k = 0; k < 8 && moving.length; ++k) {
      const id = moving[pick(moving.length)];
      const c = world.agentCorridor(id);
      const from = world.agentState(id).nextWaypoint + 1;
      const n = c.kinds.length;
      if (n - 1 - from < 1) continue;
      const w = from + pick(n - 1 - from);
      const cell = [c.cells[3 * w], c.cells[3 * w + 1], c.cells[3 * w + 2]];
      const dig = walkerEdits % 2 === 1;
      walkerEdits += 1;
      const at = dig ? [cell[0], cell[1] - 1, cell[2]] : cell;
      const block = dig ? 'air' : 'stone';
      world.setBlock(at, world.blockValue(block));
      edits.push({ tick: t, cell: at, block });
      watch.push([id, c.epoch, t + 5]);
      break;
    }
  }
  if (t % 40 === 10 && t < ticks - 40) {
    const moving = swimIds.filter((id) => world.agentState(id).mode === 'moving');
    if (moving.length) {
      const id = moving[pickSwim(moving.length)];
      const c = world.agentCorridor(id);
      const w = world.agentState(id).nextWaypoint + 3;
      if (w + 1 < c.kinds.length) {
        const at = [c.cells[3 * w], c.cells[3 * w + 1], c.cells[3 * w + 2]];
        world.setBlock(at, world.blockValue('stone'));
        edits.push({ tick: t, cell: at, block: 'stone' });
        watch.push([id, c.epoch, t + 5]);
      }
    }
  }
  world.tick(0.05);
  for (const [id, epoch, at] of watch) if (at === t) changed += world.agentCorridor(id).epoch !== epoch ? 1 : 0;
}
const hash = world.stateHash();
const checkpoints = [];
for (let c = 100; c <= ticks; c += 100) checkpoints.push(c);
const out = {
  about: `voxnav scripted scenario (examples/web/make-scenario.mjs --seed ${seed} --agents ${nAgents} --swimmers ${nSwimmers} --ticks ${ticks}): ` +
    'replayed by `voxnav run --script`, by the wasm package in Node and by the demo page in the browser; all give the same state hash',
  world: worldName, seed, profile: profileJson, dt: 0.05, ticks, checkpoints, agents, edits,
};
// One agent or edit per line.
const head = { ...out, agents: undefined, edits: undefined };
const lines = JSON.stringify(head, null, 1).split('\n').slice(0, -1).join('\n');
const list = (xs, pad = '  ') => xs.map((x) => `${pad}${JSON.stringify(x)}`).join(',\n');
const swim = swimmers.length
  ? ` "swimmers": {\n  "profile": ${JSON.stringify(swimmerJson)},\n  "agents": [\n${list(swimmers, '   ')}\n  ]\n },\n`
  : '';
process.stdout.write(`${lines},\n "agents": [\n${list(agents)}\n ],\n${swim} "edits": [\n${list(edits)}\n ]\n}\n`);
console.error(`make-scenario: ${agents.length} agents, ${swimmers.length} swimmers, ${edits.length} edits ` +
  `(${changed} changed the edited agent's corridor within 5 ticks), hash ${hash}`);
