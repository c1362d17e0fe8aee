/**
 * /vnfpm/v2/subscriptions (SOL003 v3.3.1 PmSubscription with the PmNotificationsFilter), served
 * by the generic subscription mechanism (notify/subscriptions/).
 */
import type { FastifyInstance } from 'fastify';
import { subscriptionApi } from '../../../notify/subscriptions/apis.ts';
import { mountSubscriptionResource } from '../subscriptions/resource.ts';

export function mountPmSubscriptions(app: FastifyInstance): void {
  mountSubscriptionResource(app, subscriptionApi('vnfpm', 'v2'));
}
