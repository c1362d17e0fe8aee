/**
 * The StatefulSet controller: pods name-0..name-(n-1) made one at a time in order, each only once
 * the one before is Running and Ready (OrderedReady; all at once with Parallel), removed from the
 * highest ordinal down, a claim per volumeClaimTemplate and ordinal, and a rolling update that
 * replaces pods from the highest ordinal down (above the partition) once all are ready.
 */
import { deleteObject } from '../deletion.ts';
import type { Obj } from '../store.ts';
import {
  type Controller,
  type Ctx,
  isReady,
  MANAGER,
  owned,
  ownerReference,
  POD,
  PVC,
  STATEFUL_SET,
  setStatus,
  templateHash,
} from './context.ts';

const REVISION = 'controller-revision-hash';
const ordinal = (sts: Obj, pod: Obj) => Number(pod.metadata.name.slice(sts.metadata.name.length + 1));

export class StatefulSets implements Controller {
  sync(ctx: Ctx): void {
    for (const sts of ctx.cluster.store.list(STATEFUL_SET))
      if (!sts.metadata.deletionTimestamp) this.reconcile(ctx, sts);
  }

  private reconcile(ctx: Ctx, sts: Obj): void {
    const { cluster } = ctx;
    const ns = sts.metadata.namespace;
    const want = sts.spec.replicas ?? 1;
    const revision = `${sts.metadata.name}-${templateHash(sts.spec.template)}`;
    const parallel = sts.spec.podManagementPolicy === 'Parallel';
    const pods = owned(cluster, POD, sts).sort((a, b) => ordinal(sts, a) - ordinal(sts, b));
    const byOrdinal = new Map(pods.map((p) => [ordinal(sts, p), p]));
    const busy = pods.some((p) => p.metadata.deletionTimestamp);

    for (let i = 0; i < want; i++) {
      const pod = byOrdinal.get(i);
      if (!pod) {
        this.createPod(ctx, sts, i, revision);
        if (!parallel) break;
        continue;
      }
      if (!parallel && !isReady(pod)) break;
    }
    const extra = pods.filter((p) => ordinal(sts, p) >= want && !p.metadata.deletionTimestamp);
    if (extra.length && (parallel || !busy)) {
      for (const p of parallel ? extra : extra.slice(-1)) {
        deleteObject(cluster, POD, ns, p.metadata.name, {});
        cluster.event(
          sts,
          'Normal',
          'SuccessfulDelete',
          `delete Pod ${p.metadata.name} in StatefulSet ${sts.metadata.name} successful`,
          'statefulset-controller',
        );
      }
    }
    const inRange = pods.filter((p) => ordinal(sts, p) < want);
    const partition = sts.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    if (
      sts.spec.updateStrategy?.type !== 'OnDelete' &&
      !busy &&
      inRange.length === want &&
      inRange.every(isReady)
    ) {
      const stale = inRange
        .filter((p) => ordinal(sts, p) >= partition && p.metadata.labels?.[REVISION] !== revision)
        .pop();
      if (stale) deleteObject(cluster, POD, ns, stale.metadata.name, {});
    }

    const fresh = cluster.find(STATEFUL_SET, ns, sts.metadata.name);
    if (!fresh) return;
    const now = owned(cluster, POD, fresh).filter(
      (p) => ordinal(sts, p) < want || !p.metadata.deletionTimestamp,
    );
    const updated = now.filter((p) => p.metadata.labels?.[REVISION] === revision).length;
    const ready = now.filter(isReady).length;
    const done = updated === want && ready === want && now.length === want;
    const current = done ? revision : (fresh.status?.currentRevision ?? revision);
    setStatus(ctx, STATEFUL_SET, fresh, {
      observedGeneration: fresh.metadata.generation,
      replicas: now.length,
      readyReplicas: ready,
      currentReplicas: now.filter((p) => p.metadata.labels?.[REVISION] === current).length,
      updatedReplicas: updated,
      currentRevision: current,
      updateRevision: revision,
      collisionCount: 0,
      availableReplicas: ready,
    });
  }

  private createPod(ctx: Ctx, sts: Obj, i: number, revision: string): void {
    const { cluster } = ctx;
    const ns = sts.metadata.namespace;
    const name = `${sts.metadata.name}-${i}`;
    const spec = structuredClone(sts.spec.template.spec);
    for (const t of sts.spec.volumeClaimTemplates ?? []) {
      const claim = `${t.metadata.name}-${name}`;
      if (!cluster.find(PVC, ns, claim)) {
        cluster.create(
          PVC,
          ns,
          {
            metadata: { name: claim, labels: { ...sts.spec.selector?.matchLabels } },
            spec: structuredClone(t.spec),
          },
          { manager: MANAGER },
        );
      }
      spec.volumes = [
        ...(spec.volumes ?? []).filter((v: Obj) => v.name !== t.metadata.name),
        { name: t.metadata.name, persistentVolumeClaim: { claimName: claim } },
      ];
    }
    cluster.create(
      POD,
      ns,
      {
        metadata: {
          name,
          labels: {
            ...sts.spec.template.metadata?.labels,
            [REVISION]: revision,
            'statefulset.kubernetes.io/pod-name': name,
            'apps.kubernetes.io/pod-index': String(i),
          },
          ownerReferences: [ownerReference(sts)],
        },
        spec: {
          ...spec,
          hostname: name,
          ...(sts.spec.serviceName ? { subdomain: sts.spec.serviceName } : {}),
        },
      },
      { manager: MANAGER },
    );
    cluster.event(
      sts,
      'Normal',
      'SuccessfulCreate',
      `create Pod ${name} in StatefulSet ${sts.metadata.name} successful`,
      'statefulset-controller',
    );
  }
}
