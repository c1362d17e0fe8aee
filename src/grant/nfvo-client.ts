/**
 * Calls to an external NFVO: JSON over the outbound policy with the configured authentication
 * (Basic, an OAuth 2.0 bearer token refreshed once on 401, a client certificate), through the
 * same client notification delivery uses. Answers are bounded in size. A call that gets no usable
 * answer fails with NfvoUnavailable naming the NFVO and the call.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { OutboundPolicy } from '../net/address-policy.ts';
import { type Download, download } from '../net/download.ts';
import { DownloadError } from '../net/errors.ts';
import { CallError } from '../notify/delivery/call-error.ts';
import { CallbackClient, type Endpoint } from '../notify/delivery/callback-client.ts';
import { NfvoUnavailable } from './nfvo.ts';
import type { NfvoEndpoint } from './nfvo-auth.ts';

export interface NfvoCall {
  method: 'GET' | 'POST';
  /** A path under the API root, or an absolute URL on the NFVO's origin (a Location). */
  target: string;
  /** The API's Version header. */
  version: string;
  body?: unknown;
  signal?: AbortSignal;
}

export interface NfvoAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  json: unknown;
  /** The call as messages name it, e.g. `POST https://nfvo/grant/v1/grants`. */
  what: string;
}

export interface NfvoClientSettings {
  timeoutMs: number;
  maxResponseBytes: number;
}

const CREDENTIALS_OF = 'nfvo.external.auth';

export class NfvoClient {
  readonly apiRoot: string;
  readonly #endpoint: NfvoEndpoint;
  readonly #client: CallbackClient;
  readonly #settings: NfvoClientSettings;
  readonly #policy: OutboundPolicy;

  constructor(endpoint: NfvoEndpoint, policy: OutboundPolicy, settings: NfvoClientSettings) {
    this.apiRoot = endpoint.apiRoot;
    this.#endpoint = endpoint;
    this.#policy = policy;
    this.#settings = settings;
    this.#client = new CallbackClient(policy, settings.timeoutMs, CREDENTIALS_OF);
  }

  /** The URL of `target`; refuses one off the NFVO's origin (credentials go nowhere else). */
  url(target: string): URL {
    const root = new URL(`${this.apiRoot}/`);
    const url = new URL(target.startsWith('/') ? `${this.apiRoot}${target}` : target, root);
    if (url.origin !== root.origin) {
      throw new NfvoUnavailable(
        502,
        `NFVO ${this.apiRoot} pointed Bosun to ${url.origin}, another origin; Bosun only calls the NFVO at nfvo.external.apiRoot`,
      );
    }
    return url;
  }

  async call(call: NfvoCall): Promise<NfvoAnswer> {
    const url = this.url(call.target);
    const what = `${call.method} ${url.origin}${url.pathname}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      version: call.version,
      'user-agent': 'Bosun',
    };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    let endpoint: Endpoint;
    let response: Awaited<ReturnType<CallbackClient['send']>>;
    try {
      endpoint = await this.#client.endpoint(url.href, this.#endpoint.auth);
      response = await this.#client.send(endpoint, {
        method: call.method,
        headers,
        body,
        signal: call.signal,
        maxBodyBytes: this.#settings.maxResponseBytes,
      });
    } catch (err) {
      if (err instanceof CallError) throw unavailable(err, what);
      throw err;
    }
    if (response.truncated) {
      throw new NfvoUnavailable(
        502,
        `NFVO call ${what} answered more than ${this.#settings.maxResponseBytes} bytes (nfvo.external.maxResponseBytes)`,
      );
    }
    if (response.status === 401) {
      throw new NfvoUnavailable(
        502,
        `NFVO call ${what} answered 401: the NFVO refused Bosun's credentials; check ${CREDENTIALS_OF}${problemDetail(parse(response.body), ': ')}`,
      );
    }
    return { status: response.status, headers: response.headers, json: parse(response.body), what };
  }

  /**
   * Streams a large answer (package content) bounded by `maxBytes`, with the same credentials
   * (sent to the NFVO's origin only, should it redirect elsewhere) and one fresh token on 401.
   */
  async download(target: string, version: string, maxBytes: number): Promise<Download> {
    const url = this.url(target);
    const what = `GET ${url.origin}${url.pathname}`;
    const auth = this.#endpoint.auth;
    const attempt = async () => {
      const authorization = await this.#client.authorization(auth);
      try {
        return await download(url.href, {
          policy: this.#policy,
          originHeaders: { version, ...(authorization ? { authorization } : {}) },
          ...(auth.tls ? { originTls: auth.tls } : {}),
          connectTimeoutMs: this.#settings.timeoutMs,
          readTimeoutMs: this.#settings.timeoutMs,
          maxRedirects: 3,
          maxBytes,
        });
      } catch (err) {
        if (err instanceof DownloadError && err.status === 401 && authorization) {
          this.#client.refused(auth, authorization);
        }
        throw err;
      }
    };
    try {
      try {
        return await attempt();
      } catch (err) {
        if (err instanceof DownloadError && err.status === 401 && auth.header.kind === 'oauth2')
          return await attempt();
        throw err;
      }
    } catch (err) {
      if (err instanceof CallError) throw unavailable(err, what);
      if (err instanceof DownloadError) {
        const hint = err.status === 401 ? `; check ${CREDENTIALS_OF}` : '';
        throw new NfvoUnavailable(502, `NFVO call ${what} failed: ${err.message}${hint}`);
      }
      throw err;
    }
  }

  close(): void {
    this.#client.close();
  }
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const MAX_DETAIL = 1000;

/** The `detail` of a ProblemDetails the NFVO sent (untrusted: bounded, control characters dropped). */
export function problemDetail(json: unknown, prefix = ''): string {
  const detail = (json as { detail?: unknown } | undefined)?.detail;
  if (typeof detail !== 'string' || detail.trim() === '') return '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = detail.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return prefix + (clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL)}…` : clean);
}

function unavailable(err: CallError, what: string): NfvoUnavailable {
  const status = err.code === 'TIMEOUT' ? 504 : 502;
  return new NfvoUnavailable(status, `NFVO call ${what} failed: ${err.message}`);
}
