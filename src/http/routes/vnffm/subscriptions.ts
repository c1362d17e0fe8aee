/**
 * /vnffm/v1/subscriptions (SOL003 FmSubscription with the FmNotificationsFilter), served by the
 * generic subscription mechanism (notify/subscriptions/).
 */
import type { FastifyInstance } from 'fastify';
import { subscriptionApi } from '../../../notify/subscriptions/apis.ts';
import { mountSubscriptionResource } from '../subscriptions/resource.ts';

export function mountFmSubscriptions(app: FastifyInstance): void {
  mountSubscriptionResource(app, subscriptionApi('vnffm', 'v1'));
}
