/**
 * What happens to an alarm: raised (or refreshed: deduplicated by the source's fingerprint),
 * cleared, acknowledged and escalated. Each change and its notification commit in one
 * transaction, so a subscriber hears of exactly the changes that happened.
 *
 * Raising a fingerprint that has an open alarm in the project updates that alarm: only a change
 * of what the alarm says (severity, cause, details, resources) bumps alarmChangedTime and
 * notifies, so a source that re-sends a firing alert (Alertmanager repeats them) stays quiet.
 * Acknowledging notifies nobody (the acknowledging consumer knows; SOL003 notifies raises and
 * changes of the fault), escalation does.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, conflict, notFound, unprocessable } from '../sol/problem.ts';
import type { Database } from '../store/db/database.ts';
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
import { notifyAlarm, notifyCleared } from './notify.ts';
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

/** raiseAlarms in the caller's transaction (to commit alarms with other changes). */
export async function raiseAlarmsIn(
  trx: Executor,
  inputs: readonly unknown[],
  options: ChangeOptions = {},
): Promise<RaiseOutcome[]> {
  const subjects = new Map<string, AlarmSubject | undefined>();
  const outcomes: RaiseOutcome[] = [];
  for (const input of inputs) {
    try {
      checkRaiseAlarmInput(input);
      const id = input.managedObjectId;
      if (!subjects.has(id)) subjects.set(id, await findAlarmSubject(trx, id));
      const subject = subjects.get(id);
      if (!subject || (options.project !== undefined && subject.projectId !== options.project)) {
        throw unprocessable(`VNF instance ${id} does not exist: no alarm can be raised for it.`);
      }
      outcomes.push({ ok: true, ...(await raiseOne(trx, subject, input, options)) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcomes.push({ ok: false, problem: error.message });
    }
  }
  return outcomes;
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

async function raiseOne(
  trx: Executor,
  subject: AlarmSubject,
  input: RaiseAlarmInput,
  options: ChangeOptions,
): Promise<{ change: 'raised' | 'updated' | 'unchanged'; alarm: AlarmRecord }> {
  for (let race = 0; race < MAX_RACES; race++) {
    const current = await findOpenAlarm(trx, subject.projectId, input.fingerprint);
    if (!current) {
      const alarm = newAlarm(subject, input);
      const inserted = await trx
        .insertInto('alarms')
        .values(alarmToRow(alarm))
        .onConflict((oc) =>
          oc.columns(['project_id', 'fingerprint']).where('alarm_cleared_time', 'is', null).doNothing(),
        )
        .executeTakeFirst();
      // Another writer opened it meanwhile: refresh that one instead.
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) continue;
      if (options.notify !== false) await notifyAlarm(trx, alarm, subject.facts);
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
    if (options.notify !== false) await notifyAlarm(trx, alarm, subject.facts);
    return { change: 'updated', alarm };
  }
  throw conflict(`Alarm ${input.fingerprint} is being changed by others; raise it again.`);
}

/** Which alarm to clear: by id, or the open alarm of a source's fingerprint on an instance. */
export type ClearSelector = ({ id: string } | { managedObjectId: string; fingerprint: string }) & {
  /** When the fault ended (the alert's endsAt); default: now. */
  clearedTime?: string;
};

/** Clears the selected alarms in one transaction; the alarms cleared (already cleared or unknown: left out). */
export function clearAlarms(db: Database, selectors: readonly ClearSelector[]): Promise<AlarmRecord[]> {
  return inTransaction(db, (trx) => clearAlarmsIn(trx, selectors));
}

/** Clears one alarm; undefined when there is no open alarm to clear. */
export async function clearAlarm(db: Database, selector: ClearSelector): Promise<AlarmRecord | undefined> {
  return (await clearAlarms(db, [selector]))[0];
}

/** clearAlarms in the caller's transaction. */
export async function clearAlarmsIn(
  trx: Executor,
  selectors: readonly ClearSelector[],
  options: ChangeOptions = {},
): Promise<AlarmRecord[]> {
  const cleared: AlarmRecord[] = [];
  for (const selector of selectors) {
    const current = await findOpenBySelector(trx, selector);
    if (!current) continue;
    const now = nowIso();
    const when = selector.clearedTime && Date.parse(selector.clearedTime);
    const alarm: AlarmRecord = {
      ...current,
      alarmClearedTime: when ? new Date(when).toISOString() : now,
      alarmChangedTime: now,
      version: current.version + 1,
    };
    // Cleared by someone else meanwhile: nothing left to do.
    if (!(await saveAlarm(trx, alarm, current.version))) continue;
    if (options.notify !== false) await notifyCleared(trx, alarm);
    cleared.push(alarm);
  }
  return cleared;
}

async function findOpenBySelector(trx: Executor, selector: ClearSelector): Promise<AlarmRecord | undefined> {
  let query = trx.selectFrom('alarms').selectAll().where('alarm_cleared_time', 'is', null);
  query =
    'id' in selector
      ? query.where('id', '=', selector.id)
      : query
          .where('managed_object_id', '=', selector.managedObjectId)
          .where('fingerprint', '=', selector.fingerprint);
  const row = await query.executeTakeFirst();
  return row && alarmFromRow(row);
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
