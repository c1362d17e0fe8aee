/**
 * Injected faults: "the next N calls of kind K fail with this message, or hang". A call takes
 * one with a conditional UPDATE, so that with several processes each injected fault is used
 * exactly `count` times.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../../store/db/database.ts';
import type { SimFaultsTable } from '../../../store/db/tables.ts';

export interface SimFault {
  id: string;
  /** A call kind (`server.create`…) or `*` for any. */
  kind: string;
  action: 'fail' | 'hang';
  message?: string;
  /** Calls still to be affected. */
  remaining: number;
  /** Hang: how long before the call gives up with a timeout (default sim.hangTimeoutMs). */
  timeoutMs?: number;
  createdAt: string;
}

export interface NewFault {
  kind: string;
  action: 'fail' | 'hang';
  message?: string;
  count?: number;
  timeoutMs?: number;
}

const fromRow = (row: SimFaultsTable): SimFault => ({
  id: row.id,
  kind: row.kind,
  action: row.action as SimFault['action'],
  ...(row.message !== null ? { message: row.message } : {}),
  remaining: Number(row.remaining),
  ...(row.timeout_ms !== null ? { timeoutMs: Number(row.timeout_ms) } : {}),
  createdAt: row.created_at,
});

export async function addFault(db: Database, fault: NewFault): Promise<SimFault> {
  const row: SimFaultsTable = {
    id: randomUUID(),
    kind: fault.kind,
    action: fault.action,
    message: fault.message ?? null,
    remaining: fault.count ?? 1,
    timeout_ms: fault.timeoutMs ?? null,
    created_at: new Date().toISOString(),
  };
  await db.kysely.insertInto('sim_faults').values(row).execute();
  return fromRow(row);
}

export async function listFaults(db: Database): Promise<SimFault[]> {
  const rows = await db.kysely
    .selectFrom('sim_faults')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

export async function removeFault(db: Database, id: string): Promise<boolean> {
  const result = await db.kysely.deleteFrom('sim_faults').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function clearFaults(db: Database): Promise<number> {
  const result = await db.kysely.deleteFrom('sim_faults').executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The kinds of the faults armed now ('*' for any call). */
export async function armedFaultKinds(db: Database): Promise<ReadonlySet<string>> {
  const rows = await db.kysely.selectFrom('sim_faults').select('kind').where('remaining', '>', 0).execute();
  return new Set(rows.map((r) => r.kind));
}

/** Takes one use of the oldest fault matching `kind`, if any. */
export async function takeFault(db: Database, kind: string): Promise<SimFault | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.kysely
      .selectFrom('sim_faults')
      .selectAll()
      .where('kind', 'in', [kind, '*'])
      .where('remaining', '>', 0)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    if (!row) return undefined;
    const taken = await db.kysely
      .updateTable('sim_faults')
      .set((eb) => ({ remaining: eb('remaining', '-', 1) }))
      .where('id', '=', row.id)
      .where('remaining', '>', 0)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      await db.kysely.deleteFrom('sim_faults').where('id', '=', row.id).where('remaining', '<=', 0).execute();
      return fromRow(row);
    }
  }
  return undefined;
}
