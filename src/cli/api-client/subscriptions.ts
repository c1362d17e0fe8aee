/**
 * The subscription calls of the CLI: create through the SOL API it is for, the others through the
 * admin subscriptions API (/bosun/v1/subscriptions), which sees every API's.
 */

import type { SubscriptionStatus } from '../../notify/delivery/status.ts';
import { type ApiMajor, currentVersion } from '../../sol/api-versions.ts';
import type { ApiClient } from './client.ts';
import { responseError } from './errors.ts';

// What the admin API answers: the server's own type (erased at run time), not a copy of it.
export type { SubscriptionStatus };

export const SUBSCRIPTIONS = '/bosun/v1/subscriptions';

/** `?api=…` when the caller insisted on an API (the server answers 404 for another API's id). */
const withApi = (path: string, api: string | undefined) =>
  api ? `${path}?${new URLSearchParams({ api }).toString()}` : path;
const one = (id: string, rest = '') => `${SUBSCRIPTIONS}/${encodeURIComponent(id)}${rest}`;

export const listSubscriptions = (client: ApiClient, api?: string, filter?: string) => {
  const query = new URLSearchParams();
  if (api) query.set('api', api);
  if (filter) query.set('filter', filter);
  const q = query.toString();
  return client.list<SubscriptionStatus>(q ? `${SUBSCRIPTIONS}?${q}` : SUBSCRIPTIONS);
};

export const getSubscription = (client: ApiClient, id: string, api?: string) =>
  client.json<SubscriptionStatus>('GET', withApi(one(id), api));

export const testSubscription = (client: ApiClient, id: string, api?: string) =>
  client.json<{ id: string; callbackUri: string; passed: boolean }>('POST', withApi(one(id, '/test'), api));

export const redeliverSubscription = (client: ApiClient, id: string, api?: string) =>
  client.json<{ id: string; redelivered: number }>('POST', withApi(one(id, '/redeliver'), api));

export const deleteSubscription = (client: ApiClient, id: string, api?: string) =>
  client.request('DELETE', withApi(one(id), api));

/** A SOL subscription as its API answers it (SOL013 fields common to every API). */
export interface Subscription {
  id: string;
  callbackUri: string;
  filter?: Record<string, unknown>;
  verbosity?: string;
  _links?: Record<string, { href: string }>;
  [field: string]: unknown;
}

/**
 * POST /<api>/<major>/subscriptions with the major's current Version. `existing` when the
 * server answered 303 (see other): an identical subscription is already there, and is returned.
 */
export async function createSubscription(
  client: ApiClient,
  major: ApiMajor,
  request: Record<string, unknown>,
): Promise<{ subscription: Subscription; existing: boolean }> {
  const path = `/${major.api}/${major.major}/subscriptions`;
  const headers = { version: currentVersion(major) };
  const res = await client.request('POST', path, {
    json: request,
    headers,
    allowError: true,
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  if (res.status === 303 && location) {
    await res.body?.cancel();
    const id = new URL(location, 'http://base.invalid').pathname.split('/').pop() ?? '';
    return {
      subscription: await client.json<Subscription>('GET', `${path}/${id}`, { headers }),
      existing: true,
    };
  }
  if (!res.ok) throw await responseError(res);
  return { subscription: (await res.json()) as Subscription, existing: false };
}
