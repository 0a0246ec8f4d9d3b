// The server worker's message handlers under hostile input (issue 16): a seeded generator sends
// thousands of random and mutated messages (wrong types, NaN, huge numbers, missing and extra
// fields, sparse arrays, nested junk), each passed through structuredClone as postMessage would,
// with valid messages in between, to the pure handlers of web/worker/handlers.mjs. Checked for
// every message: handle() resolves with one reply for the message's id; an error reply is
// structured ({ status: a status name, function: the message type, argument, message }); after a
// refused message the world is unchanged (state hash, agents, blocks); valid messages keep
// working. The seed is printed on failure (VOXNAV_FUZZ_SEED reruns one).
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const SEED = Number(process.env.VOXNAV_FUZZ_SEED ?? 0x5eed16);
const MESSAGES = Number(process.env.VOXNAV_FUZZ_MESSAGES ?? 3000);

// mulberry32: a small seeded generator (the same messages every run).
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p };
}

// Values a host might send by mistake (all survive structuredClone).
function junkPool(r) {
  const sparse = [, 1, , 3];  // eslint-disable-line no-sparse-arrays
  const holes = new Array(3);
  const scalars = [
    NaN, Infinity, -Infinity, -0, 0, 1, -1, 3, 0.5, 1e308, -1e308, 2 ** 31, -(2 ** 31) - 1, 2 ** 32,
    2 ** 53, Number.MAX_SAFE_INTEGER + 2, 4096, 65536, '', 'x', '0', 'stone', 'zombie', 'NaN', '[1,2,3]',
    'a'.repeat(5000), null, undefined, true, false, 10n,
  ];
  const objects = () => [
    {}, [], [NaN, 0, 0], [0, 0], [0, 0, 0, 0], ['1', '2', '3'], [1e308, -1e308, 0], sparse, holes,
    { x: 1, y: 2 }, { x: NaN, y: 0, z: 0 }, { length: 3, 0: 1, 1: 2, 2: 3 }, { length: 1e9 },
    { a: { b: [{ c: [null, {}] }] } }, [[1, 2, 3]], [{}], [[]], [null], new Int32Array([1, 2]),
    new Int32Array(3), new Float64Array([NaN, NaN, NaN]), new Uint16Array(5), new Uint8Array(7),
    new Uint16Array(4096), new Float32Array(3), new ArrayBuffer(8), new Date(0), new Map([[1, 2]]),
    new Set([1]), /x/, { id: 1, type: 'tick' }, { profile: 'zombie', feet: [1, 1, 1] },
    { min: [0, 0, 0], max: [1e9, 0, 0], value: 1 }, { cell: [0, 1, 0], value: 1e9 },
    Array.from({ length: 3 }, () => r.next() * 1e6 - 5e5),
  ];
  return { scalars, objects };
}

describe('worker message handlers under random and mutated messages', { skip }, () => {
  let handlers, pkg;
  before(async () => {
    handlers = await h.importPackage('worker/handlers.mjs');
    pkg = await h.importPackage();
  });

  test(`${MESSAGES} seeded messages (seed ${SEED}): structured errors, nothing changed on refusal`, { timeout: 60000 }, async () => {
    const r = rng(SEED);
    const junk = junkPool(r);
    const state = handlers.createState();
    let nextId = 1;
    const send = async (msg) => handlers.handle(state, structuredClone(msg));
    const must = async (msg) => {
      const { reply } = await send({ id: nextId++, ...msg });
      assert.ok(!reply.error, `${msg.type}: ${JSON.stringify(reply.error)}`);
      return reply.ok;
    };

    // A small world: the real registry, a 48 x 48 stone floor (3 x 3 chunks, air above), a
    // walker profile, three agents with goals.
    const { blocks, shapes } = h.registryFiles();
    await must({ type: 'init', build: 'sync', blocksJson: blocks, shapesJson: shapes });
    const { values: [stone, glass] } = await must({ type: 'blockValues', names: ['stone', 'glass'] });
    const n = 18;
    const positions = new Int32Array(3 * n);
    const values = new Uint16Array(4096 * n);
    let k = 0;
    for (let cz = 0; cz < 3; ++cz) {
      for (let cx = 0; cx < 3; ++cx) {
        positions.set([cx, 0, cz], 3 * k);
        for (let i = 0; i < 256; ++i) values[4096 * k + i] = stone;  // y = 0
        ++k;
        positions.set([cx, 1, cz], 3 * k++);
      }
    }
    await must({ type: 'loadChunks', positions, values });
    await must({ type: 'addProfile', profile: { id: 'zombie', class: 'walker', speed: { walk: 3 } } });
    await must({ type: 'defineArea', name: 'road', blocks: ['glass'], cost: 2 });
    const { ids } = await must({
      type: 'addAgents',
      agents: [
        { profile: 'zombie', feet: [2.5, 1, 2.5], goal: [40, 1, 40] },
        { profile: 'zombie', feet: [40.5, 1, 3.5], goal: [3, 1, 44] },
        { profile: 'zombie', feet: [20.5, 1, 20.5] },
      ],
    });
    await must({ type: 'tick', count: 3 });

    const world = () => state.world;
    // What a refused message must not change.
    const fingerprint = () => {
      const w = world();
      const s = w.agentsSnapshot();
      const tops = w.topBlocks([0, 0, 0], [47, 31, 47]);
      let sum = 0;
      for (let i = 0; i < tops.heights.length; ++i) sum = (sum * 31 + tops.heights[i] * 7 + tops.values[i]) >>> 0;
      return JSON.stringify({
        hash: w.stateHash(), ids: Array.from(s.ids), pos: Array.from(s.positions), modes: Array.from(s.modes),
        epochs: Array.from(s.corridorEpochs), blocks: sum, areas: w.findArea('road'),
        pending: state.pending.length,
      });
    };

    const cell = () => [r.int(48), 1, r.int(48)];
    // Valid messages of every type the fuzzer sends (a few change the world on purpose).
    const valid = () => {
      const live = Array.from(world().agentsSnapshot().ids);
      const agent = live.length ? r.pick(live) : null;
      const kind = r.int(14);
      if (agent === null && [1, 6, 7].includes(kind)) return { type: 'stats' };
      switch (kind) {
        case 0: return { type: 'tick', dt: 0.05, count: 1 + r.int(2) };
        case 1: return { type: 'agentState', agent };
        case 2: return { type: 'reachable', profile: 'zombie', from: cell(), goal: cell() };
        case 3: return { type: 'request', profile: 'zombie', start: cell(), goal: cell(), wait: r.chance(0.5) };
        case 4: return { type: 'edit', cell: [r.int(48), 0, r.int(48)], value: r.chance(0.5) ? stone : glass };
        case 5: return { type: 'edit', edits: [{ min: [0, 0, 0], max: [r.int(48), 0, r.int(48)], value: stone }] };
        case 6: return { type: 'setGoals', goals: [{ agent, goal: cell() }] };
        case 7: return { type: 'teleportAgents', agents: [{ agent, feet: [r.int(48) + 0.5, 1, r.int(48) + 0.5] }] };
        case 8: return { type: 'stats' };
        case 9: return { type: 'stateHash' };
        case 10: return { type: 'topBlocks', min: [0, 0, 0], max: [15, 20, 15] };
        case 11: return { type: 'settings', searchesPerUpdate: r.int(4) };
        case 12: return { type: 'blockValues', names: ['stone', 'oak_door[open=true]'] };
        default: return { type: 'findArea', name: 'road' };
      }
    };
    // Templates of every message type, to mutate (dispose is sent once, at the end).
    const templates = () => [
      ...Array.from({ length: 6 }, valid),
      { type: 'init', build: 'sync' },
      { type: 'loadBlocks', blocksJson: '[]', shapesJson: '{}' },
      { type: 'addProfile', profile: { id: 'p' + r.int(3), class: 'walker' } },
      { type: 'defineArea', name: 'a' + r.int(40), blocks: ['stone'], cost: 1 },
      { type: 'loadRegion', bytes: new Uint8Array(8192) },
      { type: 'loadChunks', positions: new Int32Array([5, 0, 5]), values: new Uint16Array(4096) },
      { type: 'unloadChunks', positions: new Int32Array([9, 9, 9]) },
      { type: 'setDoorOpen', cell: cell(), open: true },
      { type: 'addAgents', agents: [{ profile: 'zombie', feet: [1e9, 1, 0] }] },
      { type: 'removeAgents', ids: [r.pick(ids), -1] },
      { type: 'release', handle: r.int(100) },
      { type: 'edit', edits: [{ cell: cell(), value: stone }, { min: [0, 0, 0], max: [2 ** 24, 0, 0], value: stone }] },
      { type: 'edit', min: [-(2 ** 25) + 1, 0, 0], max: [2 ** 25 - 1, 0, 0], value: stone },
      { type: 'request', profile: 'zombie', start: cell(), goal: cell(), filter: { road: { multiplier: 0.5 } } },
    ];
    const mutate = (msg) => {
      const m = { ...msg };
      const keys = Object.keys(m).filter((key) => key !== 'type');
      const steps = 1 + r.int(3);
      for (let s = 0; s < steps; ++s) {
        const key = keys.length ? r.pick(keys) : 'x';
        const value = r.chance(0.5) ? r.pick(junk.scalars) : r.pick(junk.objects());
        switch (r.int(7)) {
          case 0: delete m[key]; break;
          case 1: m['extra' + r.int(3)] = value; break;
          case 2: m.type = r.pick([...handlers.MESSAGE_TYPES.filter((t) => t !== 'dispose'), 'nope', '', 'constructor', '__proto__', 'toString']); break;
          case 3: m.id = r.pick([null, undefined, 0, 'x', NaN, {}]); break;
          case 4: if (Array.isArray(m[key]) && m[key].length) {  // inside a list: one entry replaced
            const list = [...m[key]];
            const i = r.int(list.length);
            list[i] = list[i] && typeof list[i] === 'object' && !ArrayBuffer.isView(list[i]) && r.chance(0.6)
              ? { ...list[i], [r.pick(Object.keys(list[i]).concat('x'))]: value } : value;
            m[key] = list;
            break;
          }
          // falls through
          default: m[key] = value;
        }
      }
      return m;
    };

    let refused = 0, accepted = 0, validAfterJunk = 0;
    const statusNames = new Set(pkg.STATUS_NAMES.filter((s) => s !== 'Ok'));
    for (let i = 0; i < MESSAGES; ++i) {
      const isValid = i % 10 === 9;
      let msg;
      if (isValid) msg = { id: nextId++, ...valid() };
      else if (r.chance(0.05)) msg = r.pick([null, 7, 'tick', [], [{ type: 'tick' }], { id: 1 }, { type: 'tick' }]);
      else msg = mutate({ id: nextId++, ...r.pick(templates()) });
      const before = fingerprint();
      let out;
      try {
        out = await send(msg);
      } catch (e) {
        assert.fail(`message ${i} (seed ${SEED}) made handle() reject: ${e?.stack ?? e}\n${describeMsg(msg)}`);
      }
      const { reply } = out;
      const where = `message ${i} (seed ${SEED}): ${describeMsg(msg)} -> ${describeMsg(reply)}`;
      assert.ok(reply && ('ok' in reply) !== ('error' in reply), where);
      const id = msg && typeof msg === 'object' && !Array.isArray(msg) ? msg.id : undefined;
      if (id !== undefined && id !== null) assert.deepEqual(reply.id, id, where);
      if (reply.error) {
        ++refused;
        const e = reply.error;
        assert.ok(statusNames.has(e.status), `unknown status: ${where}`);
        for (const f of ['message', 'function', 'argument']) assert.equal(typeof e[f], 'string', `${f}: ${where}`);
        assert.ok(e.message.length > 0, where);
        const known = msg && typeof msg === 'object' && handlers.MESSAGE_TYPES.includes(msg.type);
        if (known) {
          assert.equal(e.function, msg.type, `function: ${where}`);
          assert.ok(e.message.startsWith(`${msg.type}: `), `message: ${where}`);
        }
        assert.equal(fingerprint(), before, `a refused message changed the world: ${where}`);
        if (isValid) assert.fail(`a valid message was refused: ${where}`);
      } else {
        ++accepted;
        if (isValid) ++validAfterJunk;
        // Junk that happened to be a valid unload or load (e.g. positions [0, 0, 0]): the floor
        // comes back, so that the valid messages keep their meaning.
        const floorLoaded = () => {
          for (let c = 0; c < n; ++c) {
            try {
              world().getBlock([16 * positions[3 * c], 16 * positions[3 * c + 1], 16 * positions[3 * c + 2]]);
            } catch {
              return false;
            }
          }
          return true;
        };
        if (!floorLoaded()) {
          await must({ type: 'loadChunks', positions, values });
        }
      }
    }
    assert.ok(refused > MESSAGES / 2, `${refused} refused`);
    assert.ok(accepted > MESSAGES / 10, `${accepted} accepted`);
    assert.equal(validAfterJunk, Math.floor(MESSAGES / 10));
    // The world still works as a whole: agents walk, the hash is comparable.
    await must({ type: 'setGoals', goals: [{ agent: ids[0], goal: [45, 1, 45] }] });
    await must({ type: 'tick', count: 5 });
    assert.match((await must({ type: 'stateHash' })).hash, /^[0-9a-f]{16}$/);
    await must({ type: 'dispose' });
  });
});

function describeMsg(m) {
  try {
    return JSON.stringify(m, (k, v) => (typeof v === 'bigint' ? `${v}n`
      : ArrayBuffer.isView(v) ? `${v.constructor.name}(${v.length})` : Number.isNaN(v) ? 'NaN' : v)).slice(0, 400);
  } catch {
    return String(m);
  }
}
