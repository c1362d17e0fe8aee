/**
 * The infra step: the operation's VIM work through the infra driver of the granted VIM (with
 * zone reselection for operations that place servers). Its compensation is the driver's rollback of what this op occ did (when the operation has one),
 * recording what it undid.
 */

import { serverGroups } from '../../grant/placement.ts';
import type { DriverResult, GrantedResources, InfraDriver, OperationContext } from '../../vims/contract.ts';
import { withZoneReselection } from '../placement/reselection.ts';
import { defineStep } from '../saga/step.ts';
import {
  additionalParams,
  fallbackBestEffort,
  flavourOf,
  type Run,
  vimZones,
  vnfcsAfter,
  vnfdOf,
} from './run.ts';

function grantedResources(run: Run): GrantedResources {
  const grant = run.grant;
  const zoneOf: Record<string, string> = {};
  for (const g of [...(grant?.addResources ?? []), ...(grant?.updateResources ?? [])]) {
    if (g.zoneId) zoneOf[g.resourceDefinitionId] = g.zoneId;
  }
  const softwareImages: Record<string, string> = {};
  for (const i of grant?.vimAssets?.softwareImages ?? [])
    softwareImages[i.vnfdSoftwareImageId] = i.vimSoftwareImageId;
  const computeFlavours: Record<string, string> = {};
  for (const f of grant?.vimAssets?.computeResourceFlavours ?? [])
    computeFlavours[f.vnfdVirtualComputeDescId] = f.vimFlavourId;
  return {
    grantId: grant?.id ?? '',
    zones: (grant?.zones ?? []).map((z) => ({
      id: z.id,
      zoneId: z.zoneId,
      vimConnectionId: z.vimConnectionId,
    })),
    zoneOf,
    softwareImages,
    computeFlavours,
    serverGroups: serverGroups(flavourOf(run).placementRules, vnfcsAfter(run).all, fallbackBestEffort(run)),
  };
}

/** The driver of the VIM the grant step resolved, and what it is told about the operation. */
async function operationContext(run: Run): Promise<{ ctx: OperationContext; driver: InfraDriver }> {
  const resolved = await run.deps.vims.resolve(
    run.instance.projectId,
    run.progress.outputs.grant?.vim.stored ?? {},
  );
  const ctx: OperationContext = {
    vim: resolved.connection,
    instanceId: run.instance.id,
    opOccId: run.opOcc.id,
    current: run.instance.instantiatedVnfInfo,
    grant: grantedResources(run),
    signal: run.control.signal,
    vnfd: vnfdOf(run),
    packageId: run.opOcc.operation === 'CHANGE_VNFPKG' ? run.target.id : run.pkg.id,
    flavourId: flavourOf(run).flavourId,
    additionalParams: additionalParams(run),
  };
  return { ctx, driver: run.deps.vims.driver(resolved.connection.vimType) };
}

async function infra(run: Run): Promise<DriverResult> {
  const work = run.def.infra;
  if (!work) throw new Error(`${run.opOcc.operation} has no VIM work`);
  const { ctx, driver } = await operationContext(run);
  const plan = run.progress.outputs.grant?.planned.driverPlan;
  if (!run.def.placesServers) return work(driver, ctx, plan);
  // Each call reads the grant again: a zone without room is replaced between calls.
  return withZoneReselection(
    run,
    () => vimZones(run, ctx.vim),
    () => work(driver, { ...ctx, grant: grantedResources(run) }, plan),
  );
}

async function undo(run: Run): Promise<void> {
  const decision = run.def.rollback(run.opOcc.operationParams, run.facts);
  if (!('as' in decision)) return;
  const { ctx, driver } = await operationContext(run);
  const result = await driver.rollback(ctx, decision.as);
  run.progress.outputs['rollback-infra'] = result.changes;
  // A VIM may restore with new resources (Kubernetes rolls back to new pods): the record follows.
  if (result.instantiatedVnfInfo) run.progress.outputs['rollback-info'] = result.instantiatedVnfInfo;
}

export const infraStep = defineStep<Run, 'infra'>({ name: 'infra', invoke: infra, compensate: undo });
