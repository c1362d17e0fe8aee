/** Maps the claims of a verified access token to the Caller every authorisation decision uses. */
import type { JWTPayload } from 'jose';
import type { Caller } from '../caller.ts';
import { invalidToken } from './bearer-error.ts';

export interface ClaimSettings {
  projectClaim: string;
  adminScope: string;
}

/** `scope` is a space-separated string (RFC 8693/9068); some servers send `scp`, array or string. */
function scopesOf(claims: JWTPayload): string[] {
  const raw = claims.scope ?? claims.scp;
  if (raw === undefined) return [];
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  if (Array.isArray(raw) && raw.every((s) => typeof s === 'string')) return raw;
  throw invalidToken("its 'scope' claim is neither a space-separated string nor an array of strings");
}

function subjectOf(claims: JWTPayload): string {
  for (const name of ['sub', 'client_id', 'azp']) {
    const value = claims[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  throw invalidToken("it has no 'sub' (or 'client_id') claim");
}

export function callerFromClaims(claims: JWTPayload, settings: ClaimSettings): Caller {
  const project = claims[settings.projectClaim];
  if (project === undefined) throw invalidToken(`token has no '${settings.projectClaim}' claim`);
  if (typeof project !== 'string' || project === '') {
    throw invalidToken(`its '${settings.projectClaim}' claim is not a non-empty string`);
  }
  const scopes = new Set(scopesOf(claims));
  return { subject: subjectOf(claims), project, scopes, admin: scopes.has(settings.adminScope) };
}
