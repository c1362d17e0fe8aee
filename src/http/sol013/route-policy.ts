/**
 * A route's declaration (route-config.ts) resolved once into what the per-request checks need:
 * API majors, versions, Version rule, media types, scopes. Memoised per route and method, so
 * the hot path reads fields instead of recomputing them on every request.
 */
import type { FastifyRequest } from 'fastify';
import { type ApiMajor, currentVersion, findMajor, majorsOf } from '../../sol/api-versions.ts';
import { scopesAllowing } from '../auth/scopes.ts';
import type { Sol013RouteConfig } from './route-config.ts';

export const JSON_TYPE = 'application/json';
export const MERGE_PATCH = 'application/merge-patch+json';

export interface RoutePolicy {
  /** The route pattern (metrics, logs); 'unmatched' for the 404/405 handler. */
  route: string;
  declared: Sol013RouteConfig | undefined;
  /** Query parameters the route's querystring schema declares; undefined: not checked (no route). */
  queryParams: readonly string[] | undefined;
  /** The API majors the route belongs to; undefined for unversioned routes. */
  majors: ApiMajor[] | undefined;
  supportedVersions: readonly string[];
  /** Version answered when the request names none (the newest the route serves). */
  defaultVersion: string | undefined;
  versionRule: 'required' | 'optional' | 'any';
  /** undefined: any body (no route: the 404/405 answer comes first). */
  consumes: readonly string[] | undefined;
  /** undefined: the route answers whatever Accept says. */
  produces: readonly string[] | undefined;
  /** Scopes any one of which allows the call; empty = public. */
  scopes: readonly string[];
}

const cache = new WeakMap<object, Map<string, RoutePolicy>>();

function newest(versions: string[]): string | undefined {
  return versions
    .sort((a, b) => {
      const pa = a.split('.').map(Number);
      const pb = b.split('.').map(Number);
      return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
    })
    .at(-1);
}

/**
 * No route matched: the 404/405 handler answers, so nothing about the request (query, Accept,
 * body type) may be refused first — the method or path is what is wrong.
 */
const UNMATCHED: RoutePolicy = {
  route: 'unmatched',
  declared: { access: 'public' },
  queryParams: undefined,
  majors: undefined,
  supportedVersions: [],
  defaultVersion: undefined,
  versionRule: 'optional',
  consumes: undefined,
  produces: undefined,
  // Public, so that an unmatched path answers 404/405, not 401.
  scopes: [],
};

function compile(
  route: string,
  querystring: { properties?: Record<string, unknown> } | undefined,
  declared: Sol013RouteConfig | undefined,
  method: string,
  adminScope: string,
): RoutePolicy {
  const majors = declared?.api
    ? declared.major
      ? [findMajor(declared.api, declared.major)].filter((m): m is ApiMajor => m !== undefined)
      : majorsOf(declared.api)
    : undefined;
  if (declared?.api && majors?.length === 0) {
    throw new Error(`route declares unknown API ${declared.api}/${declared.major}`);
  }
  const produces = declared?.produces ?? [JSON_TYPE];
  return {
    route,
    declared,
    queryParams: Object.keys(querystring?.properties ?? {}),
    majors,
    supportedVersions: majors?.flatMap((m) => m.versions) ?? [],
    defaultVersion: majors ? newest(majors.map(currentVersion)) : undefined,
    versionRule: declared?.versionHeader ?? majors?.[0].versionHeader ?? 'optional',
    consumes: declared?.consumes ?? (method === 'PATCH' ? [MERGE_PATCH, JSON_TYPE] : [JSON_TYPE]),
    produces: produces.includes('*/*') ? undefined : produces,
    scopes: scopesAllowing(declared, method, adminScope),
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the request hook; read it instead of request.routeOptions (which allocates). */
    policy: RoutePolicy | undefined;
  }
}

export function routePolicy(request: FastifyRequest): RoutePolicy {
  const options = request.routeOptions;
  const config = options.config;
  let byMethod = cache.get(config);
  if (!byMethod) {
    byMethod = new Map();
    cache.set(config, byMethod);
  }
  let policy = byMethod.get(request.method);
  if (!policy) {
    const { adminScope } = request.server.bosun.config.auth.oauth2;
    if (options.url === undefined) policy = UNMATCHED;
    else {
      const querystring = options.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
      policy = compile(options.url, querystring, config.sol013, request.method, adminScope);
    }
    byMethod.set(request.method, policy);
  }
  request.policy = policy;
  return policy;
}
