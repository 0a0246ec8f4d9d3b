// The demo page (examples/web) in headless Chromium (Debian's /usr/bin/chromium driven by
// playwright-core), served by examples/web/serve.mjs twice: cross-origin isolated (the server
// worker must run the threaded build) and with --no-isolation (the synchronous build). Each time:
// agents move, corridors are drawn, a scripted block edit on a corridor makes the corridors that
// crossed the cell change, a screenshot is saved, and the scripted scenario replayed in the page
// gives the same state hash as the native CLI and the wasm package in Node.
//
//   node --test tests/browser/          (after `npm ci` in tests/browser and a wasm build)
//
// Environment: VOXNAV_WASM_BUILD_DIR / VOXNAV_NATIVE_BUILD_DIR (default build/wasm, build/release),
// VOXNAV_CHROMIUM_PATH (default /usr/bin/chromium), VOXNAV_ARTIFACTS_DIR (default
// $VOXNAV_BUILD_ROOT/artifacts, else build/artifacts).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from '../web/helpers.mjs';

const chromiumPath = process.env.VOXNAV_CHROMIUM_PATH || '/usr/bin/chromium';
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const artifacts = path.resolve(process.env.VOXNAV_ARTIFACTS_DIR ||
  path.join(process.env.VOXNAV_BUILD_ROOT || path.join(h.repoRoot, 'build'), 'artifacts'));
const serveScript = path.join(h.repoRoot, 'examples/web/serve.mjs');
const scriptPath = path.join(h.repoRoot, 'examples/web/scenario.json');
const nativeCli = path.join(path.resolve(process.env.VOXNAV_NATIVE_BUILD_DIR || path.join(h.repoRoot, 'build/release')), 'voxnav');

let chromium = null;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  chromium = null;
}
const skip = h.skipReason ||
  (!fs.existsSync(chromiumPath) && `no Chromium at ${chromiumPath} (scripts/install-deps.sh --chromium)`) ||
  (!chromium && 'playwright-core is not installed (run `npm ci` in tests/browser)');
if (skip) console.log(`# SKIP tests/browser: ${skip}`);

/** Starts serve.mjs on a free port; resolves to { url, stop }. */
function startServer(isolation) {
  const args = [serveScript, '--port', '0', '--build-dir', h.buildDir, ...(isolation ? [] : ['--no-isolation'])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '', err = '';
    const timer = setTimeout(() => reject(new Error(`serve.mjs did not start: ${out}${err}`)), 15000);
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /voxnav demo: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], banner: out.trim(), stop: () => child.kill('SIGTERM') });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve.mjs exited (${code}): ${err}`));
    });
  });
}

/** The scenario's hashes natively (when the CLI is built) and in Node's wasm (sync build). */
async function referenceHashes() {
  const ref = {};
  if (fs.existsSync(nativeCli)) {
    const out = execFileSync(nativeCli, ['run', '--script', scriptPath, '--json'], { encoding: 'utf8' });
    ref.native = JSON.parse(out.trim().split('\n').pop());
  }
  const handlers = await h.importPackage('worker/handlers.mjs');
  const { connectHandlers } = await import(pathToFileURL(path.join(h.repoRoot, 'examples/web/client.mjs')).href);
  const { runScenario } = await import(pathToFileURL(path.join(h.repoRoot, 'examples/web/scenario.mjs')).href);
  const script = JSON.parse(fs.readFileSync(scriptPath, 'utf8'));
  const { blocks, shapes } = h.registryFiles();
  ref.node = await runScenario(connectHandlers(handlers), script, {
    build: 'sync', blocksJson: blocks, shapesJson: shapes, world: fs.readFileSync(path.join(h.repoRoot, 'data/worlds', script.world)),
  });
  return ref;
}

describe('demo page in headless Chromium', { skip, timeout: 240000 }, () => {
  let browser = null;
  let ref = null;
  before(async () => {
    fs.mkdirSync(artifacts, { recursive: true });
    ref = await referenceHashes();
    browser = await chromium.launch({ executablePath: chromiumPath, args: LAUNCH_ARGS });
  });
  after(async () => {
    if (browser) await browser.close();
  });

  for (const { isolation, build, name } of [
    { isolation: true, build: 'threaded', name: 'cross-origin isolated' },
    { isolation: false, build: 'sync', name: 'without isolation headers' },
  ]) {
    describe(`served ${name}`, () => {
      let server = null, page = null;
      const errors = [];
      before(async () => {
        server = await startServer(isolation);
        page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
        await page.goto(server.url);
        await page.evaluate(() => window.voxnavDemo.ready);
      });
      after(async () => {
        if (page) await page.close();
        if (server) server.stop();
      });

      test(`the page runs the ${build} build`, async () => {
        assert.match(server.banner, isolation ? /cross-origin isolated/ : /no isolation headers/);
        const info = await page.evaluate(() => window.voxnavDemo.info());
        assert.equal(info.crossOriginIsolated, isolation);
        assert.equal(info.build, build);
        assert.equal(info.threaded, isolation);
        assert.equal(info.agents, 120);
        assert.deepEqual(info.bounds.min, [48, 0, -176]);
        await page.waitForFunction(() => window.voxnavDemo.info().stats !== null);
        const status = await page.evaluate(() => window.voxnavDemo.info().status);
        assert.match(status, new RegExp(`^${build} build`));
        assert.match(status, /120 agents · \d+ searches\/s · search p50 \d+ µs, p99 \d+ µs · tick \d+\.\d\d ms/);
        assert.deepEqual(errors, []);
      });

      test('agents move: positions change from tick to tick', async () => {
        const first = await page.evaluate(() => ({ tick: window.voxnavDemo.info().tick, ...window.voxnavDemo.agents() }));
        await page.waitForFunction((t) => window.voxnavDemo.info().tick >= t + 20, first.tick);
        const second = await page.evaluate(() => window.voxnavDemo.agents());
        assert.deepEqual(second.ids, first.ids);
        let moved = 0;
        for (let i = 0; i < first.ids.length; ++i) {
          const d = Math.hypot(second.positions[3 * i] - first.positions[3 * i], second.positions[3 * i + 2] - first.positions[3 * i + 2]);
          if (d > 0.5) moved += 1;
        }
        assert.ok(moved >= 30, `${moved} of ${first.ids.length} agents moved more than 0.5 m in 20 ticks`);
      });

      test('corridors are drawn', async () => {
        await page.waitForFunction(() => window.voxnavDemo.info().frames > 5);
        const info = await page.evaluate(() => window.voxnavDemo.info());
        assert.ok(info.corridors >= 100, `${info.corridors} corridors posted`);
        assert.ok(info.corridorsDrawn >= 100, `${info.corridorsDrawn} corridors drawn`);
        const pixels = await page.evaluate(() => window.voxnavDemo.corridorPixels());
        assert.ok(pixels > 3000, `${pixels} corridor pixels`);
      });

      test('a block placed on a corridor: the corridors that crossed the cell change', async () => {
        const r = await page.evaluate(async () => {
          const d = window.voxnavDemo;
          const a = d.agents();
          // Moving agents, longest corridor first (a visible re-route in the screenshot).
          const corridors = new Map(d.corridors().map((c) => [c.agent, c]));
          const moving = a.ids.filter((id, i) => a.modes[i] === 'moving' && corridors.has(id))
            .sort((p, q) => corridors.get(q).waypoints.length - corridors.get(p).waypoints.length);
          for (const id of moving) {
            const st = await d.send({ type: 'agentState', agent: id });
            const c = d.corridors().find((x) => x.agent === id);
            const n = c.waypoints.length / 3;
            const w = st.nextWaypoint + 1;
            if (w > n - 2) continue;  // a waypoint ahead, not the goal
            const cell = [0, 1, 2].map((k) => Math.floor(c.waypoints[3 * w + k]));
            if (!d.crosses(id, ...cell)) continue;
            const res = await d.edit(...cell, d.info().blocks.stone);
            return { id, cell, ...res, stillCrosses: d.crosses(id, ...cell), after: d.corridors().find((x) => x.agent === id) };
          }
          return null;
        });
        assert.ok(r, 'found a moving agent with a waypoint ahead');
        assert.ok(r.crossed.includes(r.id), JSON.stringify(r));
        for (const a of r.crossed) assert.ok(r.changed.includes(a), `corridor of agent ${a} crossed ${r.cell} and did not change`);
        assert.equal(r.stillCrosses, false, `the new corridor avoids the block at ${r.cell}: ${JSON.stringify(r.after)}`);
        // The changed corridors flash yellow for 1.5 s: keep them in the screenshot.
        const frames = await page.evaluate(() => window.voxnavDemo.info().frames);
        await page.waitForFunction((f) => window.voxnavDemo.info().frames > f + 2, frames);
        const file = path.join(artifacts, `demo-${build}.png`);
        await page.screenshot({ path: file, fullPage: true });
        assert.ok(fs.statSync(file).size > 20000, `${file} is a real screenshot`);
      });

      test('the scripted scenario in the page: the same state hash as native and Node', async () => {
        const r = await page.evaluate(() => window.voxnavDemo.runScenario());
        assert.equal(r.build, build);
        assert.equal(r.agents, 56);  // 48 walkers and 8 swimmers
        assert.equal(r.hash, ref.node.hash, 'browser = wasm in Node');
        assert.deepEqual(r.checkpoints, ref.node.checkpoints);
        if (ref.native) {
          assert.equal(r.hash, ref.native.state_hash, 'browser = native');
          assert.deepEqual(r.checkpoints, ref.native.checkpoints);
        }
        assert.deepEqual(errors, []);
      });
    });
  }

  test('native and wasm in Node agree (the reference of the browser runs)', { skip: !fs.existsSync(nativeCli) && 'no native CLI' }, () => {
    assert.equal(ref.node.hash, ref.native.state_hash);
  });
});
