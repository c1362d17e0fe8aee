/** CHANGE_EXT_CONN: the VNF's external CPs re-connected to the given external VLs. */
import type { ChangeExtConnPlan, ExtVirtualLinkData } from '../../drivers/infra/contract.ts';
import type { OperationDef } from '../operation-def.ts';
import { checkConnectivity, vnfExtCps } from './common.ts';

/** VduCp / ext CP node names a request's external VLs connect. */
function cpdIdsOf(links: ExtVirtualLinkData[]): Set<string> {
  const ids = new Set<string>();
  for (const l of links)
    for (const cp of (l.extCps as { cpdId?: string }[] | undefined) ?? []) if (cp.cpdId) ids.add(cp.cpdId);
  return ids;
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
    // The VNF's own external CPs (VnfExtCp nodes) that move get a new port; their old one goes.
    const moved = vnfExtCps(ctx.flavour, links);
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
    const ids = new Set(((params.extVirtualLinks as { id: string }[] | undefined) ?? []).map((l) => l.id));
    const changed = (info?.extVirtualLinkInfo ?? []).filter((l) => ids.has(l.id)) as unknown as Record<
      string,
      unknown
    >[];
    return {
      instance: { ...instance, instantiatedVnfInfo: info, vimConnectionInfo },
      changedExtConnectivity: changed,
    };
  },
};
