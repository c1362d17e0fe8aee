/**
 * One engine for every SOL list resource: attribute filter (pushed into SQL where the
 * attribute has a column, evaluated on the representation otherwise), attribute selectors,
 * project isolation and marker paging in a stable key order. A resource declares what it is
 * (ListResource); a route calls `listPage` and sends what it returns.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../../store/db/database.ts';
import type { Executor } from '../../store/db/transaction.ts';
import { visibleProject } from '../auth/caller.ts';
import type { AttributeMap } from './attributes.ts';
import { type BoundTerm, compileFilter, filterToSql, matchesFilter, splitFilter } from './filter/index.ts';
import { withQueryParam } from './links.ts';
import { MARKER_PARAM } from './paging.ts';
import { applySelector, parseSelectors, type Selector, type SelectorQuery } from './selectors.ts';

// biome-ignore lint/suspicious/noExplicitAny: list resources select from any table
type AnySelect<Row> = SelectQueryBuilder<any, any, Row>;

export interface ListResource<Row, View extends object> {
  /** Name of the list (paging.pageSizes key, marker binding), e.g. 'vnf_packages'. */
  name: string;
  attributes: AttributeMap;
  /** Complex attributes left out unless asked for (exclude_default). */
  defaultExcluded: readonly string[];
  /** Whether the list supports attribute selectors (some SOL lists do not). */
  selectors: boolean;
  /** The rows visible to a project (undefined = all projects), without order or limit. */
  select(db: Executor, project: string | undefined): AnySelect<Row>;
  /** Unique, stable sort column (e.g. 'id'), and how to read it from a row. */
  keyColumn: string;
  keyOf(row: Row): string;
  toView(row: Row, request: FastifyRequest): View;
}

export interface ListQuery extends SelectorQuery {
  filter?: string;
  nextpage_opaque_marker?: string;
}

/** The querystring schema of a list route: every SOL013 list parameter, each a string. */
export function listQuerySchema(options: { selectors: boolean }) {
  const str = { type: 'string', maxLength: 8192 } as const;
  const properties: Record<string, typeof str> = { filter: str, [MARKER_PARAM]: str };
  if (options.selectors) {
    Object.assign(properties, { all_fields: str, fields: str, exclude_fields: str, exclude_default: str });
  }
  return { type: 'object', properties, additionalProperties: false } as const;
}

export interface Page<View> {
  items: Partial<View>[];
  nextMarker?: string;
}

async function scan<Row, View extends object>(
  resource: ListResource<Row, View>,
  request: FastifyRequest,
  base: AnySelect<Row>,
  dialect: DialectName,
  pushdown: BoundTerm[],
  inMemory: BoundTerm[],
  after: string | undefined,
  wanted: number,
): Promise<{ row: Row; view: View }[]> {
  const found: { row: Row; view: View }[] = [];
  // Without in-memory terms one query of `wanted` rows is exact; with them, read in batches.
  const batch = inMemory.length === 0 ? wanted : Math.max(wanted * 2, 200);
  let cursor = after;
  for (;;) {
    let query = base;
    if (pushdown.length) query = query.where((eb) => filterToSql(eb, pushdown, dialect));
    if (cursor !== undefined) query = query.where(resource.keyColumn, '>', cursor);
    const rows = (await query.orderBy(resource.keyColumn).limit(batch).execute()) as Row[];
    for (const row of rows) {
      const view = resource.toView(row, request);
      if (inMemory.length === 0 || matchesFilter(view, { terms: inMemory })) {
        found.push({ row, view });
        if (found.length === wanted) return found;
      }
    }
    if (rows.length < batch) return found;
    cursor = resource.keyOf(rows[rows.length - 1]);
  }
}

export async function listPage<Row, View extends object>(
  request: FastifyRequest,
  resource: ListResource<Row, View>,
): Promise<Page<View>> {
  const { config, db, paging } = request.server.bosun;
  const query = (request.query ?? {}) as ListQuery;
  const filter =
    query.filter === undefined ? { terms: [] } : compileFilter(query.filter, resource.attributes);
  const selector: Selector = resource.selectors ? parseSelectors(query) : { kind: 'all' };
  const project = visibleProject(request.caller);
  const listing = JSON.stringify([query.filter ?? '', project ?? '*']);
  const after =
    query.nextpage_opaque_marker === undefined
      ? undefined
      : paging.decode(resource.name, listing, query.nextpage_opaque_marker);
  const pageSize = config.paging.pageSizes[resource.name] ?? config.paging.defaultPageSize;
  const { pushdown, inMemory } = splitFilter(filter);
  const base = resource.select(db.kysely, project);
  const found = await scan(resource, request, base, db.dialect, pushdown, inMemory, after, pageSize + 1);
  const page = found.slice(0, pageSize);
  const items = page.map(({ view }) => applySelector(view, selector, resource.defaultExcluded));
  if (found.length <= pageSize) return { items };
  return {
    items,
    nextMarker: paging.encode(resource.name, listing, resource.keyOf(page[page.length - 1].row)),
  };
}

/** Sends a page: the JSON array, and a `Link: <…>; rel="next"` keeping the other query parameters. */
export function sendPage<View>(request: FastifyRequest, reply: FastifyReply, page: Page<View>) {
  if (page.nextMarker) {
    reply.header('Link', `<${withQueryParam(request, MARKER_PARAM, page.nextMarker)}>; rel="next"`);
  }
  return reply.send(page.items);
}
