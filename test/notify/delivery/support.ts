/**
 * Helpers of the delivery tests: a real notification receiver on loopback (HTTP or HTTPS with
 * client certificates) whose answers a test scripts, a Bosun server with fast delivery
 * settings, subscriptions made through the SOL API, and outbox rows written as the outbox does.
 */
import { randomUUID } from 'node:crypto';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { deepMerge } from '../../../src/config/load.ts';
import { wakeDelivery } from '../../../src/notify/delivery/signal.ts';
import type { SubscriptionStatus } from '../../../src/notify/delivery/status.ts';
import { type ApiName, currentVersion, findMajor } from '../../../src/sol/api-versions.ts';
import type { Database } from '../../../src/store/db/database.ts';
import { inTransaction } from '../../../src/store/db/transaction.ts';
import type { TestDialect } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../../support/server.ts';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (POST), or undefined. */
  body: Record<string, unknown> | undefined;
  /** The body as received. */
  text: string;
  /** Subject CN of the client certificate, over mutual TLS. */
  clientCert?: string;
  at: number;
}

/** What the receiver answers; `delayMs` holds the answer back (a slow receiver). */
export interface Answer {
  status?: number;
  delayMs?: number;
  body?: string;
}

export type Behaviour = (request: Received) => Answer | Promise<Answer>;

export interface Receiver {
  url: string;
  received: Received[];
  /** Only the notifications (POSTs). */
  notifications(): Received[];
  behave(behaviour: Behaviour): void;
  /** Resolves once `predicate` holds, polling; fails with what was received after `timeoutMs`. */
  waitFor(predicate: (r: Receiver) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ReceiverTls {
  cert: string;
  key: string;
  /** CA of the client certificates to require (mutual TLS). */
  clientCa?: string;
}

/** GET (the callback test) → 204, POST → 204, unless a behaviour says otherwise. */
export async function startReceiver(behaviour?: Behaviour, tls?: ReceiverTls): Promise<Receiver> {
  let current: Behaviour = behaviour ?? (() => ({ status: 204 }));
  const received: Received[] = [];
  const pendingTimers = new Set<NodeJS.Timeout>();
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const socket = req.socket as TLSSocket;
      const peer = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
      const entry: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body:
          text && req.headers['content-type'] === 'application/json'
            ? (JSON.parse(text) as Record<string, unknown>)
            : undefined,
        text,
        ...(peer?.subject ? { clientCert: String(peer.subject.CN) } : {}),
        at: Date.now(),
      };
      received.push(entry);
      const answer = await current(entry);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 204, answer.body ? { 'content-type': 'application/json' } : {});
        res.end(answer.body);
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          pendingTimers.delete(timer);
          send();
        }, answer.delayMs);
        pendingTimers.add(timer);
      } else send();
    });
  };
  const server: Server = tls
    ? createHttpsServer(
        {
          cert: tls.cert,
          key: tls.key,
          ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
        },
        handler,
      )
    : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    notifications: () => received.filter((r) => r.method === 'POST'),
    behave(next) {
      current = next;
    },
    async waitFor(predicate, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver)) {
        if (Date.now() > deadline) {
          throw new Error(
            `receiver: timed out waiting for ${what}; got ${received.length} requests: ${JSON.stringify(
              received.slice(-5).map((r) => ({ method: r.method, path: r.path, seq: r.body?.seq })),
            )}`,
          );
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** Delivery settings that make the tests fast: quick polls, short back-off, short timeouts. */
export const FAST_DELIVERY = {
  worker: { pollIntervalMs: 50, leaseMs: 1000 },
  outbound: { allow: ['127.0.0.0/8', 'localhost'] },
  notify: {
    callbackTest: false,
    initialBackoffMs: 20,
    maxBackoffMs: 100,
    requestTimeoutMs: 1000,
    maxAttempts: 4,
  },
};

export function startDeliveryServer(
  dialect: TestDialect,
  options: TestServerOptions = {},
): Promise<TestServer> {
  return startTestServer(dialect, { ...options, config: deepMerge(FAST_DELIVERY, options.config ?? {}) });
}

/** A delivery server for a describe block, with the receivers its tests start. */
export interface DeliveryServer {
  readonly url: string;
  readonly context: TestServer['context'];
  /** A receiver (see startReceiver) closed after the block, with the server. */
  receiver(behaviour?: Behaviour, tls?: ReceiverTls): Promise<Receiver>;
}

/**
 * The set-up every delivery test block shares: called in a describe body, it starts a delivery
 * server before the block's tests (before the block's own `before` hooks, which may use it) and
 * closes it and every receiver started through it after them.
 */
export function deliveryServer(dialect: TestDialect, options: TestServerOptions = {}): DeliveryServer {
  let server: TestServer | undefined;
  const receivers: Receiver[] = [];
  const started = () => {
    if (!server) throw new Error('the delivery server starts in the describe block’s before hook');
    return server;
  };
  before(async () => {
    server = await startDeliveryServer(dialect, options);
  });
  after(async () => {
    await server?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });
  return {
    get url() {
      return started().url;
    },
    get context() {
      return started().context;
    },
    async receiver(behaviour, tls) {
      const receiver = await startReceiver(behaviour, tls);
      receivers.push(receiver);
      return receiver;
    },
  };
}

export type Api = 'vnfpkgm' | 'vnflcm' | 'vnffm' | 'vnfpm';

export const versionOf = (api: Api, major: string) => currentVersion(findMajor(api as ApiName, major)!);

/** Creates a subscription through the SOL API; returns its id. */
export async function subscribe(
  server: { url: string },
  callbackUri: string,
  options: {
    api?: Api;
    major?: string;
    authentication?: Record<string, unknown>;
    headers?: Record<string, string>;
  } = {},
): Promise<string> {
  const api = options.api ?? 'vnfpkgm';
  const major = options.major ?? 'v1';
  const res = await http<{ id: string }>(server.url, 'POST', `/${api}/${major}/subscriptions`, {
    headers: { version: versionOf(api, major), ...options.headers },
    body: { callbackUri, ...(options.authentication ? { authentication: options.authentication } : {}) },
  });
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${res.text}`);
  return res.body.id;
}

/**
 * Writes `count` notifications for one subscription, as the outbox does (same row shape), in
 * one transaction, then wakes this process's workers. Each carries its sequence number and a
 * path-absolute link, as the notification builders produce them.
 */
export async function enqueueFor(
  db: Database,
  subscriptionId: string,
  count: number,
  options: { firstSeq?: number; api?: Api; major?: string } = {},
): Promise<string[]> {
  const api = options.api ?? 'vnfpkgm';
  const major = options.major ?? 'v1';
  const first = options.firstSeq ?? 0;
  const now = new Date().toISOString();
  const rows = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const payload = {
      id,
      notificationType: 'TestNotification',
      subscriptionId,
      timeStamp: now,
      seq: first + i,
      _links: { subscription: { href: `/${api}/${major}/subscriptions/${subscriptionId}` } },
    };
    return {
      subscription_id: subscriptionId,
      notification_id: id,
      api,
      major,
      notification_type: payload.notificationType,
      payload: JSON.stringify(payload),
      created_at: now,
      next_attempt_at: now,
      last_error: null,
    };
  });
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('notification_outbox')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  });
  wakeDelivery();
  return rows.map((r) => r.notification_id);
}

/** The sequence numbers the receiver got for a subscription, in arrival order. */
export const seqsOf = (receiver: Receiver, subscriptionId?: string) =>
  receiver
    .notifications()
    .filter((r) => subscriptionId === undefined || r.body?.subscriptionId === subscriptionId)
    .map((r) => r.body?.seq as number);

/** What the admin API answers for a subscription. */
export type AdminStatus = SubscriptionStatus;

export async function adminStatus(server: { url: string }, id: string): Promise<AdminStatus> {
  const res = await http<AdminStatus>(server.url, 'GET', `/bosun/v1/subscriptions/${id}`);
  if (res.status !== 200) throw new Error(`admin show: ${res.status} ${res.text}`);
  return res.body;
}

/** Polls the admin status until `predicate` holds. */
export async function waitStatus(
  server: { url: string },
  id: string,
  predicate: (s: AdminStatus) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<AdminStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await adminStatus(server, id);
    if (predicate(status)) return status;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
