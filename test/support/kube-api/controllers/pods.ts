/**
 * The scheduler and the kubelets of the test cluster: a pod is bound to the least busy node its
 * node selector and required node affinity allow (or stays Pending with a FailedScheduling event
 * when it fits nowhere), then after a short delay its
 * containers run and it is Ready — or, for an image that cannot be pulled, it waits with
 * ErrImagePull and then ImagePullBackOff, with the events a real kubelet records. A deleted pod
 * is Terminating until its containers stop (its grace period, shortened for tests), then gone.
 */
import { randomBytes } from 'node:crypto';
import type { Cluster } from '../cluster.ts';
import { nodeIp } from '../nodes.ts';
import { now, type Obj } from '../store.ts';
import { type Controller, type Ctx, isActive, NODE, POD, setStatus } from './context.ts';
import { backOffEvent, crashedStatus } from './crashloop.ts';
import { nodeMatches } from './node-match.ts';

const condition = (type: string, status = 'True', extra: Obj = {}) => ({
  type,
  status,
  lastProbeTime: null,
  lastTransitionTime: now(),
  ...extra,
});

const pullMessage = (image: string) =>
  `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/${image}": failed to resolve reference "docker.io/library/${image}": docker.io/library/${image}: not found`;

const pullFailed = (cluster: Cluster, pod: Obj, image: string) =>
  cluster.event(
    pod,
    'Warning',
    'Failed',
    `Failed to pull image "${image}": ${pullMessage(image)}`,
    'kubelet',
  );

export class PodLifecycle implements Controller {
  private scheduledAt = new Map<string, number>();
  private stoppingSince = new Map<string, number>();
  private failedAt = new Map<string, number>();
  /** When the kubelet last tried to pull a pod's images and failed: it tries again only after its back-off. */
  private pullTriedAt = new Map<string, number>();
  private restartedAt = new Map<string, number>();
  private ips = 2;

  sync(ctx: Ctx): void {
    const { cluster } = ctx;
    const pods = cluster.store.list(POD);
    const t = Date.now();
    for (const pod of pods) {
      const uid = pod.metadata.uid;
      if (pod.metadata.deletionTimestamp) {
        this.terminate(ctx, pod, t);
        continue;
      }
      if (!pod.spec.nodeName) {
        this.schedule(ctx, pod, pods);
        continue;
      }
      if (pod.status?.phase === 'Running') {
        this.restartChanged(ctx, pod);
        if (cluster.failures.isBroken(pod)) this.breaks(ctx, pod);
        this.crashLoop(ctx, pod, t);
        continue;
      }
      if (pod.status?.phase !== 'Pending') continue;
      const due = (this.scheduledAt.get(uid) ?? t) + ctx.timing.podStartMs;
      if (!this.scheduledAt.has(uid)) this.scheduledAt.set(uid, t);
      if (t < due) {
        ctx.later(due - t);
        continue;
      }
      if ((pod.spec.containers as Obj[]).some((c) => cluster.failures.pullHeld(c.image))) {
        this.pulling(ctx, pod);
        continue;
      }
      const tried = this.pullTriedAt.get(uid);
      if (tried !== undefined && t < tried + ctx.timing.imagePullBackOffMs) {
        // A registry that works again is seen at the next try, not at once.
        ctx.later(tried + ctx.timing.imagePullBackOffMs - t);
        continue;
      }
      const failing = (pod.spec.containers as Obj[]).filter((c) => cluster.failures.pullFails(c.image));
      if (failing.length) {
        this.pullFails(ctx, pod, failing, t);
        this.pullTriedAt.set(uid, t);
      } else this.run(ctx, pod);
    }
    for (const uid of this.scheduledAt.keys())
      if (!pods.some((p) => p.metadata.uid === uid)) this.scheduledAt.delete(uid);
    for (const uid of this.pullTriedAt.keys())
      if (!pods.some((p) => p.metadata.uid === uid)) this.pullTriedAt.delete(uid);
  }

  private schedule(ctx: Ctx, pod: Obj, pods: Obj[]): void {
    const { cluster } = ctx;
    const usable = ctx.nodes();
    const nodes = usable.filter((n) =>
      nodeMatches(pod, cluster.find(NODE, undefined, n) ?? { metadata: {} }),
    );
    if (cluster.failures.fitsNowhere(pod) || !nodes.length) {
      const scheduled = (pod.status?.conditions ?? []).find((c: Obj) => c.type === 'PodScheduled');
      if (scheduled?.status === 'False') return;
      const all = cluster.store.count(NODE);
      // The real scheduler's words: the count of nodes each filter refused, sorted.
      const refused = [
        [all - usable.length, 'node(s) were unschedulable'],
        [usable.length - nodes.length, "node(s) didn't match Pod's node affinity/selector"],
      ]
        .filter(([count]) => count)
        .map(([count, why]) => `${count} ${why}`)
        .sort()
        .join(', ');
      const message = !all
        ? 'no nodes available to schedule pods'
        : nodes.length
          ? `0/${all} nodes are available: ${all} Insufficient cpu. preemption: 0/${all} nodes are available: ${all} No preemption victims found for incoming pod.`
          : `0/${all} nodes are available: ${refused}. preemption: 0/${all} nodes are available: ${all} Preemption is not helpful for scheduling.`;
      cluster.writeStatus(
        POD,
        {
          ...pod,
          status: {
            ...pod.status,
            conditions: [condition('PodScheduled', 'False', { reason: 'Unschedulable', message })],
          },
        },
        'kube-scheduler',
      );
      cluster.event(pod, 'Warning', 'FailedScheduling', message, 'default-scheduler');
      return;
    }
    const load = (node: string) => pods.filter((p) => p.spec.nodeName === node && isActive(p)).length;
    const node = [...nodes].sort((a, b) => load(a) - load(b) || a.localeCompare(b))[0];
    const bound = cluster.writeObject(
      POD,
      { ...pod, spec: { ...pod.spec, nodeName: node } },
      'kube-scheduler',
    );
    if (!bound) return;
    cluster.writeStatus(
      POD,
      { ...bound, status: { ...bound.status, conditions: [condition('PodScheduled')] } },
      'kube-scheduler',
    );
    cluster.event(
      pod,
      'Normal',
      'Scheduled',
      `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node}`,
      'default-scheduler',
    );
    this.scheduledAt.set(pod.metadata.uid, Date.now());
  }

  /** A pull still in progress: Pending, its containers in ContainerCreating, looked at again later. */
  private pulling(ctx: Ctx, pod: Obj): void {
    ctx.later(ctx.timing.podStartMs);
    if (pod.status?.containerStatuses) return;
    const names = (pod.spec.containers as Obj[]).map((c) => c.name).join(' ');
    const unready = { reason: 'ContainersNotReady', message: `containers with unready status: [${names}]` };
    setStatus(ctx, POD, pod, {
      ...pod.status,
      conditions: [
        condition('PodReadyToStartContainers', 'False'),
        condition('Initialized'),
        condition('Ready', 'False', unready),
        condition('ContainersReady', 'False', unready),
        condition('PodScheduled'),
      ],
      hostIP: nodeIp(ctx.cluster.find(NODE, undefined, pod.spec.nodeName)),
      startTime: pod.status?.startTime ?? now(),
      containerStatuses: (pod.spec.containers as Obj[]).map((c) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        lastState: {},
        state: { waiting: { reason: 'ContainerCreating' } },
      })),
    });
    for (const c of pod.spec.containers as Obj[]) {
      ctx.cluster.event(pod, 'Normal', 'Pulling', `Pulling image "${c.image}"`, 'kubelet');
    }
  }

  private pullFails(ctx: Ctx, pod: Obj, failing: Obj[], t: number): void {
    const { cluster } = ctx;
    const uid = pod.metadata.uid;
    const since = this.failedAt.get(uid);
    const backOff = since !== undefined && t - since >= ctx.timing.imagePullBackOffMs;
    const reason = since === undefined ? 'ErrImagePull' : backOff ? 'ImagePullBackOff' : 'ErrImagePull';
    const statuses = (pod.spec.containers as Obj[]).map((c) => {
      const fails = failing.includes(c);
      return {
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        lastState: {},
        state: fails
          ? {
              waiting: {
                reason,
                message:
                  reason === 'ErrImagePull'
                    ? pullMessage(c.image)
                    : `Back-off pulling image "${c.image}": ErrImagePull: ${pullMessage(c.image)}`,
              },
            }
          : { waiting: { reason: 'PodInitializing' } },
      };
    });
    const current = pod.status?.containerStatuses?.find((s: Obj) => s.state?.waiting?.reason === reason);
    if (current) {
      // The kubelet tries again now and then: a pull that works again starts the container.
      ctx.later(ctx.timing.imagePullBackOffMs);
      return;
    }
    setStatus(ctx, POD, pod, {
      ...pod.status,
      conditions: [
        condition('PodReadyToStartContainers'),
        condition('Initialized'),
        condition('Ready', 'False', {
          reason: 'ContainersNotReady',
          message: `containers with unready status: [${failing.map((c) => c.name).join(' ')}]`,
        }),
        condition('ContainersReady', 'False', {
          reason: 'ContainersNotReady',
          message: `containers with unready status: [${failing.map((c) => c.name).join(' ')}]`,
        }),
        condition('PodScheduled'),
      ],
      hostIP: nodeIp(cluster.find(NODE, undefined, pod.spec.nodeName)),
      startTime: pod.status?.startTime ?? now(),
      containerStatuses: statuses,
    });
    for (const c of failing) {
      if (reason === 'ErrImagePull') {
        cluster.event(pod, 'Normal', 'Pulling', `Pulling image "${c.image}"`, 'kubelet');
        pullFailed(cluster, pod, c.image);
        cluster.event(pod, 'Warning', 'Failed', 'Error: ErrImagePull', 'kubelet');
      } else {
        cluster.event(pod, 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`, 'kubelet');
        cluster.event(pod, 'Warning', 'Failed', 'Error: ImagePullBackOff', 'kubelet');
      }
    }
    if (since === undefined) this.failedAt.set(uid, t);
    if (reason === 'ErrImagePull') ctx.later(ctx.timing.imagePullBackOffMs);
  }

  private run(ctx: Ctx, pod: Obj): void {
    const { cluster } = ctx;
    this.ips++;
    const ip = `10.244.${Math.floor(this.ips / 250)}.${this.ips % 250}`;
    const started = now();
    const crashing = (pod.spec.containers as Obj[]).filter((c) => cluster.failures.crashes(c.image));
    const unready = crashing.length
      ? {
          reason: 'ContainersNotReady',
          message: `containers with unready status: [${crashing.map((c) => c.name).join(' ')}]`,
        }
      : {};
    setStatus(ctx, POD, pod, {
      phase: 'Running',
      conditions: [
        condition('PodReadyToStartContainers'),
        condition('Initialized'),
        condition('Ready', crashing.length ? 'False' : 'True', unready),
        condition('ContainersReady', crashing.length ? 'False' : 'True', unready),
        condition('PodScheduled'),
      ],
      hostIP: nodeIp(cluster.find(NODE, undefined, pod.spec.nodeName)),
      hostIPs: [{ ip: nodeIp(cluster.find(NODE, undefined, pod.spec.nodeName)) }],
      podIP: ip,
      podIPs: [{ ip }],
      startTime: pod.status?.startTime ?? started,
      qosClass: pod.status?.qosClass ?? 'BestEffort',
      containerStatuses: (pod.spec.containers as Obj[]).map((c) =>
        crashing.includes(c)
          ? crashedStatus(pod, c, 1, started)
          : {
              name: c.name,
              image: c.image,
              imageID: `docker.io/library/${c.image}@sha256:${randomBytes(32).toString('hex')}`,
              containerID: `containerd://${randomBytes(32).toString('hex')}`,
              ready: true,
              restartCount: 0,
              started: true,
              lastState: {},
              state: { running: { startedAt: started } },
            },
      ),
    });
    if (crashing.length) this.restartedAt.set(pod.metadata.uid, Date.now());
    for (const c of pod.spec.containers as Obj[]) {
      cluster.event(
        pod,
        'Normal',
        'Pulled',
        `Container image "${c.image}" already present on machine`,
        'kubelet',
      );
      cluster.event(pod, 'Normal', 'Created', `Created container: ${c.name}`, 'kubelet');
      cluster.event(pod, 'Normal', 'Started', `Started container ${c.name}`, 'kubelet');
      if (crashing.includes(c)) backOffEvent(cluster, pod, c);
    }
  }

  /** The containers of a pod that ran fine exit with an error: not ready, in CrashLoopBackOff. */
  private breaks(ctx: Ctx, pod: Obj): void {
    const statuses: Obj[] = pod.status?.containerStatuses ?? [];
    if (statuses.every((s) => s.state?.waiting?.reason === 'CrashLoopBackOff')) return;
    const at = now();
    this.restartedAt.set(pod.metadata.uid, Date.now());
    const containers = pod.spec.containers as Obj[];
    const message = `containers with unready status: [${containers.map((c) => c.name).join(' ')}]`;
    setStatus(ctx, POD, pod, {
      ...pod.status,
      conditions: (pod.status.conditions ?? []).map((c: Obj) =>
        c.type === 'Ready' || c.type === 'ContainersReady'
          ? { ...c, status: 'False', lastTransitionTime: at, reason: 'ContainersNotReady', message }
          : c,
      ),
      containerStatuses: containers.map((c) => {
        backOffEvent(ctx.cluster, pod, c);
        const before = statuses.find((s) => s.name === c.name);
        return crashedStatus(
          pod,
          c,
          (before?.restartCount ?? 0) + 1,
          before?.state?.running?.startedAt ?? at,
        );
      }),
    });
  }

  /** A crashing container is restarted after a back-off that doubles, and fails again. */
  private crashLoop(ctx: Ctx, pod: Obj, t: number): void {
    const statuses: Obj[] = pod.status?.containerStatuses ?? [];
    const crashed = statuses.filter((s) => s.state?.waiting?.reason === 'CrashLoopBackOff');
    if (!crashed.length) return;
    const restarts = Math.max(...crashed.map((s) => s.restartCount ?? 0));
    const since = this.restartedAt.get(pod.metadata.uid) ?? t;
    const due = since + ctx.timing.imagePullBackOffMs * 2 ** Math.min(restarts, 6);
    if (t < due) {
      ctx.later(due - t);
      return;
    }
    this.restartedAt.set(pod.metadata.uid, t);
    const started = now();
    setStatus(ctx, POD, pod, {
      ...pod.status,
      containerStatuses: statuses.map((s) => {
        if (!crashed.includes(s)) return s;
        const c = (pod.spec.containers as Obj[]).find((x) => x.name === s.name)!;
        backOffEvent(ctx.cluster, pod, c);
        return crashedStatus(pod, c, (s.restartCount ?? 0) + 1, started);
      }),
    });
  }

  /**
   * A container whose image was changed in place is restarted with the new one (restartCount
   * counts it), or waits in ErrImagePull, leaving the pod not ready, when that image cannot be pulled.
   */
  private restartChanged(ctx: Ctx, pod: Obj): void {
    const { cluster } = ctx;
    const statuses: Obj[] = pod.status?.containerStatuses ?? [];
    const changed = (pod.spec.containers as Obj[]).filter((c) => {
      const st = statuses.find((x) => x.name === c.name);
      return st && st.image !== c.image;
    });
    if (!changed.length) return;
    const started = now();
    const next = statuses.map((st) => {
      const c = changed.find((x) => x.name === st.name);
      if (!c) return st;
      cluster.event(
        pod,
        'Normal',
        'Killing',
        `Container ${c.name} definition changed, will be restarted`,
        'kubelet',
      );
      if (cluster.failures.pullFails(c.image)) {
        pullFailed(cluster, pod, c.image);
        return {
          ...st,
          image: c.image,
          ready: false,
          started: false,
          state: { waiting: { reason: 'ErrImagePull', message: pullMessage(c.image) } },
        };
      }
      cluster.event(
        pod,
        'Normal',
        'Pulled',
        `Container image "${c.image}" already present on machine`,
        'kubelet',
      );
      cluster.event(pod, 'Normal', 'Started', `Started container ${c.name}`, 'kubelet');
      return {
        ...st,
        image: c.image,
        imageID: `docker.io/library/${c.image}@sha256:${randomBytes(32).toString('hex')}`,
        containerID: `containerd://${randomBytes(32).toString('hex')}`,
        ready: true,
        started: true,
        restartCount: (st.restartCount ?? 0) + 1,
        lastState: {
          terminated: {
            exitCode: 0,
            reason: 'Completed',
            startedAt: st.state?.running?.startedAt,
            finishedAt: started,
          },
        },
        state: { running: { startedAt: started } },
      };
    });
    const allReady = next.every((st) => st.ready);
    const flag = allReady ? 'True' : 'False';
    setStatus(ctx, POD, pod, {
      ...pod.status,
      conditions: (pod.status.conditions ?? []).map((c: Obj) =>
        (c.type === 'Ready' || c.type === 'ContainersReady') && c.status !== flag
          ? { ...c, status: flag, lastTransitionTime: started }
          : c,
      ),
      containerStatuses: next,
    });
  }

  private terminate(ctx: Ctx, pod: Obj, t: number): void {
    const uid = pod.metadata.uid;
    if (!this.stoppingSince.has(uid)) {
      this.stoppingSince.set(uid, t);
      if (pod.status?.phase === 'Running') {
        for (const c of pod.spec.containers as Obj[])
          ctx.cluster.event(pod, 'Normal', 'Killing', `Stopping container ${c.name}`, 'kubelet');
      }
    }
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
    const due = this.stoppingSince.get(uid)! + Math.min(grace, ctx.timing.podStopMs);
    if (t < due) {
      ctx.later(due - t);
      return;
    }
    if (pod.status?.phase === 'Running') {
      // The containers stopped: the kubelet reports them terminated and the pod not ready, then deletes it.
      const at = now();
      setStatus(ctx, POD, pod, {
        ...pod.status,
        phase: 'Succeeded',
        conditions: (pod.status.conditions ?? []).map((c: Obj) =>
          c.type === 'Ready' || c.type === 'ContainersReady' || c.type === 'PodReadyToStartContainers'
            ? {
                ...c,
                status: 'False',
                lastTransitionTime: at,
                ...(c.type === 'PodReadyToStartContainers' ? {} : { reason: 'PodCompleted' }),
              }
            : c,
        ),
        containerStatuses: (pod.status.containerStatuses ?? []).map((c: Obj) => ({
          ...c,
          ready: false,
          started: false,
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: c.state?.running?.startedAt,
              finishedAt: at,
              containerID: c.containerID,
            },
          },
        })),
      });
    }
    if ((pod.metadata.finalizers ?? []).length) return;
    ctx.cluster.store.remove(POD, pod.metadata.namespace, pod.metadata.name);
    this.stoppingSince.delete(uid);
    this.failedAt.delete(uid);
    this.restartedAt.delete(uid);
  }
}
