/**
 * Rebuilding the alarm list (after data loss, or a restore from a backup): the list is made true
 * again where a source can say what is active now, and every FM subscriber of the project is
 * told to read it again with AlarmListRebuiltNotification — instead of one notification per
 * alarm, all in one transaction.
 *
 * A source reconciles only what it owns: `owns(fingerprint)` names its alarms, so that the open
 * alarms it no longer reports are cleared and those of other sources are left alone.
 */
import type { Database } from '../store/db/database.ts';
import { inTransaction } from '../store/db/transaction.ts';
import { type RaiseOutcome, raiseAlarmsIn } from './alarms.ts';
import { type ClearSelector, clearAlarmsIn } from './clear.ts';
import type { RaiseAlarmInput } from './model.ts';
import { notifyRebuilt } from './notify.ts';

export interface RebuildRequest {
  /** One project (undefined: every project with FM subscriptions or open alarms). */
  project?: string;
  /** What one source reports active now. */
  reconcile?: { active: readonly RaiseAlarmInput[]; owns(fingerprint: string): boolean };
}

export interface RebuildResult {
  /** The projects whose subscribers were told. */
  projects: string[];
  raised: RaiseOutcome[];
  cleared: number;
  /** Notifications written to the outbox. */
  notified: number;
}

export function rebuildAlarmList(db: Database, request: RebuildRequest = {}): Promise<RebuildResult> {
  return inTransaction(db, async (trx) => {
    let raised: RaiseOutcome[] = [];
    let cleared = 0;
    if (request.reconcile) {
      const { active, owns } = request.reconcile;
      raised = await raiseAlarmsIn(trx, active, { notify: false, project: request.project });
      const reported = new Set(
        raised.flatMap((o) => (o.ok ? [`${o.alarm.projectId}\n${o.alarm.fingerprint}`] : [])),
      );
      let open = trx
        .selectFrom('alarms')
        .select(['id', 'project_id', 'fingerprint'])
        .where('alarm_cleared_time', 'is', null);
      if (request.project !== undefined) open = open.where('project_id', '=', request.project);
      const gone: ClearSelector[] = (await open.execute())
        .filter((a) => owns(a.fingerprint) && !reported.has(`${a.project_id}\n${a.fingerprint}`))
        .map((a) => ({ id: a.id }));
      cleared = (await clearAlarmsIn(trx, gone, { notify: false })).length;
    }
    const projects = request.project !== undefined ? [request.project] : await projectsWithFm(trx);
    let notified = 0;
    for (const project of projects) notified += await notifyRebuilt(trx, project);
    return { projects, raised, cleared, notified };
  });
}

async function projectsWithFm(trx: Parameters<typeof notifyRebuilt>[0]): Promise<string[]> {
  const subscribed = await trx
    .selectFrom('subscriptions')
    .select('project_id')
    .distinct()
    .where('api', '=', 'vnffm')
    .execute();
  const alarmed = await trx
    .selectFrom('alarms')
    .select('project_id')
    .distinct()
    .where('alarm_cleared_time', 'is', null)
    .execute();
  return [...new Set([...subscribed, ...alarmed].map((r) => r.project_id))].sort();
}
