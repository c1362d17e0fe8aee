/**
 * change_ext_conn on external CPs of VNFCs (VduCps on external VLs), over /vnflcm/v2 on SQLite and
 * PostgreSQL, as the simulated VIM realises it (Neutron's rules): a CP whose new external VL is on
 * another network gets a new port (new extCpInfo id; the VNFC's vnfcCpInfo keeps its id and points
 * at it), the old port goes; a CP whose new external VL is on the same network keeps its port (id,
 * MAC), which takes the new VL, cpConfig and fixed address. resourceChanges and
 * changedExtConnectivity say exactly that, and a rollback puts every port back as it was.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import type { SimPortsTable } from '../../../src/store/db/tables.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { lcmServer, simFault } from './lcm-server.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  type OpOcc,
  runTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';

type ExtOpOcc = Omit<OpOcc, 'resourceChanges'> & {
  changedExtConnectivity?: { id: string; resourceHandle: { resourceId: string } }[];
  resourceChanges: {
    affectedVnfcs: { id: string; vduId: string; changeType: string; affectedVnfcCpIds?: string[] }[];
    affectedExtLinkPorts: { id: string; changeType: string; extCpInstanceId: string }[];
  };
};

const ipData = (ip?: string) => ({
  cpProtocolData: [
    {
      layerProtocol: 'IP_OVER_ETHERNET',
      ipOverEthernet: {
        ipAddresses: [ip ? { type: 'IPV4', fixedAddresses: [ip] } : { type: 'IPV4', numDynamicAddresses: 1 }],
      },
    },
  ],
});

/** An external VL carrying CPs, each with one cpConfig entry (`<cpdId>-<vl>`), optionally a fixed address. */
const extVl = (id: string, network: string, cps: Record<string, string | undefined>) => ({
  id,
  resourceId: network,
  extCps: Object.entries(cps).map(([cpdId, ip]) => ({
    cpdId,
    cpConfig: { [`${cpdId}-${id}`]: ipData(ip) },
  })),
});

const byChange = (op: ExtOpOcc, changeType: string) =>
  op.resourceChanges.affectedExtLinkPorts
    .filter((p) => p.changeType === changeType)
    .map((p) => p.id)
    .sort();
const cpsOf = (info: InstantiatedVnfInfo, cpdId: string) => info.extCpInfo.filter((c) => c.cpdId === cpdId);
const ipOf = (cp: InstantiatedVnfInfo['extCpInfo'][number]) =>
  cp.cpProtocolInfo?.[0].ipOverEthernet?.ipAddresses?.[0].addresses?.[0] as string;
const sorted = (ids: string[]) => [...ids].sort();

for (const dialect of DIALECTS) {
  describe(`change_ext_conn on VNFC external CPs (${dialect})`, () => {
    const server = lcmServer(dialect);
    const info = async (id: string) =>
      (await getInstance(server.url, id)).instantiatedVnfInfo as InstantiatedVnfInfo;
    const ports = (instanceId: string): Promise<SimPortsTable[]> =>
      server.server.context.db.kysely
        .selectFrom('sim_ports')
        .selectAll()
        .where('instance_id', '=', instanceId)
        .orderBy('id')
        .execute();
    const change = async (instanceId: string, links: object[]) =>
      (await runTask(server.url, instanceId, 'change_ext_conn', { extVirtualLinks: links })) as ExtOpOcc;

    test('another network: new ports; same network: the port updated in place; rollback restores both', async () => {
      const inst = await createInstance(server.url, server.vnfdId);
      const made = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        extVirtualLinks: [
          extVl('ext-a', 'net-a', { VDU1_CP1: undefined }),
          extVl('ext-b', 'net-b', { VDU1_CP2: undefined, VDU2_CP2: undefined }),
        ],
      });
      assert.equal(made.operationState, 'COMPLETED', JSON.stringify(made.error));
      const first = await info(inst.id);
      const oldCp1 = cpsOf(first, 'VDU1_CP1');
      assert.ok(oldCp1.length >= 1);

      // 1. VDU1_CP1 onto ext-c on another network: replaced ports; ext-a, left empty, goes.
      const moved = await change(inst.id, [extVl('ext-c', 'net-c', { VDU1_CP1: undefined })]);
      assert.equal(moved.operationState, 'COMPLETED', JSON.stringify(moved.error));
      const second = await info(inst.id);
      const newCp1 = cpsOf(second, 'VDU1_CP1');
      assert.equal(newCp1.length, oldCp1.length);
      for (const cp of newCp1) assert.ok(!oldCp1.some((o) => o.id === cp.id), 'a new port');
      assert.deepEqual(
        second.extVirtualLinkInfo?.map((l) => [l.id, l.resourceHandle.resourceId]),
        [
          ['ext-b', 'net-b'],
          ['ext-c', 'net-c'],
        ],
      );
      const extC = second.extVirtualLinkInfo?.find((l) => l.id === 'ext-c');
      assert.deepEqual(
        sorted((extC?.extLinkPorts ?? []).map((p) => p.cpInstanceId as string)),
        sorted(newCp1.map((c) => c.id)),
      );
      for (const vnfc of second.vnfcResourceInfo ?? []) {
        if (vnfc.vduId !== 'VDU1') continue;
        const cp = vnfc.vnfcCpInfo?.find((c) => c.cpdId === 'VDU1_CP1');
        const was = first.vnfcResourceInfo
          ?.find((v) => v.id === vnfc.id)
          ?.vnfcCpInfo?.find((c) => c.cpdId === 'VDU1_CP1');
        assert.equal(cp?.id, was?.id, 'the VNFC CP keeps its id');
        assert.ok(newCp1.some((n) => n.id === cp?.vnfExtCpId && n.associatedVnfcCpId === cp?.id));
      }
      assert.deepEqual(
        moved.changedExtConnectivity?.map((l) => l.id),
        ['ext-c'],
      );
      assert.deepEqual(byChange(moved, 'REMOVED'), sorted(oldCp1.map((c) => c.extLinkPortId as string)));
      assert.deepEqual(byChange(moved, 'ADDED'), sorted(newCp1.map((c) => c.extLinkPortId as string)));
      assert.deepEqual(byChange(moved, 'MODIFIED'), []);
      const vdu1 = (second.vnfcResourceInfo ?? []).filter((v) => v.vduId === 'VDU1');
      assert.deepEqual(
        moved.resourceChanges.affectedVnfcs.map((v) => [v.id, v.changeType, v.affectedVnfcCpIds]).sort(),
        vdu1.map((v) => [v.id, 'MODIFIED', [v.vnfcCpInfo?.find((c) => c.cpdId === 'VDU1_CP1')?.id]]).sort(),
      );
      const held = await ports(inst.id);
      for (const cp of oldCp1) assert.ok(!held.some((p) => p.id === cp.id), 'the old port is deleted');

      // 2. VDU2_CP2 onto ext-d on the same network, with a fixed address: the same port, re-addressed.
      const [cp2] = cpsOf(second, 'VDU2_CP2');
      const fixed = `${ipOf(cp2).split('.').slice(0, 3).join('.')}.200`;
      const readdressed = await change(inst.id, [extVl('ext-d', 'net-b', { VDU2_CP2: fixed })]);
      assert.equal(readdressed.operationState, 'COMPLETED', JSON.stringify(readdressed.error));
      const third = await info(inst.id);
      const [kept] = cpsOf(third, 'VDU2_CP2');
      assert.equal(kept.id, cp2.id, 'the same port');
      assert.equal(ipOf(kept), fixed);
      assert.equal(
        kept.cpProtocolInfo?.[0].ipOverEthernet?.macAddress,
        cp2.cpProtocolInfo?.[0].ipOverEthernet?.macAddress,
      );
      assert.equal(kept.cpConfigId, 'VDU2_CP2-ext-d');
      const linkPorts = (i: InstantiatedVnfInfo, id: string) =>
        (i.extVirtualLinkInfo?.find((l) => l.id === id)?.extLinkPorts ?? []).map((p) => p.cpInstanceId);
      assert.deepEqual(linkPorts(third, 'ext-d'), [cp2.id]);
      assert.ok(!linkPorts(third, 'ext-b').includes(cp2.id));
      assert.deepEqual(
        readdressed.changedExtConnectivity?.map((l) => l.id).sort(),
        ['ext-b', 'ext-d'],
        'the new VL, and the one the CP left',
      );
      assert.deepEqual(
        readdressed.resourceChanges.affectedExtLinkPorts.map((p) => [p.id, p.changeType]),
        [[cp2.extLinkPortId, 'MODIFIED']],
      );
      const vdu2 = third.vnfcResourceInfo?.find((v) => v.vduId === 'VDU2');
      assert.deepEqual(
        readdressed.resourceChanges.affectedVnfcs.map((v) => [v.id, v.changeType, v.affectedVnfcCpIds]),
        [[vdu2?.id, 'MODIFIED', [cp2.associatedVnfcCpId]]],
      );

      // 3. Both kinds at once, failing at the end (the stack update): the rollback restores every port.
      const before = await ports(inst.id);
      const newer = `${fixed.split('.').slice(0, 3).join('.')}.201`;
      await simFault(server.url, 'stack.update', 'fail');
      const failing = await change(inst.id, [
        extVl('ext-a', 'net-a', { VDU1_CP1: undefined }),
        extVl('ext-d', 'net-b', { VDU2_CP2: newer }),
      ]);
      assert.equal(failing.operationState, 'FAILED_TEMP');
      const during = await ports(inst.id);
      assert.notDeepEqual(during, before);
      const portIps = (p?: SimPortsTable) =>
        (JSON.parse(p?.ips ?? '[]') as { ip: string }[]).map((a) => a.ip);
      assert.deepEqual(portIps(during.find((p) => p.id === cp2.id)), [newer], 'same port, new address');
      const rollback = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failing.id}/rollback`, {
        headers: H,
      });
      assert.equal(rollback.status, 202, rollback.text);
      const undone = (await waitOpOcc(server.url, failing.id)) as ExtOpOcc;
      assert.equal(undone.operationState, 'ROLLED_BACK', JSON.stringify(undone.error));
      assert.deepEqual(await ports(inst.id), before, 'every port as it was: ids, networks, addresses, VLs');
      assert.deepEqual(await info(inst.id), third);
      const added = during.filter((p) => !before.some((b) => b.id === p.id)).map((p) => p.id);
      assert.deepEqual(byChange(undone, 'REMOVED'), sorted(added));
      assert.deepEqual(
        byChange(undone, 'ADDED'),
        sorted(cpsOf(third, 'VDU1_CP1').map((c) => c.extLinkPortId as string)),
      );
      assert.deepEqual(byChange(undone, 'MODIFIED'), [cp2.extLinkPortId]);
    });
  });
}
