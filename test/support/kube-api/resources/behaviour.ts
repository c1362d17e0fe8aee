/**
 * What a kind does beyond being stored, as the real server's strategies do: defaults filled in
 * on every write, validation (422 causes), and what a create or update resets (a Pod starts
 * Pending; a workload's status is its controller's, so a write to the resource keeps it).
 */
import type { Cause } from '../status.ts';
import type { Obj } from '../store.ts';

export interface Allocator {
  /** A free cluster IP for a Service. */
  clusterIp(): string;
  /** A free node port (30000-32767). */
  nodePort(): number;
}

export interface Behaviour {
  /** On an update, before defaults: what the server keeps from the old object when the new one leaves it out. */
  carry?(obj: Obj, old: Obj): void;
  defaults?(obj: Obj, alloc: Allocator): void;
  validate?(obj: Obj, old: Obj | undefined): Cause[];
  /** A new object's status, before anything observed it. */
  initialStatus?(obj: Obj): Obj | undefined;
}
