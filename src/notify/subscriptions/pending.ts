/**
 * The common frame of every SOL notification: a stable `id` per subscriber copy, the type, the
 * subscription, one timeStamp for every copy, the API's own fields and `_links` (path-absolute
 * hrefs, resolved at delivery). Each API's notifications module only says what differs.
 */
import { randomUUID } from 'node:crypto';
import type { PendingNotification, SubscriptionTarget } from '../outbox.ts';

export type Links = Record<string, { href: string }>;

export interface NotificationParts {
  notificationType: string;
  /** Whether a subscription with this (parsed) filter wants it. */
  matches(filter: unknown): boolean;
  /** The fields between timeStamp and _links, for this subscriber (major, verbosity). */
  fields(target: SubscriptionTarget): Record<string, unknown>;
  links(target: SubscriptionTarget): Links;
}

export function pendingNotification(parts: NotificationParts): PendingNotification {
  const timeStamp = new Date().toISOString();
  return {
    notificationType: parts.notificationType,
    matches: parts.matches,
    build: (target) => ({
      id: randomUUID(),
      notificationType: parts.notificationType,
      subscriptionId: target.id,
      timeStamp,
      ...parts.fields(target),
      _links: parts.links(target),
    }),
  };
}

/** The path of a subscription resource, as notifications link it. */
export const subscriptionLink = (api: string, target: SubscriptionTarget) => ({
  href: `/${api}/${target.major}/subscriptions/${target.id}`,
});
