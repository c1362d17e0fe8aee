/**
 * Keep-alive agents for outbound calls, one per (origin, checked addresses, TLS identity):
 * consecutive notifications to a receiver reuse the connection (and its TLS session) instead of
 * paying a handshake each. An agent only ever connects to the addresses it was made for, which
 * the outbound policy checked (see net/pinned-lookup.ts). Agents unused for a minute are closed.
 */
import { createHash } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { pinnedLookup } from '../../net/pinned-lookup.ts';
import type { TlsMaterial } from './authentication.ts';

const IDLE_MS = 60_000;

interface Entry {
  agent: HttpAgent;
  lastUsed: number;
}

export class AgentPool {
  readonly #agents = new Map<string, Entry>();
  #sweeper: NodeJS.Timeout | undefined;

  /** The agent for calls to `url` connecting only to `addresses`. */
  get(url: URL, addresses: readonly string[], tls: TlsMaterial | undefined): HttpAgent {
    const https = url.protocol === 'https:';
    const identity = https && tls ? fingerprint(tls) : '';
    const key = `${url.protocol}//${url.host}|${addresses.join(',')}|${identity}`;
    let entry = this.#agents.get(key);
    if (!entry) {
      const options = { keepAlive: true, scheduling: 'lifo' as const, lookup: pinnedLookup(addresses) };
      const agent = https
        ? new HttpsAgent({ ...options, cert: tls?.cert, key: tls?.key, ca: tls?.ca })
        : new HttpAgent(options);
      entry = { agent, lastUsed: Date.now() };
      this.#agents.set(key, entry);
      this.#sweeper ??= setInterval(() => this.#sweep(), IDLE_MS).unref();
    }
    entry.lastUsed = Date.now();
    return entry.agent;
  }

  #sweep(): void {
    const cutoff = Date.now() - IDLE_MS;
    for (const [key, entry] of this.#agents) {
      if (entry.lastUsed < cutoff) {
        entry.agent.destroy();
        this.#agents.delete(key);
      }
    }
  }

  destroy(): void {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    for (const entry of this.#agents.values()) entry.agent.destroy();
    this.#agents.clear();
  }
}

/** A short digest of the TLS material: the map key must not hold the private key itself. */
function fingerprint(tls: TlsMaterial): string {
  return createHash('sha256')
    .update(`${tls.cert ?? ''}\0${tls.key ?? ''}\0${tls.ca ?? ''}`)
    .digest('base64url');
}
