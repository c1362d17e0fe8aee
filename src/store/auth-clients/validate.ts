/** Input rules for OAuth 2.0 clients; every violation is an AuthClientError naming what is wrong. */
import { ALL_SCOPES } from '../../sol/scopes.ts';

export class AuthClientError extends Error {
  override name = 'AuthClientError';
}

// No ':' (HTTP Basic separator) and nothing needing URL encoding.
const IDENTIFIER = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_DESCRIPTION = 1024;

export function validClientId(id: string): string {
  if (!IDENTIFIER.test(id)) {
    throw new AuthClientError(
      `invalid client id '${id}': use 1 to 128 characters among letters, digits, '.', '_' and '-'`,
    );
  }
  return id;
}

export function validProject(project: string): string {
  if (!IDENTIFIER.test(project)) {
    throw new AuthClientError(
      `invalid project id '${project}': use 1 to 128 characters among letters, digits, '.', '_' and '-'`,
    );
  }
  return project;
}

/** The scopes a client may be granted: every API scope and the configured admin scope. */
export function grantableScopes(adminScope: string): string[] {
  return [...ALL_SCOPES, adminScope];
}

/** Deduplicated scopes, in the order given; at least one, each known. */
export function validScopes(scopes: readonly string[], adminScope: string): string[] {
  const valid = grantableScopes(adminScope);
  const unique = [...new Set(scopes)];
  if (unique.length === 0) {
    throw new AuthClientError(`a client needs at least one scope; valid scopes: ${valid.join(', ')}`);
  }
  for (const scope of unique) {
    if (!valid.includes(scope)) {
      throw new AuthClientError(`unknown scope '${scope}'; valid scopes: ${valid.join(', ')}`);
    }
  }
  return unique;
}

export function validDescription(description: string): string {
  if (description.length > MAX_DESCRIPTION) {
    throw new AuthClientError(`the description is longer than ${MAX_DESCRIPTION} characters`);
  }
  return description;
}
