/**
 * Alarm rows: the conversion between the alarms table and AlarmRecord, and the few queries the
 * domain and the API share (one alarm, the open alarm of a fingerprint). Writes stay in the
 * domain functions (alarms.ts), each with its notification in the same transaction.
 */
import type { AlarmsTable } from '../store/db/tables.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { AckState, AlarmRecord, EventType, PerceivedSeverity } from './model.ts';

const json = <T>(text: string) => JSON.parse(text) as T;
const bool = (v: boolean | number) => v === true || v === 1;
const opt = (v: string | null) => v ?? undefined;

export function alarmFromRow(row: AlarmsTable): AlarmRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    fingerprint: row.fingerprint,
    managedObjectId: row.managed_object_id,
    instanceMajor: row.instance_major,
    vnfcInstanceIds: json(row.vnfc_instance_ids),
    rootCauseFaultyResource: json(row.root_cause_faulty_resource),
    alarmRaisedTime: row.alarm_raised_time,
    alarmChangedTime: opt(row.alarm_changed_time),
    alarmClearedTime: opt(row.alarm_cleared_time),
    alarmAcknowledgedTime: opt(row.alarm_acknowledged_time),
    ackState: row.ack_state as AckState,
    perceivedSeverity: row.perceived_severity as PerceivedSeverity,
    eventTime: row.event_time,
    eventType: row.event_type as EventType,
    faultType: opt(row.fault_type),
    probableCause: row.probable_cause,
    isRootCause: bool(row.is_root_cause),
    correlatedAlarmIds: json(row.correlated_alarm_ids),
    faultDetails: json(row.fault_details),
    version: row.version,
  };
}

export function alarmToRow(r: AlarmRecord): AlarmsTable {
  return {
    id: r.id,
    project_id: r.projectId,
    fingerprint: r.fingerprint,
    managed_object_id: r.managedObjectId,
    instance_major: r.instanceMajor,
    vnfc_instance_ids: JSON.stringify(r.vnfcInstanceIds),
    root_cause_faulty_resource: JSON.stringify(r.rootCauseFaultyResource),
    faulty_resource_type: r.rootCauseFaultyResource.faultyResourceType,
    alarm_raised_time: r.alarmRaisedTime,
    alarm_changed_time: r.alarmChangedTime ?? null,
    alarm_cleared_time: r.alarmClearedTime ?? null,
    alarm_acknowledged_time: r.alarmAcknowledgedTime ?? null,
    ack_state: r.ackState,
    perceived_severity: r.perceivedSeverity,
    event_time: r.eventTime,
    event_type: r.eventType,
    fault_type: r.faultType ?? null,
    probable_cause: r.probableCause,
    is_root_cause: r.isRootCause,
    correlated_alarm_ids: JSON.stringify(r.correlatedAlarmIds),
    fault_details: JSON.stringify(r.faultDetails),
    version: r.version,
  };
}

/** One alarm; with `project`, only if it belongs to that project (undefined: any project). */
export async function findAlarm(
  db: Executor,
  id: string,
  project?: string,
): Promise<AlarmRecord | undefined> {
  let query = db.selectFrom('alarms').selectAll().where('id', '=', id);
  if (project !== undefined) query = query.where('project_id', '=', project);
  const row = await query.executeTakeFirst();
  return row && alarmFromRow(row);
}

/** The open (not cleared) alarm of `fingerprint` in the project. */
export async function findOpenAlarm(
  db: Executor,
  project: string,
  fingerprint: string,
): Promise<AlarmRecord | undefined> {
  const row = await db
    .selectFrom('alarms')
    .selectAll()
    .where('project_id', '=', project)
    .where('fingerprint', '=', fingerprint)
    .where('alarm_cleared_time', 'is', null)
    .executeTakeFirst();
  return row && alarmFromRow(row);
}

/**
 * Writes the alarm's changeable columns if its version is still `expected`, and bumps it.
 * False when someone changed it meanwhile.
 */
export async function saveAlarm(db: Executor, record: AlarmRecord, expected: number): Promise<boolean> {
  const { id: _id, project_id: _p, fingerprint: _f, alarm_raised_time: _r, ...rest } = alarmToRow(record);
  const result = await db
    .updateTable('alarms')
    .set({ ...rest, version: expected + 1 })
    .where('id', '=', record.id)
    .where('version', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
