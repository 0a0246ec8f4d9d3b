// What native wasm exceptions (-fwasm-exceptions, CMake option VOXNAV_WASM_EXCEPTIONS) cost: the
// .wasm sizes and the time of the scripted scenario (examples/web/scenario.json: the shipped
// region loaded and built, 56 agents, 23 edits, 400 ticks) through the server worker's handlers,
// for two builds of the same source, in one run, alternating (so machine load hits both alike).
//
//   node bench/wasm_exceptions.mjs --without build/wasm-noeh/web/dist --with build/wasm/web/dist [--runs 5]
//
// Prints a Markdown table (docs/benchmarks.md, "wasm exceptions").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stagePackage } from '../tests/support/stage_package.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const dists = { without: path.resolve(opt('without', '')), with: path.resolve(opt('with', '')) };
const runs = Number(opt('runs', 5));
for (const [k, d] of Object.entries(dists)) {
  if (!fs.existsSync(path.join(d, 'voxnav-sync.wasm'))) throw new Error(`--${k}: no voxnav-sync.wasm in ${d}`);
}

const script = JSON.parse(fs.readFileSync(path.join(repo, 'examples/web/scenario.json'), 'utf8'));
const blocksJson = fs.readFileSync(path.join(repo, 'data/blocks/blocks.pc-1.21.1.json'));
const shapesJson = fs.readFileSync(path.join(repo, 'data/blocks/blockCollisionShapes.pc-1.20.5.json'));
const world = fs.readFileSync(path.join(repo, 'data/worlds', script.world));
const { connectHandlers } = await import(pathToFileURL(path.join(repo, 'examples/web/client.mjs')).href);
const { runScenario } = await import(pathToFileURL(path.join(repo, 'examples/web/scenario.mjs')).href);

const variants = {};
for (const [k, d] of Object.entries(dists)) {
  const dir = stagePackage(d, 'voxnav-eh-');  // web/ sources (the same for both) + that build's dist/
  variants[k] = { dist: d, handlers: await import(pathToFileURL(path.join(dir, 'worker/handlers.mjs')).href), ms: [], hash: null };
}

async function once(v, build) {
  const send = connectHandlers(v.handlers, () => {});
  const t0 = performance.now();
  const r = await runScenario(send, script, { build, blocksJson, shapesJson, world });
  const ms = performance.now() - t0;
  return { ms, hash: r.hash };
}

const builds = ['sync', ...(fs.existsSync(path.join(dists.with, 'voxnav-mt.wasm')) && fs.existsSync(path.join(dists.without, 'voxnav-mt.wasm')) ? ['threaded'] : [])];
const times = {};
for (const build of builds) {
  for (const k of Object.keys(variants)) times[`${k} ${build}`] = { ms: [], hash: new Set() };
  await once(variants.with, build);  // warm-up (JIT of the JS side, file cache)
  for (let i = 0; i < runs; ++i) {
    for (const k of i % 2 ? ['with', 'without'] : ['without', 'with']) {
      const r = await once(variants[k], build);
      times[`${k} ${build}`].ms.push(r.ms);
      times[`${k} ${build}`].hash.add(r.hash);
    }
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const size = (file) => {
  const b = fs.readFileSync(file);
  return { bytes: b.length, gz: zlib.gzipSync(b, { level: 9 }).length };
};
const load = os.loadavg().map((x) => x.toFixed(2)).join(' / ');
console.log(`- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; node ${process.version}; ${os.cpus().length} cores; load average ${load}`);
console.log(`- Scenario: ${script.world}, ${script.agents.length + (script.swimmers?.agents?.length ?? 0)} agents, ${script.edits.length} edits, ${script.ticks} ticks (init + load + build + ticks), median of ${runs} alternating runs each`);
console.log('');
console.log('| build | .wasm without | .wasm with | change | gzip without | gzip with | scenario ms without | scenario ms with | change | state hash |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const build of builds) {
  const file = build === 'sync' ? 'voxnav-sync.wasm' : 'voxnav-mt.wasm';
  const a = size(path.join(dists.without, file)), b = size(path.join(dists.with, file));
  const ta = median(times[`without ${build}`].ms), tb = median(times[`with ${build}`].ms);
  const hashes = new Set([...times[`without ${build}`].hash, ...times[`with ${build}`].hash]);
  console.log(`| ${build} | ${kb(a.bytes)} | ${kb(b.bytes)} | ${((b.bytes / a.bytes - 1) * 100).toFixed(1)} % | ${kb(a.gz)} | ${kb(b.gz)} | ` +
    `${ta.toFixed(0)} | ${tb.toFixed(0)} | ${((tb / ta - 1) * 100).toFixed(1)} % | ${[...hashes].join(', ')} |`);
}
process.exit(0);
