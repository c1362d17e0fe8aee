/**
 * Availability-zone reselection on the simulated VIM, over real HTTP on SQLite and PostgreSQL:
 * a zone without room (the simulated VIM's exhausted zone gives Nova's "No valid host was
 * found") makes instantiate, scale out and heal move the failing VNFCs to another zone and
 * try again; anti-affinity is respected (or broken only with best effort, and said); when no
 * zone is left the op occ ends FAILED_TEMP naming every zone tried, and a retry succeeds once
 * there is room. Every attempt is recorded in the op occ.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { VnfLcmOpOccSchema } from '../../src/http/routes/vnflcm/v2/representations.ts';
import type { PlacementAttempt } from '../../src/lcm/placement/attempts.ts';
import { lcmServer, SIM, simFault } from '../http/vnflcm/lcm-server.ts';
import {
  createInstance,
  getInstance,
  INSTANTIATE,
  type Instance,
  MAIN_SAMPLE,
  runTask,
  V2,
  waitOpOcc,
} from '../http/vnflcm/lcm-support.ts';
import { sampleVariant } from '../http/vnflcm/sample-package.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';

const opOccValid = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(
  VnfLcmOpOccSchema,
);

const MAIN_VNFD_ID = 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21';
const DF = 'Definitions/v2_sample3_df_simple.yaml';
const ZONE_AFFINITY =
  '    - policy_affinity_group:\n        type: tosca.policies.nfv.AffinityRule\n        targets: [ affinityOrAntiAffinityGroup1 ]\n        properties:\n          scope: zone\n';

/** The main sample (VDU1 scalable 1..3, VDU2) without its zone affinity rule: the NFVO spreads its VNFCs. */
const noRules = () =>
  sampleVariant(MAIN_SAMPLE, {
    vnfdId: MAIN_VNFD_ID,
    edit: { [DF]: (t) => t.replace(ZONE_AFFINITY, '') },
  });

/** The main sample with zone anti-affinity between VDU1 and VDU2 instead of affinity. */
const antiAffinity = () =>
  sampleVariant(MAIN_SAMPLE, {
    vnfdId: MAIN_VNFD_ID,
    edit: {
      [DF]: (t) =>
        t.replace(
          ZONE_AFFINITY,
          ZONE_AFFINITY.replace('policy_affinity_group', 'policy_spread').replace(
            'AffinityRule',
            'AntiAffinityRule',
          ),
        ),
    },
  });

const OTHER: Record<string, string> = { 'zone-a': 'zone-b', 'zone-b': 'zone-a' };

type Lcm = ReturnType<typeof lcmServer>;

async function zoneAction(lcm: Lcm, zone: string, action: 'exhaust' | 'restore') {
  const res = await http(lcm.url, 'POST', `${SIM}/zones/${zone}/${action}`);
  assert.equal(res.status, 200, res.text);
}

/** Runs `work` with `zones` exhausted, restoring them after. */
async function withFull<T>(lcm: Lcm, zones: string[], work: () => Promise<T>): Promise<T> {
  for (const z of zones) await zoneAction(lcm, z, 'exhaust');
  try {
    return await work();
  } finally {
    for (const z of zones) await zoneAction(lcm, z, 'restore');
  }
}

/** The attempts the op occ recorded (they stay after it completes). */
async function attemptsOf(lcm: Lcm, opOccId: string): Promise<PlacementAttempt[]> {
  const row = await lcm.server.context.db.kysely
    .selectFrom('vnf_lcm_op_occs_v2')
    .select('placement_attempts')
    .where('id', '=', opOccId)
    .executeTakeFirstOrThrow();
  return row.placement_attempts ? JSON.parse(row.placement_attempts) : [];
}

const vnfcs = (i: Instance) => i.instantiatedVnfInfo?.vnfcResourceInfo ?? [];
const zonesOf = (i: Instance, vduId: string) =>
  vnfcs(i)
    .filter((v) => v.vduId === vduId)
    .map((v) => v.zoneId);

async function instantiated(lcm: Lcm): Promise<Instance> {
  const instance = await createInstance(lcm.url, lcm.vnfdId);
  const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
  assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
  return getInstance(lcm.url, instance.id);
}

const scaleOut = (additionalParams: Record<string, unknown> = {}) => ({
  type: 'SCALE_OUT',
  aspectId: 'VDU1_scale',
  numberOfSteps: 1,
  additionalParams,
});

for (const dialect of DIALECTS) {
  describe(`zone reselection without placement rules (${dialect})`, () => {
    const lcm = lcmServer(dialect, {}, noRules);

    test('instantiate with zone-b full: the VNFC granted zone-b lands in zone-a after one reselection', async () => {
      await withFull(lcm, ['zone-b'], async () => {
        const instance = await createInstance(lcm.url, lcm.vnfdId);
        const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const after = await getInstance(lcm.url, instance.id);
        assert.deepEqual(
          vnfcs(after).map((v) => v.zoneId),
          ['zone-a', 'zone-a'],
        );
        // The NFVO spread the two VNFCs over both zones: exactly one was moved, once.
        const attempts = await attemptsOf(lcm, op.id);
        assert.equal(attempts.length, 1, JSON.stringify(attempts));
        assert.equal(attempts[0].zone, 'zone-b');
        assert.match(attempts[0].reason, /No valid host was found/);
        assert.equal(attempts[0].next.length, 1);
        assert.equal(attempts[0].next[0].zone, 'zone-a');
        assert.equal(attempts[0].next[0].vnfcId, attempts[0].vnfcId);
        assert.ok(vnfcs(after).some((v) => v.id === attempts[0].vnfcId));
        assert.equal(attempts[0].stopped, undefined);
      });
    });

    test('a failure matching lcm.placementReselectPatterns ("Exceeded maximum number of retries") is reselected too', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const message =
        'Exceeded maximum number of retries. Exhausted all hosts available for retrying build failures.';
      await simFault(lcm.url, 'server.create', 'fail', { message, count: 1 });
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const [attempt] = await attemptsOf(lcm, op.id);
      assert.equal(attempt.reason, message);
      assert.equal(attempt.next[0].zone, OTHER[attempt.zone]);
      const after = await getInstance(lcm.url, instance.id);
      assert.equal(vnfcs(after).find((v) => v.id === attempt.vnfcId)?.zoneId, OTHER[attempt.zone]);
    });

    test('heal of a VNFC whose zone became full re-creates it in the other zone', async () => {
      const instance = await instantiated(lcm);
      const vdu1 = vnfcs(instance).find((v) => v.vduId === 'VDU1');
      assert.ok(vdu1?.zoneId);
      const vnfcInfo = instance.instantiatedVnfInfo?.vnfcInfo?.find((v) => v.vnfcResourceInfoId === vdu1.id);
      assert.ok(vnfcInfo);
      await withFull(lcm, [vdu1.zoneId], async () => {
        const op = await runTask(lcm.url, instance.id, 'heal', { vnfcInstanceId: [vnfcInfo.id] });
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const after = await getInstance(lcm.url, instance.id);
        const healed = vnfcs(after).find((v) => v.id === vdu1.id);
        assert.equal(healed?.zoneId, OTHER[vdu1.zoneId as string]);
        assert.notEqual(healed?.computeResource.resourceId, vdu1.computeResource.resourceId);
        const attempts = await attemptsOf(lcm, op.id);
        assert.deepEqual(
          attempts.map((a) => [a.zone, a.next.map((n) => [n.vnfcId, n.zone])]),
          [[vdu1.zoneId, [[vdu1.id, OTHER[vdu1.zoneId as string]]]]],
        );
      });
    });

    test('every zone full: FAILED_TEMP naming every zone tried; a retry succeeds once a zone has room', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      await zoneAction(lcm, 'zone-a', 'exhaust');
      await zoneAction(lcm, 'zone-b', 'exhaust');
      let failedId: string;
      try {
        const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
        failedId = op.id;
        assert.equal(op.operationState, 'FAILED_TEMP');
        const error = op.error as { detail: string; placementAttempts?: PlacementAttempt[]; step?: string };
        assert.equal(error.step, 'infra');
        assert.match(
          error.detail,
          /^No availability zone had room for VDU\d \(.+\): tried zone-[ab] \(No valid host was found.*\), zone-[ab] \(No valid host was found.*\); no zone left: every zone of the VIM \(zone-a, zone-b\) failed\. Make room/,
        );
        assert.ok(error.detail.includes('zone-a (') && error.detail.includes('zone-b ('), error.detail);
        // The attempts are served in the error (a ProblemDetails extension member): the op occ
        // stays a valid SOL003 VnfLcmOpOcc.
        assert.ok(opOccValid(op), JSON.stringify(opOccValid.errors));
        assert.deepEqual(
          error.placementAttempts?.map((a) => [a.next.length, Boolean(a.stopped)]),
          [
            [1, false],
            [0, true],
          ],
        );
      } finally {
        await zoneAction(lcm, 'zone-b', 'restore');
      }
      await withFull(lcm, ['zone-a'], async () => {
        const res = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${failedId}/retry`, {
          headers: { Version: '2.0.0' },
        });
        assert.equal(res.status, 202, res.text);
        const op = await waitOpOcc(lcm.url, failedId, ['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK']);
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const after = await getInstance(lcm.url, instance.id);
        assert.deepEqual(
          vnfcs(after).map((v) => v.zoneId),
          ['zone-b', 'zone-b'],
        );
        // The first run's two attempts stay; the retry added what it tried, if anything.
        assert.ok((await attemptsOf(lcm, failedId)).length >= 2);
      });
    });
  });

  describe(`zone reselection with zone affinity (${dialect})`, () => {
    const lcm = lcmServer(dialect);

    test('scale out when the current zone is full: refused by the affinity rule, placed elsewhere with best effort', async () => {
      const instance = await instantiated(lcm);
      const [zone] = zonesOf(instance, 'VDU1');
      assert.ok(zone);
      await withFull(lcm, [zone], async () => {
        const refused = await runTask(lcm.url, instance.id, 'scale', scaleOut());
        assert.equal(refused.operationState, 'FAILED_TEMP');
        assert.match(
          String(refused.error?.detail),
          new RegExp(
            `tried ${zone} \\(No valid host.*\\); the zone affinity rule 'policy_affinity_group' allows none of the zones left \\(${OTHER[zone]}\\) for VDU1`,
          ),
        );
        const failed = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${refused.id}/rollback`, {
          headers: { Version: '2.0.0' },
        });
        assert.equal(failed.status, 202, failed.text);
        assert.equal((await waitOpOcc(lcm.url, refused.id)).operationState, 'ROLLED_BACK');

        const op = await runTask(lcm.url, instance.id, 'scale', scaleOut({ fallbackBestEffort: true }));
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const after = await getInstance(lcm.url, instance.id);
        assert.deepEqual(zonesOf(after, 'VDU1').sort(), [zone, OTHER[zone]].sort());
        const [attempt] = await attemptsOf(lcm, op.id);
        assert.equal(attempt.next[0].zone, OTHER[zone]);
        assert.match(
          String(attempt.notes?.[0]),
          /goes to zone .* although no zone left satisfies its zone affinity rule 'policy_affinity_group' \(fallbackBestEffort\)/,
        );
      });
    });

    test('additionalParams.fallbackBestEffort must be a boolean', async () => {
      const instance = await instantiated(lcm);
      const res = await http<{ detail: string }>(
        lcm.url,
        'POST',
        `${V2}/vnf_instances/${instance.id}/scale`,
        {
          headers: { Version: '2.0.0' },
          body: scaleOut({ fallbackBestEffort: 'yes' }),
        },
      );
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.detail, /additionalParams.fallbackBestEffort must be a boolean/);
    });
  });

  describe(`zone anti-affinity on two zones (${dialect})`, () => {
    const lcm = lcmServer(dialect, {}, antiAffinity);

    test('a third VNFC is refused without best effort (the grant names the rule) and placed with it', async () => {
      const instance = await instantiated(lcm);
      assert.deepEqual(
        vnfcs(instance)
          .map((v) => v.zoneId)
          .sort(),
        ['zone-a', 'zone-b'],
      );
      const refused = await runTask(lcm.url, instance.id, 'scale', scaleOut());
      assert.equal(refused.operationState, 'ROLLED_BACK');
      assert.match(
        String(refused.error?.detail),
        /The grant was refused: No availability zone satisfies the zone anti-affinity rule 'policy_spread' for VDU1 .*other members are in zone-a, zone-b/,
      );
      const placed = await runTask(lcm.url, instance.id, 'scale', scaleOut({ fallbackBestEffort: true }));
      assert.equal(placed.operationState, 'COMPLETED', JSON.stringify(placed.error));
      const after = await getInstance(lcm.url, instance.id);
      assert.equal(vnfcs(after).length, 3);
    });

    test('reselection respects anti-affinity: with zone-b full, the VNFC granted it is not put beside its peer unless best effort', async () => {
      await withFull(lcm, ['zone-b'], async () => {
        const instance = await createInstance(lcm.url, lcm.vnfdId);
        const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
        assert.equal(op.operationState, 'FAILED_TEMP');
        assert.match(
          String(op.error?.detail),
          /tried zone-b \(No valid host.*\); the zone anti-affinity rule 'policy_spread' allows none of the zones left \(zone-a\)/,
        );
        const res = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${op.id}/rollback`, {
          headers: { Version: '2.0.0' },
        });
        assert.equal(res.status, 202, res.text);
        assert.equal((await waitOpOcc(lcm.url, op.id)).operationState, 'ROLLED_BACK');

        const bestEffort = await runTask(lcm.url, instance.id, 'instantiate', {
          ...INSTANTIATE,
          additionalParams: { fallbackBestEffort: true },
        });
        assert.equal(bestEffort.operationState, 'COMPLETED', JSON.stringify(bestEffort.error));
        const after = await getInstance(lcm.url, instance.id);
        assert.deepEqual(
          vnfcs(after).map((v) => v.zoneId),
          ['zone-a', 'zone-a'],
        );
        const [attempt] = await attemptsOf(lcm, bestEffort.id);
        assert.match(
          String(attempt.notes?.[0]),
          /zone anti-affinity rule 'policy_spread' \(fallbackBestEffort\)/,
        );
      });
    });
  });
}
