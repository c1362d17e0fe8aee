/** CHANGE_FLAVOUR: the VNF redeployed in another flavour of its VNFD, at a level of that flavour. */

import { ApiError } from '../../sol/problem.ts';
import type { ChangeFlavourPlan } from '../../vims/contract.ts';
import { mergeRecord } from '../merge-patch.ts';
import type { OperationDef } from '../operation-def.ts';
import { findFlavour, sizeForInstantiation } from '../sizing.ts';
import { checkConnectivity, instantiatePlan, withScale } from './common.ts';

export const changeFlavour: OperationDef = {
  operation: 'CHANGE_FLAVOUR',
  hook: 'change_flavour',
  requires: ['INSTANTIATED'],
  granted: true,
  flavourParam: 'newFlavourId',
  accept(ctx, request) {
    const current = ctx.instance.instantiatedVnfInfo?.flavourId;
    if (request.newFlavourId === current) {
      throw new ApiError(409, `The VNF instance already runs flavour ${current}.`);
    }
    const flavour = findFlavour(ctx.pkg.vnfd, request.newFlavourId as string);
    sizeForInstantiation(flavour, request.instantiationLevelId as string | undefined);
    checkConnectivity(flavour, request);
    return { params: request };
  },
  rollback: () => ({ as: 'CHANGE_FLAVOUR' }),
  plan(ctx) {
    const sizing = sizeForInstantiation(ctx.flavour, ctx.params.instantiationLevelId as string | undefined);
    const { plan: target, planned } = instantiatePlan(ctx, sizing, ctx.params);
    const info = ctx.instance.instantiatedVnfInfo;
    const plan: ChangeFlavourPlan = {
      newFlavourId: ctx.flavour.flavourId,
      ...(sizing.instantiationLevelId ? { instantiationLevelId: sizing.instantiationLevelId } : {}),
      target,
    };
    return {
      ...planned,
      driverPlan: plan,
      delta: {
        ...planned.delta,
        removeVnfcs: (info?.vnfcResourceInfo ?? []).map((v) => v.id),
        removeVirtualLinks: (info?.vnfVirtualLinkResourceInfo ?? []).map((v) => v.id),
      },
    };
  },
  infra: (driver, ctx, plan) => driver.changeFlavour(ctx, plan as ChangeFlavourPlan),
  apply({ instance, params, planned, result, vimConnectionInfo }) {
    const plan = planned.driverPlan as ChangeFlavourPlan;
    return {
      instance: {
        ...instance,
        instantiatedVnfInfo: withScale(result?.instantiatedVnfInfo, plan.target),
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
