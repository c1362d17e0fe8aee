/**
 * A route's declaration (route-config.ts) resolved once into what the per-request checks need:
 * API majors, versions, Version rule, media types, scopes. Memoised per route and method, so
 * the hot path reads fields instead of recomputing them on every request.
 */
import type { FastifyRequest } from 'fastify';
import { scopesAllowing } from '../auth/scopes.ts';
import { type ApiMajor, currentVersion, findMajor, majorsOf } from './api-versions.ts';
import type { Sol013RouteConfig } from './route-config.ts';

export const JSON_TYPE = 'application/json';
export const MERGE_PATCH = 'application/merge-patch+json';

export interface RoutePolicy {
  declared: Sol013RouteConfig | undefined;
  /** The API majors the route belongs to; undefined for unversioned routes. */
  majors: ApiMajor[] | undefined;
  supportedVersions: readonly string[];
  /** Version answered when the request names none (the newest the route serves). */
  defaultVersion: string | undefined;
  versionRule: 'required' | 'optional' | 'any';
  consumes: readonly string[];
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

function compile(declared: Sol013RouteConfig | undefined, method: string, adminScope: string): RoutePolicy {
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
    declared,
    majors,
    supportedVersions: majors?.flatMap((m) => m.versions) ?? [],
    defaultVersion: majors ? newest(majors.map(currentVersion)) : undefined,
    versionRule: declared?.versionHeader ?? majors?.[0].versionHeader ?? 'optional',
    consumes: declared?.consumes ?? (method === 'PATCH' ? [MERGE_PATCH, JSON_TYPE] : [JSON_TYPE]),
    produces: produces.includes('*/*') ? undefined : produces,
    scopes: scopesAllowing(declared, method, adminScope),
  };
}

export function routePolicy(request: FastifyRequest): RoutePolicy {
  const config = request.routeOptions.config;
  let byMethod = cache.get(config);
  if (!byMethod) {
    byMethod = new Map();
    cache.set(config, byMethod);
  }
  let policy = byMethod.get(request.method);
  if (!policy) {
    // An unmatched path (the 404/405 handler) is public, so that it answers 404/405, not 401.
    const declared = request.routeOptions.url === undefined ? { access: 'public' as const } : config.sol013;
    policy = compile(declared, request.method, request.server.bosun.config.auth.oauth2.adminScope);
    byMethod.set(request.method, policy);
  }
  return policy;
}
