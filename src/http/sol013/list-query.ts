/**
 * One engine for every SOL list resource: attribute filter (pushed into SQL where the
 * attribute has a column, evaluated on the representation otherwise), attribute selectors,
 * project isolation and marker paging in a stable key order. A resource declares what it is
 * (ListResource); a route calls `listPage` and sends what it returns.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { Config } from '../../config/load.ts';
import type { AttributeMap } from '../../sol/attributes.ts';
import { badRequest } from '../../sol/problem.ts';
import type { DialectName } from '../../store/db/database.ts';
import type { Executor } from '../../store/db/transaction.ts';
import { visibleProject } from '../auth/caller.ts';
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
  /**
   * Lists newest first: by this column descending, ties by the key descending. Without it the
   * list is in key order.
   */
  newestFirst?: { column: string; of(row: Row): string };
  toView(row: Row, request: FastifyRequest): View;
}

/** Where a page starts: after this row in the list's order. */
type Cursor = { key: string; time?: string };

export interface ListQuery extends SelectorQuery {
  filter?: string;
  nextpage_opaque_marker?: string;
  /** Tacker's `all_records=yes`: one page of up to paging.allRecordsMax items. */
  all_records?: string;
}

/** The querystring schema of a list route: every SOL013 list parameter, each a string. */
export function listQuerySchema(options: { selectors: boolean }) {
  const str = { type: 'string', maxLength: 8192 } as const;
  const properties: Record<string, typeof str> = { filter: str, [MARKER_PARAM]: str, all_records: str };
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
  after: Cursor | undefined,
  wanted: number,
): Promise<{ row: Row; view: View }[]> {
  const found: { row: Row; view: View }[] = [];
  // Without in-memory terms one query of `wanted` rows is exact; with them, read in batches.
  const batch = inMemory.length === 0 ? wanted : Math.max(wanted * 2, 200);
  let cursor = after;
  for (;;) {
    let query = base;
    if (pushdown.length) query = query.where((eb) => filterToSql(eb, pushdown, dialect));
    const rows = (await ordered(resource, query, cursor).limit(batch).execute()) as Row[];
    for (const row of rows) {
      const view = resource.toView(row, request);
      if (inMemory.length === 0 || matchesFilter(view, { terms: inMemory })) {
        found.push({ row, view });
        if (found.length === wanted) return found;
      }
    }
    if (rows.length < batch) return found;
    cursor = cursorOf(resource, rows[rows.length - 1]);
  }
}

/** The rows after `cursor` in the list's order (keyset paging: exact whatever is inserted meanwhile). */
function ordered<Row>(
  resource: ListResource<Row, object>,
  query: AnySelect<Row>,
  cursor: Cursor | undefined,
): AnySelect<Row> {
  const key = resource.keyColumn;
  const newest = resource.newestFirst;
  if (!newest) {
    const after = cursor === undefined ? query : query.where(key, '>', cursor.key);
    return after.orderBy(key);
  }
  const after =
    cursor?.time === undefined
      ? query
      : query.where((eb) =>
          eb.or([
            eb(newest.column, '<', cursor.time),
            eb.and([eb(newest.column, '=', cursor.time), eb(key, '<', cursor.key)]),
          ]),
        );
  return after.orderBy(newest.column, 'desc').orderBy(key, 'desc');
}

function cursorOf<Row>(resource: ListResource<Row, object>, row: Row): Cursor {
  return { key: resource.keyOf(row), time: resource.newestFirst?.of(row) };
}

/** A marker's key: the row's key, or `[time, key]` for a newest-first list. */
const encodeCursor = (cursor: Cursor) =>
  cursor.time === undefined ? cursor.key : JSON.stringify([cursor.time, cursor.key]);

function decodeCursor(resource: ListResource<unknown, object>, text: string): Cursor {
  if (!resource.newestFirst) return { key: text };
  const parsed: unknown = text.startsWith('[') ? JSON.parse(text) : undefined;
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((v) => typeof v === 'string')) {
    throw badRequest(
      `Paging marker is invalid: it belongs to an older listing. Restart the listing without ${MARKER_PARAM}.`,
    );
  }
  return { time: parsed[0], key: parsed[1] };
}

/** 400 naming a selector path whose attribute the resource does not have. */
function checkSelected(resource: ListResource<unknown, object>, selector: Selector): void {
  if (selector.kind === 'all' || !('fields' in selector) || !selector.fields) return;
  const known = knownAttributes(resource);
  const unknown = selector.fields.find((path) => !known.has(path[0]));
  if (unknown) {
    throw badRequest(
      `Invalid attribute selector: '${unknown.join('/')}' names no attribute of ${resource.name}; attributes: ${[...known].join(', ')}.`,
    );
  }
}

const attributeNames = new WeakMap<object, Set<string>>();
function knownAttributes(resource: ListResource<unknown, object>): Set<string> {
  let names = attributeNames.get(resource);
  if (!names) {
    names = new Set(
      [...Object.keys(resource.attributes), ...resource.defaultExcluded, '_links'].map(
        (path) => path.split('/')[0],
      ),
    );
    attributeNames.set(resource, names);
  }
  return names;
}

/** The page size: the list's own, or the all_records maximum for `all_records=yes`. */
function pageSizeOf(
  resource: ListResource<unknown, object>,
  query: ListQuery,
  paging: Config['paging'],
): number {
  if (query.all_records === undefined) return paging.pageSizes[resource.name] ?? paging.defaultPageSize;
  if (query.all_records !== 'yes') {
    throw badRequest(`Query parameter 'all_records' takes only the value 'yes', got '${query.all_records}'.`);
  }
  return paging.allRecordsMax;
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
  checkSelected(resource, selector);
  const pageSize = pageSizeOf(resource, query, config.paging);
  const project = visibleProject(request.caller);
  const listing = JSON.stringify([query.filter ?? '', project ?? '*']);
  const after =
    query.nextpage_opaque_marker === undefined
      ? undefined
      : decodeCursor(resource, paging.decode(resource.name, listing, query.nextpage_opaque_marker));
  const { pushdown, inMemory } = splitFilter(filter);
  const base = resource.select(db.kysely, project);
  const found = await scan(resource, request, base, db.dialect, pushdown, inMemory, after, pageSize + 1);
  const page = found.slice(0, pageSize);
  const items = page.map(({ view }) => applySelector(view, selector, resource.defaultExcluded));
  if (found.length <= pageSize) return { items };
  return {
    items,
    nextMarker: paging.encode(
      resource.name,
      listing,
      encodeCursor(cursorOf(resource, page[page.length - 1].row)),
    ),
  };
}

/** Sends a page: the JSON array, and a `Link: <…>; rel="next"` keeping the other query parameters. */
export function sendPage<View>(request: FastifyRequest, reply: FastifyReply, page: Page<View>) {
  if (page.nextMarker) {
    reply.header('Link', `<${withQueryParam(request, MARKER_PARAM, page.nextMarker)}>; rel="next"`);
  }
  return reply.send(page.items);
}
