/**
 * Which OAuth 2.0 scopes (src/sol/scopes.ts) allow a route: the admin scope grants everything on
 * every API and every project, and Bosun's own admin endpoints.
 */
import { API_REGISTRY } from '../../sol/api-versions.ts';
import type { Sol013RouteConfig } from '../sol013/route-config.ts';

/** The scopes any one of which allows the call; empty = public. */
export function scopesAllowing(
  route: Sol013RouteConfig | undefined,
  method: string,
  adminScope: string,
): string[] {
  const access = route?.access ?? (method === 'GET' || method === 'HEAD' ? 'read' : 'write');
  if (access === 'public') return [];
  const api = route?.api ?? route?.scopesOf;
  if (access === 'admin' || !api) return [adminScope];
  const majors =
    route?.api && route.major ? [route.major] : API_REGISTRY.filter((m) => m.api === api).map((m) => m.major);
  const granted = majors.flatMap((major) =>
    access === 'read' ? [`${api}:${major}:all`, `${api}:${major}:readonly`] : [`${api}:${major}:all`],
  );
  return [...granted, adminScope];
}
