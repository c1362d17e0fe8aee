/**
 * /vnflcm/v1/subscriptions (SOL003 v2.6.1 LccnSubscription) and /vnflcm/v2/subscriptions
 * (SOL003 v3.3.1, with verbosity), with the LifecycleChangeNotificationsFilter; served by the
 * generic subscription mechanism (notify/subscriptions/).
 */
import type { FastifyInstance } from 'fastify';
import type { LcmMajor } from '../../../lcm/majors/index.ts';
import { subscriptionApi } from '../../../notify/subscriptions/apis.ts';
import { mountSubscriptionResource } from '../subscriptions/resource.ts';

export function mountLcmSubscriptions(app: FastifyInstance, major: LcmMajor): void {
  mountSubscriptionResource(app, subscriptionApi('vnflcm', major));
}
