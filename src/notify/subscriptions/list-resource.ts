/** A subscription resource as a SOL013 list: the project's subscriptions of one API major, by id. */
import type { FastifyRequest } from 'fastify';
import { absoluteUrl } from '../../http/sol013/links.ts';
import type { ListResource } from '../../http/sol013/list-query.ts';
import type { SubscriptionsTable } from '../../store/db/tables.ts';
import { subscriptionFromRow } from '../subscription-store.ts';
import type { SubscriptionApi } from './definition.ts';
import { subscriptionAttributes } from './filter-attributes.ts';
import { type SubscriptionView, subscriptionPath, subscriptionView } from './view.ts';

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
