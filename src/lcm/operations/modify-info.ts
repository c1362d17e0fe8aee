/**
 * MODIFY_INFO (PATCH on the instance): names, description, vnfdId, and JSON-merge-patched
 * vnfConfigurableProperties, metadata, extensions and vimConnectionInfo; vnfcInfoModifications
 * set VNFC configurable properties. No grant; hooks only when the VNF is instantiated. Nothing is
 * written before the end, so a rollback has nothing to undo.
 */

import type { VnfcInfo } from '../../sol/instance-model.ts';
import { ApiError } from '../../sol/problem.ts';
import type { StoredVimConnection } from '../../vims/connection-info.ts';
import { mergeRecord } from '../merge-patch.ts';
import type { ChangedInfo } from '../model.ts';
import type { AcceptFacts, OperationDef } from '../operation-def.ts';

type VnfcModification = { id: string; vnfcConfigurableProperties: Record<string, unknown> };

export const modifyInfo: OperationDef = {
  operation: 'MODIFY_INFO',
  hook: 'modify_information',
  requires: ['NOT_INSTANTIATED', 'INSTANTIATED'],
  granted: false,
  async accept(ctx, request) {
    const { instance } = ctx;
    if (request.vimConnectionInfo !== undefined && instance.instantiationState === 'NOT_INSTANTIATED') {
      throw new ApiError(
        400,
        'vimConnectionInfo can only be modified once the VNF instance is INSTANTIATED (instantiate gives it).',
      );
    }
    const mods = (request.vnfcInfoModifications as VnfcModification[] | undefined) ?? [];
    if (mods.length) {
      const known = new Set((instance.instantiatedVnfInfo?.vnfcInfo ?? []).map((v) => v.id));
      const unknown = mods.map((m) => m.id).filter((id) => !known.has(id));
      if (unknown.length) {
        throw new ApiError(
          400,
          `vnfcInfoModifications: ${unknown.join(', ')} is not a VNFC of this VNF instance (see instantiatedVnfInfo.vnfcInfo).`,
        );
      }
    }
    let facts: AcceptFacts = {};
    if (typeof request.vnfdId === 'string' && request.vnfdId !== instance.vnfdId) {
      const target = await ctx.packageByVnfdId(request.vnfdId);
      if (target?.onboardingState !== 'ONBOARDED') {
        throw new ApiError(422, `No ONBOARDED VNF package has vnfdId ${request.vnfdId}.`);
      }
      if (target.operationalState !== 'ENABLED') {
        throw new ApiError(
          422,
          `The VNF package with vnfdId ${request.vnfdId} is ${target.operationalState}, not ENABLED.`,
        );
      }
      facts = { targetPkgId: target.id };
    }
    return { params: request, facts };
  },
  rollback: () => ({ none: true }),
  apply({ instance, params, target, vimConnectionInfo }) {
    const changed: ChangedInfo = {};
    const next = { ...instance };
    if (params.vnfInstanceName !== undefined)
      next.vnfInstanceName = changed.vnfInstanceName = params.vnfInstanceName as string;
    if (params.vnfInstanceDescription !== undefined) {
      next.vnfInstanceDescription = changed.vnfInstanceDescription = params.vnfInstanceDescription as string;
    }
    for (const key of ['vnfConfigurableProperties', 'metadata', 'extensions'] as const) {
      if (params[key] === undefined) continue;
      next[key] = mergeRecord(instance[key], params[key]);
      changed[key] = params[key] as Record<string, unknown>;
    }
    if (params.vimConnectionInfo !== undefined) {
      next.vimConnectionInfo = vimConnectionInfo as Record<string, StoredVimConnection>;
      changed.vimConnectionInfo = params.vimConnectionInfo as Record<string, unknown>;
    }
    if (target.vnfdId !== instance.vnfdId) {
      Object.assign(changed, {
        vnfdId: target.vnfdId,
        vnfProvider: target.vnfProvider,
        vnfProductName: target.vnfProductName,
        vnfSoftwareVersion: target.vnfSoftwareVersion,
        vnfdVersion: target.vnfdVersion,
      });
      Object.assign(next, {
        vnfdId: target.vnfdId,
        vnfPkgId: target.id,
        vnfProvider: target.vnfProvider,
        vnfProductName: target.vnfProductName,
        vnfSoftwareVersion: target.vnfSoftwareVersion,
        vnfdVersion: target.vnfdVersion,
      });
    }
    const mods = (params.vnfcInfoModifications as VnfcModification[] | undefined) ?? [];
    if (mods.length && next.instantiatedVnfInfo) {
      const byId = new Map(mods.map((m) => [m.id, m]));
      next.instantiatedVnfInfo = {
        ...next.instantiatedVnfInfo,
        vnfcInfo: (next.instantiatedVnfInfo.vnfcInfo ?? []).map((v): VnfcInfo => {
          const m = byId.get(v.id);
          return m
            ? {
                ...v,
                vnfcConfigurableProperties: mergeRecord(
                  v.vnfcConfigurableProperties ?? {},
                  m.vnfcConfigurableProperties,
                ),
              }
            : v;
        }),
      };
      changed.vnfcInfoModifications = mods;
    }
    return { instance: next, changedInfo: changed };
  },
};
