// The npm package inside a game bundled by Vite, esbuild and webpack 5 (issue 17, item 1): a small
// fixture game (tests/browser/bundler-game: a page and a module server worker importing `voxnav`
// and `voxnav/worker`) is built by each bundler against a staged copy of the package installed
// in its node_modules, served, and driven in headless Chromium: init, the shipped region loaded,
// agents, ticks, corridors posted and agents walking. The sync build is served plainly; the
// threaded build cross-origin isolated. Vite and webpack find the package's files through its
// `new URL('../dist/...', import.meta.url)` patterns untouched; esbuild does not rewrite those, so
// its game copies dist/ beside the bundle and passes `distUrl` (the documented way).
// A missing .wasm is refused naming the URL and the HTTP status.
//
//   node --test tests/browser/          (after `npm ci` in tests/browser and a wasm build)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as h from '../web/helpers.mjs';
import { stagePackage } from '../support/stage_package.mjs';

const chromiumPath = process.env.VOXNAV_CHROMIUM_PATH || '/usr/bin/chromium';
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const gameSrc = path.join(h.repoRoot, 'tests/browser/bundler-game');

let chromium = null, vite = null, esbuild = null, webpack = null;
try {
  ({ chromium } = await import('playwright-core'));
  vite = await import('vite');
  esbuild = await import('esbuild');
  webpack = (await import('webpack')).default;
} catch {
  chromium = null;
}
const skip = h.skipReason ||
  (!fs.existsSync(chromiumPath) && `no Chromium at ${chromiumPath} (scripts/install-deps.sh --chromium)`) ||
  (!chromium && 'playwright-core, vite, esbuild or webpack is not installed (run `npm ci` in tests/browser)');
if (skip) console.log(`# SKIP bundlers: ${skip}`);

/** A game project: the fixture's sources and the staged package as node_modules/voxnav. */
function makeGame(root) {
  fs.cpSync(gameSrc, root, { recursive: true });
  fs.cpSync(stagePackage(h.distDir), path.join(root, 'node_modules/voxnav'), { recursive: true });
  return root;
}

const page = (script, module) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="out">starting</pre>` +
  `<script ${module ? 'type="module" ' : ''}src="./${script}"></script></body></html>\n`;

const bundlers = {
  async vite(game, out) {
    await vite.build({ root: game, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  },
  async esbuild(game, out) {
    await esbuild.build({
      entryPoints: [path.join(game, 'main.js'), path.join(game, 'server.js')], absWorkingDir: game,
      bundle: true, format: 'esm', splitting: true, platform: 'browser', outdir: out, logLevel: 'warning',
    });
    fs.writeFileSync(path.join(out, 'index.html'), page('main.js', true));
    // esbuild leaves new URL(..., import.meta.url) alone: the package's files go beside the bundle.
    fs.cpSync(path.join(game, 'node_modules/voxnav/dist'), path.join(out, 'voxnav-dist'), { recursive: true });
  },
  async webpack(game, out) {
    const stats = await new Promise((resolve, reject) => webpack({
      mode: 'production', context: game, entry: './main.js', devtool: false,
      output: { path: out, filename: 'main.js', clean: true }, performance: { hints: false },
    }, (err, s) => (err ? reject(err) : resolve(s))));
    if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
    fs.writeFileSync(path.join(out, 'index.html'), page('main.js', false));
  },
};
// The query each bundler's page is opened with (esbuild: where dist/ was copied).
const query = { vite: '', esbuild: '&dist=/voxnav-dist/', webpack: '' };

const DATA = {
  '/data/blocks.json': path.join(h.repoRoot, 'data/blocks/blocks.pc-1.21.1.json'),
  '/data/shapes.json': path.join(h.repoRoot, 'data/blocks/blockCollisionShapes.pc-1.20.5.json'),
  '/data/region.mca': path.join(h.repoRoot, 'data/worlds/r.0.-1.mca'),
};
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json' };

/** Serves `dir` (and the world's data files) on a free port; resolves to { url, close }. */
function serve(dir, isolated) {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = DATA[p] ?? path.join(dir, p === '/' ? 'index.html' : p);
    const headers = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' };
    if (isolated) Object.assign(headers, { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
    if (!file.startsWith(dir) && !DATA[p] || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    res.writeHead(200, headers);
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () =>
    resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() })));
}

async function runPage(browser, url) {
  const p = await browser.newPage();
  const logs = [];
  p.on('console', (m) => logs.push(m.text()));
  p.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  try {
    await p.goto(url);
    await p.waitForFunction(() => window.__fixture !== undefined, null, { timeout: 90000 });
    return { result: await p.evaluate(() => window.__fixture), logs };
  } finally {
    await p.close();
  }
}

describe('the package in bundled games (Vite, esbuild, webpack 5) in headless Chromium', { skip }, () => {
  let browser, tmp;
  const outs = {};
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'voxnav-bundlers-'));
    browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
  });
  after(async () => {
    await browser?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  for (const name of Object.keys(bundlers)) {
    test(`${name}: builds, then runs the sync build and (isolated) the threaded build`, { timeout: 300000 }, async () => {
      const game = makeGame(path.join(tmp, `${name}-game`));
      const out = path.join(tmp, `${name}-out`);
      await bundlers[name](game, out);
      outs[name] = out;
      const builds = [['sync', false], ...(h.hasThreadedBuild ? [['threaded', true]] : [])];
      for (const [build, isolated] of builds) {
        const server = await serve(out, isolated);
        try {
          const { result, logs } = await runPage(browser, `${server.url}?build=${build}${query[name]}`);
          assert.ok(result.ok, `${name} ${build}: ${result.error}\n${logs.join('\n')}`);
          assert.equal(result.build, build);
          assert.equal(result.threaded, build === 'threaded');
          assert.ok(result.chunks > 100, `${name} ${build}: ${result.chunks} chunks loaded`);
          assert.equal(result.agents, 3);
          assert.ok(result.corridors >= 3, `${name} ${build}: ${result.corridors} corridors posted`);
          assert.ok(result.moved >= 2, `${name} ${build}: ${result.moved} agents moved`);
          console.log(`# ${name} ${build}: ${JSON.stringify(result)}`);
        } finally {
          server.close();
        }
      }
    });
  }

  test('a threaded build whose pthread script is missing is refused by name, quickly', { timeout: 120000, skip: !h.hasThreadedBuild }, async () => {
    const out = outs.esbuild;
    assert.ok(out, 'the esbuild game was built');
    fs.rmSync(path.join(out, 'voxnav-dist/voxnav-mt.worker.js'));
    const server = await serve(out, true);
    try {
      const t0 = Date.now();
      const { result } = await runPage(browser, `${server.url}?build=threaded&dist=/voxnav-dist/`);
      assert.equal(result.ok, false);
      assert.match(result.error, /NotFound: .*pthread worker script at .*\/voxnav-dist\/voxnav-mt\.worker\.js answered HTTP 404/);
      assert.ok(Date.now() - t0 < 30000);
    } finally {
      server.close();
    }
  });

  test('the threaded build on a page that is not cross-origin isolated says which headers are missing', { timeout: 120000 }, async () => {
    const server = await serve(outs.vite, false);
    try {
      const { result } = await runPage(browser, `${server.url}?build=threaded`);
      assert.equal(result.ok, false);
      assert.match(result.error, /Unsupported: .*Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp/);
    } finally {
      server.close();
    }
  });

  test('a missing .wasm is named with its URL and HTTP status', { timeout: 120000 }, async () => {
    const out = outs.esbuild;
    assert.ok(out, 'the esbuild game was built');
    const server = await serve(out, false);
    try {
      const { result } = await runPage(browser, `${server.url}?build=sync&dist=/nowhere/`);
      assert.equal(result.ok, false);
      assert.match(result.error, /NotFound: .*\/nowhere\/voxnav-sync\.wasm answered HTTP 404/);
    } finally {
      server.close();
    }
  });
});
