/**
 * HEAL: SOL002 with vnfcInstanceId (those VNFCs), SOL003 without (the whole VNF). The healed
 * VNFCs are re-created in place (updateResources in the grant); `additionalParams.all: true`
 * re-creates their storages too. A heal cannot be rolled back.
 */

import { ApiError } from '../../sol/problem.ts';
import type { HealPlan } from '../../vims/contract.ts';
import type { OperationDef, Params } from '../operation-def.ts';
import { resolveVnfcInstanceIds } from './common.ts';

const includeStorage = (params: Params) =>
  (params.additionalParams as { all?: unknown } | undefined)?.all === true;

export const heal: OperationDef = {
  operation: 'HEAL',
  placesServers: true,
  hook: 'heal',
  requires: ['INSTANTIATED'],
  granted: true,
  accept(ctx, request) {
    const all = (request.additionalParams as { all?: unknown } | undefined)?.all;
    if (all !== undefined && typeof all !== 'boolean') {
      throw new ApiError(400, 'additionalParams.all must be a boolean.');
    }
    if (Array.isArray(request.vnfcInstanceId)) {
      if (request.vnfcInstanceId.length === 0)
        throw new ApiError(
          400,
          'vnfcInstanceId is empty: name the VNFCs to heal, or leave it out to heal the whole VNF.',
        );
      resolveVnfcInstanceIds(ctx.instance.instantiatedVnfInfo, request.vnfcInstanceId as string[]);
    }
    return { params: request };
  },
  rollback: () => ({ refused: 'a healed VNFC cannot be un-healed' }),
  plan(ctx) {
    const info = ctx.instance.instantiatedVnfInfo;
    const ids = Array.isArray(ctx.params.vnfcInstanceId)
      ? resolveVnfcInstanceIds(info, ctx.params.vnfcInstanceId as string[])
      : (info?.vnfcResourceInfo ?? []).map((v) => v.id);
    const plan: HealPlan = {
      vnfcs: ids,
      includeStorage: includeStorage(ctx.params),
      ...(typeof ctx.params.cause === 'string' ? { cause: ctx.params.cause } : {}),
    };
    return { driverPlan: plan, delta: { updateVnfcs: ids, withStorage: plan.includeStorage } };
  },
  infra: (driver, ctx, plan) => driver.heal(ctx, plan as HealPlan),
  apply: ({ instance, result }) => ({
    instance: {
      ...instance,
      instantiatedVnfInfo: result?.instantiatedVnfInfo ?? instance.instantiatedVnfInfo,
    },
  }),
};
