/**
 * Bosun's admin view of subscriptions of every API, with their delivery state:
 *   GET    /bosun/v1/subscriptions[?api=vnflcm]        list (SOL013 filter and paging)
 *   GET    /bosun/v1/subscriptions/{id}                one, with its delivery counters
 *   GET    /bosun/v1/subscriptions/{id}/notifications  its queued ones, dead with the reason
 *   POST   /bosun/v1/subscriptions/{id}/test           the SOL013 callback test, now
 *   POST   /bosun/v1/subscriptions/{id}/redeliver      dead notifications → pending
 *   DELETE /bosun/v1/subscriptions/{id}                the subscription and its queue
 * Every route takes `api` to insist on the subscription's API (404 otherwise). Admin only (the
 * bosun:admin scope when authentication is on): it spans every project.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CallbackTestError, runCallbackTest } from '../../../notify/delivery/callback-test.ts';
import {
  deleteWithQueue,
  redeliver,
  type StatusRow,
  type SubscriptionStatus,
  sealedAuthentication,
  statusQuery,
  subscriptionStatus,
  toStatus,
} from '../../../notify/delivery/status.ts';
import { API_NAMES } from '../../../sol/api-versions.ts';
import type { AttributeMap } from '../../../sol/attributes.ts';
import { ApiError } from '../../../sol/problem.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import { type ListResource, listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';
import { registerSubscriptionNotifications } from './subscription-notifications.ts';

const BASE = '/bosun/v1/subscriptions';
const ONE = `${BASE}/:subscriptionId`;
const sol013 = { access: 'admin' } as const;

const API_PARAM = { type: 'string', enum: [...API_NAMES] } as const;
const ONE_QUERY = { type: 'object', properties: { api: API_PARAM }, additionalProperties: false } as const;
const LIST_QUERY = {
  ...listQuerySchema({ selectors: false }),
  properties: { ...listQuerySchema({ selectors: false }).properties, api: API_PARAM },
} as const;

type View = SubscriptionStatus & { _links: { self: { href: string }; subscription: { href: string } } };

const ATTRIBUTES: AttributeMap = {
  id: { type: 'string', column: 's.id' },
  api: { type: 'string', column: 's.api' },
  major: { type: 'string', column: 's.major' },
  projectId: { type: 'string', column: 's.project_id' },
  callbackUri: { type: 'string', column: 's.callback_uri' },
  createdAt: { type: 'datetime', column: 's.created_at' },
  'delivery/delivered': { type: 'number' },
  'delivery/pending': { type: 'number' },
  'delivery/failing': { type: 'number' },
  'delivery/dead': { type: 'number' },
  'delivery/failedAttempts': { type: 'number' },
  'delivery/lastError': { type: 'string' },
  'delivery/lastErrorAt': { type: 'datetime' },
  'delivery/lastDeliveredAt': { type: 'datetime' },
};

function view(request: FastifyRequest, status: SubscriptionStatus): View {
  return {
    ...status,
    _links: {
      self: { href: absoluteUrl(request, `${BASE}/${status.id}`) },
      subscription: {
        href: absoluteUrl(request, `/${status.api}/${status.major}/subscriptions/${status.id}`),
      },
    },
  };
}

function listResource(api: string | undefined): ListResource<StatusRow, View> {
  return {
    name: 'bosun_subscriptions',
    attributes: ATTRIBUTES,
    defaultExcluded: [],
    selectors: false,
    // Admin only: every project, whatever `project` says.
    select: (db) => (api ? statusQuery(db).where('s.api', '=', api) : statusQuery(db)),
    keyColumn: 's.id',
    keyOf: (row) => row.id,
    toView: (row, request) => view(request, toStatus(row)),
  };
}

const idOf = (request: FastifyRequest) => (request.params as { subscriptionId: string }).subscriptionId;
const apiOf = (request: FastifyRequest) => (request.query as { api?: string }).api;

/** The subscription, or 404 (also when it is not of the API the caller insisted on). */
async function found(request: FastifyRequest): Promise<SubscriptionStatus> {
  const id = idOf(request);
  const status = await subscriptionStatus(request.server.bosun.db.kysely, id);
  const api = apiOf(request);
  if (!status || (api !== undefined && status.api !== api)) {
    throw new ApiError(404, `Subscription ${id} does not exist${api ? ` in the ${api} API` : ''}.`);
  }
  return status;
}

export function registerAdminSubscriptions(app: FastifyInstance): void {
  registerSubscriptionNotifications(app);

  app.get(BASE, { schema: { querystring: LIST_QUERY }, config: { sol013 } }, async (request, reply) =>
    sendPage(request, reply, await listPage(request, listResource(apiOf(request)))),
  );

  app.get(ONE, { schema: { querystring: ONE_QUERY }, config: { sol013 } }, async (request) =>
    view(request, await found(request)),
  );

  app.post(`${ONE}/test`, { schema: { querystring: ONE_QUERY }, config: { sol013 } }, async (request) => {
    const status = await found(request);
    const { db, box, callbacks } = request.server.bosun;
    const sealed = await sealedAuthentication(db.kysely, status.id);
    let authentication: Record<string, unknown> | undefined;
    try {
      authentication = sealed
        ? (JSON.parse(box.open(sealed).toString('utf8')) as Record<string, unknown>)
        : undefined;
    } catch {
      throw new ApiError(
        422,
        'The stored authentication of this subscription cannot be opened (was security.encryptionKey changed?).',
      );
    }
    try {
      await runCallbackTest(callbacks, {
        api: status.api,
        major: status.major,
        callbackUri: status.callbackUri,
        authentication,
      });
    } catch (error) {
      if (error instanceof CallbackTestError) throw new ApiError(422, error.message);
      throw error;
    }
    return { id: status.id, callbackUri: status.callbackUri, passed: true };
  });

  app.post(
    `${ONE}/redeliver`,
    { schema: { querystring: ONE_QUERY }, config: { sol013 } },
    async (request) => {
      const status = await found(request);
      return { id: status.id, redelivered: await redeliver(request.server.bosun.db, status.id) };
    },
  );

  app.delete(ONE, { schema: { querystring: ONE_QUERY }, config: { sol013 } }, async (request, reply) => {
    const status = await found(request);
    if (!(await deleteWithQueue(request.server.bosun.db, status.id))) {
      throw new ApiError(404, `Subscription ${status.id} does not exist.`);
    }
    return reply.code(204).send();
  });
}
