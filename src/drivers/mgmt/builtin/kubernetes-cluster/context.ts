/**
 * What every phase of the Kubernetes-cluster driver works with: its settings, the SSH parameters
 * and secrets, the operation's signal, the host keys seen on this run (pinned in the answer), the
 * log of the commands it ran (shown in the op occ when a command fails), and the SSH sessions it
 * opened — one per node for the whole hook, closed when the hook ends (`closing`).
 */
import type { HookOutput } from '../../hook-contract.ts';
import type { SshParams } from '../../ssh/ssh-params.ts';
import { checkSshParams } from '../../ssh/ssh-params.ts';
import type { SshSession } from '../../ssh/ssh-session.ts';
import { type BuiltinCall, BuiltinDriverError, type BuiltinHook } from '../driver.ts';
import {
  type ClusterSettings,
  checkK8sParams,
  K8S_PARAMS_KEY,
  type K8sClusterParams,
  settingsOf,
} from './params.ts';

export interface DriverContext {
  call: BuiltinCall;
  settings: ClusterSettings;
  ssh: SshParams;
  /** Address → host-key fingerprint seen on this run. */
  seenKeys: Map<string, string>;
  /** `node: command → exit status`, in order: where a failure happened and what ran before it. */
  log: string[];
  /** `user@address` → its session, opened on first use. */
  sessions: Map<string, Promise<SshSession>>;
}

/** The context of each call, made once: the hook's phases share its sessions. */
const contexts = new WeakMap<BuiltinCall, DriverContext>();

export function contextOf(call: BuiltinCall): DriverContext {
  const known = contexts.get(call);
  if (known) return known;
  const additional = call.input.request.additionalParams as Record<string, unknown> | undefined;
  const ssh = checkSshParams(additional);
  const params = additional?.[K8S_PARAMS_KEY] as K8sClusterParams | undefined;
  if (!ssh || !params)
    throw new BuiltinDriverError(
      `The kubernetes-cluster management driver needs additionalParams.ssh (username and a password or privateKey) and additionalParams.${K8S_PARAMS_KEY} (master_node, worker_node, haproxy) in the ${call.input.lcmOperation} request.`,
    );
  checkK8sParams(params);
  const ctx: DriverContext = {
    call,
    settings: settingsOf(params),
    ssh,
    seenKeys: new Map(),
    log: [],
    sessions: new Map(),
  };
  contexts.set(call, ctx);
  return ctx;
}

/** `hook`, with the sessions it opened closed when it ends, whatever the outcome. */
export const closing =
  (hook: BuiltinHook): BuiltinHook =>
  async (call): Promise<HookOutput> => {
    try {
      return await hook(call);
    } finally {
      const ctx = contexts.get(call);
      for (const session of ctx?.sessions.values() ?? [])
        void session.then(
          (s) => s.close(),
          () => {},
        );
      contexts.delete(call);
    }
  };
