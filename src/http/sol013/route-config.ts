/**
 * What a route declares about itself; the SOL013 hooks read it instead of each handler
 * re-implementing the rules. Set it as `config: { sol013: {...} }` on a fastify route.
 */
import type { ApiName } from '../../sol/api-versions.ts';

export type AccessLevel = 'public' | 'read' | 'write' | 'admin';

export interface Sol013RouteConfig {
  /** The SOL API and major version the route belongs to; drives the Version header rules. */
  api?: ApiName;
  major?: string;
  /** Version header handling; default from the registry. `any` accepts any well-formed version (api_versions). */
  versionHeader?: 'required' | 'optional' | 'any';
  /** Media types accepted as request bodies (default: application/json; PATCH adds merge-patch+json). */
  consumes?: readonly string[];
  /** Media types the route can answer with (default: application/json). `*\/*` = answer whatever Accept says. */
  produces?: readonly string[];
  /** Who may call it: public (no auth), read (GET scopes), write, admin. Default: read for GET/HEAD, else write. */
  access?: AccessLevel;
  /**
   * For a route of no SOL API (Tacker's legacy /v1.0): the API whose scopes allow it, without
   * that API's Version rules. Without it such a route needs the admin scope.
   */
  scopesOf?: ApiName;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    sol013?: Sol013RouteConfig;
  }
}
