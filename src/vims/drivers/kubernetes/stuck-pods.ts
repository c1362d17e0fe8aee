/**
 * The pods an earlier attempt of an operation left stuck: pods of the instance no VNFC has
 * taken yet (an operation that finished labels each of its pods with its VNFC) that wait for
 * what waiting does not cure — an image that could not be pulled, no node to schedule on, a
 * crash loop. A retry deletes them before it applies, so their controllers make fresh pods that
 * meet the cluster as it is now: the kubelet would retry a pull only after its back-off (up to
 * five minutes) and the scheduler an unschedulable pod only after its own, and the rollout would
 * fail again at once on the old pods' state.
 */
import type { KubeClient } from './client/client.ts';
import { type KindInfo, kindInfo } from './client/kinds.ts';
import { instanceSelector, LABELS } from './names.ts';
import { unschedulable, waitingReason } from './rollout.ts';

const PODS = kindInfo('Pod') as KindInfo;

export async function restartStuckPods(
  client: KubeClient,
  namespace: string,
  instanceId: string,
  signal: AbortSignal,
): Promise<void> {
  const pods = await client.pods(namespace, instanceSelector(instanceId), signal);
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp || pod.metadata.labels?.[LABELS.vnfc]) continue;
    // Only pods a controller makes again; a bare Pod is applied again as it is.
    if (!(pod.metadata.ownerReferences ?? []).length) continue;
    if (!waitingReason(pod) && !unschedulable(pod)) continue;
    await client.delete(PODS, pod.metadata.name, namespace, { gracePeriodSeconds: 0 }, signal);
  }
}
