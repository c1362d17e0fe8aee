/**
 * SCALE (out or in by steps on one aspect) and SCALE_TO_LEVEL (to an instantiation level or to
 * explicit scale levels, possibly moving several aspects, some in and some out): VNFCs are added
 * for positive deltas and the newest are removed for negative ones, every aspect in one driver
 * call. Only a pure scale-out can be rolled back (a removed VNFC cannot come back).
 */

import { ApiError } from '../../sol/problem.ts';
import type { DriverResult, InfraDriver, OperationContext, ScalePlan } from '../../vims/contract.ts';
import type { AcceptContext, OperationDef, PlanContext, Planned } from '../operation-def.ts';
import { findFlavour, type ScaleSizing, sizeScale, sizeScaleToLevel } from '../sizing.ts';
import { newestVnfcs, newVnfcs, withScale } from './common.ts';

/** The flavour the instance runs, for accept-time checks. */
function flavourOf(ctx: AcceptContext) {
  const flavourId = ctx.instance.instantiatedVnfInfo?.flavourId;
  if (!flavourId) throw new ApiError(409, 'The VNF instance has no flavour: it is not instantiated.');
  return findFlavour(ctx.pkg.vnfd, flavourId);
}

function scalePlan(ctx: PlanContext, sizing: ScaleSizing): Planned {
  const info = ctx.instance.instantiatedVnfInfo;
  const add = Object.entries(sizing.changes)
    .filter(([, n]) => n > 0)
    .flatMap(([vdu, n]) => newVnfcs(ctx.flavour, vdu, n, ctx.newId));
  const remove = Object.entries(sizing.changes)
    .filter(([, n]) => n < 0)
    .flatMap(([vdu, n]) => newestVnfcs(info, vdu, -n));
  const driverPlan: ScalePlan = { aspects: sizing.aspects, add, remove, scaleStatus: sizing.scaleStatus };
  return { driverPlan, delta: { addVnfcs: add, removeVnfcs: remove } };
}

const run = (driver: InfraDriver, ctx: OperationContext, driverPlan: unknown): Promise<DriverResult> =>
  driver.scale(ctx, driverPlan as ScalePlan);

const applyScale: OperationDef['apply'] = ({ instance, planned, result }) => {
  const { scaleStatus } = planned.driverPlan as ScalePlan;
  return {
    instance: { ...instance, instantiatedVnfInfo: withScale(result?.instantiatedVnfInfo, { scaleStatus }) },
  };
};

export const scale: OperationDef = {
  operation: 'SCALE',
  placesServers: true,
  hook: 'scale',
  requires: ['INSTANTIATED'],
  granted: true,
  accept(ctx, request) {
    const params = { ...request, numberOfSteps: request.numberOfSteps ?? 1 };
    sizeScale(flavourOf(ctx), ctx.instance.instantiatedVnfInfo, params as Parameters<typeof sizeScale>[2]);
    return { params };
  },
  rollback: (params) =>
    params.type === 'SCALE_OUT'
      ? { as: 'SCALE_OUT' }
      : { refused: 'removed VNFCs cannot be restored (SCALE_IN)' },
  plan(ctx) {
    const sizing = sizeScale(
      ctx.flavour,
      ctx.instance.instantiatedVnfInfo,
      ctx.params as Parameters<typeof sizeScale>[2],
    );
    return scalePlan(ctx, sizing);
  },
  infra: run,
  apply: applyScale,
};

function toLevelRequest(params: Record<string, unknown>) {
  return params as Parameters<typeof sizeScaleToLevel>[2];
}

export const scaleToLevel: OperationDef = {
  operation: 'SCALE_TO_LEVEL',
  placesServers: true,
  hook: 'scale_to_level',
  requires: ['INSTANTIATED'],
  granted: true,
  accept(ctx, request) {
    if ((request.instantiationLevelId === undefined) === (request.scaleInfo === undefined)) {
      throw new ApiError(400, 'Give exactly one of instantiationLevelId and scaleInfo.');
    }
    const sizing = sizeScaleToLevel(
      flavourOf(ctx),
      ctx.instance.instantiatedVnfInfo,
      toLevelRequest(request),
    );
    // Whether it removes VNFCs decides whether it can be rolled back: record it with the params.
    const scalesIn = Object.values(sizing.changes).some((n) => n < 0);
    return { params: { ...request }, facts: { scalesIn } };
  },
  rollback: (_params, facts) =>
    facts.scalesIn ? { refused: 'it removes VNFCs, which cannot be restored' } : { as: 'SCALE_OUT' },
  plan(ctx) {
    const sizing = sizeScaleToLevel(
      ctx.flavour,
      ctx.instance.instantiatedVnfInfo,
      toLevelRequest(ctx.params),
    );
    const levelId = ctx.params.instantiationLevelId as string | undefined;
    // SOL003: the GrantRequest names the level when the target size is given by one.
    return { ...scalePlan(ctx, sizing), ...(levelId ? { instantiationLevelId: levelId } : {}) };
  },
  infra: run,
  apply: applyScale,
};
