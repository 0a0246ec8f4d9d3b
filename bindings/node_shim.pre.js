// voxnav: --extern-pre-js for the ES module glue (-sMODULARIZE -sEXPORT_ES6). Emscripten 3.1.6's
// Node code path uses require / __filename / __dirname, which an ES module does not have. They
// are made here, in Node only (browsers and workers leave them undefined), from what the loader
// (web/lib/loader.mjs, prepareNodeHost) put in globalThis.__voxnavNodeHost before importing the
// glue; a Node pthread's worker script (CommonJS) defines a global require itself. So the glue
// has no top-level await and names no Node built-in: bundlers take it as it is.
var __isNode = typeof process === 'object' && !!(process.versions && process.versions.node);
var __voxnavHost = (__isNode && globalThis.__voxnavNodeHost) || {};
var require = __isNode
  ? (__voxnavHost.createRequire ? __voxnavHost.createRequire(import.meta.url) : globalThis.require)
  : undefined;
var __filename = __isNode
  ? (__voxnavHost.fileURLToPath ? __voxnavHost.fileURLToPath(import.meta.url)
                                : decodeURIComponent(new URL(import.meta.url).pathname))
  : undefined;
var __dirname = __isNode ? __filename.replace(/[\\/][^\\/]*$/, '') : undefined;
