/**
 * The alarm domain (fault management, /vnffm/v1): the one API the fault sources (the
 * Alertmanager receiver, driver health), auto-heal and the routes call. Every change writes its
 * notifications to the outbox in its own transaction.
 *
 *   raiseAlarm(db, input)              one alarm; throws 422 naming what is wrong with the input
 *   raiseAlarms(db, inputs)            a batch in one transaction; one outcome per input, in order:
 *                                      {ok, change: raised|updated|unchanged, alarm} or {ok: false, problem}
 *   raiseAlarmsIn(trx, inputs)         the same in the caller's transaction
 *   clearAlarm(db, selector)           {id} or {managedObjectId, fingerprint} (+ clearedTime):
 *   clearAlarms(db, selectors)         the alarms cleared (with AlarmClearedNotification)
 *   clearAlarmsIn(trx, selectors)
 *   ackAlarm(db, {id, project, ackState, expectedVersion?})         409 if already in that state
 *   escalateAlarm(db, {id, project, proposedPerceivedSeverity, …})  more urgent only; AlarmNotification
 *   rebuildAlarmList(db, {project?, reconcile?})                    AlarmListRebuiltNotification
 *   findAlarm(db, id, project?)        one alarm (project undefined: any)
 *   findAlarmSubject(db, instanceId)   the instance an alarm would be about: project, major, facts
 *   checkRaiseAlarmInput(value)        throws 422 unless a RaiseAlarmInput (RaiseAlarmInputSchema)
 *
 * Dedup: a raise whose fingerprint has an open (not cleared) alarm in the project updates it,
 * and notifies only when what the alarm says changed. A cleared alarm stays, and the same
 * fingerprint firing again opens a new one.
 */
export {
  type AlarmChangeRequest,
  ackAlarm,
  escalateAlarm,
  type RaiseOutcome,
  raiseAlarm,
  raiseAlarms,
  raiseAlarmsIn,
} from './alarms.ts';
export { type ClearSelector, clearAlarm, clearAlarms, clearAlarmsIn } from './clear.ts';
export {
  ACK_STATES,
  type AckState,
  type AlarmRecord,
  checkRaiseAlarmInput,
  RAISED_SEVERITIES,
  type RaiseAlarmInput,
  RaiseAlarmInputSchema,
  type RootCauseFaultyResource,
} from './model.ts';
export { type RebuildRequest, type RebuildResult, rebuildAlarmList } from './rebuild.ts';
export { type Alarm, alarmPath, toAlarm } from './representation.ts';
export { alarmFromRow, findAlarm } from './store.ts';
export { type AlarmSubject, findAlarmSubject } from './subject.ts';
