// voxnav - finds, loads and instantiates one of the two wasm builds.
//
// 'threaded' (voxnav-mt: one pthread runs navigation searches; needs SharedArrayBuffer, i.e. a
// cross-origin isolated page in browsers) or 'sync' (voxnav-sync: searches run at dispatch).
// 'auto' picks threaded in a cross-origin isolated browser context and sync elsewhere (Node
// included: ask for 'threaded' explicitly there).
import { VoxnavError } from './errors.mjs';

export const isNode = typeof process === 'object' && !!(process.versions && process.versions.node) &&
  typeof window === 'undefined' && typeof importScripts === 'undefined';

const FILES = {
  sync: { glue: '../dist/voxnav-sync.mjs', wasm: '../dist/voxnav-sync.wasm' },
  threaded: { glue: '../dist/voxnav-mt.mjs', wasm: '../dist/voxnav-mt.wasm' },
};

/** Whether this context can run the threaded build. */
export function threadsAvailable() {
  if (typeof SharedArrayBuffer === 'undefined' || typeof Atomics === 'undefined') return false;
  if (isNode) return true;
  return globalThis.crossOriginIsolated === true;
}

function importGlue(build) {
  // Literal specifiers so bundlers see both files.
  return build === 'threaded' ? import('../dist/voxnav-mt.mjs') : import('../dist/voxnav-sync.mjs');
}

function toBytes(b) {
  if (b instanceof Uint8Array) return b;
  if (b instanceof ArrayBuffer) return new Uint8Array(b);
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  throw new VoxnavError('InvalidArgument', 'init: wasmBinary must be an ArrayBuffer or a Uint8Array');
}

async function readNodeBytes(url) {
  const fs = await import('node:fs/promises');
  const href = url instanceof URL ? url.href : String(url);
  if (/^https?:/.test(href)) {
    const r = await fetch(href);
    if (!r.ok) throw new VoxnavError('NotFound', `init: wasmUrl ${href} answered ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }
  const path = href.startsWith('file:') ? new URL(href) : href;
  try {
    return new Uint8Array(await fs.readFile(path));
  } catch (e) {
    throw new VoxnavError('NotFound', `init: cannot read wasmUrl ${href}: ${e.message}`);
  }
}

/**
 * Instantiates a build. Options: build ('auto' | 'sync' | 'threaded'), wasmUrl (URL or string;
 * default: the .wasm beside the glue in dist/), wasmBinary (the bytes themselves).
 * Returns { module, build }.
 */
export async function instantiate(options = {}) {
  if (options === null || typeof options !== 'object')
    throw new VoxnavError('InvalidArgument', 'init: options must be an object');
  const { wasmUrl, wasmBinary } = options;
  const want = options.build ?? 'auto';
  if (!['auto', 'sync', 'threaded'].includes(want))
    throw new VoxnavError('InvalidArgument', `init: build '${want}' is not 'auto', 'sync' or 'threaded'`);
  if (want === 'threaded' && !threadsAvailable())
    throw new VoxnavError('Unsupported',
      'init: build \'threaded\' needs SharedArrayBuffer (serve the page cross-origin isolated: ' +
      'Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp)');
  const build = want === 'auto' ? (!isNode && threadsAvailable() ? 'threaded' : 'sync') : want;

  let factory;
  let chosen = build;
  try {
    factory = (await importGlue(build)).default;
  } catch (e) {
    if (want !== 'auto' || build === 'sync')
      throw new VoxnavError('NotFound', `init: cannot load the ${build} build (${FILES[build].glue}): ${e.message}`);
    chosen = 'sync';  // auto: this package was built without the threaded module
    factory = (await importGlue('sync')).default;
  }

  const moduleArg = {};
  const defaultWasm = new URL(FILES[chosen].wasm, import.meta.url);
  if (wasmBinary !== undefined) {
    moduleArg.wasmBinary = toBytes(wasmBinary);
  } else if (isNode) {
    // Node 20's fetch cannot read file: URLs and the ES glue cannot find the file itself.
    moduleArg.wasmBinary = await readNodeBytes(wasmUrl ?? defaultWasm);
  } else {
    const url = String(wasmUrl ?? defaultWasm);
    moduleArg.locateFile = (path, prefix) => (path.endsWith('.wasm') ? url : prefix + path);
  }
  let module;
  try {
    module = await factory(moduleArg);
  } catch (e) {
    throw new VoxnavError('BadFormat', `init: the ${chosen} wasm module failed to start: ${e && e.message ? e.message : e}`);
  }
  if (isNode && module.PThread) {
    // The pooled pthread (a worker_threads Worker) waits for jobs forever: let Node exit anyway.
    for (const w of [...module.PThread.unusedWorkers, ...module.PThread.runningWorkers]) {
      if (w && typeof w.unref === 'function') w.unref();
    }
  }
  return { module, build: chosen };
}
