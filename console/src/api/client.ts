/**
 * Every call the console makes to Bosun: the Version header of the API, the bearer token, JSON
 * in and out, and a ProblemDetails thrown for any failure (a refused token is renewed once, and
 * the caller signed out when that fails too).
 */
import { ApiProblem, problemOf } from './problem.ts';
import { authorization, renewToken, signOut } from './session.ts';
import { versionFor } from './versions.ts';

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON (merge-patch JSON for PATCH). */
  json?: unknown;
  ifMatch?: string;
  accept?: string;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

async function send(path: string, request: ApiRequest): Promise<Response> {
  const headers = new Headers({ Accept: request.accept ?? 'application/json' });
  const version = versionFor(path);
  if (version) headers.set('Version', version);
  const auth = await authorization();
  if (auth) headers.set('Authorization', auth);
  if (request.ifMatch) headers.set('If-Match', request.ifMatch);
  let body: string | undefined;
  if (request.json !== undefined) {
    headers.set(
      'Content-Type',
      request.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    );
    body = JSON.stringify(request.json);
  }
  try {
    return await fetch(path, {
      method: request.method ?? 'GET',
      headers,
      body,
      credentials: 'omit',
      signal: request.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiProblem({
      status: 0,
      title: 'No answer',
      detail: `Bosun did not answer (${(err as Error).message}): is it running and reachable?`,
    });
  }
}

async function bodyOf(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 304) return undefined;
  const type = res.headers.get('Content-Type') ?? '';
  if (type.includes('json')) return res.json().catch(() => undefined);
  return res.text();
}

/** Calls Bosun; resolves with the answer of a 2xx, throws ApiProblem for anything else. */
export async function api<T = unknown>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  let res = await send(path, request);
  if (res.status === 401 && (await renewToken())) res = await send(path, request);
  if (res.status === 401) {
    const body = await bodyOf(res);
    const problem = problemOf(res.status, res.statusText, body);
    signOut(`Signed out: ${problem.message}`);
    throw problem;
  }
  const body = await bodyOf(res);
  if (!res.ok) throw problemOf(res.status, res.statusText, body);
  return { status: res.status, headers: res.headers, body: body as T };
}

/** A file from Bosun (an artifact, a VNFD) saved by the browser under `name`. */
export async function download(path: string, name: string): Promise<void> {
  let res = await send(path, { accept: '*/*' });
  if (res.status === 401 && (await renewToken())) res = await send(path, { accept: '*/*' });
  if (!res.ok) throw problemOf(res.status, res.statusText, await bodyOf(res));
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
