// Handles of different kinds do not mix (issue 17): compiled with tsc --strict by
// tests/web/pack.test.mjs. Each @ts-expect-error line must be an error; if a mix ever compiles,
// tsc reports the unused directive and the test fails.
import { World } from 'voxnav';
import type { AgentId, PathHandle, ProfileId } from 'voxnav';

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
