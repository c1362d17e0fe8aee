/**
 * What happens to an alarm: raised (or refreshed: deduplicated by the source's fingerprint),
 * acknowledged and escalated (cleared: clear.ts). Each change and its notification commit in one
 * transaction, so a subscriber hears of exactly the changes that happened.
 *
 * Raising a fingerprint that has an open alarm in the project updates that alarm: only a change
 * of what the alarm says (severity, cause, details, resources) bumps alarmChangedTime and
 * notifies, so a source that re-sends a firing alert (Alertmanager repeats them) stays quiet.
 * Acknowledging notifies nobody (the acknowledging consumer knows; SOL003 notifies raises and
 * changes of the fault), escalation does.
 */
import { randomUUID } from 'node:crypto';
import { PostgresAdapter, sql } from 'kysely';
import { ApiError, conflict, notFound, unprocessable } from '../sol/problem.ts';
import type { Database } from '../store/db/database.ts';
import { type ColumnTypes, jsonRows } from '../store/db/json-rows.ts';
import type { AlarmsTable } from '../store/db/tables.ts';
import { type Executor, inTransaction } from '../store/db/transaction.ts';
import {
  type AckState,
  type AlarmRecord,
  checkRaiseAlarmInput,
  isMoreUrgent,
  nowIso,
  type RaiseAlarmInput,
  type RaisedSeverity,
} from './model.ts';
import { notifyAlarm, raisedNotice, sendNotices } from './notify.ts';
import { alarmFromRow, alarmToRow, findAlarm, findOpenAlarm, saveAlarm } from './store.ts';
import { type AlarmSubject, findAlarmSubject } from './subject.ts';

/** What raising one input did: a new alarm, a change of the open one, nothing new, or refused. */
export type RaiseOutcome =
  | { ok: true; change: 'raised' | 'updated' | 'unchanged'; alarm: AlarmRecord }
  | { ok: false; problem: string };

/** Options of the internal callers (a rebuild announces the whole list instead of each alarm). */
interface ChangeOptions {
  notify?: boolean;
  /** Only instances of this project (others are refused). */
  project?: string;
}

/** Concurrent writers of one alarm retry this often before giving up with 409. */
const MAX_RACES = 5;

/**
 * Raises every input in one transaction (each checked on its own: a refused input is reported in
 * its outcome, the others still apply). Outcomes are in the order of the inputs.
 */
export function raiseAlarms(db: Database, inputs: readonly unknown[]): Promise<RaiseOutcome[]> {
  return inTransaction(db, (trx) => raiseAlarmsIn(trx, inputs));
}

/** Raises one alarm; throws 422 (naming the problem) when the input is refused. */
export async function raiseAlarm(
  db: Database,
  input: RaiseAlarmInput,
): Promise<Extract<RaiseOutcome, { ok: true }>> {
  const [outcome] = await raiseAlarms(db, [input]);
  if (!outcome.ok) throw unprocessable(outcome.problem);
  return outcome;
}

type Change = 'raised' | 'updated' | 'unchanged';

/** An accepted input and the instance it is about. */
interface Planned {
  index: number;
  subject: AlarmSubject;
  input: RaiseAlarmInput;
}

const openKey = (project: string, fingerprint: string) => `${project}\n${fingerprint}`;

// Fingerprints of one query (with the batch's projects): well under both databases' parameter limits.
const KEYS_PER_QUERY = 500;

/**
 * raiseAlarms in the caller's transaction (to commit alarms with other changes). A batch reads the
 * open alarms of its fingerprints at once, inserts its new alarms together and writes every
 * notification in one go; an input that loses a race with another writer is done on its own.
 */
export async function raiseAlarmsIn(
  trx: Executor,
  inputs: readonly unknown[],
  options: ChangeOptions = {},
): Promise<RaiseOutcome[]> {
  const outcomes: RaiseOutcome[] = new Array(inputs.length);
  const planned = await accept(trx, inputs, options, outcomes);
  const open = await openAlarms(trx, planned);
  // A fingerprint new to the database is inserted once, carrying the last statement of the batch.
  const inserts = new Map<string, { record: AlarmRecord; by: Planned[]; changes: Change[] }>();
  const updates = new Map<string, { record: AlarmRecord; expected: number; by: Planned[] }>();
  for (const plan of planned) {
    const key = openKey(plan.subject.projectId, plan.input.fingerprint);
    const current = open.get(key);
    const pending = inserts.get(key);
    if (!current) {
      const record = newAlarm(plan.subject, plan.input);
      open.set(key, record);
      inserts.set(key, { record, by: [plan], changes: ['raised'] });
      continue;
    }
    const statement = said(plan.input, current);
    const same = sameStatement(current, statement);
    if (pending) {
      pending.record = { ...current, ...statement };
      open.set(key, pending.record);
      pending.by.push(plan);
      pending.changes.push(same ? 'unchanged' : 'updated');
      continue;
    }
    if (same) {
      outcomes[plan.index] = { ok: true, change: 'unchanged', alarm: current };
      continue;
    }
    const record: AlarmRecord = { ...current, ...statement, alarmChangedTime: nowIso() };
    open.set(key, record);
    const update = updates.get(key);
    updates.set(key, {
      record,
      expected: update?.expected ?? current.version,
      by: [...(update?.by ?? []), plan],
    });
  }
  const notices = [];
  const retry: Planned[] = [];
  const inserted = await insertNew(
    trx,
    [...inserts.values()].map((i) => i.record),
  );
  for (const { record, by, changes } of inserts.values()) {
    if (!inserted.has(record.id)) {
      retry.push(...by);
      continue;
    }
    by.forEach((plan, n) => {
      outcomes[plan.index] = { ok: true, change: changes[n], alarm: record };
    });
    notices.push(raisedNotice(record, by[0].subject.facts));
  }
  for (const { record, expected, by } of updates.values()) {
    // Every change of the batch is one change of the stored version: a single compare-and-set.
    const saved = { ...record, version: expected + 1 };
    if (!(await saveAlarm(trx, saved, expected))) {
      retry.push(...by);
      continue;
    }
    for (const plan of by) outcomes[plan.index] = { ok: true, change: 'updated', alarm: saved };
    notices.push(raisedNotice(saved, by[0].subject.facts));
  }
  if (options.notify !== false) await sendNotices(trx, notices);
  for (const plan of retry.sort((a, b) => a.index - b.index)) {
    outcomes[plan.index] = { ok: true, ...(await raiseOne(trx, plan.subject, plan.input, options)) };
  }
  return outcomes;
}

/** Checks each input and finds its instance (once per instance); refused ones get their outcome. */
async function accept(
  trx: Executor,
  inputs: readonly unknown[],
  options: ChangeOptions,
  outcomes: RaiseOutcome[],
): Promise<Planned[]> {
  const subjects = new Map<string, AlarmSubject | undefined>();
  const planned: Planned[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      checkRaiseAlarmInput(input);
      const id = input.managedObjectId;
      if (!subjects.has(id)) subjects.set(id, await findAlarmSubject(trx, id));
      const subject = subjects.get(id);
      if (!subject || (options.project !== undefined && subject.projectId !== options.project)) {
        throw unprocessable(`VNF instance ${id} does not exist: no alarm can be raised for it.`);
      }
      planned.push({ index, subject, input });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcomes[index] = { ok: false, problem: error.message };
    }
  }
  return planned;
}

/** The open alarms of the planned fingerprints, by project and fingerprint. */
async function openAlarms(trx: Executor, planned: readonly Planned[]): Promise<Map<string, AlarmRecord>> {
  const open = new Map<string, AlarmRecord>();
  const fingerprints = [...new Set(planned.map((p) => p.input.fingerprint))];
  // The project too: the open-fingerprint index leads with it.
  const projects = [...new Set(planned.map((p) => p.subject.projectId))];
  for (let i = 0; i < fingerprints.length; i += KEYS_PER_QUERY) {
    const rows = await trx
      .selectFrom('alarms')
      .selectAll()
      .where('alarm_cleared_time', 'is', null)
      .where('project_id', 'in', projects)
      .where('fingerprint', 'in', fingerprints.slice(i, i + KEYS_PER_QUERY))
      .execute();
    for (const row of rows) open.set(openKey(row.project_id, row.fingerprint), alarmFromRow(row));
  }
  return open;
}

// Rows of one INSERT on SQLite: 22 values each, under its 32,766 parameters.
const ROWS_PER_INSERT = 500;

/** The alarms columns and their PostgreSQL types, for a batch inserted as one JSON parameter (json-rows.ts). */
const ALARM_TYPES = {
  id: 'text',
  project_id: 'text',
  fingerprint: 'text',
  managed_object_id: 'text',
  instance_major: 'text',
  vnfc_instance_ids: 'text',
  root_cause_faulty_resource: 'text',
  faulty_resource_type: 'text',
  alarm_raised_time: 'text',
  alarm_changed_time: 'text',
  alarm_cleared_time: 'text',
  alarm_acknowledged_time: 'text',
  ack_state: 'text',
  perceived_severity: 'text',
  event_time: 'text',
  event_type: 'text',
  fault_type: 'text',
  probable_cause: 'text',
  is_root_cause: 'boolean',
  correlated_alarm_ids: 'text',
  fault_details: 'text',
  version: 'integer',
} as const satisfies ColumnTypes & Record<keyof AlarmsTable, string>;

/** Inserts new alarms; the ids inserted (another writer's open alarm of a fingerprint wins). */
async function insertNew(trx: Executor, records: readonly AlarmRecord[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  if (records.length === 0) return inserted;
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    // One statement for the whole batch on PostgreSQL.
    const { columns, select } = jsonRows(ALARM_TYPES, records.map(alarmToRow));
    const { rows } = await sql<{ id: string }>`insert into alarms (${columns}) ${select}
      on conflict (project_id, fingerprint) where alarm_cleared_time is null do nothing
      returning id`.execute(trx);
    for (const row of rows) inserted.add(row.id);
    return inserted;
  }
  for (let i = 0; i < records.length; i += ROWS_PER_INSERT) {
    const rows = await trx
      .insertInto('alarms')
      .values(records.slice(i, i + ROWS_PER_INSERT).map(alarmToRow))
      .onConflict((oc) =>
        oc.columns(['project_id', 'fingerprint']).where('alarm_cleared_time', 'is', null).doNothing(),
      )
      .returning('id')
      .execute();
    for (const row of rows) inserted.add(row.id);
  }
  return inserted;
}

function newAlarm(subject: AlarmSubject, input: RaiseAlarmInput): AlarmRecord {
  return {
    id: randomUUID(),
    projectId: subject.projectId,
    fingerprint: input.fingerprint,
    managedObjectId: input.managedObjectId,
    instanceMajor: subject.major,
    ackState: 'UNACKNOWLEDGED',
    alarmRaisedTime: nowIso(),
    version: 1,
    ...said(input, undefined),
  };
}

/** The attributes an input states (what a refresh compares and overwrites). */
function said(input: RaiseAlarmInput, current: AlarmRecord | undefined) {
  return {
    vnfcInstanceIds: input.vnfcInstanceIds ?? [],
    rootCauseFaultyResource: input.rootCauseFaultyResource,
    perceivedSeverity: input.perceivedSeverity,
    eventTime: input.eventTime ? new Date(input.eventTime).toISOString() : (current?.eventTime ?? nowIso()),
    eventType: input.eventType,
    faultType: input.faultType,
    probableCause: input.probableCause,
    isRootCause: input.isRootCause ?? false,
    correlatedAlarmIds: input.correlatedAlarmIds ?? [],
    faultDetails: input.faultDetails ?? [],
  };
}

const sameStatement = (current: AlarmRecord, next: ReturnType<typeof said>) =>
  (Object.keys(next) as (keyof typeof next)[]).every(
    (key) => JSON.stringify(current[key]) === JSON.stringify(next[key]),
  );

/** One input on its own, re-reading what other writers did (the batch's slow path). */
async function raiseOne(
  trx: Executor,
  subject: AlarmSubject,
  input: RaiseAlarmInput,
  options: ChangeOptions,
): Promise<{ change: 'raised' | 'updated' | 'unchanged'; alarm: AlarmRecord }> {
  const notify = (alarm: AlarmRecord) =>
    options.notify === false ? undefined : sendNotices(trx, [raisedNotice(alarm, subject.facts)]);
  for (let race = 0; race < MAX_RACES; race++) {
    const current = await findOpenAlarm(trx, subject.projectId, input.fingerprint);
    if (!current) {
      const alarm = newAlarm(subject, input);
      if (!(await insertNew(trx, [alarm])).has(alarm.id)) continue;
      await notify(alarm);
      return { change: 'raised', alarm };
    }
    const statement = said(input, current);
    if (sameStatement(current, statement)) return { change: 'unchanged', alarm: current };
    const alarm: AlarmRecord = {
      ...current,
      ...statement,
      alarmChangedTime: nowIso(),
      version: current.version + 1,
    };
    if (!(await saveAlarm(trx, alarm, current.version))) continue;
    await notify(alarm);
    return { change: 'updated', alarm };
  }
  throw conflict(`Alarm ${input.fingerprint} is being changed by others; raise it again.`);
}

export interface AlarmChangeRequest {
  id: string;
  /** The caller's project (undefined: an administrator, any project). Another project's alarm is 404. */
  project: string | undefined;
  /**
   * The version the caller's If-Match named: the change applies only to it (412 otherwise).
   * Without it, a concurrent change is retried.
   */
  expectedVersion?: number;
}

/** Loads, decides and writes with compare-and-set: 404, 412 and the decision's own errors. */
async function changeAlarm(
  db: Database,
  request: AlarmChangeRequest,
  decide: (current: AlarmRecord) => AlarmRecord,
  after?: (trx: Executor, alarm: AlarmRecord) => Promise<unknown>,
): Promise<AlarmRecord> {
  for (let race = 0; race < MAX_RACES; race++) {
    const result = await inTransaction(db, async (trx) => {
      const current = await findAlarm(trx, request.id, request.project);
      if (!current) throw notFound(`Alarm ${request.id} does not exist.`);
      if (request.expectedVersion !== undefined && current.version !== request.expectedVersion) {
        throw changedMeanwhile(request.id);
      }
      const alarm = { ...decide(current), version: current.version + 1 };
      if (!(await saveAlarm(trx, alarm, current.version))) return undefined;
      await after?.(trx, alarm);
      return alarm;
    });
    if (result) return result;
    if (request.expectedVersion !== undefined) throw changedMeanwhile(request.id);
  }
  throw conflict(`Alarm ${request.id} is being changed by others; send the request again.`);
}

const changedMeanwhile = (id: string) =>
  new ApiError(412, `Alarm ${id} has changed since it was read; read it again and retry.`);

/** Acknowledges (or un-acknowledges) an alarm: 409 when it already is in that state. */
export async function ackAlarm(
  db: Database,
  request: AlarmChangeRequest & { ackState: AckState },
): Promise<AlarmRecord> {
  return changeAlarm(db, request, (current) => {
    if (current.ackState === request.ackState) {
      throw conflict(`Alarm ${current.id} is already ${request.ackState}: nothing to change.`);
    }
    const { alarmAcknowledgedTime: _previous, ...rest } = current;
    return request.ackState === 'ACKNOWLEDGED'
      ? { ...rest, ackState: 'ACKNOWLEDGED', alarmAcknowledgedTime: nowIso() }
      : { ...rest, ackState: 'UNACKNOWLEDGED' };
  });
}

/**
 * Escalates an open alarm to a more urgent severity (SOL002 escalate), with AlarmNotification:
 * 409 for a cleared alarm or a severity that is not more urgent, 422 for CLEARED.
 */
export async function escalateAlarm(
  db: Database,
  request: AlarmChangeRequest & { proposedPerceivedSeverity: string },
): Promise<AlarmRecord> {
  const proposed = request.proposedPerceivedSeverity;
  if (proposed === 'CLEARED') {
    throw unprocessable('CLEARED is not an escalation: an alarm is cleared when its fault ends.');
  }
  return changeAlarm(
    db,
    request,
    (current) => {
      if (current.alarmClearedTime) {
        throw conflict(
          `Alarm ${current.id} was cleared at ${current.alarmClearedTime}: it cannot be escalated.`,
        );
      }
      if (
        current.perceivedSeverity === 'CLEARED' ||
        !isMoreUrgent(proposed as RaisedSeverity, current.perceivedSeverity)
      ) {
        throw conflict(
          `Alarm ${current.id} is ${current.perceivedSeverity}: an escalation proposes a more urgent severity, not ${proposed}.`,
        );
      }
      return { ...current, perceivedSeverity: proposed as RaisedSeverity, alarmChangedTime: nowIso() };
    },
    (trx, alarm) => notifyAlarm(trx, alarm),
  );
}
