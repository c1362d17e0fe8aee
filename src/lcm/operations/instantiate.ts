/** INSTANTIATE: NOT_INSTANTIATED → INSTANTIATED at the requested (or default) instantiation level. */
import type { InstantiatePlan } from '../../vims/contract.ts';
import { mergeRecord } from '../merge-patch.ts';
import type { OperationDef } from '../operation-def.ts';
import { findFlavour, sizeForInstantiation } from '../sizing.ts';
import { checkConnectivity, instantiatePlan, withScale } from './common.ts';

export const instantiate: OperationDef = {
  operation: 'INSTANTIATE',
  placesServers: true,
  hook: 'instantiate',
  requires: ['NOT_INSTANTIATED'],
  granted: true,
  flavourParam: 'flavourId',
  accept(ctx, request) {
    const flavour = findFlavour(ctx.pkg.vnfd, request.flavourId as string);
    sizeForInstantiation(flavour, request.instantiationLevelId as string | undefined);
    checkConnectivity(flavour, request);
    return { params: request };
  },
  rollback: () => ({ as: 'INSTANTIATE' }),
  plan(ctx) {
    const sizing = sizeForInstantiation(ctx.flavour, ctx.params.instantiationLevelId as string | undefined);
    const { plan, planned } = instantiatePlan(ctx, sizing, ctx.params);
    return { ...planned, driverPlan: plan };
  },
  infra: (driver, ctx, plan) => driver.instantiate(ctx, plan as InstantiatePlan),
  apply({ instance, params, planned, result, vimConnectionInfo }) {
    const plan = planned.driverPlan as InstantiatePlan;
    return {
      instance: {
        ...instance,
        instantiationState: 'INSTANTIATED',
        instantiatedVnfInfo: withScale(result?.instantiatedVnfInfo, plan),
        vimConnectionInfo,
        extensions: mergeRecord(instance.extensions, params.extensions),
        vnfConfigurableProperties: mergeRecord(
          instance.vnfConfigurableProperties,
          params.vnfConfigurableProperties,
        ),
      },
    };
  },
};
