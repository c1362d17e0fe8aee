/**
 * Failure injection, the side door tests use to make the cluster fail as real ones do: an image
 * that cannot be pulled (pods stay Waiting with ErrImagePull, then ImagePullBackOff, with Warning
 * events), an image whose container keeps exiting (CrashLoopBackOff), a running pod whose containers
 * start failing, a quota that admission enforces (403 Forbidden on create, as the ResourceQuota
 * admission answers), and pods no node has room for (Pending with a FailedScheduling event).
 */
import { type Kind, qualifiedResource } from './kinds.ts';
import { parseLabelSelector } from './selectors.ts';
import { forbidden } from './status.ts';
import type { Obj } from './store.ts';

export interface Quota {
  /** The ResourceQuota's name, as admission names it in its message. */
  name?: string;
  namespace: string;
  /** The resource counted, as a ResourceQuota names it: "pods", "services", "count/deployments.apps"… */
  resource: string;
  hard: number;
}

const matches = (u: { namespace?: string; selector: string }, pod: Obj) =>
  (!u.namespace || u.namespace === pod.metadata.namespace) &&
  parseLabelSelector(u.selector)(pod.metadata.labels);

export class Failures {
  private pullErrors = new Set<string>();
  private slowPulls = new Set<string>();
  private crashing = new Set<string>();
  private quotas: Quota[] = [];
  private unschedulable: { namespace?: string; selector: string }[] = [];
  private broken = new Set<string>();
  private listeners = new Set<() => void>();

  /** Calls `fn` after each change of the failures; returns its unsubscription. */
  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  /** Pulling `image` (as written in the pod spec) fails. */
  imagePullError(image: string): void {
    this.pullErrors.add(image);
    this.changed();
  }

  /**
   * Pulling `image` takes until `releasePull(image)`: its pods stay Pending, their containers
   * waiting in ContainerCreating, as behind a slow registry (nothing failed, the rollout is held).
   */
  holdPull(image: string): void {
    this.slowPulls.add(image);
    this.changed();
  }

  releasePull(image: string): void {
    this.slowPulls.delete(image);
    this.changed();
  }

  pullHeld(image: string): boolean {
    return this.slowPulls.has(image);
  }

  /** Containers running `image` exit with an error at once: the pod is Running but not ready, in CrashLoopBackOff. */
  crashLoop(image: string): void {
    this.crashing.add(image);
    this.changed();
  }

  crashes(image: string): boolean {
    return this.crashing.has(image);
  }

  /** Pods matching `selector` (a label selector; '' = every pod) in `namespace` (any if absent) fit on no node. */
  unschedulablePods(selector = '', namespace?: string): void {
    this.unschedulable.push({ namespace, selector });
    this.changed();
  }

  /** The running pod `name` in `namespace` has its containers exit (its node's runtime failed): CrashLoopBackOff. */
  breakPod(namespace: string, name: string): void {
    this.broken.add(`${namespace}/${name}`);
    this.changed();
  }

  isBroken(pod: Obj): boolean {
    return this.broken.has(`${pod.metadata.namespace}/${pod.metadata.name}`);
  }

  quota(q: Quota): void {
    this.quotas.push(q);
    this.changed();
  }

  clear(): void {
    this.pullErrors.clear();
    this.slowPulls.clear();
    this.crashing.clear();
    this.quotas = [];
    this.unschedulable = [];
    this.broken.clear();
    this.changed();
  }

  pullFails(image: string): boolean {
    return this.pullErrors.has(image);
  }

  fitsNowhere(pod: Obj): boolean {
    return this.unschedulable.some((u) => matches(u, pod));
  }

  /** Admission: throws the real ResourceQuota admission's 403 when `count` (the objects there now) is at the limit. */
  admit(kind: Kind, obj: Obj, count: number): void {
    const names = [kind.plural, `count/${qualifiedResource(kind)}`];
    const q = this.quotas.find((x) => x.namespace === obj.metadata.namespace && names.includes(x.resource));
    if (!q || count < q.hard) return;
    const r = q.resource;
    throw forbidden(
      kind,
      obj.metadata.name,
      `exceeded quota: ${q.name ?? 'quota'}, requested: ${r}=1, used: ${r}=${count}, limited: ${r}=${q.hard}`,
    );
  }
}
