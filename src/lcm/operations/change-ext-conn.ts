/** CHANGE_EXT_CONN: the VNF's external CPs re-connected to the given external VLs. */

import type { InstantiatedVnfInfo } from '../../sol/instance-model.ts';
import type { ChangeExtConnPlan, ExtVirtualLinkData } from '../../vims/contract.ts';
import type { OperationDef } from '../operation-def.ts';
import { checkConnectivity, vnfExtCps } from './common.ts';

/** VduCp / ext CP node names a request's external VLs connect. */
function cpdIdsOf(links: ExtVirtualLinkData[]): Set<string> {
  const ids = new Set<string>();
  for (const l of links)
    for (const cp of (l.extCps as { cpdId?: string }[] | undefined) ?? []) if (cp.cpdId) ids.add(cp.cpdId);
  return ids;
}

type ExtCp = {
  cpdId: string;
  cpConfig?: Record<string, { linkPortId?: string }> | { linkPortId?: string }[];
};

/**
 * The VNF's own external CPs (VnfExtCp nodes) the request gives a new port: those not on the
 * network of their new external VL yet, or whose port the NFVO supplies. One already on that
 * network keeps its port (the simulated VIM, like Neutron, updates it in place).
 */
function replacedVnfExtCps(
  info: InstantiatedVnfInfo | undefined,
  cpdIds: string[],
  links: ExtVirtualLinkData[],
) {
  const networkOfPort = new Map(
    (info?.extVirtualLinkInfo ?? []).flatMap((vl) =>
      (vl.extLinkPorts ?? []).map((p) => [p.cpInstanceId, vl.resourceHandle.resourceId] as const),
    ),
  );
  const networkOfCp = new Map(
    (info?.extCpInfo ?? [])
      .filter((cp) => !cp.associatedVnfcCpId)
      .map((cp) => [cp.cpdId, networkOfPort.get(cp.id)]),
  );
  return cpdIds.filter((cpdId) => {
    const link = links.find((l) => ((l.extCps ?? []) as ExtCp[]).some((c) => c.cpdId === cpdId));
    const cp = ((link?.extCps ?? []) as ExtCp[]).find((c) => c.cpdId === cpdId);
    const supplied = Object.values(cp?.cpConfig ?? {}).some((c) => c?.linkPortId);
    return supplied || networkOfCp.get(cpdId) !== link?.resourceId;
  });
}

export const changeExtConn: OperationDef = {
  operation: 'CHANGE_EXT_CONN',
  hook: 'change_external_connectivity',
  requires: ['INSTANTIATED'],
  granted: true,
  accept(ctx, request) {
    const flavourId = ctx.instance.instantiatedVnfInfo?.flavourId;
    const flavour = ctx.pkg.vnfd.flavours.find((f) => f.flavourId === flavourId);
    if (flavour) checkConnectivity(flavour, request);
    return { params: request };
  },
  rollback: () => ({ as: 'CHANGE_EXT_CONN' }),
  plan(ctx) {
    const links = (ctx.params.extVirtualLinks as ExtVirtualLinkData[] | undefined) ?? [];
    const cpds = cpdIdsOf(links);
    const touched = (ctx.instance.instantiatedVnfInfo?.vnfcResourceInfo ?? [])
      .filter((v) => (v.vnfcCpInfo ?? []).some((cp) => cpds.has(cp.cpdId)))
      .map((v) => v.id);
    // The VNF's own external CPs (VnfExtCp nodes) that change network get a new port; their old one goes.
    const moved = replacedVnfExtCps(ctx.instance.instantiatedVnfInfo, vnfExtCps(ctx.flavour, links), links);
    const plan: ChangeExtConnPlan = { extVirtualLinks: links };
    return {
      driverPlan: plan,
      delta: {
        updateVnfcs: touched,
        addExtCps: moved,
        removeExtCps: (ctx.instance.instantiatedVnfInfo?.extCpInfo ?? [])
          .filter((cp) => !cp.associatedVnfcCpId && moved.includes(cp.cpdId))
          .map((cp) => cp.id),
      },
    };
  },
  infra: (driver, ctx, plan) => driver.changeExtConn(ctx, plan as ChangeExtConnPlan),
  apply({ instance, params, result, vimConnectionInfo }) {
    const info = result?.instantiatedVnfInfo ?? instance.instantiatedVnfInfo;
    // The external VLs the request gave, and every other one whose information changed (one a CP
    // left, e.g.); one left with no CP is gone from extVirtualLinkInfo and cannot be shown.
    const ids = new Set(((params.extVirtualLinks as { id: string }[] | undefined) ?? []).map((l) => l.id));
    const was = new Map(
      (instance.instantiatedVnfInfo?.extVirtualLinkInfo ?? []).map((l) => [l.id, JSON.stringify(l)]),
    );
    const changed = (info?.extVirtualLinkInfo ?? []).filter(
      (l) => ids.has(l.id) || was.get(l.id) !== JSON.stringify(l),
    ) as unknown as Record<string, unknown>[];
    return {
      instance: { ...instance, instantiatedVnfInfo: info, vimConnectionInfo },
      changedExtConnectivity: changed,
    };
  },
};
