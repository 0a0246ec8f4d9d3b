// voxnav - navigation for editable block worlds, in WebAssembly.
//
//   import { init, World } from 'voxnav';
//   await init();                       // or init({ wasmUrl }) / init({ wasmBinary }) / init({ build })
//   const world = new World();
//
// `ready` settles with the library once init() has loaded it. load() makes further independent
// instances (e.g. the other build) without changing the default one.
import { VoxnavError, STATUS_NAMES } from './lib/errors.mjs';
import { instantiate, threadsAvailable } from './lib/loader.mjs';
import {
  World, EDGE_KINDS, AGENT_MODES, BODY_MODES, CLIMB_INTENTS, DEFAULT_BODY, setDefaultLibrary,
} from './lib/world.mjs';
import { readRegion } from './lib/anvil.mjs';

export {
  VoxnavError, STATUS_NAMES, World, EDGE_KINDS, AGENT_MODES, BODY_MODES, CLIMB_INTENTS, DEFAULT_BODY,
  threadsAvailable, readRegion,
};

export const version = '0.1.0';

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
    /** A World of this instance. */
    createWorld(worldOptions = {}) {
      return new World({ ...worldOptions, voxnav: lib });
    },
  };
  return Object.freeze(lib);
}

let resolveReady;
let rejectReady;
/** Settles with the default library once init() has loaded it (or failed). */
export const ready = new Promise((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
ready.catch(() => {});  // a failed init() is reported by init() itself; `ready` only mirrors it

let initPromise = null;

/**
 * Loads the default library (the one `new World()` uses). Later calls return the same promise;
 * a failed init may be retried.
 */
export function init(options = {}) {
  if (initPromise) return initPromise;
  initPromise = load(options).then(
    (lib) => {
      setDefaultLibrary(lib);
      resolveReady(lib);
      return lib;
    },
    (err) => {
      initPromise = null;
      rejectReady(err);
      throw err;
    },
  );
  return initPromise;
}
