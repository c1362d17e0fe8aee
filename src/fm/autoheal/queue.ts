/**
 * Which raised alarms ask for an automatic heal, and queuing them: an alarm of the heal kind (its
 * source said so: an alert with function_type auto_heal, a VNFC the VIM reports failed) on an
 * instance whose vnfConfigurableProperties.isAutohealEnabled is true joins the instance's batch,
 * in the transaction that raised the alarm. Otherwise the alarm is all there is (polling and
 * notification modes leave healing to the NFVO).
 */
import type { Config } from '../../config/load.ts';
import { LCM_STORES } from '../../lcm/store.ts';
import type { Executor } from '../../store/db/transaction.ts';
import type { AlarmRecord } from '../model.ts';
import { type HealBatch, joinBatch } from './batches.ts';

/** How a source wants a fault healed: the failed VNFCs (SOL002), or the whole VNF. */
export type HealScope = 'vnfc' | 'vnf';

export const autoHealEnabled = (properties: Record<string, unknown> | undefined) =>
  properties?.isAutohealEnabled === true;

/**
 * Queues the heal a newly raised alarm asks for; undefined when the instance does not heal
 * automatically (or is gone, or not instantiated).
 */
export async function queueAutoHeal(
  trx: Executor,
  config: Config,
  alarm: AlarmRecord,
  scope: HealScope,
): Promise<HealBatch | undefined> {
  const store = LCM_STORES.find((s) => s.major === alarm.instanceMajor);
  const instance = await store?.findInstance(trx, alarm.managedObjectId);
  if (instance?.instantiationState !== 'INSTANTIATED') return undefined;
  if (!autoHealEnabled(instance.vnfConfigurableProperties)) return undefined;
  // An alarm names vnfcInfo ids (SOL); a batch keeps the vnfcResourceInfo ids they stand for.
  const info = instance.instantiatedVnfInfo;
  const resourceOf = new Map((info?.vnfcResourceInfo ?? []).map((v) => [v.id, v.id]));
  for (const v of info?.vnfcInfo ?? []) resourceOf.set(v.id, v.vnfcResourceInfoId);
  const vnfcIds = alarm.vnfcInstanceIds.flatMap((id) => resourceOf.get(id) ?? []);
  // Nothing to name: only the whole VNF can be healed.
  const whole = scope === 'vnf' || vnfcIds.length === 0;
  return joinBatch(
    trx,
    {
      instanceId: instance.id,
      projectId: instance.projectId,
      instanceMajor: alarm.instanceMajor,
      vnfcIds: whole ? [] : vnfcIds,
      whole,
      alarmId: alarm.id,
    },
    config.fm.autoHealWindowMs,
  );
}
