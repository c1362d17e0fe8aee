/**
 * Mounts one API major's subscription resource from its definition:
 *   POST   /<api>/<major>/subscriptions        201 + Location, or 303 to an identical one
 *   GET    /<api>/<major>/subscriptions        SOL013 filter and paging (no selectors)
 *   GET    /<api>/<major>/subscriptions/{id}   404 when absent or another project's
 *   DELETE /<api>/<major>/subscriptions/{id}   204; its undelivered notifications go with it
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deleteSubscription, getSubscription } from '../../../notify/subscription-store.ts';
import { type SubscriptionRequest, subscribe } from '../../../notify/subscriptions/create.ts';
import type { SubscriptionApi } from '../../../notify/subscriptions/definition.ts';
import { createBodySchema, representationSchema } from '../../../notify/subscriptions/schemas.ts';
import { subscriptionPath, subscriptionView } from '../../../notify/subscriptions/view.ts';
import { ApiError } from '../../../sol/problem.ts';
import { inTransaction } from '../../../store/db/transaction.ts';
import { visibleProject } from '../../auth/caller.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import { listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';
import { subscriptionList } from './list-resource.ts';

export function mountSubscriptionResource(app: FastifyInstance, definition: SubscriptionApi): void {
  const sol013 = { api: definition.api, major: definition.major };
  const base = `/${definition.api}/${definition.major}/subscriptions`;
  const one = `${base}/:subscriptionId`;
  const list = subscriptionList(definition);
  const representation = representationSchema(definition);
  const params = Type.Object({ subscriptionId: Type.String() });
  const tags = [`${definition.api}/${definition.major}`];
  const idOf = (request: FastifyRequest) => (request.params as { subscriptionId: string }).subscriptionId;
  const hrefOf = (request: FastifyRequest, id: string) =>
    absoluteUrl(request, subscriptionPath(definition, id));
  const notFound = (id: string) => new ApiError(404, `Subscription ${id} does not exist.`);

  app.post(
    base,
    {
      schema: {
        tags,
        summary: `Subscribe to ${definition.api} notifications`,
        body: createBodySchema(definition),
        response: {
          201: representation,
          303: Type.Null({ description: 'An identical subscription exists: Location names it.' }),
        },
      },
      config: { sol013 },
    },
    async (request, reply) => {
      const { config, db, box, callbacks } = request.server.bosun;
      const { created, record } = await subscribe(
        { config, db: db.kysely, box, callbacks },
        definition,
        request.caller.project,
        request.body as SubscriptionRequest,
      );
      const href = hrefOf(request, record.id);
      if (!created) return reply.code(303).header('Location', href).send();
      return reply
        .code(201)
        .header('Location', href)
        .send(subscriptionView(definition, record, href));
    },
  );

  app.get(
    base,
    {
      schema: {
        tags,
        summary: `List the ${definition.api} subscriptions`,
        querystring: listQuerySchema({ selectors: false }),
        response: { 200: Type.Array(representation) },
      },
      config: { sol013 },
    },
    async (request, reply) => sendPage(request, reply, await listPage(request, list)),
  );

  app.get(
    one,
    {
      schema: { tags, summary: 'Show a subscription', params, response: { 200: representation } },
      config: { sol013 },
    },
    async (request) => {
      const id = idOf(request);
      const found = await getSubscription(
        request.server.bosun.db.kysely,
        definition,
        id,
        visibleProject(request.caller),
      );
      if (!found) throw notFound(id);
      return subscriptionView(definition, found, hrefOf(request, id));
    },
  );

  app.delete(
    one,
    { schema: { tags, summary: 'Terminate a subscription', params }, config: { sol013 } },
    async (request, reply) => {
      const id = idOf(request);
      const deleted = await inTransaction(request.server.bosun.db, (trx) =>
        deleteSubscription(trx, definition, id, visibleProject(request.caller)),
      );
      if (!deleted) throw notFound(id);
      return reply.code(204).send();
    },
  );
}
