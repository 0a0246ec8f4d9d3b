// voxnav - types of the npm package's main entry (hand-written; checked with tsc --strict).

/** Status names of failing calls (VoxnavError.status). */
export type StatusName =
  | 'InvalidArgument'
  | 'OutOfRange'
  | 'NotLoaded'
  | 'NotFound'
  | 'StaleHandle'
  | 'BadFormat'
  | 'Unsupported'
  | 'Busy'
  | 'OutOfMemory';

/** Every status name, indexed by the C++ status code (0 = 'Ok'). */
export const STATUS_NAMES: readonly ['Ok', ...StatusName[]];

/**
 * Thrown by every voxnav call that fails. The message starts with the method name and names the
 * bad argument, e.g. "loadChunk: values has 4095 entries, expected 4096". A failing call leaves
 * the world unchanged.
 */
export class VoxnavError extends Error {
  constructor(status: StatusName | string, message: string, fn?: string, argument?: string);
  readonly name: 'VoxnavError';
  /** The status name, e.g. 'InvalidArgument'. */
  readonly status: StatusName | string;
  /** The method that failed, e.g. 'setBlock' ('' when not a method's error). */
  readonly function: string;
  /** The argument at fault, e.g. 'cell', 'goalRange' ('' when no single argument is). */
  readonly argument: string;
  toJSON(): VoxnavErrorJSON;
}

/** A VoxnavError as a plain object (worker replies). */
export interface VoxnavErrorJSON {
  status: string;
  message: string;
  function: string;
  argument: string;
}

/** The limits of the C++ API, named once in its headers (voxnav/types.h, requests.h, world.h, columns.h). */
export interface Limits {
  /** |x|, |z| of a cell (kMaxCellXZ). */
  readonly maxCellXZ: number;
  /** |y| of a cell (kMaxCellY). */
  readonly maxCellY: number;
  readonly chunkEdge: number;
  readonly chunkValues: number;
  /** Cells of one setBox box. */
  readonly maxBoxCells: number;
  /** Chunks one box of setBox / setBlocks may touch (OutOfRange beyond, naming the box). */
  readonly maxBoxChunks: number;
  /** The wasm heap's ceiling in bytes (2 GiB), shared by every World of a library: past it calls throw OutOfMemory. */
  readonly maxHeapBytes: number;
  readonly maxAreas: number;
  /** UTF-8 bytes of an area name. */
  readonly maxAreaNameBytes: number;
  readonly minAreaCost: number;
  readonly maxAreaCost: number;
  readonly maxAreaMultiplier: number;
  /** Request `range`, cells. */
  readonly maxGoalRange: number;
  /** nearestStandable's radius, cells. */
  readonly maxNearestRadius: number;
  readonly maxChunkBuildRadius: number;
  readonly maxSearchesPerUpdate: number;
  /** tick's dt, seconds. */
  readonly maxTickSeconds: number;
  readonly searchTimesKept: number;
  readonly maxColumnTopsColumns: number;
  readonly maxColumnTopsHeight: number;
  readonly maxColumnTopsCells: number;
  /** topBlocks' height of a column without blocks. */
  readonly noColumnTop: number;
  /** Bytes the chunks of one region (or one schematic) may inflate to: readRegion and the native
   *  loaders refuse more with OutOfRange. */
  readonly maxInflatedBytes: number;
  /** agentLookahead's length, metres. */
  readonly maxLookahead: number;
  /** |x|, |y|, |z| of one knock impulse, m/s. */
  readonly maxKnock: number;
  /** Live host entities of one World (addEntity: Busy beyond). */
  readonly maxEntities: number;
  /** chaseAgent / chaseEntity range, metres. */
  readonly minChaseRange: number;
  readonly maxChaseRange: number;
  /** fleeFrom's distance, cells. */
  readonly maxFleeDistance: number;
  /** lineWalkable's ends, cells apart along x or z. */
  readonly maxLineWalkCells: number;
  /** lineFlyable's ends, cells apart (Euclidean). */
  readonly maxLineFlyCells: number;
  /** Cells of findSpawnCells' box. */
  readonly maxSpawnBoxCells: number;
  /** findSpawnCells' maxCells. */
  readonly maxSpawnCells: number;
  /** The most moves cellMoves returns for one cell. */
  readonly maxCellMoves: number;
  /** Points of CellFilter.avoid. */
  readonly maxFilterPoints: number;
  /** CellFilter.minDistance, metres. */
  readonly maxFilterDistance: number;
  /** CellFilter.minHeadroom, cells. */
  readonly maxFilterHeadroom: number;
  /** CellFilter.hazardDistance, cells. */
  readonly maxFilterHazardDistance: number;
}

/** The default library's limits; null until init() has resolved. */
export let LIMITS: Limits | null;

/** Which wasm build runs: one pthread for searches ('threaded') or none ('sync'). */
export type BuildName = 'sync' | 'threaded';

export interface InitOptions {
  /**
   * 'auto' (default): 'threaded' in a cross-origin isolated browser context, else 'sync'
   * (Node included). 'threaded' throws Unsupported where SharedArrayBuffer is missing.
   */
  build?: 'auto' | BuildName;
  /**
   * Where the package's dist/ files are served (a CDN, or dist/ copied beside an esbuild bundle):
   * the .wasm, and for the threaded build its glue and pthread script. Default: the package's own,
   * found with `new URL('../dist/...', import.meta.url)`, which Vite and webpack 5 rewrite.
   */
  distUrl?: string | URL;
  /** Where the .wasm alone is (default: under distUrl, or the package's dist/). */
  wasmUrl?: string | URL;
  /** The .wasm bytes themselves (wins over wasmUrl). */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** A cell or position: [x, y, z] or {x, y, z}. y is up; cells are integers. */
export type Vec3Like = readonly [number, number, number] | { readonly x: number; readonly y: number; readonly z: number };

declare const handleKind: unique symbol;
/**
 * A handle of one kind: a number at runtime, a type of its own for TypeScript, so an agent id
 * passed where a path handle is expected (or a plain number) does not compile. At runtime too
 * the number says its kind (its low 2 bits: 1 agent, 2 path, 3 profile) and its World: a handle
 * of another kind or World is refused with VoxnavError('InvalidArgument') naming the argument
 * ("agent 6 is a path handle, not an agent id", "... is an agent id of another World").
 * A number read from a typed array (agentsSnapshot().ids, takeDoorEvents().agents) is cast:
 * `ids[i] as AgentId`.
 */
export type Handle<Kind extends string> = number & { readonly [handleKind]: Kind };
/** Profile id (from addProfile or findProfile; not the profile's index). */
export type ProfileId = Handle<'ProfileId'>;
/** Path request handle (an exact integer; stale once released). */
export type PathHandle = Handle<'PathHandle'>;
/** Agent id (an exact integer; stale once removed). */
export type AgentId = Handle<'AgentId'>;
/**
 * Host entity id (addEntity; stale once removed): a position agents may chase. At runtime its
 * low 2 bits are 0, so no agent, path or profile call takes one, nor does an entity call take
 * another kind of handle ("entity ... is an agent id, not an entity id").
 */
export type EntityId = Handle<'EntityId'>;

/** CellFilter.reach: which way a cell must be reachable ('yes') from / to CellFilter.reachCell. */
export type CellReachName = 'any' | 'from' | 'to' | 'both';
export const CELL_REACH: readonly CellReachName[];
/**
 * The tests a cell must pass besides being standable (findSpawnCells, nearestStandable), cheapest
 * first, `reject` last. Limits: LIMITS.maxFilter*.
 */
export interface CellFilter {
  /** The h cells above hold no collision box (room for a taller body); 0: off. */
  minHeadroom?: number;
  /** No hazard block within d columns around (y - 1 .. y + 2); 0: off. */
  hazardDistance?: number;
  /** Not in a fluid nor at its edge. */
  excludeFluids?: boolean;
  /** Points (metres) the cell's bottom centre keeps at least minDistance from. */
  avoid?: ReadonlyArray<Vec3Like>;
  minDistance?: number;
  reach?: CellReachName;
  reachCell?: Vec3Like;
  /**
   * The host's last word, asked once per cell that passed every other test: true rejects it
   * (e.g. in a player's line of sight). Must not change the World. If it throws, the call throws
   * that error (after the query, which changes nothing).
   */
  reject?: (cell: [number, number, number]) => boolean;
}
/** findSpawnCells' result: how many cells pass (at most maxCells) and them, 3 numbers each. */
export interface SpawnCells {
  count: number;
  cells: Int32Array;
}
/** What a renderer or an animation system reads of an agent (agentLocomotion). */
export interface AgentLocomotion {
  /** Facing, a binary angle 0 .. 65535 (0 faces -Z, 16384 faces -X). */
  yaw: number;
  /** The kind of the edge being crossed ('start' when following no corridor). */
  edge: EdgeKindName;
  /** m/s: sprint or walk speed while following, else 0. */
  cruiseSpeed: number;
  /** Metres of corridor left, 0 when not following. */
  distanceToStop: number;
  sprinting: boolean;
  /** Under a knockback lock. */
  knocked: boolean;
  knocks: number;
  lockResumes: number;
  lockReplans: number;
}

/** Edge kinds: the values of `kinds` arrays index this list. */
export type EdgeKindName =
  | 'start' | 'walk' | 'step_up' | 'step_down' | 'jump' | 'drop' | 'gap_jump' | 'climb' | 'swim' | 'door' | 'fly';
export const EDGE_KINDS: readonly EdgeKindName[];
/** One move of World.cellMoves: the cell it lands in, its kind and its integer cost. */
export interface CellMove {
  to: [number, number, number];
  kind: EdgeKindName;
  cost: number;
}

/** Agent modes: the values of `modes` arrays index this list. */
export type AgentModeName = 'idle' | 'planning' | 'moving' | 'arrived' | 'failed' | 'blocked';
export const AGENT_MODES: readonly AgentModeName[];

/** Body modes of the movement step: the values of BodyState.mode. */
export type BodyModeName = 'walk' | 'fly' | 'swim' | 'climb';
export const BODY_MODES: readonly BodyModeName[];
/** What a climbing body wants to do (BodyInput.climb). */
export type ClimbIntentName = 'none' | 'up' | 'down' | 'hold';
export const CLIMB_INTENTS: readonly ClimbIntentName[];

/**
 * The body and its physics for World.stepBody. Units: metres, seconds. Missing fields take the
 * standard walker's value (DEFAULT_BODY).
 */
export interface BodyParams {
  /** Square footprint side, metres: (0, 16]. Default 0.6. */
  width?: number;
  /** Metres: (0, 16]. Default 1.8. */
  height?: number;
  /** Highest rise taken without a jump, metres: >= 0 (0 = none). Default 0.6. */
  stepHeight?: number;
  /** m/s^2. Default 32 (Minecraft's 0.08 blocks/tick^2 at 20 ticks/s). */
  gravity?: number;
  /** Take-off speed of a jump, m/s. Default sqrt(2 * 32 * 1.25) (apex 1.25). */
  jumpVelocity?: number;
  /** Fastest fall, m/s: >= 0. Default 78.4. */
  terminalSpeed?: number;
  /** > 0 lets the body climb ladders and vines, m/s. Default 0. */
  climbSpeed?: number;
}
/** The standard walker body (every BodyParams field). */
export const DEFAULT_BODY: Readonly<Required<BodyParams>>;

/** A body's state for World.stepBody (feet: centre of the bottom of the body box, metres). */
export interface BodyState {
  feet: Vec3Like;
  /** m/s; y persists between steps (gravity, jumps). Default [0, 0, 0]. */
  velocity?: Vec3Like;
  /** Knock velocity carried over steps, m/s. Default [0, 0, 0]. */
  carry?: Vec3Like;
  /** Default false. */
  onGround?: boolean;
  /** Default 'walk'. */
  mode?: BodyModeName;
}

/** The drive of one step. */
export interface BodyInput {
  /** Desired horizontal velocity [x, z], m/s, world frame. Default [0, 0]. */
  move?: readonly [number, number];
  /** Jump when on the ground (walk mode). */
  jump?: boolean;
  /** Used while climbing. Default 'none'. */
  climb?: ClimbIntentName;
  /** Vertical velocity when flying or swimming in a fluid, m/s. */
  vertical?: number;
  /** One-shot velocity change this step, m/s. */
  knock?: Vec3Like;
}

/** What one step did. */
export interface StepReport {
  /** Feet after - feet before, metres. */
  displacement: [number, number, number];
  hitWallX: boolean;
  hitWallZ: boolean;
  /** Largest speed into a blocking wall, m/s. */
  wallSpeed: number;
  hitCeiling: boolean;
  /** Came down onto a box this step after being airborne. */
  landed: boolean;
  landingSpeed: number;
  /** A blocked horizontal move was taken by step-up (rising stepRise metres). */
  steppedUp: boolean;
  stepRise: number;
  climbing: boolean;
  inFluid: boolean;
}

/** The state after one World.stepBody, with its report. */
export interface StepResult {
  feet: [number, number, number];
  velocity: [number, number, number];
  carry: [number, number, number];
  onGround: boolean;
  mode: BodyModeName;
  report: StepReport;
}

/** World.topBlocks: the highest non-air block of each column. */
export interface TopBlocks {
  /** Columns per row (max x - min x + 1); entry (x - min x) + width * (z - min z). */
  width: number;
  /** y of the block, or -2147483648 where the column has none (or is not loaded). */
  heights: Int32Array;
  /** Block value of that block (0 where none). */
  values: Uint16Array;
}

export type ReachAnswer = 'yes' | 'no' | 'unknown';
export interface Reach {
  answer: ReachAnswer;
  /** 'none' for yes / no; else why the answer is unknown ('not_loaded', 'start_not_standable', ...). */
  reason: string;
  /** Navigation epoch the answer holds for; ask again after World.navEpoch moves. */
  epoch: number;
}

export type PathStateName = 'searching' | 'ready' | 'failed';
export interface PathStatus {
  state: PathStateName;
  /** 'none', 'unreachable', 'no_path', 'budget_exhausted', 'bad_start', 'bad_goal', 'not_loaded'
   * ('embedded' only in AgentState.failure: a Blocked agent walled in by an edit). */
  failure: string;
  /** Ready with a route that stops short of the goal (requestToward). */
  partial: boolean;
  /** Integer cost: 10000 per cell, 14142 per diagonal, plus extras. */
  cost: number;
  nodesExpanded: number;
  cellCount: number;
  waypointCount: number;
}

/** String-pulled waypoints: feet positions in metres, with the edge kind reaching each. */
export interface Corridor {
  /** x, y, z per waypoint. */
  positions: Float64Array;
  /** EDGE_KINDS index per waypoint. */
  kinds: Uint8Array;
  /** x, y, z of each waypoint's cell. */
  cells: Int32Array;
}

export interface AgentCorridor extends Corridor {
  /** Changes whenever the waypoints ahead change: installed, spliced, pulled again, or teleported. */
  epoch: number;
}

export interface PathCells {
  /** x, y, z per search-path cell. */
  cells: Int32Array;
  kinds: Uint8Array;
}

export interface AgentState {
  mode: AgentModeName;
  feet: [number, number, number];
  velocity: [number, number, number];
  onGround: boolean;
  /** Changes when the waypoints ahead change (installed, spliced around an edit, pulled again, teleport). */
  corridorEpoch: number;
  nextWaypoint: number;
  /** Goals reached. */
  arrivals: number;
  /** Searches from scratch after the corridor broke beyond a local repair, or progress stalled. */
  replans: number;
  /** Corridors spliced around an edit from a short local search (no new request). */
  repairs: number;
  /** Path requests made. */
  requests: number;
  failure: string;
  /** Holding before the closed door cell `door` (a DoorAhead event was raised for it). */
  waitingAtDoor: boolean;
  /** The door cell held before (meaningful while waitingAtDoor). */
  door: [number, number, number];
  /** Ticks held before that door so far (0 .. 40: at 40 the agent avoids it and plans again). */
  doorHoldTicks: number;
  /** DoorAhead events raised for this agent. */
  doorEvents: number;
  /** Holds that ended with the door still shut (each puts the door on the avoided list). */
  doorTimeouts: number;
}

/**
 * World.takeDoorEvents's answer: the DoorAhead events raised since the last call, oldest first.
 * Event i: agent `agents[i]` stopped before the closed door cell `doors[3i .. 3i+2]` at navigation
 * tick `ticks[i]` (World.navTick) and holds until the door opens.
 */
export interface DoorEvents {
  count: number;
  agents: Float64Array;
  doors: Int32Array;
  ticks: Float64Array;
}

/**
 * World.findPathNow's answer: the status fields (state 'ready' or 'failed', never 'searching')
 * and, when ready, the corridor.
 */
export interface PathNow extends PathStatus {
  corridor: Corridor | null;
}

/** Every live agent, in the order they were added. */
export interface AgentsSnapshot {
  count: number;
  ids: Float64Array;
  /** Feet x, y, z per agent. */
  positions: Float64Array;
  velocities: Float64Array;
  /** AGENT_MODES index per agent. */
  modes: Uint8Array;
  /** 1 when the agent stands on the ground. */
  onGround: Uint8Array;
  corridorEpochs: Uint32Array;
}

export interface WorldStats {
  searches: number;
  nodesExpanded: number;
  maintenanceRuns: number;
  lastMaintenanceMs: number;
  standableCells: number;
  islands: number;
  agents: number;
  /** Search jobs the pthread has run, each taking one or more of an update's searches (threaded
   *  build; 0 otherwise). */
  threadJobs: number;
  build: BuildName;
}

/** Index of a named area (order of World.defineArea). Filters name areas, never index them. */
export type AreaIndex = number;

/** How one request reads one named area (World.defineArea). */
export interface AreaFilterEntry {
  /**
   * Multiplies the area's cost (the cost given to defineArea, in cells per move entering one of
   * its cells): 0 .. 1000, finite. Default 1; 0 reads the area as plain ground. The result rounds
   * to the search's integer cost units, and a move never costs less than 0.4 of its own cost.
   */
  multiplier?: number;
  /** true: the route never enters a cell of the area (it may start in one). Default false. */
  exclude?: boolean;
}

/**
 * A request's reading of the named areas, keyed by area NAME (as given to World.defineArea), e.g.
 * `{ road: { multiplier: 0.5 }, lava_lake: { exclude: true } }`. Areas not named are read as
 * defined; `{}` is the default. Checked before anything is requested: NotFound for a name this
 * world has no area of, InvalidArgument for a multiplier that is not a finite number in 0 .. 1000,
 * an exclude that is not a boolean, another field, or a filter that is not a plain object (the
 * message names the area and the bad field). Reachability answers ignore filters: an excluded
 * area can make a reachable goal fail with 'no_path'.
 */
export type AreaFilter = { readonly [areaName: string]: AreaFilterEntry };

export interface RequestOptions {
  /** Any cell within this many cells of the goal (every axis) will do: 0 .. 64. */
  range?: number;
  /** Accept the best partial route when the goal is out of reach. */
  toward?: boolean;
  /** How this request reads the named areas (default: every area as defined). */
  filter?: AreaFilter;
}

/**
 * A profile: per-creature movement settings of a movement class. Unknown fields are an error.
 * See docs/profiles.md for every field, its units, range and default.
 */
export interface ProfileJson {
  id: string;
  class?: 'walker_small' | 'walker' | 'walker_large' | 'swimmer' | 'flyer';
  body?: { width?: number; height?: number };
  speed?: { walk?: number; sprint?: number; climb?: number; swim?: number };
  step_height?: number;
  jump_apex?: number;
  max_drop?: number;
  gap_jump?: 'auto' | number;
  turn_rate?: number;
  arrive_radius?: number;
  strafe?: boolean;
  can_open_doors?: boolean;
  can_climb?: boolean;
  can_swim?: boolean;
  can_fly?: boolean;
  drop_malus?: number;
  search?: { max_nodes?: number; max_distance?: number };
  /**
   * Extra cost, in cells of level walking, of entering a cell of a path type: 0..1000 or
   * "impassable" (walkable cannot be impassable). Listed keys replace the defaults.
   */
  malus?: Partial<
    Record<
      | 'walkable' | 'slow' | 'danger_fire' | 'danger_other' | 'damage_fire' | 'damage_other'
      | 'door_open' | 'door_closed' | 'climbable' | 'water',
      number | 'impassable'
    >
  >;
  /** Block names (a "minecraft:" prefix is allowed) and a cost in cells, -0.6..1000; at most 32. */
  surface_malus?: { blocks: string[]; cost: number }[];
  /** Crowd avoidance: radius in cells (0: half the body width), time horizon in seconds. */
  avoidance?: { enabled?: boolean; radius?: number; time_horizon?: number; max_neighbours?: number };
  /** Knockback resistance, 0..1. */
  knockback?: { resistance?: number };
}

export interface AnvilOptions {
  /** Leave out proto-chunks (Status not "full") without any block (default true, as natively). */
  skipEmptyProtoChunks?: boolean;
  /** Leave out every proto-chunk. */
  fullChunksOnly?: boolean;
}

export interface AnvilLoadReport {
  columns: number;
  chunks: number;
  uniformChunks: number;
  emptyProtoChunks: number;
  skippedProtoChunks: number;
  /** 'anvil-1.12', 'anvil-1.13', 'anvil-1.18', 'anvil-mixed', or 'anvil' when nothing loaded. */
  format: string;
  dataVersionMin: number;
  dataVersionMax: number;
  /** Cells whose block name the registry did not know (loaded as solid full blocks). */
  unknownBlocks: number;
  unknownProperties: number;
  unknownNames: string[];
  /** Loaded cell bounds (inclusive), or null when nothing loaded. */
  min: [number, number, number] | null;
  max: [number, number, number] | null;
}

export interface RegionLoadReport extends AnvilLoadReport {
  /** Chunks this build cannot read (LZ4, external .mcc). */
  skippedChunks: number;
  skipReason: string;
}

export interface RegionColumns {
  /** Uncompressed NBT of each chunk column, in slot order. */
  columns: Uint8Array[];
  /** Region slot (local x + 32 * local z) of each column. */
  slots: number[];
  skippedChunks: number;
  skipReason: string;
}

/**
 * Splits a region file (.mca) into its chunk columns' NBT: the C++ library parses the container,
 * the chunks are inflated with DecompressionStream. `module`: the wasm module to parse with (a
 * library's `module`; default: one loaded on first use).
 */
export function readRegion(file: Uint8Array | ArrayBuffer, module?: unknown): Promise<RegionColumns>;

export interface WorldOptions {
  /** > 0: lockstep mode, every search result lands exactly this many ticks after dispatch. */
  lockstepDelay?: number;
  /** Run searches on the pthread (default: true in the threaded build). */
  threaded?: boolean;
  /** The library instance (default: the one init() loaded); InvalidArgument when not one. */
  voxnav?: Voxnav;
}

/**
 * One space (a world): the host's block mirror, walker navigation, path requests and agents.
 * Call it from one thread. Every method throws VoxnavError on failure, leaving the world unchanged.
 */
/** A collision box in cell units [minX, minY, minZ, maxX, maxY, maxZ]: inside [0,1] (y up to 1.5). */
export type BlockBox = [number, number, number, number, number, number];
/** What navigation reads of a block (docs/registry.md). */
export interface BlockTraits {
  /** A door; `toggle` names the block it becomes when setDoorOpen toggles it (a door of the other state). */
  door?: { open?: boolean; toggle?: string };
  climbable?: boolean;
  hazard?: 'fire' | 'other' | 'none';
  slow?: boolean;
  fluid?: 'swimmable' | 'harmful' | 'none';
}
/** One block value of a game's registry. */
export interface BlockDef extends BlockTraits {
  name: string;
  boxes?: BlockBox[];
}

export class World {
  /** Throws Busy before init() has finished, unless `voxnav` is given. */
  constructor(options?: WorldOptions);
  readonly voxnav: Voxnav;
  readonly threaded: boolean;
  readonly disposed: boolean;
  /** Warning of the last addProfile call ('' when none, and after a failed call). */
  lastProfileWarning: string;
  /** Frees the wasm memory now (also done when the World is garbage collected). */
  dispose(): void;

  /** minecraft-data's blocks.pc-*.json and blockCollisionShapes.pc-*.json; before any chunk. */
  loadMinecraftBlocks(blocksJson: string | Uint8Array | ArrayBuffer, shapesJson: string | Uint8Array | ArrayBuffer): void;
  /**
   * Value of a block state "name[prop=value,...]" (properties not given take the default).
   * NotFound, naming the part, for an unknown block, property or value, a property given twice
   * or a malformed string.
   */
  blockValue(state: string): number;
  readonly blockCount: number;

  /**
   * Installs the game's own blocks (before any chunk; Busy after): blocks[v] is value v (value 0
   * conventionally air). Errors (VoxnavError InvalidArgument / BadFormat) name the block and the
   * field, e.g. "defineBlocks: blocks[6] 'door_open': door.toggle 'door_closd' is not a block";
   * nothing changes on error. See docs/registry.md.
   */
  defineBlocks(blocks: BlockDef[], options?: { fallback?: string }): void;
  /** A registry in voxnav's JSON format ({"format":"voxnav-blocks","version":1,"blocks":[...]}); Unsupported for another version. */
  loadBlocks(json: string | Uint8Array | ArrayBuffer): void;
  /**
   * Replaces the traits of an installed value, at any time (names and boxes stay): navigation of
   * every class is rebuilt at the next update and agents plan again as after an edit.
   */
  setBlockTraits(value: number, traits: BlockTraits): void;
  /** A value's definition (door.toggleValue: the value the door toggles to). OutOfRange when not in the registry. */
  blockDef(value: number): BlockDef & { boxes: BlockBox[]; door?: { open: boolean; toggle?: string; toggleValue?: number } };

  /** 4096 values, index x + 16 * (z + 16 * y). */
  loadChunk(chunk: Vec3Like, values: Uint16Array): void;
  /** n chunks at once: positions [cx, cy, cz] * n, values 4096 * n. All are checked first. */
  loadChunks(positions: Int32Array, values: Uint16Array): void;
  /** Anvil chunk columns (uncompressed NBT), decoded by the engine as natively. All or nothing. */
  loadAnvilColumns(columns: Uint8Array[], options?: AnvilOptions): AnvilLoadReport;
  /** A whole region file (.mca): readRegion + loadAnvilColumns. All or nothing. */
  loadRegion(file: Uint8Array | ArrayBuffer, options?: AnvilOptions): Promise<RegionLoadReport>;
  /** One loaded chunk; [cx, cy, cz] integers in range (InvalidArgument / OutOfRange otherwise). */
  unloadChunk(chunk: Vec3Like): void;
  /** n chunks: every one in range, loaded and given once, all checked before any is unloaded. */
  unloadChunks(positions: Int32Array): void;
  setBlock(cell: Vec3Like, value: number): void;
  /** Every cell of the inclusive box (at most 2^24 cells, every chunk loaded). */
  setBox(min: Vec3Like, max: Vec3Like, value: number): void;
  /**
   * Edits in order, all or nothing: every entry is checked first (cells in range, min <= max, at
   * most LIMITS.maxBoxCells cells a box, every chunk loaded, the value in the registry); the error
   * names the first bad entry and field ("edits[2].value ..."). `list` names the entries in
   * messages ('' for a single edit).
   */
  setBlocks(edits: ReadonlyArray<{ cell: Vec3Like; value: number } | { min: Vec3Like; max: Vec3Like; value: number }>, list?: string): void;
  getBlock(cell: Vec3Like): number;

  /**
   * Adds a profile from JSON (string or object); returns its id. A key given twice in the JSON is
   * refused (InvalidArgument naming it). Classes walker_small, walker, walker_large and swimmer are
   * navigable (flyer throws Unsupported). walker_large stands on a 2x2 footprint: every cell it
   * gives or gets (queries, requests, path cells, corridor cells and positions, agent goals) is a
   * foot cell, the low corner (min x, min z) of the four columns under the body, whose centre is
   * (0.5, 0, 0.5) from the foot cell's centre; agent feet are the body's bottom centre.
   */
  addProfile(profile: string | ProfileJson, source?: string): ProfileId;
  findProfile(name: string): ProfileId;

  /**
   * Defines a named area: the cells whose surface (the block a body stands on; a fluid it swims
   * in) is one of `blocks` (block names, any state; a "minecraft:" prefix is allowed), and the
   * cost, in cells of level walking, a move pays on entering one: -0.6 .. 1000 (negative for a
   * road; a move never costs less than 0.4 of its own cost, and searches stay optimal). Profiles'
   * surface_malus adds on top. Requests read areas by name through `RequestOptions.filter`.
   * Takes effect at once (no rebuild of navigation). At most 32 areas per world. Returns the
   * area's index. Throws (nothing changes) InvalidArgument, naming the area and the bad part: a
   * name that is not 1 .. 64 UTF-8 bytes or is already defined, `blocks` not a non-empty array of
   * non-empty strings, an unknown block name (`blocks[i]: unknown block name "..."`), a cost that
   * is not a finite number in -0.6 .. 1000, a 33rd area; OutOfRange when the surfaces would need
   * more than 255 groups.
   */
  defineArea(name: string, blocks: readonly string[], cost: number): AreaIndex;
  /** The index of the area of that name; NotFound when this world has none. */
  findArea(name: string): AreaIndex;

  /** Brings navigation up to date with the edits; applies finished searches; dispatches new ones. */
  update(): void;
  readonly navEpoch: number;
  reachable(profile: ProfileId, from: Vec3Like, goal: Vec3Like): Reach;
  isStandable(profile: ProfileId, cell: Vec3Like): boolean;
  /** Feet height in metres, or null when the loaded cell is not standable. */
  standingHeight(profile: ProfileId, cell: Vec3Like): number | null;
  /** With a filter, only cells that pass it count (nearest first; ties: lower y, z, x). */
  nearestStandable(profile: ProfileId, near: Vec3Like, radius?: number, filter?: CellFilter): [number, number, number] | null;
  /**
   * The moves a search of `profile` takes out of cell `from` (walks, steps, jumps, drops, door and
   * ladder moves, gap jumps; those the profile refuses left out), in the search's order; [] for a
   * cell that is no node. cost: 10000 per cell of level walking. Unsupported for flyers.
   */
  cellMoves(profile: ProfileId, from: Vec3Like): CellMove[];
  /**
   * Whether a body of `profile` walks straight from cell `from`'s centre to cell `to`'s without a
   * jump (conservative; ends at most LIMITS.maxLineWalkCells apart). Unsupported for swimmers and flyers.
   */
  lineWalkable(profile: ProfileId, from: Vec3Like, to: Vec3Like): boolean;
  /** Whether a flyer flies straight from feet `from` to feet `to` (metres) touching nothing (conservative). */
  lineFlyable(profile: ProfileId, from: Vec3Like, to: Vec3Like): boolean;
  /** A lower bound of the travel time, seconds, in constant time (Infinity when unreachable). */
  estimateTravel(profile: ProfileId, from: Vec3Like, to: Vec3Like): number;
  /**
   * Up to maxCells (default 64) standable cells of the box min .. max that pass `filter`, in the
   * order `seed` (an integer 0 .. 2^53 - 1, default 0) gives: the same on every platform.
   */
  findSpawnCells(profile: ProfileId, min: Vec3Like, max: Vec3Like, filter?: CellFilter, seed?: number, maxCells?: number): SpawnCells;
  /** The binary angle (0 .. 65535) a horizontal direction faces (y ignored). */
  yawOfDirection(direction: Vec3Like): number;

  /**
   * Starts a path request (never blocks); results land at a later update() / tick(). Options:
   * range, toward, and an area filter by name (see AreaFilter); an unknown option is refused
   * (InvalidArgument).
   */
  request(profile: ProfileId, start: Vec3Like, goal: Vec3Like, options?: RequestOptions): PathHandle;
  requestToward(profile: ProfileId, start: Vec3Like, goal: Vec3Like, options?: Omit<RequestOptions, 'toward'>): PathHandle;
  /**
   * One search now, on this thread: no handle, navigation time does not advance (agents, other
   * requests and stats() are not affected). Sees navigation as of the last update() / tick().
   */
  findPathNow(profile: ProfileId, start: Vec3Like, goal: Vec3Like, options?: RequestOptions): PathNow;
  status(handle: PathHandle): PathStatus;
  /** Busy until the request is ready. */
  corridor(handle: PathHandle): Corridor;
  pathCells(handle: PathHandle): PathCells;
  release(handle: PathHandle): void;

  /**
   * Adds an agent whose feet are at `feet` (metres). Agents of walker and walker_small profiles
   * walk; agents of a swimmer profile swim (the movement step's 'swim' mode at `speed.swim`),
   * following the swimmer class's water cells and never steering out of the water: put their feet
   * in a cell `isStandable` answers true for with that profile.
   */
  addAgent(profile: ProfileId, feet: Vec3Like): AgentId;
  /**
   * Adds agents, all or nothing: every entry is checked first (the error names it,
   * 'agents[2].feet'), then they are added in order and those with a goal are sent there.
   * Returns their ids, in order.
   */
  addAgents(agents: ReadonlyArray<{ profile: ProfileId; feet: Vec3Like; goal?: Vec3Like }>): AgentId[];
  removeAgent(agent: AgentId): void;
  setAgentGoal(agent: AgentId, goal: Vec3Like): void;
  /** Sends agents to goals, all or nothing (each agent live and given once; 'goals[1].agent'). */
  setAgentGoals(goals: ReadonlyArray<{ agent: AgentId; goal: Vec3Like }>): void;
  agentState(agent: AgentId): AgentState;
  /** Why a blocked or failed agent is so ('' otherwise). */
  agentReason(agent: AgentId): string;
  agentCorridor(agent: AgentId): AgentCorridor;
  /** With `yaw` (an integer binary angle 0 .. 65535) the agent's facing is set too. */
  teleportAgent(agent: AgentId, feet: Vec3Like, yaw?: number): void;
  /** Teleports agents, all or nothing (each agent live and given once; 'agents[1].feet'). */
  teleportAgents(moves: ReadonlyArray<{ agent: AgentId; feet: Vec3Like }>): void;
  agentsSnapshot(): AgentsSnapshot;
  /** The agent brakes and idles where it stands, its order and corridor dropped. */
  stopAgent(agent: AgentId): void;
  /** Cruise at the profile's sprint speed (true) or walk speed (false) from the next tick. */
  setAgentSprint(agent: AgentId, sprint: boolean): void;
  /** A velocity change, m/s (each component within LIMITS.maxKnock), taken at the agent's next step. */
  knockAgent(agent: AgentId, impulse: Vec3Like): void;
  /** Knocks agents, all or nothing ('knocks[1].impulse'). */
  knockAgents(knocks: ReadonlyArray<{ agent: AgentId; impulse: Vec3Like }>): void;
  /** Chase another agent until within `range` metres (default 1.5; LIMITS.minChaseRange .. maxChaseRange). */
  chaseAgent(agent: AgentId, target: AgentId, range?: number): void;
  /** Chase a host entity until within `range` metres. */
  chaseEntity(agent: AgentId, target: EntityId, range?: number): void;
  /** Flee to the cheapest cell at least `distance` cells (1 .. LIMITS.maxFleeDistance) from `from`. */
  fleeFrom(agent: AgentId, from: Vec3Like, distance: number): void;
  /** Follow the corridor of a ready request from the agent's cell (one of its path cells). */
  followPath(agent: AgentId, path: PathHandle): void;
  agentLocomotion(agent: AgentId): AgentLocomotion;
  /** The corridor waypoints within `length` metres of path ahead (0 .. LIMITS.maxLookahead). */
  agentLookahead(agent: AgentId, length: number): Corridor;
  /** Adds a host entity at `position` (metres) for agents to chase. */
  addEntity(position: Vec3Like): EntityId;
  setEntityPosition(entity: EntityId, position: Vec3Like): void;
  entityPosition(entity: EntityId): [number, number, number];
  /** Its chasers stop ('failed') at their next step. */
  removeEntity(entity: EntityId): void;

  /**
   * Opens (open = true) or closes a door: the cell and the run straight above and below it of the
   * same door block in the same state (both halves of a two-high door) take the registry's toggled
   * value; navigation sees it at the next update() / tick(). Nothing changes when the door already
   * is in that state. Throws (nothing changes) InvalidArgument (not integer cells, open not a
   * boolean), OutOfRange, NotLoaded, NotFound (no door in the cell), Unsupported (no toggled state).
   */
  setDoorOpen(cell: Vec3Like, open: boolean): void;
  /**
   * The DoorAhead events raised since the last call (and clears them). An agent whose corridor
   * enters a closed door stops within 1 + width / 2 cells of it, raises one event and holds until
   * the door opens; after 40 ticks it avoids that door for 600 ticks and plans again (another way,
   * or holds again and then is 'blocked' with a reason). At most 4096 events wait.
   */
  takeDoorEvents(): DoorEvents;
  /** Events waiting for takeDoorEvents(). */
  readonly pendingDoorEvents: number;
  /** Navigation tick: update() calls so far (tick() makes one). */
  readonly navTick: number;

  /**
   * Turns chunk streaming on or off (off by default). When on, a chunk loaded after the first
   * update() has its navigation built on the executor (the pthread of the threaded build, at
   * dispatch in the sync build) and installed two updates later (tick() makes one update) if it is
   * still the one loaded. Until then its cells answer reachable() 'unknown' (reason 'not_loaded'),
   * isStandable() false, and no corridor enters it. Loading more than 48 chunks in one update
   * builds them at once (unless a build radius is set). Chunks loaded before the first update are
   * built by it. Throws InvalidArgument (nothing changes) when `on` is not a boolean.
   */
  setChunkStreaming(on: boolean): void;
  /** Whether chunk streaming is on. */
  chunkStreaming(): boolean;
  /** Chunk builds dispatched or waiting to be dispatched, summed over the movement classes (0 without streaming). */
  pendingChunkBuilds(): number;
  /**
   * Build radius of chunk streaming, in chunks: with streaming on and `chunks` > 0, a chunk loaded
   * after the first update() is built only once it is within `chunks` chunks (Chebyshev distance in
   * chunk coordinates, y included) of the chunk holding a live agent's feet; until then it is
   * deferred (loaded, not built: 'unknown' / 'not_loaded', no corridor enters it). Every update()
   * dispatches the deferred chunks an agent came near. A built chunk stays built until unloaded.
   * With a radius every load is streamed. 0 (the default) builds every loaded chunk; without
   * streaming the radius has no effect. Applies to every movement class. Throws InvalidArgument
   * (nothing changes, the message names `chunks` and the range) unless an integer in 0 .. 32.
   */
  setChunkBuildRadius(chunks: number): void;
  /** The build radius, in chunks (0 .. 32; 0: every loaded chunk is built). */
  chunkBuildRadius(): number;
  /** Loaded chunks whose build is deferred (no agent within the radius), summed over the movement classes. */
  deferredChunkBuilds(): number;
  /**
   * Search budget, in searches per update: at most `searches` path searches are dispatched per
   * update() (tick() makes one) and movement class, the oldest requests first; the rest stay
   * queued (status 'searching', agents 'planning') and give the same results as without a budget.
   * Local corridor repairs and findPathNow() are not counted. 0 (the default): no limit. Throws
   * InvalidArgument (nothing changes, the message names `searches` and the range) unless an
   * integer in 0 .. 4096.
   */
  setSearchesPerUpdate(searches: number): void;
  /** The search budget, in searches per update and movement class (0: no limit). */
  searchesPerUpdate(): number;
  /** Path requests (agents' included) waiting to be dispatched, summed over the movement classes. */
  queuedRequests(): number;

  /** One simulation tick of dt seconds (0 < dt <= 1, default 0.05). */
  tick(dt?: number): void;
  stats(): WorldStats;
  /** Wall time of every search applied so far, microseconds. */
  searchTimesUs(): Float64Array;

  /**
   * FNV-1a 64 (16 hex digits) of every live agent's feet, velocity, mode, counters and corridor
   * waypoints, in the order the agents were added: equal hashes mean the same positions and
   * corridors to the last bit. `voxnav run --script` prints the native one.
   */
  stateHash(): string;
  /**
   * The highest non-air block of each column of the box min .. max (inclusive), looking at
   * y = min.y .. max.y only. InvalidArgument past 4194304 columns, 4096 cells of y or 67108864
   * cells in all (columns x height: a 512 x 512 region 256 high), so one call takes well under a
   * second.
   */
  topBlocks(min: Vec3Like, max: Vec3Like): TopBlocks;
  /** The body of a profile (its width, height, step height, jump velocity, climb speed). */
  profileBody(profile: ProfileId): Required<BodyParams>;
  /**
   * One movement step (the integrator agents use) for a body you own, against this world's
   * blocks: gravity, swept box collision, step-up, jumps, climbing. Cells of unloaded chunks
   * collide as full blocks. `params` is a profile id or body fields; dt in seconds, (0, 1]
   * (default 0.05). Returns the new state (which may be passed back as `state`); the arguments
   * are not changed. Throws InvalidArgument for a non-finite number, an unknown field of state,
   * input or params, a profile id not of this world, a bad dt; OutOfRange for feet outside the
   * cell range.
   */
  stepBody(state: BodyState | StepResult, input?: BodyInput, params?: ProfileId | BodyParams, dt?: number): StepResult;
  /**
   * How a body (a profile id or body fields, as stepBody takes) runs a gap jump over `cells`
   * (1 .. 8) cells of open air, as the agents' follower does: the run speed (m/s, between
   * walkSpeed and sprintSpeed) whose flight lands on the landing cell's centre, and the
   * horizontal distance (cells) to that centre at which it takes off. Throws InvalidArgument for
   * bad cells, speeds or body fields.
   */
  gapJumpRun(params: ProfileId | BodyParams, cells: number, walkSpeed: number, sprintSpeed: number): { speed: number; takeOff: number };
}

/** One loaded instance of the library. */
export interface Voxnav {
  readonly build: BuildName;
  /** The Emscripten module (low-level bindings; not a stable API). */
  readonly module: unknown;
  readonly version: string;
  readonly VoxnavError: typeof VoxnavError;
  readonly World: typeof World;
  readonly EDGE_KINDS: readonly EdgeKindName[];
  readonly AGENT_MODES: readonly AgentModeName[];
  /** The limits of this instance's C++ API. */
  readonly LIMITS: Limits;
  /** A World of this instance. */
  createWorld(options?: Omit<WorldOptions, 'voxnav'>): World;
}

export const version: string;
/** Whether this context can run the threaded build (SharedArrayBuffer, cross-origin isolated). */
export function threadsAvailable(): boolean;
/**
 * Loads the default instance (the one `new World()` uses); later calls return the same promise
 * (a failed init may be retried). A later call asking for another build rejects (Busy, naming the
 * build loaded): use load() for that.
 */
export function init(options?: InitOptions): Promise<Voxnav>;
/**
 * Resolves with the default instance once init() has loaded it; never rejects (a failed init()
 * leaves it pending for a retry).
 */
export const ready: Promise<Voxnav>;
/** Loads a new, independent instance (e.g. the other build). */
export function load(options?: InitOptions): Promise<Voxnav>;
