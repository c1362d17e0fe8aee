/**
 * What every phase of the Kubernetes-cluster driver works with: its settings, the SSH parameters
 * and secrets, the operation's signal, the host keys seen on this run (pinned in the answer), and
 * the log of the commands it ran (shown in the op occ when a command fails).
 */
import type { SshParams } from '../../ssh/ssh-params.ts';
import { checkSshParams } from '../../ssh/ssh-params.ts';
import { type BuiltinCall, BuiltinDriverError } from '../driver.ts';
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
}

export function contextOf(call: BuiltinCall): DriverContext {
  const additional = call.input.request.additionalParams as Record<string, unknown> | undefined;
  const ssh = checkSshParams(additional);
  const params = additional?.[K8S_PARAMS_KEY] as K8sClusterParams | undefined;
  if (!ssh || !params)
    throw new BuiltinDriverError(
      `The kubernetes-cluster management driver needs additionalParams.ssh (username and a password or privateKey) and additionalParams.${K8S_PARAMS_KEY} (master_node, worker_node, haproxy) in the ${call.input.lcmOperation} request.`,
    );
  checkK8sParams(params);
  return { call, settings: settingsOf(params), ssh, seenKeys: new Map(), log: [] };
}
