/**
 * Takes one Alertmanager batch: every alert is checked and mapped on its own (a refused alert is
 * reported with its reason, the others are taken), then the alarms are raised, auto-heal queued
 * and the resolved alarms cleared in one transaction, with their notifications in the outbox: the
 * batch is taken whole or, when the database fails, not at all (Alertmanager sends it again).
 * A receiver bound to a project takes alerts about that project's instances only; another
 * project's instance is refused as unknown, telling nothing of it.
 */
import type { Config } from '../../config/load.ts';
import type { VnfInstanceRecord } from '../../lcm/model.ts';
import { LCM_STORES } from '../../lcm/store.ts';
import type { Database } from '../../store/db/database.ts';
import { type Executor, inTransaction } from '../../store/db/transaction.ts';
import { raiseAlarmsIn } from '../alarms.ts';
import { queueAutoHeal } from '../autoheal/queue.ts';
import { clearAlarmsIn } from '../clear.ts';
import { type AlertAction, AlertRefused, alertInstanceId, checkAlert, mapAlert } from './map-alert.ts';

export interface AlertBatch {
  alerts: readonly unknown[];
  /** The instance of /alert/vnf_instances/{id}. */
  pathInstanceId?: string;
  /** The receiver's project: alerts about other projects' instances are refused. */
  project?: string;
}

export interface RefusedAlert {
  /** Position in the batch's `alerts`. */
  index: number;
  fingerprint?: string;
  reason: string;
}

export interface BatchResult {
  received: number;
  raised: number;
  updated: number;
  cleared: number;
  /** Automatic heals queued (alarms joining a batch). */
  healsQueued: number;
  refused: RefusedAlert[];
}

async function findInstance(db: Executor, id: string): Promise<VnfInstanceRecord | undefined> {
  for (const store of LCM_STORES) {
    const found = await store.findInstance(db, id);
    if (found) return found;
  }
  return undefined;
}

export async function receiveAlerts(db: Database, config: Config, batch: AlertBatch): Promise<BatchResult> {
  const result: BatchResult = {
    received: batch.alerts.length,
    raised: 0,
    updated: 0,
    cleared: 0,
    healsQueued: 0,
    refused: [],
  };
  return inTransaction(db, async (trx) => {
    const instances = new Map<string, VnfInstanceRecord | undefined>();
    const actions: { index: number; fingerprint: string; action: AlertAction }[] = [];
    for (const [index, value] of batch.alerts.entries()) {
      const fingerprint = (value as { fingerprint?: unknown } | null)?.fingerprint;
      const named = typeof fingerprint === 'string' ? { fingerprint: fingerprint.slice(0, 128) } : {};
      try {
        const alert = checkAlert(value);
        const id = alertInstanceId(alert, batch.pathInstanceId);
        if (!instances.has(id)) instances.set(id, await findInstance(trx, id));
        const instance = instances.get(id);
        if (!instance || (batch.project !== undefined && instance.projectId !== batch.project))
          throw new AlertRefused(`VNF instance ${id} does not exist`);
        actions.push({ index, fingerprint: alert.fingerprint, action: mapAlert(alert, instance) });
      } catch (error) {
        if (!(error instanceof AlertRefused)) throw error;
        result.refused.push({ index, ...named, reason: error.message });
      }
    }
    const raises = actions.flatMap((a) => ('raise' in a.action ? [{ ...a, action: a.action }] : []));
    const outcomes = await raiseAlarmsIn(
      trx,
      raises.map((r) => r.action.raise),
      batch.project !== undefined ? { project: batch.project } : {},
    );
    for (const [i, outcome] of outcomes.entries()) {
      const { index, fingerprint, action } = raises[i];
      if (!outcome.ok) {
        result.refused.push({ index, fingerprint, reason: outcome.problem });
        continue;
      }
      if (outcome.change === 'raised') result.raised++;
      if (outcome.change === 'updated') result.updated++;
      if (
        outcome.change === 'raised' &&
        action.heal &&
        (await queueAutoHeal(trx, config, outcome.alarm, action.heal))
      )
        result.healsQueued++;
    }
    const clears = actions.flatMap((a) => ('clear' in a.action ? [a.action.clear] : []));
    result.cleared = (await clearAlarmsIn(trx, clears)).length;
    result.refused.sort((a, b) => a.index - b.index);
    return result;
  });
}
