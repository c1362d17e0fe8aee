/**
 * The external NFVO (SOL003 §9, Granting): `POST {apiRoot}/grant/v1/grants` with the
 * GrantRequest. 201 carries the Grant; 202 means the NFVO decides later: its Location is polled
 * (after Retry-After when given, else every pollIntervalMs, up to grantTimeoutMs) until it answers
 * the Grant. 403 is a refusal (the op occ ends ROLLED_BACK with the NFVO's detail), and so is a
 * Grant approving only some of the resources to add; anything else without a usable Grant is
 * NfvoUnavailable (FAILED_TEMP, to be retried).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SealedBox } from '../security/sealed-box.ts';
import { InvalidGrant, PartialGrant, readGrant } from './grant-schema.ts';
import { type GrantContext, GrantRefused, type Nfvo, NfvoUnavailable } from './nfvo.ts';
import { type NfvoAnswer, type NfvoClient, problemDetail } from './nfvo-client.ts';
import type { Grant, GrantRequest } from './types.ts';

export interface ExternalNfvoSettings {
  /** Version header of the /grant/v1 calls, e.g. 1.4.0. */
  grantApiVersion: string;
  grantTimeoutMs: number;
  pollIntervalMs: number;
}

/** Polls no faster than this, whatever Retry-After says. */
const MIN_POLL_MS = 50;

export class ExternalNfvo implements Nfvo {
  readonly #client: NfvoClient;
  readonly #box: SealedBox;
  readonly #settings: ExternalNfvoSettings;

  constructor(client: NfvoClient, box: SealedBox, settings: ExternalNfvoSettings) {
    this.#client = client;
    this.#box = box;
    this.#settings = settings;
  }

  async grant(request: GrantRequest, context: GrantContext): Promise<Grant> {
    const deadline = Date.now() + this.#settings.grantTimeoutMs;
    const version = this.#settings.grantApiVersion;
    const { signal } = context;
    const created = await this.#client.call({
      method: 'POST',
      target: '/grant/v1/grants',
      version,
      body: request,
      signal,
    });
    if (created.status === 201) {
      const location = created.headers.location;
      const self = typeof location === 'string' && location ? this.#client.url(location).href : undefined;
      return this.#read(created, request, self ?? selfOf(created.json));
    }
    if (created.status !== 202) throw this.#unexpected(created);
    const location = created.headers.location;
    if (typeof location !== 'string' || location === '') {
      throw new NfvoUnavailable(502, `NFVO call ${created.what} answered 202 without a Location to poll`);
    }
    let wait = retryAfterMs(created.headers['retry-after']) ?? this.#settings.pollIntervalMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new NfvoUnavailable(
          504,
          `NFVO ${this.#client.apiRoot} did not decide the grant within ${this.#settings.grantTimeoutMs} ms (nfvo.external.grantTimeoutMs): ${location} still answers 202`,
        );
      }
      await sleep(Math.min(Math.max(wait, MIN_POLL_MS), left), undefined, { signal }).catch(() => {
        throw new NfvoUnavailable(503, `Waiting for the NFVO's grant at ${location} was abandoned`);
      });
      const polled = await this.#client.call({ method: 'GET', target: location, version, signal });
      if (polled.status === 200 || polled.status === 201) {
        return this.#read(polled, request, this.#client.url(location).href);
      }
      if (polled.status !== 202) throw this.#unexpected(polled);
      wait = retryAfterMs(polled.headers['retry-after']) ?? this.#settings.pollIntervalMs;
    }
  }

  #read(answer: NfvoAnswer, request: GrantRequest, self: string | undefined): Grant {
    try {
      const id = (answer.json as { id?: unknown } | undefined)?.id;
      const href = self ?? `${this.#client.apiRoot}/grant/v1/grants/${String(id)}`;
      return readGrant(answer.json, request, this.#box, href);
    } catch (err) {
      if (err instanceof InvalidGrant)
        throw new NfvoUnavailable(502, `NFVO call ${answer.what}: ${err.message}`);
      if (err instanceof PartialGrant) throw new GrantRefused(`NFVO ${this.#client.apiRoot}: ${err.message}`);
      throw err;
    }
  }

  #unexpected(answer: NfvoAnswer): Error {
    const detail = problemDetail(answer.json);
    if (answer.status === 403) {
      return new GrantRefused(
        detail
          ? `NFVO ${this.#client.apiRoot}: ${detail}`
          : `NFVO ${this.#client.apiRoot} gave no reason (403)`,
      );
    }
    return new NfvoUnavailable(
      502,
      `NFVO call ${answer.what} answered HTTP ${answer.status}${detail ? `: ${detail}` : ''}`,
    );
  }
}

function selfOf(json: unknown): string | undefined {
  const href = (json as { _links?: { self?: { href?: unknown } } } | undefined)?._links?.self?.href;
  return typeof href === 'string' && href ? href : undefined;
}

/** Retry-After (RFC 9110 §10.2.3): delay seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
