/**
 * Who the console calls Bosun as. With `auth.mode: none` everyone is straight in (and admin);
 * with `oauth2` the caller signs in with a client id and secret, exchanged at Bosun's token
 * endpoint for a bearer token. Token and secret live in this module's memory only — never in
 * storage or cookies — so closing or reloading the tab signs out; the secret is kept to fetch a
 * new token when the old one expires or is refused.
 */
import { ApiProblem, problemOf } from './problem.ts';

export interface ServerSettings {
  authMode: 'none' | 'oauth2';
  tokenPath: string | null;
  adminScope: string;
}

export type SessionState =
  | { status: 'loading' }
  | { status: 'failed'; problem: ApiProblem }
  | { status: 'signed-out'; settings: ServerSettings; reason?: string }
  | { status: 'signed-in'; settings: ServerSettings; clientId?: string; scopes: string[]; admin: boolean };

interface Credentials {
  clientId: string;
  secret: string;
}

let state: SessionState = { status: 'loading' };
let token: { value: string; expiresAt: number } | undefined;
let credentials: Credentials | undefined;
const listeners = new Set<() => void>();

function set(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function sessionState(): SessionState {
  return state;
}

export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads how this Bosun signs callers in; with none, the session starts signed in. */
export async function startSession(): Promise<void> {
  try {
    const res = await fetch('/ui/settings.json', { credentials: 'omit' });
    const body = await res.json().catch(() => undefined);
    if (!res.ok) throw problemOf(res.status, res.statusText, body);
    const settings = body as ServerSettings;
    if (settings.authMode === 'none') set({ status: 'signed-in', settings, scopes: [], admin: true });
    else set({ status: 'signed-out', settings });
  } catch (err) {
    set({
      status: 'failed',
      problem:
        err instanceof ApiProblem
          ? err
          : new ApiProblem({ status: 0, detail: `Bosun does not answer: ${(err as Error).message}` }),
    });
  }
}

function settingsOf(): ServerSettings {
  if (state.status === 'signed-in' || state.status === 'signed-out') return state.settings;
  throw new Error('the session has not started');
}

async function fetchToken(settings: ServerSettings, creds: Credentials) {
  if (!settings.tokenPath) {
    throw new ApiProblem({
      status: 0,
      detail: 'This Bosun has no token endpoint of its own (auth.oauth2.builtinTokenEndpoint is off).',
    });
  }
  const res = await fetch(settings.tokenPath, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.secret,
    }),
  });
  const body = await res.json().catch(() => undefined);
  if (!res.ok) throw problemOf(res.status, res.statusText, body);
  const answer = body as { access_token: string; expires_in: number; scope?: string };
  // Renewed a little before it expires, so a call never leaves with a token about to die.
  token = { value: answer.access_token, expiresAt: Date.now() + (answer.expires_in - 30) * 1000 };
  return (answer.scope ?? '').split(' ').filter(Boolean);
}

export async function signIn(clientId: string, secret: string): Promise<void> {
  const settings = settingsOf();
  const scopes = await fetchToken(settings, { clientId, secret });
  credentials = { clientId, secret };
  set({ status: 'signed-in', settings, clientId, scopes, admin: scopes.includes(settings.adminScope) });
}

export function signOut(reason?: string): void {
  token = undefined;
  credentials = undefined;
  const settings = settingsOf();
  set({ status: 'signed-out', settings, reason });
}

/** The Authorization header for the next call, fetching a new token when it has expired. */
export async function authorization(): Promise<string | undefined> {
  if (state.status !== 'signed-in' || state.settings.authMode === 'none') return undefined;
  if (!token || Date.now() >= token.expiresAt) await renewToken();
  return token ? `Bearer ${token.value}` : undefined;
}

/** After a 401: a new token from the kept credentials; false when there is none to get. */
export async function renewToken(): Promise<boolean> {
  if (state.status !== 'signed-in' || !credentials) return false;
  try {
    await fetchToken(state.settings, credentials);
    return true;
  } catch (err) {
    signOut(`Signed out: a new token was refused (${(err as Error).message}). Sign in again.`);
    return false;
  }
}
