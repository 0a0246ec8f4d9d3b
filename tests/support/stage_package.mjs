// A staged copy of the npm package: the current web/ sources plus a build's dist/ and the
// licence, in a fresh temporary folder removed when the process exits. Shared by tests/web
// (helpers.mjs) and bench/ (wasm_exceptions.mjs); no side effects on import.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function copyTree(src, dst, skip) {
  fs.mkdirSync(dst, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    if (skip(e.name)) continue;
    const s = path.join(src, e.name), d = path.join(dst, e.name);
    if (e.isDirectory()) copyTree(s, d, skip);
    else fs.copyFileSync(s, d);
  }
}

/** Stages web/ (not node_modules, dist or packed .tgz files) + `distDir` as dist/ + LICENSE. */
export function stagePackage(distDir, prefix = 'voxnav-pkg-') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  copyTree(path.join(repoRoot, 'web'), dir, (n) => n === 'node_modules' || n === 'dist' || n.endsWith('.tgz'));
  copyTree(distDir, path.join(dir, 'dist'), () => false);
  fs.copyFileSync(path.join(repoRoot, 'LICENSE'), path.join(dir, 'LICENSE'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
