// One version and one licence for the C++ library and the npm package: the staged package
// (build/wasm/web, what `npm pack` ships) carries project(VERSION) from CMake (the generated
// voxnav/version.h of the same build) in package.json, in index.mjs's `version`, and in the
// compiled wasm itself (the bindings' versionString(), read from voxnav/version.h); and it holds
// the MIT LICENSE of the repository.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const stage = path.join(h.buildDir, 'web');

/** VOXNAV_VERSION_STRING of the wasm build's generated header (from CMake's project(VERSION)). */
function cmakeVersion() {
  const header = fs.readFileSync(path.join(h.buildDir, 'include/voxnav/version.h'), 'utf8');
  const m = /#define VOXNAV_VERSION_STRING "(\d+\.\d+\.\d+)"/.exec(header);
  assert.ok(m, 'VOXNAV_VERSION_STRING not found in the generated voxnav/version.h');
  const parts = ['MAJOR', 'MINOR', 'PATCH'].map((p) => {
    const d = new RegExp(`#define VOXNAV_VERSION_${p} (\\d+)`).exec(header);
    assert.ok(d, `VOXNAV_VERSION_${p} missing`);
    return d[1];
  });
  assert.equal(parts.join('.'), m[1]);
  return m[1];
}

describe('version and licence', { skip }, () => {
  test('the staged package.json has the CMake version, licence MIT and no made-up links', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8'));
    assert.equal(pkg.version, cmakeVersion());
    assert.equal(pkg.license, 'MIT');
    assert.ok(pkg.files.includes('LICENSE'), pkg.files.join(', '));
    // The source manifest is the one staged (CMake refuses to configure when they differ).
    const src = JSON.parse(fs.readFileSync(path.join(h.repoRoot, 'web/package.json'), 'utf8'));
    assert.deepEqual(pkg, src);
  });

  test('the staged package holds the repository LICENSE (MIT, the voxnav authors)', () => {
    const text = fs.readFileSync(path.join(stage, 'LICENSE'), 'utf8');
    assert.equal(text, fs.readFileSync(path.join(h.repoRoot, 'LICENSE'), 'utf8'));
    assert.match(text, /^MIT License\n/);
    assert.match(text, /Copyright \(c\) \d{4} the voxnav authors\n/);
  });

  test('index.mjs `version`, load().version and the wasm module report the CMake version', async () => {
    const want = cmakeVersion();
    const pkg = await import(pathToFileURL(path.join(stage, 'index.mjs')).href);
    assert.equal(pkg.version, want);
    for (const build of ['sync', ...(h.hasThreadedBuild ? ['threaded'] : [])]) {
      const lib = await pkg.load({ build });
      assert.equal(lib.build, build);
      assert.equal(lib.version, want, build);
      assert.equal(lib.module.versionString(), want, `${build}: versionString() of the wasm`);
    }
  });
});
