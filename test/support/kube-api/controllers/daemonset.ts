/**
 * The DaemonSet controller: one pod per node, bound to it, and a rolling update that replaces
 * one out-of-date pod at a time (maxUnavailable 1) once the others are ready.
 */
import { deleteObject } from '../deletion.ts';
import type { Obj } from '../store.ts';
import {
  type Controller,
  type Ctx,
  DAEMON_SET,
  isReady,
  MANAGER,
  owned,
  ownerReference,
  POD,
  setStatus,
  templateHash,
} from './context.ts';

const REVISION = 'controller-revision-hash';

export class DaemonSets implements Controller {
  sync(ctx: Ctx): void {
    for (const ds of ctx.cluster.store.list(DAEMON_SET))
      if (!ds.metadata.deletionTimestamp) this.reconcile(ctx, ds);
  }

  private reconcile(ctx: Ctx, ds: Obj): void {
    const { cluster } = ctx;
    const ns = ds.metadata.namespace;
    const revision = templateHash(ds.spec.template);
    const nodes = ctx.nodes();
    const pods = owned(cluster, POD, ds).filter((p) => !p.metadata.deletionTimestamp);
    for (const node of nodes) {
      if (pods.some((p) => p.spec.nodeName === node)) continue;
      const pod = cluster.create(
        POD,
        ns,
        {
          metadata: {
            generateName: `${ds.metadata.name}-`,
            labels: {
              ...ds.spec.template.metadata?.labels,
              [REVISION]: revision,
              'pod-template-generation': String(ds.metadata.generation),
            },
            ownerReferences: [ownerReference(ds)],
          },
          spec: { ...structuredClone(ds.spec.template.spec), nodeName: node },
        },
        { manager: MANAGER },
      );
      cluster.event(
        ds,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${pod.metadata.name}`,
        'daemonset-controller',
      );
    }
    const terminating = owned(cluster, POD, ds).some((p) => p.metadata.deletionTimestamp);
    if (!terminating && pods.length === nodes.length && pods.every(isReady)) {
      const stale = pods.find((p) => p.metadata.labels?.[REVISION] !== revision);
      if (stale) deleteObject(cluster, POD, ns, stale.metadata.name, {});
    }
    const fresh = cluster.find(DAEMON_SET, ns, ds.metadata.name);
    if (!fresh) return;
    const live = owned(cluster, POD, fresh).filter((p) => !p.metadata.deletionTimestamp);
    const ready = live.filter(isReady).length;
    setStatus(ctx, DAEMON_SET, fresh, {
      currentNumberScheduled: live.length,
      numberMisscheduled: 0,
      desiredNumberScheduled: nodes.length,
      numberReady: ready,
      observedGeneration: fresh.metadata.generation,
      updatedNumberScheduled: live.filter((p) => p.metadata.labels?.[REVISION] === revision).length,
      numberAvailable: ready,
      ...(nodes.length - ready > 0 ? { numberUnavailable: nodes.length - ready } : {}),
    });
  }
}
