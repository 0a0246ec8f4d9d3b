// Handles of different kinds do not mix (issue 17): compiled with tsc --strict by
// tests/web/pack.test.mjs. Each @ts-expect-error line must be an error; if a mix ever compiles,
// tsc reports the unused directive and the test fails.
import { World } from 'voxnav';
import type { AgentId, EntityId, PathHandle, ProfileId } from 'voxnav';

export function mixes(world: World): void {
  const profile: ProfileId = world.addProfile({ id: 'walker', class: 'walker' });
  const agent: AgentId = world.addAgent(profile, [0.5, 1, 0.5]);
  const path: PathHandle = world.request(profile, [0, 1, 0], [5, 1, 5]);
  // @ts-expect-error a path handle is not an agent id
  world.removeAgent(path);
  // @ts-expect-error an agent id is not a path handle
  world.release(agent);
  // @ts-expect-error an agent id is not a profile id
  world.addAgent(agent, [0.5, 1, 0.5]);
  // @ts-expect-error a profile id is not a path handle
  world.status(profile);
  // @ts-expect-error a plain number is no handle
  world.agentState(3);
  // @ts-expect-error a handle of one kind is not assignable to another
  const wrong: AgentId = path;
  void wrong;
  // The same kind passes, and a handle is still a number.
  world.removeAgent(agent);
  world.release(path);
  const n: number = agent + path + profile;
  void n;
  const fromSnapshot = world.agentsSnapshot().ids[0] as AgentId;
  world.agentState(fromSnapshot);

}

// Entity ids (issue 20) mix with no other kind.
export function entityMixes(world: World, agent: AgentId, path: PathHandle): void {
  const entity: EntityId = world.addEntity([0.5, 1, 0.5]);
  // @ts-expect-error an entity id is not an agent id
  world.removeAgent(entity);
  // @ts-expect-error an agent id is not an entity id
  world.removeEntity(agent);
  // @ts-expect-error a path handle is not an entity id
  world.chaseEntity(agent, path);
  // @ts-expect-error an entity is not an agent target
  world.chaseAgent(agent, entity);
  // @ts-expect-error a plain number is no entity id
  world.entityPosition(3);
  world.chaseEntity(agent, entity, 2);
  world.followPath(agent, path);
  const spawn = world.findSpawnCells(world.findProfile('walker'), [0, 0, 0], [8, 8, 8], {
    minHeadroom: 1, reach: 'from', reachCell: [0, 1, 0], reject: (c) => c[0] === 3,
  }, 7, 4);
  const n: number = spawn.count + spawn.cells[0]! + world.agentLocomotion(agent).yaw;
  void n;
  world.removeEntity(entity);
}
