// voxnav - finds, loads and instantiates one of the two wasm builds.
//
// 'threaded' (voxnav-mt: one pthread runs navigation searches; needs SharedArrayBuffer, i.e. a
// cross-origin isolated page in browsers) or 'sync' (voxnav-sync: searches run at dispatch).
// 'auto' picks threaded in a cross-origin isolated browser context and sync elsewhere (Node
// included: ask for 'threaded' explicitly there).
import { VoxnavError } from './errors.mjs';

export const isNode = typeof process === 'object' && !!(process.versions && process.versions.node) &&
  typeof window === 'undefined' && typeof importScripts === 'undefined';

// The package's files, each as a literal `new URL('...', import.meta.url)`: the pattern Vite
// (dev and build) and webpack 5 recognise, emit as assets and rewrite, so a bundled game finds
// them without copying anything. esbuild leaves the pattern as it is: its users copy dist/ and
// pass `distUrl` (or wasmUrl). One function per build keeps every specifier literal.
function packageUrls(build) {
  return build === 'threaded'
    ? {
        wasm: new URL('../dist/voxnav-mt.wasm', import.meta.url),
        glue: new URL('../dist/voxnav-mt.mjs', import.meta.url),
        worker: new URL('../dist/voxnav-mt.worker.js', import.meta.url),
      }
    : { wasm: new URL('../dist/voxnav-sync.wasm', import.meta.url) };
}
const FILE_NAMES = {
  sync: { wasm: 'voxnav-sync.wasm' },
  threaded: { wasm: 'voxnav-mt.wasm', glue: 'voxnav-mt.mjs', worker: 'voxnav-mt.worker.js' },
};

/** The URLs of a build's files: under `distUrl` when given (a CDN, a copied dist/), else the package's. */
function buildUrls(build, distUrl) {
  if (distUrl === undefined) return packageUrls(build);
  let base;
  try {
    base = new URL(String(distUrl).endsWith('/') ? String(distUrl) : `${distUrl}/`, globalThis.location?.href);
  } catch {
    throw new VoxnavError('InvalidArgument', `init: distUrl '${distUrl}' is not a URL`, 'init', 'distUrl');
  }
  const out = {};
  for (const [k, name] of Object.entries(FILE_NAMES[build])) out[k] = new URL(name, base);
  return out;
}

// Node built-ins, imported by a name bundlers do not see: a browser bundle never tries to resolve
// them, and they are only imported when running under Node.
const nodeBuiltin = (name) => import(/* webpackIgnore: true */ /* @vite-ignore */ `node:${name}`);

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

/** How long init waits for a module to start. */
const START_TIMEOUT_MS = 10000;

/** The wasm bytes at `url`, or a VoxnavError naming the URL and what came back. */
async function fetchWasm(url) {
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    throw new VoxnavError('NotFound', `init: cannot fetch the wasm module at ${url}: ${e && e.message ? e.message : e}`, 'init', 'wasmUrl');
  }
  if (!r.ok) throw new VoxnavError('NotFound', `init: the wasm module at ${url} answered HTTP ${r.status}`, 'init', 'wasmUrl');
  const bytes = new Uint8Array(await r.arrayBuffer());
  if (!(bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d)) {
    const type = r.headers.get('content-type') || 'no content type';
    throw new VoxnavError('BadFormat', `init: ${url} is not a wasm module (${bytes.length} bytes, ${type}; ` +
      'a page served in its place? pass distUrl or wasmUrl to say where the package\'s dist/ files are)', 'init', 'wasmUrl');
  }
  return bytes;
}

/** Rejects with a VoxnavError naming `url` and its HTTP status when it cannot be fetched. */
async function checkReachable(url, what) {
  let r;
  try {
    r = await fetch(String(url), { method: 'HEAD' });
  } catch (e) {
    throw new VoxnavError('NotFound', `init: cannot fetch ${what} at ${url}: ${e && e.message ? e.message : e}`, 'init', 'distUrl');
  }
  if (!r.ok) throw new VoxnavError('NotFound', `init: ${what} at ${url} answered HTTP ${r.status} (pass distUrl to say where the package's dist/ files are)`, 'init', 'distUrl');
}

/**
 * A URL a worker started from it can import from: a bundler may inline a small file as a data:
 * URL (Vite does below 4 KiB), and a worker from a data: URL has an opaque origin, so its import
 * of the glue fails; a blob: URL made here has this context's origin.
 */
async function sameOriginUrl(url) {
  const href = String(url);
  if (!href.startsWith('data:')) return href;
  const blob = await (await fetch(href)).blob();
  return URL.createObjectURL(new Blob([blob], { type: 'text/javascript' }));
}

/**
 * Node: what the glue's Node code needs from an ES module (require, __filename), given to it
 * through globalThis before it is imported (bindings/node_shim.pre.js), so the glue itself has no
 * top-level await and imports no Node built-in by name.
 */
async function prepareNodeHost() {
  if (globalThis.__voxnavNodeHost) return;
  const [{ createRequire }, { fileURLToPath }] = await Promise.all([nodeBuiltin('module'), nodeBuiltin('url')]);
  globalThis.__voxnavNodeHost = { createRequire, fileURLToPath };
}

function toBytes(b) {
  if (b instanceof Uint8Array) return b;
  if (b instanceof ArrayBuffer) return new Uint8Array(b);
  if (ArrayBuffer.isView(b)) return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  throw new VoxnavError('InvalidArgument', 'init: wasmBinary must be an ArrayBuffer or a Uint8Array');
}

async function readNodeBytes(url) {
  const fs = await nodeBuiltin('fs/promises');
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
 * Instantiates a build. Options: build ('auto' | 'sync' | 'threaded'), distUrl (where the
 * package's dist/ files are served, e.g. a CDN: default the package's own, found through
 * `new URL(..., import.meta.url)`), wasmUrl (the .wasm alone), wasmBinary (the bytes themselves).
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

  if (isNode) await prepareNodeHost();  // before the glue is imported
  let factory;
  let chosen = build;
  try {
    factory = (await importGlue(build)).default;
  } catch (e) {
    if (want !== 'auto' || build === 'sync')
      throw new VoxnavError('NotFound', `init: cannot load the ${build} build's glue (dist/voxnav-${build === 'threaded' ? 'mt' : 'sync'}.mjs): ${e.message}`);
    chosen = 'sync';  // auto: this package was built without the threaded module
    factory = (await importGlue('sync')).default;
  }

  const urls = buildUrls(chosen, options.distUrl);
  const moduleArg = {};
  if (wasmBinary !== undefined) {
    moduleArg.wasmBinary = toBytes(wasmBinary);
  } else if (isNode) {
    // Node 20's fetch cannot read file: URLs and the ES glue cannot find the file itself.
    moduleArg.wasmBinary = await readNodeBytes(wasmUrl ?? urls.wasm);
  } else {
    // Fetched here, not by the glue, so a missing or wrong file is named with its URL and status
    // instead of failing deep inside WebAssembly.instantiate ("bad magic word").
    moduleArg.wasmBinary = await fetchWasm(String(wasmUrl ?? urls.wasm));
  }
  if (chosen === 'threaded' && !isNode) {
    // The pthread script and the glue it imports, at URLs that survive bundling (or under distUrl).
    await checkReachable(urls.worker, 'the pthread worker script');
    await checkReachable(urls.glue, 'the threaded glue the pthread script imports');
    const workerUrl = await sameOriginUrl(urls.worker);
    moduleArg.locateFile = (path, prefix) => (path.endsWith('.worker.js') ? workerUrl : prefix + path);
    moduleArg.mainScriptUrlOrBlob = await sameOriginUrl(urls.glue);
  }
  let module;
  let timer;
  try {
    // A threaded module waits for its pthread to start: one that cannot start (a script blocked
    // by the page's policies, a worker error) would hang init for ever.
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new VoxnavError('Unsupported',
        `init: the ${chosen} wasm module did not start within ${START_TIMEOUT_MS / 1000} s` +
        (chosen === 'threaded' ? ' (its pthread worker never answered: check that the page may start ' +
          'module workers from the pthread script\'s URL, or use build: \'sync\')' : ''), 'init', 'build')),
      START_TIMEOUT_MS);
    });
    module = await Promise.race([factory(moduleArg), timeout]);
  } catch (e) {
    if (e instanceof VoxnavError) throw e;
    throw new VoxnavError('BadFormat', `init: the ${chosen} wasm module failed to start: ${e && e.message ? e.message : e}`);
  } finally {
    clearTimeout(timer);
  }
  if (isNode && module.PThread) {
    // The pooled pthread (a worker_threads Worker) waits for jobs forever: let Node exit anyway.
    for (const w of [...module.PThread.unusedWorkers, ...module.PThread.runningWorkers]) {
      if (w && typeof w.unref === 'function') w.unref();
    }
  }
  return { module, build: chosen };
}
