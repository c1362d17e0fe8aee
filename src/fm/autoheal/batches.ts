/**
 * Auto-heal batches as rows (table auto_heals, migration 0014): a heal-kind alarm joins its
 * instance's pending batch in the transaction that raises it, so no alarm is lost between being
 * raised and being healed, and a storm of alarms within the window becomes one batch, one heal.
 * The window starts with the batch's first alarm (later alarms do not push it back, so a storm
 * that goes on still gets healed). An alarm about VNFCs a running heal already heals joins that
 * heal's batch. An instance whose heals failed too often keeps a given-up batch: its alarms join
 * that one and start nothing.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AutoHealsTable } from '../../store/db/tables.ts';
import type { Executor } from '../../store/db/transaction.ts';

export type BatchState = 'pending' | 'started' | 'given-up';

export interface HealBatch {
  id: string;
  instanceId: string;
  projectId: string;
  instanceMajor: string;
  state: BatchState;
  /** vnfcResourceInfo ids to heal. */
  vnfcIds: string[];
  alarmIds: string[];
  /** Heal the whole VNF (a rule said so) rather than the VNFCs. */
  whole: boolean;
  dueAt: string;
  /** Automatic heals of this instance that failed so far. */
  attempts: number;
  opOccId?: string;
  lastError?: string;
  createdAt: string;
  version: number;
}

/** What one heal-kind alarm asks for. */
export interface HealWish {
  instanceId: string;
  projectId: string;
  instanceMajor: string;
  vnfcIds: readonly string[];
  whole: boolean;
  alarmId: string;
}

export function batchFromRow(row: AutoHealsTable): HealBatch {
  return {
    id: row.id,
    instanceId: row.instance_id,
    projectId: row.project_id,
    instanceMajor: row.instance_major,
    state: row.state as BatchState,
    vnfcIds: JSON.parse(row.vnfc_ids),
    alarmIds: JSON.parse(row.alarm_ids),
    whole: row.whole === true || row.whole === 1,
    dueAt: row.due_at,
    attempts: Number(row.attempts),
    ...(row.op_occ_id ? { opOccId: row.op_occ_id } : {}),
    ...(row.last_error ? { lastError: row.last_error } : {}),
    createdAt: row.created_at,
    version: Number(row.version),
  };
}

export function batchToRow(b: HealBatch): AutoHealsTable {
  return {
    id: b.id,
    instance_id: b.instanceId,
    project_id: b.projectId,
    instance_major: b.instanceMajor,
    state: b.state,
    vnfc_ids: JSON.stringify(b.vnfcIds),
    alarm_ids: JSON.stringify(b.alarmIds),
    whole: b.whole,
    due_at: b.dueAt,
    attempts: b.attempts,
    op_occ_id: b.opOccId ?? null,
    last_error: b.lastError ?? null,
    created_at: b.createdAt,
    version: b.version,
  };
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/** Concurrent writers of one batch retry this often. */
const MAX_RACES = 5;

/**
 * Writes `next` over the batch if it is still at `expected.version` (and bumps it); false when
 * another writer changed it meanwhile.
 */
export async function saveBatch(trx: Executor, next: HealBatch, expected: HealBatch): Promise<boolean> {
  const { id: _id, ...rest } = batchToRow({ ...next, version: expected.version + 1 });
  const result = await trx
    .updateTable('auto_heals')
    .set(rest)
    .where('id', '=', expected.id)
    .where('version', '=', expected.version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteBatch(trx: Executor, batch: HealBatch): Promise<boolean> {
  const result = await trx
    .deleteFrom('auto_heals')
    .where('id', '=', batch.id)
    .where('version', '=', batch.version)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** The instance's batch in `state` (the oldest, for started ones). */
export async function batchOf(
  trx: Executor,
  instanceId: string,
  state: BatchState,
): Promise<HealBatch | undefined> {
  const row = await trx
    .selectFrom('auto_heals')
    .selectAll()
    .where('instance_id', '=', instanceId)
    .where('state', '=', state)
    .orderBy('created_at')
    .executeTakeFirst();
  return row && batchFromRow(row);
}

/**
 * Adds the alarm's wish to its instance's batch: the given-up one when auto-heal gave up on the
 * instance, else the pending one (made, due `windowMs` from now, when there is none).
 * `attempts` carries the failures of an earlier batch of the instance.
 */
export async function joinBatch(
  trx: Executor,
  wish: HealWish,
  windowMs: number,
  carried: { attempts?: number; lastError?: string; notBefore?: string } = {},
): Promise<HealBatch> {
  for (let race = 0; race < MAX_RACES; race++) {
    // A heal running for these VNFCs (or the whole VNF) answers this alarm too: a storm that
    // goes on while it runs must not start another heal of the same VNFCs after it.
    const running = await batchOf(trx, wish.instanceId, 'started');
    if (
      running &&
      !wish.whole &&
      (running.whole || wish.vnfcIds.every((id) => running.vnfcIds.includes(id)))
    ) {
      const next = { ...running, alarmIds: union(running.alarmIds, [wish.alarmId]) };
      if (await saveBatch(trx, next, running)) return { ...next, version: running.version + 1 };
      continue;
    }
    const current =
      (await batchOf(trx, wish.instanceId, 'given-up')) ?? (await batchOf(trx, wish.instanceId, 'pending'));
    if (current) {
      const attempts = Math.max(current.attempts, carried.attempts ?? 0);
      const next: HealBatch = {
        ...current,
        vnfcIds: union(current.vnfcIds, wish.vnfcIds),
        alarmIds: union(current.alarmIds, [wish.alarmId]),
        whole: current.whole || wish.whole,
        attempts,
        dueAt: carried.notBefore && carried.notBefore > current.dueAt ? carried.notBefore : current.dueAt,
        ...(carried.lastError ? { lastError: carried.lastError } : {}),
      };
      if (await saveBatch(trx, next, current)) return { ...next, version: current.version + 1 };
      continue;
    }
    const now = Date.now();
    const due = new Date(now + windowMs).toISOString();
    const batch: HealBatch = {
      id: randomUUID(),
      instanceId: wish.instanceId,
      projectId: wish.projectId,
      instanceMajor: wish.instanceMajor,
      state: 'pending',
      vnfcIds: [...new Set(wish.vnfcIds)],
      alarmIds: [wish.alarmId],
      whole: wish.whole,
      dueAt: carried.notBefore && carried.notBefore > due ? carried.notBefore : due,
      attempts: carried.attempts ?? 0,
      ...(carried.lastError ? { lastError: carried.lastError } : {}),
      createdAt: new Date(now).toISOString(),
      version: 1,
    };
    const inserted = await trx
      .insertInto('auto_heals')
      .values(batchToRow(batch))
      .onConflict((oc) =>
        // A literal, as in the partial index's predicate: a bound parameter would not match it.
        oc.column('instance_id').where('state', '=', sql.lit('pending')).doNothing(),
      )
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return batch;
  }
  throw new Error(`auto-heal batch of VNF instance ${wish.instanceId} is being changed by others`);
}

/** Batches in `state`, oldest due first (pending: only those due by `dueBy`). */
export async function batchesIn(
  db: Executor,
  state: BatchState,
  limit: number,
  dueBy?: string,
): Promise<HealBatch[]> {
  let query = db.selectFrom('auto_heals').selectAll().where('state', '=', state);
  if (dueBy) query = query.where('due_at', '<=', dueBy);
  const rows = await query.orderBy('due_at').orderBy('id').limit(limit).execute();
  return rows.map(batchFromRow);
}

/** Every batch of an instance (for tests and the admin's view). */
export async function batchesOf(db: Executor, instanceId: string): Promise<HealBatch[]> {
  const rows = await db
    .selectFrom('auto_heals')
    .selectAll()
    .where('instance_id', '=', instanceId)
    .orderBy('created_at')
    .execute();
  return rows.map(batchFromRow);
}
