/**
 * Clearing alarms: their fault ended (a resolved alert, a VNFC healthy again, a rebuild's alarm no
 * source reports). A storm clears a thousand alarms at once, so a batch is set-based: the
 * fingerprints are resolved to ids with one query per instance and 500 fingerprints, the alarms
 * are cleared by an UPDATE guarded by the alarm still being open (returning the rows as written,
 * so a concurrent acknowledgement is in the notification) — on PostgreSQL one for the whole
 * batch, its times in one JSON parameter; on SQLite one per 500 ids — and the
 * AlarmClearedNotifications are written together in the caller's transaction.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { VnfInstanceFacts } from '../notify/vnf-instance-filter.ts';
import type { Database } from '../store/db/database.ts';
import type { AlarmsTable } from '../store/db/tables.ts';
import { type Executor, inTransaction } from '../store/db/transaction.ts';
import { type AlarmRecord, nowIso } from './model.ts';
import { clearedNotice, sendNotices } from './notify.ts';
import { alarmFromRow } from './store.ts';
import { subjectFacts } from './subject.ts';

/** Which alarm to clear: by id, or the open alarm of a source's fingerprint on an instance. */
export type ClearSelector = ({ id: string } | { managedObjectId: string; fingerprint: string }) & {
  /** When the fault ended (the alert's endsAt); default: now. */
  clearedTime?: string;
};

// Ids (or fingerprints) of one statement: well under both databases' parameter limits.
const KEYS_PER_QUERY = 500;

/** Clears the selected alarms in one transaction; the alarms cleared (already cleared or unknown: left out). */
export function clearAlarms(db: Database, selectors: readonly ClearSelector[]): Promise<AlarmRecord[]> {
  return inTransaction(db, (trx) => clearAlarmsIn(trx, selectors));
}

/** Clears one alarm; undefined when there is no open alarm to clear. */
export async function clearAlarm(db: Database, selector: ClearSelector): Promise<AlarmRecord | undefined> {
  return (await clearAlarms(db, [selector]))[0];
}

/**
 * clearAlarmsIn in the caller's transaction; the alarms cleared, in the order of their selectors
 * (an alarm selected twice is cleared once, at the first selector's time).
 */
export async function clearAlarmsIn(
  trx: Executor,
  selectors: readonly ClearSelector[],
  options: { notify?: boolean } = {},
): Promise<AlarmRecord[]> {
  const now = nowIso();
  const wanted = await clearedTimes(trx, selectors, now);
  const ids = [...wanted.keys()];
  const byId = new Map<string, AlarmRecord>();
  const rows =
    trx.getExecutor().adapter instanceof PostgresAdapter
      ? await clearAllPostgres(trx, ids, wanted, now)
      : await clearInChunks(trx, ids, wanted, now);
  for (const row of rows) byId.set(row.id, alarmFromRow(row));
  const cleared = ids.flatMap((id) => byId.get(id) ?? []);
  if (options.notify !== false) await sendNotices(trx, await clearedNotices(trx, cleared));
  return cleared;
}

/** PostgreSQL: every alarm of the batch in one UPDATE, each time joined from one JSON parameter. */
async function clearAllPostgres(
  trx: Executor,
  ids: readonly string[],
  wanted: ReadonlyMap<string, string>,
  now: string,
): Promise<AlarmsTable[]> {
  if (ids.length === 0) return [];
  const times = JSON.stringify(ids.map((id) => ({ id, t: wanted.get(id) })));
  const { rows } = await sql<AlarmsTable>`update alarms
    set alarm_cleared_time = u.t, alarm_changed_time = ${now}, version = alarms.version + 1
    from json_to_recordset(${times}::json) as u(id text, t text)
    where alarms.id = u.id and alarms.alarm_cleared_time is null
    returning alarms.*`.execute(trx);
  return rows;
}

/** SQLite: an UPDATE per 500 ids, the times in a CASE when they differ. */
async function clearInChunks(
  trx: Executor,
  ids: readonly string[],
  wanted: ReadonlyMap<string, string>,
  now: string,
): Promise<AlarmsTable[]> {
  const cleared: AlarmsTable[] = [];
  for (let i = 0; i < ids.length; i += KEYS_PER_QUERY) {
    const chunk = ids.slice(i, i + KEYS_PER_QUERY);
    const times = new Set(chunk.map((id) => wanted.get(id)));
    const clearedTime =
      times.size === 1
        ? sql<string>`${wanted.get(chunk[0])}`
        : sql<string>`case ${sql.ref('id')} ${sql.join(
            chunk.map((id) => sql`when ${id} then ${wanted.get(id)}`),
            sql` `,
          )} end`;
    const rows = await trx
      .updateTable('alarms')
      .set({
        alarm_cleared_time: clearedTime,
        alarm_changed_time: now,
        version: sql<number>`${sql.ref('version')} + 1`,
      })
      .where('id', 'in', chunk)
      // Cleared by someone else meanwhile: nothing left to do.
      .where('alarm_cleared_time', 'is', null)
      .returningAll()
      .execute();
    cleared.push(...rows);
  }
  return cleared;
}

/**
 * The ids of the selected open alarms, in selector order, with the time each fault ended
 * (normalized; unknown or unreadable: now). Ids are taken as given: the UPDATE checks them.
 */
async function clearedTimes(
  trx: Executor,
  selectors: readonly ClearSelector[],
  now: string,
): Promise<Map<string, string>> {
  const byFingerprint = await openIdsByFingerprint(
    trx,
    selectors.flatMap((s) => ('id' in s ? [] : [s])),
  );
  const wanted = new Map<string, string>();
  for (const selector of selectors) {
    const id =
      'id' in selector
        ? selector.id
        : byFingerprint.get(fingerprintKey(selector.managedObjectId, selector.fingerprint));
    if (id === undefined || wanted.has(id)) continue;
    const when = selector.clearedTime ? Date.parse(selector.clearedTime) : Number.NaN;
    wanted.set(id, Number.isNaN(when) ? now : new Date(when).toISOString());
  }
  return wanted;
}

const fingerprintKey = (instanceId: string, fingerprint: string) => `${instanceId}\n${fingerprint}`;

/** The open alarms of (instance, fingerprint) pairs: one query per instance and 500 fingerprints. */
async function openIdsByFingerprint(
  trx: Executor,
  selectors: readonly { managedObjectId: string; fingerprint: string }[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const byInstance = Map.groupBy(selectors, (s) => s.managedObjectId);
  for (const [instanceId, wanted] of byInstance) {
    const fingerprints = [...new Set(wanted.map((s) => s.fingerprint))];
    for (let i = 0; i < fingerprints.length; i += KEYS_PER_QUERY) {
      const rows = await trx
        .selectFrom('alarms')
        .select(['id', 'fingerprint'])
        .where('managed_object_id', '=', instanceId)
        .where('fingerprint', 'in', fingerprints.slice(i, i + KEYS_PER_QUERY))
        .where('alarm_cleared_time', 'is', null)
        .execute();
      for (const row of rows) ids.set(fingerprintKey(instanceId, row.fingerprint), row.id);
    }
  }
  return ids;
}

/** AlarmClearedNotification of each alarm, its instance's facts read once per instance. */
async function clearedNotices(trx: Executor, alarms: readonly AlarmRecord[]) {
  const facts = new Map<string, VnfInstanceFacts>();
  const notices = [];
  for (const alarm of alarms) {
    let instance = facts.get(alarm.managedObjectId);
    if (!instance) {
      instance = await subjectFacts(trx, alarm.managedObjectId);
      facts.set(alarm.managedObjectId, instance);
    }
    notices.push(clearedNotice(alarm, instance));
  }
  return notices;
}
