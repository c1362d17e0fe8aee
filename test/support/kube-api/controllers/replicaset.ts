/**
 * The ReplicaSet controller: as many active pods as spec.replicas (new ones named from the
 * ReplicaSet's name, scaled down in the real controller's order: see `scaleDownFirst`), a FailedCreate event and
 * ReplicaFailure condition when admission refuses a pod (an exceeded quota), and the counts in
 * status that Deployments read.
 */
import { deleteObject } from '../deletion.ts';
import { StatusError } from '../status.ts';
import { now, type Obj } from '../store.ts';
import {
  type Controller,
  type Ctx,
  isActive,
  isReady,
  MANAGER,
  owned,
  ownerReference,
  POD,
  REPLICA_SET,
  setStatus,
} from './context.ts';

/** Unscheduled, then pending, then not ready, then ready. */
const rank = (p: Obj) => (!p.spec.nodeName ? 0 : p.status?.phase === 'Pending' ? 1 : !isReady(p) ? 2 : 3);

const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
/** The annotation's cost (0 when absent or not an int32, as the controller reads it). */
const cost = (p: Obj) => {
  const n = Number(p.metadata.annotations?.[DELETION_COST]);
  return Number.isInteger(n) && Math.abs(n) < 2 ** 31 ? n : 0;
};
const restarts = (p: Obj) =>
  ((p.status?.containerStatuses ?? []) as Obj[]).reduce((n, c) => n + (c.restartCount ?? 0), 0);

/**
 * The real controller's order of pods to delete on a scale down (ActivePodsWithRanks): the least
 * advanced first, then the lower pod-deletion-cost, then more restarts, then the newest.
 */
export const scaleDownFirst = (a: Obj, b: Obj) =>
  rank(a) - rank(b) ||
  cost(a) - cost(b) ||
  restarts(b) - restarts(a) ||
  b.metadata.creationTimestamp.localeCompare(a.metadata.creationTimestamp);

export class ReplicaSets implements Controller {
  sync(ctx: Ctx): void {
    const { cluster } = ctx;
    for (const rs of cluster.store.list(REPLICA_SET)) {
      if (rs.metadata.deletionTimestamp) continue;
      let failure: string | undefined;
      const active = owned(cluster, POD, rs).filter(isActive);
      const want = rs.spec.replicas ?? 1;
      if (active.length < want) {
        for (let i = active.length; i < want; i++) {
          try {
            const pod = cluster.create(
              POD,
              rs.metadata.namespace,
              {
                metadata: {
                  generateName: `${rs.metadata.name}-`,
                  labels: { ...rs.spec.template.metadata?.labels },
                  ...(rs.spec.template.metadata?.annotations
                    ? { annotations: rs.spec.template.metadata.annotations }
                    : {}),
                  ownerReferences: [ownerReference(rs)],
                },
                spec: structuredClone(rs.spec.template.spec),
              },
              { manager: MANAGER },
            );
            cluster.event(
              rs,
              'Normal',
              'SuccessfulCreate',
              `Created pod: ${pod.metadata.name}`,
              'replicaset-controller',
            );
          } catch (e) {
            if (!(e instanceof StatusError)) throw e;
            failure = e.message;
            cluster.event(
              rs,
              'Warning',
              'FailedCreate',
              `Error creating: ${e.message}`,
              'replicaset-controller',
            );
            break;
          }
        }
      } else if (active.length > want) {
        const victims = [...active].sort(scaleDownFirst).slice(0, active.length - want);
        for (const v of victims) {
          deleteObject(cluster, POD, v.metadata.namespace, v.metadata.name, {});
          cluster.event(
            rs,
            'Normal',
            'SuccessfulDelete',
            `Deleted pod: ${v.metadata.name}`,
            'replicaset-controller',
          );
        }
      }
      const fresh = cluster.find(REPLICA_SET, rs.metadata.namespace, rs.metadata.name);
      if (!fresh) continue;
      const pods = owned(cluster, POD, fresh).filter(isActive);
      const ready = pods.filter(isReady).length;
      const previous = (fresh.status?.conditions ?? []).find((c: Obj) => c.type === 'ReplicaFailure');
      const conditions = failure
        ? [
            {
              type: 'ReplicaFailure',
              status: 'True',
              lastTransitionTime: previous?.lastTransitionTime ?? now(),
              reason: 'FailedCreate',
              message: failure,
            },
          ]
        : undefined;
      // Zero counts are left out, as the real API's omitempty fields are.
      setStatus(ctx, REPLICA_SET, fresh, {
        replicas: pods.length,
        ...(pods.length ? { fullyLabeledReplicas: pods.length } : {}),
        ...(ready ? { readyReplicas: ready, availableReplicas: ready } : {}),
        observedGeneration: fresh.metadata.generation,
        ...(conditions ? { conditions } : {}),
      });
      // A refused pod is tried again later, as the real controller retries with back-off.
      if (failure) ctx.later(500);
    }
  }
}
