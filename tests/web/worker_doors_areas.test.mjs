// The server worker's door and area messages, driven through the pure handlers: a DoorAhead event
// reaches the page in the tick post, a door opened by a setDoorOpen message lets the agent pass,
// a named area defined by a defineArea message is read by a request's filter (with and without
// wait), profiles of the walker_small and swimmer classes pass through addProfile, and bad door,
// area and filter messages are refused naming the message and the field, with nothing changed.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;

const LOWER_CLOSED = 'oak_door[facing=east,half=lower,hinge=left,open=false,powered=false]';
const UPPER_CLOSED = 'oak_door[facing=east,half=upper,hinge=left,open=false,powered=false]';
const DOOR = [8, 1, 4];

/** positions / values of 3 x 3 chunk columns: a stone floor at y = 0, air above (cy = 1). */
function floorChunks(stone) {
  const floor = new Uint16Array(4096);
  floor.fill(stone, 0, 256);
  const pos = [], vals = [];
  for (let cz = -1; cz <= 1; ++cz) {
    for (let cx = -1; cx <= 1; ++cx) {
      pos.push(cx, 0, cz, cx, 1, cz);
      vals.push(floor, new Uint16Array(4096));
    }
  }
  const values = new Uint16Array(4096 * vals.length);
  vals.forEach((v, i) => values.set(v, 4096 * i));
  return { positions: Int32Array.from(pos), values };
}

describe('worker handlers: doors, named areas, profile classes', { skip }, () => {
  let handlers, pkg;
  before(async () => {
    handlers = await h.importPackage('worker/handlers.mjs');
    pkg = await h.importPackage();
  });

  /** A worker with the floor, a 3-high stone wall along x = 8, a closed oak door at z = 4, a gap at z = 14. */
  async function doorWorld() {
    const state = handlers.createState();
    const s = h.workerSession(handlers, state);
    const { blocks, shapes } = h.registryFiles();
    await s.ok({ type: 'init', build: 'sync', blocksJson: blocks, shapesJson: shapes });
    const { values: [stone, air, lower, upper, gravel] } =
      await s.ok({ type: 'blockValues', names: ['stone', 'air', LOWER_CLOSED, UPPER_CLOSED, 'gravel'] });
    await s.ok({ type: 'loadChunks', ...floorChunks(stone) });
    await s.ok({
      type: 'edit',
      edits: [
        { min: [8, 1, -16], max: [8, 3, 31], value: stone },
        { cell: DOOR, value: lower },
        { cell: [8, 2, 4], value: upper },
        { min: [8, 1, 14], max: [8, 2, 14], value: air },
      ],
    });
    await s.ok({ type: 'addProfile', profile: { id: 'opener', can_open_doors: true } });
    return { state, s, stone, gravel };
  }

  test('a DoorAhead event reaches the page in the tick post; a setDoorOpen message lets the agent pass', async () => {
    const { state, s } = await doorWorld();
    const { ids: [a] } = await s.ok({ type: 'addAgents', agents: [{ profile: 'opener', feet: [4.5, 1, 4.5], goal: [12, 1, 4] }] });
    // Several ticks a message: the events of every tick are gathered into the one post.
    let ev = null, reply = null;
    for (let t = 0; t < 40 && !ev; ++t) {
      reply = await s.ok({ type: 'tick', count: 5 });
      const post = s.posts.at(-1);
      assert.ok(post.doorEvents.doors instanceof Int32Array && post.doorEvents.agents instanceof Float64Array);
      assert.ok(post.doorEvents.ticks instanceof Float64Array);
      assert.equal(reply.doorEvents, post.doorEvents.count);
      if (post.doorEvents.count > 0) {
        ev = post.doorEvents;
        assert.ok(handlers.transferList(post).includes(ev.doors.buffer), 'the door events are not transferred');
      }
    }
    assert.ok(ev, 'no DoorAhead event was posted');
    assert.equal(ev.count, 1);
    assert.equal(ev.agents[0], a);
    assert.deepEqual([...ev.doors], DOOR);
    assert.ok(ev.ticks[0] > 0 && ev.ticks[0] <= state.world.navTick);
    // The worker took the event: the world has none waiting, the next post has none.
    assert.equal(state.world.pendingDoorEvents, 0);
    await s.ok({ type: 'tick' });
    assert.equal(s.posts.at(-1).doorEvents.count, 0);

    const held = await s.ok({ type: 'agentState', agent: a });
    assert.equal(held.waitingAtDoor, true);
    assert.deepEqual(held.door, DOOR);
    assert.ok(held.doorHoldTicks >= 1);
    assert.equal(held.doorEvents, 1);
    assert.equal(held.doorTimeouts, 0);

    // The page answers the event from the post.
    const cell = [...ev.doors.subarray(0, 3)];
    assert.deepEqual(await s.ok({ type: 'setDoorOpen', cell, open: true }), { changed: true });
    assert.deepEqual(await s.ok({ type: 'setDoorOpen', cell: [8, 2, 4], open: true }), { changed: false }); // the upper half flipped too
    let st = null;
    for (let t = 0; t < 40; ++t) {
      await s.ok({ type: 'tick', count: 5 });
      assert.equal(s.posts.at(-1).doorEvents.count, 0);
      st = await s.ok({ type: 'agentState', agent: a });
      if (st.mode === 'arrived') break;
    }
    assert.equal(st.mode, 'arrived', st.reason);
    assert.equal(st.waitingAtDoor, false);
    assert.equal(st.doorEvents, 1);
    assert.equal(st.doorTimeouts, 0);
    assert.ok(Math.floor(st.feet[0]) >= 9, `still west of the wall at ${st.feet}`);
    await s.ok({ type: 'dispose' });
  });

  test('an area defined by a message is read by the filter of a request, with and without wait', async () => {
    const { state, s, gravel } = await doorWorld();
    // A gravel band across x = 0 for z <= 10; the way around it passes z >= 11.
    await s.ok({ type: 'edit', min: [0, 0, -16], max: [0, 0, 10], value: gravel });
    await s.ok({ type: 'tick' }); // navigation sees the edit
    const { area } = await s.ok({ type: 'defineArea', name: 'mud', blocks: ['minecraft:gravel'], cost: 4 });
    assert.equal(area, 0);
    assert.deepEqual(await s.ok({ type: 'findArea', name: 'mud' }), { area: 0 });

    const start = [-6, 1, 0], goal = [6, 1, 0];
    const plain = await s.ok({ type: 'request', profile: 'opener', start, goal, wait: true });
    const muddy = await s.ok({ type: 'request', profile: 'opener', start, goal, wait: true, filter: {} });
    const avoid = await s.ok({ type: 'request', profile: 'opener', start, goal, wait: true, filter: { mud: { exclude: true } } });
    const free = await s.ok({ type: 'request', profile: 'opener', start, goal, wait: true, filter: { mud: { multiplier: 0 } } });
    for (const r of [plain, muddy, avoid, free]) assert.equal(r.state, 'ready');
    assert.equal(muddy.cost, plain.cost);
    assert.ok(free.cost < plain.cost, `multiplier 0: ${free.cost} vs ${plain.cost}`);
    assert.ok(avoid.cost > plain.cost, `exclude: ${avoid.cost} vs ${plain.cost}`);
    const zs = (r) => [...r.waypoints].filter((_, i) => i % 3 === 2);
    assert.ok(Math.max(...zs(plain)) < 10, 'the default route went around the mud');
    assert.ok(avoid.cost > plain.cost * 1.5, `the excluding route did not go round: ${avoid.cost} vs ${plain.cost}`);
    // (The excluded route's cost is the detour's; its corridor may still be string-pulled straight
    // across the flat band: string pulling ignores surfaces, see docs/terrain.md.)

    // Without wait: the result is posted by a tick, read through the same filter.
    const { handle } = await s.ok({ type: 'request', profile: 'opener', start, goal, filter: { mud: { exclude: true } } });
    let found = null;
    for (let t = 0; t < 5 && !found; ++t) {
      await s.ok({ type: 'tick' });
      found = s.posts.at(-1).paths.find((p) => p.handle === handle) ?? null;
    }
    assert.ok(found, 'the filtered request was not posted');
    assert.equal(found.cost, avoid.cost);
    assert.deepEqual([...found.waypoints], [...avoid.waypoints]);
    assert.equal(state.pending.length, 0);
    await s.ok({ type: 'dispose' });
  });

  test('profiles of the walker_small, swimmer and flyer classes pass through addProfile', async () => {
    const { state, s } = await doorWorld();
    const small = await s.ok({ type: 'addProfile', profile: { id: 'chicken', class: 'walker_small', body: { width: 0.4, height: 0.7 } } });
    const fish = await s.ok({ type: 'addProfile', profile: { id: 'fish', class: 'swimmer', can_swim: true, speed: { swim: 2 } } });
    assert.deepEqual([small.profile, fish.profile], [state.world.findProfile('chicken'), state.world.findProfile('fish')]);
    assert.equal(fish.profile - small.profile, 4 * 64, 'the next index: profile ids are (index * 64 + tag) * 4 + 3');
    const chicken = await s.ok({ type: 'request', profile: 'chicken', start: [-6, 1, 0], goal: [6, 1, 0], wait: true });
    assert.equal(chicken.state, 'ready');
    await s.ok({ type: 'addProfile', profile: { id: 'bird', class: 'flyer', can_fly: true } });
    const { ids: [bird] } = await s.ok({ type: 'addAgents', agents: [{ profile: 'bird', feet: [0.5, 1, 0.5] }] });
    assert.ok(bird !== undefined, 'flyer agents are accepted');
    await s.ok({ type: 'dispose' });
  });

  test('bad door, area and filter messages are refused naming the field, and change nothing', async () => {
    const { state, s } = await doorWorld();
    const { ids: [agent] } = await s.ok({ type: 'addAgents', agents: [{ profile: 'opener', feet: [2.5, 1, 2.5] }] });
    await s.ok({ type: 'defineArea', name: 'road', blocks: ['gravel', 'dirt_path'], cost: -0.5 });
    await s.ok({ type: 'tick' });
    const snapshot = async () => {
      const st = await s.ok({ type: 'stats' });
      const a = await s.ok({ type: 'agentState', agent });
      const p = await s.ok({ type: 'request', profile: 'opener', start: [2, 1, 2], goal: [12, 1, 4], wait: true });
      return JSON.stringify({ e: st.navEpoch, n: st.agents, r: st.requests, s: st.searches, pending: state.pending.length, a, cost: p.cost,
        w: [...p.waypoints] });
    };
    const unchanged = async (msg, status, re) => {
      const b = await snapshot();
      await s.err(msg, status, re);
      await s.ok({ type: 'tick' });
      assert.equal(await snapshot(), b, `${msg.type} changed the world`);
    };

    await unchanged({ type: 'setDoorOpen', cell: [8, 1, 5], open: true }, 'NotFound', /^setDoorOpen: cell \(8, 1, 5\) holds no door/);
    await unchanged({ type: 'setDoorOpen', cell: DOOR, open: 'yes' }, 'InvalidArgument', /^setDoorOpen: open must be a boolean \(got string\)/);
    await unchanged({ type: 'setDoorOpen', cell: DOOR }, 'InvalidArgument', /^setDoorOpen: open must be a boolean \(got undefined\)/);
    await unchanged({ type: 'setDoorOpen', cell: [8, 1.5, 4], open: true }, 'InvalidArgument', /^setDoorOpen: cell \(8, 1\.5, 4\) is not a cell \(integers expected\)/);
    await unchanged({ type: 'setDoorOpen', cell: [8, 1], open: true }, 'InvalidArgument', /^setDoorOpen: cell has 2 entries, expected \[x, y, z\]/);
    await unchanged({ type: 'setDoorOpen', cell: [8, 4096, 4], open: true }, 'OutOfRange', /^setDoorOpen: cell \(8, 4096, 4\) is out of range/);
    await unchanged({ type: 'setDoorOpen', cell: [1000, 1, 4], open: true }, 'NotLoaded', /^setDoorOpen: cell \(1000, 1, 4\) is in chunk \(62, 0, 0\), which is not loaded/);

    await unchanged({ type: 'defineArea', name: 'road', blocks: ['gravel'], cost: 1 }, 'InvalidArgument', /^defineArea: .*road.*already/);
    await unchanged({ type: 'defineArea', name: 'mud', blocks: ['mud'], cost: 1001 }, 'InvalidArgument', /^defineArea: area "mud": cost 1001/);
    await unchanged({ type: 'defineArea', name: 'mud', blocks: 'mud', cost: 1 }, 'InvalidArgument', /^defineArea: area "mud": blocks must be an array/);
    await unchanged({ type: 'defineArea', name: 'mud', blocks: ['mud', 7], cost: 1 }, 'InvalidArgument', /^defineArea: area "mud": blocks\[1\]/);
    await unchanged({ type: 'defineArea', name: 'mud', blocks: ['no_such_block'], cost: 1 }, 'InvalidArgument', /^defineArea: .*no_such_block/);
    await unchanged({ type: 'defineArea', name: 5, blocks: ['mud'], cost: 1 }, 'InvalidArgument', /^defineArea: name must be a string/);
    await s.err({ type: 'findArea', name: 'mud' }, 'NotFound', /^findArea: no area "mud"/);
    await s.err({ type: 'findArea', name: 3 }, 'InvalidArgument', /^findArea: name must be a string/);

    for (const wait of [false, true]) {
      await unchanged({ type: 'request', profile: 'opener', start: [2, 1, 2], goal: [6, 1, 2], wait, filter: { mud: { exclude: true } } },
        'NotFound', /^request: filter: no area "mud"/);
      await unchanged({ type: 'request', profile: 'opener', start: [2, 1, 2], goal: [6, 1, 2], wait, filter: { road: { multiplier: -1 } } },
        'InvalidArgument', /^request: filter: area "road": multiplier -1/);
      await unchanged({ type: 'request', profile: 'opener', start: [2, 1, 2], goal: [6, 1, 2], wait, filter: { road: { avoid: true } } },
        'InvalidArgument', /^request: filter: area "road": avoid is not a filter field/);
      await unchanged({ type: 'request', profile: 'opener', start: [2, 1, 2], goal: [6, 1, 2], wait, filter: ['road'] },
        'InvalidArgument', /^request: filter: must be an object keyed by area name/);
    }
    // The door is still closed (the agent's world was compared above).
    assert.deepEqual(await s.ok({ type: 'setDoorOpen', cell: DOOR, open: false }), { changed: false });
    assert.equal(pkg.AGENT_MODES.includes((await s.ok({ type: 'agentState', agent })).mode), true);
    await s.ok({ type: 'dispose' });
  });
});
