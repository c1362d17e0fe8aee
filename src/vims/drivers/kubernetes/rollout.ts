/**
 * Waiting for a VDU's workload to run what was applied, within kubernetes.rolloutTimeoutMs:
 * the workload has seen its new generation, it runs exactly the pods it should (none left
 * terminating, none of the pods the operation replaces), and every one is ready. It gives up at
 * once when a pod cannot become ready — an image that cannot be pulled, a crash loop, no node to
 * schedule it on, a quota that refuses pods — with the pod's own events, and on timeout with
 * what the pods were still waiting for. Looks are bounded polling (kubernetes.pollIntervalMs).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { InfraError } from '../../contract.ts';
import type { KubeClient } from './client/client.ts';
import { type KindInfo, kindInfo } from './client/kinds.ts';
import type { KubeObject, Pod } from './client/types.ts';
import type { KubernetesConfig } from './deps.ts';
import { vduSelector } from './names.ts';

export interface VduRollout {
  vduId: string;
  info: KindInfo;
  name: string;
  /** Pods the VDU must run; undefined for a DaemonSet (its nodes decide). */
  replicas?: number;
  /** Ids of the VDU's VNFCs the operation adds (named when a pod cannot be placed). */
  newVnfcIds: string[];
}

const REPLICA_SETS = kindInfo('ReplicaSet') as KindInfo;

/** Reasons a container waits that waiting longer does not cure. */
const STUCK = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'CrashLoopBackOff',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

export const isReady = (pod: Pod) =>
  pod.status?.phase === 'Running' &&
  (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

/** Whether the workload's controller reports the rollout of its current spec done. */
function controllerDone(object: KubeObject, info: KindInfo, replicas: number | undefined): boolean {
  const status = object.status ?? {};
  const generation = object.metadata.generation;
  if (
    generation !== undefined &&
    typeof status.observedGeneration === 'number' &&
    status.observedGeneration < generation
  )
    return false;
  switch (info.kind) {
    case 'Deployment':
      return (
        num(status.updatedReplicas) === replicas &&
        num(status.replicas) === replicas &&
        num(status.availableReplicas) === replicas
      );
    case 'StatefulSet':
      return (
        num(status.readyReplicas) === replicas &&
        (status.updateRevision === undefined ||
          status.currentRevision === status.updateRevision ||
          num(status.updatedReplicas) === replicas)
      );
    case 'ReplicaSet':
      return num(status.readyReplicas) === replicas;
    case 'DaemonSet':
      return (
        num(status.numberReady) === num(status.desiredNumberScheduled) &&
        num(status.updatedNumberScheduled) === num(status.desiredNumberScheduled)
      );
    default:
      return true;
  }
}

/** The events of a pod, newest last, as one line each. */
async function podEvents(
  client: KubeClient,
  namespace: string,
  pod: string,
  signal: AbortSignal,
): Promise<string> {
  const events = await client.events(namespace, 'Pod', pod, signal).catch(() => []);
  const lines = events
    .slice(-5)
    .map((e) => `${e.type ?? 'Normal'} ${e.reason ?? ''}: ${e.message ?? ''}`.trim());
  return lines.length ? ` Events of pod ${pod}: ${lines.join('; ')}` : '';
}

export function waitingReason(pod: Pod): { reason: string; message: string } | undefined {
  for (const c of pod.status?.containerStatuses ?? []) {
    const w = c.state?.waiting;
    if (w?.reason && STUCK.has(w.reason)) return { reason: w.reason, message: w.message ?? '' };
  }
  return undefined;
}

export const unschedulable = (pod: Pod) =>
  (pod.status?.conditions ?? []).find(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );

/** The failure a look shows, if any. */
async function failure(
  client: KubeClient,
  namespace: string,
  instanceId: string,
  vdu: VduRollout,
  object: KubeObject,
  pods: Pod[],
  signal: AbortSignal,
): Promise<InfraError | undefined> {
  for (const pod of pods) {
    const stuck = waitingReason(pod);
    if (stuck) {
      return new InfraError(
        'VIM_OPERATION_FAILED',
        `Pod ${pod.metadata.name} of ${vdu.vduId} (${vdu.info.kind} ${vdu.name}) cannot start: ${stuck.reason}${stuck.message ? ` (${stuck.message})` : ''}.${await podEvents(client, namespace, pod.metadata.name, signal)}`,
        { vduId: vdu.vduId, pod: pod.metadata.name, reason: stuck.reason },
      );
    }
    const unplaced = unschedulable(pod);
    if (unplaced) {
      const reason = unplaced.message ?? 'no node can run it';
      return new InfraError(
        'NO_VALID_HOST',
        `Pod ${pod.metadata.name} of ${vdu.vduId} (${vdu.info.kind} ${vdu.name}) cannot be scheduled: ${reason}.${await podEvents(client, namespace, pod.metadata.name, signal)}`,
        { vduId: vdu.vduId, vnfcId: vdu.newVnfcIds[0], zone: undefined, reason, pod: pod.metadata.name },
      );
    }
  }
  // A Deployment's ReplicaSets carry its pod template's labels: their refusals are its own.
  const owners =
    vdu.info.kind === 'Deployment'
      ? [object, ...(await client.list(REPLICA_SETS, namespace, vduSelector(instanceId, vdu.vduId), signal))]
      : [object];
  for (const owner of owners) {
    const conditions = (owner.status?.conditions ?? []) as {
      type?: string;
      status?: string;
      message?: string;
    }[];
    const refused = conditions.find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
    if (refused) {
      return new InfraError(
        'VIM_OPERATION_FAILED',
        `${vdu.info.kind} ${vdu.name} of ${vdu.vduId} cannot create its pods: ${refused.message ?? 'ReplicaFailure'}.`,
        { vduId: vdu.vduId, reason: refused.message },
      );
    }
  }
  return undefined;
}

interface Look {
  done: boolean;
  waiting: string;
}

async function look(
  client: KubeClient,
  namespace: string,
  instanceId: string,
  vdu: VduRollout,
  replaced: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<Look> {
  const object = await client.get(vdu.info, vdu.name, namespace, signal);
  if (!object) return { done: false, waiting: `${vdu.info.kind} ${vdu.name} does not exist` };
  const pods = await client.pods(namespace, vduSelector(instanceId, vdu.vduId), signal);
  const live = pods.filter((p) => !p.metadata.deletionTimestamp && !replaced.has(p.metadata.name));
  const failed = await failure(client, namespace, instanceId, vdu, object, live, signal);
  if (failed) throw failed;
  const wanted = vdu.replicas ?? num(object.status?.desiredNumberScheduled);
  const leaving = pods.length - live.length;
  const ready = live.filter(isReady).length;
  const done =
    controllerDone(object, vdu.info, vdu.replicas) &&
    live.length === wanted &&
    ready === wanted &&
    leaving === 0;
  return {
    done,
    waiting: `${vdu.vduId}: ${ready}/${wanted} pods ready${live.length !== wanted ? `, ${live.length} running` : ''}${leaving ? `, ${leaving} leaving` : ''}`,
  };
}

/**
 * Resolves when every VDU runs what was applied. `replaced` holds names of pods that must be gone
 * (the pods a heal deleted).
 */
export async function waitForRollout(
  client: KubeClient,
  config: KubernetesConfig,
  namespace: string,
  instanceId: string,
  vdus: readonly VduRollout[],
  signal: AbortSignal,
  replaced: ReadonlySet<string> = new Set(),
): Promise<void> {
  const deadline = Date.now() + config.rolloutTimeoutMs;
  for (;;) {
    const looks = [];
    for (const vdu of vdus) looks.push(await look(client, namespace, instanceId, vdu, replaced, signal));
    if (looks.every((l) => l.done)) return;
    if (Date.now() >= deadline) {
      throw new InfraError(
        'VIM_TIMEOUT',
        `The workloads were not ready within ${config.rolloutTimeoutMs} ms (kubernetes.rolloutTimeoutMs): ${looks
          .filter((l) => !l.done)
          .map((l) => l.waiting)
          .join('; ')}.`,
      );
    }
    try {
      await sleep(config.pollIntervalMs, undefined, { signal });
    } catch {
      throw new InfraError(
        'CANCELLED',
        'Waiting for the rollout was abandoned: the operation was cancelled.',
      );
    }
  }
}
