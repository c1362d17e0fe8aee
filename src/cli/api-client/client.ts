/**
 * The CLI's HTTP client: base URL, bearer token (given, or fetched once with client
 * credentials), ProblemDetails → one-line errors, Link-header paging.
 */
import type { Readable } from 'node:stream';
import { type Connection, type ConnectionOptions, resolveConnection } from './connection.ts';
import { connectionError, responseError } from './errors.ts';
import { nextLink } from './links.ts';
import { fetchToken } from './token.ts';

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A JSON value (sent as `contentType`, default application/json) or a stream. */
  json?: unknown;
  stream?: Readable;
  contentType?: string;
  /** Return non-2xx responses instead of throwing. */
  allowError?: boolean;
  /** `manual`: a redirect is returned (with allowError), not followed. */
  redirect?: 'follow' | 'manual';
  /** Aborts the request (and the reading of its body). */
  signal?: AbortSignal;
}

export class ApiClient {
  readonly #resolve: () => Promise<Connection>;
  #conn: Promise<Connection> | undefined;
  #token: Promise<string | undefined> | undefined;

  /** The connection is resolved at the first request (reading the configuration if need be). */
  constructor(resolve: () => Promise<Connection>) {
    this.#resolve = resolve;
  }

  static from(opts: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): ApiClient {
    return new ApiClient(() => resolveConnection(opts, env));
  }

  connection(): Promise<Connection> {
    this.#conn ??= this.#resolve();
    return this.#conn;
  }

  async #bearer(conn: Connection): Promise<string | undefined> {
    const { token, client } = conn;
    this.#token ??= token
      ? Promise.resolve(token)
      : client
        ? fetchToken(conn, client)
        : Promise.resolve(undefined);
    return this.#token;
  }

  /** `path` is relative to the base URL (starts with /). */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const conn = await this.connection();
    const url = conn.url + path;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = await this.#bearer(conn);
    if (token) headers.authorization = `Bearer ${token}`;
    const init: RequestInit & { duplex?: 'half' } = {
      method,
      headers,
      redirect: options.redirect,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    if (options.json !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      init.body = JSON.stringify(options.json);
    } else if (options.stream) {
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
      init.body = options.stream as unknown as ReadableStream;
      init.duplex = 'half';
    }
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (err) {
      throw connectionError(conn, err);
    }
    if (!res.ok && !options.allowError) throw await responseError(res);
    return res;
  }

  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, options);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A next-link path without our base URL's own path prefix (a server behind a proxy path). */
  #relative(base: string, path: string | undefined): string | undefined {
    const prefix = new URL(base).pathname.replace(/\/+$/, '');
    return prefix && path?.startsWith(prefix + '/') ? path.slice(prefix.length) : path;
  }

  /** Every item of a SOL013 paged list, following `Link: rel="next"` to the end. */
  async list<T>(path: string, headers: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    const { url } = await this.connection();
    let next: string | undefined = path;
    while (next) {
      const res = await this.request('GET', next, { headers });
      items.push(...((await res.json()) as T[]));
      next = this.#relative(url, nextLink(res.headers.get('link')));
    }
    return items;
  }
}
