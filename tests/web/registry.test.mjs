// A game's own blocks through the npm package (docs/registry.md): the six blocks of a small browser
// game (air, stone, a half slab, a ladder, water, a door with closed and open values) defined with
// defineBlocks and with the JSON format; errors name the block and the field (VoxnavError, the
// message written by C++); in a hand-built world a climber climbs the ladder, a swimmer swims the
// pool and a door opener stops at the closed door (one DoorAhead event) and passes once it opens;
// setBlockTraits rebuilds navigation.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as h from './helpers.mjs';

const skip = h.skipReason;

const BLOCKS = [
  { name: 'air' },
  { name: 'stone', boxes: [[0, 0, 0, 1, 1, 1]] },
  { name: 'half_slab', boxes: [[0, 0, 0, 1, 0.5, 1]] },
  { name: 'ladder', boxes: [[0, 0, 0.8125, 1, 1, 1]], climbable: true },
  { name: 'water', fluid: 'swimmable' },
  { name: 'door_closed', boxes: [[0, 0, 0, 1, 1, 0.1875]], door: { open: false, toggle: 'door_open' } },
  { name: 'door_open', boxes: [[0, 0, 0, 0.1875, 1, 1]], door: { open: true, toggle: 'door_closed' } },
];
const [AIR, STONE, SLAB, LADDER, WATER, CLOSED, OPEN] = [0, 1, 2, 3, 4, 5, 6];
const DOOR = [20, 1, 20];

describe('a game\'s own blocks', { skip }, () => {
  let pkg, lib;
  const worlds = [];
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
  });
  after(() => worlds.forEach((w) => w.dispose()));

  const fresh = () => {
    const w = lib.createWorld();
    worlds.push(w);
    return w;
  };

  /**
   * A stone floor at y = 0 over 3 x 3 chunk columns; a platform x 10..14, y 1..4, z 10..14 whose
   * only way up is a ladder at (12, 1..4, 9), a half slab at (12, 1, 4); a pool of water
   * x -9..-5, y 1..3, z -9..-5 in a stone rim; a wall at z = 20 with a two-high closed door.
   */
  function world() {
    const w = fresh();
    w.defineBlocks(BLOCKS);
    const floor = new Uint16Array(4096);
    floor.fill(STONE, 0, 256);
    for (let cz = -1; cz <= 1; ++cz) {
      for (let cx = -1; cx <= 1; ++cx) {
        w.loadChunk([cx, 0, cz], floor);
        w.loadChunk([cx, 1, cz], new Uint16Array(4096));
      }
    }
    w.setBox([10, 1, 10], [14, 4, 14], STONE);
    w.setBox([12, 1, 9], [12, 4, 9], LADDER);
    w.setBlock([12, 1, 4], SLAB);
    w.setBox([-10, 1, -10], [-4, 3, -4], STONE);
    w.setBox([-9, 1, -9], [-5, 3, -5], WATER);
    w.setBox([-16, 1, 20], [31, 3, 20], STONE);
    w.setBox(DOOR, [20, 2, 20], CLOSED);
    const climber = w.addProfile({ id: 'climber', can_climb: true, speed: { climb: 2 } });
    const opener = w.addProfile({ id: 'opener', can_open_doors: true });
    const fish = w.addProfile({
      id: 'fish', class: 'swimmer', can_swim: true, speed: { swim: 2 }, body: { width: 0.98, height: 0.98 },
    });
    w.update();
    return { w, climber, opener, fish };
  }
  const feet = (w, p, c) => [c[0] + 0.5, w.standingHeight(p, c), c[2] + 0.5];

  test('defineBlocks and the JSON format install the same six blocks', () => {
    const a = fresh();
    a.defineBlocks(BLOCKS);
    const b = fresh();
    b.loadBlocks(JSON.stringify({ format: 'voxnav-blocks', version: 1, blocks: BLOCKS }));
    assert.equal(a.blockCount, 7);
    assert.equal(b.blockCount, 7);
    for (let v = 0; v < 7; ++v) assert.deepEqual(a.blockDef(v), b.blockDef(v));
    assert.equal(a.blockValue('door_open'), OPEN);
    assert.equal(a.blockValue('ladder'), LADDER);
    assert.deepEqual(a.blockDef(CLOSED), {
      name: 'door_closed', boxes: [[0, 0, 0, 1, 1, 0.1875]], door: { open: false, toggle: 'door_open', toggleValue: OPEN },
    });
    assert.deepEqual(a.blockDef(WATER), { name: 'water', boxes: [], fluid: 'swimmable' });
    assert.deepEqual(a.blockDef(AIR), { name: 'air', boxes: [] });
  });

  test('errors name the block and the field, and change nothing', () => {
    const w = fresh();
    const bad = BLOCKS.map((b) => ({ ...b }));
    bad[6] = { ...bad[6], door: { open: true, toggle: 'door_closd' } };
    assert.throws(() => w.defineBlocks(bad), (e) => e instanceof pkg.VoxnavError && e.status === 'InvalidArgument' &&
      e.message === "defineBlocks: blocks[6] 'door_open': door.toggle 'door_closd' is not a block");
    assert.throws(() => w.defineBlocks([{ name: 'air' }, { name: 'ladder', climable: true }]),
      (e) => e.status === 'BadFormat' && e.message === "defineBlocks: blocks[1] 'ladder': unknown field 'climable'");
    assert.throws(() => w.defineBlocks([{ name: 'lava', fluid: 'lava' }]),
      (e) => e.status === 'BadFormat' && /blocks\[0\] 'lava': fluid: not "swimmable", "harmful" or "none"/.test(e.message));
    assert.throws(() => w.loadBlocks('{"format":"voxnav-blocks","version":2,"blocks":[]}'),
      (e) => e.status === 'Unsupported' && /version 2 is not supported/.test(e.message));
    assert.equal(w.blockCount, 2); // the default registry stays
    const { w: built } = world();
    assert.throws(() => built.defineBlocks(BLOCKS), (e) => e.status === 'Busy');
    assert.throws(() => built.setBlockTraits(SLAB, { door: { toggle: 'stone' } }),
      (e) => e.status === 'InvalidArgument' && e.message === "setBlockTraits: value 2 'half_slab': door.toggle 'stone' is not a door");
    assert.throws(() => built.setBlockTraits(99, {}), (e) => e.status === 'OutOfRange');
    assert.throws(() => built.blockDef(7), (e) => e.status === 'OutOfRange');
    // A value that is not an integer is refused, not truncated (1.7 used to set value 1's traits).
    const before = JSON.stringify(built.blockDef(1));
    assert.throws(() => built.setBlockTraits(1.7, { climbable: true }),
      (e) => e.status === 'InvalidArgument' && e.argument === 'value' && /1\.7 is not an integer/.test(e.message));
    assert.equal(JSON.stringify(built.blockDef(1)), before);
    assert.throws(() => built.blockDef(1.5), (e) => e.status === 'InvalidArgument');
    assert.throws(() => built.setBlockTraits(65536 + 1, {}), (e) => e.status === 'OutOfRange');
  });

  test('agents climb the ladder, swim the water and stop at the closed door', () => {
    const { w, climber, opener, fish } = world();
    assert.equal(w.standingHeight(climber, [12, 1, 4]), 1.5); // on the half slab
    const c = w.addAgent(climber, feet(w, climber, [12, 1, 2]));
    const f = w.addAgent(fish, feet(w, fish, [-9, 1, -9]));
    const o = w.addAgent(opener, feet(w, opener, [20, 1, 16]));
    w.setAgentGoal(c, [12, 5, 12]);
    w.setAgentGoal(f, [-5, 3, -5]);
    w.setAgentGoal(o, [20, 1, 26]);
    let climbed = false, fishOut = false, opened = false;
    const events = [];
    for (let t = 0; t < 600; ++t) {
      w.tick();
      const sc = w.agentState(c), sf = w.agentState(f), so = w.agentState(o);
      if (Math.floor(sc.feet[0]) === 12 && Math.floor(sc.feet[2]) === 9 && sc.feet[1] > 3) climbed = true;
      const [x, y, z] = sf.feet;
      fishOut ||= !(x > -9 && x < -4 && z > -9 && z < -4 && y >= 1 && y < 4);
      if (!opened) assert.ok(so.feet[2] < 20, `tick ${t}: the opener entered the closed door (${so.feet})`);
      const ev = w.takeDoorEvents();
      for (let i = 0; i < ev.count; ++i) events.push({ agent: ev.agents[i], door: [...ev.doors.slice(3 * i, 3 * i + 3)] });
      if (!opened && so.waitingAtDoor && so.doorHoldTicks >= 20) {
        assert.ok(Math.hypot(so.feet[0] - 20.5, so.feet[2] - 20.5) <= 1.3 + 1e-9, `held at ${so.feet}`);
        assert.ok(Math.hypot(so.velocity[0], so.velocity[2]) < 1e-9);
        w.setDoorOpen(DOOR, true);
        assert.equal(w.getBlock(DOOR), OPEN);
        assert.equal(w.getBlock([20, 2, 20]), OPEN);
        opened = true;
      }
    }
    const sc = w.agentState(c), sf = w.agentState(f), so = w.agentState(o);
    assert.ok(climbed, 'the climber never rose inside the ladder column');
    assert.equal(sc.mode, 'arrived', w.agentReason(c));
    assert.equal(sc.feet[1], 5);
    assert.ok(!fishOut, 'the swimmer left the water');
    assert.equal(sf.mode, 'arrived', w.agentReason(f));
    assert.ok(Math.hypot(sf.feet[0] + 4.5, sf.feet[2] + 4.5) < 1);
    assert.deepEqual(events, [{ agent: o, door: DOOR }]);
    assert.ok(opened);
    assert.equal(so.mode, 'arrived', w.agentReason(o));
    assert.ok(so.feet[2] > 25);
  });

  test('setBlockTraits rebuilds navigation', () => {
    const { w, climber, fish } = world();
    const epoch = w.navEpoch;
    assert.equal(w.reachable(climber, [12, 1, 2], [12, 5, 12]).answer, 'yes');
    w.setBlockTraits(LADDER, {});
    w.update();
    assert.ok(w.navEpoch > epoch);
    assert.equal(w.reachable(climber, [12, 1, 2], [12, 5, 12]).answer, 'no');
    w.setBlockTraits(LADDER, { climbable: true });
    w.update();
    assert.equal(w.reachable(climber, [12, 1, 2], [12, 5, 12]).answer, 'yes');
    assert.ok(w.isStandable(fish, [-7, 2, -7]));
    w.setBlockTraits(WATER, { fluid: 'harmful', hazard: 'fire' });
    w.update();
    assert.ok(!w.isStandable(fish, [-7, 2, -7]));
    assert.deepEqual(w.blockDef(WATER), { name: 'water', boxes: [], hazard: 'fire', fluid: 'harmful' });
  });
});
