/** The headers of every call to a callback: JSON both ways and the API's Version (SOL013 §4.2.2). */
import { type ApiName, currentVersion, findMajor } from '../../sol/api-versions.ts';

/** The current version of the API major the subscription belongs to, e.g. vnfpkgm v2 → 2.1.0. */
export function apiVersion(api: string, major: string): string {
  const found = findMajor(api as ApiName, major);
  if (!found) throw new Error(`no API ${api}/${major} is registered`);
  return currentVersion(found);
}

export function callbackHeaders(api: string, major: string, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    version: apiVersion(api, major),
    'user-agent': 'Bosun',
  };
  if (withBody) headers['content-type'] = 'application/json';
  return headers;
}
