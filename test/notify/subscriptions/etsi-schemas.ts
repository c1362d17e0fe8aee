/**
 * ETSI's JSON schemas of the SOL v2.6.1 data model (shared/etsi/schemas-v2.6.1), compiled for
 * tests. Some files wrap the schema in an OpenAPI parameter object ({name, in, schema}); it is
 * unwrapped. v3.3.1 representations add attributes to the v2.6.1 ones, so these schemas also
 * check the attributes both generations share.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

const candidates = [
  new URL('../../../../shared/etsi/schemas-v2.6.1', import.meta.url).pathname,
  '/work/shared/etsi/schemas-v2.6.1',
];
const root = candidates.find((c) => existsSync(c));
if (!root) throw new Error(`the ETSI schemas are missing (looked in ${candidates.join(', ')})`);

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const compiled = new Map<string, ValidateFunction>();

/** A local correction of a published schema (see the README of the schema set). */
// biome-ignore lint/suspicious/noExplicitAny: a JSON schema document, edited in place
export type SchemaPatch = (schema: any) => void;

/**
 * `path` relative to schemas-v2.6.1, e.g. SOL003/VNFLifecycleManagement-API/schemas/LccnSubscription.schema.json;
 * `patch` corrects it first (compiled once per path and patch).
 */
export function etsiValidator(path: string, patch?: SchemaPatch): ValidateFunction {
  const key = patch ? `${path}#${patch.name}` : path;
  let validate = compiled.get(key);
  if (!validate) {
    const document = JSON.parse(readFileSync(`${root}/${path}`, 'utf8'));
    const schema = document.in === 'body' && document.schema ? document.schema : document;
    patch?.(schema);
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

export function assertEtsiValid(path: string, value: unknown, what = path, patch?: SchemaPatch): void {
  const validate = etsiValidator(path, patch);
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value)}`);
}

/**
 * PmSubscription: the v2.6.1 schema has filter.notificationTypes as one string; SOL003 v3.3.1
 * (which /vnfpm/v2 follows, as Tacker does) makes it a list of the same values.
 */
export const pmNotificationTypesList: SchemaPatch = function pmNotificationTypesList(schema) {
  const filter = schema.properties.filter.properties;
  const { description, ...item } = filter.notificationTypes;
  filter.notificationTypes = { description, type: 'array', items: item };
};

export const LCM = 'SOL003/VNFLifecycleManagement-API/schemas';
export const FM = 'SOL003/VNFFaultManagementNotification-API/schemas';
export const FM_API = 'SOL003/VNFFaultManagement-API/schemas';
export const PM = 'SOL003/VNFPerformanceManagement-API/schemas';
export const PKGM = 'SOL003/VNFPackageManagement-API/schemas';
