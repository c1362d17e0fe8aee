/**
 * A fixture resource ("widgets") mounted through the real app assembly, so tests and
 * benchmarks exercise the SOL013 layer (filters, selectors, paging, ETag, Location, project
 * isolation, content negotiation) exactly as product routes will use it.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { canSee } from '../../src/http/auth/caller.ts';
import { checkIfMatch, etagOf, setEtag } from '../../src/http/sol013/etag.ts';
import { absoluteUrl } from '../../src/http/sol013/links.ts';
import { type ListResource, listPage, listQuerySchema, sendPage } from '../../src/http/sol013/list-query.ts';
import type { AttributeMap } from '../../src/sol/attributes.ts';
import { ApiError } from '../../src/sol/problem.ts';
import type { Database } from '../../src/store/db/database.ts';

export interface WidgetRow {
  id: string;
  project_id: string;
  name: string;
  size: number;
  enabled: boolean | number;
  created_at: string;
  labels: string;
  parts: string;
}

export interface Widget {
  id: string;
  name: string;
  size: number;
  enabled: boolean;
  createdAt: string;
  labels: Record<string, unknown>;
  parts: { partId: string; weight: number }[];
  _links: { self: { href: string } };
}

// biome-ignore lint/suspicious/noExplicitAny: the fixture table is not part of the product schema
type AnyDb = Kysely<any>;

export async function createWidgetTable(db: Database): Promise<void> {
  const k = db.kysely as AnyDb;
  await k.schema
    .createTable('fixture_widgets')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('labels', 'text', (c) => c.notNull())
    .addColumn('parts', 'text', (c) => c.notNull())
    .execute();
}

export function widgetRow(project: string, values: Partial<Omit<Widget, '_links'>> = {}): WidgetRow {
  return {
    id: values.id ?? randomUUID(),
    project_id: project,
    name: values.name ?? 'widget',
    size: values.size ?? 1,
    enabled: values.enabled ?? true,
    created_at: values.createdAt ?? new Date().toISOString(),
    labels: JSON.stringify(values.labels ?? {}),
    parts: JSON.stringify(values.parts ?? []),
  };
}

export async function insertWidgets(db: Database, rows: WidgetRow[]): Promise<void> {
  const k = db.kysely as AnyDb;
  for (let i = 0; i < rows.length; i += 500) {
    await k
      .insertInto('fixture_widgets')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

const attributes: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  name: { type: 'string', column: 'name' },
  size: { type: 'number', column: 'size' },
  enabled: { type: 'boolean', column: 'enabled' },
  createdAt: { type: 'datetime', column: 'created_at' },
  labels: { type: 'keyValue' },
  'parts/partId': { type: 'string' },
  'parts/weight': { type: 'number' },
};

function toView(row: WidgetRow, request: FastifyRequest): Widget {
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    enabled: row.enabled === true || row.enabled === 1,
    createdAt: row.created_at,
    labels: JSON.parse(row.labels),
    parts: JSON.parse(row.parts),
    _links: { self: { href: absoluteUrl(request, `/fixture/widgets/${row.id}`) } },
  };
}

export const widgetList: ListResource<WidgetRow, Widget> = {
  name: 'fixture_widgets',
  attributes,
  defaultExcluded: ['labels', 'parts'],
  selectors: true,
  select(db, project) {
    const q = (db as AnyDb).selectFrom('fixture_widgets').selectAll().$castTo<WidgetRow>();
    return project === undefined ? q : q.where('project_id', '=', project);
  },
  keyColumn: 'id',
  keyOf: (row) => row.id,
  toView,
};

/** The same widgets, newest first (by createdAt, ties by id). */
export const newestWidgetList: ListResource<WidgetRow, Widget> = {
  ...widgetList,
  name: 'fixture_widgets_newest',
  newestFirst: { column: 'created_at', of: (row) => row.created_at },
};

const sol013 = { api: 'vnflcm', major: 'v2' } as const;

const CreateWidget = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    size: { type: 'integer', minimum: 0 },
    labels: { type: 'object' },
  },
} as const;

const ModifyWidget = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64 },
    size: { type: 'integer', minimum: 0 },
  },
  additionalProperties: false,
} as const;

async function load(request: FastifyRequest, id: string): Promise<WidgetRow> {
  const row = (await (request.server.bosun.db.kysely as AnyDb)
    .selectFrom('fixture_widgets')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()) as WidgetRow | undefined;
  if (!row || !canSee(request.caller, row.project_id))
    throw new ApiError(404, `Widget ${id} does not exist.`);
  return row;
}

export async function registerWidgets(app: FastifyInstance): Promise<void> {
  await createWidgetTable(app.bosun.db);
  const k = () => app.bosun.db.kysely as AnyDb;
  app.get(
    '/fixture/widgets',
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, widgetList)),
  );
  app.get(
    '/fixture/widgets-newest',
    { schema: { querystring: listQuerySchema({ selectors: true }) }, config: { sol013 } },
    async (request, reply) => sendPage(request, reply, await listPage(request, newestWidgetList)),
  );
  app.post(
    '/fixture/widgets',
    { schema: { body: CreateWidget }, config: { sol013 } },
    async (request, reply) => {
      const body = request.body as { name: string; size?: number; labels?: Record<string, unknown> };
      const row = widgetRow(request.caller.project, body);
      await k().insertInto('fixture_widgets').values(row).execute();
      const view = toView(row, request);
      setEtag(reply, etagOf(view));
      return reply.code(201).header('Location', view._links.self.href).send(view);
    },
  );
  app.get('/fixture/widgets/:id', { config: { sol013 } }, async (request, reply) => {
    const view = toView(await load(request, (request.params as { id: string }).id), request);
    setEtag(reply, etagOf(view));
    return view;
  });
  app.patch(
    '/fixture/widgets/:id',
    { schema: { body: ModifyWidget }, config: { sol013 } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const body = request.body as { name?: string; size?: number } | undefined;
      if (!body) throw new ApiError(400, 'The request body is missing: send a JSON merge patch.');
      const current = await load(request, id);
      checkIfMatch(request, etagOf(toView(current, request)));
      const changed = { ...current, ...body };
      await k()
        .updateTable('fixture_widgets')
        .set({ name: changed.name, size: changed.size })
        .where('id', '=', id)
        .execute();
      const view = toView(changed, request);
      setEtag(reply, etagOf(view));
      return view;
    },
  );
  app.delete('/fixture/widgets/:id', { config: { sol013 } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    await load(request, id);
    await k().deleteFrom('fixture_widgets').where('id', '=', id).execute();
    return reply.code(204).send();
  });
  // Any status through ApiError: each renders as ProblemDetails.
  app.get('/fixture/status/:code', { config: { sol013 } }, async (request) => {
    const code = Number((request.params as { code: string }).code);
    throw new ApiError(code, `Fixture failure ${code}.`);
  });
  // Documents in several media types, chosen by Accept (like a VNFD: zip or text/plain).
  app.get(
    '/fixture/document',
    { config: { sol013: { ...sol013, produces: ['application/zip', 'text/plain'] } } },
    async (request, reply) =>
      request.negotiatedType === 'text/plain'
        ? reply.type('text/plain').send('tosca_definitions_version: tosca_simple_yaml_1_3\n')
        : reply.type('application/zip').send(Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'binary')),
  );
  // A raw binary upload (like package content): only application/zip is accepted.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/zip', (_request, payload, done) => done(null, payload));
    scope.put(
      '/fixture/upload',
      { config: { sol013: { ...sol013, consumes: ['application/zip'], produces: ['*/*'] } } },
      async (request, reply) => {
        let size = 0;
        for await (const chunk of request.body as AsyncIterable<Buffer>) size += chunk.length;
        return reply.code(202).send({ size });
      },
    );
  });
  // A route that always fails unexpectedly: the 500 must not leak the exception.
  app.get('/fixture/crash', { config: { sol013 } }, async () => {
    throw new Error('secret internal detail at /srv/bosun/db.ts:42');
  });
}
