// Replays a scripted scenario (scenario.json) through the voxnav server worker's messages, the way
// `voxnav run --script scenario.json` does natively, and returns the state hashes. Runs wherever
// a `send` exists: a module Worker in the browser (client.mjs connectWorker) or the pure handlers
// in Node (connectHandlers).
//
// Order (the same as native/cmd_run.cpp): the profile, then the swimmers' profile (when the script
// has swimmers); every agent is added (the swimmers after the others), then every goal set; then
// for each tick t = 0 .. ticks-1 the edits of tick t are applied, then the tick runs. The state
// hash (World.stateHash) is taken after each checkpoint tick and at the end.

/**
 * send: (msg) => Promise<ok>. inputs: { blocksJson, shapesJson, world: .mca bytes, build? }.
 * Resolves to { build, hash, checkpoints: [{ tick, hash }], agents, edits, ms }.
 */
export async function runScenario(send, script, inputs) {
  const t0 = performance.now();
  const init = await send({ type: 'init', build: inputs.build, blocksJson: inputs.blocksJson, shapesJson: inputs.shapesJson });
  await send({ type: 'loadRegion', bytes: inputs.world });
  const { profile } = await send({ type: 'addProfile', profile: script.profile ?? { id: 'walker' } });
  const edits = script.edits ?? [];
  const names = [...new Set(edits.map((e) => e.block))];
  const { values } = names.length ? await send({ type: 'blockValues', names }) : { values: [] };
  const valueOf = new Map(names.map((n, i) => [n, values[i]]));
  const defs = script.agents.map((a) => ({ profile, feet: a.feet, goal: a.goal }));
  if (script.swimmers) {
    const fish = (await send({ type: 'addProfile', profile: script.swimmers.profile })).profile;
    for (const a of script.swimmers.agents) defs.push({ profile: fish, feet: a.feet, goal: a.goal });
  }
  await send({ type: 'addAgents', agents: defs });

  const ticks = script.ticks;
  const checkpoints = new Set(script.checkpoints ?? []);
  const boundaries = [...new Set([...edits.map((e) => e.tick), ...checkpoints, ticks])].sort((a, b) => a - b);
  const marks = [];
  let done = 0;
  let next = 0;
  for (const b of boundaries) {
    if (b <= done) continue;
    const batch = [];
    for (; next < edits.length && edits[next].tick === done; ++next) {
      batch.push({ cell: edits[next].cell, value: valueOf.get(edits[next].block) });
    }
    if (batch.length) await send({ type: 'edit', edits: batch });
    await send({ type: 'tick', dt: script.dt ?? 0.05, count: b - done });
    done = b;
    if (checkpoints.has(done)) marks.push({ tick: done, hash: (await send({ type: 'stateHash' })).hash });
  }
  const { hash, agents } = await send({ type: 'stateHash' });
  await send({ type: 'dispose' });
  return { build: init.build, hash, checkpoints: marks, agents, edits: edits.length, ms: performance.now() - t0 };
}
