/**
 * OAuth 2.0 access tokens for subscribers' callbacks (client credentials grant, RFC 6749 §4.4):
 * fetched from the subscriber's token endpoint — through the outbound policy, like any call —
 * and cached until shortly before they expire. A callback answering 401 makes the caller
 * `invalidate` the token it used, and the next `get` fetches a new one. Concurrent callers for
 * the same client share one request.
 */
import { createHash } from 'node:crypto';
import type { OutboundPolicy } from '../../net/address-policy.ts';
import { describeUrl } from '../../net/pinned-request.ts';
import type { AgentPool } from './agents.ts';
import type { HeaderAuth, TlsMaterial } from './authentication.ts';
import { CallError } from './call-error.ts';
import { call } from './http-call.ts';
import { checkedAddresses, parseHttpUrl } from './outbound.ts';

type OAuth2 = Extract<HeaderAuth, { kind: 'oauth2' }>;

interface Cached {
  token: string;
  expiresAt: number;
}

/** Without expires_in, a token is kept this long (or until a 401). */
const DEFAULT_LIFETIME_MS = 3600_000;

/**
 * Tokens are shared by every cache of the process (the workers' and the callback tests'): the
 * token fetched for the callback test serves the first notifications. The key digests the
 * credentials, so only the same client at the same endpoint shares a token.
 */
const sharedTokens = new Map<string, Cached>();

export class TokenCache {
  readonly #tokens = sharedTokens;
  readonly #fetching = new Map<string, Promise<string>>();
  readonly #policy: OutboundPolicy;
  readonly #agents: AgentPool;
  readonly #timeoutMs: number;
  readonly #credentialsOf: string;

  /** `credentialsOf` names where the client's credentials are configured, for error messages. */
  constructor(
    policy: OutboundPolicy,
    agents: AgentPool,
    timeoutMs: number,
    credentialsOf = 'the subscription authentication',
  ) {
    this.#policy = policy;
    this.#agents = agents;
    this.#timeoutMs = timeoutMs;
    this.#credentialsOf = credentialsOf;
  }

  async get(auth: OAuth2, tls: TlsMaterial | undefined): Promise<string> {
    const key = cacheKey(auth, tls);
    const cached = this.#tokens.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    let pending = this.#fetching.get(key);
    if (!pending) {
      pending = this.#fetch(auth, tls)
        .then(({ token, lifetimeMs }) => {
          // Renew a little before the end: the token must still be valid when the callback reads it.
          const margin = Math.min(30_000, lifetimeMs / 10);
          this.#tokens.set(key, { token, expiresAt: Date.now() + lifetimeMs - margin });
          return token;
        })
        .finally(() => this.#fetching.delete(key));
      this.#fetching.set(key, pending);
    }
    return pending;
  }

  /** Forgets `token` (the callback refused it), unless a newer one already replaced it. */
  invalidate(auth: OAuth2, tls: TlsMaterial | undefined, token: string): void {
    const key = cacheKey(auth, tls);
    if (this.#tokens.get(key)?.token === token) this.#tokens.delete(key);
  }

  async #fetch(auth: OAuth2, tls: TlsMaterial | undefined): Promise<{ token: string; lifetimeMs: number }> {
    const url = parseHttpUrl(auth.tokenEndpoint, 'tokenEndpoint');
    const where = describeUrl(url);
    const addresses = await checkedAddresses(this.#policy, url).catch((error: CallError) => {
      throw new CallError(error.code, `token endpoint: ${error.message}`);
    });
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      'user-agent': 'Bosun',
    };
    if (auth.clientPassword !== undefined) {
      // RFC 6749 §2.3.1: the client id and secret are form-encoded before Basic encoding.
      const pair = `${formEncode(auth.clientId)}:${formEncode(auth.clientPassword)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    } else {
      // Client certificate (RFC 8705): the TLS handshake authenticates; client_id names the client.
      form.set('client_id', auth.clientId);
    }
    let response: Awaited<ReturnType<typeof call>>;
    try {
      response = await call({
        method: 'POST',
        url,
        agent: this.#agents.get(url, addresses, tls),
        headers,
        body: form.toString(),
        timeoutMs: this.#timeoutMs,
      });
    } catch (error) {
      const e = error as CallError;
      throw new CallError(e.code === 'ABORTED' ? 'ABORTED' : 'TOKEN', `token endpoint: ${e.message}`);
    }
    if (response.status !== 200) {
      const hint =
        response.status === 400 || response.status === 401
          ? `; check the client id and secret (or certificate) of ${this.#credentialsOf}`
          : '';
      throw new CallError(
        'TOKEN',
        `token endpoint ${where} answered HTTP ${response.status}${oauthError(response.body)}${hint}`,
        response.status,
      );
    }
    let body: { access_token?: unknown; expires_in?: unknown; token_type?: unknown };
    try {
      body = JSON.parse(response.body) as typeof body;
    } catch {
      throw new CallError('TOKEN', `token endpoint ${where} answered 200 without a JSON token response`);
    }
    if (typeof body.access_token !== 'string' || body.access_token === '') {
      throw new CallError('TOKEN', `token endpoint ${where} answered without an access_token`);
    }
    if (typeof body.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer') {
      throw new CallError(
        'TOKEN',
        `token endpoint ${where} issued a ${body.token_type} token, not a bearer token`,
      );
    }
    const expiresIn = Number(body.expires_in);
    const lifetimeMs = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_LIFETIME_MS;
    return { token: body.access_token, lifetimeMs };
  }
}

function cacheKey(auth: OAuth2, tls: TlsMaterial | undefined): string {
  return createHash('sha256')
    .update([auth.tokenEndpoint, auth.clientId, auth.clientPassword ?? '', tls?.cert ?? ''].join('\0'))
    .digest('base64url');
}

const formEncode = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);

/** The OAuth error code of an error response (RFC 6749 §5.2), for the message. */
function oauthError(body: string): string {
  try {
    const error = (JSON.parse(body) as { error?: unknown }).error;
    return typeof error === 'string' ? ` (${error.slice(0, 64)})` : '';
  } catch {
    return '';
  }
}
