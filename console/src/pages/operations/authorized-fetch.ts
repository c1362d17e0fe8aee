/**
 * fetch with the session's bearer token, renewed once on a 401: what the event stream reads
 * through (it needs the raw response body, which the JSON API client does not give).
 */
import { authorization, renewToken } from '../../api/session.ts';

export async function authorizedFetch(url: string, init: RequestInit): Promise<Response> {
  const attempt = async () => {
    const headers = new Headers(init.headers);
    const auth = await authorization();
    if (auth) headers.set('Authorization', auth);
    return fetch(url, { ...init, headers, credentials: 'omit' });
  };
  const response = await attempt();
  if (response.status === 401 && (await renewToken())) return attempt();
  return response;
}
