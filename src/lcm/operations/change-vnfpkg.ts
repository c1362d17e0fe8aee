/**
 * CHANGE_VNFPKG: the VNF moves to another package's VNFD (same flavour), its VNFCs re-created with
 * the new images and flavours — every VNFC, or those of the VDUs listed in
 * `additionalParams.vdu_params[].vdu_id` (Tacker's RollingUpdate parameters). The target may be
 * the instance's own VNFD: its VNFCs are then re-created from the same package.
 */

import { ApiError } from '../../sol/problem.ts';
import type { ChangeVnfpkgPlan } from '../../vims/contract.ts';
import { mergeRecord } from '../merge-patch.ts';
import type { OperationDef, Params } from '../operation-def.ts';
import { withScale } from './common.ts';

function vduFilter(params: Params): Set<string> | undefined {
  const vduParams = (params.additionalParams as { vdu_params?: { vdu_id?: string }[] } | undefined)
    ?.vdu_params;
  if (!Array.isArray(vduParams)) return undefined;
  return new Set(vduParams.map((p) => p.vdu_id).filter((v): v is string => typeof v === 'string'));
}

export const changeVnfpkg: OperationDef = {
  operation: 'CHANGE_VNFPKG',
  hook: 'change_current_package',
  requires: ['INSTANTIATED'],
  granted: true,
  async accept(ctx, request) {
    // The instance's own vnfdId is accepted (as Tacker does): a rolling re-deploy of the package.
    const vnfdId = request.vnfdId as string;
    const target = await ctx.packageByVnfdId(vnfdId);
    if (target?.onboardingState !== 'ONBOARDED') {
      throw new ApiError(422, `No ONBOARDED VNF package has vnfdId ${vnfdId}.`);
    }
    if (target.operationalState !== 'ENABLED') {
      throw new ApiError(
        422,
        `The VNF package with vnfdId ${vnfdId} is ${target.operationalState}, not ENABLED.`,
      );
    }
    const flavourId = ctx.instance.instantiatedVnfInfo?.flavourId;
    const flavour = target.vnfd.flavours.find((f) => f.flavourId === flavourId);
    if (!flavour) {
      throw new ApiError(
        422,
        `The VNFD ${vnfdId} has no flavour ${flavourId}, the flavour the VNF instance runs.`,
      );
    }
    const vdus = vduFilter(request);
    for (const vdu of vdus ?? []) {
      if (!flavour.vdus.some((v) => v.id === vdu)) {
        throw new ApiError(
          400,
          `additionalParams.vdu_params: VDU ${vdu} is not in flavour ${flavourId} of VNFD ${vnfdId}.`,
        );
      }
    }
    return { params: request, facts: { targetPkgId: target.id } };
  },
  rollback: () => ({ as: 'CHANGE_VNFPKG' }),
  plan(ctx) {
    const vdus = vduFilter(ctx.params);
    const ids = (ctx.instance.instantiatedVnfInfo?.vnfcResourceInfo ?? [])
      .filter((v) => !vdus || vdus.has(v.vduId))
      .map((v) => v.id);
    const plan: ChangeVnfpkgPlan = { vnfdId: ctx.target.vnfdId, vnfd: ctx.target.vnfd, vnfcs: ids };
    return { driverPlan: { ...plan, vnfd: undefined }, delta: { updateVnfcs: ids, withStorage: true } };
  },
  infra: (driver, ctx, plan) => driver.changeVnfpkg(ctx, { ...(plan as ChangeVnfpkgPlan), vnfd: ctx.vnfd }),
  apply({ instance, params, result, target, vimConnectionInfo }) {
    const changedInfo = {
      vnfdId: target.vnfdId,
      vnfProvider: target.vnfProvider,
      vnfProductName: target.vnfProductName,
      vnfSoftwareVersion: target.vnfSoftwareVersion,
      vnfdVersion: target.vnfdVersion,
    };
    return {
      instance: {
        ...instance,
        ...changedInfo,
        vnfPkgId: target.id,
        instantiatedVnfInfo: withScale(result?.instantiatedVnfInfo ?? instance.instantiatedVnfInfo, {}),
        vimConnectionInfo,
        extensions: mergeRecord(instance.extensions, params.extensions),
        vnfConfigurableProperties: mergeRecord(
          instance.vnfConfigurableProperties,
          params.vnfConfigurableProperties,
        ),
      },
      changedInfo,
    };
  },
};
