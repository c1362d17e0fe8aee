/**
 * `bosun op list|show|retry|rollback|fail|cancel`: LCM operation occurrences (op occs) over
 * /vnflcm/v2 (or /vnflcm/v1 with --api-version 1). retry, rollback and cancel take --wait and
 * follow the op occ to its end, as the operations of `bosun vnf` do.
 */
import type { Command } from 'commander';
import { fetchTimeline, lastEventSeq } from '../api-client/timeline.ts';
import type { OpOcc } from '../api-client/vnf-instances.ts';
import { CliError, emit, emitRecords, printTable, withIdOnly } from '../output.ts';
import {
  errorLines,
  finish,
  type LcmOptions,
  lcmCommand,
  lcmOf,
  nextSteps,
  say,
  type WaitOptions,
  withWait,
} from './lcm-common.ts';
import { timelineLine } from './timeline-lines.ts';
import { type ListOptions, listQuery, withListOptions } from './vnf.ts';

const row = (o: OpOcc) => ({
  id: o.id,
  operation: o.operation,
  state: o.operationState,
  vnfInstance: o.vnfInstanceId,
  started: o.startTime,
  stateEntered: o.stateEnteredTime,
});

/** `ADDED 2, REMOVED 1` per kind of resource change. */
function changes(o: OpOcc): string[] {
  const lines: string[] = [];
  for (const [kind, list] of Object.entries(o.resourceChanges ?? {})) {
    if (!Array.isArray(list) || list.length === 0) continue;
    const counts = new Map<string, number>();
    for (const c of list) counts.set(c.changeType, (counts.get(c.changeType) ?? 0) + 1);
    lines.push(`${kind.padEnd(24)} ${[...counts].map(([t, n]) => `${t} ${n}`).join(', ')}`);
  }
  return lines;
}

function printOpOcc(o: OpOcc, next?: string): void {
  const line = (key: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') {
      say(`${key.padEnd(24)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
    }
  };
  for (const key of [
    'id',
    'operation',
    'operationState',
    'vnfInstanceId',
    'startTime',
    'stateEnteredTime',
    'isAutomaticInvocation',
    'isCancelPending',
    'cancelMode',
    'grantId',
    'operationParams',
  ]) {
    line(key, o[key]);
  }
  for (const l of changes(o)) say(l);
  if (o.changedInfo) line('changedInfo', o.changedInfo);
  if (o.error) for (const l of errorLines(o.error)) say(l);
  if (next) say(`next: ${next}`);
}

export function register(op: Command): void {
  withListOptions(
    withIdOnly(lcmCommand(op, 'list', 'list op occs, newest first (every page)')),
    '(eq,operationState,FAILED_TEMP)',
  )
    .option('--instance <id>', "only this VNF instance's (adds (eq,vnfInstanceId,<id>) to the filter)")
    .action(async (opts: ListOptions & { instance?: string }) => {
      const byInstance = opts.instance ? `(eq,vnfInstanceId,${opts.instance})` : undefined;
      const filter = [opts.filter, byInstance].filter(Boolean).join(';') || undefined;
      const all = await lcmOf(opts).listOpOccs(listQuery({ ...opts, filter }));
      emitRecords(opts, all, () => {
        if (all.length === 0) say('no op occs');
        else printTable(all.map(row), ['id', 'operation', 'state', 'vnfInstance', 'started', 'stateEntered']);
      });
    });

  lcmCommand(op, 'show <id>', 'show an op occ: its state, resource changes, error and next steps')
    .option(
      '--timeline',
      'also its timeline: states, steps, driver phases and output, zones tried (--json: the events)',
    )
    .action(async (id: string, opts: LcmOptions & { timeline?: boolean }) => {
      const lcm = lcmOf(opts);
      const o = await lcm.getOpOcc(id);
      const timeline = opts.timeline ? (await fetchTimeline(lcm.api, id)).events : undefined;
      emit(opts.json, timeline ? { ...o, timeline } : o, () => {
        printOpOcc(o, nextSteps(lcm, o));
        if (!timeline) return;
        say('timeline:');
        const start = timeline[0] ? Date.parse(timeline[0].at) : 0;
        for (const event of timeline) say(timelineLine(event, start));
      });
    });

  withWait(lcmCommand(op, 'retry <id>', 'retry a FAILED_TEMP op occ from its failed step')).action(
    async (id: string, opts: WaitOptions) => {
      const lcm = lcmOf(opts);
      const after = opts.wait ? await lastEventSeq(lcm.api, id) : 0;
      await lcm.opOccTask(id, 'retry');
      await finish(lcm, id, opts, { what: `retry of ${id}`, after });
    },
  );

  withWait(
    lcmCommand(op, 'rollback <id>', 'roll back a FAILED_TEMP op occ: undo exactly what it did'),
  ).action(async (id: string, opts: WaitOptions) => {
    const lcm = lcmOf(opts);
    const after = opts.wait ? await lastEventSeq(lcm.api, id) : 0;
    await lcm.opOccTask(id, 'rollback');
    await finish(lcm, id, opts, { what: `rollback of ${id}`, success: ['ROLLED_BACK'], after });
  });

  lcmCommand(op, 'fail <id>', 'mark a FAILED_TEMP op occ FAILED (final; the instance is released)').action(
    async (id: string, opts: LcmOptions) => {
      const o = await lcmOf(opts).failOpOcc(id);
      emit(opts.json, o, () => say(`${o.operation} ${o.id}: ${o.operationState}`));
    },
  );

  withWait(
    lcmCommand(op, 'cancel <id>', 'cancel a running op occ at its next step boundary (--forceful: at once)'),
  )
    .option('--graceful', 'cancelMode GRACEFUL (the default): at the next step boundary')
    .option('--forceful', 'cancelMode FORCEFUL: also abort the step in flight')
    .action(async (id: string, opts: WaitOptions & { graceful?: boolean; forceful?: boolean }) => {
      if (opts.graceful && opts.forceful) throw new CliError('give --graceful or --forceful, not both');
      const lcm = lcmOf(opts);
      const after = opts.wait ? await lastEventSeq(lcm.api, id) : 0;
      await lcm.opOccTask(id, 'cancel', { cancelMode: opts.forceful ? 'FORCEFUL' : 'GRACEFUL' });
      // A cancelled operation ends FAILED_TEMP (or ROLLED_BACK while STARTING): that is success here.
      await finish(lcm, id, opts, {
        what: `cancel of ${id}`,
        success: ['FAILED_TEMP', 'ROLLED_BACK', 'COMPLETED', 'FAILED'],
        after,
      });
    });
}
