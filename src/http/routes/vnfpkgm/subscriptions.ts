/**
 * /vnfpkgm/v1/subscriptions and /vnfpkgm/v2/subscriptions (SOL005 PkgmSubscription with the
 * PkgmNotificationsFilter), served by the generic subscription mechanism (notify/subscriptions/).
 */
import type { FastifyInstance } from 'fastify';
import { subscriptionApi } from '../../../notify/subscriptions/apis.ts';
import { mountSubscriptionResource } from '../subscriptions/resource.ts';

export function mountSubscriptions(app: FastifyInstance, major: 'v1' | 'v2'): void {
  mountSubscriptionResource(app, subscriptionApi('vnfpkgm', major));
}
