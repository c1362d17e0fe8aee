/**
 * ETSI's SOL002/SOL003 v2.6.1 JSON schemas of VnfInstance, VnfLcmOpOcc and the LCM notification,
 * as the /vnflcm/v1 tests check representations with them — with local corrections (the schema
 * set's README says to fix them in tests) and closed objects, so that an attribute v2.6.1 does
 * not have (a v3.3.1 one such as vnfcInfo, zoneId, maxScaleLevels, affectedExtLinkPorts, or a
 * credential) fails validation instead of passing unnoticed:
 *
 * - instantiatedVnfInfo.virtualLinkResourceInfo is named vnfVirtualLinkResourceInfo, as in the
 *   SOL003 v2.6.1 document and Tacker's v1 API;
 * - SOL003's affectedVirtualLinks[].virtualLinkDescId is vnfVirtualLinkDescId, as in the SOL002
 *   schema and the notification schema of the same set;
 * - VnfInstance carries vnfPkgId, as Tacker's v1 API does (SOL002's schema calls the package
 *   vnfPkgInfoId and requires it: the same package under Tacker's name is accepted);
 * - one /vnflcm/v1 resource serves SOL002 and SOL003 (as Tacker's does), so the SOL002 check
 *   admits SOL003's vimConnectionInfo (SOL002's VnfInstance has none);
 * - extCpInfo may be empty (SOL003's schema says 1..N): a VNF instantiated without external
 *   connectivity has no external CP instance yet, and Bosun shows [] as Tacker does rather than
 *   invent one.
 */
import { assertEtsiValid, LCM, type SchemaPatch } from '../../notify/subscriptions/etsi-schemas.ts';

export const SOL002_LCM = 'SOL002/VNFLifecycleManagement-API/schemas';

// biome-ignore lint/suspicious/noExplicitAny: JSON schema documents, edited in place
type Schema = any;

const close = (schema: Schema) => {
  schema.additionalProperties = false;
};
const rename = (props: Schema, from: string, to: string) => {
  if (props?.[from] && !props[to]) {
    props[to] = props[from];
    delete props[from];
  }
};
const closeItems = (props: Schema, ...names: string[]) => {
  for (const name of names) if (props?.[name]?.items) close(props[name].items);
};

const instanceV1: SchemaPatch = function instanceV1(schema: Schema) {
  const props = schema.properties;
  props.vnfPkgId = { type: 'string', description: 'Tacker v1: the package of the instance.' };
  if (props.vnfPkgInfoId) {
    delete props.vnfPkgInfoId;
    schema.required = (schema.required as string[]).map((r) => (r === 'vnfPkgInfoId' ? 'vnfPkgId' : r));
  }
  props.vimConnectionInfo ??= { type: 'array', description: 'SOL003 (served on the same resource).' };
  close(schema);
  close(props._links);
  const info = props.instantiatedVnfInfo;
  rename(info.properties, 'virtualLinkResourceInfo', 'vnfVirtualLinkResourceInfo');
  delete info.properties.extCpInfo.minItems;
  close(info);
  closeItems(
    info.properties,
    'scaleStatus',
    'extCpInfo',
    'extVirtualLinkInfo',
    'extManagedVirtualLinkInfo',
    'vnfcResourceInfo',
    'vnfVirtualLinkResourceInfo',
    'virtualStorageResourceInfo',
  );
  if (props.vimConnectionInfo?.items) close(props.vimConnectionInfo.items);
};

const opOccV1: SchemaPatch = function opOccV1(schema: Schema) {
  const props = schema.properties;
  close(schema);
  close(props._links);
  const changes = props.resourceChanges;
  close(changes);
  const links = changes.properties.affectedVirtualLinks.items;
  rename(links.properties, 'virtualLinkDescId', 'vnfVirtualLinkDescId');
  links.required = (links.required as string[]).map((r) =>
    r === 'virtualLinkDescId' ? 'vnfVirtualLinkDescId' : r,
  );
  closeItems(changes.properties, 'affectedVnfcs', 'affectedVirtualLinks', 'affectedVirtualStorages');
  closeItems(props, 'changedExtConnectivity');
};

const notificationV1: SchemaPatch = function notificationV1(schema: Schema) {
  close(schema);
  close(schema.properties._links);
};

/** A /vnflcm/v1 VnfInstance, against the SOL003 and the SOL002 v2.6.1 schemas. */
export function assertInstanceV1(value: unknown, what = 'VnfInstance'): void {
  assertEtsiValid(`${LCM}/vnfInstance.schema.json`, value, `${what} (SOL003)`, instanceV1);
  assertEtsiValid(`${SOL002_LCM}/vnfInstance.schema.json`, value, `${what} (SOL002)`, instanceV1);
}

/** A /vnflcm/v1 VnfLcmOpOcc, against the SOL003 and the SOL002 v2.6.1 schemas. */
export function assertOpOccV1(value: unknown, what = 'VnfLcmOpOcc'): void {
  assertEtsiValid(`${LCM}/VnfLcmOpOcc.schema.json`, value, `${what} (SOL003)`, opOccV1);
  assertEtsiValid(`${SOL002_LCM}/vnfLcmOpOcc.schema.json`, value, `${what} (SOL002)`, opOccV1);
}

/** A v1 subscriber's VnfLcmOperationOccurrenceNotification (SOL003 v2.6.1; SOL002's file is empty). */
export function assertOpOccNotificationV1(value: unknown, what = 'notification'): void {
  assertEtsiValid(`${LCM}/VnfLcmOperationOccurrenceNotification.schema.json`, value, what, notificationV1);
}
