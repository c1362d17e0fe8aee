/**
 * The SOL002/SOL003 Alarm representation of an alarm (v3.3.1, both reference points: SOL002's
 * vnfcInstanceIds included), with path-absolute links: notifications resolve them at delivery,
 * the API against the request. Absent optional attributes are left out, never null.
 */
import type { AlarmRepresentation } from '../notify/fm-notifications.ts';
import type { AlarmRecord } from './model.ts';

export const FM_BASE = '/vnffm/v1';
export const alarmPath = (id: string) => `${FM_BASE}/alarms/${id}`;
const instancePath = (record: AlarmRecord) =>
  `/vnflcm/${record.instanceMajor}/vnf_instances/${record.managedObjectId}`;

export interface Alarm extends AlarmRepresentation {
  _links: { self: { href: string }; objectInstance: { href: string } };
}

export function toAlarm(record: AlarmRecord): Alarm {
  const alarm: Alarm = {
    id: record.id,
    managedObjectId: record.managedObjectId,
    ...(record.vnfcInstanceIds.length ? { vnfcInstanceIds: record.vnfcInstanceIds } : {}),
    rootCauseFaultyResource: record.rootCauseFaultyResource,
    alarmRaisedTime: record.alarmRaisedTime,
    ...(record.alarmChangedTime ? { alarmChangedTime: record.alarmChangedTime } : {}),
    ...(record.alarmClearedTime ? { alarmClearedTime: record.alarmClearedTime } : {}),
    ...(record.alarmAcknowledgedTime ? { alarmAcknowledgedTime: record.alarmAcknowledgedTime } : {}),
    ackState: record.ackState,
    perceivedSeverity: record.perceivedSeverity,
    eventTime: record.eventTime,
    eventType: record.eventType,
    ...(record.faultType !== undefined ? { faultType: record.faultType } : {}),
    probableCause: record.probableCause,
    isRootCause: record.isRootCause,
    ...(record.correlatedAlarmIds.length ? { correlatedAlarmIds: record.correlatedAlarmIds } : {}),
    ...(record.faultDetails.length ? { faultDetails: record.faultDetails } : {}),
    _links: { self: { href: alarmPath(record.id) }, objectInstance: { href: instancePath(record) } },
  };
  return alarm;
}
