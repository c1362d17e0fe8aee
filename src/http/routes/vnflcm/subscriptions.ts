/**
 * /vnflcm/v1/subscriptions (SOL003 v2.6.1 LccnSubscription) and /vnflcm/v2/subscriptions
 * (SOL003 v3.3.1, with verbosity), with the LifecycleChangeNotificationsFilter; served by the
 * generic subscription mechanism (notify/subscriptions/).
 */
import type { FastifyInstance } from 'fastify';
import { subscriptionApi } from '../../../notify/subscriptions/apis.ts';
import { mountSubscriptionResource } from '../subscriptions/resource.ts';

export function mountLcmSubscriptions(app: FastifyInstance, major: 'v1' | 'v2'): void {
  mountSubscriptionResource(app, subscriptionApi('vnflcm', major));
}
