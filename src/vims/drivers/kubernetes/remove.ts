/**
 * Removes what Bosun applied for an instance, and only that: every object of a kind Bosun
 * applies that carries the instance's label (in its namespace, and cluster-scoped ones), the
 * workloads first (with Foreground propagation their pods go with them), namespaces last, then
 * waits until none is left. Graceful gives pods the grace period; forceful gives them none.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from '../../contract.ts';
import type { KubeClient } from './client/client.ts';
import { KINDS, type KindInfo } from './client/kinds.ts';
import type { KubernetesConfig } from './deps.ts';
import { instanceSelector } from './names.ts';

const ORDER = (i: KindInfo) =>
  i.workload && i.workload !== 'pod' ? 0 : i.kind === 'Pod' ? 1 : i.kind === 'Namespace' ? 3 : 2;
const KINDS_IN_ORDER = [...KINDS].sort((a, b) => ORDER(a) - ORDER(b));

export interface Remaining {
  info: KindInfo;
  name: string;
  terminating: boolean;
}

/** Every labelled object of the instance still there. */
export async function instanceObjects(
  client: KubeClient,
  namespace: string,
  instanceId: string,
  signal: AbortSignal,
): Promise<Remaining[]> {
  const out: Remaining[] = [];
  for (const info of KINDS_IN_ORDER) {
    let items: Awaited<ReturnType<KubeClient['list']>>;
    try {
      items = await client.list(
        info,
        info.namespaced ? namespace : undefined,
        instanceSelector(instanceId),
        signal,
      );
    } catch (error) {
      // A kind the cluster does not serve, or the VIM user may not list (cluster-scoped), holds nothing of ours.
      if (
        error instanceof InfraError &&
        (error.detail?.status === 403 || error.detail?.status === 404) &&
        !info.safe
      )
        continue;
      throw error;
    }
    for (const item of items)
      out.push({ info, name: item.metadata.name, terminating: !!item.metadata.deletionTimestamp });
  }
  return out;
}

export async function removeInstance(
  client: KubeClient,
  config: KubernetesConfig,
  namespace: string,
  instanceId: string,
  gracePeriodSeconds: number,
  signal: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + config.rolloutTimeoutMs;
  for (;;) {
    const left = await instanceObjects(client, namespace, instanceId, signal);
    if (left.length === 0) return;
    for (const o of left.filter((x) => !x.terminating)) {
      await client.delete(
        o.info,
        o.name,
        o.info.namespaced ? namespace : undefined,
        { propagationPolicy: o.info.workload ? 'Foreground' : 'Background', gracePeriodSeconds },
        signal,
      );
    }
    if (Date.now() >= deadline) {
      throw new InfraError(
        'VIM_TIMEOUT',
        `Kubernetes still holds ${left.map((o) => `${o.info.kind} ${o.name}`).join(', ')} of the instance after ${config.rolloutTimeoutMs} ms (kubernetes.rolloutTimeoutMs); a retry deletes what is left.`,
      );
    }
    try {
      await sleep(config.pollIntervalMs, undefined, { signal });
    } catch {
      throw new InfraError('CANCELLED', 'Removing the instance was abandoned: the operation was cancelled.');
    }
  }
}
