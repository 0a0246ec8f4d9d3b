// Compiled with tsc --strict --noEmit against the installed package (tests/web/pack.test.mjs):
// checks that index.d.ts and worker/*.d.ts describe the API the way a TypeScript user calls it.
import { init, load, ready, World, VoxnavError, EDGE_KINDS, AGENT_MODES, STATUS_NAMES, threadsAvailable, readRegion } from 'voxnav';
import type { ProfileId } from 'voxnav';
import type { Voxnav, Corridor, PathStatus, Reach, AgentsSnapshot, ProfileJson, StatusName, RegionLoadReport } from 'voxnav';
import { BODY_MODES, DEFAULT_BODY } from 'voxnav';
import type { StepResult, BodyParams, TopBlocks, PathNow, DoorEvents, CellMove } from 'voxnav';
import type { AreaFilter, AreaIndex } from 'voxnav';
import type { BlockDef, BlockTraits, BlockBox } from 'voxnav';
import { createState, handle, transferList, MESSAGE_TYPES } from 'voxnav/worker/handlers';
import type { TickPost, Request, Reply, PathNowResult } from 'voxnav/worker/handlers';
import { connect } from 'voxnav/worker';

export async function main(bytes: Uint8Array, mca: ArrayBuffer): Promise<number> {
  const lib: Voxnav = await init({ wasmBinary: bytes, build: 'auto' });
  const same: Voxnav = await ready;
  const other = await load({ wasmUrl: new URL('file:///x.wasm'), build: 'sync' });
  const world = new World({ lockstepDelay: 2 });
  const w2: World = other.createWorld();
  const report: RegionLoadReport = await world.loadRegion(mca, { skipEmptyProtoChunks: true });
  const bounds: [number, number, number] | null = report.min;
  const split = await readRegion(new Uint8Array(mca));
  world.loadAnvilColumns(split.columns, { fullChunksOnly: true });
  void bounds;
  world.loadChunk([0, 0, 0], new Uint16Array(4096));
  world.loadChunks(new Int32Array(3), new Uint16Array(4096));
  world.setBlock({ x: 1, y: 2, z: 3 }, 1);
  world.setBox([0, 0, 0], [3, 3, 3], 0);
  const profile: ProfileJson = { id: 'boar', class: 'walker', body: { width: 0.5 }, gap_jump: 'auto' };
  const p: ProfileId = world.addProfile(profile);
  world.update();
  const r: Reach = world.reachable(p, [1, 1, 1], [5, 1, 5]);
  const yes: boolean = r.answer === 'yes' && world.isStandable(p, [1, 1, 1]);
  const h = world.request(p, [1, 1, 1], [5, 1, 5], { range: 2 });
  const st: PathStatus = world.status(h);
  if (st.state === 'ready') {
    const c: Corridor = world.corridor(h);
    const x: number = c.positions[0] + c.cells[0];
    const kind = EDGE_KINDS[c.kinds[0]];
    void x;
    void kind;
  }
  world.release(h);
  const now: PathNow = world.findPathNow(p, [1, 1, 1], [5, 1, 5], { toward: true });
  if (now.corridor) void (now.corridor.positions[0] + now.cellCount);
  // Named areas; requests read them by name through a filter.
  const road: AreaIndex = world.defineArea('road', ['minecraft:gravel', 'dirt_path'], -0.5);
  const found: number = world.findArea('road');
  const filter: AreaFilter = { road: { multiplier: 0.5 }, lava_lake: { exclude: true } };
  const filtered: PathNow = world.findPathNow(p, [1, 1, 1], [5, 1, 5], { filter });
  world.release(world.request(p, [1, 1, 1], [5, 1, 5], { range: 1, filter: { road: { exclude: true } } }));
  world.release(world.requestToward(p, [1, 1, 1], [5, 1, 5], { filter: {} }));
  void [road + found, filtered.cost];
  // @ts-expect-error a multiplier is a number
  world.findPathNow(p, [1, 1, 1], [5, 1, 5], { filter: { road: { multiplier: '2' } } });
  // @ts-expect-error a filter entry has only multiplier and exclude
  world.request(p, [1, 1, 1], [5, 1, 5], { filter: { road: { cost: 2 } } });
  // @ts-expect-error blocks are an array of names
  world.defineArea('mud', 'mud', 2);
  // A state stepBody returned may be passed back as it is.
  const stepped0: StepResult = world.stepBody({ feet: [1.5, 3, 1.5] });
  void world.stepBody(stepped0);
  // The movement step, the state hash and the column read-out.
  const stepped: StepResult = world.stepBody({ feet: [1.5, 3, 1.5] }, { move: [1, 0], jump: true }, p, 0.05);
  const again = world.stepBody({ feet: stepped.feet, velocity: stepped.velocity, onGround: stepped.onGround, mode: stepped.mode },
    {}, { width: 0.5, stepHeight: 0.5 });
  const body: BodyParams = world.profileBody(p);
  const landed: boolean = again.report.landed && BODY_MODES.includes(again.mode) && DEFAULT_BODY.width === body.width;
  // @ts-expect-error body modes are checked
  world.stepBody({ feet: [0, 0, 0], mode: 'run' });
  // The moves a search takes from a cell, and how agents run a gap jump.
  const moves: CellMove[] = world.cellMoves(p, [1, 1, 1]);
  const leap: { speed: number; takeOff: number } = world.gapJumpRun(p, 2, 4.3, 5.6);
  void [moves[0]?.kind, moves[0]?.to[0], leap.speed + leap.takeOff, world.gapJumpRun({ gravity: 30 }, 1, 4, 5)];
  const hash: string = world.stateHash();
  const tops: TopBlocks = world.topBlocks([0, 0, 0], [15, 255, 15]);
  void [landed, hash, tops.heights[0] + tops.values[tops.width]];
  const a = world.addAgent(p, [1.5, 1, 1.5]);
  world.setAgentGoal(a, [5, 1, 5]);
  world.tick();
  const snap: AgentsSnapshot = world.agentsSnapshot();
  const mode = AGENT_MODES[snap.modes[0]];
  const feet: [number, number, number] = world.agentState(a).feet;
  world.setDoorOpen([1, 1, 1], true);
  const doors: DoorEvents = world.takeDoorEvents();
  const held: boolean = world.agentState(a).waitingAtDoor && world.agentState(a).doorHoldTicks < 40;
  const doorCell: [number, number, number] = world.agentState(a).door;
  void [doors.agents[0], doors.doors[0], doors.ticks[0] + world.navTick + world.pendingDoorEvents, held, doorCell];
  // Chunk streaming with a build radius, and the search budget.
  world.setChunkStreaming(true);
  world.setChunkBuildRadius(4);
  world.setSearchesPerUpdate(2);
  const streaming: boolean = world.chunkStreaming();
  const counts: number = world.pendingChunkBuilds() + world.deferredChunkBuilds() + world.queuedRequests() +
    world.chunkBuildRadius() + world.searchesPerUpdate();
  void [streaming, counts];
  // @ts-expect-error streaming is switched by a boolean
  world.setChunkStreaming(1);
  // @ts-expect-error the radius is a number of chunks
  world.setChunkBuildRadius('4');
  const height: number | null = world.standingHeight(p, [1, 1, 1]);
  const near = world.nearestStandable(p, [1, 1, 1]);
  try {
    world.getBlock([0, 0, 0]);
  } catch (e) {
    if (e instanceof VoxnavError) {
      const s: StatusName | string = e.status;
      void s;
    }
  }
  // @ts-expect-error a cell is three numbers
  world.setBlock('1,2,3', 1);
  // @ts-expect-error chunk values are a Uint16Array
  world.loadChunk([0, 0, 0], [1, 2, 3]);
  // @ts-expect-error unknown profile fields are rejected at compile time too
  world.addProfile({ id: 'x', wings: 2 });
  // @ts-expect-error build names are checked
  await load({ build: 'fast' });

  // The worker's pure handlers.
  const state = createState();
  const msg: Request = { id: 1, type: 'tick', dt: 0.05, count: 2 };
  const region: Request = { id: 'r', type: 'loadRegion', bytes: mca };
  void region;
  const { reply, posts } = await handle(state, msg);
  const rep: Reply = reply;
  if (rep.error) console.log(rep.error.status, rep.error.message);
  const post: TickPost | undefined = posts[0];
  if (post) {
    const wp: Float64Array = post.corridors[0].waypoints;
    const buffers: ArrayBuffer[] = transferList(post);
    void wp;
    void buffers;
    const doors: Int32Array = post.doorEvents.doors;
    void doors;
  }
  const send = connect((m, transfer) => void [m, transfer]);
  await send({ id: 2, type: 'stats' });
  await send({ id: 4, type: 'topBlocks', min: [0, 0, 0], max: [15, 255, 15] });
  const waited = await handle(state, { id: 6, type: 'request', profile: 'boar', start: [1, 1, 1], goal: [5, 1, 5], wait: true });
  if (waited.reply.ok && 'state' in waited.reply.ok) {
    const res: PathNowResult = waited.reply.ok;
    const w64: Float64Array | undefined = res.waypoints;
    void w64;
  }
  const area = await handle(state, { id: 7, type: 'defineArea', name: 'road', blocks: ['gravel'], cost: -0.5 });
  if (area.reply.ok) void (area.reply.ok.area + 1);
  await handle(state, { id: 8, type: 'request', profile: 'boar', start: [1, 1, 1], goal: [5, 1, 5], filter: { road: { exclude: true } } });
  const door = await handle(state, { id: 9, type: 'setDoorOpen', cell: [8, 1, 4], open: true });
  if (door.reply.ok) void (door.reply.ok.changed === true);
  // @ts-expect-error open is a boolean
  await handle(state, { id: 10, type: 'setDoorOpen', cell: [8, 1, 4], open: 'yes' });
  const settings = await handle(state, { id: 11, type: 'settings', chunkStreaming: true, chunkBuildRadius: 3, searchesPerUpdate: 2 });
  if (settings.reply.ok) void (settings.reply.ok.queuedRequests + settings.reply.ok.chunkBuildRadius);
  // @ts-expect-error chunkBuildRadius is a number of chunks
  await handle(state, { id: 12, type: 'settings', chunkBuildRadius: '3' });
  const hashReply = await handle(state, { id: 5, type: 'stateHash' });
  if (hashReply.reply.ok) void hashReply.reply.ok.hash.length;
  // @ts-expect-error every message has an id
  await handle(state, { type: 'stats' });
  // @ts-expect-error unknown message types are rejected
  await handle(state, { id: 3, type: 'fly' });

  // A game's own blocks.
  const slab: BlockBox = [0, 0, 0, 1, 0.5, 1];
  const blocks: BlockDef[] = [
    { name: 'air' },
    { name: 'half_slab', boxes: [slab] },
    { name: 'ladder', boxes: [[0, 0, 0.8125, 1, 1, 1]], climbable: true },
    { name: 'water', fluid: 'swimmable' },
    { name: 'door_closed', door: { open: false, toggle: 'door_open' } },
    { name: 'door_open', door: { open: true, toggle: 'door_closed' } },
  ];
  w2.defineBlocks(blocks, { fallback: 'air' });
  w2.loadBlocks('{"format":"voxnav-blocks","version":1,"blocks":[{"name":"air"}]}');
  const lava: BlockTraits = { fluid: 'harmful', hazard: 'fire' };
  w2.setBlockTraits(3, lava);
  const def = w2.blockDef(4);
  void (def.name.length + def.boxes.length + (def.door?.toggleValue ?? 0));
  // @ts-expect-error fluid is 'swimmable' | 'harmful' | 'none'
  w2.setBlockTraits(3, { fluid: 'lava' });
  // @ts-expect-error a box has six numbers
  w2.defineBlocks([{ name: 'stone', boxes: [[0, 0, 0, 1, 1]] }]);

  void [same, w2, yes, mode, feet, height, near, STATUS_NAMES, threadsAvailable(), MESSAGE_TYPES, lib.build];
  world.dispose();
  return snap.count;
}
