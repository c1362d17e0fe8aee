/**
 * The alarms list: newest first (alarmRaisedTime, ties by id), filters on every Alarm attribute
 * (the scalar ones in SQL, faultyResourceType through its own column), selectors (no attribute
 * is left out by default: SOL names none) and paging, through the one list engine.
 */
import { ACK_STATES, alarmFromRow } from '../../../fm/index.ts';
import { EVENT_TYPES, FAULTY_RESOURCE_TYPES, PERCEIVED_SEVERITIES } from '../../../notify/fm-filter.ts';
import type { AttributeMap } from '../../../sol/attributes.ts';
import type { AlarmsTable } from '../../../store/db/tables.ts';
import type { ListResource } from '../../sol013/list-query.ts';
import { handle } from '../vnflcm/lists.ts';
import { alarmView } from './views.ts';

const enumOf = (values: readonly string[], column?: string) =>
  ({ type: 'enum', values, ...(column ? { column } : {}) }) as const;

export const ALARM_ATTRIBUTES: AttributeMap = {
  id: { type: 'string', column: 'id' },
  managedObjectId: { type: 'string', column: 'managed_object_id' },
  vnfcInstanceIds: { type: 'string' },
  'rootCauseFaultyResource/faultyResourceType': enumOf(FAULTY_RESOURCE_TYPES, 'faulty_resource_type'),
  ...handle('rootCauseFaultyResource/faultyResource'),
  'rootCauseFaultyResource/faultyResource/resourceProviderId': { type: 'string' },
  alarmRaisedTime: { type: 'datetime', column: 'alarm_raised_time' },
  alarmChangedTime: { type: 'datetime', column: 'alarm_changed_time' },
  alarmClearedTime: { type: 'datetime', column: 'alarm_cleared_time' },
  alarmAcknowledgedTime: { type: 'datetime', column: 'alarm_acknowledged_time' },
  ackState: enumOf(ACK_STATES, 'ack_state'),
  perceivedSeverity: enumOf(PERCEIVED_SEVERITIES, 'perceived_severity'),
  eventTime: { type: 'datetime', column: 'event_time' },
  eventType: enumOf(EVENT_TYPES, 'event_type'),
  faultType: { type: 'string', column: 'fault_type' },
  probableCause: { type: 'string', column: 'probable_cause' },
  isRootCause: { type: 'boolean', column: 'is_root_cause' },
  correlatedAlarmIds: { type: 'string' },
  faultDetails: { type: 'string' },
};

export const alarmList: ListResource<AlarmsTable, ReturnType<typeof alarmView>> = {
  name: 'alarms',
  attributes: ALARM_ATTRIBUTES,
  defaultExcluded: [],
  selectors: true,
  select(db, project) {
    const q = db.selectFrom('alarms').selectAll();
    return project === undefined ? q : q.where('project_id', '=', project);
  },
  keyColumn: 'id',
  keyOf: (row) => row.id,
  newestFirst: { column: 'alarm_raised_time', of: (row) => row.alarm_raised_time },
  toView: (row, request) => alarmView(alarmFromRow(row), request),
};
