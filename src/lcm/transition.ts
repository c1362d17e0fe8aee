/**
 * One op occ state change, in one transaction: the guarded update (only from the expected states,
 * and for a worker only while it holds the lease), the instance written and released when the
 * state is final, anything else that must commit with it (package usage), and the notification of
 * the state entered, with its timeline events (the error, then the state). Both the API (retry,
 * rollback, fail, cancel) and the engine go through it.
 */

import type { OperationState } from '../sol/lcm-operations.ts';
import type { Database } from '../store/db/database.ts';
import { type Executor, inTransaction } from '../store/db/transaction.ts';
import type { OpOccRecord, VnfInstanceRecord } from './model.ts';
import { notifyOpOcc } from './notify.ts';
import { FINAL } from './op-states.ts';
import type { LcmStore, OpOccChange } from './store.ts';
import type { NewOpEvent } from './timeline/event.ts';
import { appendOpEvents } from './timeline/record.ts';
import { opEventsCommitted } from './timeline/signal.ts';

/** A worker's lease fences its change; the API's changes have none. */
type Fence =
  | { owner?: undefined; endsJob?: undefined }
  | {
      owner: string;
      /** The change ends the worker's job (store/queue's completeJob): its lease is released with it. */
      endsJob?: boolean;
    };

export type TransitionRequest = Fence & {
  opOccId: string;
  from: readonly OperationState[];
  change: OpOccChange;
  /** The instance as the operation leaves it (final states; default: unchanged). */
  instance?: VnfInstanceRecord;
  /** More work in the same transaction (e.g. package usage). */
  also?: (trx: Executor, opOcc: OpOccRecord, instance: VnfInstanceRecord) => Promise<void>;
};

/** The op occ after the change, or undefined when the guard failed (nothing changed). */
export async function transition(
  db: Database,
  store: LcmStore,
  request: TransitionRequest,
): Promise<{ opOcc: OpOccRecord; instance: VnfInstanceRecord } | undefined> {
  const done = await inTransaction(db, async (trx) => {
    const { opOccId, change, from } = request;
    const changed =
      request.owner !== undefined && request.endsJob
        ? await store.complete(trx, opOccId, request.owner, change, from)
        : await store.changeOpOcc(trx, opOccId, change, { from, owner: request.owner });
    if (!changed) return undefined;
    const opOcc = (await store.findOpOcc(trx, request.opOccId)) as OpOccRecord;
    if (FINAL.includes(opOcc.operationState)) {
      if (request.instance) await store.saveInstance(trx, request.instance, { release: opOcc.id });
      else await store.release(trx, opOcc.vnfInstanceId, opOcc.id);
    } else if (request.instance) {
      await store.saveInstance(trx, request.instance);
    }
    const instance = (await store.findInstance(trx, opOcc.vnfInstanceId)) as VnfInstanceRecord;
    await request.also?.(trx, opOcc, instance);
    if (request.change.operationState !== undefined) {
      await notifyOpOcc(trx, store, instance, opOcc);
      await appendOpEvents(trx, db, opOcc.id, stateEvents(request.change, opOcc));
    }
    return { opOcc, instance };
  });
  if (done && request.change.operationState !== undefined) opEventsCommitted(done.opOcc.id);
  return done;
}

/** The timeline events of a state change: the error it records, then the state entered. */
export function stateEvents(change: OpOccChange, opOcc: OpOccRecord): NewOpEvent[] {
  const error = change.error && typeof change.error === 'object' ? change.error : undefined;
  return [
    ...(error ? [{ kind: 'error' as const, error: error as Record<string, unknown> }] : []),
    { kind: 'state', state: opOcc.operationState },
  ];
}
