/** A subscription resource as a SOL013 list: the project's subscriptions of one API major, by id. */
import type { FastifyRequest } from 'fastify';
import { subscriptionFromRow } from '../../../notify/subscription-store.ts';
import type { SubscriptionApi } from '../../../notify/subscriptions/definition.ts';
import { subscriptionAttributes } from '../../../notify/subscriptions/filter-attributes.ts';
import {
  type SubscriptionView,
  subscriptionPath,
  subscriptionView,
} from '../../../notify/subscriptions/view.ts';
import type { SubscriptionsTable } from '../../../store/db/tables.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import type { ListResource } from '../../sol013/list-query.ts';

export function subscriptionList(
  definition: SubscriptionApi,
): ListResource<SubscriptionsTable, SubscriptionView> {
  return {
    // Also the paging.pageSizes key, shared by every API's subscriptions.
    name: 'subscriptions',
    attributes: subscriptionAttributes(definition),
    defaultExcluded: [],
    selectors: false,
    select(db, project) {
      const query = db
        .selectFrom('subscriptions')
        .selectAll()
        .where('api', '=', definition.api)
        .where('major', '=', definition.major);
      return project === undefined ? query : query.where('project_id', '=', project);
    },
    keyColumn: 'id',
    keyOf: (row) => row.id,
    toView: (row: SubscriptionsTable, request: FastifyRequest) =>
      subscriptionView(
        definition,
        subscriptionFromRow(row),
        absoluteUrl(request, subscriptionPath(definition, row.id)),
      ),
  };
}
