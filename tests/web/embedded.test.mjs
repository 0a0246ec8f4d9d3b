// An agent walled in by an edit, through the npm package: Blocked, agentState().failure
// 'embedded' (PathFailure::Embedded's name), agentReason() saying why; pushed out and walking on
// when only its feet cell was filled. The same as tests/agents/embedded_agents_test.cpp natively.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;

describe('agents walled in by an edit', { skip }, () => {
  let lib;
  const worlds = [];
  before(async () => {
    const pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
  });
  after(() => worlds.forEach((w) => w.dispose()));

  // A flat floor of the default registry's full block (value 1) at y = 0 over 3 x 3 chunks; one
  // walker from (2.5, 1, 2.5) to (14, 1, 2), 10 ticks on its way.
  function scene() {
    const w = lib.createWorld();
    worlds.push(w);
    const floor = new Uint16Array(4096);
    floor.fill(1, 0, 256);
    for (let cz = -1; cz <= 1; ++cz) {
      for (let cx = -1; cx <= 1; ++cx) {
        w.loadChunk([cx, 0, cz], floor);
        w.loadChunk([cx, 1, cz], new Uint16Array(4096));
      }
    }
    const walker = w.addProfile({ id: 'walker' });
    w.update();
    const agent = w.addAgent(walker, [2.5, 1, 2.5]);
    w.setAgentGoal(agent, [14, 1, 2]);
    for (let t = 0; t < 10; ++t) w.tick(0.05);
    const f = w.agentState(agent).feet;
    return { w, walker, agent, foot: [Math.floor(f[0]), 1, Math.floor(f[2])] };
  }

  test('enclosed: blocked, failure "embedded", a reason', () => {
    const { w, agent, foot } = scene();
    w.setBox([foot[0] - 2, 1, foot[2] - 2], [foot[0] + 2, 3, foot[2] + 2], 1);
    w.tick(0.05);
    const s = w.agentState(agent);
    assert.equal(s.mode, 'blocked');
    assert.equal(s.failure, 'embedded');
    assert.match(w.agentReason(agent), /^embedded: blocks were put inside the body/);
  });

  test('feet cell filled: pushed out beside it, arrives', () => {
    const { w, walker, agent, foot } = scene();
    w.setBlock(foot, 1);
    w.tick(0.05);
    const s = w.agentState(agent);
    assert.notEqual(s.mode, 'blocked');
    assert.notEqual(s.mode, 'failed');
    const to = [Math.floor(s.feet[0]), 1, Math.floor(s.feet[2])];
    assert.ok(w.isStandable(walker, to), `pushed to ${to}`);
    let t = 0;
    while (w.agentState(agent).mode !== 'arrived' && t++ < 400) w.tick(0.05);
    assert.equal(w.agentState(agent).mode, 'arrived');
  });
});
