/**
 * The REST surface of the test API server: discovery and OpenAPI, and for every kind the
 * collection (list, watch, create, deletecollection) and item (get, update, patch, delete) verbs
 * with their status and scale subresources, at the real server's paths. Errors are Status objects.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { Cluster } from './cluster.ts';
import { deleteObject } from './deletion.ts';
import {
  apiGroup,
  apiGroupList,
  apiVersions,
  openApiDocument,
  openApiIndex,
  resourceList,
  VERSION,
} from './discovery.ts';
import { apiVersionOf, type Kind, kindByPlural } from './kinds.ts';
import { checkStrictFields } from './resources/schema.ts';
import { scaleOf, writeScale } from './scale.ts';
import { parseFieldSelector, parseLabelSelector } from './selectors.ts';
import { badRequest, methodNotAllowed, noSuchResource, StatusError, tooLarge } from './status.ts';
import type { Obj } from './store.ts';
import { toTable, wantsTable } from './tables.ts';
import { serveWatch } from './watch.ts';

/** The real server's request body limit. */
export const BODY_LIMIT = 3 * 1024 * 1024;

export interface Routes {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Open watch streams, ended when the server stops. */
  watches: Set<ServerResponse>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      // Past the limit the rest is read and dropped, so that the client gets its 413.
      if (size > BODY_LIMIT) reject(tooLarge(BODY_LIMIT));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text) return undefined;
  if (!/json|yaml/.test(contentType ?? 'application/json')) {
    // Protobuf and CBOR bodies (typed Go clients) are not decoded by this test server.
    throw new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (this test API server does not decode ${contentType})`,
    );
  }
  try {
    return /yaml/.test(contentType ?? '') ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw badRequest(
      `error decoding ${/yaml/.test(contentType ?? '') ? 'YAML' : 'JSON'}: ${(e as Error).message}`,
    );
  }
}

const send = (res: ServerResponse, code: number, body: unknown) => {
  res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
  res.end(JSON.stringify(body));
};

interface Target {
  kind: Kind;
  namespace?: string;
  name?: string;
  sub?: string;
}

function target(segments: string[]): Target | undefined {
  let group = '';
  let rest: string[];
  let version: string;
  if (segments[0] === 'api') {
    version = segments[1];
    rest = segments.slice(2);
  } else {
    group = segments[1];
    version = segments[2];
    rest = segments.slice(3);
  }
  let namespace: string | undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && ['status', 'finalize'].includes(rest[2]))
  ) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const kind = kindByPlural(group, version, rest[0]);
  if (!kind || rest.length > 3) return undefined;
  if (namespace && !kind.namespaced) return undefined;
  const sub = rest[2];
  if (sub && !kind.subresources.includes(sub as 'status')) return undefined;
  return { kind, namespace, name: rest[1], sub };
}

/** `kubectl` and client-go send their field manager; without one the real server takes the user agent's first word. */
const managerOf = (req: IncomingMessage, q: URLSearchParams) =>
  q.get('fieldManager') ?? (req.headers['user-agent'] ?? 'unknown').split('/')[0].slice(0, 128);

export function createRoutes(cluster: Cluster, serverAddress: () => string): Routes {
  const watches = new Set<ServerResponse>();

  function collection(
    req: IncomingMessage,
    res: ServerResponse,
    t: Target,
    q: URLSearchParams,
    body: unknown,
  ) {
    const { kind, namespace } = t;
    const labels = parseLabelSelector(q.get('labelSelector'));
    const fields = parseFieldSelector(q.get('fieldSelector'));
    const matches = (o: Obj) => labels(o.metadata.labels) && fields(o);
    const table = wantsTable(req.headers.accept);
    const includeObject = q.get('includeObject') ?? 'Metadata';
    if (req.method === 'GET') {
      if (q.get('watch') === 'true' || q.get('watch') === '1') {
        return serveWatch(
          res,
          cluster.store,
          {
            kind,
            namespace,
            matches,
            resourceVersion: q.get('resourceVersion') ?? undefined,
            sendInitialEvents: q.get('sendInitialEvents') === 'true',
            timeoutSeconds: q.has('timeoutSeconds') ? Number(q.get('timeoutSeconds')) : undefined,
            render: (o) => (table ? toTable(kind, [o], o.metadata.resourceVersion, includeObject) : o),
          },
          watches,
        );
      }
      const rv = cluster.store.resourceVersion;
      let items = cluster.store.list(kind, namespace).filter(matches);
      const offset = q.get('continue')
        ? Number(JSON.parse(Buffer.from(q.get('continue')!, 'base64').toString()).offset)
        : 0;
      const limit = Number(q.get('limit') ?? 0);
      let more: string | undefined;
      let remaining = 0;
      items = items.slice(offset);
      if (limit > 0 && items.length > limit) {
        remaining = items.length - limit;
        items = items.slice(0, limit);
        more = Buffer.from(JSON.stringify({ offset: offset + limit, rv })).toString('base64');
      }
      if (table) {
        const t2 = toTable(kind, items, rv, includeObject);
        if (more) t2.metadata.continue = more;
        return send(res, 200, t2);
      }
      return send(res, 200, {
        kind: `${kind.kind}List`,
        apiVersion: apiVersionOf(kind),
        metadata: { resourceVersion: rv, ...(more ? { continue: more, remainingItemCount: remaining } : {}) },
        items: items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest),
      });
    }
    if (req.method === 'POST') {
      if (kind.namespaced && !namespace) throw noSuchResource();
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw badRequest('the body of the request must be an object');
      const b = body as Obj;
      checkStrictFields(kind, b, q.get('fieldValidation'));
      const ns = b.metadata?.namespace;
      if (kind.namespaced && ns && ns !== namespace) {
        throw badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      return send(
        res,
        201,
        cluster.create(kind, namespace, b, { manager: managerOf(req, q), dryRun: q.get('dryRun') === 'All' }),
      );
    }
    if (req.method === 'DELETE') {
      const removed = cluster.store.list(kind, namespace).filter(matches);
      for (const o of removed)
        deleteObject(cluster, kind, o.metadata.namespace, o.metadata.name, {
          dryRun: q.get('dryRun') === 'All',
        });
      return send(res, 200, {
        kind: `${kind.kind}List`,
        apiVersion: apiVersionOf(kind),
        metadata: { resourceVersion: cluster.store.resourceVersion },
        items: removed,
      });
    }
    throw methodNotAllowed(`the server does not allow this method on the requested resource`);
  }

  function item(req: IncomingMessage, res: ServerResponse, t: Target, q: URLSearchParams, body: unknown) {
    const { kind, namespace, name, sub } = t;
    if (kind.namespaced && !namespace) throw noSuchResource();
    const manager = managerOf(req, q);
    const dryRun = q.get('dryRun') === 'All';
    const n = name!;
    const table = wantsTable(req.headers.accept);
    const view = (o: Obj) =>
      sub === 'scale'
        ? scaleOf(o)
        : table
          ? toTable(kind, [o], o.metadata.resourceVersion, q.get('includeObject') ?? 'Metadata')
          : o;
    switch (req.method) {
      case 'GET':
        return send(res, 200, view(cluster.get(kind, namespace, n)));
      case 'PUT':
        if (typeof body !== 'object' || body === null)
          throw badRequest('the body of the request must be an object');
        if (sub === 'scale')
          return send(
            res,
            200,
            writeScale(cluster, kind, namespace, n, { type: 'put', body }, { manager, dryRun }),
          );
        checkStrictFields(kind, body as Obj, q.get('fieldValidation'));
        return send(
          res,
          200,
          cluster.update(kind, namespace, n, body as Obj, { manager, subresource: sub as 'status', dryRun }),
        );
      case 'PATCH': {
        const type = Cluster.parsePatchType(req.headers['content-type']);
        if (sub === 'scale')
          return send(res, 200, writeScale(cluster, kind, namespace, n, { type, body }, { manager, dryRun }));
        const existed = cluster.find(kind, namespace, n);
        const out = cluster.patch(kind, namespace, n, type, body, {
          manager: q.get('fieldManager') ?? (type === 'apply' ? '' : manager),
          subresource: sub as 'status',
          force: q.get('force') === 'true',
          dryRun,
        });
        return send(res, existed ? 200 : 201, out);
      }
      case 'DELETE': {
        const b = (body ?? {}) as Obj;
        const grace = q.get('gracePeriodSeconds') ?? b.gracePeriodSeconds;
        const out = deleteObject(cluster, kind, namespace, n, {
          propagationPolicy:
            q.get('propagationPolicy') ??
            b.propagationPolicy ??
            (b.orphanDependents === true ? 'Orphan' : undefined),
          gracePeriodSeconds: grace === undefined || grace === null ? undefined : Number(grace),
          preconditions: b.preconditions,
          dryRun: dryRun || (Array.isArray(b.dryRun) && b.dryRun.includes('All')),
        });
        return send(res, 200, out);
      }
      default:
        throw methodNotAllowed('the server does not allow this method on the requested resource');
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'https://kube-api');
      const q = url.searchParams;
      const path = url.pathname.replace(/\/+$/, '');
      const segments = path.split('/').filter(Boolean);
      const text = await readBody(req);
      const dry = q.get('dryRun');
      if (dry !== null && dry !== 'All') {
        throw new StatusError(
          400,
          'BadRequest',
          `dryRun: Unsupported value: "${dry}": supported values: "All"`,
        );
      }
      if (req.method === 'GET') {
        const fixed: Record<string, () => unknown> = {
          '/version': () => VERSION,
          '/healthz': () => 'ok',
          '/readyz': () => 'ok',
          '/livez': () => 'ok',
          '/api': () => apiVersions(serverAddress()),
          '/apis': apiGroupList,
          '/openapi/v3': openApiIndex,
        };
        if (fixed[path]) {
          const out = fixed[path]();
          if (typeof out === 'string') {
            res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
            return void res.end(out);
          }
          return send(res, 200, out);
        }
        if (path.startsWith('/openapi/v3/')) {
          const doc = openApiDocument(path.slice('/openapi/v3/'.length));
          return doc ? send(res, 200, doc) : send(res, 404, noSuchResource().toStatus());
        }
        const gv = segments[0] === 'api' ? segments[1] : `${segments[1]}/${segments[2]}`;
        if (
          (segments[0] === 'api' && segments.length === 2) ||
          (segments[0] === 'apis' && segments.length === 3)
        ) {
          const list = resourceList(gv);
          return list ? send(res, 200, list) : send(res, 404, noSuchResource().toStatus());
        }
        if (segments[0] === 'apis' && segments.length === 2) {
          const group = apiGroup(segments[1]);
          return group
            ? send(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...group })
            : send(res, 404, noSuchResource().toStatus());
        }
      }
      const t = segments[0] === 'api' || segments[0] === 'apis' ? target(segments) : undefined;
      if (!t) throw noSuchResource();
      const body = parseBody(text, req.headers['content-type']);
      if (t.name === undefined) collection(req, res, t, q, body);
      else item(req, res, t, q, body);
    } catch (e) {
      if (e instanceof StatusError) return send(res, e.code, e.toStatus());
      send(
        res,
        500,
        new StatusError(
          500,
          'InternalError',
          `Internal error occurred: ${(e as Error).stack ?? e}`,
        ).toStatus(),
      );
    }
  }

  return { handle, watches };
}
