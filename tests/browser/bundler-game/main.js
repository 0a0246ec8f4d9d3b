// A small game page as a new user writes it: a module server worker found with
// `new URL('./server.js', import.meta.url)` (the pattern every bundler rewrites), driven by
// messages; the result goes to window.__fixture for the test. The page fetches the world's files
// from the server that serves it (/data/...), as a game fetches its own assets.
const out = document.getElementById('out');
const worker = new Worker(new URL('./server.js', import.meta.url), { type: 'module' });
let nextId = 1;
const pending = new Map();
const posts = [];
worker.onmessage = (e) => {
  const m = e.data;
  if (m && m.id !== undefined && pending.has(m.id)) {
    const { resolve, reject } = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) reject(Object.assign(new Error(m.error.message), m.error));
    else resolve(m.ok);
  } else {
    posts.push(m);
  }
};
worker.onerror = (e) => fail(`worker error: ${e.message}`);
function send(msg, transfer = []) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ ...msg, id }, transfer);
  });
}
function fail(message) {
  window.__fixture = { ok: false, error: message };
  out.textContent = `failed: ${message}`;
}
async function bytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function run() {
  const params = new URLSearchParams(location.search);
  const build = params.get('build') || 'auto';
  const distUrl = params.get('dist') ? new URL(params.get('dist'), location.href).href : undefined;
  const [blocksJson, shapesJson, region] = await Promise.all([
    bytes('/data/blocks.json'), bytes('/data/shapes.json'), bytes('/data/region.mca')]);
  const init = await send({ type: 'init', build, distUrl, blocksJson, shapesJson });
  const loaded = await send({ type: 'loadRegion', bytes: region });
  await send({ type: 'addProfile', profile: { id: 'walker' } });
  const { ids } = await send({
    type: 'addAgents',
    agents: [
      { profile: 'walker', feet: [288.5, 68, -174.5], goal: [290, 63, -140] },
      { profile: 'walker', feet: [311.5, 63, -136.5], goal: [274, 72, -118] },
      { profile: 'walker', feet: [243.5, 76, -164.5], goal: [279, 75, -138] },
    ],
  });
  let corridors = 0, moved = 0;
  for (let t = 0; t < 60; ++t) await send({ type: 'tick', dt: 0.05 });
  for (const p of posts) {
    if (p.type !== 'tick') continue;
    corridors += p.corridors.length;
  }
  const last = posts.filter((p) => p.type === 'tick').pop();
  const first = posts.find((p) => p.type === 'tick');
  for (let i = 0; i < ids.length; ++i) {
    const dx = last.agents.positions[3 * i] - first.agents.positions[3 * i];
    const dz = last.agents.positions[3 * i + 2] - first.agents.positions[3 * i + 2];
    if (Math.hypot(dx, dz) > 1) ++moved;
  }
  window.__fixture = { ok: true, build: init.build, threaded: init.threaded, chunks: loaded.chunks, agents: ids.length, corridors, moved };
  out.textContent = JSON.stringify(window.__fixture);
}
run().catch((e) => fail(`${e.status ? e.status + ': ' : ''}${e.message}`));
