/**
 * The list resources of an LCM major (vnf_instances, vnf_lcm_op_occs): one engine over the
 * major's tables, parameterised by its filterable attributes and its view. The attributes both
 * majors' representations have are declared here; each major adds its own (v1/lists.ts,
 * v2/lists.ts). Scalar attributes with a column are filtered in SQL.
 */
import type { FastifyRequest } from 'fastify';
import type { OpOccRecord, VnfInstanceRecord } from '../../../lcm/model.ts';
import type { Params } from '../../../lcm/operation-def.ts';
import { parseProgress } from '../../../lcm/progress.ts';
import { instanceFromRow, type LcmStore, OP_OCC_LIST_COLUMNS, opOccFromRow } from '../../../lcm/store.ts';
import type { AttributeMap } from '../../../sol/attributes.ts';
import { OPERATION_STATES } from '../../../sol/lcm-operations.ts';
import type { LcmOpOccsTable, VnfInstancesTable } from '../../../store/db/tables.ts';
import type { ListQuery, ListResource } from '../../sol013/list-query.ts';

/** The three attributes of a ResourceHandle under `prefix`. */
export const handle = (prefix: string): AttributeMap => ({
  [`${prefix}/resourceId`]: { type: 'string' },
  [`${prefix}/vimConnectionId`]: { type: 'string' },
  [`${prefix}/vimLevelResourceType`]: { type: 'string' },
});

/** VnfInstance attributes of both SOL003 v2.6.1 and v3.3.1. */
export const INSTANCE_ATTRIBUTES: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  vnfInstanceName: { type: 'string', column: 'vnf_instance_name' },
  vnfInstanceDescription: { type: 'string', column: 'vnf_instance_description' },
  vnfdId: { type: 'string', column: 'vnfd_id' },
  vnfProvider: { type: 'string', column: 'vnf_provider' },
  vnfProductName: { type: 'string', column: 'vnf_product_name' },
  vnfSoftwareVersion: { type: 'string', column: 'vnf_software_version' },
  vnfdVersion: { type: 'string', column: 'vnfd_version' },
  instantiationState: {
    type: 'enum',
    values: ['NOT_INSTANTIATED', 'INSTANTIATED'],
    column: 'instantiation_state',
  },
  vnfConfigurableProperties: { type: 'keyValue' },
  metadata: { type: 'keyValue' },
  extensions: { type: 'keyValue' },
  'instantiatedVnfInfo/flavourId': { type: 'string' },
  'instantiatedVnfInfo/vnfState': { type: 'enum', values: ['STARTED', 'STOPPED'] },
  'instantiatedVnfInfo/scaleStatus/aspectId': { type: 'string' },
  'instantiatedVnfInfo/scaleStatus/scaleLevel': { type: 'number' },
  'instantiatedVnfInfo/extCpInfo/id': { type: 'string' },
  'instantiatedVnfInfo/extCpInfo/cpdId': { type: 'string' },
  'instantiatedVnfInfo/vnfcResourceInfo/id': { type: 'string' },
  'instantiatedVnfInfo/vnfcResourceInfo/vduId': { type: 'string' },
  ...handle('instantiatedVnfInfo/vnfcResourceInfo/computeResource'),
  'instantiatedVnfInfo/vnfcResourceInfo/metadata': { type: 'keyValue' },
  'instantiatedVnfInfo/vnfVirtualLinkResourceInfo/id': { type: 'string' },
  'instantiatedVnfInfo/vnfVirtualLinkResourceInfo/vnfVirtualLinkDescId': { type: 'string' },
  ...handle('instantiatedVnfInfo/vnfVirtualLinkResourceInfo/networkResource'),
  'instantiatedVnfInfo/virtualStorageResourceInfo/id': { type: 'string' },
  'instantiatedVnfInfo/virtualStorageResourceInfo/virtualStorageDescId': { type: 'string' },
  ...handle('instantiatedVnfInfo/virtualStorageResourceInfo/storageResource'),
  'instantiatedVnfInfo/localizationLanguage': { type: 'string' },
};

/** The attributes of an affected resource under `prefix`. */
export const change = (prefix: string): AttributeMap => ({
  [`${prefix}/id`]: { type: 'string' },
  [`${prefix}/changeType`]: { type: 'string' },
  [`${prefix}/metadata`]: { type: 'keyValue' },
});

/** VnfLcmOpOcc attributes of both SOL003 v2.6.1 and v3.3.1 but `operation`, whose values differ. */
export const OP_OCC_ATTRIBUTES: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  operationState: { type: 'enum', values: OPERATION_STATES, column: 'operation_state' },
  stateEnteredTime: { type: 'datetime', column: 'state_entered_time' },
  startTime: { type: 'datetime', column: 'start_time' },
  vnfInstanceId: { type: 'uuid', column: 'vnf_instance_id' },
  grantId: { type: 'string', column: 'grant_id' },
  isAutomaticInvocation: { type: 'boolean', column: 'is_automatic_invocation' },
  isCancelPending: { type: 'boolean', column: 'is_cancel_pending' },
  cancelMode: { type: 'enum', values: ['GRACEFUL', 'FORCEFUL'], column: 'cancel_mode' },
  operationParams: { type: 'keyValue' },
  'error/status': { type: 'number' },
  'error/title': { type: 'string' },
  'error/detail': { type: 'string' },
  ...change('resourceChanges/affectedVnfcs'),
  'resourceChanges/affectedVnfcs/vduId': { type: 'string' },
  ...handle('resourceChanges/affectedVnfcs/computeResource'),
  ...change('resourceChanges/affectedVirtualLinks'),
  'resourceChanges/affectedVirtualLinks/vnfVirtualLinkDescId': { type: 'string' },
  ...change('resourceChanges/affectedVirtualStorages'),
  'resourceChanges/affectedVirtualStorages/virtualStorageDescId': { type: 'string' },
  'changedInfo/vnfInstanceName': { type: 'string' },
  'changedInfo/vnfInstanceDescription': { type: 'string' },
  'changedInfo/vnfdId': { type: 'string' },
  'changedInfo/metadata': { type: 'keyValue' },
  'changedInfo/extensions': { type: 'keyValue' },
  'changedInfo/vnfConfigurableProperties': { type: 'keyValue' },
  'changedExtConnectivity/id': { type: 'string' },
};

const INSTANCE_EXCLUDED = [
  'vnfConfigurableProperties',
  'vimConnectionInfo',
  'instantiatedVnfInfo',
  'metadata',
  'extensions',
] as const;

const OP_OCC_EXCLUDED = [
  'operationParams',
  'error',
  'resourceChanges',
  'changedInfo',
  'changedExtConnectivity',
] as const;

/**
 * The default-excluded attributes a list request needs after all (asked for by a selector or
 * named in its filter); the others' JSON columns are not even parsed — they are the bulk of a row.
 */
const neededCache = new WeakMap<FastifyRequest, Set<string>>();
function needed(request: FastifyRequest, excluded: readonly string[]): Set<string> {
  let found = neededCache.get(request);
  if (found) return found;
  const q = (request.query ?? {}) as ListQuery & {
    all_fields?: string;
    fields?: string;
    exclude_fields?: string;
  };
  if (q.all_fields !== undefined || q.exclude_fields !== undefined) found = new Set(excluded);
  else {
    const fields = new Set((q.fields ?? '').split(',').map((f) => f.split('/')[0]));
    found = new Set(excluded.filter((a) => fields.has(a) || (q.filter ?? '').includes(a)));
  }
  neededCache.set(request, found);
  return found;
}

type InstanceView<V> = (record: VnfInstanceRecord, request: FastifyRequest) => V;
type OpOccView<V> = (record: OpOccRecord, request: FastifyRequest, facts: Params) => V;

export function instanceListOf<V extends object>(
  store: LcmStore,
  attributes: AttributeMap,
  view: InstanceView<V>,
): ListResource<VnfInstancesTable, V> {
  return {
    name: `vnf_instances_${store.major}`,
    attributes,
    defaultExcluded: INSTANCE_EXCLUDED,
    selectors: true,
    select(db, project) {
      const q = db.selectFrom(store.instances).selectAll();
      return project === undefined ? q : q.where('project_id', '=', project);
    },
    keyColumn: 'id',
    keyOf: (row) => row.id,
    toView: (row, request: FastifyRequest) =>
      view(
        instanceFromRow(
          needed(request, INSTANCE_EXCLUDED).has('instantiatedVnfInfo')
            ? row
            : { ...row, instantiated_vnf_info: null },
        ),
        request,
      ),
  };
}

type OpOccListRow = Pick<LcmOpOccsTable, (typeof OP_OCC_LIST_COLUMNS)[number] | 'progress'>;

/** The accept-time facts of a listed op occ (for its rollback link), read cheaply. */
function factsOf(row: OpOccListRow): Params {
  if (row.operation_state !== 'FAILED_TEMP') return {};
  return (parseProgress(row.progress).outputs.accept as Params | undefined) ?? {};
}

export function opOccListOf<V extends object>(
  store: LcmStore,
  attributes: AttributeMap,
  view: OpOccView<V>,
): ListResource<OpOccListRow, V> {
  return {
    name: `vnf_lcm_op_occs_${store.major}`,
    attributes,
    defaultExcluded: OP_OCC_EXCLUDED,
    selectors: true,
    select(db, project) {
      const q = db.selectFrom(store.opOccs).select([...OP_OCC_LIST_COLUMNS, 'progress']);
      return project === undefined ? q : q.where('project_id', '=', project);
    },
    keyColumn: 'id',
    keyOf: (row) => row.id,
    // Newest first: the operation just started is what a caller looks for.
    newestFirst: { column: 'start_time', of: (row) => row.start_time },
    toView: (row, request) => view(opOccFromRow(row as LcmOpOccsTable), request, factsOf(row)),
  };
}
