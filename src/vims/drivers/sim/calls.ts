/**
 * One call to the simulated VIM (create a server, delete a port…): it honours the abort signal,
 * consumes an injected fault of its kind (fail or hang), takes the configured simulated time,
 * then changes the VIM's state in one transaction, journaling what it changed for rollback.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../../store/db/database.ts';
import { inTransaction } from '../../../store/db/transaction.ts';
import { InfraError } from '../../contract.ts';
import type { SimConfig } from './config.ts';
import { armedFaultKinds, takeFault } from './faults.ts';
import { Journal } from './journal.ts';

/** Every kind of call; faults are injected per kind ('*' matches them all). */
export const SIM_CALL_KINDS = [
  'stack.create',
  'stack.update',
  'stack.delete',
  'server.create',
  'server.delete',
  'server.rebuild',
  'server.resize',
  'server.start',
  'server.stop',
  'server.update',
  'volume.create',
  'volume.delete',
  'volume.update',
  'network.create',
  'network.delete',
  'network.update',
  'port.create',
  'port.delete',
  'port.update',
  'image.create',
  'image.delete',
  'image.update',
] as const;
export type SimCallKind = (typeof SIM_CALL_KINDS)[number];

/** What every call needs: the database, the configuration, and the operation it belongs to. */
export interface CallScope {
  db: Database;
  sim: SimConfig;
  signal?: AbortSignal;
  instanceId: string;
  /** The op occ whose changes are journaled; undefined = not journaled (terminate). */
  journalOpOccId?: string;
  /** The op occ tagged on the resources created. */
  opOccId: string;
  /**
   * The kinds of the faults armed when the operation made its first call (armedFaultKinds):
   * a call looks for its fault only when one of its kind was armed, so that an operation of
   * twenty calls reads the fault table once, not twenty times. A fault armed while an
   * operation runs applies from the next operation on.
   */
  armed?: Promise<ReadonlySet<string>>;
}

export const cancelled = () => new InfraError('CANCELLED', 'The operation was cancelled.');

export function checkSignal(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}

/** Waits `ms`, or throws CANCELLED as soon as the signal aborts. */
export async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  checkSignal(signal);
  if (ms <= 0) return;
  try {
    await sleep(ms, undefined, { signal });
  } catch (err) {
    if (signal?.aborted) throw cancelled();
    throw err;
  }
}

/**
 * A call that makes one journaled change (an insert, update or removal of one row): on
 * PostgreSQL that change and its journal entry are one statement, so it runs without a
 * transaction of its own (three round trips fewer).
 */
export function vimChange(
  scope: CallScope,
  kind: SimCallKind,
  change: (journal: Journal) => Promise<void>,
): Promise<void> {
  return vimCall(scope, kind, change, { oneChange: true });
}

export async function vimCall<T>(
  scope: CallScope,
  kind: SimCallKind,
  work: (journal: Journal) => Promise<T>,
  options: { oneChange?: boolean } = {},
): Promise<T> {
  checkSignal(scope.signal);
  scope.armed ??= armedFaultKinds(scope.db);
  const armed = await scope.armed;
  const fault = armed.has(kind) || armed.has('*') ? await takeFault(scope.db, kind) : undefined;
  if (fault?.action === 'fail') {
    throw new InfraError('VIM_OPERATION_FAILED', fault.message ?? `Simulated failure of ${kind}.`, {
      kind,
      injected: true,
    });
  }
  if (fault?.action === 'hang') {
    await wait(fault.timeoutMs ?? scope.sim.hangTimeoutMs, scope.signal);
    throw new InfraError('VIM_TIMEOUT', fault.message ?? `The VIM did not answer ${kind} in time.`, {
      kind,
      injected: true,
    });
  }
  await wait(scope.sim.operationDelayMs, scope.signal);
  if (options.oneChange && scope.db.dialect === 'postgres') {
    return work(new Journal(scope.db.kysely, scope.db.dialect, scope.instanceId, scope.journalOpOccId));
  }
  return inTransaction(scope.db, async (trx) => {
    const journal = new Journal(trx, scope.db.dialect, scope.instanceId, scope.journalOpOccId);
    const result = await work(journal);
    await journal.flush();
    return result;
  });
}

/**
 * Takes a port away from its instance: the VNF's own port is deleted; a port it was given
 * (supplied in the request) is detached and stays, free for its owner, as Neutron keeps a
 * pre-created port when the server using it goes.
 */
export async function removePort(
  scope: CallScope,
  port: { id: string; owned: boolean | number },
): Promise<void> {
  if (port.owned) {
    await vimChange(scope, 'port.delete', (j) => j.remove('sim_ports', port.id));
    return;
  }
  await vimChange(scope, 'port.update', (j) =>
    j.update('sim_ports', port.id, {
      instance_id: null,
      stack_id: null,
      vnfc_id: null,
      cpd_id: null,
      ext_vl_id: null,
      cp_config_id: null,
      server_id: null,
    }),
  );
}
