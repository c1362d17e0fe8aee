/**
 * A token of the built-in endpoint is accepted only while its client is registered — the same
 * registration, not a later client re-added under the same id. Removal takes effect at once on
 * every process: the check reads the database on each request (no cache window), one primary
 * key lookup, shared by the requests of one client that arrive while it runs.
 */
import type { JWTPayload } from 'jose';
import type { AuthClientStore } from '../../../store/auth-clients/store.ts';
import { CLIENT_REGISTERED_CLAIM } from './issue-token.ts';

export type ClientCheck = (claims: JWTPayload) => Promise<string | undefined>;

/** Returns why the token's client no longer holds it, or undefined while it does. */
export function clientCheck(clients: AuthClientStore): ClientCheck {
  const inFlight = new Map<string, Promise<string | undefined>>();
  const registeredAt = (clientId: string) => {
    let pending = inFlight.get(clientId);
    if (!pending) {
      pending = clients.registeredAt(clientId).finally(() => inFlight.delete(clientId));
      inFlight.set(clientId, pending);
    }
    return pending;
  };
  return async (claims) => {
    const clientId = claims.sub;
    if (typeof clientId !== 'string') return "it has no 'sub' claim naming its client";
    const registered = await registeredAt(clientId);
    const issuedFor = claims[CLIENT_REGISTERED_CLAIM];
    if (registered === undefined || (issuedFor !== undefined && issuedFor !== registered)) {
      return `its client ${clientId} has been removed`;
    }
    return undefined;
  };
}
