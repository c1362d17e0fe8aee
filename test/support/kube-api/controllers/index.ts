/**
 * Runs the test cluster's controllers: after every change (coalesced), and when one asked to be
 * run again at a time; stopping clears every timer so that a stopped server leaves nothing behind.
 */
import type { Cluster } from '../cluster.ts';
import type { Obj } from '../store.ts';
import type { Controller, Ctx, Timing } from './context.ts';
import { NODE } from './context.ts';
import { DaemonSets } from './daemonset.ts';
import { Deployments } from './deployment.ts';
import { GarbageCollector } from './garbage.ts';
import { PodLifecycle } from './pods.ts';
import { ReplicaSets } from './replicaset.ts';
import { StatefulSets } from './statefulset.ts';

export type { Timing } from './context.ts';

export class Controllers {
  private readonly all: Controller[] = [
    new Deployments(),
    new ReplicaSets(),
    new StatefulSets(),
    new DaemonSets(),
    new PodLifecycle(),
    new GarbageCollector(),
  ];
  private scheduled: NodeJS.Immediate | undefined;
  /** The one pending wake-up, the earliest asked for: each pass asks again for what it still waits on. */
  private timer: { at: number; handle: NodeJS.Timeout } | undefined;
  private stopped = false;
  private unsubscribe: () => void;
  /** Errors a controller threw (a bug of the test server): tests may assert there are none. */
  readonly errors: Error[] = [];
  private readonly ctx: Ctx;

  constructor(cluster: Cluster, timing: Timing) {
    this.ctx = {
      cluster,
      timing,
      later: (ms) => this.later(ms),
      // The nodes new pods may go to: Ready and not cordoned.
      nodes: () =>
        cluster.store
          .list(
            NODE,
            undefined,
            (n) =>
              !n.spec?.unschedulable &&
              (n.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True'),
          )
          .map((n) => n.metadata.name),
    };
    const fromStore = cluster.store.onChange(() => this.kick());
    // A fault injected or cleared is a change the kubelets and the scheduler act on, as on a real node.
    const fromFailures = cluster.failures.onChange(() => this.kick());
    this.unsubscribe = () => {
      fromStore();
      fromFailures();
    };
    this.kick();
  }

  kick(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      for (const c of this.all) {
        try {
          c.sync(this.ctx);
        } catch (e) {
          this.errors.push(e as Error);
        }
      }
    });
  }

  private later(ms: number): void {
    if (this.stopped) return;
    const wait = Math.max(1, Math.min(ms, 2 ** 31 - 1));
    const at = Date.now() + wait;
    if (this.timer && this.timer.at <= at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    this.timer = {
      at,
      handle: setTimeout(() => {
        this.timer = undefined;
        this.kick();
      }, wait),
    };
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    if (this.scheduled) clearImmediate(this.scheduled);
    if (this.timer) clearTimeout(this.timer.handle);
  }
}
