/**
 * The grant step: plans the operation, resolves the VIM it works with and asks the NFVO for the
 * resources. Finishing it enters PROCESSING (a grant made again while PROCESSING is only recorded),
 * holding the VIM in the same transaction. It has no compensation: a grant is not given back.
 */
import { randomUUID } from 'node:crypto';
import { buildGrantRequest } from '../../grant/grant-request.ts';
import { holdVims, VimVanished } from '../../vims/hold.ts';
import { LeaseLost } from '../errors.ts';
import type { GrantOutput } from '../progress.ts';
import { defineStep } from '../saga/step.ts';
import { transition } from '../transition.ts';
import { grantedVims } from './granted-vim.ts';
import {
  additionalParams,
  fallbackBestEffort,
  flavourOf,
  type Run,
  storedVims,
  vimZones,
  vnfcZone,
} from './run.ts';

async function grant(run: Run): Promise<GrantOutput> {
  const { deps, instance, opOcc } = run;
  const flavour = flavourOf(run);
  if (!run.def.plan) throw new Error(`${opOcc.operation} has no plan to grant`);
  const current = storedVims(run);
  const resolved = await deps.vims.resolve(instance.projectId, current);
  const planned = run.def.plan({
    instance,
    params: opOcc.operationParams,
    pkg: run.pkg,
    target: run.target,
    flavour,
    newId: randomUUID,
  });
  const request = buildGrantRequest({
    vnfInstanceId: instance.id,
    vnfLcmOpOccId: opOcc.id,
    vnfdId: instance.vnfdId,
    ...(run.target.vnfdId !== instance.vnfdId ? { dstVnfdId: run.target.vnfdId } : {}),
    flavour,
    operation: opOcc.operation,
    isAutomaticInvocation: opOcc.isAutomaticInvocation,
    instantiationLevelId: planned.instantiationLevelId,
    current: instance.instantiatedVnfInfo,
    delta: planned.delta,
    additionalParams: additionalParams(run),
    fallbackBestEffort: fallbackBestEffort(run),
    links: { vnfLcmOpOcc: run.links.opOcc(opOcc.id), vnfInstance: run.links.instance(instance.id) },
  });
  const existingZones: Record<string, string> = {};
  for (const v of instance.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
    const zone = vnfcZone(v);
    if (zone) existingZones[v.computeResource.resourceId] = zone;
  }
  const granted = await deps.nfvo.grant(request, {
    project: instance.projectId,
    vim: {
      connectionId: resolved.key,
      vimId: resolved.connection.vimId,
      vimType: resolved.connection.vimType,
    },
    zones: await vimZones(run, resolved.connection),
    existingZones,
    flavour,
    grantsPath: run.links.grants,
    signal: run.control.signal,
  });
  const notes = granted.additionalParams?.placementNotes;
  if (Array.isArray(notes) && notes.length) {
    deps.logger.warn({ vnfLcmOpOccId: opOcc.id, notes }, 'placement rules broken (best effort)');
  }
  run.grantRequest = request;
  run.grant = granted;
  const named = grantedVims(granted, resolved.key, current);
  if (!named) return { planned, vim: { key: resolved.key, stored: resolved.stored } };
  // The grant's VIM must resolve (registered, or given with its access info) before it is recorded.
  const vim = await deps.vims.resolve(instance.projectId, named.stored);
  return { planned, vim: { key: vim.key, stored: vim.stored } };
}

/** The grant is in: record it and enter PROCESSING (a grant made again while PROCESSING is only recorded). */
async function enterProcessing(run: Run): Promise<void> {
  const starting = run.opOcc.operationState === 'STARTING';
  const { db } = run.deps;
  const stored = run.progress.outputs.grant?.vim.stored ?? {};
  let done: Awaited<ReturnType<typeof transition>>;
  // The grant step's events come before the state it leads to.
  await run.timeline.flush();
  try {
    done = await transition(db, run.store, {
      opOccId: run.opOcc.id,
      from: [run.opOcc.operationState],
      owner: run.owner,
      change: {
        ...(starting ? { operationState: 'PROCESSING' as const } : {}),
        progress: run.progress,
        grantId: run.grant?.id ?? null,
        grantRequest: run.grantRequest ?? null,
        grant: run.grant ?? null,
      },
      // The resolved VIM is recorded only while it is registered (a concurrent delete waits or wins).
      also: (trx) => holdVims(trx, db.dialect, stored),
    });
  } catch (err) {
    // Nothing was recorded: the grant step did not happen (a retry resolves the VIM again).
    if (err instanceof VimVanished) {
      delete run.progress.steps.grant;
      delete run.progress.outputs.grant;
    }
    throw err;
  }
  if (!done) throw new LeaseLost();
  run.opOcc = done.opOcc;
  if (done.opOcc.isCancelPending) run.cancelMode = done.opOcc.cancelMode ?? 'GRACEFUL';
}

export const grantStep = defineStep<Run, 'grant'>({ name: 'grant', invoke: grant, record: enterProcessing });
