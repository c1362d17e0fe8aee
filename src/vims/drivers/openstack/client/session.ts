/**
 * One authenticated connection to an OpenStack cloud (one per VIM connection: see pool.ts): the
 * Keystone token, fetched once for concurrent callers and renewed before it expires or when a
 * service answers 401; the catalog's endpoints; and `call`, the JSON (or streamed) request every
 * service module goes through, under the outbound-address policy, with per-service timings.
 */
import type { Readable } from 'node:stream';
import type { OutboundPolicy } from '../../../../net/address-policy.ts';
import { OutboundLookupError, OutboundRefusedError } from '../../../../net/errors.ts';
import { InfraError } from '../../../contract.ts';
import type { OpenStackCredentials } from './credentials.ts';
import { SERVICE_NAMES, type ServiceType, statusError, transportError } from './errors.ts';
import { AgentSet, exchange, type HttpResponse } from './http.ts';
import { findEndpoint, parseToken, type Token, tokenRequest } from './keystone.ts';
import { waitOn } from './timings.ts';

export interface SessionLimits {
  /** A call silent this long fails (VIM_TIMEOUT). */
  timeoutMs: number;
  /** The largest answer read (JSON lists of stacks, events, servers). */
  maxResponseBytes: number;
  /** Renew the token when less than this is left (a long operation must not meet its expiry). */
  renewBeforeMs: number;
}

export const DEFAULT_LIMITS: SessionLimits = {
  timeoutMs: 60_000,
  maxResponseBytes: 16 * 2 ** 20,
  renewBeforeMs: 5 * 60_000,
};
/** Checked addresses of an origin are reused this long. */
const ADDRESS_TTL_MS = 5 * 60_000;

export interface CallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  /** Relative to the service's endpoint (query included). */
  path: string;
  /** An array value repeats the key (`?id=a&id=b`: Neutron's filter on several values). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  json?: unknown;
  /** A streamed body (sent once: never retried). */
  stream?: Readable;
  headers?: Record<string, string>;
  /** Statuses that are not errors (default: any 2xx). */
  ok?: readonly number[];
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface CallResult<T> {
  status: number;
  headers: HttpResponse['headers'];
  data: T;
}

export class OpenStackSession {
  readonly credentials: OpenStackCredentials;
  readonly #policy: OutboundPolicy;
  readonly #limits: SessionLimits;
  readonly #agents: AgentSet;
  readonly #addresses = new Map<string, { addresses: string[]; until: number }>();
  #token: Token | undefined;
  #pending: Promise<Token> | undefined;

  constructor(
    credentials: OpenStackCredentials,
    policy: OutboundPolicy,
    limits: SessionLimits = DEFAULT_LIMITS,
  ) {
    this.credentials = credentials;
    this.#policy = policy;
    this.#limits = limits;
    this.#agents = new AgentSet(credentials.caCert);
  }

  /** A valid token (fetched when there is none or it is about to expire). */
  async token(signal?: AbortSignal): Promise<Token> {
    const current = this.#token;
    if (current && current.expiresAt - Date.now() > this.#limits.renewBeforeMs) return current;
    this.#pending ??= this.#authenticate(signal).finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** Forgets `token` (a service refused it), unless a newer one replaced it. */
  invalidate(token: Token): void {
    if (this.#token === token) this.#token = undefined;
  }

  /** The endpoint URL of a service for the credentials' region and interface. */
  async endpoint(service: ServiceType, signal?: AbortSignal): Promise<string> {
    const token = await this.token(signal);
    const found = findEndpoint(token.catalog, service, this.credentials.interface, this.credentials.region);
    if ('missing' in found) {
      throw new InfraError(
        'INVALID_REQUEST',
        `${SERVICE_NAMES[service]} cannot be reached at ${this.credentials.authUrl}: ${found.missing}; check the VIM's region and interface`,
        { service },
      );
    }
    return found.url.replace(/\/+$/, '');
  }

  /** A call to a service, with a fresh token and once more after a 401 with a new one. */
  async call<T = unknown>(service: ServiceType, name: string, options: CallOptions): Promise<CallResult<T>> {
    const token = await this.token(options.signal);
    const first = await this.#send(service, name, options, token);
    if (first.status !== 401 || options.stream) return this.#result<T>(service, name, options, first);
    this.invalidate(token);
    const again = await this.#send(service, name, options, await this.token(options.signal));
    return this.#result<T>(service, name, options, again);
  }

  close(): void {
    this.#agents.destroy();
  }

  async #send(service: ServiceType, name: string, options: CallOptions, token: Token): Promise<HttpResponse> {
    const base = await this.endpoint(service, options.signal);
    const url = new URL(`${base}${options.path.startsWith('/') ? '' : '/'}${options.path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        url.searchParams.append(key, String(one));
      }
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': 'Bosun',
      'x-auth-token': token.value,
      ...options.headers,
    };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    return this.#exchange(service, name, url, {
      method: options.method,
      headers,
      body: options.stream ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  async #exchange(
    service: ServiceType,
    name: string,
    url: URL,
    request: {
      method: CallOptions['method'];
      headers: Record<string, string>;
      body?: string | Readable;
      signal?: AbortSignal;
      timeoutMs?: number;
    },
  ): Promise<HttpResponse> {
    if (request.signal?.aborted) {
      throw new InfraError(
        'CANCELLED',
        `${SERVICE_NAMES[service]} ${name} was not sent: the operation was cancelled`,
      );
    }
    const addresses = await this.#checked(service, url);
    const done = waitOn(service);
    try {
      return await exchange(
        {
          ...request,
          url,
          timeoutMs: request.timeoutMs ?? this.#limits.timeoutMs,
          maxResponseBytes: this.#limits.maxResponseBytes,
        },
        this.#agents.get(url, addresses),
      );
    } catch (error) {
      throw transportError(service, name, error);
    } finally {
      done();
    }
  }

  #result<T>(
    service: ServiceType,
    name: string,
    options: CallOptions,
    response: HttpResponse,
  ): CallResult<T> {
    const ok = options.ok
      ? options.ok.includes(response.status)
      : response.status >= 200 && response.status < 300;
    if (!ok) throw statusError(service, name, response.status, response.body);
    let data: unknown;
    if (response.body.length > 0 && /json/.test(String(response.headers['content-type'] ?? ''))) {
      try {
        data = JSON.parse(response.body.toString('utf8'));
      } catch {
        throw new InfraError(
          'VIM_OPERATION_FAILED',
          `${SERVICE_NAMES[service]} ${name} answered HTTP ${response.status} with a body that is not JSON`,
          { service, call: name },
        );
      }
    }
    return { status: response.status, headers: response.headers, data: data as T };
  }

  async #authenticate(signal: AbortSignal | undefined): Promise<Token> {
    const url = new URL(`${this.credentials.authUrl}/auth/tokens`);
    const response = await this.#exchange('identity', 'token request', url, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'Bosun' },
      body: JSON.stringify(tokenRequest(this.credentials)),
      signal,
    });
    const subject = response.headers['x-subject-token'];
    if (response.status !== 201 || typeof subject !== 'string') {
      const error = statusError('identity', 'token request', response.status, response.body);
      throw new InfraError(
        error.code,
        `${error.message} (Keystone at ${this.credentials.authUrl}, ${this.#who()})`,
        error.detail,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      throw new InfraError(
        'VIM_OPERATION_FAILED',
        `Keystone token request at ${this.credentials.authUrl} answered a body that is not JSON`,
      );
    }
    this.#token = parseToken(subject, body);
    return this.#token;
  }

  /** Who the credentials are, for messages (never the secret). */
  #who(): string {
    const { auth, project } = this.credentials;
    const user =
      auth.kind === 'password'
        ? `user ${auth.username} in domain ${auth.userDomain}`
        : `application credential ${auth.id ?? auth.name}`;
    return project ? `${user}, project ${project.name ?? project.id} in domain ${project.domain}` : user;
  }

  async #checked(service: ServiceType, url: URL): Promise<string[]> {
    const cached = this.#addresses.get(url.origin);
    if (cached && cached.until > Date.now()) return cached.addresses;
    try {
      const addresses = await this.#policy.check(url);
      this.#addresses.set(url.origin, { addresses, until: Date.now() + ADDRESS_TTL_MS });
      return addresses;
    } catch (error) {
      if (error instanceof OutboundRefusedError) {
        throw new InfraError(
          'INVALID_REQUEST',
          `${SERVICE_NAMES[service]} at ${url.origin}: ${error.message}`,
          {
            service,
          },
        );
      }
      if (error instanceof OutboundLookupError) {
        throw new InfraError(
          'VIM_UNAVAILABLE',
          `${SERVICE_NAMES[service]} at ${url.origin}: ${error.message}`,
          {
            service,
          },
        );
      }
      throw error;
    }
  }
}
