// voxnav - the JS World: argument conversion over the Embind WorldCore, errors as VoxnavError.
// No navigation logic: every check that needs the world happens in C++ (bindings/).
import { STATUS_NAMES, VoxnavError, argError, coreError, escapedError, invalid } from './errors.mjs';
import { readRegionFor } from './anvil.mjs';

// Strings longer than this (UTF-16 units) are tried in the heap before Embind copies them.
const kStringProbe = 65536;

/** Edge kinds of corridor waypoints and path cells (the values in `kinds` arrays). */
export const EDGE_KINDS = Object.freeze([
  'start', 'walk', 'step_up', 'step_down', 'jump', 'drop', 'gap_jump', 'climb', 'swim', 'door', 'fly',
]);
/** Agent modes (the values in `modes` arrays). */
export const AGENT_MODES = Object.freeze(['idle', 'planning', 'moving', 'arrived', 'failed', 'blocked']);
/** Body modes of the movement step (stepBody). */
export const BODY_MODES = Object.freeze(['walk', 'fly', 'swim', 'climb']);
/** Climb intents of the movement step (stepBody). */
export const CLIMB_INTENTS = Object.freeze(['none', 'up', 'down', 'hold']);
/** The standard walker body (the C++ BodyParams defaults). */
export const DEFAULT_BODY = Object.freeze({
  width: 0.6, height: 1.8, stepHeight: 0.6, gravity: 32, jumpVelocity: Math.sqrt(2 * 32 * 1.25),
  terminalSpeed: 78.4, climbSpeed: 0,
});
const BODY_KEYS = Object.keys(DEFAULT_BODY);
// `report` is accepted (and ignored) so that a state stepBody returned can be passed back.
const STATE_KEYS = ['feet', 'velocity', 'carry', 'onGround', 'mode', 'report'];
const INPUT_KEYS = ['move', 'jump', 'climb', 'vertical', 'knock'];
const REQUEST_KEYS = ['range', 'toward', 'filter'];
const FILTER_KEYS = ['multiplier', 'exclude'];
const CELL_FILTER_KEYS = ['minHeadroom', 'hazardDistance', 'excludeFluids', 'avoid', 'minDistance', 'reach', 'reachCell', 'reject'];
/** CellFilter.reach values (voxnav/queries.h CellReach). */
export const CELL_REACH = Object.freeze(['any', 'from', 'to', 'both']);
// The agent calls of the binding's agentCall, by its op number (bindings/voxnav_bindings.cpp).
const AGENT_OP = Object.freeze({ stop: 0, sprint: 1, knock: 2, chaseAgent: 3, chaseEntity: 4, flee: 5, follow: 6, teleport: 7 });

const textEncoder = new TextEncoder();

// Worlds dropped without dispose() still free their wasm memory once collected.
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((core) => { try { core.delete(); } catch { /* already gone */ } })
  : null;

// ---- the module-call boundary ----
// Every call of a World into its wasm module goes through a guard (one per World, made once):
// whatever escapes becomes a VoxnavError naming the World method (escapedError). A module that
// aborted is dead for every World of it; a World left half-changed by an out-of-memory only
// accepts dispose().
const deadModules = new WeakMap();  // wasm module -> why it stopped
const coreMethods = new WeakMap();  // WorldCore class -> its method names

function methodsOf(WorldCore) {
  let names = coreMethods.get(WorldCore);
  if (!names) {
    const skip = new Set(['constructor', 'delete', 'clone', 'isDeleted', 'deleteLater', 'isAliasOf']);
    names = Object.getOwnPropertyNames(WorldCore.prototype)
      .filter((n) => !skip.has(n) && typeof WorldCore.prototype[n] === 'function');
    coreMethods.set(WorldCore, names);
  }
  return names;
}

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  if (typeof v === 'object') return v.constructor ? v.constructor.name : 'object';
  return typeof v;
}

/** [x, y, z] (array or typed array) or {x, y, z} -> three numbers. */
export function xyz(fn, name, v) {
  let x, y, z;
  if (v && typeof v === 'object' && typeof v.length === 'number') {
    if (v.length !== 3) throw argError('InvalidArgument', fn, name, `${name} has ${v.length} entries, expected [x, y, z]`);
    x = v[0], y = v[1], z = v[2];  // indexed: an array-like { 0, 1, 2, length } is not iterable
  } else if (v && typeof v === 'object') {
    ({ x, y, z } = v);
  } else {
    throw argError('InvalidArgument', fn, name, `${name} must be [x, y, z] or {x, y, z} (got ${typeName(v)})`);
  }
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number')
    throw argError('InvalidArgument', fn, name, `${name} must hold three numbers (got ${typeName(x)}, ${typeName(y)}, ${typeName(z)})`);
  return [x, y, z];
}

function number(fn, name, v) {
  if (typeof v !== 'number') throw argError('InvalidArgument', fn, name, `${name} must be a number (got ${typeName(v)})`);
  return v;
}


/** A count argument (a number; the C++ API checks it is an integer in 0 .. max, LIMITS' `max`). */
function count(fn, name, v, max, unit) {
  if (typeof v !== 'number')
    throw argError('InvalidArgument', fn, name, `${name} must be an integer number of ${unit} in 0 .. ${max} (got ${typeName(v)})`);
  return v;
}

function bytes(fn, name, v) {
  if (typeof v === 'string') return textEncoder.encode(v);
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw argError('InvalidArgument', fn, name, `${name} must be a string, Uint8Array or ArrayBuffer (got ${typeName(v)})`);
}

function typed(fn, name, v, Type) {
  if (!(v instanceof Type)) {
    const article = /^[AEIO]/.test(Type.name) ? 'an' : 'a';
    throw argError('InvalidArgument', fn, name, `${name} must be ${article} ${Type.name} (got ${typeName(v)})`);
  }
  return v;
}

/** JSON text of a host's object (InvalidArgument naming `name` when it has no JSON form: a BigInt, a cycle). */
function toJson(fn, name, v) {
  try {
    return JSON.stringify(v);
  } catch (e) {
    throw argError('InvalidArgument', fn, name, `${name} cannot be written as JSON (${e.message})`);
  }
}

function isPlainObject(v) {
  return Object.prototype.toString.call(v) === '[object Object]';
}


// ---- reshaping the binding's flat results (each layout is a table of src/api/layouts.cpp, voxnav/layouts.h) ----

// The C++ names of the enums results carry as numbers (the module's names()), per module.
const enumNames = new WeakMap();
function namesOf(module) {
  let n = enumNames.get(module);
  if (!n) enumNames.set(module, (n = module.names()));
  return n;
}
/** n waypoints from [positions 3n, cells 3n, kinds n] at `at` of `v`. */
function waypoints(v, n, at = 0) {
  return {
    positions: v.slice(at, at + 3 * n), kinds: Uint8Array.from(v.subarray(at + 6 * n, at + 7 * n)),
    cells: Int32Array.from(v.subarray(at + 3 * n, at + 6 * n)),
  };
}
function pathStatus(N, v) {
  return {
    state: N.pathState[v[0]], failure: N.pathFailure[v[1]], partial: v[2] === 1, cost: v[3],
    nodesExpanded: v[4], cellCount: v[5], waypointCount: v[6],
  };
}
const triple = (v, at) => [v[at], v[at + 1], v[at + 2]];

/**
 * One space: the host's block mirror, walker navigation, path requests and agents. Every method
 * throws VoxnavError on failure and then leaves the world unchanged.
 */
export class World {
  #core;   // the guarded WorldCore (see the module-call boundary above)
  #raw;    // the Embind WorldCore itself (dispose and the finalizer delete it)
  #lib;
  #fn = '';         // the World method calling into the module now
  #broken = null;   // why this world only accepts dispose() (an out-of-memory left it half-changed)

  /**
   * options: { lockstepDelay?: number, threaded?: boolean, voxnav?: the library (what init() or
   * load() resolve to; default: init()'s) }. InvalidArgument for an option of the wrong kind (the
   * message names it), Busy when no library is given and init() has not finished.
   */
  constructor(options = {}) {
    if (options === null || typeof options !== 'object') throw invalid('World: options must be an object');
    let lib = defaultLibrary;
    if (options.voxnav !== undefined && options.voxnav !== null) {
      const v = options.voxnav;
      if (typeof v !== 'object' || !v.module || typeof v.module.WorldCore !== 'function' ||
          (v.build !== 'sync' && v.build !== 'threaded'))
        throw invalid(`World: options.voxnav must be a library from init() or load() (got ${typeName(v)})`);
      lib = v;
    }
    if (!lib) throw new VoxnavError('Busy', 'World: voxnav is not loaded yet; await init() (or ready) first');
    const delay = options.lockstepDelay ?? 0;
    if (!Number.isInteger(delay) || delay < 0 || delay > 1000)
      throw invalid(`World: lockstepDelay ${delay} is not an integer in 0 .. 1000`);
    const threaded = options.threaded ?? lib.build === 'threaded';
    if (threaded && lib.build !== 'threaded')
      throw new VoxnavError('Unsupported', 'World: threaded is true but the sync build is loaded');
    this.#lib = lib;
    if (deadModules.has(lib.module)) throw new VoxnavError('OutOfMemory', `World: ${deadModules.get(lib.module)}`, 'World');
    if (typeof lib.module.worldFits === 'function' && !lib.module.worldFits())
      throw new VoxnavError('OutOfMemory', 'World: out of memory: a new World does not fit the ' +
        'heap that is left (dispose some Worlds); nothing changed', 'World');
    try {
      this.#raw = new lib.module.WorldCore(delay, !!threaded);
    } catch (e) {
      throw this.#escaped('World', e);
    }
    this.#core = this.#guard(this.#raw);
    /** Warning of the last addProfile call ('' when none). */
    this.lastProfileWarning = '';
    if (finalizer) finalizer.register(this, this.#raw, this);
  }

  /** WorldCore's methods, each turning whatever escapes into a VoxnavError naming #fn. */
  #guard(raw) {
    const guarded = {};
    for (const name of methodsOf(this.#lib.module.WorldCore)) {
      const method = raw[name];
      guarded[name] = (...args) => {
        this.#stringsFit(args);
        try {
          return method.apply(raw, args);
        } catch (e) {
          throw this.#escaped(this.#fn, e);
        }
      };
    }
    return guarded;
  }
  // Embind copies a string argument into the heap with a malloc whose null it does not test: on
  // a full heap it would write the string at address 0 and corrupt the module. A string (or the
  // strings of an array) longer than kStringProbe is therefore tried as one block first; shorter
  // ones come out of the headroom every checked call keeps free (docs/memory.md).
  #stringsFit(args) {
    const m = this.#lib.module;
    if (typeof m._malloc !== 'function') return;
    let chars = 0;
    for (const a of args) {
      if (typeof a === 'string') chars = Math.max(chars, a.length);
      else if (Array.isArray(a)) for (const x of a) if (typeof x === 'string') chars = Math.max(chars, x.length);
    }
    if (chars <= kStringProbe) return;
    const bytes = 3 * chars + 5;  // UTF-8: at most 3 bytes a UTF-16 unit, a length word, a nul
    const p = bytes < 2 ** 31 ? m._malloc(bytes) : 0;
    if (!p) {
      throw new VoxnavError('OutOfMemory', `${this.#fn}: out of memory: the wasm heap cannot hold a copy ` +
        `of a string argument (${bytes} bytes); nothing changed`, this.#fn);
    }
    m._free(p);
  }
  #escaped(fn, e) {
    const r = escapedError(fn, e);
    if (r.moduleDead) deadModules.set(this.#lib.module, r.error.message.slice(fn.length + 2));
    if (r.worldBroken && this.#raw) this.#broken = r.error.message.slice(fn.length + 2);
    return r.error;
  }

  /** The library this world belongs to. */
  get voxnav() { return this.#lib; }
  /** Whether searches run on the pthread (threaded build) or at dispatch. */
  get threaded() { return this.#c('threaded').threaded(); }
  get disposed() { return this.#core === null; }

  /** Frees the wasm memory now. Later calls throw StaleHandle. */
  dispose() {
    if (!this.#core) return;
    if (finalizer) finalizer.unregister(this);
    // A dead module's memory goes with the module; a broken world's is freed like any other.
    if (!deadModules.has(this.#lib.module)) {
      try { this.#raw.delete(); } catch { /* the module stopped meanwhile: nothing to free */ }
    }
    this.#core = null;
    this.#raw = null;
  }

  #c(fn) {
    if (!this.#core) throw new VoxnavError('StaleHandle', `${fn}: this world was disposed`, fn);
    const dead = deadModules.get(this.#lib.module);
    if (dead !== undefined || this.#broken !== null)
      throw new VoxnavError('OutOfMemory', `${fn}: ${dead ?? this.#broken}`, fn);
    this.#fn = fn;
    return this.#core;
  }
  // `fn`: the JS function called, when it reached another core call (setBlock: setBlocks).
  #error(fn) {
    return coreError(this.#core.lastError(), fn);
  }
  #check(code, fn) {
    if (code !== 0) throw this.#error(fn);
  }
  #value(v, fn) {
    if (v === undefined) throw this.#error(fn);
    return v;
  }
  get #names() { return namesOf(this.#lib.module); }

  /**
   * A request's filter, keyed by area name ({ road: { multiplier: 0.5 }, lava: { exclude: true } }),
   * checked and resolved to the binding's { excluded, multipliers } by index; null for none.
   */
  #filter(fn, filter) {
    if (filter === undefined || filter === null) return null;
    if (!isPlainObject(filter))
      throw argError('InvalidArgument', fn, 'filter', `filter: must be an object keyed by area name, e.g. { road: { multiplier: 0.5 } } (got ${typeName(filter)})`);
    const names = Object.keys(filter);
    if (names.length === 0) return null;
    const entries = names.map((name) => {
      const e = filter[name];
      const at = `filter: area "${name}"`;
      if (!isPlainObject(e)) throw argError('InvalidArgument', fn, 'filter', `${at} must be an object { multiplier?, exclude? } (got ${typeName(e)})`);
      for (const k of Object.keys(e)) {
        if (!FILTER_KEYS.includes(k)) throw argError('InvalidArgument', fn, 'filter', `${at}: ${k} is not a filter field (${FILTER_KEYS.join(', ')})`);
      }
      let multiplier = 1;
      if (e.multiplier !== undefined) {
        const m = e.multiplier;
        if (typeof m !== 'number') throw argError('InvalidArgument', fn, 'filter', `${at}: multiplier must be a number (got ${typeName(m)})`);
        multiplier = m;
      }
      if (e.exclude !== undefined && typeof e.exclude !== 'boolean')
        throw argError('InvalidArgument', fn, 'filter', `${at}: exclude must be a boolean (got ${typeName(e.exclude)})`);
      return { name, multiplier, exclude: e.exclude === true };
    });
    // Names resolve only once every entry is well formed (findArea reads, never changes, the world).
    const core = this.#core;
    let excluded = 0, count = 0;
    const resolved = entries.map((e) => {
      const index = core.findArea(e.name);
      if (index === undefined)
        throw argError('NotFound', fn, 'filter', `filter: no area "${e.name}" in this world (defineArea first)`);
      count = Math.max(count, index + 1);
      if (e.exclude) excluded = (excluded | (1 << index)) >>> 0;
      return { index, multiplier: e.multiplier };
    });
    const multipliers = new Float64Array(count).fill(1);
    for (const r of resolved) multipliers[r.index] = r.multiplier;
    return { excluded, multipliers };
  }

  /** The arguments request() and findPathNow() pass to the binding (one check for both). */
  #requestArgs(fn, profile, start, goal, options) {
    const o = options ?? {};
    if (typeof o !== 'object' || Array.isArray(o))
      throw argError('InvalidArgument', fn, 'options', `options must be an object { range?, toward?, filter? } (got ${typeName(o)})`);
    for (const k of Object.keys(o)) {
      if (!REQUEST_KEYS.includes(k)) throw argError('InvalidArgument', fn, 'options', `options.${k} is not a request option (${REQUEST_KEYS.join(', ')})`);
    }
    const a = Float64Array.from(xyz(fn, 'start', start)), b = Float64Array.from(xyz(fn, 'goal', goal));
    const range = o.range !== undefined ? number(fn, 'range', o.range) : 0;
    const filter = this.#filter(fn, o.filter) ?? { excluded: 0, multipliers: new Float64Array(0) };
    return [number(fn, 'profile', profile), a, b, range, !!o.toward, filter.excluded, filter.multipliers];
  }

  // ---- registry ----
  /** Loads minecraft-data's blocks and collision shapes JSON (before any chunk). */
  loadMinecraftBlocks(blocksJson, shapesJson) {
    const fn = 'loadMinecraftBlocks';
    const core = this.#c(fn);
    this.#check(core.loadMinecraftBlocks(bytes(fn, 'blocksJson', blocksJson), bytes(fn, 'shapesJson', shapesJson)));
  }
  /**
   * Value of "name[prop=value,...]" (namespace optional; properties not given take the block's
   * default). NotFound, naming the part, for an unknown block name, property name or value, a
   * property given twice or a malformed string.
   */
  blockValue(state) {
    const fn = 'blockValue';
    if (typeof state !== 'string') throw argError('InvalidArgument', fn, 'state', `state must be a string (got ${typeName(state)})`);
    return this.#value(this.#c(fn).blockValue(state));
  }
  get blockCount() { return this.#c('blockCount').blockCount(); }

  // ---- a game's own blocks (docs/registry.md); C++ checks them and writes the messages ----
  /**
   * Installs a registry of the game's own blocks (before any chunk): blocks[v] is value v, each
   * { name, boxes?: [[x0,y0,z0,x1,y1,z1], ...], door?: { open?, toggle? }, climbable?,
   * hazard?: 'fire'|'other', slow?, fluid?: 'swimmable'|'harmful' }; options.fallback names the
   * block unknown names resolve to (default blocks[0]).
   */
  defineBlocks(blocks, options) {
    const fn = 'defineBlocks';
    const doc = { format: 'voxnav-blocks', version: 1, blocks, ...(options?.fallback !== undefined ? { fallback: options.fallback } : {}) };
    const core = this.#c(fn);
    this.#check(core.loadBlocks(textEncoder.encode(toJson(fn, 'blocks', doc)), fn));
  }
  /** Installs a registry written in voxnav's JSON format (a string or its UTF-8 bytes). */
  loadBlocks(json) {
    const fn = 'loadBlocks';
    this.#check(this.#c(fn).loadBlocks(bytes(fn, 'json', json), fn));
  }
  /** Replaces a value's traits ({ door?, climbable?, hazard?, slow?, fluid? }); navigation is rebuilt. */
  setBlockTraits(value, traits) {
    const fn = 'setBlockTraits';
    const core = this.#c(fn);
    this.#check(core.setBlockTraits(number(fn, 'value', value), toJson(fn, 'traits', traits ?? {})));
  }
  /** The definition of a value: { name, boxes, door?: { open, toggle?, toggleValue? }, climbable?, hazard?, slow?, fluid? }. */
  blockDef(value) {
    const fn = 'blockDef';
    const [name, toggle, v] = this.#value(this.#c(fn).blockDef(number(fn, 'value', value)));
    const boxes = [];
    for (let at = 6; at < v.length; at += 6) boxes.push(Array.from(v.subarray(at, at + 6)));
    const def = { name, boxes };
    if (v[0] !== 0) {
      def.door = { open: v[0] === 2 };
      if (toggle !== '') def.door.toggle = toggle;
      if (v[1] >= 0) def.door.toggleValue = v[1];
    }
    if (v[2] === 1) def.climbable = true;
    if (v[3] !== 0) def.hazard = this.#names.blockHazard[v[3]];
    if (v[4] === 1) def.slow = true;
    if (v[5] !== 0) def.fluid = this.#names.blockFluid[v[5]];
    return def;
  }

  // ---- chunks and edits ----
  /** values: Uint16Array of 4096 block values, index x + 16 * (z + 16 * y). */
  loadChunk(chunk, values) {
    const fn = 'loadChunk';
    const core = this.#c(fn);
    this.#check(core.loadChunk(xyz(fn, 'chunk', chunk), typed(fn, 'values', values, Uint16Array)));
  }
  /** Many chunks in one call: positions Int32Array [cx, cy, cz, ...], values 4096 per chunk. */
  loadChunks(positions, values) {
    const fn = 'loadChunks';
    const core = this.#c(fn);
    this.#check(core.loadChunks(typed(fn, 'positions', positions, Int32Array), typed(fn, 'values', values, Uint16Array)));
  }
  /**
   * Unloads one loaded chunk. chunk: [cx, cy, cz] integers in range (InvalidArgument / OutOfRange
   * otherwise, naming the argument); NotLoaded when it is not loaded.
   */
  unloadChunk(chunk) {
    const fn = 'unloadChunk';
    const core = this.#c(fn);
    this.#check(core.unloadChunk(xyz(fn, 'chunk', chunk)));
  }
  /**
   * Unloads many chunks: positions Int32Array [cx, cy, cz, ...]. All or nothing: every chunk must
   * be in range, loaded and given once (checked before any is unloaded).
   */
  unloadChunks(positions) {
    const fn = 'unloadChunks';
    this.#check(this.#c(fn).unloadChunks(typed(fn, 'positions', positions, Int32Array)));
  }
  /**
   * Loads Anvil chunk columns (uncompressed NBT, e.g. from readRegion) with the engine's decoder.
   * All or nothing. options: { skipEmptyProtoChunks = true, fullChunksOnly = false }.
   */
  loadAnvilColumns(columns, options = {}) {
    return this.#loadColumns('loadAnvilColumns', 'columns', columns, options);
  }
  /** loadAnvilColumns for the JS function `fn`, whose argument `arg` holds the columns. */
  #loadColumns(fn, arg, columns, options) {
    const core = this.#c(fn);
    if (!Array.isArray(columns)) throw argError('InvalidArgument', fn, 'columns', `columns must be an array of Uint8Array`);
    let total = 0;
    columns.forEach((c, i) => {
      if (!(c instanceof Uint8Array)) throw argError('InvalidArgument', fn, 'columns', `columns[${i}] must be a Uint8Array (got ${typeName(c)})`);
      total += c.length;
    });
    const heap = this.#lib.LIMITS.maxHeapBytes;
    if (total > heap)
      throw argError('OutOfMemory', fn, 'columns', `columns hold ${total} bytes, more than the wasm heap can (${heap}); nothing changed`);
    const data = new Uint8Array(total);
    const offsets = new Uint32Array(columns.length + 1);
    columns.forEach((c, i) => {
      data.set(c, offsets[i]);
      offsets[i + 1] = offsets[i] + c.length;
    });
    const o = options ?? {};
    const r = core.loadAnvilColumns(data, offsets, o.skipEmptyProtoChunks ?? true, !!o.fullChunksOnly);
    if (r === undefined) throw coreError(core.lastError(), fn, arg);
    const [v, format, ...unknownNames] = r;
    return {
      columns: v[0], chunks: v[1], uniformChunks: v[2], emptyProtoChunks: v[3], skippedProtoChunks: v[4],
      format, dataVersionMin: v[5], dataVersionMax: v[6], unknownBlocks: v[7], unknownProperties: v[8],
      unknownNames, min: v[1] ? triple(v, 9) : null, max: v[1] ? triple(v, 12) : null,
    };
  }
  /**
   * Loads a whole region file (.mca bytes): readRegion + loadAnvilColumns. All or nothing. Errors
   * name loadRegion and its argument `file`.
   */
  async loadRegion(file, options = {}) {
    const fn = 'loadRegion';
    this.#c(fn);
    let region;
    try {
      region = await readRegionFor(fn, file, this.#lib.module);
    } catch (e) {
      throw this.#escaped(fn, e);
    }
    const report = this.#loadColumns(fn, 'file', region.columns, options);
    return { ...report, skippedChunks: region.skippedChunks, skipReason: region.skipReason };
  }

  setBlock(cell, value) {
    const fn = 'setBlock';
    const core = this.#c(fn);
    const c = xyz(fn, 'cell', cell);
    const v = Float64Array.of(number(fn, 'value', value));
    this.#check(core.setBlocks(Float64Array.of(...c, ...c), v, Uint8Array.of(1), ''), fn);
  }
  /** Sets every block of the inclusive box min .. max. */
  setBox(min, max, value) {
    const fn = 'setBox';
    const core = this.#c(fn);
    const a = xyz(fn, 'min', min), b = xyz(fn, 'max', max);
    const v = Float64Array.of(number(fn, 'value', value));
    this.#check(core.setBlocks(Float64Array.of(...a, ...b), v, Uint8Array.of(0), ''), fn);
  }
  /**
   * Applies edits [{ cell, value } | { min, max, value }, ...] in order, all or nothing: the C++
   * World checks every entry first (World::set_blocks) and its error names the entry and field
   * ("edits[2].value ..."). `list` is the name messages give the entries ('' for a single edit:
   * its fields alone).
   */
  setBlocks(edits, list = 'edits') {
    const fn = 'setBlocks';
    const core = this.#c(fn);
    if (!Array.isArray(edits)) throw argError('InvalidArgument', fn, 'edits', `edits must be an array (got ${typeName(edits)})`);
    const cells = new Float64Array(6 * edits.length), values = new Float64Array(edits.length);
    const single = new Uint8Array(edits.length);
    for (let i = 0; i < edits.length; ++i) {  // not forEach: it skips the holes of a sparse array
      const e = edits[i];
      const at = list ? `${list}[${i}].` : '';
      if (!e || typeof e !== 'object') throw argError('InvalidArgument', fn, `${list}[${i}]`, `${list}[${i}] must be { cell, value } or { min, max, value } (got ${i in edits ? typeName(e) : 'an empty slot'})`);
      if (e.cell !== undefined && (e.min !== undefined || e.max !== undefined))
        throw argError('InvalidArgument', fn, `${list}[${i}]`, `${list}[${i}] has cell and ${e.min !== undefined ? 'min' : 'max'}: give { cell, value } or { min, max, value }, not both`);
      single[i] = e.cell !== undefined ? 1 : 0;
      cells.set(single[i] ? xyz(fn, `${at}cell`, e.cell) : xyz(fn, `${at}min`, e.min), 6 * i);
      cells.set(single[i] ? xyz(fn, `${at}cell`, e.cell) : xyz(fn, `${at}max`, e.max), 6 * i + 3);
      values[i] = number(fn, `${at}value`, e.value);
    }
    this.#check(core.setBlocks(cells, values, single, list));
  }
  getBlock(cell) {
    const fn = 'getBlock';
    const core = this.#c(fn);
    return this.#value(core.getBlock(xyz(fn, 'cell', cell)));
  }

  // ---- profiles ----
  /**
   * Adds a profile (a JSON string or an object, see docs). Returns its id. A key given twice in
   * the JSON is refused (InvalidArgument naming it). lastProfileWarning is set to this profile's
   * warning ('' when none), and cleared when the call fails.
   */
  addProfile(profile, source = '') {
    const fn = 'addProfile';
    const core = this.#c(fn);
    let json;
    if (typeof profile === 'string') json = profile;
    else if (profile && typeof profile === 'object') json = toJson(fn, 'profile', profile);
    else throw argError('InvalidArgument', fn, 'profile', `profile must be a JSON string or an object (got ${typeName(profile)})`);
    if (typeof source !== 'string') throw argError('InvalidArgument', fn, 'source', `source must be a string`);
    const id = core.addProfile(json, source);
    if (id === undefined) {
      this.lastProfileWarning = '';  // it described the previous profile, not this failed one
      throw this.#error();
    }
    this.lastProfileWarning = core.lastWarning();
    return id;
  }
  findProfile(name) {
    const fn = 'findProfile';
    if (typeof name !== 'string') throw argError('InvalidArgument', fn, 'name', `name must be a string (got ${typeName(name)})`);
    return this.#value(this.#c(fn).findProfile(name));
  }

  // ---- areas ----
  /**
   * Defines a named area: the cells whose surface (the block a body stands on; a fluid it swims
   * in) is one of `blocks` (block names, any state; "minecraft:" optional), and the cost, in cells
   * of level walking, a move pays on entering one: -0.6 .. 1000 (negative for a road; a move
   * never costs less than 0.4 of its own cost). Returns the area's index (requests name areas,
   * never index them: see the `filter` option of request()). At most 32 areas. Takes effect at
   * once. InvalidArgument (nothing changes), naming the area and the bad part: a name that is not
   * 1 .. 64 bytes or already defined, blocks not a non-empty array of strings, an unknown block
   * name, a cost out of range, a 33rd area; OutOfRange when the surfaces would need more than
   * 255 groups.
   */
  defineArea(name, blocks, cost) {
    const fn = 'defineArea';
    const core = this.#c(fn);
    if (typeof name !== 'string') throw argError('InvalidArgument', fn, 'name', `name must be a string (got ${typeName(name)})`);
    const at = `area "${name}"`;
    if (!Array.isArray(blocks)) throw argError('InvalidArgument', fn, 'blocks', `${at}: blocks must be an array of block names (got ${typeName(blocks)})`);
    for (let i = 0; i < blocks.length; ++i) {  // not forEach: it skips the holes of a sparse array
      if (typeof blocks[i] !== 'string')
        throw argError('InvalidArgument', fn, 'blocks', `${at}: blocks[${i}] is not a block name (a non-empty string; got ${typeName(blocks[i])})`);
    }
    if (typeof cost !== 'number') throw argError('InvalidArgument', fn, 'cost', `${at}: cost must be a number (got ${typeName(cost)})`);
    return this.#value(core.defineArea(name, [...blocks], cost));
  }
  /** The index of the area of that name; NotFound when there is none. */
  findArea(name) {
    const fn = 'findArea';
    const core = this.#c(fn);
    if (typeof name !== 'string') throw argError('InvalidArgument', fn, 'name', `name must be a string (got ${typeName(name)})`);
    return this.#value(core.findArea(name));
  }

  // ---- navigation ----
  /** Brings navigation up to date with the edits, applies finished searches, dispatches new ones. */
  update() { this.#c('update').update(); }
  get navEpoch() { return this.#c('navEpoch').navEpoch(); }
  /** { answer: 'yes' | 'no' | 'unknown', reason, epoch } */
  reachable(profile, from, goal) {
    const fn = 'reachable';
    const core = this.#c(fn);
    const a = xyz(fn, 'from', from), b = xyz(fn, 'goal', goal);
    const v = this.#value(core.reachable(number(fn, 'profile', profile), a, b));
    return { answer: this.#names.reachAnswer[v[0]], reason: this.#names.reachReason[v[1]], epoch: v[2] };
  }
  isStandable(profile, cell) {
    const fn = 'isStandable';
    const core = this.#c(fn);
    return this.#value(core.isStandable(number(fn, 'profile', profile), xyz(fn, 'cell', cell)));
  }
  /** Feet height (metres) of a standable cell, or null. */
  standingHeight(profile, cell) {
    const fn = 'standingHeight';
    const core = this.#c(fn);
    return this.#value(core.standingHeight(number(fn, 'profile', profile), xyz(fn, 'cell', cell)));
  }
  /**
   * [x, y, z] of the nearest standable cell within radius (0 .. 64), or null. With a `filter`
   * (a CellFilter, as findSpawnCells takes) only cells that pass it count (ties: lower y, z, x).
   */
  nearestStandable(profile, near, radius = 8, filter = undefined) {
    const fn = 'nearestStandable';
    const core = this.#c(fn);
    const p = number(fn, 'profile', profile), c = xyz(fn, 'near', near), r = number(fn, 'radius', radius);
    if (filter === undefined || filter === null) {
      const v = this.#value(core.nearestStandable(p, c, r));
      return v === null ? null : [v[0], v[1], v[2]];
    }
    const f = this.#cellFilter(fn, filter);
    const v = f.run(() => core.nearestStandableFiltered(p, c, r, f.fields, f.avoid, f.reject));
    if (v === undefined) throw this.#error(fn);
    return v === null ? null : [v[0], v[1], v[2]];
  }

  /**
   * The moves a search of `profile` takes out of cell `from`, in the search's order:
   * [{ to: [x, y, z], kind: an EDGE_KINDS name, cost }] (cost: 10000 per cell of level walking);
   * [] for a cell that is no node of the navigation. Unsupported for flyers.
   */
  cellMoves(profile, from) {
    const fn = 'cellMoves';
    const core = this.#c(fn);
    const v = this.#value(core.cellMoves(number(fn, 'profile', profile), xyz(fn, 'from', from)));
    const moves = [];
    for (let i = 0, k = 1; i < v[0]; ++i, k += 5)
      moves.push({ to: [v[k], v[k + 1], v[k + 2]], kind: EDGE_KINDS[v[k + 3]], cost: v[k + 4] });
    return moves;
  }

  /**
   * A CellFilter { minHeadroom?, hazardDistance?, excludeFluids?, avoid?, minDistance?, reach?,
   * reachCell?, reject? } as the binding's numbers, and `run(call)`, which calls the binding with
   * the host's reject callback guarded: a callback that throws rejects every later cell and its
   * exception is thrown again after the call (the World is not changed by a query).
   */
  #cellFilter(fn, filter) {
    if (!isPlainObject(filter))
      throw argError('InvalidArgument', fn, 'filter', `filter must be an object { minHeadroom?, hazardDistance?, ... } (got ${typeName(filter)})`);
    for (const k of Object.keys(filter)) {
      if (!CELL_FILTER_KEYS.includes(k)) throw argError('InvalidArgument', fn, 'filter', `filter.${k} is not a cell filter field (${CELL_FILTER_KEYS.join(', ')})`);
    }
    const opt = (k, d) => (filter[k] === undefined ? d : number(fn, `filter.${k}`, filter[k]));
    const reach = CELL_REACH.indexOf(filter.reach ?? 'any');
    if (reach < 0) throw argError('InvalidArgument', fn, 'filter.reach', `filter.reach '${filter.reach}' is not one of ${CELL_REACH.join(', ')}`);
    if (filter.excludeFluids !== undefined && typeof filter.excludeFluids !== 'boolean')
      throw argError('InvalidArgument', fn, 'filter.excludeFluids', `filter.excludeFluids must be a boolean (got ${typeName(filter.excludeFluids)})`);
    const rc = filter.reachCell === undefined ? [0, 0, 0] : xyz(fn, 'filter.reachCell', filter.reachCell);
    const fields = Float64Array.of(opt('minHeadroom', 0), opt('hazardDistance', 0), filter.excludeFluids ? 1 : 0,
      opt('minDistance', 0), reach, ...rc);
    const points = filter.avoid ?? [];
    if (!Array.isArray(points)) throw argError('InvalidArgument', fn, 'filter.avoid', `filter.avoid must be an array of points (got ${typeName(points)})`);
    const avoid = new Float64Array(3 * points.length);
    for (let i = 0; i < points.length; ++i) avoid.set(xyz(fn, `filter.avoid[${i}]`, points[i]), 3 * i);
    const host = filter.reject;
    if (host !== undefined && typeof host !== 'function')
      throw argError('InvalidArgument', fn, 'filter.reject', `filter.reject must be a function (cell) => boolean (got ${typeName(host)})`);
    let thrown = null;
    const reject = host === undefined ? undefined : (x, y, z) => {
      if (thrown) return true;
      try {
        return !!host([x, y, z]);
      } catch (e) {
        thrown = { e };
        return true;
      }
    };
    const run = (call) => {
      const v = call();
      if (thrown) throw thrown.e;
      return v;
    };
    return { fields, avoid, reject, run };
  }

  // ---- queries a brain asks without a search (voxnav/control.h, voxnav/queries.h) ----
  /**
   * Whether a body of `profile` walks straight from the centre of cell `from` to the centre of
   * cell `to` (both standable foot cells) without a jump; conservative (false where unsure).
   * Ends at most LIMITS.maxLineWalkCells apart. Unsupported for swimmer and flyer profiles.
   */
  lineWalkable(profile, from, to) {
    const fn = 'lineWalkable';
    const core = this.#c(fn);
    return this.#value(core.lineWalkable(number(fn, 'profile', profile), xyz(fn, 'from', from), xyz(fn, 'to', to)));
  }
  /**
   * Whether a flyer of `profile` flies straight from feet position `from` to `to` (metres) without
   * touching geometry; conservative. Ends at most LIMITS.maxLineFlyCells apart. Unsupported for a
   * profile that is not a flyer.
   */
  lineFlyable(profile, from, to) {
    const fn = 'lineFlyable';
    const core = this.#c(fn);
    return this.#value(core.lineFlyable(number(fn, 'profile', profile), xyz(fn, 'from', from), xyz(fn, 'to', to)));
  }
  /**
   * A lower bound of the seconds an agent of `profile` takes from cell `from` to cell `to` at its
   * walking cruise, in constant time (Infinity when reachable() says 'no'). Unsupported for flyers.
   */
  estimateTravel(profile, from, to) {
    const fn = 'estimateTravel';
    const core = this.#c(fn);
    return this.#value(core.estimateTravel(number(fn, 'profile', profile), xyz(fn, 'from', from), xyz(fn, 'to', to)));
  }
  /**
   * Up to `maxCells` (1 .. LIMITS.maxSpawnCells) distinct standable cells of the box min .. max
   * (at most LIMITS.maxSpawnBoxCells cells) that pass `filter`, in the order `seed` (an integer
   * 0 .. 2^53 - 1) visits them: the same on every platform. filter: { minHeadroom?,
   * hazardDistance?, excludeFluids?, avoid?: points, minDistance?, reach?: 'any' | 'from' | 'to' |
   * 'both', reachCell?, reject?: (cell) => boolean (true rejects; asked last, once per cell) }.
   * Returns { count (how many cells pass, at most maxCells), cells: Int32Array 3 x count }.
   */
  findSpawnCells(profile, min, max, filter = {}, seed = 0, maxCells = 64) {
    const fn = 'findSpawnCells';
    const core = this.#c(fn);
    const p = number(fn, 'profile', profile), a = xyz(fn, 'min', min), b = xyz(fn, 'max', max);
    const f = this.#cellFilter(fn, filter ?? {});
    const s = number(fn, 'seed', seed), n = number(fn, 'maxCells', maxCells);
    const v = f.run(() => core.findSpawnCells(p, a, b, f.fields, f.avoid, f.reject, s, n));
    if (v === undefined) throw this.#error(fn);
    return { count: v[0], cells: Int32Array.from(v.subarray(1)) };
  }
  /** The binary angle (0 .. 65535; 0 faces -Z, 16384 faces -X) a horizontal direction [x, y, z] faces (y is ignored). */
  yawOfDirection(direction) {
    const fn = 'yawOfDirection';
    return this.#value(this.#c(fn).yawOfDirection(xyz(fn, 'direction', direction)));
  }

  // ---- requests ----
  /**
   * Starts a path request; returns its handle (a number). options: { range?, toward?, filter? }:
   * range 0 .. 64 cells; filter reads the named areas (defineArea) by name, e.g.
   * { road: { multiplier: 0.5 }, lava_lake: { exclude: true } }: per area a multiplier of its
   * cost (0 .. 1000, default 1) and whether the route may enter it (exclude, default false);
   * areas not named are read as defined. InvalidArgument for an unknown option or filter field or
   * a bad multiplier, NotFound for an area name this world does not have (the message names it);
   * nothing is requested then.
   */
  request(profile, start, goal, options = {}) {
    const toward = !!(options && options.toward);
    const fn = toward ? 'requestToward' : 'request';
    const core = this.#c(fn);
    return this.#value(core.request(...this.#requestArgs(fn, profile, start, goal, options)));
  }
  /**
   * Runs one search now, on this thread, and returns its result: the status() fields (state
   * 'ready' or 'failed', never 'searching') and `corridor` ({ positions: Float64Array 3n, kinds:
   * Uint8Array n, cells: Int32Array 3n }, or null unless ready). No handle is made and navigation
   * time does not advance, so agents and other requests are not affected (nor stats()). It sees
   * navigation as of the last update() / tick(). options: { range?, toward?, filter? } as for
   * request().
   */
  findPathNow(profile, start, goal, options = {}) {
    const fn = 'findPathNow';
    const core = this.#c(fn);
    const v = this.#value(core.findPathNow(...this.#requestArgs(fn, profile, start, goal, options)));
    const status = pathStatus(this.#names, v);
    return { ...status, corridor: status.state === 'ready' ? waypoints(v, (v.length - 7) / 7, 7) : null };
  }
  /** request() that accepts the best partial route when the goal is out of reach. */
  requestToward(profile, start, goal, options = {}) {
    return this.request(profile, start, goal, { ...options, toward: true });
  }
  status(handle) {
    const fn = 'status';
    return pathStatus(this.#names, this.#value(this.#c(fn).status(number(fn, 'handle', handle))));
  }
  /** { positions: Float64Array 3n, kinds: Uint8Array n, cells: Int32Array 3n } of a ready path. */
  corridor(handle) {
    const fn = 'corridor';
    const v = this.#value(this.#c(fn).corridor(number(fn, 'handle', handle)));
    return waypoints(v, v.length / 7);
  }
  /** { cells: Int32Array 3n, kinds: Uint8Array n } of a ready path's search cells. */
  pathCells(handle) {
    const fn = 'pathCells';
    const v = this.#value(this.#c(fn).pathCells(number(fn, 'handle', handle)));
    const n = v.length / 4;
    return { cells: Int32Array.from(v.subarray(0, 3 * n)), kinds: Uint8Array.from(v.subarray(3 * n)) };
  }
  release(handle) {
    const fn = 'release';
    this.#check(this.#c(fn).release(number(fn, 'handle', handle)));
  }

  // ---- agents ----
  /** Adds an agent standing (a swimmer: swimming) at `feet` (metres); returns its id (a number). */
  addAgent(profile, feet) {
    return this.#addAgents('addAgent', '', [{ profile, feet }])[0];
  }
  /**
   * Adds agents [{ profile, feet, goal? }, ...], all or nothing: the C++ World checks every entry
   * first (World::add_agents; its error names the entry and field, "agents[2].feet"), adds them in
   * order, then sends those with a goal there. Returns their ids.
   */
  addAgents(agents) {
    return this.#addAgents('addAgents', 'agents', agents);
  }
  #addAgents(fn, list, agents) {
    const core = this.#c(fn);
    const [profiles, feet] = this.#batch(fn, list, agents, 1);
    const goals = new Float64Array(4 * agents.length);  // per entry: has a goal (0 / 1), the cell
    agents.forEach((a, i) => {
      const at = list ? `${list}[${i}].` : '';
      profiles[i] = number(fn, `${at}profile`, a.profile);
      feet.set(xyz(fn, `${at}feet`, a.feet), 3 * i);
      if (a.goal !== undefined) goals.set([1, ...xyz(fn, `${at}goal`, a.goal)], 4 * i);
    });
    return Array.from(this.#value(core.addAgents(profiles, feet, goals, list), fn));
  }
  /** Typed arrays for a batch of `entries`: 1 number and `triples` x 3 numbers an entry. */
  #batch(fn, list, entries, triples) {
    if (!Array.isArray(entries)) throw argError('InvalidArgument', fn, list, `${list} must be an array (got ${typeName(entries)})`);
    entries.forEach((e, i) => {
      if (!isPlainObject(e)) throw argError('InvalidArgument', fn, `${list}[${i}]`, `${list}[${i}] must be an object (got ${typeName(e)})`);
    });
    const n = entries.length;
    return [new Float64Array(n), ...Array.from({ length: triples }, () => new Float64Array(3 * n))];
  }
  removeAgent(agent) {
    const fn = 'removeAgent';
    this.#check(this.#c(fn).removeAgent(number(fn, 'agent', agent)));
  }
  setAgentGoal(agent, goal) {
    this.#setAgentGoals('setAgentGoal', '', [{ agent, goal }]);
  }
  /**
   * Sends agents to goals [{ agent, goal }, ...], all or nothing: every agent live and given once,
   * every goal a cell in range (World::set_agent_goals; the error names the entry and field).
   */
  setAgentGoals(goals) {
    this.#setAgentGoals('setAgentGoals', 'goals', goals);
  }
  #setAgentGoals(fn, list, goals) {
    const core = this.#c(fn);
    const [agents, cells] = this.#batch(fn, list, goals, 1);
    goals.forEach((g, i) => {
      const at = list ? `${list}[${i}].` : '';
      agents[i] = number(fn, `${at}agent`, g.agent);
      cells.set(xyz(fn, `${at}goal`, g.goal), 3 * i);
    });
    this.#check(core.setAgentGoals(agents, cells, list), fn);
  }
  agentState(agent) {
    const fn = 'agentState';
    const v = this.#value(this.#c(fn).agentState(number(fn, 'agent', agent)));
    return {
      mode: this.#names.agentMode[v[0]], feet: triple(v, 1), velocity: triple(v, 4), onGround: v[7] === 1,
      corridorEpoch: v[8], nextWaypoint: v[9], arrivals: v[10], replans: v[11], repairs: v[12],
      requests: v[13], failure: this.#names.pathFailure[v[14]], waitingAtDoor: v[15] === 1,
      door: triple(v, 16), doorHoldTicks: v[19], doorEvents: v[20], doorTimeouts: v[21],
    };
  }
  agentReason(agent) {
    const fn = 'agentReason';
    return this.#value(this.#c(fn).agentReason(number(fn, 'agent', agent)));
  }
  /** The agent's corridor: { positions, kinds, cells, epoch }. */
  agentCorridor(agent) {
    const fn = 'agentCorridor';
    const v = this.#value(this.#c(fn).agentCorridor(number(fn, 'agent', agent)));
    const n = (v.length - 1) / 7;
    return { ...waypoints(v, n), epoch: v[7 * n] };
  }
  /** Teleports an agent; with `yaw` (a binary angle, an integer 0 .. 65535) its facing too. */
  teleportAgent(agent, feet, yaw = undefined) {
    if (yaw === undefined) return this.#teleportAgents('teleportAgent', '', [{ agent, feet }]);
    const fn = 'teleportAgent';
    this.#agentCall(fn, AGENT_OP.teleport, agent, 0, xyz(fn, 'feet', feet), number(fn, 'yaw', yaw));
  }
  /**
   * Teleports agents [{ agent, feet }, ...], all or nothing: every agent live and given once,
   * every feet finite with its cell in range (World::teleport_agents; the error names the entry
   * and field).
   */
  teleportAgents(moves) {
    this.#teleportAgents('teleportAgents', 'agents', moves);
  }
  #teleportAgents(fn, list, moves) {
    const core = this.#c(fn);
    const [agents, feet] = this.#batch(fn, list, moves, 1);
    moves.forEach((m, i) => {
      const at = list ? `${list}[${i}].` : '';
      agents[i] = number(fn, `${at}agent`, m.agent);
      feet.set(xyz(fn, `${at}feet`, m.feet), 3 * i);
    });
    this.#check(core.teleportAgents(agents, feet, list), fn);
  }
  /** Every live agent in the order added, as typed arrays (one call, no per-agent crossing). */
  agentsSnapshot() {
    const v = this.#c('agentsSnapshot').agentsSnapshot();
    const n = v.length / 10;
    return {
      count: n, ids: v.slice(0, n), positions: v.slice(n, 4 * n), velocities: v.slice(4 * n, 7 * n),
      modes: Uint8Array.from(v.subarray(7 * n, 8 * n)), onGround: Uint8Array.from(v.subarray(8 * n, 9 * n)),
      corridorEpochs: Uint32Array.from(v.subarray(9 * n)),
    };
  }

  // ---- agents the game controls (voxnav/control.h) ----
  #agentCall(fn, op, agent, other = 0, v = undefined, x = 0) {
    const core = this.#c(fn);
    this.#check(core.agentCall(op, number(fn, 'agent', agent), other, v, x), fn);
  }
  /** Stops an agent: its order and corridor dropped, it idles where it stands until given a goal. */
  stopAgent(agent) { this.#agentCall('stopAgent', AGENT_OP.stop, agent); }
  /** Cruise at the profile's sprint speed (true) or walk speed (false, the default) from the next tick. */
  setAgentSprint(agent, sprint) {
    const fn = 'setAgentSprint';
    if (typeof sprint !== 'boolean') throw argError('InvalidArgument', fn, 'sprint', `sprint must be a boolean (got ${typeName(sprint)})`);
    this.#agentCall(fn, AGENT_OP.sprint, agent, 0, undefined, sprint ? 1 : 0);
  }
  /**
   * Knocks an agent: `impulse` (m/s, world frame; each component within LIMITS.maxKnock), scaled
   * by the profile's knockback resistance, taken at its next step; a knockback lock follows.
   */
  knockAgent(agent, impulse) {
    const fn = 'knockAgent';
    this.#agentCall(fn, AGENT_OP.knock, agent, 0, xyz(fn, 'impulse', impulse));
  }
  /** Knocks agents [{ agent, impulse }, ...], all or nothing (errors name "knocks[i].impulse"). */
  knockAgents(knocks) {
    const fn = 'knockAgents';
    const core = this.#c(fn);
    const [agents, impulses] = this.#batch(fn, 'knocks', knocks, 1);
    knocks.forEach((k, i) => {
      agents[i] = number(fn, `knocks[${i}].agent`, k.agent);
      impulses.set(xyz(fn, `knocks[${i}].impulse`, k.impulse), 3 * i);
    });
    this.#check(core.knockAgents(agents, impulses), fn);
  }
  /**
   * Makes `agent` chase another agent (or an entity: chaseEntity) until within `range` metres
   * (LIMITS.minChaseRange .. maxChaseRange) of it; it chases again when the target gets away.
   */
  chaseAgent(agent, target, range = 1.5) {
    const fn = 'chaseAgent';
    this.#agentCall(fn, AGENT_OP.chaseAgent, agent, number(fn, 'target', target), undefined, number(fn, 'range', range));
  }
  /** chaseAgent for a host entity (addEntity), at the position setEntityPosition last gave it. */
  chaseEntity(agent, target, range = 1.5) {
    const fn = 'chaseEntity';
    this.#agentCall(fn, AGENT_OP.chaseEntity, agent, number(fn, 'target', target), undefined, number(fn, 'range', range));
  }
  /**
   * Makes `agent` flee from cell `from` to the cheapest cell at least `distance` cells
   * (1 .. LIMITS.maxFleeDistance, Euclidean between cells) away from it.
   */
  fleeFrom(agent, from, distance) {
    const fn = 'fleeFrom';
    this.#agentCall(fn, AGENT_OP.flee, agent, 0, xyz(fn, 'from', from), number(fn, 'distance', distance));
  }
  /**
   * Makes `agent` follow the corridor of the host's ready request `path` from the agent's cell
   * (a cell of its search path) to its end. The handle stays the host's to release.
   */
  followPath(agent, path) {
    const fn = 'followPath';
    this.#agentCall(fn, AGENT_OP.follow, agent, number(fn, 'path', path));
  }
  /**
   * What a renderer reads of an agent: { yaw, edge (the edge kind being crossed), cruiseSpeed,
   * distanceToStop, sprinting, knocked, knocks, lockResumes, lockReplans }.
   */
  agentLocomotion(agent) {
    const fn = 'agentLocomotion';
    const v = this.#value(this.#c(fn).agentLocomotion(number(fn, 'agent', agent)));
    return {
      yaw: v[0], edge: EDGE_KINDS[v[1]], cruiseSpeed: v[2], distanceToStop: v[3], sprinting: v[4] === 1,
      knocked: v[5] === 1, knocks: v[6], lockResumes: v[7], lockReplans: v[8],
    };
  }
  /** The corridor waypoints ahead within `length` metres of path (0 .. LIMITS.maxLookahead): { positions, kinds, cells }. */
  agentLookahead(agent, length) {
    const fn = 'agentLookahead';
    const v = this.#value(this.#c(fn).agentLookahead(number(fn, 'agent', agent), number(fn, 'length', length)));
    return waypoints(v, v.length / 7);
  }

  // ---- host entities agents may chase (voxnav/control.h) ----
  /** Adds a host entity at `position` (metres); returns its id (an EntityId, never an agent id). */
  addEntity(position) {
    const fn = 'addEntity';
    const core = this.#c(fn);
    return this.#value(core.addEntity(xyz(fn, 'position', position)));
  }
  /** Moves a host entity (typically once a tick); its chasers read it at their next step. */
  setEntityPosition(entity, position) {
    const fn = 'setEntityPosition';
    const core = this.#c(fn);
    this.#check(core.setEntityPosition(number(fn, 'entity', entity), xyz(fn, 'position', position)));
  }
  /** [x, y, z] of a host entity. */
  entityPosition(entity) {
    const fn = 'entityPosition';
    const v = this.#value(this.#c(fn).entityPosition(number(fn, 'entity', entity)));
    return [v[0], v[1], v[2]];
  }
  /** Removes a host entity; agents chasing it stop (failed) at their next step. */
  removeEntity(entity) {
    const fn = 'removeEntity';
    this.#check(this.#c(fn).removeEntity(number(fn, 'entity', entity)));
  }

  // ---- doors ----
  /**
   * Opens (open = true) or closes a door: the cell and the run straight above and below it of the
   * same door block in the same state (both halves of a two-high door) take the registry's
   * toggled value. Navigation sees it at the next update() / tick(). Nothing changes when the door
   * already is in that state. Errors (nothing changes): InvalidArgument (cell not [x, y, z]
   * integers, open not a boolean), OutOfRange, NotLoaded, NotFound (the cell holds no door),
   * Unsupported (the registry gives the door no toggled state).
   */
  setDoorOpen(cell, open) {
    const fn = 'setDoorOpen';
    const core = this.#c(fn);
    const c = xyz(fn, 'cell', cell);
    if (typeof open !== 'boolean') throw argError('InvalidArgument', fn, 'open', `open must be a boolean (got ${typeName(open)})`);
    this.#check(core.setDoorOpen(c, open));
  }
  /**
   * The DoorAhead events raised since the last call, oldest first, and clears them: an agent
   * stopped before a closed door cell of its corridor and holds until it opens (after 40 ticks it
   * avoids the door for 600 ticks and plans again). { count, agents: Float64Array n (agent ids),
   * doors: Int32Array 3n (door cells), ticks: Float64Array n (navTick when raised) }.
   * At most 4096 wait; older ones are dropped.
   */
  takeDoorEvents() {
    const v = this.#value(this.#c('takeDoorEvents').takeDoorEvents());
    const n = v.length / 5;
    return { count: n, agents: v.slice(0, n), doors: Int32Array.from(v.subarray(n, 4 * n)), ticks: v.slice(4 * n) };
  }
  /** DoorAhead events waiting for takeDoorEvents(). */
  get pendingDoorEvents() { return this.#c('pendingDoorEvents').pendingDoorEvents(); }
  /** Navigation tick: update() calls so far (tick() makes one); door event ticks count in it. */
  get navTick() { return this.#c('navTick').navTick(); }

  // ---- chunk streaming and the search budget ----
  /**
   * Turns chunk streaming on or off (off by default). When on, a chunk loaded after the first
   * update() has its navigation built on the executor (the pthread of the threaded build, at
   * dispatch in the sync build) from a snapshot of its blocks and of the neighbours its cells
   * read, and installed two updates later (tick() makes one update) if the chunk is still the one
   * loaded; a chunk edited meanwhile is classified again from the current blocks. Until then its
   * cells answer reachable() 'unknown' (reason 'not_loaded'), isStandable() false, and no corridor
   * enters it; reachable() answers 'no' only when the start reaches no island bordering a chunk
   * without navigation. Loading more than 48 chunks in one update builds them at once, as without
   * streaming (unless a build radius is set: setChunkBuildRadius). Chunks loaded before the first
   * update are built by it. on: a boolean (InvalidArgument otherwise; nothing changes).
   */
  setChunkStreaming(on) {
    const fn = 'setChunkStreaming';
    const core = this.#c(fn);
    if (typeof on !== 'boolean') throw argError('InvalidArgument', fn, 'on', `on must be a boolean (got ${typeName(on)})`);
    core.setChunkStreaming(on);
  }
  /** Whether chunk streaming is on (setChunkStreaming; false by default). */
  chunkStreaming() { return this.#c('chunkStreaming').chunkStreaming(); }
  /**
   * Chunk builds dispatched or waiting to be dispatched (a count of chunk builds, summed over the
   * movement classes; 0 without streaming). Deferred chunks (deferredChunkBuilds) are not counted.
   */
  pendingChunkBuilds() { return this.#c('pendingChunkBuilds').pendingChunkBuilds(); }
  /**
   * Build radius of chunk streaming, in chunks: with streaming on and `chunks` > 0, a chunk loaded
   * after the first update() is built only once it is within `chunks` chunks of an agent (the
   * Chebyshev distance in chunk coordinates, the largest of |dx|, |dy|, |dz|, to the chunk holding
   * a live agent's feet, whatever its mode). Until then the chunk is deferred: loaded, not built,
   * its cells answer 'unknown' ('not_loaded') and no corridor enters it. Each update() (tick()
   * makes one) looks at where the agents are then: a deferred chunk an agent came near (walking or
   * teleported) is dispatched and installed like any streamed build. A built chunk stays built
   * until unloaded; edits of a deferred chunk cost nothing. With a radius every load is streamed,
   * however many chunks one update loads. Agents whose goal lies in (or past) unbuilt chunks walk
   * as close as the built chunks go and plan again there; request() still fails with 'not_loaded'.
   * 0 (the default) builds every loaded chunk; without streaming the radius has no effect. Applies
   * to every movement class. chunks: an integer in 0 .. 32 (InvalidArgument otherwise, naming it
   * and the range; nothing changes).
   */
  setChunkBuildRadius(chunks) {
    const fn = 'setChunkBuildRadius';
    const core = this.#c(fn);
    this.#check(core.setChunkBuildRadius(count(fn, 'chunks', chunks, this.#lib.LIMITS.maxChunkBuildRadius, 'chunks')));
  }
  /** The build radius of chunk streaming, in chunks (0 .. 32; 0: every loaded chunk is built). */
  chunkBuildRadius() { return this.#c('chunkBuildRadius').chunkBuildRadius(); }
  /**
   * Loaded chunks whose build is deferred because no agent is within the build radius (a count of
   * chunk builds, summed over the movement classes like pendingChunkBuilds; 0 without a radius).
   */
  deferredChunkBuilds() { return this.#c('deferredChunkBuilds').deferredChunkBuilds(); }
  /**
   * Search budget, in searches per update: at most `searches` path searches are dispatched per
   * update() (tick() makes one) and movement class, the oldest requests first; the others stay
   * queued (their status 'searching', agents wait in 'planning') for the next updates, and give
   * the same results as without a budget. A burst of replans then costs a few ticks of waiting
   * instead of one long tick, which matters most in the sync build, where searches run inside
   * update(). Local corridor repairs (short, bounded searches) and findPathNow() are not counted.
   * 0 (the default): every queued request is dispatched at once. searches: an integer in
   * 0 .. 4096 (InvalidArgument otherwise, naming it and the range; nothing changes).
   */
  setSearchesPerUpdate(searches) {
    const fn = 'setSearchesPerUpdate';
    const core = this.#c(fn);
    this.#check(core.setSearchesPerUpdate(count(fn, 'searches', searches, this.#lib.LIMITS.maxSearchesPerUpdate, 'searches')));
  }
  /** The search budget, in searches per update and movement class (0 .. 4096; 0: no limit). */
  searchesPerUpdate() { return this.#c('searchesPerUpdate').searchesPerUpdate(); }
  /** Path requests (agents' included) waiting to be dispatched, summed over the movement classes. */
  queuedRequests() { return this.#c('queuedRequests').queuedRequests(); }

  /** One simulation tick (update, then every agent follows its corridor and moves). */
  tick(dt = 0.05) {
    const fn = 'tick';
    this.#check(this.#c(fn).tick(number(fn, 'dt', dt)));
  }

  stats() {
    const v = this.#c('stats').stats();
    return {
      searches: v[0], nodesExpanded: v[1], maintenanceRuns: v[2], lastMaintenanceMs: v[3],
      standableCells: v[4], islands: v[5], agents: v[6], threadJobs: v[7], build: this.#lib.build,
    };
  }
  /** Wall time of every search applied so far, microseconds. */
  searchTimesUs() { return this.#c('searchTimesUs').searchTimesUs().slice(); }

  /**
   * FNV-1a 64 of every live agent's state and corridor (in the order added), as 16 hex digits:
   * the same calls give the same hash natively (`voxnav run --script`) and in wasm.
   */
  stateHash() {
    const core = this.#c('stateHash');
    const h = core.stateHash();
    if (h === '') throw this.#error();
    return h;
  }

  /**
   * The highest block that is not air in each column of the box min .. max (inclusive; only
   * y in min[1] .. max[1] is looked at). { width, heights: Int32Array, values: Uint16Array }, one
   * entry per column at (x - min[0]) + width * (z - min[2]); -2147483648 / 0 where a column has
   * none (or is not loaded). Limits, so that one call takes well under a second loaded or not
   * (InvalidArgument beyond): at most 4194304 columns, 4096 cells of y, and 67108864 cells in
   * all (columns x height: a whole 512 x 512 region, 256 cells high). Unloaded chunks cost one
   * lookup per chunk, not per column.
   */
  topBlocks(min, max) {
    const fn = 'topBlocks';
    const core = this.#c(fn);
    const a = xyz(fn, 'min', min), b = xyz(fn, 'max', max);
    const [heights, values] = this.#value(core.topBlocks(a, b));
    return { width: b[0] - a[0] + 1, heights: heights.slice(), values: values.slice() };
  }

  /** The body (stepBody params) of a profile: its width, height, step height, jump and climb speed. */
  profileBody(profile) {
    const fn = 'profileBody';
    const v = this.#value(this.#c(fn).profileBody(number(fn, 'profile', profile)));
    const out = {};
    BODY_KEYS.forEach((k, i) => { out[k] = v[i]; });
    return out;
  }

  /**
   * stepBody's and gapJumpRun's params (a profile id or body fields) as the numbers of BODY_KEYS,
   * in order (a field left out: DEFAULT_BODY's).
   */
  #body(fn, core, params) {
    let body = params;
    if (typeof params === 'number') {
      const v = core.profileBody(params);
      if (v === undefined) {
        const e = core.lastError();
        throw argError(STATUS_NAMES[e.status] ?? 'Unknown', fn, 'params', `params: ${e.message}`);
      }
      body = {};
      BODY_KEYS.forEach((k, i) => { body[k] = v[i]; });
    }
    if (body === null || typeof body !== 'object') throw argError('InvalidArgument', fn, 'params', `params must be a profile id or an object`);
    for (const k of Object.keys(body)) {
      if (!BODY_KEYS.includes(k)) throw argError('InvalidArgument', fn, 'params', `params.${k} is not a body field (${BODY_KEYS.join(', ')})`);
    }
    return BODY_KEYS.map((k) => (body[k] === undefined ? DEFAULT_BODY[k] : number(fn, `params.${k}`, body[k])));
  }

  /**
   * How a body (params: a profile id or body fields, as stepBody takes) runs a gap jump over
   * `cells` (1 .. 8) cells of open air, as the agents' follower does: { speed } (m/s, the run
   * speed whose flight lands on the landing cell's centre, between walkSpeed and sprintSpeed) and
   * { takeOff } (cells: the horizontal distance to the landing cell's centre at which it jumps).
   */
  gapJumpRun(params, cells, walkSpeed, sprintSpeed) {
    const fn = 'gapJumpRun';
    const core = this.#c(fn);
    const body = this.#body(fn, core, params);
    const g = body[BODY_KEYS.indexOf('gravity')], v = body[BODY_KEYS.indexOf('jumpVelocity')];
    const r = this.#value(core.gapJumpRun(g, v, number(fn, 'cells', cells), number(fn, 'walkSpeed', walkSpeed),
      number(fn, 'sprintSpeed', sprintSpeed)));
    return { speed: r[0], takeOff: r[1] };
  }

  /**
   * One step of the movement integrator (the one agents use) for a body you own, against this
   * world's blocks. state: { feet, velocity?, carry?, onGround?, mode? } (a state this method
   * returned may be passed back: its `report` is ignored); input: { move?: [x, z], jump?, climb?,
   * vertical?, knock? }; params: a profile id, or body fields (defaults: the standard walker); dt
   * seconds in (0, 1]. Unknown fields of state, input or params are refused (InvalidArgument
   * naming them), as is a profile id that is not one of this world. Returns the new state and what
   * the step did; the arguments are not changed.
   */
  stepBody(state, input = {}, params = {}, dt = 0.05) {
    const fn = 'stepBody';
    const core = this.#c(fn);
    if (!state || typeof state !== 'object') throw argError('InvalidArgument', fn, 'state', `state must be an object { feet, velocity?, ... }`);
    if (input === null || typeof input !== 'object') throw argError('InvalidArgument', fn, 'input', `input must be an object`);
    for (const k of Object.keys(state)) {
      if (!STATE_KEYS.includes(k)) throw argError('InvalidArgument', fn, 'state', `state.${k} is not a body state field (${STATE_KEYS.join(', ')})`);
    }
    for (const k of Object.keys(input)) {
      if (!INPUT_KEYS.includes(k)) throw argError('InvalidArgument', fn, 'input', `input.${k} is not an input field (${INPUT_KEYS.join(', ')})`);
    }
    const body = this.#body(fn, core, params);
    const mode = BODY_MODES.indexOf(state.mode ?? 'walk');
    if (mode < 0) throw argError('InvalidArgument', fn, 'state', `state.mode '${state.mode}' is not one of ${BODY_MODES.join(', ')}`);
    const climb = CLIMB_INTENTS.indexOf(input.climb ?? 'none');
    if (climb < 0) throw argError('InvalidArgument', fn, 'input', `input.climb '${input.climb}' is not one of ${CLIMB_INTENTS.join(', ')}`);
    let move = [0, 0];
    if (input.move !== undefined) {
      const m = input.move;
      if (!m || typeof m.length !== 'number' || m.length !== 2 || typeof m[0] !== 'number' || typeof m[1] !== 'number')
        throw argError('InvalidArgument', fn, 'input', `input.move must be [x, z] numbers (m/s)`);
      move = m;
    }
    const packed = new Float64Array(26);
    packed.set(xyz(fn, 'state.feet', state.feet), 0);
    packed.set(state.velocity === undefined ? [0, 0, 0] : xyz(fn, 'state.velocity', state.velocity), 3);
    packed.set(state.carry === undefined ? [0, 0, 0] : xyz(fn, 'state.carry', state.carry), 6);
    packed[9] = state.onGround ? 1 : 0;
    packed[10] = mode;
    packed[11] = move[0];
    packed[12] = move[1];
    packed[13] = input.jump ? 1 : 0;
    packed[14] = climb;
    packed[15] = input.vertical === undefined ? 0 : number(fn, 'input.vertical', input.vertical);
    packed.set(input.knock === undefined ? [0, 0, 0] : xyz(fn, 'input.knock', input.knock), 16);
    packed.set(body, 19);
    const r = this.#value(core.stepBody(packed, number(fn, 'dt', dt)));
    return {
      feet: [r[0], r[1], r[2]], velocity: [r[3], r[4], r[5]], carry: [r[6], r[7], r[8]],
      onGround: r[9] === 1, mode: BODY_MODES[r[10]],
      report: {
        displacement: [r[11], r[12], r[13]], hitWallX: r[14] === 1, hitWallZ: r[15] === 1, wallSpeed: r[16],
        hitCeiling: r[17] === 1, landed: r[18] === 1, landingSpeed: r[19], steppedUp: r[20] === 1,
        stepRise: r[21], climbing: r[22] === 1, inFluid: r[23] === 1,
      },
    };
  }
}

/** Set by init(): the library `new World()` uses when no `voxnav` option is given. */
let defaultLibrary = null;
export function setDefaultLibrary(lib) {
  defaultLibrary = lib;
}
