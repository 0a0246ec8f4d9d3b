// voxnav: --extern-pre-js for the ES module glue (-sMODULARIZE -sEXPORT_ES6). Emscripten 3.1.6's
// Node code path uses require / __filename / __dirname, which an ES module does not have; define
// them from import.meta.url in Node only (browsers and workers leave them undefined).
// (In Node the pthread worker script defines importScripts too: test for Node only.)
var __isNode = typeof process === 'object' && !!(process.versions && process.versions.node);
var require = __isNode ? (await import('module')).createRequire(import.meta.url) : undefined;
var __filename = __isNode ? (await import('url')).fileURLToPath(import.meta.url) : undefined;
var __dirname = __isNode ? (await import('path')).dirname(__filename) : undefined;
