/**
 * /vnfpkgm/v1/subscriptions and /vnfpkgm/v2/subscriptions (SOL005 PkgmSubscription): create
 * (callback checked against the outbound-address policy; duplicates → 303), list (filter,
 * paging), show, delete. Subscriptions are project-scoped; authentication is sealed at rest and
 * never returned. The SOL013 callback test (GET expecting 204) belongs to the delivery engine.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OutboundPolicy } from '../../../net/address-policy.ts';
import { OutboundLookupError, OutboundRefusedError } from '../../../net/errors.ts';
import { PKGM_FILTER_SCHEMA } from '../../../notify/package-filter.ts';
import {
  createSubscription,
  deleteSubscription,
  findDuplicate,
  getSubscription,
  type SubscriptionRecord,
  type SubscriptionScope,
  subscriptionFromRow,
} from '../../../notify/subscription-store.ts';
import type { SubscriptionsTable } from '../../../store/db/tables.ts';
import { inTransaction } from '../../../store/db/transaction.ts';
import { visibleProject } from '../../auth/caller.ts';
import type { AttributeMap } from '../../sol013/attributes.ts';
import { absoluteUrl } from '../../sol013/links.ts';
import { type ListResource, listPage, listQuerySchema, sendPage } from '../../sol013/list-query.ts';
import { ApiError } from '../../sol013/problem.ts';

export interface PkgmSubscription {
  id: string;
  filter?: Record<string, unknown>;
  callbackUri: string;
  _links: { self: { href: string } };
}

const AUTHENTICATION_SCHEMA = {
  type: 'object',
  required: ['authType'],
  properties: {
    authType: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'string',
        enum: ['BASIC', 'OAUTH2_CLIENT_CREDENTIALS', 'OAUTH2_CLIENT_CERT', 'TLS_CERT'],
      },
    },
    paramsBasic: {
      type: 'object',
      properties: { userName: { type: 'string' }, password: { type: 'string' } },
    },
    paramsOauth2ClientCredentials: {
      type: 'object',
      properties: {
        clientId: { type: 'string' },
        clientPassword: { type: 'string' },
        tokenEndpoint: { type: 'string' },
      },
    },
    paramsOauth2ClientCert: { type: 'object' },
  },
} as const;

const CREATE_SCHEMA = {
  type: 'object',
  required: ['callbackUri'],
  properties: {
    filter: PKGM_FILTER_SCHEMA,
    callbackUri: { type: 'string', minLength: 1, maxLength: 2048 },
    authentication: AUTHENTICATION_SCHEMA,
  },
  additionalProperties: false,
} as const;

interface CreateBody {
  filter?: Record<string, unknown>;
  callbackUri: string;
  authentication?: Record<string, unknown>;
}

const strings = (names: string[]): AttributeMap =>
  Object.fromEntries(names.map((name) => [name, { type: 'string' } as const]));

const SUBSCRIPTION_ATTRIBUTES: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  callbackUri: { type: 'string', column: 'callback_uri' },
  ...strings([
    'filter/notificationTypes',
    'filter/vnfProductsFromProviders/vnfProvider',
    'filter/vnfProductsFromProviders/vnfProducts/vnfProductName',
    'filter/vnfProductsFromProviders/vnfProducts/versions/vnfSoftwareVersion',
    'filter/vnfProductsFromProviders/vnfProducts/versions/vnfdVersions',
    'filter/vnfdId',
    'filter/vnfPkgId',
    'filter/operationalState',
    'filter/usageState',
  ]),
};

const viewOf = (request: FastifyRequest, prefix: string, record: SubscriptionRecord): PkgmSubscription => ({
  id: record.id,
  ...(Object.keys(record.filter).length ? { filter: record.filter } : {}),
  callbackUri: record.callbackUri,
  _links: { self: { href: absoluteUrl(request, `${prefix}/${record.id}`) } },
});

function listResource(
  scope: SubscriptionScope,
  prefix: string,
): ListResource<SubscriptionsTable, PkgmSubscription> {
  return {
    name: 'subscriptions',
    attributes: SUBSCRIPTION_ATTRIBUTES,
    defaultExcluded: [],
    selectors: false,
    select(db, project) {
      const q = db
        .selectFrom('subscriptions')
        .selectAll()
        .where('api', '=', scope.api)
        .where('major', '=', scope.major);
      return project === undefined ? q : q.where('project_id', '=', project);
    },
    keyColumn: 'id',
    keyOf: (row) => row.id,
    toView: (row, request) => viewOf(request, prefix, subscriptionFromRow(row)),
  };
}

/** 400 for a malformed or relative URI, 422 for one the outbound policy refuses. */
async function checkCallback(request: FastifyRequest, callbackUri: string): Promise<void> {
  let url: URL;
  try {
    url = new URL(callbackUri);
  } catch {
    throw new ApiError(400, `callbackUri ${JSON.stringify(callbackUri)} is not an absolute URI.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError(
      422,
      `callbackUri must be an http or https URI, not ${url.protocol.replace(/:$/, '')}.`,
    );
  }
  if (url.username || url.password) {
    throw new ApiError(422, 'callbackUri must not carry credentials: use authentication.paramsBasic.');
  }
  try {
    await OutboundPolicy.fromConfig(request.server.bosun.config).check(url);
  } catch (error) {
    if (error instanceof OutboundRefusedError || error instanceof OutboundLookupError) {
      throw new ApiError(422, `callbackUri refused: ${error.message}`);
    }
    throw error;
  }
}

function checkAuthentication(auth: Record<string, unknown> | undefined): void {
  if (!auth) return;
  const types = auth.authType as string[];
  const need = (type: string, params: string, fields: string[]) => {
    if (!types.includes(type)) return;
    const given = auth[params] as Record<string, unknown> | undefined;
    const missing = fields.filter((f) => typeof given?.[f] !== 'string' || given[f] === '');
    if (missing.length) {
      throw new ApiError(400, `authentication: ${type} needs ${params} with ${missing.join(', ')}.`);
    }
  };
  need('BASIC', 'paramsBasic', ['userName', 'password']);
  need('OAUTH2_CLIENT_CREDENTIALS', 'paramsOauth2ClientCredentials', [
    'clientId',
    'clientPassword',
    'tokenEndpoint',
  ]);
}

export function mountSubscriptions(app: FastifyInstance, major: 'v1' | 'v2'): void {
  const sol013 = { api: 'vnfpkgm', major } as const;
  const scope: SubscriptionScope = { api: 'vnfpkgm', major };
  const base = `/vnfpkgm/${major}/subscriptions`;
  const one = `${base}/:subscriptionId`;
  const list = listResource(scope, base);
  const idOf = (request: FastifyRequest) => (request.params as { subscriptionId: string }).subscriptionId;
  const notFound = (id: string) => new ApiError(404, `Subscription ${id} does not exist.`);

  app.post(base, { schema: { body: CREATE_SCHEMA }, config: { sol013 } }, async (request, reply) => {
    const body = request.body as CreateBody;
    await checkCallback(request, body.callbackUri);
    checkAuthentication(body.authentication);
    const { db, box } = request.server.bosun;
    const wanted = {
      projectId: request.caller.project,
      ...scope,
      callbackUri: body.callbackUri,
      filter: body.filter,
      authentication: body.authentication,
    };
    const existing = await findDuplicate(db.kysely, wanted);
    if (existing) {
      return reply
        .code(303)
        .header('Location', absoluteUrl(request, `${base}/${existing.id}`))
        .send();
    }
    const view = viewOf(request, base, await createSubscription(db.kysely, box, wanted));
    return reply.code(201).header('Location', view._links.self.href).send(view);
  });

  app.get(
    base,
    { schema: { querystring: listQuerySchema({ selectors: false }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, list)),
  );

  app.get(one, { config: { sol013 } }, async (request) => {
    const id = idOf(request);
    const found = await getSubscription(
      request.server.bosun.db.kysely,
      scope,
      id,
      visibleProject(request.caller),
    );
    if (!found) throw notFound(id);
    return viewOf(request, base, found);
  });

  app.delete(one, { config: { sol013 } }, async (request, reply) => {
    const id = idOf(request);
    const deleted = await inTransaction(request.server.bosun.db, (trx) =>
      deleteSubscription(trx, scope, id, visibleProject(request.caller)),
    );
    if (!deleted) throw notFound(id);
    return reply.code(204).send();
  });
}
