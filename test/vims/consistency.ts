/**
 * Checks that an instantiatedVnfInfo is internally consistent: unique ids, and every
 * cross-reference (VNFC CP ↔ link port ↔ VL, VNFC CP ↔ external CP ↔ external link port,
 * VNFC ↔ storages, vnfcInfo ↔ vnfcResourceInfo) points at a record that points back.
 */
import assert from 'node:assert/strict';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import type { Flavour } from '../../src/vnfd/model/vnfd.ts';

function unique(label: string, ids: string[]): void {
  assert.equal(new Set(ids).size, ids.length, `${label} ids are unique: ${ids.join(', ')}`);
}

export function assertConsistent(info: InstantiatedVnfInfo, flavour: Flavour): void {
  const vnfcs = info.vnfcResourceInfo ?? [];
  const links = [...(info.vnfVirtualLinkResourceInfo ?? []), ...(info.extManagedVirtualLinkInfo ?? [])];
  const storages = info.virtualStorageResourceInfo ?? [];
  const extLinkPorts = (info.extVirtualLinkInfo ?? []).flatMap((e) => e.extLinkPorts ?? []);
  const cps = vnfcs.flatMap((v) => v.vnfcCpInfo ?? []);
  unique(
    'vnfcResourceInfo',
    vnfcs.map((v) => v.id),
  );
  unique(
    'vnfcCpInfo',
    cps.map((c) => c.id),
  );
  unique(
    'VL',
    links.map((l) => l.id),
  );
  unique(
    'link port',
    links.flatMap((l) => (l.vnfLinkPorts ?? []).map((p) => p.id)),
  );
  unique(
    'storage',
    storages.map((s) => s.id),
  );
  unique(
    'extCpInfo',
    info.extCpInfo.map((c) => c.id),
  );
  unique(
    'extLinkPort',
    extLinkPorts.map((p) => p.id),
  );
  assert.equal(flavour.flavourId, info.flavourId);

  for (const v of vnfcs) {
    const vdu = flavour.vdus.find((d) => d.id === v.vduId);
    assert.ok(vdu, `VNFC ${v.id}: VDU ${v.vduId} is in the flavour`);
    assert.ok(v.computeResource.resourceId, `VNFC ${v.id} has a compute resource`);
    assert.ok(
      v.metadata?.zone && v.metadata.host && v.metadata.flavor,
      `VNFC ${v.id} metadata has zone, host, flavor`,
    );
    assert.equal(v.zoneId, v.metadata?.zone);
    for (const sid of v.storageResourceIds ?? []) {
      const s = storages.find((x) => x.id === sid);
      assert.ok(s, `VNFC ${v.id}: storage ${sid} is in virtualStorageResourceInfo`);
      assert.ok(
        vdu.virtualStorages.includes(s.virtualStorageDescId),
        `storage ${sid} belongs to VDU ${v.vduId}`,
      );
    }
    for (const cp of v.vnfcCpInfo ?? []) {
      const cpd = flavour.vduCps.find((c) => c.id === cp.cpdId);
      assert.ok(cpd && cpd.vdu === v.vduId, `CP ${cp.id}: ${cp.cpdId} is a VduCp of ${v.vduId}`);
      if (cp.vnfLinkPortId) {
        const link = links.find((l) => (l.vnfLinkPorts ?? []).some((p) => p.id === cp.vnfLinkPortId));
        assert.ok(link, `CP ${cp.id}: link port ${cp.vnfLinkPortId} is on a VL`);
        const port = link.vnfLinkPorts?.find((p) => p.id === cp.vnfLinkPortId);
        assert.equal(port?.cpInstanceId, cp.id, `link port ${cp.vnfLinkPortId} points back at CP ${cp.id}`);
        assert.equal(port?.cpInstanceType, 'VNFC_CP');
        assert.equal(link.vnfVirtualLinkDescId, cpd.virtualLink, `CP ${cp.id} is on its VL`);
      }
      if (cp.vnfExtCpId) {
        const ext = info.extCpInfo.find((e) => e.id === cp.vnfExtCpId);
        assert.ok(ext, `CP ${cp.id}: external CP ${cp.vnfExtCpId} exists`);
        assert.equal(ext.associatedVnfcCpId, cp.id);
        assert.equal(ext.cpdId, cp.cpdId);
      }
    }
  }
  for (const s of storages) {
    const owners = vnfcs.filter((v) => (v.storageResourceIds ?? []).includes(s.id));
    assert.equal(owners.length, 1, `storage ${s.id} belongs to exactly one VNFC`);
  }
  for (const l of links) {
    for (const p of l.vnfLinkPorts ?? []) {
      assert.ok(
        cps.some((c) => c.id === p.cpInstanceId && c.vnfLinkPortId === p.id),
        `link port ${p.id} serves a CP`,
      );
    }
  }
  for (const e of info.extCpInfo) {
    if (e.associatedVnfcCpId === undefined) {
      // The VNF's own (a VnfExtCp node): it exposes an internal VL of the VNF.
      const cpd = flavour.extCps.find((c) => c.id === e.cpdId);
      assert.ok(cpd, `ext CP ${e.id}: ${e.cpdId} is a VnfExtCp`);
      const exposed = links.find((l) => l.id === e.associatedVnfVirtualLinkId);
      assert.equal(exposed?.vnfVirtualLinkDescId, cpd.internalVirtualLink, `ext CP ${e.id} exposes its VL`);
    } else {
      assert.ok(
        cps.some((c) => c.id === e.associatedVnfcCpId && c.vnfExtCpId === e.id),
        `ext CP ${e.id} has its VNFC CP`,
      );
    }
    const port = extLinkPorts.find((p) => p.id === e.extLinkPortId);
    assert.ok(port, `ext CP ${e.id}: ext link port ${e.extLinkPortId} exists`);
    assert.equal(port.cpInstanceId, e.id);
  }
  const vnfcInfo = info.vnfcInfo ?? [];
  unique(
    'vnfcInfo',
    vnfcInfo.map((v) => v.id),
  );
  assert.deepEqual(
    vnfcInfo.map((v) => v.vnfcResourceInfoId).sort(),
    vnfcs.map((v) => v.id).sort(),
    'one vnfcInfo per vnfcResourceInfo',
  );
  for (const v of vnfcInfo) {
    assert.equal(v.vduId, vnfcs.find((r) => r.id === v.vnfcResourceInfoId)?.vduId);
  }
}
