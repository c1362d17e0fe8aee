/**
 * The OpenStack client of one VIM connection: its session (token, catalog, policy) and the
 * service APIs over it. `openStackClient` hands out one client per VIM connection and keeps it
 * (and so its token) for later calls with the same credentials; idle clients are closed.
 */
import { createHash } from 'node:crypto';
import type { OutboundPolicy } from '../../../../net/address-policy.ts';
import type { VimConnection } from '../../../contract.ts';
import { type OpenStackCredentials, openStackCredentials } from './credentials.ts';
import { Glance } from './glance.ts';
import { Heat } from './heat.ts';
import { Neutron } from './neutron.ts';
import { Nova } from './nova.ts';
import { DEFAULT_LIMITS, OpenStackSession, type SessionLimits } from './session.ts';

export class OpenStackClient {
  readonly session: OpenStackSession;
  readonly heat: Heat;
  readonly nova: Nova;
  readonly glance: Glance;
  readonly neutron: Neutron;

  constructor(
    credentials: OpenStackCredentials,
    policy: OutboundPolicy,
    limits: SessionLimits = DEFAULT_LIMITS,
  ) {
    this.session = new OpenStackSession(credentials, policy, limits);
    this.heat = new Heat(this.session);
    this.nova = new Nova(this.session);
    this.glance = new Glance(this.session);
    this.neutron = new Neutron(this.session);
  }

  /** The project the token is scoped to (Keystone's answer). */
  async projectId(signal?: AbortSignal): Promise<string | undefined> {
    return (await this.session.token(signal)).projectId;
  }

  close(): void {
    this.session.close();
  }
}

const IDLE_MS = 10 * 60_000;

interface Kept {
  client: OpenStackClient;
  policy: OutboundPolicy;
  lastUsed: number;
}

/** Clients by a digest of their credentials (the map never holds a secret as a key). */
const clients = new Map<string, Kept>();
let sweeping = false;

/** The client for a VIM connection (one per credentials and policy, kept while in use). */
export function openStackClient(vim: VimConnection, policy: OutboundPolicy): OpenStackClient {
  const credentials = openStackCredentials(vim);
  const key = createHash('sha256').update(JSON.stringify(credentials)).digest('base64url');
  const kept = clients.get(key);
  if (kept && kept.policy === policy) {
    kept.lastUsed = Date.now();
    return kept.client;
  }
  kept?.client.close();
  const client = new OpenStackClient(credentials, policy);
  clients.set(key, { client, policy, lastUsed: Date.now() });
  if (!sweeping) {
    sweeping = true;
    setInterval(sweep, IDLE_MS).unref();
  }
  return client;
}

function sweep(): void {
  const cutoff = Date.now() - IDLE_MS;
  for (const [key, kept] of clients) {
    if (kept.lastUsed < cutoff) {
      kept.client.close();
      clients.delete(key);
    }
  }
}
