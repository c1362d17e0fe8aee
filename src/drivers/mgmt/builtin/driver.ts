/**
 * The interface of Bosun's built-in management drivers: TypeScript modules that run in Bosun's
 * process (not in the sandbox) with one method per Vnflcm hook. A method gets what a package
 * script gets on stdin (the hook contract's input: the request, the instance — post-operation in
 * `_end` hooks —, the grant, the VNFD model, the VIM connections, what the VIM work changed and
 * the start hook's answer), plus the request's opened SSH secrets and the operation's signal,
 * and answers as a script does: metadata to store per instance and per VNFC. It reports its
 * phases and output lines as it goes (`progress`), which the op occ's live timeline shows. A hook
 * the driver does not implement does nothing.
 */
import type { TSchema } from '@sinclair/typebox';
import type { HookInput, HookOutput } from '../hook-contract.ts';
import type { HookProgress } from '../hook-progress.ts';
import type { SshSecrets } from '../ssh/ssh-params.ts';

/** The LCM hooks a built-in driver may implement (`_start`, `_end`, and the rollback hooks). */
export const BUILTIN_HOOK_NAMES = [
  'instantiate_start',
  'instantiate_end',
  'scale_start',
  'scale_end',
  'heal_start',
  'heal_end',
  'terminate_start',
  'terminate_end',
  'change_external_connectivity_start',
  'change_external_connectivity_end',
  'modify_information_start',
  'modify_information_end',
  'change_current_package_start',
  'change_current_package_end',
  'instantiate_rollback_start',
  'instantiate_rollback_end',
  'scale_rollback_start',
  'scale_rollback_end',
  'change_external_connectivity_rollback_start',
  'change_external_connectivity_rollback_end',
  'modify_information_rollback_start',
  'modify_information_rollback_end',
  'change_current_package_rollback_start',
  'change_current_package_rollback_end',
] as const;
export type BuiltinHookName = (typeof BUILTIN_HOOK_NAMES)[number];

export interface BuiltinCall {
  input: HookInput;
  /** The request's `additionalParams.ssh` secrets, opened (they are sealed at rest). */
  secrets: SshSecrets;
  /** Seals a secret the driver keeps in its answer (security.encryptionKey), e.g. a kubeconfig. */
  seal?: (plain: string) => string;
  signal: AbortSignal;
  /** Where the driver reports its phases and output lines as they happen (the op occ's timeline). */
  progress?: HookProgress;
}

export type BuiltinHook = (call: BuiltinCall) => Promise<HookOutput>;

export interface BuiltinDriver {
  /** The name the registry knows it by. */
  name: string;
  /** One line for `bosun` output and the README. */
  description: string;
  /** Its own key of additionalParams and that value's schema, checked when a request is accepted. */
  params?: { key: string; schema: TSchema; check?: (value: unknown) => void };
  hooks: Partial<Record<BuiltinHookName, BuiltinHook>>;
}

/** A built-in driver's failure: its message and facts (host, command, output) go to the op occ's error. */
export class BuiltinDriverError extends Error {
  readonly facts: Record<string, unknown>;
  constructor(message: string, facts: Record<string, unknown> = {}) {
    super(message);
    this.name = 'BuiltinDriverError';
    this.facts = facts;
  }
}
