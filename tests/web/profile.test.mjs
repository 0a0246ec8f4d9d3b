// Profiles through the npm package: addProfile parses the full profile (malus, surface_malus,
// avoidance, knockback) and rejects a bad one with a VoxnavError naming the source, the profile and
// the field. The example profiles (examples/profiles) load.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const examples = path.join(h.repoRoot, 'examples/profiles');

describe('profiles as data', { skip }, () => {
  let pkg, lib, world;
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
    world = lib.createWorld();
    // Surface malus names are checked against the world's block registry when a profile is added.
    const { blocks, shapes } = h.registryFiles();
    world.loadMinecraftBlocks(blocks, shapes);
  });
  after(() => world && world.dispose());

  function rejects(fn, status, re) {
    assert.throws(fn, (e) => {
      assert.ok(e instanceof pkg.VoxnavError, `not a VoxnavError: ${e}`);
      assert.equal(e.status, status, e.message);
      assert.match(e.message, re);
      return true;
    });
    assert.equal(world.lastProfileWarning, '', 'a failed addProfile clears the warning');
  }

  test('a malus of an unknown path type is rejected naming the field', () => {
    rejects(() => world.addProfile({ id: 'boar', malus: { lava: 4 } }, 'boar.json'), 'BadFormat',
      /^addProfile: boar\.json: profile "boar": field "malus\.lava": unknown path type/);
    assert.throws(() => world.findProfile('boar'), (e) => e.status === 'NotFound');
  });

  test('bad malus, surface, avoidance and knockback values name their field', () => {
    rejects(() => world.addProfile({ id: 'b', malus: { slow: 'high' } }), 'BadFormat', /field "malus\.slow": must be an integer 0\.\.1000 or "impassable"/);
    rejects(() => world.addProfile({ id: 'b', malus: { walkable: 'impassable' } }), 'InvalidArgument', /field "malus\.walkable"/);
    rejects(() => world.addProfile({ id: 'b', surface_malus: [{ blocks: ['sand', 'minecraft:sand'], cost: 1 }] }),
      'InvalidArgument', /field "surface_malus\[0\]\.blocks\[1\]": "sand" is already listed/);
    rejects(() => world.addProfile({ id: 'b', surface_malus: [{ blocks: ['road'], cost: -1 }] }), 'InvalidArgument',
      /field "surface_malus\[0\]\.cost"/);
    rejects(() => world.addProfile({ id: 'b', avoidance: { max_neighbours: 40 } }), 'InvalidArgument',
      /field "avoidance\.max_neighbours"/);
    rejects(() => world.addProfile({ id: 'b', knockback: { resistance: 2 } }), 'InvalidArgument',
      /field "knockback\.resistance"/);
    rejects(() => world.addProfile({ id: 'b', can_swim: true }), 'InvalidArgument', /field "speed\.swim"/);
  });

  test('a surface block the world does not know is refused when the profile is added', () => {
    rejects(() => world.addProfile({ id: 'c', surface_malus: [{ blocks: ['gravel', 'no_such_block'], cost: 1 }] }),
      'InvalidArgument', /field "surface_malus\[0\]\.blocks\[1\]": unknown block name "no_such_block"/);
    assert.throws(() => world.findProfile('c'));
  });

  test('a profile with every new field loads; a restricting malus warns naming it', () => {
    const id = world.addProfile({
      id: 'guard',
      can_open_doors: true,
      malus: { door_closed: 2, danger_fire: 'impassable' },
      surface_malus: [{ blocks: ['dirt_path'], cost: -0.5 }],
      avoidance: { enabled: true, radius: 0.4, time_horizon: 2, max_neighbours: 12 },
      knockback: { resistance: 0.5 },
    });
    assert.equal(world.findProfile('guard'), id);
    assert.match(world.lastProfileWarning, /restricts its class \(field "malus\.danger_fire": impassable\)/);
  });

  test('the example walker profiles load with their file name as the source', () => {
    for (const file of ['boar.json', 'guard.json']) {
      const text = fs.readFileSync(path.join(examples, file), 'utf8');
      const id = world.addProfile(text, file);
      assert.equal(world.lastProfileWarning, '', file);
      assert.equal(world.findProfile(JSON.parse(text).id), id);
    }
  });
});
