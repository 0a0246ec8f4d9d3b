// Doors and ladders through the npm package: an agent whose corridor enters a closed door stops in
// front of it, raises one DoorAhead event (takeDoorEvents) and holds (agentState.waitingAtDoor)
// until the host opens the door (setDoorOpen flips both halves), then passes; a door that stays
// shut is avoided after 40 ticks and the agent goes around; a climber climbs a ladder; setDoorOpen
// checks its arguments and refuses a cell that is not a door.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;

const LOWER_CLOSED = 'oak_door[facing=east,half=lower,hinge=left,open=false,powered=false]';
const UPPER_CLOSED = 'oak_door[facing=east,half=upper,hinge=left,open=false,powered=false]';
const LOWER_OPEN = 'oak_door[facing=east,half=lower,hinge=left,open=true,powered=false]';
const UPPER_OPEN = 'oak_door[facing=east,half=upper,hinge=left,open=true,powered=false]';
const DOOR = [8, 1, 4];

describe('doors and ladders', { skip }, () => {
  let pkg, lib;
  const worlds = [];
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
  });
  after(() => worlds.forEach((w) => w.dispose()));

  /**
   * A flat stone floor over 3 x 3 chunk columns; a 3-high stone wall along x = 8 with a closed oak
   * door at z = 4 and a gap at z = 14; a pillar at (20, 1..3, 20) with a ladder up its south face.
   */
  function world() {
    const w = lib.createWorld();
    worlds.push(w);
    const { blocks, shapes } = h.registryFiles();
    w.loadMinecraftBlocks(blocks, shapes);
    const stone = w.blockValue('stone');
    const floor = new Uint16Array(4096);
    floor.fill(stone, 0, 256);
    for (let cz = -1; cz <= 1; ++cz) {
      for (let cx = -1; cx <= 1; ++cx) {
        w.loadChunk([cx, 0, cz], floor);
        w.loadChunk([cx, 1, cz], new Uint16Array(4096));
      }
    }
    w.setBox([8, 1, -16], [8, 3, 31], stone);
    w.setBlock(DOOR, w.blockValue(LOWER_CLOSED));
    w.setBlock([8, 2, 4], w.blockValue(UPPER_CLOSED));
    w.setBox([8, 1, 14], [8, 2, 14], w.blockValue('air'));
    w.setBox([20, 1, 20], [20, 3, 20], stone);
    w.setBox([20, 1, 21], [20, 3, 21], w.blockValue('ladder[facing=south]'));
    const opener = w.addProfile({ id: 'opener', can_open_doors: true });
    const climber = w.addProfile({ id: 'climber', can_climb: true, speed: { climb: 2 } });
    w.update();
    return { w, opener, climber };
  }

  const hdist = (feet, cell) => Math.hypot(feet[0] - (cell[0] + 0.5), feet[2] - (cell[2] + 0.5));
  const inCell = (feet, cell) =>
    Math.floor(feet[0]) === cell[0] && Math.floor(feet[1] + 1e-3) === cell[1] && Math.floor(feet[2]) === cell[2];
  const done = (s) => s.mode === 'arrived' || s.mode === 'failed' || s.mode === 'blocked';

  test('an opener stops before the closed door, raises one DoorAhead, holds, and passes once the host opens it', () => {
    const { w, opener } = world();
    const a = w.addAgent(opener, [4.5, 1, 4.5]);
    w.setAgentGoal(a, [12, 1, 4]);
    let s;
    for (let t = 0; t < 200; ++t) {
      w.tick();
      s = w.agentState(a);
      assert.ok(!inCell(s.feet, DOOR), `tick ${t}: inside the closed door at ${s.feet}`);
      if (s.waitingAtDoor) break;
    }
    assert.equal(s.waitingAtDoor, true, 'never held before the door');
    const raisedAt = w.navTick;
    for (let t = 0; t < 20; ++t) w.tick();
    s = w.agentState(a);
    assert.equal(s.mode, 'moving');
    assert.equal(s.waitingAtDoor, true);
    assert.deepEqual(s.door, DOOR);
    assert.equal(s.doorHoldTicks, 21);
    assert.equal(s.doorEvents, 1);
    assert.equal(s.replans, 0);
    assert.ok(hdist(s.feet, DOOR) <= 1 + 0.3 + 1e-9, `held ${hdist(s.feet, DOOR)} cells from the door`);
    assert.ok(Math.hypot(s.velocity[0], s.velocity[2]) < 1e-9);

    assert.equal(w.pendingDoorEvents, 1);
    const ev = w.takeDoorEvents();
    assert.equal(ev.count, 1);
    assert.ok(ev.agents instanceof Float64Array && ev.doors instanceof Int32Array && ev.ticks instanceof Float64Array);
    assert.equal(ev.agents[0], a);
    assert.deepEqual([...ev.doors], DOOR);
    assert.equal(ev.ticks[0], raisedAt);
    assert.equal(w.pendingDoorEvents, 0);
    assert.equal(w.takeDoorEvents().count, 0);

    w.setDoorOpen(DOOR, true);
    assert.equal(w.getBlock(DOOR), w.blockValue(LOWER_OPEN));
    assert.equal(w.getBlock([8, 2, 4]), w.blockValue(UPPER_OPEN));
    let passed = false;
    for (let t = 0; t < 200 && !done(s); ++t) {
      w.tick();
      s = w.agentState(a);
      passed ||= inCell(s.feet, DOOR);
    }
    assert.equal(s.mode, 'arrived', w.agentReason(a));
    assert.ok(passed, 'never walked through the door cell');
    assert.equal(s.waitingAtDoor, false);
    assert.equal(s.doorEvents, 1);
    assert.equal(w.takeDoorEvents().count, 0);
  });

  test('a door that stays shut is avoided after 40 ticks: the agent goes around through the gap', () => {
    const { w, opener } = world();
    const a = w.addAgent(opener, [4.5, 1, 4.5]);
    w.setAgentGoal(a, [12, 1, 4]);
    let s;
    for (let t = 0; t < 200 && !(s && s.waitingAtDoor); ++t) {
      w.tick();
      s = w.agentState(a);
    }
    assert.equal(s.waitingAtDoor, true);
    let held = 1;
    while (w.agentState(a).waitingAtDoor && held < 100) {
      w.tick();
      ++held;
    }
    assert.equal(held, 40);
    let gap = false;
    for (let t = 0; t < 400 && !done(s); ++t) {
      w.tick();
      s = w.agentState(a);
      gap ||= Math.floor(s.feet[0]) === 8 && Math.floor(s.feet[2]) === 14;
      assert.ok(!inCell(s.feet, DOOR));
    }
    assert.equal(s.mode, 'arrived', w.agentReason(a));
    assert.ok(gap, 'did not go through the gap');
    assert.equal(s.doorTimeouts, 1);
    assert.equal(s.doorEvents, 1);
    assert.equal(w.takeDoorEvents().count, 1);
    assert.equal(w.getBlock(DOOR), w.blockValue(LOWER_CLOSED));
  });

  test('a climber climbs the ladder onto the pillar', () => {
    const { w, climber } = world();
    const a = w.addAgent(climber, [20.5, 1, 24.5]);
    w.setAgentGoal(a, [20, 4, 20]);
    let s, top = 0;
    for (let t = 0; t < 200; ++t) {
      w.tick();
      s = w.agentState(a);
      if (Math.floor(s.feet[0]) === 20 && Math.floor(s.feet[2]) === 21) top = Math.max(top, s.feet[1]);
      if (done(s)) break;
    }
    assert.equal(s.mode, 'arrived', w.agentReason(a));
    assert.ok(top >= 4, `climbed to ${top} only`);
    w.tick();
    assert.equal(w.agentState(a).feet[1], 4);
    const c = w.agentCorridor(a);
    assert.ok([...c.kinds].some((k) => pkg.EDGE_KINDS[k] === 'climb'));
  });

  test('setDoorOpen flips both halves, changes nothing when already so, and refuses bad arguments', () => {
    const { w } = world();
    w.setDoorOpen([8, 2, 4], true); // through the upper half
    assert.equal(w.getBlock(DOOR), w.blockValue(LOWER_OPEN));
    assert.equal(w.getBlock([8, 2, 4]), w.blockValue(UPPER_OPEN));
    assert.equal(w.getBlock([8, 3, 4]), w.blockValue('stone'));
    w.update();
    const epoch = w.navEpoch;
    w.setDoorOpen(DOOR, true);
    w.update();
    assert.equal(w.navEpoch, epoch);
    w.setDoorOpen(DOOR, false);
    assert.equal(w.getBlock(DOOR), w.blockValue(LOWER_CLOSED));
    assert.equal(w.getBlock([8, 2, 4]), w.blockValue(UPPER_CLOSED));

    const rejects = (fn, status, re) => assert.throws(fn, (e) => {
      assert.ok(e instanceof pkg.VoxnavError, `not a VoxnavError: ${e}`);
      assert.equal(e.status, status, e.message);
      assert.match(e.message, re);
      return true;
    });
    const stone = w.getBlock([8, 1, 5]);
    rejects(() => w.setDoorOpen([8, 1, 5], true), 'NotFound', /^setDoorOpen: cell \(8, 1, 5\) holds no door/);
    assert.equal(w.getBlock([8, 1, 5]), stone);
    rejects(() => w.setDoorOpen([8, 1.5, 4], true), 'InvalidArgument', /^setDoorOpen: cell .* is not a cell/);
    rejects(() => w.setDoorOpen(DOOR, 'yes'), 'InvalidArgument', /^setDoorOpen: open must be a boolean/);
    rejects(() => w.setDoorOpen([8, 4096, 4], true), 'OutOfRange', /^setDoorOpen: cell .* is out of range/);
    rejects(() => w.setDoorOpen([1000, 1, 4], true), 'NotLoaded', /^setDoorOpen: cell \(1000, 1, 4\) is in chunk \(62, 0, 0\), which is not loaded/);
    rejects(() => w.setDoorOpen(null, true), 'InvalidArgument', /^setDoorOpen: cell must be/);
    assert.equal(w.getBlock(DOOR), w.blockValue(LOWER_CLOSED));
  });
});
