/**
 * LCM API major v1 (SOL002/SOL003 v2.6.1) as the engine's notifications show it, and the v2.6.1
 * shapes of the engine's records (SOL003 v3.3.1, a superset) that both its notifications and its
 * views use (the views, and v1 requests into the engine's shapes: src/http/routes/vnflcm/v1/).
 *
 * What differs in v2.6.1 here: resource changes have no affectedExtLinkPorts, affected VNFCs no
 * zoneId (the zone is in their metadata), affected VLs no vnfLinkPortIds; changedInfo has no
 * vnfcInfoModifications and its vimConnectionInfo is an array of entries carrying their `id` (a
 * map keyed by id in v3.3.1) with deletions as vimConnectionInfoDeleteIds; changedExtConnectivity
 * has no currentVnfExtCpData; notifications have no verbosity, and ROLLED_BACK carries no error.
 * An affected VL of a VnfLcmOpOcc names its descriptor `virtualLinkDescId` (v3.3.1:
 * vnfVirtualLinkDescId, which the v2.6.1 notification schema already uses).
 */

import type {
  AffectedVirtualLink,
  AffectedVirtualStorage,
  AffectedVnfc,
  ExtVirtualLinkInfo,
  ResourceChanges,
} from '../../sol/instance-model.ts';
import type { ChangedInfo } from '../model.ts';
import { type LcmMajorShapes, resultDetails } from './major.ts';

type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Copies `source` without the keys listed (and without undefined values). */
export function without(source: object, keys: readonly string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(source)) if (!keys.includes(k) && v !== undefined) out[k] = v;
  return out;
}

/** A v3.3.1 vimConnectionInfo map as v2.6.1 entries (null entries, i.e. deletions, left out). */
export function vimListOf(map: unknown): Json[] {
  if (!isObject(map)) return [];
  return Object.entries(map)
    .filter(([, e]) => isObject(e))
    .map(([id, e]) => ({ id, ...(e as Json) }));
}

/** Ids a v3.3.1 vimConnectionInfo merge patch deletes (its null entries). */
export const vimDeletedIds = (map: unknown): string[] =>
  isObject(map)
    ? Object.entries(map)
        .filter(([, e]) => e === null)
        .map(([id]) => id)
    : [];

export const extVirtualLinkInfoV1 = (l: ExtVirtualLinkInfo): Json => without(l, ['currentVnfExtCpData']);

function affectedVnfcV1(c: AffectedVnfc): Json {
  const out = without(c, ['zoneId']);
  if (c.zoneId !== undefined && c.metadata?.zone === undefined) {
    out.metadata = { ...(c.metadata ?? {}), zone: c.zoneId };
  }
  return out;
}

/** The name of an affected VL's descriptor id in each v2.6.1 representation that lists them. */
const VL_DESC_ID_NAME = { opOcc: 'virtualLinkDescId', notification: 'vnfVirtualLinkDescId' } as const;

/** Where resource changes are shown: a VnfLcmOpOcc or a VnfLcmOperationOccurrenceNotification. */
export type ResourceChangesIn = keyof typeof VL_DESC_ID_NAME;

function affectedVirtualLinkV1(c: AffectedVirtualLink, where: ResourceChangesIn): Json {
  const { id, vnfVirtualLinkDescId, ...rest } = without(c, ['vnfLinkPortIds']);
  return { id, [VL_DESC_ID_NAME[where]]: vnfVirtualLinkDescId, ...rest };
}

const affectedVirtualStorageV1 = (c: AffectedVirtualStorage): Json => without(c, []);

/** SOL003 v2.6.1 resource changes: the three lists (no affectedExtLinkPorts). */
export function resourceChangesV1(
  changes: ResourceChanges,
  where: ResourceChangesIn,
): {
  affectedVnfcs: Json[];
  affectedVirtualLinks: Json[];
  affectedVirtualStorages: Json[];
} {
  return {
    affectedVnfcs: changes.affectedVnfcs.map(affectedVnfcV1),
    affectedVirtualLinks: changes.affectedVirtualLinks.map((c) => affectedVirtualLinkV1(c, where)),
    affectedVirtualStorages: changes.affectedVirtualStorages.map(affectedVirtualStorageV1),
  };
}

/** SOL003 v2.6.1 VnfInfoModifications: vimConnectionInfo as entries (+ the deleted ids). */
export function changedInfoV1(changed: ChangedInfo): Json {
  const out = without(changed, ['vnfcInfoModifications', 'vimConnectionInfo']);
  if (changed.vimConnectionInfo !== undefined) {
    const list = vimListOf(changed.vimConnectionInfo);
    const deleted = vimDeletedIds(changed.vimConnectionInfo);
    if (list.length) out.vimConnectionInfo = list;
    if (deleted.length) out.vimConnectionInfoDeleteIds = deleted;
  }
  return out;
}

/** SOL003 v2.6.1 changedExtConnectivity (ExtVirtualLinkInfo without currentVnfExtCpData). */
export const changedExtConnectivityV1 = (list: Record<string, unknown>[]): Json[] =>
  list.map((l) => extVirtualLinkInfoV1(l as unknown as ExtVirtualLinkInfo));

/** The v1 declaration: SOL003 v2.6.1 notifications. */
export const v1: LcmMajorShapes = {
  changeFields: [
    'affectedVnfcs',
    'affectedVirtualLinks',
    'affectedVirtualStorages',
    'changedInfo',
    'changedExtConnectivity',
  ],
  errorStates: ['FAILED_TEMP', 'FAILED'],
  verbosity: false,
  details: (opOcc) =>
    resultDetails(opOcc, {
      changes: (c) => resourceChangesV1(c, 'notification'),
      changedInfo: changedInfoV1,
      changedExtConnectivity: changedExtConnectivityV1,
    }),
};
