/**
 * One delivery session: the worker holds a subscription's lease and sends its pending
 * notifications one after the other, oldest first. A notification is sent only once the one
 * before it is delivered or dead (per-subscriber FIFO); the next batch is read while the current
 * one is sent, and delivered rows leave the outbox with other sessions' (delivered-rows.ts). The session ends when the queue is
 * empty, when a failure puts the subscription in back-off, when its time budget is spent (so
 * that other subscriptions get their turn), when the lease is lost, or when the worker stops.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config/load.ts';
import { describeUrl } from '../../net/pinned-request.ts';
import type { SealedBox } from '../../security/sealed-box.ts';
import type { Database } from '../../store/db/database.ts';
import { AuthenticationParamsError, type DeliveryAuth, parseAuthentication } from './authentication.ts';
import { backoffDelay } from './backoff.ts';
import { CallError } from './call-error.ts';
import type { CallbackClient, Endpoint } from './callback-client.ts';
import type { DeliveredRows } from './delivered-rows.ts';
import { callbackHeaders } from './headers.ts';
import { absolutizeLinks } from './links.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { dropSubscriptionQueue, nextBatch, type OutboxRow, recordFailure } from './queue.ts';

/** A session hands its slot back after this long, even with notifications left. */
const SESSION_BUDGET_MS = 2000;

export interface SessionDeps {
  config: Config;
  db: Database;
  box: SealedBox;
  client: CallbackClient;
  metrics: DeliveryMetrics;
  /** Where delivered rows wait for their removal from the outbox (shared by the process's sessions). */
  delivered: DeliveredRows;
  logger: Logger;
  /** Base of the absolute `_links` hrefs. */
  linkBase: string;
  /** Aborted when the worker stops: the call in flight is abandoned. */
  signal: AbortSignal;
  /** True once the worker stops: no new call is started. */
  stopping(): boolean;
}

/** The session's hold on the subscription (the runner heartbeats it). */
export interface SessionLease {
  /** This process's lease-owner id. */
  owner: string;
  /**
   * False once the lease may have run out by this process's clock: sending stops, so that a
   * worker that stalled never sends alongside the one that took over.
   */
  valid(): boolean;
}

export interface SessionResult {
  /** When the subscription may be tried again (it failed and waits), if it does. */
  retryAt?: number;
  /** The session's time was up with notifications possibly left: another worker may go on. */
  budgetSpent?: boolean;
}

interface Subscription {
  id: string;
  api: string;
  major: string;
  callbackUri: string;
  authentication: string | null;
}

export async function runSession(
  deps: SessionDeps,
  subscriptionId: string,
  lease: SessionLease,
): Promise<SessionResult> {
  const { db, config, delivered } = deps;
  const subscription = await db.kysely
    .selectFrom('subscriptions')
    .select(['id', 'api', 'major', 'callback_uri as callbackUri', 'authentication'])
    .where('id', '=', subscriptionId)
    .executeTakeFirst();
  if (!subscription) {
    await dropSubscriptionQueue(db, subscriptionId);
    return {};
  }
  const headers = callbackHeaders(subscription.api, subscription.major, true);
  const started = Date.now();
  const read = (after: number) => nextBatch(db, subscriptionId, config.notify.batchSize, after);
  // The read of the next batch, in flight while the current one is sent.
  let next: Promise<OutboxRow[]> | undefined = read(0);
  try {
    while (next) {
      const rows = await next;
      next = undefined;
      if (rows.length === 0) return {};
      // Read ahead (from after this batch: its delivered rows may not be deleted yet) while the
      // calls go out, unless the session's time is up.
      if (Date.now() - started < SESSION_BUDGET_MS) next = read(rows[rows.length - 1].id);
      // The address check (and DNS answer) holds for one batch; authentication is re-read too.
      let endpoint: Endpoint | CallError;
      try {
        endpoint = await deps.client.endpoint(subscription.callbackUri, openAuth(deps.box, subscription));
      } catch (error) {
        if (!(error instanceof CallError)) throw error;
        endpoint = error;
      }
      for (const row of rows) {
        if (deps.stopping() || !lease.valid()) return {};
        const outcome = await attempt(deps, subscription, endpoint, headers, row);
        if (outcome === 'aborted') return {};
        if (outcome === 'delivered') {
          delivered.add(subscriptionId, row.id);
          continue;
        }
        // What was delivered before the failure leaves the outbox first.
        await delivered.flush();
        const failures = row.attempts + 1;
        const tooOld = Date.now() - Date.parse(row.createdAt) >= config.notify.maxAgeMs;
        const dead = failures >= config.notify.maxAttempts || tooOld;
        const retryAt = dead ? undefined : Date.now() + backoffDelay(config.notify, failures);
        // Nothing recorded: the subscription was deleted during the attempt, its queue with it.
        if (
          !(await recordFailure(db, {
            subscriptionId,
            owner: lease.owner,
            rowId: row.id,
            error: outcome.message,
            retryAt,
          }))
        )
          return {};
        deps.metrics.attempt(subscription.api, dead ? 'dead' : 'failed', outcome.seconds, row.attempts > 0);
        const log = {
          subscriptionId,
          notificationId: row.notificationId,
          attempts: failures,
          reason: outcome.message,
        };
        if (dead) {
          deps.logger.warn(
            log,
            tooOld ? 'notification dead: too old to retry' : 'notification dead: attempts exhausted',
          );
          continue;
        }
        deps.logger.info(
          { ...log, retryAt: new Date(retryAt as number).toISOString() },
          'notification delivery failed; will retry',
        );
        return { retryAt };
      }
    }
    return { budgetSpent: true };
  } finally {
    // Nothing is left running, and the lease is handed back only once the delivered rows are gone.
    await next?.catch(() => {});
    await delivered.flush();
  }
}

type Attempt = 'delivered' | 'aborted' | { message: string; seconds: number };

async function attempt(
  deps: SessionDeps,
  subscription: Subscription,
  endpoint: Endpoint | CallError,
  headers: Record<string, string>,
  row: OutboxRow,
): Promise<Attempt> {
  const began = performance.now();
  const seconds = () => (performance.now() - began) / 1000;
  if (endpoint instanceof CallError) return { message: endpoint.message, seconds: 0 };
  try {
    const response = await deps.client.send(endpoint, {
      method: 'POST',
      headers,
      body: absolutizeLinks(row.payload, deps.linkBase),
      signal: deps.signal,
    });
    if (response.status >= 200 && response.status < 300) {
      deps.metrics.attempt(subscription.api, 'delivered', seconds(), row.attempts > 0);
      deps.metrics.delivered(subscription.api, (Date.now() - Date.parse(row.createdAt)) / 1000);
      return 'delivered';
    }
    return { message: statusMessage(endpoint, response.status, response.body), seconds: seconds() };
  } catch (error) {
    if (!(error instanceof CallError)) throw error;
    if (error.code === 'ABORTED') return 'aborted';
    return { message: error.message, seconds: seconds() };
  }
}

/** The stored authentication, opened and read; a CallError when it cannot be used. */
function openAuth(box: SealedBox, subscription: Subscription): DeliveryAuth {
  if (subscription.authentication === null) return parseAuthentication(undefined);
  try {
    const plain = JSON.parse(box.open(subscription.authentication).toString('utf8')) as Record<
      string,
      unknown
    >;
    return parseAuthentication(plain);
  } catch (error) {
    const reason =
      error instanceof AuthenticationParamsError
        ? error.message
        : 'the stored authentication cannot be opened (was security.encryptionKey changed?)';
    throw new CallError('AUTHENTICATION', reason);
  }
}

function statusMessage(endpoint: Endpoint, status: number, body: string): string {
  const where = describeUrl(endpoint.url);
  let detail = '';
  try {
    const problem = JSON.parse(body) as { detail?: unknown; title?: unknown };
    const text = typeof problem.detail === 'string' ? problem.detail : problem.title;
    if (typeof text === 'string') detail = text;
  } catch {
    detail = body;
  }
  detail = detail.replace(/\s+/g, ' ').trim().slice(0, 200);
  const hint =
    status === 401 || status === 403
      ? endpoint.auth.header.kind === 'none' && !endpoint.auth.tls?.cert
        ? ' (the receiver wants credentials: the subscription has no authentication)'
        : ' (the receiver refused the subscription credentials)'
      : '';
  return `POST ${where} answered HTTP ${status}${hint}${detail ? `: ${detail}` : ''}`;
}
