// voxnav server worker - types of the pure message handlers (hand-written; checked with tsc --strict).
import type {
  AgentId, AgentState, AnvilLoadReport, AreaFilter, AreaIndex, BuildName, CellFilter, DoorEvents, InitOptions, PathHandle, PathStatus, ProfileId, ProfileJson,
  Reach, RegionLoadReport, SpawnCells, TopBlocks, Vec3Like, Voxnav, World, WorldStats,
} from '../index.js';

export type ProfileRef = ProfileId | string;

export type Edit =
  | { cell: Vec3Like; value: number }
  | { min: Vec3Like; max: Vec3Like; value: number };

/** Messages the worker accepts. Every message has an id, echoed by its reply. */
export type Request =
  | ({ id: MessageId; type: 'init'; lockstepDelay?: number; blocksJson?: string | Uint8Array; shapesJson?: string | Uint8Array } & InitOptions)
  | { id: MessageId; type: 'loadBlocks'; blocksJson: string | Uint8Array; shapesJson: string | Uint8Array }
  | { id: MessageId; type: 'blockValues'; names: string[] }
  | { id: MessageId; type: 'addProfile'; profile: string | ProfileJson; source?: string }
  | { id: MessageId; type: 'defineArea'; name: string; blocks: readonly string[]; cost: number }
  | { id: MessageId; type: 'findArea'; name: string }
  | { id: MessageId; type: 'loadRegion'; bytes: Uint8Array | ArrayBuffer; skipEmptyProtoChunks?: boolean; fullChunksOnly?: boolean }
  | { id: MessageId; type: 'loadChunks'; positions: Int32Array; values: Uint16Array }
  | { id: MessageId; type: 'unloadChunks'; positions: Int32Array }
  | ({ id: MessageId; type: 'edit' } & ({ edits: Edit[] } | Edit))
  | { id: MessageId; type: 'setDoorOpen'; cell: Vec3Like; open: boolean }
  | { id: MessageId; type: 'addAgents'; agents: { profile: ProfileRef; feet: Vec3Like; goal?: Vec3Like }[] }
  | { id: MessageId; type: 'removeAgents'; ids: AgentId[] }
  | { id: MessageId; type: 'setGoals'; goals: { agent: AgentId; goal: Vec3Like }[] }
  | { id: MessageId; type: 'teleportAgents'; agents: { agent: AgentId; feet: Vec3Like }[] }
  | { id: MessageId; type: 'knockAgents'; knocks: { agent: AgentId; impulse: Vec3Like }[] }
  | { id: MessageId; type: 'stopAgent'; agent: AgentId }
  | { id: MessageId; type: 'chaseAgent'; agent: AgentId; target: AgentId; range?: number }
  | { id: MessageId; type: 'fleeFrom'; agent: AgentId; from: Vec3Like; distance: number }
  | { id: MessageId; type: 'agentState'; agent: AgentId }
  | { id: MessageId; type: 'reachable'; profile: ProfileRef; from: Vec3Like; goal: Vec3Like }
  | { id: MessageId; type: 'lineWalkable'; profile: ProfileRef; from: Vec3Like; to: Vec3Like }
  | { id: MessageId; type: 'lineFlyable'; profile: ProfileRef; from: Vec3Like; to: Vec3Like }
  | { id: MessageId; type: 'estimateTravel'; profile: ProfileRef; from: Vec3Like; to: Vec3Like }
  | { id: MessageId; type: 'findSpawnCells'; profile: ProfileRef; min: Vec3Like; max: Vec3Like; filter?: Omit<CellFilter, 'reject'>; seed?: number; maxCells?: number }
  | { id: MessageId; type: 'request'; profile: ProfileRef; start: Vec3Like; goal: Vec3Like; range?: number; toward?: boolean; filter?: AreaFilter; wait?: boolean }
  | { id: MessageId; type: 'release'; handle: PathHandle }
  | { id: MessageId; type: 'tick'; dt?: number; count?: number }
  | { id: MessageId; type: 'stats' }
  | { id: MessageId; type: 'topBlocks'; min: Vec3Like; max: Vec3Like }
  | { id: MessageId; type: 'stateHash' }
  | { id: MessageId; type: 'settings'; chunkStreaming?: boolean; chunkBuildRadius?: number; searchesPerUpdate?: number }
  | { id: MessageId; type: 'dispose' };

export type MessageId = number | string;
export type MessageType = Request['type'];
export const MESSAGE_TYPES: readonly MessageType[];

/** A finished path request posted by a tick (its handle is released). */
export interface PathResult extends PathStatus {
  handle: PathHandle;
  /** Present when state is 'ready': x, y, z per waypoint (metres, exact at any distance). */
  waypoints?: Float64Array;
  kinds?: Uint8Array;
}

/**
 * The reply of request with wait: true (World.findPathNow: searched at once, no handle, navigation
 * time does not advance).
 */
export interface PathNowResult extends PathStatus {
  /** Present when state is 'ready': x, y, z per waypoint. */
  waypoints?: Float64Array;
  kinds?: Uint8Array;
}

/** Posted after every tick message, before its reply. Typed arrays are transferred. */
export interface TickPost {
  type: 'tick';
  tick: number;
  navEpoch: number;
  /** Every live agent in the order added: ids, feet x, y, z, AGENT_MODES index. */
  agents: { ids: Float64Array; positions: Float64Array; modes: Uint8Array };
  /** Corridors whose epoch changed since the last post (x, y, z per waypoint; EDGE_KINDS index). */
  corridors: { agent: AgentId; epoch: number; waypoints: Float64Array; kinds: Uint8Array }[];
  /** Agents removed since the last post. */
  removed: AgentId[];
  /** Requests (sent without wait) that finished; their handles are released. */
  paths: PathResult[];
  /**
   * The DoorAhead events the ticks raised, oldest first (taken from the world by the worker: the
   * page answers them with setDoorOpen messages). count 0 when none.
   */
  doorEvents: DoorEvents;
}

export interface Results {
  init: { build: BuildName; threaded: boolean; blockCount: number };
  loadBlocks: { blockCount: number };
  blockValues: { values: number[] };
  addProfile: { profile: ProfileId; warning: string };
  /** The index of the area defined (requests name areas in their filter, never index them). */
  defineArea: { area: AreaIndex };
  findArea: { area: AreaIndex };
  /**
   * `updated`: navigation was brought up to date before the reply (only while the world has no
   * agents and no pending requests; otherwise the next tick processes the chunks).
   */
  loadRegion: RegionLoadReport & { navEpoch: number; updated: boolean };
  loadChunks: { chunks: number; navEpoch: number; updated: boolean };
  unloadChunks: { chunks: number; navEpoch: number; updated: boolean };
  edit: { applied: number };
  /** `changed`: false when the door already was in that state. */
  setDoorOpen: { changed: boolean };
  addAgents: { ids: AgentId[] };
  removeAgents: { removed: number };
  setGoals: { set: number };
  teleportAgents: { moved: number };
  knockAgents: { knocked: number };
  stopAgent: Record<string, never>;
  chaseAgent: Record<string, never>;
  fleeFrom: Record<string, never>;
  agentState: AgentState & { reason: string };
  reachable: Reach;
  lineWalkable: { walkable: boolean };
  lineFlyable: { flyable: boolean };
  /** Seconds, a lower bound (Infinity when unreachable). */
  estimateTravel: { seconds: number };
  findSpawnCells: SpawnCells;
  request: { handle: PathHandle } | PathNowResult;
  release: Record<string, never>;
  tick: { tick: number; tickMs: number; corridors: number; doorEvents: number };
  stats: WorldStats & {
    threaded: boolean; ticks: number; lastTickMs: number; meanTickMs: number; searchUsP50: number;
    searchUsP99: number; navEpoch: number; pendingRequests: number;
  };
  /** The highest non-air block of each column (see World.topBlocks). */
  topBlocks: TopBlocks;
  /** World.stateHash() (16 hex digits), the number of agents, and the ticks run. */
  stateHash: { hash: string; agents: number; tick: number };
  /** The settings after the message (chunk streaming, build radius in chunks, searches per update) and the counts they drive. */
  settings: {
    chunkStreaming: boolean; chunkBuildRadius: number; searchesPerUpdate: number;
    pendingChunkBuilds: number; deferredChunkBuilds: number; queuedRequests: number;
  };
  dispose: Record<string, never>;
}

/**
 * A failed message: `status` is a VoxnavError status; `message` starts with the message type and
 * names the field ("removeAgents: ids[1]: agent 2097153 is not a live agent ...",
 * "addAgents: agents[1].feet (NaN, 0, 0) is not finite"). Batch messages (edit, addAgents,
 * removeAgents, setGoals, teleportAgents) check every entry first: on error nothing changed.
 */
export interface ErrorInfo {
  status: string;
  message: string;
  /** The message type that failed ('' for a message without a known type). */
  function: string;
  /** The message field at fault ('edits[1].cell', 'agents[0].feet', ...; '' when no single field is). */
  argument: string;
}

export type Reply<T extends MessageType = MessageType> =
  | { id: MessageId; ok: Results[T]; error?: undefined }
  | { id: MessageId | null; error: ErrorInfo; ok?: undefined };

/** The worker's state: owns the library and the World (never .delete() anything yourself). */
export interface WorkerState {
  lib: Voxnav | null;
  world: World | null;
  ticks: number;
  lastTickMs: number;
  tickMsTotal: number;
  posted: Map<AgentId, number>;
  pending: PathHandle[];
}

export function createState(): WorkerState;
/** Handles one message; never rejects. Handle messages one at a time, in order. */
export function handle<M extends Request>(state: WorkerState, msg: M): Promise<{ reply: Reply<M['type']>; posts: TickPost[] }>;
/** The ArrayBuffers of the typed arrays in a message (the postMessage transfer list). */
export function transferList(message: unknown): ArrayBuffer[];
