// The server worker: its pure message handlers (called directly), and the adapter running in a real
// worker thread. Real data: the arena Moving AI map as a voxel world, the real block registry.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const builds = ['sync', ...(h.hasThreadedBuild ? ['threaded'] : [])];

// A corridor waypoint cell ahead of the agent (not its goal) whose blocking keeps the map connected.
// (Waypoint cells are cells of the search path, which the engine watches for edits.)
function blockableCell(map, waypoints, from, avoid) {
  for (let i = Math.max(1, from); i < waypoints.length / 3 - 1; ++i) {
    const x = Math.floor(waypoints[3 * i]), z = Math.floor(waypoints[3 * i + 2]);
    if (avoid.some(([px, pz]) => Math.abs(px - x) + Math.abs(pz - z) <= 1)) continue;
    const edited = { ...map, passable: (px, py) => !(px === x && py === z) && map.passable(px, py) };
    if (h.components(edited).count === 1) return [x, z];
  }
  return null;
}

for (const build of builds) {
  describe(`worker handlers (${build} build)`, { skip }, () => {
    let handlers, pkg;
    before(async () => {
      handlers = await h.importPackage('worker/handlers.mjs');
      pkg = await h.importPackage();
    });

    test('init, load a real world, agents, ticks posting corridors and positions, an edit re-routes', async () => {
      const state = handlers.createState();
      const s = h.workerSession(handlers, state);
      await s.err({ type: 'tick' }, 'Busy', /send init first/);
      const { blocks, shapes } = h.registryFiles();
      const init = await s.ok({ type: 'init', build, blocksJson: blocks, shapesJson: shapes });
      assert.equal(init.build, build);
      assert.equal(init.threaded, build === 'threaded');
      assert.ok(init.blockCount > 20000);
      await s.err({ type: 'init', build }, 'Busy', /already has a world/);
      const { values: [stone, air] } = await s.ok({ type: 'blockValues', names: ['stone', 'air'] });
      assert.equal(air, 0);
      const map = h.readMovingAiMap('arena.map');
      const chunks = h.movingAiChunks(map, stone);
      assert.equal((await s.ok({ type: 'loadChunks', ...chunks })).chunks, chunks.positions.length / 3);
      const prof = await s.ok({ type: 'addProfile', profile: { id: 'zombie', class: 'walker', speed: { walk: 3 } } });
      assert.equal(prof.profile, state.world.findProfile('zombie'));  // a profile id of this World (voxnav/ids.h)
      assert.equal(typeof prof.warning, 'string');

      const rows = h.readScenario('arena.map').sort((a, b) => b.optimal - a.optimal).slice(0, 6);
      const { ids } = await s.ok({
        type: 'addAgents',
        agents: rows.map((r) => ({ profile: 'zombie', feet: [r.sx + 0.5, 1, r.sy + 0.5], goal: [r.gx, 1, r.gy] })),
      });
      assert.equal(ids.length, rows.length);

      // Tick until every agent has a corridor; each corridor is posted once per epoch.
      const corridors = new Map();
      let last = null;
      for (let t = 0; t < 5; ++t) {
        const before = s.posts.length;
        const r = await s.ok({ type: 'tick', dt: 0.05 });
        assert.equal(r.tick, t + 1);
        assert.equal(s.posts.length, before + 1);
        last = s.posts[s.posts.length - 1];
        assert.equal(last.type, 'tick');
        assert.equal(last.tick, t + 1);
        assert.ok(last.agents.ids instanceof Float64Array && last.agents.positions instanceof Float64Array);
        assert.ok(last.agents.modes instanceof Uint8Array);
        assert.deepEqual(Array.from(last.agents.ids), ids);
        assert.equal(last.agents.positions.length, 3 * ids.length);
        for (const c of last.corridors) {
          assert.ok(c.waypoints instanceof Float64Array && c.kinds instanceof Uint8Array);
          assert.equal(c.waypoints.length, 3 * c.kinds.length);
          assert.notEqual(corridors.get(c.agent)?.epoch, c.epoch, 'a corridor was posted twice for one epoch');
          corridors.set(c.agent, c);
        }
        const tl = handlers.transferList(last);
        assert.ok(tl.length >= 3 && tl.every((b) => b instanceof ArrayBuffer));
      }
      for (const id of ids) {
        const c = corridors.get(id);
        assert.ok(c && c.kinds.length >= 2, `agent ${id} has no corridor`);
      }
      assert.equal(last.corridors.length, 0, 'unchanged corridors were posted again');

      // Block a corridor waypoint ahead of an agent: its new corridor is posted by the next tick.
      let a0 = null, cell = null, oldEpoch = 0;
      for (let k = 0; k < ids.length && !cell; ++k) {
        const st = await s.ok({ type: 'agentState', agent: ids[k] });
        assert.equal(st.mode, 'moving');
        cell = blockableCell(map, corridors.get(ids[k]).waypoints, st.nextWaypoint,
          [[rows[k].gx, rows[k].gy], [Math.floor(st.feet[0]), Math.floor(st.feet[2])]]);
        a0 = ids[k];
        oldEpoch = corridors.get(ids[k]).epoch;
      }
      assert.ok(cell, 'no corridor cell to block');
      const epochBefore = last.navEpoch;
      await s.ok({ type: 'edit', edits: [{ min: [cell[0], 1, cell[1]], max: [cell[0], 4, cell[1]], value: stone }] });
      let rerouted = null;
      for (let t = 0; t < 4 && !rerouted; ++t) {
        await s.ok({ type: 'tick' });
        last = s.posts[s.posts.length - 1];
        rerouted = last.corridors.find((c) => c.agent === a0) ?? null;
      }
      assert.ok(last.navEpoch > epochBefore);
      assert.ok(rerouted, 'the blocked corridor was not re-posted');
      assert.notEqual(rerouted.epoch, oldEpoch);
      const cellsAfter = [];
      for (let i = 0; i < rerouted.waypoints.length; i += 3) cellsAfter.push(`${Math.floor(rerouted.waypoints[i])},${Math.floor(rerouted.waypoints[i + 2])}`);
      assert.ok(!cellsAfter.includes(`${cell[0]},${cell[1]}`), 'the new corridor still uses the blocked cell');

      // Everyone arrives; the stats say what happened.
      for (let t = 0; t < 40; ++t) await s.ok({ type: 'tick', count: 10 });
      last = s.posts[s.posts.length - 1];
      assert.deepEqual(Array.from(last.agents.modes).map((m) => pkg.AGENT_MODES[m]), ids.map(() => 'arrived'));
      const stats = await s.ok({ type: 'stats' });
      assert.equal(stats.build, build);
      assert.equal(stats.agents, ids.length);
      assert.equal(stats.ticks, state.ticks);
      // The blocked corridor was spliced around the edit (a short search on the main thread) or
      // planned again (one more request).
      const a0state = await s.ok({ type: 'agentState', agent: a0 });
      assert.ok(a0state.repairs + a0state.replans >= 1, JSON.stringify(a0state));
      assert.ok(stats.searches >= ids.length && stats.searchUsP50 > 0 && stats.meanTickMs > 0);
      // A search job takes one or more of an update's searches (docs/architecture.md).
      if (build === 'threaded') assert.ok(stats.threadJobs > 0 && stats.threadJobs <= stats.searches);

      // Removing agents is posted once.
      await s.ok({ type: 'removeAgents', ids: [ids[1], ids[2]] });
      await s.ok({ type: 'tick' });
      last = s.posts[s.posts.length - 1];
      assert.deepEqual(last.removed.sort(), [ids[1], ids[2]].sort());
      assert.equal(last.agents.ids.length, ids.length - 2);
      await s.ok({ type: 'dispose' });
      await s.err({ type: 'stats' }, 'Busy', /send init first/);
    });

    test('requests: posted with the tick that finishes them, or answered at once with wait', async () => {
      const state = handlers.createState();
      const s = h.workerSession(handlers, state);
      const { blocks, shapes } = h.registryFiles();
      await s.ok({ type: 'init', build, blocksJson: blocks, shapesJson: shapes });
      const { values: [stone] } = await s.ok({ type: 'blockValues', names: ['stone'] });
      await s.ok({ type: 'loadChunks', ...h.movingAiChunks(h.readMovingAiMap('den312d.map'), stone) });
      await s.ok({ type: 'addProfile', profile: '{"id": "walker"}' });
      const row = h.readScenario('den312d.map').at(-1);
      const start = [row.sx, 1, row.sy], goal = [row.gx, 1, row.gy];
      assert.equal((await s.ok({ type: 'reachable', profile: 'walker', from: start, goal })).answer, 'yes');

      const waited = await s.ok({ type: 'request', profile: 'walker', start, goal, wait: true });
      assert.equal(waited.state, 'ready');
      assert.ok(waited.waypoints instanceof Float64Array && waited.kinds instanceof Uint8Array);
      assert.deepEqual(Array.from(waited.waypoints.slice(-3)), [row.gx + 0.5, 1, row.gy + 0.5]);
      assert.equal(pkg.EDGE_KINDS[waited.kinds[0]], 'start');
      // wait makes no handle, runs no update and counts no search in the stats
      assert.equal(waited.handle, undefined);
      assert.equal((await s.ok({ type: 'stats' })).searches, 0);
      assert.equal(state.pending.length, 0);

      const { handle } = await s.ok({ type: 'request', profile: 'walker', start, goal });
      let found = null;
      for (let t = 0; t < 5 && !found; ++t) {
        await s.ok({ type: 'tick' });
        found = s.posts[s.posts.length - 1].paths.find((p) => p.handle === handle) ?? null;
      }
      assert.ok(found, 'the request result was not posted');
      assert.equal(found.state, 'ready');
      assert.deepEqual(Array.from(found.waypoints), Array.from(waited.waypoints));
      assert.equal(found.cost, waited.cost);
      await s.err({ type: 'release', handle }, 'StaleHandle', /^release: path/);
      await s.ok({ type: 'dispose' });
    });

    test('settings: streaming, build radius and search budget, checked first, read back', async () => {
      const state = handlers.createState();
      const s = h.workerSession(handlers, state);
      await s.err({ type: 'settings' }, 'Busy', /send init first/);
      const { blocks, shapes } = h.registryFiles();
      await s.ok({ type: 'init', build, blocksJson: blocks, shapesJson: shapes });
      const defaults = await s.ok({ type: 'settings' });
      assert.deepEqual(defaults, {
        chunkStreaming: false, chunkBuildRadius: 0, searchesPerUpdate: 256,  // kDefaultSearchesPerUpdate
        pendingChunkBuilds: 0, deferredChunkBuilds: 0, queuedRequests: 0,
      });
      // Bad values anywhere in the message: an error naming the field, and nothing set.
      await s.err({ type: 'settings', chunkStreaming: true, chunkBuildRadius: 33 }, 'InvalidArgument', /^settings: chunkBuildRadius must be an integer number of chunks in 0 \.\. 32 \(got 33\)/);
      await s.err({ type: 'settings', searchesPerUpdate: 1.5 }, 'InvalidArgument', /^settings: searchesPerUpdate .* 0 \.\. 4096/);
      await s.err({ type: 'settings', searchesPerUpdate: '2' }, 'InvalidArgument', /got string/);
      await s.err({ type: 'settings', chunkStreaming: 1 }, 'InvalidArgument', /^settings: chunkStreaming must be a boolean \(got number\)/);
      await s.err({ type: 'settings', radius: 2 }, 'InvalidArgument', /unknown field 'radius'/);
      assert.deepEqual(await s.ok({ type: 'settings' }), defaults);

      // The search budget holds requests back: one search per update on a real map.
      const { values: [stone] } = await s.ok({ type: 'blockValues', names: ['stone'] });
      await s.ok({ type: 'loadChunks', ...h.movingAiChunks(h.readMovingAiMap('den312d.map'), stone) });
      await s.ok({ type: 'addProfile', profile: '{"id": "walker"}' });
      const set = await s.ok({ type: 'settings', chunkStreaming: true, chunkBuildRadius: 2, searchesPerUpdate: 1 });
      assert.equal(set.chunkStreaming, true);
      assert.equal(set.chunkBuildRadius, 2);
      assert.equal(set.searchesPerUpdate, 1);
      const rows = h.readScenario('den312d.map').slice(-3);
      const handles = [];
      for (const row of rows)
        handles.push((await s.ok({ type: 'request', profile: 'walker', start: [row.sx, 1, row.sy], goal: [row.gx, 1, row.gy] })).handle);
      assert.equal((await s.ok({ type: 'settings' })).queuedRequests, 3);
      const done = new Map();
      for (let t = 1; t <= 4; ++t) {
        await s.ok({ type: 'tick' });
        for (const p of s.posts[s.posts.length - 1].paths) done.set(p.handle, t);
        assert.equal((await s.ok({ type: 'settings' })).queuedRequests, Math.max(0, 3 - t));
      }
      // Dispatched one per update in request order, each delivered at the next update.
      assert.deepEqual(handles.map((hd) => done.get(hd)), [2, 3, 4]);
      await s.ok({ type: 'dispose' });
    });

    test('bad messages get { id, error } and leave the world unchanged', async () => {
      const state = handlers.createState();
      const s = h.workerSession(handlers, state);
      const { blocks, shapes } = h.registryFiles();
      await s.ok({ type: 'init', build, blocksJson: blocks, shapesJson: shapes });
      const { values: [stone] } = await s.ok({ type: 'blockValues', names: ['stone'] });
      await s.ok({ type: 'loadChunks', ...h.movingAiChunks(h.readMovingAiMap('arena.map'), stone) });
      await s.ok({ type: 'addProfile', profile: { id: 'walker' } });
      const { ids: [agent] } = await s.ok({ type: 'addAgents', agents: [{ profile: 'walker', feet: [20.5, 1, 20.5] }] });
      await s.ok({ type: 'tick' });
      const snapshot = async () => {
        const st = await s.ok({ type: 'stats' });
        const a = await s.ok({ type: 'agentState', agent });
        const reach = await s.ok({ type: 'reachable', profile: 'walker', from: [20, 1, 20], goal: [25, 1, 25] });
        return JSON.stringify({ e: st.navEpoch, i: st.islands, n: st.agents, s: st.searches, a, reach });
      };
      const unchanged = async (msg, status, re) => {
        const b = await snapshot();
        await s.err(msg, status, re);
        await s.ok({ type: 'tick' });  // an idle agent on the floor: a tick changes nothing by itself
        assert.equal(await snapshot(), b, `${msg.type} changed the world`);
      };

      await unchanged({ type: 'loadChunks', positions: Int32Array.of(9, 0, 9), values: new Uint16Array(4095) },
        'InvalidArgument', /^loadChunks: values has 4095 entries, expected 4096/);
      await unchanged({ type: 'loadChunks', positions: [9, 0, 9], values: new Uint16Array(4096) },
        'InvalidArgument', /positions must be an Int32Array \(got Array\)/);
      await unchanged({ type: 'addProfile', profile: { id: 'boar', speed: { walk: 3, fly: 9 } } },
        'BadFormat', /profile "boar": field "speed.fly"/);
      await unchanged({ type: 'release', handle: 2097152 * 7 + 3 }, 'InvalidArgument', /^release: path 14680067 is a profile id, not a path handle$/);
      await unchanged({ type: 'edit', cell: [1 << 25, 1, 0], value: stone }, 'OutOfRange', /^edit: cell \(33554432, 1, 0\) is out of range/);
      await unchanged({ type: 'edit', edits: [{ cell: [3, 1, 3], value: 1 << 20 }] }, 'OutOfRange', /^edit: edits\[0\]\.value 1048576/);
      await unchanged({ type: 'edit', min: [0, 0, 0], max: [100, 3, 100], value: stone }, 'NotLoaded', /not loaded/);
      await unchanged({ type: 'addAgents', agents: [{ profile: 'walker', feet: [5.5, 1, 5.5] }, { profile: 'walker', feet: [NaN, 1, 1] }] },
        'InvalidArgument', /^addAgents: agents\[1\]\.feet \(NaN, 1, 1\) is not finite/);
      await unchanged({ type: 'addAgents', agents: [{ profile: 'walker', feet: [5.5, 1, 5.5], goal: [1.5, 1, 1] }] },
        'InvalidArgument', /^addAgents: agents\[0\]\.goal \(1\.5, 1, 1\) is not a cell \(integers expected\)/);
      await unchanged({ type: 'addAgents', agents: [{ profile: 'nobody', feet: [5.5, 1, 5.5] }] }, 'NotFound',
        /^addAgents: agents\[0\]\.profile: unknown profile "nobody"/);
      await unchanged({ type: 'setGoals', goals: [{ agent, goal: [30, 1, 30] }, { agent, goal: [0, 1 << 21, 0] }] },
        'OutOfRange', /^setGoals: goals\[1\]\.goal .* out of range/);
      await unchanged({ type: 'removeAgents', ids: [agent, agent + 4] }, 'StaleHandle', /^removeAgents: ids\[1\]: agent \d+ is not a live agent/);
      await unchanged({ type: 'request', profile: 'walker', start: [20, 1, 20], goal: [20, 1, 1 << 25] }, 'OutOfRange', /^request: goal/);
      await unchanged({ type: 'tick', dt: -1 }, 'InvalidArgument', /^tick: dt -1/);
      await unchanged({ type: 'tick', count: 0 }, 'InvalidArgument', /count 0/);
      await unchanged({ type: 'fly' }, 'InvalidArgument', /unknown message type 'fly'/);
      await unchanged({ type: 'loadBlocks', blocksJson: blocks, shapesJson: shapes }, 'Busy', /chunks are already loaded/);

      const noId = await handlers.handle(state, { type: 'stats' });
      assert.deepEqual(noId.reply.id, null);
      assert.equal(noId.reply.error.status, 'InvalidArgument');
      const notObject = await handlers.handle(state, 42);
      assert.equal(notObject.reply.error.status, 'InvalidArgument');
      await s.ok({ type: 'dispose' });
    });
  });
}

test('the adapter runs the handlers in a worker thread and transfers typed arrays', { skip }, async () => {
  const worker = new Worker(path.join(h.packageDir(), 'worker/index.mjs'));
  const inbox = [];
  const waiting = new Map();
  worker.on('message', (m) => {
    if (m && m.type === 'tick') inbox.push(m);
    else if (waiting.has(m.id)) waiting.get(m.id)(m);
  });
  let next = 1;
  const call = (msg, transfer = []) => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    worker.postMessage({ id, ...msg }, transfer);
  });
  try {
    const { blocks, shapes } = h.registryFiles();
    const init = await call({ type: 'init', blocksJson: new Uint8Array(blocks), shapesJson: new Uint8Array(shapes) });
    assert.equal(init.ok.build, 'sync');
    const stone = (await call({ type: 'blockValues', names: ['stone'] })).ok.values[0];
    const chunks = h.movingAiChunks(h.readMovingAiMap('arena.map'), stone);
    const loaded = await call({ type: 'loadChunks', ...chunks }, [chunks.positions.buffer, chunks.values.buffer]);
    assert.ok(loaded.ok, JSON.stringify(loaded.error));
    assert.equal(chunks.values.length, 0, 'the chunk values were not transferred');
    await call({ type: 'addProfile', profile: { id: 'walker' } });
    const row = h.readScenario('arena.map').at(-1);
    const added = await call({ type: 'addAgents', agents: [{ profile: 'walker', feet: [row.sx + 0.5, 1, row.sy + 0.5], goal: [row.gx, 1, row.gy] }] });
    assert.equal(added.ok.ids.length, 1);
    const ticked = await call({ type: 'tick', count: 3 });
    assert.equal(ticked.ok.tick, 3);
    assert.equal(inbox.length, 1, 'the tick post must arrive before the reply');
    const post = inbox[0];
    assert.ok(post.agents.positions instanceof Float64Array);
    assert.equal(post.corridors.length, 1);
    assert.ok(post.corridors[0].waypoints instanceof Float64Array && post.corridors[0].kinds instanceof Uint8Array);
    const bad = await call({ type: 'loadChunks', positions: Int32Array.of(9, 0, 9), values: new Uint16Array(4095) });
    assert.equal(bad.error.status, 'InvalidArgument');
    assert.match(bad.error.message, /values has 4095 entries, expected 4096/);
  } finally {
    await worker.terminate();
  }
});
