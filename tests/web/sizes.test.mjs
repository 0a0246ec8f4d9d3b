// Shipped sizes (bench/sizes.mjs): each wasm build's .wasm plus JS glue stays under its gzipped
// target (TARGET_GZ in bench/sizes.mjs, which says why it is above issue 3's 300 KB), and both
// builds are in the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from './helpers.mjs';

test('each build ships under its gzipped size target (.wasm + glue, bench/sizes.mjs TARGET_GZ)', { skip: h.skipReason }, async () => {
  const { voxnavBuilds, targetGz } = await import(pathToFileURL(path.join(h.repoRoot, 'bench/sizes.mjs')).href);
  const builds = voxnavBuilds(h.distDir);
  assert.deepEqual(builds.map((b) => b.name), ['voxnav sync', ...(h.hasThreadedBuild ? ['voxnav threaded'] : [])]);
  for (const b of builds) {
    assert.ok(b.files[0].bytes > 100000 && b.files[0].file.endsWith('.wasm'), JSON.stringify(b.files[0]));
    assert.ok(b.gz < targetGz(b.name), `${b.name}: ${b.gz} bytes gzipped, target ${targetGz(b.name)}`);
  }
});
