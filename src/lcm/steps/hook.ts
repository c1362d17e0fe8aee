/**
 * Running a Vnflcm hook of the operation (`<op>_start`, `_end`, `_rollback_start`,
 * `_rollback_end`): what it is given (the instance of its phase, the grant, the VIM connections,
 * what the VIM work changed) and the answer it recorded.
 */
import {
  HOOK_CONTRACT_VERSION,
  type HookVimConnection,
  type HookVnfInstance,
} from '../../drivers/mgmt/hook-contract.ts';
import { findHook, HookError } from '../../drivers/mgmt/hook-runner.ts';
import { openSshSecrets } from '../../drivers/mgmt/ssh/ssh-secrets.ts';
import type { ResourceChanges } from '../../sol/instance-model.ts';
import { ApiError } from '../../sol/problem.ts';
import { splitSecrets } from '../../vims/connection-info.ts';
import { withoutSealed } from '../../vims/request-info.ts';
import { appliedInstance } from '../applied.ts';
import type { ResolvedVim } from '../engine-deps.ts';
import { vnfcAnswerProblem, withHookChanges } from '../hook-changes.ts';
import type { VnfInstanceRecord } from '../model.ts';
import type { HookStepOutput } from '../progress.ts';
import { timelineProgress } from '../timeline/hook-progress.ts';
import { type Run, storedVims } from './run.ts';

/**
 * Which instance a hook sees: `_start` hooks the instance before the operation, `_end` hooks the
 * one the VIM work left (with the start hook's answer), `_rollback_start` the one the failed
 * operation left, `_rollback_end` the one before the operation (what the rollback restores).
 */
export type HookPhase = 'start' | 'end' | 'rollback-start' | 'rollback-end';

function hookPhaseInstance(run: Run, phase: HookPhase): VnfInstanceRecord {
  const infraDone = run.progress.outputs.infra !== undefined;
  if (phase === 'end' || (phase === 'rollback-start' && infraDone)) {
    const after = appliedInstance(run.def, run.instance, run.opOcc, run.progress, run.target).instance;
    return phase === 'end' ? withHookChanges(after, [run.progress.outputs['start-hook']?.output]) : after;
  }
  return run.instance;
}

/**
 * The VIM connections a hook is given: the stored ones without anything sealed, and the one the
 * operation works with completed from the registry, its credentials only when the operator set
 * `vims.<id>.exposeCredentialsToHooks`.
 */
async function hookVims(run: Run): Promise<Record<string, HookVimConnection>> {
  const stored = run.progress.outputs.grant?.vim.stored ?? storedVims(run);
  const out: Record<string, HookVimConnection> = withoutSealed(stored);
  let resolved: ResolvedVim;
  try {
    resolved = await run.deps.vims.resolve(run.instance.projectId, stored);
  } catch (err) {
    if (err instanceof ApiError) return out; // No VIM to describe (e.g. MODIFY_INFO without one).
    throw err;
  }
  const { id, accessInfo, interfaceInfo, ...connection } = resolved.connection;
  const expose = run.deps.config.vims[connection.vimId ?? '']?.exposeCredentialsToHooks === true;
  out[id] = {
    ...connection,
    ...(interfaceInfo ? { interfaceInfo: expose ? interfaceInfo : splitSecrets(interfaceInfo).public } : {}),
    ...(expose && accessInfo ? { accessInfo } : {}),
  };
  return out;
}

/** What the VIM work changed, for all but `_start` hooks: `_rollback_end` hooks get what the rollback undid. */
function hookResourceChanges(run: Run, phase: HookPhase): { resourceChanges?: ResourceChanges } {
  if (phase === 'start') return {};
  const undone = run.progress.outputs['rollback-infra'];
  if (phase === 'rollback-end' && undone) return { resourceChanges: undone };
  const infra = run.progress.outputs.infra;
  return infra ? { resourceChanges: infra.changes } : {};
}

/** The instance as hooks see it: the record without its lock and without sealed credentials. */
function hookInstance(instance: VnfInstanceRecord): HookVnfInstance {
  const { busyOpOccId: _b, ...rest } = instance;
  return { ...rest, vimConnectionInfo: withoutSealed(instance.vimConnectionInfo) };
}

/** Runs `hook` if the flavour declares it; its answer, or undefined when none ran. */
export async function runHook(run: Run, hook: string, phase: HookPhase): Promise<HookStepOutput | undefined> {
  // Nothing to build for a hook the flavour does not declare (most operations of most packages).
  if (!run.flavour || !findHook(run.flavour, hook)) return undefined;
  const change = run.opOcc.operation === 'CHANGE_VNFPKG';
  const vnfInstance = hookInstance(hookPhaseInstance(run, phase));
  const startOutput = phase === 'end' ? run.progress.outputs['start-hook']?.output : undefined;
  const outcome = await run.deps.hooks.run({
    hook,
    flavour: run.flavour,
    vnfPkgId: change ? run.target.id : run.pkg.id,
    signal: run.control.signal,
    progress: timelineProgress(run.timeline, hook),
    // Only a built-in driver (an artifact on the VNFM host) gets the request's SSH secrets.
    ...(findHook(run.flavour, hook)?.artifact?.kind === 'host-path'
      ? {
          secrets: openSshSecrets(run.deps.box, run.progress.outputs.accept?.sshSecrets),
          seal: (plain: string) => run.deps.box.seal(plain),
        }
      : {}),
    input: {
      contractVersion: HOOK_CONTRACT_VERSION,
      operation: hook,
      lcmOperation: run.opOcc.operation,
      vnfLcmOpOccId: run.opOcc.id,
      request: run.opOcc.operationParams,
      vnfInstance,
      ...(run.grantRequest ? { grantRequest: { ...run.grantRequest } } : {}),
      // The grant's VIM connections without their sealed credentials (hooks get them only by policy, below).
      ...(run.grant
        ? {
            grant: {
              ...run.grant,
              ...(run.grant.vimConnectionInfo
                ? { vimConnectionInfo: withoutSealed(run.grant.vimConnectionInfo) }
                : {}),
            },
          }
        : {}),
      vnfd: {
        vnfdId: change ? run.target.vnfdId : run.pkg.vnfdId,
        vnfPkgId: change ? run.target.id : run.pkg.id,
        flavourId: run.flavour.flavourId,
        flavour: run.flavour,
      },
      vimConnectionInfo: await hookVims(run),
      ...hookResourceChanges(run, phase),
      ...(startOutput ? { startHookOutput: startOutput } : {}),
    },
  });
  if (!outcome.ran) return undefined;
  const problem = vnfcAnswerProblem(outcome.output, vnfInstance);
  if (problem) throw new HookError(hook, `Hook ${hook}: ${problem}.`, { hook });
  return { hook, output: outcome.output, durationMs: outcome.durationMs };
}
