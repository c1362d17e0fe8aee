/**
 * Plain HTTPS requests to a test API server, trusting its CA, for the tests that check the wire:
 * status codes and Status bodies, watch streams read event by event, either authentication.
 */
import { request } from 'node:https';
import type { KubeApi } from './index.ts';
import type { Obj } from './store.ts';

export type Auth = 'token' | 'cert' | 'none';

export interface RawResult {
  status: number;
  body: Obj;
}

export function kubeRequest(
  api: KubeApi,
  method: string,
  path: string,
  options: {
    body?: unknown;
    contentType?: string;
    auth?: Auth;
    accept?: string;
    /** A bearer token other than the cluster's (with auth 'token'). */
    token?: string;
    /** A client certificate other than the cluster's (with auth 'cert'). */
    cert?: { cert: string; key: string };
  } = {},
): Promise<RawResult> {
  const auth = options.auth ?? 'token';
  const text =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${api.url}${path}`,
      {
        method,
        ca: api.caPem,
        ...(auth === 'cert' ? (options.cert ?? api.clientCert) : {}),
        headers: {
          ...(auth === 'token' ? { authorization: `Bearer ${options.token ?? api.token}` } : {}),
          ...(text !== undefined
            ? {
                'content-type': options.contentType ?? 'application/json',
                'content-length': Buffer.byteLength(text),
              }
            : {}),
          accept: options.accept ?? 'application/json',
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          data += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data ? JSON.parse(data) : {} }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

export interface WatchStream {
  /** The next event, waiting for it (rejects after `timeoutMs`). */
  next(timeoutMs?: number): Promise<{ type: string; object: Obj }>;
  close(): void;
}

export function kubeWatch(api: KubeApi, path: string): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const queue: { type: string; object: Obj }[] = [];
    const waiters: (() => void)[] = [];
    let buffered = '';
    const req = request(
      `${api.url}${path}`,
      { ca: api.caPem, headers: { authorization: `Bearer ${api.token}` } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          let i = buffered.indexOf('\n');
          while (i >= 0) {
            queue.push(JSON.parse(buffered.slice(0, i)));
            buffered = buffered.slice(i + 1);
            i = buffered.indexOf('\n');
          }
          for (const w of waiters.splice(0)) w();
        });
        resolve({
          async next(timeoutMs = 10_000) {
            const end = Date.now() + timeoutMs;
            while (!queue.length) {
              if (Date.now() > end) throw new Error(`no watch event on ${path} within ${timeoutMs} ms`);
              await new Promise<void>((r) => {
                waiters.push(r);
                setTimeout(r, 50);
              });
            }
            return queue.shift()!;
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (e) => {
      if ((e as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(e);
    });
    req.end();
  });
}
