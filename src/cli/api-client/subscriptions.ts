/** The admin subscriptions API (/bosun/v1/subscriptions) calls of the CLI. */
import type { SubscriptionStatus } from '../../notify/delivery/status.ts';
import type { ApiClient } from './client.ts';

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
