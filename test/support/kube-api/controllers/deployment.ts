/**
 * The Deployment controller: one ReplicaSet per pod template (named with its pod-template-hash,
 * revision-numbered), rolled from the old to the new by RollingUpdate within maxSurge and
 * maxUnavailable, or by Recreate; old ReplicaSets kept at zero up to revisionHistoryLimit; and
 * the status `kubectl rollout status` reads (observedGeneration, replicas, updatedReplicas,
 * readyReplicas, availableReplicas, the Available and Progressing conditions, the progress
 * deadline).
 */
import { deleteObject } from '../deletion.ts';
import { now, type Obj } from '../store.ts';
import {
  type Controller,
  type Ctx,
  canonical,
  DEPLOYMENT,
  MANAGER,
  owned,
  ownerReference,
  POD,
  REPLICA_SET,
  setStatus,
  templateHash,
} from './context.ts';

const HASH = 'pod-template-hash';
const REVISION = 'deployment.kubernetes.io/revision';

/** An int-or-percent of `total`, rounded up (surge) or down (unavailable) as the real controller does. */
function resolve(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(String(value ?? '0'));
  if (!m) return Number(value) || 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

const withoutHash = (template: Obj) => {
  const t = structuredClone(template);
  if (t.metadata?.labels) delete t.metadata.labels[HASH];
  return canonical(t);
};

const revisionOf = (rs: Obj) => Number(rs.metadata.annotations?.[REVISION] ?? 0);
const replicas = (rs: Obj) => rs.spec.replicas ?? 0;
const sum = (list: Obj[], f: (o: Obj) => number) => list.reduce((n, o) => n + f(o), 0);

export class Deployments implements Controller {
  /** When each Deployment last progressed (for the progress deadline). */
  private progressedAt = new Map<string, number>();

  sync(ctx: Ctx): void {
    for (const d of ctx.cluster.store.list(DEPLOYMENT)) {
      if (!d.metadata.deletionTimestamp) this.reconcile(ctx, d);
    }
  }

  private scale(ctx: Ctx, d: Obj, rs: Obj, to: number): void {
    const from = replicas(rs);
    if (from === to) return;
    const written = ctx.cluster.writeObject(REPLICA_SET, { ...rs, spec: { ...rs.spec, replicas: to } });
    if (!written) return;
    rs.spec.replicas = to;
    const verb = to > from ? 'up' : 'down';
    ctx.cluster.event(
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled ${verb} replica set ${rs.metadata.name} from ${from} to ${to}`,
      'deployment-controller',
    );
  }

  private reconcile(ctx: Ctx, d: Obj): void {
    const { cluster } = ctx;
    const desired = d.spec.replicas ?? 1;
    let all = owned(cluster, REPLICA_SET, d);
    const template = withoutHash(d.spec.template);
    let fresh = all.find((rs) => withoutHash(rs.spec.template) === template);
    const maxRevision = Math.max(0, ...all.map(revisionOf));
    const rolling = d.spec.strategy?.type !== 'Recreate';
    const surge = rolling ? resolve(d.spec.strategy?.rollingUpdate?.maxSurge, desired, true) : 0;
    let unavailable = rolling
      ? resolve(d.spec.strategy?.rollingUpdate?.maxUnavailable, desired, false)
      : desired;
    if (rolling && surge === 0 && unavailable === 0) unavailable = 1;
    let progressed = false;

    if (!d.spec.paused) {
      if (!fresh) {
        const hash = templateHash(d.spec.template, d.status?.collisionCount ?? 0);
        const oldTotal = sum(all, replicas);
        const start = rolling
          ? Math.max(0, Math.min(desired, desired + surge - oldTotal))
          : oldTotal
            ? 0
            : desired;
        const labels = { ...d.spec.template.metadata?.labels, [HASH]: hash };
        fresh = cluster.create(
          REPLICA_SET,
          d.metadata.namespace,
          {
            metadata: {
              name: `${d.metadata.name}-${hash}`,
              labels,
              annotations: {
                'deployment.kubernetes.io/desired-replicas': String(desired),
                'deployment.kubernetes.io/max-replicas': String(desired + surge),
                [REVISION]: String(maxRevision + 1),
              },
              ownerReferences: [ownerReference(d)],
            },
            spec: {
              replicas: 0,
              selector: { ...d.spec.selector, matchLabels: { ...d.spec.selector.matchLabels, [HASH]: hash } },
              template: {
                ...structuredClone(d.spec.template),
                metadata: { ...d.spec.template.metadata, labels },
              },
            },
          },
          { manager: MANAGER },
        );
        cluster.event(
          d,
          'Normal',
          'ScalingReplicaSet',
          `Scaled up replica set ${fresh.metadata.name} from 0 to ${start}`,
          'deployment-controller',
        );
        if (start)
          fresh =
            cluster.writeObject(REPLICA_SET, { ...fresh, spec: { ...fresh.spec, replicas: start } }) ?? fresh;
        all = [...all, fresh];
        progressed = true;
      } else if (revisionOf(fresh) < maxRevision) {
        // A template seen before (a rollback): its ReplicaSet becomes the newest revision again.
        fresh =
          cluster.writeObject(REPLICA_SET, {
            ...fresh,
            metadata: {
              ...fresh.metadata,
              annotations: { ...fresh.metadata.annotations, [REVISION]: String(maxRevision + 1) },
            },
          }) ?? fresh;
        all = all.map((rs) => (rs.metadata.uid === fresh!.metadata.uid ? fresh! : rs));
      }
      const newRs = fresh!;
      const old = all.filter((rs) => rs.metadata.uid !== newRs.metadata.uid);
      if (!rolling) {
        for (const rs of old) this.scale(ctx, d, rs, 0);
        // Recreate waits for every old pod to be gone, terminating ones included.
        const oldPods = old
          .flatMap((rs) => owned(cluster, POD, rs))
          .filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
        if (!oldPods.length) this.scale(ctx, d, newRs, desired);
      } else if (replicas(newRs) > desired) {
        this.scale(ctx, d, newRs, desired);
      } else {
        const before = replicas(newRs);
        if (before < desired) {
          const room = desired + surge - sum(all, replicas);
          if (room > 0) this.scale(ctx, d, newRs, before + Math.min(room, desired - before));
        }
        if (replicas(newRs) === before) this.scaleDownOld(ctx, d, newRs, old, desired, unavailable);
      }
      const revision = String(revisionOf(newRs));
      if (d.metadata.annotations?.[REVISION] !== revision) {
        const written = cluster.writeObject(DEPLOYMENT, {
          ...d,
          metadata: { ...d.metadata, annotations: { ...d.metadata.annotations, [REVISION]: revision } },
        });
        if (written) d = written;
      }
      this.prune(ctx, d, old);
    }
    this.updateStatus(ctx, d, owned(cluster, REPLICA_SET, d), fresh, desired, unavailable, progressed);
  }

  /** Old ReplicaSets scaled down as far as availability allows: unhealthy pods first, then available ones. */
  private scaleDownOld(
    ctx: Ctx,
    d: Obj,
    newRs: Obj,
    old: Obj[],
    desired: number,
    maxUnavailable: number,
  ): void {
    const all = [...old, newRs];
    const minAvailable = desired - maxUnavailable;
    const newUnavailable = replicas(newRs) - (newRs.status?.availableReplicas ?? 0);
    let budget = sum(all, replicas) - minAvailable - newUnavailable;
    const oldest = [...old].sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of oldest) {
      if (budget <= 0) return;
      const unhealthy = replicas(rs) - (rs.status?.availableReplicas ?? 0);
      const cut = Math.min(budget, Math.max(0, unhealthy));
      if (cut) {
        this.scale(ctx, d, rs, replicas(rs) - cut);
        budget -= cut;
      }
    }
    let available = sum(all, (rs) => rs.status?.availableReplicas ?? 0) - Math.max(minAvailable, 0);
    for (const rs of oldest) {
      if (available <= 0) return;
      const cut = Math.min(available, replicas(rs));
      if (cut) {
        this.scale(ctx, d, rs, replicas(rs) - cut);
        available -= cut;
      }
    }
  }

  private prune(ctx: Ctx, d: Obj, old: Obj[]): void {
    const limit = d.spec.revisionHistoryLimit ?? 10;
    const idle = old
      .filter((rs) => replicas(rs) === 0 && !(rs.status?.replicas ?? 0))
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) {
      deleteObject(ctx.cluster, REPLICA_SET, rs.metadata.namespace, rs.metadata.name, {});
    }
  }

  private updateStatus(
    ctx: Ctx,
    d: Obj,
    all: Obj[],
    fresh: Obj | undefined,
    desired: number,
    maxUnavailable: number,
    progressed: boolean,
  ): void {
    const key = d.metadata.uid;
    const total = sum(all, (rs) => rs.status?.replicas ?? 0);
    const updated = fresh?.status?.replicas ?? 0;
    const ready = sum(all, (rs) => rs.status?.readyReplicas ?? 0);
    const available = sum(all, (rs) => rs.status?.availableReplicas ?? 0);
    const counts = {
      replicas: total,
      updatedReplicas: updated,
      readyReplicas: ready,
      availableReplicas: available,
    };
    const before = d.status ?? {};
    if (
      progressed ||
      ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas'].some(
        (k) => (before[k] ?? 0) !== (counts as Obj)[k],
      )
    ) {
      this.progressedAt.set(key, Date.now());
    }
    const t = now();
    const keep = (type: string, status: string, reason: string, message: string) => {
      const prev = (before.conditions ?? []).find((c: Obj) => c.type === type);
      const same = prev?.status === status && prev?.reason === reason && prev?.message === message;
      return {
        type,
        status,
        lastUpdateTime: same ? prev.lastUpdateTime : t,
        lastTransitionTime: prev?.status === status ? prev.lastTransitionTime : t,
        reason,
        message,
      };
    };
    const availableCond =
      available >= desired - maxUnavailable
        ? keep('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.')
        : keep(
            'Available',
            'False',
            'MinimumReplicasUnavailable',
            'Deployment does not have minimum availability.',
          );
    const name = fresh?.metadata.name ?? d.metadata.name;
    const complete =
      updated === desired &&
      total === desired &&
      available >= desired &&
      (fresh?.spec.replicas ?? 0) === desired;
    const deadline = (d.spec.progressDeadlineSeconds ?? 600) * 1000;
    const since = this.progressedAt.get(key) ?? Date.now();
    if (!this.progressedAt.has(key)) this.progressedAt.set(key, since);
    let progressing: Obj;
    if (complete)
      progressing = keep(
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `ReplicaSet "${name}" has successfully progressed.`,
      );
    else if (Date.now() - since >= deadline)
      progressing = keep(
        'Progressing',
        'False',
        'ProgressDeadlineExceeded',
        `ReplicaSet "${name}" has timed out progressing.`,
      );
    else {
      progressing = keep('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`);
      ctx.later(since + deadline - Date.now());
    }
    // A ReplicaSet that cannot create pods (an exceeded quota) shows on its Deployment, as on a real cluster.
    const failure = all
      .map((rs) =>
        (rs.status?.conditions ?? []).find((c: Obj) => c.type === 'ReplicaFailure' && c.status === 'True'),
      )
      .find(Boolean);
    const replicaFailure = failure ? [keep('ReplicaFailure', 'True', failure.reason, failure.message)] : [];
    const unavailable = Math.max(0, sum(all, replicas) - available);
    setStatus(ctx, DEPLOYMENT, d, {
      observedGeneration: d.metadata.generation,
      ...Object.fromEntries(
        Object.entries(counts).filter(([k, v]) => v || k === 'replicas' || k === 'updatedReplicas'),
      ),
      ...(unavailable ? { unavailableReplicas: unavailable } : {}),
      conditions: [availableCond, progressing, ...replicaFailure],
      ...(d.status?.collisionCount ? { collisionCount: d.status.collisionCount } : {}),
    });
  }
}
