/**
 * `bosun subscription create --api A [--api-version N] --callback-uri U …`: a subscription
 * through the SOL API it is for (/<api>/<major>/subscriptions, in the caller's project), with
 * its filter and the authentication Bosun uses towards the callback.
 * `bosun subscription list|show|test|redeliver|delete [--api vnflcm|vnfpkgm|vnffm|vnfpm]`:
 * subscriptions of every API with their notification delivery state, through the admin API
 * (/bosun/v1/subscriptions; the bosun:admin scope when authentication is on).
 */
import type { Command } from 'commander';
import { API_NAMES, type ApiMajor, majorsOf } from '../../sol/api-versions.ts';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  redeliverSubscription,
  type SubscriptionStatus,
  testSubscription,
} from '../api-client/subscriptions.ts';
import { CliError, emit, emitRecords, type OutputOptions, printTable, withIdOnly } from '../output.ts';
import {
  type SubscriptionFlags,
  subscriptionRequest,
  withSubscriptionFlags,
} from './subscription-request.ts';

interface Common extends ConnectionOptions, OutputOptions {
  api?: string;
}

const say = (line: string) => process.stdout.write(line + '\n');

function apiOf(opts: Common): string | undefined {
  if (opts.api !== undefined && !API_NAMES.includes(opts.api as never)) {
    throw new CliError(`--api must be one of ${API_NAMES.join(', ')}, got '${opts.api}'`);
  }
  return opts.api;
}

function sub(parent: Command, spec: string, description: string, api = 'only this API'): Command {
  return withConnectionOptions(parent.command(spec).description(description))
    .option('--api <api>', `${api} (${API_NAMES.join(', ')})`)
    .option('--json', 'print JSON');
}

const row = (s: SubscriptionStatus) => ({
  id: s.id,
  api: `${s.api}/${s.major}`,
  project: s.projectId,
  callbackUri: s.callbackUri,
  delivered: s.delivery.delivered,
  pending: s.delivery.pending,
  failing: s.delivery.failing,
  dead: s.delivery.dead,
  lastError: s.delivery.lastError,
});

function printStatus(s: SubscriptionStatus): void {
  const d = s.delivery;
  const lines: [string, unknown][] = [
    ['id', s.id],
    ['api', `${s.api} ${s.major}`],
    ['project', s.projectId],
    ['callbackUri', s.callbackUri],
    ['createdAt', s.createdAt],
    ['delivered', d.delivered],
    ['pending', d.pending],
    ['failing', d.failing],
    ['dead', d.dead],
    ['failedAttempts', d.failedAttempts],
    ['lastDeliveredAt', d.lastDeliveredAt],
    ['lastError', d.lastError],
    ['lastErrorAt', d.lastErrorAt],
    ['nextAttemptAt', d.nextAttemptAt],
  ];
  for (const [key, value] of lines) if (value !== undefined) say(`${key.padEnd(16)} ${String(value)}`);
}

/** The API major --api and --api-version name (default: the API's newest major). */
function majorOf(api: string | undefined, version: string | undefined): ApiMajor {
  if (api === undefined) throw new CliError(`give --api (${API_NAMES.join(', ')})`);
  const majors = majorsOf(apiOf({ api }) as ApiMajor['api']);
  if (version === undefined) return majors[majors.length - 1];
  const found = majors.find((m) => m.major === `v${version.replace(/^v/, '')}`);
  if (!found) {
    const served = majors.map((m) => m.major.slice(1)).join(', ');
    throw new CliError(`--api-version of ${api} must be one of ${served}, got '${version}'`);
  }
  return found;
}

export function register(subscription: Command): void {
  withSubscriptionFlags(
    withIdOnly(
      sub(
        subscription,
        'create',
        'subscribe a callback to the notifications of one API (in your project)',
        'the API whose notifications to receive',
      ),
    ),
  )
    .option('--api-version <major>', "the API's major version (default: its newest)")
    .action(async (opts: Common & SubscriptionFlags & { apiVersion?: string }) => {
      const major = majorOf(opts.api, opts.apiVersion);
      const request = await subscriptionRequest(opts);
      const { subscription: s, existing } = await createSubscription(ApiClient.from(opts), major, request);
      emitRecords(opts, s, () =>
        say(
          existing
            ? `subscription ${s.id} exists already with this callback and filter (/${major.api}/${major.major}): ${s.callbackUri}`
            : `subscription ${s.id} created (/${major.api}/${major.major}): ${s.callbackUri}`,
        ),
      );
    });

  withIdOnly(sub(subscription, 'list', 'list subscriptions with their delivery state (every page)'))
    .option('--filter <expr>', 'SOL013 attribute filter, e.g. (gt,delivery/dead,0)')
    .action(async (opts: Common & { filter?: string }) => {
      const all = await listSubscriptions(ApiClient.from(opts), apiOf(opts), opts.filter);
      emitRecords(opts, all, () => {
        if (all.length === 0) say('no subscriptions');
        else
          printTable(all.map(row), [
            'id',
            'api',
            'project',
            'callbackUri',
            'delivered',
            'pending',
            'failing',
            'dead',
            'lastError',
          ]);
      });
    });

  sub(subscription, 'show <id>', 'one subscription and its delivery state').action(
    async (id: string, opts: Common) => {
      const s = await getSubscription(ApiClient.from(opts), id, apiOf(opts));
      emit(opts.json, s, () => printStatus(s));
    },
  );

  sub(
    subscription,
    'test <id>',
    'run the callback test (GET expecting 204) now; exit 1 with the reason if it fails',
  ).action(async (id: string, opts: Common) => {
    const result = await testSubscription(ApiClient.from(opts), id, apiOf(opts));
    emit(opts.json, result, () => say(`callback ${result.callbackUri} answered the test with 204`));
  });

  sub(subscription, 'redeliver <id>', 'send the dead notifications of a subscription again, in order').action(
    async (id: string, opts: Common) => {
      const result = await redeliverSubscription(ApiClient.from(opts), id, apiOf(opts));
      emit(opts.json, result, () => say(`${result.redelivered} dead notification(s) of ${id} queued again`));
    },
  );

  sub(subscription, 'delete <id>', 'delete a subscription and the notifications queued for it').action(
    async (id: string, opts: Common) => {
      await deleteSubscription(ApiClient.from(opts), id, apiOf(opts));
      emit(opts.json, { deleted: id }, () => say(`deleted subscription ${id}`));
    },
  );
}
