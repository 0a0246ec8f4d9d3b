// voxnav server worker - pure message handlers (no Worker globals: testable in Node).
//
//   const state = createState();
//   const { reply, posts } = await handle(state, { id: 1, type: 'init' });
//
// Every message is { id, type, ... } and gets exactly one reply: { id, ok: result } or
// { id, error: { status, message } }. `posts` are extra messages to send before the reply (the tick
// updates). The state owns every wasm object: callers never call .delete(). Typed arrays in
// replies and posts are fresh copies: transfer them (transferList()).
import { load, VoxnavError } from '../index.mjs';

/** Message types handled, in the order a host usually sends them. */
export const MESSAGE_TYPES = Object.freeze([
  'init', 'loadBlocks', 'blockValues', 'addProfile', 'loadRegion', 'loadChunks', 'unloadChunks', 'edit',
  'addAgents', 'removeAgents', 'setGoals', 'teleportAgents', 'agentState', 'reachable', 'request',
  'release', 'tick', 'stats', 'topBlocks', 'stateHash', 'dispose',
]);

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function invalid(message) {
  return new VoxnavError('InvalidArgument', message);
}

function list(fn, name, v) {
  if (!Array.isArray(v)) throw invalid(`${fn}: ${name} must be an array`);
  return v;
}

/** A fresh worker state (no library loaded yet). */
export function createState() {
  return {
    lib: null,
    world: null,
    ticks: 0,
    lastTickMs: 0,
    tickMsTotal: 0,
    posted: new Map(),   // agent id -> corridor epoch last posted
    pending: [],         // path handles whose result is posted by a later tick
  };
}

function world(state, fn) {
  if (!state.world) throw new VoxnavError('Busy', `${fn}: the worker has no world yet; send init first`);
  return state.world;
}

function profileOf(w, fn, p) {
  if (typeof p === 'string') return w.findProfile(p);
  if (typeof p === 'number') return p;
  throw invalid(`${fn}: profile must be a profile id (number) or name (string)`);
}

const H_MAX = 1 << 25;
const V_MAX = 1 << 20;
/** The cell rule of the C++ API (integers, |x|, |z| < 2^25, |y| < 2^20), for checks before a batch. */
function checkCell(fn, name, c) {
  const v = Array.isArray(c) ? c : c && typeof c === 'object' ? [c.x, c.y, c.z] : null;
  if (!v || v.length !== 3 || !v.every(Number.isInteger))
    throw invalid(`${fn}: ${name} must be an integer cell [x, y, z]`);
  if (Math.abs(v[0]) >= H_MAX || Math.abs(v[2]) >= H_MAX || Math.abs(v[1]) >= V_MAX)
    throw new VoxnavError('OutOfRange', `${fn}: ${name} (${v.join(', ')}) is out of range (|x|, |z| < 2^25, |y| < 2^20)`);
  return v;
}

function pathResult(w, handle) {
  const st = w.status(handle);
  const out = { handle, ...st };
  if (st.state === 'ready') {
    const c = w.corridor(handle);
    out.waypoints = Float32Array.from(c.positions);
    out.kinds = c.kinds;
  }
  return out;
}

/** The per-tick update: agent positions, corridors whose epoch changed, removed agents, paths. */
function tickPost(state) {
  const w = state.world;
  const snap = w.agentsSnapshot();
  const corridors = [];
  const alive = new Set();
  for (let i = 0; i < snap.count; ++i) {
    const id = snap.ids[i];
    const epoch = snap.corridorEpochs[i];
    alive.add(id);
    if (state.posted.get(id) === epoch) continue;
    const c = w.agentCorridor(id);
    corridors.push({ agent: id, epoch, waypoints: Float32Array.from(c.positions), kinds: c.kinds });
    state.posted.set(id, epoch);
  }
  const removed = [];
  for (const id of state.posted.keys()) {
    if (!alive.has(id)) removed.push(id);
  }
  for (const id of removed) state.posted.delete(id);
  const paths = [];
  const still = [];
  for (const h of state.pending) {
    const r = pathResult(w, h);
    if (r.state === 'searching') {
      still.push(h);
    } else {
      paths.push(r);
      w.release(h);
    }
  }
  state.pending = still;
  return {
    type: 'tick',
    tick: state.ticks,
    navEpoch: w.navEpoch,
    agents: { ids: snap.ids, positions: snap.positions, modes: snap.modes },
    corridors,
    removed,
    paths,
  };
}

const handlers = {
  /** { build?, wasmUrl?, wasmBinary?, lockstepDelay?, blocksJson?, shapesJson? } */
  async init(state, msg) {
    if (state.world) throw new VoxnavError('Busy', 'init: the worker already has a world; send dispose first');
    const lib = state.lib && (msg.build === undefined || msg.build === state.lib.build) && !msg.wasmBinary && !msg.wasmUrl
      ? state.lib
      : await load({ build: msg.build, wasmUrl: msg.wasmUrl, wasmBinary: msg.wasmBinary });
    const w = lib.createWorld({ lockstepDelay: msg.lockstepDelay ?? 0 });
    try {
      if (msg.blocksJson !== undefined || msg.shapesJson !== undefined) w.loadMinecraftBlocks(msg.blocksJson, msg.shapesJson);
    } catch (e) {
      w.dispose();
      throw e;
    }
    Object.assign(state, createState(), { lib, world: w });
    return { build: lib.build, threaded: w.threaded, blockCount: w.blockCount };
  },

  /** { blocksJson, shapesJson } (strings or bytes of minecraft-data's JSON files) */
  loadBlocks(state, msg) {
    const w = world(state, 'loadBlocks');
    w.loadMinecraftBlocks(msg.blocksJson, msg.shapesJson);
    return { blockCount: w.blockCount };
  },

  /** { names: ["stone", "oak_slab[type=bottom]", ...] } */
  blockValues(state, msg) {
    const w = world(state, 'blockValues');
    return { values: list('blockValues', 'names', msg.names).map((n) => w.blockValue(n)) };
  },

  /** { profile: JSON string or object, source? } */
  addProfile(state, msg) {
    const w = world(state, 'addProfile');
    const id = w.addProfile(msg.profile, msg.source ?? '');
    return { profile: id, warning: w.lastProfileWarning };
  },

  /**
   * { bytes: a region file (.mca), skipEmptyProtoChunks?, fullChunksOnly? }: all or none, decoded
   * by the engine like the native loader; navigation is updated before the reply.
   */
  async loadRegion(state, msg) {
    const w = world(state, 'loadRegion');
    const report = await w.loadRegion(msg.bytes, {
      skipEmptyProtoChunks: msg.skipEmptyProtoChunks ?? true, fullChunksOnly: !!msg.fullChunksOnly,
    });
    w.update();
    return { ...report, navEpoch: w.navEpoch };
  },

  /**
   * { positions: Int32Array (3 per chunk), values: Uint16Array (4096 per chunk) }: all or none.
   * Navigation is brought up to date before the reply, so queries and goals sent after it see the
   * chunks (edits, by contrast, are picked up by the next tick).
   */
  loadChunks(state, msg) {
    const w = world(state, 'loadChunks');
    w.loadChunks(msg.positions, msg.values);
    w.update();
    return { chunks: msg.positions.length / 3, navEpoch: w.navEpoch };
  },

  /** { positions: Int32Array }: every chunk must be loaded; navigation is updated as for loadChunks. */
  unloadChunks(state, msg) {
    const w = world(state, 'unloadChunks');
    w.unloadChunks(msg.positions);
    w.update();
    return { chunks: msg.positions.length / 3, navEpoch: w.navEpoch };
  },

  /**
   * { edits: [{ cell, value } | { min, max, value }, ...] } or one edit inline. Edits apply in
   * order; the first failing one stops the batch (the reply's message says how many applied).
   */
  edit(state, msg) {
    const w = world(state, 'edit');
    const edits = msg.edits !== undefined ? list('edit', 'edits', msg.edits) : [msg];
    for (let i = 0; i < edits.length; ++i) {
      const e = edits[i];
      try {
        if (!e || typeof e !== 'object') throw invalid('edit: an edit must be { cell, value } or { min, max, value }');
        if (e.cell !== undefined) w.setBlock(e.cell, e.value);
        else if (e.min !== undefined || e.max !== undefined) w.setBox(e.min, e.max, e.value);
        else throw invalid('edit: an edit needs cell, or min and max');
      } catch (err) {
        if (!(err instanceof VoxnavError) || edits.length === 1) throw err;
        throw new VoxnavError(err.status, `edit: edits[${i}]: ${err.message} (${i} of ${edits.length} applied)`);
      }
    }
    return { applied: edits.length };
  },

  /** { agents: [{ profile, feet: [x, y, z], goal?: [x, y, z] }] } -> { ids }: all or none. */
  addAgents(state, msg) {
    const w = world(state, 'addAgents');
    const defs = list('addAgents', 'agents', msg.agents);
    const ids = [];
    try {
      defs.forEach((d, i) => {
        if (!d || typeof d !== 'object') throw invalid(`addAgents: agents[${i}] must be { profile, feet, goal? }`);
        if (d.goal !== undefined) checkCell('addAgents', `agents[${i}].goal`, d.goal);
        ids.push(w.addAgent(profileOf(w, 'addAgents', d.profile), d.feet));
      });
      defs.forEach((d, i) => {
        if (d.goal !== undefined) w.setAgentGoal(ids[i], d.goal);
      });
    } catch (e) {
      for (const id of ids) w.removeAgent(id);
      throw e;
    }
    return { ids };
  },

  /** { ids: [agent, ...] }: every id must be live (checked first). */
  removeAgents(state, msg) {
    const w = world(state, 'removeAgents');
    const ids = list('removeAgents', 'ids', msg.ids);
    for (const id of ids) w.agentState(id);
    for (const id of ids) w.removeAgent(id);
    return { removed: ids.length };
  },

  /** { goals: [{ agent, goal: [x, y, z] }] }: checked first, then applied. */
  setGoals(state, msg) {
    const w = world(state, 'setGoals');
    const goals = list('setGoals', 'goals', msg.goals);
    goals.forEach((g, i) => {
      if (!g || typeof g !== 'object') throw invalid(`setGoals: goals[${i}] must be { agent, goal }`);
      w.agentState(g.agent);
      checkCell('setGoals', `goals[${i}].goal`, g.goal);
    });
    for (const g of goals) w.setAgentGoal(g.agent, g.goal);
    return { set: goals.length };
  },

  /** { agents: [{ agent, feet }] } */
  teleportAgents(state, msg) {
    const w = world(state, 'teleportAgents');
    const moves = list('teleportAgents', 'agents', msg.agents);
    for (const m of moves) w.agentState(m && m.agent);
    for (const m of moves) w.teleportAgent(m.agent, m.feet);
    return { moved: moves.length };
  },

  /** { agent } -> the agent's state and reason */
  agentState(state, msg) {
    const w = world(state, 'agentState');
    return { ...w.agentState(msg.agent), reason: w.agentReason(msg.agent) };
  },

  /** { profile, from, goal } -> { answer, reason, epoch } */
  reachable(state, msg) {
    const w = world(state, 'reachable');
    return w.reachable(profileOf(w, 'reachable', msg.profile), msg.from, msg.goal);
  },

  /**
   * { profile, start, goal, range?, toward?, wait? }. Without wait: { handle }, and the result is
   * posted with the tick that finishes it (then released). With wait: true the worker updates
   * navigation until the search is done and replies with the result ({ state, waypoints, kinds, ... }).
   */
  request(state, msg) {
    const w = world(state, 'request');
    const h = w.request(profileOf(w, 'request', msg.profile), msg.start, msg.goal,
      { range: msg.range ?? 0, toward: !!msg.toward });
    if (!msg.wait) {
      state.pending.push(h);
      return { handle: h };
    }
    try {
      for (let i = 0; i < 1000 && w.status(h).state === 'searching'; ++i) w.update();
      return pathResult(w, h);
    } finally {
      w.release(h);
    }
  },

  /** { handle }: drops a pending request. */
  release(state, msg) {
    const w = world(state, 'release');
    w.release(msg.handle);
    state.pending = state.pending.filter((h) => h !== msg.handle);
    return {};
  },

  /** { dt? = 0.05, count? = 1 }: runs the ticks, then posts one 'tick' update. */
  tick(state, msg, posts) {
    const w = world(state, 'tick');
    const dt = msg.dt ?? 0.05;
    const count = msg.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 10000) throw invalid(`tick: count ${count} is not an integer in 1 .. 10000`);
    const t0 = now();
    for (let i = 0; i < count; ++i) {
      w.tick(dt);
      state.ticks += 1;
    }
    const ms = now() - t0;
    state.lastTickMs = ms / count;
    state.tickMsTotal += ms;
    const post = tickPost(state);
    posts.push(post);
    return { tick: state.ticks, tickMs: state.lastTickMs, corridors: post.corridors.length };
  },

  /** -> world stats, build, ticks, tick time, search time percentiles */
  stats(state) {
    const w = world(state, 'stats');
    const s = w.stats();
    const times = w.searchTimesUs().sort();
    const pct = (p) => (times.length ? times[Math.min(times.length - 1, Math.floor(p * times.length))] : 0);
    return {
      ...s,
      build: state.lib.build,
      threaded: w.threaded,
      ticks: state.ticks,
      lastTickMs: state.lastTickMs,
      meanTickMs: state.ticks ? state.tickMsTotal / state.ticks : 0,
      searchUsP50: pct(0.5),
      searchUsP99: pct(0.99),
      navEpoch: w.navEpoch,
      pendingRequests: state.pending.length,
    };
  },

  /**
   * { min: [x, y, z], max: [x, y, z] } -> { width, heights: Int32Array, values: Uint16Array }:
   * the highest non-air block of each column (for a map); see World.topBlocks.
   */
  topBlocks(state, msg) {
    const w = world(state, 'topBlocks');
    return w.topBlocks(msg.min, msg.max);
  },

  /** -> { hash, agents, tick }: World.stateHash() (16 hex digits), comparable with the native one. */
  stateHash(state) {
    const w = world(state, 'stateHash');
    return { hash: w.stateHash(), agents: w.stats().agents, tick: state.ticks };
  },

  /** Frees the world (the library stays loaded for a later init). */
  dispose(state) {
    if (state.world) state.world.dispose();
    Object.assign(state, createState(), { lib: state.lib });
    return {};
  },
};

/**
 * Handles one message. Resolves to { reply, posts }; never rejects (errors become
 * { id, error: { status, message } }). Call it for one message at a time, in order.
 */
export async function handle(state, msg) {
  const id = msg && typeof msg === 'object' ? msg.id : undefined;
  const posts = [];
  try {
    if (!msg || typeof msg !== 'object') throw invalid('message must be an object { id, type, ... }');
    if (id === undefined || id === null) throw invalid(`${msg.type}: the message has no id`);
    const fn = Object.prototype.hasOwnProperty.call(handlers, msg.type) ? handlers[msg.type] : null;
    if (!fn) throw invalid(`unknown message type '${msg.type}' (expected one of ${MESSAGE_TYPES.join(', ')})`);
    const ok = await fn(state, msg, posts);
    return { reply: { id, ok: ok ?? {} }, posts };
  } catch (e) {
    const error = e instanceof VoxnavError
      ? { status: e.status, message: e.message }
      : { status: 'Internal', message: String(e && e.message ? e.message : e) };
    return { reply: { id: id ?? null, error }, posts: [] };
  }
}

/** The ArrayBuffers of the typed arrays inside a message (to transfer with postMessage). */
export function transferList(message) {
  const out = new Set();
  const walk = (v, depth) => {
    if (!v || typeof v !== 'object' || depth > 6) return;
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) out.add(v.buffer);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const k of Object.keys(v)) walk(v[k], depth + 1);
  };
  walk(message, 0);
  return [...out];
}
