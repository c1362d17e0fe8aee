/**
 * ETSI's SOL002/SOL003 v2.6.1 JSON schemas of VnfInstance, VnfLcmOpOcc and the LCM notification,
 * as the /vnflcm/v1 tests check representations with them — with local corrections (the schema
 * set's README says to fix them in tests) and closed objects, so that an attribute v2.6.1 does
 * not have (a v3.3.1 one such as vnfcInfo, zoneId, maxScaleLevels, affectedExtLinkPorts, or a
 * credential) fails validation instead of passing unnoticed:
 *
 * - instantiatedVnfInfo.virtualLinkResourceInfo is named vnfVirtualLinkResourceInfo, as in the
 *   SOL003 v2.6.1 document and Tacker's v1 API;
 * - SOL002's affectedVirtualLinks[].vnfVirtualLinkDescId is virtualLinkDescId, as in SOL003's
 *   VnfLcmOpOcc schema (the one resource shows SOL003's name; SOL003's notification schema has
 *   vnfVirtualLinkDescId, and notifications follow it);
 * - VnfInstance carries vnfPkgId, as Tacker's v1 API does (SOL002's schema calls the package
 *   vnfPkgInfoId and requires it: the same package under Tacker's name is accepted);
 * - one /vnflcm/v1 resource serves SOL002 and SOL003 (as Tacker's does), so the SOL002 check
 *   admits SOL003's vimConnectionInfo (SOL002's VnfInstance has none), and like SOL003's schema
 *   lets an instance without external CPs leave extCpInfo (1..N) out (SOL002's requires it).
 */
import { assertEtsiValid, LCM, type SchemaPatch } from '../../notify/subscriptions/etsi-schemas.ts';

export const SOL002_LCM = 'SOL002/VNFLifecycleManagement-API/schemas';

// biome-ignore lint/suspicious/noExplicitAny: JSON schema documents, edited in place
type Schema = any;

const close = (schema: Schema) => {
  schema.additionalProperties = false;
};
/** Renames a property of an object schema, in its properties and its required list. */
const rename = (object: Schema, from: string, to: string) => {
  const props = object.properties;
  if (props?.[from] && !props[to]) {
    props[to] = props[from];
    delete props[from];
  }
  if (Array.isArray(object.required)) {
    object.required = (object.required as string[]).map((r) => (r === from ? to : r));
  }
};
const closeItems = (props: Schema, ...names: string[]) => {
  for (const name of names) if (props?.[name]?.items) close(props[name].items);
};

const instanceV1: SchemaPatch = function instanceV1(schema: Schema) {
  const props = schema.properties;
  if (props.vnfPkgInfoId) rename(schema, 'vnfPkgInfoId', 'vnfPkgId');
  props.vnfPkgId = { type: 'string', description: 'Tacker v1: the package of the instance.' };
  props.vimConnectionInfo ??= { type: 'array', description: 'SOL003 (served on the same resource).' };
  close(schema);
  close(props._links);
  const info = props.instantiatedVnfInfo;
  rename(info, 'virtualLinkResourceInfo', 'vnfVirtualLinkResourceInfo');
  info.required = (info.required as string[]).filter((r) => r !== 'extCpInfo');
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
  closeItems(changes.properties, 'affectedVnfcs', 'affectedVirtualLinks', 'affectedVirtualStorages');
  closeItems(props, 'changedExtConnectivity');
};

const opOccSol002V1: SchemaPatch = function opOccSol002V1(schema: Schema) {
  rename(
    schema.properties.resourceChanges.properties.affectedVirtualLinks.items,
    'vnfVirtualLinkDescId',
    'virtualLinkDescId',
  );
  opOccV1(schema);
};

/**
 * An op occ in the list: SOL003 (5.4.12.3.2) has the list leave operationParams out by default
 * (exclude_default), which its schema requires; SOL002's does not require it.
 */
const listedOpOccV1: SchemaPatch = function listedOpOccV1(schema: Schema) {
  schema.required = (schema.required as string[]).filter((r) => r !== 'operationParams');
  opOccV1(schema);
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
  assertEtsiValid(`${SOL002_LCM}/vnfLcmOpOcc.schema.json`, value, `${what} (SOL002)`, opOccSol002V1);
}

/** A /vnflcm/v1 VnfLcmOpOcc of the list (operationParams may be left out). */
export function assertListedOpOccV1(value: unknown, what = 'listed VnfLcmOpOcc'): void {
  assertEtsiValid(`${LCM}/VnfLcmOpOcc.schema.json`, value, `${what} (SOL003)`, listedOpOccV1);
  assertEtsiValid(`${SOL002_LCM}/vnfLcmOpOcc.schema.json`, value, `${what} (SOL002)`, opOccSol002V1);
}

/** A v1 subscriber's VnfLcmOperationOccurrenceNotification (SOL003 v2.6.1; SOL002's file is empty). */
export function assertOpOccNotificationV1(value: unknown, what = 'notification'): void {
  assertEtsiValid(`${LCM}/VnfLcmOperationOccurrenceNotification.schema.json`, value, what, notificationV1);
}
