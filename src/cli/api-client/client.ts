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
}

export class ApiClient {
  readonly conn: Connection;
  #token: Promise<string | undefined> | undefined;

  constructor(conn: Connection) {
    this.conn = conn;
  }

  static from(opts: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): ApiClient {
    return new ApiClient(resolveConnection(opts, env));
  }

  #bearer(): Promise<string | undefined> {
    const { token, client } = this.conn;
    this.#token ??= token
      ? Promise.resolve(token)
      : client
        ? fetchToken(this.conn, client)
        : Promise.resolve(undefined);
    return this.#token;
  }

  /** `path` is relative to the base URL (starts with /). */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = this.conn.url + path;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    const token = await this.#bearer();
    if (token) headers.authorization = `Bearer ${token}`;
    const init: RequestInit & { duplex?: 'half' } = { method, headers };
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
      throw connectionError(this.conn.url, err);
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
  #relative(path: string | undefined): string | undefined {
    const prefix = new URL(this.conn.url).pathname.replace(/\/+$/, '');
    return prefix && path?.startsWith(prefix + '/') ? path.slice(prefix.length) : path;
  }

  /** Every item of a SOL013 paged list, following `Link: rel="next"` to the end. */
  async list<T>(path: string, headers: Record<string, string> = {}): Promise<T[]> {
    const items: T[] = [];
    let next: string | undefined = path;
    while (next) {
      const res = await this.request('GET', next, { headers });
      items.push(...((await res.json()) as T[]));
      next = this.#relative(nextLink(res.headers.get('link')));
    }
    return items;
  }
}
