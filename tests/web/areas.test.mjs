// Named areas and per-request area filters through the npm package, on the shipped 1.16 region
// (data/worlds/r.0.-1.mca): a gravel road laid along a detour (as tests/areas/surfaces_native_test.cpp
// does natively) and defined as an area with a negative cost is taken by the default filter and
// never entered by a filter that excludes it; a multiplier changes the cost (0: the cost before the
// road); request() and findPathNow() read the filter alike; filters name areas, never index them;
// bad areas and bad filters throw VoxnavError naming the problem, and change nothing. The binding
// under the JS wrapper checks its filter argument too.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as h from './helpers.mjs';

const skip = h.skipReason;
const region116 = path.join(h.repoRoot, 'data/worlds/r.0.-1.mca');

// SplitMix32-style generator: the same pairs on every run.
function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z % n;
  };
}

const key = (c) => c.join(',');

/** A request's search cells ([x, y, z] each) and status, through request() + pathCells(). */
function route(world, profile, a, b, options) {
  const hd = world.request(profile, a, b, options);
  const st = h.settle(world, hd);
  const cells = [];
  if (st.state === 'ready') {
    const pc = world.pathCells(hd).cells;
    for (let i = 0; i < pc.length; i += 3) cells.push([pc[i], pc[i + 1], pc[i + 2]]);
  }
  world.release(hd);
  return { ...st, cells };
}
const ready = (r) => r.state === 'ready' && !r.partial;

describe('named areas and area filters', { skip }, () => {
  let pkg, lib;
  const worlds = [];
  before(async () => {
    pkg = await h.importPackage();
    lib = await pkg.load({ build: 'sync' });
  });
  after(() => worlds.forEach((w) => w.dispose()));

  const isVoxnav = (status, re) => (e) => {
    assert.ok(e instanceof pkg.VoxnavError, `${e}`);
    assert.equal(e.status, status, e.message);
    assert.match(e.message, re);
    return true;
  };

  /**
   * The region, a walker, and a gravel road under a detour between two standable cells a and b
   * 24 - 40 cells apart: the walker's route from a to `via` (8 cells beside the middle of its
   * route a -> b) and on to b, where the ground is a plain full block and the cell above it air
   * (so the geometry does not change), leaving the first and last 3 cells.
   */
  let scene = null;
  async function roadScene() {
    if (scene) return scene;
    const world = lib.createWorld();
    worlds.push(world);
    const { blocks, shapes } = h.registryFiles();
    world.loadMinecraftBlocks(blocks, shapes);
    const report = await world.loadRegion(fs.readFileSync(region116));
    world.update();
    const walker = world.addProfile({ id: 'walker' });
    const value = (s) => world.blockValue(s);
    const plain = new Set(['grass_block', 'dirt', 'coarse_dirt', 'podzol', 'stone', 'andesite', 'granite', 'diorite', 'sand']
      .map(value));
    const open = new Set(['air', 'cave_air'].map(value));
    const gravel = value('gravel');
    const [x0, , z0] = report.min, [x1, , z1] = report.max;
    const tops = world.topBlocks([x0, 0, z0], [x1, 255, z1]);
    const w = tops.width, d = z1 - z0 + 1;
    const surface = [];  // standable cells on top of the columns
    for (let z = 0; z < d; ++z) {
      for (let x = 0; x < w; ++x) {
        const y = tops.heights[x + w * z];
        if (y < 0 || y > 250) continue;
        const c = [x0 + x, y + 1, z0 + z];
        if (world.isStandable(walker, c)) surface.push(c);
      }
    }
    const next = rng(0x20ad);
    for (let attempt = 0; attempt < 400; ++attempt) {
      const a = surface[next(surface.length)], b = surface[next(surface.length)];
      const dx = b[0] - a[0], dz = b[2] - a[2];
      const dist = Math.max(Math.abs(dx), Math.abs(dz));
      if (dist < 24 || dist > 40) continue;
      const p0 = route(world, walker, a, b);
      if (!ready(p0)) continue;
      const mid = p0.cells[p0.cells.length >> 1];
      const len = Math.hypot(dx, dz);
      const sx = Math.round(-dz / len * 8), sz = Math.round(dx / len * 8);
      let via = null;
      for (let dy = 4; dy >= -4 && !via; --dy) {
        const c = [mid[0] + sx, mid[1] + dy, mid[2] + sz];
        if (world.isStandable(walker, c)) via = c;
      }
      if (!via) continue;
      const p1 = route(world, walker, a, via), p2 = route(world, walker, via, b);
      if (!ready(p1) || !ready(p2)) continue;
      const detour = [...p1.cells, ...p2.cells.slice(1)];
      if (detour.length > p0.cells.length * 1.6) continue;
      const straight = new Set(p0.cells.map(key));
      if (detour.filter((c) => straight.has(key(c))).length * 2 > detour.length) continue;
      const road = [];
      for (let i = 3; i + 3 < detour.length; ++i) {
        const c = detour[i], under = [c[0], c[1] - 1, c[2]];
        if (plain.has(world.getBlock(under)) && open.has(world.getBlock(c))) road.push(under);
      }
      if (road.length * 10 < (detour.length - 6) * 8) continue;  // most of it
      for (const u of road) world.setBlock(u, gravel);
      world.update();
      scene = { world, walker, a, b, road, before: p0, gravel, attempt };
      return scene;
    }
    assert.fail('no detour for a road found on the region');
  }

  /** The road's area ("road": gravel, -0.5 cells per move), defined on first use. */
  function roadArea(s) {
    if (s.area === undefined) s.area = s.world.defineArea('road', ['minecraft:gravel'], -0.5);
    return s.area;
  }

  /** Fraction of a route's cells (after the first) that stand on gravel. */
  function onGravel(s, cells) {
    let on = 0;
    for (let i = 1; i < cells.length; ++i) {
      const c = cells[i];
      if (s.world.getBlock([c[0], c[1] - 1, c[2]]) === s.gravel || s.world.getBlock(c) === s.gravel) ++on;
    }
    return cells.length > 1 ? on / (cells.length - 1) : 0;
  }

  test('the default filter takes the road, one excluding the area never stands on it', async (t) => {
    const s = await roadScene();
    const { world, walker, a, b } = s;
    // Before the area is defined gravel is ground like any other: the route is the one before the road.
    const plainRoute = route(world, walker, a, b);
    assert.equal(plainRoute.cost, s.before.cost);
    const road = roadArea(s);
    assert.equal(road, 0);
    assert.equal(world.findArea('road'), road);

    const taken = route(world, walker, a, b);
    const avoided = route(world, walker, a, b, { filter: { road: { exclude: true } } });
    assert.ok(ready(taken) && ready(avoided), JSON.stringify([taken.state, avoided.state]));
    const fTaken = onGravel(s, taken.cells), fAvoided = onGravel(s, avoided.cells);
    t.diagnostic(`road of ${s.road.length} cells (attempt ${s.attempt}): before ${s.before.cells.length} cells, cost ` +
      `${s.before.cost}; default filter ${taken.cells.length} cells, ${Math.round(100 * fTaken)} % on gravel, cost ` +
      `${taken.cost}; road excluded ${avoided.cells.length} cells, cost ${avoided.cost}`);
    assert.ok(fTaken >= 0.6, `the default route is ${fTaken} on gravel`);
    assert.equal(fAvoided, 0, 'the route excluding the road stands on gravel');
    for (const c of avoided.cells) assert.notEqual(world.getBlock([c[0], c[1] - 1, c[2]]), s.gravel, key(c));
    assert.notDeepEqual(avoided.cells, taken.cells);
    assert.ok(taken.cost < s.before.cost, 'the road makes the route cheaper');
    // Excluding cells only takes moves away: never cheaper than the route before the road.
    assert.ok(avoided.cost >= s.before.cost && avoided.cost > taken.cost);
    assert.deepEqual(avoided.cells[0], a);
    assert.deepEqual(avoided.cells.at(-1), b);

    // findPathNow reads the filter as request() does.
    const nowTaken = world.findPathNow(walker, a, b);
    const nowAvoided = world.findPathNow(walker, a, b, { filter: { road: { exclude: true } } });
    assert.equal(nowTaken.cost, taken.cost);
    assert.equal(nowAvoided.cost, avoided.cost);
    assert.equal(nowAvoided.cellCount, avoided.cells.length);
    // So does requestToward, and exclude: false / multiplier 1 is the default.
    const hd = world.requestToward(walker, a, b, { filter: { road: { exclude: false, multiplier: 1 } } });
    assert.equal(h.settle(world, hd).cost, taken.cost);
    world.release(hd);
  });

  test('a multiplier scales the area cost; 0 reads the road as plain ground', async (t) => {
    const s = await roadScene();
    const { world, walker, a, b } = s;
    roadArea(s);
    const cost = (m) => world.findPathNow(walker, a, b, m === undefined ? {} : { filter: { road: { multiplier: m } } }).cost;
    const c1 = cost(), c0 = cost(0), cHalf = cost(0.5), c2 = cost(2);
    t.diagnostic(`costs: multiplier 0: ${c0}, 0.5: ${cHalf}, 1 (default): ${c1}, 2: ${c2}`);
    assert.equal(c0, s.before.cost, 'multiplier 0: the cost before the road');
    assert.equal(cost(1), c1);
    assert.ok(c1 < cHalf && cHalf < c0, 'half the road bonus: between none and all of it');
    assert.ok(c2 < c1, 'twice the road bonus: cheaper still');
    // The same multiplier through request().
    assert.equal(route(world, walker, a, b, { filter: { road: { multiplier: 0.5 } } }).cost, cHalf);
  });

  test('bad areas and bad filters throw VoxnavError naming the problem, and change nothing', async () => {
    const s = await roadScene();
    const { world, walker, a, b } = s;
    const road = roadArea(s);
    assert.equal(world.findArea('road'), road);
    const cost = world.findPathNow(walker, a, b).cost;
    const searches = world.stats().searches;

    // defineArea
    assert.throws(() => world.defineArea('road', ['stone'], 1), isVoxnav('InvalidArgument', /^defineArea: area "road": already defined/));
    assert.throws(() => world.defineArea('mud', ['minecraft:no_such_block'], 2),
      isVoxnav('InvalidArgument', /^defineArea: area "mud": blocks\[0\]: unknown block name "minecraft:no_such_block"/));
    assert.throws(() => world.defineArea('mud', ['dirt', 'mud_pie'], 2), isVoxnav('InvalidArgument', /blocks\[1\]: unknown block name "mud_pie"/));
    for (const c of [-0.7, 1000.5, NaN, Infinity])
      assert.throws(() => world.defineArea('mud', ['dirt'], c), isVoxnav('InvalidArgument', new RegExp(`area "mud": cost ${c} is not a number of cells in -0.6 .. 1000`)));
    assert.throws(() => world.defineArea('mud', ['dirt'], '2'), isVoxnav('InvalidArgument', /area "mud": cost must be a number \(got string\)/));
    assert.throws(() => world.defineArea('mud', [], 2), isVoxnav('InvalidArgument', /area "mud": blocks is empty/));
    assert.throws(() => world.defineArea('mud', 'dirt', 2), isVoxnav('InvalidArgument', /area "mud": blocks must be an array/));
    assert.throws(() => world.defineArea('mud', ['dirt', 7], 2), isVoxnav('InvalidArgument', /area "mud": blocks\[1\] is not a block name/));
    // eslint-disable-next-line no-sparse-arrays
    assert.throws(() => world.defineArea('mud', ['dirt', , 'sand'], 2), isVoxnav('InvalidArgument', /blocks\[1\] is not a block name/));
    assert.throws(() => world.defineArea('', ['dirt'], 2), isVoxnav('InvalidArgument', /^defineArea: area "": the name must have 1 to 64 bytes/));
    assert.throws(() => world.defineArea('x'.repeat(65), ['dirt'], 2), isVoxnav('InvalidArgument', /the name must have 1 to 64 bytes \(it has 65\)/));
    assert.throws(() => world.defineArea(3, ['dirt'], 2), isVoxnav('InvalidArgument', /^defineArea: name must be a string/));
    // findArea
    assert.throws(() => world.findArea('mud'), isVoxnav('NotFound', /^findArea: no area "mud" in this world/));
    assert.throws(() => world.findArea(0), isVoxnav('InvalidArgument', /^findArea: name must be a string/));

    // filters, for request and findPathNow alike
    const bad = [
      [{ lava_lake: { exclude: true } }, 'NotFound', /no area "lava_lake" in this world/],
      [{ road: { multiplier: 0.5 }, lava_lake: {} }, 'NotFound', /no area "lava_lake"/],
      [{ [String(road)]: { exclude: true } }, 'NotFound', /no area "0"/],  // by name, never by index
      [{ road: { multiplier: -1 } }, 'InvalidArgument', /area "road": multiplier -1 is not a number in 0 \.\. 1000/],
      [{ road: { multiplier: 1000.5 } }, 'InvalidArgument', /area "road": multiplier 1000.5 is not a number in 0 \.\. 1000/],
      [{ road: { multiplier: NaN } }, 'InvalidArgument', /area "road": multiplier NaN is not/],
      [{ road: { multiplier: Infinity } }, 'InvalidArgument', /area "road": multiplier Infinity is not/],
      [{ road: { multiplier: '2' } }, 'InvalidArgument', /area "road": multiplier must be a number \(got string\)/],
      [{ road: { exclude: 1 } }, 'InvalidArgument', /area "road": exclude must be a boolean \(got number\)/],
      [{ road: { multipler: 2 } }, 'InvalidArgument', /area "road": multipler is not a filter field \(multiplier, exclude\)/],
      [{ road: 0.5 }, 'InvalidArgument', /area "road" must be an object \{ multiplier\?, exclude\? \}/],
      [{ road: null }, 'InvalidArgument', /area "road" must be an object/],
      [[{ exclude: true }], 'InvalidArgument', /must be an object keyed by area name/],
      [new Map([['road', { exclude: true }]]), 'InvalidArgument', /must be an object keyed by area name.* \(got Map\)/],
      ['road', 'InvalidArgument', /must be an object keyed by area name/],
    ];
    for (const [filter, status, re] of bad) {
      assert.throws(() => world.findPathNow(walker, a, b, { filter }), isVoxnav(status, new RegExp(`^findPathNow: filter: ${re.source}`)), `${filter}`);
      assert.throws(() => world.request(walker, a, b, { filter }), isVoxnav(status, new RegExp(`^request: filter: ${re.source}`)));
      assert.throws(() => world.requestToward(walker, a, b, { filter }), isVoxnav(status, new RegExp(`^requestToward: filter: ${re.source}`)));
    }
    // A misspelt option is refused rather than ignored.
    assert.throws(() => world.findPathNow(walker, a, b, { filters: { road: { exclude: true } } }),
      isVoxnav('InvalidArgument', /^findPathNow: options.filters is not a request option \(range, toward, filter\)/));

    // Nothing changed: no request was made, the areas are as they were, the next area gets the
    // next index, routes cost what they did.
    assert.equal(world.stats().searches, searches);
    assert.equal(world.findArea('road'), road);
    assert.throws(() => world.findArea('mud'), isVoxnav('NotFound', /no area "mud"/));
    assert.equal(world.findPathNow(walker, a, b).cost, cost);
    assert.equal(world.findPathNow(walker, a, b, { filter: {} }).cost, cost);
    assert.equal(world.findPathNow(walker, a, b, { filter: null }).cost, cost);
    assert.equal(world.defineArea('mud', ['coarse_dirt'], 2), road + 1);
    assert.equal(world.findPathNow(walker, a, b, { filter: { road: {}, mud: { multiplier: 0 } } }).cost,
      world.findPathNow(walker, a, b, { filter: { mud: { multiplier: 0 } } }).cost);
  });

  test('32 areas at most; a filter reaches the last one', () => {
    const world = lib.createWorld();
    worlds.push(world);
    const { blocks, shapes } = h.registryFiles();
    world.loadMinecraftBlocks(blocks, shapes);
    const stone = world.blockValue('stone');
    const floor = new Uint16Array(4096);
    floor.fill(stone, 0, 256);
    world.loadChunk([0, 0, 0], floor);
    world.loadChunk([0, 1, 0], new Uint16Array(4096));
    const walker = world.addProfile({ id: 'walker' });
    world.update();
    // Area 31 is the stone floor: excluding it leaves no way.
    const names = ['dirt', 'sand', 'gravel', 'clay', 'mud', 'snow_block', 'ice', 'packed_ice', 'blue_ice', 'andesite',
      'granite', 'diorite', 'tuff', 'calcite', 'netherrack', 'end_stone', 'obsidian', 'basalt', 'blackstone', 'deepslate',
      'cobblestone', 'mossy_cobblestone', 'bricks', 'sandstone', 'red_sand', 'red_sandstone', 'terracotta', 'podzol',
      'mycelium', 'coarse_dirt', 'soul_soil', 'stone'];
    assert.equal(names.length, 32);
    names.forEach((n, i) => assert.equal(world.defineArea(`area_${n}`, [n], 1), i));
    assert.throws(() => world.defineArea('one_more', ['oak_planks'], 1), isVoxnav('InvalidArgument', /^defineArea: area "one_more": .*32 areas/));
    assert.throws(() => world.findArea('one_more'), isVoxnav('NotFound', /no area "one_more"/));
    const open = world.findPathNow(walker, [1, 1, 1], [9, 1, 9]);
    assert.equal(open.state, 'ready');
    const cheap = world.findPathNow(walker, [1, 1, 1], [9, 1, 9], { filter: { area_stone: { multiplier: 0 } } });
    assert.ok(cheap.state === 'ready' && cheap.cost < open.cost, `${cheap.cost} < ${open.cost}`);
    const shut = world.findPathNow(walker, [1, 1, 1], [9, 1, 9], { filter: { area_stone: { exclude: true }, area_dirt: { exclude: true } } });
    assert.equal(shut.state, 'failed');
  });

  test('the filter a binding converts is checked by C++ (under the JS wrapper), errors structured', () => {
    const core = new lib.module.WorldCore(0, false);
    try {
      const { blocks, shapes } = h.registryFiles();
      assert.equal(core.loadMinecraftBlocks(new Uint8Array(blocks), new Uint8Array(shapes)), 0);
      const walker = core.addProfile(JSON.stringify({ id: 'walker' }), '');
      assert.equal(core.findProfile('walker'), walker);
      assert.equal(core.defineArea('road', ['gravel'], -0.5), 0);
      // The wrapper resolves a filter to (excluded: a bit per area, multipliers: one per area).
      const [from, to] = [Float64Array.of(1, 1, 1), Float64Array.of(5, 1, 5)];
      const search = ([excluded, multipliers]) => core.findPathNow(walker, from, to, 0, false, excluded, multipliers);
      const none = new Float64Array(0);
      // lastError(): { status, function, argument, message } with the C++ call's names.
      const refused = (filter, re) => {
        assert.equal(search(filter), undefined, String(filter));
        const e = core.lastError();
        assert.equal(pkg.STATUS_NAMES[e.status], 'InvalidArgument');
        assert.equal(e.function, 'find_path_now');
        assert.equal(e.argument, 'filter');
        assert.match(e.message, re);
        assert.equal(core.request(walker, from, to, 0, false, ...filter), undefined);
        assert.equal(core.lastError().function, 'request');
        assert.match(core.lastError().message, re);
      };
      // Accepted: none, the area's own bit and multiplier.
      for (const f of [[0, none], [1, new Float64Array([0.5])]])
        assert.notEqual(search(f), undefined, core.lastError().message);
      refused([2, none], /^filter: excluded has bit 1 set, but this world has 1 area$/);
      refused([2 ** 32, none], /filter: excluded 4294967296 is not a 32-bit mask/);
      refused([0.5, none], /filter: excluded 0.5 is not a 32-bit mask/);
      refused([0, [1]], /filter: multipliers must be a Float64Array/);
      refused([0, new Float64Array(2)], /filter: multiplier\[1\] is set, but this world has 1 area/);
      refused([0, new Float64Array(33)], /filter: multipliers has 33 entries, more than 32/);
      refused([0, new Float64Array([-1])], /filter: area "road": multiplier -1 is not a number in 0 \.\. 1000/);
      refused([0, new Float64Array([NaN])], /filter: area "road": multiplier NaN is not a number/);
      refused([0, new Float64Array([1e300])], /filter: area "road": multiplier 1e\+300 is not/);
      // defineArea and findArea check their arguments too.
      const failed = (fn, argument, re) => {
        const e = core.lastError();
        assert.deepEqual([e.function, e.argument], [fn, argument], e.message);
        assert.match(e.message, re);
      };
      assert.equal(core.defineArea(7, ['gravel'], 1), undefined);
      failed('define_area', 'name', /^name must be a string/);
      assert.equal(core.defineArea('mud', 'dirt', 1), undefined);
      failed('define_area', 'blocks', /^area "mud": blocks must be an array/);
      assert.equal(core.defineArea('mud', ['dirt', 3], 1), undefined);
      failed('define_area', 'blocks', /^area "mud": blocks\[1\] is not a block name/);
      assert.equal(core.defineArea('mud', ['dirt'], NaN), undefined);
      failed('define_area', 'cost', /^area "mud": cost NaN is not a number of cells in -0\.6 \.\. 1000/);
      assert.equal(core.findArea('mud'), undefined);
      assert.equal(pkg.STATUS_NAMES[core.lastStatus()], 'NotFound');
      assert.equal(core.findArea(1), undefined);
      assert.equal(pkg.STATUS_NAMES[core.lastStatus()], 'InvalidArgument');
      assert.equal(core.defineArea('mud', ['dirt'], 1), 1);
    } finally {
      core.delete();
    }
  });
});
