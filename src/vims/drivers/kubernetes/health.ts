/**
 * Health of an instance's VNFCs from their pods: ACTIVE when the pod runs and is ready, ERROR
 * with the reason when it is not (its phase, a container waiting — an image that cannot be
 * pulled, a crash loop — and how often its containers restarted), MISSING when the pod is gone.
 * Fault management raises alarms on it.
 */
import type { InstantiatedVnfInfo } from '../../../sol/instance-model.ts';
import type { VimConnection, VnfcHealth } from '../../contract.ts';
import type { Pod } from './client/types.ts';
import { type KubernetesDeps, withClient } from './deps.ts';
import { instanceSelector } from './names.ts';
import { isReady } from './rollout.ts';
import { stateOf } from './state.ts';

function problem(pod: Pod): string {
  const statuses = pod.status?.containerStatuses ?? [];
  const restarts = statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0);
  const waiting = statuses.map((c) => c.state?.waiting).find((w) => w?.reason);
  const parts = [
    `pod ${pod.metadata.name} is ${pod.status?.phase ?? 'Unknown'}${isReady(pod) ? '' : ' and not ready'}`,
    ...(waiting ? [`${waiting.reason}${waiting.message ? ` (${waiting.message})` : ''}`] : []),
    ...(pod.status?.reason ? [pod.status.reason] : []),
    ...(restarts ? [`its containers restarted ${restarts} times`] : []),
  ];
  return parts.join('; ');
}

export async function health(
  deps: KubernetesDeps,
  vim: VimConnection,
  instanceId: string,
  info: InstantiatedVnfInfo,
): Promise<VnfcHealth[]> {
  const { namespace } = stateOf(info);
  const pods = await withClient(deps, vim, (client) => client.pods(namespace, instanceSelector(instanceId)));
  const byName = new Map(pods.map((p) => [p.metadata.name, p]));
  return (info.vnfcResourceInfo ?? []).map((v): VnfcHealth => {
    const base = { vnfcResourceInfoId: v.id, computeResource: v.computeResource };
    const pod = byName.get(v.computeResource.resourceId);
    if (!pod || pod.metadata.deletionTimestamp) {
      return {
        ...base,
        state: 'MISSING',
        reason: `Kubernetes has no pod ${v.computeResource.resourceId} in namespace ${namespace}`,
      };
    }
    const host = pod.spec?.nodeName;
    return {
      ...base,
      ...(host ? { host } : {}),
      ...(isReady(pod) ? { state: 'ACTIVE' as const } : { state: 'ERROR' as const, reason: problem(pod) }),
    };
  });
}
