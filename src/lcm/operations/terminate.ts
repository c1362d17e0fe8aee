/** TERMINATE: INSTANTIATED → NOT_INSTANTIATED; every VNFC, internal VL and external CP port is removed. */
import type { TerminatePlan } from '../../vims/contract.ts';
import type { OperationDef } from '../operation-def.ts';

export const terminate: OperationDef = {
  operation: 'TERMINATE',
  hook: 'terminate',
  requires: ['INSTANTIATED'],
  granted: true,
  accept: (ctx, request) => ({
    params:
      request.terminationType === 'GRACEFUL' && request.gracefulTerminationTimeout === undefined
        ? { ...request, gracefulTerminationTimeout: ctx.config.lcm.defaultGracefulTerminationTimeout }
        : request,
  }),
  rollback: () => ({ refused: 'a terminated VNF cannot be restored' }),
  plan(ctx) {
    const info = ctx.instance.instantiatedVnfInfo;
    const plan: TerminatePlan = {
      terminationType: ctx.params.terminationType as TerminatePlan['terminationType'],
      ...(ctx.params.gracefulTerminationTimeout !== undefined
        ? { gracefulTerminationTimeout: ctx.params.gracefulTerminationTimeout as number }
        : {}),
    };
    return {
      driverPlan: plan,
      delta: {
        removeVnfcs: (info?.vnfcResourceInfo ?? []).map((v) => v.id),
        removeVirtualLinks: (info?.vnfVirtualLinkResourceInfo ?? []).map((v) => v.id),
        removeExtCps: (info?.extCpInfo ?? []).filter((cp) => !cp.associatedVnfcCpId).map((cp) => cp.id),
      },
    };
  },
  infra: (driver, ctx, plan) => driver.terminate(ctx, plan as TerminatePlan),
  apply: ({ instance }) => ({
    instance: {
      ...instance,
      instantiationState: 'NOT_INSTANTIATED',
      instantiatedVnfInfo: undefined,
      vimConnectionInfo: {},
    },
  }),
};
