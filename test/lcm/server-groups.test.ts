/**
 * Host-scope (nfvi_node) placement rules through the whole engine on the simulated VIM, over
 * real HTTP on SQLite and PostgreSQL: affinity puts the VNFCs on one host (and so in one zone);
 * anti-affinity on a VIM of one host fails the operation, as Nova's server group does, unless
 * the request allows best effort, which makes the group soft and places them anyway.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lcmServer, type SimServer, simServers } from '../http/vnflcm/lcm-server.ts';
import { createInstance, getInstance, INSTANTIATE, runTask } from '../http/vnflcm/lcm-support.ts';
import { sampleVariant } from '../http/vnflcm/sample-package.ts';
import { DIALECTS } from '../support/databases.ts';

/** A sample whose VDU1 and VDU2 are under one host affinity rule (policy_affinity_group). */
const BASE = 'sol_v2_common__basic_lcms_min.zip';
const BASE_VNFD_ID = '437ba870-af38-52c1-ad31-a591f4419f69';
const DF = 'Definitions/v2_sample2_df_simple.yaml';

const hostAffinity = () => sampleVariant(BASE, { vnfdId: BASE_VNFD_ID });
const hostAntiAffinity = () =>
  sampleVariant(BASE, {
    vnfdId: BASE_VNFD_ID,
    edit: {
      [DF]: (t) =>
        t.replace(
          '        type: tosca.policies.nfv.AffinityRule\n        targets: [ affinityOrAntiAffinityGroup1 ]',
          '        type: tosca.policies.nfv.AntiAffinityRule\n        targets: [ affinityOrAntiAffinityGroup1 ]',
        ),
    },
  });

const hosts = (servers: (SimServer & { host?: string })[]) => servers.map((s) => s.host);

for (const dialect of DIALECTS) {
  describe(`host affinity (${dialect})`, () => {
    const lcm = lcmServer(dialect, {}, hostAffinity);

    test('the VNFCs of a host affinity rule share one host', async () => {
      for (let i = 0; i < 3; i++) {
        const instance = await createInstance(lcm.url, lcm.vnfdId);
        const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const on = hosts(await simServers(lcm.url, instance.id));
        assert.equal(on.length, 2);
        assert.equal(new Set(on).size, 1, on.join(', '));
      }
    });
  });

  describe(`host anti-affinity on a VIM of one host (${dialect})`, () => {
    const lcm = lcmServer(
      dialect,
      { sim: { zones: [{ name: 'zone-a', hosts: 1, vcpus: 32, ramMb: 131072, diskGb: 2048 }] } },
      hostAntiAffinity,
    );

    test('fails with no valid host (no other zone to try); best effort places both on the host', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const strict = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(strict.operationState, 'FAILED_TEMP');
      assert.match(
        String(strict.error?.detail),
        /tried zone-a \(No valid host was found.*\); no zone left: every zone of the VIM \(zone-a\) failed/,
      );

      const other = await createInstance(lcm.url, lcm.vnfdId);
      const soft = await runTask(lcm.url, other.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: { fallbackBestEffort: true },
      });
      assert.equal(soft.operationState, 'COMPLETED', JSON.stringify(soft.error));
      const on = hosts(await simServers(lcm.url, other.id));
      assert.deepEqual(on, ['zone-a-host-1', 'zone-a-host-1']);
      assert.equal((await getInstance(lcm.url, other.id)).instantiatedVnfInfo?.vnfcResourceInfo?.length, 2);
    });
  });
}
