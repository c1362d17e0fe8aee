/**
 * LCM API major v1 (SOL002/SOL003 v2.6.1) against the engine's shapes (SOL003 v3.3.1, a superset):
 * v1 requests turned into the engine's request shapes, and the engine's instance records turned
 * into v2.6.1 data for the /vnflcm/v1 views, so a v1 client never sees a v3-only attribute and the
 * engine never sees a v1-only shape. The record shapes the v1 notifications share with the views
 * (resource changes, changedInfo, changedExtConnectivity) are in src/lcm/majors/v1.ts.
 *
 * What differs in v2.6.1:
 * - vimConnectionInfo is an array of entries carrying their `id` (a map keyed by id in v3.3.1);
 *   modify deletes entries with `vimConnectionInfoDeleteIds` (a null in the v3.3.1 merge patch);
 * - VnfExtCpData.cpConfig is an array of VnfExtCpConfig (a map keyed by cpConfigId in v3.3.1);
 * - instantiatedVnfInfo has no vnfcInfo, maxScaleLevels or metadata, vnfcResourceInfo no zoneId
 *   (the zone is in its metadata), extCpInfo no cpConfigId, extVirtualLinkInfo no
 *   currentVnfExtCpData;
 * - resource changes have no affectedExtLinkPorts, affected VNFCs no zoneId, affected VLs no
 *   vnfLinkPortIds; changedInfo has no vnfcInfoModifications;
 * - there is no CHANGE_VNFPKG operation.
 * And where the v2.6.1 schemas differ from v3.3.1 in a name or a cardinality:
 * - an affected VL of a VnfLcmOpOcc names its descriptor `virtualLinkDescId` (v3.3.1:
 *   vnfVirtualLinkDescId, which the v2.6.1 notification schema already uses, so notifications
 *   keep it);
 * - extCpInfo is 1..N: an instance without external CPs leaves it out rather than show [].
 */

import {
  extVirtualLinkInfoV1,
  isObject,
  vimDeletedIds,
  vimListOf,
  without,
} from '../../../../lcm/majors/v1.ts';
import type { Params } from '../../../../lcm/operation-def.ts';
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../../../sol/instance-model.ts';
import { ApiError } from '../../../../sol/problem.ts';

type Json = Record<string, unknown>;

// ------------------------------------------------------------------ requests: v1 → engine

/** A v2.6.1 vimConnectionInfo array as the engine's map (ids must be unique). */
function vimMapOf(list: unknown, where: string): Record<string, Json | null> {
  const out: Record<string, Json | null> = {};
  for (const entry of (list as Json[] | undefined) ?? []) {
    const id = entry.id as string;
    if (id in out) throw new ApiError(400, `${where}: id ${id} appears twice.`);
    out[id] = without(entry, ['id']);
  }
  return out;
}

/** A v2.6.1 cpConfig array as a v3.3.1 map: keyed by cpInstanceId when given, else `<cpdId>_<n>`. */
function cpConfigMapOf(cpdId: string, list: Json[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  list.forEach((config, i) => {
    const base = typeof config.cpInstanceId === 'string' ? config.cpInstanceId : `${cpdId}_${i + 1}`;
    let key = base;
    for (let n = 2; key in out; n++) key = `${base}_${n}`;
    out[key] = config;
  });
  return out;
}

function extVirtualLinksOf(links: unknown): Json[] | undefined {
  if (!Array.isArray(links)) return undefined;
  return (links as Json[]).map((link) => ({
    ...link,
    ...(Array.isArray(link.extCps)
      ? {
          extCps: (link.extCps as Json[]).map((cp) =>
            Array.isArray(cp.cpConfig)
              ? { ...cp, cpConfig: cpConfigMapOf(cp.cpdId as string, cp.cpConfig as Json[]) }
              : cp,
          ),
        }
      : {}),
  }));
}

/**
 * A v1 request body in the engine's shapes: vimConnectionInfo as a map (with the modify request's
 * vimConnectionInfoDeleteIds as nulls) and cpConfig arrays as maps. Everything else is the same in
 * both versions. Throws ApiError 400 for duplicate or contradictory ids.
 */
export function engineRequestOf(request: Params): Params {
  const out: Params = { ...request };
  const deleteIds = request.vimConnectionInfoDeleteIds as string[] | undefined;
  delete out.vimConnectionInfoDeleteIds;
  if (request.vimConnectionInfo !== undefined || deleteIds !== undefined) {
    const map = vimMapOf(request.vimConnectionInfo, 'vimConnectionInfo');
    for (const id of deleteIds ?? []) {
      if (map[id] !== undefined && map[id] !== null) {
        throw new ApiError(
          400,
          `vimConnectionInfo ${id} is both given and listed in vimConnectionInfoDeleteIds.`,
        );
      }
      map[id] = null;
    }
    out.vimConnectionInfo = map;
  }
  const links = extVirtualLinksOf(request.extVirtualLinks);
  if (links) out.extVirtualLinks = links;
  return out;
}

// ------------------------------------------------------------------ records: engine → v1

function extVirtualLinksV1(links: unknown): unknown {
  if (!Array.isArray(links)) return links;
  return (links as Json[]).map((link) =>
    Array.isArray(link.extCps)
      ? {
          ...link,
          extCps: (link.extCps as Json[]).map((cp) =>
            isObject(cp.cpConfig) ? { ...cp, cpConfig: Object.values(cp.cpConfig) } : cp,
          ),
        }
      : link,
  );
}

/** operationParams as the v1 client sent them (v2.6.1 arrays back in place of the engine's maps). */
export function operationParamsV1(params: Params): Params {
  const out: Params = { ...params };
  if (params.vimConnectionInfo !== undefined) {
    const list = vimListOf(params.vimConnectionInfo);
    const deleted = vimDeletedIds(params.vimConnectionInfo);
    // A modify that only deletes was sent with vimConnectionInfoDeleteIds alone.
    if (list.length || !deleted.length) out.vimConnectionInfo = list;
    else delete out.vimConnectionInfo;
    if (deleted.length) out.vimConnectionInfoDeleteIds = deleted;
  }
  if (params.extVirtualLinks !== undefined) out.extVirtualLinks = extVirtualLinksV1(params.extVirtualLinks);
  return out;
}

function vnfcResourceInfoV1(v: VnfcResourceInfo): Json {
  const out = without(v, ['zoneId']);
  if (v.zoneId !== undefined && v.metadata?.zone === undefined) {
    out.metadata = { ...(v.metadata ?? {}), zone: v.zoneId };
  }
  return out;
}

/** SOL003 v2.6.1 InstantiatedVnfInfo. */
export function instantiatedVnfInfoV1(info: InstantiatedVnfInfo): Json {
  const out: Json = {
    flavourId: info.flavourId,
    vnfState: info.vnfState,
  };
  if (info.scaleStatus) {
    out.scaleStatus = info.scaleStatus.map((s) => ({ aspectId: s.aspectId, scaleLevel: s.scaleLevel }));
  }
  if (info.extCpInfo.length) {
    out.extCpInfo = info.extCpInfo.map((cp) => ({
      ...without(cp, ['cpConfigId']),
      cpProtocolInfo: cp.cpProtocolInfo ?? [],
    }));
  }
  if (info.extVirtualLinkInfo) out.extVirtualLinkInfo = info.extVirtualLinkInfo.map(extVirtualLinkInfoV1);
  if (info.extManagedVirtualLinkInfo) {
    out.extManagedVirtualLinkInfo = info.extManagedVirtualLinkInfo.map((l) =>
      without(l, ['extManagedMultisiteVirtualLinkId']),
    );
  }
  if (info.localizationLanguage !== undefined) out.localizationLanguage = info.localizationLanguage;
  if (info.vnfcResourceInfo) out.vnfcResourceInfo = info.vnfcResourceInfo.map(vnfcResourceInfoV1);
  if (info.vnfVirtualLinkResourceInfo) out.vnfVirtualLinkResourceInfo = info.vnfVirtualLinkResourceInfo;
  if (info.virtualStorageResourceInfo) out.virtualStorageResourceInfo = info.virtualStorageResourceInfo;
  return out;
}
