/**
 * One look of auto-heal at its batches (the worker in jobs/ calls it periodically):
 * - a started batch whose heal op occ COMPLETED is done; one that ended FAILED_TEMP, FAILED or
 *   ROLLED_BACK counts a failed attempt: the batch waits again, backed off (doubled each time),
 *   or, at fm.autoHealMaxAttempts, is given up — each said on its alarms;
 * - a pending batch that is due starts its heal: one HealVnfRequest naming the batch's VNFCs (or
 *   none: the whole VNF), isAutomaticInvocation true, accepted in the transaction that marks the
 *   batch started, so that with crashes and several processes it starts exactly once. An
 *   instance busy with another operation keeps its batch pending until it is free. A batch whose
 *   alarms were all cleared meanwhile (the fault went away, an earlier heal fixed it) ends unhealed;
 * - a given-up batch ends once its alarms are all cleared (the operator fixed the instance).
 */
import type { Logger } from 'pino';
import type { Config } from '../../config/load.ts';
import type { VimAccess } from '../../lcm/engine-deps.ts';
import type { OpOccRecord } from '../../lcm/model.ts';
import { type LcmService, startOperation } from '../../lcm/service.ts';
import { LCM_STORES, type LcmStore } from '../../lcm/store.ts';
import type { SealedBox } from '../../security/sealed-box.ts';
import { ApiError } from '../../sol/problem.ts';
import type { Database } from '../../store/db/database.ts';
import { inTransaction } from '../../store/db/transaction.ts';
import {
  batchesIn,
  batchOf,
  batchToRow,
  deleteBatch,
  type HealBatch,
  joinBatch,
  saveBatch,
} from './batches.ts';
import { noteOnAlarms, openAlarmIds } from './note.ts';
import { autoHealEnabled } from './queue.ts';

export interface AutoHealDeps {
  config: Config;
  db: Database;
  box: SealedBox;
  vims: VimAccess;
  logger: Logger;
}

/** Batches looked at per state in one look. */
const PER_LOOK = 50;

const FAILED_STATES = new Set(['FAILED_TEMP', 'FAILED', 'ROLLED_BACK']);

class BatchTaken extends Error {}

const storeOf = (batch: HealBatch): LcmStore | undefined =>
  LCM_STORES.find((s) => s.major === batch.instanceMajor);

export async function autoHealLook(deps: AutoHealDeps): Promise<void> {
  for (const batch of await batchesIn(deps.db.kysely, 'started', PER_LOOK)) await follow(deps, batch);
  const now = new Date().toISOString();
  for (const batch of await batchesIn(deps.db.kysely, 'pending', PER_LOOK, now)) await start(deps, batch);
  for (const batch of await batchesIn(deps.db.kysely, 'given-up', PER_LOOK)) {
    if ((await openAlarmIds(deps.db.kysely, batch.alarmIds)).length === 0)
      await deleteBatch(deps.db.kysely, batch);
  }
}

/** Ends a batch without a heal, saying why in the log. */
async function drop(deps: AutoHealDeps, batch: HealBatch, why: string): Promise<void> {
  if (await deleteBatch(deps.db.kysely, batch))
    deps.logger.info({ instanceId: batch.instanceId, batch: batch.id }, `auto-heal: no heal, ${why}`);
}

async function start(deps: AutoHealDeps, batch: HealBatch): Promise<void> {
  const store = storeOf(batch);
  const instance = await store?.findInstance(deps.db.kysely, batch.instanceId);
  if (!store || !instance || instance.instantiationState !== 'INSTANTIATED')
    return drop(deps, batch, 'the VNF instance is no longer instantiated');
  if (!autoHealEnabled(instance.vnfConfigurableProperties))
    return drop(deps, batch, 'isAutohealEnabled was turned off');
  const open = await openAlarmIds(deps.db.kysely, batch.alarmIds);
  if (open.length === 0) return drop(deps, batch, 'its alarms were cleared');
  const info = instance.instantiatedVnfInfo;
  const vnfcInfoOf = new Map((info?.vnfcInfo ?? []).map((v) => [v.vnfcResourceInfoId, v.id]));
  const vnfcs = batch.vnfcIds.flatMap((id) => vnfcInfoOf.get(id) ?? []);
  if (!batch.whole && vnfcs.length === 0) return drop(deps, batch, 'its VNFCs are gone');
  const request = {
    ...(batch.whole ? {} : { vnfcInstanceId: vnfcs }),
    cause: `Automatic heal for alarms ${open.join(', ')}`,
  };
  const svc: LcmService = { config: deps.config, db: deps.db, box: deps.box, store, vims: deps.vims };
  try {
    const opOcc = await startOperation(svc, instance.id, 'HEAL', request, {
      isAutomaticInvocation: true,
      within: async (trx, record) => {
        const started: HealBatch = { ...batch, state: 'started', opOccId: record.id, alarmIds: open };
        if (!(await saveBatch(trx, started, batch))) throw new BatchTaken();
        const what = batch.whole ? 'the whole VNF' : `VNFCs ${vnfcs.join(', ')}`;
        await noteOnAlarms(
          trx,
          open,
          `heal ${record.id} of ${what} started (attempt ${batch.attempts + 1} of ${deps.config.fm.autoHealMaxAttempts})`,
        );
      },
    });
    deps.logger.info(
      { instanceId: instance.id, opOccId: opOcc.id, vnfcs, whole: batch.whole },
      'auto-heal started',
    );
  } catch (error) {
    if (error instanceof BatchTaken) return;
    // Busy with another operation (or a FAILED_TEMP one): the heal waits until it is free.
    if (error instanceof ApiError && error.status === 409) return;
    if (!(error instanceof ApiError)) throw error;
    await failed(deps, batch, `the heal was refused: ${error.message}`);
  }
}

async function follow(deps: AutoHealDeps, batch: HealBatch): Promise<void> {
  const store = storeOf(batch);
  const opOcc: OpOccRecord | undefined =
    batch.opOccId && store ? await store.findOpOcc(deps.db.kysely, batch.opOccId) : undefined;
  if (!opOcc) return drop(deps, batch, 'its heal operation is gone');
  if (opOcc.operationState === 'COMPLETED') {
    await deleteBatch(deps.db.kysely, batch);
    deps.logger.info({ instanceId: batch.instanceId, opOccId: opOcc.id }, 'auto-heal completed');
    return;
  }
  if (!FAILED_STATES.has(opOcc.operationState)) return;
  const detail = opOcc.error?.detail ?? 'no detail';
  await failed(deps, batch, `heal ${opOcc.id} ended ${opOcc.operationState}: ${detail}`);
}

/**
 * Counts a failed attempt: the batch's wishes wait again, backed off (merged into a batch pending
 * meanwhile), or the instance is given up at the limit.
 */
async function failed(deps: AutoHealDeps, batch: HealBatch, reason: string): Promise<void> {
  const { autoHealMaxAttempts: max, autoHealBackoffMs: backoff } = deps.config.fm;
  const attempts = batch.attempts + 1;
  await inTransaction(deps.db, async (trx) => {
    if (!(await deleteBatch(trx, batch))) return;
    if (attempts >= max) {
      // Wishes queued meanwhile are given up with it: nothing heals this instance automatically
      // until its alarms are cleared.
      const pending = await batchOf(trx, batch.instanceId, 'pending');
      if (pending) await deleteBatch(trx, pending);
      const alarmIds = [...new Set([...batch.alarmIds, ...(pending?.alarmIds ?? [])])];
      const givenUp: HealBatch = {
        ...batch,
        state: 'given-up',
        alarmIds,
        attempts,
        lastError: reason,
        version: 1,
      };
      await trx.insertInto('auto_heals').values(batchToRow(givenUp)).execute();
      const note = `gave up after ${attempts} failed automatic heals (last: ${reason}); heal it by hand`;
      await noteOnAlarms(trx, alarmIds, note);
      return;
    }
    const notBefore = new Date(Date.now() + backoff * 2 ** (attempts - 1)).toISOString();
    for (const alarmId of batch.alarmIds) {
      await joinBatch(trx, { ...batch, vnfcIds: batch.vnfcIds, alarmId }, 0, {
        attempts,
        lastError: reason,
        notBefore,
      });
    }
    await noteOnAlarms(
      trx,
      batch.alarmIds,
      `attempt ${attempts} of ${max} failed (${reason}); next no earlier than ${notBefore}`,
    );
  });
  deps.logger.warn({ instanceId: batch.instanceId, attempts, reason }, 'auto-heal attempt failed');
}
