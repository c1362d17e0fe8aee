/**
 * Running a hook of a built-in driver: the driver the host-path artifact names (registry.ts),
 * its method for the hook (none: nothing to do), its answer checked against the hook contract as
 * a script's is. Its failures become the hook's error, with the facts the driver gave (node,
 * command, output) for the op occ.
 */
import type { HookInput, HookOutput } from '../hook-contract.ts';
import { checkHookOutput } from '../hook-output.ts';
import { type HookProgress, NO_PROGRESS } from '../hook-progress.ts';
import type { SshSecrets } from '../ssh/ssh-params.ts';
import { BuiltinDriverError, type BuiltinHookName } from './driver.ts';
import { type BuiltinLookup, builtinFor } from './registry.ts';

/** Text kept of each fact in the op occ's error (the tail: where a command's failure shows). */
const EXCERPT = 2048;

const excerpts = (facts: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(facts).map(([k, v]) => [
      k,
      typeof v === 'string' && v.length > EXCERPT ? `…${v.slice(-EXCERPT)}` : v,
    ]),
  );

export class BuiltinHookError extends Error {
  readonly facts: Record<string, unknown>;
  constructor(message: string, facts: Record<string, unknown>) {
    super(message);
    this.name = 'BuiltinHookError';
    this.facts = facts;
  }
}

export async function runBuiltinHook(call: {
  hook: string;
  path: string;
  input: HookInput;
  secrets: SshSecrets;
  seal?: (plain: string) => string;
  signal: AbortSignal;
  progress?: HookProgress;
  /** Which driver the path names (the registry's table; a test may give its own). */
  lookup?: (path: string) => BuiltinLookup;
}): Promise<HookOutput> {
  const found = (call.lookup ?? builtinFor)(call.path);
  const facts = { hook: call.hook, artifact: call.path };
  if ('unknown' in found) throw new BuiltinHookError(`Hook ${call.hook}: ${found.unknown}.`, facts);
  const driver = found.driver;
  const method = driver.hooks[call.hook as BuiltinHookName];
  if (!method) return {};
  const named = { ...facts, driver: driver.name };
  let output: HookOutput;
  try {
    output = await method({
      input: call.input,
      secrets: call.secrets,
      signal: call.signal,
      progress: call.progress ?? NO_PROGRESS,
      ...(call.seal ? { seal: call.seal } : {}),
    });
  } catch (err) {
    if (err instanceof BuiltinDriverError)
      throw new BuiltinHookError(`Hook ${call.hook} (built-in driver ${driver.name}): ${err.message}`, {
        ...named,
        ...excerpts(err.facts),
      });
    throw err;
  }
  const checked = checkHookOutput(output);
  if ('problem' in checked)
    throw new BuiltinHookError(
      `Hook ${call.hook} (built-in driver ${driver.name}): ${checked.problem}.`,
      named,
    );
  return checked.output;
}
