// The npm package as a user gets it: `npm pack`, install the tarball into an empty folder (offline),
// import it there, and type-check a TypeScript consumer with tsc --strict against the installed
// package's .d.ts files.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const tsc = path.join(h.repoRoot, 'tests/web/node_modules/.bin/tsc');
const tscMissing = fs.existsSync(tsc) ? false : 'typescript is not installed (run `npm ci` in tests/web)';
if (tscMissing && !skip) console.log(`# SKIP type checks: ${tscMissing}`);

function run(cmd, args, cwd) {
  return execFileSync(cmd, args, {
    cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
}

describe('npm package', { skip }, () => {
  let tmp, tarball, consumer;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'voxnav-pack-'));
    process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
    const out = run('npm', ['pack', '--json', '--pack-destination', tmp], h.packageDir());
    const info = JSON.parse(out)[0];
    tarball = path.join(tmp, info.filename);
    consumer = path.join(tmp, 'consumer');
    fs.mkdirSync(consumer);
    fs.writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', tarball], consumer);
  });

  test('the tarball holds the entry points, types and both wasm builds, and nothing else', () => {
    const files = run('tar', ['-tzf', tarball], tmp).trim().split('\n').map((f) => f.replace(/^package\//, '')).sort();
    for (const f of ['package.json', 'index.mjs', 'index.d.ts', 'lib/world.mjs', 'lib/loader.mjs', 'lib/errors.mjs',
      'worker/index.mjs', 'worker/index.d.ts', 'worker/handlers.mjs', 'worker/handlers.d.ts',
      'dist/package.json', 'dist/voxnav-sync.mjs', 'dist/voxnav-sync.wasm']) {
      assert.ok(files.includes(f), `${f} missing from the tarball: ${files.join(', ')}`);
    }
    if (h.hasThreadedBuild) {
      for (const f of ['dist/voxnav-mt.mjs', 'dist/voxnav-mt.wasm', 'dist/voxnav-mt.worker.js']) assert.ok(files.includes(f), f);
    }
    assert.ok(!files.some((f) => f.includes('node_modules') || f.endsWith('.tgz')), files.join(', '));
    const pkg = JSON.parse(fs.readFileSync(path.join(consumer, 'node_modules/voxnav/package.json'), 'utf8'));
    assert.equal(pkg.type, 'module');
    assert.ok(pkg.exports['.'] && pkg.exports['./worker']);
  });

  test('importing the installed package works (an empty folder, offline)', () => {
    fs.writeFileSync(path.join(consumer, 'main.mjs'), `
      import { init, World, VoxnavError, EDGE_KINDS } from 'voxnav';
      import { createState, handle } from 'voxnav/worker';
      const lib = await init();
      const world = new World();
      // The built-in registry: 0 = air, 1 = a solid full block. One chunk: a floor at y = 0.
      const values = new Uint16Array(4096);
      values.fill(1, 0, 256);
      world.loadChunk([0, 0, 0], values);
      world.loadChunk([0, 1, 0], new Uint16Array(4096));
      const walker = world.addProfile({ id: 'walker' });
      world.update();
      const reach = world.reachable(walker, [1, 1, 1], [14, 1, 9]);
      const h = world.request(walker, [1, 1, 1], [14, 1, 9]);
      world.update(); world.update();
      const c = world.corridor(h);
      let error = null;
      try { world.loadChunk([1, 0, 0], new Uint16Array(10)); } catch (e) { error = { isVoxnav: e instanceof VoxnavError, status: e.status, message: e.message }; }
      const state = createState();
      const r = await handle(state, { id: 7, type: 'init' });
      console.log(JSON.stringify({ build: lib.build, reach: reach.answer, state: world.status(h).state,
        last: Array.from(c.positions.slice(-3)), first: EDGE_KINDS[c.kinds[0]], error, worker: r.reply }));
    `);
    const out = JSON.parse(run(process.execPath, ['main.mjs'], consumer).trim().split('\n').pop());
    assert.equal(out.build, 'sync');
    assert.equal(out.reach, 'yes');
    assert.equal(out.state, 'ready');
    assert.deepEqual(out.last, [14.5, 1, 9.5]);
    assert.equal(out.first, 'start');
    assert.deepEqual(out.error, { isVoxnav: true, status: 'InvalidArgument', message: 'loadChunk: values has 10 entries, expected 4096' });
    assert.equal(out.worker.id, 7);
    assert.equal(out.worker.ok.build, 'sync');
  });

  test('index.d.ts and worker/*.d.ts pass tsc --strict for a TypeScript consumer', { skip: tscMissing }, () => {
    for (const f of ['usage.ts', 'handles.ts', 'tsconfig.json']) {
      fs.copyFileSync(path.join(h.repoRoot, 'tests/web/types', f), path.join(consumer, f));
    }
    try {
      run(tsc, ['-p', path.join(consumer, 'tsconfig.json')], consumer);
    } catch (e) {
      assert.fail(`tsc --strict failed:\n${e.stdout}${e.stderr}`);
    }
  });

  test('the .d.ts files themselves pass tsc --strict --noEmit', { skip: tscMissing }, () => {
    const dir = h.packageDir();
    try {
      run(tsc, ['--strict', '--noEmit', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'node16',
        '--moduleResolution', 'node16', '--lib', 'es2022,dom',
        path.join(dir, 'index.d.ts'), path.join(dir, 'worker/index.d.ts'), path.join(dir, 'worker/handlers.d.ts')], dir);
    } catch (e) {
      assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
    }
  });
});
