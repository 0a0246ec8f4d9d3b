// A small static server for the demo page (Node, no dependencies). Serves, from 127.0.0.1:
//   /            examples/web (the page)
//   /voxnav/     the npm package: web/ sources, with /voxnav/dist/ from the wasm build
//   /data/       data/blocks and data/worlds
// With the cross-origin isolation headers (COOP same-origin, COEP require-corp, CORP same-origin)
// the page gets SharedArrayBuffer and the worker runs the threaded build; --no-isolation serves
// without them and the worker falls back to the synchronous build.
//
//   node examples/web/serve.mjs [--port 8080] [--no-isolation] [--build-dir DIR]
//
// DIR is the wasm preset's build directory (default: $VOXNAV_WASM_BUILD_DIR, else build/wasm).
// --port 0 picks a free port. The first line printed is "voxnav demo: <url> (...)".
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.mca': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

const USAGE = `usage: node examples/web/serve.mjs [--port N] [--host 127.0.0.1] [--no-isolation] [--build-dir DIR]

Serves the voxnav demo page (examples/web), the npm package (/voxnav/, with dist/ from the wasm
build) and data/ from 127.0.0.1.
  --port N          port to listen on (default 8080; 0 picks a free port)
  --host HOST       address to listen on (default 127.0.0.1)
  --no-isolation    serve without the cross-origin isolation headers (the worker runs the sync build)
  --build-dir DIR   the wasm preset's build directory (default: $VOXNAV_WASM_BUILD_DIR, else build/wasm)
  -h, --help        print this and exit`;

/** A bad command line: the problem and the usage on stderr, exit status 2. */
function usage(message) {
  if (message) console.error(`serve.mjs: ${message}`);
  console.error(USAGE.split('\n')[0]);
  process.exit(2);
}

/** --help: the usage on stdout, exit status 0. */
function help() {
  console.log(USAGE);
  process.exit(0);
}

export function parseArgs(argv) {
  const o = {
    port: 8080, host: '127.0.0.1', isolation: true,
    buildDir: process.env.VOXNAV_WASM_BUILD_DIR || path.join(repo, 'build/wasm'),
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} expects a value`));
    if (a === '--port') {
      o.port = Number(value());
      if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) usage('--port expects 0 .. 65535');
    } else if (a === '--host') o.host = value();
    else if (a === '--no-isolation') o.isolation = false;
    else if (a === '--build-dir') o.buildDir = path.resolve(value());
    else if (a === '-h' || a === '--help') help();
    else usage(`unknown argument '${a}'`);
  }
  return o;
}

/** URL path -> file, or null when the path is outside the served folders. */
function resolve(urlPath, o) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  if (p.includes('\0')) return null;
  const mounts = [
    ['/voxnav/dist/', path.join(o.buildDir, 'web/dist')],
    ['/voxnav/', path.join(repo, 'web')],
    ['/data/blocks/', path.join(repo, 'data/blocks')],
    ['/data/worlds/', path.join(repo, 'data/worlds')],
    ['/', here],
  ];
  for (const [prefix, dir] of mounts) {
    if (!p.startsWith(prefix)) continue;
    let rel = p.slice(prefix.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(dir, rel);
    if (file !== dir && !file.startsWith(dir + path.sep)) return null;  // no escaping with ..
    if (rel.split('/').includes('node_modules')) return null;
    return file;
  }
  return null;
}

export function createServer(o) {
  return http.createServer((req, res) => {
    const headers = { 'Cache-Control': 'no-cache' };
    if (o.isolation) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
      headers['Cross-Origin-Resource-Policy'] = 'same-origin';
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...headers, Allow: 'GET, HEAD', 'Content-Type': 'text/plain' });
      res.end('method not allowed\n');
      return;
    }
    const file = resolve(req.url, o);
    let stat = null;
    try {
      stat = file && fs.statSync(file);
    } catch {
      stat = null;
    }
    if (!stat || !stat.isFile()) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`not found: ${req.url}\n`);
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': stat.size,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    fs.createReadStream(file).pipe(res);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const o = parseArgs(process.argv.slice(2));
  const dist = path.join(o.buildDir, 'web/dist');
  if (!fs.existsSync(path.join(dist, 'voxnav-sync.wasm'))) {
    console.error(`serve.mjs: no wasm build in ${dist}: build the wasm preset (scripts/build.sh wasm) or pass --build-dir`);
    process.exit(1);
  }
  const server = createServer(o);
  server.on('error', (e) => {
    console.error(`serve.mjs: cannot listen on ${o.host}:${o.port}: ${e.message}`);
    process.exit(1);
  });
  server.listen(o.port, o.host, () => {
    const { port } = server.address();
    const mode = o.isolation
      ? 'cross-origin isolated: the threaded build runs'
      : 'no isolation headers: the synchronous build runs';
    console.log(`voxnav demo: http://${o.host}:${port}/ (${mode}; Ctrl+C stops)`);
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
}
