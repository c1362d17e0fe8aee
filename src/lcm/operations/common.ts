/** Helpers the operation definitions share: new VNFCs for counts, VNFC selection, request checks. */

import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../sol/instance-model.ts';
import { ApiError } from '../../sol/problem.ts';
import type { ExtVirtualLinkData, InstantiatePlan, NewVnfc } from '../../vims/contract.ts';
import type { Flavour } from '../../vnfd/model/vnfd.ts';
import type { Params, PlanContext, Planned } from '../operation-def.ts';
import type { LevelSizing, VduCounts } from '../sizing.ts';

/** `n` new VNFCs of `vduId`, each with a port per VduCp bound to the VDU and a volume per storage. */
export function newVnfcs(flavour: Flavour, vduId: string, n: number, newId: () => string): NewVnfc[] {
  const vdu = flavour.vdus.find((v) => v.id === vduId);
  const cps = flavour.vduCps
    .filter((cp) => cp.vdu === vduId)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((cp) => cp.id);
  return Array.from({ length: n }, () => ({
    id: newId(),
    vduId,
    storages: [...(vdu?.virtualStorages ?? [])],
    cps,
  }));
}

export function vnfcsForCounts(flavour: Flavour, counts: VduCounts, newId: () => string): NewVnfc[] {
  return flavour.vdus.flatMap((vdu) => newVnfcs(flavour, vdu.id, counts[vdu.id] ?? 0, newId));
}

/** VNFCs of `vduId` in the driver's order: newest first (as Tacker lists vnfcResourceInfo). */
export const vnfcsOf = (info: InstantiatedVnfInfo | undefined, vduId: string): VnfcResourceInfo[] =>
  (info?.vnfcResourceInfo ?? []).filter((v) => v.vduId === vduId);

/** The `n` newest VNFCs of `vduId` (scale in removes the newest first, as Tacker). */
export function newestVnfcs(info: InstantiatedVnfInfo | undefined, vduId: string, n: number): string[] {
  return vnfcsOf(info, vduId)
    .slice(0, n)
    .map((v) => v.id);
}

/**
 * SOL002 vnfcInstanceId values (ids of instantiatedVnfInfo.vnfcInfo) → vnfcResourceInfo ids;
 * an unknown id is a 400 naming it.
 */
export function resolveVnfcInstanceIds(
  info: InstantiatedVnfInfo | undefined,
  ids: readonly string[],
): string[] {
  const byId = new Map((info?.vnfcInfo ?? []).map((v) => [v.id, v.vnfcResourceInfoId]));
  const resources = new Set((info?.vnfcResourceInfo ?? []).map((v) => v.id));
  const unknown = ids.filter((id) => !byId.has(id) && !resources.has(id));
  if (unknown.length) {
    throw new ApiError(
      400,
      `vnfcInstanceId ${unknown.join(', ')} is not a VNFC of this VNF instance (see instantiatedVnfInfo.vnfcInfo).`,
    );
  }
  return [...new Set(ids.map((id) => byId.get(id) ?? id))];
}

/**
 * The VnfExtCp nodes the request's external VLs carry: each gets a port of the VNF's own on its
 * external VL (a VnfExtCp exposes an internal VL; VduCps on external VLs get a port per VNFC).
 */
export function vnfExtCps(flavour: Flavour, extVirtualLinks: readonly ExtVirtualLinkData[]): string[] {
  const carried = new Set(
    extVirtualLinks.flatMap((l) => ((l.extCps ?? []) as { cpdId: string }[]).map((c) => c.cpdId)),
  );
  return flavour.extCps.filter((cp) => carried.has(cp.id)).map((cp) => cp.id);
}

/** The InstantiatePlan of a flavour at a sized level, for the instantiate and change-flavour params. */
export function instantiatePlan(
  ctx: PlanContext,
  sizing: LevelSizing,
  params: Params,
): { plan: InstantiatePlan; planned: Omit<Planned, 'driverPlan'> } {
  const { flavour } = ctx;
  const extManaged = (params.extManagedVirtualLinks as Record<string, unknown>[] | undefined) ?? [];
  const managed = new Set(extManaged.map((l) => l.vnfVirtualLinkDescId as string));
  const vnfcs = vnfcsForCounts(flavour, sizing.vduCounts, ctx.newId);
  const virtualLinks = flavour.virtualLinks.map((vl) => vl.id).filter((id) => !managed.has(id));
  const plan: InstantiatePlan = {
    ...(sizing.instantiationLevelId ? { instantiationLevelId: sizing.instantiationLevelId } : {}),
    vnfcs,
    virtualLinks,
    extVirtualLinks: (params.extVirtualLinks as ExtVirtualLinkData[] | undefined) ?? [],
    extManagedVirtualLinks: extManaged,
    scaleStatus: sizing.scaleStatus,
    maxScaleLevels: sizing.maxScaleLevels,
    ...(typeof params.localizationLanguage === 'string'
      ? { localizationLanguage: params.localizationLanguage }
      : {}),
  };
  return {
    plan,
    planned: {
      instantiationLevelId: sizing.instantiationLevelId,
      delta: {
        addVnfcs: vnfcs,
        addVirtualLinks: virtualLinks.map((vl) => ({ id: ctx.newId(), vnfVirtualLinkDescId: vl })),
        addExtCps: vnfExtCps(flavour, plan.extVirtualLinks),
      },
    },
  };
}

/** Every external VL id of a request must be unique; extManagedVirtualLinks must name VLs of the flavour. */
export function checkConnectivity(flavour: Flavour, params: Params): void {
  const ext = (params.extVirtualLinks as { id: string }[] | undefined) ?? [];
  const seen = new Set<string>();
  for (const l of ext) {
    if (seen.has(l.id)) throw new ApiError(400, `extVirtualLinks: id ${l.id} appears twice.`);
    seen.add(l.id);
  }
  const vls = new Set(flavour.virtualLinks.map((v) => v.id));
  for (const l of (params.extManagedVirtualLinks as { vnfVirtualLinkDescId: string }[] | undefined) ?? []) {
    if (!vls.has(l.vnfVirtualLinkDescId)) {
      throw new ApiError(
        400,
        `extManagedVirtualLinks: ${l.vnfVirtualLinkDescId} is not a virtual link of flavour ${flavour.flavourId}.`,
      );
    }
  }
}

export const requireInstantiatedInfo = (info: InstantiatedVnfInfo | undefined): InstantiatedVnfInfo => {
  if (!info) throw new ApiError(409, 'The VNF instance has no instantiatedVnfInfo.');
  return info;
};

/** Fill scaleStatus / maxScaleLevels when a driver left them out. */
export function withScale(
  info: InstantiatedVnfInfo | undefined,
  scale: Pick<InstantiatedVnfInfo, 'scaleStatus' | 'maxScaleLevels'>,
): InstantiatedVnfInfo | undefined {
  if (!info) return info;
  return {
    ...info,
    ...(scale.scaleStatus ? { scaleStatus: scale.scaleStatus } : {}),
    ...(scale.maxScaleLevels ? { maxScaleLevels: scale.maxScaleLevels } : {}),
  };
}
