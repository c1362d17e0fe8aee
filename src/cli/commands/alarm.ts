/**
 * `bosun alarm list|show|ack|unack|escalate|rebuild`: the alarms of the caller's project through
 * /vnffm/v1 (newest first), their acknowledgement and SOL002 escalation; `rebuild` (admin) tells
 * every FM subscriber to read the alarm list again, after data loss or a restore.
 */
import type { Command } from 'commander';
import {
  type Alarm,
  escalateAlarm,
  getAlarm,
  listAlarms,
  rebuildAlarms,
  setAckState,
} from '../api-client/alarms.ts';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import { collect } from '../key-values.ts';
import { emit, emitRecords, type OutputOptions, printTable, withIdOnly } from '../output.ts';
import { type ListFlags, listQuery, withListOptions } from './vnf.ts';

interface Common extends ConnectionOptions, OutputOptions {}

const say = (line: string) => process.stdout.write(line + '\n');

function sub(parent: Command, spec: string, description: string): Command {
  return withConnectionOptions(parent.command(spec).description(description)).option('--json', 'print JSON');
}

const row = (a: Alarm) => ({
  id: a.id,
  severity: a.perceivedSeverity,
  ack: a.ackState === 'ACKNOWLEDGED' ? 'yes' : 'no',
  instance: a.managedObjectId,
  resource: (a.rootCauseFaultyResource?.faultyResource as { resourceId?: string } | undefined)?.resourceId,
  vnfcs: (a.vnfcInstanceIds as string[] | undefined)?.join(','),
  cause: a.probableCause,
  raised: a.alarmRaisedTime,
  cleared: a.alarmClearedTime,
});

function printAlarm(a: Alarm): void {
  for (const [key, value] of Object.entries(a)) {
    if (key === '_links') continue;
    say(`${key.padEnd(24)} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
}

/** The filter of --filter, --instance and --severity together. */
function filterOf(opts: ListFlags & { instance: string[]; severity: string[] }): string | undefined {
  const terms = [
    opts.filter,
    opts.instance.length ? `(in,managedObjectId,${opts.instance.join(',')})` : undefined,
    opts.severity.length
      ? `(in,perceivedSeverity,${opts.severity.map((s) => s.toUpperCase()).join(',')})`
      : undefined,
  ];
  return terms.filter(Boolean).join(';') || undefined;
}

export function register(alarm: Command): void {
  withListOptions(
    withIdOnly(sub(alarm, 'list', 'list alarms, newest first (every page)')),
    '(eq,ackState,UNACKNOWLEDGED)',
  )
    .option('--instance <id>', 'only alarms of this VNF instance (repeat)', collect, [] as string[])
    .option(
      '--severity <severity>',
      'only alarms of this perceived severity (repeat)',
      collect,
      [] as string[],
    )
    .action(async (opts: Common & ListFlags & { instance: string[]; severity: string[] }) => {
      const all = await listAlarms(ApiClient.from(opts), listQuery({ ...opts, filter: filterOf(opts) }));
      emitRecords(opts, all, () => {
        if (all.length === 0) say('no alarms');
        else
          printTable(all.map(row), [
            'id',
            'severity',
            'ack',
            'instance',
            'resource',
            'vnfcs',
            'cause',
            'raised',
            'cleared',
          ]);
      });
    });

  sub(alarm, 'show <id>', 'one alarm').action(async (id: string, opts: Common) => {
    const a = await getAlarm(ApiClient.from(opts), id);
    emit(opts.json, a, () => printAlarm(a));
  });

  for (const [name, ackState, description] of [
    ['ack', 'ACKNOWLEDGED', 'acknowledge an alarm'],
    ['unack', 'UNACKNOWLEDGED', 'take the acknowledgement of an alarm back'],
  ] as const) {
    sub(alarm, `${name} <id>`, description).action(async (id: string, opts: Common) => {
      const result = await setAckState(ApiClient.from(opts), id, ackState);
      emit(opts.json, { id, ...result }, () => say(`alarm ${id}: ${ackState}`));
    });
  }

  sub(alarm, 'escalate <id> <severity>', 'propose a more urgent perceived severity (SOL002)').action(
    async (id: string, severity: string, opts: Common) => {
      await escalateAlarm(ApiClient.from(opts), id, severity.toUpperCase());
      emit(opts.json, { id, perceivedSeverity: severity.toUpperCase() }, () =>
        say(`alarm ${id}: ${severity.toUpperCase()}`),
      );
    },
  );

  sub(
    alarm,
    'rebuild',
    'after data loss or a restore: tell every FM subscriber to read the alarm list again (admin)',
  )
    .option(
      '--project <project>',
      'only this project (default: every project with FM subscriptions or open alarms)',
    )
    .action(async (opts: Common & { project?: string }) => {
      const result = await rebuildAlarms(ApiClient.from(opts), opts.project);
      emit(opts.json, result, () =>
        say(
          result.projects.length
            ? `alarm list rebuilt: ${result.notified} notification(s) queued for ${result.projects.join(', ')}`
            : 'alarm list rebuilt: no project has FM subscriptions or open alarms',
        ),
      );
    });
}
