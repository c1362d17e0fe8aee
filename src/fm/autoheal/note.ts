/**
 * What auto-heal tells on the alarms of a batch: one faultDetails entry, `auto-heal: …`, replaced
 * at each step (heal started, failed with its attempt and back-off, given up), so the operator
 * polling the alarm or subscribed to its changes sees why a fault is or is not being healed.
 */
import type { Executor } from '../../store/db/transaction.ts';
import type { AlarmRecord } from '../model.ts';
import { notifyAlarm } from '../notify.ts';
import { findAlarm, saveAlarm } from '../store.ts';

export const NOTE_PREFIX = 'auto-heal: ';

/** Sets the auto-heal note of every open alarm among `alarmIds`; the alarms still open. */
export async function noteOnAlarms(
  trx: Executor,
  alarmIds: readonly string[],
  note: string,
): Promise<AlarmRecord[]> {
  const open: AlarmRecord[] = [];
  for (const id of alarmIds) {
    const current = await findAlarm(trx, id);
    if (!current || current.alarmClearedTime) continue;
    const faultDetails = [
      ...current.faultDetails.filter((d) => !d.startsWith(NOTE_PREFIX)),
      `${NOTE_PREFIX}${note}`,
    ];
    const next: AlarmRecord = {
      ...current,
      faultDetails,
      alarmChangedTime: new Date().toISOString(),
      version: current.version + 1,
    };
    // Changed meanwhile (cleared, acknowledged): the note waits for the next step.
    if (!(await saveAlarm(trx, next, current.version))) continue;
    await notifyAlarm(trx, next);
    open.push(next);
  }
  return open;
}

/** The ids among `alarmIds` of alarms still open. */
export async function openAlarmIds(db: Executor, alarmIds: readonly string[]): Promise<string[]> {
  if (alarmIds.length === 0) return [];
  const rows = await db
    .selectFrom('alarms')
    .select('id')
    .where('id', 'in', [...alarmIds])
    .where('alarm_cleared_time', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}
