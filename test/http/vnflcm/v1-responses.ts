/**
 * Every /vnflcm/v1 response body a test receives, checked against ETSI's SOL002/SOL003 v2.6.1
 * schemas: test/support/http.ts calls this for each response, so no test can forget it. A JSON
 * body on a route and status this table does not know fails too (add its schema here).
 */
import assert from 'node:assert/strict';
import { assertEtsiValid, LCM, type SchemaPatch } from '../../notify/subscriptions/etsi-schemas.ts';
import { assertInstanceV1, assertListedOpOccV1, assertOpOccV1 } from './v1-schemas.ts';

type Check = (body: unknown, what: string) => void;

// biome-ignore lint/suspicious/noExplicitAny: a JSON schema document, edited in place
const closed: SchemaPatch = function closed(schema: any) {
  schema.additionalProperties = false;
  if (schema.properties?._links) schema.properties._links.additionalProperties = false;
};

const schema =
  (file: string, patch?: SchemaPatch): Check =>
  (body, what) =>
    assertEtsiValid(`${LCM}/${file}`, body, what, patch);

/** A list body: an array whose every item passes `check`. */
const each =
  (check: Check): Check =>
  (body, what) => {
    assert.ok(Array.isArray(body), `${what}: a list answer must be a JSON array`);
    for (const [i, item] of body.entries()) check(item, `${what}[${i}]`);
  };

const subscription = schema('LccnSubscription.schema.json', closed);

/** Paths relative to /vnflcm/v1 (query left out), for the successful answers with a body. */
const ROUTES: readonly { method: string; path: RegExp; status: number; check: Check }[] = [
  {
    method: 'GET',
    path: /^\/api_versions$/,
    status: 200,
    check: schema('ApiVersionInformation.schema.json'),
  },
  { method: 'GET', path: /^\/vnf_instances$/, status: 200, check: each(assertInstanceV1) },
  { method: 'POST', path: /^\/vnf_instances$/, status: 201, check: assertInstanceV1 },
  { method: 'GET', path: /^\/vnf_instances\/[^/]+$/, status: 200, check: assertInstanceV1 },
  { method: 'GET', path: /^\/vnf_lcm_op_occs$/, status: 200, check: each(assertListedOpOccV1) },
  { method: 'GET', path: /^\/vnf_lcm_op_occs\/[^/]+$/, status: 200, check: assertOpOccV1 },
  { method: 'POST', path: /^\/vnf_lcm_op_occs\/[^/]+\/fail$/, status: 200, check: assertOpOccV1 },
  { method: 'GET', path: /^\/subscriptions$/, status: 200, check: each(subscription) },
  { method: 'POST', path: /^\/subscriptions$/, status: 201, check: subscription },
  { method: 'GET', path: /^\/subscriptions\/[^/]+$/, status: 200, check: subscription },
];

const problem = schema('ProblemDetails.schema.json');

export const V1_PREFIX = '/vnflcm/v1';

/**
 * Checks one answer to `method path` (path from the server root, under /vnflcm/v1, query
 * included). Bodies that are not JSON (none, or an error page from a proxy) are not checked here.
 */
export function checkV1Response(
  method: string,
  path: string,
  response: { status: number; body: unknown; headers: Headers },
): void {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json') || typeof response.body !== 'object' || response.body === null) return;
  const route = new URL(path, 'http://localhost').pathname.slice(V1_PREFIX.length);
  const what = `${method} ${path} → ${response.status}`;
  if (response.status >= 400) {
    problem(response.body, what);
    return;
  }
  const known = ROUTES.find(
    (r) => r.method === method.toUpperCase() && r.status === response.status && r.path.test(route),
  );
  assert.ok(
    known,
    `${what}: a JSON body with no v2.6.1 schema to check it against (add it to v1-responses.ts)`,
  );
  known.check(response.body, what);
}
