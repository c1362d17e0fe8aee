/**
 * Alarms from the VIM drivers' own view, with no monitoring system at all: the driver contract's
 * `health` of an instance's VNFCs. A VNFC in ERROR (crashed, its host down) or MISSING raises a
 * COMPUTE alarm (one per VNFC: its fingerprint is `vim-health:<instance>:<vnfcResourceInfo>`,
 * kept while the VNFC is healed onto a new server), of the heal kind; a VNFC running again clears
 * it. Alarms, auto-heal queuing and clears of one instance commit together.
 */
import type { Config } from '../../config/load.ts';
import type { VimAccess } from '../../lcm/engine-deps.ts';
import type { VnfInstanceRecord } from '../../lcm/model.ts';
import type { Database } from '../../store/db/database.ts';
import { inTransaction } from '../../store/db/transaction.ts';
import type { VnfcHealth } from '../../vims/contract.ts';
import { raiseAlarmsIn } from '../alarms.ts';
import { queueAutoHeal } from '../autoheal/queue.ts';
import { clearAlarmsIn } from '../clear.ts';
import type { RaiseAlarmInput } from '../model.ts';

const PREFIX = 'vim-health:';
export const healthFingerprint = (instanceId: string, vnfcResourceInfoId: string) =>
  `${PREFIX}${instanceId}:${vnfcResourceInfoId}`;

export interface HealthDeps {
  config: Config;
  db: Database;
  vims: VimAccess;
}

function alarmInput(instance: VnfInstanceRecord, h: VnfcHealth): RaiseAlarmInput {
  const vnfcInfo = instance.instantiatedVnfInfo?.vnfcInfo?.find(
    (v) => v.vnfcResourceInfoId === h.vnfcResourceInfoId,
  );
  const where = [h.host && `host ${h.host}`, h.zoneId && `zone ${h.zoneId}`].filter(Boolean).join(', ');
  return {
    fingerprint: healthFingerprint(instance.id, h.vnfcResourceInfoId),
    managedObjectId: instance.id,
    vnfcInstanceIds: [vnfcInfo?.id ?? h.vnfcResourceInfoId],
    rootCauseFaultyResource: { faultyResource: h.computeResource, faultyResourceType: 'COMPUTE' },
    perceivedSeverity: 'CRITICAL',
    eventType: 'EQUIPMENT_ALARM',
    faultType: `VNFC ${h.state}`,
    probableCause: (h.reason ?? `the VIM reports the server ${h.state}`).slice(0, 1024),
    faultDetails: [`server ${h.computeResource.resourceId}${where ? ` on ${where}` : ''}`],
  };
}

/** Checks one instance; the alarms raised (new), and cleared. */
export async function checkInstanceHealth(
  deps: HealthDeps,
  instance: VnfInstanceRecord,
): Promise<{ raised: number; cleared: number }> {
  const info = instance.instantiatedVnfInfo;
  if (!info) return { raised: 0, cleared: 0 };
  const { connection } = await deps.vims.resolve(instance.projectId, instance.vimConnectionInfo);
  const health = await deps.vims.driver(connection.vimType).health(connection, instance.id, info);
  const failing = health.filter((h) => h.state === 'ERROR' || h.state === 'MISSING');
  const failingKeys = new Set(failing.map((h) => healthFingerprint(instance.id, h.vnfcResourceInfoId)));
  return inTransaction(deps.db, async (trx) => {
    let raised = 0;
    const outcomes = await raiseAlarmsIn(
      trx,
      failing.map((h) => alarmInput(instance, h)),
    );
    for (const outcome of outcomes) {
      if (!outcome.ok || outcome.change !== 'raised') continue;
      raised++;
      await queueAutoHeal(trx, deps.config, outcome.alarm, 'vnfc');
    }
    const open = await trx
      .selectFrom('alarms')
      .select('fingerprint')
      .where('managed_object_id', '=', instance.id)
      .where('fingerprint', 'like', `${PREFIX}${instance.id}:%`)
      .where('alarm_cleared_time', 'is', null)
      .execute();
    const ended = open.filter((a) => !failingKeys.has(a.fingerprint));
    const cleared = await clearAlarmsIn(
      trx,
      ended.map((a) => ({ managedObjectId: instance.id, fingerprint: a.fingerprint })),
    );
    return { raised, cleared: cleared.length };
  });
}
