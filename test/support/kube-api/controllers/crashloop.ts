/**
 * A container that keeps exiting, as the kubelet reports it: Running pod, container not ready,
 * waiting in CrashLoopBackOff after an Error exit, restartCount growing on a doubling back-off,
 * and a Warning BackOff event counted at each restart.
 */
import { randomBytes } from 'node:crypto';
import type { Cluster } from '../cluster.ts';
import { now, type Obj } from '../store.ts';

export const podRef = (pod: Obj) => `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;

/** The status of container `c` of `pod` after its `restarts`-th failed start. */
export function crashedStatus(pod: Obj, c: Obj, restarts: number, startedAt: string): Obj {
  const at = now();
  return {
    name: c.name,
    image: c.image,
    imageID: `docker.io/library/${c.image}@sha256:${randomBytes(32).toString('hex')}`,
    containerID: `containerd://${randomBytes(32).toString('hex')}`,
    ready: false,
    started: false,
    restartCount: restarts,
    lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt, finishedAt: at } },
    state: {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off ${Math.min(300, 10 * 2 ** Math.max(0, restarts - 1))}s restarting failed container=${c.name} pod=${podRef(pod)}`,
      },
    },
  };
}

export function backOffEvent(cluster: Cluster, pod: Obj, c: Obj): void {
  cluster.event(
    pod,
    'Warning',
    'BackOff',
    `Back-off restarting failed container ${c.name} in pod ${podRef(pod)}`,
    'kubelet',
  );
}
