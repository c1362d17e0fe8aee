/**
 * Instance counts from the VNFD model: levels (VduInstantiationLevels, else initial deltas plus
 * aspect deltas), multi-delta aspects, scale out/in and scale-to-level, and every bound.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  countsAtScale,
  deltaBetween,
  sizeForInstantiation,
  sizeScale,
  sizeScaleToLevel,
} from '../../src/lcm/sizing.ts';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import { ApiError } from '../../src/sol/problem.ts';
import type { Flavour, Vdu } from '../../src/vnfd/model/vnfd.ts';

const loc = { file: 'x.yaml', line: 1, column: 1 };
const vdu = (id: string, min: number, max: number): Vdu =>
  ({
    id,
    type: 'tosca.nodes.nfv.Vdu.Compute',
    name: id,
    vduProfile: { minNumberOfInstances: min, maxNumberOfInstances: max },
    virtualStorages: [],
    loc,
  }) as Vdu;

function flavour(overrides: Partial<Flavour> = {}): Flavour {
  return {
    flavourId: 'simple',
    file: 'df.yaml',
    nodeType: 'company.VNF',
    externalRequirements: {},
    vdus: [vdu('VDU1', 1, 5), vdu('VDU2', 1, 1)],
    vduCps: [],
    virtualLinks: [],
    extCps: [],
    storages: [],
    softwareImages: [],
    scalingAspects: [
      {
        id: 'A',
        maxScaleLevel: 3,
        stepDeltas: ['d1', 'd2'],
        vduDeltas: { VDU1: { d1: 1, d2: 2 } },
        virtualLinkBitrateDeltas: {},
      },
    ],
    initialDeltas: { VDU1: 1, VDU2: 1 },
    placementGroups: [],
    placementRules: [],
    lcmOperations: [],
    baseHot: { nested: [] },
    instantiationLevels: {
      policy: 'levels',
      defaultLevel: 'small',
      levels: [
        { id: 'small', scaleInfo: { A: 0 }, vduInstances: { VDU1: 1, VDU2: 1 }, virtualLinkBitrates: {} },
        { id: 'large', scaleInfo: { A: 2 }, vduInstances: { VDU2: 1 }, virtualLinkBitrates: {} },
      ],
    },
    ...overrides,
  };
}

const info = (counts: Record<string, number>, level: number): InstantiatedVnfInfo => ({
  flavourId: 'simple',
  vnfState: 'STARTED',
  extCpInfo: [],
  scaleStatus: [{ aspectId: 'A', scaleLevel: level }],
  vnfcResourceInfo: Object.entries(counts).flatMap(([vduId, n]) =>
    Array.from({ length: n }, (_, i) => ({
      id: `${vduId}-${i}`,
      vduId,
      computeResource: { resourceId: `${vduId}-${i}` },
    })),
  ),
});

function throwsStatus(fn: () => unknown, status: number, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, String(err));
    assert.equal(err.status, status);
    assert.match(err.detail, pattern);
    return true;
  });
}

describe('sizing', () => {
  test('step k uses step_deltas[k-1], the last one repeating', () => {
    const aspect = flavour().scalingAspects[0];
    assert.equal(deltaBetween(aspect, 'VDU1', 0, 1), 1);
    assert.equal(deltaBetween(aspect, 'VDU1', 0, 2), 3);
    assert.equal(deltaBetween(aspect, 'VDU1', 0, 3), 5);
    assert.equal(deltaBetween(aspect, 'VDU1', 2, 3), 2);
    assert.equal(deltaBetween(aspect, 'VDU2', 0, 3), 0);
    assert.deepEqual(countsAtScale(flavour(), { A: 2 }), { VDU1: 4, VDU2: 1 });
  });

  test('default level, VduInstantiationLevels first, then deltas', () => {
    const small = sizeForInstantiation(flavour());
    assert.equal(small.instantiationLevelId, 'small');
    assert.deepEqual(small.vduCounts, { VDU1: 1, VDU2: 1 });
    assert.deepEqual(small.scaleStatus, [{ aspectId: 'A', scaleLevel: 0 }]);
    assert.deepEqual(small.maxScaleLevels, [{ aspectId: 'A', scaleLevel: 3 }]);
    // 'large' has no VduInstantiationLevels entry for VDU1: initial 1 + steps 1 and 2 (1 + 2).
    const large = sizeForInstantiation(flavour(), 'large');
    assert.deepEqual(large.vduCounts, { VDU1: 4, VDU2: 1 });
    assert.deepEqual(large.scaleStatus, [{ aspectId: 'A', scaleLevel: 2 }]);
  });

  test('no instantiation levels: initial deltas, else vdu_profile minimum', () => {
    const f = flavour({ instantiationLevels: undefined, initialDeltas: { VDU1: 2 } });
    const s = sizeForInstantiation(f);
    assert.equal(s.instantiationLevelId, undefined);
    assert.deepEqual(s.vduCounts, { VDU1: 2, VDU2: 1 });
  });

  test('unknown level → 400; a level outside vdu_profile → 422', () => {
    throwsStatus(
      () => sizeForInstantiation(flavour(), 'huge'),
      400,
      /huge is not in flavour simple.*small, large/,
    );
    const bad = flavour();
    bad.instantiationLevels?.levels.push({
      id: 'bad',
      scaleInfo: {},
      vduInstances: { VDU1: 9 },
      virtualLinkBitrates: {},
    });
    throwsStatus(
      () => sizeForInstantiation(bad, 'bad'),
      422,
      /VDU1 9 instance\(s\), outside its vdu_profile \(1\.\.5\)/,
    );
  });

  test('scale out and in by steps, with the step deltas in order', () => {
    const out = sizeScale(flavour(), info({ VDU1: 1, VDU2: 1 }, 0), {
      type: 'SCALE_OUT',
      aspectId: 'A',
      numberOfSteps: 2,
    });
    assert.deepEqual(out.changes, { VDU1: 3 });
    assert.deepEqual(out.scaleStatus, [{ aspectId: 'A', scaleLevel: 2 }]);
    const inn = sizeScale(flavour(), info({ VDU1: 4, VDU2: 1 }, 2), {
      type: 'SCALE_IN',
      aspectId: 'A',
      numberOfSteps: 1,
    });
    assert.deepEqual(inn.changes, { VDU1: -2 });
    assert.deepEqual(inn.scaleStatus, [{ aspectId: 'A', scaleLevel: 1 }]);
  });

  test('scale beyond 0..max, unknown aspects and vdu_profile overflow → 400', () => {
    const at0 = info({ VDU1: 1, VDU2: 1 }, 0);
    throwsStatus(
      () => sizeScale(flavour(), at0, { type: 'SCALE_IN', aspectId: 'A', numberOfSteps: 1 }),
      400,
      /from scale level 0 to -1, outside 0\.\.3/,
    );
    throwsStatus(
      () => sizeScale(flavour(), at0, { type: 'SCALE_OUT', aspectId: 'A', numberOfSteps: 4 }),
      400,
      /to 4, outside 0\.\.3/,
    );
    throwsStatus(
      () => sizeScale(flavour(), at0, { type: 'SCALE_OUT', aspectId: 'B', numberOfSteps: 1 }),
      400,
      /aspect B is not in the instance's scaleStatus/,
    );
    // Level 3 would need 1 + 1 + 2 + 2 = 6 VDU1 instances: above the profile's 5.
    throwsStatus(
      () => sizeScale(flavour(), at0, { type: 'SCALE_OUT', aspectId: 'A', numberOfSteps: 3 }),
      400,
      /VDU1 6 instance\(s\), outside its vdu_profile \(1\.\.5\)/,
    );
  });

  test('scale to an instantiation level or to explicit scale levels', () => {
    const current = info({ VDU1: 4, VDU2: 1 }, 2);
    const toSmall = sizeScaleToLevel(flavour(), current, { instantiationLevelId: 'small' });
    assert.deepEqual(toSmall.changes, { VDU1: -3 });
    assert.deepEqual(toSmall.scaleStatus, [{ aspectId: 'A', scaleLevel: 0 }]);
    const toOne = sizeScaleToLevel(flavour(), current, { scaleInfo: [{ aspectId: 'A', scaleLevel: 1 }] });
    assert.deepEqual(toOne.changes, { VDU1: -2 });
    const same = sizeScaleToLevel(flavour(), current, { scaleInfo: [{ aspectId: 'A', scaleLevel: 2 }] });
    assert.deepEqual(same.changes, {});
    throwsStatus(
      () => sizeScaleToLevel(flavour(), current, { scaleInfo: [{ aspectId: 'A', scaleLevel: 7 }] }),
      400,
      /scale level 7, outside 0\.\.3/,
    );
    throwsStatus(
      () => sizeScaleToLevel(flavour(), current, { instantiationLevelId: 'nope' }),
      400,
      /nope is not in flavour/,
    );
  });

  test('scale to level moves every aspect it changes, some in and some out', () => {
    const two = flavour({
      vdus: [vdu('VDU1', 1, 5), vdu('VDU2', 1, 3)],
      scalingAspects: [
        ...flavour().scalingAspects,
        {
          id: 'B',
          maxScaleLevel: 2,
          stepDeltas: ['d'],
          vduDeltas: { VDU2: { d: 1 } },
          virtualLinkBitrateDeltas: {},
        },
      ],
    });
    const current = {
      ...info({ VDU1: 4, VDU2: 1 }, 2),
      scaleStatus: [
        { aspectId: 'A', scaleLevel: 2 },
        { aspectId: 'B', scaleLevel: 0 },
      ],
    };
    const mixed = sizeScaleToLevel(two, current, {
      scaleInfo: [
        { aspectId: 'A', scaleLevel: 1 },
        { aspectId: 'B', scaleLevel: 2 },
      ],
    });
    assert.deepEqual(mixed.changes, { VDU1: -2, VDU2: 2 });
    assert.deepEqual(mixed.aspects, [
      { aspectId: 'A', fromLevel: 2, toLevel: 1 },
      { aspectId: 'B', fromLevel: 0, toLevel: 2 },
    ]);
    assert.deepEqual(mixed.scaleStatus, [
      { aspectId: 'A', scaleLevel: 1 },
      { aspectId: 'B', scaleLevel: 2 },
    ]);
    // An aspect not named keeps its level and is not among the changes.
    const one = sizeScaleToLevel(two, current, { scaleInfo: [{ aspectId: 'B', scaleLevel: 1 }] });
    assert.deepEqual(one.aspects, [{ aspectId: 'B', fromLevel: 0, toLevel: 1 }]);
    assert.deepEqual(one.changes, { VDU2: 1 });
  });
});
