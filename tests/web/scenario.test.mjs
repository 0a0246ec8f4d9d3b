// Native and wasm agree bit for bit: the scripted scenario examples/web/scenario.json (48 walker
// agents and 8 swimmer agents on the shipped region, block edits on their corridors at fixed ticks
// - stone and dug floors under walkers, stone dropped into the water ahead of swimmers -, 400
// ticks) gives
// the same state hash - every agent's position and corridor, to the last bit - from
// `voxnav run --script` (with and without its thread pool) and from the wasm package replaying it
// through the server worker's messages, with the sync and the threaded build. The browser replays
// it too (tests/browser/demo.test.mjs).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const scriptPath = path.join(h.repoRoot, 'examples/web/scenario.json');
const nativeDir = path.resolve(process.env.VOXNAV_NATIVE_BUILD_DIR || path.join(h.repoRoot, 'build/release'));
const nativeCli = path.join(nativeDir, 'voxnav');
const nativeMissing = fs.existsSync(nativeCli) ? false : `no native voxnav at ${nativeCli} (build the release preset)`;
const builds = ['sync', ...(h.hasThreadedBuild ? ['threaded'] : [])];

/** `voxnav run --script` -> its JSON summary. */
function nativeScenario(threads = 2) {
  const out = execFileSync(nativeCli, ['run', '--script', scriptPath, '--threads', String(threads), '--json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out.trim().split('\n').pop());
}

async function wasmScenario(build) {
  const handlers = await h.importPackage('worker/handlers.mjs');
  const { connectHandlers } = await import(pathToFileURL(path.join(h.repoRoot, 'examples/web/client.mjs')).href);
  const { runScenario } = await import(pathToFileURL(path.join(h.repoRoot, 'examples/web/scenario.mjs')).href);
  const script = JSON.parse(fs.readFileSync(scriptPath, 'utf8'));
  const { blocks, shapes } = h.registryFiles();
  const world = fs.readFileSync(path.join(h.repoRoot, 'data/worlds', script.world));
  let posts = 0;
  const send = connectHandlers(handlers, () => { posts += 1; });
  const r = await runScenario(send, script, { build, blocksJson: blocks, shapesJson: shapes, world });
  return { ...r, posts };
}

describe('scripted scenario: native and wasm agree', { skip }, () => {
  const script = JSON.parse(fs.readFileSync(scriptPath, 'utf8'));
  let native = null;
  before(() => {
    if (!nativeMissing) native = nativeScenario(2);
  });

  test('the scenario is real: agents, edits on their corridors, re-searches', { skip: nativeMissing }, () => {
    assert.equal(script.agents.length, 48);
    assert.equal(script.swimmers.profile.class, 'swimmer');
    assert.equal(script.swimmers.agents.length, 8);
    assert.equal(script.edits.length, 23);
    assert.equal(native.agents, 56);
    assert.equal(native.swimmers, 8);
    assert.equal(native.ticks, script.ticks);
    assert.equal(native.edits_applied, 23, 'every edit lands in a loaded chunk');
    // The edits broke corridors: each walker searched once, and the corridors the edits cut were
    // repaired around the edit (a local splice) or searched again.
    assert.ok(native.searches >= script.agents.length, `searches ${native.searches}`);
    assert.ok(native.repairs + native.replans >= 10,
      `repairs ${native.repairs}, replans ${native.replans}: the edits should cut corridors`);
    assert.ok(native.arrivals >= 10, `arrivals ${native.arrivals}`);
    // The swimmers swim: most of them arrive within the 400 ticks, stone dropped ahead or not.
    assert.ok(native.swimmer_arrivals >= 6, `swimmer arrivals ${native.swimmer_arrivals}`);
    assert.match(native.state_hash, /^[0-9a-f]{16}$/);
    assert.notEqual(native.state_hash, 'cbf29ce484222325', 'the hash of no agents');
    assert.deepEqual(native.checkpoints.map((c) => c.tick), script.checkpoints);
    // The hashes of successive checkpoints differ: the agents keep moving.
    assert.equal(new Set(native.checkpoints.map((c) => c.hash)).size, script.checkpoints.length);
  });

  test('native: the same hash with and without the thread pool', { skip: nativeMissing }, () => {
    const sync = nativeScenario(0);
    assert.equal(sync.state_hash, native.state_hash);
    assert.deepEqual(sync.checkpoints, native.checkpoints);
  });

  for (const build of builds) {
    test(`wasm in Node (${build} build) gives the native hash at every checkpoint`, { skip: nativeMissing }, async () => {
      const r = await wasmScenario(build);
      assert.equal(r.build, build);
      assert.equal(r.agents, 56);
      assert.ok(r.posts > script.edits.length, `tick posts: ${r.posts}`);
      assert.deepEqual(r.checkpoints, native.checkpoints);
      assert.equal(r.hash, native.state_hash);
    });
  }

  test('UI queries between ticks (request wait, reachable, stats) leave the native hash unchanged', { skip: nativeMissing }, async () => {
    // A host answering path queries for its UI sends them between ticks: `wait` runs the search
    // at once (World.findPathNow) without advancing navigation time, so the agents do exactly
    // what the native replay does. One tick per message, a query before every tick.
    const handlers = await h.importPackage('worker/handlers.mjs');
    const { connectHandlers } = await import(pathToFileURL(path.join(h.repoRoot, 'examples/web/client.mjs')).href);
    const { blocks, shapes } = h.registryFiles();
    const send = connectHandlers(handlers, () => {});
    await send({ type: 'init', build: 'sync', blocksJson: blocks, shapesJson: shapes });
    await send({ type: 'loadRegion', bytes: fs.readFileSync(path.join(h.repoRoot, 'data/worlds', script.world)) });
    const { profile } = await send({ type: 'addProfile', profile: script.profile });
    const names = [...new Set(script.edits.map((e) => e.block))];
    const { values } = await send({ type: 'blockValues', names });
    const fish = (await send({ type: 'addProfile', profile: script.swimmers.profile })).profile;
    await send({
      type: 'addAgents',
      agents: [
        ...script.agents.map((a) => ({ profile, feet: a.feet, goal: a.goal })),
        ...script.swimmers.agents.map((a) => ({ profile: fish, feet: a.feet, goal: a.goal })),
      ],
    });
    const marks = [];
    let ready = 0;
    for (let t = 0; t < script.ticks; ++t) {
      const edits = script.edits.filter((e) => e.tick === t).map((e) => ({ cell: e.cell, value: values[names.indexOf(e.block)] }));
      if (edits.length) await send({ type: 'edit', edits });
      const a = script.agents[t % script.agents.length];
      const start = a.feet.map(Math.floor);
      const r = await send({ type: 'request', profile, start, goal: a.goal, wait: true, toward: t % 2 === 1 });
      if (r.state === 'ready') ready += 1;
      await send({ type: 'reachable', profile, from: start, goal: a.goal });
      await send({ type: 'tick', dt: script.dt });
      if (script.checkpoints.includes(t + 1)) marks.push({ tick: t + 1, hash: (await send({ type: 'stateHash' })).hash });
    }
    assert.ok(ready > script.ticks / 2, `only ${ready} of ${script.ticks} waited requests were ready`);
    assert.deepEqual(marks, native.checkpoints);
    await send({ type: 'dispose' });
  });

  test('a bad script is refused with a message naming the field', { skip: nativeMissing }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voxnav-scenario-'));
    try {
      const bad = { ...script, edits: [{ tick: 5, cell: [1, 2], block: 'stone' }] };
      const file = path.join(dir, 'bad.json');
      fs.writeFileSync(file, JSON.stringify(bad));
      assert.throws(() => execFileSync(nativeCli, ['run', '--script', file], { stdio: 'pipe' }), (e) => {
        assert.equal(e.status, 2);
        assert.match(String(e.stderr), /edits\[0\]\.cell must be \[x, y, z\] integers/);
        return true;
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
