/**
 * Calls to subscribers' callback URIs with their authentication: the outbound policy decides
 * which addresses may be connected to, a keep-alive agent per receiver carries the requests (with
 * the client certificate for mTLS), and the Authorization header is Basic or an OAuth 2.0 bearer
 * token — refreshed once when the callback answers 401.
 */
import type { OutboundPolicy } from '../../net/address-policy.ts';
import { AgentPool } from './agents.ts';
import type { DeliveryAuth } from './authentication.ts';
import { type CallResponse, call } from './http-call.ts';
import { TokenCache } from './oauth2-tokens.ts';
import { checkedAddresses, parseHttpUrl } from './outbound.ts';

/** A callback ready to be called: its URL checked against the policy, with its authentication. */
export interface Endpoint {
  url: URL;
  addresses: string[];
  auth: DeliveryAuth;
}

export interface SendRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Bytes of the answer's body kept (default 64 KiB). */
  maxBodyBytes?: number;
}

export class CallbackClient {
  readonly #policy: OutboundPolicy;
  readonly #timeoutMs: number;
  readonly #agents = new AgentPool();
  readonly #tokens: TokenCache;

  /** `credentialsOf` names where the credentials are configured, for token endpoint errors. */
  constructor(policy: OutboundPolicy, timeoutMs: number, credentialsOf?: string) {
    this.#policy = policy;
    this.#timeoutMs = timeoutMs;
    this.#tokens = new TokenCache(policy, this.#agents, timeoutMs, credentialsOf);
  }

  /**
   * Checks the callback URI against the outbound policy. The result is reused for a batch of
   * calls: the addresses were resolved and checked once, and only they are connected to.
   */
  async endpoint(callbackUri: string, auth: DeliveryAuth): Promise<Endpoint> {
    const url = parseHttpUrl(callbackUri, 'callbackUri');
    return { url, addresses: await checkedAddresses(this.#policy, url), auth };
  }

  /** Sends one request; CallError when no HTTP answer came, else the answer (any status). */
  async send(endpoint: Endpoint, request: SendRequest): Promise<CallResponse> {
    const { header, tls } = endpoint.auth;
    const agent = this.#agents.get(endpoint.url, endpoint.addresses, tls);
    const attempt = (authorization: string | undefined) =>
      call({
        method: request.method,
        url: endpoint.url,
        agent,
        headers: authorization ? { ...request.headers, authorization } : request.headers,
        body: request.body,
        timeoutMs: this.#timeoutMs,
        signal: request.signal,
        maxBodyBytes: request.maxBodyBytes,
      });
    const authorization = await this.authorization(endpoint.auth);
    const response = await attempt(authorization);
    if (response.status !== 401 || header.kind !== 'oauth2' || authorization === undefined) return response;
    // The token may have been revoked or expired early: one more try with a fresh one.
    this.refused(endpoint.auth, authorization);
    return attempt(await this.authorization(endpoint.auth));
  }

  /** The Authorization header `auth` sends (Basic, or a bearer token from the cache); none without. */
  async authorization(auth: DeliveryAuth): Promise<string | undefined> {
    const { header, tls } = auth;
    if (header.kind === 'none') return undefined;
    if (header.kind === 'basic') {
      return `Basic ${Buffer.from(`${header.userName}:${header.password}`).toString('base64')}`;
    }
    return `Bearer ${await this.#tokens.get(header, tls)}`;
  }

  /** The server answered 401 to `authorization`: its token is not used again. */
  refused(auth: DeliveryAuth, authorization: string): void {
    if (auth.header.kind !== 'oauth2') return;
    this.#tokens.invalidate(auth.header, auth.tls, authorization.replace(/^Bearer /, ''));
  }

  close(): void {
    this.#agents.destroy();
  }
}
