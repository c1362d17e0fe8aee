/**
 * External CPs declared as VnfExtCp nodes, over real HTTP on SQLite and PostgreSQL: the CP the
 * request's external VL carries gets a port of the VNF's own there (granted as a LINKPORT),
 * shown in extCpInfo with the internal VL it exposes and in extVirtualLinkInfo, kept by scale,
 * moved by change_ext_conn (undone by its rollback) and removed by terminate.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GrantRequest } from '../../src/grant/types.ts';
import { LCM_V2 } from '../../src/lcm/store.ts';
import type { AffectedExtLinkPort, InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import { lcmServer } from '../http/vnflcm/lcm-server.ts';
import {
  createInstance,
  getInstance,
  H,
  type OpOcc,
  runTask,
  V2,
  waitOpOcc,
} from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { EXPOSED_VL, EXT_CP, extCpPackage } from './ext-cp-nodes.ts';

const SIM = '/bosun/v1/sim';

const extPortChanges = (op: OpOcc) =>
  (op.resourceChanges?.affectedExtLinkPorts ?? []) as AffectedExtLinkPort[];

const extVl = (id: string, network: string) => ({
  id,
  resourceId: network,
  extCps: [
    {
      cpdId: EXT_CP,
      cpConfig: {
        [`${EXT_CP}-config`]: {
          cpProtocolData: [
            {
              layerProtocol: 'IP_OVER_ETHERNET',
              ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
            },
          ],
        },
      },
    },
  ],
});

for (const dialect of DIALECTS) {
  describe(`external CPs declared as VnfExtCp nodes (${dialect})`, () => {
    const lcm = lcmServer(dialect, {}, extCpPackage);

    const info = async (id: string) =>
      (await getInstance(lcm.url, id)).instantiatedVnfInfo as InstantiatedVnfInfo;
    const vnfPorts = (instanceId: string) =>
      lcm.server.context.db.kysely
        .selectFrom('sim_ports')
        .selectAll()
        .where('instance_id', '=', instanceId)
        .where('vnfc_id', 'is', null)
        .execute();
    const grantRequest = async (opOccId: string) =>
      (await LCM_V2.findOpOccWork(lcm.server.context.db.kysely, opOccId))?.grantRequest as GrantRequest;

    test('instantiate gives the VnfExtCp a port on its external VL; scale keeps it; terminate removes it', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', {
        flavourId: 'simple',
        extVirtualLinks: [extVl('ext-vl-1', 'net-ext-1')],
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const shown = await info(instance.id);
      const cp = shown.extCpInfo.find((c) => c.cpdId === EXT_CP);
      assert.ok(cp, JSON.stringify(shown.extCpInfo));
      const exposed = shown.vnfVirtualLinkResourceInfo?.find((l) => l.vnfVirtualLinkDescId === EXPOSED_VL);
      assert.equal(cp.associatedVnfVirtualLinkId, exposed?.id, 'the internal VL it exposes');
      assert.equal(cp.associatedVnfcCpId, undefined, 'the VNF’s own CP, not a VNFC’s');
      assert.equal(cp.cpConfigId, `${EXT_CP}-config`);
      assert.ok(cp.cpProtocolInfo?.[0].ipOverEthernet?.ipAddresses?.[0].addresses?.[0]);
      const link = shown.extVirtualLinkInfo?.find((l) => l.id === 'ext-vl-1');
      assert.equal(link?.resourceHandle.resourceId, 'net-ext-1');
      const port = link?.extLinkPorts?.find((p: { cpInstanceId?: string }) => p.cpInstanceId === cp.id);
      assert.ok(port, JSON.stringify(link));
      assert.equal(cp.extLinkPortId, port.id);
      // No VNFC claims it.
      for (const v of shown.vnfcResourceInfo ?? [])
        assert.ok(!(v.vnfcCpInfo ?? []).some((c) => c.cpdId === EXT_CP || c.vnfExtCpId === cp.id));
      assert.deepEqual(
        extPortChanges(op)
          .filter((p) => p.extCpInstanceId === cp.id)
          .map((p) => p.changeType),
        ['ADDED'],
      );
      const [held] = await vnfPorts(instance.id);
      assert.equal(held.id, port.resourceHandle.resourceId);
      assert.equal(held.network_id, 'net-ext-1');
      const granted = (await grantRequest(op.id)).addResources?.filter(
        (r) => r.resourceTemplateId === EXT_CP,
      );
      assert.deepEqual(granted, [
        { id: `${EXT_CP}-${instance.id}`, type: 'LINKPORT', resourceTemplateId: EXT_CP },
      ]);

      const out = await runTask(lcm.url, instance.id, 'scale', {
        type: 'SCALE_OUT',
        aspectId: 'VDU1_scale',
      });
      assert.equal(out.operationState, 'COMPLETED', JSON.stringify(out.error));
      assert.deepEqual(
        (await info(instance.id)).extCpInfo.filter((c) => c.cpdId === EXT_CP),
        [cp],
        'unchanged by scale',
      );
      assert.equal((await vnfPorts(instance.id)).length, 1);

      const term = await runTask(lcm.url, instance.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal(term.operationState, 'COMPLETED', JSON.stringify(term.error));
      const removed = (await grantRequest(term.id)).removeResources?.find(
        (r) => r.resourceTemplateId === EXT_CP,
      );
      assert.deepEqual(removed?.resource?.resourceId, port.resourceHandle.resourceId);
      assert.ok(extPortChanges(term).some((p) => p.id === port.id && p.changeType === 'REMOVED'));
      assert.deepEqual(await vnfPorts(instance.id), []);
    });

    test('change_ext_conn moves the port to the new external VL; its rollback brings the old one back', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const inst = await runTask(lcm.url, instance.id, 'instantiate', {
        flavourId: 'simple',
        extVirtualLinks: [extVl('ext-vl-a', 'net-a')],
      });
      assert.equal(inst.operationState, 'COMPLETED', JSON.stringify(inst.error));
      const before = await info(instance.id);
      const [old] = await vnfPorts(instance.id);

      const moved = await runTask(lcm.url, instance.id, 'change_ext_conn', {
        extVirtualLinks: [extVl('ext-vl-b', 'net-b')],
      });
      assert.equal(moved.operationState, 'COMPLETED', JSON.stringify(moved.error));
      const now = await vnfPorts(instance.id);
      assert.deepEqual(
        now.map((p) => p.network_id),
        ['net-b'],
      );
      const cp = (await info(instance.id)).extCpInfo.find((c) => c.cpdId === EXT_CP);
      assert.equal(cp?.id, now[0].id);
      const request = await grantRequest(moved.id);
      assert.ok(request.addResources?.some((r) => r.type === 'LINKPORT' && r.resourceTemplateId === EXT_CP));
      assert.equal(
        request.removeResources?.find((r) => r.resourceTemplateId === EXT_CP)?.resource?.resourceId,
        old.id,
      );

      // Back to net-a, failing at the end (the stack update): the rollback restores net-b's port.
      const fault = await http(lcm.url, 'POST', `${SIM}/faults`, {
        body: { kind: 'stack.update', action: 'fail', message: 'Simulated Heat failure' },
      });
      assert.equal(fault.status, 201, fault.text);
      const failed = await runTask(lcm.url, instance.id, 'change_ext_conn', {
        extVirtualLinks: [extVl('ext-vl-a', 'net-a')],
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.deepEqual(
        (await vnfPorts(instance.id)).map((p) => p.network_id),
        ['net-a'],
      );
      const rollback = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, {
        headers: H,
      });
      assert.equal(rollback.status, 202, rollback.text);
      assert.equal((await waitOpOcc(lcm.url, failed.id)).operationState, 'ROLLED_BACK');
      assert.deepEqual(await vnfPorts(instance.id), now);
      assert.deepEqual(
        (await info(instance.id)).extCpInfo.find((c) => c.cpdId === EXT_CP),
        cp,
      );
      assert.notDeepEqual(before.extCpInfo, []);
    });
  });
}
