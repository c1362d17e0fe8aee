/**
 * What the engine records in an op occ while running it, so that a retry resumes at the step that
 * failed and a rollback compensates exactly the steps that ran (started or done).
 */

import type { HookOutput } from '../drivers/mgmt/hook-contract.ts';
import type { InstantiatedVnfInfo, ResourceChanges } from '../sol/instance-model.ts';
import type { StoredVimConnection } from '../vims/connection-info.ts';
import type { DriverResult } from '../vims/contract.ts';
import type { AcceptFacts, Planned } from './operation-def.ts';

export type StepStatus = 'started' | 'done';

/** What the grant step records: the plan granted and the VIM the operation works with. */
export interface GrantOutput {
  planned: Planned;
  vim: { key: string; stored: Record<string, StoredVimConnection> };
}

/** What a hook step records: the hook's answer, applied when the operation completes. */
export interface HookStepOutput {
  hook: string;
  output: HookOutput;
  durationMs: number;
}

/**
 * The outputs an op occ records, by the step that wrote them (the JSON shape stored in the
 * database). A type rather than an interface so that it reads as a plain record too.
 */
export type StepOutputs = {
  /** Facts found when the request was accepted. */
  accept?: AcceptFacts;
  grant?: GrantOutput;
  'start-hook'?: HookStepOutput;
  infra?: DriverResult;
  'end-hook'?: HookStepOutput;
  /** What the rollback of the infra step undid. */
  'rollback-infra'?: ResourceChanges;
  /** The instantiatedVnfInfo the rollback of the infra step restored, as the VIM shows it. */
  'rollback-info'?: InstantiatedVnfInfo;
};

export interface Progress {
  /** Forward steps by name. */
  steps: Record<string, StepStatus>;
  /** What each step returned (its compensation and later steps read it). */
  outputs: StepOutputs;
  /** Compensations by step name during a rollback. */
  compensated: Record<string, StepStatus>;
  /** Rollback hooks run so far (`<op>_rollback_start` / `_end`). */
  rollbackHooks: Record<string, StepStatus>;
  /** The step that failed last, if any. */
  failedStep?: string;
}

export const emptyProgress = (): Progress => ({ steps: {}, outputs: {}, compensated: {}, rollbackHooks: {} });

export function parseProgress(text: string | null | undefined): Progress {
  if (!text) return emptyProgress();
  return { ...emptyProgress(), ...(JSON.parse(text) as Partial<Progress>) };
}
