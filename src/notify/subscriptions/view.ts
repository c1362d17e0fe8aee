/**
 * The representation of a subscription (PkgmSubscription, LccnSubscription, FmSubscription,
 * PmSubscription): id, filter (when it has one), callbackUri, verbosity (LCM v2) and the self
 * link. Authentication is never part of it.
 */
import type { SubscriptionRecord } from '../subscription-store.ts';
import type { SubscriptionApi } from './definition.ts';

export interface SubscriptionView {
  id: string;
  filter?: Record<string, unknown>;
  callbackUri: string;
  verbosity?: string;
  _links: { self: { href: string } };
}

/** The resource path of a subscription, e.g. /vnflcm/v2/subscriptions/{id}. */
export const subscriptionPath = (definition: SubscriptionApi, id: string) =>
  `/${definition.api}/${definition.major}/subscriptions/${id}`;

export function subscriptionView(
  definition: SubscriptionApi,
  record: SubscriptionRecord,
  selfHref: string,
): SubscriptionView {
  return {
    id: record.id,
    ...(Object.keys(record.filter).length ? { filter: record.filter } : {}),
    callbackUri: record.callbackUri,
    ...(definition.verbosity === 'stored' ? { verbosity: record.verbosity ?? 'FULL' } : {}),
    _links: { self: { href: selfHref } },
  };
}
