/**
 * SOL003 resourceChanges from two instantiatedVnfInfo: the instance before an operation and
 * after it. Any driver can use it: what changed is what differs, so a retried operation reports
 * the whole change, not just what its last attempt did.
 *
 * - VNFCs (by vnfcResourceInfo id): ADDED, REMOVED, or MODIFIED when the compute resource, a
 *   metadata key the driver reports (whatever the key order; keys a hook wrote, which a driver's
 *   read-back does not carry, are no VIM change), its CPs or storages, or its vnfcState changed
 *   (a healed VNFC keeps its id and gets a new compute resource).
 * - Virtual links (internal and externally managed, by id): ADDED / REMOVED, else
 *   LINK_PORT_ADDED / LINK_PORT_REMOVED entries for their link ports.
 * - Storages (by id): ADDED, REMOVED, or MODIFIED when the storage resource changed.
 * - External link ports (by id, over every external VL): ADDED / REMOVED, MODIFIED when the port
 *   resource, the CP it serves, its external VL, or that CP's addresses or cpConfig changed.
 */

import { canonicalJson } from '../../notify/subscriptions/dedup.ts';
import type {
  AffectedExtLinkPort,
  AffectedVirtualLink,
  AffectedVirtualStorage,
  AffectedVnfc,
  InstantiatedVnfInfo,
  ResourceChanges,
  VnfcCpInfo,
  VnfcResourceInfo,
  VnfLinkPortInfo,
} from '../../sol/instance-model.ts';

const index = <T extends { id: string }>(items: T[] | undefined) =>
  new Map((items ?? []).map((i) => [i.id, i]));
/** Key order aside: the engine keeps hook-written metadata keys ahead of the driver's own. */
const json = (v: unknown) => canonicalJson(v ?? null);

/** Only the keys the driver's read-back holds: a management driver's keys are not the VIM's. */
function metadataChanged(was?: Record<string, unknown>, now?: Record<string, unknown>): boolean {
  return Object.keys(now ?? {}).some((key) => json(was?.[key]) !== json(now?.[key]));
}

function cpKey(cp: VnfcCpInfo): string {
  return json([cp.cpdId, cp.vnfExtCpId, cp.vnfLinkPortId, cp.cpProtocolInfo]);
}

function vnfcChanges(before?: InstantiatedVnfInfo, after?: InstantiatedVnfInfo): AffectedVnfc[] {
  const old = index(before?.vnfcResourceInfo);
  const now = index(after?.vnfcResourceInfo);
  const stateOf = (info: InstantiatedVnfInfo | undefined, id: string) =>
    info?.vnfcInfo?.find((v) => v.vnfcResourceInfoId === id)?.vnfcState;
  const base = (v: VnfcResourceInfo, changeType: AffectedVnfc['changeType']): AffectedVnfc => ({
    id: v.id,
    vduId: v.vduId,
    changeType,
    computeResource: v.computeResource,
    ...(v.zoneId ? { zoneId: v.zoneId } : {}),
    ...(v.metadata ? { metadata: v.metadata } : {}),
  });
  const out: AffectedVnfc[] = [];
  for (const v of now.values()) {
    const was = old.get(v.id);
    if (!was) {
      out.push({
        ...base(v, 'ADDED'),
        affectedVnfcCpIds: (v.vnfcCpInfo ?? []).map((c) => c.id),
        addedStorageResourceIds: v.storageResourceIds ?? [],
      });
      continue;
    }
    const oldCps = new Map((was.vnfcCpInfo ?? []).map((c) => [c.id, cpKey(c)]));
    const newCps = new Map((v.vnfcCpInfo ?? []).map((c) => [c.id, cpKey(c)]));
    const cpIds = [...new Set([...oldCps.keys(), ...newCps.keys()])].filter(
      (id) => oldCps.get(id) !== newCps.get(id),
    );
    const oldStorages = new Set(was.storageResourceIds ?? []);
    const newStorages = new Set(v.storageResourceIds ?? []);
    const added = [...newStorages].filter((s) => !oldStorages.has(s));
    const removed = [...oldStorages].filter((s) => !newStorages.has(s));
    const storageChanged = [...newStorages].some(
      (s) =>
        oldStorages.has(s) &&
        json(before?.virtualStorageResourceInfo?.find((x) => x.id === s)?.storageResource) !==
          json(after?.virtualStorageResourceInfo?.find((x) => x.id === s)?.storageResource),
    );
    const changed =
      json(was.computeResource) !== json(v.computeResource) ||
      metadataChanged(was.metadata, v.metadata) ||
      was.zoneId !== v.zoneId ||
      cpIds.length > 0 ||
      added.length > 0 ||
      removed.length > 0 ||
      storageChanged ||
      stateOf(before, v.id) !== stateOf(after, v.id);
    if (!changed) continue;
    out.push({
      ...base(v, 'MODIFIED'),
      ...(cpIds.length ? { affectedVnfcCpIds: cpIds } : {}),
      ...(added.length ? { addedStorageResourceIds: added } : {}),
      ...(removed.length ? { removedStorageResourceIds: removed } : {}),
    });
  }
  for (const v of old.values()) {
    if (now.has(v.id)) continue;
    out.push({
      ...base(v, 'REMOVED'),
      affectedVnfcCpIds: (v.vnfcCpInfo ?? []).map((c) => c.id),
      removedStorageResourceIds: v.storageResourceIds ?? [],
    });
  }
  return out;
}

interface LinkLike {
  id: string;
  vnfVirtualLinkDescId: string;
  networkResource: AffectedVirtualLink['networkResource'];
  vnfLinkPorts?: VnfLinkPortInfo[];
  metadata?: Record<string, unknown>;
}

const links = (info?: InstantiatedVnfInfo): LinkLike[] => [
  ...(info?.vnfVirtualLinkResourceInfo ?? []),
  ...(info?.extManagedVirtualLinkInfo ?? []),
];

function linkChanges(before?: InstantiatedVnfInfo, after?: InstantiatedVnfInfo): AffectedVirtualLink[] {
  const old = index(links(before));
  const now = index(links(after));
  const entry = (l: LinkLike, changeType: AffectedVirtualLink['changeType'], portIds: string[]) => ({
    id: l.id,
    vnfVirtualLinkDescId: l.vnfVirtualLinkDescId,
    changeType,
    networkResource: l.networkResource,
    ...(portIds.length ? { vnfLinkPortIds: portIds } : {}),
    ...(l.metadata ? { metadata: l.metadata } : {}),
  });
  const portIds = (l?: LinkLike) => (l?.vnfLinkPorts ?? []).map((p) => p.id);
  const out: AffectedVirtualLink[] = [];
  for (const l of now.values()) {
    const was = old.get(l.id);
    if (!was) {
      out.push(entry(l, 'ADDED', portIds(l)));
      continue;
    }
    const oldPorts = new Set(portIds(was));
    const newPorts = new Set(portIds(l));
    const added = [...newPorts].filter((p) => !oldPorts.has(p));
    const removed = [...oldPorts].filter((p) => !newPorts.has(p));
    if (added.length) out.push(entry(l, 'LINK_PORT_ADDED', added));
    if (removed.length) out.push(entry(l, 'LINK_PORT_REMOVED', removed));
  }
  for (const l of old.values()) if (!now.has(l.id)) out.push(entry(l, 'REMOVED', portIds(l)));
  return out;
}

function storageChanges(before?: InstantiatedVnfInfo, after?: InstantiatedVnfInfo): AffectedVirtualStorage[] {
  const old = index(before?.virtualStorageResourceInfo);
  const now = index(after?.virtualStorageResourceInfo);
  const out: AffectedVirtualStorage[] = [];
  const entry = (
    s: NonNullable<InstantiatedVnfInfo['virtualStorageResourceInfo']>[number],
    changeType: AffectedVirtualStorage['changeType'],
  ) => ({
    id: s.id,
    virtualStorageDescId: s.virtualStorageDescId,
    changeType,
    storageResource: s.storageResource,
    ...(s.metadata ? { metadata: s.metadata } : {}),
  });
  for (const s of now.values()) {
    const was = old.get(s.id);
    if (!was) out.push(entry(s, 'ADDED'));
    else if (json(was.storageResource) !== json(s.storageResource)) out.push(entry(s, 'MODIFIED'));
  }
  for (const s of old.values()) if (!now.has(s.id)) out.push(entry(s, 'REMOVED'));
  return out;
}

function extLinkPortChanges(
  before?: InstantiatedVnfInfo,
  after?: InstantiatedVnfInfo,
): AffectedExtLinkPort[] {
  // A port is also MODIFIED when it moved to another external VL or its CP's addresses or
  // cpConfig changed (a port updated in place keeps its id and resource).
  const ports = (info?: InstantiatedVnfInfo) => {
    const cps = index(info?.extCpInfo);
    return new Map(
      (info?.extVirtualLinkInfo ?? []).flatMap((vl) =>
        (vl.extLinkPorts ?? []).map((p) => {
          const cp = cps.get(p.cpInstanceId ?? '');
          return [p.id, { p, key: json([vl.id, p, cp?.cpConfigId, cp?.cpProtocolInfo]) }] as const;
        }),
      ),
    );
  };
  const old = ports(before);
  const now = ports(after);
  const out: AffectedExtLinkPort[] = [];
  for (const { p, key } of now.values()) {
    const was = old.get(p.id);
    const changeType = !was ? 'ADDED' : was.key !== key ? 'MODIFIED' : undefined;
    if (changeType) {
      out.push({
        id: p.id,
        changeType,
        extCpInstanceId: p.cpInstanceId ?? '',
        resourceHandle: p.resourceHandle,
      });
    }
  }
  for (const { p } of old.values()) {
    if (!now.has(p.id)) {
      out.push({
        id: p.id,
        changeType: 'REMOVED',
        extCpInstanceId: p.cpInstanceId ?? '',
        resourceHandle: p.resourceHandle,
      });
    }
  }
  return out;
}

export function resourceChanges(before?: InstantiatedVnfInfo, after?: InstantiatedVnfInfo): ResourceChanges {
  return {
    affectedVnfcs: vnfcChanges(before, after),
    affectedVirtualLinks: linkChanges(before, after),
    affectedVirtualStorages: storageChanges(before, after),
    affectedExtLinkPorts: extLinkPortChanges(before, after),
  };
}
