/**
 * Appends events to an op occ's timeline in the caller's transaction: numbers them after the
 * op occ's last (the counter row orders concurrent writers), keeps driver output lines within
 * the bound (one `truncated` event says when the rest are dropped), and asks PostgreSQL to tell
 * the other processes at commit. The caller wakes this process's streams once committed
 * (opEventsCommitted).
 */
import type { Database } from '../../store/db/database.ts';
import type { LcmOpEventsTable } from '../../store/db/tables.ts';
import { type Executor, inTransaction } from '../../store/db/transaction.ts';
import { appendNumberedEvents, type UnnumberedEvent } from '../../store/op-events/append-numbered.ts';
import { insertOpEvents } from '../../store/op-events/insert.ts';
import { lockOpEventSeq } from '../../store/op-events/lock-seq.ts';
import { setOpEventSeq } from '../../store/op-events/set-seq.ts';
import { nowIso } from '../model.ts';
import type { NewOpEvent } from './event.ts';
import { CHANNEL, notifyOtherProcesses } from './signal.ts';

/** The longest output line kept (a longer one keeps its head and says so). */
export const MAX_LINE = 2048;

const clip = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… (line cut)` : line);

/**
 * Appends `events` in a transaction of their own (the timeline writer's batches): on PostgreSQL,
 * a batch without output lines is one statement (store/op-events/append-numbered.ts).
 */
export async function recordOpEvents(
  db: Database,
  opOccId: string,
  events: readonly NewOpEvent[],
  maxOutputLines: number,
): Promise<void> {
  if (db.dialect === 'postgres' && !events.some((e) => e.kind === 'output')) {
    await appendNumberedEvents(db.kysely, opOccId, unnumbered(events), CHANNEL);
    return;
  }
  await inTransaction(db, (trx) => appendOpEvents(trx, db, opOccId, events, maxOutputLines));
}

function unnumbered(events: readonly NewOpEvent[]): UnnumberedEvent[] {
  const now = nowIso();
  return events.map(({ kind, at, ...data }) => ({ at: at ?? now, kind, data: JSON.stringify(data) }));
}

export async function appendOpEvents(
  trx: Executor,
  db: Database,
  opOccId: string,
  events: readonly NewOpEvent[],
  /** Output lines an op occ keeps (only output events count). */
  maxOutputLines = Number.MAX_SAFE_INTEGER,
): Promise<number> {
  if (!events.length) return 0;
  if (db.dialect === 'postgres' && !events.some((e) => e.kind === 'output')) {
    await appendNumberedEvents(trx, opOccId, unnumbered(events), CHANNEL);
    return events.length;
  }
  const counter = await lockOpEventSeq(trx, opOccId);
  let { lastSeq, outputLines } = counter;
  const rows: LcmOpEventsTable[] = [];
  const now = nowIso();
  for (const event of events) {
    let kept: NewOpEvent = event;
    if (event.kind === 'output') {
      outputLines++;
      if (outputLines > maxOutputLines + 1) continue;
      kept =
        outputLines === maxOutputLines + 1
          ? {
              kind: 'truncated',
              detail: `More than ${maxOutputLines} output lines (lcm.timeline.maxOutputLines): the rest are not recorded.`,
            }
          : { ...event, line: clip(event.line) };
    }
    const { kind, at, ...data } = kept;
    rows.push({ op_occ_id: opOccId, seq: ++lastSeq, at: at ?? now, kind, data: JSON.stringify(data) });
  }
  await setOpEventSeq(trx, opOccId, { lastSeq, outputLines });
  if (!rows.length) return 0;
  await insertOpEvents(trx, rows);
  await notifyOtherProcesses(trx, db, opOccId);
  return rows.length;
}
