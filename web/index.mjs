// voxnav - navigation for editable block worlds, in WebAssembly.
//
//   import { init, World } from 'voxnav';
//   await init();                       // or init({ wasmUrl }) / init({ wasmBinary }) / init({ build })
//   const world = new World();
//
// `ready` resolves with the library once init() has loaded it. load() makes further independent
// instances (e.g. the other build) without changing the default one.
import { VoxnavError, STATUS_NAMES } from './lib/errors.mjs';
import { instantiate, threadsAvailable } from './lib/loader.mjs';
import {
  World, EDGE_KINDS, AGENT_MODES, BODY_MODES, CLIMB_INTENTS, CELL_REACH, DEFAULT_BODY, setDefaultLibrary,
} from './lib/world.mjs';
import { readRegion } from './lib/anvil.mjs';

export {
  VoxnavError, STATUS_NAMES, World, EDGE_KINDS, AGENT_MODES, BODY_MODES, CLIMB_INTENTS, CELL_REACH, DEFAULT_BODY,
  threadsAvailable, readRegion,
};

export const version = '0.1.0';

/**
 * The limits of the C++ API (named once in its headers: kMaxCellXZ, kMaxGoalRange, ...), as the
 * loaded library reports them: a frozen object, null until init() has resolved (each library from
 * load() carries its own as `lib.LIMITS`).
 */
export let LIMITS = null;

/** Loads a new, independent instance of the library. */
export async function load(options = {}) {
  const { module, build } = await instantiate(options);
  const lib = {
    build,
    module,
    version,
    VoxnavError,
    World,
    EDGE_KINDS,
    AGENT_MODES,
    LIMITS: Object.freeze({ ...module.limits() }),
    /** A World of this instance. */
    createWorld(worldOptions = {}) {
      return new World({ ...worldOptions, voxnav: lib });
    },
  };
  return Object.freeze(lib);
}

let resolveReady;
/**
 * Resolves with the default library once init() has loaded it. A failed init() rejects its own
 * promise and leaves `ready` pending, so that a later successful init() (a retry) resolves it.
 */
export const ready = new Promise((resolve) => {
  resolveReady = resolve;
});

let initPromise = null;
let initBuild = null;  // the build init() was asked for ('auto' when not given)

/**
 * Loads the default library (the one `new World()` uses). Later calls return the same promise; a
 * failed init may be retried. A later call that asks for another build than the one loaded (or
 * being loaded) rejects with a VoxnavError (Busy) saying which build the library has: use load()
 * for an independent instance of the other build. wasmUrl / wasmBinary of later calls are ignored.
 */
export function init(options = {}) {
  if (initPromise) {
    const want = options && typeof options === 'object' ? options.build : undefined;
    if (want === undefined || want === 'auto' || want === initBuild) return initPromise;
    if (want !== 'sync' && want !== 'threaded')
      return Promise.reject(new VoxnavError('InvalidArgument', `init: build '${want}' is not 'auto', 'sync' or 'threaded'`));
    return initPromise.then((lib) => {
      if (want === lib.build) return lib;
      throw new VoxnavError('Busy',
        `init: the library is already initialised with build '${lib.build}' (asked for '${want}'); ` +
        'use load({ build }) for an independent instance of another build');
    });
  }
  initBuild = options && typeof options === 'object' ? options.build ?? 'auto' : 'auto';
  initPromise = load(options).then(
    (lib) => {
      setDefaultLibrary(lib);
      LIMITS = lib.LIMITS;
      resolveReady(lib);
      return lib;
    },
    (err) => {
      initPromise = null;
      initBuild = null;
      throw err;
    },
  );
  return initPromise;
}
