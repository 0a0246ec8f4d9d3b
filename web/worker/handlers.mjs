// voxnav server worker - pure message handlers (no Worker globals: testable in Node).
//
//   const state = createState();
//   const { reply, posts } = await handle(state, { id: 1, type: 'init' });
//
// Every message is { id, type, ... } and gets exactly one reply: { id, ok: result } or
// { id, error: { status, message, function, argument } } (function: the message type; argument:
// the message field at fault, e.g. 'edits[1].cell', or ''). `posts` are extra messages to send before the reply (the tick
// updates). The state owns every wasm object: callers never call .delete(). Typed arrays in
// replies and posts are fresh copies: transfer them (transferList()).
import { load, VoxnavError } from '../index.mjs';

/** Message types handled, in the order a host usually sends them. */
export const MESSAGE_TYPES = Object.freeze([
  'init', 'loadBlocks', 'blockValues', 'addProfile', 'defineArea', 'findArea', 'loadRegion', 'loadChunks',
  'unloadChunks', 'edit', 'setDoorOpen', 'addAgents', 'removeAgents', 'setGoals', 'teleportAgents',
  'knockAgents', 'stopAgent', 'chaseAgent', 'fleeFrom', 'agentState', 'reachable', 'lineWalkable',
  'lineFlyable', 'estimateTravel', 'findSpawnCells', 'request', 'release', 'tick', 'stats', 'topBlocks',
  'stateHash', 'settings', 'dispose',
]);

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function invalid(message) {
  return new VoxnavError('InvalidArgument', message);
}

/** An error of message `type` about its field `field` (text: what the message says after "type: "). */
function fieldError(status, type, field, text) {
  return new VoxnavError(status, `${type}: ${text}`, type, field);
}

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  if (typeof v === 'object') return v.constructor ? v.constructor.name : 'object';
  return typeof v;
}

function list(type, name, v) {
  if (!Array.isArray(v)) throw fieldError('InvalidArgument', type, name, `${name} must be an array (got ${typeName(v)})`);
  // A sparse array's holes would be skipped by map / forEach and then read as undefined.
  for (let i = 0; i < v.length; ++i) {
    if (!(i in v)) throw fieldError('InvalidArgument', type, `${name}[${i}]`, `${name}[${i}] is missing (a hole in a sparse array)`);
  }
  return v;
}

function isObject(v) {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * An error of a World call, for message `type`: its function becomes the message type, and the
 * call's argument `arg` (e.argument, as the World names it) becomes the message field `field`
 * (e.g. 'agents[1].feet' for 'feet'). The text after "function: " is kept; it starts with the
 * argument's name when it shows the value ("feet (1, 2, 3) is ..."): that name is then the field's.
 * Other errors pass through.
 */
const SUBJECT_STARTS = ['(', 'must ', 'has ', 'is ', 'holds '];
function forMessage(type, e, field = null, arg = null) {
  if (!(e instanceof VoxnavError)) return e;
  const prefix = e.function ? `${e.function}: ` : '';
  let text = prefix && e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
  let argument = e.argument;
  if (field) {
    const a = arg ?? e.argument;
    // "feet (1, 2, 3) is ...", "agent must be ...": the field reads in the argument's place;
    // "agent 5 is not a live agent": the field goes in front.
    const rest = a && e.argument === a && text.startsWith(`${a} `) ? text.slice(a.length + 1) : null;
    if (rest !== null && SUBJECT_STARTS.some((w) => rest.startsWith(w))) text = `${field} ${rest}`;
    else if (field !== a) text = `${field}: ${text}`;
    argument = field;
  }
  return new VoxnavError(e.status, `${type}: ${text}`, type, argument);
}

/** Runs a World call; its errors are given the message's names (see forMessage). */
function call(type, field, arg, fn) {
  try {
    return fn();
  } catch (e) {
    throw forMessage(type, e, field, arg);
  }
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

function world(state, type) {
  if (!state.world) throw fieldError('Busy', type, '', `the worker has no world yet; send init first`);
  return state.world;
}

/** A profile given by id (number) or name (string) -> its id, checked. */
function profileOf(w, type, field, p) {
  if (typeof p === 'string') {
    try {
      return w.findProfile(p);
    } catch (e) {
      if (e instanceof VoxnavError && e.status === 'NotFound')
        throw fieldError('NotFound', type, field, `${field}: unknown profile ${JSON.stringify(p)} (no profile of that id in this world)`);
      throw forMessage(type, e, field);
    }
  }
  if (typeof p === 'number') return p;  // the C++ World checks it is a profile of this world
  throw fieldError('InvalidArgument', type, field, `${field} must be a profile id (number) or name (string) (got ${typeName(p)})`);
}

/** A cell given as integers (the C++ World checks their range). */
function integerCell(type, name, c) {
  const v = Array.isArray(c) || ArrayBuffer.isView(c) ? Array.from(c) : isObject(c) ? [c.x, c.y, c.z] : null;
  if (!v || v.length !== 3 || !v.every((x) => typeof x === 'number'))
    throw fieldError('InvalidArgument', type, name, `${name} must be an integer cell [x, y, z] (got ${typeName(c)}${v ? ` of ${v.length}` : ''})`);
  if (!v.every(Number.isInteger))
    throw fieldError('InvalidArgument', type, name, `${name} must be an integer cell [x, y, z] (got (${v.join(', ')}))`);
  return v;
}

/** A live agent id. */
function checkAgent(w, type, field, id) {
  call(type, field, 'agent', () => w.agentState(id));
  return id;
}

/** An agent not given before in the same batch (`seen`: id -> the field that gave it). */
function checkOnce(type, field, id, seen) {
  if (seen.has(id)) throw fieldError('InvalidArgument', type, field, `${field} (${id}) repeats ${seen.get(id)} (each agent may be given once)`);
  seen.set(id, field);
}

/** An integer block value (the C++ World checks it is in the registry). */
function integerOf(type, name, v) {
  if (typeof v !== 'number') throw fieldError('InvalidArgument', type, name, `${name} must be a number (got ${typeName(v)})`);
  if (!Number.isInteger(v)) throw fieldError('InvalidArgument', type, name, `${name} ${v} is not an integer block value`);
  return v;
}

/**
 * After a load or unload: brings navigation up to date at once while nothing can be timed by it
 * (no agents and no pending requests: setting up the world), so queries sent next see the chunks.
 * Otherwise the next tick processes the change, as it does edits: an update() here would dispatch
 * and apply the agents' searches a tick early, and the simulation would no longer match a replay
 * that does not make the same call. Returns whether it updated.
 */
function updateIfIdle(state, w) {
  if (state.pending.length !== 0 || w.stats().agents !== 0) return false;
  w.update();
  return true;
}

function pathResult(w, handle) {
  const st = w.status(handle);
  const out = { handle, ...st };
  if (st.state === 'ready') {
    const c = w.corridor(handle);
    out.waypoints = c.positions;
    out.kinds = c.kinds;
  }
  return out;
}

/** Concatenates DoorAhead event batches (World.takeDoorEvents answers), oldest first. */
function joinDoorEvents(batches) {
  const count = batches.reduce((n, b) => n + b.count, 0);
  const out = { count, agents: new Float64Array(count), doors: new Int32Array(3 * count), ticks: new Float64Array(count) };
  let at = 0;
  for (const b of batches) {
    out.agents.set(b.agents, at);
    out.doors.set(b.doors, 3 * at);
    out.ticks.set(b.ticks, at);
    at += b.count;
  }
  return out;
}

/**
 * The per-tick update: agent positions, corridors whose epoch changed, removed agents, paths, and
 * the DoorAhead events the ticks raised (`doorEvents`, taken from the world: the page opens doors).
 */
function tickPost(state, doorEvents) {
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
    corridors.push({ agent: id, epoch, waypoints: c.positions, kinds: c.kinds });
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
    doorEvents,
  };
}

const handlers = {
  /** { build?, distUrl?, wasmUrl?, wasmBinary?, lockstepDelay?, blocksJson?, shapesJson? } */
  async init(state, msg) {
    if (state.world) throw fieldError('Busy', 'init', '', 'the worker already has a world; send dispose first');
    const lib = state.lib && (msg.build === undefined || msg.build === state.lib.build) && !msg.wasmBinary &&
      !msg.wasmUrl && !msg.distUrl
      ? state.lib
      : await load({ build: msg.build, distUrl: msg.distUrl, wasmUrl: msg.wasmUrl, wasmBinary: msg.wasmBinary });
    const w = call('init', null, null, () => lib.createWorld({ lockstepDelay: msg.lockstepDelay ?? 0 }));
    try {
      if (msg.blocksJson !== undefined || msg.shapesJson !== undefined) w.loadMinecraftBlocks(msg.blocksJson, msg.shapesJson);
    } catch (e) {
      w.dispose();
      throw forMessage('init', e);
    }
    Object.assign(state, createState(), { lib, world: w });
    return { build: lib.build, threaded: w.threaded, blockCount: w.blockCount };
  },

  /** { blocksJson, shapesJson } (strings or bytes of minecraft-data's JSON files) */
  loadBlocks(state, msg) {
    const w = world(state, 'loadBlocks');
    call('loadBlocks', null, null, () => w.loadMinecraftBlocks(msg.blocksJson, msg.shapesJson));
    return { blockCount: w.blockCount };
  },

  /** { names: ["stone", "oak_slab[type=bottom]", ...] }: every name, property and value must exist. */
  blockValues(state, msg) {
    const w = world(state, 'blockValues');
    const names = list('blockValues', 'names', msg.names);
    return { values: names.map((n, i) => call('blockValues', `names[${i}]`, 'state', () => w.blockValue(n))) };
  },

  /** { profile: JSON string or object, source? } */
  addProfile(state, msg) {
    const w = world(state, 'addProfile');
    const id = call('addProfile', null, null, () => w.addProfile(msg.profile, msg.source ?? ''));
    return { profile: id, warning: w.lastProfileWarning };
  },

  /**
   * { name, blocks: [block name, ...], cost } -> { area }: World.defineArea (a named area, read by
   * the `filter` of request messages by name). One area a message; on error nothing is defined.
   * Takes effect at once.
   */
  defineArea(state, msg) {
    const type = 'defineArea';
    const w = world(state, type);
    return { area: call(type, null, null, () => w.defineArea(msg.name, msg.blocks, msg.cost)) };
  },

  /** { name } -> { area }: the index of the area of that name; NotFound when there is none. */
  findArea(state, msg) {
    const type = 'findArea';
    const w = world(state, type);
    return { area: call(type, 'name', 'name', () => w.findArea(msg.name)) };
  },

  /**
   * { bytes: a region file (.mca), skipEmptyProtoChunks?, fullChunksOnly? }: all or none, decoded
   * by the engine like the native loader. Navigation is brought up to date before the reply only
   * while the world has no agents and no pending requests (as `voxnav run` does after loading its
   * world); otherwise the next tick processes the chunks (see loadChunks). `updated` says which.
   */
  async loadRegion(state, msg) {
    const w = world(state, 'loadRegion');
    let report;
    try {
      report = await w.loadRegion(msg.bytes, {
        skipEmptyProtoChunks: msg.skipEmptyProtoChunks ?? true, fullChunksOnly: !!msg.fullChunksOnly,
      });
    } catch (e) {
      throw forMessage('loadRegion', e, 'bytes', 'file');
    }
    const updated = updateIfIdle(state, w);
    return { ...report, navEpoch: w.navEpoch, updated };
  },

  /**
   * { positions: Int32Array (3 per chunk), values: Uint16Array (4096 per chunk) }: all or none.
   * While the world has no agents and no pending requests (setting it up), navigation is brought
   * up to date before the reply, so queries and goals sent after it see the chunks. Once agents
   * exist the handler does not call update() (it would dispatch and apply their searches a tick
   * early): the next tick processes the chunks, as it does edits. `updated` says which happened.
   */
  loadChunks(state, msg) {
    const w = world(state, 'loadChunks');
    call('loadChunks', null, null, () => w.loadChunks(msg.positions, msg.values));
    const updated = updateIfIdle(state, w);
    return { chunks: msg.positions.length / 3, navEpoch: w.navEpoch, updated };
  },

  /**
   * { positions: Int32Array }: every chunk must be loaded and given once (checked first: on error
   * nothing is unloaded). Navigation is updated as for loadChunks.
   */
  unloadChunks(state, msg) {
    const w = world(state, 'unloadChunks');
    call('unloadChunks', null, null, () => w.unloadChunks(msg.positions));
    const updated = updateIfIdle(state, w);
    return { chunks: msg.positions.length / 3, navEpoch: w.navEpoch, updated };
  },

  /**
   * { edits: [{ cell, value } | { min, max, value }, ...] } or one edit inline. All or none
   * (World.setBlocks: the C++ World checks every edit first - cells in range, min <= max, at most
   * LIMITS.maxBoxCells cells a box, every chunk loaded, values in the registry - then applies them
   * in order). Navigation sees them at the next tick.
   */
  edit(state, msg) {
    const type = 'edit';
    const w = world(state, type);
    const batch = msg.edits !== undefined;
    const edits = batch ? list(type, 'edits', msg.edits) : [msg];
    const plan = edits.map((e, i) => {
      const at = batch ? `edits[${i}].` : '';
      if (!isObject(e)) throw fieldError('InvalidArgument', type, '', `edits[${i}] must be { cell, value } or { min, max, value } (got ${typeName(e)})`);
      const value = integerOf(type, `${at}value`, e.value);
      if (e.cell !== undefined) return { cell: integerCell(type, `${at}cell`, e.cell), value };
      if (e.min !== undefined || e.max !== undefined)
        return { min: integerCell(type, `${at}min`, e.min), max: integerCell(type, `${at}max`, e.max), value };
      throw fieldError('InvalidArgument', type, '', `${batch ? `edits[${i}]` : 'an edit'} needs cell, or min and max`);
    });
    call(type, null, null, () => w.setBlocks(plan, batch ? 'edits' : ''));
    return { applied: plan.length };
  },

  /**
   * { cell: [x, y, z], open: boolean } -> { changed }: World.setDoorOpen (both halves of a two-high
   * door flip; `changed` is false when the door already was in that state). One door a message (an
   * answer to a DoorAhead event of the tick post): on error (NotFound for a cell without a door,
   * NotLoaded, OutOfRange, InvalidArgument) nothing changes. Navigation sees it at the next tick.
   */
  setDoorOpen(state, msg) {
    const type = 'setDoorOpen';
    const w = world(state, type);
    if (typeof msg.open !== 'boolean') throw fieldError('InvalidArgument', type, 'open', `open must be a boolean (got ${typeName(msg.open)})`);
    const before = call(type, null, null, () => w.getBlock(msg.cell));
    call(type, null, null, () => w.setDoorOpen(msg.cell, msg.open));
    return { changed: w.getBlock(msg.cell) !== before };
  },

  /**
   * { agents: [{ profile, feet: [x, y, z], goal?: [x, y, z] }] } -> { ids }: all or none (every
   * entry is checked before any agent is added).
   */
  addAgents(state, msg) {
    const type = 'addAgents';
    const w = world(state, type);
    const agents = list(type, 'agents', msg.agents).map((d, i) => {
      const at = `agents[${i}]`;
      if (!isObject(d)) throw fieldError('InvalidArgument', type, at, `${at} must be { profile, feet, goal? } (got ${typeName(d)})`);
      return { profile: profileOf(w, type, `${at}.profile`, d.profile), feet: d.feet, goal: d.goal };
    });
    return { ids: call(type, null, null, () => w.addAgents(agents)) };  // World::add_agents
  },

  /** { ids: [agent, ...] }: every id must be live and given once (checked first; all or none). */
  removeAgents(state, msg) {
    const type = 'removeAgents';
    const w = world(state, type);
    const ids = list(type, 'ids', msg.ids);
    const seen = new Map();
    ids.forEach((id, i) => checkOnce(type, `ids[${i}]`, checkAgent(w, type, `ids[${i}]`, id), seen));
    for (const id of ids) w.removeAgent(id);
    return { removed: ids.length };
  },

  /** { goals: [{ agent, goal: [x, y, z] }] }: each agent live and given once; all or none (World::set_agent_goals). */
  setGoals(state, msg) {
    const w = world(state, 'setGoals');
    const goals = list('setGoals', 'goals', msg.goals);
    call('setGoals', null, null, () => w.setAgentGoals(goals));
    return { set: goals.length };
  },

  /** { agents: [{ agent, feet }] }: each agent live and given once, feet finite and in range; all or none (World::teleport_agents). */
  teleportAgents(state, msg) {
    const w = world(state, 'teleportAgents');
    const moves = list('teleportAgents', 'agents', msg.agents);
    call('teleportAgents', null, null, () => w.teleportAgents(moves));
    return { moved: moves.length };
  },

  /**
   * { knocks: [{ agent, impulse: [x, y, z] }] } (m/s, world frame): all or none, taken at each
   * agent's next step (World.knockAgents; the error names 'knocks[i].impulse').
   */
  knockAgents(state, msg) {
    const w = world(state, 'knockAgents');
    const knocks = list('knockAgents', 'knocks', msg.knocks);
    call('knockAgents', null, null, () => w.knockAgents(knocks));
    return { knocked: knocks.length };
  },

  /** { agent }: the agent brakes and idles, its order dropped (World.stopAgent). */
  stopAgent(state, msg) {
    const w = world(state, 'stopAgent');
    call('stopAgent', null, null, () => w.stopAgent(msg.agent));
    return {};
  },

  /** { agent, target, range? = 1.5 }: chase another agent (World.chaseAgent). */
  chaseAgent(state, msg) {
    const w = world(state, 'chaseAgent');
    call('chaseAgent', null, null, () => w.chaseAgent(msg.agent, msg.target, msg.range ?? 1.5));
    return {};
  },

  /** { agent, from: cell, distance }: flee to the cheapest cell at least `distance` cells from `from` (World.fleeFrom). */
  fleeFrom(state, msg) {
    const w = world(state, 'fleeFrom');
    call('fleeFrom', null, null, () => w.fleeFrom(msg.agent, msg.from, msg.distance));
    return {};
  },

  /** { agent } -> the agent's state and reason */
  agentState(state, msg) {
    const w = world(state, 'agentState');
    return call('agentState', 'agent', 'agent', () => ({ ...w.agentState(msg.agent), reason: w.agentReason(msg.agent) }));
  },

  /** { profile, from, goal } -> { answer, reason, epoch } */
  reachable(state, msg) {
    const w = world(state, 'reachable');
    const profile = profileOf(w, 'reachable', 'profile', msg.profile);
    return call('reachable', null, null, () => w.reachable(profile, msg.from, msg.goal));
  },

  /** { profile, from, to } (cells) -> { walkable }: World.lineWalkable, no search. */
  lineWalkable(state, msg) {
    const w = world(state, 'lineWalkable');
    const profile = profileOf(w, 'lineWalkable', 'profile', msg.profile);
    return { walkable: call('lineWalkable', null, null, () => w.lineWalkable(profile, msg.from, msg.to)) };
  },

  /** { profile, from, to } (feet positions, metres) -> { flyable }: World.lineFlyable. */
  lineFlyable(state, msg) {
    const w = world(state, 'lineFlyable');
    const profile = profileOf(w, 'lineFlyable', 'profile', msg.profile);
    return { flyable: call('lineFlyable', null, null, () => w.lineFlyable(profile, msg.from, msg.to)) };
  },

  /** { profile, from, to } (cells) -> { seconds }: a lower bound of the travel time (World.estimateTravel). */
  estimateTravel(state, msg) {
    const w = world(state, 'estimateTravel');
    const profile = profileOf(w, 'estimateTravel', 'profile', msg.profile);
    return { seconds: call('estimateTravel', null, null, () => w.estimateTravel(profile, msg.from, msg.to)) };
  },

  /**
   * { profile, min, max, filter?, seed? = 0, maxCells? = 64 } -> { count, cells: Int32Array }
   * (World.findSpawnCells). The filter cannot hold `reject` (a function does not cross
   * postMessage): a page filters the cells it gets instead.
   */
  findSpawnCells(state, msg) {
    const type = 'findSpawnCells';
    const w = world(state, type);
    const profile = profileOf(w, type, 'profile', msg.profile);
    const filter = msg.filter ?? {};
    if (isObject(filter) && filter.reject !== undefined)
      throw fieldError('InvalidArgument', type, 'filter.reject', 'filter.reject cannot be sent to the worker (a function does not cross postMessage)');
    return call(type, null, null, () => w.findSpawnCells(profile, msg.min, msg.max, filter, msg.seed ?? 0, msg.maxCells ?? 64));
  },

  /**
   * { profile, start, goal, range?, toward?, filter?, wait? }. filter: how the request reads the
   * named areas, keyed by area name (see World.request; NotFound for an area not defined). Without
   * wait: { handle }, and the result is posted with the tick that finishes it (then released).
   * With wait: true the search runs at once on the worker's thread (World.findPathNow: no handle,
   * navigation time does not advance, so answering UI queries never changes what the agents do)
   * and the reply is the result ({ state, failure, cost, ..., waypoints, kinds }). It searches the navigation as of the last
   * tick: edits sent since are seen from the next tick on.
   */
  request(state, msg) {
    const type = 'request';
    const w = world(state, type);
    const profile = profileOf(w, type, 'profile', msg.profile);
    const options = { range: msg.range ?? 0, toward: !!msg.toward };
    if (msg.filter !== undefined) options.filter = msg.filter;
    if (!msg.wait) {
      const h = call(type, null, null, () => w.request(profile, msg.start, msg.goal, options));
      state.pending.push(h);
      return { handle: h };
    }
    const r = call(type, null, null, () => w.findPathNow(profile, msg.start, msg.goal, options));
    const { corridor, ...status } = r;
    return corridor ? { ...status, waypoints: corridor.positions, kinds: corridor.kinds } : status;
  },

  /** { handle }: drops a pending request. */
  release(state, msg) {
    const w = world(state, 'release');
    call('release', 'handle', 'handle', () => w.release(msg.handle));
    state.pending = state.pending.filter((h) => h !== msg.handle);
    return {};
  },

  /**
   * { dt? = 0.05, count? = 1 }: runs the ticks, then posts one 'tick' update (with the DoorAhead
   * events of every tick run, taken after each so that none is dropped).
   */
  tick(state, msg, posts) {
    const w = world(state, 'tick');
    const dt = msg.dt ?? 0.05;
    const count = msg.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 10000) throw fieldError('InvalidArgument', 'tick', 'count', `count ${count} is not an integer in 1 .. 10000`);
    const t0 = now();
    const doors = [];
    for (let i = 0; i < count; ++i) {
      call('tick', null, null, () => w.tick(dt));
      state.ticks += 1;
      if (w.pendingDoorEvents !== 0) doors.push(w.takeDoorEvents());
    }
    const ms = now() - t0;
    state.lastTickMs = ms / count;
    state.tickMsTotal += ms;
    const post = tickPost(state, joinDoorEvents(doors));
    posts.push(post);
    return { tick: state.ticks, tickMs: state.lastTickMs, corridors: post.corridors.length, doorEvents: post.doorEvents.count };
  },

  /**
   * { chunkStreaming?, chunkBuildRadius?, searchesPerUpdate? } -> the three settings now. Sets the
   * ones given (World.setChunkStreaming: boolean; setChunkBuildRadius: chunks, 0 .. 32;
   * setSearchesPerUpdate: searches per update, 0 .. 4096, 0 = no limit); an empty message only
   * reads them. Every value is checked first: on error nothing changed.
   */
  settings(state, msg) {
    const w = world(state, 'settings');
    const known = new Set(['id', 'type', 'chunkStreaming', 'chunkBuildRadius', 'searchesPerUpdate']);
    for (const k of Object.keys(msg))
      if (!known.has(k)) throw fieldError('InvalidArgument', 'settings', '', `unknown field '${k}' (expected chunkStreaming, chunkBuildRadius, searchesPerUpdate)`);
    const intIn = (field, v, max, unit) => {
      if (v === undefined) return;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
        throw fieldError('InvalidArgument', 'settings', '', `${field} must be an integer number of ${unit} in 0 .. ${max} (got ${typeof v === 'number' ? v : typeName(v)})`);
    };
    if (msg.chunkStreaming !== undefined && typeof msg.chunkStreaming !== 'boolean')
      throw fieldError('InvalidArgument', 'settings', '', `chunkStreaming must be a boolean (got ${typeName(msg.chunkStreaming)})`);
    const L = state.lib.LIMITS;
    intIn('chunkBuildRadius', msg.chunkBuildRadius, L.maxChunkBuildRadius, 'chunks');
    intIn('searchesPerUpdate', msg.searchesPerUpdate, L.maxSearchesPerUpdate, 'searches per update');
    call('settings', null, null, () => {
      if (msg.chunkStreaming !== undefined) w.setChunkStreaming(msg.chunkStreaming);
      if (msg.chunkBuildRadius !== undefined) w.setChunkBuildRadius(msg.chunkBuildRadius);
      if (msg.searchesPerUpdate !== undefined) w.setSearchesPerUpdate(msg.searchesPerUpdate);
    });
    return {
      chunkStreaming: w.chunkStreaming(),
      chunkBuildRadius: w.chunkBuildRadius(),
      searchesPerUpdate: w.searchesPerUpdate(),
      pendingChunkBuilds: w.pendingChunkBuilds(),
      deferredChunkBuilds: w.deferredChunkBuilds(),
      queuedRequests: w.queuedRequests(),
    };
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
   * the highest non-air block of each column (for a map); see World.topBlocks for the limits.
   */
  topBlocks(state, msg) {
    const w = world(state, 'topBlocks');
    return call('topBlocks', null, null, () => w.topBlocks(msg.min, msg.max));
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
 * { id, error: { status, message, function, argument } }). Call it for one message at a time, in order.
 */
export async function handle(state, msg) {
  const id = msg && typeof msg === 'object' ? msg.id : undefined;
  const posts = [];
  try {
    if (!isObject(msg)) throw invalid(`message must be an object { id, type, ... } (got ${typeName(msg)})`);
    const fn = Object.prototype.hasOwnProperty.call(handlers, msg.type) ? handlers[msg.type] : null;
    if (!fn) throw invalid(`unknown message type '${msg.type}' (expected one of ${MESSAGE_TYPES.join(', ')})`);
    if (id === undefined || id === null) throw fieldError('InvalidArgument', msg.type, 'id', 'the message has no id');
    let ok;
    try {
      ok = await fn(state, msg, posts);
    } catch (e) {
      // Every message's errors start with its type (a World call's own name would not say which
      // message failed).
      throw e instanceof VoxnavError && e.function !== msg.type ? forMessage(msg.type, e) : e;
    }
    return { reply: { id, ok: ok ?? {} }, posts };
  } catch (e) {
    const error = e instanceof VoxnavError
      ? e.toJSON()
      : { status: 'Internal', message: String(e && e.message ? e.message : e), function: '', argument: '' };
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
