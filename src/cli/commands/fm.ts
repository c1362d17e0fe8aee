/**
 * `bosun fm subscribe`: an FM subscription (/vnffm/v1, in the caller's project) with its filter
 * given as flags — the instances, severities, event types, probable causes and faulty resource
 * types of the alarms to hear about — and every flag of `bosun subscription create` (callback,
 * authentication, --filter-file; the flags here add to its filter).
 */
import type { Command } from 'commander';
import { findMajor } from '../../sol/api-versions.ts';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import { createSubscription } from '../api-client/subscriptions.ts';
import { collect } from '../key-values.ts';
import { CliError, emitRecords, type OutputOptions, withIdOnly } from '../output.ts';
import {
  type SubscriptionFlags,
  subscriptionRequest,
  withSubscriptionFlags,
} from './subscription-request.ts';

interface FmFlags extends ConnectionOptions, OutputOptions, SubscriptionFlags {
  instance: string[];
  severity: string[];
  eventType: string[];
  probableCause: string[];
  resourceType: string[];
}

const say = (line: string) => process.stdout.write(line + '\n');
const upper = (values: string[]) => values.map((v) => v.toUpperCase());

/** The filter attributes the flags name (only those given). */
function flagFilter(opts: FmFlags): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (opts.instance.length) filter.vnfInstanceSubscriptionFilter = { vnfInstanceIds: opts.instance };
  if (opts.severity.length) filter.perceivedSeverities = upper(opts.severity);
  if (opts.eventType.length) filter.eventTypes = upper(opts.eventType);
  if (opts.probableCause.length) filter.probableCauses = opts.probableCause;
  if (opts.resourceType.length) filter.faultyResourceTypes = upper(opts.resourceType);
  return filter;
}

export function register(fm: Command): void {
  const command = withConnectionOptions(
    fm.command('subscribe').description('subscribe a callback to alarm notifications (in your project)'),
  ).option('--json', 'print JSON');
  withSubscriptionFlags(withIdOnly(command))
    .option('--instance <id>', 'only alarms of this VNF instance (repeat)', collect, [] as string[])
    .option(
      '--severity <severity>',
      'only alarms of this perceived severity (repeat)',
      collect,
      [] as string[],
    )
    .option(
      '--event-type <type>',
      'only this event type, e.g. EQUIPMENT_ALARM (repeat)',
      collect,
      [] as string[],
    )
    .option(
      '--probable-cause <cause>',
      'only alarms with this probable cause (repeat)',
      collect,
      [] as string[],
    )
    .option(
      '--resource-type <type>',
      'only alarms whose faulty resource is COMPUTE, STORAGE or NETWORK (repeat)',
      collect,
      [] as string[],
    )
    .action(async (opts: FmFlags) => {
      const major = findMajor('vnffm', 'v1');
      if (!major) throw new CliError('this bosun serves no /vnffm/v1');
      const request = await subscriptionRequest(opts);
      const filter = { ...(request.filter as Record<string, unknown> | undefined), ...flagFilter(opts) };
      if (Object.keys(filter).length) request.filter = filter;
      const { subscription: s, existing } = await createSubscription(ApiClient.from(opts), major, request);
      emitRecords(opts, s, () =>
        say(
          existing
            ? `FM subscription ${s.id} exists already with this callback and filter: ${s.callbackUri}`
            : `FM subscription ${s.id} created: ${s.callbackUri}`,
        ),
      );
    });
}
