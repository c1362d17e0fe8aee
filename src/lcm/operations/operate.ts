/** OPERATE: start or stop the VNF (or, SOL002, some of its VNFCs). Cannot be rolled back. */

import { ApiError } from '../../sol/problem.ts';
import type { OperatePlan } from '../../vims/contract.ts';
import type { OperationDef } from '../operation-def.ts';
import { resolveVnfcInstanceIds } from './common.ts';

export const operate: OperationDef = {
  operation: 'OPERATE',
  hook: 'operate',
  requires: ['INSTANTIATED'],
  granted: true,
  accept(ctx, request) {
    const info = ctx.instance.instantiatedVnfInfo;
    const ids = Array.isArray(request.vnfcInstanceId) ? (request.vnfcInstanceId as string[]) : [];
    if (ids.length) resolveVnfcInstanceIds(info, ids);
    else if (info && info.vnfState === request.changeStateTo) {
      throw new ApiError(409, `The VNF instance is already ${info.vnfState}.`);
    }
    if (
      request.changeStateTo === 'STARTED' &&
      (request.stopType !== undefined || request.gracefulStopTimeout !== undefined)
    ) {
      throw new ApiError(400, 'stopType and gracefulStopTimeout only apply when changeStateTo is STOPPED.');
    }
    return { params: request };
  },
  rollback: () => ({ refused: 'OPERATE changes the running state only; operate again instead' }),
  plan(ctx) {
    const info = ctx.instance.instantiatedVnfInfo;
    const ids = Array.isArray(ctx.params.vnfcInstanceId)
      ? resolveVnfcInstanceIds(info, ctx.params.vnfcInstanceId as string[])
      : [];
    const plan: OperatePlan = {
      changeStateTo: ctx.params.changeStateTo as OperatePlan['changeStateTo'],
      ...(ctx.params.stopType ? { stopType: ctx.params.stopType as OperatePlan['stopType'] } : {}),
      ...(ctx.params.gracefulStopTimeout !== undefined
        ? { gracefulStopTimeout: ctx.params.gracefulStopTimeout as number }
        : {}),
      vnfcs: ids,
    };
    const updated = ids.length ? ids : (info?.vnfcResourceInfo ?? []).map((v) => v.id);
    return { driverPlan: plan, delta: { updateVnfcs: updated } };
  },
  infra: (driver, ctx, plan) => driver.operate(ctx, plan as OperatePlan),
  apply: ({ instance, result }) => ({
    instance: {
      ...instance,
      instantiatedVnfInfo: result?.instantiatedVnfInfo ?? instance.instantiatedVnfInfo,
    },
  }),
};
