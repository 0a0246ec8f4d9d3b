// Handles that cannot be mixed up (issue 17): agent ids, path handles and profile ids are numbers
// whose low 2 bits say their kind and which also carry their World's id tag (voxnav/ids.h). A
// handle of one kind passed as another, or one of another World, is a VoxnavError naming the
// argument and the kind expected, and nothing changes. (The TypeScript side: types/handles.ts.)
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;

function smallWorld(lib) {
  const w = lib.createWorld();
  w.defineBlocks([{ name: 'air' }, { name: 'stone', boxes: [[0, 0, 0, 1, 1, 1]] }]);
  w.loadChunk([0, 0, 0], new Uint16Array(4096).fill(1));
  const profile = w.addProfile({ id: 'walker', class: 'walker' });
  const agent = w.addAgent(profile, [2.5, 16, 2.5]);
  const path = w.request(profile, [2, 16, 2], [12, 16, 12]);
  w.update();
  return { w, profile, agent, path };
}

describe('handles of one kind or World are refused as another', { skip }, () => {
  let lib;
  before(async () => {
    lib = await (await h.importPackage()).load({ build: 'sync' });
  });

  test('kinds: each mix is an InvalidArgument naming the argument and the kind expected', () => {
    const { w, profile, agent, path } = smallWorld(lib);
    assert.deepEqual([agent % 4, path % 4, profile % 4], [1, 2, 3], 'the kind in the low 2 bits');
    const hash = w.stateHash();
    const refused = (fn, call, argument, re) => assert.throws(call, (e) => {
      assert.equal(e.name, 'VoxnavError');
      assert.equal(e.status, 'InvalidArgument', e.message);
      assert.equal(e.function, fn);
      assert.equal(e.argument, argument);
      assert.match(e.message, re);
      return true;
    });
    refused('removeAgent', () => w.removeAgent(path), 'agent', new RegExp(`^removeAgent: agent ${path} is a path handle, not an agent id$`));
    refused('release', () => w.release(agent), 'path', /^release: path \d+ is an agent id, not a path handle$/);
    refused('status', () => w.status(profile), 'path', /is a profile id, not a path handle$/);
    refused('addAgent', () => w.addAgent(agent, [3.5, 16, 3.5]), 'profile', /^addAgent: profile \d+ is an agent id, not a profile id$/);
    refused('agentState', () => w.agentState(profile), 'agent', /is a profile id, not an agent id$/);
    refused('setAgentGoals', () => w.setAgentGoals([{ agent, goal: [5, 16, 5] }, { agent: path, goal: [6, 16, 6] }]),
      'goals[1].agent', /^setAgentGoals: goals\[1\]\.agent \d+ is a path handle, not an agent id$/);
    // Nothing changed: the agent and the request are live, the hash is the same.
    assert.equal(w.stateHash(), hash);
    assert.equal(typeof w.agentState(agent).mode, 'string');
    assert.equal(typeof w.status(path).state, 'string');
    w.removeAgent(agent);
    w.release(path);
    w.dispose();
  });

  test("another World's handles are refused, naming the kind; that World's own still work", () => {
    const a = smallWorld(lib), b = smallWorld(lib);
    assert.notEqual(a.agent, b.agent, 'the same slot in two Worlds gives two numbers');
    const other = (call, re) => assert.throws(call, (e) => e.name === 'VoxnavError' && e.status === 'InvalidArgument' && re.test(e.message));
    other(() => b.w.agentState(a.agent), /^agentState: agent \d+ is an agent id of another World$/);
    other(() => b.w.removeAgent(a.agent), /^removeAgent: agent \d+ is an agent id of another World$/);
    other(() => b.w.release(a.path), /^release: path \d+ is a path handle of another World$/);
    other(() => b.w.addAgent(a.profile, [3.5, 16, 3.5]), /^addAgent: profile \d+ is a profile id of another World$/);
    assert.equal(typeof b.w.agentState(b.agent).mode, 'string');
    assert.equal(typeof a.w.agentState(a.agent).mode, 'string');
    b.w.release(b.path);
    a.w.release(a.path);
    a.w.dispose();
    b.w.dispose();
  });
});
